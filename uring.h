/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: user contexts and the rings of user CQs and QPs.
 *
 * libirdma allocates the rings of a user CQ or QP itself and shows them
 * to the driver first through reg_user_mr of type IRDMA_MEMREG_TYPE_CQ or
 * _QP. That registration is no STag: it pins the pages and lists them in
 * PBLEs, and the create verb that follows finds it by the ring's user
 * address on the user context (uring.c).
 */
#ifndef IRDMA_URING_H
#define IRDMA_URING_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/irdma-abi.h>

#include "pble.h"
#include "uk.h"

struct irdma_hw;

/**
 * struct irdma_ucontext - a process's context on the device
 * @ibuctx: the core's context
 * @db_entry: mmap entry of the doorbell page, for the context's lifetime
 * @raw_attrs: user space passes queue sizes as the application asked
 *	(IRDMA_ALLOC_UCTX_USE_RAW_ATTR, requested and acknowledged)
 * @uring_lock: protects @urings and the @claimed flag of its entries
 * @urings: ring registrations not deregistered yet (struct irdma_uring)
 */
struct irdma_ucontext {
	struct ib_ucontext ibuctx;
	struct rdma_user_mmap_entry *db_entry;
	bool raw_attrs;
	struct mutex uring_lock; /* urings, irdma_uring.claimed */
	struct list_head urings;
};

/**
 * struct irdma_uring - pinned pages of a user CQ ring or QP SQ+RQ
 * @node: entry in the context's list while registered
 * @refs: one for the registration (dropped by dereg_mr), one for the
 *	CQ or QP that claimed it (dropped when it is destroyed)
 * @uctx: the context it was registered on; outlives it
 * @hw: the engine whose PBLEs list the pages
 * @umem: the pinned pages
 * @pbl: level-1 PBLEs, one per 4 KiB page before the shadow page
 * @va: user address of the first byte (page aligned)
 * @type: IRDMA_MEMREG_TYPE_CQ or IRDMA_MEMREG_TYPE_QP
 * @ring_pages: CQ: CQE pages (0 for a shadow area registered alone);
 *	QP: SQ pages
 * @rq_pages: QP: RQ pages, which follow the SQ pages
 * @shadow_pa: bus address of the page after the rings, where the
 *	shadow area lives (the first page for a shadow area alone; 0 for
 *	CQE pages registered alone)
 * @shadow: the registration holds a shadow area (@shadow_pa is valid)
 * @claimed: a create verb took it (under the context's lock)
 *
 * Lifetime: from reg_user_mr until both the deregistration and the
 * object that claimed it (if any) are gone, whichever comes last.
 */
struct irdma_uring {
	struct list_head node;
	struct kref refs;
	struct irdma_ucontext *uctx;
	struct irdma_hw *hw;
	struct ib_umem *umem;
	struct irdma_pble_alloc pbl;
	u64 va;
	u16 type;
	u16 ring_pages;
	u16 rq_pages;
	u64 shadow_pa;
	bool shadow;
	bool claimed;
};

static inline struct irdma_ucontext *to_irdma_uctx(struct ib_ucontext *ibuctx)
{
	return container_of(ibuctx, struct irdma_ucontext, ibuctx);
}

/* irdma_uring_claim() of a CQ shadow area registered on its own */
#define IRDMA_URING_SHADOW	0xffff

int irdma_uring_req_check(const struct irdma_mem_reg_req *req, u64 start,
			  u64 len, int access, const char **why);
struct irdma_uring *irdma_uring_reg(struct ib_pd *ibpd,
				    const struct irdma_mem_reg_req *req,
				    u64 start, u64 len, struct ib_udata *udata);
void irdma_uring_unreg(struct irdma_uring *ur);
struct irdma_uring *irdma_uring_claim(struct ib_udata *udata, u64 va,
				      u16 type);
int irdma_uring_claim_req(struct ib_udata *udata, void *req, size_t len,
			  size_t resp_len, const u64 *va, u16 type,
			  struct irdma_uring **ur, const char **why);
void irdma_uring_put(struct irdma_uring *ur);
void irdma_uring_release(struct irdma_uring *ur);
u32 irdma_uring_first_pble(const struct irdma_uring *ur);
__le64 *irdma_uring_kmap_sq(const struct irdma_uring *ur, u32 bytes);
__le64 *irdma_uring_conn_uk(const struct irdma_uring *ur, u32 sq_quanta,
			    u8 hw_rev, struct irdma_uk_qp *uk);
void irdma_uring_uctx_init(struct irdma_ucontext *uctx);
void irdma_uring_uctx_fini(struct irdma_ucontext *uctx);

int irdma_udata_req(struct ib_udata *udata, void *req, size_t len,
		    const char **why);

#endif /* IRDMA_URING_H */
