// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: RoCEv2 datagrams of UD QPs and of the GSI QP (QP 1), the way
 * the kernel's MAD layer (ib_mad, ib_cm, rdma_cm) talks over RoCEv2.
 *
 * Transmit: a SEND (solicited too, with immediate data, inline or from
 * fragments) on the SQ of a UD QP in RTS goes out as one real frame:
 * Ethernet (802.1Q if the AH asks), IPv4 or IPv6 as the AH describes it,
 * UDP to port 4791, BTH (UD SEND_ONLY, with immediate or not), DETH, the
 * immediate data, the payload, the pad and the ICRC. It leaves the way
 * the ILQ's frames do (isim_ilq_emit()): a frame for the function's own
 * MAC loops back into the function, any other goes to the wired peer.
 * A WQE that cannot be sent (opcode, AH, payload) completes with an error
 * and the QP keeps running: these are local errors of one work request,
 * which on a UD QP the IB spec lets the QP survive.
 *
 * Receive: on a RoCEv2 function, every UDP frame to port 4791 addressed
 * to the function is taken from the stack in softirq context and queued;
 * the engine checks it (lengths, ICRC, transport version, opcode, QP,
 * Q_Key) and places it in the QP's next RQ WQE after 40 bytes standing
 * for the GRH, as the MAD layer expects. What fails a check is dropped
 * and counted, as is a datagram that finds no RQ WQE (UD has no RNR).
 *
 * Multicast: CREATE/MODIFY/DESTROY_MCG keep groups of member UD QPs by
 * the group's IP address. A datagram to a multicast address for the
 * multicast QPN reaches every member whose Q_Key it carries, each taking
 * an RQ WQE of its own; one the function sends to a group also loops
 * back into it (the adapter's switch delivers to local members) besides
 * going to the wire.
 *
 * Not modelled: RC, UC and any other opcode between two functions (RC
 * runs in loopback only, exec.c), VLANs of groups, P_Key checks, IPv4
 * options and IPv6 extension headers (such frames are left to the stack).
 */
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/seq_file.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <asm/unaligned.h>

#include "isim.h"

/* datagrams and RC packets waiting for the engine */
#define ISIM_UD_RXQ_MAX		1024
#define ISIM_UD_RX_MIN		16	/* datagrams a pass takes in any case */
#define ISIM_UD_HDRS		(sizeof(struct udphdr) + ISIM_BTH_LEN + \
				 ISIM_DETH_LEN)
#define ISIM_UD_MIN		(ISIM_UD_HDRS + ISIM_ICRC_LEN)
/* a WR's Q_Key with the top bit set means the QP's own (IB spec) */
#define ISIM_UD_QKEY_USE_QP	BIT(31)

/**
 * struct isim_ud_cb - skb->cb of a datagram taken for the engine
 * @tot: bytes from the IP header to the end of the UDP datagram
 * @tci: VLAN tag, with @vlan
 * @smac: source MAC of the frame
 * @l3_len: bytes of the IP header
 * @vlan: the frame was tagged
 * @ipv4: IPv4 (else IPv6)
 */
struct isim_ud_cb {
	u32 tot;
	u16 tci;
	u8 smac[ETH_ALEN];
	u8 l3_len;
	bool vlan;
	bool ipv4;
};

/**
 * struct isim_ud_msg - the transport headers of one datagram
 * @dqp: destination QP (BTH)
 * @sqp: source QP (DETH)
 * @qkey: Q_Key (DETH)
 * @psn: packet sequence number
 * @imm: immediate data, with @imm_valid
 * @payload: first byte of the payload
 * @len: bytes of payload
 * @se: solicited event
 * @imm_valid: a SEND_ONLY_WITH_IMMEDIATE
 */
struct isim_ud_msg {
	u32 dqp;
	u32 sqp;
	u32 qkey;
	u32 psn;
	u32 imm;
	u8 *payload;
	u32 len;
	bool se;
	bool imm_valid;
};

