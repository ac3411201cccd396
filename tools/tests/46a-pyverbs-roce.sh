#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 409
#
# rdma-core's own test suite (Debian's python3-pyverbs ships it under
# /usr/share/doc/rdma-core/tests) on a RoCEv2 function of irdma_sim,
# through the unmodified libibverbs and libirdma: tools/guest/pyverbs.sh.
#
# Not run, and listed as such with the reason (never counted as passed):
# the RDMA CM tests (test_rdmacm). RDMA CM over RoCEv2 exchanges its CM
# MADs on QP1 (GSI, UD sends), which irdma_sim does not transmit
# (Documentation/sim.rst, "What is not modelled"); the suite cannot know
# it, since the device is a RoCEv2 device like any other, and each test
# would wait out its timeout and fail. They run on the iWARP function
# (46b), whose CM is the driver's own over TCP.
# irdma-vm-timeout: 1200
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/pyverbs.sh"

pyverbs_run roce 192.0.2.1 --not-run roce tests.test_rdmacm. \
	"irdma_sim does not transmit GSI (QP1) MADs, which RDMA CM needs on RoCEv2"
