// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for kernel and user CQs (cq.c): how a CQE becomes an ib_wc,
 * how big the ring gets for the CQEs asked, and which user CQ layouts a
 * registration accepts.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/string.h>
#include <rdma/ib_pack.h>

/* ---- irdma_cqe_to_wc ---- */

struct cq_wc_case {
	const char *name;
	struct irdma_uk_cqe cqe;
	struct irdma_uk_done done;
	enum ib_wc_status status;
	enum ib_wc_opcode opcode;
	int flags;
	u32 byte_len;
	u32 vendor_err;
};

static const struct cq_wc_case cq_wc_cases[] = {
	{ "send_ok", { .sq = true, .op = IRDMA_WQEOP_SEND },
	  { .wr_id = 5, .bytes = 100, .op = IRDMA_WQEOP_SEND },
	  IB_WC_SUCCESS, IB_WC_SEND, 0, 100, 0 },
	{ "send_inv_ok", { .sq = true, .op = IRDMA_WQEOP_SEND_INV },
	  { .wr_id = 6, .op = IRDMA_WQEOP_SEND_INV },
	  IB_WC_SUCCESS, IB_WC_SEND, 0, 0, 0 },
	{ "write_ok", { .sq = true }, { .wr_id = 7, .bytes = 8,
	  .op = IRDMA_WQEOP_RDMA_WRITE },
	  IB_WC_SUCCESS, IB_WC_RDMA_WRITE, 0, 8, 0 },
	{ "read_ok", { .sq = true }, { .op = IRDMA_WQEOP_RDMA_READ },
	  IB_WC_SUCCESS, IB_WC_RDMA_READ, 0, 0, 0 },
	{ "local_inv_ok", { .sq = true }, { .op = IRDMA_WQEOP_LOCAL_INV },
	  IB_WC_SUCCESS, IB_WC_LOCAL_INV, 0, 0, 0 },
	{ "fast_reg_ok", { .sq = true }, { .op = IRDMA_WQEOP_FAST_REG },
	  IB_WC_SUCCESS, IB_WC_REG_MR, 0, 0, 0 },
	{ "send_flushed", { .sq = true, .major = IRDMA_CQE_MAJ_FLUSH },
	  { .wr_id = 9, .op = IRDMA_WQEOP_RDMA_WRITE, .flushed = true },
	  IB_WC_WR_FLUSH_ERR, IB_WC_RDMA_WRITE, 0, 0, 0 },
	{ "write_prot_err", { .sq = true, .error = true, .major = 1,
	  .minor = 2 }, { .op = IRDMA_WQEOP_RDMA_WRITE, .flushed = true,
	  .named = true },
	  IB_WC_LOC_PROT_ERR, IB_WC_RDMA_WRITE, 0, 0, 0x10002 },
	{ "send_len_err_behind", { .sq = true, .error = true, .major = 1,
	  .minor = 6 }, { .op = IRDMA_WQEOP_SEND, .flushed = true },
	  IB_WC_WR_FLUSH_ERR, IB_WC_SEND, 0, 0, 0 },
	{ "recv_retry_exc", { .error = true, .major = 1, .minor = 8 },
	  { .flushed = true, .named = true },
	  IB_WC_RETRY_EXC_ERR, IB_WC_RECV, 0, 0, 0x10008 },
	{ "send_unknown_minor", { .sq = true, .error = true, .major = 1,
	  .minor = 0x55 }, { .op = IRDMA_WQEOP_SEND, .flushed = true,
	  .named = true },
	  IB_WC_WR_FLUSH_ERR, IB_WC_SEND, 0, 0, 0 },
	{ "send_error", { .sq = true, .error = true, .major = 0x3,
	  .minor = 0x5 }, { .op = IRDMA_WQEOP_SEND },
	  IB_WC_GENERAL_ERR, IB_WC_SEND, 0, 0, 0x30005 },
	{ "recv_ok", { .op = IRDMA_WQEOP_RECV }, { .bytes = 256 },
	  IB_WC_SUCCESS, IB_WC_RECV, 0, 256, 0 },
	{ "recv_imm", { .op = IRDMA_WQEOP_SEND, .imm_valid = true,
	  .imm = 0x11223344 }, { .bytes = 4 },
	  IB_WC_SUCCESS, IB_WC_RECV, IB_WC_WITH_IMM, 4, 0 },
	{ "recv_write_imm", { .op = IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	  .imm_valid = true }, {},
	  IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM, IB_WC_WITH_IMM, 0, 0 },
	{ "recv_invalidate", { .stag_inv = true, .inv_stag = 0x1234 }, {},
	  IB_WC_SUCCESS, IB_WC_RECV, IB_WC_WITH_INVALIDATE, 0, 0 },
	{ "recv_ud", { .smac_valid = true, .ud_smac = 0x0200000000aaULL,
	  .vlan_valid = true, .ud_vlan = 0x2005, .ud_src_qpn = 1 },
	  { .bytes = 296 },
	  IB_WC_SUCCESS, IB_WC_RECV, IB_WC_WITH_SMAC | IB_WC_WITH_VLAN, 296, 0 },
	{ "recv_flushed", { .major = IRDMA_CQE_MAJ_FLUSH },
	  { .flushed = true }, IB_WC_WR_FLUSH_ERR, IB_WC_RECV, 0, 0, 0 },
};

