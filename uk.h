/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: data-path formats shared with user space (SQ/RQ WQEs, CQEs,
 * doorbells, shadow areas). Nothing here talks to the device except
 * through struct irdma_mmio; everything else is plain memory.
 */
#ifndef IRDMA_UK_H
#define IRDMA_UK_H

#include <linux/types.h>
#include "hw_defs.h"

/* Largest SQ/RQ fragment count the hardware accepts (gen2 / gen1) */
#define IRDMA_UK_MAX_FRAGS		13
#define IRDMA_UK_MAX_FRAGS_G1		3
/* Largest inline payload (gen2 / gen1) */
#define IRDMA_UK_MAX_INLINE		101
#define IRDMA_UK_MAX_INLINE_G1		48
/* Quanta in one SQ "chunk": a WQE never straddles a chunk boundary */
#define IRDMA_UK_SQ_CHUNK		8
#define IRDMA_UK_SQ_CHUNK_G1		2
#define IRDMA_UK_MAX_QUANTA		8
/*
 * SQ quanta an iWARP QP, kernel or user, keeps for its connection WQE: the
 * one irdma_uk_conn_lsmm(), irdma_uk_conn_rtr() or irdma_uk_conn_nop()
 * writes at quantum 0. The
 * engine runs the SQ in order from quantum 0, so a kept quantum that no
 * connection WQE fills would stop it before the first posted WR; the RTS
 * AE WQEs are not used (IRDMA_FEATURE_RTS_AE is not offered).
 */
#define IRDMA_UK_CONN_QUANTA		1
/* Largest single fragment length (31 bits in the gen2 fragment word) */
#define IRDMA_UK_MAX_FRAG_LEN		0x7fffffffU
/* STags of the zero-length RTR read (never used for data) */
#define IRDMA_UK_RTR_LOCAL_STAG		0xabcd
#define IRDMA_UK_RTR_REMOTE_STAG	0x1234

struct irdma_mmio;

/**
 * struct irdma_mmio_ops - how a register write reaches the device
 * @write32: write @val at byte offset @off of the register space
 * @read32: read the register at byte offset @off
 *
 * The driver uses an implementation over the BAR mapping; KUnit suites
 * use one backed by an array so they can see every doorbell.
 */
struct irdma_mmio_ops {
	void (*write32)(const struct irdma_mmio *mmio, u32 off, u32 val);
	u32 (*read32)(const struct irdma_mmio *mmio, u32 off);
};

/**
 * struct irdma_mmio - a register space
 * @ops: accessors
 * @base: BAR mapping (real device), unused by fakes
 * @priv: accessor-private data (fakes)
 */
struct irdma_mmio {
	const struct irdma_mmio_ops *ops;
	u8 __iomem *base;
	void *priv;
};

/**
 * irdma_mmio_wr32 - write a device register
 * @mmio: register space
 * @off: byte offset
 * @val: value
 */
static inline void irdma_mmio_wr32(const struct irdma_mmio *mmio, u32 off,
				   u32 val)
{
	mmio->ops->write32(mmio, off, val);
}

/**
 * irdma_mmio_rd32 - read a device register
 * @mmio: register space
 * @off: byte offset
 *
 * Return: the register value.
 */
static inline u32 irdma_mmio_rd32(const struct irdma_mmio *mmio, u32 off)
{
	return mmio->ops->read32(mmio, off);
}

extern const struct irdma_mmio_ops irdma_mmio_iomem_ops;

/**
 * struct irdma_uk_sge - one scatter/gather element
 * @addr: address (IOVA for the STag)
 * @len: length in bytes
 * @lkey: local STag
 */
struct irdma_uk_sge {
	u64 addr;
	u32 len;
	u32 lkey;
};

/**
 * struct irdma_uk_sq_slot - what the driver remembers of a posted SQ WR
 * @wr_id: caller's cookie
 * @len: total payload length
 * @quanta: quanta the WQE occupies
 */
struct irdma_uk_sq_slot {
	u64 wr_id;
	u32 len;
	u8 quanta;
};

