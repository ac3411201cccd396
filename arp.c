// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the engine's ARP cache.
 *
 * The table half (irdma_arp_table_*) is plain bookkeeping that KUnit
 * tests on its own: IP address to slot, lowest free slot first, a refresh
 * that says whether the MAC changed, and who holds a slot: the kernel
 * neighbour it stands for, and each AH and RoCEv2 QP address vector
 * that names it. A slot nothing holds is freed, so no user can fill the
 * cache by creating and destroying AHs. The device half (irdma_arp_*) keeps
 * one table per RDMA device, sized by the HMC ARP object count, and mirrors
 * every change into the engine with a MANAGE_ARP command posted without
 * waiting, so that it can run from the neighbour notifier (softirq) and
 * from the CM's atomic paths.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "arp.h"
#include "hw.h"
#include "main.h"

/**
 * irdma_arp_table_init - make an empty table
 * @t: the table
 * @size: slots (at least one)
 *
 * Return: 0, -EINVAL for no slots, or -ENOMEM.
 */
int irdma_arp_table_init(struct irdma_arp_table *t, u32 size)
{
	memset(t, 0, sizeof(*t));
	if (!size)
		return -EINVAL;
	t->ent = kvcalloc(size, sizeof(*t->ent), GFP_KERNEL);
	if (!t->ent)
		return -ENOMEM;
	spin_lock_init(&t->lock);
	t->size = size;
	return 0;
}

/**
 * irdma_arp_table_destroy - free a table's slots
 * @t: the table; unused afterwards until initialised again
 */
void irdma_arp_table_destroy(struct irdma_arp_table *t)
{
	kvfree(t->ent);
	t->ent = NULL;
	t->size = 0;
	t->used = 0;
}

static bool irdma_arp_match(const struct irdma_arp_entry *e, const u32 *addr,
			    bool ipv4)
{
	if (!e->used || e->ipv4 != ipv4)
		return false;
	if (ipv4)
		return e->addr[0] == addr[0];
	return !memcmp(e->addr, addr, sizeof(e->addr));
}

static int irdma_arp_slot_of(struct irdma_arp_table *t, const u32 *addr,
			     bool ipv4)
{
	u32 i;

	for (i = 0; i < t->size; i++)
		if (irdma_arp_match(&t->ent[i], addr, ipv4))
			return i;
	return -ENOENT;
}

/**
 * irdma_arp_table_find - the slot of an address
 * @t: the table; @t->lock held
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: receives the MAC of the entry (may be NULL)
 *
 * Return: the slot index or -ENOENT.
 */
int irdma_arp_table_find(struct irdma_arp_table *t, const u32 *addr,
			 bool ipv4, u8 *mac)
{
	int idx;

	lockdep_assert_held(&t->lock);
	idx = irdma_arp_slot_of(t, addr, ipv4);
	if (idx >= 0 && mac)
		ether_addr_copy(mac, t->ent[idx].mac);
	return idx;
}

static int irdma_arp_free_slot(struct irdma_arp_table *t)
{
	u32 i;

	for (i = 0; i < t->size; i++)
		if (!t->ent[i].used)
			return i;
	return -ENOSPC;
}

/* The slot of an address, new (lowest free) or found, with @mac in it */
static int irdma_arp_table_store(struct irdma_arp_table *t, const u32 *addr,
				 bool ipv4, const u8 *mac, bool *changed)
{
	struct irdma_arp_entry *e;
	int idx;

	lockdep_assert_held(&t->lock);
	*changed = false;
	idx = irdma_arp_slot_of(t, addr, ipv4);
	if (idx < 0) {
		idx = irdma_arp_free_slot(t);
		if (idx < 0)
			return idx;
		e = &t->ent[idx];
		memset(e->addr, 0, sizeof(e->addr));
		memcpy(e->addr, addr, (ipv4 ? 1 : 4) * sizeof(*addr));
		e->ipv4 = ipv4;
		e->used = true;
		t->used++;
		*changed = true;
	}
	e = &t->ent[idx];
	if (!ether_addr_equal(e->mac, mac)) {
		ether_addr_copy(e->mac, mac);
		*changed = true;
	}
	return idx;
}

