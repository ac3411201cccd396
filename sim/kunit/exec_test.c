// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_sim_exec (and irdma_sim_exec_gen1 on an X722
 * function): the data path on QPs and a CQ made by hand: WQE fragments and
 * layouts, flushes, loopback sends, protection errors, the doorbell and
 * the scheduler's leaves. Included at the end of sim/exec.c.
 */
#include "harness.h"

static void isim_exec_flush_completes_each_posted_wqe(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	struct isim_qp *qp;
	u32 i;

	qp = isim_t_self_qp(test);
	/* a fragment-less (unreachable) WRITE, a NOP pad, a SEND */
	isim_t_wqe(sq, 0, ISIM_WQOP_WRITE, 0, 0, 0, 0);
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(sq, 2, ISIM_WQOP_SEND, 0, 0, 0, 0);
	isim_t_wqe(rq, 0, 0, 0, 0, 0, 0);
	isim_t_wqe(rq, 2, 0, 0, 0, 0, 0);
	mutex_lock(&t->f->eng_lock);
	qp->state = ISIM_QPS_ERROR;
	isim_exec_flush(t->f, qp, &qp->sq, ISIM_WC_FLUSHED);
	isim_exec_flush(t->f, qp, &qp->rq, ISIM_WC_FLUSHED);
	mutex_unlock(&t->f->eng_lock);
	/* SQ quanta 0 and 2 (not the NOP), then RQ WQEs at quanta 0 and 2 */
	for (i = 0; i < 4; i++) {
		u64 w3 = isim_t_cqe(cq, i, 3);

		KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
		KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MAJOR, w3),
				(u64)ISIM_CQE_MAJ_FLUSHED);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3),
				(u64)(i % 2) * 2);
		KUNIT_EXPECT_EQ(test, !!(w3 & ISIM_CQE_W3_SQ), i < 2);
		KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, i, 1), 0x502ULL);
		KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W2_QP,
						isim_t_cqe(cq, i, 2)), 2ULL);
	}
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 4, 3) & ISIM_CQE_W3_VALID);
	/* a WQE posted to the flushed SQ later is flushed by the next pass */
	isim_t_wqe(sq, 3, ISIM_WQOP_SEND, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(cq, 4, 3)), 3ULL);
	KUNIT_EXPECT_EQ(test, qp->flushed, 5ULL);
	KUNIT_EXPECT_EQ(test, qp->executed, 0ULL);
}

/*
 * The SQ tail the engine has fetched to is in word 0 of the QP's shadow
 * area after every WQE it takes, run or flushed, and back at 0 when the
 * rings start over: libirdma rings WQEALLOC only when that tail has
 * reached the WQEs it posted, and without it leaves them to the guard.
 */
static void isim_exec_sq_tail_in_shadow_area(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *sq = t->sq, *shadow = isim_t_page(test);
	struct isim_qp *qp;

	KUNIT_ASSERT_NOT_NULL(test, shadow);
	qp = isim_t_self_qp(test);
	qp->shadow_pa = isim_t_bus(t, shadow);
	shadow[0] = cpu_to_le64(ISIM_QPSA_SQ_TAIL);
	isim_t_wqe(sq, 0, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 2ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(shadow[0]), 2ULL);
	/* a WQE flushed is fetched too */
	mutex_lock(&t->f->eng_lock);
	qp->state = ISIM_QPS_ERROR;
	isim_exec_flush(t->f, qp, &qp->sq, ISIM_WC_FLUSHED);
	mutex_unlock(&t->f->eng_lock);
	isim_t_wqe(sq, 2, ISIM_WQOP_SEND, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->flushed, 1ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(shadow[0]), 3ULL);
	/* back to RESET: the rings and the tail start over */
	mutex_lock(&t->f->eng_lock);
	qp->state = ISIM_QPS_IDLE;
	isim_exec_new_state(t->f, qp, ISIM_QPS_ERROR);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 0U);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(shadow[0]), 0ULL);
}

