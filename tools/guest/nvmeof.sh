# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# NVMe over Fabrics through irdma on one simulated function, sourced by the
# e2e tests that run it on iWARP and on RoCEv2 (after lib.sh). The kernel's
# own host and target: nvmet-rdma exports a file-backed namespace at
# 192.0.2.1:4420 and nvme-rdma connects to it, loopback through the
# adapter's switch. Both are rdma_cm consumers.
#  - nvmeof_target, nvmeof_port up|down: the target, and its port 1, on
#    which it listens while the subsystem is linked to it.
#  - nvmeof_connect: the host's controller and its namespace's block device.
#  - nvmeof_write, nvmeof_verify: random data written to the block device
#    with O_DIRECT in 64 KiB I/Os, read back and compared; the namespace's
#    file holds the same bytes. nvmeof_write_bg: such a write left running.
#  - nvmeof_end: the controller deleted, the target taken down, the modules
#    unloaded: the RDMA resources and the engine's objects are back at the
#    baseline, but for the idle CQs of the core's shared pool, which stay
#    until the device goes.
#  - nvmeof_loop: all of it once, with the port counters checked.
#  - nvmeof_recover: a target outage and a controller reset survived.

NVMEOF_CFS=/sys/kernel/config/nvmet
NVMEOF_NQN=nqn.2026-12.org.example:irdma-sim

# The modules, the baseline of RDMA device DEV (its function 0 made by the
# caller: netdev up, 192.0.2.1/24 on it, engine live), and the target: a
# namespace backed by a MIB MiB file under /tmp named after TAG, port 1 at
# 192.0.2.1:4420 with no subsystem yet. Usage: nvmeof_target DEV TAG MIB
nvmeof_target() {
	local dev=$1 cfs=$NVMEOF_CFS nqn=$NVMEOF_NQN
	local ns=$NVMEOF_CFS/subsystems/$NVMEOF_NQN/namespaces/1

	NVMEOF_IMG=/tmp/$2-nvmet.img
	NVMEOF_PAT=/tmp/$2-pattern
	NVMEOF_BACK=/tmp/$2-back
	NVMEOF_MIB=$3
	kmod -a nvmet nvmet-rdma nvme-rdma ||
		fail "cannot load nvmet, nvmet-rdma, nvme-rdma"
	[ -d $cfs ] || mount -t configfs none /sys/kernel/config || fail "mount configfs"
	[ -d $cfs ] || fail "no $cfs"
	take_baseline "qhash apbvt_ports ahs" 0
	# the CQs already there (on RoCEv2, the MAD layer's of QP1)
	NVMEOF_BASE_CQS=$(rdma res show cq dev "$dev") ||
		fail "rdma res show cq: $NVMEOF_BASE_CQS"
	NVMEOF_BASE_CQS=" $(sed -n 's/.* cqn \([0-9]*\) .*/\1/p' <<<"$NVMEOF_BASE_CQS" |
		tr '\n' ' ')"
	echo "baseline: $IRDMA_BASE_RES; engine: ${IRDMA_BASE_OBJ[0]}"

	step "target: $nqn on 192.0.2.1:4420 (rdma), a $NVMEOF_MIB MiB file"
	head -c $((NVMEOF_MIB << 20)) /dev/zero >"$NVMEOF_IMG" || fail "namespace file"
	mkdir $cfs/subsystems/$nqn || fail "subsystem"
	echo 1 >$cfs/subsystems/$nqn/attr_allow_any_host || fail "allow any host"
	mkdir "$ns" || fail "namespace"
	# tmpfs takes no O_DIRECT: the target reads and writes through the cache
	echo 1 >"$ns/buffered_io" || fail "buffered_io"
	echo -n "$NVMEOF_IMG" >"$ns/device_path" || fail "device_path"
	echo 1 >"$ns/enable" || fail "enable the namespace"
	mkdir $cfs/ports/1 || fail "port"
	echo rdma >$cfs/ports/1/addr_trtype || fail "trtype"
	echo ipv4 >$cfs/ports/1/addr_adrfam || fail "adrfam"
	echo 192.0.2.1 >$cfs/ports/1/addr_traddr || fail "traddr"
	echo 4420 >$cfs/ports/1/addr_trsvcid || fail "trsvcid"
}

