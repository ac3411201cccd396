// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the payload of a WQE. Fragments become SGLs; their bytes
 * are read and written through the memory they name, after the checks
 * an adapter makes.
 *
 * Memory: STag 0 on a privileged QP addresses bus memory directly (the
 * simulated function has no IOMMU). Any other STag must be a registered
 * MR of the QP's PD with the key, rights and range the access needs;
 * its pages are found through its PBLEs (or its one buffer). A bound
 * VA-based window (BIND_MW, stag.c) serves remote accesses in its range
 * and rights through the MR it was bound to; zero-based windows are not
 * modelled.
 */
#include <asm/unaligned.h>

#include "isim.h"

/**
 * isim_frag_stag - the STag of a fragment's second word
 * @gen: the function's generation
 * @w: the word: gen2 STag 31:0, length 62:32; gen1 length 31:0, STag 63:32
 *
 * Return: the STag.
 */
u32 isim_frag_stag(u8 gen, u64 w)
{
	if (gen == ISIM_GEN1)
		return FIELD_GET(ISIM_FRAG_G1_STAG, w);
	return FIELD_GET(ISIM_FRAG_STAG, w);
}

/**
 * isim_frag_len - the length of a fragment's second word
 * @gen: the function's generation
 * @w: the word (see isim_frag_stag())
 *
 * Return: the length in bytes.
 */
u32 isim_frag_len(u8 gen, u64 w)
{
	if (gen == ISIM_GEN1)
		return FIELD_GET(ISIM_FRAG_G1_LEN, w);
	return FIELD_GET(ISIM_FRAG_LEN, w);
}

/**
 * isim_wqe_sgl - parse a WQE's fragments into an SGL
 * @wqe: the WQE
 * @hdr: its header
 * @first: the slot of the first fragment
 * @l: the SGL
 */
void isim_wqe_sgl(const struct isim_wqe *wqe, u64 hdr, u32 first,
		  struct isim_sgl *l)
{
	u32 slots = FIELD_GET(ISIM_WQH_MORE_FRAGS, hdr) + 1;
	unsigned int s, wd;
	struct isim_sge *e;

	l->n = 0;
	l->total = 0;
	for (s = first; s < min_t(u32, slots, ISIM_SLOTS); s++) {
		wd = s ? 2 * s + 2 : 0;
		if (wd + 1 >= wqe->quanta * ISIM_WQ_QUANTUM / 8)
			break;
		e = &l->sge[l->n];
		e->addr = wqe->w[wd];
		e->len = isim_frag_len(wqe->gen, wqe->w[wd + 1]);
		e->stag = isim_frag_stag(wqe->gen, wqe->w[wd + 1]);
		if (!e->len)
			continue;
		l->total += e->len;
		l->n++;
	}
}

/**
 * isim_sgl_one - an SGL of one fragment
 * @l: the SGL
 * @addr: bus address (STag 0) or IOVA
 * @len: bytes; 0 makes an empty SGL
 * @stag: STag
 */
void isim_sgl_one(struct isim_sgl *l, u64 addr, u64 len, u32 stag)
{
	l->sge[0].addr = addr;
	l->sge[0].len = len;
	l->sge[0].stag = stag;
	l->n = len ? 1 : 0;
	l->total = len;
}

/**
 * isim_sgl_owner - whose memory an SGL is and what the access needs
 * @l: the SGL
 * @qp: the QP whose PD and privilege apply
 * @rights: the access rights the transfer needs
 */
void isim_sgl_owner(struct isim_sgl *l, const struct isim_qp *qp,
		    u8 rights)
{
	l->pd = qp->pd;
	l->rights = rights;
	l->privileged = qp->privileged;
}

/**
 * isim_sgl_allowed - every fragment of a list may be accessed
 * @f: function
 * @l: the fragments, their owner and the rights the access needs
 *
 * Return: true if each is STag 0 on a privileged QP, or in an MR or
 * window of the owner's PD with the rights.
 */
bool isim_sgl_allowed(struct isim_func *f, const struct isim_sgl *l)
{
	const struct isim_sge *e;
	u32 i;

	for (i = 0; i < l->n; i++) {
		e = &l->sge[i];
		if (e->stag == ISIM_LOCAL_DMA_STAG) {
			if (!l->privileged)
				return false;
			continue;
		}
		if (isim_stag_access(f, e->stag, l->pd, l->rights, e->addr,
				     e->len))
			return false;
	}
	return true;
}

