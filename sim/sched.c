// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: work-scheduler nodes, statistics and the user priority map.
 *
 * The wire has no scheduler, so WORK_SCHED_NODE only keeps the bookkeeping
 * the driver relies on: node ids and statistics instances are handed out
 * and taken back exactly once, and the handles come back in the
 * completion's op return value. The engine counts what it moves (frames
 * of the raw queues and of offloaded connections, RDMA messages, binds and
 * invalidations) once per function; GATHER_STATS reports those counts for
 * the function and for every instance it allocated alike.
 */
#include <asm/unaligned.h>
#include <linux/in.h>
#include <linux/slab.h>

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

/* where GATHER_STATS puts each counter, and at what width it wraps */
static const struct {
	u16 off;
	u8 bits;
} isim_gs_slots[ISIM_GS_NUM] = {
	[ISIM_GS_VLAN_ERR]		= { 0x004, 32 },
	[ISIM_GS_IP4_RX_OCTETS]		= { 0x008, 48 },
	[ISIM_GS_IP4_RX_PKTS]		= { 0x010, 48 },
	[ISIM_GS_IP4_RX_TRUNC]		= { 0x018, 32 },
	[ISIM_GS_IP4_RX_DISCARD]	= { 0x01c, 32 },
	[ISIM_GS_IP4_RX_FRAGS]		= { 0x020, 48 },
	[ISIM_GS_IP4_RX_MC_OCTETS]	= { 0x028, 48 },
	[ISIM_GS_IP4_RX_MC_PKTS]	= { 0x030, 48 },
	[ISIM_GS_IP6_RX_OCTETS]		= { 0x038, 48 },
	[ISIM_GS_IP6_RX_PKTS]		= { 0x040, 48 },
	[ISIM_GS_IP6_RX_TRUNC]		= { 0x048, 32 },
	[ISIM_GS_IP6_RX_DISCARD]	= { 0x04c, 32 },
	[ISIM_GS_IP6_RX_FRAGS]		= { 0x050, 48 },
	[ISIM_GS_IP6_RX_MC_OCTETS]	= { 0x058, 48 },
	[ISIM_GS_IP6_RX_MC_PKTS]	= { 0x060, 48 },
	[ISIM_GS_IP4_TX_OCTETS]		= { 0x068, 48 },
	[ISIM_GS_IP4_TX_PKTS]		= { 0x070, 48 },
	[ISIM_GS_IP4_TX_FRAGS]		= { 0x078, 48 },
	[ISIM_GS_IP4_TX_MC_OCTETS]	= { 0x080, 48 },
	[ISIM_GS_IP4_TX_MC_PKTS]	= { 0x088, 48 },
	[ISIM_GS_IP6_TX_OCTETS]		= { 0x090, 48 },
	[ISIM_GS_IP6_TX_PKTS]		= { 0x098, 48 },
	[ISIM_GS_IP6_TX_FRAGS]		= { 0x0a0, 48 },
	[ISIM_GS_IP6_TX_MC_OCTETS]	= { 0x0a8, 48 },
	[ISIM_GS_IP6_TX_MC_PKTS]	= { 0x0b0, 48 },
	[ISIM_GS_IP6_TX_NO_ROUTE]	= { 0x0b8, 32 },
	[ISIM_GS_IP4_TX_NO_ROUTE]	= { 0x0bc, 32 },
	[ISIM_GS_TCP_RX_SEGS]		= { 0x0c0, 48 },
	[ISIM_GS_TCP_RX_PROTO_ERR]	= { 0x0c8, 32 },
	[ISIM_GS_TCP_RX_OPT_ERR]	= { 0x0cc, 32 },
	[ISIM_GS_TCP_TX_SEGS]		= { 0x0d0, 48 },
	[ISIM_GS_TCP_RTX_SEGS]		= { 0x0dc, 32 },
	[ISIM_GS_UDP_RX]		= { 0x0e0, 48 },
	[ISIM_GS_UDP_TX]		= { 0x0e8, 48 },
	[ISIM_GS_RDMA_RX_WRITES]	= { 0x0f0, 48 },
	[ISIM_GS_RDMA_RX_READS]		= { 0x0f8, 48 },
	[ISIM_GS_RDMA_RX_SENDS]		= { 0x100, 48 },
	[ISIM_GS_RDMA_TX_WRITES]	= { 0x108, 48 },
	[ISIM_GS_RDMA_TX_READS]		= { 0x110, 48 },
	[ISIM_GS_RDMA_TX_SENDS]		= { 0x118, 48 },
	[ISIM_GS_BINDS]			= { 0x120, 48 },
	[ISIM_GS_INVALIDATES]		= { 0x128, 48 },
	[ISIM_GS_RX_ECN_MARKED]		= { 0x130, 48 },
	[ISIM_GS_CNP_HANDLED]		= { 0x138, 32 },
	[ISIM_GS_CNP_IGNORED]		= { 0x13c, 32 },
	[ISIM_GS_CNP_SENT]		= { 0x140, 32 },
};

