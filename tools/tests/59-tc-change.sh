#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 69
#
# Queue sets and traffic-class changes, between two simulated iWARP
# functions on the wire (function 1 in network namespace wirepeer). The
# simulated engine sends for a QP only through the scheduler leaf its
# context names, and only while that leaf is enabled, hooked into the
# parent's scheduler (qset) and of a class the port still has: a QP left on
# a stale queue set stalls.
#  - At probe the driver builds the root, the VSI node and class 0's leaf
#    (the ILQ and IEQ use it); every QP of the engine names a live leaf.
#  - ib_write_bw -R -T 16 (TOS 0x10: user priority 6) runs on both ends
#    while the simulated parent moves priorities 6 and 7 to class 1 on
#    both functions (the qos knob: TC_PREPARE, new map, TC_DONE, as ice
#    does on a DCB change). The driver suspends every sending QP, waits
#    for the engine's confirmations, tears the leaves down, builds class
#    0's and class 1's and resumes each QP on its class's: the data QP
#    ends up on class 1, the ILQ and IEQ on class 0; no QP is lost,
#    resumes equal suspensions, and the transfer completes on both ends.
#  - An rping listener made before the change takes a connection after
#    it: with two classes told apart by priority the client's SYN carries
#    a priority tag (below), and the listener's SYN filter, made untagged,
#    follows the change.
#  - Once the QP is gone its class's leaf goes with it: one leaf and one
#    qset left.
#  - With two classes told apart by priority (not DSCP), a connection
#    with no VLAN of its own goes with a priority tag, VLAN 0, so that the
#    switch and PFC see its priority: ib_write_bw -R -T 16 again, captured
#    on both ends (tcpdump): every segment on the wire carries VLAN 0,
#    both ways (the responder answers the SYN's tag), with priority 6 on
#    the data connection, which has the TOS; perftest's second connection
#    (its out-of-band exchange) has none and goes with priority 0.
#  - While a change is announced but not over (parent_event tc_prepare),
#    every QP is suspended, the ILQ too: an rping connect started then
#    sends nothing (its SYN is held) and does not connect; once the change
#    is over (tc_done) the SYN goes and rping verifies its pings. (A QP
#    whose move to RTR or RTS would come during a change is refused it,
#    -EBUSY, qos_busy: 39-user-verbs.sh checks that.)
# After each, the RDMA resources and the engines' objects are back where
# they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=wirepeer
# The change comes about a second after the connection, just as the
# measurement starts: 15 s leave the transfer running well past it.
DUR=15

