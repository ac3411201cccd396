// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the simulated engine, driven the way a driver drives it:
 * through the register space and host memory only. The test builds a bare
 * function (no bus, no netdev, no workqueue) and runs the engine's poll
 * pass by hand, so it depends on no module state.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/crc32.h>
#include <linux/dma-direct.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <asm/unaligned.h>
#include <net/checksum.h>

/**
 * struct isim_t_ilq - host memory of the ILQ a test creates
 * @cq: ILQ CQ ring, 32-byte CQEs
 * @rings: SQ (8 quanta) at quantum 0, RQ (8 quanta) at quantum 8, the QP
 *	host context at byte 1024
 * @bufs: transmit buffer at byte 0, receive buffers 512 bytes each from
 *	byte 1024
 * @frames: frames the engine transmitted
 */
struct isim_t_ilq {
	__le64 *cq, *rings;
	u8 *bufs;
	struct sk_buff_head frames;
};

/**
 * struct isim_test - fixture: one bare function and the host memory a
 * driver would have given it
 * @f: the function
 * @ctx: CQP host context
 * @sq: CQP ring
 * @ccq: CCQ ring
 * @shadow: CCQ shadow area
 * @buf: a command buffer (FPM values, SD entries)
 * @eq: an event queue ring
 * @page: a page to point PDs and PBLEs at
 * @head: driver's CQP producer index
 * @pol: driver's CQP valid bit
 * @irq_hits: interrupts received on vector 0
 * @irq_done: completed by the vector 0 handler
 * @ilq: the ILQ's memory, in the tests that create one
 */
struct isim_test {
	struct isim_func *f;
	__le64 *ctx, *sq, *ccq, *shadow, *buf, *eq, *page;
	u32 head;
	u8 pol;
	atomic_t irq_hits;
	struct completion irq_done;
	struct isim_t_ilq *ilq;
};

static u64 isim_t_bus(struct isim_test *t, void *va)
{
	return phys_to_dma(&t->f->dev, virt_to_phys(va));
}

static void *isim_t_page(struct kunit *test)
{
	/* kmalloc of a power of two is aligned to it */
	return kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
}

#define ISIM_T_RTO_MS		(10 * 60 * MSEC_PER_SEC)

/* the scheduler leaf every QP of the tests names, and its QPC word 22 */
#define ISIM_T_LEAF		2
#define ISIM_T_QS		FIELD_PREP(ISIM_QPC_W22_QS_HANDLE, ISIM_T_LEAF)

/* register QS handle @h for @tc with the parent, as qset_add does */
static int isim_t_qset_add(struct isim_func *f, u32 h, u8 tc)
{
	int err;

	mutex_lock(&f->eng_lock);
	err = isim_sched_qset_add(f, h, tc);
	mutex_unlock(&f->eng_lock);
	return err;
}

/*
 * One traffic class, as the parent reports without DCB, and the tree a
 * driver builds for it: root 0, VSI node 1, leaf ISIM_T_LEAF on TC 0,
 * enabled and registered. The passes it would ask for are not wanted: a
 * case starts with an engine that has nothing to look at.
 */
static void isim_t_sched(struct kunit *test, struct isim_func *f)
{
	spin_lock_init(&f->qos_lock);
	f->qos.num_tc = 1;
	f->qos.rel_bw[0] = 100;
	/* gen1 has no scheduler: every QP is served */
	if (f->gen == ISIM_GEN1)
		return;
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, 0, 0, 0, false, true), 0);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, 1, 0, 0, false, true), 0);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, ISIM_T_LEAF, 1, 0, true, true), 0);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_add(f, ISIM_T_LEAF, 0), 0);
	f->rescan = false;
	mutex_unlock(&f->eng_lock);
}

static int isim_test_init_gen(struct kunit *test, u8 gen)
{
	struct isim_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct isim_func *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->dev.dma_mask = &f->dev.coherent_dma_mask;
	f->dev.coherent_dma_mask = DMA_BIT_MASK(64);
	/* the engine's warnings name the function */
	f->dev.init_name = "isim-kunit";
	f->protocol = ISIM_AUX_IWARP;
	f->gen = gen;
	t->f = f;
	t->pol = 1;
	init_completion(&t->irq_done);
	t->ctx = isim_t_page(test);
	t->sq = isim_t_page(test);
	t->ccq = isim_t_page(test);
	t->shadow = isim_t_page(test);
	t->buf = isim_t_page(test);
	t->eq = isim_t_page(test);
	t->page = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, t->page);
	KUNIT_ASSERT_EQ(test, isim_regs_init(f), 0);
	if (isim_irq_init(f)) {
		isim_regs_exit(f);
		KUNIT_FAIL(test, "no interrupt domain");
		return -ENOMEM;
	}
	if (isim_engine_init(f)) {
		isim_irq_exit(f);
		isim_regs_exit(f);
		KUNIT_FAIL(test, "no engine state");
		return -ENOMEM;
	}
	/*
	 * a test can take longer than a real timeout under TCG; the tests of
	 * retransmission make the timer expire themselves
	 */
	f->toe.rto_ms = ISIM_T_RTO_MS;
	isim_t_sched(test, f);
	test->priv = t;
	return 0;
}

static int isim_test_init(struct kunit *test)
{
	return isim_test_init_gen(test, ISIM_GEN2);
}

/* the same bare function, modelling an X722 */
static int isim_test_init_gen1(struct kunit *test)
{
	return isim_test_init_gen(test, ISIM_GEN1);
}

static void isim_test_exit(struct kunit *test)
{
	struct isim_test *t = test->priv;

	if (t->ilq)
		skb_queue_purge(&t->ilq->frames);
	isim_engine_stop(t->f);
	isim_engine_exit(t->f);
	isim_irq_exit(t->f);
	isim_regs_exit(t->f);
}

/*
 * One engine pass after a WQEALLOC doorbell: the cases write WQEs straight
 * into the rings and expect a pass to take them, as it does for a driver
 * that posts and rings (isim_exec_sq_waits_for_doorbell() without it).
 */
static void isim_t_poll(struct isim_test *t)
{
	mutex_lock(&t->f->eng_lock);
	isim_wr32(t->f, t->f->rm->wqealloc, 0);
	isim_engine_poll(t->f);
	mutex_unlock(&t->f->eng_lock);
}

/* write a CQP host context and trigger CQP creation */
static void isim_t_cqp_open(struct isim_test *t, u32 enc, u64 sq_off,
			    u32 major, u32 proto)
{
	u64 ctx_pa = isim_t_bus(t, t->ctx);

	t->ctx[0] = cpu_to_le64(FIELD_PREP(ISIM_CQPCTX_W0_SQSIZE, enc) |
				FIELD_PREP(ISIM_CQPCTX_W0_PROTOCOL, proto));
	t->ctx[1] = cpu_to_le64(isim_t_bus(t, t->sq) + sq_off);
	t->ctx[3] = cpu_to_le64(0xc0ffee);
	t->ctx[4] = cpu_to_le64(FIELD_PREP(ISIM_CQPCTX_W4_HW_MAJOR, major));
	isim_wr32(t->f, t->f->rm->ccqphigh, upper_32_bits(ctx_pa));
	isim_wr32(t->f, t->f->rm->ccqplow, lower_32_bits(ctx_pa));
	isim_t_poll(t);
}

static void isim_t_cqp_ok(struct kunit *test, u32 enc)
{
	struct isim_test *t = test->priv;

	u32 proto = t->f->protocol == ISIM_AUX_ROCEV2 ?
		    ISIM_CQPCTX_PROTO_ROCE : ISIM_CQPCTX_PROTO_IWARP;

	/* a gen1 context has no protocol field: 0 there, as i40iw writes */
	if (t->f->gen == ISIM_GEN1)
		isim_t_cqp_open(t, enc, 0, ISIM_CQP_HW_MAJOR_GEN1, 0);
	else
		isim_t_cqp_open(t, enc, 0, ISIM_CQP_HW_MAJOR_GEN2, proto);
	KUNIT_ASSERT_EQ(test, isim_rd32(t->f, t->f->rm->ccqpstatus),
			(u32)ISIM_CCQPSTATUS_DONE);
}

/* post one CQP WQE (words 0..7, header in word 3 without valid/opcode) */
static void isim_t_post(struct isim_test *t, u32 op, const u64 *w,
			bool valid)
{
	__le64 *wqe = t->sq + t->head * ISIM_CQP_WQE_WORDS;
	u32 size = t->f->cqp.size;
	u64 hdr;
	int i;

	for (i = 0; i < ISIM_CQP_WQE_WORDS; i++)
		wqe[i] = cpu_to_le64(w ? w[i] : 0);
	hdr = (w ? w[ISIM_WQE_HDR] : 0) | FIELD_PREP(ISIM_HDR_OPCODE, op);
	if (valid == !!t->pol)
		hdr |= ISIM_HDR_VALID;
	wqe[ISIM_WQE_HDR] = cpu_to_le64(hdr);
	if (++t->head == size) {
		t->head = 0;
		t->pol ^= 1;
	}
	isim_wr32(t->f, t->f->rm->cqpdb, t->head);
}

static void isim_t_run(struct isim_test *t, u32 op, const u64 *w)
{
	isim_t_post(t, op, w, true);
	isim_t_poll(t);
}

static u32 isim_t_minor(struct isim_test *t)
{
	if (!(isim_rd32(t->f, t->f->rm->cqptail) & ISIM_CQPTAIL_OP_ERR))
		return 0;
	return FIELD_GET(ISIM_CQPERR_MINOR,
			 isim_rd32(t->f, t->f->rm->cqperrcodes));
}

/* post CREATE_CQ for the CCQ (CQ 0) with @size CQEs on CEQ 0 */
static void isim_t_ccq_post(struct isim_test *t, u32 size)
{
	u64 w[8] = {};

	w[0] = size;
	w[1] = 0x1234;
	w[4] = isim_t_bus(t, t->ccq);
	w[5] = isim_t_bus(t, t->shadow);
	w[ISIM_WQE_HDR] = ISIM_CQ_HDR_CEQ_VALID;
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
}

static void isim_t_ccq(struct kunit *test, u32 size)
{
	struct isim_test *t = test->priv;

	isim_t_ccq_post(t, size);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

struct isim_ctx_case {
	const char *name;
	u32 enc;
	u64 sq_off;
	u32 major;
	u32 proto;
	u16 minor;
};

static const struct isim_ctx_case isim_ctx_cases[] = {
	{ "good", 2, 0, ISIM_CQP_HW_MAJOR_GEN2, ISIM_CQPCTX_PROTO_IWARP, 0 },
	{ "size_zero", 0, 0, ISIM_CQP_HW_MAJOR_GEN2, ISIM_CQPCTX_PROTO_IWARP,
	  ISIM_MIN_BAD_SIZE },
	{ "size_too_big", 11, 0, ISIM_CQP_HW_MAJOR_GEN2,
	  ISIM_CQPCTX_PROTO_IWARP, ISIM_MIN_BAD_SIZE },
	{ "ring_misaligned", 2, 64, ISIM_CQP_HW_MAJOR_GEN2,
	  ISIM_CQPCTX_PROTO_IWARP, ISIM_MIN_BAD_ALIGN },
	{ "gen1_context", 2, 0, 0, ISIM_CQPCTX_PROTO_IWARP,
	  ISIM_MIN_UNSUPPORTED },
	{ "wrong_protocol", 2, 0, ISIM_CQP_HW_MAJOR_GEN2,
	  ISIM_CQPCTX_PROTO_ROCE, ISIM_MIN_BAD_FIELD },
};

static void isim_ctx_case_desc(const struct isim_ctx_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(isim_ctx, isim_ctx_cases, isim_ctx_case_desc);

static void isim_cqp_create_checks_host_context(struct kunit *test)
{
	const struct isim_ctx_case *c = test->param_value;
	struct isim_test *t = test->priv;
	u32 status;

	isim_t_cqp_open(t, c->enc, c->sq_off, c->major, c->proto);
	status = isim_rd32(t->f, t->f->rm->ccqpstatus);
	KUNIT_EXPECT_EQ(test, t->f->cqp.live, !c->minor);
	if (!c->minor) {
		KUNIT_EXPECT_EQ(test, status, (u32)ISIM_CCQPSTATUS_DONE);
		KUNIT_EXPECT_EQ(test, t->f->cqp.size, 8U);
		return;
	}
	KUNIT_EXPECT_EQ(test, status, (u32)ISIM_CCQPSTATUS_ERR);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqperrcodes),
			(u32)(FIELD_PREP(ISIM_CQPERR_MAJOR, ISIM_MAJ_ERR) |
			      FIELD_PREP(ISIM_CQPERR_MINOR, c->minor)));
}

/* a gen1 function takes HW major version 0 and refuses a gen2 context */
static const struct isim_ctx_case isim_ctx_gen1_cases[] = {
	/* gen1's word 0 has no protocol field: i40iw leaves it 0 */
	{ "good", 2, 0, ISIM_CQP_HW_MAJOR_GEN1, 0, 0 },
	{ "gen2_context", 2, 0, ISIM_CQP_HW_MAJOR_GEN2, 0,
	  ISIM_MIN_UNSUPPORTED },
	{ "protocol_bits_ignored", 2, 0, ISIM_CQP_HW_MAJOR_GEN1,
	  ISIM_CQPCTX_PROTO_ROCE, 0 },
};

KUNIT_ARRAY_PARAM(isim_ctx_gen1, isim_ctx_gen1_cases, isim_ctx_case_desc);

/*
 * Power-on state at the generation's offsets: the gen1 BAR is 4 MiB, its
 * CPUSTATUS registers sit at 0xd040, its doorbells at 0x131080/0x138c00.
 */
static void isim_regs_reset_uses_generation_map(struct kunit *test)
{
	struct isim_test *t = test->priv;
	const struct isim_regmap *rm = t->f->rm;
	bool g1 = t->f->gen == ISIM_GEN1;
	int i;

	KUNIT_EXPECT_EQ(test, rm->bar_len, g1 ? SZ_4M : SZ_8M);
	for (i = 0; i < ISIM_CPUSTATUS_NUM; i++)
		KUNIT_EXPECT_EQ(test,
				isim_rd32(t->f, (g1 ? 0xd040 : 0x50ba5c) + 4 * i),
				(u32)ISIM_CPUSTATUS_READY);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, g1 ? 0x131080 : 0x502c00),
			ISIM_DB_IDLE);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, g1 ? 0x138c00 : 0x504400),
			ISIM_DB_IDLE);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, rm->bar_len - SZ_64K),
			ISIM_DB_IDLE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_LBARCTRL_DB_SIZE,
					isim_rd32(t->f, g1 ? 0xbe484 : 0x9de74)),
			g1 ? 1U : 2U);
	/* the CQP comes up through CCQPHIGH 0x8200 / LOW 0x8180 on gen1 */
	KUNIT_EXPECT_EQ(test, rm->ccqplow, g1 ? 0x8180U : 0x50a080U);
	isim_t_cqp_ok(test, 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, g1 ? 0x8080 : 0x500880), 1U);
}

static void isim_cqp_destroy_clears_status(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	isim_wr32(t->f, t->f->rm->ccqphigh, 0);
	isim_wr32(t->f, t->f->rm->ccqplow, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, t->f->cqp.live);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->ccqpstatus), 0U);
}

static void isim_cqp_nop_advances_tail(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 2U);
}

static void isim_cqp_unknown_opcode_fails(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	isim_t_run(t, 0x3f, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_OPCODE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQPERR_MAJOR,
					isim_rd32(t->f, t->f->rm->cqperrcodes)),
			(u32)ISIM_MAJ_ERR);
	/* the next good command clears the error bit */
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 2U);
}

static void isim_cqp_stale_valid_bit_waits(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *hdr = &t->sq[ISIM_WQE_HDR];

	isim_t_cqp_ok(test, 2);
	isim_t_post(t, ISIM_OP_NOP, NULL, false);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 0U);
	KUNIT_EXPECT_EQ(test, t->f->cqp.bad_valid, 1ULL);
	*hdr |= cpu_to_le64(ISIM_HDR_VALID);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
}

/* CQP and CCQ of four entries: nine commands wrap both twice */
static void isim_cqp_ccq_completions_wrap(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w3;
	u32 i;

	isim_t_cqp_ok(test, 1);
	isim_t_ccq(test, 4);
	for (i = 1; i <= 9; i++) {
		isim_t_run(t, ISIM_OP_NOP, NULL);
		w3 = le64_to_cpu(t->ccq[(i % 4) * 4 + 3]);
		KUNIT_EXPECT_EQ_MSG(test, !!(w3 & ISIM_CQE_W3_VALID),
				    (i / 4) % 2 == 0, "completion %u", i);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3),
				(u64)(i % 4));
		KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[(i % 4) * 4 + 1]),
				0xc0ffeeULL);
	}
	KUNIT_EXPECT_EQ(test, t->f->cqp.polarity, 1);
	KUNIT_EXPECT_EQ(test, t->f->cqp.tail, 2U);
}

static void isim_cqp_error_completion_in_ccq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w3;

	isim_t_cqp_ok(test, 2);
	isim_t_ccq(test, 8);
	/* a second CQ 0 cannot exist */
	isim_t_ccq_post(t, 8);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	w3 = le64_to_cpu(t->ccq[1 * 4 + 3]);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_MIN_EXISTS);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MAJOR, w3),
			(u64)ISIM_MAJ_ERR);
}

static void isim_cqp_fail_knob_fails_next_n(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	atomic_set(&t->f->faults.fail_op[ISIM_OP_NOP], 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_INJECTED);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_INJECTED);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->cqp.op_err[ISIM_OP_NOP], 2U);
}

static void isim_cqp_stall_holds_commands(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	t->f->faults.stall = true;
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 0U);
	t->f->faults.stall = false;
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
}

static void isim_hmc_query_commit_fpm(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {}, qp;

	isim_t_cqp_ok(test, 2);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_QUERY_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	qp = le64_to_cpu(t->buf[1]);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_COUNT, qp), 4096ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_SIZE_LOG, qp), 9ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_MAX_SDS,
					le64_to_cpu(t->buf[0])),
			(u64)ISIM_MAX_SDS);

	/* commit: one QP too many */
	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	t->buf[ISIM_HMC_QP] = cpu_to_le64(4097);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_SIZE);
	KUNIT_EXPECT_FALSE(test, t->f->hmc.committed);

	/*
	 * The engine places the objects and returns their bases, whatever
	 * base the driver wrote: QPs (64 x 512 bytes) at 0, then the CQs;
	 * the APBVT's one 8 KiB entry after the ARP slot, the MRs after it.
	 */
	t->buf[ISIM_HMC_QP] = cpu_to_le64(64);
	t->buf[ISIM_HMC_CQ] = cpu_to_le64(64 | FIELD_PREP(ISIM_FPMC_BASE, 7));
	t->buf[ISIM_HMC_MR] = cpu_to_le64(8);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_TRUE(test, t->f->hmc.committed);
	KUNIT_EXPECT_EQ(test, t->f->hmc.base[ISIM_HMC_CQ], 64ULL * 512);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_QP]), 64ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_CQ]),
			64 | FIELD_PREP(ISIM_FPMC_BASE, 64));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_APBVT]),
			1 | FIELD_PREP(ISIM_FPMC_BASE, 68));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_MR]),
			8 | FIELD_PREP(ISIM_FPMC_BASE, 84));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_XF]),
			FIELD_PREP(ISIM_FPMC_BASE, 0));
}

/*
 * gen1 reports and takes only the object types up to PBLE, without FSIMC
 * and FSIAV, and its CQ count is 17:0: bit 18 of the CQ word is not part
 * of the count there, while on gen2 it makes the count too large.
 */
static void isim_hmc_fpm_fits_generation(struct kunit *test)
{
	static const u8 gen2_only[] = {
		ISIM_HMC_FSIMC, ISIM_HMC_FSIAV, ISIM_HMC_RRF, ISIM_HMC_RRFFL,
		ISIM_HMC_HDR, ISIM_HMC_MD, ISIM_HMC_OOISC, ISIM_HMC_OOISCFFL,
	};
	struct isim_test *t = test->priv;
	bool g1 = t->f->gen == ISIM_GEN1;
	u64 w[8] = {};
	int i;

	isim_t_cqp_ok(test, 2);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_QUERY_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	/* query slots: the commit order, QP..ARP one slot later */
	for (i = 0; i < ARRAY_SIZE(gen2_only); i++)
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[gen2_only[i]]) == 0,
				g1);
	/* gen1's PBLEs may fill its small SD window, gen2's a part of it */
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_COUNT,
					le64_to_cpu(t->buf[ISIM_HMC_PBLE])),
			g1 ? 1ULL << 22 : 1ULL << 18);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_MAX_SDS,
					le64_to_cpu(t->buf[0])),
			g1 ? 16ULL : (u64)ISIM_MAX_SDS);

	/* a gen2-only type in a commit */
	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	t->buf[ISIM_HMC_RRF] = cpu_to_le64(1);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t),
			g1 ? (u32)ISIM_MIN_BAD_SIZE : 0U);

	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	t->buf[ISIM_HMC_CQ] = cpu_to_le64(64 | BIT(18));
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t),
			g1 ? 0U : (u32)ISIM_MIN_BAD_SIZE);
	if (g1)
		KUNIT_EXPECT_EQ(test, t->f->hmc.cnt[ISIM_HMC_CQ], 64U);
}

/* commands only gen2 has */
static const u8 isim_t_gen2_ops[] = {
	ISIM_OP_QUERY_FEATURES, ISIM_OP_WS_NODE, ISIM_OP_MANAGE_STATS,
	ISIM_OP_GATHER_STATS,
};

static void isim_t_op_desc(const u8 *op, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "op 0x%02x", *op);
}

KUNIT_ARRAY_PARAM(isim_t_gen2_op, isim_t_gen2_ops, isim_t_op_desc);

/*
 * The X722 has no RDMA feature query, no statistics instances or gather,
 * no work scheduler: those commands complete with BAD_OPCODE, and without
 * scheduler nodes every QP transmits (on TC 0).
 */
static void isim_cqp_gen2_only_op_fails_on_gen1(struct kunit *test)
{
	const u8 *op = test->param_value;
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	isim_t_cqp_ok(test, 2);
	w[4] = isim_t_bus(t, t->buf);
	w[ISIM_WQE_HDR] = ISIM_WS_HDR_ENABLE | ISIM_STATS_HDR_ALLOC;
	isim_t_run(t, *op, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_OPCODE);
	mutex_lock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(t->f, 77), 0);
	mutex_unlock(&t->f->eng_lock);
	/* and nothing for the parent's qset_add to register */
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(t->f, ISIM_T_LEAF, 0),
			-EOPNOTSUPP);
}

/*
 * PBLEs placed by the engine after the APBVT's 8 KiB (the only other
 * object), so in the third page of SD 0, backed by a paged SD whose third
 * PD is t->page
 */
