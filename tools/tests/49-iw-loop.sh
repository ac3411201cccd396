#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 27
#
# Loopback on one function: a single simulated iWARP function, with no
# second function wired to it (so no carrier), connects to its own
# address. Both ends of each connection are on the same engine: the SYN,
# the MPA exchange and then the offloaded connection's segments are
# turned around by the adapter's switch (the wire's looped counter moves),
# and the engine holds two offloaded connections, one
# per end.
#  - IPv4, listener on the address: rping -C 100 with -V checking every
#    buffer, on both ends.
#  - The port counters (rdma statistic, sysfs hw_counters) after the IPv4
#    connection. The connection manager's: one connect, one accept, the
#    SYN and both MPA frames through the ILQ, no malformed frame. The
#    engine's (GATHER_STATS): TCP segments and IPv4 packets both ways, and
#    every RDMA message rping sends (per ping 4 SENDs, a READ, a WRITE)
#    counted out and, on this one function, in.
#  - IPv6, wildcard listener: rping -C 20.
# After each, the RDMA resources and the engine's objects are back where
# they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim

kill_on_exit spid cpid

# rping on function 0 to itself: listener on $1, client to $2, port $3,
# $4 pings
rping_self() {
	local la=$1 ca=$2 port=$3 pings=$4 n i t0 t1 lp0 lp1 seen=0 c0 c
	local srv=/tmp/49-srv-$3.txt cli=/tmp/49-cli-$3.txt sc0 ki0 id0 un0 sc1 ki1 id1 un1

	read -r lp0 <<<"$(sim_counts 0 wire looped)" || fail "no wire counters"
	read -r sc0 ki0 id0 un0 <<<"$(sim_counts 0 exec scans kicks idle unasked)" ||
		fail "no exec counters"
	read -r c0 <<<"$(sim_counts 0 toe closed)" || fail "no toe counters"
	stdbuf -oL rping -s -d -v -V -a "$la" -p "$port" >"$srv" 2>&1 &
	# shellcheck disable=SC2034 # read by name: kill_on_exit, rping_server_done
	spid=$!
	# the listen reaches the engine as SYN filters (a wildcard one per
	# address of the netdev)
	wait_qhash_above 60 0 "${IRDMA_BASE_OBJ[0]%% *}" ||
		fail "no SYN filter: $(<"$srv")"
	printf -v t0 '%(%s)T' -1
	stdbuf -oL rping -c -d -v -V -a "$ca" -p "$port" -C "$pings" \
		>"$cli" 2>&1 &
	cpid=$!
	# never kill rping while iw_cm is in CONN_SENT: wait for the CM
	if ! wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" "$cli"; then
		wait "$cpid"
		fail "the connect did not reach ESTABLISHED: $(<"$cli") / server: $(<"$srv")"
	fi
	# both ends offloaded on this one engine (or already closed again)
	for ((i = 0; i < 30; i++)); do
		read -r n c <<<"$(sim_counts 0 toe conns closed)"
		((n == 2)) && seen=1 && break
		((c >= c0 + 2)) && break
		pause 1
	done
	((seen || c >= c0 + 2)) ||
		fail "not two offloaded connections on the engine: conns $n, closes $c0 -> $c"
	rping_pings_verified 300 "$cpid" "$cli" "$pings" ||
		fail "$(<"$cli") / server: $(<"$srv")"
	cpid=
	printf -v t1 '%(%s)T' -1
	rping_server_done 30 spid "$srv" "$pings"
	read -r lp1 <<<"$(sim_counts 0 wire looped)"
	read -r sc1 ki1 id1 un1 <<<"$(sim_counts 0 exec scans kicks idle unasked)"
	echo "$pings pings verified on both ends in $((t1 - t0)) s; frames looped by the switch: $((lp1 - lp0))"
	# information, not a verdict: a guard pass may catch rping between
	# its WQE and its doorbell (Documentation/sim.rst)
	echo "engine passes: $((sc1 - sc0)) looked at every SQ," \
		"$((ki1 - ki0)) at kicked QPs only, $((id1 - id0)) had no reason to;" \
		"work found by the guard pass alone: $((un1 - un0))"
	# per ping at least 6 segments of the two offloaded connections
	((lp1 - lp0 >= 6 * pings)) ||
		fail "only $((lp1 - lp0)) frames looped for $pings pings"
}

