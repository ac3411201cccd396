// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the engine's ARP cache.
 *
 * The table half (irdma_arp_table_*) is plain bookkeeping that KUnit
 * tests on its own: IP address to slot, lowest free slot first, a refresh
 * that says whether the MAC changed. The device half (irdma_arp_*) keeps
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

/**
 * irdma_arp_table_set - add an address or refresh its MAC
 * @t: the table; @t->lock held
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: its MAC
 * @changed: set when the slot is new or its MAC changed, that is, when the
 *	engine must be told
 *
 * A new address takes the lowest free slot.
 *
 * Return: the slot index, or -ENOSPC when the table is full.
 */
int irdma_arp_table_set(struct irdma_arp_table *t, const u32 *addr,
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

/**
 * irdma_arp_table_clear - forget an address
 * @t: the table; @t->lock held
 * @addr: IP address, host order words
 * @ipv4: its family
 *
 * Return: the slot it had, now free, or -ENOENT.
 */
int irdma_arp_table_clear(struct irdma_arp_table *t, const u32 *addr,
			  bool ipv4)
{
	int idx;

	lockdep_assert_held(&t->lock);
	idx = irdma_arp_slot_of(t, addr, ipv4);
	if (idx < 0)
		return idx;
	memset(&t->ent[idx], 0, sizeof(t->ent[idx]));
	t->used--;
	return idx;
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

/**
 * irdma_arp_add - add an address to the ARP cache or refresh its MAC
 * @iwdev: the device
 * @addr: IP address, host order words
 * @ipv4: its family
 * @mac: its MAC
 *
 * The engine is told only when the entry is new or its MAC changed.
 *
 * Context: any.
 * Return: the ARP index, -ENOSPC when the cache is full or -ENOMEM.
 */
int irdma_arp_add(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		  const u8 *mac)
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
	idx = irdma_arp_table_set(t, addr, ipv4, mac, &changed);
	if (changed) {
		irdma_arp_post(iwdev, req, idx, mac);
		req = NULL;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	irdma_cmd_req_free(req);
	return idx;
}

/**
 * irdma_arp_del - remove an address from the ARP cache
 * @iwdev: the device
 * @addr: IP address, host order words
 * @ipv4: its family
 *
 * Unknown addresses are ignored. A delete that cannot be posted (no
 * memory) keeps the entry, so the engine and the table stay in step.
 *
 * Context: any.
 */
void irdma_arp_del(struct irdma_device *iwdev, const u32 *addr, bool ipv4)
{
	struct irdma_arp_table *t = &iwdev->arp;
	struct irdma_cmd_req *req;
	unsigned long flags;
	int idx;

	req = irdma_arp_req(false, GFP_ATOMIC);
	if (!req)
		return;
	spin_lock_irqsave(&t->lock, flags);
	idx = irdma_arp_table_clear(t, addr, ipv4);
	if (idx >= 0) {
		irdma_arp_post(iwdev, req, idx, NULL);
		req = NULL;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	irdma_cmd_req_free(req);
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
