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
 * - Memory: STag 0 on a privileged QP addresses bus memory directly (the
 *   simulated function has no IOMMU). Any other STag must be a registered
 *   MR of the QP's PD with the key, rights and range the access needs;
 *   its pages are found through its PBLEs (or its one buffer). Windows
 *   are not modelled: their STags are protection errors.
 * - Errors: the WQE completes with major "flushed" and a minor naming the
 *   cause (local protection, remote access, length, retries exceeded); the
 *   QP goes to the error state and an AE reports it. Execution stops
 *   there: the driver moves the QP to error and flushes it.
 * - No RQ WQE at the responder: with an RNR retry count of 7 the sender
 *   waits and tries again on the next tick, otherwise it fails with
 *   "retries exceeded".
 * - Flushing: after FLUSH_WQES, every WQE posted to a flushed queue is
 *   completed with a flush error on the next tick. The engine watches the
 *   ring itself, as it does not rely on doorbells (below), so a WR posted
 *   to a QP in error completes without the driver issuing a flush again.
 *
 * The doorbell register keeps only the last value written, so two QPs
 * rung between ticks would lose one; the engine therefore looks at every
 * active queue on every tick and only consumes WQEALLOC (user space
 * rings its doorbell page, which the engine does not watch either).
 * Rings are physically contiguous (kernel QPs) or PBLE-mapped page by
 * page (user QPs).
 *
 * iWARP: an offloaded QP in RTS (toe.c) executes its connection WQEs: the
 * LSMM (a SEND with STREAMMODE) goes out as a segment of the connection,
 * and with WAITFORRCVPDU holds the SQ until the peer's first FPDU; a
 * zero-length READ or WRITE (the RTR) completes without moving anything;
 * NOPs; GEN_RTS_AE raises LLP_CONNECTION_ESTABLISHED. Any other WQE waits:
 * there is no iWARP data path yet.
 *
 * Not modelled: UD/GSI transmission, iWARP data, fast register, MW bind,
 * invalidation.
 */
#include <linux/slab.h>

#include "isim.h"

#define ISIM_SLOTS		15	/* fragment slots of an 8-quantum WQE */
#define ISIM_WQE_WORDS		(ISIM_WQ_MAX_QUANTA * ISIM_WQ_QUANTUM / 8)
#define ISIM_INLINE_MAX		(ISIM_INLINE_FIRST + \
				 (ISIM_WQ_MAX_QUANTA - 1) * ISIM_INLINE_PER_QUANTUM)

/**
 * struct isim_sge - one fragment of a WQE
 * @addr: bus address (STag 0) or IOVA
 * @len: bytes
 * @stag: STag
 */
struct isim_sge {
	u64 addr;
	u32 len;
	u32 stag;
};

/**
 * struct isim_sgl - the fragments of a WQE, or one remote range
 * @sge: fragments of non-zero length
 * @n: entries in @sge
 * @total: sum of their lengths
 * @pd: protection domain of the QP whose memory the fragments are
 * @rights: ISIM_RIGHT_* the access needs
 * @privileged: that QP may use STag 0
 */
struct isim_sgl {
	struct isim_sge sge[ISIM_SLOTS];
	u32 n;
	u64 total;
	u32 pd;
	u8 rights;
	bool privileged;
};

/**
 * struct isim_wqe - a WQE as read from a ring
 * @raw: the quanta as the driver wrote them (inline bytes)
 * @w: the same words in CPU order
 * @idx: quantum index of the first quantum
 * @quanta: quanta it covers
 */
struct isim_wqe {
	__le64 raw[ISIM_WQE_WORDS];
	u64 w[ISIM_WQE_WORDS];
	u32 idx;
	u8 quanta;
};

/**
 * struct isim_cpl - what a CQE reports
 * @idx: quantum index of the WQE
 * @bytes: bytes received (RQ)
 * @imm: immediate data, with @imm_valid
 * @minor: 0 for success, else an enum isim_wc_minor
 * @op: SQ: the WQE's opcode; RQ: the message's BTH opcode
 * @sq: an SQ completion
 * @imm_valid: @imm is carried (extended CQE)
 * @solicited: the message asked for a solicited event
 */
struct isim_cpl {
	u32 idx;
	u32 bytes;
	u32 imm;
	u16 minor;
	u8 op;
	bool sq;
	bool imm_valid;
	bool solicited;
};

