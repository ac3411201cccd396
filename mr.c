// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: memory regions and memory windows.
 *
 * Every MR and MW is an STag: the index of an MR object in the function's
 * HMC in bits 31:8 and a key byte in bits 7:0. The index comes from a
 * per-device allocator bounded by the HMC's MR count; index 0 is never
 * handed out, so no STag we make equals 0, the privileged lkey that kernel
 * QPs use for DMA addresses (IBK_LOCAL_DMA_LKEY). The key starts random and
 * belongs to the consumer after that (fast-register may change it).
 *
 * - reg_user_mr pins the pages, picks the largest page size the engine
 *   takes that fits the buffer, lists the pages in level-1 PBLEs (one page
 *   goes straight into the command) and registers them with REG_MR.
 * - get_dma_mr registers a zero-length STag with no page list, which the
 *   engine reads as the whole of memory. The core asks for one only for a
 *   PD with an unsafe global rkey, because kernel QPs use lkey 0.
 * - alloc_mr reserves an STag with ALLOC_STAG and a run of PBLEs that
 *   map_mr_sg fills; a fast-register WR then points the STag at them.
 * - alloc_mw reserves an STag for a type 1 or type 2 window.
 * - dereg_mr and dealloc_mw give the STag back with DEALLOC_STAG.
 *
 * An STag the engine did not deallocate is still live: a peer holding the
 * key can write through it. So when DEALLOC_STAG fails, the pages stay
 * pinned, the PBLEs and the index stay allocated and the verb returns the
 * error; the MR or MW stays valid and the consumer may try again. Only
 * an engine the driver has given up (irdma_hw_given_up(): the function is
 * being reset) lets everything go at once.
 */
#include <linux/bitfield.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/irdma-abi.h>
#include <rdma/iter.h>

#include "main.h"
#include "hw.h"
#include "mr.h"
#include "qp.h"
#include "uring.h"

/* An STag: HMC MR object index and the consumer's key byte */
#define IRDMA_MR_STAG_KEY	GENMASK(7, 0)

/* The largest MR the device reports (ib_device_attr.max_mr_size) */
#define IRDMA_MR_MAX_LEN	BIT_ULL(45)

/* access flags we map to STag rights */
#define IRDMA_MR_ACCESS_RIGHTS	(IB_ACCESS_LOCAL_WRITE | \
				 IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_MW_BIND)
/* flags the engine cannot honour: no atomics, no paging, VA-based only */
#define IRDMA_MR_ACCESS_REFUSED	(IB_ACCESS_REMOTE_ATOMIC | \
				 IB_ZERO_BASED | \
				 IB_ACCESS_ON_DEMAND)
/* hints that change nothing here; optional flags may be ignored */
#define IRDMA_MR_ACCESS_HINTS	(IB_ACCESS_HUGETLB | IB_ACCESS_OPTIONAL)

static struct irdma_mr *to_irdma_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct irdma_mr, ibmr);
}

/* ---- pure helpers (KUnit drives these directly) ---- */

static u32 irdma_stag_make(u32 index, u8 key)
{
	return FIELD_PREP(IRDMA_MR_STAG_IDX, index) |
	       FIELD_PREP(IRDMA_MR_STAG_KEY, key);
}

/* Highest index an STag may have with @mr_cnt MR objects; index 0 unused */
static int irdma_stag_max_index(u32 mr_cnt, u32 *max)
{
	if (mr_cnt < 2)
		return -ENOSPC;
	*max = min_t(u32, mr_cnt - 1, FIELD_MAX(IRDMA_MR_STAG_IDX));
	return 0;
}

/*
 * STag rights for IB access flags. Local read is always granted; remote
 * write needs local write, as the verbs specification says.
 */
static int irdma_mr_rights(int access, u8 *rights)
{
	if (access & ~(IRDMA_MR_ACCESS_RIGHTS | IRDMA_MR_ACCESS_REFUSED |
		       IRDMA_MR_ACCESS_HINTS))
		return -EINVAL;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (access & IRDMA_MR_ACCESS_REFUSED)
		return -EOPNOTSUPP;
	*rights = IRDMA_ACCESS_LOCAL_READ;
	if (access & IB_ACCESS_LOCAL_WRITE)
		*rights |= IRDMA_ACCESS_LOCAL_WRITE;
	if (access & IB_ACCESS_REMOTE_READ)
		*rights |= IRDMA_ACCESS_REMOTE_READ;
	if (access & IB_ACCESS_REMOTE_WRITE)
		*rights |= IRDMA_ACCESS_REMOTE_WRITE;
	if (access & IB_ACCESS_MW_BIND)
		*rights |= IRDMA_ACCESS_MW_BIND;
	return 0;
}

