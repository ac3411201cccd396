// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_cqp (and irdma_sim_cqp_gen1 on an X722 function):
 * the control QP and its commands: HMC, QP contexts, filter and ARP
 * tables, scheduler nodes, statistics, multicast groups; register map and
 * new_device lines. Included at the end of sim/cqp.c.
 */
#include "harness.h"

struct isim_ctx_case {
	const char *name;
	u32 enc;
	u64 sq_off;
	u32 major;
	u32 proto;
	u16 minor;
};

static const struct isim_ctx_case isim_ctx_cases[] = {
	{ "good", 2, 0, ISIM_CQP_HW_MAJOR_GEN2, ISIM_CQPCTX_PROTO_IWARP, 0 },
	{ "size_zero", 0, 0, ISIM_CQP_HW_MAJOR_GEN2, ISIM_CQPCTX_PROTO_IWARP,
	  ISIM_MIN_BAD_SIZE },
	{ "size_too_big", 11, 0, ISIM_CQP_HW_MAJOR_GEN2,
	  ISIM_CQPCTX_PROTO_IWARP, ISIM_MIN_BAD_SIZE },
	{ "ring_misaligned", 2, 64, ISIM_CQP_HW_MAJOR_GEN2,
	  ISIM_CQPCTX_PROTO_IWARP, ISIM_MIN_BAD_ALIGN },
	{ "gen1_context", 2, 0, 0, ISIM_CQPCTX_PROTO_IWARP,
	  ISIM_MIN_UNSUPPORTED },
	{ "wrong_protocol", 2, 0, ISIM_CQP_HW_MAJOR_GEN2,
	  ISIM_CQPCTX_PROTO_ROCE, ISIM_MIN_BAD_FIELD },
};

static void isim_ctx_case_desc(const struct isim_ctx_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(isim_ctx, isim_ctx_cases, isim_ctx_case_desc);

static void isim_cqp_create_checks_host_context(struct kunit *test)
{
	const struct isim_ctx_case *c = test->param_value;
	struct isim_test *t = test->priv;
	u32 status;

	isim_t_cqp_open(t, c->enc, c->sq_off, c->major, c->proto);
	status = isim_rd32(t->f, t->f->rm->ccqpstatus);
	KUNIT_EXPECT_EQ(test, t->f->cqp.live, !c->minor);
	if (!c->minor) {
		KUNIT_EXPECT_EQ(test, status, (u32)ISIM_CCQPSTATUS_DONE);
		KUNIT_EXPECT_EQ(test, t->f->cqp.size, 8U);
		return;
	}
	KUNIT_EXPECT_EQ(test, status, (u32)ISIM_CCQPSTATUS_ERR);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqperrcodes),
			(u32)(FIELD_PREP(ISIM_CQPERR_MAJOR, ISIM_MAJ_ERR) |
			      FIELD_PREP(ISIM_CQPERR_MINOR, c->minor)));
}

/* a gen1 function takes HW major version 0 and refuses a gen2 context */
static const struct isim_ctx_case isim_ctx_gen1_cases[] = {
	/* gen1's word 0 has no protocol field: i40iw leaves it 0 */
	{ "good", 2, 0, ISIM_CQP_HW_MAJOR_GEN1, 0, 0 },
	{ "gen2_context", 2, 0, ISIM_CQP_HW_MAJOR_GEN2, 0,
	  ISIM_MIN_UNSUPPORTED },
	{ "protocol_bits_ignored", 2, 0, ISIM_CQP_HW_MAJOR_GEN1,
	  ISIM_CQPCTX_PROTO_ROCE, 0 },
};

KUNIT_ARRAY_PARAM(isim_ctx_gen1, isim_ctx_gen1_cases, isim_ctx_case_desc);

/*
 * Power-on state at the generation's offsets: the gen1 BAR is 4 MiB, its
 * CPUSTATUS registers sit at 0xd040, its doorbells at 0x131080/0x138c00.
 */
