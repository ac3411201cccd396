#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 300
# irdma-vm-secs: 95
#
# Our irdma against Linux 6.1's own on the wire: function 0 is ours (isim0
# in network namespace ihost), function 1 upstream's (isim1, in the initial
# namespace: upstream's CM resolves routes there only); each CM talks TCP
# and MPA to the other's through the two engines. Both ways:
#  - rping -V, PINGS verified pings, closed by the client's
#    rdma_disconnect: a graceful close (FINs, no RST on either engine);
#  - ib_write_bw -R, ITERS messages of 64 KiB, its server bound to its
#    function's address (tools/guest/bind-addr.c: a wildcard listen makes
#    upstream take the RTNL under rdma_cm's lock, upstream's bug);
#  - a librdmacm listener that rejects: the client gets
#    RDMA_CM_EVENT_REJECTED (-ECONNREFUSED);
#  - a connect to a port nobody listens on: the peer's TCP stack answers
#    with a RST, the client's CM reports a refused connect (upstream's
#    as -ECONNRESET);
#  - an abortive close: the server of an endless rping killed (kill -9)
#    mid-transfer: its engine sends a RST, the survivor sees
#    RDMA_CM_EVENT_DISCONNECTED and exits.
# tcpdump records isim0 throughout; tshark then dissects the capture (MPA
# by heuristic, DDP/RDMAP): no malformed frame, every FPDU's CRC good, an
# MPA request and a reply each way. After each step, the RDMA resources
# and both engines' objects are back to their baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns0=ihost
PINGS=5
ITERS=10
pcap=/tmp/75.pcap
shim=/run/irdma/run/bind-addr.so

kill_on_exit spid cpid tpid
netns_del_on_exit $ns0

# run "$@" where function $1's end is: ours in $ns0, upstream's here
in_fn() {
	local f=$1

	shift
	if [ "$f" = 0 ]; then
		ip netns exec $ns0 "$@"
	else
		"$@"
	fi
}
addr_of() { echo "192.0.2.$(($1 + 1))"; }
name_of() { [ "$1" = 0 ] && echo ours || echo upstream; }

# rping -V with its server on function $1, client on the other, port $2
rping_way() {
	local s=$1 c=$((1 - $1)) port=$2 q rst0 rst1 a b
	local srv=/tmp/75-srv-$2.txt cli=/tmp/75-cli-$2.txt

	read -r q <<<"$(sim_counts "$s" objects qhash)"
	read -r a <<<"$(sim_counts 0 toe rst_tx)"
	read -r b <<<"$(sim_counts 1 toe rst_tx)"
	in_fn "$s" stdbuf -oL rping -s -d -v -V \
		-a "$(addr_of "$s")" -p "$port" >"$srv" 2>&1 &
	spid=$!
	wait_qhash_above 60 "$s" "$q" || fail "no SYN filter: $(<"$srv")"
	in_fn "$c" stdbuf -oL rping -c -d -v -V \
		-a "$(addr_of "$s")" -p "$port" -C $PINGS >"$cli" 2>&1 &
	cpid=$!
	if ! wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" "$cli"; then
		wait "$cpid"
		fail "no connection: $(<"$cli") / server: $(<"$srv")"
	fi
	rping_pings_verified 300 "$cpid" "$cli" $PINGS ||
		fail "client: $(<"$cli") / server: $(<"$srv")"
	cpid=
	rping_server_done 60 spid "$srv" $PINGS
	read -r rst0 <<<"$(sim_counts 0 toe rst_tx)"
	read -r rst1 <<<"$(sim_counts 1 toe rst_tx)"
	[ "$rst0" = "$a" ] && [ "$rst1" = "$b" ] ||
		fail "a graceful close sent RSTs: ours $((rst0 - a)), upstream's $((rst1 - b))"
	echo "rping $(name_of "$c") -> $(name_of "$s"): $PINGS pings verified, closed with FINs only"
}

