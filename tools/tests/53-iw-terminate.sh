#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
# irdma-vm-secs: 44
#
# TERMINATE (RFC 5040, 5.4 and 7) both ways, against a peer that is not our
# code. As in 42-cm-accept.sh, a librdmacm server on function 0 accepts an
# MPA v2 request from a kernel TCP socket in function 1's namespace, with a
# user QP. Then the peer, which speaks MPA and DDP itself:
#
# 1. sends an RDMA WRITE to an STag that does not exist. The engine refuses
#    it and writes the segment to the QP's Q2; the driver must tell the
#    server's QP (IBV_EVENT_QP_ACCESS_ERR), build the TERMINATE in Q2 and
#    close the connection through the engine's TERMINATE state: the peer
#    must receive one FPDU, a TERMINATE (untagged, queue 2, MSN 1, MO 0,
#    opcode 7, a good CRC) saying "DDP tagged buffer error, invalid STag"
#    with the WRITE's segment length and DDP header, and then our FIN, not
#    an RST. The server gets RDMA_CM_EVENT_DISCONNECTED once the peer closes.
# 2. sends a TERMINATE of its own (RDMAP remote operation error, unexpected
#    opcode). The server's QP must get IBV_EVENT_QP_FATAL, the kernel log
#    must name the peer's error, and the peer must get our FIN and nothing
#    else; the server gets RDMA_CM_EVENT_DISCONNECTED.
# 3. sends the RTR (a zero-length WRITE) and waits for the server's
#    rdma_disconnect: our FIN, then the peer's, whose ACK the simulator
#    loses (drop_toe_acks). The engine, which closed first, keeps the
#    connection in TIME_WAIT: the peer's FIN, sent again by its TCP, must
#    be acknowledged again, and the peer's socket must reach CLOSED with
#    no error, not meet an RST or go on resending.
# 4. sends the RTR, and the server posts a SEND whose buffer has a local
#    key that does not exist. Its WQE fails in our engine: the server's QP
#    must get IBV_EVENT_QP_ACCESS_ERR and the peer one TERMINATE that names
#    a local catastrophic error (RDMAP, type 0, code 0, no headers: nothing
#    the peer sent was wrong), then our FIN; not an RST, and not silence.
# 5. sends the RTR; the server posts an RDMA READ from the peer and behind
#    it the same bad SEND, and closes (rdma_disconnect) while the READ
#    holds the SQ: our FIN waits behind the SQ. Only then does the peer
#    answer the READ; the SEND fails with the QP already closing, where no
#    TERMINATE can go and the engine will send no FIN. The connection must
#    be aborted at once: the READ's data placed, IBV_EVENT_QP_ACCESS_ERR,
#    DISCONNECTED, and the peer an RST with nothing before it, and not by
#    the CM's close timer (cm_close_timeouts, a port counter, unchanged).
#
# After each, the engine's objects are back to where they were.
. "$IRDMA_REPO/tools/guest/lib.sh"

state=/sys/kernel/debug/irdma_sim/irdma_sim0/state
ns=termpeer
pdata=terminate-53

objects() {
	sim_counts 0 objects qps stags qhash apbvt_ports ahs
}

cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	[ -n "${ppid_:-}" ] && kill "$ppid_" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

