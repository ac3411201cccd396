// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: kernel queue pairs.
 *
 * A QP owns two DMA allocations: its rings (SQ quanta, then RQ WQEs) and
 * one page holding the Q2 buffer, the 256-byte host context the engine
 * copies on CREATE_QP and MODIFY_QP, and the doorbell shadow area. Its
 * number comes from the engine's QP table (hw->qps), bounded by the HMC
 * QP count; 0 is never used and 1 belongs to the RoCEv2 GSI QP.
 *
 * The engine is given the QP at create time in its idle state; every
 * modify rewrites the host context from what the core set so far and
 * sends it with the new hardware state. Posting goes through uk.c.
 *
 * A user QP's rings and shadow area are user memory that libirdma
 * registered just before (uring.c); the engine reaches the rings through
 * PBLEs, and user space posts to them itself. Their geometry is what
 * libirdma derives from the capabilities, so the driver derives the same
 * (irdma_qp_user_sizes()) and returns the capabilities unchanged.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <asm/unaligned.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>
#include <rdma/irdma-abi.h>

#include "ilq.h"
#include "main.h"
#include "mr.h"
#include "qp.h"
#include "uring.h"

/* Layout of the QP's metadata page */
#define IRDMA_QP_META_Q2	0
#define IRDMA_QP_META_CTX	256
#define IRDMA_QP_META_SHADOW	512
#define IRDMA_QP_META_BYTES	(IRDMA_QP_META_SHADOW + IRDMA_SHADOW_AREA_BYTES)
/* RoCEv2 UDP destination port */
#define IRDMA_QP_ROCE_PORT	4791
#define IRDMA_QP_DEFAULT_TTL	64

static bool irdma_qp_is_iwarp(const struct irdma_qp *qp)
{
	return qp->hw_type == IRDMA_QPTYPE_IWARP;
}

/* ---- pure helpers (KUnit) ---- */

static u8 irdma_qp_max_frags(u8 hw_rev)
{
	return hw_rev == 1 ? IRDMA_UK_MAX_FRAGS_G1 : IRDMA_UK_MAX_FRAGS;
}

static u32 irdma_qp_max_inline(u8 hw_rev)
{
	return hw_rev == 1 ? IRDMA_UK_MAX_INLINE_G1 : IRDMA_UK_MAX_INLINE;
}

static int irdma_qp_check_cap(const struct ib_qp_cap *cap, u8 hw_rev)
{
	if (cap->max_send_wr > IRDMA_QP_MAX_WR ||
	    cap->max_recv_wr > IRDMA_QP_MAX_WR ||
	    cap->max_send_sge > irdma_qp_max_frags(hw_rev) ||
	    cap->max_recv_sge > irdma_qp_max_frags(hw_rev) ||
	    cap->max_inline_data > irdma_qp_max_inline(hw_rev))
		return -EINVAL;
	return 0;
}

/*
 * SQ quanta one WR may cost: a WR never crosses a chunk, so a chunk of
 * 8 quanta holds 8 / q WRs of q quanta and pads the rest.
 */
static int irdma_qp_wr_cost(const struct ib_qp_cap *cap, u8 hw_rev, u32 *cost)
{
	u32 chunk = hw_rev == 1 ? IRDMA_UK_SQ_CHUNK_G1 : IRDMA_UK_SQ_CHUNK;
	u16 q;

	if (irdma_uk_sq_quanta(max_t(u32, cap->max_send_sge, 1), &q))
		return -EINVAL;
	q = max(q, irdma_uk_inline_quanta(hw_rev, cap->max_inline_data));
	if (q > chunk)
		return -EINVAL;
	*cost = chunk / (chunk / q);
	return 0;
}

/**
 * irdma_qp_ring_sizes - ring geometry for the capabilities asked
 * @cap: WRs, SGEs and inline bytes per queue
 * @hw_rev: 1 (X722) or 2 (E810)
 * @sz: the geometry, with the WR counts that fit
 *
 * The SQ has room for @cap->max_send_wr WRs of the largest size asked
 * for, for the padding of one partial chunk and for the connection WQEs
 * of iWARP; the RQ has one WQE more than asked (a full ring keeps one
 * free).
 *
 * Return: 0 or -EINVAL for limits beyond the generation's.
 */
int irdma_qp_ring_sizes(const struct ib_qp_cap *cap, u8 hw_rev,
			struct irdma_qp_sizes *sz)
{
	u32 chunk = hw_rev == 1 ? IRDMA_UK_SQ_CHUNK_G1 : IRDMA_UK_SQ_CHUNK;
	u32 cost, need, fixed = 1 + chunk + IRDMA_UK_CONN_QUANTA;

	if ((hw_rev != 1 && hw_rev != 2) || irdma_qp_check_cap(cap, hw_rev) ||
	    irdma_qp_wr_cost(cap, hw_rev, &cost) ||
	    irdma_uk_rq_shift(max_t(u32, cap->max_recv_sge, 1), &sz->rq_shift))
		return -EINVAL;
	need = fixed + max_t(u32, cap->max_send_wr, 1) * cost;
	sz->sq_quanta = roundup_pow_of_two(max_t(u32, 2 * IRDMA_UK_SQ_CHUNK,
						 need));
	sz->rq_wqes = roundup_pow_of_two(max_t(u32, IRDMA_QP_MIN_RQ,
					       cap->max_recv_wr + 1));
	if (sz->sq_quanta > IRDMA_QP_MAX_QUANTA ||
	    (sz->rq_wqes << sz->rq_shift) > IRDMA_QP_MAX_QUANTA)
		return -EINVAL;
	sz->sq_enc = ilog2(sz->sq_quanta) - 2;
	sz->rq_enc = ilog2(sz->rq_wqes << sz->rq_shift) - 2;
	sz->max_send_wr = min_t(u32, (sz->sq_quanta - fixed) / cost,
				IRDMA_QP_MAX_WR);
	sz->max_recv_wr = min_t(u32, sz->rq_wqes - 1, IRDMA_QP_MAX_WR);
	return 0;
}

/* Quanta per WQE, as a shift, libirdma uses for @sge fragments and @inl
 * inline bytes: gen2 WQEs of 32, 64, 128 or 256 bytes, gen1 up to 128
 */
static u8 irdma_qp_user_shift(u8 hw_rev, u32 sge, u32 inl)
{
	if (hw_rev == 1) {
		if (sge <= 1 && inl <= 16)
			return 0;
		return sge <= 3 && inl <= 48 ? 1 : 2;
	}
	if (sge <= 1 && inl <= 8)
		return 0;
	if (sge <= 3 && inl <= 39)
		return 1;
	return sge <= 7 && inl <= 101 ? 2 : 3;
}

/*
 * A ring of @wqes WQEs of 1 << @shift quanta within @max quanta and @pages;
 * libirdma makes no ring smaller than 8 WQEs
 */
static bool irdma_qp_user_ring_ok(u32 wqes, u8 shift, u32 max, u32 pages)
{
	u64 quanta = (u64)wqes << shift;

	return is_power_of_2(wqes) && wqes >= IRDMA_QP_MIN_RQ &&
	       quanta <= max &&
	       quanta * IRDMA_QUANTUM_BYTES <= (u64)pages * SZ_4K;
}

/**
 * irdma_qp_user_sizes - ring geometry of a user QP
 * @cap: capabilities as libirdma passes them: the WR counts are the
 *	ring sizes it allocated, in WQEs of the size the SGE and inline
 *	limits call for (the SQ's with room for one more SGE on gen2)
 * @hw_rev: 1 (X722) or 2 (E810)
 * @sq_pages: SQ pages registered
 * @rq_pages: RQ pages registered
 * @sz: the geometry
 *
 * Return: 0, or -EINVAL when the limits are beyond the generation's or
 * the rings are not powers of two, too small, or larger than the pages
 * registered for them.
 */
int irdma_qp_user_sizes(const struct ib_qp_cap *cap, u8 hw_rev,
			u32 sq_pages, u32 rq_pages, struct irdma_qp_sizes *sz)
{
	bool g1 = hw_rev == 1;
	u8 sq_shift;

	if ((hw_rev != 1 && hw_rev != 2) ||
	    cap->max_send_sge > irdma_qp_max_frags(hw_rev) ||
	    cap->max_recv_sge > irdma_qp_max_frags(hw_rev) ||
	    cap->max_inline_data > irdma_qp_max_inline(hw_rev))
		return -EINVAL;
	sq_shift = irdma_qp_user_shift(hw_rev, cap->max_send_sge + !g1,
				       cap->max_inline_data);
	sz->rq_shift = g1 ? 2 : irdma_qp_user_shift(hw_rev, cap->max_recv_sge, 0);
	if (!irdma_qp_user_ring_ok(cap->max_send_wr, sq_shift,
				   g1 ? 2048 : IRDMA_QP_MAX_QUANTA, sq_pages) ||
	    !irdma_qp_user_ring_ok(cap->max_recv_wr, sz->rq_shift,
				   g1 ? 16384 : IRDMA_QP_MAX_QUANTA, rq_pages))
		return -EINVAL;
	sz->sq_quanta = cap->max_send_wr << sq_shift;
	sz->rq_wqes = cap->max_recv_wr;
	sz->sq_enc = ilog2(sz->sq_quanta) - 2;
	sz->rq_enc = ilog2(sz->rq_wqes << sz->rq_shift) - 2;
	sz->max_send_wr = cap->max_send_wr;
	sz->max_recv_wr = cap->max_recv_wr;
	return 0;
}

/* Transitions allowed from each state, as bits of enum ib_qp_state */
static const u8 irdma_qp_moves_ib[] = {
	[IB_QPS_RESET] = BIT(IB_QPS_INIT),
	[IB_QPS_INIT] = BIT(IB_QPS_INIT) | BIT(IB_QPS_RTR),
	[IB_QPS_RTR] = BIT(IB_QPS_RTS),
	[IB_QPS_RTS] = BIT(IB_QPS_RTS) | BIT(IB_QPS_SQD),
	[IB_QPS_SQD] = BIT(IB_QPS_SQD) | BIT(IB_QPS_RTS),
	[IB_QPS_SQE] = BIT(IB_QPS_RTS),
	[IB_QPS_ERR] = 0,
};

/*
 * iWARP: the iw_cm moves a QP from INIT straight to RTS; librdmacm's accept
 * modifies a QP in RTR without a state (the attributes iw_cm gives for RTS)
 */
static const u8 irdma_qp_moves_iw[] = {
	[IB_QPS_RESET] = BIT(IB_QPS_INIT),
	[IB_QPS_INIT] = BIT(IB_QPS_INIT) | BIT(IB_QPS_RTR) | BIT(IB_QPS_RTS),
	[IB_QPS_RTR] = BIT(IB_QPS_RTR) | BIT(IB_QPS_RTS),
	[IB_QPS_RTS] = BIT(IB_QPS_RTS) | BIT(IB_QPS_SQD),
	[IB_QPS_SQD] = BIT(IB_QPS_SQD),
	[IB_QPS_SQE] = 0,
	[IB_QPS_ERR] = 0,
};

static const u8 irdma_qp_hw_of_ib[] = {
	[IB_QPS_RESET] = IRDMA_QPS_IDLE,
	[IB_QPS_INIT] = IRDMA_QPS_IDLE,
	[IB_QPS_RTR] = IRDMA_QPS_RTR,
	[IB_QPS_RTS] = IRDMA_QPS_RTS,
	[IB_QPS_SQD] = IRDMA_QPS_CLOSING,
	[IB_QPS_SQE] = IRDMA_QPS_ERROR,
	[IB_QPS_ERR] = IRDMA_QPS_ERROR,
};

/**
 * irdma_qp_hw_state - check a state change and find the engine's state
 * @cur: current state
 * @next: state asked for
 * @iwarp: the QP is an iWARP QP
 * @hw_state: IRDMA_QPS_* for @next
 *
 * Any state may go to RESET or ERR; the other moves follow the IB state
 * diagram, except that iWARP goes from INIT to RTS directly and has no
 * SQE state.
 *
 * Return: 0 or -EINVAL for a move that is not allowed.
 */
int irdma_qp_hw_state(enum ib_qp_state cur, enum ib_qp_state next,
		      bool iwarp, u8 *hw_state)
{
	const u8 *moves = iwarp ? irdma_qp_moves_iw : irdma_qp_moves_ib;

	if ((unsigned int)cur > IB_QPS_ERR || (unsigned int)next > IB_QPS_ERR)
		return -EINVAL;
	if (next != IB_QPS_RESET && next != IB_QPS_ERR &&
	    !(moves[cur] & BIT(next)))
		return -EINVAL;
	*hw_state = irdma_qp_hw_of_ib[next];
	/* no connection yet: the engine keeps an iWARP QP idle until RTS */
	if (iwarp && next == IB_QPS_RTR)
		*hw_state = IRDMA_QPS_IDLE;
	return 0;
}

