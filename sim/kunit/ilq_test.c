// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_ilq (and irdma_sim_ilq_gen1 on an X722 function):
 * the ILQ: transmit headers, sends before a DESTROY_AH, SYN steering, bad
 * commands, gen1 frames.
 * Included at the end of sim/ilq.c.
 */
#include "harness.h"

static void isim_t_check_v4_frame(struct kunit *test, struct sk_buff *skb,
				  u32 seg)
{
	struct ethhdr *eh = (struct ethhdr *)skb->data;
	struct iphdr *ih = (struct iphdr *)(eh + 1);
	struct tcphdr *th = (struct tcphdr *)(ih + 1);
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + sizeof(*ih) + seg));
	u64_to_ether_addr(ISIM_T_REM_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_dest, mac));
	u64_to_ether_addr(ISIM_T_LOC_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_source, mac));
	KUNIT_EXPECT_EQ(test, ntohs(eh->h_proto), (u16)ETH_P_IP);
	KUNIT_EXPECT_TRUE(test, ih->version == 4 && ih->ihl == 5);
	KUNIT_EXPECT_EQ(test, ih->tos, (u8)0x10);
	KUNIT_EXPECT_EQ(test, ih->ttl, (u8)64);
	KUNIT_EXPECT_EQ(test, ih->protocol, (u8)IPPROTO_TCP);
	KUNIT_EXPECT_EQ(test, ntohs(ih->tot_len), (u16)(sizeof(*ih) + seg));
	KUNIT_EXPECT_EQ(test, ntohl(ih->saddr), ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, ntohl(ih->daddr), ISIM_T_REM_IP);
	KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(ih, ih->ihl), (u16)0);
	KUNIT_EXPECT_EQ(test,
			(__force u16)csum_tcpudp_magic(ih->saddr, ih->daddr,
						       seg, IPPROTO_TCP,
						       csum_partial(th, seg, 0)),
			(u16)0);
	KUNIT_EXPECT_EQ(test, ntohs(th->dest), (u16)6000);
	KUNIT_EXPECT_EQ(test, ((u8 *)th)[sizeof(*th) + 7], (u8)0xa7);
}

/* gen1 ILQ send of the @len-byte frame at byte @off of the buffers */
static void isim_t_ilq_g1_send(struct isim_test *t, u32 idx, u32 off,
			       u32 len, u64 w2, u64 hdr)
{
	__le64 *q = t->ilq->rings + idx * 4;

	q[0] = cpu_to_le64(isim_t_bus(t, t->ilq->bufs + off));
	q[1] = cpu_to_le64(FIELD_PREP(ISIM_FRAG_G1_LEN, len));
	q[2] = cpu_to_le64(w2);
	q[3] = cpu_to_le64(FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) | hdr |
			   ISIM_WQH_SIGNALED | ISIM_WQH_VALID);
}

/* a whole IPv4 frame to the peer, as the gen1 CM builds one: 62 bytes */
static u32 isim_t_g1_frame(u8 *p, __be16 proto)
{
	struct ethhdr *eh = (struct ethhdr *)p;
	struct iphdr *ih = (struct iphdr *)(eh + 1);

	u64_to_ether_addr(ISIM_T_REM_MAC, eh->h_dest);
	u64_to_ether_addr(ISIM_T_LOC_MAC, eh->h_source);
	eh->h_proto = proto;
	memset(ih, 0, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->ttl = 64;
	ih->protocol = IPPROTO_TCP;
	ih->tot_len = htons(sizeof(*ih) + 28);
	ih->saddr = htonl(ISIM_T_LOC_IP);
	ih->daddr = htonl(ISIM_T_REM_IP);
	ih->check = ip_fast_csum(ih, ih->ihl);
	isim_t_tcp((u8 *)(ih + 1), 5000, 6000, 0x02, 8);
	return ETH_HLEN + sizeof(*ih) + 28;
}

#define ISIM_T_G1_W2	(FIELD_PREP(ISIM_ILQ_G1_W2_MACLEN, ETH_HLEN / 2) | \
			 FIELD_PREP(ISIM_ILQ_G1_W2_IPLEN, 5) | \
			 FIELD_PREP(ISIM_ILQ_G1_W2_L4LEN, 5))

