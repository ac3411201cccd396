// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the host memory cache (HMC).
 *
 * The engine keeps its object contexts in host memory the driver provides.
 * QUERY_FPM tells the driver how many objects of each kind the function
 * supports and how large each is; COMMIT_FPM fixes how many the driver
 * wants and where each kind starts in the function's HMC address space;
 * UPDATE_PE_SDS backs that space with 2 MiB segments, either one direct
 * 2 MiB page or a page of 512 page descriptors (PDs). The engine resolves
 * an HMC offset through the SD and, for paged SDs, the PD read from host
 * memory on every access (it caches nothing, so PDINV needs no action).
 */
#include <linux/log2.h>

#include "isim.h"

/*
 * Function limits reported by QUERY_FPM: max count and log2 of the size.
 * The counts are the simulator's choice (the adapter's are not public),
 * but they hold together the way a driver sizes its HMC for the hardware
 * (Linux 6.1's irdma, cfg_fpm_value_gen_2()): per QP, 2 x IRD Q1 entries
 * and 4 free-list blocks of XF entries, 32 RRF and OOISC entries, and
 * (QPs / 512 + 1) timer buckets. They allow 512 QPs so provisioned
 * within a small part of the SD window; a driver that sizes more sparely
 * gets up to the QP limit.
 */
static const struct {
	u32 max;
	u8 size_log;
} isim_hmc_limits[ISIM_HMC_NUM] = {
	[ISIM_HMC_QP]		= { 4096, 9 },
	[ISIM_HMC_CQ]		= { 4096, 5 },
	[ISIM_HMC_HTE]		= { 8192, 5 },
	[ISIM_HMC_ARP]		= { 1024, 5 },
	[ISIM_HMC_APBVT]	= { 1, 13 },
	[ISIM_HMC_MR]		= { 8192, 6 },
	[ISIM_HMC_XF]		= { 1 << 17, 6 },
	[ISIM_HMC_XFFL]		= { 1 << 11, 2 },
	[ISIM_HMC_Q1]		= { 1 << 17, 6 },
	[ISIM_HMC_Q1FL]		= { 1 << 11, 2 },
	[ISIM_HMC_TIMER]	= { (4096 / 512 + 1) * 512, 8 },
	[ISIM_HMC_FSIMC]	= { 64, 6 },
	[ISIM_HMC_FSIAV]	= { 32768, 6 },
	[ISIM_HMC_PBLE]		= { 1 << 18, 3 },
	[ISIM_HMC_RRF]		= { 1 << 17, 6 },
	[ISIM_HMC_RRFFL]	= { 1 << 11, 2 },
	[ISIM_HMC_HDR]		= { 4096, 6 },
	[ISIM_HMC_MD]		= { 4096, 6 },
	[ISIM_HMC_OOISC]	= { 1 << 17, 6 },
	[ISIM_HMC_OOISCFFL]	= { 1 << 11, 2 },
};

/*
 * gen1 provisions an XF entry per WQE of every QP (i40iw's
 * cfg_fpm_value_gen_1()), and a driver that does so fills the SD window
 * by halving its QPs; its SD window is small, so that it does so within
 * a few MiB, and its PBLE limit lets the rest of the window hold PBLEs.
 */
#define ISIM_G1_MAX_SDS		16
#define ISIM_G1_XF_MAX		BIT(19)
#define ISIM_G1_PBLE_MAX	BIT(22)

#define ISIM_FL_BLOCK		64	/* free-list block size */
#define ISIM_HT_MULT		2
#define ISIM_TIMER_BUCKETS	512

/* the SDs the function offers from SD 0 */
static u32 isim_hmc_max_sds(struct isim_func *f)
{
	return f->gen == ISIM_GEN1 ? ISIM_G1_MAX_SDS : ISIM_MAX_SDS;
}

/**
 * isim_hmc_obj_present - the function's generation has object type @obj
 * @f: function
 * @obj: object type (enum isim_hmc_obj)
 *
 * gen1 (X722) has the types up to PBLE, without the multicast (FSIMC) and
 * address handle (FSIAV) contexts: it reports them, and takes them in a
 * commit, as count 0.
 *
 * Return: true if it has.
 */
