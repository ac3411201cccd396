#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 15
#
# A librdmacm server with a user QP accepts a connection, and its
# rdma_disconnect() closes it. As in 41-cm-ilq.sh, function 1's netdev sits
# in its own namespace, where a kernel TCP socket sends an MPA v2 request
# to function 0's rdma_cm listener. The listener creates a user RC QP on
# the request's id (libirdma rings) and accepts: the CM writes the LSMM
# (the MPA reply) into quantum 0 of the user SQ, and the reply gets an STag
# of the QP's PD in the engine, which must show. rdma_accept() must succeed
# and bring RDMA_CM_EVENT_ESTABLISHED. Then rdma_disconnect() moves the QP to
# SQD, which must reach the CM as a graceful close: the listener must get
# RDMA_CM_EVENT_DISCONNECTED (status 0). Everything goes once the ids and
# the QP are destroyed.
#
# The engine sends the LSMM as a segment of the offloaded connection: the
# peer's socket must receive an MPA v2 reply (no R bit) carrying the
# listener's private data.
# Loops use shell builtins: under TCG every exec costs.
. "$IRDMA_REPO/tools/guest/lib.sh"

state=/sys/kernel/debug/irdma_sim/irdma_sim0/state
ns=acceptpeer
port=7042
pdata=ulsmm-accept-42
go=/tmp/42-cm-accept.go

objects() {
	sim_counts 0 objects qps stags qhash apbvt_ports ahs
}

cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	[ -n "${ppid_:-}" ] && kill "$ppid_" 2>/dev/null
	ip netns del $ns 2>/dev/null
	rm -f $go
	return 0
}
trap cleanup EXIT

log_mark 42-cm-accept
need_user librdmacm libirdma
rm -f $go
load_irdma_sim
# the QP's and CM's refusals, in the log should this fail
for f in qp.c cm_hw.c; do
	echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
done
sim_iwarp_pair_netns $ns
base=$(objects) || fail "no object counts in $state"
read -r qps0 stags0 _ <<<"$base"

step "rdma_cm listen on 192.0.2.1:$port, accept with a user QP"
python3 -u "$IRDMA_REPO/tools/guest/iwcm.py" accept 192.0.2.1 $port $pdata $go \
	>/tmp/accept-listen.txt 2>&1 &
lpid=$!
wait_line 300 listening /tmp/accept-listen.txt ||
	fail "listener not listening: $(</tmp/accept-listen.txt)"

step "a kernel TCP socket in $ns sends an MPA v2 request"
ip netns exec $ns python3 -u "$IRDMA_REPO/tools/guest/iwcm.py" peer-accept 192.0.2.1 $port $pdata \
	>/tmp/accept-peer.txt 2>&1 &
ppid_=$!

wait_line 300 accepted /tmp/accept-listen.txt ||
	fail "no accept: listener: $(</tmp/accept-listen.txt); peer: $(</tmp/accept-peer.txt)"
echo "listener: $(</tmp/accept-listen.txt)"

step "the engine holds the user QP and the STag of the MPA reply"
c=$(objects) || fail "no object counts in $state"
read -r qps stags _ <<<"$c"
echo "function 0: qps $qps0 -> $qps, stags $stags0 -> $stags"
((qps >= qps0 + 1)) || fail "no QP in the engine: $qps0 -> $qps"
# the reply: MPA header, the v2 IRD/ORD block, our private data; local
# read only, addressed by its bus address, no page list
rlen=$((20 + 4 + ${#pdata}))
found=
sim_state 0 || fail "cannot read $state"
for line in "${SIM_STATE[@]}"; do
	[[ $line == "stag "*" kind=mr "*" len=$rlen "*" rights=0x1 "*" pbl=0 "* ]] &&
		found=$line
done
[ -n "$found" ] || fail "no STag of $rlen bytes, local read, in $state"
echo "LSMM reply STag: $found"
: >$go

step "rdma_disconnect closes the connection"
wait "$lpid"
rc=$?
lpid=
echo "listener: $(</tmp/accept-listen.txt)"
[ $rc -eq 0 ] || fail "listener exited $rc: $(</tmp/accept-listen.txt)"
wait "$ppid_"
rc=$?
ppid_=
echo "peer: $(</tmp/accept-peer.txt)"
[ $rc -eq 0 ] || fail "peer exited $rc: $(</tmp/accept-peer.txt)"

step "nothing left"
sim_wait_counts 60 "$qps0 $stags0 0 0 0" 0 objects qps stags qhash \
	apbvt_ports ahs

step "remove"
rm -f $go
sim_pair_remove $ns
echo "a librdmacm server accepted an MPA v2 request on a user QP (the LSMM reply's STag in the engine) and closed it with rdma_disconnect; nothing left behind"