/**
 * struct isim_xfer - scratch state of one engine pass over the data path
 * @f: function
 * @bounce: one page the payload moves through
 * @req: the SQ WQE being executed
 * @resp: the responder's RQ WQE
 * @local: fragments of @req (when not inline)
 * @rsgl: fragments of @resp, or the remote range of a WRITE/READ
 * @inl: inline payload of @req
 * @len: payload length of @req
 * @rnr_retry: RNR retry count of the requester
 */
struct isim_xfer {
	struct isim_func *f;
	u8 *bounce;
	struct isim_wqe req;
	struct isim_wqe resp;
	struct isim_sgl local;
	struct isim_sgl rsgl;
	u8 inl[ISIM_INLINE_MAX];
	u64 len;
	u8 rnr_retry;
};

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
	qp->pd = FIELD_GET(ISIM_QPC_W7_PD_LO, ctx[7]) |
		 FIELD_GET(ISIM_QPC_W0_PD_HI, ctx[0]) << 16;
	qp->rnr_retry = FIELD_GET(ISIM_QPC_W16_RNR_RETRY, ctx[16]);
	qp->privileged = ctx[20] & ISIM_QPC_W20_PRIVILEGED;
	qp->remote_write = ctx[20] & ISIM_QPC_W20_REMOTE_WRITE;
	qp->remote_read = ctx[20] & ISIM_QPC_W20_REMOTE_READ;
	qp->virt = virt;
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
 * @qp: the QP, with its new state
 * @old: the state before (ISIM_QPS_INVALID for a new QP)
 *
 * A new QP, and one entering the idle state (RESET or INIT) from any other
 * state, starts both rings over at quantum 0, on the first lap, as the
 * driver does. A new QP may be created straight into RTS (the ILQ is).
 */
void isim_exec_new_state(struct isim_qp *qp, u8 old)
{
	if (old != ISIM_QPS_INVALID &&
	    (qp->state != ISIM_QPS_IDLE || old == ISIM_QPS_IDLE))
		return;
	isim_wq_rewind(&qp->sq);
	isim_wq_rewind(&qp->rq);
}

/* ---- rings ---- */

