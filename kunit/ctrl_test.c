// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the control plane (ctrl.c): golden CQP WQE layouts for
 * every builder, rejected parameters, the CQP ring against a fake device
 * over several laps, CEQ/AEQ decoding and the QP context writers.
 *
 * Expected words are written with explicit shifts taken from the
 * hardware description, independently of the driver's field macros.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define B(n)		BIT_ULL(n)
#define V		B(63)
#define OP(x)		((u64)(x) << 32)

/* ---- golden layouts ---- */

struct ct_case {
	const char *name;
	int (*build)(__le64 *wqe, u8 valid, const void *arg);
	const void *arg;
	u64 want[8];
};

static const u8 ct_mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
#define CT_MAC	0x021122334455ULL

static int ct_arp_add(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_arp_add(w, v, 0x7ff, ct_mac, true);
}

static int ct_arp_del(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_arp_del(w, v, 0x123);
}

static int ct_apbvt(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_apbvt(w, v, 4791, true);
}

static int ct_loc_mac_alloc(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_loc_mac_alloc(w, v);
}

static int ct_loc_mac_add(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_loc_mac_add(w, v, 2, ct_mac);
}

static int ct_loc_mac_del(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_loc_mac_del(w, v, 2, true);
}

static int ct_query_fpm(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_query_fpm(w, v, 3, 0x9000);
}

static int ct_commit_fpm(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_commit_fpm(w, v, 3, 0x9100, 176);
}

static int ct_hmc_fn(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_hmc_fn_table(w, v, 5, true);
}

static int ct_gen_ae(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_gen_ae(w, v, 0x44, 0x501, 1);
}

static int ct_upload(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_upload_ctx(w, v, 0x55, 1, 0xa000, true, false);
}

static int ct_suspend(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_suspend_qp(w, v, 0x66);
}

static int ct_resume(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_resume_qp(w, v, 0x66, 9);
}

static int ct_nop(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_nop(w, v);
}

static int ct_manage_stats(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_manage_stats(w, v, 3, 1, true, true);
}

static int ct_gather_stats(__le64 *w, u8 v, const void *a)
{
	return irdma_cqpw_gather_stats(w, v, 3, 1, 0xb000, true, false);
}

static const struct irdma_cqp_qp_info ct_qp_create = {
	.ctx_pa = 0x10000, .shadow_pa = 0x20000, .qp_id = 0x12345,
	.qp_type = 1, .next_state = 2, .ord_valid = true,
	.tcp_ctx_valid = true, .cq_num_valid = true, .mac_valid = true,
	.arp_valid = true,
};

static const struct irdma_cqp_qp_info ct_qp_modify = {
	.ctx_pa = 0x10000, .shadow_pa = 0x20000, .qp_id = 7, .qp_type = 1,
	.next_state = 6, .new_mss = 1460, .term_len = 3, .term_act = 1,
	.reset_con = true, .mss_change = true,
};

static const struct irdma_cqp_qp_info ct_qp_destroy = {
	.ctx_pa = 0x10000, .shadow_pa = 0x20000, .qp_id = 7, .qp_type = 3,
	.remove_hash = true, .ignore_mw_bound = true,
};

static const struct irdma_cqp_cq_info ct_cq2 = {
	.ring_pa = 0x30000, .shadow_pa = 0x40040,
	.compl_ctx = 0xffff888000001000ULL, .size = 256, .cq_id = 0x4567,
	.ceq_id = 5, .ceq_id_valid = true, .ceqe_mask = true,
	.shadow_thresh = 0x3ffff, .hw_rev = 2, .tph_val = 0x12, .vsi = 3,
	.check_overflow = true, .ext_cqe = true,
};

static const struct irdma_cqp_cq_info ct_cq1 = {
	.shadow_pa = 0x40000, .compl_ctx = 0x2000, .size = 64,
	.cq_id = 0x1234, .ceq_id = 7, .ceq_id_valid = true, .hw_rev = 1,
	.virtual_map = true, .first_pble = 0x99, .pbl_levels = 1,
};

static const struct irdma_cqp_cq_info ct_cq_resize = {
	.ring_pa = 0x30100, .shadow_pa = 0x40000, .compl_ctx = 0x2000,
	.size = 512, .cq_id = 3, .hw_rev = 2, .resize = true,
};

static const struct irdma_cqp_eq_info ct_ceq = {
	.ring_pa = 0x50000, .elem_cnt = 1024, .ceq_id = 9,
	.itr_no_expire = true, .vsi = 2,
};

static const struct irdma_cqp_eq_info ct_ceq_vmap = {
	.elem_cnt = 1024, .ceq_id = 9, .virtual_map = true,
	.first_pble = 77, .pbl_levels = 1,
};

static const struct irdma_cqp_eq_info ct_aeq = {
	.ring_pa = 0x60000, .elem_cnt = 2048,
};

static const struct irdma_cqp_stag_info ct_stag_alloc = {
	.stag = 0xabcd12, .pd_id = 0x2345, .len = 0x100000, .hw_rev = 2,
	.pbl_levels = 2, .first_pble = 0x1111, .rights = 0x1f,
	.remote_access = true,
};

static const struct irdma_cqp_stag_info ct_reg_mr_g1 = {
	.stag = 0x345612, .pd_id = 0x100, .len = 0x200000, .hw_rev = 1,
	.va = 0x70000000, .buf_pa = 0x88000, .page_size = 1, .rights = 0x3,
	.hmc_fn = 4, .use_hmc_fn = true,
};

static const struct irdma_cqp_stag_info ct_dealloc = {
	.stag = 0x345612, .pd_id = 9, .hw_rev = 2, .is_mr = true,
};

static const struct irdma_cqp_stag_info ct_mw = {
	.stag = 0x777700, .pd_id = 9, .hw_rev = 2, .mw_type1 = true,
};

static const struct irdma_cqp_qhash_info ct_qh_syn = {
	.mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	.loc_addr = { 0xc0000201 }, .loc_port = 5000, .qp_num = 1,
	.qs_handle = 7, .entry_type = 2, .ipv4 = true,
	.manage = IRDMA_QHASH_MANAGE_ADD,
};

