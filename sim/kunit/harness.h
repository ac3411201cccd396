/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the simulator's KUnit suites share, each included at the end of
 * the sim file it tests: the fixture, a bare function driven the way a
 * driver drives it, through the register space and host memory only (no
 * bus, no netdev, no workqueue: the engine's pass runs by hand, so no
 * module state is needed), and the helpers of more than one suite.
 */
#ifndef ISIM_KUNIT_HARNESS_H
#define ISIM_KUNIT_HARNESS_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/crc32.h>
#include <linux/dma-direct.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <asm/unaligned.h>
#include <net/checksum.h>

/**
 * struct isim_t_ilq - host memory of the ILQ a test creates
 * @cq: ILQ CQ ring, 32-byte CQEs
 * @rings: SQ (8 quanta) at quantum 0, RQ (8 quanta) at quantum 8, the QP
 *	host context at byte 1024
 * @bufs: transmit buffer at byte 0, receive buffers 512 bytes each from
 *	byte 1024
 * @frames: frames the engine transmitted
 */
struct isim_t_ilq {
	__le64 *cq, *rings;
	u8 *bufs;
	struct sk_buff_head frames;
};

/**
 * struct isim_test - fixture: one bare function and the host memory a
 * driver would have given it
 * @f: the function
 * @ctx: CQP host context
 * @sq: CQP ring
 * @ccq: CCQ ring
 * @shadow: CCQ shadow area
 * @buf: a command buffer (FPM values, SD entries)
 * @eq: an event queue ring
 * @page: a page to point PDs and PBLEs at
 * @head: driver's CQP producer index
 * @pol: driver's CQP valid bit
 * @irq_hits: interrupts received on vector 0
 * @irq_done: completed by the vector 0 handler
 * @ilq: the ILQ's memory, in the tests that create one
 */
struct isim_test {
	struct isim_func *f;
	__le64 *ctx, *sq, *ccq, *shadow, *buf, *eq, *page;
	u32 head;
	u8 pol;
	atomic_t irq_hits;
	struct completion irq_done;
	struct isim_t_ilq *ilq;
};

static inline u64 isim_t_bus(struct isim_test *t, void *va)
{
	return phys_to_dma(&t->f->dev, virt_to_phys(va));
}

static inline void *isim_t_page(struct kunit *test)
{
	/* kmalloc of a power of two is aligned to it */
	return kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
}

#define ISIM_T_RTO_MS		(10 * 60 * MSEC_PER_SEC)

/* the scheduler leaf every QP of the tests names, and its QPC word 22 */
#define ISIM_T_LEAF		2
#define ISIM_T_QS		FIELD_PREP(ISIM_QPC_W22_QS_HANDLE, ISIM_T_LEAF)

/* register QS handle @h for @tc with the parent, as qset_add does */
static inline int isim_t_qset_add(struct isim_func *f, u32 h, u8 tc)
{
	int err;

	mutex_lock(&f->eng_lock);
	err = isim_sched_qset_add(f, h, tc);
	mutex_unlock(&f->eng_lock);
	return err;
}

/*
 * One traffic class, as the parent reports without DCB, and the tree a
 * driver builds for it: root 0, VSI node 1, leaf ISIM_T_LEAF on TC 0,
 * enabled and registered. The passes it would ask for are not wanted: a
 * case starts with an engine that has nothing to look at.
 */
static inline void isim_t_sched(struct kunit *test, struct isim_func *f)
{
	spin_lock_init(&f->qos_lock);
	f->qos.num_tc = 1;
	f->qos.rel_bw[0] = 100;
	/* gen1 has no scheduler: every QP is served */
	if (f->gen == ISIM_GEN1)
		return;
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, 0, 0, 0, false, true), 0);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, 1, 0, 0, false, true), 0);
	KUNIT_EXPECT_EQ(test, isim_ws_add(f, ISIM_T_LEAF, 1, 0, true, true), 0);
	KUNIT_EXPECT_EQ(test, isim_sched_qset_add(f, ISIM_T_LEAF, 0), 0);
	f->rescan = false;
	mutex_unlock(&f->eng_lock);
}

static inline int isim_test_init_gen(struct kunit *test, u8 gen)
{
	struct isim_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct isim_func *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->dev.dma_mask = &f->dev.coherent_dma_mask;
	f->dev.coherent_dma_mask = DMA_BIT_MASK(64);
	/* the engine's warnings name the function */
	f->dev.init_name = "isim-kunit";
	f->protocol = ISIM_AUX_IWARP;
	f->gen = gen;
	t->f = f;
	t->pol = 1;
	init_completion(&t->irq_done);
	t->ctx = isim_t_page(test);
	t->sq = isim_t_page(test);
	t->ccq = isim_t_page(test);
	t->shadow = isim_t_page(test);
	t->buf = isim_t_page(test);
	t->eq = isim_t_page(test);
	t->page = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, t->page);
	KUNIT_ASSERT_EQ(test, isim_regs_init(f), 0);
	if (isim_irq_init(f)) {
		isim_regs_exit(f);
		KUNIT_FAIL(test, "no interrupt domain");
		return -ENOMEM;
	}
	if (isim_engine_init(f)) {
		isim_irq_exit(f);
		isim_regs_exit(f);
		KUNIT_FAIL(test, "no engine state");
		return -ENOMEM;
	}
	/*
	 * a test can take longer than a real timeout under TCG; the tests of
	 * retransmission make the timer expire themselves
	 */
	f->toe.rto_ms = ISIM_T_RTO_MS;
	isim_t_sched(test, f);
	test->priv = t;
	return 0;
}

