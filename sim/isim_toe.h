/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: iWARP TCP offload and the exception path (ILQ): the flow,
 * the offloaded connection, TIME_WAIT, QHASH entries, the ILQ, counters.
 */
#ifndef _ISIM_TOE_H_
#define _ISIM_TOE_H_

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/types.h>

#include "isim_defs.h"

struct isim_func;
struct isim_qp;
struct isim_res;
struct seq_file;

/**
 * struct isim_flow - the addressing of a received TCP segment, as the
 *	steering filters compare it
 * @ipv4: IPv4 (addresses in word 0)
 * @syn: SYN set and ACK clear: a connection request
 * @vlan: VLAN id, or 0xffff for an untagged frame
 * @loc_addr: destination address, host-order words
 * @rem_addr: source address, host-order words
 * @loc_port: destination port
 * @rem_port: source port
 */
struct isim_flow {
	bool ipv4;
	bool syn;
	u16 vlan;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
};

/**
 * struct isim_toe - the engine's TCP connection of an offloaded iWARP QP
 * @node: in isim_conn.toe while @linked (under isim_conn.qh_lock)
 * @flow: the 4-tuple and VLAN as a received segment of the connection
 *	carries them (local = this function)
 * @qpn: the QP, for the receive path, which must not touch the QP
 * @gen: tells a segment queued for an earlier connection of the QP apart
 * @linked: the 4-tuple is the engine's (the QP is in RTS or CLOSING)
 * @loc_mac: source MAC of transmitted segments (context word 19; gen1:
 *	the local MAC table entry context word 3 names)
 * @arp_idx: ARP cache entry of the peer (destination MAC)
 * @mss: send MSS
 * @snd_nxt: sequence number of the next byte sent
 * @snd_una: oldest byte sent and not acknowledged by the peer yet
 * @snd_wnd: the peer's window, in bytes (from its last acceptable ACK)
 * @rcv_nxt: sequence number of the next byte expected
 * @rcv_wnd: our window, in bytes
 * @rcv_wscale: shift of the window we advertise
 * @snd_wscale: shift of the window the peer advertises
 * @ttl: IPv4 TTL or IPv6 hop limit
 * @tos: IPv4 TOS or IPv6 traffic class
 * @flow_label: IPv6 flow label
 * @vlan_tag: 802.1Q tag, with @insert_vlan
 * @insert_vlan: tag transmitted frames
 * @first_fpdu: a segment with payload has arrived from the peer
 * @wait_fpdu: an LSMM with WAITFORRCVPDU went out before @first_fpdu:
 *	the SQ holds every WQE after it until the peer's first FPDU
 * @fin_rcvd: the peer's FIN arrived (reported once)
 * @term_sent: a MODIFY_QP to TERMINATE sent the TERMINATE message
 * @fin_pending: a MODIFY_QP to CLOSING asked for our FIN; it goes out once
 *	the SQ has nothing more to send
 * @fin_sent: our FIN went out (it took the sequence number snd_nxt - 1)
 * @fin_acked: the peer acknowledged our FIN
 * @closed_first: our FIN went out before the peer's came in: the close
 *	ends in TIME_WAIT (struct isim_toe_tw)
 * @no_crc: the MPA CRC is not used (context word 20 bit 31): sent as 0,
 *	not checked
 * @snd_msn: MSN of the next untagged message sent on DDP queue 0 (SEND)
 *	and 1 (READ request)
 * @rcv_msn: MSN expected next on queues 0 and 1
 * @rd_busy: a READ request is outstanding; the SQ waits for its response
 * @rd_signaled: that READ WQE asked for a completion
 * @rd_idx: quantum index of the READ WQE
 * @rd_stag: its sink STag
 * @rd_to: its sink tagged offset
 * @rd_len: bytes it asked for
 * @rd_done: bytes of READ RESPONSE placed so far
 * @rd_inv: a READ with local invalidate: @rd_stag is unmapped once the
 *	data is in
 * @rtxq: segments sent and not yet acknowledged, oldest first (struct
 *	isim_toe_rtx, toe.c); set up when the connection is linked
 * @ack_node: in isim_conn.acks while an ACK is owed
 * @ack_owed: segments received since our last segment (which acknowledged
 *	everything before them)
 * @rx_queued: its segments in the engine's receive queue, not yet looked
 *	at (taken under isim_conn.qh_lock, while @linked)
 * @rto_due: jiffies when the oldest of them is sent again
 * @rto_ms: the retransmission timeout; doubles with each expiry
 * @retries: expiries since the peer last acknowledged something
 * @rexmit_thresh: expiries the connection survives (context word 16)
 * @dupacks: duplicate ACKs since snd_una last moved
 * @recovering: a loss is being repaired: each ACK that moves snd_una
 *	short of @recover sends the next oldest segment again
 * @recover: snd_nxt when the loss was detected
 * @ieq_qpn: the IEQ that takes partial FPDUs (context word 22; 0: none)
 * @partial: an FPDU was cut by a segment's end: every in-order segment
 *	with data goes to the IEQ whole until the driver has handed back
 *	(through the IEQ's loopback sends) everything up to @rcv_nxt
 * @fpdu_nxt: while @partial, where the next FPDU the engine has not seen
 *	starts (the FPSN of the episode, and on with what comes back)
 */
