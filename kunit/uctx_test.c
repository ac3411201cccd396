// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the user context ABI helpers of verbs.c: which
 * alloc_ucontext requests are refused and why, and what the response
 * tells libirdma for each engine generation. Included at the end of
 * verbs.c, so the helpers stay static.
 */
#include <kunit/test.h>

/**
 * struct uctx_req_case - one alloc_ucontext request and its verdict
 * @name: description
 * @inlen: request length user space passed
 * @outlen: response length user space passed
 * @ver: userspace_ver
 * @rsvd8: first reserved byte
 * @comp_mask: request comp_mask
 * @expected: irdma_uctx_check() result
 */
struct uctx_req_case {
	const char *name;
	size_t inlen;
	size_t outlen;
	u8 ver;
	u8 rsvd8;
	u64 comp_mask;
	int expected;
};

#define UCTX_REQ	sizeof(struct irdma_alloc_ucontext_req)
#define UCTX_RESP	sizeof(struct irdma_alloc_ucontext_resp)

static const struct uctx_req_case uctx_req_cases[] = {
	{ "libirdma_raw_attr", UCTX_REQ, UCTX_RESP, IRDMA_ABI_VER, 0,
	  IRDMA_ALLOC_UCTX_USE_RAW_ATTR, 0 },
	{ "request_without_comp_mask", 8, UCTX_RESP - 8, IRDMA_ABI_VER, 0, 0,
	  0 },
	{ "longer_request_and_response", UCTX_REQ + 8, UCTX_RESP + 16,
	  IRDMA_ABI_VER, 0, 0, 0 },
	{ "unknown_comp_mask_bits_ignored", UCTX_REQ, UCTX_RESP, IRDMA_ABI_VER,
	  0, BIT_ULL(1) | BIT_ULL(40), 0 },
	{ "empty_request", 0, UCTX_RESP, IRDMA_ABI_VER, 0, 0, -EINVAL },
	{ "short_request", 4, UCTX_RESP, IRDMA_ABI_VER, 0, 0, -EINVAL },
	{ "half_comp_mask", 12, UCTX_RESP, IRDMA_ABI_VER, 0, 0, -EINVAL },
	{ "libi40iw_response", UCTX_REQ, 16, IRDMA_ABI_VER, 0, 0,
	  -EOPNOTSUPP },
	{ "response_without_hw_rev", UCTX_REQ, 60, IRDMA_ABI_VER, 0, 0,
	  -EINVAL },
	{ "no_response", UCTX_REQ, 0, IRDMA_ABI_VER, 0, 0, -EINVAL },
	{ "abi_4", UCTX_REQ, UCTX_RESP, 4, 0, 0, -EINVAL },
	{ "abi_6", UCTX_REQ, UCTX_RESP, IRDMA_ABI_VER + 1, 0, 0, -EINVAL },
	{ "abi_0", UCTX_REQ, UCTX_RESP, 0, 0, 0, -EINVAL },
	{ "reserved_byte_set", UCTX_REQ, UCTX_RESP, IRDMA_ABI_VER, 1, 0,
	  -EINVAL },
};

static void uctx_req_desc(const struct uctx_req_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(uctx_req, uctx_req_cases, uctx_req_desc);

static void irdma_uctx_check_request(struct kunit *test)
{
	const struct uctx_req_case *c = test->param_value;
	struct irdma_alloc_ucontext_req req = {
		.userspace_ver = c->ver,
		.rsvd8 = { c->rsvd8 },
		.comp_mask = c->comp_mask,
	};
	const char *why = "unset";
	int ret;

	ret = irdma_uctx_check(&req, c->inlen, c->outlen, &why);
	KUNIT_EXPECT_EQ(test, ret, c->expected);
	/* a refusal names its reason for the debug log; success names none */
	if (ret)
		KUNIT_EXPECT_NOT_ERR_OR_NULL(test, why);
	else
		KUNIT_EXPECT_NULL(test, why);
}

/* every rsvd32 bit is refused, not only the low one */
static void irdma_uctx_check_rsvd32_set(struct kunit *test)
{
	struct irdma_alloc_ucontext_req req = {
		.userspace_ver = IRDMA_ABI_VER,
	};
	const char *why;
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		req.rsvd32 = BIT(bit);
		KUNIT_EXPECT_EQ(test, irdma_uctx_check(&req, UCTX_REQ,
						       UCTX_RESP, &why),
				-EINVAL);
	}
}

