#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 24
#
# The CM's hardware side on two wired iWARP functions: an rdma_cm listen
# (rping -s) programs a SYN quad-hash filter and an accelerated port in the
# engine, and stopping it removes them; a wildcard listen programs one
# filter per address of the netdev and follows addresses that come and go
# (the inet notifiers); a listen, exact or wildcard, whose SYN filter the
# engine fails (the simulator's fail_manage_qhash knob) fails itself and
# leaves nothing programmed; a neighbour added with ip neigh reaches the
# engine's ARP cache and its deletion removes it (the netevent notifier);
# a connect to an address of the other function in the same namespace is
# a loopback connection (the route is local, so rdma_cm puts both ends on
# the function that owns the address): its frames carry the function's own
# MAC, the simulator turns them around into that function's receive path
# as the adapter's internal switch does, the SYN reaches the listener's SYN
# filter, the CM answers, the server (rping -s) accepts on a user QP, the
# engine sends its MPA reply as a segment of the offloaded connection, and
# both ends reach ESTABLISHED with their QPs handed to the engine. The
# frames never reach the other function. Then rping pings 10 times over
# the engine's iWARP data path (SENDs, an RDMA READ and an RDMA WRITE per
# ping, as MPA FPDUs on the looped wire) with -V checking every buffer,
# and exits 0; its rdma_disconnect closes both ends through the engine
# (two FINs, two completed closes); nothing stays programmed afterwards.
# The counts come from the simulator's debugfs state.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs
# seconds.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

# "qhash apbvt arp ahs" of function $1's engine (empty if not shown)
objects() {
	sim_counts "$1" objects qhash apbvt_ports arp ahs
}

# wait (30 s) until function $1 shows qhash $2 and APBVT ports $3
wait_filters() {
	sim_wait_counts 30 "$2 $3" "$1" objects qhash apbvt_ports
}

# wait (30 s) until function $1 holds $2 ARP entries
wait_arp() {
	sim_wait_counts 30 "$2" "$1" objects arp
}

# start a listener in the background: rping -s on address $1, port $2
listen() {
	rping -s -a "$1" -p "$2" >/tmp/rping-"$2".txt 2>&1 &
	lpid=$!
}

unlisten() {
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	lpid=
}

# a listen on address $1, port $2, while function 0's engine fails its next
# MANAGE_QHASH command: rping -s must fail (rdma_listen), and nothing may
# stay programmed on either function
listen_refused() {
	local rc

	echo 1 >$dbg/irdma_sim0/fail_manage_qhash || fail "fail_manage_qhash"
	listen "$1" "$2"
	wait_exit 30 "$lpid" ||
		fail "rping -s still runs with its filter refused: $(<"/tmp/rping-$2.txt")"
	wait "$lpid"
	rc=$?
	lpid=
	echo "rping -s -a $1 exited $rc: $(<"/tmp/rping-$2.txt")"
	[ "$(<$dbg/irdma_sim0/fail_manage_qhash)" = 0 ] ||
		fail "the engine was never asked for the filter"
	[ "$rc" != 0 ] || fail "rping -s -a $1 exited 0 with its filter refused"
	wait_filters 0 0 0
	wait_filters 1 0 0
}

log_mark 40-cm-listen
need_user rping
load_irdma_sim
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"
for i in 0 1; do
	ip link set isim$i up || fail "isim$i up"
	ip addr add 192.0.2.$((i + 1))/24 dev isim$i || fail "IPv4 on isim$i"
	ip addr add 2001:db8::$((i + 1))/64 dev isim$i nodad ||
		fail "IPv6 on isim$i"
done
read -r qh0 ap0 _ ah0 <<<"$(objects 0)"
[ "$qh0 $ap0" = "0 0" ] || fail "filters before any listen: qhash=$qh0 apbvt=$ap0"

step "IPv4 listen on 192.0.2.1"
listen 192.0.2.1 7001
wait_filters 0 1 1
wait_filters 1 0 0
unlisten
wait_filters 0 0 0

