// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: kernel completion queues.
 *
 * A CQ is a ring of CQEs in coherent DMA memory plus a shadow area, given
 * to the engine with CREATE_CQ. Its number comes from the engine's CQ
 * table (hw->cqs), bounded by the HMC CQ count; number 0 is the CCQ. The
 * CQ's completion context, which the engine hands back in CEQ elements, is
 * that number (shifted: the context must be even), so a CEQ event is
 * resolved by a table lookup rather than by trusting a pointer from the
 * device.
 *
 * A user CQ's ring and shadow area are user memory that libirdma
 * registered just before (uring.c): the engine reaches the ring through
 * PBLEs, and user space polls and arms it itself. A user CQ can be
 * resized (IRDMA_FEATURE_CQ_RESIZE, gen2): libirdma registers a new ring,
 * the engine moves to it with MODIFY_CQ, and libirdma drains the old one
 * before it polls the new. No kernel consumer of 6.1 resizes a CQ, and
 * kernel CQs are not resized.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/slab.h>
#include <rdma/ib_pack.h>
#include <rdma/irdma-abi.h>

#include "main.h"
#include "qp.h"
#include "uring.h"

static u64 irdma_cq_ctx(u32 id)
{
	return (u64)id << 1;
}

static void irdma_cq_info(const struct irdma_cq *cq,
			  struct irdma_cqp_cq_info *info)
{
	memset(info, 0, sizeof(*info));
	if (cq->uring) {
		info->virtual_map = true;
		info->pbl_levels = 1;
		info->first_pble = irdma_uring_first_pble(cq->uring);
		info->shadow_pa = cq->ushadow ? cq->ushadow->shadow_pa :
						cq->uring->shadow_pa;
	} else {
		info->ring_pa = cq->ring.pa;
		info->shadow_pa = cq->shadow.pa;
	}
	info->compl_ctx = irdma_cq_ctx(cq->uk.cq_id);
	info->size = cq->uk.size;
	info->cq_id = cq->uk.cq_id;
	info->ceq_id = cq->ceq_id;
	info->ceq_id_valid = true;
	info->hw_rev = cq->hw->fn->gen;
	info->vsi = cq->hw->fn->vsi_id;
	info->check_overflow = true;
}

static int irdma_cq_hw_cmd(struct irdma_cq *cq, bool create)
{
	struct irdma_cqp_cq_info info;
	struct irdma_cmd cmd = {
		.build = create ? irdma_cqpw_cq_create_cb :
				  irdma_cqpw_cq_destroy_cb,
		.arg = &info,
		.name = create ? "CREATE_CQ" : "DESTROY_CQ",
	};

	irdma_cq_info(cq, &info);
	return irdma_cmd_exec(cq->hw, &cmd);
}

/**
 * irdma_cq_ring_size - ring entries for a CQ that must hold @cqe CQEs
 * @cqe: CQEs asked for (at most IRDMA_CQ_MAX_CQE)
 *
 * The engine never fills the last free slot (it would look like an empty
 * ring), so the ring has one more entry than the CQ holds.
 *
 * Return: the ring size in CQEs.
 */
u32 irdma_cq_ring_size(u32 cqe)
{
	return max_t(u32, cqe + 1, IRDMA_CQ_MIN_RING);
}

static int irdma_cq_check(struct irdma_device *iwdev,
			  const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata)
{
	struct ib_device *ibdev = &iwdev->ibdev;

	if (attr->flags) {
		ibdev_dbg(ibdev, "CQ flags 0x%x not supported\n", attr->flags);
		return -EOPNOTSUPP;
	}
	if (!attr->cqe || attr->cqe > IRDMA_CQ_MAX_CQE) {
		ibdev_dbg(ibdev, "CQ of %u CQEs refused\n", attr->cqe);
		return -EINVAL;
	}
	if (attr->comp_vector >= iwdev->fn->hw->ceq_cnt) {
		ibdev_dbg(ibdev, "no completion vector %u\n", attr->comp_vector);
		return -EINVAL;
	}
	return 0;
}

static void irdma_cq_free_mem(struct irdma_cq *cq)
{
	irdma_dma_free(cq->hw->dev, &cq->shadow);
	irdma_dma_free(cq->hw->dev, &cq->ring);
}

