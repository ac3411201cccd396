// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * KUnit: MPA and TCP framing of the CM (suite irdma_cm_frame). Included by
 * cm.c so that static builders and parsers can be reached.
 */
#include "cm_fake.h"

/* A node that is not hashed: only for builders and parsers. */
static struct irdma_cm_node *cmt_bare_node(struct kunit *test, bool active)
{
	struct cmt_env *env = test->priv;
	struct irdma_cm_info ci = {
		.loc_addr = { 0xc0000201 }, .rem_addr = { 0xc0000202 },
		.loc_port = 4000, .rem_port = 5000,
		.vlan_id = IRDMA_CM_NO_VLAN, .ipv4 = true,
	};
	struct irdma_cm_node *node = irdma_cm_node_alloc(env->a.core, &ci);

	KUNIT_ASSERT_NOT_NULL(test, node);
	node->active = active;
	irdma_cm_node_init_tcp(node);
	return node;
}

/**
 * struct cmt_mpa_vec - one byte-exact MPA frame (iwarp-protocol.md 1.5)
 * @name: description
 * @kind: request, reply or reject
 * @rev: MPA revision
 * @crc: CRC flag wanted
 * @p2p: peer-to-peer mode
 * @offer: RTR ops offered
 * @rdma0: RTR op selected
 * @ird: IRD
 * @ord: ORD
 * @pdata: ULP private data
 * @pdata_len: its length
 * @bytes: expected frame
 * @len: its length
 */
struct cmt_mpa_vec {
	const char *name;
	enum irdma_mpa_kind kind;
	u8 rev;
	bool crc;
	bool p2p;
	u16 offer;
	enum irdma_cm_rdma0 rdma0;
	u32 ird;
	u32 ord;
	const u8 *pdata;
	u8 pdata_len;
	u8 bytes[32];
	u8 len;
};

/* the keys spelled out independently of cm.c */
#define CMT_MPA_REQ "MPA ID Req Frame"
#define CMT_MPA_REP "MPA ID Rep Frame"

static const u8 cmt_deadbeef[] = { 0xde, 0xad, 0xbe, 0xef };
static const u8 cmt_hi[] = { 'h', 'i', '!' };
static const u8 cmt_0102[] = { 0x01, 0x02 };

static const struct cmt_mpa_vec cmt_mpa_vecs[] = {
	{ "v1 request C pdata", IRDMA_MPA_KIND_REQ, 1, true, false, 0, 0, 0, 0,
	  cmt_deadbeef, 4,
	  CMT_MPA_REQ "\x40\x01\x00\x04\xde\xad\xbe\xef", 24 },
	{ "v1 request bare", IRDMA_MPA_KIND_REQ, 1, false, false, 0, 0, 0, 0,
	  NULL, 0, CMT_MPA_REQ "\x00\x01\x00\x00", 20 },
	{ "v2 request read RTR", IRDMA_MPA_KIND_REQ, 2, true, true,
	  IRDMA_MPA_ORD_READ0, 0, 16, 16, NULL, 0,
	  CMT_MPA_REQ "\x50\x02\x00\x04\x80\x10\x40\x10", 24 },
	{ "v2 reply read RTR", IRDMA_MPA_KIND_REP, 2, true, true, 0,
	  IRDMA_CM_RDMA0_READ, 16, 16, NULL, 0,
	  CMT_MPA_REP "\x50\x02\x00\x04\x80\x10\x40\x10", 24 },
	{ "v2 request write|read pdata", IRDMA_MPA_KIND_REQ, 2, true, true,
	  IRDMA_MPA_ORD_READ0 | IRDMA_MPA_ORD_WRITE0, 0, 16, 16, cmt_hi, 3,
	  CMT_MPA_REQ "\x50\x02\x00\x07\x80\x10\xc0\x10\x68\x69\x21", 27 },
	{ "v1 reject pdata", IRDMA_MPA_KIND_REJ, 1, true, false, 0, 0, 0, 0,
	  cmt_0102, 2,
	  CMT_MPA_REP "\x20\x01\x00\x02\x01\x02", 22 },
	{ "v2 reject", IRDMA_MPA_KIND_REJ, 2, true, true, 0, 0, 16, 16, NULL, 0,
	  CMT_MPA_REP "\x30\x02\x00\x04\x00\x10\x00\x10", 24 },
	/* to a peer-to-peer request: A and the RTR chosen, as a reply */
	{ "v2 reject write RTR", IRDMA_MPA_KIND_REJ, 2, true, true, 0,
	  IRDMA_CM_RDMA0_WRITE, 16, 4, NULL, 0,
	  CMT_MPA_REP "\x30\x02\x00\x04\x80\x10\x80\x04", 24 },
};

