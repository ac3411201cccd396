# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Destroys that the engine fails, then succeed: an MR, a window, a CQ and
a QP whose DEALLOC_STAG, DESTROY_CQ or DESTROY_QP a fail_<op> knob fails
must stay whole, and go once tried again (tools/tests/66-isolation-mr.sh).

usage: failed_destroys.py IBDEV UVERBS_DEV SIM_DEBUGFS_DIR
"""
import ctypes, errno, mmap, os, re, struct, sys

dev, uverbs, dbg = sys.argv[1:4]
LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ = 1, 2, 4
QPT_RC = 2
bad = []


def check(what, got, want):
    ok = got == want
    print("%s: %s (must be %s)" % (what, got, want), flush=True)
    if not ok:
        bad.append(what)


def ename(err):
    return errno.errorcode.get(err, "ok" if not err else err)


def knob(op, n=1):
    with open("%s/fail_%s" % (dbg, op), "w") as f:
        f.write(str(n))


def vmpin():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmPin:"):
                return int(line.split()[1])
    return -1


def engine():
    """STags, CQ ids and QP ids the engine holds"""
    stags, cqs, qps = set(), set(), set()
    with open(dbg + "/state") as f:
        for line in f:
            m = re.match(r"stag (0x[0-9a-f]+):", line)
            if m:
                stags.add(int(m.group(1), 16))
            m = re.match(r"cq (\d+):", line)
            if m:
                cqs.add(int(m.group(1)))
            m = re.match(r"qp (\d+):", line)
            if m:
                qps.add(int(m.group(1)))
    return stags, cqs, qps


class Mr(ctypes.Structure):
    _fields_ = [("context", ctypes.c_void_p), ("pd", ctypes.c_void_p),
                ("addr", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("handle", ctypes.c_uint32), ("lkey", ctypes.c_uint32),
                ("rkey", ctypes.c_uint32)]


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


class Qp(ctypes.Structure):
    _fields_ = [("context", ctypes.c_void_p), ("qp_context", ctypes.c_void_p),
                ("pd", ctypes.c_void_p), ("send_cq", ctypes.c_void_p),
                ("recv_cq", ctypes.c_void_p), ("srq", ctypes.c_void_p),
                ("handle", ctypes.c_uint32), ("qp_num", ctypes.c_uint32)]


vp = ctypes.c_void_p
ibv = ctypes.CDLL("libibverbs.so.1", use_errno=True)
for name, res, args in (
        ("ibv_get_device_list", ctypes.POINTER(vp), [vp]),
        ("ibv_get_device_name", ctypes.c_char_p, [vp]),
        ("ibv_open_device", vp, [vp]),
        ("ibv_close_device", ctypes.c_int, [vp]),
        ("ibv_free_device_list", None, [ctypes.POINTER(vp)]),
        ("ibv_alloc_pd", vp, [vp]),
        ("ibv_dealloc_pd", ctypes.c_int, [vp]),
        ("ibv_reg_mr", ctypes.POINTER(Mr), [vp, vp, ctypes.c_size_t,
                                            ctypes.c_int]),
        ("ibv_dereg_mr", ctypes.c_int, [ctypes.POINTER(Mr)]),
        ("ibv_create_cq", vp, [vp, ctypes.c_int, vp, vp, ctypes.c_int]),
        ("ibv_destroy_cq", ctypes.c_int, [vp]),
        ("ibv_create_qp", ctypes.POINTER(Qp), [vp, ctypes.POINTER(QpInitAttr)]),
        ("ibv_destroy_qp", ctypes.c_int, [ctypes.POINTER(Qp)])):
    fn = getattr(ibv, name)
    fn.restype = res
    fn.argtypes = args


def open_verbs():
    n = ctypes.c_int()
    lst = ibv.ibv_get_device_list(ctypes.byref(n))
    for i in range(n.value):
        if ibv.ibv_get_device_name(lst[i]).decode() == dev:
            ctx = ibv.ibv_open_device(lst[i])
            ibv.ibv_free_device_list(lst)
            return ctx
    sys.exit("libibverbs does not list " + dev)


def mr_case(pd):
    size = 256 << 10
    buf = mmap.mmap(-1, size)
    pin0 = vmpin()
    mr = ibv.ibv_reg_mr(pd, ctypes.addressof(ctypes.c_char.from_buffer(buf)),
                        size, LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ)
    if not mr:
        sys.exit("ibv_reg_mr: %s" % os.strerror(ctypes.get_errno()))
    key, pin1 = mr.contents.rkey, vmpin()
    print("MR rkey 0x%08x, VmPin %d -> %d kB" % (key, pin0, pin1))
    check("MR pins its pages", pin1 - pin0, size >> 10)
    knob("dealloc_stag")
    check("ibv_dereg_mr, DEALLOC_STAG failed", ename(ibv.ibv_dereg_mr(mr)),
          "EIO")
    check("the MR's pages still pinned", vmpin(), pin1)
    check("its STag still on the engine", key in engine()[0], True)
    check("ibv_dereg_mr again", ename(ibv.ibv_dereg_mr(mr)), "ok")
    check("the pages unpinned", vmpin(), pin0)
    check("the STag gone from the engine", key in engine()[0], False)
    buf.close()


# the uverbs write() ABI, for a window: libirdma binds only type 1
def cmd(fd, op, body, out_len):
    out = ctypes.create_string_buffer(max(out_len, 4))
    if out_len:
        body = struct.pack("<Q", ctypes.addressof(out)) + body
    hdr = struct.pack("<IHH", op, (8 + len(body)) // 4, out_len // 4)
    try:
        os.write(fd, hdr + body)
    except OSError as e:
        return e.errno, None
    return 0, out.raw


def mw_case():
    fd = os.open(uverbs, os.O_RDWR)
    err, raw = cmd(fd, 0, struct.pack("<IB3xQ", 0, 5, 1), 8 + 72)
    if err:
        sys.exit("raw context: %s" % ename(err))
    async_fd = struct.unpack_from("<I", raw, 0)[0]
    err, raw = cmd(fd, 3, b"", 12)
    if err:
        sys.exit("raw PD: %s" % ename(err))
    pd = struct.unpack_from("<I", raw, 0)[0]
    err, raw = cmd(fd, 14, struct.pack("<IB3x", pd, 1), 8)
    if err:
        print("alloc_mw: %s: no window case" % ename(err))
    else:
        handle, rkey = struct.unpack_from("<II", raw, 0)
        knob("dealloc_stag")
        check("dealloc_mw, DEALLOC_STAG failed",
              ename(cmd(fd, 16, struct.pack("<I", handle), 0)[0]), "EIO")
        check("the window's STag still on the engine",
              any(s >> 8 == rkey >> 8 for s in engine()[0]), True)
        check("dealloc_mw again",
              ename(cmd(fd, 16, struct.pack("<I", handle), 0)[0]), "ok")
        check("the window's STag gone",
              any(s >> 8 == rkey >> 8 for s in engine()[0]), False)
    os.close(async_fd)
    os.close(fd)


def cq_qp_case(ctx, pd):
    cqs0 = engine()[1]
    cq = ibv.ibv_create_cq(ctx, 64, None, None, 0)
    if not cq:
        sys.exit("ibv_create_cq: %s" % os.strerror(ctypes.get_errno()))
    mine = engine()[1] - cqs0
    attr = QpInitAttr(send_cq=cq, recv_cq=cq, qp_type=QPT_RC,
                      cap=QpCap(16, 16, 1, 1, 0))
    pin0 = vmpin()
    qp = ibv.ibv_create_qp(pd, ctypes.byref(attr))
    if not qp:
        sys.exit("ibv_create_qp: %s" % os.strerror(ctypes.get_errno()))
    qpn, pin1 = qp.contents.qp_num, vmpin()
    print("CQ %s, QP %d, rings pinned: %d kB" % (sorted(mine), qpn,
                                                  pin1 - pin0))
    knob("destroy_qp")
    check("ibv_destroy_qp, DESTROY_QP failed", ename(ibv.ibv_destroy_qp(qp)),
          "EIO")
    check("the QP still on the engine", qpn in engine()[2], True)
    check("its rings still pinned", vmpin(), pin1)
    check("ibv_destroy_qp again", ename(ibv.ibv_destroy_qp(qp)), "ok")
    check("the QP gone from the engine", qpn in engine()[2], False)
    check("its rings unpinned", vmpin(), pin0)
    knob("destroy_cq")
    check("ibv_destroy_cq, DESTROY_CQ failed", ename(ibv.ibv_destroy_cq(cq)),
          "EIO")
    check("the CQ still on the engine", bool(mine & engine()[1]), True)
    check("ibv_destroy_cq again", ename(ibv.ibv_destroy_cq(cq)), "ok")
    check("the CQ gone from the engine", bool(mine & engine()[1]), False)


ctx = open_verbs()
pd = ibv.ibv_alloc_pd(ctx)
if not ctx or not pd:
    sys.exit("context %s, PD %s" % (ctx, pd))
mr_case(pd)
mw_case()
cq_qp_case(ctx, pd)
ibv.ibv_dealloc_pd(pd)
ibv.ibv_close_device(ctx)
if bad:
    print("FAIL: " + "; ".join(bad))
    sys.exit(1)
