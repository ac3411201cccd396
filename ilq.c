// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the ILQ, the privileged raw queue pair of an iWARP function
 * through which the CM's TCP segments leave and arrive
 * (hw-interface.rst, "Privileged raw queues (ILQ, IEQ)").
 *
 * One ILQ per iWARP function: QP 1, of the UDA type, created straight into
 * RTS, with CQ 1 for both of its queues. Its rings and buffers are
 * coherent DMA memory. Every RQ WQE names one receive buffer, and every
 * send one transmit buffer, picked from a free bitmap.
 *
 * Receive: the CQ's events come through CEQ 0 (hw.c hands them here
 * before looking for a verbs CQ). The CEQ thread polls the CQ with bottom
 * halves off, hands each segment to the CM (the IP header at byte 20 or
 * 0 of the buffer, the TCP header at byte 40, the source MAC and VLAN tag
 * from the extended CQE) and posts the buffer again. A CQE that names
 * another QP, a WQE that is not outstanding or a buffer that is not
 * posted, or that carries an error or an impossible length, is counted
 * and dropped.
 *
 * Send: the CM's xmit op copies the segment into a free buffer; the WQE
 * that names it is posted from the function's ordered command workqueue,
 * behind every CQP command submitted before (the ARP entry and the AH the
 * send names are made by such commands, and the engine runs the SQ apart
 * from the CQP). A send's completion frees its buffer.
 *
 * Address handles: the CM asks for one per connection (ah_create), for the
 * engine to build the Ethernet and IP headers of its segments. An AH holds
 * a reference for its connection and one for each send naming it; the last
 * put destroys it on the engine, so no send can find its AH gone.
 *
 * The IEQ (QP 2 with CQ 2) is the same kind of queue, made and run by the
 * same code with buffers that hold a full segment: the engine hands it
 * segments of offloaded connections with partial FPDUs, which go to
 * ieq.c instead of the CM, and ieq.c sends the FPDUs it put together back
 * through it (hw-interface.rst, "Partial FPDUs (IEQ)"). Its AHs come from
 * the ILQ's indexes; it is created after the ILQ and destroyed before it.
 *
 * Lock order: cq_lock, then the CM's node locks, then tx_lock.
 */
#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/tcp.h>

#include "hw.h"
#include "ieq.h"
#include "ilq.h"
#include "main.h"

/* Where the engine puts a received segment in its buffer */
#define IRDMA_ILQ_RX_TCP_OFF	40
#define IRDMA_ILQ_RX_IPV4_OFF	20
/* Smallest receive: an IPv4 header in its place and a bare TCP header */
#define IRDMA_ILQ_RX_MIN	(IRDMA_ILQ_RX_TCP_OFF + sizeof(struct tcphdr))
/* gen1 receives whole frames: the smallest, untagged IPv4 */
#define IRDMA_ILQ_RX_MIN_G1	(ETH_HLEN + sizeof(struct iphdr) + \
				 sizeof(struct tcphdr))
/* How long tear-down waits for the engine to finish the sends posted */
#define IRDMA_ILQ_DRAIN_MS	2000

/**
 * struct irdma_ilq_ah - an address handle of the ILQ
 * @ilq: the ILQ it was made for
 * @refs: one for the CM node, one per send buffer naming it
 * @idx: the engine's AH index
 * @destroy: its DESTROY_AH, made with it: the last put, in any context,
 *	cannot then fail for want of memory and leave the AH on the engine
 */
struct irdma_ilq_ah {
	struct irdma_ilq *ilq;
	refcount_t refs;
	u32 idx;
	struct irdma_cmd_req *destroy;
};

/**
 * struct irdma_ilq_tx - one transmit buffer
 * @work: posts the send on the command workqueue
 * @ilq: owner
 * @ah: the AH the send names (holds a reference) while @busy
 * @len: bytes of the segment
 * @l4len: TCP header length in 32-bit words
 * @maclen: gen1: bytes of the frame's Ethernet header
 * @iplen: gen1: bytes of its IP header
 * @ipv4: gen1: the frame is IPv4
 * @loopback: gen1: the frame is for this function (the engine turns it
 *	around only when told)
 * @idx: buffer number, the send's wr_id
 * @busy: taken by xmit, until the send completes (tx_lock)
 */
struct irdma_ilq_tx {
	struct work_struct work;
	struct irdma_ilq *ilq;
	struct irdma_ilq_ah *ah;
	u32 len;
	u8 l4len;
	u8 maclen;
	u8 iplen;
	bool ipv4;
	bool loopback;
	u16 idx;
	bool busy;
};

/**
 * struct irdma_ilq - the ILQ of one function
 * @hw: the engine
 * @iwdev: the device, for messages
 * @name: "ILQ" or "IEQ", for messages
 * @qpn: its QP number (IRDMA_ILQ_QPN or IRDMA_IEQ_QPN)
 * @cqn: its CQ number
 * @buf_size: bytes of every receive and send buffer
 * @ieq: the IEQ: receives go to ieq.c, not to the CM
 * @core: the CM that receives, or NULL (cq_lock)
 * @cq_lock: the CQ ring, the RQ half of @qp, @rx_posted and @core
 * @tx_lock: the SQ half of @qp, @tx_free and every @tx's @busy and @ah
 * @qp: the rings as uk.c sees them
 * @cq: the CQ ring
 * @sq_mem: SQ WQEs
 * @rq_mem: RQ WQEs
 * @qp_shadow: the QP's doorbell shadow area
 * @qp_ctx: the QP host context
 * @cq_mem: CQEs
 * @cq_shadow: the CQ's shadow area
 * @rx_mem: receive buffers, @buf_size bytes each
 * @tx_mem: transmit buffers
 * @sq_slots: uk.c's record of posted sends
 * @rq_wrid: uk.c's record of posted receives (the buffer numbers)
 * @rx_posted: the receive buffer is in the RQ (cq_lock)
 * @tx: transmit buffers
 * @tx_free: transmit buffers free (tx_lock)
 * @ah_ida: AH indexes in use
 * @ah_cnt: AHs alive
 * @stats: counters (enum irdma_ilq_stat)
 * @ieq_st: the IEQ's own counters and the streams waiting for a send
 *	buffer (under @cq_lock)
 * @qos: the QP's queue set (qos.c): user priority 0's
 *
 * Lifetime: made by irdma_ilq_create() and published in hw->ilq (hw->ieq)
 * under hw->rawq_lock; the CEQ thread and the senders find it under RCU.
 * irdma_ilq_destroy() unpublishes it, waits a grace period and frees it.
 * The CM uses it only while attached.
 */