/* Free a slot nothing holds any more; true if it was freed */
static bool irdma_arp_table_release(struct irdma_arp_table *t, int idx)
{
	struct irdma_arp_entry *e = &t->ent[idx];

	if (e->refs || e->neigh)
		return false;
	memset(e, 0, sizeof(*e));
	t->used--;
	return true;
}

/**
 * irdma_arp_table_set - add a neighbour's address or refresh its MAC
 * @t: the table; @t->lock held
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: its MAC
 * @changed: set when the slot is new or its MAC changed, that is, when the
 *	engine must be told
 *
 * A new address takes the lowest free slot. The slot is held for the
 * neighbour until irdma_arp_table_clear().
 *
 * Return: the slot index, or -ENOSPC when the table is full.
 */
int irdma_arp_table_set(struct irdma_arp_table *t, const u32 *addr,
			bool ipv4, const u8 *mac, bool *changed)
{
	int idx;

	idx = irdma_arp_table_store(t, addr, ipv4, mac, changed);
	if (idx >= 0)
		t->ent[idx].neigh = true;
	return idx;
}

/**
 * irdma_arp_table_clear - the neighbour of an address went
 * @t: the table; @t->lock held
 * @addr: IP address, host order words
 * @ipv4: its family
 *
 * The neighbour's hold goes; the slot is freed unless an AH or a QP still
 * names it.
 *
 * Return: the slot it had, now free; -EBUSY if it is still held; or
 * -ENOENT if the address has no slot.
 */
int irdma_arp_table_clear(struct irdma_arp_table *t, const u32 *addr,
			  bool ipv4)
{
	int idx;

	lockdep_assert_held(&t->lock);
	idx = irdma_arp_slot_of(t, addr, ipv4);
	if (idx < 0)
		return idx;
	t->ent[idx].neigh = false;
	return irdma_arp_table_release(t, idx) ? idx : -EBUSY;
}

/**
 * irdma_arp_table_get - take a counted hold on an address's slot
 * @t: the table; @t->lock held
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: its MAC
 * @changed: as for irdma_arp_table_set()
 *
 * For an AH or a QP's address vector; irdma_arp_table_put() gives it back.
 *
 * Return: the slot index, or -ENOSPC when the table is full.
 */
int irdma_arp_table_get(struct irdma_arp_table *t, const u32 *addr,
			bool ipv4, const u8 *mac, bool *changed)
{
	int idx;

	idx = irdma_arp_table_store(t, addr, ipv4, mac, changed);
	if (idx >= 0)
		t->ent[idx].refs++;
	return idx;
}

/**
 * irdma_arp_table_put - give back a hold of irdma_arp_table_get()
 * @t: the table; @t->lock held
 * @idx: the slot the get returned
 *
 * Return: @idx if the slot is now free (the engine must be told); -EBUSY
 * if something still holds it; -ENOENT for a slot without a counted hold
 * (a bug of the caller).
 */
int irdma_arp_table_put(struct irdma_arp_table *t, int idx)
{
	lockdep_assert_held(&t->lock);
	if (idx < 0 || (u32)idx >= t->size || !t->ent[idx].used ||
	    WARN_ON_ONCE(!t->ent[idx].refs))
		return -ENOENT;
	t->ent[idx].refs--;
	return irdma_arp_table_release(t, idx) ? idx : -EBUSY;
}

/* ---- the device's cache, mirrored into the engine ---- */

/**
 * struct irdma_arp_cmd - argument of a MANAGE_ARP command
 * @idx: ARP index
 * @mac: MAC to write (add only)
 * @add: write (true) or clear the entry
 */
struct irdma_arp_cmd {
	u16 idx;
	u8 mac[ETH_ALEN];
	bool add;
};

