# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# irdma: RDMA provider for Intel Ethernet 800 Series (E810) and X722.
#
# Inside a kernel tree (drivers/infiniband/hw/irdma) this file is read by
# Kbuild. Run directly at the top of this repository, it offers developer
# targets that drive the VM harness in tools/irdma-vm.

ifneq ($(KERNELRELEASE),)

obj-$(CONFIG_INFINIBAND_IRDMA) += irdma.o

ccflags-y += -D'pr_fmt(fmt)=KBUILD_MODNAME ": " fmt'

# Each KUnit suite, kunit/<area>_test.c, is included at the end of the file
# it tests (CONFIG_INFINIBAND_IRDMA_KUNIT_TEST), where it reaches statics.
irdma-y := main.o \
	   icrdma_if.o \
	   i40iw_if.o

# function lifecycle: engine bring-up and the CQP command path
irdma-y += hw.o utils.o verbs.o ae.o qos.o
irdma-y += cq.o qp.o
irdma-y += mr.o uring.o restrack.o

irdma-y += cm.o cm_hw.o arp.o ilq.o ieq.o trace.o
CFLAGS_trace.o := -I$(src)

# hardware interface: data path, control plane, HMC, PBLE
irdma-y += uk.o ctrl.o hmc.o pble.o

# The simulator (sim/, irdma_sim.ko) and the binding that claims its
# functions; the binding is part of irdma.ko whether irdma_sim is y or m.
obj-$(CONFIG_INFINIBAND_IRDMA_SIM) += sim/
irdma-$(if $(CONFIG_INFINIBAND_IRDMA_SIM),y) += sim_if.o

# Kernel verbs consumers: one that tests the data path (test/kverbs.c),
# one that makes objects on request for the fault walks (test/kfault.c)
obj-$(CONFIG_INFINIBAND_IRDMA_TEST_KVERBS) += irdma_test_kverbs.o irdma_test_kfault.o
irdma_test_kverbs-y := test/kverbs.o
irdma_test_kfault-y := test/kfault.o

else

IRDMA_VM := $(CURDIR)/tools/irdma-vm

all:
	$(IRDMA_VM) build

check:
	$(IRDMA_VM) test

demo:
	$(IRDMA_VM) demo

shell:
	$(IRDMA_VM) shell

.PHONY: all check demo shell

endif
