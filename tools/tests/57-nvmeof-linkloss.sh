#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 54
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on iWARP through irdma when the wire goes silent, as
# when a cable is pulled or a switch fails (tools/guest/nvmeof.sh, one
# simulated function as in 50-nvmeof-iwarp): under a write, the adapter's
# switch drops every frame (drop_frames), so no FIN, RST or ACK gets
# through. The host's I/O timeout (10 s here) starts its error recovery,
# whose graceful disconnects can only end by our CM's close timer or the
# engine's retransmission limit, and whose first reconnect waits for its
# SYN; the wire comes back, that SYN gets through, the host reconnects on
# its own and the write completes, every byte in place. After the
# teardown every CM node made on the way is freed and the RDMA resources
# and the engine's objects are back at the baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

knobs=/sys/kernel/debug/irdma_sim/irdma_sim0
par=/sys/module/nvme_core/parameters
NVMEOF_DD=
kill_on_exit NVMEOF_DD

log_mark 57-nvmeof-linkloss
sim_iwarp_function0 dev
nvmeof_target "$dev" 57 2
declare -A cnt
port_counters "$dev"
cm0=("${cnt[cm_close_timeouts]}" "${cnt[cm_connects]}")
# a lost I/O is noticed after 10 s, not the default 30
io_timeout=$(<$par/io_timeout) || fail "no nvme_core io_timeout"
echo 10 >$par/io_timeout || fail "set io_timeout"
nvmeof_port up
nvmeof_connect reconnect_delay=1,ctrl_loss_tmo=300
nvmeof_write "before"

step "the wire goes silent under a write, and comes back"
nvmeof_write_bg 2
echo 2147483647 >$knobs/drop_frames || fail "drop_frames"
echo "the wire is silent"
for ((i = 0; i < 60; i++)); do
	(($(count_log "Reconnecting in") >= 1)) && break
	pause 1
done
(($(count_log "Reconnecting in") >= 1)) ||
	fail "no error recovery 60 s after the wire went silent: $(log_since | tail -n 8)"
state=$(<"/sys/class/nvme/$NVMEOF_CTL/state")
[ "$state" = connecting ] || fail "$NVMEOF_CTL is $state"
kill -0 "$NVMEOF_DD" 2>/dev/null || fail "the write ended while the wire was silent"
echo "$NVMEOF_CTL is $state; the write waits at" \
	"$(($(nvmeof_writes) - NVMEOF_W0)) of $((NVMEOF_MIB * 16 * NVMEOF_BG_PASSES)); $(<$knobs/drop_frames) frames to drop"
pause 5
echo 0 >$knobs/drop_frames || fail "drop_frames 0"
echo "the wire is back"
nvmeof_ctrl_state live 90
wait_exit 120 "$NVMEOF_DD" || fail "the write still runs 120 s after the reconnect"
wait "$NVMEOF_DD" || fail "the write across the silence failed (status $?)"
NVMEOF_DD=
nvmeof_verify "across the silence"
log_since | grep -E 'nvme nvme[0-9]+: (starting error|Successfully|I/O .* timeout)' | head -n 6

nvmeof_end "$dev"
echo "$io_timeout" >$par/io_timeout || fail "restore io_timeout"
port_counters "$dev"
echo "CM: $((cnt[cm_connects] - cm0[1])) connects," \
	"$((cnt[cm_close_timeouts] - cm0[0])) closes ended by the close timer;" \
	"nodes made ${cnt[cm_nodes_created]}, freed ${cnt[cm_nodes_freed]}"
grep '^toe: ' $knobs/state
[ "${cnt[cm_nodes_created]}" = "${cnt[cm_nodes_freed]}" ] ||
	fail "CM nodes left: ${cnt[cm_nodes_created]} made, ${cnt[cm_nodes_freed]} freed"
sim_unload 0
echo "NVMe-oF over iWARP: a silent wire survived, nothing left behind"
