// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the rings of user CQs and QPs.
 *
 * libirdma lays a QP out as its SQ pages, its RQ pages and then a page
 * whose first 64 bytes are the shadow area, all in one page-aligned
 * buffer that it registers with reg_user_mr (type QP, with the page
 * counts) before it creates the QP with the buffer's address. A CQ's CQE
 * pages are laid out and registered the same way (type CQ), followed by
 * the shadow page unless the CQ can be resized (IRDMA_FEATURE_CQ_RESIZE):
 * then the shadow area has a page of its own, registered apart (type CQ,
 * one page, 64 bytes), since it stays with the CQ while the CQE pages
 * change. A resize registers the new CQE pages alone. Here a registration
 * pins the pages and writes one level-1 PBLE per ring page; the engine
 * reaches the rings through the PBLEs and the shadow area by its bus
 * address.
 *
 * A registration serves one CQ or QP at a time. It sits on the user
 * context's list until dereg_mr; the CQ or QP that claimed it holds its
 * own reference until it is destroyed (or its create failed), so the
 * pages stay pinned for the engine whatever order user space destroys
 * things in.
 */
#include <linux/highmem.h>
#include <linux/slab.h>
#include <rdma/iter.h>
#include <rdma/uverbs_ioctl.h>

#include "main.h"
#include "hw.h"
#include "hw_defs.h"
#include "mr.h"
#include "uring.h"

/* QP rings: 256 pages of 128 quanta hold the largest SQ or RQ */
#define IRDMA_URING_MAX_WQ_PAGES	256
/* CQ rings: the largest CQ is 1048575 CQEs of 32 bytes */
#define IRDMA_URING_MAX_CQ_PAGES	8192

/* ---- pure helpers (KUnit drives these directly) ---- */

static u32 irdma_uring_pages(const struct irdma_mem_reg_req *req)
{
	if (req->reg_type == IRDMA_MEMREG_TYPE_CQ)
		return req->cq_pages;
	return (u32)req->sq_pages + req->rq_pages;
}

/*
 * Which of the three CQ layouts a registration of @pages CQE pages and
 * @len bytes is: the pages and a shadow page after them (@len up to a
 * page past the CQE pages), the pages alone (exactly), or the shadow area
 * alone (one page counted, less than a page registered). QP rings always
 * have the shadow page.
 */
static bool irdma_uring_len_ok(u16 type, u32 pages, u64 len, u32 *ring_pages,
			       bool *shadow)
{
	u64 ring = (u64)pages * SZ_4K;

	*ring_pages = pages;
	*shadow = true;
	if (len >= ring + IRDMA_SHADOW_AREA_BYTES && len <= ring + SZ_4K)
		return true;
	if (type != IRDMA_MEMREG_TYPE_CQ)
		return false;
	if (len == ring) {
		*shadow = false;
		return true;
	}
	if (pages == 1 && len >= IRDMA_SHADOW_AREA_BYTES && len < SZ_4K) {
		*ring_pages = 0;
		return true;
	}
	return false;
}

/**
 * irdma_uring_req_check - validate a ring registration
 * @req: the request, of type IRDMA_MEMREG_TYPE_CQ or _QP
 * @start: user address of the buffer
 * @len: its length
 * @access: IB_ACCESS_* flags
 * @why: set to the reason of a refusal
 *
 * The buffer is page aligned and holds the ring pages the request counts
 * plus the shadow area, and nothing beyond the shadow page; a CQ's may
 * also be the CQE pages alone or the shadow area alone. libirdma asks
 * for local write access only.
 *
 * Return: 0 or -EINVAL.
 */
int irdma_uring_req_check(const struct irdma_mem_reg_req *req, u64 start,
			  u64 len, int access, const char **why)
{
	u32 pages = irdma_uring_pages(req), ring_pages;
	bool shadow;

	*why = NULL;
	if (req->reg_type == IRDMA_MEMREG_TYPE_QP &&
	    (!req->sq_pages || !req->rq_pages || req->cq_pages ||
	     req->sq_pages > IRDMA_URING_MAX_WQ_PAGES ||
	     req->rq_pages > IRDMA_URING_MAX_WQ_PAGES))
		*why = "QP page counts";
	else if (req->reg_type == IRDMA_MEMREG_TYPE_CQ &&
		 (!req->cq_pages || req->sq_pages || req->rq_pages ||
		  req->cq_pages > IRDMA_URING_MAX_CQ_PAGES))
		*why = "CQ page count";
	else if (!IS_ALIGNED(start, SZ_4K))
		*why = "ring not page aligned";
	else if (!irdma_uring_len_ok(req->reg_type, pages, len, &ring_pages,
				     &shadow))
		*why = "length does not match the page counts";
	else if ((access & ~(IB_ACCESS_HUGETLB | IB_ACCESS_OPTIONAL)) !=
		 IB_ACCESS_LOCAL_WRITE)
		*why = "access flags";
	return *why ? -EINVAL : 0;
}

