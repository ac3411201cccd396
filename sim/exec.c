// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the data path. SQ and RQ WQEs are read from the rings the
 * QP host context names, executed, and completed with CQEs.
 *
 * What runs:
 * - RoCEv2 RC QPs in RTS whose context names a destination QP of the same
 *   function (loopback): SEND (solicited too), SEND with immediate, RDMA
 *   WRITE (with immediate), RDMA READ, inline data, NOP. The responder
 *   must be an RC QP in RTR or RTS; SENDs and WRITEs with immediate take
 *   its next RQ WQE.
 * - Errors: the WQE completes with major "flushed" and a minor naming the
 *   cause (local protection, remote access, length, retries exceeded); the
 *   QP goes to the error state and an AE reports it. Execution stops
 *   there: the driver moves the QP to error and flushes it.
 * - No RQ WQE at the responder (an RNR NAK): with an RNR retry count of
 *   7 the sender tries again on every tick; with a count n below 7 it
 *   tries n more times, ISIM_RNR_WAIT_MS apart, and then fails with
 *   "retries exceeded".
 * - Flushing: after FLUSH_WQES, every WQE posted to a flushed queue is
 *   completed with a flush error on the next tick. The engine watches the
 *   ring itself, as it does not rely on doorbells (below), so a WR posted
 *   to a QP in error completes without the driver issuing a flush again.
 *
 * The doorbell register keeps only the last value written, so a pass a
 * doorbell starts looks at every QP (isim_exec_run()). As each SQ WQE is
 * fetched, the SQ tail goes to word 0 of the QP's shadow area, where
 * libirdma reads it to decide whether to ring at all. Rings are
 * physically contiguous (kernel QPs) or PBLE-mapped page by page (user
 * QPs).
 *
 * The payload of a WQE (SGLs, inline data, protection checks) is read
 * and written by sgl.c; iWARP framing on an offloaded connection is
 * iwarp.c; RoCEv2 RC to another function is roce.c.
 *
 * Both transports: fast-register WQEs map an MR that ALLOC_STAG reserved,
 * local invalidate WQEs and received SENDs with invalidate unmap it (or a
 * type 2 window) again (stag.c); the RQ CQE names the STag invalidated.
 *
 * RoCEv2 UD QPs (the GSI QP too) in RTS send their SENDs as real RoCEv2
 * datagrams through the AH the WQE names; ud.c builds and receives them.
 *
 * Not modelled: immediate data and atomics over iWARP (RFC 7306), FPDUs
 * split across segments, more than one READ in flight.
 */
#include <linux/slab.h>

#include "isim.h"

/* between two tries of a WQE that met an RNR NAK */
#define ISIM_RNR_WAIT_MS	20

/* ---- context and state ---- */

/*
 * A physically contiguous ring starts at @where; a PBLE-mapped one (a user
 * QP's) has its 4 KiB pages listed from PBLE @where on.
 */
static void isim_wq_setup(struct isim_wq *wq, u64 where, u8 size_enc,
			  bool virt)
{
	wq->mem.virt = virt;
	wq->mem.pa = virt ? 0 : where;
	wq->mem.first_pble = virt ? lower_32_bits(where) : 0;
	wq->quanta = 4U << size_enc;
	wq->mem.bytes = wq->quanta * ISIM_WQ_QUANTUM;
}

/**
 * isim_exec_load_ctx - take what the data path needs from a QP context
 * @qp: the QP
 * @ctx: the 32 context words in CPU order
 * @virt: the create/modify command said the rings are PBLE-mapped
 */
void isim_exec_load_ctx(struct isim_qp *qp, const u64 *ctx, bool virt)
{
	isim_wq_setup(&qp->sq, ctx[1], FIELD_GET(ISIM_QPC_W3_SQ_SIZE, ctx[3]),
		      virt);
	isim_wq_setup(&qp->rq, ctx[2], FIELD_GET(ISIM_QPC_W3_RQ_SIZE, ctx[3]),
		      virt);
	qp->rq.shift = FIELD_GET(ISIM_QPC_W0_RQ_WQE_SHIFT, ctx[0]);
	qp->cq_ctx = ctx[21];
	qp->sq_cq = FIELD_GET(ISIM_QPC_W17_SQ_CQ, ctx[17]);
	qp->rq_cq = FIELD_GET(ISIM_QPC_W17_RQ_CQ, ctx[17]);
	qp->dest_qp = FIELD_GET(ISIM_QPC_W8_DEST_QP, ctx[8]);
	qp->arp_idx = FIELD_GET(ISIM_QPC_W6_ARP_IDX, ctx[6]);
	qp->src_mac = FIELD_GET(ISIM_QPC_W19_LOCAL_MAC, ctx[19]);
	qp->qkey = FIELD_GET(ISIM_QPC_W8_QKEY, ctx[8]);
	qp->pd = FIELD_GET(ISIM_QPC_W7_PD_LO, ctx[7]) |
		 FIELD_GET(ISIM_QPC_W0_PD_HI, ctx[0]) << 16;
	qp->rnr_retry = FIELD_GET(ISIM_QPC_W16_RNR_RETRY, ctx[16]);
	qp->privileged = ctx[20] & ISIM_QPC_W20_PRIVILEGED;
	qp->remote_write = ctx[20] & ISIM_QPC_W20_REMOTE_WRITE;
	qp->remote_read = ctx[20] & ISIM_QPC_W20_REMOTE_READ;
	qp->virt = virt;
	qp->q2_pa = ctx[18] & ISIM_QPC_W18_Q2_ADDR;
	qp->qs_handle = FIELD_GET(ISIM_QPC_W22_QS_HANDLE, ctx[22]);
}

/*
 * An SQ WQE has been fetched: the SQ tail goes to word 0 of the QP's
 * shadow area, as the adapter keeps it, before the engine looks for the
 * next WQE. libirdma reads that word after writing its WQEs and rings
 * WQEALLOC only if the tail has reached the first of them; behind it, it
 * takes the engine to be still fetching and does not ring. The barrier
 * orders the tail before the next valid bit is read: a WQE written after
 * that read is rung for, as its poster then finds the tail caught up.
 */