/* The header of the WQE at the tail. Return: 0, -ENOENT not posted. */
static int isim_wq_peek(struct isim_func *f, const struct isim_wq *wq,
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

static u8 isim_sq_quanta(u64 hdr)
{
	u32 len = FIELD_GET(ISIM_WQH_INLINE_LEN, hdr);
	u32 slots = FIELD_GET(ISIM_WQH_MORE_FRAGS, hdr) + 1;

	if (!(hdr & ISIM_WQH_INLINE))
		return min_t(u32, slots / 2 + 1, ISIM_WQ_MAX_QUANTA);
	if (len <= ISIM_INLINE_FIRST)
		return 1;
	return min_t(u32, DIV_ROUND_UP(len - ISIM_INLINE_FIRST,
				       ISIM_INLINE_PER_QUANTUM) + 1,
		     ISIM_WQ_MAX_QUANTA);
}

static u8 isim_wq_wqe_quanta(const struct isim_qp *qp,
			     const struct isim_wq *wq, u64 hdr)
{
	u8 q = wq == &qp->rq ? 1U << min_t(u8, wq->shift, 3) :
			       isim_sq_quanta(hdr);

	/* a WQE never wraps; a malformed one ends at the ring's end */
	return min_t(u32, q, wq->quanta - wq->tail);
}

static int isim_wq_read(struct isim_func *f, const struct isim_wq *wq,
			u8 quanta, struct isim_wqe *wqe)
{
	unsigned int i;

	wqe->idx = wq->tail;
	wqe->quanta = quanta;
	if (isim_qmem_read(f, &wq->mem, wq->tail * ISIM_WQ_QUANTUM, wqe->raw,
			   quanta * ISIM_WQ_QUANTUM))
		return -EFAULT;
	for (i = 0; i < quanta * ISIM_WQ_QUANTUM / 8; i++)
		wqe->w[i] = le64_to_cpu(wqe->raw[i]);
	return 0;
}

static void isim_wq_advance(struct isim_wq *wq, u8 quanta)
{
	wq->tail += quanta;
	if (wq->tail >= wq->quanta) {
		wq->tail = 0;
		wq->polarity ^= 1;
	}
}

/* ---- completions ---- */

static void isim_exec_complete(struct isim_func *f, struct isim_qp *qp,
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
	if (c->imm_valid) {
		cqe[3] |= ISIM_CQE_W3_EXT;
		cqe[4] = FIELD_PREP(ISIM_CQE_W4_IMM, c->imm);
		cqe[7] = ISIM_CQE_W7_IMM_VALID;
	}
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
		q = isim_wq_wqe_quanta(qp, wq, hdr);
		c.idx = wq->tail;
		c.op = c.sq ? FIELD_GET(ISIM_WQH_OP, hdr) : 0;
		c.minor = wq->minor;
		/* NOPs pad the SQ; the driver never sees them complete */
		if (!c.sq || c.op != ISIM_WQOP_NOP) {
			isim_exec_complete(f, qp, &c);
			qp->flushed++;
		}
		isim_wq_advance(wq, q);
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
	wq->flushing = true;
	wq->minor = minor;
	isim_exec_flush_posted(f, qp, wq, UINT_MAX);
}

/* ---- payload ---- */

/* Parse the fragments of @wqe from slot @first on into @l */
static void isim_wqe_sgl(const struct isim_wqe *wqe, u64 hdr, u32 first,
			 struct isim_sgl *l)
{
	u32 slots = FIELD_GET(ISIM_WQH_MORE_FRAGS, hdr) + 1;
	unsigned int s, wd;
	struct isim_sge *e;

	l->n = 0;
	l->total = 0;
	for (s = first; s < min_t(u32, slots, ISIM_SLOTS); s++) {
		wd = s ? 2 * s + 2 : 0;
		if (wd + 1 >= wqe->quanta * ISIM_WQ_QUANTUM / 8)
			break;
		e = &l->sge[l->n];
		e->addr = wqe->w[wd];
		e->len = FIELD_GET(ISIM_FRAG_LEN, wqe->w[wd + 1]);
		e->stag = FIELD_GET(ISIM_FRAG_STAG, wqe->w[wd + 1]);
		if (!e->len)
			continue;
		l->total += e->len;
		l->n++;
	}
}

static void isim_sgl_one(struct isim_sgl *l, u64 addr, u64 len, u32 stag)
{
	l->sge[0].addr = addr;
	l->sge[0].len = len;
	l->sge[0].stag = stag;
	l->n = len ? 1 : 0;
	l->total = len;
}

/* Whose memory @l is and what the access needs */
static void isim_sgl_owner(struct isim_sgl *l, const struct isim_qp *qp,
			   u8 rights)
{
	l->pd = qp->pd;
	l->rights = rights;
	l->privileged = qp->privileged;
}

/* every fragment is reachable: STag 0 on a privileged QP, or an MR */
static bool isim_sgl_allowed(struct isim_func *f, const struct isim_sgl *l)
{
	const struct isim_sge *e;
	u32 i;

	for (i = 0; i < l->n; i++) {
		e = &l->sge[i];
		if (e->stag == ISIM_LOCAL_DMA_STAG) {
			if (!l->privileged)
				return false;
			continue;
		}
		if (isim_stag_access(f, e->stag, l->pd, l->rights, e->addr,
				     e->len))
			return false;
	}
	return true;
}

/* bus address of byte @off of @e, and how many bytes follow in one piece */
static int isim_sge_bus(struct isim_func *f, const struct isim_sge *e,
			u64 off, u64 *bus, u64 *contig)
{
	if (e->stag == ISIM_LOCAL_DMA_STAG) {
		*bus = e->addr + off;
		*contig = e->len - off;
		return 0;
	}
	return isim_stag_translate(f, e->stag, e->addr + off, bus, contig);
}

/* Unpack inline data: 8 bytes at byte 8, then 31 bytes per quantum. */
static int isim_wqe_inline(const struct isim_wqe *wqe, u64 hdr, u8 *buf,
			   u64 *len)
{
	const u8 *src = (const u8 *)wqe->raw;
	u32 n, off, q = 1, total = FIELD_GET(ISIM_WQH_INLINE_LEN, hdr);

	if (total > ISIM_INLINE_MAX ||
	    isim_sq_quanta(hdr) > wqe->quanta)
		return -EINVAL;
	off = min_t(u32, total, ISIM_INLINE_FIRST);
	memcpy(buf, src + ISIM_INLINE_FIRST, off);
	while (off < total) {
		n = min_t(u32, total - off, ISIM_INLINE_PER_QUANTUM);
		memcpy(buf + off, src + q * ISIM_WQ_QUANTUM, n);
		off += n;
		q++;
	}
	*len = total;
	return 0;
}

/* read or write @len bytes at byte @off of a fragment list */
static int isim_sgl_io(struct isim_func *f, const struct isim_sgl *l,
		       u64 off, u8 *buf, u32 len, bool to_host)
{
	const struct isim_sge *e;
	u64 bus, contig;
	u32 i, n;
	int err;

	for (i = 0; i < l->n && len; i++) {
		e = &l->sge[i];
		if (off >= e->len) {
			off -= e->len;
			continue;
		}
		while (len && off < e->len) {
			err = isim_sge_bus(f, e, off, &bus, &contig);
			if (err)
				return err;
			n = min_t(u64, min_t(u64, len, e->len - off), contig);
			err = to_host ? isim_dma_write(f, bus, buf, n) :
					isim_dma_read(f, bus, buf, n);
			if (err)
				return err;
			buf += n;
			len -= n;
			off += n;
		}
		off = 0;
	}
	return len ? -EFAULT : 0;
}

/*
 * Move @len bytes from @src (or the inline bytes @inl) to @dst a page at
 * a time. Return: 0, -EFAULT the source faulted, -EIO the destination.
 */
static int isim_copy(struct isim_xfer *x, const struct isim_sgl *src,
		     const u8 *inl, const struct isim_sgl *dst, u64 len)
{
	u64 off;
	u32 n;

	for (off = 0; off < len; off += n) {
		n = min_t(u64, len - off, PAGE_SIZE);
		if (inl)
			memcpy(x->bounce, inl + off, n);
		else if (isim_sgl_io(x->f, src, off, x->bounce, n, false))
			return -EFAULT;
		if (isim_sgl_io(x->f, dst, off, x->bounce, n, true))
			return -EIO;
	}
	return 0;
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
		isim_aeq_post(f, code, c->sq ? ISIM_AE_SRC_SQ : ISIM_AE_SRC_RQ,
			      qp->id, qp->cq_ctx);
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

static struct isim_qp *isim_exec_peer(struct isim_func *f,
				      const struct isim_qp *qp)
{
	struct isim_qp *peer = xa_load(&f->qps, qp->dest_qp);

	if (!peer || peer->type != ISIM_QP_TYPE_ROCE_RC ||
	    (peer->state != ISIM_QPS_RTR && peer->state != ISIM_QPS_RTS))
		return NULL;
	return peer;
}

/* no RQ WQE at the responder: the requester waits for one, or gives up */
static int isim_exec_rnr(const struct isim_xfer *x)
{
	return x->rnr_retry == ISIM_QPC_RNR_FOREVER ? -EAGAIN :
						      ISIM_WC_RETRY_EXC;
}

/*
 * Take the responder's next RQ WQE into x->resp and its fragments into
 * x->rsgl. Return: 0, -ENOENT none posted, -EFAULT.
 */
static int isim_exec_take_rq(struct isim_xfer *x, struct isim_qp *peer)
{
	struct isim_wq *rq = &peer->rq;
	u64 hdr;
	int err;

	err = isim_wq_peek(x->f, rq, &hdr);
	if (!err)
		err = isim_wq_read(x->f, rq, isim_wq_wqe_quanta(peer, rq, hdr),
				   &x->resp);
	if (err)
		return err;
	isim_wq_advance(rq, x->resp.quanta);
	isim_wqe_sgl(&x->resp, hdr, 0, &x->rsgl);
	isim_sgl_owner(&x->rsgl, peer, ISIM_RIGHT_LOCAL_WRITE);
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
		return isim_exec_rnr(x);
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
	rc->idx = x->resp.idx;
	rc->bytes = x->len;
	rc->op = rc->imm_valid ? ISIM_BTH_SEND_ONLY_IMM : ISIM_BTH_SEND_ONLY;
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
		return isim_exec_rnr(x);
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

/* Where the payload of x->req comes from; @inl is set for inline data */
static int isim_exec_payload(struct isim_xfer *x, const struct isim_qp *qp,
			     u64 hdr, const u8 **inl)
{
	*inl = NULL;
	x->local.n = 0;
	x->local.total = 0;
	if (hdr & ISIM_WQH_INLINE) {
		if (isim_wqe_inline(&x->req, hdr, x->inl, &x->len))
			return ISIM_WC_LOC_QP_OP;
		*inl = x->inl;
		return 0;
	}
	isim_wqe_sgl(&x->req, hdr, hdr & ISIM_WQH_IMM ? 1 : 0, &x->local);
	isim_sgl_owner(&x->local, qp,
		       FIELD_GET(ISIM_WQH_OP, hdr) == ISIM_WQOP_READ ?
		       ISIM_RIGHT_LOCAL_WRITE : 0);
	x->len = x->local.total;
	return isim_sgl_allowed(x->f, &x->local) ? 0 : ISIM_WC_LOC_PROT;
}

/* Execute x->req. Return: 0, an enum isim_wc_minor, or -EAGAIN (RNR). */
static int isim_exec_op(struct isim_xfer *x, struct isim_qp *qp, u64 hdr,
			struct isim_cpl *rc)
{
	struct isim_qp *peer;
	const u8 *inl;
	int ret;

	ret = isim_exec_payload(x, qp, hdr, &inl);
	if (ret)
		return ret;
	peer = isim_exec_peer(x->f, qp);
	if (!peer)
		return ISIM_WC_RETRY_EXC;
	x->rnr_retry = qp->rnr_retry;
	rc->imm_valid = hdr & ISIM_WQH_IMM;
	rc->imm = lower_32_bits(x->req.w[0]);
	switch (FIELD_GET(ISIM_WQH_OP, hdr)) {
	case ISIM_WQOP_SEND_SOL:
		rc->solicited = true;
		fallthrough;
	case ISIM_WQOP_SEND:
		return isim_exec_send(x, peer, inl, rc);
	case ISIM_WQOP_WRITE_SOL:
		rc->solicited = true;
		fallthrough;
	case ISIM_WQOP_WRITE:
		return isim_exec_write(x, peer, inl, rc);
	case ISIM_WQOP_READ:
		if (inl || rc->imm_valid)
			return ISIM_WC_LOC_QP_OP;
		return isim_exec_read(x, peer);
	}
	return ISIM_WC_LOC_QP_OP;
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

	if (c.op != ISIM_WQOP_NOP)
		ret = isim_exec_op(x, qp, hdr, &rc);
	if (ret == -EAGAIN)
		return ret;
	qp->executed++;
	c.bytes = x->len;
	if (ret) {
		c.minor = ret;
		isim_exec_fail(x->f, qp, &c);
	} else if (hdr & ISIM_WQH_SIGNALED) {
		isim_exec_complete(x->f, qp, &c);
	}
	return 0;
}

/* ---- iWARP: the connection WQEs of an offloaded QP (toe.c) ---- */

/* the LSMM: its buffer goes out as one segment of the TCP stream */
static int isim_exec_lsmm(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	const u8 *inl;
	int ret;

	ret = isim_exec_payload(x, qp, hdr, &inl);
	if (ret)
		return ret;
	if (x->len > PAGE_SIZE)
		return ISIM_WC_LOC_LEN;
	if (inl)
		memcpy(x->bounce, inl, x->len);
	else if (isim_sgl_io(x->f, &x->local, 0, x->bounce, x->len, false))
		return ISIM_WC_LOC_PROT;
	ret = isim_toe_send(x->f, qp, x->bounce, x->len);
	/* RFC 5044 7.1.2: nothing more until the initiator's first FPDU */
	if (!ret && (hdr & ISIM_WQH_WAIT_RCV_PDU) && !qp->toe.first_fpdu)
		qp->toe.wait_fpdu = true;
	return ret;
}

/*
 * Execute an iWARP SQ WQE. Return: 0, an enum isim_wc_minor, or -EAGAIN
 * for a WQE that needs the iWARP data path, which is not modelled: it
 * stays posted.
 */
static int isim_exec_iw_op(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	const u8 *inl;
	int ret;

	switch (FIELD_GET(ISIM_WQH_OP, hdr)) {
	case ISIM_WQOP_NOP:
		return 0;
	case ISIM_WQOP_GEN_RTS_AE:
		if (isim_aeq_post(x->f, ISIM_AE_LLP_ESTABLISHED,
				  ISIM_AE_SRC_NONE, qp->id, qp->cq_ctx))
			dev_dbg_ratelimited(&x->f->dev, "QP %u: AE lost\n",
					    qp->id);
		return 0;
	case ISIM_WQOP_SEND:
		if (hdr & ISIM_WQH_STREAM_MODE)
			return isim_exec_lsmm(x, qp, hdr);
		break;
	case ISIM_WQOP_WRITE:
	case ISIM_WQOP_READ:
		/* zero length: the RTR, which completes here (no data path) */
		ret = isim_exec_payload(x, qp, hdr, &inl);
		if (ret || !x->len)
			return ret;
		break;
	}
	return -EAGAIN;
}

/* Return: 0 the WQE is done, -EAGAIN it waits */
static int isim_exec_iw_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	struct isim_cpl c = {
		.sq = true,
		.idx = x->req.idx,
		.op = FIELD_GET(ISIM_WQH_OP, hdr),
	};
	int ret;

	x->len = 0;
	ret = isim_exec_iw_op(x, qp, hdr);
	if (ret == -EAGAIN)
		return ret;
	qp->executed++;
	c.bytes = x->len;
	if (ret) {
		c.minor = ret;
		isim_exec_fail(x->f, qp, &c);
		isim_toe_new_state(x->f, qp, NULL);
	} else if (hdr & ISIM_WQH_SIGNALED) {
		isim_exec_complete(x->f, qp, &c);
	}
	return 0;
}

/* the SQ runs: an RC QP in RTS, or an offloaded iWARP QP in RTS */
static bool isim_exec_sq_runs(const struct isim_qp *qp)
{
	if (qp->state != ISIM_QPS_RTS)
		return false;
	if (qp->type == ISIM_QP_TYPE_IWARP)
		return qp->toe.linked && !qp->toe.wait_fpdu;
	return qp->type == ISIM_QP_TYPE_ROCE_RC;
}

/* ---- the engine pass ---- */

static struct isim_xfer *isim_xfer_get(struct isim_xfer **xp,
				       struct isim_func *f)
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

static void isim_xfer_put(struct isim_xfer *x)
{
	if (!x)
		return;
	free_page((unsigned long)x->bounce);
	kfree(x);
}

static unsigned int isim_exec_sq(struct isim_xfer **xp, struct isim_func *f,
				 struct isim_qp *qp, unsigned int budget)
{
	struct isim_wq *sq = &qp->sq;
	struct isim_xfer *x;
	unsigned int n = 0;
	u64 hdr;

	while (n < budget && isim_exec_sq_runs(qp) &&
	       !isim_wq_peek(f, sq, &hdr)) {
		x = isim_xfer_get(xp, f);
		if (!x || isim_wq_read(f, sq, isim_wq_wqe_quanta(qp, sq, hdr),
				       &x->req))
			break;
		if (qp->type == ISIM_QP_TYPE_IWARP ?
		    isim_exec_iw_wqe(x, qp, hdr) : isim_exec_sq_wqe(x, qp, hdr))
			break;
		isim_wq_advance(sq, x->req.quanta);
		n++;
	}
	return n;
}

static unsigned int isim_exec_qp(struct isim_xfer **xp, struct isim_func *f,
				 struct isim_qp *qp, unsigned int budget)
{
	unsigned int n = 0;

	if (qp->suspended)
		return 0;
	if (qp->sq.flushing)
		n += isim_exec_flush_posted(f, qp, &qp->sq, budget);
	if (qp->rq.flushing)
		n += isim_exec_flush_posted(f, qp, &qp->rq, budget - n);
	n += isim_exec_sq(xp, f, qp, budget - n);
	return n;
}

/**
 * isim_exec_run - one pass of the engine over the QPs' rings
 * @f: function
 * @budget: most WQEs to execute or flush in this pass
 *
 * Return: true if the budget ran out (more work may be waiting).
 */
bool isim_exec_run(struct isim_func *f, unsigned int budget)
{
	struct isim_xfer *x = NULL;
	unsigned int left = budget;
	struct isim_qp *qp;
	unsigned long id;

	lockdep_assert_held(&f->eng_lock);
	/* consumed only: every active queue is looked at anyway */
	isim_xchg32(f, ISIM_REG_WQEALLOC, ISIM_DB_IDLE);
	xa_for_each(&f->qps, id, qp) {
		if (!left)
			break;
		left -= isim_exec_qp(&x, f, qp, left);
	}
	isim_xfer_put(x);
	return !left;
}

