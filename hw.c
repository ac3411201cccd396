// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: bring-up and tear-down of a function's RDMA engine.
 *
 * The stages, in order, each undone by the matching err_ label and by
 * irdma_hw_deinit() in reverse:
 *
 *   1. wait for the engine's processors to report ready;
 *   2. the control QP (CQP): ring and host context, created by writing
 *      the context address to CCQPHIGH/LOW;
 *   3. the CQP's completion queue (CCQ, CQ 0), created through the CQP;
 *   4. the host memory cache: ask the engine for its object sizes and
 *      limits (QUERY_FPM), choose counts, commit them (COMMIT_FPM) and
 *      back the resulting segments with host pages (UPDATE_PE_SDS);
 *   5. the PBLE pool over the PBLE object;
 *   6. the AEQ and its interrupt, then one CEQ per remaining vector.
 *   7. a statistics instance (gen2), the port's traffic classes;
 *   8. on gen1, the local MAC table entry QPs name as source address.
 *
 * The ILQ of an iWARP function comes later, with its CM (see ilq.c); its
 * CQ's events are handed to it before any verbs CQ is looked for.
 *
 * Event queues are drained in threaded interrupt handlers: the vector
 * masks itself when it fires, and the thread re-enables it once the queue
 * is empty.
 */
#include <asm/unaligned.h>
#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "main.h"
#include "hw.h"
#include "ilq.h"
#include "trace.h"

/* CQP host context structure version the driver fills in */
#define IRDMA_HW_CQP_STRUCT_VER	1
static const struct irdma_hw_regs irdma_hw_regs_gen2 = {
	.cqp_tail = IRDMA_REG_CQPTAIL,
	.cqp_db = IRDMA_REG_CQPDB,
	.ccqp_status = IRDMA_REG_CCQPSTATUS,
	.ccqp_high = IRDMA_REG_CCQPHIGH,
	.ccqp_low = IRDMA_REG_CCQPLOW,
	.cq_arm = IRDMA_REG_CQARM,
	.aeq_alloc = IRDMA_REG_AEQALLOC,
	.cqp_err_codes = IRDMA_REG_CQPERRCODES,
	.wqe_alloc = IRDMA_REG_WQEALLOC,
	.aeq_ctl = IRDMA_REG_PFINT_AEQCTL,
	.ceq_ctl = IRDMA_REG_GLINT_CEQCTL(0),
	.dyn_ctl = IRDMA_REG_GLINT_DYN_CTL(0),
	.dyn_first = 0,
	.cpu_status = { IRDMA_REG_GLPE_CPUSTATUS0, IRDMA_REG_GLPE_CPUSTATUS1,
			IRDMA_REG_GLPE_CPUSTATUS2 },
	.db_page = IRDMA_REG_DB_PAGE,
};

/* X722: the PE's registers sit among i40e's; DYN_CTLN(n) is vector n + 1 */
static const struct irdma_hw_regs irdma_hw_regs_gen1 = {
	.cqp_tail = IRDMA_REG_CQPTAIL_G1,
	.cqp_db = IRDMA_REG_CQPDB_G1,
	.ccqp_status = IRDMA_REG_CCQPSTATUS_G1,
	.ccqp_high = IRDMA_REG_CCQPHIGH_G1,
	.ccqp_low = IRDMA_REG_CCQPLOW_G1,
	.cq_arm = IRDMA_REG_CQARM_G1,
	.aeq_alloc = IRDMA_REG_AEQALLOC_G1,
	.cqp_err_codes = IRDMA_REG_CQPERRCODES_G1,
	.wqe_alloc = IRDMA_REG_WQEALLOC_G1,
	.aeq_ctl = IRDMA_REG_PFINT_AEQCTL_G1,
	.ceq_ctl = IRDMA_REG_PFINT_CEQCTL_G1(0),
	.dyn_ctl = IRDMA_REG_PFINT_DYN_CTLN_G1(0),
	.dyn_first = 1,
	.lnklst = IRDMA_REG_PFINT_LNKLSTN_G1(0),
	.cpu_status = { IRDMA_REG_GLPE_CPUSTATUS0_G1,
			IRDMA_REG_GLPE_CPUSTATUS1_G1,
			IRDMA_REG_GLPE_CPUSTATUS2_G1 },
	.db_page = IRDMA_REG_DB_PAGE_G1,
};

/**
 * irdma_hw_regs_of - the register map of a generation
 * @gen: IRDMA_GEN_1 or IRDMA_GEN_2
 *
 * Return: the map, or NULL for a generation this driver does not know.
 */
const struct irdma_hw_regs *irdma_hw_regs_of(int gen)
{
	switch (gen) {
	case IRDMA_GEN_1:
		return &irdma_hw_regs_gen1;
	case IRDMA_GEN_2:
		return &irdma_hw_regs_gen2;
	default:
		return NULL;
	}
}

/* ITR index meaning "no throttling update" in DYN_CTL and xEQCTL */
#define IRDMA_HW_ITR_NONE	3

static struct device *irdma_hw_adev(struct irdma_hw *hw)
{
	return &hw->fn->adev->dev;
}

/* Poll @reg until (value & @mask) == @want, or time out. */
static int irdma_hw_poll(struct irdma_hw *hw, u32 reg, u32 mask, u32 want,
			 u32 *val)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(IRDMA_HW_CQP_TIMEOUT_MS);

	for (;;) {
		*val = irdma_hw_rd32(hw, reg);
		if ((*val & mask) == want)
			return 0;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		usleep_range(100, 500);
	}
}

/* ---- 1. engine ready ---- */

static int irdma_hw_wait_ready(struct irdma_hw *hw)
{
	const u32 *regs = hw->regs->cpu_status;
	unsigned int i;
	u32 val;

	for (i = 0; i < ARRAY_SIZE(hw->regs->cpu_status); i++) {
		if (irdma_hw_poll(hw, regs[i], U32_MAX, IRDMA_CPUSTATUS_READY,
				  &val)) {
			dev_err(irdma_hw_adev(hw), "RDMA engine CPU %u not ready (0x%x)\n",
				i, val);
			return -EIO;
		}
	}
	return 0;
}

/* ---- 2. control QP ---- */

static void irdma_cqp_free_mem(struct irdma_hw *hw)
{
	kfree(hw->cqp_scratch);
	hw->cqp_scratch = NULL;
	irdma_dma_free(hw->dev, &hw->cqp_ctx);
	irdma_dma_free(hw->dev, &hw->cqp_sq);
}

