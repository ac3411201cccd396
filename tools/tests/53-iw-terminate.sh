#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 44
#
# TERMINATE (RFC 5040, 5.4 and 7) both ways, against a peer that is not our
# code. As in 42-cm-accept.sh, a librdmacm server on function 0 accepts an
# MPA v2 request from a kernel TCP socket in function 1's namespace, with a
# user QP. Then the peer, which speaks MPA and DDP itself:
#
# 1. sends an RDMA WRITE to an STag that does not exist. The engine refuses
#    it and writes the segment to the QP's Q2; the driver must tell the
#    server's QP (IBV_EVENT_QP_ACCESS_ERR), build the TERMINATE in Q2 and
#    close the connection through the engine's TERMINATE state: the peer
#    must receive one FPDU, a TERMINATE (untagged, queue 2, MSN 1, MO 0,
#    opcode 7, a good CRC) saying "DDP tagged buffer error, invalid STag"
#    with the WRITE's segment length and DDP header, and then our FIN, not
#    an RST. The server gets RDMA_CM_EVENT_DISCONNECTED once the peer closes.
# 2. sends a TERMINATE of its own (RDMAP remote operation error, unexpected
#    opcode). The server's QP must get IBV_EVENT_QP_FATAL, the kernel log
#    must name the peer's error, and the peer must get our FIN and nothing
#    else; the server gets RDMA_CM_EVENT_DISCONNECTED.
# 3. sends the RTR (a zero-length WRITE) and waits for the server's
#    rdma_disconnect: our FIN, then the peer's, whose ACK the simulator
#    loses (drop_toe_acks). The engine, which closed first, keeps the
#    connection in TIME_WAIT: the peer's FIN, sent again by its TCP, must
#    be acknowledged again, and the peer's socket must reach CLOSED with
#    no error, not meet an RST or go on resending.
# 4. sends the RTR, and the server posts a SEND whose buffer has a local
#    key that does not exist. Its WQE fails in our engine: the server's QP
#    must get IBV_EVENT_QP_ACCESS_ERR and the peer one TERMINATE that names
#    a local catastrophic error (RDMAP, type 0, code 0, no headers: nothing
#    the peer sent was wrong), then our FIN; not an RST, and not silence.
# 5. sends the RTR; the server posts an RDMA READ from the peer and behind
#    it the same bad SEND, and closes (rdma_disconnect) while the READ
#    holds the SQ: our FIN waits behind the SQ. Only then does the peer
#    answer the READ; the SEND fails with the QP already closing, where no
#    TERMINATE can go and the engine will send no FIN. The connection must
#    be aborted at once: the READ's data placed, IBV_EVENT_QP_ACCESS_ERR,
#    DISCONNECTED, and the peer an RST with nothing before it, and not by
#    the CM's close timer (cm_close_timeouts, a port counter, unchanged).
#
# After each, the engine's objects are back to where they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

state=/sys/kernel/debug/irdma_sim/irdma_sim0/state
ns=termpeer
pdata=terminate-53

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

# the server: accept with a user QP (and post a SEND with a bad local key
# if $4 is "badkey"; with "readbad", an RDMA READ of 16 bytes and that
# SEND behind it, rdma_disconnect once /tmp/53-closing-disc exists, and
# /tmp/53-closing-go for the peer once the engine's QP is closing),
# wait for the QP's async event (it must be $2; none if negative: then
# close with rdma_disconnect), then for DISCONNECTED; destroy everything
server() {
	python3 -u "$IRDMA_REPO/tools/guest/terminate_server.py" 192.0.2.1 "$1" $pdata \
		"$2" "${4:-}" >"$3" 2>&1 &
	lpid=$!
	wait_line 300 listening "$3" || fail "server not listening: $(<"$3")"
}

# the peer in $ns: MPA v2 request, the reply, then what case $2 sends;
# case tw waits for $go between our FIN and its own
peer() {
	ip netns exec $ns python3 -u "$IRDMA_REPO/tools/guest/terminate_peer.py" 192.0.2.1 "$1" $pdata "$2" \
		>"$3" 2>&1 &
	ppid_=$!
}

