#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The benchmark, inside the guest (tools/irdma-vm bench): irdma on a
# simulated E810 function, siw and rxe, measured the same way in one guest
# and printed side by side. Numbers, not verdicts: a measurement that
# cannot be taken prints "n/a" with the reason after the table.
#
# Each transport runs on its own netdev, connecting to its own address
# (loopback through the device: irdma's frames to its own MAC are turned
# around by the simulated adapter's switch, siw's go through the kernel's
# TCP over lo, rxe's through its internal loopback), so all three pay for
# one host and one vCPU alike:
#   irdma  irdma_sim function 0, isim0, 192.0.2.1 (function 1, on the
#          other end of its wire, only gives the port its carrier)
#   siw    veth vsiw0, 198.51.100.1
#   rxe    veth vrxe0, 198.51.100.65
# Measures:
#   connects/s   cmtime -c $BENCH_CONNS (default 500): rdma_cm connections
#                established per second over the whole connect step (all
#                issued at once); connects that failed are not counted, and
#                how many failed, and how, is said after the table. iw_cm's
#                listen backlog (net.iw_cm.default_backlog) is raised to the
#                connection count meanwhile, so that a SYN is not dropped
#                for want of room in the queue of connections to accept
#   write_bw     ib_write_bw -R, 64 KiB messages, average MB/s
#   write_lat    ib_write_lat -R, 2-byte writes, typical latency in us;
#                irdma is given -I $IRDMA_PERFTEST_INLINE (lib.sh says why)
#   idle conn    kernel slab (SUnreclaim) per idle connection, both ends
#                counted, with $BENCH_IDLE (default 100) connections held
#                open (tools/guest/idleconn.py); it covers rdma_cm, iw_cm
#                or the IB CM, and the provider's connection and QP state
# The test kernel runs KASAN, lockdep and kmemleak under QEMU's TCG: the
# figures compare the three transports on this guest, not on hardware.
. "$IRDMA_REPO/tools/guest/lib.sh"

conns=${BENCH_CONNS:-500}
idle=${BENCH_IDLE:-100}
bus=/sys/bus/irdma_sim
out=${IRDMA_OUT:-/tmp}/bench
names=(irdma siw rxe)
declare -A dev addr result why remark lat_opts

mkdir -p "$out"

note() {
	echo "bench: $*" >/dev/kmsg
	echo "# $*"
}

