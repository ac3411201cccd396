#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The benchmark, inside the guest (tools/irdma-vm bench): irdma on
# simulated E810 functions, iWARP and RoCEv2, next to siw and rxe,
# measured the same way in one guest and printed side by side. Numbers,
# not verdicts: a measurement that cannot be taken prints "n/a" with the
# reason after the table.
#
# Each transport runs on its own netdev, connecting to its own address
# (loopback through the device: irdma's frames to its own MAC are turned
# around by the simulated adapter's switch, siw's go through the kernel's
# TCP over lo, rxe's through its internal loopback), so all pay for one
# host and one vCPU alike:
#   irdma  irdma_sim function 0 (iWARP), isim0, 192.0.2.1 (function 1, on
#          the other end of its wire, only gives the port its carrier)
#   roce   irdma_sim function 2 (RoCEv2), isim2, 192.0.2.129 (function 3
#          gives it its carrier)
#   siw    veth vsiw0, 198.51.100.1
#   rxe    veth vrxe0, 198.51.100.65
#   roce2  irdma_sim function 2 to function 3, 192.0.2.130 in namespace
#          benchroce: RoCEv2 between two functions over the simulated
#          wire (the perftest rows only)
#   up     Linux 6.1's own irdma (irdma_upstream) on function 4 (iWARP),
#          isim4, 198.51.100.129, function 5 beside it: the same model
#          under the driver that runs on real adapters
#   uproce irdma_upstream on function 6 (RoCEv2), 198.51.100.193, function
#          7 beside it: the kernel post+poll row and idle CPU only (the IB
#          CM creates AHs with interrupts off, where upstream spins for
#          CREATE_AH and the one-CPU model cannot answer)
# Upstream's functions are created, and its figures taken, with full
# preemption, as the 7N-upstream scripts run it (its CQP waits spin; the
# model's CQP worker must preempt them); the rest under the kernel's own
# (voluntary).
# Measures:
#   connects/s   cmtime -c N for N = 1 (BENCH_ONE_RUNS runs, default 10,
#                one after the other, each with a fresh server), 50 and
#                $BENCH_CONNS (default 500): rdma_cm connections
#                established per second over the connect step (all N
#                issued at once); connects that failed are not counted,
#                and how many failed, and how, is said after the table.
#                Both ends are on one device: N needs 2N QPs, and a
#                device with fewer (max_qp) gets n/a. iw_cm's listen backlog
#                (net.iw_cm.default_backlog) is raised to the connection
#                count meanwhile, so that a SYN is not dropped for want of
#                room in the queue of connections to accept. From the
#                largest run also the connect step's wall time and the
#                create-QP step per connection
#   bandwidth    ib_write_bw, ib_read_bw, ib_send_bw -R, 64 KiB, average MB/s
#   write_lat    ib_write_lat -R, 2-byte writes, typical latency in us;
#                irdma is given -I $IRDMA_PERFTEST_INLINE (lib.sh says why)
#   idle conn    kernel memory per idle connection, both ends counted,
#                with $BENCH_IDLE (default 100) connections held open
#                (tools/guest/idleconn.py): the slab objects in use plus
#                kmalloc's page allocations (kmem_live); it covers rdma_cm,
#                iw_cm or the IB CM, and the provider's connection and QP
#                state. The raw outputs also give the SUnreclaim growth
#   idle CPU     the guest's busy share of its one vCPU over
#                $BENCH_IDLE_SECS (default 10) seconds with the transport's
#                devices bound and nothing running, less the same share
#                before they existed; per device (irdma: per function)
#   post+poll    irdma_test_kverbs bench_dev=DEV: a kernel consumer's
#                post_send + poll_cq per RDMA WRITE, in ns (RoCE devices
#                only: the module connects its QPs without a CM)
# BENCH_ONLY (an extended regular expression on TRANSPORT.KEY, the keys
# being cps1 cps50 cps$BENCH_CONNS write_bw read_bw send_bw lat post idle
# cpu; for example '^irdma\.(write_bw|lat)$') runs the matching
# figures alone (the idle CPU of all transports or none); the others
# print n/a.
# The ratios say how many times better irdma does than siw, rxe or
# upstream, for every row (so above 1 is better, whichever way the row
# counts): iWARP against siw, rxe and up, RoCEv2 against rxe and uproce.
# The test kernel runs KASAN, lockdep and kmemleak under QEMU's TCG: the
# figures compare the transports on this guest, not on hardware.
. "$IRDMA_REPO/tools/guest/lib.sh"

