// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for HMC sizing (hmc.c): query parsing, the gen1 and gen2
 * default profiles, FPM placement and segment counts, the commit buffer
 * round trip and SD/PD descriptors. Expected offsets were worked out by
 * hand from the placement rule (type order, 512-byte aligned bases).
 */
#include <kunit/test.h>

/* query word: maximum count, log2 of the object size */
#define QW(cnt, log2)	cpu_to_le64((u64)(log2) << 32 | (cnt))

static __le64 *hmc_query_gen1(struct kunit *test)
{
	__le64 *q = kunit_kcalloc(test, 22, sizeof(__le64), GFP_KERNEL);

	q[0] = cpu_to_le64(4ULL << 32 | 0);
	q[1] = QW(1024, 8);	/* QP, 256 B */
	q[2] = QW(2048, 5);	/* CQ */
	q[4] = QW(16384, 5);	/* HTE */
	q[5] = QW(512, 4);	/* ARP */
	q[6] = QW(4096, 6);	/* MR */
	q[7] = QW(4096, 6);	/* XF */
	q[8] = QW(256, 0);	/* XFFL: count only */
	q[9] = QW(2048, 7);	/* Q1 */
	q[10] = QW(128, 0);	/* Q1FL */
	q[11] = QW(256, 6);	/* TIMER */
	q[14] = QW(65536, 0);	/* PBLE */
	return q;
}

static __le64 *hmc_query_gen2(struct kunit *test, u32 max_sds)
{
	__le64 *q = kunit_kcalloc(test, 22, sizeof(__le64), GFP_KERNEL);
	unsigned int w;

	for (w = 1; w < 22; w++)
		q[w] = QW(1 << 20, 6);
	q[0] = cpu_to_le64((u64)max_sds << 32 | 2);
	q[5] = QW(2048, 6);	/* ARP */
	q[15] = 0;		/* misc word */
	return q;
}

static void irdma_hmc_parse_query_gen1(struct kunit *test)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(hmc_query_gen1(test), 1, l),
			0);
	KUNIT_EXPECT_EQ(test, l->max_sds, 4U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_QP].max_cnt, 1024U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_QP].size, 256ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_XFFL].size, 4ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_PBLE].size, 8ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_APBVT].size, 8192ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_APBVT].max_cnt, 1U);
	/* gen1 has no FSIMC: nothing read for it */
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_FSIMC].max_cnt, 0U);
	KUNIT_EXPECT_FALSE(test, irdma_hmc_obj_present(1, IRDMA_HMC_RRF));
	KUNIT_EXPECT_TRUE(test, irdma_hmc_obj_present(2, IRDMA_HMC_RRF));
}

static void irdma_hmc_plan_gen1_profile(struct kunit *test)
{
	static const u64 base[] = {
		[IRDMA_HMC_QP] = 0, [IRDMA_HMC_CQ] = 16384,
		[IRDMA_HMC_HTE] = 20480, [IRDMA_HMC_ARP] = 36864,
		[IRDMA_HMC_APBVT] = 45056, [IRDMA_HMC_MR] = 53248,
		[IRDMA_HMC_XF] = 69632, [IRDMA_HMC_XFFL] = 86016,
		[IRDMA_HMC_Q1] = 86528, [IRDMA_HMC_Q1FL] = 102912,
		[IRDMA_HMC_TIMER] = 103424, [IRDMA_HMC_PBLE] = 107520,
	};
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(hmc_query_gen1(test), 1, l),
			0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_profile_counts(l, 64, 4096), 0);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_CQ].cnt, 128U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_ARP].cnt, 512U);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_XFFL].cnt, 4U);
	KUNIT_ASSERT_EQ(test, irdma_hmc_plan(l), 0);
	for (i = 0; i < ARRAY_SIZE(base); i++) {
		if (!irdma_hmc_obj_present(1, i))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, l->obj[i].base, base[i], "obj %u", i);
	}
	KUNIT_EXPECT_EQ(test, l->total, 140288ULL);
	KUNIT_EXPECT_EQ(test, l->sd_cnt, 1U);
}

static void irdma_hmc_plan_gen2_profile(struct kunit *test)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(hmc_query_gen2(test, 4), 2,
						    l), 0);
	KUNIT_EXPECT_EQ(test, l->first_sd, 2U);
	KUNIT_ASSERT_EQ(test, irdma_hmc_profile_counts(l, 4096, 0), 0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_plan(l), 0);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_HTE].base, 786432ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_APBVT].base, 3014656ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_FSIAV].base, 6170624ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_PBLE].base, 6432768ULL);
	KUNIT_EXPECT_EQ(test, l->obj[IRDMA_HMC_OOISCFFL].base, 7744512ULL);
	KUNIT_EXPECT_EQ(test, l->total, 7745536ULL);
	KUNIT_EXPECT_EQ(test, l->sd_cnt, 4U);
}

static void irdma_hmc_plan_too_big_for_sds(struct kunit *test)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(hmc_query_gen2(test, 3), 2,
						    l), 0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_profile_counts(l, 4096, 0), 0);
	KUNIT_EXPECT_EQ(test, irdma_hmc_plan(l), -ENOSPC);
	KUNIT_EXPECT_EQ(test, irdma_hmc_profile_counts(l, 1 << 21, 0), -EINVAL);
	l->obj[IRDMA_HMC_MR].cnt = l->obj[IRDMA_HMC_MR].max_cnt + 1;
	KUNIT_EXPECT_EQ(test, irdma_hmc_plan(l), -EINVAL);
}

