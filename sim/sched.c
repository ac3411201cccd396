// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: work-scheduler nodes, statistics instances and the user
 * priority map.
 *
 * The wire has no scheduler and the engine keeps no counters yet, so these
 * commands only keep the bookkeeping the driver relies on: node ids and
 * statistics instances are handed out and taken back exactly once, and
 * the handles come back in the completion's op return value.
 */
#include "isim.h"

/**
 * isim_op_ws_node - WORK_SCHED_NODE: add, modify or delete a node
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status; for an add, the node's qset handle
 */
void isim_op_ws_node(struct isim_func *f, const u64 *wqe,
		     struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 id = FIELD_GET(ISIM_WS_HDR_NODE, hdr);
	bool used = test_bit(id, f->conn.ws);

	switch (FIELD_GET(ISIM_WS_HDR_OP, hdr)) {
	case ISIM_WS_ADD:
		if (used) {
			res->minor = ISIM_MIN_EXISTS;
			break;
		}
		set_bit(id, f->conn.ws);
		res->ret_val = id;
		break;
	case ISIM_WS_MODIFY:
		if (!used)
			res->minor = ISIM_MIN_NO_OBJECT;
		break;
	case ISIM_WS_DELETE:
		if (!used)
			res->minor = ISIM_MIN_NO_OBJECT;
		clear_bit(id, f->conn.ws);
		break;
	default:
		res->minor = ISIM_MIN_BAD_FIELD;
	}
}

/**
 * isim_op_manage_stats - MANAGE_STATS: allocate or free an instance
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status; for an allocation, the instance index
 */
void isim_op_manage_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 idx = FIELD_GET(ISIM_STATS_HDR_INDEX, hdr);

	if (hdr & ISIM_STATS_HDR_ALLOC) {
		idx = find_first_zero_bit(f->conn.stats, ISIM_STATS_INSTANCES);
		if (idx >= ISIM_STATS_INSTANCES) {
			res->minor = ISIM_MIN_BAD_SIZE;
			return;
		}
		set_bit(idx, f->conn.stats);
		res->ret_val = idx;
		return;
	}
	if (!test_and_clear_bit(idx, f->conn.stats))
		res->minor = ISIM_MIN_NO_OBJECT;
}

/**
 * isim_op_up_map - UP_MAP: user priority to traffic class map
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_up_map(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res)
{
	if (FIELD_GET(ISIM_UPMAP_W5_FN, wqe[5]) != f->id)
		res->minor = ISIM_MIN_BAD_ID;
}
