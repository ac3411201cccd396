/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: the network side of a function: address handles, multicast
 * groups, connection tables (APBVT, ARP, MAC), the work scheduler, UD.
 */
#ifndef _ISIM_NET_H_
#define _ISIM_NET_H_

#include <linux/bitmap.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/types.h>

#include "isim_defs.h"

struct isim_flow;
struct isim_func;
struct isim_qp;
struct isim_res;
struct isim_xfer;
struct seq_file;

/**
 * struct isim_ah - an address handle, as the driver described it
 * @index: AH index
 * @wqe: the create/modify WQE, kept for the transmit path
 */
struct isim_ah {
	u32 index;
	u64 wqe[ISIM_CQP_WQE_WORDS];
};

/**
 * struct isim_mcg - a multicast group of UD QPs
 * @index: the group's index (below the committed FSIMC count)
 * @ipv4: @addr is IPv4
 * @addr: the group's address, host-order words (IPv4 in word 0)
 * @qpn: member QPs, @n of them
 * @n: members
 * @rx: datagrams delivered, one per member reached
 */
struct isim_mcg {
	u32 index;
	bool ipv4;
	u32 addr[4];
	u32 qpn[ISIM_MCG_MEMBERS];
	u8 n;
	u64 rx;
};

/**
 * struct isim_conn - connection steering tables of the function
 * @apbvt: local TCP ports open for accelerated connections
 * @qhash: quad-hash filters (struct isim_qhash)
 * @nqhash: entries in @qhash
 * @arp: valid ARP cache entries by index (xa_mk_value of the MAC)
 * @lmac: local MAC table
 * @lmac_used: entries of @lmac handed out by ALLOC_LOCAL_MAC
 * @stats: statistics instances in use
 * @toe: 4-tuples of offloaded connections (struct isim_toe.node)
 * @acks: offloaded connections owed an ACK by the pass (struct
 *	isim_toe.ack_node); under eng_lock
 * @ntoe: entries in @toe
 * @toe_gen: generation of the last connection offloaded
 * @tw: connections in TIME_WAIT (struct isim_toe_tw), in the order they
 *	expire
 * @ntw: entries in @tw
 * @tw_id: id of the last entry added to @tw
 * @qh_lock: protects @qhash, @nqhash, @toe, @ntoe, @tw and @ntw against
 *	the receive path, which steers frames in softirq context; writers
 *	of @toe also hold eng_lock (the receive path frees @tw entries)
 */
struct isim_conn {
	unsigned long *apbvt;
	struct list_head qhash;
	u32 nqhash;
	spinlock_t qh_lock; /* see @qh_lock above */
	struct xarray arp;
	u64 lmac[ISIM_LMAC_ENTRIES];
	unsigned long lmac_used;
	DECLARE_BITMAP(stats, ISIM_STATS_INSTANCES);
	struct list_head toe;
	struct list_head acks;
	u32 ntoe;
	u32 toe_gen;
	struct list_head tw;
	u32 ntw;
	u32 tw_id;
};

/**
 * struct isim_ws_node - a node of the work scheduler's tree (sched.c)
 * @parent: the parent's id; a root's is its own
 * @children: nodes whose parent this is
 * @vsi: VSI the node serves (word 4)
 * @weight: share among its siblings (word 4)
 * @tc: traffic class
 * @prio_type: priority type
 * @used: the node exists
 * @leaf: a leaf, which QPs name by its id (their QS handle)
 * @enabled: the scheduler serves the node
 */
struct isim_ws_node {
	u16 parent;
	u16 children;
	u16 vsi;
	u8 weight;
	u8 tc;
	u8 prio_type;
	bool used;
	bool leaf;
	bool enabled;
};

/**
 * struct isim_sched - the work scheduler of a function
 * @node: ISIM_WS_NODES nodes by id
 * @nodes: nodes in use
 * @root: id of the root node, with @has_root
 * @has_root: the tree has its root
 * @qsets: QS handles the driver registered with the parent (qset_add);
 *	a registration names a handle, not a node: it outlives a DELETE of
 *	the leaf until qset_del, as the driver deletes the node first
 * @unsched: times a pass found work on a QP it could not schedule
 *
 * The nodes go with a function reset; @qsets are the parent's and stay.
 */