static struct isim_ud_cb *isim_ud_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct isim_ud_cb) > sizeof(skb->cb));
	return (struct isim_ud_cb *)skb->cb;
}

/**
 * isim_ud_init - set up the UD state of a new function
 * @f: function
 */
void isim_ud_init(struct isim_func *f)
{
	skb_queue_head_init(&f->ud.rxq);
}

/**
 * isim_ud_reset - drop datagrams the engine has not placed
 * @f: function
 */
void isim_ud_reset(struct isim_func *f)
{
	skb_queue_purge(&f->ud.rxq);
}

/* ---- the ICRC ---- */

/**
 * isim_icrc - the ICRC of a RoCEv2 packet
 * @l3: its IP header
 * @l3_len: bytes of the IP header
 * @len: bytes from @l3 to the ICRC
 *
 * RoCEv2 covers the fields routers may change as all ones: an 8-byte LRH
 * that is not there, the IPv4 TOS, TTL and header checksum (IPv6: traffic
 * class, flow label, hop limit), the UDP checksum, and the BTH's reserved
 * byte after the P_Key.
 *
 * Return: the ICRC, as sent least significant byte first.
 */
u32 isim_icrc(const u8 *l3, u8 l3_len, u32 len)
{
	static const u8 lrh[8] = { 0xff, 0xff, 0xff, 0xff,
				   0xff, 0xff, 0xff, 0xff };
	u8 hdr[sizeof(struct ipv6hdr) + sizeof(struct udphdr) + ISIM_BTH_LEN];
	u32 n = l3_len + sizeof(struct udphdr) + ISIM_BTH_LEN;
	struct udphdr *uh = (struct udphdr *)(hdr + l3_len);
	struct ipv6hdr *ip6 = (struct ipv6hdr *)hdr;
	struct iphdr *ih = (struct iphdr *)hdr;
	u32 crc;

	memcpy(hdr, l3, n);
	if (l3_len == sizeof(*ih)) {
		ih->tos = 0xff;
		ih->ttl = 0xff;
		ih->check = CSUM_MANGLED_0;
	} else {
		ip6->priority = 0xf;
		memset(ip6->flow_lbl, 0xff, sizeof(ip6->flow_lbl));
		ip6->hop_limit = 0xff;
	}
	uh->check = CSUM_MANGLED_0;
	hdr[n - ISIM_BTH_LEN + 4] = 0xff;
	crc = crc32_le(~0U, lrh, sizeof(lrh));
	crc = crc32_le(crc, hdr, n);
	return ~crc32_le(crc, l3 + n, len - n);
}

/* ---- transmit ---- */

static void isim_ud_put_bth(u8 *p, const struct isim_ud_msg *m, u8 pad)
{
	p[0] = m->imm_valid ? ISIM_BTH_UD_SEND_ONLY_IMM : ISIM_BTH_UD_SEND_ONLY;
	p[1] = (m->se ? ISIM_BTH_B1_SE : 0) | FIELD_PREP(ISIM_BTH_B1_PAD, pad);
	put_unaligned_be16(ISIM_BTH_PKEY_DEFAULT, p + 2);
	/* byte 4 reserved, byte 8 AckReq clear */
	put_unaligned_be32(m->dqp & ISIM_BTH_QPN, p + 4);
	put_unaligned_be32(m->psn & ISIM_BTH_PSN, p + 8);
}

