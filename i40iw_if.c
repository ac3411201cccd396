// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: binding to i40e, the parent driver of X722 (gen1) functions.
 *
 * i40e creates the auxiliary device "i40e.iwarp" and describes the function
 * in struct i40e_info; the engine itself is driven through the i40e client
 * interface.
 */
#include <linux/module.h>
#include <linux/net/intel/i40e_client.h>

#include "main.h"
#include "qos.h"

/* Identifies this driver to i40e in the client calls below. */
static struct i40e_client irdma_i40e_client = {
	.name = "irdma",
	.type = I40E_CLIENT_IWARP,
};

static int irdma_i40e_request_reset(struct irdma_func *fn)
{
	struct i40e_info *ldev = fn->parent;

	ldev->ops->request_reset(ldev, &irdma_i40e_client,
				 I40E_CLIENT_RESET_LEVEL_PF);
	return 0;
}

static int irdma_i40e_vsi_filter(struct irdma_func *fn, u16 vsi_id,
				 bool enable)
{
	struct i40e_info *ldev = fn->parent;

	return ldev->ops->update_vsi_ctxt(ldev, &irdma_i40e_client, false, 0,
					  enable ? I40E_CLIENT_VSI_FLAG_TCP_ENABLE : 0,
					  I40E_CLIENT_VSI_FLAG_TCP_ENABLE);
}

/* X722 has no RDMA work-scheduler nodes in the LAN scheduler. */
/*
 * i40e made one queue set per user priority and says which class each is
 * in; classes are numbered from 0, so the highest one tells how many.
 */
static int irdma_i40e_qos_get(struct irdma_func *fn,
			      struct irdma_qos_params *qos)
{
	struct i40e_info *ldev = fn->parent;
	const struct i40e_prio_qos_params *pq = ldev->params.qos.prio_qos;
	u8 i;

	qos->num_tc = 1;
	for (i = 0; i < IRDMA_QOS_UPS; i++) {
		qos->up2tc[i] = pq[i].tc;
		qos->qs_handle[i] = pq[i].qs_handle;
		qos->num_tc = max_t(u8, qos->num_tc, pq[i].tc + 1);
	}
	return 0;
}

static const struct irdma_func_ops irdma_i40e_ops = {
	.request_reset = irdma_i40e_request_reset,
	.vsi_filter = irdma_i40e_vsi_filter,
	.qos_get = irdma_i40e_qos_get,
};

static int irdma_i40e_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	struct i40e_auxiliary_device *i40e_adev =
		container_of(adev, struct i40e_auxiliary_device, aux_dev);
	struct i40e_info *ldev = i40e_adev->ldev;
	struct irdma_func *fn;

	/* Freed by the driver core when probe fails or the device unbinds. */
	fn = devm_kzalloc(&adev->dev, sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	/* X722 is gen1 and speaks iWARP only; i40e owns BAR0 and vectors */
	*fn = (struct irdma_func) {
		.gen = IRDMA_GEN_1,
		.protocol = IRDMA_PROTOCOL_IWARP,
		.ops = &irdma_i40e_ops,
		.parent = ldev,
		.adev = adev,
		.netdev = ldev->netdev,
		.fn_id = ldev->fid,
		.dma_dev = &ldev->pcidev->dev,
		.hw_addr = ldev->hw_addr,
		.hw_phys = pci_resource_start(ldev->pcidev, 0),
		.msix = ldev->msix_entries,
		.msix_count = ldev->msix_count,
	};
	auxiliary_set_drvdata(adev, fn);
	return irdma_func_probe(fn);
}

static void irdma_i40e_remove(struct auxiliary_device *adev)
{
	irdma_func_remove(auxiliary_get_drvdata(adev));
}

static const struct auxiliary_device_id irdma_i40e_id_table[] = {
	{ .name = "i40e.iwarp", },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_i40e_id_table);

struct auxiliary_driver irdma_i40e_drv = {
	.name = "gen_1",
	.id_table = irdma_i40e_id_table,
	.probe = irdma_i40e_probe,
	.remove = irdma_i40e_remove,
};