static void isim_regs_reset_uses_generation_map(struct kunit *test)
{
	struct isim_test *t = test->priv;
	const struct isim_regmap *rm = t->f->rm;
	bool g1 = t->f->gen == ISIM_GEN1;
	int i;

	KUNIT_EXPECT_EQ(test, rm->bar_len, g1 ? SZ_4M : SZ_8M);
	for (i = 0; i < ISIM_CPUSTATUS_NUM; i++)
		KUNIT_EXPECT_EQ(test,
				isim_rd32(t->f, (g1 ? 0xd040 : 0x50ba5c) + 4 * i),
				(u32)ISIM_CPUSTATUS_READY);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, g1 ? 0x131080 : 0x502c00),
			ISIM_DB_IDLE);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, g1 ? 0x138c00 : 0x504400),
			ISIM_DB_IDLE);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, rm->bar_len - SZ_64K),
			ISIM_DB_IDLE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_LBARCTRL_DB_SIZE,
					isim_rd32(t->f, g1 ? 0xbe484 : 0x9de74)),
			g1 ? 1U : 2U);
	/* the CQP comes up through CCQPHIGH 0x8200 / LOW 0x8180 on gen1 */
	KUNIT_EXPECT_EQ(test, rm->ccqplow, g1 ? 0x8180U : 0x50a080U);
	isim_t_cqp_ok(test, 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, g1 ? 0x8080 : 0x500880), 1U);
}

static void isim_cqp_destroy_clears_status(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	isim_wr32(t->f, t->f->rm->ccqphigh, 0);
	isim_wr32(t->f, t->f->rm->ccqplow, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, t->f->cqp.live);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->ccqpstatus), 0U);
}

/*
 * A CQP created again without a function reset (its driver unloaded and
 * loaded again) starts with head 0: a valid WQE in its new ring waits for
 * the doorbell, whatever the last CQP left in CQPDB.
 */
static void isim_cqp_recreate_forgets_doorbell(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 done;

	isim_t_cqp_ok(test, 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_ASSERT_EQ(test, isim_rd32(t->f, t->f->rm->cqpdb), 3U);
	isim_wr32(t->f, t->f->rm->ccqphigh, 0);
	isim_wr32(t->f, t->f->rm->ccqplow, 0);
	isim_t_poll(t);
	KUNIT_ASSERT_FALSE(test, t->f->cqp.live);
	memset(t->sq, 0, 8 * ISIM_CQP_WQE_BYTES);
	isim_t_cqp_ok(test, 2);
	done = t->f->cqp.done;
	/* the driver writes WQE 0, valid, and reads CQPTAIL before it rings */
	t->sq[ISIM_WQE_HDR] = cpu_to_le64(FIELD_PREP(ISIM_HDR_OPCODE,
						     ISIM_OP_NOP) |
					  ISIM_HDR_VALID);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->cqp.done, done);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 0U);
	isim_wr32(t->f, t->f->rm->cqpdb, 1);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
}

static void isim_cqp_nop_advances_tail(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 2U);
}

static void isim_cqp_unknown_opcode_fails(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	isim_t_run(t, 0x3f, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_OPCODE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQPERR_MAJOR,
					isim_rd32(t->f, t->f->rm->cqperrcodes)),
			(u32)ISIM_MAJ_ERR);
	/* the next good command clears the error bit */
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 2U);
}

static void isim_cqp_stale_valid_bit_waits(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *hdr = &t->sq[ISIM_WQE_HDR];

	isim_t_cqp_ok(test, 2);
	isim_t_post(t, ISIM_OP_NOP, NULL, false);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 0U);
	KUNIT_EXPECT_EQ(test, t->f->cqp.bad_valid, 1ULL);
	*hdr |= cpu_to_le64(ISIM_HDR_VALID);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
}

