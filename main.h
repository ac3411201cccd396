/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: the description of one RDMA function, as a parent driver hands it
 * over, and the device object that the rest of the driver hangs off.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/net/intel/iidc.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <rdma/ib_verbs.h>

#include "arp.h"
#include "cm.h"

/**
 * enum irdma_hw_gen - generation of the RDMA engine behind a function
 * @IRDMA_GEN_1: X722, bound through i40e; iWARP only
 * @IRDMA_GEN_2: E810, bound through ice (or the simulator); iWARP or RoCEv2
 */
enum irdma_hw_gen {
	IRDMA_GEN_1 = 1,
	IRDMA_GEN_2 = 2,
};

/**
 * enum irdma_protocol - the one RDMA protocol a function runs
 * @IRDMA_PROTOCOL_IWARP: iWARP (RFC 5040/5041/5044)
 * @IRDMA_PROTOCOL_ROCEV2: RoCEv2
 */
enum irdma_protocol {
	IRDMA_PROTOCOL_IWARP,
	IRDMA_PROTOCOL_ROCEV2,
};

struct irdma_func;
struct irdma_hw;
struct irdma_mmio_ops;
struct irdma_qos_params;
struct isim_aux_drv;

/**
 * struct irdma_func_ops - what the driver may ask of the parent driver
 * @qset_add: attach a work-scheduler node (@qs_handle, traffic class @tc) to
 *	the parent's transmit scheduler; the parent returns its handle in @teid
 * @qset_del: detach a node added by @qset_add
 * @request_reset: ask the parent to reset the function (the engine hung)
 * @vsi_filter: let RDMA traffic of VSI @vsi_id through (@enable) or not
 * @qos_get: the port's traffic classes now (struct irdma_qos_params)
 *
 * Every op may sleep. A binding that cannot do one leaves it NULL, and the
 * caller treats that as -EOPNOTSUPP.
 */
struct irdma_func_ops {
	int (*qset_add)(struct irdma_func *fn, u16 qs_handle, u8 tc, u32 *teid);
	int (*qset_del)(struct irdma_func *fn, u16 qs_handle, u8 tc, u32 teid);
	int (*request_reset)(struct irdma_func *fn);
	int (*vsi_filter)(struct irdma_func *fn, u16 vsi_id, bool enable);
	int (*qos_get)(struct irdma_func *fn, struct irdma_qos_params *qos);
};

/**
 * struct irdma_func - one RDMA function, independent of its parent driver
 * @adev: the auxiliary device the binding was probed with
 * @dma_dev: device used for DMA mappings and interrupts (the PCI function)
 * @hw_addr: start of the function's register space (BAR0 mapping)
 * @hw_phys: bus address of BAR0, from which user doorbell pages are mapped
 *	uncached; unused when @regs_in_ram
 * @regs_in_ram: @hw_addr is vmalloc'd kernel memory (the simulator's
 *	register space), so a doorbell page reaches user space as the RAM
 *	page behind it, mapped cached, rather than as I/O memory
 * @mmio_ops: the register accessors, or NULL for readl()/writel() at
 *	@hw_addr (an E810 or X722); a binding whose registers are not PCIe
 *	(the simulator's) gives its own
 * @mmio_priv: their private data (struct irdma_mmio.priv)
 * @msix: the parent's MSI-X entries reserved for RDMA
 * @msix_count: number of entries in @msix
 * @netdev: the Ethernet interface this function shares its port with
 * @fn_id: PCI function (PF) number as the engine knows it
 * @vsi_id: the parent's main VSI number
 * @gen: engine generation
 * @protocol: RDMA protocol the parent enabled for this function
 * @ops: calls back into the parent
 * @parent: the parent's own handle (struct ice_pf, struct i40e_info, ...);
 *	only the binding that set it may look inside
 * @hw: the running engine, set by irdma_func_probe() once it is up and
 *	cleared by irdma_func_remove()
 * @iwdev: the registered RDMA device, or NULL
 *
 * A binding fills this from its parent's data in probe and passes it to
 * irdma_func_probe(). Nothing below the bindings knows which parent it has.
 * The structure lives as long as the binding's driver data.
 */