# up: link the subsystem to port 1, which makes the target listen on it;
# down: unlink it, which makes the target disconnect the controllers it has
# on the port and stop listening. Usage: nvmeof_port up|down
nvmeof_port() {
	local link=$NVMEOF_CFS/ports/1/subsystems/$NVMEOF_NQN

	if [ "$1" = up ]; then
		ln -s "$NVMEOF_CFS/subsystems/$NVMEOF_NQN" "$link" ||
			fail "the port does not take the subsystem (no listener?)"
	else
		rm "$link" || fail "unlink the subsystem from port 1"
	fi
}

# The host connects to the target with the fabrics options OPTS (may be
# empty) after its own; sets NVMEOF_CTL (nvmeN) and NVMEOF_BLK (the
# namespace's block device). Usage: nvmeof_connect [OPTS]
nvmeof_connect() {
	local ctrl d i
	local args="transport=rdma,traddr=192.0.2.1,trsvcid=4420,nqn=$NVMEOF_NQN,nr_io_queues=1,queue_size=32"

	step "host: nvme-rdma connects"
	exec 3<>/dev/nvme-fabrics || fail "no /dev/nvme-fabrics"
	echo "$args${1:+,$1}" >&3 || fail "connect refused: $(dmesg | tail -n 5)"
	read -r ctrl <&3 || fail "no answer from /dev/nvme-fabrics"
	exec 3>&-
	echo "connected: $ctrl"
	[[ $ctrl =~ instance=([0-9]+) ]] || fail "no instance in '$ctrl'"
	NVMEOF_CTL=nvme${BASH_REMATCH[1]}
	NVMEOF_BLK=
	for ((i = 0; i < 30; i++)); do
		# the namespace's block device (with multipath, the head's)
		for d in /dev/nvme*n1; do
			[ -b "$d" ] && NVMEOF_BLK=$d && break 2
		done
		pause 1
	done
	[ -n "$NVMEOF_BLK" ] || fail "no namespace block device of $NVMEOF_CTL"
	echo "namespace: $NVMEOF_BLK, transport $(<"/sys/class/nvme/$NVMEOF_CTL/transport")"
}

# Read the namespace back with O_DIRECT and compare it, and the target's
# file, with what nvmeof_write wrote last; WHAT names the check.
# Usage: nvmeof_verify WHAT
nvmeof_verify() {
	dd if="$NVMEOF_BLK" of="$NVMEOF_BACK" bs=64k count=$((NVMEOF_MIB * 16)) \
		iflag=direct status=none || fail "$1: read from $NVMEOF_BLK"
	cmp "$NVMEOF_PAT" "$NVMEOF_BACK" ||
		fail "$1: the data read back differs from what was written"
	cmp "$NVMEOF_PAT" "$NVMEOF_IMG" ||
		fail "$1: the namespace's file differs from what was written"
	echo "$1: $NVMEOF_MIB MiB identical on the host, the wire and the file"
}

# Fresh random data written to the namespace with O_DIRECT in 64 KiB
# I/Os, then nvmeof_verify WHAT. Usage: nvmeof_write WHAT
nvmeof_write() {
	step "$1: $NVMEOF_MIB MiB written with O_DIRECT, read back, compared"
	head -c $((NVMEOF_MIB << 20)) /dev/urandom >"$NVMEOF_PAT" || fail "pattern"
	dd if="$NVMEOF_PAT" of="$NVMEOF_BLK" bs=64k count=$((NVMEOF_MIB * 16)) \
		oflag=direct status=none || fail "$1: write to $NVMEOF_BLK"
	nvmeof_verify "$1"
}

# The writes completed so far on the namespace's block device.
nvmeof_writes() {
	local s

	read -r -a s <"/sys/block/${NVMEOF_BLK#/dev/}/stat" ||
		fail "no stat of $NVMEOF_BLK"
	echo "${s[4]}"
}