/* CQP and CCQ of four entries: nine commands wrap both twice */
static void isim_cqp_ccq_completions_wrap(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w3;
	u32 i;

	isim_t_cqp_ok(test, 1);
	isim_t_ccq(test, 4);
	for (i = 1; i <= 9; i++) {
		isim_t_run(t, ISIM_OP_NOP, NULL);
		w3 = le64_to_cpu(t->ccq[(i % 4) * 4 + 3]);
		KUNIT_EXPECT_EQ_MSG(test, !!(w3 & ISIM_CQE_W3_VALID),
				    (i / 4) % 2 == 0, "completion %u", i);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3),
				(u64)(i % 4));
		KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[(i % 4) * 4 + 1]),
				0xc0ffeeULL);
	}
	KUNIT_EXPECT_EQ(test, t->f->cqp.polarity, 1);
	KUNIT_EXPECT_EQ(test, t->f->cqp.tail, 2U);
}

static void isim_cqp_error_completion_in_ccq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w3;

	isim_t_cqp_ok(test, 2);
	isim_t_ccq(test, 8);
	/* a second CQ 0 cannot exist */
	isim_t_ccq_post(t, 8);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	w3 = le64_to_cpu(t->ccq[1 * 4 + 3]);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_MIN_EXISTS);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MAJOR, w3),
			(u64)ISIM_MAJ_ERR);
}

static void isim_cqp_fail_knob_fails_next_n(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	atomic_set(&t->f->faults.fail_op[ISIM_OP_NOP], 2);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_INJECTED);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_INJECTED);
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->cqp.op_err[ISIM_OP_NOP], 2U);
}

static void isim_cqp_stall_holds_commands(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_cqp_ok(test, 2);
	t->f->faults.stall = true;
	isim_t_run(t, ISIM_OP_NOP, NULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 0U);
	t->f->faults.stall = false;
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_rd32(t->f, t->f->rm->cqptail), 1U);
}

static void isim_hmc_query_commit_fpm(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {}, qp;

	isim_t_cqp_ok(test, 2);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_QUERY_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	qp = le64_to_cpu(t->buf[1]);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_COUNT, qp), 4096ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_SIZE_LOG, qp), 9ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_MAX_SDS,
					le64_to_cpu(t->buf[0])),
			(u64)ISIM_MAX_SDS);

	/* commit: one QP too many */
	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	t->buf[ISIM_HMC_QP] = cpu_to_le64(4097);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_SIZE);
	KUNIT_EXPECT_FALSE(test, t->f->hmc.committed);

	/*
	 * The engine places the objects and returns their bases, whatever
	 * base the driver wrote: QPs (64 x 512 bytes) at 0, then the CQs;
	 * the APBVT's one 8 KiB entry after the ARP slot, the MRs after it.
	 */
	t->buf[ISIM_HMC_QP] = cpu_to_le64(64);
	t->buf[ISIM_HMC_CQ] = cpu_to_le64(64 | FIELD_PREP(ISIM_FPMC_BASE, 7));
	t->buf[ISIM_HMC_MR] = cpu_to_le64(8);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_TRUE(test, t->f->hmc.committed);
	KUNIT_EXPECT_EQ(test, t->f->hmc.base[ISIM_HMC_CQ], 64ULL * 512);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_QP]), 64ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_CQ]),
			64 | FIELD_PREP(ISIM_FPMC_BASE, 64));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_APBVT]),
			1 | FIELD_PREP(ISIM_FPMC_BASE, 68));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_MR]),
			8 | FIELD_PREP(ISIM_FPMC_BASE, 84));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[ISIM_HMC_XF]),
			FIELD_PREP(ISIM_FPMC_BASE, 0));
}

/*
 * gen1 reports and takes only the object types up to PBLE, without FSIMC
 * and FSIAV, and its CQ count is 17:0: bit 18 of the CQ word is not part
 * of the count there, while on gen2 it makes the count too large.
 */