/**
 * struct irdma_uk_qp - a QP's send and receive rings as the driver sees them
 * @sq: SQ ring, @sq_size quanta of 4 words
 * @rq: RQ ring, @rq_size WQEs of (4 << @rq_shift) words
 * @sq_slots: per-quantum bookkeeping of posted WRs (indexed by first quantum)
 * @rq_wrid: per-WQE cookie of posted receives
 * @shadow: doorbell shadow area (word 0: device's SQ tail)
 * @mmio: register space for the doorbell
 * @db_off: offset of WQEALLOC in @mmio
 * @qp_id: hardware QP number
 * @sq_size: SQ size in quanta (power of two)
 * @sq_head: next quantum to fill
 * @sq_tail: oldest quantum not yet completed
 * @sq_rung: @sq_head when the doorbell was last written
 * @rq_size: RQ size in WQEs (power of two)
 * @rq_head: next RQ WQE to fill
 * @rq_tail: oldest RQ WQE not yet completed
 * @conn_quanta: quanta at the start of the SQ kept for the connection
 *	WQEs (LSMM, RTR); posting starts after them
 * @rq_shift: RQ WQE size is 32 << @rq_shift bytes
 * @sq_pol: valid bit value for the current SQ lap
 * @rq_pol: valid bit value for the current RQ lap
 * @hw_rev: 1 (X722) or 2 (E810), as enum irdma_hw_gen
 * @max_frags: fragment limit for SQ and RQ WQEs
 * @max_inline: inline payload limit
 *
 * Not thread safe: the owner serialises posting (a per-QP SQ lock and an
 * RQ lock in the verbs layer).
 */
struct irdma_uk_qp {
	__le64 *sq;
	__le64 *rq;
	struct irdma_uk_sq_slot *sq_slots;
	u64 *rq_wrid;
	__le64 *shadow;
	const struct irdma_mmio *mmio;
	u32 db_off;
	u32 qp_id;
	u32 sq_size;
	u32 sq_head;
	u32 sq_tail;
	u32 sq_rung;
	u32 rq_size;
	u32 rq_head;
	u32 rq_tail;
	u8 conn_quanta;
	u8 rq_shift;
	u8 sq_pol;
	u8 rq_pol;
	u8 hw_rev;
	u8 max_frags;
	u32 max_inline;
};

/**
 * struct irdma_uk_held - a WQE written to the SQ but not yet valid
 * @wqe: its first quantum
 * @hdr: the header that makes it valid
 *
 * The engine runs the SQ in order and stops at a quantum without a valid
 * header, so a held WQE also holds back every WQE posted after it.
 */
struct irdma_uk_held {
	__le64 *wqe;
	u64 hdr;
};

/**
 * struct irdma_uk_wr - a send-queue work request
 * @wr_id: cookie returned in the completion
 * @op: SQ opcode (enum irdma_wqe_op)
 * @sg: scatter/gather list (local buffers)
 * @num_sge: entries in @sg
 * @remote_addr: remote address for RDMA write/read
 * @rkey: remote STag for write/read
 * @inv_stag: STag to invalidate (send with invalidate, local invalidate)
 * @imm: immediate data (with @imm_valid)
 * @ah_id: address handle (UD)
 * @dest_qp: destination QP (UD)
 * @qkey: Q key (UD)
 * @l4len: TCP header length in 32-bit words (sends of a raw queue, the
 *	ILQ; 0 otherwise)
 * @maclen: gen1 raw queue send: bytes of the frame's Ethernet header
 * @iplen: gen1 raw queue send: bytes of its IP header (20 or 40)
 * @ipv4: gen1 raw queue send: the frame is IPv4 (else IPv6)
 * @loopback: gen1 raw queue send: hand the frame to the function's own
 *	offloaded connection rather than the wire
 * @imm_valid: carry @imm
 * @inline_data: copy the payload into the WQE
 * @signaled: ask for a completion
 * @read_fence: wait for earlier reads
 * @local_fence: wait for earlier WRs
 * @hold: if set, the WQE is written without its header, which is kept
 *	here for irdma_uk_release_held() (send ops only)
 */
