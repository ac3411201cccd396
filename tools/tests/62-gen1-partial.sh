#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# irdma-vm-timeout: 600
# irdma-vm-secs: 40
#
# Partial FPDUs on X722 (gen1) functions: 58-iw-partial.sh's four cases
# (a READ response and WRITEs cut across segments and put together, the
# IEQ out of send buffers, a bad CRC ending the connection), where the
# engine hands the IEQ whole frames and the driver gives the FPDUs back as
# whole frames with the loopback bit, their IP lengths rewritten, without
# an AH.
IRDMA_SIM_GEN=gen1 IRDMA_PARTIAL_NAME=62-gen1-partial \
	exec bash "$IRDMA_REPO/tools/tests/58-iw-partial.sh"
