// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: asynchronous events of the engine.
 *
 * The engine posts an AE when something happens to a QP or a CQ outside
 * the completion of a work request, or to the whole function. What each
 * code means for the consumer is decided here: an IB event on the QP or
 * the CQ; nothing beyond the irdma_ae tracepoint, which every AE passes
 * (hw.c); an event the iWARP connection manager takes (the TCP and MPA
 * level of a connection: the cause of its end, given to the CM node the
 * QP is linked to); or, for a catastrophe of the function, the same path
 * as a critical error reported by the parent: IB_EVENT_DEVICE_FATAL and a
 * function reset.
 */
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/spinlock.h>
#include <linux/tcp.h>
#include <asm/unaligned.h>

#include "cm.h"
#include "main.h"
#include "qp.h"

/* What an AE asks of the driver. */
enum irdma_ae_action {
	IRDMA_AE_ACT_LOG,
	IRDMA_AE_ACT_CM,
	IRDMA_AE_ACT_QP,
	IRDMA_AE_ACT_CQ,
	IRDMA_AE_ACT_FATAL,
	IRDMA_AE_ACT_SUSPENDED,
};

/* Events of the TCP connection under an iWARP QP, and of its closing. */
static bool irdma_ae_is_llp(u16 code)
{
	switch (code) {
	case IRDMA_AE_BAD_CLOSE:
	case IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE:
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
	case IRDMA_AE_LLP_CONNECTION_RESET:
	case IRDMA_AE_LLP_FIN_RECEIVED:
	case IRDMA_AE_LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH:
	case IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR:
	case IRDMA_AE_LLP_SEGMENT_TOO_SMALL:
	case IRDMA_AE_LLP_SYN_RECEIVED:
	case IRDMA_AE_LLP_TERMINATE_RECEIVED:
	case IRDMA_AE_LLP_TOO_MANY_RETRIES:
	case IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES:
	case IRDMA_AE_LLP_DOUBT_REACHABILITY:
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
	case IRDMA_AE_LLP_TOO_MANY_RNRS:
	case IRDMA_AE_RESET_SENT:
	case IRDMA_AE_TERMINATE_SENT:
	case IRDMA_AE_RESET_NOT_SENT:
		return true;
	default:
		return false;
	}
}

/* The IB event a QP's consumer gets for an AE about that QP. */
static enum ib_event_type irdma_ae_qp_event(u16 code)
{
	if (code >= IRDMA_AE_AMP_UNALLOCATED_STAG &&
	    code <= IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH)
		return IB_EVENT_QP_ACCESS_ERR;
	switch (code) {
	case IRDMA_AE_STAG_ZERO_INVALID:
	case IRDMA_AE_IB_REMOTE_ACCESS_ERROR:
		return IB_EVENT_QP_ACCESS_ERR;
	case IRDMA_AE_IB_INVALID_REQUEST:
	case IRDMA_AE_INVALID_REQUEST:
	case IRDMA_AE_ROE_INVALID_RDMA_READ_REQUEST:
	case IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO:
	case IRDMA_AE_IB_RREQ_AND_Q1_FULL:
		return IB_EVENT_QP_REQ_ERR;
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
		return IB_EVENT_COMM_EST;
	default:
		return IB_EVENT_QP_FATAL;
	}
}

/**
 * irdma_ae_action - what an AE asks of the driver
 * @ae: the decoded event
 * @iwarp: the function runs iWARP
 *
 * Return: an enum irdma_ae_action.
 */
static enum irdma_ae_action irdma_ae_action(const struct irdma_aeqe_info *ae,
					    bool iwarp)
{
	if (ae->code == IRDMA_AE_LCE_FUNCTION_CATASTROPHIC)
		return IRDMA_AE_ACT_FATAL;
	if (ae->is_cq)
		return IRDMA_AE_ACT_CQ;
	if (!ae->is_qp)
		return IRDMA_AE_ACT_LOG;
	if (ae->code == IRDMA_AE_QP_SUSPEND_COMPLETE)
		return IRDMA_AE_ACT_SUSPENDED;
	if (iwarp && irdma_ae_is_llp(ae->code))
		return IRDMA_AE_ACT_CM;
	return IRDMA_AE_ACT_QP;
}

/*
 * The QP is held while its consumer's handler runs, so a destroy waits
 * for it; QP event handlers may be called from any context on every RDMA
 * device, so calling one from the AEQ thread is fine.
 */
