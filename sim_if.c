// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: binding to irdma_sim, the simulated E810 and X722 functions.
 *
 * irdma_sim creates one auxiliary device per simulated function,
 * "irdma_sim.func.<ID>", carrying everything the driver needs in
 * struct isim_aux_dev (sim/isim_aux.h). This file turns it into a
 * struct irdma_func, as icrdma_if.c does for ice, and nothing below it
 * can tell the simulator from an E810.
 *
 * There is no MODULE_DEVICE_TABLE: irdma is not autoloaded for simulated
 * functions; whoever creates them loads irdma.
 */
#include <linux/io.h>
#include <linux/module.h>

#include "main.h"
#include "qos.h"
#include "sim/isim_aux.h"
#include "uk.h"

static struct isim_aux_dev *irdma_sim_parent(struct irdma_func *fn)
{
	return fn->parent;
}

static int irdma_sim_qset_add(struct irdma_func *fn, u16 qs_handle, u8 tc,
			      u32 *teid)
{
	struct isim_aux_dev *iadev = irdma_sim_parent(fn);

	return iadev->ops->qset_add(iadev, qs_handle, tc, teid);
}

static int irdma_sim_qset_del(struct irdma_func *fn, u16 qs_handle, u8 tc,
			      u32 teid)
{
	struct isim_aux_dev *iadev = irdma_sim_parent(fn);

	return iadev->ops->qset_del(iadev, qs_handle, tc, teid);
}

static int irdma_sim_request_reset(struct irdma_func *fn)
{
	struct isim_aux_dev *iadev = irdma_sim_parent(fn);

	return iadev->ops->request_reset(iadev);
}

static int irdma_sim_vsi_filter(struct irdma_func *fn, u16 vsi_id,
				bool enable)
{
	struct isim_aux_dev *iadev = irdma_sim_parent(fn);

	return iadev->ops->vsi_filter(iadev, vsi_id, enable);
}

static int irdma_sim_qos_get(struct irdma_func *fn,
			     struct irdma_qos_params *qos)
{
	struct isim_aux_dev *iadev = irdma_sim_parent(fn);
	struct isim_aux_qos q;
	int ret;

	ret = iadev->ops->qos_get(iadev, &q);
	if (ret)
		return ret;
	qos->num_tc = q.num_tc;
	memcpy(qos->up2tc, q.up2tc, sizeof(qos->up2tc));
	memcpy(qos->rel_bw, q.rel_bw, sizeof(qos->rel_bw));
	return 0;
}

/*
 * The register space is the simulator's RAM: a write is a plain store,
 * which the engine would only find at its next poll. The accessors tell
 * it at once (isim_aux_ops.kick), as the write would reach an E810; what
 * the registers hold is the store's alone.
 */
static void irdma_sim_wr32(const struct irdma_mmio *mmio, u32 off, u32 val)
{
	struct isim_aux_dev *iadev = mmio->priv;

	writel(val, mmio->base + off);
	iadev->ops->kick(iadev, off, val);
}

static u32 irdma_sim_rd32(const struct irdma_mmio *mmio, u32 off)
{
	return readl(mmio->base + off);
}

static const struct irdma_mmio_ops irdma_sim_mmio_ops = {
	.write32 = irdma_sim_wr32,
	.read32 = irdma_sim_rd32,
};

static const struct irdma_func_ops irdma_sim_ops = {
	.qset_add = irdma_sim_qset_add,
	.qset_del = irdma_sim_qset_del,
	.request_reset = irdma_sim_request_reset,
	.vsi_filter = irdma_sim_vsi_filter,
	.qos_get = irdma_sim_qos_get,
};

/* the simulator's vectors, in the form the parent drivers hand over */
static struct msix_entry *irdma_sim_msix(struct auxiliary_device *adev,
					 const struct isim_aux_dev *iadev)
{
	struct msix_entry *msix;
	u32 i;

	msix = devm_kcalloc(&adev->dev, iadev->num_vectors, sizeof(*msix),
			    GFP_KERNEL);
	if (!msix)
		return NULL;
	for (i = 0; i < iadev->num_vectors; i++) {
		msix[i].vector = iadev->irqs[i];
		msix[i].entry = iadev->first_vector + i;
	}
	return msix;
}

static int irdma_sim_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct isim_aux_dev *iadev = to_isim_aux_dev(adev);
	struct msix_entry *msix;
	struct irdma_func *fn;
	int ret;

	/* Freed by the driver core when probe fails or the device unbinds. */
	fn = devm_kzalloc(&adev->dev, sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	msix = irdma_sim_msix(adev, iadev);
	if (!msix)
		return -ENOMEM;
	/*
	 * The registers are BAR0 of a PCI function (a register window of the
	 * simulator), or plain memory of the simulator when it had none.
	 */
	*fn = (struct irdma_func) {
		.gen = iadev->gen, /* 1 and 2, as enum irdma_hw_gen */
		.protocol = iadev->protocol == ISIM_AUX_ROCEV2 ?
			    IRDMA_PROTOCOL_ROCEV2 : IRDMA_PROTOCOL_IWARP,
		.ops = &irdma_sim_ops,
		.parent = iadev,
		.adev = adev,
		.netdev = iadev->netdev,
		.fn_id = iadev->fn_id,
		.vsi_id = iadev->vsi_id,
		.dma_dev = iadev->dma_dev,
		.hw_addr = iadev->hw_addr,
		.hw_phys = iadev->pdev ? pci_resource_start(iadev->pdev, 0) : 0,
		.regs_in_ram = !iadev->pdev,
		.mmio_ops = &irdma_sim_mmio_ops,
		.mmio_priv = iadev,
		.msix = msix,
		.msix_count = iadev->num_vectors,
	};
	auxiliary_set_drvdata(adev, fn);
	/* every register write goes through irdma_sim_wr32() from now on */
	iadev->ops->set_kicked(iadev, true);
	ret = irdma_func_probe(fn);
	if (ret)
		iadev->ops->set_kicked(iadev, false);
	return ret;
}

static void irdma_sim_remove(struct auxiliary_device *adev)
{
	struct irdma_func *fn = auxiliary_get_drvdata(adev);

	irdma_func_remove(fn);
	to_isim_aux_dev(adev)->ops->set_kicked(to_isim_aux_dev(adev), false);
}

static void irdma_sim_event(struct isim_aux_dev *iadev,
			    enum isim_aux_event ev, u32 info)
{
	static const enum irdma_func_event map[] = {
		[ISIM_AUX_EV_MTU] = IRDMA_FUNC_EV_MTU,
		[ISIM_AUX_EV_TC_PREPARE] = IRDMA_FUNC_EV_TC_PREPARE,
		[ISIM_AUX_EV_TC_DONE] = IRDMA_FUNC_EV_TC_DONE,
		[ISIM_AUX_EV_CRIT_ERR] = IRDMA_FUNC_EV_CRIT_ERR,
	};

	if (ev < ARRAY_SIZE(map))
		irdma_func_event(auxiliary_get_drvdata(&iadev->adev), map[ev],
				 info);
}

static const struct auxiliary_device_id irdma_sim_id_table[] = {
	{ .name = ISIM_AUX_MATCH_NAME, },
	{}
};

struct isim_aux_drv irdma_sim_drv = {
	.adrv = {
		.name = "sim",
		.id_table = irdma_sim_id_table,
		.probe = irdma_sim_probe,
		.remove = irdma_sim_remove,
	},
	.event = irdma_sim_event,
};
