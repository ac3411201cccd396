# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The other process of the isolation scripts (64 to 67).

An attacker names objects that are not its own, another process's or a
kernel ULP's, to rdma_cm and the verbs, and each attempt must be refused
with an errno; a victim keeps objects whose destroy the engine fails.
Through Debian's librdmacm and libibverbs with ctypes (importing pyverbs
takes minutes under TCG). Every attempt prints one line,
"ATTEMPT <name>: <errno name or ok>", which the scripts check; nothing
here decides what the answer must be.

Usage: python3 isolation.py COMMAND ARGS... (see the commands below)
"""
import ctypes
import errno
import os
import select
import socket
import sys
import time

import iwcm
from verbs_client import AhAttr, QpAttr

RDMA_PS_TCP = 0x0106
EV_ADDR_RESOLVED, EV_ROUTE_RESOLVED = 0, 2
EV_CONNECT_REQUEST, EV_ESTABLISHED, EV_DISCONNECTED = 4, 9, 10
IBV_QPT_RC = 2
QPS_INIT, QPS_RTR, QPS_RTS = 1, 2, 3
A_STATE = 1
vp = ctypes.c_void_p


def report(name, err):
    """one attempt's outcome, for the script"""
    print('ATTEMPT %s: %s' % (name, errno.errorcode.get(err, err) if err
                               else 'ok'), flush=True)


def librdmacm():
    """librdmacm with every prototype used here"""
    cm = iwcm.librdmacm()
    for name, args in (('rdma_create_id', [vp, vp, vp, ctypes.c_int]),
                       ('rdma_destroy_id', [vp]),
                       ('rdma_resolve_addr', [vp, vp, vp, ctypes.c_int]),
                       ('rdma_resolve_route', [vp, ctypes.c_int]),
                       ('rdma_bind_addr', [vp, vp]),
                       ('rdma_listen', [vp, ctypes.c_int]),
                       ('rdma_get_request', [vp, vp]),
                       ('rdma_create_qp', [vp, vp, vp]),
                       ('rdma_destroy_qp', [vp]),
                       ('rdma_connect', [vp, vp]),
                       ('rdma_accept', [vp, vp]),
                       ('rdma_reject', [vp, vp, ctypes.c_uint8]),
                       ('rdma_disconnect', [vp]),
                       ('rdma_migrate_id', [vp, vp])):
        getattr(cm, name).argtypes = args
    cm.rdma_destroy_event_channel.argtypes = [vp]
    return cm


def libibverbs():
    """libibverbs with the prototypes used here"""
    ibv = ctypes.CDLL('libibverbs.so.1', use_errno=True)
    ibv.ibv_modify_qp.argtypes = [vp, ctypes.POINTER(QpAttr), ctypes.c_int]
    ibv.ibv_query_qp.argtypes = [vp, ctypes.POINTER(QpAttr), ctypes.c_int,
                                 vp]
    return ibv


def sockaddr(addr, port):
    """a struct sockaddr_in"""
    return iwcm.SockaddrIn(socket.AF_INET, socket.htons(port),
                           (ctypes.c_ubyte * 4)(*socket.inet_aton(addr)))


def errno_of(rc):
    """0 or the errno of a librdmacm call that returned rc"""
    return ctypes.get_errno() if rc else 0


def new_id(cm, ch=None):
    """an rdma_cm id: synchronous without an event channel ch"""
    cid = vp()
    iwcm.check(cm.rdma_create_id(ch, ctypes.byref(cid), None, RDMA_PS_TCP),
               'rdma_create_id')
    return cid


def resolve(cm, cid, addr, port, ch=None):
    """resolve addr:port (IPv4) on id cid, waiting on ch if it has one"""
    dst = sockaddr(addr, port)
    iwcm.check(cm.rdma_resolve_addr(cid, None, ctypes.byref(dst), 2000),
               'rdma_resolve_addr')
    if ch:
        iwcm.wait_event(cm, ch, EV_ADDR_RESOLVED, 'rdma_resolve_addr')
    iwcm.check(cm.rdma_resolve_route(cid, 2000), 'rdma_resolve_route')
    if ch:
        iwcm.wait_event(cm, ch, EV_ROUTE_RESOLVED, 'rdma_resolve_route')


def conn_param(qpn=0):
    """struct rdma_conn_param, IRD and ORD 1, naming QP qpn when the id
    has no QP of its own"""
    return iwcm.ConnParam(responder_resources=1, initiator_depth=1,
                          qp_num=qpn)


def user_qp(cm, cid):
    """a user RC QP on id cid (librdmacm moves it to INIT); its number"""
    attr = iwcm.QpInitAttr(max_send_wr=8, max_recv_wr=8, max_send_sge=1,
                           max_recv_sge=1, qp_type=IBV_QPT_RC)
    iwcm.check(cm.rdma_create_qp(cid, None, ctypes.byref(attr)),
               'rdma_create_qp')
    qp = iwcm.id_verbs_qp(cid)[1]
    # struct ibv_qp: six pointers, the handle, then the number
    return qp, ctypes.c_uint32.from_address(qp + 52).value


