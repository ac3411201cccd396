#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 70
# irdma-vm-timeout: 900
#
# A kernel ULP's QP, named to rdma_cm from user space, on one simulated
# iWARP function. The victim: NVMe over Fabrics (tools/guest/nvmeof.sh),
# nvmet-rdma's target and nvme-rdma's host with a verified write behind
# them. The attacker (tools/guest/isolation.py), a process of its own:
#  - as the unprivileged user nobody, rdma_connect() naming each kernel
#    QP, to a port nobody listens on, and rdma_accept() of a request of
#    its own naming one: EACCES (a kernel QP is named only from a kernel
#    thread or by a task with CAP_NET_ADMIN or CAP_SYS_ADMIN);
#  - as root, rdma_connect() naming each: EBUSY (privileged, but every
#    one has its connection).
# Then the host writes and reads back again, and the teardown leaves
# nothing behind (nvmeof_end).
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/nvmeof.sh"
. "$IRDMA_REPO/tools/guest/isolation.sh"

log_mark 65-isolation-kqp
need_user librdmacm libirdma
sim_iwarp_function0 dev
iso_nodes
echo "file cm_hw.c +p" >/sys/kernel/debug/dynamic_debug/control
nvmeof_target "$dev" iso 4
nvmeof_port up
nvmeof_connect ""
nvmeof_write "before the attacks"

# the host's and the target's, each an admin and an I/O queue's; rdma res
# names them all after rdma_cm, which made them
mapfile -t kqps < <(iso_qpns "$dev" kernel)
echo "kernel QPs: ${kqps[*]}"
qpns=()
for q in "${kqps[@]}"; do
	qpns+=("${q%% *}")
done
((${#qpns[@]} == 4)) || fail "not the host's and the target's QPs: ${kqps[*]}"

step "nobody: rdma_connect() and rdma_accept() naming the kernel's QPs"
iso_run nobody /tmp/65-connect-nobody.txt connect 192.0.2.1 9 "${qpns[@]}"
echo "nobody: $(</tmp/65-connect-nobody.txt)"
for q in "${qpns[@]}"; do
	iso_expect /tmp/65-connect-nobody.txt "connect-qp$q" EACCES
done
iso_run nobody /tmp/65-accept.txt accept 192.0.2.1 7065 "${qpns[0]}"
echo "nobody: $(</tmp/65-accept.txt)"
iso_expect /tmp/65-accept.txt "accept-qp${qpns[0]}" EACCES

step "root: rdma_connect() naming the kernel's QPs"
iso_run root /tmp/65-connect-root.txt connect 192.0.2.1 9 "${qpns[@]}"
echo "root: $(</tmp/65-connect-root.txt)"
for q in "${qpns[@]}"; do
	iso_expect /tmp/65-connect-root.txt "connect-qp$q" EBUSY
done
iso_done

nvmeof_write "after the attacks"
nvmeof_end "$dev"
sim_unload 0
echo "a kernel ULP's QPs refused to an unprivileged user (EACCES) and, connected, to root (EBUSY); NVMe-oF kept working and went away cleanly"
