// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: SQ/RQ work queue elements, CQE decoding and doorbells.
 *
 * These are the formats rdma-core's libirdma writes and reads from user
 * space on the same queues, so every bit here has to match it. Queue
 * memory is plain (coherent DMA) memory; the only device access is the
 * doorbell write through struct irdma_mmio.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "uk.h"

static void irdma_mmio_iomem_wr32(const struct irdma_mmio *mmio, u32 off,
				  u32 val)
{
	writel(val, mmio->base + off);
}

static u32 irdma_mmio_iomem_rd32(const struct irdma_mmio *mmio, u32 off)
{
	return readl(mmio->base + off);
}

/* Register accessors for a real BAR mapping (irdma_mmio.base). */
const struct irdma_mmio_ops irdma_mmio_iomem_ops = {
	.write32 = irdma_mmio_iomem_wr32,
	.read32 = irdma_mmio_iomem_rd32,
};

/**
 * irdma_uk_sq_quanta - quanta an SQ WQE with @frags fragments needs
 * @frags: fragments, counting immediate data as one
 * @quanta: result, 1..8
 *
 * Quantum 0 holds one fragment, every further quantum two.
 *
 * Return: 0, or -EINVAL for more than 15 fragments.
 */
int irdma_uk_sq_quanta(u32 frags, u16 *quanta)
{
	if (frags > 2 * IRDMA_UK_MAX_QUANTA - 1)
		return -EINVAL;
	*quanta = frags / 2 + 1;
	return 0;
}

/**
 * irdma_uk_inline_quanta - quanta an inline WQE of @len bytes needs
 * @hw_rev: 1 or 2
 * @len: payload length, within the generation's inline limit
 *
 * gen2 carries 8 bytes in quantum 0 and 31 in each further one (the last
 * byte is the valid byte); gen1 16 bytes, then 32.
 *
 * Return: number of quanta.
 */
u16 irdma_uk_inline_quanta(u8 hw_rev, u32 len)
{
	if (hw_rev == 1)
		return len <= 16 ? 1 : 2;
	if (len <= 8)
		return 1;
	return min_t(u32, DIV_ROUND_UP(len - 8, 31) + 1, IRDMA_UK_MAX_QUANTA);
}

/**
 * irdma_uk_rq_shift - RQ WQE size for @frags fragments
 * @frags: fragments per receive
 * @shift: result: the WQE is 32 << @shift bytes
 *
 * Return: 0, or -EINVAL for more than 14 fragments.
 */
int irdma_uk_rq_shift(u32 frags, u8 *shift)
{
	if (frags > 14)
		return -EINVAL;
	if (frags <= 1)
		*shift = 0;
	else if (frags <= 3)
		*shift = 1;
	else if (frags <= 7)
		*shift = 2;
	else
		*shift = 3;
	return 0;
}

static bool irdma_uk_is_gen1(const struct irdma_uk_qp *qp)
{
	return qp->hw_rev == 1;
}

static __le64 *irdma_uk_sq_quantum(const struct irdma_uk_qp *qp, u32 idx)
{
	return qp->sq + (size_t)idx * IRDMA_QUANTUM_WORDS;
}

static u32 irdma_uk_sq_free(const struct irdma_uk_qp *qp)
{
	u32 used = (qp->sq_head - qp->sq_tail) & (qp->sq_size - 1);

	return qp->sq_size - used - 1;
}

/* Publish a WQE: body first, then the header with the valid bit. */
static void irdma_uk_wqe_commit(__le64 *wqe, u64 hdr)
{
	dma_wmb();
	irdma_wqe_set(wqe, IRDMA_WQE_HDR_WORD, hdr);
}

/* Publish a WQE, or keep its header for later when the WR says so */
static void irdma_uk_wqe_publish(const struct irdma_uk_wr *wr, __le64 *wqe,
				 u64 hdr)
{
	if (wr->hold) {
		wr->hold->wqe = wqe;
		wr->hold->hdr = hdr;
		return;
	}
	irdma_uk_wqe_commit(wqe, hdr);
}

/* Take @quanta quanta at the head; the lap changes at index 0. */
static u32 irdma_uk_sq_claim(struct irdma_uk_qp *qp, u16 quanta)
{
	u32 idx = qp->sq_head;

	if (!idx)
		qp->sq_pol ^= 1;
	qp->sq_head = (idx + quanta) & (qp->sq_size - 1);
	return idx;
}

static void irdma_uk_sq_track(struct irdma_uk_qp *qp, u32 idx, u64 wr_id,
			      u32 len, u16 quanta)
{
	qp->sq_slots[idx].wr_id = wr_id;
	qp->sq_slots[idx].len = len;
	qp->sq_slots[idx].quanta = quanta;
}

static void irdma_uk_write_nop(struct irdma_uk_qp *qp, bool signaled)
{
	u32 idx = irdma_uk_sq_claim(qp, 1);
	__le64 *wqe = irdma_uk_sq_quantum(qp, idx);

	irdma_uk_sq_track(qp, idx, 0, 0, 1);
	irdma_wqe_set(wqe, 0, 0);
	irdma_wqe_set(wqe, 1, 0);
	irdma_wqe_set(wqe, 2, 0);
	irdma_uk_wqe_commit(wqe, FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_NOP) |
			    FIELD_PREP(IRDMA_SQWQE_SIGCOMPL, signaled) |
			    FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol));
}

/*
 * Reserve room for a WQE of @quanta quanta. A WQE never crosses a chunk
 * boundary (8 quanta on gen2, 2 on gen1); the rest of a chunk that is too
 * short is filled with NOPs. Returns the WQE or NULL when the SQ is full.
 */
