// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * Resource tracking: what `rdma res show qp|cq|mr|cm_id -dd` prints of
 * irdma's own, in the driver table that follows the core's attributes
 * (drivers/infiniband/core/nldev.c). The core holds the object's restrack
 * entry while these run, and a destroy drains it before it reaches the
 * driver (rdma_restrack_begin_del()), so the object stays; each value is
 * read under the lock that guards it. A CM node is not such an object: it
 * is found in its core's tables under RCU and read under its own lock.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <net/netlink.h>
#include <rdma/rdma_cm.h>
#include <rdma/restrack.h>
#include <uapi/rdma/rdma_netlink.h>

#include "main.h"
#include "cm.h"
#include "mr.h"
#include "qp.h"

/**
 * struct irdma_res_attr - one entry of the driver table
 * @name: its name, as rdma(8) prints it; NULL: left out
 * @str: a string value, or NULL for @val
 * @val: a number
 */
struct irdma_res_attr {
	const char *name;
	const char *str;
	u32 val;
};

#define IRDMA_RES_U32(n, v)	((struct irdma_res_attr){ .name = (n), .val = (v) })
#define IRDMA_RES_STR(n, s)	((struct irdma_res_attr){ .name = (n), .str = (s) })

/* Put @n entries of @a in one driver table; -EMSGSIZE leaves none. */
static int irdma_res_put(struct sk_buff *msg, const struct irdma_res_attr *a,
			 unsigned int n)
{
	struct nlattr *table;
	unsigned int i;
	int ret = 0;

	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < n && !ret; i++) {
		if (!a[i].name)
			continue;
		ret = a[i].str ? rdma_nl_put_driver_string(msg, a[i].name,
							    a[i].str) :
				 rdma_nl_put_driver_u32(msg, a[i].name,
							a[i].val);
	}
	if (ret) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

/* ---- QPs, CQs, MRs ---- */

/**
 * irdma_fill_res_qp_entry - irdma's details of a QP for rdma(8)
 * @msg: the netlink message being built
 * @ibqp: the QP
 *
 * The queues' sizes (SQ in 32-byte quanta, RQ in WQEs of 1 << rq_shift
 * quanta), the engine's QP type and state; for a kernel QP, the ring
 * indexes (a user QP's are in user space).
 *
 * Return: 0, or -EMSGSIZE.
 */
int irdma_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	bool kern = rdma_is_kernel_res(&ibqp->res);
	struct irdma_res_attr a[10] = {};
	unsigned long flags;

	a[0] = IRDMA_RES_U32("sq_size", qp->sizes.sq_quanta);
	a[1] = IRDMA_RES_U32("rq_size", qp->sizes.rq_wqes);
	a[2] = IRDMA_RES_U32("rq_shift", qp->sizes.rq_shift);
	mutex_lock(&qp->state_lock);
	a[3] = IRDMA_RES_U32("hw_type", qp->hw_type);
	a[4] = IRDMA_RES_U32("hw_state", qp->hw_state);
	mutex_unlock(&qp->state_lock);
	if (kern) {
		spin_lock_irqsave(&qp->sq_lock, flags);
		a[5] = IRDMA_RES_U32("sq_head", qp->uk.sq_head);
		a[6] = IRDMA_RES_U32("sq_tail", qp->uk.sq_tail);
		a[7] = IRDMA_RES_U32("sq_rung", qp->uk.sq_rung);
		spin_unlock_irqrestore(&qp->sq_lock, flags);
		spin_lock_irqsave(&qp->rq_lock, flags);
		a[8] = IRDMA_RES_U32("rq_head", qp->uk.rq_head);
		a[9] = IRDMA_RES_U32("rq_tail", qp->uk.rq_tail);
		spin_unlock_irqrestore(&qp->rq_lock, flags);
	}
	return irdma_res_put(msg, a, ARRAY_SIZE(a));
}

/**
 * irdma_fill_res_cq_entry - irdma's details of a CQ for rdma(8)
 * @msg: the netlink message being built
 * @ibcq: the CQ
 *
 * The engine's number of the CQ (the core's cqn is its own), the ring's
 * size in CQEs, the CQE size, the CEQ it reports to; for a kernel CQ, the
 * next CQE to look at.
 *
 * Return: 0, or -EMSGSIZE.
 */
