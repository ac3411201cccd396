// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: offloaded iWARP connections, the engine's own side of TCP.
 *
 * The driver's CM runs the TCP handshake and the MPA exchange in software
 * over the ILQ, then hands the connection to the engine: a MODIFY_QP to
 * RTS with TOECTXVALID whose QP host context carries the 4-tuple, the
 * MACs (local in word 19, the peer's through the ARP index), the MSS, the
 * window scales and the sequence state. The engine checks that context as
 * the adapter would and refuses the command otherwise.
 *
 * From then on the 4-tuple belongs to the engine: received segments of it
 * are taken before any quad-hash filter is asked. A FIN in the window is
 * reported with LLP_FIN_RECEIVED, an RST with LLP_CONNECTION_RESET (the
 * QP goes to the error state and the 4-tuple is given up). The payload of
 * a segment at rcv_nxt is the iWARP stream: the first one releases an SQ
 * held by an LSMM with WAITFORRCVPDU, each is handed to the data path
 * (exec.c, isim_exec_iw_rx()) as whole FPDUs, rcv_nxt advances and a pure
 * ACK answers it (unless the data path sent something, which carries the
 * ACK). A segment with payload (or a FIN) beyond rcv_nxt means one before
 * it was lost or overtaken: the engine keeps no out-of-order data, so it
 * is dropped and answered with a duplicate ACK, and the peer sends again
 * from rcv_nxt. An acceptable ACK moves snd_una and brings the peer's
 * window, which the SQ waits for (isim_toe_window_open()); there is no
 * congestion handling. A retransmission overlapping rcv_nxt is trimmed to
 * its new bytes; a segment wholly before rcv_nxt (or beyond the window)
 * is answered with an ACK and dropped. A received FIN is acknowledged at
 * once.
 *
 * Retransmission: every segment that takes sequence space (data, FIN) is
 * kept until the peer acknowledges all of it. When the oldest has waited
 * for the retransmission timeout (1 s for a new connection, RFC 6298 2.1,
 * doubled at each expiry up to 8 s, back to the start when an ACK moves
 * snd_una), or at the third duplicate ACK, the oldest is sent again as it
 * went the first time, with the current ACK and window. When duplicate
 * ACKs said the receiver saw a hole, a recovery follows: until everything
 * sent before the loss is acknowledged, each ACK that moves snd_una sends
 * the next oldest again (the receiver keeps nothing out of order, so all
 * of it must come again, but one segment per ACK: hundreds of connections
 * resending everything at once would bury the engine). A timeout without
 * duplicate ACKs is often only a late ACK from a busy peer; recovering
 * then would resend a whole window the peer already has. After
 * REXMIT_THRESH expiries (context word 16) without progress the
 * connection fails with LLP_TOO_MANY_RETRIES. The timer of a connection
 * with segments still in the engine's receive queue does not expire: on
 * the adapter, whose receive path keeps up with the wire, an ACK that
 * came in before the timeout is seen before it. There is no RTT estimate;
 * the context's RTOMIN is not read.
 *
 * Close: a MODIFY_QP to CLOSING (without RESETCON) is a graceful close.
 * The SQ keeps running until its ring is empty, then our FIN goes out at
 * snd_nxt (isim_toe_sq_idle()). The close completes when both
 * FINs are in and ours is acknowledged: LLP_CLOSE_COMPLETE, and the QP
 * gives the 4-tuple up. A peer's FIN that arrives before ours went out is
 * reported with LLP_FIN_RECEIVED; the driver's CLOSING then completes the
 * close. A MODIFY_QP with RESETCON, whatever its state, sends an RST at
 * snd_nxt and gives up the 4-tuple at once, without an AE. A MODIFY_QP to
 * TERMINATE sends the TERMINATE message of Q2 and our FIN, as TERMACT
 * says. The 4-tuple is also given up, silently, when the QP leaves RTS,
 * CLOSING and TERMINATE without RESETCON or is destroyed.
 *
 * TIME_WAIT: when our FIN went out before the peer's came in, the close
 * leaves a record of the connection (struct isim_toe_tw) for tw_ms (60 s,
 * twice Linux's MSL; debugfs time_wait_ms), apart from the QP, which the
 * driver may destroy at once. The peer's FIN (or data), sent again
 * because our last ACK was lost, is acknowledged again and the time
 * starts over (RFC 9293, 3.10.7.4); an RST ends the record; a SYN ends it
 * too and goes to the filters as a new connection (the driver's CM, as
 * the stack would reuse the 4-tuple, RFC 6191); a bare ACK is dropped.
 *
 * Transmit: isim_toe_send() sends bytes of the stream (the LSMM, an FPDU)
 * as one segment (ACK, PSH with data, seq = snd_nxt, ack = rcv_nxt, our
 * window from the context) through the same output path as the ILQ, and
 * advances snd_nxt; FIN and RST leave the same way.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/seq_file.h>
#include <linux/tcp.h>
#include <asm/unaligned.h>

#include "isim.h"

#define ISIM_TOE_RXQ_MAX	2048	/* segments waiting for the engine */
#define ISIM_TOE_RX_MIN		32	/* segments a pass looks at in any case */
#define ISIM_TOE_RX_SHARE	4	/* and of those waiting, at least 1/N */
#define ISIM_TOE_MSS_MIN	536	/* RFC 1122, 3.3.3 */
#define ISIM_TOE_MSS_MAX	8960	/* a 9000-byte MTU, IPv4 */
#define ISIM_TOE_WSCALE_MAX	14	/* RFC 7323, 2.3 */
#define ISIM_TOE_FIN		BIT(0)	/* isim_toe_xmit() flags */
#define ISIM_TOE_RST		BIT(1)
#define ISIM_TOE_RTO_MS		1000	/* first retransmission timeout */
#define ISIM_TOE_RTO_MAX_MS	8000
#define ISIM_TOE_DUPACKS	3	/* RFC 5681, 3.2: fast retransmit */
#define ISIM_TOE_TW_MS		60000	/* TIME_WAIT: 2 MSL, as Linux's */
#define ISIM_TOE_TW_MAX		4096	/* records kept; the oldest goes */
#define ISIM_TOE_ACK_EVERY	16	/* segments one ACK may cover */
#define ISIM_TOE_RTX_SEGS	16	/* segments one resend record holds */

/**
 * struct isim_toe_rtx - sent segments the peer has not all acknowledged
 * @node: in struct isim_toe.rtxq
 * @seq: the first sequence number of the first
 * @len: bytes of data of all
 * @cap: room for data
 * @nseg: segments
 * @fin: the last carried our FIN (one more sequence number)
 * @seg: each one's bytes of data, so that a resend cuts where the first
 *	transmission did (an FPDU never straddles two segments)
 * @data: the bytes, one segment after the other
 *
 * A segment sent while others are in flight joins the newest record if
 * it has room: a record of ISIM_TOE_RTX_SEGS segments costs one
 * allocation where a stream paid one a segment.
 */
struct isim_toe_rtx {
	struct list_head node;
	u32 seq;
	u32 len;
	u32 cap;
	u8 nseg;
	bool fin;
	u16 seg[ISIM_TOE_RTX_SEGS];
	u8 data[];
};

/**
 * struct isim_toe_cb - skb->cb of a segment taken for the engine
 * @qpn: QP of the connection
 * @gen: the connection's generation when the segment arrived, or with
 *	@tw the id of its TIME_WAIT record
 * @seg_len: bytes of the TCP segment
 * @l3_len: bytes of the IP header in front of it
 * @tw: the connection is in TIME_WAIT (struct isim_toe_tw)
 */
struct isim_toe_cb {
	u32 qpn;
	u32 gen;
	u32 seg_len;
	u8 l3_len;
	bool tw;
};

static struct isim_toe_cb *isim_toe_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct isim_toe_cb) > sizeof(skb->cb));
	return (struct isim_toe_cb *)skb->cb;
}

/**
 * isim_toe_init - set up the offload state of a new function
 * @f: function
 */
void isim_toe_init(struct isim_func *f)
{
	INIT_LIST_HEAD(&f->conn.toe);
	INIT_LIST_HEAD(&f->conn.acks);
	INIT_LIST_HEAD(&f->conn.tw);
	skb_queue_head_init(&f->toe.rxq);
	f->toe.rto_ms = ISIM_TOE_RTO_MS;
	f->toe.tw_ms = ISIM_TOE_TW_MS;
}

/* a TIME_WAIT record goes; under qh_lock */
static void isim_toe_tw_free(struct isim_func *f, struct isim_toe_tw *tw)
{
	list_del(&tw->node);
	f->conn.ntw--;
	kfree(tw);
}

/**
 * isim_toe_reset - drop segments the engine has not looked at and the
 *	connections in TIME_WAIT
 * @f: function; its QPs are gone (isim_qp_reset() unlinked them)
 */
