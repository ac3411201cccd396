#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 30
#
# rdma res show qp|cq|mr|cm_id -dd: irdma's own details (restrack.c),
# checked by tools/guest/restrack_checks.py against what this script made
# and what the simulated engine holds (its debugfs state):
#  - kernel objects of irdma_test_kfault on a RoCEv2 function: an RC QP in
#    RTS, its CQ of 16, a fast-registration MR of 16 pages. The QP's SQ and
#    RQ sizes, engine type and state are the engine's, its ring indexes 0
#    (nothing posted); the CQ's number, size and CEQ are the engine's; the
#    MR is fast_reg, with one level of PBLEs from the index the engine's
#    STag names.
#  - an rping connection over a loopback of an iWARP function: the
#    listener has rping's backlog (3); the two connected ids are OFFLOADED,
#    one active, MPA v2, IRD and ORD 1 both ways (rping's), MSS 1460 (IPv4,
#    MTU 1500); rping's user QPs have the engine's sizes and no indexes.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug
py=$IRDMA_REPO/tools/guest/restrack_checks.py
addr=198.51.100.1
port=7391

cleanup() {
	local p

	for p in ${cpid:-} ${spid:-}; do
		kill -9 "$p" 2>/dev/null
	done
	return 0
}
trap cleanup EXIT

log_mark 39b-restrack
need_user rping librdmacm libirdma
roce=
sim_roce_function0 roce
kmod irdma_test_kfault || fail "cannot load irdma_test_kfault"
echo "2 iwarp" >$bus/new_device || fail "create 2"
ip link set isim2 up || fail "isim2 up"
ip addr add $addr/24 dev isim2 || fail "IPv4 on isim2"
sim_wait_counts 60 1 2 cqp live
iw=$(ibdev_of 2)
[ -n "$iw" ] || fail "no RDMA device on function 2"
roce_port_ready "$roce" fe80:

step "kernel QP, CQ and MR on $roce"
kop=$dbg/irdma_test_kfault/op
for k in pd cq qp_rc rts mr; do
	echo "$roce create $k" >$kop || fail "irdma_test_kfault: create $k"
done
python3 -u "$py" kernel "$roce" $dbg/irdma_sim/irdma_sim0/state ||
	fail "kernel objects"
for k in mr rts qp_rc cq pd; do
	echo "$roce destroy $k" >$kop || fail "irdma_test_kfault: destroy $k"
done

step "an rping connection on $iw"
nice -n 19 stdbuf -oL rping -s -d -a $addr -p $port >/tmp/39b-s.txt 2>&1 &
spid=$!
sim_wait_counts 60 "1 1" 2 objects qhash apbvt_ports
nice -n 19 stdbuf -oL rping -c -d -a $addr -p $port -C 0 >/tmp/39b-c.txt 2>&1 &
cpid=$!
wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" /tmp/39b-c.txt ||
	fail "no connection: $(</tmp/39b-c.txt)"
python3 -u "$py" cm "$iw" $dbg/irdma_sim/irdma_sim2/state $port ||
	fail "cm_ids: $(rdma -dd res show cm_id 2>&1)"
kill -9 $cpid
wait $cpid 2>/dev/null
cpid=
wait_exit 60 $spid || kill -9 $spid
wait $spid 2>/dev/null
spid=

rmmod irdma_test_kfault || fail "rmmod irdma_test_kfault"
sim_unload 2 1 0
echo "rdma res show -dd: kernel QP, CQ and MR details are the engine's; an rping connection's ids show its listener's backlog, OFFLOADED ends with MPA v2, IRD/ORD 1 and MSS 1460"
