// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for QPs (qp.c): which state moves are allowed and what the
 * engine is told, what a close asks of a move, how big the rings get for
 * the capabilities asked, references and destroy, and which QPs the CM may
 * take.
 */
#include <kunit/test.h>
#include <rdma/ib_pack.h>
#include <linux/etherdevice.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/kthread.h>

#include <rdma/irdma-abi.h>

#include "../cm.h"
#include "cmd_fake.h"

/* ---- irdma_qp_hw_state ---- */

struct qp_state_case {
	const char *name;
	enum ib_qp_state cur;
	enum ib_qp_state next;
	bool iwarp;
	int ret;
	u8 hw;
};

static const struct qp_state_case qp_state_cases[] = {
	{ "reset_to_init", IB_QPS_RESET, IB_QPS_INIT, false, 0, IRDMA_QPS_IDLE },
	{ "init_to_init", IB_QPS_INIT, IB_QPS_INIT, false, 0, IRDMA_QPS_IDLE },
	{ "init_to_rtr", IB_QPS_INIT, IB_QPS_RTR, false, 0, IRDMA_QPS_RTR },
	{ "rtr_to_rts", IB_QPS_RTR, IB_QPS_RTS, false, 0, IRDMA_QPS_RTS },
	{ "rts_to_sqd", IB_QPS_RTS, IB_QPS_SQD, false, 0, IRDMA_QPS_CLOSING },
	{ "sqd_to_rts", IB_QPS_SQD, IB_QPS_RTS, false, 0, IRDMA_QPS_RTS },
	{ "sqe_to_rts", IB_QPS_SQE, IB_QPS_RTS, false, 0, IRDMA_QPS_RTS },
	{ "rts_to_err", IB_QPS_RTS, IB_QPS_ERR, false, 0, IRDMA_QPS_ERROR },
	{ "reset_to_err", IB_QPS_RESET, IB_QPS_ERR, false, 0, IRDMA_QPS_ERROR },
	{ "err_to_reset", IB_QPS_ERR, IB_QPS_RESET, false, 0, IRDMA_QPS_IDLE },
	{ "rts_to_reset", IB_QPS_RTS, IB_QPS_RESET, true, 0, IRDMA_QPS_IDLE },
	{ "reset_to_rts", IB_QPS_RESET, IB_QPS_RTS, false, -EINVAL, 0 },
	{ "reset_to_rtr", IB_QPS_RESET, IB_QPS_RTR, true, -EINVAL, 0 },
	{ "init_to_rts", IB_QPS_INIT, IB_QPS_RTS, false, -EINVAL, 0 },
	{ "init_to_rts_iwarp", IB_QPS_INIT, IB_QPS_RTS, true, 0, IRDMA_QPS_RTS },
	/* rdma_cm's accept and connect: RTR, the engine keeping it idle */
	{ "init_to_rtr_iwarp", IB_QPS_INIT, IB_QPS_RTR, true, 0, IRDMA_QPS_IDLE },
	/* librdmacm's rdma_accept(): a modify in RTR without a new state */
	{ "rtr_stays_iwarp", IB_QPS_RTR, IB_QPS_RTR, true, 0, IRDMA_QPS_IDLE },
	{ "rtr_to_rts_iwarp", IB_QPS_RTR, IB_QPS_RTS, true, 0, IRDMA_QPS_RTS },
	{ "rtr_to_rtr", IB_QPS_RTR, IB_QPS_RTR, false, -EINVAL, 0 },
	{ "rts_to_rtr", IB_QPS_RTS, IB_QPS_RTR, false, -EINVAL, 0 },
	{ "sqe_to_rts_iwarp", IB_QPS_SQE, IB_QPS_RTS, true, -EINVAL, 0 },
	{ "sqd_to_rts_iwarp", IB_QPS_SQD, IB_QPS_RTS, true, -EINVAL, 0 },
	{ "err_to_rts", IB_QPS_ERR, IB_QPS_RTS, false, -EINVAL, 0 },
	{ "err_to_init", IB_QPS_ERR, IB_QPS_INIT, true, -EINVAL, 0 },
	{ "unknown_next", IB_QPS_RTS, (enum ib_qp_state)9, false, -EINVAL, 0 },
	{ "unknown_cur", (enum ib_qp_state)7, IB_QPS_ERR, false, -EINVAL, 0 },
};

static void qp_state_desc(const struct qp_state_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qp_state, qp_state_cases, qp_state_desc);

static void irdma_qp_hw_state_table(struct kunit *test)
{
	const struct qp_state_case *c = test->param_value;
	u8 hw = 0xff;

	KUNIT_ASSERT_EQ(test, irdma_qp_hw_state(c->cur, c->next, c->iwarp, &hw),
			c->ret);
	if (!c->ret)
		KUNIT_EXPECT_EQ(test, hw, c->hw);
	else
		KUNIT_EXPECT_EQ(test, hw, 0xff);
}

/* ---- irdma_qp_ulp_disc_cause ---- */

/*
 * What a ULP's move of a connected iWARP QP tells the CM: rdma_disconnect
 * (SQD) a graceful close, ERR or RESET an abort, nothing else anything.
 */