static __le64 *irdma_uk_sq_reserve(struct irdma_uk_qp *qp, u16 quanta,
				   u64 wr_id, u32 len, u32 *idx)
{
	u32 chunk = irdma_uk_is_gen1(qp) ? IRDMA_UK_SQ_CHUNK_G1 :
					   IRDMA_UK_SQ_CHUNK;
	u32 pad = chunk - (qp->sq_head % chunk);
	__le64 *wqe;

	if (quanta <= pad)
		pad = 0;
	if (pad + quanta > irdma_uk_sq_free(qp))
		return NULL;
	while (pad--)
		irdma_uk_write_nop(qp, false);

	*idx = irdma_uk_sq_claim(qp, quanta);
	irdma_uk_sq_track(qp, *idx, wr_id, len, quanta);
	wqe = irdma_uk_sq_quantum(qp, *idx);
	/* gen1 fetches quanta in pairs: keep the partner of a lone one invalid */
	if (irdma_uk_is_gen1(qp) && quanta == 1 && (qp->sq_head & 1))
		irdma_wqe_set(irdma_uk_sq_quantum(qp, qp->sq_head),
			      IRDMA_WQE_HDR_WORD,
			      FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol ^ 1));
	return wqe;
}

/* Word of fragment slot @slot: slot 0 is words 0/1, then 4/5, 6/7, ... */
static unsigned int irdma_uk_frag_word(u32 slot)
{
	return slot ? 2 + 2 * slot : 0;
}

static void irdma_uk_set_frag(u8 hw_rev, __le64 *wqe, u32 slot,
			      const struct irdma_uk_sge *sge, u8 pol)
{
	unsigned int w = irdma_uk_frag_word(slot);
	u64 desc;

	if (hw_rev == 1)
		desc = sge ? FIELD_PREP(IRDMA_FRAG_LEN_G1, sge->len) |
			     FIELD_PREP(IRDMA_FRAG_STAG_G1, sge->lkey) : 0;
	else
		desc = (sge ? FIELD_PREP(IRDMA_FRAG_LEN, sge->len) |
			      FIELD_PREP(IRDMA_FRAG_STAG, sge->lkey) : 0) |
		       FIELD_PREP(IRDMA_FRAG_VALID, pol);
	irdma_wqe_set(wqe, w, sge ? sge->addr : 0);
	irdma_wqe_set(wqe, w + 1, desc);
}

/*
 * Lay out @n SGEs starting at fragment slot @first (1 when slot 0 holds
 * immediate data). gen2 pads an even fragment count with a valid-only
 * fragment so that every quantum carries the valid bit. Returns the
 * ADDFRAGCNT value for the header.
 */
static u32 irdma_uk_set_frags(u8 hw_rev, __le64 *wqe, u32 first,
			      const struct irdma_uk_sge *sg, u32 n, u8 pol)
{
	u32 total = first + n;
	u32 addl = total > 1 ? total - 1 : 0;
	u32 i;

	if (!total)
		irdma_uk_set_frag(hw_rev, wqe, 0, NULL, pol);
	for (i = 0; i < n; i++)
		irdma_uk_set_frag(hw_rev, wqe, first + i, &sg[i], pol);
	if (hw_rev != 1 && total && !(total & 1)) {
		irdma_uk_set_frag(hw_rev, wqe, total, NULL, pol);
		addl++;
	}
	return addl;
}

static int irdma_uk_sge_total(const struct irdma_uk_qp *qp,
			      const struct irdma_uk_sge *sg, u32 n, u32 *total)
{
	u64 sum = 0;
	u32 i;

	if (n > qp->max_frags || (n && !sg))
		return -EINVAL;
	for (i = 0; i < n; i++)
		sum += sg[i].len;
	if (sum > IRDMA_UK_MAX_FRAG_LEN)
		return -EINVAL;
	*total = sum;
	return 0;
}

/*
 * Header bits every SQ WQE built from a struct irdma_uk_wr shares: what
 * the WQE is and how many fragment slots follow it, the switches the
 * request turned on, and the valid bit of the SQ's current lap.
 */
static u64 irdma_uk_wr_hdr(const struct irdma_uk_qp *qp,
			   const struct irdma_uk_wr *wr, u32 addl)
{
	const struct irdma_flag asks[] = {
		{ IRDMA_SQWQE_SIGCOMPL, wr->signaled },
		{ IRDMA_SQWQE_IMMDATAFLAG, wr->imm_valid },
		{ IRDMA_SQWQE_LOCALFENCE, wr->local_fence },
		{ IRDMA_SQWQE_READFENCE, wr->read_fence },
	};
	u64 what = FIELD_PREP(IRDMA_SQWQE_OPCODE, wr->op) |
		   FIELD_PREP(IRDMA_SQWQE_ADDFRAGCNT, addl);

	return what | irdma_flags(asks, ARRAY_SIZE(asks)) |
	       FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol);
}

/* gen2 inline: 8 bytes at byte 8, then 31 bytes per quantum + valid byte */
static void irdma_uk_copy_inline(u8 *wqe, const struct irdma_uk_sge *sg,
				 u32 n, u8 pol)
{
	u8 valid = pol << IRDMA_INLINE_VALID_BIT;
	u8 *dst = wqe + 8;
	u32 room = 8;
	bool first = true;
	u32 i;

	for (i = 0; i < n; i++) {
		const u8 *src = (const u8 *)(uintptr_t)sg[i].addr;
		u32 left = sg[i].len;

		while (left) {
			u32 chunk = min(left, room);

			memcpy(dst, src, chunk);
			dst += chunk;
			src += chunk;
			room -= chunk;
			left -= chunk;
			if (room)
				continue;
			/* quantum 0 ends at byte 16 (words 2, 3 follow) */
			if (first)
				dst += 16;
			else
				*dst++ = valid;
			first = false;
			room = 31;
		}
	}
	if (!first && room < 31)
		dst[room] = valid;
}

/* gen1 inline: 16 bytes in words 0/1, then 32 bytes in quantum 1 */
static void irdma_uk_copy_inline_g1(u8 *wqe, const struct irdma_uk_sge *sg,
				    u32 n)
{
	u32 off = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		const u8 *src = (const u8 *)(uintptr_t)sg[i].addr;
		u32 left = sg[i].len;

		while (left) {
			u32 chunk = min(left, off < 16 ? 16 - off : 48 - off);
			u32 pos = off < 16 ? off : off + 16;

			memcpy(wqe + pos, src, chunk);
			src += chunk;
			off += chunk;
			left -= chunk;
		}
	}
}