# ib_write_bw -R with its server on function $1, port $2
bw_way() {
	local s=$1 c=$((1 - $1)) port=$2 q res='' w
	local srv=/tmp/75-bw-srv-$2.txt cli=/tmp/75-bw-cli-$2.txt

	read -r q <<<"$(sim_counts "$s" objects qhash)"
	# the listener bound to the function's address (bind-addr.c)
	in_fn "$s" env LD_PRELOAD=$shim IRDMA_BIND_ADDR="$(addr_of "$s")" \
		ib_write_bw -R -F -d "$(ibdev_of "$s")" \
		-p "$port" -s 65536 -n $ITERS >"$srv" 2>&1 &
	spid=$!
	wait_qhash_above 60 "$s" "$q" || fail "no SYN filter: $(<"$srv")"
	in_fn "$c" timeout 600 ib_write_bw -R -F \
		-d "$(ibdev_of "$c")" -p "$port" -s 65536 -n $ITERS \
		"$(addr_of "$s")" >"$cli" 2>&1 ||
		fail "ib_write_bw client: $(<"$cli") / server: $(<"$srv")"
	# a server stuck in the kernel cannot be waited for
	wait_exit 60 "$spid" || fail "the ib_write_bw server did not exit: $(<"$srv")"
	wait "$spid" || fail "ib_write_bw server: $(<"$srv")"
	spid=
	while read -r -a w; do
		[ "${w[0]:-}" = 65536 ] && [ "${w[1]:-}" = $ITERS ] && res=${w[*]}
	done <"$cli"
	[ -n "$res" ] || fail "ib_write_bw printed no result: $(<"$cli")"
	echo "ib_write_bw $(name_of "$c") -> $(name_of "$s"): $res"
}

# a listener on function $1 that rejects, the client on the other, port $2
reject_way() {
	local s=$1 c=$((1 - $1)) port=$2 rc lrc q err

	read -r q <<<"$(sim_counts "$s" objects qhash)"
	in_fn "$s" python3 -u - "$(addr_of "$s")" "$port" \
		>/tmp/75-rej.txt 2>&1 <<'EOF' &
import sys

import iwcm

iwcm.reject_one(sys.argv[1], int(sys.argv[2]), b'interop-reject-75')
EOF
	spid=$!
	wait_line 300 listening /tmp/75-rej.txt ||
		fail "listener not listening: $(</tmp/75-rej.txt)"
	wait_qhash_above 60 "$s" "$q" || fail "no SYN filter: $(</tmp/75-rej.txt)"
	in_fn "$c" timeout 60 rping -c -d -a "$(addr_of "$s")" \
		-p "$port" -C 1 >/tmp/75-rej-cli.txt 2>&1
	rc=$?
	wait_exit 60 "$spid" ||
		fail "the listener did not finish: $(</tmp/75-rej.txt) / client ($rc): $(</tmp/75-rej-cli.txt)"
	wait "$spid"
	lrc=$?
	spid=
	[ "$lrc" = 0 ] || fail "the rejecting listener exited $lrc: $(</tmp/75-rej.txt)"
	[ "$rc" != 0 ] || fail "rping -c exited 0 on a rejected connect"
	# both CMs read the other's reject as one (ECONNREFUSED): upstream's
	# checks its IRD/ORD block as a reply's
	[ "$(count_lines /tmp/75-rej-cli.txt "RDMA_CM_EVENT_REJECTED, error -111")" != 0 ] ||
		fail "no RDMA_CM_EVENT_REJECTED -111: $(</tmp/75-rej-cli.txt)"
	echo "$(name_of "$c") -> $(name_of "$s"): rejected"
}

# a connect from function $1 to a port of the other nobody listens on
refuse_way() {
	local c=$1 s=$((1 - $1)) rc t0 t1 err

	printf -v t0 '%(%s)T' -1
	in_fn "$c" timeout 60 rping -c -d -a "$(addr_of "$s")" \
		-p "$2" -C 1 >/tmp/75-none.txt 2>&1
	rc=$?
	printf -v t1 '%(%s)T' -1
	[ "$rc" != 0 ] || fail "rping -c exited 0 without a listener"
	# the peer's RST: ours reports ECONNREFUSED, upstream's CM
	# ECONNRESET (irdma_active_open_err())
	err=-111
	[ "$c" = 1 ] && err=-104
	[ "$(count_lines /tmp/75-none.txt "RDMA_CM_EVENT_REJECTED, error $err")" != 0 ] ||
		fail "no RDMA_CM_EVENT_REJECTED $err: $(</tmp/75-none.txt)"
	((t1 - t0 < 30)) || fail "the refused connect took $((t1 - t0)) s"
	echo "$(name_of "$c") -> $(name_of "$s"), nobody listening: refused in $((t1 - t0)) s"
}