static int irdma_arp_build(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_arp_cmd *a = arg;

	if (a->add)
		return irdma_cqpw_arp_add(wqe, valid, a->idx, a->mac, false);
	return irdma_cqpw_arp_del(wqe, valid, a->idx);
}

static struct irdma_cmd_req *irdma_arp_req(bool add, gfp_t gfp)
{
	struct irdma_arp_cmd a = { .add = add };

	return irdma_cmd_req_alloc(irdma_arp_build, &a, sizeof(a),
				   add ? "MANAGE_ARP add" : "MANAGE_ARP delete",
				   gfp);
}

/* Fill in a request from irdma_arp_req() and post it (table lock held). */
static void irdma_arp_post(struct irdma_device *iwdev,
			   struct irdma_cmd_req *req, int idx, const u8 *mac)
{
	struct irdma_arp_cmd *a = (struct irdma_arp_cmd *)req->arg;

	lockdep_assert_held(&iwdev->arp.lock);
	a->idx = idx;
	if (mac)
		ether_addr_copy(a->mac, mac);
	irdma_cmd_req_submit(iwdev->fn->hw, req);
}

/**
 * irdma_arp_cache_init - set up the ARP cache of a device
 * @iwdev: the device; its engine is up
 *
 * Context: process context.
 * Return: 0, or -EINVAL when the engine has no ARP objects, or -ENOMEM.
 */
int irdma_arp_cache_init(struct irdma_device *iwdev)
{
	u32 cnt = iwdev->fn->hw->hmc.obj[IRDMA_HMC_ARP].cnt;

	return irdma_arp_table_init(&iwdev->arp, cnt);
}

/**
 * irdma_arp_cache_cleanup - clear the engine's entries and free the cache
 * @iwdev: the device; nothing uses the cache any more (the RDMA device is
 *	unregistered, so no notifier finds it)
 *
 * The deletes are queued ahead of the CQP's destruction, which runs them.
 *
 * Context: process context.
 */
void irdma_arp_cache_cleanup(struct irdma_device *iwdev)
{
	struct irdma_arp_table *t = &iwdev->arp;
	struct irdma_cmd_req *req;
	unsigned long flags;
	u32 i;

	if (!t->ent)
		return;
	for (i = 0; i < t->size; i++) {
		if (!t->ent[i].used)
			continue;
		req = irdma_arp_req(false, GFP_KERNEL);
		if (!req)
			break;
		spin_lock_irqsave(&t->lock, flags);
		irdma_arp_post(iwdev, req, i, NULL);
		spin_unlock_irqrestore(&t->lock, flags);
	}
	irdma_arp_table_destroy(t);
}

/*
 * Store an address (@counted: an AH's or QP's hold, else the neighbour's)
 * and tell the engine if the slot is new or its MAC changed.
 */
