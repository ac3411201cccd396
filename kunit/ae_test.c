// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for asynchronous events (ae.c): what each AE, decoded from
 * the element the engine writes, asks of the driver, and that a QP's or a
 * CQ's consumer gets the IB event it should; the TERMINATE messages built
 * from an AE and the frame in Q2, and those of the peer read from it.
 *
 * Included at the end of ae.c, so the static helpers are reachable.
 */
#include <kunit/test.h>

struct ae_case {
	const char *name;
	u16 code;
	u8 source;
	bool iwarp;
	enum irdma_ae_action act;
	enum ib_event_type event;	/* for IRDMA_AE_ACT_QP */
};

static const struct ae_case ae_cases[] = {
	{ "function_catastrophic", IRDMA_AE_LCE_FUNCTION_CATASTROPHIC, 0, true,
	  IRDMA_AE_ACT_FATAL },
	{ "cq_catastrophic", IRDMA_AE_LCE_CQ_CATASTROPHIC, 0, false,
	  IRDMA_AE_ACT_CQ },
	{ "cq_operation_error", IRDMA_AE_CQ_OPERATION_ERROR, IRDMA_AESRC_CQ,
	  true, IRDMA_AE_ACT_CQ },
	{ "resource_exhaustion", IRDMA_AE_RESOURCE_EXHAUSTION, 0, true,
	  IRDMA_AE_ACT_LOG },
	{ "suspend_complete", IRDMA_AE_QP_SUSPEND_COMPLETE, IRDMA_AESRC_SQ,
	  false, IRDMA_AE_ACT_SUSPENDED },
	{ "fin_iwarp", IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_AESRC_SQ, true,
	  IRDMA_AE_ACT_CM },
	{ "fin_roce", IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_AESRC_SQ, false,
	  IRDMA_AE_ACT_QP, IB_EVENT_QP_FATAL },
	{ "established_iwarp", IRDMA_AE_LLP_CONNECTION_ESTABLISHED,
	  IRDMA_AESRC_SQ, true, IRDMA_AE_ACT_CM },
	{ "established_roce", IRDMA_AE_LLP_CONNECTION_ESTABLISHED,
	  IRDMA_AESRC_SQ, false, IRDMA_AE_ACT_QP, IB_EVENT_COMM_EST },
	{ "retries_roce", IRDMA_AE_LLP_TOO_MANY_RETRIES, IRDMA_AESRC_SQ, false,
	  IRDMA_AE_ACT_QP, IB_EVENT_QP_FATAL },
	{ "unallocated_stag", IRDMA_AE_AMP_UNALLOCATED_STAG, IRDMA_AESRC_RQ,
	  true, IRDMA_AE_ACT_QP, IB_EVENT_QP_ACCESS_ERR },
	{ "pble_mismatch", IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH, IRDMA_AESRC_SQ,
	  false, IRDMA_AE_ACT_QP, IB_EVENT_QP_ACCESS_ERR },
	{ "remote_access", IRDMA_AE_IB_REMOTE_ACCESS_ERROR, IRDMA_AESRC_SQ,
	  false, IRDMA_AE_ACT_QP, IB_EVENT_QP_ACCESS_ERR },
	{ "dgram_too_long", IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG, IRDMA_AESRC_SQ,
	  false, IRDMA_AE_ACT_QP, IB_EVENT_QP_FATAL },
	{ "invalid_request", IRDMA_AE_IB_INVALID_REQUEST, IRDMA_AESRC_RQ, false,
	  IRDMA_AE_ACT_QP, IB_EVENT_QP_REQ_ERR },
	{ "read_ord_zero", IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO, IRDMA_AESRC_RQ,
	  true, IRDMA_AE_ACT_QP, IB_EVENT_QP_REQ_ERR },
	{ "ddp_msn_gap", IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN, IRDMA_AESRC_RQ,
	  true, IRDMA_AE_ACT_QP, IB_EVENT_QP_FATAL },
};

static void ae_desc(const struct ae_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ae, ae_cases, ae_desc);