/* the frame of @m, its payload in place; Return: NULL without memory */
static struct sk_buff *isim_ud_frame(struct isim_func *f,
				     const struct isim_ilq_hdrs *h,
				     const struct isim_ud_msg *m)
{
	u8 pad = -m->len & 3, ext = m->imm_valid ? ISIM_IMMDT_LEN : 0;
	u32 ulen = ISIM_UD_MIN + ext + m->len + pad;
	struct sk_buff *skb;
	struct udphdr *uh;
	u8 *p;

	skb = isim_ip_frame(f, h, IPPROTO_UDP, ulen, (void **)&uh);
	if (!skb)
		return NULL;
	uh->source = htons(ISIM_ROCE_SPORT_BASE |
			   (m->sqp & ISIM_ROCE_SPORT_QP));
	uh->dest = htons(ISIM_ROCE_UDP_PORT);
	uh->len = htons(ulen);
	uh->check = 0;
	p = (u8 *)(uh + 1);
	isim_ud_put_bth(p, m, pad);
	p += ISIM_BTH_LEN;
	put_unaligned_be32(m->qkey, p);
	put_unaligned_be32(m->sqp & ISIM_BTH_QPN, p + 4);
	p += ISIM_DETH_LEN;
	if (ext)
		put_unaligned_be32(m->imm, p);
	memcpy(p + ext, m->payload, m->len);
	memset(p + ext + m->len, 0, pad);
	p += ext + m->len + pad;
	put_unaligned_le32(isim_icrc(skb_network_header(skb),
				     skb_network_header_len(skb),
				     p - skb_network_header(skb)), p);
	/* IPv6 needs the UDP checksum; IPv4 RoCEv2 leaves it 0 */
	if (!h->ipv4) {
		uh->check = isim_l4_csum(skb, IPPROTO_UDP, uh, ulen);
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
	}
	return skb;
}

/* the transport headers of the SEND x->req of @qp, payload in x->bounce */
static void isim_ud_msg_tx(struct isim_ud_msg *m, struct isim_xfer *x,
			   struct isim_qp *qp, u64 hdr)
{
	u64 w2 = x->req.w[2];

	m->dqp = FIELD_GET(ISIM_WQU_W2_DEST_QP, w2);
	m->sqp = qp->id;
	m->qkey = FIELD_GET(ISIM_WQU_W2_QKEY, w2);
	if (m->qkey & ISIM_UD_QKEY_USE_QP)
		m->qkey = qp->qkey;
	m->psn = qp->ud_psn;
	m->imm_valid = hdr & ISIM_WQH_IMM;
	m->imm = lower_32_bits(x->req.w[0]);
	m->se = FIELD_GET(ISIM_WQH_OP, hdr) == ISIM_WQOP_SEND_SOL;
	m->payload = x->bounce;
	m->len = x->len;
}

/*
 * A copy of a datagram the function sends to a group, for its own members:
 * queued as if received, data at the IP header (a tagged frame's copy is
 * not taken: groups have no VLAN here)
 */
static void isim_ud_mcast_loop(struct isim_func *f, struct sk_buff *skb,
			       const struct isim_ilq_hdrs *h)
{
	struct sk_buff *c;

	if (h->vlan)
		return;
	c = skb_clone(skb, GFP_KERNEL);
	if (!c)
		return;
	skb_reset_mac_header(c);
	c->protocol = h->ipv4 ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	c->pkt_type = PACKET_MULTICAST;
	skb_pull(c, skb_network_offset(c));
	skb_reset_network_header(c);
	if (!isim_ud_steer(f, c))
		kfree_skb(c);
}

/* Send the SQ WQE x->req. Return: 0 or an enum isim_wc_minor. */
static u16 isim_ud_send(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	u8 op = FIELD_GET(ISIM_WQH_OP, hdr);
	struct isim_ud_msg m = {};
	struct isim_ilq_hdrs h;
	struct sk_buff *skb;
	const u8 *inl;
	int ret;

	BUILD_BUG_ON(ISIM_UD_PAYLOAD_MAX > PAGE_SIZE);
	if (op != ISIM_WQOP_SEND && op != ISIM_WQOP_SEND_SOL)
		return ISIM_WC_LOC_QP_OP;
	ret = isim_exec_payload(x, qp, hdr, &inl);
	if (ret)
		return ret;
	if (x->len > ISIM_UD_PAYLOAD_MAX)
		return ISIM_WC_LOC_LEN;
	if (isim_ah_hdrs(x->f, FIELD_GET(ISIM_WQH_AH, hdr), &h))
		return ISIM_WC_LOC_QP_OP;
	if (inl)
		memcpy(x->bounce, inl, x->len);
	else if (isim_sgl_io(x->f, &x->local, 0, x->bounce, x->len, false))
		return ISIM_WC_LOC_PROT;
	isim_ud_msg_tx(&m, x, qp, hdr);
	skb = isim_ud_frame(x->f, &h, &m);
	if (!skb)
		return ISIM_WC_LOC_QP_OP;
	qp->ud_psn = (qp->ud_psn + 1) & ISIM_BTH_PSN;
	isim_hwc_add(x->f, ISIM_GS_RDMA_TX_SENDS, 1);
	if (is_multicast_ether_addr(h.dmac))
		isim_ud_mcast_loop(x->f, skb, &h);
	/* the wire may lose a datagram: the WQE is done all the same */
	if (isim_ilq_emit(x->f, skb))
		atomic64_inc(&x->f->ud.tx_lost);
	else
		atomic64_inc(&x->f->ud.tx);
	return 0;
}

