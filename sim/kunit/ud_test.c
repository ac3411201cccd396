// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_ud: RoCEv2 UD datagrams on a RoCEv2 function.
 * Included at the end of sim/ud.c.
 */
#include "harness.h"

#define ISIM_T_UD_A		2	/* the sending UD QP */
#define ISIM_T_UD_B		3	/* the receiving UD QP */
#define ISIM_T_QKEY		0x1234abcd
#define ISIM_T_SELF_ARP		3	/* the function's own MAC */
#define ISIM_T_SELF_AH		6	/* 192.0.2.1 -> 192.0.2.1 */
#define ISIM_T_UD_FRAME		(ETH_HLEN + sizeof(struct iphdr) + 8 + \
				 ISIM_BTH_LEN + ISIM_DETH_LEN)
/* CRC32 of 8 bytes of 0xff from an all-ones seed (the masked LRH) */
#define ISIM_T_ICRC_SEED	0xdebb20e3

/**
 * struct isim_t_ud - the two UD QPs of a UD test, on pages of their own
 *	(the CQP ring and the HMC use the fixture's)
 * @a: QP 2
 * @b: QP 3
 * @sq: QP 2's SQ; QP 3's is in the second half of the page
 * @brq: QP 3's RQ, in the second half of a page whose first is QP 2's
 * @src: payload source
 * @dst: receive buffer
 */
struct isim_t_ud {
	struct isim_qp *a, *b;
	__le64 *sq, *brq;
	u8 *src, *dst;
};

/* an ARP entry for the function's own MAC and an IPv4 AH to itself */
static void isim_t_self_ah(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[2] = ISIM_T_LOC_MAC;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_ARP_HDR_INDEX, ISIM_T_SELF_ARP) |
			  ISIM_ARP_HDR_VALID;
	isim_t_run(t, ISIM_OP_MANAGE_ARP, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	memset(w, 0, sizeof(w));
	w[0] = ISIM_T_LOC_MAC << 16;
	w[1] = FIELD_PREP(ISIM_AH_W1_TC, 0x08);
	w[2] = FIELD_PREP(ISIM_AH_W2_ARP, ISIM_T_SELF_ARP) |
	       FIELD_PREP(ISIM_AH_W2_HOP_LIMIT, 32);
	w[4] = ISIM_T_LOC_IP;
	w[6] = ISIM_T_LOC_IP;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_SELF_AH) |
			  ISIM_AH_HDR_IPV4;
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/*
 * A RoCEv2 function with the ILQ's CQ (CQ 1, where both UD QPs complete)
 * and the self AH; QP 3 takes Q_Key @qkey_b
 */
static void isim_t_ud(struct kunit *test, struct isim_t_ud *u, u32 qkey_b)
{
	struct isim_test *t = test->priv;
	__le64 *rq;

	t->f->protocol = ISIM_AUX_ROCEV2;
	isim_t_ilq(test);
	isim_t_self_ah(test);
	u->src = isim_t_page(test);
	u->dst = isim_t_page(test);
	u->sq = isim_t_page(test);
	rq = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, u->src);
	KUNIT_ASSERT_NOT_NULL(test, u->dst);
	KUNIT_ASSERT_NOT_NULL(test, u->sq);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	u->brq = rq + 256;
	u->a = isim_t_hand_qp_type(test, ISIM_T_UD_A, ISIM_QP_TYPE_ROCE_UD,
				   FIELD_PREP(ISIM_QPC_W8_QKEY, ISIM_T_QKEY),
				   ISIM_QPS_RTS, u->sq, rq);
	u->b = isim_t_hand_qp_type(test, ISIM_T_UD_B, ISIM_QP_TYPE_ROCE_UD,
				   FIELD_PREP(ISIM_QPC_W8_QKEY, qkey_b),
				   ISIM_QPS_RTS, u->sq + 256, u->brq);
	KUNIT_ASSERT_NOT_NULL(test, u->a);
	KUNIT_ASSERT_NOT_NULL(test, u->b);
	KUNIT_ASSERT_EQ(test, u->b->qkey, qkey_b);
}

/* a signalled UD SEND of @len bytes at u->src, SQ quantum @idx of QP 2 */
static void isim_t_ud_send(struct isim_test *t, struct isim_t_ud *u, u32 idx,
			   u8 op, u32 len, u32 ah, u32 qkey)
{
	isim_t_wqe(u->sq, idx, op, isim_t_bus(t, u->src), len,
		   FIELD_PREP(ISIM_WQU_W2_QKEY, qkey) |
		   FIELD_PREP(ISIM_WQU_W2_DEST_QP, ISIM_T_UD_B),
		   FIELD_PREP(ISIM_WQH_AH, ah) | ISIM_WQH_SIGNALED);
}

