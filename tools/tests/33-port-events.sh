#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 13
#
# Port events: a user of an irdma device (ibv_asyncwatch, through
# libirdma) learns that the link went down and came back, once per
# transition; notifications without a transition are not reported. When
# the MAC address, the iWARP port's only GID, changes, the core's GID
# cache follows.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
ev=/tmp/port-events.txt

load_stack || fail "cannot load the RDMA stack"
kmod irdma || fail "cannot load irdma"
kmod irdma_sim || fail "cannot load irdma_sim"
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"
ip link set isim1 up || fail "isim1 up"

dev=$(rdma link show | sed -n 's|^link \(irdma[0-9]*\)/1 .* netdev isim0.*|\1|p')
[ -n "$dev" ] || fail "no irdma device on isim0: $(rdma link show)"

# progress, in this log and in the guest's kernel log
step() {
	echo "33-port-events: $*" >/dev/kmsg
	echo "$*"
}

# wait until $1 lines of $ev contain $2 (60 s; builtins only, every exec
# is slow under TCG)
wait_events() {
	local i

	for ((i = 0; i < 60; i++)); do
		[ "$(count_lines $ev "$2")" -ge "$1" ] && return 0
		pause 1
	done
	fail "expected $1 '$2' events, saw: $(<$ev)"
}

# the port starts down: isim0 is not up yet
step "watching $dev"
stdbuf -oL ibv_asyncwatch -d "$dev" >$ev 2>&1 &
watch=$!
wait_events 1 "async event FD"

step "link up"
ip link set isim0 up || fail "isim0 up"
wait_events 1 "IBV_EVENT_PORT_ACTIVE"
rdma link show "$dev/1" | grep -q "state ACTIVE" ||
	fail "port not ACTIVE with the link up: $(rdma link show "$dev/1")"

step "link down"
ip link set isim0 down || fail "isim0 down"
wait_events 1 "IBV_EVENT_PORT_ERR"
rdma link show "$dev/1" | grep -q "state DOWN" ||
	fail "port not DOWN with the link down: $(rdma link show "$dev/1")"

step "MAC change"
ip link set isim0 address 02:00:5e:10:00:01 || fail "set the MAC"
# irdma raises IB_EVENT_GID_CHANGE. On a port that is not RoCE the 6.1
# core refreshes its GID cache on that event and does not pass it on to
# clients, so ibv_asyncwatch does not see it; sysfs, read from the cache,
# shows the new MAC only if the event was raised.
gid=/sys/class/infiniband/$dev/ports/1/gids/0
for ((i = 0; i < 10; i++)); do
	read -r g <"$gid"
	[ "${g:0:14}" = "0200:5e10:0001" ] && break
	pause 1
done
[ "${g:0:14}" = "0200:5e10:0001" ] || fail "GID 0 is $g after the MAC change"

step "link up again"
ip link set isim0 up || fail "isim0 up again"
wait_events 2 "IBV_EVENT_PORT_ACTIVE"

# the peer goes away: carrier off, one PORT_ERR; the peer comes back
step "peer gone"
echo 1 >$bus/del_device || fail "delete 1"
wait_events 2 "IBV_EVENT_PORT_ERR"
# a repeated notification without a transition is not reported
ip link set isim0 mtu 1400 || fail "mtu change"
pause 2
kill $watch
wait $watch 2>/dev/null
[ "$(count_lines $ev IBV_EVENT_PORT_ERR)" = 2 ] ||
	fail "PORT_ERR reported more than once per transition: $(<$ev)"
[ "$(count_lines $ev IBV_EVENT_PORT_ACTIVE)" = 2 ] ||
	fail "PORT_ACTIVE reported more than once per transition: $(<$ev)"
echo "$(<$ev)"

echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "port events: down, up, GID change, peer gone; one event per transition"
