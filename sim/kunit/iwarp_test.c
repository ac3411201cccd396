// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_iwarp: iWARP between two offloaded QPs of one
 * function: SEND, WRITE and READ over the wire, CRC, bad STags, TERMINATE,
 * lost segments, partial FPDUs. Included at the end of sim/toe.c.
 */
#include "harness.h"

static u8 *isim_t_q2(struct isim_t_toe *m)
{
	return (u8 *)m->ctx + ISIM_T_Q2_OFF;
}

/*
 * RFC 6581's RTR as a zero-length READ request, sink and source STag 1,
 * TO 0, QN 1, MSN 1, and its CRC32c 0xe7d7db27
 */
static const u8 isim_t_rtr_read[] = {
	0x00, 0x2e, 0x41, 0x41, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x27, 0xdb, 0xd7, 0xe7,
};

/* append the CRC32c of the first @len bytes of an FPDU */
static void isim_t_crc(u8 *fpdu, u32 len)
{
	put_unaligned_le32(~__crc32c_le(~0U, fpdu, len), fpdu + len);
}

static void isim_iw_rtr_read_waits_for_response(struct kunit *test)
{
	/* a zero-length READ RESPONSE to STag 1, TO 0; CRC below */
	u8 resp[20] = { 0x00, 0x0e, 0xc1, 0x42, 0x00, 0x00, 0x00, 0x01 };
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u64 w3;
	u32 id;

	qp = isim_t_toe_up(test, &m);
	/* a signalled zero-length READ RTR, then NOP and GEN_RTS_AE */
	isim_t_wqe(m->sq, 0, ISIM_WQOP_READ, 0, 0, 0,
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, 1) | ISIM_WQH_SIGNALED);
	m->sq[1] |= cpu_to_le64(FIELD_PREP(ISIM_FRAG_STAG, 1));
	isim_t_wqe(m->sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(m->sq, 2, ISIM_WQOP_GEN_RTS_AE, 0, 0, 0, 0);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb->len,
			(u32)(ETH_HLEN + 40 + sizeof(isim_t_rtr_read)));
	KUNIT_EXPECT_EQ(test, memcmp(skb->data + ETH_HLEN + 40,
				     isim_t_rtr_read, sizeof(isim_t_rtr_read)),
			0);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt,
			(u32)(ISIM_T_SND_NXT + sizeof(isim_t_rtr_read)));
	/* the READ holds the SQ until its response: no CQE, no AE yet */
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
				 ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_TRUE(test, qp->toe.rd_busy);

	/* the zero-length READ RESPONSE completes it */
	isim_t_crc(resp, 16);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18, ISIM_T_RCV_NXT,
						   resp, sizeof(resp)));
	isim_t_poll(t);
	isim_t_poll(t);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_READ);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 0, 1),
			(u64)ISIM_T_IW_CTX);
	KUNIT_EXPECT_FALSE(test, qp->toe.rd_busy);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, qp->executed, 3ULL);

	/* a second response has no READ to go to */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18,
						   ISIM_T_RCV_NXT + 20,
						   resp, sizeof(resp)));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 1, &id),
			(u64)ISIM_AE_RDMAP_BAD_READ_RESP);
	/* the QP halts for the driver; its connection stays offloaded */
	KUNIT_EXPECT_TRUE(test, qp->term_halted);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
}

/* ---- iWARP data between two offloaded QPs of one function ---- */

#define ISIM_T_IWQP_B		3
#define ISIM_T_STAG		0x15a	/* MR 1, key 0x5a: all of memory */
#define ISIM_T_BAD_STAG		0x25a	/* no such MR */

/**
 * struct isim_t_pair - QP 2 and QP 3, the two ends of one connection
 * @a: QP 2's memory (its AEQ is the function's)
 * @b: QP 3's memory
 * @qa: QP 2
 * @qb: QP 3
 */
struct isim_t_pair {
	struct isim_t_toe *a, *b;
	struct isim_qp *qa, *qb;
};

/*
 * both QPs in RTS, offloaded, remote write and read allowed, MR 1; QP 3's
 * context names @ieq as its IEQ (0: none)
 */
