// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the parent-independent part of probing: which auxiliary
 * devices irdma claims, and which function descriptions it accepts.
 */
#include <kunit/test.h>
#include <linux/mod_devicetable.h>

static bool irdma_test_table_has(const struct auxiliary_device_id *table,
				 const char *name)
{
	for (; table->name[0]; table++)
		if (!strcmp(table->name, name))
			return true;
	return false;
}

static unsigned int irdma_test_table_len(const struct auxiliary_device_id *table)
{
	unsigned int n = 0;

	while (table[n].name[0])
		n++;
	return n;
}

static void irdma_bindings_claim_parent_devices(struct kunit *test)
{
	const struct auxiliary_device_id *ice = irdma_ice_drv.adrv.id_table;
	const struct auxiliary_device_id *i40e = irdma_i40e_drv.id_table;

	KUNIT_EXPECT_EQ(test, irdma_test_table_len(ice), 2U);
	KUNIT_EXPECT_TRUE(test, irdma_test_table_has(ice, "ice.iwarp"));
	KUNIT_EXPECT_TRUE(test, irdma_test_table_has(ice, "ice.roce"));
	KUNIT_EXPECT_EQ(test, irdma_test_table_len(i40e), 1U);
	KUNIT_EXPECT_TRUE(test, irdma_test_table_has(i40e, "i40e.iwarp"));
	/* The driver core matches on these; a probe without one is a bug. */
	KUNIT_EXPECT_NOT_NULL(test, irdma_ice_drv.adrv.probe);
	KUNIT_EXPECT_NOT_NULL(test, irdma_i40e_drv.probe);
}

static void irdma_ice_protocol_follows_device_name(struct kunit *test)
{
	static const struct auxiliary_device_id iwarp = { .name = "ice.iwarp" };
	static const struct auxiliary_device_id roce = { .name = "ice.roce" };

	KUNIT_EXPECT_EQ(test, irdma_ice_protocol(&iwarp), IRDMA_PROTOCOL_IWARP);
	KUNIT_EXPECT_EQ(test, irdma_ice_protocol(&roce), IRDMA_PROTOCOL_ROCEV2);
}

/* What one case changes in an otherwise valid gen2 iWARP description. */
enum irdma_test_fn_change {
	FN_VALID,
	FN_GEN2_ROCE,
	FN_GEN1_IWARP,
	FN_GEN1_ROCE,
	FN_GEN1_VECTOR0,
	FN_BAD_GEN,
	FN_BAD_PROTOCOL,
	FN_NO_REGS,
	FN_NO_DMA_DEV,
	FN_NO_NETDEV,
	FN_NO_OPS,
	FN_NO_MSIX,
	FN_ONE_VECTOR,
};

struct irdma_test_fn_case {
	const char *desc;
	enum irdma_test_fn_change change;
	int expected;
};

static const struct irdma_test_fn_case irdma_test_fn_cases[] = {
	{ "gen2 iWARP", FN_VALID, 0 },
	{ "gen2 RoCEv2", FN_GEN2_ROCE, 0 },
	{ "gen1 iWARP", FN_GEN1_IWARP, 0 },
	{ "gen1 RoCEv2", FN_GEN1_ROCE, -EINVAL },
	{ "gen1 with the parent's vector 0", FN_GEN1_VECTOR0, -EINVAL },
	{ "unknown generation", FN_BAD_GEN, -EINVAL },
	{ "unknown protocol", FN_BAD_PROTOCOL, -EINVAL },
	{ "no register space", FN_NO_REGS, -EINVAL },
	{ "no DMA device", FN_NO_DMA_DEV, -EINVAL },
	{ "no netdev", FN_NO_NETDEV, -EINVAL },
	{ "no parent ops", FN_NO_OPS, -EINVAL },
	{ "no MSI-X entries", FN_NO_MSIX, -EINVAL },
	{ "a single vector", FN_ONE_VECTOR, -EINVAL },
};

static void irdma_test_fn_case_desc(const struct irdma_test_fn_case *c,
				    char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(irdma_test_fn, irdma_test_fn_cases, irdma_test_fn_case_desc);

static void irdma_test_fn_apply(struct irdma_func *fn,
				enum irdma_test_fn_change change)
{
	switch (change) {
	case FN_VALID:
		break;
	case FN_GEN2_ROCE:
		fn->protocol = IRDMA_PROTOCOL_ROCEV2;
		break;
	case FN_GEN1_IWARP:
		fn->gen = IRDMA_GEN_1;
		break;
	case FN_GEN1_ROCE:
		fn->gen = IRDMA_GEN_1;
		fn->protocol = IRDMA_PROTOCOL_ROCEV2;
		break;
	case FN_GEN1_VECTOR0:
		fn->gen = IRDMA_GEN_1;
		fn->msix[1].entry = 0;
		break;
	case FN_BAD_GEN:
		fn->gen = 3;
		break;
	case FN_BAD_PROTOCOL:
		fn->protocol = 7;
		break;
	case FN_NO_REGS:
		fn->hw_addr = NULL;
		break;
	case FN_NO_DMA_DEV:
		fn->dma_dev = NULL;
		break;
	case FN_NO_NETDEV:
		fn->netdev = NULL;
		break;
	case FN_NO_OPS:
		fn->ops = NULL;
		break;
	case FN_NO_MSIX:
		fn->msix = NULL;
		break;
	case FN_ONE_VECTOR:
		fn->msix_count = 1;
		break;
	}
}

static void irdma_func_validate_description(struct kunit *test)
{
	const struct irdma_test_fn_case *c = test->param_value;
	static const struct irdma_func_ops ops = {};
	struct msix_entry *msix;
	struct irdma_func *fn;
	int i;

	fn = kunit_kzalloc(test, sizeof(*fn), GFP_KERNEL);
	msix = kunit_kcalloc(test, 4, sizeof(*msix), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fn);
	KUNIT_ASSERT_NOT_NULL(test, msix);
	/* as parents hand them over: past the vectors the parent keeps */
	for (i = 0; i < 4; i++)
		msix[i].entry = 9 + i;
	/* Stand-ins: validation only looks at whether they are set. */
	fn->adev = kunit_kzalloc(test, sizeof(*fn->adev), GFP_KERNEL);
	fn->dma_dev = &fn->adev->dev;
	fn->hw_addr = (u8 __iomem __force *)msix;
	fn->netdev = (struct net_device *)msix;
	fn->msix = msix;
	fn->msix_count = 4;
	fn->gen = IRDMA_GEN_2;
	fn->protocol = IRDMA_PROTOCOL_IWARP;
	fn->ops = &ops;
	KUNIT_ASSERT_NOT_NULL(test, fn->adev);

	irdma_test_fn_apply(fn, c->change);
	KUNIT_EXPECT_EQ(test, irdma_func_validate(fn), c->expected);
}

static struct kunit_case irdma_main_test_cases[] = {
	KUNIT_CASE(irdma_bindings_claim_parent_devices),
	KUNIT_CASE(irdma_ice_protocol_follows_device_name),
	KUNIT_CASE_PARAM(irdma_func_validate_description, irdma_test_fn_gen_params),
	{}
};

static struct kunit_suite irdma_main_test_suite = {
	.name = "irdma_main",
	.test_cases = irdma_main_test_cases,
};

kunit_test_suite(irdma_main_test_suite);
