#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# irdma_sim's engine suite (irdma_sim_engine) runs when the module loads:
# it drives the CQP, CCQ, HMC, AEQ and interrupt model through registers.
# Collect its KTAP result and fail on any failed case.
. "$IRDMA_REPO/tools/guest/lib.sh"

res=/sys/kernel/debug/kunit/irdma_sim_engine/results

kmod irdma_sim || fail "cannot load irdma_sim"
[ -r $res ] || skip "irdma_sim built without CONFIG_INFINIBAND_IRDMA_KUNIT_TEST"
cat $res
if grep -q "not ok" $res; then
	fail "irdma_sim_engine has failing cases"
fi
grep -Eq "^ok [0-9]+ (- )?irdma_sim_engine" $res ||
	fail "no verdict for irdma_sim_engine"
echo "irdma_sim_engine: $(grep -c '^    ok' $res) cases passed"