/* ---- registration ---- */

/* Write the PBLEs of the ring pages; the page after them is the shadow */
static int irdma_uring_map(struct irdma_uring *ur, u32 pages, bool shadow)
{
	struct ib_block_iter biter;
	u32 i = 0;
	int ret;

	if (ib_umem_num_dma_blocks(ur->umem, SZ_4K) != pages + shadow)
		return -EINVAL;
	if (pages) {
		ret = irdma_pble_get(&ur->hw->pble, pages, true, &ur->pbl);
		if (ret)
			return ret;
	}
	rdma_umem_for_each_dma_block(ur->umem, &biter, SZ_4K) {
		u64 addr = rdma_block_iter_dma_address(&biter);

		if (i == pages) {
			ur->shadow_pa = addr;
			break;
		}
		ret = irdma_pble_write(ur->hw, ur->pbl.root.idx + i, addr);
		if (ret)
			return ret;
		i++;
	}
	return 0;
}

static void irdma_uring_free(struct kref *kref)
{
	struct irdma_uring *ur = container_of(kref, struct irdma_uring, refs);

	irdma_pble_put(&ur->hw->pble, &ur->pbl);
	ib_umem_release(ur->umem);
	kfree(ur);
}

/**
 * irdma_uring_put - drop a reference to a ring registration
 * @ur: the registration, or NULL
 *
 * The last reference unpins the pages and frees the PBLEs; the engine no
 * longer knows the CQ or QP by then.
 */
void irdma_uring_put(struct irdma_uring *ur)
{
	if (ur)
		kref_put(&ur->refs, irdma_uring_free);
}

/**
 * irdma_uring_reg - pin a user CQ or QP ring and list it in PBLEs
 * @ibpd: the PD of the registration
 * @req: the checked request (irdma_uring_req_check())
 * @start: user address of the buffer
 * @len: its length
 * @udata: the verb's user data, which names the user context
 *
 * Context: process context; sleeps.
 * Return: the registration, on the context's list, or an ERR_PTR:
 * -EINVAL without a user context or for pages that do not match the
 * request, -ENOMEM when out of memory or PBLEs, or what pinning failed
 * with.
 */
struct irdma_uring *irdma_uring_reg(struct ib_pd *ibpd,
				    const struct irdma_mem_reg_req *req,
				    u64 start, u64 len, struct ib_udata *udata)
{
	struct irdma_ucontext *uctx =
		rdma_udata_to_drv_context(udata, struct irdma_ucontext, ibuctx);
	struct irdma_uring *ur;
	u32 pages;
	bool shadow;
	int ret;

	if (!uctx || !irdma_uring_len_ok(req->reg_type, irdma_uring_pages(req),
					 len, &pages, &shadow))
		return ERR_PTR(-EINVAL);
	ur = kzalloc(sizeof(*ur), GFP_KERNEL);
	if (!ur)
		return ERR_PTR(-ENOMEM);
	kref_init(&ur->refs);
	ur->uctx = uctx;
	ur->hw = to_iwdev(ibpd->device)->fn->hw;
	ur->va = start;
	ur->type = req->reg_type;
	ur->ring_pages = req->reg_type == IRDMA_MEMREG_TYPE_CQ ? pages :
			 req->sq_pages;
	ur->rq_pages = req->reg_type == IRDMA_MEMREG_TYPE_QP ? req->rq_pages : 0;
	ur->shadow = shadow;
	ur->umem = ib_umem_get(ibpd->device, start, len, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(ur->umem)) {
		ret = PTR_ERR(ur->umem);
		kfree(ur);
		return ERR_PTR(ret);
	}
	ret = irdma_uring_map(ur, req->reg_type == IRDMA_MEMREG_TYPE_CQ ?
				  pages : irdma_uring_pages(req), shadow);
	if (ret) {
		irdma_uring_put(ur);
		return ERR_PTR(ret);
	}
	mutex_lock(&uctx->uring_lock);
	list_add_tail(&ur->node, &uctx->urings);
	mutex_unlock(&uctx->uring_lock);
	return ur;
}

/**
 * irdma_uring_unreg - undo irdma_uring_reg() (dereg_mr)
 * @ur: the registration
 *
 * A CQ or QP still using the rings keeps them until it is destroyed.
 *
 * Context: process context; sleeps.
 */
void irdma_uring_unreg(struct irdma_uring *ur)
{
	struct irdma_ucontext *uctx = ur->uctx;

	mutex_lock(&uctx->uring_lock);
	list_del(&ur->node);
	mutex_unlock(&uctx->uring_lock);
	irdma_uring_put(ur);
}

