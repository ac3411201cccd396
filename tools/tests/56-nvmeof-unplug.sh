#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 24
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on iWARP through irdma when the adapter goes away
# under it (tools/guest/nvmeof.sh, one simulated function as in
# 50-nvmeof-iwarp): the function is removed while the host writes, as a
# hot unplug or a function reset would remove it. The RDMA core asks every
# client to let go of the device: nvme-rdma deletes its controller (the
# write fails, and returns), nvmet-rdma drops its queues and its listener,
# and our CM and QPs are torn down under connections in use. The removal
# must finish, the write must end with an error, the target must come
# down, every module must unload, and nothing may leak (the guest's
# kmemleak scan and log check follow).
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

bus=/sys/bus/irdma_sim
mib=2
NVMEOF_DD=
del_pid=
kill_on_exit NVMEOF_DD del_pid

log_mark 56-nvmeof-unplug
sim_iwarp_function0 dev
nvmeof_target "$dev" 56 $mib
nvmeof_port up
nvmeof_connect ""
nvmeof_write "before"

step "function 0 goes away under a write"
nvmeof_write_bg 2
echo "function 0 is removed"
echo 0 >$bus/del_device &
del_pid=$!
wait_exit 120 $del_pid || fail "the removal still runs after 120 s"
wait $del_pid || fail "delete 0 failed (status $?)"
del_pid=
[ -e /sys/bus/irdma_sim/devices/irdma_sim0 ] && fail "function 0 still there"
wait_exit 60 $NVMEOF_DD || fail "the write still runs 60 s after the removal"
wait $NVMEOF_DD && fail "the write succeeded on a controller that went away"
NVMEOF_DD=
echo "the write ended: $(head -n 1 "$NVMEOF_BACK.err")"
nvmeof_ctrl_gone
devs=$(rdma dev) || fail "rdma dev: $devs"
[ -z "$devs" ] || fail "RDMA devices left: $devs"

step "the target comes down, the modules unload"
nvmeof_target_down
sim_unload
echo "NVMe-oF over iWARP: the function removed under a write, everything released"
