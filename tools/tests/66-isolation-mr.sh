#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 45
# irdma-vm-timeout: 600
#
# Destroys the engine fails, on a simulated iWARP function, through
# Debian's libibverbs and libirdma (and the uverbs write() ABI for a
# window): the simulator's fail_<op> knobs fail the next DEALLOC_STAG,
# DESTROY_CQ or DESTROY_QP. Each time the verb must fail with EIO and the
# object stay whole: an MR's pages stay pinned (VmPin of the process) as
# long as its STag is on the engine, so a peer holding the key can reach
# only pages that are still the MR's, never freed ones; a window's STag, a
# CQ and a QP (its rings still pinned) stay on the engine. The destroy
# tried again succeeds and releases everything, the STag gone from the
# engine. Last, the MPA reply of a connection a user QP accepted (its
# LSMM, under an STag of the QP's PD; the peer a kernel TCP socket in a
# namespace of its own on the other function, as in 42-cm-accept): the
# QP's destroy while DEALLOC_STAG fails is refused, the reply's STag
# stays on the engine, and the destroy tried again takes it.
. "$IRDMA_REPO/tools/guest/lib.sh"

dbg=/sys/kernel/debug/irdma_sim/irdma_sim0
ns=isompeer
port=7066
pdata=lsmm-kept-66
go=/tmp/66-isolation.go

cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	[ -n "${ppid_:-}" ] && kill "$ppid_" 2>/dev/null
	ip netns del $ns 2>/dev/null
	rm -f $go
	return 0
}
trap cleanup EXIT

log_mark 66-isolation-mr
need_user libirdma librdmacm
load_irdma_sim
sim_iwarp_pair_netns $ns
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device on function 0"
sim_wait_counts 60 1 0 cqp live
uv=$(uverbs_of "$dev")
[ -c "$uv" ] || fail "no uverbs device for $dev"
echo "file mr.c +p" >/sys/kernel/debug/dynamic_debug/control
take_baseline "qps stags" 0

step "destroys that the engine fails, then succeed"
python3 -u "$IRDMA_REPO/tools/guest/failed_destroys.py" "$dev" "$uv" "$dbg" ||
	fail "failed destroys: see above"
wait_baseline "the failed destroys"

step "the LSMM's STag: a user QP's destroy while DEALLOC_STAG fails"
rm -f $go
python3 -u "$IRDMA_REPO/tools/guest/lsmm_destroy.py" 192.0.2.1 $port $pdata "$dbg" \
	$go >/tmp/66-accept.txt 2>&1 &
lpid=$!
wait_line 300 listening /tmp/66-accept.txt ||
	fail "no listener: $(</tmp/66-accept.txt)"
ip netns exec $ns python3 -u "$IRDMA_REPO/tools/guest/iwcm.py" peer-accept \
	192.0.2.1 $port $pdata >/tmp/66-peer.txt 2>&1 &
ppid_=$!
wait_line 300 "MPA reply received" /tmp/66-peer.txt ||
	fail "no MPA reply at the peer: $(</tmp/66-peer.txt); listener: $(</tmp/66-accept.txt)"
: >$go
wait_exit 300 $lpid ||
	fail "the accepting process does not finish: $(</tmp/66-accept.txt)"
wait $lpid || fail "the accepting process failed: $(</tmp/66-accept.txt)"
lpid=
echo "listener: $(</tmp/66-accept.txt)"
wait_exit 300 $ppid_ || fail "the peer does not finish: $(</tmp/66-peer.txt)"
wait $ppid_ || fail "the peer failed: $(</tmp/66-peer.txt)"
ppid_=
st0='' st1='' st2='' d1='' d2=''
while IFS= read -r line; do
	case $line in
	"the reply's STag: "*) st0=${line#*: } ;;
	"after it, the reply's STag: "*) st1=${line#*: } ;;
	"then, the reply's STag: "*) st2=${line#*: } ;;
	"ATTEMPT destroy-qp: "*) d1=${line#*: } ;;
	"ATTEMPT destroy-qp-again: "*) d2=${line#*: } ;;
	esac
done </tmp/66-accept.txt
[ -n "$st0" ] && [ "$st0" != None ] ||
	fail "no STag of the MPA reply on the engine"
[ "$d1" = EIO ] ||
	fail "the QP's destroy with its reply's DEALLOC_STAG failed: ${d1:-no answer}, not EIO"
[ "$st1" = "$st0" ] ||
	fail "the reply's STag $st0 left the engine with the failed destroy: $st1"
[ "$d2" = ok ] || fail "the destroy tried again: ${d2:-no answer}"
[ "$st2" = None ] || fail "the reply's STag $st0 stays on the engine: $st2"
wait_baseline "the LSMM"

[ "$(count_log "DEALLOC_STAG failed")" -ge 3 ] ||
	fail "the failures were not reported: $(log_since | tail -n 5)"
sim_pair_remove $ns
echo "DEALLOC_STAG, DESTROY_QP and DESTROY_CQ failed by the engine left each object whole (pages pinned, STags, QP, CQ and the MPA reply on the engine) and refused; tried again, every destroy released it all"
