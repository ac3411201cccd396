// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the RoCEv2 RC transport (roce.c), included at the end of
 * roce.c so that its static units are reached as they are.
 *
 * The pure units (PSN arithmetic, opcodes of a segmented message, the
 * opcode sequence a responder accepts, the ICRC against a vector computed
 * outside the kernel) need no function. The requester's and responder's
 * cases run on a bare function (registers, vectors, engine state, a
 * scheduler leaf, no bus or netdev) with one RC QP in RTS whose packets a
 * transmit tap collects; each packet is then decoded as a receiver would,
 * ICRC checked.
 */
#include <kunit/test.h>

#define ISIM_RT_QPN	7
#define ISIM_RT_DQPN	9
#define ISIM_RT_LEAF	2

/**
 * struct isim_rt - a bare function with one RoCEv2 RC QP
 * @f: the function
 * @qp: its QP, in RTS
 * @r: the QP's transport state
 * @frames: packets the function sent
 */
struct isim_rt {
	struct isim_func *f;
	struct isim_qp *qp;
	struct isim_roce *r;
	struct sk_buff_head frames;
};

/* the transmit tap: the case's queue, as a wire would take them */
static void isim_rt_tap(struct isim_func *f, struct sk_buff *skb)
{
	struct kunit *test = current->kunit_test;
	struct isim_rt *t = test ? test->priv : NULL;

	if (!t) {
		kfree_skb(skb);
		return;
	}
	skb_queue_tail(&t->frames, skb);
}

static int isim_rt_init(struct kunit *test)
{
	struct isim_rt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct isim_func *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct isim_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	f->dev.dma_mask = &f->dev.coherent_dma_mask;
	f->dev.coherent_dma_mask = DMA_BIT_MASK(64);
	f->dev.init_name = "isim-kunit-roce";
	f->protocol = ISIM_AUX_ROCEV2;
	f->gen = ISIM_GEN2;
	skb_queue_head_init(&t->frames);
	t->f = f;
	KUNIT_ASSERT_EQ(test, isim_regs_init(f), 0);
	KUNIT_ASSERT_EQ(test, isim_irq_init(f), 0);
	KUNIT_ASSERT_EQ(test, isim_engine_init(f), 0);
	spin_lock_init(&f->qos_lock);
	f->qos.num_tc = 1;
	f->qos.rel_bw[0] = 100;
	f->ilq.tx_tap = isim_rt_tap;
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, 0, 0, 0, false, true), 0);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, 1, 0, 0, false, true), 0);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, ISIM_RT_LEAF, 1, 0, true, true),
			0);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_add(f, ISIM_RT_LEAF, 0), 0);
	/* the next hop's ARP entry, index 0 */
	KUNIT_EXPECT_EQ(test, xa_err(xa_store(&f->conn.arp, 0,
					      xa_mk_value(0x020000000002ULL),
					      GFP_KERNEL)), 0);
	qp->id = ISIM_RT_QPN;
	qp->dest_qp = ISIM_RT_DQPN;
	qp->type = ISIM_QP_TYPE_ROCE_RC;
	qp->state = ISIM_QPS_RTS;
	qp->qs_handle = ISIM_RT_LEAF;
	qp->rnr_retry = 2;
	INIT_LIST_HEAD(&qp->node);
	INIT_LIST_HEAD(&qp->kick);
	t->qp = qp;
	t->r = isim_roce_alloc(f, qp);
	mutex_unlock(&f->eng_lock);
	KUNIT_ASSERT_NOT_NULL(test, t->r);
	t->r->hdrs.ipv4 = true;
	t->r->hdrs.hop = 64;
	t->r->hdrs.src[0] = 0xc0000201;
	t->r->hdrs.dst[0] = 0xc0000202;
	t->r->mtu = 1024;
	t->r->retry_cnt = 1;
	t->r->rto_ms = 1000;
	t->r->rnr_left = qp->rnr_retry;
	test->priv = t;
	return 0;
}

static void isim_rt_exit(struct kunit *test)
{
	struct isim_rt *t = test->priv;

	mutex_lock(&t->f->eng_lock);
	/* progress kicks the QP: it leaves the engine's list before its memory */
	list_del_init(&t->qp->kick);
	isim_roce_free(t->f, t->qp);
	mutex_unlock(&t->f->eng_lock);
	skb_queue_purge(&t->frames);
	isim_engine_stop(t->f);
	isim_engine_exit(t->f);
	isim_irq_exit(t->f);
	isim_regs_exit(t->f);
}