static void isim_exec_sq_fetched(struct isim_func *f,
				 const struct isim_qp *qp)
{
	__le64 w = cpu_to_le64(FIELD_PREP(ISIM_QPSA_SQ_TAIL, qp->sq.tail));

	if (!qp->shadow_pa || isim_dma_write(f, qp->shadow_pa, &w, sizeof(w)))
		return;
	smp_mb(); /* the tail is out before the next valid bit is read */
}

static void isim_wq_rewind(struct isim_wq *wq)
{
	wq->tail = 0;
	wq->polarity = 1;
	wq->flushing = false;
	wq->minor = 0;
}

/**
 * isim_exec_new_state - a create or modify set the QP's state
 * @f: function
 * @qp: the QP, with its new state
 * @old: the state before (ISIM_QPS_INVALID for a new QP)
 *
 * A new QP, and one entering the idle state (RESET or INIT) from any other
 * state, starts both rings over at quantum 0, on the first lap, as the
 * driver does, and so does the SQ tail in its shadow area. A new QP may
 * be created straight into RTS (the ILQ is).
 */
void isim_exec_new_state(struct isim_func *f, struct isim_qp *qp, u8 old)
{
	if (old != ISIM_QPS_INVALID &&
	    (qp->state != ISIM_QPS_IDLE || old == ISIM_QPS_IDLE))
		return;
	qp->term_halted = false;
	isim_wq_rewind(&qp->sq);
	isim_wq_rewind(&qp->rq);
	isim_exec_sq_fetched(f, qp);
}

/* ---- rings ---- */

/**
 * isim_wq_peek - the header of the WQE at a ring's tail
 * @f: function
 * @wq: the ring
 * @hdr: set to the header
 *
 * Return: 0, -ENOENT not posted.
 */
int isim_wq_peek(struct isim_func *f, const struct isim_wq *wq,
		 u64 *hdr)
{
	__le64 w;

	if (!wq->quanta ||
	    isim_qmem_read(f, &wq->mem, wq->tail * ISIM_WQ_QUANTUM +
			   ISIM_WQE_HDR * 8, &w, sizeof(w)))
		return -EFAULT;
	*hdr = le64_to_cpu(w);
	if (!!(*hdr & ISIM_WQH_VALID) != wq->polarity)
		return -ENOENT;
	/* the body was written before the header */
	dma_rmb();
	return 0;
}

/**
 * isim_exec_sq_empty - nothing posted on a QP's SQ is left to execute
 * @f: function
 * @qp: the QP
 *
 * The WQE at the SQ's tail is not valid on the current lap: the driver's
 * producer index is the engine's consumer index.
 *
 * Return: true if so; false also when the ring cannot be read.
 */
bool isim_exec_sq_empty(struct isim_func *f, const struct isim_qp *qp)
{
	u64 hdr;

	return isim_wq_peek(f, &qp->sq, &hdr) == -ENOENT;
}

/**
 * isim_sq_quanta - quanta of an SQ WQE
 * @gen: the function's generation
 * @hdr: the WQE's header
 *
 * Fragments: one quantum for slot 0, one more per two further slots, on
 * both generations (gen2 pads an even count with a valid-only slot, gen1
 * does not and has at most three). Inline data: gen2 8 bytes, then 31 per
 * quantum; gen1 16 bytes, then 32 (two quanta at most, as a gen1 WQE never
 * crosses a 2-quantum boundary).
 *
 * Return: the quanta.
 */
u8 isim_sq_quanta(u8 gen, u64 hdr)
{
	u32 len = FIELD_GET(ISIM_WQH_INLINE_LEN, hdr);
	u32 slots = FIELD_GET(ISIM_WQH_MORE_FRAGS, hdr) + 1;
	u32 max = gen == ISIM_GEN1 ? ISIM_G1_SQ_CHUNK : ISIM_WQ_MAX_QUANTA;

	if (!(hdr & ISIM_WQH_INLINE))
		return min_t(u32, slots / 2 + 1, max);
	if (gen == ISIM_GEN1)
		return len <= ISIM_INLINE_G1_FIRST ? 1 : 2;
	if (len <= ISIM_INLINE_FIRST)
		return 1;
	return min_t(u32, DIV_ROUND_UP(len - ISIM_INLINE_FIRST,
				       ISIM_INLINE_PER_QUANTUM) + 1, max);
}

/**
 * isim_wq_wqe_quanta - quanta of the WQE at a ring's tail
 * @f: function
 * @qp: its QP
 * @wq: the QP's SQ or RQ
 * @hdr: the WQE's header
 *
 * Return: the quanta, cut at the ring's end (a WQE never wraps).
 */
u8 isim_wq_wqe_quanta(const struct isim_func *f,
		      const struct isim_qp *qp,
		      const struct isim_wq *wq, u64 hdr)
{
	u8 q = wq == &qp->rq ? 1U << min_t(u8, wq->shift, 3) :
			       isim_sq_quanta(f->gen, hdr);

	/* a WQE never wraps; a malformed one ends at the ring's end */
	return min_t(u32, q, wq->quanta - wq->tail);
}

/**
 * isim_wq_read - read the WQE at a ring's tail
 * @f: function
 * @wq: the ring
 * @quanta: its quanta (isim_wq_wqe_quanta())
 * @wqe: where it goes, raw and in CPU order
 *
 * Return: 0, -EFAULT the ring could not be read.
 */
int isim_wq_read(struct isim_func *f, const struct isim_wq *wq,
		 u8 quanta, struct isim_wqe *wqe)
{
	unsigned int i;

	wqe->idx = wq->tail;
	wqe->quanta = quanta;
	wqe->gen = f->gen;
	if (isim_qmem_read(f, &wq->mem, wq->tail * ISIM_WQ_QUANTUM, wqe->raw,
			   quanta * ISIM_WQ_QUANTUM))
		return -EFAULT;
	for (i = 0; i < quanta * ISIM_WQ_QUANTUM / 8; i++)
		wqe->w[i] = le64_to_cpu(wqe->raw[i]);
	return 0;
}