static void isim_exec_send_loopback_moves_data(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	u8 *src = (u8 *)t->buf, *dst = (u8 *)t->page;
	struct isim_qp *a, *b;
	u64 w3;
	u32 i;

	isim_t_hand_cq(test, cq);
	/* A's SQ in the first half of the page, B's RQ in the second */
	a = isim_t_hand_qp(test, 2, 3, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 2, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < 40; i++)
		src[i] = i * 3 + 1;
	isim_t_wqe(rq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, src), 40, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 40), 0);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	/* the responder's CQE first, then the requester's */
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_FALSE(test, w3 & (ISIM_CQE_W3_SQ | ISIM_CQE_W3_ERROR));
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_OP, w3),
			(u64)ISIM_BTH_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 0, 0), 40ULL);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 0, 1), 0x503ULL);
	w3 = isim_t_cqe(cq, 1, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_FALSE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, isim_t_cqe(cq, 1, 1), 0x502ULL);
	/* one message out and, on the same function, in */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_TX_SENDS]), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_RX_SENDS]), 1LL);
	/* the second SEND finds no RQ WQE and, with no RNR retries, fails */
	isim_t_wqe(sq, 1, ISIM_WQOP_SEND, isim_t_bus(t, src), 8, 0, 0);
	isim_t_poll(t);
	w3 = isim_t_cqe(cq, 2, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_RETRY_EXC);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX, w3), 1ULL);
	KUNIT_EXPECT_EQ(test, a->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, b->state, (u8)ISIM_QPS_RTS);
	/* a message that failed is not counted */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_TX_SENDS]), 1LL);
}

/*
 * An RC QP whose next hop (its context's ARP entry) is another MAC than its
 * own sends onto the wire, where the model carries no RC: its SEND
 * completes as if retries ran out, nothing reaches the QP of the same
 * number here, and the engine counts it as unrouted.
 */
static void isim_exec_rc_elsewhere_is_unrouted(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	u8 *src = (u8 *)t->buf, *dst = (u8 *)t->page;
	struct isim_qp *a, *b;
	u64 w3;

	isim_t_hand_cq(test, cq);
	a = isim_t_hand_qp(test, 2, 3, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 2, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	/* the peer's MAC is in the ARP entry now, not A's own */
	KUNIT_ASSERT_FALSE(test, xa_err(xa_store(&t->f->conn.arp, ISIM_T_RC_ARP,
						 xa_mk_value(ISIM_T_RC_MAC + 1),
						 GFP_KERNEL)));
	memset(src, 0x5a, 16);
	memset(dst, 0, 16);
	isim_t_wqe(rq + 256, 0, 0, isim_t_bus(t, dst), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, src), 16, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, t->f->unrouted, 1ULL);
	KUNIT_EXPECT_NE(test, memcmp(src, dst, 16), 0);
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_RETRY_EXC);
	KUNIT_EXPECT_EQ(test, a->state, (u8)ISIM_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, b->state, (u8)ISIM_QPS_RTS);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->f->hwc[ISIM_GS_RDMA_RX_SENDS]), 0LL);
}

/*
 * A posted WQE waits for its doorbell: a pass that finds none, after
 * nothing that could have freed an SQ and with no guard scan due, looks
 * at no QP. The guard scan takes what no doorbell announced, and counts it.
 */