# the server: accept with a user QP (and post a SEND with a bad local key
# if $4 is "badkey"; with "readbad", an RDMA READ of 16 bytes and that
# SEND behind it, rdma_disconnect once /tmp/53-closing-disc exists, and
# /tmp/53-closing-go for the peer once the engine's QP is closing),
# wait for the QP's async event (it must be $2; none if negative: then
# close with rdma_disconnect), then for DISCONNECTED; destroy everything
server() {
	python3 -u - 192.0.2.1 "$1" $pdata "$2" "${4:-}" >"$3" 2>&1 <<'EOF' &
import ctypes
import re
import signal
import struct
import sys
import time

import iwcm
from iwcm import check


class AsyncEvent(ctypes.Structure):
    """struct ibv_async_event"""
    _fields_ = [('element', ctypes.c_void_p), ('event_type', ctypes.c_int)]


def post_bad_send(verbs, qp):
    """a signaled SEND of 8 bytes from a buffer with a local key no MR
    has"""
    buf = ctypes.create_string_buffer(b'badlkey!', 8)
    sge = iwcm.Sge(ctypes.addressof(buf), 8, 0x00dead5a)
    wr = iwcm.SendWr(wr_id=1, sg_list=ctypes.pointer(sge), num_sge=1,
                     opcode=2, send_flags=2)
    iwcm.post_send(verbs, qp, wr, 'SEND with a bad local key')
    return buf




addr, port, pdata, want, post = (sys.argv[1], int(sys.argv[2]),
                                 sys.argv[3].encode(), int(sys.argv[4]),
                                 sys.argv[5])
cm = iwcm.librdmacm()
ibv = ctypes.CDLL('libibverbs.so.1', use_errno=True)
lid, cid, ch = iwcm.accept_user_qp(cm, addr, port, pdata)
if want < 0:
    check(cm.rdma_disconnect(cid), 'rdma_disconnect')
    iwcm.wait_event(cm, ch, iwcm.RDMA_CM_EVENT_DISCONNECTED,
                    'rdma_disconnect', patience=300)
    print('disconnected', flush=True)
    iwcm.destroy_accepted(cm, lid, cid, ch)
    sys.exit(0)
# SIGALRM ends the wait
verbs, qp = iwcm.id_verbs_qp(cid)
mr = None
if post == 'readbad':
    mr, sink = iwcm.post_read(ibv, verbs, qp, 16, 2, 0x5eed, 0x2000)
if post in ('badkey', 'readbad'):
    keep = post_bad_send(verbs, qp)
if post == 'readbad':
    iwcm.wait_file('/tmp/53-closing-disc', 'the test')
    check(cm.rdma_disconnect(cid), 'rdma_disconnect')
    print('rdma_disconnect with the READ and the SEND queued', flush=True)
    # Once the close has reached the engine (the QP CLOSING, our FIN
    # queued), the peer may answer the READ. Watched from here, at once:
    # the CM's close timer runs from the disconnect.
    closing = re.compile(r'^qp \d+: type=\d+ state=3 ', re.M)
    t0 = time.time()
    while True:
        with open('/sys/kernel/debug/irdma_sim/irdma_sim0/state') as f:
            if closing.search(f.read()):
                break
        if time.time() - t0 > 60:
            sys.exit('the engine has no QP closing')
        time.sleep(0.02)
    open('/tmp/53-closing-go', 'w').close()
    print('the QP is closing in the engine', flush=True)
signal.signal(signal.SIGALRM, lambda *_: None)
signal.alarm(300)
ev = AsyncEvent()
check(ibv.ibv_get_async_event(ctypes.c_void_p(verbs), ctypes.byref(ev)),
      'ibv_get_async_event')
signal.alarm(0)
ibv.ibv_ack_async_event(ctypes.byref(ev))
print('async event', ev.event_type, flush=True)
if ev.event_type != want:
    sys.exit('async event %d, wanted %d' % (ev.event_type, want))
# an aborted connection's CLOSE says so: -ECONNRESET
iwcm.wait_event(cm, ch, iwcm.RDMA_CM_EVENT_DISCONNECTED, 'the TERMINATE',
                patience=300, want_status=-104 if mr else 0)
print('disconnected', flush=True)
if mr:
    if sink.raw != b'closing-readresp':
        sys.exit('the READ placed %s' % sink.raw.hex())
    print('the READ placed its 16 bytes', flush=True)
    check(ibv.ibv_dereg_mr(ctypes.c_void_p(mr)), 'ibv_dereg_mr')
iwcm.destroy_accepted(cm, lid, cid, ch)
EOF
	lpid=$!
	wait_line 300 listening "$3" || fail "server not listening: $(<"$3")"
}