static void cmt_mpa_vec_desc(const struct cmt_mpa_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_mpa_vec, cmt_mpa_vecs, cmt_mpa_vec_desc);

static void irdma_cm_build_mpa_frame_vectors(struct kunit *test)
{
	const struct cmt_mpa_vec *v = test->param_value;
	struct irdma_cm_node *node = cmt_bare_node(test, true);
	struct irdma_mpa_parsed mp;
	u32 len = 0;
	u8 *buf;

	node->mpa_rev = v->rev;
	node->mpa_crc = v->crc;
	node->p2p = v->p2p;
	node->rtr_offer = v->offer;
	node->rdma0 = v->rdma0;
	node->ird = v->ird;
	node->ord = v->ord;
	buf = irdma_cm_build_mpa_frame(node, v->kind, v->pdata, v->pdata_len,
				       &len);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, len, (u32)v->len);
	KUNIT_EXPECT_EQ(test, memcmp(buf, v->bytes, v->len), 0);
	/* and the parser of the other side reads it back */
	node->active = v->kind != IRDMA_MPA_KIND_REQ;
	node->mpa_rev = 2;
	node->core->cfg.mpa_rev = 2;
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, v->bytes, v->len, &mp), 0);
	KUNIT_EXPECT_EQ(test, mp.rev, v->rev);
	KUNIT_EXPECT_EQ(test, mp.ulp_len, (u16)v->pdata_len);
	KUNIT_EXPECT_EQ(test, mp.v2, v->rev == 2);
	kfree(buf);
	kfree(node);
}

/**
 * struct cmt_mpa_bad - a received MPA frame and the parser's verdict
 * @name: description
 * @active: parsed by the initiator (expects a reply)
 * @bytes: frame
 * @len: its length
 * @err: expected result
 */
struct cmt_mpa_bad {
	const char *name;
	bool active;
	u8 bytes[32];
	u8 len;
	int err;
};

static const struct cmt_mpa_bad cmt_mpa_bads[] = {
	{ "short header", false, CMT_MPA_REQ "\x00", 17, -EBADMSG },
	{ "request key to initiator", true,
	  CMT_MPA_REQ "\x00\x01\x00\x00", 20, -EBADMSG },
	{ "reply key to responder", false,
	  CMT_MPA_REP "\x00\x01\x00\x00", 20, -EBADMSG },
	{ "bad key byte", false,
	  { 0x4d, 0x50, 0x41, 0x21, 0x49, 0x44, 0x20, 0x52, 0x65, 0x71, 0x20,
	    0x46, 0x72, 0x61, 0x6d, 0x65, 0x00, 0x01, 0x00, 0x00 }, 20, -EBADMSG },
	{ "oversized length", false,
	  CMT_MPA_REQ "\x00\x01\x02\x01", 20, -EMSGSIZE },
	{ "rev 3", false, CMT_MPA_REQ "\x00\x03\x00\x00", 20,
	  -EPROTONOSUPPORT },
	{ "rev 0", false, CMT_MPA_REQ "\x00\x00\x00\x00", 20,
	  -EPROTONOSUPPORT },
	{ "truncated pdata", false,
	  CMT_MPA_REQ "\x00\x01\x00\x0a\x01\x02\x03\x04", 24, -EBADMSG },
	{ "extra bytes", false,
	  CMT_MPA_REQ "\x00\x01\x00\x01\x01\x02\x03\x04", 24, -EBADMSG },
	{ "markers", false, CMT_MPA_REQ "\x80\x01\x00\x00", 20,
	  -EOPNOTSUPP },
	{ "v2 block too short", false,
	  CMT_MPA_REQ "\x10\x02\x00\x02\x80\x10", 22, -EPROTO },
	{ "v2 valid", false,
	  CMT_MPA_REQ "\x10\x02\x00\x04\x80\x10\x80\x10", 24,
	  0 },
};

static void cmt_mpa_bad_desc(const struct cmt_mpa_bad *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_mpa_bad, cmt_mpa_bads, cmt_mpa_bad_desc);

