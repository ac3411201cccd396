// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_toe (and irdma_sim_toe_gen1 on an X722 function):
 * offloaded TCP: context checks, the MPA message, FIN, RST, TIME_WAIT,
 * acknowledgements and resends. Included at the end of sim/toe.c.
 */
#include "harness.h"

/* an MPA reply frame: key, flags, revision 2, private data length 4 */
static const u8 isim_t_mpa_rep[] = "MPA ID Rep Frame\x10\x02\x00\x04";
#define ISIM_T_MPA_REP_LEN	(sizeof(isim_t_mpa_rep) - 1)

#define ISIM_T_DUPACKS		3	/* duplicate ACKs to a fast retransmit */

/* AEQE @i of @m's AEQ: the QP state and TCP state it reports, as iw << 4 | tcp */
static u32 isim_t_toe_ae_states(struct isim_t_toe *m, u32 i)
{
	u64 w1 = le64_to_cpu(m->aeq[2 * i + 1]);

	return FIELD_GET(ISIM_AEQE_IWSTATE, w1) << 4 |
	       FIELD_GET(ISIM_AEQE_TCPSTATE, w1);
}

/**
 * struct isim_toe_case - one broken field of a TCP context
 * @name: what is wrong
 * @word: context word
 * @mask: the field
 * @val: its new value
 * @minor: how MODIFY_QP fails
 */
struct isim_toe_case {
	const char *name;
	u8 word;
	u64 mask;
	u64 val;
	u16 minor;
};

static const struct isim_toe_case isim_toe_cases[] = {
	{ "valid", 0, 0, 0, ISIM_MIN_OK },
	{ "no_arp_entry", 6, ISIM_QPC_W6_ARP_IDX, 3, ISIM_MIN_NO_OBJECT },
	{ "mss_0", 6, ISIM_QPC_W6_SNDMSS, 0, ISIM_MIN_BAD_FIELD },
	{ "mss_9000", 6, ISIM_QPC_W6_SNDMSS, 9000, ISIM_MIN_BAD_FIELD },
	{ "ipv4_with_ipv6_words", 5, ~0ULL, 0x20010db8ULL << 32,
	  ISIM_MIN_BAD_FIELD },
	{ "ipv4_address_without_ipv4_bit", 0, ISIM_QPC_W0_IPV4, 0,
	  ISIM_MIN_BAD_FIELD },
	{ "no_local_address", ISIM_QPC_W_LOC_ADDR, ~0ULL, 0,
	  ISIM_MIN_BAD_FIELD },
	{ "remote_port_0", 3, ISIM_QPC_W3_DST_PORT, 0, ISIM_MIN_BAD_FIELD },
	{ "no_local_mac", 19, ~0ULL, 0, ISIM_MIN_BAD_FIELD },
	{ "tcp_state_syn_rcvd", 7, ISIM_QPC_W7_TCP_STATE, 4, ISIM_MIN_BAD_FIELD },
	{ "window_scale_15", 7, ISIM_QPC_W7_SND_SCALE, 15, ISIM_MIN_BAD_FIELD },
};

/*
 * gen1: the source MAC is the local MAC table entry word 3 names; one
 * that is not allocated, or not set, leaves the engine no MAC to send from
 */
static const struct isim_toe_case isim_toe_gen1_cases[] = {
	{ "valid", 0, 0, 0, ISIM_MIN_OK },
	{ "mac_entry_not_set", 3, ISIM_QPC_W3_G1_SRCMAC_IDX, 0,
	  ISIM_MIN_NO_OBJECT },
	{ "mac_entry_not_allocated", 3, ISIM_QPC_W3_G1_SRCMAC_IDX, 5,
	  ISIM_MIN_NO_OBJECT },
	{ "mac_entry_past_table", 3, ISIM_QPC_W3_G1_SRCMAC_IDX, 63,
	  ISIM_MIN_NO_OBJECT },
	{ "word19_mac_not_used", 19, ~0ULL, ISIM_T_REM_MAC << 16,
	  ISIM_MIN_OK },
	{ "no_arp_entry", 6, ISIM_QPC_W6_ARP_IDX, 3, ISIM_MIN_NO_OBJECT },
};

/* segments @qp keeps for a resend, and in how many records */
static u32 isim_t_rtx_count(struct isim_qp *qp, u32 *records)
{
	struct isim_toe_rtx *r;
	u32 n = 0;

	*records = 0;
	list_for_each_entry(r, &qp->toe.rtxq, node) {
		n += r->nseg;
		(*records)++;
	}
	return n;
}

