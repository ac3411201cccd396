#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 95
#
# The MPA exchange is timed on both sides, and a connect whose QP goes
# away ends at once. Two functions on the wire, each end in a network
# namespace of its own; the peers that never answer are kernel TCP
# sockets (tools/guest/iwcm.py), so each side of the MPA exchange is
# left waiting by something that is not our CM.
#  - Initiator: two rping clients connect to a kernel TCP listener that
#    takes their MPA requests and never answers. One is killed with
#    SIGKILL meanwhile: the destroy of its QP ends its connect (iw_cm's
#    destroy waits for the CONNECT_REPLY), it exits at once, and the
#    listener sees its reset. The other gets CONNECT_REPLY -ETIMEDOUT from
#    the MPA reply timer (60 s), rping's RDMA_CM_EVENT_UNREACHABLE, and
#    the listener sees its reset then.
#  - Responder: a kernel TCP client connects to an rping server and never
#    sends its MPA request: the MPA request timer (20 s) resets it without
#    a word to the server, which keeps listening.
#  - A function reset while a client waits for its MPA reply: the reset
#    ends the connect at once (the device's removal waits for every
#    connect's CONNECT_REPLY), and the device comes back.
# The first two run at once; afterwards the RDMA resources and the engines'
# objects are back to their baseline. A task left in D state would also
# fail the run (the test kernel's hung-task detector).
. "$IRDMA_REPO/tools/guest/lib.sh"

ns=mpapeer
ns0=mpahost
PY=(env "PYTHONPATH=$IRDMA_REPO/tools/guest" python3 -u -c)

kill_on_exit lpid ipid spid c1 c2 c3
netns_del_on_exit $ns $ns0

log_mark 45b-iw-mpa-timeout
need_user rping librdmacm
load_irdma_sim
sim_iwarp_pair_netns $ns $ns0
take_baseline "qhash apbvt_ports ahs" 0 1

step "a responder that never answers, and one that never hears a request"
ip netns exec $ns "${PY[@]}" 'import iwcm; iwcm.silent_responder("192.0.2.2", 7451, 2, 150)' \
	>/tmp/45b-peer.txt 2>&1 &
lpid=$!
ip netns exec $ns stdbuf -oL rping -s -d -a 192.0.2.2 -p 7452 \
	>/tmp/45b-srv.txt 2>&1 &
spid=$!
wait_line 120 listening /tmp/45b-peer.txt ||
	fail "the silent responder does not listen: $(</tmp/45b-peer.txt)"
read -r q0 _ <<<"${IRDMA_BASE_OBJ[1]}"
wait_qhash_above 60 1 "$q0" || fail "no SYN filter on function 1: $(</tmp/45b-srv.txt)"
printf -v t0 '%(%s)T' -1
ip netns exec $ns0 rping -c -d -a 192.0.2.2 -p 7451 -C 1 \
	>/tmp/45b-c1.txt 2>&1 &
c1=$!
ip netns exec $ns0 rping -c -d -a 192.0.2.2 -p 7451 -C 1 \
	>/tmp/45b-c2.txt 2>&1 &
c2=$!
ip netns exec $ns0 "${PY[@]}" 'import iwcm; iwcm.silent_initiator("192.0.2.2", 7452, 120)' \
	>/tmp/45b-init.txt 2>&1 &
ipid=$!
wait_line 120 "request 2 *" /tmp/45b-peer.txt ||
	fail "the requests did not arrive: $(</tmp/45b-peer.txt) / $(</tmp/45b-c1.txt) / $(</tmp/45b-c2.txt)"
printf -v t1 '%(%s)T' -1
echo "both MPA requests arrived after $((t1 - t0)) s"

step "SIGKILL to a client whose connect waits for the MPA reply"
kill -9 "$c2"
wait_exit 20 "$c2" ||
	fail "the killed client is still there after 20 s: $(ps -o pid,stat,wchan:30,cmd -p "$c2")"
wait "$c2"
c2=
printf -v t2 '%(%s)T' -1
echo "the killed client was gone $((t2 - t1)) s after the signal"
wait_line 20 "reset from port * after *" /tmp/45b-peer.txt ||
	fail "the silent responder saw no reset of the killed client: $(</tmp/45b-peer.txt)"

