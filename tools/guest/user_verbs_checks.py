# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""User CQs, QPs, AHs and multicast groups through Debian's libirdma and
the raw uverbs ABI (tools/tests/39-user-verbs.sh).

usage: user_verbs_checks.py ROCE_DEV IWARP_DEV UVERBS_DEV SIM_STATE
"""
import ctypes
import errno
import mmap
import os
import re
import struct
import sys
import time

from verbs_client import (A_ACCESS, A_AV, A_DEST_QPN, A_MAX_DEST_RD, A_MIN_RNR,
    A_MTU, A_PKEY, A_PORT, A_QKEY, A_RQ_PSN, A_SQ_PSN, A_STATE, AhAttr,
    buf_addr, check_wc, cmd, CMD_ALLOC_PD, CMD_CREATE_CQ, CMD_CREATE_QP,
    CMD_DEREG_MR, CMD_DESTROY_CQ, CMD_GET_CONTEXT, CMD_POLL_CQ, CMD_REG_MR,
    connect, create_qp, die, expect, GRH, ibv, LOCAL_WRITE, modify, MTU_1024,
    open_verbs, poll, post_recv, post_send, QpAttr, QpInitAttr, QPS_ERR,
    QPS_INIT, QPS_RESET, QPS_RTR, QPS_RTS, QPT_RC, QPT_UD, query, REMOTE_READ,
    REMOTE_WRITE, SEND_SIGNALED, SendWr, Sge, WC_GRH, WC_RDMA_READ,
    WC_RDMA_WRITE, WC_RECV, WC_SEND, WC_WITH_IMM, WC_WR_FLUSH_ERR,
    WR_RDMA_READ, WR_RDMA_WRITE, WR_SEND, WR_SEND_WITH_IMM)

roce, iw, uverbs, state = sys.argv[1:5]


def engine():
    """the engine's QPs and CQs: ({qp: fields}, [cq ids])"""
    qps, cqs = {}, []
    with open(state) as f:
        for line in f:
            m = re.match(r"qp (\d+): (.*)", line)
            if m:
                qps[int(m.group(1))] = dict(kv.split("=")
                                            for kv in m.group(2).split())
            m = re.match(r"cq (\d+):", line)
            if m and int(m.group(1)):
                cqs.append(int(m.group(1)))
            m = re.match(r"objects: .*stags=(\d+)", line)
            if m:
                stags = int(m.group(1))
    return qps, cqs, stags



def pattern(seed, n):
    return bytes((seed + i * 7) & 0xff for i in range(n))


def same(what, got, want):
    if got != want:
        i = next(i for i in range(len(want)) if got[i] != want[i])
        die("%s: byte %d is 0x%02x, expected 0x%02x" % (what, i, got[i],
                                                         want[i]))
    print("%s: %d bytes match" % (what, len(want)))


