/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: the running state of one RDMA function: control QP and its
 * completion queue, event queues and their interrupts, the HMC backing
 * and the PBLE pool. hw.c brings it up and down; utils.c runs CQP
 * commands and owns the DMA memory helpers.
 */
#ifndef IRDMA_HW_H
#define IRDMA_HW_H

#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "ctrl.h"
#include "hmc.h"
#include "pble.h"
#include "qos.h"
#include "uk.h"

struct irdma_func;
struct irdma_hw;
struct irdma_ilq;

/* Ring sizes of the privileged queues, in elements */
#define IRDMA_HW_CQP_SIZE	128
#define IRDMA_HW_CCQ_SIZE	256
/* The AEQ and CEQ sizes the engine takes, and the smallest we give */
#define IRDMA_HW_AEQ_MAX	524287
#define IRDMA_HW_CEQ_MAX	262143
#define IRDMA_HW_EQ_MIN		8
/* How long a CQP command, or the CQP itself, may take to complete */
#define IRDMA_HW_CQP_TIMEOUT_MS	3000
/* HMC profile asked for; halved until it fits the function's SDs */
#define IRDMA_HW_HMC_QPS	1024
#define IRDMA_HW_HMC_PBLES	65536
/* The AEQ has vector 0, CEQ n has vector n + 1 */
#define IRDMA_HW_AEQ_VECTOR	0

/**
 * struct irdma_hw_regs - where a generation keeps the registers used here
 * @cqp_tail: CQPTAIL
 * @cqp_db: CQPDB
 * @ccqp_status: CCQPSTATUS
 * @ccqp_high: CCQPHIGH
 * @ccqp_low: CCQPLOW
 * @cq_arm: CQARM
 * @aeq_alloc: AEQALLOC
 * @cqp_err_codes: CQPERRCODES
 * @wqe_alloc: WQEALLOC
 * @aeq_ctl: AEQCTL
 * @ceq_ctl: CEQCTL of CEQ 0; the others follow, 4 bytes apart
 * @dyn_ctl: DYN_CTL of vector @dyn_first; the others follow
 * @dyn_first: the lowest vector number with a DYN_CTL here (gen1: 1, as
 *	vector 0 is the parent's own)
 * @lnklst: gen1 PFINT_LNKLSTN of vector 1, which links a CEQ to it; 0 on
 *	a generation whose CEQCTL alone routes the cause
 * @cpu_status: GLPE_CPUSTATUS0, 1 and 2
 * @db_page: the user doorbell page
 */
struct irdma_hw_regs {
	u32 cqp_tail;
	u32 cqp_db;
	u32 ccqp_status;
	u32 ccqp_high;
	u32 ccqp_low;
	u32 cq_arm;
	u32 aeq_alloc;
	u32 cqp_err_codes;
	u32 wqe_alloc;
	u32 aeq_ctl;
	u32 ceq_ctl;
	u32 dyn_ctl;
	u32 dyn_first;
	u32 lnklst;
	u32 cpu_status[3];
	u32 db_page;
};

/**
 * struct irdma_dma_mem - one coherent DMA allocation
 * @va: CPU address
 * @pa: bus address
 * @size: bytes (a multiple of PAGE_SIZE)
 */
struct irdma_dma_mem {
	void *va;
	dma_addr_t pa;
	size_t size;
};

/**
 * struct irdma_eq - an event queue (the AEQ or one CEQ) with its vector
 * @hw: the function
 * @ring: consumer state; touched only by the vector's IRQ thread
 * @mem: element memory
 * @vector: index into the function's MSI-X entries
 * @hw_vector: the engine's number for that vector (its entry's .entry), the
 *	one interrupt registers name
 * @id: CEQ number (unused for the AEQ)
 * @events: elements consumed so far (IRQ thread only)
 * @name: interrupt name, shown in /proc/interrupts
 */
struct irdma_eq {
	struct irdma_hw *hw;
	struct irdma_eq_ring ring;
	struct irdma_dma_mem mem;
	u32 vector;
	u32 hw_vector;
	u16 id;
	u64 events;
	char name[32];
};

/**
 * struct irdma_hmc_sd - host pages behind one paged segment descriptor
 * @pd_page: the page of 512 page descriptors the SD points at
 * @pages: backing pages, one per PD in use
 * @page_cnt: entries of @pages allocated
 */
struct irdma_hmc_sd {
	struct irdma_dma_mem pd_page;
	struct irdma_dma_mem *pages;
	u32 page_cnt;
};

