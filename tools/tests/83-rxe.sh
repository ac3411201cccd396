#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 144
#
# irdma against rxe, the kernel's software RoCEv2, over the simulator's
# wire: a peer that is not our code at all. Function 0 (isim0, 192.0.2.1)
# is irdma's, in network namespace rxepeer; function 1's netdev (isim1,
# 192.0.2.2) stays in the initial namespace (rxe in Linux 6.1 opens its
# UDP socket there only), with irdma unbound from its auxiliary device, so
# that its engine leaves RoCEv2 frames to the stack, and an rxe device on
# top of it instead. The RDMA devices are visible from every namespace
# (shared mode); rdma_cm resolves in the namespace of the process, so the
# route between them is isim0/isim1.
#
# Both directions (irdma the client of rxe's servers, then rxe the client
# of irdma's): rping -V -C 10 (SENDs, an RDMA READ and an RDMA WRITE per
# ping, every buffer verified), then ib_send_bw, ib_write_bw and
# ib_read_bw -R, ITERS messages of SIZE bytes (several packets each at the
# path MTU), each end exiting 0 with its result line.
#
# tcpdump records isim1 throughout; tshark then dissects the capture (UDP
# port 4791 as InfiniBand): no malformed frame, every one with its BTH
# opcode, frames of both ends; the
# ICRC of every RoCEv2 frame is computed again by tools/guest/roce_icrc.py
# and must match. Function 0's engine must have dropped none for its ICRC
# or headers, and its RDMA resources and objects be back where they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=rxepeer
pcap=/tmp/83-rxe.pcap
ITERS=20
SIZE=16384
port=7830

