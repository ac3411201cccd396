// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: binding to ice, the parent driver of E810 (gen2) functions.
 *
 * ice creates one auxiliary device per PF, named "ice.iwarp" or "ice.roce"
 * after the protocol chosen with devlink. In 6.1 the device only carries a
 * pointer to the PF, so this file, and no other, reads struct ice_pf.
 */
#include <linux/module.h>

#include "../../../net/ethernet/intel/ice/ice.h"
#include "main.h"
#include "qos.h"

static int irdma_ice_qset_add(struct irdma_func *fn, u16 qs_handle, u8 tc,
			      u32 *teid)
{
	struct iidc_rdma_qset_params qset = {
		.qs_handle = qs_handle,
		.vport_id = fn->vsi_id,
		.tc = tc,
	};
	int ret;

	ret = ice_add_rdma_qset(fn->parent, &qset);
	if (!ret)
		*teid = qset.teid;
	return ret;
}

static int irdma_ice_qset_del(struct irdma_func *fn, u16 qs_handle, u8 tc,
			      u32 teid)
{
	struct iidc_rdma_qset_params qset = {
		.teid = teid,
		.qs_handle = qs_handle,
		.vport_id = fn->vsi_id,
		.tc = tc,
	};

	return ice_del_rdma_qset(fn->parent, &qset);
}

static int irdma_ice_request_reset(struct irdma_func *fn)
{
	return ice_rdma_request_reset(fn->parent, IIDC_PFR);
}

static int irdma_ice_vsi_filter(struct irdma_func *fn, u16 vsi_id,
				bool enable)
{
	return ice_rdma_update_vsi_filter(fn->parent, vsi_id, enable);
}

/* ice's QoS parameters, in the driver's terms */
static int irdma_ice_qos_get(struct irdma_func *fn,
			     struct irdma_qos_params *qos)
{
	struct iidc_qos_params params = {};
	struct iidc_qos_params *p = &params;
	u8 i;

	ice_get_qos_params(fn->parent, p);
	qos->num_tc = min_t(u8, p->num_tc, IRDMA_QOS_TCS);
	for (i = 0; i < IRDMA_QOS_UPS; i++)
		qos->up2tc[i] = p->up2tc[i];
	for (i = 0; i < IRDMA_QOS_TCS; i++)
		qos->rel_bw[i] = p->tc_info[i].rel_bw;
	qos->dscp = p->pfc_mode == IIDC_DSCP_PFC_MODE;
	if (qos->dscp)
		memcpy(qos->dscp_map, p->dscp_map,
		       min(sizeof(qos->dscp_map), sizeof(p->dscp_map)));
	return 0;
}

static const struct irdma_func_ops irdma_ice_ops = {
	.qset_add = irdma_ice_qset_add,
	.qset_del = irdma_ice_qset_del,
	.request_reset = irdma_ice_request_reset,
	.vsi_filter = irdma_ice_vsi_filter,
	.qos_get = irdma_ice_qos_get,
};

/**
 * irdma_ice_protocol - RDMA protocol of an ice auxiliary device
 * @id: the id-table entry the device matched
 *
 * Return: the protocol that the device name announces.
 */
enum irdma_protocol irdma_ice_protocol(const struct auxiliary_device_id *id)
{
	return strcmp(id->name, "ice.roce") ?
	       IRDMA_PROTOCOL_IWARP : IRDMA_PROTOCOL_ROCEV2;
}

static int irdma_ice_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct iidc_auxiliary_dev *iadev =
		container_of(adev, struct iidc_auxiliary_dev, adev);
	struct ice_pf *pf = iadev->pf;
	struct irdma_func *fn;
	struct ice_vsi *vsi;

	vsi = ice_get_main_vsi(pf);
	if (!vsi)
		return -EIO;
	/* Freed by the driver core when probe fails or the device unbinds. */
	fn = devm_kzalloc(&adev->dev, sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	/* E810 is gen2; ice lends its main VSI and a slice of its vectors */
	*fn = (struct irdma_func) {
		.gen = IRDMA_GEN_2,
		.protocol = irdma_ice_protocol(id),
		.ops = &irdma_ice_ops,
		.parent = pf,
		.adev = adev,
		.netdev = vsi->netdev,
		.fn_id = pf->hw.pf_id,
		.vsi_id = vsi->vsi_num,
		.dma_dev = &pf->pdev->dev,
		.hw_addr = pf->hw.hw_addr,
		.hw_phys = pci_resource_start(pf->pdev, 0),
		.msix = &pf->msix_entries[pf->rdma_base_vector],
		.msix_count = pf->num_rdma_msix,
	};
	auxiliary_set_drvdata(adev, fn);
	return irdma_func_probe(fn);
}

static void irdma_ice_remove(struct auxiliary_device *adev)
{
	irdma_func_remove(auxiliary_get_drvdata(adev));
}

static const struct auxiliary_device_id irdma_ice_id_table[] = {
	{ .name = "ice.iwarp", },
	{ .name = "ice.roce", },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_ice_id_table);

/* ice calls this with the auxiliary device's lock held, so it is bound. */
static void irdma_ice_event(struct ice_pf *pf, struct iidc_event *event)
{
	struct irdma_func *fn = auxiliary_get_drvdata(pf->adev);

	if (test_bit(IIDC_EVENT_AFTER_MTU_CHANGE, event->type))
		irdma_func_event(fn, IRDMA_FUNC_EV_MTU, fn->netdev->mtu);
	if (test_bit(IIDC_EVENT_BEFORE_TC_CHANGE, event->type))
		irdma_func_event(fn, IRDMA_FUNC_EV_TC_PREPARE, 0);
	if (test_bit(IIDC_EVENT_AFTER_TC_CHANGE, event->type))
		irdma_func_event(fn, IRDMA_FUNC_EV_TC_DONE, 0);
	if (test_bit(IIDC_EVENT_CRIT_ERR, event->type))
		irdma_func_event(fn, IRDMA_FUNC_EV_CRIT_ERR, event->reg);
}

/* ice looks the event handler up through this wrapper of the driver. */
struct iidc_auxiliary_drv irdma_ice_drv = {
	.adrv = {
		.name = "gen_2",
		.id_table = irdma_ice_id_table,
		.probe = irdma_ice_probe,
		.remove = irdma_ice_remove,
	},
	.event_handler = irdma_ice_event,
};
