#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 32
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on iWARP through irdma (tools/guest/nvmeof.sh), the
# kernel's own host and target on one simulated function, loopback through
# the adapter's switch as in 49-iw-loop: both are rdma_cm consumers over
# iw_cm and our CM. The host registers each I/O's pages with IB_WR_REG_MR
# and asks the target to invalidate them (SEND with invalidate); the
# target moves data with rdma_rw: RDMA WRITE, and RDMA READ with local
# invalidate into MRs of its own, as iWARP requires of a READ's sink.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

log_mark 50-nvmeof-iwarp
sim_iwarp_function0 dev
nvmeof_loop "$dev" iwarp 50
sim_unload 0