static void isim_toe_case_desc(const struct isim_toe_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(isim_toe, isim_toe_cases, isim_toe_case_desc);
KUNIT_ARRAY_PARAM(isim_toe_gen1, isim_toe_gen1_cases, isim_toe_case_desc);

static void isim_toe_modify_checks_context(struct kunit *test)
{
	const struct isim_toe_case *c = test->param_value;
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	struct isim_t_toe *m;
	struct isim_qp *qp;

	m = isim_t_toe(test, ISIM_T_IWQP);
	isim_t_toe_ctx(t, m, ctx);
	if (c->mask)
		ctx[c->word] = (ctx[c->word] & ~c->mask) |
			       ((c->val << __ffs64(c->mask)) & c->mask);
	isim_t_toe_cmd(t, m, ISIM_OP_MODIFY_QP, ISIM_T_IWQP, ISIM_QPS_RTS, true,
		       ctx);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)c->minor);
	qp = xa_load(&t->f->qps, ISIM_T_IWQP);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->toe.linked, !c->minor);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, c->minor ? 0U : 1U);
	/* a refused command leaves the QP as it was */
	KUNIT_EXPECT_EQ(test, qp->state,
			(u8)(c->minor ? ISIM_QPS_IDLE : ISIM_QPS_RTS));
	if (c->minor)
		return;
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.mss, (u16)1460);
	KUNIT_EXPECT_EQ(test, ether_addr_to_u64(qp->toe.loc_mac),
			ISIM_T_LOC_MAC);
	/* destroying the QP gives the 4-tuple up */
	isim_t_qp_cmd(t, ISIM_OP_DESTROY_QP, ISIM_T_IWQP, ISIM_QP_TYPE_IWARP);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
}

/* the LSMM: a SEND with STREAMMODE and WAITFORRCVPDU of @len bytes */
static void isim_t_lsmm(struct isim_test *t, struct isim_t_toe *m, u32 len)
{
	isim_t_wqe(m->sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, m->buf), len, 0,
		   ISIM_WQH_STREAM_MODE | ISIM_WQH_WAIT_RCV_PDU);
	/* the fenced NOP and GEN_RTS_AE of a three-quanta connection */
	isim_t_wqe(m->sq, 1, ISIM_WQOP_NOP, 0, 0, 0, BIT_ULL(61));
	isim_t_wqe(m->sq, 2, ISIM_WQOP_GEN_RTS_AE, 0, 0, 0, 0);
}

/* an MPA reply of @len bytes sent as the LSMM: its frame, off the ILQ */
static struct sk_buff *isim_t_lsmm_sent(struct kunit *test,
					struct isim_t_toe *m, const char *mpa,
					u32 len)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;

	memcpy(m->buf, mpa, len);
	isim_t_lsmm(t, m, len);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	return skb;
}

static void isim_t_check_lsmm(struct kunit *test, struct sk_buff *skb,
			      const u8 *payload, u32 len)
{
	struct ethhdr *eh = (struct ethhdr *)skb->data;
	struct iphdr *ih = (struct iphdr *)(eh + 1);
	struct tcphdr *th = (struct tcphdr *)(ih + 1);
	u32 seg = sizeof(*th) + len;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + sizeof(*ih) + seg));
	u64_to_ether_addr(ISIM_T_REM_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_dest, mac));
	u64_to_ether_addr(ISIM_T_LOC_MAC, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eh->h_source, mac));
	KUNIT_EXPECT_EQ(test, ntohs(eh->h_proto), (u16)ETH_P_IP);
	KUNIT_EXPECT_EQ(test, ih->tos, (u8)0x28);
	KUNIT_EXPECT_EQ(test, ih->ttl, (u8)32);
	KUNIT_EXPECT_EQ(test, ntohs(ih->tot_len), (u16)(sizeof(*ih) + seg));
	KUNIT_EXPECT_EQ(test, ntohl(ih->saddr), ISIM_T_LOC_IP);
	KUNIT_EXPECT_EQ(test, ntohl(ih->daddr), ISIM_T_REM_IP);
	KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(ih, ih->ihl), (u16)0);
	KUNIT_EXPECT_EQ(test,
			(__force u16)csum_tcpudp_magic(ih->saddr, ih->daddr,
						       seg, IPPROTO_TCP,
						       csum_partial(th, seg, 0)),
			(u16)0);
	KUNIT_EXPECT_EQ(test, ntohs(th->source), (u16)ISIM_T_LPORT);
	KUNIT_EXPECT_EQ(test, ntohs(th->dest), (u16)ISIM_T_RPORT);
	KUNIT_EXPECT_EQ(test, ntohl(th->seq), (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, ntohl(th->ack_seq), (u32)ISIM_T_RCV_NXT);
	KUNIT_EXPECT_EQ(test, (u16)th->doff, (u16)5);
	/* ACK and PSH only */
	KUNIT_EXPECT_EQ(test, ((u8 *)th)[13], (u8)0x18);
	KUNIT_EXPECT_EQ(test, ntohs(th->window),
			(u16)(ISIM_T_RCV_WND >> ISIM_T_RCV_SCALE));
	KUNIT_EXPECT_EQ(test, memcmp(th + 1, payload, len), 0);
}

