# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Both ends of an iWARP connection for the guest scripts.

The rdma_cm side goes through librdmacm with ctypes: importing pyverbs
takes minutes under TCG. The peer side is an ordinary kernel TCP socket
that speaks MPA v2 (RFC 5044, RFC 6581) itself, so that the bytes our CM
and the engine put on the wire are checked by something that is not our
code. Scripts import this with PYTHONPATH=$IRDMA_REPO/tools/guest.
"""
import ctypes
import os
import select
import socket
import struct
import sys
import time

RDMA_PS_TCP = 0x0106
IBV_QPT_RC = 2
RDMA_CM_EVENT_ADDR_RESOLVED = 0
RDMA_CM_EVENT_ROUTE_RESOLVED = 2
RDMA_CM_EVENT_ESTABLISHED = 9
RDMA_CM_EVENT_DISCONNECTED = 10

MPA_REQ_KEY = b'MPA ID Req Frame'
MPA_REP_KEY = b'MPA ID Rep Frame'
MPA_FLAG_REJECT = 0x20
MPA_FLAG_CRC = 0x40
MPA_FLAG_MARKERS = 0x80
MPA_FLAG_ENHANCED = 0x10
MPA_REV2 = 2
MPA_HDR = 20
MPA_V2_IRD_ORD = 4


class SockaddrIn(ctypes.Structure):
    """struct sockaddr_in"""
    _fields_ = [('family', ctypes.c_ushort), ('port', ctypes.c_uint16),
                ('addr', ctypes.c_ubyte * 4), ('zero', ctypes.c_ubyte * 8)]


class QpInitAttr(ctypes.Structure):
    """struct ibv_qp_init_attr"""
    _fields_ = [('qp_context', ctypes.c_void_p),
                ('send_cq', ctypes.c_void_p), ('recv_cq', ctypes.c_void_p),
                ('srq', ctypes.c_void_p),
                ('max_send_wr', ctypes.c_uint32),
                ('max_recv_wr', ctypes.c_uint32),
                ('max_send_sge', ctypes.c_uint32),
                ('max_recv_sge', ctypes.c_uint32),
                ('max_inline_data', ctypes.c_uint32),
                ('qp_type', ctypes.c_int), ('sq_sig_all', ctypes.c_int)]


class ConnParam(ctypes.Structure):
    """struct rdma_conn_param"""
    _fields_ = [('private_data', ctypes.c_char_p),
                ('private_data_len', ctypes.c_uint8),
                ('responder_resources', ctypes.c_uint8),
                ('initiator_depth', ctypes.c_uint8),
                ('flow_control', ctypes.c_uint8),
                ('retry_count', ctypes.c_uint8),
                ('rnr_retry_count', ctypes.c_uint8),
                ('srq', ctypes.c_uint8), ('qp_num', ctypes.c_uint32)]


class CmEvent(ctypes.Structure):
    """the head of struct rdma_cm_event"""
    _fields_ = [('id', ctypes.c_void_p), ('listen_id', ctypes.c_void_p),
                ('event', ctypes.c_int), ('status', ctypes.c_int)]


class Sge(ctypes.Structure):
    """struct ibv_sge"""
    _fields_ = [('addr', ctypes.c_uint64), ('length', ctypes.c_uint32),
                ('lkey', ctypes.c_uint32)]


class SendWr(ctypes.Structure):
    """struct ibv_send_wr, up to its opcode and flags (the rest zero)"""
    _fields_ = [('wr_id', ctypes.c_uint64), ('next', ctypes.c_void_p),
                ('sg_list', ctypes.POINTER(Sge)), ('num_sge', ctypes.c_int),
                ('opcode', ctypes.c_int), ('send_flags', ctypes.c_uint),
                ('rest', ctypes.c_uint8 * 100)]


# entries of struct ibv_context_ops (after the device pointer) for the
# verbs libibverbs inlines
OPS_POLL_CQ = 11
OPS_POST_SEND = 25


def context_op(verbs, entry, *argtypes):
    """the provider's function at entry of the ops of context verbs"""
    return ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(
        ctypes.c_void_p.from_address(verbs + 8 + 8 * entry).value)


