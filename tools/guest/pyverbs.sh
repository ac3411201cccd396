# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# shellcheck shell=bash
# rdma-core's own test suite on one simulated function, for the guest
# script 46a-pyverbs-roce.sh (sourced after lib.sh), and for an iWARP half
# in a script of its own, 46b-pyverbs-iwarp.sh (Documentation/testing.rst).
# One protocol per script, so the harness's lanes can run the two halves at
# once.
#
# The modules are gzipped where Debian installs them (dh_compress), so
# tools/irdma-vm puts a gunzipped copy, compiled by the host's
# /usr/bin/python3, in the run directory (pyverbs-tests).
# tools/guest/pyverbs_suite.py loads the suite once, as run_tests.py does,
# and runs every test module on the device with run_tests.py's options
# (--dev; --gid 0 for the RDMA CM tests on iWARP, see there why). It prints
# "pyverbs LABEL: N passed, N failed, N skipped", each skip reason with the
# tests it covers, and fails if any test fails. The mlx5, EFA, CUDA, ODP,
# DM, XRC, SRQ and UD tests skip themselves, with the suite's reasons.

# pyverbs_run PROTO ADDR [--not-run LABEL PREFIX REASON]...: create
# simulated function 0 with protocol PROTO (roce or iwarp), give its netdev
# isim0 the IPv4 address ADDR/24 (the suite's RDMA CM tests connect the
# device's first address to itself), run the suite on it, tear it down.
# Function 1 is created too, with its netdev isim1 up and no address: it
# is isim0's other end, and without it isim0 has no carrier, the port is
# DOWN and the suite skips every traffic test ("Port 1 is not up").
# PYVERBS_DRIVER=upstream: both functions claimed by Linux 6.1's irdma
# (73, 74), the counts labelled "upstream-PROTO" and printed beside ours.
pyverbs_run() {
	local proto=$1 addr=$2 py=/usr/bin/python3 rc=0 dev gid f i state
	local tests=/run/irdma/run/pyverbs-tests bus=/sys/bus/irdma_sim
	local drv=${PYVERBS_DRIVER:-irdma} label=$1

	shift 2
	[ -x $py ] || skip "no /usr/bin/python3"
	[ -f $tests/run_tests.py ] ||
		skip "no pyverbs tests in the run directory (rdma-core's tests not installed)"
	[ -d /usr/lib/python3/dist-packages/pyverbs ] ||
		skip "python3-pyverbs is not installed"

	[ "$drv" = irdma ] || label=$drv-$proto
	log_mark "pyverbs-$label"
	if [ "$drv" = upstream ]; then
		load_irdma_upstream
	else
		load_irdma_sim
	fi
	echo "0 $proto gen2 $drv" >$bus/new_device ||
		fail "create function 0 ($proto)"
	echo "1 $proto gen2 $drv" >$bus/new_device ||
		fail "create function 1 ($proto)"
	ip link set isim1 up || fail "isim1 up"
	ip link set isim0 up || fail "isim0 up"
	ip addr add "$addr/24" dev isim0 || fail "IPv4 on isim0"
	dev=$(ibdev_of 0)
	[ -n "$dev" ] || fail "no RDMA device for function 0"
	[ -d "/sys/class/infiniband/$dev/device/net/isim0" ] ||
		fail "$dev/device/net does not name isim0"
	# the suite skips its traffic tests on a port that is not ACTIVE
	for ((i = 0; i < 20; i++)); do
		read -r state <"/sys/class/infiniband/$dev/ports/1/state"
		[[ $state == *ACTIVE ]] && break
		pause 0.5
	done
	[[ $state == *ACTIVE ]] || fail "$dev port 1 is '$state', not ACTIVE"
	if [ "$proto" = roce ]; then
		# RoCEv2 GIDs follow the addresses: GID 1 is the IPv4 one
		for ((i = 0; i < 20; i++)); do
			read -r gid <"/sys/class/infiniband/$dev/ports/1/gids/1"
			[[ $gid == *:ffff:* ]] && break
			pause 0.5
		done
		echo "$dev (RoCEv2, isim0 $addr, GID 1 $gid)"
	else
		echo "$dev (iWARP, isim0 $addr)"
	fi
	# the reason of every refusal goes to the kernel log, shown on failure
	for f in cq.c qp.c uring.c mr.c verbs.c; do
		echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
	done

	$py -u "$IRDMA_REPO/tools/guest/pyverbs_suite.py" $tests \
		"$label:$dev:$proto" "$@" || rc=$?
	# CQP timeouts reset the function under the suite: name them always
	dmesg | grep -E 'CQP command .* timed out|resetting the function'
	if [ $rc -ne 0 ]; then
		dmesg | grep -E 'irdma|isim' | grep -v 'AE 0x' | tail -n 60
	fi

	echo 0 >$bus/del_device || fail "delete function 0"
	echo 1 >$bus/del_device || fail "delete function 1"
	if [ "$drv" = upstream ]; then
		rmmod irdma_upstream || fail "rmmod irdma_upstream"
		upstream_done
	fi
	rmmod irdma || fail "rmmod irdma"
	rmmod irdma_sim || fail "rmmod irdma_sim"
	[ "$drv" = irdma ] || pyverbs_ours "$proto"
	[ $rc -eq 0 ] || fail "pyverbs $label: a test failed (exit $rc)"
	echo "pyverbs suite passed on the $label function"
}

# pyverbs_ours PROTO: our driver's counts for PROTO from this run's 46a or
# 46b log, if a lane has written it (lanes share the run directory).
pyverbs_ours() {
	local f line

	for f in /run/irdma/run/e2e*/e2e/46?-pyverbs-"$1".log; do
		[ -e "$f" ] || continue
		while IFS= read -r line; do
			[[ $line == "pyverbs $1: "* ]] || continue
			echo "beside ours: $line"
			return 0
		done <"$f"
	done
	echo "beside ours: pyverbs $1 has not finished in this run (46a/46b)"
}

# pyverbs_upstream_args LABEL MCREASON: set PYVERBS_UPSTREAM to what 73 and
# 74 share: upstream's multicast tests not run (MCREASON, each protocol's
# own) and its unchecked user CQ size, expected to fail.
pyverbs_upstream_args() {
	local cm=tests.test_rdmacm.CMTestCase.test_rdmacm_ t
	local cq="upstream's bug: a user CQ's size is not checked, the adapter refuses it (EIO)"

	PYVERBS_UPSTREAM=()
	for t in async_ex_leave_multicast_traffic async_ex_multicast_traffic \
		async_multicast_traffic; do
		PYVERBS_UPSTREAM+=(--not-run "$1" "$cm$t" "$2")
	done
	PYVERBS_UPSTREAM+=(
		--expect-fail "$1" tests.test_cq.CQAPITest.test_create_cq_bad_flow "5 != 22" "$cq"
		--expect-fail "$1" tests.test_cqex.CQEXAPITest.test_create_cq_ex_bad_flow "5 != 22" "$cq")
}