def data_path(ctx, qa, qb, cqa, cqb, ma, mb, bufa, bufb):
    pa, pb = buf_addr(bufa), buf_addr(bufb)
    # SEND: 1000 bytes from A land in B's receive buffer
    data = pattern(1, 1000)
    bufa[0:1000] = data
    post_recv(ctx, qb, 11, pb, 4096, mb.lkey)
    sge = Sge(pa, 1000, ma.lkey)
    post_send(ctx, qa, SendWr(wr_id=1, sg_list=ctypes.pointer(sge), num_sge=1,
                              opcode=WR_SEND, send_flags=SEND_SIGNALED))
    check_wc(poll(ctx, cqa, "SEND"), "SEND", 1, WC_SEND)
    check_wc(poll(ctx, cqb, "RECV"), "RECV", 11, WC_RECV, 1000)
    same("SEND", bufb[0:1000], data)
    # SEND with immediate: 2000 bytes and 0x12345678
    data = pattern(2, 2000)
    bufa[4096:6096] = data
    post_recv(ctx, qb, 12, pb + 4096, 4096, mb.lkey)
    sge = Sge(pa + 4096, 2000, ma.lkey)
    post_send(ctx, qa, SendWr(wr_id=2, sg_list=ctypes.pointer(sge), num_sge=1,
                              opcode=WR_SEND_WITH_IMM,
                              send_flags=SEND_SIGNALED,
                              imm_data=int.from_bytes(b"\x12\x34\x56\x78",
                                                      "little")))
    check_wc(poll(ctx, cqa, "SEND_IMM"), "SEND_IMM", 2, WC_SEND)
    wc = poll(ctx, cqb, "RECV_IMM")
    check_wc(wc, "RECV_IMM", 12, WC_RECV, 2000)
    imm = wc.imm_data.to_bytes(4, "little")
    if not wc.wc_flags & WC_WITH_IMM or imm != b"\x12\x34\x56\x78":
        die("RECV_IMM: flags 0x%x immediate %s" % (wc.wc_flags, imm.hex()))
    print("SEND with immediate: immediate %s" % imm.hex())
    same("SEND with immediate", bufb[4096:6096], data)
    # RDMA WRITE: 3000 bytes from A into B's buffer at +8192
    data = pattern(3, 3000)
    bufa[8192:11192] = data
    sge = Sge(pa + 8192, 3000, ma.lkey)
    post_send(ctx, qa, SendWr(wr_id=3, sg_list=ctypes.pointer(sge), num_sge=1,
                              opcode=WR_RDMA_WRITE, send_flags=SEND_SIGNALED,
                              remote_addr=pb + 8192 + 5, rkey=mb.rkey))
    check_wc(poll(ctx, cqa, "WRITE"), "WRITE", 3, WC_RDMA_WRITE)
    same("RDMA WRITE", bufb[8197:11197], data)
    # RDMA READ: 2500 bytes of B's buffer at +16384 into A's at +20000
    data = pattern(4, 2500)
    bufb[16384:18884] = data
    bufa[20000:22500] = bytes(2500)
    sge = Sge(pa + 20000, 2500, ma.lkey)
    post_send(ctx, qa, SendWr(wr_id=4, sg_list=ctypes.pointer(sge), num_sge=1,
                              opcode=WR_RDMA_READ, send_flags=SEND_SIGNALED,
                              remote_addr=pb + 16384, rkey=mb.rkey))
    check_wc(poll(ctx, cqa, "READ"), "READ", 4, WC_RDMA_READ, 2500)
    same("RDMA READ", bufa[20000:22500], data)


def flush_in_error(ctx, qp, cq, mr, buf):
    """WRs posted to a QP in ERR complete with IBV_WC_WR_FLUSH_ERR: libirdma
    asks the driver to flush again (irdma_modify_qp_req.sq_flush/rq_flush)"""
    expect("QP %u to ERR" % qp.contents.qp_num,
           modify(qp, A_STATE, qp_state=QPS_ERR), 0)
    post_recv(ctx, qp, 21, buf_addr(buf), 64, mr.lkey)
    sge = Sge(buf_addr(buf), 64, mr.lkey)
    post_send(ctx, qp, SendWr(wr_id=22, sg_list=ctypes.pointer(sge),
                              num_sge=1, opcode=WR_SEND,
                              send_flags=SEND_SIGNALED))
    got = sorted((w.wr_id, w.status) for w in (poll(ctx, cq, "flush 1"),
                                               poll(ctx, cq, "flush 2")))
    if got != [(21, WC_WR_FLUSH_ERR), (22, WC_WR_FLUSH_ERR)]:
        die("flushed WRs: %s" % got)
    print("QP %u in ERR: receive and send flushed" % qp.contents.qp_num)


