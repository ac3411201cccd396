/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: private definitions of the simulated gen2 RDMA engine.
 *
 * One struct isim_func per simulated PCI function. Each feature lives in
 * its own file with an _init/_exit pair declared here; the data path's,
 * the network side's and the TCP offload's types and functions are in
 * isim_exec.h, isim_net.h and isim_toe.h.
 */
#ifndef _ISIM_H_
#define _ISIM_H_

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include <linux/timer.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "isim_aux.h"
#include "isim_defs.h"
#include "isim_exec.h"
#include "isim_net.h"
#include "isim_toe.h"
#include "roce.h"

struct seq_file;

#define ISIM_MAX_ID		63	/* the ID is also the HMC function id */
#define ISIM_NUM_VECTORS	5	/* irqs[0] for the AEQ, then CEQs */
/*
 * Engine vector number of irqs[0]. The parent keeps the low vectors for
 * itself (ice its misc/OICR vector and the LAN queues', i40e its vector 0),
 * so RDMA never starts at 0; a driver that writes its own array index
 * into CEQCTL/AEQCTL instead of the vector number shows up as bad_vector.
 */
#define ISIM_FIRST_VECTOR	2
/* DYN_CTL registers past the function's vectors the engine watches */
#define ISIM_STRAY_VECTORS	16
#define ISIM_GEN1		1	/* X722 */
#define ISIM_GEN2		2	/* E810 */
#define ISIM_MAX_CEQS		32
#define ISIM_MAX_SDS		128
#define ISIM_CQP_BUDGET		64	/* CQP WQEs per engine tick */
#define ISIM_WQE_BUDGET		256	/* SQ/RQ WQEs per engine tick */
#define ISIM_PASS_NS		(100 * NSEC_PER_MSEC) /* work a pass takes on */
#define ISIM_SCAN_MS		10	/* most an idle engine goes unscanned */
#define ISIM_SCAN_SHARE		20	/* guard passes: at most 1/20 of the time */

struct isim_func;
struct isim_win;
struct dentry;

/**
 * enum isim_claim - the driver a function's auxiliary device is for
 * @ISIM_CLAIM_IRDMA: this project's irdma ("irdma_sim.func.<ID>")
 * @ISIM_CLAIM_UPSTREAM: Linux 6.1's irdma as the harness builds it
 *	("irdma_sim.upstream.<ID>"; tools/upstream/)
 */
enum isim_claim {
	ISIM_CLAIM_IRDMA,
	ISIM_CLAIM_UPSTREAM,
};

/**
 * struct isim_regmap - where one generation keeps the registers the engine
 *	reads and writes (byte offsets into the BAR)
 * @bar_len: size of the register BAR
 * @cqpdb: CQP SQ head the driver writes
 * @cqptail: CQP SQ tail and error bit the engine reports
 * @ccqpstatus: CQP create result
 * @ccqphigh: CQP host context address, high 32 bits
 * @ccqplow: CQP host context address, low 32 bits (the trigger)
 * @cqperrcodes: major and minor code of the last error
 * @cqarm: CQ arm doorbell
 * @aeqalloc: AEQ elements the driver hands back
 * @wqealloc: SQ doorbell
 * @aeqctl: AEQ cause control
 * @ceqctl: CEQ 0's cause control; CEQ n's is 4 * n further
 * @dyn_ctl: DYN_CTL of engine vector @dyn_ctl_first; vector v's is
 *	4 * (v - @dyn_ctl_first) further
 * @dyn_ctl_first: the lowest engine vector with a DYN_CTL register here
 * @cpustatus: CPUSTATUS0; 1 and 2 follow
 * @lbarctrl: LBARCTRL, which announces the doorbell BAR size
 * @lbar_db_size: its DB_SIZE value for @bar_len
 * @udb: the user doorbell page (WQEALLOC at 0, CQARM at 64)
 */
struct isim_regmap {
	u32 bar_len;
	u32 cqpdb;
	u32 cqptail;
	u32 ccqpstatus;
	u32 ccqphigh;
	u32 ccqplow;
	u32 cqperrcodes;
	u32 cqarm;
	u32 aeqalloc;
	u32 wqealloc;
	u32 aeqctl;
	u32 ceqctl;
	u32 dyn_ctl;
	u32 dyn_ctl_first;
	u32 cpustatus;
	u32 lbarctrl;
	u32 lbar_db_size;
	u32 udb;
};

/**
 * struct isim_qmem - a queue ring as the engine addresses it
 * @pa: bus address of the ring when it is physically contiguous
 * @first_pble: first PBLE index when the ring is virtually mapped
 * @bytes: ring length in bytes
 * @virt: the ring is described by single-level PBLEs in the HMC
 */
struct isim_qmem {
	u64 pa;
	u32 first_pble;
	u32 bytes;
	bool virt;
};

