# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Guest-side jobs and helpers, sourced by tools/guest/init and by the guest
# tests in tools/tests (as "$IRDMA_REPO/tools/guest/lib.sh").

# modprobe from the test kernel's module root. kmod NAME... and
# kmod -a NAME... load modules and what they depend on, as modprobe does:
# plain names go through the static loader that the harness always builds
# into the run directory (tools/guest/modload.c: an exec of modprobe costs
# about 0.45 s of the guest's CPU before it reads a module, one of modload
# almost nothing), with the dependencies read from modules.dep here;
# anything else (other options, parameters, aliases, modules with soft
# dependencies, a module named by a NAME.PARAM=VALUE option on the kernel
# command line, as IRDMA_VM_APPEND puts it there) goes to modprobe itself,
# which applies those options.
IRDMA_MODLOAD=/run/irdma/run/modload
kmod() {
	local a ok=1 cmdline=
	local -a names=() MOD_FILES=()
	local -A MOD_SEEN=()

	read -r cmdline </proc/cmdline || true
	for a in "$@"; do
		case $a in
		-a) ;;
		-* | *=*) ok=0 ;;
		*) names+=("${a//-/_}")
		   [[ " $cmdline" != *" ${a//-/_}."*=* ]] || ok=0 ;;
		esac
	done
	[ $ok = 1 ] && [ ${#names[@]} -gt 0 ] && mod_index || ok=0
	for a in "${names[@]}"; do
		[ $ok = 1 ] || break
		mod_files "$a" || ok=0
	done
	if [ $ok = 1 ]; then
		[ ${#MOD_FILES[@]} -eq 0 ] || $IRDMA_MODLOAD load "${MOD_FILES[@]}"
		return
	fi
	/sbin/modprobe -d "$IRDMA_MODROOT" "$@"
}

# modules.dep by module name (dashes as underscores), and the names that
# modules.softdep lists, read once per script. MOD_DIR: their directory.
declare -A MOD_DEP=() MOD_SOFTDEP=()
MOD_DIR=
mod_index() {
	local rel line path name
	local -a lines=()

	[ ${#MOD_DEP[@]} -eq 0 ] || return 0
	read -r rel </proc/sys/kernel/osrelease || return 1
	MOD_DIR=$IRDMA_MODROOT/lib/modules/$rel
	mapfile -t lines <"$MOD_DIR/modules.dep" || return 1
	for line in "${lines[@]}"; do
		path=${line%%:*}
		name=${path##*/}
		name=${name%.ko}
		MOD_DEP[${name//-/_}]=$line
	done
	mapfile -t lines <"$MOD_DIR/modules.softdep" 2>/dev/null || true
	for line in "${lines[@]}"; do
		[[ $line == "softdep "* ]] || continue
		line=${line#softdep }
		MOD_SOFTDEP[${line%% *}]=1
	done
	[ ${#MOD_DEP[@]} -gt 0 ]
}

# For kmod: append to MOD_FILES the files that load module $1 after what it
# depends on, leaving out modules loaded already and those in MOD_SEEN.
# Fails for a module that modules.dep does not name or that has soft
# dependencies: modprobe loads those.
mod_files() {
	local line=${MOD_DEP[$1]:-} dep name

	[ -n "$line" ] && [ -z "${MOD_SOFTDEP[$1]:-}" ] || return 1
	[ -z "${MOD_SEEN[$1]:-}" ] || return 0
	MOD_SEEN[$1]=1
	# a module that is loaded has its dependencies loaded
	[ ! -e "/sys/module/$1/initstate" ] || return 0
	# shellcheck disable=SC2086 # the dependencies, split at spaces
	for dep in ${line#*:}; do
		name=${dep##*/}
		name=${name%.ko}
		mod_files "${name//-/_}" || return 1
	done
	MOD_FILES+=("$MOD_DIR/${line%%:*}")
}

# perftest's inline size for irdma (-I), the E810's limit: Debian 12's
# perftest (4.5+0.17) asks a device it does not know for 220 bytes of
# inline data on a latency test, which libirdma refuses (EINVAL) as it
# would on the adapter; later perftest releases ask Intel devices for 48
# (X722) or 101 (E810) themselves. Read by the scripts that source this.
# shellcheck disable=SC2034
IRDMA_PERFTEST_INLINE=101

# Python helpers of the scripts (iwcm.py); the tree is read-only here.
export PYTHONPATH=$IRDMA_REPO/tools/guest${PYTHONPATH:+:$PYTHONPATH}
export PYTHONDONTWRITEBYTECODE=1

# The RDMA core and the parents irdma binds to.
IRDMA_STACK="ib_core ib_uverbs iw_cm rdma_cm rdma_ucm ice i40e"

# One modprobe for all of them: under TCG each exec costs seconds.
load_stack() {
	# shellcheck disable=SC2086 # a list of module names
	kmod -a $IRDMA_STACK || { echo "cannot load $IRDMA_STACK"; return 1; }
}

# Unload what is loaded of irdma and the stack, innermost first.
# /proc/modules is read with a builtin and one modload takes them all, in
# the order given. ib_cm, which rdma_cm pulled in, is not in the list, so
# it and ib_core stay loaded from one guest script to the next (whether
# they should go too was not measured; keeping the rest loaded as well
# was, and bought nothing).
unload_all() {
	local m loaded=
	local -a mods=()

	read -r -d "" loaded </proc/modules || true
	for m in irdma_sim irdma irdma_upstream rdma_ucm rdma_cm iw_cm ib_uverbs \
		 ice i40e ib_core; do
		[[ $'\n'$loaded == *$'\n'"$m "* ]] && mods+=("$m")
	done
	[ ${#mods[@]} -eq 0 ] || $IRDMA_MODLOAD unload "${mods[@]}"
	return 0
}

# kmemleak reports an object that is 5 s old or more and that two scans
# in a row found unreferenced and unchanged, so that objects in flight are
# not reported: scan, wait 6 s, scan again (the first scan runs during the
# wait rather than before it, a few seconds saved per guest). The uptime
# of the listing goes with it: report.py drops objects allocated before
# the baseline (boot's own, not ours).
kmemleak_scan() {
	local f=/sys/kernel/debug/kmemleak up t0 t1

	[ -w $f ] || return 0
	printf -v t0 '%(%s)T' -1
	echo scan >$f
	printf -v t1 '%(%s)T' -1
	((t1 - t0 >= 6)) || sleep $((6 - (t1 - t0)))
	echo scan >$f
	read -r up _ </proc/uptime
	echo "# kmemleak-baseline ${IRDMA_KMEMLEAK_BASE:-0}"
	echo "# kmemleak-listed $up"
	cat $f
}

# Note when our code starts running. A scan here (to clear what boot left)
# costs a minute under TCG with KASAN; filtering by allocation time is free.
kmemleak_baseline() {
	local up

	read -r up _ </proc/uptime
	export IRDMA_KMEMLEAK_BASE=$up
}

finish_guest() {
	kmemleak_scan >"$IRDMA_OUT/kmemleak.txt" 2>&1
	dmesg >"$IRDMA_OUT/dmesg.txt"
	touch "$IRDMA_OUT/done"
}

# KUnit: irdma.ko runs its suites when it is loaded; keep each suite's KTAP.
job_kunit() {
	local d suite

	kmemleak_baseline
	# the CM suites fail allocations (fail-nth): no stack dump for each
	for d in failslab fail_page_alloc; do
		[ ! -w /sys/kernel/debug/$d/verbose ] ||
			echo 0 >/sys/kernel/debug/$d/verbose
	done
	load_stack || return 1
	kmod irdma || echo "modprobe irdma failed: $?"
	# The simulator carries its own suites (when it is built).
	if kmod -n irdma_sim >/dev/null 2>&1; then
		kmod irdma_sim || echo "modprobe irdma_sim failed: $?"
	fi
	mkdir -p "$IRDMA_OUT/kunit"
	# builtins only: an exec costs 0.1 to 0.2 s under TCG
	for d in /sys/kernel/debug/kunit/*/; do
		suite=${d%/}
		suite=${suite##*/}
		printf '%s\n' "$(<"$d/results")" >"$IRDMA_OUT/kunit/$suite.ktap"
	done
	ls "$IRDMA_OUT/kunit"
	unload_all
	# gcov keeps the counters of an unloaded module; take the driver
	# directory's, sim/ apart from the driver (both have a qp.gcda).
	if [ -d /sys/kernel/debug/gcov ]; then
		mkdir -p "$IRDMA_OUT/gcov"
		d=$(find /sys/kernel/debug/gcov -type d -path '*/infiniband/hw/irdma')
		[ -z "$d" ] || (cd "$d" && find . -name '*.gcda' \
			-exec cp --parents {} "$IRDMA_OUT/gcov/" \;)
	fi
}

# Busy and idle jiffies of the guest's CPU so far, into CPU_BUSY and
# CPU_IDLE, and the processes forked since boot, into CPU_FORKS (builtins
# only).
cpu_jiffies() {
	local _ user nice sys idle iowait irq softirq steal line
	local -a stat

	mapfile -t stat </proc/stat
	read -r _ user nice sys idle iowait irq softirq steal _ <<<"${stat[0]}"
	CPU_BUSY=$((user + nice + sys + irq + softirq + steal))
	CPU_IDLE=$((idle + iowait))
	for line in "${stat[@]}"; do
		[[ $line == "processes "* ]] && CPU_FORKS=${line#processes }
	done
}

# Guest tests: tools/tests/*.sh, each in its own process with a timeout.
# 0 = pass, 77 = skip (the script prints why), anything else = fail.
# e2e.tsv: name, exit code, wall seconds; e2e-cpu.tsv: name, the share
# of that time the guest's CPU was busy, in percent (a script that mostly
# waits on timers leaves the host's CPU to the other lanes), and how many
# processes it forked (each exec costs about 0.1 s under TCG).
job_e2e() {
	local t name rc t0 t1 line limit res="$IRDMA_OUT/e2e.tsv" b0 i0 f0

	kmemleak_baseline
	mkdir -p "$IRDMA_OUT/e2e"
	: >"$res"
	: >"$IRDMA_OUT/e2e-cpu.tsv"
	perf_start
	for t in "$IRDMA_REPO"/tools/tests/*.sh; do
		[ -e "$t" ] || continue
		name=${t##*/}
		name=${name%.sh}
		if [ -n "$IRDMA_ONLY" ] && ! [[ $name =~ $IRDMA_ONLY ]]; then
			continue
		fi
		echo "=== $name"
		printf -v t0 '%(%s)T' -1
		cpu_jiffies
		b0=$CPU_BUSY i0=$CPU_IDLE f0=$CPU_FORKS
		# a script may ask for more than 600 s: "# irdma-vm-timeout: N"
		# (read with builtins: an exec costs 0.1 to 0.2 s under TCG)
		limit=
		while IFS= read -r line; do
			[[ $line =~ ^#\ irdma-vm-timeout:\ ([0-9]+)$ ]] &&
				limit=${BASH_REMATCH[1]}
		done <"$t"
		# a soak (tools/irdma-vm soak) runs its scripts longer
		limit=$((${limit:-600} + ${IRDMA_SOAK_SECS:-0}))
		timeout -k 10 "$limit" bash "$t" >"$IRDMA_OUT/e2e/$name.log" 2>&1
		rc=$?
		printf -v t1 '%(%s)T' -1
		printf '%s\t%s\t%s\n' "$name" "$rc" "$((t1 - t0))" >>"$res"
		cpu_jiffies
		b0=$((CPU_BUSY - b0)) i0=$((CPU_IDLE - i0))
		printf '%s\t%s\t%s\n' "$name" "$((b0 * 100 / (b0 + i0 + 1)))" \
			"$((CPU_FORKS - f0))" >>"$IRDMA_OUT/e2e-cpu.tsv"
		unload_all >/dev/null 2>&1
		preempt_restore
	done
	perf_stop
}

# IRDMA_VM_PERF=1 on the host: the guest's CPU sampled while the scripts
# run (perf record -a -g, cpu-clock at 49 Hz: the guest has no PMU), into
# perf.data, with the kernel's symbols in kallsyms: the core's as at the
# end, the modules' as last seen loaded (looked for every 5 s; a module
# loaded elsewhere earlier in the run stays unresolved there, so profile
# one script at a time). perf report leaves the modules' samples
# unresolved (they were loaded after the recording began): read it on the
# host with tools/lib/perf_mods.py (usage in its header).
PERF_PID=
PERF_SNAP=
perf_start() {
	local tab=$'\t'

	[ -n "${irdma_vm_perf:-}" ] || return 0
	if ! command -v perf >/dev/null; then
		echo "IRDMA_VM_PERF: no perf on the host (Debian: linux-perf)"
		return 0
	fi
	perf record -q -a -g -F 49 -e cpu-clock -o "$IRDMA_OUT/perf.data" \
		>"$IRDMA_OUT/perf.log" 2>&1 &
	PERF_PID=$!
	(
		local mods last=

		while :; do
			# /proc/kallsyms is costly to read: only when a module moved
			mods=$(grep '^irdma' /proc/modules)
			if [ -n "$mods" ] && [ "$mods" != "$last" ]; then
				grep -F "${tab}[" /proc/kallsyms \
					>"$IRDMA_OUT/kallsyms.mods"
				last=$mods
			fi
			sleep 5
		done
	) &
	PERF_SNAP=$!
}

perf_stop() {
	local tab=$'\t'

	[ -n "$PERF_PID" ] || return 0
	kill "$PERF_SNAP"
	wait "$PERF_SNAP" || true
	grep -vF "${tab}[" /proc/kallsyms >"$IRDMA_OUT/kallsyms"
	cat "$IRDMA_OUT/kallsyms.mods" >>"$IRDMA_OUT/kallsyms" 2>/dev/null || true
	rm -f "$IRDMA_OUT/kallsyms.mods"
	kill -INT "$PERF_PID"
	wait "$PERF_PID" || true
}

job_demo() {
	bash "$IRDMA_REPO/tools/guest/demo.sh"
}

job_bench() {
	perf_start
	bash "$IRDMA_REPO/tools/guest/bench.sh"
	perf_stop
}

job_shell() {
	load_stack
	kmod irdma
	cat >/dev/ttyS0 <<EOF

irdma-vm shell: kernel $(uname -r), stack and irdma loaded.
Modules: modprobe -d \$IRDMA_MODROOT <name> (also the kernel's autoload).
Driver source: \$IRDMA_REPO. Leave with 'exit' or Ctrl-D (the guest powers off).
EOF
	cd "$IRDMA_REPO" || true
	# --norc: the host's ~/.bashrc (pyenv, completion) would take minutes
	# of exec under TCG before the first prompt.
	LANG=C.UTF-8 PS1='irdma-vm# ' setsid -c bash --norc -i </dev/ttyS0 >/dev/ttyS0 2>&1
}

# For tests: "1" if simulated function $1 has a CQP on its engine, "0" if
# not, "?" if its debugfs state says neither. Builtins only: every exec
# costs 0.1 to 0.2 s under TCG.
sim_cqp_live() {
	local line

	sim_state "$1" || { echo "?"; return; }
	for line in "${SIM_STATE[@]}"; do
		case "$line" in
		"cqp: live="*)
			line=${line#cqp: live=}
			echo "${line%% *}"
			return
			;;
		esac
	done
	echo "?"
}

# For tests: the lines of simulated function $1's debugfs state, into the
# array SIM_STATE; fails when the file cannot be read. mapfile reads the
# file front to back in one pass. A "while read" loop would not do: the
# read builtin seeks back after each line, and every seek on a seq_file
# makes the simulator print its state again from the top, which made a
# state of a thousand lines (a few hundred connections) cost seconds.
sim_state() {
	mapfile -t SIM_STATE <"/sys/kernel/debug/irdma_sim/irdma_sim$1/state"
}

# For tests: the number of irdma RDMA devices.
irdma_dev_count() {
	local n=0 d

	for d in /sys/class/infiniband/irdma*; do
		[ -e "$d" ] && n=$((n + 1))
	done
	echo $n
}

# For tests: how many lines of file $1 contain $2 (builtins only).
count_lines() {
	local n=0 line

	while IFS= read -r line; do
		[[ $line == *"$2"* ]] && n=$((n + 1))
	done <"$1"
	echo $n
}

# For tests: mark the kernel log (with the script's name, $1); count_log
# then counts only what follows, not what earlier scripts left, and step
# prefixes the name.
log_mark() {
	IRDMA_TEST=$1
	IRDMA_LOG_MARK="$1: start $$"
	echo "$IRDMA_LOG_MARK" >/dev/kmsg
}

# For tests with a librdmacm server and a scripted MPA peer: both must
# exit 0 (the server's pid in $lpid, the peer's in $ppid_; their output
# in /tmp/TAG-CASE-server.txt and -peer.txt, printed), and function 0's
# engine objects (QPs, STags, qhash entries, APBVT ports, AHs) must go
# back to "$qps0 $stags0 0 0 0" within a minute.
# Usage: mpa_case_done TAG CASE
mpa_case_done() {
	local srv=/tmp/$1-$2-server.txt prr=/tmp/$1-$2-peer.txt rc

	wait "$ppid_"
	rc=$?
	ppid_=
	echo "peer: $(<"$prr")"
	[ $rc -eq 0 ] || fail "peer exited $rc: $(<"$prr"); server: $(<"$srv")"
	wait "$lpid"
	rc=$?
	lpid=
	echo "server: $(<"$srv")"
	[ $rc -eq 0 ] || fail "server exited $rc: $(<"$srv")"
	# qps0 and stags0: the caller's counts before the case
	# shellcheck disable=SC2154
	sim_wait_counts 60 "$qps0 $stags0 0 0 0" 0 objects qps stags qhash \
		apbvt_ports ahs
}

# For tests: say what the script does next, on stdout and in the kernel
# log (there as "NAME: WHAT", NAME as given to log_mark).
# Usage: step WHAT...
step() {
	echo "${IRDMA_TEST:-test}: $*" >/dev/kmsg
	echo "$*"
}

# For tests: the kernel log from the line log_mark wrote on.
log_since() {
	dmesg | sed -n "/$IRDMA_LOG_MARK/,\$p"
}

# For tests: how many kernel log lines since log_mark contain $1.
count_log() {
	local n=0 seen='' line

	while IFS= read -r line; do
		[[ $line == *"$IRDMA_LOG_MARK"* ]] && seen=1
		[ -n "$seen" ] && [[ $line == *"$1"* ]] && n=$((n + 1))
	done <<<"$(dmesg)"
	echo $n
}

# For tests: record the irdma_ae tracepoint (every AE the driver takes;
# the kernel log shows only those a user must act on) in a trace instance
# of the script's own, until ae_trace_stop, which must come before irdma
# is unloaded. irdma must be loaded. ae_traced counts the AEs whose
# line holds $1 ("irdma_sim.func.0 AE 0x102 source 0x5 QP 7").
ae_trace_start() {
	IRDMA_AE_TRACE=/sys/kernel/tracing/instances/irdma-ae.$$
	mkdir "$IRDMA_AE_TRACE" &&
		echo 1 >"$IRDMA_AE_TRACE/events/irdma/irdma_ae/enable"
}

ae_traced() {
	count_lines "$IRDMA_AE_TRACE/trace" "$1"
}

ae_trace_stop() {
	[ -n "${IRDMA_AE_TRACE:-}" ] || return 0
	echo 0 >"$IRDMA_AE_TRACE/events/irdma/irdma_ae/enable"
	rmdir "$IRDMA_AE_TRACE"
	IRDMA_AE_TRACE=
}

# The wait_* helpers below look IRDMA_POLLS times a second: most waits end
# within a fraction of a second, and a whole second per look added up to
# minutes over a run.
IRDMA_POLLS=5
IRDMA_POLL_SECS=0.2

# For tests: wait $1 seconds without running sleep(1): read times out on
# a FIFO that this shell holds open for reading and writing, so no writer
# ever closes it. The FIFO is made and unlinked on the first call; only
# the open descriptor stays. One mkfifo per script, not one sleep per wait.
pause() {
	local fifo=/tmp/.irdma-pause.$BASHPID

	if [ -z "${IRDMA_PAUSE_FD:-}" ]; then
		mkfifo "$fifo" || { sleep "$1"; return; }
		exec {IRDMA_PAUSE_FD}<>"$fifo"
		rm -f "$fifo"
	fi
	read -rt "$1" -u "$IRDMA_PAUSE_FD" || :
}

# For tests: the RDMA device irdma registered for simulated function $1
# (a child of the function's device, as of the PCI function on hardware),
# or the one Linux 6.1's irdma registered (a child of the PCI function of
# the function's register window, "window" in its sysfs directory).
ibdev_of() {
	local d f=/sys/bus/irdma_sim/devices/irdma_sim$1

	for d in "$f"/infiniband/* "$f"/window/infiniband/*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

# For tests: the uverbs character device of RDMA device $1.
uverbs_of() {
	local d

	for d in /sys/class/infiniband/"$1"/device/infiniband_verbs/uverbs*; do
		[ -e "$d" ] && echo "/dev/infiniband/${d##*/}"
	done
}

# For tests: the values of KEY... on the "SECTION: key=value ..." line of
# simulated function FN's debugfs state, in the order asked; fails, printing
# nothing, when the line or one of the keys is missing.
# Usage: sim_counts FN SECTION KEY...
sim_counts() {
	local fn=$1 sec=$2 line w out=
	local -A val

	shift 2
	sim_state "$fn" || return 1
	for line in "${SIM_STATE[@]}"; do
		[[ $line == "$sec: "* ]] || continue
		for w in ${line#*: }; do
			[[ $w == *=* ]] && val[${w%%=*}]=${w#*=}
		done
	done
	for w; do
		[ -n "${val[$w]+set}" ] || return 1
		out+="${out:+ }${val[$w]}"
	done
	echo "$out"
}

# For the CM scripts: two wired iWARP functions, isim0 with 192.0.2.1 and
# isim1 with 192.0.2.2 in network namespace NS (created); isim0 stays here,
# or with NS0 goes into network namespace NS0 (created) too, so that each
# end of the wire has a namespace of its own. GEN (gen1 or gen2, default
# gen2) picks the functions' generation, DRV0 and DRV1 (irdma or upstream,
# default irdma) the drivers that claim functions 0 and 1. Fails the test
# on any error. Usage: sim_iwarp_pair_netns NS [NS0 [GEN [DRV0 [DRV1]]]]
sim_iwarp_pair_netns() {
	local ns=$1 ns0=${2:-} gen=${3:-gen2} bus=/sys/bus/irdma_sim
	local drv0=${4:-irdma} drv1=${5:-irdma}
	local -a in0=()

	echo "0 iwarp $gen $drv0" >$bus/new_device || fail "create 0"
	echo "1 iwarp $gen $drv1" >$bus/new_device || fail "create 1"
	# one ip per namespace (-batch): an exec of ip costs 0.35 s under TCG
	ip netns add "$ns" || fail "create namespace $ns"
	if [ -n "$ns0" ]; then
		ip netns add "$ns0" || fail "create namespace $ns0"
		in0=(-n "$ns0")
	fi
	ip -batch - <<EOF || fail "move isim1 to $ns${ns0:+, isim0 to $ns0}"
link set isim1 netns $ns
${ns0:+link set isim0 netns $ns0}
EOF
	ip "${in0[@]}" -batch - <<EOF || fail "isim0 up with 192.0.2.1/24"
link set lo up
link set isim0 up
addr add 192.0.2.1/24 dev isim0
EOF
	ip -n "$ns" -batch - <<EOF || fail "isim1 up with 192.0.2.2/24 in $ns"
link set lo up
link set isim1 up
addr add 192.0.2.2/24 dev isim1
EOF
}

# For the perftest-style scripts: irdma and irdma_sim loaded, the pair of
# sim_iwarp_pair_netns NS, both engines up; sets dev0 and dev1 to their RDMA
# devices. Usage: sim_iwarp_pair_devs NS
sim_iwarp_pair_devs() {
	load_irdma_sim
	sim_iwarp_pair_netns "$1"
	dev0=$(ibdev_of 0)
	dev1=$(ibdev_of 1)
	[ -n "$dev0" ] && [ -n "$dev1" ] ||
		fail "no RDMA devices: '$dev0' '$dev1'"
	sim_wait_counts 60 1 0 cqp live
	sim_wait_counts 60 1 1 cqp live
}

# For tests: wait up to SECONDS for a line of FILE that matches the glob
# PATTERN (a plain string matches itself); the file may not exist yet.
# Usage: wait_line SECONDS PATTERN FILE
wait_line() {
	local i line

	for ((i = 0; i < $1 * IRDMA_POLLS; i++)); do
		if [ -e "$3" ]; then
			while read -r line; do
				# shellcheck disable=SC2053 # $2 is a glob on purpose
				[[ $line == $2 ]] && return 0
			done <"$3"
		fi
		pause "$IRDMA_POLL_SECS"
	done
	return 1
}

# For tests: wait up to SECONDS until "sim_counts FN SECTION KEY..." prints
# WANT; fail the test with what it showed last.
# Usage: sim_wait_counts SECONDS WANT FN SECTION KEY...
sim_wait_counts() {
	local secs=$1 want=$2 i have=

	shift 2
	for ((i = 0; i < secs * IRDMA_POLLS; i++)); do
		have=$(sim_counts "$@")
		[ "$have" = "$want" ] && return 0
		pause "$IRDMA_POLL_SECS"
	done
	fail "function $1 $2 (${*:3}): wanted $want, have ${have:-nothing}"
}

# For tests: wait up to SECONDS until simulated function FN holds more
# than N quad-hash filters (a listen has reached its engine); fails,
# without failing the test, if it does not. Usage: wait_qhash_above SECONDS FN N
wait_qhash_above() {
	local i n

	for ((i = 0; i < $1 * IRDMA_POLLS; i++)); do
		read -r n <<<"$(sim_counts "$2" objects qhash)"
		((${n:-0} > $3)) && return 0
		pause "$IRDMA_POLL_SECS"
	done
	return 1
}

# For tests: wait up to SECONDS until an rdma_cm id listens on PORT, on
# any device ("rdma res show cm_id"): a server started in the background
# before its client connects, which a fixed pause races on a busy host.
# A command prefix after PORT runs rdma there (ip netns exec NS).
# Usage: wait_cm_listen SECONDS PORT [PREFIX...]
wait_cm_listen() {
	local i line

	for ((i = 0; i < $1 * IRDMA_POLLS; i++)); do
		while IFS= read -r line; do
			[[ $line == *"state LISTEN"*"src-addr "*":$2 "* ]] &&
				return 0
		done < <("${@:3}" rdma res show cm_id 2>/dev/null)
		pause "$IRDMA_POLL_SECS"
	done
	return 1
}

# For tests: whether process PID has exited: it is gone, or it is a zombie
# with no thread left (a shell running only builtins does not reap its
# children, so an exited child of this shell stays a zombie until "wait").
# Usage: proc_exited PID
proc_exited() {
	local line tasks

	kill -0 "$1" 2>/dev/null || return 0
	{
		while IFS= read -r line; do
			[[ $line == State:* ]] && break
		done <"/proc/$1/status"
	} 2>/dev/null || return 0
	[[ $line == State:*Z* ]] || return 1
	tasks=(/proc/"$1"/task/*)
	((${#tasks[@]} <= 1))
}

# For tests: wait up to SECONDS for background process PID to exit; fails
# if it still runs then. It is not reaped: "wait PID" gives its status.
# Usage: wait_exit SECONDS PID
wait_exit() {
	local i

	for ((i = 0; i < $1 * IRDMA_POLLS; i++)); do
		proc_exited "$2" && return 0
		pause "$IRDMA_POLL_SECS"
	done
	proc_exited "$2"
}

# For tests: the RDMA resources of every device, one line a device as
# "rdma res show" prints them (its pd, cq, qp, cm_id, mr, ctx and srq
# counts) without its index, sorted by name; fails, printing what rdma
# said, when the rdma tool fails.
# Usage: res_counts
res_counts() {
	local out

	out=$(rdma res show 2>&1) || { echo "$out"; return 1; }
	# by name: a device registered again after a reset has a new index
	sed -E 's/^[0-9]+: //' <<<"$out" | sort
}

# For tests: take the baseline that wait_baseline waits for: res_counts,
# and the engine objects KEYS (a list in one word, as sim_counts takes
# them after "objects") of each simulated function FN; fails the test when
# one cannot be read. Usage: take_baseline "KEY..." FN...
take_baseline() {
	local fn

	IRDMA_BASE_KEYS=$1
	shift
	IRDMA_BASE_FNS="$*"
	IRDMA_BASE_RES=$(res_counts) ||
		fail "no RDMA resource counts: $IRDMA_BASE_RES"
	declare -gA IRDMA_BASE_OBJ=()
	for fn; do
		# shellcheck disable=SC2086 # a list of keys
		IRDMA_BASE_OBJ[$fn]=$(sim_counts "$fn" objects $IRDMA_BASE_KEYS) ||
			fail "function $fn: no objects $IRDMA_BASE_KEYS"
	done
}

# For tests: after a scenario, wait until the RDMA resources (60 s), the
# engine objects of take_baseline's functions (60 s each) and their
# offloaded connections (none, 30 s each) are back to the baseline; fail
# the test, naming the scenario WHAT, with what was left.
# Usage: wait_baseline WHAT
wait_baseline() {
	local i have fn

	for ((i = 0; i < 60 * IRDMA_POLLS; i++)); do
		have=$(res_counts) && [ "$have" = "$IRDMA_BASE_RES" ] && break
		pause "$IRDMA_POLL_SECS"
	done
	[ "$have" = "$IRDMA_BASE_RES" ] ||
		fail "$1: RDMA resources left: $have (before: $IRDMA_BASE_RES)"
	for fn in $IRDMA_BASE_FNS; do
		# shellcheck disable=SC2086 # a list of keys
		sim_wait_counts 60 "${IRDMA_BASE_OBJ[$fn]}" "$fn" objects \
			$IRDMA_BASE_KEYS
	done
	for fn in $IRDMA_BASE_FNS; do
		sim_wait_counts 30 0 "$fn" toe conns
	done
	echo "$1: nothing left"
}

# For tests: the port counters of RDMA device DEV's port 1, as "rdma
# statistic show link" prints them, into the associative array cnt (the
# caller declares it: declare -A cnt) by name, and the whole output into
# cnt_line. Fails the test when they cannot be read.
# Usage: port_counters DEV
port_counters() {
	local w i

	cnt_line=$(rdma statistic show link "$1/1") ||
		fail "rdma statistic show link $1/1: $cnt_line"
	read -r -a w <<<"$cnt_line"
	cnt=()
	for ((i = 0; i + 1 < ${#w[@]}; i++)); do
		[[ ${w[i]} =~ ^[a-zA-Z0-9_]+$ && ${w[i + 1]} =~ ^[0-9]+$ ]] &&
			cnt[${w[i]}]=${w[i + 1]}
	done
}

# For the storage tests: the RDMA traffic of IOS writes and IOS reads
# through a ULP that registers its I/O's pages: "start" takes RDMA device
# DEV's port counters; "check" prints what moved since and fails the test
# unless there was at least an RDMA READ per write (the target pulls the
# data), an RDMA WRITE per read (it pushes it) and INV invalidations.
# Usage: rdma_io_counters DEV start | rdma_io_counters DEV check IOS INV
rdma_io_counters() {
	local inv rd wr
	local -A cnt

	port_counters "$1"
	if [ "$2" = start ]; then
		IRDMA_IO_BASE=("${cnt[iwRdmaInv]:-0}" "${cnt[iwOutRdmaReads]:-0}"
			       "${cnt[iwOutRdmaWrites]:-0}")
		return 0
	fi
	[ ${#IRDMA_IO_BASE[@]} = 3 ] || fail "rdma_io_counters: no start"
	inv=$((${cnt[iwRdmaInv]:-0} - IRDMA_IO_BASE[0]))
	rd=$((${cnt[iwOutRdmaReads]:-0} - IRDMA_IO_BASE[1]))
	wr=$((${cnt[iwOutRdmaWrites]:-0} - IRDMA_IO_BASE[2]))
	echo "during the I/O: $inv STags invalidated, $rd RDMA READs, $wr RDMA WRITEs"
	((rd >= $3)) || fail "$rd RDMA READs for $3 writes"
	((wr >= $3)) || fail "$wr RDMA WRITEs for $3 reads"
	((inv >= $4)) || fail "$inv invalidations for $3 writes and $3 reads"
}

# For tests: how many pings rping -V verified, from its output FILE: a
# client's "ping data: rdma-ping-..." lines, with "server" a server's
# "server ping data: rdma-ping-..." lines.
# Usage: rping_pings FILE [server]
rping_pings() {
	local pre="ping data: rdma-ping-"

	[ "${2:-}" = server ] && pre="server $pre"
	[ -e "$1" ] || { echo 0; return; }
	# grep, not a read loop: on a loopback rping -C 0 writes thousands of
	# lines a second, which bash reads at a few thousand a second
	grep -c -- "^$pre" "$1" || true
}

# For tests: wait up to SECONDS for the rping client PID (a background job
# of this shell, started with -V -C PINGS, its output in FILE) to exit,
# killing it after that; succeed if it exited 0 having verified PINGS
# pings. Otherwise print why and return 1: the caller adds what it knows
# and fails. Usage: rping_pings_verified SECONDS PID FILE PINGS
rping_pings_verified() {
	local rc n

	if ! wait_exit "$1" "$2"; then
		kill "$2" 2>/dev/null
		wait "$2" 2>/dev/null
		echo "rping -C $4 did not finish in $1 s"
		return 1
	fi
	wait "$2"
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "rping -c exited $rc"
		return 1
	fi
	n=$(rping_pings "$3")
	if [ "$n" != "$4" ]; then
		echo "rping -c verified $n pings, not $4"
		return 1
	fi
}

# For the CM scripts: remove what sim_iwarp_pair_netns NS [NS0] made (NS
# given: isim1 goes back to the initial namespace and NS is deleted, the
# same for isim0 and NS0), or a pair made in this namespace; then functions
# 1 and 0 are deleted, irdma_sim and irdma unloaded. Fails the test on any
# error. Usage: sim_pair_remove [NS [NS0]]
sim_pair_remove() {
	local bus=/sys/bus/irdma_sim

	if [ -n "${1:-}" ]; then
		ip -n "$1" link set isim1 netns 1 || fail "move isim1 back"
		ip netns del "$1" || fail "delete namespace $1"
	fi
	if [ -n "${2:-}" ]; then
		ip -n "$2" link set isim0 netns 1 || fail "move isim0 back"
		ip netns del "$2" || fail "delete namespace $2"
	fi
	echo 1 >$bus/del_device || fail "delete 1"
	echo 0 >$bus/del_device || fail "delete 0"
	rmmod irdma_sim || fail "rmmod irdma_sim"
	rmmod irdma || fail "rmmod irdma"
}

# For tests: skip unless each user-space piece named is installed: rping
# (rdmacm-utils), librdmacm (librdmacm1), libirdma (ibverbs-providers).
# Usage: need_user WHAT...
need_user() {
	local w lib=/usr/lib/x86_64-linux-gnu

	for w; do
		case $w in
		rping)
			command -v rping >/dev/null ||
				skip "rping (rdmacm-utils) is not installed"
			;;
		librdmacm)
			[ -e $lib/librdmacm.so.1 ] ||
				skip "librdmacm (librdmacm1) is not installed"
			;;
		libirdma)
			[ -e $lib/libibverbs/libirdma-rdmav34.so ] ||
				skip "libirdma (ibverbs-providers) is not installed"
			;;
		*)
			fail "need_user: no check for $w"
			;;
		esac
	done
}

# For tests: irdma and irdma_sim loaded, iWARP function 0 alone,
# 192.0.2.1/24 on its netdev (up), for the kernel's storage protocols,
# whose host and target both run on it; waits for its engine and sets the
# variable VAR to its RDMA device. Usage: sim_iwarp_function0 VAR
sim_iwarp_function0() {
	load_irdma_sim
	echo "0 iwarp" >/sys/bus/irdma_sim/new_device || fail "create 0"
	ip link set isim0 up || fail "isim0 up"
	ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
	sim_function0_dev "$1"
}

# For tests: irdma and irdma_sim loaded, RoCEv2 function 0 with
# 192.0.2.1/24 on its netdev and function 1 beside it, only to give the
# wire a carrier (the port is not ACTIVE without one); both netdevs up;
# waits for function 0's engine and sets the variable VAR to its RDMA
# device. Usage: sim_roce_function0 VAR
sim_roce_function0() {
	load_irdma_sim
	echo "0 roce" >/sys/bus/irdma_sim/new_device || fail "create 0"
	echo "1 roce" >/sys/bus/irdma_sim/new_device || fail "create 1"
	ip link set isim1 up || fail "isim1 up"
	ip link set isim0 up || fail "isim0 up"
	ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
	sim_function0_dev "$1"
}

# For the two above: wait for function 0's engine, set VAR to its RDMA device.
sim_function0_dev() {
	local d

	sim_wait_counts 60 1 0 cqp live
	d=$(ibdev_of 0)
	[ -n "$d" ] || fail "no RDMA device on function 0"
	printf -v "$1" %s "$d"
}

# For tests: delete the simulated functions FN, in that order, then
# unload irdma_sim and irdma. Usage: sim_unload [FN...]
sim_unload() {
	local fn

	for fn; do
		echo "$fn" >/sys/bus/irdma_sim/del_device || fail "delete $fn"
	done
	rmmod irdma_sim || fail "rmmod irdma_sim"
	rmmod irdma || fail "rmmod irdma"
}

# For tests: wait (SECS) for the rping server whose PID the variable VAR
# holds to exit, kill it if it does not, clear VAR, and fail the test
# unless it exited 0 having verified PINGS pings (its output is FILE).
# Usage: rping_server_done SECS VAR FILE PINGS
rping_server_done() {
	local pid=${!2} rc n

	wait_exit "$1" "$pid" || kill "$pid"
	wait "$pid"
	rc=$?
	printf -v "$2" '%s' ''
	[ "$rc" = 0 ] || fail "rping -s exited $rc: $(<"$3")"
	n=$(rping_pings "$3" server)
	[ "$n" = "$4" ] || fail "rping -s verified $n pings, not $4: $(<"$3")"
}

# For tests: wait (20 s) until port 1 of RoCEv2 device DEV is ACTIVE and
# has a GID for each address: a GID ending in each PATTERN (such as
# ':ffff:c000:0201' for 192.0.2.1) or starting with it when the PATTERN
# ends in ':' (an IPv6 prefix); fails the test otherwise.
# Usage: roce_port_ready DEV PATTERN...
roce_port_ready() {
	local dev=$1 i p state ok gids=/sys/class/infiniband/$1/ports/1/gids

	shift
	for ((i = 0; i < 40; i++)); do
		read -r state <"/sys/class/infiniband/$dev/ports/1/state"
		ok=1
		[[ $state == *ACTIVE ]] || ok=
		for p; do
			if [[ $p == *: ]]; then
				grep -qs "^$p" "$gids"/* || ok=
			else
				grep -qs "$p\$" "$gids"/* || ok=
			fi
		done
		[ -n "$ok" ] && return 0
		pause 0.5
	done
	[[ $state == *ACTIVE ]] || fail "$dev port 1 is '$state', not ACTIVE"
	fail "$dev port 1 has no GID for each of: $*"
}

# For tests: load the RDMA stack, irdma and irdma_sim; fails the test when
# one does not load. Usage: load_irdma_sim
load_irdma_sim() {
	load_stack || fail "cannot load the RDMA stack"
	kmod irdma || fail "cannot load irdma"
	kmod irdma_sim || fail "cannot load irdma_sim"
}

# For the 7N-upstream scripts: load Linux 6.1's irdma (irdma_upstream,
# tools/upstream/) beside ours. Upstream busy-waits for the engine
# (udelay() loops of up to 10 ms on CQP creation and every bring-up
# command), as it may on an adapter that works beside the CPU; the
# simulated engine is a kernel worker on the same CPU, which voluntary
# preemption would never run during such a wait: the script runs with
# full preemption (PREEMPT_DYNAMIC), and the guest's runner puts the
# kernel's own mode back after it (preempt_restore).
load_irdma_upstream() {
	preempt_mode full || fail "cannot switch to full preemption"
	IRDMA_FAIL_HOOK=upstream_fail_info
	load_irdma_sim
	kmod irdma_upstream || fail "cannot load irdma_upstream"
}

# For the 7N-upstream scripts: on a failure, what the engines and both
# drivers say (IRDMA_FAIL_HOOK, called by fail).
upstream_fail_info() {
	local f line

	for f in /sys/kernel/debug/irdma_sim/irdma_sim*; do
		[ -d "$f" ] || continue
		echo "== ${f##*/}: driver $(<"$f/driver")"
		sim_state "${f##*irdma_sim}" || continue
		for line in "${SIM_STATE[@]}"; do
			case $line in
			cqp:* | "  op "*errors=[1-9]* | ilq:* | toe:* | wire:* | \
			objects:* | ud:* | exec:*) echo "$line" ;;
			esac
		done
	done
	dmesg | grep -E 'irdma|isim' | grep -v 'AE 0x50[13]' | tail -n 40
}

# For the 7N-upstream scripts, at their end.
upstream_done() {
	preempt_restore
}

PREEMPT_FILE=/sys/kernel/debug/sched/preempt

# Switch the kernel's preemption mode (none, voluntary, full) at run time.
# Usage: preempt_mode MODE
preempt_mode() {
	[ -w "$PREEMPT_FILE" ] || return 1
	echo "$1" >"$PREEMPT_FILE"
}

# Put back the mode the kernel was built with (voluntary), if a script
# changed it. Usage: preempt_restore
preempt_restore() {
	local cur

	[ -r "$PREEMPT_FILE" ] || return 0
	read -r cur <"$PREEMPT_FILE"
	[[ $cur == *"(voluntary)"* ]] || echo voluntary >"$PREEMPT_FILE"
}

# For tests: the fields of ibv_devinfo's output TEXT into the associative
# array attr (the caller declares it: declare -A attr), by name without the
# colon, the first occurrence of each. Usage: ibv_info_attrs TEXT
ibv_info_attrs() {
	local k v

	attr=()
	while IFS=: read -r k v; do
		k=${k//[[:space:]]/}
		v=${v#"${v%%[![:space:]]*}"}
		# attr is the caller's associative array
		# shellcheck disable=SC2004
		[ -n "$k" ] && [ -z "${attr[$k]+set}" ] && attr[$k]=$v
	done <<<"$1"
}

# For tests: on exit, kill the background jobs whose PIDs the variables
# named hold (those still set). Usage: kill_on_exit VAR...
kill_on_exit() {
	IRDMA_KILL_VARS="$*"
	trap irdma_kill_vars EXIT
}

# For tests: on exit, after killing the jobs kill_on_exit names, delete
# the network namespaces NS... (those still there). Usage: netns_del_on_exit NS...
netns_del_on_exit() {
	IRDMA_EXIT_NETNS="$*"
	trap irdma_kill_vars EXIT
}

irdma_kill_vars() {
	local v

	for v in ${IRDMA_KILL_VARS:-}; do
		[ -n "${!v:-}" ] && kill "${!v}" 2>/dev/null
	done
	for v in ${IRDMA_EXIT_NETNS:-}; do
		ip netns del "$v" 2>/dev/null
	done
	return 0
}

# For tests: fail with a message.
fail() {
	echo "FAIL: $*"
	[ -z "${IRDMA_FAIL_HOOK:-}" ] || "$IRDMA_FAIL_HOOK"
	exit 1
}

# For tests: skip with a reason.
skip() {
	echo "SKIP: $*"
	exit 77
}
