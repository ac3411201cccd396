#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 420
# irdma-vm-secs: 90
#
# Linux 6.1's own irdma alone on a simulated iWARP function, as it would
# drive an E810: its CM, its QP and TCP contexts, its ILQ, LSMM and RTR,
# on the simulated engine.
#  - rping -V over a loopback: server and client on function 0's address,
#    both ends of the connection on function 0's engine;
#  - rping -V across the wire, both ways, against ours on function 1's
#    netdev (isim1, in network namespace upeer): upstream's CM resolves
#    routes and neighbours in the initial namespace only (ip_route_output
#    on init_net), so its end stays there and the two ends of a wire in
#    one kernel cannot both be upstream's.
# Each connection's data is verified; every segment upstream's CM posted
# on its ILQ went out (ilq tx_err stays 0: its RSTs and ACKs name AHs it
# destroys right after); after each step the RDMA resources and function
# 0's engine objects are back to their baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=upeer
PINGS=10

kill_on_exit spid cpid
netns_del_on_exit $ns

# run "$@" in the namespace of end $1: "" is the initial one
in_ns() {
	local n=$1

	shift
	if [ -n "$n" ]; then
		ip netns exec "$n" "$@"
	else
		"$@"
	fi
}

# rping: server in namespace $1 on address $2, client in namespace $3 to
# that address, port $4; both verify $PINGS pings and exit 0
rping_run() {
	local srv=/tmp/71-srv-$4.txt cli=/tmp/71-cli-$4.txt

	in_ns "$1" stdbuf -oL rping -s -d -v -V -a "$2" -p "$4" >"$srv" 2>&1 &
	# shellcheck disable=SC2034 # read by name: kill_on_exit, rping_server_done
	spid=$!
	wait_line 60 "*rdma_listen*" "$srv" || fail "no listener: $(<"$srv")"
	pause 2
	in_ns "$3" stdbuf -oL rping -c -d -v -V -a "$2" -p "$4" -C $PINGS \
		>"$cli" 2>&1 &
	cpid=$!
	if ! wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" "$cli"; then
		wait "$cpid"
		cpid=
		fail "no connection: $(<"$cli") / server: $(<"$srv")"
	fi
	rping_pings_verified 300 "$cpid" "$cli" $PINGS ||
		fail "client: $(<"$cli") / server: $(<"$srv")"
	cpid=
	rping_server_done 60 spid "$srv" $PINGS
	echo "rping $2:$4: $PINGS pings verified both ways"
}

# every ILQ send of function 0 (upstream's) went out
ilq_clean() {
	local tx err

	read -r tx err <<<"$(sim_counts 0 ilq tx tx_err)"
	[ "$err" = 0 ] || fail "$1: function 0's engine refused $err ILQ sends"
	echo "$1: $tx ILQ sends, tx_err 0"
}

log_mark 71-upstream-iwarp
need_user rping librdmacm libirdma
load_irdma_upstream
sim_iwarp_pair_netns $ns "" gen2 upstream irdma
dev0=$(ibdev_of 0)
dev1=$(ibdev_of 1)
[ -n "$dev0" ] && [ -n "$dev1" ] ||
	fail "no RDMA devices: '$dev0' '$dev1'"
take_baseline "qps stags qhash apbvt_ports ahs" 0 1
echo "$dev0 (upstream) and $dev1 (ours); baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}"

step "rping -V over a loopback on function 0 ($dev0)"
read -r looped0 <<<"$(sim_counts 0 wire looped)"
rping_run "" 192.0.2.1 "" 7711
read -r looped1 <<<"$(sim_counts 0 wire looped)"
((looped1 > looped0)) || fail "function 0 looped no frame"
wait_baseline loopback
ilq_clean loopback

step "rping -V across the wire, ours to upstream and upstream to ours"
read -r tx0 <<<"$(sim_counts 0 toe tx)"
rping_run "" 192.0.2.1 $ns 7712
rping_run $ns 192.0.2.2 "" 7713
read -r tx1 <<<"$(sim_counts 0 toe tx)"
((tx1 - tx0 >= 6 * PINGS)) ||
	fail "function 0's engine sent $((tx1 - tx0)) segments for $((2 * PINGS)) pings"
wait_baseline wire
ilq_clean wire

step "remove"
ip -n $ns link set isim1 netns 1 || fail "isim1 back"
ip netns del $ns || fail "delete $ns"
echo 1 >/sys/bus/irdma_sim/del_device || fail "delete 1"
echo 0 >/sys/bus/irdma_sim/del_device || fail "delete 0"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
sim_unload
upstream_done
echo "upstream irdma: rping over a loopback and across the wire against ours both ways, every ILQ send out, nothing left behind"
