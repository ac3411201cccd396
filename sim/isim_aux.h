/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Interface between irdma_sim.ko and the driver binding that claims its
 * functions (sim_if.c), in the role include/linux/net/intel/iidc.h plays
 * between ice and irdma. Nothing else is shared: the driver reaches the
 * simulated engine only through the register space and the DMA memory it
 * hands over, exactly as it reaches an E810.
 */
#ifndef _ISIM_AUX_H_
#define _ISIM_AUX_H_

#include <linux/auxiliary_bus.h>
#include <linux/types.h>

struct net_device;
struct pci_dev;

/*
 * The auxiliary device is "irdma_sim.func.<ID>" for this project's irdma,
 * or "irdma_sim.upstream.<ID>" for Linux 6.1's own irdma as the harness
 * builds it (tools/upstream/): the simulator decides, per function, which
 * of the two drivers claims it, as ice plugs "ice.roce" or "ice.iwarp".
 */
#define ISIM_AUX_DEV_NAME	"func"
#define ISIM_AUX_MATCH_NAME	"irdma_sim." ISIM_AUX_DEV_NAME
#define ISIM_AUX_UP_DEV_NAME	"upstream"
#define ISIM_AUX_UP_MATCH_NAME	"irdma_sim." ISIM_AUX_UP_DEV_NAME

/**
 * enum isim_aux_protocol - RDMA protocol a function was created with
 * @ISIM_AUX_IWARP: iWARP (the default)
 * @ISIM_AUX_ROCEV2: RoCEv2
 */
enum isim_aux_protocol {
	ISIM_AUX_IWARP,
	ISIM_AUX_ROCEV2,
};

struct isim_aux_dev;

#define ISIM_AUX_MAX_UP		8
#define ISIM_AUX_MAX_TC		8

/**
 * struct isim_aux_qos - the function's traffic classes, as ice reports
 *	them through ice_get_qos_params()
 * @num_tc: traffic classes in use, 1 to ISIM_AUX_MAX_TC; they are 0 to
 *	@num_tc - 1
 * @up2tc: the traffic class of each 802.1p user priority
 * @rel_bw: relative bandwidth of each traffic class, in percent
 */
struct isim_aux_qos {
	u8 num_tc;
	u8 up2tc[ISIM_AUX_MAX_UP];
	u8 rel_bw[ISIM_AUX_MAX_TC];
};

/**
 * enum isim_aux_event - what the simulated parent reports to the driver
 * @ISIM_AUX_EV_MTU: the netdev's MTU changed; the event's info is the MTU
 * @ISIM_AUX_EV_TC_PREPARE: the traffic classes are about to change
 * @ISIM_AUX_EV_TC_DONE: the traffic-class change is over
 * @ISIM_AUX_EV_CRIT_ERR: the engine stopped on a critical error and does
 *	nothing more until the function is reset; the info is the cause, laid
 *	out as the gen2 PFINT_OICR register (bit 28: PE critical error)
 *
 * These are the events ice sends through iidc_auxiliary_drv.event_handler.
 */
enum isim_aux_event {
	ISIM_AUX_EV_MTU,
	ISIM_AUX_EV_TC_PREPARE,
	ISIM_AUX_EV_TC_DONE,
	ISIM_AUX_EV_CRIT_ERR,
};

/**
 * struct isim_aux_ops - services of the simulated parent function
 * @qset_add: register the scheduler leaf @qs_handle (a WORK_SCHED_NODE
 *	leaf of traffic class @tc, a class in use) with the parent; returns
 *	the parent's handle for it in @teid. -EINVAL for any other node or
 *	class, -EEXIST if registered already, -EOPNOTSUPP on a gen1
 *	function (i40e has no qsets; every QP is served)
 * @qset_del: end a registration @qset_add made (-ENOENT: there is none
 *	with that @teid); the leaf may have been deleted already
 * @request_reset: ask the parent for a function reset. As ice does, the
 *	simulator then unplugs the auxiliary device (the driver's remove
 *	runs), resets the engine and its registers, and plugs it again
 * @vsi_filter: let RDMA traffic of VSI @vsi_id reach the engine, or not
 * @qos_get: the traffic classes now in force; between the TC_PREPARE and
 *	TC_DONE events of a change they may be either the old or the new ones
 * @kick: the driver wrote @val to the register at byte offset @off: the
 *	engine looks at its registers now rather than at its next poll, as
 *	hardware would react to the write. The register's contents are the
 *	driver's write alone; the kick only says when to look
 * @set_kicked: @on: from now on the driver follows every register write
 *	it makes with @kick, so the engine need not poll the registers for
 *	them (it still watches the user doorbell page, which user space
 *	rings without the driver); the driver turns it off before it unbinds
 *
 * All but @kick and @set_kicked may sleep and return 0 or a negative
 * errno; those two may be called from any context. They are valid while
 * the auxiliary driver is bound.
 */
