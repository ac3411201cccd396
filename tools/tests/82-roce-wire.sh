#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 128
#
# RoCEv2 reliable connections between two simulated functions over the
# wire: function 0 (isim0, 192.0.2.1, namespace rw0) and function 1
# (isim1, 192.0.2.2, namespace rw1), each end in its own namespace, so
# that nothing can take a shortcut through one function's engine. Every RC
# packet is a RoCEv2 frame (UDP 4791, BTH, ICRC) that one engine builds
# from the QP context and the WQEs and the other checks and places.
#  - perftest, servers on function 1, clients on function 0, with -R (the
#    connection made by rdma_cm over the IB CM) and without (a TCP
#    exchange, GID index given with -x): ib_write_bw, ib_read_bw (READ
#    responses of several packets each), ib_send_bw and ib_write_lat;
#  - rping -V -C 20 across the wire, each buffer verified;
#  - ibv_rc_pingpong with the IPv4 GID's index, payload checked (--chk);
#  - tools/guest/roce_rc_errors.py: a SEND before the receive is posted
#    (RNR NAKs, the sender waits them out), a READ of 6 packets across the
#    24-bit PSN wrap, a WRITE with a bad key (remote access NAK, the WQE
#    completes with IBV_WC_REM_ACCESS_ERR, the QP in error);
#  - ECN: packets function 1 takes as CE-marked (a knob) are answered with
#    CNPs, counted in both devices' port counters (rdma statistic);
#  - loss: rping -V with packets dropped both ways and one spoiled (the
#    debugfs knobs): each is sent again on its ACK timeout or the NAK of
#    the gap after it, the spoiled one dropped for its ICRC, no WQE fails;
#  - a peer gone (every packet from function 1 lost): ibv_rc_pingpong
#    ends in IBV_WC_RETRY_EXC_ERR after its retry count.
# After each clean run, both engines' RoCE counters must show the packets (at least
# one per path MTU of payload), no packet dropped for its ICRC, headers,
# QP or a missing ARP entry, no NAK and no WQE given up on a clean wire;
# the RDMA resources, engine objects and the transport's QP states are
# back where they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns0=rw0
ns1=rw1
ITERS=20
SIZE=16384
LAT_ITERS=50

cleanup() {
	local p

	for p in ${spid:-} ${cpid:-}; do
		kill "$p" 2>/dev/null
	done
	ip netns del $ns1 2>/dev/null
	ip netns del $ns0 2>/dev/null
	return 0
}
trap cleanup EXIT

# Two wired RoCEv2 functions, each netdev in a namespace of its own.
roce_pair() {
	local bus=/sys/bus/irdma_sim

	load_irdma_sim
	echo "0 roce" >$bus/new_device || fail "create 0"
	echo "1 roce" >$bus/new_device || fail "create 1"
	ip netns add $ns0 || fail "namespace $ns0"
	ip netns add $ns1 || fail "namespace $ns1"
	ip link set isim0 netns $ns0 || fail "isim0 to $ns0"
	ip link set isim1 netns $ns1 || fail "isim1 to $ns1"
	ip -n $ns0 -batch - <<EOF || fail "isim0 up"
link set lo up
link set isim0 up
addr add 192.0.2.1/24 dev isim0
EOF
	ip -n $ns1 -batch - <<EOF || fail "isim1 up"
link set lo up
link set isim1 up
addr add 192.0.2.2/24 dev isim1
EOF
	sim_wait_counts 60 1 0 cqp live
	sim_wait_counts 60 1 1 cqp live
	dev0=$(ibdev_of 0)
	dev1=$(ibdev_of 1)
	[ -n "$dev0" ] && [ -n "$dev1" ] || fail "no RDMA devices: '$dev0' '$dev1'"
	roce_port_ready "$dev0" ':ffff:c000:0201'
	roce_port_ready "$dev1" ':ffff:c000:0202'
	gid0=$(gid_index "$dev0" ':ffff:c000:0201')
	gid1=$(gid_index "$dev1" ':ffff:c000:0202')
}

# the index of RDMA device $1's port 1 GID that ends in $2
gid_index() {
	local g v

	for g in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		read -r v <"$g" 2>/dev/null || continue
		[[ $v == *"$2" ]] && { echo "${g##*/}"; return 0; }
	done
	fail "$1: no GID ending in $2"
}

# "tx rx" RC packets of function $1's transport
roce_tx_rx() {
	sim_counts "$1" roce tx rx || fail "no roce counters on function $1"
}