static inline int isim_test_init(struct kunit *test)
{
	return isim_test_init_gen(test, ISIM_GEN2);
}

/* the same bare function, modelling an X722 */
static inline int isim_test_init_gen1(struct kunit *test)
{
	return isim_test_init_gen(test, ISIM_GEN1);
}

static inline void isim_test_exit(struct kunit *test)
{
	struct isim_test *t = test->priv;

	if (t->ilq)
		skb_queue_purge(&t->ilq->frames);
	isim_engine_stop(t->f);
	isim_engine_exit(t->f);
	isim_irq_exit(t->f);
	isim_regs_exit(t->f);
}

/*
 * One engine pass after a WQEALLOC doorbell: the cases write WQEs straight
 * into the rings and expect a pass to take them, as it does for a driver
 * that posts and rings (isim_exec_sq_waits_for_doorbell() without it).
 */
static inline void isim_t_poll(struct isim_test *t)
{
	mutex_lock(&t->f->eng_lock);
	isim_wr32(t->f, t->f->rm->wqealloc, 0);
	isim_engine_poll(t->f);
	mutex_unlock(&t->f->eng_lock);
}

/* write a CQP host context and trigger CQP creation */
static inline void isim_t_cqp_open(struct isim_test *t, u32 enc, u64 sq_off,
				   u32 major, u32 proto)
{
	u64 ctx_pa = isim_t_bus(t, t->ctx);

	t->ctx[0] = cpu_to_le64(FIELD_PREP(ISIM_CQPCTX_W0_SQSIZE, enc) |
				FIELD_PREP(ISIM_CQPCTX_W0_PROTOCOL, proto));
	t->ctx[1] = cpu_to_le64(isim_t_bus(t, t->sq) + sq_off);
	t->ctx[3] = cpu_to_le64(0xc0ffee);
	t->ctx[4] = cpu_to_le64(FIELD_PREP(ISIM_CQPCTX_W4_HW_MAJOR, major));
	isim_wr32(t->f, t->f->rm->ccqphigh, upper_32_bits(ctx_pa));
	isim_wr32(t->f, t->f->rm->ccqplow, lower_32_bits(ctx_pa));
	isim_t_poll(t);
}

static inline void isim_t_cqp_ok(struct kunit *test, u32 enc)
{
	struct isim_test *t = test->priv;

	u32 proto = t->f->protocol == ISIM_AUX_ROCEV2 ?
		    ISIM_CQPCTX_PROTO_ROCE : ISIM_CQPCTX_PROTO_IWARP;

	/* a gen1 context has no protocol field: 0 there, as i40iw writes */
	if (t->f->gen == ISIM_GEN1)
		isim_t_cqp_open(t, enc, 0, ISIM_CQP_HW_MAJOR_GEN1, 0);
	else
		isim_t_cqp_open(t, enc, 0, ISIM_CQP_HW_MAJOR_GEN2, proto);
	KUNIT_ASSERT_EQ(test, isim_rd32(t->f, t->f->rm->ccqpstatus),
			(u32)ISIM_CCQPSTATUS_DONE);
}

/* post one CQP WQE (words 0..7, header in word 3 without valid/opcode) */
static inline void isim_t_post(struct isim_test *t, u32 op, const u64 *w,
			       bool valid)
{
	__le64 *wqe = t->sq + t->head * ISIM_CQP_WQE_WORDS;
	u32 size = t->f->cqp.size;
	u64 hdr;
	int i;

	for (i = 0; i < ISIM_CQP_WQE_WORDS; i++)
		wqe[i] = cpu_to_le64(w ? w[i] : 0);
	hdr = (w ? w[ISIM_WQE_HDR] : 0) | FIELD_PREP(ISIM_HDR_OPCODE, op);
	if (valid == !!t->pol)
		hdr |= ISIM_HDR_VALID;
	wqe[ISIM_WQE_HDR] = cpu_to_le64(hdr);
	if (++t->head == size) {
		t->head = 0;
		t->pol ^= 1;
	}
	isim_wr32(t->f, t->f->rm->cqpdb, t->head);
}

static inline void isim_t_run(struct isim_test *t, u32 op, const u64 *w)
{
	isim_t_post(t, op, w, true);
	isim_t_poll(t);
}

