#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 13
#
# User contexts through Debian's unmodified libirdma: two simulated iWARP
# functions show up in ibv_devices, ibv_devinfo -v reports transport
# iWARP, the node GUID and the QP/CQ/MR limits the driver logged from its
# HMC profile. Malformed GET_CONTEXT requests (written straight to the
# uverbs write() ABI: libirdma only builds good ones) are refused, the
# doorbell page maps and bad maps are refused, 50 open/context/mmap/PD/
# close cycles leave nothing behind (kmemleak scans after), and a
# function can be deleted while a process holds a context on it with the
# doorbell page mapped.
#
# Under TCG every exec from the 9p root costs seconds: parsing is done
# with builtins and all the Python work happens in one process, without
# pyverbs (importing it takes minutes there): the 50 cycles use the raw
# uverbs ABI, libirdma's own path (context, mmap, PD) is what the
# ibv_devinfo runs take.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim

mark="31-devinfo: start $$"
echo "$mark" >/dev/kmsg

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"

dev0=$(ibdev_of 0)
dev1=$(ibdev_of 1)
[ -n "$dev0" ] && [ -n "$dev1" ] ||
	fail "no RDMA device for the functions: '$dev0' '$dev1'"
uv0=$(uverbs_of "$dev0")
uv1=$(uverbs_of "$dev1")
[ -c "$uv0" ] && [ -c "$uv1" ] || fail "no uverbs devices: '$uv0' '$uv1'"

list=$(ibv_devices) || fail "ibv_devices failed"
echo "$list"
[[ $list =~ [[:space:]]${dev0}[[:space:]] ]] || fail "ibv_devices does not list $dev0"
[[ $list =~ [[:space:]]${dev1}[[:space:]] ]] || fail "ibv_devices does not list $dev1"

# ibv_devinfo's fields (ibv_info_attrs)
declare -A attr

log=$(dmesg)
log=${log#*"$mark"}
# the profile the driver logged for function $1: "QPS CQS MRS"
logged_profile() {
	local re="irdma_sim\.func\.$1: RDMA engine up: ([0-9]+) QPs, ([0-9]+) CQs, ([0-9]+) MRs"

	[[ $log =~ $re ]] &&
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
}

for id in 0 1; do
	dev=$(ibdev_of $id)
	info=$(ibv_devinfo -v -d "$dev") || fail "ibv_devinfo -v -d $dev: $info"
	[ $id = 0 ] && echo "$info"
	ibv_info_attrs "$info"
	t=${attr[transport]}
	[ "${t%% *}" = iWARP ] || fail "$dev: transport '$t'"
	guid=${attr[node_guid]}
	read -r sysguid <"/sys/class/infiniband/$dev/node_guid"
	[ -n "$guid" ] && [ "$guid" = "$sysguid" ] ||
		fail "$dev: node_guid '$guid', sysfs '$sysguid'"
	[ "$guid" != 0000:0000:0000:0000 ] || fail "$dev: zero node GUID"
	want=$(logged_profile $id)
	[ -n "$want" ] || fail "function $id: no HMC profile in the log"
	got="${attr[max_qp]} ${attr[max_cq]} ${attr[max_mr]}"
	[ "$got" = "$want" ] ||
		fail "$dev: max_qp/max_cq/max_mr '$got', driver logged '$want'"
	echo "$dev: transport $t, node_guid $guid, max_qp/cq/mr $got as logged"
done

python3 -u "$IRDMA_REPO/tools/guest/devinfo_checks.py" "$dev0" "$uv0" "$uv1" \
	"$bus/del_device" 1 ||
	fail "user context checks"

[ -z "$(ibdev_of 1)" ] || fail "function 1 still has an RDMA device"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "devinfo checks passed"
