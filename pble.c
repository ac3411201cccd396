// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: PBLE pool. A bitmap over the function's PBLEs hands out
 * contiguous runs: one run for a level-1 list, or a root run plus
 * page-sized leaves for a level-2 list when the pool is too fragmented
 * for one run. Failures leave the pool exactly as it was.
 */
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "pble.h"

/**
 * irdma_pble_pool_init - set up an empty pool
 * @pool: the pool
 * @first: PBLE index of the first entry
 * @cnt: number of PBLEs (at least 1)
 *
 * Return: 0, -EINVAL for an empty or overflowing range, -ENOMEM.
 */
int irdma_pble_pool_init(struct irdma_pble_pool *pool, u32 first, u32 cnt)
{
	if (!cnt || first > U32_MAX - cnt)
		return -EINVAL;
	pool->map = bitmap_zalloc(cnt, GFP_KERNEL);
	if (!pool->map)
		return -ENOMEM;
	spin_lock_init(&pool->lock);
	pool->first = first;
	pool->cnt = cnt;
	pool->free = cnt;
	return 0;
}

/**
 * irdma_pble_pool_destroy - free the pool's bitmap
 * @pool: the pool; every allocation must have been put back
 */
void irdma_pble_pool_destroy(struct irdma_pble_pool *pool)
{
	WARN_ON_ONCE(pool->map && pool->free != pool->cnt);
	bitmap_free(pool->map);
	pool->map = NULL;
}

/* First free run of @cnt entries whose index is a multiple of @align + 1 */
static int irdma_pble_take(struct irdma_pble_pool *pool, u32 cnt, u32 align,
			   struct irdma_pble_run *run)
{
	unsigned long pos;

	lockdep_assert_held(&pool->lock);
	/* alignment is of the absolute PBLE index, not of the bit */
	pos = bitmap_find_next_zero_area_off(pool->map, pool->cnt, 0, cnt, align,
					     align ? pool->first & align : 0);
	if (pos >= pool->cnt)
		return -ENOSPC;
	bitmap_set(pool->map, pos, cnt);
	pool->free -= cnt;
	run->idx = pool->first + pos;
	run->cnt = cnt;
	return 0;
}

static void irdma_pble_give(struct irdma_pble_pool *pool,
			    const struct irdma_pble_run *run)
{
	lockdep_assert_held(&pool->lock);
	if (!run->cnt)
		return;
	bitmap_clear(pool->map, run->idx - pool->first, run->cnt);
	pool->free += run->cnt;
}

static int irdma_pble_take_leaves(struct irdma_pble_pool *pool,
				  struct irdma_pble_alloc *a)
{
	u32 left = a->pages;
	u32 i;
	int err;

	for (i = 0; i < a->leaf_cnt; i++) {
		u32 n = min_t(u32, left, IRDMA_PBLE_PER_PAGE);
		/* a full leaf must be one page of the PBLE object */
		u32 align = n == IRDMA_PBLE_PER_PAGE ? IRDMA_PBLE_PER_PAGE - 1 : 0;

		err = irdma_pble_take(pool, n, align, &a->leaf[i]);
		if (err)
			goto err_give_leaves;
		left -= n;
	}
	return 0;

err_give_leaves:
	while (i--)
		irdma_pble_give(pool, &a->leaf[i]);
	return err;
}

/* Level 2 under the lock: leaves first, then the root that lists them */
static int irdma_pble_take_lvl2(struct irdma_pble_pool *pool,
				struct irdma_pble_alloc *a)
{
	u32 i;
	int err;

	err = irdma_pble_take_leaves(pool, a);
	if (err)
		return err;
	err = irdma_pble_take(pool, a->leaf_cnt, 0, &a->root);
	if (err)
		goto err_give_leaves;
	a->level = 2;
	return 0;

err_give_leaves:
	for (i = 0; i < a->leaf_cnt; i++)
		irdma_pble_give(pool, &a->leaf[i]);
	return err;
}

/**
 * irdma_pble_get - allocate a page list of @pages entries
 * @pool: the pool
 * @pages: page addresses to hold (at least 1)
 * @lvl1_only: the user cannot take a level-2 list
 * @a: the allocation
 *
 * Prefers one contiguous level-1 run; otherwise builds a level-2 list.
 * May sleep.
 *
 * Return: 0, -EINVAL for a size of 0 or beyond the pool, -ENOMEM when
 * fewer PBLEs are free than needed, -ENOSPC when enough are free but too
 * fragmented.
 */
int irdma_pble_get(struct irdma_pble_pool *pool, u32 pages, bool lvl1_only,
		   struct irdma_pble_alloc *a)
{
	u32 leaves = DIV_ROUND_UP(pages, IRDMA_PBLE_PER_PAGE);
	int err;

	memset(a, 0, sizeof(*a));
	if (!pages || pages > pool->cnt)
		return -EINVAL;
	a->pages = pages;
	if (!lvl1_only && leaves > 1) {
		a->leaf = kcalloc(leaves, sizeof(*a->leaf), GFP_KERNEL);
		if (!a->leaf)
			return -ENOMEM;
	}
	spin_lock(&pool->lock);
	err = pages > pool->free ? -ENOMEM :
	      irdma_pble_take(pool, pages, 0, &a->root);
	if (!err) {
		a->level = 1;
	} else if (err == -ENOSPC && a->leaf) {
		a->leaf_cnt = leaves;
		err = pages + leaves > pool->free ? -ENOMEM :
		      irdma_pble_take_lvl2(pool, a);
	}
	spin_unlock(&pool->lock);
	if (a->level != 2) {
		kfree(a->leaf);
		a->leaf = NULL;
		a->leaf_cnt = 0;
	}
	return err;
}

/**
 * irdma_pble_put - give a page list back
 * @pool: the pool it came from
 * @a: the allocation; NULL or never-filled allocations are ignored
 */
void irdma_pble_put(struct irdma_pble_pool *pool, struct irdma_pble_alloc *a)
{
	u32 i;

	if (!a || !a->level)
		return;
	spin_lock(&pool->lock);
	irdma_pble_give(pool, &a->root);
	for (i = 0; i < a->leaf_cnt; i++)
		irdma_pble_give(pool, &a->leaf[i]);
	spin_unlock(&pool->lock);
	kfree(a->leaf);
	memset(a, 0, sizeof(*a));
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/pble_test.c"
#endif
