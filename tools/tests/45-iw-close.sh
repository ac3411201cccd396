#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 28
#
# How offloaded iWARP connections end, on a loopback connection of one
# simulated function (as in 40-cm-listen.sh: two wired functions, a connect
# to 192.0.2.2 puts both ends on function 1, which owns it):
#
# 1. A graceful close: a librdmacm client calls rdma_disconnect(). Its QP
#    moves to SQD, the engine sends our FIN; the peer's engine reports the
#    FIN, its CM closes that half itself, the engine sends the second FIN;
#    each engine completes its close (LLP_CLOSE_COMPLETE) and gives the
#    4-tuple up; only then does each CM report CLOSE, so both processes get
#    RDMA_CM_EVENT_DISCONNECTED. The engine must show no offloaded
#    connection left, two FINs sent, two closes completed and no RST while
#    both processes still run.
# 2. A peer killed (kill -9) while rping -C 0 moves data: its QP goes to
#    error with RESETCON, the engine sends an RST, the survivor's engine
#    reports the reset and the survivor sees RDMA_CM_EVENT_DISCONNECTED.
# 3. The local address removed under a live rping -C 0 connection: the
#    CM's address notifier (irdma_if_notify) aborts every connection on
#    it; both ends see RDMA_CM_EVENT_DISCONNECTED and exit.
# After each: rdma res show counts on every device what it did before
# (pd, cq, qp, cm_id, mr, ctx, srq), and the engine's QPs, STags, filters, ports, AHs and offloaded
# connections are back to where they were.
# Loops use shell builtins: under TCG every exec costs.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
addr=192.0.2.2
fn=1
py=$IRDMA_REPO/tools/guest/close_ends.py

cleanup() {
	local p

	for p in ${spid:-} ${cpid:-}; do
		kill -9 "$p" 2>/dev/null
	done
	rm -f /tmp/45-*.go /tmp/45-*.close
	return 0
}
trap cleanup EXIT

# wait ($1 s) for background process $2 to exit, kill it after that;
# return its status
reap() {
	wait_exit "$1" "$2"
	kill -9 "$2" 2>/dev/null
	wait "$2"
}

# rping -s and an endless rping -c -C 0 on port $1 of $addr, in the
# background (spid, cpid), until the client is ESTABLISHED
rping_live() {
	stdbuf -oL rping -s -d -a $addr -p "$1" >/tmp/45-rping-s.txt 2>&1 &
	spid=$!
	sim_wait_counts 60 "1 1" $fn objects qhash apbvt_ports
	stdbuf -oL rping -c -d -a $addr -p "$1" -C 0 >/tmp/45-rping-c.txt 2>&1 &
	cpid=$!
	wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" /tmp/45-rping-c.txt ||
		fail "no connection: $(</tmp/45-rping-c.txt)"
}

log_mark 45-iw-close
need_user rping librdmacm libirdma
rm -f /tmp/45-*.go /tmp/45-*.close
load_irdma_sim
for i in 0 1; do
	echo "$i iwarp" >$bus/new_device || fail "create $i"
	ip link set isim$i up || fail "isim$i up"
	ip addr add 192.0.2.$((i + 1))/24 dev isim$i || fail "IPv4 on isim$i"
done
take_baseline "qps stags qhash apbvt_ports ahs" $fn
read -r finx0 rstx0 cl0 <<<"$(sim_counts $fn toe fin_tx rst_tx closed)" ||
	fail "no close counters in the simulator's state"
echo "baseline: rdma res $IRDMA_BASE_RES; engine (qps stags qhash ports ahs) ${IRDMA_BASE_OBJ[$fn]}"

# both ends of a librdmacm connection that wait for the shell: "server"
# accepts, "client" connects; each then waits for DISCONNECTED (the client
# after rdma_disconnect() once /tmp/45-close.close exists) and holds its
# QP until /tmp/45-close.go exists
export PYTHONPATH=$IRDMA_REPO/tools/guest

step "graceful close: rdma_disconnect on a loopback connection"
python3 -u "$py" server $addr 7451 >/tmp/45-server.txt 2>&1 &
spid=$!
wait_line 300 listening /tmp/45-server.txt ||
	fail "server not listening: $(</tmp/45-server.txt)"
