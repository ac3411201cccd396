/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Copyright (c) 2026 The irdma project authors */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma

#if !defined(IRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IRDMA_TRACE_H

#include <linux/tracepoint.h>
#include <net/tcp.h>
#include <rdma/iw_cm.h>

#include "cm.h"
#include "ctrl.h"

#define irdma_show_cm_state(s)						\
	__print_symbolic(s,						\
		{ IRDMA_CM_STATE_UNKNOWN, "UNKNOWN" },			\
		{ IRDMA_CM_STATE_LISTENING, "LISTENING" },		\
		{ IRDMA_CM_STATE_SYN_SENT, "SYN_SENT" },		\
		{ IRDMA_CM_STATE_SYN_RCVD, "SYN_RCVD" },		\
		{ IRDMA_CM_STATE_ESTABLISHED, "ESTABLISHED" },		\
		{ IRDMA_CM_STATE_MPAREQ_RCVD, "MPAREQ_RCVD" },		\
		{ IRDMA_CM_STATE_MPAREQ_SENT, "MPAREQ_SENT" },		\
		{ IRDMA_CM_STATE_MPAREJ_RCVD, "MPAREJ_RCVD" },		\
		{ IRDMA_CM_STATE_OFFLOADED, "OFFLOADED" },		\
		{ IRDMA_CM_STATE_FIN_WAIT1, "FIN_WAIT1" },		\
		{ IRDMA_CM_STATE_FIN_WAIT2, "FIN_WAIT2" },		\
		{ IRDMA_CM_STATE_CLOSING, "CLOSING" },			\
		{ IRDMA_CM_STATE_LAST_ACK, "LAST_ACK" },		\
		{ IRDMA_CM_STATE_TIME_WAIT, "TIME_WAIT" },		\
		{ IRDMA_CM_STATE_CLOSED, "CLOSED" })

#define irdma_show_tcp_flags(f)						\
	__print_flags(f, "|",						\
		{ TCPHDR_FIN, "FIN" }, { TCPHDR_SYN, "SYN" },		\
		{ TCPHDR_RST, "RST" }, { TCPHDR_PSH, "PSH" },		\
		{ TCPHDR_ACK, "ACK" }, { TCPHDR_URG, "URG" })

#define irdma_show_iw_event(e)						\
	__print_symbolic(e,						\
		{ IW_CM_EVENT_CONNECT_REQUEST, "CONNECT_REQUEST" },	\
		{ IW_CM_EVENT_CONNECT_REPLY, "CONNECT_REPLY" },		\
		{ IW_CM_EVENT_ESTABLISHED, "ESTABLISHED" },		\
		{ IW_CM_EVENT_DISCONNECT, "DISCONNECT" },		\
		{ IW_CM_EVENT_CLOSE, "CLOSE" })

/* CM: one node changes state */
TRACE_EVENT(irdma_cm_state,
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
	    TP_printk("node=%p ports=%u:%u %s -> %s",
		      __entry->node, __entry->loc_port, __entry->rem_port,
		      irdma_show_cm_state(__entry->from),
		      irdma_show_cm_state(__entry->to))
);

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
		    TP_printk("node=%p [%s] seq=%u ack=%u len=%u",
			      __entry->node, irdma_show_tcp_flags(__entry->flags),
			      __entry->seq, __entry->ack, __entry->len)
);

DEFINE_EVENT(irdma_cm_frame_class, irdma_cm_frame_tx,
	     TP_PROTO(const void *node, u8 flags, u32 seq, u32 ack, u32 len),
	     TP_ARGS(node, flags, seq, ack, len));

DEFINE_EVENT(irdma_cm_frame_class, irdma_cm_frame_rx,
	     TP_PROTO(const void *node, u8 flags, u32 seq, u32 ack, u32 len),
	     TP_ARGS(node, flags, seq, ack, len));

/* CM: an event delivered to iw_cm */
TRACE_EVENT(irdma_cm_upcall,
	    TP_PROTO(const void *node, const void *cm_id, int type, int status),
	    TP_ARGS(node, cm_id, type, status),
	    TP_STRUCT__entry(__field(const void *, node)
			     __field(const void *, cm_id)
			     __field(int, type)
			     __field(int, status)),
	    TP_fast_assign(__entry->node = node;
			   __entry->cm_id = cm_id;
			   __entry->type = type;
			   __entry->status = status;),
	    TP_printk("node=%p cm_id=%p %s status=%d",
		      __entry->node, __entry->cm_id,
		      irdma_show_iw_event(__entry->type), __entry->status)
);

/* CQP: one command done (or refused); its waits in us */
TRACE_EVENT(irdma_cqp_cmd,
	    TP_PROTO(const char *dev, const char *name, bool queued,
		     u64 queue_us, u64 wait_us, int ret),
	    TP_ARGS(dev, name, queued, queue_us, wait_us, ret),
	    TP_STRUCT__entry(__string(dev, dev)
			     __string(name, name)
			     __field(bool, queued)
			     __field(u64, queue_us)
			     __field(u64, wait_us)
			     __field(int, ret)),
	    TP_fast_assign(__assign_str(dev, dev);
			   __assign_str(name, name);
			   __entry->queued = queued;
			   __entry->queue_us = queue_us;
			   __entry->wait_us = wait_us;
			   __entry->ret = ret;),
	    TP_printk("%s %s%s queue_us=%llu wait_us=%llu ret=%d",
		      __get_str(dev), __get_str(name),
		      __entry->queued ? " (request)" : "",
		      __entry->queue_us, __entry->wait_us, __entry->ret)
);

/* Engine: an asynchronous event, before it is acted on (ae.c) */
TRACE_EVENT(irdma_ae,
	    TP_PROTO(const struct device *dev,
		     const struct irdma_aeqe_info *ae),
	    TP_ARGS(dev, ae),
	    TP_STRUCT__entry(__string(dev, dev_name(dev))
			     __field(u32, id)
			     __field(u16, code)
			     __field(u8, source)
			     __field(u8, iw_state)
			     __field(u8, tcp_state)
			     __field(bool, is_cq)
			     __field(bool, is_qp)
			     __field(bool, overflow)),
	    TP_fast_assign(__assign_str(dev, dev_name(dev));
			   __entry->id = ae->id;
			   __entry->code = ae->code;
			   __entry->source = ae->source;
			   __entry->iw_state = ae->iw_state;
			   __entry->tcp_state = ae->tcp_state;
			   __entry->is_cq = ae->is_cq;
			   __entry->is_qp = ae->is_qp;
			   __entry->overflow = ae->overflow;),
	    TP_printk("%s AE 0x%03x source 0x%x %s %u iwarp state %u tcp state %u%s",
		      __get_str(dev), __entry->code, __entry->source,
		      __entry->is_cq ? "CQ" : __entry->is_qp ? "QP" : "function",
		      __entry->id, __entry->iw_state, __entry->tcp_state,
		      __entry->overflow ? " (AEQ overflowed)" : "")
);

#endif /* IRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
