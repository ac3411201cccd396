#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 200
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on iWARP through irdma when the connections go away
# (tools/guest/nvmeof.sh, one simulated function as in 50-nvmeof-iwarp):
#  - the target's port is taken down while the host writes: the target
#    disconnects the host's queues and stops listening, the host's error
#    recovery tears its queues down and tries again every second, each try
#    refused by a RST (no listener: the connect fails in our CM with
#    ECONNREFUSED, and its QP and CQs are destroyed again); the port comes
#    back, the host reconnects on its own and the write that was in flight
#    completes, every byte in place;
#  - the host resets its controller: every queue closed gracefully and
#    connected again at once;
#  - after the teardown every CM node made on the way is freed and the RDMA
#    resources and the engine's objects are back at the baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

bus=/sys/bus/irdma_sim
mib=4
NVMEOF_DD=
kill_on_exit NVMEOF_DD

# Wait up to SECONDS for the host's controller to be in STATE.
# Usage: ctrl_state_wait STATE SECONDS
ctrl_state_wait() {
	local i s

	for ((i = 0; i < $2 * 5; i++)); do
		s=$(<"/sys/class/nvme/$NVMEOF_CTL/state")
		[ "$s" = "$1" ] && return 0
		pause 0.2
	done
	fail "$NVMEOF_CTL is $s, not $1, after $2 s"
}

log_mark 55-nvmeof-recover
load_irdma_sim
sim_iwarp_function0
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device on function 0"
nvmeof_target "$dev" 55 $mib
declare -A cnt
port_counters "$dev"
cm0=("${cnt[cm_connects]}" "${cnt[cm_connect_err]}" "${cnt[cm_rst_rx]}")
nvmeof_port up
# try again every second for up to two minutes
nvmeof_connect reconnect_delay=1,ctrl_loss_tmo=120
nvmeof_write "before"

step "the target's port goes down under a write, and comes back"
nvmeof_write_bg 4
echo "the port goes down"
nvmeof_port down
for ((i = 0; i < 150; i++)); do
	[ "$(<"/sys/class/nvme/$NVMEOF_CTL/state")" != live ] && break
	pause 0.2
done
[ "$(<"/sys/class/nvme/$NVMEOF_CTL/state")" != live ] ||
	fail "$NVMEOF_CTL still live 30 s after its port went down"
for ((i = 0; i < 60; i++)); do
	(($(count_log "Failed reconnect attempt") >= 2)) && break
	pause 1
done
tries=$(count_log "Failed reconnect attempt")
((tries >= 2)) || fail "$tries failed reconnect attempts in 60 s: $(log_since | tail -n 8)"
kill -0 $NVMEOF_DD 2>/dev/null ||
	fail "the write ended while the target was away: $(wait $NVMEOF_DD; echo "status $?")"
echo "$NVMEOF_CTL is $(<"/sys/class/nvme/$NVMEOF_CTL/state") after $tries refused reconnects;" \
	"the write waits at $(($(nvmeof_writes) - NVMEOF_W0)) of $((mib * 16))"
port_counters "$dev"
refused=$((cnt[cm_connect_err] - cm0[1]))
((refused >= tries)) ||
	fail "$tries refused reconnects, $refused connect errors in the CM ($cnt_line)"
nvmeof_port up
ctrl_state_wait live 60
[ "$(count_log "Successfully reconnected")" = 1 ] ||
	fail "no 'Successfully reconnected': $(log_since | tail -n 8)"
wait_exit 120 $NVMEOF_DD || fail "the write still runs 120 s after the reconnect"
wait $NVMEOF_DD || fail "the write across the outage failed (status $?)"
NVMEOF_DD=
nvmeof_verify "across the outage"

step "the host resets its controller"
echo 1 >"/sys/class/nvme/$NVMEOF_CTL/reset_controller" || fail "reset $NVMEOF_CTL"
ctrl_state_wait live 60
nvmeof_write "after the reset"

nvmeof_end "$dev"
port_counters "$dev"
echo "CM: $((cnt[cm_connects] - cm0[0])) connects, $((cnt[cm_connect_err] - cm0[1]))" \
	"refused, $((cnt[cm_rst_rx] - cm0[2])) RSTs received;" \
	"nodes made ${cnt[cm_nodes_created]}, freed ${cnt[cm_nodes_freed]}"
[ "${cnt[cm_nodes_created]}" = "${cnt[cm_nodes_freed]}" ] ||
	fail "CM nodes left: ${cnt[cm_nodes_created]} made, ${cnt[cm_nodes_freed]} freed"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "NVMe-oF over iWARP: a target outage and a reset survived, nothing left behind"