static void isim_t_pair_ieq(struct kunit *test, struct isim_t_pair *p,
			    u16 ieq)
{
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	u64 ports;

	p->a = isim_t_toe(test, ISIM_T_IWQP);
	p->b = kunit_kzalloc(test, sizeof(*p->b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->b);
	p->b->ctx = isim_t_page(test);
	p->b->sq = isim_t_page(test);
	p->b->buf = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, p->b->buf);
	p->b->aeq = p->a->aeq;
	isim_t_stag(t, ISIM_OP_REG_MR, 1, 0, 0, ISIM_T_MR |
		    ISIM_STAG_HDR_REMOTE |
		    ISIM_T_RIGHTS(ISIM_T_LW | ISIM_T_RW | ISIM_T_RR), 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);

	isim_t_toe_ctx(t, p->a, ctx);
	ctx[20] |= ISIM_QPC_W20_REMOTE_WRITE | ISIM_QPC_W20_REMOTE_READ;
	isim_t_toe_cmd(t, p->a, ISIM_OP_MODIFY_QP, ISIM_T_IWQP, ISIM_QPS_RTS,
		       true, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);

	/* the mirror image: addresses, ports and sequence numbers swapped */
	isim_t_toe_ctx(t, p->b, ctx);
	ctx[20] |= ISIM_QPC_W20_REMOTE_WRITE | ISIM_QPC_W20_REMOTE_READ;
	ports = ISIM_QPC_W3_SRC_PORT | ISIM_QPC_W3_DST_PORT;
	ctx[3] = (ctx[3] & ~ports) |
		 FIELD_PREP(ISIM_QPC_W3_SRC_PORT, ISIM_T_RPORT) |
		 FIELD_PREP(ISIM_QPC_W3_DST_PORT, ISIM_T_LPORT);
	ctx[ISIM_QPC_W_REM_ADDR] = ISIM_T_LOC_IP;
	ctx[ISIM_QPC_W_LOC_ADDR] = ISIM_T_REM_IP;
	ctx[22] |= FIELD_PREP(ISIM_QPC_W22_EXCEPTION_Q, ieq);
	ctx[10] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_RCV_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, 0xffff);
	ctx[11] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_SND_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, ISIM_T_RCV_WND);
	isim_t_toe_cmd(t, p->b, ISIM_OP_CREATE_QP, ISIM_T_IWQP_B, ISIM_QPS_IDLE,
		       false, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_cmd(t, p->b, ISIM_OP_MODIFY_QP, ISIM_T_IWQP_B, ISIM_QPS_RTS,
		       true, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	p->qa = xa_load(&t->f->qps, ISIM_T_IWQP);
	p->qb = xa_load(&t->f->qps, ISIM_T_IWQP_B);
	KUNIT_ASSERT_NOT_NULL(test, p->qa);
	KUNIT_ASSERT_NOT_NULL(test, p->qb);
}

static void isim_t_pair(struct kunit *test, struct isim_t_pair *p)
{
	isim_t_pair_ieq(test, p, 0);
}

/* run the engine, turning every frame around, until it is quiet */
static u32 isim_t_wire(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	u32 n = 0, i;

	for (i = 0; i < 32; i++) {
		isim_t_poll(t);
		if (skb_queue_empty(&t->ilq->frames))
			break;
		while ((skb = skb_dequeue(&t->ilq->frames))) {
			isim_t_wire_in(t, skb);
			n++;
		}
	}
	return n;
}

/* CQE @i of the ILQ's CQ (both QPs complete there): word 3, QP checked */
static u64 isim_t_iw_cqe(struct kunit *test, u32 i, u32 qpn)
{
	struct isim_test *t = test->priv;
	u64 w3 = isim_t_cqe(t->ilq->cq, i, 3);

	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W2_QP,
					isim_t_cqe(t->ilq->cq, i, 2)),
			(u64)qpn);
	return w3;
}