static void irdma_hmc_parse_query_rejects_garbage(struct kunit *test)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	__le64 *q = hmc_query_gen1(test);

	KUNIT_EXPECT_EQ(test, irdma_hmc_parse_query(q, 3, l), -EINVAL);
	q[1] = QW(1024, 40);	/* a 1 TiB QP context */
	KUNIT_EXPECT_EQ(test, irdma_hmc_parse_query(q, 1, l), -EINVAL);
	q = hmc_query_gen1(test);
	q[0] = 0;		/* no SDs */
	KUNIT_EXPECT_EQ(test, irdma_hmc_parse_query(q, 1, l), -EINVAL);
}

static void irdma_hmc_commit_round_trip(struct kunit *test)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	struct irdma_hmc_layout *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	__le64 *buf = kunit_kzalloc(test, IRDMA_HMC_FPM_BUF_SIZE, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(hmc_query_gen1(test), 1, l),
			0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_profile_counts(l, 64, 4096), 0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_plan(l), 0);
	irdma_hmc_build_commit(l, buf);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[0]), 64ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[1]), (16384ULL / 512) << 32 | 128);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[14]),
			(107520ULL / 512) << 32 | 4096);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[2]), 0ULL);
	*r = *l;
	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_commit(buf, r), 0);
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		KUNIT_EXPECT_EQ(test, r->obj[i].cnt, l->obj[i].cnt);
		if (r->obj[i].cnt)
			KUNIT_EXPECT_EQ(test, r->obj[i].base, l->obj[i].base);
	}
	KUNIT_EXPECT_EQ(test, r->sd_cnt, 1U);
	/* a device reporting overlapping objects is not believed */
	buf[1] = cpu_to_le64(128);
	KUNIT_EXPECT_EQ(test, irdma_hmc_parse_commit(buf, r), -EINVAL);
}

static void irdma_hmc_obj_locate_pages(struct kunit *test)
{
	struct irdma_hmc_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u32 sd, pd, off;

	KUNIT_ASSERT_EQ(test, irdma_hmc_parse_query(hmc_query_gen2(test, 4), 2,
						    l), 0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_profile_counts(l, 4096, 0), 0);
	KUNIT_ASSERT_EQ(test, irdma_hmc_plan(l), 0);
	/* HTE 32767: 786432 + 32767 * 64 = 2883520 = SD 1 (+2), 786368 in */
	KUNIT_ASSERT_EQ(test, irdma_hmc_obj_locate(l, IRDMA_HMC_HTE, 32767,
						   &sd, &pd, &off), 0);
	KUNIT_EXPECT_EQ(test, sd, 3U);
	KUNIT_EXPECT_EQ(test, pd, 786368U / 4096);
	KUNIT_EXPECT_EQ(test, off, 786368U % 4096);
	KUNIT_EXPECT_EQ(test, irdma_hmc_obj_locate(l, IRDMA_HMC_HTE, 32768,
						   &sd, &pd, &off), -EINVAL);
}

static void irdma_hmc_descriptors(struct kunit *test)
{
	struct irdma_sd_update sd;
	u64 pd;

	KUNIT_ASSERT_EQ(test, irdma_hmc_sd_set(0x1234000, 7, false, &sd), 0);
	KUNIT_EXPECT_EQ(test, sd.data, 0x1234000ULL | 512ULL << 2 | 1);
	KUNIT_EXPECT_EQ(test, sd.cmd, 7U | BIT(15) | BIT(31));
	KUNIT_ASSERT_EQ(test, irdma_hmc_sd_set(0x40000000, 8, true, &sd), 0);
	KUNIT_EXPECT_EQ(test, sd.data, 0x40000000ULL | 512ULL << 2 | 3);
	KUNIT_EXPECT_EQ(test, irdma_hmc_sd_set(0x40001000, 8, true, &sd),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_hmc_sd_set(0x1000, 4096, false, &sd),
			-EINVAL);
	irdma_hmc_sd_clear(9, false, &sd);
	KUNIT_EXPECT_EQ(test, sd.data, 512ULL << 2);
	KUNIT_EXPECT_EQ(test, sd.cmd, 9U | BIT(15) | BIT(31));
	KUNIT_ASSERT_EQ(test, irdma_hmc_pd_entry(0x77000, &pd), 0);
	KUNIT_EXPECT_EQ(test, pd, 0x77001ULL);
	KUNIT_EXPECT_EQ(test, irdma_hmc_pd_entry(0x77800, &pd), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_hmc_pdinv(3, 511), 3U | BIT(15) | 511U << 16);
}

static struct kunit_case irdma_hmc_cases[] = {
	KUNIT_CASE(irdma_hmc_parse_query_gen1),
	KUNIT_CASE(irdma_hmc_plan_gen1_profile),
	KUNIT_CASE(irdma_hmc_plan_gen2_profile),
	KUNIT_CASE(irdma_hmc_plan_too_big_for_sds),
	KUNIT_CASE(irdma_hmc_parse_query_rejects_garbage),
	KUNIT_CASE(irdma_hmc_commit_round_trip),
	KUNIT_CASE(irdma_hmc_obj_locate_pages),
	KUNIT_CASE(irdma_hmc_descriptors),
	{}
};

static struct kunit_suite irdma_hmc_suite = {
	.name = "irdma_hmc",
	.test_cases = irdma_hmc_cases,
};

kunit_test_suite(irdma_hmc_suite);