int irdma_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_res_attr a[5] = {};
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	a[0] = IRDMA_RES_U32("cq_id", cq->uk.cq_id);
	a[1] = IRDMA_RES_U32("size", cq->uk.size);
	a[2] = IRDMA_RES_U32("cqe_bytes", cq->uk.ext64 ? 64 : 32);
	if (rdma_is_kernel_res(&ibcq->res))
		a[4] = IRDMA_RES_U32("head", cq->uk.head);
	spin_unlock_irqrestore(&cq->lock, flags);
	a[3] = IRDMA_RES_U32("ceq", cq->ceq_id);
	return irdma_res_put(msg, a, ARRAY_SIZE(a));
}

static const char *irdma_res_mr_type(const struct irdma_mr *mr)
{
	if (mr->uring)
		return "ring";
	if (mr->umem)
		return "user";
	if (mr->max_pages)
		return "fast_reg";
	return "dma";
}

/**
 * irdma_fill_res_mr_entry - irdma's details of an MR for rdma(8)
 * @msg: the netlink message being built
 * @ibmr: the MR
 *
 * What it is (a user buffer, a fast-registration MR, the DMA MR, or the
 * registration of a user CQ's or QP's ring, which has no STag), its page
 * size and pages, and the levels of its PBLEs (0: the one page, or none)
 * with the first one's index.
 * The STag is the core's lkey, shown to CAP_NET_ADMIN only.
 *
 * Return: 0, or -EMSGSIZE.
 */
int irdma_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr)
{
	struct irdma_mr *mr = container_of(ibmr, struct irdma_mr, ibmr);
	struct irdma_res_attr a[] = {
		IRDMA_RES_STR("mr_type", irdma_res_mr_type(mr)),
		IRDMA_RES_U32("page_size", ibmr->page_size),
		IRDMA_RES_U32("pages", mr->npages),
		IRDMA_RES_U32("max_pages", mr->max_pages),
		IRDMA_RES_U32("pbl_level", mr->pbl.level),
		IRDMA_RES_U32(mr->pbl.level ? "first_pble" : NULL,
			      mr->pbl.root.idx),
	};

	return irdma_res_put(msg, a, ARRAY_SIZE(a));
}

/* ---- iWARP connections ---- */

static const char * const irdma_res_cm_states[IRDMA_CM_STATE_COUNT] = {
	[IRDMA_CM_STATE_UNKNOWN] = "UNKNOWN",
	[IRDMA_CM_STATE_LISTENING] = "LISTENING",
	[IRDMA_CM_STATE_SYN_SENT] = "SYN_SENT",
	[IRDMA_CM_STATE_SYN_RCVD] = "SYN_RCVD",
	[IRDMA_CM_STATE_ESTABLISHED] = "ESTABLISHED",
	[IRDMA_CM_STATE_MPAREQ_RCVD] = "MPAREQ_RCVD",
	[IRDMA_CM_STATE_MPAREQ_SENT] = "MPAREQ_SENT",
	[IRDMA_CM_STATE_MPAREJ_RCVD] = "MPAREJ_RCVD",
	[IRDMA_CM_STATE_OFFLOADED] = "OFFLOADED",
	[IRDMA_CM_STATE_FIN_WAIT1] = "FIN_WAIT1",
	[IRDMA_CM_STATE_FIN_WAIT2] = "FIN_WAIT2",
	[IRDMA_CM_STATE_CLOSING] = "CLOSING",
	[IRDMA_CM_STATE_LAST_ACK] = "LAST_ACK",
	[IRDMA_CM_STATE_TIME_WAIT] = "TIME_WAIT",
	[IRDMA_CM_STATE_CLOSED] = "CLOSED",
};

static const char * const irdma_res_rtr[] = {
	[IRDMA_CM_RDMA0_NONE] = "none",
	[IRDMA_CM_RDMA0_WRITE] = "write",
	[IRDMA_CM_RDMA0_READ] = "read",
};