static bool irdma_mr_remote(u8 rights)
{
	return rights & (IRDMA_ACCESS_REMOTE_READ | IRDMA_ACCESS_REMOTE_WRITE);
}

/**
 * irdma_mr_page_sizes - page sizes an STag may be built from
 * @gen: generation of the engine
 *
 * X722 (gen 1) stops at 2 MiB; E810 also takes 1 GiB pages.
 *
 * Return: a mask of page sizes, as ib_device_attr.page_size_cap.
 */
unsigned long irdma_mr_page_sizes(enum irdma_hw_gen gen)
{
	if (gen == IRDMA_GEN_1)
		return SZ_4K | SZ_2M;
	return SZ_4K | SZ_2M | SZ_1G;
}

/* The engine's encoding of page size @pgsz */
static int irdma_mr_hw_page(enum irdma_hw_gen gen, unsigned long pgsz,
			    u8 *enc)
{
	if (!(pgsz & irdma_mr_page_sizes(gen)) || !is_power_of_2(pgsz))
		return -EINVAL;
	switch (pgsz) {
	case SZ_4K:
		*enc = IRDMA_PAGE_SIZE_4K;
		break;
	case SZ_2M:
		*enc = IRDMA_PAGE_SIZE_2M;
		break;
	default:
		*enc = IRDMA_PAGE_SIZE_1G;
		break;
	}
	return 0;
}

/*
 * The driver data of a user registration. MEM is this verb's own; QP and
 * CQ registrations describe user rings (uring.c checks their page
 * counts). The page counts mean something only for rings: libirdma
 * leaves them uninitialised in a MEM request, so they are not looked at
 * there.
 */
static int irdma_mr_req_check(const struct irdma_mem_reg_req *req,
			      size_t inlen, const char **why)
{
	if (inlen < sizeof(*req)) {
		*why = "request length";
		return -EINVAL;
	}
	switch (req->reg_type) {
	case IRDMA_MEMREG_TYPE_MEM:
	case IRDMA_MEMREG_TYPE_QP:
	case IRDMA_MEMREG_TYPE_CQ:
		break;
	default:
		*why = "unknown reg_type";
		return -EINVAL;
	}
	*why = NULL;
	return 0;
}

static int irdma_mr_len_check(u64 len, const char **why)
{
	if (!len || len > IRDMA_MR_MAX_LEN) {
		*why = "length";
		return -EINVAL;
	}
	return 0;
}

/* ---- STag indexes ---- */

static int irdma_stag_get(struct irdma_device *iwdev, u32 *stag)
{
	u32 max;
	int idx;

	if (irdma_stag_max_index(iwdev->fn->hw->hmc.obj[IRDMA_HMC_MR].cnt,
				 &max))
		return -ENOSPC;
	idx = ida_alloc_range(&iwdev->stag_ida, 1, max, GFP_KERNEL);
	if (idx < 0)
		return idx;
	*stag = irdma_stag_make(idx, get_random_u8());
	return 0;
}

static void irdma_stag_put(struct irdma_device *iwdev, u32 stag)
{
	ida_free(&iwdev->stag_ida, irdma_stag_index(stag));
}

/* ---- CQP commands ---- */

static int irdma_stag_cmd(struct irdma_hw *hw,
			  int (*build)(__le64 *wqe, u8 valid, const void *arg),
			  const char *name,
			  const struct irdma_cqp_stag_info *info)
{
	struct irdma_cmd cmd = { .build = build, .arg = info, .name = name };

	return irdma_cmd_exec(hw, &cmd);
}

static void irdma_stag_info(const struct irdma_hw *hw,
			    const struct ib_pd *ibpd, u32 stag,
			    struct irdma_cqp_stag_info *info)
{
	memset(info, 0, sizeof(*info));
	info->stag = stag;
	info->pd_id = irdma_pd_num(ibpd);
	info->hw_rev = hw->fn->gen;
}

