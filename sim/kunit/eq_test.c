// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_eq (and irdma_sim_eq_gen1 on an X722 function):
 * event queues, vectors and CQs: AEQ and CEQ events, interrupt causes, CQ
 * arming, overflow and resize. Included at the end of sim/eq.c.
 */
#include "harness.h"

static irqreturn_t isim_t_irq(int irq, void *data)
{
	struct isim_test *t = data;

	atomic_inc(&t->irq_hits);
	complete(&t->irq_done);
	return IRQ_HANDLED;
}

/* the DYN_CTL register of the function's vector @vec (irqs[@vec]) */
static u32 isim_t_dyn_ctl(struct isim_test *t, u32 vec)
{
	return isim_reg_dyn_ctl(t->f, ISIM_FIRST_VECTOR + vec);
}

/*
 * Take the vector @vec (irqs[@vec]) with its interrupt enabled;
 * isim_t_irq() counts and completes. Return: the Linux IRQ, for free_irq().
 */
static int isim_t_vector_on(struct kunit *test, u32 vec)
{
	struct isim_test *t = test->priv;
	int irq = t->f->irqs[vec];

	KUNIT_ASSERT_EQ(test, request_irq(irq, isim_t_irq, 0, "isim-test", t),
			0);
	isim_wr32(t->f, isim_t_dyn_ctl(t, vec), ISIM_DYN_CTL_INTENA);
	return irq;
}

/* an 8-entry event queue on t->eq, made by CQP op @op, its cause @ctl
 * enabled and steered to the function's vector @vec (irqs[@vec])
 */
static void isim_t_eq(struct kunit *test, u32 op, u32 ctl, u32 vec)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[2] = 8;
	w[4] = isim_t_bus(t, t->eq);
	isim_t_run(t, op, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_wr32(t->f, ctl, ISIM_EQCTL_CAUSE_ENA |
		  FIELD_PREP(ISIM_EQCTL_VECTOR, ISIM_FIRST_VECTOR + vec));
}

/* the AEQ on vector 0 */
static void isim_t_aeq(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_eq(test, ISIM_OP_CREATE_AEQ, t->f->rm->aeqctl, 0);
}

static int isim_t_post_ae(struct isim_test *t, u16 code, u32 qp)
{
	int err;

	mutex_lock(&t->f->eng_lock);
	err = isim_aeq_post(t->f, code, ISIM_AE_SRC_SQ, qp, 0x5555);
	mutex_unlock(&t->f->eng_lock);
	return err;
}

static void isim_aeq_event_raises_vector(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w1;
	int irq;

	isim_t_cqp_ok(test, 2);
	isim_t_aeq(test);
	irq = isim_t_vector_on(test, 0);
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 0x0102, 0x40001), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&t->irq_done, HZ),
			0UL);
	w1 = le64_to_cpu(t->eq[1]);
	KUNIT_EXPECT_TRUE(test, w1 & ISIM_AEQE_VALID);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_AEQE_CODE, w1), 0x102ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_AEQE_ID_LO, w1) |
			FIELD_GET(ISIM_AEQE_ID_HI, w1) << ISIM_AEQE_ID_LO_BITS,
			0x40001ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[0]), 0x5555ULL);
	/* the vector masked itself; a second event waits for re-enable */
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, isim_t_dyn_ctl(t, 0)), 0U);
	reinit_completion(&t->irq_done);
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 0x0203, 1), 0);
	KUNIT_EXPECT_TRUE(test, t->f->vec[0].pending);
	isim_wr32(t->f, isim_t_dyn_ctl(t, 0), ISIM_DYN_CTL_INTENA);
	isim_t_poll(t);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&t->irq_done, HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->irq_hits), 2);
	free_irq(irq, t);
}

/* engine vectors that are not the function's: below and past its range */
static const u32 isim_t_bad_vectors[] = {
	0, 1, ISIM_FIRST_VECTOR + ISIM_NUM_VECTORS, 100,
};

static void isim_t_bad_vector_desc(const u32 *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "vector %u", *v);
}

KUNIT_ARRAY_PARAM(isim_t_bad_vector, isim_t_bad_vectors,
		  isim_t_bad_vector_desc);