step "IPv6 listen on 2001:db8::1"
listen 2001:db8::1 7002
wait_filters 0 1 1
unlisten
wait_filters 0 0 0

step "wildcard listen"
ip addr add 192.0.2.11/24 dev isim0 || fail "second IPv4 on isim0"
listen 0.0.0.0 7003
# one SYN filter per IPv4 address of each netdev, one port on each
wait_filters 0 2 1
wait_filters 1 1 1
step "address added and removed under a wildcard listen"
ip addr add 192.0.2.21/24 dev isim0 || fail "third IPv4 on isim0"
wait_filters 0 3 1
ip addr del 192.0.2.21/24 dev isim0 || fail "remove the third IPv4"
wait_filters 0 2 1
unlisten
wait_filters 0 0 0
wait_filters 1 0 0

step "listens whose SYN filter the engine refuses fail"
listen_refused 192.0.2.1 7005
listen_refused 0.0.0.0 7006

step "neighbours reach the ARP cache"
ip neigh flush dev isim0 nud all
wait_arp 0 0
ip neigh add 192.0.2.99 lladdr 02:00:5e:00:00:99 dev isim0 nud permanent ||
	fail "add an IPv4 neighbour"
wait_arp 0 1
ip -6 neigh add 2001:db8::99 lladdr 02:00:5e:00:00:98 dev isim0 nud permanent ||
	fail "add an IPv6 neighbour"
wait_arp 0 2
ip neigh change 192.0.2.99 lladdr 02:00:5e:00:00:97 dev isim0 nud permanent ||
	fail "change the IPv4 neighbour"
wait_arp 0 2
ip neigh del 192.0.2.99 dev isim0 || fail "delete the IPv4 neighbour"
wait_arp 0 1
ip -6 neigh del 2001:db8::99 dev isim0 || fail "delete the IPv6 neighbour"
wait_arp 0 0

step "loopback connection on one function"
# rping -d prints its rdma_cm events; stdbuf makes it print them at once
stdbuf -oL rping -s -d -v -V -a 192.0.2.2 -p 7004 >/tmp/rping-7004.txt 2>&1 &
lpid=$!
wait_filters 1 1 1
read -r lp1 <<<"$(sim_counts 1 wire looped)" ||
	fail "no looped count in the simulator's state"
read -r tx1 rx1 <<<"$(sim_counts 1 ilq tx rx)" || fail "no ILQ counters"
read -r rx0 st0 <<<"$(sim_counts 0 ilq rx steered)" || fail "no ILQ counters"
read -r ttx1 finx1 cl1 <<<"$(sim_counts 1 toe tx fin_tx closed)" ||
	fail "no offload counters"
stdbuf -oL rping -c -d -v -V -a 192.0.2.2 -p 7004 -C 10 >/tmp/rping-c.txt 2>&1 &
cpid=$!
# killing rping while iw_cm is in CONN_SENT would hit iw_cm's BUG() in
# destroy_cm_id(): if the connect does not get through, let the CM report
# (it gives up after about a minute) before failing
if ! wait_line 150 "*RDMA_CM_EVENT_ESTABLISHED*" /tmp/rping-c.txt; then
	wait "$cpid"
	fail "the loopback connect did not reach ESTABLISHED: $(</tmp/rping-c.txt)"
fi
wait_line 30 "*RDMA_CM_EVENT_ESTABLISHED*" /tmp/rping-7004.txt ||
	fail "the server did not reach ESTABLISHED: $(</tmp/rping-7004.txt)"
# both ends handed to the engine, on function 1; on a fast run the ten
# pings may be over before the first look (the client's QP is gone then,
# and the offloaded segment counts below show what the engine carried)
for ((i = 0; i < 30; i++)); do
	read -r n <<<"$(sim_counts 1 toe conns)"
	[ "$n" = 2 ] && break
	proc_exited "$cpid" && break
	pause 1
done
[ "$n" = 2 ] || proc_exited "$cpid" ||
	fail "function 1 toe conns: wanted 2, have $n"