static void isim_hmc_fpm_fits_generation(struct kunit *test)
{
	static const u8 gen2_only[] = {
		ISIM_HMC_FSIMC, ISIM_HMC_FSIAV, ISIM_HMC_RRF, ISIM_HMC_RRFFL,
		ISIM_HMC_HDR, ISIM_HMC_MD, ISIM_HMC_OOISC, ISIM_HMC_OOISCFFL,
	};
	struct isim_test *t = test->priv;
	bool g1 = t->f->gen == ISIM_GEN1;
	u64 w[8] = {};
	int i;

	isim_t_cqp_ok(test, 2);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_QUERY_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	/* query slots: the commit order, QP..ARP one slot later */
	for (i = 0; i < ARRAY_SIZE(gen2_only); i++)
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t->buf[gen2_only[i]]) == 0,
				g1);
	/* gen1's PBLEs may fill its small SD window, gen2's a part of it */
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_COUNT,
					le64_to_cpu(t->buf[ISIM_HMC_PBLE])),
			g1 ? 1ULL << 22 : 1ULL << 18);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_FPMQ_MAX_SDS,
					le64_to_cpu(t->buf[0])),
			g1 ? 16ULL : (u64)ISIM_MAX_SDS);

	/* a gen2-only type in a commit */
	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	t->buf[ISIM_HMC_RRF] = cpu_to_le64(1);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t),
			g1 ? (u32)ISIM_MIN_BAD_SIZE : 0U);

	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	t->buf[ISIM_HMC_CQ] = cpu_to_le64(64 | BIT(18));
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t),
			g1 ? 0U : (u32)ISIM_MIN_BAD_SIZE);
	if (g1)
		KUNIT_EXPECT_EQ(test, t->f->hmc.cnt[ISIM_HMC_CQ], 64U);
}

/* commands only gen2 has */
static const u8 isim_t_gen2_ops[] = {
	ISIM_OP_QUERY_FEATURES, ISIM_OP_WS_NODE, ISIM_OP_MANAGE_STATS,
	ISIM_OP_GATHER_STATS,
};

static void isim_t_op_desc(const u8 *op, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "op 0x%02x", *op);
}

KUNIT_ARRAY_PARAM(isim_t_gen2_op, isim_t_gen2_ops, isim_t_op_desc);

/*
 * The X722 has no RDMA feature query, no statistics instances or gather,
 * no work scheduler: those commands complete with BAD_OPCODE, and without
 * scheduler nodes every QP transmits (on TC 0).
 */
static void isim_cqp_gen2_only_op_fails_on_gen1(struct kunit *test)
{
	const u8 *op = test->param_value;
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	isim_t_cqp_ok(test, 2);
	w[4] = isim_t_bus(t, t->buf);
	w[ISIM_WQE_HDR] = ISIM_WS_HDR_ENABLE | ISIM_STATS_HDR_ALLOC;
	isim_t_run(t, *op, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_OPCODE);
	mutex_lock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(t->f, 77), 0);
	mutex_unlock(&t->f->eng_lock);
	/* and nothing for the parent's qset_add to register */
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(t->f, ISIM_T_LEAF, 0),
			-EOPNOTSUPP);
}

/*
 * PBLEs placed by the engine after the APBVT's 8 KiB (the only other
 * object), so in the third page of SD 0, backed by a paged SD whose third
 * PD is t->page
 */
static void isim_hmc_pble_through_paged_sd(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {}, pa = 0;

	isim_t_cqp_ok(test, 2);
	t->buf[ISIM_HMC_PBLE] = cpu_to_le64(512);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_ASSERT_EQ(test, t->f->hmc.base[ISIM_HMC_PBLE], 8192ULL);
	KUNIT_EXPECT_EQ(test, isim_hmc_pble(t->f, 3, &pa), -ENOENT);

	/* PD page (t->eq) entry 2 -> t->page; PBLE 3 holds 0xabc000 */
	t->eq[2] = cpu_to_le64(isim_t_bus(t, t->page) | ISIM_PDE_VALID);
	t->page[3] = cpu_to_le64(0xabc000);
	memset(w, 0, sizeof(w));
	w[0] = ISIM_SDCMD_WRITE | ISIM_SDCMD_PARTSEL;
	w[1] = isim_t_bus(t, t->eq) | ISIM_SDDATA_VALID;
	isim_t_run(t, ISIM_OP_UPDATE_SDS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, isim_hmc_pble(t->f, 3, &pa), 0);
	KUNIT_EXPECT_EQ(test, pa, 0xabc000ULL);
	KUNIT_EXPECT_EQ(test, isim_hmc_pble(t->f, 512, &pa), -ENOENT);

	/* a direct SD must be 2 MiB aligned; bit 12 set never is */
	w[1] = isim_t_bus(t, t->eq) | SZ_4K | ISIM_SDDATA_VALID |
	       ISIM_SDDATA_DIRECT;
	isim_t_run(t, ISIM_OP_UPDATE_SDS, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ALIGN);
}