def roce_loopback():
    ctx = open_verbs(roce)
    pd = ibv.ibv_alloc_pd(ctx)
    gid = (ctypes.c_uint8 * 16)()
    if not pd or ibv.ibv_query_gid(ctx, 1, 0, gid):
        die("PD or GID 0")
    cqa = ibv.ibv_create_cq(ctx, 32, None, None, 0)
    cqb = ibv.ibv_create_cq(ctx, 32, None, None, 0)
    if not cqa or not cqb:
        die("create_cq: %s" % errno.errorcode.get(ctypes.get_errno()))
    qa, err, cap = create_qp(pd, cqa)
    qb, err2, _ = create_qp(pd, cqb)
    if not qa or not qb:
        die("create_qp: %s" % errno.errorcode.get(err or err2))
    print("user QPs %u and %u: %u send WRs, %u receive WRs" %
          (qa.contents.qp_num, qb.contents.qp_num, cap.max_send_wr,
           cap.max_recv_wr))
    attr, init = query(qa)
    if attr.qp_state != QPS_RESET or init.cap.max_send_sge != 2:
        die("query_qp: state %d, %u send SGEs" % (attr.qp_state,
                                                  init.cap.max_send_sge))
    qps, cqs, _ = engine()
    for q in (qa, qb):
        e = qps.get(q.contents.qp_num)
        if not e or e["virt"] != "1":
            die("engine QP %u: %s" % (q.contents.qp_num, e))
    print("engine: QPs %u and %u PBLE-mapped, CQs %s" %
          (qa.contents.qp_num, qb.contents.qp_num, cqs))
    connect(qa, qb, gid)
    if query(qa)[0].qp_state != QPS_RTS:
        die("QP %u not in RTS" % qa.contents.qp_num)
    bufa, bufb = mmap.mmap(-1, 1 << 15), mmap.mmap(-1, 1 << 15)
    access = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ
    ma = ibv.ibv_reg_mr(pd, buf_addr(bufa), 1 << 15, access)
    mb = ibv.ibv_reg_mr(pd, buf_addr(bufb), 1 << 15, access)
    if not ma or not mb:
        die("reg_mr: %s" % errno.errorcode.get(ctypes.get_errno()))
    data_path(ctx, qa, qb, cqa, cqb, ma.contents, mb.contents, bufa, bufb)
    e = engine()[0][qa.contents.qp_num]
    if int(e["executed"]) < 4:
        die("engine QP %u executed %s WQEs" % (qa.contents.qp_num,
                                               e["executed"]))
    print("engine: QP %u executed %s WQEs" % (qa.contents.qp_num,
                                              e["executed"]))
    flush_in_error(ctx, qa, cqa, ma.contents, bufa)
    for what, ret in (("destroy QP A", ibv.ibv_destroy_qp(qa)),
                      ("destroy QP B", ibv.ibv_destroy_qp(qb)),
                      ("destroy CQ A", ibv.ibv_destroy_cq(cqa)),
                      ("destroy CQ B", ibv.ibv_destroy_cq(cqb)),
                      ("dereg MR A", ibv.ibv_dereg_mr(ma)),
                      ("dereg MR B", ibv.ibv_dereg_mr(mb)),
                      ("dealloc PD", ibv.ibv_dealloc_pd(pd))):
        expect(what, ret, 0)
    ibv.ibv_close_device(ctx)


def engine_line(prefix):
    """the name=number fields of the state file's line that starts with
    @prefix"""
    with open(state) as f:
        for line in f:
            if line.startswith(prefix):
                return {k: int(v) for k, v in
                        (kv.split("=") for kv in line[len(prefix):].split())}
    die("the engine's state has no line '%s'" % prefix)


def engine_cq(cq_id):
    """the engine's fields of CQ @cq_id"""
    return engine_line("cq %d: " % cq_id)


def ud_send(ctx, qp, wr_id, sge, ah, qpn, qkey):
    wr = SendWr(wr_id=wr_id, sg_list=ctypes.pointer(sge), num_sge=1,
                opcode=WR_SEND, send_flags=SEND_SIGNALED,
                # wr.ud: the AH, the remote QPN and Q_Key
                remote_addr=ah, rkey=qpn)
    wr.wr_rest[0:4] = list(qkey.to_bytes(4, "little"))
    post_send(ctx, qp, wr)


def ud_roundtrip(ctx, cq, qa, qb, ah, qkey, buf, lkey, seed, what):
    """a datagram from A to B, checked byte for byte"""
    base = buf_addr(buf)
    data = pattern(seed, 500)
    buf[0:500] = data
    buf[8192:12288] = bytes(4096)
    post_recv(ctx, qb, 41, base + 8192, GRH + 500, lkey)
    ud_send(ctx, qa, 42, Sge(base, 500, lkey), ah, qb.contents.qp_num, qkey)
    got = sorted(w.wr_id for w in (poll(ctx, cq, what), poll(ctx, cq, what)))
    if got != [41, 42]:
        die("%s: completions %s" % (what, got))
    same(what, buf[8192 + GRH:8192 + GRH + 500], data)


def create_ah(pd, dgid, hops, what):
    aha = AhAttr(is_global=1, port_num=1)
    aha.grh.dgid[:] = dgid[:]
    aha.grh.hop_limit = hops
    ah = ibv.ibv_create_ah(pd, ctypes.byref(aha))
    if not ah:
        die("%s: %s" % (what, errno.errorcode.get(ctypes.get_errno())))
    return ah


def engine_ud():
    """the fields of the engine's ud line"""
    return engine_line("ud: ")


