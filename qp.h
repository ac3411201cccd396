/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: kernel completion queues and queue pairs (cq.c, qp.c).
 *
 * Both kinds of object sit in a table of the running engine (struct
 * irdma_hw), indexed by their hardware number. The tables allocate the
 * numbers within the HMC counts and let the event paths find an object
 * without a lock: a CEQ element names a CQ, a CQE names a QP.
 */
#ifndef IRDMA_QP_H
#define IRDMA_QP_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "ctrl.h"
#include "hw.h"
#include "ieq.h"
#include "uk.h"

struct irdma_cm_node;
struct irdma_cm_tcp_ctx;
struct irdma_create_cq_req;
struct irdma_uring;

/* Most CQEs a CQ holds (the ring keeps one slot empty) */
#define IRDMA_CQ_MAX_CQE	1048574
/* Smallest ring the engine accepts, in CQEs */
#define IRDMA_CQ_MIN_RING	4
/* Most WRs one queue of a QP holds */
#define IRDMA_QP_MAX_WR		4095
/* Largest SQ or RQ, in quanta; smallest RQ, in WQEs */
#define IRDMA_QP_MAX_QUANTA	32768
#define IRDMA_QP_MIN_RQ		8
/* Most inbound RDMA READs the QP context holds (256 slots, two each) */
#define IRDMA_QP_MAX_IRD	128
/*
 * What the device offers per QP: its max_qp_rd_atom (IRD) and
 * max_qp_init_rd_atom (ORD), and the iWARP CM's limits, which must be the
 * same: librdmacm asks for the device's maxima when given no values.
 */
#define IRDMA_QP_OFFER_IRD	127
#define IRDMA_QP_OFFER_ORD	255
/* X722 keeps half as many: 63 inbound and 127 outbound READs */
#define IRDMA_QP_OFFER_IRD_G1	63
#define IRDMA_QP_OFFER_ORD_G1	127

/* the IRD and ORD a function of generation @hw_rev (1 or 2) offers */
static inline u16 irdma_qp_offer_ird(u8 hw_rev)
{
	return hw_rev == 1 ? IRDMA_QP_OFFER_IRD_G1 : IRDMA_QP_OFFER_IRD;
}

static inline u16 irdma_qp_offer_ord(u8 hw_rev)
{
	return hw_rev == 1 ? IRDMA_QP_OFFER_ORD_G1 : IRDMA_QP_OFFER_ORD;
}

/* Reserved QP numbers: 0 is never used, 1 is the GSI QP of RoCEv2 */
#define IRDMA_QP_GSI_ID		1

/*
 * irdma_qp.term_flags: the AE handling started a TERMINATE; the CM's move
 * to RTS is on the CQP (the engine may already be in RTS and talking)
 */
#define IRDMA_QP_TERM_STARTED	0
#define IRDMA_QP_RTS_PENDING	1
#define IRDMA_QP_FIRST_ID	2

/**
 * struct irdma_cq - a kernel completion queue
 * @ibcq: the core's CQ; first, for INIT_RDMA_OBJ_SIZE
 * @hw: the engine the CQ lives on
 * @uk: ring state; under @lock
 * @ring: CQE memory
 * @shadow: shadow area (consumer index, arm sequence)
 * @lock: serialises polling and arming (@uk)
 * @refs: the table's reference plus one per CEQ event being delivered
 * @freed: completed when @refs drops to zero
 * @ceq_id: the CEQ its events go to (the completion vector)
 * @uring: a user CQ's ring registration (then @ring and @shadow are
 *	unused and @uk holds only the id and size), else NULL
 * @resize_lock: serialises resizes of a user CQ (@uring, @ushadow, the
 *	engine's ring): uverbs runs them under a shared lock of the CQ
 * @ushadow: a user CQ's registration that holds its shadow area when
 *	@uring does not: the shadow area's own, or the ring's a resize
 *	moved away from; else NULL
 *
 * Lifetime: published in hw->cqs once the engine has it; destroy takes it
 * out, waits an RCU grace period and for every event handler that holds
 * a reference, then frees the memory.
 */
struct irdma_cq {
	struct ib_cq ibcq;
	struct irdma_hw *hw;
	struct irdma_uk_cq uk;
	struct irdma_dma_mem ring;
	struct irdma_dma_mem shadow;
	spinlock_t lock; /* uk */
	refcount_t refs;
	struct completion freed;
	u16 ceq_id;
	struct irdma_uring *uring;
	struct mutex resize_lock; /* uring, ushadow */
	struct irdma_uring *ushadow;
};