/**
 * struct isim_t_new - a new_device line and what it should give
 * @line: what is written to new_device
 * @err: expected result
 * @proto: expected protocol when @err is 0
 * @gen: expected generation when @err is 0
 * @claim: expected driver when @err is 0
 */
struct isim_t_new {
	const char *line;
	int err;
	enum isim_aux_protocol proto;
	u8 gen;
	enum isim_claim claim;
};

static const struct isim_t_new isim_t_new_lines[] = {
	{ "3", 0, ISIM_AUX_IWARP, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 roce\n", 0, ISIM_AUX_ROCEV2, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 iwarp gen1\n", 0, ISIM_AUX_IWARP, ISIM_GEN1, ISIM_CLAIM_IRDMA },
	{ "3 iwarp gen2", 0, ISIM_AUX_IWARP, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 roce gen2 upstream\n", 0, ISIM_AUX_ROCEV2, ISIM_GEN2,
	  ISIM_CLAIM_UPSTREAM },
	{ "3 iwarp gen1 upstream", 0, ISIM_AUX_IWARP, ISIM_GEN1,
	  ISIM_CLAIM_UPSTREAM },
	{ "3 iwarp gen2 irdma", 0, ISIM_AUX_IWARP, ISIM_GEN2, ISIM_CLAIM_IRDMA },
	{ "3 roce gen1", -EINVAL },
	{ "3 iwarp gen3", -EINVAL },
	{ "3 iwarp gen1 x", -EINVAL },
	{ "3 iwarp gen2 upstream x", -EINVAL },
	{ "3 gen1", -EINVAL },
	{ "64 iwarp gen1", -EINVAL },
};

static void isim_t_new_desc(const struct isim_t_new *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", n->line);
	strreplace(desc, '\n', ' ');
}

KUNIT_ARRAY_PARAM(isim_t_new, isim_t_new_lines, isim_t_new_desc);

static void isim_parse_new_device_gen(struct kunit *test)
{
	const struct isim_t_new *n = test->param_value;
	enum isim_aux_protocol proto = ISIM_AUX_IWARP;
	enum isim_claim claim = -1;
	u8 gen = 0;
	u32 id = 0;

	KUNIT_ASSERT_EQ(test, isim_parse_new(n->line, &id, &proto, &gen,
					     &claim), n->err);
	if (n->err)
		return;
	KUNIT_EXPECT_EQ(test, id, 3U);
	KUNIT_EXPECT_EQ(test, proto, n->proto);
	KUNIT_EXPECT_EQ(test, gen, n->gen);
	KUNIT_EXPECT_EQ(test, claim, n->claim);
}

static void isim_qp_create_copies_context_to_hmc(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u8 *slot = (u8 *)t->page + 512;

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_QP, 4);
	/* the commit buffer is free again: use it as the QP host context */
	memset(t->buf, 0x5a, ISIM_QP_HOST_CTX_BYTES);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_HMC_UNBACKED);

	isim_t_back_sd0(test);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_ROCE_RC);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 4, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_NULL(test, memchr_inv(slot, 0x5a, ISIM_QP_HOST_CTX_BYTES));
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	isim_t_qp_cmd(t, ISIM_OP_DESTROY_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_qp_cmd(t, ISIM_OP_DESTROY_QP, 1, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
}

static void isim_conn_tables_refuse_duplicates(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 port[8] = {}, qh[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_HTE, 16);
	port[2] = 4791;
	port[ISIM_WQE_HDR] = ISIM_APBVT_HDR_ADD;
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	port[ISIM_WQE_HDR] = 0;
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_run(t, ISIM_OP_MANAGE_APBVT, port);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);

	/* a listener filter on 192.0.2.1:5000 for QP 1 */
	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, 5000) |
		FIELD_PREP(ISIM_QH_W1_QPN, 1);
	qh[6] = 0xc0000201;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, ISIM_QH_TCP_SYN) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 1U);
	qh[ISIM_WQE_HDR] &= ~ISIM_QH_HDR_MANAGE;
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 0U);
}