static const struct irdma_cqp_qhash_info ct_qh_est6 = {
	.mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	.loc_addr = { 0x20010db8, 0, 0, 1 },
	.rem_addr = { 0x20010db8, 0, 0, 2 },
	.loc_port = 5000, .rem_port = 40000, .qp_num = 1, .qs_handle = 7,
	.vlan_id = 100, .vlan_valid = true, .entry_type = 1,
	.manage = IRDMA_QHASH_MANAGE_DELETE,
};

static const struct irdma_cqp_ah_info ct_ah4 = {
	.mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	.dest_addr = { 0xc6336401 }, .src_addr = { 0xc6336402 },
	.ah_idx = 0x1abc, .pd_idx = 0x12345, .arp_idx = 5, .tc = 0x10,
	.hop_limit = 64, .vlan_tag = 0x64, .op = 0x1c, .ipv4 = true,
	.insert_vlan = true,
};

/* 230.0.2.1 and ff0e::1:2, the member list at 0xc000 */
static const struct irdma_cqp_mcg_info ct_mcg4 = {
	.mac = { 0x01, 0x00, 0x5e, 0x00, 0x02, 0x01 },
	.addr = { 0xe6000201 }, .list_pa = 0xc000, .idx = 0x1fff, .hmc_fn = 2,
	.op = 0x26, .ipv4 = true,
};

static const struct irdma_cqp_mcg_info ct_mcg6 = {
	.mac = { 0x33, 0x33, 0x00, 0x01, 0x00, 0x02 },
	.addr = { 0xff0e0000, 0, 1, 2 }, .list_pa = 0xc040, .idx = 7,
	.op = 0x28,
};

static const struct irdma_cqp_flush_info ct_flush = {
	.qp_id = 0x33, .flush_sq = true, .flush_rq = true, .user_codes = true,
	.sq_major = 0x1, .sq_minor = 0x2, .rq_major = 0x3, .rq_minor = 0x4,
	.gen_ae = true, .ae_code = 0x502, .ae_src = 5,
};

static const struct irdma_cqp_ws_info ct_ws = {
	.id = 10, .parent_id = 1, .vsi = 2, .weight = 4, .op = 0, .tc = 3,
	.prio_type = 1, .leaf = true, .enable = true,
};