void isim_toe_reset(struct isim_func *f)
{
	struct isim_toe_tw *tw, *tmp;

	skb_queue_purge(&f->toe.rxq);
	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry_safe(tw, tmp, &f->conn.tw, node)
		isim_toe_tw_free(f, tw);
	spin_unlock_bh(&f->conn.qh_lock);
}

/* ---- the context ---- */

/**
 * isim_toe_wanted - a MODIFY_QP hands a TCP connection to the engine
 * @qp: the QP
 * @hdr: the command's header
 *
 * Return: true for an iWARP QP moving to RTS with TOECTXVALID.
 */
bool isim_toe_wanted(const struct isim_qp *qp, u64 hdr)
{
	return qp->type == ISIM_QP_TYPE_IWARP &&
	       FIELD_GET(ISIM_QP_HDR_NEXT_STATE, hdr) == ISIM_QPS_RTS &&
	       (hdr & ISIM_QP_HDR_TCPCTX_VALID);
}

static bool isim_toe_addr_zero(const u32 *a)
{
	return !(a[0] | a[1] | a[2] | a[3]);
}

/*
 * The connection's source MAC. gen2 takes it from context word 19. gen1
 * leaves word 19's MAC 0 and names an entry of the local MAC table
 * (ALLOC_LOC_MAC, MANAGE_LOC_MAC) in word 3; an entry not allocated or
 * not set is NO_OBJECT: the engine could build no frame for the QP.
 */
static u16 isim_toe_loc_mac(struct isim_func *f, const u64 *ctx, u8 *mac)
{
	u32 idx = FIELD_GET(ISIM_QPC_W3_G1_SRCMAC_IDX, ctx[3]);

	if (f->gen != ISIM_GEN1) {
		u64_to_ether_addr(FIELD_GET(ISIM_QPC_W19_LOCAL_MAC, ctx[19]),
				  mac);
	} else {
		if (idx >= ISIM_LMAC_ENTRIES ||
		    !test_bit(idx, &f->conn.lmac_used) || !f->conn.lmac[idx])
			return ISIM_MIN_NO_OBJECT;
		u64_to_ether_addr(f->conn.lmac[idx], mac);
	}
	return is_valid_ether_addr(mac) ? ISIM_MIN_OK : ISIM_MIN_BAD_FIELD;
}

/* the addressing: family, addresses, ports, VLAN, IP header fields */
static u16 isim_toe_addr(struct isim_func *f, const u64 *ctx,
			 struct isim_toe *t)
{
	struct isim_flow *fl = &t->flow;
	u16 minor;

	fl->ipv4 = ctx[0] & ISIM_QPC_W0_IPV4;
	/* IPv4 uses bits 31:0 of one word per address, nothing else */
	if (fl->ipv4 && (upper_32_bits(ctx[ISIM_QPC_W_REM_ADDR]) ||
			 ctx[ISIM_QPC_W_REM_ADDR + 1] ||
			 upper_32_bits(ctx[ISIM_QPC_W_LOC_ADDR]) ||
			 ctx[ISIM_QPC_W_LOC_ADDR + 1]))
		return ISIM_MIN_BAD_FIELD;
	isim_conn_addr(&ctx[ISIM_QPC_W_REM_ADDR], fl->ipv4, fl->rem_addr);
	isim_conn_addr(&ctx[ISIM_QPC_W_LOC_ADDR], fl->ipv4, fl->loc_addr);
	if (isim_toe_addr_zero(fl->rem_addr) || isim_toe_addr_zero(fl->loc_addr))
		return ISIM_MIN_BAD_FIELD;
	/* an IPv4 address written as IPv6 (::a.b.c.d) without the IPv4 bit */
	if (!fl->ipv4 && !(fl->rem_addr[0] | fl->rem_addr[1] | fl->rem_addr[2]))
		return ISIM_MIN_BAD_FIELD;
	fl->loc_port = FIELD_GET(ISIM_QPC_W3_SRC_PORT, ctx[3]);
	fl->rem_port = FIELD_GET(ISIM_QPC_W3_DST_PORT, ctx[3]);
	if (!fl->loc_port || !fl->rem_port)
		return ISIM_MIN_BAD_FIELD;
	minor = isim_toe_loc_mac(f, ctx, t->loc_mac);
	if (minor)
		return minor;
	t->insert_vlan = ctx[0] & ISIM_QPC_W0_INSERT_VLAN;
	t->vlan_tag = FIELD_GET(ISIM_QPC_W6_VLAN_TAG, ctx[6]);
	fl->vlan = t->insert_vlan ? t->vlan_tag & VLAN_VID_MASK : 0xffff;
	t->ttl = FIELD_GET(ISIM_QPC_W3_TTL, ctx[3]);
	t->tos = FIELD_GET(ISIM_QPC_W3_TOS, ctx[3]);
	t->flow_label = FIELD_GET(ISIM_QPC_W7_FLOW_LABEL, ctx[7]);
	return ISIM_MIN_OK;
}

/* the TCP state: established, MSS, window scales, sequence numbers */
static u16 isim_toe_tcp(const u64 *ctx, struct isim_toe *t)
{
	t->mss = FIELD_GET(ISIM_QPC_W6_SNDMSS, ctx[6]);
	t->rcv_wscale = FIELD_GET(ISIM_QPC_W7_RCV_SCALE, ctx[7]);
	t->snd_wscale = FIELD_GET(ISIM_QPC_W7_SND_SCALE, ctx[7]);
	if (t->mss < ISIM_TOE_MSS_MIN || t->mss > ISIM_TOE_MSS_MAX ||
	    t->rcv_wscale > ISIM_TOE_WSCALE_MAX ||
	    t->snd_wscale > ISIM_TOE_WSCALE_MAX ||
	    FIELD_GET(ISIM_QPC_W7_TCP_STATE, ctx[7]) !=
	    ISIM_QPC_TCPS_ESTABLISHED)
		return ISIM_MIN_BAD_FIELD;
	t->snd_nxt = FIELD_GET(ISIM_QPC_SEQ_LO, ctx[10]);
	t->snd_una = t->snd_nxt;
	t->snd_wnd = FIELD_GET(ISIM_QPC_SEQ_HI, ctx[10]);
	t->rcv_nxt = FIELD_GET(ISIM_QPC_SEQ_LO, ctx[11]);
	t->rcv_wnd = FIELD_GET(ISIM_QPC_SEQ_HI, ctx[11]);
	t->rexmit_thresh = FIELD_GET(ISIM_QPC_W16_REXMIT_THRESH, ctx[16]);
	return ISIM_MIN_OK;
}

static bool isim_toe_same(const struct isim_flow *a,
			  const struct isim_flow *b)
{
	return a->ipv4 == b->ipv4 && a->vlan == b->vlan &&
	       a->loc_port == b->loc_port && a->rem_port == b->rem_port &&
	       !memcmp(a->loc_addr, b->loc_addr, sizeof(a->loc_addr)) &&
	       !memcmp(a->rem_addr, b->rem_addr, sizeof(a->rem_addr));
}

/* another QP has the 4-tuple already */
static bool isim_toe_taken(struct isim_func *f, const struct isim_qp *qp,
			   const struct isim_flow *fl)
{
	struct isim_toe *t;
	bool taken = false;

	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry(t, &f->conn.toe, node) {
		if (t->qpn != qp->id && isim_toe_same(&t->flow, fl)) {
			taken = true;
			break;
		}
	}
	spin_unlock_bh(&f->conn.qh_lock);
	return taken;
}

/**
 * isim_toe_check - read and check the TCP part of an iWARP QP context
 * @f: function
 * @qp: the QP the MODIFY_QP is for
 * @ctx: the context words in CPU order
 * @toe: the connection, filled in
 *
 * As the adapter checks it: a 4-tuple that is consistent with the IPv4
 * bit and complete, a unicast local MAC (on gen1 from a local MAC table
 * entry that is set), an ESTABLISHED TCP state, an MSS
 * of 536 to 8960 bytes, window scales up to 14, an ARP cache entry that
 * exists, and a 4-tuple no other QP owns.
 *
 * Return: ISIM_MIN_OK, ISIM_MIN_BAD_FIELD, ISIM_MIN_NO_OBJECT (no such
 * ARP entry or, on gen1, local MAC entry) or ISIM_MIN_EXISTS (the 4-tuple
 * is taken).
 */