/*
 * A driver that writes its own vector index into AEQCTL instead of the
 * engine's vector number gets no interrupt on any vector: the cause is
 * counted, not delivered to whichever vector the number happens to name.
 */
static void isim_irq_aeqctl_outside_vectors_counted(struct kunit *test)
{
	const u32 *bad = test->param_value;
	struct isim_test *t = test->priv;
	int irq;

	isim_t_cqp_ok(test, 2);
	isim_t_aeq(test);
	irq = isim_t_vector_on(test, 0);
	isim_wr32(t->f, t->f->rm->aeqctl, ISIM_EQCTL_CAUSE_ENA |
		  FIELD_PREP(ISIM_EQCTL_VECTOR, *bad));
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 0x0102, 1), 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&t->irq_done,
							  HZ / 10), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->irq_hits), 0);
	KUNIT_EXPECT_FALSE(test, t->f->vec[0].pending);
	KUNIT_EXPECT_EQ(test, t->f->bad_vector, 1ULL);
	/* the right number reaches the vector */
	isim_wr32(t->f, t->f->rm->aeqctl, ISIM_EQCTL_CAUSE_ENA |
		  FIELD_PREP(ISIM_EQCTL_VECTOR, ISIM_FIRST_VECTOR));
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 0x0102, 1), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&t->irq_done, HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, t->f->bad_vector, 1ULL);
	free_irq(irq, t);
}

/*
 * DYN_CTL writes for vectors that are not the function's are taken back
 * and counted; the function's own keep what the driver wrote. On gen1,
 * vector 0 has no PFINT_DYN_CTLN: it is i40e's.
 */
static void isim_irq_dyn_ctl_outside_vectors_counted(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u32 own = isim_t_dyn_ctl(t, 0), reg, n = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(isim_t_bad_vectors); i++) {
		reg = isim_reg_dyn_ctl(t->f, isim_t_bad_vectors[i]);
		if (!reg || reg >= t->f->rm->bar_len)
			continue;
		isim_wr32(t->f, reg, ISIM_DYN_CTL_INTENA |
			  ISIM_DYN_CTL_CLEARPBA);
		/* 100 lies past the range the engine watches */
		if (isim_t_bad_vectors[i] < ISIM_FIRST_VECTOR +
		    ISIM_NUM_VECTORS + ISIM_STRAY_VECTORS)
			n++;
	}
	KUNIT_EXPECT_EQ(test, n, t->f->gen == ISIM_GEN1 ? 2U : 3U);
	isim_wr32(t->f, own, ISIM_DYN_CTL_INTENA);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->bad_vector, (u64)n);
	for (i = 0; i < ARRAY_SIZE(isim_t_bad_vectors) - 1; i++) {
		reg = isim_reg_dyn_ctl(t->f, isim_t_bad_vectors[i]);
		if (reg)
			KUNIT_EXPECT_EQ(test, isim_rd32(t->f, reg), 0U);
	}
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, own), ISIM_DYN_CTL_INTENA);
	/* a second pass finds nothing new */
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->bad_vector, (u64)n);
}

static void isim_aeq_full_loses_event(struct kunit *test)
{
	struct isim_test *t = test->priv;
	int i;

	isim_t_cqp_ok(test, 2);
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 1, 1), -ENOENT);
	isim_t_aeq(test);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 1, i), 0);
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 1, 8), -ENOSPC);
	/* the driver hands three back through AEQALLOC */
	isim_wr32(t->f, t->f->rm->aeqalloc, 3);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_post_ae(t, 1, 9), 0);
	/* second pass: element 0 now carries valid bit 0 */
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(t->eq[1]) & ISIM_AEQE_VALID);
}

