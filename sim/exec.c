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
 *   its pages are found through its PBLEs (or its one buffer). A bound
 *   VA-based window (BIND_MW, stag.c) serves remote accesses in its range
 *   and rights through the MR it was bound to; zero-based windows are not
 *   modelled.
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
 * iWARP: an offloaded QP in RTS (toe.c) executes its connection WQEs: the
 * LSMM (a SEND with STREAMMODE) goes out as a segment of the connection,
 * and with WAITFORRCVPDU holds the SQ until the peer's first FPDU; NOPs;
 * GEN_RTS_AE raises LLP_CONNECTION_ESTABLISHED. Then its data WQEs go on
 * the wire as RDMAP over DDP over MPA (RFC 5040, 5041, 5044; markers off,
 * CRC32c unless the context turns it off), one FPDU per TCP segment:
 * SEND (solicited, with invalidate) as untagged messages of queue 0, RDMA
 * WRITE tagged, RDMA READ as a request on queue 1. SENDs and WRITEs
 * complete once transmitted (the wire is lossless); a READ completes when
 * its last READ RESPONSE has been placed, and holds the SQ until then.
 * The RTR is a real zero-length WRITE or READ. Received FPDUs (toe.c
 * hands over the payload of in-order segments) are checked (length, CRC,
 * versions, queue, MSN, opcode) and placed: a SEND into the RQ WQE at the
 * tail (completed with its last segment), a WRITE into the MR its STag
 * names (remote write right, PD, bounds), a READ request answered with
 * READ RESPONSE FPDUs from the source STag (remote read right). An error
 * raises the AE the adapter would, with the frame at fault in the QP's
 * Q2, and halts the QP until the driver moves it: to TERMINATE, whose
 * message (RFC 5040, 4.8; the driver writes it in Q2) the engine sends
 * as an FPDU of DDP queue 2 before our FIN, or to ERR. A TERMINATE the
 * peer sends halts the QP the same way (LLP_TERMINATE_RECEIVED), and so
 * does an SQ WQE that fails (its CQE carries the error, the AE names the
 * SQ): the connection is not given up behind the peer's back.
 *
 * Both transports: fast-register WQEs map an MR that ALLOC_STAG reserved,
 * local invalidate WQEs and received SENDs with invalidate unmap it (or a
 * type 2 window) again (stag.c); the RQ CQE names the STag invalidated.
 *
 * RoCEv2 UD QPs (the GSI QP too) in RTS send their SENDs as real RoCEv2
 * datagrams through the AH the WQE names; ud.c builds and receives them.
 *
 * Not modelled: RoCEv2 RC between two functions (RC runs in loopback
 * only), immediate data and atomics over iWARP (RFC 7306), FPDUs split
 * across segments, more than one READ in flight.
 */
#include <linux/crc32.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

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

/*
 * Quanta of an SQ WQE. Fragments: one quantum for slot 0, one more per two
 * further slots, on both generations (gen2 pads an even count with a
 * valid-only slot, gen1 does not and has at most three). Inline data:
 * gen2 8 bytes, then 31 per quantum; gen1 16 bytes, then 32 (two quanta
 * at most, as a gen1 WQE never crosses a 2-quantum boundary).
 */
static u8 isim_sq_quanta(u8 gen, u64 hdr)
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

static u8 isim_wq_wqe_quanta(const struct isim_func *f,
			     const struct isim_qp *qp,
			     const struct isim_wq *wq, u64 hdr)
{
	u8 q = wq == &qp->rq ? 1U << min_t(u8, wq->shift, 3) :
			       isim_sq_quanta(f->gen, hdr);

	/* a WQE never wraps; a malformed one ends at the ring's end */
	return min_t(u32, q, wq->quanta - wq->tail);
}