/**
 * isim_ud_sq_wqe - execute one SQ WQE of a UD QP in RTS
 * @x: scratch state of the pass, x->req the WQE
 * @qp: the QP
 * @hdr: the WQE's header
 *
 * A SEND goes out as a datagram; a NOP does nothing. A WQE that fails
 * completes with an error CQE (even unsignalled) and the QP stays in RTS.
 *
 * Return: 0, the WQE is done.
 */
int isim_ud_sq_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	struct isim_cpl c = {
		.sq = true,
		.idx = x->req.idx,
		.op = FIELD_GET(ISIM_WQH_OP, hdr),
	};

	x->len = 0;
	if (c.op != ISIM_WQOP_NOP)
		c.minor = isim_ud_send(x, qp, hdr);
	qp->executed++;
	c.bytes = x->len;
	if (c.minor)
		atomic64_inc(&x->f->ud.tx_err);
	if (c.minor || hdr & ISIM_WQH_SIGNALED)
		isim_exec_complete(x->f, qp, &c);
	return 0;
}

/* ---- receive: steering, in softirq context ---- */

/* IPv4 without options, not a fragment; Return: the protocol, or 0 */
static u8 isim_ud_parse_v4(struct sk_buff *skb, struct isim_ud_cb *cb)
{
	const struct iphdr *ih;
	struct iphdr buf;

	ih = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	if (!ih || ih->version != 4 || ih->ihl != 5 || ip_is_fragment(ih))
		return 0;
	cb->tot = ntohs(ih->tot_len);
	cb->l3_len = sizeof(*ih);
	cb->ipv4 = true;
	return ih->protocol;
}

static u8 isim_ud_parse_v6(struct sk_buff *skb, struct isim_ud_cb *cb)
{
	const struct ipv6hdr *ih;
	struct ipv6hdr buf;

	ih = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	if (!ih || ih->version != 6)
		return 0;
	cb->tot = sizeof(*ih) + ntohs(ih->payload_len);
	cb->l3_len = sizeof(*ih);
	return ih->nexthdr;
}

/* a UDP datagram to the RoCEv2 port, data at its IP header */
static int isim_ud_parse(struct sk_buff *skb, struct isim_ud_cb *cb)
{
	const struct udphdr *uh;
	struct udphdr buf;
	u8 proto = 0;

	if (skb->protocol == htons(ETH_P_IP))
		proto = isim_ud_parse_v4(skb, cb);
	else if (skb->protocol == htons(ETH_P_IPV6))
		proto = isim_ud_parse_v6(skb, cb);
	if (proto != IPPROTO_UDP || cb->tot > skb->len ||
	    cb->tot < cb->l3_len + sizeof(buf))
		return -EINVAL;
	uh = skb_header_pointer(skb, cb->l3_len, sizeof(buf), &buf);
	if (!uh || uh->dest != htons(ISIM_ROCE_UDP_PORT))
		return -EINVAL;
	cb->vlan = skb_vlan_tag_present(skb);
	cb->tci = cb->vlan ? skb_vlan_tag_get(skb) : 0;
	if (skb_mac_header_was_set(skb))
		ether_addr_copy(cb->smac, eth_hdr(skb)->h_source);
	return 0;
}

