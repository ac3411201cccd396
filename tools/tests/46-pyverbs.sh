#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 1000
#
# rdma-core's own test suite (Debian's python3-pyverbs ships it under
# /usr/share/doc/rdma-core/tests) against a RoCEv2 and an iWARP function of
# irdma_sim, through the unmodified libibverbs and libirdma.
#
# The modules are gzipped there (dh_compress), so tools/irdma-vm puts a
# gunzipped copy, compiled by the host's /usr/bin/python3, in the run
# directory (pyverbs-tests). tools/guest/pyverbs_suite.py loads the suite
# once, as run_tests.py does, and runs every test module on each device
# with run_tests.py's options (--dev; --gid 0 for the RDMA CM tests on
# iWARP, see there why). Under TCG a python start costs about 5 s and the
# suite's import about 30 s more, so one process serves both devices.
#
# Prints "pyverbs roce: N passed, N failed, N skipped" and the same for
# iwarp, each skip reason with the tests it covers, and fails if any test
# fails. The mlx5, EFA, CUDA, ODP, DM, XRC, SRQ and UD tests skip
# themselves, with the suite's reasons.
#
# Not run, and listed as such with the reason (never counted as passed):
# the RDMA CM tests (test_rdmacm) on the RoCEv2 function. RDMA CM over
# RoCEv2 exchanges its CM MADs on QP1 (GSI, UD sends), which irdma_sim
# does not transmit (Documentation/sim.rst, "What is not modelled"); the
# suite cannot know it, since the device is a RoCEv2 device like any
# other, and each test would wait out its 30 s and fail. They run on the
# iWARP function, whose CM is the driver's own over TCP.
# irdma-vm-timeout: 2400
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
py=/usr/bin/python3
tests=/run/irdma/run/pyverbs-tests

[ -x $py ] || skip "no /usr/bin/python3"
$py -c 'import pyverbs' 2>/dev/null || skip "python3-pyverbs is not installed"
[ -f $tests/run_tests.py ] ||
	skip "no pyverbs tests in the run directory (rdma-core's tests not installed)"

log_mark 46-pyverbs
load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 roce" >$bus/new_device || fail "create 0 (RoCEv2)"
echo "1 iwarp" >$bus/new_device || fail "create 1 (iWARP)"
# The suite's RDMA CM tests connect a device's first address to itself.
ip link set isim0 up || fail "isim0 up"
ip link set isim1 up || fail "isim1 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
ip addr add 198.51.100.1/24 dev isim1 || fail "IPv4 on isim1"
roce=$(ibdev_of 0)
iw=$(ibdev_of 1)
[ -n "$roce" ] && [ -n "$iw" ] || fail "no RDMA devices: '$roce' '$iw'"
[ -d /sys/class/infiniband/$roce/device/net/isim0 ] ||
	fail "$roce/device/net does not name isim0"
# RoCEv2 GIDs follow the addresses
for ((i = 0; i < 20; i++)); do
	read -r gid <"/sys/class/infiniband/$roce/ports/1/gids/1"
	[ "$gid" = "0000:0000:0000:0000:0000:ffff:c000:0201" ] && break
	pause 0.5
done
echo "$roce (RoCEv2, isim0 192.0.2.1, GID 1 $gid), $iw (iWARP, isim1 198.51.100.1)"
# the reason of every refusal goes to the kernel log, shown on failure
for f in cq.c qp.c uring.c mr.c verbs.c; do
	echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
done

rc=0
$py -u "$IRDMA_REPO/tools/guest/pyverbs_suite.py" $tests \
	"roce:$roce:roce" "iwarp:$iw:iwarp" \
	--not-run roce tests.test_rdmacm. \
	"irdma_sim does not transmit GSI (QP1) MADs, which RDMA CM needs on RoCEv2" ||
	rc=$?
if [ $rc -ne 0 ]; then
	dmesg | grep -E 'irdma|isim' | grep -v 'AE 0x' | tail -n 60
fi

echo 0 >$bus/del_device || fail "delete 0"
echo 1 >$bus/del_device || fail "delete 1"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim || fail "rmmod irdma_sim"
[ $rc -eq 0 ] || fail "pyverbs: a test failed (exit $rc)"
echo "pyverbs suite passed on both functions"