bool isim_hmc_obj_present(struct isim_func *f, unsigned int obj)
{
	if (f->gen != ISIM_GEN1)
		return true;
	return obj != ISIM_HMC_FSIMC && obj != ISIM_HMC_FSIAV &&
	       obj <= ISIM_HMC_PBLE;
}

/**
 * isim_hmc_reset - forget the committed layout and every SD
 * @f: function
 */
void isim_hmc_reset(struct isim_func *f)
{
	struct isim_hmc *h = &f->hmc;
	int i;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < ISIM_HMC_NUM; i++) {
		if (!isim_hmc_obj_present(f, i))
			continue;
		h->max[i] = isim_hmc_limits[i].max;
		h->size_log[i] = isim_hmc_limits[i].size_log;
	}
	if (f->gen == ISIM_GEN1) {
		h->max[ISIM_HMC_XF] = ISIM_G1_XF_MAX;
		h->max[ISIM_HMC_XFFL] = ISIM_G1_XF_MAX / ISIM_FL_BLOCK;
		h->max[ISIM_HMC_PBLE] = ISIM_G1_PBLE_MAX;
	}
}

static bool isim_hmc_is_freelist(unsigned int obj)
{
	return obj == ISIM_HMC_XFFL || obj == ISIM_HMC_Q1FL ||
	       obj == ISIM_HMC_RRFFL || obj == ISIM_HMC_OOISCFFL;
}

/* query slot of an object; QP..ARP sit one slot later than in commit */
static int isim_fpmq_slot(unsigned int obj)
{
	if (obj == ISIM_HMC_RSVD || obj == ISIM_HMC_APBVT ||
	    obj == ISIM_HMC_RSVD2)
		return -1;
	return obj <= ISIM_HMC_ARP ? obj + 1 : obj;
}

static void isim_fpm_fill_query(struct isim_func *f, __le64 *buf)
{
	struct isim_hmc *h = &f->hmc;
	unsigned int obj;
	u64 v;
	int slot;

	for (obj = 0; obj < ISIM_HMC_NUM; obj++) {
		slot = isim_fpmq_slot(obj);
		if (slot < 0)
			continue;
		if (!isim_hmc_obj_present(f, obj))
			v = 0;
		else if (isim_hmc_is_freelist(obj))
			v = FIELD_PREP(ISIM_FPMQ_BLOCK, ISIM_FL_BLOCK);
		else if (obj == ISIM_HMC_PBLE)
			v = 0;
		else
			v = FIELD_PREP(ISIM_FPMQ_SIZE_LOG, h->size_log[obj]);
		buf[slot] = cpu_to_le64(v | h->max[obj]);
	}
	buf[0] = cpu_to_le64(FIELD_PREP(ISIM_FPMQ_FIRST_SD, 0) |
			     FIELD_PREP(ISIM_FPMQ_MAX_SDS, isim_hmc_max_sds(f)));
	buf[ISIM_FPMQ_SLOT_MISC] =
		cpu_to_le64(FIELD_PREP(ISIM_FPMQ_MAX_CEQS, ISIM_MAX_CEQS) |
			    FIELD_PREP(ISIM_FPMQ_HT_MULT, ISIM_HT_MULT) |
			    FIELD_PREP(ISIM_FPMQ_TIMER_BUCKET,
				       ISIM_TIMER_BUCKETS));
}

static u16 isim_fpm_check_wqe(struct isim_func *f, const u64 *wqe)
{
	if (FIELD_GET(ISIM_FPM_W2_FN, wqe[2]) != f->id)
		return ISIM_MIN_BAD_ID;
	if (wqe[4] & 7)
		return ISIM_MIN_BAD_ALIGN;
	return ISIM_MIN_OK;
}

