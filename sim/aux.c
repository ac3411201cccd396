// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the auxiliary device the driver binds to, and the parent
 * services it offers (see isim_aux.h).
 *
 * A reset request behaves as on ice: the parent unplugs the auxiliary
 * device (the driver's remove runs), resets the function and plugs it
 * again (the driver probes a fresh function). Events go the other way, as
 * ice's event_handler calls do: MTU and traffic-class changes, and the
 * critical error after which the engine stays halted until that reset.
 */
#include <linux/pci.h>
#include <linux/slab.h>

#include "isim.h"

#define ISIM_TEID_BASE	0x1000

static struct isim_func *isim_aux_func(struct isim_aux_dev *iadev)
{
	return to_isim_func(iadev->adev.dev.parent);
}

/*
 * The parent registers a scheduler leaf the driver built (WORK_SCHED_NODE)
 * for one of its traffic classes; only a QP on a registered leaf is served
 * (isim_sched_tc()). The leaves are the engine's, so the check runs under
 * eng_lock; aux_lock may be held by our caller (the driver's event
 * handler) and is not taken.
 */
static int isim_aux_qset_add(struct isim_aux_dev *iadev, u16 qs_handle,
			     u8 tc, u32 *teid)
{
	struct isim_func *f = isim_aux_func(iadev);
	int err;

	isim_eng_lock(f, "qset_add");
	err = isim_sched_qset_add(f, qs_handle, tc);
	isim_eng_unlock(f);
	/* QPs on the leaf may send now */
	isim_engine_kick(f, ISIM_WAKE_CTL);
	if (!err)
		*teid = ISIM_TEID_BASE + qs_handle;
	return err;
}

static int isim_aux_qset_del(struct isim_aux_dev *iadev, u16 qs_handle,
			     u8 tc, u32 teid)
{
	struct isim_func *f = isim_aux_func(iadev);
	int err;

	if (teid != ISIM_TEID_BASE + qs_handle)
		return -ENOENT;
	isim_eng_lock(f, "qset_del");
	err = isim_sched_qset_del(f, qs_handle);
	isim_eng_unlock(f);
	return err;
}

static void isim_aux_halt(struct isim_func *f);

/*
 * The reset starts at once: the engine stops touching host memory before
 * this returns, as a function reset stops the adapter's DMA, so a driver
 * that gave up on the engine may free what it had handed it. Unplugging
 * and replugging follow in the reset work.
 */
static int isim_aux_request_reset(struct isim_aux_dev *iadev)
{
	struct isim_func *f = isim_aux_func(iadev);

	isim_aux_halt(f);
	queue_work(isim_wq, &f->reset_work);
	return 0;
}

static int isim_aux_vsi_filter(struct isim_aux_dev *iadev, u16 vsi_id,
			       bool enable)
{
	struct isim_func *f = isim_aux_func(iadev);

	if (vsi_id != iadev->vsi_id)
		return -EINVAL;
	WRITE_ONCE(f->vsi_filter, enable);
	return 0;
}

static int isim_aux_qos_get(struct isim_aux_dev *iadev,
			    struct isim_aux_qos *qos)
{
	struct isim_func *f = isim_aux_func(iadev);

	spin_lock(&f->qos_lock);
	*qos = f->qos;
	spin_unlock(&f->qos_lock);
	return 0;
}

static void isim_aux_kick(struct isim_aux_dev *iadev, u32 off, u32 val)
{
	isim_engine_kick_reg(isim_aux_func(iadev), off, val);
}

static void isim_aux_set_kicked(struct isim_aux_dev *iadev, bool on)
{
	isim_engine_set_kicked(isim_aux_func(iadev), on);
}

static void isim_aux_release(struct device *dev)
{
	kfree(to_isim_aux_dev(to_auxiliary_dev(dev)));
}

/*
 * The parent's services, as every plugged device offers them to its
 * driver: each is isim_aux_<op>() and stands for one of ice's (iidc)
 * calls, named beside it.
 */
#define ISIM_AUX_SERVICE(op) .op = isim_aux_##op

static const struct isim_aux_ops isim_aux_ops = {
	ISIM_AUX_SERVICE(qset_add),	/* ice_add_rdma_qset(): a Tx node */
	ISIM_AUX_SERVICE(qset_del),	/* ice_del_rdma_qset() */
	ISIM_AUX_SERVICE(request_reset), /* ice_rdma_request_reset(): PF reset */
	ISIM_AUX_SERVICE(vsi_filter),	/* ice_rdma_update_vsi_filter() */
	ISIM_AUX_SERVICE(qos_get),	/* ice_get_qos_params(): the TCs */
	/* none on ice: a PCIe write reaches the adapter by itself */
	ISIM_AUX_SERVICE(kick),
	ISIM_AUX_SERVICE(set_kicked),
};

/*
 * What the driver learns of the function: one ID names it everywhere
 * (HMC function, VSI); the register space is its register window's BAR0,
 * and the window's PCI function the device DMA is done against (the
 * netdev's parent too, as ice's is the E810's PCI function), or, with no
 * window, the simulator's RAM and the simulated device itself.
 */
static void isim_aux_describe(struct isim_aux_dev *iadev,
			      struct isim_func *f)
{
	iadev->hw_addr = (u8 __iomem __force *)f->regs;
	iadev->hw_len = f->rm->bar_len;
	iadev->pdev = isim_win_pdev(f);
	iadev->dma_dev = iadev->pdev ? &iadev->pdev->dev : &f->dev;

	iadev->fn_id = f->id;
	iadev->vsi_id = f->id;
	iadev->protocol = f->protocol;
	iadev->gen = f->gen;
	iadev->netdev = f->netdev;
	iadev->ops = &isim_aux_ops;

	iadev->first_vector = ISIM_FIRST_VECTOR;
	iadev->num_vectors = ISIM_NUM_VECTORS;
	iadev->irqs = f->irqs;
}

static int isim_aux_plug(struct isim_func *f)
{
	struct isim_aux_dev *iadev;
	int err;

	lockdep_assert_held(&f->aux_lock);
	iadev = kzalloc(sizeof(*iadev), GFP_KERNEL);
	if (!iadev)
		return -ENOMEM;
	iadev->adev.name = isim_claim_dev_name(f->claim);
	iadev->adev.id = f->id;
	iadev->adev.dev.parent = &f->dev;
	iadev->adev.dev.release = isim_aux_release;
	isim_aux_describe(iadev, f);
	err = auxiliary_device_init(&iadev->adev);
	if (err) {
		kfree(iadev);
		return err;
	}
	err = auxiliary_device_add(&iadev->adev);
	if (err) {
		auxiliary_device_uninit(&iadev->adev);
		return err;
	}
	f->iadev = iadev;
	return 0;
}

static void isim_aux_unplug(struct isim_func *f)
{
	lockdep_assert_held(&f->aux_lock);
	if (!f->iadev)
		return;
	auxiliary_device_delete(&f->iadev->adev);
	auxiliary_device_uninit(&f->iadev->adev);
	f->iadev = NULL;
	/* a driver that did not say so itself kicks no more */
	isim_engine_set_kicked(f, false);
}

/**
 * isim_aux_reset_work - function reset: unplug, reset the engine, replug
 * @work: the function's reset_work
 */
void isim_aux_reset_work(struct work_struct *work)
{
	struct isim_func *f = container_of(work, struct isim_func, reset_work);
	int err;

	mutex_lock(&f->aux_lock);
	if (!f->dying) {
		isim_aux_unplug(f);
		isim_engine_reset(f);
		f->vsi_filter = false;
		err = isim_aux_plug(f);
		if (err)
			dev_err(&f->dev, "replug after reset failed: %d\n", err);
	}
	mutex_unlock(&f->aux_lock);
}

/**
 * isim_aux_replug - hand the function to another driver
 * @f: function
 * @claim: the driver that is to claim it
 *
 * As a reset does: the auxiliary device goes (its driver's remove runs
 * while the engine still answers), the engine and the registers go back
 * to power-on state, and the device is plugged again, now under the name
 * @claim's driver matches. When that driver is loaded it has probed on
 * return.
 *
 * Context: process context; sleeps.
 * Return: 0, -ENODEV for a function being removed, or the plug's error.
 */
int isim_aux_replug(struct isim_func *f, enum isim_claim claim)
{
	int err = -ENODEV;

	mutex_lock(&f->aux_lock);
	if (!f->dying) {
		isim_aux_unplug(f);
		isim_engine_reset(f);
		f->vsi_filter = false;
		f->claim = claim;
		err = isim_aux_plug(f);
	}
	mutex_unlock(&f->aux_lock);
	return err;
}

/* A critical error stops the engine until the function is reset. */
static void isim_aux_halt(struct isim_func *f)
{
	isim_eng_lock(f, "halt");
	f->halted = true;
	isim_eng_unlock(f);
}

/**
 * isim_aux_event - report a parent event to the driver of the function
 * @f: function
 * @ev: the event
 * @info: its argument (see enum isim_aux_event)
 *
 * A critical error first halts the engine, as the hardware stops on one;
 * the driver is expected to ask for a reset, which restarts it.
 *
 * Context: process context; sleeps.
 * Return: 0, -ENODEV when no driver is bound, -EOPNOTSUPP when the bound
 * driver takes no events (in both cases the engine keeps running).
 */
int isim_aux_event(struct isim_func *f, enum isim_aux_event ev, u32 info)
{
	struct isim_aux_drv *drv;
	struct device *dev;
	int ret = -ENODEV;

	mutex_lock(&f->aux_lock);
	if (!f->iadev)
		goto out_unlock;
	dev = &f->iadev->adev.dev;
	device_lock(dev);
	if (dev->driver) {
		drv = container_of(to_auxiliary_drv(dev->driver),
				   struct isim_aux_drv, adrv);
		ret = drv->event ? 0 : -EOPNOTSUPP;
	}
	if (!ret) {
		if (ev == ISIM_AUX_EV_CRIT_ERR)
			isim_aux_halt(f);
		drv->event(f->iadev, ev, info);
	}
	device_unlock(dev);
out_unlock:
	mutex_unlock(&f->aux_lock);
	return ret;
}

/**
 * isim_aux_init - plug the function's auxiliary device
 * @f: function with a running engine
 *
 * Return: 0 or a negative errno.
 */
int isim_aux_init(struct isim_func *f)
{
	int err;

	mutex_lock(&f->aux_lock);
	err = isim_aux_plug(f);
	mutex_unlock(&f->aux_lock);
	return err;
}

/**
 * isim_aux_exit - unplug the auxiliary device for good
 * @f: function
 *
 * A reset request still queued is dropped; the driver is unbound on
 * return.
 */
void isim_aux_exit(struct isim_func *f)
{
	mutex_lock(&f->aux_lock);
	f->dying = true;
	mutex_unlock(&f->aux_lock);
	cancel_work_sync(&f->reset_work);
	mutex_lock(&f->aux_lock);
	isim_aux_unplug(f);
	mutex_unlock(&f->aux_lock);
}