static int irdma_uk_post_inline(struct irdma_uk_qp *qp,
				const struct irdma_uk_wr *wr, u64 word2,
				u64 hdr_extra)
{
	__le64 *wqe;
	u32 total, idx;
	u16 quanta;
	int err;

	err = irdma_uk_sge_total(qp, wr->sg, wr->num_sge, &total);
	if (err || total > qp->max_inline)
		return -EINVAL;
	if (irdma_uk_is_gen1(qp) && wr->imm_valid)
		return -EINVAL;
	quanta = irdma_uk_inline_quanta(qp->hw_rev, total);
	wqe = irdma_uk_sq_reserve(qp, quanta, wr->wr_id, total, &idx);
	if (!wqe)
		return -ENOMEM;

	/* clear the body, but never the header before it is complete */
	memset(wqe, 0, 3 * sizeof(u64));
	memset(wqe + IRDMA_QUANTUM_WORDS, 0,
	       (quanta - 1) * IRDMA_QUANTUM_BYTES);
	irdma_wqe_set(wqe, 0, wr->imm_valid ? wr->imm : 0);
	irdma_wqe_set(wqe, 2, word2);
	if (irdma_uk_is_gen1(qp))
		irdma_uk_copy_inline_g1((u8 *)wqe, wr->sg, wr->num_sge);
	else
		irdma_uk_copy_inline((u8 *)wqe, wr->sg, wr->num_sge,
				     qp->sq_pol);
	irdma_uk_wqe_publish(wr, wqe, irdma_uk_wr_hdr(qp, wr, 0) | hdr_extra |
			     FIELD_PREP(IRDMA_SQWQE_INLINEFLAG, 1) |
			     FIELD_PREP(IRDMA_SQWQE_INLINELEN, total));
	return 0;
}

static int irdma_uk_post_frags(struct irdma_uk_qp *qp,
			       const struct irdma_uk_wr *wr, u64 word2,
			       u64 hdr_extra)
{
	u32 first = wr->imm_valid ? 1 : 0;
	u32 total, idx, addl;
	__le64 *wqe;
	u16 quanta;
	int err;

	err = irdma_uk_sge_total(qp, wr->sg, wr->num_sge, &total);
	if (err)
		return err;
	err = irdma_uk_sq_quanta(first + wr->num_sge, &quanta);
	if (err)
		return err;
	wqe = irdma_uk_sq_reserve(qp, quanta, wr->wr_id, total, &idx);
	if (!wqe)
		return -ENOMEM;

	if (first) {
		irdma_wqe_set(wqe, 0, wr->imm);
		irdma_wqe_set(wqe, 1, 0);
	}
	addl = irdma_uk_set_frags(qp->hw_rev, wqe, first, wr->sg, wr->num_sge,
				  qp->sq_pol);
	irdma_wqe_set(wqe, 2, word2);
	irdma_uk_wqe_publish(wr, wqe, irdma_uk_wr_hdr(qp, wr, addl) | hdr_extra);
	return 0;
}

/**
 * irdma_uk_post_rdma - post an RDMA write or read
 * @qp: the QP
 * @wr: op IRDMA_WQEOP_RDMA_WRITE(_SOL) or IRDMA_WQEOP_RDMA_READ(_LOC_INV);
 *	writes may carry immediate data or be inline
 *
 * Does not ring the doorbell (irdma_uk_ring_sq_db()).
 *
 * Return: 0, -EINVAL for a bad request, -ENOMEM when the SQ is full.
 */
int irdma_uk_post_rdma(struct irdma_uk_qp *qp, const struct irdma_uk_wr *wr)
{
	u64 stag = FIELD_PREP(IRDMA_SQWQE_REMSTAG, wr->rkey);
	bool read;

	switch (wr->op) {
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		read = false;
		break;
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_LOC_INV:
		read = true;
		break;
	default:
		return -EINVAL;
	}
	if (read && (wr->imm_valid || wr->inline_data))
		return -EINVAL;
	if (wr->inline_data)
		return irdma_uk_post_inline(qp, wr, wr->remote_addr, stag);
	return irdma_uk_post_frags(qp, wr, wr->remote_addr, stag);
}

/**
 * irdma_uk_post_send - post a send
 * @qp: the QP
 * @wr: op IRDMA_WQEOP_SEND, _SEND_INV, _SEND_SOL or _SEND_SOL_INV; the
 *	invalidating ops use @wr->inv_stag; UD sends use @ah_id, @dest_qp
 *	and @qkey, raw queue (ILQ) sends @ah_id and @l4len (gen1: no AH,
 *	a whole frame described by @maclen, @iplen, @ipv4 and @loopback);
 *	may carry immediate data or be inline
 *
 * Return: 0, -EINVAL for a bad request, -ENOMEM when the SQ is full.
 */