static int irdma_cqp_alloc_mem(struct irdma_hw *hw)
{
	struct irdma_cqp *cqp = &hw->cqp;

	hw->cqp_scratch = kcalloc(IRDMA_HW_CQP_SIZE, sizeof(u64), GFP_KERNEL);
	if (!hw->cqp_scratch ||
	    irdma_dma_alloc(hw->dev, &hw->cqp_sq,
			    IRDMA_HW_CQP_SIZE * IRDMA_CQP_WQE_BYTES) ||
	    irdma_dma_alloc(hw->dev, &hw->cqp_ctx, IRDMA_CQP_WQE_BYTES)) {
		irdma_cqp_free_mem(hw);
		return -ENOMEM;
	}
	cqp->sq = hw->cqp_sq.va;
	cqp->scratch = hw->cqp_scratch;
	cqp->mmio = &hw->mmio;
	cqp->db_off = hw->regs->cqp_db;
	cqp->size = IRDMA_HW_CQP_SIZE;
	return irdma_cqp_init(cqp);
}

static int irdma_cqp_fill_ctx(struct irdma_hw *hw)
{
	struct irdma_cqp_ctx_info info = {
		.sq_pa = hw->cqp_sq.pa,
		.compl_ctx = (uintptr_t)&hw->cqp,
		.sq_size = IRDMA_HW_CQP_SIZE,
		.struct_ver = IRDMA_HW_CQP_STRUCT_VER,
		.hmc_profile = IRDMA_HMC_PROFILE_DEFAULT,
		.hw_rev = hw->fn->gen,
		.protocol = hw->fn->protocol == IRDMA_PROTOCOL_IWARP ?
			    IRDMA_CQP_PROTOCOL_IWARP : IRDMA_CQP_PROTOCOL_ROCEV2,
	};

	return irdma_cqp_ctx_build(hw->cqp_ctx.va, &info);
}

/* Forget the CQP on the device side: zero the context address. */
static void irdma_cqp_detach(struct irdma_hw *hw)
{
	u32 status;

	irdma_hw_wr32(hw, hw->regs->ccqp_high, 0);
	irdma_hw_wr32(hw, hw->regs->ccqp_low, 0);
	if (atomic_read(&hw->halted))
		return;
	if (irdma_hw_poll(hw, hw->regs->ccqp_status,
			  IRDMA_CCQPSTATUS_DONE | IRDMA_CCQPSTATUS_ERR, 0,
			  &status))
		dev_warn(irdma_hw_adev(hw), "CQP still reported (0x%x) after destroy\n",
			 status);
}

static int irdma_cqp_start(struct irdma_hw *hw)
{
	u32 status;
	int ret;

	/* CCQPLOW is written last: it starts the engine reading the context */
	irdma_hw_wr32(hw, hw->regs->ccqp_high, upper_32_bits(hw->cqp_ctx.pa));
	irdma_hw_wr32(hw, hw->regs->ccqp_low, lower_32_bits(hw->cqp_ctx.pa));
	ret = irdma_hw_poll(hw, hw->regs->ccqp_status, IRDMA_CCQPSTATUS_DONE,
			    IRDMA_CCQPSTATUS_DONE, &status);
	if (!ret)
		return 0;
	if (status & IRDMA_CCQPSTATUS_ERR) {
		status = irdma_hw_rd32(hw, hw->regs->cqp_err_codes);
		dev_err(irdma_hw_adev(hw), "CQP create failed: major 0x%x minor 0x%x\n",
			(u32)FIELD_GET(IRDMA_CQPERRCODES_MAJOR, status),
			(u32)FIELD_GET(IRDMA_CQPERRCODES_MINOR, status));
		ret = -EIO;
	} else {
		dev_err(irdma_hw_adev(hw), "CQP create timed out\n");
	}
	irdma_cqp_detach(hw);
	return ret;
}

static int irdma_cqp_create(struct irdma_hw *hw)
{
	int ret;

	ret = irdma_cqp_alloc_mem(hw);
	if (ret)
		return ret;
	ret = irdma_cqp_fill_ctx(hw);
	if (!ret)
		ret = irdma_cqp_start(hw);
	if (ret)
		irdma_cqp_free_mem(hw);
	return ret;
}

static void irdma_cqp_destroy(struct irdma_hw *hw)
{
	irdma_cqp_detach(hw);
	irdma_cqp_free_mem(hw);
}

/* ---- 3. CCQ ---- */

static void irdma_ccq_info(struct irdma_hw *hw, struct irdma_cqp_cq_info *info)
{
	memset(info, 0, sizeof(*info));
	info->ring_pa = hw->ccq_ring.pa;
	info->shadow_pa = hw->ccq_shadow.pa;
	info->compl_ctx = (uintptr_t)&hw->ccq;
	info->size = IRDMA_HW_CCQ_SIZE;
	info->cq_id = 0;
	info->hw_rev = hw->fn->gen;
	info->vsi = hw->fn->vsi_id;
	info->check_overflow = true;
	/* armed only once CEQ 0 exists (irdma_cmd_use_irq()) */
	info->ceq_id_valid = true;
	info->ceq_id = 0;
}

static void irdma_ccq_free_mem(struct irdma_hw *hw)
{
	irdma_dma_free(hw->dev, &hw->ccq_shadow);
	irdma_dma_free(hw->dev, &hw->ccq_ring);
}

static int irdma_ccq_alloc_mem(struct irdma_hw *hw)
{
	struct irdma_uk_cq *ccq = &hw->ccq;

	if (irdma_dma_alloc(hw->dev, &hw->ccq_ring,
			    IRDMA_HW_CCQ_SIZE * IRDMA_QUANTUM_BYTES) ||
	    irdma_dma_alloc(hw->dev, &hw->ccq_shadow,
			    IRDMA_SHADOW_AREA_BYTES)) {
		irdma_ccq_free_mem(hw);
		return -ENOMEM;
	}
	ccq->ring = hw->ccq_ring.va;
	ccq->shadow = hw->ccq_shadow.va;
	ccq->mmio = &hw->mmio;
	ccq->arm_off = hw->regs->cq_arm;
	ccq->cq_id = 0;
	ccq->size = IRDMA_HW_CCQ_SIZE;
	ccq->hw_rev = hw->fn->gen;
	return irdma_uk_cq_init(ccq);
}

static int irdma_ccq_create(struct irdma_hw *hw)
{
	struct irdma_cqp_cq_info info;
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_cq_create_cb,
		.arg = &info,
		.name = "CREATE_CQ (CCQ)",
		.no_ccq = true,
	};
	int ret;

	ret = irdma_ccq_alloc_mem(hw);
	if (ret)
		return ret;
	irdma_ccq_info(hw, &info);
	ret = irdma_cmd_exec(hw, &cmd);
	if (ret)
		irdma_ccq_free_mem(hw);
	return ret;
}

static void irdma_ccq_destroy(struct irdma_hw *hw)
{
	struct irdma_cqp_cq_info info;
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_cq_destroy_cb,
		.arg = &info,
		.name = "DESTROY_CQ (CCQ)",
		.no_ccq = true,
	};

	irdma_ccq_info(hw, &info);
	irdma_cmd_exec(hw, &cmd);
	irdma_ccq_free_mem(hw);
}

/* ---- 4. HMC ---- */

