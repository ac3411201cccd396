/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Test harness only: the binding to irdma_sim functions (isim_if.c). */
#ifndef IRDMA_ISIM_IF_H
#define IRDMA_ISIM_IF_H

struct irdma_device;
struct irdma_l2params;
struct iidc_qos_params;

int irdma_isim_register(void);
void irdma_isim_unregister(void);
struct ib_device *irdma_isim_ibdev_get(struct net_device *netdev);

/* main.c's, no longer static, so that the binding takes the same steps */
void irdma_prep_tc_change(struct irdma_device *iwdev);
void irdma_fill_qos_info(struct irdma_l2params *l2params,
			 struct iidc_qos_params *qos_info);

#endif /* IRDMA_ISIM_IF_H */