static int irdma_cq_alloc_mem(struct irdma_cq *cq, u32 size)
{
	struct device *dev = cq->hw->dev;

	if (irdma_dma_alloc(dev, &cq->ring, (size_t)size * IRDMA_QUANTUM_BYTES) ||
	    irdma_dma_alloc(dev, &cq->shadow, IRDMA_SHADOW_AREA_BYTES)) {
		irdma_cq_free_mem(cq);
		return -ENOMEM;
	}
	cq->uk.ring = cq->ring.va;
	cq->uk.shadow = cq->shadow.va;
	cq->uk.mmio = &cq->hw->mmio;
	cq->uk.arm_off = cq->hw->regs->cq_arm;
	cq->uk.size = size;
	cq->uk.hw_rev = cq->hw->fn->gen;
	if (irdma_uk_cq_init(&cq->uk)) {
		irdma_cq_free_mem(cq);
		return -EINVAL;
	}
	return 0;
}

/* a user ring of @cqe CQEs, at least the engine's smallest, in @pages */
static bool irdma_ucq_ring_fits(u32 cqe, u32 pages)
{
	return cqe >= IRDMA_CQ_MIN_RING &&
	       cqe <= irdma_cq_ring_size(IRDMA_CQ_MAX_CQE) &&
	       (u64)cqe * IRDMA_QUANTUM_BYTES <= (u64)pages * SZ_4K;
}

/**
 * irdma_ucq_req_check - check a user CQ against its ring registration
 * @req: the create request
 * @cqe: CQEs in the ring, as libirdma sizes it
 * @ring_va: user address of the registered ring
 * @ring_pages: CQE pages registered
 * @shadow_after: the registration holds the shadow page after the ring
 * @why: set to the reason of a refusal
 *
 * The ring holds @cqe CQEs, at least the engine's smallest ring. The
 * shadow area is the one in the page after the ring when the registration
 * has it (libirdma without IRDMA_FEATURE_CQ_RESIZE); otherwise it is a
 * page of its own outside the ring, which the caller claims.
 *
 * Return: 0 or -EINVAL.
 */
int irdma_ucq_req_check(const struct irdma_create_cq_req *req, u32 cqe,
			u64 ring_va, u32 ring_pages, bool shadow_after,
			const char **why)
{
	u64 end = ring_va + (u64)ring_pages * SZ_4K;
	u64 sa = req->user_shadow_area;

	*why = NULL;
	if (req->user_cq_buf != ring_va)
		*why = "ring address";
	else if (shadow_after ? sa != end :
		 !sa || !IS_ALIGNED(sa, SZ_4K) || (sa >= ring_va && sa < end))
		*why = "shadow area not where the registrations put it";
	else if (!irdma_ucq_ring_fits(cqe, ring_pages))
		*why = "CQE count does not fit the ring";
	return *why ? -EINVAL : 0;
}

/* The request of a user CQ, and its ring registration claimed */
static int irdma_ucq_setup(struct irdma_cq *cq, u32 cqe,
			   struct ib_udata *udata)
{
	struct irdma_create_cq_req req = {};
	struct irdma_uring *ur, *sh = NULL;
	const char *why;
	int ret;

	ret = irdma_uring_claim_req(udata, &req, sizeof(req),
				    sizeof(struct irdma_create_cq_resp),
				    &req.user_cq_buf, IRDMA_MEMREG_TYPE_CQ,
				    &ur, &why);
	if (!ret)
		ret = irdma_ucq_req_check(&req, cqe, ur->va, ur->ring_pages,
					  ur->shadow, &why);
	if (!ret && !ur->shadow) {
		sh = irdma_uring_claim(udata, req.user_shadow_area,
				       IRDMA_URING_SHADOW);
		why = "no shadow area registered there";
		ret = sh ? 0 : -EINVAL;
	}
	if (ret) {
		ibdev_dbg(cq->ibcq.device,
			  "user CQ refused (%s): buf 0x%llx shadow 0x%llx, %u CQEs: %d\n",
			  why, req.user_cq_buf, req.user_shadow_area, cqe, ret);
		irdma_uring_release(ur);
		return ret;
	}
	cq->uring = ur;
	cq->ushadow = sh;
	cq->uk.size = cqe;
	return 0;
}

static void irdma_cq_release_mem(struct irdma_cq *cq)
{
	if (cq->uring) {
		irdma_uring_release(cq->ushadow);
		cq->ushadow = NULL;
		irdma_uring_release(cq->uring);
		cq->uring = NULL;
		return;
	}
	irdma_cq_free_mem(cq);
}