struct irdma_ilq {
	struct irdma_hw *hw;
	struct irdma_device *iwdev;
	const char *name;
	u32 qpn;
	u32 cqn;
	u32 buf_size;
	bool ieq;
	struct irdma_cm_core *core;
	spinlock_t cq_lock; /* CQ, RQ, rx_posted, core */
	spinlock_t tx_lock; /* SQ, tx_free, tx[].busy, tx[].ah */
	struct irdma_uk_qp qp;
	struct irdma_uk_cq cq;
	struct irdma_dma_mem sq_mem;
	struct irdma_dma_mem rq_mem;
	struct irdma_dma_mem qp_shadow;
	struct irdma_dma_mem qp_ctx;
	struct irdma_dma_mem cq_mem;
	struct irdma_dma_mem cq_shadow;
	struct irdma_dma_mem rx_mem;
	struct irdma_dma_mem tx_mem;
	struct irdma_uk_sq_slot sq_slots[IRDMA_ILQ_SQ_SIZE];
	u64 rq_wrid[IRDMA_ILQ_RQ_SIZE];
	bool rx_posted[IRDMA_ILQ_RX_BUFS];
	struct irdma_ilq_tx tx[IRDMA_ILQ_TX_BUFS];
	DECLARE_BITMAP(tx_free, IRDMA_ILQ_TX_BUFS);
	struct ida ah_ida;
	atomic_t ah_cnt;
	atomic64_t stats[IRDMA_ILQ_STAT_COUNT];
	struct irdma_ieq_state ieq_st;
	struct irdma_qos_member qos;
};

#define ilq_stat(ilq, s) atomic64_inc(&(ilq)->stats[IRDMA_ILQ_STAT_##s])

static u64 irdma_ilq_cq_ctx(u32 cqn)
{
	/* as for every CQ, the number shifted: the context must be even */
	return (u64)cqn << 1;
}

/* @n counters of the queue @slot points to, zeros while it has none */
static void irdma_rawq_read_stats(struct irdma_ilq __rcu **slot, bool ieq,
				  u64 *vals, int n)
{
	struct irdma_ilq *q;
	int i;

	rcu_read_lock();
	q = rcu_dereference(*slot);
	for (i = 0; i < n; i++)
		vals[i] = !q ? 0 : atomic64_read(ieq ? &q->ieq_st.stats[i] :
						       &q->stats[i]);
	rcu_read_unlock();
}

/**
 * irdma_ieq_read_stats - a snapshot of the IEQ's counters
 * @hw: engine
 * @vals: IRDMA_IEQ_STAT_COUNT values, in the order of enum irdma_ieq_stat;
 *	zeros while the engine has no IEQ
 *
 * Context: any; the IEQ is freed only after an RCU grace period.
 */
void irdma_ieq_read_stats(struct irdma_hw *hw, u64 *vals)
{
	irdma_rawq_read_stats(&hw->ieq, true, vals, IRDMA_IEQ_STAT_COUNT);
}

/**
 * irdma_ilq_read_stats - a snapshot of the ILQ's counters
 * @hw: engine
 * @vals: IRDMA_ILQ_STAT_COUNT values, in the order of enum irdma_ilq_stat;
 *	zeros while the engine has no ILQ
 *
 * Context: any; the ILQ is freed only after an RCU grace period.
 */
void irdma_ilq_read_stats(struct irdma_hw *hw, u64 *vals)
{
	irdma_rawq_read_stats(&hw->ilq, false, vals, IRDMA_ILQ_STAT_COUNT);
}

/* ---- CQP commands ---- */

static int irdma_ilq_cq_cmd(struct irdma_ilq *ilq, bool create)
{
	struct irdma_cqp_cq_info info = {
		.ring_pa = ilq->cq_mem.pa,
		.shadow_pa = ilq->cq_shadow.pa,
		.compl_ctx = irdma_ilq_cq_ctx(ilq->cqn),
		.size = IRDMA_ILQ_CQ_SIZE,
		.cq_id = ilq->cqn,
		.ceq_id = 0,
		.ceq_id_valid = true,
		.ceqe_mask = true,
		.check_overflow = true,
		.hw_rev = ilq->hw->fn->gen,
		.vsi = ilq->hw->fn->vsi_id,
	};
	struct irdma_cmd cmd = {
		.build = create ? irdma_cqpw_cq_create_cb :
				  irdma_cqpw_cq_destroy_cb,
		.arg = &info,
		.name = create ? (ilq->ieq ? "CREATE_CQ (IEQ)" : "CREATE_CQ (ILQ)") :
				 (ilq->ieq ? "DESTROY_CQ (IEQ)" : "DESTROY_CQ (ILQ)"),
	};

	return irdma_cmd_exec(ilq->hw, &cmd);
}

static int irdma_ilq_qp_cmd(struct irdma_ilq *ilq, bool create)
{
	struct irdma_cqp_qp_info info = {
		.ctx_pa = ilq->qp_ctx.pa,
		.shadow_pa = ilq->qp_shadow.pa,
		.qp_id = ilq->qpn,
		.qp_type = IRDMA_QPTYPE_UDA,
		.next_state = create ? IRDMA_QPS_RTS : 0,
		.cq_num_valid = create,
	};
	struct irdma_cmd cmd = {
		.build = create ? irdma_cqpw_qp_create_cb :
				  irdma_cqpw_qp_destroy_cb,
		.arg = &info,
		.name = create ? (ilq->ieq ? "CREATE_QP (IEQ)" : "CREATE_QP (ILQ)") :
				 (ilq->ieq ? "DESTROY_QP (IEQ)" : "DESTROY_QP (ILQ)"),
	};

	return irdma_cmd_exec(ilq->hw, &cmd);
}

/* The host context: rings, sizes, buffer size, CQ 1 for both queues */
static int irdma_ilq_fill_ctx(struct irdma_ilq *ilq)
{
	struct irdma_qpc_common c = {
		.sq_pa = ilq->sq_mem.pa,
		.rq_pa = ilq->rq_mem.pa,
		.sq_size_log2 = ilog2(IRDMA_ILQ_SQ_SIZE) - 2,
		.rq_size_log2 = ilog2(IRDMA_ILQ_RQ_SIZE) - 2,
		.snd_mss = ilq->buf_size,
		.send_cq = ilq->cqn,
		.recv_cq = ilq->cqn,
		.compl_ctx = irdma_ilq_cq_ctx(ilq->cqn),
		.qs_handle = irdma_qos_handle(ilq->hw, &ilq->qos),
		.priv_en = true,
	};

	return irdma_qpc_write_uda(ilq->qp_ctx.va, &c);
}

/* ---- memory ---- */

