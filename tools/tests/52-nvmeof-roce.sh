#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 20
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on RoCEv2 through irdma (tools/guest/nvmeof.sh), the
# kernel's own host and target on one simulated RoCEv2 function (the
# second function only gives the wire a carrier, which the port needs to
# be ACTIVE). rdma_cm runs the connections through the IB CM, whose MADs
# the engine carries as RoCEv2 datagrams on QP1, as in 51-roce-cm. The
# host registers each I/O's pages with IB_WR_REG_MR and asks the target to
# invalidate them (SEND with invalidate); the target moves data with
# rdma_rw: RDMA WRITE, and RDMA READ straight into its pages.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"

log_mark 52-nvmeof-roce
sim_roce_function0 dev
roce_port_ready "$dev" ':ffff:c000:0201'
nvmeof_loop "$dev" roce 52
bad=$(sim_counts 0 ud tx_err tx_lost rx_err drop_full drop_malformed drop_icrc \
	drop_opcode drop_qp drop_qkey drop_no_rqe) || fail "no UD counters"
grep '^ud: ' /sys/kernel/debug/irdma_sim/irdma_sim0/state
[ "${bad//[ 0]/}" = "" ] || fail "the CM's datagrams failed or were dropped"
sim_unload 1 0