static int irdma_ucq_reply(struct irdma_cq *cq, struct ib_udata *udata)
{
	struct irdma_create_cq_resp resp = {
		.cq_id = cq->uk.cq_id,
		.cq_size = cq->uk.size,
	};

	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

/* Reserve a CQ number; the entry stays NULL until the CQ is published. */
static int irdma_cq_reserve_id(struct irdma_hw *hw, u32 *id)
{
	u32 cnt = hw->hmc.obj[IRDMA_HMC_CQ].cnt;

	if (cnt < 2)
		return -ENOSPC;
	return xa_alloc(&hw->cqs, id, NULL, XA_LIMIT(1, cnt - 1), GFP_KERNEL);
}

/**
 * irdma_create_cq - create a kernel or user CQ
 * @ibcq: the CQ the core allocated
 * @attr: size, completion vector and flags; a user CQ's size is the
 *	ring size libirdma allocated
 * @udata: NULL for a kernel CQ; for a user CQ, struct irdma_create_cq_req
 *	in and struct irdma_create_cq_resp out
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibcq->device);
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_hw *hw = iwdev->fn->hw;
	u32 id, size;
	int ret;

	ret = irdma_cq_check(iwdev, attr, udata);
	if (ret)
		return ret;
	cq->hw = hw;
	cq->ceq_id = attr->comp_vector;
	spin_lock_init(&cq->lock);
	refcount_set(&cq->refs, 1);
	init_completion(&cq->freed);
	ret = irdma_cq_reserve_id(hw, &id);
	if (ret)
		return ret;
	cq->uk.cq_id = id;
	mutex_init(&cq->resize_lock);
	size = udata ? attr->cqe : irdma_cq_ring_size(attr->cqe);
	ret = udata ? irdma_ucq_setup(cq, size, udata) :
		      irdma_cq_alloc_mem(cq, size);
	if (ret)
		goto err_free_id;
	ret = irdma_cq_hw_cmd(cq, true);
	if (ret)
		goto err_free_mem;
	ret = udata ? irdma_ucq_reply(cq, udata) : 0;
	if (ret)
		goto err_destroy_cq;
	ibcq->cqe = size - 1;
	xa_store(&hw->cqs, id, cq, GFP_KERNEL);
	ibdev_dbg(ibcq->device, "CQ %u: %u CQEs on CEQ %u%s\n", id, ibcq->cqe,
		  cq->ceq_id, cq->uring ? " (user)" : "");
	return 0;

err_destroy_cq:
	if (irdma_cq_hw_cmd(cq, false) && !irdma_hw_given_up(hw)) {
		/* the engine keeps the CQ: its number and memory stay taken */
		ibdev_err(ibcq->device, "CQ %u: DESTROY_CQ failed; its memory is kept\n",
			  id);
		mutex_destroy(&cq->resize_lock);
		return ret;
	}
err_free_mem:
	irdma_cq_release_mem(cq);
err_free_id:
	xa_erase(&hw->cqs, id);
	mutex_destroy(&cq->resize_lock);
	return ret;
}

/* The new ring of a user CQ's resize, claimed and checked */
static struct irdma_uring *irdma_ucq_resize_ring(struct irdma_cq *cq,
						 u32 entries,
						 struct ib_udata *udata)
{
	struct irdma_resize_cq_req req = {};
	struct irdma_uring *ur;
	const char *why;
	int ret;

	ret = irdma_uring_claim_req(udata, &req, sizeof(req), 0,
				    &req.user_cq_buffer, IRDMA_MEMREG_TYPE_CQ,
				    &ur, &why);
	if (!ret && !irdma_ucq_ring_fits(entries, ur->ring_pages)) {
		why = "CQE count does not fit the ring";
		ret = -EINVAL;
	}
	if (ret) {
		ibdev_dbg(cq->ibcq.device,
			  "CQ %u: resize refused (%s): buf 0x%llx, %u CQEs: %d\n",
			  cq->uk.cq_id, why, req.user_cq_buffer, entries, ret);
		irdma_uring_release(ur);
		return ERR_PTR(ret);
	}
	return ur;
}

