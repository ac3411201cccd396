#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 1200
# irdma-vm-secs: 52
#
# irdma against siw, the kernel's software iWARP, over the simulator's
# wire: a peer that is not our code at all. Function 0 (isim0, 192.0.2.1,
# here) is irdma's; function 1's netdev (isim1, 192.0.2.2) sits in its own
# namespace with irdma unbound from its auxiliary device and a siw device
# on top of it instead. siw's RDMA device is visible from every namespace
# (shared mode) and its TCP sockets live in the namespace of the process
# that listens or connects, so rping runs on siw inside the namespace and
# on irdma outside it; the route between them is isim0/isim1, never lo.
#
# Both directions, each with rping -v -V -C 10 (SENDs, an RDMA READ and an
# RDMA WRITE per ping, every buffer verified):
# - irdma connects to siw: our CM's MPA v2 request offers peer-to-peer
#   mode with both RTR types, siw answers with the zero-length WRITE, and
#   the engine sends that RTR as the first FPDU;
# - siw connects to irdma: siw's request is MPA v2 without peer-to-peer
#   mode (siw's peer_to_peer is off), our CM answers v2 without it.
# Both ends must reach ESTABLISHED, the pings must all be verified, and
# rping must exit 0 on the side that counts them.
#
# tcpdump records isim0 throughout; tshark then dissects the capture with
# its iWARP dissectors (MPA by heuristic, then DDP/RDMAP): no malformed
# frame, two MPA requests and two replies of revision 2 with the enhanced
# IRD/ORD block, the RTR negotiated in the first connection only, and
# FPDUs decoded in both directions of both connections.
#
# Then TERMINATE both ways, after the capture, each on an rping that runs
# until its connection breaks: once it pings, the simulator's
# corrupt_toe_tx knob spoils the CRC of the next FPDU function 0's engine
# sends to siw, so siw must answer with a TERMINATE (LLP layer, MPA, CRC
# error), which our driver must read and log; corrupt_toe_rx spoils the
# next FPDU from siw on its way into the engine, so our driver must send
# the TERMINATE, which siw must read as such (its "got TERMINATE" line,
# and no "bogus TERM"). Each connection must end, and function 0's QPs and
# STags be back to what they were.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=siwpeer
pcap=/tmp/44-iw-siw.pcap
p1=7044
p2=7045
p3=7046
p4=7047