/*
 * The gen1 ILQ sends the driver's frame as it is; with the loopback bit
 * the frame stays in the function (no offloaded connection takes it
 * here: counted, completed without error); a frame that is not IP, or
 * shorter than word 2 says, completes in error.
 */
static void isim_ilq_gen1_sends_frame_as_is(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	u32 len, bad;
	int i;

	isim_t_ilq(test);
	len = isim_t_g1_frame(t->ilq->bufs, htons(ETH_P_IP));
	bad = isim_t_g1_frame(t->ilq->bufs + 256, htons(ETH_P_ARP));
	isim_t_ilq_g1_send(t, 0, 0, len, ISIM_T_G1_W2, 0);
	isim_t_ilq_g1_send(t, 1, 0, len, ISIM_T_G1_W2,
			   ISIM_ILQ_G1_HDR_LOOPBACK);
	isim_t_ilq_g1_send(t, 2, 256, bad, 0, 0);
	isim_t_ilq_g1_send(t, 3, 0, ETH_HLEN + 20 + 16, ISIM_T_G1_W2, 0);
	isim_t_poll(t);

	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, len);
	KUNIT_EXPECT_EQ(test, memcmp(skb->data, t->ilq->bufs, len), 0);
	KUNIT_EXPECT_EQ(test, skb_network_offset(skb), ETH_HLEN);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	for (i = 0; i < 4; i++) {
		u64 w3 = isim_t_cqe(t->ilq->cq, i, 3);

		KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3),
				(u64)i);
		KUNIT_EXPECT_EQ(test, !!(w3 & ISIM_CQE_W3_ERROR), i >= 2);
		if (i >= 2)
			KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
					(u64)ISIM_WC_LOC_QP_OP);
	}
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W0_BYTES,
					isim_t_cqe(t->ilq->cq, 0, 0)),
			(u64)len);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx_err), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.ieq_bad), 1LL);
}

/*
 * The raw queues are scheduled like any QP: the ILQ on a disabled leaf
 * sends nothing, and its frame goes once the leaf is enabled again.
 */
static void isim_ilq_disabled_leaf_holds_sends(struct kunit *test)
{
	struct isim_test *t = test->priv;

	isim_t_ilq(test);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, ISIM_T_LEAF, 1, 0,
					ISIM_WS_HDR_LEAF), 0U);
	isim_t_tcp(t->ilq->bufs, 5000, 6000, 0x02, 8);
	isim_t_ilq_send(t, 0, 28, ISIM_T_ILQ_AH);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
			   ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, t->f->sched.unsched, 1ULL);
	/* the MODIFY's own pass takes it */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, ISIM_T_LEAF, 1, 0,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames), 1U);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
			  ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, t->f->sched.unsched, 1ULL);
}

static void isim_ilq_transmit_adds_headers(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	u64 w3;

	isim_t_ilq(test);
	isim_t_tcp(t->ilq->bufs, 5000, 6000, 0x02, 8);
	isim_t_ilq_send(t, 0, 28, ISIM_T_ILQ_AH);
	/* an AH that does not exist: the WQE completes in error */
	isim_t_ilq_send(t, 1, 28, ISIM_T_ILQ_AH + 1);
	isim_t_poll(t);

	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	isim_t_check_v4_frame(test, skb, 28);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 0ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 1), 0xabc0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W2_QP,
					isim_t_cqe(t->ilq->cq, 0, 2)),
			(u64)ISIM_T_ILQ);
	w3 = isim_t_cqe(t->ilq->cq, 1, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_LOC_QP_OP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 1ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx_err), 1LL);
	/* the engine's counters: one IPv4 packet, its IP header and segment */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_TX_PKTS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_TX_OCTETS]),
			(s64)sizeof(struct iphdr) + 28);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_TCP_TX_SEGS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP6_TX_PKTS]),
			0LL);

	/* the drop knob loses the next frame; the WQE still completes */
	atomic_set(&t->f->faults.drop_cm, 1);
	isim_t_ilq_send(t, 2, 28, ISIM_T_ILQ_AH);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 2, 3) &
				ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.dropped), 1LL);
}