/**
 * irdma_qp_iw_ulp_move - may a ULP or user space move an iWARP QP so
 * @cur: the QP's state
 * @next: the state asked for
 *
 * Only the CM brings an iWARP QP to RTS, with the connection's TCP
 * context (irdma_qp_iw_to_rts()); a plain modify to RTS would give the
 * engine a context without addresses or ports. rdma_cm's and librdmacm's
 * own moves stay allowed: INIT to RTR before a connect or accept (the
 * engine keeps the QP idle, irdma_qp_hw_state()), and RTS to RTS.
 *
 * Return: 0, or -EINVAL for a move into RTS from another state.
 */
int irdma_qp_iw_ulp_move(enum ib_qp_state cur, enum ib_qp_state next)
{
	return next == IB_QPS_RTS && cur != IB_QPS_RTS ? -EINVAL : 0;
}

/* ---- engine commands ---- */

static void irdma_qp_cmd_info(const struct irdma_qp *qp, u8 next_state,
			      struct irdma_cqp_qp_info *info)
{
	memset(info, 0, sizeof(*info));
	info->ctx_pa = qp->meta.pa + IRDMA_QP_META_CTX;
	info->shadow_pa = qp->meta.pa + IRDMA_QP_META_SHADOW;
	if (qp->uring) {
		info->shadow_pa = qp->uring->shadow_pa;
		info->virtual_map = true;
	}
	info->qp_id = qp->ibqp.qp_num;
	info->qp_type = qp->hw_type;
	info->next_state = next_state;
	info->cq_num_valid = true;
	info->ord_valid = true;
}

static int irdma_qp_cmd(struct irdma_qp *qp,
			int (*build)(__le64 *wqe, u8 valid, const void *arg),
			const char *name, const void *arg)
{
	struct irdma_cmd cmd = { .build = build, .arg = arg, .name = name };

	return irdma_cmd_exec(qp->hw, &cmd);
}

/**
 * irdma_gid_to_addr - a RoCEv2 GID as the engine wants an address
 * @gid: the GID
 * @ipv4: @gid is an IPv4-mapped address
 * @out: 4 host-order words; IPv4 in [0], the rest 0
 */
void irdma_gid_to_addr(const union ib_gid *gid, bool ipv4, u32 *out)
{
	int i;

	memset(out, 0, 4 * sizeof(*out));
	if (ipv4) {
		/* an IPv4-mapped GID: the address is its last word */
		out[0] = get_unaligned_be32(&gid->raw[12]);
		return;
	}
	for (i = 0; i < 4; i++)
		out[i] = get_unaligned_be32(&gid->raw[4 * i]);
}

/**
 * irdma_roce_av_parse - the addressing of a RoCEv2 address vector
 * @hw: the engine
 * @attr: the core's attributes: RoCE, with a GRH and its source GID entry
 * @av: filled in: addresses, source MAC and VLAN from the GIDs; with no
 *	VLAN, a priority tag when the port needs one (irdma_qos_prio_tag()),
 *	else the SL is the VLAN priority
 *
 * Shared by QPs (IB_QP_AV) and AHs. Context: any; does not sleep.
 * Return: 0 or -EINVAL (not RoCEv2, no GRH or source GID).
 */
int irdma_roce_av_parse(struct irdma_hw *hw, const struct rdma_ah_attr *attr,
			struct irdma_roce_av *av)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(attr);
	const struct ib_gid_attr *sgid = grh->sgid_attr;
	enum rdma_network_type net;
	u16 vlan = 0xffff;
	int prio;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH) || !sgid)
		return -EINVAL;
	net = rdma_gid_attr_network_type(sgid);
	/* RoCEv2 only: the port offers no RoCEv1 GIDs */
	if (net != RDMA_NETWORK_IPV4 && net != RDMA_NETWORK_IPV6)
		return -EINVAL;
	if (rdma_read_gid_l2_fields(sgid, &vlan, av->smac))
		return -EINVAL;
	av->ipv4 = net == RDMA_NETWORK_IPV4;
	irdma_gid_to_addr(&grh->dgid, av->ipv4, av->rem_addr);
	irdma_gid_to_addr(&sgid->gid, av->ipv4, av->loc_addr);
	prio = rdma_ah_get_sl(attr);
	if (vlan >= VLAN_N_VID) {
		prio = irdma_qos_prio_tag(hw, grh->traffic_class);
		vlan = prio < 0 ? vlan : 0;
	}
	av->insert_vlan = vlan < VLAN_N_VID;
	av->vlan_tag = av->insert_vlan ? vlan | prio << VLAN_PRIO_SHIFT : 0;
	return 0;
}

/* protocol-independent context fields */
static void irdma_qp_ctx_common(const struct irdma_qp *qp,
				struct irdma_qpc_common *c)
{
	struct net_device *netdev = qp->hw->fn->netdev;
	bool kernel = !qp->uring;
	u64 sq, rq;

	if (kernel) {
		sq = qp->rings.pa;
		rq = sq + (u64)qp->sizes.sq_quanta * IRDMA_QUANTUM_BYTES;
	} else {
		/* user rings are named by the PBLE index of their first page */
		sq = irdma_uring_first_pble(qp->uring);
		rq = sq + qp->uring->ring_pages;
	}
	*c = (struct irdma_qpc_common){
		.sq_pa = sq,
		.rq_pa = rq,
		.q2_pa = qp->meta.pa + IRDMA_QP_META_Q2,
		.sq_size_log2 = qp->sizes.sq_enc,
		.rq_size_log2 = qp->sizes.rq_enc,
		.rq_wqe_size = qp->sizes.rq_shift,
		.compl_ctx = kernel ? qp->ibqp.qp_num : qp->user_ctx,
		.send_cq = to_irdma_cq(qp->ibqp.send_cq)->uk.cq_id,
		.recv_cq = to_irdma_cq(qp->ibqp.recv_cq)->uk.cq_id,
		.pd_id = irdma_pd_num(qp->ibqp.pd),
		.mac = ether_addr_to_u64(netdev->dev_addr),
		.snd_mss = min_t(u32, READ_ONCE(netdev->mtu), 0x3fff),
		.ttl = IRDMA_QP_DEFAULT_TTL,
		.use_stats = qp->hw->counters.inst_held,
		.stats_idx = qp->hw->counters.inst,
		.qs_handle = irdma_qos_handle(qp->hw, &qp->qos),
		.dst_port = irdma_qp_is_iwarp(qp) ? 0 : IRDMA_QP_ROCE_PORT,
		/* partial FPDUs of an offloaded connection: ieq.c */
		.ieq_qpn = irdma_qp_is_iwarp(qp) ? IRDMA_IEQ_QPN : 0,
		.ipv4 = true,
		.rd_en = true,
		.wr_rdresp_en = true,
		.bind_en = true,
		/* STag 0 (physical addresses) and fast register: kernel only */
		.priv_en = kernel,
		.fast_reg_en = kernel,
	};
}

/* The connection's addressing over the common fields of an iWARP QP */
static void irdma_qp_conn_common(const struct irdma_qp_conn *conn,
				 struct irdma_qpc_common *c)
{
	memcpy(c->dest_addr, conn->rem_addr, sizeof(c->dest_addr));
	memcpy(c->local_addr, conn->loc_addr, sizeof(c->local_addr));
	c->mac = conn->mac;
	c->src_port = conn->loc_port;
	c->dst_port = conn->rem_port;
	c->snd_mss = conn->mss;
	c->vlan_tag = conn->vlan_tag;
	c->insert_vlan = conn->insert_vlan;
	c->arp_idx = conn->arp_idx;
	c->ird = conn->ird;
	c->ord = conn->ord;
	c->ttl = conn->ttl;
	c->tos = conn->tos;
	c->flow_label = conn->flow_label;
	c->ipv4 = conn->ipv4;
}

static int irdma_qp_write_ctx(struct irdma_qp *qp,
			      const struct irdma_qpc_roce *roce)
{
	__le64 *ctx = qp->meta.va + IRDMA_QP_META_CTX;
	struct irdma_qpc_iwarp iw = { .ddp_ver = 1, .rdmap_ver = 1 };
	struct irdma_qpc_common c;

	irdma_qp_ctx_common(qp, &c);
	if (!irdma_qp_is_iwarp(qp)) {
		if (qp->av_set)
			irdma_qp_conn_common(&qp->conn, &c);
		c.snd_mss = qp->path_mtu ? ib_mtu_enum_to_int(qp->path_mtu) :
					   c.snd_mss;
		c.ird = qp->conn.ird;
		c.ord = qp->conn.ord;
		return irdma_qpc_write_roce(ctx, &c, roce);
	}
	if (qp->conn_set) {
		irdma_qp_conn_common(&qp->conn, &c);
		iw = qp->conn.iw;
	}
	/* gen1 sends from the function's local MAC entry, not the context's */
	if (qp->hw->loc_mac_held) {
		iw.src_mac_idx = qp->hw->loc_mac_idx;
		c.mac = 0;
	}
	return irdma_qpc_write_iwarp(ctx, &c, &iw);
}

/* The user priority of the QP's traffic: its connection's, or 0 */
static u8 irdma_qp_up(struct irdma_qp *qp)
{
	const struct irdma_qp_conn *conn = &qp->conn;

	if (!qp->conn_set && !qp->av_set)
		return 0;
	return irdma_qos_up(qp->hw, conn->tos, conn->insert_vlan ?
			    conn->vlan_tag >> VLAN_PRIO_SHIFT : -1);
}

/*
 * A QP about to send is put on its priority's queue set first; during a
 * traffic-class change it may not start (-EBUSY).
 */
static int irdma_qp_qos_activate(struct irdma_qp *qp, u8 hw_state)
{
	if (hw_state != IRDMA_QPS_RTR && hw_state != IRDMA_QPS_RTS)
		return 0;
	return irdma_qos_activate(qp->hw, &qp->qos, irdma_qp_up(qp));
}

/* MODIFY_QP to @hw_state; @reset_con: the engine resets the connection */
static int irdma_qp_hw_modify(struct irdma_qp *qp, u8 hw_state,
			      const struct irdma_qpc_roce *roce, bool reset_con)
{
	struct irdma_cqp_qp_info info;
	int ret;

	ret = irdma_qp_qos_activate(qp, hw_state);
	if (ret)
		return ret;
	ret = irdma_qp_write_ctx(qp, roce);
	if (ret)
		return ret;
	irdma_qp_cmd_info(qp, hw_state, &info);
	info.reset_con = reset_con;
	return irdma_qp_cmd(qp, irdma_cqpw_qp_modify_cb, "MODIFY_QP", &info);
}

/* tries of a MODIFY_QP that resets a connection, and the pause between */
#define IRDMA_QP_RESET_TRIES	4
#define IRDMA_QP_RESET_RETRY_MS	10

/*
 * The MODIFY_QP of a move. One with RESETCON is the only RST an abortive
 * close gets: the engine alone knows the connection's sequence numbers
 * (the CM's date from the hand-over), and the flush a refused move to ERR
 * falls back on (irdma_qp_err_by_flush()) gives the 4-tuple up without a
 * word to the peer, which, idle, would wait for ever. So a refused reset
 * is tried again a few times before that.
 */
static int irdma_qp_hw_move(struct irdma_qp *qp, u8 hw_state,
			    const struct irdma_qpc_roce *roce, bool reset_con)
{
	int ret, i;

	for (i = 1; ; i++) {
		ret = irdma_qp_hw_modify(qp, hw_state, roce, reset_con);
		if (ret != -EIO || !reset_con || irdma_hw_given_up(qp->hw))
			return ret;
		if (i == IRDMA_QP_RESET_TRIES)
			break;
		msleep(IRDMA_QP_RESET_RETRY_MS);
	}
	ibdev_warn_ratelimited(qp->ibqp.device,
			       "QP %u: the engine refused to reset its connection %d times\n",
			       qp->ibqp.qp_num, i);
	return ret;
}

static int irdma_qp_hw_flush(struct irdma_qp *qp, bool sq, bool rq)
{
	struct irdma_cqp_flush_info info = {
		.qp_id = qp->ibqp.qp_num,
		.flush_sq = sq,
		.flush_rq = rq,
	};

	return irdma_qp_cmd(qp, irdma_cqpw_flush_wqes_cb, "FLUSH_WQES", &info);
}

