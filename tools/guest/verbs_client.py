# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""A ctypes client of the RDMA verbs for the guest scripts.

Two ways in: Debian's unmodified libibverbs (and through it libirdma), for
what an application does, and the uverbs write() ABI, for the requests
libirdma never builds (malformed ones, those a provider must refuse).
Importing pyverbs takes minutes under TCG; ctypes costs nothing.
Structures are rdma-core 44's on x86_64.
"""
import ctypes
import errno
import os
import struct
import sys
import time

LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, MW_BIND = 1, 2, 4, 8, 16
QPT_RC, QPT_UD = 2, 4
QPS_RESET, QPS_INIT, QPS_RTR, QPS_RTS, QPS_ERR = 0, 1, 2, 3, 6
WR_RDMA_WRITE, WR_SEND, WR_SEND_WITH_IMM, WR_RDMA_READ = 0, 2, 3, 4
SEND_SIGNALED = 2
WC_SEND, WC_RDMA_WRITE, WC_RDMA_READ, WC_RECV = 0, 1, 2, 128
WC_GRH, WC_WITH_IMM = 1, 2
GRH = 40
WC_WR_FLUSH_ERR = 5
A_STATE, A_PKEY, A_PORT, A_ACCESS = 1, 1 << 4, 1 << 5, 1 << 3
A_QKEY = 1 << 6
A_AV, A_MTU, A_TIMEOUT, A_RETRY, A_RNR = 1 << 7, 1 << 8, 1 << 9, 1 << 10, 1 << 11
A_RQ_PSN, A_MAX_RD, A_MIN_RNR, A_SQ_PSN = 1 << 12, 1 << 13, 1 << 15, 1 << 16
A_MAX_DEST_RD, A_DEST_QPN = 1 << 17, 1 << 20
MTU_1024 = 3



def die(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def expect(what, err, want):
    if err != want:
        die("%s: %s, expected %s" % (what, errno.errorcode.get(err, err),
                                     errno.errorcode.get(want, want)))
    print("%s: %s" % (what, errno.errorcode.get(err, "ok")))


def buf_addr(m):
    return ctypes.addressof(ctypes.c_char.from_buffer(m))


# ---- libibverbs structures (rdma-core 44, x86_64) ----

class QpCap(ctypes.Structure):
    _fields_ = [("max_send_wr", ctypes.c_uint32),
                ("max_recv_wr", ctypes.c_uint32),
                ("max_send_sge", ctypes.c_uint32),
                ("max_recv_sge", ctypes.c_uint32),
                ("max_inline_data", ctypes.c_uint32)]


class QpInitAttr(ctypes.Structure):
    _fields_ = [("qp_context", ctypes.c_void_p), ("send_cq", ctypes.c_void_p),
                ("recv_cq", ctypes.c_void_p), ("srq", ctypes.c_void_p),
                ("cap", QpCap), ("qp_type", ctypes.c_int),
                ("sq_sig_all", ctypes.c_int)]


class GlobalRoute(ctypes.Structure):
    _fields_ = [("dgid", ctypes.c_uint8 * 16), ("flow_label", ctypes.c_uint32),
                ("sgid_index", ctypes.c_uint8), ("hop_limit", ctypes.c_uint8),
                ("traffic_class", ctypes.c_uint8)]


class AhAttr(ctypes.Structure):
    _fields_ = [("grh", GlobalRoute), ("dlid", ctypes.c_uint16),
                ("sl", ctypes.c_uint8), ("src_path_bits", ctypes.c_uint8),
                ("static_rate", ctypes.c_uint8), ("is_global", ctypes.c_uint8),
                ("port_num", ctypes.c_uint8)]


class QpAttr(ctypes.Structure):
    _fields_ = [("qp_state", ctypes.c_int), ("cur_qp_state", ctypes.c_int),
                ("path_mtu", ctypes.c_int), ("path_mig_state", ctypes.c_int),
                ("qkey", ctypes.c_uint32), ("rq_psn", ctypes.c_uint32),
                ("sq_psn", ctypes.c_uint32), ("dest_qp_num", ctypes.c_uint32),
                ("qp_access_flags", ctypes.c_uint), ("cap", QpCap),
                ("ah_attr", AhAttr), ("alt_ah_attr", AhAttr),
                ("pkey_index", ctypes.c_uint16),
                ("alt_pkey_index", ctypes.c_uint16),
                ("en_sqd_async_notify", ctypes.c_uint8),
                ("sq_draining", ctypes.c_uint8),
                ("max_rd_atomic", ctypes.c_uint8),
                ("max_dest_rd_atomic", ctypes.c_uint8),
                ("min_rnr_timer", ctypes.c_uint8), ("port_num", ctypes.c_uint8),
                ("timeout", ctypes.c_uint8), ("retry_cnt", ctypes.c_uint8),
                ("rnr_retry", ctypes.c_uint8), ("alt_port_num", ctypes.c_uint8),
                ("alt_timeout", ctypes.c_uint8),
                ("rate_limit", ctypes.c_uint32)]


class Qp(ctypes.Structure):
    _fields_ = [("context", ctypes.c_void_p), ("qp_context", ctypes.c_void_p),
                ("pd", ctypes.c_void_p), ("send_cq", ctypes.c_void_p),
                ("recv_cq", ctypes.c_void_p), ("srq", ctypes.c_void_p),
                ("handle", ctypes.c_uint32), ("qp_num", ctypes.c_uint32),
                ("state", ctypes.c_int), ("qp_type", ctypes.c_int)]


class Mr(ctypes.Structure):
    _fields_ = [("context", ctypes.c_void_p), ("pd", ctypes.c_void_p),
                ("addr", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("handle", ctypes.c_uint32), ("lkey", ctypes.c_uint32),
                ("rkey", ctypes.c_uint32)]


class Sge(ctypes.Structure):
    _fields_ = [("addr", ctypes.c_uint64), ("length", ctypes.c_uint32),
                ("lkey", ctypes.c_uint32)]


class SendWr(ctypes.Structure):
    _fields_ = [("wr_id", ctypes.c_uint64), ("next", ctypes.c_void_p),
                ("sg_list", ctypes.POINTER(Sge)), ("num_sge", ctypes.c_int),
                ("opcode", ctypes.c_int), ("send_flags", ctypes.c_uint),
                ("imm_data", ctypes.c_uint32),
                # wr.rdma, within the 32-byte union of wr.rdma/atomic/ud
                ("remote_addr", ctypes.c_uint64), ("rkey", ctypes.c_uint32),
                ("wr_rest", ctypes.c_uint8 * 20),
                ("qp_type", ctypes.c_uint32),
                ("bind_mw", ctypes.c_uint8 * 52)]


class RecvWr(ctypes.Structure):
    _fields_ = [("wr_id", ctypes.c_uint64), ("next", ctypes.c_void_p),
                ("sg_list", ctypes.POINTER(Sge)), ("num_sge", ctypes.c_int)]


class Wc(ctypes.Structure):
    _fields_ = [("wr_id", ctypes.c_uint64), ("status", ctypes.c_int),
                ("opcode", ctypes.c_int), ("vendor_err", ctypes.c_uint32),
                ("byte_len", ctypes.c_uint32), ("imm_data", ctypes.c_uint32),
                ("qp_num", ctypes.c_uint32), ("src_qp", ctypes.c_uint32),
                ("wc_flags", ctypes.c_uint), ("pkey_index", ctypes.c_uint16),
                ("slid", ctypes.c_uint16), ("sl", ctypes.c_uint8),
                ("dlid_path_bits", ctypes.c_uint8)]


assert ctypes.sizeof(SendWr) == 128 and ctypes.sizeof(Wc) == 48
assert ctypes.sizeof(QpAttr) == 140

ibv = ctypes.CDLL("libibverbs.so.1", use_errno=True)
vp = ctypes.c_void_p
for name, res, args in (
        ("ibv_get_device_list", ctypes.POINTER(vp), [ctypes.c_void_p]),
        ("ibv_get_device_name", ctypes.c_char_p, [vp]),
        ("ibv_open_device", vp, [vp]),
        ("ibv_close_device", ctypes.c_int, [vp]),
        ("ibv_free_device_list", None, [ctypes.POINTER(vp)]),
        ("ibv_alloc_pd", vp, [vp]),
        ("ibv_dealloc_pd", ctypes.c_int, [vp]),
        ("ibv_query_gid", ctypes.c_int, [vp, ctypes.c_uint8, ctypes.c_int,
                                         ctypes.c_uint8 * 16]),
        ("ibv_reg_mr", ctypes.POINTER(Mr), [vp, vp, ctypes.c_size_t,
                                            ctypes.c_int]),
        ("ibv_dereg_mr", ctypes.c_int, [ctypes.POINTER(Mr)]),
        ("ibv_create_cq", vp, [vp, ctypes.c_int, vp, vp, ctypes.c_int]),
        ("ibv_destroy_cq", ctypes.c_int, [vp]),
        ("ibv_resize_cq", ctypes.c_int, [vp, ctypes.c_int]),
        ("ibv_create_qp", ctypes.POINTER(Qp), [vp, ctypes.POINTER(QpInitAttr)]),
        ("ibv_modify_qp", ctypes.c_int, [ctypes.POINTER(Qp),
                                         ctypes.POINTER(QpAttr), ctypes.c_int]),
        ("ibv_query_qp", ctypes.c_int, [ctypes.POINTER(Qp),
                                        ctypes.POINTER(QpAttr), ctypes.c_int,
                                        ctypes.POINTER(QpInitAttr)]),
        ("ibv_destroy_qp", ctypes.c_int, [ctypes.POINTER(Qp)]),
        ("ibv_create_ah", vp, [vp, ctypes.POINTER(AhAttr)]),
        ("ibv_destroy_ah", ctypes.c_int, [vp]),
        ("ibv_attach_mcast", ctypes.c_int, [ctypes.POINTER(Qp),
                                            ctypes.c_uint8 * 16,
                                            ctypes.c_uint16]),
        ("ibv_detach_mcast", ctypes.c_int, [ctypes.POINTER(Qp),
                                            ctypes.c_uint8 * 16,
                                            ctypes.c_uint16])):
    fn = getattr(ibv, name)
    fn.restype = res
    fn.argtypes = args

# post_send, post_recv and poll_cq are inline in verbs.h: call the
# provider's entries in struct ibv_context_ops (after the device pointer)
OP_POLL_CQ, OP_POST_SEND, OP_POST_RECV = 11, 25, 26
POLL_T = ctypes.CFUNCTYPE(ctypes.c_int, vp, ctypes.c_int, ctypes.POINTER(Wc))
SEND_T = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Qp),
                          ctypes.POINTER(SendWr), ctypes.POINTER(vp))
RECV_T = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Qp),
                          ctypes.POINTER(RecvWr), ctypes.POINTER(vp))


def ctx_op(ctx, idx, proto):
    return proto(vp.from_address(ctx + 8 + 8 * idx).value)


def open_verbs(name):
    n = ctypes.c_int()
    lst = ibv.ibv_get_device_list(ctypes.byref(n))
    for i in range(n.value):
        if ibv.ibv_get_device_name(lst[i]).decode() == name:
            ctx = ibv.ibv_open_device(lst[i])
            ibv.ibv_free_device_list(lst)
            if not ctx:
                die("cannot open " + name)
            return ctx
    die("libibverbs does not list " + name)


def create_qp(pd, cq, send_wr=16, recv_wr=16, sge=2, inline=0, qpt=QPT_RC):
    attr = QpInitAttr(send_cq=cq, recv_cq=cq, qp_type=qpt,
                      cap=QpCap(send_wr, recv_wr, sge, sge, inline))
    qp = ibv.ibv_create_qp(pd, ctypes.byref(attr))
    return qp, ctypes.get_errno(), attr.cap


def modify(qp, mask, **kw):
    attr = QpAttr(**{k: v for k, v in kw.items() if k != "ah"})
    if "ah" in kw:
        attr.ah_attr = kw["ah"]
    return ibv.ibv_modify_qp(qp, ctypes.byref(attr), mask)


def query(qp):
    attr, init = QpAttr(), QpInitAttr()
    ret = ibv.ibv_query_qp(qp, ctypes.byref(attr), A_STATE, ctypes.byref(init))
    if ret:
        die("query_qp: %s" % errno.errorcode.get(ret, ret))
    return attr, init


def connect(a, b, gid):
    for qp, peer in ((a, b), (b, a)):
        ret = modify(qp, A_STATE | A_PKEY | A_PORT | A_ACCESS,
                     qp_state=QPS_INIT, port_num=1,
                     qp_access_flags=LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ)
        expect("QP %u to INIT" % qp.contents.qp_num, ret, 0)
        ah = AhAttr(is_global=1, port_num=1)
        ah.grh.dgid[:] = gid[:]
        ah.grh.hop_limit = 64
        ret = modify(qp, A_STATE | A_AV | A_MTU | A_DEST_QPN | A_RQ_PSN |
                     A_MAX_DEST_RD | A_MIN_RNR, qp_state=QPS_RTR,
                     path_mtu=MTU_1024, dest_qp_num=peer.contents.qp_num,
                     rq_psn=100, max_dest_rd_atomic=4, min_rnr_timer=12,
                     ah=ah)
        expect("QP %u to RTR" % qp.contents.qp_num, ret, 0)
    for qp in (a, b):
        ret = modify(qp, A_STATE | A_TIMEOUT | A_RETRY | A_RNR | A_SQ_PSN |
                     A_MAX_RD, qp_state=QPS_RTS, timeout=14, retry_cnt=7,
                     rnr_retry=7, sq_psn=100, max_rd_atomic=4)
        expect("QP %u to RTS" % qp.contents.qp_num, ret, 0)


def poll(ctx, cq, what):
    wc = Wc()
    fn = ctx_op(ctx, OP_POLL_CQ, POLL_T)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        n = fn(cq, 1, ctypes.byref(wc))
        if n < 0:
            die("%s: poll_cq returned %d" % (what, n))
        if n:
            return wc
        time.sleep(0.01)
    die("%s: no completion in 60 s" % what)


def check_wc(wc, what, wr_id, opcode, length=None):
    if wc.status or wc.wr_id != wr_id or wc.opcode != opcode or \
            (length is not None and wc.byte_len != length):
        die("%s: wc status %d wr_id %d opcode %d len %d vendor 0x%x" %
            (what, wc.status, wc.wr_id, wc.opcode, wc.byte_len,
             wc.vendor_err))


def post_send(ctx, qp, wr):
    bad = vp()
    ret = ctx_op(ctx, OP_POST_SEND, SEND_T)(qp, ctypes.byref(wr),
                                            ctypes.byref(bad))
    if ret:
        die("post_send: %s" % errno.errorcode.get(ret, ret))


def post_recv(ctx, qp, wr_id, addr, length, lkey):
    sge = Sge(addr, length, lkey)
    wr = RecvWr(wr_id=wr_id, sg_list=ctypes.pointer(sge), num_sge=1)
    bad = vp()
    ret = ctx_op(ctx, OP_POST_RECV, RECV_T)(qp, ctypes.byref(wr),
                                            ctypes.byref(bad))
    if ret:
        die("post_recv: %s" % errno.errorcode.get(ret, ret))



# ---- the uverbs write() ABI ----

CMD_GET_CONTEXT, CMD_QUERY_DEVICE, CMD_ALLOC_PD = 0, 1, 3
CMD_REG_MR, CMD_DEREG_MR, CMD_ALLOC_MW, CMD_DEALLOC_MW = 9, 13, 14, 16
CMD_CREATE_CQ, CMD_DESTROY_CQ, CMD_POLL_CQ, CMD_CREATE_QP = 18, 20, 21, 24


def cmd(fd, op, body, out_len):
    """write one command; body excludes the response pointer"""
    out = ctypes.create_string_buffer(max(out_len, 4))
    if out_len:
        body = struct.pack("<Q", ctypes.addressof(out)) + body
    hdr = struct.pack("<IHH", op, (8 + len(body)) // 4, out_len // 4)
    try:
        os.write(fd, hdr + body)
    except OSError as e:
        return e.errno, None
    return 0, out.raw