def engine_mcgs():
    """the engine's multicast groups: [(members, datagrams delivered)]"""
    with open(state) as f:
        return [(int(m.group(1)), int(m.group(2))) for m in
                (re.match(r"mcg \d+: ipv4=\d members=(\d+) rx=(\d+)", line)
                 for line in f) if m]


def mcast(ctx, pd, cq, qa, qb, qkey, buf, lkey):
    """both UD QPs join ff0e::1:2; a datagram to the group reaches each
    member (the sender too), and none once a member has left"""
    mgid = (ctypes.c_uint8 * 16)(0xff, 0x0e, *([0] * 11), 1, 0, 2)
    for qp in (qa, qb):
        expect("attach QP %u to ff0e::1:2" % qp.contents.qp_num,
               ibv.ibv_attach_mcast(qp, mgid, 0), 0)
    expect("attach QP %u again" % qa.contents.qp_num,
           ibv.ibv_attach_mcast(qa, mgid, 0), 0)
    if engine_mcgs() != [(2, 0)]:
        die("engine groups: %s" % engine_mcgs())
    ah = create_ah(pd, mgid, 1, "multicast create_ah")
    base = buf_addr(buf)
    data = pattern(8, 300)
    buf[0:300] = data
    buf[8192:16384] = bytes(8192)
    post_recv(ctx, qa, 61, base + 8192, GRH + 300, lkey)
    post_recv(ctx, qb, 62, base + 12288, GRH + 300, lkey)
    ud_send(ctx, qa, 63, Sge(base, 300, lkey), ah, 0xffffff, qkey)
    wcs = {w.wr_id: w for w in (poll(ctx, cq, "multicast") for _ in range(3))}
    if sorted(wcs) != [61, 62, 63] or any(w.status for w in wcs.values()):
        die("multicast completions: %s" %
            [(w.wr_id, w.status) for w in wcs.values()])
    for wr_id, off in ((61, 8192), (62, 12288)):
        if wcs[wr_id].src_qp != qa.contents.qp_num:
            die("multicast: source QP %u" % wcs[wr_id].src_qp)
        same("multicast to QP %s" % ("A" if wr_id == 61 else "B"),
             buf[off + GRH:off + GRH + 300], data)
    expect("detach QP %u" % qb.contents.qp_num,
           ibv.ibv_detach_mcast(qb, mgid, 0), 0)
    expect("detach QP %u again" % qb.contents.qp_num,
           ibv.ibv_detach_mcast(qb, mgid, 0), errno.EINVAL)
    # B posts no receive now: were it still a member, the engine would
    # count the datagram it could not place for B (drop_no_rqe)
    no_rqe = engine_ud()["drop_no_rqe"]
    post_recv(ctx, qa, 64, base + 8192, GRH + 300, lkey)
    ud_send(ctx, qa, 66, Sge(base, 300, lkey), ah, 0xffffff, qkey)
    got = sorted(w.wr_id for w in (poll(ctx, cq, "multicast, B left")
                                   for _ in range(2)))
    if got != [64, 66]:
        die("multicast after B left: completions %s" % got)
    if engine_mcgs() != [(1, 3)] or engine_ud()["drop_no_rqe"] != no_rqe:
        die("engine after B left: groups %s, ud %s" % (engine_mcgs(),
                                                       engine_ud()))
    expect("detach QP %u" % qa.contents.qp_num,
           ibv.ibv_detach_mcast(qa, mgid, 0), 0)
    if engine_mcgs():
        die("engine groups after both left: %s" % engine_mcgs())
    expect("destroy multicast AH", ibv.ibv_destroy_ah(ah), 0)
    print("multicast: both members got the datagram, the one left alone "
          "after the other detached")