/* the element the engine writes for @code from @source about object @id */
static void ae_element(__le64 *aeqe, u16 code, u8 source, u32 id)
{
	irdma_wqe_set(aeqe, 0, 0x1234);
	irdma_wqe_set(aeqe, 1, FIELD_PREP(IRDMA_AEQE_QPCQID_LO, id) |
		      FIELD_PREP(IRDMA_AEQE_AECODE, code) |
		      FIELD_PREP(IRDMA_AEQE_AESRC, source) | IRDMA_AEQE_VALID);
}

static void irdma_ae_action_table(struct kunit *test)
{
	const struct ae_case *c = test->param_value;
	struct irdma_aeqe_info ae;
	__le64 aeqe[2];

	ae_element(aeqe, c->code, c->source, 7);
	irdma_aeqe_decode(aeqe, &ae);
	KUNIT_EXPECT_EQ(test, ae.id, 7);
	KUNIT_EXPECT_EQ(test, irdma_ae_action(&ae, c->iwarp), c->act);
	if (c->act == IRDMA_AE_ACT_QP)
		KUNIT_EXPECT_EQ(test, irdma_ae_qp_event(ae.code), c->event);
}

/* an engine with one QP (7) and one CQ (9) whose consumers count events */
struct ae_fixture {
	struct auxiliary_device adev;
	struct irdma_func fn;
	struct irdma_hw hw;
	struct irdma_qp qp;
	struct irdma_cq cq;
	enum ib_event_type last;
	unsigned int events;
	unsigned int err_moves;
};

/* stands for the QP's move to ERR: counts it, drops its reference */
static void ae_fixture_err_work(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(work, struct irdma_qp, err_work);
	struct ae_fixture *fx = container_of(qp, struct ae_fixture, qp);

	fx->err_moves++;
	irdma_qp_put(qp);
}

static void ae_fixture_handler(struct ib_event *ev, void *ctx)
{
	struct ae_fixture *fx = ctx;

	fx->last = ev->event;
	fx->events++;
}

static int ae_fixture_init(struct kunit *test)
{
	struct ae_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	if (!fx)
		return -ENOMEM;
	fx->fn.adev = &fx->adev;
	fx->fn.protocol = IRDMA_PROTOCOL_ROCEV2;
	fx->hw.fn = &fx->fn;
	xa_init(&fx->hw.qps);
	xa_init(&fx->hw.cqs);
	fx->qp.ibqp.event_handler = ae_fixture_handler;
	fx->qp.ibqp.qp_context = fx;
	fx->cq.ibcq.event_handler = ae_fixture_handler;
	fx->cq.ibcq.cq_context = fx;
	refcount_set(&fx->qp.refs, 1);
	init_completion(&fx->qp.freed);
	INIT_WORK(&fx->qp.err_work, ae_fixture_err_work);
	spin_lock_init(&fx->qp.cm_lock);
	refcount_set(&fx->cq.refs, 1);
	init_completion(&fx->cq.freed);
	if (xa_insert(&fx->hw.qps, 7, &fx->qp, GFP_KERNEL) ||
	    xa_insert(&fx->hw.cqs, 9, &fx->cq, GFP_KERNEL)) {
		xa_destroy(&fx->hw.qps);
		xa_destroy(&fx->hw.cqs);
		return -ENOMEM;
	}
	test->priv = fx;
	return 0;
}

static void ae_fixture_exit(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	flush_work(&fx->qp.err_work);
	xa_destroy(&fx->hw.qps);
	xa_destroy(&fx->hw.cqs);
}

static void ae_fixture_post(struct ae_fixture *fx, u16 code, u8 source,
			    u32 id)
{
	struct irdma_aeqe_info ae;
	__le64 aeqe[2];

	ae_element(aeqe, code, source, id);
	irdma_aeqe_decode(aeqe, &ae);
	irdma_ae_dispatch(&fx->hw, &ae);
}