/*
 * RFC 6581's RTR as a zero-length RDMA WRITE to STag 1, TO 0, and its
 * CRC32c 0x5f4cd3eb, least significant byte first
 */
static const u8 isim_t_rtr_write[] = {
	0x00, 0x0e, 0xc1, 0x40, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xeb, 0xd3, 0x4c, 0x5f,
};

/* a segment 192.0.2.2:40000 -> 192.0.2.1:7000, 4 bytes of data */
static bool isim_t_toe_rx(struct kunit *test, u8 flags, u32 seq)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = isim_t_rx_frame(test, ISIM_T_LPORT, flags, 0);

	((struct tcphdr *)(skb->data + sizeof(struct iphdr)))->seq = htonl(seq);
	if (isim_ilq_steer(t->f, skb))
		return true;
	kfree_skb(skb);
	return false;
}

/*
 * The QP of a new offload set-up (*@m) sends its MPA reply as the LSMM;
 * the frame is taken off the wire, checked first when @check.
 */
static struct isim_qp *isim_t_toe_lsmm_sent(struct kunit *test,
					    struct isim_t_toe **m, bool check)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb;
	struct isim_qp *qp;

	qp = isim_t_toe_up(test, m);
	memcpy((*m)->buf, isim_t_mpa_rep, ISIM_T_MPA_REP_LEN);
	isim_t_lsmm(t, *m, ISIM_T_MPA_REP_LEN);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	if (check)
		isim_t_check_lsmm(test, skb, isim_t_mpa_rep,
				  ISIM_T_MPA_REP_LEN);
	kfree_skb(skb);
	return qp;
}

static void isim_toe_lsmm_sent_then_held(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 id;

	qp = isim_t_toe_up(test, &m);
	skb = isim_t_lsmm_sent(test, m, mpa, sizeof(mpa) - 1);
	isim_t_check_lsmm(test, skb, (const u8 *)mpa, sizeof(mpa) - 1);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt,
			(u32)(ISIM_T_SND_NXT + sizeof(mpa) - 1));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tx), 1LL);
	/* WAITFORRCVPDU: the NOP and GEN_RTS_AE wait for the first FPDU */
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_TRUE(test, qp->toe.wait_fpdu);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	/* unsignalled: no CQE */
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(t->ilq->cq, 0, 3) &
				 ISIM_CQE_W3_VALID);

	/* the peer's first FPDU (its RTR) is the engine's, not the ILQ's */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18, ISIM_T_RCV_NXT,
						   isim_t_rtr_write,
						   sizeof(isim_t_rtr_write)));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rx), 1LL);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.first_fpdu);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	/* upstream keeps these: a 0 there made its destroy skip the RST */
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 0),
			ISIM_QPS_RTS << 4 | ISIM_TCPS_ESTABLISHED);
	/* it places nothing and is acknowledged with a pure ACK */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt,
			(u32)(ISIM_T_RCV_NXT + sizeof(isim_t_rtr_write)));
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, (u32)(ETH_HLEN + 40));
	KUNIT_EXPECT_EQ(test, ntohl(((struct tcphdr *)(skb->data + ETH_HLEN +
						       20))->ack_seq),
			qp->toe.rcv_nxt);
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + 20 + 13], (u8)0x10);
	kfree_skb(skb);
}

/* add (or with @del delete) the CM's filter of @type for remote port @rport */
static void isim_t_toe_qhash(struct isim_test *t, u32 type, u32 rport,
			     bool del)
{
	u64 qh[8] = {};

	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, ISIM_T_LPORT) |
		FIELD_PREP(ISIM_QH_W1_SPORT, rport) |
		FIELD_PREP(ISIM_QH_W1_QPN, ISIM_T_ILQ);
	qh[4] = type == ISIM_QH_TCP_SYN ? 0 : ISIM_T_REM_IP;
	qh[6] = ISIM_T_LOC_IP;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE, type) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE,
				      del ? ISIM_QH_DELETE : ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
}