static void isim_cqp_handles_in_op_return_value(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 ws[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_ccq(test, 8);
	isim_t_run(t, ISIM_OP_ALLOC_MAC, NULL);
	isim_t_run(t, ISIM_OP_ALLOC_MAC, NULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[1 * 4 + 2]), 0ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[2 * 4 + 2]), 1ULL);
	ws[ISIM_WQE_HDR] = FIELD_PREP(ISIM_WS_HDR_NODE, 7) |
			   FIELD_PREP(ISIM_WS_HDR_OP, ISIM_WS_ADD);
	isim_t_run(t, ISIM_OP_WS_NODE, ws);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->ccq[3 * 4 + 2]), 7ULL);
	isim_t_run(t, ISIM_OP_WS_NODE, ws);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
}

/*
 * The tree keeps its shape: one root, every other node under a node that
 * exists and is no leaf, no node deleted before its children. The fixture
 * built root 0, node 1 and leaf 2.
 */
static void isim_ws_node_refuses_bad_tree(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;

	isim_t_cqp_ok(test, 2);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 5, 9, 0, 0),
			(u32)ISIM_MIN_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 5, ISIM_T_LEAF, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 6, 6, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 1, 0, 0, 0),
			(u32)ISIM_MIN_EXISTS);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 1, 0, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 9, 0, 0, 0),
			(u32)ISIM_MIN_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, 9, 0, 0, 0),
			(u32)ISIM_MIN_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 3, 1, 1, ISIM_T_WS_LEAF),
			0U);
	KUNIT_EXPECT_EQ(test, f->sched.node[3].weight, 4);
	KUNIT_EXPECT_EQ(test, f->sched.node[1].children, 2);
	KUNIT_EXPECT_EQ(test, f->sched.nodes, 4U);
	/* leaves first, then node 1; the root goes last and may come back */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 3, 0, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, ISIM_T_LEAF, 0, 0,
					0), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 0, 0, 0, 0),
			(u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 1, 0, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 0, 0, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, f->sched.nodes, 0U);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 6, 6, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, f->sched.root, 6);
}

/*
 * The parent registers leaves only, each for its own traffic class and a
 * class in use, once; a registration outlives its leaf until qset_del.
 */
static void isim_sched_qset_add_checks_leaf(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;

	isim_t_cqp_ok(test, 2);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 3, 1, 0,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 4, 1, 1,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 9, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 3, 1), -EINVAL);
	/* TC 1 is not in use until the parent has two classes */
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 4, 1), -EINVAL);
	f->qos.num_tc = 2;
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 4, 1), 0);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, ISIM_T_LEAF, 0), -EEXIST);
	KUNIT_EXPECT_EQ(test, isim_t_qset_add(f, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->qsets), 3);
	/* as the driver tears down: the node goes, then the registration */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, 3, 0, 0, 0), 0U);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, 3), -1);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, 4), 1);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_del(f, 3), 0);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_del(f, 3), -ENOENT);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_del(f, 5), -ENOENT);
	/* the classes shrink: a leaf of TC 1 is served no more */
	f->qos.num_tc = 1;
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, 4), -1);
	mutex_unlock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->qsets), 2);
}

