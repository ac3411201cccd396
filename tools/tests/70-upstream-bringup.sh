#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 1200
# irdma-vm-secs: 110
#
# Linux 6.1's own irdma (irdma_upstream, tools/upstream/) on the
# simulator, beside ours in one guest:
#  - it brings up a gen2 iWARP, a gen2 RoCEv2 and a gen1 (X722) iWARP
#    function, each with a CQP on its engine and an RDMA device that
#    Debian's libirdma opens (ibv_devinfo: transport, port state, limits);
#    our irdma drives function 3 meanwhile;
#  - a function changes hands: function 3 goes to upstream and back to
#    ours (the simulator's "driver" file), each driver bringing it up from
#    a reset engine;
#  - ten load/unload cycles of irdma_upstream with its three functions
#    present: each unload leaves no RDMA device of upstream's and no CQP
#    on their engines, each load brings all three up again, and ours keeps
#    running on function 3 throughout.
# At the end nothing is left: no RDMA device, no CQP, every engine object
# count back to what an unbound function has. KASAN, lockdep and kmemleak
# watch all of it.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim
cycles=10
# engine objects counted in the function's state
objs="qps stags qhash apbvt_ports ahs"

# the driver bound to function $1's auxiliary device, or nothing
bound_to() {
	local d

	for d in /sys/bus/auxiliary/devices/irdma_sim.*."$1"/driver; do
		[ -e "$d" ] || continue
		d=$(readlink "$d")
		echo "${d##*/}"
	done
}

# function $1 is up under driver $2 ("irdma_upstream.sim" or "irdma.sim")
check_up() {
	local drv dev

	drv=$(bound_to "$1")
	[ "$drv" = "$2" ] || fail "$3: function $1 bound to '$drv', not $2"
	[ "$(sim_cqp_live "$1")" = 1 ] || fail "$3: function $1 has no CQP"
	dev=$(ibdev_of "$1")
	[ -n "$dev" ] || fail "$3: function $1 has no RDMA device"
}

# nothing of upstream's left on function $1
check_down() {
	[ -z "$(bound_to "$1")" ] || fail "$2: function $1 still bound"
	[ "$(sim_cqp_live "$1")" = 0 ] || fail "$2: function $1 kept its CQP"
	[ -z "$(ibdev_of "$1")" ] || fail "$2: function $1 kept its RDMA device"
	# shellcheck disable=SC2086 # one word per object
	sim_wait_counts 10 "0 0 0 0 0" "$1" objects $objs
}

# ibv_devinfo through libirdma on function $1's device: transport $2,
# port ACTIVE, and the limits upstream took from the engine's HMC
devinfo() {
	local dev info t
	declare -A attr

	dev=$(ibdev_of "$1")
	info=$(ibv_devinfo -v -d "$dev") || fail "ibv_devinfo -d $dev: $info"
	ibv_info_attrs "$info"
	t=${attr[transport]}
	[ "${t%% *}" = "$2" ] || fail "$dev: transport '$t', not $2"
	[[ ${attr[state]} == PORT_ACTIVE* ]] ||
		fail "$dev: port state '${attr[state]}'"
	((${attr[max_qp]:-0} > 0 && ${attr[max_cq]:-0} > 0 &&
	  ${attr[max_mr]:-0} > 0)) ||
		fail "$dev: limits qp ${attr[max_qp]} cq ${attr[max_cq]} mr ${attr[max_mr]}"
	echo "function $1: $dev, $t, ${attr[state]}, fw ${attr[fw_ver]}, hw_ver ${attr[hw_ver]}, vendor ${attr[vendor_id]}:${attr[vendor_part_id]}, max_qp ${attr[max_qp]} max_cq ${attr[max_cq]} max_mr ${attr[max_mr]}"
}

# the CQP commands function $1's engine ran (NAME=done/refused); fails
# if the engine refused any
cqp_ops() {
	local line ops="" w op n err

	sim_state "$1"
	for line in "${SIM_STATE[@]}"; do
		case $line in
		cqp:*)
			echo "function $1 $line"
			[[ $line == *" errors=0 "* ]] ||
				fail "function $1: the engine refused commands"
			;;
		"  op "*)
			read -r w op n err <<<"$line"
			ops+=" $op=${n#done=}/${err#errors=}"
			;;
		esac
	done
	echo "function $1 commands:$ops"
}

log_mark 70-upstream-bringup
need_user libirdma
load_irdma_upstream
step "upstream: gen2 iWARP (0), gen2 RoCEv2 (1), gen1 iWARP (2); ours: 3"
echo "0 iwarp gen2 upstream" >$bus/new_device || fail "create 0"
echo "1 roce gen2 upstream" >$bus/new_device || fail "create 1"
echo "2 iwarp gen1 upstream" >$bus/new_device || fail "create 2"
echo "3 iwarp gen2 irdma" >$bus/new_device || fail "create 3"
for f in 0 1 2 3; do
	ip link set "isim$f" up || fail "isim$f up"
done
for f in 0 1 2; do
	check_up $f irdma_upstream.sim "first probe"
done
check_up 3 irdma.sim "first probe"
rdma dev
for f in 0 1 2 3; do
	cqp_ops $f
done
devinfo 0 iWARP
devinfo 1 InfiniBand
devinfo 2 iWARP
devinfo 3 iWARP

step "function 3 to upstream and back"
echo upstream >$dbg/irdma_sim3/driver || fail "hand 3 to upstream"
[ "$(<$dbg/irdma_sim3/driver)" = upstream ] || fail "driver file says $(<$dbg/irdma_sim3/driver)"
check_up 3 irdma_upstream.sim "handed to upstream"
devinfo 3 iWARP
echo irdma >$dbg/irdma_sim3/driver || fail "hand 3 back to irdma"
check_up 3 irdma.sim "handed back"
devinfo 3 iWARP

step "$cycles load/unload cycles of irdma_upstream"
t0=$SECONDS
for ((i = 1; i <= cycles; i++)); do
	echo "70-upstream-bringup: cycle $i" >/dev/kmsg
	rmmod irdma_upstream || fail "cycle $i: rmmod irdma_upstream"
	for f in 0 1 2; do
		check_down $f "cycle $i"
	done
	check_up 3 irdma.sim "cycle $i, ours"
	kmod irdma_upstream || fail "cycle $i: load irdma_upstream"
	for f in 0 1 2; do
		check_up $f irdma_upstream.sim "cycle $i"
	done
done
t0=$((SECONDS - t0))
devinfo 1 InfiniBand
# how late the polled passes ran (upstream waits 10 ms for some commands)
for f in 0 1 2; do
	sim_state $f
	for line in "${SIM_STATE[@]}"; do
		[[ $line != ticks:* ]] || echo "function $f $line"
	done
done

step "teardown"
for f in 0 1 2 3; do
	echo $f >$bus/del_device || fail "delete $f"
done
[ "$(irdma_dev_count)" = 0 ] || fail "RDMA devices left: $(rdma dev)"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
upstream_done
n=$(count_log "IRDMA hardware initialization FAILED")
[ "$n" = 0 ] || fail "upstream failed $n bring-ups"
echo "$cycles cycles in ${t0}s; three generations and protocols up under upstream, a function handed over both ways"
