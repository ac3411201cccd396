// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the privileged raw queue that carries the iWARP CM's TCP
 * segments (the ILQ), and the steering that feeds it.
 *
 * The ILQ is a QP of the UDA type. Its SQ WQEs name a buffer holding a TCP
 * header and payload and an address handle; the engine puts Ethernet (with
 * an 802.1Q tag if the AH asks) and IPv4 or IPv6 in front, fills in the
 * lengths and the IP and TCP checksums, and transmits the frame out of the
 * function's netdev, so the wired peer receives a real frame.
 *
 * Frames arriving on the netdev pass the quad-hash filters first (conn.c):
 * a TCP connection request to a listener's address and port, or a segment
 * of a 4-tuple with an established filter, is taken from the network stack
 * in softirq context and queued; the engine, on its next pass, places it in
 * the filter's QP's next RQ buffer (TCP header at byte 40, the IP header
 * right before it) and writes a CQE whose extension carries the source MAC
 * and VLAN tag. With no RQ buffer posted the frame is dropped and counted.
 * Everything else goes to the stack as before.
 *
 * Segments of offloaded connections are not the ILQ's: toe.c takes them
 * before the filters are asked.
 *
 * The IEQ is the same kind of QP: the engine hands it segments with
 * partial FPDUs (toe.c), and a send through a loopback AH goes back to the
 * offloaded connection it names instead of the wire.
 *
 * On gen1 (X722) an SQ WQE names no AH: its buffer is the whole frame,
 * which the driver built, Ethernet to TCP, checksums included. The engine
 * sends it as it is, or with the WQE's loopback bit takes its segment as
 * received, as a gen2 loopback AH does (a frame from the function to
 * itself, with the bit, goes out and is turned around like any frame to
 * the function). A gen1 receive is the whole frame from its Ethernet
 * header, tag in place, with a CQE that has no extension: bit 50 says
 * tagged, word 2's L3PROTO IPv4 (0) or IPv6.
 *
 * Not modelled: IPv4 options and IPv6 extension headers in received
 * segments (such frames are not steered).
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>

#include "isim.h"

#define ISIM_ILQ_RXQ_MAX	256	/* steered frames waiting for the engine */
#define ISIM_ILQ_RX_MIN		16	/* frames a pass places in any case */
#define ISIM_ILQ_SEG_MAX	9000	/* longest TCP segment transmitted */

/**
 * struct isim_ilq_cb - skb->cb of a steered frame
 * @qpn: QP of the filter that matched
 * @seg_len: bytes of the TCP segment (header and payload)
 * @tci: VLAN tag, with @vlan
 * @smac: source MAC of the frame
 * @dmac: destination MAC of the frame (gen1 receives keep the header)
 * @l3_len: bytes of the IP header
 * @vlan: the frame was tagged
 * @ipv4: IPv4 (else IPv6)
 */
struct isim_ilq_cb {
	u32 qpn;
	u32 seg_len;
	u16 tci;
	u8 smac[ETH_ALEN];
	u8 dmac[ETH_ALEN];
	u8 l3_len;
	bool vlan;
	bool ipv4;
};

static struct isim_ilq_cb *isim_ilq_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct isim_ilq_cb) > sizeof(skb->cb));
	return (struct isim_ilq_cb *)skb->cb;
}

/**
 * isim_ilq_init - set up the ILQ state of a new function
 * @f: function
 */
void isim_ilq_init(struct isim_func *f)
{
	skb_queue_head_init(&f->ilq.rxq);
}

/**
 * isim_ilq_reset - drop steered frames the engine has not placed
 * @f: function
 *
 * The page the engine was building frames in is let go too (frames still
 * in flight hold their own references to it).
 */
void isim_ilq_reset(struct isim_func *f)
{
	struct page_frag_cache *nc = &f->ilq.frags;

	lockdep_assert_held(&f->eng_lock);
	skb_queue_purge(&f->ilq.rxq);
	if (nc->va) {
		__page_frag_cache_drain(virt_to_head_page(nc->va),
					nc->pagecnt_bias);
		nc->va = NULL;
	}
}

/* ---- receive: steering, in softirq context ---- */

/* IPv4 without options, not a fragment, carrying TCP */
static int isim_ilq_parse_v4(struct sk_buff *skb, struct isim_flow *fl,
			     struct isim_ilq_cb *cb, u32 *tot)
{
	const struct iphdr *ih;
	struct iphdr buf;

	ih = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	if (!ih || ih->version != 4 || ih->ihl != 5 ||
	    ih->protocol != IPPROTO_TCP || ip_is_fragment(ih))
		return -EINVAL;
	*tot = ntohs(ih->tot_len);
	fl->ipv4 = true;
	fl->loc_addr[0] = ntohl(ih->daddr);
	fl->rem_addr[0] = ntohl(ih->saddr);
	cb->ipv4 = true;
	cb->l3_len = sizeof(*ih);
	return 0;
}

/* IPv6 whose next header is TCP */
static int isim_ilq_parse_v6(struct sk_buff *skb, struct isim_flow *fl,
			     struct isim_ilq_cb *cb, u32 *tot)
{
	const struct ipv6hdr *ih;
	struct ipv6hdr buf;
	int i;

	ih = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	if (!ih || ih->version != 6 || ih->nexthdr != IPPROTO_TCP)
		return -EINVAL;
	*tot = sizeof(*ih) + ntohs(ih->payload_len);
	for (i = 0; i < 4; i++) {
		fl->loc_addr[i] = ntohl(ih->daddr.s6_addr32[i]);
		fl->rem_addr[i] = ntohl(ih->saddr.s6_addr32[i]);
	}
	cb->l3_len = sizeof(*ih);
	return 0;
}

