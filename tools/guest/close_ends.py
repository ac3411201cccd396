# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Both ends of a librdmacm connection that wait for the shell
(tools/tests/45-iw-close.sh).

usage: close_ends.py server|client ADDR PORT

"server" accepts, "client" connects; each then waits for DISCONNECTED
(the client after rdma_disconnect() once /tmp/45-close.close exists) and
holds its QP until /tmp/45-close.go exists.
"""
import ctypes
import os
import socket
import sys
import time

import iwcm
from iwcm import check

role, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
cm = iwcm.librdmacm()
ch = cm.rdma_create_event_channel()
if not ch:
    sys.exit('rdma_create_event_channel failed')


def event(want, what):
    iwcm.wait_event(cm, ch, want, what)


def wait_file(path):
    for _ in range(600):
        if os.path.exists(path):
            return
        time.sleep(0.5)
    sys.exit('no %s from the shell' % path)


attr = iwcm.QpInitAttr(max_send_wr=8, max_recv_wr=8, max_send_sge=1,
                       max_recv_sge=1, qp_type=iwcm.IBV_QPT_RC)
param = iwcm.ConnParam(responder_resources=1, initiator_depth=1)
lid = None
if role == 'server':
    lid = iwcm.listen_sync(cm, addr, port)
    cid = iwcm.get_request(cm, lid)
    check(cm.rdma_migrate_id(cid, ctypes.c_void_p(ch)), 'rdma_migrate_id')
    check(cm.rdma_create_qp(cid, None, ctypes.byref(attr)), 'rdma_create_qp')
    check(cm.rdma_accept(cid, ctypes.byref(param)), 'rdma_accept')
else:
    cid = ctypes.c_void_p()
    check(cm.rdma_create_id(ctypes.c_void_p(ch), ctypes.byref(cid), None,
                            iwcm.RDMA_PS_TCP), 'rdma_create_id')
    sa = iwcm.SockaddrIn(socket.AF_INET, socket.htons(port),
                         (ctypes.c_ubyte * 4)(*socket.inet_aton(addr)))
    check(cm.rdma_resolve_addr(cid, None, ctypes.byref(sa), 10000),
          'rdma_resolve_addr')
    event(iwcm.RDMA_CM_EVENT_ADDR_RESOLVED, 'rdma_resolve_addr')
    check(cm.rdma_resolve_route(cid, 10000), 'rdma_resolve_route')
    event(iwcm.RDMA_CM_EVENT_ROUTE_RESOLVED, 'rdma_resolve_route')
    check(cm.rdma_create_qp(cid, None, ctypes.byref(attr)), 'rdma_create_qp')
    check(cm.rdma_connect(cid, ctypes.byref(param)), 'rdma_connect')
event(iwcm.RDMA_CM_EVENT_ESTABLISHED, 'the connect')
print('established', flush=True)
if role == 'client':
    wait_file('/tmp/45-close.close')
    check(cm.rdma_disconnect(cid), 'rdma_disconnect')
    print('disconnect asked', flush=True)
event(iwcm.RDMA_CM_EVENT_DISCONNECTED, 'the close')
print('disconnected', flush=True)
wait_file('/tmp/45-close.go')
cm.rdma_destroy_qp(cid)
check(cm.rdma_destroy_id(cid), 'rdma_destroy_id (connection)')
if lid:
    check(cm.rdma_destroy_id(lid), 'rdma_destroy_id (listen)')
cm.rdma_destroy_event_channel(ctypes.c_void_p(ch))
print('done', flush=True)
