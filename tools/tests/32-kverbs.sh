#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 19
#
# Kernel CQs and QPs through the RDMA core's own consumer: a RoCEv2
# function registers an IB CA with a RoCEv2 port, so ib_mad creates a CQ
# and the GSI QP (QP1), moves it to RTS and posts its receives. The
# simulator's debugfs shows those objects while the function is bound and
# none after unbind. When the simulator fails QP1's CREATE_QP, ib_mad gives
# up on the port (the core registers the device all the same) and the CQ
# it had created is gone again.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs
# seconds.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim
drv=/sys/bus/auxiliary/drivers/irdma.sim

# print the lines of function $1's simulator state matching glob $2
state_lines() {
	local line

	sim_state "$1" || return
	for line in "${SIM_STATE[@]}"; do
		# shellcheck disable=SC2053
		[[ "$line" == $2 ]] && echo "$line"
	done
}

# CQs of function $1 other than the CCQ (CQ 0)
kcqs() {
	state_lines "$1" "cq [1-9]*:*"
}

# QPs of function $1 the engine knows
qps() {
	state_lines "$1" "qp [0-9]*:*"
}

mark="32-kverbs: start $$"
echo "$mark" >/dev/kmsg

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"

echo "0 roce" >$bus/new_device || fail "create 0 (RoCEv2)"
echo "1 iwarp" >$bus/new_device || fail "create 1 (iWARP)"
[ -e /sys/bus/auxiliary/devices/irdma_sim.func.0/driver ] ||
	fail "RoCEv2 function not bound"

devs=$(rdma dev)
echo "$devs"
grep -q "^[0-9]*: irdma[0-9]*: node_type ca " <<<"$devs" ||
	fail "no RoCEv2 (node_type ca) irdma device: $devs"
grep -q "^[0-9]*: irdma[0-9]*: node_type rnic " <<<"$devs" ||
	fail "no iWARP (node_type rnic) irdma device: $devs"
links=$(rdma link)
echo "$links"
grep -q "^link irdma[0-9]*/1 .*netdev isim0" <<<"$links" ||
	fail "rdma link does not show the RoCEv2 port on isim0: $links"

# sysfs of the RoCEv2 device: IB transport over Ethernet
roce=""
for d in /sys/class/infiniband/irdma*; do
	read -r nt <"$d/node_type"
	[ "$nt" = "1: CA" ] && roce=${d##*/}
done
[ -n "$roce" ] || fail "no irdma device with node type CA"
read -r ll <"/sys/class/infiniband/$roce/ports/1/link_layer"
[ "$ll" = Ethernet ] || fail "$roce link layer is '$ll'"
read -r gid0 <"/sys/class/infiniband/$roce/ports/1/gids/0" || gid0="(none)"
echo "$roce: node type CA, link layer $ll, GID 0 $gid0"

# the same through Debian's libirdma: a user context on the RoCEv2 device
info=$(ibv_devinfo -v -d "$roce") || fail "ibv_devinfo -d $roce failed: $info"
grep -Eq "transport:[[:space:]]+InfiniBand \(0\)" <<<"$info" ||
	fail "ibv_devinfo: $roce transport is not InfiniBand: $info"
grep -Eq "link_layer:[[:space:]]+Ethernet" <<<"$info" ||
	fail "ibv_devinfo: $roce link layer is not Ethernet: $info"
logged=$(dmesg | sed -n 's/.*irdma_sim.func.0: RDMA engine up: \([0-9]*\) QPs.*/\1/p' | tail -1)
grep -Eq "max_qp:[[:space:]]+$logged\$" <<<"$info" ||
	fail "ibv_devinfo: max_qp is not the $logged QPs the driver logged: $info"
# an AH takes one of the engine's AH contexts; index 0 is never used
ahs=$(dmesg | sed -n 's/.*irdma_sim.func.0: RDMA engine up: .* \([0-9]*\) AHs.*/\1/p' | tail -1)
[ -n "$ahs" ] || fail "the driver logged no AH count"
grep -Eq "max_ah:[[:space:]]+$((ahs - 1))\$" <<<"$info" ||
	fail "ibv_devinfo: max_ah is not $((ahs - 1)) ($ahs AH contexts): $info"
grep -E "transport:|link_layer:|max_qp:|max_cq:|max_mr:|max_ah:" <<<"$info"

# ib_mad's GSI QP and its CQ exist on the engine, QP1 in RTS (2), UD (4)
q=$(qps 0)
c=$(kcqs 0)
echo "$q"
echo "$c"
grep -q "^qp 1: type=4 state=2 " <<<"$q" || fail "no QP1 in RTS on function 0: $q"
[ -n "$c" ] || fail "no kernel CQ on function 0"
# the iWARP function has no MAD QP, only the CM's ILQ and the IEQ: QPs 1
# and 2, UDA (2), RTS
q1=$(qps 1)
[[ $(grep -c . <<<"$q1") == 2 && $q1 == "qp 1: type=2 state=2 "* &&
   $(sed -n 2p <<<"$q1") == "qp 2: type=2 state=2 "* ]] ||
	fail "iWARP function: want the ILQ and the IEQ alone, have QPs: $q1"

echo irdma_sim.func.0 >$drv/unbind || fail "unbind 0"
[ -z "$(qps 0)" ] || fail "QPs left after unbind: $(qps 0)"
[ -z "$(kcqs 0)" ] || fail "CQs left after unbind: $(kcqs 0)"
echo "unbind destroys QP1 and its CQ"

# QP1's CREATE_QP fails: ib_mad gives up on the port, nothing stays behind
echo 1 >$dbg/irdma_sim0/fail_create_qp || fail "set fail_create_qp"
echo irdma_sim.func.0 >$drv/bind || fail "bind with CREATE_QP failing"
read -r left <$dbg/irdma_sim0/fail_create_qp
[ "$left" = 0 ] || fail "registration never created QP1"
[ -z "$(qps 0)" ] || fail "QPs left after the failed CREATE_QP: $(qps 0)"
[ -z "$(kcqs 0)" ] || fail "CQs left after the failed CREATE_QP: $(kcqs 0)"
echo irdma_sim.func.0 >$drv/unbind || fail "unbind after the failed CREATE_QP"
echo "a failed CREATE_QP of QP1 leaves no QP and no CQ"

echo irdma_sim.func.0 >$drv/bind || fail "bind 0 again"
grep -q "^qp 1: type=4 state=2 " <<<"$(qps 0)" || fail "no QP1 after rebind"

for i in 1 2 3; do
	rmmod irdma || fail "cycle $i: rmmod irdma"
	[ -z "$(qps 0)$(kcqs 0)" ] || fail "cycle $i: objects left after rmmod"
	kmod irdma || fail "cycle $i: load irdma"
	grep -q "^qp 1: type=4 state=2 " <<<"$(qps 0)" ||
		fail "cycle $i: no QP1"
done
echo "3 load/unload cycles with QP1"

rmmod irdma || fail "rmmod irdma"
echo 1 >$bus/del_device || fail "delete 1"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