int irdma_uk_post_send(struct irdma_uk_qp *qp, const struct irdma_uk_wr *wr)
{
	u64 word2, extra;

	/* gen1 raw queues send whole frames, described in word 2 */
	if (irdma_uk_is_gen1(qp) && wr->l4len) {
		if (wr->op != IRDMA_WQEOP_SEND || wr->ah_id || wr->inline_data ||
		    wr->maclen & 1 || wr->iplen & 3 ||
		    wr->maclen / 2 > FIELD_MAX(IRDMA_SQWQE_MACLEN_G1) ||
		    wr->iplen / 4 > FIELD_MAX(IRDMA_SQWQE_IPLEN_G1) ||
		    wr->l4len > FIELD_MAX(IRDMA_SQWQE_L4LEN_G1))
			return -EINVAL;
		word2 = FIELD_PREP(IRDMA_SQWQE_MACLEN_G1, wr->maclen / 2) |
			FIELD_PREP(IRDMA_SQWQE_IPLEN_G1, wr->iplen / 4) |
			FIELD_PREP(IRDMA_SQWQE_L4T_G1, IRDMA_L4T_TCP_G1) |
			FIELD_PREP(IRDMA_SQWQE_IIPT_G1,
				   wr->ipv4 ? IRDMA_IIPT_IPV4_CSUM_G1 :
					      IRDMA_IIPT_IPV6_G1) |
			FIELD_PREP(IRDMA_SQWQE_L4LEN_G1, wr->l4len);
		extra = FIELD_PREP(IRDMA_SQWQE_LOOPBACK_G1, wr->loopback);
		return irdma_uk_post_frags(qp, wr, word2, extra);
	}
	switch (wr->op) {
	case IRDMA_WQEOP_SEND_INV:
	case IRDMA_WQEOP_SEND_SOL_INV:
	case IRDMA_WQEOP_SEND:
	case IRDMA_WQEOP_SEND_SOL:
		break;
	default:
		return -EINVAL;
	}
	if (wr->dest_qp > FIELD_MAX(IRDMA_SQWQE_DESTQPN) ||
	    wr->ah_id > FIELD_MAX(IRDMA_SQWQE_AHID) ||
	    wr->l4len > FIELD_MAX(IRDMA_SQWQE_L4LEN))
		return -EINVAL;
	/* packed only once in range: a constant out of range breaks the build */
	word2 = FIELD_PREP(IRDMA_SQWQE_DESTQKEY, wr->qkey) |
		FIELD_PREP(IRDMA_SQWQE_DESTQPN, wr->dest_qp);
	extra = FIELD_PREP(IRDMA_SQWQE_AHID, wr->ah_id) |
		FIELD_PREP(IRDMA_SQWQE_L4LEN, wr->l4len);
	if (wr->op == IRDMA_WQEOP_SEND_INV || wr->op == IRDMA_WQEOP_SEND_SOL_INV)
		extra |= FIELD_PREP(IRDMA_SQWQE_REMSTAG, wr->inv_stag);
	if (wr->inline_data)
		return irdma_uk_post_inline(qp, wr, word2, extra);
	return irdma_uk_post_frags(qp, wr, word2, extra);
}

/**
 * irdma_uk_post_local_inv - post a local invalidate of @wr->inv_stag
 * @qp: the QP
 * @wr: request; only wr_id, inv_stag and the flags are used
 *
 * Return: 0 or -ENOMEM when the SQ is full.
 */
int irdma_uk_post_local_inv(struct irdma_uk_qp *qp,
			    const struct irdma_uk_wr *wr)
{
	struct irdma_uk_sge target = { .lkey = wr->inv_stag };
	struct irdma_uk_wr inv = *wr;
	__le64 *wqe;
	u32 idx;

	wqe = irdma_uk_sq_reserve(qp, 1, wr->wr_id, 0, &idx);
	if (!wqe)
		return -ENOMEM;
	inv.op = IRDMA_WQEOP_LOCAL_INV;
	inv.imm_valid = false;
	irdma_uk_set_frag(qp->hw_rev, wqe, 0, &target, 0);
	irdma_wqe_set(wqe, 2, 0);
	irdma_uk_wqe_commit(wqe, irdma_uk_wr_hdr(qp, &inv, 0));
	return 0;
}

/**
 * irdma_uk_post_bind - post a memory window bind
 * @qp: the QP
 * @bind: the bind
 *
 * Return: 0, -EINVAL for bad rights, -ENOMEM when the SQ is full.
 */
int irdma_uk_post_bind(struct irdma_uk_qp *qp,
		       const struct irdma_uk_bind *bind)
{
	u32 mw = bind->mw_stag, mr = bind->mr_stag;
	__le64 *wqe;
	u32 idx;

	if (bind->rights & ~FIELD_MAX(IRDMA_SQWQE_STAGRIGHTS))
		return -EINVAL;
	wqe = irdma_uk_sq_reserve(qp, 1, bind->wr_id, 0, &idx);
	if (!wqe)
		return -ENOMEM;
	/* gen1 has the two STags the other way round */
	if (irdma_uk_is_gen1(qp))
		swap(mw, mr);
	irdma_wqe_set(wqe, 0, bind->va);
	irdma_wqe_set(wqe, 1, FIELD_PREP(IRDMA_SQWQE_MWSTAG, mw) |
			      FIELD_PREP(IRDMA_SQWQE_PARENTMRSTAG, mr));
	irdma_wqe_set(wqe, 2, bind->len);
	irdma_uk_wqe_commit(wqe,
			    FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_BIND_MW) |
			    FIELD_PREP(IRDMA_SQWQE_STAGRIGHTS, bind->rights) |
			    FIELD_PREP(IRDMA_SQWQE_VABASEDTO, bind->zero_based ? 0 : 1) |
			    FIELD_PREP(IRDMA_SQWQE_MWTYPE, bind->type2 ? 0 : 1) |
			    FIELD_PREP(IRDMA_SQWQE_SIGCOMPL, bind->signaled) |
			    FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol));
	return 0;
}

static int irdma_uk_fastreg_check(const struct irdma_uk_fastreg *reg)
{
	if (reg->len > FIELD_MAX(IRDMA_SQWQE_STAGLEN) ||
	    reg->pbl_levels > 2 || reg->page_size > IRDMA_PAGE_SIZE_1G ||
	    reg->rights & ~FIELD_MAX(IRDMA_SQWQE_STAGRIGHTS))
		return -EINVAL;
	if (!IS_ALIGNED(reg->pbl_addr, IRDMA_HW_PAGE_SZ))
		return -EINVAL;
	if (reg->first_pble >= BIT(28))
		return -EINVAL;
	return 0;
}

/**
 * irdma_uk_post_fastreg - post a fast-register MR
 * @qp: the QP (kernel QPs only)
 * @reg: the registration
 *
 * Return: 0, -EINVAL for a bad request (length over 41 bits, unaligned
 * page list, unknown page size), -ENOMEM when the SQ is full.
 */
