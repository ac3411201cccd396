// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the work scheduler, statistics and the user priority map.
 *
 * The transmit scheduler is a tree of nodes the driver builds with
 * WORK_SCHED_NODE: one root, inner nodes, and leaves, each of a traffic
 * class. A leaf's id is its QS handle: a QP's context (word 22) names the
 * leaf it transmits through, and the driver registers each leaf with the
 * parent (qset_add, see aux.c) for the leaf's traffic class. The wire has
 * no bandwidth to share, so weights and priority types are only kept, but
 * the tree's rules are the adapter's (isim_op_ws_node()), and a QP is
 * served only through a leaf that exists, is enabled, is registered and
 * is of a traffic class the parent has in use (isim_sched_tc()). Work of
 * any other QP is held, not lost: it goes once the QP has such a leaf.
 *
 * The engine counts what it moves (frames of the raw queues and of
 * offloaded connections, RDMA messages, binds and invalidations) once per
 * function; GATHER_STATS reports those counts for the function and for
 * every instance it allocated alike.
 */
#include <asm/unaligned.h>
#include <linux/in.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "isim.h"

/**
 * isim_sched_init - allocate the scheduler's nodes
 * @f: function
 *
 * Return: 0 or -ENOMEM.
 */
int isim_sched_init(struct isim_func *f)
{
	f->sched.node = kcalloc(ISIM_WS_NODES, sizeof(*f->sched.node),
				GFP_KERNEL);
	return f->sched.node ? 0 : -ENOMEM;
}

/**
 * isim_sched_exit - free the scheduler's nodes
 * @f: function
 */
void isim_sched_exit(struct isim_func *f)
{
	kfree(f->sched.node);
	f->sched.node = NULL;
}

/**
 * isim_sched_reset - forget every node (the parent's registrations stay)
 * @f: function
 *
 * Caller holds eng_lock.
 */
void isim_sched_reset(struct isim_func *f)
{
	lockdep_assert_held(&f->eng_lock);
	memset(f->sched.node, 0, ISIM_WS_NODES * sizeof(*f->sched.node));
	f->sched.nodes = 0;
	f->sched.has_root = false;
}

/* the node @id, or NULL if there is none */
static struct isim_ws_node *isim_ws_node(struct isim_func *f, u32 id)
{
	if (id >= ISIM_WS_NODES || !f->sched.node[id].used)
		return NULL;
	return &f->sched.node[id];
}

/**
 * isim_ws_add - add a node to the scheduler's tree
 * @f: function
 * @id: the new node's id, which must be free
 * @parent: its parent's id; its own id makes it the root
 * @tc: traffic class
 * @leaf: the node is a leaf
 * @enable: the scheduler serves it
 *
 * There is one root; any other node hangs from an existing node that is
 * not a leaf. Caller holds eng_lock.
 *
 * Return: ISIM_MIN_OK, or the minor code the command fails with.
 */
u16 isim_ws_add(struct isim_func *f, u32 id, u32 parent, u8 tc, bool leaf,
		bool enable)
{
	struct isim_sched *s = &f->sched;
	struct isim_ws_node *p = NULL;

	lockdep_assert_held(&f->eng_lock);
	if (id >= ISIM_WS_NODES)
		return ISIM_MIN_BAD_ID;
	if (s->node[id].used)
		return ISIM_MIN_EXISTS;
	if (parent == id && s->has_root)
		return ISIM_MIN_BAD_FIELD;
	if (parent != id) {
		p = isim_ws_node(f, parent);
		if (!p)
			return ISIM_MIN_NO_OBJECT;
		if (p->leaf)
			return ISIM_MIN_BAD_FIELD;
		p->children++;
	} else {
		s->has_root = true;
		s->root = id;
	}
	s->node[id] = (struct isim_ws_node){
		.parent = parent, .tc = tc, .used = true, .leaf = leaf,
		.enabled = enable,
	};
	s->nodes++;
	/* a registration that outlived an earlier node of this id counts */
	f->rescan = true;
	return ISIM_MIN_OK;
}