/* ---- PBLEs ---- */

/* CPU address of PBLE @idx in the HMC backing pages */
static __le64 *irdma_pble_slot(struct irdma_hw *hw, u32 idx)
{
	u32 sd, pd, off;

	if (irdma_hmc_obj_locate(&hw->hmc, IRDMA_HMC_PBLE, idx, &sd, &pd, &off))
		return NULL;
	sd -= hw->hmc.first_sd;
	if (sd >= hw->sd_cnt || pd >= hw->sds[sd].page_cnt)
		return NULL;
	return hw->sds[sd].pages[pd].va + off;
}

/**
 * irdma_pble_write - store a page address in a PBLE
 * @hw: the engine
 * @idx: PBLE index, from the pool
 * @addr: bus address of the page
 *
 * Return: 0, or -EFAULT for an index outside the backed PBLEs.
 */
int irdma_pble_write(struct irdma_hw *hw, u32 idx, u64 addr)
{
	__le64 *slot = irdma_pble_slot(hw, idx);

	/* the pool covers only backed PBLEs: a miss is our bug */
	if (WARN_ON_ONCE(!slot))
		return -EFAULT;
	*slot = cpu_to_le64(addr);
	return 0;
}

/* ---- MR objects ---- */

static struct irdma_mr *irdma_mr_new(struct ib_pd *ibpd)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_mr *mr;
	int ret;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	ret = irdma_stag_get(iwdev, &mr->stag);
	if (ret) {
		kfree(mr);
		return ERR_PTR(ret);
	}
	mr->hw = iwdev->fn->hw;
	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	return mr;
}

/* Undo irdma_mr_new() and whatever was attached since */
static void irdma_mr_free(struct irdma_device *iwdev, struct irdma_mr *mr)
{
	irdma_pble_put(&mr->hw->pble, &mr->pbl);
	ib_umem_release(mr->umem);
	irdma_stag_put(iwdev, mr->stag);
	kfree(mr);
}

/* REG_MR of @mr over its pages (or over all memory without any) */
static int irdma_mr_hw_reg(struct irdma_mr *mr, const struct ib_pd *ibpd,
			   u64 va, u64 len, u8 page, u8 rights)
{
	struct irdma_cqp_stag_info info;

	irdma_stag_info(mr->hw, ibpd, mr->stag, &info);
	info.va = va;
	info.len = len;
	info.rights = rights;
	info.remote_access = irdma_mr_remote(rights);
	info.page_size = page;
	if (mr->pbl.level) {
		info.pbl_levels = 1;
		info.first_pble = mr->pbl.root.idx;
	} else {
		info.buf_pa = mr->first_page;
	}
	return irdma_stag_cmd(mr->hw, irdma_cqpw_reg_mr_cb, "REG_MR", &info);
}

/**
 * irdma_get_dma_mr - an STag over all of memory, for a kernel PD
 * @ibpd: the PD
 * @access: IB_ACCESS_* flags
 *
 * Kernel QPs address DMA memory with lkey 0, so the core asks for this
 * only when a PD wants an unsafe global rkey.
 *
 * Context: process context; sleeps.
 * Return: the MR, or an ERR_PTR: -EINVAL or -EOPNOTSUPP for access flags,
 * -ENOSPC without a free STag, -EIO when the engine refused.
 */
struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_mr *mr;
	u8 rights;
	int ret;

	ret = irdma_mr_rights(access, &rights);
	if (ret) {
		ibdev_dbg(&iwdev->ibdev, "DMA MR: access 0x%x refused: %d\n",
			  access, ret);
		return ERR_PTR(ret);
	}
	mr = irdma_mr_new(ibpd);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	ret = irdma_mr_hw_reg(mr, ibpd, 0, 0, IRDMA_PAGE_SIZE_4K, rights);
	if (ret) {
		irdma_mr_free(iwdev, mr);
		return ERR_PTR(ret);
	}
	return &mr->ibmr;
}

/*
 * Validate a user registration; @r receives the request and @rights the
 * STag rights
 */
