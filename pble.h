/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: physical buffer list entry (PBLE) pool. PBLEs are 8-byte page
 * addresses kept in the PBLE HMC object; memory registrations and
 * virtually mapped queues point the device at a run of them.
 */
#ifndef IRDMA_PBLE_H
#define IRDMA_PBLE_H

#include <linux/spinlock.h>
#include <linux/types.h>

/* PBLEs in one 4 KiB page: the size of a full level-2 leaf */
#define IRDMA_PBLE_PER_PAGE	512

/**
 * struct irdma_pble_pool - the function's PBLEs
 * @lock: protects @map and @free
 * @map: one bit per PBLE, set while allocated
 * @first: PBLE index (within the PBLE object) of the pool's first entry
 * @cnt: PBLEs in the pool
 * @free: PBLEs not allocated
 */
struct irdma_pble_pool {
	spinlock_t lock; /* map, free */
	unsigned long *map;
	u32 first;
	u32 cnt;
	u32 free;
};

/**
 * struct irdma_pble_run - contiguous PBLEs
 * @idx: PBLE index of the first (absolute, @first included)
 * @cnt: number of PBLEs
 */
struct irdma_pble_run {
	u32 idx;
	u32 cnt;
};

/**
 * struct irdma_pble_alloc - a page list in the pool
 * @level: 1: @root holds the page addresses; 2: @root holds the addresses
 *	of @leaf_cnt leaves, each a run holding page addresses (every leaf
 *	but the last is full and page aligned)
 * @pages: page addresses the list holds
 * @root: level-1 list, or level-2 root
 * @leaf: level-2 leaves (kcalloc'd), NULL for level 1
 * @leaf_cnt: entries in @leaf
 */
struct irdma_pble_alloc {
	u8 level;
	u32 pages;
	struct irdma_pble_run root;
	struct irdma_pble_run *leaf;
	u32 leaf_cnt;
};

int irdma_pble_pool_init(struct irdma_pble_pool *pool, u32 first, u32 cnt);
void irdma_pble_pool_destroy(struct irdma_pble_pool *pool);
int irdma_pble_get(struct irdma_pble_pool *pool, u32 pages, bool lvl1_only,
		   struct irdma_pble_alloc *a);
void irdma_pble_put(struct irdma_pble_pool *pool, struct irdma_pble_alloc *a);

#endif /* IRDMA_PBLE_H */
