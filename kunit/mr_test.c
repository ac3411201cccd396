// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the MR helpers of mr.c: STag packing and the index
 * range, access flags to STag rights, page sizes per generation, the
 * user registration request, and the fast-register WQE built from an MR.
 * Included at the end of mr.c, so the helpers stay static.
 */
#include <kunit/test.h>

/* ---- STag packing ---- */

/**
 * struct mr_stag_case - an index and key and the STag they make
 * @name: description
 * @index: STag index
 * @key: key byte
 * @stag: expected STag
 */
struct mr_stag_case {
	const char *name;
	u32 index;
	u8 key;
	u32 stag;
};

static const struct mr_stag_case mr_stag_cases[] = {
	{ "index_1_key_0", 1, 0x00, 0x00000100 },
	{ "index_1_key_ff", 1, 0xff, 0x000001ff },
	{ "index_abcd_key_5a", 0xabcd, 0x5a, 0x00abcd5a },
	{ "largest_index", 0xffffff, 0x01, 0xffffff01 },
};

static void mr_stag_desc(const struct mr_stag_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mr_stag, mr_stag_cases, mr_stag_desc);

static void irdma_stag_make_index_and_key(struct kunit *test)
{
	const struct mr_stag_case *c = test->param_value;
	u32 stag = irdma_stag_make(c->index, c->key);

	KUNIT_EXPECT_EQ(test, stag, c->stag);
	KUNIT_EXPECT_EQ(test, irdma_stag_index(stag), c->index);
	KUNIT_EXPECT_EQ(test, (u8)stag, c->key);
}

/**
 * struct mr_range_case - MR objects in the HMC and the STag indexes
 * @name: description
 * @mr_cnt: MR objects
 * @ret: expected result
 * @max: expected highest index
 */
struct mr_range_case {
	const char *name;
	u32 mr_cnt;
	int ret;
	u32 max;
};

static const struct mr_range_case mr_range_cases[] = {
	{ "no_mr_objects", 0, -ENOSPC, 0 },
	{ "only_reserved_index_0", 1, -ENOSPC, 0 },
	{ "two_objects", 2, 0, 1 },
	{ "profile_4096", 4096, 0, 4095 },
	{ "beyond_24_bits", 1U << 25, 0, 0xffffff },
};

static void mr_range_desc(const struct mr_range_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mr_range, mr_range_cases, mr_range_desc);

static void irdma_stag_max_index_by_count(struct kunit *test)
{
	const struct mr_range_case *c = test->param_value;
	u32 max = 0xdeadbeef;

	KUNIT_EXPECT_EQ(test, irdma_stag_max_index(c->mr_cnt, &max), c->ret);
	if (!c->ret)
		KUNIT_EXPECT_EQ(test, max, c->max);
	else
		KUNIT_EXPECT_EQ(test, max, 0xdeadbeef);
}

/* ---- access flags ---- */

/**
 * struct mr_access_case - IB access flags and the rights they give
 * @name: description
 * @access: IB_ACCESS_* flags
 * @ret: expected result
 * @rights: expected IRDMA_ACCESS_* rights (when @ret is 0)
 * @remote: the STag is reachable from the wire
 */
struct mr_access_case {
	const char *name;
	int access;
	int ret;
	u8 rights;
	bool remote;
};

#define MR_LR	IRDMA_ACCESS_LOCAL_READ
#define MR_LW	IRDMA_ACCESS_LOCAL_WRITE
#define MR_RR	IRDMA_ACCESS_REMOTE_READ
#define MR_RW	IRDMA_ACCESS_REMOTE_WRITE