/**
 * struct irdma_cmd - one synchronous CQP command
 * @build: writes the WQE; any error is reported and a NOP is sent instead
 * @arg: passed to @build
 * @name: for messages
 * @no_ccq: the command creates or destroys the CCQ itself, so its
 *	completion is read from CQPTAIL rather than the CCQ
 * @queued: a request of the command workqueue: its issuer does not wait
 * @done: the completion (for commands completed on the CCQ)
 * @finished: completed when @done and @status are in (utils.c)
 * @status: 0, or -EIO when the engine failed the command (utils.c)
 * @idx: the CQP slot it was posted in (utils.c)
 * @posted: it is in the ring (utils.c)
 * @t0: when it was issued, in ns (utils.c)
 * @t1: when it went into the ring, or 0 (utils.c)
 *
 * Lifetime: the issuer's, usually its stack; irdma_cmd_exec() returns only
 * once nothing refers to it any more.
 */
struct irdma_cmd {
	int (*build)(__le64 *wqe, u8 valid, const void *arg);
	const void *arg;
	const char *name;
	bool no_ccq;
	bool queued;
	struct irdma_ccq_info done;
	struct completion finished;
	int status;
	u32 idx;
	bool posted;
	u64 t0;
	u64 t1;
};

/**
 * struct irdma_cmd_req - a CQP command posted without waiting for it
 * @node: in the function's @req_list
 * @hw: the function
 * @ticket: its place in the order of submission (from 1)
 * @start_ret: what posting it returned (utils.c)
 * @cmd: the command; its @arg points at @arg
 * @failed: (optional) incremented when the command fails; the submitter
 *	keeps it alive until the request has run (irdma_cmd_req_sync())
 * @end: (optional) told how the command ended (0 or its error), on the
 *	command workqueue, before the request is freed: how an issuer that
 *	does not wait learns that the engine refused its command. It must
 *	not wait for the command workqueue.
 * @end_ctx: for @end; the submitter keeps it alive until the request has
 *	run
 * @arg: a copy of the builder's argument
 *
 * Made by irdma_cmd_req_alloc() and handed to irdma_cmd_req_submit(), after
 * which the worker owns it: it runs the command, reports a failure, tells
 * @end and frees the request.
 */
struct irdma_cmd_req {
	struct list_head node;
	struct irdma_hw *hw;
	u64 ticket;
	int start_ret;
	struct irdma_cmd cmd;
	atomic_t *failed;
	void (*end)(struct irdma_cmd_req *req, int ret);
	void *end_ctx;
	u64 arg[];
};

/**
 * struct irdma_hw_counters - the engine's statistics instance
 * @lock: serialises gathering; protects @last and @total
 * @buf: the GATHER_STATS block
 * @poll: gathers now and then, so that no counter wraps unseen
 * @inst: the instance MANAGE_STATS allocated; QP contexts name it
 * @inst_held: @inst is allocated (until the engine stops)
 * @last: each counter as the last gather found it (its hardware width)
 * @total: each counter since the engine came up, wraps accounted for
 */
struct irdma_hw_counters {
	struct mutex lock; /* gathers, @last, @total */
	struct irdma_dma_mem buf;
	struct delayed_work poll;
	u8 inst;
	bool inst_held;
	u64 last[IRDMA_HWC_COUNT];
	u64 total[IRDMA_HWC_COUNT];
};

/**
 * enum irdma_cmd_stat - what the function's CQP commands and interrupts cost
 * @IRDMA_CMD_STAT_WAITED: commands whose issuer waited for the completion
 *	(irdma_cmd_exec())
 * @IRDMA_CMD_STAT_POSTED: commands posted without the issuer waiting
 *	(irdma_cmd_req_submit()); the command workqueue waits for them
 * @IRDMA_CMD_STAT_QUEUE_US: time commands waited for a free slot in the
 *	CQP ring, in us
 * @IRDMA_CMD_STAT_WAIT_US: time commands waited for their completion
 *	once posted, in us
 * @IRDMA_CMD_STAT_WAIT_MAX_US: the longest of those waits, in us
 * @IRDMA_CMD_STAT_CEQ_IRQS: CEQ interrupts handled (thread runs)
 * @IRDMA_CMD_STAT_AEQ_IRQS: AEQ interrupts handled (thread runs)
 * @IRDMA_CMD_STAT_COUNT: number of counters
 *
 * Port counters (hw_counters) of every port, beside the engine's.
 */
