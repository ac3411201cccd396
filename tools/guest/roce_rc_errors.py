# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""RC between two RoCEv2 devices when the responder is not ready or refuses
(tools/tests/82-roce-wire.sh).

usage: roce_rc_errors.py DEV0 GID0 DEV1 GID1

One process opens both devices (shared RDMA namespace mode) and connects a
user RC QP on DEV0 (A) to one on DEV1 (B) by their GID indexes, path MTU
1024, retry count 7, RNR retry 7 (for ever):
  - RNR: A SENDs 5000 bytes (5 packets) before B posts a receive; B's
    engine answers with RNR NAKs, A's waits out each timer and sends again;
    once B posts its receive 0.3 s later both complete, data identical;
  - a READ of 6000 bytes (6 response packets), data identical;
  - remote access: A's RDMA WRITE names a key B does not have: B's engine
    answers with a remote access NAK, A's WQE completes with
    IBV_WC_REM_ACCESS_ERR (10); A's QP moved to error flushes what follows.
Prints what it saw; exits 1 at the first surprise.
"""
import ctypes
import errno
import mmap
import sys
import time

from verbs_client import (A_ACCESS, A_AV, A_DEST_QPN, A_MAX_DEST_RD, A_MAX_RD,
    A_MIN_RNR, A_MTU, A_PKEY, A_PORT, A_RETRY, A_RNR, A_RQ_PSN, A_SQ_PSN,
    A_STATE, A_TIMEOUT, AhAttr, buf_addr, check_wc, create_qp, die, expect,
    ibv, LOCAL_WRITE, modify, MTU_1024, open_verbs, poll, post_recv, post_send,
    QPS_ERR, QPS_INIT, QPS_RTR, QPS_RTS, query, REMOTE_READ, REMOTE_WRITE,
    SEND_SIGNALED, SendWr, Sge, WC_RDMA_READ, WC_RECV, WC_SEND, WC_WR_FLUSH_ERR,
    WR_RDMA_READ, WR_RDMA_WRITE, WR_SEND)

WC_REM_ACCESS_ERR = 10


def pattern(seed, n):
    return bytes((seed + i * 13) & 0xff for i in range(n))


def same(what, got, want):
    if got != want:
        die("%s: %d of %d bytes differ" %
            (what, sum(a != b for a, b in zip(got, want)), len(want)))
    print("%s: %d bytes match" % (what, len(want)))


class End:
    """one device's PD, CQ, QP and a registered buffer"""

    def __init__(self, name, gid_index):
        self.ctx = open_verbs(name)
        self.gid_index = gid_index
        self.gid = (ctypes.c_uint8 * 16)()
        self.pd = ibv.ibv_alloc_pd(self.ctx)
        if not self.pd or ibv.ibv_query_gid(self.ctx, 1, gid_index, self.gid):
            die("%s: PD or GID %d" % (name, gid_index))
        self.cq = ibv.ibv_create_cq(self.ctx, 32, None, None, 0)
        if not self.cq:
            die("create_cq: %s" % errno.errorcode.get(ctypes.get_errno()))
        self.qp, err, _ = create_qp(self.pd, self.cq)
        if not self.qp:
            die("create_qp: %s" % errno.errorcode.get(err))
        self.buf = mmap.mmap(-1, 1 << 15)
        self.mr = ibv.ibv_reg_mr(self.pd, buf_addr(self.buf), 1 << 15,
                                 LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ)
        if not self.mr:
            die("reg_mr: %s" % errno.errorcode.get(ctypes.get_errno()))
        self.addr = buf_addr(self.buf)
        self.num = self.qp.contents.qp_num

    def close(self):
        for what, ret in (("destroy QP", ibv.ibv_destroy_qp(self.qp)),
                          ("destroy CQ", ibv.ibv_destroy_cq(self.cq)),
                          ("dereg MR", ibv.ibv_dereg_mr(self.mr)),
                          ("dealloc PD", ibv.ibv_dealloc_pd(self.pd))):
            expect(what, ret, 0)
        ibv.ibv_close_device(self.ctx)