/**
 * isim_wq_advance - move a ring's tail past a WQE, wrapping at the end
 * @wq: the ring
 * @quanta: the WQE's quanta
 */
void isim_wq_advance(struct isim_wq *wq, u8 quanta)
{
	wq->tail += quanta;
	if (wq->tail >= wq->quanta) {
		wq->tail = 0;
		wq->polarity ^= 1;
	}
}

/* ---- completions ---- */

/* a UD receive: the sender's QP, and the frame's MAC and tag */
static void isim_cqe_ud(u64 *cqe, const struct isim_cpl *c)
{
	cqe[2] |= FIELD_PREP(ISIM_CQE_W2_UD_SRC_QP, c->src_qp);
	cqe[3] |= ISIM_CQE_W3_EXT | (c->ipv4 ? ISIM_CQE_W3_IPV4 : 0);
	cqe[6] = FIELD_PREP(ISIM_CQE_W6_SMAC, c->smac);
	cqe[7] |= ISIM_CQE_W7_SMAC_VALID;
	if (c->vlan) {
		cqe[6] |= FIELD_PREP(ISIM_CQE_W6_VLAN, c->tci);
		cqe[7] |= ISIM_CQE_W7_VLAN_VALID;
	}
}

/**
 * isim_exec_complete - write the CQE of a WQE of a QP
 * @f: function
 * @qp: the QP
 * @c: what to report; the CQ is the QP's send or receive CQ
 *
 * A lost CQE (the CQ is gone or full) is only logged.
 */
void isim_exec_complete(struct isim_func *f, struct isim_qp *qp,
			const struct isim_cpl *c)
{
	u64 cqe[ISIM_CQE_WORDS] = {};
	u32 cq = c->sq ? qp->sq_cq : qp->rq_cq;

	cqe[0] = FIELD_PREP(ISIM_CQE_W0_BYTES, c->bytes);
	cqe[1] = qp->cq_ctx;
	cqe[2] = FIELD_PREP(ISIM_CQE_W2_QP, qp->id);
	cqe[3] = FIELD_PREP(ISIM_CQE_W3_WQEIDX, c->idx) |
		 FIELD_PREP(ISIM_CQE_W3_OP, c->op) |
		 (c->sq ? ISIM_CQE_W3_SQ : 0) |
		 (c->solicited ? ISIM_CQE_W3_SOLICITED : 0);
	if (c->minor)
		cqe[3] |= ISIM_CQE_W3_ERROR |
			  FIELD_PREP(ISIM_CQE_W3_MAJOR, ISIM_CQE_MAJ_FLUSHED) |
			  FIELD_PREP(ISIM_CQE_W3_MINOR, c->minor);
	if (c->inv) {
		cqe[2] |= FIELD_PREP(ISIM_CQE_W2_INV_STAG, c->inv_stag);
		cqe[3] |= ISIM_CQE_W3_INVALIDATED;
	}
	if (c->imm_valid) {
		cqe[3] |= ISIM_CQE_W3_EXT;
		cqe[4] = FIELD_PREP(ISIM_CQE_W4_IMM, c->imm);
		cqe[7] = ISIM_CQE_W7_IMM_VALID;
	}
	if (c->ud)
		isim_cqe_ud(cqe, c);
	if (isim_cq_post(f, cq, cqe))
		dev_dbg_ratelimited(&f->dev, "QP %u: CQE to CQ %u lost\n",
				    qp->id, cq);
}

static unsigned int isim_exec_flush_posted(struct isim_func *f,
					   struct isim_qp *qp,
					   struct isim_wq *wq,
					   unsigned int budget)
{
	struct isim_cpl c = { .sq = wq == &qp->sq };
	unsigned int n = 0;
	u64 hdr;
	u8 q;

	while (n < budget && !isim_wq_peek(f, wq, &hdr)) {
		q = isim_wq_wqe_quanta(f, qp, wq, hdr);
		c.idx = wq->tail;
		c.op = c.sq ? FIELD_GET(ISIM_WQH_OP, hdr) : 0;
		c.minor = wq->minor;
		/* NOPs pad the SQ; the driver never sees them complete */
		if (!c.sq || c.op != ISIM_WQOP_NOP) {
			isim_exec_complete(f, qp, &c);
			qp->flushed++;
		}
		isim_wq_advance(wq, q);
		if (c.sq)
			isim_exec_sq_fetched(f, qp);
		n++;
	}
	return n;
}

/**
 * isim_exec_flush - FLUSH_WQES of one queue
 * @f: function
 * @qp: the QP
 * @wq: its SQ or RQ
 * @minor: minor code of the flush CQEs
 *
 * Every WQE posted and not yet executed is completed with a flush error
 * now, every WQE posted later on a following tick.
 */
void isim_exec_flush(struct isim_func *f, struct isim_qp *qp,
		     struct isim_wq *wq, u16 minor)
{
	lockdep_assert_held(&f->eng_lock);
	/* RoCEv2 RC messages in flight, and a SEND being received */
	isim_roce_flush(f, qp, wq == &qp->sq, minor);
	/* an iWARP READ waiting for its response was taken off the ring */
	if (wq == &qp->sq && qp->toe.rd_busy) {
		struct isim_cpl c = {
			.sq = true, .idx = qp->toe.rd_idx,
			.op = ISIM_WQOP_READ, .minor = minor,
		};

		qp->toe.rd_busy = false;
		isim_exec_complete(f, qp, &c);
		qp->flushed++;
	}
	wq->flushing = true;
	wq->minor = minor;
	isim_exec_flush_posted(f, qp, wq, UINT_MAX);
}

/* ---- errors ---- */

static u16 isim_exec_ae_code(u16 minor)
{
	switch (minor) {
	case ISIM_WC_LOC_PROT:
	case ISIM_WC_REM_ACCESS:
		return ISIM_AE_BAD_STAG;
	case ISIM_WC_RETRY_EXC:
		return ISIM_AE_RNR_EXCEEDED;
	case ISIM_WC_LOC_LEN:
	case ISIM_WC_REM_INV_REQ:
		return ISIM_AE_MSG_TOO_LONG;
	}
	return 0;
}