/**
 * irdma_resize_cq - move a user CQ to a new, larger or smaller ring
 * @ibcq: the CQ
 * @entries: CQEs in the new ring, as libirdma sized it
 * @udata: struct irdma_resize_cq_req: the new ring, registered just before
 *
 * The engine writes every CQE from now on to the new ring; libirdma
 * drains the old one first and then counts the resize as done in the
 * shadow area. The old ring's registration is given back at once, as the
 * engine no longer writes there; but when it also holds the shadow area
 * (a CQ created without IRDMA_FEATURE_CQ_RESIZE's layout) the CQ keeps it.
 *
 * Context: process context; sleeps.
 * Return: 0; -EOPNOTSUPP for a kernel CQ or on gen1; -EINVAL for a bad
 * request, a size the ring does not fit, or one the engine refuses (a
 * ring too small for the CQEs not polled yet); -EIO when the engine is
 * unusable.
 */
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_cqp_cq_info info;
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_cq_modify_cb,
		.arg = &info,
		.name = "MODIFY_CQ",
	};
	struct irdma_uring *ur;
	int ret;

	if (!udata || !cq->uring || cq->hw->fn->gen == IRDMA_GEN_1)
		return -EOPNOTSUPP;
	if (entries <= 0)
		return -EINVAL;
	ur = irdma_ucq_resize_ring(cq, entries, udata);
	if (IS_ERR(ur))
		return PTR_ERR(ur);
	mutex_lock(&cq->resize_lock);
	irdma_cq_info(cq, &info);
	info.first_pble = irdma_uring_first_pble(ur);
	info.size = entries;
	info.resize = true;
	ret = irdma_cmd_exec(cq->hw, &cmd);
	if (ret) {
		mutex_unlock(&cq->resize_lock);
		irdma_uring_release(ur);
		/* the engine looked at the size and refused it */
		return cmd.done.error ? -EINVAL : ret;
	}
	if (cq->ushadow)
		irdma_uring_release(cq->uring);
	else
		cq->ushadow = cq->uring;
	cq->uring = ur;
	cq->uk.size = entries;
	ibcq->cqe = entries - 1;
	mutex_unlock(&cq->resize_lock);
	ibdev_dbg(ibcq->device, "CQ %u: resized to %u CQEs\n", cq->uk.cq_id,
		  entries);
	return 0;
}

static void irdma_cq_put(struct irdma_cq *cq)
{
	if (cq && refcount_dec_and_test(&cq->refs))
		complete(&cq->freed);
}

static struct irdma_cq * __must_check irdma_cq_get(struct irdma_hw *hw, u32 id)
{
	return irdma_xa_get_ref(&hw->cqs, id, offsetof(struct irdma_cq, refs));
}

/**
 * irdma_destroy_cq - destroy a kernel or user CQ
 * @ibcq: the CQ
 * @udata: unused
 *
 * The engine forgets the CQ first, so no new CEQ event names it; then the
 * CQ leaves the table and destroy waits for event handlers still running.
 * Should the engine fail DESTROY_CQ, it may still write the ring: the CQ
 * stays as it is and the error is returned (the core keeps the CQ, and a
 * destroy may be tried again), unless the engine is given up
 * (irdma_hw_given_up()).
 *
 * Context: process context; sleeps.
 * Return: 0, or the command's error with the CQ unchanged.
 */
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_hw *hw = cq->hw;
	int ret;

	ret = irdma_cq_hw_cmd(cq, false);
	if (ret && !irdma_hw_given_up(hw)) {
		ibdev_err_ratelimited(ibcq->device, "CQ %u: DESTROY_CQ failed (%d); it stays\n",
				      cq->uk.cq_id, ret);
		return ret;
	}
	xa_erase(&hw->cqs, cq->uk.cq_id);
	/* a lookup that started before the erase may still see @cq */
	synchronize_rcu();
	irdma_cq_put(cq);
	wait_for_completion(&cq->freed);
	irdma_cq_release_mem(cq);
	mutex_destroy(&cq->resize_lock);
	return 0;
}

/**
 * irdma_cq_event - deliver a CEQ element to the CQ it names
 * @hw: the engine
 * @cq_ctx: the completion context from the element
 *
 * Context: a CEQ's interrupt thread.
 */
void irdma_cq_event(struct irdma_hw *hw, u64 cq_ctx)
{
	struct irdma_cq *cq;

	cq = cq_ctx >> 1 <= U32_MAX ? irdma_cq_get(hw, cq_ctx >> 1) : NULL;
	if (!cq) {
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "CEQ event for unknown CQ context 0x%llx\n",
				    cq_ctx);
		return;
	}
	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	irdma_cq_put(cq);
}

/**
 * irdma_cq_async_event - report an error of a CQ to its consumer
 * @hw: the engine
 * @id: the CQ's number, from the AE
 *
 * Context: the AEQ's interrupt thread.
 */
