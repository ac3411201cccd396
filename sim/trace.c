// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* irdma_sim: the engine's tracepoints (isim_trace.h) */
#define CREATE_TRACE_POINTS
#include "isim_trace.h"