static void irdma_ae_to_qp(struct irdma_hw *hw, u32 id,
			   enum ib_event_type type)
{
	struct ib_event ev = { .event = type };
	struct irdma_qp *qp;

	qp = irdma_qp_get(hw, id);
	if (!qp) {
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "AE for QP %u, which does not exist\n", id);
		return;
	}
	if (qp->ibqp.event_handler) {
		ev.device = qp->ibqp.device;
		ev.element.qp = &qp->ibqp;
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	irdma_qp_put(qp);
}

/*
 * An affiliated error leaves a RoCEv2 QP in the error state, as the
 * InfiniBand specification has it: the engine has stopped the QP; its
 * verbs state follows and its outstanding WQEs are flushed, so that a
 * consumer who only polls its CQ sees them end and ibv_query_qp() says
 * ERR. Established is not an error. An iWARP QP gets there by its
 * connection's end, which the CM drives (a TERMINATE, an abort).
 */
static void irdma_ae_roce_qp_err(struct irdma_hw *hw, u32 id, u16 code)
{
	struct irdma_qp *qp;

	if (irdma_ae_qp_event(code) == IB_EVENT_COMM_EST)
		return;
	qp = irdma_qp_get(hw, id);
	if (!qp)
		return;
	irdma_qp_async_err(qp);
	irdma_qp_put(qp);
}

/* No cause: the AE changes nothing for the connection */
#define IRDMA_AE_NO_DISC	-1

/* What an LLP AE means for the connection the CM runs on the QP */
static int irdma_ae_disc_cause(u16 code)
{
	switch (code) {
	case IRDMA_AE_LLP_FIN_RECEIVED:
		return IRDMA_CM_DISC_PEER_FIN;
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
		return IRDMA_CM_DISC_CLOSED;
	case IRDMA_AE_LLP_CONNECTION_RESET:
		return IRDMA_CM_DISC_PEER_RST;
	case IRDMA_AE_LLP_TOO_MANY_RETRIES:
	case IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES:
		return IRDMA_CM_DISC_TIMEOUT;
	/* the CM reports the connection up itself, after the move to RTS */
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
	case IRDMA_AE_LLP_SYN_RECEIVED:
	case IRDMA_AE_LLP_DOUBT_REACHABILITY:
	case IRDMA_AE_RESET_NOT_SENT:
	/* our TERMINATE left; the close it began ends with its own AE */
	case IRDMA_AE_TERMINATE_SENT:
		return IRDMA_AE_NO_DISC;
	default:
		/* bad closes, terminates, MPA framing errors, our own RST */
		return IRDMA_CM_DISC_LOCAL_ERR;
	}
}

/*
 * An LLP AE of an iWARP QP goes to the CM node linked to it (qp_link in
 * cm_hw.c) as @cause; the QP is held, and the node stays linked, while it
 * is told.
 */
static void irdma_ae_to_cm(struct irdma_hw *hw,
			   const struct irdma_aeqe_info *ae, int cause)
{
	struct irdma_qp *qp;
	unsigned long flags;
	bool told = false;

	if (cause == IRDMA_AE_NO_DISC)
		return;
	qp = irdma_qp_get(hw, ae->id);
	if (qp) {
		/* the engine's TCP is over: nothing left to reset */
		if (cause == IRDMA_CM_DISC_CLOSED ||
		    cause == IRDMA_CM_DISC_PEER_RST ||
		    cause == IRDMA_CM_DISC_TIMEOUT)
			WRITE_ONCE(qp->llp_closed, true);
		spin_lock_irqsave(&qp->cm_lock, flags);
		if (qp->cm_node) {
			irdma_cm_disconn(qp->cm_node, cause);
			told = true;
		}
		spin_unlock_irqrestore(&qp->cm_lock, flags);
		irdma_qp_put(qp);
	}
	if (!told)
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "AE 0x%03x of QP %u, which has no connection\n",
				    ae->code, ae->id);
}

/* ---- TERMINATE ---- */