static void irdma_parse_mpa_malformed(struct kunit *test)
{
	const struct cmt_mpa_bad *v = test->param_value;
	struct irdma_cm_node *node = cmt_bare_node(test, v->active);
	struct irdma_mpa_parsed mp;

	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, v->bytes, v->len, &mp),
			v->err);
	kfree(node);
}

/**
 * struct cmt_opt_case - TCP options of a SYN and what they yield
 * @name: description
 * @v6: IPv6 connection
 * @opts: option bytes
 * @len: their length
 * @err: expected result
 * @mss: expected MSS
 * @ws_ok: window scaling in use
 * @wscale: peer window scale
 */
struct cmt_opt_case {
	const char *name;
	bool v6;
	u8 opts[16];
	u8 len;
	int err;
	u16 mss;
	bool ws_ok;
	u8 wscale;
};

static const struct cmt_opt_case cmt_opt_cases[] = {
	{ "none: default MSS, no scaling", false, {}, 0, 0, 536, false, 0 },
	{ "mss and wscale", false, { 2, 4, 0x05, 0xb4, 1, 3, 3, 7 }, 8, 0, 1460,
	  true, 7 },
	{ "larger peer mss keeps ours", false, { 2, 4, 0x23, 0x28 }, 4, 0, 1460,
	  false, 0 },
	{ "mss below minimum", false, { 2, 4, 0x00, 0x64 }, 4, -EINVAL },
	{ "mss bad length", false, { 2, 3, 0x05, 1 }, 4, -EINVAL },
	{ "wscale above 14", false, { 1, 3, 3, 15 }, 4, -EINVAL },
	{ "option overruns", false, { 8, 10, 0, 0 }, 4, -EINVAL },
	{ "option length 1", false, { 8, 1, 0, 0 }, 4, -EINVAL },
	{ "kind without length", false, { 1, 1, 1, 8 }, 4, -EINVAL },
	{ "eol ends parsing", false, { 0, 0xff, 0xff, 0xff }, 4, 0, 536, false,
	  0 },
	{ "timestamps skipped", false,
	  { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 2 }, 16, 0, 536, true,
	  2 },
	{ "ipv6 mss below minimum", true, { 2, 4, 0x03, 0xe8 }, 4, -EINVAL },
	{ "ipv6 mss", true, { 2, 4, 0x05, 0xa0 }, 4, 0, 1440, false, 0 },
	{ "ipv6 none: the IPv6 default MSS", true, {}, 0, 0, 1220, false, 0 },
	{ "ipv6 smaller peer mss", true, { 2, 4, 0x05, 0x00 }, 4, 0, 1280, false,
	  0 },
};

static void cmt_opt_desc(const struct cmt_opt_case *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_opt, cmt_opt_cases, cmt_opt_desc);

static void irdma_process_options_table(struct kunit *test)
{
	const struct cmt_opt_case *v = test->param_value;
	struct irdma_cm_node *node = cmt_bare_node(test, false);
	int err;

	if (v->v6) {
		node->ci.ipv4 = false;
		irdma_cm_node_init_tcp(node);
	}
	err = irdma_process_options(node, v->opts, v->len);
	KUNIT_EXPECT_EQ(test, err, v->err);
	if (!err) {
		KUNIT_EXPECT_EQ(test, node->tcp.mss, v->mss);
		/* what we advertise stays our own, whatever the peer's */
		KUNIT_EXPECT_EQ(test, node->tcp.adv_mss, v->v6 ? 1440 : 1460);
		KUNIT_EXPECT_EQ(test, node->tcp.ws_ok, v->ws_ok);
		KUNIT_EXPECT_EQ(test, node->tcp.snd_wscale, v->wscale);
		if (!v->ws_ok)
			KUNIT_EXPECT_EQ(test, node->tcp.rcv_wscale, 0);
	}
	kfree(node);
}

/**
 * struct cmt_parse_case - an ILQ frame and whether it parses
 * @name: description
 * @mutate: offset to overwrite (0: none)
 * @value: byte written there
 * @trunc: bytes cut from the end
 * @v6: IPv6 frame
 * @vlan: VLAN tag
 * @err: expected result
 */
struct cmt_parse_case {
	const char *name;
	u32 mutate;
	u8 value;
	u32 trunc;
	bool v6;
	u16 vlan;
	int err;
};