/* CREATE_QP and MODIFY_QP take the QS handle from context word 22 */
static void isim_qp_context_names_qs_handle(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_QP, 4);
	isim_t_back_sd0(test);
	memset(t->buf, 0, ISIM_QP_HOST_CTX_BYTES);
	t->buf[22] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W22_QS_HANDLE, 5) |
				 FIELD_PREP(ISIM_QPC_W22_EXCEPTION_Q, 7));
	isim_t_qp_cmd(t, ISIM_OP_CREATE_QP, 1, ISIM_QP_TYPE_UDA);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	qp = xa_load(&t->f->qps, 1);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, 5U);
	t->buf[22] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W22_QS_HANDLE, 1023));
	isim_t_qp_cmd(t, ISIM_OP_MODIFY_QP, 1, ISIM_QP_TYPE_UDA);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, 1023U);
}

/*
 * GATHER_STATS writes each counter at its offset, cut to its width, for an
 * instance MANAGE_STATS allocated only, into an aligned buffer only.
 */
static void isim_gather_stats_writes_counters(struct kunit *test)
{
	struct isim_test *t = test->priv;
	const u8 *blk = (const u8 *)t->buf;
	u64 w[8] = {};
	u32 inst;

	isim_t_cqp_ok(test, 2);
	isim_t_ccq(test, 8);
	w[ISIM_WQE_HDR] = ISIM_STATS_HDR_ALLOC;
	isim_t_run(t, ISIM_OP_MANAGE_STATS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	inst = le64_to_cpu(t->ccq[1 * 4 + 2]);
	isim_hwc_add(t->f, ISIM_GS_IP4_RX_OCTETS, BIT_ULL(48) + 5);
	isim_hwc_add(t->f, ISIM_GS_TCP_RTX_SEGS, BIT_ULL(32) + 7);
	isim_hwc_add(t->f, ISIM_GS_RDMA_TX_SENDS, 3);
	isim_hwc_segment(t->f, false, true, 60);
	memset(t->buf, 0xa5, ISIM_GS_BLOCK);
	w[ISIM_WQE_HDR] = ISIM_STATS_HDR_USE_INST |
			  FIELD_PREP(ISIM_STATS_HDR_INDEX, inst);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_GATHER_STATS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x008), 5ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(blk + 0x0dc), 7U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x118), 3ULL);
	/* one IPv6 segment received: packets, octets, TCP segments */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x040), 1ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x038), 60ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + 0x0c0), 1ULL);
	/* what holds no counter is zero, to the end of the block */
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(blk + 0x0d8), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(blk + ISIM_GS_BLOCK - 8),
			0ULL);
	/* an instance nobody allocated */
	w[ISIM_WQE_HDR] = ISIM_STATS_HDR_USE_INST |
			  FIELD_PREP(ISIM_STATS_HDR_INDEX, inst + 1);
	isim_t_run(t, ISIM_OP_GATHER_STATS, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
	/* a buffer off its 8-byte alignment */
	w[ISIM_WQE_HDR] = 0;
	w[4] = isim_t_bus(t, t->buf) + 4;
	isim_t_run(t, ISIM_OP_GATHER_STATS, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ALIGN);
}

/*
 * Multicast groups: the index lies in the committed multicast contexts;
 * a group is created once, changed and destroyed only while it exists;
 * its members are the valid entries of its list, its address the WQE's.
 */