# case $1 on port $2; the server's QP must get async event $3 ($4: what
# the server posts)
terminate_case() {
	server "$2" "$3" "/tmp/53-$1-server.txt" "${4:-}"
	peer "$2" "$1" "/tmp/53-$1-peer.txt"
	mpa_case_done 53 "$1"
}

log_mark 53-iw-terminate
need_user librdmacm libirdma
load_irdma_sim
for f in ae.c qp.c cm_hw.c; do
	echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
done
sim_iwarp_pair_netns $ns
base=$(objects) || fail "no object counts in $state"
read -r qps0 stags0 _ <<<"$base"

step "a WRITE to a bad STag: our TERMINATE, then our FIN"
# IBV_EVENT_QP_ACCESS_ERR
terminate_case write 7053 3
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "1 0" ] || fail "TERMINATEs sent and received: $n, wanted 1 0"

step "the peer's TERMINATE: reported, answered with our FIN"
# IBV_EVENT_QP_FATAL
terminate_case term 7054 1
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "1 1" ] || fail "TERMINATEs sent and received: $n, wanted 1 1"
line=$(log_since | grep -m1 'TERMINATE from the peer') ||
	fail "the peer's TERMINATE is not in the kernel log"
[[ $line == *"layer 0, type 2, code 0x06"* ]] ||
	fail "the peer's TERMINATE misread: $line"
echo "log: $line"

step "our own WQE's bad local key: a TERMINATE naming a local error, our FIN"
# IBV_EVENT_QP_ACCESS_ERR
terminate_case local 7056 3 badkey
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "2 1" ] || fail "TERMINATEs sent and received: $n, wanted 2 1"

step "a WQE that fails while our close waits behind it: an RST at once"
declare -A cnt
port_counters "$(ibdev_of 0)"
ct0=${cnt[cm_close_timeouts]:-x}
rm -f /tmp/53-closing-disc /tmp/53-closing-go
server 7057 3 /tmp/53-closing-server.txt readbad
peer 7057 closing /tmp/53-closing-peer.txt
wait_line 120 "READ request*" /tmp/53-closing-peer.txt ||
	fail "no READ request at the peer: $(</tmp/53-closing-peer.txt)"
touch /tmp/53-closing-disc
mpa_case_done 53 closing
port_counters "$(ibdev_of 0)"
[ "${cnt[cm_close_timeouts]:-y}" = "$ct0" ] ||
	fail "the close timer ended it: cm_close_timeouts $ct0 -> ${cnt[cm_close_timeouts]:-none}"
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "2 1" ] || fail "TERMINATEs sent and received: $n, wanted 2 1"

step "TIME_WAIT: the peer's FIN, sent again, acknowledged again"
rm -f /tmp/53-tw-go
server 7055 -1 /tmp/53-tw-server.txt
peer 7055 tw /tmp/53-tw-peer.txt
wait_line 120 FIN /tmp/53-tw-peer.txt ||
	fail "no FIN from the server: $(</tmp/53-tw-peer.txt)"
# the engine has nothing to acknowledge until the peer's FIN: lose that ACK
echo 1 >/sys/kernel/debug/irdma_sim/irdma_sim0/drop_toe_acks
touch /tmp/53-tw-go
mpa_case_done 53 tw
n=$(sim_counts 0 toe tw_acks) || fail "no toe line in $state"
[ "$n" -ge 1 ] || fail "TIME_WAIT answered $n segments"
echo "TIME_WAIT: $(grep -o 'tw=.*' $state)"
[ "$(</sys/kernel/debug/irdma_sim/irdma_sim0/drop_toe_acks)" = 0 ] ||
	fail "the ACK of the peer's FIN was not the one lost"

step "remove"
sim_pair_remove $ns
echo "TERMINATE: ours for the peer's bad STag, the peer's to our consumer,"
echo "ours for our own bad local key, each with our FIN; the same error while"
echo "closing aborted at once; TIME_WAIT answered"
echo "the peer's FIN sent again; nothing left behind"