def resize(ctx, cq, cq_id, qa, qb, ah, qkey, buf, lkey):
    """ibv_resize_cq: the engine moves the CQ to libirdma's new ring, and
    refuses a ring too small for the completions not polled yet"""
    if not cq_id:
        die("the UD CQ is not on the engine")
    expect("resize CQ to 64", ibv.ibv_resize_cq(cq, 64), 0)
    e = engine_cq(cq_id)
    # libirdma's ring: (64 + 1) * 2 CQEs
    if e["size"] != 130 or e["resizes"] != 1:
        die("engine CQ %d after resize: %s" % (cq_id, e))
    ud_roundtrip(ctx, cq, qa, qb, ah, qkey, buf, lkey, 6, "UD after growing")
    # four send completions nobody polls (B posts no receive: dropped)
    base = buf_addr(buf)
    before = engine_cq(cq_id)["cqes"]
    for i in range(4):
        ud_send(ctx, qa, 50 + i, Sge(base, 64, lkey), ah, qb.contents.qp_num,
                qkey)
    end = time.monotonic() + 30
    while engine_cq(cq_id)["cqes"] < before + 4:
        if time.monotonic() > end:
            die("engine CQ %d: the sends did not complete" % cq_id)
        time.sleep(0.05)
    # a ring of (1 + 1) * 2 CQEs cannot have held four
    expect("resize CQ to 1 with 4 completions unpolled",
           ibv.ibv_resize_cq(cq, 1), errno.EINVAL)
    for i in range(4):
        check_wc(poll(ctx, cq, "unpolled send"), "unpolled send", 50 + i,
                 WC_SEND)
    expect("resize CQ to 1", ibv.ibv_resize_cq(cq, 1), 0)
    e = engine_cq(cq_id)
    if e["size"] != 4 or e["resizes"] != 2:
        die("engine CQ %d after shrinking: %s" % (cq_id, e))
    ud_roundtrip(ctx, cq, qa, qb, ah, qkey, buf, lkey, 7, "UD after shrinking")
    print("CQ %d resized to 130 and to 4 CQEs on the engine" % cq_id)


def port_counter(name, key):
    with open("/sys/class/infiniband/%s/ports/1/hw_counters/%s" %
              (name, key)) as f:
        return int(f.read())


def tc_change_busy():
    """RTR during a traffic-class change: EBUSY; after it: through"""
    event = os.path.join(os.path.dirname(state), "parent_event")
    ctx = open_verbs(roce)
    pd = ibv.ibv_alloc_pd(ctx)
    gid = (ctypes.c_uint8 * 16)()
    if not pd or ibv.ibv_query_gid(ctx, 1, 0, gid):
        die("PD or GID 0")
    cq = ibv.ibv_create_cq(ctx, 8, None, None, 0)
    qp, err, _ = create_qp(pd, cq) if cq else (None, ctypes.get_errno(), 0)
    if not qp:
        die("CQ or QP: %s" % errno.errorcode.get(err, err))
    expect("QP %u to INIT" % qp.contents.qp_num,
           modify(qp, A_STATE | A_PKEY | A_PORT | A_ACCESS,
                  qp_state=QPS_INIT, port_num=1,
                  qp_access_flags=LOCAL_WRITE), 0)
    ah = AhAttr(is_global=1, port_num=1)
    ah.grh.dgid[:] = gid[:]
    ah.grh.hop_limit = 64
    rtr = dict(qp_state=QPS_RTR, path_mtu=MTU_1024,
               dest_qp_num=qp.contents.qp_num, rq_psn=1,
               max_dest_rd_atomic=1, min_rnr_timer=12, ah=ah)
    mask = (A_STATE | A_AV | A_MTU | A_DEST_QPN | A_RQ_PSN |
            A_MAX_DEST_RD | A_MIN_RNR)
    busy0 = port_counter(roce, "qos_busy")
    with open(event, "w") as f:
        f.write("tc_prepare")
    try:
        ret = modify(qp, mask, **rtr)
        state_then = query(qp)[0].qp_state
    finally:
        with open(event, "w") as f:
            f.write("tc_done")
    expect("QP %u to RTR during a traffic-class change" %
           qp.contents.qp_num, ret, errno.EBUSY)
    if state_then != QPS_INIT:
        die("the refused QP is in state %d, not INIT" % state_then)
    # the core answers a read within a port's counter lifespan (10 ms)
    # with the last values it read: look again until past it
    for _ in range(50):
        busy = port_counter(roce, "qos_busy")
        if busy != busy0:
            break
        time.sleep(0.02)
    if busy != busy0 + 1:
        die("qos_busy went from %d to %d, not up by one" % (busy0, busy))
    print("qos_busy: %d -> %d" % (busy0, busy))
    expect("QP %u to RTR after the change" % qp.contents.qp_num,
           modify(qp, mask, **rtr), 0)
    for what, ret in (("destroy QP", ibv.ibv_destroy_qp(qp)),
                      ("destroy CQ", ibv.ibv_destroy_cq(cq)),
                      ("dealloc PD", ibv.ibv_dealloc_pd(pd))):
        expect(what, ret, 0)
    ibv.ibv_close_device(ctx)