static int irdma_build_query_fpm(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_hw *hw = arg;

	return irdma_cqpw_query_fpm(wqe, valid, hw->fn->fn_id, hw->fpm_buf.pa);
}

static int irdma_build_commit_fpm(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_hw *hw = arg;

	return irdma_cqpw_commit_fpm(wqe, valid, hw->fn->fn_id, hw->fpm_buf.pa,
				     IRDMA_HMC_FPM_BUF_SIZE);
}

static int irdma_hmc_query(struct irdma_hw *hw)
{
	struct irdma_cmd cmd = {
		.build = irdma_build_query_fpm,
		.arg = hw,
		.name = "QUERY_FPM_VAL",
	};
	const __le64 *buf = hw->fpm_buf.va;
	int ret;

	ret = irdma_cmd_exec(hw, &cmd);
	if (ret)
		return ret;
	ret = irdma_hmc_parse_query(buf, hw->fn->gen, &hw->hmc);
	if (ret) {
		dev_err(irdma_hw_adev(hw), "engine reported unusable HMC limits\n");
		return ret;
	}
	hw->max_ceqs = FIELD_GET(IRDMA_FPM_QUERY_MAX_CEQS,
				 irdma_wqe_get(buf, IRDMA_FPM_QUERY_MISC_WORD));
	return 0;
}

/**
 * irdma_hw_hmc_size - choose the HMC object counts for a function
 * @l: layout with the engine's limits (irdma_hmc_parse_query())
 * @qps: QPs wanted
 * @pbles: PBLEs wanted
 *
 * Asks for at most what the engine allows, and halves the QP count (and
 * everything sized after it) until the layout fits the function's SDs.
 *
 * Return: 0 with @l planned, -ENOSPC when not even one QP fits.
 */
int irdma_hw_hmc_size(struct irdma_hmc_layout *l, u32 qps, u32 pbles)
{
	qps = min(qps, l->obj[IRDMA_HMC_QP].max_cnt);
	pbles = min(pbles, l->obj[IRDMA_HMC_PBLE].max_cnt);
	for (; qps; qps /= 2) {
		if (irdma_hmc_profile_counts(l, qps, pbles))
			return -EINVAL;
		if (!irdma_hmc_plan(l))
			return 0;
	}
	return -ENOSPC;
}

static int irdma_hmc_commit(struct irdma_hw *hw)
{
	struct irdma_cmd cmd = {
		.build = irdma_build_commit_fpm,
		.arg = hw,
		.name = "COMMIT_FPM_VAL",
	};
	int ret;

	ret = irdma_hw_hmc_size(&hw->hmc, IRDMA_HW_HMC_QPS, IRDMA_HW_HMC_PBLES);
	if (ret) {
		dev_err(irdma_hw_adev(hw), "no HMC layout fits the function: %d\n",
			ret);
		return ret;
	}
	irdma_hmc_build_commit(&hw->hmc, hw->fpm_buf.va);
	ret = irdma_cmd_exec(hw, &cmd);
	if (ret)
		return ret;
	/* the engine returns the layout it adopted: use that one */
	ret = irdma_hmc_parse_commit(hw->fpm_buf.va, &hw->hmc);
	if (ret)
		dev_err(irdma_hw_adev(hw), "engine committed an unusable HMC layout\n");
	return ret;
}

/**
 * struct irdma_sd_arg - one UPDATE_PE_SDS command
 * @hmc_fn: HMC function id
 * @upd: the SD change
 */
struct irdma_sd_arg {
	u8 hmc_fn;
	struct irdma_sd_update upd;
};

static int irdma_build_update_sd(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_sd_arg *sd = arg;

	return irdma_cqpw_update_sds(wqe, valid, sd->hmc_fn, &sd->upd, 1,
				     NULL, 0);
}

static int irdma_hmc_send_sd(struct irdma_hw *hw, const struct irdma_sd_arg *sd)
{
	struct irdma_cmd cmd = {
		.build = irdma_build_update_sd,
		.arg = sd,
		.name = "UPDATE_PE_SDS",
	};

	return irdma_cmd_exec(hw, &cmd);
}

static void irdma_hmc_free_sd(struct irdma_hw *hw, struct irdma_hmc_sd *sd)
{
	while (sd->page_cnt)
		irdma_dma_free(hw->dev, &sd->pages[--sd->page_cnt]);
	kfree(sd->pages);
	sd->pages = NULL;
	irdma_dma_free(hw->dev, &sd->pd_page);
}

/* Pages of segment @idx that the layout uses */
static u32 irdma_hmc_sd_pages(const struct irdma_hmc_layout *l, u32 idx)
{
	u64 left = l->total - (u64)idx * IRDMA_HMC_SD_SIZE;

	return min_t(u64, IRDMA_HMC_PD_PER_SD,
		     DIV_ROUND_UP_ULL(left, IRDMA_HW_PAGE_SZ));
}

static int irdma_hmc_fill_sd(struct irdma_hw *hw, struct irdma_hmc_sd *sd,
			     u32 pages)
{
	__le64 *pd;
	u64 entry;

	if (irdma_dma_alloc(hw->dev, &sd->pd_page, IRDMA_HW_PAGE_SZ))
		return -ENOMEM;
	sd->pages = kcalloc(pages, sizeof(*sd->pages), GFP_KERNEL);
	if (!sd->pages)
		return -ENOMEM;
	pd = sd->pd_page.va;
	while (sd->page_cnt < pages) {
		struct irdma_dma_mem *pg = &sd->pages[sd->page_cnt];

		if (irdma_dma_alloc(hw->dev, pg, IRDMA_HW_PAGE_SZ))
			return -ENOMEM;
		sd->page_cnt++;
		if (irdma_hmc_pd_entry(pg->pa, &entry))
			return -EINVAL;
		irdma_wqe_set(pd, sd->page_cnt - 1, entry);
	}
	return 0;
}

static int irdma_hmc_back_sd(struct irdma_hw *hw, u32 idx)
{
	struct irdma_hmc_sd *sd = &hw->sds[idx];
	struct irdma_sd_arg arg = { .hmc_fn = hw->fn->fn_id };
	int ret;

	ret = irdma_hmc_fill_sd(hw, sd, irdma_hmc_sd_pages(&hw->hmc, idx));
	if (!ret)
		ret = irdma_hmc_sd_set(sd->pd_page.pa, hw->hmc.first_sd + idx,
				       false, &arg.upd);
	if (!ret)
		ret = irdma_hmc_send_sd(hw, &arg);
	if (ret)
		irdma_hmc_free_sd(hw, sd);
	return ret;
}

static void irdma_hmc_unback(struct irdma_hw *hw)
{
	struct irdma_sd_arg arg = { .hmc_fn = hw->fn->fn_id };

	while (hw->sd_cnt) {
		hw->sd_cnt--;
		irdma_hmc_sd_clear(hw->hmc.first_sd + hw->sd_cnt, false,
				   &arg.upd);
		irdma_hmc_send_sd(hw, &arg);
		irdma_hmc_free_sd(hw, &hw->sds[hw->sd_cnt]);
	}
	kfree(hw->sds);
	hw->sds = NULL;
}