static const struct cmt_parse_case cmt_parse_cases[] = {
	{ "ipv4", 0, 0, 0, false, IRDMA_CM_NO_VLAN, 0 },
	{ "ipv6", 0, 0, 0, true, IRDMA_CM_NO_VLAN, 0 },
	{ "vlan tagged", 0, 0, 0, false, 42, 0 },
	{ "ethernet only", 0, 0, 40, false, IRDMA_CM_NO_VLAN, -EINVAL },
	{ "arp ethertype", 13, 0x06, 0, false, IRDMA_CM_NO_VLAN,
	  -EPROTONOSUPPORT },
	{ "ip version 5", 14, 0x55, 0, false, IRDMA_CM_NO_VLAN, -EINVAL },
	{ "ihl 4", 14, 0x44, 0, false, IRDMA_CM_NO_VLAN, -EINVAL },
	{ "ip length beyond frame", 16, 0x10, 0, false, IRDMA_CM_NO_VLAN,
	  -EINVAL },
	{ "udp", 23, IPPROTO_UDP, 0, false, IRDMA_CM_NO_VLAN,
	  -EPROTONOSUPPORT },
	{ "fragment", 20, 0x20, 0, false, IRDMA_CM_NO_VLAN, -EPROTONOSUPPORT },
	{ "tcp doff 4", 46, 0x40, 0, false, IRDMA_CM_NO_VLAN, -EINVAL },
	{ "tcp doff beyond", 46, 0xf0, 0, false, IRDMA_CM_NO_VLAN, -EINVAL },
	{ "ipv6 next header", 20, IPPROTO_UDP, 0, true, IRDMA_CM_NO_VLAN,
	  -EPROTONOSUPPORT },
	{ "ipv6 payload beyond", 18, 0x10, 0, true, IRDMA_CM_NO_VLAN, -EINVAL },
	{ "truncated vlan", 0, 0, 44, false, 42, -EINVAL },
};

static void cmt_parse_desc(const struct cmt_parse_case *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_parse, cmt_parse_cases, cmt_parse_desc);

static void irdma_cm_parse_frame_table(struct kunit *test)
{
	const struct cmt_parse_case *v = test->param_value;
	struct cmt_raw r = { .v6 = v->v6, .vlan = v->vlan, .src = 2, .dst = 1,
			     .sport = 5000, .dport = 4000, .seq = 7, .ack = 9,
			     .flags = TCPHDR_ACK, .pay = cmt_hi, .paylen = 3 };
	struct irdma_cm_seg seg;
	u8 *b = kunit_kzalloc(test, CMT_RAW_MAX, GFP_KERNEL);
	u32 len;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, b);
	len = cmt_raw_build(&r, b);
	if (v->mutate)
		b[v->mutate] = v->value;
	err = irdma_cm_parse_frame(b, len - v->trunc, NULL, &seg);
	KUNIT_EXPECT_EQ(test, err, v->err);
	if (err)
		return;
	KUNIT_EXPECT_EQ(test, seg.ci.loc_port, 4000);
	KUNIT_EXPECT_EQ(test, seg.ci.rem_port, 5000);
	KUNIT_EXPECT_EQ(test, seg.seq, 7U);
	KUNIT_EXPECT_EQ(test, seg.ack, 9U);
	KUNIT_EXPECT_EQ(test, seg.datalen, 3U);
	KUNIT_EXPECT_EQ(test, seg.ci.vlan_id, v->vlan);
	KUNIT_EXPECT_EQ(test, seg.ci.ipv4, !v->v6);
	KUNIT_EXPECT_EQ(test, seg.ci.loc_addr[v->v6 ? 3 : 0],
			v->v6 ? 1U : 0xc0000201);
}

/* A stripped tag reported by the hardware counts like an inline one. */
static void irdma_cm_parse_frame_rx_vlan(struct kunit *test)
{
	struct cmt_raw r = { .vlan = IRDMA_CM_NO_VLAN, .src = 2, .dst = 1,
			     .sport = 5000, .dport = 4000, .flags = TCPHDR_SYN };
	struct irdma_cm_rx_info rxi = { .vlan_valid = true,
					.vlan_tci = 5 << VLAN_PRIO_SHIFT | 77 };
	struct irdma_cm_seg seg;
	u8 *b = kunit_kzalloc(test, CMT_RAW_MAX, GFP_KERNEL);
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	len = cmt_raw_build(&r, b);
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_frame(b, len, &rxi, &seg), 0);
	KUNIT_EXPECT_EQ(test, seg.ci.vlan_id, 77);
	KUNIT_EXPECT_EQ(test, seg.ci.user_pri, 5);
	rxi.csum_err = true;
	KUNIT_EXPECT_EQ(test, irdma_receive_ilq(cmt_env_of(test)->a.core, b,
						len, &rxi), -EBADMSG);
}

