# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The rdma_cm server of tools/tests/53-iw-terminate.sh.

usage: terminate_server.py ADDR PORT PDATA WANT [badkey|readbad]

Accepts with a user QP (and posts a SEND with a bad local key for
"badkey"; for "readbad", an RDMA READ of 16 bytes and that SEND behind
it, rdma_disconnect() once /tmp/53-closing-disc exists, and
/tmp/53-closing-go for the peer once the engine's QP is closing), waits
for the QP's async event (it must be WANT; none if negative: then it
closes with rdma_disconnect()), then for DISCONNECTED, and destroys
everything.
"""
import ctypes
import re
import signal
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