/* the addressing of a frame whose data starts at its IP header */
static int isim_ilq_parse(struct sk_buff *skb, struct isim_flow *fl,
			  struct isim_ilq_cb *cb)
{
	const struct tcphdr *th;
	struct tcphdr buf;
	u32 tot;
	int err;

	if (skb->protocol == htons(ETH_P_IP))
		err = isim_ilq_parse_v4(skb, fl, cb, &tot);
	else if (skb->protocol == htons(ETH_P_IPV6))
		err = isim_ilq_parse_v6(skb, fl, cb, &tot);
	else
		err = -EINVAL;
	if (err || tot > skb->len || tot < cb->l3_len + sizeof(buf))
		return -EINVAL;
	th = skb_header_pointer(skb, cb->l3_len, sizeof(buf), &buf);
	if (!th || th->doff < ISIM_ILQ_L4LEN_MIN ||
	    th->doff * 4 > tot - cb->l3_len)
		return -EINVAL;
	fl->loc_port = ntohs(th->dest);
	fl->rem_port = ntohs(th->source);
	fl->syn = th->syn && !th->ack;
	cb->vlan = skb_vlan_tag_present(skb);
	cb->tci = cb->vlan ? skb_vlan_tag_get(skb) : 0;
	fl->vlan = cb->vlan ? cb->tci & VLAN_VID_MASK : 0xffff;
	cb->seg_len = tot - cb->l3_len;
	if (skb_mac_header_was_set(skb)) {
		ether_addr_copy(cb->smac, eth_hdr(skb)->h_source);
		ether_addr_copy(cb->dmac, eth_hdr(skb)->h_dest);
	}
	return 0;
}

/**
 * isim_ilq_steer - offer a received frame to the quad-hash filters
 * @f: function whose netdev received it
 * @skb: the frame, data at the IP header, MAC header set, VLAN tag (if
 *	any) already taken out into the skb's tag
 *
 * A RoCEv2 datagram for a RoCEv2 function is the engine's (ud.c). A
 * segment of an offloaded connection (toe.c) is the engine's, whatever
 * the filters say. A frame that matches a filter is the engine's too: it
 * is queued for the engine, or dropped and counted (drop knob, queue
 * full). Callable from softirq context.
 *
 * Return: true if the frame was consumed, false to leave it to the stack.
 */
bool isim_ilq_steer(struct isim_func *f, struct sk_buff *skb)
{
	struct isim_ilq_cb cb = {};
	struct isim_flow fl = {};

	/* a RoCEv2 function's datagrams go to its UD QPs (ud.c) */
	if (isim_ud_steer(f, skb))
		return true;
	if (isim_ilq_parse(skb, &fl, &cb))
		return false;
	/* the engine's own connections come before any filter */
	if (isim_toe_steer(f, &fl, skb, cb.l3_len, cb.seg_len)) {
		isim_hwc_segment(f, cb.ipv4, true, cb.l3_len + cb.seg_len);
		return true;
	}
	if (!isim_conn_steer(f, &fl, &cb.qpn))
		return false;
	isim_hwc_segment(f, cb.ipv4, true, cb.l3_len + cb.seg_len);
	atomic64_inc(&f->ilq.steered);
	if (atomic_dec_if_positive(&f->faults.drop_cm) >= 0 ||
	    skb_queue_len(&f->ilq.rxq) >= ISIM_ILQ_RXQ_MAX) {
		atomic64_inc(&f->ilq.dropped);
		kfree_skb(skb);
		return true;
	}
	*isim_ilq_cb(skb) = cb;
	skb_queue_tail(&f->ilq.rxq, skb);
	isim_engine_kick(f, ISIM_WAKE_RX);
	return true;
}

/**
 * isim_ilq_rx_handler - the function netdev's receive hook
 * @pskb: the received frame
 *
 * Return: RX_HANDLER_CONSUMED if the engine took the frame, else
 * RX_HANDLER_PASS.
 */
rx_handler_result_t isim_ilq_rx_handler(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct isim_func *f = rcu_dereference(skb->dev->rx_handler_data);

	if (skb->pkt_type == PACKET_LOOPBACK)
		return RX_HANDLER_PASS;
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;
	return isim_ilq_steer(f, skb) ? RX_HANDLER_CONSUMED : RX_HANDLER_PASS;
}

/* ---- the QP's rings ---- */

/* the 4 words of the one-quantum WQE at the tail. Return: 0, -ENOENT. */
static int isim_ilq_peek(struct isim_func *f, const struct isim_wq *wq,
			 u64 *w)
{
	u32 off = wq->tail * ISIM_WQ_QUANTUM;
	__le64 raw[4];
	int i;

	if (!wq->quanta ||
	    isim_qmem_read(f, &wq->mem, off + ISIM_WQE_HDR * 8,
			   &raw[ISIM_WQE_HDR], 8))
		return -EFAULT;
	if (!!(le64_to_cpu(raw[ISIM_WQE_HDR]) & ISIM_WQH_VALID) !=
	    wq->polarity)
		return -ENOENT;
	/* the body was written before the header */
	dma_rmb();
	if (isim_qmem_read(f, &wq->mem, off, raw, ISIM_WQE_HDR * 8))
		return -EFAULT;
	for (i = 0; i < 4; i++)
		w[i] = le64_to_cpu(raw[i]);
	return 0;
}

static void isim_ilq_advance(struct isim_wq *wq, u32 quanta)
{
	wq->tail += quanta;
	if (wq->tail >= wq->quanta) {
		wq->tail = 0;
		wq->polarity ^= 1;
	}
}

/* a QP the engine runs raw frames through */
static bool isim_ilq_qp_ready(const struct isim_qp *qp)
{
	return qp && qp->type == ISIM_QP_TYPE_UDA && !qp->virt &&
	       !qp->suspended && qp->state == ISIM_QPS_RTS;
}

