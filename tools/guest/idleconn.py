# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Hold N idle rdma_cm connections open, for the benchmark's memory figure.

    idleconn.py server ADDR PORT N
    idleconn.py client ADDR PORT N GOFILE

The server accepts N connections, each on its own RC QP, and prints
"accepted N". The client prints "ready", waits until GOFILE exists, opens
N connections (synchronous rdma_cm ids: resolve, QP, connect) and prints
"connected N". Both then sleep until killed: nothing moves on the
connections, so what the kernel holds for them is what an idle connection
costs. Works for any RDMA device rdma_cm picks for ADDR (irdma, siw, rxe).
"""
import ctypes
import os
import socket
import sys
import time

import iwcm


def sockaddr(addr, port):
    """struct sockaddr_in for addr:port"""
    return iwcm.SockaddrIn(socket.AF_INET, socket.htons(port),
                           (ctypes.c_ubyte * 4)(*socket.inet_aton(addr)))


def qp_attr():
    """a small RC QP: the connection holds it, nothing is posted"""
    attr = iwcm.QpInitAttr()
    attr.max_send_wr = attr.max_recv_wr = 4
    attr.max_send_sge = attr.max_recv_sge = 1
    attr.qp_type = iwcm.IBV_QPT_RC
    return attr


def param():
    """rdma_conn_param with one outstanding read each way"""
    p = iwcm.ConnParam()
    p.responder_resources = p.initiator_depth = 1
    return p


def new_id(cm):
    """a synchronous rdma_cm id (no event channel)"""
    cid = ctypes.c_void_p()
    iwcm.check(cm.rdma_create_id(None, ctypes.byref(cid), None,
                                 iwcm.RDMA_PS_TCP), 'rdma_create_id')
    return cid


def open_conn(cm, cid, call, what):
    """give cid a small RC QP, then accept or connect it: call is
    cm.rdma_accept or cm.rdma_connect, what its name for errors"""
    attr = qp_attr()
    iwcm.check(cm.rdma_create_qp(cid, None, ctypes.byref(attr)),
               'rdma_create_qp')
    p = param()
    iwcm.check(call(cid, ctypes.byref(p)), what)
    return cid


def hold():
    """sleep until killed"""
    while True:
        time.sleep(60)


def server(cm, addr, port, n):
    """accept n connections on addr:port"""
    lid = new_id(cm)
    sa = sockaddr(addr, port)
    iwcm.check(cm.rdma_bind_addr(lid, ctypes.byref(sa)), 'rdma_bind_addr')
    iwcm.check(cm.rdma_listen(lid, 128), 'rdma_listen')
    print('listening', flush=True)
    ids = []
    for _ in range(n):
        cid = ctypes.c_void_p()
        iwcm.check(cm.rdma_get_request(lid, ctypes.byref(cid)),
                   'rdma_get_request')
        ids.append(open_conn(cm, cid, cm.rdma_accept, 'rdma_accept'))
    print('accepted', len(ids), flush=True)
    hold()


def client(cm, addr, port, n, gofile):
    """open n connections to addr:port once gofile exists"""
    print('ready', flush=True)
    while not os.path.exists(gofile):
        time.sleep(0.2)
    dst = sockaddr(addr, port)
    ids = []
    for _ in range(n):
        cid = new_id(cm)
        iwcm.check(cm.rdma_resolve_addr(cid, None, ctypes.byref(dst), 5000),
                   'rdma_resolve_addr')
        iwcm.check(cm.rdma_resolve_route(cid, 5000), 'rdma_resolve_route')
        ids.append(open_conn(cm, cid, cm.rdma_connect, 'rdma_connect'))
    print('connected', len(ids), flush=True)
    hold()


def main():
    """server or client, as the arguments say"""
    cm = iwcm.librdmacm()
    role, addr, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        int(sys.argv[4])
    if role == 'server':
        server(cm, addr, port, n)
    elif role == 'client':
        client(cm, addr, port, n, sys.argv[5])
    else:
        sys.exit('usage: idleconn.py server|client ADDR PORT N [GOFILE]')


if __name__ == '__main__':
    main()