static void isim_hmc_pble_through_paged_sd(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {}, pa = 0;

	isim_t_cqp_ok(test, 2);
	t->buf[ISIM_HMC_PBLE] = cpu_to_le64(512);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_ASSERT_EQ(test, t->f->hmc.base[ISIM_HMC_PBLE], 8192ULL);
	KUNIT_EXPECT_EQ(test, isim_hmc_pble(t->f, 3, &pa), -ENOENT);

	/* PD page (t->eq) entry 2 -> t->page; PBLE 3 holds 0xabc000 */
	t->eq[2] = cpu_to_le64(isim_t_bus(t, t->page) | ISIM_PDE_VALID);
	t->page[3] = cpu_to_le64(0xabc000);
	memset(w, 0, sizeof(w));
	w[0] = ISIM_SDCMD_WRITE | ISIM_SDCMD_PARTSEL;
	w[1] = isim_t_bus(t, t->eq) | ISIM_SDDATA_VALID;
	isim_t_run(t, ISIM_OP_UPDATE_SDS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, isim_hmc_pble(t->f, 3, &pa), 0);
	KUNIT_EXPECT_EQ(test, pa, 0xabc000ULL);
	KUNIT_EXPECT_EQ(test, isim_hmc_pble(t->f, 512, &pa), -ENOENT);

	/* a direct SD must be 2 MiB aligned; bit 12 set never is */
	w[1] = isim_t_bus(t, t->eq) | SZ_4K | ISIM_SDDATA_VALID |
	       ISIM_SDDATA_DIRECT;
	isim_t_run(t, ISIM_OP_UPDATE_SDS, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ALIGN);
}

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

/**
 * struct isim_t_new - a new_device line and what it should give
 * @line: what is written to new_device
 * @err: expected result
 * @proto: expected protocol when @err is 0
 * @gen: expected generation when @err is 0
 * @claim: expected driver when @err is 0
 */
struct isim_t_new {
	const char *line;
	int err;
	enum isim_aux_protocol proto;
	u8 gen;
	enum isim_claim claim;
};

static const struct isim_t_new isim_t_new_lines[] = {
	{ "3", 0, ISIM_AUX_IWARP, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 roce\n", 0, ISIM_AUX_ROCEV2, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 iwarp gen1\n", 0, ISIM_AUX_IWARP, ISIM_GEN1, ISIM_CLAIM_IRDMA },
	{ "3 iwarp gen2", 0, ISIM_AUX_IWARP, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 roce gen2 upstream\n", 0, ISIM_AUX_ROCEV2, ISIM_GEN2,
	  ISIM_CLAIM_UPSTREAM },
	{ "3 iwarp gen1 upstream", 0, ISIM_AUX_IWARP, ISIM_GEN1,
	  ISIM_CLAIM_UPSTREAM },
	{ "3 iwarp gen2 irdma", 0, ISIM_AUX_IWARP, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 roce gen1", -EINVAL },
	{ "3 iwarp gen3", -EINVAL },
	{ "3 iwarp gen1 x", -EINVAL },
	{ "3 iwarp gen2 upstream x", -EINVAL },
	{ "3 gen1", -EINVAL },
	{ "64 iwarp gen1", -EINVAL },
};

static void isim_t_new_desc(const struct isim_t_new *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", n->line);
	strreplace(desc, '\n', ' ');
}

KUNIT_ARRAY_PARAM(isim_t_new, isim_t_new_lines, isim_t_new_desc);

static void isim_parse_new_device_gen(struct kunit *test)
{
	const struct isim_t_new *n = test->param_value;
	enum isim_aux_protocol proto = ISIM_AUX_IWARP;
	enum isim_claim claim = -1;
	u8 gen = 0;
	u32 id = 0;

	KUNIT_ASSERT_EQ(test, isim_parse_new(n->line, &id, &proto, &gen,
					     &claim), n->err);
	if (n->err)
		return;
	KUNIT_EXPECT_EQ(test, id, 3U);
	KUNIT_EXPECT_EQ(test, proto, n->proto);
	KUNIT_EXPECT_EQ(test, gen, n->gen);
	KUNIT_EXPECT_EQ(test, claim, n->claim);
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

/**
 * struct isim_t_count - how many objects of one HMC kind to commit
 * @obj: the kind (ISIM_HMC_*, its slot in the FPM buffer)
 * @n: how many
 */
struct isim_t_count {
	unsigned int obj;
	u32 n;
};

/* commit the @k counts of @c, all at HMC offset 0, and no other object */
static void isim_t_commit_counts(struct kunit *test,
				 const struct isim_t_count *c, unsigned int k)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	while (k--)
		t->buf[c[k].obj] = cpu_to_le64(c[k].n);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* commit @n objects of kind @obj at HMC offset 0, nothing else */
static void isim_t_commit(struct kunit *test, unsigned int obj, u32 n)
{
	const struct isim_t_count one = { obj, n };

	isim_t_commit_counts(test, &one, 1);
}

/* back SD 0 with a PD page (t->eq) whose first PD is t->page */
static void isim_t_back_sd0(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	t->eq[0] = cpu_to_le64(isim_t_bus(t, t->page) | ISIM_PDE_VALID);
	w[0] = ISIM_SDCMD_WRITE;
	w[1] = isim_t_bus(t, t->eq) | ISIM_SDDATA_VALID;
	isim_t_run(t, ISIM_OP_UPDATE_SDS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
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

static void isim_t_qp_cmd(struct isim_test *t, u32 op, u32 id, u32 type)
{
	u64 w[8] = {};

	w[2] = isim_t_bus(t, t->buf);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, type);
	isim_t_run(t, op, w);
}

static void isim_qp_create_copies_context_to_hmc(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u8 *slot = (u8 *)t->page + 512;

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_QP, 4);
	/* the commit buffer is free again: use it as the QP host context */
	memset(t->buf, 0x5a, ISIM_QP_HOST_CTX_BYTES);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_HMC_UNBACKED);

	isim_t_back_sd0(test);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_ROCE_RC);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 4, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_NULL(test, memchr_inv(slot, 0x5a, ISIM_QP_HOST_CTX_BYTES));
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	isim_t_qp_cmd(t, ISIM_OP_DESTROY_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_qp_cmd(t, ISIM_OP_DESTROY_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
}

static void isim_conn_tables_refuse_duplicates(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 port[8] = {}, qh[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_HTE, 16);
	port[2] = 4791;
	port[ISIM_WQE_HDR] = ISIM_APBVT_HDR_ADD;
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	port[ISIM_WQE_HDR] = 0;
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);

	/* a listener filter on 192.0.2.1:5000 for QP 1 */
	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, 5000) |
		FIELD_PREP(ISIM_QH_W1_QPN, 1);
	qh[6] = 0xc0000201;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, ISIM_QH_TCP_SYN) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 1U);
	qh[ISIM_WQE_HDR] &= ~ISIM_QH_HDR_MANAGE;
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 0U);
}

static void isim_cqp_handles_in_op_return_value(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 ws[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_ccq(test, 8);
	isim_t_run(t, ISIM_OP_ALLOC_MAC, NULL);
	isim_t_run(t, ISIM_OP_ALLOC_MAC, NULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[1 * 4 + 2]), 0ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[2 * 4 + 2]), 1ULL);
	ws[ISIM_WQE_HDR] = FIELD_PREP(ISIM_WS_HDR_NODE, 7) |
			   FIELD_PREP(ISIM_WS_HDR_OP, ISIM_WS_ADD);
	isim_t_run(t, ISIM_OP_WS_NODE, ws);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[3 * 4 + 2]), 7ULL);
	isim_t_run(t, ISIM_OP_WS_NODE, ws);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
}

/* WORK_SCHED_NODE @op on node @id under @parent; Return: the minor code */
static u32 isim_t_ws(struct isim_test *t, u32 op, u32 id, u32 parent, u8 tc,
		     u64 flags)
{
	u64 w[8] = {};

	w[4] = FIELD_PREP(ISIM_WS_W4_WEIGHT, 4);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_WS_HDR_NODE, id) |
			  FIELD_PREP(ISIM_WS_HDR_PARENT, parent) |
			  FIELD_PREP(ISIM_WS_HDR_OP, op) |
			  FIELD_PREP(ISIM_WS_HDR_TC, tc) | flags;
	isim_t_run(t, ISIM_OP_WS_NODE, w);
	return isim_t_minor(t);
}

#define ISIM_T_WS_LEAF	(ISIM_WS_HDR_LEAF | ISIM_WS_HDR_ENABLE)

/*
 * The tree keeps its shape: one root, every other node under a node that
 * exists and is no leaf, no node deleted before its children. The fixture
 * built root 0, node 1 and leaf 2.
 */
static void isim_ws_node_refuses_bad_tree(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;

	isim_t_cqp_ok(test, 2);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 5, 9, 0, 0),
			(u32)ISIM_MIN_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 5, ISIM_T_LEAF, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 6, 6, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 1, 0, 0, 0),
			(u32)ISIM_MIN_EXISTS);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 1, 0, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 9, 0, 0, 0),
			(u32)ISIM_MIN_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, 9, 0, 0, 0),
			(u32)ISIM_MIN_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 3, 1, 1, ISIM_T_WS_LEAF),
			0U);
	KUNIT_EXPECT_EQ(test, f->sched.node[3].weight, 4);
	KUNIT_EXPECT_EQ(test, f->sched.node[1].children, 2);
	KUNIT_EXPECT_EQ(test, f->sched.nodes, 4U);
	/* leaves first, then node 1; the root goes last and may come back */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 3, 0, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, ISIM_T_LEAF, 0, 0,
					0), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 0, 0, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 1, 0, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 0, 0, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, f->sched.nodes, 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 6, 6, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, f->sched.root, 6);
}

/*
 * The parent registers leaves only, each for its own traffic class and a
 * class in use, once; a registration outlives its leaf until qset_del.
 */
static void isim_sched_qset_add_checks_leaf(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;

	isim_t_cqp_ok(test, 2);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 3, 1, 0,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 4, 1, 1,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 9, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 3, 1), -EINVAL);
	/* TC 1 is not in use until the parent has two classes */
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 4, 1), -EINVAL);
	f->qos.num_tc = 2;
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 4, 1), 0);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, ISIM_T_LEAF, 0), -EEXIST);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->qsets), 3);
	/* as the driver tears down: the node goes, then the registration */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 3, 0, 0, 0), 0U);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, 3), -1);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, 4), 1);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_del(f, 3), 0);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_del(f, 3), -ENOENT);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_del(f, 5), -ENOENT);
	/* the classes shrink: a leaf of TC 1 is served no more */
	f->qos.num_tc = 1;
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, 4), -1);
	mutex_unlock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->qsets), 2);
}

/* CREATE_QP and MODIFY_QP take the QS handle from context word 22 */
static void isim_qp_context_names_qs_handle(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_QP, 4);
	isim_t_back_sd0(test);
	memset(t->buf, 0, ISIM_QP_HOST_CTX_BYTES);
	t->buf[22] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W22_QS_HANDLE, 5) |
				 FIELD_PREP(ISIM_QPC_W22_EXCEPTION_Q, 7));
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_UDA);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	qp = xa_load(&t->f->qps, 1);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, 5U);
	t->buf[22] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W22_QS_HANDLE, 1023));
	isim_t_qp_cmd(t, ISIM_OP_MODIFY_QP, 1, ISIM_QP_TYPE_UDA);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, 1023U);
}

/*
 * GATHER_STATS writes each counter at its offset, cut to its width, for an
 * instance MANAGE_STATS allocated only, into an aligned buffer only.
 */
