// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the control QP (CQP) engine.
 *
 * The driver creates the CQP by writing the bus address of a 64-byte host
 * context to CCQPHIGH then CCQPLOW; the engine reads the context, checks
 * it and reports in CCQPSTATUS. It destroys the CQP by writing zero to
 * both. Commands are 64-byte WQEs in a ring; the driver writes the new
 * head index to CQPDB. For each WQE up to that head the engine checks the
 * valid bit against the pass's polarity, validates and executes the
 * command, advances CQPTAIL (with OP_ERR and CQPERRCODES on failure) and,
 * once a CCQ exists, writes a completion to it.
 */
#include "isim.h"
#include "isim_trace.h"

/**
 * struct isim_op_desc - one CQP opcode
 * @name: name used for the debugfs fail_<name> knob
 * @exec: handler, NULL for opcodes the simulator does not model yet
 * @gen2: only gen2 (E810) has the command; on gen1 it is BAD_OPCODE
 */
struct isim_op_desc {
	const char *name;
	isim_op_fn exec;
	bool gen2;
};

static void isim_op_nop(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
}

static const struct isim_op_desc isim_ops[ISIM_OP_NUM] = {
	[ISIM_OP_CREATE_QP]	 = { "create_qp", isim_op_create_qp },
	[ISIM_OP_MODIFY_QP]	 = { "modify_qp", isim_op_modify_qp },
	[ISIM_OP_DESTROY_QP]	 = { "destroy_qp", isim_op_destroy_qp },
	[ISIM_OP_CREATE_CQ]	 = { "create_cq", isim_op_create_cq },
	[ISIM_OP_MODIFY_CQ]	 = { "modify_cq", isim_op_modify_cq },
	[ISIM_OP_DESTROY_CQ]	 = { "destroy_cq", isim_op_destroy_cq },
	[ISIM_OP_ALLOC_STAG]	 = { "alloc_stag", isim_op_alloc_stag },
	[ISIM_OP_REG_MR]	 = { "reg_mr", isim_op_reg_mr },
	[ISIM_OP_QUERY_STAG]	 = { "query_stag" },
	[ISIM_OP_REG_SMR]	 = { "reg_smr" },
	[ISIM_OP_DEALLOC_STAG]	 = { "dealloc_stag", isim_op_dealloc_stag },
	[ISIM_OP_MANAGE_MAC]	 = { "manage_mac", isim_op_manage_mac },
	[ISIM_OP_MANAGE_ARP]	 = { "manage_arp", isim_op_manage_arp },
	[ISIM_OP_MANAGE_VF_PBLE] = { "manage_vf_pble" },
	[ISIM_OP_MANAGE_PUSH]	 = { "manage_push" },
	[ISIM_OP_QUERY_FEATURES] = { "query_features",
				     isim_op_query_features, true },
	[ISIM_OP_UPLOAD_CTX]	 = { "upload_ctx" },
	[ISIM_OP_ALLOC_MAC]	 = { "alloc_mac", isim_op_alloc_mac },
	[ISIM_OP_MANAGE_PMFN]	 = { "manage_pmfn", isim_op_manage_pmfn },
	[ISIM_OP_CREATE_CEQ]	 = { "create_ceq", isim_op_create_ceq },
	[ISIM_OP_DESTROY_CEQ]	 = { "destroy_ceq", isim_op_destroy_ceq },
	[ISIM_OP_CREATE_AEQ]	 = { "create_aeq", isim_op_create_aeq },
	[ISIM_OP_DESTROY_AEQ]	 = { "destroy_aeq", isim_op_destroy_aeq },
	[ISIM_OP_CREATE_AH]	 = { "create_ah", isim_op_create_ah },
	[ISIM_OP_MODIFY_AH]	 = { "modify_ah", isim_op_modify_ah },
	[ISIM_OP_DESTROY_AH]	 = { "destroy_ah", isim_op_destroy_ah },
	[ISIM_OP_UPDATE_SDS]	 = { "update_sds", isim_op_update_sds },
	[ISIM_OP_QUERY_FPM]	 = { "query_fpm", isim_op_query_fpm },
	[ISIM_OP_COMMIT_FPM]	 = { "commit_fpm", isim_op_commit_fpm },
	[ISIM_OP_FLUSH_WQES]	 = { "flush_wqes", isim_op_flush_wqes },
	[ISIM_OP_MANAGE_APBVT]	 = { "manage_apbvt", isim_op_manage_apbvt },
	[ISIM_OP_NOP]		 = { "nop", isim_op_nop },
	[ISIM_OP_MANAGE_QHASH]	 = { "manage_qhash", isim_op_manage_qhash },
	[ISIM_OP_CREATE_MCG]	 = { "create_mcg", isim_op_mcg },
	[ISIM_OP_MODIFY_MCG]	 = { "modify_mcg", isim_op_mcg },
	[ISIM_OP_DESTROY_MCG]	 = { "destroy_mcg", isim_op_mcg },
	[ISIM_OP_SUSPEND_QP]	 = { "suspend_qp", isim_op_suspend_qp },
	[ISIM_OP_RESUME_QP]	 = { "resume_qp", isim_op_resume_qp },
	[ISIM_OP_SHMC_PAGES]	 = { "shmc_pages", isim_op_shmc_pages },
	[ISIM_OP_WS_NODE]	 = { "ws_node", isim_op_ws_node, true },
	[ISIM_OP_MANAGE_STATS]	 = { "manage_stats", isim_op_manage_stats,
				     true },
	[ISIM_OP_GATHER_STATS]	 = { "gather_stats", isim_op_gather_stats,
				     true },
	[ISIM_OP_UP_MAP]	 = { "up_map", isim_op_up_map },
};

