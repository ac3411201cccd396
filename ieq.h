/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: partial FPDUs of offloaded iWARP connections, which the engine
 * hands to the IEQ (ieq.c), and the per-QP state that puts them together.
 */
#ifndef IRDMA_IEQ_H
#define IRDMA_IEQ_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct irdma_cm_core;
struct irdma_cm_rx_info;
struct irdma_device;
struct irdma_ilq_ah;
struct irdma_qp;

/* Where the engine writes the FPSN of a QP's partial FPDU in its Q2 */
#define IRDMA_Q2_FPSN_OFF	64

/**
 * enum irdma_ieq_stat - what the IEQ did
 * @IRDMA_IEQ_STAT_EPISODES: times a connection went partial (a new FPSN)
 * @IRDMA_IEQ_STAT_SEGS: segments taken into a connection's stream
 * @IRDMA_IEQ_STAT_FPDUS: complete FPDUs handed back to the engine
 * @IRDMA_IEQ_STAT_SENDS: sends that carried them
 * @IRDMA_IEQ_STAT_DUP: segments with nothing new (a duplicate) dropped
 * @IRDMA_IEQ_STAT_GAP: segments beyond a missing one dropped
 * @IRDMA_IEQ_STAT_NO_CONN: segments of no connection with a QP
 * @IRDMA_IEQ_STAT_BAD_FPDU: FPDUs with an impossible length or a bad CRC;
 *	each ends its connection through an AE
 * @IRDMA_IEQ_STAT_NO_RES: segments lost for want of memory
 * @IRDMA_IEQ_STAT_WAITS: times complete FPDUs found every send buffer
 *	busy and waited for one
 * @IRDMA_IEQ_STAT_COUNT: number of counters
 */
enum irdma_ieq_stat {
	IRDMA_IEQ_STAT_EPISODES,
	IRDMA_IEQ_STAT_SEGS,
	IRDMA_IEQ_STAT_FPDUS,
	IRDMA_IEQ_STAT_SENDS,
	IRDMA_IEQ_STAT_DUP,
	IRDMA_IEQ_STAT_GAP,
	IRDMA_IEQ_STAT_NO_CONN,
	IRDMA_IEQ_STAT_BAD_FPDU,
	IRDMA_IEQ_STAT_NO_RES,
	IRDMA_IEQ_STAT_WAITS,
	IRDMA_IEQ_STAT_COUNT,
};

/**
 * struct irdma_ieq_state - what the IEQ keeps beside its queue
 * @stats: counters (enum irdma_ieq_stat)
 * @wait: streams with complete FPDUs that found every send buffer busy,
 *	in the order they did; the IEQ's CQ lock protects it
 */
struct irdma_ieq_state {
	atomic64_t stats[IRDMA_IEQ_STAT_COUNT];
	struct list_head wait;
};

/* The longest TCP header a segment handed back carries */
#define IRDMA_IEQ_TCP_MAX	60
/* gen1 sends whole frames: a tagged Ethernet header and IPv6 in front */
#define IRDMA_IEQ_HDR_MAX	(18 + 40 + IRDMA_IEQ_TCP_MAX)

/**
 * struct irdma_ieq_stream - the bytes of one connection the IEQ holds
 * @lock: everything below but @wait and @waiting
 * @wait: in the IEQ's wait list while @waiting (the IEQ's CQ lock)
 * @waiting: complete FPDUs wait for a send buffer
 * @buf: bytes from @seq on, not yet handed back (@size bytes)
 * @ah: loopback AH the sends name, or NULL
 * @size: room in @buf
 * @len: bytes held
 * @seq: sequence number of @buf's first byte
 * @fps: the FPSN of the episode (the engine's, from Q2)
 * @max_fpdu: the longest FPDU the connection takes (from the MTU)
 * @active: an episode is under way
 * @failed: a bad FPDU was found; nothing more is taken this episode
 * @hdr: the headers of the latest segment, for the sends: its TCP
 *	header (gen2), or its whole frame's headers (gen1)
 * @hdr_len: their bytes
 * @tcp_off: where the TCP header starts in @hdr
 */
struct irdma_ieq_stream {
	spinlock_t lock; /* all fields but wait and waiting */
	struct list_head wait;
	bool waiting;
	u8 *buf;
	struct irdma_ilq_ah *ah;
	u32 size;
	u32 len;
	u32 seq;
	u32 fps;
	u32 max_fpdu;
	bool active;
	bool failed;
	u8 hdr[IRDMA_IEQ_HDR_MAX];
	u8 hdr_len;
	u8 tcp_off;
};

void irdma_ieq_stream_init(struct irdma_ieq_stream *s);
int irdma_ieq_stream_add(struct irdma_ieq_stream *s, u32 fps, u32 seq,
			 const u8 *data, u32 len, u32 size);
int irdma_ieq_stream_ready(const struct irdma_ieq_stream *s, u32 room,
			   u32 max_fpdu, bool crc, u32 *n, u32 *fpdus);
void irdma_ieq_stream_consume(struct irdma_ieq_stream *s, u32 n);
void irdma_ieq_stream_reset(struct irdma_ieq_stream *s);

int irdma_ieq_rx(struct irdma_device *iwdev, struct irdma_cm_core *core,
		 const u8 *frame, u32 len, const struct irdma_cm_rx_info *rxi,
		 struct irdma_ieq_state *st);
void irdma_ieq_tx_done(struct irdma_ieq_state *st);
void irdma_ieq_qp_release(struct irdma_qp *qp);

#endif /* IRDMA_IEQ_H */