python3 -u "$py" client $addr 7451 >/tmp/45-client.txt 2>&1 &
cpid=$!
wait_line 300 established /tmp/45-client.txt ||
	fail "client not connected: $(</tmp/45-client.txt); server: $(</tmp/45-server.txt)"
wait_line 60 established /tmp/45-server.txt ||
	fail "server not connected: $(</tmp/45-server.txt)"
sim_wait_counts 30 2 $fn toe conns
: >/tmp/45-close.close
wait_line 60 disconnected /tmp/45-client.txt ||
	fail "client not disconnected: $(</tmp/45-client.txt)"
wait_line 60 disconnected /tmp/45-server.txt ||
	fail "server not disconnected: $(</tmp/45-server.txt)"
kill -0 $spid 2>/dev/null || fail "the server exited: $(</tmp/45-server.txt)"
kill -0 $cpid 2>/dev/null || fail "the client exited: $(</tmp/45-client.txt)"
read -r conns <<<"$(sim_counts $fn toe conns)"
read -r finx rstx cl <<<"$(sim_counts $fn toe fin_tx rst_tx closed)"
echo "engine: conns $conns, FINs sent $((finx - finx0)), RSTs sent $((rstx - rstx0)), closes completed $((cl - cl0))"
[ "$conns" = 0 ] || fail "$conns connections still offloaded after both closed"
[ $((finx - finx0)) = 2 ] || fail "$((finx - finx0)) FINs sent, not 2"
[ $((cl - cl0)) = 2 ] || fail "$((cl - cl0)) closes completed, not 2"
[ "$rstx" = "$rstx0" ] || fail "a graceful close sent $((rstx - rstx0)) RSTs"
: >/tmp/45-close.go
reap 60 $spid
rc=$?
spid=
[ "$rc" = 0 ] || fail "server exited $rc: $(</tmp/45-server.txt)"
reap 60 $cpid
rc=$?
cpid=
[ "$rc" = 0 ] || fail "client exited $rc: $(</tmp/45-client.txt)"
echo "server: $(</tmp/45-server.txt)"
echo "client: $(</tmp/45-client.txt)"
wait_baseline "after the graceful close"

step "a peer killed mid-transfer"
read -r rstx0 <<<"$(sim_counts $fn toe rst_tx)"
rping_live 7452
read -r ttx0 <<<"$(sim_counts $fn toe tx)"
for ((i = 0; i < 60; i++)); do
	read -r ttx <<<"$(sim_counts $fn toe tx)"
	[ $((ttx - ttx0)) -ge 20 ] && break
	pause 1
done
[ $((ttx - ttx0)) -ge 20 ] || fail "rping -C 0 moved no data: $(</tmp/45-rping-c.txt)"
kill -9 $cpid
wait $cpid 2>/dev/null
cpid=
wait_line 60 "*RDMA_CM_EVENT_DISCONNECTED*" /tmp/45-rping-s.txt ||
	fail "the survivor saw no disconnect: $(</tmp/45-rping-s.txt)"
reap 60 $spid
spid=
read -r rstx <<<"$(sim_counts $fn toe rst_tx)"
echo "engine: RSTs sent $((rstx - rstx0))"
[ $((rstx - rstx0)) -ge 1 ] || fail "the killed peer's connection was not reset"
wait_baseline "after the killed peer"

step "the local address removed under a live connection"
rping_live 7453
sim_wait_counts 30 2 $fn toe conns
ip addr del $addr/24 dev isim1 || fail "remove $addr"
wait_line 60 "*RDMA_CM_EVENT_DISCONNECTED*" /tmp/45-rping-c.txt ||
	fail "the client saw no disconnect: $(</tmp/45-rping-c.txt)"
wait_line 60 "*RDMA_CM_EVENT_DISCONNECTED*" /tmp/45-rping-s.txt ||
	fail "the server saw no disconnect: $(</tmp/45-rping-s.txt)"
reap 60 $cpid
cpid=
reap 60 $spid
spid=
wait_baseline "after the address went"

step "remove"
# no namespace to move back
# shellcheck disable=SC2119
sim_pair_remove
echo "a graceful rdma_disconnect closes both ends through the engine (two FINs, two completed closes, nothing offloaded, both processes alive); a killed peer's connection is reset and the survivor disconnects; removing the address tears the connection down; RDMA resources and engine objects back to the baseline after each"
