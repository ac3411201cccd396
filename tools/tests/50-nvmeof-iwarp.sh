#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 85
# irdma-vm-timeout: 600
#
# NVMe over Fabrics on iWARP through irdma, the kernel's own host and
# target on one simulated function: nvmet-rdma exports a file-backed
# namespace at 192.0.2.1:4420 and nvme-rdma connects to it, loopback
# through the adapter's switch as in 49-iw-loop. Both are rdma_cm
# consumers over iw_cm and our CM. The host registers each I/O's pages
# with IB_WR_REG_MR and asks the target to invalidate them (SEND with
# invalidate); the target moves data with rdma_rw: RDMA WRITE, and RDMA
# READ with local invalidate into MRs of its own, as iWARP requires of a
# READ's sink.
#  - 4 MiB of random data written to the block device with O_DIRECT in
#    64 KiB I/Os, read back and compared; the namespace's file holds the
#    same bytes.
#  - The port counters: the STags invalidated, the READs and WRITEs.
#  - The controller deleted, the target taken down, the modules unloaded:
#    the RDMA resources and the engine's objects are back at the baseline,
#    but for the idle CQs of the core's shared pool, which stay until the
#    device goes.
. "$IRDMA_REPO/tools/guest/lib.sh"

bus=/sys/bus/irdma_sim
cfs=/sys/kernel/config/nvmet
nqn=nqn.2026-12.org.example:irdma-sim
img=/tmp/50-nvmet.img
pat=/tmp/50-pattern
back=/tmp/50-back
mib=4

log_mark 50-nvmeof-iwarp
load_irdma_sim
kmod -a nvmet nvmet-rdma nvme-rdma || fail "cannot load nvmet, nvmet-rdma, nvme-rdma"
[ -d $cfs ] || mount -t configfs none /sys/kernel/config || fail "mount configfs"
[ -d $cfs ] || fail "no $cfs"
echo "0 iwarp" >$bus/new_device || fail "create 0"
ip link set isim0 up || fail "isim0 up"
ip addr add 192.0.2.1/24 dev isim0 || fail "IPv4 on isim0"
sim_wait_counts 60 1 0 cqp live
dev=$(ibdev_of 0)
[ -n "$dev" ] || fail "no RDMA device on function 0"
take_baseline "qhash apbvt_ports ahs" 0
echo "baseline: $IRDMA_BASE_RES; engine: ${IRDMA_BASE_OBJ[0]}"
declare -A cnt
port_counters "$dev"
inv0=${cnt[iwRdmaInv]:-0}
rd0=${cnt[iwOutRdmaReads]:-0}
wr0=${cnt[iwOutRdmaWrites]:-0}

step "target: $nqn on 192.0.2.1:4420 (rdma), a $mib MiB file"
head -c $((mib << 20)) /dev/zero >$img || fail "namespace file"
mkdir $cfs/subsystems/$nqn || fail "subsystem"
echo 1 >$cfs/subsystems/$nqn/attr_allow_any_host || fail "allow any host"
mkdir $cfs/subsystems/$nqn/namespaces/1 || fail "namespace"
# tmpfs takes no O_DIRECT: the target reads and writes through the cache
echo 1 >$cfs/subsystems/$nqn/namespaces/1/buffered_io || fail "buffered_io"
echo -n $img >$cfs/subsystems/$nqn/namespaces/1/device_path || fail "device_path"
echo 1 >$cfs/subsystems/$nqn/namespaces/1/enable || fail "enable the namespace"
mkdir $cfs/ports/1 || fail "port"
echo rdma >$cfs/ports/1/addr_trtype || fail "trtype"
echo ipv4 >$cfs/ports/1/addr_adrfam || fail "adrfam"
echo 192.0.2.1 >$cfs/ports/1/addr_traddr || fail "traddr"
echo 4420 >$cfs/ports/1/addr_trsvcid || fail "trsvcid"
ln -s $cfs/subsystems/$nqn $cfs/ports/1/subsystems/$nqn ||
	fail "the port does not take the subsystem (no listener on $dev?)"

step "host: nvme-rdma connects"
exec 3<>/dev/nvme-fabrics || fail "no /dev/nvme-fabrics"
echo "transport=rdma,traddr=192.0.2.1,trsvcid=4420,nqn=$nqn,nr_io_queues=1,queue_size=32" >&3 ||
	fail "connect refused: $(dmesg | tail -n 5)"
