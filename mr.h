/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: memory regions and memory windows. Both are STags: a 24-bit
 * index into the MR object of the function's HMC and a key byte the
 * consumer may change on fast-register. mr.c owns the index allocator,
 * the page lists, the CQP commands and the verbs.
 */
#ifndef IRDMA_MR_H
#define IRDMA_MR_H

#include <linux/bitfield.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include "pble.h"
#include "uk.h"

struct irdma_hw;
struct irdma_uring;

/* an STag is an MR object index (31:8) and a key byte (7:0) */
#define IRDMA_MR_STAG_IDX	GENMASK(31, 8)

static inline u32 irdma_stag_index(u32 stag)
{
	return FIELD_GET(IRDMA_MR_STAG_IDX, stag);
}

/**
 * struct irdma_mr - a memory region and the STag the engine knows it by
 * @ibmr: the core's MR; first, the core allocates none for us
 * @hw: the engine that holds the STag
 * @umem: pinned user pages (user MRs), else NULL
 * @pbl: PBLEs listing the pages; level 0 when the MR needs none
 * @stag: STag as allocated (index << 8 | key)
 * @first_page: bus address of the first page (an MR of one page, or
 *	the first page a fast-register maps)
 * @npages: pages the PBLEs hold (fast-register: what map_mr_sg set)
 * @max_pages: pages a fast-register MR may map (its PBLEs)
 * @uring: a CQ or QP ring registration (no STag), else NULL
 *
 * Lives from the verb that creates it to dereg_mr; the core serialises
 * dereg_mr against every other use of the MR.
 */
struct irdma_mr {
	struct ib_mr ibmr;
	struct irdma_hw *hw;
	struct ib_umem *umem;
	struct irdma_pble_alloc pbl;
	u32 stag;
	u64 first_page;
	u32 npages;
	u32 max_pages;
	struct irdma_uring *uring;
};

/**
 * struct irdma_mw - a memory window
 * @ibmw: the core's MW; first, for INIT_RDMA_OBJ_SIZE
 * @stag: STag as allocated (index << 8 | key)
 */
struct irdma_mw {
	struct ib_mw ibmw;
	u32 stag;
};

struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *irdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len,
				u64 virt, int access, struct ib_udata *udata);
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ib_mr *irdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg);
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset);
int irdma_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int irdma_dealloc_mw(struct ib_mw *ibmw);
unsigned long irdma_mr_page_sizes(enum irdma_hw_gen gen);
int irdma_pble_write(struct irdma_hw *hw, u32 idx, u64 addr);
int irdma_mr_post_reg(struct irdma_uk_qp *uk, const struct ib_reg_wr *wr,
		      bool signaled);
int irdma_mr_kbuf_reg(struct ib_pd *ibpd, u64 pa, u32 len, u32 *stag);
int irdma_mr_kbuf_dereg(struct ib_pd *ibpd, u32 stag);

#endif /* IRDMA_MR_H */
