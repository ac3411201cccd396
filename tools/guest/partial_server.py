# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The rdma_cm server of tools/tests/58-iw-partial.sh.

usage: partial_server.py ADDR PORT PDATA CASE

Accepts with a user QP; case "data": an RDMA READ of 1800 bytes into a
sink the peer may write, its completion, the sink checked, then the
peer's WRITEs into it checked ("burst": 80 of them); then waits for
DISCONNECTED and destroys everything. Case "badcrc": just waits for
DISCONNECTED.
"""
import ctypes
import struct
import sys
import time

import iwcm
from iwcm import check


def pattern(n, seed):
    return bytes((seed + 7 * i) & 0xff for i in range(n))


def wait_bytes(buf, off, want, what, patience=120):
    t0 = time.time()
    while buf.raw[off:off + len(want)] != want:
        if time.time() - t0 > patience:
            sys.exit('%s: not placed within %d s: %s' %
                     (what, patience, buf.raw[off:off + len(want)].hex()))
        time.sleep(0.05)
    print(what, 'placed', flush=True)


addr, port, pdata, case = (sys.argv[1], int(sys.argv[2]),
                           sys.argv[3].encode(), sys.argv[4])
cm = iwcm.librdmacm()
ibv = ctypes.CDLL('libibverbs.so.1', use_errno=True)
lid, cid, ch = iwcm.accept_user_qp(cm, addr, port, pdata)
if case in ('data', 'burst'):
    verbs, qp = iwcm.id_verbs_qp(cid)
    # struct ibv_qp: context, qp_context, pd, send_cq
    scq = ctypes.c_void_p.from_address(qp + 24).value
    mr, sink = iwcm.post_read(ibv, verbs, qp, 1800, 7, 0x5eed, 0x2000)
    # ibv_poll_cq() is inline too
    poll = iwcm.context_op(verbs, iwcm.OPS_POLL_CQ, ctypes.c_void_p,
                           ctypes.c_int, ctypes.c_void_p)
    # struct ibv_wc: wr_id, status, opcode, vendor_err, byte_len, ...
    wc = ctypes.create_string_buffer(64)
    t0 = time.time()
    while True:
        n = poll(scq, 1, wc)
        if n < 0:
            sys.exit('poll_cq failed')
        if n:
            break
        if time.time() - t0 > 120:
            sys.exit('no completion of the READ within 120 s; sink %s' %
                     sink.raw[:64].hex())
        time.sleep(0.02)
    wr_id, status = struct.unpack_from('<Qi', wc.raw)
    if wr_id != 7 or status != 0:
        sys.exit('READ completed: wr_id %d status %d' % (wr_id, status))
    want = pattern(1000, 1) + pattern(800, 2)
    if sink.raw != want:
        diff = next(i for i in range(1800) if sink.raw[i] != want[i])
        sys.exit('READ placed wrong bytes from %d: %s' %
                 (diff, sink.raw[diff:diff + 32].hex()))
    print('READ complete, 1800 bytes as the peer sent them', flush=True)
if case == 'data':
    wait_bytes(sink, 0, pattern(200, 3), 'WRITE of 200 bytes')
    wait_bytes(sink, 200, pattern(300, 4), 'WRITE of 300 bytes')
elif case == 'burst':
    for k in range(80):
        wait_bytes(sink, 500 + 10 * k, pattern(10, 10 + k),
                   'WRITE %d of 80' % k, patience=300)
    open('/tmp/58-placed', 'w').close()
iwcm.wait_event(cm, ch, iwcm.RDMA_CM_EVENT_DISCONNECTED, 'the peer',
                patience=300)
print('disconnected', flush=True)
if case in ('data', 'burst'):
    check(ibv.ibv_dereg_mr(ctypes.c_void_p(mr)), 'ibv_dereg_mr')
iwcm.destroy_accepted(cm, lid, cid, ch)