static void isim_mcg_commands(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *list = t->page;
	struct isim_mcg *mcg;
	u64 w[8] = {};

	isim_t_cqp_ok(test, 2);
	isim_t_commit(test, ISIM_HMC_FSIMC, 4);
	list[0] = cpu_to_le64(5 | ISIM_MCGE_VALID);
	list[1] = cpu_to_le64(9);
	list[2] = cpu_to_le64(7 | ISIM_MCGE_VALID);
	w[4] = isim_t_bus(t, list);
	w[ISIM_MCG_W_ADDR] = 0xe6000201;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_MCG_HDR_INDEX, 4) | ISIM_MCG_HDR_IPV4;
	isim_t_run(t, ISIM_OP_CREATE_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_MCG_HDR_INDEX, 3) | ISIM_MCG_HDR_IPV4;
	isim_t_run(t, ISIM_OP_MODIFY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
	isim_t_run(t, ISIM_OP_CREATE_MCG, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	mcg = xa_load(&t->f->mcgs, 3);
	KUNIT_ASSERT_NOT_NULL(test, mcg);
	KUNIT_EXPECT_TRUE(test, mcg->ipv4);
	KUNIT_EXPECT_EQ(test, mcg->addr[0], 0xe6000201U);
	KUNIT_ASSERT_EQ(test, mcg->n, 2);
	KUNIT_EXPECT_EQ(test, mcg->qpn[0], 5U);
	KUNIT_EXPECT_EQ(test, mcg->qpn[1], 7U);
	isim_t_run(t, ISIM_OP_CREATE_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);

	/* a third member; a list off 8 bytes is refused */
	list[1] = cpu_to_le64(9 | ISIM_MCGE_VALID);
	isim_t_run(t, ISIM_OP_MODIFY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, mcg->n, 3);
	w[4] += 4;
	isim_t_run(t, ISIM_OP_MODIFY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ALIGN);

	isim_t_run(t, ISIM_OP_DESTROY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_NULL(test, xa_load(&t->f->mcgs, 3));
	isim_t_run(t, ISIM_OP_DESTROY_MCG, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
}

static struct kunit_case isim_cqp_test_cases[] = {
	KUNIT_CASE_PARAM(isim_cqp_create_checks_host_context,
			 isim_ctx_gen_params),
	KUNIT_CASE(isim_cqp_destroy_clears_status),
	KUNIT_CASE(isim_cqp_recreate_forgets_doorbell),
	KUNIT_CASE(isim_cqp_nop_advances_tail),
	KUNIT_CASE(isim_cqp_unknown_opcode_fails),
	KUNIT_CASE(isim_cqp_stale_valid_bit_waits),
	KUNIT_CASE(isim_cqp_ccq_completions_wrap),
	KUNIT_CASE(isim_cqp_error_completion_in_ccq),
	KUNIT_CASE(isim_cqp_fail_knob_fails_next_n),
	KUNIT_CASE(isim_cqp_stall_holds_commands),
	KUNIT_CASE(isim_hmc_query_commit_fpm),
	KUNIT_CASE(isim_hmc_pble_through_paged_sd),
	KUNIT_CASE_PARAM(isim_parse_new_device_gen, isim_t_new_gen_params),
	KUNIT_CASE(isim_regs_reset_uses_generation_map),
	KUNIT_CASE(isim_hmc_fpm_fits_generation),
	KUNIT_CASE(isim_qp_create_copies_context_to_hmc),
	KUNIT_CASE(isim_conn_tables_refuse_duplicates),
	KUNIT_CASE(isim_cqp_handles_in_op_return_value),
	KUNIT_CASE(isim_ws_node_refuses_bad_tree),
	KUNIT_CASE(isim_sched_qset_add_checks_leaf),
	KUNIT_CASE(isim_qp_context_names_qs_handle),
	KUNIT_CASE(isim_gather_stats_writes_counters),
	KUNIT_CASE(isim_mcg_commands),
	{}
};

static struct kunit_suite isim_cqp_test_suite = {
	.name = "irdma_sim_cqp",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_cqp_test_cases,
};

/* the same on a function modelling an X722 (gen1) */
static struct kunit_case isim_cqp_gen1_test_cases[] = {
	KUNIT_CASE_PARAM(isim_cqp_create_checks_host_context,
			 isim_ctx_gen1_gen_params),
	KUNIT_CASE(isim_regs_reset_uses_generation_map),
	KUNIT_CASE(isim_hmc_fpm_fits_generation),
	KUNIT_CASE_PARAM(isim_cqp_gen2_only_op_fails_on_gen1,
			 isim_t_gen2_op_gen_params),
	{}
};

static struct kunit_suite isim_cqp_gen1_test_suite = {
	.name = "irdma_sim_cqp_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_cqp_gen1_test_cases,
};

kunit_test_suites(&isim_cqp_test_suite, &isim_cqp_gen1_test_suite);