u16 isim_toe_check(struct isim_func *f, const struct isim_qp *qp,
		   const u64 *ctx, struct isim_toe *toe)
{
	u16 minor;

	lockdep_assert_held(&f->eng_lock);
	memset(toe, 0, sizeof(*toe));
	minor = isim_toe_addr(f, ctx, toe);
	if (!minor)
		minor = isim_toe_tcp(ctx, toe);
	if (minor)
		return minor;
	toe->no_crc = ctx[20] & ISIM_QPC_W20_NO_MPA_CRC;
	toe->ieq_qpn = FIELD_GET(ISIM_QPC_W22_EXCEPTION_Q, ctx[22]);
	/* RFC 5041, 5.1: the MSN of each queue starts at 1 */
	toe->snd_msn[0] = 1;
	toe->snd_msn[1] = 1;
	toe->rcv_msn[0] = 1;
	toe->rcv_msn[1] = 1;
	toe->arp_idx = FIELD_GET(ISIM_QPC_W6_ARP_IDX, ctx[6]);
	if (!xa_load(&f->conn.arp, toe->arp_idx))
		return ISIM_MIN_NO_OBJECT;
	if (isim_toe_taken(f, qp, &toe->flow))
		return ISIM_MIN_EXISTS;
	return ISIM_MIN_OK;
}

static void isim_toe_rtx_purge(struct isim_toe *t)
{
	struct isim_toe_rtx *r, *tmp;

	list_for_each_entry_safe(r, tmp, &t->rtxq, node) {
		list_del(&r->node);
		kfree(r);
	}
}

static void isim_toe_link(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_toe_tw *tw, *tmp;

	INIT_LIST_HEAD(&qp->toe.rtxq);
	INIT_LIST_HEAD(&qp->toe.ack_node);
	qp->toe.ack_owed = 0;
	qp->toe.rto_ms = f->toe.rto_ms;
	spin_lock_bh(&f->conn.qh_lock);
	/* a new connection of a 4-tuple in TIME_WAIT: the old one is over */
	list_for_each_entry_safe(tw, tmp, &f->conn.tw, node) {
		if (isim_toe_same(&tw->flow, &qp->toe.flow)) {
			isim_toe_tw_free(f, tw);
			atomic64_inc(&f->toe.tw_reused);
		}
	}
	list_add_tail(&qp->toe.node, &f->conn.toe);
	f->conn.ntoe++;
	qp->toe.linked = true;
	isim_conn_drop_established(f, &qp->toe.flow);
	spin_unlock_bh(&f->conn.qh_lock);
}

/**
 * isim_toe_unlink - give up a QP's 4-tuple
 * @f: function
 * @qp: the QP; nothing happens when it owns no 4-tuple
 *
 * Segments of the 4-tuple go to the filters and the stack again; those
 * already queued are dropped by the engine (isim_toe_run()). What was in
 * flight is forgotten.
 */
void isim_toe_unlink(struct isim_func *f, struct isim_qp *qp)
{
	lockdep_assert_held(&f->eng_lock);
	if (!qp->toe.linked)
		return;
	spin_lock_bh(&f->conn.qh_lock);
	list_del(&qp->toe.node);
	f->conn.ntoe--;
	qp->toe.linked = false;
	spin_unlock_bh(&f->conn.qh_lock);
	list_del_init(&qp->toe.ack_node);
	qp->toe.ack_owed = 0;
	isim_toe_rtx_purge(&qp->toe);
}

/**
 * isim_toe_new_state - a QP's state changed
 * @f: function
 * @qp: the QP, with its new state
 * @toe: the connection a MODIFY_QP to RTS handed over (checked by
 *	isim_toe_check()), or NULL
 *
 * A new connection replaces whatever the QP had. Without one, a QP that
 * is neither in RTS nor in CLOSING gives up its 4-tuple.
 */
void isim_toe_new_state(struct isim_func *f, struct isim_qp *qp,
			const struct isim_toe *toe)
{
	lockdep_assert_held(&f->eng_lock);
	if (!toe) {
		if (qp->state != ISIM_QPS_RTS &&
		    qp->state != ISIM_QPS_CLOSING &&
		    qp->state != ISIM_QPS_TERMINATE)
			isim_toe_unlink(f, qp);
		return;
	}
	isim_toe_unlink(f, qp);
	qp->toe = *toe;
	qp->toe.qpn = qp->id;
	qp->toe.gen = ++f->conn.toe_gen;
	isim_toe_link(f, qp);
}

/* ---- receive ---- */

/*
 * A segment of a 4-tuple in TIME_WAIT? Under qh_lock. A SYN (a new
 * connection of the 4-tuple, ours or the peer's) ends the record and goes
 * to the filters; so does everything once the record has expired.
 * Return: the id of the record to queue the segment for, or 0.
 */
static u32 isim_toe_tw_steer(struct isim_func *f, const struct isim_flow *fl,
			     const struct sk_buff *skb, u8 l3_len)
{
	struct isim_toe_tw *tw;
	const struct tcphdr *th;
	struct tcphdr buf;

	lockdep_assert_held(&f->conn.qh_lock);
	list_for_each_entry(tw, &f->conn.tw, node) {
		if (!isim_toe_same(&tw->flow, fl))
			continue;
		if (time_after_eq(jiffies, tw->expires))
			return 0;
		th = skb_header_pointer(skb, l3_len, sizeof(buf), &buf);
		if (!th)
			return 0;
		if (!th->syn)
			return tw->id;
		isim_toe_tw_free(f, tw);
		atomic64_inc(&f->toe.tw_reused);
		return 0;
	}
	return 0;
}

/**
 * isim_toe_steer - take a received segment of an offloaded connection
 * @f: function whose netdev received it
 * @fl: the segment's addressing
 * @skb: the frame, data at the IP header
 * @l3_len: bytes of the IP header
 * @seg_len: bytes of the TCP segment
 *
 * Callable from softirq context.
 *
 * Return: true if the 4-tuple is offloaded: the segment is the engine's
 * (queued, or dropped and counted when the queue is full).
 */
bool isim_toe_steer(struct isim_func *f, const struct isim_flow *fl,
		    struct sk_buff *skb, u8 l3_len, u32 seg_len)
{
	struct isim_toe_cb cb = { .l3_len = l3_len, .seg_len = seg_len };
	struct isim_toe *t, *hit = NULL;
	u32 len;

	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry(t, &f->conn.toe, node) {
		if (isim_toe_same(&t->flow, fl)) {
			hit = t;
			break;
		}
	}
	if (!hit) {
		cb.gen = isim_toe_tw_steer(f, fl, skb, l3_len);
		if (!cb.gen) {
			spin_unlock_bh(&f->conn.qh_lock);
			return false;
		}
		cb.tw = true;
	}
	atomic64_inc(&f->toe.rx);
	len = skb_queue_len(&f->toe.rxq);
	if (len >= ISIM_TOE_RXQ_MAX) {
		spin_unlock_bh(&f->conn.qh_lock);
		atomic64_inc(&f->toe.full);
		atomic64_inc(&f->toe.dropped);
		kfree_skb(skb);
		return true;
	}
	if (hit) {
		cb.qpn = hit->qpn;
		cb.gen = hit->gen;
		/* the connection's timer waits while it has segments here */
		atomic_inc(&hit->rx_queued);
	}
	*isim_toe_cb(skb) = cb;
	skb_queue_tail(&f->toe.rxq, skb);
	f->toe.rxq_max = max(f->toe.rxq_max, len + 1);
	spin_unlock_bh(&f->conn.qh_lock);
	isim_engine_kick(f, ISIM_WAKE_RX);
	return true;
}

/* @seq lies in the receive window (a zero window still takes rcv_nxt) */
static bool isim_toe_in_window(const struct isim_toe *t, u32 seq)
{
	return seq - t->rcv_nxt < max_t(u32, t->rcv_wnd, 1);
}

/* the TCP state of the QP's connection, as an AEQE reports it */
static u8 isim_toe_tcp_state(const struct isim_toe *t)
{
	if (!t->gen)
		return ISIM_TCPS_NON_EXISTENT;
	if (!t->linked)
		return t->closed_first && t->fin_rcvd && t->fin_acked ?
		       ISIM_TCPS_TIME_WAIT : ISIM_TCPS_CLOSED;
	if (!t->fin_sent)
		return t->fin_rcvd ? ISIM_TCPS_CLOSE_WAIT : ISIM_TCPS_ESTABLISHED;
	if (!t->fin_rcvd)
		return t->fin_acked ? ISIM_TCPS_FIN_WAIT_2 : ISIM_TCPS_FIN_WAIT_1;
	return t->closed_first ? ISIM_TCPS_CLOSING : ISIM_TCPS_LAST_ACK;
}

