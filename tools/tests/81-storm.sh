#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
#
# A storm (tools/guest/storm.sh). Connection loops run in parallel, each
# run a connection, five verified pings and a disconnect: rping across
# the wire between two iWARP functions (one in a namespace), to an
# address of the far end that comes and goes (a wildcard listener), on
# an iWARP loopback and on a RoCEv2 loopback, and ucmatose across the
# wire (a listener per run). Meanwhile, for STORM_SECS seconds (default
# 20), the link goes down and up, the address is removed and added, the
# wildcard listener is killed and started again, both ends' MTU changes
# (with the parent's MTU event) and the traffic classes of both protocols
# change. Then function 0 is reset under the rping traffic (ucmatose
# ignores DEVICE_REMOVAL and would wait for ever: its loop stops first);
# its RDMA device must be back within 30 s. No run may hang (outlive the
# CM's own give-up; storm_hung_dump says what a hung one waits for),
# nothing may oops, WARN or leak; the RDMA resources and the engine's
# objects go back to the baseline, new connections work on both
# protocols, and everything unloads. Prints the connections made and the
# errors by kind.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/storm.sh"

secs=${STORM_SECS:-20}
keys="qps stags ahs qhash apbvt_ports mcgs"

need_user rping librdmacm libirdma
command -v ucmatose >/dev/null || skip "ucmatose (rdmacm-utils) is not installed"
log_mark 81-storm
storm_setup
res0=$(storm_res)
declare -A obj0
for fn in 0 1 2; do
	# shellcheck disable=SC2086 # a list of keys
	obj0[$fn]=$(sim_counts $fn objects $keys)
done

step "traffic, and $secs s of trouble"
storm_traffic_more
pause 5
storm_trouble "$secs"
for k in "${!STORM_TROUBLE[@]}"; do
	echo "trouble: $k ${STORM_TROUBLE[$k]} times"
done
step "a reset of function 0 under traffic"
storm_client_stop ucm_wire
storm_reset 0
pause 5
storm_stop
storm_tally
echo "connections made: $STORM_MADE"
((STORM_MADE > 0)) || fail "no connection made at all"
echo "rping pings verified: $STORM_PINGS"
((STORM_PINGS > 0)) || fail "no rping ping verified at all"

step "afterwards"
for ((i = 0; i < 60; i++)); do
	[ "$(storm_res)" = "$res0" ] && break
	pause 1
done
[ "$(storm_res)" = "$res0" ] ||
	fail "RDMA resources left: $(storm_res) (before: $res0)"
for fn in 0 1 2; do
	# shellcheck disable=SC2086 # a list of keys
	sim_wait_counts 60 "${obj0[$fn]}" $fn objects $keys
	sim_wait_counts 30 0 $fn toe conns
done
echo "nothing left"
storm_new_connections
storm_teardown