/* the next packet the function sent, decoded; fails the case without one */
static void isim_rt_next(struct kunit *test, struct isim_roce_in *in)
{
	struct isim_rt *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->frames);
	u8 *l3;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	memset(in, 0, sizeof(*in));
	l3 = skb_network_header(skb);
	/* the receiver's check: the ICRC the sender computed must match */
	KUNIT_EXPECT_NULL(test, isim_roce_decode(t->f, l3,
						 skb_network_header_len(skb),
						 skb_tail_pointer(skb) - l3,
						 in));
	/* nothing after this refers to the packet's bytes */
	in->data = NULL;
	kfree_skb(skb);
}

/* @n requester entries of @pkts packets each from PSN @first on, sent */
static void isim_rt_sent(struct isim_rt *t, u32 first, const u32 *pkts,
			 unsigned int n)
{
	struct isim_roce *r = t->r;
	unsigned int i;

	r->psn_una = first;
	for (i = 0; i < n; i++) {
		struct isim_roce_swqe *e = &r->sw[i];

		memset(e, 0, sizeof(*e));
		e->idx = i;
		e->op = ISIM_WQOP_WRITE;
		e->first = first;
		e->npkts = pkts[i];
		e->len = pkts[i] * r->mtu;
		first = isim_psn_add(first, pkts[i]);
	}
	r->sw_head = 0;
	r->sw_n = n;
	r->psn_nxt = first;
	r->snd_psn = first;
	r->snd_max = first;
}

static void isim_rt_aeth(struct isim_rt *t, u8 type, u8 val, u32 psn)
{
	struct isim_roce_in in = {
		.op = ISIM_RC_ACK, .fl = isim_rc_ops[ISIM_RC_ACK], .psn = psn,
		.syn = isim_aeth(type, val),
	};

	mutex_lock(&t->f->eng_lock);
	isim_roce_aeth_in(t->f, t->qp, &in);
	mutex_unlock(&t->f->eng_lock);
}

static void isim_roce_psn_wraps_at_24_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, isim_psn_add(0xfffffe, 3), 1U);
	KUNIT_EXPECT_EQ(test, isim_psn_diff(1, 0xfffffe), 3);
	KUNIT_EXPECT_EQ(test, isim_psn_diff(0xfffffe, 1), -3);
	KUNIT_EXPECT_EQ(test, isim_psn_diff(5, 5), 0);
	/* half the circle apart: the later one is the one ahead by 2^23 - 1 */
	KUNIT_EXPECT_GT(test, isim_psn_diff(0x7fffff, 0), 0);
	KUNIT_EXPECT_LT(test, isim_psn_diff(0x800001, 0), 0);
}

static void isim_roce_req_op_segments_at_path_mtu(struct kunit *test)
{
	struct isim_roce r = { .mtu = 1024 };
	struct isim_roce_swqe w = { .op = ISIM_WQOP_WRITE };
	struct isim_roce_swqe s = { .op = ISIM_WQOP_SEND_INV };

	KUNIT_EXPECT_EQ(test, isim_roce_npkts(&r, 0), 1U);
	KUNIT_EXPECT_EQ(test, isim_roce_npkts(&r, 1024), 1U);
	KUNIT_EXPECT_EQ(test, isim_roce_npkts(&r, 1025), 2U);
	KUNIT_EXPECT_EQ(test, isim_roce_npkts(&r, 3000), 3U);
	w.npkts = 3;
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&w, ISIM_WQH_IMM, 0),
			ISIM_RC_WRITE_FIRST);
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&w, ISIM_WQH_IMM, 1),
			ISIM_RC_WRITE_MIDDLE);
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&w, ISIM_WQH_IMM, 2),
			ISIM_RC_WRITE_LAST_IMM);
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&w, 0, 2), ISIM_RC_WRITE_LAST);
	w.npkts = 1;
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&w, 0, 0), ISIM_RC_WRITE_ONLY);
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&w, ISIM_WQH_IMM, 0),
			ISIM_RC_WRITE_ONLY_IMM);
	s.npkts = 2;
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&s, 0, 0), ISIM_RC_SEND_FIRST);
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&s, 0, 1),
			ISIM_RC_SEND_LAST_INV);
	s.op = ISIM_WQOP_SEND;
	s.npkts = 1;
	KUNIT_EXPECT_EQ(test, isim_roce_req_op(&s, ISIM_WQH_IMM, 0),
			ISIM_RC_SEND_ONLY_IMM);
}