static int irdma_qp_hw_destroy(struct irdma_qp *qp)
{
	struct irdma_cqp_qp_info info;

	irdma_qp_cmd_info(qp, 0, &info);
	return irdma_qp_cmd(qp, irdma_cqpw_qp_destroy_cb, "DESTROY_QP", &info);
}

/* ---- references ---- */

static void irdma_qp_err_worker(struct work_struct *work);
static int irdma_qp_modify(struct irdma_qp *qp, struct ib_qp_attr *attr,
			   int attr_mask, struct ib_udata *udata, bool ulp);

/**
 * irdma_qp_publish - make a QP findable by number
 * @hw: the engine
 * @qp: the QP, created on the engine
 * @id: its number, reserved in @hw->qps
 *
 * The table's reference is the first one; irdma_qp_unpublish() drops it.
 */
void irdma_qp_publish(struct irdma_hw *hw, struct irdma_qp *qp, u32 id)
{
	refcount_set(&qp->refs, 1);
	init_completion(&qp->freed);
	spin_lock_init(&qp->cm_lock);
	irdma_ieq_stream_init(&qp->ieq);
	qp->cm_node = NULL;
	INIT_WORK(&qp->err_work, irdma_qp_err_worker);
	/* the slot exists already: nothing is allocated */
	xa_store(&hw->qps, id, qp, GFP_KERNEL);
}

/**
 * irdma_qp_unpublish - take a QP out of reach and wait for its holders
 * @hw: the engine
 * @qp: the QP, published under @id
 * @id: its number, which stays reserved (the engine still has the QP)
 *
 * No lookup finds the QP once this starts; one that found it just before
 * may still take a reference, and is waited for like every other holder.
 * When this returns nobody holds the QP and no RCU reader sees it.
 *
 * Context: process context; sleeps until the last irdma_qp_put().
 */
void irdma_qp_unpublish(struct irdma_hw *hw, struct irdma_qp *qp, u32 id)
{
	/* NULL in an allocating xarray keeps the number reserved */
	xa_store(&hw->qps, id, NULL, GFP_KERNEL);
	irdma_qp_put(qp);
	wait_for_completion(&qp->freed);
	synchronize_rcu();
}

/**
 * irdma_qp_get - find a QP by number and hold it
 * @hw: the engine
 * @id: the QP number
 *
 * Context: any context.
 * Return: the QP with a reference (drop it with irdma_qp_put()), or NULL
 * if there is no such QP or it is being destroyed.
 */
struct irdma_qp *irdma_qp_get(struct irdma_hw *hw, u32 id)
{
	return irdma_xa_get_ref(&hw->qps, id, offsetof(struct irdma_qp, refs));
}

/**
 * irdma_qp_put - drop a reference to a QP
 * @qp: the QP
 *
 * The last one lets a waiting destroy go on.
 *
 * Context: any context.
 */
void irdma_qp_put(struct irdma_qp *qp)
{
	if (refcount_dec_and_test(&qp->refs))
		complete(&qp->freed);
}

/*
 * Who may name a QP to the CM. rdma_connect() and rdma_accept() pass a QP
 * number that the 6.1 core does not check (a user id's comes from user
 * space as it is), so the CM asks here before it takes the QP:
 *
 * ============  ======================================================
 * QP            the caller (current) must be
 * ============  ======================================================
 * user QP       a thread of the process that created it (its restrack
 *               task): ucma calls connect and accept from the caller's
 *               write()
 * kernel QP     a kernel thread (nvme-rdma, nvmet-rdma, ksmbd, iser,
 *               xprtrdma call from workers), or a task with
 *               CAP_NET_ADMIN or CAP_SYS_ADMIN (cifs connects from
 *               mount(2)); never an unprivileged ucma user
 * ============  ======================================================
 *
 * A QP that has a connection already, or is past RTR, is refused too.
 */