static void irdma_ilq_free_mem(struct irdma_ilq *ilq)
{
	struct device *dev = ilq->hw->dev;

	irdma_dma_free(dev, &ilq->tx_mem);
	irdma_dma_free(dev, &ilq->rx_mem);
	irdma_dma_free(dev, &ilq->cq_shadow);
	irdma_dma_free(dev, &ilq->cq_mem);
	irdma_dma_free(dev, &ilq->qp_ctx);
	irdma_dma_free(dev, &ilq->qp_shadow);
	irdma_dma_free(dev, &ilq->rq_mem);
	irdma_dma_free(dev, &ilq->sq_mem);
}

static int irdma_ilq_alloc_mem(struct irdma_ilq *ilq)
{
	struct device *dev = ilq->hw->dev;

	if (irdma_dma_alloc(dev, &ilq->sq_mem,
			    IRDMA_ILQ_SQ_SIZE * IRDMA_QUANTUM_BYTES) ||
	    irdma_dma_alloc(dev, &ilq->rq_mem,
			    IRDMA_ILQ_RQ_SIZE * IRDMA_QUANTUM_BYTES) ||
	    irdma_dma_alloc(dev, &ilq->qp_shadow, IRDMA_SHADOW_AREA_BYTES) ||
	    irdma_dma_alloc(dev, &ilq->qp_ctx, IRDMA_QP_CTX_BYTES) ||
	    irdma_dma_alloc(dev, &ilq->cq_mem,
			    IRDMA_ILQ_CQ_SIZE * IRDMA_QUANTUM_BYTES) ||
	    irdma_dma_alloc(dev, &ilq->cq_shadow, IRDMA_SHADOW_AREA_BYTES) ||
	    irdma_dma_alloc(dev, &ilq->rx_mem,
			    IRDMA_ILQ_RX_BUFS * ilq->buf_size) ||
	    irdma_dma_alloc(dev, &ilq->tx_mem,
			    IRDMA_ILQ_TX_BUFS * ilq->buf_size)) {
		irdma_ilq_free_mem(ilq);
		return -ENOMEM;
	}
	return 0;
}

/* The uk.c views of the rings */
static int irdma_ilq_init_rings(struct irdma_ilq *ilq)
{
	struct irdma_uk_qp *qp = &ilq->qp;
	struct irdma_uk_cq *cq = &ilq->cq;

	cq->ring = ilq->cq_mem.va;
	cq->shadow = ilq->cq_shadow.va;
	cq->mmio = &ilq->hw->mmio;
	cq->arm_off = ilq->hw->regs->cq_arm;
	cq->cq_id = ilq->cqn;
	cq->size = IRDMA_ILQ_CQ_SIZE;
	cq->hw_rev = ilq->hw->fn->gen;
	qp->sq = ilq->sq_mem.va;
	qp->rq = ilq->rq_mem.va;
	qp->sq_slots = ilq->sq_slots;
	qp->rq_wrid = ilq->rq_wrid;
	qp->shadow = ilq->qp_shadow.va;
	qp->mmio = &ilq->hw->mmio;
	qp->db_off = ilq->hw->regs->wqe_alloc;
	qp->qp_id = ilq->qpn;
	qp->sq_size = IRDMA_ILQ_SQ_SIZE;
	qp->rq_size = IRDMA_ILQ_RQ_SIZE;
	qp->rq_shift = 0;
	qp->hw_rev = ilq->hw->fn->gen;
	qp->max_frags = 1;
	if (irdma_uk_cq_init(cq) || irdma_uk_qp_init(qp))
		return -EINVAL;
	return 0;
}

/* ---- receive ---- */

static void *irdma_ilq_rx_buf(struct irdma_ilq *ilq, u32 idx)
{
	return (u8 *)ilq->rx_mem.va + (size_t)idx * ilq->buf_size;
}

static int irdma_ilq_post_rx(struct irdma_ilq *ilq, u32 idx)
{
	struct irdma_uk_sge sge = {
		.addr = ilq->rx_mem.pa + (u64)idx * ilq->buf_size,
		.len = ilq->buf_size,
	};
	int ret;

	lockdep_assert_held(&ilq->cq_lock);
	ret = irdma_uk_post_recv(&ilq->qp, idx, &sge, 1);
	if (!ret)
		ilq->rx_posted[idx] = true;
	return ret;
}

static void irdma_ilq_bad_cqe(struct irdma_ilq *ilq,
			      const struct irdma_uk_cqe *cqe, const char *why)
{
	ilq_stat(ilq, BAD_CQE);
	ibdev_warn_ratelimited(&ilq->iwdev->ibdev,
			       "%s: %s CQE dropped (%s): QP %u WQE %u bytes %u major 0x%x minor 0x%x\n",
			       ilq->name, cqe->sq ? "send" : "receive", why, cqe->qp_id,
			       cqe->wqe_idx, cqe->bytes, cqe->major,
			       cqe->minor);
}

/*
 * A received segment to the CM, or to the IEQ's partial FPDU handling:
 * the IP header at byte 20 or 0
 */
static void irdma_ilq_deliver(struct irdma_ilq *ilq,
			      const struct irdma_uk_cqe *cqe, const u8 *buf)
{
	struct irdma_cm_rx_info rxi = {
		.l3 = true,
		.ipv4 = cqe->ipv4,
		.smac_valid = cqe->smac_valid,
		.vlan_valid = cqe->vlan_valid,
		.vlan_tci = cqe->ud_vlan,
	};
	u32 off = cqe->ipv4 ? IRDMA_ILQ_RX_IPV4_OFF : 0;
	int ret;

	/* gen1: the whole frame, its tag in place, for the CM to parse */
	if (ilq->hw->fn->gen == IRDMA_GEN_1) {
		rxi = (struct irdma_cm_rx_info){};
		off = 0;
	}
	u64_to_ether_addr(cqe->ud_smac, rxi.smac);
	if (!ilq->core)
		ret = -ENODEV;
	else if (ilq->ieq)
		ret = irdma_ieq_rx(ilq->iwdev, ilq->core, buf + off,
				   cqe->bytes - off, &rxi, &ilq->ieq_st);
	else
		ret = irdma_receive_ilq(ilq->core, buf + off, cqe->bytes - off,
					&rxi);
	if (!ret)
		ilq_stat(ilq, RX);
	else
		ilq_stat(ilq, RX_REFUSED);
}

/*
 * Receives complete in order, as frames arrive: a CQE must name the oldest
 * posted WQE. As for sends, an error completes that receive alone.
 */