step "the MPA request timer resets the silent initiator"
wait_exit 60 "$ipid" || fail "no reset of the silent initiator: $(</tmp/45b-init.txt)"
wait "$ipid" || fail "the silent initiator: $(</tmp/45b-init.txt)"
ipid=
echo "silent initiator: $(</tmp/45b-init.txt)"
read -r _ _ secs _ < <(grep '^reset after' /tmp/45b-init.txt)
((secs >= 18 && secs <= 40)) || fail "reset after $secs s, not about 20"
kill -0 "$spid" || fail "the rping server is gone: $(</tmp/45b-srv.txt)"
[ "$(count_lines /tmp/45b-srv.txt 'RDMA_CM_EVENT_CONNECT_REQUEST')" = 0 ] ||
	fail "the server heard of the silent initiator: $(</tmp/45b-srv.txt)"

step "the MPA reply timer ends the other connect"
wait_exit 100 "$c1" || fail "the client still waits after $((100 + t2 - t0)) s: $(</tmp/45b-c1.txt)"
wait "$c1"
rc=$?
c1=
printf -v t3 '%(%s)T' -1
echo "client (exit $rc, $((t3 - t1)) s after its request): $(</tmp/45b-c1.txt)"
[ "$rc" != 0 ] || fail "rping -c exited 0 without an MPA reply"
[ "$(count_lines /tmp/45b-c1.txt 'RDMA_CM_EVENT_UNREACHABLE, error -110')" != 0 ] ||
	fail "no RDMA_CM_EVENT_UNREACHABLE with -ETIMEDOUT"
((t3 - t1 >= 55 && t3 - t1 <= 100)) ||
	fail "the connect ended $((t3 - t1)) s after its request, not about 60"
wait "$lpid" || fail "silent responder: $(</tmp/45b-peer.txt)"
lpid=
echo "silent responder: $(</tmp/45b-peer.txt)"
[ "$(count_lines /tmp/45b-peer.txt 'reset from port')" = 2 ] ||
	fail "the silent responder did not see both resets"
kill "$spid"
wait "$spid"
spid=
wait_baseline "MPA timers"

step "a function reset while a connect waits for the MPA reply"
ip netns exec $ns "${PY[@]}" 'import iwcm; iwcm.silent_responder("192.0.2.2", 7453, 1, 60)' \
	>/tmp/45b-peer3.txt 2>&1 &
lpid=$!
wait_line 120 listening /tmp/45b-peer3.txt ||
	fail "the third silent responder does not listen: $(</tmp/45b-peer3.txt)"
ip netns exec $ns0 rping -c -d -a 192.0.2.2 -p 7453 -C 1 \
	>/tmp/45b-c3.txt 2>&1 &
c3=$!
wait_line 60 "request 1 *" /tmp/45b-peer3.txt ||
	fail "the request did not arrive: $(</tmp/45b-peer3.txt) / $(</tmp/45b-c3.txt)"
printf -v t4 '%(%s)T' -1
echo 1 >/sys/kernel/debug/irdma_sim/irdma_sim0/reset || fail "reset of function 0"
printf -v t5 '%(%s)T' -1
((t5 - t4 <= 20)) || fail "the reset took $((t5 - t4)) s with a connect waiting"
wait_exit 20 "$c3" || fail "the client still waits 20 s after the reset: $(</tmp/45b-c3.txt)"
wait "$c3"
rc=$?
c3=
[ "$rc" != 0 ] || fail "rping -c exited 0 though its device was reset"
echo "reset with a connect waiting: $((t5 - t4)) s; client (exit $rc): $(</tmp/45b-c3.txt)"
kill "$lpid" 2>/dev/null
wait "$lpid"
lpid=
sim_wait_counts 60 1 0 cqp live || fail "function 0 is not back after its reset"
[ -n "$(ibdev_of 0)" ] || fail "no RDMA device on function 0 after its reset"
wait_baseline "a reset"

step "remove"
sim_pair_remove $ns $ns0
echo "MPA reply and request timers, and a connect ended by its process's death, nothing left behind"
