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
#  - rping -V across the wire, both ways, against siw on function 1's
#    netdev (isim1, in network namespace upeer): upstream's CM resolves
#    routes and neighbours in the initial namespace only (ip_route_output
#    on init_net), so its end stays there and the two ends of a wire in
#    one kernel cannot both be upstream's;
#  - ib_write_bw -R, ITERS messages of 64 KiB, upstream to siw.
# Each connection's data is verified; after each, the RDMA resources and
# function 0's engine objects are back to their baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=upeer
PINGS=10
ITERS=20
shim=/run/irdma/run/bind-addr.so

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

log_mark 71-upstream-iwarp
need_user rping librdmacm libirdma
command -v ib_write_bw >/dev/null || skip "perftest is not installed"
[ -e /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so ] ||
	skip "libsiw (ibverbs-providers) is not installed"
[ -f $shim ] || fail "no $shim: the harness builds it when librdmacm-dev is installed"
load_irdma_upstream
kmod siw || skip "no siw module in this kernel"
echo "0 iwarp gen2 upstream" >/sys/bus/irdma_sim/new_device || fail "create 0"
echo "1 iwarp gen2 upstream" >/sys/bus/irdma_sim/new_device || fail "create 1"
echo irdma_sim.upstream.1 >/sys/bus/auxiliary/drivers/irdma_upstream.sim/unbind ||
	fail "unbind upstream from function 1"
ip netns add $ns || fail "namespace $ns"
ip link set isim1 netns $ns || fail "isim1 to $ns"
ip -batch - <<EOF || fail "isim0 up with 192.0.2.1/24"
link set isim0 up
addr add 192.0.2.1/24 dev isim0
EOF
ip -n $ns -batch - <<EOF || fail "isim1 up with 192.0.2.2/24 in $ns"
link set lo up
link set isim1 up
addr add 192.0.2.2/24 dev isim1
EOF
ip netns exec $ns rdma link add siw0 type siw netdev isim1 || fail "siw on isim1"
sim_function0_dev dev0
take_baseline "qps stags qhash apbvt_ports ahs" 0
echo "$dev0 (upstream) and siw0; baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}"

step "rping -V over a loopback on function 0 ($dev0)"
read -r looped0 <<<"$(sim_counts 0 wire looped)"
rping_run "" 192.0.2.1 "" 7711
read -r looped1 <<<"$(sim_counts 0 wire looped)"
((looped1 > looped0)) || fail "function 0 looped no frame"
wait_baseline loopback

step "rping -V across the wire, upstream to siw and siw to upstream"
read -r tx0 <<<"$(sim_counts 0 toe tx)"
rping_run $ns 192.0.2.2 "" 7712
rping_run "" 192.0.2.1 $ns 7713
read -r tx1 <<<"$(sim_counts 0 toe tx)"
((tx1 - tx0 >= 6 * PINGS)) ||
	fail "function 0's engine sent $((tx1 - tx0)) segments for $((2 * PINGS)) pings"
wait_baseline wire

step "ib_write_bw -R, $ITERS x 65536 bytes, upstream to siw"
# the listener bound to siw's address (tools/guest/bind-addr.c)
ip netns exec $ns env LD_PRELOAD=$shim IRDMA_BIND_ADDR=192.0.2.2 \
	ib_write_bw -R -F -d siw0 -p 7714 -s 65536 -n $ITERS \
	>/tmp/71-bw-srv.txt 2>&1 &
spid=$!
pause 3
timeout 600 ib_write_bw -R -F -d "$dev0" -p 7714 -s 65536 -n $ITERS \
	192.0.2.2 >/tmp/71-bw-cli.txt 2>&1 ||
	fail "ib_write_bw client: $(</tmp/71-bw-cli.txt) / server: $(</tmp/71-bw-srv.txt)"
wait_exit 60 "$spid" || kill "$spid"
wait "$spid" || fail "ib_write_bw server: $(</tmp/71-bw-srv.txt)"
spid=
res=
while read -r -a w; do
	[ "${w[0]:-}" = 65536 ] && [ "${w[1]:-}" = $ITERS ] && res=${w[*]}
done </tmp/71-bw-cli.txt
[ -n "$res" ] || fail "ib_write_bw printed no result: $(</tmp/71-bw-cli.txt)"
echo "ib_write_bw: $res"
wait_baseline ib_write_bw

step "remove"
ip netns exec $ns rdma link del siw0 || fail "remove siw0"
ip -n $ns link set isim1 netns 1 || fail "isim1 back"
ip netns del $ns || fail "delete $ns"
echo 1 >/sys/bus/irdma_sim/del_device || fail "delete 1"
echo 0 >/sys/bus/irdma_sim/del_device || fail "delete 0"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
sim_unload
rmmod siw || fail "rmmod siw"
upstream_done
echo "upstream irdma: rping over a loopback and across the wire against siw both ways, ib_write_bw -R, nothing left behind"
