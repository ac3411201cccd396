#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 66
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on iWARP through irdma when the connections go away
# (nvmeof_recover in tools/guest/nvmeof.sh, one simulated function as in
# 50-nvmeof-iwarp): the target's port taken down, the host reconnecting
# every second, each try refused by our CM at once (no listener: a connect
# to the function's own address), a write issued meanwhile waiting; the
# port back, the host reconnected on its own and the write complete, every
# byte in place; then a controller reset. After the teardown every CM node
# made on the way is freed and the RDMA resources and the engine's objects
# are back at the baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

NVMEOF_DD=
kill_on_exit NVMEOF_DD

log_mark 55-nvmeof-recover
sim_iwarp_function0 dev
nvmeof_recover "$dev" iwarp 55
sim_unload 0
echo "NVMe-oF over iWARP: a target outage and a reset survived, nothing left behind"
