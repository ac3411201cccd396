// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: iWARP on an offloaded connection (toe.c carries its TCP
 * segments).
 *
 * An offloaded QP in RTS (toe.c) executes its connection WQEs: the
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
 */
#include <linux/crc32.h>
#include <asm/unaligned.h>

#include "isim.h"

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

/**
 * isim_exec_iw_wqe - execute one SQ WQE of an offloaded iWARP QP
 * @x: the pass's scratch state
 * @qp: the QP
 * @hdr: the WQE's header
 *
 * Return: 0 the WQE is done, -EAGAIN it waits.
 */
int isim_exec_iw_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
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
	if (isim_qp_ae(f, qp, ae, ISIM_AE_SRC_RQ, qp->cq_ctx, q2))
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
	if (isim_qp_ae(f, qp, ISIM_AE_TERMINATE_SENT, ISIM_AE_SRC_NONE,
		       qp->cq_ctx, 0))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE lost\n", qp->id);
}
