// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: STag commands (ALLOC_STAG, REG_MR, DEALLOC_STAG).
 *
 * An STag index names an MR slot of the HMC. ALLOC_STAG reserves one for a
 * fast-register MR or a memory window; REG_MR registers memory described
 * by one buffer address or by PBLEs; DEALLOC_STAG frees the index. The
 * engine keeps what it will need to check accesses once WQEs execute: PD,
 * key, rights, base, length and where the page list is.
 *
 * Fields are checked as the engine would before it takes a command: the
 * index within the committed MR objects and free, rights that make sense
 * (remote write needs local write, remote rights need remote access
 * enabled), a length the engine can address, a known page size, and a
 * page list that lies inside the committed PBLE object with its first and
 * last entries backed and filled. A zero length is taken only without a
 * page list and at buffer address 0: the STag then spans all of memory.
 *
 * Bits 31:8 of an STag (the index field of the commands and WQEs) hold
 * the MR index in their low bits, as many as the committed MR count needs
 * and at least 14, and whatever the driver likes above them (Linux 6.1's
 * irdma puts a random key there); the whole STag must match on every
 * access.
 */
#include <linux/log2.h>
#include <linux/seq_file.h>
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

#define ISIM_STAG_MIN_INDEX_BITS	14

/* the MR index in an STag's bits 31:8 (@tag) */
static u32 isim_stag_index(struct isim_func *f, u32 tag)
{
	u32 bits = max_t(u32, order_base_2(f->hmc.cnt[ISIM_HMC_MR]),
			 ISIM_STAG_MIN_INDEX_BITS);

	return tag & (BIT(bits) - 1);
}

/* the STag whose bits 31:8 are @tag, if its upper bits match too */
static struct isim_stag *isim_stag_find(struct isim_func *f, u32 tag)
{
	struct isim_stag *st = xa_load(&f->stags, isim_stag_index(f, tag));

	return st && st->tag == tag ? st : NULL;
}

static u16 isim_stag_check_new(struct isim_func *f, u32 idx)
{
	if (!f->hmc.committed || !idx || idx >= f->hmc.cnt[ISIM_HMC_MR])
		return ISIM_MIN_BAD_ID;
	if (xa_load(&f->stags, idx))
		return ISIM_MIN_EXISTS;
	return ISIM_MIN_OK;
}

/* PD id of an STag command's word 1: 62:48 on gen1, 63:46 on gen2 */
static u32 isim_stag_pd(struct isim_func *f, u64 w1)
{
	if (f->gen == ISIM_GEN1)
		return FIELD_GET(ISIM_STAG_W1_G1_PD, w1);
	return FIELD_GET(ISIM_STAG_W1_PD, w1);
}

static void isim_stag_fill(struct isim_func *f, struct isim_stag *st,
			   const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR];

	st->tag = FIELD_GET(ISIM_STAG_W2_INDEX, wqe[2]);
	st->index = isim_stag_index(f, st->tag);
	st->key = FIELD_GET(ISIM_STAG_W2_KEY, wqe[2]);
	st->len = FIELD_GET(ISIM_STAG_W1_LEN, wqe[1]);
	st->pd = isim_stag_pd(f, wqe[1]);
	st->rights = FIELD_GET(ISIM_STAG_HDR_RIGHTS, hdr);
	st->remote = hdr & ISIM_STAG_HDR_REMOTE;
	st->mr = hdr & ISIM_STAG_HDR_MR;
	st->mw_type1 = !st->mr && (hdr & ISIM_STAG_HDR_MW_TYPE1);
	st->pbl_code = FIELD_GET(ISIM_STAG_HDR_PBL_LEVELS, hdr);
	/* the field codes a two-level list as 3; 2 is reserved */
	st->pbl_levels = st->pbl_code == 3 ? 2 : st->pbl_code;
	st->page_size = FIELD_GET(ISIM_STAG_HDR_PAGE_SIZE, hdr);
	st->va_based = hdr & ISIM_STAG_HDR_VA_BASED;
	if (st->pbl_levels)
		st->first_pble = FIELD_GET(ISIM_STAG_W6_FIRST_PBLE, wqe[6]);
}

/* Rights the engine accepts: remote write needs local write */
static u16 isim_stag_check_rights(u8 rights, bool remote)
{
	if ((rights & ISIM_RIGHT_REMOTE_WRITE) &&
	    !(rights & ISIM_RIGHT_LOCAL_WRITE))
		return ISIM_MIN_BAD_FIELD;
	if ((rights & (ISIM_RIGHT_REMOTE_READ | ISIM_RIGHT_REMOTE_WRITE)) &&
	    !remote)
		return ISIM_MIN_BAD_FIELD;
	return ISIM_MIN_OK;
}