static bool irdma_qp_caller_owns(const struct irdma_qp *qp)
{
	const struct rdma_restrack_entry *res = &qp->ibqp.res;

	if (!rdma_is_kernel_res(res))
		return res->task && same_thread_group(current, res->task);
	return (current->flags & PF_KTHREAD) ||
	       ns_capable_noaudit(&init_user_ns, CAP_NET_ADMIN) ||
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/**
 * irdma_qp_cm_may_take - may the caller connect a QP through the CM
 * @qp: the QP, held by the caller (irdma_qp_get())
 *
 * The rule is the table above. The QP's link to a connection is checked
 * again, atomically, when the CM links it (irdma_qp_cm_link()).
 *
 * Context: process context of the rdma_connect() or rdma_accept() caller.
 * Return: 0; -EINVAL for a QP that is not iWARP or not in INIT or RTR;
 * -EACCES for one the caller does not own; -EBUSY for one that has a
 * connection.
 */
int irdma_qp_cm_may_take(struct irdma_qp *qp)
{
	enum ib_qp_state state = READ_ONCE(qp->ib_state);
	unsigned long flags;
	bool linked;

	if (!irdma_qp_is_iwarp(qp))
		return -EINVAL;
	/* first, so that nothing is told about another's QP */
	if (!irdma_qp_caller_owns(qp))
		return -EACCES;
	spin_lock_irqsave(&qp->cm_lock, flags);
	linked = !!qp->cm_node;
	spin_unlock_irqrestore(&qp->cm_lock, flags);
	if (linked)
		return -EBUSY;
	if (state != IB_QPS_INIT && state != IB_QPS_RTR)
		return -EINVAL;
	return 0;
}

/**
 * irdma_qp_cm_link - change the CM connection a QP belongs to
 * @qp: the QP, held by the caller
 * @old: the connection the caller expects the QP to have, or NULL
 * @node: the connection it gets instead, or NULL
 *
 * A compare and exchange: a connection links a QP that has none (@old
 * NULL), and only the connection that linked it unlinks it (@node NULL),
 * so that a connect that fails cannot take a QP from the connection that
 * owns it.
 *
 * Context: any context.
 * Return: 0, or -EBUSY if the QP's connection is not @old (nothing
 * changed).
 */
int irdma_qp_cm_link(struct irdma_qp *qp, struct irdma_cm_node *old,
		     struct irdma_cm_node *node)
{
	unsigned long flags;
	int ret = -EBUSY;

	spin_lock_irqsave(&qp->cm_lock, flags);
	if (qp->cm_node == old) {
		qp->cm_node = node;
		ret = 0;
	}
	spin_unlock_irqrestore(&qp->cm_lock, flags);
	return ret;
}

/**
 * irdma_qp_q2 - the QP's Q2 buffer
 * @qp: the QP
 *
 * Return: its IRDMA_Q2_BYTES, in the QP's metadata page.
 */
u8 *irdma_qp_q2(struct irdma_qp *qp)
{
	return (u8 *)qp->meta.va + IRDMA_QP_META_Q2;
}

/* tries of a move to ERR nobody waits for, and the pause between them */
#define IRDMA_QP_ERR_TRIES	4
#define IRDMA_QP_ERR_RETRY_MS	20

static void irdma_qp_err_worker(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(work, struct irdma_qp, err_work);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int ret = 0, i;

	/*
	 * No caller hears of a failure here: a refused command is tried
	 * again a few times, so that the QP is flushed and its connection's
	 * end is not left waiting for it.
	 */
	for (i = 0; i < IRDMA_QP_ERR_TRIES; i++) {
		if (i)
			msleep(IRDMA_QP_ERR_RETRY_MS);
		if (READ_ONCE(qp->ib_state) == IB_QPS_ERR)
			break;
		ret = irdma_qp_modify(qp, &attr, IB_QP_STATE, NULL, false);
		if (ret != -EIO || irdma_hw_given_up(qp->hw))
			break;
	}
	if (ret)
		ibdev_warn(qp->ibqp.device, "QP %u: move to error failed: %d\n",
			   qp->ibqp.qp_num, ret);
	irdma_qp_put(qp);
}

/**
 * irdma_qp_async_err - move a QP to ERR (and flush it) soon
 * @qp: the QP; the caller holds a reference
 *
 * For callers that cannot sleep (the CM): the move runs on a workqueue
 * and holds its own reference until it is done, so a destroy waits for
 * it. Asking again while a move is pending does nothing more.
 *
 * Context: any context.
 */
void irdma_qp_async_err(struct irdma_qp *qp)
{
	refcount_inc(&qp->refs);
	if (!queue_work(system_wq, &qp->err_work))
		irdma_qp_put(qp);
}

/* ---- create ---- */

static int irdma_qp_hw_type(struct irdma_device *iwdev, enum ib_qp_type type,
			    u8 *hw_type)
{
	bool roce = iwdev->fn->protocol == IRDMA_PROTOCOL_ROCEV2;

	switch (type) {
	case IB_QPT_RC:
		*hw_type = roce ? IRDMA_QPTYPE_ROCE_RC : IRDMA_QPTYPE_IWARP;
		return 0;
	case IB_QPT_UD:
	case IB_QPT_GSI:
		*hw_type = IRDMA_QPTYPE_ROCE_UD;
		return roce ? 0 : -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}
}

static int irdma_qp_check_init(struct irdma_device *iwdev,
			       const struct ib_qp_init_attr *attr,
			       struct ib_udata *udata, u8 *hw_type)
{
	struct ib_device *ibdev = &iwdev->ibdev;

	/* QP1 belongs to the MAD layer; libirdma makes RC and UD QPs */
	if (udata && attr->qp_type != IB_QPT_RC && attr->qp_type != IB_QPT_UD) {
		ibdev_dbg(ibdev, "user QPs of type %d are not supported\n",
			  attr->qp_type);
		return -EOPNOTSUPP;
	}
	if (attr->create_flags || attr->srq || attr->rwq_ind_tbl) {
		ibdev_dbg(ibdev, "QP create flags 0x%x, SRQ or RWQ table refused\n",
			  attr->create_flags);
		return -EOPNOTSUPP;
	}
	if (irdma_qp_hw_type(iwdev, attr->qp_type, hw_type)) {
		ibdev_dbg(ibdev, "QP type %d not supported\n", attr->qp_type);
		return -EOPNOTSUPP;
	}
	if (!attr->send_cq || !attr->recv_cq)
		return -EINVAL;
	return 0;
}

/* Reserve the QP number; the entry stays NULL until the QP is published. */
static int irdma_qp_reserve_id(struct irdma_hw *hw, enum ib_qp_type type,
			       u32 *id)
{
	u32 cnt = hw->hmc.obj[IRDMA_HMC_QP].cnt;

	if (type == IB_QPT_GSI) {
		*id = IRDMA_QP_GSI_ID;
		return xa_insert(&hw->qps, *id, NULL, GFP_KERNEL);
	}
	if (cnt <= IRDMA_QP_FIRST_ID)
		return -ENOSPC;
	return xa_alloc(&hw->qps, id, NULL, XA_LIMIT(IRDMA_QP_FIRST_ID, cnt - 1),
			GFP_KERNEL);
}

/* Free what irdma_qp_alloc_mem() got; safe to call again */
static void irdma_qp_free_mem(struct irdma_qp *qp)
{
	kfree(qp->ud.held);
	qp->ud.held = NULL;
	kfree(qp->uk.rq_wrid);
	qp->uk.rq_wrid = NULL;
	kfree(qp->uk.sq_slots);
	qp->uk.sq_slots = NULL;
	irdma_dma_free(qp->hw->dev, &qp->meta);
	irdma_dma_free(qp->hw->dev, &qp->rings);
}

/* A user QP: only the Q2 and host context page is the driver's */
static int irdma_uqp_alloc_mem(struct irdma_qp *qp)
{
	return irdma_dma_alloc(qp->hw->dev, &qp->meta, IRDMA_QP_META_BYTES);
}

static int irdma_qp_alloc_mem(struct irdma_qp *qp)
{
	const struct irdma_qp_sizes *sz = &qp->sizes;
	size_t sq = (size_t)sz->sq_quanta * IRDMA_QUANTUM_BYTES;
	size_t rq = ((size_t)sz->rq_wqes << sz->rq_shift) * IRDMA_QUANTUM_BYTES;
	struct device *dev = qp->hw->dev;

	if (qp->uring)
		return irdma_uqp_alloc_mem(qp);
	qp->uk.sq_slots = kcalloc(sz->sq_quanta, sizeof(*qp->uk.sq_slots),
				  GFP_KERNEL);
	qp->uk.rq_wrid = kcalloc(sz->rq_wqes, sizeof(u64), GFP_KERNEL);
	if (qp->hw_type == IRDMA_QPTYPE_ROCE_UD)
		qp->ud.held = kcalloc(sz->sq_quanta, sizeof(*qp->ud.held),
				      GFP_KERNEL);
	if (!qp->uk.sq_slots || !qp->uk.rq_wrid ||
	    (qp->hw_type == IRDMA_QPTYPE_ROCE_UD && !qp->ud.held) ||
	    irdma_dma_alloc(dev, &qp->rings, sq + rq) ||
	    irdma_dma_alloc(dev, &qp->meta, IRDMA_QP_META_BYTES)) {
		irdma_qp_free_mem(qp);
		return -ENOMEM;
	}
	qp->uk.sq = qp->rings.va;
	qp->uk.rq = qp->rings.va + sq;
	qp->uk.shadow = qp->meta.va + IRDMA_QP_META_SHADOW;
	return 0;
}

static int irdma_qp_init_uk(struct irdma_qp *qp)
{
	struct irdma_uk_qp *uk = &qp->uk;

	if (qp->uring)
		return 0;
	uk->mmio = &qp->hw->mmio;
	uk->db_off = qp->hw->regs->wqe_alloc;
	uk->qp_id = qp->ibqp.qp_num;
	uk->sq_size = qp->sizes.sq_quanta;
	uk->rq_size = qp->sizes.rq_wqes;
	uk->rq_shift = qp->sizes.rq_shift;
	uk->conn_quanta = irdma_qp_is_iwarp(qp) ? IRDMA_UK_CONN_QUANTA : 0;
	uk->hw_rev = qp->hw->fn->gen;
	uk->max_frags = irdma_qp_max_frags(uk->hw_rev);
	uk->max_inline = irdma_qp_max_inline(uk->hw_rev);
	return irdma_uk_qp_init(uk);
}

/*
 * The UD sends held back for their AHs' CREATE_AH: this runs on the
 * ordered command queue, queued after those commands, and releases the
 * sends in order as far as their commands have run (all of them, unless
 * a send held meanwhile waits for a later one: then it queues itself
 * again behind that).
 */
static void irdma_qp_ud_release(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(work, struct irdma_qp, ud.release);
	struct irdma_qp_ud *ud = &qp->ud;
	struct irdma_ud_held *h;
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	while (ud->cnt) {
		h = &ud->held[ud->head];
		if (!irdma_cmd_req_ran(qp->hw, h->ticket))
			break;
		irdma_uk_release_held(&qp->uk, &h->wqe);
		ud->head = (ud->head + 1) % qp->sizes.sq_quanta;
		ud->cnt--;
	}
	if (ud->cnt)
		queue_work(qp->hw->cmd_wq, &ud->release);
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}

static void irdma_qp_init_state(struct irdma_qp *qp,
				const struct ib_qp_init_attr *attr)
{
	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	mutex_init(&qp->state_lock);
	/*
	 * The engine's IDLE: an iWARP QP shows it as INIT from the start, as
	 * iWARP providers do (rdma-core's tests check it), an IB QP as RESET.
	 */
	qp->ib_state = irdma_qp_is_iwarp(qp) ? IB_QPS_INIT : IB_QPS_RESET;
	qp->hw_state = IRDMA_QPS_IDLE;
	qp->sq_sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->pkey_index = 0;
	qp->roce.p_key = IB_DEFAULT_PKEY_FULL;
	qp->roce.is_qp1 = attr->qp_type == IB_QPT_GSI;
	/* RDMA READ depths until modify sets them: the device's offer */
	if (!irdma_qp_is_iwarp(qp) && attr->qp_type == IB_QPT_RC) {
		qp->conn.ird = IRDMA_QP_OFFER_IRD;
		qp->conn.ord = IRDMA_QP_OFFER_ORD;
	}
	qp->cap = attr->cap;
	INIT_WORK(&qp->ud.release, irdma_qp_ud_release);
	qp->cap.max_send_wr = qp->sizes.max_send_wr;
	qp->cap.max_recv_wr = qp->sizes.max_recv_wr;
}

static int irdma_qp_hw_create(struct irdma_qp *qp)
{
	struct irdma_cqp_qp_info info;
	int ret;

	ret = irdma_qp_write_ctx(qp, &qp->roce);
	if (ret)
		return ret;
	irdma_qp_cmd_info(qp, IRDMA_QPS_IDLE, &info);
	return irdma_qp_cmd(qp, irdma_cqpw_qp_create_cb, "CREATE_QP", &info);
}

/* qp_caps of struct irdma_create_qp_resp */
#define IRDMA_UQP_WRITE_IMM	BIT(0)
#define IRDMA_UQP_SEND_IMM	BIT(1)
#define IRDMA_UQP_ROCE		BIT(2)

/* The request of a user QP: its rings claimed and their geometry */
static int irdma_uqp_setup(struct irdma_qp *qp,
			   const struct ib_qp_init_attr *attr,
			   struct ib_udata *udata)
{
	struct irdma_create_qp_req req = {};
	struct irdma_uring *ur;
	const char *why;
	int ret;

	ret = irdma_uring_claim_req(udata, &req, sizeof(req),
				    sizeof(struct irdma_create_qp_resp),
				    &req.user_wqe_bufs, IRDMA_MEMREG_TYPE_QP,
				    &ur, &why);
	if (!ret) {
		why = "capabilities do not match the rings";
		ret = irdma_qp_user_sizes(&attr->cap, qp->hw->fn->gen,
					  ur->ring_pages, ur->rq_pages,
					  &qp->sizes);
	}
	if (ret) {
		ibdev_dbg(qp->ibqp.device,
			  "user QP refused (%s): rings 0x%llx, %u/%u WRs, %u/%u SGEs, %u inline: %d\n",
			  why, req.user_wqe_bufs, attr->cap.max_send_wr,
			  attr->cap.max_recv_wr, attr->cap.max_send_sge,
			  attr->cap.max_recv_sge, attr->cap.max_inline_data,
			  ret);
		irdma_uring_release(ur);
		return ret;
	}
	qp->uring = ur;
	qp->user_ctx = req.user_compl_ctx;
	return 0;
}

/*
 * What libirdma needs to set its rings up: the ring sizes in WQEs, the
 * operations with immediate data (RoCEv2 only), and on iWARP one SQ WQE
 * kept for the connection's LSMM (no RTS AE WQEs: IRDMA_FEATURE_RTS_AE is
 * not offered). Push mode is not offered either: qp_caps never has its
 * bit, so libirdma never asks modify_qp for push pages and rings the
 * doorbell page, as with upstream 6.1, which never turns push mode on.
 */
static int irdma_uqp_reply(struct irdma_qp *qp, struct ib_udata *udata)
{
	struct irdma_create_qp_resp resp = {
		.qp_id = qp->ibqp.qp_num,
		.actual_sq_size = qp->sizes.max_send_wr,
		.actual_rq_size = qp->sizes.max_recv_wr,
		.lsmm = irdma_qp_is_iwarp(qp),
		/* no push page: a provider must not map page 0 */
		.push_idx = U16_MAX,
	};

	if (!irdma_qp_is_iwarp(qp))
		resp.qp_caps = IRDMA_UQP_WRITE_IMM | IRDMA_UQP_SEND_IMM |
			       IRDMA_UQP_ROCE;
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

/* Ring geometry of a new QP: from the capabilities, or a user QP's rings */
static int irdma_qp_sizes_for(struct irdma_qp *qp,
			      const struct ib_qp_init_attr *attr,
			      struct ib_udata *udata)
{
	int ret;

	if (udata)
		return irdma_uqp_setup(qp, attr, udata);
	ret = irdma_qp_ring_sizes(&attr->cap, qp->hw->fn->gen, &qp->sizes);
	if (ret)
		ibdev_dbg(qp->ibqp.device, "QP capabilities beyond the limits\n");
	return ret;
}

/*
 * The STag over the LSMM's MPA reply (user QPs): while DEALLOC_STAG has
 * not succeeded it is live over the reply, which stays.
 */
static int irdma_qp_lsmm_dereg(struct irdma_qp *qp)
{
	int ret;

	if (!qp->lsmm_stag)
		return 0;
	ret = irdma_mr_kbuf_dereg(qp->ibqp.pd, qp->lsmm_stag);
	if (!ret)
		qp->lsmm_stag = 0;
	return ret;
}

/* Everything but the engine's: the LSMM's STag is gone already */
static void irdma_qp_release_mem(struct irdma_qp *qp)
{
	WARN_ON_ONCE(qp->lsmm_stag);
	irdma_dma_free(qp->hw->dev, &qp->lsmm);
	irdma_qp_free_mem(qp);
	irdma_uring_release(qp->uring);
	qp->uring = NULL;
}

/* A traffic-class change left the QP without a queue set */
static void irdma_qp_qos_lost(struct irdma_qos_member *m)
{
	struct irdma_qp *qp = container_of(m, struct irdma_qp, qos);

	/* not yet published, or being destroyed: nothing to move */
	if (!refcount_inc_not_zero(&qp->refs))
		return;
	ibdev_warn(qp->ibqp.device, "QP %u lost its queue set in a traffic-class change: moving it to the error state\n",
		   qp->ibqp.qp_num);
	irdma_qp_async_err(qp);
	irdma_qp_put(qp);
}

/**
 * irdma_create_qp - create a kernel or user QP
 * @ibqp: the QP the core allocated (PD, CQs and type set)
 * @attr: type, CQs and capabilities; @attr->cap is updated to what fits
 *	(a user QP's is what libirdma asked for, its rings' geometry)
 * @udata: NULL for a kernel QP; for a user QP, struct irdma_create_qp_req
 *	in and struct irdma_create_qp_resp out
 *
 * RC on both protocols; UD and GSI (number 1) on RoCEv2, kernel only.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibqp->device);
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	struct irdma_hw *hw = iwdev->fn->hw;
	u32 id;
	int ret;

	ret = irdma_qp_check_init(iwdev, attr, udata, &qp->hw_type);
	if (ret)
		return ret;
	qp->hw = hw;
	ret = irdma_qp_sizes_for(qp, attr, udata);
	if (ret)
		return ret;
	irdma_qp_init_state(qp, attr);
	ret = irdma_qp_reserve_id(hw, attr->qp_type, &id);
	if (ret)
		goto err_release_mem;
	ibqp->qp_num = id;
	ret = irdma_qp_alloc_mem(qp);
	if (!ret)
		ret = irdma_qp_init_uk(qp);
	if (ret)
		goto err_free_id;
	qp->qos.lost = irdma_qp_qos_lost;
	ret = irdma_qos_attach(hw, &qp->qos, id);
	if (ret)
		goto err_free_id;
	ret = irdma_qp_hw_create(qp);
	if (ret)
		goto err_qos_detach;
	ret = udata ? irdma_uqp_reply(qp, udata) : 0;
	if (ret)
		goto err_destroy_qp;
	attr->cap = qp->cap;
	irdma_qp_publish(hw, qp, id);
	ibdev_dbg(ibqp->device, "QP %u: type %u, SQ %u quanta, RQ %u WQEs%s\n",
		  id, qp->hw_type, qp->sizes.sq_quanta, qp->sizes.rq_wqes,
		  qp->uring ? " (user)" : "");
	return 0;

err_destroy_qp:
	if (irdma_qp_hw_destroy(qp) && !irdma_hw_given_up(hw)) {
		/* the engine keeps the QP: its number and memory stay taken */
		irdma_qos_detach(hw, &qp->qos);
		ibdev_err(ibqp->device, "QP %u: DESTROY_QP failed; its memory is kept\n",
			  id);
		mutex_destroy(&qp->state_lock);
		return ret;
	}
err_qos_detach:
	irdma_qos_detach(hw, &qp->qos);
err_free_id:
	xa_erase(&hw->qps, id);
err_release_mem:
	irdma_qp_release_mem(qp);
	mutex_destroy(&qp->state_lock);
	return ret;
}

/* A QP the CM still owns: make the connection end, which releases it */
static void irdma_qp_end_connection(struct irdma_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->cm_lock, flags);
	if (qp->cm_node)
		irdma_cm_disconn(qp->cm_node, IRDMA_CM_DISC_LOCAL_ERR);
	spin_unlock_irqrestore(&qp->cm_lock, flags);
}

