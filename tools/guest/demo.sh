#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The demo, inside the guest: load the RDMA stack and irdma, show what the
# driver registers, create two simulated adapters wired back to back and
# show what irdma makes of them, remove them and unload.
. "$IRDMA_REPO/tools/guest/lib.sh"
set -e

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

step() { printf '\n### %s\n' "$*"; }

step "kernel $(uname -r)"
load_stack
kmod irdma
lsmod | grep -E '^(irdma|ice|i40e|ib_core|iw_cm|ib_uverbs|rdma_cm) ' | sort

step "modinfo irdma: the auxiliary devices it binds to"
modinfo -b "$IRDMA_MODROOT" -k "$(uname -r)" irdma |
	grep -E '^(filename|alias|description|license|depends):' |
	sed "s|$IRDMA_MODROOT||"

step "auxiliary drivers registered by irdma"
for d in /sys/bus/auxiliary/drivers/irdma.*; do
	echo "$(basename "$d")"
done

step "two simulated E810 RDMA functions, wired back to back"
kmod irdma_sim
echo "0 iwarp" >$bus/new_device
echo "1 roce" >$bus/new_device
ip link set isim0 up
ip link set isim1 up
for id in 0 1; do
	echo "irdma_sim$id: auxiliary device" \
	     "$(basename /sys/bus/auxiliary/devices/irdma_sim.func.$id)"
	sed -n '1,2p' $dbg/irdma_sim$id/state | sed 's/^/    /'
done
ip -br link show | grep isim

step "what irdma's binding did with them"
dmesg | grep -E '^\[[ 0-9.]*\] irdma\.sim' | tail -4 |
	sed 's/^\[[ 0-9.]*\] //'

step "rdma devices and links (iWARP functions get one; RoCEv2 needs QP1 first)"
rdma dev show || true
rdma link show || true

step "ibv_devices and ibv_devinfo -v through Debian's libirdma (iWARP functions)"
ibv_devices || true
for d in /sys/class/infiniband/irdma*; do
	[ -e "$d" ] || continue
	echo
	ibv_devinfo -v -d "$(basename "$d")" || true
done

step "removing the functions, unloading"
echo 1 >$bus/del_device
echo 0 >$bus/del_device
rmmod irdma_sim
rmmod irdma
if ls -d /sys/bus/auxiliary/drivers/irdma.* >/dev/null 2>&1; then
	echo "irdma drivers still registered after rmmod"
	exit 1
fi
echo "irdma and irdma_sim unloaded; the functions and drivers are gone"