static inline u32 isim_t_minor(struct isim_test *t)
{
	if (!(isim_rd32(t->f, t->f->rm->cqptail) & ISIM_CQPTAIL_OP_ERR))
		return 0;
	return FIELD_GET(ISIM_CQPERR_MINOR,
			 isim_rd32(t->f, t->f->rm->cqperrcodes));
}

/* post CREATE_CQ for the CCQ (CQ 0) with @size CQEs on CEQ 0 */
static inline void isim_t_ccq_post(struct isim_test *t, u32 size)
{
	u64 w[8] = {};

	w[0] = size;
	w[1] = 0x1234;
	w[4] = isim_t_bus(t, t->ccq);
	w[5] = isim_t_bus(t, t->shadow);
	w[ISIM_WQE_HDR] = ISIM_CQ_HDR_CEQ_VALID;
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
}

static inline void isim_t_ccq(struct kunit *test, u32 size)
{
	struct isim_test *t = test->priv;

	isim_t_ccq_post(t, size);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/**
 * struct isim_t_count - how many objects of one HMC kind to commit
 * @obj: the kind (ISIM_HMC_*, its slot in the FPM buffer)
 * @n: how many
 */
struct isim_t_count {
	unsigned int obj;
	u32 n;
};

/* commit the @k counts of @c, all at HMC offset 0, and no other object */
static inline void isim_t_commit_counts(struct kunit *test,
					const struct isim_t_count *c, unsigned int k)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	memset(t->buf, 0, ISIM_FPM_BUF_BYTES);
	while (k--)
		t->buf[c[k].obj] = cpu_to_le64(c[k].n);
	w[4] = isim_t_bus(t, t->buf);
	isim_t_run(t, ISIM_OP_COMMIT_FPM, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* commit @n objects of kind @obj at HMC offset 0, nothing else */
static inline void isim_t_commit(struct kunit *test, unsigned int obj, u32 n)
{
	const struct isim_t_count one = { obj, n };

	isim_t_commit_counts(test, &one, 1);
}

/* back SD 0 with a PD page (t->eq) whose first PD is t->page */
static inline void isim_t_back_sd0(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	t->eq[0] = cpu_to_le64(isim_t_bus(t, t->page) | ISIM_PDE_VALID);
	w[0] = ISIM_SDCMD_WRITE;
	w[1] = isim_t_bus(t, t->eq) | ISIM_SDDATA_VALID;
	isim_t_run(t, ISIM_OP_UPDATE_SDS, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

static inline void isim_t_qp_cmd(struct isim_test *t, u32 op, u32 id, u32 type)
{
	u64 w[8] = {};

	w[2] = isim_t_bus(t, t->buf);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, type);
	isim_t_run(t, op, w);
}

/* WORK_SCHED_NODE @op on node @id under @parent; Return: the minor code */
static inline u32 isim_t_ws(struct isim_test *t, u32 op, u32 id, u32 parent, u8 tc,
			    u64 flags)
{
	u64 w[8] = {};

	w[4] = FIELD_PREP(ISIM_WS_W4_WEIGHT, 4);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_WS_HDR_NODE, id) |
			  FIELD_PREP(ISIM_WS_HDR_PARENT, parent) |
			  FIELD_PREP(ISIM_WS_HDR_OP, op) |
			  FIELD_PREP(ISIM_WS_HDR_TC, tc) | flags;
	isim_t_run(t, ISIM_OP_WS_NODE, w);
	return isim_t_minor(t);
}

#define ISIM_T_WS_LEAF	(ISIM_WS_HDR_LEAF | ISIM_WS_HDR_ENABLE)

/* ---- STags ---- */

/* header fields for static tables (FIELD_PREP needs a function) */
#define ISIM_T_RIGHTS(r)	((u64)(r) << 48)

#define ISIM_T_LW		ISIM_RIGHT_LOCAL_WRITE
#define ISIM_T_RR		ISIM_RIGHT_REMOTE_READ
#define ISIM_T_RW		ISIM_RIGHT_REMOTE_WRITE
#define ISIM_T_MR		(ISIM_STAG_HDR_MR | ISIM_STAG_HDR_VA_BASED)

static inline void isim_t_stag(struct isim_test *t, u32 op, u32 idx, u32 pd,
			       u64 len, u64 hdr, u64 buf)
{
	u64 w[8] = {};

	w[0] = 0x7f0000000000ULL;
	w[1] = FIELD_PREP(ISIM_STAG_W1_LEN, len);
	if (t->f->gen == ISIM_GEN1)
		w[1] |= FIELD_PREP(ISIM_STAG_W1_G1_PD, pd);
	else
		w[1] |= FIELD_PREP(ISIM_STAG_W1_PD, pd);
	w[2] = FIELD_PREP(ISIM_STAG_W2_INDEX, idx) |
	       FIELD_PREP(ISIM_STAG_W2_KEY, 0x5a);
	w[4] = buf;
	w[ISIM_WQE_HDR] = hdr;
	isim_t_run(t, op, w);
}

/* ---- data path (exec.c), on QPs and a CQ made by hand ---- */

#define ISIM_T_CQ	1
#define ISIM_T_CQ_SIZE	32
/*
 * The ARP entry hand-made RC QPs name (stored directly, above the entries
 * the CQP tests make), and the MAC of the QPs and of that entry
 */
#define ISIM_T_RC_ARP	0x7f
#define ISIM_T_RC_MAC	0x020000000011ULL

/* CQ 1: a 32-entry ring in @ring, no overflow check, no CEQ */
static inline void isim_t_hand_cq(struct kunit *test, __le64 *ring)
{
	struct isim_test *t = test->priv;
	struct isim_cq *cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq->id = ISIM_T_CQ;
	cq->ring.mem.pa = isim_t_bus(t, ring);
	cq->ring.mem.bytes = ISIM_T_CQ_SIZE * ISIM_CQE_BYTES;
	cq->ring.size = ISIM_T_CQ_SIZE;
	cq->ring.elem = ISIM_CQE_BYTES;
	cq->ring.polarity = 1;
	cq->shadow_pa = isim_t_bus(t, t->shadow);
	mutex_lock(&t->f->eng_lock);
	err = isim_cq_add(t->f, cq);
	mutex_unlock(&t->f->eng_lock);
	if (err) {
		kfree(cq);
		KUNIT_FAIL(test, "cannot insert the CQ");
	}
}

/*
 * A QP of @type with 32 SQ quanta and 4 RQ WQEs of 2 quanta, rings in @sq
 * and @rq, context word 8 @w8 (destination QP, Q_Key), privileged,
 * completing to CQ 1.
 */
static inline struct isim_qp *isim_t_hand_qp_type(struct kunit *test, u32 id,
						  u8 type, u64 w8, u8 state,
						  __le64 *sq, __le64 *rq)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8] = {};
	int err;

	KUNIT_ASSERT_NOT_NULL(test, qp);
	ctx[0] = FIELD_PREP(ISIM_QPC_W0_RQ_WQE_SHIFT, 1);
	ctx[1] = isim_t_bus(t, sq);
	ctx[2] = isim_t_bus(t, rq);
	ctx[3] = FIELD_PREP(ISIM_QPC_W3_SQ_SIZE, 3) |
		 FIELD_PREP(ISIM_QPC_W3_RQ_SIZE, 1);
	ctx[6] = FIELD_PREP(ISIM_QPC_W6_ARP_IDX, ISIM_T_RC_ARP);
	ctx[8] = w8;
	ctx[19] = FIELD_PREP(ISIM_QPC_W19_LOCAL_MAC, ISIM_T_RC_MAC);
	ctx[17] = FIELD_PREP(ISIM_QPC_W17_SQ_CQ, ISIM_T_CQ) |
		  FIELD_PREP(ISIM_QPC_W17_RQ_CQ, ISIM_T_CQ);
	ctx[20] = ISIM_QPC_W20_PRIVILEGED | ISIM_QPC_W20_REMOTE_WRITE |
		  ISIM_QPC_W20_REMOTE_READ;
	ctx[21] = 0x500 + id;
	ctx[22] = ISIM_T_QS;
	qp->id = id;
	qp->type = type;
	qp->state = ISIM_QPS_IDLE;
	/* RC traffic loops back: the next hop is the QP's own MAC */
	KUNIT_ASSERT_FALSE(test, xa_err(xa_store(&t->f->conn.arp, ISIM_T_RC_ARP,
						 xa_mk_value(ISIM_T_RC_MAC),
						 GFP_KERNEL)));
	isim_exec_load_ctx(qp, ctx, false);
	isim_exec_new_state(t->f, qp, ISIM_QPS_INVALID);
	qp->state = state;
	mutex_lock(&t->f->eng_lock);
	err = isim_qp_add(t->f, qp);
	mutex_unlock(&t->f->eng_lock);
	if (err) {
		kfree(qp);
		KUNIT_FAIL(test, "cannot insert the QP");
		return NULL;
	}
	return qp;
}