static void irdma_qp_ulp_disc_cause_moves(struct kunit *test)
{
	static const struct {
		enum ib_qp_state cur, next;
		int cause;
	} moves[] = {
		{ IB_QPS_RTS, IB_QPS_SQD, IRDMA_CM_DISC_LOCAL_CLOSE },
		{ IB_QPS_RTS, IB_QPS_ERR, IRDMA_CM_DISC_LOCAL_ERR },
		{ IB_QPS_RTS, IB_QPS_RESET, IRDMA_CM_DISC_LOCAL_ERR },
		{ IB_QPS_SQD, IB_QPS_ERR, IRDMA_CM_DISC_LOCAL_ERR },
		{ IB_QPS_SQD, IB_QPS_RESET, IRDMA_CM_DISC_LOCAL_ERR },
		/* a close under way is not closed again */
		{ IB_QPS_SQD, IB_QPS_SQD, -1 },
		{ IB_QPS_RTS, IB_QPS_RTS, -1 },
		/* not connected yet, or not any more */
		{ IB_QPS_INIT, IB_QPS_ERR, -1 },
		{ IB_QPS_INIT, IB_QPS_RTS, -1 },
		{ IB_QPS_RTR, IB_QPS_ERR, -1 },
		{ IB_QPS_ERR, IB_QPS_RESET, -1 },
		{ IB_QPS_ERR, IB_QPS_ERR, -1 },
		{ IB_QPS_RESET, IB_QPS_INIT, -1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(moves); i++)
		KUNIT_EXPECT_EQ_MSG(test, irdma_qp_ulp_disc_cause(moves[i].cur,
								  moves[i].next),
				    moves[i].cause, "%d -> %d", moves[i].cur,
				    moves[i].next);
}

/* ---- irdma_qp_resets_conn, irdma_qp_sqd_noop ---- */

/*
 * The two questions a close asks of a move, on a QP of the given kind:
 * QC_RST, whether its MODIFY_QP carries RESETCON (a connected iWARP QP
 * leaving RTS or SQD for ERR or RESET, unless the engine closed the TCP
 * already); QC_NOOP, whether an SQD is a no-op (iw_cm's after
 * librdmacm's on a connected iWARP QP, or rdma_disconnect()'s after the
 * close of an iWARP QP in ERR whose connection the engine reported over;
 * only the state asked).
 */
enum qp_close_ask { QC_RST, QC_NOOP };

struct qp_close_case {
	const char *name;
	enum qp_close_ask ask;
	enum ib_qp_state cur, next;
	int mask;
	bool iwarp, conn, closed, want;
};

/* name, question, from, to, attr mask, iWARP, connected, closed, answer */
#define QCLOSE(n, a, c, x, m, i, cn, cl, w)				\
	{ .name = (n), .ask = (a),					\
	  .cur = IB_QPS_##c, .next = IB_QPS_##x, .mask = (m),		\
	  .iwarp = (i), .conn = (cn), .closed = (cl), .want = (w) }

static const struct qp_close_case qp_close_cases[] = {
	QCLOSE("reset_rts_err", QC_RST, RTS, ERR, 0, 1, 1, 0, 1),
	QCLOSE("reset_rts_reset", QC_RST, RTS, RESET, 0, 1, 1, 0, 1),
	/* an abort during a graceful close */
	QCLOSE("reset_sqd_err", QC_RST, SQD, ERR, 0, 1, 1, 0, 1),
	/* closed or reset already: the CM's move after CLOSE */
	QCLOSE("reset_sqd_err_closed", QC_RST, SQD, ERR, 0, 1, 1, 1, 0),
	QCLOSE("reset_rts_err_closed", QC_RST, RTS, ERR, 0, 1, 1, 1, 0),
	/* a graceful close is not a reset */
	QCLOSE("reset_rts_sqd", QC_RST, RTS, SQD, 0, 1, 1, 0, 0),
	/* never connected, not any more, not iWARP */
	QCLOSE("reset_init_err", QC_RST, INIT, ERR, 0, 1, 1, 0, 0),
	QCLOSE("reset_rts_err_no_conn", QC_RST, RTS, ERR, 0, 1, 0, 0, 0),
	QCLOSE("reset_err_reset", QC_RST, ERR, RESET, 0, 1, 1, 0, 0),
	QCLOSE("reset_rts_err_roce", QC_RST, RTS, ERR, 0, 0, 0, 0, 0),
	QCLOSE("sqd_noop_err_sqd", QC_NOOP, ERR, SQD, IB_QP_STATE,
	       1, 1, 1, 1),
	/* our abort: the connection was reset by us, not reported */
	QCLOSE("sqd_noop_not_closed", QC_NOOP, ERR, SQD, IB_QP_STATE,
	       1, 1, 0, 0),
	QCLOSE("sqd_noop_err_rts", QC_NOOP, ERR, RTS, IB_QP_STATE, 1, 1, 1, 0),
	QCLOSE("sqd_noop_rts_sqd", QC_NOOP, RTS, SQD, IB_QP_STATE, 1, 1, 1, 0),
	QCLOSE("sqd_noop_more_attrs", QC_NOOP, ERR, SQD,
	       IB_QP_STATE | IB_QP_ACCESS_FLAGS, 1, 1, 1, 0),
	QCLOSE("sqd_noop_no_conn", QC_NOOP, ERR, SQD, IB_QP_STATE, 1, 0, 1, 0),
	QCLOSE("sqd_noop_roce", QC_NOOP, ERR, SQD, IB_QP_STATE, 0, 0, 1, 0),
	/* iw_cm's SQD after librdmacm's: the engine is closing already */
	QCLOSE("sqd_noop_sqd_sqd", QC_NOOP, SQD, SQD, IB_QP_STATE, 1, 1, 0, 1),
	QCLOSE("sqd_noop_sqd_sqd_attrs", QC_NOOP, SQD, SQD,
	       IB_QP_STATE | IB_QP_ACCESS_FLAGS, 1, 1, 0, 0),
	QCLOSE("sqd_noop_sqd_sqd_no_conn", QC_NOOP, SQD, SQD, IB_QP_STATE,
	       1, 0, 0, 0),
	QCLOSE("sqd_noop_sqd_sqd_roce", QC_NOOP, SQD, SQD, IB_QP_STATE,
	       0, 0, 0, 0),
};

static void qp_close_desc(const struct qp_close_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qp_close, qp_close_cases, qp_close_desc);

static void irdma_qp_close_moves_table(struct kunit *test)
{
	const struct qp_close_case *c = test->param_value;
	struct irdma_qp *qp;
	bool got;

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->hw_type = c->iwarp ? IRDMA_QPTYPE_IWARP : IRDMA_QPTYPE_ROCE_RC;
	qp->conn_set = c->conn;
	qp->llp_closed = c->closed;
	if (c->ask == QC_NOOP)
		got = irdma_qp_sqd_noop(qp, c->cur, c->next, c->mask);
	else
		got = irdma_qp_resets_conn(qp, c->cur, c->next);
	KUNIT_EXPECT_EQ(test, got, c->want);
}

/* ---- irdma_qp_iw_stays_idle ---- */

/*
 * Only moves of an iWARP QP between INIT and RTR (or within either) skip
 * the engine: the first move to INIT, the move to RTS, to ERR or RESET,
 * and every move of a RoCE QP still issue a MODIFY_QP.
 */
static void irdma_qp_iw_stays_idle_moves(struct kunit *test)
{
	static const struct {
		bool iwarp;
		enum ib_qp_state cur, next;
		bool want;
	} c[] = {
		{ true, IB_QPS_INIT, IB_QPS_INIT, true },
		{ true, IB_QPS_INIT, IB_QPS_RTR, true },
		{ true, IB_QPS_RTR, IB_QPS_RTR, true },
		{ true, IB_QPS_RESET, IB_QPS_INIT, false },
		{ true, IB_QPS_INIT, IB_QPS_RTS, false },
		{ true, IB_QPS_RTR, IB_QPS_RTS, false },
		{ true, IB_QPS_INIT, IB_QPS_ERR, false },
		{ true, IB_QPS_RTR, IB_QPS_RESET, false },
		{ false, IB_QPS_INIT, IB_QPS_INIT, false },
		{ false, IB_QPS_INIT, IB_QPS_RTR, false },
	};
	struct irdma_qp *qp;
	unsigned int i;

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		qp->hw_type = c[i].iwarp ? IRDMA_QPTYPE_IWARP :
					   IRDMA_QPTYPE_ROCE_RC;
		KUNIT_EXPECT_EQ_MSG(test,
				    irdma_qp_iw_stays_idle(qp, c[i].cur,
							   c[i].next),
				    c[i].want, "case %u", i);
	}
}

