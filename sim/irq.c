// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: MSI-X-like interrupt vectors.
 *
 * Each function owns a simulated interrupt controller (CONFIG_IRQ_SIM) with
 * one Linux IRQ per vector; the driver request_irq()s them like MSI-X
 * vectors. A cause (CEQ or AEQ) raises the vector it is routed to in
 * CEQCTL/AEQCTL. The vector fires if its DYN_CTL has INTENA set, and then
 * masks itself by clearing INTENA, as the E810 does: the driver re-enables
 * it by writing INTENA again once it has drained its queue. A cause raised
 * while the vector is masked stays pending and fires on re-enable.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/irqdomain.h>

#include "isim.h"

static void isim_irq_unmap(struct isim_func *f)
{
	int i;

	for (i = 0; i < ISIM_NUM_VECTORS; i++) {
		if (f->irqs[i] > 0)
			irq_dispose_mapping(f->irqs[i]);
		f->irqs[i] = 0;
		f->vec[i].virq = 0;
	}
}

static int isim_irq_map(struct isim_func *f)
{
	unsigned int virq;
	int i;

	for (i = 0; i < ISIM_NUM_VECTORS; i++) {
		virq = irq_create_mapping(f->irq_domain, i);
		if (!virq) {
			isim_irq_unmap(f);
			return -ENOMEM;
		}
		f->irqs[i] = virq;
		f->vec[i].virq = virq;
	}
	return 0;
}

/**
 * isim_irq_init - create the function's interrupt controller and vectors
 * @f: function
 *
 * Return: 0 or a negative errno.
 */
int isim_irq_init(struct isim_func *f)
{
	int err;

	f->irq_fwnode = irq_domain_alloc_named_id_fwnode("irdma_sim", f->id);
	if (!f->irq_fwnode)
		return -ENOMEM;
	f->irq_domain = irq_domain_create_sim(f->irq_fwnode, ISIM_NUM_VECTORS);
	if (IS_ERR(f->irq_domain)) {
		err = PTR_ERR(f->irq_domain);
		goto err_free_fwnode;
	}
	err = isim_irq_map(f);
	if (err)
		goto err_remove_domain;
	return 0;

err_remove_domain:
	irq_domain_remove_sim(f->irq_domain);
err_free_fwnode:
	irq_domain_free_fwnode(f->irq_fwnode);
	f->irq_domain = NULL;
	return err;
}

/**
 * isim_irq_exit - tear down the vectors; the driver has freed its IRQs
 * @f: function
 */
void isim_irq_exit(struct isim_func *f)
{
	isim_irq_unmap(f);
	irq_domain_remove_sim(f->irq_domain);
	irq_domain_free_fwnode(f->irq_fwnode);
	f->irq_domain = NULL;
}

static void isim_irq_deliver(struct isim_func *f, u32 v)
{
	struct isim_vec *vec = &f->vec[v];

	if (!vec->pending ||
	    !(isim_rd32(f, ISIM_REG_DYN_CTL(v)) & ISIM_DYN_CTL_INTENA))
		return;
	isim_clr32(f, ISIM_REG_DYN_CTL(v), ISIM_DYN_CTL_INTENA);
	vec->pending = false;
	vec->fired++;
	irq_set_irqchip_state(vec->virq, IRQCHIP_STATE_PENDING, true);
}

/**
 * isim_irq_raise - a cause routed to vector @v fired
 * @f: function
 * @v: vector index
 *
 * Delivered at once if the vector is enabled, else held pending.
 */
void isim_irq_raise(struct isim_func *f, u32 v)
{
	lockdep_assert_held(&f->eng_lock);
	if (v >= ISIM_NUM_VECTORS) {
		dev_warn_ratelimited(&f->dev, "cause routed to vector %u of %u\n",
				     v, ISIM_NUM_VECTORS);
		return;
	}
	f->vec[v].pending = true;
	isim_irq_deliver(f, v);
}

/**
 * isim_irq_service - deliver pending causes whose vector was re-enabled
 * @f: function
 */
void isim_irq_service(struct isim_func *f)
{
	u32 v;

	lockdep_assert_held(&f->eng_lock);
	for (v = 0; v < ISIM_NUM_VECTORS; v++)
		isim_irq_deliver(f, v);
}