def roce_ud():
    """two user UD QPs: datagrams through a user AH, the GRH's room at the
    head of the receive buffer, the sender's QPN in the completion, and a
    datagram with the wrong Q_Key dropped by the receiver"""
    ctx = open_verbs(roce)
    pd = ibv.ibv_alloc_pd(ctx)
    gid = (ctypes.c_uint8 * 16)()
    if not pd or ibv.ibv_query_gid(ctx, 1, 0, gid):
        die("PD or GID 0")
    cqs_before = engine()[1]
    cq = ibv.ibv_create_cq(ctx, 32, None, None, 0)
    cq_id = ([c for c in engine()[1] if c not in cqs_before] or [0])[0]
    qa, err, _ = create_qp(pd, cq, sge=1, qpt=QPT_UD)
    qb, err2, _ = create_qp(pd, cq, sge=1, qpt=QPT_UD)
    if not cq or not qa or not qb:
        die("UD CQ/QPs: %s" % errno.errorcode.get(err or err2 or
                                                  ctypes.get_errno()))
    qkey = 0x1234567
    for qp in (qa, qb):
        n = qp.contents.qp_num
        expect("UD QP %u to INIT" % n,
               modify(qp, A_STATE | A_PKEY | A_PORT | A_QKEY,
                      qp_state=QPS_INIT, port_num=1, qkey=qkey), 0)
        expect("UD QP %u to RTR" % n, modify(qp, A_STATE, qp_state=QPS_RTR),
               0)
        expect("UD QP %u to RTS" % n,
               modify(qp, A_STATE | A_SQ_PSN, qp_state=QPS_RTS, sq_psn=7), 0)
    attr = QpAttr()
    ret = ibv.ibv_query_qp(qb, ctypes.byref(attr), A_STATE | A_QKEY,
                           ctypes.byref(QpInitAttr()))
    if ret or attr.qp_state != QPS_RTS or attr.qkey != qkey:
        die("UD query_qp: %d state %d qkey 0x%x" % (ret, attr.qp_state,
                                                    attr.qkey))
    ah = create_ah(pd, gid, 64, "create_ah")
    buf = mmap.mmap(-1, 1 << 14)
    mr = ibv.ibv_reg_mr(pd, buf_addr(buf), 1 << 14, LOCAL_WRITE)
    if not mr:
        die("reg_mr: %s" % errno.errorcode.get(ctypes.get_errno()))
    base, lkey, dst = buf_addr(buf), mr.contents.lkey, qb.contents.qp_num
    data = pattern(5, 1000)
    buf[0:1000] = data
    buf[4096:8192] = bytes(4096)
    post_recv(ctx, qb, 31, base + 4096, GRH + 1000, lkey)
    # a Q_Key that is not the receiver's: sent, and dropped there
    ud_send(ctx, qa, 32, Sge(base, 1000, lkey), ah, dst, qkey + 1)
    check_wc(poll(ctx, cq, "UD SEND (wrong Q_Key)"), "UD SEND (wrong Q_Key)",
             32, WC_SEND)
    ud_send(ctx, qa, 33, Sge(base, 1000, lkey), ah, dst, qkey)
    check_wc(poll(ctx, cq, "UD SEND"), "UD SEND", 33, WC_SEND)
    wc = poll(ctx, cq, "UD RECV")
    check_wc(wc, "UD RECV", 31, WC_RECV, GRH + 1000)
    if wc.src_qp != qa.contents.qp_num or not wc.wc_flags & WC_GRH:
        die("UD RECV: source QP %u, flags 0x%x" % (wc.src_qp, wc.wc_flags))
    print("UD RECV: from QP %u, %u bytes with the GRH; the datagram with "
          "the wrong Q_Key was dropped" % (wc.src_qp, wc.byte_len))
    same("UD SEND", buf[4096 + GRH:4096 + GRH + 1000], data)
    mcast(ctx, pd, cq, qa, qb, qkey, buf, lkey)
    resize(ctx, cq, cq_id, qa, qb, ah, qkey, buf, lkey)
    for what, ret in (("destroy AH", ibv.ibv_destroy_ah(ah)),
                      ("destroy UD QP A", ibv.ibv_destroy_qp(qa)),
                      ("destroy UD QP B", ibv.ibv_destroy_qp(qb)),
                      ("destroy CQ", ibv.ibv_destroy_cq(cq)),
                      ("dereg MR", ibv.ibv_dereg_mr(mr)),
                      ("dealloc PD", ibv.ibv_dealloc_pd(pd))):
        expect(what, ret, 0)
    ibv.ibv_close_device(ctx)