/**
 * isim_ud_steer - take a received RoCEv2 datagram for the engine
 * @f: function whose netdev received it
 * @skb: the frame, data at the IP header, MAC header set, VLAN tag (if
 *	any) already taken out into the skb's tag
 *
 * On a RoCEv2 function, a UDP datagram to port 4791 addressed to the
 * function is the engine's: it is queued for the next pass, or dropped
 * and counted when the queue is full. Callable from softirq context.
 *
 * Return: true if the frame was consumed, false to leave it to the stack.
 */
bool isim_ud_steer(struct isim_func *f, struct sk_buff *skb)
{
	struct isim_ud_cb cb = {};

	/* a function without its CQP (no driver) leaves them to the stack */
	if (f->protocol != ISIM_AUX_ROCEV2 || !READ_ONCE(f->cqp.live) ||
	    (skb->pkt_type != PACKET_HOST &&
	     skb->pkt_type != PACKET_MULTICAST) ||
	    isim_ud_parse(skb, &cb))
		return false;
	isim_hwc_frame(f, cb.ipv4, IPPROTO_UDP, true, cb.tot);
	atomic64_inc(&f->ud.steered);
	if (skb_queue_len(&f->ud.rxq) >= ISIM_UD_RXQ_MAX) {
		atomic64_inc(&f->ud.drop_full);
		kfree_skb(skb);
		return true;
	}
	*isim_ud_cb(skb) = cb;
	skb_queue_tail(&f->ud.rxq, skb);
	isim_engine_kick(f, ISIM_WAKE_RX);
	return true;
}

/* ---- receive: checks and placement, in the engine ---- */

/* the BTH and DETH of a linear datagram whose ICRC is good */
static atomic64_t *isim_ud_bth(struct isim_func *f, u8 *bth, u32 ulen,
			       struct isim_ud_msg *m)
{
	u8 *p = bth + ISIM_BTH_LEN;
	u32 hdrs;

	if (FIELD_GET(ISIM_BTH_B1_TVER, bth[1]) ||
	    (bth[0] != ISIM_BTH_UD_SEND_ONLY &&
	     bth[0] != ISIM_BTH_UD_SEND_ONLY_IMM))
		return &f->ud.drop_opcode;
	m->imm_valid = bth[0] == ISIM_BTH_UD_SEND_ONLY_IMM;
	m->se = bth[1] & ISIM_BTH_B1_SE;
	m->dqp = get_unaligned_be32(bth + 4) & ISIM_BTH_QPN;
	m->psn = get_unaligned_be32(bth + 8) & ISIM_BTH_PSN;
	m->qkey = get_unaligned_be32(p);
	m->sqp = get_unaligned_be32(p + 4) & ISIM_BTH_QPN;
	p += ISIM_DETH_LEN;
	hdrs = ISIM_UD_MIN + FIELD_GET(ISIM_BTH_B1_PAD, bth[1]) +
	       (m->imm_valid ? ISIM_IMMDT_LEN : 0);
	if (ulen < hdrs)
		return &f->ud.drop_malformed;
	if (m->imm_valid) {
		m->imm = get_unaligned_be32(p);
		p += ISIM_IMMDT_LEN;
	}
	m->payload = p;
	m->len = ulen - hdrs;
	return NULL;
}

/* Decode a queued datagram. Return: NULL, or the drop counter it takes */
static atomic64_t *isim_ud_decode(struct isim_func *f, struct sk_buff *skb,
				  struct isim_ud_msg *m)
{
	const struct isim_ud_cb *cb = isim_ud_cb(skb);
	const struct udphdr *uh;
	u32 ulen, icrc;