/* the WQE at @idx of @qp failed with @minor: complete it, error the QP */
static void isim_exec_fail(struct isim_func *f, struct isim_qp *qp,
			   const struct isim_cpl *c)
{
	u16 code = isim_exec_ae_code(c->minor);

	isim_exec_complete(f, qp, c);
	qp->state = ISIM_QPS_ERROR;
	if (code)
		isim_qp_ae(f, qp, code, c->sq ? ISIM_AE_SRC_SQ : ISIM_AE_SRC_RQ,
			   qp->cq_ctx, 0);
}

/**
 * isim_exec_iw_fail - an SQ WQE of an offloaded iWARP QP failed
 * @f: function
 * @qp: the QP
 * @c: the WQE's completion, with its error
 *
 * A bad local key, a message too long for the peer: the WQE completes
 * with the error, and the QP halts as for a bad FPDU from the peer
 * (isim_exec_iw_rx()): nothing more is sent or placed, the connection
 * stays offloaded and the peer's segments acknowledged, until the driver
 * moves the QP on: to TERMINATE (a TERMINATE naming a local catastrophe,
 * then our FIN) or to ERR with RESETCON. The AE names the SQ; an error
 * without an AE code of its own is a QP catastrophe.
 */
void isim_exec_iw_fail(struct isim_func *f, struct isim_qp *qp,
		       const struct isim_cpl *c)
{
	u16 code = isim_exec_ae_code(c->minor) ?: ISIM_AE_QP_CATASTROPHIC;

	isim_exec_complete(f, qp, c);
	qp->term_halted = true;
	if (isim_qp_ae(f, qp, code, ISIM_AE_SRC_SQ, qp->cq_ctx, 0))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE %#x lost\n", qp->id,
				    code);
}

/* the responder's WQE failed with @minor, or completed */
static void isim_exec_responded(struct isim_func *f, struct isim_qp *peer,
				struct isim_cpl *rc, u16 minor)
{
	rc->minor = minor;
	if (minor)
		isim_exec_fail(f, peer, rc);
	else
		isim_exec_complete(f, peer, rc);
}

/* ---- the responder ---- */

/*
 * Where an RC QP's packets go: to the MAC of its context's ARP entry. The
 * model carries RC traffic only when that is the QP's own source MAC (the
 * port's switch turns it around); anything else would leave on the wire,
 * where no RoCEv2 RC is modelled, so it is lost.
 */
static bool isim_exec_routed(struct isim_func *f, const struct isim_qp *qp)
{
	void *e = xa_load(&f->conn.arp, qp->arp_idx);

	return e && xa_to_value(e) == qp->src_mac;
}

static struct isim_qp *isim_exec_peer(struct isim_func *f,
				      const struct isim_qp *qp)
{
	struct isim_qp *peer;

	if (!isim_exec_routed(f, qp)) {
		f->unrouted++;
		return NULL;
	}
	peer = xa_load(&f->qps, qp->dest_qp);

	if (!peer || peer->type != ISIM_QP_TYPE_ROCE_RC ||
	    (peer->state != ISIM_QPS_RTR && peer->state != ISIM_QPS_RTS))
		return NULL;
	return peer;
}

/**
 * isim_exec_take_rq - take a QP's next RQ WQE
 * @x: scratch state: the WQE goes to x->resp, its fragments to x->rsgl
 *	(owned by @peer, local write needed)
 * @peer: the QP receiving
 *
 * Return: 0, -ENOENT none posted, -EFAULT.
 */
int isim_exec_take_rq(struct isim_xfer *x, struct isim_qp *peer)
{
	struct isim_wq *rq = &peer->rq;
	u64 hdr;
	int err;

	err = isim_wq_peek(x->f, rq, &hdr);
	if (!err)
		err = isim_wq_read(x->f, rq,
				   isim_wq_wqe_quanta(x->f, peer, rq, hdr),
				   &x->resp);
	if (err)
		return err;
	isim_wq_advance(rq, x->resp.quanta);
	isim_wqe_sgl(&x->resp, hdr, 0, &x->rsgl);
	isim_sgl_owner(&x->rsgl, peer, ISIM_RIGHT_LOCAL_WRITE);
	return 0;
}

/*
 * A SEND with invalidate that was placed unmaps the STag of its header
 * in the responder's PD. Return: 0, or the requester's error for an STag
 * that cannot be invalidated (the responder's is a protection error).
 */
static int isim_exec_remote_inv(struct isim_xfer *x, struct isim_qp *peer,
				struct isim_cpl *rc, u16 *rminor)
{
	u64 hdr = x->req.w[ISIM_WQE_HDR];
	u8 op = FIELD_GET(ISIM_WQH_OP, hdr);

	if (op != ISIM_WQOP_SEND_INV && op != ISIM_WQOP_SEND_SOL_INV)
		return 0;
	rc->inv_stag = FIELD_GET(ISIM_WQH_REMOTE_STAG, hdr);
	if (isim_stag_invalidate(x->f, peer->pd, rc->inv_stag)) {
		*rminor = ISIM_WC_LOC_PROT;
		return ISIM_WC_REM_INV_REQ;
	}
	rc->inv = true;
	return 0;
}

