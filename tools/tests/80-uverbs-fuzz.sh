#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 300
#
# Garbage through the uverbs ABI: tools/guest/uverbs_fuzz.c makes
# FUZZ_CALLS (default 4000) seeded random write() calls and mmaps on the
# uverbs file of RoCEv2 function 0 and as many on iWARP function 2:
# every irdma request of every verb with random lengths, bytes, handles
# and flags, rings registered with lying page counts, unmapped, read-only
# and kernel addresses. Each call must return or fail with an errno, and
# what a session made must destroy cleanly (the fuzzer says
# "consistent"). Afterwards the RDMA resources and the engine's objects
# are back to the baseline, nothing oopsed or leaked, and no message in
# the kernel log came more often than a rate limit lets through (10 in
# any 5 s): a user may not print at will.
. "$IRDMA_REPO/tools/guest/lib.sh"

fuzz=/run/irdma/run/uverbs_fuzz
calls=${FUZZ_CALLS:-4000}
seed=${FUZZ_SEED:-44}

[ -x $fuzz ] || fail "no uverbs_fuzz in the run directory"
log_mark 80-uverbs-fuzz

# Fail the test if a kernel log line since log_mark (numbers aside) came
# more often in SECS seconds than a rate limit of 10 in 5 s lets through.
log_flood_check() {
	local limit=$((10 * ($1 / 5 + 1))) line
	local -A n=()

	while IFS= read -r line; do
		line=${line#\[*\] }
		line=${line//[0-9]/#}
		n[$line]=$((${n[$line]:-0} + 1))
	done < <(log_since)
	for line in "${!n[@]}"; do
		((n[$line] <= limit)) ||
			fail "printed ${n[$line]} times in $1 s: $line"
	done
	echo "the kernel log: ${#n[@]} kinds of line, none over $limit"
}

roce=
sim_roce_function0 roce
echo "2 iwarp" >/sys/bus/irdma_sim/new_device || fail "create 2"
ip link set isim2 up || fail "isim2 up"
sim_wait_counts 60 1 2 cqp live
iw=$(ibdev_of 2)
[ -n "$iw" ] || fail "no RDMA device on function 2"
take_baseline "qps stags ahs qhash apbvt_ports mcgs" 0 2

printf -v t0 '%(%s)T' -1
step "$calls calls on $roce, seed $seed"
$fuzz -d "$(uverbs_of "$roce")" -n "$calls" -s "$seed" || fail "the fuzzer on $roce"
step "$calls calls on $iw, seed $((seed + 1))"
$fuzz -d "$(uverbs_of "$iw")" -n "$calls" -s "$((seed + 1))" || fail "the fuzzer on $iw"
printf -v t1 '%(%s)T' -1
echo "$((2 * calls)) calls in $((t1 - t0)) s"
wait_baseline "the fuzzing"
log_flood_check $((t1 - t0))
sim_unload 2 1 0