/*
 * An rdma_cm id's address as the CM keeps it (struct irdma_cm_info: host
 * order words, IPv4 in word 0). Return: false for another family.
 */
static bool irdma_res_addr(const struct sockaddr_storage *ss, u32 *addr,
			   u16 *port, bool *ipv4)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;
	int i;

	memset(addr, 0, 4 * sizeof(*addr));
	if (ss->ss_family == AF_INET) {
		addr[0] = ntohl(s4->sin_addr.s_addr);
		*port = ntohs(s4->sin_port);
		*ipv4 = true;
		return true;
	}
	if (ss->ss_family != AF_INET6)
		return false;
	for (i = 0; i < 4; i++)
		addr[i] = ntohl(s6->sin6_addr.s6_addr32[i]);
	*port = ntohs(s6->sin6_port);
	*ipv4 = false;
	return true;
}

/* a snapshot of a node, or of a listener (@listener set) */
struct irdma_res_cm {
	bool listener;
	struct irdma_cm_tcp tcp;
	enum irdma_cm_node_state state;
	enum irdma_cm_rdma0 rdma0;
	bool active;
	bool crc;
	bool p2p;
	u8 mpa_rev;
	u32 ird, ord, peer_ird, peer_ord;
	u16 vlan;
	u8 tos;
	int backlog;
	int pending;
	bool wildcard;
};

static void irdma_res_cm_node_snap(struct irdma_cm_node *node,
				   struct irdma_res_cm *r)
{
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	r->tcp = node->tcp;
	r->state = node->state;
	r->rdma0 = node->rdma0;
	r->active = node->active;
	r->crc = node->mpa_crc;
	r->p2p = node->p2p;
	r->mpa_rev = node->mpa_rev;
	r->ird = node->ird;
	r->ord = node->ord;
	r->peer_ird = node->peer_ird;
	r->peer_ord = node->peer_ord;
	r->vlan = node->ci.vlan_id;
	r->tos = node->ci.tos;
	spin_unlock_irqrestore(&node->lock, flags);
}

/*
 * The node of the connection from @ci's local to its remote address and
 * port; nodes are freed after an RCU grace period, so one found under
 * rcu_read_lock() can be read under its lock without a reference.
 */
static bool irdma_res_cm_find_node(struct irdma_cm_core *core,
				   const struct irdma_cm_info *ci,
				   struct irdma_res_cm *r)
{
	struct irdma_cm_node *node;
	bool found = false;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(core->conn_ht, bkt, node, hnode) {
		if (node->ci.ipv4 != ci->ipv4 ||
		    node->ci.loc_port != ci->loc_port ||
		    node->ci.rem_port != ci->rem_port ||
		    memcmp(node->ci.loc_addr, ci->loc_addr,
			   sizeof(ci->loc_addr)) ||
		    memcmp(node->ci.rem_addr, ci->rem_addr,
			   sizeof(ci->rem_addr)))
			continue;
		irdma_res_cm_node_snap(node, r);
		found = true;
		break;
	}
	rcu_read_unlock();
	return found;
}

/* the listener on @ci's local address and port */
static bool irdma_res_cm_find_listener(struct irdma_cm_core *core,
				       const struct irdma_cm_info *ci,
				       struct irdma_res_cm *r)
{
	struct irdma_cm_listener *l;
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry(l, &core->listen_list, list) {
		if (l->ci.ipv4 != ci->ipv4 || l->ci.loc_port != ci->loc_port ||
		    memcmp(l->ci.loc_addr, ci->loc_addr,
			   sizeof(ci->loc_addr)))
			continue;
		r->listener = true;
		r->backlog = l->backlog;
		r->pending = atomic_read(&l->pending);
		r->wildcard = l->wildcard;
		r->vlan = l->ci.vlan_id;
		found = true;
		break;
	}
	spin_unlock_irqrestore(&core->listen_lock, flags);
	return found;
}