/* ---- receive: placement, in the engine ---- */

static int isim_ilq_write_rx(struct isim_func *f, u64 addr,
			     struct sk_buff *skb)
{
	static const u8 pad[ISIM_ILQ_RX_IPV4_OFF];
	struct isim_ilq_cb *cb = isim_ilq_cb(skb);
	u32 off = ISIM_ILQ_RX_TCP_OFF - cb->l3_len;

	if (skb_linearize(skb))
		return -ENOMEM;
	if (off && isim_dma_write(f, addr, pad, off))
		return -EFAULT;
	return isim_dma_write(f, addr + off, skb->data,
			      cb->l3_len + cb->seg_len);
}

/* bytes of the Ethernet header a gen1 receive starts with */
static u32 isim_ilq_g1_l2_len(const struct isim_ilq_cb *cb)
{
	return cb->vlan ? VLAN_ETH_HLEN : ETH_HLEN;
}

/*
 * gen1: the whole frame from its Ethernet header, the tag (which the
 * netdev took out) put back in its place
 */
static int isim_ilq_write_rx_g1(struct isim_func *f, u64 addr,
				struct sk_buff *skb)
{
	struct isim_ilq_cb *cb = isim_ilq_cb(skb);
	__be16 proto = htons(cb->ipv4 ? ETH_P_IP : ETH_P_IPV6);
	u32 l2 = isim_ilq_g1_l2_len(cb);
	struct vlan_ethhdr h = {};

	ether_addr_copy(h.h_dest, cb->dmac);
	ether_addr_copy(h.h_source, cb->smac);
	if (cb->vlan) {
		h.h_vlan_proto = htons(ETH_P_8021Q);
		h.h_vlan_TCI = htons(cb->tci);
		h.h_vlan_encapsulated_proto = proto;
	} else {
		/* where an untagged frame has its EtherType */
		h.h_vlan_proto = proto;
	}
	if (skb_linearize(skb))
		return -ENOMEM;
	if (isim_dma_write(f, addr, &h, l2))
		return -EFAULT;
	return isim_dma_write(f, addr + l2, skb->data,
			      cb->l3_len + cb->seg_len);
}

/* gen1 receive CQE: no extension, the frame's length and protocol */
static void isim_ilq_rx_cqe_g1(struct isim_func *f, const struct isim_qp *qp,
			       struct sk_buff *skb, u32 idx, u16 minor)
{
	struct isim_ilq_cb *cb = isim_ilq_cb(skb);
	u64 cqe[4] = {};

	cqe[0] = FIELD_PREP(ISIM_CQE_W0_BYTES, isim_ilq_g1_l2_len(cb) +
						cb->l3_len + cb->seg_len);
	cqe[1] = qp->cq_ctx;
	cqe[2] = FIELD_PREP(ISIM_CQE_W2_QP, qp->id) |
		 FIELD_PREP(ISIM_CQE_W2_G1_L3PROTO,
			    cb->ipv4 ? 0 : ISIM_G1_L3PROTO_IPV6);
	cqe[3] = FIELD_PREP(ISIM_CQE_W3_WQEIDX, idx) |
		 (cb->vlan ? ISIM_CQE_W3_G1_VLAN : 0);
	if (minor)
		cqe[3] |= ISIM_CQE_W3_ERROR |
			  FIELD_PREP(ISIM_CQE_W3_MAJOR, ISIM_CQE_MAJ_FLUSHED) |
			  FIELD_PREP(ISIM_CQE_W3_MINOR, minor);
	if (isim_cq_post(f, qp->rq_cq, cqe))
		dev_dbg_ratelimited(&f->dev, "ILQ %u: CQE to CQ %u lost\n",
				    qp->id, qp->rq_cq);
}

static void isim_ilq_rx_cqe(struct isim_func *f, const struct isim_qp *qp,
			    struct sk_buff *skb, u32 idx, u16 minor)
{
	struct isim_ilq_cb *cb = isim_ilq_cb(skb);
	u64 cqe[ISIM_CQE_WORDS] = {};

	cqe[0] = FIELD_PREP(ISIM_CQE_W0_BYTES,
			    ISIM_ILQ_RX_TCP_OFF + cb->seg_len);
	cqe[1] = qp->cq_ctx;
	cqe[2] = FIELD_PREP(ISIM_CQE_W2_QP, qp->id);
	cqe[3] = FIELD_PREP(ISIM_CQE_W3_WQEIDX, idx) | ISIM_CQE_W3_EXT |
		 (cb->ipv4 ? ISIM_CQE_W3_IPV4 : 0);
	if (minor)
		cqe[3] |= ISIM_CQE_W3_ERROR |
			  FIELD_PREP(ISIM_CQE_W3_MAJOR, ISIM_CQE_MAJ_FLUSHED) |
			  FIELD_PREP(ISIM_CQE_W3_MINOR, minor);
	cqe[6] = FIELD_PREP(ISIM_CQE_W6_SMAC, ether_addr_to_u64(cb->smac));
	cqe[7] = ISIM_CQE_W7_SMAC_VALID;
	if (cb->vlan) {
		cqe[6] |= FIELD_PREP(ISIM_CQE_W6_VLAN, cb->tci);
		cqe[7] |= ISIM_CQE_W7_VLAN_VALID;
	}
	if (isim_cq_post(f, qp->rq_cq, cqe))
		dev_dbg_ratelimited(&f->dev, "ILQ %u: CQE to CQ %u lost\n",
				    qp->id, qp->rq_cq);
}