/**
 * isim_op_query_fpm - QUERY_FPM_VAL: report the function's HMC limits
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_query_fpm(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	__le64 buf[ISIM_FPM_BUF_BYTES / 8] = {};

	res->minor = isim_fpm_check_wqe(f, wqe);
	if (res->minor)
		return;
	isim_fpm_fill_query(f, buf);
	if (isim_dma_write(f, wqe[4], buf, sizeof(buf)))
		res->minor = ISIM_MIN_DMA_FAULT;
}

static u32 isim_fpmc_count(struct isim_func *f, unsigned int obj, u64 v)
{
	if (obj == ISIM_HMC_QP)
		return FIELD_GET(ISIM_FPMC_QP_COUNT, v);
	if (obj == ISIM_HMC_CQ && f->gen == ISIM_GEN1)
		return FIELD_GET(ISIM_FPMC_G1_CQ_COUNT, v);
	if (obj == ISIM_HMC_CQ)
		return FIELD_GET(ISIM_FPMC_CQ_COUNT, v);
	if (obj == ISIM_HMC_APBVT)
		return 1;
	return FIELD_GET(ISIM_FPMC_COUNT, v);
}

static u64 isim_hmc_obj_bytes(struct isim_hmc *h, unsigned int obj)
{
	if (isim_hmc_is_freelist(obj))
		return (u64)h->cnt[obj] * 4;
	return (u64)h->cnt[obj] << h->size_log[obj];
}

/*
 * The engine places the object types itself, in their slot order, each
 * base rounded up to 512 bytes (a type with no objects takes no room),
 * and returns the bases in the commit buffer: Linux 6.1's irdma sends
 * counts only and reads every base back from there.
 */
static u64 isim_fpm_place(struct isim_func *f)
{
	struct isim_hmc *h = &f->hmc;
	unsigned int obj;
	u64 off = 0;

	for (obj = 0; obj < ISIM_HMC_NUM; obj++) {
		h->base[obj] = h->cnt[obj] ? off : 0;
		off = ALIGN(off + isim_hmc_obj_bytes(h, obj),
			    ISIM_FPMC_BASE_UNIT);
	}
	return off;
}

/* the commit buffer as the engine returns it: counts and bases */
static void isim_fpm_fill_commit(struct isim_func *f, __le64 *buf)
{
	struct isim_hmc *h = &f->hmc;
	unsigned int obj;
	u64 v;

	for (obj = 0; obj < ISIM_HMC_NUM; obj++) {
		v = le64_to_cpu(buf[obj]) & ~ISIM_FPMC_BASE;
		if (obj == ISIM_HMC_APBVT)
			v = FIELD_PREP(ISIM_FPMC_COUNT, h->cnt[obj]);
		else if (obj == ISIM_HMC_RSVD || obj == ISIM_HMC_RSVD2)
			v = 0;
		v |= FIELD_PREP(ISIM_FPMC_BASE,
				h->base[obj] / ISIM_FPMC_BASE_UNIT);
		buf[obj] = cpu_to_le64(v);
	}
}

/* validate a commit buffer's counts against the limits, then place them */
static u16 isim_fpm_adopt(struct isim_func *f, const __le64 *buf)
{
	struct isim_hmc *h = &f->hmc;
	u32 cnt[ISIM_HMC_NUM];
	unsigned int obj;

	for (obj = 0; obj < ISIM_HMC_NUM; obj++) {
		cnt[obj] = isim_fpmc_count(f, obj, le64_to_cpu(buf[obj]));
		if (obj == ISIM_HMC_RSVD || obj == ISIM_HMC_RSVD2)
			cnt[obj] = 0;
		/* a type the generation lacks: max 0, only count 0 passes */
		if (cnt[obj] > h->max[obj])
			return ISIM_MIN_BAD_SIZE;
	}
	memcpy(h->cnt, cnt, sizeof(cnt));
	if (isim_fpm_place(f) > (u64)isim_hmc_max_sds(f) * ISIM_SD_BYTES)
		return ISIM_MIN_BAD_SIZE;
	h->committed = true;
	return ISIM_MIN_OK;
}

