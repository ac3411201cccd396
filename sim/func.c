// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: bring-up and tear-down of one simulated function.
 *
 * Probe builds the function in stages, each undone by an err_ label in
 * reverse; remove mirrors it. The auxiliary device comes last, because the
 * driver may bind to it at once and start programming the engine.
 */
#include "isim.h"

/**
 * isim_func_probe - build a function registered on the bus
 * @f: function, its struct device added
 *
 * Caller holds isim_bus_lock.
 *
 * Return: 0 or a negative errno; on error nothing is left behind.
 */
int isim_func_probe(struct isim_func *f)
{
	int err;

	lockdep_assert_held(&isim_bus_lock);
	err = isim_regs_init(f);
	if (err)
		return err;
	err = isim_irq_init(f);
	if (err)
		goto err_regs_exit;
	err = isim_engine_init(f);
	if (err)
		goto err_irq_exit;
	err = isim_netdev_init(f);
	if (err)
		goto err_engine_exit;
	isim_debugfs_init(f);
	isim_engine_start(f);
	isim_wire_link(f);
	err = isim_aux_init(f);
	if (err)
		goto err_wire_unlink;
	return 0;

err_wire_unlink:
	isim_wire_unlink(f);
	isim_engine_stop(f);
	isim_debugfs_exit(f);
	isim_netdev_exit(f);
err_engine_exit:
	isim_engine_exit(f);
err_irq_exit:
	isim_irq_exit(f);
err_regs_exit:
	isim_regs_exit(f);
	return err;
}

/**
 * isim_func_remove - tear a function down, mirroring isim_func_probe()
 * @f: function
 *
 * Caller holds isim_bus_lock.
 */
void isim_func_remove(struct isim_func *f)
{
	lockdep_assert_held(&isim_bus_lock);
	isim_aux_exit(f);
	isim_wire_unlink(f);
	isim_engine_stop(f);
	isim_debugfs_exit(f);
	isim_netdev_exit(f);
	isim_engine_exit(f);
	isim_irq_exit(f);
	isim_regs_exit(f);
}