static void irdma_ilq_rx_cqe(struct irdma_ilq *ilq,
			     const struct irdma_uk_cqe *cqe)
{
	struct irdma_uk_cqe one = *cqe;
	struct irdma_uk_done done;
	u32 idx;

	lockdep_assert_held(&ilq->cq_lock);
	one.major = 0;
	if (ilq->qp.rq_tail == ilq->qp.rq_head ||
	    cqe->wqe_idx != ilq->qp.rq_tail ||
	    irdma_uk_qp_complete(&ilq->qp, &one, &done)) {
		irdma_ilq_bad_cqe(ilq, cqe, "no such WQE");
		return;
	}
	idx = done.wr_id;
	if (idx >= IRDMA_ILQ_RX_BUFS || !ilq->rx_posted[idx]) {
		irdma_ilq_bad_cqe(ilq, cqe, "buffer not posted");
		return;
	}
	ilq->rx_posted[idx] = false;
	if (cqe->error)
		irdma_ilq_bad_cqe(ilq, cqe, "error");
	else if (cqe->bytes < (ilq->hw->fn->gen == IRDMA_GEN_1 ?
				IRDMA_ILQ_RX_MIN_G1 : IRDMA_ILQ_RX_MIN) ||
		 cqe->bytes > ilq->buf_size)
		irdma_ilq_bad_cqe(ilq, cqe, "length");
	else
		irdma_ilq_deliver(ilq, cqe, irdma_ilq_rx_buf(ilq, idx));
	if (irdma_ilq_post_rx(ilq, idx))
		ibdev_warn_ratelimited(&ilq->iwdev->ibdev,
				       "%s: receive buffer %u not posted again\n",
				       ilq->name, idx);
}

/* ---- send completions ---- */

/* Give back a send buffer and the AH reference it held */
static void irdma_ilq_tx_put(struct irdma_ilq *ilq, u32 idx)
{
	struct irdma_ilq_tx *tx = &ilq->tx[idx];
	struct irdma_ilq_ah *ah;
	unsigned long flags;

	spin_lock_irqsave(&ilq->tx_lock, flags);
	ah = tx->ah;
	tx->ah = NULL;
	tx->busy = false;
	set_bit(idx, ilq->tx_free);
	spin_unlock_irqrestore(&ilq->tx_lock, flags);
	irdma_ilq_ah_put(ah);
}

/*
 * Retire the send a CQE names. Every send is signalled and one quantum
 * long, so the engine completes them in order: a CQE must name the oldest
 * outstanding one. An error completes that send alone (the ILQ is never
 * flushed; the engine goes on with the next). Return: its buffer, or
 * -EIO.
 */
static int irdma_ilq_tx_retire(struct irdma_ilq *ilq,
			       const struct irdma_uk_cqe *cqe)
{
	struct irdma_uk_cqe one = *cqe;
	struct irdma_uk_qp *qp = &ilq->qp;
	struct irdma_uk_done done;
	unsigned long flags;
	int ret = -EIO;

	one.major = 0;
	spin_lock_irqsave(&ilq->tx_lock, flags);
	if (qp->sq_tail != qp->sq_head && cqe->wqe_idx == qp->sq_tail &&
	    !irdma_uk_qp_complete(qp, &one, &done) &&
	    done.wr_id < IRDMA_ILQ_TX_BUFS && ilq->tx[done.wr_id].busy)
		ret = done.wr_id;
	spin_unlock_irqrestore(&ilq->tx_lock, flags);
	return ret;
}

static void irdma_ilq_tx_cqe(struct irdma_ilq *ilq,
			     const struct irdma_uk_cqe *cqe)
{
	int idx = irdma_ilq_tx_retire(ilq, cqe);

	if (idx < 0) {
		irdma_ilq_bad_cqe(ilq, cqe, "no such send");
		return;
	}
	if (cqe->error) {
		ilq_stat(ilq, TX_ERR);
		ibdev_dbg(&ilq->iwdev->ibdev,
			  "%s: send %d failed: major 0x%x minor 0x%x\n",
			  ilq->name, idx, cqe->major, cqe->minor);
	}
	irdma_ilq_tx_put(ilq, idx);
	if (ilq->ieq)
		irdma_ieq_tx_done(&ilq->ieq_st);
}

/* ---- the CQ ---- */

static void irdma_ilq_cqe(struct irdma_ilq *ilq, const struct irdma_uk_cqe *cqe)
{
	if (cqe->qp_id != ilq->qpn)
		irdma_ilq_bad_cqe(ilq, cqe, "other QP");
	else if (cqe->sq)
		irdma_ilq_tx_cqe(ilq, cqe);
	else
		irdma_ilq_rx_cqe(ilq, cqe);
}

/* Take every CQE, then arm; look once more for one that beat the arm */
static void irdma_ilq_poll(struct irdma_ilq *ilq)
{
	struct irdma_uk_cqe cqe;

	spin_lock_bh(&ilq->cq_lock);
	for (;;) {
		while (!irdma_uk_cq_peek(&ilq->cq, &cqe)) {
			irdma_ilq_cqe(ilq, &cqe);
			irdma_uk_cq_advance(&ilq->cq, &cqe);
		}
		irdma_uk_cq_arm(&ilq->cq, false);
		if (irdma_uk_cq_peek(&ilq->cq, &cqe))
			break;
	}
	spin_unlock_bh(&ilq->cq_lock);
}

/**
 * irdma_ilq_ceq_event - take a CEQ element that names the ILQ's or IEQ's CQ
 * @hw: the engine
 * @cq_ctx: the completion context from the element
 *
 * Only an iWARP function keeps those CQ numbers for them; on a RoCEv2
 * function they are verbs CQs' (the MAD layer's, usually).
 *
 * Context: a CEQ's interrupt thread.
 * Return: true if @cq_ctx is the ILQ's or the IEQ's (the event is
 * consumed, even with no such queue at the moment), false to look for a
 * verbs CQ.
 */
bool irdma_ilq_ceq_event(struct irdma_hw *hw, u64 cq_ctx)
{
	struct irdma_ilq *ilq;
	bool ieq;

	if (hw->fn->protocol != IRDMA_PROTOCOL_IWARP)
		return false;
	if (cq_ctx == irdma_ilq_cq_ctx(IRDMA_IEQ_CQN))
		ieq = true;
	else if (cq_ctx == irdma_ilq_cq_ctx(IRDMA_ILQ_CQN))
		ieq = false;
	else
		return false;
	rcu_read_lock();
	ilq = ieq ? rcu_dereference(hw->ieq) : rcu_dereference(hw->ilq);
	if (ilq)
		irdma_ilq_poll(ilq);
	rcu_read_unlock();
	return true;
}

/* ---- send ---- */