/* the ICRC of an IPv4 datagram, every variant field masked by hand */
static u32 isim_t_icrc(const u8 *ip, u32 len)
{
	u8 c[256];

	if (len > sizeof(c))
		return 0;
	memcpy(c, ip, len);
	c[1] = 0xff;			/* TOS */
	c[8] = 0xff;			/* TTL */
	c[10] = 0xff;			/* header checksum */
	c[11] = 0xff;
	c[20 + 6] = 0xff;		/* UDP checksum */
	c[20 + 7] = 0xff;
	c[20 + 8 + 4] = 0xff;		/* BTH reserved byte */
	return ~crc32_le(ISIM_T_ICRC_SEED, c, len);
}

/* the one frame the engine sent: a UD SEND_ONLY from QP 2 to QP 3 */
static struct sk_buff *isim_t_ud_frame(struct kunit *test,
				       const struct isim_t_ud *u, u32 len)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->ilq->frames);
	u8 *ip, *udp, *bth;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_ASSERT_EQ(test, skb->len, (u32)ISIM_T_UD_FRAME + len + 4);
	u64_to_ether_addr(ISIM_T_LOC_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(skb->data, mac));
	ip = skb->data + ETH_HLEN;
	udp = ip + sizeof(struct iphdr);
	bth = udp + 8;
	KUNIT_EXPECT_EQ(test, ip[9], (u8)IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, ip[1], (u8)0x08);
	KUNIT_EXPECT_EQ(test, ip[8], (u8)32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp), (u16)(0xc000 | 2));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp + 2), (u16)4791);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp + 4),
			(u16)(8 + 12 + 8 + len + 4));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(udp + 6), (u16)0);
	KUNIT_EXPECT_EQ(test, bth[0], (u8)0x64);
	KUNIT_EXPECT_EQ(test, bth[1], (u8)0);	/* no SE, no pad, TVer 0 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(bth + 2), (u16)0xffff);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 4), (u32)ISIM_T_UD_B);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 12), (u32)ISIM_T_QKEY);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 16), (u32)ISIM_T_UD_A);
	KUNIT_EXPECT_EQ(test, memcmp(bth + 20, u->src, len), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(bth + 20 + len),
			isim_t_icrc(ip, bth + 20 + len - ip));
	return skb;
}

static void isim_ud_send_loopback_places_grh_and_payload(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq;
	struct isim_t_ud u;
	u64 w3;
	u32 i;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	cq = t->ilq->cq;
	for (i = 0; i < 40; i++)
		u.src[i] = i * 3 + 1;
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 128, 0, 0);
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 40, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_SEND);
	/* the switch turns the frame for our own MAC around */
	isim_t_wire_in(t, isim_t_ud_frame(test, &u, 40));
	isim_t_poll(t);

	/* 20 zero bytes, the IPv4 header, then the payload */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(u.dst, 0, 20));
	KUNIT_EXPECT_EQ(test, u.dst[20], (u8)0x45);
	KUNIT_EXPECT_EQ(test, u.dst[20 + 9], (u8)IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(u.dst + 20 + 12),
			(u32)ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(u.dst + 20 + 16),
			(u32)ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, memcmp(u.dst + 40, u.src, 40), 0);
	/* the RQ CQE, then its extension in the next slot */
	w3 = isim_t_cqe(cq, 1, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR |
				       ISIM_CQE_W3_SOLICITED));
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_EXT);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_IPV4);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_BTH_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 0), 80ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 1), 0x500ULL + ISIM_T_UD_B);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 2),
			FIELD_PREP(ISIM_CQE_W2_QP, ISIM_T_UD_B) | ISIM_T_UD_A);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W6_SMAC, isim_t_cqe(cq, 2, 2)),
			ISIM_T_LOC_MAC);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(cq, 2, 3) & ISIM_CQE_W7_SMAC_VALID);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 2, 3) &
				 (ISIM_CQE_W7_VLAN_VALID | ISIM_CQE_W7_IMM_VALID));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.rx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_UDP_TX]), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_UDP_RX]), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_RX_SENDS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_TCP_TX_SEGS]),
			0LL);
}