static int irdma_umr_check(struct irdma_device *iwdev, u64 len, int access,
			   struct ib_udata *udata, struct irdma_mem_reg_req *r,
			   u8 *rights)
{
	struct irdma_mem_reg_req req = {};
	const char *why = "no driver data";
	int ret = -EINVAL;

	if (udata)
		ret = irdma_udata_req(udata, &req, sizeof(req), &why) ?:
		      irdma_mr_req_check(&req, udata->inlen, &why);
	*r = req;
	if (!ret)
		ret = irdma_mr_len_check(len, &why);
	if (!ret) {
		why = "access flags";
		ret = irdma_mr_rights(access, rights);
	}
	if (ret)
		ibdev_dbg(&iwdev->ibdev,
			  "user MR refused (%s): type %u len %llu access 0x%x: %d\n",
			  why, req.reg_type, len, access, ret);
	return ret;
}

/* List the pinned pages of @mr in blocks of @pgsz */
static int irdma_umr_pages(struct irdma_mr *mr, unsigned long pgsz)
{
	size_t blocks = ib_umem_num_dma_blocks(mr->umem, pgsz);
	struct ib_block_iter biter;
	u32 i = 0;
	int ret;

	if (blocks > mr->hw->pble.cnt)
		return -ENOMEM;
	if (blocks > 1) {
		ret = irdma_pble_get(&mr->hw->pble, blocks, true, &mr->pbl);
		if (ret)
			return ret;
	}
	mr->npages = blocks;
	rdma_umem_for_each_dma_block(mr->umem, &biter, pgsz) {
		u64 addr = rdma_block_iter_dma_address(&biter);

		if (!i)
			mr->first_page = addr;
		if (mr->pbl.level) {
			ret = irdma_pble_write(mr->hw, mr->pbl.root.idx + i,
					       addr);
			if (ret)
				return ret;
		}
		i++;
	}
	return 0;
}

/* Pin the user buffer and describe it; @page receives the page size */
static int irdma_umr_pin(struct irdma_mr *mr, struct ib_pd *ibpd, u64 start,
			 u64 len, u64 virt, int access, u8 *page)
{
	enum irdma_hw_gen gen = mr->hw->fn->gen;
	unsigned long pgsz;
	struct ib_umem *umem;

	umem = ib_umem_get(ibpd->device, start, len, access);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	mr->umem = umem;
	pgsz = ib_umem_find_best_pgsz(umem, irdma_mr_page_sizes(gen), virt);
	if (!pgsz || irdma_mr_hw_page(gen, pgsz, page))
		return -EINVAL;
	mr->ibmr.page_size = pgsz;
	return irdma_umr_pages(mr, pgsz);
}

/*
 * A CQ or QP ring registration: no STag, only pinned pages and PBLEs for
 * the create that follows (uring.c)
 */
static struct ib_mr *irdma_reg_user_ring(struct ib_pd *ibpd,
					 const struct irdma_mem_reg_req *req,
					 u64 start, u64 len, u64 virt,
					 int access, struct ib_udata *udata)
{
	struct irdma_uring *ur;
	struct irdma_mr *mr;
	const char *why;
	int ret;

	ret = irdma_uring_req_check(req, start, len, access, &why);
	if (!ret && virt != start) {
		why = "ring accessed at another address";
		ret = -EINVAL;
	}
	if (ret) {
		ibdev_dbg(ibpd->device,
			  "ring registration refused (%s): type %u pages %u/%u/%u len %llu\n",
			  why, req->reg_type, req->cq_pages, req->sq_pages,
			  req->rq_pages, len);
		return ERR_PTR(ret);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	ur = irdma_uring_reg(ibpd, req, start, len, udata);
	if (IS_ERR(ur)) {
		kfree(mr);
		ibdev_dbg(ibpd->device, "ring of %llu bytes at 0x%llx: %ld\n",
			  len, start, PTR_ERR(ur));
		return ERR_CAST(ur);
	}
	mr->uring = ur;
	mr->hw = ur->hw;
	mr->ibmr.iova = virt;
	mr->ibmr.length = len;
	return &mr->ibmr;
}

/**
 * irdma_reg_user_mr - register a user buffer
 * @ibpd: the PD
 * @start: user address of the buffer
 * @len: bytes
 * @virt: the address the MR is accessed at (VA-based)
 * @access: IB_ACCESS_* flags
 * @udata: carries struct irdma_mem_reg_req: type IRDMA_MEMREG_TYPE_MEM
 *	registers an STag, types _CQ and _QP the ring of a user CQ or QP
 *	about to be created (no STag)
 *
 * Context: process context; sleeps.
 * Return: the MR, or an ERR_PTR: -EINVAL for a bad request, length or
 * access, -EOPNOTSUPP for access the engine lacks, -ENOMEM or -ENOSPC
 * when out of PBLEs or STags, -EIO when the engine refused.
 */
struct ib_mr *irdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len,
				u64 virt, int access, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_mem_reg_req req;
	struct irdma_mr *mr;
	u8 rights, page;
	int ret;

	ret = irdma_umr_check(iwdev, len, access, udata, &req, &rights);
	if (ret)
		return ERR_PTR(ret);
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM)
		return irdma_reg_user_ring(ibpd, &req, start, len, virt, access,
					   udata);
	mr = irdma_mr_new(ibpd);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	ret = irdma_umr_pin(mr, ibpd, start, len, virt, access, &page);
	if (ret)
		goto err_free_mr;
	ret = irdma_mr_hw_reg(mr, ibpd, virt, len, page, rights);
	if (ret)
		goto err_free_mr;
	mr->ibmr.iova = virt;
	mr->ibmr.length = len;
	return &mr->ibmr;