/* The page list of @st lies in the PBLE object, first and last entry set */
static u16 isim_stag_check_pbl(struct isim_func *f,
			       const struct isim_stag *st)
{
	u64 pgsz = SZ_4K << (9 * st->page_size), pa;
	u64 fbo = st->va_based ? st->va & (pgsz - 1) : st->va;
	u64 pages = DIV_ROUND_UP_ULL(fbo + st->len, pgsz);
	u64 last = st->first_pble + pages - 1;

	if (!pages || last >= f->hmc.cnt[ISIM_HMC_PBLE])
		return ISIM_MIN_BAD_FIELD;
	/* fast-register fills the list later; ALLOC_STAG only reserves it */
	if (!st->registered)
		return ISIM_MIN_OK;
	if (isim_hmc_pble(f, st->first_pble, &pa) ||
	    isim_hmc_pble(f, last, &pa))
		return ISIM_MIN_HMC_UNBACKED;
	return ISIM_MIN_OK;
}

static u16 isim_stag_check(struct isim_func *f, const struct isim_stag *st)
{
	u16 minor = isim_stag_check_new(f, st->index);

	if (minor)
		return minor;
	if (st->page_size > ISIM_STAG_PAGE_1G || st->len > ISIM_STAG_MAX_LEN)
		return ISIM_MIN_BAD_FIELD;
	if (st->pbl_code == 2)
		return ISIM_MIN_BAD_FIELD;
	if (st->pbl_levels > 1)
		return ISIM_MIN_UNSUPPORTED;
	minor = isim_stag_check_rights(st->rights, st->remote);
	if (minor || !st->mr)
		return minor;
	if (st->pbl_levels)
		return isim_stag_check_pbl(f, st);
	/* one buffer: page aligned, or all of memory with no length */
	if (st->registered && (st->buf_pa & (SZ_4K - 1)))
		return ISIM_MIN_BAD_ALIGN;
	if (!st->len && (st->buf_pa || !st->registered))
		return ISIM_MIN_BAD_FIELD;
	return ISIM_MIN_OK;
}

static void isim_stag_add(struct isim_func *f, const u64 *wqe, bool reg,
			  struct isim_res *res)
{
	struct isim_stag *st;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	isim_stag_fill(f, st, wqe);
	st->registered = reg;
	st->fast_reg = st->mr && !reg;
	if (reg) {
		st->va = wqe[0];
		st->buf_pa = st->pbl_levels ? 0 : wqe[4];
	}
	res->minor = isim_stag_check(f, st);
	if (!res->minor && xa_insert(&f->stags, st->index, st, GFP_KERNEL))
		res->minor = ISIM_MIN_BUSY;
	if (res->minor)
		kfree(st);
}

/* ---- the data path's view of an STag ---- */

/* The registered MR or bound MW @stag names, key included */
static const struct isim_stag *isim_stag_mr(struct isim_func *f, u32 stag)
{
	const struct isim_stag *st = isim_stag_find(f, stag >> 8);

	lockdep_assert_held(&f->eng_lock);
	if (!st || !st->registered || st->key != (u8)stag)
		return NULL;
	return st;
}

/* Byte offset of @addr from the start of the MR's first page */
static u64 isim_stag_pos(const struct isim_stag *st, u64 addr, u64 pgsz)
{
	u64 fbo = st->va_based ? st->va & (pgsz - 1) : st->va;

	return fbo + (st->va_based ? addr - st->va : addr);
}

/**
 * isim_stag_access - may a QP reach a range through an STag
 * @f: function
 * @stag: STag of the fragment (not 0)
 * @pd: the QP's protection domain
 * @rights: ISIM_RIGHT_* needed (local read is implied)
 * @addr: VA (or offset, for a zero-based MR) of the first byte
 * @len: bytes
 *
 * Return: 0, or -EPERM when @stag is no registered MR of @pd with that
 * key, lacks @rights or does not cover the range.
 */
int isim_stag_access(struct isim_func *f, u32 stag, u32 pd, u8 rights,
		     u64 addr, u64 len)
{
	const struct isim_stag *st = isim_stag_mr(f, stag);
	u64 off;

	if (!st || st->pd != pd || (st->rights & rights) != rights)
		return -EPERM;
	/* a window is for remote access only */
	if (!st->mr && !(rights & (ISIM_RIGHT_REMOTE_READ |
				   ISIM_RIGHT_REMOTE_WRITE)))
		return -EPERM;
	/* no length and no page list: all of memory */
	if (!st->len)
		return 0;
	if (st->va_based && addr < st->va)
		return -EPERM;
	off = st->va_based ? addr - st->va : addr;
	return off <= st->len && len <= st->len - off ? 0 : -EPERM;
}