/*
 * The gen2 ILQ hands over frames from the IP header on, with the source
 * MAC, the stripped tag and the IP version in the completion.
 */
static void irdma_cm_parse_frame_l3(struct kunit *test)
{
	static const u8 smac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0c };
	struct cmt_raw r = { .vlan = IRDMA_CM_NO_VLAN, .src = 2, .dst = 1,
			     .sport = 5000, .dport = 4000, .seq = 11,
			     .flags = TCPHDR_SYN };
	struct irdma_cm_rx_info rxi = { .l3 = true, .ipv4 = true,
					.smac_valid = true,
					.vlan_valid = true,
					.vlan_tci = 3 << VLAN_PRIO_SHIFT | 12 };
	u8 *b = kunit_kzalloc(test, CMT_RAW_MAX, GFP_KERNEL);
	struct irdma_cm_seg seg;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	ether_addr_copy(rxi.smac, smac);
	len = cmt_raw_build(&r, b) - ETH_HLEN;
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_frame(b + ETH_HLEN, len, &rxi,
						   &seg), 0);
	KUNIT_EXPECT_TRUE(test, seg.ci.ipv4);
	KUNIT_EXPECT_EQ(test, seg.ci.loc_addr[0], 0xc0000201);
	KUNIT_EXPECT_EQ(test, seg.ci.rem_addr[0], 0xc0000202);
	KUNIT_EXPECT_EQ(test, seg.ci.loc_port, 4000);
	KUNIT_EXPECT_EQ(test, seg.seq, 11U);
	KUNIT_EXPECT_EQ(test, seg.flags, (u8)TCPHDR_SYN);
	KUNIT_EXPECT_EQ(test, seg.ci.vlan_id, 12);
	KUNIT_EXPECT_EQ(test, seg.ci.user_pri, 3);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(seg.smac, smac));
	/* the completion's IP version decides how the header is read */
	rxi.ipv4 = false;
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_frame(b + ETH_HLEN, len, &rxi,
						   &seg), -EINVAL);
	/* without a source MAC there is nobody to answer */
	rxi.ipv4 = true;
	rxi.smac_valid = false;
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_frame(b + ETH_HLEN, len, &rxi,
						   &seg), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_receive_ilq(cmt_env_of(test)->a.core,
						b + ETH_HLEN, len, &rxi),
			-EINVAL);

	r.v6 = true;
	rxi.vlan_valid = false;
	rxi.smac_valid = true;
	rxi.ipv4 = false;
	len = cmt_raw_build(&r, b) - ETH_HLEN;
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_frame(b + ETH_HLEN, len, &rxi,
						   &seg), 0);
	KUNIT_EXPECT_FALSE(test, seg.ci.ipv4);
	KUNIT_EXPECT_EQ(test, seg.ci.loc_addr[3], 1U);
	KUNIT_EXPECT_EQ(test, seg.ci.vlan_id, IRDMA_CM_NO_VLAN);
	/* a frame cut inside its IPv6 header */
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_frame(b + ETH_HLEN, 39, &rxi,
						   &seg), -EINVAL);
}

