// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: control-plane encoders and decoders.
 *
 * One builder per CQP command: each checks its parameters, writes every
 * non-header word of the 64-byte WQE, then publishes the header (opcode,
 * command bits, valid bit) behind a write barrier. The CQP ring hands
 * out WQE slots, remembers a caller cookie per slot and matches CCQ
 * completions back to it. CEQ and AEQ elements are decoded here too, as
 * is the 256-byte QP context for iWARP and RoCEv2.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/etherdevice.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "ctrl.h"

#define IRDMA_CQP_MIN_SIZE	4
#define IRDMA_CQP_MAX_SIZE	2048
#define IRDMA_MAX_CQ_SIZE	1048575
#define IRDMA_MAX_CEQ_ELEMS	262143
#define IRDMA_MAX_AEQ_ELEMS	524287
#define IRDMA_MAX_CEQ_ID	1023
#define IRDMA_Q_ALIGN		256
#define IRDMA_CQP_SQ_ALIGN	512
#define IRDMA_MAX_SD_UPDATES	11
#define IRDMA_SD_UPDATES_IN_WQE	3
#define IRDMA_STAG_LEN_MAX	GENMASK_ULL(45, 0)

/* Zero every word of a CQP WQE except the header. */
static void irdma_cqpw_clear(__le64 *wqe)
{
	unsigned int w;

	for (w = 0; w < IRDMA_CQP_WQE_WORDS; w++)
		if (w != IRDMA_WQE_HDR_WORD)
			irdma_wqe_set(wqe, w, 0);
}

/* Publish the header: opcode and valid bit join @hdr, body first. */
static void irdma_cqpw_finish(__le64 *wqe, u64 hdr, u8 opcode, u8 valid)
{
	hdr |= FIELD_PREP(IRDMA_CQPWQE_OPCODE, opcode) |
	       FIELD_PREP(IRDMA_CQPWQE_VALID, valid);
	dma_wmb();
	irdma_wqe_set(wqe, IRDMA_WQE_HDR_WORD, hdr);
}

/* Place an address as the qhash/AH/QPC layout wants: IPv4 in [0]. */
static void irdma_put_addr(__le64 *desc, unsigned int lo_word,
			   unsigned int hi_word, const u32 *addr, bool ipv4)
{
	if (ipv4) {
		irdma_wqe_set(desc, lo_word, FIELD_PREP(IRDMA_QPC_ADDR_LO, addr[0]));
		return;
	}
	irdma_wqe_set(desc, hi_word, FIELD_PREP(IRDMA_QPC_ADDR_HI, addr[0]) |
				     FIELD_PREP(IRDMA_QPC_ADDR_LO, addr[1]));
	irdma_wqe_set(desc, lo_word, FIELD_PREP(IRDMA_QPC_ADDR_HI, addr[2]) |
				     FIELD_PREP(IRDMA_QPC_ADDR_LO, addr[3]));
}

/* ---- CQP ring ---- */

/**
 * irdma_cqp_init - check a CQP ring and reset it
 * @cqp: ring with sq, scratch, mmio, db_off and size filled in
 *
 * Return: 0 or -EINVAL for missing memory or a bad size.
 */
int irdma_cqp_init(struct irdma_cqp *cqp)
{
	if (!cqp->sq || !cqp->scratch || !cqp->mmio)
		return -EINVAL;
	if (!is_power_of_2(cqp->size) || cqp->size < IRDMA_CQP_MIN_SIZE ||
	    cqp->size > IRDMA_CQP_MAX_SIZE)
		return -EINVAL;
	cqp->head = 0;
	cqp->tail = 0;
	cqp->pol = 0;
	spin_lock_init(&cqp->lock);
	return 0;
}

/**
 * irdma_cqp_get_wqe - take the next CQP WQE slot
 * @cqp: the ring; caller holds @cqp->lock
 * @scratch: cookie returned with the completion
 * @valid: the valid bit value the builder must use
 *
 * Return: the WQE, or NULL when the ring is full.
 */
__le64 *irdma_cqp_get_wqe(struct irdma_cqp *cqp, u64 scratch, u8 *valid)
{
	u32 mask = cqp->size - 1;
	u32 idx = cqp->head;

	lockdep_assert_held(&cqp->lock);
	if (((idx + 1) & mask) == cqp->tail)
		return NULL;
	if (!idx)
		cqp->pol ^= 1;
	cqp->head = (idx + 1) & mask;
	cqp->scratch[idx] = scratch;
	*valid = cqp->pol;
	return cqp->sq + (size_t)idx * IRDMA_CQP_WQE_WORDS;
}

/**
 * irdma_cqp_post - tell the device about the WQEs built so far
 * @cqp: the ring; caller holds @cqp->lock
 */
void irdma_cqp_post(struct irdma_cqp *cqp)
{
	lockdep_assert_held(&cqp->lock);
	/* WQE contents before the doorbell */
	wmb();
	irdma_mmio_wr32(cqp->mmio, cqp->db_off, cqp->head);
}

static bool irdma_cqp_in_flight(const struct irdma_cqp *cqp, u32 idx)
{
	u32 mask = cqp->size - 1;

	return idx < cqp->size &&
	       ((idx - cqp->tail) & mask) < ((cqp->head - cqp->tail) & mask);
}

/**
 * irdma_ccq_poll - take one CQP completion off the CCQ
 * @cqp: the CQP; caller holds @cqp->lock
 * @ccq: the CCQ ring
 * @info: decoded completion
 *
 * Completions arrive in submission order and retire the CQP slot.
 *
 * Return: 0, -ENOENT when the CCQ is empty, -EIO for a completion that
 * names no WQE in flight (consumed and dropped).
 */
int irdma_ccq_poll(struct irdma_cqp *cqp, struct irdma_uk_cq *ccq,
		   struct irdma_ccq_info *info)
{
	struct irdma_uk_cqe cqe;
	int err;

	lockdep_assert_held(&cqp->lock);
	err = irdma_uk_cq_poll(ccq, &cqe);
	if (err)
		return err;
	if (!irdma_cqp_in_flight(cqp, cqe.wqe_idx))
		return -EIO;
	info->wqe_idx = cqe.wqe_idx;
	info->scratch = cqp->scratch[cqe.wqe_idx];
	/* on the CCQ, word 2 bits 31:0 carry the command's return value */
	info->op_ret = cqe.inv_stag;
	info->error = cqe.error;
	info->major = cqe.major;
	info->minor = cqe.minor;
	cqp->tail = (cqe.wqe_idx + 1) & (cqp->size - 1);
	return 0;
}

/**
 * irdma_cqp_wait - poll the CCQ until the command with @scratch completes
 * @cqp: the CQP; caller does not hold @cqp->lock
 * @ccq: the CCQ ring
 * @scratch: cookie of the command waited for
 * @timeout_us: give up after this long
 * @info: its completion
 *
 * Completions of other commands found on the way are consumed; callers
 * with asynchronous commands outstanding use irdma_ccq_poll() instead.
 *
 * Return: 0, -EIO when the command failed (details in @info),
 * -ETIMEDOUT when it did not complete in time.
 */
int irdma_cqp_wait(struct irdma_cqp *cqp, struct irdma_uk_cq *ccq,
		   u64 scratch, unsigned int timeout_us,
		   struct irdma_ccq_info *info)
{
	unsigned int waited = 0;
	unsigned long flags;
	int err;

	for (;;) {
		spin_lock_irqsave(&cqp->lock, flags);
		err = irdma_ccq_poll(cqp, ccq, info);
		spin_unlock_irqrestore(&cqp->lock, flags);
		if (!err && info->scratch == scratch)
			return info->error ? -EIO : 0;
		if (waited++ >= timeout_us)
			return -ETIMEDOUT;
		if (err == -ENOENT)
			udelay(1);
	}
}

/*
 * The SQSIZE field counts from 1 for the smallest ring of 4 WQEs: it is
 * log2 of the size minus one, not log2 of the size (QP rings count from
 * 0 instead). Getting it wrong makes the engine walk a ring twice as long
 * as the one allocated, past its end, after the driver's first wrap.
 */
static u32 irdma_cqp_sqsize_enc(u32 sq_size)
{
	return ilog2(sq_size) - 1;
}

/**
 * irdma_cqp_ctx_build - fill the CQP host context
 * @ctx: 8 words
 * @info: parameters
 *
 * Return: 0 or -EINVAL for a bad SQ size, unaligned SQ or bad revision.
 */
int irdma_cqp_ctx_build(__le64 *ctx, const struct irdma_cqp_ctx_info *info)
{
	unsigned int w;
	u64 w0;

	if (!is_power_of_2(info->sq_size) || info->sq_size < IRDMA_CQP_MIN_SIZE ||
	    info->sq_size > IRDMA_CQP_MAX_SIZE ||
	    !IS_ALIGNED(info->sq_pa, IRDMA_CQP_SQ_ALIGN) ||
	    (info->hw_rev != 1 && info->hw_rev != 2) || info->protocol > 2)
		return -EINVAL;
	for (w = 0; w < IRDMA_CQP_WQE_WORDS; w++)
		irdma_wqe_set(ctx, w, 0);
	w0 = FIELD_PREP(IRDMA_CQPHC_SQSIZE, irdma_cqp_sqsize_enc(info->sq_size)) |
	     FIELD_PREP(IRDMA_CQPHC_SVER, info->struct_ver) |
	     FIELD_PREP(IRDMA_CQPHC_DISABLE_PFPDUS, info->disable_pfpdus) |
	     FIELD_PREP(IRDMA_CQPHC_CEQPERVF, info->ceqs_per_vf);
	/* the X722 is iWARP only: its context has neither field */
	if (info->hw_rev == 2)
		w0 |= FIELD_PREP(IRDMA_CQPHC_ROCEV2_RTO_POLICY,
				 info->rocev2_rto_policy) |
		      FIELD_PREP(IRDMA_CQPHC_PROTOCOL_USED, info->protocol);
	irdma_wqe_set(ctx, 0, w0);
	irdma_wqe_set(ctx, 1, info->sq_pa);
	irdma_wqe_set(ctx, 2, FIELD_PREP(IRDMA_CQPHC_ENABLED_VFS, info->ena_vfs) |
			      FIELD_PREP(IRDMA_CQPHC_HMC_PROFILE,
					 info->hmc_profile));
	irdma_wqe_set(ctx, 3, info->compl_ctx);
	irdma_wqe_set(ctx, 4, FIELD_PREP(IRDMA_CQPHC_HW_MAJVER,
					 info->hw_rev == 1 ?
					 IRDMA_CQP_HW_MAJVER_GEN1 :
					 IRDMA_CQP_HW_MAJVER_GEN2));
	return 0;
}

