#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 40
#
# Partial FPDUs: the IEQ. As in 53-iw-terminate.sh, a librdmacm server on
# function 0 accepts an MPA v2 request from a kernel TCP socket in function
# 1's namespace, with a user QP, and the peer speaks MPA and DDP itself. It
# cuts its FPDUs across TCP segments (TCP_NODELAY, a pause between sends),
# which the engine cannot place on its own:
#
# 1. the server posts an RDMA READ of 1800 bytes; the peer answers with two
#    READ RESPONSE FPDUs (1000 and 800 bytes) sent as segments of 700, 500
#    and 640 bytes. The engine hands them to the IEQ, the driver puts the
#    FPDUs together and gives them back, the READ completes and its sink
#    holds exactly the peer's bytes.
# 2. the peer then WRITEs 200 and then 300 bytes into that sink (whose
#    STag its READ request named), cut after the first FPDU and 100 bytes
#    of the second: the engine places the first itself, the IEQ the
#    second; the sink must show both.
# 3. on another connection, after an aligned READ response, the test
#    holds the IEQ's sends in the engine (stall_raw_tx) while the peer
#    sends 80 small WRITEs, each segment completing one FPDU: the driver
#    runs out of its 32 send buffers, the FPDUs wait (ieq_waits), and when
#    the engine goes on they all land, the driver's counts of segments and
#    sends matching the engine's.
# 4. on a third connection the peer sends a WRITE whose CRC is wrong, cut
#    in two: the driver finds the bad CRC, the engine raises the MPA CRC
#    error, and the peer gets our TERMINATE naming it (MPA layer, CRC
#    error, no headers) and then our FIN; nothing is placed.
#
# The simulator's toe line counts the episodes and the segments to and
# from the IEQ, the port counters what the driver did; after each case the
# engine's objects are back to where they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

state=/sys/kernel/debug/irdma_sim/irdma_sim0/state
ns=partpeer
pdata=partial-58

objects() {
	sim_counts 0 objects qps stags qhash apbvt_ports ahs
}

cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	[ -n "${ppid_:-}" ] && kill "$ppid_" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

# the server: accept with a user QP; case "data": an RDMA READ of 1800
# bytes into a sink the peer may write, its completion, the sink checked,
# then the peer's WRITEs into it checked; then wait for DISCONNECTED and
# destroy everything. Case "badcrc": just wait for DISCONNECTED.
server() {
	python3 -u "$IRDMA_REPO/tools/guest/partial_server.py" 192.0.2.1 "$1" $pdata "$2" \
		>"$3" 2>&1 &
	lpid=$!
	wait_line 300 listening "$3" || fail "server not listening: $(<"$3")"
	# the listener's SYN filter is in the engine (create_listen waits for
	# it); a peer arriving before it would meet the host stack's RST
	wait_qhash_above 60 0 0 ||
		fail "no SYN filter on function 0: $(<"$3")"
}

# the peer in $ns: MPA v2 request, the reply, the RTR, then case $2
peer() {
	ip netns exec $ns python3 -u "$IRDMA_REPO/tools/guest/partial_peer.py" 192.0.2.1 "$1" $pdata "$2" \
		>"$3" 2>&1 &
	ppid_=$!
}

# 62-gen1-partial.sh runs the same on gen1 functions
log_mark "${IRDMA_PARTIAL_NAME:-58-iw-partial}"
need_user librdmacm libirdma
load_irdma_sim
sim_iwarp_pair_netns $ns "" "${IRDMA_SIM_GEN:-gen2}"
base=$(objects) || fail "no object counts in $state"
read -r qps0 stags0 _ <<<"$base"
declare -A cnt

step "a READ response and two WRITEs cut across segments, put together"
server 7058 data /tmp/58-data-server.txt
peer 7058 data /tmp/58-data-peer.txt
mpa_case_done 58 data
n=$(sim_counts 0 toe partials to_ieq from_ieq ieq_bad) ||
	fail "no toe line in $state"