/* an RC QP as above, connected to @dest */
static inline struct isim_qp *isim_t_hand_qp(struct kunit *test, u32 id, u32 dest,
					     u8 state, __le64 *sq, __le64 *rq)
{
	return isim_t_hand_qp_type(test, id, ISIM_QP_TYPE_ROCE_RC,
				   FIELD_PREP(ISIM_QPC_W8_DEST_QP, dest),
				   state, sq, rq);
}

/* a one-fragment WQE at quantum @idx of @ring, on the first lap */
static inline void isim_t_wqe(__le64 *ring, u32 idx, u8 op, u64 addr, u32 len,
			      u64 w2, u64 hdr)
{
	struct isim_test *t = current->kunit_test->priv;
	__le64 *q = ring + idx * 4;

	q[0] = cpu_to_le64(addr);
	/* STag 0; gen2 has the valid bit in every fragment, gen1 none */
	if (t->f->gen == ISIM_GEN1)
		q[1] = cpu_to_le64(FIELD_PREP(ISIM_FRAG_G1_LEN, len));
	else
		q[1] = cpu_to_le64(FIELD_PREP(ISIM_FRAG_LEN, len) |
				   BIT_ULL(63));
	q[2] = cpu_to_le64(w2);
	q[3] = cpu_to_le64(FIELD_PREP(ISIM_WQH_OP, op) | hdr | ISIM_WQH_VALID);
}