/**
 * isim_qp_ae - an AE about a QP, with the QP's states in it
 * @f: function
 * @qp: the QP
 * @code: AE code
 * @src: AE source
 * @ctx: the context value the AEQE carries
 * @q2: Q2DATA (ISIM_AEQ_Q2_FRAME when the QP's Q2 holds the frame)
 *
 * Every AEQE that names a QP carries the QP's state and its TCP state at
 * the time (NON_EXISTENT without an offloaded connection): Linux 6.1's
 * irdma keeps them from each AE of a QP and decides by them how to end it
 * (a TERMINATE from RTS, else ERR; a reset past CLOSED).
 *
 * Return: as isim_aeq_post_full().
 */
int isim_qp_ae(struct isim_func *f, struct isim_qp *qp, u16 code, u8 src,
	       u64 ctx, u8 q2)
{
	return isim_aeq_post_full(f, code, src, qp->id, ctx,
				  FIELD_PREP(ISIM_AEQE_IWSTATE, qp->state) |
				  FIELD_PREP(ISIM_AEQE_TCPSTATE,
					     isim_toe_tcp_state(&qp->toe)) |
				  FIELD_PREP(ISIM_AEQE_Q2DATA, q2));
}

/**
 * isim_toe_ae - an AE of the QP's connection
 * @f: function
 * @qp: the QP
 * @code: AE code
 *
 * As isim_qp_ae(), of no queue in particular:
 * LLP_CONNECTION_ESTABLISHED's included.
 */
void isim_toe_ae(struct isim_func *f, struct isim_qp *qp, u16 code)
{
	if (isim_qp_ae(f, qp, code, ISIM_AE_SRC_NONE, qp->cq_ctx, 0))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE %#x lost\n", qp->id,
				    code);
}

static u16 isim_toe_xmit(struct isim_func *f, struct isim_qp *qp,
			 const u8 *data, u32 len, u8 flags);
static void isim_toe_resend(struct isim_func *f, struct isim_qp *qp);
static void isim_toe_recover(struct isim_func *f, struct isim_qp *qp);
static void isim_toe_hdrs(const struct isim_toe *t, u64 dmac,
			  struct isim_ilq_hdrs *h);
static int isim_toe_out(struct isim_func *f, const struct isim_ilq_hdrs *h,
			const struct isim_flow *fl, u32 seq, u32 ack, u16 wnd,
			const u8 *data, u32 len, u8 flags);

/* the window field of our segments: the context's window, scaled */
static u16 isim_toe_wnd(const struct isim_toe *t)
{
	return min_t(u32, t->rcv_wnd >> t->rcv_wscale, U16_MAX);
}

/* a bare ACK lost on the way (drop_toe_acks) */
static bool isim_toe_ack_lost(struct isim_func *f)
{
	if (atomic_dec_if_positive(&f->faults.drop_toe_acks) < 0)
		return false;
	atomic64_inc(&f->wire.dropped);
	return true;
}

/*
 * A close we began ends in TIME_WAIT: the record takes what its ACKs
 * need (the headers with the peer's MAC as the ARP cache has it now).
 * Without memory, or an ARP entry, the 4-tuple is simply given up.
 */
static void isim_toe_time_wait(struct isim_func *f, const struct isim_toe *t)
{
	struct isim_toe_tw *tw, *old;
	void *arp;

	arp = xa_load(&f->conn.arp, t->arp_idx);
	tw = kzalloc(sizeof(*tw), GFP_ATOMIC | __GFP_NOWARN);
	if (!arp || !tw) {
		kfree(tw);
		return;
	}
	tw->flow = t->flow;
	isim_toe_hdrs(t, xa_to_value(arp), &tw->hdrs);
	tw->snd_nxt = t->snd_nxt;
	tw->rcv_nxt = t->rcv_nxt;
	tw->wnd = isim_toe_wnd(t);
	tw->expires = jiffies + msecs_to_jiffies(READ_ONCE(f->toe.tw_ms));
	spin_lock_bh(&f->conn.qh_lock);
	if (f->conn.ntw >= ISIM_TOE_TW_MAX) {
		old = list_first_entry(&f->conn.tw, struct isim_toe_tw, node);
		isim_toe_tw_free(f, old);
	}
	/* 0 is no record (isim_toe_tw_steer()) */
	tw->id = ++f->conn.tw_id ?: ++f->conn.tw_id;
	list_add_tail(&tw->node, &f->conn.tw);
	f->conn.ntw++;
	spin_unlock_bh(&f->conn.qh_lock);
}

/* both FINs are in and ours is acknowledged: the connection is over */
static void isim_toe_closed(struct isim_func *f, struct isim_qp *qp)
{
	atomic64_inc(&f->toe.closed);
	if (qp->toe.closed_first)
		isim_toe_time_wait(f, &qp->toe);
	isim_toe_unlink(f, qp);
	isim_toe_ae(f, qp, ISIM_AE_LLP_CLOSE_COMPLETE);
}

/*
 * The bytes of the whole FPDUs at the front of @data: each is its 2-byte
 * MPA length, the ULPDU, padding to 4 and the CRC. Less than @len when
 * the segment ends inside an FPDU (or inside its length).
 */
static u32 isim_toe_whole(const u8 *data, u32 len)
{
	u32 off = 0, flen;

	while (len - off >= ISIM_MPA_LEN_BYTES) {
		flen = ALIGN(ISIM_MPA_LEN_BYTES + get_unaligned_be16(data + off),
			     4) + ISIM_MPA_CRC_BYTES;
		if (flen > len - off)
			break;
		off += flen;
	}
	return off;
}

/*
 * An FPDU cut by the segment's end, on a QP with an IEQ that would have
 * it placed: the episode begins at @fpsn, which goes to Q2 for the driver.
 * Return: true if it did (the segment is the IEQ's).
 */
static bool isim_toe_go_partial(struct isim_func *f, struct isim_qp *qp,
				u32 fpsn)
{
	struct isim_toe *t = &qp->toe;
	__le32 v = cpu_to_le32(fpsn);

	if (!t->ieq_qpn || !qp->q2_pa || qp->term_halted ||
	    (qp->state != ISIM_QPS_RTS && qp->state != ISIM_QPS_CLOSING) ||
	    isim_dma_write(f, qp->q2_pa + ISIM_Q2_FPSN_OFF, &v, sizeof(v)))
		return false;
	t->partial = true;
	t->fpdu_nxt = fpsn;
	atomic64_inc(&f->toe.partials);
	return true;
}

/*
 * Data received is acknowledged once the pass has taken every segment
 * waiting (isim_toe_acks()), as receive coalescing does, or after
 * ISIM_TOE_ACK_EVERY segments; any segment we send meanwhile carries the
 * ACK (isim_toe_frame()). A segment out of order, or one already
 * received, is still answered at once.
 */
static void isim_toe_ack_later(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_toe *t = &qp->toe;

	if (!t->ack_owed++)
		list_add_tail(&t->ack_node, &f->conn.acks);
	if (t->ack_owed >= ISIM_TOE_ACK_EVERY)
		isim_toe_send(f, qp, NULL, 0);
}

/* the ACKs the pass's segments are owed */
static void isim_toe_acks(struct isim_func *f)
{
	struct isim_toe *t, *tmp;

	list_for_each_entry_safe(t, tmp, &f->conn.acks, ack_node) {
		isim_toe_send(f, container_of(t, struct isim_qp, toe), NULL,
			      0);
		/* a QP the scheduler holds sends no ACK (isim_toe_frame()) */
		list_del_init(&t->ack_node);
		t->ack_owed = 0;
	}
}

/* the payload of a segment at rcv_nxt: FPDUs for the data path */
static void isim_toe_data(struct isim_xfer **xp, struct isim_func *f,
			  struct isim_qp *qp, struct sk_buff *skb,
			  const u8 *data, u32 plen, const u8 *hdrs,
			  u32 hdr_len)
{
	struct isim_toe *t = &qp->toe;
	u32 snd = t->snd_nxt;
	u32 seq = t->rcv_nxt;
	u32 whole = plen;

	/* the peer's first FPDU (the RTR, or data) releases the SQ */
	t->first_fpdu = true;
	t->wait_fpdu = false;
	t->rcv_nxt += plen;
	/* in an episode every byte is the IEQ's, until it hands them back */
	if (t->partial)
		whole = 0;
	else if (t->ieq_qpn)
		whole = isim_toe_whole(data, plen);
	if (whole)
		isim_exec_iw_rx(xp, f, qp, data, whole, hdrs, hdr_len);
	if (whole < plen && !t->partial && t->linked &&
	    !isim_toe_go_partial(f, qp, seq + whole))
		/* no IEQ: the cut FPDU is a framing error */
		isim_exec_iw_rx(xp, f, qp, data + whole, plen - whole, hdrs,
				hdr_len);
	if (t->partial) {
		if (isim_ilq_exception(f, skb, t->ieq_qpn)) {
			/* no room: not received, the peer sends it again */
			t->rcv_nxt = seq + whole;
			atomic64_inc(&f->toe.dropped);
			return;
		}
		atomic64_inc(&f->toe.to_ieq);
	}
	/* acknowledge, unless a READ RESPONSE already did */
	if (t->linked && t->snd_nxt == snd)
		isim_toe_ack_later(f, qp);
}

