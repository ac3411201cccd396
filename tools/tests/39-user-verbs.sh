#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 11
#
# User CQs and QPs through Debian's unmodified libibverbs/libirdma, driven
# from Python ctypes (the pyverbs import alone takes minutes under TCG).
#
# RoCEv2 function 0: two user RC QPs, each with its own CQ, connected to
# each other (loopback, as test/kverbs.c does for kernel QPs). SEND, SEND
# with immediate, RDMA WRITE and RDMA READ move data the simulator reads
# and writes through the PBLEs of the user rings; completions are polled
# through libirdma, and the data is checked byte for byte. The engine must
# list both QPs as PBLE-mapped and having executed WQEs. A QP moved to ERR
# completes what is posted to it afterwards with flush errors.
#
# Two user UD QPs on the RoCEv2 function: a datagram sent through a user
# AH lands after the GRH's 40 bytes of the receive buffer, its completion
# names the sender's QP; one sent with a Q_Key that is not the receiver's
# is dropped by the receiver.
#
# iWARP function 1: user CQ and QP create, query (INIT from the start, as
# rdma-core's tests expect of iWARP), modify to INIT and destroy; a UD QP
# is refused.
#
# A traffic-class change announced but not over (parent_event tc_prepare):
# a RoCEv2 RC QP's move to RTR, which would build its class's queue set,
# is refused with EBUSY (counted in the port's qos_busy) and leaves the QP
# in INIT; once the change is over (tc_done) the same move succeeds.
#
# Bad requests: sizes over the limits (refused by libirdma or the
# driver), and through the uverbs write() ABI a CQ and a QP created
# without the ring registration libirdma makes first, a CQ that does not
# fit its registration, a registration claimed twice and registrations
# whose length does not match their page counts. Afterwards the engine
# holds the QPs, CQs and STags it held before (the kernel's own); kmemleak
# scans after the run.
# irdma-vm-timeout: 600
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

echo "39-user-verbs: start $$" >/dev/kmsg
load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 roce" >$bus/new_device || fail "create 0 (RoCEv2)"
echo "1 iwarp" >$bus/new_device || fail "create 1 (iWARP)"
ip link set isim0 up || fail "isim0 up"

roce=$(ibdev_of 0)
iw=$(ibdev_of 1)
[ -n "$roce" ] && [ -n "$iw" ] || fail "no RDMA devices: '$roce' '$iw'"
uv=$(uverbs_of "$roce")
[ -c "$uv" ] || fail "no uverbs device for $roce"
gid=""
for i in 1 2 3 4 5 6 7 8 9 10; do
	read -r gid <"/sys/class/infiniband/$roce/ports/1/gids/0"
	[ -n "$gid" ] && [ "$gid" != "0000:0000:0000:0000:0000:0000:0000:0000" ] &&
		break
	gid=""
	sleep 0.5
done
[ -n "$gid" ] || fail "$roce has no GID 0"
echo "$roce (RoCEv2, GID 0 $gid), $iw (iWARP)"

# the reason of every refusal goes to the log, shown if a check fails
for f in cq.c qp.c uring.c mr.c; do
	echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
done

python3 -u "$IRDMA_REPO/tools/guest/user_verbs_checks.py" "$roce" "$iw" "$uv" \
	"$dbg/irdma_sim0/state" ||
	{
		dmesg | grep -E 'irdma|refused' | tail -n 40
		fail "user verbs checks"
	}

echo 0 >$bus/del_device || fail "delete 0"
echo 1 >$bus/del_device || fail "delete 1"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "user verbs checks passed"