/* CREATE_CQ's CQ id and CEQ id: 18:0 and 31:22 on gen2, 15:0 and 30:24 on gen1 */
static void isim_cq_create_ids_fit_generation(struct kunit *test)
{
	struct isim_test *t = test->priv;
	bool g1 = t->f->gen == ISIM_GEN1;
	struct isim_cq *cq;
	u64 w[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_CQ, 64);
	w[0] = 8;
	w[1] = 0x4321;
	w[4] = isim_t_bus(t, t->ccq);
	w[5] = isim_t_bus(t, t->shadow);
	w[ISIM_WQE_HDR] = ISIM_CQ_HDR_CEQ_VALID |
			  (g1 ? FIELD_PREP(ISIM_CQ_HDR_G1_ID, 5) |
				FIELD_PREP(ISIM_CQ_HDR_G1_CEQ, 3) :
				FIELD_PREP(ISIM_CQ_HDR_ID, 5) |
				FIELD_PREP(ISIM_CQ_HDR_CEQ, 3));
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	cq = xa_load(&t->f->cqs, 5);
	KUNIT_ASSERT_NOT_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, cq->ceq, 3U);
	KUNIT_EXPECT_TRUE(test, cq->ceq_valid);
	KUNIT_EXPECT_EQ(test, cq->ctx, 0x4321ULL);
	/* DESTROY_CQ names it the same way */
	w[ISIM_WQE_HDR] = g1 ? FIELD_PREP(ISIM_CQ_HDR_G1_ID, 5) :
			       FIELD_PREP(ISIM_CQ_HDR_ID, 5);
	isim_t_run(t, ISIM_OP_DESTROY_CQ, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_NULL(test, xa_load(&t->f->cqs, 5));
}

/* CEQ 0 on vector 1 and the CCQ reporting to it */
static void isim_t_ceq0(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_eq(test, ISIM_OP_CREATE_CEQ, isim_reg_ceqctl(t->f, 0), 1);
	isim_t_ccq(test, 8);
}

/* the driver consumed every CQE the CCQ holds */
static void isim_t_ccq_consumed(struct isim_test *t)
{
	struct isim_cq *cq = xa_load(&t->f->cqs, 0);

	t->shadow[0] = cpu_to_le64(cq ? cq->ring.head : 0);
}

static void isim_cq_armed_completion_writes_ceqe(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 e;
	int irq;

	isim_t_cqp_ok(test, 2);
	isim_t_ceq0(test);
	irq = isim_t_vector_on(test, 1);
	/* not armed: a completion writes no CEQE */
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[0]), 0ULL);

	/* armed by the CQARM doorbell, once the driver consumed the CQEs */
	isim_t_ccq_consumed(t);
	isim_wr32(t->f, t->f->rm->cqarm, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[0]), 0ULL);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	e = le64_to_cpu(t->eq[0]);
	KUNIT_EXPECT_TRUE(test, e & ISIM_CEQE_VALID);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CEQE_CTX, e), 0x1234ULL);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&t->irq_done, HZ),
			0UL);

	/* one event per arm */
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[1]), 0ULL);

	/*
	 * armed through the shadow area's sequence number: its doorbell
	 * was overwritten by another CQ's before the engine looked
	 */
	isim_t_ccq_consumed(t);
	t->shadow[ISIM_CQSA_ARM_WORD] =
		cpu_to_le64(FIELD_PREP(ISIM_CQSA_ARM_SEQ, 1) |
			    ISIM_CQSA_ARM_NEXT);
	isim_wr32(t->f, t->f->rm->cqarm, 7);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[1]), 0ULL);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_TRUE(test, le64_to_cpu(t->eq[1]) & ISIM_CEQE_VALID);
	/* vector 1 masked itself after the first event */
	KUNIT_EXPECT_TRUE(test, t->f->vec[1].pending);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->irq_hits), 1);
	free_irq(irq, t);
}

/*
 * The engine notices an arm only at its next pass: a CQE written after
 * the driver armed but before the engine noticed must still be reported.
 * An arm that finds an unconsumed CQE raises the event at once; once the
 * driver consumed everything, an arm waits for the next CQE.
 */