/* ---- irdma_qp_ring_sizes ---- */

struct qp_size_case {
	const char *name;
	u8 hw_rev;
	struct ib_qp_cap cap;
	int ret;
	struct irdma_qp_sizes want;
};

#define QCAP(swr, rwr, ssge, rsge, inl)					\
	{ .max_send_wr = (swr), .max_recv_wr = (rwr),			\
	  .max_send_sge = (ssge), .max_recv_sge = (rsge),		\
	  .max_inline_data = (inl) }
/* sq quanta, rq wqes, rq shift, sq enc, rq enc, send wr, recv wr */
#define QSZ(sq, rq, sh, se, re, sw, rw)					\
	{ .sq_quanta = (sq), .rq_wqes = (rq), .rq_shift = (sh),		\
	  .sq_enc = (se), .rq_enc = (re), .max_send_wr = (sw),		\
	  .max_recv_wr = (rw) }

static const struct qp_size_case qp_size_cases[] = {
	/* 10 quanta are fixed: one kept free, a chunk of padding, 1 for the CM */
	{ "empty_caps", 2, QCAP(0, 0, 0, 0, 0), 0, QSZ(16, 8, 0, 2, 1, 6, 7) },
	{ "mad_qp1", 2, QCAP(128, 512, 2, 2, 0), 0,
	  QSZ(512, 1024, 1, 7, 9, 251, 1023) },
	{ "max_sges", 2, QCAP(10, 100, 13, 13, 0), 0,
	  QSZ(128, 128, 3, 5, 8, 14, 127) },
	{ "max_inline", 2, QCAP(1, 1, 1, 1, 101), 0,
	  QSZ(16, 8, 0, 2, 1, 1, 7) },
	{ "max_wrs", 2, QCAP(4095, 4095, 1, 1, 0), 0,
	  QSZ(8192, 4096, 0, 11, 10, 4095, 4095) },
	{ "gen1_three_sges", 1, QCAP(8, 8, 3, 3, 0), 0,
	  QSZ(32, 16, 1, 3, 3, 14, 15) },
	{ "too_many_send_wr", 2, QCAP(4096, 1, 1, 1, 0), -EINVAL },
	{ "too_many_recv_wr", 2, QCAP(1, 4096, 1, 1, 0), -EINVAL },
	{ "too_many_send_sge", 2, QCAP(1, 1, 14, 1, 0), -EINVAL },
	{ "too_many_recv_sge", 2, QCAP(1, 1, 1, 14, 0), -EINVAL },
	{ "inline_too_long", 2, QCAP(1, 1, 1, 1, 102), -EINVAL },
	{ "gen1_four_sges", 1, QCAP(1, 1, 4, 1, 0), -EINVAL },
	{ "sq_over_max_quanta", 2, QCAP(4095, 1, 13, 1, 0), -EINVAL },
	{ "unknown_generation", 3, QCAP(1, 1, 1, 1, 0), -EINVAL },
};

static void qp_size_desc(const struct qp_size_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qp_size, qp_size_cases, qp_size_desc);

static void irdma_qp_ring_sizes_table(struct kunit *test)
{
	const struct qp_size_case *c = test->param_value;
	const struct irdma_qp_sizes *w = &c->want;
	struct irdma_qp_sizes sz = {};

	KUNIT_ASSERT_EQ(test, irdma_qp_ring_sizes(&c->cap, c->hw_rev, &sz),
			c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, sz.sq_quanta, w->sq_quanta);
	KUNIT_EXPECT_EQ(test, sz.rq_wqes, w->rq_wqes);
	KUNIT_EXPECT_EQ(test, sz.rq_shift, w->rq_shift);
	KUNIT_EXPECT_EQ(test, sz.sq_enc, w->sq_enc);
	KUNIT_EXPECT_EQ(test, sz.rq_enc, w->rq_enc);
	KUNIT_EXPECT_EQ(test, sz.max_send_wr, w->max_send_wr);
	KUNIT_EXPECT_EQ(test, sz.max_recv_wr, w->max_recv_wr);
	/* what is reported must really fit what was asked */
	KUNIT_EXPECT_GE(test, sz.max_send_wr, c->cap.max_send_wr);
	KUNIT_EXPECT_GE(test, sz.max_recv_wr, c->cap.max_recv_wr);
}

