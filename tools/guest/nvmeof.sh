# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# NVMe over Fabrics through irdma on one simulated function, sourced by the
# e2e tests that run it on iWARP and on RoCEv2 (after lib.sh). The kernel's
# own host and target: nvmet-rdma exports a file-backed namespace at
# 192.0.2.1:4420 and nvme-rdma connects to it, loopback through the
# adapter's switch. Both are rdma_cm consumers.
#  - 4 MiB of random data written to the block device with O_DIRECT in
#    64 KiB I/Os, read back and compared; the namespace's file holds the
#    same bytes.
#  - The port counters: the STags invalidated, the READs and WRITEs.
#  - The controller deleted, the target taken down, the modules unloaded:
#    the RDMA resources and the engine's objects are back at the baseline,
#    but for the idle CQs of the core's shared pool, which stay until the
#    device goes.

# For nvmeof_loop: NVMe-oF I/O on the function 0 that the caller has made
# (its netdev up, 192.0.2.1/24 on it, its engine live), RDMA device DEV,
# transport TRANSPORT (iwarp or roce), files under /tmp named after TAG.
# Usage: nvmeof_loop DEV TRANSPORT TAG
nvmeof_loop() {
	local dev=$1 tr=$2 tag=$3
	local cfs=/sys/kernel/config/nvmet nqn=nqn.2026-12.org.example:irdma-sim
	local img=/tmp/$tag-nvmet.img pat=/tmp/$tag-pattern back=/tmp/$tag-back
	local mib=4 ios ctrl ctl blk d i cqs pool others line base_cqs

	kmod -a nvmet nvmet-rdma nvme-rdma ||
		fail "cannot load nvmet, nvmet-rdma, nvme-rdma"
	[ -d $cfs ] || mount -t configfs none /sys/kernel/config || fail "mount configfs"
	[ -d $cfs ] || fail "no $cfs"
	take_baseline "qhash apbvt_ports ahs" 0
	# the CQs already there (on RoCEv2, the MAD layer's of QP1)
	base_cqs=$(rdma res show cq dev "$dev") || fail "rdma res show cq: $base_cqs"
	base_cqs=" $(sed -n 's/.* cqn \([0-9]*\) .*/\1/p' <<<"$base_cqs" | tr '\n' ' ')"
	echo "baseline: $IRDMA_BASE_RES; engine: ${IRDMA_BASE_OBJ[0]}"
	rdma_io_counters "$dev" start

	step "target: $nqn on 192.0.2.1:4420 (rdma), a $mib MiB file"
	head -c $((mib << 20)) /dev/zero >"$img" || fail "namespace file"
	mkdir $cfs/subsystems/$nqn || fail "subsystem"
	echo 1 >$cfs/subsystems/$nqn/attr_allow_any_host || fail "allow any host"
	mkdir $cfs/subsystems/$nqn/namespaces/1 || fail "namespace"
	# tmpfs takes no O_DIRECT: the target reads and writes through the cache
	echo 1 >$cfs/subsystems/$nqn/namespaces/1/buffered_io || fail "buffered_io"
	echo -n "$img" >$cfs/subsystems/$nqn/namespaces/1/device_path ||
		fail "device_path"
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
	head -c $((mib << 20)) /dev/urandom >"$pat" || fail "pattern"
	dd if="$pat" of="$blk" bs=64k count=$((mib * 16)) oflag=direct status=none ||
		fail "write to $blk"
	dd if="$blk" of="$back" bs=64k count=$((mib * 16)) iflag=direct status=none ||
		fail "read from $blk"
	cmp "$pat" "$back" || fail "the data read back differs from what was written"
	cmp "$pat" "$img" || fail "the namespace's file differs from what was written"
	echo "$mib MiB through nvme-rdma and nvmet-rdma," \
		"identical on the host, the wire and the file"

	step "the port counters"
	# Per 64 KiB write the target READs the data and its reply invalidates
	# the host's MR; per read it WRITEs the data and its reply invalidates.
	# On iWARP the sink of a READ must be an MR that the READ invalidates
	# (rdma_rw registers one per READ); on RoCEv2 it reads into its pages.
	ios=$((mib * 16))
	if [ "$tr" = iwarp ]; then
		rdma_io_counters "$dev" check $ios $((3 * ios))
	else
		rdma_io_counters "$dev" check $ios $((2 * ios))
	fi

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
			[[ $line =~ " cqn "([0-9]+)" " && $base_cqs == *" ${BASH_REMATCH[1]} "* ]] &&
				continue
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
	[[ $IRDMA_BASE_RES =~ " cq "([0-9]+)" " ]] ||
		fail "no CQ count in '$IRDMA_BASE_RES'"
	IRDMA_BASE_RES=${IRDMA_BASE_RES/ cq ${BASH_REMATCH[1]} / cq $((BASH_REMATCH[1] + pool)) }
	wait_baseline "NVMe-oF"
	rm -f "$img" "$pat" "$back"
	echo "NVMe-oF over $tr on one function: $mib MiB verified, nothing left behind"
}