/**
 * isim_op_commit_fpm - COMMIT_FPM_VAL: adopt the driver's object counts
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The engine lays the objects out (isim_fpm_place()) and writes the
 * buffer back with their bases. A count above the reported limit, or a
 * layout reaching beyond the SD window, fails the command and leaves the
 * function with no committed layout: HMC-backed commands then fail until
 * a good commit.
 */
void isim_op_commit_fpm(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	__le64 buf[ISIM_FPM_BUF_BYTES / 8];

	res->minor = isim_fpm_check_wqe(f, wqe);
	if (res->minor)
		return;
	if (isim_dma_read(f, wqe[4], buf, sizeof(buf))) {
		res->minor = ISIM_MIN_DMA_FAULT;
		return;
	}
	f->hmc.committed = false;
	res->minor = isim_fpm_adopt(f, buf);
	if (res->minor)
		return;
	isim_fpm_fill_commit(f, buf);
	if (isim_dma_write(f, wqe[4], buf, sizeof(buf))) {
		f->hmc.committed = false;
		res->minor = ISIM_MIN_DMA_FAULT;
	}
}

static u16 isim_sd_write(struct isim_func *f, u64 cmd, u64 data)
{
	u32 idx = FIELD_GET(ISIM_SDCMD_INDEX, cmd);
	struct isim_sd *sd;

	if (!(cmd & ISIM_SDCMD_WRITE))
		return ISIM_MIN_BAD_FIELD;
	if (idx >= isim_hmc_max_sds(f))
		return ISIM_MIN_BAD_ID;
	sd = &f->hmc.sd[idx];
	if (!(data & ISIM_SDDATA_VALID)) {
		memset(sd, 0, sizeof(*sd));
		return ISIM_MIN_OK;
	}
	sd->direct = data & ISIM_SDDATA_DIRECT;
	sd->addr = data & ISIM_SDDATA_ADDR;
	if (sd->direct && !IS_ALIGNED(sd->addr, ISIM_SD_BYTES)) {
		memset(sd, 0, sizeof(*sd));
		return ISIM_MIN_BAD_ALIGN;
	}
	sd->valid = true;
	f->hmc.sd_updates++;
	return ISIM_MIN_OK;
}

static u16 isim_sds_inline(struct isim_func *f, const u64 *wqe)
{
	static const u8 at[ISIM_SDS_INLINE] = { 0, 4, 6 };
	u16 minor;
	int i;

	for (i = 0; i < ISIM_SDS_INLINE; i++) {
		u64 cmd = wqe[at[i]];

		/* the first entry is always present */
		if (i && !(cmd & ISIM_SDCMD_ENTRY_VALID))
			continue;
		minor = isim_sd_write(f, cmd, wqe[at[i] + 1]);
		if (minor)
			return minor;
	}
	return ISIM_MIN_OK;
}

static u16 isim_sds_buffer(struct isim_func *f, u64 addr, u32 n)
{
	__le64 e[2];
	u16 minor;
	u32 i;

	for (i = 0; i < n; i++, addr += ISIM_SDS_ENTRY_BYTES) {
		if (isim_dma_read(f, addr, e, sizeof(e)))
			return ISIM_MIN_DMA_FAULT;
		minor = isim_sd_write(f, le64_to_cpu(e[0]), le64_to_cpu(e[1]));
		if (minor)
			return minor;
	}
	return ISIM_MIN_OK;
}

/**
 * isim_op_update_sds - UPDATE_PE_SDS: write segment descriptors
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * Up to three entries sit in the WQE; more follow in a host buffer whose
 * address shares word 2 with the HMC function id.
 */
void isim_op_update_sds(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	u32 more = FIELD_GET(ISIM_SDS_HDR_MEM_ENTRIES, wqe[ISIM_WQE_HDR]);

	if (FIELD_GET(ISIM_SDS_W2_FN, wqe[2]) != f->id) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	res->minor = isim_sds_inline(f, wqe);
	if (!res->minor && more)
		res->minor = isim_sds_buffer(f, wqe[2] & ISIM_SDS_W2_BUF, more);
}

/**
 * isim_op_manage_pmfn - MANAGE_HMC_PM_FUNC_TABLE
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The simulated function has no VFs; the command is accepted for the
 * function's own index only.
 */