conns=${BENCH_CONNS:-500}
one_runs=${BENCH_ONE_RUNS:-10}
idle=${BENCH_IDLE:-100}
idle_secs=${BENCH_IDLE_SECS:-10}
bus=/sys/bus/irdma_sim
out=${IRDMA_OUT:-/tmp}/bench
names=(irdma siw roce rxe up uproce)
declare -A dev addr result why remark lat_opts srv_ns srv_dev

mkdir -p "$out"

# is figure $2 of transport $1 wanted (BENCH_ONLY), and can it be taken?
want() {
	if [ "$1" = uproce ] && [[ $2 != post ]]; then
		why[$1.$2]="upstream's rdma_cm on RoCEv2: the IB CM's AHs (see above)"
		return 1
	fi
	[[ $1.$2 =~ ${BENCH_ONLY:-.} ]] && return 0
	why[$1.$2]="not asked for"
	return 1
}

# run "$@" for transport $1, with full preemption for upstream's
under() {
	local t=$1 rc=0

	shift
	[[ $t == up* ]] && { preempt_mode full || fail "cannot switch to full preemption"; }
	"$@" || rc=$?
	[[ $t == up* ]] && preempt_restore
	return $rc
}

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

# wait up to 30 s for a GID ending in $2 on RDMA device $1's port 1
wait_gid() {
	local i g v

	for ((i = 0; i < 60; i++)); do
		for g in /sys/class/infiniband/"$1"/ports/1/gids/*; do
			read -r v <"$g" 2>/dev/null || continue
			[[ $v == *"$2" ]] && return 0
		done
		pause 0.5
	done
	return 1
}

# kB of unreclaimable slab
sunreclaim() {
	local k v
	while read -r k v _; do
		[ "$k" = SUnreclaim: ] && echo "$v" && return
	done </proc/meminfo
}

# Bytes the kernel's allocators hold live: the objects in use in every
# slab cache, plus kmalloc's page allocations (in SUnreclaim, in no
# cache). SUnreclaim alone counts slab pages, and so depends on how much
# free room the transports measured before left in the caches' slabs.
kmem_live() {
	local name active size pages slabs r live=0 slab=0 sun pg

	pg=$(getconf PAGESIZE)
	sun=$(sunreclaim)
	# name active_objs num_objs objsize objperslab pagesperslab
	# : tunables (3) : slabdata active_slabs num_slabs sharedavail
	while read -r name active _ size _ pages _ _ _ _ _ _ _ _ slabs _; do
		[[ $active =~ ^[0-9]+$ ]] || continue
		live=$((live + active * size))
		r=0
		read -r r 2>/dev/null <"/sys/kernel/slab/$name/reclaim_account"
		((r)) || slab=$((slab + slabs * pages * pg))
	done </proc/slabinfo
	echo $((live + sun * 1024 - slab))
}

# busy and total jiffies of the CPU so far ("busy total")
cpu_jiffies() {
	local user nice sys idl iowait irq softirq steal
	read -r _ user nice sys idl iowait irq softirq steal _ </proc/stat
	echo "$((user + nice + sys + irq + softirq)) $((user + nice + sys + idl + iowait + irq + softirq + steal))"
}

# the busy share of the CPU over $idle_secs s, in hundredths of a percent
busy_share() {
	local b0 t0 b1 t1
	read -r b0 t0 < <(cpu_jiffies)
	pause "$idle_secs"
	read -r b1 t1 < <(cpu_jiffies)
	echo $(((b1 - b0) * 10000 / (t1 - t0 > 0 ? t1 - t0 : 1)))
}

# idle CPU of transport $1 with $2 devices: the share now less the
# share before (idle_base), which this share becomes
idle_base=0
idle_cpu() {
	local now t

	# each share is less the one before: all transports' or none
	for t in "${names[@]}"; do
		[[ $t.cpu =~ ${BENCH_ONLY:-.} ]] && break
		t=""
	done
	if [ -z "$t" ]; then
		for t in "${names[@]}"; do
			why[$t.cpu]="not asked for"
		done
		return 0
	fi
	pause 2
	now=$(busy_share)
	[ -n "$1" ] && result[$1.cpu]=$(awk -v d=$((now - idle_base)) -v n="$2" \
		'BEGIN { if (d < 0) d = 0; printf "%.2f", d / 100 / n }')
	idle_base=$now
}

# veth pair $1/$2 with $3 on $1, RDMA link $4 of type $5 on it
veth_link() {
	ip link add "$1" type veth peer name "$2" &&
		ip link set "$1" up && ip link set "$2" up &&
		ip addr add "$3" dev "$1" &&
		rdma link add "$4" type "$5" netdev "$1"
}

# simulated functions $1 (protocol $2, claimed by driver $4, irdma by
# default) and its peer, $1 addressed $3
sim_pair() {
	local peer=$(($1 + 1)) drv=${4:-irdma}

	echo "$1 $2 gen2 $drv" >$bus/new_device || fail "cannot create function $1"
	# the other end of the wire: without it the port has no carrier,
	# and perftest refuses a port that is not ACTIVE
	echo "$peer $2 gen2 $drv" >$bus/new_device || fail "cannot create function $peer"
	ip link set "isim$peer" up
	ip link set "isim$1" up
	ip addr add "$3" dev "isim$1"
}

setup() {
	load_stack || fail "cannot load the RDMA stack"
	kmod irdma || fail "cannot load irdma"
	kmod irdma_sim || fail "cannot load irdma_sim"
	kmod siw || fail "cannot load siw"
	kmod rdma_rxe || fail "cannot load rdma_rxe"
	kmod irdma_upstream || fail "cannot load irdma_upstream"
	note "idle CPU, $idle_secs s each"
	idle_cpu "" 1
	sim_pair 0 iwarp 192.0.2.1/25
	idle_cpu irdma 2
	sim_pair 2 roce 192.0.2.129/25
	idle_cpu roce 2
	ip netns add benchroce && ip link set isim3 netns benchroce &&
		ip -n benchroce link set isim3 up &&
		ip -n benchroce addr add 192.0.2.130/25 dev isim3 ||
		fail "function 3 into namespace benchroce"
	veth_link vsiw0 vsiw1 198.51.100.1/26 siw0 siw || fail "siw link"
	idle_cpu siw 1
	veth_link vrxe0 vrxe1 198.51.100.65/26 rxe0 rxe || fail "rxe link"
	idle_cpu rxe 1
	under up sim_pair 4 iwarp 198.51.100.129/26 upstream
	idle_cpu up 2
	under up sim_pair 6 roce 198.51.100.193/26 upstream
	idle_cpu uproce 2
	addr=([irdma]=192.0.2.1 [roce]=192.0.2.129 [siw]=198.51.100.1
	      [rxe]=198.51.100.65 [up]=198.51.100.129)
	dev[irdma]=$(rdma_dev_of isim0) || fail "no RDMA device on isim0"
	dev[roce]=$(rdma_dev_of isim2) || fail "no RDMA device on isim2"
	dev[siw]=siw0
	dev[rxe]=rxe0
	dev[up]=$(rdma_dev_of isim4) || fail "no RDMA device on isim4"
	dev[uproce]=$(rdma_dev_of isim6) || fail "no RDMA device on isim6"
	wait_gid "${dev[uproce]}" ':ffff:c633:64c1' ||
		fail "no GID for 198.51.100.193 on ${dev[uproce]}"
	dev[roce2]=${dev[roce]}
	addr[roce2]=192.0.2.130
	srv_ns[roce2]=benchroce
	srv_dev[roce2]=$(ibdev_of 3)
	[ -n "${srv_dev[roce2]}" ] || fail "no RDMA device on function 3"
	wait_gid "${srv_dev[roce2]}" ':ffff:c000:0282' ||
		fail "no GID for 192.0.2.130 on ${srv_dev[roce2]}"
	lat_opts[irdma]="-I $IRDMA_PERFTEST_INLINE"
	lat_opts[roce]="-I $IRDMA_PERFTEST_INLINE"
	lat_opts[roce2]=${lat_opts[roce]}
	lat_opts[up]=${lat_opts[irdma]}
	rdma link show
}

# run "$@" under a time limit, output to $out/$tag.txt
run() {
	local tag=$1

	shift
	timeout 600 "$@" >"$out/$tag.txt" 2>&1
}

# the device counters of transport $1 (its CQP commands and their waits,
# for irdma) appended to $out/$2.counters as "NAME VALUE" lines under a
# "== $3" line: read before and after a figure, they say where it waited
save_counters() {
	local f

	echo "== $3" >>"$out/$2.counters"
	for f in /sys/class/infiniband/"${dev[$1]}"/hw_counters/cqp_*; do
		[ -r "$f" ] && echo "${f##*/} $(<"$f")"
	done >>"$out/$2.counters"
}

