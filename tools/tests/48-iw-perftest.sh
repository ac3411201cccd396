#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 54
#
# perftest over rdma_cm between two simulated iWARP functions on the wire:
# the servers run on function 1 (isim1, in network namespace wirepeer),
# the clients on function 0, each run connecting through our CM (-R) and
# then moving ITERS messages of 64 KiB through the engines:
#  - ib_write_bw -R: RDMA WRITEs;
#  - ib_read_bw -R: RDMA READs (the iWARP sink needs remote write access,
#    which perftest asks for on an iWARP device);
#  - ib_send_bw -R: SENDs into posted receives;
#  - ib_write_lat -R: LAT_ITERS ping-pong RDMA WRITEs of 2 bytes, posted as
#    inline WQEs (-I $IRDMA_PERFTEST_INLINE, the E810's inline limit: see
#    lib.sh).
# Each pair must exit 0 on both ends and the client must print its result
# line for the size and iterations asked; the engines must have carried
# the data (each function's offloaded-segment counters move by at least
# the payload's worth of messages split into MSS-sized segments, and at
# least one segment per latency iteration).
# After each, the RDMA resources and the engines' objects are back where
# they were. The bandwidth is printed, not judged: this is a simulator
# under TCG (tools/irdma-vm bench measures it).
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=wirepeer
ITERS=30
SIZE=65536
LAT_ITERS=100

cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

# run perftest tool $1 (ib_write_bw...) with port $2, $3 iterations of
# $4 bytes and the options after those: server in $ns on function 1,
# client here on function 0
perf_pair() {
	local tool=$1 port=$2 iters=$3 size=$4 srv=/tmp/48-$1-srv.txt cli=/tmp/48-$1-cli.txt
	local rc src line w res='' t0 t1 tx0 rx0 tx1 rx1 un0 un1 segs

	shift 4

	read -r tx0 rx0 <<<"$(sim_counts 0 toe tx rx)" || fail "no toe counters"
	read -r un0 <<<"$(sim_counts 0 exec unasked)" || fail "no exec counters"
	ip netns exec $ns "$tool" -R -F -d "$dev1" -p "$port" -s "$size" \
		-n "$iters" "$@" >"$srv" 2>&1 &
	spid=$!
	# the listen reaches function 1's engine as a SYN filter
	sim_wait_counts 60 "$(( ${IRDMA_BASE_OBJ[1]%% *} + 1 ))" 1 objects qhash
	printf -v t0 '%(%s)T' -1
	timeout 600 "$tool" -R -F -d "$dev0" -p "$port" -s "$size" -n "$iters" \
		"$@" 192.0.2.2 >"$cli" 2>&1
	rc=$?
	printf -v t1 '%(%s)T' -1
	wait_exit 60 "$spid" || kill "$spid"
	wait "$spid"
	src=$?
	spid=
	[ "$rc" = 0 ] || fail "$tool client exited $rc: $(<"$cli") / server: $(<"$srv")"
	[ "$src" = 0 ] || fail "$tool server exited $src: $(<"$srv")"
	while read -r -a w; do
		[ "${w[0]:-}" = "$size" ] && [ "${w[1]:-}" = "$iters" ] &&
			res=${w[*]}
	done <"$cli"
	[ -n "$res" ] ||
		fail "$tool printed no result for $size bytes x $iters: $(<"$cli")"
	read -r tx1 rx1 <<<"$(sim_counts 0 toe tx rx)"
	read -r un1 <<<"$(sim_counts 0 exec unasked)"
	echo "$tool: $res ($((t1 - t0)) s); function 0's engine sent $((tx1 - tx0)), took $((rx1 - rx0)) segments, found work $((un1 - un0)) times by its guard pass alone"
	echo "$tool: engine passes, longest and latest (us): function 0 $(sim_counts 0 ticks max_us late_max_us), function 1 $(sim_counts 1 ticks max_us late_max_us)"
	# at least one 1460-byte MSS per 1.5 KiB of payload, in one
	# direction, and one segment per message
	segs=$((iters * size / 1500))
	((segs >= iters)) || segs=$iters
	(((tx1 - tx0) + (rx1 - rx0) >= segs)) ||
		fail "$tool: too few segments for $iters x $size bytes"
}

log_mark 48-iw-perftest
command -v ib_write_bw >/dev/null || skip "perftest is not installed"
sim_iwarp_pair_devs $ns
take_baseline "qhash apbvt_ports ahs" 0 1
echo "baseline: $IRDMA_BASE_RES; function 0: ${IRDMA_BASE_OBJ[0]}; function 1: ${IRDMA_BASE_OBJ[1]}"

port=7480
for tool in ib_write_bw ib_read_bw ib_send_bw; do
	step "$tool -R, $ITERS x $SIZE bytes, $dev0 -> $dev1"
	perf_pair $tool $port $ITERS $SIZE
	wait_baseline $tool
	port=$((port + 1))
done
step "ib_write_lat -R, $LAT_ITERS x 2 bytes inline, $dev0 -> $dev1"
perf_pair ib_write_lat $port $LAT_ITERS 2 -I $IRDMA_PERFTEST_INLINE
wait_baseline ib_write_lat

step "remove"
sim_pair_remove $ns
echo "ib_write_bw, ib_read_bw, ib_send_bw and ib_write_lat -R between two functions on the wire," \
	"nothing left behind"
