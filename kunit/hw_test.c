// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the pure decisions of engine bring-up (hw.c): how many
 * CEQs a function gets, how the HMC profile shrinks until it fits the
 * function's segments, and how gathered counters add up across wraps.
 */
#include <asm/unaligned.h>
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/string.h>

/* query word: maximum count, log2 of the object size */
#define QW(cnt, log2)	cpu_to_le64((u64)(log2) << 32 | (cnt))

struct hw_ceq_case {
	const char *name;
	u32 vectors;
	u32 max_ceqs;
	u32 cpus;
	u32 want;
};

static const struct hw_ceq_case hw_ceq_cases[] = {
	{ "one_cpu", 5, 32, 1, 1 },
	{ "limited_by_vectors", 5, 32, 8, 4 },
	{ "limited_by_engine", 5, 2, 8, 2 },
	{ "two_vectors", 2, 32, 8, 1 },
	{ "no_vector_left", 1, 32, 4, 0 },
	{ "no_vectors", 0, 32, 4, 0 },
	{ "engine_allows_none", 5, 0, 4, 0 },
	{ "no_cpu_counted", 3, 32, 0, 1 },
};

static void hw_ceq_desc(const struct hw_ceq_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hw_ceq, hw_ceq_cases, hw_ceq_desc);

static void irdma_hw_ceq_count_table(struct kunit *test)
{
	const struct hw_ceq_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, irdma_hw_ceq_count(c->vectors, c->max_ceqs,
						 c->cpus), c->want);
}

/*
 * The event rings hold every event that can be outstanding: two AEs per
 * iWARP QP (one per RoCE QP) and one per CQ, one CEQE per CQ; within what
 * the engine takes and never below its smallest ring.
 */
static const struct {
	const char *name;
	bool iwarp;
	u32 qps, cqs, aeq, ceq;
} hw_eq_cases[] = {
	{ "iwarp", true, 1024, 2048, 4096, 2048 },
	{ "roce", false, 1024, 2048, 3072, 2048 },
	{ "tiny", true, 1, 2, 8, 8 },
	{ "capped", true, 262144, 262144, 524287, 262143 },
	{ "no_overflow", true, U32_MAX, U32_MAX, 524287, 262143 },
};

static void irdma_hw_eq_sizes_table(struct kunit *test)
{
	unsigned int i;
	u32 aeq, ceq;

	for (i = 0; i < ARRAY_SIZE(hw_eq_cases); i++) {
		irdma_hw_eq_sizes(hw_eq_cases[i].iwarp, hw_eq_cases[i].qps,
				  hw_eq_cases[i].cqs, &aeq, &ceq);
		KUNIT_EXPECT_EQ_MSG(test, aeq, hw_eq_cases[i].aeq, "%s",
				    hw_eq_cases[i].name);
		KUNIT_EXPECT_EQ_MSG(test, ceq, hw_eq_cases[i].ceq, "%s",
				    hw_eq_cases[i].name);
	}
}

/* A gen2 function: QPs of 512 bytes, everything else 64 bytes. */
static struct irdma_hmc_layout *hw_layout(struct kunit *test, u32 max_sds,
					  u32 max_qps, u32 max_pbles)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	__le64 *q = kunit_kcalloc(test, IRDMA_HMC_FPM_BUF_WORDS, sizeof(*q),
				  GFP_KERNEL);
	unsigned int w;

	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, q);
	for (w = 1; w < 22; w++)
		q[w] = QW(8192, 6);
	q[0] = cpu_to_le64((u64)max_sds << 32);
	q[1] = QW(max_qps, 9);
	q[14] = QW(max_pbles, 0);
	q[15] = 0;
	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(q, 2, l), 0);
	return l;
}

static void irdma_hw_hmc_size_fits(struct kunit *test)
{
	struct irdma_hmc_layout *l = hw_layout(test, 128, 4096, 1 << 18);

	KUNIT_ASSERT_EQ(test, irdma_hw_hmc_size(l, 1024, 65536), 0);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_QP].cnt, 1024U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_CQ].cnt, 2048U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_PBLE].cnt, 65536U);
	KUNIT_EXPECT_GE(test, l->sd_cnt, 1U);
	KUNIT_EXPECT_LE(test, l->sd_cnt, 128U);
}

static void irdma_hw_hmc_size_capped_by_device(struct kunit *test)
{
	struct irdma_hmc_layout *l = hw_layout(test, 128, 100, 1000);

	KUNIT_ASSERT_EQ(test, irdma_hw_hmc_size(l, 1024, 65536), 0);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_QP].cnt, 100U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_PBLE].cnt, 1000U);
}

/* One segment: the QP count halves until the layout fits, no further. */
static void irdma_hw_hmc_size_halves_to_fit(struct kunit *test)
{
	struct irdma_hmc_layout *l = hw_layout(test, 1, 4096, 1 << 18);
	struct irdma_hmc_layout *bigger;
	u32 qps;

	KUNIT_ASSERT_EQ(test, irdma_hw_hmc_size(l, 4096, 1024), 0);
	qps = l->obj[IRDMA_HMC_QP].cnt;
	KUNIT_EXPECT_LT(test, qps, 4096U);
	KUNIT_EXPECT_TRUE(test, is_power_of_2(qps));
	KUNIT_EXPECT_EQ(test, l->sd_cnt, 1U);
	KUNIT_EXPECT_LE(test, l->total, (u64)IRDMA_HMC_SD_SIZE);
	/* twice as many QPs would not have fitted */
	bigger = hw_layout(test, 1, 4096, 1 << 18);
	KUNIT_ASSERT_EQ(test, irdma_hmc_profile_counts(bigger, 2 * qps, 1024),
			0);
	KUNIT_EXPECT_EQ(test, irdma_hmc_plan(bigger), -ENOSPC);
}

