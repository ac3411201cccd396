#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 18
#
# irdma_sim: the netdevs of a pair are wired back to back. Real frames
# cross the wire between two namespaces (tcpdump sees them), and the
# drop_frames and delay_ms knobs act on them.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

kmod irdma_sim || fail "cannot load irdma_sim"
echo 6 >$bus/new_device || fail "create 6"
echo 7 >$bus/new_device || fail "create 7"

cleanup() {
	ip netns del simA 2>/dev/null
	ip netns del simB 2>/dev/null
}
trap cleanup EXIT
ip netns add simA && ip netns add simB || fail "cannot create namespaces"
ip link set isim6 netns simA && ip link set isim7 netns simB ||
	fail "cannot move the netdevs"
# no IPv6 on the wire: router solicitations and MLD reports sent on their
# own timers would take the drops meant for the ping below
ip netns exec simA sysctl -qw net.ipv6.conf.isim6.disable_ipv6=1 &&
	ip netns exec simB sysctl -qw net.ipv6.conf.isim7.disable_ipv6=1 ||
	fail "cannot turn IPv6 off on the wire"
ip -n simA addr add 192.0.2.1/24 dev isim6
ip -n simB addr add 192.0.2.2/24 dev isim7
ip -n simA link set isim6 up && ip -n simB link set isim7 up ||
	fail "cannot bring the netdevs up"

ip netns exec simB timeout 30 tcpdump -Z root -n -i isim7 -c 2 \
	-w /tmp/sim-wire.pcap icmp >/dev/null 2>&1 &
cap=$!
sleep 2
ip netns exec simA ping -c 3 -W 2 192.0.2.2 || fail "no ping across the wire"
wait $cap || fail "tcpdump did not see the ICMP frames"
n=$(tcpdump -n -r /tmp/sim-wire.pcap 2>/dev/null | grep -c ICMP)
[ "$n" -ge 2 ] || fail "tcpdump captured $n ICMP frames"
echo "ping crosses the wire, tcpdump sees it"

# drop the next 100 frames isim6 sends: the ping (and any ARP) gets lost
echo 100 >$dbg/irdma_sim6/drop_frames
ip netns exec simA ping -c 1 -W 1 192.0.2.2 >/dev/null &&
	fail "ping answered although its frames were dropped"
grep -q 'dropped=[1-9]' $dbg/irdma_sim6/state ||
	fail "dropped frames not counted: $(grep wire: $dbg/irdma_sim6/state)"
echo 0 >$dbg/irdma_sim6/drop_frames
ip netns exec simA ping -c 3 -i 0.5 -W 2 192.0.2.2 >/dev/null ||
	fail "wire does not recover after drop_frames"
echo "drop_frames drops"

# delay every frame by 300 ms: the round trip takes at least that
echo 300 >$dbg/irdma_sim6/delay_ms
rtt=$(ip netns exec simA ping -c 1 -W 3 192.0.2.2 |
	sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p')
echo 0 >$dbg/irdma_sim6/delay_ms
[ -n "$rtt" ] || fail "no answer with delay_ms set"
awk -v r="$rtt" 'BEGIN { exit !(r >= 300) }' || fail "rtt $rtt ms < 300"
echo "delay_ms delays (rtt $rtt ms)"

# removing one end while frames are queued is clean
echo 1000 >$dbg/irdma_sim6/delay_ms
ip netns exec simA ping -c 2 -i 0.2 -W 1 192.0.2.2 >/dev/null
echo 7 >$bus/del_device || fail "delete 7"
echo 6 >$bus/del_device || fail "delete 6 with delayed frames"
echo "removal with frames in flight"