/*
 * CQ 1 on t->ccq and QP 2, in RTS and connected to itself, on t->sq and
 * t->eq (as its RQ)
 */
static inline struct isim_qp *isim_t_self_qp(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp(test, 2, 2, ISIM_QPS_RTS, t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	return qp;
}

/* CQE @i of the 32-byte ring @cq: word @w */
static inline u64 isim_t_cqe(const __le64 *cq, u32 i, u32 w)
{
	return le64_to_cpu(cq[i * 4 + w]);
}

/* ---- the ILQ ---- */

#define ISIM_T_ILQ		1	/* the ILQ's QP and CQ id */
#define ISIM_T_ILQ_AH		5
/* AH contexts (FSIAV) the ILQ set-up commits */
#define ISIM_T_AHS		8
#define ISIM_T_ILQ_ARP		2
#define ISIM_T_LOC_IP		0xc0000201	/* 192.0.2.1 */
#define ISIM_T_REM_IP		0xc0000202	/* 192.0.2.2 */
#define ISIM_T_REM_MAC		0x020000000099ULL
#define ISIM_T_LOC_MAC		0x024953000001ULL
#define ISIM_T_LMAC_IDX		1	/* gen1: the local MAC table entry */

static inline void isim_t_tap(struct isim_func *f, struct sk_buff *skb)
{
	struct kunit *test = current->kunit_test;
	struct isim_t_ilq *q = ((struct isim_test *)test->priv)->ilq;

	skb_queue_tail(&q->frames, skb);
}

/* commit QPs, CQs, ARP entries, hash entries, MRs and AHs at offset 0 */
static inline void isim_t_ilq_commit(struct kunit *test)
{
	static const struct isim_t_count counts[] = {
		{ ISIM_HMC_QP, 4 }, { ISIM_HMC_CQ, 4 }, { ISIM_HMC_ARP, 4 },
		{ ISIM_HMC_HTE, 16 }, { ISIM_HMC_MR, 4 },
		{ ISIM_HMC_FSIAV, ISIM_T_AHS },
	};
	struct isim_test *t = test->priv;

	/* gen1 has no AH contexts (FSIAV, the last entry) */
	isim_t_commit_counts(test, counts, ARRAY_SIZE(counts) -
			     (t->f->gen == ISIM_GEN1 ? 1 : 0));
}

static inline void isim_t_ilq_cq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[0] = 32;
	w[1] = 0x11c;
	w[4] = isim_t_bus(t, t->ilq->cq);
	w[5] = isim_t_bus(t, t->shadow);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_CQ_HDR_ID, ISIM_T_ILQ) |
			  ISIM_CQ_HDR_CHK_OVERFLOW;
	isim_t_run(t, ISIM_OP_CREATE_CQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* CREATE_QP of a UDA QP @id in RTS, as the driver creates the ILQ */
static inline void isim_t_ilq_qp_post(struct kunit *test, u32 id)
{
	struct isim_test *t = test->priv;
	__le64 *ctx = t->ilq->rings + 1024 / 8;
	u64 w[8] = {};

	memset(ctx, 0, ISIM_QP_HOST_CTX_BYTES);
	ctx[1] = cpu_to_le64(isim_t_bus(t, t->ilq->rings));
	ctx[2] = cpu_to_le64(isim_t_bus(t, t->ilq->rings + 8 * 4));
	ctx[3] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W3_SQ_SIZE, 1) |
			     FIELD_PREP(ISIM_QPC_W3_RQ_SIZE, 1));
	ctx[17] = cpu_to_le64(FIELD_PREP(ISIM_QPC_W17_SQ_CQ, ISIM_T_ILQ) |
			      FIELD_PREP(ISIM_QPC_W17_RQ_CQ, ISIM_T_ILQ));
	ctx[20] = cpu_to_le64(ISIM_QPC_W20_PRIVILEGED);
	ctx[21] = cpu_to_le64(0xabc0);
	ctx[22] = cpu_to_le64(ISIM_T_QS);
	w[2] = isim_t_bus(t, ctx);
	w[5] = isim_t_bus(t, t->shadow) + 64;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_UDA) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE, ISIM_QPS_RTS) |
			  ISIM_QP_HDR_CQ_VALID;
	isim_t_run(t, ISIM_OP_CREATE_QP, w);
}

/*
 * gen1: local MAC table entries 0 (allocated, never set) and
 * ISIM_T_LMAC_IDX (the function's MAC), which gen1 QP contexts name
 */
