// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: host memory cache sizing. From the object sizes the device
 * reports (QUERY_FPM) and the counts the driver wants, compute where each
 * object type lives in the function's FPM, how many 2 MiB segments that
 * takes, and the descriptors (SD, PD) that back it with host pages.
 *
 * The device places the object types in enum irdma_hmc_obj order, each
 * base rounded up to 512 bytes, and reports the bases back in the commit
 * buffer; irdma_hmc_plan() predicts the same layout so the driver knows
 * the segment count before it commits.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "hmc.h"

/* Commit buffer word of each object type (word 2 and 15 are reserved) */
static const u8 irdma_hmc_commit_word[IRDMA_HMC_OBJ_MAX] = {
	[IRDMA_HMC_QP] = 0,	[IRDMA_HMC_CQ] = 1,	[IRDMA_HMC_HTE] = 3,
	[IRDMA_HMC_ARP] = 4,	[IRDMA_HMC_APBVT] = 5,	[IRDMA_HMC_MR] = 6,
	[IRDMA_HMC_XF] = 7,	[IRDMA_HMC_XFFL] = 8,	[IRDMA_HMC_Q1] = 9,
	[IRDMA_HMC_Q1FL] = 10,	[IRDMA_HMC_TIMER] = 11,	[IRDMA_HMC_FSIMC] = 12,
	[IRDMA_HMC_FSIAV] = 13,	[IRDMA_HMC_PBLE] = 14,	[IRDMA_HMC_RRF] = 16,
	[IRDMA_HMC_RRFFL] = 17,	[IRDMA_HMC_HDR] = 18,	[IRDMA_HMC_MD] = 19,
	[IRDMA_HMC_OOISC] = 20,	[IRDMA_HMC_OOISCFFL] = 21,
};

/*
 * Query buffer word of each object type; 0 means the size is fixed and
 * not reported (APBVT). Word 0 holds the SD range, word 15 misc values.
 */
static const u8 irdma_hmc_query_word[IRDMA_HMC_OBJ_MAX] = {
	[IRDMA_HMC_QP] = 1,	[IRDMA_HMC_CQ] = 2,	[IRDMA_HMC_HTE] = 4,
	[IRDMA_HMC_ARP] = 5,	[IRDMA_HMC_APBVT] = 0,	[IRDMA_HMC_MR] = 6,
	[IRDMA_HMC_XF] = 7,	[IRDMA_HMC_XFFL] = 8,	[IRDMA_HMC_Q1] = 9,
	[IRDMA_HMC_Q1FL] = 10,	[IRDMA_HMC_TIMER] = 11,	[IRDMA_HMC_FSIMC] = 12,
	[IRDMA_HMC_FSIAV] = 13,	[IRDMA_HMC_PBLE] = 14,	[IRDMA_HMC_RRF] = 16,
	[IRDMA_HMC_RRFFL] = 17,	[IRDMA_HMC_HDR] = 18,	[IRDMA_HMC_MD] = 19,
	[IRDMA_HMC_OOISC] = 20,	[IRDMA_HMC_OOISCFFL] = 21,
};

/* Objects whose query word carries only a count: their size is fixed */
static u32 irdma_hmc_fixed_size(enum irdma_hmc_obj obj)
{
	switch (obj) {
	case IRDMA_HMC_XFFL:
	case IRDMA_HMC_Q1FL:
	case IRDMA_HMC_RRFFL:
	case IRDMA_HMC_OOISCFFL:
		return 4;
	case IRDMA_HMC_PBLE:
		return 8;
	case IRDMA_HMC_APBVT:
		return 8192;
	default:
		return 0;
	}
}

/**
 * irdma_hmc_obj_present - does generation @hw_rev have object type @obj
 * @hw_rev: 1 or 2
 * @obj: object type
 *
 * Return: true if the type exists on that generation.
 */
bool irdma_hmc_obj_present(u8 hw_rev, enum irdma_hmc_obj obj)
{
	if (obj >= IRDMA_HMC_OBJ_MAX)
		return false;
	if (hw_rev != 1)
		return true;
	return obj != IRDMA_HMC_FSIMC && obj != IRDMA_HMC_FSIAV &&
	       obj < IRDMA_HMC_RRF;
}

/**
 * irdma_hmc_obj_word - commit buffer word of an object type
 * @obj: object type
 *
 * Return: the word index (byte offset / 8).
 */
unsigned int irdma_hmc_obj_word(enum irdma_hmc_obj obj)
{
	return irdma_hmc_commit_word[obj];
}

static int irdma_hmc_parse_obj(const __le64 *buf, enum irdma_hmc_obj obj,
			       struct irdma_hmc_obj_info *info)
{
	u32 fixed = irdma_hmc_fixed_size(obj);
	u64 w;
	u32 log2;

