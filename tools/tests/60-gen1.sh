#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 8
#
# A simulated X722 (gen1) function: the engine has the X722 register map,
# expects the gen1 CQP context and command layouts, numbers its vectors
# from 2 and has no vector 0 of its own (PFINT_DYN_CTLN(n) is vector
# n + 1). irdma brings it up through the same code as an E810: the CQP
# answers, the HMC is committed with the gen1 objects, an AE raised by the
# simulator arrives through the AEQ's vector (no cause went to a vector the
# function does not own), the local MAC table holds the netdev's address
# and follows a change of it, and Debian's libirdma opens the device in
# gen1 mode (ibv_devinfo -v: iWARP, 3 SGEs, IRD 63, ORD 127). A failure
# of either local MAC command during probe fails it cleanly: no CQP, no
# table entry left. An X722 has no RoCE: such a function cannot be made.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim/irdma_sim0
drv=/sys/bus/auxiliary/drivers/irdma.sim

log_mark 60-gen1

# the value of "KEY: value" in function 0's state (builtins only)
state_value() {
	local line

	sim_state 0 || return
	for line in "${SIM_STATE[@]}"; do
		if [[ $line == "$1: "* ]]; then
			echo "${line#"$1: "}"
			return
		fi
	done
}

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"

step "no RoCE on gen1"
echo "1 roce gen1" >$bus/new_device 2>/dev/null &&
	fail "a gen1 RoCEv2 function was created"

step "bring-up"
echo "0 iwarp gen1" >$bus/new_device || fail "create 0"
[ "$(state_value gen)" = 1 ] || fail "function 0 is gen '$(state_value gen)'"
[ "$(sim_cqp_live 0)" = 1 ] || fail "function 0's CQP did not come up"
for ((i = 0; i < 30; i++)); do
	[ -n "$(ibdev_of 0)" ] && break
	pause 1
done
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device for the gen1 function: $(log_since)"
[ "$(count_log "irdma_sim.func.0: RDMA engine up")" = 1 ] ||
	fail "no bring-up line: $(log_since)"

step "probe failures in the local MAC commands"
echo irdma_sim.func.0 >$drv/unbind || fail "unbind 0"
[ "$(sim_cqp_live 0)" = 0 ] || fail "unbind left the CQP"
for op in alloc_mac manage_mac; do
	echo 1 >"$dbg/fail_$op" || fail "set fail_$op"
	echo irdma_sim.func.0 >$drv/bind 2>/dev/null &&
		fail "probe succeeded with $op failing"
	read -r left <"$dbg/fail_$op"
	[ "$left" = 0 ] || fail "probe never issued $op"
	[ "$(sim_cqp_live 0)" = 0 ] || fail "failed $op: the CQP is left"
	[ -z "$(state_value "lmac 0")" ] || fail "failed $op: MAC entry 0 is left"
done
echo irdma_sim.func.0 >$drv/bind || fail "bind 0 after the failures"
for ((i = 0; i < 30; i++)); do
	[ -n "$(ibdev_of 0)" ] && break
	pause 1
done
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device after the failures"

step "an AE through the AEQ's vector"
# 0x208 invalid request, source 5 (SQ), a QP nobody has: logged and dropped
ae_trace_start || fail "no irdma_ae tracepoint"
echo "0x208 5 77" >$dbg/raise_ae || fail "raise_ae"
for ((i = 0; i < 30; i++)); do
	n=$(ae_traced "irdma_sim.func.0 AE 0x208 source 0x5 QP 77")
	[ "$n" = 0 ] || break
	pause 1
done
ae_trace_stop
[ "$n" = 1 ] || fail "the AE arrived $n times: $(log_since)"
[ "$(state_value bad_vector)" = 0 ] ||
	fail "causes routed to vectors the function does not own: $(state_value bad_vector)"

step "the local MAC entry follows the netdev"
nd=$(state_value netdev)
read -r mac <"/sys/class/net/$nd/address"
lmac=$(state_value "lmac 0")
[ "$lmac" = "$mac" ] || fail "local MAC entry 0 is '$lmac', netdev has $mac"
# an Ethernet driver takes a new address while the interface is down
ip link set dev "$nd" down || fail "down"
ip link set dev "$nd" address 02:00:5e:10:00:61 || fail "set MAC"
ip link set dev "$nd" up || fail "up"
lmac=$(state_value "lmac 0")
[ "$lmac" = 02:00:5e:10:00:61 ] || fail "local MAC entry 0 is '$lmac' after the change"
[ "$(count_log "gen1 source MAC not updated")" = 0 ] || fail "$(log_since)"

step "libirdma in gen1 mode"
info=$(ibv_devinfo -v -d "$dev") || fail "ibv_devinfo -v -d $dev: $info"
echo "$info"
[[ $info == *"transport:"*"iWARP"* ]] || fail "$dev is not iWARP"
declare -A attr
ibv_info_attrs "$info"
[ "${attr[max_sge]}" = 3 ] || fail "$dev: max_sge '${attr[max_sge]}', gen1 takes 3"
# X722 keeps 63 inbound and 127 outbound READs per QP
[ "${attr[max_qp_rd_atom]}" = 63 ] ||
	fail "$dev: max_qp_rd_atom '${attr[max_qp_rd_atom]}', gen1 has 63"
[ "${attr[max_qp_init_rd_atom]}" = 127 ] ||
	fail "$dev: max_qp_init_rd_atom '${attr[max_qp_init_rd_atom]}', gen1 has 127"

step "unbind"
echo 0 >$bus/del_device || fail "delete 0"
[ "$(irdma_dev_count)" = 0 ] || fail "an RDMA device is left"
echo "PASS: gen1 function brought up, used and removed"