err_free_mr:
	ibdev_dbg(&iwdev->ibdev, "user MR of %llu bytes at 0x%llx: %d\n", len,
		  virt, ret);
	irdma_mr_free(iwdev, mr);
	return ERR_PTR(ret);
}

/* DEALLOC_STAG of an MR or MW; 0 once nothing the STag mapped is in use */
static int irdma_stag_dealloc(struct irdma_device *iwdev,
			      const struct ib_pd *ibpd, u32 stag, bool is_mr,
			      const char *what)
{
	struct irdma_hw *hw = iwdev->fn->hw;
	struct irdma_cqp_stag_info info;
	int ret;

	irdma_stag_info(hw, ibpd, stag, &info);
	info.is_mr = is_mr;
	ret = irdma_stag_cmd(hw, irdma_cqpw_dealloc_stag_cb,
			     is_mr ? "DEALLOC_STAG" : "DEALLOC_STAG(MW)", &info);
	if (!ret)
		return 0;
	if (irdma_hw_given_up(hw))
		return 0;
	ibdev_err_ratelimited(&iwdev->ibdev,
			      "%s STag 0x%x: DEALLOC_STAG failed (%d); it stays registered\n",
			      what, stag, ret);
	return ret;
}

/**
 * irdma_dereg_mr - deregister an MR
 * @ibmr: the MR
 * @udata: user data (unused)
 *
 * The STag goes back to the engine, then the PBLEs, the pinned pages and
 * the index are released. Should the engine fail DEALLOC_STAG, the STag
 * is still live: the MR stays as it is, registered, and the error is
 * returned (the core keeps the MR; deregistering it again may succeed).
 *
 * Context: process context; sleeps.
 * Return: 0, or the command's error with nothing released.
 */
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibmr->device);
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	int ret;

	if (mr->uring) {
		irdma_uring_unreg(mr->uring);
		kfree(mr);
		return 0;
	}
	ret = irdma_stag_dealloc(iwdev, ibmr->pd, mr->stag, true, "MR");
	if (ret)
		return ret;
	irdma_mr_free(iwdev, mr);
	return 0;
}

/* ---- fast-register MRs ---- */

/**
 * irdma_alloc_mr - an MR for fast-register work requests
 * @ibpd: the PD
 * @type: IB_MR_TYPE_MEM_REG only
 * @max_num_sg: pages the MR may map, at most one PBLE page's worth
 *
 * Context: process context; sleeps.
 * Return: the MR, or an ERR_PTR: -EOPNOTSUPP for another type, -EINVAL
 * for a page count of 0 or over the limit, -ENOMEM or -ENOSPC when out of
 * PBLEs or STags, -EIO when the engine refused.
 */