static const struct ct_case ct_cases[] = {
	{ "qp_create", irdma_cqpw_qp_create_cb, &ct_qp_create,
	  { 0, 0, 0x10000, V | OP(0) | 0x12345 | B(42) | B(43) | B(47) |
	    B(48) | B(51) | B(59) | 2ULL << 60, 0, 0x20000 } },
	{ "qp_modify", irdma_cqpw_qp_modify_cb, &ct_qp_modify,
	  { 0, 1460ULL << 32 | 3ULL << 48, 0x10000,
	    V | OP(1) | 7 | B(48) | B(52) | 1ULL << 56 | B(58) | 6ULL << 60,
	    0, 0x20000 } },
	{ "qp_destroy", irdma_cqpw_qp_destroy_cb, &ct_qp_destroy,
	  { 0, 0, 0x10000, V | OP(2) | 7 | 3ULL << 48 | B(54) | B(55), 0,
	    0x20000 } },
	{ "cq_create_gen2", irdma_cqpw_cq_create_cb, &ct_cq2,
	  { 256, 0xffff888000001000ULL >> 1, 0x3ffff,
	    V | OP(3) | 0x4567 | 5ULL << 22 | B(46) | B(48) | B(49) | B(61),
	    0x30000, 0x40040, 0, 0x12 | 3ULL << 8 } },
	{ "cq_create_gen1_vmap", irdma_cqpw_cq_create_cb, &ct_cq1,
	  { 64, 0x1000, 0, V | OP(3) | 0x1234 | 7ULL << 24 | 1ULL << 44 |
	    B(47) | B(49), 0, 0x40000, 0x99, 0 } },
	{ "cq_modify_resize", irdma_cqpw_cq_modify_cb, &ct_cq_resize,
	  { 512, 0x1000, 0, V | OP(4) | 3 | B(43), 0x30100, 0x40000, 0, 0 } },
	{ "cq_destroy", irdma_cqpw_cq_destroy_cb, &ct_cq_resize,
	  { 512, 0x1000, 0, V | OP(5) | 3, 0x30100, 0x40000, 0, 0 } },
	{ "ceq_create", irdma_cqpw_ceq_create_cb, &ct_ceq,
	  { 0, 0, 1024, V | OP(0x16) | 9 | B(46), 0x50000, 0, 0, 2ULL << 8 } },
	{ "ceq_destroy_vmap", irdma_cqpw_ceq_destroy_cb, &ct_ceq_vmap,
	  { 0, 0, 1024, V | OP(0x18) | 9 | 1ULL << 44 | B(47), 0, 0, 77 } },
	{ "aeq_create", irdma_cqpw_aeq_create_cb, &ct_aeq,
	  { 0, 0, 2048, V | OP(0x19), 0x60000 } },
	{ "aeq_destroy", irdma_cqpw_aeq_destroy_cb, &ct_aeq,
	  { 0, 0, 2048, V | OP(0x1b) } },
	{ "alloc_stag", irdma_cqpw_alloc_stag_cb, &ct_stag_alloc,
	  { 0, 0x100000 | 0x2345ULL << 46, 0xabcd00,
	    V | OP(9) | B(43) | 3ULL << 44 | 0x1fULL << 48 | B(53), 0, 0,
	    0x1111 } },
	{ "reg_mr_gen1", irdma_cqpw_reg_mr_cb, &ct_reg_mr_g1,
	  { 0x70000000, 0x200000 | 0x100ULL << 48, 0x345612,
	    V | OP(0x0a) | B(43) | 1ULL << 46 | 3ULL << 48 | B(59) | B(60),
	    0x88000, 4 } },
	{ "dealloc_stag", irdma_cqpw_dealloc_stag_cb, &ct_dealloc,
	  { 0, 9ULL << 46, 0x345600, V | OP(0x0d) | B(43) } },
	{ "mw_alloc", irdma_cqpw_mw_alloc_cb, &ct_mw,
	  { 0, 9ULL << 46, 0x777700, V | OP(0x09) | B(42) } },
	{ "arp_add", ct_arp_add, NULL,
	  { 0, 0, CT_MAC, V | OP(0x0f) | 0x7ff | B(42) | B(43) } },
	{ "arp_del", ct_arp_del, NULL, { 0, 0, 0, V | OP(0x0f) | 0x123 } },
	{ "apbvt_add", ct_apbvt, NULL, { 0, 0, 4791, V | OP(0x23) | B(62) } },
	{ "loc_mac_alloc", ct_loc_mac_alloc, NULL, { 0, 0, 0, V | OP(0x14) } },
	{ "loc_mac_add", ct_loc_mac_add, NULL,
	  { 0, 0, 0, V | OP(0x0e) | 2, CT_MAC } },
	{ "loc_mac_del", ct_loc_mac_del, NULL,
	  { 0, 0, 0, V | OP(0x0e) | 2 | B(61) | B(62) } },
	{ "qhash_syn_v4", irdma_cqpw_qhash_cb, &ct_qh_syn,
	  { CT_MAC, 1ULL << 32 | 5000, 7,
	    V | OP(0x25) | 2ULL << 42 | B(60) | 1ULL << 61,
	    0, 0, 0xc0000201, 0 } },
	{ "qhash_est_v6_del", irdma_cqpw_qhash_cb, &ct_qh_est6,
	  { CT_MAC, 1ULL << 32 | 40000ULL << 16 | 5000, 7 | 100ULL << 32,
	    V | OP(0x25) | 1ULL << 42 | B(59),
	    2, 0x20010db8ULL << 32, 1, 0x20010db8ULL << 32 } },
	{ "ah_create_v4", irdma_cqpw_ah_cb, &ct_ah4,
	  { CT_MAC << 16, 0x2345ULL << 48 | 0x10ULL << 32 | 0x64,
	    5ULL << 48 | 64ULL << 32 | 1ULL << 20,
	    V | OP(0x1c) | 0x1abc | B(59) | B(60), 0xc6336401, 0,
	    0xc6336402, 0 } },
	{ "mcg_create_v4", irdma_cqpw_mcg_cb, &ct_mcg4,
	  { 0x01005e000201ULL, 2, 0, V | OP(0x26) | 0x1fff | B(60), 0xc000, 0,
	    0xe6000201, 0 } },
	{ "mcg_destroy_v6", irdma_cqpw_mcg_cb, &ct_mcg6,
	  { 0x333300010002ULL, 0, 0, V | OP(0x28) | 7, 0xc040, 0,
	    1ULL << 32 | 2, 0xff0e0000ULL << 32 } },
	{ "query_fpm", ct_query_fpm, NULL,
	  { 0, 0, 3, V | OP(0x20), 0x9000 } },
	{ "commit_fpm", ct_commit_fpm, NULL,
	  { 0, 0, 3, V | OP(0x21) | 176, 0x9100 } },
	{ "hmc_fn_table", ct_hmc_fn, NULL, { 0, 0, 0, V | OP(0x15) | 5 | B(62) } },
	{ "flush_wqes", irdma_cqpw_flush_wqes_cb, &ct_flush,
	  { 0, 0x502 | 5ULL << 16, 0x4 | 0x3ULL << 16 | 0x2ULL << 32 |
	    0x1ULL << 48, V | OP(0x22) | 0x33 | B(59) | B(60) | B(61) |
	    B(62) } },
	{ "gen_ae", ct_gen_ae, NULL,
	  { 0, 0x501 | 1ULL << 16, 0, V | OP(0x22) | 0x44 | B(59) } },
	{ "upload_ctx", ct_upload, NULL,
	  { 0, 0, 0xa000, V | OP(0x13) | 0x55 | 1ULL << 48 | B(62) } },
	{ "suspend_qp", ct_suspend, NULL, { 0, 0, 0, V | OP(0x29) | 0x66 } },
	{ "resume_qp", ct_resume, NULL, { 0, 0, 9, V | OP(0x2a) | 0x66 } },
	{ "nop", ct_nop, NULL, { 0, 0, 0, V | OP(0x24) } },
	{ "manage_stats", ct_manage_stats, NULL,
	  { 0, 0, 0, V | OP(0x2d) | 3 | B(60) | B(62), 0, 1 } },
	{ "gather_stats", ct_gather_stats, NULL,
	  { 0, 0, 0, V | OP(0x2e) | 3 | B(61), 0xb000, 1 } },
	{ "ws_node", irdma_cqpw_ws_node_cb, &ct_ws,
	  { 0, 0, 0, V | OP(0x2c) | 10 | 1ULL << 16 | 3ULL << 56 |
	    1ULL << 59 | B(61) | B(62), 2ULL << 48 | 4ULL << 32 } },
};

static void ct_case_desc(const struct ct_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_golden, ct_cases, ct_case_desc);

static void irdma_cqpw_golden_layout(struct kunit *test)
{
	const struct ct_case *c = test->param_value;
	__le64 wqe[8];
	unsigned int w;

	memset(wqe, 0xa5, sizeof(wqe));
	KUNIT_ASSERT_EQ(test, c->build(wqe, 1, c->arg), 0);
	for (w = 0; w < 8; w++)
		KUNIT_EXPECT_EQ_MSG(test, le64_to_cpu(wqe[w]), c->want[w],
				    "word %u", w);
	/* the same command on the other lap differs only in bit 63 */
	KUNIT_ASSERT_EQ(test, c->build(wqe, 0, c->arg), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[3]), c->want[3] & ~V);
}

/* ---- rejected parameters ---- */