/**
 * struct isim_ring - producer state of a ring the engine writes
 * @mem: where the ring is
 * @size: number of elements
 * @elem: bytes per element
 * @head: index of the next element the engine writes
 * @polarity: valid bit the engine writes on this pass
 */
struct isim_ring {
	struct isim_qmem mem;
	u32 size;
	u32 elem;
	u32 head;
	u8 polarity;
};

/**
 * struct isim_cq - a completion queue known to the engine (the CCQ too)
 * @id: CQ id (the CCQ is 0)
 * @node: in the function's cq_list
 * @ring: CQE ring
 * @ctx: CQ context value echoed in CEQEs and AEQEs
 * @shadow_pa: bus address of the CQ shadow area
 * @ceq: CEQ notified when the CQ is armed, if @ceq_valid
 * @ceq_valid: the CQ reports to a CEQ
 * @chk_overflow: check the consumer index before writing a CQE
 * @armed: the driver asked for an event on the next CQE
 * @solicited_only: the event is for the next solicited or error CQE only
 * @arm_seq: arm sequence number last seen in the shadow area
 * @cqes: CQEs written
 * @overflows: CQEs dropped because the ring was full
 * @events: CEQEs raised for the CQ, @early_events among them
 * @early_events: events raised by an arm that found an unconsumed CQE
 * @resizes: rings the CQ moved to with MODIFY_CQ (word 4's RESIZED
 *	catches up with it as the driver drains the old ones)
 */
struct isim_cq {
	u32 id;
	struct list_head node;
	struct isim_ring ring;
	u64 ctx;
	u64 shadow_pa;
	u16 ceq;
	bool ceq_valid;
	bool chk_overflow;
	bool armed;
	bool solicited_only;
	u8 arm_seq;
	u64 cqes;
	u64 overflows;
	u64 events;
	u64 early_events;
	u32 resizes;
};

/**
 * struct isim_wq - the engine's side of a QP's SQ or RQ
 * @mem: where the ring is
 * @quanta: ring size in 32-byte quanta
 * @tail: quantum index of the next WQE the engine reads
 * @shift: RQ only: a WQE is 1 << @shift quanta
 * @polarity: valid bit the WQE at @tail carries when it is posted
 * @flushing: FLUSH_WQES ran: every WQE posted from now on is completed
 *	with a flush error rather than executed
 * @minor: minor code of those flush CQEs
 */
struct isim_wq {
	struct isim_qmem mem;
	u32 quanta;
	u32 tail;
	u8 shift;
	u8 polarity;
	bool flushing;
	u16 minor;
};

/**
 * struct isim_qp - a QP the engine knows
 * @id: QP id
 * @node: in the function's qp_list
 * @kick: in the function's kick_list while something the engine did may
 *	let its SQ run (see isim_exec_kick())
 * @sq_waits: kicked for a later pass, not at once
 *	(isim_engine_kicked_ready()): the WQE at its SQ's tail met an RNR
 *	NAK, or its RQ is flushing (posts to it ring nothing)
 * @type: QP type from the create command
 * @state: state the last create or modify asked for
 * @suspended: SUSPEND_QP completed and no RESUME_QP yet
 * @qs_handle: the work-scheduler leaf the QP transmits through (context
 *	word 22, or the last RESUME_QP); see isim_sched_tc()
 * @term_halted: iWARP: a received FPDU failed its checks or was a
 *	TERMINATE; the engine places nothing more and runs no SQ WQE, and
 *	waits for the driver (a MODIFY_QP to TERMINATE or to ERR)
 * @ctx_pa: bus address of the driver's QP host context
 * @q2_pa: bus address of the QP's Q2 buffer (0: none)
 * @shadow_pa: bus address of the QP's doorbell shadow area
 * @modifies: MODIFY_QP commands applied
 * @sq: send queue
 * @rq: receive queue
 * @cq_ctx: completion context from the host context, echoed in CQEs
 * @sq_cq: CQ of SQ completions
 * @rq_cq: CQ of RQ completions
 * @dest_qp: RoCEv2 RC: the connected QP (on this function: loopback)
 * @arp_idx: RoCEv2 RC: the ARP cache entry of the next hop (context word 6)
 * @src_mac: the QP's source MAC (context word 19)
 * @qkey: RoCEv2 UD: the Q_Key a received datagram must carry
 * @ud_psn: RoCEv2 UD: PSN of the next datagram sent (24 bits)
 * @pd: protection domain
 * @rnr_retry: RNR retry count; ISIM_QPC_RNR_FOREVER retries forever
 * @rnr_tries: RNR NAKs the SQ's head WQE has met so far
 * @rnr_until: jiffies before which that WQE is not tried again
 * @privileged: STag 0 addresses bus memory directly
 * @remote_write: the peer may write (RDMA WRITE) to this QP's memory
 * @remote_read: the peer may read (RDMA READ) from this QP's memory
 * @virt: the rings are PBLE-mapped (the context's SQ and RQ address words
 *	hold PBLE indexes)
 * @executed: SQ WQEs executed
 * @flushed: WQEs completed with a flush error
 * @toe: iWARP: the TCP connection a MODIFY_QP to RTS handed over; the
 *	QP is offloaded while @toe.linked
 * @roce: RoCEv2 RC: the transport state (roce.c), from the QP's first
 *	move to RTR until it is destroyed; NULL before, or without memory
 */