def try_connect(cm, name, addr, port, qpn):
    """rdma_connect() to addr:port naming QP qpn, synchronously: report
    what it returned"""
    cid = new_id(cm)
    resolve(cm, cid, addr, port)
    param = conn_param(qpn)
    report(name, errno_of(cm.rdma_connect(cid, ctypes.byref(param))))
    cm.rdma_destroy_id(cid)


def next_event(cm, ch, patience=120):
    """(kind, id) of the next event of channel ch, acked; exit if none
    comes within patience seconds"""
    fd = ctypes.c_int.from_address(ch).value
    if not select.select([fd], [], [], patience)[0]:
        sys.exit('no event within %d s' % patience)
    ev = vp()
    iwcm.check(cm.rdma_get_cm_event(vp(ch), ctypes.byref(ev)),
               'rdma_get_cm_event')
    e = iwcm.CmEvent.from_address(ev.value)
    kind, cid = e.event, e.id
    cm.rdma_ack_cm_event(ev)
    return kind, vp(cid)


def settle(cm, lch, ch, patience=120):
    """After an accept we refused: our client's CM tries once more with
    MPA v1, which the listener (channel lch) rejects; done when the
    client (channel ch) hears of its end."""
    fds = {ctypes.c_int.from_address(lch).value: lch,
           ctypes.c_int.from_address(ch).value: ch}
    t0 = time.time()
    while time.time() - t0 < patience:
        ready = select.select(list(fds), [], [], 1)[0]
        for fd in ready:
            kind, cid = next_event(cm, fds[fd])
            if fds[fd] == ch:
                print('client event', kind, flush=True)
                return
            if kind == EV_CONNECT_REQUEST:
                cm.rdma_reject(cid, None, 0)
                cm.rdma_destroy_id(cid)
    sys.exit('the client heard nothing within %d s' % patience)


def listen_async(cm, addr, port):
    """a listener on addr:port with an event channel of its own"""
    lch = cm.rdma_create_event_channel()
    if not lch:
        sys.exit('rdma_create_event_channel failed')
    lid = new_id(cm, vp(lch))
    sa = sockaddr(addr, port)
    iwcm.check(cm.rdma_bind_addr(lid, ctypes.byref(sa)), 'rdma_bind_addr')
    iwcm.check(cm.rdma_listen(lid, 4), 'rdma_listen')
    return lch, lid


def request(cm, lch):
    """the id of the next connect request on listener channel lch"""
    kind, cid = next_event(cm, lch)
    if kind != EV_CONNECT_REQUEST:
        sys.exit('listener: event %d, not a connect request' % kind)
    return cid


def own_client(cm, addr, port):
    """an id of our own on a channel of its own, with a user QP, whose
    connect to addr:port is under way; returns (channel, id, qp number)"""
    ch = cm.rdma_create_event_channel()
    if not ch:
        sys.exit('rdma_create_event_channel failed')
    cid = new_id(cm, vp(ch))
    resolve(cm, cid, addr, port, ch)
    qpn = user_qp(cm, cid)[1]
    param = conn_param()
    iwcm.check(cm.rdma_connect(cid, ctypes.byref(param)), 'rdma_connect')
    return ch, cid, qpn


def cmd_connect(addr, port, qpns):
    """connect: rdma_connect() to addr:port naming each QP of qpns"""
    cm = librdmacm()
    for qpn in qpns:
        try_connect(cm, 'connect-qp%d' % qpn, addr, port, qpn)


def cmd_accept(addr, port, qpns):
    """accept: a listener of ours on addr:port; for each QP of qpns, a
    client of ours connects and the listener accepts naming that QP. Then
    a connection of our own is accepted on a QP of ours, and a connect
    naming either of its QPs is tried: a QP with a connection."""
    cm = librdmacm()
    lch, lid = listen_async(cm, addr, port)
    for qpn in qpns:
        ch, cid, _ = own_client(cm, addr, port)
        req = request(cm, lch)
        param = conn_param(qpn)
        report('accept-qp%d' % qpn,
               errno_of(cm.rdma_accept(req, ctypes.byref(param))))
        cm.rdma_destroy_id(req)
        settle(cm, lch, ch)
        cm.rdma_destroy_id(cid)
        cm.rdma_destroy_event_channel(vp(ch))
    ch, cid, cqpn = own_client(cm, addr, port)
    req = request(cm, lch)
    sqpn = user_qp(cm, req)[1]
    param = conn_param()
    iwcm.check(cm.rdma_accept(req, ctypes.byref(param)), 'rdma_accept')
    iwcm.wait_event(cm, ch, EV_ESTABLISHED, 'our own connect')
    iwcm.wait_event(cm, lch, EV_ESTABLISHED, 'our own accept')
    print('own connection: QPs %d and %d' % (cqpn, sqpn), flush=True)
    # to a port nobody listens on: an open that got through would fail
    try_connect(cm, 'connect-own-busy-qp%d' % cqpn, addr, 9, cqpn)
    try_connect(cm, 'connect-own-busy-qp%d' % sqpn, addr, 9, sqpn)
    iwcm.check(cm.rdma_disconnect(cid), 'rdma_disconnect')
    iwcm.wait_event(cm, ch, EV_DISCONNECTED, 'rdma_disconnect')
    iwcm.wait_event(cm, lch, EV_DISCONNECTED, 'the peer\'s disconnect')
    cm.rdma_destroy_qp(cid)
    cm.rdma_destroy_qp(req)
    cm.rdma_destroy_id(cid)
    cm.rdma_destroy_id(req)
    cm.rdma_destroy_id(lid)
    cm.rdma_destroy_event_channel(vp(ch))
    cm.rdma_destroy_event_channel(vp(lch))
    print('done', flush=True)