/* ---- irdma_qp_user_sizes: libirdma's ring geometry ---- */

/**
 * struct qp_user_case - what libirdma passes and the rings it made
 * @name: description
 * @hw_rev: generation
 * @cap: WRs (ring sizes in WQEs), SGEs and inline bytes
 * @sq_pages: SQ pages registered
 * @rq_pages: RQ pages registered
 * @ret: expected result
 * @sq_quanta: expected SQ quanta
 * @rq_shift: expected RQ WQE shift
 */
struct qp_user_case {
	const char *name;
	u8 hw_rev;
	struct ib_qp_cap cap;
	u32 sq_pages;
	u32 rq_pages;
	int ret;
	u32 sq_quanta;
	u8 rq_shift;
};

#define QPU_CAP(sw, rw, ss, rs, inl) { .max_send_wr = (sw), \
	.max_recv_wr = (rw), .max_send_sge = (ss), .max_recv_sge = (rs), \
	.max_inline_data = (inl) }

static const struct qp_user_case qp_user_cases[] = {
	/* 1 SGE takes 64-byte SQ WQEs on gen2 (room for one more) */
	{ "gen2_one_sge", 2, QPU_CAP(256, 32, 1, 1, 0), 4, 1, 0, 512, 0 },
	{ "gen2_three_sges", 2, QPU_CAP(64, 64, 3, 3, 0), 2, 1, 0, 256, 1 },
	{ "gen2_inline_101", 2, QPU_CAP(64, 8, 1, 4, 101), 2, 1, 0, 256, 2 },
	{ "gen2_13_sges", 2, QPU_CAP(16, 16, 13, 13, 0), 1, 1, 0, 128, 3 },
	{ "gen1_one_sge", 1, QPU_CAP(64, 32, 1, 1, 0), 1, 1, 0, 64, 2 },
	{ "sq_not_power_of_2", 2, QPU_CAP(96, 32, 1, 1, 0), 4, 1, -EINVAL },
	{ "sq_beyond_pages", 2, QPU_CAP(256, 32, 1, 1, 0), 3, 1, -EINVAL },
	{ "rq_beyond_pages", 2, QPU_CAP(64, 256, 1, 1, 0), 1, 1, -EINVAL },
	{ "smallest_rings", 2, QPU_CAP(8, 8, 0, 1, 0), 1, 1, 0, 8, 0 },
	{ "sq_too_small", 2, QPU_CAP(4, 32, 1, 1, 0), 1, 1, -EINVAL },
	{ "no_rq", 2, QPU_CAP(64, 0, 1, 1, 0), 1, 1, -EINVAL },
	{ "sq_over_hw_max", 2, QPU_CAP(32768, 32, 1, 1, 0), 256, 1, -EINVAL },
	{ "too_many_sges", 2, QPU_CAP(64, 32, 14, 1, 0), 1, 1, -EINVAL },
	{ "inline_over_max", 2, QPU_CAP(64, 32, 1, 1, 102), 1, 1, -EINVAL },
	{ "gen3", 3, QPU_CAP(64, 32, 1, 1, 0), 1, 1, -EINVAL },
};

static void qp_user_desc(const struct qp_user_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qp_user, qp_user_cases, qp_user_desc);

static void irdma_qp_user_sizes_table(struct kunit *test)
{
	const struct qp_user_case *c = test->param_value;
	struct irdma_qp_sizes sz = {};
	int ret;

	ret = irdma_qp_user_sizes(&c->cap, c->hw_rev, c->sq_pages, c->rq_pages,
				  &sz);
	KUNIT_ASSERT_EQ(test, ret, c->ret);
	if (ret)
		return;
	KUNIT_EXPECT_EQ(test, sz.sq_quanta, c->sq_quanta);
	KUNIT_EXPECT_EQ(test, sz.rq_shift, c->rq_shift);
	KUNIT_EXPECT_EQ(test, sz.rq_wqes, c->cap.max_recv_wr);
	KUNIT_EXPECT_EQ(test, sz.max_send_wr, c->cap.max_send_wr);
	KUNIT_EXPECT_EQ(test, 4U << sz.sq_enc, sz.sq_quanta);
	KUNIT_EXPECT_EQ(test, 4U << sz.rq_enc, sz.rq_wqes << sz.rq_shift);
}

/* ---- references: lookup, put and destroy ---- */

#define QP_REF_ID	5

/* an engine table with one published QP, and a destroy to run aside */
struct qp_ref_fixture {
	struct irdma_hw hw;
	struct irdma_qp qp;
	struct task_struct *destroyer;
	struct completion destroyed;
};

static int qp_ref_destroyer(void *data)
{
	struct qp_ref_fixture *fx = data;

	irdma_qp_unpublish(&fx->hw, &fx->qp, QP_REF_ID);
	complete(&fx->destroyed);
	return 0;
}

static struct qp_ref_fixture *qp_ref_setup(struct kunit *test)
{
	struct qp_ref_fixture *fx = kunit_kzalloc(test, sizeof(*fx),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fx);
	xa_init_flags(&fx->hw.qps, XA_FLAGS_ALLOC1);
	init_completion(&fx->destroyed);
	/* reserved as create does, then published */
	KUNIT_ASSERT_EQ(test, xa_insert(&fx->hw.qps, QP_REF_ID, NULL,
					GFP_KERNEL), 0);
	irdma_qp_publish(&fx->hw, &fx->qp, QP_REF_ID);
	return fx;
}

/*
 * Let the destroy run until it has dropped the table's reference and
 * sleeps, or until it ends: true if it sleeps. The test's thread yields
 * rather than sleeping a set time.
 */