	if (skb_linearize(skb))
		return &f->ud.drop_malformed;
	uh = (const struct udphdr *)(skb->data + cb->l3_len);
	ulen = ntohs(uh->len);
	if (ulen != cb->tot - cb->l3_len || ulen < ISIM_UD_MIN)
		return &f->ud.drop_malformed;
	icrc = get_unaligned_le32(skb->data + cb->tot - ISIM_ICRC_LEN);
	if (icrc != isim_icrc(skb->data, cb->l3_len,
			      cb->tot - ISIM_ICRC_LEN))
		return &f->ud.drop_icrc;
	return isim_ud_bth(f, skb->data + cb->l3_len + sizeof(*uh), ulen, m);
}

/* the QP @m is for; Return: NULL, or the drop counter it takes */
static atomic64_t *isim_ud_target(struct isim_func *f,
				  const struct isim_ud_msg *m,
				  struct isim_qp **qpp)
{
	struct isim_qp *qp = xa_load(&f->qps, m->dqp);

	if (!qp || qp->type != ISIM_QP_TYPE_ROCE_UD || qp->suspended ||
	    (qp->state != ISIM_QPS_RTR && qp->state != ISIM_QPS_RTS) ||
	    qp->rq.flushing)
		return &f->ud.drop_qp;
	if (m->qkey != qp->qkey)
		return &f->ud.drop_qkey;
	*qpp = qp;
	return NULL;
}

/* the GRH area and the payload into x->rsgl; Return: 0 or a minor */
static u16 isim_ud_write(struct isim_xfer *x, struct sk_buff *skb,
			 const struct isim_ud_msg *m)
{
	const struct isim_ud_cb *cb = isim_ud_cb(skb);
	u8 grh[ISIM_UD_GRH_LEN] = {};

	if (!isim_sgl_allowed(x->f, &x->rsgl))
		return ISIM_WC_LOC_PROT;
	if (ISIM_UD_GRH_LEN + m->len > x->rsgl.total)
		return ISIM_WC_LOC_LEN;
	/* IPv4: 20 zero bytes, then the IPv4 header */
	memcpy(grh + ISIM_UD_GRH_LEN - cb->l3_len, skb->data, cb->l3_len);
	if (isim_sgl_io(x->f, &x->rsgl, 0, grh, sizeof(grh), true) ||
	    isim_sgl_io(x->f, &x->rsgl, sizeof(grh), m->payload, m->len,
			true))
		return ISIM_WC_LOC_PROT;
	return 0;
}

/* what the RQ CQE of @m reports */
static void isim_ud_rx_cpl(struct isim_cpl *c, struct sk_buff *skb,
			   const struct isim_ud_msg *m, u32 idx)
{
	const struct isim_ud_cb *cb = isim_ud_cb(skb);

	c->idx = idx;
	c->bytes = ISIM_UD_GRH_LEN + m->len;
	c->op = m->imm_valid ? ISIM_BTH_SEND_ONLY_IMM : ISIM_BTH_SEND_ONLY;
	c->solicited = m->se;
	c->imm_valid = m->imm_valid;
	c->imm = m->imm;
	c->ud = true;
	c->src_qp = m->sqp;
	c->smac = ether_addr_to_u64(cb->smac);
	c->vlan = cb->vlan;
	c->tci = cb->tci;
	c->ipv4 = cb->ipv4;
}

/* into @qp's next RQ WQE; Return: NULL, or the drop counter it takes */
static atomic64_t *isim_ud_place(struct isim_xfer **xp, struct isim_func *f,
				 struct isim_qp *qp, struct sk_buff *skb,
				 const struct isim_ud_msg *m)
{
	struct isim_xfer *x = isim_xfer_get(xp, f);
	struct isim_cpl c = {};

	/* no memory for the pass's scratch state is as good as no WQE */
	if (!x || isim_exec_take_rq(x, qp))
		return &f->ud.drop_no_rqe;
	isim_ud_rx_cpl(&c, skb, m, x->resp.idx);
	c.minor = isim_ud_write(x, skb, m);
	if (c.minor) {
		atomic64_inc(&f->ud.rx_err);
	} else {
		atomic64_inc(&f->ud.rx);
		isim_hwc_add(f, ISIM_GS_RDMA_RX_SENDS, 1);
	}
	isim_exec_complete(f, qp, &c);
	return NULL;
}