/* The first steps of a destroy: no lookup, connection or holder left */
static void irdma_qp_destroy_begin(struct irdma_qp *qp)
{
	irdma_qp_end_connection(qp);
	/* sends still held are dropped with the QP */
	cancel_work_sync(&qp->ud.release);
	irdma_qp_unpublish(qp->hw, qp, qp->ibqp.qp_num);
	irdma_ieq_qp_release(qp);
	irdma_qos_retire(qp->hw, &qp->qos);
	qp->destroy_stage = IRDMA_QP_UNPUBLISHED;
}

/**
 * irdma_destroy_qp - destroy a kernel or user QP
 * @ibqp: the QP
 * @udata: unused
 *
 * The QP leaves the table first, so that nothing can take a new reference;
 * a connection of the CM that still owns it is ended, and every holder
 * (CQ pollers, AE handling, the CM, iw_cm) is waited for. Then the engine
 * forgets it, the STag of its MPA reply goes, and its memory and number
 * are freed. Its CQEs left in the CQs are dropped when polled.
 *
 * Should the engine fail DESTROY_QP or the reply's DEALLOC_STAG, it still
 * uses the QP's rings, context and reply: they stay, the error is
 * returned, and the core keeps the QP; a destroy tried again goes on from
 * the step that failed. Once the engine is given up (irdma_hw_given_up())
 * everything is freed.
 *
 * Context: process context; sleeps, until iw_cm and the CM let the QP go.
 * Return: 0, or the failed command's error.
 */
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	int ret;

	if (qp->destroy_stage == IRDMA_QP_LIVE)
		irdma_qp_destroy_begin(qp);
	if (qp->destroy_stage == IRDMA_QP_UNPUBLISHED) {
		ret = irdma_qp_hw_destroy(qp);
		if (ret && !irdma_hw_given_up(qp->hw))
			goto err_kept;
		irdma_qos_detach(qp->hw, &qp->qos);
		if (qp->av_set || qp->arp_held)
			irdma_arp_put(to_iwdev(ibqp->device), qp->conn.arp_idx);
		qp->av_set = false;
		qp->arp_held = false;
		qp->destroy_stage = IRDMA_QP_ENGINE_GONE;
	}
	ret = irdma_qp_lsmm_dereg(qp);
	if (ret)
		goto err_kept;
	xa_erase(&qp->hw->qps, ibqp->qp_num);
	irdma_qp_release_mem(qp);
	mutex_destroy(&qp->state_lock);
	return 0;

err_kept:
	ibdev_err_ratelimited(ibqp->device, "QP %u: destroy failed (%d); its memory stays until a destroy succeeds\n",
			      ibqp->qp_num, ret);
	return ret;
}

/* ---- modify and query ---- */

static int irdma_qp_modify_check(struct irdma_qp *qp, struct ib_qp_attr *attr,
				 int mask, enum ib_qp_state cur,
				 enum ib_qp_state next)
{
	struct ib_device *ibdev = qp->ibqp.device;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != qp->ib_state) {
		ibdev_dbg(ibdev, "QP %u is in state %d, not %d\n",
			  qp->ibqp.qp_num, qp->ib_state, attr->cur_qp_state);
		return -EINVAL;
	}
	if (!irdma_qp_is_iwarp(qp) &&
	    !ib_modify_qp_is_ok(cur, next, qp->ibqp.qp_type, mask)) {
		ibdev_dbg(ibdev, "QP %u: %d to %d with mask 0x%x refused\n",
			  qp->ibqp.qp_num, cur, next, mask);
		return -EINVAL;
	}
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > qp->ibqp.device->attrs.max_qp_init_rd_atom)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > qp->ibqp.device->attrs.max_qp_rd_atom)
		return -EINVAL;
	return 0;
}

/* Copy what the core set into the RoCEv2 context fields @rc */
static void irdma_qp_apply_roce(const struct ib_qp_attr *attr, int mask,
				struct irdma_qpc_roce *rc)
{
	if (mask & IB_QP_QKEY)
		rc->qkey = attr->qkey;
	if (mask & IB_QP_DEST_QPN)
		rc->dest_qp = attr->dest_qp_num & 0xffffff;
	if (mask & IB_QP_SQ_PSN) {
		rc->psn_nxt = attr->sq_psn & 0xffffff;
		rc->lsn = rc->psn_nxt;
		rc->psn_max = rc->psn_nxt;
		rc->psn_una = rc->psn_nxt;
	}
	if (mask & IB_QP_RQ_PSN)
		rc->epsn = attr->rq_psn & 0xffffff;
	if (mask & IB_QP_RETRY_CNT)
		rc->rexmit_thresh = min_t(u8, attr->retry_cnt, 7);
	if (mask & IB_QP_RNR_RETRY)
		rc->rnr_nak_thresh = min_t(u8, attr->rnr_retry, 7);
}

/*
 * A RoCEv2 RC QP's address vector (IB_QP_AV) into @conn: where the engine
 * sends its packets. The addresses and the source MAC and VLAN come from
 * the source GID's entry, the next hop's MAC from the core (ah.roce.dmac)
 * through the engine's ARP cache; the UDP source port spreads the QP pairs
 * over ECMP paths as the core computes it from the flow label.
 */
static int irdma_qp_roce_av(struct irdma_qp *qp, const struct ib_qp_attr *attr,
			    int mask, struct irdma_qp_conn *conn)
{
	const struct rdma_ah_attr *ah = &attr->ah_attr;
	const struct ib_global_route *grh = rdma_ah_read_grh(ah);
	struct irdma_roce_av av;
	u32 dqpn;
	int idx;

	idx = irdma_roce_av_parse(qp->hw, ah, &av);
	if (idx)
		return idx;
	conn->ipv4 = av.ipv4;
	memcpy(conn->rem_addr, av.rem_addr, sizeof(conn->rem_addr));
	memcpy(conn->loc_addr, av.loc_addr, sizeof(conn->loc_addr));
	conn->mac = ether_addr_to_u64(av.smac);
	conn->insert_vlan = av.insert_vlan;
	conn->vlan_tag = av.vlan_tag;
	dqpn = mask & IB_QP_DEST_QPN ? attr->dest_qp_num : qp->roce.dest_qp;
	conn->loc_port = rdma_get_udp_sport(grh->flow_label, qp->ibqp.qp_num,
					    dqpn);
	conn->rem_port = IRDMA_QP_ROCE_PORT;
	conn->flow_label = grh->flow_label;
	conn->ttl = grh->hop_limit;
	conn->tos = grh->traffic_class;
	idx = irdma_arp_get(to_iwdev(qp->ibqp.device), conn->rem_addr,
			    conn->ipv4, ah->roce.dmac);
	if (idx < 0)
		return idx;
	conn->arp_idx = idx;
	return 0;
}

/*
 * What a RoCEv2 modify sets besides the context's RoCE fields: the address
 * vector, the path MTU and the RDMA READ depths. Applied to the QP before
 * the engine has the context; irdma_qp_roce_end() puts them back if it
 * refuses it.
 */
static int irdma_qp_roce_apply(struct irdma_qp *qp,
			       const struct ib_qp_attr *attr, int mask)
{
	int ret;

	if (mask & IB_QP_AV) {
		ret = irdma_qp_roce_av(qp, attr, mask, &qp->conn);
		if (ret) {
			ibdev_dbg(qp->ibqp.device,
				  "QP %u: address vector refused: %d\n",
				  qp->ibqp.qp_num, ret);
			return ret;
		}
		qp->av_set = true;
	}
	if (mask & IB_QP_PATH_MTU)
		qp->path_mtu = attr->path_mtu;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->conn.ord = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->conn.ird = attr->max_dest_rd_atomic;
	return 0;
}

/**
 * struct irdma_qp_roce_saved - what a RoCEv2 modify changes in the QP
 *	before the engine has the context, to put back if it refuses
 * @conn: the address vector and READ depths
 * @path_mtu: the path MTU
 * @av_set: an address vector was set
 * @new_av: the modify set one, and holds its ARP entry
 */
struct irdma_qp_roce_saved {
	struct irdma_qp_conn conn;
	enum ib_mtu path_mtu;
	bool av_set;
	bool new_av;
};

static int irdma_qp_roce_begin(struct irdma_qp *qp,
			       const struct ib_qp_attr *attr, int mask,
			       struct irdma_qp_roce_saved *sv)
{
	int ret;

	sv->conn = qp->conn;
	sv->path_mtu = qp->path_mtu;
	sv->av_set = qp->av_set;
	sv->new_av = false;
	if (irdma_qp_is_iwarp(qp))
		return 0;
	ret = irdma_qp_roce_apply(qp, attr, mask);
	sv->new_av = !ret && (mask & IB_QP_AV);
	return ret;
}

/*
 * The engine took the modify (@ok), and the ARP entry of the address
 * vector it replaced goes; or it refused, and the QP gets back what it
 * had, the new vector's entry going.
 */
static void irdma_qp_roce_end(struct irdma_qp *qp,
			      const struct irdma_qp_roce_saved *sv, bool ok)
{
	struct irdma_device *iwdev = to_iwdev(qp->ibqp.device);

	if (irdma_qp_is_iwarp(qp))
		return;
	if (ok) {
		if (sv->new_av && sv->av_set)
			irdma_arp_put(iwdev, sv->conn.arp_idx);
		return;
	}
	if (sv->new_av)
		irdma_arp_put(iwdev, qp->conn.arp_idx);
	qp->conn = sv->conn;
	qp->av_set = sv->av_set;
	qp->path_mtu = sv->path_mtu;
}

/**
 * irdma_qp_err_by_flush - may a move to ERR go on without its MODIFY_QP
 * @qp: the QP, its state lock held
 * @cur: its state
 * @next: the state asked for
 *
 * The engine refused the MODIFY_QP of a move. A move to ERR must not hang
 * on that: a QP left in RTS keeps its WQEs unflushed, and whoever waits
 * for them (a ULP's drain, a connection's end) would wait for ever. The
 * FLUSH_WQES that follows (irdma_qp_after_move()) puts the engine's QP in
 * its error state as well and gives an iWARP connection's 4-tuple up, but
 * sends no RST (a refused reset was tried again first: irdma_qp_hw_move()).
 * Not once the engine is given up: nothing is issued then.
 *
 * Return: true to go on with the flush.
 */
static bool irdma_qp_err_by_flush(struct irdma_qp *qp, enum ib_qp_state cur,
				  enum ib_qp_state next)
{
	lockdep_assert_held(&qp->state_lock);
	if (next != IB_QPS_ERR || cur == IB_QPS_ERR || cur == IB_QPS_RESET ||
	    irdma_hw_given_up(qp->hw))
		return false;
	ibdev_dbg(qp->ibqp.device, "QP %u: MODIFY_QP to error refused; flushing instead\n",
		  qp->ibqp.qp_num);
	return true;
}

/* What a move to RESET or ERR does to the rings, under the state lock */
static int irdma_qp_after_move(struct irdma_qp *qp, enum ib_qp_state next)
{
	unsigned long flags;
	int ret = 0;

	if (next == IB_QPS_ERR && qp->ib_state != IB_QPS_ERR &&
	    qp->ib_state != IB_QPS_RESET)
		ret = irdma_qp_hw_flush(qp, true, true);
	/* user space restarts the rings of a user QP itself */
	if (next == IB_QPS_RESET && qp->ib_state != IB_QPS_RESET &&
	    !qp->uring) {
		spin_lock_irqsave(&qp->sq_lock, flags);
		spin_lock(&qp->rq_lock);
		irdma_uk_qp_init(&qp->uk);
		spin_unlock(&qp->rq_lock);
		spin_unlock_irqrestore(&qp->sq_lock, flags);
	}
	return ret;
}

/*
 * The driver data of a user modify: none, or struct irdma_modify_qp_req,
 * with which libirdma asks for a queue of a QP in ERR to be flushed again
 * after it posted to it. The response (push mode) stays zero: push mode
 * is not offered.
 */
static int irdma_uqp_modify_req(struct irdma_qp *qp, struct ib_udata *udata,
				struct irdma_modify_qp_req *req)
{
	struct irdma_modify_qp_resp resp = {};
	const char *why;
	int ret;

	memset(req, 0, sizeof(*req));
	if (!udata)
		return 0;
	if (udata->inlen && udata->inlen < sizeof(*req))
		return -EINVAL;
	ret = irdma_udata_req(udata, req, sizeof(*req), &why);
	if (ret)
		return ret;
	if (memchr_inv(req->rsvd, 0, sizeof(req->rsvd)) ||
	    req->sq_flush > 1 || req->rq_flush > 1)
		return -EINVAL;
	if (udata->outlen &&
	    ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen)))
		return -EFAULT;
	return 0;
}