static void isim_gather_stats_writes_counters(struct kunit *test)
{
	struct isim_test *t = test->priv;
	const u8 *blk = (const u8 *)t->buf;
	u64 w[8] = {};
	u32 inst;

	isim_t_cqp_ok(test, 2);
	isim_t_ccq(test, 8);
	w[ISIM_WQE_HDR] = ISIM_STATS_HDR_ALLOC;
	isim_t_run(t, ISIM_OP_MANAGE_STATS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	inst = le64_to_cpu(t->ccq[1 * 4 + 2]);
	isim_hwc_add(t->f, ISIM_GS_IP4_RX_OCTETS, BIT_ULL(48) + 5);
	isim_hwc_add(t->f, ISIM_GS_TCP_RTX_SEGS, BIT_ULL(32) + 7);
	isim_hwc_add(t->f, ISIM_GS_RDMA_TX_SENDS, 3);
	isim_hwc_segment(t->f, false, true, 60);
	memset(t->buf, 0xa5, ISIM_GS_BLOCK);
	w[ISIM_WQE_HDR] = ISIM_STATS_HDR_USE_INST |
			  FIELD_PREP(ISIM_STATS_HDR_INDEX, inst);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_GATHER_STATS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x008), 5ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(blk + 0x0dc), 7U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x118), 3ULL);
	/* one IPv6 segment received: packets, octets, TCP segments */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x040), 1ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x038), 60ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x0c0), 1ULL);
	/* what holds no counter is zero, to the end of the block */
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(blk + 0x0d8), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + ISIM_GS_BLOCK - 8),
			0ULL);
	/* an instance nobody allocated */
	w[ISIM_WQE_HDR] = ISIM_STATS_HDR_USE_INST |
			  FIELD_PREP(ISIM_STATS_HDR_INDEX, inst + 1);
	isim_t_run(t, ISIM_OP_GATHER_STATS, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
	/* a buffer off its 8-byte alignment */
	w[ISIM_WQE_HDR] = 0;
	w[4] = isim_t_bus(t, t->buf) + 4;
	isim_t_run(t, ISIM_OP_GATHER_STATS, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ALIGN);
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

/*
 * Multicast groups: the index lies in the committed multicast contexts;
 * a group is created once, changed and destroyed only while it exists;
 * its members are the valid entries of its list, its address the WQE's.
 */
static void isim_mcg_commands(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *list = t->page;
	struct isim_mcg *mcg;
	u64 w[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_FSIMC, 4);
	list[0] = cpu_to_le64(5 | ISIM_MCGE_VALID);
	list[1] = cpu_to_le64(9);
	list[2] = cpu_to_le64(7 | ISIM_MCGE_VALID);
	w[4] = isim_t_bus(t, list);
	w[ISIM_MCG_W_ADDR] = 0xe6000201;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_MCG_HDR_INDEX, 4) | ISIM_MCG_HDR_IPV4;
	isim_t_run(t, ISIM_OP_CREATE_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_MCG_HDR_INDEX, 3) | ISIM_MCG_HDR_IPV4;
	isim_t_run(t, ISIM_OP_MODIFY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
	isim_t_run(t, ISIM_OP_CREATE_MCG, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	mcg = xa_load(&t->f->mcgs, 3);
	KUNIT_ASSERT_NOT_NULL(test, mcg);
	KUNIT_EXPECT_TRUE(test, mcg->ipv4);
	KUNIT_EXPECT_EQ(test, mcg->addr[0], 0xe6000201U);
	KUNIT_ASSERT_EQ(test, mcg->n, 2);
	KUNIT_EXPECT_EQ(test, mcg->qpn[0], 5U);
	KUNIT_EXPECT_EQ(test, mcg->qpn[1], 7U);
	isim_t_run(t, ISIM_OP_CREATE_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);

	/* a third member; a list off 8 bytes is refused */
	list[1] = cpu_to_le64(9 | ISIM_MCGE_VALID);
	isim_t_run(t, ISIM_OP_MODIFY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, mcg->n, 3);
	w[4] += 4;
	isim_t_run(t, ISIM_OP_MODIFY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ALIGN);

	isim_t_run(t, ISIM_OP_DESTROY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_NULL(test, xa_load(&t->f->mcgs, 3));
	isim_t_run(t, ISIM_OP_DESTROY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
}

/* ---- STags ---- */

/* header fields for static tables (FIELD_PREP needs a function) */
#define ISIM_T_RIGHTS(r)	((u64)(r) << 48)
#define ISIM_T_PBL(l)		((u64)(l) << 44)
#define ISIM_T_PAGE(p)		((u64)(p) << 46)
#define ISIM_T_LW		ISIM_RIGHT_LOCAL_WRITE
#define ISIM_T_RR		ISIM_RIGHT_REMOTE_READ
#define ISIM_T_RW		ISIM_RIGHT_REMOTE_WRITE
#define ISIM_T_MR		(ISIM_STAG_HDR_MR | ISIM_STAG_HDR_VA_BASED)

/**
 * struct isim_stag_case - one STag command against 8 MR objects, no PBLEs
 * @name: description
 * @op: ALLOC_STAG or REG_MR
 * @idx: STag index
 * @len: length
 * @hdr: header bits (MR, rights, page list, page size)
 * @buf: word 4, the buffer address
 * @minor: expected completion minor code
 */
struct isim_stag_case {
	const char *name;
	u32 op;
	u32 idx;
	u64 len;
	u64 hdr;
	u64 buf;
	u32 minor;
};

static const struct isim_stag_case isim_stag_cases[] = {
	{ "reg_one_page", ISIM_OP_REG_MR, 1, SZ_4K, ISIM_T_MR, 0x10000,
	  ISIM_MIN_OK },
	{ "reg_all_memory", ISIM_OP_REG_MR, 1, 0, ISIM_T_MR |
	  ISIM_STAG_HDR_REMOTE | ISIM_T_RIGHTS(ISIM_T_LW | ISIM_T_RW), 0,
	  ISIM_MIN_OK },
	{ "reg_index_0", ISIM_OP_REG_MR, 0, SZ_4K, ISIM_T_MR, 0x10000,
	  ISIM_MIN_BAD_ID },
	{ "reg_index_past_mr_objects", ISIM_OP_REG_MR, 8, SZ_4K, ISIM_T_MR,
	  0x10000, ISIM_MIN_BAD_ID },
	{ "reg_without_mr_bit", ISIM_OP_REG_MR, 1, SZ_4K,
	  ISIM_STAG_HDR_VA_BASED, 0x10000, ISIM_MIN_BAD_FIELD },
	{ "remote_write_without_local_write", ISIM_OP_REG_MR, 1, SZ_4K,
	  ISIM_T_MR | ISIM_STAG_HDR_REMOTE | ISIM_T_RIGHTS(ISIM_T_RW), 0x10000,
	  ISIM_MIN_BAD_FIELD },
	{ "remote_read_without_remote_access", ISIM_OP_REG_MR, 1, SZ_4K,
	  ISIM_T_MR | ISIM_T_RIGHTS(ISIM_T_RR), 0x10000, ISIM_MIN_BAD_FIELD },
	{ "unaligned_buffer", ISIM_OP_REG_MR, 1, SZ_4K, ISIM_T_MR, 0x10010,
	  ISIM_MIN_BAD_ALIGN },
	{ "no_length_with_a_buffer", ISIM_OP_REG_MR, 1, 0, ISIM_T_MR, 0x10000,
	  ISIM_MIN_BAD_FIELD },
	{ "length_beyond_2_45", ISIM_OP_REG_MR, 1, BIT_ULL(45) + 1, ISIM_T_MR,
	  0x10000, ISIM_MIN_BAD_FIELD },
	{ "reserved_page_size", ISIM_OP_REG_MR, 1, SZ_4K, ISIM_T_MR |
	  ISIM_T_PAGE(3), 0x10000, ISIM_MIN_BAD_FIELD },
	{ "pbles_outside_the_object", ISIM_OP_REG_MR, 1, 2 * SZ_4K, ISIM_T_MR |
	  ISIM_T_PBL(1), 0, ISIM_MIN_BAD_FIELD },
	{ "two_level_list", ISIM_OP_REG_MR, 1, 2 * SZ_4K, ISIM_T_MR |
	  ISIM_T_PBL(3), 0, ISIM_MIN_UNSUPPORTED },
	{ "reserved_list_depth", ISIM_OP_REG_MR, 1, 2 * SZ_4K, ISIM_T_MR |
	  ISIM_T_PBL(2), 0, ISIM_MIN_BAD_FIELD },
	{ "alloc_type1_window", ISIM_OP_ALLOC_STAG, 7, 0,
	  ISIM_STAG_HDR_MW_TYPE1, 0, ISIM_MIN_OK },
	{ "alloc_fastreg_pbles_outside", ISIM_OP_ALLOC_STAG, 2, SZ_4K,
	  ISIM_STAG_HDR_MR | ISIM_T_PBL(1), 0,
	  ISIM_MIN_BAD_FIELD },
};

static void isim_stag_case_desc(const struct isim_stag_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(isim_stag, isim_stag_cases, isim_stag_case_desc);

static void isim_t_stag(struct isim_test *t, u32 op, u32 idx, u32 pd,
			u64 len, u64 hdr, u64 buf)
{
	u64 w[8] = {};

	w[0] = 0x7f0000000000ULL;
	w[1] = FIELD_PREP(ISIM_STAG_W1_LEN, len);
	if (t->f->gen == ISIM_GEN1)
		w[1] |= FIELD_PREP(ISIM_STAG_W1_G1_PD, pd);
	else
		w[1] |= FIELD_PREP(ISIM_STAG_W1_PD, pd);
	w[2] = FIELD_PREP(ISIM_STAG_W2_INDEX, idx) |
	       FIELD_PREP(ISIM_STAG_W2_KEY, 0x5a);
	w[4] = buf;
	w[ISIM_WQE_HDR] = hdr;
	isim_t_run(t, op, w);
}

static void isim_stag_command_checks_fields(struct kunit *test)
{
	const struct isim_stag_case *c = test->param_value;
	struct isim_test *t = test->priv;
	struct isim_stag *st;

	/* the table's shifts must match the field definitions */
	KUNIT_ASSERT_EQ(test, ISIM_T_RIGHTS(1), FIELD_PREP(ISIM_STAG_HDR_RIGHTS, 1));
	KUNIT_ASSERT_EQ(test, ISIM_T_PBL(1), FIELD_PREP(ISIM_STAG_HDR_PBL_LEVELS, 1));
	KUNIT_ASSERT_EQ(test, ISIM_T_PAGE(1), FIELD_PREP(ISIM_STAG_HDR_PAGE_SIZE, 1));
	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_MR, 8);
	isim_t_stag(t, c->op, c->idx, 3, c->len, c->hdr, c->buf);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), c->minor);
	st = xa_load(&t->f->stags, c->idx);
	if (c->minor) {
		KUNIT_EXPECT_NULL(test, st);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, st->pd, 3U);
	KUNIT_EXPECT_EQ(test, st->len, c->len);
	KUNIT_EXPECT_EQ(test, st->registered, c->op == ISIM_OP_REG_MR);
}

static void isim_stag_dealloc_matches_kind_and_pd(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_stag *st;

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_MR, 8);
	isim_t_stag(t, ISIM_OP_ALLOC_STAG, 2, 3, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	st = xa_load(&t->f->stags, 2);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_FALSE(test, st->mw_type1);
	KUNIT_EXPECT_EQ(test, st->pd, 3U);
	isim_t_stag(t, ISIM_OP_ALLOC_STAG, 2, 3, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	/* a window is not an MR, and belongs to its PD */
	isim_t_stag(t, ISIM_OP_DEALLOC_STAG, 2, 3, 0, ISIM_STAG_HDR_MR, 0);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	isim_t_stag(t, ISIM_OP_DEALLOC_STAG, 2, 4, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	isim_t_stag(t, ISIM_OP_DEALLOC_STAG, 2, 3, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_NULL(test, xa_load(&t->f->stags, 2));
	isim_t_stag(t, ISIM_OP_DEALLOC_STAG, 2, 3, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
}

/* a fast-register WQE for STag @stag of one page at bus 0x200000 */
static void isim_t_fastreg_wqe(u64 *w, u32 stag, u64 va, u64 len, u8 rights)
{
	memset(w, 0, 8 * sizeof(*w));
	w[0] = va;
	w[1] = 0x200000;
	w[2] = FIELD_PREP(ISIM_WQF_W2_LEN, len);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_WQF_HDR_KEY, stag & 0xff) |
			  FIELD_PREP(ISIM_WQF_HDR_INDEX, stag >> 8) |
			  ISIM_T_RIGHTS(rights) | ISIM_WQB_HDR_VA_BASED;
}

/*
 * Fast register maps an MR that ALLOC_STAG reserved, once, under the
 * WQE's key; an invalidation with that key and PD unmaps it; an MR that
 * REG_MR registered can be neither.
 */
static void isim_stag_fast_reg_and_invalidate(struct kunit *test)
{
	const u8 rw = ISIM_T_LW | ISIM_T_RW;
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	const u64 va = 0x7f0000001010ULL;
	const u32 stag = 2 << 8 | 0x77;
	u64 w[8], bus, contig;

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_MR, 8);
	isim_t_stag(t, ISIM_OP_ALLOC_STAG, 2, 3, SZ_4K,
		    ISIM_STAG_HDR_MR | ISIM_STAG_HDR_REMOTE, 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_stag(t, ISIM_OP_REG_MR, 4, 3, SZ_4K, ISIM_T_MR, 0x10000);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	mutex_lock(&f->eng_lock);
	/* another PD's QP, a range past the one page: refused */
	isim_t_fastreg_wqe(w, stag, va, 0x100, rw);
	KUNIT_EXPECT_EQ(test, isim_stag_fast_reg(f, 4, w), -EPERM);
	isim_t_fastreg_wqe(w, stag, va, SZ_4K, rw);
	KUNIT_EXPECT_EQ(test, isim_stag_fast_reg(f, 3, w), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_access(f, stag, 3, ISIM_T_RW, va, 1),
			-EPERM);
	isim_t_fastreg_wqe(w, stag, va, 0x100, rw);
	KUNIT_EXPECT_EQ(test, isim_stag_fast_reg(f, 3, w), 0);
	KUNIT_EXPECT_EQ(test, isim_stag_access(f, stag, 3, ISIM_T_RW,
					       va + 0x10, 0x20), 0);
	KUNIT_EXPECT_EQ(test, isim_stag_access(f, stag ^ 1, 3, ISIM_T_RW,
					       va, 1), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_access(f, stag, 3, ISIM_T_RW,
					       va + 0xf0, 0x20), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_translate(f, stag, va + 0x10, &bus,
						  &contig), 0);
	KUNIT_EXPECT_EQ(test, bus, 0x200020ULL);
	/* mapped already: a second fast register waits for an invalidate */
	KUNIT_EXPECT_EQ(test, isim_stag_fast_reg(f, 3, w), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_invalidate(f, 4, stag), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_invalidate(f, 3, stag ^ 1), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_invalidate(f, 3, stag), 0);
	KUNIT_EXPECT_EQ(test, isim_stag_access(f, stag, 3, ISIM_T_RW, va, 1),
			-EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_invalidate(f, 3, stag), -EPERM);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->hwc[ISIM_GS_INVALIDATES]),
			1LL);
	/* again, under a new key */
	isim_t_fastreg_wqe(w, stag + 1, va, 0x100, rw);
	KUNIT_EXPECT_EQ(test, isim_stag_fast_reg(f, 3, w), 0);
	KUNIT_EXPECT_EQ(test, isim_stag_access(f, stag + 1, 3, ISIM_T_RW,
					       va, 1), 0);
	/* REG_MR's MR is neither mapped nor unmapped by WQEs */
	isim_t_fastreg_wqe(w, 4 << 8 | 0x5a, va, 0x100, rw);
	KUNIT_EXPECT_EQ(test, isim_stag_fast_reg(f, 3, w), -EPERM);
	KUNIT_EXPECT_EQ(test, isim_stag_invalidate(f, 3, 4 << 8 | 0x5a),
			-EPERM);
	mutex_unlock(&f->eng_lock);
}

/* ---- data path (exec.c), on QPs and a CQ made by hand ---- */

#define ISIM_T_CQ	1
#define ISIM_T_CQ_SIZE	32
/*
 * The ARP entry hand-made RC QPs name (stored directly, above the entries
 * the CQP tests make), and the MAC of the QPs and of that entry
 */
#define ISIM_T_RC_ARP	0x7f
#define ISIM_T_RC_MAC	0x020000000011ULL

/* CQ 1: a 32-entry ring in @ring, no overflow check, no CEQ */
static void isim_t_hand_cq(struct kunit *test, __le64 *ring)
{
	struct isim_test *t = test->priv;
	struct isim_cq *cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq->id = ISIM_T_CQ;
	cq->ring.mem.pa = isim_t_bus(t, ring);
	cq->ring.mem.bytes = ISIM_T_CQ_SIZE * ISIM_CQE_BYTES;
	cq->ring.size = ISIM_T_CQ_SIZE;
	cq->ring.elem = ISIM_CQE_BYTES;
	cq->ring.polarity = 1;
	cq->shadow_pa = isim_t_bus(t, t->shadow);
	mutex_lock(&t->f->eng_lock);
	err = isim_cq_add(t->f, cq);
	mutex_unlock(&t->f->eng_lock);
	if (err) {
		kfree(cq);
		KUNIT_FAIL(test, "cannot insert the CQ");
	}
}

/*
 * A QP of @type with 32 SQ quanta and 4 RQ WQEs of 2 quanta, rings in @sq
 * and @rq, context word 8 @w8 (destination QP, Q_Key), privileged,
 * completing to CQ 1.
 */
static struct isim_qp *isim_t_hand_qp_type(struct kunit *test, u32 id,
					   u8 type, u64 w8, u8 state,
					   __le64 *sq, __le64 *rq)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8] = {};
	int err;

	KUNIT_ASSERT_NOT_NULL(test, qp);
	ctx[0] = FIELD_PREP(ISIM_QPC_W0_RQ_WQE_SHIFT, 1);
	ctx[1] = isim_t_bus(t, sq);
	ctx[2] = isim_t_bus(t, rq);
	ctx[3] = FIELD_PREP(ISIM_QPC_W3_SQ_SIZE, 3) |
		 FIELD_PREP(ISIM_QPC_W3_RQ_SIZE, 1);
	ctx[6] = FIELD_PREP(ISIM_QPC_W6_ARP_IDX, ISIM_T_RC_ARP);
	ctx[8] = w8;
	ctx[19] = FIELD_PREP(ISIM_QPC_W19_LOCAL_MAC, ISIM_T_RC_MAC);
	ctx[17] = FIELD_PREP(ISIM_QPC_W17_SQ_CQ, ISIM_T_CQ) |
		  FIELD_PREP(ISIM_QPC_W17_RQ_CQ, ISIM_T_CQ);
	ctx[20] = ISIM_QPC_W20_PRIVILEGED | ISIM_QPC_W20_REMOTE_WRITE |
		  ISIM_QPC_W20_REMOTE_READ;
	ctx[21] = 0x500 + id;
	ctx[22] = ISIM_T_QS;
	qp->id = id;
	qp->type = type;
	qp->state = ISIM_QPS_IDLE;
	/* RC traffic loops back: the next hop is the QP's own MAC */
	KUNIT_ASSERT_FALSE(test, xa_err(xa_store(&t->f->conn.arp, ISIM_T_RC_ARP,
						 xa_mk_value(ISIM_T_RC_MAC),
						 GFP_KERNEL)));
	isim_exec_load_ctx(qp, ctx, false);
	isim_exec_new_state(qp, ISIM_QPS_INVALID);
	qp->state = state;
	mutex_lock(&t->f->eng_lock);
	err = isim_qp_add(t->f, qp);
	mutex_unlock(&t->f->eng_lock);
	if (err) {
		kfree(qp);
		KUNIT_FAIL(test, "cannot insert the QP");
		return NULL;
	}
	return qp;
}

/* an RC QP as above, connected to @dest */
static struct isim_qp *isim_t_hand_qp(struct kunit *test, u32 id, u32 dest,
				      u8 state, __le64 *sq, __le64 *rq)
{
	return isim_t_hand_qp_type(test, id, ISIM_QP_TYPE_ROCE_RC,
				   FIELD_PREP(ISIM_QPC_W8_DEST_QP, dest),
				   state, sq, rq);
}

/* a one-fragment WQE at quantum @idx of @ring, on the first lap */
static void isim_t_wqe(__le64 *ring, u32 idx, u8 op, u64 addr, u32 len,
		       u64 w2, u64 hdr)
{
	struct isim_test *t = current->kunit_test->priv;
	__le64 *q = ring + idx * 4;

	q[0] = cpu_to_le64(addr);
	/* STag 0; gen2 has the valid bit in every fragment, gen1 none */
	if (t->f->gen == ISIM_GEN1)
		q[1] = cpu_to_le64(FIELD_PREP(ISIM_FRAG_G1_LEN, len));
	else
		q[1] = cpu_to_le64(FIELD_PREP(ISIM_FRAG_LEN, len) |
				   BIT_ULL(63));
	q[2] = cpu_to_le64(w2);
	q[3] = cpu_to_le64(FIELD_PREP(ISIM_WQH_OP, op) | hdr | ISIM_WQH_VALID);
}

/*
 * CQ 1 on t->ccq and QP 2, in RTS and connected to itself, on t->sq and
 * t->eq (as its RQ)
 */
static struct isim_qp *isim_t_self_qp(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp(test, 2, 2, ISIM_QPS_RTS, t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	return qp;
}

/* CQE @i of the 32-byte ring @cq: word @w */
static u64 isim_t_cqe(const __le64 *cq, u32 i, u32 w)
{
	return le64_to_cpu(cq[i * 4 + w]);
}

static void isim_exec_flush_completes_each_posted_wqe(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	struct isim_qp *qp;
	u32 i;

	qp = isim_t_self_qp(test);
	/* a fragment-less (unreachable) WRITE, a NOP pad, a SEND */
	isim_t_wqe(sq, 0, ISIM_WQOP_WRITE, 0, 0, 0, 0);
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(sq, 2, ISIM_WQOP_SEND, 0, 0, 0, 0);
	isim_t_wqe(rq, 0, 0, 0, 0, 0, 0);
	isim_t_wqe(rq, 2, 0, 0, 0, 0, 0);
	mutex_lock(&t->f->eng_lock);
	qp->state = ISIM_QPS_ERROR;
	isim_exec_flush(t->f, qp, &qp->sq, ISIM_WC_FLUSHED);
	isim_exec_flush(t->f, qp, &qp->rq, ISIM_WC_FLUSHED);
	mutex_unlock(&t->f->eng_lock);
	/* SQ quanta 0 and 2 (not the NOP), then RQ WQEs at quanta 0 and 2 */
	for (i = 0; i < 4; i++) {
		u64 w3 = isim_t_cqe(cq, i, 3);

		KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
		KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MAJOR, w3),
				(u64)ISIM_CQE_MAJ_FLUSHED);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3),
				(u64)(i % 2) * 2);
		KUNIT_EXPECT_EQ(test, !!(w3 & ISIM_CQE_W3_SQ), i < 2);
		KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, i, 1), 0x502ULL);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W2_QP,
						isim_t_cqe(cq, i, 2)), 2ULL);
	}
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 4, 3) & ISIM_CQE_W3_VALID);
	/* a WQE posted to the flushed SQ later is flushed by the next pass */
	isim_t_wqe(sq, 3, ISIM_WQOP_SEND, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(cq, 4, 3)), 3ULL);
	KUNIT_EXPECT_EQ(test, qp->flushed, 5ULL);
	KUNIT_EXPECT_EQ(test, qp->executed, 0ULL);
}

static void isim_exec_send_loopback_moves_data(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	u8 *src = (u8 *)t->buf, *dst = (u8 *)t->page;
	struct isim_qp *a, *b;
	u64 w3;
	u32 i;

	isim_t_hand_cq(test, cq);
	/* A's SQ in the first half of the page, B's RQ in the second */
	a = isim_t_hand_qp(test, 2, 3, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 2, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < 40; i++)
		src[i] = i * 3 + 1;
	isim_t_wqe(rq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, src), 40, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 40), 0);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	/* the responder's CQE first, then the requester's */
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR));
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_BTH_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 0, 0), 40ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 0, 1), 0x503ULL);
	w3 = isim_t_cqe(cq, 1, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 1), 0x502ULL);
	/* one message out and, on the same function, in */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_TX_SENDS]), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_RX_SENDS]), 1LL);
	/* the second SEND finds no RQ WQE and, with no RNR retries, fails */
	isim_t_wqe(sq, 1, ISIM_WQOP_SEND, isim_t_bus(t, src), 8, 0, 0);
	isim_t_poll(t);
	w3 = isim_t_cqe(cq, 2, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_RETRY_EXC);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 1ULL);
	KUNIT_EXPECT_EQ(test, a->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, b->state, (u8)ISIM_QPS_RTS);
	/* a message that failed is not counted */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_TX_SENDS]), 1LL);
}

/*
 * An RC QP whose next hop (its context's ARP entry) is another MAC than its
 * own sends onto the wire, where the model carries no RC: its SEND
 * completes as if retries ran out, nothing reaches the QP of the same
 * number here, and the engine counts it as unrouted.
 */
static void isim_exec_rc_elsewhere_is_unrouted(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	u8 *src = (u8 *)t->buf, *dst = (u8 *)t->page;
	struct isim_qp *a, *b;
	u64 w3;

	isim_t_hand_cq(test, cq);
	a = isim_t_hand_qp(test, 2, 3, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 2, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	/* the peer's MAC is in the ARP entry now, not A's own */
	KUNIT_ASSERT_FALSE(test, xa_err(xa_store(&t->f->conn.arp, ISIM_T_RC_ARP,
						 xa_mk_value(ISIM_T_RC_MAC + 1),
						 GFP_KERNEL)));
	memset(src, 0x5a, 16);
	memset(dst, 0, 16);
	isim_t_wqe(rq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, src), 16, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->unrouted, 1ULL);
	KUNIT_EXPECT_NE(test, memcmp(src, dst, 16), 0);
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_RETRY_EXC);
	KUNIT_EXPECT_EQ(test, a->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, b->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_RX_SENDS]), 0LL);
}

/*
 * A posted WQE waits for its doorbell: a pass that finds none, after
 * nothing that could have freed an SQ and with no guard scan due, looks
 * at no QP. The guard scan takes what no doorbell announced, and counts it.
 */
static void isim_exec_sq_waits_for_doorbell(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	struct isim_func *f = t->f;
	struct isim_qp *a, *b;
	u64 idle, kicks;

	isim_t_hand_cq(test, cq);
	a = isim_t_hand_qp(test, 2, 3, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 2, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	isim_t_wqe(rq + 256, 0, 0, isim_t_bus(t, t->page), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, t->buf), 8, 0,
		   ISIM_WQH_SIGNALED);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	idle = f->idle_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 0ULL);
	KUNIT_EXPECT_EQ(test, f->idle_passes, idle + 1);
	/* the doorbell names A; any doorbell makes the pass look at all */
	isim_wr32(f, f->rm->wqealloc, 2);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(f, f->rm->wqealloc), ISIM_DB_IDLE);
	/* after work the next pass looks at A alone, then the engine idles */
	KUNIT_EXPECT_FALSE(test, list_empty(&a->kick));
	KUNIT_EXPECT_TRUE(test, list_empty(&b->kick));
	kicks = f->kick_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, f->kick_passes, kicks + 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&a->kick));
	idle = f->idle_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, f->idle_passes, idle + 1);
	/* a NOP nobody rang for: only the guard scan takes it */
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	f->scan_due = jiffies;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 2ULL);
	KUNIT_EXPECT_EQ(test, f->unasked, 1ULL);
	/* user space rings in its doorbell page, which is heard as well */
	f->scan_due = jiffies + 3600 * HZ;
	isim_engine_poll(f);
	isim_t_wqe(sq, 2, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_wr32(f, isim_reg_udb_wqealloc(f), 2);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 3ULL);
	KUNIT_EXPECT_EQ(test, f->unasked, 1ULL);
	mutex_unlock(&f->eng_lock);
}

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

	a = isim_t_self_qp(test);
	mutex_lock(&f->eng_lock);
	WRITE_ONCE(f->wake.kicked, true);
	f->wake.due_set = false;
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), -1L);
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, true), 0L);
	KUNIT_EXPECT_EQ(test, f->wake.next, ISIM_WAKE_MORE);
	isim_engine_due(f, jiffies + 20);
	isim_engine_due(f, jiffies + 30);
	KUNIT_EXPECT_EQ(test, isim_engine_next(f, false), 20L);
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

/*
 * A pass whose time is over takes no more WQEs of an SQ after the first:
 * one QP with a deep SQ cannot hold the engine (and the CQP commands
 * behind it) for longer than one WQE past the deadline. The QP is kicked
 * again and the pass says more is waiting, so the next goes on at once.
 */
static void isim_exec_sq_stops_when_the_pass_is_over(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *a;
	u32 i;

	a = isim_t_self_qp(test);
	for (i = 0; i < 3; i++)
		isim_t_wqe(t->sq, i, ISIM_WQOP_NOP, 0, 0, 0, 0);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	isim_wr32(f, f->rm->wqealloc, 2);
	f->pass_end_ns = 0;
	KUNIT_EXPECT_TRUE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	KUNIT_EXPECT_FALSE(test, list_empty(&a->kick));
	/* no doorbell: the kick alone brings the next pass back to it */
	KUNIT_EXPECT_TRUE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, a->executed, 2ULL);
	/* with time left the pass finishes the SQ and asks for nothing */
	f->pass_end_ns = U64_MAX;
	KUNIT_EXPECT_FALSE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, a->executed, 3ULL);
	KUNIT_EXPECT_FALSE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_TRUE(test, list_empty(&a->kick));
	mutex_unlock(&f->eng_lock);
}

/**
 * struct isim_t_rings - rings of a QP beside a running CQP
 * @cq: CQ 1's ring
 * @sq: the QP's SQ
 * @rq: the QP's RQ
 */
struct isim_t_rings {
	__le64 *cq, *sq, *rq;
};

/* the CQP, CQ 1 and QP 2 in RTS, connected to itself, on rings of @r */
static struct isim_qp *isim_t_cqp_self_qp(struct kunit *test,
					  struct isim_t_rings *r)
{
	struct isim_qp *qp;

	isim_t_cqp_ok(test, 2);
	r->cq = isim_t_page(test);
	r->sq = isim_t_page(test);
	r->rq = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, r->cq);
	KUNIT_ASSERT_NOT_NULL(test, r->sq);
	KUNIT_ASSERT_NOT_NULL(test, r->rq);
	isim_t_hand_cq(test, r->cq);
	qp = isim_t_hand_qp(test, 2, 2, ISIM_QPS_RTS, r->sq, r->rq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	return qp;
}

/*
 * A QP on a leaf the parent has not registered sends nothing: the WQE
 * stays posted and each pass that finds it counts it. The registration
 * has the next pass, without a doorbell, look at every QP, and it runs.
 */
static void isim_exec_unregistered_leaf_holds_sq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_t_rings r;
	__le64 *cq, *sq, *rq;
	struct isim_qp *qp;

	qp = isim_t_cqp_self_qp(test, &r);
	cq = r.cq;
	sq = r.sq;
	rq = r.rq;
	mutex_lock(&f->eng_lock);
	KUNIT_ASSERT_EQ(test, isim_ws_add(f, 3, 1, 0, true, true), 0);
	qp->qs_handle = 3;
	mutex_unlock(&f->eng_lock);
	isim_t_wqe(rq, 0, 0, isim_t_bus(t, t->page), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, t->buf), 8, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 0ULL);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 0, 3) & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, f->sched.unsched, 2ULL);

	KUNIT_ASSERT_EQ(test, isim_t_qset_add(f, 3, 0), 0);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	isim_engine_poll(f);
	mutex_unlock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(cq, 1, 3) & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_EQ(test, f->sched.unsched, 2ULL);
	/* a disabled leaf holds it again */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, 3, 1, 0,
					ISIM_WS_HDR_LEAF), (u32)ISIM_MIN_OK);
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);
	KUNIT_EXPECT_EQ(test, f->sched.unsched, 3ULL);
}

/* SUSPEND_QP or RESUME_QP of QP @id, RESUME with QS handle @qs */
static void isim_t_suspend(struct isim_test *t, u32 op, u32 id, u32 qs)
{
	u64 w[8] = {};

	w[2] = FIELD_PREP(ISIM_RESUME_W2_QSET, qs);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id);
	isim_t_run(t, op, w);
}

/*
 * RESUME_QP moves the QP to the leaf it names, as a traffic-class change
 * does: it sends again through a served leaf, and stays held on a leaf
 * the driver deleted.
 */
static void isim_resume_qp_takes_new_qs_handle(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_t_rings r;
	struct isim_qp *qp;

	qp = isim_t_cqp_self_qp(test, &r);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 3, 1, 0,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_ASSERT_EQ(test, isim_t_qset_add(f, 3, 0), 0);
	/* not suspended: refused, and the handle stays */
	isim_t_suspend(t, ISIM_OP_RESUME_QP, 2, 3);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, (u32)ISIM_T_LEAF);

	isim_t_suspend(t, ISIM_OP_SUSPEND_QP, 2, 0);
	KUNIT_EXPECT_TRUE(test, qp->suspended);
	isim_t_wqe(r.sq, 0, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 0ULL);
	isim_t_suspend(t, ISIM_OP_RESUME_QP, 2, 3);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, 3U);
	KUNIT_EXPECT_FALSE(test, qp->suspended);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);

	/* back to leaf 2, which the driver deleted meanwhile */
	isim_t_suspend(t, ISIM_OP_SUSPEND_QP, 2, 0);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, ISIM_T_LEAF, 0, 0,
					0), 0U);
	isim_t_suspend(t, ISIM_OP_RESUME_QP, 2, ISIM_T_LEAF);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_wqe(r.sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);
	KUNIT_EXPECT_GT(test, f->sched.unsched, 0ULL);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, qp->qs_handle), -1);
	mutex_unlock(&f->eng_lock);
}

static void isim_exec_bad_stag_is_protection_error(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq;
	struct isim_qp *a;
	u64 w3;

	a = isim_t_self_qp(test);
	/* WRITE to itself through rkey 0x1234: remote access error */
	isim_t_wqe(sq, 0, ISIM_WQOP_WRITE, isim_t_bus(t, t->buf), 8,
		   isim_t_bus(t, t->page),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, 0x1234));
	isim_t_poll(t);
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_REM_ACCESS);
	KUNIT_EXPECT_EQ(test, a->state, (u8)ISIM_QPS_ERROR);
	/* an unsignaled WQE behind it stays until the driver flushes */
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 1, 3) & ISIM_CQE_W3_VALID);
}