/**
 * isim_stag_translate - the bus address behind a byte of an MR
 * @f: function
 * @stag: STag, checked with isim_stag_access() before
 * @addr: VA (or offset) of the byte
 * @bus: its bus address
 * @contig: bytes from there to the end of its page
 *
 * Return: 0 or -EFAULT (the MR or its PBLE is gone).
 */
int isim_stag_translate(struct isim_func *f, u32 stag, u64 addr, u64 *bus,
			u64 *contig)
{
	const struct isim_stag *st = isim_stag_mr(f, stag);
	u64 pgsz, pos, page;

	/* a VA-based window: the same address in its MR */
	if (st && !st->mr)
		st = isim_stag_mr(f, st->parent);
	if (!st || !st->mr)
		return -EFAULT;
	if (!st->len) {
		*bus = addr;
		*contig = U64_MAX;
		return 0;
	}
	pgsz = SZ_4K << (9 * st->page_size);
	pos = isim_stag_pos(st, addr, pgsz);
	*contig = pgsz - pos % pgsz;
	if (!st->pbl_levels) {
		*bus = st->buf_pa + pos;
		return 0;
	}
	if (isim_hmc_pble(f, st->first_pble + pos / pgsz, &page))
		return -EFAULT;
	*bus = page + pos % pgsz;
	return 0;
}

/**
 * isim_stag_bind - execute a BIND_MW WQE
 * @f: function
 * @pd: protection domain of the QP that posted it
 * @wqe: the WQE, CPU order
 *
 * The window must be an allocated MW of @pd of the WQE's type, the parent
 * a registered MR of @pd with the bind right that covers the range; the
 * window takes the STag's new key, the range and the rights. A type 1
 * window bound with length 0 is unbound. Zero-based windows are not
 * modelled.
 *
 * Return: 0 or -EPERM.
 */
int isim_stag_bind(struct isim_func *f, u32 pd, const u64 *wqe)
{
	bool g1 = f->gen == ISIM_GEN1;
	u32 mw = g1 ? FIELD_GET(ISIM_WQB_W1_MR_STAG, wqe[1]) :
		      FIELD_GET(ISIM_WQB_W1_MW_STAG, wqe[1]);
	u32 mr = g1 ? FIELD_GET(ISIM_WQB_W1_MW_STAG, wqe[1]) :
		      FIELD_GET(ISIM_WQB_W1_MR_STAG, wqe[1]);
	u64 hdr = wqe[ISIM_WQE_HDR], len = wqe[2];
	struct isim_stag *st = isim_stag_find(f, mw >> 8);
	bool type1 = hdr & ISIM_WQB_HDR_TYPE1;
	const struct isim_stag *parent;

	lockdep_assert_held(&f->eng_lock);
	if (!st || st->mr || st->mw_type1 != type1 || st->pd != pd ||
	    !(hdr & ISIM_WQB_HDR_VA_BASED))
		return -EPERM;
	if (type1 && !len) {
		st->registered = false;
		return 0;
	}
	parent = isim_stag_mr(f, mr);
	if (!parent || !parent->mr || !len ||
	    isim_stag_access(f, mr, pd, ISIM_RIGHT_MW_BIND, wqe[0], len))
		return -EPERM;
	st->key = (u8)mw;
	st->parent = mr;
	st->va = wqe[0];
	st->len = len;
	st->va_based = true;
	st->rights = FIELD_GET(ISIM_WQB_HDR_RIGHTS, hdr);
	st->registered = true;
	return 0;
}

/**
 * isim_stag_fast_reg - execute a fast-register WQE
 * @f: function
 * @pd: protection domain of the QP that posted it
 * @wqe: the WQE, CPU order
 *
 * The STag must be an MR that ALLOC_STAG reserved for @pd, not mapped at
 * the moment (invalidated, or never registered). It takes the WQE's key,
 * VA, length, rights and page list: one page at the address of word 1,
 * or single-level PBLEs from the index of words 1 and 2, which must lie in
 * the PBLE object, backed. Remote rights need the remote access the
 * ALLOC_STAG enabled.
 *
 * Return: 0 or -EPERM (nothing changes then).
 */