static void isim_roce_op_seq_follows_message(struct kunit *test)
{
	static const struct {
		u16 rop;
		u8 op;
		bool ok;
	} c[] = {
		{ 0, ISIM_RC_SEND_FIRST, true },
		{ 0, ISIM_RC_WRITE_ONLY, true },
		{ 0, ISIM_RC_SEND_MIDDLE, false },
		{ 0, ISIM_RC_WRITE_LAST, false },
		{ ISIM_RCF_SEND, ISIM_RC_SEND_MIDDLE, true },
		{ ISIM_RCF_SEND, ISIM_RC_SEND_LAST_IMM, true },
		{ ISIM_RCF_SEND, ISIM_RC_WRITE_MIDDLE, false },
		{ ISIM_RCF_SEND, ISIM_RC_SEND_ONLY, false },
		{ ISIM_RCF_WRITE, ISIM_RC_WRITE_LAST, true },
		{ ISIM_RCF_WRITE, ISIM_RC_READ_REQ, false },
	};
	struct isim_roce r = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		r.rop = c[i].rop;
		KUNIT_EXPECT_EQ_MSG(test, isim_roce_op_seq_ok(&r,
							      isim_rc_ops[c[i].op]),
				    c[i].ok, "opcode %#x after %#x", c[i].op,
				    c[i].rop);
	}
}

/*
 * An IPv4 RC SEND ONLY of 8 bytes to QP 0x11, PSN 0x123, AckReq, and its
 * ICRC as tools/guest/roce_icrc.py computes it (zlib's CRC-32 over the
 * masked headers, the definition rxe follows).
 */
static const u8 isim_rt_vec[52] = {
	0x45, 0x02, 0x00, 0x34, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
	0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02, 0xc0, 0x00, 0x12, 0xb7,
	0x00, 0x20, 0x00, 0x00, 0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
	0x80, 0x00, 0x01, 0x23, 0x72, 0x64, 0x6d, 0x61, 0x2d, 0x72, 0x63, 0x21,
	0xa2, 0x40, 0xf9, 0xd2,
};

static void isim_roce_icrc_known_answer(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, isim_icrc(isim_rt_vec, 20, 48),
			get_unaligned_le32(isim_rt_vec + 48));
}

static void isim_roce_decode_checks_icrc(struct kunit *test)
{
	struct isim_rt *t = test->priv;
	struct isim_roce_in in = {};
	u8 pkt[sizeof(isim_rt_vec)];

	memcpy(pkt, isim_rt_vec, sizeof(pkt));
	KUNIT_ASSERT_NULL(test, isim_roce_decode(t->f, pkt, 20, 52, &in));
	KUNIT_EXPECT_EQ(test, in.op, ISIM_RC_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, in.dqp, 0x11U);
	KUNIT_EXPECT_EQ(test, in.psn, 0x123U);
	KUNIT_EXPECT_TRUE(test, in.ackreq);
	KUNIT_EXPECT_EQ(test, in.len, 8U);
	KUNIT_EXPECT_EQ(test, memcmp(in.data, "rdma-rc!", 8), 0);
	/* the fields routers change are not covered: a new TTL passes */
	pkt[8] = 3;
	KUNIT_EXPECT_NULL(test, isim_roce_decode(t->f, pkt, 20, 52, &in));
	/* a payload byte is */
	pkt[45] ^= 1;
	KUNIT_EXPECT_PTR_EQ(test, isim_roce_decode(t->f, pkt, 20, 52, &in),
			    &t->f->roce.drop_icrc);
	pkt[45] ^= 1;
	/* the receive corrupt knob spoils the next one */
	atomic_set(&t->f->roce.corrupt_rx, 1);
	KUNIT_EXPECT_PTR_EQ(test, isim_roce_decode(t->f, pkt, 20, 52, &in),
			    &t->f->roce.drop_icrc);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.corrupted), 1);
	/* a UDP length that is not the datagram's */
	pkt[47 - 22] = 0x10;
	KUNIT_EXPECT_PTR_EQ(test, isim_roce_decode(t->f, pkt, 20, 52, &in),
			    &t->f->roce.drop_bad);
}

