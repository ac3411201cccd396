# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Memory regions and windows through Debian's libirdma and the raw uverbs
ABI (tools/tests/36-mr.sh).

usage: mr_checks.py IBDEV UVERBS_DEV0 UVERBS_DEV1 SIM_STATE DEL_DEVICE
"""
import ctypes
import errno
import mmap
import os
import re
import struct
import subprocess
import sys

from verbs_client import (buf_addr, cmd, CMD_ALLOC_MW, CMD_ALLOC_PD,
    CMD_DEALLOC_MW, CMD_DEREG_MR, CMD_GET_CONTEXT, CMD_QUERY_DEVICE,
    CMD_REG_MR, die, expect, ibv, LOCAL_WRITE, open_verbs, REMOTE_ATOMIC,
    REMOTE_READ, REMOTE_WRITE)

dev0, uv0, uv1, state, del_device = sys.argv[1:6]

# STag rights the engine keeps: local read always, then LW, RR, RW, bind
R_LR, R_LW, R_RR, R_RW = 1, 2, 4, 8


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


DEV_MEM_WINDOW, DEV_MW_TYPE_2B = 1 << 17, 1 << 24


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