# stop a server started as "run ... &" with PID $1: its children too (a
# signal to the subshell alone leaves the server listening)
stop_server() {
	pkill -P "$1" 2>/dev/null
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# "NAME : total_ms max_ms min_us us/conn": field $2 (1 to 4) of step $1
cmtime_step() {
	local line name rest
	local -a w

	while IFS= read -r line; do
		[[ $line == *:* ]] || continue
		name=${line%%:*}
		name=${name%"${name##*[! ]}"}
		[ "$name" = "$1" ] || continue
		rest=${line#*:}
		read -r -a w <<<"$rest"
		echo "${w[$2 - 1]:-}"
		return
	done <"$3"
}

# failed connects in a cmtime output $1: "COUNT FIRST-LINE"
cmtime_failed() {
	local line failed=0 first=""

	while IFS= read -r line; do
		if [[ $line == "event: "* || $line == "failure "* ]]; then
			failed=$((failed + 1))
			first=${first:-$line}
		fi
	done <"$1"
	echo "$failed $first"
}

# one cmtime client run of $3 connections of transport $1 on port $2;
# its output in $out/cmtime-$1-$3$4.txt
cmtime_client() {
	run "cmtime-$1-$3$4" cmtime -s "${addr[$1]}" -p "$2" -c "$3"
}

# cmtime with $3 connections at once: connections per second (key $4)
bench_cmtime() {
	local t=$1 port=$2 n=$3 key=$4 spid ms failed first txt backlog="" maxqp

	# both ends on one device: 2N QPs
	maxqp=$(ibv_devinfo -d "${dev[$t]}" -v 2>/dev/null |
		awk '$1 == "max_qp:" { print $2 }')
	if [ -n "$maxqp" ] && ((2 * n > maxqp)); then
		why[$t.$key]="$n at once takes $((2 * n)) QPs of ${dev[$t]}, which has $maxqp"
		return
	fi
	[ -r /proc/sys/net/iw_cm/default_backlog ] &&
		read -r backlog </proc/sys/net/iw_cm/default_backlog &&
		echo "$n" >/proc/sys/net/iw_cm/default_backlog
	run "cmtime-srv-$t-$n" cmtime -b "${addr[$t]}" -p "$port" &
	spid=$!
	wait_cm_listen 30 "$port" || why[$t.$key]="no listener on port $port"
	txt=$out/cmtime-$t-$n.txt
	save_counters "$t" "cmtime-$t-$n" before
	if ! cmtime_client "$t" "$port" "$n" ""; then
		why[$t.$key]="cmtime failed: $(tail -n 1 "$txt")"
	fi
	save_counters "$t" "cmtime-$t-$n" after
	stop_server $spid
	[ -n "$backlog" ] && echo "$backlog" >/proc/sys/net/iw_cm/default_backlog
	ms=$(cmtime_step connect 1 "$txt")
	read -r failed first < <(cmtime_failed "$txt")
	if [ -z "$ms" ]; then
		why[$t.$key]=${why[$t.$key]:-"no connect line from cmtime"}
		return
	elif ((failed >= n)); then
		why[$t.$key]="all $n connects failed, the first with: $first"
		return
	fi
	result[$t.$key]=$(awk -v n=$((n - failed)) -v ms="$ms" \
		'BEGIN { if (ms > 0) printf "%.1f", n * 1000 / ms }')
	if ((failed)); then
		remark[$t.$key]="$failed of $n connects failed (the first: $first)"
		remark[$t.$key]+="; the rate counts the $((n - failed)) that connected"
	fi
	if [ "$n" = "$conns" ]; then
		result[$t.wall]=$(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 }')
		result[$t.cqp]=$(awk -v us="$(cmtime_step "create qp" 4 "$txt")" \
			'BEGIN { if (us != "") printf "%.2f", us / 1000 }')
	fi
}

# $one_runs cmtime runs of one connection each, one after the other, each
# with a server of its own: a cmtime server serves one client run (later
# connect requests fail its QP creation and are rejected). A run whose
# connect failed is not counted.
bench_cmtime_one() {
	local t=$1 port=$2 spid i ms txt failed first total=0 ok=0

	for ((i = 0; i < one_runs; i++)); do
		run "cmtime-srv-$t-1-$i" cmtime -b "${addr[$t]}" -p "$port" &
		spid=$!
		txt=$out/cmtime-$t-1-$i.txt
		if wait_cm_listen 30 "$port" &&
			cmtime_client "$t" "$port" 1 "-$i"; then
			ms=$(cmtime_step connect 1 "$txt")
			read -r failed first < <(cmtime_failed "$txt")
			if [ -n "$ms" ] && ((failed == 0)); then
				total=$(awk -v a="$total" -v b="$ms" 'BEGIN { print a + b }')
				ok=$((ok + 1))
			fi
		fi
		stop_server $spid
	done
	if ((ok)); then
		result[$t.cps1]=$(awk -v n=$ok -v ms="$total" \
			'BEGIN { if (ms > 0) printf "%.1f", n * 1000 / ms }')
		((ok < one_runs)) &&
			remark[$t.cps1]="$ok of $one_runs single connects succeeded"
	else
		why[$t.cps1]="no single connect succeeded: $(tail -n 1 "$out/cmtime-$t-1-0.txt")"
	fi
}

# perftest over rdma_cm: $1 transport, $2 tool, $3 port, $4 column of the
# data line, $5 result key, the rest the tool's options
bench_perftest() {
	local t=$1 tool=$2 port=$3 col=$4 key=$5 spid w

	shift 5
	# A server in its own namespace (roce2) is the far function's. Every
	# server binds its address (bind-addr.c): a perftest server listens
	# on the wildcard, which reaches every device, upstream's too, whose
	# create_listen then takes the RTNL under rdma_cm's lock (lockdep).
	run "$tool-srv-$t" ${srv_ns[$t]:+ip netns exec "${srv_ns[$t]}"} \
		env LD_PRELOAD=/run/irdma/run/bind-addr.so \
		IRDMA_BIND_ADDR="${addr[$t]}" "$tool" -R -F \
		-d "${srv_dev[$t]:-${dev[$t]}}" -p "$port" "$@" &
	spid=$!
	wait_cm_listen 30 "$port" ${srv_ns[$t]:+ip netns exec "${srv_ns[$t]}"} ||
		why[$t.$key]="$tool: no listener on port $port"
	if ! run "$tool-$t" "$tool" -R -F -d "${dev[$t]}" -p "$port" "$@" "${addr[$t]}"; then
		why[$t.$key]="$tool failed: $(tail -n 1 "$out/$tool-$t.txt")"
	fi
	stop_server $spid
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
		if proc_exited "$pid"; then
			wait_line 1 "$2" "$3"
			return
		fi
	done
	return 1
}

# KASAN keeps freed objects in its quarantine (up to 1/32 of memory),
# where the slab still counts them: a transport that allocates more
# short-lived objects per connect would seem to hold more per connection.
# Shrinking a cache empties its part of the quarantine.
slab_flush() {
	local s

	for s in /sys/kernel/slab/*/shrink; do
		echo 1 >"$s" 2>/dev/null
	done
}

# until the unreclaimable slab holds still (what the last transport's
# closed connections held is freed in the background): at most 60 s
slab_settle() {
	local i a b

	slab_flush
	a=$(sunreclaim)
	for ((i = 0; i < 30; i++)); do
		pause 2
		slab_flush
		b=$(sunreclaim)
		((b - a < 64 && a - b < 64)) && return
		a=$b
	done
}

# the slab caches whose objects in use grew from slabinfo $1 to slabinfo
# $2, largest first: cache, objects added, bytes added per connection
slab_growth() {
	awk -v n="$idle" 'NR == FNR { if (FNR > 2) was[$1] = $2; next }
		FNR > 2 && $2 > was[$1] {
			printf "%-28s %8d %10d\n", $1, $2 - was[$1],
				($2 - was[$1]) * $4 / n
		}' "$1" "$2" | sort -k3 -n -r | head -n 15
}

# who allocated what the six caches that grew most hold, where the
# kernel keeps track (slub_debug=U, e.g. in IRDMA_VM_APPEND)
slab_callers() {
	local cache _ n=0

	while read -r cache _ && ((n++ < 6)); do
		[ -r "/sys/kernel/debug/slab/$cache/alloc_traces" ] || continue
		echo "== $cache"
		grep -E "^ *[0-9]+ " "/sys/kernel/debug/slab/$cache/alloc_traces" |
			sort -n -r | head -n 20
	done
}

# kernel memory per idle connection (both ends)
bench_idle() {
	local t=$1 port=$2 spid cpid before after go sun

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
		slab_settle
		before=$(kmem_live)
		sun=$(sunreclaim)
		cat /proc/slabinfo >"$out/idle-slab-$t.before" 2>/dev/null
		: >"$go"
		if wait_line_alive "$cpid" 900 "connected*" "$out/idle-$t.txt" &&
		   wait_line_alive "$spid" 120 "accepted*" "$out/idle-srv-$t.txt"; then
			# the connects' short-lived objects (and kmemleak's
			# records of them) are freed after RCU grace periods
			slab_settle
			after=$(kmem_live)
			result[$t.idle]=$(((after - before) / idle))
			echo "SUnreclaim per connection: $((($(sunreclaim) - sun) * 1024 / idle)) bytes" \
				>"$out/idle-sunreclaim-$t.txt"
			cat /proc/slabinfo >"$out/idle-slab-$t.after" 2>/dev/null &&
				slab_growth "$out/idle-slab-$t.before" \
					"$out/idle-slab-$t.after" \
					>"$out/idle-slab-$t.txt"
			slab_callers <"$out/idle-slab-$t.txt" \
				>"$out/idle-slab-$t.callers"
		else
			why[$t.idle]="idle connections: $(tail -n 1 "$out/idle-$t.txt")"
		fi
	else
		why[$t.idle]="idleconn.py did not start: $(tail -n 1 "$out/idle-$t.txt")"
	fi
	kill $cpid $spid 2>/dev/null
	wait $cpid $spid 2>/dev/null
}

# irdma_test_kverbs' post_send + poll_cq benchmark on a RoCE device
bench_kverbs() {
	local t=$1 line w i

	if ! kmod -n irdma_test_kverbs >/dev/null 2>&1; then
		why[$t.post]="irdma_test_kverbs.ko not built"
		return
	fi
	echo "bench: kverbs on ${dev[$t]}" >/dev/kmsg
	if ! kmod irdma_test_kverbs "bench_dev=${dev[$t]}" >"$out/kverbs-$t.txt" 2>&1; then
		why[$t.post]="irdma_test_kverbs did not load: $(dmesg | grep irdma_test_kverbs | tail -n 1)"
		return
	fi
	rmmod irdma_test_kverbs
	line=$(dmesg | grep "irdma_test_kverbs: benchmark:" | tail -n 1)
	echo "$line" >>"$out/kverbs-$t.txt"
	read -r -a w <<<"${line#*benchmark:}"
	for ((i = 0; i < ${#w[@]}; i++)); do
		[ "${w[i]}" = ns ] && [ "${w[i + 1]:-}" = per ] &&
			result[$t.post]=${w[i - 1]}
	done
	[ -n "${result[$t.post]:-}" ] || why[$t.post]="no benchmark line"
}

# the simulated functions' engine state, for the raw outputs
sim_dump() {
	local fn

	# ours (0, 2) and upstream's (4, 6): the same work, command by command
	for fn in 0 2 4 6; do
		cat "/sys/kernel/debug/irdma_sim/irdma_sim$fn/state" \
			>"$out/sim$fn-state-$1.txt" 2>/dev/null
	done
	rdma statistic show >"$out/rdma-stats-$1.txt" 2>&1
	grep -H . /sys/class/infiniband/irdma*/hw_counters/* \
		>"$out/irdma-dev-stats-$1.txt" 2>/dev/null
}

setup
sim_dump start
port=7100
note "cmtime, one connection, $one_runs runs"
for t in "${names[@]}"; do
	want "$t" cps1 && under "$t" bench_cmtime_one "$t" $port
	((port++))
done
for n in 50 "$conns"; do
	note "cmtime, $n connections at once"
	for t in "${names[@]}"; do
		want "$t" "cps$n" && under "$t" bench_cmtime "$t" $port "$n" "cps$n"
		((port++))
	done
done
sim_dump cmtime
for tool in ib_write_bw ib_read_bw ib_send_bw; do
	note "$tool -R, 64 KiB"
	for t in "${names[@]}" roce2; do
		want "$t" "${tool#ib_}" &&
			under "$t" bench_perftest "$t" "$tool" $port 3 "${tool#ib_}" -s 65536 -n 200
		((port++))
	done
done
note "ib_write_lat -R, 2 bytes"
for t in "${names[@]}" roce2; do
	# shellcheck disable=SC2086 # the options are words
	want "$t" lat &&
		under "$t" bench_perftest "$t" ib_write_lat $port 4 lat -s 2 -n 500 ${lat_opts[$t]:-}
	((port++))
done
sim_dump perftest
note "post_send + poll_cq, kernel"
for t in roce rxe uproce; do
	want "$t" post && under "$t" bench_kverbs "$t"
done
why[irdma.post]="iWARP: the kernel benchmark connects its QPs without a CM"
why[siw.post]=${why[irdma.post]}
why[up.post]=${why[irdma.post]}
note "$idle idle connections"
for t in "${names[@]}"; do
	want "$t" idle && under "$t" bench_idle "$t" $port
	((port++))
done
sim_dump end

# how many times better irdma ($1) does than $2 on row $3; $4 "low" when
# lower is better
gain() {
	awk -v a="${result[$1.$3]:-}" -v b="${result[$2.$3]:-}" -v low="$4" \
		'BEGIN { if (a == "" || b == "") print "n/a";
			 else if (low == "low" && a == 0) print (b > 0 ? "inf" : "=");
			 else if (a <= 0 || b <= 0) print "n/a";
			 else printf "%.2f", low == "low" ? b / a : a / b }'
}

echo
printf '%-36s %10s %10s %10s %10s %10s %10s %10s | %8s %8s %8s %8s %8s %8s\n' "" \
	irdma-iw siw irdma-roce rxe up-iw up-roce roce-2fn \
	"iw/siw" "iw/rxe" "roce/rxe" "2fn/rxe" "iw/up" "roce/up"
row() {
	local label=$1 key=$2 low=${3:-} t

	printf '%-36s' "$label"
	for t in "${names[@]}" roce2; do
		printf ' %10s' "${result[$t.$key]:-n/a}"
	done
	printf ' | %8s %8s %8s %8s %8s %8s\n' "$(gain irdma siw "$key" "$low")" \
		"$(gain irdma rxe "$key" "$low")" "$(gain roce rxe "$key" "$low")" \
		"$(gain roce2 rxe "$key" "$low")" "$(gain irdma up "$key" "$low")" \
		"$(gain roce uproce "$key" "$low")"
}
row "rdma_cm connects/s (1 at a time)" cps1
row "rdma_cm connects/s (50 at once)" cps50
row "rdma_cm connects/s ($conns at once)" "cps$conns"
row "connect wall time, $conns (s)" wall low
row "create QP per connection (ms)" cqp low
row "ib_write_bw -R 64 KiB (MB/s)" write_bw
row "ib_read_bw -R 64 KiB (MB/s)" read_bw
row "ib_send_bw -R 64 KiB (MB/s)" send_bw
row "ib_write_lat -R 2 B typical (us)" lat low
row "memory per idle connection (bytes)" idle low
row "idle CPU per bound device (%)" cpu low
row "kernel post_send+poll_cq (ns/WQE)" post low
echo "(roce-2fn: irdma RoCEv2 from function 2 to function 3 across the wire; perftest rows only)"
echo "(up-iw, up-roce: Linux 6.1's irdma on the same model; iw/up, roce/up above 1: ours faster)"
echo "(ratios: times better than the other transport; above 1 is better)"
for k in "${!remark[@]}"; do
	echo "note $k: ${remark[$k]}"
done
skipped=0
for k in "${!why[@]}"; do
	case ${why[$k]} in
	"not asked for"*) ((++skipped)) ;;
	*) echo "n/a $k: ${why[$k]}" ;;
	esac
done
if ((skipped)); then
	echo "n/a: $skipped figures not asked for (BENCH_ONLY=$BENCH_ONLY)"
fi
echo "raw outputs: bench/ in the run directory"
