# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Traffic and trouble for 81-storm and the soak (sourced
# after lib.sh): four functions, connection loops that run until told to
# stop and keep how each run ended, servers that come back when they die,
# and the tally of it all.

STORM_DIR=/tmp/storm
STORM_STOP=$STORM_DIR/stop
STORM_NS=storm
STORM_SERVERS=()
STORM_CLIENTS=()
STORM_LIMIT_MAX=0
declare -A STORM_LOOP=()
bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

# Functions 0 and 1 iWARP and wired, 192.0.2.1 and 192.0.2.2 (1 in
# namespace storm); 2 RoCEv2 with 198.51.100.1 and 3 beside it, up for the
# carrier. Sets STORM_ROCE to function 2's RDMA device; connections the
# engine closed first leave TIME_WAIT after 200 ms.
storm_setup() {
	local fn

	rm -rf $STORM_DIR
	mkdir -p $STORM_DIR
	netns_del_on_exit $STORM_NS
	load_irdma_sim
	sim_iwarp_pair_netns $STORM_NS
	echo "2 roce" >$bus/new_device || fail "create 2"
	echo "3 roce" >$bus/new_device || fail "create 3"
	ip -batch - <<EOF || fail "isim2 and isim3 up"
link set isim3 up
link set isim2 up
addr add 198.51.100.1/24 dev isim2
EOF
	for fn in 0 1 2; do
		sim_wait_counts 60 1 $fn cqp live
		echo 200 >$dbg/irdma_sim$fn/time_wait_ms
	done
	STORM_ROCE=$(ibdev_of 2)
	[ -n "$STORM_ROCE" ] || fail "no RDMA device on function 2"
	roce_port_ready "$STORM_ROCE" ':ffff:c633:6401'
}

# The command prefix that runs in namespace NS ("-": this one).
storm_in() {
	STORM_PRE=()
	[ "$1" = - ] || STORM_PRE=(ip netns exec "$1")
}

# A client loop: CMD... runs again and again until storm_stop (or
# storm_client_stop TAG), in namespace NS ("-": this one). A run still
# going after LIMIT seconds counts as hung: storm_hung_dump records what
# the CM and the engine show at that moment, then the run is killed. Each
# run's exit code goes to $STORM_DIR/TAG.rc (124 when it hung) and its
# output to TAG.out. Usage: storm_client TAG NS LIMIT CMD...
storm_client() {
	local tag=$1 limit=$3

	storm_in "$2"
	shift 3
	((limit > STORM_LIMIT_MAX)) && STORM_LIMIT_MAX=$limit
	(
		local n=0 run nap ended rc why

		while [ ! -e $STORM_STOP ] && [ ! -e "$STORM_DIR/$tag.stop" ]; do
			n=$((n + 1))
			echo "== run $n" >>"$STORM_DIR/$tag.out"
			"${STORM_PRE[@]}" timeout -k 5 $((limit + 30)) "$@" \
				>>"$STORM_DIR/$tag.out" 2>&1 &
			run=$!
			storm_watch "$tag" $n "$limit" &
			nap=$!
			wait -n -p ended "$run" "$nap"
			rc=$?
			why="still running after $limit s"
			if [ "$ended" = "$nap" ] && ((rc == 3)); then
				storm_rping_joins "$run" "$tag"
				rc=$?
				why="still running after a refused rdma_connect"
			fi
			if [ "$ended" = "$nap" ] && ((rc == 0)); then
				storm_hung_dump "$tag" "$n" "stuck"
				kill "$run" 2>/dev/null
				wait "$run"
				rc=joined
			elif [ "$ended" = "$nap" ] && ((rc == 2)); then
				wait "$run"
				rc=$?
			elif [ "$ended" = "$nap" ]; then
				storm_hung_dump "$tag" "$n" "$why"
				kill "$run" 2>/dev/null
				wait "$run"
				rc=124
			else
				kill "$nap" 2>/dev/null
				wait "$nap"
			fi
			echo $rc >>"$STORM_DIR/$tag.rc"
		done
	) &
	STORM_CLIENTS+=("$tag")
	STORM_LOOP[$tag]=$!
}