/* bus address of byte @off of @e, and how many bytes follow in one piece */
static int isim_sge_bus(struct isim_func *f, const struct isim_sge *e,
			u64 off, u64 *bus, u64 *contig)
{
	if (e->stag == ISIM_LOCAL_DMA_STAG) {
		*bus = e->addr + off;
		*contig = e->len - off;
		return 0;
	}
	return isim_stag_translate(f, e->stag, e->addr + off, bus, contig);
}

/* gen1 inline data: bytes 0..15 of quantum 0, then quantum 1 whole */
static int isim_wqe_inline_g1(const struct isim_wqe *wqe, u32 total,
			      u8 *buf, u64 *len)
{
	const u8 *src = (const u8 *)wqe->raw;
	u32 first = min_t(u32, total, ISIM_INLINE_G1_FIRST);

	if (total > ISIM_INLINE_G1_MAX ||
	    (total > ISIM_INLINE_G1_FIRST && wqe->quanta < 2))
		return -EINVAL;
	memcpy(buf, src, first);
	memcpy(buf + first, src + ISIM_WQ_QUANTUM, total - first);
	*len = total;
	return 0;
}

/**
 * isim_wqe_inline - unpack a WQE's inline data
 * @wqe: the WQE: gen2 8 bytes at byte 8, then 31 bytes per quantum (gen1:
 *	isim_wqe_inline_g1())
 * @hdr: its header
 * @buf: where the bytes go
 * @len: set to their count
 *
 * Return: 0, or a completion minor code.
 */
int isim_wqe_inline(const struct isim_wqe *wqe, u64 hdr, u8 *buf,
		    u64 *len)
{
	const u8 *src = (const u8 *)wqe->raw;
	u32 n, off, q = 1, total = FIELD_GET(ISIM_WQH_INLINE_LEN, hdr);

	if (wqe->gen == ISIM_GEN1)
		return isim_wqe_inline_g1(wqe, total, buf, len);
	if (total > ISIM_INLINE_MAX ||
	    isim_sq_quanta(wqe->gen, hdr) > wqe->quanta)
		return -EINVAL;
	off = min_t(u32, total, ISIM_INLINE_FIRST);
	memcpy(buf, src + ISIM_INLINE_FIRST, off);
	while (off < total) {
		n = min_t(u32, total - off, ISIM_INLINE_PER_QUANTUM);
		memcpy(buf + off, src + q * ISIM_WQ_QUANTUM, n);
		off += n;
		q++;
	}
	*len = total;
	return 0;
}

/**
 * isim_sgl_io - read or write bytes of a fragment list
 * @f: function
 * @l: the fragments, allowed (isim_sgl_allowed())
 * @off: byte offset into the list
 * @buf: where the bytes come from or go
 * @len: bytes
 * @to_host: write to the fragments (else read from them)
 *
 * Return: 0, or -EFAULT when a fragment cannot be reached or the list
 * ends early.
 */
int isim_sgl_io(struct isim_func *f, const struct isim_sgl *l, u64 off,
		u8 *buf, u32 len, bool to_host)
{
	const struct isim_sge *e;
	u64 bus, contig;
	u32 i, n;
	int err;

	for (i = 0; i < l->n && len; i++) {
		e = &l->sge[i];
		if (off >= e->len) {
			off -= e->len;
			continue;
		}
		while (len && off < e->len) {
			err = isim_sge_bus(f, e, off, &bus, &contig);
			if (err)
				return err;
			n = min_t(u64, min_t(u64, len, e->len - off), contig);
			err = to_host ? isim_dma_write(f, bus, buf, n) :
					isim_dma_read(f, bus, buf, n);
			if (err)
				return err;
			buf += n;
			len -= n;
			off += n;
		}
		off = 0;
	}
	return len ? -EFAULT : 0;
}

/**
 * isim_copy - move bytes between two SGLs a page at a time
 * @x: the pass's scratch state (its bounce page)
 * @src: where the bytes come from, unless @inl
 * @inl: inline bytes of the WQE, or NULL
 * @dst: where they go
 * @len: bytes
 *
 * Return: 0, -EFAULT the source faulted, -EIO the destination.
 */
int isim_copy(struct isim_xfer *x, const struct isim_sgl *src,
	      const u8 *inl, const struct isim_sgl *dst, u64 len)
{
	u64 off;
	u32 n;

	for (off = 0; off < len; off += n) {
		n = min_t(u64, len - off, PAGE_SIZE);
		if (inl)
			memcpy(x->bounce, inl + off, n);
		else if (isim_sgl_io(x->f, src, off, x->bounce, n, false))
			return -EFAULT;
		if (isim_sgl_io(x->f, dst, off, x->bounce, n, true))
			return -EIO;
	}
	return 0;
}