static bool qp_ref_destroy_sleeps(struct qp_ref_fixture *fx)
{
	unsigned long give_up = jiffies + 10 * HZ;

	while (!completion_done(&fx->destroyed) &&
	       time_before(jiffies, give_up)) {
		if (refcount_read(&fx->qp.refs) == 1 &&
		    READ_ONCE(fx->destroyer->__state) == TASK_UNINTERRUPTIBLE)
			return true;
		cond_resched();
	}
	return false;
}

static void irdma_qp_ref_lookup(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_ref_setup(test);
	struct irdma_qp *a, *b;

	a = irdma_qp_get(&fx->hw, QP_REF_ID);
	KUNIT_EXPECT_PTR_EQ(test, a, &fx->qp);
	b = irdma_qp_get(&fx->hw, QP_REF_ID);
	KUNIT_EXPECT_PTR_EQ(test, b, &fx->qp);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 3);
	/* numbers without a QP, reserved or not */
	KUNIT_EXPECT_NULL(test, irdma_qp_get(&fx->hw, QP_REF_ID + 1));
	KUNIT_EXPECT_NULL(test, irdma_qp_get(&fx->hw, 0));
	irdma_qp_put(a);
	irdma_qp_put(b);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
	KUNIT_EXPECT_FALSE(test, completion_done(&fx->qp.freed));
	/* with no other holder, destroy does not wait */
	irdma_qp_unpublish(&fx->hw, &fx->qp, QP_REF_ID);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 0);
	KUNIT_EXPECT_NULL(test, irdma_qp_get(&fx->hw, QP_REF_ID));
	xa_destroy(&fx->hw.qps);
}

static void irdma_qp_ref_destroy_waits(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_ref_setup(test);
	struct task_struct *t;
	struct irdma_qp *held;

	held = irdma_qp_get(&fx->hw, QP_REF_ID);
	KUNIT_ASSERT_PTR_EQ(test, held, &fx->qp);
	t = kthread_run(qp_ref_destroyer, fx, "irdma_qp_ref_test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	fx->destroyer = t;
	/* destroy waits for the holder... */
	KUNIT_EXPECT_TRUE(test, qp_ref_destroy_sleeps(fx));
	KUNIT_EXPECT_FALSE(test, completion_done(&fx->destroyed));
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 1);
	/* a dying QP is not found, and its number stays taken */
	KUNIT_EXPECT_NULL(test, irdma_qp_get(&fx->hw, QP_REF_ID));
	KUNIT_EXPECT_EQ(test, xa_insert(&fx->hw.qps, QP_REF_ID, &fx->qp,
					GFP_KERNEL), -EBUSY);
	/* ...and goes on when it lets go */
	irdma_qp_put(held);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&fx->destroyed,
							  10 * HZ), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 0);
	kthread_stop(t);
	put_task_struct(t);
	xa_destroy(&fx->hw.qps);
}

/* A lookup that raced the destroy and lost the QP's last reference */
static void irdma_qp_ref_lookup_dead(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_ref_setup(test);

	/* the table still names it, but nobody holds it any more */
	irdma_qp_put(&fx->qp);
	KUNIT_EXPECT_NULL(test, irdma_qp_get(&fx->hw, QP_REF_ID));
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->qp.refs), 0);
	xa_destroy(&fx->hw.qps);
}

/*
 * Only the CM moves an iWARP QP to RTS: a ULP's or user's modify into RTS
 * is refused, rdma_cm's own moves (INIT to RTR, RTS to RTS) are not.
 */
static void irdma_qp_iw_ulp_move_rts_cm_only(struct kunit *test)
{
	static const struct {
		enum ib_qp_state cur, next;
		int ret;
	} moves[] = {
		{ IB_QPS_INIT, IB_QPS_RTS, -EINVAL },
		{ IB_QPS_RTR, IB_QPS_RTS, -EINVAL },
		{ IB_QPS_SQD, IB_QPS_RTS, -EINVAL },
		{ IB_QPS_RESET, IB_QPS_RTS, -EINVAL },
		{ IB_QPS_INIT, IB_QPS_RTR, 0 },
		{ IB_QPS_RTR, IB_QPS_RTR, 0 },
		{ IB_QPS_RTS, IB_QPS_RTS, 0 },
		{ IB_QPS_RTS, IB_QPS_SQD, 0 },
		{ IB_QPS_INIT, IB_QPS_ERR, 0 },
		{ IB_QPS_RESET, IB_QPS_INIT, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(moves); i++)
		KUNIT_EXPECT_EQ_MSG(test, irdma_qp_iw_ulp_move(moves[i].cur,
							       moves[i].next),
				    moves[i].ret, "%d -> %d", moves[i].cur,
				    moves[i].next);
}

/* ---- who may name a QP to the CM ---- */

static struct qp_ref_fixture *qp_own_setup(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_ref_setup(test);

	fx->qp.hw_type = IRDMA_QPTYPE_IWARP;
	fx->qp.ib_state = IB_QPS_INIT;
	return fx;
}

static void qp_own_teardown(struct qp_ref_fixture *fx)
{
	irdma_qp_unpublish(&fx->hw, &fx->qp, QP_REF_ID);
	xa_destroy(&fx->hw.qps);
}

/* A user QP belongs to the process that created it (its restrack task) */
static void irdma_qp_cm_may_take_user_qp(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_own_setup(test);
	struct rdma_restrack_entry *res = &fx->qp.ibqp.res;

	res->user = true;
	res->task = current;
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), 0);
	/* another process: kthreadd, the parent of this test's thread */
	rcu_read_lock();
	res->task = rcu_dereference(current->real_parent);
	rcu_read_unlock();
	KUNIT_ASSERT_FALSE(test, same_thread_group(current, res->task));
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), -EACCES);
	/* refused before its state or connection is looked at */
	fx->qp.ib_state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), -EACCES);
	res->task = NULL;
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), -EACCES);
	res->user = false;
	qp_own_teardown(fx);
}

/* A kernel QP may be named from a kernel thread, such as this test's */
static void irdma_qp_cm_may_take_kernel_qp(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_own_setup(test);

	KUNIT_ASSERT_TRUE(test, current->flags & PF_KTHREAD);
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), 0);
	fx->qp.ib_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), 0);
	qp_own_teardown(fx);
}

