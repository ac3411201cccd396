/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: the engine's ARP cache as the driver keeps it (arp.c).
 *
 * The engine resolves the next hop of an offloaded connection or an
 * address handle through an index into its ARP cache, an HMC object
 * table of MAC addresses. The driver owns the other half: which IP
 * address each index stands for, so that a neighbour update finds the
 * entry to refresh and a connection finds the index to use.
 */
#ifndef IRDMA_ARP_H
#define IRDMA_ARP_H

#include <linux/etherdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct irdma_device;

/**
 * struct irdma_arp_entry - one slot of the ARP cache
 * @addr: IP address, host order words (IPv4 in [0], the rest zero)
 * @mac: its MAC address as programmed
 * @refs: what names the slot: AHs, RoCEv2 QP address vectors, the CM's
 *	connections and the iWARP QPs they hand over (irdma_arp_get(),
 *	irdma_arp_hold(), irdma_arp_put())
 * @neigh: the slot stands for a kernel neighbour entry (the neighbour
 *	notifier added it; irdma_arp_add()) until the notifier sees that
 *	neighbour go (irdma_arp_del())
 * @ipv4: @addr is IPv4
 * @used: the slot holds an entry
 *
 * A slot is freed when neither @refs nor @neigh holds it any more, so an
 * AH or QP that goes takes its entry with it unless something else still
 * needs it.
 */
struct irdma_arp_entry {
	u32 addr[4];
	u8 mac[ETH_ALEN];
	u32 refs;
	bool neigh;
	bool ipv4;
	bool used;
};

/**
 * struct irdma_arp_table - the driver's copy of the engine's ARP cache
 * @lock: protects @ent and @used; taken from any context (the neighbour
 *	notifier runs in softirq), and held while the CQP command that
 *	mirrors a change is submitted, so the engine sees the changes in
 *	table order
 * @size: slots; the HMC ARP object count
 * @used: slots holding an entry
 * @ent: the slots; index = engine ARP index
 */
struct irdma_arp_table {
	spinlock_t lock; /* @ent, @used */
	u32 size;
	u32 used;
	struct irdma_arp_entry *ent;
};

int irdma_arp_table_init(struct irdma_arp_table *t, u32 size);
void irdma_arp_table_destroy(struct irdma_arp_table *t);
int irdma_arp_table_find(struct irdma_arp_table *t, const u32 *addr,
			 bool ipv4, u8 *mac);
int irdma_arp_table_set(struct irdma_arp_table *t, const u32 *addr,
			bool ipv4, const u8 *mac, bool *changed);
int irdma_arp_table_clear(struct irdma_arp_table *t, const u32 *addr,
			  bool ipv4);
int irdma_arp_table_get(struct irdma_arp_table *t, const u32 *addr,
			bool ipv4, const u8 *mac, bool *changed);
int irdma_arp_table_put(struct irdma_arp_table *t, int idx);

int irdma_arp_cache_init(struct irdma_device *iwdev);
void irdma_arp_cache_cleanup(struct irdma_device *iwdev);
int irdma_arp_add(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		  const u8 *mac);
void irdma_arp_del(struct irdma_device *iwdev, const u32 *addr, bool ipv4);
int irdma_arp_get(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		  const u8 *mac);
int irdma_arp_hold(struct irdma_device *iwdev, int idx);
void irdma_arp_put(struct irdma_device *iwdev, int idx);
int irdma_arp_lookup(struct irdma_device *iwdev, const u32 *addr, bool ipv4,
		     u8 *mac);

#endif /* IRDMA_ARP_H */