# Start writing fresh random data to the namespace in the background, as
# nvmeof_write does but NVMEOF_BG_PASSES times over (the same bytes each
# time, so that what a verify finds does not depend on when it stopped),
# and return once N of its 64 KiB writes are done and it still runs: the
# first pass alone can be over before a caller acts on it (PASSES, when
# given, for a caller that stops the target first). NVMEOF_DD is its PID
# (a TERM stops the dd it waits for too), NVMEOF_W0 the writes done before
# it, its errors go to $NVMEOF_BACK.err; it fails with the first dd that
# fails. Usage: nvmeof_write_bg N [PASSES]
nvmeof_write_bg() {
	local i n=0

	NVMEOF_BG_PASSES=${2:-16}

	head -c $((NVMEOF_MIB << 20)) /dev/urandom >"$NVMEOF_PAT" || fail "pattern"
	NVMEOF_W0=$(nvmeof_writes)
	(
		trap 'kill "$d" 2>/dev/null; exit 143' TERM
		for ((i = 0; i < NVMEOF_BG_PASSES; i++)); do
			# (nocreat: once the device has gone, no file in /dev)
			dd if="$NVMEOF_PAT" of="$NVMEOF_BLK" bs=64k \
				count=$((NVMEOF_MIB * 16)) oflag=direct \
				conv=nocreat status=none &
			d=$!
			wait "$d" || exit 1
		done
	) 2>"$NVMEOF_BACK.err" &
	NVMEOF_DD=$!
	for ((i = 0; i < 300; i++)); do
		n=$(($(nvmeof_writes) - NVMEOF_W0))
		((n >= $1)) && break
		kill -0 "$NVMEOF_DD" 2>/dev/null || break
		pause 0.2
	done
	((n >= $1)) || fail "the write did not start: $n writes"
	kill -0 "$NVMEOF_DD" 2>/dev/null || fail "the write was over after $n writes"
	echo "$n of $((NVMEOF_MIB * 16 * NVMEOF_BG_PASSES)) writes done"
}

# Wait up to 30 s for the host's controller to go away; fail if it stays.
nvmeof_ctrl_gone() {
	local i

	for ((i = 0; i < 30; i++)); do
		[ -e "/sys/class/nvme/$NVMEOF_CTL" ] || return 0
		pause 1
	done
	fail "$NVMEOF_CTL still there"
}

# The target taken down (port 1 up or not), its file removed, and the
# NVMe-oF modules unloaded (the host's controller must be gone).
nvmeof_target_down() {
	local cfs=$NVMEOF_CFS nqn=$NVMEOF_NQN

	[ -L $cfs/ports/1/subsystems/$nqn ] && nvmeof_port down
	rmdir $cfs/ports/1 || fail "remove the port"
	echo 0 >$cfs/subsystems/$nqn/namespaces/1/enable
	rmdir $cfs/subsystems/$nqn/namespaces/1 || fail "remove the namespace"
	rmdir $cfs/subsystems/$nqn || fail "remove the subsystem"
	rmmod nvme_rdma nvmet_rdma nvmet || fail "rmmod nvme_rdma nvmet_rdma nvmet"
	rm -f "$NVMEOF_IMG" "$NVMEOF_PAT" "$NVMEOF_BACK" "$NVMEOF_BACK.err"
}

