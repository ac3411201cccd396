#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 29
#
# RDMA CM on RoCEv2: rping between two ends on one simulated RoCEv2
# function (the second function only gives the wire a carrier, which the
# port needs to be ACTIVE). On RoCEv2 the kernel's IB CM runs the
# connection: its REQ, REP, RTU, DREQ and DREP are MADs that the MAD layer
# sends as UD SENDs on QP1 (GSI) through AHs it makes, some from atomic
# context, and receives on QP1 with the 40-byte header area in front; the
# engine carries them as RoCEv2 datagrams (UDP port 4791) that its switch
# turns around. The data then goes over the two RC QPs on the engine.
#  - IPv4, then IPv6 (a GID from the IPv6 address): rping -V on both ends.
#  - A traffic-class change (the simulated parent moves user priorities
#    0-3, QP1's among them, to class 1): QP1 is suspended and resumed on
#    the new class's queue set, and rping -V works again.
#  - The engine's datagram counters: MADs sent and received on QP1, none
#    dropped.
# After each, the RDMA resources and the engine's AHs are back where they
# were (the MAD layer destroys the AHs of its MADs once they are done).
. "$IRDMA_REPO/tools/guest/lib.sh"

kill_on_exit spid cpid

# rping on function 0 to its own address $1, port $2, $3 pings
rping_roce() {
	local a=$1 port=$2 pings=$3 t0 t1 tx0 rx0 tx1 rx1
	local srv=/tmp/51-srv-$2.txt cli=/tmp/51-cli-$2.txt

	read -r tx0 rx0 <<<"$(sim_counts 0 ud tx rx)" || fail "no UD counters"
	stdbuf -oL rping -s -d -v -V -a "$a" -p "$port" >"$srv" 2>&1 &
	# shellcheck disable=SC2034 # read by name: kill_on_exit, rping_server_done
	spid=$!
	pause 2
	printf -v t0 '%(%s)T' -1
	stdbuf -oL rping -c -d -v -V -a "$a" -p "$port" -C "$pings" \
		>"$cli" 2>&1 &
	cpid=$!
	# a client stuck in the IB CM cannot be waited for: report first
	wait_line 120 "*RDMA_CM_EVENT_ESTABLISHED*" "$cli" ||
		fail "the connect did not reach ESTABLISHED: $(<"$cli") / server: $(<"$srv") /" \
			"engine: $(</sys/kernel/debug/irdma_sim/irdma_sim0/state)"
	rping_pings_verified 300 "$cpid" "$cli" "$pings" ||
		fail "$(<"$cli") / server: $(<"$srv")"
	cpid=
	printf -v t1 '%(%s)T' -1
	rping_server_done 60 spid "$srv" "$pings"
	read -r tx1 rx1 <<<"$(sim_counts 0 ud tx rx)"
	echo "$pings pings verified on both ends in $((t1 - t0)) s;" \
		"datagrams: $((tx1 - tx0)) sent, $((rx1 - rx0)) received"
	# REQ, REP, RTU and a DREQ and DREP at least, each sent and received
	((tx1 - tx0 >= 5 && rx1 - rx0 >= 5)) ||
		fail "the CM's MADs did not all go through the engine"
}

log_mark 51-roce-cm
need_user rping
sim_roce_function0 dev
ip addr add 2001:db8::1/64 dev isim0 nodad || fail "IPv6 on isim0"
roce_port_ready "$dev" ':ffff:c000:0201' '2001:0db8:'
take_baseline "ahs" 0
echo "baseline: $IRDMA_BASE_RES; engine AHs: ${IRDMA_BASE_OBJ[0]}"

step "IPv4: rping -C 50 to the function's own address"
rping_roce 192.0.2.1 7511 50
wait_baseline IPv4

step "IPv6: rping -C 10"
rping_roce 2001:db8::1 7512 10
wait_baseline IPv6

step "a traffic-class change, then rping again"
# QP1 (the MAD layer's GSI QP) sends: the change suspends it and resumes
# it on class 1's queue set; the IB CM's MADs must still go through
declare -A cnt
echo "up2tc 1 1 1 1 0 0 0 0" >/sys/kernel/debug/irdma_sim/irdma_sim0/qos ||
	fail "the qos knob refused the map"
port_counters "$dev"
echo "$dev: changes ${cnt[qos_tc_changes]:-none}, suspended ${cnt[qos_suspends]:-none}, resumed ${cnt[qos_resumes]:-none}, lost ${cnt[qos_lost]:-none}"
[ "${cnt[qos_tc_changes]:-}" = 1 ] || fail "no traffic-class change counted: $cnt_line"
((${cnt[qos_suspends]:-0} >= 1)) || fail "QP1 was not suspended: $cnt_line"
[ "${cnt[qos_resumes]}" = "${cnt[qos_suspends]}" ] ||
	fail "not every suspended QP resumed: $cnt_line"
[ "${cnt[qos_lost]:-}" = 0 ] || fail "QPs lost their queue set: $cnt_line"
rping_roce 192.0.2.1 7513 10
wait_baseline "after the change"

step "the engine's datagram counters"
keys="tx_err tx_lost rx_err drop_full drop_malformed drop_icrc drop_opcode"
keys+=" drop_qp drop_qkey drop_no_rqe"
# shellcheck disable=SC2086 # a list of keys
bad=$(sim_counts 0 ud $keys) || fail "no UD counters"
ud=$(grep '^ud: ' /sys/kernel/debug/irdma_sim/irdma_sim0/state)
echo "$ud"
[ "${bad//[ 0]/}" = "" ] || fail "datagrams failed or dropped: $ud"

sim_unload 1 0
echo "PASS"