enum irdma_cmd_stat {
	IRDMA_CMD_STAT_WAITED,
	IRDMA_CMD_STAT_POSTED,
	IRDMA_CMD_STAT_QUEUE_US,
	IRDMA_CMD_STAT_WAIT_US,
	IRDMA_CMD_STAT_WAIT_MAX_US,
	IRDMA_CMD_STAT_CEQ_IRQS,
	IRDMA_CMD_STAT_AEQ_IRQS,
	IRDMA_CMD_STAT_COUNT,
};

/**
 * struct irdma_hw - the running RDMA engine of one function
 * @fn: the function description from the binding
 * @dev: device for DMA allocations (@fn->dma_dev)
 * @mmio: the register space
 * @regs: where this generation keeps its registers
 * @cmd_mutex: serialises the commands that create or destroy the CCQ
 *	(struct irdma_cmd.no_ccq), which wait on CQPTAIL, with no other
 *	command in flight; other commands do not take it
 * @cmd_wq: ordered queue that runs @req_work, and the works that must
 *	follow the requests submitted before them
 * @req_lock: makes handing out a ticket and queueing its request one
 *	step; protects @req_list
 * @req_list: requests submitted and not yet taken by @req_work
 * @req_work: runs the requests (irdma_cmd_req_submit()) in submission
 *	order
 * @req_seq: ticket of the last request submitted
 * @req_done: ticket of the last request that has run (or failed)
 * @cqp_broken: a command timed out; the ring is out of step with the
 *	device and no further command is issued; under @cqp.lock
 * @halted: the engine reported a critical error (irdma_hw_halt()): no
 *	command is issued and no register handshake is waited for, until the
 *	function is reset and probed anew
 * @cqp: the CQP ring (its lock protects the ring indices, the slots'
 *	cookies, @cmd_inflight, @ccq_armed and polling @ccq)
 * @cqp_sq: CQP work requests
 * @cqp_ctx: CQP host context
 * @cqp_scratch: per-slot cookies for @cqp
 * @ccq: the CQP's completion queue (CQ 0), polled under @cqp.lock by
 *	whoever looks first (irdma_cmd_reap())
 * @ccq_irq: CEQ 0 exists, and a command's issuer sleeps until CEQ 0's
 *	thread hands it its completion, instead of polling
 * @ccq_armed: the CCQ is armed and its event has not come yet
 * @cmd_inflight: commands posted and not completed
 * @ccq_ring: its CQEs
 * @ccq_shadow: its shadow area
 * @fpm_buf: QUERY_FPM and COMMIT_FPM buffer
 * @hmc: the committed HMC layout
 * @sds: backing of the first @sd_cnt segments of @hmc
 * @sd_cnt: segments the device has been given
 * @pble: the PBLE pool over the PBLE object
 * @aeq: the asynchronous event queue
 * @ceqs: @ceq_cnt completion event queues
 * @ceq_cnt: CEQs created
 * @max_ceqs: CEQs the device allows (from QUERY_FPM)
 * @cqs: kernel CQs by number (struct irdma_cq); allocates the numbers and
 *	lets the CEQ threads find a CQ under RCU
 * @qps: QPs by number (struct irdma_qp); allocates the numbers and lets
 *	CQ polling find a QP under RCU
 * @ilq: the ILQ of an iWARP function (ilq.c), or NULL; the CEQ thread
 *	finds it under RCU
 * @ieq: the IEQ of an iWARP function (ilq.c, ieq.c), or NULL; likewise
 * @rawq_lock: serialises the bring-up and tear-down of @ilq and @ieq,
 *	which alone change them
 * @counters: the engine's statistics (GATHER_STATS)
 * @qos: the transmit scheduler set-up and traffic classes (qos.c)
 * @loc_mac_idx: gen1: the local MAC table entry of the netdev's address,
 *	which QP contexts name as their source MAC
 * @loc_mac_held: @loc_mac_idx is allocated (gen1 only)
 * @cmd_stats: enum irdma_cmd_stat counters
 *
 * Allocated by irdma_hw_init() and freed by irdma_hw_deinit(); lives
 * between the binding's probe and remove.
 */