	if (obj == IRDMA_HMC_APBVT) {
		info->max_cnt = 1;
		info->size = fixed;
		return 0;
	}
	w = irdma_wqe_get(buf, irdma_hmc_query_word[obj]);
	info->max_cnt = FIELD_GET(IRDMA_FPM_QUERY_MAXCNT, w);
	if (fixed) {
		info->size = fixed;
		return 0;
	}
	log2 = FIELD_GET(IRDMA_FPM_QUERY_SIZE_LOG2, w);
	/* an object bigger than a segment cannot be placed */
	if (info->max_cnt && log2 > 21)
		return -EINVAL;
	info->size = BIT_ULL(log2);
	return 0;
}

/**
 * irdma_hmc_parse_query - read the QUERY_FPM_VAL result
 * @buf: the 176-byte buffer the device filled
 * @hw_rev: 1 or 2
 * @l: layout; sizes, maximum counts and the SD range are filled in, all
 *	counts reset to 0
 *
 * Return: 0 or -EINVAL for a revision, SD range or object size that
 * cannot be right.
 */
int irdma_hmc_parse_query(const __le64 *buf, u8 hw_rev,
			  struct irdma_hmc_layout *l)
{
	u64 w0 = irdma_wqe_get(buf, 0);
	int obj;

	if (hw_rev != 1 && hw_rev != 2)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->hw_rev = hw_rev;
	l->first_sd = FIELD_GET(IRDMA_FPM_QUERY_FIRST_SD, w0);
	l->max_sds = FIELD_GET(IRDMA_FPM_QUERY_MAX_SDS, w0);
	if (!l->max_sds || l->first_sd + l->max_sds > IRDMA_HMC_MAX_SDS)
		return -EINVAL;
	for (obj = 0; obj < IRDMA_HMC_OBJ_MAX; obj++) {
		if (!irdma_hmc_obj_present(hw_rev, obj))
			continue;
		if (irdma_hmc_parse_obj(buf, obj, &l->obj[obj]))
			return -EINVAL;
	}
	return 0;
}

/*
 * Counts per QP of the driver's default profile (numerator, denominator);
 * object types not listed get their maximum, capped by the same rule.
 */
static const struct {
	u8 mul;
	u8 div;
} irdma_hmc_ratio[IRDMA_HMC_OBJ_MAX] = {
	[IRDMA_HMC_QP] = { 1, 1 },	[IRDMA_HMC_CQ] = { 2, 1 },
	[IRDMA_HMC_HTE] = { 8, 1 },	[IRDMA_HMC_MR] = { 4, 1 },
	[IRDMA_HMC_XF] = { 4, 1 },	[IRDMA_HMC_XFFL] = { 1, 16 },
	[IRDMA_HMC_Q1] = { 2, 1 },	[IRDMA_HMC_Q1FL] = { 1, 16 },
	[IRDMA_HMC_TIMER] = { 1, 1 },	[IRDMA_HMC_FSIMC] = { 1, 1 },
	[IRDMA_HMC_FSIAV] = { 1, 1 },	[IRDMA_HMC_RRF] = { 2, 1 },
	[IRDMA_HMC_RRFFL] = { 1, 16 },	[IRDMA_HMC_HDR] = { 1, 1 },
	[IRDMA_HMC_MD] = { 1, 1 },	[IRDMA_HMC_OOISC] = { 1, 1 },
	[IRDMA_HMC_OOISCFFL] = { 1, 16 },
};

/**
 * irdma_hmc_profile_counts - choose object counts for @qps QPs
 * @l: layout from irdma_hmc_parse_query()
 * @qps: QPs wanted (at least 1)
 * @pbles: PBLEs wanted
 *
 * Each type gets its ratio per QP (see irdma_hmc_ratio), at least one,
 * never more than the device allows; ARP and APBVT get their maximum.
 *
 * Return: 0 or -EINVAL when @qps or @pbles exceed what the device allows.
 */
int irdma_hmc_profile_counts(struct irdma_hmc_layout *l, u32 qps, u32 pbles)
{
	int obj;

	if (!qps || qps > l->obj[IRDMA_HMC_QP].max_cnt ||
	    pbles > l->obj[IRDMA_HMC_PBLE].max_cnt)
		return -EINVAL;
	for (obj = 0; obj < IRDMA_HMC_OBJ_MAX; obj++) {
		struct irdma_hmc_obj_info *o = &l->obj[obj];
		u64 want;

		if (!irdma_hmc_obj_present(l->hw_rev, obj))
			continue;
		if (obj == IRDMA_HMC_PBLE)
			want = pbles;
		else if (irdma_hmc_ratio[obj].mul)
			want = max_t(u64, 1, (u64)qps * irdma_hmc_ratio[obj].mul /
					     irdma_hmc_ratio[obj].div);
		else
			want = o->max_cnt;
		o->cnt = min_t(u64, want, o->max_cnt);
	}
	return 0;
}