/* DELETE: a node without children; Return: ISIM_MIN_OK or a minor */
static u16 isim_ws_del(struct isim_func *f, u32 id)
{
	struct isim_sched *s = &f->sched;
	struct isim_ws_node *n = isim_ws_node(f, id);

	if (!n)
		return ISIM_MIN_NO_OBJECT;
	if (n->children)
		return ISIM_MIN_BAD_FIELD;
	if (n->parent == id)
		s->has_root = false;
	else
		s->node[n->parent].children--;
	n->used = false;
	s->nodes--;
	return ISIM_MIN_OK;
}

/* what ADD and MODIFY take from the command besides the tree's shape */
static void isim_ws_set(struct isim_ws_node *n, const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR];

	n->enabled = hdr & ISIM_WS_HDR_ENABLE;
	n->tc = FIELD_GET(ISIM_WS_HDR_TC, hdr);
	n->prio_type = FIELD_GET(ISIM_WS_HDR_PRIO_TYPE, hdr);
	n->weight = FIELD_GET(ISIM_WS_W4_WEIGHT, wqe[4]);
	n->vsi = FIELD_GET(ISIM_WS_W4_VSI, wqe[4]);
}

/**
 * isim_op_ws_node - WORK_SCHED_NODE: add, modify or delete a node
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status; for an add, the node's id (its QS handle)
 *
 * ADD follows isim_ws_add(); MODIFY takes enable, TC, priority type,
 * weight and VSI of an existing node (its place in the tree stays);
 * DELETE takes a node without children. A node that becomes enabled may
 * let held QPs run: the next pass looks at every QP.
 */
void isim_op_ws_node(struct isim_func *f, const u64 *wqe,
		     struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 id = FIELD_GET(ISIM_WS_HDR_NODE, hdr);

	switch (FIELD_GET(ISIM_WS_HDR_OP, hdr)) {
	case ISIM_WS_ADD:
		res->minor = isim_ws_add(f, id,
					 FIELD_GET(ISIM_WS_HDR_PARENT, hdr),
					 FIELD_GET(ISIM_WS_HDR_TC, hdr),
					 hdr & ISIM_WS_HDR_LEAF,
					 hdr & ISIM_WS_HDR_ENABLE);
		if (res->minor)
			break;
		isim_ws_set(&f->sched.node[id], wqe);
		res->ret_val = id;
		break;
	case ISIM_WS_MODIFY:
		if (!isim_ws_node(f, id)) {
			res->minor = ISIM_MIN_NO_OBJECT;
			break;
		}
		isim_ws_set(&f->sched.node[id], wqe);
		f->rescan = true;
		break;
	case ISIM_WS_DELETE:
		res->minor = isim_ws_del(f, id);
		break;
	default:
		res->minor = ISIM_MIN_BAD_FIELD;
	}
}

/* the parent's traffic classes in use */
static u8 isim_sched_num_tc(struct isim_func *f)
{
	u8 n;

	spin_lock(&f->qos_lock);
	n = f->qos.num_tc;
	spin_unlock(&f->qos_lock);
	return n;
}

/**
 * isim_sched_qset_add - register a leaf with the parent (qset_add)
 * @f: function
 * @qs_handle: the leaf's id
 * @tc: the traffic class the driver registers it for
 *
 * The handle must name a leaf of traffic class @tc, a class the parent
 * has in use. Held QPs on it may run now: the next pass looks at every
 * QP. Caller holds eng_lock.
 *
 * Return: 0, -EINVAL (no such leaf, another class, a class not in use),
 * -EEXIST (registered already), -EOPNOTSUPP on gen1.
 */
int isim_sched_qset_add(struct isim_func *f, u32 qs_handle, u8 tc)
{
	struct isim_ws_node *n = isim_ws_node(f, qs_handle);

	lockdep_assert_held(&f->eng_lock);
	/* i40e has no qsets to register: the X722 has no scheduler nodes */
	if (f->gen == ISIM_GEN1)
		return -EOPNOTSUPP;
	if (!n || !n->leaf || n->tc != tc || tc >= isim_sched_num_tc(f))
		return -EINVAL;
	if (test_and_set_bit(qs_handle, f->sched.qsets))
		return -EEXIST;
	atomic_inc(&f->qsets);
	f->rescan = true;
	return 0;
}