struct ib_mr *irdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_cqp_stag_info info;
	struct irdma_mr *mr;
	int ret;

	if (type != IB_MR_TYPE_MEM_REG || !max_num_sg ||
	    max_num_sg > IRDMA_PBLE_PER_PAGE) {
		ibdev_dbg(&iwdev->ibdev, "alloc_mr: type %d, %u pages refused\n",
			  type, max_num_sg);
		return ERR_PTR(type != IB_MR_TYPE_MEM_REG ? -EOPNOTSUPP :
			       -EINVAL);
	}
	mr = irdma_mr_new(ibpd);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	ret = irdma_pble_get(&mr->hw->pble, max_num_sg, true, &mr->pbl);
	if (ret)
		goto err_free_mr;
	mr->max_pages = max_num_sg;
	irdma_stag_info(mr->hw, ibpd, mr->stag, &info);
	info.len = (u64)max_num_sg * SZ_4K;
	info.rights = IRDMA_ACCESS_LOCAL_READ;
	/* the fast-register WQEs may grant remote rights later */
	info.remote_access = true;
	info.pbl_levels = 1;
	info.first_pble = mr->pbl.root.idx;
	info.is_mr = true;
	ret = irdma_stag_cmd(mr->hw, irdma_cqpw_alloc_stag_cb, "ALLOC_STAG",
			     &info);
	if (ret)
		goto err_free_mr;
	return &mr->ibmr;

err_free_mr:
	irdma_mr_free(iwdev, mr);
	return ERR_PTR(ret);
}

static int irdma_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	int ret;

	if (mr->npages >= mr->max_pages)
		return -ENOMEM;
	ret = irdma_pble_write(mr->hw, mr->pbl.root.idx + mr->npages, addr);
	if (ret)
		return ret;
	if (!mr->npages)
		mr->first_page = addr;
	mr->npages++;
	return 0;
}

/**
 * irdma_map_mr_sg - list DMA pages in a fast-register MR's PBLEs
 * @ibmr: an MR from irdma_alloc_mr()
 * @sg: the scatterlist
 * @sg_nents: its entries
 * @sg_offset: byte offset into the first entry, updated by the core
 *
 * Context: any; does not sleep.
 * Return: the number of entries mapped, or -EINVAL for a page size the
 * engine does not take or an MR not from irdma_alloc_mr().
 */
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset)
{
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	u8 page;

	if (!mr->max_pages ||
	    irdma_mr_hw_page(mr->hw->fn->gen, ibmr->page_size, &page))
		return -EINVAL;
	mr->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, irdma_mr_set_page);
}

/* Fast-register WQE for @wr, which maps @mr as map_mr_sg left it */
static int irdma_mr_fastreg_fill(const struct irdma_mr *mr,
				 const struct ib_reg_wr *wr,
				 struct irdma_uk_fastreg *reg)
{
	int ret;

	if (!mr->max_pages || !mr->npages ||
	    irdma_stag_index(wr->key) != irdma_stag_index(mr->stag))
		return -EINVAL;
	ret = irdma_mr_rights(wr->access, &reg->rights);
	if (!ret)
		ret = irdma_mr_hw_page(mr->hw->fn->gen, mr->ibmr.page_size,
				       &reg->page_size);
	if (ret)
		return ret;
	reg->wr_id = wr->wr.wr_id;
	reg->stag = wr->key;
	reg->va = mr->ibmr.iova;
	reg->len = mr->ibmr.length;
	reg->pbl_addr = mr->first_page;
	reg->first_pble = mr->pbl.root.idx;
	reg->pbl_levels = mr->npages > 1 ? 1 : 0;
	return 0;
}

/**
 * irdma_mr_post_reg - post an IB_WR_REG_MR work request
 * @uk: the kernel QP's rings; the caller holds its SQ lock
 * @wr: the request
 * @signaled: ask for a completion
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL for an MR not mapped by map_mr_sg, a key of another
 * STag or bad access flags, -EOPNOTSUPP for access the engine lacks,
 * -ENOMEM for a full SQ.
 */
int irdma_mr_post_reg(struct irdma_uk_qp *uk, const struct ib_reg_wr *wr,
		      bool signaled)
{
	struct irdma_uk_fastreg reg = {};
	int ret;

	ret = irdma_mr_fastreg_fill(to_irdma_mr(wr->mr), wr, &reg);
	if (ret)
		return ret;
	reg.signaled = signaled;
	return irdma_uk_post_fastreg(uk, &reg);
}

/* ---- memory windows ---- */

