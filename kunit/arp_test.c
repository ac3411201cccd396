// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the driver's ARP table (arp.c): slots are handed out
 * lowest first, a refresh reports only real MAC changes, the two address
 * families never match each other, a full table refuses cleanly and a
 * cleared slot is reused; a slot lives as long as its neighbour or an
 * AH holds it, so creating and destroying AHs never fills the table.
 */
#include <kunit/test.h>

#define AT_SLOTS	4

static const u8 at_mac_a[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0a };
static const u8 at_mac_b[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0b };

static int at_init(struct kunit *test)
{
	struct irdma_arp_table *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, irdma_arp_table_init(t, AT_SLOTS), 0);
	test->priv = t;
	return 0;
}

static void at_exit(struct kunit *test)
{
	irdma_arp_table_destroy(test->priv);
}

/* The table functions want the lock held; so do these wrappers. */
static int at_set(struct irdma_arp_table *t, u32 a0, bool ipv4, const u8 *mac,
		  bool *changed)
{
	u32 addr[4] = { a0, 0, 0, ipv4 ? 0 : 1 };
	int idx;

	spin_lock_irq(&t->lock);
	idx = irdma_arp_table_set(t, addr, ipv4, mac, changed);
	spin_unlock_irq(&t->lock);
	return idx;
}

static int at_find(struct irdma_arp_table *t, u32 a0, bool ipv4, u8 *mac)
{
	u32 addr[4] = { a0, 0, 0, ipv4 ? 0 : 1 };
	int idx;

	spin_lock_irq(&t->lock);
	idx = irdma_arp_table_find(t, addr, ipv4, mac);
	spin_unlock_irq(&t->lock);
	return idx;
}

static int at_clear(struct irdma_arp_table *t, u32 a0, bool ipv4)
{
	u32 addr[4] = { a0, 0, 0, ipv4 ? 0 : 1 };
	int idx;

	spin_lock_irq(&t->lock);
	idx = irdma_arp_table_clear(t, addr, ipv4);
	spin_unlock_irq(&t->lock);
	return idx;
}

static void irdma_arp_table_set_new_takes_lowest_free(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	u8 mac[ETH_ALEN];
	bool changed;

	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000201, true, at_mac_a, &changed), 0);
	KUNIT_EXPECT_TRUE(test, changed);
	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000202, true, at_mac_b, &changed), 1);
	KUNIT_EXPECT_TRUE(test, changed);
	KUNIT_EXPECT_EQ(test, t->used, 2);
	KUNIT_EXPECT_EQ(test, at_find(t, 0xc0000202, true, mac), 1);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, at_mac_b));
	KUNIT_EXPECT_EQ(test, at_find(t, 0xc0000203, true, NULL), -ENOENT);
}

static void irdma_arp_table_set_refresh_reports_mac_change(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	u8 mac[ETH_ALEN];
	bool changed;

	KUNIT_ASSERT_EQ(test, at_set(t, 0xc0000201, true, at_mac_a, &changed), 0);
	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000201, true, at_mac_a, &changed), 0);
	KUNIT_EXPECT_FALSE(test, changed);
	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000201, true, at_mac_b, &changed), 0);
	KUNIT_EXPECT_TRUE(test, changed);
	KUNIT_EXPECT_EQ(test, at_find(t, 0xc0000201, true, mac), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, at_mac_b));
	KUNIT_EXPECT_EQ(test, t->used, 1);
}

static void irdma_arp_table_set_families_distinct(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;

	/* the same first word as IPv4 and as (part of) an IPv6 address */
	KUNIT_EXPECT_EQ(test, at_set(t, 0x20010db8, true, at_mac_a, &changed), 0);
	KUNIT_EXPECT_EQ(test, at_set(t, 0x20010db8, false, at_mac_b, &changed), 1);
	KUNIT_EXPECT_TRUE(test, changed);
	KUNIT_EXPECT_EQ(test, at_clear(t, 0x20010db8, true), 0);
	KUNIT_EXPECT_EQ(test, at_find(t, 0x20010db8, false, NULL), 1);
	KUNIT_EXPECT_EQ(test, at_find(t, 0x20010db8, true, NULL), -ENOENT);
}

