#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 16
#
# Events of the parent driver, sent by irdma_sim as ice sends them through
# its event_handler: an MTU change and a traffic-class change are taken
# without harm; a critical error halts the engine, reaches a verbs user
# (ibv_asyncwatch, through libirdma) as IBV_EVENT_DEVICE_FATAL, and makes
# irdma ask for a function reset, after which the function is probed anew
# and works. Malformed events and events with no driver bound are refused.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
knob=/sys/kernel/debug/irdma_sim/irdma_sim0/parent_event
ev=/tmp/parent-events.txt

step() {
	echo "37-parent-events: $*" >/dev/kmsg
	echo "$*"
}

log_mark 37-parent-events

# "1" once the simulated engine reports it halted, "0" while it runs
halted() {
	local line

	sim_state 0 || { echo "?"; return; }
	for line in "${SIM_STATE[@]}"; do
		case "$line" in
		"engine: halted="*)
			echo "${line#engine: halted=}"
			return
			;;
		esac
	done
	echo "?"
}

load_stack || fail "cannot load the RDMA stack"
kmod irdma || fail "cannot load irdma"
kmod irdma_sim || fail "cannot load irdma_sim"
echo "0 iwarp" >$bus/new_device || fail "create 0"
[ "$(sim_cqp_live 0)" = 1 ] || fail "function 0 did not come up"
[ "$(count_log "registered on isim0")" = 1 ] ||
	fail "expected one registration on isim0"
dev=
for d in /sys/class/infiniband/irdma*; do
	[ -e "$d" ] && dev=${d##*/}
done
[ -n "$dev" ] || fail "no irdma device"

step "malformed events"
for bad in bogus "mtu 1500" "crit_err zzz" ""; do
	echo "$bad" >$knob 2>/dev/null && fail "parent_event took '$bad'"
done

step "MTU and traffic-class changes"
# ordinary events: logged at debug level only
echo "module irdma file main.c +p" >/sys/kernel/debug/dynamic_debug/control
ip link set isim0 mtu 4000 || fail "MTU change"
echo mtu >$knob || fail "MTU event refused"
echo tc_prepare >$knob || fail "tc_prepare event refused"
echo tc_done >$knob || fail "tc_done event refused"
[ "$(count_log "traffic-class change announced")" = 1 ] ||
	fail "tc_prepare did not reach irdma"
[ "$(count_log "traffic-class change done")" = 1 ] ||
	fail "tc_done did not reach irdma"
[ "$(halted)" = 0 ] || fail "the engine halted on a harmless event"
[ "$(sim_cqp_live 0)" = 1 ] || fail "the CQP went away on a harmless event"

step "critical error"
stdbuf -oL ibv_asyncwatch -d "$dev" >$ev 2>&1 &
watch=$!
for ((i = 0; i < 60; i++)); do
	[ "$(count_lines $ev "async event FD")" = 1 ] && break
	pause 1
done
[ "$(count_lines $ev "async event FD")" = 1 ] ||
	fail "ibv_asyncwatch did not start: $(<$ev)"
echo "crit_err 0x10000000" >$knob || fail "crit_err event refused"
# irdma reports the error, then the reset unplugs and replugs the function
for ((i = 0; i < 120; i++)); do
	[ "$(count_log "registered on isim0")" = 2 ] && break
	pause 1
done
[ "$(count_log "critical error, cause 0x10000000: engine)")" = 1 ] ||
	fail "irdma did not report the critical error"
[ "$(count_log "registered on isim0")" = 2 ] ||
	fail "the function was not probed again after the reset"
[ "$(halted)" = 0 ] || fail "the engine is still halted after the reset"
[ "$(sim_cqp_live 0)" = 1 ] || fail "no CQP after the reset"
# The user sees irdma's DEVICE_FATAL, then the core's own when the device
# it had open goes away: that one ends the event stream (the async FD
# stays open and ibv_asyncwatch waits on, so it is stopped here).
for ((i = 0; i < 30; i++)); do
	[ "$(count_lines $ev IBV_EVENT_DEVICE_FATAL)" -ge 2 ] && break
	pause 1
done
kill $watch
wait $watch 2>/dev/null
n=$(count_lines $ev IBV_EVENT_DEVICE_FATAL)
[ "$n" = 2 ] || fail "$n DEVICE_FATAL events, expected irdma's and the core's: $(<$ev)"
echo "$(<$ev)"

step "the new device works"
ibv_devinfo -d "$dev" >/tmp/devinfo.txt 2>&1 || fail "ibv_devinfo: $(</tmp/devinfo.txt)"
[[ "$(</tmp/devinfo.txt)" == *"transport:"*"iWARP"* ]] ||
	fail "the new device is not iWARP: $(</tmp/devinfo.txt)"

step "no driver bound"
rmmod irdma || fail "rmmod irdma"
echo "crit_err" >$knob 2>/dev/null && fail "crit_err taken with no driver"
[ "$(halted)" = 0 ] || fail "the engine halted with no driver to tell"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "parent events: MTU, traffic classes, critical error with reset"