static void irdma_cqpw_rejects_bad_params(struct kunit *test)
{
	struct irdma_cqp_qp_info qp = ct_qp_create;
	struct irdma_cqp_cq_info cq = ct_cq2;
	struct irdma_cqp_eq_info eq = ct_ceq;
	struct irdma_cqp_stag_info st = ct_stag_alloc;
	struct irdma_cqp_qhash_info qh = ct_qh_syn;
	struct irdma_cqp_ws_info ws = ct_ws;
	struct irdma_cqp_mcg_info mcg = ct_mcg4;
	__le64 wqe[8], before[8];

	memset(wqe, 0x5a, sizeof(wqe));
	memcpy(before, wqe, sizeof(wqe));
	qp.qp_id = 1 << 24;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_qp_create(wqe, 1, &qp), -EINVAL);
	qp = ct_qp_create;
	qp.ctx_pa = 0x10004;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_qp_create(wqe, 1, &qp), -EINVAL);
	cq.size = 1 << 20;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_cq_create(wqe, 1, &cq), -EINVAL);
	cq = ct_cq2;
	cq.ring_pa = 0x30080;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_cq_create(wqe, 1, &cq), -EINVAL);
	cq = ct_cq1;
	cq.cq_id = 1 << 16;	/* fits gen2, not gen1 */
	KUNIT_EXPECT_EQ(test, irdma_cqpw_cq_create(wqe, 1, &cq), -EINVAL);
	eq.elem_cnt = 0;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_ceq_create(wqe, 1, &eq), -EINVAL);
	eq = ct_aeq;
	eq.elem_cnt = 524288;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_aeq_create(wqe, 1, &eq), -EINVAL);
	st.len = 1ULL << 46;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_alloc_stag(wqe, 1, &st), -EINVAL);
	st = ct_reg_mr_g1;
	st.pd_id = 1 << 15;	/* fits gen2, not gen1 */
	KUNIT_EXPECT_EQ(test, irdma_cqpw_reg_mr(wqe, 1, &st), -EINVAL);
	qh.entry_type = 3;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_qhash(wqe, 1, &qh), -EINVAL);
	ws.weight = 128;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_ws_node(wqe, 1, &ws), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_cqpw_arp_add(wqe, 1, 0x1000, ct_mac, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_cqpw_query_fpm(wqe, 1, 0, 0x9002), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_cqpw_suspend_qp(wqe, 1, 1 << 24), -EINVAL);
	mcg.list_pa = 0xc004;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_mcg(wqe, 1, &mcg), -EINVAL);
	mcg = ct_mcg4;
	mcg.idx = 0x2000;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_mcg(wqe, 1, &mcg), -EINVAL);
	mcg = ct_mcg4;
	mcg.op = 0x1c;
	KUNIT_EXPECT_EQ(test, irdma_cqpw_mcg(wqe, 1, &mcg), -EINVAL);
	/* a rejected command leaves the slot untouched */
	KUNIT_EXPECT_EQ(test, memcmp(wqe, before, sizeof(wqe)), 0);
}

static void irdma_cqpw_update_sds_spills_to_buffer(struct kunit *test)
{
	struct irdma_sd_update sd[5];
	__le64 wqe[8], buf[8] = {};
	unsigned int i;

	for (i = 0; i < 5; i++) {
		sd[i].cmd = 0x80008000 | i;
		sd[i].data = 0x200000ULL * (i + 1) | 0x801;
	}
	KUNIT_ASSERT_EQ(test, irdma_cqpw_update_sds(wqe, 1, 2, sd, 5, buf,
						    0xc000), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[0]), 0x80008000ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[1]), 0x200801ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[2]), 0xc002ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[3]), V | OP(0x1f) | 2);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[4]), V | 0x80008001ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[5]), 0x400801ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[6]), V | 0x80008002ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[7]), 0x600801ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[0]), 0x80008003ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[1]), 0x800801ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[2]), 0x80008004ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(buf[3]), 0xa00801ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqpw_update_sds(wqe, 1, 2, sd, 0, buf,
						    0xc000), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_cqpw_update_sds(wqe, 1, 2, sd, 5, NULL,
						    0xc000), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_cqpw_update_sds(wqe, 1, 2, sd, 5, buf,
						    0xc020), -EINVAL);
	/* three or fewer need no buffer */
	KUNIT_EXPECT_EQ(test, irdma_cqpw_update_sds(wqe, 1, 2, sd, 3, NULL, 0),
			0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(wqe[3]), V | OP(0x1f));
}

static void irdma_cqp_ctx_build_fields(struct kunit *test)
{
	struct irdma_cqp_ctx_info info = {
		.sq_pa = 0x123400, .compl_ctx = 0xfeed, .sq_size = 256,
		.struct_ver = 1, .hw_rev = 2, .protocol = 1, .hmc_profile = 0,
		.ena_vfs = 0, .ceqs_per_vf = 0,
	};
	__le64 ctx[8];

	KUNIT_ASSERT_EQ(test, irdma_cqp_ctx_build(ctx, &info), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]),
			7ULL << 8 | 1ULL << 24 | 1ULL << 3);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[1]), 0x123400ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[3]), 0xfeedULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[4]), 1ULL << 16);
	info.sq_pa = 0x123480;
	KUNIT_EXPECT_EQ(test, irdma_cqp_ctx_build(ctx, &info), -EINVAL);
	info.sq_pa = 0x123400;
	info.sq_size = 3;
	KUNIT_EXPECT_EQ(test, irdma_cqp_ctx_build(ctx, &info), -EINVAL);
	/* SQSIZE counts from 1 for 4 WQEs: 4 -> 1, 128 -> 6, 2048 -> 10 */
	info.sq_size = 4;
	KUNIT_ASSERT_EQ(test, irdma_cqp_ctx_build(ctx, &info), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]) >> 8 & 0xf, 1ULL);
	info.sq_size = 128;
	KUNIT_ASSERT_EQ(test, irdma_cqp_ctx_build(ctx, &info), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]) >> 8 & 0xf, 6ULL);
	info.sq_size = 2048;
	KUNIT_ASSERT_EQ(test, irdma_cqp_ctx_build(ctx, &info), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]) >> 8 & 0xf, 10ULL);
	/*
	 * gen1 (X722, iWARP only): word 0 has no protocol and no RoCEv2
	 * RTO policy field, as Linux 6.1's irdma writes it; HW major 0
	 */
	info.hw_rev = 1;
	info.sq_size = 256;
	info.rocev2_rto_policy = 1;
	KUNIT_ASSERT_EQ(test, irdma_cqp_ctx_build(ctx, &info), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]), 7ULL << 8 | 1ULL << 24);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[4]), 0ULL);
}

/* ---- CQP ring against a fake device ---- */

#define CT_CQP_SIZE	4
#define CT_CCQ_SIZE	4
#define CT_CQPDB	0x500800