cleanup() {
	local p

	for p in ${spid:-} ${cpid:-} ${tpid:-}; do
		kill "$p" 2>/dev/null
	done
	ip netns exec $ns rdma link del siw0 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

# wait (up to $2 s) for process $1 to exit; its status in $rc, 124 if it
# did not
wait_rc() {
	local i

	for ((i = 0; i < $2; i++)); do
		proc_exited "$1" && break
		pause 1
	done
	if ! proc_exited "$1"; then
		rc=124
		return
	fi
	wait "$1"
	rc=$?
}

# Direction $1 (client side $2, server side $3, files /tmp/44-[cs]$4.txt):
# the rping client $cpid must exit 0 within 300 s with 10 verified pings
# and the server must have reached ESTABLISHED; the server $spid gets $5 s
# to exit and must have seen the 10 pings. Killing rping while iw_cm is
# in CONN_SENT would hit iw_cm's BUG() in destroy_cm_id(): a failing
# connect is left to end by itself.
rping_pair_done() {
	local dir=$1 cs=$2 ss=$3 cli=/tmp/44-c$4.txt srv=/tmp/44-s$4.txt

	wait_rc "$cpid" 300
	[ $rc = 124 ] &&
		fail "$dir: rping -c did not finish in 300 s: $(<"$cli") / server: $(<"$srv")"
	cpid=
	echo "$cs rping -c: $(<"$cli")"
	[ $rc = 0 ] || fail "$dir: rping -c exited $rc / server: $(<"$srv")"
	[ "$(rping_pings "$cli")" = 10 ] || fail "$dir: not 10 verified pings"
	wait_line 10 "*ESTABLISHED*" "$srv" ||
		fail "$dir: $ss did not reach ESTABLISHED: $(<"$srv")"
	wait_rc "$spid" "$5"
	[ $rc = 124 ] && stop_server
	spid=
	echo "$ss rping -s: $(<"$srv")"
	[ "$(rping_pings "$srv" server)" -ge 10 ] ||
		fail "$dir: $ss's server did not see 10 pings"
}

# stop a server that is still waiting for its peer's close
stop_server() {
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=
}

log_mark 44-iw-siw
command -v rping >/dev/null || skip "rping (rdmacm-utils) is not installed"
command -v tshark >/dev/null || skip "tshark is not installed"
command -v tcpdump >/dev/null || skip "tcpdump is not installed"
[ -e /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so ] ||
	skip "libsiw (ibverbs-providers) is not installed"
load_stack || fail "cannot load the RDMA stack"
kmod siw || skip "no siw module in this kernel"
kmod irdma || fail "cannot load irdma"
kmod irdma_sim || fail "cannot load irdma_sim"
# the CMs' refusals, in the log should this fail; the TERMINATEs read
for f in siw_cm.c cm.c cm_hw.c ae.c; do
	echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
done
sim_iwarp_pair_netns $ns

step "function 1 goes to siw"
echo irdma_sim.func.1 >/sys/bus/auxiliary/drivers/irdma.sim/unbind ||
	fail "unbind irdma from function 1"
[ -z "$(ibdev_of 1)" ] || fail "irdma still has function 1: $(ibdev_of 1)"
ip netns exec $ns rdma link add siw0 type siw netdev isim1 ||
	fail "siw on isim1"
[ -e /sys/class/infiniband/siw0 ] || fail "no siw0 device"
dev0=$(ibdev_of 0)
[ -n "$dev0" ] || fail "irdma has no device on function 0"

tcpdump -n -U -s 0 -i isim0 -w $pcap >/tmp/44-tcpdump.txt 2>&1 &
tpid=$!
wait_line 60 "*listening on*" /tmp/44-tcpdump.txt ||
	fail "tcpdump did not start: $(</tmp/44-tcpdump.txt)"

step "irdma ($dev0) connects to siw"
ip netns exec $ns stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p $p1 \
	>/tmp/44-s1.txt 2>&1 &
spid=$!
wait_line 60 "*rdma_listen*" /tmp/44-s1.txt ||
	fail "siw server not listening: $(</tmp/44-s1.txt)"
pause 2
stdbuf -oL rping -c -d -v -V -C 10 -a 192.0.2.2 -p $p1 \
	>/tmp/44-c1.txt 2>&1 &
cpid=$!
rping_pair_done "irdma->siw" irdma siw 1 30

step "siw connects to irdma"
stdbuf -oL rping -s -d -v -V -a 192.0.2.1 -p $p2 >/tmp/44-s2.txt 2>&1 &
spid=$!
wait_line 60 "*rdma_listen*" /tmp/44-s2.txt ||
	fail "irdma server not listening: $(</tmp/44-s2.txt)"
# the listen's SYN filter is in the engine (create_listen waits for it)
wait_qhash_above 30 0 0 || fail "no SYN filter for irdma's listen"
ip netns exec $ns stdbuf -oL rping -c -d -v -V -C 10 -a 192.0.2.1 -p $p2 \
	>/tmp/44-c2.txt 2>&1 &
cpid=$!
# siw closes its socket: the engine reports the FIN and the server sees
# the disconnect
rping_pair_done "siw->irdma" siw irdma 2 60

step "the capture, dissected by tshark"
pause 1
kill -INT "$tpid"
wait "$tpid"
tpid=
echo "tcpdump: $(</tmp/44-tcpdump.txt)"
[ -d "${IRDMA_OUT:-}/e2e" ] && cp $pcap "$IRDMA_OUT/e2e/"
tshark -n -r $pcap -O iwarp_mpa,iwarp_ddp_rdmap >/tmp/44-tshark.txt \
	2>/tmp/44-tshark.err || fail "tshark failed: $(</tmp/44-tshark.err)"
# Walk the dissection: per frame its TCP ports, then what the MPA and
# DDP/RDMAP dissectors found in it (several FPDUs per segment show up as
# several FPDU trees). Builtins only.
frames=0 malformed=0 good=0 bad=0 ulpdus=0 dir='' kind=''
declare -A req rep nfpdu first
while IFS= read -r line; do
	case $line in
	"Frame "*)
		frames=$((frames + 1))
		kind=
		;;
	"Transmission Control Protocol, Src Port: "*)
		l=${line#*Src Port: }
		sp=${l%%,*}
		l=${l#*Dst Port: }
		dir=$sp">"${l%%,*}
		;;
	*"Request frame header") kind=req ;;
	*"Reply frame header") kind=rep ;;
	*"Revision: "*)
		if [ "$kind" = req ]; then
			req[$dir]="rev=${line##*: }"
		elif [ "$kind" = rep ]; then
			rep[$dir]="rev=${line##*: }"
		fi
		;;
	*"Private data: "*)
		if [ "$kind" = req ]; then
			req[$dir]+=" pd=${line##*: }"
		elif [ "$kind" = rep ]; then
			rep[$dir]+=" pd=${line##*: }"
		fi
		;;
	*"ULPDU length: "*)
		ulpdus=$((ulpdus + 1))
		nfpdu[$dir]=$((${nfpdu[$dir]:-0} + 1))
		;;
	*"CRC check: "*"(Good CRC32)") good=$((good + 1)) ;;
	*"CRC check: "*) bad=$((bad + 1)) ;;
	*"OpCode: "*)
		[ -n "${first[$dir]:-}" ] || first[$dir]=${line##*OpCode: }
		;;
	*"Malformed"*) malformed=$((malformed + 1)) ;;
	esac