/* On the command workqueue: behind the commands the send depends on */
static void irdma_ilq_tx_work(struct work_struct *work)
{
	struct irdma_ilq_tx *tx = container_of(work, struct irdma_ilq_tx, work);
	struct irdma_ilq *ilq = tx->ilq;
	struct irdma_uk_sge sge = {
		.addr = ilq->tx_mem.pa + (u64)tx->idx * ilq->buf_size,
		.len = tx->len,
	};
	struct irdma_uk_wr wr = {
		.wr_id = tx->idx,
		.op = IRDMA_WQEOP_SEND,
		.sg = &sge,
		.num_sge = 1,
		.ah_id = tx->ah ? tx->ah->idx : 0,
		.l4len = tx->l4len,
		.maclen = tx->maclen,
		.iplen = tx->iplen,
		.ipv4 = tx->ipv4,
		.loopback = ilq->ieq || tx->loopback,
		.signaled = true,
	};
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&ilq->tx_lock, flags);
	ret = irdma_uk_post_send(&ilq->qp, &wr);
	if (!ret)
		irdma_uk_ring_sq_db(&ilq->qp);
	spin_unlock_irqrestore(&ilq->tx_lock, flags);
	if (!ret) {
		ilq_stat(ilq, TX);
		return;
	}
	ilq_stat(ilq, TX_ERR);
	ibdev_warn_ratelimited(&ilq->iwdev->ibdev,
			       "%s: send of buffer %u not posted: %d\n",
			       ilq->name, tx->idx, ret);
	irdma_ilq_tx_put(ilq, tx->idx);
}

/* A free send buffer, taken, or NULL */
static struct irdma_ilq_tx *irdma_ilq_tx_get(struct irdma_ilq *ilq,
					     struct irdma_ilq_ah *ah)
{
	struct irdma_ilq_tx *tx = NULL;
	unsigned long flags;
	u32 idx;

	spin_lock_irqsave(&ilq->tx_lock, flags);
	idx = find_first_bit(ilq->tx_free, IRDMA_ILQ_TX_BUFS);
	if (idx < IRDMA_ILQ_TX_BUFS) {
		clear_bit(idx, ilq->tx_free);
		tx = &ilq->tx[idx];
		tx->busy = true;
		if (ah)
			refcount_inc(&ah->refs);
		tx->ah = ah;
	}
	spin_unlock_irqrestore(&ilq->tx_lock, flags);
	return tx;
}

/*
 * The headers of a gen1 frame (@hdr, @hlen bytes of it): Ethernet with
 * an optional tag, IPv4 without options or IPv6 without extensions, TCP
 */
static int irdma_rawq_frame_g1(const u8 *hdr, u32 hlen, u32 len,
			       struct irdma_ilq_tx *f)
{
	const struct tcphdr *th;
	u32 l3 = ETH_HLEN;
	__be16 proto;

	if (hlen < ETH_HLEN)
		return -EINVAL;
	proto = ((const struct ethhdr *)hdr)->h_proto;
	if (proto == htons(ETH_P_8021Q)) {
		l3 = VLAN_ETH_HLEN;
		if (hlen < l3)
			return -EINVAL;
		proto = ((const struct vlan_ethhdr *)hdr)->h_vlan_encapsulated_proto;
	}
	if (proto == htons(ETH_P_IP)) {
		if (hlen < l3 + sizeof(struct iphdr) ||
		    ((const struct iphdr *)(hdr + l3))->ihl != 5 ||
		    ((const struct iphdr *)(hdr + l3))->protocol != IPPROTO_TCP)
			return -EINVAL;
		f->iplen = sizeof(struct iphdr);
		f->ipv4 = true;
	} else if (proto == htons(ETH_P_IPV6)) {
		if (hlen < l3 + sizeof(struct ipv6hdr) ||
		    ((const struct ipv6hdr *)(hdr + l3))->nexthdr != IPPROTO_TCP)
			return -EINVAL;
		f->iplen = sizeof(struct ipv6hdr);
		f->ipv4 = false;
	} else {
		return -EINVAL;
	}
	f->maclen = l3;
	/* both ends of the connection on this function */
	f->loopback = ether_addr_equal(((const struct ethhdr *)hdr)->h_dest,
				       ((const struct ethhdr *)hdr)->h_source);
	if (hlen < l3 + f->iplen + sizeof(*th))
		return -EINVAL;
	th = (const struct tcphdr *)(hdr + l3 + f->iplen);
	if (th->doff * 4 < sizeof(*th) || l3 + f->iplen + th->doff * 4 > len)
		return -EINVAL;
	f->l4len = th->doff;
	return 0;
}

/*
 * Copy a segment (@hdr, then @data) into a free send buffer and post it;
 * its TCP header is at the start of @hdr (gen2, which puts Ethernet and IP
 * in front from @ah), or @hdr is a whole frame (gen1, no AH)
 */
static int irdma_rawq_xmit(struct irdma_ilq *ilq, struct irdma_ilq_ah *ah,
			   const void *hdr, u32 hlen, const void *data,
			   u32 dlen)
{
	const struct tcphdr *th = hdr;
	struct irdma_ilq_tx f = {};
	struct irdma_ilq_tx *tx;
	u32 len = hlen + dlen;
	u8 *buf;

	if (!ilq || len < hlen || len > ilq->buf_size)
		return -EINVAL;
	if (ilq->hw->fn->gen == IRDMA_GEN_1) {
		if (ah || irdma_rawq_frame_g1(hdr, hlen, len, &f))
			return -EINVAL;
	} else {
		if (!ah || hlen < sizeof(*th) || th->doff * 4 < sizeof(*th) ||
		    th->doff * 4 > len)
			return -EINVAL;
		f.l4len = th->doff;
	}
	tx = irdma_ilq_tx_get(ilq, ah);
	if (!tx) {
		ilq_stat(ilq, TX_NOBUF);
		return -ENOBUFS;
	}
	buf = (u8 *)ilq->tx_mem.va + (size_t)tx->idx * ilq->buf_size;
	memcpy(buf, hdr, hlen);
	if (dlen)
		memcpy(buf + hlen, data, dlen);
	tx->len = len;
	tx->l4len = f.l4len;
	tx->maclen = f.maclen;
	tx->iplen = f.iplen;
	tx->ipv4 = f.ipv4;
	tx->loopback = f.loopback;
	queue_work(ilq->hw->cmd_wq, &tx->work);
	return 0;
}

/**
 * irdma_ilq_xmit - send one TCP segment of the CM
 * @hw: the engine; its ILQ exists (the CM is attached)
 * @ah: the connection's AH, from irdma_ilq_ah_create()
 * @seg: the segment: TCP header with options, then the payload
 * @len: its length
 *
 * The segment is copied; the engine puts Ethernet and IP in front of it
 * from @ah.
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL for a segment that is not one or does not fit a
 * buffer, -ENOBUFS when every send buffer is busy.
 */
int irdma_ilq_xmit(struct irdma_hw *hw, struct irdma_ilq_ah *ah,
		   const void *seg, u32 len)
{
	int ret;

	rcu_read_lock();
	ret = irdma_rawq_xmit(rcu_dereference(hw->ilq), ah, seg, len, NULL, 0);
	rcu_read_unlock();
	return ret;
}

