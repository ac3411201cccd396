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
# irdma-vm-timeout: 1200
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/pyverbs.sh"

pyverbs_run iwarp 198.51.100.1