static void irdma_arp_table_set_full_fails(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;
	u32 i;

	for (i = 0; i < AT_SLOTS; i++)
		KUNIT_ASSERT_EQ(test, at_set(t, 0xc0000201 + i, true, at_mac_a,
					     &changed), i);
	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000264, true, at_mac_a, &changed),
			-ENOSPC);
	KUNIT_EXPECT_FALSE(test, changed);
	KUNIT_EXPECT_EQ(test, t->used, AT_SLOTS);
	/* an address already present is still refreshed */
	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000202, true, at_mac_b, &changed), 1);
	KUNIT_EXPECT_TRUE(test, changed);
}

static void irdma_arp_table_clear_frees_slot_for_reuse(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;

	KUNIT_ASSERT_EQ(test, at_set(t, 0xc0000201, true, at_mac_a, &changed), 0);
	KUNIT_ASSERT_EQ(test, at_set(t, 0xc0000202, true, at_mac_a, &changed), 1);
	KUNIT_EXPECT_EQ(test, at_clear(t, 0xc0000201, true), 0);
	KUNIT_EXPECT_EQ(test, at_clear(t, 0xc0000201, true), -ENOENT);
	KUNIT_EXPECT_EQ(test, t->used, 1);
	KUNIT_EXPECT_EQ(test, at_set(t, 0xc0000203, true, at_mac_b, &changed), 0);
	KUNIT_EXPECT_TRUE(test, changed);
}

static int at_get(struct irdma_arp_table *t, u32 a0, const u8 *mac,
		  bool *changed)
{
	u32 addr[4] = { a0 };
	int idx;

	spin_lock_irq(&t->lock);
	idx = irdma_arp_table_get(t, addr, true, mac, changed);
	spin_unlock_irq(&t->lock);
	return idx;
}

static int at_put(struct irdma_arp_table *t, int idx)
{
	int ret;

	spin_lock_irq(&t->lock);
	ret = irdma_arp_table_put(t, idx);
	spin_unlock_irq(&t->lock);
	return ret;
}

/* AHs to ever new destinations, created and destroyed: never full */
static void irdma_arp_table_get_put_loop_never_fills(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;
	int i, idx;

	for (i = 0; i < 25 * AT_SLOTS; i++) {
		idx = at_get(t, 0xe0000001 + i, at_mac_a, &changed);
		KUNIT_ASSERT_EQ(test, idx, 0);
		KUNIT_EXPECT_TRUE(test, changed);
		KUNIT_EXPECT_EQ(test, at_put(t, idx), idx);
	}
	KUNIT_EXPECT_EQ(test, t->used, 0);
	KUNIT_EXPECT_EQ(test, at_find(t, 0xe0000001, true, NULL), -ENOENT);
}