static inline void isim_t_lmac(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};
	int i;

	for (i = 0; i <= ISIM_T_LMAC_IDX; i++) {
		isim_t_run(t, ISIM_OP_ALLOC_MAC, NULL);
		KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	}
	w[4] = ISIM_T_LOC_MAC;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_LMAC_HDR_INDEX, ISIM_T_LMAC_IDX);
	isim_t_run(t, ISIM_OP_MANAGE_MAC, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/*
 * an ARP entry for the peer and an IPv4 AH to it, as the CM makes them
 * (gen1, which has no AHs: the local MAC table instead)
 */
static inline void isim_t_ilq_ah(struct kunit *test)
{
	struct isim_test *t = test->priv;
	u64 w[8] = {};

	w[2] = ISIM_T_REM_MAC;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_ARP_HDR_INDEX, ISIM_T_ILQ_ARP) |
			  ISIM_ARP_HDR_VALID;
	isim_t_run(t, ISIM_OP_MANAGE_ARP, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	if (t->f->gen == ISIM_GEN1) {
		isim_t_lmac(test);
		return;
	}
	memset(w, 0, sizeof(w));
	w[0] = ISIM_T_LOC_MAC << 16;
	w[1] = FIELD_PREP(ISIM_AH_W1_TC, 0x10);
	w[2] = FIELD_PREP(ISIM_AH_W2_ARP, ISIM_T_ILQ_ARP) |
	       FIELD_PREP(ISIM_AH_W2_HOP_LIMIT, 64);
	w[4] = ISIM_T_REM_IP;
	w[6] = ISIM_T_LOC_IP;
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_AH_HDR_INDEX, ISIM_T_ILQ_AH) |
			  ISIM_AH_HDR_IPV4;
	isim_t_run(t, ISIM_OP_CREATE_AH, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
}

/* everything the driver sets up before the CM sends or receives */
static inline void isim_t_ilq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_t_ilq *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->cq = isim_t_page(test);
	q->rings = isim_t_page(test);
	q->bufs = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, q->bufs);
	skb_queue_head_init(&q->frames);
	t->ilq = q;
	t->f->ilq.tx_tap = isim_t_tap;
	isim_t_cqp_ok(test, 2);
	isim_t_ilq_commit(test);
	isim_t_back_sd0(test);
	isim_t_ilq_cq(test);
	isim_t_ilq_qp_post(test, ISIM_T_ILQ);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_ilq_ah(test);
}

/* a TCP header from @sport to @dport with @flags, then @data bytes */
static inline void isim_t_tcp(u8 *p, u16 sport, u16 dport, u8 flags, u32 data)
{
	struct tcphdr *th = (struct tcphdr *)p;
	u32 i;

	memset(th, 0, sizeof(*th));
	th->source = htons(sport);
	th->dest = htons(dport);
	th->seq = htonl(0x1000);
	th->doff = 5;
	((u8 *)th)[13] = flags;
	th->window = htons(8192);
	for (i = 0; i < data; i++)
		p[sizeof(*th) + i] = 0xa0 + i;
}

/* post SQ WQE @idx: @len bytes of the transmit buffer through AH @ah */
static inline void isim_t_ilq_send(struct isim_test *t, u32 idx, u32 len, u32 ah)
{
	isim_t_wqe(t->ilq->rings, idx, ISIM_WQOP_SEND,
		   isim_t_bus(t, t->ilq->bufs), len, 0,
		   FIELD_PREP(ISIM_ILQ_SQ_HDR_AH, ah) |
		   FIELD_PREP(ISIM_ILQ_SQ_HDR_L4LEN, 5) | ISIM_WQH_SIGNALED);
}

/* a frame 192.0.2.2:40000 -> 192.0.2.1:@dport as eth_type_trans() leaves it */
static inline struct sk_buff *isim_t_rx_frame(struct kunit *test, u16 dport,
					      u8 flags, u16 vlan)
{
	u32 seg = sizeof(struct tcphdr) + 4;
	struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);
	struct ethhdr *eh;
	struct iphdr *ih;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	eh = skb_put_zero(skb, ETH_HLEN);
	u64_to_ether_addr(ISIM_T_LOC_MAC, eh->h_dest);
	u64_to_ether_addr(ISIM_T_REM_MAC, eh->h_source);
	eh->h_proto = htons(ETH_P_IP);
	ih = skb_put_zero(skb, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->tot_len = htons(sizeof(*ih) + seg);
	ih->ttl = 64;
	ih->protocol = IPPROTO_TCP;
	ih->saddr = htonl(ISIM_T_REM_IP);
	ih->daddr = htonl(ISIM_T_LOC_IP);
	isim_t_tcp(skb_put(skb, seg), 40000, dport, flags, 4);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	if (vlan)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), vlan);
	return skb;
}

/* ---- offloaded iWARP connections (toe.c) ---- */

#define ISIM_T_IWQP		2
#define ISIM_T_LPORT		7000
#define ISIM_T_RPORT		40000	/* isim_t_rx_frame()'s source port */
#define ISIM_T_SND_NXT		0x11223344
#define ISIM_T_RCV_NXT		0x1000	/* isim_t_tcp()'s sequence number */
#define ISIM_T_RCV_WND		0x20000
#define ISIM_T_RCV_SCALE	2
#define ISIM_T_IW_CTX		0x77