struct ct_dev {
	struct kunit *test;
	struct irdma_cqp *cqp;
	__le64 *ccq_ring;
	u32 sq_tail;
	u8 sq_pol;
	u32 cq_head;
	u8 cq_pol;
	bool stall;
	u8 fail_op;
	u32 doorbells;
};

static void ct_dev_complete(struct ct_dev *d, u32 idx, u8 op)
{
	__le64 *cqe = d->ccq_ring + d->cq_head * 4;
	bool fail = op == d->fail_op;

	cqe[0] = 0;
	cqe[1] = cpu_to_le64(0xc0deULL);
	cqe[2] = cpu_to_le64((u64)op << 8 | idx);
	cqe[3] = cpu_to_le64((u64)d->cq_pol << 63 | (u64)idx << 32 |
			     (fail ? B(55) | 0xf001ULL << 16 | 0x7 : 0));
	if (++d->cq_head == CT_CCQ_SIZE) {
		d->cq_head = 0;
		d->cq_pol ^= 1;
	}
}

/* CQPDB write: consume WQEs up to the new head, one CCQE each. */
static void ct_dev_wr32(const struct irdma_mmio *mmio, u32 off, u32 val)
{
	struct ct_dev *d = mmio->priv;
	u64 hdr;

	KUNIT_EXPECT_EQ(d->test, off, (u32)CT_CQPDB);
	d->doorbells++;
	if (d->stall)
		return;
	while (d->sq_tail != val) {
		if (!d->sq_tail)
			d->sq_pol ^= 1;
		hdr = le64_to_cpu(d->cqp->sq[d->sq_tail * 8 + 3]);
		KUNIT_EXPECT_EQ(d->test, (u8)(hdr >> 63), d->sq_pol);
		ct_dev_complete(d, d->sq_tail, (hdr >> 32) & 0x3f);
		d->sq_tail = (d->sq_tail + 1) % CT_CQP_SIZE;
	}
}

static u32 ct_dev_rd32(const struct irdma_mmio *mmio, u32 off)
{
	return 0;
}

static const struct irdma_mmio_ops ct_dev_ops = {
	.write32 = ct_dev_wr32,
	.read32 = ct_dev_rd32,
};

struct ct_fixture {
	struct ct_dev dev;
	struct irdma_mmio mmio;
	struct irdma_cqp cqp;
	struct irdma_uk_cq ccq;
};

static int ct_test_init(struct kunit *test)
{
	struct ct_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->mmio.ops = &ct_dev_ops;
	f->mmio.priv = &f->dev;
	f->cqp.sq = kunit_kcalloc(test, CT_CQP_SIZE * 8, sizeof(__le64),
				  GFP_KERNEL);
	f->cqp.scratch = kunit_kcalloc(test, CT_CQP_SIZE, sizeof(u64),
				       GFP_KERNEL);
	f->cqp.mmio = &f->mmio;
	f->cqp.db_off = CT_CQPDB;
	f->cqp.size = CT_CQP_SIZE;
	KUNIT_ASSERT_EQ(test, irdma_cqp_init(&f->cqp), 0);
	f->ccq.ring = kunit_kcalloc(test, CT_CCQ_SIZE * 4, sizeof(__le64),
				    GFP_KERNEL);
	f->ccq.shadow = kunit_kcalloc(test, 8, sizeof(__le64), GFP_KERNEL);
	f->ccq.mmio = &f->mmio;
	f->ccq.size = CT_CCQ_SIZE;
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_init(&f->ccq), 0);
	f->dev.test = test;
	f->dev.cqp = &f->cqp;
	f->dev.ccq_ring = f->ccq.ring;
	f->dev.cq_pol = 1;
	f->dev.fail_op = 0xff;
	test->priv = f;
	return 0;
}

static int ct_submit_nop(struct ct_fixture *f, u64 scratch)
{
	unsigned long flags;
	__le64 *wqe;
	u8 valid;

	spin_lock_irqsave(&f->cqp.lock, flags);
	wqe = irdma_cqp_get_wqe(&f->cqp, scratch, &valid);
	if (wqe) {
		irdma_cqpw_nop(wqe, valid);
		irdma_cqp_post(&f->cqp);
	}
	spin_unlock_irqrestore(&f->cqp.lock, flags);
	return wqe ? 0 : -ENOMEM;
}

static void irdma_cqp_ring_wraps_over_laps(struct kunit *test)
{
	struct ct_fixture *f = test->priv;
	struct irdma_ccq_info info;
	u64 s;

	/* 5 laps of the CQP SQ and of the CCQ, one command at a time */
	for (s = 1; s <= 5 * CT_CQP_SIZE; s++) {
		KUNIT_ASSERT_EQ(test, ct_submit_nop(f, s), 0);
		KUNIT_ASSERT_EQ(test, irdma_cqp_wait(&f->cqp, &f->ccq, s, 100,
						     &info), 0);
		KUNIT_EXPECT_EQ(test, info.scratch, s);
		KUNIT_EXPECT_EQ(test, info.op_ret & 0xff00, 0x24U << 8);
		KUNIT_EXPECT_EQ(test, info.wqe_idx, (u32)((s - 1) % CT_CQP_SIZE));
	}
	KUNIT_EXPECT_EQ(test, f->cqp.head, f->cqp.tail);
	KUNIT_EXPECT_EQ(test, f->dev.doorbells, 5U * CT_CQP_SIZE);
}

static void irdma_cqp_get_wqe_full_ring(struct kunit *test)
{
	struct ct_fixture *f = test->priv;
	struct irdma_ccq_info info;
	unsigned long flags;
	unsigned int i;

	f->dev.stall = true;
	for (i = 0; i < CT_CQP_SIZE - 1; i++)
		KUNIT_ASSERT_EQ(test, ct_submit_nop(f, 10 + i), 0);
	KUNIT_EXPECT_EQ(test, ct_submit_nop(f, 99), -ENOMEM);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wait(&f->cqp, &f->ccq, 10, 5, &info),
			-ETIMEDOUT);
	/* the device wakes up and completes all three in order */
	f->dev.stall = false;
	spin_lock_irqsave(&f->cqp.lock, flags);
	irdma_cqp_post(&f->cqp);
	spin_unlock_irqrestore(&f->cqp.lock, flags);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wait(&f->cqp, &f->ccq, 12, 100, &info),
			0);
	KUNIT_EXPECT_EQ(test, f->cqp.tail, f->cqp.head);
	KUNIT_EXPECT_EQ(test, ct_submit_nop(f, 13), 0);
}