static void irdma_ae_dispatch_reaches_qp(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_RQ, 7);
	KUNIT_EXPECT_EQ(test, fx->events, 1);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_ACCESS_ERR);
	/* suspend completions and events for other QPs reach no one */
	ae_fixture_post(fx, IRDMA_AE_QP_SUSPEND_COMPLETE, IRDMA_AESRC_SQ, 7);
	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_RQ, 8);
	KUNIT_EXPECT_EQ(test, fx->events, 1);
	/* the references taken for the event and the move were dropped */
	flush_work(&fx->qp.err_work);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
}

/*
 * A RoCEv2 QP's error AEs move it to ERR, once however many come; the
 * Established AE does not; an iWARP QP's errors are left to its CM.
 */
static void irdma_ae_roce_error_moves_qp_to_err(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	ae_fixture_post(fx, IRDMA_AE_LLP_CONNECTION_ESTABLISHED,
			IRDMA_AESRC_SQ, 7);
	flush_work(&fx->qp.err_work);
	KUNIT_EXPECT_EQ(test, fx->err_moves, 0);
	ae_fixture_post(fx, IRDMA_AE_LLP_TOO_MANY_RETRIES, IRDMA_AESRC_SQ, 7);
	flush_work(&fx->qp.err_work);
	KUNIT_EXPECT_EQ(test, fx->err_moves, 1);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_FATAL);
	ae_fixture_post(fx, IRDMA_AE_IB_REMOTE_ACCESS_ERROR, IRDMA_AESRC_RQ, 7);
	flush_work(&fx->qp.err_work);
	KUNIT_EXPECT_EQ(test, fx->err_moves, 2);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_ACCESS_ERR);
	fx->fn.protocol = IRDMA_PROTOCOL_IWARP;
	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_RQ, 7);
	flush_work(&fx->qp.err_work);
	KUNIT_EXPECT_EQ(test, fx->err_moves, 2);
	/* the consumer heard all four, Established included */
	KUNIT_EXPECT_EQ(test, fx->events, 4);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
}

/* a QP whose destroy dropped the table's reference gets nothing */
static void irdma_ae_dispatch_skips_dying_qp(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	refcount_set(&fx->qp.refs, 0);
	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_RQ, 7);
	KUNIT_EXPECT_EQ(test, fx->events, 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 0);
}

static void irdma_ae_dispatch_reaches_cq(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	ae_fixture_post(fx, IRDMA_AE_CQ_OPERATION_ERROR, IRDMA_AESRC_CQ, 9);
	KUNIT_EXPECT_EQ(test, fx->events, 1);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_CQ_ERR);
	/* the reference taken for the event was dropped */
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->cq.refs), 1);
	ae_fixture_post(fx, IRDMA_AE_LCE_CQ_CATASTROPHIC, 0, 10);
	KUNIT_EXPECT_EQ(test, fx->events, 1);
}

static void irdma_ae_dispatch_iwarp_llp_not_to_qp(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	fx->fn.protocol = IRDMA_PROTOCOL_IWARP;
	ae_fixture_post(fx, IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_AESRC_SQ, 7);
	KUNIT_EXPECT_EQ(test, fx->events, 0);
	fx->fn.protocol = IRDMA_PROTOCOL_ROCEV2;
	ae_fixture_post(fx, IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_AESRC_SQ, 7);
	KUNIT_EXPECT_EQ(test, fx->events, 1);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_FATAL);
}