echo "engine: partials, to IEQ, from IEQ, refused: $n"
read -r parts to from refused <<<"$n"
# READ: one episode, 3 segments to the IEQ, 2 sends back (one FPDU each);
# WRITEs: the first placed by the engine, then 2 segments and 1 send
[ "$parts" = 2 ] || fail "$parts partial episodes, wanted 2"
[ "$to" = 5 ] || fail "$to segments to the IEQ, wanted 5"
[ "$from" = 3 ] || fail "$from segments back from the IEQ, wanted 3"
[ "$refused" = 0 ] || fail "$refused segments from the IEQ refused"
port_counters "$(ibdev_of 0)"
echo "driver: episodes ${cnt[ieq_episodes]:-} segs ${cnt[ieq_segs]:-} fpdus ${cnt[ieq_fpdus]:-} sends ${cnt[ieq_sends]:-} bad ${cnt[ieq_bad_fpdu]:-}"
want="2 5 3 3 0 0"
got="${cnt[ieq_episodes]:-} ${cnt[ieq_segs]:-} ${cnt[ieq_fpdus]:-}"
got+=" ${cnt[ieq_sends]:-} ${cnt[ieq_bad_fpdu]:-} ${cnt[ieq_no_conn]:-}"
[ "$got" = "$want" ] ||
	fail "IEQ episodes, segments, FPDUs, sends, bad FPDUs, no connection: $got, wanted $want"

step "more complete FPDUs than send buffers: they wait for one"
# the driver has 32 send buffers; while the engine holds the IEQ's sends
# the peer completes 80 FPDUs one segment at a time
dbg=/sys/kernel/debug/irdma_sim/irdma_sim0
rm -f /tmp/58-stalled /tmp/58-sent /tmp/58-placed
read -r parts0 to0 from0 _ <<<"$(sim_counts 0 toe partials to_ieq from_ieq)"
port_counters "$(ibdev_of 0)"
segs0=${cnt[ieq_segs]:-0} fpdus0=${cnt[ieq_fpdus]:-0} sends0=${cnt[ieq_sends]:-0}
server 7060 burst /tmp/58-burst-server.txt
peer 7060 burst /tmp/58-burst-peer.txt
wait_line 300 "READ complete*" /tmp/58-burst-server.txt ||
	fail "the READ did not complete: $(</tmp/58-burst-server.txt)"
echo Y >$dbg/stall_raw_tx
touch /tmp/58-stalled
for _ in $(seq 600); do
	[ -e /tmp/58-sent ] && break
	sleep 0.5
done
[ -e /tmp/58-sent ] || fail "the peer did not send its WRITEs: $(</tmp/58-burst-peer.txt)"
sleep 2
port_counters "$(ibdev_of 0)"
echo "held: ieq_waits ${cnt[ieq_waits]:-} ieq_sends ${cnt[ieq_sends]:-}"
[ "${cnt[ieq_waits]:-0}" -ge 1 ] ||
	fail "no stream waited for a send buffer: ieq_waits ${cnt[ieq_waits]:-missing}"
echo N >$dbg/stall_raw_tx
mpa_case_done 58 burst
n=$(sim_counts 0 toe partials to_ieq from_ieq ieq_bad) ||
	fail "no toe line in $state"
read -r parts to from refused <<<"$n"
port_counters "$(ibdev_of 0)"
echo "engine: episodes $((parts - parts0)) to IEQ $((to - to0)) from IEQ $((from - from0)); driver: segments $((cnt[ieq_segs] - segs0)) FPDUs $((cnt[ieq_fpdus] - fpdus0)) sends $((cnt[ieq_sends] - sends0))"
[ $((parts - parts0)) = 1 ] || fail "$((parts - parts0)) episodes, wanted 1"
[ $((cnt[ieq_fpdus] - fpdus0)) = 80 ] ||
	fail "$((cnt[ieq_fpdus] - fpdus0)) FPDUs handed back, wanted 80"
[ $((cnt[ieq_segs] - segs0)) = $((to - to0)) ] ||
	fail "the driver took $((cnt[ieq_segs] - segs0)) segments, the engine handed it $((to - to0))"
[ $((cnt[ieq_sends] - sends0)) = $((from - from0)) ] ||
	fail "the driver sent $((cnt[ieq_sends] - sends0)) back, the engine placed $((from - from0))"
[ "$refused" = 0 ] || fail "$refused segments from the IEQ refused"

step "a WRITE with a bad CRC cut across segments: our TERMINATE"
server 7059 badcrc /tmp/58-badcrc-server.txt
peer 7059 badcrc /tmp/58-badcrc-peer.txt
mpa_case_done 58 badcrc
port_counters "$(ibdev_of 0)"
[ "${cnt[ieq_bad_fpdu]:-}" = 1 ] ||
	fail "ieq_bad_fpdu is ${cnt[ieq_bad_fpdu]:-missing}, wanted 1"
n=$(sim_counts 0 toe term_tx) || fail "no toe line in $state"
[ "$n" = 1 ] || fail "TERMINATEs sent: $n, wanted 1"

step "remove"
sim_pair_remove $ns
echo "partial FPDUs put together by the IEQ and placed; a bad CRC in one"
echo "ended its connection with a TERMINATE; nothing left behind"