/**
 * irdma_ieq_unwait - take a stream out of the IEQ's wait list
 * @hw: the engine
 * @s: a QP's stream, about to be given up (its QP unpublished)
 *
 * Context: process context.
 */
void irdma_ieq_unwait(struct irdma_hw *hw, struct irdma_ieq_stream *s)
{
	struct irdma_ilq *ieq;

	rcu_read_lock();
	ieq = rcu_dereference(hw->ieq);
	if (ieq) {
		spin_lock_bh(&ieq->cq_lock);
		if (s->waiting) {
			list_del_init(&s->wait);
			s->waiting = false;
		}
		spin_unlock_bh(&ieq->cq_lock);
	}
	rcu_read_unlock();
}

/**
 * irdma_ieq_xmit - hand complete FPDUs back to the engine
 * @hw: the engine; its IEQ exists
 * @ah: an AH made with the loopback flag, naming the connection as its
 *	segments arrive (source the peer, destination this function)
 * @tcp: a TCP header as the peer sent it, its sequence number that of
 *	the first byte of @fpdus
 * @tcp_len: its bytes, options included
 * @fpdus: whole FPDUs
 * @len: their bytes
 *
 * The engine takes the segment as received by the connection (see
 * hw-interface.rst, "Partial FPDUs (IEQ)").
 *
 * Context: any; does not sleep.
 * Return: as irdma_ilq_xmit().
 */
int irdma_ieq_xmit(struct irdma_hw *hw, struct irdma_ilq_ah *ah,
		   const void *tcp, u32 tcp_len, const void *fpdus, u32 len)
{
	int ret;

	rcu_read_lock();
	ret = irdma_rawq_xmit(rcu_dereference(hw->ieq), ah, tcp, tcp_len,
			      fpdus, len);
	rcu_read_unlock();
	return ret;
}

/* ---- address handles ---- */

/*
 * The AH on @ilq (NULL if there is none), inside an RCU read-side section.
 * The AH keeps naming the ILQ afterwards: irdma_ilq_destroy() comes after
 * the CM's clean-up, which puts every AH.
 */
static struct irdma_ilq_ah *irdma_ilq_ah_make(struct irdma_ilq *ilq,
					      struct irdma_cqp_ah_info *info)
{
	struct irdma_hw *hw;
	u32 max;
	struct irdma_cmd_req *req;
	struct irdma_ilq_ah *ah;
	int idx;

	if (!ilq)
		return ERR_PTR(-EINVAL);
	hw = ilq->hw;
	/* the engine's AH contexts (FSIAV) bound the indexes too */
	max = min_t(u32, IRDMA_ILQ_AH_MAX, hw->hmc.obj[IRDMA_HMC_FSIAV].cnt);
	if (max < 2)
		return ERR_PTR(-ENOSPC);
	ah = kzalloc(sizeof(*ah), GFP_ATOMIC);
	if (!ah)
		return ERR_PTR(-ENOMEM);
	idx = ida_alloc_range(&ilq->ah_ida, 1, max - 1, GFP_ATOMIC);
	if (idx < 0) {
		kfree(ah);
		return ERR_PTR(idx);
	}
	info->ah_idx = idx;
	info->op = IRDMA_CQPOP_DESTROY_AH;
	ah->destroy = irdma_cmd_req_alloc(irdma_cqpw_ah_cb, info,
					  sizeof(*info), "DESTROY_AH (CM)",
					  GFP_ATOMIC);
	info->op = IRDMA_CQPOP_CREATE_AH;
	req = ah->destroy ?
	      irdma_cmd_req_alloc(irdma_cqpw_ah_cb, info, sizeof(*info),
				  "CREATE_AH (CM)", GFP_ATOMIC) : NULL;
	if (!req) {
		irdma_cmd_req_free(ah->destroy);
		ida_free(&ilq->ah_ida, idx);
		kfree(ah);
		return ERR_PTR(-ENOMEM);
	}
	irdma_cmd_req_submit(hw, req);
	ah->ilq = ilq;
	ah->idx = idx;
	refcount_set(&ah->refs, 1);
	atomic_inc(&ilq->ah_cnt);
	return ah;
}

/**
 * irdma_ilq_ah_create - make an AH for the sends of one CM connection
 * @hw: the engine; its ILQ exists (the CM is attached)
 * @info: the headers to build; the index and opcode are filled in here
 *
 * CREATE_AH is posted without waiting; the sends that name the AH are
 * posted after it (irdma_ilq_xmit()).
 *
 * Context: any; does not sleep.
 * Return: the AH, holding one reference, or an ERR_PTR: -ENOMEM, -ENOSPC
 * when every index is taken, -EINVAL for a bad @info.
 */
struct irdma_ilq_ah *irdma_ilq_ah_create(struct irdma_hw *hw,
					 struct irdma_cqp_ah_info *info)
{
	struct irdma_ilq_ah *ah;

	rcu_read_lock();
	ah = irdma_ilq_ah_make(rcu_dereference(hw->ilq), info);
	rcu_read_unlock();
	return ah;
}

/**
 * irdma_ilq_ah_put - drop a reference to an AH
 * @ah: the AH, or NULL
 *
 * The last reference destroys the AH on the engine (posted without
 * waiting, after every send that named it has completed), with the
 * command made at its creation.
 *
 * Context: any; does not sleep.
 */
void irdma_ilq_ah_put(struct irdma_ilq_ah *ah)
{
	struct irdma_ilq *ilq;

	if (!ah || !refcount_dec_and_test(&ah->refs))
		return;
	ilq = ah->ilq;
	irdma_cmd_req_submit(ilq->hw, ah->destroy);
	/* a later CREATE_AH of the index runs after this command */
	ida_free(&ilq->ah_ida, ah->idx);
	atomic_dec(&ilq->ah_cnt);
	kfree(ah);
}

/* ---- bring-up and tear-down ---- */

/* The ILQ's and the IEQ's number in one table (QPs or CQs): both or none */
static int irdma_ilq_reserve_pair(struct xarray *xa, u32 ilq_id, u32 ieq_id)
{
	int ret;

	ret = xa_insert(xa, ilq_id, NULL, GFP_KERNEL);
	if (ret)
		return ret;
	ret = xa_insert(xa, ieq_id, NULL, GFP_KERNEL);
	if (ret)
		xa_erase(xa, ilq_id);
	return ret;
}

static void irdma_ilq_release_pair(struct xarray *xa, u32 ilq_id, u32 ieq_id)
{
	xa_erase(xa, ieq_id);
	xa_erase(xa, ilq_id);
}

