#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 300
#
# Allocation failures in the connection manager, as 68-fault-alloc walks
# the verbs (tools/guest/faultwalk.c, fail-nth per task): listen,
# connect, accept, reject and disconnect through librdmacm on an iWARP
# loopback (function 2 to itself), the n-th fault point of the one call
# failing, n = 1, 2, ... until the call passes its last one. Every
# failure reaches the caller as an errno (or is tolerated); the other end
# hears of a failed accept or reject at once (its RST needs no memory),
# not at its MPA timer; the engine's objects and the RDMA resources are
# back to the baseline after each walk; nothing oopses, WARNs or leaks.
# Prints how many points each operation had.
. "$IRDMA_REPO/tools/guest/lib.sh"

walker=/run/irdma/run/faultwalk
fi=/sys/kernel/debug
bus=/sys/bus/irdma_sim

[ -x $walker ] || skip "no faultwalk: the host lacks libibverbs-dev or librdmacm-dev"
need_user librdmacm libirdma
[ -w /proc/self/fail-nth ] || fail "no fail-nth: a kernel without CONFIG_FAULT_INJECTION"
log_mark 68b-fault-cm

# as 68-fault-alloc: sleeping allocations and pages of any order count
fault_knobs() {
	echo "$1" >$fi/failslab/ignore-gfp-wait &&
		echo "$1" >$fi/fail_page_alloc/ignore-gfp-wait &&
		echo "$2" >$fi/fail_page_alloc/min-order &&
		echo 0 >$fi/failslab/verbose &&
		echo 0 >$fi/fail_page_alloc/verbose &&
		echo 0 >$fi/fail_usercopy/verbose
}
trap 'fault_knobs Y 1' EXIT
fault_knobs N 0 || fail "cannot set the fault-injection knobs"

load_irdma_sim
echo "2 iwarp" >$bus/new_device || fail "create 2"
ip -batch - <<EOT || fail "isim2 up with 198.51.100.1/24"
link set isim2 up
addr add 198.51.100.1/24 dev isim2
EOT
sim_wait_counts 60 1 2 cqp live
iw=$(ibdev_of 2)
[ -n "$iw" ] || fail "no RDMA device on function 2"
# connections closed first by the engine leave TIME_WAIT soon
echo 100 >$fi/irdma_sim/irdma_sim2/time_wait_ms
take_baseline "qps stags ahs qhash apbvt_ports mcgs" 2

step "iWARP $iw: the connection manager on a loopback"
$walker -d "$iw" -a 198.51.100.1 -p 7400 -s $fi/irdma_sim/irdma_sim2/state \
	listen connect accept reject disconnect || fail "CM walks"

wait_baseline "CM fault walks"
sim_unload 2