/* SEND: the payload lands in the responder's next RQ WQE */
static int isim_exec_send(struct isim_xfer *x, struct isim_qp *peer,
			  const u8 *inl, struct isim_cpl *rc)
{
	u16 rminor = 0;
	int ret = 0, err;

	err = isim_exec_take_rq(x, peer);
	if (err == -ENOENT)
		return -EAGAIN;	/* RNR NAK */
	if (err)
		return ISIM_WC_REM_OP;
	if (!isim_sgl_allowed(x->f, &x->rsgl)) {
		rminor = ISIM_WC_LOC_PROT;
		ret = ISIM_WC_REM_OP;
	} else if (x->len > x->rsgl.total) {
		rminor = ISIM_WC_LOC_LEN;
		ret = ISIM_WC_REM_INV_REQ;
	} else {
		err = isim_copy(x, &x->local, inl, &x->rsgl, x->len);
		ret = err == -EFAULT ? ISIM_WC_LOC_PROT : err ? ISIM_WC_REM_OP : 0;
		rminor = err == -EFAULT ? ISIM_WC_REM_OP : err ? ISIM_WC_LOC_PROT : 0;
	}
	if (!ret)
		ret = isim_exec_remote_inv(x, peer, rc, &rminor);
	rc->idx = x->resp.idx;
	rc->bytes = x->len;
	rc->op = rc->imm_valid ? ISIM_BTH_SEND_ONLY_IMM :
		 rc->inv ? ISIM_BTH_SEND_ONLY_INV : ISIM_BTH_SEND_ONLY;
	isim_exec_responded(x->f, peer, rc, rminor);
	return ret;
}

/* RDMA WRITE, with immediate data also taking an RQ WQE */
static int isim_exec_write(struct isim_xfer *x, struct isim_qp *peer,
			   const u8 *inl, struct isim_cpl *rc)
{
	u64 hdr = x->req.w[ISIM_WQE_HDR];
	u32 rkey = FIELD_GET(ISIM_WQH_REMOTE_STAG, hdr);
	int ret, err;

	isim_sgl_one(&x->rsgl, x->req.w[2], x->len, rkey);
	isim_sgl_owner(&x->rsgl, peer, ISIM_RIGHT_REMOTE_WRITE);
	if (!peer->remote_write || !isim_sgl_allowed(x->f, &x->rsgl))
		return ISIM_WC_REM_ACCESS;
	/* an RNR wait must not consume anything: look before writing */
	if (rc->imm_valid && isim_wq_peek(x->f, &peer->rq, &hdr))
		return -EAGAIN;	/* RNR NAK */
	err = isim_copy(x, &x->local, inl, &x->rsgl, x->len);
	ret = err == -EFAULT ? ISIM_WC_LOC_PROT : err ? ISIM_WC_REM_ACCESS : 0;
	if (ret || !rc->imm_valid)
		return ret;
	if (isim_exec_take_rq(x, peer))
		return ISIM_WC_REM_OP;
	rc->idx = x->resp.idx;
	rc->bytes = x->len;
	rc->op = ISIM_BTH_WRITE_ONLY_IMM;
	isim_exec_responded(x->f, peer, rc, 0);
	return 0;
}

/* RDMA READ: the remote range lands in the local fragments */
static int isim_exec_read(struct isim_xfer *x, struct isim_qp *peer)
{
	u32 rkey = FIELD_GET(ISIM_WQH_REMOTE_STAG, x->req.w[ISIM_WQE_HDR]);
	int err;

	isim_sgl_one(&x->rsgl, x->req.w[2], x->len, rkey);
	isim_sgl_owner(&x->rsgl, peer, ISIM_RIGHT_REMOTE_READ);
	if (!peer->remote_read || !isim_sgl_allowed(x->f, &x->rsgl))
		return ISIM_WC_REM_ACCESS;
	err = isim_copy(x, &x->rsgl, NULL, &x->local, x->len);
	return err == -EFAULT ? ISIM_WC_REM_ACCESS : err ? ISIM_WC_LOC_PROT : 0;
}

/* ---- the requester ---- */

/**
 * isim_wqe_is_read - an RDMA READ, with or without a local invalidate of its sink
 * @hdr: the WQE's header
 *
 * Return: true for a READ.
 */
bool isim_wqe_is_read(u64 hdr)
{
	u8 op = FIELD_GET(ISIM_WQH_OP, hdr);

	return op == ISIM_WQOP_READ || op == ISIM_WQOP_READ_LOCAL_INV;
}

/**
 * isim_exec_payload - where the payload of the SQ WQE x->req comes from
 * @x: scratch state; x->len gets the length, x->local the fragments
 * @qp: the QP
 * @hdr: the WQE's header
 * @inl: set to the inline bytes, or NULL for fragments
 *
 * Return: 0, or the minor code of a WQE whose payload cannot be used.
 */
int isim_exec_payload(struct isim_xfer *x, const struct isim_qp *qp, u64 hdr,
		      const u8 **inl)
{
	*inl = NULL;
	x->local.n = 0;
	x->local.total = 0;
	/* gen1: two quanta never start at an odd one (the driver pads) */
	if (x->f->gen == ISIM_GEN1 && x->req.quanta > 1 &&
	    x->req.idx % ISIM_G1_SQ_CHUNK)
		return ISIM_WC_LOC_QP_OP;
	if (hdr & ISIM_WQH_INLINE) {
		if (isim_wqe_inline(&x->req, hdr, x->inl, &x->len))
			return ISIM_WC_LOC_QP_OP;
		*inl = x->inl;
		return 0;
	}
	/* gen1 takes at most three fragments */
	if (x->f->gen == ISIM_GEN1 &&
	    FIELD_GET(ISIM_WQH_MORE_FRAGS, hdr) >= ISIM_G1_MAX_FRAGS)
		return ISIM_WC_LOC_QP_OP;
	isim_wqe_sgl(&x->req, hdr, hdr & ISIM_WQH_IMM ? 1 : 0, &x->local);
	isim_sgl_owner(&x->local, qp, isim_wqe_is_read(hdr) ?
		       ISIM_RIGHT_LOCAL_WRITE : 0);
	x->len = x->local.total;
	return isim_sgl_allowed(x->f, &x->local) ? 0 : ISIM_WC_LOC_PROT;
}

/**
 * isim_exec_mem_op - execute a memory WQE, of either transport
 * @x: scratch state, x->req the WQE
 * @qp: the QP
 * @op: its opcode: a window bind, a fast register, a local invalidate
 *
 * Return: 0, ISIM_WC_LOC_PROT when refused, or -ENOENT for a WQE of
 * another kind.
 */