struct isim_toe {
	struct list_head node;
	struct isim_flow flow;
	u32 qpn;
	u32 gen;
	bool linked;
	u8 loc_mac[ETH_ALEN];
	u16 arp_idx;
	u16 mss;
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u8 rcv_wscale;
	u8 snd_wscale;
	u8 ttl;
	u8 tos;
	u32 flow_label;
	u16 vlan_tag;
	bool insert_vlan;
	bool first_fpdu;
	bool wait_fpdu;
	bool fin_rcvd;
	bool fin_pending;
	bool term_sent;
	bool fin_sent;
	bool fin_acked;
	bool closed_first;
	bool no_crc;
	u32 snd_msn[2];
	u32 rcv_msn[2];
	bool rd_busy;
	bool rd_signaled;
	u32 rd_idx;
	u32 rd_stag;
	u64 rd_to;
	u32 rd_len;
	u32 rd_done;
	bool rd_inv;
	struct list_head rtxq;
	struct list_head ack_node;
	u16 ack_owed;
	atomic_t rx_queued;
	unsigned long rto_due;
	u32 rto_ms;
	u8 retries;
	u8 rexmit_thresh;
	u8 dupacks;
	bool recovering;
	u32 recover;
	u16 ieq_qpn;
	bool partial;
	u32 fpdu_nxt;
};

/**
 * struct isim_qhash - one quad-hash filter
 * @node: in isim_func.qhash
 * @type: TCP SYN (listener), TCP established (4-tuple), ...
 * @ipv4: addresses are IPv4 (word 3 of each address)
 * @vlan: VLAN id, or 0xffff for none
 * @loc_addr: local address, network words as the driver wrote them
 * @rem_addr: remote address (established entries)
 * @loc_port: local port
 * @rem_port: remote port (established entries)
 * @qpn: QP that receives matching segments
 * @qset: scheduler qset handle
 */
struct isim_qhash {
	struct list_head node;
	u8 type;
	bool ipv4;
	u16 vlan;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u32 qpn;
	u16 qset;
};

/**
 * struct isim_ilq_hdrs - the headers the engine puts in front of a TCP
 *	segment or a RoCEv2 datagram it transmits (isim_ah_hdrs())
 * @dmac: destination MAC
 * @smac: source MAC
 * @tci: VLAN tag, with @vlan
 * @vlan: insert an 802.1Q tag
 * @ipv4: IPv4 (else IPv6)
 * @loopback: the AH has the loopback bit: the frame stays in the function
 *	(the IEQ's sends, isim_toe_ieq_in())
 * @tc: IPv4 TOS or IPv6 traffic class
 * @hop: TTL or hop limit
 * @flow: IPv6 flow label
 * @src: source address, host-order words
 * @dst: destination address, host-order words
 */