static void isim_iw_send_write_read_over_the_wire(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u8 *src, *dst, *wr, *rd;
	u64 w3;
	u32 i;

	isim_t_pair(test, &p);
	src = (u8 *)p.a->buf;
	dst = (u8 *)p.b->buf;
	wr = isim_t_page(test);
	rd = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	for (i = 0; i < PAGE_SIZE; i++)
		src[i] = i * 7 + 3;

	/* SEND with SE of 3000 bytes: DDP segments of 1436, 1436, 128 */
	isim_t_wqe(p.b->sq + 256, 0, 0, isim_t_bus(t, dst), PAGE_SIZE, 0, 0);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_SEND_SOL, isim_t_bus(t, src), 3000, 0,
		   ISIM_WQH_SIGNALED);
	/* three FPDUs that arrive in one pass: one pure ACK covers them */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 4U);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3000), 0);
	KUNIT_EXPECT_EQ(test, dst[3000], 0);
	w3 = isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_SEND_SOL);
	w3 = isim_t_iw_cqe(test, 1, ISIM_T_IWQP_B);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SOLICITED);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 0), 3000ULL);
	/* 2 + 18 + payload + pad + 4 bytes per FPDU: 1460, 1460, 152 */
	KUNIT_EXPECT_EQ(test, p.qa->toe.snd_nxt, (u32)ISIM_T_SND_NXT + 3072);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, p.qa->toe.rcv_nxt, p.qb->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_msn[0], 2U);

	/* WRITE of 2000 bytes into MR 1: two FPDUs, one ACK */
	isim_t_wqe(p.a->sq, 1, ISIM_WQOP_WRITE, isim_t_bus(t, src + 100), 2000,
		   isim_t_bus(t, wr),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_STAG) |
		   ISIM_WQH_SIGNALED);
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 3U);
	KUNIT_EXPECT_EQ(test, memcmp(src + 100, wr, 2000), 0);
	KUNIT_EXPECT_EQ(test, wr[2000], 0);
	w3 = isim_t_iw_cqe(test, 2, ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_WRITE);
	/* no RQ WQE taken: the next CQE slot is empty */
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 3, 3) &
				 ISIM_CQE_W3_VALID);

	/* READ of 2500 bytes back through MR 1 into a sink of MR 1 */
	isim_t_wqe(p.a->sq, 2, ISIM_WQOP_READ, isim_t_bus(t, rd), 2500,
		   isim_t_bus(t, wr),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_STAG) |
		   ISIM_WQH_SIGNALED);
	p.a->sq[2 * 4 + 1] |= cpu_to_le64(FIELD_PREP(ISIM_FRAG_STAG,
						     ISIM_T_STAG));
	/* the request, two READ RESPONSEs (which ACK it), one ACK */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 4U);
	KUNIT_EXPECT_EQ(test, memcmp(rd, src + 100, 2000), 0);
	KUNIT_EXPECT_EQ(test, memcmp(rd + 2000, wr + 2000, 500), 0);
	w3 = isim_t_iw_cqe(test, 3, ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_WQOP_READ);
	KUNIT_EXPECT_EQ(test, p.qa->executed, 3ULL);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.rd_busy);
	KUNIT_EXPECT_EQ(test, p.qa->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(p.a->aeq[1]) & ISIM_AEQE_VALID);
}

/* the FPDU of the frame the engine wrote to @m's Q2, past its headers */
static const u8 *isim_t_q2_fpdu(struct isim_t_toe *m)
{
	const u8 *ip = isim_t_q2(m) + ISIM_Q2_FRAME_OFF + ETH_HLEN;
	const u8 *tcp = ip + (ip[0] & 0x0f) * 4;

	return tcp + (tcp[12] >> 4) * 4;
}

/* which of the first @n AEQEs of @m's AEQ is @code about QP @id, or -1 */
static int isim_t_find_ae(struct isim_t_toe *m, u32 n, u16 code, u32 id)
{
	u64 w1;
	u32 i;

	for (i = 0; i < n; i++) {
		w1 = le64_to_cpu(m->aeq[2 * i + 1]);
		if ((w1 & ISIM_AEQE_VALID) &&
		    FIELD_GET(ISIM_AEQE_CODE, w1) == code &&
		    FIELD_GET(ISIM_AEQE_ID_LO, w1) == id)
			return i;
	}
	return -1;
}