def post_send(verbs, qp, wr, what):
    """post wr on qp through the provider's post_send; exit on failure"""
    post = context_op(verbs, OPS_POST_SEND, ctypes.c_void_p, ctypes.c_void_p,
                      ctypes.c_void_p)
    bad = ctypes.c_void_p()
    check(post(qp, ctypes.byref(wr), ctypes.byref(bad)), 'post_send')
    print(what, 'posted', flush=True)


def librdmacm():
    """librdmacm, with the prototypes ctypes cannot guess"""
    cm = ctypes.CDLL('librdmacm.so.1', use_errno=True)
    cm.rdma_get_cm_event.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    cm.rdma_ack_cm_event.argtypes = [ctypes.c_void_p]
    cm.rdma_create_event_channel.restype = ctypes.c_void_p
    return cm


def check(rc, what):
    """exit with the errno of a librdmacm call that failed"""
    if rc:
        sys.exit('%s: %s' % (what, os.strerror(ctypes.get_errno())))


def listen_sync(cm, addr, port):
    """a synchronous rdma_cm id listening on addr:port (IPv4)"""
    lid = ctypes.c_void_p()
    check(cm.rdma_create_id(None, ctypes.byref(lid), None, RDMA_PS_TCP),
          'rdma_create_id')
    sa = SockaddrIn(socket.AF_INET, socket.htons(port),
                    (ctypes.c_ubyte * 4)(*socket.inet_aton(addr)))
    check(cm.rdma_bind_addr(lid, ctypes.byref(sa)), 'rdma_bind_addr')
    check(cm.rdma_listen(lid, 4), 'rdma_listen')
    print('listening', flush=True)
    return lid


def get_request(cm, lid):
    """wait for the next connect request on a synchronous listen id"""
    cid = ctypes.c_void_p()
    check(cm.rdma_get_request(lid, ctypes.byref(cid)), 'rdma_get_request')
    print('connect request', flush=True)
    return cid


def wait_event(cm, ch, want, what, patience=120, want_status=0):
    """Take the next event of event channel ch (a pointer from
    rdma_create_event_channel) and ack it; exit unless it came within
    patience seconds of what, is want and has status want_status."""
    fd = ctypes.c_int.from_address(ch).value
    if not select.select([fd], [], [], patience)[0]:
        sys.exit('no event within %d s of %s' % (patience, what))
    ev = ctypes.c_void_p()
    check(cm.rdma_get_cm_event(ctypes.c_void_p(ch), ctypes.byref(ev)),
          'rdma_get_cm_event')
    e = CmEvent.from_address(ev.value)
    kind, status = e.event, e.status
    cm.rdma_ack_cm_event(ev)
    print('event', kind, 'status', status, flush=True)
    if kind != want or status != want_status:
        sys.exit('after %s: wanted event %d status %d, got %d status %d' %
                 (what, want, want_status, kind, status))


def reject_one(addr, port, pdata):
    """Listen on addr:port (synchronous ids), reject the first connect
    request with private data pdata, print "rejected" and destroy both
    ids; exit on any error."""
    cm = librdmacm()
    lid = listen_sync(cm, addr, port)
    cid = get_request(cm, lid)
    check(cm.rdma_reject(cid, pdata, ctypes.c_uint8(len(pdata))),
          'rdma_reject')
    print('rejected', flush=True)
    check(cm.rdma_destroy_id(cid), 'rdma_destroy_id (request)')
    check(cm.rdma_destroy_id(lid), 'rdma_destroy_id (listen)')


def accept_user_qp(cm, addr, port, pdata):
    """Listen on addr:port with a synchronous id (rdma_get_request()
    waits), move the first connect request's id to an event channel of its
    own (so that its events can be checked), give it a user RC QP on the
    id's default PD (CQs librdmacm creates, libirdma's rings) and accept
    with private data pdata, IRD and ORD 1; exit unless
    RDMA_CM_EVENT_ESTABLISHED comes. Returns the listen id, the
    connection's id and its event channel."""
    lid = listen_sync(cm, addr, port)
    cid = get_request(cm, lid)
    ch = cm.rdma_create_event_channel()
    if not ch:
        sys.exit('rdma_create_event_channel failed')
    check(cm.rdma_migrate_id(cid, ctypes.c_void_p(ch)), 'rdma_migrate_id')
    attr = QpInitAttr(max_send_wr=8, max_recv_wr=8, max_send_sge=1,
                      max_recv_sge=1, qp_type=IBV_QPT_RC)
    check(cm.rdma_create_qp(cid, None, ctypes.byref(attr)), 'rdma_create_qp')
    print('user QP created', flush=True)
    param = ConnParam(private_data=pdata, private_data_len=len(pdata),
                      responder_resources=1, initiator_depth=1)
    check(cm.rdma_accept(cid, ctypes.byref(param)), 'rdma_accept')
    wait_event(cm, ch, RDMA_CM_EVENT_ESTABLISHED, 'rdma_accept')
    print('accepted', flush=True)
    return lid, cid, ch


