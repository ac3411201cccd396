// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the ring registration check of uring.c: what libirdma
 * registers for a CQ and a QP is taken, buffers that do not match the
 * page counts, unaligned buffers and other access flags are refused.
 * Included at the end of uring.c, so the helpers stay static.
 */
#include <kunit/test.h>

/**
 * struct uring_req_case - a ring registration and the verdict on it
 * @name: description
 * @req: the request
 * @start: user address
 * @len: length
 * @access: IB_ACCESS_* flags
 * @ret: expected result
 */
struct uring_req_case {
	const char *name;
	struct irdma_mem_reg_req req;
	u64 start;
	u64 len;
	int access;
	int ret;
};

#define URING_VA	0x7f0000000000ULL
#define URING_LW	IB_ACCESS_LOCAL_WRITE
#define URING_CQ(n)	{ .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = (n) }
#define URING_QP(s, r)	{ .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = (s), \
			  .rq_pages = (r) }

static const struct uring_req_case uring_req_cases[] = {
	/* libirdma: CQE pages, then the 64-byte shadow area */
	{ "libirdma_cq", URING_CQ(1), URING_VA, SZ_4K + 64, URING_LW, 0 },
	{ "libirdma_qp", URING_QP(2, 1), URING_VA, 3 * SZ_4K + 64, URING_LW,
	  0 },
	{ "whole_shadow_page", URING_CQ(2), URING_VA, 3 * SZ_4K, URING_LW, 0 },
	{ "hugetlb_hint", URING_CQ(1), URING_VA, SZ_4K + 64,
	  URING_LW | IB_ACCESS_HUGETLB, 0 },
	{ "cq_no_shadow", URING_CQ(1), URING_VA, SZ_4K, URING_LW, -EINVAL },
	{ "cq_beyond_shadow_page", URING_CQ(1), URING_VA, 2 * SZ_4K + 1,
	  URING_LW, -EINVAL },
	{ "cq_no_pages", URING_CQ(0), URING_VA, SZ_4K, URING_LW, -EINVAL },
	{ "cq_too_many_pages", URING_CQ(8193), URING_VA, 8193ULL * SZ_4K + 64,
	  URING_LW, -EINVAL },
	{ "cq_with_sq_pages", { .reg_type = IRDMA_MEMREG_TYPE_CQ,
	  .cq_pages = 1, .sq_pages = 1 }, URING_VA, SZ_4K + 64, URING_LW,
	  -EINVAL },
	{ "qp_no_rq", URING_QP(1, 0), URING_VA, SZ_4K + 64, URING_LW, -EINVAL },
	{ "qp_no_sq", URING_QP(0, 1), URING_VA, SZ_4K + 64, URING_LW, -EINVAL },
	{ "qp_sq_too_big", URING_QP(257, 1), URING_VA, 258ULL * SZ_4K + 64,
	  URING_LW, -EINVAL },
	{ "qp_short", URING_QP(2, 2), URING_VA, 3 * SZ_4K + 64, URING_LW,
	  -EINVAL },
	{ "unaligned", URING_CQ(1), URING_VA + 64, SZ_4K + 64, URING_LW,
	  -EINVAL },
	{ "remote_write", URING_CQ(1), URING_VA, SZ_4K + 64,
	  URING_LW | IB_ACCESS_REMOTE_WRITE, -EINVAL },
	{ "read_only", URING_CQ(1), URING_VA, SZ_4K + 64, 0, -EINVAL },
};

static void uring_req_desc(const struct uring_req_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(uring_req, uring_req_cases, uring_req_desc);

static void irdma_uring_req_check_request(struct kunit *test)
{
	const struct uring_req_case *c = test->param_value;
	const char *why;
	int ret;

	ret = irdma_uring_req_check(&c->req, c->start, c->len, c->access,
				    &why);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (ret)
		KUNIT_EXPECT_NOT_NULL(test, why);
	else
		KUNIT_EXPECT_NULL(test, why);
}

static void irdma_uring_pages_by_type(struct kunit *test)
{
	struct irdma_mem_reg_req cq = URING_CQ(7), qp = URING_QP(3, 5);

	KUNIT_EXPECT_EQ(test, irdma_uring_pages(&cq), 7);
	KUNIT_EXPECT_EQ(test, irdma_uring_pages(&qp), 8);
}

static struct kunit_case irdma_uring_cases[] = {
	KUNIT_CASE_PARAM(irdma_uring_req_check_request, uring_req_gen_params),
	KUNIT_CASE(irdma_uring_pages_by_type),
	{}
};

static struct kunit_suite irdma_uring_suite = {
	.name = "irdma_uring",
	.test_cases = irdma_uring_cases,
};

kunit_test_suite(irdma_uring_suite);