/* ---- the ILQ ---- */

#define ISIM_T_ILQ		1	/* the ILQ's QP and CQ id */
#define ISIM_T_ILQ_AH		5
/* AH contexts (FSIAV) the ILQ set-up commits */
#define ISIM_T_AHS		8
#define ISIM_T_ILQ_ARP		2
#define ISIM_T_LOC_IP		0xc0000201	/* 192.0.2.1 */
#define ISIM_T_REM_IP		0xc0000202	/* 192.0.2.2 */
#define ISIM_T_REM_MAC		0x020000000099ULL
#define ISIM_T_LOC_MAC		0x024953000001ULL
#define ISIM_T_LMAC_IDX		1	/* gen1: the local MAC table entry */

static void isim_t_tap(struct isim_func *f, struct sk_buff *skb)
{
	struct kunit *test = current->kunit_test;
	struct isim_t_ilq *q = ((struct isim_test *)test->priv)->ilq;

	skb_queue_tail(&q->frames, skb);
}

/* commit QPs, CQs, ARP entries, hash entries, MRs and AHs at offset 0 */
static void isim_t_ilq_commit(struct kunit *test)
{
	static const struct isim_t_count counts[] = {
		{ ISIM_HMC_QP, 4 }, { ISIM_HMC_CQ, 4 }, { ISIM_HMC_ARP, 4 },
		{ ISIM_HMC_HTE, 16 }, { ISIM_HMC_MR, 4 },
		{ ISIM_HMC_FSIAV, ISIM_T_AHS },
	};
	struct isim_test *t = test->priv;

	/* gen1 has no AH contexts (FSIAV, the last entry) */
	isim_t_commit_counts(test, counts, ARRAY_SIZE(counts) -
			     (t->f->gen == ISIM_GEN1 ? 1 : 0));
}

static void isim_t_ilq_cq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[0] = 32;
	w[1] = 0x11c;
	w[4] = isim_t_bus(t, t->ilq->cq);
	w[5] = isim_t_bus(t, t->shadow);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_CQ_HDR_ID, ISIM_T_ILQ) |
			  ISIM_CQ_HDR_CHK_OVERFLOW;
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* CREATE_QP of a UDA QP @id in RTS, as the driver creates the ILQ */
static void isim_t_ilq_qp_post(struct kunit *test, u32 id)
{
	struct isim_test *t = test->priv;
	__le64 *ctx = t->ilq->rings + 1024 / 8;
	u64 w[8] = {};

	memset(ctx, 0, ISIM_QP_HOST_CTX_BYTES);
	ctx[1] = cpu_to_le64(isim_t_bus(t, t->ilq->rings));
	ctx[2] = cpu_to_le64(isim_t_bus(t, t->ilq->rings + 8 * 4));
	ctx[3] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W3_SQ_SIZE, 1) |
			     FIELD_PREP(ISIM_QPC_W3_RQ_SIZE, 1));
	ctx[17] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W17_SQ_CQ, ISIM_T_ILQ) |
			      FIELD_PREP(ISIM_QPC_W17_RQ_CQ, ISIM_T_ILQ));
	ctx[20] = cpu_to_le64(ISIM_QPC_W20_PRIVILEGED);
	ctx[21] = cpu_to_le64(0xabc0);
	ctx[22] = cpu_to_le64(ISIM_T_QS);
	w[2] = isim_t_bus(t, ctx);
	w[5] = isim_t_bus(t, t->shadow) + 64;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_UDA) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE, ISIM_QPS_RTS) |
			  ISIM_QP_HDR_CQ_VALID;
	isim_t_run(t, ISIM_OP_CREATE_QP, w);
}

/*
 * gen1: local MAC table entries 0 (allocated, never set) and
 * ISIM_T_LMAC_IDX (the function's MAC), which gen1 QP contexts name
 */
static void isim_t_lmac(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};
	int i;

	for (i = 0; i <= ISIM_T_LMAC_IDX; i++) {
		isim_t_run(t, ISIM_OP_ALLOC_MAC, NULL);
		KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	}
	w[4] = ISIM_T_LOC_MAC;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_LMAC_HDR_INDEX, ISIM_T_LMAC_IDX);
	isim_t_run(t, ISIM_OP_MANAGE_MAC, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/*
 * an ARP entry for the peer and an IPv4 AH to it, as the CM makes them
 * (gen1, which has no AHs: the local MAC table instead)
 */
static void isim_t_ilq_ah(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[2] = ISIM_T_REM_MAC;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_ARP_HDR_INDEX, ISIM_T_ILQ_ARP) |
			  ISIM_ARP_HDR_VALID;
	isim_t_run(t, ISIM_OP_MANAGE_ARP, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	if (t->f->gen == ISIM_GEN1) {
		isim_t_lmac(test);
		return;
	}
	memset(w, 0, sizeof(w));
	w[0] = ISIM_T_LOC_MAC << 16;
	w[1] = FIELD_PREP(ISIM_AH_W1_TC, 0x10);
	w[2] = FIELD_PREP(ISIM_AH_W2_ARP, ISIM_T_ILQ_ARP) |
	       FIELD_PREP(ISIM_AH_W2_HOP_LIMIT, 64);
	w[4] = ISIM_T_REM_IP;
	w[6] = ISIM_T_LOC_IP;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH) |
			  ISIM_AH_HDR_IPV4;
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* everything the driver sets up before the CM sends or receives */
static void isim_t_ilq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ilq *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->cq = isim_t_page(test);
	q->rings = isim_t_page(test);
	q->bufs = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, q->bufs);
	skb_queue_head_init(&q->frames);
	t->ilq = q;
	t->f->ilq.tx_tap = isim_t_tap;
	isim_t_cqp_ok(test, 2);
	isim_t_ilq_commit(test);
	isim_t_back_sd0(test);
	isim_t_ilq_cq(test);
	isim_t_ilq_qp_post(test, ISIM_T_ILQ);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_ilq_ah(test);
}

/* a TCP header from @sport to @dport with @flags, then @data bytes */
static void isim_t_tcp(u8 *p, u16 sport, u16 dport, u8 flags, u32 data)
{
	struct tcphdr *th = (struct tcphdr *)p;
	u32 i;

	memset(th, 0, sizeof(*th));
	th->source = htons(sport);
	th->dest = htons(dport);
	th->seq = htonl(0x1000);
	th->doff = 5;
	((u8 *)th)[13] = flags;
	th->window = htons(8192);
	for (i = 0; i < data; i++)
		p[sizeof(*th) + i] = 0xa0 + i;
}

/* post SQ WQE @idx: @len bytes of the transmit buffer through AH @ah */
static void isim_t_ilq_send(struct isim_test *t, u32 idx, u32 len, u32 ah)
{
	isim_t_wqe(t->ilq->rings, idx, ISIM_WQOP_SEND,
		   isim_t_bus(t, t->ilq->bufs), len, 0,
		   FIELD_PREP(ISIM_ILQ_SQ_HDR_AH, ah) |
		   FIELD_PREP(ISIM_ILQ_SQ_HDR_L4LEN, 5) | ISIM_WQH_SIGNALED);
}

static void isim_t_check_v4_frame(struct kunit *test, struct sk_buff *skb,
				  u32 seg)
{
	struct ethhdr *eh = (struct ethhdr *)skb->data;
	struct iphdr *ih = (struct iphdr *)(eh + 1);
	struct tcphdr *th = (struct tcphdr *)(ih + 1);
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + sizeof(*ih) + seg));
	u64_to_ether_addr(ISIM_T_REM_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_dest, mac));
	u64_to_ether_addr(ISIM_T_LOC_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_source, mac));
	KUNIT_EXPECT_EQ(test, ntohs(eh->h_proto), (u16)ETH_P_IP);
	KUNIT_EXPECT_TRUE(test, ih->version == 4 && ih->ihl == 5);
	KUNIT_EXPECT_EQ(test, ih->tos, (u8)0x10);
	KUNIT_EXPECT_EQ(test, ih->ttl, (u8)64);
	KUNIT_EXPECT_EQ(test, ih->protocol, (u8)IPPROTO_TCP);
	KUNIT_EXPECT_EQ(test, ntohs(ih->tot_len), (u16)(sizeof(*ih) + seg));
	KUNIT_EXPECT_EQ(test, ntohl(ih->saddr), ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, ntohl(ih->daddr), ISIM_T_REM_IP);
	KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(ih, ih->ihl), (u16)0);
	KUNIT_EXPECT_EQ(test,
			(__force u16)csum_tcpudp_magic(ih->saddr, ih->daddr,
						       seg, IPPROTO_TCP,
						       csum_partial(th, seg, 0)),
			(u16)0);
	KUNIT_EXPECT_EQ(test, ntohs(th->dest), (u16)6000);
	KUNIT_EXPECT_EQ(test, ((u8 *)th)[sizeof(*th) + 7], (u8)0xa7);
}

/* gen1 ILQ send of the @len-byte frame at byte @off of the buffers */
static void isim_t_ilq_g1_send(struct isim_test *t, u32 idx, u32 off,
			       u32 len, u64 w2, u64 hdr)
{
	__le64 *q = t->ilq->rings + idx * 4;

	q[0] = cpu_to_le64(isim_t_bus(t, t->ilq->bufs + off));
	q[1] = cpu_to_le64(FIELD_PREP(ISIM_FRAG_G1_LEN, len));
	q[2] = cpu_to_le64(w2);
	q[3] = cpu_to_le64(FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) | hdr |
			   ISIM_WQH_SIGNALED | ISIM_WQH_VALID);
}

/* a whole IPv4 frame to the peer, as the gen1 CM builds one: 62 bytes */
static u32 isim_t_g1_frame(u8 *p, __be16 proto)
{
	struct ethhdr *eh = (struct ethhdr *)p;
	struct iphdr *ih = (struct iphdr *)(eh + 1);

	u64_to_ether_addr(ISIM_T_REM_MAC, eh->h_dest);
	u64_to_ether_addr(ISIM_T_LOC_MAC, eh->h_source);
	eh->h_proto = proto;
	memset(ih, 0, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->ttl = 64;
	ih->protocol = IPPROTO_TCP;
	ih->tot_len = htons(sizeof(*ih) + 28);
	ih->saddr = htonl(ISIM_T_LOC_IP);
	ih->daddr = htonl(ISIM_T_REM_IP);
	ih->check = ip_fast_csum(ih, ih->ihl);
	isim_t_tcp((u8 *)(ih + 1), 5000, 6000, 0x02, 8);
	return ETH_HLEN + sizeof(*ih) + 28;
}

#define ISIM_T_G1_W2	(FIELD_PREP(ISIM_ILQ_G1_W2_MACLEN, ETH_HLEN / 2) | \
			 FIELD_PREP(ISIM_ILQ_G1_W2_IPLEN, 5) | \
			 FIELD_PREP(ISIM_ILQ_G1_W2_L4LEN, 5))

/*
 * The gen1 ILQ sends the driver's frame as it is; with the loopback bit
 * the frame stays in the function (no offloaded connection takes it
 * here: counted, completed without error); a frame that is not IP, or
 * shorter than word 2 says, completes in error.
 */
static void isim_ilq_gen1_sends_frame_as_is(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	u32 len, bad;
	int i;

	isim_t_ilq(test);
	len = isim_t_g1_frame(t->ilq->bufs, htons(ETH_P_IP));
	bad = isim_t_g1_frame(t->ilq->bufs + 256, htons(ETH_P_ARP));
	isim_t_ilq_g1_send(t, 0, 0, len, ISIM_T_G1_W2, 0);
	isim_t_ilq_g1_send(t, 1, 0, len, ISIM_T_G1_W2,
			   ISIM_ILQ_G1_HDR_LOOPBACK);
	isim_t_ilq_g1_send(t, 2, 256, bad, 0, 0);
	isim_t_ilq_g1_send(t, 3, 0, ETH_HLEN + 20 + 16, ISIM_T_G1_W2, 0);
	isim_t_poll(t);

	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, len);
	KUNIT_EXPECT_EQ(test, memcmp(skb->data, t->ilq->bufs, len), 0);
	KUNIT_EXPECT_EQ(test, skb_network_offset(skb), ETH_HLEN);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	for (i = 0; i < 4; i++) {
		u64 w3 = isim_t_cqe(t->ilq->cq, i, 3);

		KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3),
				(u64)i);
		KUNIT_EXPECT_EQ(test, !!(w3 & ISIM_CQE_W3_ERROR), i >= 2);
		if (i >= 2)
			KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
					(u64)ISIM_WC_LOC_QP_OP);
	}
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W0_BYTES,
					isim_t_cqe(t->ilq->cq, 0, 0)),
			(u64)len);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx_err), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.ieq_bad), 1LL);
}

/*
 * The raw queues are scheduled like any QP: the ILQ on a disabled leaf
 * sends nothing, and its frame goes once the leaf is enabled again.
 */
static void isim_ilq_disabled_leaf_holds_sends(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_ilq(test);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, ISIM_T_LEAF, 1, 0,
					ISIM_WS_HDR_LEAF), 0U);
	isim_t_tcp(t->ilq->bufs, 5000, 6000, 0x02, 8);
	isim_t_ilq_send(t, 0, 28, ISIM_T_ILQ_AH);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
			   ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, t->f->sched.unsched, 1ULL);
	/* the MODIFY's own pass takes it */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, ISIM_T_LEAF, 1, 0,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames), 1U);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
			  ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, t->f->sched.unsched, 1ULL);
}

static void isim_ilq_transmit_adds_headers(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	u64 w3;

	isim_t_ilq(test);
	isim_t_tcp(t->ilq->bufs, 5000, 6000, 0x02, 8);
	isim_t_ilq_send(t, 0, 28, ISIM_T_ILQ_AH);
	/* an AH that does not exist: the WQE completes in error */
	isim_t_ilq_send(t, 1, 28, ISIM_T_ILQ_AH + 1);
	isim_t_poll(t);

	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	isim_t_check_v4_frame(test, skb, 28);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 0ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 1), 0xabc0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W2_QP,
					isim_t_cqe(t->ilq->cq, 0, 2)),
			(u64)ISIM_T_ILQ);
	w3 = isim_t_cqe(t->ilq->cq, 1, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_QP_OP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 1ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx_err), 1LL);
	/* the engine's counters: one IPv4 packet, its IP header and segment */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_TX_PKTS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_TX_OCTETS]),
			(s64)sizeof(struct iphdr) + 28);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_TCP_TX_SEGS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP6_TX_PKTS]),
			0LL);

	/* the drop knob loses the next frame; the WQE still completes */
	atomic_set(&t->f->faults.drop_cm, 1);
	isim_t_ilq_send(t, 2, 28, ISIM_T_ILQ_AH);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 2, 3) &
				ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.dropped), 1LL);
}

/* a listener filter on 192.0.2.1:5000 for the ILQ */
static void isim_t_syn_filter(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 qh[8] = {};

	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, 5000) |
		FIELD_PREP(ISIM_QH_W1_QPN, ISIM_T_ILQ);
	qh[6] = ISIM_T_LOC_IP;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, ISIM_QH_TCP_SYN) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* a frame 192.0.2.2:40000 -> 192.0.2.1:@dport as eth_type_trans() leaves it */
static struct sk_buff *isim_t_rx_frame(struct kunit *test, u16 dport,
				       u8 flags, u16 vlan)
{
	u32 seg = sizeof(struct tcphdr) + 4;
	struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);
	struct ethhdr *eh;
	struct iphdr *ih;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	eh = skb_put_zero(skb, ETH_HLEN);
	u64_to_ether_addr(ISIM_T_LOC_MAC, eh->h_dest);
	u64_to_ether_addr(ISIM_T_REM_MAC, eh->h_source);
	eh->h_proto = htons(ETH_P_IP);
	ih = skb_put_zero(skb, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->tot_len = htons(sizeof(*ih) + seg);
	ih->ttl = 64;
	ih->protocol = IPPROTO_TCP;
	ih->saddr = htonl(ISIM_T_REM_IP);
	ih->daddr = htonl(ISIM_T_LOC_IP);
	isim_t_tcp(skb_put(skb, seg), 40000, dport, flags, 4);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	if (vlan)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), vlan);
	return skb;
}

/* offer a frame to the filters; one the engine did not take is freed */
static bool isim_t_steer(struct kunit *test, u16 dport, u8 flags, u16 vlan)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = isim_t_rx_frame(test, dport, flags, vlan);

	if (isim_ilq_steer(t->f, skb))
		return true;
	kfree_skb(skb);
	return false;
}

static void isim_ilq_syn_filter_steers_to_rq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *rq;
	u8 *buf;
	u64 w3;

	isim_t_ilq(test);
	rq = t->ilq->rings + 8 * 4;
	buf = t->ilq->bufs + 1024;
	isim_t_syn_filter(test);
	memset(buf, 0xee, 512);
	isim_t_wqe(rq, 0, 0, isim_t_bus(t, buf), 512, 0, 0);

	/* not for the filter: another port, not a SYN, another VLAN */
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5001, 0x02, 0));
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5000, 0x10, 0));
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5000, 0x12, 0));
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5000, 0x02, 7));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 0LL);
	/* what the stack keeps is not the engine's to count */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_RX_PKTS]),
			0LL);
	/* a SYN to the listener lands in the RQ buffer */
	KUNIT_EXPECT_TRUE(test, isim_t_steer(test, 5000, 0x02, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_RX_PKTS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_TCP_RX_SEGS]),
			1LL);
	isim_t_poll(t);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, ISIM_ILQ_RX_IPV4_OFF));
	KUNIT_EXPECT_EQ(test, buf[ISIM_ILQ_RX_IPV4_OFF], (u8)0x45);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf + 40 + 2), (u16)5000);
	KUNIT_EXPECT_EQ(test, buf[40 + 13], (u8)0x02);
	KUNIT_EXPECT_EQ(test, buf[40 + 20 + 3], (u8)0xa3);
	KUNIT_EXPECT_EQ(test, buf[40 + 24], (u8)0xee);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR));
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_IPV4);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_EXT);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W0_BYTES,
					isim_t_cqe(t->ilq->cq, 0, 0)),
			40ULL + 24);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 1), 0xabc0ULL);
	/* the extension: the source MAC, no VLAN */
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 2),
			(u64)ISIM_T_REM_MAC);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 3) &
			      (ISIM_CQE_W7_SMAC_VALID | ISIM_CQE_W7_VLAN_VALID),
			ISIM_CQE_W7_SMAC_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.rx), 1LL);

	/* no RQ buffer posted: the next SYN is taken, dropped and counted */
	KUNIT_EXPECT_TRUE(test, isim_t_steer(test, 5000, 0x02, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 2, 3) &
				 ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.dropped), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.rx), 1LL);
}

static void isim_ilq_bad_commands_fail(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;
	u64 w[8] = {};

	isim_t_ilq(test);
	/* a second ILQ on the same id, one beyond the committed QPs */
	isim_t_ilq_qp_post(test, ISIM_T_ILQ);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	isim_t_ilq_qp_post(test, 4);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	/* an ARP entry beyond the committed ones */
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_ARP_HDR_INDEX, 4) |
			  ISIM_ARP_HDR_VALID;
	isim_t_run(t, ISIM_OP_MANAGE_ARP, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	/* a qhash filter of an unknown type */
	memset(w, 0, sizeof(w));
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, 7) |
			  FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	/* the AH exists already */
	memset(w, 0, sizeof(w));
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH);
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	/* an AH beyond the HMC's FSIAV contexts */
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_AHS);
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	/* the QP still runs: nothing above changed it */
	qp = xa_load(&t->f->qps, ISIM_T_ILQ);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
}

/* ---- offloaded iWARP connections (toe.c) ---- */

#define ISIM_T_IWQP		2
#define ISIM_T_LPORT		7000
#define ISIM_T_RPORT		40000	/* isim_t_rx_frame()'s source port */
#define ISIM_T_SND_NXT		0x11223344
#define ISIM_T_RCV_NXT		0x1000	/* isim_t_tcp()'s sequence number */
#define ISIM_T_RCV_WND		0x20000
#define ISIM_T_RCV_SCALE	2
#define ISIM_T_IW_CTX		0x77
/* an MPA reply frame: key, flags, revision 2, private data length 4 */
static const u8 isim_t_mpa_rep[] = "MPA ID Rep Frame\x10\x02\x00\x04";
#define ISIM_T_MPA_REP_LEN	(sizeof(isim_t_mpa_rep) - 1)

#define ISIM_T_REXMIT		2	/* retransmission timeouts survived */
#define ISIM_T_DUPACKS		3	/* duplicate ACKs to a fast retransmit */

/**
 * struct isim_t_toe - host memory of an offloaded QP
 * @ctx: QP host context
 * @sq: SQ ring (32 quanta), RQ ring in its second half
 * @buf: the LSMM's buffer
 * @aeq: AEQ ring (8 entries)
 */
struct isim_t_toe {
	__le64 *ctx, *sq, *buf, *aeq;
};

/* the QP's Q2: in the page of its context, after the context */
#define ISIM_T_Q2_OFF	2048

static u8 *isim_t_q2(struct isim_t_toe *m)
{
	return (u8 *)m->ctx + ISIM_T_Q2_OFF;
}

/* the context of an iWARP QP connected 192.0.2.1:7000 - 192.0.2.2:40000 */
static void isim_t_toe_ctx(struct isim_test *t, struct isim_t_toe *m,
			   u64 *ctx)
{
	memset(ctx, 0, ISIM_QP_HOST_CTX_BYTES);
	ctx[0] = ISIM_QPC_W0_IPV4;
	ctx[1] = isim_t_bus(t, m->sq);
	ctx[2] = isim_t_bus(t, m->sq + 256);
	ctx[3] = FIELD_PREP(ISIM_QPC_W3_SQ_SIZE, 3) |
		 FIELD_PREP(ISIM_QPC_W3_RQ_SIZE, 1) |
		 FIELD_PREP(ISIM_QPC_W3_TTL, 32) |
		 FIELD_PREP(ISIM_QPC_W3_TOS, 0x28) |
		 FIELD_PREP(ISIM_QPC_W3_SRC_PORT, ISIM_T_LPORT) |
		 FIELD_PREP(ISIM_QPC_W3_DST_PORT, ISIM_T_RPORT);
	ctx[ISIM_QPC_W_REM_ADDR] = ISIM_T_REM_IP;
	ctx[6] = FIELD_PREP(ISIM_QPC_W6_SNDMSS, 1460) |
		 FIELD_PREP(ISIM_QPC_W6_ARP_IDX, ISIM_T_ILQ_ARP);
	ctx[7] = FIELD_PREP(ISIM_QPC_W7_TCP_STATE, ISIM_QPC_TCPS_ESTABLISHED) |
		 FIELD_PREP(ISIM_QPC_W7_RCV_SCALE, ISIM_T_RCV_SCALE);
	ctx[10] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_SND_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, 0xffff);
	ctx[11] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_RCV_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, ISIM_T_RCV_WND);
	ctx[16] = FIELD_PREP(ISIM_QPC_W16_REXMIT_THRESH, ISIM_T_REXMIT);
	ctx[17] = FIELD_PREP(ISIM_QPC_W17_SQ_CQ, ISIM_T_ILQ) |
		  FIELD_PREP(ISIM_QPC_W17_RQ_CQ, ISIM_T_ILQ);
	/* gen1 leaves word 19's MAC 0 and names a local MAC table entry */
	if (t->f->gen == ISIM_GEN1)
		ctx[3] |= FIELD_PREP(ISIM_QPC_W3_G1_SRCMAC_IDX, ISIM_T_LMAC_IDX);
	else
		ctx[19] = FIELD_PREP(ISIM_QPC_W19_LOCAL_MAC, ISIM_T_LOC_MAC);
	ctx[20] = ISIM_QPC_W20_PRIVILEGED;
	ctx[18] = isim_t_bus(t, m->ctx) + ISIM_T_Q2_OFF;
	ctx[21] = ISIM_T_IW_CTX;
	ctx[22] = ISIM_T_QS;
	ctx[ISIM_QPC_W_LOC_ADDR] = ISIM_T_LOC_IP;
}

