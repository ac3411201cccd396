// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_engine: when the engine runs: kicked doorbells and
 * arms, the next pass, flushing RQs, user QPs. Included at the end of
 * sim/engine.c.
 */
#include "harness.h"

/*
 * A driver that kicks (isim_aux_ops.kick) names the QP of each WQEALLOC
 * write: the pass looks at that QP alone, where the same doorbell found in
 * the register alone makes it look at every QP. The register is consumed
 * all the same. More doorbells than the engine keeps by id between two
 * passes make it look at every QP again.
 */
static void isim_engine_kicked_doorbell_names_its_qp(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	struct isim_func *f = t->f;
	struct isim_qp *a, *b;
	u64 scans, kicks;
	u32 i;

	isim_t_hand_cq(test, cq);
	a = isim_t_hand_qp(test, 2, 2, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 3, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	isim_t_wqe(sq, 0, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(sq + 256, 0, ISIM_WQOP_NOP, 0, 0, 0, 0);
	/* the engine is not started: the kicks queue no pass */
	isim_engine_set_kicked(f, true);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	/* B's WQE is there, but only A is rung */
	isim_wr32(f, f->rm->wqealloc, 2);
	isim_engine_kick_reg(f, f->rm->wqealloc, 2);
	scans = f->scans;
	kicks = f->kick_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	KUNIT_EXPECT_EQ(test, b->executed, 0ULL);
	KUNIT_EXPECT_EQ(test, f->scans, scans);
	KUNIT_EXPECT_EQ(test, f->kick_passes, kicks + 1);
	KUNIT_EXPECT_EQ(test, isim_rd32(f, f->rm->wqealloc), ISIM_DB_IDLE);
	/* too many doorbells to keep: every QP is looked at */
	for (i = 0; i <= ISIM_DBQ_LEN; i++)
		isim_engine_kick_reg(f, f->rm->wqealloc, 2);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, b->executed, 1ULL);
	KUNIT_EXPECT_EQ(test, f->scans, scans + 1);
	mutex_unlock(&f->eng_lock);
	isim_engine_set_kicked(f, false);
}

/*
 * A kicked CQARM names its CQ: the CQ is armed without reading every CQ's
 * arm word, and once for any number of kicks of one arm request.
 */
static void isim_engine_kicked_arm_names_its_cq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_cq *cq;
	u64 arm_scans;

	isim_t_hand_cq(test, t->ccq);
	t->shadow[ISIM_CQSA_ARM_WORD] =
		cpu_to_le64(FIELD_PREP(ISIM_CQSA_ARM_SEQ, 1) |
			    ISIM_CQSA_ARM_NEXT);
	isim_engine_set_kicked(f, true);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	cq = xa_load(&f->cqs, ISIM_T_CQ);
	KUNIT_ASSERT_NOT_NULL(test, cq);
	arm_scans = f->arm_scans;
	isim_wr32(f, f->rm->cqarm, ISIM_T_CQ);
	isim_engine_kick_reg(f, f->rm->cqarm, ISIM_T_CQ);
	isim_engine_kick_reg(f, f->rm->cqarm, ISIM_T_CQ);
	isim_engine_poll(f);
	KUNIT_EXPECT_TRUE(test, cq->armed);
	KUNIT_EXPECT_EQ(test, cq->arm_seq, (u8)1);
	KUNIT_EXPECT_EQ(test, f->arm_scans, arm_scans);
	KUNIT_EXPECT_EQ(test, isim_rd32(f, f->rm->cqarm), ISIM_DB_IDLE);
	/* the same request rung again arms nothing anew */
	cq->armed = false;
	isim_engine_kick_reg(f, f->rm->cqarm, ISIM_T_CQ);
	isim_engine_poll(f);
	KUNIT_EXPECT_FALSE(test, cq->armed);
	mutex_unlock(&f->eng_lock);
	isim_engine_set_kicked(f, false);
}

/*
 * The schedule after a pass: a driver that kicks gets no pass at all
 * while nothing is due, one on the next jiffy for a kicked QP, one at a
 * deadline for a timer; a driver that does not kick is polled; a pass
 * that ran out of budget is followed at once.
 */