/**
 * isim_cqp_op_name - name of a CQP opcode
 * @op: opcode
 *
 * Return: the name, or NULL for an opcode the hardware does not define.
 */
const char *isim_cqp_op_name(unsigned int op)
{
	return op < ISIM_OP_NUM ? isim_ops[op].name : NULL;
}

/**
 * isim_op_query_features - QUERY_RDMA_FEATURES
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * Writes as many feature records as the buffer holds; record 0 also
 * carries the total count, so a driver with a short buffer can retry.
 */
void isim_op_query_features(struct isim_func *f, const u64 *wqe,
			    struct isim_res *res)
{
	u32 len = FIELD_GET(ISIM_HDR_BUFLEN, wqe[ISIM_WQE_HDR]);
	__le64 rec[3];
	u32 n;

	rec[0] = cpu_to_le64(FIELD_PREP(ISIM_FEAT_TYPE, ISIM_FEAT_FW_INFO) |
			     FIELD_PREP(ISIM_FEAT_COUNT, ARRAY_SIZE(rec)) |
			     FIELD_PREP(ISIM_FEAT_FW_MAJOR, 1) |
			     FIELD_PREP(ISIM_FEAT_FW_MINOR, 0));
	rec[1] = cpu_to_le64(FIELD_PREP(ISIM_FEAT_TYPE, ISIM_FEAT_HW_VERSION) |
			     ISIM_HW_REV_GEN2);
	rec[2] = cpu_to_le64(FIELD_PREP(ISIM_FEAT_TYPE, ISIM_FEAT_QSETS_MAX) |
			     256);
	n = min_t(u32, len / 8, ARRAY_SIZE(rec));
	if (!n || !IS_ALIGNED(wqe[4], 8)) {
		res->minor = n ? ISIM_MIN_BAD_ALIGN : ISIM_MIN_BAD_SIZE;
		return;
	}
	if (isim_dma_write(f, wqe[4], rec, n * 8))
		res->minor = ISIM_MIN_DMA_FAULT;
}

/**
 * isim_cqp_reset - forget the CQP
 * @f: function
 */
void isim_cqp_reset(struct isim_func *f)
{
	memset(&f->cqp, 0, sizeof(f->cqp));
}

static u16 isim_cqp_check_ctx(struct isim_func *f, const __le64 *ctx)
{
	u64 w0 = le64_to_cpu(ctx[0]), sq = le64_to_cpu(ctx[1]);
	u32 enc = FIELD_GET(ISIM_CQPCTX_W0_SQSIZE, w0);
	u32 proto = f->protocol == ISIM_AUX_ROCEV2 ? ISIM_CQPCTX_PROTO_ROCE :
						     ISIM_CQPCTX_PROTO_IWARP;

	if (enc < ISIM_CQP_SQSIZE_MIN_ENC || enc > ISIM_CQP_SQSIZE_MAX_ENC)
		return ISIM_MIN_BAD_SIZE;
	if (!sq || !IS_ALIGNED(sq, ISIM_CQPCTX_SQ_ALIGN))
		return ISIM_MIN_BAD_ALIGN;
	/* a context written for the other generation */
	if (FIELD_GET(ISIM_CQPCTX_W4_HW_MAJOR, le64_to_cpu(ctx[4])) !=
	    (f->gen == ISIM_GEN1 ? ISIM_CQP_HW_MAJOR_GEN1 :
				   ISIM_CQP_HW_MAJOR_GEN2))
		return ISIM_MIN_UNSUPPORTED;
	/* the X722 is iWARP only: its context has no protocol field */
	if (f->gen != ISIM_GEN1 &&
	    FIELD_GET(ISIM_CQPCTX_W0_PROTOCOL, w0) != proto)
		return ISIM_MIN_BAD_FIELD;
	return ISIM_MIN_OK;
}

