#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-secs: 150
# irdma-vm-timeout: 1200
#
# The engine's ARP cache, shared by every user of a RoCEv2 function, is
# not filled by one. Each AH names its next hop through an entry of the
# cache. The unprivileged user nobody (tools/guest/isolation.py) creates
# and destroys AHs to more multicast destinations than the cache has
# entries, one after the other (a multicast GID needs no neighbour: its
# MAC follows from the address): every one is created, and afterwards the
# engine holds as many ARP entries as before, because an entry no AH or
# neighbour holds any more goes with the last AH that named it. Then
# another process, root, still creates an AH.
. "$IRDMA_REPO/tools/guest/lib.sh"
. "$IRDMA_REPO/tools/guest/isolation.sh"

log_mark 67-isolation-arp
need_user libirdma
sim_roce_function0 dev
roce_port_ready "$dev" ':ffff:c000:0201'
iso_nodes
take_baseline "ahs arp" 0

# the cache's entries: the simulator's HMC ARP objects (type 4)
size=
sim_state 0 || fail "no simulator state"
in_hmc=
for line in "${SIM_STATE[@]}"; do
	[[ $line == "hmc: committed=1"* ]] && in_hmc=1 && continue
	[ -n "$in_hmc" ] || continue
	[[ $line =~ ^"  obj  4 count="([0-9]+) ]] && size=${BASH_REMATCH[1]} && break
	[[ $line == "  obj "* ]] || in_hmc=
done
[ -n "$size" ] || fail "no ARP object count in the simulator's state"
count=$((size + 64))
echo "ARP cache: $size entries; engine objects: ${IRDMA_BASE_OBJ[0]}"

step "nobody: $count AHs to as many destinations, each destroyed"
iso_run nobody /tmp/67-ah-nobody.txt ah "$dev" 1 $count ||
	fail "the AH loop: $(</tmp/67-ah-nobody.txt)"
echo "nobody: $(</tmp/67-ah-nobody.txt)"
iso_expect /tmp/67-ah-nobody.txt ah-loop ok
iso_done
wait_baseline "the AH loop"

step "root: an AH to a new destination"
iso_run root /tmp/67-ah-root.txt ah "$dev" $((count + 1)) 1 ||
	fail "root's AH: $(</tmp/67-ah-root.txt)"
echo "root: $(</tmp/67-ah-root.txt)"
iso_expect /tmp/67-ah-root.txt ah-loop ok
iso_done
wait_baseline "root's AH"
sim_unload 1 0
echo "$count AHs to as many destinations made and destroyed by one user left the ARP cache as it was; another user still made an AH"