#define ISIM_T_REXMIT		2	/* retransmission timeouts survived */

/**
 * struct isim_t_toe - host memory of an offloaded QP
 * @ctx: QP host context
 * @sq: SQ ring (32 quanta), RQ ring in its second half
 * @buf: the LSMM's buffer
 * @aeq: AEQ ring (8 entries)
 */
struct isim_t_toe {
	__le64 *ctx, *sq, *buf, *aeq;
};

/* the QP's Q2: in the page of its context, after the context */
#define ISIM_T_Q2_OFF	2048

/* the context of an iWARP QP connected 192.0.2.1:7000 - 192.0.2.2:40000 */
static inline void isim_t_toe_ctx(struct isim_test *t, struct isim_t_toe *m,
				  u64 *ctx)
{
	memset(ctx, 0, ISIM_QP_HOST_CTX_BYTES);
	ctx[0] = ISIM_QPC_W0_IPV4;
	ctx[1] = isim_t_bus(t, m->sq);
	ctx[2] = isim_t_bus(t, m->sq + 256);
	ctx[3] = FIELD_PREP(ISIM_QPC_W3_SQ_SIZE, 3) |
		 FIELD_PREP(ISIM_QPC_W3_RQ_SIZE, 1) |
		 FIELD_PREP(ISIM_QPC_W3_TTL, 32) |
		 FIELD_PREP(ISIM_QPC_W3_TOS, 0x28) |
		 FIELD_PREP(ISIM_QPC_W3_SRC_PORT, ISIM_T_LPORT) |
		 FIELD_PREP(ISIM_QPC_W3_DST_PORT, ISIM_T_RPORT);
	ctx[ISIM_QPC_W_REM_ADDR] = ISIM_T_REM_IP;
	ctx[6] = FIELD_PREP(ISIM_QPC_W6_SNDMSS, 1460) |
		 FIELD_PREP(ISIM_QPC_W6_ARP_IDX, ISIM_T_ILQ_ARP);
	ctx[7] = FIELD_PREP(ISIM_QPC_W7_TCP_STATE, ISIM_QPC_TCPS_ESTABLISHED) |
		 FIELD_PREP(ISIM_QPC_W7_RCV_SCALE, ISIM_T_RCV_SCALE);
	ctx[10] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_SND_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, 0xffff);
	ctx[11] = FIELD_PREP(ISIM_QPC_SEQ_LO, ISIM_T_RCV_NXT) |
		  FIELD_PREP(ISIM_QPC_SEQ_HI, ISIM_T_RCV_WND);
	ctx[16] = FIELD_PREP(ISIM_QPC_W16_REXMIT_THRESH, ISIM_T_REXMIT);
	ctx[17] = FIELD_PREP(ISIM_QPC_W17_SQ_CQ, ISIM_T_ILQ) |
		  FIELD_PREP(ISIM_QPC_W17_RQ_CQ, ISIM_T_ILQ);
	/* gen1 leaves word 19's MAC 0 and names a local MAC table entry */
	if (t->f->gen == ISIM_GEN1)
		ctx[3] |= FIELD_PREP(ISIM_QPC_W3_G1_SRCMAC_IDX, ISIM_T_LMAC_IDX);
	else
		ctx[19] = FIELD_PREP(ISIM_QPC_W19_LOCAL_MAC, ISIM_T_LOC_MAC);
	ctx[20] = ISIM_QPC_W20_PRIVILEGED;
	ctx[18] = isim_t_bus(t, m->ctx) + ISIM_T_Q2_OFF;
	ctx[21] = ISIM_T_IW_CTX;
	ctx[22] = ISIM_T_QS;
	ctx[ISIM_QPC_W_LOC_ADDR] = ISIM_T_LOC_IP;
}

/* CREATE_QP or MODIFY_QP of iWARP QP @id to @state with context @ctx */
static inline void isim_t_toe_cmd(struct isim_test *t, struct isim_t_toe *m,
				  u32 op, u32 id, u8 state, bool tcp, const u64 *ctx)
{
	u64 w[8] = {};
	int i;

	for (i = 0; i < ISIM_QP_HOST_CTX_BYTES / 8; i++)
		m->ctx[i] = cpu_to_le64(ctx[i]);
	w[2] = isim_t_bus(t, m->ctx);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id) |
			  FIELD_PREP(ISIM_QP_HDR_TYPE, ISIM_QP_TYPE_IWARP) |
			  FIELD_PREP(ISIM_QP_HDR_NEXT_STATE, state) |
			  (tcp ? ISIM_QP_HDR_TCPCTX_VALID : 0);
	isim_t_run(t, op, w);
}