def libirdma_limits():
    ctx = open_verbs(roce)
    pd = ibv.ibv_alloc_pd(ctx)
    cq = ibv.ibv_create_cq(ctx, 1 << 21, None, None, 0)
    expect("create_cq of 2^21 CQEs", 0 if cq else ctypes.get_errno(),
           errno.EINVAL)
    cq = ibv.ibv_create_cq(ctx, 8, None, None, 0)
    qp, err, _ = create_qp(pd, cq, send_wr=1 << 16)
    expect("create_qp of 2^16 send WRs", 0 if qp else err, errno.EINVAL)
    qp, err, _ = create_qp(pd, cq, sge=14)
    expect("create_qp of 14 SGEs", 0 if qp else err, errno.EINVAL)
    expect("destroy CQ", ibv.ibv_destroy_cq(cq), 0)
    ibv.ibv_dealloc_pd(pd)
    ibv.ibv_close_device(ctx)


def iwarp_objects():
    ctx = open_verbs(iw)
    pd = ibv.ibv_alloc_pd(ctx)
    cq = ibv.ibv_create_cq(ctx, 64, None, None, 0)
    if not pd or not cq:
        die("iWARP PD/CQ: %s" % errno.errorcode.get(ctypes.get_errno()))
    qp, err, cap = create_qp(pd, cq, send_wr=32, recv_wr=8, sge=3, inline=64)
    if not qp:
        die("iWARP create_qp: %s" % errno.errorcode.get(err))
    attr, init = query(qp)
    # an iWARP QP is IDLE on the engine from the start: INIT to verbs
    if attr.qp_state != QPS_INIT or init.cap.max_send_sge != 3 or \
            init.cap.max_inline_data != 64:
        die("iWARP query_qp: state %d cap %u/%u" %
            (attr.qp_state, init.cap.max_send_sge, init.cap.max_inline_data))
    ret = modify(qp, A_STATE | A_PKEY | A_PORT | A_ACCESS, qp_state=QPS_INIT,
                 port_num=1, qp_access_flags=LOCAL_WRITE | REMOTE_WRITE)
    expect("iWARP QP %u to INIT" % qp.contents.qp_num, ret, 0)
    if query(qp)[0].qp_state != QPS_INIT:
        die("iWARP QP not in INIT")
    print("iWARP QP %u: %u send WRs, INIT" % (qp.contents.qp_num,
                                             cap.max_send_wr))
    expect("iWARP destroy QP", ibv.ibv_destroy_qp(qp), 0)
    qp, err, _ = create_qp(pd, cq, qpt=QPT_UD)
    expect("iWARP create_qp of type UD", 0 if qp else err, errno.EOPNOTSUPP)
    expect("iWARP destroy CQ", ibv.ibv_destroy_cq(cq), 0)
    ibv.ibv_dealloc_pd(pd)
    ibv.ibv_close_device(ctx)


def ring_reg(fd, pd, addr, length, reg_type, sq=0, rq=0, cq=0):
    drv = struct.pack("<HHHH", reg_type, cq, rq, sq)
    body = struct.pack("<QQQII", addr, length, addr, pd, LOCAL_WRITE) + drv
    err, raw = cmd(fd, CMD_REG_MR, body, 12)
    return err, struct.unpack_from("<I", raw, 0)[0] if not err else None


def raw_cq(fd, cqe, buf, shadow):
    body = struct.pack("<QIIiI", 0, cqe, 0, -1, 0) + \
        struct.pack("<QQ", buf, shadow)
    err, raw = cmd(fd, CMD_CREATE_CQ, body, 16)
    return err, struct.unpack_from("<I", raw, 0)[0] if not err else None


def raw_qp(fd, pd, cq, bufs, send_wr=16):
    body = struct.pack("<QIIIIIIIIIBBBB", 0, pd, cq, cq, 0, send_wr, 16, 1, 1,
                       0, 0, QPT_RC, 0, 0) + struct.pack("<QQ", bufs, 0x1000)
    return cmd(fd, CMD_CREATE_QP, body, 32 + 32)[0]


