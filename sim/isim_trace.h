/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: what the engine saw the driver do, as tracepoints (off until
 * enabled in tracefs, events/irdma_sim): every CQP command with its WQE,
 * the CQP and QP host contexts, and every register write the engine
 * consumes: two such logs, one scenario run under each of two drivers,
 * show where the drivers' readings of the hardware differ.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma_sim

#if !defined(ISIM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define ISIM_TRACE_H

#include <linux/tracepoint.h>

/* one CQP command, executed: its WQE (CPU order) and the result */
TRACE_EVENT(isim_cqp_cmd,
	    TP_PROTO(u32 fn, u32 idx, u32 op, const char *name, const u64 *w,
		     u16 minor),
	    TP_ARGS(fn, idx, op, name, w, minor),
	    TP_STRUCT__entry(__field(u32, fn)
			     __field(u32, idx)
			     __field(u32, op)
			     __string(name, name)
			     __array(u64, w, 8)
			     __field(u16, minor)),
	    TP_fast_assign(__entry->fn = fn;
			   __entry->idx = idx;
			   __entry->op = op;
			   __assign_str(name, name);
			   memcpy(__entry->w, w, sizeof(__entry->w));
			   __entry->minor = minor;),
	    TP_printk("fn=%u idx=%u op=0x%02x %s minor=0x%04x w=%016llx %016llx %016llx %016llx %016llx %016llx %016llx %016llx",
		      __entry->fn, __entry->idx, __entry->op,
		      __get_str(name), __entry->minor,
		      __entry->w[0], __entry->w[1], __entry->w[2],
		      __entry->w[3], __entry->w[4], __entry->w[5],
		      __entry->w[6], __entry->w[7])
);

/* a host context the engine read: the CQP's (id 0) or a QP's */
TRACE_EVENT(isim_ctx,
	    TP_PROTO(u32 fn, const char *kind, u32 id, const u64 *w,
		     unsigned int words),
	    TP_ARGS(fn, kind, id, w, words),
	    TP_STRUCT__entry(__field(u32, fn)
			     __string(kind, kind)
			     __field(u32, id)
			     __dynamic_array(u64, w, words)),
	    TP_fast_assign(__entry->fn = fn;
			   __assign_str(kind, kind);
			   __entry->id = id;
			   memcpy(__get_dynamic_array(w), w,
				  words * sizeof(u64));),
	    TP_printk("fn=%u %s id=%u w=%s", __entry->fn, __get_str(kind),
		      __entry->id,
		      __print_array(__get_dynamic_array(w),
				    __get_dynamic_array_len(w) / sizeof(u64),
				    sizeof(u64)))
);

/* a register write the engine consumed (a doorbell, a CQP trigger) */
TRACE_EVENT(isim_reg,
	    TP_PROTO(u32 fn, u32 off, u32 val),
	    TP_ARGS(fn, off, val),
	    TP_STRUCT__entry(__field(u32, fn)
			     __field(u32, off)
			     __field(u32, val)),
	    TP_fast_assign(__entry->fn = fn;
			   __entry->off = off;
			   __entry->val = val;),
	    TP_printk("fn=%u off=0x%06x val=0x%08x", __entry->fn,
		      __entry->off, __entry->val)
);

#endif /* ISIM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE isim_trace
#include <trace/define_trace.h>
