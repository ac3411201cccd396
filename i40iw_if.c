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
static const struct i40e_client_ops irdma_i40e_client_ops;

static struct i40e_client irdma_i40e_client = {
	.name = "irdma",
	.type = I40E_CLIENT_IWARP,
	.ops = &irdma_i40e_client_ops,
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

/**
 * struct irdma_i40e_func - a function bound through i40e
 * @fn: the function description
 * @lock: serialises open, close and parameter changes; protects @open and
 *	@prio_qos
 * @open: i40e opened the client and the engine is up
 * @prio_qos: the queue sets the engine was last told about
 *
 * i40e makes the calls of its client interface from its service task, one
 * at a time; unregistering the client waits for that task and closes an
 * open client. @lock keeps that true whatever i40e does next.
 */
struct irdma_i40e_func {
	struct irdma_func fn;
	struct mutex lock; /* open, prio_qos */
	bool open;
	struct i40e_prio_qos_params prio_qos[I40E_CLIENT_MAX_USER_PRIORITY];
};

static struct irdma_i40e_func *irdma_i40e_func_of(struct i40e_info *ldev)
{
	return auxiliary_get_drvdata(ldev->aux_dev);
}

/* i40e is ready for its client: bring the engine up. */
static int irdma_i40e_open(struct i40e_info *ldev, struct i40e_client *client)
{
	struct irdma_i40e_func *f = irdma_i40e_func_of(ldev);
	int ret;

	mutex_lock(&f->lock);
	memcpy(f->prio_qos, ldev->params.qos.prio_qos, sizeof(f->prio_qos));
	ret = irdma_func_probe(&f->fn);
	f->open = !ret;
	mutex_unlock(&f->lock);
	return ret;
}

/*
 * The netdev goes away or i40e resets the PF (@reset): stop. After a reset
 * the engine has forgotten everything, so tear-down asks it nothing; i40e
 * opens the client again once the PF is back.
 */
static void irdma_i40e_close(struct i40e_info *ldev, struct i40e_client *client,
			     bool reset)
{
	struct irdma_i40e_func *f = irdma_i40e_func_of(ldev);

	mutex_lock(&f->lock);
	if (f->open) {
		if (reset)
			irdma_func_remove_after_reset(&f->fn);
		else
			irdma_func_remove(&f->fn);
		f->open = false;
	}
	mutex_unlock(&f->lock);
}

/*
 * The MTU or the traffic classes changed (i40e hands both over every
 * time). New queue sets are taken as a traffic-class change.
 */
static void irdma_i40e_l2_param_change(struct i40e_info *ldev,
				       struct i40e_client *client,
				       struct i40e_params *params)
{
	struct irdma_i40e_func *f = irdma_i40e_func_of(ldev);

	mutex_lock(&f->lock);
	if (!f->open)
		goto out;
	irdma_func_event(&f->fn, IRDMA_FUNC_EV_MTU, params->mtu);
	if (!memcmp(f->prio_qos, params->qos.prio_qos, sizeof(f->prio_qos)))
		goto out;
	memcpy(f->prio_qos, params->qos.prio_qos, sizeof(f->prio_qos));
	irdma_func_event(&f->fn, IRDMA_FUNC_EV_TC_PREPARE, 0);
	irdma_func_event(&f->fn, IRDMA_FUNC_EV_TC_DONE, 0);
out:
	mutex_unlock(&f->lock);
}

static const struct i40e_client_ops irdma_i40e_client_ops = {
	.open = irdma_i40e_open,
	.close = irdma_i40e_close,
	.l2_param_change = irdma_i40e_l2_param_change,
};

/*
 * i40e sets its client up on its own schedule: probe only registers, and
 * the engine comes up when i40e calls open.
 */
static int irdma_i40e_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	struct i40e_auxiliary_device *i40e_adev =
		container_of(adev, struct i40e_auxiliary_device, aux_dev);
	struct i40e_info *ldev = i40e_adev->ldev;
	struct irdma_i40e_func *f;

	/* Freed by the driver core when probe fails or the device unbinds. */
	f = devm_kzalloc(&adev->dev, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	/* X722 is gen1 and speaks iWARP only; i40e owns BAR0 and vectors */
	f->fn = (struct irdma_func) {
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
	auxiliary_set_drvdata(adev, f);
	i40e_client_device_register(ldev, &irdma_i40e_client);
	return 0;
}

/* Unregistering closes an open client first. */
static void irdma_i40e_remove(struct auxiliary_device *adev)
{
	struct i40e_auxiliary_device *i40e_adev =
		container_of(adev, struct i40e_auxiliary_device, aux_dev);
	struct irdma_i40e_func *f = auxiliary_get_drvdata(adev);

	i40e_client_device_unregister(i40e_adev->ldev);
	mutex_destroy(&f->lock);
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