/*
 * The QP that takes its connection's 4-tuple drops the established filter
 * that steered the handshake to the raw queue (Linux 6.1's irdma never
 * deletes it after the offload); other filters stay.
 */
static void isim_toe_offload_drops_established_filter(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;

	m = isim_t_toe(test, ISIM_T_IWQP);
	isim_t_toe_qhash(t, ISIM_QH_TCP_SYN, 0, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT + 1, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_ASSERT_EQ(test, t->f->conn.nqhash, 3U);
	qp = isim_t_offload(test, m, ISIM_T_IWQP);
	KUNIT_ASSERT_TRUE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 2U);
	/* deleting it now finds nothing; the other 4-tuple's goes */
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT, true);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_NO_OBJECT);
	isim_t_toe_qhash(t, ISIM_QH_TCP_ESTABLISHED, ISIM_T_RPORT + 1, true);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.nqhash, 1U);
}

static void isim_toe_fin_and_rst_raise_aes(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u64 qh[8] = {};
	u32 id;

	qp = isim_t_toe_up(test, &m);
	/* the CM's established filter for the 4-tuple is still there */
	qh[1] = FIELD_PREP(ISIM_QH_W1_DPORT, ISIM_T_LPORT) |
		FIELD_PREP(ISIM_QH_W1_SPORT, ISIM_T_RPORT) |
		FIELD_PREP(ISIM_QH_W1_QPN, ISIM_T_ILQ);
	qh[4] = ISIM_T_REM_IP;
	qh[6] = ISIM_T_LOC_IP;
	qh[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QH_HDR_TYPE,
				      ISIM_QH_TCP_ESTABLISHED) |
			   ISIM_QH_HDR_IPV4 |
			   FIELD_PREP(ISIM_QH_HDR_MANAGE, ISIM_QH_ADD);
	isim_t_run(t, ISIM_OP_MANAGE_QHASH, qh);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	/* another QP cannot take the same 4-tuple */
	isim_t_toe_ctx(t, m, ctx);
	isim_t_toe_cmd(t, m, ISIM_OP_CREATE_QP, 3, ISIM_QPS_IDLE, false, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_cmd(t, m, ISIM_OP_MODIFY_QP, 3, ISIM_QPS_RTS, true, ctx);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_EXISTS);

	/* FIN with an FPDU: reported once */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x11, ISIM_T_RCV_NXT,
						   isim_t_rtr_write,
						   sizeof(isim_t_rtr_write)));
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x11, ISIM_T_RCV_NXT,
						   isim_t_rtr_write,
						   sizeof(isim_t_rtr_write)));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_FIN_RECEIVED);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + 21);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
	/* an RST beyond the window is ignored */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx(test, 0x04,
					      ISIM_T_RCV_NXT + 3 * ISIM_T_RCV_WND));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[3]) & ISIM_AEQE_VALID);
	/* one in it resets the connection: AE, error, 4-tuple given up */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx(test, 0x04, ISIM_T_RCV_NXT + 21));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 1, &id),
			(u64)ISIM_AE_LLP_CONN_RESET);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 1),
			ISIM_QPS_ERROR << 4 | ISIM_TCPS_CLOSED);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rst), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 0LL);
	/* the 4-tuple's segments are the filter's again */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx(test, 0x10, ISIM_T_RCV_NXT + 21));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->ilq.steered), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rx), 4LL);
}

/* MODIFY_QP of offloaded QP @id to @state, with RESETCON if @reset */
static void isim_t_toe_close(struct isim_test *t, struct isim_t_toe *m,
			     u32 id, u8 state, bool reset)
{
	u64 w[8] = {};

	w[2] = isim_t_bus(t, m->ctx);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_IWARP) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE, state) |
			  (reset ? ISIM_QP_HDR_RESET_CONN : 0);
	isim_t_run(t, ISIM_OP_MODIFY_QP, w);
}

/* the next transmitted segment: its flags byte, seq and ack; freed */
static u8 isim_t_toe_tx(struct kunit *test, u32 *seq, u32 *ack)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->ilq->frames);
	struct tcphdr *th;
	u8 flags;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb->len, (u32)(ETH_HLEN + 40));
	th = (struct tcphdr *)(skb->data + ETH_HLEN + 20);
	*seq = ntohl(th->seq);
	*ack = ntohl(th->ack_seq);
	flags = ((u8 *)th)[13];
	kfree_skb(skb);
	return flags;
}

