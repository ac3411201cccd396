#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 8
#
# Memory regions and windows on a simulated iWARP function, in one Python
# process. Through Debian's unmodified libibverbs/libirdma (ctypes: the
# pyverbs import alone takes minutes under TCG): register MRs of one page,
# 1 MiB and an unaligned 5000 bytes with several access flags, read back
# lkey/rkey, find them in `rdma res show mr` and as STags in the
# simulator's debugfs state with the rights asked for, deregister them.
# Through the uverbs write() ABI (libirdma builds only its own requests):
# bad registrations fail with the expected errno, and type 1 and type 2
# windows come and go when the device reports windows. Afterwards the
# engine holds no STag. Last, function 1 is deleted while the process holds an
# MR on it (disassociate); kmemleak scans after the run.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

echo "36-mr: start $$" >/dev/kmsg
load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"

dev0=$(ibdev_of 0)
dev1=$(ibdev_of 1)
[ -n "$dev0" ] && [ -n "$dev1" ] || fail "no RDMA devices: '$dev0' '$dev1'"
uv0=$(uverbs_of "$dev0")
uv1=$(uverbs_of "$dev1")
[ -c "$uv0" ] && [ -c "$uv1" ] || fail "no uverbs devices: '$uv0' '$uv1'"
grep -q '^objects: .* stags=0 ' $dbg/irdma_sim0/state ||
	fail "STags on a fresh function: $(grep '^objects' $dbg/irdma_sim0/state)"

# the reason of every refusal goes to the log, shown if a check fails
echo 'file mr.c +p' >/sys/kernel/debug/dynamic_debug/control

python3 -u "$IRDMA_REPO/tools/guest/mr_checks.py" "$dev0" "$uv0" "$uv1" "$dbg/irdma_sim0/state" \
	"$bus/del_device" || { dmesg | tail -n 30; fail "MR checks"; }

[ -z "$(ibdev_of 1)" ] || fail "function 1 still has an RDMA device"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "MR checks passed"