static void isim_roce_ack_coalesces_and_retires(struct kunit *test)
{
	static const u32 pkts[] = { 3, 1, 2 };
	struct isim_rt *t = test->priv;
	struct isim_roce *r = t->r;

	isim_rt_sent(t, 100, pkts, ARRAY_SIZE(pkts));
	/* inside the first message: it stays */
	isim_rt_aeth(t, ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS, 101);
	KUNIT_EXPECT_EQ(test, r->psn_una, 102U);
	KUNIT_EXPECT_EQ(test, r->sw_n, 3U);
	/* one ACK for the first two messages */
	isim_rt_aeth(t, ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS, 103);
	KUNIT_EXPECT_EQ(test, r->psn_una, 104U);
	KUNIT_EXPECT_EQ(test, r->sw_n, 1U);
	KUNIT_EXPECT_EQ(test, isim_roce_sw(r, 0)->first, 104U);
	/* an old ACK and one past what was sent change nothing */
	isim_rt_aeth(t, ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS, 102);
	isim_rt_aeth(t, ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS, 106);
	KUNIT_EXPECT_EQ(test, r->psn_una, 104U);
	KUNIT_EXPECT_EQ(test, r->sw_n, 1U);
	isim_rt_aeth(t, ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS, 105);
	KUNIT_EXPECT_EQ(test, r->sw_n, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.acks_rx), 5);
	KUNIT_EXPECT_EQ(test, t->qp->state, (u8)ISIM_QPS_RTS);
}

static void isim_roce_seq_nak_goes_back_then_gives_up(struct kunit *test)
{
	static const u32 pkts[] = { 4 };
	struct isim_rt *t = test->priv;
	struct isim_roce *r = t->r;

	isim_rt_sent(t, 0xfffffe, pkts, 1);
	/* the responder got two, expects the third: send again from it */
	isim_rt_aeth(t, ISIM_AETH_NAK, ISIM_NAK_SEQ, 0);
	KUNIT_EXPECT_EQ(test, r->psn_una, 0U);
	KUNIT_EXPECT_EQ(test, r->snd_psn, 0U);
	KUNIT_EXPECT_EQ(test, r->retries, 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.seq_naks_rx), 1);
	/* a NAK of a PSN before the oldest one is stale */
	isim_rt_aeth(t, ISIM_AETH_NAK, ISIM_NAK_SEQ, 0xffffff);
	KUNIT_EXPECT_EQ(test, r->sw_n, 1U);
	KUNIT_EXPECT_EQ(test, r->psn_una, 0U);
	KUNIT_EXPECT_EQ(test, t->qp->state, (u8)ISIM_QPS_RTS);
	/* retry_cnt is 1: the next one fails the WQE, the QP errs */
	mutex_lock(&t->f->eng_lock);
	isim_roce_retry(t->f, t->qp);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, r->sw_n, 0U);
	KUNIT_EXPECT_TRUE(test, r->halted);
	KUNIT_EXPECT_EQ(test, t->qp->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.gave_up), 1);
}

static void isim_roce_rnr_nak_waits_its_timer(struct kunit *test)
{
	static const u32 pkts[] = { 1, 1 };
	struct isim_rt *t = test->priv;
	struct isim_roce *r = t->r;

	isim_rt_sent(t, 10, pkts, 2);
	/* the first was taken, the second found no receive: 20.48 ms */
	isim_rt_aeth(t, ISIM_AETH_RNR, ISIM_ROCE_RNR_TIMER, 11);
	KUNIT_EXPECT_EQ(test, r->psn_una, 11U);
	KUNIT_EXPECT_EQ(test, r->sw_n, 1U);
	KUNIT_EXPECT_TRUE(test, r->rnr_wait);
	KUNIT_EXPECT_EQ(test, r->snd_psn, 11U);
	KUNIT_EXPECT_EQ(test, r->rnr_left, 1);
	KUNIT_EXPECT_EQ(test, isim_rnr_timer_10us[ISIM_ROCE_RNR_TIMER] * 10,
			20480U);
	KUNIT_EXPECT_TRUE(test, time_after(r->rnr_until, jiffies));
	/* the RNR retry count runs out after two more */
	r->rnr_wait = false;
	isim_rt_aeth(t, ISIM_AETH_RNR, ISIM_ROCE_RNR_TIMER, 11);
	KUNIT_EXPECT_EQ(test, r->rnr_left, 0);
	r->rnr_wait = false;
	isim_rt_aeth(t, ISIM_AETH_RNR, ISIM_ROCE_RNR_TIMER, 11);
	KUNIT_EXPECT_EQ(test, r->sw_n, 0U);
	KUNIT_EXPECT_EQ(test, t->qp->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.rnr_naks_rx), 3);
}

