// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the ring registration check of uring.c: what libirdma
 * registers for a CQ and a QP is taken, buffers that do not match the
 * page counts, unaligned buffers and other access flags are refused; and
 * for the connection WQEs of user QPs, that a fake pinned ring (a kernel
 * page behind a one-entry umem) gets the LSMM or RTR at quantum 0 and
 * nothing else, and that lengths or rings that cannot hold it fail.
 * Included at the end of uring.c, so the helpers stay static.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>

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
	/* libirdma with IRDMA_FEATURE_CQ_RESIZE: CQE pages, shadow apart */
	{ "cq_pages_alone", URING_CQ(2), URING_VA, 2 * SZ_4K, URING_LW, 0 },
	{ "cq_shadow_alone", URING_CQ(1), URING_VA, 64, URING_LW, 0 },
	{ "cq_shadow_alone_short", URING_CQ(1), URING_VA, 63, URING_LW,
	  -EINVAL },
	{ "cq_shadow_alone_two_pages", URING_CQ(2), URING_VA, 64, URING_LW,
	  -EINVAL },
	{ "cq_between", URING_CQ(2), URING_VA, 2 * SZ_4K + 63, URING_LW,
	  -EINVAL },
	{ "qp_no_shadow", URING_QP(1, 1), URING_VA, 2 * SZ_4K, URING_LW,
	  -EINVAL },
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

/*
 * A QP ring registration over one kernel page, as pinning would leave it:
 * a umem whose table holds the page, at a page aligned user address.
 */
struct uring_fake {
	struct irdma_uring ur;
	struct ib_umem umem;
	struct page *page;
};

#define URING_FILL	0xa5

static void uring_fake_init(struct kunit *test, struct uring_fake *f,
			    u16 sq_pages, u32 sg_len)
{
	memset(f, 0, sizeof(*f));
	f->page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->page);
	memset(page_address(f->page), URING_FILL, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&f->umem.sgt_append.sgt, 1,
					     GFP_KERNEL), 0);
	sg_set_page(f->umem.sgt_append.sgt.sgl, f->page, sg_len, 0);
	f->umem.address = URING_VA;
	f->umem.length = (u64)(sq_pages + 1) * SZ_4K + 64;
	f->ur.umem = &f->umem;
	f->ur.va = URING_VA;
	f->ur.type = IRDMA_MEMREG_TYPE_QP;
	f->ur.ring_pages = sq_pages;
	f->ur.rq_pages = 1;
}

static void uring_fake_fini(struct uring_fake *f)
{
	sg_free_table(&f->umem.sgt_append.sgt);
	__free_page(f->page);
}

static u64 uring_fake_word(struct uring_fake *f, unsigned int w)
{
	return le64_to_cpu(((__le64 *)page_address(f->page))[w]);
}

/* Nothing past quantum 0 was written */
static void uring_expect_rest_untouched(struct kunit *test,
					struct uring_fake *f)
{
	KUNIT_EXPECT_NULL(test, memchr_inv((u8 *)page_address(f->page) +
					   IRDMA_QUANTUM_BYTES, URING_FILL,
					   PAGE_SIZE - IRDMA_QUANTUM_BYTES));
}

static void irdma_uring_conn_lsmm_at_quantum0(struct kunit *test)
{
	struct irdma_uk_qp uk;
	struct uring_fake f;
	__le64 *sq;
	u64 hdr;

	uring_fake_init(test, &f, 1, PAGE_SIZE);
	sq = irdma_uring_conn_uk(&f.ur, 128, 2, &uk);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sq));
	KUNIT_EXPECT_PTR_EQ(test, (void *)uk.sq, (void *)sq);
	KUNIT_EXPECT_EQ(test, uk.conn_quanta, IRDMA_UK_CONN_QUANTA);
	KUNIT_EXPECT_EQ(test, irdma_uk_conn_lsmm(&uk, 0x12345000, 60, 0x4242),
			0);
	kunmap_local(sq);

	KUNIT_EXPECT_EQ(test, uring_fake_word(&f, 0), 0x12345000ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_FRAG_LEN, uring_fake_word(&f, 1)),
			60ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_FRAG_STAG,
					uring_fake_word(&f, 1)), 0x4242ULL);
	/* libirdma starts at quantum 1 on lap 1: quantum 0 is valid as 1 */
	KUNIT_EXPECT_TRUE(test, uring_fake_word(&f, 1) & IRDMA_FRAG_VALID);
	hdr = uring_fake_word(&f, 3);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_SQWQE_OPCODE, hdr),
			(u64)IRDMA_WQEOP_SEND);
	KUNIT_EXPECT_TRUE(test, hdr & IRDMA_SQWQE_STREAMMODE);
	KUNIT_EXPECT_TRUE(test, hdr & IRDMA_SQWQE_WAITFORRCVPDU);
	KUNIT_EXPECT_TRUE(test, hdr & IRDMA_SQWQE_VALID);
	uring_expect_rest_untouched(test, &f);
	uring_fake_fini(&f);
}

