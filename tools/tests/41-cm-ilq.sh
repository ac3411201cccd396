#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 16
#
# The CM's segments on the wire through the ILQ. Function 0 listens with
# rdma_cm (librdmacm); function 1's netdev sits in its own network namespace,
# where an ordinary kernel TCP socket plays the peer: its SYN is steered
# to function 0's ILQ, the CM answers through the ILQ (SYN-ACK built by the
# engine from the connection's AH and ARP entry), the socket sends an MPA
# v2 request, the listener gets the connect request and rejects it with
# private data, and the socket receives the MPA reject (key, R bit, v2,
# IRD/ORD block, our private data) and the close. The simulator's ILQ
# counters must have moved, and once the connection is gone no filter,
# port or AH is left in the engine.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs
# seconds.
. "$IRDMA_REPO/tools/guest/lib.sh"

dbg=/sys/kernel/debug/irdma_sim
ns=ilqpeer
port=7041
pdata=ilq-reject-41

# "qhash apbvt ahs" of function $1's engine
objects() {
	sim_counts "$1" objects qhash apbvt_ports ahs
}

# "tx rx steered dropped" of function $1's ILQ
ilq_counters() {
	sim_counts "$1" ilq tx rx steered dropped
}

# wait (60 s) until function $1 shows "qhash apbvt ahs" = $2
wait_objects() {
	sim_wait_counts 60 "$2" "$1" objects qhash apbvt_ports ahs
}

cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

log_mark 41-cm-ilq
need_user librdmacm
load_irdma_sim
sim_iwarp_pair_netns $ns
c=$(ilq_counters 0) || fail "no ILQ counters in $dbg/irdma_sim0/state"
read -r tx0 rx0 st0 _ <<<"$c"

step "rdma_cm listen on 192.0.2.1:$port"
python3 -u "$IRDMA_REPO/tools/guest/iwcm.py" reject 192.0.2.1 $port $pdata \
	>/tmp/ilq-listen.txt 2>&1 &
lpid=$!
wait_objects 0 "1 1 0"

step "a kernel TCP socket in $ns sends an MPA v2 request"
ip netns exec $ns python3 -u "$IRDMA_REPO/tools/guest/iwcm.py" peer-reject 192.0.2.1 $port $pdata \
	>/tmp/ilq-peer.txt 2>&1
rc=$?
echo "peer: $(</tmp/ilq-peer.txt)"
[ $rc -eq 0 ] || fail "peer (exit $rc): $(</tmp/ilq-peer.txt); listener: $(</tmp/ilq-listen.txt)"
wait "$lpid"
rc=$?
lpid=
echo "listener: $(</tmp/ilq-listen.txt)"
[ $rc -eq 0 ] || fail "listener exited $rc: $(</tmp/ilq-listen.txt)"

step "ILQ counters and what is left"
c=$(ilq_counters 0) || fail "no ILQ counters in $dbg/irdma_sim0/state"
read -r tx rx st dr <<<"$c"
echo "function 0 ILQ: tx $tx0 -> $tx, rx $rx0 -> $rx, steered $st0 -> $st, dropped $dr"
# at least the SYN-ACK and the MPA reject went out; the SYN, the ACK and
# the MPA request came in
((tx >= tx0 + 2)) || fail "ILQ sends: $tx0 -> $tx"
((rx >= rx0 + 3)) || fail "ILQ receives: $rx0 -> $rx"
((st >= st0 + 3)) || fail "steered frames: $st0 -> $st"
# the connection closes: its 4-tuple filter and AH go, then the listen's
wait_objects 0 "0 0 0"

step "remove"
sim_pair_remove $ns
echo "a kernel TCP peer in another namespace connected to an rdma_cm listener through the ILQ and got its MPA reject; nothing left behind"