/* Gen1 frames are complete and checksummed; gen2 frames start at TCP. */
static void irdma_form_cm_frame_gen1_gen2(struct kunit *test)
{
	struct irdma_cm_node *node = cmt_bare_node(test, true);
	struct irdma_cm_seg seg;
	u32 len, l4, seq = node->tcp.snd_nxt;
	struct iphdr *iph;
	__sum16 sum;
	u8 *buf;

	node->ci.vlan_id = 9;
	node->tcp.rcv_nxt = 1234;
	buf = irdma_form_uda_cm_frame(node, TCPHDR_SYN, NULL, 0, &len);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, node->tcp.snd_nxt, seq + 1);
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_frame(buf, len, NULL, &seg), 0);
	KUNIT_EXPECT_EQ(test, seg.flags, (u8)TCPHDR_SYN);
	KUNIT_EXPECT_EQ(test, seg.seq, seq);
	KUNIT_EXPECT_EQ(test, seg.ci.vlan_id, 9);
	KUNIT_EXPECT_EQ(test, seg.optlen, 8U);
	KUNIT_EXPECT_EQ(test, seg.ci.loc_port, 5000);
	iph = (struct iphdr *)(buf + VLAN_ETH_HLEN);
	KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(iph, iph->ihl), 0);
	l4 = len - VLAN_ETH_HLEN - sizeof(*iph);
	sum = csum_tcpudp_magic(iph->saddr, iph->daddr, l4, IPPROTO_TCP,
				csum_partial(buf + VLAN_ETH_HLEN + sizeof(*iph),
					     l4, 0));
	KUNIT_EXPECT_EQ(test, (__force u16)sum, 0);
	kfree(buf);
	buf = irdma_form_ah_cm_frame(node, TCPHDR_ACK | TCPHDR_FIN, cmt_hi, 3,
				     &len);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, len, 23U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 4), seq + 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 1234U);
	KUNIT_EXPECT_EQ(test, node->tcp.snd_nxt, seq + 5);
	kfree(buf);
	kfree(node);
}

/* The ISN is the kernel's secure_tcp_seq for the 4-tuple. */
static void irdma_cm_isn_secure_seq(struct kunit *test)
{
	struct irdma_cm_node *node = cmt_bare_node(test, true);
	u32 now = secure_tcp_seq(htonl(0xc0000201), htonl(0xc0000202),
				 htons(4000), htons(5000));

	/* the secret part is the same; the clock part moved a little */
	KUNIT_EXPECT_LT(test, now - node->tcp.snd_nxt, 1U << 26);
	KUNIT_EXPECT_EQ(test, node->tcp.mss, 1460);
	KUNIT_EXPECT_FALSE(test, irdma_ipv4_is_lpb(0xc0000201, 0xc0000202));
	KUNIT_EXPECT_TRUE(test, irdma_ipv4_is_lpb(0xc0000201, 0x7f000001));
	kfree(node);
}

/**
 * struct cmt_credits - the read credits one side of a connection holds
 * @ird: inbound RDMA reads it can take
 * @ord: outbound RDMA reads it may have in flight
 */
struct cmt_credits {
	u32 ird;
	u32 ord;
};

/**
 * struct cmt_neg_case - IRD/ORD negotiation
 * @name: description
 * @active: initiator side
 * @rdma0: RTR op
 * @ours: our credits before
 * @peer: the credits the peer announced
 * @err: expected result
 * @want: our credits after (when @err is 0)
 */
struct cmt_neg_case {
	const char *name;
	bool active;
	enum irdma_cm_rdma0 rdma0;
	struct cmt_credits ours, peer;
	int err;
	struct cmt_credits want;
};

#define CMT_WR IRDMA_CM_RDMA0_WRITE
#define CMT_RD IRDMA_CM_RDMA0_READ

static const struct cmt_neg_case cmt_neg_cases[] = {
	{ "responder clamps ord", false, CMT_WR, { 8, 8 }, { 4, 2 }, 0,
	  { 8, 4 } },
	{ "responder raises ird", false, CMT_WR, { 2, 8 }, { 16, 6 }, 0,
	  { 6, 8 } },
	{ "responder ird stops at device max", false, CMT_WR, { 2, 8 },
	  { 16, 65 }, 0, { 64, 8 } },
	{ "responder read rtr needs ird", false, CMT_RD, {}, {}, 0, { 1, 0 } },
	{ "initiator lowers ord", true, CMT_WR, { 4, 8 }, { 3, 2 }, 0,
	  { 4, 3 } },
	{ "initiator raises ird", true, CMT_WR, { 4, 8 }, { 8, 7 }, 0,
	  { 7, 8 } },
	{ "initiator ird beyond device", true, CMT_WR, { 4, 8 }, { 8, 100 },
	  -ENOMEM },
	{ "initiator read rtr keeps ord 1", true, CMT_RD, { 4, 4 }, {}, 0,
	  { 4, 1 } },
	{ "responder: no value asks nothing", false, CMT_WR, { 8, 2 },
	  { IRDMA_MPA_NO_IRD_ORD, IRDMA_MPA_NO_IRD_ORD }, 0, { 8, 2 } },
	{ "initiator: no value is not our maximum", true, CMT_WR, { 4, 8 },
	  { IRDMA_MPA_NO_IRD_ORD, IRDMA_MPA_NO_IRD_ORD }, 0, { 4, 8 } },
	{ "initiator: peer ord only", true, CMT_WR, { 4, 8 },
	  { IRDMA_MPA_NO_IRD_ORD, 6 }, 0, { 6, 8 } },
};