/**
 * struct irdma_qp_sizes - ring geometry of a QP
 * @sq_quanta: SQ size in quanta (power of two)
 * @rq_wqes: RQ size in WQEs (power of two)
 * @rq_shift: RQ WQE size is 32 << @rq_shift bytes
 * @sq_enc: SQ size as the QP context encodes it
 * @rq_enc: RQ size (in quanta) as the QP context encodes it
 * @max_send_wr: send WRs that always fit
 * @max_recv_wr: receive WRs that fit
 */
struct irdma_qp_sizes {
	u32 sq_quanta;
	u32 rq_wqes;
	u8 rq_shift;
	u8 sq_enc;
	u8 rq_enc;
	u32 max_send_wr;
	u32 max_recv_wr;
};

/**
 * struct irdma_qp_conn - the TCP connection an iWARP QP took over
 * @iw: iWARP context fields, the TCP state included
 * @loc_addr: local address, host order words (IPv4 in [0])
 * @rem_addr: remote address, likewise
 * @mac: local MAC as a 48-bit number
 * @loc_port: local TCP port
 * @rem_port: remote TCP port
 * @mss: send MSS
 * @vlan_tag: VLAN tag (priority and id), with @insert_vlan
 * @arp_idx: ARP cache index of the next hop
 * @ird: inbound RDMA READ depth
 * @ord: outbound RDMA READ depth
 * @ttl: TTL / hop limit
 * @tos: TOS / traffic class
 * @flow_label: IPv6 flow label (RoCEv2)
 * @ipv4: IPv4 addresses
 * @insert_vlan: the engine tags the connection's frames
 *
 * For a RoCEv2 RC QP the same fields hold its address vector (IB_QP_AV):
 * the ports are the UDP source port and 4791, @ird and @ord its RDMA READ
 * depths, @mss unused (the path MTU is irdma_qp.path_mtu).
 */
struct irdma_qp_conn {
	struct irdma_qpc_iwarp iw;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u64 mac;
	u16 loc_port;
	u16 rem_port;
	u16 mss;
	u16 vlan_tag;
	u16 arp_idx;
	u16 ird;
	u8 ord;
	u8 ttl;
	u8 tos;
	u32 flow_label;
	bool ipv4;
	bool insert_vlan;
};

/**
 * struct irdma_ah - an address handle (RoCEv2)
 * @ibah: the core's AH; first, for INIT_RDMA_OBJ_SIZE
 * @hw: the engine that has it
 * @idx: its index on the engine
 * @ticket: command-queue ticket of its CREATE_AH (irdma_cmd_req_ran())
 * @arp_idx: the ARP cache entry of its next hop, held (irdma_arp_get())
 */
struct irdma_ah {
	struct ib_ah ibah;
	struct irdma_hw *hw;
	u32 idx;
	u64 ticket;
	int arp_idx;
};

#define to_irdma_ah(ah)	container_of(ah, struct irdma_ah, ibah)

/**
 * struct irdma_ud_held - a UD send waiting for its AH
 * @wqe: the WQE, written but for its header
 * @ticket: the CREATE_AH it waits for
 */
struct irdma_ud_held {
	struct irdma_uk_held wqe;
	u64 ticket;
};

/**
 * struct irdma_qp_ud - UD sends of a kernel UD or GSI QP held back
 * @held: ring of held sends, one slot per SQ quantum; under the SQ lock
 * @head: oldest held send
 * @cnt: sends held; once one is, every later send is held behind it
 * @release: runs on the command queue, after the CREATE_AHs the sends
 *	wait for, and releases them
 */
struct irdma_qp_ud {
	struct irdma_ud_held *held;
	u32 head;
	u32 cnt;
	struct work_struct release;
};

/**
 * enum irdma_qp_destroy_stage - how far the destroy of a QP got
 * @IRDMA_QP_LIVE: not begun
 * @IRDMA_QP_UNPUBLISHED: no lookup finds the QP and nobody holds it; the
 *	engine still has it
 * @IRDMA_QP_ENGINE_GONE: the engine destroyed it; the STag of its MPA
 *	reply may still be live
 */
enum irdma_qp_destroy_stage {
	IRDMA_QP_LIVE,
	IRDMA_QP_UNPUBLISHED,
	IRDMA_QP_ENGINE_GONE,
};