struct isim_qp {
	u32 id;
	struct list_head node;
	struct list_head kick;
	bool sq_waits;
	u8 type;
	u8 state;
	bool suspended;
	bool term_halted;
	u32 qs_handle;
	u64 ctx_pa;
	u64 q2_pa;
	u64 shadow_pa;
	u64 modifies;
	struct isim_wq sq;
	struct isim_wq rq;
	u64 cq_ctx;
	u32 sq_cq;
	u32 rq_cq;
	u32 dest_qp;
	u16 arp_idx;
	u64 src_mac;
	u32 qkey;
	u32 ud_psn;
	u32 pd;
	u8 rnr_retry;
	u8 rnr_tries;
	unsigned long rnr_until;
	bool privileged;
	bool remote_write;
	bool remote_read;
	bool virt;
	u64 executed;
	u64 flushed;
	struct isim_toe toe;
	struct isim_roce *roce;
};

/**
 * struct isim_eq - a CEQ or the AEQ
 * @ring: element ring
 * @live: created and not destroyed
 * @posted: elements written
 * @credits: AEQ only: elements the driver handed back through AEQALLOC
 * @lost: AEQ only: AEs dropped because no element was free
 */
struct isim_eq {
	struct isim_ring ring;
	bool live;
	u64 posted;
	u64 credits;
	u64 lost;
};

/**
 * struct isim_sd - one segment descriptor of the function's HMC
 * @addr: bus address of the 2 MiB page (direct) or of the PD page (paged)
 * @valid: the SD is backed
 * @direct: @addr is a 2 MiB page rather than a page-descriptor page
 */
struct isim_sd {
	u64 addr;
	bool valid;
	bool direct;
};

/**
 * struct isim_hmc - host memory cache layout
 * @max: per-object maximum count reported by QUERY_FPM
 * @size_log: per-object log2 of the object size
 * @cnt: per-object count the driver committed
 * @base: per-object byte offset in the HMC the driver committed
 * @committed: COMMIT_FPM succeeded at least once
 * @sd: segment descriptors
 * @sd_updates: SD entries written
 */
struct isim_hmc {
	u32 max[ISIM_HMC_NUM];
	u8 size_log[ISIM_HMC_NUM];
	u32 cnt[ISIM_HMC_NUM];
	u64 base[ISIM_HMC_NUM];
	bool committed;
	struct isim_sd sd[ISIM_MAX_SDS];
	u64 sd_updates;
};

/**
 * struct isim_cqp - control QP state
 * @live: created through CCQPHIGH:LOW and not destroyed
 * @ctx_pa: bus address of the host context
 * @sq_pa: bus address of the WQE ring
 * @size: ring entries
 * @tail: index of the next WQE the engine reads
 * @polarity: valid bit expected at @tail
 * @cookie: host context word 3, returned in CCQ completions
 * @protocol: protocol field of the host context
 * @done: commands completed
 * @errors: commands completed with an error
 * @bad_valid: doorbells that pointed past WQEs without the valid bit
 * @op_done: per opcode, commands completed
 * @op_err: per opcode, error completions
 */
struct isim_cqp {
	bool live;
	u64 ctx_pa;
	u64 sq_pa;
	u32 size;
	u32 tail;
	u8 polarity;
	u64 cookie;
	u8 protocol;
	u64 done;
	u64 errors;
	u64 bad_valid;
	u32 op_done[ISIM_OP_NUM];
	u32 op_err[ISIM_OP_NUM];
};

/**
 * struct isim_vec - one interrupt vector
 * @virq: Linux IRQ number
 * @pending: a cause fired while the vector was masked
 * @fired: interrupts delivered
 */
struct isim_vec {
	int virq;
	bool pending;
	u64 fired;
};

/**
 * struct isim_fail_share - fail a random share of the CQP commands
 * @permille: how many of a thousand commands fail; 0: none
 * @seed: what @rnd was seeded with
 * @ops: the opcodes that may fail
 * @rnd: the random sequence that picks them
 * @seen: commands of @ops executed since the knob was last written
 *	(removals of filters, ports and ARP entries are left be, as
 *	destroys are: a refused one would keep the object)
 * @failed: how many of those failed
 * @failed_op: the same, by opcode
 *
 * All under the function's eng_lock, which the CQP runs under.
 */