int irdma_uk_post_fastreg(struct irdma_uk_qp *qp,
			  const struct irdma_uk_fastreg *reg)
{
	__le64 *wqe;
	u32 idx;

	if (irdma_uk_fastreg_check(reg))
		return -EINVAL;
	wqe = irdma_uk_sq_reserve(qp, 1, reg->wr_id, 0, &idx);
	if (!wqe)
		return -ENOMEM;
	irdma_wqe_set(wqe, 0, reg->va);
	irdma_wqe_set(wqe, 1, (reg->pbl_addr & IRDMA_SQWQE_PBLADDR) |
			      FIELD_PREP(IRDMA_SQWQE_FIRSTPBLE_HI,
					 reg->first_pble >> 16));
	irdma_wqe_set(wqe, 2, FIELD_PREP(IRDMA_SQWQE_STAGLEN, reg->len) |
			      FIELD_PREP(IRDMA_SQWQE_FIRSTPBLE_LO,
					 reg->first_pble & 0xffff));
	irdma_uk_wqe_commit(wqe,
			    FIELD_PREP(IRDMA_SQWQE_STAGKEY, reg->stag & 0xff) |
			    FIELD_PREP(IRDMA_SQWQE_STAGINDEX, reg->stag >> 8) |
			    FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_FAST_REG) |
			    FIELD_PREP(IRDMA_SQWQE_LPBLSIZE,
				       irdma_lpbl_code(reg->pbl_levels)) |
			    FIELD_PREP(IRDMA_SQWQE_HPAGESIZE, reg->page_size) |
			    FIELD_PREP(IRDMA_SQWQE_STAGRIGHTS, reg->rights) |
			    FIELD_PREP(IRDMA_SQWQE_VABASEDTO, reg->zero_based ? 0 : 1) |
			    FIELD_PREP(IRDMA_SQWQE_SIGCOMPL, reg->signaled) |
			    FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol));
	return 0;
}

/**
 * irdma_uk_post_nop - post a NOP
 * @qp: the QP
 * @wr_id: cookie
 * @signaled: ask for a completion
 *
 * Return: 0 or -ENOMEM when the SQ is full.
 */
int irdma_uk_post_nop(struct irdma_uk_qp *qp, u64 wr_id, bool signaled)
{
	if (!irdma_uk_sq_free(qp))
		return -ENOMEM;
	irdma_uk_write_nop(qp, signaled);
	qp->sq_slots[(qp->sq_head - 1) & (qp->sq_size - 1)].wr_id = wr_id;
	return 0;
}

/**
 * irdma_uk_post_recv - post a receive
 * @qp: the QP
 * @wr_id: cookie
 * @sg: buffers
 * @num_sge: entries in @sg; must fit the QP's RQ WQE size
 *
 * Return: 0, -EINVAL for too many SGEs, -ENOMEM when the RQ is full.
 */
int irdma_uk_post_recv(struct irdma_uk_qp *qp, u64 wr_id,
		       const struct irdma_uk_sge *sg, u32 num_sge)
{
	u32 mask = qp->rq_size - 1;
	u32 idx, addl, total;
	__le64 *wqe;
	u16 quanta;

	if (irdma_uk_sge_total(qp, sg, num_sge, &total) ||
	    irdma_uk_sq_quanta(num_sge, &quanta) ||
	    quanta > BIT(qp->rq_shift))
		return -EINVAL;
	if (((qp->rq_head - qp->rq_tail) & mask) == mask)
		return -ENOMEM;

	idx = qp->rq_head;
	if (!idx)
		qp->rq_pol ^= 1;
	qp->rq_head = (idx + 1) & mask;
	qp->rq_wrid[idx] = wr_id;
	wqe = qp->rq + ((size_t)idx << qp->rq_shift) * IRDMA_QUANTUM_WORDS;
	addl = irdma_uk_set_frags(qp->hw_rev, wqe, 0, sg, num_sge, qp->rq_pol);
	irdma_wqe_set(wqe, 2, 0);
	irdma_uk_wqe_commit(wqe, FIELD_PREP(IRDMA_SQWQE_ADDFRAGCNT, addl) |
			    FIELD_PREP(IRDMA_SQWQE_VALID, qp->rq_pol));
	return 0;
}

/*
 * Connection WQEs: the iWARP CM places them in the quanta kept at the start
 * of the SQ (conn_quanta) before the QP goes to RTS. The device executes
 * them in order once the QP is in RTS.
 */

/**
 * irdma_uk_conn_lsmm - write the LSMM WQE (MPA reply) at quantum 0
 * @qp: the QP; needs at least one connection quantum
 * @addr: IOVA of the MPA frame
 * @len: its length
 * @stag: STag covering it
 *
 * A streaming send that waits for the peer's first FPDU.
 *
 * Return: 0 or -EINVAL when the QP keeps no connection quantum.
 */
int irdma_uk_conn_lsmm(struct irdma_uk_qp *qp, u64 addr, u32 len, u32 stag)
{
	struct irdma_uk_sge sge = { .addr = addr, .len = len, .lkey = stag };
	__le64 *wqe = irdma_uk_sq_quantum(qp, 0);

	if (!qp->conn_quanta || len > IRDMA_UK_MAX_FRAG_LEN)
		return -EINVAL;
	irdma_uk_set_frag(qp->hw_rev, wqe, 0, &sge, qp->sq_pol);
	irdma_wqe_set(wqe, 2, 0);
	irdma_uk_wqe_commit(wqe, FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_SEND) |
			    FIELD_PREP(IRDMA_SQWQE_STREAMMODE, 1) |
			    FIELD_PREP(IRDMA_SQWQE_WAITFORRCVPDU, 1) |
			    FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol));
	return 0;
}

/**
 * irdma_uk_conn_rtr - write the ready-to-receive WQE at quantum 0
 * @qp: the QP; needs at least one connection quantum
 * @read: a zero-length RDMA read (MPA RTR "read" mode) rather than a
 *	zero-length RDMA write
 *
 * The STags of the zero-length read are never used for data; the values
 * are arbitrary but fixed so that traces are recognisable.
 *
 * Return: 0 or -EINVAL when the QP keeps no connection quantum.
 */
