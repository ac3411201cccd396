#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 90
#
# Another process's QP, named to rdma_cm, on one simulated iWARP function.
# The victim: an rping pair on the function's own address (rping -C 0, -V
# checking every ping; at nice 19, or its pings starve the steps). The
# attacker, a process of its own (tools/guest/isolation.py), as the
# unprivileged user nobody and as root, tries:
#  - rdma_connect() naming the victim client's or server's QP, to a port
#    nobody listens on: refused with EACCES (the QP is not the caller's),
#    for root as for nobody;
#  - rdma_accept() of a request of its own naming the victim's QP:
#    EACCES;
#  - rdma_connect() naming a QP of its own that has a connection (either
#    end of one it made): EBUSY;
#  - ibv_modify_qp() of an unconnected QP of its own to RTR (allowed: the
#    engine keeps the QP idle) and on to RTS: EINVAL, the engine's QP
#    still idle (only the CM moves an iWARP QP to RTS).
# The victim keeps pinging, with every ping verified, after all of it; its
# client, killed with kill -9, exits at once, the server sees the
# disconnect and exits; nothing is left behind.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/isolation.sh"

port=7064
go=/tmp/64-iso.go
srv=/tmp/64-rping-s.txt
cli=/tmp/64-rping-c.txt

cleanup() {
	local p

	for p in ${cpid:-} ${spid:-} ${mpid:-}; do
		kill -9 "$p" 2>/dev/null
	done
	rm -f $go
	return 0
}
trap cleanup EXIT

# the state the engine holds QP $1 in (empty if it holds none)
engine_qp_state() {
	local line

	sim_state 0 || return
	for line in "${SIM_STATE[@]}"; do
		[[ $line =~ ^"qp $1: type="[0-9]+" state="([0-9]+) ]] &&
			echo "${BASH_REMATCH[1]}"
	done
}

# where each thread of process $1 waits: state, wchan, kernel stack
proc_threads() {
	local t

	for t in /proc/"$1"/task/*; do
		echo "thread ${t##*/}: $(grep State "$t/status") $(cat "$t/wchan")"
		cat "$t/stack"
	done 2>&1
}

log_mark 64-isolation-qp
need_user rping librdmacm libirdma
rm -f $go $srv $cli /tmp/64-*.txt
sim_iwarp_function0 dev
iso_nodes
echo "file cm_hw.c +p" >/sys/kernel/debug/dynamic_debug/control
echo "file qp.c +p" >/sys/kernel/debug/dynamic_debug/control
take_baseline "qps stags qhash apbvt_ports ahs" 0

step "the victim: an rping pair on 192.0.2.1:$port"
nice -n 19 stdbuf -oL rping -s -d -v -V -a 192.0.2.1 -p $port >$srv 2>&1 &
spid=$!
sim_wait_counts 60 "1 1" 0 objects qhash apbvt_ports
nice -n 19 stdbuf -oL rping -c -d -v -V -a 192.0.2.1 -p $port -C 0 >$cli 2>&1 &
cpid=$!
wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" $cli ||
	fail "the victim did not connect: $(<$cli) / server: $(<$srv)"
read -r cqpn <<<"$(iso_qpns "$dev" $cpid)"
read -r sqpn <<<"$(iso_qpns "$dev" $spid)"
[ -n "$cqpn" ] && [ -n "$sqpn" ] ||
	fail "no QPs of the victim: $(rdma res show qp link "$dev/1" 2>&1)"
echo "victim: client QP $cqpn (pid $cpid), server QP $sqpn (pid $spid)"

step "nobody, then root: rdma_connect() naming the victim's QPs"
iso_run nobody /tmp/64-connect-nobody.txt connect 192.0.2.1 9 "$cqpn" "$sqpn"
echo "nobody: $(</tmp/64-connect-nobody.txt)"
iso_expect /tmp/64-connect-nobody.txt "connect-qp$cqpn" EACCES
iso_expect /tmp/64-connect-nobody.txt "connect-qp$sqpn" EACCES
iso_run root /tmp/64-connect-root.txt connect 192.0.2.1 9 "$cqpn"
echo "root: $(</tmp/64-connect-root.txt)"
iso_expect /tmp/64-connect-root.txt "connect-qp$cqpn" EACCES

