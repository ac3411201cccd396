// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_stag (and irdma_sim_stag_gen1 on an X722
 * function): STags: allocation, registration, binding, fast registration
 * and invalidation. Included at the end of sim/stag.c.
 */
#include "harness.h"

#define ISIM_T_PBL(l)		((u64)(l) << 44)
#define ISIM_T_PAGE(p)		((u64)(p) << 46)

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

static struct kunit_case isim_stag_test_cases[] = {
	KUNIT_CASE(isim_stag_bind_reads_generation_layout),
	KUNIT_CASE_PARAM(isim_stag_command_checks_fields, isim_stag_gen_params),
	KUNIT_CASE(isim_stag_dealloc_matches_kind_and_pd),
	KUNIT_CASE(isim_stag_fast_reg_and_invalidate),
	{}
};

static struct kunit_suite isim_stag_test_suite = {
	.name = "irdma_sim_stag",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_stag_test_cases,
};

/* the same on a function modelling an X722 (gen1) */
static struct kunit_case isim_stag_gen1_test_cases[] = {
	KUNIT_CASE(isim_stag_dealloc_matches_kind_and_pd),
	KUNIT_CASE(isim_stag_bind_reads_generation_layout),
	{}
};

static struct kunit_suite isim_stag_gen1_test_suite = {
	.name = "irdma_sim_stag_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_stag_gen1_test_cases,
};

kunit_test_suites(&isim_stag_test_suite, &isim_stag_gen1_test_suite);