/*
 * The driver closes offloaded QP ISIM_T_IWQP gracefully (MODIFY_QP to
 * CLOSING); after an engine pass the next segment must be our FIN at
 * snd_nxt, acknowledging @ack.
 */
static void isim_t_toe_fin_out(struct kunit *test, struct isim_t_toe *m,
			       u32 ack)
{
	struct isim_test *t = test->priv;
	u32 seq, got;

	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_CLOSING, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &got), (u8)0x11);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, got, ack);
}

static void isim_toe_graceful_close_local_first(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack, id;

	qp = isim_t_toe_up(test, &m);
	/* our FIN at snd_nxt: FIN_WAIT, the 4-tuple still the engine's */
	isim_t_toe_fin_out(test, m, ISIM_T_RCV_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_sent);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 1LL);
	/* sent once, however often the engine passes */
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	/* the peer's ACK of our FIN alone does not end it */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_acked);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	/* its FIN: acknowledged, the close completes, the 4-tuple is free */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_CLOSE_COMPLETE);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	/* reported in CLOSING, the connection in TIME_WAIT (we closed first) */
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 0),
			ISIM_QPS_CLOSING << 4 | ISIM_TCPS_TIME_WAIT);
	/* no FIN_RECEIVED after our own FIN */
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[3]) & ISIM_AEQE_VALID);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.closed), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
}

/*
 * Offloaded QP ISIM_T_IWQP closed by us first: our FIN, then the peer's
 * ACK and FIN in one segment, which we acknowledge; the close completes
 * in TIME_WAIT.
 */
static struct isim_qp *isim_t_toe_time_wait(struct kunit *test,
					    struct isim_t_toe **m)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;
	u32 seq, ack, id;

	qp = isim_t_toe_up(test, m);
	isim_t_toe_fin_out(test, *m, ISIM_T_RCV_NXT);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, *m, 0, &id),
			(u64)ISIM_AE_LLP_CLOSE_COMPLETE);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 1U);
	return qp;
}

/*
 * TIME_WAIT after a close we began: the peer's FIN, sent again because
 * our ACK was lost, is acknowledged again (also when that ACK is lost
 * once more); a bare ACK is not answered; an RST ends it; the QP may go
 * meanwhile.
 */
static void isim_toe_time_wait_acks_fin_again(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack;

	qp = isim_t_toe_time_wait(test, &m);
	/* the driver moves the QP on: the record does not depend on it */
	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_ERROR, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_acks), 1LL);
	/* no AE for it: the QP's connection is over */
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[3]) & ISIM_AEQE_VALID);

	/* a bare ACK: nothing */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	/* that ACK lost too: the next FIN is answered all the same */
	atomic_set(&t->f->faults.drop_toe_acks, 1);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_acks), 3LL);

	/* an RST ends it: the 4-tuple is the filters' again */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x14,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						   ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 0LL);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
}

/*
 * A SYN of the 4-tuple in TIME_WAIT is a new connection: it ends the
 * record and goes to the filters.
 */
static void isim_toe_time_wait_ends_at_syn(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;

	isim_t_toe_time_wait(test, &m);
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x02,
						   ISIM_T_RCV_NXT + 100000, 0,
						   8192, NULL, 0));
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_reused), 1LL);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
}

/*
 * A record whose time is up takes nothing more and goes at the engine's
 * next pass.
 */
static void isim_toe_time_wait_expires(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_toe_tw *tw;
	struct isim_t_toe *m;

	isim_t_toe_time_wait(test, &m);
	tw = list_first_entry(&t->f->conn.tw, struct isim_toe_tw, node);
	KUNIT_EXPECT_TRUE(test, time_after(tw->expires, jiffies));
	/* its time is up */
	tw->expires = jiffies;
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						   ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.tw_acks), 0LL);
}

static void isim_toe_graceful_close_peer_first(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack, id;

	qp = isim_t_toe_up(test, &m);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x11, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 8192, NULL, 0));
	isim_t_poll(t);
	/* CLOSE_WAIT: reported, acknowledged, still ours */
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_FIN_RECEIVED);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 0),
			ISIM_QPS_RTS << 4 | ISIM_TCPS_CLOSE_WAIT);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	/* the driver closes: FIN, LAST_ACK */
	isim_t_toe_fin_out(test, m, ISIM_T_RCV_NXT + 1);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	/* an ACK short of our FIN changes nothing */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.linked);
	/* the one that covers it completes the close */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 1,
						  ISIM_T_SND_NXT + 1, 8192, NULL, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 1, &id),
			(u64)ISIM_AE_LLP_CLOSE_COMPLETE);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae_states(m, 1),
			ISIM_QPS_CLOSING << 4 | ISIM_TCPS_CLOSED);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	/* the peer closed first: no TIME_WAIT, the filters have it again */
	KUNIT_EXPECT_EQ(test, t->f->conn.ntw, 0U);
	KUNIT_EXPECT_FALSE(test, isim_t_toe_rx_seg(test, 0x10,
						   ISIM_T_RCV_NXT + 1,
						   ISIM_T_SND_NXT + 1, 8192, NULL, 0));
}

