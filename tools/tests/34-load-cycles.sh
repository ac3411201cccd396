#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 1200
# irdma-vm-secs: 47
#
# 20 load/unload cycles of irdma with simulated functions present: each
# load brings up a function that was already there and one created while
# irdma is loaded (iWARP and RoCEv2, so QP1 of the MAD layer comes and
# goes too); each unload tears both down and leaves no RDMA device and no
# CQP on the engine. KASAN, lockdep and kmemleak watch all of it.
#
# One cycle takes 2 to 4 s under TCG (more on a busy host); the longer
# time limit is for a much slower host. Loops use shell builtins: an exec
# costs 0.1 to 0.2 s of the guest's CPU.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
cycles=20

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
echo "0 iwarp" >$bus/new_device || fail "create 0"

for ((i = 1; i <= cycles; i++)); do
	echo "34-load-cycles: cycle $i" >/dev/kmsg
	kmod irdma || fail "cycle $i: load irdma"
	echo "1 roce" >$bus/new_device || fail "cycle $i: create 1"
	for f in 0 1; do
		[ -e /sys/bus/auxiliary/devices/irdma_sim.func.$f/driver ] ||
			fail "cycle $i: function $f not bound"
		[ "$(sim_cqp_live $f)" = 1 ] ||
			fail "cycle $i: function $f has no CQP"
	done
	n=$(irdma_dev_count)
	[ "$n" = 2 ] || fail "cycle $i: $n RDMA devices, expected 2"
	# unload with both bound; then the RoCEv2 function goes
	rmmod irdma || fail "cycle $i: rmmod irdma"
	for f in 0 1; do
		[ "$(sim_cqp_live $f)" = 0 ] ||
			fail "cycle $i: function $f kept its CQP"
	done
	n=$(irdma_dev_count)
	[ "$n" = 0 ] || fail "cycle $i: $n RDMA devices left after rmmod"
	echo 1 >$bus/del_device || fail "cycle $i: delete 1"
done
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "$cycles load/unload cycles with an iWARP and a RoCEv2 function"