/**
 * isim_sched_qset_del - end a registration (qset_del)
 * @f: function
 * @qs_handle: the handle isim_sched_qset_add() registered
 *
 * The leaf may be gone already. Caller holds eng_lock.
 *
 * Return: 0, or -ENOENT if the handle is not registered.
 */
int isim_sched_qset_del(struct isim_func *f, u32 qs_handle)
{
	lockdep_assert_held(&f->eng_lock);
	if (qs_handle >= ISIM_WS_NODES ||
	    !test_and_clear_bit(qs_handle, f->sched.qsets))
		return -ENOENT;
	atomic_dec(&f->qsets);
	return 0;
}

/**
 * isim_sched_tc - the traffic class a QS handle transmits on
 * @f: function
 * @qs_handle: a QP's QS handle
 *
 * Caller holds eng_lock.
 *
 * Return: the traffic class of the leaf @qs_handle names, or -1 if that
 * is no leaf the scheduler serves: one that exists, is enabled, is
 * registered with the parent and is of a class the parent has in use.
 * Always 0 on gen1, which has no scheduler nodes.
 */
int isim_sched_tc(struct isim_func *f, u32 qs_handle)
{
	struct isim_ws_node *n = isim_ws_node(f, qs_handle);

	lockdep_assert_held(&f->eng_lock);
	/* the X722 has no work scheduler nodes: every QP sends on TC 0 */
	if (f->gen == ISIM_GEN1)
		return 0;
	if (!n || !n->leaf || !n->enabled ||
	    !test_bit(qs_handle, f->sched.qsets) ||
	    n->tc >= isim_sched_num_tc(f))
		return -1;
	return n->tc;
}

/**
 * isim_sched_may_send - a QP may put frames on the wire now
 * @f: function
 * @qp: the QP
 *
 * It is not suspended, and its QS handle names a leaf the scheduler
 * serves (isim_sched_tc()). Caller holds eng_lock.
 *
 * Return: true if so.
 */
bool isim_sched_may_send(struct isim_func *f, const struct isim_qp *qp)
{
	return !qp->suspended && isim_sched_tc(f, qp->qs_handle) >= 0;
}

/**
 * isim_sched_show - the scheduler's lines of the state file
 * @s: the file
 * @f: function
 *
 * Caller holds eng_lock.
 */
void isim_sched_show(struct seq_file *s, struct isim_func *f)
{
	struct isim_sched *sc = &f->sched;
	const struct isim_ws_node *n;
	unsigned int id;

	lockdep_assert_held(&f->eng_lock);
	seq_printf(s, "sched: nodes=%u root=%d unsched=%llu\n", sc->nodes,
		   sc->has_root ? sc->root : -1, sc->unsched);
	for (id = 0; id < ISIM_WS_NODES; id++) {
		n = &sc->node[id];
		if (n->used)
			seq_printf(s, "ws %u: parent=%u tc=%u leaf=%d enabled=%d registered=%d weight=%u prio_type=%u vsi=%u\n",
				   id, n->parent, n->tc, n->leaf, n->enabled,
				   test_bit(id, sc->qsets), n->weight,
				   n->prio_type, n->vsi);
		else if (test_bit(id, sc->qsets))
			seq_printf(s, "ws %u: none registered=1\n", id);
	}
}

/**
 * isim_op_manage_stats - MANAGE_STATS: allocate or free an instance
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status; for an allocation, the instance index
 */
void isim_op_manage_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 idx = FIELD_GET(ISIM_STATS_HDR_INDEX, hdr);

	if (hdr & ISIM_STATS_HDR_ALLOC) {
		idx = find_first_zero_bit(f->conn.stats, ISIM_STATS_INSTANCES);
		if (idx >= ISIM_STATS_INSTANCES) {
			res->minor = ISIM_MIN_BAD_SIZE;
			return;
		}
		set_bit(idx, f->conn.stats);
		res->ret_val = idx;
		return;
	}
	if (!test_and_clear_bit(idx, f->conn.stats))
		res->minor = ISIM_MIN_NO_OBJECT;
}