/* ---- QP commands ---- */

static int irdma_cqpw_qp_check(const struct irdma_cqp_qp_info *info)
{
	if (info->qp_id > FIELD_MAX(IRDMA_CQPQP_QPID) ||
	    info->qp_type < IRDMA_QPTYPE_IWARP ||
	    info->qp_type > IRDMA_QPTYPE_ROCE_UD ||
	    info->next_state > IRDMA_QPS_ERROR ||
	    info->term_act > IRDMA_TERMACT_NONE ||
	    info->term_len > FIELD_MAX(IRDMA_CQPQP_TERMLEN) ||
	    info->new_mss > FIELD_MAX(IRDMA_CQPQP_NEWMSS))
		return -EINVAL;
	if (!IS_ALIGNED(info->ctx_pa, 8) || !IS_ALIGNED(info->shadow_pa, 8))
		return -EINVAL;
	return 0;
}

/* Words 2 and 5 and the header bits CREATE and MODIFY share */
static u64 irdma_cqpw_qp_body(__le64 *wqe, const struct irdma_cqp_qp_info *info)
{
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, info->ctx_pa);
	irdma_wqe_set(wqe, 5, info->shadow_pa);
	return FIELD_PREP(IRDMA_CQPQP_QPID, info->qp_id) |
	       FIELD_PREP(IRDMA_CQPQP_ORDVALID, info->ord_valid) |
	       FIELD_PREP(IRDMA_CQPQP_TOECTXVALID, info->tcp_ctx_valid) |
	       FIELD_PREP(IRDMA_CQPQP_VQ, info->virtual_map) |
	       FIELD_PREP(IRDMA_CQPQP_FORCELOOPBACK, info->force_lpb) |
	       FIELD_PREP(IRDMA_CQPQP_CQNUMVALID, info->cq_num_valid) |
	       FIELD_PREP(IRDMA_CQPQP_QPTYPE, info->qp_type) |
	       FIELD_PREP(IRDMA_CQPQP_MACVALID, info->mac_valid) |
	       FIELD_PREP(IRDMA_CQPQP_ARPTABIDXVALID, info->arp_valid) |
	       FIELD_PREP(IRDMA_CQPQP_NEXTIWSTATE, info->next_state);
}

/**
 * irdma_cqpw_qp_create - build CREATE_QP
 * @wqe: CQP WQE (8 words)
 * @valid: valid bit of the ring's current lap
 * @info: parameters
 *
 * Return: 0 or -EINVAL for out-of-range fields or unaligned addresses.
 */
int irdma_cqpw_qp_create(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_qp_info *info)
{
	u64 hdr;

	if (irdma_cqpw_qp_check(info))
		return -EINVAL;
	hdr = irdma_cqpw_qp_body(wqe, info);
	irdma_cqpw_finish(wqe, hdr, IRDMA_CQPOP_CREATE_QP, valid);
	return 0;
}

/**
 * irdma_cqpw_qp_modify - build MODIFY_QP
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters, including the terminate and MSS fields
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_qp_modify(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_qp_info *info)
{
	u64 hdr;

	if (irdma_cqpw_qp_check(info))
		return -EINVAL;
	hdr = irdma_cqpw_qp_body(wqe, info);
	irdma_wqe_set(wqe, 1, FIELD_PREP(IRDMA_CQPQP_NEWMSS, info->new_mss) |
			      FIELD_PREP(IRDMA_CQPQP_TERMLEN, info->term_len));
	hdr |= FIELD_PREP(IRDMA_CQPQP_CACHEDVARVALID, info->cached_var_valid) |
	       FIELD_PREP(IRDMA_CQPQP_MSSCHANGE, info->mss_change) |
	       FIELD_PREP(IRDMA_CQPQP_REMOVEHASHENTRY, info->remove_hash) |
	       FIELD_PREP(IRDMA_CQPQP_TERMACT, info->term_act) |
	       FIELD_PREP(IRDMA_CQPQP_RESETCON, info->reset_con);
	irdma_cqpw_finish(wqe, hdr, IRDMA_CQPOP_MODIFY_QP, valid);
	return 0;
}

/**
 * irdma_cqpw_qp_destroy - build DESTROY_QP
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters (ids, addresses, remove_hash, ignore_mw_bound)
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_qp_destroy(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_qp_info *info)
{
	if (irdma_cqpw_qp_check(info))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, info->ctx_pa);
	irdma_wqe_set(wqe, 5, info->shadow_pa);
	irdma_cqpw_finish(wqe,
			  FIELD_PREP(IRDMA_CQPQP_QPID, info->qp_id) |
			  FIELD_PREP(IRDMA_CQPQP_QPTYPE, info->qp_type) |
			  FIELD_PREP(IRDMA_CQPQP_IGNOREMWBOUND,
				     info->ignore_mw_bound) |
			  FIELD_PREP(IRDMA_CQPQP_REMOVEHASHENTRY,
				     info->remove_hash),
			  IRDMA_CQPOP_DESTROY_QP, valid);
	return 0;
}

/* ---- CQ commands ---- */

static int irdma_cqpw_cq_check(const struct irdma_cqp_cq_info *info)
{
	bool gen1 = info->hw_rev == 1;

	if (info->hw_rev != 1 && info->hw_rev != 2)
		return -EINVAL;
	if (!info->size || info->size > IRDMA_MAX_CQ_SIZE ||
	    info->cq_id > (gen1 ? FIELD_MAX(IRDMA_CQPCQ_CQID_G1) :
				  FIELD_MAX(IRDMA_CQPCQ_CQID)) ||
	    info->ceq_id > (gen1 ? FIELD_MAX(IRDMA_CQPCQ_CEQID_G1) :
				   FIELD_MAX(IRDMA_CQPCQ_CEQID)))
		return -EINVAL;
	if (info->compl_ctx & 1 || info->pbl_levels > 2 ||
	    info->first_pble > FIELD_MAX(IRDMA_CQPCQ_FIRST_PBLE) ||
	    info->shadow_thresh > FIELD_MAX(IRDMA_CQPCQ_SHADOW_THRESH))
		return -EINVAL;
	if (!info->virtual_map && !IS_ALIGNED(info->ring_pa, IRDMA_Q_ALIGN))
		return -EINVAL;
	return IS_ALIGNED(info->shadow_pa, 8) ? 0 : -EINVAL;
}

static int irdma_cqpw_cq(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_cq_info *info, u8 opcode)
{
	bool gen1 = info->hw_rev == 1;
	u16 ceq = info->ceq_id_valid ? info->ceq_id : 0;
	u64 hdr;

	if (irdma_cqpw_cq_check(info))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 0, FIELD_PREP(IRDMA_CQPCQ_SIZE, info->size));
	irdma_wqe_set(wqe, 1, info->compl_ctx >> 1);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPCQ_SHADOW_THRESH,
					 info->shadow_thresh));
	irdma_wqe_set(wqe, 4, info->virtual_map ? 0 : info->ring_pa);
	irdma_wqe_set(wqe, 5, info->shadow_pa);
	irdma_wqe_set(wqe, 6, FIELD_PREP(IRDMA_CQPCQ_FIRST_PBLE,
					 info->virtual_map ? info->first_pble : 0));
	irdma_wqe_set(wqe, 7, FIELD_PREP(IRDMA_CQPWQE_TPHVAL, info->tph_val) |
			      FIELD_PREP(IRDMA_CQPWQE_VSIIDX, info->vsi));
	hdr = gen1 ? FIELD_PREP(IRDMA_CQPCQ_CQID_G1, info->cq_id) |
		     FIELD_PREP(IRDMA_CQPCQ_CEQID_G1, ceq) :
		     FIELD_PREP(IRDMA_CQPCQ_CQID, info->cq_id) |
		     FIELD_PREP(IRDMA_CQPCQ_CEQID, ceq);
	hdr |= FIELD_PREP(IRDMA_CQPCQ_LPBLSIZE, info->pbl_levels) |
	       FIELD_PREP(IRDMA_CQPCQ_CHKOVERFLOW, info->check_overflow) |
	       FIELD_PREP(IRDMA_CQPCQ_VIRTMAP, info->virtual_map) |
	       FIELD_PREP(IRDMA_CQPCQ_ENCEQEMASK, info->ceqe_mask) |
	       FIELD_PREP(IRDMA_CQPCQ_CEQIDVALID, info->ceq_id_valid) |
	       FIELD_PREP(IRDMA_CQPWQE_TPHEN, info->tph_en) |
	       FIELD_PREP(IRDMA_CQPCQ_AVOIDMEMCNFLCT, info->ext_cqe);
	if (opcode == IRDMA_CQPOP_MODIFY_CQ)
		hdr |= FIELD_PREP(IRDMA_CQPCQ_RESIZE, info->resize);
	irdma_cqpw_finish(wqe, hdr, opcode, valid);
	return 0;
}

/**
 * irdma_cqpw_cq_create - build CREATE_CQ (also used for the CCQ)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters
 *
 * Return: 0 or -EINVAL for an out-of-range size or id, an odd context,
 * or an unaligned ring.
 */
int irdma_cqpw_cq_create(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_cq_info *info)
{
	return irdma_cqpw_cq(wqe, valid, info, IRDMA_CQPOP_CREATE_CQ);
}

/**
 * irdma_cqpw_cq_modify - build MODIFY_CQ (resize)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_cq_modify(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_cq_info *info)
{
	return irdma_cqpw_cq(wqe, valid, info, IRDMA_CQPOP_MODIFY_CQ);
}

/**
 * irdma_cqpw_cq_destroy - build DESTROY_CQ
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters of the CQ as created
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_cq_destroy(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_cq_info *info)
{
	return irdma_cqpw_cq(wqe, valid, info, IRDMA_CQPOP_DESTROY_CQ);
}

/* ---- CEQ and AEQ ---- */

