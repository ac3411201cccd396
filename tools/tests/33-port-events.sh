#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Port events: a user of an irdma device (ibv_asyncwatch, through
# libirdma) learns that the link went down and came back, and that the
# MAC address, the iWARP port's only GID, changed. Each transition is
# reported once; notifications without a transition are not.
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

# wait until $1 lines of $ev match $2 (30 s: every exec is slow under TCG)
wait_events() {
	local i n

	for i in $(seq 1 30); do
		n=$(grep -c "$2" $ev)
		[ "$n" -ge "$1" ] && return 0
		sleep 1
	done
	fail "expected $1 '$2' events, saw: $(cat $ev)"
}

# the port starts down: isim0 is not up yet
stdbuf -oL ibv_asyncwatch -d "$dev" >$ev 2>&1 &
watch=$!
wait_events 1 "async event FD"

ip link set isim0 up || fail "isim0 up"
wait_events 1 "IBV_EVENT_PORT_ACTIVE"
rdma link show "$dev/1" | grep -q "state ACTIVE" ||
	fail "port not ACTIVE with the link up: $(rdma link show "$dev/1")"

ip link set isim0 down || fail "isim0 down"
wait_events 1 "IBV_EVENT_PORT_ERR"
rdma link show "$dev/1" | grep -q "state DOWN" ||
	fail "port not DOWN with the link down: $(rdma link show "$dev/1")"

ip link set isim0 address 02:00:5e:10:00:01 || fail "set the MAC"
wait_events 1 "IBV_EVENT_GID_CHANGE"
# the core refreshes its GID cache on the event: sysfs shows the new MAC
gid=/sys/class/infiniband/$dev/ports/1/gids/0
for i in $(seq 1 10); do
	read -r g <$gid
	[ "${g:0:14}" = "0200:5e10:0001" ] && break
	sleep 1
done
[ "${g:0:14}" = "0200:5e10:0001" ] || fail "GID 0 is $g after the MAC change"

ip link set isim0 up || fail "isim0 up again"
wait_events 2 "IBV_EVENT_PORT_ACTIVE"

# the peer goes away: carrier off, one PORT_ERR; the peer comes back
echo 1 >$bus/del_device || fail "delete 1"
wait_events 2 "IBV_EVENT_PORT_ERR"
# a repeated notification without a transition is not reported
ip link set isim0 mtu 1400 || fail "mtu change"
sleep 2
kill $watch
wait $watch 2>/dev/null
[ "$(grep -c IBV_EVENT_PORT_ERR $ev)" = 2 ] ||
	fail "PORT_ERR reported more than once per transition: $(cat $ev)"
[ "$(grep -c IBV_EVENT_PORT_ACTIVE $ev)" = 2 ] ||
	fail "PORT_ACTIVE reported more than once per transition: $(cat $ev)"
cat $ev

echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "port events: down, up, GID change, peer gone; one event per transition"