/* an FPDU, from its MPA length field (RFC 5044, RFC 5041, RFC 5040) */
#define IRDMA_FPDU_LEN_BYTES	2
#define IRDMA_FPDU_DDP_CTRL	2
#define IRDMA_FPDU_RDMAP_CTRL	3
#define IRDMA_FPDU_QN		8	/* untagged */
#define IRDMA_FPDU_MSN		12
#define IRDMA_FPDU_MO		16
#define IRDMA_DDP_TAGGED_HDR	14	/* DDP and RDMAP header, tagged */
#define IRDMA_DDP_UNTAGGED_HDR	18	/* and untagged */
#define IRDMA_RDMAP_READ_REQ_HDR 28	/* the rest of a READ request */
#define IRDMA_DDP_T		0x80
#define IRDMA_DDP_L		0x40
#define IRDMA_DDP_DV_MASK	0x03
#define IRDMA_DDP_DV		0x01
#define IRDMA_RDMAP_RV_MASK	0xc0
#define IRDMA_RDMAP_RV		0x40
#define IRDMA_RDMAP_OP_MASK	0x0f
#define IRDMA_RDMAP_READ_REQ	1
#define IRDMA_RDMAP_TERMINATE	7
#define IRDMA_DDP_QN_TERMINATE	2
#define IRDMA_TERM_LAYER(le)	((le) >> 4)
#define IRDMA_TERM_LAYER_LLP	2
/* bytes of Q2 that hold the engine's frame */
#define IRDMA_Q2_FRAME_BYTES	(IRDMA_Q2_BYTES - IRDMA_Q2_FRAME_OFF)

/**
 * struct irdma_term_err - what a TERMINATE says of an AE
 * @code: AE code
 * @untagged: layer and error type (byte 0) when the segment at fault is
 *	untagged or unknown
 * @untagged_code: error code (byte 1) then
 * @tagged: layer and error type when it is a tagged segment
 * @tagged_code: error code then
 */
struct irdma_term_err {
	u16 code;
	u8 untagged;
	u8 untagged_code;
	u8 tagged;
	u8 tagged_code;
};

#define TERM_ERR(c, u, uc, t, tc)	{ IRDMA_AE_##c, u, uc, t, tc }
#define TERM_PROT	IRDMA_TERM_RDMAP_PROT
#define TERM_OP		IRDMA_TERM_RDMAP_OP
#define TERM_TAG	IRDMA_TERM_DDP_TAGGED
#define TERM_UNTAG	IRDMA_TERM_DDP_UNTAGGED
#define TERM_DDP	IRDMA_TERM_DDP_CATASTROPHIC
#define TERM_MPA	IRDMA_TERM_MPA

/*
 * RFC 5040, 7.1 (RDMAP), RFC 5041, 7.2 (DDP) and RFC 5044, 8 (MPA): a
 * STag, bounds or wrap error of a tagged segment is DDP's, of a READ
 * request or an invalidation RDMAP's.
 */