static const struct mr_access_case mr_access_cases[] = {
	{ "none_is_local_read", 0, 0, MR_LR, false },
	{ "local_write", IB_ACCESS_LOCAL_WRITE, 0, MR_LR | MR_LW, false },
	{ "remote_read", IB_ACCESS_REMOTE_READ, 0, MR_LR | MR_RR, true },
	{ "remote_write_with_local_write",
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, 0,
	  MR_LR | MR_LW | MR_RW, true },
	{ "all_rights", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
	  IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND, 0,
	  MR_LR | MR_LW | MR_RR | MR_RW | IRDMA_ACCESS_MW_BIND, true },
	{ "relaxed_ordering_ignored",
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_RELAXED_ORDERING, 0,
	  MR_LR | MR_LW, false },
	{ "hugetlb_hint_ignored", IB_ACCESS_HUGETLB, 0, MR_LR, false },
	{ "remote_write_without_local_write", IB_ACCESS_REMOTE_WRITE, -EINVAL,
	  0, false },
	{ "atomic_without_local_write", IB_ACCESS_REMOTE_ATOMIC, -EINVAL, 0,
	  false },
	{ "atomic_refused", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC,
	  -EOPNOTSUPP, 0, false },
	{ "zero_based_refused", IB_ZERO_BASED, -EOPNOTSUPP, 0, false },
	{ "on_demand_refused", IB_ACCESS_ON_DEMAND, -EOPNOTSUPP, 0, false },
	{ "unknown_bit", BIT(16), -EINVAL, 0, false },
};

static void mr_access_desc(const struct mr_access_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mr_access, mr_access_cases, mr_access_desc);

static void irdma_mr_rights_from_access(struct kunit *test)
{
	const struct mr_access_case *c = test->param_value;
	u8 rights = 0xee;

	KUNIT_ASSERT_EQ(test, irdma_mr_rights(c->access, &rights), c->ret);
	if (c->ret) {
		/* a refusal leaves the output alone */
		KUNIT_EXPECT_EQ(test, rights, 0xee);
		return;
	}
	KUNIT_EXPECT_EQ(test, rights, c->rights);
	KUNIT_EXPECT_EQ(test, irdma_mr_remote(rights), c->remote);
}

/* ---- page sizes ---- */

/**
 * struct mr_page_case - a page size on one generation
 * @name: description
 * @gen: engine generation
 * @pgsz: page size in bytes
 * @ret: expected result
 * @enc: expected IRDMA_PAGE_SIZE_* (when @ret is 0)
 */
struct mr_page_case {
	const char *name;
	enum irdma_hw_gen gen;
	unsigned long pgsz;
	int ret;
	u8 enc;
};

static const struct mr_page_case mr_page_cases[] = {
	{ "gen2_4k", IRDMA_GEN_2, SZ_4K, 0, IRDMA_PAGE_SIZE_4K },
	{ "gen2_2m", IRDMA_GEN_2, SZ_2M, 0, IRDMA_PAGE_SIZE_2M },
	{ "gen2_1g", IRDMA_GEN_2, SZ_1G, 0, IRDMA_PAGE_SIZE_1G },
	{ "gen1_2m", IRDMA_GEN_1, SZ_2M, 0, IRDMA_PAGE_SIZE_2M },
	{ "gen1_1g_refused", IRDMA_GEN_1, SZ_1G, -EINVAL, 0 },
	{ "gen2_64k_refused", IRDMA_GEN_2, SZ_64K, -EINVAL, 0 },
	{ "gen2_8k_refused", IRDMA_GEN_2, SZ_8K, -EINVAL, 0 },
	{ "gen2_zero_refused", IRDMA_GEN_2, 0, -EINVAL, 0 },
	{ "gen2_two_sizes_refused", IRDMA_GEN_2, SZ_4K | SZ_2M, -EINVAL, 0 },
};

static void mr_page_desc(const struct mr_page_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mr_page, mr_page_cases, mr_page_desc);

static void irdma_mr_hw_page_by_gen(struct kunit *test)
{
	const struct mr_page_case *c = test->param_value;
	u8 enc = 0xee;

	KUNIT_ASSERT_EQ(test, irdma_mr_hw_page(c->gen, c->pgsz, &enc), c->ret);
	KUNIT_EXPECT_EQ(test, enc, c->ret ? 0xee : c->enc);
}

/* ---- the user registration request ---- */

/**
 * struct mr_req_case - a user registration request and its verdict
 * @name: description
 * @inlen: driver data length user space passed
 * @req: the request
 * @ret: expected result
 */
struct mr_req_case {
	const char *name;
	size_t inlen;
	struct irdma_mem_reg_req req;
	int ret;
};

#define MR_REQ	sizeof(struct irdma_mem_reg_req)

