# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""User contexts, the doorbell page and user PDs through the uverbs
write() ABI with irdma's driver data, as libirdma sends it
(tools/tests/31-devinfo.sh).

usage: devinfo_checks.py IBDEV UVERBS_DEV0 UVERBS_DEV1 DEL_DEVICE FN_ID
"""
import errno
import mmap
import os
import struct
import sys

from verbs_client import CMD_ALLOC_PD, CMD_GET_CONTEXT, cmd, expect

RESP_CORE = 8          # ib_uverbs_get_context_resp
RESP_FULL = 72         # irdma_alloc_ucontext_resp


def get_context(fd, drv_req, drv_out):
    return cmd(fd, CMD_GET_CONTEXT, drv_req, RESP_CORE + drv_out)


def req(ver=5, rsvd32=0, mask=1, length=16):
    return struct.pack("<IB3xQ", rsvd32, ver, mask)[:length]


def context(path, quiet=False):
    fd = os.open(path, os.O_RDWR)
    err, raw = get_context(fd, req(), RESP_FULL)
    if err or not quiet:
        expect("valid request", err, 0)
    async_fd = struct.unpack_from("<I", raw, 0)[0]
    d = raw[RESP_CORE:]
    key = struct.unpack_from("<Q", d, 24)[0]
    kver, hw_rev, cmask = d[12], d[62], struct.unpack_from("<Q", d, 64)[0]
    if kver != 5 or hw_rev != 2 or cmask != 1:
        print("FAIL: response kernel_ver %d hw_rev %d comp_mask %d" %
              (kver, hw_rev, cmask))
        sys.exit(1)
    return fd, async_fd, key


def try_mmap(fd, off, prot):
    try:
        mmap.mmap(fd, 4096, mmap.MAP_SHARED, prot, offset=off).close()
        return 0
    except OSError as e:
        return e.errno


def bad(path):
    for what, r, outlen, want in (
            ("userspace_ver 4", req(ver=4), RESP_FULL, errno.EINVAL),
            ("userspace_ver 6", req(ver=6), RESP_FULL, errno.EINVAL),
            ("reserved bits", req(rsvd32=1), RESP_FULL, errno.EINVAL),
            ("12-byte request", req(length=12), RESP_FULL, errno.EINVAL),
            ("request tail not zero", req() + b"\1\0\0\0", RESP_FULL,
             errno.EOPNOTSUPP),
            ("libi40iw response", req(), 16, errno.EOPNOTSUPP),
            ("response without hw_rev", req(), 56, errno.EINVAL),
            ("8-byte request (no comp_mask)", req(mask=0, length=8),
             RESP_FULL, 0)):
        fd = os.open(path, os.O_RDWR)
        err, raw = get_context(fd, r, outlen)
        expect(what, err, want)
        if raw:
            os.close(struct.unpack_from("<I", raw, 0)[0])
        os.close(fd)
    fd, async_fd, key = context(path)
    err, _ = get_context(fd, req(), RESP_FULL)
    expect("second context on one file", err, errno.EINVAL)
    rw = mmap.PROT_READ | mmap.PROT_WRITE
    expect("mmap past the doorbell key", try_mmap(fd, key + 4096, rw),
           errno.EINVAL)
    expect("mmap the doorbell executable",
           try_mmap(fd, key, mmap.PROT_READ | mmap.PROT_EXEC), errno.EPERM)
    expect("mmap the doorbell page", try_mmap(fd, key, rw), 0)
    os.close(async_fd)
    os.close(fd)


def alloc_pd(fd, drv_out=8):
    err, raw = cmd(fd, CMD_ALLOC_PD, b"", 4 + drv_out)
    if err:
        return err, None
    return 0, struct.unpack_from("<I", raw, 4)[0]


def cycles(path, n):
    pd_ids = set()
    for i in range(n):
        fd, async_fd, key = context(path, quiet=True)
        m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ, offset=key)
        err, pd_id = alloc_pd(fd)
        if err:
            expect("cycle %d: user PD" % i, err, 0)
        pd_ids.add(pd_id)
        if i == 0:
            expect("user PD without room for its number", alloc_pd(fd, 0)[0],
                   errno.EINVAL)
        m.close()
        os.close(async_fd)
        os.close(fd)
    # every close gave its PD number back (the smallest free one is reused)
    if len(pd_ids) != 1:
        print("FAIL: PD numbers %s over %d cycles" % (sorted(pd_ids), n))
        sys.exit(1)
    print("%d cycles of open, context, doorbell mmap, user PD %d, close" %
          (n, pd_ids.pop()))


def hold_and_delete(path, del_device, fn_id):
    fd, async_fd, key = context(path, quiet=True)
    m = mmap.mmap(fd, 4096, mmap.MAP_SHARED,
                  mmap.PROT_READ | mmap.PROT_WRITE, offset=key)
    struct.unpack_from("<I", m, 0)
    # unregistering disassociates the context instead of waiting for us
    with open(del_device, "w") as f:
        f.write(fn_id)
    # the core revoked the mapping; touching it must not fault
    struct.unpack_from("<I", m, 0)
    m.close()
    os.close(async_fd)
    os.close(fd)
    print("function %s deleted while a context held its doorbell page" %
          fn_id)


bad(sys.argv[2])
cycles(sys.argv[2], 50)
hold_and_delete(sys.argv[3], sys.argv[4], sys.argv[5])