def connect(a, b):
    """A and B to RTS, each addressing the other's GID"""
    for me, peer in ((a, b), (b, a)):
        ret = modify(me.qp, A_STATE | A_PKEY | A_PORT | A_ACCESS,
                     qp_state=QPS_INIT, port_num=1,
                     qp_access_flags=LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ)
        expect("QP %u to INIT" % me.num, ret, 0)
        ah = AhAttr(is_global=1, port_num=1)
        ah.grh.dgid[:] = peer.gid[:]
        ah.grh.sgid_index = me.gid_index
        ah.grh.hop_limit = 64
        ret = modify(me.qp, A_STATE | A_AV | A_MTU | A_DEST_QPN | A_RQ_PSN |
                     A_MAX_DEST_RD | A_MIN_RNR, qp_state=QPS_RTR,
                     path_mtu=MTU_1024, dest_qp_num=peer.num, rq_psn=0xfffff0,
                     max_dest_rd_atomic=4, min_rnr_timer=12, ah=ah)
        expect("QP %u to RTR" % me.num, ret, 0)
    for me in (a, b):
        ret = modify(me.qp, A_STATE | A_TIMEOUT | A_RETRY | A_RNR | A_SQ_PSN |
                     A_MAX_RD, qp_state=QPS_RTS, timeout=14, retry_cnt=7,
                     rnr_retry=7, sq_psn=0xfffff0, max_rd_atomic=4)
        expect("QP %u to RTS" % me.num, ret, 0)


def send(qp_end, wr_id, opcode, off, length, **kw):
    sge = Sge(qp_end.addr + off, length, qp_end.mr.contents.lkey)
    post_send(qp_end.ctx, qp_end.qp,
              SendWr(wr_id=wr_id, sg_list=ctypes.pointer(sge), num_sge=1,
                     opcode=opcode, send_flags=SEND_SIGNALED, **kw))


def rnr(a, b):
    data = pattern(1, 5000)
    a.buf[0:5000] = data
    send(a, 1, WR_SEND, 0, 5000)
    time.sleep(0.3)
    post_recv(b.ctx, b.qp, 11, b.addr, 8192, b.mr.contents.lkey)
    check_wc(poll(a.ctx, a.cq, "SEND"), "SEND", 1, WC_SEND)
    check_wc(poll(b.ctx, b.cq, "RECV"), "RECV", 11, WC_RECV, 5000)
    same("SEND after RNR NAKs", b.buf[0:5000], data)


def read(a, b):
    data = pattern(2, 6000)
    b.buf[8192:14192] = data
    send(a, 2, WR_RDMA_READ, 16384, 6000, remote_addr=b.addr + 8192,
         rkey=b.mr.contents.rkey)
    check_wc(poll(a.ctx, a.cq, "READ"), "READ", 2, WC_RDMA_READ, 6000)
    same("RDMA READ of 6 packets", a.buf[16384:22384], data)


def bad_key(a, b):
    send(a, 3, WR_RDMA_WRITE, 0, 100, remote_addr=b.addr,
         rkey=b.mr.contents.rkey ^ 0x5a)
    wc = poll(a.ctx, a.cq, "WRITE to a bad key")
    if wc.wr_id != 3 or wc.status != WC_REM_ACCESS_ERR:
        die("WRITE to a bad key: wr_id %d status %d" % (wc.wr_id, wc.status))
    print("WRITE to a bad key: IBV_WC_REM_ACCESS_ERR")
    # the consumer moves the QP to error; what it posts then is flushed
    expect("QP %u to ERR" % a.num, modify(a.qp, A_STATE, qp_state=QPS_ERR), 0)
    send(a, 4, WR_SEND, 0, 64)
    wc = poll(a.ctx, a.cq, "SEND after the error")
    if wc.wr_id != 4 or wc.status != WC_WR_FLUSH_ERR:
        die("SEND after the error: wr_id %d status %d" % (wc.wr_id, wc.status))
    print("SEND after the error: flushed")


def main(argv):
    a = End(argv[1], int(argv[2]))
    b = End(argv[3], int(argv[4]))
    connect(a, b)
    if query(a.qp)[0].qp_state != QPS_RTS:
        die("QP %u not in RTS" % a.num)
    rnr(a, b)
    read(a, b)
    bad_key(a, b)
    a.close()
    b.close()
    print("done")


if __name__ == "__main__":
    main(sys.argv)