static const struct mr_req_case mr_req_cases[] = {
	{ "libirdma_mem", MR_REQ, { .reg_type = IRDMA_MEMREG_TYPE_MEM }, 0 },
	{ "longer_request", MR_REQ + 8, { .reg_type = IRDMA_MEMREG_TYPE_MEM },
	  0 },
	{ "no_request", 0, { .reg_type = IRDMA_MEMREG_TYPE_MEM }, -EINVAL },
	{ "short_request", MR_REQ - 2, { .reg_type = IRDMA_MEMREG_TYPE_MEM },
	  -EINVAL },
	{ "qp_rings", MR_REQ, { .reg_type = IRDMA_MEMREG_TYPE_QP,
	  .sq_pages = 1, .rq_pages = 1 }, 0 },
	{ "cq_ring", MR_REQ, { .reg_type = IRDMA_MEMREG_TYPE_CQ,
	  .cq_pages = 1 }, 0 },
	{ "unknown_type", MR_REQ, { .reg_type = 3 }, -EINVAL },
	/* libirdma does not initialise the ring page counts of MEM */
	{ "mem_ignores_ring_pages", MR_REQ, { .reg_type = IRDMA_MEMREG_TYPE_MEM,
	  .sq_pages = 0x5a5a, .rq_pages = 1, .cq_pages = 0xffff }, 0 },
};

static void mr_req_desc(const struct mr_req_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mr_req, mr_req_cases, mr_req_desc);

static void irdma_mr_req_check_request(struct kunit *test)
{
	const struct mr_req_case *c = test->param_value;
	const char *why = "unset";

	KUNIT_EXPECT_EQ(test, irdma_mr_req_check(&c->req, c->inlen, &why),
			c->ret);
	/* a refusal names its reason for the debug log; success names none */
	if (c->ret)
		KUNIT_EXPECT_NOT_ERR_OR_NULL(test, why);
	else
		KUNIT_EXPECT_NULL(test, why);
}

static void irdma_mr_len_check_limits(struct kunit *test)
{
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, irdma_mr_len_check(0, &why), -EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, why);
	KUNIT_EXPECT_EQ(test, irdma_mr_len_check(1, &why), 0);
	KUNIT_EXPECT_EQ(test, irdma_mr_len_check(IRDMA_MR_MAX_LEN, &why), 0);
	KUNIT_EXPECT_EQ(test, irdma_mr_len_check(IRDMA_MR_MAX_LEN + 1, &why),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_mr_len_check(U64_MAX, &why), -EINVAL);
}

/* ---- the fast-register WQE ---- */

/**
 * struct mr_fr_fixture - an MR as map_mr_sg leaves it, on a fake engine
 * @fn: function (only its generation is read)
 * @hw: engine (only @fn is read)
 * @mr: the MR
 */
struct mr_fr_fixture {
	struct irdma_func fn;
	struct irdma_hw hw;
	struct irdma_mr mr;
};

static int mr_fr_init(struct kunit *test)
{
	struct mr_fr_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	f->fn.gen = IRDMA_GEN_2;
	f->hw.fn = &f->fn;
	f->mr.hw = &f->hw;
	f->mr.stag = irdma_stag_make(0x42, 0x17);
	f->mr.max_pages = 8;
	f->mr.npages = 3;
	f->mr.first_page = 0x12340000;
	f->mr.pbl.level = 1;
	f->mr.pbl.root.idx = 100;
	f->mr.pbl.root.cnt = 8;
	f->mr.ibmr.page_size = SZ_4K;
	f->mr.ibmr.iova = 0x7f0000001000ULL;
	f->mr.ibmr.length = 3 * SZ_4K;
	test->priv = f;
	return 0;
}

static void mr_fr_wr(struct mr_fr_fixture *f, struct ib_reg_wr *wr, u8 key,
		     int access)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr.wr_id = 0xabc;
	wr->wr.opcode = IB_WR_REG_MR;
	wr->mr = &f->mr.ibmr;
	wr->key = irdma_stag_make(0x42, key);
	wr->access = access;
}

