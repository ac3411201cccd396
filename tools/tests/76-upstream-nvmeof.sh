#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 40
#
# A kernel ULP on Linux 6.1's own irdma: NVMe over Fabrics, the kernel's
# nvme-rdma host and nvmet-rdma target, on one simulated iWARP function
# that upstream drives (tools/guest/nvmeof.sh, as 50-nvmeof-iwarp.sh runs
# it on ours): 4 MiB written with O_DIRECT, read back and compared, every
# I/O fast-registered by the host and invalidated by the target, the
# target's RDMA READs into MRs they invalidate; the port counters
# upstream reads from the engine (GATHER_STATS) count them; everything
# released after.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

log_mark 76-upstream-nvmeof
load_irdma_upstream
echo "0 iwarp gen2 upstream" >/sys/bus/irdma_sim/new_device || fail "create 0"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
sim_function0_dev dev
nvmeof_loop "$dev" iwarp 76
echo 0 >/sys/bus/irdma_sim/del_device || fail "delete 0"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
sim_unload
upstream_done