static u8 isim_t_ae_q2(struct isim_t_toe *m, int i)
{
	return FIELD_GET(ISIM_AEQE_Q2DATA, le64_to_cpu(m->aeq[2 * i + 1]));
}

/* MODIFY_QP of iWARP QP @id to TERMINATE: TERMACT @act, TERMLEN @words */
static void isim_t_term(struct isim_test *t, struct isim_t_toe *m, u32 id,
			u8 act, u8 words)
{
	u64 w[8] = {};

	w[1] = FIELD_PREP(ISIM_QP_W1_TERMLEN, words);
	w[2] = isim_t_bus(t, m->ctx);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_IWARP) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE,
				     ISIM_QPS_TERMINATE) |
			  FIELD_PREP(ISIM_QP_HDR_TERM_ACT, act);
	isim_t_run(t, ISIM_OP_MODIFY_QP, w);
}

static void isim_iw_bad_crc_is_rejected(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	struct sk_buff *skb;
	u8 *dst;
	u32 id;

	isim_t_pair(test, &p);
	dst = (u8 *)p.b->buf;
	memset(p.a->buf, 0x5c, 64);
	isim_t_wqe(p.b->sq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, p.a->buf), 64, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* one payload byte changes on the way; TCP does not notice */
	skb->data[skb->len - 10] ^= 0x01;
	isim_t_wire_in(t, skb);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, p.a, 0, &id),
			(u64)ISIM_AE_LLP_MPA_CRC);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP_B);
	/* B halts for the driver, the segment at fault in its Q2 */
	KUNIT_EXPECT_TRUE(test, p.qb->term_halted);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.linked);
	KUNIT_EXPECT_EQ(test, isim_t_ae_q2(p.a, 0), ISIM_AEQ_Q2_FRAME);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(isim_t_q2_fpdu(p.b)), 18 + 64);
	/* nothing placed, the RQ WQE still posted, only A's SQ CQE */
	KUNIT_EXPECT_EQ(test, dst[0], 0);
	KUNIT_EXPECT_EQ(test, p.qb->rq.tail, 0U);
	isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);
	/* the driver's flush completes the RQ WQE */
	mutex_lock(&t->f->eng_lock);
	isim_exec_flush(t->f, p.qb, &p.qb->rq, ISIM_WC_FLUSHED);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				ISIM_CQE_W3_ERROR);
}

/* A WRITEs to a STag B does not have: B halts, the segment in its Q2 */
static void isim_t_bad_write(struct kunit *test, struct isim_t_pair *p)
{
	struct isim_test *t = test->priv;
	const u8 *fpdu;
	u32 id;

	isim_t_pair(test, p);
	memset(p->a->buf, 0x3c, 64);
	isim_t_wqe(p->a->sq, 0, ISIM_WQOP_WRITE, isim_t_bus(t, p->a->buf), 64,
		   isim_t_bus(t, p->b->buf),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_BAD_STAG) |
		   ISIM_WQH_SIGNALED);
	isim_t_wire(test);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, p->a, 0, &id),
			(u64)ISIM_AE_BAD_STAG);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP_B);
	KUNIT_EXPECT_EQ(test, isim_t_ae_q2(p->a, 0), ISIM_AEQ_Q2_FRAME);
	/* RTS and ESTABLISHED: upstream answers those with a TERMINATE */
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(p->a, 0),
			ISIM_QPS_RTS << 4 | ISIM_TCPS_ESTABLISHED);
	/* the connection stays the engine's while the driver decides */
	KUNIT_EXPECT_TRUE(test, p->qb->term_halted);
	KUNIT_EXPECT_EQ(test, p->qb->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_TRUE(test, p->qb->toe.linked);
	fpdu = isim_t_q2_fpdu(p->b);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(fpdu), 14 + 64);
	KUNIT_EXPECT_EQ(test, fpdu[2], 0xc1);	/* tagged, last, DDP 1 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 4),
			(u32)ISIM_T_BAD_STAG);
	KUNIT_EXPECT_EQ(test, ((u8 *)p->b->buf)[0], 0);
}

static void isim_iw_write_to_bad_stag_fails(struct kunit *test)
{
	struct isim_t_pair p;

	isim_t_bad_write(test, &p);
	/* the requester saw its WRITE leave and completed it */
	isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, p.qa->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, p.qa->term_halted);
}