static void isim_cq_arm_reports_unconsumed_cqe(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_cq *cq;
	int irq;

	isim_t_cqp_ok(test, 2);
	isim_t_ceq0(test);
	irq = isim_t_vector_on(test, 1);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[0]), 0ULL);
	/* the NOP's CQE is still there when the arm is seen */
	isim_wr32(t->f, t->f->rm->cqarm, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, le64_to_cpu(t->eq[0]) & ISIM_CEQE_VALID);
	cq = xa_load(&t->f->cqs, 0);
	KUNIT_ASSERT_NOT_NULL(test, cq);
	KUNIT_EXPECT_FALSE(test, cq->armed);
	KUNIT_EXPECT_EQ(test, cq->early_events, 1ULL);
	KUNIT_EXPECT_EQ(test, cq->events, 1ULL);
	/* consumed: the next arm waits */
	isim_t_ccq_consumed(t);
	isim_wr32(t->f, t->f->rm->cqarm, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->eq[1]), 0ULL);
	KUNIT_EXPECT_TRUE(test, cq->armed);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_TRUE(test, le64_to_cpu(t->eq[1]) & ISIM_CEQE_VALID);
	KUNIT_EXPECT_EQ(test, cq->early_events, 1ULL);
	KUNIT_EXPECT_EQ(test, cq->events, 2ULL);
	free_irq(irq, t);
}

static void isim_cq_overflow_raises_ae(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};
	int i;

	isim_t_cqp_ok(test, 2);
	isim_t_aeq(test);
	/* a CCQ of 4 with overflow checks; the driver consumes nothing */
	w[0] = 4;
	w[1] = 0x1234;
	w[4] = isim_t_bus(t, t->ccq);
	w[5] = isim_t_bus(t, t->shadow);
	w[ISIM_WQE_HDR] = ISIM_CQ_HDR_CHK_OVERFLOW;
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
	for (i = 0; i < 4; i++)
		isim_t_run(t, ISIM_OP_NOP, NULL);
	/* completions 0..2 fit, the fourth would overwrite unconsumed CQE 0 */
	KUNIT_EXPECT_EQ(test, t->f->aeq.posted, 2ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_AEQE_CODE, le64_to_cpu(t->eq[1])),
			(u64)ISIM_AE_CQ_OPERATION_ERROR);
	/* the driver consumes two: completions flow again */
	t->shadow[0] = cpu_to_le64(2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, t->f->aeq.posted, 2ULL);
	KUNIT_EXPECT_EQ(test, ((struct isim_cq *)xa_load(&t->f->cqs, 0))->cqes,
			4ULL);
}

/* a CQ 1 of @size 32-byte CQEs at @ring, shadow area @sh, overflow checks */
static void isim_t_cq1_wqe(struct isim_test *t, u64 *w, u32 size,
			   __le64 *ring, __le64 *sh, u64 hdr)
{
	memset(w, 0, 8 * sizeof(*w));
	w[0] = size;
	w[1] = 0x2468;
	w[4] = isim_t_bus(t, ring);
	w[5] = isim_t_bus(t, sh);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_CQ_HDR_ID, 1) |
			  ISIM_CQ_HDR_CHK_OVERFLOW | hdr;
}

static void isim_t_cq1_post(struct isim_test *t, unsigned int n)
{
	u64 cqe[4] = {};

	mutex_lock(&t->f->eng_lock);
	while (n--)
		isim_cq_post(t->f, 1, cqe);
	mutex_unlock(&t->f->eng_lock);
}

/*
 * MODIFY_CQ with RESIZE: the CQEs from then on go to the new ring from
 * slot 0 with valid bit 1. Until the driver counts the resize as done in
 * word 4 of the shadow area, word 0 is the old ring's consumer index and
 * nothing of the new ring counts as consumed. A ring too small for the
 * CQEs not consumed yet is refused, as are a MODIFY_CQ that does not
 * resize and one naming another CQ context.
 */
