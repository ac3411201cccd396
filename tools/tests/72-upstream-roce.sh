#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 300
# irdma-vm-secs: 30
#
# Linux 6.1's own irdma alone on a simulated RoCEv2 function (function 1,
# also upstream's, only gives the wire its carrier), through Debian's
# libirdma: user UD QPs, AHs and CQs, user RC QPs with their address
# vectors in the QP context, and QP1 of the kernel's MAD layer.
#  - ibv_ud_pingpong: two UD QPs on the function exchange ITERS datagrams
#    through user AHs on GID 1 (the IPv4 address's), turned around by the
#    engine;
#  - ibv_rc_pingpong: two RC QPs on the function, connected by modify_qp
#    with an address vector to the function's own GID (the model carries RC
#    on one function only), ITERS messages each way.
# Not rdma_cm: the IB CM creates its AHs in atomic context, where upstream
# busy-waits for CREATE_AH, then frees the AH on a timeout while the
# command is still queued; the engine, a worker on the same CPU, cannot
# run meanwhile, and the late completion writes into the freed AH (KASAN,
# irdma_gsi_ud_qp_ah_cb): upstream's bug, which the model's latency shows.
# After each, the RDMA resources and the engine's QPs and AHs are back to
# their baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"

ITERS=20
bus=/sys/bus/irdma_sim

kill_on_exit spid

# pingpong tool $1 on $dev, GID 1, $ITERS iterations, port $2, then the
# tool's own options: server and client, both must exit 0
pingpong() {
	local tool=$1 port=$2 srv=/tmp/72-$1-srv.txt cli=/tmp/72-$1-cli.txt

	shift 2
	"$tool" -d "$dev" -g 1 -n $ITERS -p "$port" "$@" >"$srv" 2>&1 &
	spid=$!
	pause 2
	timeout 300 "$tool" -d "$dev" -g 1 -n $ITERS -p "$port" "$@" \
		127.0.0.1 >"$cli" 2>&1 ||
		fail "$tool client: $(<"$cli") / server: $(<"$srv")"
	wait_exit 60 "$spid" || kill "$spid"
	wait "$spid" || fail "$tool server: $(<"$srv")"
	spid=
	grep -q "$ITERS iters in" "$cli" || fail "$tool: no iterations: $(<"$cli")"
	echo "$tool: $(grep 'iters in' "$cli")"
}

log_mark 72-upstream-roce
need_user libirdma
load_irdma_upstream
echo "0 roce gen2 upstream" >$bus/new_device || fail "create 0"
echo "1 roce gen2 upstream" >$bus/new_device || fail "create 1"
ip link set lo up
ip link set isim1 up || fail "isim1 up"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
sim_function0_dev dev
roce_port_ready "$dev" ':ffff:c000:0201'
take_baseline "qps ahs" 0
echo "$dev; baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}"

step "UD: ibv_ud_pingpong, $ITERS datagrams of 512 bytes each way"
read -r tx0 rx0 <<<"$(sim_counts 0 ud tx rx)"
pingpong ibv_ud_pingpong 7721 -s 512
read -r tx1 rx1 <<<"$(sim_counts 0 ud tx rx)"
((tx1 - tx0 >= 2 * ITERS && rx1 - rx0 >= 2 * ITERS)) ||
	fail "the engine carried $((tx1 - tx0)) / $((rx1 - rx0)) datagrams"
wait_baseline UD

step "RC loopback: ibv_rc_pingpong, $ITERS messages of 4096 bytes each way"
pingpong ibv_rc_pingpong 7722 -s 4096
wait_baseline RC

step "remove"
echo 1 >$bus/del_device || fail "delete 1"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
sim_unload
upstream_done
echo "upstream irdma on RoCEv2: UD and RC through libirdma, nothing left behind"