static int irdma_hmc_back(struct irdma_hw *hw)
{
	int ret;

	hw->sds = kcalloc(hw->hmc.sd_cnt, sizeof(*hw->sds), GFP_KERNEL);
	if (!hw->sds)
		return -ENOMEM;
	for (; hw->sd_cnt < hw->hmc.sd_cnt; hw->sd_cnt++) {
		ret = irdma_hmc_back_sd(hw, hw->sd_cnt);
		if (ret) {
			irdma_hmc_unback(hw);
			return ret;
		}
	}
	return 0;
}

static int irdma_hmc_setup(struct irdma_hw *hw)
{
	int ret;

	ret = irdma_dma_alloc(hw->dev, &hw->fpm_buf, IRDMA_HMC_FPM_BUF_SIZE);
	if (ret)
		return ret;
	ret = irdma_hmc_query(hw);
	if (ret)
		goto err_free_buf;
	ret = irdma_hmc_commit(hw);
	if (ret)
		goto err_free_buf;
	ret = irdma_hmc_back(hw);
	if (ret)
		goto err_free_buf;
	return 0;

err_free_buf:
	irdma_dma_free(hw->dev, &hw->fpm_buf);
	return ret;
}

static void irdma_hmc_teardown(struct irdma_hw *hw)
{
	irdma_hmc_unback(hw);
	irdma_dma_free(hw->dev, &hw->fpm_buf);
}

/* ---- 6. event queues and their interrupts ---- */

static bool irdma_eq_is_aeq(const struct irdma_eq *eq)
{
	return eq == &eq->hw->aeq;
}

static u32 irdma_eq_ctl_reg(const struct irdma_eq *eq)
{
	const struct irdma_hw_regs *regs = eq->hw->regs;

	return irdma_eq_is_aeq(eq) ? regs->aeq_ctl : regs->ceq_ctl + 4 * eq->id;
}

static u32 irdma_eq_dyn_ctl_reg(const struct irdma_eq *eq)
{
	const struct irdma_hw_regs *regs = eq->hw->regs;

	return regs->dyn_ctl + 4 * (eq->hw_vector - regs->dyn_first);
}

/* Let the vector fire again (it masked itself when it fired). */
static void irdma_eq_rearm(struct irdma_eq *eq)
{
	irdma_hw_wr32(eq->hw, irdma_eq_dyn_ctl_reg(eq),
		      IRDMA_DYNCTL_INTENA | IRDMA_DYNCTL_CLEARPBA |
		      FIELD_PREP(IRDMA_DYNCTL_ITR_IDX, IRDMA_HW_ITR_NONE));
}

/*
 * Every AE goes to the irdma_ae tracepoint: most are the ordinary life of
 * a connection or a consumer's error that the consumer is told of. Lost
 * ones are worth a line.
 */
static void irdma_aeq_log(struct irdma_hw *hw, const struct irdma_aeqe_info *ae)
{
	trace_irdma_ae(irdma_hw_adev(hw), ae);
	if (ae->overflow)
		dev_warn_ratelimited(irdma_hw_adev(hw),
				     "the engine's asynchronous event queue overflowed: some QP and CQ errors went unreported\n");
}

static irqreturn_t irdma_aeq_thread(int irq, void *data)
{
	struct irdma_eq *eq = data;
	struct irdma_aeqe_info ae;
	u32 n = 0;

	while (!irdma_aeq_next(&eq->ring, &ae)) {
		irdma_aeq_log(eq->hw, &ae);
		irdma_ae_dispatch(eq->hw, &ae);
		n++;
	}
	if (n)
		irdma_hw_wr32(eq->hw, eq->hw->regs->aeq_alloc, n);
	eq->events += n;
	atomic64_inc(&eq->hw->cmd_stats[IRDMA_CMD_STAT_AEQ_IRQS]);
	irdma_eq_rearm(eq);
	return IRQ_HANDLED;
}

static irqreturn_t irdma_ceq_thread(int irq, void *data)
{
	struct irdma_eq *eq = data;
	u64 cq_ctx;

	while (!irdma_ceq_next(&eq->ring, &cq_ctx)) {
		if (cq_ctx == (uintptr_t)&eq->hw->ccq)
			irdma_cmd_ccq_event(eq->hw);
		else if (!irdma_ilq_ceq_event(eq->hw, cq_ctx))
			irdma_cq_event(eq->hw, cq_ctx);
		eq->events++;
	}
	atomic64_inc(&eq->hw->cmd_stats[IRDMA_CMD_STAT_CEQ_IRQS]);
	irdma_eq_rearm(eq);
	return IRQ_HANDLED;
}

static irqreturn_t irdma_eq_hardirq(int irq, void *data)
{
	return IRQ_WAKE_THREAD;
}

static void irdma_eq_info(const struct irdma_eq *eq, u32 size,
			  struct irdma_cqp_eq_info *info)
{
	memset(info, 0, sizeof(*info));
	info->ring_pa = eq->mem.pa;
	info->elem_cnt = size;
	info->ceq_id = eq->id;
	info->vsi = eq->hw->fn->vsi_id;
}

/*
 * On gen1 a CEQ reaches its vector through the vector's cause list, which
 * the parent leaves empty: make the CEQ its first and only cause.
 */
static void irdma_eq_link(struct irdma_eq *eq, bool on)
{
	const struct irdma_hw_regs *regs = eq->hw->regs;
	u32 val = IRDMA_LNKLST_END;

	if (!regs->lnklst || irdma_eq_is_aeq(eq))
		return;
	if (on)
		val = FIELD_PREP(IRDMA_LNKLST_FIRSTQ_IDX_G1, eq->id) |
		      FIELD_PREP(IRDMA_LNKLST_FIRSTQ_TYPE_G1,
				 IRDMA_LNKLST_TYPE_CEQ_G1);
	irdma_hw_wr32(eq->hw, regs->lnklst + 4 * (eq->hw_vector - 1), val);
}

static int irdma_eq_irq_on(struct irdma_eq *eq)
{
	struct irdma_func *fn = eq->hw->fn;
	u32 ctl;
	int ret;

	ret = request_threaded_irq(fn->msix[eq->vector].vector,
				   irdma_eq_hardirq,
				   irdma_eq_is_aeq(eq) ? irdma_aeq_thread :
							 irdma_ceq_thread,
				   0, eq->name, eq);
	if (ret) {
		dev_err(irdma_hw_adev(eq->hw), "cannot get IRQ for %s: %d\n",
			eq->name, ret);
		return ret;
	}
	ctl = FIELD_PREP(IRDMA_INTCTL_MSIX_IDX, eq->hw_vector) |
	      FIELD_PREP(IRDMA_INTCTL_ITR_IDX, IRDMA_HW_ITR_NONE) |
	      IRDMA_INTCTL_CAUSE_ENA;
	if (eq->hw->regs->lnklst && !irdma_eq_is_aeq(eq))
		ctl |= FIELD_PREP(IRDMA_INTCTL_NEXTQ_IDX_G1, IRDMA_LNKLST_END);
	irdma_eq_link(eq, true);
	irdma_hw_wr32(eq->hw, irdma_eq_ctl_reg(eq), ctl);
	irdma_eq_rearm(eq);
	return 0;
}

