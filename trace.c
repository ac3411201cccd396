// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
#define CREATE_TRACE_POINTS
#include "trace.h"