/* an LLP AE of a QP no CM node owns reaches no one, and leaks nothing */
static void irdma_ae_dispatch_iwarp_llp_unlinked(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;

	fx->fn.protocol = IRDMA_PROTOCOL_IWARP;
	ae_fixture_post(fx, IRDMA_AE_LLP_CONNECTION_RESET, IRDMA_AESRC_SQ, 7);
	ae_fixture_post(fx, IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_AESRC_SQ, 8);
	KUNIT_EXPECT_EQ(test, fx->events, 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
}

struct ae_disc_case {
	const char *name;
	u16 code;
	int cause;
};

static const struct ae_disc_case ae_disc_cases[] = {
	{ "fin", IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_CM_DISC_PEER_FIN },
	{ "close_complete", IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_CM_DISC_CLOSED },
	{ "reset", IRDMA_AE_LLP_CONNECTION_RESET, IRDMA_CM_DISC_PEER_RST },
	{ "retries", IRDMA_AE_LLP_TOO_MANY_RETRIES, IRDMA_CM_DISC_TIMEOUT },
	{ "keepalive", IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES,
	  IRDMA_CM_DISC_TIMEOUT },
	{ "bad_close", IRDMA_AE_BAD_CLOSE, IRDMA_CM_DISC_LOCAL_ERR },
	{ "terminate", IRDMA_AE_LLP_TERMINATE_RECEIVED,
	  IRDMA_CM_DISC_LOCAL_ERR },
	{ "mpa_crc", IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR,
	  IRDMA_CM_DISC_LOCAL_ERR },
	{ "reset_sent", IRDMA_AE_RESET_SENT, IRDMA_CM_DISC_LOCAL_ERR },
	{ "terminate_sent", IRDMA_AE_TERMINATE_SENT, IRDMA_AE_NO_DISC },
	{ "established", IRDMA_AE_LLP_CONNECTION_ESTABLISHED,
	  IRDMA_AE_NO_DISC },
	{ "syn", IRDMA_AE_LLP_SYN_RECEIVED, IRDMA_AE_NO_DISC },
	{ "doubt", IRDMA_AE_LLP_DOUBT_REACHABILITY, IRDMA_AE_NO_DISC },
};

static void ae_disc_desc(const struct ae_disc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ae_disc, ae_disc_cases, ae_disc_desc);

static void irdma_ae_disc_cause_table(struct kunit *test)
{
	const struct ae_disc_case *c = test->param_value;

	/* every code here is one the CM takes on iWARP */
	KUNIT_EXPECT_TRUE(test, irdma_ae_is_llp(c->code));
	KUNIT_EXPECT_EQ(test, irdma_ae_disc_cause(c->code), c->cause);
}

/* ---- TERMINATE messages ---- */

/*
 * A received frame as the engine writes it to Q2: Ethernet (with a VLAN
 * tag when @vlan), IPv4 or IPv6, TCP with @opt bytes of options, then
 * @fpdu. Return: its bytes.
 */
static u32 ae_term_frame(u8 *buf, bool v6, bool vlan, u8 opt,
			 const u8 *fpdu, u32 flen)
{
	u32 off = 12;

	memset(buf, 0, IRDMA_Q2_FRAME_BYTES);
	if (vlan) {
		put_unaligned_be16(ETH_P_8021Q, buf + off);
		off += 4;
	}
	put_unaligned_be16(v6 ? ETH_P_IPV6 : ETH_P_IP, buf + off);
	off += 2;
	if (v6) {
		buf[off] = 0x60;
		buf[off + 6] = IPPROTO_TCP;
		off += 40;
	} else {
		buf[off] = 0x45;
		buf[off + 9] = IPPROTO_TCP;
		off += 20;
	}
	buf[off + 12] = (20 + opt) / 4 << 4;
	off += 20 + opt;
	memcpy(buf + off, fpdu, flen);
	return off + flen;
}

/* a tagged WRITE segment: 14-byte header, 8 bytes of data */
static const u8 ae_write_fpdu[] = {
	0x00, 0x16, 0xc1, 0x40, 0x12, 0x34, 0x56, 0x78,
	0, 0, 0, 0, 0x10, 0, 0, 0,	/* tagged offset */
	1, 2, 3, 4, 5, 6, 7, 8,
};

/* an untagged READ request: queue 1, MSN 3, MO 0, and its 28 bytes */
static const u8 ae_read_req_fpdu[] = {
	0x00, 0x2e, 0x41, 0x41, 0, 0, 0, 0,
	0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0,
	0xaa, 0xaa, 0xaa, 0xaa, 1, 1, 1, 1, 1, 1, 1, 1,	/* sink */
	0, 0, 0x10, 0,					/* size */
	0xbb, 0xbb, 0xbb, 0xbb, 2, 2, 2, 2, 2, 2, 2, 2,	/* source */
};

static void irdma_ae_term_tagged_write(struct kunit *test)
{
	u8 frame[IRDMA_Q2_FRAME_BYTES], msg[IRDMA_Q2_FRAME_OFF];
	u32 n, len;

	len = ae_term_frame(frame, false, false, 12, ae_write_fpdu,
			    sizeof(ae_write_fpdu));
	n = irdma_term_build(msg, IRDMA_AE_AMP_INVALID_STAG, frame, len);
	/* DDP tagged buffer, invalid STag; its length and DDP header */
	KUNIT_EXPECT_EQ(test, n, 4U + 2 + 14);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_DDP_TAGGED);
	KUNIT_EXPECT_EQ(test, msg[1], 0x00);
	KUNIT_EXPECT_EQ(test, msg[2], IRDMA_TERM_HDRCT_M | IRDMA_TERM_HDRCT_D);
	KUNIT_EXPECT_EQ(test, msg[3], 0);
	KUNIT_EXPECT_EQ(test, memcmp(msg + 4, ae_write_fpdu, 16), 0);
	/* a bounds error of the same segment over IPv6 and a VLAN */
	len = ae_term_frame(frame, true, true, 0, ae_write_fpdu,
			    sizeof(ae_write_fpdu));
	n = irdma_term_build(msg, IRDMA_AE_AMP_BOUNDS_VIOLATION, frame, len);
	KUNIT_EXPECT_EQ(test, n, 20U);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_DDP_TAGGED);
	KUNIT_EXPECT_EQ(test, msg[1], 0x01);
	KUNIT_EXPECT_EQ(test, memcmp(msg + 4, ae_write_fpdu, 16), 0);
}