static void irdma_eq_irq_off(struct irdma_eq *eq)
{
	irdma_hw_wr32(eq->hw, irdma_eq_ctl_reg(eq), 0);
	irdma_hw_wr32(eq->hw, irdma_eq_dyn_ctl_reg(eq), 0);
	irdma_eq_link(eq, false);
	free_irq(eq->hw->fn->msix[eq->vector].vector, eq);
}

/* Create the AEQ (@eq is hw->aeq) or a CEQ on the engine, with its IRQ. */
static int irdma_eq_create(struct irdma_eq *eq, u32 size)
{
	bool aeq = irdma_eq_is_aeq(eq);
	u32 words = aeq ? IRDMA_AEQE_BYTES / 8 : IRDMA_CEQE_BYTES / 8;
	struct irdma_cqp_eq_info info;
	struct irdma_cmd cmd = {
		.build = aeq ? irdma_cqpw_aeq_create_cb :
				irdma_cqpw_ceq_create_cb,
		.arg = &info,
		.name = aeq ? "CREATE_AEQ" : "CREATE_CEQ",
	};
	int ret;

	ret = irdma_dma_alloc(eq->hw->dev, &eq->mem, size * words * 8);
	if (ret)
		return ret;
	ret = irdma_eq_init(&eq->ring, eq->mem.va, size, words);
	if (ret)
		goto err_free_mem;
	irdma_eq_info(eq, size, &info);
	ret = irdma_cmd_exec(eq->hw, &cmd);
	if (ret)
		goto err_free_mem;
	ret = irdma_eq_irq_on(eq);
	if (ret)
		goto err_destroy_eq;
	return 0;

err_destroy_eq:
	cmd.build = aeq ? irdma_cqpw_aeq_destroy_cb :
			  irdma_cqpw_ceq_destroy_cb;
	cmd.name = aeq ? "DESTROY_AEQ" : "DESTROY_CEQ";
	irdma_cmd_exec(eq->hw, &cmd);
err_free_mem:
	irdma_dma_free(eq->hw->dev, &eq->mem);
	return ret;
}

static void irdma_eq_destroy(struct irdma_eq *eq)
{
	bool aeq = irdma_eq_is_aeq(eq);
	struct irdma_cqp_eq_info info;
	struct irdma_cmd cmd = {
		.build = aeq ? irdma_cqpw_aeq_destroy_cb :
				irdma_cqpw_ceq_destroy_cb,
		.arg = &info,
		.name = aeq ? "DESTROY_AEQ" : "DESTROY_CEQ",
	};

	irdma_eq_irq_off(eq);
	irdma_eq_info(eq, eq->ring.size, &info);
	irdma_cmd_exec(eq->hw, &cmd);
	irdma_dma_free(eq->hw->dev, &eq->mem);
}

/**
 * irdma_hw_eq_sizes - how many entries the AEQ and each CEQ get
 * @iwarp: the function runs iWARP
 * @qps: QPs the HMC holds
 * @cqs: CQs the HMC holds
 * @aeq: the AEQ's entries
 * @ceq: each CEQ's entries
 *
 * The engine drops an AE when the AEQ has no free entry, and a CEQ that
 * overflows is an engine error: both rings hold as many events as can be
 * outstanding. A CQ has at most one CEQE outstanding (it is re-armed
 * after), so a CEQ holds every CQ. An iWARP QP can have two AEs
 * outstanding at once (the peer's FIN, then the close completion or a
 * reset), a RoCE QP one, and each CQ one more (an overflow, a CQ error).
 */
void irdma_hw_eq_sizes(bool iwarp, u32 qps, u32 cqs, u32 *aeq, u32 *ceq)
{
	u64 n = (u64)(iwarp ? 2 : 1) * qps + cqs;

	*aeq = clamp_t(u64, n, IRDMA_HW_EQ_MIN, IRDMA_HW_AEQ_MAX);
	*ceq = clamp_t(u32, cqs, IRDMA_HW_EQ_MIN, IRDMA_HW_CEQ_MAX);
}

static void irdma_hw_eq_sizes_of(struct irdma_hw *hw, u32 *aeq, u32 *ceq)
{
	irdma_hw_eq_sizes(hw->fn->protocol == IRDMA_PROTOCOL_IWARP,
			  hw->hmc.obj[IRDMA_HMC_QP].cnt,
			  hw->hmc.obj[IRDMA_HMC_CQ].cnt, aeq, ceq);
}

static int irdma_aeq_setup(struct irdma_hw *hw)
{
	struct irdma_eq *eq = &hw->aeq;
	u32 size, unused;

	eq->hw = hw;
	eq->vector = IRDMA_HW_AEQ_VECTOR;
	eq->hw_vector = hw->fn->msix[eq->vector].entry;
	snprintf(eq->name, sizeof(eq->name), "irdma-%s-aeq",
		 dev_name(irdma_hw_adev(hw)));
	irdma_hw_eq_sizes_of(hw, &size, &unused);
	return irdma_eq_create(eq, size);
}

static void irdma_ceqs_teardown(struct irdma_hw *hw)
{
	while (hw->ceq_cnt)
		irdma_eq_destroy(&hw->ceqs[--hw->ceq_cnt]);
	kfree(hw->ceqs);
	hw->ceqs = NULL;
}

/**
 * irdma_hw_ceq_count - how many CEQs a function gets
 * @vectors: interrupt vectors the parent gave (one goes to the AEQ)
 * @max_ceqs: CEQs the engine allows
 * @cpus: online CPUs
 *
 * Return: one CEQ per CPU, as far as vectors and the engine allow; 0 when
 * there is no vector or no CEQ left for one.
 */
u32 irdma_hw_ceq_count(u32 vectors, u32 max_ceqs, u32 cpus)
{
	if (vectors < 2)
		return 0;
	return min3(vectors - 1, max_ceqs, max(cpus, 1U));
}

