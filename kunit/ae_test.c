// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for asynchronous events (ae.c): what each AE, decoded from
 * the element the engine writes, asks of the driver, and that a QP's or a
 * CQ's consumer gets the IB event it should.
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
	  false, IRDMA_AE_ACT_LOG },
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
};

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
	/* the reference taken for the event was dropped */
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

static struct kunit_case irdma_ae_cases[] = {
	KUNIT_CASE_PARAM(irdma_ae_disc_cause_table, ae_disc_gen_params),
	KUNIT_CASE(irdma_ae_dispatch_iwarp_llp_unlinked),
	KUNIT_CASE_PARAM(irdma_ae_action_table, ae_gen_params),
	KUNIT_CASE(irdma_ae_dispatch_reaches_qp),
	KUNIT_CASE(irdma_ae_dispatch_skips_dying_qp),
	KUNIT_CASE(irdma_ae_dispatch_reaches_cq),
	KUNIT_CASE(irdma_ae_dispatch_iwarp_llp_not_to_qp),
	{}
};

static struct kunit_suite irdma_ae_suite = {
	.name = "irdma_ae",
	.init = ae_fixture_init,
	.exit = ae_fixture_exit,
	.test_cases = irdma_ae_cases,
};

kunit_test_suite(irdma_ae_suite);