struct isim_ilq_hdrs {
	u8 dmac[ETH_ALEN];
	u8 smac[ETH_ALEN];
	u16 tci;
	bool vlan;
	bool ipv4;
	bool loopback;
	u8 tc;
	u8 hop;
	u32 flow;
	u32 src[4];
	u32 dst[4];
};

/**
 * struct isim_toe_tw - a connection in TIME_WAIT (RFC 9293, 3.6)
 * @node: in isim_conn.tw (under isim_conn.qh_lock)
 * @flow: its 4-tuple and VLAN, as isim_toe.flow
 * @hdrs: the headers in front of the segments it sends
 * @id: tells a segment queued for an earlier record of the 4-tuple apart
 * @snd_nxt: our sequence number after our FIN
 * @rcv_nxt: the peer's after its FIN
 * @wnd: the window field of the segments it sends
 * @expires: jiffies when the 4-tuple is given up
 *
 * The engine keeps it after a close it began, apart from the QP, which
 * the driver may then destroy: the peer's FIN, sent again because our
 * last ACK was lost, is acknowledged once more instead of meeting the
 * stack, which knows no such connection and would reset it.
 */
struct isim_toe_tw {
	struct list_head node;
	struct isim_flow flow;
	struct isim_ilq_hdrs hdrs;
	u32 id;
	u32 snd_nxt;
	u32 rcv_nxt;
	u16 wnd;
	unsigned long expires;
};

/**
 * struct isim_ilq - the privileged raw queues' side of the function
 * @rxq: steered frames waiting for the engine to place them (own lock)
 * @tx_tap: test hook: when set, takes transmitted frames instead of the
 *	netdev (KUnit); set before the engine runs, never changed after
 * @frags: the pages the engine builds its frames in (isim_ip_frame(),
 *	under isim_func.eng_lock)
 * @ip_id: identification of the next IPv4 header the engine writes
 * @tx: frames transmitted
 * @rx: frames placed in an RQ buffer
 * @steered: frames a filter took away from the network stack
 * @dropped: steered frames lost (no QP, no RQ buffer, too long, queue
 *	full, drop knob) and transmitted ones the knob dropped
 * @tx_err: SQ WQEs completed with an error
 */
struct isim_ilq {
	struct sk_buff_head rxq;
	void (*tx_tap)(struct isim_func *f, struct sk_buff *skb);
	struct page_frag_cache frags;
	u16 ip_id;
	atomic64_t tx;
	atomic64_t rx;
	atomic64_t steered;
	atomic64_t dropped;
	atomic64_t tx_err;
};

/**
 * struct isim_toe_stats - segments of offloaded connections
 * @rxq: segments taken for the engine, waiting for its pass (own lock)
 * @tx: segments the engine transmitted (LSMM)
 * @rx: segments taken from the stack because their 4-tuple is offloaded
 * @fin: FINs reported (LLP_FIN_RECEIVED)
 * @rst: resets reported (LLP_CONNECTION_RESET)
 * @fin_tx: FINs sent (graceful closes the driver asked for)
 * @rst_tx: resets sent (MODIFY_QP with RESETCON)
 * @term_tx: TERMINATE messages sent (MODIFY_QP to TERMINATE)
 * @term_rx: TERMINATE messages received (LLP_TERMINATE_RECEIVED)
 * @closed: closes completed with the peer (LLP_CLOSE_COMPLETE)
 * @dropped: received segments counted and dropped (no data path; stale,
 *	out of the window, out of order, queue full), and transmits the
 *	netdev refused
 * @full: of @dropped, segments the queue had no room for
 * @stale: of @dropped, segments whose connection had gone or been
 *	replaced by the time the engine came to them
 * @malformed: of @dropped, segments whose TCP header does not fit them
 * @unacceptable: of @dropped, segments outside the receive window
 *	(duplicates of what we have), answered with an ACK
 * @ooo: segments dropped because one before them is missing
 * @retrans: segments sent again (timeout or duplicate ACKs)
 * @timeouts: retransmission timer expiries
 * @gave_up: connections failed after REXMIT_THRESH expiries in a row
 *	(LLP_TOO_MANY_RETRIES)
 * @tw_acks: segments of a connection in TIME_WAIT answered with an ACK
 * @tw_reused: connections in TIME_WAIT ended by a new SYN of the 4-tuple
 * @partials: episodes begun: a segment ended inside an FPDU (the FPSN
 *	written to Q2)
 * @to_ieq: segments handed to the IEQ
 * @from_ieq: segments the IEQ handed back and the engine placed
 * @ieq_bad: segments the IEQ handed back that matched no partial
 *	connection or not where its next FPDU starts (dropped)
 * @rxq_max: most segments ever waiting in @rxq
 * @rto_ms: first retransmission timeout of a new connection
 * @tw_ms: how long a connection stays in TIME_WAIT
 */