# an endless rping, its server on function $1 killed mid-transfer, port $2
abort_way() {
	local s=$1 c=$((1 - $1)) port=$2 q rst0 rst1 rc t i

	read -r q <<<"$(sim_counts "$s" objects qhash)"
	read -r rst0 <<<"$(sim_counts "$s" toe rst_tx)"
	# not through in_fn: its subshell, not rping, would get the kill
	if [ "$s" = 0 ]; then
		ip netns exec $ns0 stdbuf -oL rping -s -d \
			-a "$(addr_of "$s")" -p "$port" >/tmp/75-abort-s.txt 2>&1 &
	else
		stdbuf -oL rping -s -d \
			-a "$(addr_of "$s")" -p "$port" >/tmp/75-abort-s.txt 2>&1 &
	fi
	spid=$!
	wait_qhash_above 60 "$s" "$q" || fail "no SYN filter: $(</tmp/75-abort-s.txt)"
	in_fn "$c" stdbuf -oL rping -c -d \
		-a "$(addr_of "$s")" -p "$port" -C 0 >/tmp/75-abort-c.txt 2>&1 &
	cpid=$!
	wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" /tmp/75-abort-c.txt ||
		fail "no connection: $(</tmp/75-abort-c.txt)"
	read -r t <<<"$(sim_counts "$c" toe tx)"
	for ((i = 0; i < 60; i++)); do
		read -r q <<<"$(sim_counts "$c" toe tx)"
		((q - t >= 10)) && break
		pause 1
	done
	kill -9 "$spid"
	wait "$spid" 2>/dev/null
	spid=
	wait_exit 120 "$cpid" ||
		fail "the client did not see the abort: $(</tmp/75-abort-c.txt)"
	wait "$cpid"
	cpid=
	[ "$(count_lines /tmp/75-abort-c.txt 'RDMA_CM_EVENT_DISCONNECTED')" != 0 ] ||
		fail "no DISCONNECTED after the abort: $(</tmp/75-abort-c.txt)"
	read -r rst1 <<<"$(sim_counts "$s" toe rst_tx)"
	((rst1 > rst0)) || fail "the killed end's engine sent no RST"
	echo "$(name_of "$s")'s server killed: its engine sent a RST, $(name_of "$c")'s client disconnected"
}

# on a failure: the engines, the drivers and the capture's last frames
interop_fail_info() {
	upstream_fail_info
	[ -d "${IRDMA_OUT:-}/e2e" ] && cp $pcap "$IRDMA_OUT/e2e/"
	[ -s $pcap ] && tshark -n -r $pcap --disable-heuristic rpcrdma_iwarp 2>&1 |
		tail -n 40
}

log_mark 75-upstream-interop
need_user rping librdmacm libirdma
command -v ib_write_bw >/dev/null || skip "perftest is not installed"
command -v tshark >/dev/null || skip "tshark is not installed"
command -v tcpdump >/dev/null || skip "tcpdump is not installed"
[ -f $shim ] || fail "no $shim: the harness builds it when librdmacm-dev is installed"
export PYTHONPATH=$IRDMA_REPO/tools/guest
load_irdma_upstream
IRDMA_FAIL_HOOK=interop_fail_info
# upstream's first: its probe busy-waits 10 ms for each early CQP
# answer, which the engine's poll misses while our bring-up runs
echo "1 iwarp gen2 upstream" >/sys/bus/irdma_sim/new_device || fail "create 1"
[ -n "$(ibdev_of 1)" ] || fail "upstream's function 1 did not come up"
echo "0 iwarp gen2 irdma" >/sys/bus/irdma_sim/new_device || fail "create 0"
ip netns add $ns0 || fail "namespace $ns0"
ip link set isim0 netns $ns0 || fail "isim0 to $ns0"
ip -n $ns0 -batch - <<EOF || fail "isim0 up with 192.0.2.1/24 in $ns0"
link set lo up
link set isim0 up
addr add 192.0.2.1/24 dev isim0
EOF
ip -batch - <<EOF || fail "isim1 up with 192.0.2.2/24"
link set isim1 up
addr add 192.0.2.2/24 dev isim1
EOF
[ -n "$(ibdev_of 0)" ] && [ -n "$(ibdev_of 1)" ] ||
	fail "no RDMA devices: '$(ibdev_of 0)' '$(ibdev_of 1)'"