static void isim_toe_resetcon_sends_rst(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 seq, ack;

	qp = isim_t_toe_up(test, &m);
	/* a graceful close the peer does not answer, then RESETCON */
	isim_t_toe_fin_out(test, m, ISIM_T_RCV_NXT);
	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_ERROR, true);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x14);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + 1);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, t->f->conn.ntoe, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.rst_tx), 1LL);
	isim_t_poll(t);
	/* nothing after it, no AE: the driver asked for the reset */
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 1LL);
}

/*
 * A graceful close while WQEs are still posted, held behind an LSMM that
 * waits for the peer's first FPDU with the peer's window open: our FIN
 * waits for them (nothing may follow it) and goes once the ring is empty.
 */
static void isim_toe_fin_waits_for_the_sq(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	u32 rtr = sizeof(isim_t_rtr_write), len = sizeof(mpa) - 1;
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 seq, ack;

	qp = isim_t_toe_up(test, &m);
	memcpy(m->buf, mpa, len);
	isim_t_lsmm(t, m, len);
	isim_t_poll(t);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);
	KUNIT_ASSERT_TRUE(test, qp->toe.wait_fpdu);
	KUNIT_ASSERT_TRUE(test, isim_toe_window_open(&qp->toe));

	/* the NOP and GEN_RTS_AE are still posted: no FIN */
	isim_t_toe_close(t, m, ISIM_T_IWQP, ISIM_QPS_CLOSING, false);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_pending);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 0LL);

	/* the peer's first FPDU releases them; the FIN comes after */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_data(test, 0x18, ISIM_T_RCV_NXT,
						   isim_t_rtr_write, rtr));
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x10);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + rtr);
	KUNIT_EXPECT_EQ(test, isim_t_toe_tx(test, &seq, &ack), (u8)0x11);
	KUNIT_EXPECT_EQ(test, seq, (u32)ISIM_T_SND_NXT + len);
	KUNIT_EXPECT_EQ(test, ack, (u32)ISIM_T_RCV_NXT + rtr);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, qp->toe.fin_sent);
	KUNIT_EXPECT_FALSE(test, qp->toe.fin_pending);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.fin_tx), 1LL);
}

/* the next frame on the tap is a pure ACK of @ack */
static void isim_t_pure_ack(struct kunit *test, u32 ack)
{
	struct isim_test *t = test->priv;
	struct sk_buff *skb = skb_dequeue(&t->ilq->frames);
	const struct tcphdr *th;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	th = (const struct tcphdr *)(skb->data + ETH_HLEN + 20);
	KUNIT_EXPECT_EQ(test, skb->len, (u32)(ETH_HLEN + 40));
	KUNIT_EXPECT_EQ(test, ntohl(th->ack_seq), ack);
	KUNIT_EXPECT_EQ(test, ((const u8 *)th)[13], (u8)0x10);
	kfree_skb(skb);
}

/*
 * The peer's side of TCP: its ACKs bring its window, which the SQ waits
 * for; a duplicate is answered with an ACK and dropped; a retransmission
 * that reaches beyond rcv_nxt gives its new bytes.
 */