static void irdma_cqp_wait_reports_error(struct kunit *test)
{
	struct ct_fixture *f = test->priv;
	struct irdma_ccq_info info;

	f->dev.fail_op = 0x24;
	KUNIT_ASSERT_EQ(test, ct_submit_nop(f, 7), 0);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wait(&f->cqp, &f->ccq, 7, 100, &info),
			-EIO);
	KUNIT_EXPECT_TRUE(test, info.error);
	KUNIT_EXPECT_EQ(test, info.major, 0xf001);
	KUNIT_EXPECT_EQ(test, info.minor, 7);
}

static void irdma_ccq_poll_rejects_stray_completion(struct kunit *test)
{
	struct ct_fixture *f = test->priv;
	struct irdma_ccq_info info;
	unsigned long flags;
	int err;

	/* a CQE naming a slot that was never posted */
	ct_dev_complete(&f->dev, 2, 0x24);
	spin_lock_irqsave(&f->cqp.lock, flags);
	err = irdma_ccq_poll(&f->cqp, &f->ccq, &info);
	spin_unlock_irqrestore(&f->cqp.lock, flags);
	KUNIT_EXPECT_EQ(test, err, -EIO);
	KUNIT_EXPECT_EQ(test, f->cqp.tail, 0U);
	spin_lock_irqsave(&f->cqp.lock, flags);
	err = irdma_ccq_poll(&f->cqp, &f->ccq, &info);
	spin_unlock_irqrestore(&f->cqp.lock, flags);
	KUNIT_EXPECT_EQ(test, err, -ENOENT);
}

/* ---- event queues ---- */

static void irdma_ceq_next_over_laps(struct kunit *test)
{
	__le64 ring[4] = {};
	struct irdma_eq_ring eq;
	u8 dev_pol = 1;
	u64 ctx;
	u32 i;

	KUNIT_ASSERT_EQ(test, irdma_eq_init(&eq, ring, 4, 1), 0);
	KUNIT_EXPECT_EQ(test, irdma_ceq_next(&eq, &ctx), -ENOENT);
	for (i = 0; i < 14; i++) {
		u64 cq = 0xffff888000000000ULL + 0x100 * i;

		ring[i % 4] = cpu_to_le64((u64)dev_pol << 63 | cq >> 1);
		if (i % 4 == 3)
			dev_pol ^= 1;
		KUNIT_ASSERT_EQ(test, irdma_ceq_next(&eq, &ctx), 0);
		KUNIT_EXPECT_EQ(test, ctx, cq);
		KUNIT_EXPECT_EQ(test, irdma_ceq_next(&eq, &ctx), -ENOENT);
	}
	KUNIT_EXPECT_EQ(test, irdma_eq_init(&eq, ring, 1, 1), -EINVAL);
}

struct ct_aeq_case {
	const char *name;
	u64 w0;
	u64 w1;
	u32 id;
	u16 code;
	u8 src;
	u8 tcp;
	u8 iw;
	bool is_qp;
	bool is_cq;
	u64 ctx;
};

static const struct ct_aeq_case ct_aeq_cases[] = {
	{ "llp_established", 0xffff888011112222ULL,
	  0x50eULL << 34 | 5ULL << 57 | 2ULL << 54 | B(46) | 0x05678,
	  0x45678, 0x50e, 0, 5, 2, true, false, 0xffff888011112222ULL },
	{ "fin_received", 0x1000, 0x503ULL << 34 | 6ULL << 57 | 0x3,
	  3, 0x503, 0, 6, 0, true, false, 0x1000 },
	{ "cq_catastrophic", 0x7fffc44400000800ULL, 0x702ULL << 34 | 0x9,
	  9, 0x702, 0, 0, 0, false, true, 0xffff888800001000ULL },
	{ "cq_source", 0x400, 0x203ULL << 34 | 2ULL << 50 | 0x11,
	  0x11, 0x203, 2, 0, 0, false, true, 0x800 },
	{ "sq_rights_violation", 0x2000, 0x109ULL << 34 | 5ULL << 50 |
	  0x123ULL << 18 | 0x4, 4, 0x109, 5, 0, 0, true, false, 0x2000 },
	{ "function_catastrophic", 0, 0x701ULL << 34, 0, 0x701, 0, 0, 0,
	  false, false, 0 },
};

static void ct_aeq_desc(const struct ct_aeq_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_aeq, ct_aeq_cases, ct_aeq_desc);

static void irdma_aeqe_decode_fields(struct kunit *test)
{
	const struct ct_aeq_case *c = test->param_value;
	__le64 e[2] = { cpu_to_le64(c->w0), cpu_to_le64(c->w1 | V) };
	struct irdma_aeqe_info info;

	irdma_aeqe_decode(e, &info);
	KUNIT_EXPECT_EQ(test, info.id, c->id);
	KUNIT_EXPECT_EQ(test, info.code, c->code);
	KUNIT_EXPECT_EQ(test, info.source, c->src);
	KUNIT_EXPECT_EQ(test, info.tcp_state, c->tcp);
	KUNIT_EXPECT_EQ(test, info.iw_state, c->iw);
	KUNIT_EXPECT_EQ(test, info.is_qp, c->is_qp);
	KUNIT_EXPECT_EQ(test, info.is_cq, c->is_cq);
	KUNIT_EXPECT_EQ(test, info.ctx, c->ctx);
}

static void irdma_aeq_next_polarity(struct kunit *test)
{
	__le64 ring[4] = {};
	struct irdma_aeqe_info info;
	struct irdma_eq_ring eq;
	u32 i;

	KUNIT_ASSERT_EQ(test, irdma_eq_init(&eq, ring, 2, 2), 0);
	for (i = 0; i < 6; i++) {
		u8 pol = ((i / 2) + 1) & 1;

		ring[(i % 2) * 2] = cpu_to_le64(i);
		ring[(i % 2) * 2 + 1] = cpu_to_le64((u64)pol << 63 |
						    0x501ULL << 34 | i);
		KUNIT_ASSERT_EQ(test, irdma_aeq_next(&eq, &info), 0);
		KUNIT_EXPECT_EQ(test, info.id, i);
		KUNIT_EXPECT_EQ(test, info.code, 0x501);
		KUNIT_EXPECT_EQ(test, irdma_aeq_next(&eq, &info), -ENOENT);
	}
}