/* CREATE_QP or MODIFY_QP of iWARP QP @id to @state with context @ctx */
static void isim_t_toe_cmd(struct isim_test *t, struct isim_t_toe *m,
			   u32 op, u32 id, u8 state, bool tcp, const u64 *ctx)
{
	u64 w[8] = {};
	int i;

	for (i = 0; i < ISIM_QP_HOST_CTX_BYTES / 8; i++)
		m->ctx[i] = cpu_to_le64(ctx[i]);
	w[2] = isim_t_bus(t, m->ctx);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_IWARP) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE, state) |
			  (tcp ? ISIM_QP_HDR_TCPCTX_VALID : 0);
	isim_t_run(t, op, w);
}

/* the ILQ's setup, an AEQ, and iWARP QP @id created idle */
static struct isim_t_toe *isim_t_toe(struct kunit *test, u32 id)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	u64 w[8] = {};

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->ctx = isim_t_page(test);
	m->sq = isim_t_page(test);
	m->buf = isim_t_page(test);
	m->aeq = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, m->aeq);
	isim_t_ilq(test);
	w[2] = 8;
	w[4] = isim_t_bus(t, m->aeq);
	isim_t_run(t, ISIM_OP_CREATE_AEQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_ctx(t, m, ctx);
	isim_t_toe_cmd(t, m, ISIM_OP_CREATE_QP, id, ISIM_QPS_IDLE, false, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	return m;
}

/* hand the connection of isim_t_toe_ctx() to QP @id */
static struct isim_qp *isim_t_offload(struct kunit *test,
				      struct isim_t_toe *m, u32 id)
{
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	struct isim_qp *qp;

	isim_t_toe_ctx(t, m, ctx);
	isim_t_toe_cmd(t, m, ISIM_OP_MODIFY_QP, id, ISIM_QPS_RTS, true, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	qp = xa_load(&t->f->qps, id);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_ASSERT_TRUE(test, qp->toe.linked);
	return qp;
}

/* QP ISIM_T_IWQP of a new offload set-up (*@m) handed to the engine */
static struct isim_qp *isim_t_toe_up(struct kunit *test,
				     struct isim_t_toe **m)
{
	*m = isim_t_toe(test, ISIM_T_IWQP);
	return isim_t_offload(test, *m, ISIM_T_IWQP);
}

/* AEQE @i of @m's AEQ: code, QP id; valid bit checked */
static u64 isim_t_toe_ae(struct kunit *test, struct isim_t_toe *m, u32 i,
			 u32 *id)
{
	u64 w1 = le64_to_cpu(m->aeq[2 * i + 1]);

	KUNIT_EXPECT_TRUE(test, w1 & ISIM_AEQE_VALID);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(m->aeq[2 * i]), (u64)ISIM_T_IW_CTX);
	*id = FIELD_GET(ISIM_AEQE_ID_LO, w1);
	return FIELD_GET(ISIM_AEQE_CODE, w1);
}

/* AEQE @i of @m's AEQ: the QP state and TCP state it reports, as iw << 4 | tcp */
static u32 isim_t_toe_ae_states(struct isim_t_toe *m, u32 i)
{
	u64 w1 = le64_to_cpu(m->aeq[2 * i + 1]);

	return FIELD_GET(ISIM_AEQE_IWSTATE, w1) << 4 |
	       FIELD_GET(ISIM_AEQE_TCPSTATE, w1);
}

/**
 * struct isim_toe_case - one broken field of a TCP context
 * @name: what is wrong
 * @word: context word
 * @mask: the field
 * @val: its new value
 * @minor: how MODIFY_QP fails
 */
struct isim_toe_case {
	const char *name;
	u8 word;
	u64 mask;
	u64 val;
	u16 minor;
};

static const struct isim_toe_case isim_toe_cases[] = {
	{ "valid", 0, 0, 0, ISIM_MIN_OK },
	{ "no_arp_entry", 6, ISIM_QPC_W6_ARP_IDX, 3, ISIM_MIN_NO_OBJECT },
	{ "mss_0", 6, ISIM_QPC_W6_SNDMSS, 0, ISIM_MIN_BAD_FIELD },
	{ "mss_9000", 6, ISIM_QPC_W6_SNDMSS, 9000, ISIM_MIN_BAD_FIELD },
	{ "ipv4_with_ipv6_words", 5, ~0ULL, 0x20010db8ULL << 32,
	  ISIM_MIN_BAD_FIELD },
	{ "ipv4_address_without_ipv4_bit", 0, ISIM_QPC_W0_IPV4, 0,
	  ISIM_MIN_BAD_FIELD },
	{ "no_local_address", ISIM_QPC_W_LOC_ADDR, ~0ULL, 0,
	  ISIM_MIN_BAD_FIELD },
	{ "remote_port_0", 3, ISIM_QPC_W3_DST_PORT, 0, ISIM_MIN_BAD_FIELD },
	{ "no_local_mac", 19, ~0ULL, 0, ISIM_MIN_BAD_FIELD },
	{ "tcp_state_syn_rcvd", 7, ISIM_QPC_W7_TCP_STATE, 4, ISIM_MIN_BAD_FIELD },
	{ "window_scale_15", 7, ISIM_QPC_W7_SND_SCALE, 15, ISIM_MIN_BAD_FIELD },
};

/*
 * gen1: the source MAC is the local MAC table entry word 3 names; one
 * that is not allocated, or not set, leaves the engine no MAC to send from
 */
static const struct isim_toe_case isim_toe_gen1_cases[] = {
	{ "valid", 0, 0, 0, ISIM_MIN_OK },
	{ "mac_entry_not_set", 3, ISIM_QPC_W3_G1_SRCMAC_IDX, 0,
	  ISIM_MIN_NO_OBJECT },
	{ "mac_entry_not_allocated", 3, ISIM_QPC_W3_G1_SRCMAC_IDX, 5,
	  ISIM_MIN_NO_OBJECT },
	{ "mac_entry_past_table", 3, ISIM_QPC_W3_G1_SRCMAC_IDX, 63,
	  ISIM_MIN_NO_OBJECT },
	{ "word19_mac_not_used", 19, ~0ULL, ISIM_T_REM_MAC << 16,
	  ISIM_MIN_OK },
	{ "no_arp_entry", 6, ISIM_QPC_W6_ARP_IDX, 3, ISIM_MIN_NO_OBJECT },
};

static void isim_toe_case_desc(const struct isim_toe_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(isim_toe, isim_toe_cases, isim_toe_case_desc);
KUNIT_ARRAY_PARAM(isim_toe_gen1, isim_toe_gen1_cases, isim_toe_case_desc);

static void isim_toe_modify_checks_context(struct kunit *test)
{
	const struct isim_toe_case *c = test->param_value;
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	struct isim_t_toe *m;
	struct isim_qp *qp;

	m = isim_t_toe(test, ISIM_T_IWQP);
	isim_t_toe_ctx(t, m, ctx);
	if (c->mask)
		ctx[c->word] = (ctx[c->word] & ~c->mask) |
			       ((c->val << __ffs64(c->mask)) & c->mask);
	isim_t_toe_cmd(t, m, ISIM_OP_MODIFY_QP, ISIM_T_IWQP, ISIM_QPS_RTS, true,
		       ctx);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)c->minor);
	qp = xa_load(&t->f->qps, ISIM_T_IWQP);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->toe.linked, !c->minor);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, c->minor ? 0U : 1U);
	/* a refused command leaves the QP as it was */
	KUNIT_EXPECT_EQ(test, qp->state,
			(u8)(c->minor ? ISIM_QPS_IDLE : ISIM_QPS_RTS));
	if (c->minor)
		return;
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.mss, (u16)1460);
	KUNIT_EXPECT_EQ(test, ether_addr_to_u64(qp->toe.loc_mac),
			ISIM_T_LOC_MAC);
	/* destroying the QP gives the 4-tuple up */
	isim_t_qp_cmd(t, ISIM_OP_DESTROY_QP, ISIM_T_IWQP, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
}

/* ---- gen1 SQ WQE layouts (exec.c) ---- */

/* an SQ WQE for isim_exec_payload(), @quanta of @w, as read from a ring */
static struct isim_xfer *isim_t_xfer(struct kunit *test, const u64 *w,
				     u8 quanta)
{
	struct isim_test *t = test->priv;
	struct isim_xfer *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, x);
	x->f = t->f;
	x->req.quanta = quanta;
	x->req.gen = t->f->gen;
	for (i = 0; i < quanta * 4; i++) {
		x->req.w[i] = w[i];
		x->req.raw[i] = cpu_to_le64(w[i]);
	}
	return x;
}

/*
 * Two fragments in the generation's layout: gen2 STag 31:0 and length
 * 62:32 with the valid bit, gen1 length 31:0 and STag 63:32.
 */
static void isim_exec_payload_reads_fragments(struct kunit *test)
{
	struct isim_test *t = test->priv;
	bool g1 = t->f->gen == ISIM_GEN1;
	struct isim_xfer *x;
	struct isim_qp *qp;
	const u8 *inl;
	u64 w[8] = {};

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp_type(test, 2, ISIM_QP_TYPE_IWARP, 0, ISIM_QPS_RTS,
				 t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	w[0] = 0x10000;
	w[1] = g1 ? FIELD_PREP(ISIM_FRAG_G1_LEN, 100) :
		    FIELD_PREP(ISIM_FRAG_LEN, 100) | BIT_ULL(63);
	w[4] = 0x20000;
	w[5] = g1 ? FIELD_PREP(ISIM_FRAG_G1_LEN, 28) :
		    FIELD_PREP(ISIM_FRAG_LEN, 28) | BIT_ULL(63);
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) |
	       FIELD_PREP(ISIM_WQH_MORE_FRAGS, g1 ? 1 : 2);
	x = isim_t_xfer(test, w, 2);
	mutex_lock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl), 0);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_NULL(test, inl);
	KUNIT_EXPECT_EQ(test, x->local.n, 2U);
	KUNIT_EXPECT_EQ(test, x->len, 128ULL);
	KUNIT_EXPECT_EQ(test, x->local.sge[0].len, 100ULL);
	KUNIT_EXPECT_EQ(test, x->local.sge[0].stag, 0U);
	KUNIT_EXPECT_EQ(test, x->local.sge[1].addr, 0x20000ULL);
	/* a local invalidate's STag is the fragment's */
	KUNIT_EXPECT_EQ(test, isim_frag_stag(t->f->gen,
					     g1 ? 0x1234ULL << 32 : 0x1234),
			0x1234U);
}

/*
 * gen1 inline data: bytes 0..15 of quantum 0, then all of quantum 1, at
 * most 48; at most three fragments; no WQE across a 2-quantum boundary
 */
static void isim_exec_payload_gen1_inline_and_limits(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_xfer *x;
	struct isim_qp *qp;
	const u8 *inl;
	u8 *raw, want[48];
	u64 w[8] = {};
	int i;

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp_type(test, 2, ISIM_QP_TYPE_IWARP, 0, ISIM_QPS_RTS,
				 t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) | ISIM_WQH_INLINE |
	       FIELD_PREP(ISIM_WQH_INLINE_LEN, sizeof(want));
	x = isim_t_xfer(test, w, 2);
	raw = (u8 *)x->req.raw;
	for (i = 0; i < sizeof(want); i++) {
		want[i] = 0x40 + i;
		raw[i < 16 ? i : i + 16] = want[i];
	}
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl), 0);
	KUNIT_ASSERT_NOT_NULL(test, inl);
	KUNIT_EXPECT_EQ(test, x->len, (u64)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(inl, want, sizeof(want)), 0);
	/* 49 bytes do not fit */
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) | ISIM_WQH_INLINE |
	       FIELD_PREP(ISIM_WQH_INLINE_LEN, 49);
	x = isim_t_xfer(test, w, 2);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl),
			(int)ISIM_WC_LOC_QP_OP);
	/* four fragments do not either */
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) |
	       FIELD_PREP(ISIM_WQH_MORE_FRAGS, 3);
	x = isim_t_xfer(test, w, 2);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl),
			(int)ISIM_WC_LOC_QP_OP);
	/* three do, but not from an odd quantum: it would cross a pair */
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) |
	       FIELD_PREP(ISIM_WQH_MORE_FRAGS, 2);
	x = isim_t_xfer(test, w, 2);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl), 0);
	x->req.idx = 3;
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl),
			(int)ISIM_WC_LOC_QP_OP);
}

/*
 * gen1 quanta per SQ WQE: 40 bytes inline take two (three on gen2), three
 * fragments two; a flush completes each WQE at its first quantum, the
 * padding NOP not at all.
 */
static void isim_exec_sq_quanta_gen1(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp_type(test, 2, ISIM_QP_TYPE_IWARP, 0, ISIM_QPS_RTS,
				 t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	isim_t_wqe(t->sq, 0, ISIM_WQOP_SEND, 0, 0, 0, ISIM_WQH_INLINE |
		   FIELD_PREP(ISIM_WQH_INLINE_LEN, 40));
	t->sq[1 * 4 + 3] = cpu_to_le64(0);	/* no valid bit on gen1 */
	isim_t_wqe(t->sq, 2, ISIM_WQOP_SEND, 0x10000, 8, 0, 0);
	/* a two-quantum WQE never starts at an odd quantum: a NOP pads */
	isim_t_wqe(t->sq, 3, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(t->sq, 4, ISIM_WQOP_SEND, 0x10000, 8, 0,
		   FIELD_PREP(ISIM_WQH_MORE_FRAGS, 2));
	isim_t_wqe(t->sq, 6, ISIM_WQOP_WRITE, 0x10000, 8, 0, 0);
	mutex_lock(&t->f->eng_lock);
	isim_exec_flush(t->f, qp, &qp->sq, 5);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 0, 3)), 0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 1, 3)), 2ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 2, 3)), 4ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 3, 3)), 6ULL);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 7U);
}

/*
 * A type 2 window bound to an MR: gen2 has the window's STag in word 1
 * bits 31:0 and the MR's in 63:32, gen1 the other way round.
 */
static void isim_stag_bind_reads_generation_layout(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u32 mr = 2 << 8 | 0x5a, mw = 3 << 8 | 0x77;
	bool g1 = t->f->gen == ISIM_GEN1;
	struct isim_stag *st;
	u64 w[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_MR, 8);
	isim_t_stag(t, ISIM_OP_REG_MR, 2, 3, SZ_4K, ISIM_T_MR |
		    ISIM_T_RIGHTS(ISIM_RIGHT_MW_BIND | ISIM_T_LW), 0x10000);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_stag(t, ISIM_OP_ALLOC_STAG, 3, 3, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	w[0] = 0x7f0000000000ULL + 64;
	w[1] = g1 ? (u64)mw << 32 | mr : (u64)mr << 32 | mw;
	w[2] = 128;
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_BIND_MW) |
	       ISIM_WQB_HDR_VA_BASED |
	       FIELD_PREP(ISIM_WQB_HDR_RIGHTS, ISIM_RIGHT_REMOTE_READ);
	mutex_lock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_stag_bind(t->f, 3, w), 0);
	mutex_unlock(&t->f->eng_lock);
	st = xa_load(&t->f->stags, 3);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_TRUE(test, st->registered);
	KUNIT_EXPECT_EQ(test, st->parent, mr);
	KUNIT_EXPECT_EQ(test, st->key, (u8)0x77);
	KUNIT_EXPECT_EQ(test, st->len, 128ULL);
}

/* the LSMM: a SEND with STREAMMODE and WAITFORRCVPDU of @len bytes */
static void isim_t_lsmm(struct isim_test *t, struct isim_t_toe *m, u32 len)
{
	isim_t_wqe(m->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, m->buf), len, 0,
		   ISIM_WQH_STREAM_MODE | ISIM_WQH_WAIT_RCV_PDU);
	/* the fenced NOP and GEN_RTS_AE of a three-quanta connection */
	isim_t_wqe(m->sq, 1, ISIM_WQOP_NOP, 0, 0, 0, BIT_ULL(61));
	isim_t_wqe(m->sq, 2, ISIM_WQOP_GEN_RTS_AE, 0, 0, 0, 0);
}

static void isim_t_check_lsmm(struct kunit *test, struct sk_buff *skb,
			      const u8 *payload, u32 len)
{
	struct ethhdr *eh = (struct ethhdr *)skb->data;
	struct iphdr *ih = (struct iphdr *)(eh + 1);
	struct tcphdr *th = (struct tcphdr *)(ih + 1);
	u32 seg = sizeof(*th) + len;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + sizeof(*ih) + seg));
	u64_to_ether_addr(ISIM_T_REM_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_dest, mac));
	u64_to_ether_addr(ISIM_T_LOC_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_source, mac));
	KUNIT_EXPECT_EQ(test, ntohs(eh->h_proto), (u16)ETH_P_IP);
	KUNIT_EXPECT_EQ(test, ih->tos, (u8)0x28);
	KUNIT_EXPECT_EQ(test, ih->ttl, (u8)32);
	KUNIT_EXPECT_EQ(test, ntohs(ih->tot_len), (u16)(sizeof(*ih) + seg));
	KUNIT_EXPECT_EQ(test, ntohl(ih->saddr), ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, ntohl(ih->daddr), ISIM_T_REM_IP);
	KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(ih, ih->ihl), (u16)0);
	KUNIT_EXPECT_EQ(test,
			(__force u16)csum_tcpudp_magic(ih->saddr, ih->daddr,
						       seg, IPPROTO_TCP,
						       csum_partial(th, seg, 0)),
			(u16)0);
	KUNIT_EXPECT_EQ(test, ntohs(th->source), (u16)ISIM_T_LPORT);
	KUNIT_EXPECT_EQ(test, ntohs(th->dest), (u16)ISIM_T_RPORT);
	KUNIT_EXPECT_EQ(test, ntohl(th->seq), (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, ntohl(th->ack_seq), (u32)ISIM_T_RCV_NXT);
	KUNIT_EXPECT_EQ(test, (u16)th->doff, (u16)5);
	/* ACK and PSH only */
	KUNIT_EXPECT_EQ(test, ((u8 *)th)[13], (u8)0x18);
	KUNIT_EXPECT_EQ(test, ntohs(th->window),
			(u16)(ISIM_T_RCV_WND >> ISIM_T_RCV_SCALE));
	KUNIT_EXPECT_EQ(test, memcmp(th + 1, payload, len), 0);
}

/*
 * a segment 192.0.2.2:40000 -> 192.0.2.1:7000 carrying @len bytes, with
 * acknowledgment number @ack and window @wnd
 */
static bool isim_t_toe_rx_seg(struct kunit *test, u8 flags, u32 seq,
			      u32 ack, u16 wnd, const u8 *data, u32 len)
{
	struct isim_test *t = test->priv;
	u32 seg = sizeof(struct tcphdr) + len;
	struct sk_buff *skb = alloc_skb(ETH_HLEN + 20 + seg, GFP_KERNEL);
	struct iphdr *ih;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_zero(skb, ETH_HLEN);
	ih = skb_put_zero(skb, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->tot_len = htons(sizeof(*ih) + seg);
	ih->ttl = 64;
	ih->protocol = IPPROTO_TCP;
	ih->saddr = htonl(ISIM_T_REM_IP);
	ih->daddr = htonl(ISIM_T_LOC_IP);
	p = skb_put(skb, seg);
	isim_t_tcp(p, ISIM_T_RPORT, ISIM_T_LPORT, flags, 0);
	((struct tcphdr *)p)->seq = htonl(seq);
	((struct tcphdr *)p)->ack_seq = htonl(ack);
	((struct tcphdr *)p)->window = htons(wnd);
	memcpy(p + sizeof(struct tcphdr), data, len);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	if (isim_ilq_steer(t->f, skb))
		return true;
	kfree_skb(skb);
	return false;
}

/* the same, acknowledging nothing (0 lies outside any test's snd_una..) */
static bool isim_t_toe_rx_data(struct kunit *test, u8 flags, u32 seq,
			       const u8 *data, u32 len)
{
	return isim_t_toe_rx_seg(test, flags, seq, 0, 8192, data, len);
}

/*
 * RFC 6581's RTR as a zero-length RDMA WRITE to STag 1, TO 0, and its
 * CRC32c 0x5f4cd3eb, least significant byte first
 */
static const u8 isim_t_rtr_write[] = {
	0x00, 0x0e, 0xc1, 0x40, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xeb, 0xd3, 0x4c, 0x5f,
};

/* a segment 192.0.2.2:40000 -> 192.0.2.1:7000, 4 bytes of data */
static bool isim_t_toe_rx(struct kunit *test, u8 flags, u32 seq)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = isim_t_rx_frame(test, ISIM_T_LPORT, flags, 0);

	((struct tcphdr *)(skb->data + sizeof(struct iphdr)))->seq = htonl(seq);
	if (isim_ilq_steer(t->f, skb))
		return true;
	kfree_skb(skb);
	return false;
}

/*
 * The QP of a new offload set-up (*@m) sends its MPA reply as the LSMM;
 * the frame is taken off the wire, checked first when @check.
 */
static struct isim_qp *isim_t_toe_lsmm_sent(struct kunit *test,
					    struct isim_t_toe **m, bool check)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	struct isim_qp *qp;

	qp = isim_t_toe_up(test, m);
	memcpy((*m)->buf, isim_t_mpa_rep, ISIM_T_MPA_REP_LEN);
	isim_t_lsmm(t, *m, ISIM_T_MPA_REP_LEN);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	if (check)
		isim_t_check_lsmm(test, skb, isim_t_mpa_rep,
				  ISIM_T_MPA_REP_LEN);
	kfree_skb(skb);
	return qp;
}