read -r ctrl <&3 || fail "no answer from /dev/nvme-fabrics"
exec 3>&-
echo "connected: $ctrl"
[[ $ctrl =~ instance=([0-9]+) ]] || fail "no instance in '$ctrl'"
ctl=nvme${BASH_REMATCH[1]}
blk=
for ((i = 0; i < 30; i++)); do
	# the namespace's block device (with multipath, the head's)
	for d in /dev/nvme*n1; do
		[ -b "$d" ] && blk=$d && break 2
	done
	pause 1
done
[ -n "$blk" ] || fail "no namespace block device of $ctl"
echo "namespace: $blk, transport $(<"/sys/class/nvme/$ctl/transport")"

step "$mib MiB written with O_DIRECT, read back, compared"
head -c $((mib << 20)) /dev/urandom >$pat || fail "pattern"
dd if=$pat of="$blk" bs=64k count=$((mib * 16)) oflag=direct status=none ||
	fail "write to $blk"
dd if="$blk" of=$back bs=64k count=$((mib * 16)) iflag=direct status=none ||
	fail "read from $blk"
cmp $pat $back || fail "the data read back differs from what was written"
cmp $pat $img || fail "the namespace's file differs from what was written"
echo "$mib MiB through nvme-rdma and nvmet-rdma, identical on the host, the wire and the file"

step "the port counters"
port_counters "$dev"
inv=$((${cnt[iwRdmaInv]:-0} - inv0))
rd=$((${cnt[iwOutRdmaReads]:-0} - rd0))
wr=$((${cnt[iwOutRdmaWrites]:-0} - wr0))
echo "during the I/O: $inv STags invalidated, $rd RDMA READs, $wr RDMA WRITEs"
# per 64 KiB write: the target's READ of it (invalidating its own MR) and
# its reply invalidating the host's; per read: the target's WRITE and reply
ios=$((mib * 16))
((rd >= ios)) || fail "$rd RDMA READs for $ios writes"
((wr >= ios)) || fail "$wr RDMA WRITEs for $ios reads"
((inv >= 3 * ios)) || fail "$inv invalidations for $ios writes and $ios reads"

step "teardown"
echo 1 >"/sys/class/nvme/$ctl/delete_controller" || fail "delete $ctl"
for ((i = 0; i < 30; i++)); do
	[ -e "/sys/class/nvme/$ctl" ] || break
	pause 1
done
[ -e "/sys/class/nvme/$ctl" ] && fail "$ctl still there"
rm $cfs/ports/1/subsystems/$nqn || fail "unlink the subsystem"
rmdir $cfs/ports/1 || fail "remove the port"
echo 0 >$cfs/subsystems/$nqn/namespaces/1/enable
rmdir $cfs/subsystems/$nqn/namespaces/1 || fail "remove the namespace"
rmdir $cfs/subsystems/$nqn || fail "remove the subsystem"
rmmod nvme_rdma nvmet_rdma nvmet || fail "rmmod nvme_rdma nvmet_rdma nvmet"
# Both take their CQs from the core's shared pool (ib_cq_pool_get()),
# which keeps them, unused, until the device goes away: those may stay
pool=0
for ((i = 0; i < 30; i++)); do
	cqs=$(rdma res show cq dev "$dev") || fail "rdma res show cq: $cqs"
	pool=0
	others=
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		if [[ " $line " == *" users 0 "* && $line == *"comm [ib_core]"* ]]; then
			pool=$((pool + 1))
		else
			others+="$line; "
		fi
	done <<<"$cqs"
	[ -z "$others" ] && break
	pause 1
done
[ -z "$others" ] || fail "CQs in use after the teardown: $others"
echo "the core's CQ pool keeps $pool idle CQs on $dev"
[[ $IRDMA_BASE_RES =~ " cq "([0-9]+)" " ]] || fail "no CQ count in '$IRDMA_BASE_RES'"
IRDMA_BASE_RES=${IRDMA_BASE_RES/ cq ${BASH_REMATCH[1]} / cq $((BASH_REMATCH[1] + pool)) }
wait_baseline "NVMe-oF"
echo 0 >$bus/del_device || fail "delete 0"
rmmod irdma_sim || fail "rmmod irdma_sim"
rmmod irdma || fail "rmmod irdma"
rm -f $img $pat $back
echo "NVMe-oF over iWARP on one function: $mib MiB verified, nothing left behind"