/**
 * struct irdma_qp - a kernel queue pair
 * @ibqp: the core's QP; first, for INIT_RDMA_OBJ_SIZE
 * @hw: the engine the QP lives on
 * @uk: ring state; SQ side under @sq_lock, RQ side under @rq_lock
 * @rings: SQ quanta followed by RQ WQEs
 * @meta: Q2 buffer, host context and shadow area (one page)
 * @sq_lock: serialises SQ posting and SQ completion retiring
 * @rq_lock: serialises RQ posting and RQ completion retiring
 * @state_lock: serialises modify and query; protects the fields below
 * @ib_state: state as the core knows it
 * @hw_state: state last given to the engine (IRDMA_QPS_*)
 * @hw_type: IRDMA_QPTYPE_*
 * @sizes: ring geometry
 * @cap: capabilities as reported to the core
 * @roce: RoCEv2 context fields the core sets through modify
 * @pkey_index: P_Key index (RoCEv2)
 * @ack_timeout: the local ACK timeout the core set (IB_QP_TIMEOUT), kept
 *	for query_qp: the engine times its retransmissions itself, from the
 *	context's minimum RTO up
 * @sq_sig_all: every send WR is signalled
 * @uring: a user QP's ring registration (SQ, RQ and shadow area are user
 *	memory; @rings and @uk are unused), else NULL
 * @user_ctx: a user QP's completion context (libirdma's QP pointer)
 * @refs: the table's reference, plus one per holder: irdma_qp_get()
 *	callers (the CM, AE handling) and iw_cm (taken by iw_get_qp,
 *	dropped by iw_rem_ref)
 * @freed: completed when @refs drops to zero
 * @cm_lock: protects @cm_node
 * @cm_node: the iWARP CM connection that owns the QP, or NULL; set and
 *	cleared only by that connection (irdma_qp_cm_link())
 * @err_work: moves the QP to ERR for the CM, which asks from atomic
 *	context; holds a reference while queued
 * @conn: the connection the CM handed over (iWARP), or the address vector
 *	and RDMA READ depths (RoCEv2 RC); under @state_lock
 * @conn_set: @conn is filled in and goes into every context written
 *	(iWARP)
 * @av_set: a RoCEv2 QP's address vector is in @conn (IB_QP_AV)
 * @arp_held: an iWARP QP holds the ARP cache entry of its connection's
 *	next hop (@conn.arp_idx, irdma_arp_hold()) until it is destroyed: the
 *	engine may still send its last segments (a reset) after the CM's
 *	node, which held it before, is gone
 * @path_mtu: a RoCEv2 QP's path MTU (IB_QP_PATH_MTU), or 0 for the
 *	netdev's
 * @llp_closed: the engine reported the connection's TCP closed or reset
 *	(AE handling, WRITE_ONCE): a move to ERR need not reset it
 * @term_flags: iWARP TERMINATE: IRDMA_QP_TERM_STARTED once the AE
 *	handling chose to end the connection with one; IRDMA_QP_RTS_PENDING
 *	while the CM's MODIFY_QP to RTS runs
 * @term_act: IRDMA_TERMACT_* of the MODIFY_QP to TERMINATE
 * @term_words: length of the message in Q2, in 4-byte words
 * @lsmm: DMA copy of the MPA reply the LSMM WQE sends; under @state_lock
 * @lsmm_stag: a user QP's STag over @lsmm (irdma_mr_kbuf_reg()), else 0;
 *	under @state_lock
 * @destroy_stage: how far a destroy got (enum irdma_qp_destroy_stage);
 *	a destroy the engine failed is tried again from there
 * @ud: UD sends held back until their AH exists (kernel UD and GSI QPs)
 * @ieq: partial FPDUs of its offloaded connection held by the IEQ (ieq.c)
 * @qos: its queue set and user priority (qos.c)
 *
 * Lifetime: published in hw->qps once the engine has it. poll_cq finds it
 * there under RCU without a reference; everything that keeps it beyond a
 * read side section takes one with irdma_qp_get(). Destroy unpublishes it,
 * so that no new reference can be taken, drops the table's reference and
 * waits for the last holder, then for a grace period, before the engine
 * forgets it and the core frees it.
 */
struct irdma_qp {
	struct ib_qp ibqp;
	struct irdma_hw *hw;
	struct irdma_uk_qp uk;
	struct irdma_dma_mem rings;
	struct irdma_dma_mem meta;
	spinlock_t sq_lock; /* uk SQ indices and slots */
	spinlock_t rq_lock; /* uk RQ indices and wr_ids */
	struct mutex state_lock; /* the fields below */
	enum ib_qp_state ib_state;
	u8 hw_state;
	u8 hw_type;
	struct irdma_qp_sizes sizes;
	struct ib_qp_cap cap;
	struct irdma_qpc_roce roce;
	u16 pkey_index;
	u8 ack_timeout;
	bool sq_sig_all;
	struct irdma_uring *uring;
	u64 user_ctx;
	refcount_t refs;
	struct completion freed;
	spinlock_t cm_lock; /* cm_node */
	struct irdma_cm_node *cm_node;
	struct work_struct err_work;
	struct irdma_qp_conn conn;
	bool conn_set;
	bool av_set;
	bool arp_held;
	enum ib_mtu path_mtu;
	bool llp_closed;
	unsigned long term_flags;
	u8 term_act;
	u8 term_words;
	struct irdma_dma_mem lsmm;
	u32 lsmm_stag;
	u8 destroy_stage;
	struct irdma_qp_ud ud;
	struct irdma_ieq_stream ieq;
	struct irdma_qos_member qos;
};