static const struct irdma_term_err irdma_term_errs[] = {
	TERM_ERR(AMP_UNALLOCATED_STAG, TERM_PROT, 0x00, TERM_TAG, 0x00),
	TERM_ERR(AMP_INVALID_STAG, TERM_PROT, 0x00, TERM_TAG, 0x00),
	TERM_ERR(AMP_BAD_STAG_KEY, TERM_PROT, 0x00, TERM_TAG, 0x00),
	TERM_ERR(AMP_BAD_STAG_INDEX, TERM_PROT, 0x00, TERM_TAG, 0x00),
	TERM_ERR(STAG_ZERO_INVALID, TERM_PROT, 0x00, TERM_TAG, 0x00),
	TERM_ERR(AMP_BOUNDS_VIOLATION, TERM_PROT, 0x01, TERM_TAG, 0x01),
	TERM_ERR(AMP_BAD_PD, TERM_PROT, 0x03, TERM_TAG, 0x02),
	TERM_ERR(AMP_TO_WRAP, TERM_PROT, 0x04, TERM_TAG, 0x03),
	TERM_ERR(AMP_RIGHTS_VIOLATION, TERM_PROT, 0x02, TERM_PROT, 0x02),
	TERM_ERR(PRIV_OPERATION_DENIED, TERM_PROT, 0x02, TERM_PROT, 0x02),
	TERM_ERR(AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS, TERM_PROT, 0x09,
		 TERM_PROT, 0x09),
	TERM_ERR(AMP_INVALIDATE_SHARED, TERM_OP, 0x09, TERM_OP, 0x09),
	TERM_ERR(AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS, TERM_OP, 0x09,
		 TERM_OP, 0x09),
	TERM_ERR(AMP_INVALIDATE_TYPE1_MW, TERM_OP, 0x09, TERM_OP, 0x09),
	TERM_ERR(AMP_BAD_QP, TERM_UNTAG, 0x01, TERM_UNTAG, 0x01),
	TERM_ERR(DDP_UBE_INVALID_QN, TERM_UNTAG, 0x01, TERM_UNTAG, 0x01),
	TERM_ERR(DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE, TERM_UNTAG, 0x02,
		 TERM_UNTAG, 0x02),
	TERM_ERR(DDP_INVALID_MSN_GAP_IN_MSN, TERM_UNTAG, 0x03, TERM_UNTAG,
		 0x03),
	TERM_ERR(DDP_UBE_INVALID_MO, TERM_UNTAG, 0x04, TERM_UNTAG, 0x04),
	TERM_ERR(DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER,
		 TERM_UNTAG, 0x05, TERM_UNTAG, 0x05),
	TERM_ERR(DDP_UBE_INVALID_DDP_VERSION, TERM_UNTAG, 0x06, TERM_TAG,
		 0x04),
	TERM_ERR(DDP_NO_L_BIT, TERM_DDP, 0x00, TERM_DDP, 0x00),
	TERM_ERR(LLP_SEGMENT_TOO_SMALL, TERM_DDP, 0x00, TERM_DDP, 0x00),
	TERM_ERR(RDMAP_ROE_INVALID_RDMAP_VERSION, TERM_OP, 0x05, TERM_OP,
		 0x05),
	TERM_ERR(RDMAP_ROE_UNEXPECTED_OPCODE, TERM_OP, 0x06, TERM_OP, 0x06),
	TERM_ERR(RDMA_READ_WHILE_ORD_ZERO, TERM_OP, 0x06, TERM_OP, 0x06),
	TERM_ERR(ROE_INVALID_RDMA_READ_REQUEST, TERM_OP, 0xff, TERM_OP, 0xff),
	TERM_ERR(ROE_INVALID_RDMA_WRITE_OR_READ_RESP, TERM_OP, 0xff, TERM_OP,
		 0xff),
	/* a TERMINATE we cannot read */
	TERM_ERR(LLP_TERMINATE_RECEIVED, TERM_OP, 0xff, TERM_OP, 0xff),
	TERM_ERR(LLP_RECEIVED_MPA_CRC_ERROR, TERM_MPA, 0x02, TERM_MPA, 0x02),
	TERM_ERR(LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH, TERM_MPA,
		 0x03, TERM_MPA, 0x03),
	TERM_ERR(LCE_QP_CATASTROPHIC, IRDMA_TERM_RDMAP_LOCAL, 0x00,
		 IRDMA_TERM_RDMAP_LOCAL, 0x00),
};

static const struct irdma_term_err *irdma_term_err(u16 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(irdma_term_errs); i++)
		if (irdma_term_errs[i].code == code)
			return &irdma_term_errs[i];
	return NULL;
}

/*
 * The FPDU in a frame the engine wrote to Q2, past its Ethernet (and VLAN)
 * header, its IPv4 or IPv6 header and its TCP header. Return: the FPDU,
 * and its bytes in @flen, or NULL if the headers do not parse.
 */
static const u8 *irdma_term_fpdu(const u8 *frame, u32 len, u32 *flen)
{
	u32 off = ETH_HLEN, l3;
	const struct tcphdr *th;
	u16 proto;
	u8 l4;

	if (len < ETH_HLEN)
		return NULL;
	proto = get_unaligned_be16(frame + ETH_ALEN * 2);
	if (proto == ETH_P_8021Q) {
		if (len < VLAN_ETH_HLEN)
			return NULL;
		proto = get_unaligned_be16(frame + ETH_HLEN + 2);
		off = VLAN_ETH_HLEN;
	}
	if (proto == ETH_P_IP) {
		const struct iphdr *iph = (const void *)(frame + off);

		if (len < off + sizeof(*iph))
			return NULL;
		l3 = iph->ihl * 4;
		l4 = iph->protocol;
		if (l3 < sizeof(*iph))
			return NULL;
	} else if (proto == ETH_P_IPV6) {
		const struct ipv6hdr *ip6h = (const void *)(frame + off);

		l3 = sizeof(*ip6h);
		if (len < off + l3)
			return NULL;
		l4 = ip6h->nexthdr;
	} else {
		return NULL;
	}
	off += l3;
	if (l4 != IPPROTO_TCP || len < off + sizeof(*th))
		return NULL;
	th = (const void *)(frame + off);
	if (th->doff * 4 < sizeof(*th) || len <= off + th->doff * 4)
		return NULL;
	off += th->doff * 4;
	*flen = len - off;
	return frame + off;
}