/* ---- QP context ---- */

static void irdma_ird_encode_sizes(struct kunit *test)
{
	static const u16 ird[] = { 0, 1, 2, 3, 8, 9, 32, 33, 64, 65, 128 };
	static const u8 code[] = { 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4 };
	unsigned int i;
	u8 c;

	for (i = 0; i < ARRAY_SIZE(ird); i++) {
		KUNIT_ASSERT_EQ(test, irdma_ird_encode(ird[i], &c), 0);
		KUNIT_EXPECT_EQ_MSG(test, c, code[i], "ird %u", ird[i]);
	}
	KUNIT_EXPECT_EQ(test, irdma_ird_encode(129, &c), -EINVAL);
}

static const struct irdma_qpc_common ct_qpc = {
	.sq_pa = 0x100000, .rq_pa = 0x200000, .q2_pa = 0x300100,
	.compl_ctx = 0xffff888012345678ULL,
	.dest_addr = { 0xc0000202 }, .local_addr = { 0xc0000201 },
	.mac = CT_MAC, .send_cq = 0x11, .recv_cq = 0x22, .pd_id = 0x31234,
	.src_port = 5000, .dst_port = 40000, .snd_mss = 1460,
	.vlan_tag = 0x64, .arp_idx = 6, .qs_handle = 0x3f, .ord = 32,
	.ird = 64, .sq_size_log2 = 7, .rq_size_log2 = 6, .rq_wqe_size = 2,
	.ttl = 64, .tos = 0x20, .ipv4 = true, .rd_en = true,
	.wr_rdresp_en = true, .fast_reg_en = true, .stats_idx = 5,
	.use_stats = true,
};

static void irdma_qpc_write_iwarp_layout(struct kunit *test)
{
	struct irdma_qpc_iwarp iw = {
		.ddp_ver = 1, .rdmap_ver = 1, .tcp_valid = true,
		.tcp = { .snd_nxt = 0x1000, .snd_una = 0x1000, .snd_max = 0x1000,
			 .rcv_nxt = 0x2000, .snd_wnd = 0xffff, .rcv_wnd = 0x3fffc,
			 .cwnd = 2920, .ss_thresh = 0x3fffffff,
			 .tcp_state = 5, .snd_wscale = 2, .rcv_wscale = 2,
			 .wscale = true, .rexmit_thresh = 8, .no_nagle = true,
			 .max_snd_wnd = 0xffff },
	};
	__le64 *ctx = kunit_kcalloc(test, 32, sizeof(__le64), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_EQ(test, irdma_qpc_write_iwarp(ctx, &ct_qpc, &iw), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]),
			1ULL | 2ULL << 8 | 3ULL << 20 | B(3) | B(4) |
			1ULL << 62);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[1]), 0x100000ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[3]),
			64ULL | 6ULL << 8 | 7ULL << 12 | 0x20ULL << 24 |
			5000ULL << 32 | 40000ULL << 48);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[4]), 0xc0000202ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[6]),
			1460ULL << 16 | 0x64ULL << 32 | 6ULL << 48);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[7]),
			B(20) | 5ULL << 28 | 2ULL << 32 | 2ULL << 40 |
			0x1234ULL << 48);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[10]), 0xffffULL << 32 | 0x1000);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[11]), 0x3fffcULL << 32 | 0x2000);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[14]),
			2920ULL << 32 | 0x3fffffff);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[16]), 0xffffULL | 8ULL << 48);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[17]), 0x11ULL | 0x22ULL << 32);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[18]), 0x300100ULL | 5);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[19]), CT_MAC << 16);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[20]),
			32ULL | 3ULL << 16 | B(20) | B(21) | B(24) | B(26) |
			B(28));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[21]), 0xffff888012345678ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[22]), 0x3fULL << 16);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[23]), 0xc0000201ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[24]), 0ULL);
}

static void irdma_qpc_write_roce_layout(struct kunit *test)
{
	struct irdma_qpc_roce rc = {
		.qkey = 0x80010000, .dest_qp = 0x123456, .psn_nxt = 0x100,
		.lsn = 0x2000, .epsn = 0x300, .psn_max = 0x100,
		.psn_una = 0x100, .cwnd = 0x400, .p_key = 0xffff,
		.ack_credits = 0x1e, .rnr_nak_thresh = 7, .rexmit_thresh = 7,
		.dcqcn_en = true,
	};
	struct irdma_qpc_common c = ct_qpc;
	__le64 *ctx = kunit_kcalloc(test, 32, sizeof(__le64), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	c.ipv4 = false;
	c.dest_addr[0] = 0x20010db8;
	c.dest_addr[3] = 2;
	KUNIT_ASSERT_EQ(test, irdma_qpc_write_roce(ctx, &c, &rc), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]), 2ULL << 8 | 3ULL << 20);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[4]), 2ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[5]), 0x20010db8ULL << 32);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[7]),
			0xffffULL << 32 | 0x1234ULL << 48 | 0x1eULL << 20);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[8]),
			0x80010000ULL << 32 | 0x123456);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[10]), 0x2000ULL << 32 | 0x100);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[11]), 0x300ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[12]), 0x100ULL << 32 | 0x100);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[14]), 0x400ULL << 32);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[16]), 7ULL << 54 | 7ULL << 48);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[18]), 5ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[20]),
			32ULL | 3ULL << 16 | B(20) | B(21) | B(22) | B(24) |
			B(26));
}