/*
 * A's own WRITE names a local STag that does not exist: the WQE completes
 * with a local protection error, nothing goes on the wire, and A halts
 * with its connection still offloaded (the driver ends it with a
 * TERMINATE or an RST); the AE names A's SQ. A TERMINATE with TERMACT
 * "TERMINATE and FIN" then sends the driver's message and the FIN.
 */
static void isim_iw_local_sq_error_halts(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u64 w1, w3;
	u32 id;

	isim_t_pair(test, &p);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_WRITE, isim_t_bus(t, p.a->buf), 64,
		   isim_t_bus(t, p.b->buf),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, ISIM_T_STAG) |
		   ISIM_WQH_SIGNALED);
	p.a->sq[1] |= cpu_to_le64(FIELD_PREP(ISIM_FRAG_STAG,
					     ISIM_T_BAD_STAG));
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 0U);
	w3 = isim_t_cqe(t->ilq->cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, p.a, 0, &id),
			(u64)ISIM_AE_BAD_STAG);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	w1 = le64_to_cpu(p.a->aeq[1]);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_AEQE_SOURCE, w1),
			(u64)ISIM_AE_SRC_SQ);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(p.a, 0),
			ISIM_QPS_RTS << 4 | ISIM_TCPS_ESTABLISHED);
	KUNIT_EXPECT_TRUE(test, p.qa->term_halted);
	KUNIT_EXPECT_EQ(test, p.qa->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_TRUE(test, p.qa->toe.linked);
	KUNIT_EXPECT_FALSE(test, p.qb->term_halted);

	/* the driver's "local catastrophic" TERMINATE, one word, and FIN */
	memset(isim_t_q2(p.a), 0, 4);
	isim_t_term(t, p.a, ISIM_T_IWQP, ISIM_TERMACT_TERM_AND_FIN, 1);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_GE(test, isim_t_wire(test), 2U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_rx), 1LL);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8,
					     ISIM_AE_LLP_TERMINATE_RECEIVED,
					     ISIM_T_IWQP_B), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(isim_t_q2_fpdu(p.b) + 20), 0U);
	KUNIT_EXPECT_TRUE(test, p.qb->term_halted);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.fin_rcvd);
}

/*
 * B answers the bad WRITE with the driver's TERMINATE and its FIN; A gets
 * it in Q2 with LLP_TERMINATE_RECEIVED, answers with its FIN alone, and
 * both closes complete.
 */
static void isim_iw_terminate_both_ways(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	const u8 *fpdu;
	int i;
	u8 *msg;

	isim_t_bad_write(test, &p);
	msg = isim_t_q2(p.b);
	msg[0] = 0x11;		/* DDP tagged buffer error, invalid STag */
	msg[1] = 0x00;
	msg[2] = ISIM_TERM_HDRCT_M | ISIM_TERM_HDRCT_D;
	msg[3] = 0;
	memcpy(msg + 4, isim_t_q2_fpdu(p.b), 2 + 14);
	/* TERMLEN must say what the control word says: 20 bytes */
	isim_t_term(t, p.b, ISIM_T_IWQP_B, ISIM_TERMACT_TERM_AND_FIN, 4);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
	isim_t_term(t, p.b, ISIM_T_IWQP_B, ISIM_TERMACT_TERM_AND_FIN, 5);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_wire(test);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_tx), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_rx), 1LL);
	i = isim_t_find_ae(p.a, 8, ISIM_AE_TERMINATE_SENT, ISIM_T_IWQP_B);
	KUNIT_ASSERT_GE(test, i, 0);
	/* the QP's state is in it, as in every AE of a QP */
	KUNIT_EXPECT_NE(test, isim_t_toe_ae_states(p.a, i) >> 4, 0U);
	i = isim_t_find_ae(p.a, 8, ISIM_AE_LLP_TERMINATE_RECEIVED,
			   ISIM_T_IWQP);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_EQ(test, isim_t_ae_q2(p.a, i), ISIM_AEQ_Q2_FRAME);
	KUNIT_EXPECT_TRUE(test, p.qa->term_halted);
	/* untagged, last, queue 2, MSN 1, MO 0, then B's message */
	fpdu = isim_t_q2_fpdu(p.a);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(fpdu), 18 + 20);
	KUNIT_EXPECT_EQ(test, fpdu[2], 0x41);
	KUNIT_EXPECT_EQ(test, fpdu[3], 0x47);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 8), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 12), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(fpdu + 16), 0U);
	KUNIT_EXPECT_EQ(test, memcmp(fpdu + 20, msg, 20), 0);
	/* B's FIN followed its TERMINATE */
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8, ISIM_AE_LLP_FIN_RECEIVED,
					     ISIM_T_IWQP), 0);
	isim_t_term(t, p.a, ISIM_T_IWQP, ISIM_TERMACT_FIN, 0);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_wire(test);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8,
					     ISIM_AE_LLP_CLOSE_COMPLETE,
					     ISIM_T_IWQP), 0);
	KUNIT_EXPECT_GE(test, isim_t_find_ae(p.a, 8,
					     ISIM_AE_LLP_CLOSE_COMPLETE,
					     ISIM_T_IWQP_B), 0);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.linked);
	KUNIT_EXPECT_FALSE(test, p.qb->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.term_tx), 1LL);
}