static void isim_toe_acks_window_and_duplicates(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	u32 una = ISIM_T_SND_NXT + sizeof(mpa) - 1;
	u32 rtr = sizeof(isim_t_rtr_write);
	struct isim_test *t = test->priv;
	u8 two[2 * sizeof(isim_t_rtr_write)];
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u32 id;

	memcpy(two, isim_t_rtr_write, rtr);
	memcpy(two + rtr, isim_t_rtr_write, rtr);
	qp = isim_t_toe_up(test, &m);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, (u32)ISIM_T_SND_NXT);
	kfree_skb(isim_t_lsmm_sent(test, m, mpa, sizeof(mpa) - 1));

	/* the RTR acknowledges nothing and shuts the window */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0,
						  isim_t_rtr_write, rtr));
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, qp->toe.first_fpdu);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_wnd, 0U);
	/* the LSMM's bytes are in flight: the NOP and GEN_RTS_AE wait */
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + rtr);

	/* the same segment again: answered with an ACK, dropped */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0,
						  isim_t_rtr_write, rtr));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + rtr);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + rtr);

	/* resent with a second RTR behind it: the new FPDU is taken */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0, two,
						  sizeof(two)));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + 2 * rtr);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + 2 * rtr);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);

	/* an ACK beyond snd_nxt is not acceptable: nothing moves */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 2 * rtr,
						  una + 1, 8192, two, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, (u32)ISIM_T_SND_NXT);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 1U);
	/* the LSMM's ACK opens the window: the SQ goes on */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
						  ISIM_T_RCV_NXT + 2 * rtr,
						  una, 8192, two, 0));
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, una);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_wnd, 8192U);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 3U);
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_ESTABLISHED);
	/* pure ACKs are not answered */
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.dropped), 1LL);
}

/*
 * Segments that came in before a pass are acknowledged together, once
 * the pass has taken them: one pure ACK of the last.
 */
static void isim_toe_acks_coalesce(struct kunit *test)
{
	static const char mpa[] = "MPA ID Rep Frame\x10\x02\x00\x04";
	u32 rtr = sizeof(isim_t_rtr_write);
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;

	qp = isim_t_toe_up(test, &m);
	kfree_skb(isim_t_lsmm_sent(test, m, mpa, sizeof(mpa) - 1));

	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 0,
						  isim_t_rtr_write, rtr));
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x18,
						  ISIM_T_RCV_NXT + rtr,
						  ISIM_T_SND_NXT, 0,
						  isim_t_rtr_write, rtr));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.rcv_nxt, (u32)ISIM_T_RCV_NXT + 2 * rtr);
	isim_t_pure_ack(test, ISIM_T_RCV_NXT + 2 * rtr);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.ack_owed, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->f->conn.acks));
}

/*
 * Nothing acknowledges the LSMM: each expiry of the timer sends it again,
 * the same bytes at the same sequence number, with the timeout doubled;
 * the expiry after REXMIT_THRESH resends fails the connection.
 */
static void isim_toe_resends_then_gives_up(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u32 id, i;
	u32 records;

	qp = isim_t_toe_lsmm_sent(test, &m, true);
	KUNIT_EXPECT_EQ(test, qp->toe.rexmit_thresh, (u8)ISIM_T_REXMIT);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(qp, &records), 1U);
	/* not due yet: nothing goes, but a pass is asked for by then */
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_TRUE(test, t->f->wake.due_set);
	KUNIT_EXPECT_EQ(test, t->f->wake.due, qp->toe.rto_due);

	for (i = 1; i <= ISIM_T_REXMIT; i++) {
		isim_t_rto_expire(t, qp);
		skb = skb_dequeue(&t->ilq->frames);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		isim_t_check_lsmm(test, skb, isim_t_mpa_rep, ISIM_T_MPA_REP_LEN);
		kfree_skb(skb);
		KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
		KUNIT_EXPECT_EQ(test, qp->toe.retries, (u8)i);
		KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), (s64)i);
		KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
		KUNIT_EXPECT_FALSE(test, le64_to_cpu(m->aeq[1]) & ISIM_AEQE_VALID);
	}
	/* doubled from the test's timeout, then held at the most */
	KUNIT_EXPECT_EQ(test, qp->toe.rto_ms, 8000U);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_nxt,
			(u32)ISIM_T_SND_NXT + ISIM_T_MPA_REP_LEN);

	isim_t_rto_expire(t, qp);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, isim_t_toe_ae(test, m, 0, &id),
			(u64)ISIM_AE_LLP_TOO_MANY_RETRIES);
	KUNIT_EXPECT_EQ(test, id, (u32)ISIM_T_IWQP);
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_FALSE(test, qp->toe.linked);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts),
			(s64)ISIM_T_REXMIT + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.gave_up), 1LL);
}

/*
 * The peer's ACK of the LSMM is waiting in the engine's queue when the
 * timer expires (a busy machine): the pass looks at it first, so nothing
 * is sent again and no expiry is counted.
 */
static void isim_toe_queued_ack_beats_timer(struct kunit *test)
{
	u32 una = ISIM_T_SND_NXT + ISIM_T_MPA_REP_LEN;
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct isim_qp *qp;
	u8 none = 0;
	u32 records;

	qp = isim_t_toe_lsmm_sent(test, &m, false);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  una, 8192, &none, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&qp->toe.rx_queued), 1);
	isim_t_rto_expire(t, qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp->toe.rx_queued), 0);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, una);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(qp, &records), 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 0LL);
	KUNIT_EXPECT_EQ(test, t->f->toe.rxq_max, 1U);
}