static int irdma_res_put_listener(struct sk_buff *msg,
				  const struct irdma_res_cm *r)
{
	struct irdma_res_attr a[] = {
		IRDMA_RES_STR("cm_state", "LISTENER"),
		IRDMA_RES_U32("backlog", r->backlog),
		IRDMA_RES_U32("pending", r->pending),
		IRDMA_RES_U32("wildcard", r->wildcard),
		IRDMA_RES_U32(r->vlan != IRDMA_CM_NO_VLAN ? "vlan" : NULL,
			      r->vlan),
	};

	return irdma_res_put(msg, a, ARRAY_SIZE(a));
}

static int irdma_res_put_node(struct sk_buff *msg, const struct irdma_res_cm *r)
{
	struct irdma_res_attr a[] = {
		IRDMA_RES_STR("cm_state", r->state < IRDMA_CM_STATE_COUNT ?
			      irdma_res_cm_states[r->state] : "?"),
		IRDMA_RES_U32("active", r->active),
		IRDMA_RES_U32("mss", r->tcp.mss),
		IRDMA_RES_U32("snd_nxt", r->tcp.snd_nxt),
		IRDMA_RES_U32("snd_una", r->tcp.snd_una),
		IRDMA_RES_U32("rcv_nxt", r->tcp.rcv_nxt),
		IRDMA_RES_U32("snd_wnd", r->tcp.snd_wnd),
		IRDMA_RES_U32("rcv_wnd", r->tcp.rcv_wnd),
		IRDMA_RES_U32("snd_wscale", r->tcp.snd_wscale),
		IRDMA_RES_U32("rcv_wscale", r->tcp.rcv_wscale),
		IRDMA_RES_U32("tos", r->tos),
		IRDMA_RES_U32(r->vlan != IRDMA_CM_NO_VLAN ? "vlan" : NULL,
			      r->vlan),
		IRDMA_RES_U32("mpa_rev", r->mpa_rev),
		IRDMA_RES_U32("mpa_crc", r->crc),
		IRDMA_RES_U32("p2p", r->p2p),
		IRDMA_RES_STR("rtr", r->rdma0 < ARRAY_SIZE(irdma_res_rtr) ?
			      irdma_res_rtr[r->rdma0] : "?"),
		IRDMA_RES_U32("ird", r->ird),
		IRDMA_RES_U32("ord", r->ord),
		IRDMA_RES_U32("peer_ird", r->peer_ird),
		IRDMA_RES_U32("peer_ord", r->peer_ord),
	};

	return irdma_res_put(msg, a, ARRAY_SIZE(a));
}

/**
 * irdma_fill_res_cm_id_entry - irdma's details of an rdma_cm id for rdma(8)
 * @msg: the netlink message being built
 * @id: the rdma_cm id, on one of our iWARP devices
 *
 * A listening id shows its listener (backlog, requests pending); a
 * connected one the CM node of its addresses: its state, the TCP of the
 * handshake (sequence numbers, windows, MSS) and what MPA negotiated. An
 * id with no node (before the connect, after the node's TCP is over) has
 * no driver table.
 *
 * Return: 0, or -EMSGSIZE.
 */
int irdma_fill_res_cm_id_entry(struct sk_buff *msg, struct rdma_cm_id *id)
{
	struct irdma_res_cm r = {};
	struct irdma_cm_core *core;
	struct irdma_cm_info ci = {};
	bool rem_ipv4;

	if (!id->device || !rdma_protocol_iwarp(id->device, 1))
		return 0;
	core = &to_iwdev(id->device)->cm_core;
	if (!READ_ONCE(core->ready) ||
	    !irdma_res_addr(&id->route.addr.src_addr, ci.loc_addr,
			    &ci.loc_port, &ci.ipv4))
		return 0;
	if (!irdma_res_addr(&id->route.addr.dst_addr, ci.rem_addr,
			    &ci.rem_port, &rem_ipv4) || !ci.rem_port)
		return irdma_res_cm_find_listener(core, &ci, &r) ?
		       irdma_res_put_listener(msg, &r) : 0;
	if (rem_ipv4 != ci.ipv4)
		return 0;
	return irdma_res_cm_find_node(core, &ci, &r) ?
	       irdma_res_put_node(msg, &r) : 0;
}
