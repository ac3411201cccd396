#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 13
#
# User contexts through Debian's unmodified libirdma: two simulated iWARP
# functions show up in ibv_devices, ibv_devinfo -v reports transport
# iWARP, the node GUID and the QP/CQ/MR limits the driver logged from its
# HMC profile. Malformed GET_CONTEXT requests (written straight to the
# uverbs write() ABI: libirdma only builds good ones) are refused, the
# doorbell page maps and bad maps are refused, 50 open/context/mmap/PD/
# close cycles leave nothing behind (kmemleak scans after), and a
# function can be deleted while a process holds a context on it with the
# doorbell page mapped.
#
# Under TCG every exec from the 9p root costs seconds: parsing is done
# with builtins and all the Python work happens in one process, without
# pyverbs (importing it takes minutes there): the 50 cycles use the raw
# uverbs ABI, libirdma's own path (context, mmap, PD) is what the
# ibv_devinfo runs take.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim

mark="31-devinfo: start $$"
echo "$mark" >/dev/kmsg

load_stack || fail "cannot load the RDMA stack"
kmod irdma_sim || fail "cannot load irdma_sim"
kmod irdma || fail "cannot load irdma"
echo "0 iwarp" >$bus/new_device || fail "create 0"
echo "1 iwarp" >$bus/new_device || fail "create 1"

dev0=$(ibdev_of 0)
dev1=$(ibdev_of 1)
[ -n "$dev0" ] && [ -n "$dev1" ] ||
	fail "no RDMA device for the functions: '$dev0' '$dev1'"
uv0=$(uverbs_of "$dev0")
uv1=$(uverbs_of "$dev1")
[ -c "$uv0" ] && [ -c "$uv1" ] || fail "no uverbs devices: '$uv0' '$uv1'"

list=$(ibv_devices) || fail "ibv_devices failed"
echo "$list"
[[ $list =~ [[:space:]]$dev0[[:space:]] ]] || fail "ibv_devices does not list $dev0"
[[ $list =~ [[:space:]]$dev1[[:space:]] ]] || fail "ibv_devices does not list $dev1"

# ibv_devinfo's fields (ibv_info_attrs)
declare -A attr

log=$(dmesg)
log=${log#*"$mark"}
# the profile the driver logged for function $1: "QPS CQS MRS"
logged_profile() {
	local re="irdma_sim\.func\.$1: RDMA engine up: ([0-9]+) QPs, ([0-9]+) CQs, ([0-9]+) MRs"

	[[ $log =~ $re ]] &&
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
}

for id in 0 1; do
	dev=$(ibdev_of $id)
	info=$(ibv_devinfo -v -d "$dev") || fail "ibv_devinfo -v -d $dev: $info"
	[ $id = 0 ] && echo "$info"
	ibv_info_attrs "$info"
	t=${attr[transport]}
	[ "${t%% *}" = iWARP ] || fail "$dev: transport '$t'"
	guid=${attr[node_guid]}
	read -r sysguid <"/sys/class/infiniband/$dev/node_guid"
	[ -n "$guid" ] && [ "$guid" = "$sysguid" ] ||
		fail "$dev: node_guid '$guid', sysfs '$sysguid'"
	[ "$guid" != 0000:0000:0000:0000 ] || fail "$dev: zero node GUID"
	want=$(logged_profile $id)
	[ -n "$want" ] || fail "function $id: no HMC profile in the log"
	got="${attr[max_qp]} ${attr[max_cq]} ${attr[max_mr]}"
	[ "$got" = "$want" ] ||
		fail "$dev: max_qp/max_cq/max_mr '$got', driver logged '$want'"
	echo "$dev: transport $t, node_guid $guid, max_qp/cq/mr $got as logged"
done

python3 -u - "$dev0" "$uv0" "$uv1" "$bus/del_device" 1 <<'EOF' ||
# argv: ibdev 0, its uverbs device, uverbs device of function 1,
# del_device, function 1's id. GET_CONTEXT goes through the uverbs write()
# ABI with irdma's driver data, as libirdma sends it.
import ctypes, errno, mmap, os, struct, sys

CMD_GET_CONTEXT = 0
CMD_ALLOC_PD = 3
RESP_CORE = 8          # ib_uverbs_get_context_resp
RESP_FULL = 72         # irdma_alloc_ucontext_resp


def get_context(fd, drv_req, drv_out):
    out = ctypes.create_string_buffer(RESP_CORE + drv_out)
    body = struct.pack("<Q", ctypes.addressof(out)) + drv_req
    hdr = struct.pack("<IHH", CMD_GET_CONTEXT, (8 + len(body)) // 4,
                      (RESP_CORE + drv_out) // 4)
    try:
        os.write(fd, hdr + body)
    except OSError as e:
        return e.errno, None
    return 0, out.raw


def req(ver=5, rsvd32=0, mask=1, length=16):
    return struct.pack("<IB3xQ", rsvd32, ver, mask)[:length]


def expect(what, err, want):
    if err != want:
        print("FAIL: %s: %s, expected %s" % (what, errno.errorcode.get(err, err),
                                             errno.errorcode.get(want, want)))
        sys.exit(1)
    print("%s: %s" % (what, errno.errorcode.get(err, "ok")))


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
    out = ctypes.create_string_buffer(4 + drv_out)
    body = struct.pack("<Q", ctypes.addressof(out))
    hdr = struct.pack("<IHH", CMD_ALLOC_PD, (8 + len(body)) // 4,
                      (4 + drv_out) // 4)
    try:
        os.write(fd, hdr + body)
    except OSError as e:
        return e.errno, None
    return 0, struct.unpack_from("<I", out.raw, 4)[0]


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
EOF
	fail "user context checks"

[ -z "$(ibdev_of 1)" ] || fail "function 1 still has an RDMA device"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim || fail "rmmod irdma_sim"
echo "devinfo checks passed"