void irdma_cq_async_event(struct irdma_hw *hw, u32 id)
{
	struct ib_event ev = { .event = IB_EVENT_CQ_ERR };
	struct irdma_cq *cq = irdma_cq_get(hw, id);

	if (!cq)
		return;
	/* its consumer's doing, as a rule: worded for the consumer */
	ibdev_warn_ratelimited(cq->ibcq.device,
			       "CQ %u stopped on an error, most often an overflow (more completions than its size); its consumer gets IB_EVENT_CQ_ERR\n",
			       id);
	if (cq->ibcq.event_handler) {
		ev.device = cq->ibcq.device;
		ev.element.cq = &cq->ibcq;
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	}
	irdma_cq_put(cq);
}

static enum ib_wc_opcode irdma_wc_send_op(u8 op)
{
	switch (op) {
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		return IB_WC_RDMA_WRITE;
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_LOC_INV:
		return IB_WC_RDMA_READ;
	case IRDMA_WQEOP_BIND_MW:
		return IB_WC_BIND_MW;
	case IRDMA_WQEOP_FAST_REG:
		return IB_WC_REG_MR;
	case IRDMA_WQEOP_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	default:
		return IB_WC_SEND;
	}
}

static void irdma_wc_recv(const struct irdma_uk_cqe *cqe, struct ib_wc *wc)
{
	wc->opcode = IB_WC_RECV;
	if (cqe->imm_valid) {
		wc->ex.imm_data = cpu_to_be32(cqe->imm);
		wc->wc_flags |= IB_WC_WITH_IMM;
		/* RoCEv2 RQ CQEs carry the BTH opcode of the message */
		if (cqe->op == IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE ||
		    cqe->op == IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE)
			wc->opcode = IB_WC_RECV_RDMA_WITH_IMM;
	} else if (cqe->stag_inv) {
		wc->ex.invalidate_rkey = cqe->inv_stag;
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
	}
	wc->src_qp = cqe->ud_src_qpn;
	if (cqe->smac_valid) {
		u64_to_ether_addr(cqe->ud_smac, wc->smac);
		wc->wc_flags |= IB_WC_WITH_SMAC;
	}
	/*
	 * The tag's priority is the SL; VLAN 0 is only a priority tag (see
	 * irdma_qos_prio_tag()), not a VLAN whose GID the core would look for
	 */
	if (cqe->vlan_valid) {
		wc->sl = cqe->ud_vlan >> VLAN_PRIO_SHIFT;
		wc->vlan_id = cqe->ud_vlan & VLAN_VID_MASK;
		if (wc->vlan_id)
			wc->wc_flags |= IB_WC_WITH_VLAN;
	}
}

/*
 * Minor codes of a flush CQE (major 1): why the WR it names failed. A WR
 * that was merely flushed, or a code outside the table, reports
 * IB_WC_WR_FLUSH_ERR.
 */
static const enum ib_wc_status irdma_flush_status[] = {
	[1] = IB_WC_WR_FLUSH_ERR,
	[2] = IB_WC_LOC_PROT_ERR,
	[3] = IB_WC_REM_ACCESS_ERR,
	[4] = IB_WC_LOC_QP_OP_ERR,
	[5] = IB_WC_REM_OP_ERR,
	[6] = IB_WC_LOC_LEN_ERR,
	[7] = IB_WC_FATAL_ERR,
	[8] = IB_WC_RETRY_EXC_ERR,
	[9] = IB_WC_MW_BIND_ERR,
	[10] = IB_WC_REM_INV_REQ_ERR,
};

static enum ib_wc_status irdma_wc_flush_status(const struct irdma_uk_cqe *cqe,
					       const struct irdma_uk_done *done)
{
	if (!done->named || cqe->minor >= ARRAY_SIZE(irdma_flush_status) ||
	    !irdma_flush_status[cqe->minor])
		return IB_WC_WR_FLUSH_ERR;
	return irdma_flush_status[cqe->minor];
}

/**
 * irdma_cqe_to_wc - fill a work completion from a CQE
 * @cqe: the decoded CQE
 * @done: the WR it retired (irdma_uk_qp_complete())
 * @wc: the work completion; @wc->qp is left to the caller
 *
 * A flushed WR reports the error the flush CQE's minor code gives when
 * the CQE names it (the WR that failed), IB_WC_WR_FLUSH_ERR otherwise,
 * with the opcode it was posted with; any other error reports
 * IB_WC_GENERAL_ERR with the engine's major and minor codes as vendor
 * error.
 */