static int irdma_ceqs_setup(struct irdma_hw *hw)
{
	u32 want = irdma_hw_ceq_count(hw->fn->msix_count, hw->max_ceqs,
				      num_online_cpus());
	struct irdma_eq *eq;
	u32 size, unused;
	int ret;

	if (!want)
		return -EINVAL;
	irdma_hw_eq_sizes_of(hw, &unused, &size);
	hw->ceqs = kcalloc(want, sizeof(*hw->ceqs), GFP_KERNEL);
	if (!hw->ceqs)
		return -ENOMEM;
	while (hw->ceq_cnt < want) {
		eq = &hw->ceqs[hw->ceq_cnt];
		eq->hw = hw;
		eq->id = hw->ceq_cnt;
		eq->vector = IRDMA_HW_AEQ_VECTOR + 1 + hw->ceq_cnt;
		eq->hw_vector = hw->fn->msix[eq->vector].entry;
		snprintf(eq->name, sizeof(eq->name), "irdma-%s-ceq%u",
			 dev_name(irdma_hw_adev(hw)), eq->id);
		ret = irdma_eq_create(eq, size);
		if (ret) {
			irdma_ceqs_teardown(hw);
			return ret;
		}
		hw->ceq_cnt++;
	}
	return 0;
}

/* ---- the whole engine ---- */

/* ---- 7. statistics ---- */

/*
 * Gathers a running engine makes on its own: often enough that the
 * fastest 32-bit counter (a segment count at line rate) cannot wrap twice
 * in between, rare enough to cost nothing.
 */
#define IRDMA_HWC_POLL_MS	30000

/* each counter's byte offset in the GATHER_STATS block and its width */
static const struct {
	u16 off;
	u8 bits;
} irdma_hwc_slots[] = {
	[IRDMA_HWC_RX_VLAN_ERR] = { 0x004, 32 },
	[IRDMA_HWC_IP4_RX_OCTETS] = { 0x008, 48 },
	[IRDMA_HWC_IP4_RX_PKTS] = { 0x010, 48 },
	[IRDMA_HWC_IP4_RX_TRUNC] = { 0x018, 32 },
	[IRDMA_HWC_IP4_RX_DISCARD] = { 0x01c, 32 },
	[IRDMA_HWC_IP4_RX_FRAGS] = { 0x020, 48 },
	[IRDMA_HWC_IP4_RX_MC_OCTETS] = { 0x028, 48 },
	[IRDMA_HWC_IP4_RX_MC_PKTS] = { 0x030, 48 },
	[IRDMA_HWC_IP6_RX_OCTETS] = { 0x038, 48 },
	[IRDMA_HWC_IP6_RX_PKTS] = { 0x040, 48 },
	[IRDMA_HWC_IP6_RX_TRUNC] = { 0x048, 32 },
	[IRDMA_HWC_IP6_RX_DISCARD] = { 0x04c, 32 },
	[IRDMA_HWC_IP6_RX_FRAGS] = { 0x050, 48 },
	[IRDMA_HWC_IP6_RX_MC_OCTETS] = { 0x058, 48 },
	[IRDMA_HWC_IP6_RX_MC_PKTS] = { 0x060, 48 },
	[IRDMA_HWC_IP4_TX_OCTETS] = { 0x068, 48 },
	[IRDMA_HWC_IP4_TX_PKTS] = { 0x070, 48 },
	[IRDMA_HWC_IP4_TX_FRAGS] = { 0x078, 48 },
	[IRDMA_HWC_IP4_TX_MC_OCTETS] = { 0x080, 48 },
	[IRDMA_HWC_IP4_TX_MC_PKTS] = { 0x088, 48 },
	[IRDMA_HWC_IP6_TX_OCTETS] = { 0x090, 48 },
	[IRDMA_HWC_IP6_TX_PKTS] = { 0x098, 48 },
	[IRDMA_HWC_IP6_TX_FRAGS] = { 0x0a0, 48 },
	[IRDMA_HWC_IP6_TX_MC_OCTETS] = { 0x0a8, 48 },
	[IRDMA_HWC_IP6_TX_MC_PKTS] = { 0x0b0, 48 },
	[IRDMA_HWC_IP6_TX_NO_ROUTE] = { 0x0b8, 32 },
	[IRDMA_HWC_IP4_TX_NO_ROUTE] = { 0x0bc, 32 },
	[IRDMA_HWC_TCP_RX_SEGS] = { 0x0c0, 48 },
	[IRDMA_HWC_TCP_RX_PROTO_ERR] = { 0x0c8, 32 },
	[IRDMA_HWC_TCP_RX_OPT_ERR] = { 0x0cc, 32 },
	[IRDMA_HWC_TCP_TX_SEGS] = { 0x0d0, 48 },
	[IRDMA_HWC_TCP_RTX_SEGS] = { 0x0dc, 32 },
	[IRDMA_HWC_UDP_RX] = { 0x0e0, 48 },
	[IRDMA_HWC_UDP_TX] = { 0x0e8, 48 },
	[IRDMA_HWC_RDMA_RX_WRITES] = { 0x0f0, 48 },
	[IRDMA_HWC_RDMA_RX_READS] = { 0x0f8, 48 },
	[IRDMA_HWC_RDMA_RX_SENDS] = { 0x100, 48 },
	[IRDMA_HWC_RDMA_TX_WRITES] = { 0x108, 48 },
	[IRDMA_HWC_RDMA_TX_READS] = { 0x110, 48 },
	[IRDMA_HWC_RDMA_TX_SENDS] = { 0x118, 48 },
	[IRDMA_HWC_MW_BINDS] = { 0x120, 48 },
	[IRDMA_HWC_INVALIDATES] = { 0x128, 48 },
	[IRDMA_HWC_RX_ECN_MARKED] = { 0x130, 48 },
	[IRDMA_HWC_CNP_HANDLED] = { 0x138, 32 },
	[IRDMA_HWC_CNP_IGNORED] = { 0x13c, 32 },
	[IRDMA_HWC_CNP_SENT] = { 0x140, 32 },
};

static_assert(ARRAY_SIZE(irdma_hwc_slots) == IRDMA_HWC_COUNT);

/**
 * irdma_hw_counters_fold - account a gathered block
 * @c: the counters; caller holds @c->lock or owns @c alone
 * @block: IRDMA_GATHER_BUF_SIZE bytes as GATHER_STATS wrote them
 *
 * Each counter's total grows by how far the hardware counter moved since
 * the last block, modulo its width: one wrap between two blocks is
 * accounted for, more cannot be told apart.
 */
void irdma_hw_counters_fold(struct irdma_hw_counters *c, const void *block)
{
	unsigned int i;

	for (i = 0; i < IRDMA_HWC_COUNT; i++) {
		const u8 *p = (const u8 *)block + irdma_hwc_slots[i].off;
		u64 mask = GENMASK_ULL(irdma_hwc_slots[i].bits - 1, 0);
		u64 now;

		now = irdma_hwc_slots[i].bits == 32 ? get_unaligned_le32(p) :
						      get_unaligned_le64(p);
		now &= mask;
		c->total[i] += (now - c->last[i]) & mask;
		c->last[i] = now;
	}
}