/*
 * The third duplicate ACK sends the unacknowledged LSMM again at once (a
 * fourth does not); the ACK that covers it empties the queue and resets
 * the count of expiries.
 */
static void isim_toe_third_dup_ack_resends(struct kunit *test)
{
	u32 una = ISIM_T_SND_NXT + ISIM_T_MPA_REP_LEN;
	struct isim_test *t = test->priv;
	struct isim_t_toe *m;
	struct sk_buff *skb;
	struct isim_qp *qp;
	u8 none = 0;
	u32 i;
	u32 records;

	qp = isim_t_toe_lsmm_sent(test, &m, false);
	/* the first brings a new window: not a duplicate */
	for (i = 0; i < 1 + ISIM_T_DUPACKS; i++) {
		KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10,
							  ISIM_T_RCV_NXT,
							  ISIM_T_SND_NXT, 8192,
							  &none, 0));
		isim_t_poll(t);
		KUNIT_EXPECT_EQ(test, skb_queue_len(&t->ilq->frames),
				i == ISIM_T_DUPACKS ? 1U : 0U);
	}
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	isim_t_check_lsmm(test, skb, isim_t_mpa_rep, ISIM_T_MPA_REP_LEN);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.retrans), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->toe.timeouts), 0LL);
	/* a fourth duplicate: no second fast retransmit */
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  ISIM_T_SND_NXT, 8192, &none,
						  0));
	isim_t_poll(t);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));

	isim_t_rto_expire(t, qp);
	skb = skb_dequeue(&t->ilq->frames);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, qp->toe.retries, (u8)1);
	KUNIT_EXPECT_TRUE(test, isim_t_toe_rx_seg(test, 0x10, ISIM_T_RCV_NXT,
						  una, 8192, &none, 0));
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->toe.snd_una, una);
	KUNIT_EXPECT_EQ(test, isim_t_rtx_count(qp, &records), 0U);
	KUNIT_EXPECT_EQ(test, qp->toe.retries, (u8)0);
	KUNIT_EXPECT_EQ(test, qp->toe.rto_ms, (u32)ISIM_T_RTO_MS);
	/* nothing in flight: an expiry sends nothing */
	isim_t_rto_expire(t, qp);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&t->ilq->frames));
	KUNIT_EXPECT_EQ(test, qp->state, (u8)ISIM_QPS_RTS);
}

static struct kunit_case isim_toe_test_cases[] = {
	KUNIT_CASE_PARAM(isim_toe_modify_checks_context, isim_toe_gen_params),
	KUNIT_CASE(isim_toe_lsmm_sent_then_held),
	KUNIT_CASE(isim_toe_offload_drops_established_filter),
	KUNIT_CASE(isim_toe_fin_and_rst_raise_aes),
	KUNIT_CASE(isim_toe_graceful_close_local_first),
	KUNIT_CASE(isim_toe_graceful_close_peer_first),
	KUNIT_CASE(isim_toe_time_wait_acks_fin_again),
	KUNIT_CASE(isim_toe_time_wait_ends_at_syn),
	KUNIT_CASE(isim_toe_time_wait_expires),
	KUNIT_CASE(isim_toe_resetcon_sends_rst),
	KUNIT_CASE(isim_toe_acks_coalesce),
	KUNIT_CASE(isim_toe_fin_waits_for_the_sq),
	KUNIT_CASE(isim_toe_acks_window_and_duplicates),
	KUNIT_CASE(isim_toe_resends_then_gives_up),
	KUNIT_CASE(isim_toe_queued_ack_beats_timer),
	KUNIT_CASE(isim_toe_third_dup_ack_resends),
	{}
};

static struct kunit_suite isim_toe_test_suite = {
	.name = "irdma_sim_toe",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_toe_test_cases,
};

/* the same on a function modelling an X722 (gen1) */
static struct kunit_case isim_toe_gen1_test_cases[] = {
	KUNIT_CASE_PARAM(isim_toe_modify_checks_context,
			 isim_toe_gen1_gen_params),
	KUNIT_CASE(isim_toe_lsmm_sent_then_held),
	{}
};

static struct kunit_suite isim_toe_gen1_test_suite = {
	.name = "irdma_sim_toe_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_toe_gen1_test_cases,
};

kunit_test_suites(&isim_toe_test_suite, &isim_toe_gen1_test_suite);
