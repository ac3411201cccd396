#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The demo, inside the guest: load the RDMA stack and irdma, show what the
# driver registers, unload it again.
. "$IRDMA_REPO/tools/guest/lib.sh"
set -e

step() { printf '\n### %s\n' "$*"; }

step "kernel $(uname -r)"
load_stack
kmod irdma
lsmod | grep -E '^(irdma|ice|i40e|ib_core|iw_cm|ib_uverbs|rdma_cm) ' | sort

step "modinfo irdma: the auxiliary devices it binds to"
modinfo -b "$IRDMA_MODROOT" -k "$(uname -r)" irdma |
	grep -E '^(filename|alias|description|license|depends):' |
	sed "s|$IRDMA_MODROOT||"

step "auxiliary drivers registered by irdma"
for d in /sys/bus/auxiliary/drivers/irdma.*; do
	echo "$(basename "$d")"
done

step "rdma devices (none until bring-up lands)"
rdma dev show || true

step "unloading"
rmmod irdma
if ls -d /sys/bus/auxiliary/drivers/irdma.* >/dev/null 2>&1; then
	echo "irdma drivers still registered after rmmod"
	exit 1
fi
echo "irdma unloaded; its auxiliary drivers are gone"