# the RoCE counters of both functions: nothing dropped, refused or given
# up, no gap seen. An ACK timeout may expire on a clean wire (under TCG
# two busy-polling perftest ends can keep the peer's engine off the CPU
# for a second): what it resends is counted and answered as duplicates.
roce_clean() {
	local fn keys="gave_up seq_naks_tx seq_naks_rx err_naks_tx err_naks_rx"
	local bad st

	keys+=" drop_icrc drop_bad drop_qp no_arp"
	for fn in 0 1; do
		# shellcheck disable=SC2086 # a list of keys
		bad=$(sim_counts $fn roce $keys) || fail "no roce counters"
		[ "${bad//[ 0]/}" = "" ] && continue
		st=/sys/kernel/debug/irdma_sim/irdma_sim
		fail "$1: function $fn lost or refused packets ($keys): $bad /" \
			"$(grep -h -E '^(roce|wire|ud): ' ${st}0/state ${st}1/state)"
	done
	echo "$1: ACK timeouts and packets sent again: $(sim_counts 0 roce timeouts retrans)" \
		"(function 0), $(sim_counts 1 roce timeouts retrans) (function 1)"
}

# $1 packets at least moved each way between the functions since "$2 $3"
# (function 0's tx and rx before)
roce_moved() {
	local want=$1 tx0=$2 rx0=$3 what=$4 tx rx

	read -r tx rx <<<"$(roce_tx_rx 0)"
	echo "$what: function 0 sent $((tx - tx0)), took $((rx - rx0)) RoCEv2 packets"
	((tx - tx0 + rx - rx0 >= want)) ||
		fail "$what: fewer than $want RC packets crossed the wire"
	((tx > tx0 && rx > rx0)) || fail "$what: the wire carried one way only"
}

# perftest tool $1 on port $2, $3 iterations of $4 bytes, -R or "" in $5,
# options after: server in $ns1 on function 1, client in $ns0 on function 0
perf_pair() {
	local tool=$1 port=$2 iters=$3 size=$4 cm=$5 srv cli rc src w res=''
	local tx0 rx0 t0 t1 x0=() x1=() want

	shift 5
	srv=/tmp/82-$tool$cm-srv.txt
	cli=/tmp/82-$tool$cm-cli.txt
	# -R: rdma_cm picks the GID; else the TCP exchange needs its index
	if [ -n "$cm" ]; then
		x0=("$cm") x1=("$cm")
	else
		x0=(-x "$gid0") x1=(-x "$gid1")
	fi
	read -r tx0 rx0 <<<"$(roce_tx_rx 0)"
	ip netns exec $ns1 "$tool" -F -d "$dev1" "${x1[@]}" -p "$port" \
		-s "$size" -n "$iters" "$@" >"$srv" 2>&1 &
	spid=$!
	pause 2
	printf -v t0 '%(%s)T' -1
	timeout 300 ip netns exec $ns0 "$tool" -F -d "$dev0" "${x0[@]}" \
		-p "$port" -s "$size" -n "$iters" "$@" 192.0.2.2 >"$cli" 2>&1
	rc=$?
	printf -v t1 '%(%s)T' -1
	wait_exit 60 "$spid" || kill "$spid"
	wait "$spid"
	src=$?
	spid=
	[ "$rc" = 0 ] || fail "$tool $cm client exited $rc: $(<"$cli") / server: $(<"$srv")"
	[ "$src" = 0 ] || fail "$tool $cm server exited $src: $(<"$srv")"
	while read -r -a w; do
		[ "${w[0]:-}" = "$size" ] && [ "${w[1]:-}" = "$iters" ] &&
			res=${w[*]}
	done <"$cli"
	[ -n "$res" ] || fail "$tool $cm printed no result for $size x $iters: $(<"$cli")"
	echo "$tool $cm: $res ($((t1 - t0)) s)"
	# one packet per path MTU (1024 at least) of payload, one per message
	want=$((iters * ((size + 1023) / 1024)))
	roce_moved "$want" "$tx0" "$rx0" "$tool $cm"
	roce_clean "$tool $cm"
}

# nothing of the scenario $1 left: resources, objects, transport states
roce_baseline() {
	wait_baseline "$1"
	sim_wait_counts 30 0 0 roce qps
	sim_wait_counts 30 0 1 roce qps
}

log_mark 82-roce-wire
command -v ib_write_bw >/dev/null || skip "perftest is not installed"
need_user rping
roce_pair
take_baseline "qps stags ahs" 0 1
echo "baseline: $IRDMA_BASE_RES; GID indexes $gid0 (function 0) $gid1 (function 1)"

port=7820
for cm in -R ""; do
	for tool in ib_write_bw ib_read_bw ib_send_bw; do
		step "$tool ${cm:-(TCP exchange)}, $ITERS x $SIZE bytes, $dev0 -> $dev1"
		perf_pair $tool $port $ITERS $SIZE "$cm"
		roce_baseline "$tool $cm"
		port=$((port + 1))
	done
	step "ib_write_lat ${cm:-(TCP exchange)}, $LAT_ITERS x 2 bytes inline"
	perf_pair ib_write_lat $port $LAT_ITERS 2 "$cm" -I $IRDMA_PERFTEST_INLINE
	roce_baseline "ib_write_lat $cm"
	port=$((port + 1))