static int isim_wq_read(struct isim_func *f, const struct isim_wq *wq,
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

static void isim_wq_advance(struct isim_wq *wq, u8 quanta)
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

/* ---- payload ---- */

/**
 * isim_frag_stag - the STag of a fragment's second word
 * @gen: the function's generation
 * @w: the word: gen2 STag 31:0, length 62:32; gen1 length 31:0, STag 63:32
 *
 * Return: the STag.
 */
u32 isim_frag_stag(u8 gen, u64 w)
{
	if (gen == ISIM_GEN1)
		return FIELD_GET(ISIM_FRAG_G1_STAG, w);
	return FIELD_GET(ISIM_FRAG_STAG, w);
}

/**
 * isim_frag_len - the length of a fragment's second word
 * @gen: the function's generation
 * @w: the word (see isim_frag_stag())
 *
 * Return: the length in bytes.
 */
u32 isim_frag_len(u8 gen, u64 w)
{
	if (gen == ISIM_GEN1)
		return FIELD_GET(ISIM_FRAG_G1_LEN, w);
	return FIELD_GET(ISIM_FRAG_LEN, w);
}

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
		e->len = isim_frag_len(wqe->gen, wqe->w[wd + 1]);
		e->stag = isim_frag_stag(wqe->gen, wqe->w[wd + 1]);
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

/**
 * isim_sgl_allowed - every fragment of a list may be accessed
 * @f: function
 * @l: the fragments, their owner and the rights the access needs
 *
 * Return: true if each is STag 0 on a privileged QP, or in an MR or
 * window of the owner's PD with the rights.
 */
bool isim_sgl_allowed(struct isim_func *f, const struct isim_sgl *l)
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

/* gen1 inline data: bytes 0..15 of quantum 0, then quantum 1 whole */
static int isim_wqe_inline_g1(const struct isim_wqe *wqe, u32 total,
			      u8 *buf, u64 *len)
{
	const u8 *src = (const u8 *)wqe->raw;
	u32 first = min_t(u32, total, ISIM_INLINE_G1_FIRST);

	if (total > ISIM_INLINE_G1_MAX ||
	    (total > ISIM_INLINE_G1_FIRST && wqe->quanta < 2))
		return -EINVAL;
	memcpy(buf, src, first);
	memcpy(buf + first, src + ISIM_WQ_QUANTUM, total - first);
	*len = total;
	return 0;
}

/*
 * Unpack inline data: 8 bytes at byte 8, then 31 bytes per quantum (gen2;
 * gen1 see isim_wqe_inline_g1()).
 */
static int isim_wqe_inline(const struct isim_wqe *wqe, u64 hdr, u8 *buf,
			   u64 *len)
{
	const u8 *src = (const u8 *)wqe->raw;
	u32 n, off, q = 1, total = FIELD_GET(ISIM_WQH_INLINE_LEN, hdr);

	if (wqe->gen == ISIM_GEN1)
		return isim_wqe_inline_g1(wqe, total, buf, len);
	if (total > ISIM_INLINE_MAX ||
	    isim_sq_quanta(wqe->gen, hdr) > wqe->quanta)
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

/**
 * isim_sgl_io - read or write bytes of a fragment list
 * @f: function
 * @l: the fragments, allowed (isim_sgl_allowed())
 * @off: byte offset into the list
 * @buf: where the bytes come from or go
 * @len: bytes
 * @to_host: write to the fragments (else read from them)
 *
 * Return: 0, or -EFAULT when a fragment cannot be reached or the list
 * ends early.
 */
int isim_sgl_io(struct isim_func *f, const struct isim_sgl *l, u64 off,
		u8 *buf, u32 len, bool to_host)
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

/*
 * An SQ WQE of an offloaded iWARP QP failed (a bad local key, a message
 * too long for the peer): it completes with the error, and the QP halts
 * as for a bad FPDU from the peer (isim_exec_iw_rx()): nothing more is
 * sent or placed, the connection stays offloaded and the peer's segments
 * acknowledged, until the driver moves the QP on: to TERMINATE (a
 * TERMINATE naming a local catastrophe, then our FIN) or to ERR with
 * RESETCON. The AE names the SQ; an error without an AE code of its own
 * is a QP catastrophe.
 */
static void isim_exec_iw_fail(struct isim_func *f, struct isim_qp *qp,
			      const struct isim_cpl *c)
{
	u16 code = isim_exec_ae_code(c->minor) ?: ISIM_AE_QP_CATASTROPHIC;

	isim_exec_complete(f, qp, c);
	qp->term_halted = true;
	if (isim_aeq_post(f, code, ISIM_AE_SRC_SQ, qp->id, qp->cq_ctx))
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

/* an RDMA READ, with or without a local invalidate of its sink */
static bool isim_wqe_is_read(u64 hdr)
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

/* ---- iWARP: RDMAP over DDP over MPA on an offloaded connection ---- */

#define ISIM_DDP_TAGGED_HDR	14	/* DDP + RDMAP header, tagged */
#define ISIM_DDP_UNTAGGED_HDR	18	/* and untagged */
#define ISIM_DDP_T		0x80	/* DDP control: tagged */
#define ISIM_DDP_L		0x40	/* last segment of the message */
#define ISIM_DDP_DV		0x01	/* DDP version 1 */
#define ISIM_DDP_DV_MASK	0x03
#define ISIM_RDMAP_RV		0x40	/* RDMAP version 1, in bits 7:6 */
#define ISIM_RDMAP_RV_MASK	0xc0
#define ISIM_RDMAP_OP_MASK	0x0f
#define ISIM_READ_REQ_BYTES	28	/* sink STag, TO, size, source STag, TO */

/* RDMAP opcodes (RFC 5040, 4.3) */
enum isim_rdmap_op {
	ISIM_RDMAP_WRITE	= 0,
	ISIM_RDMAP_READ_REQ	= 1,
	ISIM_RDMAP_READ_RESP	= 2,
	ISIM_RDMAP_SEND		= 3,
	ISIM_RDMAP_SEND_INV	= 4,
	ISIM_RDMAP_SEND_SE	= 5,
	ISIM_RDMAP_SEND_SE_INV	= 6,
	ISIM_RDMAP_TERMINATE	= 7,
};

/* untagged DDP queues (RFC 5040, 5.1) */
enum isim_ddp_qn {
	ISIM_DDP_QN_SEND	= 0,
	ISIM_DDP_QN_READ_REQ	= 1,
	ISIM_DDP_QN_TERMINATE	= 2,
};

/**
 * struct isim_iw_msg - the DDP/RDMAP header fields of one message
 * @op: RDMAP opcode
 * @tagged: a tagged message (@stag and @to name the sink)
 * @stag: tagged: the sink STag; untagged: the STag to invalidate, or 0
 * @to: tagged offset of the message's first byte
 * @qn: untagged: the queue
 * @msn: untagged: the message sequence number
 */
struct isim_iw_msg {
	u8 op;
	bool tagged;
	u32 stag;
	u64 to;
	u32 qn;
	u32 msn;
};

/* CRC32c (RFC 3385) of the FPDU, as MPA sends it */
static u32 isim_mpa_crc(const u8 *p, u32 len)
{
	return ~__crc32c_le(~0U, p, len);
}

/*
 * One FPDU: bytes @off to @off + @n of the message @m, from @src (or the
 * inline bytes @inl), with the L bit when @last. It is built in x->bounce
 * and leaves as one TCP segment.
 */
static int isim_iw_fpdu(struct isim_xfer *x, struct isim_qp *qp,
			const struct isim_iw_msg *m, const struct isim_sgl *src,
			const u8 *inl, u64 off, u32 n, bool last)
{
	u32 hlen = m->tagged ? ISIM_DDP_TAGGED_HDR : ISIM_DDP_UNTAGGED_HDR;
	u8 *b = x->bounce, *h = b + ISIM_MPA_LEN_BYTES, *data = h + hlen;
	u32 ulen = hlen + n, pad = -(ISIM_MPA_LEN_BYTES + ulen) & 3;
	u32 total = ISIM_MPA_LEN_BYTES + ulen + pad;

	put_unaligned_be16(ulen, b);
	h[0] = (m->tagged ? ISIM_DDP_T : 0) | (last ? ISIM_DDP_L : 0) |
	       ISIM_DDP_DV;
	h[1] = ISIM_RDMAP_RV | m->op;
	put_unaligned_be32(m->stag, h + 2);
	if (m->tagged) {
		put_unaligned_be64(m->to + off, h + 6);
	} else {
		put_unaligned_be32(m->qn, h + 6);
		put_unaligned_be32(m->msn, h + 10);
		put_unaligned_be32(off, h + 14);
	}
	if (inl)
		memcpy(data, inl + off, n);
	else if (n && isim_sgl_io(x->f, src, off, data, n, false))
		return ISIM_WC_LOC_PROT;
	memset(data + n, 0, pad);
	put_unaligned_le32(qp->toe.no_crc ? 0 : isim_mpa_crc(b, total),
			   b + total);
	return isim_toe_send(x->f, qp, b, total + ISIM_MPA_CRC_BYTES);
}

/*
 * Send message @m of @len bytes as DDP segments of one FPDU each, as large
 * as the MSS (and the page the FPDU is built in) allow.
 */
static int isim_iw_send_msg(struct isim_xfer *x, struct isim_qp *qp,
			    const struct isim_iw_msg *m,
			    const struct isim_sgl *src, const u8 *inl, u64 len)
{
	u32 hlen = m->tagged ? ISIM_DDP_TAGGED_HDR : ISIM_DDP_UNTAGGED_HDR;
	u32 seg = min_t(u32, qp->toe.mss, PAGE_SIZE);
	u32 room = (seg - ISIM_MPA_LEN_BYTES - ISIM_MPA_CRC_BYTES - hlen) &
		   ~3U;
	u64 off = 0;
	u32 n;
	int ret;

	do {
		n = min_t(u64, len - off, room);
		ret = isim_iw_fpdu(x, qp, m, src, inl, off, n, off + n == len);
		if (ret)
			return ret;
		off += n;
	} while (off < len);
	return 0;
}

/* a READ request on queue 1; the READ waits for its response */
static int isim_iw_read_req(struct isim_xfer *x, struct isim_qp *qp,
			    u64 hdr)
{
	struct isim_toe *t = &qp->toe;
	struct isim_iw_msg m = {
		.op = ISIM_RDMAP_READ_REQ,
		.qn = ISIM_DDP_QN_READ_REQ,
		.msn = t->snd_msn[ISIM_DDP_QN_READ_REQ],
	};
	u8 p[ISIM_READ_REQ_BYTES];
	u32 sink = isim_frag_stag(x->f->gen, x->req.w[1]);
	int ret;

	/* the sink is one fragment: its STag and address (slot 0) */
	if (x->local.n > 1 || x->len > U32_MAX)
		return ISIM_WC_LOC_QP_OP;
	put_unaligned_be32(sink, p);
	put_unaligned_be64(x->req.w[0], p + 4);
	put_unaligned_be32(x->len, p + 12);
	put_unaligned_be32(FIELD_GET(ISIM_WQH_REMOTE_STAG, hdr), p + 16);
	put_unaligned_be64(x->req.w[2], p + 20);
	ret = isim_iw_send_msg(x, qp, &m, NULL, p, sizeof(p));
	if (ret)
		return ret;
	t->snd_msn[ISIM_DDP_QN_READ_REQ]++;
	t->rd_busy = true;
	t->rd_signaled = hdr & ISIM_WQH_SIGNALED;
	t->rd_idx = x->req.idx;
	t->rd_stag = sink;
	t->rd_to = x->req.w[0];
	t->rd_len = x->len;
	t->rd_done = 0;
	t->rd_inv = FIELD_GET(ISIM_WQH_OP, hdr) == ISIM_WQOP_READ_LOCAL_INV;
	return 0;
}

/* transmit the data WQE x->req of an offloaded QP */
static int isim_iw_tx(struct isim_xfer *x, struct isim_qp *qp, u64 hdr,
		      const u8 *inl)
{
	struct isim_toe *t = &qp->toe;
	u32 stag = FIELD_GET(ISIM_WQH_REMOTE_STAG, hdr);
	struct isim_iw_msg m = {};
	int ret;

	if (hdr & ISIM_WQH_IMM)
		return ISIM_WC_LOC_QP_OP;
	switch (FIELD_GET(ISIM_WQH_OP, hdr)) {
	case ISIM_WQOP_READ:
	case ISIM_WQOP_READ_LOCAL_INV:
		return inl ? ISIM_WC_LOC_QP_OP : isim_iw_read_req(x, qp, hdr);
	case ISIM_WQOP_WRITE:
	case ISIM_WQOP_WRITE_SOL:
		m.op = ISIM_RDMAP_WRITE;
		m.tagged = true;
		m.stag = stag;
		m.to = x->req.w[2];
		return isim_iw_send_msg(x, qp, &m, &x->local, inl, x->len);
	case ISIM_WQOP_SEND_INV:
		m.op = ISIM_RDMAP_SEND_INV;
		m.stag = stag;
		break;
	case ISIM_WQOP_SEND_SOL:
		m.op = ISIM_RDMAP_SEND_SE;
		break;
	case ISIM_WQOP_SEND_SOL_INV:
		m.op = ISIM_RDMAP_SEND_SE_INV;
		m.stag = stag;
		break;
	default:
		m.op = ISIM_RDMAP_SEND;
		break;
	}
	m.qn = ISIM_DDP_QN_SEND;
	m.msn = t->snd_msn[ISIM_DDP_QN_SEND];
	ret = isim_iw_send_msg(x, qp, &m, &x->local, inl, x->len);
	if (!ret)
		t->snd_msn[ISIM_DDP_QN_SEND]++;
	return ret;
}

/* ---- iWARP receive ---- */

/*
 * A range of the QP's memory a peer names by STag: a registered MR of its
 * PD with @rights covering it. STag 0 is never valid from the wire.
 */
static bool isim_iw_remote_ok(struct isim_xfer *x, struct isim_qp *qp,
			      u32 stag, u64 to, u32 len, u8 rights)
{
	isim_sgl_one(&x->rsgl, to, len, stag);
	isim_sgl_owner(&x->rsgl, qp, rights);
	x->rsgl.privileged = false;
	return stag && isim_sgl_allowed(x->f, &x->rsgl);
}

/* a SEND segment lands in the RQ WQE at the tail, at its MO */
static u16 isim_iw_rx_send(struct isim_xfer *x, struct isim_qp *qp, u8 op,
			   const u8 *h, const u8 *data, u32 n, bool last)
{
	struct isim_toe *t = &qp->toe;
	struct isim_wq *rq = &qp->rq;
	u32 msn = get_unaligned_be32(h + 10), mo = get_unaligned_be32(h + 14);
	struct isim_cpl rc = {
		.op = op,
		.solicited = op == ISIM_RDMAP_SEND_SE ||
			     op == ISIM_RDMAP_SEND_SE_INV,
	};
	u16 ae = 0;
	u64 hdr;

	if (op < ISIM_RDMAP_SEND || op > ISIM_RDMAP_SEND_SE_INV)
		return ISIM_AE_RDMAP_BAD_OPCODE;
	if (msn != t->rcv_msn[ISIM_DDP_QN_SEND])
		return ISIM_AE_DDP_MSN_GAP;
	if (isim_wq_peek(x->f, rq, &hdr) ||
	    isim_wq_read(x->f, rq, isim_wq_wqe_quanta(x->f, qp, rq, hdr),
			 &x->resp))
		return ISIM_AE_DDP_NO_BUFFER;
	isim_wqe_sgl(&x->resp, hdr, 0, &x->rsgl);
	isim_sgl_owner(&x->rsgl, qp, ISIM_RIGHT_LOCAL_WRITE);
	rc.idx = x->resp.idx;
	if (!isim_sgl_allowed(x->f, &x->rsgl)) {
		rc.minor = ISIM_WC_LOC_PROT;
		ae = ISIM_AE_BAD_STAG;
	} else if ((u64)mo + n > x->rsgl.total) {
		rc.minor = ISIM_WC_LOC_LEN;
		ae = ISIM_AE_MSG_TOO_LONG;
	} else if (n && isim_sgl_io(x->f, &x->rsgl, mo, (u8 *)data, n, true)) {
		rc.minor = ISIM_WC_LOC_PROT;
		ae = ISIM_AE_BAD_STAG;
	}
	if (!ae && !last)
		return 0;
	/* the message is in: a SEND with invalidate unmaps its STag */
	if (!ae && (op == ISIM_RDMAP_SEND_INV || op == ISIM_RDMAP_SEND_SE_INV)) {
		rc.inv_stag = get_unaligned_be32(h + 2);
		rc.inv = !isim_stag_invalidate(x->f, qp->pd, rc.inv_stag);
		if (!rc.inv) {
			rc.minor = ISIM_WC_LOC_PROT;
			ae = ISIM_AE_BAD_STAG;
		}
	}
	if (!ae)
		isim_hwc_add(x->f, ISIM_GS_RDMA_RX_SENDS, 1);
	rc.bytes = ae ? 0 : mo + n;
	isim_exec_complete(x->f, qp, &rc);
	isim_wq_advance(rq, x->resp.quanta);
	t->rcv_msn[ISIM_DDP_QN_SEND]++;
	return ae;
}

/* a READ request: stream the source range back as READ RESPONSEs */
static u16 isim_iw_rx_read_req(struct isim_xfer *x, struct isim_qp *qp,
			       const u8 *h, const u8 *p, u32 n, bool last)
{
	struct isim_toe *t = &qp->toe;
	struct isim_iw_msg m = {
		.op = ISIM_RDMAP_READ_RESP,
		.tagged = true,
	};
	u32 size, src;
	u64 to;

	if (n != ISIM_READ_REQ_BYTES || !last || get_unaligned_be32(h + 14))
		return ISIM_AE_RDMAP_BAD_READ_REQ;
	if (get_unaligned_be32(h + 10) != t->rcv_msn[ISIM_DDP_QN_READ_REQ])
		return ISIM_AE_DDP_MSN_GAP;
	t->rcv_msn[ISIM_DDP_QN_READ_REQ]++;
	isim_hwc_add(x->f, ISIM_GS_RDMA_RX_READS, 1);
	m.stag = get_unaligned_be32(p);
	m.to = get_unaligned_be64(p + 4);
	size = get_unaligned_be32(p + 12);
	src = get_unaligned_be32(p + 16);
	to = get_unaligned_be64(p + 20);
	/* a zero-length READ (the RTR) reads nothing and checks nothing */
	if (size && (!qp->remote_read ||
		     !isim_iw_remote_ok(x, qp, src, to, size,
					ISIM_RIGHT_REMOTE_READ)))
		return ISIM_AE_BAD_STAG;
	if (!size)
		isim_sgl_one(&x->rsgl, 0, 0, 0);
	return isim_iw_send_msg(x, qp, &m, &x->rsgl, NULL, size) ?
	       ISIM_AE_BAD_STAG : 0;
}

/* a READ RESPONSE segment for the outstanding READ */
static u16 isim_iw_rx_read_resp(struct isim_xfer *x, struct isim_qp *qp,
				u32 stag, u64 to, const u8 *data, u32 n,
				bool last)
{
	struct isim_toe *t = &qp->toe;
	struct isim_cpl c = {
		.sq = true, .op = ISIM_WQOP_READ, .idx = t->rd_idx,
	};

	if (!t->rd_busy || stag != t->rd_stag || to != t->rd_to + t->rd_done ||
	    n > t->rd_len - t->rd_done || (last && n != t->rd_len - t->rd_done))
		return ISIM_AE_RDMAP_BAD_READ_RESP;
	if (n) {
		isim_sgl_one(&x->rsgl, to, n, stag);
		isim_sgl_owner(&x->rsgl, qp, ISIM_RIGHT_LOCAL_WRITE);
		if (!isim_sgl_allowed(x->f, &x->rsgl) ||
		    isim_sgl_io(x->f, &x->rsgl, 0, (u8 *)data, n, true)) {
			t->rd_busy = false;
			c.minor = ISIM_WC_LOC_PROT;
			isim_exec_complete(x->f, qp, &c);
			return ISIM_AE_BAD_STAG;
		}
	}
	t->rd_done += n;
	if (!last)
		return 0;
	t->rd_busy = false;
	c.bytes = t->rd_len;
	/* a READ with local invalidate unmaps its sink once the data is in */
	if (t->rd_inv && isim_stag_invalidate(x->f, qp->pd, t->rd_stag)) {
		c.minor = ISIM_WC_LOC_PROT;
		isim_exec_complete(x->f, qp, &c);
		return ISIM_AE_BAD_STAG;
	}
	if (t->rd_signaled)
		isim_exec_complete(x->f, qp, &c);
	return 0;
}

/* a tagged FPDU: RDMA WRITE or READ RESPONSE */
static u16 isim_iw_rx_tagged(struct isim_xfer *x, struct isim_qp *qp,
			     u8 op, const u8 *h, const u8 *data, u32 n,
			     bool last)
{
	u32 stag = get_unaligned_be32(h + 2);
	u64 to = get_unaligned_be64(h + 6);

	if (op == ISIM_RDMAP_READ_RESP)
		return isim_iw_rx_read_resp(x, qp, stag, to, data, n, last);
	if (op != ISIM_RDMAP_WRITE)
		return ISIM_AE_RDMAP_BAD_OPCODE;
	/* a zero-length WRITE (the RTR) places nothing */
	if (n && (!qp->remote_write ||
		  !isim_iw_remote_ok(x, qp, stag, to, n,
				     ISIM_RIGHT_REMOTE_WRITE) ||
		  isim_sgl_io(x->f, &x->rsgl, 0, (u8 *)data, n, true)))
		return ISIM_AE_BAD_STAG;
	if (last)
		isim_hwc_add(x->f, ISIM_GS_RDMA_RX_WRITES, 1);
	return 0;
}

/*
 * The FPDU at @p, @avail bytes of the segment from there on; *@flen is
 * set to its length. Return: 0 or the AE of what is wrong with it.
 */
static u16 isim_iw_rx_fpdu(struct isim_xfer *x, struct isim_qp *qp,
			   const u8 *p, u32 avail, u32 *flen)
{
	const u8 *h = p + ISIM_MPA_LEN_BYTES;
	u32 ulen, pad, hlen;
	bool tagged, last;
	u8 op;

	if (avail < ISIM_MPA_LEN_BYTES)
		return ISIM_AE_LLP_LENGTH_MISMATCH;
	ulen = get_unaligned_be16(p);
	pad = -(ISIM_MPA_LEN_BYTES + ulen) & 3;
	*flen = ISIM_MPA_LEN_BYTES + ulen + pad + ISIM_MPA_CRC_BYTES;
	/* an FPDU must end in its segment: nothing reassembles it */
	if (*flen > avail || ulen < 2)
		return ISIM_AE_LLP_LENGTH_MISMATCH;
	if (!qp->toe.no_crc &&
	    get_unaligned_le32(p + *flen - ISIM_MPA_CRC_BYTES) !=
	    isim_mpa_crc(p, *flen - ISIM_MPA_CRC_BYTES))
		return ISIM_AE_LLP_MPA_CRC;
	if ((h[0] & ISIM_DDP_DV_MASK) != ISIM_DDP_DV)
		return ISIM_AE_DDP_BAD_VERSION;
	if ((h[1] & ISIM_RDMAP_RV_MASK) != ISIM_RDMAP_RV)
		return ISIM_AE_RDMAP_BAD_VERSION;
	tagged = h[0] & ISIM_DDP_T;
	last = h[0] & ISIM_DDP_L;
	op = h[1] & ISIM_RDMAP_OP_MASK;
	hlen = tagged ? ISIM_DDP_TAGGED_HDR : ISIM_DDP_UNTAGGED_HDR;
	if (ulen < hlen)
		return ISIM_AE_LLP_LENGTH_MISMATCH;
	if (tagged)
		return isim_iw_rx_tagged(x, qp, op, h, h + hlen, ulen - hlen,
					 last);
	switch (get_unaligned_be32(h + 6)) {
	case ISIM_DDP_QN_SEND:
		return isim_iw_rx_send(x, qp, op, h, h + hlen, ulen - hlen,
				       last);
	case ISIM_DDP_QN_READ_REQ:
		if (op != ISIM_RDMAP_READ_REQ)
			return ISIM_AE_RDMAP_BAD_OPCODE;
		return isim_iw_rx_read_req(x, qp, h, h + hlen, ulen - hlen,
					   last);
	case ISIM_DDP_QN_TERMINATE:
		if (op != ISIM_RDMAP_TERMINATE)
			return ISIM_AE_RDMAP_BAD_OPCODE;
		atomic64_inc(&x->f->toe.term_rx);
		return ISIM_AE_LLP_TERMINATE_RECEIVED;
	}
	return ISIM_AE_DDP_BAD_QN;
}

/* Execute an iWARP SQ WQE. Return: 0 or an enum isim_wc_minor. */
static int isim_exec_iw_op(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	const u8 *inl;
	int ret;

	switch (FIELD_GET(ISIM_WQH_OP, hdr)) {
	case ISIM_WQOP_NOP:
		return 0;
	case ISIM_WQOP_BIND_MW:
	case ISIM_WQOP_FAST_REG:
	case ISIM_WQOP_LOCAL_INV:
		return isim_exec_mem_op(x, qp, FIELD_GET(ISIM_WQH_OP, hdr));
	case ISIM_WQOP_GEN_RTS_AE:
		/* with RTS and ESTABLISHED in it, as every AE of a connection */
		isim_toe_ae(x->f, qp, ISIM_AE_LLP_ESTABLISHED);
		return 0;
	case ISIM_WQOP_SEND:
		if (hdr & ISIM_WQH_STREAM_MODE)
			return isim_exec_lsmm(x, qp, hdr);
		fallthrough;
	case ISIM_WQOP_SEND_INV:
	case ISIM_WQOP_SEND_SOL:
	case ISIM_WQOP_SEND_SOL_INV:
	case ISIM_WQOP_WRITE:
	case ISIM_WQOP_WRITE_SOL:
	case ISIM_WQOP_READ:
	case ISIM_WQOP_READ_LOCAL_INV:
		ret = isim_exec_payload(x, qp, hdr, &inl);
		if (ret)
			return ret;
		return isim_iw_tx(x, qp, hdr, inl);
	}
	return ISIM_WC_LOC_QP_OP;
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
	/* the LSMM is the connection's, not an RDMA message */
	if (!ret && !(hdr & ISIM_WQH_STREAM_MODE))
		isim_hwc_wqe(x->f, c.op, false);
	/* a READ completes with its response (isim_iw_rx_read_resp()) */
	if (!ret && qp->toe.rd_busy && isim_wqe_is_read(hdr))
		return 0;
	c.bytes = x->len;
	if (ret) {
		c.minor = ret;
		isim_exec_iw_fail(x->f, qp, &c);
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

/* every QP, resuming where the last pass ran out; Return: WQEs done */
static unsigned int isim_exec_scan(struct isim_xfer **xp, struct isim_func *f,
				   unsigned int budget, bool *unasked)
{
	unsigned int n, done = 0, visits = 0;
	struct isim_qp *qp;
	bool kicked;

	/*
	 * Round robin: a pass that runs out of budget moves the QP it did
	 * not reach to the front, where the next pass starts, so that busy
	 * QPs early in the list cannot starve the others (the adapter's
	 * scheduler is fair between QPs too). A list, not the xarray: a
	 * scan visits hundreds of QPs that have nothing to do, and a walk
	 * of the xarray costs an RCU read section per entry.
	 */
	list_for_each_entry(qp, &f->qp_list, node) {
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
	bool asked, unasked = false;
	unsigned int done;

	lockdep_assert_held(&f->eng_lock);
	/* the kernel's doorbell, and user space's in its doorbell page */
	asked = isim_xchg32(f, f->rm->wqealloc, ISIM_DB_IDLE) !=
		ISIM_DB_IDLE;
	asked |= isim_xchg32(f, isim_reg_udb_wqealloc(f), ISIM_DB_IDLE) !=
		 ISIM_DB_IDLE;
	asked |= f->rescan || f->exec_resume;
	if (asked)
		f->asked_passes++;
	f->rescan = false;
	f->exec_resume = false;
	f->scanning = asked || scan;
	if (f->scanning) {
		f->scans++;
		done = isim_exec_scan(&x, f, budget, &unasked);
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

/*
 * The frame an AE is about goes to the QP's Q2 for the driver: the
 * segment's headers, then the FPDU at fault, as much as fits.
 */
static u8 isim_iw_q2_frame(struct isim_func *f, struct isim_qp *qp,
			   const u8 *hdrs, u32 hdr_len, const u8 *fpdu,
			   u32 len)
{
	u8 buf[ISIM_Q2_BYTES - ISIM_Q2_FRAME_OFF];
	u32 n;

	if (!qp->q2_pa || !hdrs || hdr_len > sizeof(buf))
		return 0;
	n = min_t(u32, len, sizeof(buf) - hdr_len);
	memcpy(buf, hdrs, hdr_len);
	memcpy(buf + hdr_len, fpdu, n);
	if (isim_dma_write(f, qp->q2_pa + ISIM_Q2_FRAME_OFF, buf,
			   hdr_len + n))
		return 0;
	return ISIM_AEQ_Q2_FRAME;
}

/**
 * isim_exec_iw_rx - the payload of a received segment of an offloaded QP
 * @xp: scratch state of the engine pass, allocated on first use; the
 *	caller frees it with isim_xfer_put()
 * @f: function
 * @qp: the QP, offloaded
 * @data: the segment's payload, in order in the TCP stream
 * @len: its bytes
 * @hdrs: the frame's Ethernet, IP and TCP headers (NULL: unknown)
 * @hdr_len: their bytes
 *
 * The FPDUs in it are checked and executed in turn. The first one that
 * fails its checks, or is a TERMINATE, halts the QP: its frame goes to
 * Q2, its AE is raised, and nothing more is placed or sent until the
 * driver moves the QP on (to TERMINATE, whose message the engine sends,
 * or to ERR). The connection stays offloaded meanwhile: the peer's
 * segments are acknowledged. A QP in neither RTS nor CLOSING (TERMINATE)
 * has nothing placed.
 */
void isim_exec_iw_rx(struct isim_xfer **xp, struct isim_func *f,
		     struct isim_qp *qp, const u8 *data, u32 len,
		     const u8 *hdrs, u32 hdr_len)
{
	struct isim_xfer *x;
	u32 off = 0, flen = 0;
	u16 ae = 0;
	u8 q2;

	lockdep_assert_held(&f->eng_lock);
	/* after our FIN (CLOSING) the peer's data may still come */
	if (qp->term_halted ||
	    (qp->state != ISIM_QPS_RTS && qp->state != ISIM_QPS_CLOSING))
		return;
	x = isim_xfer_get(xp, f);
	if (!x) {
		ae = ISIM_AE_RESOURCE_EXHAUSTION;
		len = 0;
	}
	while (!ae && off < len) {
		ae = isim_iw_rx_fpdu(x, qp, data + off, len - off, &flen);
		if (!ae)
			off += flen;
	}
	if (!ae)
		return;
	qp->term_halted = true;
	q2 = isim_iw_q2_frame(f, qp, hdrs, hdr_len, data + off, len - off);
	if (isim_aeq_post_q2(f, ae, ISIM_AE_SRC_RQ, qp->id, qp->cq_ctx, q2))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE %#x lost\n", qp->id,
				    ae);
}

/* the length of a TERMINATE message, from what its control says follows */
static u32 isim_iw_term_len(const u8 *msg)
{
	u8 hdrct = msg[2];
	u32 len = ISIM_TERM_CTRL_BYTES;
	bool tagged;

	if (hdrct & ISIM_TERM_HDRCT_M)
		len += ISIM_MPA_LEN_BYTES;
	/* the terminated segment's DDP control byte follows its length */
	tagged = msg[len] & ISIM_DDP_T;
	if (hdrct & ISIM_TERM_HDRCT_D)
		len += tagged ? ISIM_DDP_TAGGED_HDR : ISIM_DDP_UNTAGGED_HDR;
	if (hdrct & ISIM_TERM_HDRCT_R)
		len += ISIM_READ_REQ_BYTES;
	return len;
}

/**
 * isim_exec_iw_term_check - the TERMINATE message a MODIFY_QP would send
 * @f: function
 * @q2_pa: the QP's Q2 (from the context the command names)
 * @words: the command's TERMLEN: the message's length in 4-byte words
 *
 * The message is RFC 5040's: its control word, then what its header
 * control bits say it holds (the DDP segment length, the DDP header, the
 * RDMAP header of a READ request). Its length must match TERMLEN.
 *
 * Return: 0 or an ISIM_MIN_* code.
 */
u16 isim_exec_iw_term_check(struct isim_func *f, u64 q2_pa, u8 words)
{
	u8 msg[ISIM_Q2_FRAME_OFF];

	if (!q2_pa || isim_dma_read(f, q2_pa, msg, sizeof(msg)))
		return ISIM_MIN_BAD_FIELD;
	if (DIV_ROUND_UP(isim_iw_term_len(msg), 4) != words)
		return ISIM_MIN_BAD_FIELD;
	return 0;
}

/**
 * isim_exec_iw_terminate - send the TERMINATE message the driver wrote
 * @f: function
 * @qp: an offloaded QP that a MODIFY_QP moved to TERMINATE
 *
 * The message from Q2 leaves as an untagged FPDU of DDP queue 2 (MSN 1,
 * the only one a stream ever sends), after everything sent before it;
 * TERMINATE_SENT tells the driver.
 */
void isim_exec_iw_terminate(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_iw_msg m = {
		.op = ISIM_RDMAP_TERMINATE,
		.qn = ISIM_DDP_QN_TERMINATE,
		.msn = 1,
	};
	struct isim_xfer *x = NULL;
	u8 msg[ISIM_Q2_FRAME_OFF];
	int ret = -ENOMEM;

	lockdep_assert_held(&f->eng_lock);
	if (!isim_xfer_get(&x, f))
		goto out;
	ret = isim_dma_read(f, qp->q2_pa, msg, sizeof(msg));
	if (!ret)
		ret = isim_iw_send_msg(x, qp, &m, NULL, msg,
				       isim_iw_term_len(msg));
	isim_xfer_put(x);
out:
	if (ret) {
		dev_dbg_ratelimited(&f->dev, "QP %u: TERMINATE not sent: %d\n",
				    qp->id, ret);
		return;
	}
	atomic64_inc(&f->toe.term_tx);
	if (isim_aeq_post(f, ISIM_AE_TERMINATE_SENT, ISIM_AE_SRC_NONE, qp->id,
			  qp->cq_ctx))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE lost\n", qp->id);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/exec_test.c"
#endif
