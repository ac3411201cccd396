#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 8
#
# Memory regions and windows on a simulated iWARP function, in one Python
# process. Through Debian's unmodified libibverbs/libirdma (ctypes: the
# pyverbs import alone takes minutes under TCG): register MRs of one page,
# 1 MiB and an unaligned 5000 bytes with several access flags, read back
# lkey/rkey, find them in `rdma res show mr` and as STags in the
# simulator's debugfs state with the rights asked for, deregister them.
# Through the uverbs write() ABI (libirdma builds only its own requests):
# bad registrations fail with the expected errno, and type 1 and type 2
# windows come and go when the device reports windows. Afterwards the
# engine holds no STag. Last, function 1 is deleted while the process holds an
# MR on it (disassociate); kmemleak scans after the run.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
dbg=/sys/kernel/debug/irdma_sim

echo "36-mr: start $$" >/dev/kmsg
load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"

dev0=$(ibdev_of 0)
dev1=$(ibdev_of 1)
[ -n "$dev0" ] && [ -n "$dev1" ] || fail "no RDMA devices: '$dev0' '$dev1'"
uv0=$(uverbs_of "$dev0")
uv1=$(uverbs_of "$dev1")
[ -c "$uv0" ] && [ -c "$uv1" ] || fail "no uverbs devices: '$uv0' '$uv1'"
grep -q '^objects: .* stags=0 ' $dbg/irdma_sim0/state ||
	fail "STags on a fresh function: $(grep '^objects' $dbg/irdma_sim0/state)"

# the reason of every refusal goes to the log, shown if a check fails
echo 'file mr.c +p' >/sys/kernel/debug/dynamic_debug/control

python3 -u - "$dev0" "$uv0" "$uv1" "$dbg/irdma_sim0/state" \
	"$bus/del_device" <<'EOF' || { dmesg | tail -n 30; fail "MR checks"; }
import ctypes, errno, mmap, os, re, struct, subprocess, sys

dev0, uv0, uv1, state, del_device = sys.argv[1:6]

LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, MW_BIND = 1, 2, 4, 8, 16
# STag rights the engine keeps: local read always, then LW, RR, RW, bind
R_LR, R_LW, R_RR, R_RW = 1, 2, 4, 8


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


def stags():
    """STags the engine holds, by index: {index: {field: value}}"""
    out = {}
    with open(state) as f:
        for line in f:
            if not line.startswith("stag "):
                continue
            head, rest = line.split(":", 1)
            stag = int(head.split()[1], 16)
            out[stag >> 8] = dict(kv.split("=") for kv in rest.split())
            out[stag >> 8]["stag"] = stag
    return out


# ---- libibverbs and libirdma ----

class IbvMr(ctypes.Structure):
    _fields_ = [("context", ctypes.c_void_p), ("pd", ctypes.c_void_p),
                ("addr", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("handle", ctypes.c_uint32), ("lkey", ctypes.c_uint32),
                ("rkey", ctypes.c_uint32)]


ibv = ctypes.CDLL("libibverbs.so.1", use_errno=True)
ibv.ibv_get_device_list.restype = ctypes.POINTER(ctypes.c_void_p)
ibv.ibv_get_device_name.restype = ctypes.c_char_p
ibv.ibv_get_device_name.argtypes = [ctypes.c_void_p]
ibv.ibv_open_device.restype = ctypes.c_void_p
ibv.ibv_open_device.argtypes = [ctypes.c_void_p]
ibv.ibv_alloc_pd.restype = ctypes.c_void_p
ibv.ibv_alloc_pd.argtypes = [ctypes.c_void_p]
ibv.ibv_reg_mr.restype = ctypes.POINTER(IbvMr)
ibv.ibv_reg_mr.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                           ctypes.c_int]
ibv.ibv_dereg_mr.argtypes = [ctypes.POINTER(IbvMr)]
ibv.ibv_dealloc_pd.argtypes = [ctypes.c_void_p]
ibv.ibv_close_device.argtypes = [ctypes.c_void_p]
ibv.ibv_free_device_list.argtypes = [ctypes.POINTER(ctypes.c_void_p)]


def open_verbs(name):
    n = ctypes.c_int()
    lst = ibv.ibv_get_device_list(ctypes.byref(n))
    for i in range(n.value):
        if ibv.ibv_get_device_name(lst[i]).decode() == name:
            ctx = ibv.ibv_open_device(lst[i])
            ibv.ibv_free_device_list(lst)
            return ctx
    die("libibverbs does not list " + name)