/**
 * isim_op_up_map - UP_MAP: user priority to traffic class map
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_up_map(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res)
{
	if (FIELD_GET(ISIM_UPMAP_W5_FN, wqe[5]) != f->id)
		res->minor = ISIM_MIN_BAD_ID;
}

/* where GATHER_STATS puts each counter, and at what width it wraps */
static const struct {
	u16 off;
	u8 bits;
} isim_gs_slots[ISIM_GS_NUM] = {
	[ISIM_GS_VLAN_ERR]		= { 0x004, 32 },
	[ISIM_GS_IP4_RX_OCTETS]		= { 0x008, 48 },
	[ISIM_GS_IP4_RX_PKTS]		= { 0x010, 48 },
	[ISIM_GS_IP4_RX_TRUNC]		= { 0x018, 32 },
	[ISIM_GS_IP4_RX_DISCARD]	= { 0x01c, 32 },
	[ISIM_GS_IP4_RX_FRAGS]		= { 0x020, 48 },
	[ISIM_GS_IP4_RX_MC_OCTETS]	= { 0x028, 48 },
	[ISIM_GS_IP4_RX_MC_PKTS]	= { 0x030, 48 },
	[ISIM_GS_IP6_RX_OCTETS]		= { 0x038, 48 },
	[ISIM_GS_IP6_RX_PKTS]		= { 0x040, 48 },
	[ISIM_GS_IP6_RX_TRUNC]		= { 0x048, 32 },
	[ISIM_GS_IP6_RX_DISCARD]	= { 0x04c, 32 },
	[ISIM_GS_IP6_RX_FRAGS]		= { 0x050, 48 },
	[ISIM_GS_IP6_RX_MC_OCTETS]	= { 0x058, 48 },
	[ISIM_GS_IP6_RX_MC_PKTS]	= { 0x060, 48 },
	[ISIM_GS_IP4_TX_OCTETS]		= { 0x068, 48 },
	[ISIM_GS_IP4_TX_PKTS]		= { 0x070, 48 },
	[ISIM_GS_IP4_TX_FRAGS]		= { 0x078, 48 },
	[ISIM_GS_IP4_TX_MC_OCTETS]	= { 0x080, 48 },
	[ISIM_GS_IP4_TX_MC_PKTS]	= { 0x088, 48 },
	[ISIM_GS_IP6_TX_OCTETS]		= { 0x090, 48 },
	[ISIM_GS_IP6_TX_PKTS]		= { 0x098, 48 },
	[ISIM_GS_IP6_TX_FRAGS]		= { 0x0a0, 48 },
	[ISIM_GS_IP6_TX_MC_OCTETS]	= { 0x0a8, 48 },
	[ISIM_GS_IP6_TX_MC_PKTS]	= { 0x0b0, 48 },
	[ISIM_GS_IP6_TX_NO_ROUTE]	= { 0x0b8, 32 },
	[ISIM_GS_IP4_TX_NO_ROUTE]	= { 0x0bc, 32 },
	[ISIM_GS_TCP_RX_SEGS]		= { 0x0c0, 48 },
	[ISIM_GS_TCP_RX_PROTO_ERR]	= { 0x0c8, 32 },
	[ISIM_GS_TCP_RX_OPT_ERR]	= { 0x0cc, 32 },
	[ISIM_GS_TCP_TX_SEGS]		= { 0x0d0, 48 },
	[ISIM_GS_TCP_RTX_SEGS]		= { 0x0dc, 32 },
	[ISIM_GS_UDP_RX]		= { 0x0e0, 48 },
	[ISIM_GS_UDP_TX]		= { 0x0e8, 48 },
	[ISIM_GS_RDMA_RX_WRITES]	= { 0x0f0, 48 },
	[ISIM_GS_RDMA_RX_READS]		= { 0x0f8, 48 },
	[ISIM_GS_RDMA_RX_SENDS]		= { 0x100, 48 },
	[ISIM_GS_RDMA_TX_WRITES]	= { 0x108, 48 },
	[ISIM_GS_RDMA_TX_READS]		= { 0x110, 48 },
	[ISIM_GS_RDMA_TX_SENDS]		= { 0x118, 48 },
	[ISIM_GS_BINDS]			= { 0x120, 48 },
	[ISIM_GS_INVALIDATES]		= { 0x128, 48 },
	[ISIM_GS_RX_ECN_MARKED]		= { 0x130, 48 },
	[ISIM_GS_CNP_HANDLED]		= { 0x138, 32 },
	[ISIM_GS_CNP_IGNORED]		= { 0x13c, 32 },
	[ISIM_GS_CNP_SENT]		= { 0x140, 32 },
};