/*
 * The group whose address the decoded datagram is for, read where
 * isim_ud_decode() reads the headers: at skb->data, whichever path (the
 * netdev or the engine's own loop) queued it
 */
static struct isim_mcg *isim_ud_mcg(struct isim_func *f, struct sk_buff *skb)
{
	const struct ipv6hdr *ih6 = (const struct ipv6hdr *)skb->data;
	const struct iphdr *ih = (const struct iphdr *)skb->data;
	const struct isim_ud_cb *cb = isim_ud_cb(skb);
	struct isim_mcg *mcg;
	unsigned long i;
	u32 dst[4] = {};
	int k;

	if (cb->ipv4) {
		dst[0] = ntohl(ih->daddr);
	} else {
		for (k = 0; k < 4; k++)
			dst[k] = ntohl(ih6->daddr.s6_addr32[k]);
	}
	xa_for_each(&f->mcgs, i, mcg)
		if (mcg->ipv4 == cb->ipv4 && !memcmp(mcg->addr, dst, sizeof(dst)))
			return mcg;
	return NULL;
}

/*
 * Every member of the group the datagram is for gets it, in an RQ WQE of
 * its own; each refusal is counted as for a datagram to that QP alone.
 * Return: true if a member took it.
 */
static bool isim_ud_mcast_rx(struct isim_xfer **xp, struct isim_func *f,
			     struct sk_buff *skb, struct isim_ud_msg *m)
{
	struct isim_mcg *mcg = isim_ud_mcg(f, skb);
	struct isim_qp *qp;
	atomic64_t *drop;
	bool taken = false;
	int i;

	if (!mcg) {
		atomic64_inc(&f->ud.drop_qp);
		return false;
	}
	for (i = 0; i < mcg->n; i++) {
		m->dqp = mcg->qpn[i];
		qp = NULL;
		drop = isim_ud_target(f, m, &qp) ?:
		       isim_ud_place(xp, f, qp, skb, m);
		if (drop) {
			atomic64_inc(drop);
		} else {
			mcg->rx++;
			taken = true;
		}
	}
	return taken;
}

/* check and place one queued datagram; consumes @skb */
static void isim_ud_rx(struct isim_xfer **xp, struct isim_func *f,
		       struct sk_buff *skb)
{
	const struct isim_ud_cb *cb = isim_ud_cb(skb);
	struct isim_ud_msg m = {};
	struct isim_qp *qp = NULL;
	atomic64_t *drop;

	/* the RC transport's packets and CNPs are roce.c's */
	if (isim_roce_rx(xp, f, skb, cb->l3_len, cb->tot))
		return;
	drop = isim_ud_decode(f, skb, &m);
	if (!drop && m.dqp == ISIM_MCG_QPN) {
		if (isim_ud_mcast_rx(xp, f, skb, &m))
			consume_skb(skb);
		else
			kfree_skb(skb);
		return;
	}
	if (!drop)
		drop = isim_ud_target(f, &m, &qp);
	if (!drop)
		drop = isim_ud_place(xp, f, qp, skb, &m);
	if (drop) {
		atomic64_inc(drop);
		kfree_skb(skb);
		return;
	}
	consume_skb(skb);
}

/**
 * isim_ud_run - one pass of the engine over the received datagrams
 * @f: function
 * @budget: most datagrams to take in this pass
 *
 * Return: true if datagrams are left for the next pass.
 */
bool isim_ud_run(struct isim_func *f, unsigned int budget)
{
	struct isim_xfer *x = NULL;
	struct sk_buff *skb;
	unsigned int n = 0;

	lockdep_assert_held(&f->eng_lock);
	/* a pass whose time went on CQP commands takes a few all the same */
	while (n < budget && (n < ISIM_UD_RX_MIN || !isim_pass_over(f)) &&
	       (skb = skb_dequeue(&f->ud.rxq))) {
		isim_ud_rx(&x, f, skb);
		n++;
	}
	isim_xfer_put(x);
	return !skb_queue_empty(&f->ud.rxq);
}