/* the QP offloading @fl, or NULL */
static struct isim_qp *isim_toe_find(struct isim_func *f,
				     const struct isim_flow *fl)
{
	struct isim_toe *t;
	u32 qpn = 0;

	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry(t, &f->conn.toe, node) {
		if (isim_toe_same(&t->flow, fl)) {
			qpn = t->qpn;
			break;
		}
	}
	spin_unlock_bh(&f->conn.qh_lock);
	return qpn ? xa_load(&f->qps, qpn) : NULL;
}

/**
 * isim_toe_ieq_in - a segment the IEQ hands back through a loopback AH
 * @f: function
 * @h: the AH's headers: the connection as its segments arrive (source
 *	the peer, destination this function)
 * @seg: TCP header and whole FPDUs
 * @len: its bytes
 *
 * Taken by the connection of the 4-tuple if it is in a partial episode
 * and the segment starts where its next FPDU does: the FPDUs are placed
 * as received ones are, and once the driver has given back everything up
 * to rcv_nxt the episode is over. Anything else is dropped and counted.
 * The segment's TCP fields other than the ports and the sequence number
 * are not looked at: the connection's TCP saw the original.
 */
void isim_toe_ieq_in(struct isim_func *f, const struct isim_ilq_hdrs *h,
		     const u8 *seg, u32 len)
{
	const struct tcphdr *th = (const struct tcphdr *)seg;
	struct isim_xfer *x = NULL;
	struct isim_flow fl = {};
	struct isim_qp *qp;
	struct isim_toe *t;
	u32 hlen, plen;

	lockdep_assert_held(&f->eng_lock);
	if (len < sizeof(*th) || th->doff * 4 < sizeof(*th) ||
	    th->doff * 4 > len)
		goto bad;
	hlen = th->doff * 4;
	plen = len - hlen;
	fl.ipv4 = h->ipv4;
	memcpy(fl.loc_addr, h->dst, sizeof(fl.loc_addr));
	memcpy(fl.rem_addr, h->src, sizeof(fl.rem_addr));
	fl.loc_port = ntohs(th->dest);
	fl.rem_port = ntohs(th->source);
	fl.vlan = h->vlan ? h->tci & VLAN_VID_MASK : 0xffff;
	qp = isim_toe_find(f, &fl);
	if (!qp || !qp->toe.linked || !qp->toe.partial || !plen)
		goto bad;
	t = &qp->toe;
	if (ntohl(th->seq) != t->fpdu_nxt ||
	    (s32)(t->rcv_nxt - (t->fpdu_nxt + plen)) < 0 ||
	    isim_toe_whole(seg + hlen, plen) != plen)
		goto bad;
	isim_exec_iw_rx(&x, f, qp, seg + hlen, plen, NULL, 0);
	isim_xfer_put(x);
	t->fpdu_nxt += plen;
	if (t->fpdu_nxt == t->rcv_nxt)
		t->partial = false;
	atomic64_inc(&f->toe.from_ieq);
	return;
bad:
	atomic64_inc(&f->toe.ieq_bad);
}

/* what the peer acknowledged all of is not kept any more */
static void isim_toe_rtx_acked(struct isim_toe *t)
{
	struct isim_toe_rtx *r, *tmp;

	list_for_each_entry_safe(r, tmp, &t->rtxq, node) {
		if ((s32)(r->seq + r->len + r->fin - t->snd_una) > 0)
			break;
		list_del(&r->node);
		kfree(r);
	}
}

/*
 * The peer's ACK: an acceptable one (snd_una..snd_nxt) brings the peer's
 * window. One that moves snd_una releases what it covers and starts the
 * retransmission timer over; during a recovery it sends the next oldest
 * segment again, until what was sent before the loss is all acknowledged.
 * A duplicate (@bare: no data, no FIN; nothing new acknowledged, the same
 * window, something in flight) counts towards a fast retransmit, which
 * the third one triggers.
 */
static void isim_toe_acked(struct isim_func *f, struct isim_qp *qp,
			   const struct tcphdr *th, bool bare)
{
	struct isim_toe *t = &qp->toe;
	u32 wnd = (u32)ntohs(th->window) << t->snd_wscale;
	u32 ack = ntohl(th->ack_seq);

	if (ack - t->snd_una > t->snd_nxt - t->snd_una)
		return;
	if (ack != t->snd_una) {
		t->snd_una = ack;
		isim_toe_rtx_acked(t);
		t->retries = 0;
		t->dupacks = 0;
		t->rto_ms = f->toe.rto_ms;
		t->rto_due = jiffies + msecs_to_jiffies(t->rto_ms);
		if (t->recovering) {
			if ((s32)(ack - t->recover) >= 0)
				t->recovering = false;
			else
				isim_toe_resend(f, qp);
		}
	} else if (bare && wnd == t->snd_wnd && !list_empty(&t->rtxq) &&
		   t->dupacks < U8_MAX &&
		   ++t->dupacks == ISIM_TOE_DUPACKS) {
		isim_toe_recover(f, qp);
	}
	t->snd_wnd = wnd;
}

/**
 * isim_toe_window_open - the peer's window has room for more
 * @t: an offloaded connection
 *
 * Nothing in flight, or less in flight than the peer's window: the SQ
 * may start its next message (which is then sent whole).
 *
 * Return: true if it may.
 */
bool isim_toe_window_open(const struct isim_toe *t)
{
	u32 flight = t->snd_nxt - t->snd_una;

	return !flight || flight < t->snd_wnd;
}

/*
 * A retransmission that starts before rcv_nxt and reaches beyond it (a
 * peer may repacketize what it resends): drop the bytes we have, so that
 * the rest (or its FIN) starts at rcv_nxt. Return: true if it was trimmed.
 */
static bool isim_toe_trim(const struct isim_toe *t, u32 *seq,
			  const u8 **data, u32 *plen, bool fin)
{
	u32 old = t->rcv_nxt - *seq;

	if ((s32)old <= 0 || old > *plen || (old == *plen && !fin))
		return false;
	*seq += old;
	*data += old;
	*plen -= old;
	return true;
}

/* Return: true if the segment was acted on, false to count it dropped */
static bool isim_toe_seg(struct isim_xfer **xp, struct isim_func *f,
			 struct isim_qp *qp, struct sk_buff *skb,
			 const struct tcphdr *th, const u8 *data, u32 plen)
{
	struct isim_toe *t = &qp->toe;
	u32 seq = ntohl(th->seq);
	bool took;

	if (!th->rst)
		isim_toe_trim(t, &seq, &data, &plen, th->fin);
	if (!isim_toe_in_window(t, seq)) {
		/*
		 * RFC 9293, 3.10.7.4: an unacceptable segment (a duplicate
		 * of what we have, sent again because our ACK was late) is
		 * answered with an ACK, an RST is not
		 */
		if (!th->rst && (plen || th->fin))
			isim_toe_send(f, qp, data, 0);
		atomic64_inc(&f->toe.unacceptable);
		return false;
	}
	if (th->rst) {
		atomic64_inc(&f->toe.rst);
		qp->state = ISIM_QPS_ERROR;
		isim_toe_unlink(f, qp);
		isim_toe_ae(f, qp, ISIM_AE_LLP_CONN_RESET);
		return true;
	}
	if (th->ack)
		isim_toe_acked(f, qp, th, !plen && !th->fin && !th->syn);
	if ((plen || th->fin) && seq != t->rcv_nxt) {
		/*
		 * one before it is missing: nothing is kept out of order, a
		 * duplicate ACK tells the peer where to send from again
		 */
		atomic64_inc(&f->toe.ooo);
		isim_toe_send(f, qp, NULL, 0);
		return false;
	}
	/* the ACK matters only to a FIN of ours */
	if (th->ack && t->fin_sent &&
	    (s32)(ntohl(th->ack_seq) - t->snd_nxt) >= 0)
		t->fin_acked = true;
	took = !plen && !th->fin;
	if (plen && !t->fin_rcvd) {
		/* the frame's headers, for an FPDU the engine refuses */
		if (skb_mac_header_was_set(skb))
			isim_toe_data(xp, f, qp, skb, data, plen,
				      skb_mac_header(skb),
				      (const u8 *)th + th->doff * 4 -
				      skb_mac_header(skb));
		else
			isim_toe_data(xp, f, qp, skb, data, plen, NULL, 0);
		if (!t->linked)
			return true;
		took = true;
	}
	/* a FIN behind data the IEQ had no room for comes again with it */
	if (th->fin && !t->fin_rcvd && t->rcv_nxt == seq + plen) {
		t->fin_rcvd = true;
		t->closed_first = t->fin_sent;
		t->rcv_nxt = seq + plen + 1;
		atomic64_inc(&f->toe.fin);
		isim_toe_xmit(f, qp, NULL, 0, 0);
		/* after our own FIN the close completion says it all */
		if (!t->fin_pending && !t->fin_sent)
			isim_toe_ae(f, qp, ISIM_AE_LLP_FIN_RECEIVED);
		took = true;
	}
	if (t->fin_acked && t->fin_rcvd)
		isim_toe_closed(f, qp);
	return took;
}

