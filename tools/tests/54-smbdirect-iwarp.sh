#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 34
# irdma-vm-timeout: 900
#
# SMB Direct (MS-SMBD) on iWARP through irdma: the kernel's SMB3 server,
# ksmbd (run by Debian's ksmbd-tools), and its SMB3 client, cifs mounted
# with -o rdma, on one simulated function, loopback through the adapter's
# switch as in 50-nvmeof-iwarp. Both are rdma_cm consumers over iw_cm and
# our CM; on an iWARP device both use port 5445. The client registers the
# pages of each large READ and WRITE (IB_WR_REG_MR) and names them in an
# SMB2 channel; the server moves the data with rdma_rw (RDMA READ into MRs
# of its own for a WRITE, RDMA WRITE for a READ) and its reply asks for
# the client's MR to be invalidated (SEND with invalidate).
#  - 4 MiB of random data written through the mount with cache=none in
#    64 KiB writes, read back and compared; the share's file holds the
#    same bytes.
#  - /proc/fs/cifs/DebugData shows the session on SMB Direct, and the port
#    counters the RDMA READs, WRITEs and invalidations the data needed.
#  - Unmounted, the server stopped, the modules unloaded: the RDMA
#    resources and the engine's objects are back at the baseline.
. "$IRDMA_REPO/tools/guest/lib.sh"

# ksmbd's SMB Direct connection handlers (threads ksmbd:r<port>), counted
# with builtins
smbd_handlers() {
	local f comm n=0

	for f in /proc/[0-9]*/comm; do
		read -r comm <"$f" 2>/dev/null || continue
		[[ $comm == ksmbd:r* ]] && n=$((n + 1))
	done
	echo $n
}

work=/tmp/54-smb
share=$work/share
mnt=$work/mnt
conf=$work/ksmbd.conf
users=$work/ksmbdpwd.db
pass=irdma-sim-54
mib=4

compat=/run/irdma/run/ksmbd-compat.so
[ -f $compat ] || fail "no $compat: the harness builds it when ksmbd-tools is installed"
for t in ksmbd.mountd ksmbd.adduser ksmbd.control mount.cifs; do
	command -v $t >/dev/null ||
		fail "$t missing: tools/irdma-vm setup installs ksmbd-tools and cifs-utils"
done

log_mark 54-smbdirect-iwarp
sim_iwarp_function0 dev
kmod -a ksmbd cifs || fail "cannot load ksmbd and cifs"
take_baseline "qhash apbvt_ports" 0
echo "baseline: $IRDMA_BASE_RES; engine: ${IRDMA_BASE_OBJ[0]}"
rdma_io_counters "$dev" start

step "server: ksmbd on $dev, share 'irdma' on tmpfs"
mkdir -p "$share" "$mnt" || fail "directories under $work"
cat >"$conf" <<EOF || fail "$conf"
[global]
	netbios name = IRDMASIM
	server min protocol = SMB3
	server signing = disabled
[irdma]
	path = $share
	read only = no
	valid users = root
EOF
ksmbd.adduser -c "$conf" -i "$users" -a root -p "$pass" ||
	fail "ksmbd.adduser"
# With the harness's shim for Debian 12's ksmbd-tools (see
# tools/guest/ksmbd-compat.c): without it ksmbd refuses every share.
LD_PRELOAD=$compat ksmbd.mountd -c "$conf" -u "$users" ||
	fail "ksmbd.mountd did not start"
# The server listens for SMB Direct once ksmbd.mountd has started it.
for ((i = 0; i < 60; i++)); do
	cm=$(rdma res show cm_id dev "$dev" 2>/dev/null)
	[[ $cm == *"state LISTEN"*"src-addr "*":5445 "* ]] && break
	pause 1
done
[[ $cm == *"state LISTEN"*"src-addr "*":5445 "* ]] ||
	fail "no SMB Direct listener on port 5445: $cm; $(log_since | tail -n 5)"
echo "listening: $(grep -m1 ":5445 " <<<"$cm")"

step "client: cifs mounts //192.0.2.1/irdma with -o rdma"
mount -t cifs //192.0.2.1/irdma "$mnt" \
	-o "rdma,vers=3.1.1,username=root,password=$pass,cache=none" ||
	fail "mount over SMB Direct: $(log_since | tail -n 8)"
dbg=$(</proc/fs/cifs/DebugData)
grep -q 'SMBDirect (in hex) protocol version' <<<"$dbg" ||
	fail "the session is not on SMB Direct: $dbg"
grep -m1 -A1 'SMBDirect (in hex) protocol version' <<<"$dbg"

step "$mib MiB written through the mount, read back, compared"
head -c $((mib << 20)) /dev/urandom >"$work/pattern" || fail "pattern"
dd if="$work/pattern" of="$mnt/data" bs=64k count=$((mib * 16)) \
	status=none conv=fsync || fail "write to $mnt/data"
cmp "$work/pattern" "$share/data" ||
	fail "the share's file differs from what was written"
dd if="$mnt/data" of="$work/back" bs=64k status=none ||
	fail "read from $mnt/data"
cmp "$work/pattern" "$work/back" ||
	fail "the data read back differs from what was written"
echo "$mib MiB through cifs and ksmbd, identical on the client," \
	"the wire and the share"

step "the port counters"
# Each 64 KiB write is an RDMA READ by the server, each 64 KiB read an
# RDMA WRITE; iWARP makes the sink of a READ an MR that the READ
# invalidates, and each reply invalidates the client's MR.
ios=$((mib * 16))
rdma_io_counters "$dev" check $ios $((3 * ios))

step "teardown"
umount "$mnt" || fail "umount $mnt"
# The ksmbd of 6.1.192 stops its sessions by walking its list of
# connections with the list's lock dropped around each shutdown; a
# connection that its handler thread frees meanwhile (the client's
# disconnect after the umount) is read after it was freed (KASAN:
# use-after-free in ksmbd_conn_transport_destroy, one run in a few).
# Stop the server once the handler, which frees the connection and then
# exits, is gone.
for ((i = 0; i < 60; i++)); do
	[ "$(smbd_handlers)" = 0 ] && break
	pause 1
done
ksmbd.control -s || fail "ksmbd.control -s"
for ((i = 0; i < 30; i++)); do
	pgrep -x ksmbd.mountd >/dev/null || break
	pause 1
done
pgrep -x ksmbd.mountd >/dev/null && fail "ksmbd.mountd still running"
rmmod cifs ksmbd || fail "rmmod cifs ksmbd"
wait_baseline "SMB Direct"
rm -rf "$work"
sim_unload 0
echo "SMB Direct over iWARP on one function: $mib MiB verified, nothing left behind"