int irdma_uk_conn_rtr(struct irdma_uk_qp *qp, bool read)
{
	struct irdma_uk_sge sge = { .lkey = read ? IRDMA_UK_RTR_LOCAL_STAG : 0 };
	__le64 *wqe = irdma_uk_sq_quantum(qp, 0);
	u64 hdr = FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol);

	if (!qp->conn_quanta)
		return -EINVAL;
	irdma_uk_set_frag(qp->hw_rev, wqe, 0, &sge, qp->sq_pol);
	irdma_wqe_set(wqe, 2, 0);
	if (read)
		hdr |= FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_RDMA_READ) |
		       FIELD_PREP(IRDMA_SQWQE_REMSTAG, IRDMA_UK_RTR_REMOTE_STAG);
	else
		hdr |= FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_RDMA_WRITE);
	irdma_uk_wqe_commit(wqe, hdr);
	return 0;
}

/**
 * irdma_uk_conn_nop - fill quantum 0 with a NOP
 * @qp: the QP; needs at least one connection quantum
 *
 * For the initiator of a connection without RTR (MPA v1, or v2 without
 * peer-to-peer mode): nothing goes on the wire and nothing completes, but
 * the engine, which runs the SQ in order from quantum 0, goes on to the
 * first WR posted after it.
 *
 * Return: 0 or -EINVAL when the QP keeps no connection quantum.
 */
int irdma_uk_conn_nop(struct irdma_uk_qp *qp)
{
	__le64 *wqe = irdma_uk_sq_quantum(qp, 0);

	if (!qp->conn_quanta)
		return -EINVAL;
	irdma_wqe_set(wqe, 0, 0);
	irdma_wqe_set(wqe, 1, 0);
	irdma_wqe_set(wqe, 2, 0);
	irdma_uk_wqe_commit(wqe, FIELD_PREP(IRDMA_SQWQE_OPCODE, IRDMA_WQEOP_NOP) |
			    FIELD_PREP(IRDMA_SQWQE_VALID, qp->sq_pol));
	return 0;
}

/**
 * irdma_uk_ring_sq_db - tell the device about newly posted SQ WQEs
 * @qp: the QP
 *
 * Writes the QP id to WQEALLOC if anything was posted since the last call.
 */
void irdma_uk_ring_sq_db(struct irdma_uk_qp *qp)
{
	if (qp->sq_head == qp->sq_rung)
		return;
	/* WQEs must be visible before the device is told about them */
	wmb();
	irdma_mmio_wr32(qp->mmio, qp->db_off,
			FIELD_PREP(IRDMA_WQEALLOC_QPID, qp->qp_id));
	qp->sq_rung = qp->sq_head;
}

/**
 * irdma_uk_release_held - make a held WQE valid and tell the device
 * @qp: the QP
 * @held: as irdma_uk_post_send() left it with @wr->hold
 *
 * The doorbell is rung even if nothing was posted since the last one: the
 * device may have stopped at the held WQE.
 */
void irdma_uk_release_held(struct irdma_uk_qp *qp,
			   const struct irdma_uk_held *held)
{
	irdma_uk_wqe_commit(held->wqe, held->hdr);
	/* the header must be visible before the device is told about it */
	wmb();
	irdma_mmio_wr32(qp->mmio, qp->db_off,
			FIELD_PREP(IRDMA_WQEALLOC_QPID, qp->qp_id));
	qp->sq_rung = qp->sq_head;
}

/**
 * irdma_uk_qp_init - check a QP's rings and reset its indices
 * @qp: QP with its memory, sizes, hw_rev, limits and conn_quanta filled in
 *
 * The SQ starts after the connection quanta; both rings start on lap 1.
 *
 * Return: 0, or -EINVAL for missing memory, sizes that are not a power of
 * two, or limits beyond the generation's.
 */
int irdma_uk_qp_init(struct irdma_uk_qp *qp)
{
	bool gen1 = qp->hw_rev == 1;

	if (qp->hw_rev != 1 && qp->hw_rev != 2)
		return -EINVAL;
	if (!qp->sq || !qp->sq_slots || !qp->rq || !qp->rq_wrid || !qp->mmio)
		return -EINVAL;
	if (!is_power_of_2(qp->sq_size) || !is_power_of_2(qp->rq_size) ||
	    qp->sq_size < 2 * IRDMA_UK_SQ_CHUNK || qp->rq_size < 2)
		return -EINVAL;
	if (qp->max_frags > (gen1 ? IRDMA_UK_MAX_FRAGS_G1 : IRDMA_UK_MAX_FRAGS) ||
	    qp->max_inline > (gen1 ? IRDMA_UK_MAX_INLINE_G1 :
				     IRDMA_UK_MAX_INLINE) ||
	    qp->rq_shift > 3 || qp->conn_quanta >= qp->sq_size / 2)
		return -EINVAL;

	qp->sq_pol = 0;
	qp->rq_pol = 0;
	qp->sq_head = qp->conn_quanta;
	qp->sq_tail = qp->conn_quanta;
	qp->sq_rung = qp->conn_quanta;
	qp->rq_head = 0;
	qp->rq_tail = 0;
	/* index 0 was skipped over, so enter lap 1 by hand */
	if (qp->conn_quanta)
		qp->sq_pol = 1;
	return 0;
}

/* @idx lies between the oldest outstanding quantum and the head */
static bool irdma_uk_sq_outstanding(const struct irdma_uk_qp *qp, u32 idx)
{
	u32 mask = qp->sq_size - 1;

	return idx < qp->sq_size &&
	       ((idx - qp->sq_tail) & mask) < ((qp->sq_head - qp->sq_tail) & mask);
}

/*
 * A flush CQE naming an outstanding WQE: the WQEs before it ran without
 * asking for a completion (unsignaled), so retiring starts at it. A CQE
 * naming anything else stands for the oldest WR left.
 */