/* Not iWARP, past RTR, or connected already: refused */
static void irdma_qp_cm_may_take_refusals(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_own_setup(test);
	struct irdma_cm_node *node = kunit_kzalloc(test, sizeof(*node),
						   GFP_KERNEL);
	static const enum ib_qp_state bad[] = {
		IB_QPS_RESET, IB_QPS_RTS, IB_QPS_SQD, IB_QPS_SQE, IB_QPS_ERR,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		fx->qp.ib_state = bad[i];
		KUNIT_EXPECT_EQ_MSG(test, irdma_qp_cm_may_take(&fx->qp),
				    -EINVAL, "state %d", bad[i]);
	}
	fx->qp.ib_state = IB_QPS_INIT;
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_EQ(test, irdma_qp_cm_link(&fx->qp, NULL, node), 0);
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), -EBUSY);
	KUNIT_ASSERT_EQ(test, irdma_qp_cm_link(&fx->qp, node, NULL), 0);
	fx->qp.hw_type = IRDMA_QPTYPE_ROCE_RC;
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_may_take(&fx->qp), -EINVAL);
	qp_own_teardown(fx);
}

/* A connection links a free QP only, and only it unlinks the QP */
static void irdma_qp_cm_link_owner_only(struct kunit *test)
{
	struct qp_ref_fixture *fx = qp_own_setup(test);
	struct irdma_cm_node *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct irdma_cm_node *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_link(&fx->qp, NULL, a), 0);
	KUNIT_EXPECT_PTR_EQ(test, fx->qp.cm_node, a);
	/* a second connection neither takes it nor clears it */
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_link(&fx->qp, NULL, b), -EBUSY);
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_link(&fx->qp, b, NULL), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, fx->qp.cm_node, a);
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_link(&fx->qp, a, NULL), 0);
	KUNIT_EXPECT_NULL(test, fx->qp.cm_node);
	KUNIT_EXPECT_EQ(test, irdma_qp_cm_link(&fx->qp, a, NULL), -EBUSY);
	qp_own_teardown(fx);
}

/* ---- a connection the CM hands over ---- */

static void qp_conn_cm_ctx(struct irdma_cm_tcp_ctx *t)
{
	static const u8 loc[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };

	*t = (struct irdma_cm_tcp_ctx){
		.ci = {
			.loc_addr = { 0x0a000001 },
			.rem_addr = { 0x0a000002 },
			.loc_port = 4000,
			.rem_port = 18515,
			.vlan_id = 100,
			.ipv4 = true,
			.user_pri = 5,
			.tos = 0x10,
		},
		.arp_idx = 3,
		.tcp = {
			.snd_nxt = 0x1000,
			.snd_una = 0x0ff0,
			.rcv_nxt = 0x2000,
			.snd_wnd = 0x40000,
			.rcv_wnd = 0x3fffc,
			.snd_wscale = 7,
			.rcv_wscale = 2,
			.mss = 1460,
		},
		.cwnd = 2920,
		.ttl = 64,
		.rexmit_thresh = 8,
		.ird = 16,
		.ord = 8,
		.crc = false,
	};
	ether_addr_copy(t->loc_mac, loc);
}

static void irdma_qp_conn_from_cm_fields(struct kunit *test)
{
	struct irdma_qpc_common c = { .ird = 16 };
	struct irdma_cm_tcp_ctx t;
	struct irdma_qp_conn conn;
	__le64 ctx[32] = {};
	u64 w7;

	qp_conn_cm_ctx(&t);
	KUNIT_ASSERT_EQ(test, irdma_qp_conn_from_cm(&t, &conn), 0);
	KUNIT_EXPECT_TRUE(test, conn.iw.tcp_valid);
	KUNIT_EXPECT_EQ(test, conn.iw.tcp.tcp_state, IRDMA_TCPS_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, conn.iw.tcp.snd_nxt, 0x1000);
	KUNIT_EXPECT_EQ(test, conn.iw.tcp.snd_max, 0x1000);
	KUNIT_EXPECT_EQ(test, conn.iw.tcp.snd_una, 0x0ff0);
	KUNIT_EXPECT_EQ(test, conn.iw.tcp.rcv_nxt, 0x2000);
	KUNIT_EXPECT_EQ(test, conn.iw.tcp.cwnd, 2920);
	KUNIT_EXPECT_TRUE(test, conn.iw.tcp.wscale);
	KUNIT_EXPECT_TRUE(test, conn.iw.rcv_no_mpa_crc);
	KUNIT_EXPECT_EQ(test, conn.iw.ddp_ver, 1);
	KUNIT_EXPECT_EQ(test, conn.iw.rdmap_ver, 1);
	KUNIT_EXPECT_EQ(test, conn.loc_addr[0], 0x0a000001);
	KUNIT_EXPECT_EQ(test, conn.rem_addr[0], 0x0a000002);
	KUNIT_EXPECT_EQ(test, conn.loc_port, 4000);
	KUNIT_EXPECT_EQ(test, conn.rem_port, 18515);
	KUNIT_EXPECT_TRUE(test, conn.insert_vlan);
	KUNIT_EXPECT_EQ(test, conn.vlan_tag, 100 | 5 << 13);
	KUNIT_EXPECT_EQ(test, conn.arp_idx, 3);
	KUNIT_EXPECT_EQ(test, conn.mss, 1460);
	KUNIT_EXPECT_EQ(test, conn.ird, 16);
	KUNIT_EXPECT_EQ(test, conn.ord, 8);
	KUNIT_EXPECT_EQ(test, conn.tos, 0x10);
	KUNIT_EXPECT_EQ(test, conn.mac, 0x020000000001ULL);
	KUNIT_EXPECT_TRUE(test, conn.ipv4);

	/* the TCP words of the host context: sequence and window, 10 and 11 */
	KUNIT_ASSERT_EQ(test, irdma_qpc_write_iwarp(ctx, &c, &conn.iw), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[10]), 0x40000ULL << 32 | 0x1000);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[11]), 0x3fffcULL << 32 | 0x2000);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[12]) >> 32, 0x0ff0);
	w7 = le64_to_cpu(ctx[7]);
	KUNIT_EXPECT_EQ(test, (w7 >> 28) & 0xf, IRDMA_TCPS_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, (w7 >> 32) & 0xf, 2);
	KUNIT_EXPECT_EQ(test, (w7 >> 40) & 0xf, 7);
	KUNIT_EXPECT_TRUE(test, w7 & BIT_ULL(20));

	/* no VLAN, and MPA CRC on */
	t.ci.vlan_id = IRDMA_CM_NO_VLAN;
	t.crc = true;
	KUNIT_ASSERT_EQ(test, irdma_qp_conn_from_cm(&t, &conn), 0);
	KUNIT_EXPECT_FALSE(test, conn.insert_vlan);
	KUNIT_EXPECT_EQ(test, conn.vlan_tag, 0);
	KUNIT_EXPECT_FALSE(test, conn.iw.rcv_no_mpa_crc);
}