static void irdma_ae_term_read_request(struct kunit *test)
{
	u8 frame[IRDMA_Q2_FRAME_BYTES], msg[IRDMA_Q2_FRAME_OFF];
	u32 n, len;

	len = ae_term_frame(frame, false, false, 0, ae_read_req_fpdu,
			    sizeof(ae_read_req_fpdu));
	n = irdma_term_build(msg, IRDMA_AE_AMP_BOUNDS_VIOLATION, frame, len);
	/* RDMAP remote protection, bounds; all of the READ request */
	KUNIT_EXPECT_EQ(test, n, 4U + 2 + 18 + 28);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_RDMAP_PROT);
	KUNIT_EXPECT_EQ(test, msg[1], 0x01);
	KUNIT_EXPECT_EQ(test, msg[2], IRDMA_TERM_HDRCT_M | IRDMA_TERM_HDRCT_D |
				      IRDMA_TERM_HDRCT_R);
	KUNIT_EXPECT_EQ(test, memcmp(msg + 4, ae_read_req_fpdu, 48), 0);
	/* the frame cut inside the DDP header: only the length */
	n = irdma_term_build(msg, IRDMA_AE_AMP_BOUNDS_VIOLATION, frame,
			     len - sizeof(ae_read_req_fpdu) + 10);
	KUNIT_EXPECT_EQ(test, n, 6U);
	KUNIT_EXPECT_EQ(test, msg[2], IRDMA_TERM_HDRCT_M);
}

static void irdma_ae_term_no_headers(struct kunit *test)
{
	u8 frame[IRDMA_Q2_FRAME_BYTES], msg[IRDMA_Q2_FRAME_OFF];
	u32 len, n;

	len = ae_term_frame(frame, false, false, 0, ae_write_fpdu,
			    sizeof(ae_write_fpdu));
	/* MPA's errors carry nothing of the segment */
	n = irdma_term_build(msg, IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR, frame,
			     len);
	KUNIT_EXPECT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_MPA);
	KUNIT_EXPECT_EQ(test, msg[1], 0x02);
	KUNIT_EXPECT_EQ(test, msg[2], 0);
	/* without a frame the untagged meaning, and nothing else */
	n = irdma_term_build(msg, IRDMA_AE_DDP_UBE_INVALID_QN, NULL, 0);
	KUNIT_EXPECT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_DDP_UNTAGGED);
	KUNIT_EXPECT_EQ(test, msg[1], 0x01);
	/* a frame whose headers do not parse is no frame */
	frame[12] = 0x88;
	n = irdma_term_build(msg, IRDMA_AE_AMP_INVALID_STAG, frame, len);
	KUNIT_EXPECT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_RDMAP_PROT);
	/* an AE without a meaning of its own: RDMAP, unspecified */
	n = irdma_term_build(msg, IRDMA_AE_BAD_CLOSE, NULL, 0);
	KUNIT_EXPECT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, msg[0], IRDMA_TERM_RDMAP_OP);
	KUNIT_EXPECT_EQ(test, msg[1], 0xff);
}