struct irdma_hw {
	struct irdma_func *fn;
	struct device *dev;
	struct irdma_mmio mmio;
	const struct irdma_hw_regs *regs;
	struct mutex cmd_mutex; /* a CCQ create or destroy alone in flight */
	struct workqueue_struct *cmd_wq;
	spinlock_t req_lock; /* req_seq, req_list, queueing in its order */
	struct list_head req_list;
	struct work_struct req_work;
	u64 req_seq;
	atomic64_t req_done;
	bool cqp_broken;
	atomic_t halted;
	struct irdma_cqp cqp;
	struct irdma_dma_mem cqp_sq;
	struct irdma_dma_mem cqp_ctx;
	u64 *cqp_scratch;
	struct irdma_uk_cq ccq;
	bool ccq_irq;
	bool ccq_armed;
	u32 cmd_inflight;
	struct irdma_dma_mem ccq_ring;
	struct irdma_dma_mem ccq_shadow;
	struct irdma_dma_mem fpm_buf;
	struct irdma_hmc_layout hmc;
	struct irdma_hmc_sd *sds;
	u32 sd_cnt;
	struct irdma_pble_pool pble;
	struct irdma_eq aeq;
	struct irdma_eq *ceqs;
	u32 ceq_cnt;
	u32 max_ceqs;
	struct xarray cqs;
	struct xarray qps;
	struct irdma_ilq __rcu *ilq;
	struct irdma_ilq __rcu *ieq;
	struct mutex rawq_lock; /* changes of ilq and ieq */
	struct irdma_hw_counters counters;
	struct irdma_qos qos;
	u8 loc_mac_idx;
	bool loc_mac_held;
	atomic64_t cmd_stats[IRDMA_CMD_STAT_COUNT];
};

/* utils.c */
int irdma_dma_alloc(struct device *dev, struct irdma_dma_mem *mem,
		    size_t size);
void irdma_dma_free(struct device *dev, struct irdma_dma_mem *mem);
int irdma_cmd_exec(struct irdma_hw *hw, struct irdma_cmd *cmd);
void irdma_cmd_use_irq(struct irdma_hw *hw, bool on);
void irdma_cmd_ccq_event(struct irdma_hw *hw);
struct irdma_cmd_req *
irdma_cmd_req_alloc(int (*build)(__le64 *wqe, u8 valid, const void *arg),
		    const void *arg, size_t arg_len, const char *name,
		    gfp_t gfp);
u64 irdma_cmd_req_submit(struct irdma_hw *hw, struct irdma_cmd_req *req);
bool irdma_cmd_req_ran(struct irdma_hw *hw, u64 ticket);
void irdma_cmd_req_sync(struct irdma_hw *hw);
void irdma_cmd_req_free(struct irdma_cmd_req *req);
void irdma_cmd_read_stats(struct irdma_hw *hw, u64 *vals);
void irdma_cmd_req_init(struct irdma_hw *hw);
void * __must_check irdma_xa_get_ref(struct xarray *xa, u32 id,
				     size_t refs_off);
u32 irdma_hw_rd32(struct irdma_hw *hw, u32 off);
void irdma_hw_wr32(struct irdma_hw *hw, u32 off, u32 val);
bool irdma_hw_halt(struct irdma_hw *hw);

/**
 * irdma_hw_given_up - has the driver stopped using the engine
 * @hw: the function's engine
 *
 * After a critical error or a command that timed out no command is issued
 * any more and the function is being reset (irdma_func_fatal()): what the
 * engine held is released as at removal. Until then an object whose
 * destroy command failed is still the engine's, with everything it maps.
 *
 * Return: true once the engine is halted or its CQP broken.
 */
static inline bool irdma_hw_given_up(struct irdma_hw *hw)
{
	return atomic_read(&hw->halted) || READ_ONCE(hw->cqp_broken);
}

/* hw.c */
const struct irdma_hw_regs *irdma_hw_regs_of(int gen);
int irdma_hw_hmc_size(struct irdma_hmc_layout *l, u32 qps, u32 pbles);
u32 irdma_hw_ceq_count(u32 vectors, u32 max_ceqs, u32 cpus);
void irdma_hw_eq_sizes(bool iwarp, u32 qps, u32 cqs, u32 *aeq, u32 *ceq);
void irdma_hw_counters_fold(struct irdma_hw_counters *c, const void *block);
int irdma_hw_read_counters(struct irdma_hw *hw, u64 *out);
int irdma_hw_loc_mac_set(struct irdma_hw *hw, const u8 *mac);
int irdma_hw_init(struct irdma_func *fn);
void irdma_hw_deinit(struct irdma_func *fn);

/* cq.c */
void irdma_cq_event(struct irdma_hw *hw, u64 cq_ctx);
void irdma_cq_async_event(struct irdma_hw *hw, u32 id);

/* ae.c */
void irdma_ae_dispatch(struct irdma_hw *hw, const struct irdma_aeqe_info *ae);

#endif /* IRDMA_HW_H */