/*
 * A pair whose A sends B a signaled SEND of 3000 bytes (byte i is
 * i * @mul + @add) into the page B posted; one pass puts its three
 * segments on the wire.
 */
static void isim_t_send3000(struct kunit *test, struct isim_t_pair *p,
			    u8 mul, u8 add)
{
	struct isim_test *t = test->priv;
	u8 *src;
	u32 i;

	isim_t_pair(test, p);
	src = (u8 *)p->a->buf;
	for (i = 0; i < PAGE_SIZE; i++)
		src[i] = i * mul + add;
	isim_t_wqe(p->b->sq + 256, 0, 0, isim_t_bus(t, p->b->buf), PAGE_SIZE,
		   0, 0);
	isim_t_wqe(p->a->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, src), 3000, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
}

/*
 * The first of a SEND's three segments is lost: the receiver keeps nothing
 * out of order, it drops the two behind it and answers each with a
 * duplicate ACK. When the sender's timer expires all three go again and
 * the SEND arrives whole.
 */
static void isim_iw_lost_segment_is_sent_again(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u32 records;
	struct sk_buff *skb;
	u8 *src, *dst;

	isim_t_send3000(test, &p, 5, 1);
	src = (u8 *)p.a->buf;
	dst = (u8 *)p.b->buf;
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);
	/* two segments in, two duplicate ACKs out */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 4U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.ooo), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 0LL);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(p.qa, &records), 3U);
	/* the first alone, the two sent behind it in one record */
	KUNIT_EXPECT_EQ(test, records, 2U);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(p.a->aeq[1]) & ISIM_AEQE_VALID);
	/* the sender completed its SEND when it left; the receiver has none */
	isim_t_iw_cqe(test, 0, ISIM_T_IWQP);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 1, 3) &
				 ISIM_CQE_W3_VALID);

	mutex_lock(&t->f->eng_lock);
	p.qa->toe.rto_due = jiffies - 1;
	mutex_unlock(&t->f->eng_lock);
	/* the first again; each ACK brings the next: three segments, three ACKs */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 6U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts), 1LL);
	isim_t_iw_cqe(test, 1, ISIM_T_IWQP_B);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(t->ilq->cq, 1, 0), 3000ULL);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3000), 0);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, p.qa->toe.snd_una, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(p.qa, &records), 0U);
	KUNIT_EXPECT_EQ(test, p.qa->toe.retries, (u8)0);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.recovering);
	KUNIT_EXPECT_EQ(test, p.qb->state, (u8)ISIM_QPS_RTS);
}

/*
 * The timer beats the ACKs of a three-segment SEND that all arrive: with
 * no duplicate ACK to say the receiver saw a hole, only the oldest goes
 * again, and its duplicate is answered and dropped; nothing else is resent.
 */
