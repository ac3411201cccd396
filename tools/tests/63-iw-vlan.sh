#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 36
#
# iWARP over a VLAN between two simulated functions on the wire (function
# 1 in network namespace wirepeer): VLAN 100 on each function's netdev,
# 198.51.100.1 and 198.51.100.2 on the VLAN devices. The initiator's VLAN
# device maps priority 0, the one of rping's TOS 0, to 802.1p priority 4
# (egress-qos-map 0:4), the way an administrator sorts a VLAN's traffic
# into a class; the responder's VLAN device maps nothing. rping -V -C 10
# connects through our CM over the VLAN (the listener's SYN filter and the
# connection's carry VLAN 100) and pings over the offloaded connection.
# The simulated wire counts the TCP segments each function receives with
# a VLAN tag by their priority (the vlan_tcp line of its state; the host
# cannot capture them: the engine takes them before the host sees them):
# every one of the connection, both ways, must carry priority 4, the
# initiator's CM frames and its QP's with its VLAN device's priority, the
# responder's because it answers the SYN's tag. An active connection on a
# VLAN used to go with priority 0 whatever the VLAN device said.
# A wildcard listener made while function 1's VLAN device has no address
# takes a connection to the address given to it afterwards (its SYN filter
# must carry VLAN 100), over IPv4 and IPv6. Afterwards the RDMA resources and the engines'
# objects are back where they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=wirepeer
port=7630
PINGS=10
srv=/tmp/63-srv.txt
cli=/tmp/63-cli.txt

# the TCP segments function $1 received with a VLAN tag, by priority 0..7
vlan_tcp() {
	sim_counts "$1" vlan_tcp p0 p1 p2 p3 p4 p5 p6 p7 ||
		fail "no vlan_tcp counters on function $1"
}

# A wildcard rping listener on LISTEN (function 1), then ADDR/PREFIX on
# function 1's VLAN device (with the further "ip addr add" options), then
# rping -C 3 from function 0 to ADDR, PORT, over the VLAN.
# Usage: late_vlan_address LISTEN ADDR PREFIX PORT [OPTION...]
late_vlan_address() {
	local q1

	q1=$(sim_counts 1 objects qhash) || fail "no qhash count on function 1"
	ip netns exec $ns stdbuf -oL rping -s -d -v -V -a "$1" -p "$4" \
		>$srv 2>&1 &
	spid=$!
	wait_qhash_above 60 1 "$q1" || fail "no wildcard SYN filter: $(<$srv)"
	q1=$(sim_counts 1 objects qhash)
	ip -n $ns addr add "$2/$3" dev isim1.100 "${@:5}" ||
		fail "add $2 to isim1.100"
	wait_qhash_above 60 1 "$q1" ||
		fail "no SYN filter for $2: $(<$srv)"
	stdbuf -oL rping -c -d -v -V -a "$2" -p "$4" -C 3 >$cli 2>&1 &
	cpid=$!
	rping_pings_verified 300 "$cpid" $cli 3 ||
		fail "client: $(<$cli) / server: $(<$srv)"
	rping_server_done 60 spid $srv 3
}

cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

log_mark 63-iw-vlan
need_user rping librdmacm
load_irdma_sim
sim_iwarp_pair_netns $ns
sim_wait_counts 60 1 0 cqp live
sim_wait_counts 60 1 1 cqp live
ip link add link isim0 name isim0.100 type vlan id 100 egress-qos-map 0:4 ||
	fail "VLAN 100 on isim0"
ip link set isim0.100 up || fail "isim0.100 up"
ip addr add 198.51.100.1/24 dev isim0.100 || fail "IPv4 on isim0.100"
ip -n $ns link add link isim1 name isim1.100 type vlan id 100 ||
	fail "VLAN 100 on isim1"
ip -n $ns link set isim1.100 up || fail "isim1.100 up"
ip -n $ns addr add 198.51.100.2/24 dev isim1.100 || fail "IPv4 on isim1.100"
take_baseline "qps stags ahs qhash apbvt_ports" 0 1
echo "baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}; function 1: ${IRDMA_BASE_OBJ[1]}"

step "rping -C $PINGS over VLAN 100, the initiator's VLAN device mapping priority 0 to 4"
# shellcheck disable=SC2034 # read through the namerefs below
read -r -a before0 <<<"$(vlan_tcp 0)"
# shellcheck disable=SC2034
read -r -a before1 <<<"$(vlan_tcp 1)"
q1=$(sim_counts 1 objects qhash) || fail "no qhash count on function 1"
ip netns exec $ns stdbuf -oL rping -s -d -v -V -a 198.51.100.2 -p $port \
	>$srv 2>&1 &
spid=$!
wait_qhash_above 60 1 "$q1" || fail "no SYN filter on function 1: $(<$srv)"
stdbuf -oL rping -c -d -v -V -a 198.51.100.2 -p $port -C $PINGS >$cli 2>&1 &
cpid=$!
if ! rping_pings_verified 300 "$cpid" $cli $PINGS; then
	for f in 0 1; do
		echo "function $f: $(sim_counts $f toe conns tx rx dropped) / wire $(sim_counts $f wire tx rx looped dropped) / ilq $(sim_counts $f ilq tx rx steered dropped)"
	done
	fail "client: $(<$cli) / server: $(<$srv)"
fi
rping_server_done 60 spid $srv $PINGS

step "every segment of the connection tagged priority 4, both ways"
# function 1 took the initiator's segments, function 0 the responder's
# shellcheck disable=SC2034 # read through the namerefs below
read -r -a after0 <<<"$(vlan_tcp 0)"
# shellcheck disable=SC2034
read -r -a after1 <<<"$(vlan_tcp 1)"
for f in 0 1; do
	declare -n b=before$f a=after$f
	out=
	other=0
	for p in 0 1 2 3 4 5 6 7; do
		d=$((a[p] - b[p]))
		out+=" p$p=$d"
		((p == 4)) || other=$((other + d))
	done
	echo "function $f took, by priority:$out"
	((a[4] - b[4] >= PINGS)) ||
		fail "function $f took $((a[4] - b[4])) segments of priority 4"
	((other == 0)) || fail "function $f took $other segments of another priority"
	unset -n b a
done
wait_baseline "rping over VLAN 100"

step "a wildcard listener made before its VLAN address"
# The SYN filter a wildcard listener gets when an address comes must be
# the address's VLAN's: it took no VLAN, and a tagged SYN met the peer's
# TCP stack instead (a refused connect).
ip -n $ns addr del 198.51.100.2/24 dev isim1.100 ||
	fail "remove 198.51.100.2"
late_vlan_address 0.0.0.0 198.51.100.2 24 $((port + 1))
wait_baseline "a wildcard listener and a VLAN address added after it"

step "the same over IPv6"
ip addr add 2001:db8:100::1/64 dev isim0.100 nodad ||
	fail "IPv6 on isim0.100"
late_vlan_address :: 2001:db8:100::2 64 $((port + 2)) nodad
wait_baseline "an IPv6 wildcard listener and a VLAN address added after it"

step "remove"
ip link del isim0.100 || fail "delete isim0.100"
ip -n $ns link del isim1.100 || fail "delete isim1.100"
sim_pair_remove $ns
echo "an iWARP connection over a VLAN goes with the VLAN device's priority for its TOS, both ways, and leaves nothing"