static void isim_toe_lsmm_sent_then_held(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 id;

	qp = isim_t_toe_up(test, &m);
	memcpy(m->buf, mpa, sizeof(mpa) - 1);
	isim_t_lsmm(t, m, sizeof(mpa) - 1);
	isim_t_poll(t);

	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	isim_t_check_lsmm(test, skb, (const u8 *)mpa, sizeof(mpa) - 1);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt,
			(u32)(ISIM_T_SND_NXT + sizeof(mpa) - 1));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tx), 1LL);
	/* WAITFORRCVPDU: the NOP and GEN_RTS_AE wait for the first FPDU */
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_TRUE(test, qp->toe.wait_fpdu);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	/* unsignalled: no CQE */
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
				 ISIM_CQE_W3_VALID);

	/* the peer's first FPDU (its RTR) is the engine's, not the ILQ's */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18, ISIM_T_RCV_NXT,
						   isim_t_rtr_write,
						   sizeof(isim_t_rtr_write)));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rx), 1LL);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.first_fpdu);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	/* it places nothing and is acknowledged with a pure ACK */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt,
			(u32)(ISIM_T_RCV_NXT + sizeof(isim_t_rtr_write)));
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, (u32)(ETH_HLEN + 40));
	KUNIT_EXPECT_EQ(test, ntohl(((struct tcphdr *)(skb->data + ETH_HLEN +
						       20))->ack_seq),
			qp->toe.rcv_nxt);
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + 20 + 13], (u8)0x10);
	kfree_skb(skb);
}

/*
 * RFC 6581's RTR as a zero-length READ request, sink and source STag 1,
 * TO 0, QN 1, MSN 1, and its CRC32c 0xe7d7db27
 */
static const u8 isim_t_rtr_read[] = {
	0x00, 0x2e, 0x41, 0x41, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x27, 0xdb, 0xd7, 0xe7,
};

/* append the CRC32c of the first @len bytes of an FPDU */
static void isim_t_crc(u8 *fpdu, u32 len)
{
	put_unaligned_le32(~__crc32c_le(~0U, fpdu, len), fpdu + len);
}

static void isim_iw_rtr_read_waits_for_response(struct kunit *test)
{
	/* a zero-length READ RESPONSE to STag 1, TO 0; CRC below */
	u8 resp[20] = { 0x00, 0x0e, 0xc1, 0x42, 0x00, 0x00, 0x00, 0x01 };
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u64 w3;
	u32 id;

	qp = isim_t_toe_up(test, &m);
	/* a signalled zero-length READ RTR, then NOP and GEN_RTS_AE */
	isim_t_wqe(m->sq, 0, ISIM_WQOP_READ, 0, 0, 0,
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, 1) | ISIM_WQH_SIGNALED);
	m->sq[1] |= cpu_to_le64(FIELD_PREP(ISIM_FRAG_STAG, 1));
	isim_t_wqe(m->sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(m->sq, 2, ISIM_WQOP_GEN_RTS_AE, 0, 0, 0, 0);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb->len,
			(u32)(ETH_HLEN + 40 + sizeof(isim_t_rtr_read)));
	KUNIT_EXPECT_EQ(test, memcmp(skb->data + ETH_HLEN + 40,
				     isim_t_rtr_read, sizeof(isim_t_rtr_read)),
			0);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt,
			(u32)(ISIM_T_SND_NXT + sizeof(isim_t_rtr_read)));
	/* the READ holds the SQ until its response: no CQE, no AE yet */
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
				 ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_TRUE(test, qp->toe.rd_busy);

	/* the zero-length READ RESPONSE completes it */
	isim_t_crc(resp, 16);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18, ISIM_T_RCV_NXT,
						   resp, sizeof(resp)));
	isim_t_poll(t);
	isim_t_poll(t);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_READ);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 1),
			(u64)ISIM_T_IW_CTX);
	KUNIT_EXPECT_FALSE(test, qp->toe.rd_busy);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, qp->executed, 3ULL);

	/* a second response has no READ to go to */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18,
						   ISIM_T_RCV_NXT + 20,
						   resp, sizeof(resp)));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 1, &id),
			(u64)ISIM_AE_RDMAP_BAD_READ_RESP);
	/* the QP halts for the driver; its connection stays offloaded */
	KUNIT_EXPECT_TRUE(test, qp->term_halted);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
}

/* add (or with @del delete) the CM's filter of @type for remote port @rport */
static void isim_t_toe_qhash(struct isim_test *t, u32 type, u32 rport,
			     bool del)
{
	u64 qh[8] = {};

	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, ISIM_T_LPORT) |
		FIELD_PREP(ISIM_QH_W1_SPORT, rport) |
		FIELD_PREP(ISIM_QH_W1_QPN, ISIM_T_ILQ);
	qh[4] = type == ISIM_QH_TCP_SYN ? 0 : ISIM_T_REM_IP;
	qh[6] = ISIM_T_LOC_IP;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, type) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE,
				      del ? ISIM_QH_DELETE : ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
}

/*
 * The QP that takes its connection's 4-tuple drops the established filter
 * that steered the handshake to the raw queue (Linux 6.1's irdma never
 * deletes it after the offload); other filters stay.
 */
static void isim_toe_offload_drops_established_filter(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;

	m = isim_t_toe(test, ISIM_T_IWQP);
	isim_t_toe_qhash(t, ISIM_QH_TCP_SYN, 0, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT + 1, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_ASSERT_EQ(test, t->f->conn.nqhash, 3U);
	qp = isim_t_offload(test, m, ISIM_T_IWQP);
	KUNIT_ASSERT_TRUE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 2U);
	/* deleting it now finds nothing; the other 4-tuple's goes */
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT, true);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT + 1, true);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 1U);
}

static void isim_toe_fin_and_rst_raise_aes(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u64 qh[8] = {};
	u32 id;

	qp = isim_t_toe_up(test, &m);
	/* the CM's established filter for the 4-tuple is still there */
	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, ISIM_T_LPORT) |
		FIELD_PREP(ISIM_QH_W1_SPORT, ISIM_T_RPORT) |
		FIELD_PREP(ISIM_QH_W1_QPN, ISIM_T_ILQ);
	qh[4] = ISIM_T_REM_IP;
	qh[6] = ISIM_T_LOC_IP;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE,
				      ISIM_QH_TCP_ESTABLISHED) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	/* another QP cannot take the same 4-tuple */
	isim_t_toe_ctx(t, m, ctx);
	isim_t_toe_cmd(t, m, ISIM_OP_CREATE_QP, 3, ISIM_QPS_IDLE, false, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_cmd(t, m, ISIM_OP_MODIFY_QP, 3, ISIM_QPS_RTS, true, ctx);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);

	/* FIN with an FPDU: reported once */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x11, ISIM_T_RCV_NXT,
						   isim_t_rtr_write,
						   sizeof(isim_t_rtr_write)));
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x11, ISIM_T_RCV_NXT,
						   isim_t_rtr_write,
						   sizeof(isim_t_rtr_write)));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_FIN_RECEIVED);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + 21);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
	/* an RST beyond the window is ignored */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx(test, 0x04,
					      ISIM_T_RCV_NXT + 3 * ISIM_T_RCV_WND));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[3]) & ISIM_AEQE_VALID);
	/* one in it resets the connection: AE, error, 4-tuple given up */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx(test, 0x04, ISIM_T_RCV_NXT + 21));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 1, &id),
			(u64)ISIM_AE_LLP_CONN_RESET);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 1),
			ISIM_QPS_ERROR << 4 | ISIM_TCPS_CLOSED);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rst), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 0LL);
	/* the 4-tuple's segments are the filter's again */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx(test, 0x10, ISIM_T_RCV_NXT + 21));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rx), 4LL);
}

/* MODIFY_QP of offloaded QP @id to @state, with RESETCON if @reset */
static void isim_t_toe_close(struct isim_test *t, struct isim_t_toe *m,
			     u32 id, u8 state, bool reset)
{
	u64 w[8] = {};

	w[2] = isim_t_bus(t, m->ctx);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_IWARP) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE, state) |
			  (reset ? ISIM_QP_HDR_RESET_CONN : 0);
	isim_t_run(t, ISIM_OP_MODIFY_QP, w);
}

/* the next transmitted segment: its flags byte, seq and ack; freed */
static u8 isim_t_toe_tx(struct kunit *test, u32 *seq, u32 *ack)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->ilq->frames);
	struct tcphdr *th;
	u8 flags;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + 40));
	th = (struct tcphdr *)(skb->data + ETH_HLEN + 20);
	*seq = ntohl(th->seq);
	*ack = ntohl(th->ack_seq);
	flags = ((u8 *)th)[13];
	kfree_skb(skb);
	return flags;
}

/*
 * The driver closes offloaded QP ISIM_T_IWQP gracefully (MODIFY_QP to
 * CLOSING); after an engine pass the next segment must be our FIN at
 * snd_nxt, acknowledging @ack.
 */
static void isim_t_toe_fin_out(struct kunit *test, struct isim_t_toe *m,
			       u32 ack)
{
	struct isim_test *t = test->priv;
	u32 seq, got;

	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_CLOSING, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &got), (u8)0x11);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, got, ack);
}

static void isim_toe_graceful_close_local_first(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack, id;

	qp = isim_t_toe_up(test, &m);
	/* our FIN at snd_nxt: FIN_WAIT, the 4-tuple still the engine's */
	isim_t_toe_fin_out(test, m, ISIM_T_RCV_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_sent);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 1LL);
	/* sent once, however often the engine passes */
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	/* the peer's ACK of our FIN alone does not end it */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_acked);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	/* its FIN: acknowledged, the close completes, the 4-tuple is free */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_CLOSE_COMPLETE);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	/* reported in CLOSING, the connection in TIME_WAIT (we closed first) */
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 0),
			ISIM_QPS_CLOSING << 4 | ISIM_TCPS_TIME_WAIT);
	/* no FIN_RECEIVED after our own FIN */
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[3]) & ISIM_AEQE_VALID);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.closed), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
}

/*
 * Offloaded QP ISIM_T_IWQP closed by us first: our FIN, then the peer's
 * ACK and FIN in one segment, which we acknowledge; the close completes
 * in TIME_WAIT.
 */
static struct isim_qp *isim_t_toe_time_wait(struct kunit *test,
					    struct isim_t_toe **m)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;
	u32 seq, ack, id;

	qp = isim_t_toe_up(test, m);
	isim_t_toe_fin_out(test, *m, ISIM_T_RCV_NXT);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, *m, 0, &id),
			(u64)ISIM_AE_LLP_CLOSE_COMPLETE);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 1U);
	return qp;
}

/*
 * TIME_WAIT after a close we began: the peer's FIN, sent again because
 * our ACK was lost, is acknowledged again (also when that ACK is lost
 * once more); a bare ACK is not answered; an RST ends it; the QP may go
 * meanwhile.
 */
static void isim_toe_time_wait_acks_fin_again(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack;

	qp = isim_t_toe_time_wait(test, &m);
	/* the driver moves the QP on: the record does not depend on it */
	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_ERROR, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_acks), 1LL);
	/* no AE for it: the QP's connection is over */
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[3]) & ISIM_AEQE_VALID);

	/* a bare ACK: nothing */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	/* that ACK lost too: the next FIN is answered all the same */
	atomic_set(&t->f->faults.drop_toe_acks, 1);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_acks), 3LL);

	/* an RST ends it: the 4-tuple is the filters' again */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x14,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						   ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
}

/*
 * A SYN of the 4-tuple in TIME_WAIT is a new connection: it ends the
 * record and goes to the filters.
 */
static void isim_toe_time_wait_ends_at_syn(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;

	isim_t_toe_time_wait(test, &m);
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x02,
						   ISIM_T_RCV_NXT + 100000, 0,
						   8192, NULL, 0));
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_reused), 1LL);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
}

/*
 * A record whose time is up takes nothing more and goes at the engine's
 * next pass.
 */
static void isim_toe_time_wait_expires(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_toe_tw *tw;
	struct isim_t_toe *m;

	isim_t_toe_time_wait(test, &m);
	tw = list_first_entry(&t->f->conn.tw, struct isim_toe_tw, node);
	KUNIT_EXPECT_TRUE(test, time_after(tw->expires, jiffies));
	/* its time is up */
	tw->expires = jiffies;
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						   ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_acks), 0LL);
}

static void isim_toe_graceful_close_peer_first(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack, id;

	qp = isim_t_toe_up(test, &m);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 8192, NULL, 0));
	isim_t_poll(t);
	/* CLOSE_WAIT: reported, acknowledged, still ours */
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_FIN_RECEIVED);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 0),
			ISIM_QPS_RTS << 4 | ISIM_TCPS_CLOSE_WAIT);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	/* the driver closes: FIN, LAST_ACK */
	isim_t_toe_fin_out(test, m, ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	/* an ACK short of our FIN changes nothing */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	/* the one that covers it completes the close */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 1, &id),
			(u64)ISIM_AE_LLP_CLOSE_COMPLETE);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 1),
			ISIM_QPS_CLOSING << 4 | ISIM_TCPS_CLOSED);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	/* the peer closed first: no TIME_WAIT, the filters have it again */
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x10,
						   ISIM_T_RCV_NXT + 1,
						   ISIM_T_SND_NXT + 1, 8192, NULL, 0));
}

static void isim_toe_resetcon_sends_rst(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack;

	qp = isim_t_toe_up(test, &m);
	/* a graceful close the peer does not answer, then RESETCON */
	isim_t_toe_fin_out(test, m, ISIM_T_RCV_NXT);
	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_ERROR, true);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x14);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rst_tx), 1LL);
	isim_t_poll(t);
	/* nothing after it, no AE: the driver asked for the reset */
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 1LL);
}

/*
 * A graceful close while WQEs are still posted, held behind an LSMM that
 * waits for the peer's first FPDU with the peer's window open: our FIN
 * waits for them (nothing may follow it) and goes once the ring is empty.
 */
static void isim_toe_fin_waits_for_the_sq(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	u32 rtr = sizeof(isim_t_rtr_write), len = sizeof(mpa) - 1;
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 seq, ack;

	qp = isim_t_toe_up(test, &m);
	memcpy(m->buf, mpa, len);
	isim_t_lsmm(t, m, len);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);
	KUNIT_ASSERT_TRUE(test, qp->toe.wait_fpdu);
	KUNIT_ASSERT_TRUE(test, isim_toe_window_open(&qp->toe));

	/* the NOP and GEN_RTS_AE are still posted: no FIN */
	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_CLOSING, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_pending);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 0LL);

	/* the peer's first FPDU releases them; the FIN comes after */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18, ISIM_T_RCV_NXT,
						   isim_t_rtr_write, rtr));
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + rtr);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x11);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + len);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + rtr);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_sent);
	KUNIT_EXPECT_FALSE(test, qp->toe.fin_pending);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 1LL);
}

/* the next frame on the tap is a pure ACK of @ack */
static void isim_t_pure_ack(struct kunit *test, u32 ack)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->ilq->frames);
	const struct tcphdr *th;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	th = (const struct tcphdr *)(skb->data + ETH_HLEN + 20);
	KUNIT_EXPECT_EQ(test, skb->len, (u32)(ETH_HLEN + 40));
	KUNIT_EXPECT_EQ(test, ntohl(th->ack_seq), ack);
	KUNIT_EXPECT_EQ(test, ((const u8 *)th)[13], (u8)0x10);
	kfree_skb(skb);
}

/*
 * The peer's side of TCP: its ACKs bring its window, which the SQ waits
 * for; a duplicate is answered with an ACK and dropped; a retransmission
 * that reaches beyond rcv_nxt gives its new bytes.
 */
static void isim_toe_acks_window_and_duplicates(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	u32 una = ISIM_T_SND_NXT + sizeof(mpa) - 1;
	u32 rtr = sizeof(isim_t_rtr_write);
	struct isim_test *t = test->priv;
	u8 two[2 * sizeof(isim_t_rtr_write)];
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 id;

	memcpy(two, isim_t_rtr_write, rtr);
	memcpy(two + rtr, isim_t_rtr_write, rtr);
	qp = isim_t_toe_up(test, &m);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, (u32)ISIM_T_SND_NXT);
	memcpy(m->buf, mpa, sizeof(mpa) - 1);
	isim_t_lsmm(t, m, sizeof(mpa) - 1);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);

	/* the RTR acknowledges nothing and shuts the window */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0,
						  isim_t_rtr_write, rtr));
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.first_fpdu);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_wnd, 0U);
	/* the LSMM's bytes are in flight: the NOP and GEN_RTS_AE wait */
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + rtr);

	/* the same segment again: answered with an ACK, dropped */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0,
						  isim_t_rtr_write, rtr));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + rtr);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + rtr);

	/* resent with a second RTR behind it: the new FPDU is taken */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0, two,
						  sizeof(two)));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + 2 * rtr);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + 2 * rtr);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);

	/* an ACK beyond snd_nxt is not acceptable: nothing moves */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 2 * rtr,
						  una + 1, 8192, two, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	/* the LSMM's ACK opens the window: the SQ goes on */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 2 * rtr,
						  una, 8192, two, 0));
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, una);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_wnd, 8192U);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_ESTABLISHED);
	/* pure ACKs are not answered */
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
}

/* the retransmission timer of @qp expires at the next pass */
static void isim_t_rto_expire(struct isim_test *t, struct isim_qp *qp)
{
	mutex_lock(&t->f->eng_lock);
	qp->toe.rto_due = jiffies - 1;
	mutex_unlock(&t->f->eng_lock);
	isim_t_poll(t);
}

static u32 isim_t_rtx_count(struct isim_qp *qp)
{
	struct list_head *pos;
	u32 n = 0;

	list_for_each(pos, &qp->toe.rtxq)
		n++;
	return n;
}

/*
 * Nothing acknowledges the LSMM: each expiry of the timer sends it again,
 * the same bytes at the same sequence number, with the timeout doubled;
 * the expiry after REXMIT_THRESH resends fails the connection.
 */
static void isim_toe_resends_then_gives_up(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 id, i;

	qp = isim_t_toe_lsmm_sent(test, &m, true);
	KUNIT_EXPECT_EQ(test, qp->toe.rexmit_thresh, (u8)ISIM_T_REXMIT);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(qp), 1U);
	/* not due yet: nothing goes, but a pass is asked for by then */
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, t->f->wake.due_set);
	KUNIT_EXPECT_EQ(test, t->f->wake.due, qp->toe.rto_due);

	for (i = 1; i <= ISIM_T_REXMIT; i++) {
		isim_t_rto_expire(t, qp);
		skb = skb_dequeue(&t->ilq->frames);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		isim_t_check_lsmm(test, skb, isim_t_mpa_rep, ISIM_T_MPA_REP_LEN);
		kfree_skb(skb);
		KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
		KUNIT_EXPECT_EQ(test, qp->toe.retries, (u8)i);
		KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), (s64)i);
		KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
		KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	}
	/* doubled from the test's timeout, then held at the most */
	KUNIT_EXPECT_EQ(test, qp->toe.rto_ms, 8000U);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt,
			(u32)ISIM_T_SND_NXT + ISIM_T_MPA_REP_LEN);

	isim_t_rto_expire(t, qp);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_TOO_MANY_RETRIES);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts),
			(s64)ISIM_T_REXMIT + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.gave_up), 1LL);
}

/*
 * The peer's ACK of the LSMM is waiting in the engine's queue when the
 * timer expires (a busy machine): the pass looks at it first, so nothing
 * is sent again and no expiry is counted.
 */
static void isim_toe_queued_ack_beats_timer(struct kunit *test)
{
	u32 una = ISIM_T_SND_NXT + ISIM_T_MPA_REP_LEN;
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u8 none = 0;

	qp = isim_t_toe_lsmm_sent(test, &m, false);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  una, 8192, &none, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&qp->toe.rx_queued), 1);
	isim_t_rto_expire(t, qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp->toe.rx_queued), 0);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, una);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(qp), 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 0LL);
	KUNIT_EXPECT_EQ(test, t->f->toe.rxq_max, 1U);
}

/*
 * The third duplicate ACK sends the unacknowledged LSMM again at once (a
 * fourth does not); the ACK that covers it empties the queue and resets
 * the count of expiries.
 */
static void isim_toe_third_dup_ack_resends(struct kunit *test)
{
	u32 una = ISIM_T_SND_NXT + ISIM_T_MPA_REP_LEN;
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u8 none = 0;
	u32 i;

	qp = isim_t_toe_lsmm_sent(test, &m, false);
	/* the first brings a new window: not a duplicate */
	for (i = 0; i < 1 + ISIM_T_DUPACKS; i++) {
		KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
							  ISIM_T_RCV_NXT,
							  ISIM_T_SND_NXT, 8192,
							  &none, 0));
		isim_t_poll(t);
		KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames),
				i == ISIM_T_DUPACKS ? 1U : 0U);
	}
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	isim_t_check_lsmm(test, skb, isim_t_mpa_rep, ISIM_T_MPA_REP_LEN);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts), 0LL);
	/* a fourth duplicate: no second fast retransmit */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 8192, &none,
						  0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	isim_t_rto_expire(t, qp);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, qp->toe.retries, (u8)1);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  una, 8192, &none, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, una);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(qp), 0U);
	KUNIT_EXPECT_EQ(test, qp->toe.retries, (u8)0);
	KUNIT_EXPECT_EQ(test, qp->toe.rto_ms, (u32)ISIM_T_RTO_MS);
	/* nothing in flight: an expiry sends nothing */
	isim_t_rto_expire(t, qp);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
}

/* ---- iWARP data between two offloaded QPs of one function ---- */

#define ISIM_T_IWQP_B		3
#define ISIM_T_STAG		0x15a	/* MR 1, key 0x5a: all of memory */
#define ISIM_T_BAD_STAG		0x25a	/* no such MR */

/**
 * struct isim_t_pair - QP 2 and QP 3, the two ends of one connection
 * @a: QP 2's memory (its AEQ is the function's)
 * @b: QP 3's memory
 * @qa: QP 2
 * @qb: QP 3
 */
struct isim_t_pair {
	struct isim_t_toe *a, *b;
	struct isim_qp *qa, *qb;
};

/*
 * both QPs in RTS, offloaded, remote write and read allowed, MR 1; QP 3's
 * context names @ieq as its IEQ (0: none)
 */