# Wait LIMIT seconds for run N of client loop TAG; return 3 early when
# the run printed rping's perror of a synchronous rdma_connect() failure
# (the kernel said no at once, for example ENETUNREACH while the link is
# down). rping never ends after that: rping_run_client() joins its CQ
# thread without cancelling it, and the thread waits in
# ibv_get_cq_event() for a completion that cannot come. An asynchronous
# failure is different: rping's CM thread exits the process.
# Usage: storm_watch TAG N LIMIT
storm_watch() {
	local end=$((SECONDS + $3))

	# by the clock: each look costs a few tenths of a second under TCG,
	# and a watch that counted its naps let timeout kill the run first
	while ((SECONDS < end)); do
		sleep 2
		sed -n "/^== run $2\$/,\$p" "$STORM_DIR/$1.out" |
			grep -q '^rdma_connect: ' && return 3
	done
	return 0
}

# The processes below PID, one a line. Usage: storm_descendants PID
storm_descendants() {
	local c

	for c in $(pgrep -P "$1"); do
		echo "$c"
		storm_descendants "$c"
	done
}

# What became of client run PID (of loop TAG) 5 s after rping printed a
# synchronous connect failure: 0 when it is rping left waiting in user
# space (none of its threads in the kernel's uninterruptible sleep), 2
# when the run has ended by itself meanwhile (a device removal ends that
# wait: rping's CM thread exits the process), 1 otherwise (hung). Appends
# each thread's state and wait channel to TAG's output when rping is
# still there. Usage: storm_rping_joins PID TAG
storm_rping_joins() {
	local pids p t state d=0

	sleep 5
	kill -0 "$1" 2>/dev/null || return 2
	pids=$(storm_descendants "$1" | while read -r t; do
		[ "$(cat /proc/"$t"/comm 2>/dev/null)" = rping ] && echo "$t"
	done)
	if [ -z "$pids" ]; then
		# rping is gone; timeout, its parent, follows at once
		sleep 1
		kill -0 "$1" 2>/dev/null && return 1
		return 2
	fi
	for t in $(for p in $pids; do echo /proc/"$p"/task/*; done); do
		state=$(awk '/^State:/ {print $2}' "$t/status" 2>/dev/null)
		[ "$state" = D ] && d=1
		echo "stuck: ${t#/proc/} state $state wchan $(cat "$t/wchan" 2>/dev/null)"
	done >>"$STORM_DIR/$2.out"
	((d == 0))
}

# What the CM and the engine show now, on stdout: the links and
# addresses of both namespaces, every rdma_cm id with irdma's CM node
# (state, TCP, MPA), irdma's and the IB CM's counters that are not 0, and
# the engine's connections, queues and QPs of functions 0 to 2.
storm_state_dump() {
	local fn

	ip -br link && ip -br addr
	ip -n $STORM_NS -br link && ip -n $STORM_NS -br addr
	rdma res show cm_id -dd
	grep -H . /sys/class/infiniband/*/hw_counters/cm_* \
		/sys/class/infiniband/*/ports/*/hw_counters/cm_* 2>/dev/null |
		grep -v ':0$' | sed 's|^/sys/class/infiniband/||'
	grep -H . /sys/class/infiniband_cm/*/*/cm_*/* 2>/dev/null |
		grep -v ':0$' | sed 's|^/sys/class/infiniband_cm/||'
	for fn in 0 1 2; do
		grep -E '^(wire|ilq|toe|toe qp [0-9]+|objects|qp [0-9]+):' \
			$dbg/irdma_sim$fn/state | sed "s/^/sim$fn /"
	done
}

# What a hung run of TAG (run N, hung as WHY says) waits for, appended
# to $STORM_DIR/TAG.hung: its last output lines and the servers', then
# storm_state_dump. Usage: storm_hung_dump TAG N WHY
storm_hung_dump() {
	local srv

	{
		echo "== $1: run $2 $3"
		sed -n "/^== run $2\$/,\$p" "$STORM_DIR/$1.out" | tail -n 6 |
			sed 's/^/out: /'
		for srv in "${STORM_SERVERS[@]}"; do
			tail -n 4 "$STORM_DIR/$srv.out" | sed "s/^/$srv: /"
		done
		storm_state_dump
	} >>"$STORM_DIR/$1.hung" 2>&1
}

# Stop the client loop TAG alone: it ends after the run it is in; fails
# the test if it does not. Usage: storm_client_stop TAG
storm_client_stop() {
	touch "$STORM_DIR/$1.stop"
	wait_exit $((STORM_LIMIT_MAX + 40)) "${STORM_LOOP[$1]}" ||
		fail "the $1 loop did not end"
}

# A server: CMD... in namespace NS, started again whenever it exits, until
# storm_stop kills it. Usage: storm_server TAG NS CMD...
storm_server() {
	local tag=$1

	storm_in "$2"
	shift 2
	(
		while [ ! -e $STORM_STOP ]; do
			"${STORM_PRE[@]}" "$@" >>"$STORM_DIR/$tag.out" 2>&1 &
			echo $! >"$STORM_DIR/$tag.pid"
			wait $!
			echo $? >>"$STORM_DIR/$tag.rc"
		done
	) &
	STORM_SERVERS+=("$tag")
	STORM_LOOP[$tag]=$!
}

# ucmatose's server and client, once: the server in namespace NS on ADDR
# and PORT, one connection of ten messages each way. Run by storm_client
# (exported below). One connection: ucmatose -c 2 whose second connect
# fails after its first succeeded never ends (the client waits for the
# first one's DISCONNECTED, the server for the second request).
# Usage: storm_ucm_pair NS ADDR PORT
storm_ucm_pair() {
	local spid rc

	storm_in "$1"
	# line-buffered: a run killed as hung still shows how far it got
	"${STORM_PRE[@]}" stdbuf -oL ucmatose -b "$2" -p "$3" -c 1 -C 10 \
		> >(sed -u 's/^/server: /') 2>&1 &
	spid=$!
	pause 1
	stdbuf -oL ucmatose -s "$2" -p "$3" -c 1 -C 10
	rc=$?
	kill $spid 2>/dev/null
	wait $spid
	return $rc
}

# An iWARP client run ends by itself within the CM's SYN give-up (32
# SYNs, the last after 1, 2, 4 and then 8 s each: 239 s), its MPA reply
# wait (60 s) and the transfer: a run still going after that hung.
STORM_IW_LIMIT=${STORM_IW_LIMIT:-330}

# The traffic of the storms: rping across the wire (iWARP, server in the
# namespace), rping on an iWARP loopback (function 0 to itself), ucmatose
# across the wire, and rping on a RoCEv2 loopback (function 2 to itself);
# each client run connects, pings -V five times and disconnects. Both ends
# of an rping take the same -S: the server READs the client's whole buffer
# into its own (a larger client overruns the server's MR: a local
# protection error, a TERMINATE). rping -c exits 0 after a failed ping too:
# -v prints the verified pings, which storm_tally counts. The servers are
# persistent (-P) unless STORM_PERSIST is set empty (a persistent rping
# server's thread that fails to set up a connection never answers or
# destroys its request). The RoCEv2 server never is: rdma_cm answers a
# request not yet accepted with an MRA of 2^24 * 4.096 us (69 s), again
# for each of the client's 15 retries, so a request left so holds the
# client about 18 minutes (an iWARP client gives up at its MPA wait).
storm_traffic() {
	local ping=(rping -c -v -V -C 5 -S 128) srv=(rping -s -V -S 128)
	local lim=$STORM_IW_LIMIT

	storm_server srv_roce - "${srv[@]}" -a 198.51.100.1 -p 7304
	[ -n "${STORM_PERSIST--P}" ] && srv+=(-P)
	storm_server srv_wire $STORM_NS "${srv[@]}" -a 192.0.2.2 -p 7301
	storm_server srv_loop - "${srv[@]}" -a 192.0.2.1 -p 7302
	pause 2
	storm_client iw_wire - "$lim" "${ping[@]}" -a 192.0.2.2 -p 7301
	storm_client iw_loop - "$lim" "${ping[@]}" -a 192.0.2.1 -p 7302
	storm_client roce_loop - 150 "${ping[@]}" -a 198.51.100.1 -p 7304
	storm_client ucm_wire - "$lim" bash -c \
		". $IRDMA_REPO/tools/guest/lib.sh; . $IRDMA_REPO/tools/guest/storm.sh; storm_ucm_pair $STORM_NS 192.0.2.2 7303"
}

# Why the loop TAG did not end: its last output lines and hung-run
# dumps, and every process still running with where it waits.
# Usage: storm_loop_report TAG
storm_loop_report() {
	local p

	echo "the $1 loop is still running:"
	tail -n 8 "$STORM_DIR/$1.out" | sed "s/^/$1: /"
	[ -e "$STORM_DIR/$1.hung" ] && head -n 60 "$STORM_DIR/$1.hung"
	for p in ${STORM_LOOP[$1]} $(storm_descendants "${STORM_LOOP[$1]}"); do
		echo "pid $p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
		sed -n 's/^State:/  state/p' "/proc/$p/status" 2>/dev/null
		sed 's/^/  /' "/proc/$p/stack" 2>/dev/null
	done
}

# Stop the loops: clients finish the run they are in (within their
# limit), servers are killed, again until their loop ends (a loop that
# had not seen the stop yet may start one more server after the first
# kill); fails the test, saying what it waits for, if a loop does not end.
storm_stop() {
	local tag pid i

	touch $STORM_STOP
	for tag in "${STORM_SERVERS[@]}"; do
		for ((i = 0; i < 30; i++)); do
			[ -n "${STORM_LOOP[$tag]}" ] || break
			read -r pid <"$STORM_DIR/$tag.pid" 2>/dev/null &&
				kill "$pid" 2>/dev/null
			wait_exit 1 "${STORM_LOOP[$tag]}" && break
		done
	done
	for tag in "${!STORM_LOOP[@]}"; do
		wait_exit $((STORM_LIMIT_MAX + 40)) "${STORM_LOOP[$tag]}" || {
			storm_loop_report "$tag"
			fail "the $tag loop did not end"
		}
		wait "${STORM_LOOP[$tag]}"
	done
	STORM_LOOP=()
}

# How the client runs ended, one line per loop ("TAG: N runs, ok X,
# rc=R Y, ..., pings P"), the connections made in all into STORM_MADE
# and the rping pings verified into STORM_PINGS; fails the test when a
# run hung (was killed at its limit). The clients' most frequent error
# lines follow.
storm_tally() {
	local tag rc n made=0 hung=0 pings=0 p line
	local -A by

	for tag in "${STORM_CLIENTS[@]}"; do
		by=()
		n=0
		while read -r rc; do
			by[$rc]=$((${by[$rc]:-0} + 1))
			n=$((n + 1))
		done <"$STORM_DIR/$tag.rc"
		line="$tag: $n runs"
		for rc in "${!by[@]}"; do
			case $rc in
			0) line+=", ok ${by[$rc]}"; made=$((made + by[$rc])) ;;
			124 | 137) line+=", hung ${by[$rc]}"; hung=$((hung + by[$rc])) ;;
			joined) line+=", rping stuck after a refused rdma_connect ${by[$rc]}" ;;
			*) line+=", rc=$rc ${by[$rc]}" ;;
			esac
		done
		p=$(rping_pings "$STORM_DIR/$tag.out")
		((p == 0)) || line+=", pings $p"
		pings=$((pings + p))
		echo "$line"
	done
	# shellcheck disable=SC2034 # for the scripts that source this
	STORM_MADE=$made
	# shellcheck disable=SC2034
	STORM_PINGS=$pings
	echo "errors by kind:"
	cat "$STORM_DIR"/*.out 2>/dev/null |
		grep -iE 'error|fail|reject|unreach|timed out|refused' |
		sed -E 's/[0-9]+/N/g' | sort | uniq -c | sort -rn | head -15
	for tag in "${STORM_CLIENTS[@]}"; do
		[ -s "$STORM_DIR/$tag.hung" ] && head -n 150 "$STORM_DIR/$tag.hung"
		# a run killed at its limit, or stuck: how its output ended
		grep -qxE '124|137|joined' "$STORM_DIR/$tag.rc" &&
			[ ! -s "$STORM_DIR/$tag.hung" ] &&
			tail -n 12 "$STORM_DIR/$tag.out" | sed "s/^/$tag: /"
		grep -h '^stuck:' "$STORM_DIR/$tag.out" | head -n 8 |
			sed "s/^/$tag: /"
	done
	((hung == 0)) || fail "$hung runs hung"
}

# One connection on each path after the storm, with fresh servers: rping
# -C 5 -V across the wire and on the RoCEv2 loopback.
storm_new_connections() {
	local spid cpid out=$STORM_DIR/after

	ip netns exec $STORM_NS rping -s -v -V -a 192.0.2.2 -p 7311 >"$out-srv.txt" 2>&1 &
	spid=$!
	pause 1
	rping -c -v -V -C 5 -a 192.0.2.2 -p 7311 >"$out-cli.txt" 2>&1 &
	cpid=$!
	if ! rping_pings_verified 120 "$cpid" "$out-cli.txt" 5; then
		storm_state_dump 2>&1
		fail "no new iWARP connection after the storm: $(<"$out-cli.txt") (server: $(<"$out-srv.txt"))"
	fi
	rping_server_done 30 spid "$out-srv.txt" 5
	rping -s -v -V -a 198.51.100.1 -p 7312 >"$out-rsrv.txt" 2>&1 &
	spid=$!
	pause 1
	rping -c -v -V -C 5 -a 198.51.100.1 -p 7312 >"$out-rcli.txt" 2>&1 &
	cpid=$!
	if ! rping_pings_verified 150 "$cpid" "$out-rcli.txt" 5; then
		storm_state_dump 2>&1
		fail "no new RoCEv2 connection after the storm: $(<"$out-rcli.txt")"
	fi
	rping_server_done 30 spid "$out-rsrv.txt" 5
	echo "new connections after the storm: iWARP and RoCEv2 ping"
}

# Undo storm_setup: the namespace, the functions, the modules.
storm_teardown() {
	ip -n $STORM_NS link set isim1 netns 1 || fail "move isim1 back"
	ip netns del $STORM_NS || fail "delete namespace $STORM_NS"
	sim_unload 3 2 1 0
}

# The RDMA resources of every device without its index and name (a
# device registered again after a reset has new ones), sorted.
storm_res() {
	local line
	local -a out=()

	while IFS= read -r line; do
		out+=("${line#*: *: }")
	done < <(rdma res show)
	printf '%s\n' "${out[@]}" | sort
}

# Trouble while the traffic runs, for SECS seconds, one kind at a time:
# the wire's link down and up; an address the wildcard listener in the
# namespace serves (192.0.2.21, which a client loop connects to) removed
# and added; that listener killed (its loop starts it again); the MTU of
# both ends to 1200 and back, with the parent's MTU event; the traffic
# classes of both ends of the wire (functions 0 and 1, alike, as DCBX
# sets a link's two ends) and of function 2 changed (the qos knob): with
# more than one class a port tags its frames with VLAN 0 and its SYN
# filters take VLAN 0, and the engine matches a filter's VLAN exactly:
# ends that differ miss each other's listeners. Counts each kind in
# STORM_TROUBLE.
# Usage: storm_trouble SECS
storm_trouble() {
	local end now i=0 pid tc
	local -a maps=("up2tc 0 0 0 0 0 0 0 0" "up2tc 0 1 0 1 2 2 3 3"
		       "up2tc 1 1 1 1 0 0 0 0")

	declare -gA STORM_TROUBLE=()
	printf -v now '%(%s)T' -1
	end=$((now + $1))
	while ((now < end)); do
		case $((i % 5)) in
		0)
			ip link set isim0 down && pause 1 &&
				ip link set isim0 up || fail "link flap"
			STORM_TROUBLE[link]=$((${STORM_TROUBLE[link]:-0} + 1))
			;;
		1)
			ip -n $STORM_NS addr del 192.0.2.21/24 dev isim1 &&
				pause 1 &&
				ip -n $STORM_NS addr add 192.0.2.21/24 dev isim1 ||
				fail "address churn"
			STORM_TROUBLE[address]=$((${STORM_TROUBLE[address]:-0} + 1))
			;;
		2)
			read -r pid <"$STORM_DIR/srv_any.pid" && kill "$pid"
			STORM_TROUBLE[listener]=$((${STORM_TROUBLE[listener]:-0} + 1))
			;;
		3)
			ip link set isim0 mtu 1200 &&
				ip -n $STORM_NS link set isim1 mtu 1200 &&
				echo mtu >$dbg/irdma_sim0/parent_event &&
				pause 1 && ip link set isim0 mtu 1500 &&
				ip -n $STORM_NS link set isim1 mtu 1500 &&
				echo mtu >$dbg/irdma_sim0/parent_event ||
				fail "MTU change"
			STORM_TROUBLE[mtu]=$((${STORM_TROUBLE[mtu]:-0} + 1))
			;;
		4)
			tc=${maps[$((i / 5 % 3))]}
			echo "$tc" >$dbg/irdma_sim0/qos &&
				echo "$tc" >$dbg/irdma_sim1/qos &&
				echo "$tc" >$dbg/irdma_sim2/qos ||
				fail "traffic-class change"
			STORM_TROUBLE[tc]=$((${STORM_TROUBLE[tc]:-0} + 1))
			;;
		esac
		i=$((i + 1))
		pause 1
		printf -v now '%(%s)T' -1
	done
}

# The traffic of storm_traffic, and a client loop to 192.0.2.21, which
# storm_trouble takes away and gives back, served by a wildcard listener
# in the namespace.
storm_traffic_more() {
	ip -n $STORM_NS addr add 192.0.2.21/24 dev isim1 || fail "192.0.2.21"
	storm_server srv_any $STORM_NS rping -s -P -V -S 128 -a 0.0.0.0 -p 7305
	storm_traffic
	storm_client iw_any - "$STORM_IW_LIMIT" rping -c -v -V -C 5 -S 128 -a 192.0.2.21 -p 7305
}

# A function reset of function FN under traffic: the driver must have its
# engine and RDMA device back within 30 s. Usage: storm_reset FN
storm_reset() {
	local fn=$1 t0 t1 i dev

	printf -v t0 '%(%s)T' -1
	echo 1 >$dbg/irdma_sim"$fn"/reset || fail "reset of function $fn"
	for ((i = 0; i < 60; i++)); do
		dev=$(ibdev_of "$fn")
		[ -n "$dev" ] && [ "$(sim_cqp_live "$fn")" = 1 ] && break
		pause 0.5
	done
	printf -v t1 '%(%s)T' -1
	[ -n "$dev" ] || fail "function $fn: no RDMA device 30 s after its reset"
	echo "function $fn reset under traffic: $dev back in $((t1 - t0)) s"
}