def libirdma_mrs():
    ctx = open_verbs(dev0)
    pd = ibv.ibv_alloc_pd(ctx)
    if not ctx or not pd:
        die("libirdma: context %s, PD %s" % (ctx, pd))
    page = mmap.mmap(-1, 4096)
    big = mmap.mmap(-1, 1 << 20)
    odd = mmap.mmap(-1, 3 * 4096)
    cases = (("one page", buf_addr(page), 4096, 0, R_LR),
             ("1 MiB, remote read/write", buf_addr(big), 1 << 20,
              LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ,
              R_LR | R_LW | R_RR | R_RW),
             ("5000 bytes at +100, remote read", buf_addr(odd) + 100, 5000,
              REMOTE_READ, R_LR | R_RR))
    mrs = []
    for what, addr, length, access, rights in cases:
        mr = ibv.ibv_reg_mr(pd, addr, length, access)
        if not mr:
            die("ibv_reg_mr %s: %s" % (what, os.strerror(ctypes.get_errno())))
        c = mr.contents
        if c.lkey != c.rkey or c.lkey >> 8 == 0:
            die("%s: lkey 0x%x rkey 0x%x" % (what, c.lkey, c.rkey))
        print("%s: lkey 0x%08x rkey 0x%08x" % (what, c.lkey, c.rkey))
        mrs.append((mr, what, length, rights))
    if len({m[0].contents.lkey >> 8 for m in mrs}) != len(mrs):
        die("two MRs share an STag index")
    mr = ibv.ibv_reg_mr(pd, buf_addr(page), 4096, REMOTE_WRITE)
    expect("libirdma: remote write without local write",
           0 if mr else ctypes.get_errno(), errno.EINVAL)
    check_listed(mrs)
    for mr, what, length, rights in mrs:
        if ibv.ibv_dereg_mr(mr):
            die("ibv_dereg_mr " + what)
    if stags():
        die("STags left after deregistration: %s" % stags())
    print("deregistered: no STag left on the engine")
    ibv.ibv_dealloc_pd(pd)
    ibv.ibv_close_device(ctx)
    for m in (page, big, odd):
        m.close()


def check_listed(mrs):
    eng = stags()
    res = subprocess.run(["rdma", "res", "show", "mr", "dev", dev0],
                         capture_output=True, text=True).stdout
    print(res.strip())
    for mr, what, length, rights in mrs:
        key = mr.contents.rkey
        st = eng.get(key >> 8)
        if not st or st["stag"] != key:
            die("%s: STag 0x%08x not on the engine: %s" % (what, key, eng))
        if (st["kind"] != "mr" or int(st["len"]) != length or
                int(st["rights"], 16) != rights or
                st["remote"] != str(int(bool(rights & (R_RR | R_RW))))):
            die("%s: engine holds %s" % (what, st))
        if not re.search(r"\bmrlen %d\b" % length, res):
            die("%s: no MR of %d bytes in rdma res show mr" % (what, length))
        if "rkey" in res and ("rkey 0x%x" % key) not in res:
            die("%s: rkey 0x%x not in rdma res show mr" % (what, key))
    print("%d MRs on the engine and in rdma res with their rights" %
          len(mrs))


# ---- the uverbs write() ABI ----

CMD_GET_CONTEXT, CMD_QUERY_DEVICE, CMD_ALLOC_PD = 0, 1, 3
CMD_REG_MR, CMD_DEREG_MR, CMD_ALLOC_MW, CMD_DEALLOC_MW = 9, 13, 14, 16
DEV_MEM_WINDOW, DEV_MW_TYPE_2B = 1 << 17, 1 << 24


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


def raw_context(path):
    fd = os.open(path, os.O_RDWR)
    drv = struct.pack("<IB3xQ", 0, 5, 1)
    err, raw = cmd(fd, CMD_GET_CONTEXT, drv, 8 + 72)
    expect("raw context", err, 0)
    async_fd = struct.unpack_from("<I", raw, 0)[0]
    err, raw = cmd(fd, CMD_ALLOC_PD, b"", 4 + 8)
    expect("raw PD", err, 0)
    return fd, async_fd, struct.unpack_from("<I", raw, 0)[0]


def mem_req(reg_type=0, sq=0, rq=0, cq=0):
    return struct.pack("<HHHH", reg_type, cq, rq, sq)


def reg_mr(fd, pd, addr, length, access, drv=mem_req()):
    # driver data is in 8-byte units, the write() ABI counts 4-byte words
    drv += b"\0" * (-len(drv) % 4)
    body = struct.pack("<QQQII", addr, length, addr, pd, access) + drv
    err, raw = cmd(fd, CMD_REG_MR, body, 12)
    if err:
        return err, None
    return 0, struct.unpack_from("<III", raw, 0)


def dereg_mr(fd, handle):
    return cmd(fd, CMD_DEREG_MR, struct.pack("<I", handle), 0)[0]


