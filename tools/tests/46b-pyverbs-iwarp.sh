#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 480
#
# rdma-core's own test suite (Debian's python3-pyverbs ships it under
# /usr/share/doc/rdma-core/tests) on an iWARP function of irdma_sim,
# through the unmodified libibverbs and libirdma: tools/guest/pyverbs.sh.
# The traffic tests that connect QPs with modify_qp skip themselves (the
# suite finds no usable GID on an iWARP port); the RDMA CM tests run with
# --gid 0 and connect the function's address to itself.
#
# Not run, and listed as such with the reason (never counted as passed):
# test_rdmacm_async_udp_traffic. It uses RDMA CM's UDP port space, which
# needs UD QPs; iWARP has none (RFC 5040 defines reliable connections
# only), so the QP create fails with EOPNOTSUPP, as on any iWARP device,
# and the suite reports that as an error rather than a skip (its RDMA CM
# helpers turn only SkipTest into a skip). In the kernel, rdma_connect()
# on a UD ID needs the IB CM too (rdma_cap_ib_cm()).
# irdma-vm-timeout: 1200
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/pyverbs.sh"

pyverbs_run iwarp 198.51.100.1 --not-run iwarp \
	tests.test_rdmacm.CMTestCase.test_rdmacm_async_udp_traffic \
	"RDMA CM's UDP port space needs UD QPs, which iWARP does not have"