# the peer in $ns: MPA v2 request, the reply, then what case $2 sends;
# case tw waits for $go between our FIN and its own
peer() {
	ip netns exec $ns python3 -u - 192.0.2.1 "$1" $pdata "$2" \
		>"$3" 2>&1 <<'EOF' &
import socket
import struct
import sys
import time

import iwcm

addr, port, pdata, case = (sys.argv[1], int(sys.argv[2]),
                           sys.argv[3].encode(), sys.argv[4])
go = '/tmp/53-%s-go' % case


def tw_close(s):
    """our FIN, then (once the test lost our next ACK) the peer's; its TCP
    must get to CLOSED without an error, having sent the FIN again"""
    rest = iwcm.read_to_end(s)
    if rest:
        sys.exit('%d bytes before the FIN: %s' % (len(rest), rest.hex()))
    print('FIN', flush=True)
    iwcm.wait_file(go, 'the test', 60)
    t0 = time.time()
    s.shutdown(socket.SHUT_WR)
    print('our FIN sent', flush=True)
    # struct tcp_info: tcpi_state first, tcpi_total_retrans at 100
    while time.time() - t0 < 120:
        info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
        if info[0] == 7:
            break
        time.sleep(0.1)
    err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
    resent = struct.unpack_from('=I', info, 100)[0]
    print('TCP state', info[0], 'error', err, 'segments sent again', resent,
          flush=True)
    if info[0] != 7 or err:
        sys.exit('not closed cleanly: state %d, error %d' % (info[0], err))
    if resent < 1:
        sys.exit('the FIN was not sent again: nothing tested')
    print('closed', flush=True)
s, crc = iwcm.peer_open(addr, port, pdata)
if case == 'write':
    # tagged, last, DDP 1; RDMAP 1, WRITE; STag, TO; 8 bytes
    ulpdu = (bytes([0xc1, 0x40]) + struct.pack('>IQ', 0x12345678, 0x1000) +
             b'terminat')
    s.sendall(iwcm.mpa_fpdu(ulpdu, crc))
    print('WRITE to STag 0x12345678 sent', flush=True)
    t = iwcm.read_fpdu(s, crc)
    print('FPDU', t.hex(), flush=True)
    if len(t) < 22 or t[0] != 0x41 or t[1] != 0x47:
        sys.exit('not an untagged last TERMINATE: %s' % t.hex())
    if struct.unpack('>III', t[6:18]) != (2, 1, 0):
        sys.exit('queue, MSN, MO %s' % (struct.unpack('>III', t[6:18]),))
    if t[18:22] != bytes([0x11, 0x00, 0xc0, 0x00]):
        sys.exit('TERMINATE control %s' % t[18:22].hex())
    if t[22:] != struct.pack('>H', len(ulpdu)) + ulpdu[:14]:
        sys.exit('terminated headers %s' % t[22:].hex())
    print('TERMINATE: DDP tagged buffer error, invalid STag, with the '
          'WRITE\'s length and DDP header', flush=True)
elif case == 'local':
    iwcm.send_rtr(s, crc)
    t = iwcm.read_fpdu(s, crc)
    print('FPDU', t.hex(), flush=True)
    if len(t) != 22 or t[0] != 0x41 or t[1] != 0x47:
        sys.exit('not an untagged last TERMINATE alone: %s' % t.hex())
    if struct.unpack('>III', t[6:18]) != (2, 1, 0):
        sys.exit('queue, MSN, MO %s' % (struct.unpack('>III', t[6:18]),))
    if t[18:22] != bytes(4):
        sys.exit('TERMINATE control %s' % t[18:22].hex())
    print('TERMINATE: RDMAP, local catastrophic error, no headers',
          flush=True)
elif case == 'closing':
    iwcm.send_rtr(s, crc)
    # untagged, last; READ request; queue 1, MSN 1, MO 0; sink STag and
    # TO, size, source STag and TO
    t = iwcm.read_fpdu(s, crc)
    if (len(t) != 46 or t[:2] != bytes([0x41, 0x41]) or
            struct.unpack('>III', t[6:18]) != (1, 1, 0)):
        sys.exit('not a READ request: %s' % t.hex())
    sink, sink_to, size, src, src_to = struct.unpack('>IQIIQ', t[18:46])
    if (size, src, src_to) != (16, 0x5eed, 0x2000):
        sys.exit('READ request for %d bytes at %x, TO %x' % (size, src,
                                                              src_to))
    print('READ request for 16 bytes', flush=True)
    iwcm.wait_file(go, 'the server')
    # tagged, last; READ response to the sink
    s.sendall(iwcm.mpa_fpdu(bytes([0xc1, 0x42]) +
                            struct.pack('>IQ', sink, sink_to) +
                            b'closing-readresp', crc))
    print('READ response sent', flush=True)
    buf = b''
    t0 = time.time()
    s.settimeout(1)
    while time.time() - t0 < 300:
        try:
            d = s.recv(4096)
        except socket.timeout:
            continue
        except ConnectionResetError:
            if buf:
                sys.exit('%d bytes before the RST: %s' % (len(buf),
                                                          buf.hex()))
            print('RST, with nothing before it', flush=True)
            sys.exit(0)
        if not d:
            sys.exit('a FIN after %d bytes, not an RST: %s' % (len(buf),
                                                               buf.hex()))
        buf += d
    sys.exit('neither an RST nor a FIN within 300 s')
elif case == 'tw':
    iwcm.send_rtr(s, crc)
    tw_close(s)
    sys.exit(0)
else:
    # untagged, last; TERMINATE; queue 2, MSN 1, MO 0; RDMAP remote
    # operation error, unexpected opcode, no headers
    ulpdu = (bytes([0x41, 0x47]) + struct.pack('>IIII', 0, 2, 1, 0) +
             bytes([0x02, 0x06, 0x00, 0x00]))
    s.sendall(iwcm.mpa_fpdu(ulpdu, crc))
    print('TERMINATE sent', flush=True)
rest = iwcm.read_to_end(s)
if rest:
    sys.exit('%d bytes more before the FIN: %s' % (len(rest), rest.hex()))
print('FIN', flush=True)
s.close()
EOF
	ppid_=$!
}

