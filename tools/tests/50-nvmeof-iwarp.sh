#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 85
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

bus=/sys/bus/irdma_sim

log_mark 50-nvmeof-iwarp
load_irdma_sim
echo "0 iwarp" >$bus/new_device || fail "create 0"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
sim_wait_counts 60 1 0 cqp live
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device on function 0"
nvmeof_loop "$dev" iwarp 50
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
