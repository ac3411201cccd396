#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 26
#
# iWARP end to end on simulated X722 (gen1) functions, which have no AHs:
# the CM's segments leave the ILQ as whole Ethernet frames the driver
# built and arrive as whole frames, tag in place; offloaded QPs send from
# the engine's local MAC table entry, and their WQEs are in the gen1
# layouts (fragments without valid bits, 2-quantum chunks, at most three
# SGEs). Two gen1 functions, each end of the wire in a namespace of its
# own (isim0 in g1host, isim1 in g1peer):
#  - rping -V -C $PINGS over IPv4 from isim0 to a listener on isim1: one
#    offloaded connection on each engine, the frames on the wire (none
#    looped), every ping verified, the server out on the client's close;
#  - rping -V -C $PINGS over IPv6 with both ends on isim1: the CM frames go
#    from the function to itself with the loopback bit, and the engine
#    turns them around;
# after each, the RDMA resources and the engines' objects are back to
# their baseline.
#
# Loops use shell builtins: under TCG every exec costs.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=g1peer
ns0=g1host
PINGS=10

kill_on_exit spid
netns_del_on_exit $ns $ns0

# rping: server in namespace $1 on $2, client in namespace $3 to $4, port
# $5; both must verify $PINGS pings
rping_run() {
	local sns=$1 la=$2 cns=$3 ca=$4 port=$5 cpid
	local srv=/tmp/61-srv-$5.txt cli=/tmp/61-cli-$5.txt

	ip netns exec "$sns" stdbuf -oL rping -s -d -v -V -a "$la" -p "$port" \
		>"$srv" 2>&1 &
	# kill_on_exit reads it by name
	# shellcheck disable=SC2034
	spid=$!
	# the listen reached function 1's engine (a SYN filter)
	wait_qhash_above 60 1 "${IRDMA_BASE_OBJ[1]%% *}" ||
		fail "no SYN filter on function 1: $(<"$srv")"
	ip netns exec "$cns" stdbuf -oL rping -c -d -v -V -a "$ca" -p "$port" \
		-C "$PINGS" >"$cli" 2>&1 &
	cpid=$!
	# never kill rping while iw_cm is in CONN_SENT: wait for the CM
	if ! wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" "$cli"; then
		wait "$cpid"
		fail "the connect did not reach ESTABLISHED: $(<"$cli") / server: $(<"$srv") / $(log_since | tail -20)"
	fi
	rping_pings_verified 300 "$cpid" "$cli" "$PINGS" ||
		fail "client: $(<"$cli") / server: $(<"$srv")"
	rping_server_done 30 spid "$srv" "$PINGS"
	echo "port $port: $PINGS pings verified both ways"
}

log_mark 61-gen1-iwarp
need_user rping librdmacm
load_irdma_sim
sim_iwarp_pair_netns $ns $ns0 gen1
for fn in 0 1; do
	sim_wait_counts 60 1 $fn cqp live
	grep -qx "gen: 1" /sys/kernel/debug/irdma_sim/irdma_sim$fn/state ||
		fail "function $fn is not gen1"
done
ip -n $ns addr add 2001:db8::2/64 dev isim1 nodad ||
	fail "IPv6 on isim1 in $ns"
take_baseline "qhash apbvt_ports" 0 1
echo "baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}; function 1: ${IRDMA_BASE_OBJ[1]}"

step "IPv4 across the wire"
read -r tx0 rx0 lo0 <<<"$(sim_counts 0 wire tx rx looped)"
read -r tx1 rx1 lo1 <<<"$(sim_counts 1 wire tx rx looped)"
read -r c0 <<<"$(sim_counts 0 toe closed)"
read -r c1 <<<"$(sim_counts 1 toe closed)"
rping_run $ns 192.0.2.2 $ns0 192.0.2.2 7174
read -r tx0b rx0b lo0b <<<"$(sim_counts 0 wire tx rx looped)"
read -r tx1b rx1b lo1b <<<"$(sim_counts 1 wire tx rx looped)"
echo "function 0 wire tx/rx/looped $tx0/$rx0/$lo0 -> $tx0b/$rx0b/$lo0b; function 1 $tx1/$rx1/$lo1 -> $tx1b/$rx1b/$lo1b"
((tx0b - tx0 >= 3 * PINGS && rx0b - rx0 >= 3 * PINGS)) ||
	fail "function 0 moved too few frames"
((tx1b - tx1 >= 3 * PINGS && rx1b - rx1 >= 3 * PINGS)) ||
	fail "function 1 moved too few frames"
if [ "$lo0b" != "$lo0" ] || [ "$lo1b" != "$lo1" ]; then
	fail "frames looped instead of crossing the wire"
fi
# each engine offloaded the connection and closed it
read -r c0b <<<"$(sim_counts 0 toe closed)"
read -r c1b <<<"$(sim_counts 1 toe closed)"
((c0b > c0 && c1b > c1)) ||
	fail "no offloaded connection on each engine (closes $c0 -> $c0b, $c1 -> $c1b)"
wait_baseline "IPv4 across the wire"

step "IPv6 with both ends on isim1"
read -r lo1 <<<"$(sim_counts 1 wire looped)"
rping_run $ns 2001:db8::2 $ns 2001:db8::2 7176
read -r lo1b <<<"$(sim_counts 1 wire looped)"
echo "function 1 looped $lo1 -> $lo1b"
((lo1b - lo1 >= 3 * PINGS)) || fail "function 1 did not turn its frames around"
wait_baseline "IPv6 on one function"

trap - EXIT
sim_pair_remove $ns $ns0
echo "PASS: iWARP on gen1 functions, across the wire and on one function"