struct irdma_func {
	struct auxiliary_device *adev;
	struct device *dma_dev;
	u8 __iomem *hw_addr;
	phys_addr_t hw_phys;
	bool regs_in_ram;
	const struct irdma_mmio_ops *mmio_ops;
	void *mmio_priv;
	struct msix_entry *msix;
	u32 msix_count;
	struct net_device *netdev;
	u16 fn_id;
	u16 vsi_id;
	enum irdma_hw_gen gen;
	enum irdma_protocol protocol;
	const struct irdma_func_ops *ops;
	void *parent;
	struct irdma_hw *hw;
	struct irdma_device *iwdev;
};

/**
 * struct irdma_device - the RDMA device registered for one function
 * @ibdev: the RDMA core's device; must stay first for ib_alloc_device()
 * @fn: the function this device drives
 * @cm_core: the iWARP connection manager of this device (iWARP only)
 * @arp: the engine's ARP cache (arp.c)
 * @pd_ida: PD numbers in use
 * @stag_ida: STag indexes in use by MRs and MWs (mr.c)
 * @ah_ida: AH indexes in use by the verbs' AHs (RoCEv2)
 * @mcg_lock: serialises attaching and detaching; protects @mcgs
 * @mcgs: the multicast groups the engine knows (struct irdma_mcg)
 * @mcg_ida: multicast group indexes in use
 * @port_active: the port state last reported to the RDMA core; RTNL
 */
struct irdma_device {
	struct ib_device ibdev;
	struct irdma_func *fn;
	struct irdma_cm_core cm_core;
	struct irdma_arp_table arp;
	struct ida pd_ida;
	struct ida stag_ida;
	struct ida ah_ida;
	struct mutex mcg_lock; /* mcgs */
	struct list_head mcgs;
	struct ida mcg_ida;
	bool port_active;
};

static inline struct irdma_device *to_iwdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct irdma_device, ibdev);
}

/**
 * enum irdma_func_event - what a parent driver reports about a function
 * @IRDMA_FUNC_EV_MTU: the netdev's MTU changed (the info is the new MTU)
 * @IRDMA_FUNC_EV_TC_PREPARE: the traffic classes are about to change
 * @IRDMA_FUNC_EV_TC_DONE: the traffic-class change is over
 * @IRDMA_FUNC_EV_CRIT_ERR: the engine stopped on a critical error (the
 *	info is the cause, laid out as the gen2 PFINT_OICR register)
 */
enum irdma_func_event {
	IRDMA_FUNC_EV_MTU,
	IRDMA_FUNC_EV_TC_PREPARE,
	IRDMA_FUNC_EV_TC_DONE,
	IRDMA_FUNC_EV_CRIT_ERR,
};

int irdma_func_validate(const struct irdma_func *fn);
int irdma_func_probe(struct irdma_func *fn);
struct ib_device *irdma_ibdev_get_by_netdev(struct net_device *netdev);
void irdma_func_remove(struct irdma_func *fn);
void irdma_func_remove_after_reset(struct irdma_func *fn);
void irdma_func_event(struct irdma_func *fn, enum irdma_func_event ev,
		      u32 info);
void irdma_func_fatal(struct irdma_func *fn, const char *why);
int irdma_ib_register(struct irdma_func *fn);
void irdma_port_update(struct irdma_device *iwdev);
void irdma_ib_unregister(struct irdma_func *fn);

struct rdma_cm_id;
struct sk_buff;
int irdma_fill_res_cm_id_entry(struct sk_buff *msg, struct rdma_cm_id *id);
int irdma_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq);
int irdma_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr);
int irdma_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);

int irdma_cm_hw_setup(struct irdma_device *iwdev);
void irdma_cm_hw_cleanup(struct irdma_device *iwdev);
int irdma_addr_notifiers_register(void);
void irdma_addr_notifiers_unregister(void);

enum irdma_protocol irdma_ice_protocol(const struct auxiliary_device_id *id);

extern struct iidc_auxiliary_drv irdma_ice_drv;
extern struct auxiliary_driver irdma_i40e_drv;
extern struct isim_aux_drv irdma_sim_drv;

#endif /* IRDMA_MAIN_H */