/*
 * The limits irdma_qp_conn_from_cm() checks: each row is the fixture's
 * arp_idx 3, MSS 1460, send scale 7, ORD 8 and IRD 16 with one of them
 * changed.
 */
struct qp_conn_limit_case {
	const char *name;
	int arp_idx;
	u16 mss;
	u8 snd_wscale;
	u32 ord;
	u32 ird;
	int want;
};

static const struct qp_conn_limit_case qp_conn_limit_cases[] = {
	{ "no ARP entry", -ENOENT, 1460, 7, 8, 16, -EINVAL },
	{ "MSS 0", 3, 0, 7, 8, 16, -EINVAL },
	{ "send scale too large", 3, 1460, IRDMA_CM_MAX_WSCALE + 1, 8, 16,
	  -EINVAL },
	{ "ORD 256", 3, 1460, 7, 256, 16, -EINVAL },
	{ "IRD too large", 3, 1460, 7, 8, IRDMA_QP_MAX_IRD + 1, -EINVAL },
	{ "IRD at the maximum", 3, 1460, 7, 8, IRDMA_QP_MAX_IRD, 0 },
};

static void irdma_qp_conn_from_cm_refuses(struct kunit *test)
{
	const struct qp_conn_limit_case *c;
	struct irdma_cm_tcp_ctx t;
	struct irdma_qp_conn conn;

	for (c = qp_conn_limit_cases;
	     c < qp_conn_limit_cases + ARRAY_SIZE(qp_conn_limit_cases); c++) {
		qp_conn_cm_ctx(&t);
		t.arp_idx = c->arp_idx;
		t.tcp.mss = c->mss;
		t.tcp.snd_wscale = c->snd_wscale;
		t.ord = c->ord;
		t.ird = c->ird;
		KUNIT_EXPECT_EQ_MSG(test, irdma_qp_conn_from_cm(&t, &conn),
				    c->want, "%s", c->name);
	}
}

/* ---- a refused abortive close, on a fake CQP ---- */

/* WQEs a case records, at most */
#define QP_CMD_OPS	8

/**
 * struct qp_cmd_fx - a connected iWARP QP in RTS on a fake CQP
 * @d: the device
 * @ibdev: the device the core would name
 * @netdev: its netdev
 * @qp: the QP
 * @cq: its CQ, both queues'
 * @node: the CM node that owns its connection, without references: the
 *	causes the QP reports stay in @node->disc_causes and queue nothing
 * @started: an issuer was started
 * @ret: what the issuer's modify returned
 * @done: the issuer is through
 * @ops: the WQEs the device ran: 'R' MODIFY_QP with RESETCON, 'M' one
 *	without, 'F' FLUSH_WQES, '?' anything else
 */
struct qp_cmd_fx {
	struct cmd_t_dev d;
	struct ib_device ibdev;
	struct net_device netdev;
	struct irdma_qp qp;
	struct irdma_cq cq;
	struct irdma_cm_node node;
	bool started;
	int ret;
	struct completion done;
	char ops[QP_CMD_OPS + 1];
};

static const u8 qp_cmd_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 1 };

static int qp_cmd_init(struct kunit *test)
{
	struct qp_cmd_fx *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	struct irdma_qp *qp;
	void *pd;

	KUNIT_ASSERT_NOT_NULL(test, fx);
	test->priv = fx;
	init_completion(&fx->done);
	cmd_t_dev_init(test, &fx->d);
	mutex_init(&fx->d.hw.qos.lock);
	fx->netdev.dev_addr = qp_cmd_mac;
	fx->netdev.mtu = 1500;
	fx->d.fn.netdev = &fx->netdev;
	/* an irdma_pd: the core's PD first, then its number, 0 */
	pd = kunit_kzalloc(test, sizeof(struct ib_pd) + sizeof(u64),
			   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	fx->cq.uk.cq_id = 3;
	qp = &fx->qp;
	qp->meta.va = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp->meta.va);
	qp->hw = &fx->d.hw;
	qp->ibqp.device = &fx->ibdev;
	qp->ibqp.qp_num = 7;
	qp->ibqp.qp_type = IB_QPT_RC;
	qp->ibqp.pd = pd;
	qp->ibqp.send_cq = &fx->cq.ibcq;
	qp->ibqp.recv_cq = &fx->cq.ibcq;
	qp->hw_type = IRDMA_QPTYPE_IWARP;
	mutex_init(&qp->state_lock);
	spin_lock_init(&qp->cm_lock);
	qp->ib_state = IB_QPS_RTS;
	qp->hw_state = IRDMA_QPS_RTS;
	qp->conn_set = true;
	qp->conn.mss = 1460;
	qp->cm_node = &fx->node;
	return 0;
}