/**
 * irdma_hmc_plan - place the configured counts in the FPM
 * @l: layout with counts chosen
 *
 * Fills in every base, the total size and the number of SDs.
 *
 * Return: 0, -EINVAL when a count exceeds its maximum, -ENOSPC when the
 * layout needs more SDs than the function has.
 */
int irdma_hmc_plan(struct irdma_hmc_layout *l)
{
	u64 off = 0;
	int obj;

	for (obj = 0; obj < IRDMA_HMC_OBJ_MAX; obj++) {
		struct irdma_hmc_obj_info *o = &l->obj[obj];

		if (!irdma_hmc_obj_present(l->hw_rev, obj)) {
			if (o->cnt)
				return -EINVAL;
			continue;
		}
		if (o->cnt > o->max_cnt)
			return -EINVAL;
		o->base = off;
		off = ALIGN(off + (u64)o->cnt * o->size, IRDMA_FPM_BASE_UNIT);
	}
	l->total = off;
	l->sd_cnt = DIV_ROUND_UP_ULL(off, IRDMA_HMC_SD_SIZE);
	return l->sd_cnt > l->max_sds ? -ENOSPC : 0;
}

static u64 irdma_hmc_cnt_field(u8 hw_rev, enum irdma_hmc_obj obj, u64 v,
			       bool get)
{
	if (obj == IRDMA_HMC_QP)
		return get ? FIELD_GET(IRDMA_FPM_COMMIT_QPCNT, v) :
			     FIELD_PREP(IRDMA_FPM_COMMIT_QPCNT, v);
	if (obj == IRDMA_HMC_CQ && hw_rev == 1)
		return get ? FIELD_GET(IRDMA_FPM_COMMIT_CQCNT_G1, v) :
			     FIELD_PREP(IRDMA_FPM_COMMIT_CQCNT_G1, v);
	if (obj == IRDMA_HMC_CQ)
		return get ? FIELD_GET(IRDMA_FPM_COMMIT_CQCNT, v) :
			     FIELD_PREP(IRDMA_FPM_COMMIT_CQCNT, v);
	return lower_32_bits(v);
}

/**
 * irdma_hmc_build_commit - write the COMMIT_FPM_VAL buffer
 * @l: planned layout
 * @buf: 176-byte buffer
 *
 * Each word carries the count and the planned base / 512.
 */
void irdma_hmc_build_commit(const struct irdma_hmc_layout *l, __le64 *buf)
{
	int obj;

	memset(buf, 0, IRDMA_HMC_FPM_BUF_SIZE);
	for (obj = 0; obj < IRDMA_HMC_OBJ_MAX; obj++) {
		const struct irdma_hmc_obj_info *o = &l->obj[obj];

		if (!irdma_hmc_obj_present(l->hw_rev, obj))
			continue;
		irdma_wqe_set(buf, irdma_hmc_commit_word[obj],
			      irdma_hmc_cnt_field(l->hw_rev, obj, o->cnt, false) |
			      FIELD_PREP(IRDMA_FPM_COMMIT_BASE,
					 o->base / IRDMA_FPM_BASE_UNIT));
	}
}

/**
 * irdma_hmc_parse_commit - read the layout the device committed
 * @buf: COMMIT_FPM_VAL buffer as the device returned it
 * @l: layout; counts and bases are replaced, total and SD count redone
 *
 * Return: 0, -EINVAL when the device reports more objects than allowed
 * or objects that overlap, -ENOSPC when they do not fit the SDs.
 */
int irdma_hmc_parse_commit(const __le64 *buf, struct irdma_hmc_layout *l)
{
	u64 end = 0;
	int obj;

	for (obj = 0; obj < IRDMA_HMC_OBJ_MAX; obj++) {
		struct irdma_hmc_obj_info *o = &l->obj[obj];
		u64 w;

		if (!irdma_hmc_obj_present(l->hw_rev, obj))
			continue;
		w = irdma_wqe_get(buf, irdma_hmc_commit_word[obj]);
		o->cnt = irdma_hmc_cnt_field(l->hw_rev, obj, w, true);
		o->base = FIELD_GET(IRDMA_FPM_COMMIT_BASE, w) *
			  IRDMA_FPM_BASE_UNIT;
		if (o->cnt > o->max_cnt || (o->cnt && o->base < end))
			return -EINVAL;
		if (o->cnt)
			end = o->base + (u64)o->cnt * o->size;
	}
	l->total = end;
	l->sd_cnt = DIV_ROUND_UP_ULL(end, IRDMA_HMC_SD_SIZE);
	return l->sd_cnt > l->max_sds ? -ENOSPC : 0;
}