# The controller deleted, the target taken down, the modules unloaded,
# and everything but the core's idle pool CQs back at the baseline of RDMA
# device DEV. Usage: nvmeof_end DEV
nvmeof_end() {
	local dev=$1 i cqs pool others line

	step "teardown"
	echo 1 >"/sys/class/nvme/$NVMEOF_CTL/delete_controller" ||
		fail "delete $NVMEOF_CTL"
	nvmeof_ctrl_gone
	nvmeof_target_down
	# Both take their CQs from the core's shared pool (ib_cq_pool_get()),
	# which keeps them, unused, until the device goes away: those may stay
	pool=0
	for ((i = 0; i < 30; i++)); do
		cqs=$(rdma res show cq dev "$dev") || fail "rdma res show cq: $cqs"
		pool=0
		others=
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			[[ $line =~ " cqn "([0-9]+)" " && $NVMEOF_BASE_CQS == *" ${BASH_REMATCH[1]} "* ]] &&
				continue
			if [[ " $line " == *" users 0 "* && $line == *"comm [ib_core]"* ]]; then
				pool=$((pool + 1))
			else
				others+="$line; "
			fi
		done <<<"$cqs"
		[ -z "$others" ] && break
		pause 1
	done
	[ -z "$others" ] || fail "CQs in use after the teardown: $others"
	echo "the core's CQ pool keeps $pool idle CQs on $dev"
	[[ $IRDMA_BASE_RES =~ " cq "([0-9]+)" " ]] ||
		fail "no CQ count in '$IRDMA_BASE_RES'"
	IRDMA_BASE_RES=${IRDMA_BASE_RES/ cq ${BASH_REMATCH[1]} / cq $((BASH_REMATCH[1] + pool)) }
	wait_baseline "NVMe-oF"
}

# For nvmeof_loop: NVMe-oF I/O on the function 0 that the caller has made
# (its netdev up, 192.0.2.1/24 on it, its engine live), RDMA device DEV,
# transport TRANSPORT (iwarp or roce), files under /tmp named after TAG.
# Usage: nvmeof_loop DEV TRANSPORT TAG
nvmeof_loop() {
	local dev=$1 tr=$2 mib=4 ios

	nvmeof_target "$dev" "$3" $mib
	rdma_io_counters "$dev" start
	nvmeof_port up
	nvmeof_connect ""
	nvmeof_write "I/O"

	step "the port counters"
	# Per 64 KiB write the target READs the data and its reply invalidates
	# the host's MR; per read it WRITEs the data and its reply invalidates.
	# On iWARP the sink of a READ must be an MR that the READ invalidates
	# (rdma_rw registers one per READ); on RoCEv2 it reads into its pages.
	ios=$((mib * 16))
	if [ "$tr" = iwarp ]; then
		rdma_io_counters "$dev" check $ios $((3 * ios))
	else
		rdma_io_counters "$dev" check $ios $((2 * ios))
	fi
	nvmeof_end "$dev"
	echo "NVMe-oF over $tr on one function: $mib MiB verified, nothing left behind"
}

# Wait up to SECONDS for the host's controller to be in STATE.
# Usage: nvmeof_ctrl_state STATE SECONDS
nvmeof_ctrl_state() {
	local i s

	for ((i = 0; i < $2 * 5; i++)); do
		s=$(<"/sys/class/nvme/$NVMEOF_CTL/state")
		[ "$s" = "$1" ] && return 0
		pause 0.2
	done
	fail "$NVMEOF_CTL is $s, not $1, after $2 s"
}