/*
 * The wire's fault (corrupt_toe_rx): the last byte of a segment with
 * payload flipped, which TCP cannot tell and MPA's CRC can. The frame may
 * be shared with a capture: it is copied first.
 */
static void isim_toe_corrupt_rx(struct isim_func *f, struct sk_buff *skb,
				const struct isim_toe_cb *cb)
{
	const struct tcphdr *th = (const void *)(skb->data + cb->l3_len);

	if (th->doff * 4 >= cb->seg_len ||
	    atomic_dec_if_positive(&f->faults.corrupt_toe_rx) < 0 ||
	    skb_ensure_writable(skb, cb->l3_len + cb->seg_len))
		return;
	skb->data[cb->l3_len + cb->seg_len - 1] ^= 0xff;
}

/*
 * A segment of a connection in TIME_WAIT (@th NULL if it did not fit its
 * frame); consumes @skb. The peer's FIN, or data, sent again because our
 * last ACK was lost: acknowledged once more, and the time starts over.
 * An RST ends the record; a bare ACK changes nothing.
 */
static void isim_toe_tw_rx(struct isim_func *f, struct sk_buff *skb,
			   const struct tcphdr *th, u32 hlen)
{
	const struct isim_toe_cb *cb = isim_toe_cb(skb);
	struct isim_toe_tw *tw, *hit = NULL, out;

	if (!th || hlen < sizeof(*th) || hlen > cb->seg_len) {
		atomic64_inc(&f->toe.malformed);
		goto drop;
	}
	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry(tw, &f->conn.tw, node) {
		if (tw->id == cb->gen) {
			hit = tw;
			break;
		}
	}
	if (!hit || time_after_eq(jiffies, hit->expires)) {
		spin_unlock_bh(&f->conn.qh_lock);
		atomic64_inc(&f->toe.stale);
		goto drop;
	}
	if (th->rst) {
		isim_toe_tw_free(f, hit);
		spin_unlock_bh(&f->conn.qh_lock);
		consume_skb(skb);
		return;
	}
	if (!th->fin && cb->seg_len == hlen) {
		spin_unlock_bh(&f->conn.qh_lock);
		consume_skb(skb);
		return;
	}
	/* the time starts over: the list stays in the order records expire */
	hit->expires = jiffies + msecs_to_jiffies(READ_ONCE(f->toe.tw_ms));
	list_move_tail(&hit->node, &f->conn.tw);
	out = *hit;
	spin_unlock_bh(&f->conn.qh_lock);
	consume_skb(skb);
	atomic64_inc(&f->toe.tw_acks);
	if (!isim_toe_ack_lost(f) &&
	    isim_toe_out(f, &out.hdrs, &out.flow, out.snd_nxt, out.rcv_nxt,
			 out.wnd, NULL, 0, 0))
		atomic64_inc(&f->toe.dropped);
	return;
drop:
	atomic64_inc(&f->toe.dropped);
	kfree_skb(skb);
}

/* one queued segment; consumes @skb */
static void isim_toe_rx(struct isim_xfer **xp, struct isim_func *f,
			struct sk_buff *skb)
{
	struct isim_toe_cb *cb = isim_toe_cb(skb);
	struct isim_qp *qp = xa_load(&f->qps, cb->qpn);
	const struct tcphdr *th = NULL;
	u32 hlen;

	if (!skb_linearize(skb) && cb->seg_len >= sizeof(*th) &&
	    skb->len >= cb->l3_len + cb->seg_len) {
		isim_toe_corrupt_rx(f, skb, cb);
		th = (const struct tcphdr *)(skb->data + cb->l3_len);
	}
	hlen = th ? th->doff * 4 : 0;
	if (cb->tw) {
		isim_toe_tw_rx(f, skb, th, hlen);
		return;
	}
	/* the connection may have gone, or been replaced, meanwhile */
	if (!qp || !qp->toe.linked || qp->toe.gen != cb->gen) {
		atomic64_inc(&f->toe.stale);
		goto drop;
	}
	atomic_dec(&qp->toe.rx_queued);
	if (!th || hlen < sizeof(*th) || hlen > cb->seg_len) {
		atomic64_inc(&f->toe.malformed);
		isim_hwc_add(f, ISIM_GS_TCP_RX_PROTO_ERR, 1);
		goto drop;
	}
	/* an ACK opens the window, a READ response frees the SQ */
	isim_exec_kick(f, qp);
	if (!isim_toe_seg(xp, f, qp, skb, th, (const u8 *)th + hlen,
			  cb->seg_len - hlen))
		goto drop;
	consume_skb(skb);
	return;
drop:
	atomic64_inc(&f->toe.dropped);
	kfree_skb(skb);
}

/*
 * The retransmission timers: a connection whose oldest unacknowledged
 * segment has waited for its timeout starts a recovery with the timeout
 * doubled, or fails after REXMIT_THRESH expiries in a row.
 */
static void isim_toe_timers(struct isim_func *f)
{
	struct isim_toe_tw *tw, *tw_tmp;
	struct isim_toe *t, *tmp;
	struct isim_qp *qp;

	/*
	 * TIME_WAIT over: the 4-tuple is the filters' again. The list is in
	 * the order records expire (a refreshed one moves to its tail), so
	 * the first that has not expired ends the walk; only a change of
	 * time_wait_ms can put one out of order, which then goes late (the
	 * receive path already treats an expired record as gone).
	 */
	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry_safe(tw, tw_tmp, &f->conn.tw, node) {
		if (time_before(jiffies, tw->expires)) {
			isim_engine_due(f, tw->expires);
			break;
		}
		isim_toe_tw_free(f, tw);
	}
	spin_unlock_bh(&f->conn.qh_lock);

	/* the list changes only under eng_lock, which we hold */
	list_for_each_entry_safe(t, tmp, &f->conn.toe, node) {
		/*
		 * A segment of the connection that came in before the timer
		 * expired is looked at first, as the adapter's receive path
		 * would have: the ACK may be in it.
		 */
		if (list_empty(&t->rtxq) || atomic_read(&t->rx_queued))
			continue;
		/* a pass must come when the timer expires */
		if (time_before(jiffies, t->rto_due)) {
			isim_engine_due(f, t->rto_due);
			continue;
		}
		qp = container_of(t, struct isim_qp, toe);
		/*
		 * Held by the scheduler: the timer waits until it may send,
		 * looking again on every jiffy (a deadline passed).
		 */
		if (!isim_sched_may_send(f, qp)) {
			isim_engine_due(f, t->rto_due);
			continue;
		}
		atomic64_inc(&f->toe.timeouts);
		isim_exec_kick(f, qp);
		if (t->retries >= t->rexmit_thresh) {
			atomic64_inc(&f->toe.gave_up);
			qp->state = ISIM_QPS_ERROR;
			isim_toe_unlink(f, qp);
			isim_toe_ae(f, qp, ISIM_AE_LLP_TOO_MANY_RETRIES);
			continue;
		}
		t->retries++;
		t->rto_ms = min_t(u32, 2 * t->rto_ms, ISIM_TOE_RTO_MAX_MS);
		/*
		 * Duplicate ACKs since the last progress: the receiver saw a
		 * hole and dropped what came after it, so all of that must
		 * come again. Without them the timer may only have beaten a
		 * late ACK (a busy peer): the oldest alone goes again, and
		 * a lost tail is resent one timeout at a time.
		 */
		if (t->dupacks)
			isim_toe_recover(f, qp);
		else
			isim_toe_resend(f, qp);
		isim_engine_due(f, t->rto_due);
	}
}

/**
 * isim_toe_run - one pass of the engine over received segments
 * @f: function
 * @budget: most segments to look at
 *
 * The adapter receives and transmits side by side; here both share one
 * pass. So that SQ work cannot starve the receive side (and fill its
 * queue), the first ISIM_TOE_RX_MIN segments are looked at even when
 * the pass is over. The retransmission timers come after the segments.
 *
 * Return: true if segments are still waiting, here or handed to the IEQ
 * (placed in its RQ by the next pass).
 */