int isim_exec_mem_op(struct isim_xfer *x, struct isim_qp *qp, u8 op)
{
	const u64 *w = x->req.w;
	int err;

	switch (op) {
	case ISIM_WQOP_BIND_MW:
		err = isim_stag_bind(x->f, qp->pd, w);
		break;
	case ISIM_WQOP_FAST_REG:
		err = isim_stag_fast_reg(x->f, qp->pd, w);
		break;
	case ISIM_WQOP_LOCAL_INV:
		err = isim_stag_invalidate(x->f, qp->pd,
					   isim_frag_stag(x->f->gen, w[1]));
		break;
	default:
		return -ENOENT;
	}
	return err ? ISIM_WC_LOC_PROT : 0;
}

/* Execute x->req. Return: 0, an enum isim_wc_minor, or -EAGAIN (RNR). */
static int isim_exec_op(struct isim_xfer *x, struct isim_qp *qp, u64 hdr,
			struct isim_cpl *rc)
{
	struct isim_qp *peer;
	const u8 *inl;
	int ret;

	ret = isim_exec_mem_op(x, qp, FIELD_GET(ISIM_WQH_OP, hdr));
	if (ret != -ENOENT)
		return ret;
	ret = isim_exec_payload(x, qp, hdr, &inl);
	if (ret)
		return ret;
	peer = isim_exec_peer(x->f, qp);
	if (!peer)
		return ISIM_WC_RETRY_EXC;
	rc->imm_valid = hdr & ISIM_WQH_IMM;
	rc->imm = lower_32_bits(x->req.w[0]);
	switch (FIELD_GET(ISIM_WQH_OP, hdr)) {
	case ISIM_WQOP_SEND_SOL:
	case ISIM_WQOP_SEND_SOL_INV:
		rc->solicited = true;
		fallthrough;
	case ISIM_WQOP_SEND:
	case ISIM_WQOP_SEND_INV:
		return isim_exec_send(x, peer, inl, rc);
	case ISIM_WQOP_WRITE_SOL:
		rc->solicited = true;
		fallthrough;
	case ISIM_WQOP_WRITE:
		return isim_exec_write(x, peer, inl, rc);
	case ISIM_WQOP_READ:
	case ISIM_WQOP_READ_LOCAL_INV:
		if (inl || rc->imm_valid)
			return ISIM_WC_LOC_QP_OP;
		ret = isim_exec_read(x, peer);
		/* the data is in: the sink's STag is unmapped */
		if (!ret && FIELD_GET(ISIM_WQH_OP, hdr) == ISIM_WQOP_READ_LOCAL_INV &&
		    isim_stag_invalidate(x->f, qp->pd, x->local.sge[0].stag))
			ret = ISIM_WC_LOC_PROT;
		return ret;
	}
	return ISIM_WC_LOC_QP_OP;
}

/**
 * isim_hwc_wqe - count an SQ WQE the engine carried out
 * @f: function
 * @op: its opcode: the message it sent (or the window it bound)
 * @fabric: on the in-function fabric of RoCE, the same message received
 */
void isim_hwc_wqe(struct isim_func *f, u8 op, bool fabric)
{
	enum isim_gs tx, rx;

	switch (op) {
	case ISIM_WQOP_WRITE:
	case ISIM_WQOP_WRITE_SOL:
		tx = ISIM_GS_RDMA_TX_WRITES;
		rx = ISIM_GS_RDMA_RX_WRITES;
		break;
	case ISIM_WQOP_READ:
	case ISIM_WQOP_READ_LOCAL_INV:
		tx = ISIM_GS_RDMA_TX_READS;
		rx = ISIM_GS_RDMA_RX_READS;
		break;
	case ISIM_WQOP_SEND:
	case ISIM_WQOP_SEND_INV:
	case ISIM_WQOP_SEND_SOL:
	case ISIM_WQOP_SEND_SOL_INV:
		tx = ISIM_GS_RDMA_TX_SENDS;
		rx = ISIM_GS_RDMA_RX_SENDS;
		break;
	case ISIM_WQOP_BIND_MW:
		isim_hwc_add(f, ISIM_GS_BINDS, 1);
		return;
	default:
		return;
	}
	isim_hwc_add(f, tx, 1);
	if (fabric)
		isim_hwc_add(f, rx, 1);
}

/*
 * An RNR NAK: with the retry count 7 the requester tries again for ever,
 * otherwise that many times, ISIM_RNR_WAIT_MS apart (the responder's RNR
 * timer, scaled to a simulator whose consumers run under TCG), then the
 * WQE fails. Return: -EAGAIN to try again, or the failure.
 */
static int isim_exec_rnr_nak(struct isim_qp *qp)
{
	if (qp->rnr_retry == ISIM_QPC_RNR_FOREVER)
		return -EAGAIN;
	if (qp->rnr_tries >= qp->rnr_retry)
		return ISIM_WC_RETRY_EXC;
	qp->rnr_tries++;
	qp->rnr_until = jiffies + msecs_to_jiffies(ISIM_RNR_WAIT_MS);
	return -EAGAIN;
}

/* Return: 0 the WQE is done, -EAGAIN try it again on the next tick */
static int isim_exec_sq_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	struct isim_cpl rc = {};
	struct isim_cpl c = {
		.sq = true,
		.idx = x->req.idx,
		.op = FIELD_GET(ISIM_WQH_OP, hdr),
	};
	int ret = 0;

	if (qp->rnr_tries && time_before(jiffies, qp->rnr_until))
		return -EAGAIN;
	if (c.op != ISIM_WQOP_NOP)
		ret = isim_exec_op(x, qp, hdr, &rc);
	if (ret == -EAGAIN)
		ret = isim_exec_rnr_nak(qp);
	if (ret == -EAGAIN)
		return ret;
	qp->rnr_tries = 0;
	qp->executed++;
	c.bytes = x->len;
	if (!ret)
		isim_hwc_wqe(x->f, c.op, true);
	if (ret) {
		c.minor = ret;
		isim_exec_fail(x->f, qp, &c);
	} else if (hdr & ISIM_WQH_SIGNALED) {
		isim_exec_complete(x->f, qp, &c);
	}
	return 0;
}