/* a peer's TERMINATE: DDP tagged buffer error, bounds, with headers */
static const u8 ae_peer_term[] = {
	0x00, 0x26, 0x41, 0x47, 0, 0, 0, 0,
	0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
	0x11, 0x01, 0xc0, 0x00,
};

static void irdma_ae_term_parse(struct kunit *test)
{
	/* byte and value that spoil the TERMINATE */
	static const u8 bad[][2] = { { 11, 0 }, { 15, 2 }, { 3, 0x43 },
				     { 2, 0xc1 } };
	u8 frame[IRDMA_Q2_FRAME_BYTES], fpdu[sizeof(ae_peer_term)];
	u8 le = 0, ec = 0;
	unsigned int i;
	u32 len;

	len = ae_term_frame(frame, true, false, 12, ae_peer_term,
			    sizeof(ae_peer_term));
	KUNIT_EXPECT_EQ(test, irdma_term_parse(frame, len, &le, &ec), 0);
	KUNIT_EXPECT_EQ(test, le, 0x11);
	KUNIT_EXPECT_EQ(test, ec, 0x01);
	len = ae_term_frame(frame, false, true, 0, ae_peer_term,
			    sizeof(ae_peer_term));
	KUNIT_EXPECT_EQ(test, irdma_term_parse(frame, len, &le, &ec), 0);
	/* cut before its control word */
	KUNIT_EXPECT_EQ(test, irdma_term_parse(frame, len - 2, &le, &ec),
			-EBADMSG);
	/* the wrong queue, MSN, opcode, a tagged segment: not a TERMINATE */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(fpdu, ae_peer_term, sizeof(fpdu));
		fpdu[bad[i][0]] = bad[i][1];
		len = ae_term_frame(frame, false, false, 0, fpdu, sizeof(fpdu));
		KUNIT_EXPECT_EQ(test, irdma_term_parse(frame, len, &le, &ec),
				-EBADMSG);
	}
}

/* AE @code from @src about QP 7, its frame (carrying @fpdu) in Q2 */
static void ae_post_q2(struct ae_fixture *fx, u16 code, u8 src,
		       const u8 *fpdu, u32 flen)
{
	struct irdma_aeqe_info ae;
	__le64 aeqe[2];

	ae_term_frame((u8 *)fx->qp.meta.va + IRDMA_Q2_FRAME_OFF, false, false,
		      0, fpdu, flen);
	ae_element(aeqe, code, src, 7);
	aeqe[1] |= cpu_to_le64(FIELD_PREP(IRDMA_AEQE_Q2DATA,
					  IRDMA_AEQ_Q2_FRAME));
	irdma_aeqe_decode(aeqe, &ae);
	irdma_ae_dispatch(&fx->hw, &ae);
}

/*
 * An error AE on a connected iWARP QP writes the TERMINATE message to Q2
 * and, with no CM node to close the connection, leaves the QP as it was.
 */
