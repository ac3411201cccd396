// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: module entry points and the parent-independent probe of an RDMA
 * function.
 *
 * Each parent driver (ice for E810, i40e for X722) creates an auxiliary
 * device for the RDMA function it owns. A small binding per parent
 * (icrdma_if.c, i40iw_if.c) turns that device into a struct irdma_func and
 * hands it to irdma_func_probe(); nothing below that point knows the parent.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

#include "main.h"
#include "hw.h"
#include "hw_defs.h"
#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_SIM)
#include "sim/isim_aux.h"
#endif

MODULE_ALIAS("i40iw");
MODULE_DESCRIPTION("RDMA provider for Intel Ethernet 800 Series and X722");
MODULE_LICENSE("Dual BSD/GPL");

/**
 * irdma_ibdev_get_by_netdev - our registered RDMA device on a netdev
 * @netdev: the netdev
 *
 * Linux 6.1's own irdma registers as RDMA_DRIVER_IRDMA too (libirdma
 * matches on the driver id), and the harness runs it beside this driver
 * on other functions; its device is not a struct irdma_device. Every
 * lookup by netdev goes through here and skips devices of other modules.
 *
 * Return: the device with a reference (ib_device_put() it), or NULL.
 */
struct ib_device *irdma_ibdev_get_by_netdev(struct net_device *netdev)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(netdev, RDMA_DRIVER_IRDMA);
	if (ibdev && ibdev->ops.owner != THIS_MODULE) {
		ib_device_put(ibdev);
		return NULL;
	}
	return ibdev;
}

/**
 * irdma_func_validate - check a function description from a binding
 * @fn: the description
 *
 * A binding copies its parent's view of the function; reject one that the
 * rest of the driver could not use rather than fail obscurely later.
 *
 * Return: 0 if @fn is usable, -EINVAL otherwise.
 */