done

step "rping -V -C 20 across the wire"
read -r tx0 rx0 <<<"$(roce_tx_rx 0)"
srv=/tmp/82-rping-srv.txt
cli=/tmp/82-rping-cli.txt
ip netns exec $ns1 stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p $port \
	>$srv 2>&1 &
spid=$!
pause 2
ip netns exec $ns0 stdbuf -oL rping -c -d -v -V -a 192.0.2.2 -p $port -C 20 \
	>$cli 2>&1 &
cpid=$!
rping_pings_verified 300 "$cpid" $cli 20 || fail "$(<$cli) / server: $(<$srv)"
cpid=
rping_server_done 60 spid $srv 20
roce_moved 60 "$tx0" "$rx0" "rping"
roce_clean rping
roce_baseline rping

step "ibv_rc_pingpong -g (GID indexes $gid1, $gid0)"
read -r tx0 rx0 <<<"$(roce_tx_rx 0)"
chk=()
ibv_rc_pingpong --help 2>&1 | grep -q -- --chk && chk=(-c)
srv=/tmp/82-pp-srv.txt
cli=/tmp/82-pp-cli.txt
ip netns exec $ns1 ibv_rc_pingpong -d "$dev1" -g "$gid1" -n 100 "${chk[@]}" \
	>$srv 2>&1 &
spid=$!
pause 2
timeout 120 ip netns exec $ns0 ibv_rc_pingpong -d "$dev0" -g "$gid0" -n 100 \
	"${chk[@]}" 192.0.2.2 >$cli 2>&1 || fail "ibv_rc_pingpong: $(<$cli) / server: $(<$srv)"
wait_exit 30 "$spid" || kill "$spid"
wait "$spid" || fail "ibv_rc_pingpong server: $(<$srv)"
spid=
grep -q "100 iters" $cli || fail "ibv_rc_pingpong: $(<$cli)"
tail -n 1 $cli
roce_moved 200 "$tx0" "$rx0" "ibv_rc_pingpong"
roce_clean ibv_rc_pingpong
roce_baseline ibv_rc_pingpong

dbg=/sys/kernel/debug/irdma_sim/irdma_sim
step "RNR NAKs, a multi-packet READ, a remote access NAK"
read -r r0 <<<"$(sim_counts 0 roce rnr_naks_rx)"
read -r r1 e1 <<<"$(sim_counts 1 roce rnr_naks_tx err_naks_tx)"
python3 -u "$IRDMA_REPO/tools/guest/roce_rc_errors.py" "$dev0" "$gid0" \
	"$dev1" "$gid1" >/tmp/82-errors.txt 2>&1 ||
	fail "roce_rc_errors.py: $(</tmp/82-errors.txt)"
grep -v '^destroy\|^dereg\|^dealloc\|to INIT\|to RTR\|to RTS' /tmp/82-errors.txt
read -r r0b <<<"$(sim_counts 0 roce rnr_naks_rx)"
read -r r1b e1b <<<"$(sim_counts 1 roce rnr_naks_tx err_naks_tx)"
echo "RNR NAKs: function 1 sent $((r1b - r1)), function 0 took $((r0b - r0)); error NAKs sent: $((e1b - e1))"
((r1b - r1 >= 1 && r0b - r0 == r1b - r1)) || fail "no RNR NAK went from function 1 to function 0"
((e1b - e1 == 1)) || fail "function 1 sent $((e1b - e1)) error NAKs, not 1"
roce_baseline "RNR and remote access"

step "ECN: CE-marked packets are answered with CNPs"
# function 1's engine takes the next 5 RC packets it receives as CE-marked;
# it answers with CNPs (at most one per jiffy and QP), which function 0's
# engine counts as handled or ignored (the driver leaves DCQCN off)
declare -A cnt
port_counters "$dev1"
m0=${cnt[RxECNMrkd]:-x} c0=${cnt[cnpSent]:-x}
port_counters "$dev0"
h0=$((${cnt[cnpHandled]:-0} + ${cnt[cnpIgnored]:-0}))
[ "$m0$c0" != "${m0//x/}${c0//x/}" ] && fail "no ECN counters: $cnt_line"
echo 5 >${dbg}1/ce_roce_rx
ip netns exec $ns1 ibv_rc_pingpong -d "$dev1" -g "$gid1" -n 20 >$srv 2>&1 &
spid=$!
pause 2
timeout 120 ip netns exec $ns0 ibv_rc_pingpong -d "$dev0" -g "$gid0" -n 20 \
	192.0.2.2 >$cli 2>&1 || fail "ibv_rc_pingpong: $(<$cli) / server: $(<$srv)"
