// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the PBLE pool (pble.c): level-1 runs, level-2 lists
 * when the pool is fragmented, clean failures on exhaustion and on
 * fragmentation, and nothing lost on the way.
 */
#include <kunit/test.h>

#define PT_FIRST	0x1000	/* page aligned: 8 pages of PBLEs in */

static int pt_init(struct kunit *test)
{
	struct irdma_pble_pool *pool;

	pool = kunit_kzalloc(test, sizeof(*pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, irdma_pble_pool_init(pool, PT_FIRST, 4096), 0);
	test->priv = pool;
	return 0;
}

static void pt_exit(struct kunit *test)
{
	irdma_pble_pool_destroy(test->priv);
}

static void irdma_pble_get_level1_runs(struct kunit *test)
{
	struct irdma_pble_pool *pool = test->priv;
	struct irdma_pble_alloc a, b;

	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 10, false, &a), 0);
	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 700, false, &b), 0);
	KUNIT_EXPECT_EQ(test, a.level, 1);
	KUNIT_EXPECT_EQ(test, a.root.idx, (u32)PT_FIRST);
	KUNIT_EXPECT_EQ(test, a.root.cnt, 10U);
	KUNIT_EXPECT_EQ(test, b.root.idx, PT_FIRST + 10U);
	KUNIT_EXPECT_NULL(test, b.leaf);
	KUNIT_EXPECT_EQ(test, pool->free, 4096U - 710);
	irdma_pble_put(pool, &a);
	irdma_pble_put(pool, &b);
	irdma_pble_put(pool, &b);	/* already put: ignored */
	irdma_pble_put(pool, NULL);
	KUNIT_EXPECT_EQ(test, pool->free, 4096U);
}

static void irdma_pble_get_rejects_bad_sizes(struct kunit *test)
{
	struct irdma_pble_pool *pool = test->priv;
	struct irdma_pble_alloc a;

	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 0, false, &a), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 4097, false, &a), -EINVAL);
	KUNIT_EXPECT_EQ(test, pool->free, 4096U);
}

static void irdma_pble_get_exhausted(struct kunit *test)
{
	struct irdma_pble_pool *pool = test->priv;
	struct irdma_pble_alloc all, more;

	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 4090, false, &all), 0);
	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 7, false, &more), -ENOMEM);
	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 7, true, &more), -ENOMEM);
	KUNIT_EXPECT_EQ(test, more.level, 0);
	KUNIT_EXPECT_EQ(test, pool->free, 6U);
	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 6, true, &more), 0);
	KUNIT_EXPECT_EQ(test, pool->free, 0U);
	irdma_pble_put(pool, &more);
	irdma_pble_put(pool, &all);
	KUNIT_EXPECT_EQ(test, pool->free, 4096U);
}

/*
 * Cut the pool into 799-PBLE holes separated by single allocated PBLEs at
 * 800, 1600, 2400 and 3200 (relative to the pool's start).
 */
static void pt_fragment(struct kunit *test, struct irdma_pble_alloc *pins)
{
	struct irdma_pble_pool *pool = test->priv;
	struct irdma_pble_alloc fill[5];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 800, true, &fill[0]), 0);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 1, true, &pins[i]), 0);
		KUNIT_ASSERT_EQ(test, pins[i].root.idx, PT_FIRST + 800 * (i + 1));
		KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, i < 3 ? 799 : 895,
						     true, &fill[i + 1]), 0);
	}
	for (i = 0; i < 5; i++)
		irdma_pble_put(pool, &fill[i]);
	KUNIT_ASSERT_EQ(test, pool->free, 4092U);
}

static void irdma_pble_get_level2_when_fragmented(struct kunit *test)
{
	struct irdma_pble_pool *pool = test->priv;
	struct irdma_pble_alloc pins[4], a;
	unsigned int i;

	pt_fragment(test, pins);
	/* no hole holds 1500: a level-1-only user is told it is fragmented */
	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 1500, true, &a), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pool->free, 4092U);
	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 1500, false, &a), 0);
	KUNIT_EXPECT_EQ(test, a.level, 2);
	KUNIT_ASSERT_EQ(test, a.leaf_cnt, 3U);
	KUNIT_EXPECT_EQ(test, a.leaf[0].cnt, 512U);
	KUNIT_EXPECT_EQ(test, a.leaf[1].cnt, 512U);
	KUNIT_EXPECT_EQ(test, a.leaf[2].cnt, 476U);
	/* full leaves are whole pages of the PBLE object */
	KUNIT_EXPECT_EQ(test, a.leaf[0].idx % 512, 0U);
	KUNIT_EXPECT_EQ(test, a.leaf[1].idx % 512, 0U);
	KUNIT_EXPECT_EQ(test, a.root.cnt, 3U);
	KUNIT_EXPECT_EQ(test, pool->free, 4092U - 1503);
	irdma_pble_put(pool, &a);
	KUNIT_EXPECT_NULL(test, a.leaf);
	for (i = 0; i < 4; i++)
		irdma_pble_put(pool, &pins[i]);
	KUNIT_EXPECT_EQ(test, pool->free, 4096U);
}

static void irdma_pble_get_too_fragmented(struct kunit *test)
{
	struct irdma_pble_pool *pool = test->priv;
	struct irdma_pble_alloc pins[4], a, b, c;
	unsigned int i;

	pt_fragment(test, pins);
	/* use up the page-aligned room and the one big hole left */
	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 2048, false, &b), 0);
	KUNIT_ASSERT_EQ(test, b.level, 2);
	KUNIT_ASSERT_EQ(test, irdma_pble_get(pool, 799, true, &c), 0);
	KUNIT_EXPECT_EQ(test, pool->free, 4092U - 2052 - 799);
	/* 1241 PBLEs are free, but no 512-run and no page for a full leaf */
	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 512, true, &a), -ENOSPC);
	KUNIT_EXPECT_EQ(test, irdma_pble_get(pool, 600, false, &a), -ENOSPC);
	KUNIT_EXPECT_EQ(test, a.level, 0);
	KUNIT_EXPECT_NULL(test, a.leaf);
	/* the failed attempts left every PBLE where it was */
	KUNIT_EXPECT_EQ(test, pool->free, 4092U - 2052 - 799);
	irdma_pble_put(pool, &c);
	irdma_pble_put(pool, &b);
	for (i = 0; i < 4; i++)
		irdma_pble_put(pool, &pins[i]);
	KUNIT_EXPECT_EQ(test, pool->free, 4096U);
}

static void irdma_pble_pool_init_rejects_bad_range(struct kunit *test)
{
	struct irdma_pble_pool pool = {};

	KUNIT_EXPECT_EQ(test, irdma_pble_pool_init(&pool, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_pble_pool_init(&pool, U32_MAX, 2), -EINVAL);
	KUNIT_EXPECT_NULL(test, pool.map);
}

static struct kunit_case irdma_pble_cases[] = {
	KUNIT_CASE(irdma_pble_get_level1_runs),
	KUNIT_CASE(irdma_pble_get_rejects_bad_sizes),
	KUNIT_CASE(irdma_pble_get_exhausted),
	KUNIT_CASE(irdma_pble_get_level2_when_fragmented),
	KUNIT_CASE(irdma_pble_get_too_fragmented),
	KUNIT_CASE(irdma_pble_pool_init_rejects_bad_range),
	{}
};

static struct kunit_suite irdma_pble_suite = {
	.name = "irdma_pble",
	.init = pt_init,
	.exit = pt_exit,
	.test_cases = irdma_pble_cases,
};

kunit_test_suite(irdma_pble_suite);