/* a WRITE ONLY request of no payload with PSN @psn, for the responder */
static void isim_rt_req(struct kunit *test, u32 psn)
{
	struct isim_rt *t = test->priv;
	struct isim_roce_in in = {
		.op = ISIM_RC_WRITE_ONLY, .fl = isim_rc_ops[ISIM_RC_WRITE_ONLY],
		.psn = psn, .ackreq = true, .dqp = ISIM_RT_QPN,
	};
	struct isim_xfer *xp = NULL, *x;

	mutex_lock(&t->f->eng_lock);
	x = isim_xfer_get(&xp, t->f);
	KUNIT_EXPECT_NOT_NULL(test, x);
	if (x)
		isim_roce_req_in(x, t->qp, &in);
	isim_xfer_put(xp);
	isim_roce_run(t->f, ISIM_WQE_BUDGET);
	mutex_unlock(&t->f->eng_lock);
}

static void isim_roce_responder_naks_gap_once_acks_dup(struct kunit *test)
{
	struct isim_rt *t = test->priv;
	struct isim_roce *r = t->r;
	struct isim_roce_in in;

	r->epsn = 50;
	/* 50 and 51 lost: one sequence NAK naming 50, not one per packet */
	isim_rt_req(test, 52);
	isim_rt_req(test, 53);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->frames), 1U);
	isim_rt_next(test, &in);
	KUNIT_EXPECT_EQ(test, in.op, ISIM_RC_ACK);
	KUNIT_EXPECT_EQ(test, in.dqp, ISIM_RT_DQPN);
	KUNIT_EXPECT_EQ(test, in.psn, 50U);
	KUNIT_EXPECT_EQ(test, in.syn, isim_aeth(ISIM_AETH_NAK, ISIM_NAK_SEQ));
	/* 50 comes: placed (a zero-length WRITE) and acknowledged */
	isim_rt_req(test, 50);
	KUNIT_EXPECT_EQ(test, r->epsn, 51U);
	isim_rt_next(test, &in);
	KUNIT_EXPECT_EQ(test, in.psn, 50U);
	KUNIT_EXPECT_EQ(test, in.syn, isim_aeth(ISIM_AETH_ACK,
						ISIM_AETH_NO_CREDITS));
	/* 50 again: a duplicate, acknowledged again, nothing placed */
	isim_rt_req(test, 50);
	KUNIT_EXPECT_EQ(test, r->epsn, 51U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.dups), 1);
	isim_rt_next(test, &in);
	KUNIT_EXPECT_EQ(test, in.psn, 50U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_AETH_TYPE, in.syn), ISIM_AETH_ACK);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->frames), 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.seq_naks_tx), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->roce.drop_icrc), 0);
}

static struct kunit_case isim_roce_cases[] = {
	KUNIT_CASE(isim_roce_psn_wraps_at_24_bits),
	KUNIT_CASE(isim_roce_req_op_segments_at_path_mtu),
	KUNIT_CASE(isim_roce_op_seq_follows_message),
	KUNIT_CASE(isim_roce_icrc_known_answer),
	KUNIT_CASE(isim_roce_decode_checks_icrc),
	KUNIT_CASE(isim_roce_ack_coalesces_and_retires),
	KUNIT_CASE(isim_roce_seq_nak_goes_back_then_gives_up),
	KUNIT_CASE(isim_roce_rnr_nak_waits_its_timer),
	KUNIT_CASE(isim_roce_responder_naks_gap_once_acks_dup),
	{}
};

static struct kunit_suite isim_roce_suite = {
	.name = "irdma_sim_roce",
	.init = isim_rt_init,
	.exit = isim_rt_exit,
	.test_cases = isim_roce_cases,
};

kunit_test_suites(&isim_roce_suite);