static void irdma_uring_conn_rtr_at_quantum0(struct kunit *test)
{
	struct irdma_uk_qp uk;
	struct uring_fake f;
	__le64 *sq;
	u64 hdr;

	uring_fake_init(test, &f, 2, PAGE_SIZE);
	sq = irdma_uring_conn_uk(&f.ur, 256, 2, &uk);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sq));
	KUNIT_EXPECT_EQ(test, irdma_uk_conn_rtr(&uk, true), 0);
	kunmap_local(sq);

	hdr = uring_fake_word(&f, 3);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_SQWQE_OPCODE, hdr),
			(u64)IRDMA_WQEOP_RDMA_READ);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_SQWQE_REMSTAG, hdr),
			(u64)IRDMA_UK_RTR_REMOTE_STAG);
	KUNIT_EXPECT_TRUE(test, hdr & IRDMA_SQWQE_VALID);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_FRAG_STAG,
					uring_fake_word(&f, 1)),
			(u64)IRDMA_UK_RTR_LOCAL_STAG);
	uring_expect_rest_untouched(test, &f);
	uring_fake_fini(&f);
}

/* Every refusal leaves the ring as it was and maps nothing */
static void irdma_uring_conn_refusals(struct kunit *test)
{
	struct irdma_uk_qp uk;
	struct uring_fake f;

	uring_fake_init(test, &f, 1, PAGE_SIZE);
	/* an SQ no larger than the connection quanta */
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_conn_uk(&f.ur, 1, 2, &uk)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_conn_uk(&f.ur, 0, 2, &uk)),
			-EINVAL);
	/* lengths: none, not whole quanta, beyond the SQ pages */
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(&f.ur, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(&f.ur, 16)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(&f.ur, SZ_4K + 32)),
			-EINVAL);
	/* within two SQ pages but not within the first page */
	f.ur.ring_pages = 2;
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(&f.ur,
							  PAGE_SIZE + 32)),
			-EINVAL);
	f.ur.ring_pages = 1;
	/* a CQ's registration, or none */
	f.ur.type = IRDMA_MEMREG_TYPE_CQ;
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_conn_uk(&f.ur, 64, 2, &uk)),
			-EINVAL);
	f.ur.type = IRDMA_MEMREG_TYPE_QP;
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(NULL, 32)), -EINVAL);
	/* quanta that would run past the page the address starts in */
	f.umem.address = URING_VA + PAGE_SIZE - 16;
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(&f.ur, 32)),
			-EINVAL);
	f.umem.address = URING_VA;
	KUNIT_EXPECT_NULL(test, memchr_inv(page_address(f.page), URING_FILL,
					   PAGE_SIZE));
	uring_fake_fini(&f);

	/* a pinned entry shorter than the quantum */
	uring_fake_init(test, &f, 1, 16);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irdma_uring_kmap_sq(&f.ur, 32)),
			-EINVAL);
	uring_fake_fini(&f);
}

static struct kunit_case irdma_uring_cases[] = {
	KUNIT_CASE_PARAM(irdma_uring_req_check_request, uring_req_gen_params),
	KUNIT_CASE(irdma_uring_pages_by_type),
	KUNIT_CASE(irdma_uring_conn_lsmm_at_quantum0),
	KUNIT_CASE(irdma_uring_conn_rtr_at_quantum0),
	KUNIT_CASE(irdma_uring_conn_refusals),
	{}
};

static struct kunit_suite irdma_uring_suite = {
	.name = "irdma_uring",
	.test_cases = irdma_uring_cases,
};

kunit_test_suite(irdma_uring_suite);