/**
 * isim_hwc_frame - count a frame the engine sent or took in
 * @f: function
 * @ipv4: carried by IPv4 (else IPv6)
 * @proto: IPPROTO_TCP (a segment) or IPPROTO_UDP (a RoCEv2 datagram)
 * @rx: received (else transmitted)
 * @octets: bytes from the IP header on
 *
 * Callable from any context.
 */
void isim_hwc_frame(struct isim_func *f, bool ipv4, u8 proto, bool rx,
		    u32 octets)
{
	static const enum isim_gs ctr[2][2][2] = {
		/* [ipv4][rx]: packets, octets */
		[0][0] = { ISIM_GS_IP6_TX_PKTS, ISIM_GS_IP6_TX_OCTETS },
		[0][1] = { ISIM_GS_IP6_RX_PKTS, ISIM_GS_IP6_RX_OCTETS },
		[1][0] = { ISIM_GS_IP4_TX_PKTS, ISIM_GS_IP4_TX_OCTETS },
		[1][1] = { ISIM_GS_IP4_RX_PKTS, ISIM_GS_IP4_RX_OCTETS },
	};

	isim_hwc_add(f, ctr[ipv4][rx][0], 1);
	isim_hwc_add(f, ctr[ipv4][rx][1], octets);
	if (proto == IPPROTO_UDP)
		isim_hwc_add(f, rx ? ISIM_GS_UDP_RX : ISIM_GS_UDP_TX, 1);
	else
		isim_hwc_add(f, rx ? ISIM_GS_TCP_RX_SEGS : ISIM_GS_TCP_TX_SEGS,
			     1);
}

/**
 * isim_hwc_segment - count a TCP segment the engine sent or took in
 * @f: function
 * @ipv4: carried by IPv4 (else IPv6)
 * @rx: received (else transmitted)
 * @octets: bytes from the IP header on
 *
 * Callable from any context.
 */
void isim_hwc_segment(struct isim_func *f, bool ipv4, bool rx, u32 octets)
{
	isim_hwc_frame(f, ipv4, IPPROTO_TCP, rx, octets);
}

/**
 * isim_op_gather_stats - GATHER_STATS: write the counters to host memory
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * An instance must have been allocated; the function named by word 5
 * must be this one.
 */
void isim_op_gather_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 idx = FIELD_GET(ISIM_STATS_HDR_INDEX, hdr);
	__le64 *blk;
	unsigned int i;

	if ((hdr & ISIM_STATS_HDR_USE_INST) && !test_bit(idx, f->conn.stats)) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	if ((hdr & ISIM_STATS_HDR_USE_FN) &&
	    FIELD_GET(ISIM_STATS_W5_FN, wqe[5]) != f->id) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	if (!IS_ALIGNED(wqe[4], 8)) {
		res->minor = ISIM_MIN_BAD_ALIGN;
		return;
	}
	blk = kzalloc(ISIM_GS_BLOCK, GFP_KERNEL);
	if (!blk) {
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	for (i = 0; i < ISIM_GS_NUM; i++) {
		u64 v = atomic64_read(&f->hwc[i]);
		u8 *slot = (u8 *)blk + isim_gs_slots[i].off;

		if (isim_gs_slots[i].bits == 32)
			put_unaligned_le32(lower_32_bits(v), slot);
		else
			put_unaligned_le64(v & GENMASK_ULL(47, 0), slot);
	}
	if (isim_dma_write(f, wqe[4], blk, ISIM_GS_BLOCK))
		res->minor = ISIM_MIN_DMA_FAULT;
	kfree(blk);
}