/* 2^18 PBLEs alone take 2 MiB plus the rest: one segment cannot hold it */
static void irdma_hw_hmc_size_nothing_fits(struct kunit *test)
{
	struct irdma_hmc_layout *l = hw_layout(test, 1, 4096, 1 << 18);

	KUNIT_EXPECT_EQ(test, irdma_hw_hmc_size(l, 1024, 1 << 18), -ENOSPC);
}

static void irdma_hw_hmc_size_no_qps(struct kunit *test)
{
	struct irdma_hmc_layout *l = hw_layout(test, 128, 0, 1000);

	KUNIT_EXPECT_EQ(test, irdma_hw_hmc_size(l, 1024, 1000), -ENOSPC);
}

/*
 * Totals grow by each counter's movement between two gathers, modulo its
 * width: a 32-bit and a 48-bit counter that wrapped still add up, and the
 * 16 bits above a 48-bit counter are not part of it.
 */
static void irdma_hw_counters_fold_wraps(struct kunit *test)
{
	struct irdma_hw_counters *c;
	u8 *blk;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	blk = kunit_kzalloc(test, IRDMA_GATHER_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, blk);
	/* the first gather is the baseline */
	put_unaligned_le32(0xfffffff0, blk + 0x0dc);	/* tcpRetransSegs */
	put_unaligned_le64(0xfffffffffff0ULL, blk + 0x008); /* ip4InOctets */
	put_unaligned_le64(100, blk + 0x118);		/* iwOutRdmaSends */
	irdma_hw_counters_fold(c, blk);
	memset(c->total, 0, sizeof(c->total));
	put_unaligned_le32(0x10, blk + 0x0dc);
	put_unaligned_le64(0xffff000000000020ULL, blk + 0x008);
	put_unaligned_le64(103, blk + 0x118);
	irdma_hw_counters_fold(c, blk);
	KUNIT_EXPECT_EQ(test, c->total[IRDMA_HWC_TCP_RTX_SEGS], 0x20ULL);
	KUNIT_EXPECT_EQ(test, c->total[IRDMA_HWC_IP4_RX_OCTETS], 0x30ULL);
	KUNIT_EXPECT_EQ(test, c->total[IRDMA_HWC_RDMA_TX_SENDS], 3ULL);
	KUNIT_EXPECT_EQ(test, c->total[IRDMA_HWC_IP6_RX_OCTETS], 0ULL);
	/* nothing moved: nothing added */
	irdma_hw_counters_fold(c, blk);
	KUNIT_EXPECT_EQ(test, c->total[IRDMA_HWC_TCP_RTX_SEGS], 0x20ULL);
	KUNIT_EXPECT_EQ(test, c->total[IRDMA_HWC_RDMA_TX_SENDS], 3ULL);
}

/*
 * The CQP host context names HMC profile 1, the default split, as Linux
 * 6.1's irdma does on the adapters (the differential trace): 0 names none.
 */
static void irdma_hw_cqp_ctx_hmc_profile(struct kunit *test)
{
	struct irdma_func *fn = kunit_kzalloc(test, sizeof(*fn), GFP_KERNEL);
	struct irdma_hw *hw = kunit_kzalloc(test, sizeof(*hw), GFP_KERNEL);
	__le64 *ctx = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fn);
	KUNIT_ASSERT_NOT_NULL(test, hw);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	fn->gen = IRDMA_GEN_2;
	fn->protocol = IRDMA_PROTOCOL_IWARP;
	hw->fn = fn;
	hw->cqp_sq.pa = 0x200000;
	hw->cqp_ctx.va = ctx;
	KUNIT_ASSERT_EQ(test, irdma_cqp_fill_ctx(hw), 0);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_CQPHC_HMC_PROFILE,
					le64_to_cpu(ctx[2])), 1ULL);
}

static struct kunit_case irdma_hw_cases[] = {
	KUNIT_CASE_PARAM(irdma_hw_ceq_count_table, hw_ceq_gen_params),
	KUNIT_CASE(irdma_hw_eq_sizes_table),
	KUNIT_CASE(irdma_hw_hmc_size_fits),
	KUNIT_CASE(irdma_hw_hmc_size_capped_by_device),
	KUNIT_CASE(irdma_hw_hmc_size_halves_to_fit),
	KUNIT_CASE(irdma_hw_hmc_size_nothing_fits),
	KUNIT_CASE(irdma_hw_hmc_size_no_qps),
	KUNIT_CASE(irdma_hw_counters_fold_wraps),
	KUNIT_CASE(irdma_hw_cqp_ctx_hmc_profile),
	{}
};

static struct kunit_suite irdma_hw_suite = {
	.name = "irdma_hw",
	.test_cases = irdma_hw_cases,
};

kunit_test_suite(irdma_hw_suite);