static void isim_cqp_create(struct isim_func *f, u64 ctx_pa)
{
	struct isim_cqp *cqp = &f->cqp;
	__le64 ctx[8];
	u64 w[8];
	u16 minor;
	int i;

	cqp->ctx_pa = ctx_pa;
	trace_isim_reg(f->id, f->rm->ccqphigh, upper_32_bits(ctx_pa));
	trace_isim_reg(f->id, f->rm->ccqplow, lower_32_bits(ctx_pa));
	if (isim_dma_read(f, ctx_pa, ctx, sizeof(ctx))) {
		minor = ISIM_MIN_DMA_FAULT;
	} else {
		for (i = 0; i < ARRAY_SIZE(w); i++)
			w[i] = le64_to_cpu(ctx[i]);
		trace_isim_ctx(f->id, "cqp", 0, w, ARRAY_SIZE(w));
		minor = isim_cqp_check_ctx(f, ctx);
	}
	if (minor) {
		isim_wr32(f, f->rm->cqperrcodes,
			  FIELD_PREP(ISIM_CQPERR_MAJOR, ISIM_MAJ_ERR) |
			  FIELD_PREP(ISIM_CQPERR_MINOR, minor));
		isim_wr32(f, f->rm->ccqpstatus, ISIM_CCQPSTATUS_ERR);
		return;
	}
	cqp->sq_pa = le64_to_cpu(ctx[1]);
	cqp->size = 2u << FIELD_GET(ISIM_CQPCTX_W0_SQSIZE,
				    le64_to_cpu(ctx[0]));
	cqp->protocol = FIELD_GET(ISIM_CQPCTX_W0_PROTOCOL,
				  le64_to_cpu(ctx[0]));
	cqp->cookie = le64_to_cpu(ctx[3]);
	cqp->tail = 0;
	cqp->polarity = 1;
	cqp->live = true;
	/*
	 * A new CQP's head is 0 until its driver rings: the doorbell an
	 * earlier CQP of the function left in CQPDB names no WQE of this
	 * ring (a driver that reads CQPTAIL after writing a WQE, as Linux
	 * 6.1's does, would see that WQE run before it rang, and wait on).
	 */
	isim_wr32(f, f->rm->cqpdb, 0);
	isim_wr32(f, f->rm->cqptail, 0);
	isim_wr32(f, f->rm->cqperrcodes, 0);
	isim_wr32(f, f->rm->ccqpstatus, ISIM_CCQPSTATUS_DONE);
}

/**
 * isim_cqp_poll_ctx - notice CQP create and destroy requests
 * @f: function
 *
 * The driver writes CCQPHIGH first and CCQPLOW last, so CCQPLOW is the
 * trigger: non-zero and different from the last context seen creates the
 * CQP (a context that failed is not retried until it changes); zero
 * destroys it. A host context whose low 32 address bits are all zero
 * cannot be told from a destroy request and is never seen.
 */
void isim_cqp_poll_ctx(struct isim_func *f)
{
	u32 low = isim_rd32(f, f->rm->ccqplow);
	struct isim_cqp *cqp = &f->cqp;
	u64 pa;

	lockdep_assert_held(&f->eng_lock);
	pa = (u64)isim_rd32(f, f->rm->ccqphigh) << 32 | low;
	if (!low) {
		if (cqp->live || cqp->ctx_pa) {
			trace_isim_reg(f->id, f->rm->ccqplow, 0);
			isim_wr32(f, f->rm->ccqpstatus, 0);
		}
		cqp->live = false;
		cqp->ctx_pa = 0;
		return;
	}
	if (!cqp->live && pa != cqp->ctx_pa)
		isim_cqp_create(f, pa);
}

static void isim_cqp_complete(struct isim_func *f, u32 op, u32 idx,
			      const struct isim_res *res)
{
	struct isim_cqp *cqp = &f->cqp;
	u16 major = res->minor ? ISIM_MAJ_ERR : ISIM_MAJ_OK;
	u64 cqe[8] = {};

	if (++cqp->tail == cqp->size) {
		cqp->tail = 0;
		cqp->polarity ^= 1;
	}
	cqp->done++;
	cqp->op_done[op]++;
	if (res->minor) {
		cqp->errors++;
		cqp->op_err[op]++;
		isim_wr32(f, f->rm->cqperrcodes,
			  FIELD_PREP(ISIM_CQPERR_MAJOR, major) |
			  FIELD_PREP(ISIM_CQPERR_MINOR, res->minor));
	}
	cqe[1] = cqp->cookie;
	cqe[2] = res->ret_val;
	cqe[3] = FIELD_PREP(ISIM_CQE_W3_MINOR, res->minor) |
		 FIELD_PREP(ISIM_CQE_W3_MAJOR, major) |
		 FIELD_PREP(ISIM_CQE_W3_WQEIDX, idx) |
		 (res->minor ? ISIM_CQE_W3_ERROR : 0);
	isim_cq_post(f, 0, cqe);
	isim_wr32(f, f->rm->cqptail, cqp->tail |
		  (res->minor ? ISIM_CQPTAIL_OP_ERR : 0));
}

