#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
#
# 20 load/unload cycles of irdma with simulated functions present: each
# load brings up a function that was already there and one created while
# irdma is loaded (iWARP and RoCEv2, so QP1 of the MAD layer comes and
# goes too); each unload tears both down and leaves no RDMA device and no
# CQP on the engine. KASAN, lockdep and kmemleak watch all of it.
#
# One cycle takes about 20 s under TCG, hence the longer time limit.
# Loops use shell builtins: every exec from the 9p root costs seconds.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

# "1" if function $1's CQP exists on the engine, "0" if not
cqp_live() {
	local line

	while read -r line; do
		case "$line" in
		"cqp: live="*)
			line=${line#cqp: live=}
			echo "${line%% *}"
			return
			;;
		esac
	done <"$dbg/irdma_sim$1/state"
	echo "?"
}

ibdevs() {
	local n=0 d

	for d in /sys/class/infiniband/irdma*; do
		[ -e "$d" ] && n=$((n + 1))
	done
	echo $n
}

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
echo "0 iwarp" >$bus/new_device || fail "create 0"

for i in $(seq 1 20); do
	kmod irdma || fail "cycle $i: load irdma"
	echo "1 roce" >$bus/new_device || fail "cycle $i: create 1"
	for f in 0 1; do
		[ -e /sys/bus/auxiliary/devices/irdma_sim.func.$f/driver ] ||
			fail "cycle $i: function $f not bound"
		[ "$(cqp_live $f)" = 1 ] || fail "cycle $i: function $f has no CQP"
	done
	[ "$(ibdevs)" = 2 ] || fail "cycle $i: $(ibdevs) RDMA devices, expected 2"
	# unload with both bound; then the RoCEv2 function goes
	rmmod irdma || fail "cycle $i: rmmod irdma"
	for f in 0 1; do
		[ "$(cqp_live $f)" = 0 ] || fail "cycle $i: function $f kept its CQP"
	done
	[ "$(ibdevs)" = 0 ] || fail "cycle $i: RDMA devices left after rmmod"
	echo 1 >$bus/del_device || fail "cycle $i: delete 1"
done
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "20 load/unload cycles with an iWARP and a RoCEv2 function"
