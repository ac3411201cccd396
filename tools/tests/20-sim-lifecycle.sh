#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 18
#
# irdma_sim: a pair of functions is created through the bus, shows its
# devices, netdevs, auxiliary devices and debugfs knobs, and is removed
# again, 50 times. The first pair is created with irdma loaded, to show
# that its binding sees the functions; the 50 rounds run with the
# simulator alone (binding and bring-up, about 3 s per function under TCG,
# are 30-bringup.sh's). Bad requests to the bus fail with the right error
# and change nothing.
#
# The 50 rounds use shell builtins only: under TCG every exec of a program
# from the 9p root costs seconds, and the kernel work is what is tested.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

load_stack || fail "cannot load the RDMA stack"
kmod irdma || fail "cannot load irdma"
kmod irdma_sim || fail "cannot load irdma_sim"
[ -w $bus/new_device ] || fail "$bus/new_device missing"

# write to a bus file; print the errno text on failure
bus_write() {
	local out

	out=$( { echo "$2" >"$bus/$1"; } 2>&1) && return 0
	echo "${out##*: }"
	return 1
}

check_func() {
	local id=$1 mode=$2 d=$bus/devices/irdma_sim$1 line proto

	[ -d "$d" ] || fail "device irdma_sim$id missing"
	# under the function's register window (its PCI function) if it has one
	[ -d "$d/net/isim$id" ] || [ -d "$d/window/net/isim$id" ] ||
		fail "netdev isim$id not under irdma_sim$id"
	[ -e /sys/bus/auxiliary/devices/irdma_sim.func."$id" ] ||
		fail "auxiliary device irdma_sim.func.$id missing"
	[ -e "$dbg/irdma_sim$id/fail_create_cq" ] ||
		fail "fault knobs of irdma_sim$id missing"
	{ read -r line; read -r proto; } <"$dbg/irdma_sim$id/state"
	[ "$proto" = "protocol: $mode" ] ||
		fail "irdma_sim$id: '$proto', expected mode $mode"
}

check_gone() {
	[ ! -e $bus/devices/irdma_sim"$1" ] || fail "irdma_sim$1 still there"
	[ ! -e /sys/class/net/isim"$1" ] || fail "isim$1 still there"
	[ ! -e /sys/bus/auxiliary/devices/irdma_sim.func."$1" ] ||
		fail "irdma_sim.func.$1 still there"
	[ ! -e $dbg/irdma_sim"$1" ] || fail "debugfs of irdma_sim$1 still there"
}

carrier() {
	local c

	read -r c </sys/class/net/isim"$1"/carrier
	echo "$c"
}

# once: the binding sees the function, the carrier follows the peer
bus_write new_device "0 iwarp" || fail "first create 0"
aux=/sys/bus/auxiliary/devices/irdma_sim.func.0
[ -e $aux/driver ] || dmesg | grep -q " irdma_sim.func.0: " ||
	fail "irdma's binding did not probe irdma_sim.func.0"
bus_write new_device "1 roce" || fail "first create 1"
ip link set isim0 up && ip link set isim1 up ||
	fail "cannot bring the netdevs up"
[ "$(carrier 0)" = 1 ] || fail "no carrier with both ends present"
bus_write del_device 1 || fail "first delete 1"
check_gone 1
[ "$(carrier 0)" = 0 ] || fail "carrier stayed up without the peer"
bus_write del_device 0 || fail "first delete 0"
check_gone 0
echo "binding probes; carrier follows the peer"
rmmod irdma || fail "cannot unload irdma"

for i in $(seq 1 50); do
	echo "0 iwarp" >$bus/new_device || fail "round $i: create 0"
	echo "1 roce" >$bus/new_device || fail "round $i: create 1"
	check_func 0 iwarp
	check_func 1 roce
	echo 1 >$bus/del_device || fail "round $i: delete 1"
	check_gone 1
	echo 0 >$bus/del_device || fail "round $i: delete 0"
	check_gone 0
done
echo "50 rounds of create/remove"

# bad requests
bus_write new_device "2" || fail "create 2"
err=$(bus_write new_device "2") && fail "duplicate ID accepted"
[ "$err" = "File exists" ] || fail "duplicate ID: '$err'"
err=$(bus_write new_device "3 infiniband") && fail "bad mode accepted"
[ "$err" = "Invalid argument" ] || fail "bad mode: '$err'"
err=$(bus_write new_device "64") && fail "ID 64 accepted"
[ "$err" = "Invalid argument" ] || fail "ID 64: '$err'"
err=$(bus_write del_device "5") && fail "deleting a missing ID worked"
[ "$err" = "No such file or directory" ] || fail "missing ID: '$err'"
check_func 2 iwarp
# leave 2 behind: unloading the module must remove it
rmmod irdma_sim || fail "rmmod irdma_sim with a function present"
check_gone 2
echo "bad requests refused; module unload removes leftovers"