/* place one steered frame in its QP's next RQ buffer; consumes @skb */
static void isim_ilq_place(struct isim_func *f, struct sk_buff *skb)
{
	struct isim_ilq_cb *cb = isim_ilq_cb(skb);
	struct isim_qp *qp = xa_load(&f->qps, cb->qpn);
	bool g1 = f->gen == ISIM_GEN1;
	u16 minor = 0;
	u64 w[4];
	u32 idx;

	if (!isim_ilq_qp_ready(qp) || qp->rq.flushing ||
	    isim_ilq_peek(f, &qp->rq, w) ||
	    (g1 ? isim_ilq_g1_l2_len(cb) + cb->l3_len :
		  ISIM_ILQ_RX_TCP_OFF) + cb->seg_len >
	    isim_frag_len(f->gen, w[1])) {
		atomic64_inc(&f->ilq.dropped);
		kfree_skb(skb);
		return;
	}
	idx = qp->rq.tail;
	isim_ilq_advance(&qp->rq, 1U << min_t(u8, qp->rq.shift, 3));
	if (g1 ? isim_ilq_write_rx_g1(f, w[0], skb) :
		 isim_ilq_write_rx(f, w[0], skb))
		minor = ISIM_WC_LOC_PROT;
	if (g1)
		isim_ilq_rx_cqe_g1(f, qp, skb, idx, minor);
	else
		isim_ilq_rx_cqe(f, qp, skb, idx, minor);
	if (minor) {
		atomic64_inc(&f->ilq.dropped);
		kfree_skb(skb);
		return;
	}
	atomic64_inc(&f->ilq.rx);
	consume_skb(skb);
}

/* ---- transmit ---- */

/**
 * isim_ah_hdrs - the headers an address handle stands for
 * @f: function
 * @ah_idx: AH index
 * @h: filled in: MACs (the destination from the AH's ARP entry), VLAN,
 *	IP version, addresses, TOS/traffic class, TTL/hop limit, flow label
 *
 * Return: 0, or -ENOENT when the AH or its ARP entry does not exist.
 */
int isim_ah_hdrs(struct isim_func *f, u32 ah_idx, struct isim_ilq_hdrs *h)
{
	struct isim_ah *ah = xa_load(&f->ahs, ah_idx);
	const u64 *w;
	void *arp;

	if (!ah)
		return -ENOENT;
	w = ah->wqe;
	arp = xa_load(&f->conn.arp, FIELD_GET(ISIM_AH_W2_ARP, w[2]));
	if (!arp)
		return -ENOENT;
	u64_to_ether_addr(xa_to_value(arp), h->dmac);
	u64_to_ether_addr(FIELD_GET(ISIM_AH_W0_SMAC, w[0]), h->smac);
	h->vlan = w[ISIM_WQE_HDR] & ISIM_AH_HDR_VLAN;
	h->tci = FIELD_GET(ISIM_AH_W1_VLAN_TAG, w[1]);
	h->ipv4 = w[ISIM_WQE_HDR] & ISIM_AH_HDR_IPV4;
	h->loopback = w[ISIM_WQE_HDR] & ISIM_AH_HDR_LOOPBACK;
	h->tc = FIELD_GET(ISIM_AH_W1_TC, w[1]);
	h->hop = FIELD_GET(ISIM_AH_W2_HOP_LIMIT, w[2]);
	h->flow = FIELD_GET(ISIM_AH_W2_FLOW_LABEL, w[2]);
	isim_conn_addr(&w[ISIM_AH_W_SRC], h->ipv4, h->src);
	isim_conn_addr(&w[ISIM_AH_W_DST], h->ipv4, h->dst);
	return 0;
}

/* Ethernet and the optional tag; returns where the IP header goes */
static void *isim_ilq_put_l2(struct sk_buff *skb,
			     const struct isim_ilq_hdrs *h)
{
	__be16 proto = htons(h->ipv4 ? ETH_P_IP : ETH_P_IPV6);
	struct vlan_ethhdr *veh;
	struct ethhdr *eh;

	skb_reset_mac_header(skb);
	if (h->vlan) {
		veh = skb_put(skb, VLAN_ETH_HLEN);
		ether_addr_copy(veh->h_dest, h->dmac);
		ether_addr_copy(veh->h_source, h->smac);
		veh->h_vlan_proto = htons(ETH_P_8021Q);
		veh->h_vlan_TCI = htons(h->tci);
		veh->h_vlan_encapsulated_proto = proto;
		skb->protocol = htons(ETH_P_8021Q);
	} else {
		eh = skb_put(skb, ETH_HLEN);
		ether_addr_copy(eh->h_dest, h->dmac);
		ether_addr_copy(eh->h_source, h->smac);
		eh->h_proto = proto;
		skb->protocol = proto;
	}
	/* the IP header follows the L2 header just put */
	skb_set_network_header(skb, skb->len);
	return skb_put(skb, h->ipv4 ? sizeof(struct iphdr) :
				      sizeof(struct ipv6hdr));
}

