#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 900
#
# The CM's segments on the wire through the ILQ. Function 0 listens with
# rdma_cm (librdmacm); function 1's netdev sits in its own network namespace,
# where an ordinary kernel TCP socket plays the peer: its SYN is steered
# to function 0's ILQ, the CM answers through the ILQ (SYN-ACK built by the
# engine from the connection's AH and ARP entry), the socket sends an MPA
# v2 request, the listener gets the connect request and rejects it with
# private data, and the socket receives the MPA reject (key, R bit, v2,
# IRD/ORD block, our private data) and the close. The simulator's ILQ
# counters must have moved, and once the connection is gone no filter,
# port or AH is left in the engine.
#
# Loops use shell builtins: under TCG every exec from the 9p root costs
# seconds.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim
ns=ilqpeer
port=7041
pdata=ilq-reject-41

step() {
	echo "41-cm-ilq: $*" >/dev/kmsg
	echo "$*"
}

# "qhash apbvt ahs" of function $1's engine
objects() {
	sim_counts "$1" objects qhash apbvt_ports ahs
}

# "tx rx steered dropped" of function $1's ILQ
ilq_counters() {
	sim_counts "$1" ilq tx rx steered dropped
}

# wait (60 s) until function $1 shows "qhash apbvt ahs" = $2
wait_objects() {
	sim_wait_counts 60 "$2" "$1" objects qhash apbvt_ports ahs
}

cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	ip netns del $ns 2>/dev/null
	return 0
}
trap cleanup EXIT

log_mark 41-cm-ilq
[ -e /usr/lib/x86_64-linux-gnu/librdmacm.so.1 ] ||
	skip "librdmacm (librdmacm1) is not installed"
load_stack || fail "cannot load the RDMA stack"
kmod irdma || fail "cannot load irdma"
kmod irdma_sim || fail "cannot load irdma_sim"
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
ip netns add $ns || fail "create namespace $ns"
ip link set isim1 netns $ns || fail "move isim1 to $ns"
ip -n $ns link set lo up || fail "lo up in $ns"
ip -n $ns link set isim1 up || fail "isim1 up in $ns"
ip -n $ns addr add 192.0.2.2/24 dev isim1 || fail "IPv4 on isim1 in $ns"
c=$(ilq_counters 0) || fail "no ILQ counters in $dbg/irdma_sim0/state"
read -r tx0 rx0 st0 _ <<<"$c"

step "rdma_cm listen on 192.0.2.1:$port"
# librdmacm through ctypes: importing pyverbs takes minutes under TCG
python3 -u - 192.0.2.1 $port $pdata >/tmp/ilq-listen.txt 2>&1 <<'EOF' &
import ctypes
import os
import socket
import sys

RDMA_PS_TCP = 0x0106
addr, port, pdata = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
cm = ctypes.CDLL('librdmacm.so.1', use_errno=True)


class SockaddrIn(ctypes.Structure):
    _fields_ = [('family', ctypes.c_ushort), ('port', ctypes.c_uint16),
                ('addr', ctypes.c_ubyte * 4), ('zero', ctypes.c_ubyte * 8)]


def check(rc, what):
    if rc:
        sys.exit('%s: %s' % (what, os.strerror(ctypes.get_errno())))


lid = ctypes.c_void_p()
cid = ctypes.c_void_p()
# no event channel: a synchronous id, for rdma_get_request()
check(cm.rdma_create_id(None, ctypes.byref(lid), None, RDMA_PS_TCP),
      'rdma_create_id')
sa = SockaddrIn(socket.AF_INET, socket.htons(port),
                (ctypes.c_ubyte * 4)(*socket.inet_aton(addr)))