/*
 * The CM's last segment, then its AH destroyed at once, both posted before
 * one pass (upstream's RST on a closing connection): the segment goes out
 * through the AH, and the QP's shadow area shows the SQ tail after it.
 */
static void isim_ilq_send_outlives_destroyed_ah(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *sa = t->shadow + 64 / 8;
	struct sk_buff *skb;
	u64 w[8] = {};

	isim_t_ilq(test);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_QPSA_SQ_TAIL, le64_to_cpu(*sa)),
			0ULL);
	isim_t_tcp(t->ilq->bufs, 5000, 6000, 0x04, 8);
	isim_t_ilq_send(t, 0, 28, ISIM_T_ILQ_AH);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH);
	isim_t_run(t, ISIM_OP_DESTROY_AH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);

	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	isim_t_check_v4_frame(test, skb, 28);
	kfree_skb(skb);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
			   ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx_err), 0LL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_QPSA_SQ_TAIL, le64_to_cpu(*sa)),
			1ULL);

	/* a send after the destroy finds no AH */
	isim_t_ilq_send(t, 1, 28, ISIM_T_ILQ_AH);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR,
					isim_t_cqe(t->ilq->cq, 1, 3)),
			(u64)ISIM_WC_LOC_QP_OP);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.tx_err), 1LL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_QPSA_SQ_TAIL, le64_to_cpu(*sa)),
			2ULL);
}

/* a listener filter on 192.0.2.1:5000 for the ILQ */
static void isim_t_syn_filter(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 qh[8] = {};

	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, 5000) |
		FIELD_PREP(ISIM_QH_W1_QPN, ISIM_T_ILQ);
	qh[6] = ISIM_T_LOC_IP;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, ISIM_QH_TCP_SYN) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* offer a frame to the filters; one the engine did not take is freed */
static bool isim_t_steer(struct kunit *test, u16 dport, u8 flags, u16 vlan)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = isim_t_rx_frame(test, dport, flags, vlan);

	if (isim_ilq_steer(t->f, skb))
		return true;
	kfree_skb(skb);
	return false;
}

static void isim_ilq_syn_filter_steers_to_rq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *rq;
	u8 *buf;
	u64 w3;

	isim_t_ilq(test);
	rq = t->ilq->rings + 8 * 4;
	buf = t->ilq->bufs + 1024;
	isim_t_syn_filter(test);
	memset(buf, 0xee, 512);
	isim_t_wqe(rq, 0, 0, isim_t_bus(t, buf), 512, 0, 0);

	/* not for the filter: another port, not a SYN, another VLAN */
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5001, 0x02, 0));
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5000, 0x10, 0));
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5000, 0x12, 0));
	KUNIT_EXPECT_FALSE(test, isim_t_steer(test, 5000, 0x02, 7));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 0LL);
	/* what the stack keeps is not the engine's to count */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_RX_PKTS]),
			0LL);
	/* a SYN to the listener lands in the RQ buffer */
	KUNIT_EXPECT_TRUE(test, isim_t_steer(test, 5000, 0x02, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_IP4_RX_PKTS]),
			1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_TCP_RX_SEGS]),
			1LL);
	isim_t_poll(t);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, ISIM_ILQ_RX_IPV4_OFF));
	KUNIT_EXPECT_EQ(test, buf[ISIM_ILQ_RX_IPV4_OFF], (u8)0x45);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf + 40 + 2), (u16)5000);
	KUNIT_EXPECT_EQ(test, buf[40 + 13], (u8)0x02);
	KUNIT_EXPECT_EQ(test, buf[40 + 20 + 3], (u8)0xa3);
	KUNIT_EXPECT_EQ(test, buf[40 + 24], (u8)0xee);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR));
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_IPV4);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_EXT);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W0_BYTES,
					isim_t_cqe(t->ilq->cq, 0, 0)),
			40ULL + 24);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 1), 0xabc0ULL);
	/* the extension: the source MAC, no VLAN */
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 2),
			(u64)ISIM_T_REM_MAC);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 3) &
			      (ISIM_CQE_W7_SMAC_VALID | ISIM_CQE_W7_VLAN_VALID),
			ISIM_CQE_W7_SMAC_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.rx), 1LL);

	/* no RQ buffer posted: the next SYN is taken, dropped and counted */
	KUNIT_EXPECT_TRUE(test, isim_t_steer(test, 5000, 0x02, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 2, 3) &
				 ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.dropped), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.rx), 1LL);
}