static void isim_iw_late_ack_resends_oldest_only(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_pair p;
	u32 records;
	u8 *src, *dst;

	isim_t_send3000(test, &p, 3, 7);
	src = (u8 *)p.a->buf;
	dst = (u8 *)p.b->buf;
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames), 3U);
	/* the timer fires before any ACK came back */
	isim_t_rto_expire(t, p.qa);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames), 4U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 1LL);
	KUNIT_EXPECT_FALSE(test, p.qa->toe.recovering);
	/*
	 * three segments and the resent one, in one pass: the duplicate's
	 * ACK at once, which covers the three
	 */
	KUNIT_EXPECT_EQ(test, isim_t_wire(test), 5U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 1LL);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3000), 0);
	isim_t_iw_cqe(test, 1, ISIM_T_IWQP_B);
	KUNIT_EXPECT_EQ(test, p.qa->toe.snd_una, p.qa->toe.snd_nxt);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(p.qa, &records), 0U);
}

/* ---- partial FPDUs: the IEQ ---- */

/*
 * The part of frame @skb (Ethernet, IPv4, TCP of 20 bytes) whose payload
 * runs from @off for @len bytes, as a segment of its own
 */
static struct sk_buff *isim_t_seg_part(struct kunit *test,
				       const struct sk_buff *skb, u32 off,
				       u32 len)
{
	u32 hdrs = ETH_HLEN + sizeof(struct iphdr) + sizeof(struct tcphdr);
	struct sk_buff *part = alloc_skb(hdrs + len, GFP_KERNEL);
	struct iphdr *ih;
	struct tcphdr *th;

	KUNIT_ASSERT_NOT_NULL(test, part);
	skb_put_data(part, skb->data, hdrs);
	skb_put_data(part, skb->data + hdrs + off, len);
	ih = (struct iphdr *)(part->data + ETH_HLEN);
	th = (struct tcphdr *)(ih + 1);
	ih->tot_len = htons(sizeof(*ih) + sizeof(*th) + len);
	th->seq = htonl(ntohl(th->seq) + off);
	return part;
}

/* receive CQEs of QP @qpn in the ILQ's CQ (extended ones skipped) */
static u32 isim_t_rx_cqes(struct isim_test *t, u32 qpn)
{
	u32 i, n = 0;
	u64 w3;

	for (i = 0; i < 32; i++) {
		w3 = isim_t_cqe(t->ilq->cq, i, 3);
		if (!(w3 & ISIM_CQE_W3_VALID))
			break;
		if (FIELD_GET(ISIM_CQE_W2_QP, isim_t_cqe(t->ilq->cq, i, 2)) ==
		    qpn && !(w3 & ISIM_CQE_W3_SQ))
			n++;
		if (w3 & ISIM_CQE_W3_EXT)
			i++;
	}
	return n;
}

/*
 * A SEND's FPDU reaches B cut in two segments. B's context names the
 * ILQ's QP as its IEQ: the first segment goes there whole with the FPSN
 * in Q2 and nothing placed, and so does the second, though it completes
 * the FPDU; both are acknowledged. The driver's loopback send of the
 * whole FPDU is placed and ends the episode; the same send again finds
 * no episode and is dropped.
 */
