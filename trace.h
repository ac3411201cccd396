/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Copyright (c) 2026 The irdma project authors */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma

#if !defined(IRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IRDMA_TRACE_H

#include <linux/tracepoint.h>

/* CM: one node changes state */
DECLARE_EVENT_CLASS(irdma_cm_state_class,
		    TP_PROTO(const void *node, u16 loc_port, u16 rem_port,
			     int from, int to),
		    TP_ARGS(node, loc_port, rem_port, from, to),
		    TP_STRUCT__entry(__field(const void *, node)
				     __field(u16, loc_port)
				     __field(u16, rem_port)
				     __field(int, from)
				     __field(int, to)),
		    TP_fast_assign(__entry->node = node;
				   __entry->loc_port = loc_port;
				   __entry->rem_port = rem_port;
				   __entry->from = from;
				   __entry->to = to;),
		    TP_printk("node=%p ports=%u:%u state %d -> %d",
			      __entry->node, __entry->loc_port,
			      __entry->rem_port, __entry->from, __entry->to)
);

DEFINE_EVENT(irdma_cm_state_class, irdma_cm_state,
	     TP_PROTO(const void *node, u16 loc_port, u16 rem_port, int from,
		      int to),
	     TP_ARGS(node, loc_port, rem_port, from, to));

/* CM: a TCP segment sent or received on the ILQ */
DECLARE_EVENT_CLASS(irdma_cm_frame_class,
		    TP_PROTO(const void *node, u8 flags, u32 seq, u32 ack,
			     u32 len),
		    TP_ARGS(node, flags, seq, ack, len),
		    TP_STRUCT__entry(__field(const void *, node)
				     __field(u8, flags)
				     __field(u32, seq)
				     __field(u32, ack)
				     __field(u32, len)),
		    TP_fast_assign(__entry->node = node;
				   __entry->flags = flags;
				   __entry->seq = seq;
				   __entry->ack = ack;
				   __entry->len = len;),
		    TP_printk("node=%p flags=0x%02x seq=%u ack=%u len=%u",
			      __entry->node, __entry->flags, __entry->seq,
			      __entry->ack, __entry->len)
);

DEFINE_EVENT(irdma_cm_frame_class, irdma_cm_frame_tx,
	     TP_PROTO(const void *node, u8 flags, u32 seq, u32 ack, u32 len),
	     TP_ARGS(node, flags, seq, ack, len));

DEFINE_EVENT(irdma_cm_frame_class, irdma_cm_frame_rx,
	     TP_PROTO(const void *node, u8 flags, u32 seq, u32 ack, u32 len),
	     TP_ARGS(node, flags, seq, ack, len));

/* CM: an event delivered to iw_cm */
DECLARE_EVENT_CLASS(irdma_cm_upcall_class,
		    TP_PROTO(const void *node, const void *cm_id, int type,
			     int status),
		    TP_ARGS(node, cm_id, type, status),
		    TP_STRUCT__entry(__field(const void *, node)
				     __field(const void *, cm_id)
				     __field(int, type)
				     __field(int, status)),
		    TP_fast_assign(__entry->node = node;
				   __entry->cm_id = cm_id;
				   __entry->type = type;
				   __entry->status = status;),
		    TP_printk("node=%p cm_id=%p event=%d status=%d",
			      __entry->node, __entry->cm_id, __entry->type,
			      __entry->status)
);

DEFINE_EVENT(irdma_cm_upcall_class, irdma_cm_upcall,
	     TP_PROTO(const void *node, const void *cm_id, int type,
		      int status),
	     TP_ARGS(node, cm_id, type, status));

#endif /* IRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