static void irdma_ae_term_dispatch(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;
	u8 *page;

	page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	fx->fn.protocol = IRDMA_PROTOCOL_IWARP;
	fx->qp.meta.va = page;
	fx->qp.conn_set = true;
	fx->qp.ib_state = IB_QPS_RTS;
	ae_post_q2(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_RQ, ae_write_fpdu,
		   sizeof(ae_write_fpdu));
	KUNIT_EXPECT_EQ(test, fx->events, 1);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, page[0], IRDMA_TERM_DDP_TAGGED);
	KUNIT_EXPECT_EQ(test, fx->qp.term_act, IRDMA_TERMACT_TERM_AND_FIN);
	KUNIT_EXPECT_EQ(test, fx->qp.term_words, 5);
	KUNIT_EXPECT_FALSE(test, test_bit(IRDMA_QP_TERM_STARTED,
					  &fx->qp.term_flags));
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
	/* the peer's TERMINATE reaches the consumer; ours would be a FIN */
	ae_post_q2(fx, IRDMA_AE_LLP_TERMINATE_RECEIVED, IRDMA_AESRC_RQ,
		   ae_peer_term, sizeof(ae_peer_term));
	KUNIT_EXPECT_EQ(test, fx->events, 2);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, fx->qp.term_act, IRDMA_TERMACT_FIN_ONLY);
	KUNIT_EXPECT_EQ(test, fx->qp.term_words, 0);
	/*
	 * our own SQ WQE's bad key names nothing the peer did: RDMAP, local
	 * catastrophic error, no headers, even with a frame in Q2
	 */
	clear_bit(IRDMA_QP_TERM_STARTED, &fx->qp.term_flags);
	memset(page, 0xff, 4);
	ae_post_q2(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_SQ,
		   ae_write_fpdu, sizeof(ae_write_fpdu));
	KUNIT_EXPECT_EQ(test, fx->events, 3);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(page), 0U);
	KUNIT_EXPECT_EQ(test, fx->qp.term_act, IRDMA_TERMACT_TERM_AND_FIN);
	KUNIT_EXPECT_EQ(test, fx->qp.term_words, 1);
	/* a QP that is not in RTS is left to the usual handling */
	fx->qp.ib_state = IB_QPS_SQD;
	page[0] = 0;
	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_RQ, 7);
	KUNIT_EXPECT_EQ(test, fx->events, 4);
	KUNIT_EXPECT_EQ(test, page[0], 0);
}

/*
 * An error AE of a connected iWARP QP whose graceful close is under way
 * (SQD, our FIN behind the SQ, no TERMINATE started) aborts the
 * connection at once; with a TERMINATE under way it is left to finish,
 * and in RTS the same error starts a TERMINATE instead.
 */
/*
 * QP 7 of the fixture as a connected iWARP QP in @state, with a Q2 page
 * and linked to a CM node without references, which records the causes
 * it is given and queues nothing.
 */
static struct irdma_cm_node *ae_connected_qp(struct kunit *test,
					     enum ib_qp_state state)
{
	struct ae_fixture *fx = test->priv;
	struct irdma_cm_node *node;
	u8 *page;

	page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NOT_NULL(test, node);
	fx->fn.protocol = IRDMA_PROTOCOL_IWARP;
	fx->qp.meta.va = page;
	fx->qp.conn_set = true;
	fx->qp.cm_node = node;
	fx->qp.ib_state = state;
	return node;
}

static void irdma_ae_closing_qp_aborts(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;
	struct irdma_cm_node *node = ae_connected_qp(test, IB_QPS_SQD);

	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_SQ, 7);
	KUNIT_EXPECT_EQ(test, fx->events, 1);
	KUNIT_EXPECT_EQ(test, fx->last, IB_EVENT_QP_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, node->disc_causes, BIT(IRDMA_CM_DISC_LOCAL_ERR));
	KUNIT_EXPECT_EQ(test, fx->qp.term_words, 0);
	/* the same from the RQ, the peer's segment at fault */
	node->disc_causes = 0;
	ae_fixture_post(fx, IRDMA_AE_DDP_UBE_INVALID_MO, IRDMA_AESRC_RQ, 7);
	KUNIT_EXPECT_EQ(test, node->disc_causes, BIT(IRDMA_CM_DISC_LOCAL_ERR));
	/* a TERMINATE already under way is left to finish */
	node->disc_causes = 0;
	set_bit(IRDMA_QP_TERM_STARTED, &fx->qp.term_flags);
	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_SQ, 7);
	KUNIT_EXPECT_EQ(test, node->disc_causes, 0UL);
	/* in RTS the error is answered with a TERMINATE, not an abort */
	clear_bit(IRDMA_QP_TERM_STARTED, &fx->qp.term_flags);
	fx->qp.ib_state = IB_QPS_RTS;
	ae_fixture_post(fx, IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AESRC_SQ, 7);
	KUNIT_EXPECT_EQ(test, node->disc_causes, BIT(IRDMA_CM_DISC_TERMINATE));
	KUNIT_EXPECT_TRUE(test, test_bit(IRDMA_QP_TERM_STARTED,
					 &fx->qp.term_flags));
	KUNIT_EXPECT_EQ(test, fx->qp.term_words, 1);
	KUNIT_EXPECT_EQ(test, fx->events, 4);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
	fx->qp.cm_node = NULL;
}