/* Two AHs to one destination share its slot until the last goes */
static void irdma_arp_table_get_counts_holders(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;

	KUNIT_ASSERT_EQ(test, at_get(t, 0xc0000201, at_mac_a, &changed), 0);
	KUNIT_EXPECT_EQ(test, at_get(t, 0xc0000201, at_mac_a, &changed), 0);
	KUNIT_EXPECT_FALSE(test, changed);
	KUNIT_EXPECT_EQ(test, at_put(t, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, at_find(t, 0xc0000201, true, NULL), 0);
	KUNIT_EXPECT_EQ(test, at_put(t, 0), 0);
	KUNIT_EXPECT_EQ(test, t->used, 0);
	/* a slot that holds nothing is not given back twice */
	KUNIT_EXPECT_EQ(test, at_put(t, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, at_put(t, AT_SLOTS), -ENOENT);
	KUNIT_EXPECT_EQ(test, at_put(t, -1), -ENOENT);
}

/* The neighbour's hold and the AHs' holds keep a slot together */
static void irdma_arp_table_neigh_and_holders(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;

	/* the neighbour goes while an AH names its slot: the slot stays */
	KUNIT_ASSERT_EQ(test, at_set(t, 0xc0000201, true, at_mac_a, &changed),
			0);
	KUNIT_ASSERT_EQ(test, at_get(t, 0xc0000201, at_mac_a, &changed), 0);
	KUNIT_EXPECT_EQ(test, at_clear(t, 0xc0000201, true), -EBUSY);
	KUNIT_EXPECT_EQ(test, at_find(t, 0xc0000201, true, NULL), 0);
	KUNIT_EXPECT_EQ(test, at_put(t, 0), 0);
	KUNIT_EXPECT_EQ(test, t->used, 0);
	/* the AH goes while the neighbour is there: the slot stays */
	KUNIT_ASSERT_EQ(test, at_get(t, 0xc0000202, at_mac_b, &changed), 0);
	KUNIT_ASSERT_EQ(test, at_set(t, 0xc0000202, true, at_mac_b, &changed),
			0);
	KUNIT_EXPECT_EQ(test, at_put(t, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, at_find(t, 0xc0000202, true, NULL), 0);
	KUNIT_EXPECT_EQ(test, at_clear(t, 0xc0000202, true), 0);
	KUNIT_EXPECT_EQ(test, t->used, 0);
}

/* Holders fill the table: then it refuses, and a put makes room */
static void irdma_arp_table_get_full_fails(struct kunit *test)
{
	struct irdma_arp_table *t = test->priv;
	bool changed;
	int i;

	for (i = 0; i < AT_SLOTS; i++)
		KUNIT_ASSERT_EQ(test, at_get(t, 0xe0000001 + i, at_mac_a,
					     &changed), i);
	KUNIT_EXPECT_EQ(test, at_get(t, 0xe0000100, at_mac_a, &changed),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, at_put(t, 2), 2);
	KUNIT_EXPECT_EQ(test, at_get(t, 0xe0000100, at_mac_a, &changed), 2);
	for (i = 0; i < AT_SLOTS; i++)
		KUNIT_EXPECT_EQ(test, at_put(t, i), i);
	KUNIT_EXPECT_EQ(test, t->used, 0);
}

static void irdma_arp_table_init_rejects_empty(struct kunit *test)
{
	struct irdma_arp_table t;

	KUNIT_EXPECT_EQ(test, irdma_arp_table_init(&t, 0), -EINVAL);
	KUNIT_EXPECT_NULL(test, t.ent);
	irdma_arp_table_destroy(&t);
}

static struct kunit_case irdma_arp_cases[] = {
	KUNIT_CASE(irdma_arp_table_set_new_takes_lowest_free),
	KUNIT_CASE(irdma_arp_table_set_refresh_reports_mac_change),
	KUNIT_CASE(irdma_arp_table_set_families_distinct),
	KUNIT_CASE(irdma_arp_table_set_full_fails),
	KUNIT_CASE(irdma_arp_table_clear_frees_slot_for_reuse),
	KUNIT_CASE(irdma_arp_table_get_put_loop_never_fills),
	KUNIT_CASE(irdma_arp_table_get_counts_holders),
	KUNIT_CASE(irdma_arp_table_neigh_and_holders),
	KUNIT_CASE(irdma_arp_table_get_full_fails),
	KUNIT_CASE(irdma_arp_table_init_rejects_empty),
	{}
};

static struct kunit_suite irdma_arp_suite = {
	.name = "irdma_arp",
	.init = at_init,
	.exit = at_exit,
	.test_cases = irdma_arp_cases,
};

kunit_test_suite(irdma_arp_suite);