/* a removal of a filter, port or ARP entry: fail_share leaves it be */
static bool isim_cqp_removes(u32 op, const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR];

	switch (op) {
	case ISIM_OP_MANAGE_QHASH:
		return FIELD_GET(ISIM_QH_HDR_MANAGE, hdr) != ISIM_QH_ADD;
	case ISIM_OP_MANAGE_APBVT:
		return !(hdr & ISIM_APBVT_HDR_ADD);
	case ISIM_OP_MANAGE_ARP:
		return !(hdr & ISIM_ARP_HDR_VALID);
	default:
		return false;
	}
}

/* does the fail_share knob pick this command of opcode @op to fail */
static bool isim_cqp_share_fails(struct isim_func *f, u32 op, const u64 *wqe)
{
	struct isim_fail_share *sh = &f->faults.share;

	lockdep_assert_held(&f->eng_lock);
	if (!sh->permille || !test_bit(op, sh->ops) || isim_cqp_removes(op, wqe))
		return false;
	sh->seen++;
	if (prandom_u32_state(&sh->rnd) % 1000 >= sh->permille)
		return false;
	sh->failed++;
	sh->failed_op[op]++;
	return true;
}

static void isim_cqp_dispatch(struct isim_func *f, u32 op, const u64 *wqe,
			      struct isim_res *res)
{
	const struct isim_op_desc *d = op < ISIM_OP_NUM ? &isim_ops[op] : NULL;

	if (!d || !d->name || (d->gen2 && f->gen == ISIM_GEN1))
		res->minor = ISIM_MIN_BAD_OPCODE;
	else if (atomic_dec_if_positive(&f->faults.fail_op[op]) >= 0 ||
		 isim_cqp_share_fails(f, op, wqe))
		res->minor = ISIM_MIN_INJECTED;
	else if (!d->exec)
		res->minor = ISIM_MIN_UNSUPPORTED;
	else
		d->exec(f, wqe, res);
	if (res->minor)
		dev_dbg(&f->dev, "CQP op 0x%x (%s) failed, minor 0x%x\n", op,
			d && d->name ? d->name : "?", res->minor);
}

/* execute the WQE at the tail; false if it is not valid yet */
static bool isim_cqp_exec_one(struct isim_func *f)
{
	struct isim_cqp *cqp = &f->cqp;
	struct isim_res res = {};
	__le64 raw[ISIM_CQP_WQE_WORDS];
	u64 wqe[ISIM_CQP_WQE_WORDS];
	u32 i, op, idx = cqp->tail;

	if (isim_dma_read(f, cqp->sq_pa + (u64)idx * ISIM_CQP_WQE_BYTES, raw,
			  sizeof(raw))) {
		dev_warn_ratelimited(&f->dev, "CQP ring: DMA fault\n");
		return false;
	}
	for (i = 0; i < ISIM_CQP_WQE_WORDS; i++)
		wqe[i] = le64_to_cpu(raw[i]);
	if (!!(wqe[ISIM_WQE_HDR] & ISIM_HDR_VALID) != cqp->polarity) {
		cqp->bad_valid++;
		return false;
	}
	op = FIELD_GET(ISIM_HDR_OPCODE, wqe[ISIM_WQE_HDR]);
	isim_cqp_dispatch(f, op, wqe, &res);
	trace_isim_cqp_cmd(f->id, idx, op, op < ISIM_OP_NUM && isim_ops[op].name ?
			   isim_ops[op].name : "?", wqe, res.minor);
	isim_cqp_complete(f, op, idx, &res);
	return true;
}

/**
 * isim_cqp_run - execute posted CQP commands
 * @f: function
 * @budget: most commands to execute now
 *
 * Return: true if more commands are waiting.
 */
bool isim_cqp_run(struct isim_func *f, unsigned int budget)
{
	struct isim_cqp *cqp = &f->cqp;
	u32 head;

	lockdep_assert_held(&f->eng_lock);
	if (!cqp->live || READ_ONCE(f->faults.stall))
		return false;
	head = isim_rd32(f, f->rm->cqpdb);
	if (head >= cqp->size) {
		dev_warn_ratelimited(&f->dev, "CQPDB %u beyond ring of %u\n",
				     head, cqp->size);
		return false;
	}
	while (cqp->tail != head && budget--)
		if (!isim_cqp_exec_one(f))
			return false;
	return cqp->tail != head;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/cqp_test.c"
#endif