static void isim_exec_sq_waits_for_doorbell(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq, *rq = t->eq;
	struct isim_func *f = t->f;
	struct isim_qp *a, *b;
	u64 idle, kicks;

	isim_t_hand_cq(test, cq);
	a = isim_t_hand_qp(test, 2, 3, ISIM_QPS_RTS, sq, rq);
	b = isim_t_hand_qp(test, 3, 2, ISIM_QPS_RTS, sq + 256, rq + 256);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	isim_t_wqe(rq + 256, 0, 0, isim_t_bus(t, t->page), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, t->buf), 8, 0,
		   ISIM_WQH_SIGNALED);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	idle = f->idle_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 0ULL);
	KUNIT_EXPECT_EQ(test, f->idle_passes, idle + 1);
	/* the doorbell names A; any doorbell makes the pass look at all */
	isim_wr32(f, f->rm->wqealloc, 2);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	KUNIT_EXPECT_EQ(test, isim_rd32(f, f->rm->wqealloc), ISIM_DB_IDLE);
	/* after work the next pass looks at A alone, then the engine idles */
	KUNIT_EXPECT_FALSE(test, list_empty(&a->kick));
	KUNIT_EXPECT_TRUE(test, list_empty(&b->kick));
	kicks = f->kick_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, f->kick_passes, kicks + 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&a->kick));
	idle = f->idle_passes;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, f->idle_passes, idle + 1);
	/* a NOP nobody rang for: only the guard scan takes it */
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	f->scan_due = jiffies;
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 2ULL);
	KUNIT_EXPECT_EQ(test, f->unasked, 1ULL);
	/* user space rings in its doorbell page, which is heard as well */
	f->scan_due = jiffies + 3600 * HZ;
	isim_engine_poll(f);
	isim_t_wqe(sq, 2, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_wr32(f, isim_reg_udb_wqealloc(f), 2);
	isim_engine_poll(f);
	KUNIT_EXPECT_EQ(test, a->executed, 3ULL);
	KUNIT_EXPECT_EQ(test, f->unasked, 1ULL);
	mutex_unlock(&f->eng_lock);
}

/*
 * A pass whose time is over takes no more WQEs of an SQ after the first:
 * one QP with a deep SQ cannot hold the engine (and the CQP commands
 * behind it) for longer than one WQE past the deadline. The QP is kicked
 * again and the pass says more is waiting, so the next goes on at once.
 */
static void isim_exec_sq_stops_when_the_pass_is_over(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *a;
	u32 i;

	a = isim_t_self_qp(test);
	for (i = 0; i < 3; i++)
		isim_t_wqe(t->sq, i, ISIM_WQOP_NOP, 0, 0, 0, 0);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	isim_wr32(f, f->rm->wqealloc, 2);
	f->pass_end_ns = 0;
	KUNIT_EXPECT_TRUE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, a->executed, 1ULL);
	KUNIT_EXPECT_FALSE(test, list_empty(&a->kick));
	/* no doorbell: the kick alone brings the next pass back to it */
	KUNIT_EXPECT_TRUE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, a->executed, 2ULL);
	/* with time left the pass finishes the SQ and asks for nothing */
	f->pass_end_ns = U64_MAX;
	KUNIT_EXPECT_FALSE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, a->executed, 3ULL);
	KUNIT_EXPECT_FALSE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_TRUE(test, list_empty(&a->kick));
	mutex_unlock(&f->eng_lock);
}

/*
 * A scan that outlasts its pass goes on in the passes after it, from the
 * QP it did not reach, and ends at the QP it began at: every QP is looked
 * at once. Resumed from wherever it stopped on and on, it would never end
 * and the engine would never go idle.
 */
static void isim_exec_resumed_scan_ends_where_it_began(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_qp *qp[3];
	u64 scans;
	__le64 *sq;
	u32 i;

	isim_t_hand_cq(test, t->ccq);
	for (i = 0; i < 3; i++) {
		sq = isim_t_page(test);
		KUNIT_ASSERT_NOT_NULL(test, sq);
		isim_t_wqe(sq, 0, ISIM_WQOP_NOP, 0, 0, 0, 0);
		qp[i] = isim_t_hand_qp(test, 2 + i, 2 + i, ISIM_QPS_RTS, sq,
				       t->eq);
		KUNIT_ASSERT_NOT_NULL(test, qp[i]);
	}
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	scans = f->scans;
	/* each look at the clock after a WQE finds the pass over */
	f->pass_end_ns = 0;
	isim_wr32(f, f->rm->wqealloc, 2);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, isim_exec_run(f, ISIM_WQE_BUDGET,
						      false));
		KUNIT_EXPECT_EQ(test, qp[i]->executed, 1ULL);
		KUNIT_EXPECT_EQ(test, f->exec_resume, i < 2);
	}
	KUNIT_EXPECT_EQ(test, f->scans, scans + 3);
	/* the scan is over: the next pass looks at the kicked QPs alone */
	KUNIT_EXPECT_FALSE(test, isim_exec_run(f, ISIM_WQE_BUDGET, false));
	KUNIT_EXPECT_EQ(test, f->scans, scans + 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, qp[i]->executed, 1ULL);
	mutex_unlock(&f->eng_lock);
}