bool isim_toe_run(struct isim_func *f, unsigned int budget)
{
	struct isim_xfer *x = NULL;
	struct sk_buff *skb;
	unsigned int n = 0, floor;

	lockdep_assert_held(&f->eng_lock);
	/*
	 * A pass whose SQ work used up its time would otherwise look at a
	 * fixed few segments, while on a loopback every FPDU those WQEs sent
	 * comes back, and then its ACK: the queue grew until it overflowed
	 * and the dropped segments waited for retransmission timeouts.
	 */
	floor = max_t(unsigned int, ISIM_TOE_RX_MIN,
		      skb_queue_len_lockless(&f->toe.rxq) / ISIM_TOE_RX_SHARE);
	while (n < budget && (n < floor || !isim_pass_over(f)) &&
	       (skb = skb_dequeue(&f->toe.rxq))) {
		isim_toe_rx(&x, f, skb);
		n++;
	}
	isim_xfer_put(x);
	isim_toe_acks(f);
	isim_toe_timers(f);
	return !skb_queue_empty(&f->toe.rxq) || !skb_queue_empty(&f->ilq.rxq);
}

/* ---- transmit ---- */

static void isim_toe_hdrs(const struct isim_toe *t, u64 dmac,
			  struct isim_ilq_hdrs *h)
{
	u64_to_ether_addr(dmac, h->dmac);
	ether_addr_copy(h->smac, t->loc_mac);
	h->vlan = t->insert_vlan;
	h->tci = t->vlan_tag;
	h->ipv4 = t->flow.ipv4;
	h->tc = t->tos;
	h->hop = t->ttl;
	h->flow = t->flow_label;
	memcpy(h->src, t->flow.loc_addr, sizeof(h->src));
	memcpy(h->dst, t->flow.rem_addr, sizeof(h->dst));
}

/*
 * A segment of the 4-tuple @fl leaves behind headers @h: ACK, seq @seq,
 * ack @ack, window field @wnd, plus @flags (FIN, RST), plus PSH with
 * data. Counted as sent, or as dropped when the netdev refuses it.
 * Return: 0, or -ENOMEM when no frame could be built.
 */
static int isim_toe_out(struct isim_func *f, const struct isim_ilq_hdrs *h,
			const struct isim_flow *fl, u32 seq, u32 ack, u16 wnd,
			const u8 *data, u32 len, u8 flags)
{
	struct tcphdr th = {
		.source = htons(fl->loc_port),
		.dest = htons(fl->rem_port),
		.seq = htonl(seq),
		.ack_seq = htonl(ack),
		.doff = sizeof(th) / 4,
		.ack = 1,
		.psh = !!len,
		.fin = !!(flags & ISIM_TOE_FIN),
		.rst = !!(flags & ISIM_TOE_RST),
		.window = htons(wnd),
	};
	struct sk_buff *skb;

	skb = isim_ilq_seg_frame(f, h, &th, sizeof(th), data, len);
	if (!skb)
		return -ENOMEM;
	if (isim_ilq_emit(f, skb))
		atomic64_inc(&f->toe.dropped);
	else
		atomic64_inc(&f->toe.tx);
	return 0;
}

/*
 * One segment of @qp's connection: ACK, plus @flags, plus PSH with data;
 * sequence number @seq, ack = rcv_nxt, the window of the context.
 *
 * Every segment of the connection leaves here. A QP that may not send
 * (suspended, or not served by the scheduler: isim_sched_may_send())
 * sends none: what takes sequence space stays queued for a resend, which
 * its timer brings once the QP may send again (isim_toe_timers()); an
 * ACK or an RST is not sent at all.
 */
static u16 isim_toe_frame(struct isim_func *f, struct isim_qp *qp, u32 seq,
			  const u8 *data, u32 len, u8 flags)
{
	struct isim_toe *t = &qp->toe;
	struct isim_ilq_hdrs h = {};
	void *arp;

	if (!isim_sched_may_send(f, qp)) {
		f->sched.unsched++;
		return 0;
	}
	arp = xa_load(&f->conn.arp, t->arp_idx);
	if (!arp)
		return ISIM_WC_LOC_QP_OP;
	isim_toe_hdrs(t, xa_to_value(arp), &h);
	if (isim_toe_out(f, &h, &t->flow, seq, t->rcv_nxt, isim_toe_wnd(t),
			 data, len, flags))
		return ISIM_WC_LOC_QP_OP;
	/* it acknowledges everything received */
	if (t->ack_owed) {
		list_del_init(&t->ack_node);
		t->ack_owed = 0;
	}
	return 0;
}

/*
 * A new segment at snd_nxt (see isim_toe_frame()); snd_nxt advances by
 * the data and the FIN. What takes sequence space is kept for a resend
 * until the peer acknowledges it, and the first such starts the timer.
 */
/*
 * The first transmission of a segment; corrupt_toe_tx flips its last
 * byte on the way (the copy kept for a resend stays whole).
 */
static u16 isim_toe_frame_out(struct isim_func *f, struct isim_qp *qp,
			      u32 seq, const u8 *data, u32 len, u8 flags)
{
	u8 *bad;
	u16 minor;

	if (!len || atomic_dec_if_positive(&f->faults.corrupt_toe_tx) < 0)
		return isim_toe_frame(f, qp, seq, data, len, flags);
	bad = kmemdup(data, len, GFP_ATOMIC | __GFP_NOWARN);
	if (!bad)
		return ISIM_WC_LOC_QP_OP;
	bad[len - 1] ^= 0xff;
	minor = isim_toe_frame(f, qp, seq, bad, len, flags);
	kfree(bad);
	return minor;
}

/*
 * The record a new segment of @len bytes (@fin: with our FIN) joins: the
 * newest, if it has room and the segment follows it; else NULL.
 */
static struct isim_toe_rtx *isim_toe_rtx_tail(struct isim_toe *t, u32 len,
					      bool fin)
{
	struct isim_toe_rtx *r;

	if (list_empty(&t->rtxq) || fin)
		return NULL;
	r = list_last_entry(&t->rtxq, struct isim_toe_rtx, node);
	if (r->fin || r->nseg == ISIM_TOE_RTX_SEGS || r->cap - r->len < len ||
	    r->seq + r->len != t->snd_nxt)
		return NULL;
	return r;
}

/*
 * A new record: sized for the segment alone when nothing else is in
 * flight (a message of one segment, a FIN), for ISIM_TOE_RTX_SEGS
 * segments of the MSS when a stream is under way.
 */
static struct isim_toe_rtx *isim_toe_rtx_new(struct isim_toe *t, u32 len)
{
	u32 cap = list_empty(&t->rtxq) ? len :
		  max_t(u32, len, ISIM_TOE_RTX_SEGS * t->mss);
	struct isim_toe_rtx *r;

	r = kmalloc(struct_size(r, data, cap), GFP_ATOMIC | __GFP_NOWARN);
	if (!r)
		return NULL;
	r->seq = t->snd_nxt;
	r->len = 0;
	r->cap = cap;
	r->nseg = 0;
	r->fin = false;
	return r;
}

static u16 isim_toe_xmit(struct isim_func *f, struct isim_qp *qp,
			 const u8 *data, u32 len, u8 flags)
{
	bool fin = flags & ISIM_TOE_FIN;
	struct isim_toe *t = &qp->toe;
	struct isim_toe_rtx *r = NULL, *fresh = NULL;
	u16 minor;

	lockdep_assert_held(&f->eng_lock);
	if (len > t->mss)
		return ISIM_WC_LOC_LEN;
	if (!t->linked)
		return ISIM_WC_LOC_QP_OP;
	if (len || fin) {
		r = isim_toe_rtx_tail(t, len, fin);
		if (!r) {
			fresh = isim_toe_rtx_new(t, len);
			if (!fresh)
				return ISIM_WC_LOC_QP_OP;
			r = fresh;
		}
	}
	if (len && atomic_dec_if_positive(&f->faults.drop_toe) >= 0) {
		/* lost on the way (drop_toe_segs): only a resend brings it */
		atomic64_inc(&f->wire.dropped);
	} else if (len || flags || !isim_toe_ack_lost(f)) {
		/* (a lost bare ACK: the peer's resend brings another) */
		minor = isim_toe_frame_out(f, qp, t->snd_nxt, data, len,
					   flags);
		if (minor) {
			kfree(fresh);
			return minor;
		}
	}
	t->snd_nxt += len + fin;
	if (!r)
		return 0;
	memcpy(r->data + r->len, data, len);
	r->seg[r->nseg++] = len;
	r->len += len;
	r->fin = fin;
	if (fresh) {
		if (list_empty(&t->rtxq))
			t->rto_due = jiffies + msecs_to_jiffies(t->rto_ms);
		list_add_tail(&fresh->node, &t->rtxq);
	}
	return 0;
}

