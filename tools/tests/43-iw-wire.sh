#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 1200
# irdma-vm-secs: 50
#
# iWARP end to end between two simulated functions on the wire, both
# through irdma, each end in a network namespace of its own: function 1's
# netdev (isim1) in wirepeer, where the servers run, function 0's (isim0)
# in wirehost, where the clients run (ip netns exec). The CM of each
# function resolves its addresses, routes and neighbours in its own
# netdev's namespace. Each connection must
# be offloaded on both engines (one toe connection each), its frames must
# cross the wire (the wire tx/rx counters of both functions move, looped
# does not), and rping's -V checks every buffer.
#  - IPv4, a listener on 192.0.2.2: rping -C $PINGS, with the first two
#    data segments function 1's engine sends lost on the way
#    (drop_toe_segs: the LSMM with the MPA reply, then the first FPDU):
#    its retransmission timer sends them again, and every ping verifies.
#  - IPv6 (nodad addresses), a wildcard listener (rping -s -a ::): rping
#    -C $PINGS to 2001:db8::2.
#  - A librdmacm listener that rejects: rping -c gets
#    RDMA_CM_EVENT_REJECTED (-ECONNREFUSED) and exits non-zero.
#  - No listener on the port: isim1's own TCP stack answers the SYN with
#    a RST, the CM reports it as a refused connect (RDMA_CM_EVENT_REJECTED,
#    -ECONNREFUSED), within seconds rather than the CM's SYN retransmission
#    timeout of about a minute.
# After each, the RDMA resources (rdma res show) and the engines' objects
# (quad hash filters, accelerated ports, AHs, toe connections) are back to
# what they were before it.
# The client's close (rdma_disconnect) reaches the server as the engine's
# FIN: the server must then exit on its own, successfully.
# PINGS: under TCG 20 verified pings took 25 s, so 100 would take over
# two minutes per connection.
#
# Loops use shell builtins: under TCG every exec costs.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=wirepeer
ns0=wirehost
PINGS=20

kill_on_exit spid
netns_del_on_exit $ns $ns0

# wire "tx rx looped", toe "tx rx", wire "dropped", toe "retrans" of
# function $1
traffic() {
	local w t

	w=$(sim_counts "$1" wire tx rx looped) || return 1
	t=$(sim_counts "$1" toe tx rx) || return 1
	echo "$w $t $(sim_counts "$1" wire dropped) $(sim_counts "$1" toe retrans)"
}

