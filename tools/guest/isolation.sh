# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# For the isolation scripts (64 to 67), sourced after lib.sh: the attacker
# of isolation.py run as a process of its own, as root or as the
# unprivileged user nobody, and the answers to its attempts checked.
#  - iso_nodes: the RDMA device nodes open to every user, as rdma-core's
#    udev rules leave them.
#  - iso_run WHO FILE ARGS...: isolation.py ARGS as WHO (root or nobody),
#    its output in FILE; returns its status.
#  - iso_expect FILE NAME WANT: the answer FILE reports to attempt NAME
#    must be WANT (an errno name, or ok); iso_done fails the test with every
#    answer that was not.
#  - iso_qpns DEV WHO: the QP numbers on RDMA device DEV of process WHO
#    (a PID), or of the kernel's ULPs (WHO "kernel", each followed by its
#    owner's name); nothing if rdma res cannot say.

ISO_PY=$IRDMA_REPO/tools/guest/isolation.py
ISO_FAILS=

iso_nodes() {
	local n

	for n in /dev/infiniband/rdma_cm /dev/infiniband/uverbs*; do
		[ -c "$n" ] || fail "no device node $n"
		chmod 0666 "$n" || fail "chmod $n"
	done
}

iso_run() {
	local who=$1 out=$2

	shift 2
	# an attempt the driver let through may leave the attacker stuck
	if [ "$who" = nobody ]; then
		timeout -k 10 300 setpriv --reuid=nobody --regid=nogroup \
			--clear-groups --inh-caps=-all --bounding-set=-all \
			env PYTHONPATH="$IRDMA_REPO/tools/guest" \
			python3 -u "$ISO_PY" "$@" >"$out" 2>&1
	else
		PYTHONPATH="$IRDMA_REPO/tools/guest" timeout -k 10 300 \
			python3 -u "$ISO_PY" "$@" >"$out" 2>&1
	fi
}

iso_expect() {
	local line got=

	while IFS= read -r line; do
		[[ $line == "ATTEMPT $2: "* ]] && got=${line#"ATTEMPT $2: "}
	done <"$1"
	echo "$2: ${got:-no answer} (must be $3)"
	[ "$got" = "$3" ] || ISO_FAILS+="$2: ${got:-no answer}, not $3; "
}

iso_done() {
	[ -z "$ISO_FAILS" ] || fail "attempts not answered as they must be: $ISO_FAILS"
}

iso_qpns() {
	local line out qpn

	out=$(rdma res show qp link "$1/1" 2>&1) || {
		echo "rdma res show qp: $out" >&2
		return 1
	}
	while IFS= read -r line; do
		[[ $line =~ " lqpn "([0-9]+)" " ]] || continue
		qpn=${BASH_REMATCH[1]}
		if [ "$2" = kernel ]; then
			[[ $line == *" pid "* ]] && continue
			[[ $line =~ " comm "([^ ]+) ]] &&
				echo "$qpn ${BASH_REMATCH[1]}"
		elif [[ "$line " == *" pid $2 "* ]]; then
			echo "$qpn"
		fi
	done <<<"$out"
}