/*
 * the SQ runs: an RC or UD QP in RTS, or an offloaded iWARP QP in RTS or
 * in CLOSING until its FIN goes out
 */
static bool isim_exec_sq_runs(const struct isim_qp *qp)
{
	if (qp->type == ISIM_QP_TYPE_IWARP)
		return (qp->state == ISIM_QPS_RTS ||
			(qp->state == ISIM_QPS_CLOSING && qp->toe.fin_pending)) &&
		       qp->toe.linked && !qp->toe.wait_fpdu && !qp->term_halted &&
		       !qp->toe.rd_busy && isim_toe_window_open(&qp->toe);
	return qp->state == ISIM_QPS_RTS && (qp->type == ISIM_QP_TYPE_ROCE_RC ||
					     qp->type == ISIM_QP_TYPE_ROCE_UD);
}

/* one SQ WQE of any QP type. Return: 0 done, -EAGAIN try it again */
static int isim_exec_any_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	switch (qp->type) {
	case ISIM_QP_TYPE_IWARP:
		return isim_exec_iw_wqe(x, qp, hdr);
	case ISIM_QP_TYPE_ROCE_UD:
		return isim_ud_sq_wqe(x, qp, hdr);
	}
	/* a next hop other than the function itself: the wire (roce.c) */
	if (!isim_exec_routed(x->f, qp))
		return isim_roce_sq_wqe(x, qp, hdr);
	return isim_exec_sq_wqe(x, qp, hdr);
}

/* ---- the engine pass ---- */

/**
 * isim_xfer_get - the scratch state of an engine pass
 * @xp: where the pass keeps it; allocated on first use, freed by the
 *	pass with isim_xfer_put()
 * @f: function
 *
 * Return: the state, or NULL without memory.
 */
struct isim_xfer *isim_xfer_get(struct isim_xfer **xp, struct isim_func *f)
{
	struct isim_xfer *x = *xp;

	if (x)
		return x;
	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return NULL;
	x->bounce = (u8 *)__get_free_page(GFP_KERNEL);
	if (!x->bounce) {
		kfree(x);
		return NULL;
	}
	x->f = f;
	*xp = x;
	return x;
}

/**
 * isim_xfer_put - free the scratch state of an engine pass
 * @x: from isim_exec_iw_rx(), or NULL
 */
void isim_xfer_put(struct isim_xfer *x)
{
	if (!x)
		return;
	free_page((unsigned long)x->bounce);
	kfree(x);
}

/*
 * The SQ's WQEs in order, until the budget or the pass's time runs out.
 * One QP with a deep SQ of large messages (perftest's 64 KiB WRITEs, 45
 * segments each) would otherwise hold the pass, and with it the CQP
 * behind it, for seconds; the QP is kicked again (isim_exec_visit()) and
 * its next WQE waits for the next pass.
 */
static unsigned int isim_exec_sq(struct isim_xfer **xp, struct isim_func *f,
				 struct isim_qp *qp, unsigned int budget)
{
	struct isim_wq *sq = &qp->sq;
	struct isim_xfer *x;
	unsigned int n = 0;
	u64 hdr;
	int ret;

	qp->sq_waits = false;
	while (n < budget && (!n || !isim_pass_over(f)) &&
	       isim_exec_sq_runs(qp) &&
	       !isim_wq_peek(f, sq, &hdr)) {
		x = isim_xfer_get(xp, f);
		if (!x || isim_wq_read(f, sq, isim_wq_wqe_quanta(f, qp, sq, hdr),
				       &x->req))
			break;
		ret = isim_exec_any_wqe(x, qp, hdr);
		/* it waits for the peer (roce.c), whose answer kicks the QP */
		if (ret == -EBUSY)
			break;
		if (ret) {
			/* it waits (RNR): no doorbell will say when to retry */
			qp->sq_waits = true;
			isim_exec_kick(f, qp);
			break;
		}
		isim_wq_advance(sq, x->req.quanta);
		isim_exec_sq_fetched(f, qp);
		n++;
	}
	return n;
}

/*
 * A QP the scheduler does not serve (isim_sched_tc()) sends nothing: its
 * SQ and a pending FIN wait, and a pass that finds them, where they would
 * otherwise have run, is counted (a raw queue's SQ by ilq.c). What
 * makes it served again (WORK_SCHED_NODE, qset_add, RESUME_QP, a new
 * traffic-class map) has the next pass look at every QP.
 */
static bool isim_exec_held(struct isim_func *f, struct isim_qp *qp)
{
	if (isim_sched_tc(f, qp->qs_handle) >= 0)
		return false;
	if ((isim_exec_sq_runs(qp) && !isim_exec_sq_empty(f, qp)) ||
	    qp->toe.fin_pending)
		f->sched.unsched++;
	return true;
}

static unsigned int isim_exec_qp(struct isim_xfer **xp, struct isim_func *f,
				 struct isim_qp *qp, unsigned int budget)
{
	unsigned int n = 0;

	if (qp->suspended)
		return 0;
	/* flushed WQEs complete without the wire */
	if (qp->sq.flushing)
		n += isim_exec_flush_posted(f, qp, &qp->sq, budget);
	if (qp->rq.flushing)
		n += isim_exec_flush_posted(f, qp, &qp->rq, budget - n);
	if (!isim_exec_held(f, qp)) {
		n += isim_exec_sq(xp, f, qp, budget - n);
		/* a graceful close's FIN goes once the SQ is done */
		isim_toe_sq_idle(f, qp);
	}
	/*
	 * Nothing rings for an RQ: a WQE posted to a flushing one (a drain's)
	 * is found by looking again, a tick later rather than at once, as the
	 * QP may stay in error until it is destroyed
	 */
	if (qp->rq.flushing) {
		isim_exec_kick(f, qp);
		qp->sq_waits = true;
	}
	return n;
}

/**
 * isim_exec_kick - have the next pass look at a QP's SQ
 * @f: function
 * @qp: a QP something the engine did may let run: a CQP command naming
 *	it, a segment it received, its timer, work it did or an RNR wait
 *
 * Caller holds eng_lock.
 */
