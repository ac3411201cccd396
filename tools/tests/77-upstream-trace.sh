#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 35
#
# The differential trace: one scenario on function 0 under each driver,
# ours and Linux 6.1's, with the simulator's tracepoints on (events
# irdma_sim in a tracefs instance of its own: every CQP command and its
# WQE, the CQP and QP host contexts, the doorbells the engine consumed).
# The scenario: the function handed to the driver (a reset engine, a
# probe), rping -V -C 3 over a loopback (PD, CQs, QPs, MRs, a connection,
# data both ways, a graceful disconnect), the driver unbound (tear-down).
# tools/sim-trace-diff compares the two traces; every difference must be
# one tools/upstream/trace-allow.txt explains (Documentation/sim.rst,
# "Fidelity", says why), else the script fails and names it. Both traces
# and the comparison stay in the run directory (e2e/77-*.txt).
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim/irdma_sim0
tr=/sys/kernel/tracing/instances/irdma-77
out=${IRDMA_OUT:-/tmp}/e2e

kill_on_exit spid
# on exit, the tracefs instance goes too (kill_on_exit's trap, extended)
cleanup_77() {
	irdma_kill_vars
	[ ! -d $tr ] || echo 0 >$tr/events/irdma_sim/enable
	[ ! -d $tr ] || rmdir $tr
}

# the scenario under driver $1 (module driver $2, device name $3): its
# trace to $out/77-trace-$1.txt
scenario() {
	local drv=$1 adrv=$2 name=$3

	echo 0 >$tr/tracing_on
	: >$tr/trace
	echo 1 >$tr/tracing_on
	echo "$drv" >$dbg/driver || fail "hand function 0 to $drv"
	sim_wait_counts 60 1 0 cqp live
	ip addr replace 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
	stdbuf -oL rping -s -d -v -V -a 192.0.2.1 -p 7771 >/tmp/77-srv.txt 2>&1 &
	# shellcheck disable=SC2034 # read by name: kill_on_exit, rping_server_done
	spid=$!
	wait_qhash_above 60 0 0 || fail "$drv: no SYN filter: $(</tmp/77-srv.txt)"
	stdbuf -oL rping -c -d -v -V -a 192.0.2.1 -p 7771 -C 3 \
		>/tmp/77-cli.txt 2>&1 ||
		fail "$drv: rping -c: $(</tmp/77-cli.txt) / server: $(</tmp/77-srv.txt)"
	rping_server_done 60 spid /tmp/77-srv.txt 3
	sim_wait_counts 60 0 0 toe conns
	echo "irdma_sim.$name.0" >"/sys/bus/auxiliary/drivers/$adrv/unbind" ||
		fail "unbind $drv"
	sim_wait_counts 10 0 0 cqp live
	echo 0 >$tr/tracing_on
	cp $tr/trace "$out/77-trace-$drv.txt" || fail "save the $drv trace"
	grep -q "lost events" "$out/77-trace-$drv.txt" &&
		fail "$drv: the trace buffer overflowed"
	echo "$drv: $(grep -c isim_cqp_cmd "$out/77-trace-$drv.txt") CQP commands traced"
}

log_mark 77-upstream-trace
need_user rping librdmacm libirdma
mkdir -p "$out"
load_irdma_upstream
[ -d $tr ] || mkdir $tr || fail "no tracefs instance"
trap cleanup_77 EXIT
[ -d $tr/events/irdma_sim ] || fail "no irdma_sim events in $tr"
echo "0 iwarp gen2 irdma" >$bus/new_device || fail "create 0"
ip link set isim0 up || fail "isim0 up"
# each trace starts from an unbound function: a bring-up, no tear-down
echo irdma_sim.func.0 >/sys/bus/auxiliary/drivers/irdma.sim/unbind ||
	fail "unbind ours"
sim_wait_counts 10 0 0 cqp live
echo 8192 >$tr/buffer_size_kb
echo 1 >$tr/events/irdma_sim/enable || fail "enable the irdma_sim events"

step "the scenario under ours"
scenario irdma irdma.sim func
step "the scenario under upstream's"
scenario upstream irdma_upstream.sim upstream
echo 0 >$tr/events/irdma_sim/enable
rmdir $tr || fail "remove the tracefs instance"

step "the comparison"
python3 "$IRDMA_REPO/tools/sim-trace-diff" --fn 0 \
	--allow "$IRDMA_REPO/tools/upstream/trace-allow.txt" \
	"$out/77-trace-irdma.txt" "$out/77-trace-upstream.txt" \
	>"$out/77-diff.txt" 2>&1
rc=$?
cat "$out/77-diff.txt"
[ $rc = 0 ] || fail "the traces differ where nothing explains it (exit $rc)"

step "remove"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_upstream || fail "rmmod irdma_upstream"
sim_unload
upstream_done
echo "one scenario under both drivers: every difference the engine saw is explained"