# the RDMA device whose link sits on netdev $1
rdma_dev_of() {
	local w d
	while read -r -a w; do
		[ "${w[0]}" = link ] || continue
		for ((d = 0; d < ${#w[@]}; d++)); do
			if [ "${w[d]}" = netdev ] && [ "${w[d + 1]}" = "$1" ]; then
				echo "${w[1]%/*}"
				return 0
			fi
		done
	done < <(rdma link show)
	return 1
}

# kB of unreclaimable slab
sunreclaim() {
	local k v
	while read -r k v _; do
		[ "$k" = SUnreclaim: ] && echo "$v" && return
	done </proc/meminfo
}

# veth pair $1/$2 with $3 on $1, RDMA link $4 of type $5 on it
veth_link() {
	ip link add "$1" type veth peer name "$2" &&
		ip link set "$1" up && ip link set "$2" up &&
		ip addr add "$3" dev "$1" &&
		rdma link add "$4" type "$5" netdev "$1"
}

setup() {
	load_stack || fail "cannot load the RDMA stack"
	kmod irdma || fail "cannot load irdma"
	kmod irdma_sim || fail "cannot load irdma_sim"
	kmod siw || fail "cannot load siw"
	kmod rdma_rxe || fail "cannot load rdma_rxe"
	echo "0 iwarp" >$bus/new_device || fail "cannot create a function"
	# the other end of function 0's wire: without it the port has no
	# carrier, and perftest refuses a port that is not ACTIVE
	echo "1 iwarp" >$bus/new_device || fail "cannot create function 1"
	ip link set isim1 up
	ip link set isim0 up
	ip addr add 192.0.2.1/24 dev isim0
	veth_link vsiw0 vsiw1 198.51.100.1/26 siw0 siw || fail "siw link"
	veth_link vrxe0 vrxe1 198.51.100.65/26 rxe0 rxe || fail "rxe link"
	addr=([irdma]=192.0.2.1 [siw]=198.51.100.1 [rxe]=198.51.100.65)
	dev[irdma]=$(rdma_dev_of isim0) || fail "no RDMA device on isim0"
	dev[siw]=siw0
	dev[rxe]=rxe0
	lat_opts[irdma]="-I $IRDMA_PERFTEST_INLINE"
	rdma link show
}

# run "$@" under a time limit, output to $out/$tag.txt
run() {
	local tag=$1

	shift
	timeout 600 "$@" >"$out/$tag.txt" 2>&1
}

# connect step of cmtime: connections established per second
bench_cmtime() {
	local t=$1 port=$2 spid w line ms="" failed=0 first="" backlog=""

	[ -r /proc/sys/net/iw_cm/default_backlog ] &&
		read -r backlog </proc/sys/net/iw_cm/default_backlog &&
		echo "$conns" >/proc/sys/net/iw_cm/default_backlog
	run "cmtime-srv-$t" cmtime -b "${addr[$t]}" -p "$port" &
	spid=$!
	pause 3
	if ! run "cmtime-$t" cmtime -s "${addr[$t]}" -p "$port" -c "$conns"; then
		why[$t.cps]="cmtime failed: $(tail -n 1 "$out/cmtime-$t.txt")"
	fi
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	[ -n "$backlog" ] && echo "$backlog" >/proc/sys/net/iw_cm/default_backlog
	while IFS= read -r line; do
		read -r -a w <<<"$line"
		# "connect      :   total_ms   max_ms  min_us  us/conn"
		if [ "${w[0]:-}" = connect ] && [ "${w[1]:-}" = : ]; then
			ms=${w[2]}
		elif [[ $line == "event: "* || $line == "failure "* ]]; then
			failed=$((failed + 1))
			first=${first:-$line}
		fi
	done <"$out/cmtime-$t.txt"
	if [ -z "$ms" ]; then
		why[$t.cps]=${why[$t.cps]:-"no connect line from cmtime"}
	elif ((failed >= conns)); then
		why[$t.cps]="all $conns connects failed, the first with: $first"
	else
		result[$t.cps]=$(awk -v n=$((conns - failed)) -v ms="$ms" \
			'BEGIN { if (ms > 0) printf "%.1f", n * 1000 / ms }')
		if ((failed)); then
			remark[$t.cps]="$failed of $conns connects failed (the first: $first)"
			remark[$t.cps]+="; the rate counts the $((conns - failed)) that connected"
		fi
	fi
}

# perftest over rdma_cm: $1 transport, $2 tool, $3 port, $4 column of the
# data line, $5 result key, the rest the tool's options
bench_perftest() {
	local t=$1 tool=$2 port=$3 col=$4 key=$5 spid w

	shift 5
	run "$tool-srv-$t" "$tool" -R -F -d "${dev[$t]}" -p "$port" "$@" &
	spid=$!
	pause 3
	if ! run "$tool-$t" "$tool" -R -F -d "${dev[$t]}" -p "$port" "$@" "${addr[$t]}"; then
		why[$t.$key]="$tool failed: $(tail -n 1 "$out/$tool-$t.txt")"
	fi
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	while read -r -a w; do
		# the data line starts with the message size
		[[ ${w[0]:-} =~ ^[0-9]+$ ]] && [ ${#w[@]} -gt "$col" ] &&
			result[$t.$key]=${w[col]}
	done <"$out/$tool-$t.txt"
	[ -n "${result[$t.$key]:-}" ] || why[$t.$key]=${why[$t.$key]:-"no result line from $tool"}
}

# wait_line, for at most $2 seconds, while process $1 runs: a client that
# failed (and said why) is not waited for
wait_line_alive() {
	local pid=$1 i

	shift
	for ((i = 0; i < $1; i++)); do
		wait_line 1 "$2" "$3" && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			wait_line 1 "$2" "$3"
			return
		fi
	done
	return 1
}

# slab per idle connection (both ends)
bench_idle() {
	local t=$1 port=$2 spid cpid before after go

	go=$out/go-$t

	PYTHONPATH=$IRDMA_REPO/tools/guest python3 -u \
		"$IRDMA_REPO/tools/guest/idleconn.py" server "${addr[$t]}" \
		"$port" "$idle" >"$out/idle-srv-$t.txt" 2>&1 &
	spid=$!
	PYTHONPATH=$IRDMA_REPO/tools/guest python3 -u \
		"$IRDMA_REPO/tools/guest/idleconn.py" client "${addr[$t]}" \
		"$port" "$idle" "$go" >"$out/idle-$t.txt" 2>&1 &
	cpid=$!
	if wait_line 120 ready "$out/idle-$t.txt" &&
	   wait_line 120 listening "$out/idle-srv-$t.txt"; then
		pause 2
		before=$(sunreclaim)
		: >"$go"
		if wait_line_alive "$cpid" 900 "connected*" "$out/idle-$t.txt" &&
		   wait_line_alive "$spid" 120 "accepted*" "$out/idle-srv-$t.txt"; then
			pause 2
			after=$(sunreclaim)
			result[$t.idle]=$(((after - before) * 1024 / idle))
		else
			why[$t.idle]="idle connections: $(tail -n 1 "$out/idle-$t.txt")"
		fi
	else
		why[$t.idle]="idleconn.py did not start: $(tail -n 1 "$out/idle-$t.txt")"
	fi
	kill $cpid $spid 2>/dev/null
	wait $cpid $spid 2>/dev/null
}

setup
note "cmtime, $conns connections each"
port=7100
for t in "${names[@]}"; do
	bench_cmtime "$t" $((port++))
done
note "ib_write_bw -R, 64 KiB"
for t in "${names[@]}"; do
	bench_perftest "$t" ib_write_bw $((port++)) 3 bw -s 65536 -n 200
done
note "ib_write_lat -R, 2 bytes"
for t in "${names[@]}"; do
	# shellcheck disable=SC2086 # the options are words
	bench_perftest "$t" ib_write_lat $((port++)) 4 lat -s 2 -n 500 ${lat_opts[$t]:-}
done
note "$idle idle connections"
for t in "${names[@]}"; do
	bench_idle "$t" $((port++))
done

echo
printf '%-34s %12s %12s %12s\n' "" irdma/sim siw rxe
row() {
	local label=$1 key=$2 t

	printf '%-34s' "$label"
	for t in "${names[@]}"; do
		printf ' %12s' "${result[$t.$key]:-n/a}"
	done
	echo
}
row "rdma_cm connects/s ($conns)" cps
row "ib_write_bw -R 64 KiB (MB/s)" bw
row "ib_write_lat -R 2 B typical (us)" lat
row "slab per idle connection (bytes)" idle
for k in "${!remark[@]}"; do
	echo "note $k: ${remark[$k]}"
done
for k in "${!why[@]}"; do
	echo "n/a $k: ${why[$k]}"
done
echo "raw outputs: bench/ in the run directory"