void isim_exec_kick(struct isim_func *f, struct isim_qp *qp)
{
	lockdep_assert_held(&f->eng_lock);
	if (list_empty(&qp->kick))
		list_add_tail(&qp->kick, &f->kick_list);
}

/* one QP of a pass; Return: WQEs done, and the QP kicked again if any */
static unsigned int isim_exec_visit(struct isim_xfer **xp, struct isim_func *f,
				    struct isim_qp *qp, unsigned int budget)
{
	unsigned int n;

	list_del_init(&qp->kick);
	n = isim_exec_qp(xp, f, qp, budget);
	/* what ran may have freed more (a FIN after the last WQE) */
	if (n)
		isim_exec_kick(f, qp);
	return n;
}

/*
 * every QP, or with @resume the rest of a scan an earlier pass ran out of
 * time in; Return: WQEs done
 */
static unsigned int isim_exec_scan(struct isim_xfer **xp, struct isim_func *f,
				   unsigned int budget, bool resume,
				   bool *unasked)
{
	unsigned int n, done = 0, visits = 0;
	struct isim_qp *qp;
	bool kicked;

	qp = list_first_entry_or_null(&f->qp_list, struct isim_qp, node);
	if (!resume)
		f->scan_stop = qp ? qp->id : U32_MAX;

	/*
	 * Round robin: a pass that runs out of budget moves the QP it did
	 * not reach to the front, where the next pass starts, so that busy
	 * QPs early in the list cannot starve the others (the adapter's
	 * scheduler is fair between QPs too). A list, not the xarray: a
	 * scan visits hundreds of QPs that have nothing to do, and a walk
	 * of the xarray costs an RCU read section per entry.
	 */
	list_for_each_entry(qp, &f->qp_list, node) {
		/*
		 * A scan that takes longer than a pass ends where it began:
		 * resumed on and on, it would never end, and the engine would
		 * never go idle.
		 */
		if (resume && qp->id == f->scan_stop)
			break;
		/* the clock is read after work, or now and then */
		if (done == budget || ((done || !(++visits % 32)) &&
				       isim_pass_over(f))) {
			list_rotate_to_front(&qp->node, &f->qp_list);
			f->exec_resume = true;
			break;
		}
		kicked = !list_empty(&qp->kick);
		n = isim_exec_visit(xp, f, qp, budget - done);
		if (n && !kicked)
			*unasked = true;
		done += n;
	}
	return done;
}

/* the kicked QPs only; Return: WQEs done */
static unsigned int isim_exec_kicked(struct isim_xfer **xp,
				     struct isim_func *f, unsigned int budget)
{
	unsigned int done = 0;
	struct isim_qp *qp;
	LIST_HEAD(todo);

	/* a QP kicked again during the pass waits for the next one */
	list_splice_init(&f->kick_list, &todo);
	while ((qp = list_first_entry_or_null(&todo, struct isim_qp, kick))) {
		if (done == budget || (done && isim_pass_over(f))) {
			list_splice(&todo, &f->kick_list);
			break;
		}
		done += isim_exec_visit(xp, f, qp, budget - done);
	}
	return done;
}

/**
 * isim_exec_run - one pass of the engine over the QPs' rings
 * @f: function
 * @budget: most WQEs to execute or flush in this pass
 * @scan: look at every QP even if nothing asked for it
 *
 * The WQEALLOC doorbell carries one QP id, and two doorbells between two
 * polls collapse into one, so a doorbell makes the pass look at every
 * QP's SQ, as does a pass before it that ran out of budget. Without
 * either, an SQ can only have become runnable through something the
 * engine did to that QP itself, which kicked it (isim_exec_kick()): the
 * pass looks at the kicked QPs alone, or at none, which keeps an engine
 * with hundreds of QPs cheap while a few of them talk. @scan, the guard
 * (see isim_engine_poll()), looks at every QP: work it finds on a QP
 * that nothing asked for is counted (unasked, on the state file's exec
 * line): a wake-up missing here, or a consumer caught between its WQE and
 * its doorbell.
 *
 * Return: true if the budget or the pass's time ran out (more work may be
 * waiting).
 */
bool isim_exec_run(struct isim_func *f, unsigned int budget, bool scan)
{
	struct isim_xfer *x = NULL;
	bool asked, resume, unasked = false;
	unsigned int done;

	lockdep_assert_held(&f->eng_lock);
	/* the kernel's doorbell, and user space's in its doorbell page */
	asked = isim_xchg32(f, f->rm->wqealloc, ISIM_DB_IDLE) !=
		ISIM_DB_IDLE;
	asked |= isim_xchg32(f, isim_reg_udb_wqealloc(f), ISIM_DB_IDLE) !=
		 ISIM_DB_IDLE;
	asked |= f->rescan;
	/* nothing new asks for a look at every QP: the scan goes on */
	resume = f->exec_resume && !asked && !scan;
	asked |= f->exec_resume;
	if (asked)
		f->asked_passes++;
	f->rescan = false;
	f->exec_resume = false;
	f->scanning = asked || scan;
	if (f->scanning) {
		f->scans++;
		done = isim_exec_scan(&x, f, budget, resume, &unasked);
	} else if (!list_empty(&f->kick_list)) {
		f->kick_passes++;
		done = isim_exec_kicked(&x, f, budget);
	} else {
		f->idle_passes++;
		return false;
	}
	isim_xfer_put(x);
	/*
	 * a consumer that wrote its WQE after the look at the register
	 * rings during the pass (or just after it, which counts here too:
	 * unasked is a hint, not an invariant)
	 */
	if (unasked && !asked &&
	    isim_rd32(f, f->rm->wqealloc) == ISIM_DB_IDLE &&
	    isim_rd32(f, isim_reg_udb_wqealloc(f)) == ISIM_DB_IDLE)
		f->unasked++;
	/* a QP cut short by the pass's time goes on in the very next one */
	return done == budget || f->exec_resume ||
	       (!list_empty(&f->kick_list) && isim_pass_over(f));
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/exec_test.c"
#endif