static void isim_engine_next_pass_when_due(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *a;
	long d;

	a = isim_t_self_qp(test);
	mutex_lock(&f->eng_lock);
	WRITE_ONCE(f->wake.kicked, true);
	f->wake.due_set = false;
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), -1L);
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, true), 0L);
	KUNIT_EXPECT_EQ(test, f->wake.next, ISIM_WAKE_MORE);
	isim_engine_due(f, jiffies + 20);
	isim_engine_due(f, jiffies + 30);
	/* the earlier deadline; a jiffy may tick between the two reads */
	d = isim_engine_next(f, false);
	KUNIT_EXPECT_GE(test, d, 19L);
	KUNIT_EXPECT_LE(test, d, 20L);
	KUNIT_EXPECT_EQ(test, f->wake.next, ISIM_WAKE_TIMER);
	/* a deadline that passed without acting is looked at every jiffy */
	f->wake.due = jiffies - 5;
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), 1L);
	f->wake.due_set = false;
	isim_exec_kick(f, a);
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), 1L);
	list_del_init(&a->kick);
	/* a stall knob is watched for its release */
	WRITE_ONCE(f->faults.stall, true);
	KUNIT_EXPECT_GT(test, isim_engine_next(f, false), 0L);
	KUNIT_EXPECT_EQ(test, f->wake.next, ISIM_WAKE_POLL);
	WRITE_ONCE(f->faults.stall, false);
	/* a driver that does not kick is polled each jiffy, CQP or not */
	WRITE_ONCE(f->wake.kicked, false);
	f->quiet = 0;
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), 1L);
	KUNIT_EXPECT_EQ(test, f->wake.next, ISIM_WAKE_POLL);
	f->quiet = ISIM_QUIET_PASSES;
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false),
			(long)msecs_to_jiffies(ISIM_QUIET_MS));
	mutex_unlock(&f->eng_lock);
}

/*
 * A QP kicked during a pass (a segment opened its window) has the next
 * pass at once; one whose SQ waits out an RNR NAK does not.
 */
static void isim_engine_kicked_qp_runs_at_once(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *a;

	a = isim_t_self_qp(test);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_FALSE(test, isim_engine_kicked_ready(f));
	isim_exec_kick(f, a);
	KUNIT_EXPECT_TRUE(test, isim_engine_kicked_ready(f));
	list_del_init(&a->kick);
	mutex_unlock(&f->eng_lock);
	/* a SEND to itself with no RQ WQE, retried for ever: it waits */
	a->rnr_retry = ISIM_QPC_RNR_FOREVER;
	isim_t_wqe(t->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, t->buf), 8, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, a->executed, 0ULL);
	KUNIT_EXPECT_TRUE(test, a->sq_waits);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_FALSE(test, list_empty(&a->kick));
	KUNIT_EXPECT_FALSE(test, isim_engine_kicked_ready(f));
	WRITE_ONCE(f->wake.kicked, true);
	f->wake.due_set = false;
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), 1L);
	WRITE_ONCE(f->wake.kicked, false);
	mutex_unlock(&f->eng_lock);
}

/*
 * Nothing rings for an RQ: a QP whose RQ is flushing stays kicked after a
 * pass, for the pass a tick later (a drain's receive WQE is found then),
 * and does not make the next pass come at once.
 */
static void isim_engine_flushing_rq_looked_at_each_tick(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *a;

	a = isim_t_self_qp(test);
	mutex_lock(&f->eng_lock);
	a->rq.flushing = true;
	isim_exec_kick(f, a);
	mutex_unlock(&f->eng_lock);
	isim_t_poll(t);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_FALSE(test, list_empty(&a->kick));
	KUNIT_EXPECT_TRUE(test, a->sq_waits);
	KUNIT_EXPECT_FALSE(test, isim_engine_kicked_ready(f));
	a->rq.flushing = false;
	list_del_init(&a->kick);
	mutex_unlock(&f->eng_lock);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, list_empty(&a->kick));
}

/*
 * The user doorbell watch runs while a QP is not privileged (user space
 * may ring for it); the count follows the QPs' contexts.
 */
static void isim_engine_counts_user_qps(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *a;

	a = isim_t_self_qp(test);
	mutex_lock(&f->eng_lock);
	isim_engine_count_user(f);
	KUNIT_EXPECT_EQ(test, READ_ONCE(f->wake.user_qps), 0U);
	a->privileged = false;
	isim_engine_count_user(f);
	KUNIT_EXPECT_EQ(test, READ_ONCE(f->wake.user_qps), 1U);
	mutex_unlock(&f->eng_lock);
}

static struct kunit_case isim_engine_test_cases[] = {
	KUNIT_CASE(isim_engine_kicked_doorbell_names_its_qp),
	KUNIT_CASE(isim_engine_kicked_arm_names_its_cq),
	KUNIT_CASE(isim_engine_next_pass_when_due),
	KUNIT_CASE(isim_engine_kicked_qp_runs_at_once),
	KUNIT_CASE(isim_engine_flushing_rq_looked_at_each_tick),
	KUNIT_CASE(isim_engine_counts_user_qps),
	{}
};

static struct kunit_suite isim_engine_test_suite = {
	.name = "irdma_sim_engine",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_engine_test_cases,
};

kunit_test_suites(&isim_engine_test_suite);