step "nobody: rdma_accept() naming the victim's QP; a QP with a connection"
iso_run nobody /tmp/64-accept.txt accept 192.0.2.1 $((port + 1)) "$cqpn"
echo "nobody: $(</tmp/64-accept.txt)"
iso_expect /tmp/64-accept.txt "accept-qp$cqpn" EACCES
busy=()
while IFS= read -r line; do
	[[ $line =~ ^"ATTEMPT connect-own-busy-qp"([0-9]+)": " ]] &&
		busy+=("${BASH_REMATCH[1]}")
done </tmp/64-accept.txt
for q in "${busy[@]}"; do
	iso_expect /tmp/64-accept.txt "connect-own-busy-qp$q" EBUSY
done
((${#busy[@]} == 2)) ||
	ISO_FAILS+="connects naming a QP with a connection: ${#busy[@]} tried; "

step "nobody: ibv_modify_qp() of an unconnected QP to RTR, then RTS"
ISO_GO=$go iso_run nobody /tmp/64-modify.txt modify 192.0.2.1 &
mpid=$!
wait_line 120 "QP * state *" /tmp/64-modify.txt ||
	fail "no modify: $(</tmp/64-modify.txt)"
iso_expect /tmp/64-modify.txt modify-rtr ok
iso_expect /tmp/64-modify.txt modify-rts EINVAL
while IFS= read -r line; do
	[[ $line =~ ^"QP "([0-9]+)" state "([0-9]+) ]] && mqpn=${BASH_REMATCH[1]} &&
		mstate=${BASH_REMATCH[2]}
done </tmp/64-modify.txt
estate=$(engine_qp_state "$mqpn")
echo "QP $mqpn: verbs state ${mstate:-?}, engine state ${estate:-none}"
# RTR for the verbs; IRDMA_QPS_IDLE (1) on the engine
[ "$mstate" = 2 ] || ISO_FAILS+="QP $mqpn left in verbs state $mstate; "
[ "$estate" = 1 ] || ISO_FAILS+="QP $mqpn in engine state ${estate:-none}, not idle; "
: >$go
wait_exit 60 $mpid || fail "the modify process does not finish"
wait $mpid || fail "the modify process failed: $(</tmp/64-modify.txt)"
mpid=

step "the victim keeps pinging"
n0=$(rping_pings $cli)
for ((i = 0; i < 60; i++)); do
	(($(rping_pings $cli) >= n0 + 5)) && break
	proc_exited $cpid && break
	pause 1
done
n1=$(rping_pings $cli)
echo "victim client: $n0 -> $n1 verified pings"
((n1 >= n0 + 5)) || fail "the victim stopped: $(tail -n 5 $cli) / server: $(tail -n 5 $srv)"
iso_done

step "the victim's client killed: it exits, its server sees it go"
kill -9 $cpid
wait_exit 15 $cpid || fail "the killed client does not exit: $(cat /proc/$cpid/stack 2>/dev/null)"
wait $cpid 2>/dev/null
cpid=
wait_line 60 "*RDMA_CM_EVENT_DISCONNECTED*" $srv ||
	fail "the server saw no disconnect: $(tail -n 5 $srv)"
wait_exit 60 $spid || fail "the server does not exit: $(proc_threads $spid)
$(grep -v "ping data" $srv)"
wait $spid 2>/dev/null
spid=
wait_baseline "the attacks"
rm -f $go
sim_unload 0
echo "another process's QP refused to rdma_connect and rdma_accept (EACCES, root or nobody), a connected QP refused (EBUSY), a modify to RTS refused (EINVAL); the victim kept working and went away cleanly"