def cmd_modify(addr):
    """modify: a user QP of ours, not connected, moved by plain
    ibv_modify_qp() to RTR and then to RTS; prints its number first"""
    cm = librdmacm()
    ibv = libibverbs()
    cid = new_id(cm)
    resolve(cm, cid, addr, 9)
    qp, qpn = user_qp(cm, cid)
    print('QP %d' % qpn, flush=True)
    for name, state in (('rtr', QPS_RTR), ('rts', QPS_RTS)):
        attr = QpAttr(qp_state=state)
        report('modify-%s' % name,
               ibv.ibv_modify_qp(vp(qp), ctypes.byref(attr), A_STATE))
    attr = QpAttr()
    iwcm.check(ibv.ibv_query_qp(vp(qp), ctypes.byref(attr), A_STATE,
                                ctypes.byref(iwcm.QpInitAttr())),
               'ibv_query_qp')
    print('QP %d state %d' % (qpn, attr.qp_state), flush=True)
    iwcm.wait_file(os.environ['ISO_GO'], 'the script', 300)
    cm.rdma_destroy_qp(cid)
    cm.rdma_destroy_id(cid)
    print('done', flush=True)


def open_verbs(ibv, name):
    """a verbs context of RDMA device name"""
    ibv.ibv_get_device_list.restype = ctypes.POINTER(vp)
    ibv.ibv_get_device_name.restype = ctypes.c_char_p
    ibv.ibv_get_device_name.argtypes = [vp]
    ibv.ibv_open_device.restype = vp
    ibv.ibv_open_device.argtypes = [vp]
    n = ctypes.c_int()
    lst = ibv.ibv_get_device_list(ctypes.byref(n))
    for i in range(n.value):
        if ibv.ibv_get_device_name(lst[i]).decode() == name:
            return ibv.ibv_open_device(lst[i])
    sys.exit('libibverbs does not list ' + name)


def cmd_ah(dev, first, count):
    """ah: on RoCEv2 device dev, count AHs from GID 0 to multicast
    destinations ff0e::first, ff0e::first+1, ..., each destroyed before
    the next is made (no neighbour needed: the next hop's MAC follows from
    the address); reports the first refusal, or ok"""
    ibv = libibverbs()
    ibv.ibv_alloc_pd.restype = vp
    ibv.ibv_alloc_pd.argtypes = [vp]
    ibv.ibv_create_ah.restype = vp
    ibv.ibv_create_ah.argtypes = [vp, ctypes.POINTER(AhAttr)]
    ibv.ibv_destroy_ah.argtypes = [vp]
    ctx = open_verbs(ibv, dev)
    pd = ibv.ibv_alloc_pd(ctx)
    if not ctx or not pd:
        sys.exit('context %s, PD %s' % (ctx, pd))
    err = 0
    t0 = time.time()
    for i in range(first, first + count):
        attr = AhAttr(is_global=1, port_num=1)
        attr.grh.dgid[:] = socket.inet_pton(socket.AF_INET6,
                                            'ff0e::%x:%x' % (i >> 16,
                                                             i & 0xffff))
        attr.grh.hop_limit = 64
        ah = ibv.ibv_create_ah(pd, ctypes.byref(attr))
        if not ah:
            err = ctypes.get_errno()
            print('AH %d of %d refused' % (i - first + 1, count), flush=True)
            break
        ret = ibv.ibv_destroy_ah(vp(ah))
        if ret:
            err = ret
            print('AH %d not destroyed' % (i - first + 1), flush=True)
            break
    print('%d AHs in %.1f s' % (i - first + 1, time.time() - t0), flush=True)
    report('ah-loop', err)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'connect':
        cmd_connect(args[0], int(args[1]), [int(q) for q in args[2:]])
    elif cmd == 'accept':
        cmd_accept(args[0], int(args[1]), [int(q) for q in args[2:]])
    elif cmd == 'modify':
        cmd_modify(args[0])
    elif cmd == 'ah':
        cmd_ah(args[0], int(args[1]), int(args[2]))
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main()