/* the oldest unacknowledged segment goes again; the timer restarts */
static void isim_toe_resend(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_toe *t = &qp->toe;
	struct isim_toe_rtx *r;
	u32 seq, off = 0;
	bool fin = false;
	u8 i;

	r = list_first_entry_or_null(&t->rtxq, struct isim_toe_rtx, node);
	if (!r)
		goto timer;
	seq = r->seq;
	for (i = 0; i < r->nseg; i++) {
		fin = r->fin && i == r->nseg - 1;
		/* the first that is not all acknowledged */
		if ((s32)(seq + r->seg[i] + fin - t->snd_una) > 0)
			break;
		seq += r->seg[i];
		off += r->seg[i];
	}
	if (i < r->nseg &&
	    !isim_toe_frame(f, qp, seq, r->data + off, r->seg[i],
			    fin ? ISIM_TOE_FIN : 0)) {
		atomic64_inc(&f->toe.retrans);
		isim_hwc_add(f, ISIM_GS_TCP_RTX_SEGS, 1);
	}
timer:
	t->rto_due = jiffies + msecs_to_jiffies(t->rto_ms);
}

/* a loss: the oldest goes again now, the rest as the ACKs come back */
static void isim_toe_recover(struct isim_func *f, struct isim_qp *qp)
{
	qp->toe.recovering = true;
	qp->toe.recover = qp->toe.snd_nxt;
	isim_toe_resend(f, qp);
}

/**
 * isim_toe_send - send bytes of the stream as one segment of a connection
 * @f: function
 * @qp: an offloaded QP
 * @data: the bytes
 * @len: how many (at most the MSS)
 *
 * The segment carries ACK (and PSH when @len is not 0: without data it
 * is a pure ACK), seq = snd_nxt, ack = rcv_nxt and the window of the
 * context; it leaves from the QP's 4-tuple to the MAC of
 * its ARP cache entry, through the ILQ's output path. snd_nxt advances.
 *
 * Return: 0, ISIM_WC_LOC_LEN (longer than the MSS) or ISIM_WC_LOC_QP_OP
 * (the ARP entry is gone, no memory).
 */
u16 isim_toe_send(struct isim_func *f, struct isim_qp *qp, const u8 *data,
		  u32 len)
{
	return isim_toe_xmit(f, qp, data, len, 0);
}

/**
 * isim_toe_modify - a MODIFY_QP (without a new connection) of a QP
 * @f: function
 * @qp: the QP, with the state the command asked for
 * @hdr: the command's header
 *
 * On an offloaded QP: RESETCON sends an RST at snd_nxt and gives up the
 * 4-tuple, without an AE; otherwise a move to CLOSING starts a graceful
 * close, whose FIN waits for the SQ (isim_toe_sq_idle()). A move to
 * TERMINATE sends, as TERMACT says, the TERMINATE message of Q2 (once;
 * TERMINATE_SENT follows) and our FIN, which does not wait for the SQ.
 * Call before isim_toe_new_state().
 */
void isim_toe_modify(struct isim_func *f, struct isim_qp *qp, u64 hdr)
{
	struct isim_toe *t = &qp->toe;
	u8 act;

	lockdep_assert_held(&f->eng_lock);
	if (!t->linked)
		return;
	if (hdr & ISIM_QP_HDR_RESET_CONN) {
		t->fin_pending = false;
		if (!isim_toe_xmit(f, qp, NULL, 0, ISIM_TOE_RST))
			atomic64_inc(&f->toe.rst_tx);
		isim_toe_unlink(f, qp);
		return;
	}
	if (qp->state == ISIM_QPS_CLOSING && !t->fin_sent)
		t->fin_pending = true;
	if (qp->state != ISIM_QPS_TERMINATE)
		return;
	/* TERMINATE: the message goes first, the FIN after it */
	act = FIELD_GET(ISIM_QP_HDR_TERM_ACT, hdr);
	if ((act == ISIM_TERMACT_TERM_AND_FIN || act == ISIM_TERMACT_TERM) &&
	    !t->term_sent) {
		t->term_sent = true;
		isim_exec_iw_terminate(f, qp);
	}
	if ((act == ISIM_TERMACT_TERM_AND_FIN || act == ISIM_TERMACT_FIN) &&
	    !t->fin_sent) {
		t->fin_pending = true;
		isim_toe_sq_idle(f, qp);
	}
}

/**
 * isim_toe_sq_idle - a graceful close's FIN goes once the SQ is done
 * @f: function
 * @qp: the QP, after the engine's pass over its SQ
 *
 * The FIN of a graceful close follows everything posted before it: it
 * goes out only when the SQ ring is empty (isim_exec_sq_empty(), whatever
 * stopped the pass: the budget, the peer's window, an LSMM waiting for the
 * first FPDU) and the peer's window has room for it (a FIN beyond the
 * window would be dropped and wait for the retransmission timer). The
 * close completes when the peer's FIN is in and ours is acknowledged (at
 * once if both happened already, which cannot be: ours just left).
 */
void isim_toe_sq_idle(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_toe *t = &qp->toe;

	lockdep_assert_held(&f->eng_lock);
	/*
	 * In TERMINATE the SQ runs no more: the FIN does not wait for it. A
	 * QP halted by an error while closing sends none of its own: a FIN
	 * would tell the peer that everything before it arrived, and the
	 * WQE that failed did not; the driver aborts (RESET_CONN).
	 */
	if (qp->state != ISIM_QPS_TERMINATE && qp->term_halted)
		return;
	if (!t->linked || !t->fin_pending || !isim_toe_window_open(t) ||
	    (qp->state != ISIM_QPS_TERMINATE && !isim_exec_sq_empty(f, qp)))
		return;
	t->fin_pending = false;
	if (isim_toe_xmit(f, qp, NULL, 0, ISIM_TOE_FIN)) {
		/* no route to the peer any more: the connection is lost */
		atomic64_inc(&f->toe.gave_up);
		qp->state = ISIM_QPS_ERROR;
		isim_toe_unlink(f, qp);
		isim_toe_ae(f, qp, ISIM_AE_LLP_TOO_MANY_RETRIES);
		return;
	}
	t->fin_sent = true;
	atomic64_inc(&f->toe.fin_tx);
}

/**
 * isim_toe_show - the offload line of the state file
 * @s: the file
 * @f: function
 */
void isim_toe_show(struct seq_file *s, struct isim_func *f)
{
	u32 n, ntw, qmax;

	spin_lock_bh(&f->conn.qh_lock);
	n = f->conn.ntoe;
	ntw = f->conn.ntw;
	qmax = f->toe.rxq_max;
	spin_unlock_bh(&f->conn.qh_lock);
	seq_printf(s, "toe: conns=%u tx=%lld rx=%lld fin=%lld rst=%lld dropped=%lld fin_tx=%lld rst_tx=%lld closed=%lld ooo=%lld retrans=%lld timeouts=%lld gave_up=%lld full=%lld stale=%lld malformed=%lld unacceptable=%lld rxq_max=%u term_tx=%lld term_rx=%lld tw=%u tw_acks=%lld tw_reuse=%lld partials=%lld to_ieq=%lld from_ieq=%lld ieq_bad=%lld\n",
		   n, (s64)atomic64_read(&f->toe.tx),
		   (s64)atomic64_read(&f->toe.rx),
		   (s64)atomic64_read(&f->toe.fin),
		   (s64)atomic64_read(&f->toe.rst),
		   (s64)atomic64_read(&f->toe.dropped),
		   (s64)atomic64_read(&f->toe.fin_tx),
		   (s64)atomic64_read(&f->toe.rst_tx),
		   (s64)atomic64_read(&f->toe.closed),
		   (s64)atomic64_read(&f->toe.ooo),
		   (s64)atomic64_read(&f->toe.retrans),
		   (s64)atomic64_read(&f->toe.timeouts),
		   (s64)atomic64_read(&f->toe.gave_up),
		   (s64)atomic64_read(&f->toe.full),
		   (s64)atomic64_read(&f->toe.stale),
		   (s64)atomic64_read(&f->toe.malformed),
		   (s64)atomic64_read(&f->toe.unacceptable),
		   qmax, (s64)atomic64_read(&f->toe.term_tx),
		   (s64)atomic64_read(&f->toe.term_rx), ntw,
		   (s64)atomic64_read(&f->toe.tw_acks),
		   (s64)atomic64_read(&f->toe.tw_reused),
		   (s64)atomic64_read(&f->toe.partials),
		   (s64)atomic64_read(&f->toe.to_ieq),
		   (s64)atomic64_read(&f->toe.from_ieq),
		   (s64)atomic64_read(&f->toe.ieq_bad));
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/toe_test.c"
#include "kunit/iwarp_test.c"
#endif