/**
 * irdma_term_build - write the TERMINATE message for an AE
 * @msg: where (the QP's Q2), at least IRDMA_Q2_FRAME_OFF bytes
 * @code: the AE's code
 * @frame: the frame at fault the engine wrote to Q2, or NULL
 * @frame_len: its bytes (as much of Q2 as it may fill)
 *
 * The control word names the layer, error type and code the AE means
 * (irdma_term_errs); for an error of DDP or RDMAP, as much of the
 * terminated segment's headers follows as the frame holds: its DDP
 * segment length, its DDP header, and the rest of a READ request.
 *
 * Return: the message's bytes.
 */
static u32 irdma_term_build(u8 *msg, u16 code, const u8 *frame,
			    u32 frame_len)
{
	static const struct irdma_term_err unknown = {
		.untagged = IRDMA_TERM_RDMAP_OP, .untagged_code = 0xff,
		.tagged = IRDMA_TERM_RDMAP_OP, .tagged_code = 0xff,
	};
	const struct irdma_term_err *e = irdma_term_err(code) ?: &unknown;
	u32 n = IRDMA_TERM_CTRL_BYTES, flen = 0, hlen;
	const u8 *fpdu = NULL;
	bool tagged = false;
	u16 ulen;

	if (frame)
		fpdu = irdma_term_fpdu(frame, frame_len, &flen);
	if (fpdu && flen <= IRDMA_FPDU_DDP_CTRL)
		fpdu = NULL;
	if (fpdu)
		tagged = fpdu[IRDMA_FPDU_DDP_CTRL] & IRDMA_DDP_T;
	memset(msg, 0, IRDMA_Q2_FRAME_OFF);
	msg[0] = tagged ? e->tagged : e->untagged;
	msg[1] = tagged ? e->tagged_code : e->untagged_code;
	/* nothing of the segment for MPA's errors and catastrophes */
	if (!fpdu || IRDMA_TERM_LAYER(msg[0]) == IRDMA_TERM_LAYER_LLP ||
	    msg[0] == IRDMA_TERM_RDMAP_LOCAL ||
	    msg[0] == IRDMA_TERM_DDP_CATASTROPHIC)
		return n;
	ulen = get_unaligned_be16(fpdu);
	msg[2] = IRDMA_TERM_HDRCT_M;
	memcpy(msg + n, fpdu, IRDMA_FPDU_LEN_BYTES);
	n += IRDMA_FPDU_LEN_BYTES;
	hlen = tagged ? IRDMA_DDP_TAGGED_HDR : IRDMA_DDP_UNTAGGED_HDR;
	if (ulen < hlen || flen < IRDMA_FPDU_LEN_BYTES + hlen)
		return n;
	msg[2] |= IRDMA_TERM_HDRCT_D;
	memcpy(msg + n, fpdu + IRDMA_FPDU_LEN_BYTES, hlen);
	n += hlen;
	if (tagged || (fpdu[IRDMA_FPDU_RDMAP_CTRL] & IRDMA_RDMAP_OP_MASK) !=
		      IRDMA_RDMAP_READ_REQ ||
	    ulen < hlen + IRDMA_RDMAP_READ_REQ_HDR ||
	    flen < IRDMA_FPDU_LEN_BYTES + hlen + IRDMA_RDMAP_READ_REQ_HDR)
		return n;
	msg[2] |= IRDMA_TERM_HDRCT_R;
	memcpy(msg + n, fpdu + IRDMA_FPDU_LEN_BYTES + hlen,
	       IRDMA_RDMAP_READ_REQ_HDR);
	return n + IRDMA_RDMAP_READ_REQ_HDR;
}

/*
 * The control word of a TERMINATE the peer sent, from the frame in Q2:
 * an untagged, last segment of DDP queue 2 with MSN 1 and MO 0, RDMAP
 * version 1 and opcode TERMINATE. Return: 0, or -EBADMSG.
 */