static void irdma_mr_fastreg_fill_three_pages(struct kunit *test)
{
	struct mr_fr_fixture *f = test->priv;
	struct irdma_uk_fastreg reg = {};
	struct ib_reg_wr wr;

	mr_fr_wr(f, &wr, 0x18, IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	KUNIT_ASSERT_EQ(test, irdma_mr_fastreg_fill(&f->mr, &wr, &reg), 0);
	KUNIT_EXPECT_EQ(test, reg.wr_id, 0xabcULL);
	KUNIT_EXPECT_EQ(test, reg.stag, 0x4218U);
	KUNIT_EXPECT_EQ(test, reg.va, 0x7f0000001000ULL);
	KUNIT_EXPECT_EQ(test, reg.len, 3ULL * SZ_4K);
	KUNIT_EXPECT_EQ(test, reg.pbl_levels, 1);
	KUNIT_EXPECT_EQ(test, reg.first_pble, 100U);
	KUNIT_EXPECT_EQ(test, reg.pbl_addr, 0x12340000ULL);
	KUNIT_EXPECT_EQ(test, reg.page_size, IRDMA_PAGE_SIZE_4K);
	KUNIT_EXPECT_EQ(test, reg.rights, MR_LR | MR_LW | MR_RW);
}

static void irdma_mr_fastreg_fill_one_page_no_pbl(struct kunit *test)
{
	struct mr_fr_fixture *f = test->priv;
	struct irdma_uk_fastreg reg = {};
	struct ib_reg_wr wr;

	f->mr.npages = 1;
	f->mr.ibmr.page_size = SZ_2M;
	mr_fr_wr(f, &wr, 0x17, 0);
	KUNIT_ASSERT_EQ(test, irdma_mr_fastreg_fill(&f->mr, &wr, &reg), 0);
	KUNIT_EXPECT_EQ(test, reg.pbl_levels, 0);
	KUNIT_EXPECT_EQ(test, reg.pbl_addr, 0x12340000ULL);
	KUNIT_EXPECT_EQ(test, reg.page_size, IRDMA_PAGE_SIZE_2M);
}

static void irdma_mr_fastreg_fill_bad(struct kunit *test)
{
	struct mr_fr_fixture *f = test->priv;
	struct irdma_uk_fastreg reg = {};
	struct ib_reg_wr wr;

	/* the key of another STag index */
	mr_fr_wr(f, &wr, 0x18, 0);
	wr.key = irdma_stag_make(0x43, 0x18);
	KUNIT_EXPECT_EQ(test, irdma_mr_fastreg_fill(&f->mr, &wr, &reg),
			-EINVAL);
	/* remote write without local write */
	mr_fr_wr(f, &wr, 0x18, IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_EQ(test, irdma_mr_fastreg_fill(&f->mr, &wr, &reg),
			-EINVAL);
	/* nothing mapped yet */
	mr_fr_wr(f, &wr, 0x18, 0);
	f->mr.npages = 0;
	KUNIT_EXPECT_EQ(test, irdma_mr_fastreg_fill(&f->mr, &wr, &reg),
			-EINVAL);
	/* not a fast-register MR */
	f->mr.npages = 1;
	f->mr.max_pages = 0;
	KUNIT_EXPECT_EQ(test, irdma_mr_fastreg_fill(&f->mr, &wr, &reg),
			-EINVAL);
}

static struct kunit_case irdma_mr_cases[] = {
	KUNIT_CASE_PARAM(irdma_stag_make_index_and_key, mr_stag_gen_params),
	KUNIT_CASE_PARAM(irdma_stag_max_index_by_count, mr_range_gen_params),
	KUNIT_CASE_PARAM(irdma_mr_rights_from_access, mr_access_gen_params),
	KUNIT_CASE_PARAM(irdma_mr_hw_page_by_gen, mr_page_gen_params),
	KUNIT_CASE_PARAM(irdma_mr_req_check_request, mr_req_gen_params),
	KUNIT_CASE(irdma_mr_len_check_limits),
	KUNIT_CASE(irdma_mr_fastreg_fill_three_pages),
	KUNIT_CASE(irdma_mr_fastreg_fill_one_page_no_pbl),
	KUNIT_CASE(irdma_mr_fastreg_fill_bad),
	{}
};

static struct kunit_suite irdma_mr_suite = {
	.name = "irdma_mr",
	.init = mr_fr_init,
	.test_cases = irdma_mr_cases,
};

kunit_test_suite(irdma_mr_suite);