static int irdma_build_manage_stats(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_hw *hw = arg;

	/* an allocation while no instance is held yet, a free afterwards */
	return irdma_cqpw_manage_stats(wqe, valid, hw->counters.inst,
				       hw->fn->fn_id, !hw->counters.inst_held,
				       true);
}

static int irdma_build_gather_stats(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_hw *hw = arg;

	return irdma_cqpw_gather_stats(wqe, valid, hw->counters.inst,
				       hw->fn->fn_id, hw->counters.buf.pa,
				       true, true);
}

/* one GATHER_STATS into the totals; caller holds the counters' lock */
static int irdma_hwc_gather(struct irdma_hw *hw)
{
	struct irdma_cmd cmd = {
		.build = irdma_build_gather_stats,
		.arg = hw,
		.name = "GATHER_STATS",
	};
	int ret;

	lockdep_assert_held(&hw->counters.lock);
	ret = irdma_cmd_exec(hw, &cmd);
	if (!ret)
		irdma_hw_counters_fold(&hw->counters, hw->counters.buf.va);
	return ret;
}

/**
 * irdma_hw_read_counters - the engine's counters, gathered now
 * @hw: a running engine
 * @out: IRDMA_HWC_COUNT values, indexed by enum irdma_hw_counter
 *
 * Context: process context; sleeps (one CQP command).
 * Return: 0, or the error of the gather; @out then holds the totals of
 * the last gather that worked.
 */
int irdma_hw_read_counters(struct irdma_hw *hw, u64 *out)
{
	struct irdma_hw_counters *c = &hw->counters;
	int ret;

	mutex_lock(&c->lock);
	ret = irdma_hwc_gather(hw);
	memcpy(out, c->total, sizeof(c->total));
	mutex_unlock(&c->lock);
	return ret;
}

static void irdma_hwc_poll(struct work_struct *work)
{
	struct irdma_hw *hw = container_of(to_delayed_work(work),
					   struct irdma_hw, counters.poll);

	mutex_lock(&hw->counters.lock);
	/* a halted or broken CQP has said so already */
	irdma_hwc_gather(hw);
	mutex_unlock(&hw->counters.lock);
	schedule_delayed_work(&hw->counters.poll,
			      msecs_to_jiffies(IRDMA_HWC_POLL_MS));
}

/*
 * A statistics instance for the function's QPs and a first gather, from
 * which the totals count.
 */
static int irdma_hwc_setup(struct irdma_hw *hw)
{
	struct irdma_hw_counters *c = &hw->counters;
	struct irdma_cmd cmd = {
		.build = irdma_build_manage_stats,
		.arg = hw,
		.name = "MANAGE_STATS (allocate)",
	};
	int ret;

	/* gen1 counts in registers; it has no statistics instances */
	if (hw->fn->gen == IRDMA_GEN_1)
		return 0;
	ret = irdma_dma_alloc(hw->dev, &c->buf, IRDMA_GATHER_BUF_SIZE);
	if (ret)
		return ret;
	ret = irdma_cmd_exec(hw, &cmd);
	if (ret)
		goto err_free;
	if (cmd.done.op_ret > FIELD_MAX(IRDMA_CQPST_INST_IDX)) {
		dev_err(irdma_hw_adev(hw),
			"engine gave statistics instance %u, beyond the instance field\n",
			cmd.done.op_ret);
		ret = -EIO;
		goto err_free;
	}
	c->inst = cmd.done.op_ret;
	c->inst_held = true;
	mutex_lock(&c->lock);
	ret = irdma_hwc_gather(hw);
	memset(c->total, 0, sizeof(c->total));
	mutex_unlock(&c->lock);
	if (ret)
		goto err_release;
	schedule_delayed_work(&c->poll, msecs_to_jiffies(IRDMA_HWC_POLL_MS));
	return 0;

err_release:
	cmd.name = "MANAGE_STATS (free)";
	irdma_cmd_exec(hw, &cmd);
	c->inst_held = false;
err_free:
	irdma_dma_free(hw->dev, &c->buf);
	return ret;
}

static void irdma_hwc_teardown(struct irdma_hw *hw)
{
	struct irdma_hw_counters *c = &hw->counters;
	struct irdma_cmd cmd = {
		.build = irdma_build_manage_stats,
		.arg = hw,
		.name = "MANAGE_STATS (free)",
	};

	if (!c->inst_held)
		return;
	cancel_delayed_work_sync(&c->poll);
	irdma_cmd_exec(hw, &cmd);
	c->inst_held = false;
	irdma_dma_free(hw->dev, &c->buf);
}

/* ---- 8. gen1: the local MAC table entry QPs send from ---- */

struct irdma_loc_mac_arg {
	u8 idx;
	u8 mac[ETH_ALEN];
	bool del;
};

static int irdma_build_loc_mac_alloc(__le64 *wqe, u8 valid, const void *arg)
{
	return irdma_cqpw_loc_mac_alloc(wqe, valid);
}

static int irdma_build_loc_mac(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_loc_mac_arg *a = arg;

	return a->del ? irdma_cqpw_loc_mac_del(wqe, valid, a->idx, false) :
			irdma_cqpw_loc_mac_add(wqe, valid, a->idx, a->mac);
}

/**
 * irdma_hw_loc_mac_set - point the function's local MAC entry at an address
 * @hw: a running gen1 engine (a no-op on gen2, whose QPs carry their MAC)
 * @mac: the netdev's address now
 *
 * gen1 QP contexts name their source MAC by index into a table of the
 * engine; bring-up takes one entry for the netdev's address, and an address
 * change rewrites it.
 *
 * Context: process context; sleeps (one CQP command).
 * Return: 0 or the command's error.
 */
int irdma_hw_loc_mac_set(struct irdma_hw *hw, const u8 *mac)
{
	struct irdma_loc_mac_arg a = { .idx = hw->loc_mac_idx };
	struct irdma_cmd cmd = {
		.build = irdma_build_loc_mac,
		.arg = &a,
		.name = "MANAGE_LOC_MAC (set)",
	};

	if (!hw->loc_mac_held)
		return 0;
	ether_addr_copy(a.mac, mac);
	return irdma_cmd_exec(hw, &cmd);
}

static void irdma_loc_mac_teardown(struct irdma_hw *hw)
{
	struct irdma_loc_mac_arg a = { .idx = hw->loc_mac_idx, .del = true };
	struct irdma_cmd cmd = {
		.build = irdma_build_loc_mac,
		.arg = &a,
		.name = "MANAGE_LOC_MAC (free)",
	};

	if (!hw->loc_mac_held)
		return;
	irdma_cmd_exec(hw, &cmd);
	hw->loc_mac_held = false;
}