struct isim_fail_share {
	u32 permille;
	u64 seed;
	DECLARE_BITMAP(ops, ISIM_OP_NUM);
	struct rnd_state rnd;
	u64 seen;
	u64 failed;
	u32 failed_op[ISIM_OP_NUM];
};

/**
 * struct isim_faults - fault injection knobs (debugfs)
 * @fail_op: per CQP opcode, number of next commands to fail
 * @drop_frames: number of next frames the wire drops
 * @delay_ms: delay every frame on the wire by this much
 * @stall: hold CQP commands (no completions) while set
 * @stall_raw_tx: hold the SQ WQEs of the raw queues (ILQ, IEQ) while set
 * @drop_cm: number of next CM (ILQ) frames to lose, either direction
 * @drop_toe: number of next data segments of offloaded connections the
 *	engine sends that are lost (the first transmission, not a resend)
 * @drop_toe_acks: number of next bare ACKs of offloaded connections the
 *	engine sends that are lost
 * @corrupt_toe_tx: number of next data segments of offloaded connections
 *	the engine sends with their last byte flipped (the first
 *	transmission; a resend is whole)
 * @corrupt_toe_rx: number of next data segments of offloaded connections
 *	received with their last byte flipped before the engine reads them
 * @share: a random share of the commands to fail (fail_share)
 */
struct isim_faults {
	atomic_t fail_op[ISIM_OP_NUM];
	atomic_t drop_frames;
	atomic_t drop_cm;
	atomic_t drop_toe;
	atomic_t drop_toe_acks;
	atomic_t corrupt_toe_tx;
	atomic_t corrupt_toe_rx;
	u32 delay_ms;
	bool stall;
	bool stall_raw_tx;
	struct isim_fail_share share;
};

/**
 * struct isim_wire - the function's end of a back-to-back Ethernet link
 * @peer: the other function of the pair, NULL while it does not exist;
 *	written under isim_bus_lock, read under RCU
 * @delayq: frames held back by the delay knob
 * @delay_work: releases @delayq
 * @tx_frames: frames handed to the peer
 * @tx_bytes: bytes handed to the peer
 * @rx_frames: frames received from the peer
 * @rx_bytes: bytes received from the peer
 * @looped: frames addressed to the function's own MAC, turned around to
 *	its own receive path instead of the wire
 * @dropped: frames dropped (no peer, knob, full delay queue, peer refused)
 * @vlan_tcp: TCP segments received with a VLAN tag (VLAN 1 or above), by
 *	their 802.1p priority, whoever took them (engine or host)
 */
struct isim_wire {
	struct isim_func __rcu *peer;
	struct sk_buff_head delayq;
	struct delayed_work delay_work;
	atomic64_t tx_frames;
	atomic64_t tx_bytes;
	atomic64_t rx_frames;
	atomic64_t rx_bytes;
	atomic64_t looped;
	atomic64_t dropped;
	atomic64_t vlan_tcp[8];
};

#define ISIM_DBQ_LEN		64	/* doorbells a pass takes by id */

/**
 * enum isim_wake - why an engine pass ran
 * @ISIM_WAKE_REG: the driver wrote a register and kicked the engine
 *	(isim_aux_ops.kick)
 * @ISIM_WAKE_RX: a frame arrived for the engine (steered to a raw queue,
 *	an offloaded connection or a UD QP)
 * @ISIM_WAKE_UDB: the user doorbell watch found a user doorbell rung
 * @ISIM_WAKE_CTL: the engine started, or a parent service or debugfs knob
 *	changed what it may do
 * @ISIM_WAKE_MORE: the pass before ran out of budget or time
 * @ISIM_WAKE_TIMER: a deadline came: a retransmission or TIME_WAIT timer,
 *	an RNR wait, QPs kicked for the next pass
 * @ISIM_WAKE_POLL: a poll of the register space: the bound driver does not
 *	kick (or none is bound), or a stall knob is set
 * @ISIM_WAKE_CQP: the CQP watch answered CQP requests of a driver that does
 *	not kick; the pass takes what they started
 * @ISIM_WAKE_NUM: number of reasons
 */
enum isim_wake {
	ISIM_WAKE_REG,
	ISIM_WAKE_RX,
	ISIM_WAKE_UDB,
	ISIM_WAKE_CTL,
	ISIM_WAKE_MORE,
	ISIM_WAKE_TIMER,
	ISIM_WAKE_POLL,
	ISIM_WAKE_CQP,
	ISIM_WAKE_NUM,
};

/**
 * struct isim_dbq - doorbells the kicks named, by id, between two passes
 * @lock: protects the rest; taken from any context
 * @n: ids in @id
 * @overflow: more were rung than @id holds: the next pass looks at every
 *	queue, as for a doorbell it cannot attribute
 * @id: QP ids (WQEALLOC) or CQ ids (CQARM), in the order rung
 */