def bad_requests(fd, pd, addr):
    for what, length, access, drv, want in (
            ("good request", 4096, LOCAL_WRITE, mem_req(), 0),
            ("remote write without local write", 4096, REMOTE_WRITE,
             mem_req(), errno.EINVAL),
            ("remote atomic", 4096, LOCAL_WRITE | REMOTE_ATOMIC, mem_req(),
             errno.EOPNOTSUPP),
            ("length 0", 0, 0, mem_req(), errno.EINVAL),
            ("length 2^46", 1 << 46, 0, mem_req(), errno.EINVAL),
            ("no driver data", 4096, 0, b"", errno.EINVAL),
            ("4 bytes of driver data", 4096, 0, mem_req()[:4], errno.EINVAL),
            # rings: the pages counted plus the shadow area (39-user-verbs);
            # a CQ's may be its pages alone, or its shadow area alone
            ("QP rings without room for the shadow area", 8192, LOCAL_WRITE,
             mem_req(1, sq=1, rq=1), errno.EINVAL),
            ("CQ ring with a part of a shadow area", 4096 + 32, LOCAL_WRITE,
             mem_req(2, cq=1), errno.EINVAL),
            ("CQ shadow area over 2 pages", 64, LOCAL_WRITE,
             mem_req(2, cq=2), errno.EINVAL),
            ("unknown reg_type", 4096, 0, mem_req(7), errno.EINVAL),
            # libirdma leaves the ring page counts of MEM uninitialised
            ("MEM with stray ring pages", 4096, 0, mem_req(sq=7, cq=9), 0),
            ("request tail not zero", 4096, 0, mem_req() + b"\1" + 7 * b"\0",
             errno.EOPNOTSUPP)):
        err, resp = reg_mr(fd, pd, addr, length, access, drv)
        expect("reg_mr: " + what, err, want)
        if resp:
            expect("dereg_mr", dereg_mr(fd, resp[0]), 0)


def windows(fd, pd):
    err, raw = cmd(fd, CMD_QUERY_DEVICE, b"", 176)
    expect("query device", err, 0)
    caps = struct.unpack_from("<I", raw, 60)[0]
    if not caps & DEV_MEM_WINDOW:
        print("device reports no memory windows: alloc_mw not tried")
        return
    # the engine has type 2 windows too; libirdma binds only type 1, so
    # the device does not advertise them, but the verb takes them
    print("device caps 0x%x: windows, type 2B %s" %
          (caps, "advertised" if caps & DEV_MW_TYPE_2B else "not advertised"))
    types = (1, 2)
    handles = []
    for t in types:
        err, raw = cmd(fd, CMD_ALLOC_MW, struct.pack("<IB3x", pd, t), 8)
        expect("alloc_mw type %d" % t, err, 0)
        handle, rkey = struct.unpack_from("<II", raw, 0)
        # a window gets its key when it is bound: only the index is known
        st = stags().get(rkey >> 8)
        if not st or st["kind"] != "mw%d" % t:
            die("MW type %d rkey 0x%08x: engine holds %s" % (t, rkey, st))
        handles.append(handle)
    err, _ = cmd(fd, CMD_ALLOC_MW, struct.pack("<IB3x", pd, 3), 8)
    expect("alloc_mw type 3", err, errno.EINVAL)
    for h in handles:
        expect("dealloc_mw", cmd(fd, CMD_DEALLOC_MW, struct.pack("<I", h),
                                 0)[0], 0)


def raw_checks():
    fd, async_fd, pd = raw_context(uv0)
    m = mmap.mmap(-1, 1 << 16)
    bad_requests(fd, pd, buf_addr(m))
    windows(fd, pd)
    os.close(async_fd)
    os.close(fd)
    m.close()
    if stags():
        die("STags left after the raw checks: %s" % stags())
    print("raw checks: no STag left on the engine")


def disassociate():
    fd, async_fd, pd = raw_context(uv1)
    m = mmap.mmap(-1, 1 << 20)
    err, resp = reg_mr(fd, pd, buf_addr(m), 1 << 20, LOCAL_WRITE)
    expect("MR on function 1", err, 0)
    with open(del_device, "w") as f:
        f.write("1")
    # the core destroyed the MR at removal; destroying the dead handle
    # again only drops the user object (the core answers 0 for that)
    err = dereg_mr(fd, resp[0])
    print("dereg_mr after the device is gone: %s" %
          errno.errorcode.get(err, "ok"))
    os.close(async_fd)
    os.close(fd)
    m.close()
    print("function 1 deleted while this process held an MR on it")


raw_checks()
libirdma_mrs()
disassociate()
EOF

[ -z "$(ibdev_of 1)" ] || fail "function 1 still has an RDMA device"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "MR checks passed"