/*
 * The peer's TERMINATE can raise its AE while the CM's move to RTS is
 * still on the CQP (the engine already in RTS sent our MPA reply, and the
 * peer answered it): it is answered as in RTS, with our FIN, not taken for
 * an error of a QP that never got there (an abort, an RST).
 */
static void irdma_ae_term_while_rts_pending(struct kunit *test)
{
	struct ae_fixture *fx = test->priv;
	struct irdma_cm_node *node = ae_connected_qp(test, IB_QPS_RTR);

	set_bit(IRDMA_QP_RTS_PENDING, &fx->qp.term_flags);
	ae_post_q2(fx, IRDMA_AE_LLP_TERMINATE_RECEIVED, IRDMA_AESRC_RQ,
		   ae_peer_term, sizeof(ae_peer_term));
	KUNIT_EXPECT_EQ(test, node->disc_causes, BIT(IRDMA_CM_DISC_TERMINATE));
	KUNIT_EXPECT_TRUE(test, test_bit(IRDMA_QP_TERM_STARTED,
					 &fx->qp.term_flags));
	KUNIT_EXPECT_EQ(test, fx->qp.term_act, IRDMA_TERMACT_FIN_ONLY);
	/* before the move began the same AE is an error: abort */
	node->disc_causes = 0;
	clear_bit(IRDMA_QP_TERM_STARTED, &fx->qp.term_flags);
	clear_bit(IRDMA_QP_RTS_PENDING, &fx->qp.term_flags);
	ae_post_q2(fx, IRDMA_AE_LLP_TERMINATE_RECEIVED, IRDMA_AESRC_RQ,
		   ae_peer_term, sizeof(ae_peer_term));
	KUNIT_EXPECT_FALSE(test, test_bit(IRDMA_QP_TERM_STARTED,
					  &fx->qp.term_flags));
	KUNIT_EXPECT_EQ(test, node->disc_causes, BIT(IRDMA_CM_DISC_LOCAL_ERR));
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
	fx->qp.cm_node = NULL;
}

static struct kunit_case irdma_ae_cases[] = {
	KUNIT_CASE_PARAM(irdma_ae_disc_cause_table, ae_disc_gen_params),
	KUNIT_CASE(irdma_ae_dispatch_iwarp_llp_unlinked),
	KUNIT_CASE_PARAM(irdma_ae_action_table, ae_gen_params),
	KUNIT_CASE(irdma_ae_dispatch_reaches_qp),
	KUNIT_CASE(irdma_ae_roce_error_moves_qp_to_err),
	KUNIT_CASE(irdma_ae_dispatch_skips_dying_qp),
	KUNIT_CASE(irdma_ae_dispatch_reaches_cq),
	KUNIT_CASE(irdma_ae_dispatch_iwarp_llp_not_to_qp),
	KUNIT_CASE(irdma_ae_term_tagged_write),
	KUNIT_CASE(irdma_ae_term_read_request),
	KUNIT_CASE(irdma_ae_term_no_headers),
	KUNIT_CASE(irdma_ae_term_parse),
	KUNIT_CASE(irdma_ae_term_dispatch),
	KUNIT_CASE(irdma_ae_closing_qp_aborts),
	KUNIT_CASE(irdma_ae_term_while_rts_pending),
	{}
};

static struct kunit_suite irdma_ae_suite = {
	.name = "irdma_ae",
	.init = ae_fixture_init,
	.exit = ae_fixture_exit,
	.test_cases = irdma_ae_cases,
};

kunit_test_suite(irdma_ae_suite);
