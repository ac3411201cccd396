#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 1200
# irdma-vm-secs: 112
#
# Many connections at once: ucmatose opens 200 rdma_cm connections over a
# loopback on one simulated function (both ends on irdma, every connection
# through our CM and then offloaded to the engine), sends 10 messages on
# each and closes them. Both ends must exit 0, no CQP command may time out
# (the 400 QPs, their CQs, MRs, filters and AHs take thousands of
# commands: the CQP ring wraps many times), and afterwards the RDMA
# resources and the engine's objects must be back where they were.
# The engine's pass counters, CQP position and offload counters are
# sampled every 5 s and shown on a failure, and a client still running 60 s
# after the server ended shows its connections (rdma_cm's, the QPs', the
# engine's TCP) before it is killed; the offload counters at the
# end (segments sent again, timeouts, connections given up, queue
# overflows) say how hard the engine's TCP had to work, and no AE may have
# found the AEQ full (the engine drops it, as hardware does). The kernel log
# stays quiet: the connections' AEs (FINs, completed closes) reach the
# irdma_ae tracepoint, and irdma logs not one line for all of it.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
conns=200
port=7047

cleanup() {
	ae_trace_stop 2>/dev/null
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null
	if [ -n "${tpid:-}" ]; then
		kill "$tpid" 2>/dev/null
		[ -n "${failed:-}" ] && echo "engine samples:" &&
			tail -n 40 /tmp/47-ticks.txt
	fi
	return 0
}
trap cleanup EXIT

log_mark 47-iw-scale
need_user librdmacm
command -v ucmatose >/dev/null || skip "ucmatose (rdmacm-utils) is not installed"
load_irdma_sim
echo "0 iwarp" >$bus/new_device || fail "create 0"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
sim_wait_counts 60 1 0 cqp live
take_baseline "qps stags ahs qhash apbvt_ports" 0
echo "baseline: $IRDMA_BASE_RES; engine: ${IRDMA_BASE_OBJ[0]}"

(
	while :; do
		sim_state 0 || break
		for line in "${SIM_STATE[@]}"; do
			[[ $line == ticks:* || $line == cqp:* || $line == toe:* ]] &&
				echo "$SECONDS $line"
		done
		pause 5
	done
) >/tmp/47-ticks.txt 2>&1 &
tpid=$!
ae_trace_start || fail "no irdma_ae tracepoint"
step "ucmatose, $conns connections with 10 messages each"
failed=1
t0=$SECONDS
ucmatose -b 192.0.2.1 -p $port -c $conns -C 10 >/tmp/ucma-s.txt 2>&1 &
spid=$!
pause 3
ucmatose -s 192.0.2.1 -p $port -c $conns -C 10 >/tmp/ucma-c.txt 2>&1 &
cpid=$!
# the server ends the connections: a client left 60 s after it is stuck
stuck=0
for ((i = 0; i < 600 && stuck < 60; i++)); do
	proc_exited $cpid && break
	proc_exited $spid && stuck=$((stuck + 1))
	pause 1
done
if ! proc_exited $cpid; then
	echo "the client still runs 60 s after the server ended; its connections:"
	rdma res show cm_id -dd
	rdma res show qp
	echo "the engine's offloaded connections:"
	grep "^toe qp " "/sys/kernel/debug/irdma_sim/irdma_sim0/state"
	kill $cpid
fi
wait $cpid
rc=$?
cpid=
echo "client exited $rc after $((SECONDS - t0)) s; engine: $(sim_counts 0 ticks count max_us late_max_us)"
echo "client: $(</tmp/ucma-c.txt)"
echo "offloaded segments: $(sim_counts 0 toe rx retrans timeouts gave_up full rxq_max |
	awk '{ printf "%s received, %s sent again after %s timeouts, %s connections given up; %s found the queue full (at most %s waiting)", $1, $2, $3, $4, $5, $6 }')"
wait_exit 120 "$spid" || kill "$spid"
wait "$spid"
src=$?
spid=
echo "server exited $src: $(</tmp/ucma-s.txt)"
read -r aeq_size aeq_lost <<<"$(sim_counts 0 aeq size lost)"
echo "AEQ: $aeq_size entries, $aeq_lost AEs lost"
[ "$rc" = 0 ] || fail "ucmatose client exited $rc"
[ "$aeq_lost" = 0 ] || fail "$aeq_lost AEs lost: the AEQ had no free entry"
[ "$src" = 0 ] || fail "ucmatose server exited $src"
[ "$(count_log 'timed out; CQP unusable')" = 0 ] || fail "a CQP command timed out"
failed=

step "a quiet kernel log"
closes=$(ae_traced "irdma_sim.func.0 AE 0x501 ")
ae_trace_stop
noise=$(log_since | sed -n "/$IRDMA_TEST: ucmatose/,\$p" | grep irdma)
echo "$closes completed closes traced; irdma logged $(grep -c . <<<"$noise") lines"
((closes >= conns)) || fail "$closes completed closes traced for $conns connections"
[ -z "$noise" ] || fail "ordinary connections logged: $(head -n 20 <<<"$noise")"

step "everything released"
wait_baseline "after $conns connections"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "$conns rdma_cm connections at once over a loopback on one function carried 10 messages each and left nothing"