int irdma_func_validate(const struct irdma_func *fn)
{
	u32 i;

	if (!fn->adev || !fn->dma_dev || !fn->hw_addr || !fn->netdev ||
	    !fn->ops)
		return -EINVAL;
	/* One vector for the control queues and AEQ, at least one for a CEQ. */
	if (!fn->msix || fn->msix_count < 2)
		return -EINVAL;
	switch (fn->gen) {
	case IRDMA_GEN_1:
		/* vector 0 is i40e's own; the PE has no DYN_CTLN for it */
		for (i = 0; i < fn->msix_count; i++)
			if (!fn->msix[i].entry)
				return -EINVAL;
		return fn->protocol == IRDMA_PROTOCOL_IWARP ? 0 : -EINVAL;
	case IRDMA_GEN_2:
		return fn->protocol == IRDMA_PROTOCOL_IWARP ||
		       fn->protocol == IRDMA_PROTOCOL_ROCEV2 ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/**
 * irdma_func_probe - bring up the RDMA engine of a function
 * @fn: the function, as its binding described it
 *
 * Context: process context, from the binding's probe; may sleep.
 * Return: 0 once the function is driven, a negative errno otherwise; on
 * failure nothing is left behind.
 */
int irdma_func_probe(struct irdma_func *fn)
{
	struct device *dev = &fn->adev->dev;
	int ret;

	ret = irdma_func_validate(fn);
	if (ret) {
		dev_err(dev, "unusable RDMA function description from the parent driver\n");
		return ret;
	}
	ret = irdma_hw_init(fn);
	if (ret) {
		dev_err(dev, "RDMA engine bring-up (gen%d, %s) failed: %d\n",
			fn->gen, fn->protocol == IRDMA_PROTOCOL_IWARP ?
			"iWARP" : "RoCEv2", ret);
		return ret;
	}
	ret = irdma_ib_register(fn);
	if (ret) {
		dev_err(dev, "cannot register the RDMA device: %d\n", ret);
		goto err_deinit_hw;
	}
	return 0;

err_deinit_hw:
	irdma_hw_deinit(fn);
	return ret;
}

/**
 * irdma_func_remove - stop driving a function, undoing irdma_func_probe()
 * @fn: a function irdma_func_probe() succeeded on
 *
 * Context: process context, from the binding's remove; may sleep.
 */
void irdma_func_remove(struct irdma_func *fn)
{
	irdma_ib_unregister(fn);
	irdma_hw_deinit(fn);
}

/**
 * irdma_func_remove_after_reset - stop driving a function the parent reset
 * @fn: a function irdma_func_probe() succeeded on
 *
 * The reset wiped the engine: tear-down issues no command and waits for no
 * acknowledgment, as after a critical error.
 *
 * Context: process context; may sleep.
 */
void irdma_func_remove_after_reset(struct irdma_func *fn)
{
	if (fn->hw)
		irdma_hw_halt(fn->hw);
	irdma_func_remove(fn);
}

/**
 * irdma_func_fatal - the engine stopped: tell the consumers, reset it
 * @fn: a function whose engine is up (@fn->hw is set)
 * @why: who reported it and how, for the log
 *
 * The first report halts the driver's use of the engine, reports
 * IB_EVENT_DEVICE_FATAL on the registered device and asks the parent for
 * a function reset, after which the parent removes and probes the
 * function again. Later reports only add nothing.
 *
 * Context: process context that keeps @fn->hw alive: the AEQ's interrupt
 * thread, a parent's event with the binding's device lock held, or a CQP
 * command that timed out (its caller holds no lock of the command path).
 */
void irdma_func_fatal(struct irdma_func *fn, const char *why)
{
	struct device *dev = &fn->adev->dev;
	struct ib_event ev = {
		.event = IB_EVENT_DEVICE_FATAL,
		.element.port_num = 1,
	};
	int ret;

	if (!irdma_hw_halt(fn->hw))
		return;
	dev_err(dev, "RDMA engine stopped (%s): resetting the function\n", why);
	/* a reference keeps the device from going away under the event */
	ev.device = irdma_ibdev_get_by_netdev(fn->netdev);
	if (ev.device) {
		ib_dispatch_event(&ev);
		ib_device_put(ev.device);
	}
	ret = fn->ops->request_reset ? fn->ops->request_reset(fn) : -EOPNOTSUPP;
	if (ret)
		dev_err(dev, "the parent driver did not reset the function (%d): unbind and bind it to recover\n",
			ret);
}

/* A critical error the parent read from its PFINT_OICR register. */
static void irdma_func_crit_err(struct irdma_func *fn, u32 cause)
{
	char why[96];

	if (!fn->hw)
		return;
	snprintf(why, sizeof(why), "the parent reported a critical error, cause 0x%08x:%s%s%s",
		 cause, cause & IRDMA_OICR_PE_CRITERR ? " engine" : "",
		 cause & IRDMA_OICR_HMC_ERR ? " HMC" : "",
		 cause & IRDMA_OICR_PE_PUSH ? " push" : "");
	irdma_func_fatal(fn, why);
}

/**
 * irdma_func_event - take an event the parent driver reports
 * @fn: a function irdma_func_probe() succeeded on
 * @ev: the event
 * @info: its argument (see enum irdma_func_event)
 *
 * The port reports the netdev's MTU whenever it is queried, so an MTU
 * change needs no work here. A traffic-class change suspends the QPs that
 * may be sending when it is announced and resumes them on the new
 * classes' queue sets when it is over (qos.c). A critical error
 * halts the driver's use of the engine, reports IB_EVENT_DEVICE_FATAL and
 * asks the parent for a function reset, after which the parent removes
 * and probes the function again.
 *
 * Context: process context, with the binding's device lock held (no probe
 * or remove runs meanwhile); may sleep.
 */
void irdma_func_event(struct irdma_func *fn, enum irdma_func_event ev,
		      u32 info)
{
	struct device *dev = &fn->adev->dev;

	switch (ev) {
	case IRDMA_FUNC_EV_MTU:
		dev_dbg(dev, "MTU of %s is now %u\n", netdev_name(fn->netdev),
			info);
		break;
	case IRDMA_FUNC_EV_TC_PREPARE:
		if (!fn->hw)
			break;
		dev_dbg(dev, "traffic-class change announced: suspending QPs\n");
		irdma_qos_tc_prepare(fn->hw);
		break;
	case IRDMA_FUNC_EV_TC_DONE:
		if (!fn->hw)
			break;
		irdma_qos_tc_done(fn->hw);
		dev_dbg(dev, "traffic-class change done: %u classes\n",
			fn->hw->qos.params.num_tc);
		if (fn->iwdev && fn->protocol == IRDMA_PROTOCOL_IWARP)
			irdma_cm_retag_listeners(&fn->iwdev->cm_core);
		break;
	case IRDMA_FUNC_EV_CRIT_ERR:
		irdma_func_crit_err(fn, info);
		break;
	}
}

/**
 * irdma_port_update - report a change of the port's link to the RDMA core
 * @iwdev: a registered device
 *
 * The port is active while its netdev runs with a carrier; consumers learn
 * of each transition through IB_EVENT_PORT_ACTIVE or IB_EVENT_PORT_ERR.
 * Repeated netdev notifications without a transition are not reported.
 *
 * Context: process context with RTNL held, or before the device is
 * visible to the netdev notifier (registration).
 */
void irdma_port_update(struct irdma_device *iwdev)
{
	struct net_device *netdev = iwdev->fn->netdev;
	bool active = netif_running(netdev) && netif_carrier_ok(netdev);
	struct ib_event ev = {
		.device = &iwdev->ibdev,
		.element.port_num = 1,
	};

	if (active == iwdev->port_active)
		return;
	iwdev->port_active = active;
	ev.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);
}

/* The one GID of an iWARP port is its MAC address; say when it changed. */
static void irdma_gid_changed(struct irdma_device *iwdev)
{
	struct ib_event ev = {
		.device = &iwdev->ibdev,
		.element.port_num = 1,
		.event = IB_EVENT_GID_CHANGE,
	};

	if (rdma_protocol_iwarp(&iwdev->ibdev, 1))
		ib_dispatch_event(&ev);
}

/* Follow the netdevs our devices sit on: link state and address. */
static int irdma_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	if (event != NETDEV_UP && event != NETDEV_DOWN &&
	    event != NETDEV_CHANGE && event != NETDEV_CHANGEADDR)
		return NOTIFY_DONE;
	ibdev = irdma_ibdev_get_by_netdev(netdev);
	if (!ibdev)
		return NOTIFY_DONE;
	if (event == NETDEV_CHANGEADDR) {
		/* RTNL is held: dev_addr is stable */
		if (irdma_hw_loc_mac_set(to_iwdev(ibdev)->fn->hw,
					 netdev->dev_addr))
			ibdev_warn(ibdev, "gen1 source MAC not updated to %pM\n",
				   netdev->dev_addr);
		irdma_gid_changed(to_iwdev(ibdev));
	} else {
		irdma_port_update(to_iwdev(ibdev));
	}
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block irdma_netdev_nb = {
	.notifier_call = irdma_netdev_event,
};

/* Every parent binding; registered in this order, unregistered in reverse. */
static struct auxiliary_driver *const irdma_bindings[] = {
	&irdma_ice_drv.adrv,
	&irdma_i40e_drv,
#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_SIM)
	&irdma_sim_drv.adrv,
#endif
};

static void irdma_unregister_bindings(unsigned int count)
{
	while (count--)
		auxiliary_driver_unregister(irdma_bindings[count]);
}

static int __init irdma_init_module(void)
{
	unsigned int i;
	int ret;

	ret = register_netdevice_notifier(&irdma_netdev_nb);
	if (ret) {
		pr_err("cannot register the netdev notifier: %d\n", ret);
		return ret;
	}
	ret = irdma_addr_notifiers_register();
	if (ret) {
		pr_err("cannot register the address notifiers: %d\n", ret);
		goto err_unregister_netdev_nb;
	}
	for (i = 0; i < ARRAY_SIZE(irdma_bindings); i++) {
		ret = auxiliary_driver_register(irdma_bindings[i]);
		if (ret) {
			pr_err("cannot register auxiliary driver %s: %d\n",
			       irdma_bindings[i]->name, ret);
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	irdma_unregister_bindings(i);
	irdma_addr_notifiers_unregister();
err_unregister_netdev_nb:
	unregister_netdevice_notifier(&irdma_netdev_nb);
	return ret;
}

static void __exit irdma_exit_module(void)
{
	irdma_unregister_bindings(ARRAY_SIZE(irdma_bindings));
	irdma_addr_notifiers_unregister();
	unregister_netdevice_notifier(&irdma_netdev_nb);
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/main_test.c"
#endif