/**
 * isim_op_mcg - CREATE_MCG, MODIFY_MCG or DESTROY_MCG
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The index lies in the committed multicast contexts (FSIMC); creating
 * one that exists fails with EXISTS, changing or destroying one that does
 * not with NO_OBJECT. CREATE and MODIFY read the member list: its valid
 * entries are the members, and the group's address is taken anew.
 */
void isim_op_mcg(struct isim_func *f, const u64 *wqe, struct isim_res *res)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 idx = FIELD_GET(ISIM_MCG_HDR_INDEX, hdr);
	bool create = FIELD_GET(ISIM_HDR_OPCODE, hdr) == ISIM_OP_CREATE_MCG;
	bool destroy = FIELD_GET(ISIM_HDR_OPCODE, hdr) == ISIM_OP_DESTROY_MCG;
	struct isim_mcg *mcg = xa_load(&f->mcgs, idx);
	__le64 list[ISIM_MCG_MEMBERS];
	u64 e;
	int i;

	if (!f->hmc.committed || idx >= f->hmc.cnt[ISIM_HMC_FSIMC]) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	if (create == !!mcg) {
		res->minor = mcg ? ISIM_MIN_EXISTS : ISIM_MIN_NO_OBJECT;
		return;
	}
	if (destroy) {
		xa_erase(&f->mcgs, idx);
		kfree(mcg);
		return;
	}
	if (!wqe[4] || !IS_ALIGNED(wqe[4], 8)) {
		res->minor = ISIM_MIN_BAD_ALIGN;
		return;
	}
	if (isim_dma_read(f, wqe[4], list, sizeof(list))) {
		res->minor = ISIM_MIN_DMA_FAULT;
		return;
	}
	if (!mcg) {
		mcg = kzalloc(sizeof(*mcg), GFP_KERNEL);
		if (!mcg || xa_insert(&f->mcgs, idx, mcg, GFP_KERNEL)) {
			kfree(mcg);
			res->minor = ISIM_MIN_BUSY;
			return;
		}
	}
	mcg->index = idx;
	mcg->ipv4 = hdr & ISIM_MCG_HDR_IPV4;
	isim_conn_addr(&wqe[ISIM_MCG_W_ADDR], mcg->ipv4, mcg->addr);
	mcg->n = 0;
	for (i = 0; i < ISIM_MCG_MEMBERS; i++) {
		e = le64_to_cpu(list[i]);
		if (e & ISIM_MCGE_VALID)
			mcg->qpn[mcg->n++] = FIELD_GET(ISIM_MCGE_QP, e);
	}
}

/**
 * isim_ud_show - the ud line of the state file
 * @s: the file
 * @f: function
 */
void isim_ud_show(struct seq_file *s, struct isim_func *f)
{
	const struct isim_ud_stats *u = &f->ud;

	seq_printf(s, "ud: tx=%lld tx_err=%lld tx_lost=%lld steered=%lld rx=%lld rx_err=%lld drop_full=%lld drop_malformed=%lld drop_icrc=%lld drop_opcode=%lld drop_qp=%lld drop_qkey=%lld drop_no_rqe=%lld\n",
		   (s64)atomic64_read(&u->tx), (s64)atomic64_read(&u->tx_err),
		   (s64)atomic64_read(&u->tx_lost),
		   (s64)atomic64_read(&u->steered),
		   (s64)atomic64_read(&u->rx), (s64)atomic64_read(&u->rx_err),
		   (s64)atomic64_read(&u->drop_full),
		   (s64)atomic64_read(&u->drop_malformed),
		   (s64)atomic64_read(&u->drop_icrc),
		   (s64)atomic64_read(&u->drop_opcode),
		   (s64)atomic64_read(&u->drop_qp),
		   (s64)atomic64_read(&u->drop_qkey),
		   (s64)atomic64_read(&u->drop_no_rqe));
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ud_test.c"
#endif