/* an inline SEND with immediate data and SE, 5 bytes: 3 pad bytes */
static void isim_ud_send_inline_imm_solicited(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;
	struct sk_buff *skb;
	u8 *bth;
	__le64 *q;
	u64 w3;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	q = u.sq;
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 64, 0, 0);
	q[0] = cpu_to_le64(0xfeedf00d);
	memcpy(&q[1], "hello", 5);
	q[2] = cpu_to_le64(FIELD_PREP(ISIM_WQU_W2_QKEY, ISIM_T_QKEY) |
			   FIELD_PREP(ISIM_WQU_W2_DEST_QP, ISIM_T_UD_B));
	q[3] = cpu_to_le64(FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND_SOL) |
			   FIELD_PREP(ISIM_WQH_AH, ISIM_T_SELF_AH) |
			   FIELD_PREP(ISIM_WQH_INLINE_LEN, 5) | ISIM_WQH_INLINE |
			   ISIM_WQH_IMM | ISIM_WQH_VALID);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb->len, (u32)ISIM_T_UD_FRAME + 4 + 8 + 4);
	bth = skb->data + ETH_HLEN + sizeof(struct iphdr) + 8;
	KUNIT_EXPECT_EQ(test, bth[0], (u8)0x65);
	KUNIT_EXPECT_EQ(test, bth[1], (u8)(0x80 | 3 << 4));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bth + 20), 0xfeedf00dU);
	KUNIT_EXPECT_EQ(test, memcmp(bth + 24, "hello\0\0\0", 8), 0);
	isim_t_wire_in(t, skb);
	isim_t_poll(t);
	/* unsignalled: the RQ CQE is the first */
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR));
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SOLICITED);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_BTH_SEND_ONLY_IMM);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 0), 45ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 0), 0xfeedf00dULL);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				ISIM_CQE_W7_IMM_VALID);
	KUNIT_EXPECT_EQ(test, memcmp(u.dst + 40, "hello", 5), 0);
}

static void isim_ud_wrong_qkey_is_dropped(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;

	isim_t_ud(test, &u, ISIM_T_QKEY + 1);
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 128, 0, 0);
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	isim_t_wire_in(t, isim_t_ud_frame(test, &u, 16));
	isim_t_poll(t);
	/* the SQ CQE only; the RQ WQE is still there */
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 0, 3) & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, u.b->rq.tail, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_qkey), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.rx), 0LL);

	/* a WR Q_Key with the top bit set means the sender QP's own */
	isim_t_ud_send(t, &u, 1, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       0x80000000);
	isim_t_poll(t);
	isim_t_wire_in(t, isim_t_ud_frame(test, &u, 16));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_qkey), 2LL);
}

static void isim_ud_bad_wqes_complete_in_error(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;
	u64 w3;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	/* no such AH, too long, not a SEND, then a good one */
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH + 1,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 1, ISIM_WQOP_SEND, 4097, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 2, ISIM_WQOP_WRITE, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 3, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_QP_OP);
	w3 = isim_t_cqe(t->ilq->cq, 1, 3);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_LEN);
	w3 = isim_t_cqe(t->ilq->cq, 2, 3);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_QP_OP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 2ULL);
	/* the QP is still in RTS and sent the last one */
	w3 = isim_t_cqe(t->ilq->cq, 3, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, u.a->state, (u8)ISIM_QPS_RTS);
	kfree_skb(isim_t_ud_frame(test, &u, 16));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.tx_err), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.tx), 1LL);
}

static void isim_ud_bad_icrc_or_no_rqe_is_dropped(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ud u;
	struct sk_buff *skb;

	isim_t_ud(test, &u, ISIM_T_QKEY);
	isim_t_wqe(u.brq, 0, 0, isim_t_bus(t, u.dst), 128, 0, 0);
	isim_t_ud_send(t, &u, 0, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	skb = isim_t_ud_frame(test, &u, 16);
	skb->data[skb->len - 4 - 1] ^= 0x01;	/* last payload byte */
	isim_t_wire_in(t, skb);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_icrc), 1LL);
	KUNIT_EXPECT_EQ(test, u.b->rq.tail, 0U);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);
	/* the same datagram intact lands; a second one finds no RQ WQE */
	isim_t_ud_send(t, &u, 1, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_ud_send(t, &u, 2, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->ilq->frames), 2U);
	isim_t_wire_in(t, skb_dequeue(&t->ilq->frames));
	isim_t_wire_in(t, skb_dequeue(&t->ilq->frames));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.rx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.drop_no_rqe), 1LL);
	/* a function in iWARP mode leaves RoCEv2 datagrams to the stack */
	t->f->protocol = ISIM_AUX_IWARP;
	isim_t_ud_send(t, &u, 3, ISIM_WQOP_SEND, 16, ISIM_T_SELF_AH,
		       ISIM_T_QKEY);
	isim_t_poll(t);
	skb = isim_t_ud_frame(test, &u, 16);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	KUNIT_EXPECT_FALSE(test, isim_ilq_steer(t->f, skb));
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ud.steered), 3LL);
}

static struct kunit_case isim_ud_test_cases[] = {
	KUNIT_CASE(isim_ud_send_loopback_places_grh_and_payload),
	KUNIT_CASE(isim_ud_send_inline_imm_solicited),
	KUNIT_CASE(isim_ud_wrong_qkey_is_dropped),
	KUNIT_CASE(isim_ud_bad_wqes_complete_in_error),
	KUNIT_CASE(isim_ud_bad_icrc_or_no_rqe_is_dropped),
	{}
};

static struct kunit_suite isim_ud_test_suite = {
	.name = "irdma_sim_ud",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_ud_test_cases,
};

kunit_test_suites(&isim_ud_test_suite);