/**
 * irdma_uring_claim - find the registration of a ring a verb names
 * @udata: the create (or resize) verb's user data
 * @va: the ring's user address, from the request
 * @type: IRDMA_MEMREG_TYPE_CQ or IRDMA_MEMREG_TYPE_QP; or
 *	IRDMA_URING_SHADOW for a CQ's shadow area registered alone
 *
 * Context: process context; sleeps.
 * Return: the registration with a reference for the caller, to be given
 * back with irdma_uring_release(), or NULL when none of that kind starts
 * at @va or it serves another CQ or QP already.
 */
struct irdma_uring *irdma_uring_claim(struct ib_udata *udata, u64 va,
				      u16 type)
{
	bool shadow = type == IRDMA_URING_SHADOW;
	struct irdma_ucontext *uctx =
		rdma_udata_to_drv_context(udata, struct irdma_ucontext, ibuctx);
	struct irdma_uring *ur, *found = NULL;

	if (!uctx)
		return NULL;
	mutex_lock(&uctx->uring_lock);
	list_for_each_entry(ur, &uctx->urings, node) {
		if (ur->va != va || ur->claimed ||
		    ur->type != (shadow ? IRDMA_MEMREG_TYPE_CQ : type) ||
		    !ur->ring_pages != shadow)
			continue;
		ur->claimed = true;
		kref_get(&ur->refs);
		found = ur;
		break;
	}
	mutex_unlock(&uctx->uring_lock);
	return found;
}

/**
 * irdma_uring_claim_req - read a verb's request and claim the ring it names
 * @udata: the verb's user data
 * @req: where the request goes, zeroed by the caller
 * @len: the request's size in this driver's ABI: user space sends it all
 * @resp_len: the response's size, which user space must have room for
 * @va: the field of @req that holds the ring's user address
 * @type: as for irdma_uring_claim()
 * @ur: set to the claimed registration, or NULL
 * @why: set to the reason of a refusal
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL for short lengths or no such registration at the
 * address, or what irdma_udata_req() refused the request with.
 */
int irdma_uring_claim_req(struct ib_udata *udata, void *req, size_t len,
			  size_t resp_len, const u64 *va, u16 type,
			  struct irdma_uring **ur, const char **why)
{
	int ret;

	*ur = NULL;
	*why = "request or response length";
	if (udata->inlen < len || udata->outlen < resp_len)
		return -EINVAL;
	ret = irdma_udata_req(udata, req, len, why);
	if (ret)
		return ret;
	*ur = irdma_uring_claim(udata, *va, type);
	*why = "no ring of that kind registered there";
	return *ur ? 0 : -EINVAL;
}

/**
 * irdma_uring_release - give back a registration irdma_uring_claim() took
 * @ur: the registration, or NULL
 *
 * Called when the CQ or QP is destroyed or its create failed: another
 * create may claim the rings then, and the caller's reference is dropped.
 *
 * Context: process context; sleeps.
 */
void irdma_uring_release(struct irdma_uring *ur)
{
	if (!ur)
		return;
	mutex_lock(&ur->uctx->uring_lock);
	ur->claimed = false;
	mutex_unlock(&ur->uctx->uring_lock);
	irdma_uring_put(ur);
}

/**
 * irdma_uring_first_pble - PBLE index of the first ring page
 * @ur: the registration
 *
 * Return: the index the engine is given for the CQ ring or the SQ; the
 * RQ's follows @ur->ring_pages later.
 */
u32 irdma_uring_first_pble(const struct irdma_uring *ur)
{
	return ur->pbl.root.idx;
}

/**
 * irdma_uring_kmap_sq - map the start of a user QP's SQ into the kernel
 * @ur: a QP ring registration, pinned (a claimed one stays pinned until
 *	the QP is destroyed)
 * @bytes: how many bytes from the SQ's first byte are to be written
 *
 * The iWARP CM writes the connection WQE (LSMM or RTR) at quantum 0 of a
 * user QP's SQ. The ring is page aligned (irdma_uring_req_check()), so
 * its first quanta lie at the start of the first pinned page: they never
 * straddle a page as long as @bytes fits in one, which is checked, as is
 * that they fit in the SQ pages.
 *
 * Context: any context; the mapping is CPU local (kmap_local_page()).
 * Return: the kernel address of the SQ's first byte, to be given back
 * with kunmap_local() in reverse order of mapping, or ERR_PTR(-EINVAL)
 * for a registration that is not a QP's or a length that does not fit.
 */