def raw_checks():
    fd = os.open(uverbs, os.O_RDWR)
    err, raw = cmd(fd, CMD_GET_CONTEXT, struct.pack("<IB3xQ", 0, 5, 0),
                   8 + 72)
    expect("raw context", err, 0)
    async_fd = struct.unpack_from("<I", raw, 0)[0]
    err, raw = cmd(fd, CMD_ALLOC_PD, b"", 4 + 8)
    expect("raw PD", err, 0)
    pd = struct.unpack_from("<I", raw, 0)[0]
    m = mmap.mmap(-1, 1 << 16)
    base = buf_addr(m)
    err, _ = raw_cq(fd, 64, base, base + 4096)
    expect("create_cq without a ring registration", err, errno.EINVAL)
    for what, length, kw in (
            ("CQ ring: length beyond the shadow page", 3 * 4096, {"cq": 1}),
            ("CQ ring: no page", 4096 + 64, {"cq": 0}),
            ("QP rings: no RQ page", 2 * 4096 + 64, {"sq": 2}),
            ("QP rings: 300 SQ pages", 302 * 4096, {"sq": 300, "rq": 1})):
        err, _ = ring_reg(fd, pd, base, length, 1 if "sq" in kw else 2, **kw)
        expect("reg_mr " + what, err, errno.EINVAL)
    err, _ = ring_reg(fd, pd, base + 100, 4096 + 64, 2, cq=1)
    expect("reg_mr CQ ring not page aligned", err, errno.EINVAL)
    err, mr = ring_reg(fd, pd, base, 4096 + 64, 2, cq=1)
    expect("reg_mr CQ ring of 1 page", err, 0)
    err, _ = raw_cq(fd, 256, base, base + 4096)
    expect("create_cq of 256 CQEs on 1 page", err, errno.EINVAL)
    err, _ = raw_cq(fd, 64, base, base + 64)
    expect("create_cq with the shadow area inside the ring", err,
           errno.EINVAL)
    err, cq = raw_cq(fd, 128, base, base + 4096)
    expect("create_cq of 128 CQEs", err, 0)
    err, _ = raw_cq(fd, 64, base, base + 4096)
    expect("create_cq on a ring another CQ uses", err, errno.EINVAL)
    # a user CQ has no kernel ring: the kernel's poll refuses it
    expect("uverbs POLL_CQ on a user CQ",
           cmd(fd, CMD_POLL_CQ, struct.pack("<II", cq, 1), 8 + 32)[0],
           errno.EOPNOTSUPP)
    expect("create_qp without a ring registration",
           raw_qp(fd, pd, cq, base + 8192), errno.EINVAL)
    err, qmr = ring_reg(fd, pd, base + 8192, 2 * 4096 + 64, 1, sq=1, rq=1)
    expect("reg_mr QP rings of 1+1 pages", err, 0)
    expect("create_qp naming the CQ ring", raw_qp(fd, pd, cq, base),
           errno.EINVAL)
    # 1 SGE takes 64-byte WQEs: 128 of them need 2 SQ pages, not 1
    expect("create_qp of 128 send WRs on 1 SQ page",
           raw_qp(fd, pd, cq, base + 8192, send_wr=128), errno.EINVAL)
    expect("create_qp of 12 send WRs (not a power of 2)",
           raw_qp(fd, pd, cq, base + 8192, send_wr=12), errno.EINVAL)
    expect("destroy_cq", cmd(fd, CMD_DESTROY_CQ, struct.pack("<II", cq, 0),
                             8)[0], 0)
    for h in (mr, qmr):
        expect("dereg ring", cmd(fd, CMD_DEREG_MR, struct.pack("<I", h),
                                 0)[0], 0)
    os.close(async_fd)
    os.close(fd)
    m.close()


# the kernel's own objects (QP1 of RoCEv2 and its CQs) stay
qps0, cqs0, stags0 = engine()
roce_loopback()
tc_change_busy()
roce_ud()
libirdma_limits()
iwarp_objects()
raw_checks()
qps, cqs, stags = engine()
if set(qps) != set(qps0) or cqs != cqs0 or stags != stags0:
    die("left on the engine: QPs %s CQs %s STags %d (before: %s %s %d)" %
        (sorted(qps), cqs, stags, sorted(qps0), cqs0, stags0))
print("engine objects as before: QPs %s, CQs %s, %d STags" %
      (sorted(qps), cqs, stags))