static void isim_t_pair_ieq(struct kunit *test, struct isim_t_pair *p,
			    u16 ieq)
{
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	u64 ports;

	p->a = isim_t_toe(test, ISIM_T_IWQP);
	p->b = kunit_kzalloc(test, sizeof(*p->b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->b);
	p->b->ctx = isim_t_page(test);
	p->b->sq = isim_t_page(test);
	p->b->buf = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, p->b->buf);
	p->b->aeq = p->a->aeq;
	isim_t_stag(t, ISIM_OP_REG_MR, 1, 0, 0, ISIM_T_MR |
		    ISIM_STAG_HDR_REMOTE |
		    ISIM_T_RIGHTS(ISIM_T_LW | ISIM_T_RW | ISIM_T_RR), 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);

	isim_t_toe_ctx(t, p->a, ctx);
	ctx[20] |= ISIM_QPC_W20_REMOTE_WRITE | ISIM_QPC_W20_REMOTE_READ;
	isim_t_toe_cmd(t, p->a, ISIM_OP_MODIFY_QP, ISIM_T_IWQP, ISIM_QPS_RTS,
		       true, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);

	/* the mirror image: addresses, ports and sequence numbers swapped */
	isim_t_toe_ctx(t, p->b, ctx);
	ctx[20] |= ISIM_QPC_W20_REMOTE_WRITE | ISIM_QPC_W20_REMOTE_READ;
	ports = ISIM_QPC_W3_SRC_PORT | ISIM_QPC_W3_DST_PORT;
	ctx[3] = (ctx[3] & ~ports) |
		 FIELD_PREP(ISIM_QPC_W3_SRC_PORT, ISIM_T_RPORT) |
		 FIELD_PREP(ISIM_QPC_W3_DST_PORT, ISIM_T_LPORT);
	ctx[ISIM_QPC_W_REM_ADDR] = ISIM_T_LOC_IP;
	ctx[ISIM_QPC_W_LOC_ADDR] = ISIM_T_REM_IP;
	ctx[22] |= FIELD_PREP(ISIM_QPC_W22_EXCEPTION_Q, ieq);
	ctx[10] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_RCV_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, 0xffff);
	ctx[11] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_SND_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, ISIM_T_RCV_WND);
	isim_t_toe_cmd(t, p->b, ISIM_OP_CREATE_QP, ISIM_T_IWQP_B, ISIM_QPS_IDLE,
		       false, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_cmd(t, p->b, ISIM_OP_MODIFY_QP, ISIM_T_IWQP_B, ISIM_QPS_RTS,
		       true, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	p->qa = xa_load(&t->f->qps, ISIM_T_IWQP);
	p->qb = xa_load(&t->f->qps, ISIM_T_IWQP_B);
	KUNIT_ASSERT_NOT_NULL(test, p->qa);
	KUNIT_ASSERT_NOT_NULL(test, p->qb);
}

static void isim_t_pair(struct kunit *test, struct isim_t_pair *p)
{
	isim_t_pair_ieq(test, p, 0);
}

/* a transmitted frame comes back in, as the loopback wire turns it */
static void isim_t_wire_in(struct isim_test *t, struct sk_buff *skb)
{
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	if (!isim_ilq_steer(t->f, skb))
		kfree_skb(skb);
}

/* run the engine, turning every frame around, until it is quiet */
static u32 isim_t_wire(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	u32 n = 0, i;

	for (i = 0; i < 32; i++) {
		isim_t_poll(t);
		if (skb_queue_empty(&t->ilq->frames))
			break;
		while ((skb = skb_dequeue(&t->ilq->frames))) {
			isim_t_wire_in(t, skb);
			n++;
		}
	}
	return n;
}

/* CQE @i of the ILQ's CQ (both QPs complete there): word 3, QP checked */
static u64 isim_t_iw_cqe(struct kunit *test, u32 i, u32 qpn)
{
	struct isim_test *t = test->priv;
	u64 w3 = isim_t_cqe(t->ilq->cq, i, 3);

	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W2_QP,
					isim_t_cqe(t->ilq->cq, i, 2)),
			(u64)qpn);
	return w3;
}

static void isim_iw_send_write_read_over_the_wire(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u8 *src, *dst, *wr, *rd;
	u64 w3;
	u32 i;

	isim_t_pair(test, &p);
	src = (u8 *)p.a->buf;
	dst = (u8 *)p.b->buf;
	wr = isim_t_page(test);
	rd = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	for (i = 0; i < PAGE_SIZE; i++)
		src[i] = i * 7 + 3;

	/* SEND with SE of 3000 bytes: DDP segments of 1436, 1436, 128 */
	isim_t_wqe(p.b->sq + 256, 0, 0, isim_t_bus(t, dst), PAGE_SIZE, 0, 0);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_SEND_SOL, isim_t_bus(t, src), 3000, 0,
		   ISIM_WQH_SIGNALED);
	/* three FPDUs, each answered by a pure ACK */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 6U);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3000), 0);
	KUNIT_EXPECT_EQ(test, dst[3000], 0);
	w3 = isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_SEND_SOL);
	w3 = isim_t_iw_cqe(test, 1, ISIM_T_IWQP_B);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SOLICITED);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 0), 3000ULL);
	/* 2 + 18 + payload + pad + 4 bytes per FPDU: 1460, 1460, 152 */
	KUNIT_EXPECT_EQ(test, p.qa->toe.snd_nxt, (u32)ISIM_T_SND_NXT + 3072);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, p.qa->toe.rcv_nxt, p.qb->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_msn[0], 2U);

	/* WRITE of 2000 bytes into MR 1: two FPDUs, two ACKs */
	isim_t_wqe(p.a->sq, 1, ISIM_WQOP_WRITE, isim_t_bus(t, src + 100), 2000,
		   isim_t_bus(t, wr),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_STAG) |
		   ISIM_WQH_SIGNALED);
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 4U);
	KUNIT_EXPECT_EQ(test, memcmp(src + 100, wr, 2000), 0);
	KUNIT_EXPECT_EQ(test, wr[2000], 0);
	w3 = isim_t_iw_cqe(test, 2, ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_WRITE);
	/* no RQ WQE taken: the next CQE slot is empty */
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 3, 3) &
				 ISIM_CQE_W3_VALID);

	/* READ of 2500 bytes back through MR 1 into a sink of MR 1 */
	isim_t_wqe(p.a->sq, 2, ISIM_WQOP_READ, isim_t_bus(t, rd), 2500,
		   isim_t_bus(t, wr),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_STAG) |
		   ISIM_WQH_SIGNALED);
	p.a->sq[2 * 4 + 1] |= cpu_to_le64(FIELD_PREP(ISIM_FRAG_STAG,
						     ISIM_T_STAG));
	/* the request, two READ RESPONSEs (which ACK it), two ACKs */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 5U);
	KUNIT_EXPECT_EQ(test, memcmp(rd, src + 100, 2000), 0);
	KUNIT_EXPECT_EQ(test, memcmp(rd + 2000, wr + 2000, 500), 0);
	w3 = isim_t_iw_cqe(test, 3, ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_READ);
	KUNIT_EXPECT_EQ(test, p.qa->executed, 3ULL);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.rd_busy);
	KUNIT_EXPECT_EQ(test, p.qa->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(p.a->aeq[1]) & ISIM_AEQE_VALID);
}

/* the FPDU of the frame the engine wrote to @m's Q2, past its headers */
static const u8 *isim_t_q2_fpdu(struct isim_t_toe *m)
{
	const u8 *ip = isim_t_q2(m) + ISIM_Q2_FRAME_OFF + ETH_HLEN;
	const u8 *tcp = ip + (ip[0] & 0x0f) * 4;

	return tcp + (tcp[12] >> 4) * 4;
}

/* which of the first @n AEQEs of @m's AEQ is @code about QP @id, or -1 */
static int isim_t_find_ae(struct isim_t_toe *m, u32 n, u16 code, u32 id)
{
	u64 w1;
	u32 i;

	for (i = 0; i < n; i++) {
		w1 = le64_to_cpu(m->aeq[2 * i + 1]);
		if ((w1 & ISIM_AEQE_VALID) &&
		    FIELD_GET(ISIM_AEQE_CODE, w1) == code &&
		    FIELD_GET(ISIM_AEQE_ID_LO, w1) == id)
			return i;
	}
	return -1;
}

static u8 isim_t_ae_q2(struct isim_t_toe *m, int i)
{
	return FIELD_GET(ISIM_AEQE_Q2DATA, le64_to_cpu(m->aeq[2 * i + 1]));
}

/* MODIFY_QP of iWARP QP @id to TERMINATE: TERMACT @act, TERMLEN @words */
static void isim_t_term(struct isim_test *t, struct isim_t_toe *m, u32 id,
			u8 act, u8 words)
{
	u64 w[8] = {};

	w[1] = FIELD_PREP(ISIM_QP_W1_TERMLEN, words);
	w[2] = isim_t_bus(t, m->ctx);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_IWARP) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE,
				     ISIM_QPS_TERMINATE) |
			  FIELD_PREP(ISIM_QP_HDR_TERM_ACT, act);
	isim_t_run(t, ISIM_OP_MODIFY_QP, w);
}

static void isim_iw_bad_crc_is_rejected(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	struct sk_buff *skb;
	u8 *dst;
	u32 id;

	isim_t_pair(test, &p);
	dst = (u8 *)p.b->buf;
	memset(p.a->buf, 0x5c, 64);
	isim_t_wqe(p.b->sq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, p.a->buf), 64, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* one payload byte changes on the way; TCP does not notice */
	skb->data[skb->len - 10] ^= 0x01;
	isim_t_wire_in(t, skb);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, p.a, 0, &id),
			(u64)ISIM_AE_LLP_MPA_CRC);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP_B);
	/* B halts for the driver, the segment at fault in its Q2 */
	KUNIT_EXPECT_TRUE(test, p.qb->term_halted);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.linked);
	KUNIT_EXPECT_EQ(test, isim_t_ae_q2(p.a, 0), ISIM_AEQ_Q2_FRAME);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(isim_t_q2_fpdu(p.b)), 18 + 64);
	/* nothing placed, the RQ WQE still posted, only A's SQ CQE */
	KUNIT_EXPECT_EQ(test, dst[0], 0);
	KUNIT_EXPECT_EQ(test, p.qb->rq.tail, 0U);
	isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);
	/* the driver's flush completes the RQ WQE */
	mutex_lock(&t->f->eng_lock);
	isim_exec_flush(t->f, p.qb, &p.qb->rq, ISIM_WC_FLUSHED);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				ISIM_CQE_W3_ERROR);
}

/* A WRITEs to a STag B does not have: B halts, the segment in its Q2 */
static void isim_t_bad_write(struct kunit *test, struct isim_t_pair *p)
{
	struct isim_test *t = test->priv;
	const u8 *fpdu;
	u32 id;

	isim_t_pair(test, p);
	memset(p->a->buf, 0x3c, 64);
	isim_t_wqe(p->a->sq, 0, ISIM_WQOP_WRITE, isim_t_bus(t, p->a->buf), 64,
		   isim_t_bus(t, p->b->buf),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_BAD_STAG) |
		   ISIM_WQH_SIGNALED);
	isim_t_wire(test);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, p->a, 0, &id),
			(u64)ISIM_AE_BAD_STAG);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP_B);
	KUNIT_EXPECT_EQ(test, isim_t_ae_q2(p->a, 0), ISIM_AEQ_Q2_FRAME);
	/* the connection stays the engine's while the driver decides */
	KUNIT_EXPECT_TRUE(test, p->qb->term_halted);
	KUNIT_EXPECT_EQ(test, p->qb->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_TRUE(test, p->qb->toe.linked);
	fpdu = isim_t_q2_fpdu(p->b);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(fpdu), 14 + 64);
	KUNIT_EXPECT_EQ(test, fpdu[2], 0xc1);	/* tagged, last, DDP 1 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 4),
			(u32)ISIM_T_BAD_STAG);
	KUNIT_EXPECT_EQ(test, ((u8 *)p->b->buf)[0], 0);
}

static void isim_iw_write_to_bad_stag_fails(struct kunit *test)
{
	struct isim_t_pair p;

	isim_t_bad_write(test, &p);
	/* the requester saw its WRITE leave and completed it */
	isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, p.qa->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, p.qa->term_halted);
}

/*
 * A's own WRITE names a local STag that does not exist: the WQE completes
 * with a local protection error, nothing goes on the wire, and A halts
 * with its connection still offloaded (the driver ends it with a
 * TERMINATE or an RST); the AE names A's SQ. A TERMINATE with TERMACT
 * "TERMINATE and FIN" then sends the driver's message and the FIN.
 */
static void isim_iw_local_sq_error_halts(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u64 w1, w3;
	u32 id;

	isim_t_pair(test, &p);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_WRITE, isim_t_bus(t, p.a->buf), 64,
		   isim_t_bus(t, p.b->buf),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_STAG) |
		   ISIM_WQH_SIGNALED);
	p.a->sq[1] |= cpu_to_le64(FIELD_PREP(ISIM_FRAG_STAG,
					     ISIM_T_BAD_STAG));
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 0U);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, p.a, 0, &id),
			(u64)ISIM_AE_BAD_STAG);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	w1 = le64_to_cpu(p.a->aeq[1]);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_AEQE_SOURCE, w1),
			(u64)ISIM_AE_SRC_SQ);
	KUNIT_EXPECT_TRUE(test, p.qa->term_halted);
	KUNIT_EXPECT_EQ(test, p.qa->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_TRUE(test, p.qa->toe.linked);
	KUNIT_EXPECT_FALSE(test, p.qb->term_halted);

	/* the driver's "local catastrophic" TERMINATE, one word, and FIN */
	memset(isim_t_q2(p.a), 0, 4);
	isim_t_term(t, p.a, ISIM_T_IWQP, ISIM_TERMACT_TERM_AND_FIN, 1);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_GE(test, isim_t_wire(test), 2U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_rx), 1LL);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8,
					     ISIM_AE_LLP_TERMINATE_RECEIVED,
					     ISIM_T_IWQP_B), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(isim_t_q2_fpdu(p.b) + 20), 0U);
	KUNIT_EXPECT_TRUE(test, p.qb->term_halted);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.fin_rcvd);
}

/*
 * B answers the bad WRITE with the driver's TERMINATE and its FIN; A gets
 * it in Q2 with LLP_TERMINATE_RECEIVED, answers with its FIN alone, and
 * both closes complete.
 */
static void isim_iw_terminate_both_ways(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	const u8 *fpdu;
	int i;
	u8 *msg;

	isim_t_bad_write(test, &p);
	msg = isim_t_q2(p.b);
	msg[0] = 0x11;		/* DDP tagged buffer error, invalid STag */
	msg[1] = 0x00;
	msg[2] = ISIM_TERM_HDRCT_M | ISIM_TERM_HDRCT_D;
	msg[3] = 0;
	memcpy(msg + 4, isim_t_q2_fpdu(p.b), 2 + 14);
	/* TERMLEN must say what the control word says: 20 bytes */
	isim_t_term(t, p.b, ISIM_T_IWQP_B, ISIM_TERMACT_TERM_AND_FIN, 4);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
	isim_t_term(t, p.b, ISIM_T_IWQP_B, ISIM_TERMACT_TERM_AND_FIN, 5);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_wire(test);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_rx), 1LL);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8, ISIM_AE_TERMINATE_SENT,
					     ISIM_T_IWQP_B), 0);
	i = isim_t_find_ae(p.a, 8, ISIM_AE_LLP_TERMINATE_RECEIVED,
			   ISIM_T_IWQP);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_EQ(test, isim_t_ae_q2(p.a, i), ISIM_AEQ_Q2_FRAME);
	KUNIT_EXPECT_TRUE(test, p.qa->term_halted);
	/* untagged, last, queue 2, MSN 1, MO 0, then B's message */
	fpdu = isim_t_q2_fpdu(p.a);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(fpdu), 18 + 20);
	KUNIT_EXPECT_EQ(test, fpdu[2], 0x41);
	KUNIT_EXPECT_EQ(test, fpdu[3], 0x47);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 8), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 12), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 16), 0U);
	KUNIT_EXPECT_EQ(test, memcmp(fpdu + 20, msg, 20), 0);
	/* B's FIN followed its TERMINATE */
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8, ISIM_AE_LLP_FIN_RECEIVED,
					     ISIM_T_IWQP), 0);
	isim_t_term(t, p.a, ISIM_T_IWQP, ISIM_TERMACT_FIN, 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_wire(test);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8,
					     ISIM_AE_LLP_CLOSE_COMPLETE,
					     ISIM_T_IWQP), 0);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8,
					     ISIM_AE_LLP_CLOSE_COMPLETE,
					     ISIM_T_IWQP_B), 0);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.linked);
	KUNIT_EXPECT_FALSE(test, p.qb->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_tx), 1LL);
}

/*
 * A pair whose A sends B a signaled SEND of 3000 bytes (byte i is
 * i * @mul + @add) into the page B posted; one pass puts its three
 * segments on the wire.
 */
static void isim_t_send3000(struct kunit *test, struct isim_t_pair *p,
			    u8 mul, u8 add)
{
	struct isim_test *t = test->priv;
	u8 *src;
	u32 i;

	isim_t_pair(test, p);
	src = (u8 *)p->a->buf;
	for (i = 0; i < PAGE_SIZE; i++)
		src[i] = i * mul + add;
	isim_t_wqe(p->b->sq + 256, 0, 0, isim_t_bus(t, p->b->buf), PAGE_SIZE,
		   0, 0);
	isim_t_wqe(p->a->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, src), 3000, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
}

/*
 * The first of a SEND's three segments is lost: the receiver keeps nothing
 * out of order, it drops the two behind it and answers each with a
 * duplicate ACK. When the sender's timer expires all three go again and
 * the SEND arrives whole.
 */
static void isim_iw_lost_segment_is_sent_again(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	struct sk_buff *skb;
	u8 *src, *dst;

	isim_t_send3000(test, &p, 5, 1);
	src = (u8 *)p.a->buf;
	dst = (u8 *)p.b->buf;
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);
	/* two segments in, two duplicate ACKs out */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 4U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.ooo), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 0LL);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(p.qa), 3U);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(p.a->aeq[1]) & ISIM_AEQE_VALID);
	/* the sender completed its SEND when it left; the receiver has none */
	isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);

	mutex_lock(&t->f->eng_lock);
	p.qa->toe.rto_due = jiffies - 1;
	mutex_unlock(&t->f->eng_lock);
	/* the first again; each ACK brings the next: three segments, three ACKs */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 6U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts), 1LL);
	isim_t_iw_cqe(test, 1, ISIM_T_IWQP_B);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 0), 3000ULL);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3000), 0);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, p.qa->toe.snd_una, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(p.qa), 0U);
	KUNIT_EXPECT_EQ(test, p.qa->toe.retries, (u8)0);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.recovering);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
}

/*
 * The timer beats the ACKs of a three-segment SEND that all arrive: with
 * no duplicate ACK to say the receiver saw a hole, only the oldest goes
 * again, and its duplicate is answered and dropped; nothing else is resent.
 */
static void isim_iw_late_ack_resends_oldest_only(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u8 *src, *dst;

	isim_t_send3000(test, &p, 3, 7);
	src = (u8 *)p.a->buf;
	dst = (u8 *)p.b->buf;
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames), 3U);
	/* the timer fires before any ACK came back */
	isim_t_rto_expire(t, p.qa);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames), 4U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 1LL);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.recovering);
	/* three segments, the resent one, and an ACK for each */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 8U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 1LL);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3000), 0);
	isim_t_iw_cqe(test, 1, ISIM_T_IWQP_B);
	KUNIT_EXPECT_EQ(test, p.qa->toe.snd_una, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(p.qa), 0U);
}

/* ---- RoCEv2 UD datagrams (ud.c), on a RoCEv2 function ---- */

#define ISIM_T_UD_A		2	/* the sending UD QP */
#define ISIM_T_UD_B		3	/* the receiving UD QP */
#define ISIM_T_QKEY		0x1234abcd
#define ISIM_T_SELF_ARP		3	/* the function's own MAC */
#define ISIM_T_SELF_AH		6	/* 192.0.2.1 -> 192.0.2.1 */
#define ISIM_T_UD_FRAME		(ETH_HLEN + sizeof(struct iphdr) + 8 + \
				 ISIM_BTH_LEN + ISIM_DETH_LEN)
/* CRC32 of 8 bytes of 0xff from an all-ones seed (the masked LRH) */
#define ISIM_T_ICRC_SEED	0xdebb20e3

/**
 * struct isim_t_ud - the two UD QPs of a UD test, on pages of their own
 *	(the CQP ring and the HMC use the fixture's)
 * @a: QP 2
 * @b: QP 3
 * @sq: QP 2's SQ; QP 3's is in the second half of the page
 * @brq: QP 3's RQ, in the second half of a page whose first is QP 2's
 * @src: payload source
 * @dst: receive buffer
 */
struct isim_t_ud {
	struct isim_qp *a, *b;
	__le64 *sq, *brq;
	u8 *src, *dst;
};

/* an ARP entry for the function's own MAC and an IPv4 AH to itself */
static void isim_t_self_ah(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[2] = ISIM_T_LOC_MAC;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_ARP_HDR_INDEX, ISIM_T_SELF_ARP) |
			  ISIM_ARP_HDR_VALID;
	isim_t_run(t, ISIM_OP_MANAGE_ARP, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	memset(w, 0, sizeof(w));
	w[0] = ISIM_T_LOC_MAC << 16;
	w[1] = FIELD_PREP(ISIM_AH_W1_TC, 0x08);
	w[2] = FIELD_PREP(ISIM_AH_W2_ARP, ISIM_T_SELF_ARP) |
	       FIELD_PREP(ISIM_AH_W2_HOP_LIMIT, 32);
	w[4] = ISIM_T_LOC_IP;
	w[6] = ISIM_T_LOC_IP;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_SELF_AH) |
			  ISIM_AH_HDR_IPV4;
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/*
 * A RoCEv2 function with the ILQ's CQ (CQ 1, where both UD QPs complete)
 * and the self AH; QP 3 takes Q_Key @qkey_b
 */
static void isim_t_ud(struct kunit *test, struct isim_t_ud *u, u32 qkey_b)
{
	struct isim_test *t = test->priv;
	__le64 *rq;

	t->f->protocol = ISIM_AUX_ROCEV2;
	isim_t_ilq(test);
	isim_t_self_ah(test);
	u->src = isim_t_page(test);
	u->dst = isim_t_page(test);
	u->sq = isim_t_page(test);
	rq = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, u->src);
	KUNIT_ASSERT_NOT_NULL(test, u->dst);
	KUNIT_ASSERT_NOT_NULL(test, u->sq);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	u->brq = rq + 256;
	u->a = isim_t_hand_qp_type(test, ISIM_T_UD_A, ISIM_QP_TYPE_ROCE_UD,
				   FIELD_PREP(ISIM_QPC_W8_QKEY, ISIM_T_QKEY),
				   ISIM_QPS_RTS, u->sq, rq);
	u->b = isim_t_hand_qp_type(test, ISIM_T_UD_B, ISIM_QP_TYPE_ROCE_UD,
				   FIELD_PREP(ISIM_QPC_W8_QKEY, qkey_b),
				   ISIM_QPS_RTS, u->sq + 256, u->brq);
	KUNIT_ASSERT_NOT_NULL(test, u->a);
	KUNIT_ASSERT_NOT_NULL(test, u->b);
	KUNIT_ASSERT_EQ(test, u->b->qkey, qkey_b);
}