struct isim_toe_stats {
	struct sk_buff_head rxq;
	u32 rxq_max;
	u32 rto_ms;
	u32 tw_ms;
	atomic64_t tx, rx, fin, rst;
	atomic64_t fin_tx, rst_tx, term_tx, term_rx, closed;
	atomic64_t dropped, full, stale, malformed, unacceptable, ooo;
	atomic64_t retrans, timeouts, gave_up;
	atomic64_t tw_acks, tw_reused;
	atomic64_t partials, to_ieq, from_ieq, ieq_bad;
};

/* ilq.c */
void isim_ilq_init(struct isim_func *f);
void isim_ilq_reset(struct isim_func *f);
bool isim_ilq_steer(struct isim_func *f, struct sk_buff *skb);
int isim_ilq_exception(struct isim_func *f, struct sk_buff *skb,
		       u32 qpn);
void isim_toe_ieq_in(struct isim_func *f, const struct isim_ilq_hdrs *h,
		     const u8 *seg, u32 len);
rx_handler_result_t isim_ilq_rx_handler(struct sk_buff **pskb);
bool isim_ilq_run(struct isim_func *f, unsigned int budget);
void isim_ilq_tx_drain(struct isim_func *f);
struct sk_buff *isim_ilq_seg_frame(struct isim_func *f,
				   const struct isim_ilq_hdrs *h,
				   const void *th, u32 hlen,
				   const void *data, u32 dlen);
int isim_ilq_emit(struct isim_func *f, struct sk_buff *skb);
int isim_ah_hdrs(struct isim_func *f, u32 ah_idx, struct isim_ilq_hdrs *h);
struct sk_buff *isim_ip_frame(struct isim_func *f,
			      const struct isim_ilq_hdrs *h, u8 proto, u32 len,
			      void **l4);
__sum16 isim_l4_csum(struct sk_buff *skb, u8 proto, const void *l4, u32 len);

/* toe.c */
void isim_toe_init(struct isim_func *f);
void isim_toe_reset(struct isim_func *f);
bool isim_toe_wanted(const struct isim_qp *qp, u64 hdr);
u16 isim_toe_check(struct isim_func *f, const struct isim_qp *qp,
		   const u64 *ctx, struct isim_toe *toe);
void isim_toe_new_state(struct isim_func *f, struct isim_qp *qp,
			const struct isim_toe *toe);
void isim_toe_unlink(struct isim_func *f, struct isim_qp *qp);
bool isim_toe_window_open(const struct isim_toe *t);
void isim_toe_modify(struct isim_func *f, struct isim_qp *qp, u64 hdr);
void isim_toe_sq_idle(struct isim_func *f, struct isim_qp *qp);
void isim_toe_ae(struct isim_func *f, struct isim_qp *qp, u16 code);
int isim_qp_ae(struct isim_func *f, struct isim_qp *qp, u16 code, u8 src,
	       u64 ctx, u8 q2);
bool isim_toe_steer(struct isim_func *f, const struct isim_flow *fl,
		    struct sk_buff *skb, u8 l3_len, u32 seg_len);
bool isim_toe_run(struct isim_func *f, unsigned int budget);
u16 isim_toe_send(struct isim_func *f, struct isim_qp *qp, const u8 *data,
		  u32 len);
void isim_toe_show(struct seq_file *s, struct isim_func *f);

#endif /* _ISIM_TOE_H_ */