wait_exit 30 "$spid" || kill "$spid"
wait "$spid" || fail "ibv_rc_pingpong server: $(<$srv)"
spid=
port_counters "$dev1"
m1=${cnt[RxECNMrkd]} c1=${cnt[cnpSent]}
port_counters "$dev0"
h1=$((${cnt[cnpHandled]:-0} + ${cnt[cnpIgnored]:-0}))
echo "$dev1: RxECNMrkd +$((m1 - m0)), cnpSent +$((c1 - c0)); $dev0: cnpHandled+cnpIgnored +$((h1 - h0))"
((m1 - m0 == 5)) || fail "not 5 CE-marked packets counted"
((c1 - c0 >= 1 && c1 - c0 <= 5)) || fail "CNPs sent: $((c1 - c0))"
((h1 - h0 == c1 - c0)) || fail "CNPs received: $((h1 - h0)), sent $((c1 - c0))"
roce_baseline ECN

step "loss: packets dropped and spoiled on the wire are sent again"
# a short ACK timeout for the QPs made from now on; the knobs lose the
# next RC packets each engine sends and spoil the ICRC of one
for fn in 0 1; do
	echo 100 >$dbg$fn/roce_rto_ms || fail "roce_rto_ms"
done
read -r d0 <<<"$(sim_counts 0 roce drop_icrc)"
# at most 4 losses in a row: inside rping's retry count of 7
echo 2 >${dbg}0/drop_roce_pkts
echo 1 >${dbg}1/drop_roce_pkts
echo 1 >${dbg}1/corrupt_roce_tx
ip netns exec $ns1 stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p $((port + 1)) \
	>$srv 2>&1 &
spid=$!
pause 2
ip netns exec $ns0 stdbuf -oL rping -c -d -v -V -a 192.0.2.2 -p $((port + 1)) \
	-C 10 >$cli 2>&1 &
cpid=$!
rping_pings_verified 300 "$cpid" $cli 10 || fail "$(<$cli) / server: $(<$srv)"
cpid=
rping_server_done 60 spid $srv 10
grep -h "^roce: " "${dbg}0/state" "${dbg}1/state"
read -r dr0 rt0 go0 <<<"$(sim_counts 0 roce dropped retrans gave_up)"
read -r dr1 rt1 go1 <<<"$(sim_counts 1 roce dropped retrans gave_up)"
read -r d1 <<<"$(sim_counts 0 roce drop_icrc)"
[ "$dr0 $dr1" = "2 1" ] || fail "the knobs dropped $dr0 and $dr1 packets, not 2 and 1"
# function 1's losses may all be ACKs, which its peer's resends bring again
((rt0 >= 1)) || fail "function 0 sent nothing again"
[ "$go0 $go1" = "0 0" ] || fail "a WQE gave up: $go0 $go1"
((d1 == d0 + 1)) || fail "the spoiled packet was not dropped for its ICRC"
echo "10 pings verified with 3 packets lost and one spoiled: sent again $rt0 and $rt1 times"
roce_baseline loss

step "a peer gone: ibv_rc_pingpong ends in retries exceeded"
# every RC packet function 1 sends is lost from now on: neither end hears
# from the other; each must give up after its retry count (pingpong asks
# for 7) with IBV_WC_RETRY_EXC_ERR (12)
read -r g0 <<<"$(sim_counts 0 roce gave_up)"
echo 100000000 >${dbg}1/drop_roce_pkts
ip netns exec $ns1 ibv_rc_pingpong -d "$dev1" -g "$gid1" -n 5 >$srv 2>&1 &
spid=$!
pause 2
timeout 120 ip netns exec $ns0 ibv_rc_pingpong -d "$dev0" -g "$gid0" -n 5 \
	192.0.2.2 >$cli 2>&1 && fail "ibv_rc_pingpong succeeded: $(<$cli)"
wait_exit 60 "$spid" || kill "$spid"
wait "$spid"
spid=
echo 0 >${dbg}1/drop_roce_pkts
grep -q "transport retry counter exceeded (12)" $cli ||
	fail "the client did not end in retries exceeded: $(<$cli)"
grep "(12)" $cli
read -r g1 <<<"$(sim_counts 0 roce gave_up)"
((g1 > g0)) || fail "function 0 did not give up a WQE"
for fn in 0 1; do
	echo 1000 >$dbg$fn/roce_rto_ms
done
roce_baseline "peer gone"

step "remove"
grep -h '^roce: ' /sys/kernel/debug/irdma_sim/irdma_sim[01]/state
sim_pair_remove $ns1 $ns0
echo "RoCEv2 RC between two functions: perftest with and without -R, rping -V, ibv_rc_pingpong; nothing left behind"
echo "PASS"