static int irdma_cqpw_eq_check(const struct irdma_cqp_eq_info *info,
			       u32 max_elems)
{
	if (!info->elem_cnt || info->elem_cnt > max_elems ||
	    info->ceq_id > IRDMA_MAX_CEQ_ID || info->pbl_levels > 2 ||
	    info->first_pble > FIELD_MAX(IRDMA_CQPQ_FIRST_PBLE))
		return -EINVAL;
	if (!info->virtual_map && !IS_ALIGNED(info->ring_pa, IRDMA_Q_ALIGN))
		return -EINVAL;
	return 0;
}

static void irdma_cqpw_eq_body(__le64 *wqe, const struct irdma_cqp_eq_info *info,
			       bool create)
{
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, info->elem_cnt);
	if (create && !info->virtual_map)
		irdma_wqe_set(wqe, 4, info->ring_pa);
	if (info->virtual_map)
		irdma_wqe_set(wqe, 6, FIELD_PREP(IRDMA_CQPQ_FIRST_PBLE,
						 info->first_pble));
}

static int irdma_cqpw_ceq(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_eq_info *info, bool create)
{
	u64 hdr;

	if (irdma_cqpw_eq_check(info, IRDMA_MAX_CEQ_ELEMS))
		return -EINVAL;
	irdma_cqpw_eq_body(wqe, info, create);
	if (create)
		irdma_wqe_set(wqe, 7,
			      FIELD_PREP(IRDMA_CQPWQE_TPHVAL, info->tph_val) |
			      FIELD_PREP(IRDMA_CQPWQE_VSIIDX, info->vsi));
	hdr = FIELD_PREP(IRDMA_CQPCEQ_CEQID, info->ceq_id) |
	      FIELD_PREP(IRDMA_CQPCEQ_LPBLSIZE, info->pbl_levels) |
	      FIELD_PREP(IRDMA_CQPCEQ_VMAP, info->virtual_map) |
	      FIELD_PREP(IRDMA_CQPWQE_TPHEN, info->tph_en);
	if (create)
		hdr |= FIELD_PREP(IRDMA_CQPCEQ_ITRNOEXPIRE, info->itr_no_expire);
	irdma_cqpw_finish(wqe, hdr, create ? IRDMA_CQPOP_CREATE_CEQ :
			  IRDMA_CQPOP_DESTROY_CEQ, valid);
	return 0;
}

/**
 * irdma_cqpw_ceq_create - build CREATE_CEQ
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_ceq_create(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_eq_info *info)
{
	return irdma_cqpw_ceq(wqe, valid, info, true);
}

/**
 * irdma_cqpw_ceq_destroy - build DESTROY_CEQ
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters of the CEQ as created
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_ceq_destroy(__le64 *wqe, u8 valid,
			   const struct irdma_cqp_eq_info *info)
{
	return irdma_cqpw_ceq(wqe, valid, info, false);
}

static int irdma_cqpw_aeq(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_eq_info *info, bool create)
{
	if (irdma_cqpw_eq_check(info, IRDMA_MAX_AEQ_ELEMS))
		return -EINVAL;
	irdma_cqpw_eq_body(wqe, info, create);
	irdma_cqpw_finish(wqe,
			  FIELD_PREP(IRDMA_CQPAEQ_LPBLSIZE, info->pbl_levels) |
			  FIELD_PREP(IRDMA_CQPAEQ_VMAP, info->virtual_map),
			  create ? IRDMA_CQPOP_CREATE_AEQ :
			  IRDMA_CQPOP_DESTROY_AEQ, valid);
	return 0;
}

/**
 * irdma_cqpw_aeq_create - build CREATE_AEQ
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_aeq_create(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_eq_info *info)
{
	return irdma_cqpw_aeq(wqe, valid, info, true);
}

/**
 * irdma_cqpw_aeq_destroy - build DESTROY_AEQ
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters of the AEQ as created
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_aeq_destroy(__le64 *wqe, u8 valid,
			   const struct irdma_cqp_eq_info *info)
{
	return irdma_cqpw_aeq(wqe, valid, info, false);
}

/* ---- STags ---- */

static int irdma_cqpw_stag_check(const struct irdma_cqp_stag_info *info)
{
	u32 pd_max = info->hw_rev == 1 ? FIELD_MAX(IRDMA_CQPSTAG_PDID_G1) :
					 FIELD_MAX(IRDMA_CQPSTAG_PDID);

	if (info->hw_rev != 1 && info->hw_rev != 2)
		return -EINVAL;
	if (info->len > IRDMA_STAG_LEN_MAX || info->pd_id > pd_max ||
	    info->rights > FIELD_MAX(IRDMA_CQPSTAG_ARIGHTS) ||
	    info->pbl_levels > 2 || info->page_size > IRDMA_PAGE_SIZE_1G ||
	    info->hmc_fn > FIELD_MAX(IRDMA_CQPSTAG_HMCFNIDX) ||
	    info->first_pble > FIELD_MAX(IRDMA_CQPSTAG_FIRST_PBLE))
		return -EINVAL;
	return 0;
}

static u64 irdma_cqpw_stag_w1(const struct irdma_cqp_stag_info *info)
{
	u64 pd = info->hw_rev == 1 ?
		 FIELD_PREP(IRDMA_CQPSTAG_PDID_G1, info->pd_id) :
		 FIELD_PREP(IRDMA_CQPSTAG_PDID, info->pd_id);

	return FIELD_PREP(IRDMA_CQPSTAG_LEN, info->len) | pd;
}

static u64 irdma_cqpw_mr_hdr(const struct irdma_cqp_stag_info *info)
{
	return FIELD_PREP(IRDMA_CQPSTAG_MR, 1) |
	       FIELD_PREP(IRDMA_CQPSTAG_LPBLSIZE,
			  irdma_lpbl_code(info->pbl_levels)) |
	       FIELD_PREP(IRDMA_CQPSTAG_HPAGESIZE, info->page_size) |
	       FIELD_PREP(IRDMA_CQPSTAG_ARIGHTS, info->rights) |
	       FIELD_PREP(IRDMA_CQPSTAG_REMACCENABLED, info->remote_access) |
	       FIELD_PREP(IRDMA_CQPSTAG_USEHMCFNIDX, info->use_hmc_fn) |
	       FIELD_PREP(IRDMA_CQPSTAG_USEPFRID, info->use_pf_rid);
}

/**
 * irdma_cqpw_alloc_stag - build ALLOC_STAG for an MR (fast-register later)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters (stag, pd_id, len, pbl_levels, first_pble, rights)
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_alloc_stag(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_stag_info *info)
{
	if (irdma_cqpw_stag_check(info))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 1, irdma_cqpw_stag_w1(info));
	irdma_wqe_set(wqe, 2, info->stag & IRDMA_CQPSTAG_IDX);
	irdma_wqe_set(wqe, 5, FIELD_PREP(IRDMA_CQPSTAG_HMCFNIDX, info->hmc_fn));
	if (info->pbl_levels)
		irdma_wqe_set(wqe, 6, FIELD_PREP(IRDMA_CQPSTAG_FIRST_PBLE,
						 info->first_pble));
	irdma_cqpw_finish(wqe, irdma_cqpw_mr_hdr(info), IRDMA_CQPOP_ALLOC_STAG,
			  valid);
	return 0;
}

/**
 * irdma_cqpw_reg_mr - build REG_MR (register a non-shared MR)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters; with pbl_levels 0, buf_pa is the buffer address
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_reg_mr(__le64 *wqe, u8 valid,
		      const struct irdma_cqp_stag_info *info)
{
	if (irdma_cqpw_stag_check(info))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 0, info->va);
	irdma_wqe_set(wqe, 1, irdma_cqpw_stag_w1(info));
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPSTAG_KEY, info->stag & 0xff) |
			      (info->stag & IRDMA_CQPSTAG_IDX));
	irdma_wqe_set(wqe, 4, info->pbl_levels ? 0 : info->buf_pa);
	irdma_wqe_set(wqe, 5, FIELD_PREP(IRDMA_CQPSTAG_HMCFNIDX, info->hmc_fn));
	if (info->pbl_levels)
		irdma_wqe_set(wqe, 6, FIELD_PREP(IRDMA_CQPSTAG_FIRST_PBLE,
						 info->first_pble));
	irdma_cqpw_finish(wqe, irdma_cqpw_mr_hdr(info) |
			  FIELD_PREP(IRDMA_CQPSTAG_VABASEDTO,
				     info->zero_based ? 0 : 1),
			  IRDMA_CQPOP_REG_MR, valid);
	return 0;
}

/**
 * irdma_cqpw_dealloc_stag - build DEALLOC_STAG
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: stag, pd_id, hw_rev and is_mr
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_dealloc_stag(__le64 *wqe, u8 valid,
			    const struct irdma_cqp_stag_info *info)
{
	if (irdma_cqpw_stag_check(info))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 1, irdma_cqpw_stag_w1(info));
	irdma_wqe_set(wqe, 2, info->stag & IRDMA_CQPSTAG_IDX);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPSTAG_MR, info->is_mr),
			  IRDMA_CQPOP_DEALLOC_STAG, valid);
	return 0;
}

/**
 * irdma_cqpw_mw_alloc - build ALLOC_STAG for a memory window
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: stag, pd_id, hw_rev, mw_type1, mw1_no_key_check
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_mw_alloc(__le64 *wqe, u8 valid,
			const struct irdma_cqp_stag_info *info)
{
	if (irdma_cqpw_stag_check(info))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 1, irdma_cqpw_stag_w1(info));
	irdma_wqe_set(wqe, 2, info->stag & IRDMA_CQPSTAG_IDX);
	irdma_cqpw_finish(wqe,
			  FIELD_PREP(IRDMA_CQPSTAG_MWTYPE, info->mw_type1) |
			  FIELD_PREP(IRDMA_CQPSTAG_MW1_NO_KEY_CHECK,
				     info->mw1_no_key_check),
			  IRDMA_CQPOP_ALLOC_STAG, valid);
	return 0;
}

/* ---- ARP, APBVT, local MAC ---- */