/* Keep the privileged numbers away from verbs */
static int irdma_ilq_reserve_ids(struct irdma_hw *hw)
{
	int ret;

	ret = irdma_ilq_reserve_pair(&hw->qps, IRDMA_ILQ_QPN, IRDMA_IEQ_QPN);
	if (ret)
		return ret;
	ret = irdma_ilq_reserve_pair(&hw->cqs, IRDMA_ILQ_CQN, IRDMA_IEQ_CQN);
	if (ret)
		irdma_ilq_release_pair(&hw->qps, IRDMA_ILQ_QPN, IRDMA_IEQ_QPN);
	return ret;
}

static void irdma_ilq_release_ids(struct irdma_hw *hw)
{
	irdma_ilq_release_pair(&hw->cqs, IRDMA_ILQ_CQN, IRDMA_IEQ_CQN);
	irdma_ilq_release_pair(&hw->qps, IRDMA_ILQ_QPN, IRDMA_IEQ_QPN);
}

static struct irdma_ilq *irdma_ilq_alloc(struct irdma_device *iwdev,
					 bool ieq, u32 mtu)
{
	struct irdma_ilq *ilq;
	u32 i;

	ilq = kzalloc(sizeof(*ilq), GFP_KERNEL);
	if (!ilq)
		return NULL;
	ilq->hw = iwdev->fn->hw;
	ilq->iwdev = iwdev;
	ilq->ieq = ieq;
	ilq->name = ieq ? "IEQ" : "ILQ";
	ilq->qpn = ieq ? IRDMA_IEQ_QPN : IRDMA_ILQ_QPN;
	ilq->cqn = ieq ? IRDMA_IEQ_CQN : IRDMA_ILQ_CQN;
	/* the IEQ takes whole segments of offloaded connections */
	ilq->buf_size = IRDMA_ILQ_BUF_SIZE;
	if (ieq)
		ilq->buf_size = max_t(u32, ilq->buf_size,
				      ALIGN(IRDMA_ILQ_RX_TCP_OFF + mtu, 256));
	spin_lock_init(&ilq->cq_lock);
	spin_lock_init(&ilq->tx_lock);
	ida_init(&ilq->ah_ida);
	INIT_LIST_HEAD(&ilq->ieq_st.wait);
	bitmap_fill(ilq->tx_free, IRDMA_ILQ_TX_BUFS);
	for (i = 0; i < IRDMA_ILQ_TX_BUFS; i++) {
		INIT_WORK(&ilq->tx[i].work, irdma_ilq_tx_work);
		ilq->tx[i].ilq = ilq;
		ilq->tx[i].idx = i;
	}
	return ilq;
}

static void irdma_ilq_free(struct irdma_ilq *ilq)
{
	ida_destroy(&ilq->ah_ida);
	kfree(ilq);
}

static int irdma_ilq_post_all_rx(struct irdma_ilq *ilq)
{
	int ret = 0;
	u32 i;

	spin_lock_bh(&ilq->cq_lock);
	for (i = 0; i < IRDMA_ILQ_RX_BUFS && !ret; i++)
		ret = irdma_ilq_post_rx(ilq, i);
	spin_unlock_bh(&ilq->cq_lock);
	return ret;
}

/* The CQ, the receive buffers in the RQ, then the QP, live in RTS */
static int irdma_ilq_start(struct irdma_ilq *ilq)
{
	int ret;

	ret = irdma_ilq_init_rings(ilq);
	if (ret)
		return ret;
	/* born in RTS: it sends from the start */
	ret = irdma_qos_attach(ilq->hw, &ilq->qos, ilq->qpn);
	if (ret)
		return ret;
	ret = irdma_qos_activate(ilq->hw, &ilq->qos, 0);
	if (!ret)
		ret = irdma_ilq_fill_ctx(ilq);
	if (!ret)
		ret = irdma_ilq_post_all_rx(ilq);
	if (!ret)
		ret = irdma_ilq_cq_cmd(ilq, true);
	if (ret)
		goto err_detach;
	ret = irdma_ilq_qp_cmd(ilq, true);
	if (ret) {
		irdma_ilq_cq_cmd(ilq, false);
		goto err_detach;
	}
	return 0;

err_detach:
	irdma_qos_detach(ilq->hw, &ilq->qos);
	return ret;
}

/* The ILQ or the IEQ: made, started and published */
static int irdma_rawq_create(struct irdma_device *iwdev, bool ieq, u32 mtu)
{
	struct irdma_hw *hw = iwdev->fn->hw;
	struct irdma_ilq *ilq;
	int ret;

	ilq = irdma_ilq_alloc(iwdev, ieq, mtu);
	if (!ilq)
		return -ENOMEM;
	ret = irdma_ilq_alloc_mem(ilq);
	if (ret)
		goto err_free;
	ret = irdma_ilq_start(ilq);
	if (ret)
		goto err_free_mem;
	mutex_lock(&hw->rawq_lock);
	if (ieq)
		rcu_assign_pointer(hw->ieq, ilq);
	else
		rcu_assign_pointer(hw->ilq, ilq);
	mutex_unlock(&hw->rawq_lock);
	/* the first receive raises an event */
	irdma_ilq_poll(ilq);
	ibdev_dbg(&iwdev->ibdev, "%s: QP %u, CQ %u, %u receive and %u send buffers of %u bytes\n",
		  ilq->name, ilq->qpn, ilq->cqn, IRDMA_ILQ_RX_BUFS,
		  IRDMA_ILQ_TX_BUFS, ilq->buf_size);
	return 0;

err_free_mem:
	irdma_ilq_free_mem(ilq);
err_free:
	irdma_ilq_free(ilq);
	return ret;
}

/**
 * irdma_ilq_create - bring up the ILQ of an iWARP function
 * @iwdev: the device; its engine is up, its CM not yet set up
 *
 * Reserves QP and CQ numbers 1 and 2, creates CQ 1 and QP 1 with every
 * receive buffer posted, and publishes the ILQ for the CEQ thread. The CM
 * receives once irdma_ilq_attach() names it.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int irdma_ilq_create(struct irdma_device *iwdev)
{
	struct irdma_hw *hw = iwdev->fn->hw;
	int ret;

	ret = irdma_ilq_reserve_ids(hw);
	if (ret)
		goto err;
	ret = irdma_rawq_create(iwdev, false, 0);
	if (ret) {
		irdma_ilq_release_ids(hw);
		goto err;
	}
	return 0;
err:
	ibdev_err(&iwdev->ibdev, "ILQ bring-up failed: %d\n", ret);
	return ret;
}

/**
 * irdma_ieq_create - bring up the IEQ of an iWARP function
 * @iwdev: the device; its ILQ exists, its CM not yet attached
 * @mtu: the largest MTU its segments may come with: every buffer holds a
 *	full segment
 *
 * Creates CQ 2 and QP 2 (numbers the ILQ reserved) with every receive
 * buffer posted, and publishes the IEQ for the CEQ thread.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int irdma_ieq_create(struct irdma_device *iwdev, u32 mtu)
{
	int ret;

	ret = irdma_rawq_create(iwdev, true, mtu);
	if (ret)
		ibdev_err(&iwdev->ibdev, "IEQ bring-up failed: %d\n", ret);
	return ret;
}

/**
 * irdma_ilq_attach - let the CM receive, or stop it
 * @hw: the engine; its ILQ exists, its IEQ may
 * @core: the CM core, set up; NULL to detach before it is cleaned up
 *
 * Both queues are attached: the IEQ finds its connections through the CM.
 * Detaching waits for a segment being delivered; later segments are
 * dropped.
 *
 * Context: process context.
 */