static int irdma_term_parse(const u8 *frame, u32 len, u8 *layer_etype,
			    u8 *ecode)
{
	u32 hdr = IRDMA_FPDU_LEN_BYTES + IRDMA_DDP_UNTAGGED_HDR, flen;
	const u8 *fpdu = irdma_term_fpdu(frame, len, &flen);

	if (!fpdu || flen < hdr + IRDMA_TERM_CTRL_BYTES ||
	    get_unaligned_be16(fpdu) <
	    IRDMA_DDP_UNTAGGED_HDR + IRDMA_TERM_CTRL_BYTES)
		return -EBADMSG;
	if ((fpdu[IRDMA_FPDU_DDP_CTRL] &
	     (IRDMA_DDP_T | IRDMA_DDP_L | IRDMA_DDP_DV_MASK)) !=
	    (IRDMA_DDP_L | IRDMA_DDP_DV) ||
	    (fpdu[IRDMA_FPDU_RDMAP_CTRL] & IRDMA_RDMAP_RV_MASK) !=
	    IRDMA_RDMAP_RV ||
	    (fpdu[IRDMA_FPDU_RDMAP_CTRL] & IRDMA_RDMAP_OP_MASK) !=
	    IRDMA_RDMAP_TERMINATE ||
	    get_unaligned_be32(fpdu + IRDMA_FPDU_QN) != IRDMA_DDP_QN_TERMINATE ||
	    get_unaligned_be32(fpdu + IRDMA_FPDU_MSN) != 1 ||
	    get_unaligned_be32(fpdu + IRDMA_FPDU_MO))
		return -EBADMSG;
	*layer_etype = fpdu[hdr];
	*ecode = fpdu[hdr + 1];
	return 0;
}

/* The peer's TERMINATE, told to the QP's consumer. Return: our action. */
static u8 irdma_term_received(struct irdma_hw *hw, struct irdma_qp *qp,
			      u32 id, const u8 *frame)
{
	u8 le, ec;

	if (!frame ||
	    irdma_term_parse(frame, IRDMA_Q2_FRAME_BYTES, &le, &ec)) {
		ibdev_warn_ratelimited(qp->ibqp.device,
				       "QP %u: unreadable TERMINATE from the peer\n",
				       qp->ibqp.qp_num);
		irdma_ae_to_qp(hw, id, IB_EVENT_QP_FATAL);
		return IRDMA_TERMACT_TERM_AND_FIN;
	}
	/* the consumer hears of it as a QP event */
	ibdev_dbg(qp->ibqp.device,
		  "QP %u: TERMINATE from the peer: layer %u, type %u, code %#04x\n",
		  qp->ibqp.qp_num, IRDMA_TERM_LAYER(le), le & 0x0f, ec);
	irdma_ae_to_qp(hw, id,
		       le == IRDMA_TERM_RDMAP_PROT ||
		       le == IRDMA_TERM_DDP_TAGGED ?
		       IB_EVENT_QP_ACCESS_ERR : IB_EVENT_QP_FATAL);
	return IRDMA_TERMACT_FIN_ONLY;
}

/* In RTS, or moving there with the engine perhaps in RTS already */
static bool irdma_ae_qp_in_rts(struct irdma_qp *qp)
{
	return READ_ONCE(qp->ib_state) == IB_QPS_RTS ||
	       test_bit(IRDMA_QP_RTS_PENDING, &qp->term_flags);
}

/*
 * Start ending a connected iWARP QP's connection with a TERMINATE for an
 * error AE: about what the peer sent (our message naming it, then our
 * FIN); about a WQE of our own SQ that failed, a bad local key say (a
 * "local catastrophic" message, RFC 5040 7.1, which names nothing the
 * peer sent, then our FIN); or the peer's TERMINATE (our FIN, or a
 * TERMINATE of ours for one we cannot read). The CM closes the
 * connection through irdma_qp_iw_close().
 * Return: true if the AE was taken so; false leaves it to the usual
 * handling.
 */
