/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: the ILQ, the privileged raw queue pair that carries the iWARP
 * CM's TCP segments (ilq.c), the address handles its sends name, and the
 * IEQ, the second such queue, which takes partial FPDUs (ieq.c).
 */
#ifndef IRDMA_ILQ_H
#define IRDMA_ILQ_H

#include <linux/types.h>

struct irdma_cm_core;
struct irdma_cqp_ah_info;
struct irdma_device;
struct irdma_hw;
struct irdma_ieq_stream;
struct irdma_ilq_ah;

/*
 * Numbers kept for the privileged queues (hw-interface.rst): the ILQ is
 * QP 1 with CQ 1, the IEQ (partial FPDUs, ieq.c) is QP 2 with CQ 2.
 * Verbs never get them on an iWARP function.
 */
#define IRDMA_ILQ_QPN		1
#define IRDMA_ILQ_CQN		1
#define IRDMA_IEQ_QPN		2
#define IRDMA_IEQ_CQN		2

/*
 * Every buffer holds one TCP segment with the 40 bytes in front of it
 * where the engine puts the IP header on receive: room for a full
 * 1500-byte MTU segment with the longest TCP options.
 */
#define IRDMA_ILQ_BUF_SIZE	2048
/* RQ WQEs (one buffer each is posted, but for the one the ring keeps) */
#define IRDMA_ILQ_RQ_SIZE	64
#define IRDMA_ILQ_RX_BUFS	(IRDMA_ILQ_RQ_SIZE - 1)
/* SQ quanta, one per send, and the send buffers */
#define IRDMA_ILQ_SQ_SIZE	64
#define IRDMA_ILQ_TX_BUFS	32
/* CQEs: every receive takes two slots (the extended CQE), a send one */
#define IRDMA_ILQ_CQ_SIZE	256
/* The largest MTU the IEQ's buffers are made for */
#define IRDMA_IEQ_MTU_MAX	9216
/* AH indexes handed out, 1 and up (one per CM connection being set up) */
#define IRDMA_ILQ_AH_MAX	1024

/**
 * enum irdma_ilq_stat - counters of one ILQ
 * @IRDMA_ILQ_STAT_RX: segments handed to the CM
 * @IRDMA_ILQ_STAT_RX_REFUSED: segments the CM did not take (no node or
 *	listener, malformed, or the CM was not attached)
 * @IRDMA_ILQ_STAT_TX: sends posted
 * @IRDMA_ILQ_STAT_TX_NOBUF: frames refused because every buffer was busy
 * @IRDMA_ILQ_STAT_TX_ERR: sends the engine completed with an error
 * @IRDMA_ILQ_STAT_BAD_CQE: CQEs dropped as untrustworthy (error bit on a
 *	receive, bad length, unknown QP or WQE index, buffer not posted)
 * @IRDMA_ILQ_STAT_COUNT: number of counters
 */
enum irdma_ilq_stat {
	IRDMA_ILQ_STAT_RX,
	IRDMA_ILQ_STAT_RX_REFUSED,
	IRDMA_ILQ_STAT_TX,
	IRDMA_ILQ_STAT_TX_NOBUF,
	IRDMA_ILQ_STAT_TX_ERR,
	IRDMA_ILQ_STAT_BAD_CQE,
	IRDMA_ILQ_STAT_COUNT,
};

int irdma_ilq_create(struct irdma_device *iwdev);
void irdma_ilq_destroy(struct irdma_device *iwdev);
int irdma_ieq_create(struct irdma_device *iwdev, u32 mtu);
void irdma_ieq_destroy(struct irdma_device *iwdev);
void irdma_ieq_read_stats(struct irdma_hw *hw, u64 *vals);
void irdma_ieq_unwait(struct irdma_hw *hw, struct irdma_ieq_stream *s);
int irdma_ieq_xmit(struct irdma_hw *hw, struct irdma_ilq_ah *ah,
		   const void *tcp, u32 tcp_len, const void *fpdus, u32 len);
void irdma_ilq_attach(struct irdma_hw *hw, struct irdma_cm_core *core);
u16 irdma_ilq_qs_handle(struct irdma_hw *hw);
void irdma_ilq_read_stats(struct irdma_hw *hw, u64 *vals);
bool irdma_ilq_ceq_event(struct irdma_hw *hw, u64 cq_ctx);
int irdma_ilq_xmit(struct irdma_hw *hw, struct irdma_ilq_ah *ah,
		   const void *seg, u32 len);
struct irdma_ilq_ah *irdma_ilq_ah_create(struct irdma_hw *hw,
					 struct irdma_cqp_ah_info *info);
void irdma_ilq_ah_put(struct irdma_ilq_ah *ah);

#endif /* IRDMA_ILQ_H */