# the pings may be running already: read what was sent before what looped
read -r ttx <<<"$(sim_counts 1 toe tx)"
read -r tx rx <<<"$(sim_counts 1 ilq tx rx)"
read -r rx0b st0b <<<"$(sim_counts 0 ilq rx steered)"
read -r lp <<<"$(sim_counts 1 wire looped)"
echo "function 1: looped $((lp - lp1)), ILQ sent $((tx - tx1)), received $((rx - rx1)), offloaded segments sent $((ttx - ttx1))"
# SYN, SYN-ACK, ACK and the MPA request at least, sent through the ILQ
[ $((tx - tx1)) -ge 4 ] ||
	fail "the handshake and MPA request were not sent ($tx1 -> $tx)"
# the MPA reply: the LSMM, sent by the engine for the accepting QP
[ $((ttx - ttx1)) -ge 1 ] || fail "the engine sent no MPA reply ($ttx1 -> $ttx)"
# all of them, the reply too, received on function 1: the connecting
# side's QP is not offloaded before it has the reply, so its ILQ takes it
[ $((rx - rx1)) -ge 5 ] ||
	fail "function 1 did not receive its own segments ($rx1 -> $rx)"
# every frame function 1 sent went to its own MAC and was looped (the MPA
# reply is sent by the engine but received by the ILQ: count sends only)
[ $((lp - lp1)) -ge $((tx - tx1 + ttx - ttx1)) ] ||
	fail "fewer frames looped than were sent ($lp1 -> $lp)"
[ "$rx0b $st0b" = "$rx0 $st0" ] ||
	fail "function 0 got segments of a loopback connection ($rx0 $st0 -> $rx0b $st0b)"
# the pings (they may be done already): each moves data in FPDUs
if ! rping_pings_verified 180 "$cpid" /tmp/rping-c.txt 10; then
	read -r ttx <<<"$(sim_counts 1 toe tx)"
	fail "offloaded segments sent $((ttx - ttx1)): $(</tmp/rping-c.txt) / server: $(</tmp/rping-7004.txt)"
fi
cpid=
echo "rping -c: $(</tmp/rping-c.txt)"
read -r ttx trx <<<"$(sim_counts 1 toe tx rx)"
echo "function 1: offloaded segments since the connect: sent $((ttx - ttx1)), taken $trx in all"
# per ping at least 4 SENDs, a READ request and response, a WRITE
[ $((ttx - ttx1)) -ge 70 ] ||
	fail "too few offloaded segments for 10 pings: $((ttx - ttx1))"
# the client closed gracefully: the engine sent its FIN, the server's CM
# closed that half on the peer's FIN, and both closes completed in the
# engine, which gave both 4-tuples up
sim_wait_counts 60 0 1 toe conns
read -r finx cl <<<"$(sim_counts 1 toe fin_tx closed)"
echo "function 1: FINs sent $((finx - finx1)), closes completed $((cl - cl1))"
[ $((finx - finx1)) = 2 ] || fail "$((finx - finx1)) FINs sent, not 2"
[ $((cl - cl1)) = 2 ] || fail "$((cl - cl1)) closes completed, not 2"
unlisten
echo "rping -s: $(</tmp/rping-7004.txt)"
wait_filters 0 0 0
wait_filters 1 0 0
read -r _ _ _ ah <<<"$(objects 0)"
[ "$ah" = "$ah0" ] || fail "address handles left behind: $ah (was $ah0)"
# the kernel resolved 192.0.2.2 for rdma_cm: that neighbour is mirrored,
# and goes when it goes
ip neigh flush dev isim0 nud all
ip -6 neigh flush dev isim0 nud all
wait_arp 0 0

step "remove"
# no namespace to move back
# shellcheck disable=SC2119
sim_pair_remove
echo "listen (v4, v6, wildcard with address changes) programs and removes SYN filters and ports; neighbours reach the ARP cache; a loopback rping connection on one function pings 10 times with verified data over the engine's iWARP FPDUs and leaves nothing"
