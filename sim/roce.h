/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: RoCEv2 reliable connections between functions (roce.c).
 *
 * The engine's side of an RC QP whose next hop is not the function
 * itself: the requester (PSNs, the messages it has sent and not yet seen
 * acknowledged, the retransmission and RNR timers) and the responder
 * (the expected PSN, the message being received, the READs it answers).
 */
#ifndef _ISIM_ROCE_H_
#define _ISIM_ROCE_H_

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/types.h>

struct isim_func;
struct isim_qp;
struct isim_xfer;
struct isim_sgl;
struct seq_file;
struct sk_buff;

/* PSNs the requester may have sent and not yet seen acknowledged */
#define ISIM_ROCE_WINDOW	128
/* messages (and local WQEs) that wait for their acknowledgment */
#define ISIM_ROCE_SWQES		256
/* inbound RDMA READs the responder holds (IRD) */
#define ISIM_ROCE_IRD		128

/**
 * struct isim_roce_stats - the function's RoCEv2 RC transport (roce.c)
 * @qps: RC QPs whose state the transport holds
 * @tx: packets sent (requests, responses, ACKs, NAKs, CNPs)
 * @rx: packets taken for an RC QP (or a CNP)
 * @retrans: requests sent again (a timeout, a NAK, a gap in responses)
 * @timeouts: retransmission timer expiries
 * @gave_up: WQEs failed after their retries ran out (a timeout or RNR)
 * @acks_tx: ACKs sent (each may acknowledge several packets)
 * @acks_rx: ACKs received
 * @dups: duplicate requests received (answered, nothing placed)
 * @seq_naks_tx: PSN sequence error NAKs sent
 * @seq_naks_rx: PSN sequence error NAKs received
 * @rnr_naks_tx: RNR NAKs sent
 * @rnr_naks_rx: RNR NAKs received
 * @err_naks_tx: NAKs sent for an invalid request, a remote access or a
 *	remote operational error
 * @err_naks_rx: such NAKs received
 * @drop_icrc: packets dropped: the ICRC does not match
 * @drop_qp: packets dropped: no RC QP of the BTH's number, or one in a
 *	state that takes nothing
 * @drop_bad: packets dropped: headers do not fit, unexpected opcode
 * @dropped: packets the drop knob lost (first transmissions and resends)
 * @corrupted: packets the corrupt knobs spoiled
 * @no_arp: packets not sent: the context's ARP entry is gone
 * @cnp_tx: CNPs sent for CE-marked packets
 * @cnp_rx: CNPs received
 * @ecn_rx: CE-marked packets received
 * @drop_pkts: knob: lose the next N packets the engine sends
 * @corrupt_tx: knob: flip the byte before the ICRC of the next N sent
 * @corrupt_rx: knob: the same for the next N received
 * @ce_rx: knob: take the next N received packets as CE-marked
 * @rto_ms: the ACK timeout of a context whose RTOMIN is 0
 * @busy: QPs with work for isim_roce_run() (struct isim_roce.busy_node)
 * @tx_x: scratch state of the transmit path, allocated on first use
 */
struct isim_roce_stats {
	atomic64_t qps;
	atomic64_t tx;
	atomic64_t rx;
	atomic64_t retrans;
	atomic64_t timeouts;
	atomic64_t gave_up;
	atomic64_t acks_tx;
	atomic64_t acks_rx;
	atomic64_t dups;
	atomic64_t seq_naks_tx;
	atomic64_t seq_naks_rx;
	atomic64_t rnr_naks_tx;
	atomic64_t rnr_naks_rx;
	atomic64_t err_naks_tx;
	atomic64_t err_naks_rx;
	atomic64_t drop_icrc;
	atomic64_t drop_qp;
	atomic64_t drop_bad;
	atomic64_t dropped;
	atomic64_t corrupted;
	atomic64_t no_arp;
	atomic64_t cnp_tx;
	atomic64_t cnp_rx;
	atomic64_t ecn_rx;
	atomic_t drop_pkts;
	atomic_t corrupt_tx;
	atomic_t corrupt_rx;
	atomic_t ce_rx;
	u32 rto_ms;
	struct list_head busy;
	struct isim_xfer *tx_x;
};

void isim_roce_init(struct isim_func *f);
void isim_roce_reset(struct isim_func *f);
void isim_roce_modify(struct isim_func *f, struct isim_qp *qp,
		      const u64 *ctx, u8 old_state);
void isim_roce_free(struct isim_func *f, struct isim_qp *qp);
int isim_roce_sq_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr);
void isim_roce_flush(struct isim_func *f, struct isim_qp *qp, bool sq,
		     u16 minor);
bool isim_roce_rx(struct isim_xfer **xp, struct isim_func *f,
		  struct sk_buff *skb, u8 l3_len, u32 tot);
bool isim_roce_run(struct isim_func *f, unsigned int budget);
void isim_roce_show(struct seq_file *s, struct isim_func *f);
void isim_roce_debugfs(struct isim_func *f);

#endif /* _ISIM_ROCE_H_ */