/**
 * struct isim_t_rings - rings of a QP beside a running CQP
 * @cq: CQ 1's ring
 * @sq: the QP's SQ
 * @rq: the QP's RQ
 */
struct isim_t_rings {
	__le64 *cq, *sq, *rq;
};

/* the CQP, CQ 1 and QP 2 in RTS, connected to itself, on rings of @r */
static struct isim_qp *isim_t_cqp_self_qp(struct kunit *test,
					  struct isim_t_rings *r)
{
	struct isim_qp *qp;

	isim_t_cqp_ok(test, 2);
	r->cq = isim_t_page(test);
	r->sq = isim_t_page(test);
	r->rq = isim_t_page(test);
	KUNIT_ASSERT_NOT_NULL(test, r->cq);
	KUNIT_ASSERT_NOT_NULL(test, r->sq);
	KUNIT_ASSERT_NOT_NULL(test, r->rq);
	isim_t_hand_cq(test, r->cq);
	qp = isim_t_hand_qp(test, 2, 2, ISIM_QPS_RTS, r->sq, r->rq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	return qp;
}

/*
 * A QP on a leaf the parent has not registered sends nothing: the WQE
 * stays posted and each pass that finds it counts it. The registration
 * has the next pass, without a doorbell, look at every QP, and it runs.
 */
static void isim_exec_unregistered_leaf_holds_sq(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_t_rings r;
	__le64 *cq, *sq, *rq;
	struct isim_qp *qp;

	qp = isim_t_cqp_self_qp(test, &r);
	cq = r.cq;
	sq = r.sq;
	rq = r.rq;
	mutex_lock(&f->eng_lock);
	KUNIT_ASSERT_EQ(test, isim_ws_add(f, 3, 1, 0, true, true), 0);
	qp->qs_handle = 3;
	mutex_unlock(&f->eng_lock);
	isim_t_wqe(rq, 0, 0, isim_t_bus(t, t->page), 64, 0, 0);
	isim_t_wqe(sq, 0, ISIM_WQOP_SEND, isim_t_bus(t, t->buf), 8, 0,
		   ISIM_WQH_SIGNALED);
	isim_t_poll(t);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 0ULL);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 0, 3) & ISIM_CQE_W3_VALID);
	KUNIT_EXPECT_EQ(test, f->sched.unsched, 2ULL);

	KUNIT_ASSERT_EQ(test, isim_t_qset_add(f, 3, 0), 0);
	mutex_lock(&f->eng_lock);
	f->scan_due = jiffies + 3600 * HZ;
	isim_engine_poll(f);
	mutex_unlock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);
	KUNIT_EXPECT_TRUE(test, isim_t_cqe(cq, 1, 3) & ISIM_CQE_W3_SQ);
	KUNIT_EXPECT_EQ(test, f->sched.unsched, 2ULL);
	/* a disabled leaf holds it again */
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_MODIFY, 3, 1, 0,
					ISIM_WS_HDR_LEAF), (u32)ISIM_MIN_OK);
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);
	KUNIT_EXPECT_EQ(test, f->sched.unsched, 3ULL);
}

/* SUSPEND_QP or RESUME_QP of QP @id, RESUME with QS handle @qs */
static void isim_t_suspend(struct isim_test *t, u32 op, u32 id, u32 qs)
{
	u64 w[8] = {};

	w[2] = FIELD_PREP(ISIM_RESUME_W2_QSET, qs);
	w[ISIM_WQE_HDR] = FIELD_PREP(ISIM_QP_HDR_ID, id);
	isim_t_run(t, op, w);
}