# For nvmeof_recover: NVMe-oF when the connections go away, on function 0
# as nvmeof_loop takes it, RDMA device DEV, transport TRANSPORT (iwarp or
# roce), files under /tmp named after TAG. The host tries to reconnect
# every second for up to two minutes. (On RoCEv2 it ran clean but for a
# lockdep report inside nvmet: its port removal destroys a cm_id under
# nvmet_config_sem, and a connect command run from rdma_cm's handler, when
# it beat the IB CM's RTU, takes that semaphore under the handler's mutex.)
#  - The target's port goes down: the target disconnects the host's queues
#    and stops listening; the host's error recovery tries again and again,
#    each try refused (on iWARP by our CM, which counts them; on RoCEv2 by
#    the IB CM's REJ), and a 4 MiB write issued meanwhile waits, none of it
#    done; the port comes back, the host reconnects on its own, and the
#    write completes with every byte in place.
#  - The host resets its controller: every queue closed gracefully and
#    connected again, and a verified write after.
#  - nvmeof_end; on iWARP every CM node made on the way is freed.
# The caller kills NVMEOF_DD on exit (kill_on_exit).
# Usage: nvmeof_recover DEV TRANSPORT TAG
nvmeof_recover() {
	local dev=$1 tr=$2 mib=4 i tries refused state
	local -a cm0
	local -A cnt

	nvmeof_target "$dev" "$3" $mib
	if [ "$tr" = iwarp ]; then
		port_counters "$dev"
		cm0=("${cnt[cm_connects]}" "${cnt[cm_connect_err]}" "${cnt[cm_rst_rx]}")
	fi
	nvmeof_port up
	nvmeof_connect reconnect_delay=1,ctrl_loss_tmo=120
	nvmeof_write "before"

	# (a write in flight when the connections go is 56's and 57's: on
	# RoCEv2 a write would be over before the target had let go)
	step "the target's port goes down, a write waits for it to come back"
	nvmeof_port down
	for ((i = 0; i < 150; i++)); do
		state=$(<"/sys/class/nvme/$NVMEOF_CTL/state")
		[ "$state" != live ] && break
		pause 0.2
	done
	[ "$state" != live ] || fail "$NVMEOF_CTL still live 30 s after its port went down"
	nvmeof_write_bg 0 1
	for ((i = 0; i < 60; i++)); do
		tries=$(count_log "Failed reconnect attempt")
		((tries >= 2)) && break
		pause 1
	done
	((tries >= 2)) ||
		fail "$tries failed reconnect attempts in 60 s: $(log_since | tail -n 8)"
	if ! kill -0 "$NVMEOF_DD" 2>/dev/null; then
		wait "$NVMEOF_DD"
		fail "the write ended while the target was away (status $?," \
			"$(($(nvmeof_writes) - NVMEOF_W0)) writes done):" \
			"$(head -c 300 "$NVMEOF_BACK.err")"
	fi
	i=$(($(nvmeof_writes) - NVMEOF_W0))
	echo "$NVMEOF_CTL is $(<"/sys/class/nvme/$NVMEOF_CTL/state") after $tries" \
		"refused reconnects; the write waits at $i of $((mib * 16 * NVMEOF_BG_PASSES))"
	((i == 0)) || fail "$i writes completed with the target away"
	if [ "$tr" = iwarp ]; then
		port_counters "$dev"
		refused=$((cnt[cm_connect_err] - cm0[1]))
		# shellcheck disable=SC2154 # cnt_line: port_counters sets it
		((refused >= tries)) ||
			fail "$tries refused reconnects, $refused connect errors in the CM ($cnt_line)"
	fi
	nvmeof_port up
	nvmeof_ctrl_state live 60
	[ "$(count_log "Successfully reconnected")" = 1 ] ||
		fail "no 'Successfully reconnected': $(log_since | tail -n 8)"
	wait_exit 120 "$NVMEOF_DD" || fail "the write still runs 120 s after the reconnect"
	wait "$NVMEOF_DD" || fail "the write across the outage failed (status $?)"
	NVMEOF_DD=
	nvmeof_verify "across the outage"

	step "the host resets its controller"
	echo 1 >"/sys/class/nvme/$NVMEOF_CTL/reset_controller" ||
		fail "reset $NVMEOF_CTL"
	nvmeof_ctrl_state live 60
	nvmeof_write "after the reset"

	nvmeof_end "$dev"
	[ "$tr" = iwarp ] || return 0
	port_counters "$dev"
	echo "CM: $((cnt[cm_connects] - cm0[0])) connects," \
		"$((cnt[cm_connect_err] - cm0[1])) refused," \
		"$((cnt[cm_rst_rx] - cm0[2])) RSTs received;" \
		"nodes made ${cnt[cm_nodes_created]}, freed ${cnt[cm_nodes_freed]}"
	[ "${cnt[cm_nodes_created]}" = "${cnt[cm_nodes_freed]}" ] ||
		fail "CM nodes left: ${cnt[cm_nodes_created]} made, ${cnt[cm_nodes_freed]} freed"
}