struct isim_dbq {
	spinlock_t lock; /* n, overflow, id */
	u32 n;
	bool overflow;
	u32 id[ISIM_DBQ_LEN];
};

/**
 * struct isim_wakeup - how the engine is woken (engine.c)
 * @kicked: the bound driver follows every register write with a kick, so
 *	its registers need no polling; set and cleared by the driver
 *	(isim_aux_ops.set_kicked) and when the auxiliary device is unplugged
 * @pending: a pass is queued for a kick and has not started yet
 * @pending_hi: and on isim_wq_hi
 * @kick_ns: when the kick that queued the pending pass came
 * @wqe: the WQEALLOC doorbells the kicks named
 * @arm: the CQARM doorbells the kicks named
 * @raw_rung: a kick named a raw queue (UDA QP): this pass runs their SQs
 * @arm_lost: @arm overflowed: this pass reads every CQ's arm word
 * @count: passes by reason (enum isim_wake); a kick that found a pass
 *	queued already is not counted
 * @next: why the next pass was scheduled, when not for a kick
 * @kicked_passes: passes a kick queued
 * @kick_lat_ns_max: the longest from a kick to its pass, in ns
 * @kick_lat_ns_total: the sum of those, in ns
 * @due: jiffies of the earliest deadline the last pass found, if @due_set
 * @due_set: a deadline was found
 * @user_qps: QPs that are not privileged: user space may ring its
 *	doorbell page for them
 * @udb_timer: the user doorbell watch (runs while @kicked and @user_qps)
 * @udb_seen: jiffies when a user doorbell was last found rung
 * @udb_period: the watch's period now, in ns
 * @udb_looks: times the watch looked at the user doorbell page
 * @cqp_timer: the CQP watch (runs while the engine runs and not @kicked)
 * @cqp_work: answers the CQP's requests, on the CQP watch's worker
 * @cqp_answers: times @cqp_work found requests and answered them
 */
struct isim_wakeup {
	bool kicked;
	atomic_t pending;
	bool pending_hi;
	u64 kick_ns;
	struct isim_dbq wqe;
	struct isim_dbq arm;
	bool raw_rung;
	bool arm_lost;
	atomic64_t count[ISIM_WAKE_NUM];
	enum isim_wake next;
	u64 kicked_passes;
	u64 kick_lat_ns_max;
	u64 kick_lat_ns_total;
	unsigned long due;
	bool due_set;
	u32 user_qps;
	struct hrtimer udb_timer;
	unsigned long udb_seen;
	u64 udb_period;
	atomic64_t udb_looks;
	struct hrtimer cqp_timer;
	struct kthread_work cqp_work;
	u64 cqp_answers;
};

/**
 * struct isim_lockstat - how long eng_lock is waited for and held
 * @t0: when the holder took it, in ns
 * @wait_ns_max: the longest wait for it
 * @hold_ns_max: the longest hold
 * @hold_max_by: who held it that long
 * @by: who holds it now
 */
struct isim_lockstat {
	u64 t0;
	u64 wait_ns_max;
	u64 hold_ns_max;
	const char *hold_max_by;
	const char *by;
};

