#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The demo, inside the guest: load the RDMA stack and irdma, show what the
# driver registers, create two simulated adapters wired back to back and
# show what irdma makes of them; then two iWARP adapters on a wire, one of
# them in its own network namespace, with rping and ib_write_bw -R between
# them through irdma's connection manager; remove them and unload.
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
	echo "${d##*/}"
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

step "two iWARP adapters on a wire: isim2 here, isim3 in namespace demopeer"
echo 1 >$bus/del_device
echo 0 >$bus/del_device
echo "2 iwarp" >$bus/new_device
echo "3 iwarp" >$bus/new_device
ip link set isim2 up
ip addr add 198.51.100.1/24 dev isim2
ip netns add demopeer
ip link set isim3 netns demopeer
ip -n demopeer link set lo up
ip -n demopeer link set isim3 up
ip -n demopeer addr add 198.51.100.2/24 dev isim3
dev2=$(ibdev_of 2)
dev3=$(ibdev_of 3)
echo "isim2: 198.51.100.1, $dev2; isim3 (demopeer): 198.51.100.2, $dev3"
rdma link show | grep -E "$dev2|$dev3"

# wait until the server's listen reaches isim3's engine as a SYN filter
listening() {
	local i qh

	for ((i = 0; i < 60; i++)); do
		read -r qh <<<"$(sim_counts 3 objects qhash)"
		[ "${qh:-0}" -gt 0 ] && return 0
		pause 1
	done
	echo "the server on $dev3 is not listening"
	return 1
}

step "rping: 10 verified pings from $dev2 to $dev3"
ip netns exec demopeer rping -s -v -a 198.51.100.2 -p 7900 -V >/tmp/demo-rping-s.txt 2>&1 &
spid=$!
listening
timeout 600 rping -c -a 198.51.100.2 -p 7900 -C 10 -v -V
wait $spid
echo "rping server: $(grep -c 'server ping data' /tmp/demo-rping-s.txt || true) pings verified"
# its SYN filter goes with the listen
for ((i = 0; i < 60; i++)); do
	read -r qh <<<"$(sim_counts 3 objects qhash)"
	[ "${qh:-1}" = 0 ] && break
	pause 1
done

step "ib_write_bw -R: 20 RDMA WRITEs of 64 KiB from $dev2 to $dev3"
ip netns exec demopeer ib_write_bw -R -F -d "$dev3" -p 7901 -s 65536 -n 20 \
	>/tmp/demo-bw-s.txt 2>&1 &
spid=$!
listening
timeout 600 ib_write_bw -R -F -d "$dev2" -p 7901 -s 65536 -n 20 198.51.100.2
# the server has its numbers too; it may still wait for the close
for ((i = 0; i < 30; i++)); do
	proc_exited $spid && break
	pause 1
done
kill $spid 2>/dev/null || true
wait $spid || true
echo "(a simulated engine under QEMU TCG: the numbers show it works, not how fast an E810 is)"

step "the engines' view: offloaded segments and wire frames"
for id in 2 3; do
	grep -E '^(wire|toe):' $dbg/irdma_sim$id/state | sed "s/^/isim$id /"
done

step "removing the functions, unloading"
ip -n demopeer link set isim3 netns 1
ip netns del demopeer
echo 3 >$bus/del_device
echo 2 >$bus/del_device
rmmod irdma_sim
rmmod irdma
if ls -d /sys/bus/auxiliary/drivers/irdma.* >/dev/null 2>&1; then
	echo "irdma drivers still registered after rmmod"
	exit 1
fi
echo "irdma and irdma_sim unloaded; the functions and drivers are gone"