static void isim_cq_resize_moves_to_new_ring(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *old = t->page, *new = t->page + 256, *sh = t->shadow + 16;
	struct isim_cq *cq;
	u64 w[8];

	isim_t_cqp_ok(test, 2);
	isim_t_aeq(test);
	isim_t_commit(test, ISIM_HMC_CQ, 4);
	isim_t_cq1_wqe(t, w, 8, old, sh, 0);
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	cq = xa_load(&t->f->cqs, 1);
	KUNIT_ASSERT_NOT_NULL(test, cq);
	isim_t_cq1_post(t, 5);
	KUNIT_EXPECT_EQ(test, cq->ring.head, 5U);

	/* 5 CQEs not consumed do not fit a ring of 4 */
	isim_t_cq1_wqe(t, w, 4, new, sh, ISIM_CQ_HDR_RESIZE);
	isim_t_run(t, ISIM_OP_MODIFY_CQ, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_SIZE);
	isim_t_cq1_wqe(t, w, 16, new, sh, 0);
	isim_t_run(t, ISIM_OP_MODIFY_CQ, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_UNSUPPORTED);
	isim_t_cq1_wqe(t, w, 16, new, sh, ISIM_CQ_HDR_RESIZE);
	w[1] = 0x1357;
	isim_t_run(t, ISIM_OP_MODIFY_CQ, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, cq->resizes, 0U);

	isim_t_cq1_wqe(t, w, 16, new, sh, ISIM_CQ_HDR_RESIZE);
	isim_t_run(t, ISIM_OP_MODIFY_CQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, cq->resizes, 1U);
	KUNIT_EXPECT_EQ(test, cq->ring.size, 16U);
	KUNIT_EXPECT_EQ(test, cq->ring.head, 0U);
	isim_t_cq1_post(t, 1);
	KUNIT_EXPECT_TRUE(test, le64_to_cpu(new[3]) & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(old[5 * 4 + 3]), 0ULL);

	/*
	 * the driver drains the old ring (word 0 says 5) but has not counted
	 * the resize yet: 15 CQEs fill the new ring, the 16th overflows
	 */
	sh[0] = cpu_to_le64(5);
	isim_t_cq1_post(t, 14);
	KUNIT_EXPECT_EQ(test, cq->overflows, 0ULL);
	isim_t_cq1_post(t, 1);
	KUNIT_EXPECT_EQ(test, cq->overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, t->f->aeq.posted, 1ULL);

	/* counted, and the new ring consumed: CQEs flow again */
	sh[ISIM_CQSA_ARM_WORD] = cpu_to_le64(FIELD_PREP(ISIM_CQSA_RESIZED, 1));
	sh[0] = cpu_to_le64(15);
	isim_t_cq1_post(t, 1);
	KUNIT_EXPECT_EQ(test, cq->overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, cq->cqes, 5ULL + 15 + 1);
	KUNIT_EXPECT_TRUE(test,
			  le64_to_cpu(new[15 * 4 + 3]) & ISIM_CQE_W3_VALID);
}

static struct kunit_case isim_eq_test_cases[] = {
	KUNIT_CASE(isim_aeq_event_raises_vector),
	KUNIT_CASE(isim_aeq_full_loses_event),
	KUNIT_CASE_PARAM(isim_irq_aeqctl_outside_vectors_counted,
			 isim_t_bad_vector_gen_params),
	KUNIT_CASE(isim_irq_dyn_ctl_outside_vectors_counted),
	KUNIT_CASE(isim_cq_create_ids_fit_generation),
	KUNIT_CASE(isim_cq_armed_completion_writes_ceqe),
	KUNIT_CASE(isim_cq_arm_reports_unconsumed_cqe),
	KUNIT_CASE(isim_cq_overflow_raises_ae),
	KUNIT_CASE(isim_cq_resize_moves_to_new_ring),
	{}
};

static struct kunit_suite isim_eq_test_suite = {
	.name = "irdma_sim_eq",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_eq_test_cases,
};

/* the same on a function modelling an X722 (gen1) */
static struct kunit_case isim_eq_gen1_test_cases[] = {
	KUNIT_CASE(isim_cq_create_ids_fit_generation),
	KUNIT_CASE(isim_aeq_event_raises_vector),
	KUNIT_CASE_PARAM(isim_irq_aeqctl_outside_vectors_counted,
			 isim_t_bad_vector_gen_params),
	KUNIT_CASE(isim_irq_dyn_ctl_outside_vectors_counted),
	{}
};

static struct kunit_suite isim_eq_gen1_test_suite = {
	.name = "irdma_sim_eq_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_eq_gen1_test_cases,
};

kunit_test_suites(&isim_eq_test_suite, &isim_eq_gen1_test_suite);
