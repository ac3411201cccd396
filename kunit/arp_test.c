// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the driver's ARP table (arp.c): slots are handed out
 * lowest first, a refresh reports only real MAC changes, the two address
 * families never match each other, a full table refuses cleanly and a
 * cleared slot is reused.
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