void irdma_ilq_attach(struct irdma_hw *hw, struct irdma_cm_core *core)
{
	struct irdma_ilq __rcu **slots[] = { &hw->ilq, &hw->ieq };
	struct irdma_ilq *q;
	u32 i;

	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(slots); i++) {
		q = rcu_dereference(*slots[i]);
		if (!q)
			continue;
		spin_lock_bh(&q->cq_lock);
		q->core = core;
		spin_unlock_bh(&q->cq_lock);
	}
	rcu_read_unlock();
}

/**
 * irdma_ilq_qs_handle - the queue set of the ILQ's QP
 * @hw: the engine
 *
 * The queue set a MANAGE_QHASH names: its filter steers segments to the
 * ILQ. Read without the QoS lock, as callers may not sleep: a filter added
 * during a traffic-class change may name the old set.
 *
 * Return: the handle, 0 while there is no ILQ.
 */
u16 irdma_ilq_qs_handle(struct irdma_hw *hw)
{
	struct irdma_ilq *ilq;
	u16 handle = 0;

	rcu_read_lock();
	ilq = rcu_dereference(hw->ilq);
	if (ilq)
		handle = READ_ONCE(ilq->qos.qs_handle);
	rcu_read_unlock();
	return handle;
}

static bool irdma_ilq_tx_idle(struct irdma_ilq *ilq)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&ilq->tx_lock, flags);
	idle = bitmap_full(ilq->tx_free, IRDMA_ILQ_TX_BUFS);
	spin_unlock_irqrestore(&ilq->tx_lock, flags);
	return idle;
}

/* Let the sends queued and posted finish, as far as the engine does */
static void irdma_ilq_drain(struct irdma_ilq *ilq)
{
	unsigned int waited = 0;

	flush_workqueue(ilq->hw->cmd_wq);
	while (!irdma_ilq_tx_idle(ilq) && !atomic_read(&ilq->hw->halted) &&
	       waited < IRDMA_ILQ_DRAIN_MS) {
		irdma_ilq_poll(ilq);
		msleep(20);
		waited += 20;
	}
}

/* Sends the engine never completed: their buffers and AH references */
static void irdma_ilq_tx_abandon(struct irdma_ilq *ilq)
{
	u32 i, left = 0;

	for (i = 0; i < IRDMA_ILQ_TX_BUFS; i++) {
		if (test_bit(i, ilq->tx_free))
			continue;
		irdma_ilq_tx_put(ilq, i);
		left++;
	}
	if (left)
		ibdev_warn(&ilq->iwdev->ibdev, "%s: %u sends never completed\n",
			   ilq->name, left);
}

/* Drain and unpublish the ILQ or the IEQ: the queue, or NULL if none */
static struct irdma_ilq *irdma_rawq_unpublish(struct irdma_hw *hw, bool ieq)
{
	struct irdma_ilq __rcu **slot = ieq ? &hw->ieq : &hw->ilq;
	struct irdma_ilq *ilq;

	mutex_lock(&hw->rawq_lock);
	ilq = rcu_dereference_protected(*slot, lockdep_is_held(&hw->rawq_lock));
	if (ilq) {
		irdma_ilq_drain(ilq);
		RCU_INIT_POINTER(*slot, NULL);
	}
	mutex_unlock(&hw->rawq_lock);
	if (ilq)
		synchronize_rcu();
	return ilq;
}

/* Unpublish, drain and destroy the ILQ or the IEQ; false if there is none */
static bool irdma_rawq_destroy(struct irdma_device *iwdev, bool ieq)
{
	struct irdma_hw *hw = iwdev->fn->hw;
	struct irdma_ilq *ilq;

	ilq = irdma_rawq_unpublish(hw, ieq);
	if (!ilq)
		return false;
	irdma_ilq_qp_cmd(ilq, false);
	irdma_qos_detach(hw, &ilq->qos);
	irdma_ilq_cq_cmd(ilq, false);
	irdma_ilq_tx_abandon(ilq);
	/* the DESTROY_AH commands of the last puts */
	flush_workqueue(hw->cmd_wq);
	if (!ieq && atomic_read(&ilq->ah_cnt))
		ibdev_warn(&iwdev->ibdev, "ILQ: %d AHs left at destroy\n",
			   atomic_read(&ilq->ah_cnt));
	ibdev_dbg(&iwdev->ibdev, "%s: rx %lld refused %lld tx %lld nobuf %lld tx_err %lld bad CQEs %lld\n",
		  ilq->name,
		  (s64)atomic64_read(&ilq->stats[IRDMA_ILQ_STAT_RX]),
		  (s64)atomic64_read(&ilq->stats[IRDMA_ILQ_STAT_RX_REFUSED]),
		  (s64)atomic64_read(&ilq->stats[IRDMA_ILQ_STAT_TX]),
		  (s64)atomic64_read(&ilq->stats[IRDMA_ILQ_STAT_TX_NOBUF]),
		  (s64)atomic64_read(&ilq->stats[IRDMA_ILQ_STAT_TX_ERR]),
		  (s64)atomic64_read(&ilq->stats[IRDMA_ILQ_STAT_BAD_CQE]));
	irdma_ilq_free_mem(ilq);
	irdma_ilq_free(ilq);
	return true;
}

/**
 * irdma_ieq_destroy - undo irdma_ieq_create()
 * @iwdev: the device; its CM is detached, its QPs' partial FPDU state
 *	given up (irdma_ieq_qp_release()), its engine still up
 *
 * Context: process context; sleeps.
 */
void irdma_ieq_destroy(struct irdma_device *iwdev)
{
	irdma_rawq_destroy(iwdev, true);
}

/**
 * irdma_ilq_destroy - undo irdma_ilq_create()
 * @iwdev: the device; its CM is detached and cleaned up (so every AH of
 *	a connection was put), its IEQ destroyed, its engine still up
 *
 * Context: process context; sleeps.
 */
void irdma_ilq_destroy(struct irdma_device *iwdev)
{
	if (irdma_rawq_destroy(iwdev, false))
		irdma_ilq_release_ids(iwdev->fn->hw);
}