/**
 * struct isim_func - one simulated RDMA function
 * @dev: the function's device on the irdma_sim bus
 * @dma_parms: DMA segment limits, as a PCI function has them (the RDMA
 *	core expects them of the device it maps for)
 * @id: device ID; 2k and 2k+1 are wired to each other
 * @protocol: protocol chosen at creation
 * @gen: generation chosen at creation, ISIM_GEN1 or ISIM_GEN2
 * @rm: the register map of @gen, set with @regs
 * @regs: register space (@rm->bar_len bytes): @win's BAR0, or RAM
 * @win: the register window holding @regs, NULL for RAM (win.c)
 * @irq_domain: simulated interrupt controller of the function
 * @irq_fwnode: name of @irq_domain
 * @irqs: Linux IRQ numbers of the vectors, handed to the driver
 * @netdev: the function's Ethernet netdev
 * @wire: back-to-back link to the peer function
 * @aux_lock: protects @iadev, @dying and @vsi_filter against the reset work
 * @iadev: auxiliary device the driver binds to, NULL while unplugged
 * @claim: which driver the auxiliary device is plugged for (claim.c)
 * @dying: the function is being removed; no more replugging
 * @vsi_filter: the driver asked for RDMA traffic to reach the engine
 * @qsets: scheduler qsets the driver registered (struct isim_sched.qsets)
 * @qos_lock: protects @qos (the driver reads it from its event handler,
 *	which runs under @aux_lock)
 * @qos: the traffic classes the parent reports (qos_get)
 * @reset_work: replugs the auxiliary device after a reset request
 * @tick: engine pass, queued by a kick or at a deadline (engine.c), on
 *	isim_wq
 * @tick_hi: the same, on isim_wq_hi
 * @wake: what queues @tick, and the count of passes by reason
 * @ddir: debugfs directory
 * @faults: fault injection knobs
 * @ilq: privileged raw queue frames and counters
 * @toe: segments of offloaded connections
 * @ud: RoCEv2 datagrams of UD and GSI QPs
 * @roce: RoCEv2 RC between functions: counters, knobs, busy QPs (the
 *	list under eng_lock)
 * @hwc: the engine's counters, as GATHER_STATS reports them (enum
 *	isim_gs); counted where the engine moves frames and messages
 * @eng_lock: protects everything below it; taken with isim_eng_lock()
 * @lockstat: how long @eng_lock is waited for and held
 * @running: the engine polls the register space
 * @halted: the engine stopped on a critical error: it reads and writes
 *	nothing until a function reset
 * @ticks: engine passes run
 * @tick_ns_max: the longest pass, in ns
 * @tick_ns_total: the time spent in passes, in ns
 * @tick_due_ns: when the next pass is due
 * @tick_late_ns_max: the most a pass started after it was due, in ns
 * @pass_end_ns: when the current pass stops taking on more work
 *	(the work queue's scheduling: a starved engine answers late)
 * @cqp: control QP
 * @hmc: host memory cache layout
 * @cqs: CQs by id (struct isim_cq)
 * @qps: QPs by id (struct isim_qp)
 * @cq_list: the same CQs, for the passes that read every arm word
 * @qp_list: the same QPs, in the order the next SQ pass visits them (a
 *	pass that runs out of budget rotates the one it did not reach to
 *	the front: round robin)
 * @exec_resume: the last SQ pass ran out of budget
 * @scan_stop: id of the QP a scan began at: a scan the next passes resume
 *	ends there, every QP looked at once (isim_exec_scan())
 * @kick_list: QPs whose SQ the next pass looks at without a doorbell
 *	(struct isim_qp.kick)
 * @rescan: the raw queues' SQs ran out of budget: the next pass looks at
 *	every QP
 * @scan_due: jiffies by which the QPs and CQs are looked at even when
 *	nothing asked for it
 * @scanning: this pass looks at every QP's SQ (raw queues included)
 * @scans: passes that looked at every QP's SQ
 * @kick_passes: passes that looked only at kicked QPs
 * @idle_passes: passes that looked at none: no doorbell and nothing new
 * @asked_passes: passes that found a doorbell rung (or SQ work left over)
 * @quiet: passes in a row that moved nothing (isim_engine_tick())
 * @arm_scans: passes that read every CQ's arm sequence
 * @unasked: scans due to @scan_due alone that found work (a missing
 *	wake-up)
 * @unrouted: RoCEv2 RC WQEs whose QP's next hop is not the function
 *	itself (only loopback RC is modelled): completed as if retries ran out
 * @stags: STags by index (struct isim_stag)
 * @ahs: address handles by index (struct isim_ah)
 * @mcgs: multicast groups by index (struct isim_mcg)
 * @conn: connection steering tables
 * @sched: the work scheduler's nodes and the parent's registrations
 * @ceq: CEQs by id
 * @aeq: the AEQ
 * @vec: interrupt vectors
 * @bad_vector: causes routed to (CEQCTL/AEQCTL) and DYN_CTL writes for an
 *	engine vector that is not one of the function's; none was delivered
 */
struct isim_func {
	struct device dev;
	struct device_dma_parameters dma_parms;
	u32 id;
	enum isim_aux_protocol protocol;
	u8 gen;
	const struct isim_regmap *rm;
	void *regs;
	struct isim_win *win;
	struct irq_domain *irq_domain;
	struct fwnode_handle *irq_fwnode;
	int irqs[ISIM_NUM_VECTORS];
	struct net_device *netdev;
	struct isim_wire wire;
	struct mutex aux_lock; /* see @aux_lock above */
	struct isim_aux_dev *iadev;
	enum isim_claim claim;
	bool dying;
	bool vsi_filter;
	atomic_t qsets;
	spinlock_t qos_lock; /* qos */
	struct isim_aux_qos qos;
	struct work_struct reset_work;
	struct delayed_work tick;
	struct delayed_work tick_hi;
	struct isim_wakeup wake;
	struct dentry *ddir;
	struct isim_faults faults;
	struct isim_ilq ilq;
	struct isim_toe_stats toe;
	struct isim_ud_stats ud;
	struct isim_roce_stats roce;
	atomic64_t hwc[ISIM_GS_NUM];

