// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: bus-master access to the memory the driver handed over.
 *
 * The engine only ever touches memory through bus addresses it was given
 * (WQE fields, contexts, SDs, PBLEs), page by page, as a device would. An
 * address outside the function's DMA mask or outside RAM is a DMA fault:
 * the caller turns it into an error completion or an AE. The simulated
 * function sits behind no IOMMU, so a bus address is a physical address.
 */
#include <linux/dma-direct.h>
#include <linux/highmem.h>
#include <linux/mm.h>

#include "isim.h"

static void *isim_dma_map_page(struct isim_func *f, u64 addr)
{
	phys_addr_t pa = dma_to_phys(&f->dev, addr);

	if (addr < PAGE_SIZE || !pfn_valid(PHYS_PFN(pa)))
		return NULL;
	return kmap_local_page(pfn_to_page(PHYS_PFN(pa))) + offset_in_page(pa);
}

static int isim_dma_xfer(struct isim_func *f, u64 addr, void *buf,
			 size_t len, bool to_host)
{
	size_t chunk;
	void *va;

	if (addr + len < addr || addr + len - 1 > dma_get_mask(&f->dev))
		return -EFAULT;
	while (len) {
		chunk = min_t(size_t, len, PAGE_SIZE - offset_in_page(addr));
		va = isim_dma_map_page(f, addr);
		if (!va)
			return -EFAULT;
		if (to_host)
			memcpy(va, buf, chunk);
		else
			memcpy(buf, va, chunk);
		kunmap_local(va);
		addr += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * isim_dma_read - read host memory at a bus address
 * @f: function doing the access
 * @addr: bus address
 * @buf: destination
 * @len: bytes
 *
 * Return: 0, or -EFAULT for an address the function cannot reach.
 */
int isim_dma_read(struct isim_func *f, u64 addr, void *buf, size_t len)
{
	return isim_dma_xfer(f, addr, buf, len, false);
}

/**
 * isim_dma_write - write host memory at a bus address
 * @f: function doing the access
 * @addr: bus address
 * @buf: source
 * @len: bytes
 *
 * Return: 0, or -EFAULT for an address the function cannot reach.
 */
int isim_dma_write(struct isim_func *f, u64 addr, const void *buf,
		   size_t len)
{
	return isim_dma_xfer(f, addr, (void *)buf, len, true);
}

/* resolve one offset of a queue; @len must not cross a 4 KiB page */
static int isim_qmem_addr(struct isim_func *f, const struct isim_qmem *qm,
			  u32 off, size_t len, u64 *addr)
{
	u64 page;
	int err;

	if (off + len > qm->bytes)
		return -EFAULT;
	if (!qm->virt) {
		*addr = qm->pa + off;
		return 0;
	}
	err = isim_hmc_pble(f, qm->first_pble + off / SZ_4K, &page);
	if (err)
		return err;
	*addr = page + off % SZ_4K;
	return 0;
}

static int isim_qmem_xfer(struct isim_func *f, const struct isim_qmem *qm,
			  u32 off, void *buf, size_t len, bool to_host)
{
	size_t chunk;
	u64 addr;
	int err;

	while (len) {
		chunk = min_t(size_t, len, SZ_4K - off % SZ_4K);
		err = isim_qmem_addr(f, qm, off, chunk, &addr);
		if (!err)
			err = isim_dma_xfer(f, addr, buf, chunk, to_host);
		if (err)
			return err;
		off += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * isim_qmem_read - read from a queue ring
 * @f: function
 * @qm: ring location
 * @off: byte offset in the ring
 * @buf: destination
 * @len: bytes
 *
 * Return: 0 or -EFAULT.
 */
int isim_qmem_read(struct isim_func *f, const struct isim_qmem *qm,
		   u32 off, void *buf, size_t len)
{
	return isim_qmem_xfer(f, qm, off, buf, len, false);
}

/**
 * isim_qmem_write - write into a queue ring
 * @f: function
 * @qm: ring location
 * @off: byte offset in the ring
 * @buf: source
 * @len: bytes
 *
 * Return: 0 or -EFAULT.
 */
int isim_qmem_write(struct isim_func *f, const struct isim_qmem *qm,
		    u32 off, const void *buf, size_t len)
{
	return isim_qmem_xfer(f, qm, off, (void *)buf, len, true);
}

/**
 * isim_ring_post - write one element at a ring's head with its valid bit
 * @f: function
 * @r: ring
 * @elem: element in CPU order, r->elem bytes; converted in place
 * @valid_word: index of the 64-bit word holding the valid bit
 * @valid_bit: the valid bit
 *
 * The element is first written with the previous pass's valid bit, then,
 * after a write barrier, the word with the current one, so the driver never
 * sees a valid element with stale contents. The head
 * advances and the polarity flips on wrap.
 *
 * Return: 0 or -EFAULT.
 */
int isim_ring_post(struct isim_func *f, struct isim_ring *r, u64 *elem,
		   unsigned int valid_word, u64 valid_bit)
{
	u32 base = r->head * r->elem;
	unsigned int i, words = r->elem / 8;
	__le64 le[8];
	int err;

	if (WARN_ON_ONCE(words > ARRAY_SIZE(le) || valid_word >= words))
		return -EINVAL;
	if (r->polarity)
		elem[valid_word] |= valid_bit;
	else
		elem[valid_word] &= ~valid_bit;
	/* first pass: the whole element, still showing the old polarity */
	for (i = 0; i < words; i++)
		le[i] = cpu_to_le64(elem[i]);
	le[valid_word] = cpu_to_le64(elem[valid_word] ^ valid_bit);
	err = isim_qmem_write(f, &r->mem, base, le, r->elem);
	if (err)
		return err;
	dma_wmb();
	le[valid_word] = cpu_to_le64(elem[valid_word]);
	err = isim_qmem_write(f, &r->mem, base + valid_word * 8,
			      &le[valid_word], 8);
	if (err)
		return err;
	if (++r->head == r->size) {
		r->head = 0;
		r->polarity ^= 1;
	}
	return 0;
}