struct isim_aux_ops {
	int (*qset_add)(struct isim_aux_dev *iadev, u16 qs_handle, u8 tc,
			u32 *teid);
	int (*qset_del)(struct isim_aux_dev *iadev, u16 qs_handle, u8 tc,
			u32 teid);
	int (*request_reset)(struct isim_aux_dev *iadev);
	int (*vsi_filter)(struct isim_aux_dev *iadev, u16 vsi_id, bool enable);
	int (*qos_get)(struct isim_aux_dev *iadev, struct isim_aux_qos *qos);
	void (*kick)(struct isim_aux_dev *iadev, u32 off, u32 val);
	void (*set_kicked)(struct isim_aux_dev *iadev, bool on);
};

/**
 * struct isim_aux_dev - one simulated RDMA function
 * @adev: the auxiliary device the driver binds to
 * @hw_addr: start of the register space (the PF register map of @gen)
 * @hw_len: length of the register space in bytes
 * @pdev: the PCI function whose BAR0 is the register space (@hw_addr maps
 *	it, uncached), or NULL when the register space is the simulator's
 *	own RAM (no register window was free, see Documentation/sim.rst)
 * @dma_dev: device to allocate and map DMA memory against: @pdev's when
 *	there is one
 * @netdev: the function's Ethernet netdev
 * @fn_id: function number as the engine knows it (the HMC function id);
 *	equal to the simulator's device ID
 * @vsi_id: the function's main VSI number
 * @protocol: protocol the function was created with
 * @gen: the generation the function models: 1 (X722, a function of i40e)
 *	or 2 (E810, a function of ice). It picks the register map, the CQP
 *	host context version and the descriptor layouts the engine expects
 * @first_vector: the engine's MSI-X vector number of @irqs[0]; @irqs[i]
 *	is engine vector @first_vector + i. That number, not i, is what the
 *	driver writes into the MSIX_IDX field of CEQCTL and AEQCTL, and it
 *	picks the interrupt's DYN_CTL register: GLINT_DYN_CTL(v) on gen2,
 *	PFINT_DYN_CTLN(v - 1) on gen1. Never 0: as ice and i40e do, the
 *	parent keeps the low vectors for its own interrupts
 * @num_vectors: number of interrupt vectors in @irqs
 * @irqs: Linux IRQ number of each vector, for request_irq()
 * @ops: parent services
 *
 * Lifetime: allocated by the simulator, valid from the driver's probe until
 * its remove returns. Every field is constant over that time.
 */
struct isim_aux_dev {
	struct auxiliary_device adev;
	u8 __iomem *hw_addr;
	resource_size_t hw_len;
	struct pci_dev *pdev;
	struct device *dma_dev;
	struct net_device *netdev;
	u32 fn_id;
	u16 vsi_id;
	enum isim_aux_protocol protocol;
	u8 gen;
	u32 first_vector;
	u32 num_vectors;
	const int *irqs;
	const struct isim_aux_ops *ops;
};

/**
 * struct isim_aux_drv - a driver of simulated functions
 * @adrv: the auxiliary driver; register this one
 * @event: takes the parent's events (enum isim_aux_event) for a bound
 *	device, with its device lock held, in process context; may sleep and
 *	may call the device's ops. NULL if the driver wants none
 */
struct isim_aux_drv {
	struct auxiliary_driver adrv;
	void (*event)(struct isim_aux_dev *iadev, enum isim_aux_event ev,
		      u32 info);
};

/**
 * to_isim_aux_dev - get the simulated function from its auxiliary device
 * @adev: auxiliary device passed to the driver's probe
 *
 * Return: the enclosing isim_aux_dev.
 */
static inline struct isim_aux_dev *
to_isim_aux_dev(struct auxiliary_device *adev)
{
	return container_of(adev, struct isim_aux_dev, adev);
}

#endif /* _ISIM_AUX_H_ */
