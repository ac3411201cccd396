#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 16
#
# Asynchronous events of the engine, raised through the simulator: an AE
# about a QP reaches the QP's consumer as the IB event it stands for (QP1's
# consumer, the MAD layer, logs the events it gets); an AE about an
# unknown QP or CQ reaches no one and harms nothing; a function
# catastrophe ends, as a parent's critical error does, in a reset and a
# fresh probe.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
ae=/sys/kernel/debug/irdma_sim/irdma_sim0/raise_ae

log_mark 38-async-events

load_stack || fail "cannot load the RDMA stack"
kmod irdma || fail "cannot load irdma"
kmod irdma_sim || fail "cannot load irdma_sim"
echo "0 roce" >$bus/new_device || fail "create 0"
[ "$(sim_cqp_live 0)" = 1 ] || fail "function 0 did not come up"
for ((i = 0; i < 30; i++)); do
	[ "$(count_log "registered on isim0")" = 1 ] && break
	pause 1
done
[ "$(count_log "registered on isim0")" = 1 ] || fail "no RDMA device on isim0"

# AE sources: 1 RQ, 2 CQ, 5 SQ. 0x109: rights violation, 0x208: invalid
# request, 0x203: CQ operation error.
echo "0x109 1 1" >$ae || fail "raise_ae QP1 access error"
echo "0x208 5 1" >$ae || fail "raise_ae QP1 invalid request"
echo "0x109 1 99" >$ae || fail "raise_ae unknown QP"
echo "0x203 2 77" >$ae || fail "raise_ae unknown CQ"
for ((i = 0; i < 30; i++)); do
	[ "$(count_log "on MAD QP (1)")" = 2 ] && break
	pause 1
done
# enum ib_event_type: 2 QP_REQ_ERR, 3 QP_ACCESS_ERR
[ "$(count_log "Fatal error (3) on MAD QP (1)")" = 1 ] ||
	fail "QP1 did not get IB_EVENT_QP_ACCESS_ERR: $(dmesg | grep -a 'MAD QP')"
[ "$(count_log "Fatal error (2) on MAD QP (1)")" = 1 ] ||
	fail "QP1 did not get IB_EVENT_QP_REQ_ERR: $(dmesg | grep -a 'MAD QP')"
[ "$(sim_cqp_live 0)" = 1 ] || fail "the function went down on QP events"

# a function catastrophe: DEVICE_FATAL, reset, probe again
echo "0x701" >$ae || fail "raise_ae function catastrophic"
for ((i = 0; i < 120; i++)); do
	[ "$(count_log "registered on isim0")" = 2 ] && break
	pause 1
done
[ "$(count_log "RDMA engine stopped (AE 0x701, function catastrophic)")" = 1 ] ||
	fail "irdma did not report the function catastrophe"
[ "$(count_log "registered on isim0")" = 2 ] ||
	fail "the function was not probed again after the reset"
[ "$(sim_cqp_live 0)" = 1 ] || fail "no CQP after the reset"
echo "0x109 1 1" >$ae || fail "raise_ae after the reset"
for ((i = 0; i < 30; i++)); do
	[ "$(count_log "Fatal error (3) on MAD QP (1)")" = 2 ] && break
	pause 1
done
[ "$(count_log "Fatal error (3) on MAD QP (1)")" = 2 ] ||
	fail "QP1 of the new device did not get its event"

echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "async events: QP access and request errors to QP1, unknown objects, function catastrophe and reset"