/**
 * irdma_cqpw_arp_add - build MANAGE_ARP adding an entry
 * @wqe: CQP WQE
 * @valid: valid bit
 * @arp_idx: ARP cache index (12 bits)
 * @mac: neighbour MAC
 * @permanent: never age the entry
 *
 * Return: 0 or -EINVAL for an index out of range.
 */
int irdma_cqpw_arp_add(__le64 *wqe, u8 valid, u16 arp_idx, const u8 *mac,
		       bool permanent)
{
	if (arp_idx > FIELD_MAX(IRDMA_CQPARP_IDX))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPARP_MAC, ether_addr_to_u64(mac)));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPARP_IDX, arp_idx) |
			  FIELD_PREP(IRDMA_CQPARP_PERMANENT, permanent) |
			  FIELD_PREP(IRDMA_CQPARP_ENTRYVALID, 1),
			  IRDMA_CQPOP_MANAGE_ARP, valid);
	return 0;
}

/**
 * irdma_cqpw_arp_del - build MANAGE_ARP removing an entry
 * @wqe: CQP WQE
 * @valid: valid bit
 * @arp_idx: ARP cache index
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_arp_del(__le64 *wqe, u8 valid, u16 arp_idx)
{
	if (arp_idx > FIELD_MAX(IRDMA_CQPARP_IDX))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPARP_IDX, arp_idx),
			  IRDMA_CQPOP_MANAGE_ARP, valid);
	return 0;
}

/**
 * irdma_cqpw_apbvt - build MANAGE_APBVT (accelerated port table)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @port: local TCP port
 * @add: add (true) or remove the port
 *
 * Return: 0.
 */
int irdma_cqpw_apbvt(__le64 *wqe, u8 valid, u16 port, bool add)
{
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPAPBVT_PORT, port));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPAPBVT_ADD, add),
			  IRDMA_CQPOP_MANAGE_APBVT, valid);
	return 0;
}

/**
 * irdma_cqpw_loc_mac_alloc - build ALLOC_LOC_MAC (index in OPRETVAL)
 * @wqe: CQP WQE
 * @valid: valid bit
 *
 * Return: 0.
 */
int irdma_cqpw_loc_mac_alloc(__le64 *wqe, u8 valid)
{
	irdma_cqpw_clear(wqe);
	irdma_cqpw_finish(wqe, 0, IRDMA_CQPOP_ALLOC_LOC_MAC, valid);
	return 0;
}

/**
 * irdma_cqpw_loc_mac_add - build MANAGE_LOC_MAC setting an entry
 * @wqe: CQP WQE
 * @valid: valid bit
 * @idx: table index (6 bits)
 * @mac: MAC address
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_loc_mac_add(__le64 *wqe, u8 valid, u8 idx, const u8 *mac)
{
	if (idx > FIELD_MAX(IRDMA_CQPMLM_TABLEIDX))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 4, ether_addr_to_u64(mac));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPMLM_TABLEIDX, idx),
			  IRDMA_CQPOP_MANAGE_LOC_MAC, valid);
	return 0;
}

/**
 * irdma_cqpw_loc_mac_del - build MANAGE_LOC_MAC freeing an entry
 * @wqe: CQP WQE
 * @valid: valid bit
 * @idx: table index
 * @ignore_ref: free even if still referenced
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_loc_mac_del(__le64 *wqe, u8 valid, u8 idx, bool ignore_ref)
{
	if (idx > FIELD_MAX(IRDMA_CQPMLM_TABLEIDX))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPMLM_TABLEIDX, idx) |
			  FIELD_PREP(IRDMA_CQPMLM_FREEENTRY, 1) |
			  FIELD_PREP(IRDMA_CQPMLM_IGNORE_REF_CNT, ignore_ref),
			  IRDMA_CQPOP_MANAGE_LOC_MAC, valid);
	return 0;
}

/* ---- qhash and AH ---- */

/**
 * irdma_cqpw_qhash - build MANAGE_QHASH
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters; remote address and port only for ESTABLISHED
 *
 * Return: 0 or -EINVAL for an unknown type or operation, or ids out of
 * range.
 */
int irdma_cqpw_qhash(__le64 *wqe, u8 valid,
		     const struct irdma_cqp_qhash_info *info)
{
	bool est = info->entry_type == IRDMA_QHASH_TYPE_TCP_ESTABLISHED;
	u64 w1;

	if ((!est && info->entry_type != IRDMA_QHASH_TYPE_TCP_SYN) ||
	    info->manage > IRDMA_QHASH_MANAGE_MODIFY ||
	    info->qp_num > FIELD_MAX(IRDMA_CQPQH_QPN) ||
	    info->qs_handle > FIELD_MAX(IRDMA_CQPQH_QS_HANDLE) ||
	    info->vlan_id > FIELD_MAX(IRDMA_CQPQH_VLANID))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 0, ether_addr_to_u64(info->mac));
	w1 = FIELD_PREP(IRDMA_CQPQH_QPN, info->qp_num) |
	     FIELD_PREP(IRDMA_CQPQH_DEST_PORT, info->loc_port);
	if (est) {
		w1 |= FIELD_PREP(IRDMA_CQPQH_SRC_PORT, info->rem_port);
		irdma_put_addr(wqe, 4, 5, info->rem_addr, info->ipv4);
	}
	irdma_wqe_set(wqe, 1, w1);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPQH_QS_HANDLE, info->qs_handle) |
			      FIELD_PREP(IRDMA_CQPQH_VLANID,
					 info->vlan_valid ? info->vlan_id : 0));
	irdma_put_addr(wqe, 6, 7, info->loc_addr, info->ipv4);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPQH_MANAGE, info->manage) |
			  FIELD_PREP(IRDMA_CQPQH_IPV4VALID, info->ipv4) |
			  FIELD_PREP(IRDMA_CQPQH_VLANVALID, info->vlan_valid) |
			  FIELD_PREP(IRDMA_CQPQH_ENTRYTYPE, info->entry_type),
			  IRDMA_CQPOP_MANAGE_QHASH, valid);
	return 0;
}

/**
 * irdma_cqpw_ah - build CREATE_AH, MODIFY_AH or DESTROY_AH
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters; @info->op selects the command
 *
 * Return: 0 or -EINVAL for a bad op or ids out of range.
 */
int irdma_cqpw_ah(__le64 *wqe, u8 valid, const struct irdma_cqp_ah_info *info)
{
	if (info->op != IRDMA_CQPOP_CREATE_AH &&
	    info->op != IRDMA_CQPOP_MODIFY_AH &&
	    info->op != IRDMA_CQPOP_DESTROY_AH)
		return -EINVAL;
	if (info->ah_idx > FIELD_MAX(IRDMA_CQPAH_IDX) ||
	    info->pd_idx >= BIT(18) ||
	    info->flow_label > FIELD_MAX(IRDMA_CQPAH_FLOWLABEL))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 0, FIELD_PREP(IRDMA_CQPAH_MAC,
					 ether_addr_to_u64(info->mac)));
	irdma_wqe_set(wqe, 1, FIELD_PREP(IRDMA_CQPAH_PDIDX_LO,
					 info->pd_idx & 0xffff) |
			      FIELD_PREP(IRDMA_CQPAH_TC, info->tc) |
			      FIELD_PREP(IRDMA_CQPAH_VLANTAG, info->vlan_tag));
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPAH_ARPIDX, info->arp_idx) |
			      FIELD_PREP(IRDMA_CQPAH_FLOWLABEL, info->flow_label) |
			      FIELD_PREP(IRDMA_CQPAH_HOPLIMIT, info->hop_limit) |
			      FIELD_PREP(IRDMA_CQPAH_PDIDX_HI, info->pd_idx >> 16));
	irdma_put_addr(wqe, 4, 5, info->dest_addr, info->ipv4);
	irdma_put_addr(wqe, 6, 7, info->src_addr, info->ipv4);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPAH_IDX, info->ah_idx) |
			  FIELD_PREP(IRDMA_CQPAH_DOLOOPBACK, info->loopback) |
			  FIELD_PREP(IRDMA_CQPAH_IPV4VALID, info->ipv4) |
			  FIELD_PREP(IRDMA_CQPAH_INSERTVLANTAG,
				     info->insert_vlan),
			  info->op, valid);
	return 0;
}

/**
 * irdma_cqpw_mcg - build CREATE, MODIFY or DESTROY_MCAST_GRP
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters; the member list is the caller's to fill
 *
 * Return: 0, or -EINVAL for another opcode, an index or function id out
 * of range or an unaligned member list.
 */
int irdma_cqpw_mcg(__le64 *wqe, u8 valid,
		   const struct irdma_cqp_mcg_info *info)
{
	if ((info->op != IRDMA_CQPOP_CREATE_MCAST_GRP &&
	     info->op != IRDMA_CQPOP_MODIFY_MCAST_GRP &&
	     info->op != IRDMA_CQPOP_DESTROY_MCAST_GRP) ||
	    info->idx > FIELD_MAX(IRDMA_CQPMCG_IDX) ||
	    info->hmc_fn > FIELD_MAX(IRDMA_CQPMCG_HMCFNID) ||
	    !info->list_pa || !IS_ALIGNED(info->list_pa, 8))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 0, FIELD_PREP(IRDMA_CQPMCG_MAC,
					 ether_addr_to_u64(info->mac)));
	irdma_wqe_set(wqe, 1, FIELD_PREP(IRDMA_CQPMCG_HMCFNID, info->hmc_fn));
	irdma_wqe_set(wqe, 4, info->list_pa);
	irdma_put_addr(wqe, 6, 7, info->addr, info->ipv4);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPMCG_IDX, info->idx) |
			  FIELD_PREP(IRDMA_CQPMCG_IPV4VALID, info->ipv4),
			  info->op, valid);
	return 0;
}

/* ---- HMC ---- */