/* the ILQ's setup, an AEQ, and iWARP QP @id created idle */
static inline struct isim_t_toe *isim_t_toe(struct kunit *test, u32 id)
{
	struct isim_test *t = test->priv;
	struct isim_t_toe *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	u64 w[8] = {};

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->ctx = isim_t_page(test);
	m->sq = isim_t_page(test);
	m->buf = isim_t_page(test);
	m->aeq = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, m->aeq);
	isim_t_ilq(test);
	w[2] = 8;
	w[4] = isim_t_bus(t, m->aeq);
	isim_t_run(t, ISIM_OP_CREATE_AEQ, w);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	isim_t_toe_ctx(t, m, ctx);
	isim_t_toe_cmd(t, m, ISIM_OP_CREATE_QP, id, ISIM_QPS_IDLE, false, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	return m;
}

/* hand the connection of isim_t_toe_ctx() to QP @id */
static inline struct isim_qp *isim_t_offload(struct kunit *test,
					     struct isim_t_toe *m, u32 id)
{
	struct isim_test *t = test->priv;
	u64 ctx[ISIM_QP_HOST_CTX_BYTES / 8];
	struct isim_qp *qp;

	isim_t_toe_ctx(t, m, ctx);
	isim_t_toe_cmd(t, m, ISIM_OP_MODIFY_QP, id, ISIM_QPS_RTS, true, ctx);
	KUNIT_ASSERT_EQ(test, isim_t_minor(t), 0U);
	qp = xa_load(&t->f->qps, id);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_ASSERT_TRUE(test, qp->toe.linked);
	return qp;
}

/* QP ISIM_T_IWQP of a new offload set-up (*@m) handed to the engine */
static inline struct isim_qp *isim_t_toe_up(struct kunit *test,
					    struct isim_t_toe **m)
{
	*m = isim_t_toe(test, ISIM_T_IWQP);
	return isim_t_offload(test, *m, ISIM_T_IWQP);
}

/* AEQE @i of @m's AEQ: code, QP id; valid bit checked */
static inline u64 isim_t_toe_ae(struct kunit *test, struct isim_t_toe *m, u32 i,
				u32 *id)
{
	u64 w1 = le64_to_cpu(m->aeq[2 * i + 1]);

	KUNIT_EXPECT_TRUE(test, w1 & ISIM_AEQE_VALID);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(m->aeq[2 * i]), (u64)ISIM_T_IW_CTX);
	*id = FIELD_GET(ISIM_AEQE_ID_LO, w1);
	return FIELD_GET(ISIM_AEQE_CODE, w1);
}

/*
 * a segment 192.0.2.2:40000 -> 192.0.2.1:7000 carrying @len bytes, with
 * acknowledgment number @ack and window @wnd
 */
static inline bool isim_t_toe_rx_seg(struct kunit *test, u8 flags, u32 seq,
				     u32 ack, u16 wnd, const u8 *data, u32 len)
{
	struct isim_test *t = test->priv;
	u32 seg = sizeof(struct tcphdr) + len;
	struct sk_buff *skb = alloc_skb(ETH_HLEN + 20 + seg, GFP_KERNEL);
	struct iphdr *ih;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_zero(skb, ETH_HLEN);
	ih = skb_put_zero(skb, sizeof(*ih));
	ih->version = 4;
	ih->ihl = 5;
	ih->tot_len = htons(sizeof(*ih) + seg);
	ih->ttl = 64;
	ih->protocol = IPPROTO_TCP;
	ih->saddr = htonl(ISIM_T_REM_IP);
	ih->daddr = htonl(ISIM_T_LOC_IP);
	p = skb_put(skb, seg);
	isim_t_tcp(p, ISIM_T_RPORT, ISIM_T_LPORT, flags, 0);
	((struct tcphdr *)p)->seq = htonl(seq);
	((struct tcphdr *)p)->ack_seq = htonl(ack);
	((struct tcphdr *)p)->window = htons(wnd);
	memcpy(p + sizeof(struct tcphdr), data, len);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	if (isim_ilq_steer(t->f, skb))
		return true;
	kfree_skb(skb);
	return false;
}

/* the same, acknowledging nothing (0 lies outside any test's snd_una..) */
static inline bool isim_t_toe_rx_data(struct kunit *test, u8 flags, u32 seq,
				      const u8 *data, u32 len)
{
	return isim_t_toe_rx_seg(test, flags, seq, 0, 8192, data, len);
}

/* the retransmission timer of @qp expires at the next pass */
static inline void isim_t_rto_expire(struct isim_test *t, struct isim_qp *qp)
{
	mutex_lock(&t->f->eng_lock);
	qp->toe.rto_due = jiffies - 1;
	mutex_unlock(&t->f->eng_lock);
	isim_t_poll(t);
}

/* a transmitted frame comes back in, as the loopback wire turns it */
static inline void isim_t_wire_in(struct isim_test *t, struct sk_buff *skb)
{
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	if (!isim_ilq_steer(t->f, skb))
		kfree_skb(skb);
}

#endif /* ISIM_KUNIT_HARNESS_H */