/* the IPv4 header in front of @len bytes of @proto */
static void isim_ilq_put_v4(struct isim_func *f, struct iphdr *ih,
			    const struct isim_ilq_hdrs *h, u8 proto, u32 len)
{
	memset(ih, 0, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->tos = h->tc;
	ih->tot_len = htons(sizeof(*ih) + len);
	ih->id = htons(f->ilq.ip_id++);
	ih->frag_off = htons(IP_DF);
	ih->ttl = h->hop;
	ih->protocol = proto;
	ih->saddr = htonl(h->src[0]);
	ih->daddr = htonl(h->dst[0]);
	ih->check = ip_fast_csum(ih, ih->ihl);
}

static void isim_ilq_put_v6(struct ipv6hdr *ih,
			    const struct isim_ilq_hdrs *h, u8 proto, u32 len)
{
	int i;

	memset(ih, 0, sizeof(*ih));
	ip6_flow_hdr(ih, h->tc, htonl(h->flow));
	ih->payload_len = htons(len);
	ih->nexthdr = proto;
	ih->hop_limit = h->hop;
	for (i = 0; i < 4; i++) {
		ih->saddr.s6_addr32[i] = htonl(h->src[i]);
		ih->daddr.s6_addr32[i] = htonl(h->dst[i]);
	}
}

/**
 * isim_ip_frame - a frame with room for an L4 header and payload
 * @f: function (IPv4 identification)
 * @h: the Ethernet and IP headers to put in front
 * @proto: IPPROTO_TCP or IPPROTO_UDP
 * @len: bytes of L4 header and payload
 * @l4: set to where those bytes go
 *
 * The Ethernet, VLAN and IP headers are complete; the caller writes the
 * L4 bytes and their checksum (isim_l4_csum()).
 *
 * Return: the frame, or NULL without memory.
 */
struct sk_buff *isim_ip_frame(struct isim_func *f,
			      const struct isim_ilq_hdrs *h, u8 proto, u32 len,
			      void **l4)
{
	u32 room = NET_IP_ALIGN + VLAN_ETH_HLEN + sizeof(struct ipv6hdr) + len;
	u32 size = SKB_DATA_ALIGN(room) +
		   SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct sk_buff *skb;
	void *ih, *data;

	lockdep_assert_held(&f->eng_lock);
	/*
	 * The engine's hot path (a frame a segment, another for its ACK):
	 * in page fragments, as a NIC's receive ring fills, rather than a
	 * slab object for the data besides the skb's.
	 */
	if (size <= PAGE_SIZE) {
		data = page_frag_alloc(&f->ilq.frags, size, GFP_KERNEL);
		if (!data)
			return NULL;
		skb = build_skb(data, size);
		if (!skb) {
			skb_free_frag(data);
			return NULL;
		}
	} else {
		skb = alloc_skb(room, GFP_KERNEL);
		if (!skb)
			return NULL;
	}
	skb_reserve(skb, NET_IP_ALIGN);
	ih = isim_ilq_put_l2(skb, h);
	*l4 = skb_put(skb, len);
	skb_set_transport_header(skb, (u8 *)*l4 - skb->data);
	if (h->ipv4)
		isim_ilq_put_v4(f, ih, h, proto, len);
	else
		isim_ilq_put_v6(ih, h, proto, len);
	return skb;
}

/**
 * isim_l4_csum - the TCP or UDP checksum of the L4 bytes of a frame
 * @skb: the frame, from isim_ip_frame()
 * @proto: IPPROTO_TCP or IPPROTO_UDP
 * @l4: the L4 header, its checksum field zero
 * @len: bytes of L4 header and payload
 *
 * Return: the checksum over the IP pseudo-header and @l4, to be stored.
 */
__sum16 isim_l4_csum(struct sk_buff *skb, u8 proto, const void *l4, u32 len)
{
	const struct ipv6hdr *ip6 = ipv6_hdr(skb);
	const struct iphdr *ih = ip_hdr(skb);
	__wsum sum = csum_partial(l4, len, 0);

	if (ih->version == 4)
		return csum_tcpudp_magic(ih->saddr, ih->daddr, len, proto, sum);
	return csum_ipv6_magic(&ip6->saddr, &ip6->daddr, len, proto, sum);
}

/* the TCP checksum, once the segment is in place */
static void isim_ilq_tcp_csum(struct sk_buff *skb, struct tcphdr *th, u32 len)
{
	th->check = 0;
	th->check = isim_l4_csum(skb, IPPROTO_TCP, th, len);
}

/* the frame of a TCP segment of @len bytes at bus address @addr */
static struct sk_buff *isim_ilq_frame(struct isim_func *f,
				      const struct isim_ilq_hdrs *h,
				      u64 addr, u32 len)
{
	struct sk_buff *skb;
	void *th;

	skb = isim_ip_frame(f, h, IPPROTO_TCP, len, &th);
	if (!skb)
		return NULL;
	if (isim_dma_read(f, addr, th, len)) {
		kfree_skb(skb);
		return ERR_PTR(-EFAULT);
	}
	isim_ilq_tcp_csum(skb, th, len);
	return skb;
}

/**
 * isim_ilq_seg_frame - the frame of a TCP segment the engine built itself
 * @f: function
 * @h: the headers to put in front
 * @th: TCP header, checksum to be filled in
 * @hlen: its length
 * @data: payload
 * @dlen: its length
 *
 * Return: the frame, or NULL without memory.
 */
struct sk_buff *isim_ilq_seg_frame(struct isim_func *f,
				   const struct isim_ilq_hdrs *h,
				   const void *th, u32 hlen,
				   const void *data, u32 dlen)
{
	struct sk_buff *skb;
	void *seg;

	skb = isim_ip_frame(f, h, IPPROTO_TCP, hlen + dlen, &seg);
	if (!skb)
		return NULL;
	memcpy(seg, th, hlen);
	memcpy((u8 *)seg + hlen, data, dlen);
	isim_ilq_tcp_csum(skb, seg, hlen + dlen);
	return skb;
}

/**
 * isim_ilq_emit - a frame the engine built leaves the function
 * @f: function
 * @skb: the frame, consumed: a TCP segment or a UDP datagram (RoCEv2)
 *
 * It goes to the test's tap when one is set; a frame for the function
 * itself is turned around by the switch (isim_wire_engine_loop()); else
 * it goes out of the netdev through the qdisc and the packet taps, as the
 * stack's own frames go.
 *
 * Return: 0, or -EIO when it was dropped (no netdev, refused).
 */
int isim_ilq_emit(struct isim_func *f, struct sk_buff *skb)
{
	const struct iphdr *ih = ip_hdr(skb);
	bool ipv4 = ih->version == 4;
	u8 proto = ipv4 ? ih->protocol : ipv6_hdr(skb)->nexthdr;
	u32 octets = skb_tail_pointer(skb) - skb_network_header(skb);

	if (f->netdev || f->ilq.tx_tap)
		isim_hwc_frame(f, ipv4, proto, false, octets);
	if (f->ilq.tx_tap) {
		f->ilq.tx_tap(f, skb);
		return 0;
	}
	if (!f->netdev) {
		kfree_skb(skb);
		return -EIO;
	}
	if (isim_wire_engine_loop(f, skb) || isim_wire_engine_xmit(f, skb))
		return 0;
	skb->dev = f->netdev;
	return dev_queue_xmit(skb) == NET_XMIT_SUCCESS ? 0 : -EIO;
}

/* the frame of an ILQ WQE leaves, unless the drop knob takes it */
static void isim_ilq_out(struct isim_func *f, struct sk_buff *skb)
{
	if (atomic_dec_if_positive(&f->faults.drop_cm) >= 0) {
		atomic64_inc(&f->ilq.dropped);
		kfree_skb(skb);
		return;
	}
	if (isim_ilq_emit(f, skb))
		atomic64_inc(&f->ilq.dropped);
	else
		atomic64_inc(&f->ilq.tx);
}

/* a frame from the function's own MAC (the CM's), not "from" a peer */
static bool isim_ilq_own_frame(struct isim_func *f, const u8 *smac)
{
	return f->netdev && ether_addr_equal(smac, f->netdev->dev_addr);
}

/*
 * A send through a loopback AH (the IEQ's): the segment is taken as one
 * the function received, by the offloaded connection it names (toe.c).
 * Return: 0 or an enum isim_wc_minor.
 */
static u16 isim_ilq_loopback(struct isim_func *f,
			     const struct isim_ilq_hdrs *h, u64 addr, u32 len)
{
	u8 *seg;

	seg = kmalloc(len, GFP_ATOMIC);
	if (!seg)
		return ISIM_WC_LOC_QP_OP;
	if (isim_dma_read(f, addr, seg, len)) {
		kfree(seg);
		return ISIM_WC_LOC_PROT;
	}
	isim_toe_ieq_in(f, h, seg, len);
	kfree(seg);
	atomic64_inc(&f->ilq.tx);
	return 0;
}

/**
 * isim_ilq_exception - hand a segment of an offloaded connection to the IEQ
 * @f: function
 * @skb: the frame as received (data at the IP header); not consumed
 * @qpn: the IEQ's QP
 *
 * It is placed in the IEQ's next RQ buffer like a steered frame in the
 * ILQ's (isim_ilq_run()).
 *
 * Return: 0, or -ENOMEM, -EINVAL (not a TCP segment), -ENOSPC (queue full).
 */
int isim_ilq_exception(struct isim_func *f, struct sk_buff *skb,
		       u32 qpn)
{
	struct isim_ilq_cb cb = {};
	struct isim_flow fl = {};
	struct sk_buff *c;

	if (skb_queue_len(&f->ilq.rxq) >= ISIM_ILQ_RXQ_MAX)
		return -ENOSPC;
	c = skb_clone(skb, GFP_ATOMIC);
	if (!c)
		return -ENOMEM;
	if (isim_ilq_parse(c, &fl, &cb)) {
		kfree_skb(c);
		return -EINVAL;
	}
	cb.qpn = qpn;
	*isim_ilq_cb(c) = cb;
	skb_queue_tail(&f->ilq.rxq, c);
	isim_engine_kick(f, ISIM_WAKE_RX);
	return 0;
}

/* ---- transmit, gen1: the driver's frame as it is ---- */

/*
 * Where a gen1 frame's IP header starts, and the frame's addressing (the
 * IEQ's loopback sends need it). Return: the L2 length, or -EINVAL for a
 * frame that is not Ethernet (with at most one 802.1Q tag) carrying IPv4
 * or IPv6.
 */
static int isim_ilq_g1_l2(const u8 *fr, u32 len, struct isim_ilq_hdrs *h)
{
	const struct vlan_ethhdr *veh = (const void *)fr;
	const struct ethhdr *eh = (const void *)fr;
	__be16 proto = eh->h_proto;
	int l2 = ETH_HLEN;

	if (len < VLAN_ETH_HLEN)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	ether_addr_copy(h->dmac, eh->h_dest);
	ether_addr_copy(h->smac, eh->h_source);
	if (proto == htons(ETH_P_8021Q)) {
		h->vlan = true;
		h->tci = ntohs(veh->h_vlan_TCI);
		proto = veh->h_vlan_encapsulated_proto;
		l2 = VLAN_ETH_HLEN;
	}
	h->ipv4 = proto == htons(ETH_P_IP);
	if (!h->ipv4 && proto != htons(ETH_P_IPV6))
		return -EINVAL;
	if (len < l2 + (h->ipv4 ? sizeof(struct iphdr) :
				   sizeof(struct ipv6hdr)) ||
	    fr[l2] >> 4 != (h->ipv4 ? 4 : 6))
		return -EINVAL;
	return l2;
}

/*
 * The TCP segment of a gen1 frame whose IP header is at @ip, for the
 * IEQ's loopback: addresses into @h, the segment's offset and length.
 * Return: 0 or -EINVAL (not TCP, options-free IPv4 or plain IPv6).
 */
static int isim_ilq_g1_seg(const u8 *ip, u32 room, struct isim_ilq_hdrs *h,
			   u32 *off, u32 *len)
{
	const struct ipv6hdr *i6 = (const void *)ip;
	const struct iphdr *i4 = (const void *)ip;
	u32 tot;
	int i;

	if (h->ipv4) {
		if (i4->ihl != 5 || i4->protocol != IPPROTO_TCP)
			return -EINVAL;
		tot = ntohs(i4->tot_len);
		*off = sizeof(*i4);
		h->src[0] = ntohl(i4->saddr);
		h->dst[0] = ntohl(i4->daddr);
	} else {
		if (i6->nexthdr != IPPROTO_TCP)
			return -EINVAL;
		tot = sizeof(*i6) + ntohs(i6->payload_len);
		*off = sizeof(*i6);
		for (i = 0; i < 4; i++) {
			h->src[i] = ntohl(i6->saddr.s6_addr32[i]);
			h->dst[i] = ntohl(i6->daddr.s6_addr32[i]);
		}
	}
	if (tot > room || tot < *off)
		return -EINVAL;
	*len = tot - *off;
	return 0;
}

/*
 * A gen1 send with the loopback bit (the IEQ's): the frame's TCP segment
 * is taken as one the function received, as a gen2 loopback AH's is.
 */
static u16 isim_ilq_g1_loopback(struct isim_func *f, struct sk_buff *skb,
				int l2, struct isim_ilq_hdrs *h)
{
	u32 off, len;

	if (isim_ilq_g1_seg(skb->data + l2, skb->len - l2, h, &off, &len))
		return ISIM_WC_LOC_QP_OP;
	isim_toe_ieq_in(f, h, skb->data + l2 + off, len);
	atomic64_inc(&f->ilq.tx);
	return 0;
}

/*
 * Transmit the gen1 SQ WQE @w: the buffer is a complete Ethernet frame,
 * headers and checksums as the driver built them, sent as it is. The
 * lengths word 2 may give must fit in it. Return: 0 or an isim_wc_minor.
 */
static u16 isim_ilq_xmit_g1(struct isim_func *f, const u64 *w)
{
	u32 len = FIELD_GET(ISIM_FRAG_G1_LEN, w[1]);
	struct isim_ilq_hdrs h;
	struct sk_buff *skb;
	u16 minor = 0;
	bool ieq;
	int l2;

	if (FIELD_GET(ISIM_WQH_OP, w[ISIM_WQE_HDR]) != ISIM_WQOP_SEND ||
	    FIELD_GET(ISIM_ILQ_G1_W2_MACLEN, w[2]) * 2 +
	    (FIELD_GET(ISIM_ILQ_G1_W2_IPLEN, w[2]) +
	     FIELD_GET(ISIM_ILQ_G1_W2_L4LEN, w[2])) * 4 > len)
		return ISIM_WC_LOC_QP_OP;
	if (len > ISIM_ILQ_SEG_MAX + VLAN_ETH_HLEN + sizeof(struct ipv6hdr))
		return ISIM_WC_LOC_LEN;
	skb = alloc_skb(NET_IP_ALIGN + len, GFP_KERNEL);
	if (!skb)
		return ISIM_WC_LOC_QP_OP;
	skb_reserve(skb, NET_IP_ALIGN);
	if (isim_dma_read(f, w[0], skb_put(skb, len), len)) {
		kfree_skb(skb);
		return ISIM_WC_LOC_PROT;
	}
	l2 = isim_ilq_g1_l2(skb->data, len, &h);
	/* the loopback bit: as for a gen2 loopback AH, by the source MAC */
	ieq = w[ISIM_WQE_HDR] & ISIM_ILQ_G1_HDR_LOOPBACK && l2 >= 0 &&
	      !isim_ilq_own_frame(f, h.smac);
	if (l2 < 0)
		minor = ISIM_WC_LOC_QP_OP;
	else if (ieq)
		minor = isim_ilq_g1_loopback(f, skb, l2, &h);
	if (minor || ieq) {
		kfree_skb(skb);
		return minor;
	}
	skb_reset_mac_header(skb);
	skb->protocol = eth_hdr(skb)->h_proto;
	skb_set_network_header(skb, l2);
	isim_ilq_out(f, skb);
	return 0;
}

/* Transmit the SQ WQE @w. Return: 0 or an enum isim_wc_minor. */
static u16 isim_ilq_xmit(struct isim_func *f, const u64 *w)
{
	u64 hdr = w[ISIM_WQE_HDR];
	u32 len = FIELD_GET(ISIM_FRAG_LEN, w[1]);
	u32 l4 = FIELD_GET(ISIM_ILQ_SQ_HDR_L4LEN, hdr);
	struct isim_ilq_hdrs h;
	struct sk_buff *skb;

	if (f->gen == ISIM_GEN1)
		return isim_ilq_xmit_g1(f, w);
	if (FIELD_GET(ISIM_WQH_OP, hdr) != ISIM_WQOP_SEND ||
	    l4 < ISIM_ILQ_L4LEN_MIN || l4 * 4 > len)
		return ISIM_WC_LOC_QP_OP;
	if (len > ISIM_ILQ_SEG_MAX)
		return ISIM_WC_LOC_LEN;
	if (isim_ah_hdrs(f, FIELD_GET(ISIM_ILQ_SQ_HDR_AH, hdr), &h))
		return ISIM_WC_LOC_QP_OP;
	/*
	 * The loopback bit on an AH from the function's own address (a CM
	 * connection with both ends here): the frame goes out and is turned
	 * around like any frame to the function. On one "from" the peer (the
	 * IEQ's), the segment goes to its offloaded connection.
	 */
	if (h.loopback && !isim_ilq_own_frame(f, h.smac))
		return isim_ilq_loopback(f, &h, w[0], len);
	skb = isim_ilq_frame(f, &h, w[0], len);
	if (IS_ERR_OR_NULL(skb))
		return skb ? ISIM_WC_LOC_PROT : ISIM_WC_LOC_QP_OP;
	isim_ilq_out(f, skb);
	return 0;
}

static void isim_ilq_tx_cqe(struct isim_func *f, const struct isim_qp *qp,
			    const u64 *w, u32 idx, u16 minor)
{
	u64 cqe[4] = {};

	cqe[0] = FIELD_PREP(ISIM_CQE_W0_BYTES, isim_frag_len(f->gen, w[1]));
	cqe[1] = qp->cq_ctx;
	cqe[2] = FIELD_PREP(ISIM_CQE_W2_QP, qp->id);
	cqe[3] = FIELD_PREP(ISIM_CQE_W3_WQEIDX, idx) | ISIM_CQE_W3_SQ |
		 FIELD_PREP(ISIM_CQE_W3_OP,
			    FIELD_GET(ISIM_WQH_OP, w[ISIM_WQE_HDR]));
	if (minor)
		cqe[3] |= ISIM_CQE_W3_ERROR |
			  FIELD_PREP(ISIM_CQE_W3_MAJOR, ISIM_CQE_MAJ_FLUSHED) |
			  FIELD_PREP(ISIM_CQE_W3_MINOR, minor);
	if (isim_cq_post(f, qp->sq_cq, cqe))
		dev_dbg_ratelimited(&f->dev, "ILQ %u: CQE to CQ %u lost\n",
				    qp->id, qp->sq_cq);
}

/*
 * Tell the driver how far the SQ has been run (word 0 of the QP's shadow
 * area), before looking for the next WQE: a driver that posts one after
 * that look reads this tail after writing it, finds the engine caught up
 * and rings (upstream's irdma rings only then).
 */
static void isim_ilq_sq_tail(struct isim_func *f, const struct isim_qp *qp)
{
	__le64 w = cpu_to_le64(FIELD_PREP(ISIM_QPSA_SQ_TAIL, qp->sq.tail));

	if (!qp->shadow_pa || isim_dma_write(f, qp->shadow_pa, &w, sizeof(w)))
		return;
	smp_mb(); /* the tail is out before the next valid bit is read */
}

static unsigned int isim_ilq_tx_run(struct isim_func *f, struct isim_qp *qp,
				    unsigned int budget)
{
	unsigned int n = 0;
	u64 w[4];
	u16 minor;

	if (!isim_ilq_qp_ready(qp) || qp->sq.flushing ||
	    READ_ONCE(f->faults.stall_raw_tx))
		return 0;
	/* a raw queue is scheduled as any QP is (see isim_exec_held()) */
	if (isim_sched_tc(f, qp->qs_handle) < 0) {
		if (!isim_ilq_peek(f, &qp->sq, w))
			f->sched.unsched++;
		return 0;
	}
	while (n < budget && !isim_ilq_peek(f, &qp->sq, w)) {
		minor = isim_ilq_xmit(f, w);
		if (minor)
			atomic64_inc(&f->ilq.tx_err);
		if (minor || w[ISIM_WQE_HDR] & ISIM_WQH_SIGNALED)
			isim_ilq_tx_cqe(f, qp, w, qp->sq.tail, minor);
		qp->executed++;
		isim_ilq_advance(&qp->sq, 1);
		isim_ilq_sq_tail(f, qp);
		n++;
	}
	return n;
}

/**
 * isim_ilq_tx_drain - send what the raw queues' SQs hold, before a command
 * @f: function
 *
 * A DESTROY_ADDR_HANDLE comes through the CQP, apart from the SQs. The
 * adapter has fetched and sent a raw WQE the driver rang before the
 * command long before the command ends, so a driver may destroy a CM
 * connection's AH right after posting the connection's last segment
 * (upstream's irdma does, with its RST). The engine, which runs the CQP
 * first in a pass, sends what the SQs hold before the AH goes.
 */
void isim_ilq_tx_drain(struct isim_func *f)
{
	struct isim_qp *qp;

	lockdep_assert_held(&f->eng_lock);
	list_for_each_entry(qp, &f->qp_list, node)
		if (qp->type == ISIM_QP_TYPE_UDA)
			isim_ilq_tx_run(f, qp, qp->sq.quanta);
}

/**
 * isim_ilq_run - one pass of the engine over the raw queues
 * @f: function
 * @budget: most frames to place and WQEs to transmit in this pass
 *
 * Steered frames are placed first, then, on a pass that looks at the QPs'
 * SQs (after a doorbell, see isim_exec_run()), the SQ of every UDA QP in
 * RTS is run.
 *
 * Return: true if the budget ran out (more work may be waiting).
 */
bool isim_ilq_run(struct isim_func *f, unsigned int budget)
{
	struct sk_buff *skb;
	struct isim_qp *qp;
	unsigned int n = 0;

	lockdep_assert_held(&f->eng_lock);
	/* a pass whose time went on CQP commands takes a few all the same */
	while (n < budget && (n < ISIM_ILQ_RX_MIN || !isim_pass_over(f)) &&
	       (skb = skb_dequeue(&f->ilq.rxq))) {
		isim_ilq_place(f, skb);
		n++;
	}
	list_for_each_entry(qp, &f->qp_list, node) {
		if (n >= budget || !(f->scanning || f->wake.raw_rung))
			break;
		if (qp->type == ISIM_QP_TYPE_UDA)
			n += isim_ilq_tx_run(f, qp, budget - n);
	}
	/*
	 * The CM answers a frame with CQP commands, which kick the QPs they
	 * name; only raw-queue SQs left with work need another scan.
	 */
	if (n >= budget)
		f->rescan = true;
	return n >= budget || !skb_queue_empty(&f->ilq.rxq);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ilq_test.c"
#endif