/**
 * irdma_alloc_mw - reserve an STag for a memory window
 * @ibmw: the window; its type (1 or 2) and PD are set by the core
 * @udata: user data; no driver request is defined, so it must be empty
 *
 * Context: process context; sleeps.
 * Return: 0, -EOPNOTSUPP for driver request bytes, -ENOSPC without a free
 * STag, -EIO when the engine refused.
 */
int irdma_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibmw->device);
	struct irdma_mw *mw = container_of(ibmw, struct irdma_mw, ibmw);
	struct irdma_cqp_stag_info info;
	const char *why;
	int ret;

	/* alloc_mw takes no driver request */
	ret = udata ? irdma_udata_req(udata, NULL, 0, &why) : 0;
	if (ret) {
		ibdev_dbg(&iwdev->ibdev, "alloc_mw refused (%s): %d\n", why,
			  ret);
		return ret;
	}
	ret = irdma_stag_get(iwdev, &mw->stag);
	if (ret)
		return ret;
	irdma_stag_info(iwdev->fn->hw, ibmw->pd, mw->stag, &info);
	info.mw_type1 = ibmw->type == IB_MW_TYPE_1;
	ret = irdma_stag_cmd(iwdev->fn->hw, irdma_cqpw_mw_alloc_cb,
			     "ALLOC_STAG(MW)", &info);
	if (ret) {
		irdma_stag_put(iwdev, mw->stag);
		return ret;
	}
	ibmw->rkey = mw->stag;
	return 0;
}

/**
 * irdma_dealloc_mw - give a window's STag back
 * @ibmw: the window
 *
 * As for an MR, a window whose DEALLOC_STAG fails stays allocated, its
 * index taken, and the error is returned.
 *
 * Context: process context; sleeps.
 * Return: 0, or the command's error with nothing released.
 */
int irdma_dealloc_mw(struct ib_mw *ibmw)
{
	struct irdma_device *iwdev = to_iwdev(ibmw->device);
	struct irdma_mw *mw = container_of(ibmw, struct irdma_mw, ibmw);
	int ret;

	ret = irdma_stag_dealloc(iwdev, ibmw->pd, mw->stag, false, "MW");
	if (ret)
		return ret;
	irdma_stag_put(iwdev, mw->stag);
	return 0;
}

/* ---- STags over kernel buffers, for user QPs ---- */

/**
 * irdma_mr_kbuf_reg - an STag over one page of kernel DMA memory
 * @ibpd: the PD of the QP that will use it
 * @pa: bus address of the buffer, page aligned
 * @len: its length, at most one 4 KiB page
 * @stag: set to the STag; its address space is the bus address (va @pa)
 *
 * A user QP is not privileged, so the LSMM WQE the CM writes into its SQ
 * cannot name the MPA reply by bus address under STag 0. This STag lets
 * the QP's PD read the buffer and nothing else: local read only, no PBL,
 * never handed to user space.
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL for a buffer not page aligned or longer than a page,
 * -ENOSPC without a free STag, or the command's error.
 */
int irdma_mr_kbuf_reg(struct ib_pd *ibpd, u64 pa, u32 len, u32 *stag)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_mr *mr;
	int ret;

	if (!len || len > SZ_4K || !IS_ALIGNED(pa, SZ_4K))
		return -EINVAL;
	mr = irdma_mr_new(ibpd);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	mr->first_page = pa;
	ret = irdma_mr_hw_reg(mr, ibpd, pa, len, IRDMA_PAGE_SIZE_4K,
			      IRDMA_ACCESS_LOCAL_READ);
	if (!ret)
		*stag = mr->stag;
	else
		irdma_stag_put(iwdev, mr->stag);
	kfree(mr);
	return ret;
}

/**
 * irdma_mr_kbuf_dereg - give back an STag of irdma_mr_kbuf_reg()
 * @ibpd: the PD it was registered on
 * @stag: the STag
 *
 * Context: process context; sleeps.
 * Return: 0, after which the buffer may be freed; or the command's error:
 * the STag is still live over the buffer, which must stay.
 */
int irdma_mr_kbuf_dereg(struct ib_pd *ibpd, u32 stag)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	int ret;

	ret = irdma_stag_dealloc(iwdev, ibpd, stag, true, "LSMM");
	if (ret)
		return ret;
	irdma_stag_put(iwdev, stag);
	return 0;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/mr_test.c"
#endif
