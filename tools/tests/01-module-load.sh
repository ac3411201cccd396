#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 10
#
# irdma loads next to ice, i40e and the RDMA core, registers one auxiliary
# driver per parent with the right aliases, and unloads cleanly, repeatedly.
. "$IRDMA_REPO/tools/guest/lib.sh"

load_stack || fail "cannot load the RDMA stack and the parent drivers"

aliases=$(modinfo -b "$IRDMA_MODROOT" -k "$(uname -r)" -F alias irdma | sort)
expected=$(printf '%s\n' auxiliary:i40e.iwarp auxiliary:ice.iwarp \
	auxiliary:ice.roce i40iw | sort)
# the echoes join each list onto one line
# shellcheck disable=SC2086,SC2116
[ "$aliases" = "$expected" ] ||
	fail "aliases are '$(echo $aliases)', expected '$(echo $expected)'"

for i in 1 2 3 4 5; do
	kmod irdma || fail "load $i failed"
	for drv in irdma.gen_1 irdma.gen_2; do
		[ -d /sys/bus/auxiliary/drivers/$drv ] ||
			fail "load $i: auxiliary driver $drv not registered"
	done
	grep -q '^irdma ' /proc/modules || fail "load $i: irdma not in /proc/modules"
	rmmod irdma || fail "unload $i failed"
	[ ! -d /sys/bus/auxiliary/drivers/irdma.gen_2 ] ||
		fail "unload $i: irdma.gen_2 still registered"
done

# The modalias that the driver core uses for autoload finds irdma.
for dev in ice.iwarp ice.roce i40e.iwarp; do
	kmod -R "auxiliary:$dev" | grep -qx irdma ||
		fail "modprobe does not resolve auxiliary:$dev to irdma"
done
echo "5 load/unload cycles; aliases resolve"