/**
 * isim_hwc_frame - count a frame the engine sent or took in
 * @f: function
 * @ipv4: carried by IPv4 (else IPv6)
 * @proto: IPPROTO_TCP (a segment) or IPPROTO_UDP (a RoCEv2 datagram)
 * @rx: received (else transmitted)
 * @octets: bytes from the IP header on
 *
 * Callable from any context.
 */
void isim_hwc_frame(struct isim_func *f, bool ipv4, u8 proto, bool rx,
		    u32 octets)
{
	static const enum isim_gs ctr[2][2][2] = {
		/* [ipv4][rx]: packets, octets */
		[0][0] = { ISIM_GS_IP6_TX_PKTS, ISIM_GS_IP6_TX_OCTETS },
		[0][1] = { ISIM_GS_IP6_RX_PKTS, ISIM_GS_IP6_RX_OCTETS },
		[1][0] = { ISIM_GS_IP4_TX_PKTS, ISIM_GS_IP4_TX_OCTETS },
		[1][1] = { ISIM_GS_IP4_RX_PKTS, ISIM_GS_IP4_RX_OCTETS },
	};

	isim_hwc_add(f, ctr[ipv4][rx][0], 1);
	isim_hwc_add(f, ctr[ipv4][rx][1], octets);
	if (proto == IPPROTO_UDP)
		isim_hwc_add(f, rx ? ISIM_GS_UDP_RX : ISIM_GS_UDP_TX, 1);
	else
		isim_hwc_add(f, rx ? ISIM_GS_TCP_RX_SEGS : ISIM_GS_TCP_TX_SEGS,
			     1);
}

/**
 * isim_hwc_segment - count a TCP segment the engine sent or took in
 * @f: function
 * @ipv4: carried by IPv4 (else IPv6)
 * @rx: received (else transmitted)
 * @octets: bytes from the IP header on
 *
 * Callable from any context.
 */
void isim_hwc_segment(struct isim_func *f, bool ipv4, bool rx, u32 octets)
{
	isim_hwc_frame(f, ipv4, IPPROTO_TCP, rx, octets);
}

/**
 * isim_op_gather_stats - GATHER_STATS: write the counters to host memory
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * An instance must have been allocated; the function named by word 5
 * must be this one.
 */
void isim_op_gather_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 idx = FIELD_GET(ISIM_STATS_HDR_INDEX, hdr);
	__le64 *blk;
	unsigned int i;

	if ((hdr & ISIM_STATS_HDR_USE_INST) && !test_bit(idx, f->conn.stats)) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	if ((hdr & ISIM_STATS_HDR_USE_FN) &&
	    FIELD_GET(ISIM_STATS_W5_FN, wqe[5]) != f->id) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	if (!IS_ALIGNED(wqe[4], 8)) {
		res->minor = ISIM_MIN_BAD_ALIGN;
		return;
	}
	blk = kzalloc(ISIM_GS_BLOCK, GFP_KERNEL);
	if (!blk) {
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	for (i = 0; i < ISIM_GS_NUM; i++) {
		u64 v = atomic64_read(&f->hwc[i]);
		u8 *slot = (u8 *)blk + isim_gs_slots[i].off;

		if (isim_gs_slots[i].bits == 32)
			put_unaligned_le32(lower_32_bits(v), slot);
		else
			put_unaligned_le64(v & GENMASK_ULL(47, 0), slot);
	}
	if (isim_dma_write(f, wqe[4], blk, ISIM_GS_BLOCK))
		res->minor = ISIM_MIN_DMA_FAULT;
	kfree(blk);
}