int isim_stag_fast_reg(struct isim_func *f, u32 pd, const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR], pgsz, fbo;
	struct isim_stag *st, next;

	lockdep_assert_held(&f->eng_lock);
	st = isim_stag_find(f, FIELD_GET(ISIM_WQF_HDR_INDEX, hdr));
	if (!st || !st->fast_reg || st->registered || st->pd != pd)
		return -EPERM;
	next = *st;
	next.key = FIELD_GET(ISIM_WQF_HDR_KEY, hdr);
	next.va = wqe[0];
	next.len = FIELD_GET(ISIM_WQF_W2_LEN, wqe[2]);
	next.rights = FIELD_GET(ISIM_WQB_HDR_RIGHTS, hdr);
	next.va_based = hdr & ISIM_WQB_HDR_VA_BASED;
	next.page_size = FIELD_GET(ISIM_WQF_HDR_PAGE_SIZE, hdr);
	next.pbl_code = FIELD_GET(ISIM_WQF_HDR_PBL_LEVELS, hdr);
	next.pbl_levels = next.pbl_code;
	next.first_pble = FIELD_GET(ISIM_WQF_W1_PBLE_HI, wqe[1]) << 16 |
			  FIELD_GET(ISIM_WQF_W2_PBLE_LO, wqe[2]);
	next.buf_pa = wqe[1] & ISIM_WQF_W1_FIRST_PAGE;
	next.registered = true;
	/* a mapping must have a length: 0 would mean all of memory */
	if (!next.len || next.len > ISIM_STAG_MAX_LEN ||
	    next.pbl_levels > 1 || next.page_size > ISIM_STAG_PAGE_1G ||
	    isim_stag_check_rights(next.rights, next.remote))
		return -EPERM;
	if (next.pbl_levels) {
		if (isim_stag_check_pbl(f, &next))
			return -EPERM;
	} else {
		/* no page list: the range lies in the one page */
		pgsz = SZ_4K << (9 * next.page_size);
		fbo = next.va_based ? next.va & (pgsz - 1) : next.va;
		if (fbo + next.len > pgsz)
			return -EPERM;
	}
	*st = next;
	return 0;
}

/**
 * isim_stag_invalidate - execute a local or remote invalidation
 * @f: function
 * @pd: protection domain of the QP that asks for it
 * @stag: the STag, key included
 *
 * Only what a fast-register WQE or a bind maps can be unmapped: a mapped
 * fast-register MR or a bound type 2 window of @pd, with that key. The
 * STag keeps its index and waits for the next fast register or bind.
 *
 * Return: 0 or -EPERM.
 */
int isim_stag_invalidate(struct isim_func *f, u32 pd, u32 stag)
{
	struct isim_stag *st = isim_stag_find(f, stag >> 8);

	lockdep_assert_held(&f->eng_lock);
	if (!st || !st->registered || st->key != (u8)stag || st->pd != pd ||
	    (!st->fast_reg && (st->mr || st->mw_type1)))
		return -EPERM;
	st->registered = false;
	isim_hwc_add(f, ISIM_GS_INVALIDATES, 1);
	return 0;
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
 * The memory is one buffer at word 4 or a list of single-level PBLEs from
 * word 6. Two-level lists are not modelled.
 */
void isim_op_reg_mr(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res)
{
	if (!(wqe[ISIM_WQE_HDR] & ISIM_STAG_HDR_MR)) {
		res->minor = ISIM_MIN_BAD_FIELD;
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
 * The MR flag and the PD must match what the index was allocated with.
 */
void isim_op_dealloc_stag(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	struct isim_stag *st = isim_stag_find(f, FIELD_GET(ISIM_STAG_W2_INDEX,
							   wqe[2]));

	if (!st) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	if (st->mr != !!(wqe[ISIM_WQE_HDR] & ISIM_STAG_HDR_MR) ||
	    st->pd != isim_stag_pd(f, wqe[1])) {
		res->minor = ISIM_MIN_BAD_FIELD;
		return;
	}
	xa_erase(&f->stags, st->index);
	kfree(st);
}

static const char *isim_stag_kind(const struct isim_stag *st)
{
	if (st->mr)
		return st->registered ? "mr" : "fastreg";
	return st->mw_type1 ? "mw1" : "mw2";
}

/**
 * isim_stag_show - list the STags in the function's debugfs state
 * @s: the state file
 * @f: function; the caller holds its engine lock
 */
void isim_stag_show(struct seq_file *s, struct isim_func *f)
{
	struct isim_stag *st;
	unsigned long idx;

	lockdep_assert_held(&f->eng_lock);
	xa_for_each(&f->stags, idx, st)
		seq_printf(s, "stag 0x%08x: kind=%s pd=%u len=%llu va=0x%llx rights=0x%x remote=%d pbl=%u first_pble=%u page=%u\n",
			   st->tag << 8 | st->key, isim_stag_kind(st),
			   st->pd, st->len, st->va, st->rights, st->remote,
			   st->pbl_levels, st->first_pble, st->page_size);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/stag_test.c"
#endif