struct irdma_uk_wr {
	u64 wr_id;
	u8 op;
	const struct irdma_uk_sge *sg;
	u32 num_sge;
	u64 remote_addr;
	u32 rkey;
	u32 inv_stag;
	u64 imm;
	u32 ah_id;
	u32 dest_qp;
	u32 qkey;
	u8 l4len;
	u8 maclen;
	u8 iplen;
	bool ipv4;
	bool loopback;
	bool imm_valid;
	bool inline_data;
	bool signaled;
	bool read_fence;
	bool local_fence;
	struct irdma_uk_held *hold;
};

/**
 * struct irdma_uk_bind - memory window bind
 * @wr_id: cookie
 * @mw_stag: the window's STag
 * @mr_stag: parent MR STag
 * @va: window start
 * @len: window length
 * @rights: IRDMA_ACCESS_* bits
 * @zero_based: window addressed from 0 rather than by VA
 * @type2: type 2 window
 * @signaled: ask for a completion
 */
struct irdma_uk_bind {
	u64 wr_id;
	u32 mw_stag;
	u32 mr_stag;
	u64 va;
	u64 len;
	u8 rights;
	bool zero_based;
	bool type2;
	bool signaled;
};

/**
 * struct irdma_uk_fastreg - fast register MR
 * @wr_id: cookie
 * @stag: the MR's STag (index << 8 | key)
 * @va: IOVA (or first-byte offset when @zero_based)
 * @len: length, at most 2^41 - 1
 * @pbl_addr: address of the page list (4 KiB aligned)
 * @first_pble: first PBLE index (when the list lives in the PBLE object)
 * @pbl_levels: LPBLSIZE: 0 single page, 1 level-1, 2 level-2
 * @page_size: IRDMA_PAGE_SIZE_*
 * @rights: IRDMA_ACCESS_* bits
 * @zero_based: addressed from 0
 * @signaled: ask for a completion
 */
struct irdma_uk_fastreg {
	u64 wr_id;
	u32 stag;
	u64 va;
	u64 len;
	u64 pbl_addr;
	u32 first_pble;
	u8 pbl_levels;
	u8 page_size;
	u8 rights;
	bool zero_based;
	bool signaled;
};

/**
 * struct irdma_uk_cq - a completion queue ring
 * @ring: CQEs, @size entries of 4 words (8 with @ext64)
 * @shadow: CQ shadow area (word 0 head, word 4 arm state)
 * @mmio: register space for the arm doorbell
 * @arm_off: offset of CQARM in @mmio
 * @cq_id: hardware CQ number
 * @size: entries (CQEs)
 * @head: next CQE to look at
 * @pol: valid bit expected in the current lap
 * @ext64: 64-byte CQEs (AVOIDMEMCNFLCT)
 * @hw_rev: 1 for gen1, whose CQEs have no extension (bit 50 of a raw
 *	queue's RQ CQE says the frame is tagged) and say IPv4 in word 2
 *
 * Not thread safe: the CQ lock serialises polling and arming.
 */
struct irdma_uk_cq {
	__le64 *ring;
	__le64 *shadow;
	const struct irdma_mmio *mmio;
	u32 arm_off;
	u32 cq_id;
	u32 size;
	u32 head;
	u8 pol;
	bool ext64;
	u8 hw_rev;
};

/**
 * struct irdma_uk_cqe - a decoded CQE
 * @ctx: completion context (QP context word 21)
 * @qp_id: QP number
 * @wqe_idx: SQ quantum index or RQ quantum index of the WQE
 * @bytes: bytes received (RQ)
 * @tcp_seq_rtt: TCP sequence number or RTT
 * @inv_stag: STag invalidated by the peer (with @stag_inv)
 * @ud_src_qpn: UD source QP
 * @imm: immediate data (with @imm_valid)
 * @ud_smac: UD source MAC (with @smac_valid), as a 48-bit number
 * @ud_vlan: UD VLAN (with @vlan_valid)
 * @major: major error code (0 = success, 1 = flushed)
 * @minor: minor error code
 * @op: opcode (SQ) or IRDMA_WQEOP_RECV(_IMM) (RQ)
 * @sq: completion of an SQ WQE
 * @error: the WR failed
 * @solicited: solicited event
 * @stag_inv: @inv_stag is valid
 * @push_dropped: the device dropped a push WQE
 * @ext: the CQE had an extension (consumes two ring slots)
 * @imm_valid: @imm is valid
 * @smac_valid: @ud_smac is valid
 * @vlan_valid: @ud_vlan is valid
 * @ipv4: RQ CQE of a raw queue (the ILQ): the frame is IPv4 (else IPv6);
 *	the same bit as @stag_inv, which the caller's queue type tells apart
 */
