// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the irdma_sim bus and module entry points.
 *
 *   echo "ID [iwarp|roce] [gen1|gen2]" > /sys/bus/irdma_sim/new_device
 *   echo "ID" > /sys/bus/irdma_sim/del_device
 *
 * Functions 2k and 2k+1 are wired back to back, like a veth pair.
 */
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "isim.h"

/* protects isim_funcs, the wire peer pointers and isim_bus_enable */
DEFINE_MUTEX(isim_bus_lock);
static DEFINE_XARRAY(isim_funcs);
static DEFINE_IDA(isim_ids);
/*
 * Readiness gate: new_device/del_device refuse to run until module init has
 * registered everything (smp_store_release in init, acquire in the stores),
 * and again once module exit has started tearing down.
 */
static bool isim_bus_enable;

struct workqueue_struct *isim_wq;
struct workqueue_struct *isim_wq_hi;
/* the CQP watch's worker, SCHED_FIFO (engine.c) */
struct kthread_worker *isim_cqp_worker;

/**
 * isim_func_lookup - find a function by ID
 * @id: device ID
 *
 * Return: the function or NULL. Caller holds isim_bus_lock.
 */
struct isim_func *isim_func_lookup(u32 id)
{
	lockdep_assert_held(&isim_bus_lock);
	return xa_load(&isim_funcs, id);
}

static void isim_dev_release(struct device *dev)
{
	struct isim_func *f = to_isim_func(dev);

	ida_free(&isim_ids, f->id);
	kfree(f);
}

static struct bus_type isim_bus = {
	.name = "irdma_sim",
	.dev_name = "irdma_sim",
};

/*
 * MODE is iwarp (default) or roce, GEN gen2 (E810, the default) or gen1
 * (X722). The X722 has no RoCE.
 */
/**
 * isim_parse_new - parse a new_device write
 * @buf: "ID [MODE [GEN [DRIVER]]]"
 * @id: the ID
 * @proto: the protocol MODE names
 * @gen: the generation GEN names
 * @claim: the driver DRIVER names (claim.c)
 *
 * Return: 0 or -EINVAL.
 */
int isim_parse_new(const char *buf, u32 *id, enum isim_aux_protocol *proto,
		   u8 *gen, enum isim_claim *claim)
{
	char mode[8] = "iwarp", g[8] = "gen2", drv[10] = "irdma", extra[2];
	int n;

	n = sscanf(buf, "%u %7s %7s %9s %1s", id, mode, g, drv, extra);
	if (n < 1 || n > 4 || *id > ISIM_MAX_ID)
		return -EINVAL;
	if (isim_claim_parse(drv, claim))
		return -EINVAL;
	if (!strcmp(mode, "iwarp"))
		*proto = ISIM_AUX_IWARP;
	else if (!strcmp(mode, "roce"))
		*proto = ISIM_AUX_ROCEV2;
	else
		return -EINVAL;
	if (!strcmp(g, "gen2"))
		*gen = ISIM_GEN2;
	else if (!strcmp(g, "gen1") && *proto == ISIM_AUX_IWARP)
		*gen = ISIM_GEN1;
	else
		return -EINVAL;
	return 0;
}

static struct isim_func *isim_dev_register(u32 id,
					   enum isim_aux_protocol proto, u8 gen)
{
	struct isim_func *f;
	int err;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	err = ida_alloc_range(&isim_ids, id, id, GFP_KERNEL);
	if (err < 0) {
		kfree(f);
		return ERR_PTR(err == -ENOSPC ? -EEXIST : err);
	}
	f->id = id;
	f->protocol = proto;
	f->gen = gen;
	f->dev.bus = &isim_bus;
	f->dev.id = id;
	f->dev.release = isim_dev_release;
	f->dev.dma_mask = &f->dev.coherent_dma_mask;
	f->dev.dma_parms = &f->dma_parms;
	mutex_init(&f->aux_lock);
	spin_lock_init(&f->qos_lock);
	/* one traffic class, all priorities in it, as ice without DCB */
	f->qos.num_tc = 1;
	f->qos.rel_bw[0] = 100;
	INIT_WORK(&f->reset_work, isim_aux_reset_work);
	device_initialize(&f->dev);
	/* from here on isim_dev_release frees f and its ID */
	err = dma_set_mask_and_coherent(&f->dev, DMA_BIT_MASK(64));
	if (!err)
		err = dev_set_name(&f->dev, "irdma_sim%u", id);
	if (!err)
		err = device_add(&f->dev);
	if (err) {
		put_device(&f->dev);
		return ERR_PTR(err);
	}
	return f;
}