static void cq_wc_desc(const struct cq_wc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cq_wc, cq_wc_cases, cq_wc_desc);

static void irdma_cqe_to_wc_table(struct kunit *test)
{
	const struct cq_wc_case *c = test->param_value;
	struct ib_wc wc;

	memset(&wc, 0xa5, sizeof(wc));
	irdma_cqe_to_wc(&c->cqe, &c->done, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, c->status);
	KUNIT_EXPECT_EQ(test, wc.opcode, c->opcode);
	KUNIT_EXPECT_EQ(test, wc.wc_flags, c->flags);
	KUNIT_EXPECT_EQ(test, wc.byte_len, c->byte_len);
	KUNIT_EXPECT_EQ(test, wc.vendor_err, c->vendor_err);
	KUNIT_EXPECT_EQ(test, wc.wr_id, c->done.wr_id);
	KUNIT_EXPECT_PTR_EQ(test, wc.qp, NULL);
	if (c->flags & IB_WC_WITH_IMM)
		KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), c->cqe.imm);
	if (c->flags & IB_WC_WITH_INVALIDATE)
		KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, c->cqe.inv_stag);
}

static void irdma_cqe_to_wc_ud_fields(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0xaa };
	const struct cq_wc_case *c = &cq_wc_cases[ARRAY_SIZE(cq_wc_cases) - 2];
	struct ib_wc wc;

	irdma_cqe_to_wc(&c->cqe, &c->done, &wc);
	KUNIT_EXPECT_EQ(test, memcmp(wc.smac, mac, ETH_ALEN), 0);
	KUNIT_EXPECT_EQ(test, wc.vlan_id, 5);
	KUNIT_EXPECT_EQ(test, wc.src_qp, 1);
}

struct cq_ring_case {
	const char *name;
	u32 cqe;
	u32 ring;
};

static const struct cq_ring_case cq_ring_cases[] = {
	{ "one_cqe", 1, 4 },
	{ "three_cqes", 3, 4 },
	{ "four_cqes", 4, 5 },
	{ "mad_cq", 640, 641 },
	{ "largest", IRDMA_CQ_MAX_CQE, IRDMA_CQ_MAX_CQE + 1 },
};

static void cq_ring_desc(const struct cq_ring_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cq_ring, cq_ring_cases, cq_ring_desc);

static void irdma_cq_ring_size_table(struct kunit *test)
{
	const struct cq_ring_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, irdma_cq_ring_size(c->cqe), c->ring);
}

/* ---- irdma_ucq_req_check: a user CQ against its registration ---- */

#define UCQ_VA	0x7f0000000000ULL

static void irdma_ucq_req_check_layouts(struct kunit *test)
{
	struct irdma_create_cq_req req = {
		.user_cq_buf = UCQ_VA,
		.user_shadow_area = UCQ_VA + SZ_4K,
	};
	const char *why;

	/* libirdma: 1 page of 32-byte CQEs, the shadow area after it */
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 128, UCQ_VA, 1, true,
						  &why), 0);
	KUNIT_EXPECT_NULL(test, why);
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 4, UCQ_VA, 1, true,
						  &why), 0);
	/* more CQEs than the page holds, fewer than the engine takes */
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 129, UCQ_VA, 1, true,
						  &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, why);
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 3, UCQ_VA, 1, true,
						  &why), -EINVAL);
	/* another buffer, a shadow area elsewhere */
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 64, UCQ_VA + SZ_4K, 1,
						  true, &why), -EINVAL);
	req.user_shadow_area = UCQ_VA + 64;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 64, UCQ_VA, 1, true,
						  &why), -EINVAL);
	req.user_shadow_area = 0;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 64, UCQ_VA, 1, true,
						  &why), -EINVAL);
	/* resizable layout: the shadow area is a page of its own */
	req.user_shadow_area = UCQ_VA + 16 * SZ_4K;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 256, UCQ_VA, 2, false,
						  &why), 0);
	KUNIT_EXPECT_NULL(test, why);
	/* right after the ring is fine too, inside it or unaligned is not */
	req.user_shadow_area = UCQ_VA + 2 * SZ_4K;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 256, UCQ_VA, 2, false,
						  &why), 0);
	req.user_shadow_area = UCQ_VA + SZ_4K;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 256, UCQ_VA, 2, false,
						  &why), -EINVAL);
	req.user_shadow_area = UCQ_VA + 16 * SZ_4K + 64;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 256, UCQ_VA, 2, false,
						  &why), -EINVAL);
	req.user_shadow_area = 0;
	KUNIT_EXPECT_EQ(test, irdma_ucq_req_check(&req, 256, UCQ_VA, 2, false,
						  &why), -EINVAL);
}

static struct kunit_case irdma_cq_cases[] = {
	KUNIT_CASE(irdma_ucq_req_check_layouts),
	KUNIT_CASE_PARAM(irdma_cqe_to_wc_table, cq_wc_gen_params),
	KUNIT_CASE(irdma_cqe_to_wc_ud_fields),
	KUNIT_CASE_PARAM(irdma_cq_ring_size_table, cq_ring_gen_params),
	{}
};

static struct kunit_suite irdma_cq_suite = {
	.name = "irdma_cq",
	.test_cases = irdma_cq_cases,
};

kunit_test_suite(irdma_cq_suite);
