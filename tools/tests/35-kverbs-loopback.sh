#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 14
#
# A kernel verbs consumer on one RoCEv2 function: irdma_test_kverbs.ko
# connects two RC QPs of the function to each other and checks SEND/RECV,
# WRITE, READ, immediate data, inline data, error completions, flushing
# and ib_drain_qp() as the simulator executes them; its load fails on any
# mismatch. It also prints a benchmark line (shown, not judged). After it
# is unloaded the simulator must hold no QP or CQ of it; after irdma is
# unloaded, none at all.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs
# seconds.
#
# The port's counters are the engine's alone (no connection manager on
# RoCEv2): each message counted out and in, the same number of each.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim

# QPs and CQs (other than the CCQ) function 0's engine knows: "qp 1" ...
objects() {
	local line

	sim_state 0 || return
	for line in "${SIM_STATE[@]}"; do
		case "$line" in
		"qp "[0-9]*:* | "cq "[1-9]*:*) echo "${line%%:*}" ;;
		esac
	done
}

log_mark 35-kverbs-loopback

kmod -n irdma_test_kverbs >/dev/null 2>&1 ||
	skip "irdma_test_kverbs.ko not built (CONFIG_INFINIBAND_IRDMA_TEST_KVERBS)"
load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 roce" >$bus/new_device || fail "create 0 (RoCEv2)"
ip link set isim0 up || fail "isim0 up"

roce=""
for d in /sys/class/infiniband/irdma*; do
	read -r nt <"$d/node_type"
	[ "$nt" = "1: CA" ] && roce=${d##*/}
done
[ -n "$roce" ] || fail "no RoCEv2 irdma device"
gid=""
for i in 1 2 3 4 5 6 7 8 9 10; do
	read -r gid <"/sys/class/infiniband/$roce/ports/1/gids/0"
	[ -n "$gid" ] && [ "$gid" != "0000:0000:0000:0000:0000:0000:0000:0000" ] &&
		break
	gid=""
	sleep 0.5
done
[ -n "$gid" ] || fail "$roce has no GID 0"
echo "$roce: GID 0 $gid"

before=$(objects)
echo "engine objects before: ${before:-none}"

kmod irdma_test_kverbs
rc=$?
log=$(log_since | grep 'irdma_test_kverbs: ')
echo "$log"
[ $rc -eq 0 ] || fail "irdma_test_kverbs failed to load ($rc)"
grep -q "all checks passed" <<<"$log" || fail "no 'all checks passed' line"
bench=$(grep "benchmark:" <<<"$log")
[ -n "$bench" ] || fail "no benchmark line"
grep -q "^irdma_test_kverbs " /proc/modules || fail "module not loaded"
rmmod irdma_test_kverbs || fail "rmmod irdma_test_kverbs"

declare -A cnt
port_counters "$roce"
out=$cnt_line
line="rdma statistic show link $roce/1:"
for c in iwOutRdmaSends iwInRdmaSends iwOutRdmaWrites iwInRdmaWrites iwOutRdmaReads \
	iwInRdmaReads; do
	line+=" $c ${cnt[$c]:-?}"
done
echo "$line"
[ -z "${cnt[cm_connects]+x}" ] || fail "a RoCEv2 port shows the iWARP CM's counters: $out"
for c in Sends Writes Reads; do
	[ "${cnt[iwOutRdma$c]:-0}" -ge 1 ] || fail "no RDMA $c counted: $out"
	[ "${cnt[iwOutRdma$c]}" = "${cnt[iwInRdma$c]}" ] ||
		fail "RDMA $c: ${cnt[iwOutRdma$c]} out, ${cnt[iwInRdma$c]} in, on one function"
done

after=$(objects)
echo "engine objects after: ${after:-none}"
[ "$after" = "$before" ] || fail "engine objects changed: before '$before' after '$after'"

rmmod irdma || fail "rmmod irdma"
left=$(objects)
[ -z "$left" ] || fail "QPs/CQs left after rmmod irdma: $left"
echo "no QP or CQ left on the engine"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "$bench"