struct irdma_uk_cqe {
	u64 ctx;
	u32 qp_id;
	u32 wqe_idx;
	u32 bytes;
	u32 tcp_seq_rtt;
	u32 inv_stag;
	u32 ud_src_qpn;
	u32 imm;
	u64 ud_smac;
	u16 ud_vlan;
	u16 major;
	u16 minor;
	u8 op;
	bool sq;
	bool error;
	bool solicited;
	bool stag_inv;
	bool push_dropped;
	bool ext;
	bool imm_valid;
	bool smac_valid;
	bool vlan_valid;
	bool ipv4;
};

/**
 * struct irdma_uk_done - a completed work request
 * @wr_id: caller's cookie
 * @bytes: bytes transferred
 * @op: opcode of the WR
 * @flushed: completed by a flush, not executed
 * @named: the CQE names this very WR, so its error code is this WR's;
 *	other WRs a flush CQE stands for were merely flushed
 */
struct irdma_uk_done {
	u64 wr_id;
	u32 bytes;
	u8 op;
	bool flushed;
	bool named;
};

int irdma_uk_sq_quanta(u32 frags, u16 *quanta);
u16 irdma_uk_inline_quanta(u8 hw_rev, u32 len);
int irdma_uk_rq_shift(u32 frags, u8 *shift);

int irdma_uk_qp_init(struct irdma_uk_qp *qp);
int irdma_uk_post_rdma(struct irdma_uk_qp *qp, const struct irdma_uk_wr *wr);
int irdma_uk_post_send(struct irdma_uk_qp *qp, const struct irdma_uk_wr *wr);
int irdma_uk_post_local_inv(struct irdma_uk_qp *qp,
			    const struct irdma_uk_wr *wr);
int irdma_uk_post_bind(struct irdma_uk_qp *qp,
		       const struct irdma_uk_bind *bind);
int irdma_uk_post_fastreg(struct irdma_uk_qp *qp,
			  const struct irdma_uk_fastreg *reg);
int irdma_uk_post_nop(struct irdma_uk_qp *qp, u64 wr_id, bool signaled);
int irdma_uk_post_recv(struct irdma_uk_qp *qp, u64 wr_id,
		       const struct irdma_uk_sge *sg, u32 num_sge);
int irdma_uk_conn_lsmm(struct irdma_uk_qp *qp, u64 addr, u32 len, u32 stag);
int irdma_uk_conn_rtr(struct irdma_uk_qp *qp, bool read);
int irdma_uk_conn_nop(struct irdma_uk_qp *qp);
void irdma_uk_ring_sq_db(struct irdma_uk_qp *qp);
void irdma_uk_release_held(struct irdma_uk_qp *qp,
			   const struct irdma_uk_held *held);
int irdma_uk_qp_complete(struct irdma_uk_qp *qp,
			 const struct irdma_uk_cqe *cqe,
			 struct irdma_uk_done *done);

int irdma_uk_cq_init(struct irdma_uk_cq *cq);
int irdma_uk_cq_peek(const struct irdma_uk_cq *cq, struct irdma_uk_cqe *cqe);
void irdma_uk_cq_advance(struct irdma_uk_cq *cq, const struct irdma_uk_cqe *cqe);
int irdma_uk_cq_poll(struct irdma_uk_cq *cq, struct irdma_uk_cqe *cqe);
void irdma_uk_cq_arm(struct irdma_uk_cq *cq, bool solicited_only);

#endif /* IRDMA_UK_H */