def destroy_accepted(cm, lid, cid, ch):
    """destroy what accept_user_qp() made, and print "done\""""
    cm.rdma_destroy_qp(cid)
    check(cm.rdma_destroy_id(cid), 'rdma_destroy_id (connection)')
    check(cm.rdma_destroy_id(lid), 'rdma_destroy_id (listen)')
    cm.rdma_destroy_event_channel(ctypes.c_void_p(ch))
    print('done', flush=True)


def mpa_v2_request(ulp):
    """An enhanced MPA v2 request with CRC and private data ulp: IRD 16
    with the peer-to-peer bit, ORD 16 with RDMA read as the RTR."""
    return (MPA_REQ_KEY + bytes([MPA_FLAG_CRC | MPA_FLAG_ENHANCED, MPA_REV2]) +
            struct.pack('>HHH', MPA_V2_IRD_ORD + len(ulp), 0x8010, 0x4010) +
            ulp)


def peer_exchange(addr, port, want, patience=600):
    """Connect a kernel TCP socket, send an MPA v2 request and read until
    want bytes came, the connection closed or was reset, or patience
    seconds passed. Returns what was read."""
    s = socket.create_connection((addr, port), timeout=120)
    print('connected', flush=True)
    s.sendall(mpa_v2_request(b'hello'))
    s.settimeout(1)
    buf = b''
    t0 = time.time()
    while len(buf) < want and time.time() - t0 < patience:
        try:
            d = s.recv(4096)
        except socket.timeout:
            continue
        except ConnectionResetError:
            print('reset after', len(buf), 'bytes', flush=True)
            break
        if not d:
            break
        buf += d
    print('reply', buf.hex(), flush=True)
    return buf


def id_verbs_qp(cid):
    """the verbs context and the QP of rdma_cm id cid (struct rdma_cm_id:
    the context first, the QP the fourth pointer)"""
    return (ctypes.c_void_p.from_address(cid.value).value,
            ctypes.c_void_p.from_address(cid.value + 24).value)


def post_read(ibv, verbs, qp, size, wr_id, stag, to):
    """a signaled RDMA READ of size bytes from the peer's stag at to, into
    a new MR of the QP's PD (struct ibv_qp: context, qp_context, pd) that
    the peer may write (iWARP's READ sink); returns the MR and its
    buffer"""
    pd = ctypes.c_void_p.from_address(qp + 16).value
    buf = ctypes.create_string_buffer(size)
    ibv.ibv_reg_mr.restype = ctypes.c_void_p
    # IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE
    mr = ibv.ibv_reg_mr(ctypes.c_void_p(pd), buf, size, 1 | 2)
    if not mr:
        sys.exit('ibv_reg_mr failed')
    # struct ibv_mr: context, pd, addr, length, handle, lkey
    sge = Sge(ctypes.addressof(buf), size,
              ctypes.c_uint32.from_address(mr + 36).value)
    wr = SendWr(wr_id=wr_id, sg_list=ctypes.pointer(sge), num_sge=1,
                opcode=4, send_flags=2)
    # after send_flags: imm_data, then wr.rdma: remote_addr, rkey
    struct.pack_into('<QI', wr.rest, 4, to, stag)
    post_send(verbs, qp, wr, 'RDMA READ of %d bytes' % size)
    return mr, buf


def peer_open(addr, port, pdata, nodelay=False):
    """the peer's side: connect to addr:port, send an MPA v2 request,
    check the accepting reply (private data pdata) and send RFC 6581's RTR
    (a zero-length RDMA WRITE to STag 1, TO 0). Returns the socket and
    whether the connection uses CRCs."""
    s = socket.create_connection((addr, port), timeout=120)
    if nodelay:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(mpa_v2_request(b'hello'))
    rep = recv_exact(s, MPA_HDR + MPA_V2_IRD_ORD + len(pdata))
    check_mpa_reply(rep, pdata, reject=False)
    crc = bool(rep[16] & MPA_FLAG_CRC)
    print('MPA reply, CRC', crc, flush=True)
    return s, crc