__le64 *irdma_uring_kmap_sq(const struct irdma_uring *ur, u32 bytes)
{
	struct scatterlist *sg;
	unsigned long off;

	if (!ur || ur->type != IRDMA_MEMREG_TYPE_QP || !ur->umem || !bytes ||
	    !IS_ALIGNED(bytes, IRDMA_QUANTUM_BYTES) ||
	    bytes > (u64)ur->ring_pages * SZ_4K)
		return ERR_PTR(-EINVAL);
	sg = ur->umem->sgt_append.sgt.sgl;
	if (!sg || !ur->umem->sgt_append.sgt.orig_nents)
		return ERR_PTR(-EINVAL);
	off = ib_umem_offset(ur->umem);
	if (off + bytes > PAGE_SIZE || off + bytes > sg->length)
		return ERR_PTR(-EINVAL);
	return kmap_local_page(sg_page(sg)) + off;
}

/**
 * irdma_uring_conn_uk - a view of a user QP's connection quanta
 * @ur: the QP's ring registration, claimed by it
 * @sq_quanta: the QP's SQ size in quanta
 * @hw_rev: the engine generation
 * @uk: set to a QP whose SQ is the mapped start of the user SQ, on the
 *	ring's first lap, with IRDMA_UK_CONN_QUANTA connection quanta:
 *	enough for irdma_uk_conn_lsmm() and irdma_uk_conn_rtr(), and for
 *	nothing else (no RQ, no slots, no doorbell)
 *
 * libirdma starts posting after the quanta the create response keeps
 * for the connection (its lsmm field), on lap 1; quantum 0 is left for
 * the CM's connection WQE, which the engine runs first.
 *
 * Context: any context; CPU local mapping.
 * Return: the mapping, to be given back with kunmap_local() once the
 * WQE is written, or ERR_PTR(-EINVAL) for an SQ that does not hold more
 * than the connection quanta or a registration that does not hold them.
 */
__le64 *irdma_uring_conn_uk(const struct irdma_uring *ur, u32 sq_quanta,
			    u8 hw_rev, struct irdma_uk_qp *uk)
{
	__le64 *sq;

	if (sq_quanta <= IRDMA_UK_CONN_QUANTA)
		return ERR_PTR(-EINVAL);
	sq = irdma_uring_kmap_sq(ur, IRDMA_UK_CONN_QUANTA *
				 IRDMA_QUANTUM_BYTES);
	if (IS_ERR(sq))
		return sq;
	*uk = (struct irdma_uk_qp){
		.sq = sq,
		.sq_size = sq_quanta,
		.conn_quanta = IRDMA_UK_CONN_QUANTA,
		.sq_pol = 1,
		.hw_rev = hw_rev,
	};
	return sq;
}

/**
 * irdma_uring_uctx_init - set up the ring list of a new user context
 * @uctx: the context
 */
void irdma_uring_uctx_init(struct irdma_ucontext *uctx)
{
	mutex_init(&uctx->uring_lock);
	INIT_LIST_HEAD(&uctx->urings);
}

/**
 * irdma_uring_uctx_fini - tear down the ring list of a user context
 * @uctx: the context, whose MRs the core has deregistered already
 *
 * Any registration left would be our bug; it is released all the same.
 */
void irdma_uring_uctx_fini(struct irdma_ucontext *uctx)
{
	struct irdma_uring *ur, *next;

	list_for_each_entry_safe(ur, next, &uctx->urings, node) {
		WARN_ON_ONCE(1);
		list_del(&ur->node);
		irdma_uring_put(ur);
	}
	mutex_destroy(&uctx->uring_lock);
}

/**
 * irdma_udata_req - take a verb's driver request from user space
 * @udata: the verb's user data
 * @req: where the request goes, zeroed by the caller; may be NULL when
 *	@len is 0
 * @len: the size of the request in this driver's ABI (0 for a verb that
 *	takes none)
 * @why: set to the reason when the request is refused
 *
 * Every verb reads its request the same way: what user space sent, up to
 * @len bytes, lands in @req (a shorter request from an older library
 * leaves the rest zero, for the caller to judge by udata->inlen), and any
 * bytes past @len must be zero, for they would ask for something this
 * driver does not know.
 *
 * Return: 0, -EFAULT when the request cannot be read, or -EOPNOTSUPP for
 * non-zero bytes past @len.
 */
int irdma_udata_req(struct ib_udata *udata, void *req, size_t len,
		    const char **why)
{
	size_t have = min(len, udata->inlen);

	if (have && ib_copy_from_udata(req, udata, have)) {
		*why = "request not readable";
		return -EFAULT;
	}
	if (udata->inlen > len &&
	    !ib_is_udata_cleared(udata, len, udata->inlen - len)) {
		*why = "request tail not zero";
		return -EOPNOTSUPP;
	}
	return 0;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/uring_test.c"
#endif