/*
 * RESUME_QP moves the QP to the leaf it names, as a traffic-class change
 * does: it sends again through a served leaf, and stays held on a leaf
 * the driver deleted.
 */
static void isim_resume_qp_takes_new_qs_handle(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_func *f = t->f;
	struct isim_t_rings r;
	struct isim_qp *qp;

	qp = isim_t_cqp_self_qp(test, &r);
	KUNIT_ASSERT_EQ(test, isim_t_ws(t, ISIM_WS_ADD, 3, 1, 0,
					ISIM_T_WS_LEAF), 0U);
	KUNIT_ASSERT_EQ(test, isim_t_qset_add(f, 3, 0), 0);
	/* not suspended: refused, and the handle stays */
	isim_t_suspend(t, ISIM_OP_RESUME_QP, 2, 3);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), (u32)ISIM_MIN_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, (u32)ISIM_T_LEAF);

	isim_t_suspend(t, ISIM_OP_SUSPEND_QP, 2, 0);
	KUNIT_EXPECT_TRUE(test, qp->suspended);
	isim_t_wqe(r.sq, 0, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 0ULL);
	isim_t_suspend(t, ISIM_OP_RESUME_QP, 2, 3);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	KUNIT_EXPECT_EQ(test, qp->qs_handle, 3U);
	KUNIT_EXPECT_FALSE(test, qp->suspended);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);

	/* back to leaf 2, which the driver deleted meanwhile */
	isim_t_suspend(t, ISIM_OP_SUSPEND_QP, 2, 0);
	KUNIT_EXPECT_EQ(test, isim_t_ws(t, ISIM_WS_DELETE, ISIM_T_LEAF, 0, 0,
					0), 0U);
	isim_t_suspend(t, ISIM_OP_RESUME_QP, 2, ISIM_T_LEAF);
	KUNIT_EXPECT_EQ(test, isim_t_minor(t), 0U);
	isim_t_wqe(r.sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_EQ(test, qp->executed, 1ULL);
	KUNIT_EXPECT_GT(test, f->sched.unsched, 0ULL);
	mutex_lock(&f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_sched_tc(f, qp->qs_handle), -1);
	mutex_unlock(&f->eng_lock);
}

static void isim_exec_bad_stag_is_protection_error(struct kunit *test)
{
	struct isim_test *t = test->priv;
	__le64 *cq = t->ccq, *sq = t->sq;
	struct isim_qp *a;
	u64 w3;

	a = isim_t_self_qp(test);
	/* WRITE to itself through rkey 0x1234: remote access error */
	isim_t_wqe(sq, 0, ISIM_WQOP_WRITE, isim_t_bus(t, t->buf), 8,
		   isim_t_bus(t, t->page),
		   FIELD_PREP(ISIM_WQH_REMOTE_STAG, 0x1234));
	isim_t_poll(t);
	w3 = isim_t_cqe(cq, 0, 3);
	KUNIT_EXPECT_TRUE(test, w3 & ISIM_CQE_W3_ERROR);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_MINOR, w3),
			(u64)ISIM_WC_REM_ACCESS);
	KUNIT_EXPECT_EQ(test, a->state, (u8)ISIM_QPS_ERROR);
	/* an unsignaled WQE behind it stays until the driver flushes */
	isim_t_wqe(sq, 1, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_poll(t);
	KUNIT_EXPECT_FALSE(test, isim_t_cqe(cq, 1, 3) & ISIM_CQE_W3_VALID);
}

/* ---- gen1 SQ WQE layouts (exec.c) ---- */

/* an SQ WQE for isim_exec_payload(), @quanta of @w, as read from a ring */
static struct isim_xfer *isim_t_xfer(struct kunit *test, const u64 *w,
				     u8 quanta)
{
	struct isim_test *t = test->priv;
	struct isim_xfer *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, x);
	x->f = t->f;
	x->req.quanta = quanta;
	x->req.gen = t->f->gen;
	for (i = 0; i < quanta * 4; i++) {
		x->req.w[i] = w[i];
		x->req.raw[i] = cpu_to_le64(w[i]);
	}
	return x;
}