check(cm.rdma_bind_addr(lid, ctypes.byref(sa)), 'rdma_bind_addr')
check(cm.rdma_listen(lid, 4), 'rdma_listen')
print('listening', flush=True)
check(cm.rdma_get_request(lid, ctypes.byref(cid)), 'rdma_get_request')
print('connect request', flush=True)
check(cm.rdma_reject(cid, pdata, ctypes.c_uint8(len(pdata))), 'rdma_reject')
print('rejected', flush=True)
check(cm.rdma_destroy_id(cid), 'rdma_destroy_id (request)')
check(cm.rdma_destroy_id(lid), 'rdma_destroy_id (listen)')
EOF
lpid=$!
wait_objects 0 "1 1 0"

step "a kernel TCP socket in $ns sends an MPA v2 request"
ip netns exec $ns python3 -u - 192.0.2.1 $port $pdata \
	>/tmp/ilq-peer.txt 2>&1 <<'EOF'
import socket
import struct
import sys

addr, port, pdata = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
ulp = b'hello'
# RFC 6581: C and S flags, rev 2, IRD 16 with A (p2p), ORD 16 with D (read)
req = (b'MPA ID Req Frame' + bytes([0x50, 2]) +
       struct.pack('>HHH', 4 + len(ulp), 0x8010, 0x4010) + ulp)
s = socket.create_connection((addr, port), timeout=120)
print('connected', flush=True)
s.sendall(req)
buf = b''
try:
    while True:
        d = s.recv(4096)
        if not d:
            break
        buf += d
except ConnectionResetError:
    print('reset after', len(buf), 'bytes', flush=True)
print('reply', buf.hex(), flush=True)
if len(buf) < 20:
    sys.exit('no MPA reply')
if buf[:16] != b'MPA ID Rep Frame':
    sys.exit('not an MPA reply key')
if not buf[16] & 0x20:
    sys.exit('reject bit not set: flags 0x%02x' % buf[16])
if not buf[16] & 0x10 or buf[17] != 2:
    sys.exit('not an enhanced v2 reply: flags 0x%02x rev %d' % (buf[16], buf[17]))
pdlen = struct.unpack('>H', buf[18:20])[0]
if pdlen != 4 + len(pdata) or len(buf) < 20 + pdlen:
    sys.exit('private data length %d, %d bytes' % (pdlen, len(buf)))
if buf[24:20 + pdlen] != pdata:
    sys.exit('private data %r' % buf[24:20 + pdlen])
print('MPA reject received', flush=True)
EOF
rc=$?
echo "peer: $(</tmp/ilq-peer.txt)"
[ $rc -eq 0 ] || fail "peer (exit $rc): $(</tmp/ilq-peer.txt); listener: $(</tmp/ilq-listen.txt)"
wait "$lpid"
rc=$?
lpid=
echo "listener: $(</tmp/ilq-listen.txt)"
[ $rc -eq 0 ] || fail "listener exited $rc: $(</tmp/ilq-listen.txt)"

step "ILQ counters and what is left"
c=$(ilq_counters 0) || fail "no ILQ counters in $dbg/irdma_sim0/state"
read -r tx rx st dr <<<"$c"
echo "function 0 ILQ: tx $tx0 -> $tx, rx $rx0 -> $rx, steered $st0 -> $st, dropped $dr"
# at least the SYN-ACK and the MPA reject went out; the SYN, the ACK and
# the MPA request came in
((tx >= tx0 + 2)) || fail "ILQ sends: $tx0 -> $tx"
((rx >= rx0 + 3)) || fail "ILQ receives: $rx0 -> $rx"
((st >= st0 + 3)) || fail "steered frames: $st0 -> $st"
# the connection closes: its 4-tuple filter and AH go, then the listen's
wait_objects 0 "0 0 0"

step "remove"
ip -n $ns link set isim1 netns 1 || fail "move isim1 back"
ip netns del $ns || fail "delete namespace $ns"
echo 1 >$bus/del_device || fail "delete 1"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
echo "a kernel TCP peer in another namespace connected to an rdma_cm listener through the ILQ and got its MPA reject; nothing left behind"