	struct mutex eng_lock; /* engine state below, see @eng_lock */
	struct isim_lockstat lockstat;
	bool running;
	bool halted;
	u64 ticks;
	u64 tick_ns_max;
	u64 tick_ns_total;
	u64 tick_due_ns;
	u64 tick_late_ns_max;
	u64 pass_end_ns;
	struct isim_cqp cqp;
	struct isim_hmc hmc;
	struct xarray cqs;
	struct xarray qps;
	struct list_head cq_list;
	struct list_head qp_list;
	bool exec_resume;
	u32 scan_stop;
	struct list_head kick_list;
	bool rescan;
	bool scanning;
	unsigned long scan_due;
	u64 scans;
	u64 kick_passes;
	u64 idle_passes;
	u64 asked_passes;
	unsigned int quiet;
	u64 arm_scans;
	u64 unasked;
	u64 unrouted;
	struct xarray stags;
	struct xarray ahs;
	struct xarray mcgs;
	struct isim_conn conn;
	struct isim_sched sched;
	struct isim_eq ceq[ISIM_MAX_CEQS];
	struct isim_eq aeq;
	struct isim_vec vec[ISIM_NUM_VECTORS];
	u64 bad_vector;
};

static inline struct isim_func *to_isim_func(struct device *dev)
{
	return container_of(dev, struct isim_func, dev);
}

/**
 * struct isim_res - result of one CQP command
 * @minor: 0 for success, else an enum isim_minor
 * @ret_val: value returned in the completion's op-return word
 */
struct isim_res {
	u16 minor;
	u32 ret_val;
};

/*
 * The pass has worked long enough: the rest waits for the next one, which
 * comes at once. Without this a pass over hundreds of busy QPs took
 * seconds under emulation, and the CQP commands queued behind it timed
 * out in the driver.
 */
static inline bool isim_pass_over(const struct isim_func *f)
{
	return ktime_get_ns() > f->pass_end_ns;
}

/* count @n events of engine counter @c */
static inline void isim_hwc_add(struct isim_func *f, enum isim_gs c, u64 n)
{
	atomic64_add(n, &f->hwc[c]);
}

void isim_hwc_frame(struct isim_func *f, bool ipv4, u8 proto, bool rx,
		    u32 octets);
void isim_hwc_segment(struct isim_func *f, bool ipv4, bool rx, u32 octets);

typedef void (*isim_op_fn)(struct isim_func *f, const u64 *wqe,
			   struct isim_res *res);

/* bus.c */
extern struct workqueue_struct *isim_wq;
extern struct workqueue_struct *isim_wq_hi;
extern struct kthread_worker *isim_cqp_worker;
extern struct mutex isim_bus_lock;
struct isim_func *isim_func_lookup(u32 id);
int isim_parse_new(const char *buf, u32 *id, enum isim_aux_protocol *proto,
		   u8 *gen, enum isim_claim *claim);

/* func.c */
int isim_func_probe(struct isim_func *f);
void isim_func_remove(struct isim_func *f);
void isim_func_reset(struct isim_func *f);

/* win.c */
bool isim_win_get(struct isim_func *f);
void isim_win_put(struct isim_func *f);
struct pci_dev *isim_win_pdev(struct isim_func *f);
int isim_win_mod_init(void);
void isim_win_mod_exit(void);

/* claim.c */
const char *isim_claim_dev_name(enum isim_claim claim);
int isim_claim_parse(const char *word, enum isim_claim *claim);
void isim_claim_debugfs_init(struct isim_func *f);

/* regs.c */
int isim_regs_init(struct isim_func *f);
void isim_regs_exit(struct isim_func *f);
void isim_regs_reset(struct isim_func *f);
u32 isim_rd32(struct isim_func *f, u32 off);
void isim_wr32(struct isim_func *f, u32 off, u32 val);
u32 isim_xchg32(struct isim_func *f, u32 off, u32 val);
void isim_clr32(struct isim_func *f, u32 off, u32 bits);
u32 isim_reg_dyn_ctl(struct isim_func *f, u32 v);

/* CEQCTL of CEQ @ceq */
static inline u32 isim_reg_ceqctl(struct isim_func *f, u32 ceq)
{
	return f->rm->ceqctl + 4 * ceq;
}

/* the user doorbell page's aliases of WQEALLOC and CQARM */
static inline u32 isim_reg_udb_wqealloc(struct isim_func *f)
{
	return f->rm->udb + ISIM_UDB_WQEALLOC_OFF;
}

static inline u32 isim_reg_udb_cqarm(struct isim_func *f)
{
	return f->rm->udb + ISIM_UDB_CQARM_OFF;
}

/* dma.c */
int isim_dma_read(struct isim_func *f, u64 addr, void *buf, size_t len);
int isim_dma_write(struct isim_func *f, u64 addr, const void *buf,
		   size_t len);
int isim_qmem_read(struct isim_func *f, const struct isim_qmem *qm,
		   u32 off, void *buf, size_t len);
int isim_qmem_write(struct isim_func *f, const struct isim_qmem *qm,
		    u32 off, const void *buf, size_t len);