/* A flush asked for by user space, for a QP that is in ERR already */
static int irdma_uqp_reflush(struct irdma_qp *qp,
			     const struct irdma_modify_qp_req *req)
{
	lockdep_assert_held(&qp->state_lock);
	if ((!req->sq_flush && !req->rq_flush) || qp->ib_state != IB_QPS_ERR)
		return 0;
	return irdma_qp_hw_flush(qp, req->sq_flush, req->rq_flush);
}

/**
 * irdma_qp_ulp_disc_cause - what a ULP's move of an iWARP QP means to the CM
 * @cur: the QP's state
 * @next: the state the ULP asked for
 *
 * A connected QP (RTS, or SQD after a graceful close began) that the ULP
 * moves to SQD closes gracefully: iw_cm's rdma_disconnect() arrives that
 * way (iw_cm_disconnect()), and the engine sends the FIN. A move to ERR
 * or RESET aborts the connection, and the engine sends a RST.
 *
 * Return: IRDMA_CM_DISC_LOCAL_CLOSE, IRDMA_CM_DISC_LOCAL_ERR, or -1 when
 * the move means nothing to a connection.
 */
int irdma_qp_ulp_disc_cause(enum ib_qp_state cur, enum ib_qp_state next)
{
	if (cur != IB_QPS_RTS && cur != IB_QPS_SQD)
		return -1;
	if (next == IB_QPS_SQD && cur == IB_QPS_RTS)
		return IRDMA_CM_DISC_LOCAL_CLOSE;
	if (next == IB_QPS_ERR || next == IB_QPS_RESET)
		return IRDMA_CM_DISC_LOCAL_ERR;
	return -1;
}

/**
 * irdma_qp_resets_conn - whether a move resets the QP's connection
 * @qp: the QP
 * @cur: its state
 * @next: the state it moves to
 *
 * A connected iWARP QP leaving RTS or SQD for ERR or RESET resets its
 * connection (RESETCON: the engine sends an RST), whoever moves it (the
 * ULP, the CM's abort, a destroy), unless the engine reported its TCP
 * closed or reset already. A MODIFY_QP with RESETCON the engine refuses is
 * issued again, four times in all, before a flush ends the move without
 * an RST (irdma_qp_hw_move()).
 *
 * Return: true to set RESETCON in the MODIFY_QP.
 */
bool irdma_qp_resets_conn(const struct irdma_qp *qp, enum ib_qp_state cur,
			  enum ib_qp_state next)
{
	return irdma_qp_is_iwarp(qp) && qp->conn_set &&
	       (cur == IB_QPS_RTS || cur == IB_QPS_SQD) &&
	       (next == IB_QPS_ERR || next == IB_QPS_RESET) &&
	       !READ_ONCE(qp->llp_closed);
}

/**
 * irdma_qp_sqd_noop - an SQD that asks for nothing new
 * @qp: the QP
 * @cur: its state
 * @next: the state asked for
 * @attr_mask: IB_QP_* bits of the modify
 *
 * librdmacm's rdma_disconnect() moves a user iWARP QP to SQD itself, then
 * asks iw_cm, whose disconnect moves it to SQD again: the engine began the
 * graceful close on the first, and the second issues no MODIFY_QP (nor
 * does Linux 6.1's irdma for a QP already closing). librdmacm does so also
 * once RDMA_CM_EVENT_DISCONNECTED came, when the CM has moved the QP to ERR
 * already: for an iWARP QP whose connection the engine reported closed or
 * reset, that SQD succeeds and changes nothing, as iw_cm's disconnect of a
 * closed connection does; so does iw_cm's SQD of a QP whose TERMINATE
 * closes its connection already.
 *
 * Return: true if the modify is such a no-op.
 */
bool irdma_qp_sqd_noop(const struct irdma_qp *qp, enum ib_qp_state cur,
		       enum ib_qp_state next, int attr_mask)
{
	if (next != IB_QPS_SQD || attr_mask != IB_QP_STATE)
		return false;
	/* a TERMINATE is closing it already (SQD for the core) */
	if (qp->hw_state == IRDMA_QPS_TERMINATE && cur == IB_QPS_SQD)
		return true;
	if (!irdma_qp_is_iwarp(qp) || !qp->conn_set)
		return false;
	if (cur == IB_QPS_SQD)
		return true;
	return cur == IB_QPS_ERR && READ_ONCE(qp->llp_closed);
}

/**
 * irdma_qp_iw_stays_idle - a move of an iWARP QP the engine need not see
 * @qp: the QP
 * @cur: its state
 * @next: the state asked for
 *
 * An iWARP QP in INIT or RTR is idle on the engine until the CM moves it
 * to RTS, writing its whole context with the connection's
 * (irdma_qp_iw_to_rts()); nothing a move between INIT and RTR, or a modify
 * within either, carries is in that context before then. librdmacm's
 * connect and accept make two or three such moves a QP: none issues a
 * MODIFY_QP (nor does Linux 6.1's irdma after the first move to INIT).
 *
 * Return: true to skip the engine's command.
 */
bool irdma_qp_iw_stays_idle(const struct irdma_qp *qp, enum ib_qp_state cur,
			    enum ib_qp_state next)
{
	return irdma_qp_is_iwarp(qp) &&
	       (cur == IB_QPS_INIT || cur == IB_QPS_RTR) &&
	       (next == IB_QPS_INIT || next == IB_QPS_RTR);
}

/* Tell the CM that owns the QP's connection how the ULP ended it */
static void irdma_qp_ulp_disconn(struct irdma_qp *qp, int cause)
{
	unsigned long flags;

	if (cause < 0)
		return;
	spin_lock_irqsave(&qp->cm_lock, flags);
	if (qp->cm_node)
		irdma_cm_disconn(qp->cm_node, cause);
	spin_unlock_irqrestore(&qp->cm_lock, flags);
}

/*
 * The modify: @ulp for the verb, which tells the CM of a connection the
 * ULP ends; false for the CM's own move to ERR (irdma_qp_async_err()).
 */
static int irdma_qp_modify(struct irdma_qp *qp, struct ib_qp_attr *attr,
			   int attr_mask, struct ib_udata *udata, bool ulp)
{
	struct ib_qp *ibqp = &qp->ibqp;
	struct irdma_modify_qp_req ureq;
	enum ib_qp_state next, cur;
	struct irdma_qp_roce_saved saved;
	struct irdma_qpc_roce roce;
	int cause = -1;
	u8 hw_state;
	int ret;

	ret = irdma_uqp_modify_req(qp, udata, &ureq);
	if (ret) {
		ibdev_dbg(ibqp->device, "QP %u: modify request refused: %d\n",
			  ibqp->qp_num, ret);
		return ret;
	}
	mutex_lock(&qp->state_lock);
	ret = irdma_uqp_reflush(qp, &ureq);
	if (ret)
		goto out_unlock;
	cur = qp->ib_state;
	next = attr_mask & IB_QP_STATE ? attr->qp_state : cur;
	if (irdma_qp_sqd_noop(qp, cur, next, attr_mask))
		goto out_unlock;
	ret = irdma_qp_modify_check(qp, attr, attr_mask, cur, next);
	if (!ret)
		ret = irdma_qp_hw_state(cur, next, irdma_qp_is_iwarp(qp),
					&hw_state);
	if (!ret && ulp && irdma_qp_is_iwarp(qp)) {
		ret = irdma_qp_iw_ulp_move(cur, next);
		if (ret)
			ibdev_dbg(ibqp->device, "QP %u: only the CM moves an iWARP QP to RTS\n",
				  ibqp->qp_num);
	}
	if (ret)
		goto out_unlock;
	if (ulp && irdma_qp_is_iwarp(qp) && qp->conn_set)
		cause = irdma_qp_ulp_disc_cause(cur, next);
	roce = qp->roce;
	irdma_qp_apply_roce(attr, attr_mask, &roce);
	ret = irdma_qp_roce_begin(qp, attr, attr_mask, &saved);
	if (!ret && !irdma_qp_iw_stays_idle(qp, cur, next))
		ret = irdma_qp_hw_move(qp, hw_state, &roce,
				       irdma_qp_resets_conn(qp, cur, next));
	if (ret == -EIO && irdma_qp_err_by_flush(qp, cur, next))
		ret = 0;
	if (!ret)
		ret = irdma_qp_after_move(qp, next);
	irdma_qp_roce_end(qp, &saved, !ret);
	/*
	 * iw_cm ignores a failed graceful close (rdma_disconnect()) and
	 * waits for the connection's CLOSE: when the engine refused it,
	 * the CM aborts the connection instead, which moves the QP to ERR.
	 */
	if (ret == -EIO && cause == IRDMA_CM_DISC_LOCAL_CLOSE &&
	    !irdma_hw_given_up(qp->hw)) {
		ibdev_dbg(ibqp->device, "QP %u: graceful close refused; aborting\n",
			  ibqp->qp_num);
		irdma_qp_ulp_disconn(qp, IRDMA_CM_DISC_LOCAL_ERR);
	}
	if (ret)
		goto out_unlock;
	qp->roce = roce;
	qp->hw_state = hw_state;
	if (attr_mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (attr_mask & IB_QP_TIMEOUT)
		qp->ack_timeout = attr->timeout;
	ibdev_dbg(ibqp->device, "QP %u: state %d -> %d (engine %u)\n",
		  ibqp->qp_num, cur, next, hw_state);
	WRITE_ONCE(qp->ib_state, next);
	irdma_qp_ulp_disconn(qp, cause);
out_unlock:
	mutex_unlock(&qp->state_lock);
	return ret;
}

/**
 * irdma_modify_qp - change a QP's state and attributes
 * @ibqp: the QP
 * @attr: new attributes
 * @attr_mask: IB_QP_* bits saying which @attr fields are set
 * @udata: NULL for a kernel QP; for a user QP, nothing or struct
 *	irdma_modify_qp_req in and struct irdma_modify_qp_resp out
 *
 * The host context is rebuilt and handed to the engine with the new
 * state; a move to ERR also flushes both queues, and so does a user
 * request to flush a queue of a QP in ERR. An iWARP QP whose connection
 * the CM owns tells the CM when the move ends the connection
 * (irdma_qp_ulp_disc_cause()): the CM then reports CLOSE to iw_cm.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; the QP is unchanged on failure.
 */
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata)
{
	return irdma_qp_modify(to_irdma_qp(ibqp), attr, attr_mask, udata,
			       true);
}

/**
 * irdma_query_qp - report a kernel QP's attributes
 * @ibqp: the QP
 * @attr: attributes
 * @attr_mask: ignored: every attribute kept is reported
 * @init_attr: creation attributes
 *
 * Context: process context; sleeps.
 * Return: 0.
 */
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		   int attr_mask, struct ib_qp_init_attr *init_attr)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	enum ib_mtu mtu = ib_mtu_int_to_enum(READ_ONCE(qp->hw->fn->netdev->mtu));

	/* what modify_qp may change is read under the lock that changes it */
	mutex_lock(&qp->state_lock);
	if (qp->path_mtu)
		mtu = qp->path_mtu;
	*attr = (struct ib_qp_attr){
		.qp_state = qp->ib_state,
		.cur_qp_state = qp->ib_state,
		.pkey_index = qp->pkey_index,
		.qkey = qp->roce.qkey,
		.dest_qp_num = qp->roce.dest_qp,
		.sq_psn = qp->roce.psn_nxt,
		.rq_psn = qp->roce.epsn,
		.retry_cnt = qp->roce.rexmit_thresh,
		.rnr_retry = qp->roce.rnr_nak_thresh,
		.timeout = qp->ack_timeout,
		.path_mtu = mtu,
		.max_rd_atomic = qp->conn.ord,
		.max_dest_rd_atomic = qp->conn.ird,
		.port_num = 1,
		.cap = qp->cap,
	};
	mutex_unlock(&qp->state_lock);

	*init_attr = (struct ib_qp_init_attr){
		.qp_type = ibqp->qp_type,
		.send_cq = ibqp->send_cq,
		.recv_cq = ibqp->recv_cq,
		.cap = qp->cap,
		.sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
						IB_SIGNAL_REQ_WR,
		.port_num = 1,
	};
	return 0;
}

/* ---- iWARP connections (the CM's QP hooks, cm_hw.c) ---- */

/* Slow start threshold of a fresh connection: no limit yet */
#define IRDMA_QP_TCP_SSTHRESH		0x3fffffff
#define IRDMA_QP_TCP_DUPACK_THRESH	3