/* The ILQ's context: rings, sizes, buffer size, CQs, privileged */
static void irdma_qpc_write_uda_layout(struct kunit *test)
{
	struct irdma_qpc_common c = {
		.sq_pa = 0x10000, .rq_pa = 0x20000, .sq_size_log2 = 4,
		.rq_size_log2 = 4, .snd_mss = 2048, .send_cq = 1,
		.recv_cq = 1, .compl_ctx = 0xfeed0, .qs_handle = 3,
		.priv_en = true,
	};
	__le64 *ctx = kunit_kcalloc(test, 32, sizeof(__le64), GFP_KERNEL);
	unsigned int w;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	memset(ctx, 0xff, 32 * sizeof(__le64));
	KUNIT_ASSERT_EQ(test, irdma_qpc_write_uda(ctx, &c), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]), 0ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[1]), 0x10000ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[2]), 0x20000ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[3]), 4ULL << 8 | 4ULL << 12);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[6]), 2048ULL << 16);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[17]), 1ULL << 32 | 1ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[20]), B(25));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[21]), 0xfeed0ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[22]), 3ULL << 16);
	/* nothing else is left from before */
	for (w = 0; w < 32; w++)
		if (w != 1 && w != 2 && w != 3 && w != 6 && w != 17 &&
		    w != 20 && w != 21 && w != 22)
			KUNIT_EXPECT_EQ_MSG(test, le64_to_cpu(ctx[w]), 0ULL,
					    "word %u", w);
	c.snd_mss = 1 << 14;
	KUNIT_EXPECT_EQ(test, irdma_qpc_write_uda(ctx, &c), -EINVAL);
}

static void irdma_qpc_write_rejects_bad_fields(struct kunit *test)
{
	struct irdma_qpc_iwarp iw = { .tcp_valid = true };
	struct irdma_qpc_roce rc = {};
	struct irdma_qpc_common c = ct_qpc;
	__le64 ctx[32];

	c.q2_pa = 0x300080;
	KUNIT_EXPECT_EQ(test, irdma_qpc_write_iwarp(ctx, &c, &iw), -EINVAL);
	c = ct_qpc;
	c.ird = 256;
	KUNIT_EXPECT_EQ(test, irdma_qpc_write_iwarp(ctx, &c, &iw), -EINVAL);
	c = ct_qpc;
	iw.tcp.tcp_state = 16;
	KUNIT_EXPECT_EQ(test, irdma_qpc_write_iwarp(ctx, &c, &iw), -EINVAL);
	rc.dest_qp = 1 << 24;
	KUNIT_EXPECT_EQ(test, irdma_qpc_write_roce(ctx, &c, &rc), -EINVAL);
}

/**
 * struct ct_qpc_switch - one yes/no switch of the QP context's word 20
 * @name: the irdma_qpc_common member
 * @field: its offset (a bool)
 * @bit: the one bit of word 20 it must set
 */
struct ct_qpc_switch {
	const char *name;
	size_t field;
	u64 bit;
};

#define CT_SW(m, b) { #m, offsetof(struct irdma_qpc_common, m), B(b) }

static const struct ct_qpc_switch ct_qpc_switches[] = {
	CT_SW(wr_rdresp_en, 20), CT_SW(rd_en, 21), CT_SW(bind_en, 23),
	CT_SW(fast_reg_en, 24), CT_SW(priv_en, 25), CT_SW(use_stats, 26),
};

static void ct_qpc_switch_desc(const struct ct_qpc_switch *sw, char *desc)
{
	strscpy(desc, sw->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_qpc_switch, ct_qpc_switches, ct_qpc_switch_desc);

static bool *ct_qpc_switch_at(struct irdma_qpc_common *c,
			      const struct ct_qpc_switch *sw)
{
	return (bool *)((u8 *)c + sw->field);
}

/* each switch, alone, adds exactly its own bit to word 20 */
static void irdma_qpc_write_w20_switch_sets_one_bit(struct kunit *test)
{
	const struct ct_qpc_switch *sw = test->param_value;
	struct irdma_qpc_common c = ct_qpc;
	struct irdma_qpc_roce rc = {};
	__le64 *ctx = kunit_kcalloc(test, 32, sizeof(__le64), GFP_KERNEL);
	unsigned int i;
	u64 base;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	for (i = 0; i < ARRAY_SIZE(ct_qpc_switches); i++)
		*ct_qpc_switch_at(&c, &ct_qpc_switches[i]) = false;
	KUNIT_ASSERT_EQ(test, irdma_qpc_write_roce(ctx, &c, &rc), 0);
	base = le64_to_cpu(ctx[20]);
	KUNIT_EXPECT_EQ(test, base & sw->bit, 0ULL);
	KUNIT_EXPECT_EQ(test, base & GENMASK_ULL(15, 0), 32ULL);
	*ct_qpc_switch_at(&c, sw) = true;
	KUNIT_ASSERT_EQ(test, irdma_qpc_write_roce(ctx, &c, &rc), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[20]), base | sw->bit);
}

static struct kunit_case irdma_ctrl_cases[] = {
	KUNIT_CASE_PARAM(irdma_cqpw_golden_layout, ct_golden_gen_params),
	KUNIT_CASE(irdma_cqpw_rejects_bad_params),
	KUNIT_CASE(irdma_cqpw_update_sds_spills_to_buffer),
	KUNIT_CASE(irdma_cqp_ctx_build_fields),
	KUNIT_CASE(irdma_cqp_ring_wraps_over_laps),
	KUNIT_CASE(irdma_cqp_get_wqe_full_ring),
	KUNIT_CASE(irdma_cqp_wait_reports_error),
	KUNIT_CASE(irdma_ccq_poll_rejects_stray_completion),
	KUNIT_CASE(irdma_ceq_next_over_laps),
	KUNIT_CASE_PARAM(irdma_aeqe_decode_fields, ct_aeq_gen_params),
	KUNIT_CASE(irdma_aeq_next_polarity),
	KUNIT_CASE(irdma_ird_encode_sizes),
	KUNIT_CASE(irdma_qpc_write_iwarp_layout),
	KUNIT_CASE(irdma_qpc_write_roce_layout),
	KUNIT_CASE(irdma_qpc_write_uda_layout),
	KUNIT_CASE(irdma_qpc_write_rejects_bad_fields),
	KUNIT_CASE_PARAM(irdma_qpc_write_w20_switch_sets_one_bit,
			 ct_qpc_switch_gen_params),
	{}
};

static struct kunit_suite irdma_ctrl_suite = {
	.name = "irdma_ctrl",
	.init = ct_test_init,
	.test_cases = irdma_ctrl_cases,
};

kunit_test_suite(irdma_ctrl_suite);