/*
 * Two fragments in the generation's layout: gen2 STag 31:0 and length
 * 62:32 with the valid bit, gen1 length 31:0 and STag 63:32.
 */
static void isim_exec_payload_reads_fragments(struct kunit *test)
{
	struct isim_test *t = test->priv;
	bool g1 = t->f->gen == ISIM_GEN1;
	struct isim_xfer *x;
	struct isim_qp *qp;
	const u8 *inl;
	u64 w[8] = {};

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp_type(test, 2, ISIM_QP_TYPE_IWARP, 0, ISIM_QPS_RTS,
				 t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	w[0] = 0x10000;
	w[1] = g1 ? FIELD_PREP(ISIM_FRAG_G1_LEN, 100) :
		    FIELD_PREP(ISIM_FRAG_LEN, 100) | BIT_ULL(63);
	w[4] = 0x20000;
	w[5] = g1 ? FIELD_PREP(ISIM_FRAG_G1_LEN, 28) :
		    FIELD_PREP(ISIM_FRAG_LEN, 28) | BIT_ULL(63);
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) |
	       FIELD_PREP(ISIM_WQH_MORE_FRAGS, g1 ? 1 : 2);
	x = isim_t_xfer(test, w, 2);
	mutex_lock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl), 0);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_NULL(test, inl);
	KUNIT_EXPECT_EQ(test, x->local.n, 2U);
	KUNIT_EXPECT_EQ(test, x->len, 128ULL);
	KUNIT_EXPECT_EQ(test, x->local.sge[0].len, 100ULL);
	KUNIT_EXPECT_EQ(test, x->local.sge[0].stag, 0U);
	KUNIT_EXPECT_EQ(test, x->local.sge[1].addr, 0x20000ULL);
	/* a local invalidate's STag is the fragment's */
	KUNIT_EXPECT_EQ(test, isim_frag_stag(t->f->gen,
					     g1 ? 0x1234ULL << 32 : 0x1234),
			0x1234U);
}

/*
 * gen1 inline data: bytes 0..15 of quantum 0, then all of quantum 1, at
 * most 48; at most three fragments; no WQE across a 2-quantum boundary
 */
static void isim_exec_payload_gen1_inline_and_limits(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_xfer *x;
	struct isim_qp *qp;
	const u8 *inl;
	u8 *raw, want[48];
	u64 w[8] = {};
	int i;

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp_type(test, 2, ISIM_QP_TYPE_IWARP, 0, ISIM_QPS_RTS,
				 t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) | ISIM_WQH_INLINE |
	       FIELD_PREP(ISIM_WQH_INLINE_LEN, sizeof(want));
	x = isim_t_xfer(test, w, 2);
	raw = (u8 *)x->req.raw;
	for (i = 0; i < sizeof(want); i++) {
		want[i] = 0x40 + i;
		raw[i < 16 ? i : i + 16] = want[i];
	}
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl), 0);
	KUNIT_ASSERT_NOT_NULL(test, inl);
	KUNIT_EXPECT_EQ(test, x->len, (u64)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(inl, want, sizeof(want)), 0);
	/* 49 bytes do not fit */
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) | ISIM_WQH_INLINE |
	       FIELD_PREP(ISIM_WQH_INLINE_LEN, 49);
	x = isim_t_xfer(test, w, 2);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl),
			(int)ISIM_WC_LOC_QP_OP);
	/* four fragments do not either */
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) |
	       FIELD_PREP(ISIM_WQH_MORE_FRAGS, 3);
	x = isim_t_xfer(test, w, 2);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl),
			(int)ISIM_WC_LOC_QP_OP);
	/* three do, but not from an odd quantum: it would cross a pair */
	w[3] = FIELD_PREP(ISIM_WQH_OP, ISIM_WQOP_SEND) |
	       FIELD_PREP(ISIM_WQH_MORE_FRAGS, 2);
	x = isim_t_xfer(test, w, 2);
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl), 0);
	x->req.idx = 3;
	KUNIT_EXPECT_EQ(test, isim_exec_payload(x, qp, w[3], &inl),
			(int)ISIM_WC_LOC_QP_OP);
}