log_mark 49-iw-loop
need_user rping
load_irdma_sim
echo "0 iwarp" >$bus/new_device || fail "create 0"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
ip addr add 2001:db8::1/64 dev isim0 nodad || fail "IPv6 on isim0"
sim_wait_counts 60 1 0 cqp live
take_baseline "qhash apbvt_ports ahs" 0
echo "baseline: $IRDMA_BASE_RES; engine: ${IRDMA_BASE_OBJ[0]}"

step "IPv4: rping -C 100 to the function's own address"
rping_self 192.0.2.1 192.0.2.1 7491 100
wait_baseline IPv4

step "the port counters after one connection"
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device on function 0"
declare -A cnt
port_counters "$dev"
out=$cnt_line
line="rdma statistic show link $dev/1:"
engine="ip4InPkts ip4OutPkts tcpInSegs tcpOutSegs iwOutRdmaSends iwInRdmaSends"
engine+=" iwOutRdmaReads iwInRdmaReads iwOutRdmaWrites iwInRdmaWrites"
for c in cm_connects cm_accepts cm_syn_rx cm_mpa_req_rx cm_mpa_rep_rx ilq_rx ilq_tx $engine; do
	line+=" $c ${cnt[$c]:-?}"
done
echo "$line"
# one rping: one connect and one accept, on the same device
[ "${cnt[cm_connects]:-}" = 1 ] || fail "cm_connects is ${cnt[cm_connects]:-missing}, not 1: $out"
[ "${cnt[cm_accepts]:-}" = 1 ] || fail "cm_accepts is ${cnt[cm_accepts]:-missing}, not 1: $out"
for c in cm_syn_rx cm_mpa_req_rx cm_mpa_rep_rx; do
	[ "${cnt[$c]:-0}" -ge 1 ] || fail "$c is ${cnt[$c]:-missing} after a connection: $out"
done
# received through the ILQ at least: SYN, SYN-ACK, MPA request and reply;
# sent: SYN, SYN-ACK, MPA request (the reply leaves from the engine)
[ "${cnt[ilq_rx]:-0}" -ge 4 ] || fail "ilq_rx is ${cnt[ilq_rx]:-missing}: $out"
[ "${cnt[ilq_tx]:-0}" -ge 3 ] || fail "ilq_tx is ${cnt[ilq_tx]:-missing}: $out"
for c in cm_rx_malformed cm_mpa_bad ilq_bad_cqe ilq_tx_err; do
	[ "${cnt[$c]:-}" = 0 ] || fail "$c is ${cnt[$c]:-missing}, not 0: $out"
done
# the engine: 100 pings of 4 SENDs, a READ and a WRITE, each counted
# when it leaves and when it arrives; the segments that carried them
for c in iwOutRdmaSends iwInRdmaSends; do
	[ "${cnt[$c]:-0}" -ge 400 ] || fail "$c is ${cnt[$c]:-missing}, not >= 400: $out"
done
for c in iwOutRdmaReads iwInRdmaReads iwOutRdmaWrites iwInRdmaWrites; do
	[ "${cnt[$c]:-0}" -ge 100 ] || fail "$c is ${cnt[$c]:-missing}, not >= 100: $out"
done
for c in Sends Reads Writes; do
	[ "${cnt[iwOutRdma$c]}" = "${cnt[iwInRdma$c]}" ] ||
		fail "RDMA $c: ${cnt[iwOutRdma$c]} out, ${cnt[iwInRdma$c]} in, on one function"
done
for c in ip4InPkts ip4OutPkts tcpInSegs tcpOutSegs; do
	[ "${cnt[$c]:-0}" -ge 600 ] || fail "$c is ${cnt[$c]:-missing}, not >= 600: $out"
done
for c in ip6InPkts ip6OutPkts tcpInProtoErrors; do
	[ "${cnt[$c]:-}" = 0 ] || fail "$c is ${cnt[$c]:-missing}, not 0: $out"
done
hc=/sys/class/infiniband/$dev/ports/1/hw_counters
[ "$(cat "$hc/cm_connects" 2>/dev/null)" = 1 ] ||
	fail "sysfs $hc/cm_connects: $(cat "$hc/cm_connects" 2>&1)"
[ "$(cat "$hc/iwOutRdmaReads" 2>/dev/null)" -ge 100 ] 2>/dev/null ||
	fail "sysfs $hc/iwOutRdmaReads: $(cat "$hc/iwOutRdmaReads" 2>&1)"

step "IPv6: rping -C 20, wildcard listener"
rping_self :: 2001:db8::1 7492 20
wait_baseline IPv6

step "remove"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "loopback on one function without a link: rping -C 100 (IPv4) and -C 20 (IPv6 wildcard) verified, nothing left behind"