/**
 * irdma_cqpw_query_fpm - build QUERY_FPM_VAL
 * @wqe: CQP WQE
 * @valid: valid bit
 * @hmc_fn: HMC function id
 * @buf_pa: 176-byte result buffer, 4-byte aligned
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_query_fpm(__le64 *wqe, u8 valid, u8 hmc_fn, u64 buf_pa)
{
	if (!IS_ALIGNED(buf_pa, 4) || hmc_fn > FIELD_MAX(IRDMA_CQPFPM_HMCFNID))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPFPM_HMCFNID, hmc_fn));
	irdma_wqe_set(wqe, 4, buf_pa);
	irdma_cqpw_finish(wqe, 0, IRDMA_CQPOP_QUERY_FPM_VAL, valid);
	return 0;
}

/**
 * irdma_cqpw_commit_fpm - build COMMIT_FPM_VAL
 * @wqe: CQP WQE
 * @valid: valid bit
 * @hmc_fn: HMC function id
 * @buf_pa: commit buffer, 4-byte aligned
 * @buf_len: its length in bytes
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_commit_fpm(__le64 *wqe, u8 valid, u8 hmc_fn, u64 buf_pa,
			  u32 buf_len)
{
	if (!IS_ALIGNED(buf_pa, 4) || hmc_fn > FIELD_MAX(IRDMA_CQPFPM_HMCFNID) ||
	    !buf_len)
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPFPM_HMCFNID, hmc_fn));
	irdma_wqe_set(wqe, 4, buf_pa);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWQE_BUFSIZE, buf_len),
			  IRDMA_CQPOP_COMMIT_FPM_VAL, valid);
	return 0;
}

/**
 * irdma_cqpw_hmc_fn_table - build MANAGE_HMC_PM_FUNC
 * @wqe: CQP WQE
 * @valid: valid bit
 * @vf_idx: function (VF) index
 * @free: release the function's entry
 *
 * Return: 0.
 */
int irdma_cqpw_hmc_fn_table(__le64 *wqe, u8 valid, u16 vf_idx, bool free)
{
	irdma_cqpw_clear(wqe);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPHMCFN_VFIDX, vf_idx) |
			  FIELD_PREP(IRDMA_CQPHMCFN_FREEPMFN, free),
			  IRDMA_CQPOP_MANAGE_HMC_PM_FUNC, valid);
	return 0;
}

/**
 * irdma_cqpw_update_sds - build UPDATE_PE_SDS
 * @wqe: CQP WQE
 * @valid: valid bit
 * @hmc_fn: HMC function id
 * @sd: SD changes
 * @cnt: number of changes (1..11)
 * @buf: host buffer for changes 4..11 as (cmd, data) word pairs; unused
 *	for three or fewer
 * @buf_pa: its DMA address, 64-byte aligned
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_update_sds(__le64 *wqe, u8 valid, u8 hmc_fn,
			  const struct irdma_sd_update *sd, u32 cnt,
			  __le64 *buf, u64 buf_pa)
{
	u32 in_wqe = min_t(u32, cnt, IRDMA_SD_UPDATES_IN_WQE);
	u32 extra = cnt - in_wqe;
	u32 i;

	if (!cnt || cnt > IRDMA_MAX_SD_UPDATES ||
	    hmc_fn > FIELD_MAX(IRDMA_CQPSDS_HMCFNID) ||
	    (extra && (!buf || !IS_ALIGNED(buf_pa, 64))))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	for (i = 0; i < extra; i++) {
		irdma_wqe_set(buf, 2 * i, sd[in_wqe + i].cmd);
		irdma_wqe_set(buf, 2 * i + 1, sd[in_wqe + i].data);
	}
	irdma_wqe_set(wqe, 2, (extra ? buf_pa : 0) |
			      FIELD_PREP(IRDMA_CQPSDS_HMCFNID, hmc_fn));
	/* entry 0 in words 0/1, entries 1 and 2 in words 4/5 and 6/7 */
	irdma_wqe_set(wqe, 0, FIELD_PREP(IRDMA_CQPSDS_SDCMD, sd[0].cmd));
	irdma_wqe_set(wqe, 1, sd[0].data);
	for (i = 1; i < in_wqe; i++) {
		irdma_wqe_set(wqe, 2 + 2 * i,
			      FIELD_PREP(IRDMA_CQPSDS_SDCMD, sd[i].cmd) |
			      IRDMA_CQPSDS_ENTRY_VALID);
		irdma_wqe_set(wqe, 3 + 2 * i, sd[i].data);
	}
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPSDS_ENTRY_COUNT, extra),
			  IRDMA_CQPOP_UPDATE_PE_SDS, valid);
	return 0;
}

/* ---- QP maintenance ---- */

/**
 * irdma_cqpw_flush_wqes - build FLUSH_WQES
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters
 *
 * Return: 0 or -EINVAL when nothing is to be flushed or the QP id is out
 * of range.
 */
int irdma_cqpw_flush_wqes(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_flush_info *info)
{
	u64 codes = 0;

	if (info->qp_id > FIELD_MAX(IRDMA_CQPWQE_OBJ_ID) ||
	    (!info->flush_sq && !info->flush_rq) ||
	    info->ae_src > FIELD_MAX(IRDMA_CQPFL_AESRC))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	if (info->user_codes && info->flush_rq)
		codes |= FIELD_PREP(IRDMA_CQPFL_RQMNERR, info->rq_minor) |
			 FIELD_PREP(IRDMA_CQPFL_RQMJERR, info->rq_major);
	if (info->user_codes && info->flush_sq)
		codes |= FIELD_PREP(IRDMA_CQPFL_SQMNERR, info->sq_minor) |
			 FIELD_PREP(IRDMA_CQPFL_SQMJERR, info->sq_major);
	irdma_wqe_set(wqe, 2, codes);
	if (info->gen_ae)
		irdma_wqe_set(wqe, 1, FIELD_PREP(IRDMA_CQPFL_AECODE, info->ae_code) |
				      FIELD_PREP(IRDMA_CQPFL_AESRC, info->ae_src));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWQE_OBJ_ID, info->qp_id) |
			  FIELD_PREP(IRDMA_CQPFL_GENERATE_AE, info->gen_ae) |
			  FIELD_PREP(IRDMA_CQPFL_USERFLCODE, info->user_codes) |
			  FIELD_PREP(IRDMA_CQPFL_FLUSHSQ, info->flush_sq) |
			  FIELD_PREP(IRDMA_CQPFL_FLUSHRQ, info->flush_rq),
			  IRDMA_CQPOP_FLUSH_WQES, valid);
	return 0;
}

/**
 * irdma_cqpw_gen_ae - build GEN_AE: have the device raise an AE for a QP
 * @wqe: CQP WQE
 * @valid: valid bit
 * @qp_id: QP number
 * @ae_code: AE code to raise
 * @ae_src: AE source
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_gen_ae(__le64 *wqe, u8 valid, u32 qp_id, u16 ae_code,
		      u8 ae_src)
{
	if (qp_id > FIELD_MAX(IRDMA_CQPWQE_OBJ_ID) ||
	    ae_src > FIELD_MAX(IRDMA_CQPFL_AESRC))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 1, FIELD_PREP(IRDMA_CQPFL_AECODE, ae_code) |
			      FIELD_PREP(IRDMA_CQPFL_AESRC, ae_src));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWQE_OBJ_ID, qp_id) |
			  FIELD_PREP(IRDMA_CQPFL_GENERATE_AE, 1),
			  IRDMA_CQPOP_GEN_AE, valid);
	return 0;
}

/**
 * irdma_cqpw_upload_ctx - build UPLOAD_CONTEXT
 * @wqe: CQP WQE
 * @valid: valid bit
 * @qp_id: QP number
 * @qp_type: IRDMA_QPTYPE_*
 * @buf_pa: 256-byte destination buffer, 8-byte aligned
 * @freeze: freeze the QP while uploading
 * @raw: raw format
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_upload_ctx(__le64 *wqe, u8 valid, u32 qp_id, u8 qp_type,
			  u64 buf_pa, bool freeze, bool raw)
{
	if (qp_id > FIELD_MAX(IRDMA_CQPWQE_OBJ_ID) || !IS_ALIGNED(buf_pa, 8) ||
	    qp_type > FIELD_MAX(IRDMA_CQPUC_QPTYPE))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, buf_pa);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWQE_OBJ_ID, qp_id) |
			  FIELD_PREP(IRDMA_CQPUC_QPTYPE, qp_type) |
			  FIELD_PREP(IRDMA_CQPUC_RAWFORMAT, raw) |
			  FIELD_PREP(IRDMA_CQPUC_FREEZEQP, freeze),
			  IRDMA_CQPOP_UPLOAD_CONTEXT, valid);
	return 0;
}

/**
 * irdma_cqpw_suspend_qp - build SUSPEND_QP (completes with an AE)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @qp_id: QP number
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_suspend_qp(__le64 *wqe, u8 valid, u32 qp_id)
{
	if (qp_id > FIELD_MAX(IRDMA_CQPWQE_OBJ_ID))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWQE_OBJ_ID, qp_id),
			  IRDMA_CQPOP_SUSPEND_QP, valid);
	return 0;
}

/**
 * irdma_cqpw_resume_qp - build RESUME_QP
 * @wqe: CQP WQE
 * @valid: valid bit
 * @qp_id: QP number
 * @qs_handle: QS handle to resume on
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_resume_qp(__le64 *wqe, u8 valid, u32 qp_id, u16 qs_handle)
{
	if (qp_id > FIELD_MAX(IRDMA_CQPWQE_OBJ_ID))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_CQPRES_QSHANDLE, qs_handle));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWQE_OBJ_ID, qp_id),
			  IRDMA_CQPOP_RESUME_QP, valid);
	return 0;
}

/**
 * irdma_cqpw_nop - build NOP
 * @wqe: CQP WQE
 * @valid: valid bit
 *
 * Return: 0.
 */
int irdma_cqpw_nop(__le64 *wqe, u8 valid)
{
	irdma_cqpw_clear(wqe);
	irdma_cqpw_finish(wqe, 0, IRDMA_CQPOP_NOP, valid);
	return 0;
}

/* ---- statistics, work scheduler ---- */