/*
 * gen1 quanta per SQ WQE: 40 bytes inline take two (three on gen2), three
 * fragments two; a flush completes each WQE at its first quantum, the
 * padding NOP not at all.
 */
static void isim_exec_sq_quanta_gen1(struct kunit *test)
{
	struct isim_test *t = test->priv;
	struct isim_qp *qp;

	isim_t_hand_cq(test, t->ccq);
	qp = isim_t_hand_qp_type(test, 2, ISIM_QP_TYPE_IWARP, 0, ISIM_QPS_RTS,
				 t->sq, t->eq);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	isim_t_wqe(t->sq, 0, ISIM_WQOP_SEND, 0, 0, 0, ISIM_WQH_INLINE |
		   FIELD_PREP(ISIM_WQH_INLINE_LEN, 40));
	t->sq[1 * 4 + 3] = cpu_to_le64(0);	/* no valid bit on gen1 */
	isim_t_wqe(t->sq, 2, ISIM_WQOP_SEND, 0x10000, 8, 0, 0);
	/* a two-quantum WQE never starts at an odd quantum: a NOP pads */
	isim_t_wqe(t->sq, 3, ISIM_WQOP_NOP, 0, 0, 0, 0);
	isim_t_wqe(t->sq, 4, ISIM_WQOP_SEND, 0x10000, 8, 0,
		   FIELD_PREP(ISIM_WQH_MORE_FRAGS, 2));
	isim_t_wqe(t->sq, 6, ISIM_WQOP_WRITE, 0x10000, 8, 0, 0);
	mutex_lock(&t->f->eng_lock);
	isim_exec_flush(t->f, qp, &qp->sq, 5);
	mutex_unlock(&t->f->eng_lock);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 0, 3)), 0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 1, 3)), 2ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 2, 3)), 4ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ISIM_CQE_W3_WQEIDX,
					isim_t_cqe(t->ccq, 3, 3)), 6ULL);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 7U);
}

static struct kunit_case isim_exec_test_cases[] = {
	KUNIT_CASE(isim_exec_payload_reads_fragments),
	KUNIT_CASE(isim_exec_flush_completes_each_posted_wqe),
	KUNIT_CASE(isim_exec_sq_tail_in_shadow_area),
	KUNIT_CASE(isim_exec_send_loopback_moves_data),
	KUNIT_CASE(isim_exec_rc_elsewhere_is_unrouted),
	KUNIT_CASE(isim_exec_sq_waits_for_doorbell),
	KUNIT_CASE(isim_exec_sq_stops_when_the_pass_is_over),
	KUNIT_CASE(isim_exec_resumed_scan_ends_where_it_began),
	KUNIT_CASE(isim_exec_unregistered_leaf_holds_sq),
	KUNIT_CASE(isim_resume_qp_takes_new_qs_handle),
	KUNIT_CASE(isim_exec_bad_stag_is_protection_error),
	{}
};

static struct kunit_suite isim_exec_test_suite = {
	.name = "irdma_sim_exec",
	.init = isim_test_init,
	.exit = isim_test_exit,
	.test_cases = isim_exec_test_cases,
};

/* the same on a function modelling an X722 (gen1) */
static struct kunit_case isim_exec_gen1_test_cases[] = {
	KUNIT_CASE(isim_exec_payload_reads_fragments),
	KUNIT_CASE(isim_exec_payload_gen1_inline_and_limits),
	KUNIT_CASE(isim_exec_sq_quanta_gen1),
	{}
};

static struct kunit_suite isim_exec_gen1_test_suite = {
	.name = "irdma_sim_exec_gen1",
	.init = isim_test_init_gen1,
	.exit = isim_test_exit,
	.test_cases = isim_exec_gen1_test_cases,
};

kunit_test_suites(&isim_exec_test_suite, &isim_exec_gen1_test_suite);
