#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 2
#
# irdma_sim: every function has its state file and fault knobs, the knobs
# take values and read them back, and raise_ae refuses to post into an AEQ
# that does not exist and rejects malformed requests.
. "$IRDMA_REPO/tools/guest/lib.sh"

dbg=/sys/kernel/debug/irdma_sim/irdma_sim4

kmod irdma_sim || fail "cannot load irdma_sim"
echo 4 >/sys/bus/irdma_sim/new_device || fail "create 4"

for op in create_qp modify_qp destroy_qp create_cq destroy_cq alloc_stag \
	  reg_mr dealloc_stag create_ceq destroy_ceq create_aeq destroy_aeq \
	  query_fpm commit_fpm update_sds manage_apbvt manage_qhash \
	  create_ah destroy_ah manage_arp nop; do
	[ -w $dbg/fail_$op ] || fail "no fail_$op knob"
done
for k in drop_frames drop_cm_frames drop_toe_segs delay_ms stall_cqp raise_ae reset state; do
	[ -e $dbg/$k ] || fail "no $k"
done

echo 3 >$dbg/fail_create_qp || fail "cannot set fail_create_qp"
[ "$(cat $dbg/fail_create_qp)" = 3 ] || fail "fail_create_qp reads back wrong"
echo Y >$dbg/stall_cqp && [ "$(cat $dbg/stall_cqp)" = Y ] ||
	fail "stall_cqp does not stick"
echo N >$dbg/stall_cqp

out=$( { echo 0x102 >$dbg/raise_ae; } 2>&1) && fail "AE posted without an AEQ"
case "$out" in *"No such file"*) ;; *) fail "raise_ae without AEQ: '$out'" ;; esac
out=$( { echo 0x1000 >$dbg/raise_ae; } 2>&1) && fail "AE code 0x1000 accepted"
out=$( { echo garbage >$dbg/raise_ae; } 2>&1) && fail "garbage accepted"

grep -q "^cqp: live=0" $dbg/state || fail "CQP live without a driver"
grep -q "^ilq: tx=0 rx=0 steered=0 dropped=0 tx_err=0$" $dbg/state ||
	fail "ILQ counters missing or not zero"
echo 2 >$dbg/drop_cm_frames && [ "$(cat $dbg/drop_cm_frames)" = 2 ] ||
	fail "drop_cm_frames does not stick"
grep -q "^vector 0: irq=[1-9]" $dbg/state || fail "vector 0 has no IRQ"

# a function reset replugs the auxiliary device, as ice does on PF reset
aux=/sys/bus/auxiliary/devices/irdma_sim.func.4
[ -e $aux ] || fail "no auxiliary device"
echo 1 >$dbg/reset || fail "reset refused"
[ -e $aux ] || fail "auxiliary device not back after the reset"
grep -q "^hmc: committed=0 sds_valid=0" $dbg/state ||
	fail "HMC state survived the reset"
echo 4 >/sys/bus/irdma_sim/del_device || fail "delete 4"
echo "knobs present and checked"