/**
 * irdma_hmc_obj_locate - where object @idx of type @obj lives
 * @l: committed layout
 * @obj: object type
 * @idx: object index
 * @sd: SD index (absolute, including the function's first SD)
 * @pd: PD index within the SD
 * @off: byte offset within the 4 KiB page
 *
 * Return: 0 or -EINVAL for an index beyond the configured count.
 */
int irdma_hmc_obj_locate(const struct irdma_hmc_layout *l,
			 enum irdma_hmc_obj obj, u32 idx, u32 *sd, u32 *pd,
			 u32 *off)
{
	u64 fpm;
	u32 in_sd;

	if (obj >= IRDMA_HMC_OBJ_MAX || idx >= l->obj[obj].cnt)
		return -EINVAL;
	fpm = l->obj[obj].base + (u64)idx * l->obj[obj].size;
	*sd = l->first_sd + div_u64_rem(fpm, IRDMA_HMC_SD_SIZE, &in_sd);
	*pd = in_sd / IRDMA_HW_PAGE_SZ;
	*off = in_sd % IRDMA_HW_PAGE_SZ;
	return 0;
}

static u32 irdma_hmc_sd_cmd(u32 sd_idx)
{
	return FIELD_PREP(IRDMA_SD_CMD_IDX, sd_idx) | IRDMA_SD_CMD_PARTSEL |
	       IRDMA_SD_CMD_WRITE;
}

/**
 * irdma_hmc_sd_set - SD update that makes segment @sd_idx valid
 * @pa: a page of 512 PD entries (paged) or a 2 MiB block (direct)
 * @sd_idx: SD index
 * @direct: the segment is one contiguous 2 MiB block
 * @out: the (cmd, data) pair for UPDATE_PE_SDS
 *
 * Return: 0 or -EINVAL for an unaligned address or an index beyond 4095.
 */
int irdma_hmc_sd_set(u64 pa, u32 sd_idx, bool direct,
		     struct irdma_sd_update *out)
{
	if (!IS_ALIGNED(pa, direct ? IRDMA_HMC_SD_SIZE : IRDMA_HW_PAGE_SZ) ||
	    sd_idx > FIELD_MAX(IRDMA_SD_CMD_IDX))
		return -EINVAL;
	out->data = pa | FIELD_PREP(IRDMA_SD_DATA_BPCOUNT, IRDMA_HMC_PD_PER_SD) |
		    FIELD_PREP(IRDMA_SD_DATA_DIRECT, direct) | IRDMA_SD_DATA_VALID;
	out->cmd = irdma_hmc_sd_cmd(sd_idx);
	return 0;
}

/**
 * irdma_hmc_sd_clear - SD update that invalidates segment @sd_idx
 * @sd_idx: SD index
 * @direct: the segment was direct
 * @out: the (cmd, data) pair for UPDATE_PE_SDS
 */
void irdma_hmc_sd_clear(u32 sd_idx, bool direct, struct irdma_sd_update *out)
{
	out->data = FIELD_PREP(IRDMA_SD_DATA_BPCOUNT, IRDMA_HMC_PD_PER_SD) |
		    FIELD_PREP(IRDMA_SD_DATA_DIRECT, direct);
	out->cmd = irdma_hmc_sd_cmd(sd_idx);
}

/**
 * irdma_hmc_pd_entry - page descriptor for one 4 KiB backing page
 * @page_pa: page address
 * @entry: the PD entry
 *
 * Return: 0 or -EINVAL for an unaligned page.
 */
int irdma_hmc_pd_entry(u64 page_pa, u64 *entry)
{
	if (!IS_ALIGNED(page_pa, IRDMA_HW_PAGE_SZ))
		return -EINVAL;
	*entry = page_pa | IRDMA_PD_ENTRY_VALID;
	return 0;
}

/**
 * irdma_hmc_pdinv - PFHMC_PDINV value that drops a cached PD
 * @sd_idx: SD index
 * @pd_idx: PD index within the SD
 *
 * Return: the register value.
 */
u32 irdma_hmc_pdinv(u32 sd_idx, u32 pd_idx)
{
	return FIELD_PREP(IRDMA_PDINV_SD_IDX, sd_idx) | IRDMA_PDINV_PARTSEL |
	       FIELD_PREP(IRDMA_PDINV_PD_IDX, pd_idx);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/hmc_test.c"
#endif