static void qp_cmd_exit(struct kunit *test)
{
	struct qp_cmd_fx *fx = test->priv;

	if (!fx)
		return;
	/* an issuer left waiting times out before the fixture goes */
	if (fx->started)
		wait_for_completion(&fx->done);
	cmd_t_dev_exit(&fx->d);
}

/* the ULP's abort, as iw_cm's disconnect of a connection asks it */
static int qp_cmd_abort(void *data)
{
	struct qp_cmd_fx *fx = data;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	fx->ret = irdma_modify_qp(&fx->qp.ibqp, &attr, IB_QP_STATE, NULL);
	complete(&fx->done);
	return 0;
}

static char qp_cmd_op(u64 hdr)
{
	switch (FIELD_GET(IRDMA_CQPWQE_OPCODE, hdr)) {
	case IRDMA_CQPOP_MODIFY_QP:
		return hdr & IRDMA_CQPQP_RESETCON ? 'R' : 'M';
	case IRDMA_CQPOP_FLUSH_WQES:
		return 'F';
	default:
		return '?';
	}
}

/*
 * Abort the QP from a thread and run the device until it is through,
 * failing the first @refusals MODIFY_QPs with RESETCON as the engine
 * fails a command (the fail_<op> knobs' major and minor).
 */
static void qp_cmd_abort_refused(struct kunit *test, int refusals)
{
	struct qp_cmd_fx *fx = test->priv;
	unsigned long end = jiffies + 10 * HZ;
	struct task_struct *t;
	int n = 0;
	char op;

	t = kthread_run(qp_cmd_abort, fx, "qp-cmd-kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	fx->started = true;
	while (!completion_done(&fx->done) && time_before(jiffies, end)) {
		if (!cmd_t_wait_pending(&fx->d, 1, 20))
			continue;
		op = qp_cmd_op(cmd_t_peek_hdr(&fx->d));
		if (n < QP_CMD_OPS)
			fx->ops[n++] = op;
		if (op == 'R' && refusals-- > 0)
			cmd_t_run_one_as(&fx->d, 0xffff, 0x8001);
		else
			cmd_t_run_one(&fx->d);
	}
	KUNIT_ASSERT_TRUE(test, completion_done(&fx->done));
}

/*
 * The engine refuses the abortive close's MODIFY_QP (RESETCON) once: it is
 * issued again, and the engine sends the RST, before the queues are
 * flushed. A flush at once would give the connection up without one, and
 * an idle peer would wait for ever. The move succeeds and the CM hears of
 * the abort (its CLOSE to iw_cm).
 */
static void irdma_qp_modify_reset_refused_tried_again(struct kunit *test)
{
	struct qp_cmd_fx *fx = test->priv;

	qp_cmd_abort_refused(test, 1);
	KUNIT_EXPECT_STREQ(test, fx->ops, "RRF");
	KUNIT_EXPECT_EQ(test, fx->ret, 0);
	KUNIT_EXPECT_EQ(test, fx->qp.ib_state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, fx->node.disc_causes,
			BIT(IRDMA_CM_DISC_LOCAL_ERR));
}

/*
 * An engine that refuses the reset every time: after IRDMA_QP_RESET_TRIES
 * the move goes on by the flush, so that the QP's WQEs complete and the
 * CM still ends the connection.
 */
static void irdma_qp_modify_reset_refused_flushes(struct kunit *test)
{
	struct qp_cmd_fx *fx = test->priv;
	char want[QP_CMD_OPS + 1] = {};

	memset(want, 'R', IRDMA_QP_RESET_TRIES);
	want[IRDMA_QP_RESET_TRIES] = 'F';
	qp_cmd_abort_refused(test, INT_MAX);
	KUNIT_EXPECT_STREQ(test, fx->ops, want);
	KUNIT_EXPECT_EQ(test, fx->ret, 0);
	KUNIT_EXPECT_EQ(test, fx->qp.ib_state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, fx->node.disc_causes,
			BIT(IRDMA_CM_DISC_LOCAL_ERR));
}

static struct kunit_case irdma_qp_cmd_cases[] = {
	KUNIT_CASE(irdma_qp_modify_reset_refused_tried_again),
	KUNIT_CASE(irdma_qp_modify_reset_refused_flushes),
	{}
};

static struct kunit_suite irdma_qp_cmd_suite = {
	.name = "irdma_qp_cmd",
	.init = qp_cmd_init,
	.exit = qp_cmd_exit,
	.test_cases = irdma_qp_cmd_cases,
};

static struct kunit_case irdma_qp_cases[] = {
	KUNIT_CASE(irdma_qp_conn_from_cm_fields),
	KUNIT_CASE(irdma_qp_conn_from_cm_refuses),
	KUNIT_CASE(irdma_qp_ref_lookup),
	KUNIT_CASE(irdma_qp_ref_destroy_waits),
	KUNIT_CASE(irdma_qp_ref_lookup_dead),
	KUNIT_CASE(irdma_qp_iw_ulp_move_rts_cm_only),
	KUNIT_CASE(irdma_qp_cm_may_take_user_qp),
	KUNIT_CASE(irdma_qp_cm_may_take_kernel_qp),
	KUNIT_CASE(irdma_qp_cm_may_take_refusals),
	KUNIT_CASE(irdma_qp_cm_link_owner_only),
	KUNIT_CASE_PARAM(irdma_qp_user_sizes_table, qp_user_gen_params),
	KUNIT_CASE_PARAM(irdma_qp_hw_state_table, qp_state_gen_params),
	KUNIT_CASE(irdma_qp_ulp_disc_cause_moves),
	KUNIT_CASE_PARAM(irdma_qp_close_moves_table, qp_close_gen_params),
	KUNIT_CASE(irdma_qp_iw_stays_idle_moves),
	KUNIT_CASE_PARAM(irdma_qp_ring_sizes_table, qp_size_gen_params),
	{}
};

static struct kunit_suite irdma_qp_suite = {
	.name = "irdma_qp",
	.test_cases = irdma_qp_cases,
};

kunit_test_suites(&irdma_qp_suite, &irdma_qp_cmd_suite);