cleanup() {
	local p

	# the tools hold rxe0 open: they go before it does
	for p in ${spid:-} ${cpid:-} ${tpid:-}; do
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rdma link del rxe0 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

# the command prefix of side $1: rxe's is the initial namespace, irdma's
# its own (ip netns exec execs the command: $! is the tool itself)
side() {
	if [ "$1" = rxe ]; then
		pre=()
	else
		pre=(ip netns exec "$ns")
	fi
}

# rping -V -C 10: server on side $1 at address $2, client on side $3
rping_dir() {
	local srv=/tmp/83-rping-$1-s.txt cli=/tmp/83-rping-$1-c.txt

	side "$1"
	"${pre[@]}" stdbuf -oL rping -s -d -v -V -a "$2" -p $port >"$srv" 2>&1 &
	spid=$!
	wait_cm_listen 60 $port "${pre[@]}" || fail "rping server on $1 not listening: $(<"$srv")"
	side "$3"
	"${pre[@]}" stdbuf -oL rping -c -d -v -V -a "$2" -p $port -C 10 \
		>"$cli" 2>&1 &
	cpid=$!
	rping_pings_verified 300 "$cpid" "$cli" 10 ||
		fail "rping $3 -> $1: $(<"$cli") / server: $(<"$srv")"
	cpid=
	rping_server_done 60 spid "$srv" 10
	echo "rping $3 -> $1: 10 pings verified on both ends"
	port=$((port + 1))
}

# perftest $1 -R: server on side $2 (device $3) at address $4, client on
# side $5 (device $6)
perf_dir() {
	local tool=$1 srv=/tmp/83-$1-$2-s.txt cli=/tmp/83-$1-$2-c.txt rc src w
	local res='' o=()

	# rxe offers 128 outstanding READs a QP, irdma 127: perftest asks for
	# its own device's maximum unless told, which the other end refuses
	[ "$tool" = ib_read_bw ] && o=(-o 16)
	side "$2"
	"${pre[@]}" "$tool" -R -F -d "$3" -p $port -s $SIZE -n $ITERS "${o[@]}" \
		>"$srv" 2>&1 &
	spid=$!
	wait_cm_listen 60 $port "${pre[@]}" || fail "$tool server on $2 not listening: $(<"$srv")"
	side "$5"
	"${pre[@]}" timeout 300 "$tool" -R -F -d "$6" -p $port -s $SIZE \
		-n $ITERS "${o[@]}" "$4" >"$cli" 2>&1
	rc=$?
	wait_exit 60 "$spid" || kill "$spid"
	wait "$spid"
	src=$?
	spid=
	[ "$rc" = 0 ] || fail "$tool $5 -> $2: client exited $rc: $(<"$cli") / server: $(<"$srv")"
	[ "$src" = 0 ] || fail "$tool $5 -> $2: server exited $src: $(<"$srv")"
	while read -r -a w; do
		[ "${w[0]:-}" = $SIZE ] && [ "${w[1]:-}" = $ITERS ] && res=${w[*]}
	done <"$cli"
	[ -n "$res" ] || fail "$tool $5 -> $2: no result line: $(<"$cli")"
	echo "$tool -R $5 -> $2: $res"
	port=$((port + 1))
}

log_mark 83-rxe
command -v ib_write_bw >/dev/null || skip "perftest is not installed"
command -v tshark >/dev/null || skip "tshark is not installed"
command -v tcpdump >/dev/null || skip "tcpdump is not installed"
need_user rping
[ -e /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so ] ||
	skip "librxe (ibverbs-providers) is not installed"
load_irdma_sim
kmod rdma_rxe || skip "no rdma_rxe module in this kernel"
bus=/sys/bus/irdma_sim
echo "0 roce" >$bus/new_device || fail "create 0"
echo "1 roce" >$bus/new_device || fail "create 1"
sim_wait_counts 60 1 0 cqp live
sim_wait_counts 60 1 1 cqp live

step "function 1 goes to rxe"
echo irdma_sim.func.1 >/sys/bus/auxiliary/drivers/irdma.sim/unbind ||
	fail "unbind irdma from function 1"
[ -z "$(ibdev_of 1)" ] || fail "irdma still has function 1: $(ibdev_of 1)"
ip netns add $ns || fail "namespace $ns"
ip link set isim0 netns $ns || fail "isim0 to $ns"
ip -n $ns -batch - <<EOF || fail "isim0 up"
link set lo up
link set isim0 up
addr add 192.0.2.1/24 dev isim0
EOF
ip link set isim1 up || fail "isim1 up"
ip addr add 192.0.2.2/24 dev isim1 || fail "192.0.2.2 on isim1"
rdma link add rxe0 type rxe netdev isim1 || fail "rxe on isim1"
dev0=$(ibdev_of 0)
[ -n "$dev0" ] || fail "irdma has no device on function 0"
roce_port_ready "$dev0" ':ffff:c000:0201'
roce_port_ready rxe0 ':ffff:c000:0202'
take_baseline "qps stags ahs" 0
echo "baseline: $IRDMA_BASE_RES"

tcpdump -n -U -s 0 -i isim1 -w $pcap udp port 4791 >/tmp/83-tcpdump.txt 2>&1 &
tpid=$!
wait_line 60 "*listening on*" /tmp/83-tcpdump.txt ||
	fail "tcpdump did not start: $(</tmp/83-tcpdump.txt)"

step "irdma ($dev0) is the client of rxe"
rping_dir rxe 192.0.2.2 irdma
for tool in ib_send_bw ib_write_bw ib_read_bw; do
	perf_dir $tool rxe rxe0 192.0.2.2 irdma "$dev0"
done

step "rxe is the client of irdma ($dev0)"
rping_dir irdma 192.0.2.1 rxe
for tool in ib_send_bw ib_write_bw ib_read_bw; do
	perf_dir $tool irdma "$dev0" 192.0.2.1 rxe rxe0
done

step "the capture: tshark, every ICRC"
pause 1
kill -INT "$tpid"
wait "$tpid"
tpid=
echo "tcpdump: $(</tmp/83-tcpdump.txt)"
[ -d "${IRDMA_OUT:-}/e2e" ] && cp $pcap "$IRDMA_OUT/e2e/"
# RPC-over-RDMA's heuristic takes rping's SEND payloads for its own and
# calls them malformed: it is kept out of the dissection. One pass: the
# fields of each frame, then the protocol hierarchy.
tshark -n -r $pcap --disable-heuristic rpcrdma_infiniband -T fields \
	-E separator=, -e frame.number -e ip.src -e infiniband.bth.opcode \
	-e _ws.malformed -z io,phs >/tmp/83-tshark.txt 2>/tmp/83-tshark.err ||
	fail "tshark failed: $(</tmp/83-tshark.err)"
frames=0 malformed=0 from0=0 from1=0 noop=0 phs=
while IFS=, read -r num src op mal; do
	if [[ $num == =* ]]; then
		phs=1
		continue
	fi
	if [ -n "$phs" ]; then
		[[ $num == *frames:* ]] && echo "$num"
		continue
	fi
	[ -n "$num" ] || continue
	frames=$((frames + 1))
	[ -n "$mal" ] && malformed=$((malformed + 1))
	[ -z "$op" ] && noop=$((noop + 1))
	case $src in
	192.0.2.1) from0=$((from0 + 1)) ;;
	192.0.2.2) from1=$((from1 + 1)) ;;
	esac
done </tmp/83-tshark.txt
echo "tshark: $frames frames, $from0 from irdma, $from1 from rxe, $malformed malformed, $noop without a BTH opcode"
((frames > 0 && from0 > 0 && from1 > 0)) || fail "the capture lacks one side"
[ "$malformed" = 0 ] || fail "tshark found $malformed malformed frames"
[ "$noop" = 0 ] || fail "$noop frames were not dissected as InfiniBand"
python3 "$IRDMA_REPO/tools/guest/roce_icrc.py" $pcap ||
	fail "RoCEv2 frames with a bad ICRC"
bad=$(sim_counts 0 roce drop_icrc drop_bad gave_up) || fail "no roce counters"
grep '^roce: ' /sys/kernel/debug/irdma_sim/irdma_sim0/state
[ "$bad" = "0 0 0" ] || fail "function 0 dropped or gave up: $bad"

step "remove"
wait_baseline "rxe interop"
rdma link del rxe0 || fail "delete rxe0"
ip -n $ns link set isim0 netns 1 || fail "move isim0 back"
ip netns del $ns || fail "delete namespace $ns"
echo 1 >$bus/del_device || fail "delete 1"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
rmmod rdma_rxe || fail "rmmod rdma_rxe"
echo "irdma and rxe both ways: rping -V, ib_send_bw, ib_write_bw, ib_read_bw; capture clean"
echo "PASS"