# case $1 on port $2; the server's QP must get async event $3 ($4: what
# the server posts)
terminate_case() {
	server "$2" "$3" "/tmp/53-$1-server.txt" "${4:-}"
	peer "$2" "$1" "/tmp/53-$1-peer.txt"
	mpa_case_done 53 "$1"
}

log_mark 53-iw-terminate
need_user librdmacm libirdma
load_irdma_sim
for f in ae.c qp.c cm_hw.c; do
	echo "file $f +p" >/sys/kernel/debug/dynamic_debug/control
done
sim_iwarp_pair_netns $ns
base=$(objects) || fail "no object counts in $state"
read -r qps0 stags0 _ <<<"$base"

step "a WRITE to a bad STag: our TERMINATE, then our FIN"
# IBV_EVENT_QP_ACCESS_ERR
terminate_case write 7053 3
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "1 0" ] || fail "TERMINATEs sent and received: $n, wanted 1 0"

step "the peer's TERMINATE: reported, answered with our FIN"
# IBV_EVENT_QP_FATAL
terminate_case term 7054 1
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "1 1" ] || fail "TERMINATEs sent and received: $n, wanted 1 1"
line=$(log_since | grep -m1 'TERMINATE from the peer') ||
	fail "the peer's TERMINATE is not in the kernel log"
[[ $line == *"layer 0, type 2, code 0x06"* ]] ||
	fail "the peer's TERMINATE misread: $line"
echo "log: $line"

step "our own WQE's bad local key: a TERMINATE naming a local error, our FIN"
# IBV_EVENT_QP_ACCESS_ERR
terminate_case local 7056 3 badkey
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "2 1" ] || fail "TERMINATEs sent and received: $n, wanted 2 1"

step "a WQE that fails while our close waits behind it: an RST at once"
declare -A cnt
port_counters "$(ibdev_of 0)"
ct0=${cnt[cm_close_timeouts]:-x}
rm -f /tmp/53-closing-disc /tmp/53-closing-go
server 7057 3 /tmp/53-closing-server.txt readbad
peer 7057 closing /tmp/53-closing-peer.txt
wait_line 120 "READ request*" /tmp/53-closing-peer.txt ||
	fail "no READ request at the peer: $(</tmp/53-closing-peer.txt)"
touch /tmp/53-closing-disc
mpa_case_done 53 closing
port_counters "$(ibdev_of 0)"
[ "${cnt[cm_close_timeouts]:-y}" = "$ct0" ] ||
	fail "the close timer ended it: cm_close_timeouts $ct0 -> ${cnt[cm_close_timeouts]:-none}"
n=$(sim_counts 0 toe term_tx term_rx) || fail "no toe line in $state"
[ "$n" = "2 1" ] || fail "TERMINATEs sent and received: $n, wanted 2 1"

step "TIME_WAIT: the peer's FIN, sent again, acknowledged again"
rm -f /tmp/53-tw-go
server 7055 -1 /tmp/53-tw-server.txt
peer 7055 tw /tmp/53-tw-peer.txt
wait_line 120 FIN /tmp/53-tw-peer.txt ||
	fail "no FIN from the server: $(</tmp/53-tw-peer.txt)"
# the engine has nothing to acknowledge until the peer's FIN: lose that ACK
echo 1 >/sys/kernel/debug/irdma_sim/irdma_sim0/drop_toe_acks
touch /tmp/53-tw-go
mpa_case_done 53 tw
n=$(sim_counts 0 toe tw_acks) || fail "no toe line in $state"
[ "$n" -ge 1 ] || fail "TIME_WAIT answered $n segments"
echo "TIME_WAIT: $(grep -o 'tw=.*' $state)"
[ "$(</sys/kernel/debug/irdma_sim/irdma_sim0/drop_toe_acks)" = 0 ] ||
	fail "the ACK of the peer's FIN was not the one lost"

step "remove"
sim_pair_remove $ns
echo "TERMINATE: ours for the peer's bad STag, the peer's to our consumer,"
echo "ours for our own bad local key, each with our FIN; the same error while"
echo "closing aborted at once; TIME_WAIT answered"
echo "the peer's FIN sent again; nothing left behind"