def send_rtr(s, crc):
    """RFC 6581's RTR: a zero-length RDMA WRITE to STag 1, TO 0"""
    s.sendall(mpa_fpdu(bytes([0xc1, 0x40]) + struct.pack('>IQ', 1, 0), crc))
    print('RTR sent', flush=True)


def check_mpa_reply(buf, pdata, reject):
    """exit unless buf starts with an enhanced MPA v2 reply carrying the
    v2 IRD/ORD block and pdata, with the reject bit as asked"""
    if len(buf) < MPA_HDR or buf[:16] != MPA_REP_KEY:
        sys.exit('no MPA reply')
    flags, rev = buf[16], buf[17]
    if bool(flags & MPA_FLAG_REJECT) != reject:
        sys.exit('reject bit %s: flags 0x%02x' %
                 ('not set' if reject else 'set', flags))
    if not flags & MPA_FLAG_ENHANCED or rev != MPA_REV2:
        sys.exit('not an enhanced v2 reply: flags 0x%02x rev %d' %
                 (flags, rev))
    pdlen = struct.unpack('>H', buf[18:MPA_HDR])[0]
    if pdlen != MPA_V2_IRD_ORD + len(pdata) or len(buf) < MPA_HDR + pdlen:
        sys.exit('private data length %d, %d bytes' % (pdlen, len(buf)))
    got = buf[MPA_HDR + MPA_V2_IRD_ORD:MPA_HDR + pdlen]
    if got != pdata:
        sys.exit('private data %r' % got)


def recv_exact(s, n, patience=300):
    """n bytes from socket s; exit if they do not come within patience
    seconds or the connection ends first"""
    buf = b''
    t0 = time.time()
    s.settimeout(1)
    while len(buf) < n:
        if time.time() - t0 > patience:
            sys.exit('%d of %d bytes within %d s' % (len(buf), n, patience))
        try:
            d = s.recv(n - len(buf))
        except socket.timeout:
            continue
        if not d:
            sys.exit('the connection ended after %d of %d bytes: %s' %
                     (len(buf), n, buf.hex()))
        buf += d
    return buf


def crc32c(data):
    """CRC32c (Castagnoli, RFC 3385), as MPA computes it"""
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1))
    return crc ^ 0xffffffff


def mpa_fpdu(ulpdu, crc):
    """ulpdu framed as an MPA FPDU (RFC 5044, markers off): its length, the
    pad to 4 bytes and the CRC32c (0 without CRC), least significant byte
    first, as siw and the engine send it"""
    body = struct.pack('>H', len(ulpdu)) + ulpdu
    body += bytes(-len(body) % 4)
    return body + struct.pack('<I', crc32c(body) if crc else 0)


def read_fpdu(s, crc):
    """the ULPDU of the next FPDU on socket s; exit on a bad CRC"""
    head = recv_exact(s, 2)
    ulen = struct.unpack('>H', head)[0]
    rest = recv_exact(s, ulen + (-(2 + ulen) % 4) + 4)
    body = head + rest[:-4]
    if crc and struct.unpack('<I', rest[-4:])[0] != crc32c(body):
        sys.exit('FPDU with a bad CRC: %s' % (head + rest).hex())
    return body[2:2 + ulen]


def wait_file(path, what, patience=120):
    """wait for path to exist, the word of another process of the test;
    exit unless it comes within patience seconds (what: from whom)"""
    t0 = time.time()
    while not os.path.exists(path):
        if time.time() - t0 > patience:
            sys.exit('no word from %s within %d s' % (what, patience))
        time.sleep(0.02)


def read_to_end(s, patience=300):
    """what socket s receives until the peer's FIN; exit on a reset or when
    no FIN comes within patience seconds"""
    buf = b''
    t0 = time.time()
    s.settimeout(1)
    while time.time() - t0 < patience:
        try:
            d = s.recv(4096)
        except socket.timeout:
            continue
        except ConnectionResetError:
            sys.exit('reset after %d more bytes: %s' % (len(buf), buf.hex()))
        if not d:
            return buf
        buf += d
    sys.exit('no FIN within %d s' % patience)