static int isim_func_new(u32 id, enum isim_aux_protocol proto, u8 gen,
			 enum isim_claim claim)
{
	struct isim_func *f;
	int err;

	lockdep_assert_held(&isim_bus_lock);
	f = isim_dev_register(id, proto, gen);
	if (IS_ERR(f))
		return PTR_ERR(f);
	f->claim = claim;
	err = xa_insert(&isim_funcs, id, f, GFP_KERNEL);
	if (err)
		goto err_unregister;
	err = isim_func_probe(f);
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase(&isim_funcs, id);
err_unregister:
	device_unregister(&f->dev);
	return err;
}

static void isim_func_del(struct isim_func *f)
{
	lockdep_assert_held(&isim_bus_lock);
	isim_func_remove(f);
	xa_erase(&isim_funcs, f->id);
	device_unregister(&f->dev);
}

static ssize_t new_device_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	enum isim_aux_protocol proto;
	enum isim_claim claim;
	u32 id;
	u8 gen;
	int err;

	err = isim_parse_new(buf, &id, &proto, &gen, &claim);
	if (err) {
		pr_err("format is \"ID [iwarp|roce] [gen1|gen2] [irdma|upstream]\", ID <= %u, no roce on gen1\n",
		       ISIM_MAX_ID);
		return err;
	}
	mutex_lock(&isim_bus_lock);
	/* pairs with the release in isim_init(): the bus is fully set up */
	if (smp_load_acquire(&isim_bus_enable))
		err = isim_func_new(id, proto, gen, claim);
	else
		err = -EBUSY;
	mutex_unlock(&isim_bus_lock);
	return err ? err : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	struct isim_func *f;
	int err = 0;
	u32 id;

	if (kstrtou32(buf, 0, &id))
		return -EINVAL;
	mutex_lock(&isim_bus_lock);
	f = isim_func_lookup(id);
	/* pairs with the release in isim_init() and isim_del_all() */
	if (!smp_load_acquire(&isim_bus_enable))
		err = -EBUSY;
	else if (!f)
		err = -ENOENT;
	else
		isim_func_del(f);
	mutex_unlock(&isim_bus_lock);
	return err ? err : count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *isim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(isim_bus);

static void isim_del_all(void)
{
	struct isim_func *f;
	unsigned long id;

	mutex_lock(&isim_bus_lock);
	/* no new_device/del_device past this point; see the stores' acquire */
	smp_store_release(&isim_bus_enable, false);
	xa_for_each(&isim_funcs, id, f)
		isim_func_del(f);
	mutex_unlock(&isim_bus_lock);
}

static int __init isim_init(void)
{
	int err;

	isim_wq = alloc_workqueue("irdma_sim", WQ_UNBOUND, 0);
	if (!isim_wq)
		return -ENOMEM;
	isim_wq_hi = alloc_workqueue("irdma_sim_hi", WQ_UNBOUND | WQ_HIGHPRI,
				     0);
	if (!isim_wq_hi) {
		err = -ENOMEM;
		goto err_destroy_wq;
	}
	isim_cqp_worker = kthread_create_worker(0, "irdma_sim_cqp");
	if (IS_ERR(isim_cqp_worker)) {
		err = PTR_ERR(isim_cqp_worker);
		goto err_destroy_wq_hi;
	}
	sched_set_fifo_low(isim_cqp_worker->task);
	isim_debugfs_mod_init();
	isim_bus.bus_groups = isim_bus_groups;
	err = bus_register(&isim_bus);
	if (err)
		goto err_debugfs_exit;
	err = isim_win_mod_init();
	if (err)
		goto err_bus_unregister;
	/* publish the bus to new_device/del_device (acquire in the stores) */
	smp_store_release(&isim_bus_enable, true);
	return 0;

err_bus_unregister:
	bus_unregister(&isim_bus);
err_debugfs_exit:
	isim_debugfs_mod_exit();
	kthread_destroy_worker(isim_cqp_worker);
err_destroy_wq_hi:
	destroy_workqueue(isim_wq_hi);
err_destroy_wq:
	destroy_workqueue(isim_wq);
	return err;
}

static void __exit isim_exit(void)
{
	isim_del_all();
	isim_win_mod_exit();
	bus_unregister(&isim_bus);
	isim_debugfs_mod_exit();
	kthread_destroy_worker(isim_cqp_worker);
	destroy_workqueue(isim_wq_hi);
	destroy_workqueue(isim_wq);
	ida_destroy(&isim_ids);
}

module_init(isim_init);
module_exit(isim_exit);

MODULE_AUTHOR("irdma project");
MODULE_DESCRIPTION("Simulated Intel E810/X722 RDMA engine for irdma");
MODULE_LICENSE("Dual BSD/GPL");
