#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 409
#
# rdma-core's own test suite (Debian's python3-pyverbs ships it under
# /usr/share/doc/rdma-core/tests) on a RoCEv2 function of irdma_sim,
# through the unmodified libibverbs and libirdma: tools/guest/pyverbs.sh.
#
# The RDMA CM tests (test_rdmacm) run too: RDMA CM over RoCEv2 exchanges
# its CM MADs on QP1 (GSI) as UD sends, which the engine carries as
# RoCEv2 datagrams (51-roce-cm.sh). Not run, and listed as such with the
# reason (never counted as passed): the UDP port space, which needs user
# UD QPs, which the driver does not offer.
# irdma-vm-timeout: 1200
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/pyverbs.sh"

pyverbs_run roce 192.0.2.1 \
	--not-run roce tests.test_rdmacm.CMTestCase.test_rdmacm_async_udp_traffic \
	"RDMA CM's UDP port space needs user UD QPs, which irdma does not offer"