void irdma_cqe_to_wc(const struct irdma_uk_cqe *cqe,
		     const struct irdma_uk_done *done, struct ib_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = done->wr_id;
	wc->byte_len = done->bytes;
	wc->status = IB_WC_SUCCESS;
	if (done->flushed) {
		wc->status = irdma_wc_flush_status(cqe, done);
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			wc->vendor_err = (u32)cqe->major << 16 | cqe->minor;
	} else if (cqe->error) {
		wc->status = IB_WC_GENERAL_ERR;
		wc->vendor_err = (u32)cqe->major << 16 | cqe->minor;
	}
	if (cqe->sq) {
		wc->opcode = irdma_wc_send_op(done->op);
		return;
	}
	irdma_wc_recv(cqe, wc);
}

/*
 * A receive on a UD or GSI QP: the CQE bit that names an invalidated STag
 * elsewhere says IPv4 here, and the buffer starts with the 40-byte header
 * area (a GRH, or an IPv4 header in its last 20 bytes).
 */
static void irdma_wc_ud(const struct irdma_uk_cqe *cqe, struct ib_wc *wc)
{
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		wc->wc_flags &= ~IB_WC_WITH_INVALIDATE;
		wc->ex.invalidate_rkey = 0;
	}
	wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc->network_hdr_type = cqe->ipv4 ? RDMA_NETWORK_IPV4 :
					   RDMA_NETWORK_IPV6;
}

/* Head CQE to @wc. Return: 0 filled, -EAGAIN nothing to report, -ENOENT empty */
static int irdma_cq_poll_one(struct irdma_cq *cq, struct ib_wc *wc)
{
	struct irdma_uk_done done = {};
	struct irdma_uk_cqe cqe;
	struct irdma_qp *qp;
	int ret;

	lockdep_assert_held(&cq->lock);
	ret = irdma_uk_cq_peek(&cq->uk, &cqe);
	if (ret)
		return ret;
	rcu_read_lock();
	qp = xa_load(&cq->hw->qps, cqe.qp_id);
	ret = qp ? irdma_qp_retire(qp, &cqe, &done) : -ENOENT;
	if (!ret) {
		irdma_cqe_to_wc(&cqe, &done, wc);
		wc->qp = &qp->ibqp;
		if (!cqe.sq && qp->hw_type == IRDMA_QPTYPE_ROCE_UD)
			irdma_wc_ud(&cqe, wc);
	}
	rcu_read_unlock();
	/* a flush CQE stands for every WR left: keep it until none is */
	if (ret || !done.flushed)
		irdma_uk_cq_advance(&cq->uk, &cqe);
	if (ret == -EIO)
		ibdev_warn_ratelimited(cq->ibcq.device,
				       "CQ %u: CQE for QP %u names WQE %u outside its queue\n",
				       cq->uk.cq_id, cqe.qp_id, cqe.wqe_idx);
	return ret ? -EAGAIN : 0;
}

/**
 * irdma_poll_cq - take completions off a kernel CQ
 * @ibcq: the CQ
 * @num_entries: room in @wc
 * @wc: work completions
 *
 * CQEs of a QP destroyed meanwhile are dropped.
 *
 * Context: any; does not sleep.
 * Return: the number of work completions filled, or -EOPNOTSUPP for a
 * user CQ (user space polls its ring itself).
 */
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	unsigned long flags;
	int n = 0, ret;

	if (cq->uring)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries) {
		ret = irdma_cq_poll_one(cq, &wc[n]);
		if (ret == -ENOENT)
			break;
		if (!ret)
			n++;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * irdma_req_notify_cq - arm a kernel CQ
 * @ibcq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, maybe IB_CQ_REPORT_MISSED_EVENTS
 *
 * Context: any; does not sleep.
 * Return: 0, or 1 when missed events were asked about and a CQE is
 * already waiting; -EOPNOTSUPP for a user CQ, which user space arms.
 */
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	bool solicited = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED;
	struct irdma_uk_cqe cqe;
	unsigned long irqfl;
	int ret = 0;

	if (cq->uring)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, irqfl);
	irdma_uk_cq_arm(&cq->uk, solicited);
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    !irdma_uk_cq_peek(&cq->uk, &cqe))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqfl);
	return ret;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/cq_test.c"
#endif