static void isim_ilq_bad_commands_fail(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;
	u64 w[8] = {};

	isim_t_ilq(test);
	/* a second ILQ on the same id, one beyond the committed QPs */
	isim_t_ilq_qp_post(test, ISIM_T_ILQ);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	isim_t_ilq_qp_post(test, 4);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	/* an ARP entry beyond the committed ones */
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_ARP_HDR_INDEX, 4) |
			  ISIM_ARP_HDR_VALID;
	isim_t_run(t, ISIM_OP_MANAGE_ARP, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	/* a qhash filter of an unknown type */
	memset(w, 0, sizeof(w));
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, 7) |
			  FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	/* the AH exists already */
	memset(w, 0, sizeof(w));
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH);
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);
	/* an AH beyond the HMC's FSIAV contexts */
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_AHS);
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_ID);
	/* the QP still runs: nothing above changed it */
	qp = xa_load(&t->f->qps, ISIM_T_ILQ);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
}

/*
 * A pass whose time went on CQP commands still places ISIM_ILQ_RX_MIN
 * frames: with a pass budget of a few ms, a busy CQP would otherwise hold
 * the CM's frames back for as long as commands keep coming.
 */
static void isim_ilq_pass_over_takes_a_few(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u32 i, n = ISIM_ILQ_RX_MIN + 4;

	isim_t_ilq(test);
	isim_t_syn_filter(test);
	/* no RQ buffer posted: each frame placed is counted as dropped */
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, isim_t_steer(test, 5000, 0x02, 0));
	mutex_lock(&t->f->eng_lock);
	t->f->pass_end_ns = 0;
	KUNIT_EXPECT_TRUE(test, isim_ilq_run(t->f, ISIM_WQE_BUDGET));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->f->ilq.rxq), n - ISIM_ILQ_RX_MIN);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.dropped),
			(s64)ISIM_ILQ_RX_MIN);
	mutex_unlock(&t->f->eng_lock);
}

static struct kunit_case isim_ilq_test_cases[] = {
	KUNIT_CASE(isim_ilq_transmit_adds_headers),
	KUNIT_CASE(isim_ilq_disabled_leaf_holds_sends),
	KUNIT_CASE(isim_ilq_send_outlives_destroyed_ah),
	KUNIT_CASE(isim_ilq_syn_filter_steers_to_rq),
	KUNIT_CASE(isim_ilq_pass_over_takes_a_few),
	KUNIT_CASE(isim_ilq_bad_commands_fail),
	{}
};

static struct kunit_suite isim_ilq_test_suite = {
	.name = "irdma_sim_ilq",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_ilq_test_cases,
};

/* the same on a function modelling an X722 (gen1) */
static struct kunit_case isim_ilq_gen1_test_cases[] = {
	KUNIT_CASE(isim_ilq_gen1_sends_frame_as_is),
	{}
};

static struct kunit_suite isim_ilq_gen1_test_suite = {
	.name = "irdma_sim_ilq_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_ilq_gen1_test_cases,
};

kunit_test_suites(&isim_ilq_test_suite, &isim_ilq_gen1_test_suite);