/* a signalled UD SEND of @len bytes at u->src, SQ quantum @idx of QP 2 */
static void isim_t_ud_send(struct isim_test *t, struct isim_t_ud *u, u32 idx,
			   u8 op, u32 len, u32 ah, u32 qkey)
{
	isim_t_wqe(u->sq, idx, op, isim_t_bus(t, u->src), len,
		   FIELD_PREP(ISIM_WQU_W2_QKEY, qkey) |
		   FIELD_PREP(ISIM_WQU_W2_DEST_QP, ISIM_T_UD_B),
		   FIELD_PREP(ISIM_WQH_AH, ah) | ISIM_WQH_SIGNALED);
}

/* the ICRC of an IPv4 datagram, every variant field masked by hand */
static u32 isim_t_icrc(const u8 *ip, u32 len)
{
	u8 c[256];

	if (len > sizeof(c))
		return 0;
	memcpy(c, ip, len);
	c[1] = 0xff;			/* TOS */
	c[8] = 0xff;			/* TTL */
	c[10] = 0xff;			/* header checksum */
	c[11] = 0xff;
	c[20 + 6] = 0xff;		/* UDP checksum */
	c[20 + 7] = 0xff;
	c[20 + 8 + 4] = 0xff;		/* BTH reserved byte */
	return ~crc32_le(ISIM_T_ICRC_SEED, c, len);
}

/* the one frame the engine sent: a UD SEND_ONLY from QP 2 to QP 3 */
static struct sk_buff *isim_t_ud_frame(struct kunit *test,
				       const struct isim_t_ud *u, u32 len)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->ilq->frames);
	u8 *ip, *udp, *bth;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_ASSERT_EQ(test, skb->len, (u32)ISIM_T_UD_FRAME + len + 4);
	u64_to_ether_addr(ISIM_T_LOC_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(skb->data, mac));
	ip = skb->data + ETH_HLEN;
	udp = ip + sizeof(struct iphdr);
	bth = udp + 8;
	KUNIT_EXPECT_EQ(test, ip[9], (u8)IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, ip[1], (u8)0x08);
	KUNIT_EXPECT_EQ(test, ip[8], (u8)32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp), (u16)(0xc000 | 2));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp + 2), (u16)4791);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp + 4),
			(u16)(8 + 12 + 8 + len + 4));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp + 6), (u16)0);
	KUNIT_EXPECT_EQ(test, bth[0], (u8)0x64);
	KUNIT_EXPECT_EQ(test, bth[1], (u8)0);	/* no SE, no pad, TVer 0 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(bth + 2), (u16)0xffff);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 4), (u32)ISIM_T_UD_B);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 12), (u32)ISIM_T_QKEY);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 16), (u32)ISIM_T_UD_A);
	KUNIT_EXPECT_EQ(test, memcmp(bth + 20, u->src, len), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(bth + 20 + len),
			isim_t_icrc(ip, bth + 20 + len - ip));
	return skb;
}

static void isim_ud_send_loopback_places_grh_and_payload(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq;
	struct isim_t_ud u;
	u64 w3;
	u32 i;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	cq = t->ilq->cq;
	for (i = 0; i < 40; i++)
		u.src[i] = i * 3 + 1;
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 128, 0, 0);
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 40, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_SEND);
	/* the switch turns the frame for our own MAC around */
	isim_t_wire_in(t, isim_t_ud_frame(test, &u, 40));
	isim_t_poll(t);

	/* 20 zero bytes, the IPv4 header, then the payload */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(u.dst, 0, 20));
	KUNIT_EXPECT_EQ(test, u.dst[20], (u8)0x45);
	KUNIT_EXPECT_EQ(test, u.dst[20 + 9], (u8)IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(u.dst + 20 + 12),
			(u32)ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(u.dst + 20 + 16),
			(u32)ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, memcmp(u.dst + 40, u.src, 40), 0);
	/* the RQ CQE, then its extension in the next slot */
	w3 = isim_t_cqe(cq, 1, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR |
				       ISIM_CQE_W3_SOLICITED));
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_EXT);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_IPV4);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_BTH_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 0), 80ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 1), 0x500ULL + ISIM_T_UD_B);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 2),
			FIELD_PREP(ISIM_CQE_W2_QP, ISIM_T_UD_B) | ISIM_T_UD_A);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W6_SMAC, isim_t_cqe(cq, 2, 2)),
			ISIM_T_LOC_MAC);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(cq, 2, 3) & ISIM_CQE_W7_SMAC_VALID);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 2, 3) &
				 (ISIM_CQE_W7_VLAN_VALID | ISIM_CQE_W7_IMM_VALID));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.rx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_UDP_TX]), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_UDP_RX]), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_RX_SENDS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_TCP_TX_SEGS]),
			0LL);
}

/* an inline SEND with immediate data and SE, 5 bytes: 3 pad bytes */
static void isim_ud_send_inline_imm_solicited(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;
	struct sk_buff *skb;
	u8 *bth;
	__le64 *q;
	u64 w3;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	q = u.sq;
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 64, 0, 0);
	q[0] = cpu_to_le64(0xfeedf00d);
	memcpy(&q[1], "hello", 5);
	q[2] = cpu_to_le64(FIELD_PREP(ISIM_WQU_W2_QKEY, ISIM_T_QKEY) |
			   FIELD_PREP(ISIM_WQU_W2_DEST_QP, ISIM_T_UD_B));
	q[3] = cpu_to_le64(FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND_SOL) |
			   FIELD_PREP(ISIM_WQH_AH, ISIM_T_SELF_AH) |
			   FIELD_PREP(ISIM_WQH_INLINE_LEN, 5) | ISIM_WQH_INLINE |
			   ISIM_WQH_IMM | ISIM_WQH_VALID);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb->len, (u32)ISIM_T_UD_FRAME + 4 + 8 + 4);
	bth = skb->data + ETH_HLEN + sizeof(struct iphdr) + 8;
	KUNIT_EXPECT_EQ(test, bth[0], (u8)0x65);
	KUNIT_EXPECT_EQ(test, bth[1], (u8)(0x80 | 3 << 4));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 20), 0xfeedf00dU);
	KUNIT_EXPECT_EQ(test, memcmp(bth + 24, "hello\0\0\0", 8), 0);
	isim_t_wire_in(t, skb);
	isim_t_poll(t);
	/* unsignalled: the RQ CQE is the first */
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR));
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SOLICITED);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_BTH_SEND_ONLY_IMM);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 0), 45ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 0), 0xfeedf00dULL);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				ISIM_CQE_W7_IMM_VALID);
	KUNIT_EXPECT_EQ(test, memcmp(u.dst + 40, "hello", 5), 0);
}

static void isim_ud_wrong_qkey_is_dropped(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;

	isim_t_ud(test, &u, ISIM_T_QKEY + 1);
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 128, 0, 0);
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	isim_t_wire_in(t, isim_t_ud_frame(test, &u, 16));
	isim_t_poll(t);
	/* the SQ CQE only; the RQ WQE is still there */
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 0, 3) & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, u.b->rq.tail, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_qkey), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.rx), 0LL);

	/* a WR Q_Key with the top bit set means the sender QP's own */
	isim_t_ud_send(t, &u, 1, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       0x80000000);
	isim_t_poll(t);
	isim_t_wire_in(t, isim_t_ud_frame(test, &u, 16));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_qkey), 2LL);
}

static void isim_ud_bad_wqes_complete_in_error(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;
	u64 w3;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	/* no such AH, too long, not a SEND, then a good one */
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH + 1,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 1, ISIM_WQOP_SEND, 4097, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 2, ISIM_WQOP_WRITE, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 3, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_QP_OP);
	w3 = isim_t_cqe(t->ilq->cq, 1, 3);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_LEN);
	w3 = isim_t_cqe(t->ilq->cq, 2, 3);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_QP_OP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 2ULL);
	/* the QP is still in RTS and sent the last one */
	w3 = isim_t_cqe(t->ilq->cq, 3, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, u.a->state, (u8)ISIM_QPS_RTS);
	kfree_skb(isim_t_ud_frame(test, &u, 16));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.tx_err), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.tx), 1LL);
}

static void isim_ud_bad_icrc_or_no_rqe_is_dropped(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;
	struct sk_buff *skb;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 128, 0, 0);
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	skb = isim_t_ud_frame(test, &u, 16);
	skb->data[skb->len - 4 - 1] ^= 0x01;	/* last payload byte */
	isim_t_wire_in(t, skb);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_icrc), 1LL);
	KUNIT_EXPECT_EQ(test, u.b->rq.tail, 0U);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);
	/* the same datagram intact lands; a second one finds no RQ WQE */
	isim_t_ud_send(t, &u, 1, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 2, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->ilq->frames), 2U);
	isim_t_wire_in(t, skb_dequeue(&t->ilq->frames));
	isim_t_wire_in(t, skb_dequeue(&t->ilq->frames));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.rx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_no_rqe), 1LL);
	/* a function in iWARP mode leaves RoCEv2 datagrams to the stack */
	t->f->protocol = ISIM_AUX_IWARP;
	isim_t_ud_send(t, &u, 3, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	skb = isim_t_ud_frame(test, &u, 16);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	KUNIT_EXPECT_FALSE(test, isim_ilq_steer(t->f, skb));
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.steered), 3LL);
}

/* ---- partial FPDUs: the IEQ ---- */

/*
 * The part of frame @skb (Ethernet, IPv4, TCP of 20 bytes) whose payload
 * runs from @off for @len bytes, as a segment of its own
 */
static struct sk_buff *isim_t_seg_part(struct kunit *test,
				       const struct sk_buff *skb, u32 off,
				       u32 len)
{
	u32 hdrs = ETH_HLEN + sizeof(struct iphdr) + sizeof(struct tcphdr);
	struct sk_buff *part = alloc_skb(hdrs + len, GFP_KERNEL);
	struct iphdr *ih;
	struct tcphdr *th;

	KUNIT_ASSERT_NOT_NULL(test, part);
	skb_put_data(part, skb->data, hdrs);
	skb_put_data(part, skb->data + hdrs + off, len);
	ih = (struct iphdr *)(part->data + ETH_HLEN);
	th = (struct tcphdr *)(ih + 1);
	ih->tot_len = htons(sizeof(*ih) + sizeof(*th) + len);
	th->seq = htonl(ntohl(th->seq) + off);
	return part;
}

/* receive CQEs of QP @qpn in the ILQ's CQ (extended ones skipped) */
static u32 isim_t_rx_cqes(struct isim_test *t, u32 qpn)
{
	u32 i, n = 0;
	u64 w3;

	for (i = 0; i < 32; i++) {
		w3 = isim_t_cqe(t->ilq->cq, i, 3);
		if (!(w3 & ISIM_CQE_W3_VALID))
			break;
		if (FIELD_GET(ISIM_CQE_W2_QP, isim_t_cqe(t->ilq->cq, i, 2)) ==
		    qpn && !(w3 & ISIM_CQE_W3_SQ))
			n++;
		if (w3 & ISIM_CQE_W3_EXT)
			i++;
	}
	return n;
}

/*
 * A SEND's FPDU reaches B cut in two segments. B's context names the
 * ILQ's QP as its IEQ: the first segment goes there whole with the FPSN
 * in Q2 and nothing placed, and so does the second, though it completes
 * the FPDU; both are acknowledged. The driver's loopback send of the
 * whole FPDU is placed and ends the episode; the same send again finds
 * no episode and is dropped.
 */
static void isim_iw_partial_fpdu_goes_to_ieq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *rq;
	struct sk_buff *skb, *s1, *s2;
	struct isim_t_pair p;
	u8 *dst, *rx0, *rx1, *tx;
	u32 fpsn, i;
	u64 w[8] = {};

	isim_t_pair_ieq(test, &p, ISIM_T_ILQ);
	rq = t->ilq->rings + 8 * 4;
	tx = t->ilq->bufs;
	rx0 = t->ilq->bufs + 1024;
	rx1 = t->ilq->bufs + 2048;
	isim_t_wqe(rq, 0, 0, isim_t_bus(t, rx0), 1024, 0, 0);
	isim_t_wqe(rq, 1, 0, isim_t_bus(t, rx1), 1024, 0, 0);
	dst = (u8 *)p.b->buf;
	for (i = 0; i < 64; i++)
		((u8 *)p.a->buf)[i] = 0x40 + i;
	isim_t_wqe(p.b->sq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, p.a->buf), 64, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* 2 + 18 + 64 + 4: one FPDU of 88 bytes, cut after 30 */
	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + 20 + 20 + 88));
	s1 = isim_t_seg_part(test, skb, 0, 30);
	s2 = isim_t_seg_part(test, skb, 30, 58);
	fpsn = p.qb->toe.rcv_nxt;

	/* a pass takes the segment, the next places it in the IEQ's RQ */
	isim_t_wire_in(t, s1);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.partial);
	KUNIT_EXPECT_EQ(test, p.qb->toe.fpdu_nxt, fpsn);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(isim_t_q2(p.b) +
						 ISIM_Q2_FPSN_OFF), fpsn);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, fpsn + 30);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_ILQ), 1U);
	/* the segment as received: TCP header at byte 40, then the cut FPDU */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(rx0 + 40 + 4), fpsn);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(rx0 + 40 + 20), (u16)82);
	KUNIT_EXPECT_EQ(test, dst[0], 0);

	isim_t_wire_in(t, s2);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.partial);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, fpsn + 88);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_ILQ), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(rx1 + 40 + 4), fpsn + 30);
	KUNIT_EXPECT_EQ(test, dst[0], 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.partials), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.to_ieq), 2LL);

	/* the driver's loopback AH: the connection as B receives it */
	w[0] = ISIM_T_REM_MAC << 16;
	w[2] = FIELD_PREP(ISIM_AH_W2_ARP, ISIM_T_ILQ_ARP) |
	       FIELD_PREP(ISIM_AH_W2_HOP_LIMIT, 64);
	w[4] = ISIM_T_REM_IP;
	w[6] = ISIM_T_LOC_IP;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH + 1) |
			  ISIM_AH_HDR_IPV4 | ISIM_AH_HDR_LOOPBACK;
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	/* the peer's TCP header, its sequence number the FPSN, the FPDU */
	memcpy(tx, skb->data + ETH_HLEN + 20, 20);
	memcpy(tx + 20, skb->data + ETH_HLEN + 40, 88);
	put_unaligned_be32(fpsn, tx + 4);
	isim_t_ilq_send(t, 0, 108, ISIM_T_ILQ_AH + 1);
	isim_t_poll(t);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, dst[i], (u8)(0x40 + i));
	KUNIT_EXPECT_FALSE(test, p.qb->toe.partial);
	KUNIT_EXPECT_EQ(test, p.qb->toe.fpdu_nxt, fpsn + 88);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_IWQP_B), 1U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.from_ieq), 1LL);

	/* the same again: no episode any more, dropped */
	isim_t_ilq_send(t, 1, 108, ISIM_T_ILQ_AH + 1);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.ieq_bad), 1LL);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_IWQP_B), 1U);
	kfree_skb(skb);
}

static struct kunit_case isim_engine_cases[] = {
	KUNIT_CASE_PARAM(isim_cqp_create_checks_host_context,
			 isim_ctx_gen_params),
	KUNIT_CASE(isim_cqp_destroy_clears_status),
	KUNIT_CASE(isim_cqp_nop_advances_tail),
	KUNIT_CASE(isim_cqp_unknown_opcode_fails),
	KUNIT_CASE(isim_cqp_stale_valid_bit_waits),
	KUNIT_CASE(isim_cqp_ccq_completions_wrap),
	KUNIT_CASE(isim_cqp_error_completion_in_ccq),
	KUNIT_CASE(isim_cqp_fail_knob_fails_next_n),
	KUNIT_CASE(isim_cqp_stall_holds_commands),
	KUNIT_CASE(isim_hmc_query_commit_fpm),
	KUNIT_CASE(isim_hmc_pble_through_paged_sd),
	KUNIT_CASE(isim_aeq_event_raises_vector),
	KUNIT_CASE(isim_aeq_full_loses_event),
	KUNIT_CASE_PARAM(isim_irq_aeqctl_outside_vectors_counted,
			 isim_t_bad_vector_gen_params),
	KUNIT_CASE(isim_irq_dyn_ctl_outside_vectors_counted),
	KUNIT_CASE_PARAM(isim_parse_new_device_gen, isim_t_new_gen_params),
	KUNIT_CASE(isim_regs_reset_uses_generation_map),
	KUNIT_CASE(isim_hmc_fpm_fits_generation),
	KUNIT_CASE(isim_cq_create_ids_fit_generation),
	KUNIT_CASE(isim_exec_payload_reads_fragments),
	KUNIT_CASE(isim_stag_bind_reads_generation_layout),
	KUNIT_CASE(isim_qp_create_copies_context_to_hmc),
	KUNIT_CASE(isim_conn_tables_refuse_duplicates),
	KUNIT_CASE(isim_cqp_handles_in_op_return_value),
	KUNIT_CASE(isim_ws_node_refuses_bad_tree),
	KUNIT_CASE(isim_sched_qset_add_checks_leaf),
	KUNIT_CASE(isim_qp_context_names_qs_handle),
	KUNIT_CASE(isim_gather_stats_writes_counters),
	KUNIT_CASE(isim_cq_armed_completion_writes_ceqe),
	KUNIT_CASE(isim_cq_arm_reports_unconsumed_cqe),
	KUNIT_CASE(isim_cq_overflow_raises_ae),
	KUNIT_CASE(isim_cq_resize_moves_to_new_ring),
	KUNIT_CASE(isim_mcg_commands),
	KUNIT_CASE_PARAM(isim_stag_command_checks_fields, isim_stag_gen_params),
	KUNIT_CASE(isim_stag_dealloc_matches_kind_and_pd),
	KUNIT_CASE(isim_stag_fast_reg_and_invalidate),
	KUNIT_CASE(isim_exec_flush_completes_each_posted_wqe),
	KUNIT_CASE(isim_exec_send_loopback_moves_data),
	KUNIT_CASE(isim_exec_rc_elsewhere_is_unrouted),
	KUNIT_CASE(isim_exec_sq_waits_for_doorbell),
	KUNIT_CASE(isim_engine_kicked_doorbell_names_its_qp),
	KUNIT_CASE(isim_engine_kicked_arm_names_its_cq),
	KUNIT_CASE(isim_engine_next_pass_when_due),
	KUNIT_CASE(isim_engine_kicked_qp_runs_at_once),
	KUNIT_CASE(isim_engine_flushing_rq_looked_at_each_tick),
	KUNIT_CASE(isim_engine_counts_user_qps),
	KUNIT_CASE(isim_exec_sq_stops_when_the_pass_is_over),
	KUNIT_CASE(isim_exec_unregistered_leaf_holds_sq),
	KUNIT_CASE(isim_resume_qp_takes_new_qs_handle),
	KUNIT_CASE(isim_exec_bad_stag_is_protection_error),
	KUNIT_CASE(isim_ilq_transmit_adds_headers),
	KUNIT_CASE(isim_ilq_disabled_leaf_holds_sends),
	KUNIT_CASE(isim_ilq_syn_filter_steers_to_rq),
	KUNIT_CASE(isim_ilq_bad_commands_fail),
	KUNIT_CASE_PARAM(isim_toe_modify_checks_context, isim_toe_gen_params),
	KUNIT_CASE(isim_toe_lsmm_sent_then_held),
	KUNIT_CASE(isim_iw_rtr_read_waits_for_response),
	KUNIT_CASE(isim_toe_offload_drops_established_filter),
	KUNIT_CASE(isim_toe_fin_and_rst_raise_aes),
	KUNIT_CASE(isim_toe_graceful_close_local_first),
	KUNIT_CASE(isim_toe_graceful_close_peer_first),
	KUNIT_CASE(isim_toe_time_wait_acks_fin_again),
	KUNIT_CASE(isim_toe_time_wait_ends_at_syn),
	KUNIT_CASE(isim_toe_time_wait_expires),
	KUNIT_CASE(isim_toe_resetcon_sends_rst),
	KUNIT_CASE(isim_toe_fin_waits_for_the_sq),
	KUNIT_CASE(isim_toe_acks_window_and_duplicates),
	KUNIT_CASE(isim_toe_resends_then_gives_up),
	KUNIT_CASE(isim_toe_queued_ack_beats_timer),
	KUNIT_CASE(isim_toe_third_dup_ack_resends),
	KUNIT_CASE(isim_iw_send_write_read_over_the_wire),
	KUNIT_CASE(isim_iw_bad_crc_is_rejected),
	KUNIT_CASE(isim_iw_write_to_bad_stag_fails),
	KUNIT_CASE(isim_iw_local_sq_error_halts),
	KUNIT_CASE(isim_iw_terminate_both_ways),
	KUNIT_CASE(isim_iw_lost_segment_is_sent_again),
	KUNIT_CASE(isim_iw_late_ack_resends_oldest_only),
	KUNIT_CASE(isim_iw_partial_fpdu_goes_to_ieq),
	KUNIT_CASE(isim_ud_send_loopback_places_grh_and_payload),
	KUNIT_CASE(isim_ud_send_inline_imm_solicited),
	KUNIT_CASE(isim_ud_wrong_qkey_is_dropped),
	KUNIT_CASE(isim_ud_bad_wqes_complete_in_error),
	KUNIT_CASE(isim_ud_bad_icrc_or_no_rqe_is_dropped),
	{}
};

static struct kunit_suite isim_engine_suite = {
	.name = "irdma_sim_engine",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_engine_cases,
};

/* a function modelling an X722 (gen1) */
static struct kunit_case isim_gen1_cases[] = {
	KUNIT_CASE_PARAM(isim_cqp_create_checks_host_context,
			 isim_ctx_gen1_gen_params),
	KUNIT_CASE(isim_regs_reset_uses_generation_map),
	KUNIT_CASE(isim_hmc_fpm_fits_generation),
	KUNIT_CASE(isim_cq_create_ids_fit_generation),
	KUNIT_CASE(isim_stag_dealloc_matches_kind_and_pd),
	KUNIT_CASE_PARAM(isim_cqp_gen2_only_op_fails_on_gen1,
			 isim_t_gen2_op_gen_params),
	KUNIT_CASE(isim_aeq_event_raises_vector),
	KUNIT_CASE_PARAM(isim_irq_aeqctl_outside_vectors_counted,
			 isim_t_bad_vector_gen_params),
	KUNIT_CASE(isim_irq_dyn_ctl_outside_vectors_counted),
	KUNIT_CASE_PARAM(isim_toe_modify_checks_context,
			 isim_toe_gen1_gen_params),
	KUNIT_CASE(isim_toe_lsmm_sent_then_held),
	KUNIT_CASE(isim_exec_payload_reads_fragments),
	KUNIT_CASE(isim_exec_payload_gen1_inline_and_limits),
	KUNIT_CASE(isim_exec_sq_quanta_gen1),
	KUNIT_CASE(isim_stag_bind_reads_generation_layout),
	KUNIT_CASE(isim_ilq_gen1_sends_frame_as_is),
	{}
};

static struct kunit_suite isim_gen1_suite = {
	.name = "irdma_sim_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_gen1_cases,
};

kunit_test_suites(&isim_engine_suite, &isim_gen1_suite);