/**
 * irdma_qp_conn_from_cm - the QP's view of a connection the CM hands over
 * @t: what the CM knows of the connection
 * @conn: filled in
 *
 * The TCP state is ESTABLISHED with the CM's sequence numbers and windows;
 * nothing was sent that is not acknowledged but what the CM reports.
 *
 * Return: 0, or -EINVAL for values the QP context cannot hold.
 */
int irdma_qp_conn_from_cm(const struct irdma_cm_tcp_ctx *t,
			  struct irdma_qp_conn *conn)
{
	const struct irdma_cm_info *ci = &t->ci;
	const struct irdma_cm_tcp *tcp = &t->tcp;

	if (tcp->snd_wscale > IRDMA_CM_MAX_WSCALE ||
	    tcp->rcv_wscale > IRDMA_CM_MAX_WSCALE || !tcp->mss ||
	    t->arp_idx < 0 || t->arp_idx > U16_MAX || t->ord > U8_MAX ||
	    t->ird > IRDMA_QP_MAX_IRD)
		return -EINVAL;
	memset(conn, 0, sizeof(*conn));
	conn->iw = (struct irdma_qpc_iwarp){
		.tcp = {
			.tcp_state = IRDMA_TCPS_ESTABLISHED,
			.snd_nxt = tcp->snd_nxt,
			.snd_max = tcp->snd_nxt,
			.snd_una = tcp->snd_una,
			.rcv_nxt = tcp->rcv_nxt,
			.snd_wnd = tcp->snd_wnd,
			.max_snd_wnd = tcp->snd_wnd,
			.rcv_wnd = tcp->rcv_wnd,
			.cwnd = t->cwnd,
			.ss_thresh = IRDMA_QP_TCP_SSTHRESH,
			/* the last window update: the peer's latest segment */
			.snd_wl1 = tcp->rcv_nxt,
			.snd_wl2 = tcp->snd_una,
			.snd_wscale = tcp->snd_wscale,
			.rcv_wscale = tcp->rcv_wscale,
			.wscale = tcp->snd_wscale || tcp->rcv_wscale,
			.rexmit_thresh = min_t(u8, t->rexmit_thresh, 63),
			.dup_ack_thresh = IRDMA_QP_TCP_DUPACK_THRESH,
			.no_nagle = true,
			.drop_ooo = true,
		},
		.ddp_ver = 1,
		.rdmap_ver = 1,
		.tcp_valid = true,
		.rcv_no_mpa_crc = !t->crc,
	};
	memcpy(conn->loc_addr, ci->loc_addr, sizeof(conn->loc_addr));
	memcpy(conn->rem_addr, ci->rem_addr, sizeof(conn->rem_addr));
	conn->mac = ether_addr_to_u64(t->loc_mac);
	conn->loc_port = ci->loc_port;
	conn->rem_port = ci->rem_port;
	conn->mss = tcp->mss;
	conn->insert_vlan = ci->vlan_id < VLAN_N_VID;
	if (conn->insert_vlan)
		conn->vlan_tag = ci->vlan_id |
				 (u16)(ci->user_pri & 7) << VLAN_PRIO_SHIFT;
	conn->arp_idx = t->arp_idx;
	conn->ird = t->ird;
	conn->ord = t->ord;
	conn->ttl = t->ttl;
	conn->tos = ci->tos;
	conn->ipv4 = ci->ipv4;
	return 0;
}

/**
 * irdma_qp_iw_set_ctx - take over a connection's TCP state
 * @qp: an iWARP QP, held by the caller
 * @t: the connection, from the CM
 *
 * The context in host memory gets the connection now; the engine takes
 * it with the move to RTS (irdma_qp_iw_to_rts()).
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL for a QP that is not an iWARP QP in INIT or RTR or a
 * context that cannot be written, the QP unchanged.
 */
int irdma_qp_iw_set_ctx(struct irdma_qp *qp, const struct irdma_cm_tcp_ctx *t)
{
	struct irdma_qp_conn conn;
	int ret;

	if (!irdma_qp_is_iwarp(qp))
		return -EINVAL;
	ret = irdma_qp_conn_from_cm(t, &conn);
	if (ret)
		return ret;
	mutex_lock(&qp->state_lock);
	if (qp->ib_state != IB_QPS_INIT && qp->ib_state != IB_QPS_RTR) {
		ret = -EINVAL;
		goto out_unlock;
	}
	if (qp->arp_held) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ret = irdma_arp_hold(to_iwdev(qp->ibqp.device), conn.arp_idx);
	if (ret)
		goto out_unlock;
	qp->arp_held = true;
	qp->conn = conn;
	qp->conn_set = true;
	WRITE_ONCE(qp->llp_closed, false);
	ret = irdma_qp_qos_activate(qp, IRDMA_QPS_RTS);
	if (!ret)
		ret = irdma_qp_write_ctx(qp, &qp->roce);
	if (ret)
		qp->conn_set = false;
out_unlock:
	mutex_unlock(&qp->state_lock);
	if (ret)
		ibdev_dbg(qp->ibqp.device, "QP %u: connection context refused: %d\n",
			  qp->ibqp.qp_num, ret);
	return ret;
}

/* The connection WQEs go in the SQ quanta the QP keeps for them */
static int irdma_qp_conn_wqe_ok(struct irdma_qp *qp)
{
	lockdep_assert_held(&qp->state_lock);
	if (!irdma_qp_is_iwarp(qp) || !qp->conn_set ||
	    (qp->ib_state != IB_QPS_INIT && qp->ib_state != IB_QPS_RTR))
		return -EINVAL;
	return 0;
}

/**
 * struct irdma_qp_conn_wqe - a connection WQE to write at SQ quantum 0
 * @lsmm: the LSMM (MPA reply), else the RTR or a NOP
 * @nop: a NOP (an initiator without RTR), else the RTR
 * @read: RTR: a zero length RDMA READ, else a WRITE
 * @addr: LSMM: address of the reply under @stag
 * @len: LSMM: its length
 * @stag: LSMM: 0 (privileged kernel QP, @addr a bus address) or an STag
 *	of the QP's PD over the reply
 */
struct irdma_qp_conn_wqe {
	bool lsmm;
	bool nop;
	bool read;
	u64 addr;
	u32 len;
	u32 stag;
};

static int irdma_qp_conn_wqe_write(struct irdma_uk_qp *uk,
				   const struct irdma_qp_conn_wqe *w)
{
	if (w->lsmm)
		return irdma_uk_conn_lsmm(uk, w->addr, w->len, w->stag);
	if (w->nop)
		return irdma_uk_conn_nop(uk);
	return irdma_uk_conn_rtr(uk, w->read);
}

/*
 * A kernel QP's SQ is the driver's; a user QP's first quanta are mapped
 * from its pinned ring for the write (irdma_uring_conn_uk()). User space
 * does not post to quantum 0, which libirdma skips.
 */
static int irdma_qp_conn_post(struct irdma_qp *qp,
			      const struct irdma_qp_conn_wqe *w)
{
	struct irdma_uk_qp uk;
	unsigned long flags;
	__le64 *sq;
	int ret;

	if (!qp->uring) {
		spin_lock_irqsave(&qp->sq_lock, flags);
		ret = irdma_qp_conn_wqe_write(&qp->uk, w);
		spin_unlock_irqrestore(&qp->sq_lock, flags);
		return ret;
	}
	sq = irdma_uring_conn_uk(qp->uring, qp->sizes.sq_quanta,
				 qp->hw->fn->gen, &uk);
	if (IS_ERR(sq)) {
		ibdev_dbg(qp->ibqp.device,
			  "QP %u: user SQ cannot take the connection WQE\n",
			  qp->ibqp.qp_num);
		return PTR_ERR(sq);
	}
	ret = irdma_qp_conn_wqe_write(&uk, w);
	kunmap_local(sq);
	return ret;
}

/**
 * irdma_qp_iw_post_lsmm - place the MPA reply as the QP's first message
 * @qp: an iWARP QP with its connection set, held by the caller
 * @buf: the MPA reply (valid only for the call)
 * @len: its length
 *
 * The reply is copied to DMA memory the QP owns until it is destroyed. A
 * kernel QP is privileged, so its LSMM WQE names the reply by bus address
 * under STag 0; a user QP is not, so the reply gets an STag of the QP's
 * PD (local read, that page only) and the WQE goes into the user SQ's
 * first quantum.
 *
 * A QP sends one MPA reply in its life, and the reply and its STag stay
 * with it until its destroy (irdma_destroy_qp()), also when this fails.
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL (no connection, wrong state or length, a user SQ
 * that does not hold the quantum, a reply posted already), -ENOMEM, or
 * the STag's registration error.
 */
int irdma_qp_iw_post_lsmm(struct irdma_qp *qp, const void *buf, u32 len)
{
	struct irdma_qp_conn_wqe w = { .lsmm = true, .len = len };
	int ret;

	if (!len || len > IRDMA_MPA_MAX_FRAME)
		return -EINVAL;
	mutex_lock(&qp->state_lock);
	ret = irdma_qp_conn_wqe_ok(qp);
	if (!ret && qp->lsmm.va)
		ret = -EINVAL;
	if (!ret)
		ret = irdma_dma_alloc(qp->hw->dev, &qp->lsmm, len);
	if (ret)
		goto out_unlock;
	memcpy(qp->lsmm.va, buf, len);
	w.addr = qp->lsmm.pa;
	if (qp->uring)
		ret = irdma_mr_kbuf_reg(qp->ibqp.pd, qp->lsmm.pa, len,
					&qp->lsmm_stag);
	w.stag = qp->lsmm_stag;
	if (!ret)
		ret = irdma_qp_conn_post(qp, &w);
out_unlock:
	mutex_unlock(&qp->state_lock);
	return ret;
}

/* Post @w into the connection quantum of a QP ready for it. */
static int irdma_qp_iw_post_conn(struct irdma_qp *qp,
				 const struct irdma_qp_conn_wqe *w)
{
	int ret;

	mutex_lock(&qp->state_lock);
	ret = irdma_qp_conn_wqe_ok(qp);
	if (!ret)
		ret = irdma_qp_conn_post(qp, w);
	mutex_unlock(&qp->state_lock);
	return ret;
}

/**
 * irdma_qp_iw_post_rtr - place the zero length RTR operation
 * @qp: an iWARP QP with its connection set, held by the caller
 * @read: a zero length RDMA READ, else a zero length RDMA WRITE
 *
 * Kernel and user QPs alike (irdma_qp_conn_post()).
 *
 * Context: process context; sleeps.
 * Return: 0 or -EINVAL (no connection, wrong state, a user SQ that does
 * not hold the quantum).
 */
int irdma_qp_iw_post_rtr(struct irdma_qp *qp, bool read)
{
	struct irdma_qp_conn_wqe w = { .read = read };

	return irdma_qp_iw_post_conn(qp, &w);
}

/**
 * irdma_qp_iw_post_nop - the connection WQE of an initiator without RTR
 * @qp: an iWARP QP with its connection set, held by the caller
 *
 * The engine runs the SQ in order from quantum 0, which the QP keeps for
 * its connection WQE: an initiator with no first FPDU to send (its peer
 * announced IRD 0 and no RTR) fills it with a NOP, or the engine would stop
 * there and never send the ULP's first message. Kernel and user QPs alike.
 *
 * Context: process context; sleeps.
 * Return: 0 or -EINVAL (no connection, wrong state, a user SQ that does
 * not hold the quantum).
 */
int irdma_qp_iw_post_nop(struct irdma_qp *qp)
{
	struct irdma_qp_conn_wqe w = { .nop = true };

	return irdma_qp_iw_post_conn(qp, &w);
}

/**
 * irdma_qp_iw_to_rts - hand the connection to the engine
 * @qp: an iWARP QP with its connection set, held by the caller
 *
 * One MODIFY_QP to RTS carries the TCP context, the ARP index, the MAC and
 * the ORD; the engine then runs the connection WQEs. The CM reports the
 * connection up itself once this returns, so no GEN_RTS_AE is asked for.
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL (no connection or wrong state) or the command's
 * error, the QP unchanged.
 */