# rping between the functions: server in $ns listening on $1, client in
# $ns0 connecting to $2, port $3; both must verify $PINGS pings. With $4, that
# many of the data segments function 1's engine sends are lost.
rping_pair() {
	local la=$1 ca=$2 port=$3 drop=${4:-0} cpid rc n i t0 t1 f c before q0
	local a0 a1 b0 b1 srv=/tmp/43-srv-$3.txt cli=/tmp/43-cli-$3.txt

	read -r -a a0 <<<"$(traffic 0)" || fail "no traffic counters"
	read -r -a a1 <<<"$(traffic 1)" || fail "no traffic counters"
	local closed=()
	read -r "closed[0]" <<<"$(sim_counts 0 toe closed)" ||
		fail "no close counter"
	read -r "closed[1]" <<<"$(sim_counts 1 toe closed)" ||
		fail "no close counter"
	ip netns exec $ns stdbuf -oL rping -s -d -v -V -a "$la" -p "$port" \
		>"$srv" 2>&1 &
	spid=$!
	# the listen reaches both functions (rdma_cm listens on every device)
	read -r q0 _ <<<"${IRDMA_BASE_OBJ[1]}"
	wait_qhash_above 60 1 "$q0" ||
		fail "no SYN filter on function 1: $(<"$srv")"
	echo "$drop" >/sys/kernel/debug/irdma_sim/irdma_sim1/drop_toe_segs
	printf -v t0 '%(%s)T' -1
	ip netns exec $ns0 stdbuf -oL rping -c -d -v -V -a "$ca" -p "$port" \
		-C "$PINGS" >"$cli" 2>&1 &
	cpid=$!
	# never kill rping while iw_cm is in CONN_SENT (destroy_cm_id() BUG):
	# if the connect does not get through, wait for the CM to report
	if ! wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" "$cli"; then
		wait "$cpid"
		fail "the connect did not reach ESTABLISHED: $(<"$cli") / server: $(<"$srv")"
	fi
	wait_line 60 "*RDMA_CM_EVENT_ESTABLISHED*" "$srv" ||
		fail "the server did not reach ESTABLISHED: $(<"$srv")"
	# one offloaded connection on each engine, not two on one; a fast
	# run may be over before the first look, and then each engine has
	# closed its end already (the engine closes an offloaded connection
	# when the client's rdma_disconnect comes)
	for f in 0 1; do
		before=${closed[f]}
		for ((i = 0; i < 30; i++)); do
			read -r n c <<<"$(sim_counts $f toe conns closed)"
			((n == 1 || c > before)) && break
			pause 1
		done
		((n == 1 || c > before)) ||
			fail "function $f: no offloaded connection (conns $n, closes $before -> $c)"
		((n <= 1)) || fail "function $f: $n offloaded connections, not 1"
	done
	if ! rping_pings_verified 600 "$cpid" "$cli" "$PINGS"; then
		# a lost frame stalls the connection: the engine does not
		# retransmit; say where frames went
		echo "function 0: $(sim_counts 0 toe conns tx rx dropped ooo retrans timeouts) / wire $(sim_counts 0 wire tx rx dropped)"
		echo "function 1: $(sim_counts 1 toe conns tx rx dropped ooo retrans timeouts) / wire $(sim_counts 1 wire tx rx dropped)"
		fail "client: $(<"$cli") / server: $(<"$srv")"
	fi
	printf -v t1 '%(%s)T' -1
	echo "client: $PINGS pings verified, $((t1 - t0)) s from start to exit"
	if ((drop)); then
		read -r n </sys/kernel/debug/irdma_sim/irdma_sim1/drop_toe_segs
		echo 0 >/sys/kernel/debug/irdma_sim/irdma_sim1/drop_toe_segs
		[ "$n" = 0 ] || fail "$n of $drop segments to lose were not sent"
	fi
	read -r -a b0 <<<"$(traffic 0)"
	read -r -a b1 <<<"$(traffic 1)"
	echo "function 0 wire tx/rx/looped ${a0[*]:0:3} -> ${b0[*]:0:3}, toe tx/rx ${a0[*]:3:2} -> ${b0[*]:3:2}, wire dropped ${a0[5]} -> ${b0[5]}, toe retrans ${a0[6]} -> ${b0[6]}"
	echo "function 1 wire tx/rx/looped ${a1[*]:0:3} -> ${b1[*]:0:3}, toe tx/rx ${a1[*]:3:2} -> ${b1[*]:3:2}, wire dropped ${a1[5]} -> ${b1[5]}, toe retrans ${a1[6]} -> ${b1[6]}"
	# per ping the client sends 2 SENDs and a READ response, the server a
	# READ request, a WRITE and 2 SENDs: each engine sends and takes at
	# least 3 segments of its own connection per ping, and all of them
	# cross the wire, none loops back
	for i in 0 1; do
		local -n a=a$i b=b$i
		((b[3] - a[3] >= 3 * PINGS && b[4] - a[4] >= 3 * PINGS)) ||
			fail "function $i's engine moved too few segments"
		((b[0] - a[0] >= b[3] - a[3] && b[1] - a[1] >= b[4] - a[4])) ||
			fail "function $i: fewer frames on the wire than offloaded segments"
		[ "${b[2]}" = "${a[2]}" ] ||
			fail "function $i looped frames instead of sending them"
		unset -n a b
	done
	# each lost segment was sent again (a resend may carry more)
	if ((drop)); then
		((b1[5] - a1[5] >= drop)) ||
			fail "function 1 lost $((b1[5] - a1[5])) frames, not $drop"
		((b1[6] - a1[6] >= drop)) ||
			fail "function 1 sent $((b1[6] - a1[6])) segments again for $drop lost"
	fi
	# the client's rdma_disconnect reaches the server as a FIN
	wait_exit 30 "$spid" ||
		fail "the server did not see the client's close: $(<"$srv")"
	wait "$spid"
	rc=$?
	[ "$rc" = 0 ] || fail "rping -s exited $rc: $(<"$srv")"
	spid=
	n=$(rping_pings "$srv" server)
	[ "$n" = "$PINGS" ] ||
		fail "rping -s verified $n pings, not $PINGS: $(<"$srv")"
	echo "server: $n pings verified"
}