/**
 * irdma_cqpw_manage_stats - build MANAGE_STATS (allocate/free an instance)
 * @wqe: CQP WQE
 * @valid: valid bit
 * @inst: statistics instance (7 bits)
 * @hmc_fn: HMC function
 * @alloc: allocate (true) or free
 * @use_hmc_fn: use @hmc_fn
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_manage_stats(__le64 *wqe, u8 valid, u8 inst, u8 hmc_fn,
			    bool alloc, bool use_hmc_fn)
{
	if (inst > FIELD_MAX(IRDMA_CQPST_INST_IDX) ||
	    hmc_fn > FIELD_MAX(IRDMA_CQPST_HMCFNIDX))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 5, FIELD_PREP(IRDMA_CQPST_HMCFNIDX, hmc_fn));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPST_ALLOC_INST, alloc) |
			  FIELD_PREP(IRDMA_CQPST_USE_HMCFNIDX, use_hmc_fn) |
			  FIELD_PREP(IRDMA_CQPST_INST_IDX, inst),
			  IRDMA_CQPOP_MANAGE_STATS, valid);
	return 0;
}

/**
 * irdma_cqpw_gather_stats - build GATHER_STATS
 * @wqe: CQP WQE
 * @valid: valid bit
 * @inst: statistics instance
 * @hmc_fn: HMC function
 * @buf_pa: result buffer, 8-byte aligned
 * @use_inst: gather @inst rather than the function's counters
 * @use_hmc_fn: use @hmc_fn
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_gather_stats(__le64 *wqe, u8 valid, u8 inst, u8 hmc_fn,
			    u64 buf_pa, bool use_inst, bool use_hmc_fn)
{
	if (inst > FIELD_MAX(IRDMA_CQPST_INST_IDX) ||
	    hmc_fn > FIELD_MAX(IRDMA_CQPST_HMCFNIDX) || !IS_ALIGNED(buf_pa, 8))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 4, buf_pa);
	irdma_wqe_set(wqe, 5, FIELD_PREP(IRDMA_CQPST_HMCFNIDX, hmc_fn));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPST_USE_INST, use_inst) |
			  FIELD_PREP(IRDMA_CQPST_INST_IDX, inst) |
			  FIELD_PREP(IRDMA_CQPST_USE_HMCFNIDX, use_hmc_fn),
			  IRDMA_CQPOP_GATHER_STATS, valid);
	return 0;
}

/**
 * irdma_cqpw_ws_node - build WORK_SCHED_NODE
 * @wqe: CQP WQE
 * @valid: valid bit
 * @info: parameters
 *
 * Return: 0 or -EINVAL.
 */
int irdma_cqpw_ws_node(__le64 *wqe, u8 valid,
		       const struct irdma_cqp_ws_info *info)
{
	if (info->id > FIELD_MAX(IRDMA_CQPWS_NODEID) ||
	    info->parent_id > FIELD_MAX(IRDMA_CQPWS_PARENTID) ||
	    info->vsi > FIELD_MAX(IRDMA_CQPWS_VSI) ||
	    info->weight > FIELD_MAX(IRDMA_CQPWS_WEIGHT) ||
	    info->op > IRDMA_WS_OP_DELETE || info->tc > 7 ||
	    info->prio_type > FIELD_MAX(IRDMA_CQPWS_PRIOTYPE))
		return -EINVAL;
	irdma_cqpw_clear(wqe);
	irdma_wqe_set(wqe, 4, FIELD_PREP(IRDMA_CQPWS_VSI, info->vsi) |
			      FIELD_PREP(IRDMA_CQPWS_WEIGHT, info->weight));
	irdma_cqpw_finish(wqe, FIELD_PREP(IRDMA_CQPWS_NODEOP, info->op) |
			  FIELD_PREP(IRDMA_CQPWS_ENABLENODE, info->enable) |
			  FIELD_PREP(IRDMA_CQPWS_NODETYPE, info->leaf) |
			  FIELD_PREP(IRDMA_CQPWS_PRIOTYPE, info->prio_type) |
			  FIELD_PREP(IRDMA_CQPWS_TC, info->tc) |
			  FIELD_PREP(IRDMA_CQPWS_PARENTID, info->parent_id) |
			  FIELD_PREP(IRDMA_CQPWS_NODEID, info->id),
			  IRDMA_CQPOP_WORK_SCHED_NODE, valid);
	return 0;
}

/* ---- the builders as CQP command callbacks ---- */

/**
 * IRDMA_CQPW_CB - define irdma_cqpw_<x>_cb(), a builder as a command callback
 * @x: a builder that takes one info structure, irdma_cqpw_<x>()
 *
 * The callback has the shape of the @build member of struct irdma_cmd
 * (hw.h); its @arg is the builder's info structure. The callbacks are
 * declared in ctrl.h, so that each command names its builder directly.
 */
#define IRDMA_CQPW_CB(x)						\
int irdma_cqpw_##x##_cb(__le64 *wqe, u8 valid, const void *arg)	\
{									\
	return irdma_cqpw_##x(wqe, valid, arg);				\
}

IRDMA_CQPW_CB(qp_create)
IRDMA_CQPW_CB(qp_modify)
IRDMA_CQPW_CB(qp_destroy)
IRDMA_CQPW_CB(cq_create)
IRDMA_CQPW_CB(cq_modify)
IRDMA_CQPW_CB(cq_destroy)
IRDMA_CQPW_CB(ceq_create)
IRDMA_CQPW_CB(ceq_destroy)
IRDMA_CQPW_CB(aeq_create)
IRDMA_CQPW_CB(aeq_destroy)
IRDMA_CQPW_CB(alloc_stag)
IRDMA_CQPW_CB(reg_mr)
IRDMA_CQPW_CB(dealloc_stag)
IRDMA_CQPW_CB(mw_alloc)
IRDMA_CQPW_CB(qhash)
IRDMA_CQPW_CB(ah)
IRDMA_CQPW_CB(mcg)
IRDMA_CQPW_CB(flush_wqes)
IRDMA_CQPW_CB(ws_node)

/* ---- event queues ---- */

/**
 * irdma_eq_init - set up a CEQ or AEQ consumer
 * @eq: the ring state
 * @ring: element memory
 * @size: elements (at least 2)
 * @words: 1 for a CEQ, 2 for the AEQ
 *
 * Return: 0 or -EINVAL.
 */
int irdma_eq_init(struct irdma_eq_ring *eq, __le64 *ring, u32 size, u8 words)
{
	if (!ring || size < 2 || (words != 1 && words != 2))
		return -EINVAL;
	eq->ring = ring;
	eq->size = size;
	eq->head = 0;
	eq->pol = 1;
	eq->words = words;
	return 0;
}

static void irdma_eq_advance(struct irdma_eq_ring *eq)
{
	if (++eq->head == eq->size) {
		eq->head = 0;
		eq->pol ^= 1;
	}
}

/**
 * irdma_ceq_next - consume the next CEQ element
 * @eq: the CEQ
 * @cq_ctx: the CQ completion context it names (already shifted back)
 *
 * Return: 0 or -ENOENT when the CEQ is empty.
 */
int irdma_ceq_next(struct irdma_eq_ring *eq, u64 *cq_ctx)
{
	u64 w = irdma_wqe_get(eq->ring, eq->head * eq->words);

	if (FIELD_GET(IRDMA_CEQE_VALID, w) != eq->pol)
		return -ENOENT;
	*cq_ctx = FIELD_GET(IRDMA_CEQE_CQCTX, w) << 1;
	irdma_eq_advance(eq);
	return 0;
}

static bool irdma_ae_src_is_cq(u8 src)
{
	return src == IRDMA_AESRC_CQ || src == IRDMA_AESRC_CQ_0110 ||
	       src == IRDMA_AESRC_CQ_1010 || src == IRDMA_AESRC_CQ_1110;
}

/**
 * irdma_aeqe_decode - decode one AEQ element
 * @aeqe: the element's two words
 * @info: decoded fields
 *
 * An event is about a CQ when its source says so or it is the CQ
 * catastrophic error (the CQ context then comes back shifted, as in
 * CEQEs); any other event with a source or a code is about a QP, except
 * the function-wide ones.
 */
void irdma_aeqe_decode(const __le64 *aeqe, struct irdma_aeqe_info *info)
{
	u64 w1 = irdma_wqe_get(aeqe, 1);

	info->ctx = irdma_wqe_get(aeqe, 0);
	info->id = FIELD_GET(IRDMA_AEQE_QPCQID_LO, w1) |
		   FIELD_GET(IRDMA_AEQE_QPCQID_HI, w1) << 18;
	info->wqe_idx = FIELD_GET(IRDMA_AEQE_WQDESCIDX, w1);
	info->code = FIELD_GET(IRDMA_AEQE_AECODE, w1);
	info->source = FIELD_GET(IRDMA_AEQE_AESRC, w1);
	info->iw_state = FIELD_GET(IRDMA_AEQE_IWSTATE, w1);
	info->tcp_state = FIELD_GET(IRDMA_AEQE_TCPSTATE, w1);
	info->q2_data = FIELD_GET(IRDMA_AEQE_Q2DATA, w1);
	info->overflow = FIELD_GET(IRDMA_AEQE_OVERFLOW, w1);
	info->is_cq = info->code == IRDMA_AE_LCE_CQ_CATASTROPHIC ||
		      irdma_ae_src_is_cq(info->source);
	info->is_qp = !info->is_cq &&
		      info->code != IRDMA_AE_LCE_FUNCTION_CATASTROPHIC &&
		      info->code != IRDMA_AE_RESOURCE_EXHAUSTION;
	if (info->is_cq)
		info->ctx <<= 1;
}

/**
 * irdma_aeq_next - consume the next AEQ element
 * @eq: the AEQ
 * @info: decoded element
 *
 * Return: 0 or -ENOENT when the AEQ is empty.
 */
int irdma_aeq_next(struct irdma_eq_ring *eq, struct irdma_aeqe_info *info)
{
	const __le64 *e = eq->ring + (size_t)eq->head * eq->words;

	if (FIELD_GET(IRDMA_AEQE_VALID, irdma_wqe_get(e, 1)) != eq->pol)
		return -ENOENT;
	dma_rmb();
	irdma_aeqe_decode(e, info);
	irdma_eq_advance(eq);
	return 0;
}

