#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 300
#
# Allocation failures on every path. tools/guest/faultwalk.c sets the
# task's fail-nth to n = 1, 2, ... around one call, so that the n-th fault
# point the call passes fails: each allocation (failslab, fail_page_alloc,
# GFP_KERNEL ones included, of any order) and each user copy
# (fail_usercopy), until the call passes its last one. Every failure
# must reach the caller as an errno (or be tolerated: the call succeeds),
# nothing may oops, WARN or leak (kmemleak, at the guest's end), and the
# engine's objects must be back to the baseline after each try and the
# RDMA resources after each walk. It prints how many points each walk had
# and the errnos ("no-errno": the library left none; "not-an-errno": it
# left a value that is none, as libirdma 44's ibv_create_ah() does when
# its GID query fails: it stores ibv_query_gid()'s -1 in errno).
#  - RoCEv2 function 0, user verbs through libibverbs and libirdma: the
#    context (GET_CONTEXT written raw: faultwalk.c says why), PD, CQ, RC
#    and UD QPs, MR, MW, AH, multicast attach and an RC QP's move to RTR;
#    the destruction of each, in a context of its own.
#  - The same function, kernel verbs through irdma_test_kfault (a kernel
#    consumer making objects in the writer's context): PD, CQ, RC and UD
#    QPs, a fast-registration MR, an AH and an RC QP to RTS; the
#    destruction of each (a kernel destroy may not fail).
#  - iWARP function 2 alone: user CQ, RC QP and MR, a kernel RC QP.
# 68b-fault-cm walks the connection manager.
. "$IRDMA_REPO/tools/guest/lib.sh"

walker=/run/irdma/run/faultwalk
fi=/sys/kernel/debug
bus=/sys/bus/irdma_sim

[ -x $walker ] || skip "no faultwalk: the host lacks libibverbs-dev or librdmacm-dev"
need_user librdmacm libirdma
[ -w /proc/self/fail-nth ] || fail "no fail-nth: a kernel without CONFIG_FAULT_INJECTION"
log_mark 68-fault-alloc

# fail-nth counts whatever capability would fail: sleeping allocations
# too, and pages of any order but user pages; no report per failure
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
kmod irdma_test_kfault || fail "cannot load irdma_test_kfault"
roce=
sim_roce_function0 roce
echo "2 iwarp" >$bus/new_device || fail "create 2"
ip -batch - <<EOF || fail "isim2 up with 198.51.100.1/24"
link set isim2 up
addr add 198.51.100.1/24 dev isim2
EOF
sim_wait_counts 60 1 2 cqp live
iw=$(ibdev_of 2)
[ -n "$iw" ] || fail "no RDMA device on function 2"
roce_port_ready "$roce" fe80:
# connections closed first by the engine leave TIME_WAIT soon
echo 100 >$fi/irdma_sim/irdma_sim2/time_wait_ms
take_baseline "qps stags ahs qhash apbvt_ports mcgs" 0 2

st0=$fi/irdma_sim/irdma_sim0/state
st2=$fi/irdma_sim/irdma_sim2/state
kop=$fi/irdma_test_kfault/op

step "RoCEv2 $roce: user verbs, kernel verbs"
$walker -d "$roce" -k $kop -s $st0 \
	ctx pd cq qp_rc qp_ud mr mw ah mcast rtr \
	pd- cq- qp_rc- qp_ud- mr- mw- ah- mcast- \
	k_nop k_pd k_cq k_qp_rc k_qp_ud k_mr k_ah k_rts \
	k_pd- k_cq- k_qp_rc- k_qp_ud- k_mr- k_ah- || fail "RoCEv2 walks"

step "iWARP $iw: verbs"
$walker -d "$iw" -k $kop -s $st2 cq qp_rc mr k_qp_rc || fail "iWARP walks"

wait_baseline "fault walks"
rmmod irdma_test_kfault || fail "rmmod irdma_test_kfault"
sim_unload 2 1 0