take_baseline "qps stags qhash apbvt_ports ahs" 0 1
echo "ours: $(ibdev_of 0); upstream: $(ibdev_of 1); baseline: $IRDMA_BASE_RES"
ip netns exec $ns0 tcpdump -n -U -s 0 -i isim0 -w $pcap \
	>/tmp/75-tcpdump.txt 2>&1 &
tpid=$!
wait_line 60 "*listening on*" /tmp/75-tcpdump.txt ||
	fail "tcpdump did not start: $(</tmp/75-tcpdump.txt)"

step "rejected and refused connects both ways"
reject_way 1 7755
wait_baseline "rejected by upstream"
reject_way 0 7756
wait_baseline "rejected by ours"
refuse_way 0 7757
refuse_way 1 7758
wait_baseline "refused"

step "ib_write_bw -R both ways"
bw_way 1 7753
wait_baseline "ib_write_bw to upstream"
bw_way 0 7754
wait_baseline "ib_write_bw to ours"

step "rping -V, ours -> upstream and upstream -> ours"
rping_way 1 7751
wait_baseline "rping to upstream"
rping_way 0 7752
wait_baseline "rping to ours"

step "abortive closes both ways"
abort_way 1 7759
wait_baseline "upstream's end killed"
abort_way 0 7760
wait_baseline "our end killed"

step "the capture, dissected by tshark"
pause 1
kill -INT "$tpid"
wait "$tpid"
tpid=
[ -d "${IRDMA_OUT:-}/e2e" ] && cp $pcap "$IRDMA_OUT/e2e/"
# tshark 4.0's RPC-over-RDMA heuristic throws on any Send under 16
# bytes (perftest's): "[Malformed Packet: RPCoRDMA]"
tshark -n -r $pcap --disable-heuristic rpcrdma_iwarp \
	-O iwarp_mpa,iwarp_ddp_rdmap >/tmp/75-tshark.txt \
	2>/tmp/75-tshark.err || fail "tshark failed: $(</tmp/75-tshark.err)"
# one awk over tens of thousands of lines: a bash loop took 20 s of TCG
read -r frames reqs reps good bad malformed < <(awk '
/^Frame /			{ f++ }
/Request frame header$/		{ q++ }
/Reply frame header$/		{ r++ }
/CRC check: .*\(Good CRC32\)/	{ g++; next }
/CRC check: /			{ b++ }
/Malformed/			{ m++ }
END { print f + 0, q + 0, r + 0, g + 0, b + 0, m + 0 }' /tmp/75-tshark.txt)
echo "tshark: $frames frames, $reqs MPA requests, $reps replies, $good FPDU CRCs good, $bad bad, $malformed malformed"
[ "$malformed" = 0 ] || fail "tshark found $malformed malformed frames"
[ "$bad" = 0 ] || fail "tshark found $bad FPDUs with a bad CRC32c"
((reqs >= 2 && reps >= 2 && good > 0)) ||
	fail "too few MPA frames or FPDUs in the capture"

step "remove"
ip -n $ns0 link set isim0 netns 1 || fail "isim0 back"
ip netns del $ns0 || fail "delete $ns0"
echo 1 >/sys/bus/irdma_sim/del_device || fail "delete 1"
echo 0 >/sys/bus/irdma_sim/del_device || fail "delete 0"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
sim_unload
upstream_done
echo "ours and upstream's irdma on the wire, both ways: rping, ib_write_bw, reject, refuse, graceful and abortive close; the capture well formed"