/* ---- QP context ---- */

/**
 * irdma_ird_encode - encode an IRD for the QP context
 * @ird: inbound RDMA reads allowed (0 means the minimum)
 * @code: IRDMA_IRD_HW_SIZE_* value; the hardware keeps 2 * @ird entries
 *	rounded up to a power of two
 *
 * Return: 0 or -EINVAL for an IRD above 128.
 */
int irdma_ird_encode(u16 ird, u8 *code)
{
	u32 slots = ird ? roundup_pow_of_two(2 * (u32)ird) : 4;

	if (slots <= 4)
		*code = IRDMA_IRD_HW_SIZE_4;
	else if (slots <= 16)
		*code = IRDMA_IRD_HW_SIZE_16;
	else if (slots <= 64)
		*code = IRDMA_IRD_HW_SIZE_64;
	else if (slots <= 128)
		*code = IRDMA_IRD_HW_SIZE_128;
	else if (slots <= 256)
		*code = IRDMA_IRD_HW_SIZE_256;
	else
		return -EINVAL;
	return 0;
}

static int irdma_qpc_check(const struct irdma_qpc_common *c)
{
	if (!IS_ALIGNED(c->q2_pa, 256) || c->pd_id >= BIT(18) ||
	    c->send_cq > FIELD_MAX(IRDMA_QPC_TXCQNUM) ||
	    c->recv_cq > FIELD_MAX(IRDMA_QPC_RXCQNUM) ||
	    c->snd_mss > FIELD_MAX(IRDMA_QPC_SNDMSS) ||
	    c->sq_size_log2 > FIELD_MAX(IRDMA_QPC_SQSIZE) ||
	    c->rq_size_log2 > FIELD_MAX(IRDMA_QPC_RQSIZE) ||
	    c->rq_wqe_size > FIELD_MAX(IRDMA_QPC_RQWQESIZE) ||
	    c->qs_handle > FIELD_MAX(IRDMA_QPC_QSHANDLE) ||
	    c->ieq_qpn > FIELD_MAX(IRDMA_QPC_EXCEPTION_LAN_Q) ||
	    c->flow_label > FIELD_MAX(IRDMA_QPC_FLOWLABEL) ||
	    c->stats_idx > FIELD_MAX(IRDMA_QPC_STAT_INDEX))
		return -EINVAL;
	return 0;
}

/* Fields both protocols place identically; returns word 0 bits so far */
static u64 irdma_qpc_common(__le64 *ctx, const struct irdma_qpc_common *c)
{
	unsigned int w;

	for (w = 0; w < IRDMA_QP_CTX_BYTES / 8; w++)
		irdma_wqe_set(ctx, w, 0);
	irdma_wqe_set(ctx, 1, c->sq_pa);
	irdma_wqe_set(ctx, 2, c->rq_pa);
	irdma_put_addr(ctx, 4, 5, c->dest_addr, c->ipv4);
	irdma_wqe_set(ctx, 6, FIELD_PREP(IRDMA_QPC_SNDMSS, c->snd_mss) |
			      FIELD_PREP(IRDMA_QPC_VLANTAG, c->vlan_tag) |
			      FIELD_PREP(IRDMA_QPC_ARPIDX, c->arp_idx));
	irdma_wqe_set(ctx, 17, FIELD_PREP(IRDMA_QPC_TXCQNUM, c->send_cq) |
			       FIELD_PREP(IRDMA_QPC_RXCQNUM, c->recv_cq));
	irdma_wqe_set(ctx, 19, FIELD_PREP(IRDMA_QPC_MACADDRESS, c->mac));
	irdma_wqe_set(ctx, 21, c->compl_ctx);
	irdma_wqe_set(ctx, 22, FIELD_PREP(IRDMA_QPC_QSHANDLE, c->qs_handle) |
			       FIELD_PREP(IRDMA_QPC_EXCEPTION_LAN_Q, c->ieq_qpn));
	irdma_put_addr(ctx, 23, 24, c->local_addr, c->ipv4);
	return FIELD_PREP(IRDMA_QPC_RQWQESIZE, c->rq_wqe_size) |
	       FIELD_PREP(IRDMA_QPC_PDIDXHI, c->pd_id >> 16) |
	       FIELD_PREP(IRDMA_QPC_IPV4, c->ipv4) |
	       FIELD_PREP(IRDMA_QPC_INSERTVLANTAG, c->insert_vlan);
}

static u64 irdma_qpc_w3(const struct irdma_qpc_common *c)
{
	return FIELD_PREP(IRDMA_QPC_RQSIZE, c->rq_size_log2) |
	       FIELD_PREP(IRDMA_QPC_SQSIZE, c->sq_size_log2) |
	       FIELD_PREP(IRDMA_QPC_TTL, c->ttl) |
	       FIELD_PREP(IRDMA_QPC_TOS, c->tos) |
	       FIELD_PREP(IRDMA_QPC_SRCPORT, c->src_port) |
	       FIELD_PREP(IRDMA_QPC_DESTPORT, c->dst_port);
}

/*
 * Word 20 holds the read credits of both directions, then what the QP
 * lets the peer and the local consumer do, then whether completions are
 * counted in the QP's statistics instance.
 */
static u64 irdma_qpc_w20(const struct irdma_qpc_common *c, u8 ird_code)
{
	const struct irdma_flag rights[] = {
		{ IRDMA_QPC_RDOK, c->rd_en },
		{ IRDMA_QPC_WRRDRSPOK, c->wr_rdresp_en },
		{ IRDMA_QPC_BINDEN, c->bind_en },
		{ IRDMA_QPC_FASTREGEN, c->fast_reg_en },
		{ IRDMA_QPC_PRIVEN, c->priv_en },
	};
	u64 credits = FIELD_PREP(IRDMA_QPC_IRDSIZE, ird_code) |
		      FIELD_PREP(IRDMA_QPC_ORDSIZE, c->ord);
	u64 stats = c->use_stats ? IRDMA_QPC_USESTATSINSTANCE : 0;

	return credits | irdma_flags(rights, ARRAY_SIZE(rights)) | stats;
}

static void irdma_qpc_tcp(__le64 *ctx, const struct irdma_qpc_tcp *t)
{
	irdma_wqe_set(ctx, 9, FIELD_PREP(IRDMA_QPC_TS_RECENT, t->ts_recent) |
			      FIELD_PREP(IRDMA_QPC_TS_AGE, t->ts_age));
	irdma_wqe_set(ctx, 10, FIELD_PREP(IRDMA_QPC_SEQ_LO, t->snd_nxt) |
			       FIELD_PREP(IRDMA_QPC_SEQ_HI, t->snd_wnd));
	irdma_wqe_set(ctx, 11, FIELD_PREP(IRDMA_QPC_SEQ_LO, t->rcv_nxt) |
			       FIELD_PREP(IRDMA_QPC_SEQ_HI, t->rcv_wnd));
	irdma_wqe_set(ctx, 12, FIELD_PREP(IRDMA_QPC_SEQ_LO, t->snd_max) |
			       FIELD_PREP(IRDMA_QPC_SEQ_HI, t->snd_una));
	irdma_wqe_set(ctx, 13, FIELD_PREP(IRDMA_QPC_SEQ_LO, t->srtt) |
			       FIELD_PREP(IRDMA_QPC_SEQ_HI, t->rtt_var));
	irdma_wqe_set(ctx, 14, FIELD_PREP(IRDMA_QPC_SEQ_LO, t->ss_thresh) |
			       FIELD_PREP(IRDMA_QPC_SEQ_HI, t->cwnd));
	irdma_wqe_set(ctx, 15, FIELD_PREP(IRDMA_QPC_SEQ_LO, t->snd_wl1) |
			       FIELD_PREP(IRDMA_QPC_SEQ_HI, t->snd_wl2));
}

static u64 irdma_qpc_tcp_w7(const struct irdma_qpc_tcp *t)
{
	return FIELD_PREP(IRDMA_QPC_WSCALE, t->wscale) |
	       FIELD_PREP(IRDMA_QPC_KEEPALIVE, t->keepalive) |
	       FIELD_PREP(IRDMA_QPC_IGNORE_TCP_OPT, t->ignore_tcp_opt) |
	       FIELD_PREP(IRDMA_QPC_IGNORE_TCP_UNS_OPT, t->ignore_tcp_uns_opt) |
	       FIELD_PREP(IRDMA_QPC_TCPSTATE, t->tcp_state) |
	       FIELD_PREP(IRDMA_QPC_RCVSCALE, t->rcv_wscale) |
	       FIELD_PREP(IRDMA_QPC_SNDSCALE, t->snd_wscale);
}

static u64 irdma_qpc_tcp_w0(const struct irdma_qpc_tcp *t)
{
	return FIELD_PREP(IRDMA_QPC_NONAGLE, t->no_nagle) |
	       FIELD_PREP(IRDMA_QPC_TIMESTAMP, t->timestamp) |
	       FIELD_PREP(IRDMA_QPC_LIMIT, t->cwnd_inc_limit) |
	       FIELD_PREP(IRDMA_QPC_DROPOOOSEG, t->drop_ooo) |
	       FIELD_PREP(IRDMA_QPC_DUPACK_THRESH, t->dup_ack_thresh);
}

static int irdma_qpc_tcp_check(const struct irdma_qpc_tcp *t)
{
	if (t->tcp_state > FIELD_MAX(IRDMA_QPC_TCPSTATE) ||
	    t->snd_wscale > FIELD_MAX(IRDMA_QPC_SNDSCALE) ||
	    t->rcv_wscale > FIELD_MAX(IRDMA_QPC_RCVSCALE) ||
	    t->rexmit_thresh > FIELD_MAX(IRDMA_QPC_REXMIT_THRESH) ||
	    t->dup_ack_thresh > FIELD_MAX(IRDMA_QPC_DUPACK_THRESH) ||
	    t->cwnd_inc_limit > FIELD_MAX(IRDMA_QPC_LIMIT) ||
	    t->rtomin > FIELD_MAX(IRDMA_QPC_RTOMIN))
		return -EINVAL;
	return 0;
}

