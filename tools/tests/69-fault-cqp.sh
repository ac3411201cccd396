#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 60
#
# The engine refusing commands under traffic. With rping across the wire
# and on an iWARP loopback, ucmatose across the wire and rping on a RoCEv2
# loopback running in loops (tools/guest/storm.sh), the simulator's
# fail_share knob fails a seeded random share of the CQP commands that
# make and change things (QPs, CQs, STags, backing pages, scheduler nodes,
# and the CM's filters and ports, which the driver posts without waiting)
# for STORM_SECS seconds (15). Each failure must surface as an error to the
# caller or as a connection that ends with an error; no run may hang
# (each is killed at its limit, which fails the test), nothing may oops or
# leak. Afterwards the RDMA resources and the engine's objects are back to
# the baseline and new connections work. Prints the refusals by command
# and how the runs ended (their exit codes and error lines). Removals and
# destroys are not failed: an object whose destroy the engine refuses
# stays with it, by design, until the function resets. Nor are ARP
# entries and address handles (STORM_OPS adds them): their refusal does
# not reach their issuers yet. The rping servers are not persistent
# (STORM_PERSIST, storm.sh): a refused command in a persistent server's
# set-up leaves the request unanswered.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/storm.sh"

secs=${STORM_SECS:-15}
STORM_PERSIST=
permille=${STORM_PERMILLE:-50}
seed=${STORM_SEED:-44}
ops=${STORM_OPS:-create_qp modify_qp create_cq modify_cq alloc_stag reg_mr update_sds ws_node manage_qhash manage_apbvt}

need_user rping librdmacm libirdma
command -v ucmatose >/dev/null || skip "ucmatose (rdmacm-utils) is not installed"
log_mark 69-fault-cqp
storm_setup
take_baseline "qps stags ahs qhash apbvt_ports mcgs" 0 1 2

step "traffic, then $permille per mille of the commands failing for $secs s (seed $seed)"
storm_traffic
pause 3
for fn in 0 1 2; do
	echo "$permille $((seed + fn)) $ops" >$dbg/irdma_sim$fn/fail_share ||
		fail "fail_share refused"
done
pause "$secs"
declare -A refused=()
for fn in 0 1 2; do
	line=$(<$dbg/irdma_sim$fn/fail_share)
	echo 0 >$dbg/irdma_sim$fn/fail_share
	echo "function $fn: $line"
	for w in ${line#*failed_by_op=}; do
		refused[${w%%:*}]=$((${refused[${w%%:*}]:-0} + ${w#*:}))
	done
done
for op in "${!refused[@]}"; do
	echo "refused: $op ${refused[$op]}"
done
((${#refused[@]})) || fail "the engine refused nothing"
pause 3
storm_stop
storm_tally
echo "connections made: $STORM_MADE"
((STORM_MADE > 0)) || fail "no connection made at all"

step "afterwards"
for fn in 0 1 2; do
	sim_wait_counts 60 1 $fn cqp live
done
wait_baseline "the storm"
storm_new_connections
wait_baseline "new connections"
storm_teardown
