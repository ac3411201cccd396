#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 14
#
# Bring-up: irdma binds to simulated functions and starts their engines
# (CQP, CCQ, HMC, PBLEs, AEQ, CEQs); once CEQ 0 is up, CQP completions
# come by its interrupt. A CQP command that the simulator fails
# during probe makes probe fail and leaves the engine without a CQP; a
# bound function can be deleted; irdma unloads with functions bound
# (branch "cycles" repeats that 20 times). KASAN, lockdep and kmemleak
# watch all of it.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs
# seconds.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim
drv=/sys/bus/auxiliary/drivers/irdma.sim

bound() {
	[ -e /sys/bus/auxiliary/devices/irdma_sim.func."$1"/driver ]
}

check_up() {
	bound "$1" || fail "$2: irdma_sim.func.$1 not bound"
	[ "$(sim_cqp_live "$1")" = 1 ] || fail "$2: function $1 has no CQP"
}

check_down() {
	bound "$1" && fail "$2: irdma_sim.func.$1 still bound"
	[ "$(sim_cqp_live "$1")" = 0 ] || fail "$2: function $1 kept its CQP"
}

# what earlier scripts in this guest left in the log does not count
log_mark 30-bringup

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"

# Probe failures, one CQP command at a time. The function exists before
# irdma is loaded, so its knob can be set before the first probe.
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo 1 >$dbg/irdma_sim0/fail_create_cq || fail "set fail_create_cq"
kmod irdma || fail "cannot load irdma"
failed=0
for op in create_cq query_fpm commit_fpm update_sds create_aeq create_ceq manage_stats \
	gather_stats; do
	knob=$dbg/irdma_sim0/fail_$op
	# fail_create_cq was consumed by the probe that loading irdma ran
	if [ $op != create_cq ]; then
		echo 1 >"$knob" || fail "set fail_$op"
		echo irdma_sim.func.0 >$drv/bind 2>/dev/null &&
			fail "probe succeeded with $op failing"
	fi
	read -r left <"$knob"
	[ "$left" = 0 ] || fail "probe never issued $op"
	check_down 0 "failed $op"
	failed=$((failed + 1))
done
echo "probe fails cleanly when any of $failed bring-up commands fails"

# A CQP that never answers: the command times out, probe fails.
echo Y >$dbg/irdma_sim0/stall_cqp
echo irdma_sim.func.0 >$drv/bind 2>/dev/null && fail "probe with a stalled CQP"
echo N >$dbg/irdma_sim0/stall_cqp
check_down 0 "stalled CQP"
failed=$((failed + 1))
echo "probe fails cleanly when the CQP stalls"

echo irdma_sim.func.0 >$drv/bind || fail "bind 0 after the failures"
check_up 0 "bind"
echo "1 iwarp" >$bus/new_device || fail "create 1"
check_up 1 "create 1"
echo "2 roce" >$bus/new_device || fail "create 2 (RoCEv2)"
check_up 2 "create 2"
echo "functions 0, 1 (iWARP) and 2 (RoCEv2) up"

# The CCQ reports to CEQ 0, and the commands issued once CEQ 0 was up
# (statistics, scheduler nodes, the RDMA device's) were waited for on its
# interrupt: the CCQ raised events.
for fn in 0 2; do
	read -r ceq events <<<"$(sim_counts $fn "cq 0" ceq events)"
	[ "$ceq" = 0 ] || fail "function $fn: the CCQ is not on CEQ 0: '$ceq'"
	((${events:-0} > 0)) ||
		fail "function $fn: the CCQ raised no event: '$events'"
	echo "function $fn: the CCQ is on CEQ 0 and raised $events events"
done

# the iWARP functions register RNICs, the RoCEv2 function an IB CA
devs=$(rdma dev)
n=$(grep -c "^[0-9]*: irdma[0-9]*: node_type rnic" <<<"$devs")
[ "$n" = 2 ] || fail "rdma dev lists $n iWARP irdma devices, expected 2: $devs"
n=$(grep -c "^[0-9]*: irdma[0-9]*: node_type ca" <<<"$devs")
[ "$n" = 1 ] || fail "rdma dev lists $n RoCEv2 irdma devices, expected 1: $devs"
links=$(rdma link)
grep -q "^link irdma[0-9]*/1 .*netdev isim0" <<<"$links" ||
	fail "rdma link does not show isim0: $links"
echo "$devs"
echo "$links"

# An asynchronous event reaches the driver: its tracepoint, not the log
ae_trace_start || fail "no irdma_ae tracepoint"
echo "0x102 5 7" >$dbg/irdma_sim0/raise_ae || fail "raise_ae refused"
for ((i = 0; i < 30; i++)); do
	ae=$(ae_traced "irdma_sim.func.0 AE 0x102 source 0x5 QP 7")
	[ "$ae" = 0 ] || break
	pause 1
done
ae_trace_stop

echo irdma_sim.func.2 >$drv/unbind || fail "unbind 2"
check_down 2 "unbind"
echo 2 >$bus/del_device || fail "delete 2"
echo 1 >$bus/del_device || fail "delete 1 while bound"
[ -e $bus/devices/irdma_sim1 ] && fail "irdma_sim1 still there"
echo "unbind, and deleting a bound function, work"

rmmod irdma || fail "rmmod irdma with function 0 bound"
check_down 0 "rmmod"
[ "$(irdma_dev_count)" = 0 ] || fail "RDMA devices left after rmmod irdma"

log=$(log_since)
up=$(grep -c "irdma_sim.func.[0-9]*: RDMA engine up" <<<"$log")
down=$(grep -c "RDMA engine bring-up (gen2, iWARP) failed" <<<"$log")
[ "$up" = 3 ] || fail "$up bring-ups logged, expected 3"
[ "$down" = "$failed" ] || fail "$down failed probes logged, expected $failed"
[ "$ae" = 1 ] || fail "the raised AE was traced $ae times"
quiet=$(grep -c "AE 0x102" <<<"$log")
[ "$quiet" = 0 ] || fail "an ordinary AE was logged $quiet times"
grep -m1 "RDMA engine up" <<<"$log"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "bring-up logged $up times, $down probe failures; the AE traced once, not logged"