int isim_ring_post(struct isim_func *f, struct isim_ring *r, u64 *elem,
		   unsigned int valid_word, u64 valid_bit);

/* irq.c */
int isim_irq_init(struct isim_func *f);
void isim_irq_exit(struct isim_func *f);
void isim_irq_raise(struct isim_func *f, u32 vec);
void isim_irq_service(struct isim_func *f);

/* hmc.c */
void isim_hmc_reset(struct isim_func *f);
bool isim_hmc_obj_present(struct isim_func *f, unsigned int obj);
int isim_hmc_pble(struct isim_func *f, u32 idx, u64 *pa);
int isim_hmc_obj_write(struct isim_func *f, unsigned int obj, u32 idx,
		       const void *buf, size_t len);
void isim_op_query_fpm(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_commit_fpm(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_update_sds(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_shmc_pages(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_manage_pmfn(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res);

/* eq.c */
void isim_eq_reset(struct isim_func *f);
void isim_ceq_notify(struct isim_func *f, u16 ceq, u64 ctx);
int isim_aeq_post_q2(struct isim_func *f, u16 code, u8 src, u32 id, u64 ctx,
		     u8 q2);
int isim_aeq_post_full(struct isim_func *f, u16 code, u8 src, u32 id,
		       u64 ctx, u64 more);
int isim_aeq_post(struct isim_func *f, u16 code, u8 src, u32 id, u64 ctx);
void isim_aeq_poll_alloc(struct isim_func *f);
void isim_op_create_ceq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_destroy_ceq(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res);
void isim_op_create_aeq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_destroy_aeq(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res);

/* cq.c */
void isim_cq_reset(struct isim_func *f);
int isim_cq_add(struct isim_func *f, struct isim_cq *cq);
void isim_cq_del(struct isim_func *f, struct isim_cq *cq);
int isim_cq_post(struct isim_func *f, u32 cq_id, u64 *cqe);
void isim_cq_poll_arm(struct isim_func *f, bool scan);
void isim_cq_arm_rung(struct isim_func *f, u32 id);
void isim_op_create_cq(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_modify_cq(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_mcg(struct isim_func *f, const u64 *wqe, struct isim_res *res);
void isim_op_destroy_cq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);

/* qp.c */
void isim_qp_reset(struct isim_func *f);
int isim_qp_add(struct isim_func *f, struct isim_qp *qp);
void isim_qp_del(struct isim_func *f, struct isim_qp *qp);
void isim_op_create_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_modify_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_destroy_qp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_flush_wqes(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_suspend_qp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_resume_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);

/* cqp.c */
void isim_cqp_reset(struct isim_func *f);
void isim_cqp_poll_ctx(struct isim_func *f);
bool isim_cqp_run(struct isim_func *f, unsigned int budget);
const char *isim_cqp_op_name(unsigned int op);
void isim_op_query_features(struct isim_func *f, const u64 *wqe,
			    struct isim_res *res);

/* engine.c */
void isim_eng_lock(struct isim_func *f, const char *by);
void isim_eng_unlock(struct isim_func *f);
void isim_engine_kick(struct isim_func *f, enum isim_wake why);
void isim_engine_kick_reg(struct isim_func *f, u32 off, u32 val);
void isim_engine_set_kicked(struct isim_func *f, bool on);
void isim_engine_due(struct isim_func *f, unsigned long when);
bool isim_engine_dbq_drain(struct isim_func *f, struct isim_dbq *q,
			   u32 *ids, u32 *n);
void isim_engine_show(struct seq_file *s, struct isim_func *f);
bool isim_engine_poll(struct isim_func *f);
int isim_engine_init(struct isim_func *f);
void isim_engine_start(struct isim_func *f);
void isim_engine_stop(struct isim_func *f);
void isim_engine_exit(struct isim_func *f);
void isim_engine_reset(struct isim_func *f);

/* netdev.c */
int isim_netdev_init(struct isim_func *f);
void isim_netdev_exit(struct isim_func *f);
void isim_wire_link(struct isim_func *f);
void isim_wire_unlink(struct isim_func *f);
bool isim_wire_engine_xmit(struct isim_func *f, struct sk_buff *skb);
bool isim_wire_engine_loop(struct isim_func *f, struct sk_buff *skb);

/* aux.c */
void isim_aux_reset_work(struct work_struct *work);
int isim_aux_replug(struct isim_func *f, enum isim_claim claim);
int isim_aux_init(struct isim_func *f);
void isim_aux_exit(struct isim_func *f);
int isim_aux_event(struct isim_func *f, enum isim_aux_event ev, u32 info);

/* debugfs.c */
void isim_debugfs_mod_init(void);
void isim_debugfs_mod_exit(void);
void isim_debugfs_init(struct isim_func *f);
void isim_debugfs_exit(struct isim_func *f);

#endif /* _ISIM_H_ */
