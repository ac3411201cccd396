#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 90
#
# Two functions on the wire, each end in a network namespace of its own:
#  - IPv6 link-local, both ways: rping -V between fe80::a1 (isim0) and
#    fe80::a2 (isim1), the client naming its link (fe80::a2%isim0), the
#    server on the specific address one way and on :: the other. The CM
#    routes the connect on that link and gives the addresses of its events
#    their scope.
#  - MTU 1200 on both ends: the SYN and the SYN-ACK each advertise their
#    own side's MSS, 1160 (the SYN-ACK its own, not the smaller of both),
#    the offloaded connection sends no segment larger than the link takes,
#    and rping with 3000-byte buffers (three segments each) verifies. tcpdump
#    records isim1, tshark reads the TCP headers.
# After each, the RDMA resources and the engines' objects are back to
# their baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=llpeer
ns0=llhost
PINGS=5
pcap=/tmp/43b.pcap

kill_on_exit spid cpid tpid
netns_del_on_exit $ns $ns0

# rping -V from the client's namespace $1 to $2 (server address $3 in
# namespace $4), port $5, buffer size $6
rping_ll() {
	local cns=$1 caddr=$2 saddr=$3 sns=$4 port=$5 size=$6 rc n
	local srv=/tmp/43b-srv-$5.txt cli=/tmp/43b-cli-$5.txt

	ip netns exec "$sns" stdbuf -oL rping -s -d -v -V -a "$saddr" \
		-p "$port" -S "$size" >"$srv" 2>&1 &
	spid=$!
	wait_line 60 "*rdma_listen*" "$srv" || fail "server not listening: $(<"$srv")"
	pause 1
	ip netns exec "$cns" stdbuf -oL rping -c -d -v -V -a "$caddr" \
		-p "$port" -S "$size" -C $PINGS >"$cli" 2>&1 &
	cpid=$!
	rping_pings_verified 300 "$cpid" "$cli" $PINGS ||
		fail "client: $(<"$cli") / server: $(<"$srv")"
	wait_exit 30 "$spid" || fail "the server did not see the close: $(<"$srv")"
	wait "$spid"
	rc=$?
	spid=
	[ "$rc" = 0 ] || fail "rping -s exited $rc: $(<"$srv")"
	n=$(rping_pings "$srv" server)
	[ "$n" = $PINGS ] || fail "rping -s verified $n pings: $(<"$srv")"
	echo "$caddr from $cns: $PINGS pings of $size bytes verified both ways"
}

log_mark 43b-iw-linklocal-mtu
need_user rping librdmacm
command -v tshark >/dev/null || skip "tshark is not installed"
command -v tcpdump >/dev/null || skip "tcpdump is not installed"
load_irdma_sim
sim_iwarp_pair_netns $ns $ns0
ip -n $ns0 addr add fe80::a1/64 dev isim0 nodad || fail "fe80::a1 on isim0"
ip -n $ns addr add fe80::a2/64 dev isim1 nodad || fail "fe80::a2 on isim1"
take_baseline "qhash apbvt_ports ahs" 0 1

step "IPv6 link-local: a client on isim0 to fe80::a2"
rping_ll $ns0 fe80::a2%isim0 fe80::a2%isim1 $ns 7461 64
wait_baseline "link-local, one way"

step "IPv6 link-local: a client on isim1 to fe80::a1, wildcard listener"
rping_ll $ns fe80::a1%isim1 :: $ns0 7462 64
wait_baseline "link-local, the other way"

step "MTU 1200 on both ends"
ip -n $ns0 link set isim0 mtu 1200 || fail "MTU 1200 on isim0"
ip -n $ns link set isim1 mtu 1200 || fail "MTU 1200 on isim1"
ip netns exec $ns tcpdump -n -U -s 128 -i isim1 -w $pcap tcp \
	>/tmp/43b-tcpdump.txt 2>&1 &
tpid=$!
wait_line 60 "*listening on*" /tmp/43b-tcpdump.txt ||
	fail "tcpdump did not start: $(</tmp/43b-tcpdump.txt)"
rping_ll $ns0 192.0.2.2 192.0.2.2 $ns 7463 3000
pause 1
kill -INT "$tpid"
wait "$tpid"
tpid=
# one line a frame, its fields separated by commas (an empty one stays)
tshark -n -r $pcap -T fields -E separator=, -e tcp.flags.syn \
	-e tcp.flags.ack -e tcp.options.mss_val -e ip.len \
	>/tmp/43b-fields.txt 2>/tmp/43b-tshark.err ||
	fail "tshark: $(</tmp/43b-tshark.err)"
syn=0 synack=0 frames=0 big=0 maxlen=0
while IFS=, read -r s a mss len; do
	frames=$((frames + 1))
	((len > maxlen)) && maxlen=$len
	((len > 1200)) && big=$((big + 1))
	[ "$s" = 1 ] || [ "$s" = True ] || continue
	[ "$mss" = 1160 ] || fail "a SYN (ack $a) advertises MSS '$mss', not 1160"
	if [ "$a" = 1 ] || [ "$a" = True ]; then
		synack=$((synack + 1))
	else
		syn=$((syn + 1))
	fi
done </tmp/43b-fields.txt
echo "capture: $frames TCP frames, SYN $syn, SYN-ACK $synack with MSS 1160, largest IP packet $maxlen bytes"
((syn >= 1 && synack >= 1)) || fail "no SYN and SYN-ACK in the capture"
((big == 0)) || fail "$big frames larger than the 1200-byte MTU"
((maxlen > 1000)) || fail "no full-sized segment in the capture"
wait_baseline "MTU 1200"

step "remove"
sim_pair_remove $ns $ns0
echo "rping over IPv6 link-local both ways, and at MTU 1200 with MSS 1160 on the wire, nothing left behind"