log_mark 43-iw-wire
need_user rping librdmacm
load_irdma_sim
sim_iwarp_pair_netns $ns $ns0
ip -n $ns0 addr add 2001:db8::1/64 dev isim0 nodad || fail "IPv6 on isim0"
ip -n $ns addr add 2001:db8::2/64 dev isim1 nodad ||
	fail "IPv6 on isim1 in $ns"
take_baseline "qhash apbvt_ports ahs" 0 1
echo "baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}; function 1: ${IRDMA_BASE_OBJ[1]}"

step "IPv4: rping, listener on 192.0.2.2 in $ns, $PINGS pings, 2 segments lost"
rping_pair 192.0.2.2 192.0.2.2 7431 2
wait_baseline IPv4

step "IPv6: rping, wildcard listener in $ns, $PINGS pings"
rping_pair :: 2001:db8::2 7432
wait_baseline IPv6

step "a librdmacm listener in $ns rejects"
ip netns exec $ns python3 -u "$IRDMA_REPO/tools/guest/iwcm.py" reject 192.0.2.2 7433 \
	wire-reject-43 >/tmp/43-rej.txt 2>&1 &
spid=$!
wait_line 300 listening /tmp/43-rej.txt ||
	fail "listener not listening: $(</tmp/43-rej.txt)"
ip netns exec $ns0 rping -c -d -a 192.0.2.2 -p 7433 -C 1 \
	>/tmp/43-rej-cli.txt 2>&1
rc=$?
echo "client (exit $rc): $(</tmp/43-rej-cli.txt)"
wait "$spid"
lrc=$?
spid=
echo "listener: $(</tmp/43-rej.txt)"
[ "$lrc" = 0 ] || fail "the rejecting listener exited $lrc"
[ "$rc" != 0 ] || fail "rping -c exited 0 on a rejected connect"
# an MPA reject reaches iw_cm as CONNECT_REPLY -ECONNREFUSED
[ "$(count_lines /tmp/43-rej-cli.txt 'RDMA_CM_EVENT_REJECTED, error -111')" != 0 ] ||
	fail "rping -c did not get RDMA_CM_EVENT_REJECTED with -ECONNREFUSED"
wait_baseline reject

step "no listener on the port"
read -r itx0 <<<"$(sim_counts 0 ilq tx)" || fail "no ILQ counters"
read -r irx1 <<<"$(sim_counts 1 ilq rx)" || fail "no ILQ counters"
printf -v t0 '%(%s)T' -1
ip netns exec $ns0 rping -c -d -a 192.0.2.2 -p 7434 -C 1 \
	>/tmp/43-none.txt 2>&1
rc=$?
printf -v t1 '%(%s)T' -1
read -r itx <<<"$(sim_counts 0 ilq tx)"
read -r irx <<<"$(sim_counts 1 ilq rx)"
echo "client ($((t1 - t0)) s, exit $rc): $(</tmp/43-none.txt)"
echo "function 0 ILQ sent $((itx - itx0)), function 1 ILQ took $((irx - irx1))"
[ "$rc" != 0 ] || fail "rping -c exited 0 without a listener"
# isim1's own TCP stack answered the SYN (no filter steered it to the
# ILQ) with a RST: refused, as connect(2) would report it
[ "$(count_lines /tmp/43-none.txt 'RDMA_CM_EVENT_REJECTED, error -111')" != 0 ] ||
	fail "no RDMA_CM_EVENT_REJECTED with -ECONNREFUSED"
((irx == irx1)) || fail "function 1's ILQ took segments without a listener"
# one SYN, answered at once (at most one retransmission, after 1 s); the
# CM would give up on unanswered SYNs only after about a minute. The time
# includes starting rping and resolving the address.
((itx - itx0 >= 1 && itx - itx0 <= 2)) ||
	fail "the CM sent $((itx - itx0)) segments for one refused SYN"
((t1 - t0 < 30)) || fail "the refused connect took $((t1 - t0)) s"
wait_baseline "no listener"

step "remove"
sim_pair_remove $ns $ns0
echo "rping between two functions, each in a namespace of its own, (IPv4, IPv6 wildcard) with verified data on both engines, a rejected connect and a refused one, nothing left behind"