static void cmt_neg_desc(const struct cmt_neg_case *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_neg, cmt_neg_cases, cmt_neg_desc);

static void irdma_negotiate_mpa_v2_ird_ord_table(struct kunit *test)
{
	const struct cmt_neg_case *v = test->param_value;
	struct irdma_cm_node *node = cmt_bare_node(test, v->active);
	int err;

	/* an MPA v2 peer-to-peer exchange whose RTR op is already agreed */
	node->p2p = true;
	node->rdma0 = v->rdma0;
	node->ird = v->ours.ird;
	node->ord = v->ours.ord;
	node->peer_ird = v->peer.ird;
	node->peer_ord = v->peer.ord;
	err = irdma_negotiate_mpa_v2_ird_ord(node);
	KUNIT_EXPECT_EQ(test, err, v->err);
	if (!err) {
		KUNIT_EXPECT_EQ(test, node->ird, v->want.ird);
		KUNIT_EXPECT_EQ(test, node->ord, v->want.ord);
	}
	kfree(node);
}

/* Helpers used by the events and the QP context. */
static void irdma_cm_helpers_addresses(struct kunit *test)
{
	struct irdma_cm_node *node = cmt_bare_node(test, true);
	struct irdma_cm_tcp_ctx ctx;
	struct iw_cm_event ev = {};
	struct sockaddr_in6 *s6;
	u32 a6[4] = { 0x20010db8, 0, 0, 7 };

	irdma_get_cmevent_info(node, &ev);
	KUNIT_EXPECT_EQ(test,
			ntohs(((struct sockaddr_in *)&ev.local_addr)->sin_port),
			4000);
	KUNIT_EXPECT_EQ(test,
			ntohl(((struct sockaddr_in *)&ev.remote_addr)->sin_addr.s_addr),
			0xc0000202);
	irdma_fill_sockaddr6(a6, 99, 5, &ev.local_addr);
	s6 = (struct sockaddr_in6 *)&ev.local_addr;
	KUNIT_EXPECT_EQ(test, s6->sin6_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, ntohl(s6->sin6_addr.s6_addr32[3]), 7U);
	KUNIT_EXPECT_TRUE(test, irdma_ipv6_is_lpb(a6, a6));
	node->tcp.rcv_nxt = 77;
	node->ird = 5;
	node->ord = 6;
	node->p2p = true;
	node->rdma0 = IRDMA_CM_RDMA0_READ;
	irdma_init_tcp_ctx(node, &ctx);
	KUNIT_EXPECT_EQ(test, ctx.tcp.rcv_nxt, 77U);
	KUNIT_EXPECT_EQ(test, ctx.ird, 5U);
	KUNIT_EXPECT_EQ(test, ctx.ord, 6U);
	KUNIT_EXPECT_EQ(test, ctx.rdma0, IRDMA_CM_RDMA0_READ);
	KUNIT_EXPECT_EQ(test, ctx.cwnd, 2U * node->tcp.mss);
	KUNIT_EXPECT_TRUE(test, ctx.active);
	kfree(node);
}

/* Route lookups for the arp_resolve op of the hardware layer. */
static void irdma_addr_resolve_neigh_unroutable(struct kunit *test)
{
	u32 src6[4] = { 0xfe800000, 0, 0, 1 }, dst6[4] = { 0xfe800000, 0, 0, 2 };
	struct cmt_env *env = test->priv;
	u8 mac[ETH_ALEN];

	/* 0.0.0.0/8 as a destination is never routable */
	KUNIT_EXPECT_LT(test, irdma_addr_resolve_neigh(env->a.core, 0,
						       0x00000001, mac), 0);
	/* link-local IPv6 needs a link: no scope and no netdev, refused */
	KUNIT_EXPECT_EQ(test, irdma_addr_resolve_neigh_ipv6(env->a.core, src6,
							    dst6, 0, mac),
			-EINVAL);
}