static int irdma_uk_sq_retire_flushed(struct irdma_uk_qp *qp,
				      const struct irdma_uk_cqe *cqe,
				      struct irdma_uk_done *done)
{
	u32 mask = qp->sq_size - 1;

	if (irdma_uk_sq_outstanding(qp, cqe->wqe_idx))
		qp->sq_tail = cqe->wqe_idx;
	while (qp->sq_tail != qp->sq_head) {
		u32 idx = qp->sq_tail;
		const struct irdma_uk_sq_slot *slot = &qp->sq_slots[idx];
		u64 hdr = irdma_wqe_get(irdma_uk_sq_quantum(qp, idx),
					IRDMA_WQE_HDR_WORD);

		qp->sq_tail = (idx + max_t(u8, slot->quanta, 1)) & mask;
		done->op = FIELD_GET(IRDMA_SQWQE_OPCODE, hdr);
		if (done->op == IRDMA_WQEOP_NOP)
			continue;
		done->wr_id = slot->wr_id;
		done->bytes = 0;
		done->flushed = true;
		done->named = idx == cqe->wqe_idx;
		return 0;
	}
	return -ENOENT;
}

static int irdma_uk_sq_retire(struct irdma_uk_qp *qp,
			      const struct irdma_uk_cqe *cqe,
			      struct irdma_uk_done *done)
{
	const struct irdma_uk_sq_slot *slot;

	if (cqe->major == IRDMA_CQE_MAJ_FLUSH)
		return irdma_uk_sq_retire_flushed(qp, cqe, done);
	if (cqe->wqe_idx >= qp->sq_size)
		return -EIO;
	slot = &qp->sq_slots[cqe->wqe_idx];
	done->wr_id = slot->wr_id;
	done->bytes = cqe->error ? 0 : slot->len;
	done->op = cqe->op;
	done->flushed = false;
	done->named = true;
	qp->sq_tail = (cqe->wqe_idx + max_t(u8, slot->quanta, 1)) &
		      (qp->sq_size - 1);
	return 0;
}

static int irdma_uk_rq_retire(struct irdma_uk_qp *qp,
			      const struct irdma_uk_cqe *cqe,
			      struct irdma_uk_done *done)
{
	u32 idx = cqe->wqe_idx >> qp->rq_shift;

	done->flushed = cqe->major == IRDMA_CQE_MAJ_FLUSH;
	done->named = true;
	if (done->flushed) {
		if (qp->rq_tail == qp->rq_head)
			return -ENOENT;
		done->named = idx == qp->rq_tail;
		idx = qp->rq_tail;
	} else if (idx >= qp->rq_size) {
		return -EIO;
	}
	done->wr_id = qp->rq_wrid[idx];
	done->bytes = done->flushed ? 0 : cqe->bytes;
	done->op = cqe->op;
	qp->rq_tail = (idx + 1) & (qp->rq_size - 1);
	return 0;
}

/**
 * irdma_uk_qp_complete - retire the WR a CQE reports
 * @qp: the QP the CQE belongs to
 * @cqe: decoded CQE
 * @done: the retired WR
 *
 * A flush CQE (major error 1) stands for every outstanding WR of its
 * queue: call again with the same CQE until it returns -ENOENT. NOPs
 * used as padding are skipped.
 *
 * Return: 0, -ENOENT when nothing is left to flush, -EIO for a WQE index
 * outside the queue (a broken device).
 */
int irdma_uk_qp_complete(struct irdma_uk_qp *qp,
			 const struct irdma_uk_cqe *cqe,
			 struct irdma_uk_done *done)
{
	if (cqe->sq)
		return irdma_uk_sq_retire(qp, cqe, done);
	return irdma_uk_rq_retire(qp, cqe, done);
}

/**
 * irdma_uk_cq_init - check a CQ ring and reset its state
 * @cq: CQ with ring, shadow, mmio, size and cq_id filled in
 *
 * The device writes the first lap with valid bit 1.
 *
 * Return: 0 or -EINVAL for missing memory or a size below 2.
 */
int irdma_uk_cq_init(struct irdma_uk_cq *cq)
{
	if (!cq->ring || !cq->shadow || !cq->mmio || cq->size < 2)
		return -EINVAL;
	cq->head = 0;
	cq->pol = 1;
	return 0;
}

static __le64 *irdma_uk_cqe_at(const struct irdma_uk_cq *cq, u32 idx)
{
	return cq->ring + (size_t)idx * (cq->ext64 ? 8 : 4);
}

static void irdma_uk_cqe_decode_ext(const __le64 *ext,
				    struct irdma_uk_cqe *cqe)
{
	u64 w7 = irdma_wqe_get(ext, 3);
	u64 w6 = irdma_wqe_get(ext, 2);

	cqe->imm_valid = FIELD_GET(IRDMA_CQE_IMMVALID, w7);
	cqe->smac_valid = FIELD_GET(IRDMA_CQE_UDSMACVALID, w7);
	cqe->vlan_valid = FIELD_GET(IRDMA_CQE_UDVLANVALID, w7);
	cqe->imm = FIELD_GET(IRDMA_CQE_IMM_LO, irdma_wqe_get(ext, 0));
	cqe->ud_smac = FIELD_GET(IRDMA_CQE_UDSMAC, w6);
	cqe->ud_vlan = FIELD_GET(IRDMA_CQE_UDVLAN, w6);
}

/* The extension of a CQE: same slot (64-byte CQEs) or the next slot */
static const __le64 *irdma_uk_cqe_ext(const struct irdma_uk_cq *cq)
{
	u32 next = (cq->head + 1) % cq->size;
	u8 pol = cq->pol;
	const __le64 *ext;

	if (cq->ext64) {
		ext = irdma_uk_cqe_at(cq, cq->head) + 4;
	} else {
		ext = irdma_uk_cqe_at(cq, next);
		if (!next)
			pol ^= 1;
	}
	/* the extension carries its own valid bit in its last word */
	if (FIELD_GET(IRDMA_CQE_VALID, irdma_wqe_get(ext, 3)) != pol)
		return NULL;
	return ext;
}