static int irdma_arp_store(struct irdma_device *iwdev, const u32 *addr,
			   bool ipv4, const u8 *mac, bool counted)
{
	struct irdma_arp_table *t = &iwdev->arp;
	struct irdma_cmd_req *req;
	unsigned long flags;
	bool changed;
	int idx;

	req = irdma_arp_req(true, GFP_ATOMIC);
	if (!req)
		return -ENOMEM;
	spin_lock_irqsave(&t->lock, flags);
	idx = counted ? irdma_arp_table_get(t, addr, ipv4, mac, &changed) :
			irdma_arp_table_set(t, addr, ipv4, mac, &changed);
	if (changed) {
		irdma_arp_post(iwdev, req, idx, mac);
		req = NULL;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	irdma_cmd_req_free(req);
	return idx;
}

/**
 * irdma_arp_add - add a neighbour to the ARP cache or refresh its MAC
 * @iwdev: the device
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: its MAC
 *
 * For the neighbour notifier and the CM's resolution of a kernel
 * neighbour: the entry stays until the notifier sees the neighbour go
 * (irdma_arp_del()). The engine is told only when the entry is new or its
 * MAC changed.
 *
 * Context: any.
 * Return: the ARP index, -ENOSPC when the cache is full or -ENOMEM.
 */
int irdma_arp_add(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		  const u8 *mac)
{
	return irdma_arp_store(iwdev, addr, ipv4, mac, false);
}

/**
 * irdma_arp_get - an ARP index for an AH or a QP's address vector
 * @iwdev: the device
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: its MAC
 *
 * As irdma_arp_add(), but the entry is held until irdma_arp_put(): an AH
 * or a QP that goes frees an entry nothing else needs, so that creating
 * and destroying AHs to many destinations does not fill the cache.
 *
 * Context: any.
 * Return: the ARP index, -ENOSPC when the cache is full or -ENOMEM.
 */
int irdma_arp_get(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		  const u8 *mac)
{
	return irdma_arp_store(iwdev, addr, ipv4, mac, true);
}

/*
 * Drop the neighbour's hold on @addr, or (@addr NULL) a counted hold on
 * slot @idx, and post the delete of a slot that is now free. Without
 * memory for the delete nothing changes.
 */
static void irdma_arp_drop(struct irdma_device *iwdev, const u32 *addr,
			   bool ipv4, int idx)
{
	struct irdma_arp_table *t = &iwdev->arp;
	struct irdma_cmd_req *req;
	unsigned long flags;

	req = irdma_arp_req(false, GFP_ATOMIC);
	if (!req)
		return;
	spin_lock_irqsave(&t->lock, flags);
	idx = addr ? irdma_arp_table_clear(t, addr, ipv4) :
		     irdma_arp_table_put(t, idx);
	if (idx >= 0) {
		irdma_arp_post(iwdev, req, idx, NULL);
		req = NULL;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	irdma_cmd_req_free(req);
}

/**
 * irdma_arp_del - a neighbour went: drop its hold on the ARP cache
 * @iwdev: the device
 * @addr: IP address, host order words
 * @ipv4: its family
 *
 * The entry goes unless an AH or a QP still names it. Unknown addresses
 * are ignored. A delete that cannot be posted (no memory) keeps the entry
 * and the hold, so the engine and the table stay in step.
 *
 * Context: any.
 */
void irdma_arp_del(struct irdma_device *iwdev, const u32 *addr, bool ipv4)
{
	irdma_arp_drop(iwdev, addr, ipv4, -1);
}

/**
 * irdma_arp_put - give back an index of irdma_arp_get()
 * @iwdev: the device
 * @idx: the index
 *
 * The entry goes when nothing else holds it. Without memory for the
 * delete the hold is kept (the entry leaks until the device goes).
 *
 * Context: any.
 */
void irdma_arp_put(struct irdma_device *iwdev, int idx)
{
	irdma_arp_drop(iwdev, NULL, false, idx);
}

/**
 * irdma_arp_hold - take one more hold on a slot held already
 * @iwdev: the device
 * @idx: a slot the caller holds (irdma_arp_get()) or knows in use
 *
 * Context: any.
 * Return: 0, or -ENOENT for a slot not in use.
 */
int irdma_arp_hold(struct irdma_device *iwdev, int idx)
{
	struct irdma_arp_table *t = &iwdev->arp;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&t->lock, flags);
	if (idx >= 0 && (u32)idx < t->size && t->ent[idx].used) {
		t->ent[idx].refs++;
		ret = 0;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	return ret;
}

/**
 * irdma_arp_lookup - the ARP index and MAC of an address
 * @iwdev: the device
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: receives the MAC (may be NULL)
 *
 * Context: any.
 * Return: the ARP index or -ENOENT.
 */
int irdma_arp_lookup(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		     u8 *mac)
{
	unsigned long flags;
	int idx;

	spin_lock_irqsave(&iwdev->arp.lock, flags);
	idx = irdma_arp_table_find(&iwdev->arp, addr, ipv4, mac);
	spin_unlock_irqrestore(&iwdev->arp.lock, flags);
	return idx;
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/arp_test.c"
#endif