def wait_reset(s, patience):
    """seconds until the peer of socket s resets the connection, nothing
    arriving before; exit on data, a FIN, or no reset within patience"""
    t0 = time.time()
    s.settimeout(1)
    while time.time() - t0 < patience:
        try:
            d = s.recv(4096)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return time.time() - t0
        if not d:
            sys.exit('a FIN, not a reset, after %.0f s' % (time.time() - t0))
        sys.exit('%d bytes instead of a reset: %s' % (len(d), d.hex()))
    sys.exit('no reset within %d s' % patience)


def silent_responder(addr, port, count, patience):
    """a responder that never answers: take count connections on addr:port,
    read each one's MPA request, say nothing, and report each initiator's
    reset as it comes (seconds since its request)"""
    ls = socket.socket(socket.AF_INET6 if ':' in addr else socket.AF_INET)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(count)
    print('listening', flush=True)
    conns = {}
    for i in range(count):
        s, peer = ls.accept()
        head = recv_exact(s, MPA_HDR)
        if head[:16] != MPA_REQ_KEY:
            sys.exit('not an MPA request: %s' % head.hex())
        recv_exact(s, struct.unpack('>H', head[18:MPA_HDR])[0])
        print('request %d from port %d' % (i + 1, peer[1]), flush=True)
        s.setblocking(False)
        conns[s] = (peer[1], time.time())
    while conns:
        ready, _, _ = select.select(list(conns), [], [], patience)
        if not ready:
            sys.exit('no reset within %d s' % patience)
        for s in ready:
            port, t0 = conns.pop(s)
            try:
                d = s.recv(4096)
            except ConnectionResetError:
                print('reset from port %d after %.0f s' %
                      (port, time.time() - t0), flush=True)
                continue
            sys.exit('%s from port %d instead of a reset' %
                     ('%d bytes' % len(d) if d else 'a FIN', port))


def silent_initiator(addr, port, patience):
    """an initiator that never sends its MPA request: connect to addr:port
    and report when the responder gives up on it with a reset"""
    s = socket.create_connection((addr, port), timeout=120)
    print('connected', flush=True)
    print('reset after %.0f s' % wait_reset(s, patience), flush=True)


def accept_then_disconnect(addr, port, pdata, go):
    """accept_user_qp(), then once the file go exists (the shell has looked
    at the engine) rdma_disconnect() and wait for DISCONNECTED"""
    cm = librdmacm()
    lid, cid, ch = accept_user_qp(cm, addr, port, pdata)
    for _ in range(300):
        if os.path.exists(go):
            break
        time.sleep(0.5)
    else:
        sys.exit('no go from the shell')
    check(cm.rdma_disconnect(cid), 'rdma_disconnect')
    print('disconnect asked', flush=True)
    wait_event(cm, ch, RDMA_CM_EVENT_DISCONNECTED, 'rdma_disconnect')
    print('disconnected', flush=True)
    destroy_accepted(cm, lid, cid, ch)


def peer_expect_reply(addr, port, pdata, reject):
    """a kernel TCP socket sends an MPA v2 request with private data pdata
    and checks the reply: a reject (read everything until the CM closes
    the connection) or an accept (the connection held until the reply is
    complete)"""
    if reject:
        buf = peer_exchange(addr, port, 1 << 20, patience=120)
    else:
        buf = peer_exchange(addr, port, MPA_HDR + MPA_V2_IRD_ORD + len(pdata))
    check_mpa_reply(buf, pdata, reject=reject)
    print('MPA %s received' % ('reject' if reject else 'reply'), flush=True)


def main(argv):
    """python3 iwcm.py CASE ADDR PORT PDATA [GO]: the ends the CM scripts
    run (reject, accept, peer-reject, peer-accept)"""
    case, addr, port, pdata = argv[1], argv[2], int(argv[3]), argv[4].encode()
    if case == 'reject':
        reject_one(addr, port, pdata)
    elif case == 'accept':
        accept_then_disconnect(addr, port, pdata, argv[5])
    elif case in ('peer-reject', 'peer-accept'):
        peer_expect_reply(addr, port, pdata, case == 'peer-reject')
    else:
        sys.exit('unknown case ' + case)


if __name__ == '__main__':
    main(sys.argv)