static void irdma_uk_cqe_decode(const struct irdma_uk_cq *cq,
				const __le64 *raw, u64 w3,
				struct irdma_uk_cqe *cqe)
{
	u64 w0 = irdma_wqe_get(raw, 0);
	u64 w2 = irdma_wqe_get(raw, 2);

	memset(cqe, 0, sizeof(*cqe));
	cqe->bytes = FIELD_GET(IRDMA_CQE_PAYLDLEN, w0);
	cqe->tcp_seq_rtt = FIELD_GET(IRDMA_CQE_TCPSEQ_RTT, w0);
	cqe->ctx = irdma_wqe_get(raw, 1);
	cqe->inv_stag = FIELD_GET(IRDMA_CQE_INVSTAG, w2);
	cqe->ud_src_qpn = FIELD_GET(IRDMA_CQE_UDSRCQPN, w2);
	cqe->qp_id = FIELD_GET(IRDMA_CQE_QPID, w2);
	cqe->minor = FIELD_GET(IRDMA_CQE_MINERR, w3);
	cqe->major = FIELD_GET(IRDMA_CQE_MAJERR, w3);
	cqe->wqe_idx = FIELD_GET(IRDMA_CQE_WQEIDX, w3);
	cqe->ext = FIELD_GET(IRDMA_CQE_EXTCQE, w3);
	cqe->push_dropped = FIELD_GET(IRDMA_CQE_PSHDROP, w3);
	cqe->stag_inv = FIELD_GET(IRDMA_CQE_STAG_IPV4, w3);
	cqe->ipv4 = cqe->stag_inv;
	if (cq->hw_rev == 1) {
		cqe->ext = false;
		cqe->vlan_valid = FIELD_GET(IRDMA_CQE_VLANVALID_G1, w3);
		cqe->ipv4 = !FIELD_GET(IRDMA_CQE_L3PROTO_G1, w2);
	}
	cqe->solicited = FIELD_GET(IRDMA_CQE_OOO_SOEVENT, w3);
	cqe->error = FIELD_GET(IRDMA_CQE_ERROR, w3);
	cqe->op = FIELD_GET(IRDMA_CQE_OP, w3);
	cqe->sq = FIELD_GET(IRDMA_CQE_SQ, w3);
	if (!cqe->error) {
		cqe->major = 0;
		cqe->minor = 0;
	}
}

/**
 * irdma_uk_cq_peek - decode the CQE at the head without consuming it
 * @cq: the CQ
 * @cqe: decoded CQE
 *
 * Return: 0, or -ENOENT when the head CQE (or its extension) is not
 * written yet.
 */
int irdma_uk_cq_peek(const struct irdma_uk_cq *cq, struct irdma_uk_cqe *cqe)
{
	const __le64 *raw = irdma_uk_cqe_at(cq, cq->head);
	u64 w3 = irdma_wqe_get(raw, 3);
	const __le64 *ext;

	if (FIELD_GET(IRDMA_CQE_VALID, w3) != cq->pol)
		return -ENOENT;
	/* read the body only after seeing the valid bit */
	dma_rmb();
	irdma_uk_cqe_decode(cq, raw, w3, cqe);
	if (!cqe->ext)
		return 0;
	ext = irdma_uk_cqe_ext(cq);
	if (!ext)
		return -ENOENT;
	dma_rmb();
	irdma_uk_cqe_decode_ext(ext, cqe);
	return 0;
}

/**
 * irdma_uk_cq_advance - consume the head CQE decoded by irdma_uk_cq_peek()
 * @cq: the CQ
 * @cqe: what irdma_uk_cq_peek() returned
 *
 * Moves the head (two slots for an extended 32-byte CQE) and publishes it
 * in the shadow area.
 */
void irdma_uk_cq_advance(struct irdma_uk_cq *cq, const struct irdma_uk_cqe *cqe)
{
	u32 slots = cqe->ext && !cq->ext64 ? 2 : 1;

	while (slots--) {
		if (++cq->head == cq->size) {
			cq->head = 0;
			cq->pol ^= 1;
		}
	}
	irdma_wqe_set(cq->shadow, 0, FIELD_PREP(IRDMA_CQSA_HEAD, cq->head));
}

/**
 * irdma_uk_cq_poll - decode and consume the next CQE
 * @cq: the CQ
 * @cqe: decoded CQE
 *
 * Return: 0 or -ENOENT when the CQ is empty.
 */
int irdma_uk_cq_poll(struct irdma_uk_cq *cq, struct irdma_uk_cqe *cqe)
{
	int err = irdma_uk_cq_peek(cq, cqe);

	if (!err)
		irdma_uk_cq_advance(cq, cqe);
	return err;
}

/**
 * irdma_uk_cq_arm - request an event for the next (solicited) completion
 * @cq: the CQ
 * @solicited_only: only a solicited completion raises the event
 *
 * Bumps the arm sequence in shadow word 4, then writes the CQ id to CQARM.
 */
void irdma_uk_cq_arm(struct irdma_uk_cq *cq, bool solicited_only)
{
	u64 arm = irdma_wqe_get(cq->shadow, IRDMA_CQSA_ARM_WORD);
	u8 seq = FIELD_GET(IRDMA_CQSA_ARM_SEQ, arm) + 1;

	arm = FIELD_PREP(IRDMA_CQSA_SW_CQ_SELECT,
			 FIELD_GET(IRDMA_CQSA_SW_CQ_SELECT, arm)) |
	      FIELD_PREP(IRDMA_CQSA_ARM_SEQ, seq & 0x3) |
	      FIELD_PREP(IRDMA_CQSA_ARM_NEXT_SE, 1) |
	      FIELD_PREP(IRDMA_CQSA_ARM_NEXT, solicited_only ? 0 : 1);
	irdma_wqe_set(cq->shadow, IRDMA_CQSA_ARM_WORD, arm);
	dma_wmb();
	irdma_mmio_wr32(cq->mmio, cq->arm_off, cq->cq_id);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/uk_test.c"
#endif
