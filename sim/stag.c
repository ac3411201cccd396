// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: STag commands (ALLOC_STAG, REG_MR, DEALLOC_STAG).
 *
 * An STag index names an MR slot of the HMC. ALLOC_STAG reserves one for a
 * fast-register MR or a memory window; REG_MR registers memory described
 * by one page or by PBLEs; DEALLOC_STAG frees the index. The engine keeps
 * what it will need to check accesses once WQEs execute: PD, key, rights,
 * base and length.
 */
#include <linux/slab.h>

#include "isim.h"

/**
 * isim_stag_reset - forget every STag
 * @f: function
 */
void isim_stag_reset(struct isim_func *f)
{
	struct isim_stag *st;
	unsigned long idx;

	xa_for_each(&f->stags, idx, st) {
		xa_erase(&f->stags, idx);
		kfree(st);
	}
}

static u16 isim_stag_check_new(struct isim_func *f, u32 idx)
{
	if (!f->hmc.committed || !idx || idx >= f->hmc.cnt[ISIM_HMC_MR])
		return ISIM_MIN_BAD_ID;
	if (xa_load(&f->stags, idx))
		return ISIM_MIN_EXISTS;
	return ISIM_MIN_OK;
}

static void isim_stag_fill(struct isim_stag *st, const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR];

	st->index = FIELD_GET(ISIM_STAG_W2_INDEX, wqe[2]);
	st->key = FIELD_GET(ISIM_STAG_W2_KEY, wqe[2]);
	st->len = FIELD_GET(ISIM_STAG_W1_LEN, wqe[1]);
	st->pd = FIELD_GET(ISIM_STAG_W1_PD, wqe[1]);
	st->rights = FIELD_GET(ISIM_STAG_HDR_RIGHTS, hdr);
	st->remote = hdr & ISIM_STAG_HDR_REMOTE;
	st->mr = hdr & ISIM_STAG_HDR_MR;
}

static void isim_stag_add(struct isim_func *f, const u64 *wqe, bool reg,
			  struct isim_res *res)
{
	struct isim_stag *st;

	res->minor = isim_stag_check_new(f, FIELD_GET(ISIM_STAG_W2_INDEX,
						      wqe[2]));
	if (res->minor)
		return;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	isim_stag_fill(st, wqe);
	st->registered = reg;
	if (reg)
		st->va = wqe[0];
	if (xa_insert(&f->stags, st->index, st, GFP_KERNEL)) {
		kfree(st);
		res->minor = ISIM_MIN_BUSY;
	}
}

/**
 * isim_op_alloc_stag - ALLOC_STAG: reserve an MR or MW index
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_alloc_stag(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	isim_stag_add(f, wqe, false, res);
}

/**
 * isim_op_reg_mr - REG_MR: register memory under a new STag
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The memory is one page at word 4 or a list of single-level PBLEs from
 * word 6; the first PBLE must be readable. Two-level lists are not
 * modelled.
 */
void isim_op_reg_mr(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR], pa;

	if (!(hdr & ISIM_STAG_HDR_MR) ||
	    !FIELD_GET(ISIM_STAG_W1_LEN, wqe[1])) {
		res->minor = ISIM_MIN_BAD_FIELD;
		return;
	}
	if (FIELD_GET(ISIM_STAG_HDR_PBL_LEVELS, hdr) > 1) {
		res->minor = ISIM_MIN_UNSUPPORTED;
		return;
	}
	if (!wqe[4] &&
	    isim_hmc_pble(f, FIELD_GET(ISIM_STAG_W6_FIRST_PBLE, wqe[6]), &pa)) {
		res->minor = ISIM_MIN_HMC_UNBACKED;
		return;
	}
	isim_stag_add(f, wqe, true, res);
}

/**
 * isim_op_dealloc_stag - DEALLOC_STAG
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The MR flag must match what the index was allocated as.
 */
void isim_op_dealloc_stag(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u32 idx = FIELD_GET(ISIM_STAG_W2_INDEX, wqe[2]);
	struct isim_stag *st = xa_load(&f->stags, idx);

	if (!st) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	if (st->mr != !!(wqe[ISIM_WQE_HDR] & ISIM_STAG_HDR_MR)) {
		res->minor = ISIM_MIN_BAD_FIELD;
		return;
	}
	xa_erase(&f->stags, idx);
	kfree(st);
}