# A failure in the middle of a change must not leave it open: with the
# ILQ suspended the CM cannot end a connect, and killing rping then would
# hang in iw_cm's destroy_cm_id (see 43-iw-wire.sh).
cleanup() {
	[ -n "${changing:-}" ] &&
		echo tc_done >/sys/kernel/debug/irdma_sim/irdma_sim0/parent_event
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	[ -n "${rpid:-}" ] && kill "$rpid" 2>/dev/null
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null
	[ -n "${tpid0:-}" ] && kill "$tpid0" 2>/dev/null
	[ -n "${tpid1:-}" ] && kill "$tpid1" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

dbg=/sys/kernel/debug/irdma_sim
srv=/tmp/59-srv.txt
rsrv=/tmp/59-rsrv.txt
cli=/tmp/59-cli.txt

# the KEY=value field of QP QPN's line in function FN's state
# Usage: qp_field FN QPN KEY
qp_field() {
	local line w

	sim_state "$1" || return 1
	for line in "${SIM_STATE[@]}"; do
		[[ $line == "qp $2: "* ]] || continue
		for w in ${line#*: }; do
			[[ $w == "$3="* ]] && { echo "${w#*=}"; return 0; }
		done
	done
	return 1
}

# every QP of function FN that has work names a schedulable leaf
# (tc >= 0); prints the QPs and their classes
all_scheduled() {
	local line w id tc bad='' out=''

	sim_state "$1" || fail "cannot read function $1's state"
	for line in "${SIM_STATE[@]}"; do
		[[ $line == "qp "*": "* ]] || continue
		id=${line#qp }
		id=${id%%:*}
		tc=
		for w in ${line#*: }; do
			[[ $w == tc=* ]] && tc=${w#tc=}
		done
		out+=" $id:$tc"
		[ "$tc" = -1 ] && bad+=" $id"
	done
	echo "function $1 QPs (id:class):$out"
	[ -z "$bad" ] || fail "function $1: QPs on no live leaf:$bad"
}

# "NODES QSETS": function FN's work-scheduler nodes and the qsets the
# parent took (the state file's ws lines)
sched_shape() {
	local line nodes=0 qsets=0

	sim_state "$1" || return 1
	for line in "${SIM_STATE[@]}"; do
		[[ $line == "ws "* ]] || continue
		[[ $line == *" parent="* ]] && ((nodes++))
		[[ $line == *" registered=1"* ]] && ((qsets++))
	done
	echo "$nodes $qsets"
}

# wait up to 10 s for function FN's scheduler to be "NODES QSETS"
# Usage: wait_sched FN "NODES QSETS"
wait_sched() {
	local i have

	for ((i = 0; i < 10; i++)); do
		have=$(sched_shape "$1")
		[ "$have" = "$2" ] && return 0
		pause 1
	done
	fail "function $1: scheduler nodes and qsets $have, not $2:" \
		"$(grep -E '^(ws|sched)' "$dbg/irdma_sim$1/state")"
}

# the ib_write_bw client exited with status $1: wait for the server
# ($spid), and fail unless both ended well
bw_server_done() {
	local src

	wait_exit 60 "$spid" || kill "$spid"
	wait "$spid"
	src=$?
	spid=
	[ "$1" = 0 ] || fail "client exited $1: $(<$cli) / server: $(<$srv)"
	[ "$src" = 0 ] || fail "server exited $src: $(<$srv)"
}

# an rping server on function 1, port $1, listening once this returns
rping_server() {
	ip netns exec $ns stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p "$1" \
		>$srv 2>&1 &
	spid=$!
	sim_wait_counts 60 "$(( ${IRDMA_BASE_OBJ[1]%% *} + 1 ))" 1 objects qhash
}

declare -A cnt
# the QoS counters of device $1 into q_changes, q_susp, q_res, q_lost and
# q_leaves (and that qos_busy is there)
qos_counts() {
	local k

	port_counters "$1"
	for k in tc_changes suspends resumes lost leaves busy; do
		[[ ${cnt[qos_$k]:-} =~ ^[0-9]+$ ]] ||
			fail "$1: no counter qos_$k: $cnt_line"
	done
	q_changes=${cnt[qos_tc_changes]}
	q_susp=${cnt[qos_suspends]}
	q_res=${cnt[qos_resumes]}
	q_lost=${cnt[qos_lost]}
	q_leaves=${cnt[qos_leaves]}
}

log_mark 59-tc-change
command -v ib_write_bw >/dev/null || skip "perftest is not installed"
sim_iwarp_pair_devs $ns
take_baseline "qhash apbvt_ports ahs" 0 1

step "the scheduler after probe"
for f in 0 1; do
	# root, VSI, class 0's leaf; one qset at the parent
	wait_sched $f "3 1"
	[ "$(qp_field $f 1 tc)" = 0 ] || fail "function $f: ILQ not on class 0"
	[ "$(qp_field $f 2 tc)" = 0 ] || fail "function $f: IEQ not on class 0"
done
qos_counts "$dev0"
[ "$(sim_counts 0 sched unsched)" = 0 ] ||
	fail "function 0: QPs held by the scheduler before any change"
((q_leaves == 1 && q_changes == 0)) ||
	fail "$dev0: expected one leaf and no change: $cnt_line"

step "ib_write_bw -R -T 16 for $DUR s across a traffic-class change"
# a listener made before the change, connected to after it (below)
ip netns exec $ns stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p 7593 \
	>$rsrv 2>&1 &
rpid=$!
sim_wait_counts 60 "$(( ${IRDMA_BASE_OBJ[1]%% *} + 1 ))" 1 objects qhash
ip netns exec $ns stdbuf -oL ib_write_bw -R -F -d "$dev1" -p 7590 -D "$DUR" \
	-T 16 >$srv 2>&1 &
spid=$!
sim_wait_counts 60 "$(( ${IRDMA_BASE_OBJ[1]%% *} + 2 ))" 1 objects qhash
stdbuf -oL ib_write_bw -R -F -d "$dev0" -p 7590 -D "$DUR" -T 16 192.0.2.2 \
	>$cli 2>&1 &
cpid=$!
# connected once the client prints the peer's QP; its own is the data QP
wait_line 120 "*remote address:*" $cli ||
	fail "ib_write_bw did not connect: $(<$cli) / server: $(<$srv)"
qpn=
while read -r -a w; do
	[ "${w[0]:-} ${w[1]:-}" = "local address:" ] && qpn=$((w[5]))
done <$cli
if [ -z "$qpn" ] || ((qpn <= 2)); then
	fail "no data QP in the client's output: $(<$cli)"
fi
[ "$(qp_field 0 "$qpn" tc)" = 0 ] ||
	fail "QP $qpn not on class 0 before the change: $(qp_field 0 "$qpn" tc)"
for f in 0 1; do
	echo "up2tc 0 0 0 0 0 0 1 1" >$dbg/irdma_sim$f/qos ||
		fail "function $f: the qos knob refused the map"
done
cat $dbg/irdma_sim0/qos
qos_counts "$dev0"
echo "$dev0: changes $q_changes, suspended $q_susp, resumed $q_res, lost $q_lost, leaves built $q_leaves"
((q_changes == 1)) || fail "$dev0: $q_changes traffic-class changes, not 1"
# the ILQ, the IEQ and the data QP at least
((q_susp >= 3)) || fail "$dev0: only $q_susp QPs suspended"
((q_res == q_susp)) || fail "$dev0: $q_susp suspended but $q_res resumed"
((q_lost == 0)) || fail "$dev0: $q_lost QPs lost their queue set"
# class 0's again and class 1's
((q_leaves == 3)) || fail "$dev0: $q_leaves leaves built, not 1 + 2"
[ "$(qp_field 0 "$qpn" tc)" = 1 ] ||
	fail "QP $qpn on class $(qp_field 0 "$qpn" tc) after the change, not 1"
[ "$(qp_field 0 1 tc)" = 0 ] || fail "ILQ not on class 0 after the change"
[ "$(qp_field 0 2 tc)" = 0 ] || fail "IEQ not on class 0 after the change"
all_scheduled 0
all_scheduled 1
# the transfer runs on: class 1's leaf is in use
wait_sched 0 "4 2"
read -r tx0 <<<"$(sim_counts 0 toe tx)" || fail "no toe counters"
wait_exit $((DUR + 120)) "$cpid" || fail "ib_write_bw client still running: $(<$cli)"
wait "$cpid"
rc=$?
cpid=
bw_server_done "$rc"
grep -E '^ *65536 ' $cli || fail "no result line: $(<$cli)"
read -r tx1 <<<"$(sim_counts 0 toe tx)"
echo "function 0 sent $((tx1 - tx0)) segments after the change"
((tx1 > tx0)) || fail "function 0 sent nothing after the change"
echo "QPs passed over by the scheduler: function 0 $(sim_counts 0 sched unsched), function 1 $(sim_counts 1 sched unsched)"

step "a listener made before the change takes a connection after it"
# Two classes told apart by priority now: the client's SYN carries VLAN 0,
# and the listener's SYN filter, made untagged, must have followed.
stdbuf -oL rping -c -d -v -V -a 192.0.2.2 -p 7593 -C 3 >$cli 2>&1 &
cpid=$!
rping_pings_verified 300 "$cpid" $cli 3 ||
	fail "rping to the listener made before the change: $(<$cli) / server: $(<$rsrv)"
cpid=
rping_server_done 60 rpid $rsrv 3
wait_baseline "ib_write_bw across a change, rping after it"

step "the class 1 leaf went with its last QP"
for f in 0 1; do
	wait_sched $f "3 1"
done

step "two classes by priority: priority tags on the wire"
# tcpdump sees what each function receives: function 0's segments on
# isim1, function 1's on isim0
command -v tcpdump >/dev/null || skip "tcpdump is not installed"
ip netns exec $ns tcpdump -i isim1 -e -nn -l 'tcp port 7592' \
	>/tmp/59-tags1.txt 2>&1 &
tpid1=$!
tcpdump -i isim0 -e -nn -l 'tcp port 7592' >/tmp/59-tags0.txt 2>&1 &
tpid0=$!
for f in 0 1; do
	wait_line 60 "*listening on*" /tmp/59-tags$f.txt ||
		fail "tcpdump on isim$f did not start: $(</tmp/59-tags$f.txt)"
done
ip netns exec $ns ib_write_bw -R -F -d "$dev1" -p 7592 -s 4096 -n 5 -T 16 \
	>$srv 2>&1 &
spid=$!
sim_wait_counts 60 "$(( ${IRDMA_BASE_OBJ[1]%% *} + 1 ))" 1 objects qhash
timeout 300 ib_write_bw -R -F -d "$dev0" -p 7592 -s 4096 -n 5 -T 16 \
	192.0.2.2 >$cli 2>&1
bw_server_done $?
pause 2
kill -INT "$tpid0" "$tpid1" 2>/dev/null
wait "$tpid0" "$tpid1"
tpid0=
tpid1=
# An untagged RST is not the engine's: a segment that comes after a
# connection left the engine reaches the host's TCP stack, which answers
# it with a RST of its own (its frames are the netdev's business).
for f in 0 1; do
	n=0
	p6=0
	rst=0
	bad=0
	while read -r line; do
		[[ $line == *" IP"* ]] || continue
		n=$((n + 1))
		case $line in
		*"vlan 0, p 6,"*) p6=$((p6 + 1)) ;;
		*"vlan 0, p 0,"*) ;;
		*"Flags [R]"*) rst=$((rst + 1)) ;;
		*) bad=$((bad + 1)) ;;
		esac
	done </tmp/59-tags$f.txt
	echo "isim$f took $n segments: $p6 with VLAN 0 priority 6, $((n - p6 - rst - bad)) with VLAN 0 priority 0, $rst untagged RSTs of the host stack, $bad otherwise"
	((p6 >= 3)) ||
		fail "isim$f saw $p6 segments tagged VLAN 0 priority 6: $(</tmp/59-tags$f.txt)"
	((bad == 0)) ||
		fail "isim$f: segments without a priority tag: $(</tmp/59-tags$f.txt)"
done
wait_baseline "priority tags"
for f in 0 1; do
	wait_sched $f "3 1"
done
for f in 0 1; do
	echo "up2tc 0 0 0 0 0 0 0 0" >$dbg/irdma_sim$f/qos ||
		fail "function $f: the qos knob refused the map"
	wait_sched $f "3 1"
	all_scheduled $f
done

step "a connect started during a change waits for its end"
# Between TC_PREPARE and TC_DONE the ILQ is suspended too: the CM's SYN
# waits in its SQ (the ILQ sends nothing), nothing connects; once the
# change is over it goes, and the connection comes up.
rping_server 7591
changing=1
echo tc_prepare >$dbg/irdma_sim0/parent_event || fail "tc_prepare refused"
[ "$(qp_field 0 1 suspended)" = 1 ] || fail "the ILQ is not suspended"
read -r tx0 <<<"$(sim_counts 0 ilq tx)" || fail "no ILQ counters"
stdbuf -oL rping -c -d -v -V -a 192.0.2.2 -p 7591 -C 3 >$cli 2>&1 &
cpid=$!
pause 8
grep -q ESTABLISHED $cli && fail "rping connected during a traffic-class change: $(<$cli)"
read -r tx1 <<<"$(sim_counts 0 ilq tx)"
((tx1 == tx0)) || fail "function 0's ILQ sent $((tx1 - tx0)) frames while suspended"
grep -q "route_resolved\|ROUTE_RESOLVED" $cli ||
	fail "rping did not get as far as connecting: $(<$cli)"
echo tc_done >$dbg/irdma_sim0/parent_event || fail "tc_done refused"
changing=
rping_pings_verified 300 "$cpid" $cli 3 ||
	fail "rping after the change: $(<$cli) / server: $(<$srv)"
cpid=
wait_exit 60 "$spid" || kill "$spid"
wait "$spid"
spid=
qos_counts "$dev0"
echo "$dev0: changes $q_changes, suspended $q_susp, resumed $q_res, lost $q_lost"
((q_changes == 3 && q_res == q_susp && q_lost == 0)) ||
	fail "$dev0: after three changes: $cnt_line"
all_scheduled 0
wait_baseline "rping around a change"

step "remove"
sim_pair_remove $ns
echo "QPs kept sending across traffic-class changes on their classes' queue sets"