/**
 * struct irdma_roce_av - the addressing of a RoCEv2 address vector
 * @loc_addr: source address, host order words (IPv4 in [0])
 * @rem_addr: destination address, likewise
 * @smac: source MAC
 * @vlan_tag: VLAN tag (priority and id), with @insert_vlan
 * @ipv4: IPv4 addresses
 * @insert_vlan: the engine tags the packets
 */
struct irdma_roce_av {
	u32 loc_addr[4];
	u32 rem_addr[4];
	u8 smac[ETH_ALEN];
	u16 vlan_tag;
	bool ipv4;
	bool insert_vlan;
};

void irdma_gid_to_addr(const union ib_gid *gid, bool ipv4, u32 *out);
int irdma_roce_av_parse(struct irdma_hw *hw, const struct rdma_ah_attr *attr,
			struct irdma_roce_av *av);

/* our CQ and QP around the ib_core objects they embed */
#define to_irdma_cq(cq)	container_of(cq, struct irdma_cq, ibcq)
#define to_irdma_qp(qp)	container_of(qp, struct irdma_qp, ibqp)

/* cq.c */
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void irdma_cqe_to_wc(const struct irdma_uk_cqe *cqe,
		     const struct irdma_uk_done *done, struct ib_wc *wc);
u32 irdma_cq_ring_size(u32 cqe);
int irdma_ucq_req_check(const struct irdma_create_cq_req *req, u32 cqe,
			u64 ring_va, u32 ring_pages, bool shadow_after,
			const char **why);

/* qp.c */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata);
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata);
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		   int attr_mask, struct ib_qp_init_attr *init_attr);
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr);
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr);
int irdma_qp_retire(struct irdma_qp *qp, const struct irdma_uk_cqe *cqe,
		    struct irdma_uk_done *done);
int irdma_qp_ring_sizes(const struct ib_qp_cap *cap, u8 hw_rev,
			struct irdma_qp_sizes *sz);
int irdma_qp_user_sizes(const struct ib_qp_cap *cap, u8 hw_rev,
			u32 sq_pages, u32 rq_pages, struct irdma_qp_sizes *sz);
int irdma_qp_hw_state(enum ib_qp_state cur, enum ib_qp_state next,
		      bool iwarp, u8 *hw_state);
int irdma_qp_ulp_disc_cause(enum ib_qp_state cur, enum ib_qp_state next);
int irdma_qp_iw_ulp_move(enum ib_qp_state cur, enum ib_qp_state next);
bool irdma_qp_resets_conn(const struct irdma_qp *qp, enum ib_qp_state cur,
			  enum ib_qp_state next);
bool irdma_qp_iw_stays_idle(const struct irdma_qp *qp, enum ib_qp_state cur,
			    enum ib_qp_state next);
bool irdma_qp_sqd_noop(const struct irdma_qp *qp, enum ib_qp_state cur,
		       enum ib_qp_state next, int attr_mask);
void irdma_qp_publish(struct irdma_hw *hw, struct irdma_qp *qp, u32 id);
void irdma_qp_unpublish(struct irdma_hw *hw, struct irdma_qp *qp, u32 id);
struct irdma_qp *irdma_qp_get(struct irdma_hw *hw, u32 id);
void irdma_qp_put(struct irdma_qp *qp);
int irdma_qp_cm_may_take(struct irdma_qp *qp);
int irdma_qp_cm_link(struct irdma_qp *qp, struct irdma_cm_node *old,
		     struct irdma_cm_node *node);
void irdma_qp_async_err(struct irdma_qp *qp);
int irdma_qp_conn_from_cm(const struct irdma_cm_tcp_ctx *t,
			  struct irdma_qp_conn *conn);
int irdma_qp_iw_set_ctx(struct irdma_qp *qp, const struct irdma_cm_tcp_ctx *t);
int irdma_qp_iw_post_lsmm(struct irdma_qp *qp, const void *buf, u32 len);
int irdma_qp_iw_post_rtr(struct irdma_qp *qp, bool read);
int irdma_qp_iw_post_nop(struct irdma_qp *qp);
int irdma_qp_iw_to_rts(struct irdma_qp *qp);
int irdma_qp_iw_close(struct irdma_qp *qp);
u8 *irdma_qp_q2(struct irdma_qp *qp);

/* verbs.c */
u32 irdma_pd_num(const struct ib_pd *ibpd);

#endif /* IRDMA_QP_H */