static void isim_iw_partial_fpdu_goes_to_ieq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *rq;
	struct sk_buff *skb, *s1, *s2;
	struct isim_t_pair p;
	u8 *dst, *rx0, *rx1, *tx;
	u32 fpsn, i;
	u64 w[8] = {};

	isim_t_pair_ieq(test, &p, ISIM_T_ILQ);
	rq = t->ilq->rings + 8 * 4;
	tx = t->ilq->bufs;
	rx0 = t->ilq->bufs + 1024;
	rx1 = t->ilq->bufs + 2048;
	isim_t_wqe(rq, 0, 0, isim_t_bus(t, rx0), 1024, 0, 0);
	isim_t_wqe(rq, 1, 0, isim_t_bus(t, rx1), 1024, 0, 0);
	dst = (u8 *)p.b->buf;
	for (i = 0; i < 64; i++)
		((u8 *)p.a->buf)[i] = 0x40 + i;
	isim_t_wqe(p.b->sq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(p.a->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, p.a->buf), 64, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* 2 + 18 + 64 + 4: one FPDU of 88 bytes, cut after 30 */
	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + 20 + 20 + 88));
	s1 = isim_t_seg_part(test, skb, 0, 30);
	s2 = isim_t_seg_part(test, skb, 30, 58);
	fpsn = p.qb->toe.rcv_nxt;

	/* a pass takes the segment, the next places it in the IEQ's RQ */
	isim_t_wire_in(t, s1);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.partial);
	KUNIT_EXPECT_EQ(test, p.qb->toe.fpdu_nxt, fpsn);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(isim_t_q2(p.b) +
						 ISIM_Q2_FPSN_OFF), fpsn);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, fpsn + 30);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_ILQ), 1U);
	/* the segment as received: TCP header at byte 40, then the cut FPDU */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(rx0 + 40 + 4), fpsn);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(rx0 + 40 + 20), (u16)82);
	KUNIT_EXPECT_EQ(test, dst[0], 0);

	isim_t_wire_in(t, s2);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, p.qb->toe.partial);
	KUNIT_EXPECT_EQ(test, p.qb->toe.rcv_nxt, fpsn + 88);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_ILQ), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(rx1 + 40 + 4), fpsn + 30);
	KUNIT_EXPECT_EQ(test, dst[0], 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.partials), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.to_ieq), 2LL);

	/* the driver's loopback AH: the connection as B receives it */
	w[0] = ISIM_T_REM_MAC << 16;
	w[2] = FIELD_PREP(ISIM_AH_W2_ARP, ISIM_T_ILQ_ARP) |
	       FIELD_PREP(ISIM_AH_W2_HOP_LIMIT, 64);
	w[4] = ISIM_T_REM_IP;
	w[6] = ISIM_T_LOC_IP;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH + 1) |
			  ISIM_AH_HDR_IPV4 | ISIM_AH_HDR_LOOPBACK;
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	/* the peer's TCP header, its sequence number the FPSN, the FPDU */
	memcpy(tx, skb->data + ETH_HLEN + 20, 20);
	memcpy(tx + 20, skb->data + ETH_HLEN + 40, 88);
	put_unaligned_be32(fpsn, tx + 4);
	isim_t_ilq_send(t, 0, 108, ISIM_T_ILQ_AH + 1);
	isim_t_poll(t);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, dst[i], (u8)(0x40 + i));
	KUNIT_EXPECT_FALSE(test, p.qb->toe.partial);
	KUNIT_EXPECT_EQ(test, p.qb->toe.fpdu_nxt, fpsn + 88);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_IWQP_B), 1U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.from_ieq), 1LL);

	/* the same again: no episode any more, dropped */
	isim_t_ilq_send(t, 1, 108, ISIM_T_ILQ_AH + 1);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.ieq_bad), 1LL);
	KUNIT_EXPECT_EQ(test, isim_t_rx_cqes(t, ISIM_T_IWQP_B), 1U);
	kfree_skb(skb);
}

static struct kunit_case isim_iwarp_test_cases[] = {
	KUNIT_CASE(isim_iw_rtr_read_waits_for_response),
	KUNIT_CASE(isim_iw_send_write_read_over_the_wire),
	KUNIT_CASE(isim_iw_bad_crc_is_rejected),
	KUNIT_CASE(isim_iw_write_to_bad_stag_fails),
	KUNIT_CASE(isim_iw_local_sq_error_halts),
	KUNIT_CASE(isim_iw_terminate_both_ways),
	KUNIT_CASE(isim_iw_lost_segment_is_sent_again),
	KUNIT_CASE(isim_iw_late_ack_resends_oldest_only),
	KUNIT_CASE(isim_iw_partial_fpdu_goes_to_ieq),
	{}
};

static struct kunit_suite isim_iwarp_test_suite = {
	.name = "irdma_sim_iwarp",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_iwarp_test_cases,
};

kunit_test_suites(&isim_iwarp_test_suite);