int irdma_qp_iw_to_rts(struct irdma_qp *qp)
{
	struct irdma_cqp_qp_info info;
	u8 hw_state;
	int ret;

	mutex_lock(&qp->state_lock);
	ret = irdma_qp_is_iwarp(qp) && qp->conn_set ? 0 : -EINVAL;
	if (!ret && qp->ib_state != IB_QPS_INIT && qp->ib_state != IB_QPS_RTR)
		ret = -EINVAL;
	if (!ret)
		ret = irdma_qp_hw_state(qp->ib_state, IB_QPS_RTS, true,
					&hw_state);
	if (!ret)
		ret = irdma_qp_write_ctx(qp, &qp->roce);
	if (ret)
		goto out_unlock;
	irdma_qp_cmd_info(qp, hw_state, &info);
	info.tcp_ctx_valid = true;
	info.arp_valid = true;
	info.mac_valid = true;
	/*
	 * Once the engine is in RTS it sends the MPA reply or RTR, and the
	 * peer's answer (a TERMINATE say) can raise an AE before this thread
	 * sees the command complete: the AE handling must take the QP as in
	 * RTS already (ae.c).
	 */
	set_bit(IRDMA_QP_RTS_PENDING, &qp->term_flags);
	ret = irdma_qp_cmd(qp, irdma_cqpw_qp_modify_cb, "MODIFY_QP", &info);
	if (!ret) {
		qp->hw_state = hw_state;
		ibdev_dbg(qp->ibqp.device, "QP %u: state %d -> %d for the CM\n",
			  qp->ibqp.qp_num, qp->ib_state, IB_QPS_RTS);
		WRITE_ONCE(qp->ib_state, IB_QPS_RTS);
	}
	clear_bit(IRDMA_QP_RTS_PENDING, &qp->term_flags);
out_unlock:
	mutex_unlock(&qp->state_lock);
	return ret;
}

/*
 * The move to TERMINATE the AE handling prepared (ae.c): the engine sends
 * the message in Q2 and/or our FIN, as term_act says, and reports the
 * end of the close with an AE, as after a graceful close. For the core
 * the QP is draining (SQD) until the CM moves it to ERR.
 */
static int irdma_qp_iw_terminate(struct irdma_qp *qp)
{
	struct irdma_cqp_qp_info info;
	int ret;

	mutex_lock(&qp->state_lock);
	if (qp->ib_state != IB_QPS_RTS) {
		ret = 0;
		goto out_unlock;
	}
	ret = irdma_qp_write_ctx(qp, &qp->roce);
	if (ret)
		goto out_unlock;
	irdma_qp_cmd_info(qp, IRDMA_QPS_TERMINATE, &info);
	info.term_act = qp->term_act;
	info.term_len = qp->term_words;
	ret = irdma_qp_cmd(qp, irdma_cqpw_qp_modify_cb, "MODIFY_QP", &info);
	if (ret)
		goto out_unlock;
	qp->hw_state = IRDMA_QPS_TERMINATE;
	ibdev_dbg(qp->ibqp.device, "QP %u: TERMINATE (action %u, %u words)\n",
		  qp->ibqp.qp_num, qp->term_act, qp->term_words);
	WRITE_ONCE(qp->ib_state, IB_QPS_SQD);
out_unlock:
	mutex_unlock(&qp->state_lock);
	return ret;
}

/**
 * irdma_qp_iw_close - close the connection of an iWARP QP gracefully
 * @qp: an iWARP QP with its connection, held by the caller
 *
 * For the CM, after the peer's FIN: a QP still in RTS moves to SQD, and
 * the engine sends our FIN (CLOSING); it reports the end of the close with
 * an AE. After a TERMINATE the AE handling started, the QP moves to
 * TERMINATE instead, which sends the message and the FIN. A QP the ULP
 * has moved on already is left alone.
 *
 * Context: process context; sleeps.
 * Return: 0 or the move's error.
 */
int irdma_qp_iw_close(struct irdma_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_SQD };

	if (READ_ONCE(qp->ib_state) != IB_QPS_RTS)
		return 0;
	if (test_bit(IRDMA_QP_TERM_STARTED, &qp->term_flags))
		return irdma_qp_iw_terminate(qp);
	return irdma_qp_modify(qp, &attr, IB_QP_STATE, NULL, false);
}

/* ---- posting ---- */

static int irdma_qp_sges(const struct ib_sge *in, int n, u32 max,
			 struct irdma_uk_sge *out)
{
	int i;

	if (n < 0 || n > max)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		out[i].addr = in[i].addr;
		out[i].len = in[i].length;
		out[i].lkey = in[i].lkey;
	}
	return 0;
}

static int irdma_qp_send_op(const struct ib_send_wr *wr, bool iwarp, u8 *op)
{
	bool sol = wr->send_flags & IB_SEND_SOLICITED;

	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
		if (iwarp)
			return -EINVAL;
		fallthrough;
	case IB_WR_SEND:
		*op = sol ? IRDMA_WQEOP_SEND_SOL : IRDMA_WQEOP_SEND;
		break;
	case IB_WR_SEND_WITH_INV:
		*op = sol ? IRDMA_WQEOP_SEND_SOL_INV : IRDMA_WQEOP_SEND_INV;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		if (iwarp)
			return -EINVAL;
		fallthrough;
	case IB_WR_RDMA_WRITE:
		*op = IRDMA_WQEOP_RDMA_WRITE;
		break;
	case IB_WR_RDMA_READ:
		*op = IRDMA_WQEOP_RDMA_READ;
		break;
	case IB_WR_RDMA_READ_WITH_INV:
		/*
		 * The engine unmaps the STag of the sink, the only SGE. Its
		 * key may be newer than invalidate_rkey's (rdma_rw sets that
		 * before it bumps the key): the index names the MR.
		 */
		if (wr->num_sge != 1 ||
		    irdma_stag_index(wr->sg_list[0].lkey) !=
		    irdma_stag_index(wr->ex.invalidate_rkey))
			return -EINVAL;
		*op = IRDMA_WQEOP_RDMA_READ_LOC_INV;
		break;
	case IB_WR_LOCAL_INV:
		*op = IRDMA_WQEOP_LOCAL_INV;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static void irdma_qp_fill_wr(const struct irdma_qp *qp,
			     const struct ib_send_wr *wr,
			     struct irdma_uk_wr *uw)
{
	uw->wr_id = wr->wr_id;
	uw->imm_valid = wr->opcode == IB_WR_SEND_WITH_IMM ||
			wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM;
	uw->imm = be32_to_cpu(wr->ex.imm_data);
	if (wr->opcode == IB_WR_SEND_WITH_INV ||
	    wr->opcode == IB_WR_LOCAL_INV)
		uw->inv_stag = wr->ex.invalidate_rkey;
	if (wr->opcode == IB_WR_RDMA_WRITE || wr->opcode == IB_WR_RDMA_READ ||
	    wr->opcode == IB_WR_RDMA_READ_WITH_INV ||
	    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		uw->remote_addr = rdma_wr(wr)->remote_addr;
		uw->rkey = rdma_wr(wr)->rkey;
	}
	uw->inline_data = wr->send_flags & IB_SEND_INLINE;
	uw->signaled = qp->sq_sig_all || (wr->send_flags & IB_SEND_SIGNALED);
	uw->read_fence = wr->send_flags & IB_SEND_FENCE;
}

/*
 * A UD send: the AH, destination QP and Q_Key go into the WQE. A Q_Key
 * with its top bit set asks for the QP's own (IB's controlled Q_Keys).
 * While the AH's CREATE_AH has not run, or an earlier send waits for
 * one, the WQE is written but held (struct irdma_qp_ud).
 */
static int irdma_qp_post_ud(struct irdma_qp *qp, const struct ib_send_wr *wr,
			    struct irdma_uk_wr *uw)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	struct irdma_qp_ud *q = &qp->ud;
	struct irdma_ud_held *h = NULL;
	struct irdma_ah *ah;
	int ret;

	if ((wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM) ||
	    !ud->ah)
		return -EINVAL;
	ah = to_irdma_ah(ud->ah);
	uw->ah_id = ah->idx;
	uw->dest_qp = ud->remote_qpn;
	uw->qkey = ud->remote_qkey & BIT(31) ? qp->roce.qkey : ud->remote_qkey;
	if (q->cnt || !irdma_cmd_req_ran(qp->hw, ah->ticket)) {
		if (q->cnt == qp->sizes.sq_quanta)
			return -ENOMEM;
		h = &q->held[(q->head + q->cnt) % qp->sizes.sq_quanta];
		uw->hold = &h->wqe;
	}
	ret = irdma_uk_post_send(&qp->uk, uw);
	if (ret || !h)
		return ret;
	h->ticket = ah->ticket;
	q->cnt++;
	queue_work(qp->hw->cmd_wq, &q->release);
	return 0;
}

/* Write one send WR to the SQ; the caller holds the SQ lock. */
static int irdma_qp_post_one(struct irdma_qp *qp, const struct ib_send_wr *wr)
{
	struct irdma_uk_sge sg[IRDMA_UK_MAX_FRAGS];
	struct irdma_uk_wr uw = {};
	u32 i, total = 0;

	lockdep_assert_held(&qp->sq_lock);
	if (wr->opcode == IB_WR_REG_MR)
		return irdma_mr_post_reg(&qp->uk, reg_wr(wr), qp->sq_sig_all ||
					 (wr->send_flags & IB_SEND_SIGNALED));
	if (irdma_qp_send_op(wr, irdma_qp_is_iwarp(qp), &uw.op) ||
	    irdma_qp_sges(wr->sg_list, wr->num_sge, qp->cap.max_send_sge, sg))
		return -EINVAL;
	irdma_qp_fill_wr(qp, wr, &uw);
	uw.sg = sg;
	uw.num_sge = wr->num_sge;
	for (i = 0; i < uw.num_sge; i++)
		total += sg[i].len;
	if (uw.inline_data && total > qp->cap.max_inline_data)
		return -EINVAL;
	if (qp->hw_type == IRDMA_QPTYPE_ROCE_UD)
		return irdma_qp_post_ud(qp, wr, &uw);
	switch (uw.op) {
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_LOC_INV:
		return irdma_uk_post_rdma(&qp->uk, &uw);
	case IRDMA_WQEOP_LOCAL_INV:
		return irdma_uk_post_local_inv(&qp->uk, &uw);
	default:
		return irdma_uk_post_send(&qp->uk, &uw);
	}
}

/**
 * irdma_post_send - post send WRs to a kernel QP
 * @ibqp: the QP
 * @wr: the first WR of a chain
 * @bad_wr: the first WR not posted, on error
 *
 * UD and GSI QPs take SENDs (with immediate data too) through an AH.
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL for a bad WR or a QP in RESET, -ENOMEM for a full
 * SQ, -EOPNOTSUPP for user QPs (user space posts itself).
 */
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	unsigned long flags;
	int ret = 0;

	if (qp->uring) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&qp->sq_lock, flags);
	if (READ_ONCE(qp->ib_state) == IB_QPS_RESET)
		ret = -EINVAL;
	while (wr && !ret) {
		ret = irdma_qp_post_one(qp, wr);
		if (!ret)
			wr = wr->next;
	}
	irdma_uk_ring_sq_db(&qp->uk);
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/**
 * irdma_post_recv - post receive WRs to a kernel QP
 * @ibqp: the QP
 * @wr: the first WR of a chain
 * @bad_wr: the first WR not posted, on error
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL for a bad WR or a QP in RESET, -ENOMEM for a full RQ,
 * -EOPNOTSUPP for a user QP (user space posts itself).
 */
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	struct irdma_uk_sge sg[IRDMA_UK_MAX_FRAGS];
	unsigned long flags;
	int ret = 0;

	if (qp->uring) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	if (READ_ONCE(qp->ib_state) == IB_QPS_RESET)
		ret = -EINVAL;
	while (wr && !ret) {
		ret = irdma_qp_sges(wr->sg_list, wr->num_sge,
				    qp->cap.max_recv_sge, sg);
		if (!ret)
			ret = irdma_uk_post_recv(&qp->uk, wr->wr_id, sg,
						 wr->num_sge);
		if (!ret)
			wr = wr->next;
	}
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/**
 * irdma_qp_retire - retire the WR a CQE names
 * @qp: the QP the CQE belongs to
 * @cqe: the decoded CQE
 * @done: the WR retired
 *
 * Context: CQ polling, under the CQ lock with interrupts off.
 * Return: as irdma_uk_qp_complete().
 */
int irdma_qp_retire(struct irdma_qp *qp, const struct irdma_uk_cqe *cqe,
		    struct irdma_uk_done *done)
{
	spinlock_t *lock = cqe->sq ? &qp->sq_lock : &qp->rq_lock;
	int ret;

	spin_lock(lock);
	ret = irdma_uk_qp_complete(&qp->uk, cqe, done);
	spin_unlock(lock);
	return ret;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/qp_test.c"
#endif