static int irdma_loc_mac_setup(struct irdma_hw *hw)
{
	struct irdma_cmd cmd = {
		.build = irdma_build_loc_mac_alloc,
		.name = "ALLOC_LOC_MAC",
	};
	u8 mac[ETH_ALEN];
	int ret;

	if (hw->fn->gen != IRDMA_GEN_1)
		return 0;
	ret = irdma_cmd_exec(hw, &cmd);
	if (ret)
		return ret;
	if (cmd.done.op_ret > FIELD_MAX(IRDMA_QPC_SRCMACIDX_G1)) {
		dev_err(irdma_hw_adev(hw),
			"engine gave local MAC entry %u, beyond the QP context's field\n",
			cmd.done.op_ret);
		return -EIO;
	}
	hw->loc_mac_idx = cmd.done.op_ret;
	hw->loc_mac_held = true;
	/* a change racing with this is rewritten by the netdev notifier */
	ether_addr_copy(mac, hw->fn->netdev->dev_addr);
	ret = irdma_hw_loc_mac_set(hw, mac);
	if (ret)
		irdma_loc_mac_teardown(hw);
	return ret;
}

static struct irdma_hw *irdma_hw_alloc(struct irdma_func *fn)
{
	struct irdma_hw *hw;

	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return NULL;
	hw->fn = fn;
	hw->dev = fn->dma_dev;
	hw->mmio.ops = fn->mmio_ops ?: &irdma_mmio_iomem_ops;
	hw->mmio.base = fn->hw_addr;
	hw->mmio.priv = fn->mmio_priv;
	hw->regs = irdma_hw_regs_of(fn->gen);
	mutex_init(&hw->cmd_mutex);
	irdma_cmd_req_init(hw);
	mutex_init(&hw->counters.lock);
	mutex_init(&hw->rawq_lock);
	INIT_DELAYED_WORK(&hw->counters.poll, irdma_hwc_poll);
	hw->cmd_wq = alloc_ordered_workqueue("irdma-cqp/%s", WQ_MEM_RECLAIM,
					     dev_name(&fn->adev->dev));
	if (!hw->cmd_wq) {
		mutex_destroy(&hw->cmd_mutex);
		kfree(hw);
		return NULL;
	}
	xa_init_flags(&hw->cqs, XA_FLAGS_ALLOC);
	xa_init_flags(&hw->qps, XA_FLAGS_ALLOC);
	return hw;
}

static void irdma_hw_free(struct irdma_hw *hw)
{
	/* every CQ and QP was destroyed with the RDMA device */
	WARN_ON_ONCE(!xa_empty(&hw->cqs) || !xa_empty(&hw->qps));
	xa_destroy(&hw->qps);
	xa_destroy(&hw->cqs);
	destroy_workqueue(hw->cmd_wq);
	mutex_destroy(&hw->rawq_lock);
	mutex_destroy(&hw->counters.lock);
	mutex_destroy(&hw->cmd_mutex);
	kfree(hw);
}

static void irdma_hw_announce(struct irdma_hw *hw)
{
	const struct irdma_hmc_obj_info *o = hw->hmc.obj;

	dev_info(irdma_hw_adev(hw),
		 "RDMA engine up: %u QPs, %u CQs, %u MRs, %u PBLEs, %u AHs, %u CEQs, %u HMC segments\n",
		 o[IRDMA_HMC_QP].cnt, o[IRDMA_HMC_CQ].cnt, o[IRDMA_HMC_MR].cnt,
		 o[IRDMA_HMC_PBLE].cnt, o[IRDMA_HMC_FSIAV].cnt, hw->ceq_cnt,
		 hw->sd_cnt);
}

static int irdma_hw_start(struct irdma_hw *hw)
{
	int ret;

	ret = irdma_hw_wait_ready(hw);
	if (ret)
		return ret;
	ret = irdma_cqp_create(hw);
	if (ret)
		return ret;
	ret = irdma_ccq_create(hw);
	if (ret)
		goto err_destroy_cqp;
	ret = irdma_hmc_setup(hw);
	if (ret)
		goto err_destroy_ccq;
	ret = irdma_pble_pool_init(&hw->pble, 0,
				   hw->hmc.obj[IRDMA_HMC_PBLE].cnt);
	if (ret)
		goto err_teardown_hmc;
	ret = irdma_aeq_setup(hw);
	if (ret)
		goto err_destroy_pble;
	ret = irdma_ceqs_setup(hw);
	if (ret)
		goto err_destroy_aeq;
	irdma_cmd_use_irq(hw, true);
	ret = irdma_hwc_setup(hw);
	if (ret)
		goto err_teardown_ceqs;
	ret = irdma_qos_init(hw);
	if (ret)
		goto err_teardown_hwc;
	ret = irdma_loc_mac_setup(hw);
	if (ret)
		goto err_fini_qos;
	return 0;

err_fini_qos:
	irdma_qos_fini(hw);
err_teardown_hwc:
	irdma_hwc_teardown(hw);
err_teardown_ceqs:
	irdma_cmd_use_irq(hw, false);
	irdma_ceqs_teardown(hw);
err_destroy_aeq:
	irdma_eq_destroy(&hw->aeq);
err_destroy_pble:
	irdma_pble_pool_destroy(&hw->pble);
err_teardown_hmc:
	irdma_hmc_teardown(hw);
err_destroy_ccq:
	irdma_ccq_destroy(hw);
err_destroy_cqp:
	irdma_cqp_destroy(hw);
	return ret;
}

static void irdma_hw_stop(struct irdma_hw *hw)
{
	/* commands posted without waiting still need the CQP */
	flush_workqueue(hw->cmd_wq);
	irdma_loc_mac_teardown(hw);
	irdma_qos_fini(hw);
	irdma_hwc_teardown(hw);
	irdma_cmd_use_irq(hw, false);
	irdma_ceqs_teardown(hw);
	irdma_eq_destroy(&hw->aeq);
	irdma_pble_pool_destroy(&hw->pble);
	irdma_hmc_teardown(hw);
	irdma_ccq_destroy(hw);
	irdma_cqp_destroy(hw);
}

/**
 * irdma_hw_init - bring up the RDMA engine of a function
 * @fn: the function; @fn->hw is set on success
 *
 * Context: process context; sleeps.
 * Return: 0, or the errno of the stage that failed; nothing is left
 * behind then.
 */
int irdma_hw_init(struct irdma_func *fn)
{
	struct irdma_hw *hw;
	int ret;

	hw = irdma_hw_alloc(fn);
	if (!hw)
		return -ENOMEM;
	ret = irdma_hw_start(hw);
	if (ret) {
		irdma_hw_free(hw);
		return ret;
	}
	fn->hw = hw;
	irdma_hw_announce(hw);
	return 0;
}

/**
 * irdma_hw_deinit - stop the RDMA engine of a function
 * @fn: a function irdma_hw_init() brought up; @fn->hw is cleared
 *
 * Context: process context; sleeps.
 */
void irdma_hw_deinit(struct irdma_func *fn)
{
	struct irdma_hw *hw = fn->hw;

	if (!hw)
		return;
	fn->hw = NULL;
	irdma_hw_stop(hw);
	irdma_hw_free(hw);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/hw_test.c"
#endif