void isim_op_manage_pmfn(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res)
{
	if (FIELD_GET(ISIM_PMFN_HDR_VF, wqe[ISIM_WQE_HDR]) != f->id)
		res->minor = ISIM_MIN_BAD_ID;
}

/**
 * isim_op_shmc_pages - SHMC_PAGES_ALLOCATED
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The driver says it has backed the HMC pages of the objects it
 * committed (Linux 6.1's irdma sends it once, after UPDATE_PE_SDS). The
 * engine resolves every access through the SDs anyway, so it only checks
 * the HMC function and that a layout is committed.
 */
void isim_op_shmc_pages(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	if (FIELD_GET(ISIM_SHMC_W2_FN, wqe[2]) != f->id)
		res->minor = ISIM_MIN_BAD_ID;
	else if (!f->hmc.committed)
		res->minor = ISIM_MIN_NO_OBJECT;
}

/* resolve an HMC offset to a bus address; [off, off+len) in one page */
static int isim_hmc_resolve(struct isim_func *f, u64 off, u64 *addr)
{
	struct isim_sd *sd;
	u32 idx = off / ISIM_SD_BYTES;
	__le64 pde;

	if (idx >= ISIM_MAX_SDS || !f->hmc.sd[idx].valid)
		return -ENOENT;
	sd = &f->hmc.sd[idx];
	if (sd->direct) {
		*addr = sd->addr + off % ISIM_SD_BYTES;
		return 0;
	}
	idx = (off % ISIM_SD_BYTES) / ISIM_PD_BYTES;
	if (isim_dma_read(f, sd->addr + idx * 8, &pde, sizeof(pde)))
		return -EFAULT;
	if (!(le64_to_cpu(pde) & ISIM_PDE_VALID))
		return -ENOENT;
	*addr = (le64_to_cpu(pde) & ISIM_PDE_ADDR) + off % ISIM_PD_BYTES;
	return 0;
}

/**
 * isim_hmc_pble - read one single-level PBLE
 * @f: function
 * @idx: PBLE index
 * @pa: the page address it holds
 *
 * Return: 0, -ENOENT if the PBLE is outside the committed range or not
 * backed, -EFAULT on a DMA fault.
 */
int isim_hmc_pble(struct isim_func *f, u32 idx, u64 *pa)
{
	struct isim_hmc *h = &f->hmc;
	__le64 v;
	u64 addr;
	int err;

	if (!h->committed || idx >= h->cnt[ISIM_HMC_PBLE])
		return -ENOENT;
	err = isim_hmc_resolve(f, h->base[ISIM_HMC_PBLE] + (u64)idx * 8,
			       &addr);
	if (!err)
		err = isim_dma_read(f, addr, &v, sizeof(v));
	if (err)
		return err;
	*pa = le64_to_cpu(v);
	return *pa ? 0 : -ENOENT;
}

/**
 * isim_hmc_obj_write - store an object context in the HMC
 * @f: function
 * @obj: object kind (enum isim_hmc_obj)
 * @idx: object index
 * @buf: context
 * @len: bytes, at most the object size
 *
 * Return: 0, -ENOENT if the index is outside the committed count or its
 * memory is not backed by an SD and PD, -EFAULT on a DMA fault.
 */
int isim_hmc_obj_write(struct isim_func *f, unsigned int obj, u32 idx,
		       const void *buf, size_t len)
{
	struct isim_hmc *h = &f->hmc;
	size_t chunk;
	u64 off, addr;
	int err;

	if (!h->committed || idx >= h->cnt[obj] ||
	    len > BIT_ULL(h->size_log[obj]))
		return -ENOENT;
	off = h->base[obj] + ((u64)idx << h->size_log[obj]);
	while (len) {
		chunk = min_t(size_t, len, ISIM_PD_BYTES - off % ISIM_PD_BYTES);
		err = isim_hmc_resolve(f, off, &addr);
		if (!err)
			err = isim_dma_write(f, addr, buf, chunk);
		if (err)
			return err;
		off += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}
