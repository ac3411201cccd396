// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Test harness only, not part of Linux: binds this driver, unchanged
 * otherwise, to the functions of irdma_sim, the project's model of the
 * E810/X722 RDMA engine (tools/upstream/ in the irdma project says how
 * it is built and why).
 *
 * irdma_sim plugs an auxiliary device "irdma_sim.upstream.<ID>" for each
 * function it gives to this driver (struct isim_aux_dev in
 * sim/isim_aux.h). Its register space is BAR0 of a real PCI function (a
 * RAM-backed BAR the harness's QEMU provides), which is what this driver
 * wants from ice and i40e: a struct pci_dev for DMA, IDs and the user
 * doorbell pages, and a mapping of BAR0. What ice and i40e give besides
 * (vectors, function and VSI numbers, queue sets, traffic classes, reset)
 * comes from the simulated parent's services. From the hardware-facing
 * code's point of view nothing differs from a probe through main.c
 * (gen2) or i40iw_if.c (gen1).
 */
#include "main.h"
#include "isim_if.h"
#include "../irdma/sim/isim_aux.h"

static struct isim_aux_dev *isim_up_parent(struct irdma_pci_f *rf)
{
	return rf->cdev;
}

static void isim_up_request_reset(struct irdma_pci_f *rf)
{
	struct isim_aux_dev *iadev = isim_up_parent(rf);

	ibdev_warn(&rf->iwdev->ibdev, "asking the simulated parent for a reset\n");
	iadev->ops->request_reset(iadev);
}

/* the queue-set registration ice_add_rdma_qset() does on an E810 */
static int isim_up_register_qset(struct irdma_sc_vsi *vsi,
				 struct irdma_ws_node *tc_node)
{
	struct irdma_device *iwdev = vsi->back_vsi;
	struct isim_aux_dev *iadev = isim_up_parent(iwdev->rf);
	u32 teid;
	int ret;

	ret = iadev->ops->qset_add(iadev, tc_node->qs_handle,
				   tc_node->traffic_class, &teid);
	if (ret) {
		ibdev_dbg(&iwdev->ibdev, "WS: qset_add %u failed: %d\n",
			  tc_node->qs_handle, ret);
		return ret;
	}
	tc_node->l2_sched_node_id = teid;
	vsi->qos[tc_node->user_pri].l2_sched_node_id = teid;
	return 0;
}

static void isim_up_unregister_qset(struct irdma_sc_vsi *vsi,
				    struct irdma_ws_node *tc_node)
{
	struct irdma_device *iwdev = vsi->back_vsi;
	struct isim_aux_dev *iadev = isim_up_parent(iwdev->rf);

	if (iadev->ops->qset_del(iadev, tc_node->qs_handle,
				 tc_node->traffic_class,
				 tc_node->l2_sched_node_id))
		ibdev_dbg(&iwdev->ibdev, "WS: qset_del %u failed\n",
			  tc_node->qs_handle);
}

/* the traffic classes in ice's form, for irdma_fill_qos_info() */
static void isim_up_qos(struct isim_aux_dev *iadev,
			struct irdma_l2params *l2params)
{
	struct iidc_qos_params qos = {};
	struct isim_aux_qos q = {};
	int i;

	if (iadev->ops->qos_get(iadev, &q) || !q.num_tc)
		q.num_tc = 1;
	qos.num_tc = q.num_tc;
	for (i = 0; i < IIDC_MAX_USER_PRIORITY; i++)
		qos.up2tc[i] = q.up2tc[i];
	for (i = 0; i < ISIM_AUX_MAX_TC; i++)
		qos.tc_info[i].rel_bw = q.rel_bw[i];
	irdma_fill_qos_info(l2params, &qos);
}

static struct msix_entry *isim_up_vectors(struct auxiliary_device *adev,
					  struct isim_aux_dev *iadev)
{
	struct msix_entry *msix;
	u32 i;

	msix = devm_kcalloc(&adev->dev, iadev->num_vectors, sizeof(*msix),
			    GFP_KERNEL);
	if (!msix)
		return NULL;
	for (i = 0; i < iadev->num_vectors; i++) {
		msix[i].entry = iadev->first_vector + i;
		msix[i].vector = iadev->irqs[i];
	}
	return msix;
}

/* what main.c takes from struct ice_pf, or i40iw_if.c from i40e_info */
static void isim_up_describe(struct irdma_device *iwdev,
			     struct isim_aux_dev *iadev,
			     struct msix_entry *msix)
{
	struct irdma_pci_f *rf = iwdev->rf;

	rf->iwdev = iwdev;
	rf->cdev = iadev;
	rf->pcidev = iadev->pdev;
	rf->hw.hw_addr = iadev->hw_addr;
	rf->pf_id = iadev->fn_id;
	rf->msix_count = iadev->num_vectors;
	rf->msix_entries = msix;
	rf->gen_ops.request_reset = isim_up_request_reset;
	rf->protocol_used = iadev->protocol == ISIM_AUX_ROCEV2 ?
			    IRDMA_ROCE_PROTOCOL_ONLY :
			    IRDMA_IWARP_PROTOCOL_ONLY;
	iwdev->netdev = iadev->netdev;
	iwdev->init_state = INITIAL_STATE;
	iwdev->rcv_wnd = IRDMA_CM_DEFAULT_RCV_WND_SCALED;
	iwdev->rcv_wscale = IRDMA_CM_DEFAULT_RCV_WND_SCALE;
	if (iadev->gen == 1) {
		/* as i40e's client interface: no queue sets, VSI 0 */
		rf->rdma_ver = IRDMA_GEN_1;
		rf->limits_sel = 5;
		iwdev->vsi_num = 0;
		return;
	}
	rf->rdma_ver = IRDMA_GEN_2;
	rf->limits_sel = 7;
	rf->rsrc_profile = IRDMA_HMC_PROFILE_DEFAULT;
	rf->rst_to = IRDMA_RST_TIMEOUT_HZ;
	rf->default_vsi.vsi_idx = iadev->vsi_id;
	rf->gen_ops.register_qset = isim_up_register_qset;
	rf->gen_ops.unregister_qset = isim_up_unregister_qset;
	mutex_init(&iwdev->ah_tbl_lock);
	iwdev->vsi_num = iadev->vsi_id;
	iwdev->roce_cwnd = IRDMA_ROCE_CWND_DEFAULT;
	iwdev->roce_ackcreds = IRDMA_ROCE_ACKCREDS_DEFAULT;
	iwdev->roce_mode = rf->protocol_used == IRDMA_ROCE_PROTOCOL_ONLY;
}

static void isim_up_l2params(struct irdma_device *iwdev,
			     struct isim_aux_dev *iadev,
			     struct irdma_l2params *l2params)
{
	l2params->mtu = iwdev->netdev->mtu;
	if (iadev->gen == 1)
		return;	/* one queue set for all priorities, 0 */
	isim_up_qos(iadev, l2params);
	if (iwdev->roce_mode)
		iwdev->dcb_vlan_mode = l2params->num_tc > 1 &&
				       !l2params->dscp_mode;
}

static int isim_up_probe(struct auxiliary_device *adev,
			 const struct auxiliary_device_id *id)
{
	struct isim_aux_dev *iadev = to_isim_aux_dev(adev);
	struct irdma_l2params l2params = {};
	struct irdma_device *iwdev;
	struct msix_entry *msix;
	int err;

	if (!iadev->pdev) {
		dev_err(&adev->dev, "no PCI function holds the registers\n");
		return -ENODEV;
	}
	msix = isim_up_vectors(adev, iadev);
	if (!msix)
		return -ENOMEM;
	iwdev = ib_alloc_device(irdma_device, ibdev);
	if (!iwdev)
		return -ENOMEM;
	iwdev->rf = kzalloc(sizeof(*iwdev->rf), GFP_KERNEL);
	if (!iwdev->rf) {
		err = -ENOMEM;
		goto err_dealloc;
	}
	isim_up_describe(iwdev, iadev, msix);
	err = irdma_ctrl_init_hw(iwdev->rf);
	if (err)
		goto err_free_rf;
	isim_up_l2params(iwdev, iadev, &l2params);
	err = irdma_rt_init_hw(iwdev, &l2params);
	if (err)
		goto err_ctrl_deinit;
	err = irdma_ib_register_device(iwdev);
	if (err)
		goto err_rt_deinit;
	if (iadev->gen != 1)
		iadev->ops->vsi_filter(iadev, iwdev->vsi_num, true);
	auxiliary_set_drvdata(adev, iwdev);
	return 0;

err_rt_deinit:
	irdma_rt_deinit_hw(iwdev);
err_ctrl_deinit:
	irdma_ctrl_deinit_hw(iwdev->rf);
err_free_rf:
	kfree(iwdev->rf);
err_dealloc:
	ib_dealloc_device(&iwdev->ibdev);
	return err;
}

static void isim_up_remove(struct auxiliary_device *adev)
{
	struct isim_aux_dev *iadev = to_isim_aux_dev(adev);
	struct irdma_device *iwdev = auxiliary_get_drvdata(adev);
	u16 vsi_num = iwdev->vsi_num;

	/* the core's dealloc_driver (irdma_ib_dealloc_device) frees iwdev */
	irdma_ib_unregister_device(iwdev);
	if (iadev->gen != 1)
		iadev->ops->vsi_filter(iadev, vsi_num, false);
}

#define ISIM_UP_Q1_RESOURCE_ERR	0x0001024d

static void isim_up_crit_err(struct irdma_device *iwdev, u32 oicr)
{
	struct irdma_pci_f *rf = iwdev->rf;
	u32 criterr;

	ibdev_warn(&iwdev->ibdev, "critical error from the parent: oicr 0x%08x\n",
		   oicr);
	if (oicr & IRDMAPFINT_OICR_PE_CRITERR_M) {
		criterr = readl(rf->sc_dev.hw_regs[IRDMA_GLPE_CRITERR]);
		ibdev_err(&iwdev->ibdev, "GLPE_CRITERR 0x%08x\n", criterr);
		/* main.c lets the Q1 resource check pass without a reset */
		if (criterr != ISIM_UP_Q1_RESOURCE_ERR)
			rf->reset = true;
	}
	if (oicr & (IRDMAPFINT_OICR_HMC_ERR_M | IRDMAPFINT_OICR_PE_PUSH_M))
		rf->reset = true;
	if (rf->reset)
		rf->gen_ops.request_reset(rf);
}

/*
 * The parent's events, as irdma_iidc_event_handler() takes ice's and
 * i40iw_l2param_change() i40e's MTU changes; a gen1 function gets only
 * the MTU, as from i40e.
 */
static void isim_up_event(struct isim_aux_dev *iadev, enum isim_aux_event ev,
			  u32 info)
{
	struct irdma_device *iwdev = auxiliary_get_drvdata(&iadev->adev);
	struct irdma_l2params l2params = {};

	if (!iwdev)
		return;
	switch (ev) {
	case ISIM_AUX_EV_MTU:
		if (iwdev->vsi.mtu == iwdev->netdev->mtu)
			return;
		l2params.mtu = iwdev->netdev->mtu;
		l2params.mtu_changed = true;
		irdma_change_l2params(&iwdev->vsi, &l2params);
		return;
	case ISIM_AUX_EV_TC_PREPARE:
		if (iadev->gen == 1 || iwdev->vsi.tc_change_pending)
			return;
		irdma_prep_tc_change(iwdev);
		return;
	case ISIM_AUX_EV_TC_DONE:
		if (iadev->gen == 1 || !iwdev->vsi.tc_change_pending)
			return;
		l2params.tc_changed = true;
		isim_up_qos(iadev, &l2params);
		if (iwdev->roce_mode)
			iwdev->dcb_vlan_mode = l2params.num_tc > 1 &&
					       !l2params.dscp_mode;
		irdma_change_l2params(&iwdev->vsi, &l2params);
		return;
	case ISIM_AUX_EV_CRIT_ERR:
		if (iadev->gen != 1)
			isim_up_crit_err(iwdev, info);
		return;
	}
}

/**
 * irdma_isim_ibdev_get - this driver's RDMA device on a netdev
 * @netdev: the netdev
 *
 * The project's own irdma registers as RDMA_DRIVER_IRDMA too (libirdma
 * matches on it), so ib_device_get_by_netdev() may return its device,
 * whose private part is not a struct irdma_device.
 *
 * Return: a referenced device of this module, or NULL.
 */
struct ib_device *irdma_isim_ibdev_get(struct net_device *netdev)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(netdev, RDMA_DRIVER_IRDMA);
	if (ibdev && ibdev->ops.owner != THIS_MODULE) {
		ib_device_put(ibdev);
		return NULL;
	}
	return ibdev;
}

static const struct auxiliary_device_id isim_up_id_table[] = {
	{ .name = ISIM_AUX_UP_MATCH_NAME, },
	{}
};

static struct isim_aux_drv isim_up_drv = {
	.adrv = {
		.name = "sim",
		.id_table = isim_up_id_table,
		.probe = isim_up_probe,
		.remove = isim_up_remove,
	},
	.event = isim_up_event,
};

int irdma_isim_register(void)
{
	return auxiliary_driver_register(&isim_up_drv.adrv);
}

void irdma_isim_unregister(void)
{
	auxiliary_driver_unregister(&isim_up_drv.adrv);
}