static void irdma_uctx_fill_gen2(struct kunit *test)
{
	struct irdma_alloc_ucontext_resp *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	memset(r, 0xa5, sizeof(*r));
	irdma_uctx_fill(IRDMA_GEN_2, 1021, IRDMA_ALLOC_UCTX_USE_RAW_ATTR, r);
	KUNIT_EXPECT_EQ(test, r->hw_rev, IRDMA_GEN_2);
	KUNIT_EXPECT_EQ(test, r->kernel_ver, IRDMA_ABI_VER);
	KUNIT_EXPECT_EQ(test, r->max_qps, 1021U);
	KUNIT_EXPECT_EQ(test, r->max_pds, (u32)IRDMA_VERBS_MAX_PDS);
	KUNIT_EXPECT_EQ(test, r->max_hw_wq_frags, 13U);
	KUNIT_EXPECT_EQ(test, r->max_hw_read_sges, 13U);
	KUNIT_EXPECT_EQ(test, r->max_hw_inline, 101U);
	KUNIT_EXPECT_EQ(test, r->max_hw_wq_quanta, 32768U);
	KUNIT_EXPECT_EQ(test, r->max_hw_rq_quanta, 32768U);
	KUNIT_EXPECT_EQ(test, r->max_hw_sq_chunk, 8);
	KUNIT_EXPECT_EQ(test, r->min_hw_cq_size, 1U);
	/* libirdma takes cqe + 1 entries: the largest CQ the verbs report */
	KUNIT_EXPECT_EQ(test, r->max_hw_cq_size - 1, (u32)IRDMA_VERBS_MAX_CQE);
	KUNIT_EXPECT_EQ(test, r->comp_mask, (u64)IRDMA_ALLOC_UCTX_USE_RAW_ATTR);
	/* CQ resize, no feature we do not have, nothing left from before */
	KUNIT_EXPECT_EQ(test, r->feature_flags, 2ULL);
	KUNIT_EXPECT_EQ(test, r->db_mmap_key, 0ULL);
	KUNIT_EXPECT_EQ(test, r->wq_size, 0U);
	KUNIT_EXPECT_EQ(test, r->rsvd2, 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(r->rsvd, 0, sizeof(r->rsvd)));
}

static void irdma_uctx_fill_gen1(struct kunit *test)
{
	struct irdma_alloc_ucontext_resp *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	irdma_uctx_fill(IRDMA_GEN_1, 16384, 0, r);
	KUNIT_EXPECT_EQ(test, r->hw_rev, IRDMA_GEN_1);
	KUNIT_EXPECT_EQ(test, r->max_qps, 16384U);
	KUNIT_EXPECT_EQ(test, r->max_hw_wq_frags, 3U);
	KUNIT_EXPECT_EQ(test, r->max_hw_read_sges, 1U);
	KUNIT_EXPECT_EQ(test, r->max_hw_inline, 48U);
	KUNIT_EXPECT_EQ(test, r->max_hw_wq_quanta, 2048U);
	KUNIT_EXPECT_EQ(test, r->max_hw_rq_quanta, 16384U);
	KUNIT_EXPECT_EQ(test, r->max_hw_sq_chunk, 2);
	KUNIT_EXPECT_EQ(test, r->comp_mask, 0ULL);
	/* X722 has no MODIFY_CQ resize */
	KUNIT_EXPECT_EQ(test, r->feature_flags, 0ULL);
}

/* the response only acknowledges comp_mask bits the driver knows */
static void irdma_uctx_fill_unknown_comp_mask(struct kunit *test)
{
	struct irdma_alloc_ucontext_resp *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	irdma_uctx_fill(IRDMA_GEN_2, 1, ~(u64)IRDMA_ALLOC_UCTX_USE_RAW_ATTR, r);
	KUNIT_EXPECT_EQ(test, r->comp_mask, 0ULL);
	irdma_uctx_fill(IRDMA_GEN_2, 1, ~0ULL, r);
	KUNIT_EXPECT_EQ(test, r->comp_mask, (u64)IRDMA_ALLOC_UCTX_USE_RAW_ATTR);
}

/* what query_device reports agrees with what libirdma is told */
static void irdma_uctx_fill_matches_read_sges(struct kunit *test)
{
	struct irdma_alloc_ucontext_resp *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	irdma_uctx_fill(IRDMA_GEN_2, 1, 0, r);
	KUNIT_EXPECT_EQ(test, r->max_hw_read_sges,
			irdma_verbs_read_sges(IRDMA_GEN_2));
	/* an SQ holds at least max_qp_wr WRs of the largest WQE */
	KUNIT_EXPECT_GE(test, r->max_hw_wq_quanta,
			(u32)(IRDMA_VERBS_MAX_QP_WR + 1) * IRDMA_UK_MAX_QUANTA);
}

static struct kunit_case irdma_uctx_cases[] = {
	KUNIT_CASE_PARAM(irdma_uctx_check_request, uctx_req_gen_params),
	KUNIT_CASE(irdma_uctx_check_rsvd32_set),
	KUNIT_CASE(irdma_uctx_fill_gen2),
	KUNIT_CASE(irdma_uctx_fill_gen1),
	KUNIT_CASE(irdma_uctx_fill_unknown_comp_mask),
	KUNIT_CASE(irdma_uctx_fill_matches_read_sges),
	{}
};

static struct kunit_suite irdma_uctx_suite = {
	.name = "irdma_uctx",
	.test_cases = irdma_uctx_cases,
};

kunit_test_suite(irdma_uctx_suite);