struct isim_sched {
	struct isim_ws_node *node;
	u32 nodes;
	u16 root;
	bool has_root;
	DECLARE_BITMAP(qsets, ISIM_WS_NODES);
	u64 unsched;
};

/**
 * struct isim_ud_stats - RoCEv2 datagrams of UD and GSI QPs (ud.c)
 * @rxq: datagrams taken from the stack, waiting for the engine (own lock)
 * @tx: datagrams sent
 * @tx_err: SQ WQEs completed with an error (bad opcode, AH, payload)
 * @tx_lost: datagrams built that the netdev refused
 * @steered: datagrams taken from the stack for the engine
 * @rx: datagrams placed in an RQ buffer
 * @rx_err: datagrams that completed their RQ WQE with an error (buffer
 *	too small or unreachable)
 * @drop_full: of @steered, dropped because @rxq was full
 * @drop_malformed: dropped: UDP length or headers do not fit
 * @drop_icrc: dropped: bad ICRC
 * @drop_opcode: dropped: transport version not 0, or not a UD SEND
 * @drop_qp: dropped: no UD QP of that number in RTR or RTS (or its RQ is
 *	flushing, or it is suspended)
 * @drop_qkey: dropped: Q_Key is not the QP's
 * @drop_no_rqe: dropped: no RQ WQE posted (UD has no RNR)
 */
struct isim_ud_stats {
	struct sk_buff_head rxq;
	atomic64_t tx, tx_err, tx_lost;
	atomic64_t steered, rx, rx_err;
	atomic64_t drop_full, drop_malformed, drop_icrc, drop_opcode;
	atomic64_t drop_qp, drop_qkey, drop_no_rqe;
};

/* conn.c */
int isim_conn_init(struct isim_func *f);
void isim_conn_exit(struct isim_func *f);
void isim_conn_reset(struct isim_func *f);
void isim_op_manage_apbvt(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_manage_qhash(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_manage_arp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_alloc_mac(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_manage_mac(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_create_ah(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_modify_ah(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_destroy_ah(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_ws_node(struct isim_func *f, const u64 *wqe,
		     struct isim_res *res);
int isim_sched_init(struct isim_func *f);
void isim_sched_exit(struct isim_func *f);
void isim_sched_reset(struct isim_func *f);
u16 isim_ws_add(struct isim_func *f, u32 id, u32 parent, u8 tc, bool leaf,
		bool enable);
int isim_sched_qset_add(struct isim_func *f, u32 qs_handle, u8 tc);
int isim_sched_qset_del(struct isim_func *f, u32 qs_handle);
int isim_sched_tc(struct isim_func *f, u32 qs_handle);
bool isim_sched_may_send(struct isim_func *f, const struct isim_qp *qp);
bool isim_sched_check(struct isim_func *f, const struct isim_qp *qp,
		      bool work);
void isim_sched_show(struct seq_file *s, struct isim_func *f);
void isim_op_manage_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_gather_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_up_map(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res);
void isim_conn_addr(const u64 *w, bool ipv4, u32 *addr);
void isim_conn_drop_established(struct isim_func *f,
				const struct isim_flow *fl);
bool isim_conn_steer(struct isim_func *f, const struct isim_flow *fl,
		     u32 *qpn);

/* ud.c */
void isim_ud_init(struct isim_func *f);
void isim_ud_reset(struct isim_func *f);
int isim_ud_sq_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr);
bool isim_ud_steer(struct isim_func *f, struct sk_buff *skb);
bool isim_ud_run(struct isim_func *f, unsigned int budget);
u32 isim_icrc(const u8 *l3, u8 l3_len, u32 len);
void isim_ud_show(struct seq_file *s, struct isim_func *f);

#endif /* _ISIM_NET_H_ */