/*
 * The CM's namespace is its netdev's; a VLAN of the netdev is the CM's only
 * in that namespace. The netdevs are never registered and the second
 * namespace is a stand-in compared by address only: what is tested is the
 * choice, not the kernel's lookups.
 */
static void irdma_cm_dev_is_ours_netns(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct irdma_cm_core *core = env->a.core;
	struct net_device *real, *other, *vlan;
	struct net *elsewhere;

	elsewhere = kunit_kzalloc(test, sizeof(*elsewhere), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, elsewhere);
	real = alloc_etherdev(0);
	other = alloc_etherdev(0);
	vlan = alloc_etherdev(sizeof(struct vlan_dev_priv));
	if (!real || !other || !vlan)
		goto out_free;
	vlan->priv_flags |= IFF_802_1Q_VLAN;
	vlan_dev_priv(vlan)->real_dev = real;
	vlan_dev_priv(vlan)->vlan_id = 7;

	rcu_read_lock();
	/* without a netdev: init_net, and no netdev is the CM's */
	KUNIT_EXPECT_PTR_EQ(test, irdma_cm_net(core), &init_net);
	KUNIT_EXPECT_FALSE(test, irdma_cm_dev_is_ours(core, real));
	core->netdev = real;
	KUNIT_EXPECT_PTR_EQ(test, irdma_cm_net(core), &init_net);
	KUNIT_EXPECT_TRUE(test, irdma_cm_dev_is_ours(core, real));
	KUNIT_EXPECT_TRUE(test, irdma_cm_dev_is_ours(core, vlan));
	KUNIT_EXPECT_FALSE(test, irdma_cm_dev_is_ours(core, other));
	/* the netdev moved: the CM follows it, its VLAN left behind is not its */
	dev_net_set(real, elsewhere);
	KUNIT_EXPECT_PTR_EQ(test, irdma_cm_net(core), elsewhere);
	KUNIT_EXPECT_TRUE(test, irdma_cm_dev_is_ours(core, real));
	KUNIT_EXPECT_FALSE(test, irdma_cm_dev_is_ours(core, vlan));
	/* until it follows */
	dev_net_set(vlan, elsewhere);
	KUNIT_EXPECT_TRUE(test, irdma_cm_dev_is_ours(core, vlan));
	dev_net_set(other, elsewhere);
	KUNIT_EXPECT_FALSE(test, irdma_cm_dev_is_ours(core, other));
	rcu_read_unlock();
	core->netdev = NULL;
	dev_net_set(real, &init_net);
	dev_net_set(vlan, &init_net);
	dev_net_set(other, &init_net);
out_free:
	KUNIT_EXPECT_TRUE(test, real && other && vlan);
	if (vlan)
		free_netdev(vlan);
	if (other)
		free_netdev(other);
	if (real)
		free_netdev(real);
}

static struct kunit_case irdma_cm_frame_cases[] = {
	KUNIT_CASE_PARAM(irdma_cm_build_mpa_frame_vectors,
			 cmt_mpa_vec_gen_params),
	KUNIT_CASE_PARAM(irdma_parse_mpa_malformed, cmt_mpa_bad_gen_params),
	KUNIT_CASE_PARAM(irdma_process_options_table, cmt_opt_gen_params),
	KUNIT_CASE_PARAM(irdma_cm_parse_frame_table, cmt_parse_gen_params),
	KUNIT_CASE(irdma_cm_parse_frame_rx_vlan),
	KUNIT_CASE(irdma_cm_parse_frame_l3),
	KUNIT_CASE(irdma_form_cm_frame_gen1_gen2),
	KUNIT_CASE(irdma_cm_isn_secure_seq),
	KUNIT_CASE_PARAM(irdma_negotiate_mpa_v2_ird_ord_table,
			 cmt_neg_gen_params),
	KUNIT_CASE(irdma_cm_helpers_addresses),
	KUNIT_CASE(irdma_addr_resolve_neigh_unroutable),
	KUNIT_CASE(irdma_cm_dev_is_ours_netns),
	{}
};

static struct kunit_suite irdma_cm_frame_suite = {
	.name = "irdma_cm_frame",
	.init = cmt_init,
	.exit = cmt_exit,
	.test_cases = irdma_cm_frame_cases,
};

kunit_test_suite(irdma_cm_frame_suite);