static bool irdma_ae_terminate(struct irdma_hw *hw,
			       const struct irdma_aeqe_info *ae)
{
	bool rx = ae->code == IRDMA_AE_LLP_TERMINATE_RECEIVED;
	bool local = !rx && (ae->source == IRDMA_AESRC_SQ ||
			     ae->source == IRDMA_AESRC_SQ_0111);
	u16 code = local ? IRDMA_AE_LCE_QP_CATASTROPHIC : ae->code;
	const u8 *frame = NULL;
	struct irdma_qp *qp;
	bool taken = false;
	unsigned long flags;
	u8 act, *q2;
	u32 len = 0;

	if (!irdma_term_err(ae->code))
		return false;
	qp = irdma_qp_get(hw, ae->id);
	if (!qp)
		return false;
	if (!qp->conn_set || !irdma_ae_qp_in_rts(qp) ||
	    test_and_set_bit(IRDMA_QP_TERM_STARTED, &qp->term_flags))
		goto out_put;
	q2 = irdma_qp_q2(qp);
	if (ae->q2_data == IRDMA_AEQ_Q2_FRAME && !local)
		frame = q2 + IRDMA_Q2_FRAME_OFF;
	act = rx ? irdma_term_received(hw, qp, ae->id, frame) :
		   IRDMA_TERMACT_TERM_AND_FIN;
	if (act != IRDMA_TERMACT_FIN_ONLY)
		len = irdma_term_build(q2, code, frame, IRDMA_Q2_FRAME_BYTES);
	qp->term_act = act;
	qp->term_words = DIV_ROUND_UP(len, 4);
	spin_lock_irqsave(&qp->cm_lock, flags);
	if (qp->cm_node) {
		irdma_cm_disconn(qp->cm_node, IRDMA_CM_DISC_TERMINATE);
		taken = true;
	}
	spin_unlock_irqrestore(&qp->cm_lock, flags);
	if (!taken)
		clear_bit(IRDMA_QP_TERM_STARTED, &qp->term_flags);
out_put:
	irdma_qp_put(qp);
	return taken;
}

/*
 * An error AE of a connected iWARP QP that has left RTS without starting a
 * TERMINATE: typically the ULP's graceful close is under way (SQD, our FIN
 * queued behind the SQ) when a WQE still in the SQ fails. The engine has
 * halted the QP with its connection, so that FIN will never leave, and it
 * is too late for a TERMINATE; the connection must be aborted now rather
 * than by the close timer seconds later.
 */
static bool irdma_ae_past_rts(struct irdma_hw *hw,
			      const struct irdma_aeqe_info *ae)
{
	struct irdma_qp *qp;
	bool past;

	if (!irdma_term_err(ae->code))
		return false;
	qp = irdma_qp_get(hw, ae->id);
	if (!qp)
		return false;
	past = qp->conn_set && READ_ONCE(qp->ib_state) != IB_QPS_RTS &&
	       !test_bit(IRDMA_QP_TERM_STARTED, &qp->term_flags);
	irdma_qp_put(qp);
	return past;
}

/**
 * irdma_ae_dispatch - act on one asynchronous event of the engine
 * @hw: the engine that posted it
 * @ae: the decoded event
 *
 * Context: the AEQ's interrupt thread (process context).
 */
void irdma_ae_dispatch(struct irdma_hw *hw, const struct irdma_aeqe_info *ae)
{
	bool iwarp = hw->fn->protocol == IRDMA_PROTOCOL_IWARP;
	char why[48];

	switch (irdma_ae_action(ae, iwarp)) {
	case IRDMA_AE_ACT_FATAL:
		snprintf(why, sizeof(why), "AE 0x%03x, function catastrophic",
			 ae->code);
		irdma_func_fatal(hw->fn, why);
		break;
	case IRDMA_AE_ACT_CQ:
		irdma_cq_async_event(hw, ae->id);
		break;
	case IRDMA_AE_ACT_QP:
		if (!iwarp)
			irdma_ae_roce_qp_err(hw, ae->id, ae->code);
		irdma_ae_to_qp(hw, ae->id, irdma_ae_qp_event(ae->code));
		if (iwarp && !irdma_ae_terminate(hw, ae) &&
		    irdma_ae_past_rts(hw, ae))
			irdma_ae_to_cm(hw, ae, IRDMA_CM_DISC_LOCAL_ERR);
		break;
	case IRDMA_AE_ACT_CM:
		if (!irdma_ae_terminate(hw, ae))
			irdma_ae_to_cm(hw, ae, irdma_ae_disc_cause(ae->code));
		break;
	case IRDMA_AE_ACT_SUSPENDED:
		/* a traffic-class change waits for these (qos.c) */
		irdma_qos_suspended(hw, ae->id);
		break;
	case IRDMA_AE_ACT_LOG:
		break;
	}
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ae_test.c"
#endif