static u64 irdma_qpc_iwarp_w20(const struct irdma_qpc_iwarp *iw)
{
	return FIELD_PREP(IRDMA_QPC_SNDMARKERS, iw->snd_markers) |
	       FIELD_PREP(IRDMA_QPC_IWARPMODE, 1) |
	       FIELD_PREP(IRDMA_QPC_RCVMARKERS, iw->rcv_markers) |
	       FIELD_PREP(IRDMA_QPC_ALIGNHDRS, iw->align_hdrs) |
	       FIELD_PREP(IRDMA_QPC_RCVNOMPACRC, iw->rcv_no_mpa_crc) |
	       FIELD_PREP(IRDMA_QPC_RCVMARKOFFSET, iw->rcv_mark_offset) |
	       FIELD_PREP(IRDMA_QPC_SNDMARKOFFSET, iw->snd_mark_offset);
}

/**
 * irdma_qpc_write_iwarp - fill a 256-byte iWARP QP context
 * @ctx: 32 words
 * @c: protocol-independent fields
 * @iw: iWARP fields, with the TCP state when the connection is handed over
 *
 * Return: 0 or -EINVAL for out-of-range fields or an unaligned Q2.
 */
int irdma_qpc_write_iwarp(__le64 *ctx, const struct irdma_qpc_common *c,
			  const struct irdma_qpc_iwarp *iw)
{
	const struct irdma_qpc_tcp *t = &iw->tcp;
	u64 w0, w3, w7, w16 = 0;
	u8 ird;

	if (irdma_qpc_check(c) || irdma_ird_encode(c->ird, &ird) ||
	    (iw->tcp_valid && irdma_qpc_tcp_check(t)) ||
	    iw->ddp_ver > 3 || iw->rdmap_ver > 3 ||
	    iw->src_mac_idx > FIELD_MAX(IRDMA_QPC_SRCMACIDX_G1))
		return -EINVAL;
	w0 = irdma_qpc_common(ctx, c) |
	     FIELD_PREP(IRDMA_QPC_DDP_VER, iw->ddp_ver) |
	     FIELD_PREP(IRDMA_QPC_RDMAP_VER, iw->rdmap_ver) |
	     FIELD_PREP(IRDMA_QPC_DC_TCP_EN, iw->dctcp_en) |
	     FIELD_PREP(IRDMA_QPC_ECN_EN, iw->ecn_en) |
	     FIELD_PREP(IRDMA_QPC_IBRDENABLE, iw->ib_rd_en);
	w3 = irdma_qpc_w3(c) | FIELD_PREP(IRDMA_QPC_SRCMACIDX_G1, iw->src_mac_idx);
	w7 = FIELD_PREP(IRDMA_QPC_PDIDX, c->pd_id & 0xffff) |
	     FIELD_PREP(IRDMA_QPC_FLOWLABEL, c->flow_label);
	if (iw->tcp_valid) {
		w0 |= irdma_qpc_tcp_w0(t);
		w3 |= FIELD_PREP(IRDMA_QPC_AVOIDSTRETCHACK, t->avoid_stretch_ack);
		w7 |= irdma_qpc_tcp_w7(t);
		w16 = FIELD_PREP(IRDMA_QPC_MAXSNDWND, t->max_snd_wnd) |
		      FIELD_PREP(IRDMA_QPC_REXMIT_THRESH, t->rexmit_thresh) |
		      FIELD_PREP(IRDMA_QPC_RTOMIN, t->rtomin);
		irdma_qpc_tcp(ctx, t);
	}
	irdma_wqe_set(ctx, 0, w0);
	irdma_wqe_set(ctx, 3, w3);
	irdma_wqe_set(ctx, 7, w7);
	irdma_wqe_set(ctx, 16, w16);
	irdma_wqe_set(ctx, 18, (c->q2_pa & IRDMA_QPC_Q2ADDR) |
			       FIELD_PREP(IRDMA_QPC_STAT_INDEX, c->stats_idx));
	irdma_wqe_set(ctx, 20, irdma_qpc_w20(c, ird) | irdma_qpc_iwarp_w20(iw));
	return 0;
}

static int irdma_qpc_roce_check(const struct irdma_qpc_roce *rc)
{
	if (rc->dest_qp > FIELD_MAX(IRDMA_QPC_DESTQP) ||
	    rc->psn_nxt > FIELD_MAX(IRDMA_QPC_PSN_LO) ||
	    rc->lsn > FIELD_MAX(IRDMA_QPC_PSN_HI) ||
	    rc->epsn > FIELD_MAX(IRDMA_QPC_PSN_LO) ||
	    rc->psn_max > FIELD_MAX(IRDMA_QPC_PSN_LO) ||
	    rc->psn_una > FIELD_MAX(IRDMA_QPC_PSN_HI) ||
	    rc->cwnd > FIELD_MAX(IRDMA_QPC_CWNDROCE) ||
	    rc->ack_credits > FIELD_MAX(IRDMA_QPC_ACKCREDITS) ||
	    rc->rnr_nak_thresh > FIELD_MAX(IRDMA_QPC_RNRNAK_THRESH) ||
	    rc->rexmit_thresh > FIELD_MAX(IRDMA_QPC_REXMIT_THRESH) ||
	    rc->rtomin > FIELD_MAX(IRDMA_QPC_RTOMIN))
		return -EINVAL;
	return 0;
}

static void irdma_qpc_roce_psn(__le64 *ctx, const struct irdma_qpc_roce *rc)
{
	irdma_wqe_set(ctx, 8, FIELD_PREP(IRDMA_QPC_QKEY, rc->qkey) |
			      FIELD_PREP(IRDMA_QPC_DESTQP, rc->dest_qp));
	irdma_wqe_set(ctx, 10, FIELD_PREP(IRDMA_QPC_PSN_LO, rc->psn_nxt) |
			       FIELD_PREP(IRDMA_QPC_PSN_HI, rc->lsn));
	irdma_wqe_set(ctx, 11, FIELD_PREP(IRDMA_QPC_PSN_LO, rc->epsn));
	irdma_wqe_set(ctx, 12, FIELD_PREP(IRDMA_QPC_PSN_LO, rc->psn_max) |
			       FIELD_PREP(IRDMA_QPC_PSN_HI, rc->psn_una));
	irdma_wqe_set(ctx, 14, FIELD_PREP(IRDMA_QPC_CWNDROCE, rc->cwnd));
	irdma_wqe_set(ctx, 16,
		      FIELD_PREP(IRDMA_QPC_RNRNAK_THRESH, rc->rnr_nak_thresh) |
		      FIELD_PREP(IRDMA_QPC_REXMIT_THRESH, rc->rexmit_thresh) |
		      FIELD_PREP(IRDMA_QPC_RTOMIN, rc->rtomin));
}

/**
 * irdma_qpc_write_roce - fill a 256-byte RoCEv2 QP context
 * @ctx: 32 words
 * @c: protocol-independent fields
 * @rc: RoCEv2 fields
 *
 * Return: 0 or -EINVAL for out-of-range fields.
 */
int irdma_qpc_write_roce(__le64 *ctx, const struct irdma_qpc_common *c,
			 const struct irdma_qpc_roce *rc)
{
	u8 ird;
	u64 w0;

	if (irdma_qpc_check(c) || irdma_ird_encode(c->ird, &ird) ||
	    irdma_qpc_roce_check(rc))
		return -EINVAL;
	w0 = irdma_qpc_common(ctx, c) | FIELD_PREP(IRDMA_QPC_ISQP1, rc->is_qp1);
	irdma_wqe_set(ctx, 0, w0);
	irdma_wqe_set(ctx, 3, irdma_qpc_w3(c));
	irdma_wqe_set(ctx, 7, FIELD_PREP(IRDMA_QPC_PKEY, rc->p_key) |
			      FIELD_PREP(IRDMA_QPC_PDIDX, c->pd_id & 0xffff) |
			      FIELD_PREP(IRDMA_QPC_ACKCREDITS, rc->ack_credits) |
			      FIELD_PREP(IRDMA_QPC_FLOWLABEL, c->flow_label));
	irdma_qpc_roce_psn(ctx, rc);
	irdma_wqe_set(ctx, 18, FIELD_PREP(IRDMA_QPC_STAT_INDEX, c->stats_idx));
	irdma_wqe_set(ctx, 20, irdma_qpc_w20(c, ird) |
		      FIELD_PREP(IRDMA_QPC_DCQCNENABLE, rc->dcqcn_en) |
		      FIELD_PREP(IRDMA_QPC_RCVNOICRC, rc->rcv_no_icrc) |
		      FIELD_PREP(IRDMA_QPC_UDPRIVCQENABLE, rc->udprivcq_en));
	return 0;
}

/**
 * irdma_qpc_write_uda - fill the QP context of a privileged raw queue
 * @ctx: 32 words
 * @c: ring addresses and sizes, RQ WQE size, buffer size (@snd_mss), CQs,
 *	completion context, QS handle, statistics instance and @priv_en; the
 *	other fields must be zero
 *
 * The ILQ's context (hw-interface.rst, "Privileged raw queues (ILQ,
 * IEQ)"): no protocol state, nothing but where the rings are and where
 * their completions go.
 *
 * Return: 0 or -EINVAL for out-of-range fields.
 */
int irdma_qpc_write_uda(__le64 *ctx, const struct irdma_qpc_common *c)
{
	if (irdma_qpc_check(c))
		return -EINVAL;
	irdma_wqe_set(ctx, 0, irdma_qpc_common(ctx, c));
	irdma_wqe_set(ctx, 3, irdma_qpc_w3(c));
	irdma_wqe_set(ctx, 18, FIELD_PREP(IRDMA_QPC_STAT_INDEX, c->stats_idx));
	irdma_wqe_set(ctx, 20, FIELD_PREP(IRDMA_QPC_PRIVEN, c->priv_en) |
			       FIELD_PREP(IRDMA_QPC_USESTATSINSTANCE,
					  c->use_stats));
	return 0;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ctrl_test.c"
#endif