done </tmp/44-tshark.txt
echo "tshark: $frames frames, $ulpdus FPDUs ($good good CRCs, $bad bad), $malformed malformed"
for d in "${!req[@]}"; do
	echo "MPA request $d: ${req[$d]}"
done
for d in "${!rep[@]}"; do
	echo "MPA reply $d: ${rep[$d]}"
done
for d in "${!nfpdu[@]}"; do
	echo "FPDUs $d: ${nfpdu[$d]}, the first: ${first[$d]:-none}"
done
[ $malformed = 0 ] || fail "tshark found $malformed malformed frames"
[ $bad = 0 ] || fail "tshark found $bad FPDUs with a bad CRC32c"
if [ ${#req[@]} != 2 ] || [ ${#rep[@]} != 2 ]; then
	fail "not two MPA requests and two replies in the capture"
fi
# irdma (any port) -> siw ($p1), and siw (any port) -> irdma ($p2)
for d in "${!req[@]}"; do
	sp=${d%>*}
	dp=${d#*>}
	[[ ${req[$d]} == "rev=2 pd="* ]] ||
		fail "MPA request $d: not revision 2 with private data: ${req[$d]}"
	[[ ${rep[$dp>$sp]:-} == "rev=2 pd="* ]] ||
		fail "MPA reply $dp>$sp: not revision 2 with private data: ${rep[$dp>$sp]:-none}"
	# the enhanced block: IRD word (P2P in bit 15), ORD word (bit 15 a
	# zero-length WRITE, bit 14 a zero-length READ as the RTR)
	pd=${req[$d]#*pd=}
	qird=$((16#${pd:0:4})) qord=$((16#${pd:4:4}))
	pd=${rep[$dp>$sp]#*pd=}
	rird=$((16#${pd:0:4})) rord=$((16#${pd:4:4}))
	case $dp in
	"$p1")
		# our request offers P2P with both RTRs; siw picks the WRITE
		((qird & 0x8000 && (qord & 0xc000) == 0xc000)) ||
			fail "irdma's request does not offer P2P and both RTRs: ${req[$d]}"
		((rird & 0x8000 && (rord & 0xc000) == 0x8000)) ||
			fail "siw's reply does not select the WRITE RTR: ${rep[$dp>$sp]}"
		# the engine's first FPDU is that RTR, and siw's answer comes
		# after it
		[ "${first[$d]:-}" = "Write (0x0)" ] ||
			fail "irdma's first FPDU is not the zero-length WRITE: ${first[$d]:-none}"
		;;
	"$p2")
		((!(qird & 0x8000) && !(qord & 0xc000))) ||
			fail "siw's request asks for P2P: ${req[$d]}"
		((!(rird & 0x8000) && !(rord & 0xc000))) ||
			fail "irdma's reply to a request without P2P offers it: ${rep[$dp>$sp]}"
		;;
	*)
		fail "MPA request to an unexpected port: $d"
		;;
	esac
	# data both ways: per ping 3 FPDUs from the client (SEND, READ
	# RESPONSE, SEND), 4 from the server (READ request, SEND, WRITE,
	# SEND); allow for a ping's worth less than that
	[ "${nfpdu[$d]:-0}" -ge 27 ] ||
		fail "too few FPDUs $d: ${nfpdu[$d]:-0}"
	[ "${nfpdu[$dp>$sp]:-0}" -ge 36 ] ||
		fail "too few FPDUs $dp>$sp: ${nfpdu[$dp>$sp]:-0}"
done
# both connections used the CRC: every FPDU carried a good one
[ $good = $ulpdus ] || fail "$((ulpdus - good)) FPDUs without a checked CRC"

# Connection $1 ($2 -> $3, files /tmp/44-[cs]$4.txt), its client $cpid
# pinging until the connection breaks: once it pings, one FPDU is spoilt
# through function 0's corrupt_toe_$5 knob (not the RTR: siw 6.1 upcalls
# CLOSE for a responder still waiting for it, which iw_cm answers with
# BUG()). The client must end within 300 s, the server is stopped, and
# function 0's engine must be back to its QPs and STags of before.
terminated_pair_done() {
	local cli=/tmp/44-c$4.txt srv=/tmp/44-s$4.txt

	wait_line 300 "ping data: *" "$cli" ||
		fail "$1: no ping: $(<"$cli")"
	echo 1 >"$sim0/corrupt_toe_$5"
	wait_rc "$cpid" 300
	[ $rc = 124 ] &&
		fail "$1: rping -c did not end in 300 s: $(<"$cli") / server: $(<"$srv")"
	cpid=
	# rping exits 0 on a disconnect as on an error: its status says
	# nothing here, the TERMINATE checked after does
	echo "$2 rping -c (exit $rc): $(<"$cli")"
	[ "$(<"$sim0/corrupt_toe_$5")" = 0 ] ||
		fail "$1: no FPDU was corrupted"
	wait_rc "$spid" 30
	[ $rc = 124 ] && stop_server
	spid=
	echo "$3 rping -s: $(<"$srv")"
	sim_wait_counts 60 "$objs0" 0 objects qps stags ||
		fail "$1: function 0 keeps QPs or STags"
}

# The first kernel log line matching $1 must contain $2 ($3 says whose
# TERMINATE was read), and function 0's toe counter $4 must be 1
terminate_seen() {
	local line n

	line=$(log_since | grep -m1 "$1") ||
		fail "$3 TERMINATE was not read: $(log_since | grep -i 'siw\|TERM' | tail -5)"
	[[ $line == *"$2"* ]] || fail "$3 TERMINATE read as: $line"
	echo "$line"
	n=$(sim_counts 0 toe "$4") || fail "no toe line"
	[ "$n" = 1 ] || fail "function 0: $4=$n, wanted 1"
}

# siw 6.1 lays out the TERMINATE control word with C bitfields that, on
# a little-endian host, put the layer in the low nibble of its first byte
# and the error type in the high one, the reverse of RFC 5040, 4.8 (its
# own TERM_MASK_LAYER is right). So its "LLP (2), MPA (0), CRC error (2)"
# arrives as 0x02 0x02, which we read as layer 0, type 2; and our 0x20
# 0x02 reads to siw as layer 0, type 2. Both are asserted as they are.

step "a corrupted FPDU from irdma: siw answers with a TERMINATE"
sim0=/sys/kernel/debug/irdma_sim/irdma_sim0
objs0=$(sim_counts 0 objects qps stags) || fail "no object counts"
ip netns exec $ns stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p $p3 \
	>/tmp/44-s3.txt 2>&1 &
spid=$!
wait_line 60 "*rdma_listen*" /tmp/44-s3.txt ||
	fail "siw server not listening: $(</tmp/44-s3.txt)"
pause 2
stdbuf -oL rping -c -d -v -V -a 192.0.2.2 -p $p3 >/tmp/44-c3.txt 2>&1 &
cpid=$!
terminated_pair_done "irdma->siw, corrupted" irdma siw 3 tx
terminate_seen 'TERMINATE from the peer' "layer 0, type 2, code 0x02" \
	"siw's" term_rx

step "a corrupted FPDU to irdma: our TERMINATE, which siw reads"
stdbuf -oL rping -s -d -v -V -a 192.0.2.1 -p $p4 >/tmp/44-s4.txt 2>&1 &
spid=$!
wait_line 60 "*rdma_listen*" /tmp/44-s4.txt ||
	fail "irdma server not listening: $(</tmp/44-s4.txt)"
wait_qhash_above 30 0 0 || fail "no SYN filter for irdma's listen"
ip netns exec $ns stdbuf -oL rping -c -d -v -V -a 192.0.2.1 -p $p4 \
	>/tmp/44-c4.txt 2>&1 &
cpid=$!
terminated_pair_done "siw->irdma, corrupted" siw irdma 4 rx
terminate_seen 'siw: got TERMINATE' "layer 0, type 2, code 2" "irdma's" \
	term_tx
log_since | grep -q 'siw: rx bogus TERM' &&
	fail "siw found irdma's TERMINATE bogus: $(log_since | grep 'bogus TERM')"

step "remove"
ip netns exec $ns rdma link del siw0 || fail "remove siw0"
sim_pair_remove $ns
rmmod siw || fail "rmmod siw"
echo "irdma and siw connected both ways with MPA v2 (P2P with the WRITE RTR when irdma initiates, none when siw does), 10 verified rping pings each way, and tshark decoded every MPA frame and FPDU of the capture, CRCs good; an FPDU corrupted on the way, either way, ended its connection with a TERMINATE (MPA, CRC error) that the other side read"
