// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * KUnit: two CM cores back to back on the fake wire (suite irdma_cm_wire):
 * connect, accept, reject and close between them, and how the core meets
 * refusals of its hardware ops, of iw_cm and of the address notifiers.
 */
#include "cm_fake.h"

/* ---------------------------------------------------------------------- */
/* Two cores back to back                                                 */

/**
 * struct cmt_wire_case - a connection between the two cores
 * @name: description
 * @v6: IPv6
 * @gen1: complete Ethernet frames
 * @vlan: VLAN of both ends
 * @rev: MPA revision of the initiator
 * @p2p: peer-to-peer mode of the initiator
 * @crc: CRC requested by the initiator
 * @loopback: both ends on core a
 * @wildcard: listen on the wildcard address
 * @pdata_len: private data of the request
 * @prio_tag: both ports sort frames by priority: untagged traffic goes with
 *	a priority tag (VLAN 0) of priority CMT_PRIO
 */
struct cmt_wire_case {
	const char *name;
	bool v6;
	bool gen1;
	u16 vlan;
	u8 rev;
	bool p2p;
	bool crc;
	bool loopback;
	bool wildcard;
	u16 pdata_len;
	bool prio_tag;
};

#define NV IRDMA_CM_NO_VLAN
#define CMT_PRIO 5
static const struct cmt_wire_case cmt_wire_cases[] = {
	{ "ipv4 gen2 v2 p2p", false, false, NV, 2, true, true },
	{ "ipv6 gen2 v2 p2p", true, false, NV, 2, true, true },
	{ "ipv4 gen1 v2 p2p", false, true, NV, 2, true, false },
	{ "ipv6 gen1 vlan", true, true, 100, 2, true, true },
	{ "ipv4 gen2 vlan", false, false, 7, 2, true, true },
	{ "ipv4 mpa v1", false, false, NV, 1, false, true },
	{ "ipv4 v2 client-server", false, false, NV, 2, false, false },
	{ "ipv4 loopback", false, false, NV, 2, true, true, true },
	{ "ipv6 loopback gen1", true, true, NV, 2, true, false, true },
	{ "ipv4 wildcard listener", false, false, NV, 2, true, true, false,
	  true },
	{ "ipv6 wildcard listener", true, false, NV, 2, true, true, false,
	  true },
	{ "pdata 255", false, false, NV, 2, true, true, false, false, 255 },
	{ "pdata 508 truncated upward", false, false, NV, 2, true, true, false,
	  false, 508 },
	{ "pdata 512 on v1", false, true, NV, 1, false, true, false, false,
	  512 },
	{ "ipv4 gen2 priority tag", false, false, NV, 2, true, true, false,
	  false, 0, true },
	{ "ipv6 gen1 wildcard priority tag", true, true, NV, 2, true, true,
	  false, true, 0, true },
};

static void cmt_wire_desc(const struct cmt_wire_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_wire, cmt_wire_cases, cmt_wire_desc);

static void cmt_wire_setup(struct cmt_env *env, const struct cmt_wire_case *c)
{
	struct cmt_core *cores[] = { &env->a, &env->b };
	int i;

	for (i = 0; i < 2; i++) {
		cores[i]->core->cfg.gen1 = c->gen1;
		cores[i]->vlan = c->vlan;
		cores[i]->prio_tag = c->prio_tag ? CMT_PRIO : -1;
	}
	env->a.core->cfg.mpa_rev = c->rev;
	env->a.core->cfg.p2p = c->p2p;
	env->a.core->cfg.crc = c->crc;
	env->b.core->cfg.crc = false;
	if (c->loopback)
		env->a.peer = &env->a;
}

/* Check what each QP was given: the two contexts must mirror each other. */
static void cmt_check_ctx(struct kunit *test, const struct cmt_wire_case *c,
			  struct cmt_qp *qa, struct cmt_qp *qb)
{
	KUNIT_EXPECT_TRUE(test, qa->ctx_set && qb->ctx_set);
	KUNIT_EXPECT_TRUE(test, qa->rts && qb->rts);
	KUNIT_EXPECT_EQ(test, qa->ctx.tcp.snd_nxt, qb->ctx.tcp.rcv_nxt);
	KUNIT_EXPECT_EQ(test, qa->ctx.tcp.rcv_nxt,
			qb->ctx.tcp.snd_nxt + qb->lsmm_len);
	KUNIT_EXPECT_EQ(test, qa->ctx.crc, c->crc);
	KUNIT_EXPECT_EQ(test, qb->ctx.crc, c->crc);
	KUNIT_EXPECT_EQ(test, qa->ctx.p2p, c->p2p && c->rev == 2);
	if (c->prio_tag) {
		/* VLAN 0 both ways: the responder answers the SYN's tag */
		KUNIT_EXPECT_EQ(test, qa->ctx.ci.vlan_id, 0);
		KUNIT_EXPECT_EQ(test, qb->ctx.ci.vlan_id, 0);
		KUNIT_EXPECT_EQ(test, qa->ctx.ci.user_pri, CMT_PRIO);
		KUNIT_EXPECT_EQ(test, qb->ctx.ci.user_pri, CMT_PRIO);
	} else {
		KUNIT_EXPECT_EQ(test, qa->ctx.ci.vlan_id, c->vlan);
		KUNIT_EXPECT_EQ(test, qb->ctx.ci.vlan_id, c->vlan);
	}
	if (c->vlan != NV) {
		/* the initiator's VLAN device's priority, answered in kind */
		KUNIT_EXPECT_EQ(test, qa->ctx.ci.user_pri, CMT_VLAN_PRIO);
		KUNIT_EXPECT_EQ(test, qb->ctx.ci.user_pri, CMT_VLAN_PRIO);
	}
	KUNIT_EXPECT_EQ(test, qa->ctx.tcp.mss, c->v6 ? 1440 : 1460);
	KUNIT_EXPECT_EQ(test, qa->ctx.tcp.snd_wscale, 2);
	KUNIT_EXPECT_TRUE(test, qa->ctx.active);
	KUNIT_EXPECT_FALSE(test, qb->ctx.active);
	if (c->p2p && c->rev == 2) {
		KUNIT_EXPECT_EQ(test, qa->rtr, IRDMA_CM_RDMA0_WRITE);
		KUNIT_EXPECT_EQ(test, qb->ctx.rdma0, IRDMA_CM_RDMA0_WRITE);
	} else {
		/* no RTR: the initiator still opens with a READ of nothing */
		KUNIT_EXPECT_EQ(test, qa->rtr, IRDMA_CM_RDMA0_READ);
		KUNIT_EXPECT_EQ(test, qa->ctx.rdma0, IRDMA_CM_RDMA0_READ);
		KUNIT_EXPECT_GE(test, qa->ctx.ord, 1);
		KUNIT_EXPECT_EQ(test, qb->ctx.rdma0, IRDMA_CM_RDMA0_NONE);
	}
}

/*
 * A graceful close driven by the "hardware" of both ends: A's QP 1 closes
 * first, @srv's QP 2 sees the FIN and closes; A's id @cid gets CLOSE, the
 * server's @child DISCONNECT then CLOSE, and nothing else comes.
 */
static void cmt_graceful_close(struct cmt_env *env, struct cmt_core *srv,
			       struct cmt_id *cid, struct cmt_id *child)
{
	irdma_cm_disconn(env->a.qps[1].node, IRDMA_CM_DISC_CLOSED);
	irdma_cm_disconn(srv->qps[2].node, IRDMA_CM_DISC_PEER_FIN);
	cmt_pump(env);
	irdma_cm_disconn(srv->qps[2].node, IRDMA_CM_DISC_CLOSED);
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CLOSE, 0);
	cmt_expect_event(env, child, IW_CM_EVENT_DISCONNECT, 0);
	cmt_expect_event(env, child, IW_CM_EVENT_CLOSE, 0);
	cmt_expect_no_event(env);
}

static void irdma_cm_wire_connect_accept_close(struct kunit *test)
{
	const struct cmt_wire_case *c = test->param_value;
	struct cmt_env *env = test->priv;
	struct cmt_core *srv = c->loopback ? &env->a : &env->b;
	u32 shost = c->loopback ? 1 : 2;
	struct cmt_conn cp = { .qpn = 1, .ird = 8, .ord = 4 };
	struct cmt_conn ap = { .qpn = 2, .ird = 6, .ord = 12 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_event *e;
	u8 *pd;
	int rc;

	cmt_wire_setup(env, c);
	pd = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	get_random_bytes(pd, 512);
	cp.pdata = pd;
	cp.pdata_len = c->pdata_len;
	lid = cmt_listen(srv, c->v6, c->wildcard ? 0 : shost, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, c->v6, 1, 6000, shost, 4000, &cp),
			0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->pdata_len, min_t(u16, c->pdata_len, 255));
	KUNIT_EXPECT_EQ(test, memcmp(e->pdata, pd, e->pdata_len), 0);
	if (c->rev == 2 && c->p2p) {
		KUNIT_EXPECT_EQ(test, e->ird, 8);
		KUNIT_EXPECT_EQ(test, e->ord, 4);
	}
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, NULL, IW_CM_EVENT_ESTABLISHED, 0);
	if (e && c->rev == 2 && c->p2p) {
		/* responder: ORD clamped to the initiator's IRD (8) */
		KUNIT_EXPECT_EQ(test, e->ird, 8);
		KUNIT_EXPECT_EQ(test, e->ord, 6);
	}
	e = cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	if (e && c->rev == 2 && c->p2p) {
		/* initiator: ORD lowered to the responder's IRD (6) */
		KUNIT_EXPECT_EQ(test, e->ird, 4);
		KUNIT_EXPECT_EQ(test, e->ord, 8);
	}
	cmt_check_ctx(test, c, &env->a.qps[1], &srv->qps[2]);
	/* connected: neither end keeps what it buffered for MPA */
	KUNIT_EXPECT_NULL(test, env->a.qps[1].node->pdata);
	KUNIT_EXPECT_NULL(test, env->a.qps[1].node->mpa_rx);
	KUNIT_EXPECT_NULL(test, srv->qps[2].node->mpa_rx);
	cmt_graceful_close(env, srv, cid, child);
	KUNIT_EXPECT_TRUE(test, env->a.qps[1].err);
	cmt_unlisten(lid);
}

static void irdma_cm_wire_reject(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	static const u8 why[] = "busy";
	struct cmt_id *lid, *cid;
	struct cmt_frame *f;
	struct cmt_event *e;
	struct cmt_seen s;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, cmt_reject(cmt_child_of(env, e), why, 4), 0);
	/*
	 * the reject answers the peer-to-peer request as a reply would: A,
	 * the WRITE RTR, our IRD (64), our ORD down to the initiator's IRD
	 */
	f = cmt_wire_peek(env);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_TRUE(test, cmt_seen_parse(f->data, f->len, &s));
	KUNIT_ASSERT_EQ(test, s.paylen, 28U);
	KUNIT_EXPECT_EQ(test, s.pay[16], 0x30);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(s.pay + 20), 0x8040);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(s.pay + 22), 0x8002);
	cmt_pump(env);
	e = cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	if (e) {
		KUNIT_EXPECT_EQ(test, e->pdata_len, 4);
		KUNIT_EXPECT_EQ(test, memcmp(e->pdata, why, 4), 0);
	}
	cmt_advance(env, 2 * IRDMA_CM_TIME_WAIT_MS);
	cmt_expect_no_event(env);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a.core->node_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b.core->node_cnt), 0);
	cmt_unlisten(lid);
}

/* A ULP handler error or a full iw_cm queue on each event. */
/* The next events of @c: at most one DISCONNECT, then exactly one CLOSE. */
static void cmt_expect_close(struct cmt_env *env, struct cmt_id *c)
{
	struct cmt_event *e = NULL;
	int i, closes = 0, discs = 0;

	for (i = env->ev_head; i < env->ev_tail; i++) {
		e = &env->ev[i];
		if (e->taken || e->id != c)
			continue;
		e->taken = true;
		if (e->type == IW_CM_EVENT_DISCONNECT && !closes)
			discs++;
		else if (e->type == IW_CM_EVENT_CLOSE)
			closes++;
		else
			KUNIT_FAIL(env->test, "event %d before CLOSE", e->type);
	}
	KUNIT_EXPECT_LE(env->test, discs, 1);
	KUNIT_EXPECT_EQ(env->test, closes, 1);
	while (env->ev_head < env->ev_tail && env->ev[env->ev_head].taken)
		env->ev_head++;
}

static void irdma_cm_wire_ulp_errors(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_event *e;
	int rc;

	/* 1: the ULP fails CONNECT_REQUEST: iw_cm rejects on its own */
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	lid->ulp_fail = BIT(IW_CM_EVENT_CONNECT_REQUEST);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	cmt_advance(env, 1000);

	/* 2: iw_cm cannot queue CONNECT_REQUEST: the CM aborts */
	lid->ulp_fail = 0;
	lid->queue_fail = BIT(IW_CM_EVENT_CONNECT_REQUEST);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6001, 2, 4000, &cp), 0);
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	lid->queue_fail = 0;

	/* 3: the ULP fails ESTABLISHED and CONNECT_REPLY: both destroy */
	lid->ulp_fail = BIT(IW_CM_EVENT_ESTABLISHED);
	cid = cmt_id_new(&env->a);
	cid->ulp_fail = BIT(IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6002, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	/*
	 * Both ids are DESTROYING and iw_cm drops what reaches them, but the
	 * CM still owes each one CLOSE (a DISCONNECT may come first when the
	 * peer's reset is seen before the local abort).
	 */
	cmt_advance(env, 1000);
	cmt_expect_close(env, child);
	cmt_expect_close(env, cid);
	cmt_expect_no_event(env);
	KUNIT_EXPECT_EQ(test, child->refs, 0);
	KUNIT_EXPECT_EQ(test, cid->refs, 0);
	cmt_unlisten(lid);
}

/*
 * The initiator's ORD is above the most the responder can take: the defaults
 * of librdmacm (each side offers its device maxima, and irdma's ORD limit is
 * above its IRD limit) between two irdma functions. The responder accepts
 * with its largest IRD, the reply says so and the initiator lowers its ORD
 * to it; both QPs get credits that match.
 */
static void irdma_cm_wire_ord_above_peer_ird(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 16, .ord = 64 };
	struct cmt_conn ap = { .qpn = 2, .ird = 16, .ord = 16 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_event *e;
	int rc;

	env->b.core->cfg.max_ird = 16;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->ord, 64);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	if (e) {
		KUNIT_EXPECT_EQ(test, e->ird, 16);
		KUNIT_EXPECT_EQ(test, e->ord, 16);
	}
	e = cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	if (e) {
		/* ORD lowered from 64 to the IRD in the reply */
		KUNIT_EXPECT_EQ(test, e->ird, 16);
		KUNIT_EXPECT_EQ(test, e->ord, 16);
	}
	KUNIT_EXPECT_TRUE(test, env->a.qps[1].ctx_set && env->b.qps[2].ctx_set);
	KUNIT_EXPECT_EQ(test, env->a.qps[1].ctx.ord, env->b.qps[2].ctx.ird);
	KUNIT_EXPECT_EQ(test, env->b.qps[2].ctx.ird, 16);
	KUNIT_EXPECT_EQ(test, env->b.qps[2].ctx.ord, env->a.qps[1].ctx.ird);
	cmt_graceful_close(env, &env->b, cid, child);
	cmt_unlisten(lid);
}

/* Requests pending at every stage when the listener goes away. */
static void irdma_cm_wire_listener_destroyed(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn cp2 = { .qpn = 3, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *c1, *c2, *child;
	struct cmt_event *e;
	int rc;

	env->a.core->cfg.v1_fallback = false;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	c1 = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(c1, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	/* the second one never gets through: its SYN is lost */
	c2 = cmt_id_new(&env->a);
	env->a.blackhole = true;
	KUNIT_ASSERT_EQ(test, cmt_connect(c2, false, 1, 6001, 2, 4000, &cp2),
			0);
	env->a.blackhole = false;
	cmt_pump(env);
	cmt_unlisten(lid);
	cmt_pump(env);
	cmt_expect_event(env, c1, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, cmt_accept(child, &cp), -ECONNRESET);
	/* the SYN sent again meets no listener: refused */
	cmt_advance(env, CMT_GIVE_UP_MS);
	cmt_expect_event(env, c2, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	cmt_expect_no_event(env);
}

/*
 * An open to the function's own address that no listener of its own takes
 * is refused at once, without a SYN: the host's stack would drop it as a
 * martian and the open would wait out every retransmission. One that a
 * listener takes sends its SYN and reaches the listener.
 */
static void irdma_cm_wire_loopback_refused(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	atomic64_t *conn_err = &env->a.core->stats[IRDMA_CM_STAT_CONNECT_ERR];
	struct cmt_id *lid, *cid;
	struct cmt_event *e;
	u32 tx;
	int rc;

	env->a.peer = &env->a;
	/* a listener on another port does not take it */
	lid = cmt_listen(&env->a, false, 1, 4001, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	tx = env->a.tx;
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 1, 4000, &cp), 0);
	KUNIT_EXPECT_EQ(test, env->a.tx, tx);
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	cmt_expect_no_event(env);
	KUNIT_EXPECT_EQ(test, atomic64_read(conn_err), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a.core->node_cnt), 0);
	KUNIT_EXPECT_EQ(test, env->a.est_filters, 0);
	KUNIT_EXPECT_EQ(test, env->a.ahs, 0);
	cmt_unlisten(lid);

	/* the port listened on: the SYN goes out and the listener hears it */
	lid = cmt_listen(&env->a, false, 1, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6001, 1, 4000, &cp), 0);
	KUNIT_EXPECT_GT(test, env->a.tx, tx);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, cmt_reject(cmt_child_of(env, e), NULL, 0), 0);
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	cmt_advance(env, 2 * IRDMA_CM_TIME_WAIT_MS);
	cmt_expect_no_event(env);
	KUNIT_EXPECT_EQ(test, atomic64_read(conn_err), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a.core->node_cnt), 0);
	cmt_unlisten(lid);
}

/*
 * A segment the layer below refuses to send (ILQ out of buffers) is counted
 * and treated as lost: the connect's SYN goes again on its retransmit timer
 * and the connection proceeds.
 */
static void irdma_cm_wire_xmit_refused(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	atomic64_t *tx_err = &env->a.core->stats[IRDMA_CM_STAT_TX_ERR];
	struct cmt_id *lid, *cid;
	struct cmt_event *e;
	u32 tx;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	env->a.xmit_err = -ENOBUFS;
	tx = env->a.tx;
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	env->a.xmit_err = 0;
	KUNIT_EXPECT_EQ(test, env->a.tx, tx + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(tx_err), 1);
	cmt_pump(env);
	cmt_expect_no_event(env);
	cmt_advance(env, 10000);
	KUNIT_EXPECT_GT(test, env->a.tx, tx + 1);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, cmt_reject(cmt_child_of(env, e), NULL, 0), 0);
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	cmt_advance(env, 2 * IRDMA_CM_TIME_WAIT_MS);
	cmt_expect_no_event(env);
	KUNIT_EXPECT_EQ(test, atomic64_read(tx_err), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a.core->node_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b.core->node_cnt), 0);
	cmt_unlisten(lid);
}

/*
 * The engine fails a listen's SYN filter after it was posted: the listen
 * fails once the filter's command has run, and leaves no listener, filter
 * or port behind; the port can be listened on again.
 */
static void irdma_cm_wire_listen_refused(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	atomic64_t *errs = &env->b.core->stats[IRDMA_CM_STAT_LISTEN_ERR];
	s64 errs0 = atomic64_read(errs);
	int ports = env->b.ports, rc;
	struct cmt_id *lid;

	set_bit(CMT_REFUSE_QHASH, &env->b.fail);
	cmt_listen(&env->b, false, 2, 4010, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, -EIO);
	cmt_listen(&env->b, true, 2, 4011, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, -EIO);
	clear_bit(CMT_REFUSE_QHASH, &env->b.fail);
	/* the add of each, and no delete of a filter that is not there */
	KUNIT_EXPECT_EQ(test, env->b.refused, 2);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
	KUNIT_EXPECT_EQ(test, env->b.ports, ports);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b.core->listener_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(errs) - errs0, 2);
	lid = cmt_listen(&env->b, false, 2, 4010, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 1);
	if (!rc)
		cmt_unlisten(lid);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
	cmt_pump(env);
	cmt_expect_no_event(env);
}

/* Errors of the iw_cm entry points leave nothing behind and raise nothing. */
static void irdma_cm_wire_entry_errors(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	static const int knobs[] = { CMT_FAIL_ARP, CMT_FAIL_APBVT,
				     CMT_FAIL_QHASH, CMT_FAIL_AH };
	struct cmt_id *id, *lid, *l2;
	int i, rc;

	id = cmt_id_new(&env->a);
	cp.qpn = 0;
	KUNIT_EXPECT_EQ(test, cmt_connect(id, false, 1, 6000, 2, 4000, &cp),
			-EINVAL);
	cp.qpn = 1;
	cp.ird = 1000;
	KUNIT_EXPECT_EQ(test, cmt_connect(id, false, 1, 6000, 2, 4000, &cp),
			-EINVAL);
	cp.ird = 2;
	cp.pdata_len = 600;
	cp.pdata = id;
	KUNIT_EXPECT_EQ(test, cmt_connect(id, false, 1, 6000, 2, 4000, &cp),
			-EINVAL);
	cp.pdata_len = 0;
	KUNIT_EXPECT_EQ(test, cmt_connect(id, false, 1, 0, 2, 4000, &cp),
			-EINVAL);
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		set_bit(knobs[i], &env->a.fail);
		KUNIT_EXPECT_LT(test, cmt_connect(id, false, 1, 6000, 2, 4000,
						  &cp), 0);
		clear_bit(knobs[i], &env->a.fail);
	}
	KUNIT_EXPECT_EQ(test, irdma_reject(&id->id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_accept(&id->id,
					   &(struct iw_cm_conn_param){}),
			-EINVAL);
	/* a request number that names nothing, spent by the first try */
	id->id.provider_data = (void *)(uintptr_t)77;
	KUNIT_EXPECT_EQ(test, irdma_reject(&id->id, NULL, 0), -ECONNRESET);
	KUNIT_EXPECT_NULL(test, id->id.provider_data);
	id->id.provider_data = (void *)(uintptr_t)77;
	KUNIT_EXPECT_EQ(test, irdma_accept(&id->id,
					   &(struct iw_cm_conn_param){}),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_accept(&id->id,
					   &(struct iw_cm_conn_param){}),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&id->id), -EINVAL);
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, 0);
	l2 = cmt_listen(&env->b, false, 0, 4000, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, -EADDRINUSE);
	l2 = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, -EADDRINUSE);
	l2 = cmt_listen(&env->b, true, 2, 4000, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, 0);
	if (!rc)
		cmt_unlisten(l2);
	set_bit(CMT_FAIL_QHASH, &env->b.fail);
	l2 = cmt_listen(&env->b, false, 3, 4001, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, -EIO);
	clear_bit(CMT_FAIL_QHASH, &env->b.fail);
	set_bit(CMT_FAIL_APBVT, &env->b.fail);
	l2 = cmt_listen(&env->b, false, 3, 4001, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, -EIO);
	clear_bit(CMT_FAIL_APBVT, &env->b.fail);
	cmt_unlisten(lid);
	cmt_pump(env);
	cmt_expect_no_event(env);
}

/*
 * A listener on a's address 1, port 4000, and a connect to it from port
 * 6000 of the same function (a loopback); returns the connecting ID.
 */
static struct cmt_id *cmt_loopback_connect(struct kunit *test,
					   struct cmt_id **lid)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_id *cid;
	int rc;

	env->a.peer = &env->a;
	*lid = cmt_listen(&env->a, false, 1, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 1, 4000, &cp), 0);
	return cid;
}

/*
 * A loopback connect whose listener goes while its SYN is on its way (the
 * server exits): no SYN filter takes the SYN, and the host's stack drops
 * it without a RST. The connect is refused at the SYN's first
 * retransmission, not after all of them (minutes): a listener of ours is
 * the only one that could answer it.
 */
static void irdma_cm_wire_loopback_listener_gone(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_id *lid, *cid;

	cid = cmt_loopback_connect(test, &lid);
	cmt_unlisten(lid);
	cmt_pump(env);
	KUNIT_EXPECT_EQ(test, env->a.martians, 1);
	cmt_expect_no_event(env);
	cmt_advance(env, IRDMA_CM_RETRANS_FIRST_MS);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	/* refused instead of sent again */
	KUNIT_EXPECT_EQ(test, env->a.martians, 1);
	cmt_expect_no_event(env);
}

/*
 * The engine refuses the MODIFY_QP of a loopback accept: the responder
 * resets the request, and its server, its accept failed, goes with its
 * listener. The initiator, reset after its MPA v2 request, would try
 * again with MPA v1: with no listener here to take that SYN it is refused
 * at once (before: the SYN went to the host, which dropped it unanswered,
 * and the connect hung for minutes).
 */
static void irdma_cm_wire_loopback_accept_refused(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid;
	struct cmt_event *e;

	cid = cmt_loopback_connect(test, &lid);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, cmt_child_of(env, e));
	set_bit(CMT_FAIL_RTS, &env->a.fail);
	KUNIT_EXPECT_EQ(test, cmt_accept(cmt_child_of(env, e), &ap), -EIO);
	clear_bit(CMT_FAIL_RTS, &env->a.fail);
	cmt_unlisten(lid);
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test,
			atomic64_read(&env->a.core->stats[IRDMA_CM_STAT_V1_FALLBACK]),
			1);
	KUNIT_EXPECT_EQ(test, env->a.martians, 0);
	cmt_expect_no_event(env);
}

/* Accept fails while starting the QP: the initiator sees a reset. */
static void irdma_cm_wire_accept_qp_errors(struct kunit *test)
{
	static const int knobs[] = { CMT_FAIL_CTX, CMT_FAIL_LSMM, CMT_FAIL_RTS };
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid;
	struct cmt_event *e;
	int i, rc;

	env->a.core->cfg.v1_fallback = false;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		cid = cmt_id_new(&env->a);
		KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000 + i, 2,
						  4000, &cp), 0);
		cmt_pump(env);
		e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
		set_bit(knobs[i], &env->b.fail);
		KUNIT_EXPECT_EQ(test, cmt_accept(cmt_child_of(env, e), &ap),
				-EIO);
		clear_bit(knobs[i], &env->b.fail);
		cmt_pump(env);
		cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY,
				 -ECONNRESET);
		cmt_advance(env, 1000);
	}
	/* the initiator fails to start its QP */
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6100, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	set_bit(CMT_FAIL_RTR, &env->a.fail);
	KUNIT_EXPECT_EQ(test, cmt_accept(cmt_child_of(env, e), &ap), 0);
	cmt_pump(env);
	clear_bit(CMT_FAIL_RTR, &env->a.fail);
	cmt_expect_event(env, NULL, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	irdma_cm_disconn(env->b.qps[2].node, IRDMA_CM_DISC_PEER_RST);
	cmt_pump(env);
	cmt_expect_event(env, NULL, IW_CM_EVENT_DISCONNECT, -ECONNRESET);
	cmt_expect_event(env, NULL, IW_CM_EVENT_CLOSE, -ECONNRESET);
	cmt_unlisten(lid);
}

/* A reference on @cc's node of local port @lport and remote port @rport */
static struct irdma_cm_node *cmt_hold_node(struct cmt_core *cc, u16 lport,
					   u16 rport)
{
	struct irdma_cm_node *node, *found = NULL;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(cc->core->conn_ht, bkt, node, hnode) {
		if (node->ci.loc_port == lport && node->ci.rem_port == rport &&
		    irdma_cm_node_get(node)) {
			found = node;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * An accept refused while something else still holds the request's node
 * (the CM's event work after the upcall, a segment being received): the
 * initiator falls back to MPA v1 and opens the same 4-tuple again at
 * once. The engine keys 4-tuple filters by the 4-tuple: the new request's
 * add must not meet the old node's filter (the engine would refuse it
 * unheard), nor the old node's last put delete the filter the new request
 * then lives on.
 */
static void irdma_cm_wire_refused_retry_filter(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_conn none = { .qpn = CMT_QPS, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	struct irdma_cm_node *old;
	struct irdma_cm_info ci;
	struct cmt_event *e;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	old = cmt_hold_node(&env->b, 4000, 6000);
	KUNIT_ASSERT_NOT_NULL(test, old);
	ci = old->ci;
	KUNIT_EXPECT_EQ(test, cmt_accept(child, &none), -EINVAL);
	/* the RST, the initiator's MPA v1 retry on the same 4-tuple */
	cmt_pump(env);
	KUNIT_EXPECT_EQ(test, env->b.est_refused, 0);
	irdma_rem_ref_cm_node(old);
	KUNIT_EXPECT_EQ(test, env->b.est_missing, 0);
	KUNIT_EXPECT_GE_MSG(test, cmt_est_find(&env->b, &ci), 0,
			    "the retry's filter is gone");
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	cmt_graceful_close(env, &env->b, cid, child);
	cmt_unlisten(lid);
}

/*
 * The engine refuses a command the CM posted without waiting: the 4-tuple
 * filter (@knob CMT_REFUSE_EST) or the port (CMT_REFUSE_APBVT) of a
 * connect. Its refusal, reported before the peer answers, ends the
 * connect with CONNECT_REPLY -EIO at once (not at the MPA timer), and no
 * delete follows for what the engine does not have (cmt_exit() checks
 * est_missing and ports_missing). A connect after it works.
 */
static void cmt_conn_refused(struct kunit *test, int knob)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_event *e;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	set_bit(knob, &env->a.fail);
	rc = cmt_connect(cid, false, 1, 6000, 2, 4000, &cp);
	clear_bit(knob, &env->a.fail);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_TRUE(test, cmt_report_core(&env->a));
	cmt_pump(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -EIO);
	KUNIT_EXPECT_EQ(test, env->a.est_filters, 0);
	KUNIT_EXPECT_EQ(test, env->a.est_missing, 0);
	KUNIT_EXPECT_EQ(test, env->a.ports_missing, 0);
	cmt_advance(env, 2 * IRDMA_CM_TIME_WAIT_MS);
	cmt_expect_no_event(env);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a.core->node_cnt), 0);
	KUNIT_EXPECT_EQ(test, env->a.ports, 0);

	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6001, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	cmt_graceful_close(env, &env->b, cid, child);
	cmt_unlisten(lid);
}

static void irdma_cm_wire_conn_filter_refused(struct kunit *test)
{
	cmt_conn_refused(test, CMT_REFUSE_EST);
}

static void irdma_cm_wire_conn_port_refused(struct kunit *test)
{
	cmt_conn_refused(test, CMT_REFUSE_APBVT);
}

/*
 * The responder's engine refuses the 4-tuple filter of a request whose
 * SYN-ACK is out already: the responder resets it, and the initiator,
 * which heard a RST to its MPA v2 request, tries again with MPA v1 on the
 * same 4-tuple. That connection has no RTR, and the responder's LSMM
 * holds its SQ until the initiator's first FPDU: the initiator must still
 * open with a zero-length READ at the quantum the engine starts from, or a
 * responder whose ULP sends first and an initiator whose ULP waits for it
 * wait for ever (the strict fake fails the move to RTS without a
 * connection WQE). A READ needs an ORD of one at least: the ULP asked none.
 */
static void irdma_cm_wire_resp_filter_refused(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 0 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_event *e;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	/* the SYN: B answers it and posts the filter, which is refused */
	set_bit(CMT_REFUSE_EST, &env->b.fail);
	KUNIT_ASSERT_TRUE(test, cmt_deliver_one(env));
	clear_bit(CMT_REFUSE_EST, &env->b.fail);
	KUNIT_EXPECT_TRUE(test, cmt_report_core(&env->b));
	cmt_pump(env);
	KUNIT_EXPECT_EQ(test,
			atomic64_read(&env->a.core->stats[IRDMA_CM_STAT_V1_FALLBACK]),
			1);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	KUNIT_EXPECT_FALSE(test, env->a.qps[1].ctx.p2p);
	KUNIT_EXPECT_EQ(test, env->a.qps[1].rtr, IRDMA_CM_RDMA0_READ);
	KUNIT_EXPECT_EQ(test, env->a.qps[1].ctx.ord, 1);
	KUNIT_EXPECT_EQ(test, env->b.qps[2].ctx.rdma0, IRDMA_CM_RDMA0_NONE);
	KUNIT_EXPECT_TRUE(test, env->a.qps[1].conn_wqe);
	KUNIT_EXPECT_TRUE(test, env->b.qps[2].conn_wqe);
	cmt_graceful_close(env, &env->b, cid, child);
	cmt_unlisten(lid);
}

/*
 * The engine refuses the port of a listen: the listen fails with -EIO
 * once its sync has the verdict, posts no delete for the port, and a
 * listen on that port after it opens the port again.
 */
static void irdma_cm_wire_listen_port_refused(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_id *lid;
	int rc;

	set_bit(CMT_REFUSE_APBVT, &env->b.fail);
	cmt_listen(&env->b, false, 2, 4010, 0, &rc);
	clear_bit(CMT_REFUSE_APBVT, &env->b.fail);
	KUNIT_EXPECT_EQ(test, rc, -EIO);
	KUNIT_EXPECT_EQ(test, env->b.ports, 0);
	KUNIT_EXPECT_EQ(test, env->b.ports_missing, 0);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b.core->listener_cnt), 0);
	lid = cmt_listen(&env->b, false, 2, 4010, 0, &rc);
	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, env->b.ports, 1);
	if (!rc)
		cmt_unlisten(lid);
	KUNIT_EXPECT_EQ(test, env->b.ports, 0);
	cmt_pump(env);
	cmt_expect_no_event(env);
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * An accept (@accept) or a reject whose n-th allocation fails, n = 1, 2,
 * ... until the call passes its last one (current->fail_nth, as the
 * guest's fault walk sets it): whatever the call returns, the initiator
 * hears the outcome at once (CONNECT_REPLY established, refused or
 * reset), never only at its MPA timer. The RST of an answer that failed
 * needs no memory. The fake wire's frames stand for the ILQ's send
 * buffers, allocated beforehand, and are not fault points.
 */
static void cmt_answer_fail_nth(struct kunit *test, bool accept)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_event *e;
	unsigned int n, left = 0;
	int rc = 0;

	/* no MPA v1 retry after our RST: one request per try */
	env->a.core->cfg.v1_fallback = false;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	for (n = 1; n <= 24 && !left; n++) {
		cid = cmt_id_new(&env->a);
		KUNIT_ASSERT_NOT_NULL(test, cid);
		KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000 + n, 2,
						  4000, &cp), 0);
		cmt_pump(env);
		e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
		child = cmt_child_of(env, e);
		KUNIT_ASSERT_NOT_NULL(test, child);
		current->fail_nth = n;
		rc = accept ? cmt_accept(child, &ap) : cmt_reject(child, NULL, 0);
		left = current->fail_nth;
		current->fail_nth = 0;
		/* far below the MPA timer; no retransmission is due */
		cmt_advance(env, 100);
		e = cmt_take_event(env, cid);
		KUNIT_ASSERT_NOT_NULL_MSG(test, e,
					  "n = %u (call: %d): the initiator heard nothing",
					  n, rc);
		KUNIT_EXPECT_EQ_MSG(test, e->type, IW_CM_EVENT_CONNECT_REPLY,
				    "n = %u", n);
		if (accept && !rc) {
			KUNIT_EXPECT_EQ_MSG(test, e->status, 0, "n = %u", n);
			cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
			cmt_graceful_close(env, &env->b, cid, child);
		} else {
			KUNIT_EXPECT_NE_MSG(test, e->status, 0, "n = %u", n);
		}
		cmt_advance(env, 2 * IRDMA_CM_TIME_WAIT_MS);
		cmt_recycle(env);
	}
	/* the last try passed every point, and so succeeded */
	KUNIT_EXPECT_NE_MSG(test, left, 0U, "more than %u fault points", n - 1);
	KUNIT_EXPECT_EQ(test, rc, 0);
	kunit_info(test, "%s: %u fault points\n", accept ? "accept" : "reject",
		   n - 2);
	cmt_unlisten(lid);
}

static void irdma_cm_wire_accept_fail_nth(struct kunit *test)
{
	cmt_answer_fail_nth(test, true);
}

static void irdma_cm_wire_reject_fail_nth(struct kunit *test)
{
	cmt_answer_fail_nth(test, false);
}
#endif

/*
 * A QP belongs to the one connection that took it: a connect or an accept
 * naming it again is refused with -EBUSY, and the owner keeps its link,
 * its events and its close.
 */
static void irdma_cm_wire_qp_taken(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_conn cp3 = { .qpn = 3, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child, *other;
	struct irdma_cm_node *owner;
	struct cmt_event *e;
	int rc;

	/* a reset request is not tried again with MPA v1 */
	env->a.core->cfg.v1_fallback = false;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	owner = env->a.qps[1].node;
	KUNIT_ASSERT_NOT_NULL(test, owner);
	/* to a port nobody listens on, as an attacker would */
	other = cmt_id_new(&env->a);
	KUNIT_EXPECT_EQ(test, cmt_connect(other, false, 1, 6001, 2, 4999, &cp),
			-EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, env->a.qps[1].node, owner);
	KUNIT_EXPECT_EQ(test, env->a.qps[1].refs, 1);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, NULL, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	/* a second request, accepted on the server's connected QP */
	other = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(other, false, 1, 6002, 2, 4000, &cp3),
			0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	owner = env->b.qps[2].node;
	KUNIT_EXPECT_EQ(test, cmt_accept(cmt_child_of(env, e), &ap), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, env->b.qps[2].node, owner);
	KUNIT_EXPECT_EQ(test, env->b.qps[2].refs, 1);
	cmt_pump(env);
	cmt_expect_event(env, other, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	KUNIT_EXPECT_PTR_EQ(test, env->a.qps[3].node, NULL);
	cmt_graceful_close(env, &env->b, cid, child);
	cmt_unlisten(lid);
}

/* Address events: wildcard SYN filters follow addresses; teardown by IP. */
static void irdma_cm_wire_if_notify(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_conn pp = { .qpn = 3, .ird = 2, .ord = 2 };
	u32 addr = 0xc0000202, other = 0xc0000209;
	struct cmt_id *lid, *cid, *pend;
	struct cmt_event *e;
	int rc;

	lid = cmt_listen(&env->b, false, 0, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
	irdma_if_notify(env->b.core, &addr, true, IRDMA_CM_NO_VLAN, true);
	irdma_if_notify(env->b.core, &other, true, IRDMA_CM_NO_VLAN,
			true);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 2);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_EQ(test, cmt_accept(cmt_child_of(env, e), &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, NULL, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	/* an attempt its SYN never leaves, untouched by the teardown */
	pend = cmt_id_new(&env->a);
	env->a.blackhole = true;
	KUNIT_ASSERT_EQ(test, cmt_connect(pend, false, 1, 6001, 2, 4001, &pp),
			0);
	cmt_pump(env);
	irdma_if_notify(env->b.core, &addr, true, IRDMA_CM_NO_VLAN, false);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 1);
	KUNIT_EXPECT_TRUE(test, env->b.qps[2].err);
	irdma_cm_disconn(env->a.qps[1].node, IRDMA_CM_DISC_PEER_RST);
	cmt_pump(env);
	cmt_expect_event(env, NULL, IW_CM_EVENT_CLOSE, -ECONNRESET);
	cmt_expect_event(env, cid, IW_CM_EVENT_DISCONNECT, -ECONNRESET);
	cmt_expect_event(env, cid, IW_CM_EVENT_CLOSE, -ECONNRESET);
	cmt_advance(env, CMT_GIVE_UP_MS);
	cmt_expect_event(env, pend, IW_CM_EVENT_CONNECT_REPLY, -ETIMEDOUT);
	env->a.blackhole = false;
	cmt_unlisten(lid);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
}

/*
 * A VLAN device's address gets a filter of its VLAN; once the port tags
 * untagged traffic with its priority (a traffic-class change), the
 * filters of listeners made before follow, and back again; one that
 * cannot be posted stays as it was until the next retag.
 */
static void irdma_cm_wire_retag(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	u32 addr = 0xc0000202, other = 0xc0000209;
	struct cmt_id *lid, *wid, *cid, *child;
	struct cmt_event *e;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	wid = cmt_listen(&env->b, false, 0, 4001, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	irdma_if_notify(env->b.core, &addr, true, IRDMA_CM_NO_VLAN, true);
	irdma_if_notify(env->b.core, &other, true, 100, true);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 3);
	/* only the VLAN device's address */
	KUNIT_EXPECT_EQ(test, env->b.syn_tagged, 1);

	env->a.prio_tag = CMT_PRIO;
	env->b.prio_tag = CMT_PRIO;
	irdma_cm_retag_listeners(env->b.core);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 3);
	KUNIT_EXPECT_EQ(test, env->b.syn_tagged, 3);
	/* a priority-tagged SYN finds the listener made before the change */
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp),
			0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, NULL, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	KUNIT_EXPECT_EQ(test, env->b.qps[2].ctx.ci.vlan_id, 0);
	cmt_graceful_close(env, &env->b, cid, child);

	/* nothing to change: no command posted */
	rc = env->b.unsynced;
	irdma_cm_retag_listeners(env->b.core);
	KUNIT_EXPECT_EQ(test, env->b.unsynced, rc);

	/* a new filter that cannot be posted leaves the old one in place */
	env->a.prio_tag = -1;
	env->b.prio_tag = -1;
	set_bit(CMT_FAIL_QHASH, &env->b.fail);
	irdma_cm_retag_listeners(env->b.core);
	clear_bit(CMT_FAIL_QHASH, &env->b.fail);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 3);
	KUNIT_EXPECT_EQ(test, env->b.syn_tagged, 3);
	/* and the next retag makes the change */
	irdma_cm_retag_listeners(env->b.core);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 3);
	KUNIT_EXPECT_EQ(test, env->b.syn_tagged, 1);
	cmt_unlisten(wid);
	cmt_unlisten(lid);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
	KUNIT_EXPECT_EQ(test, env->b.syn_tagged, 0);
}

/* A wildcard listen on a real netdev gets one SYN filter per address. */
static void irdma_cm_wire_wildcard_netdev(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct in_device *idev;
	int rc, n4 = 0;
	struct cmt_id *lid;

	env->b.core->netdev = init_net.loopback_dev;
	rtnl_lock();
	idev = __in_dev_get_rtnl(init_net.loopback_dev);
	if (idev) {
		const struct in_ifaddr *ifa;

		in_dev_for_each_ifa_rtnl(ifa, idev)
			n4++;
	}
	rtnl_unlock();
	lid = cmt_listen(&env->b, false, 0, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, n4);
	cmt_unlisten(lid);
	lid = cmt_listen(&env->b, true, 0, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_GE(test, env->b.syn_filters, n4);
	cmt_unlisten(lid);
	KUNIT_EXPECT_EQ(test, env->b.syn_filters, 0);
	env->b.core->netdev = NULL;
}

/* Cleanup with live connections and timers aborts them all. */
static void irdma_cm_wire_cleanup_busy(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_id *cid;

	env->a.peer = NULL;
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	irdma_cleanup_cm_core(env->a.core);
	cmt_process(env);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a.core->node_cnt), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&env->a.core->timer_nodes));
	KUNIT_ASSERT_EQ(test, irdma_setup_cm_core(env->a.iwdev, &cmt_hw_ops,
						  &env->a), 0);
	env->a.core->clk = &cmt_clock;
}

/* Bring the pending retransmissions of @core to now, as if an RTO passed. */
static void cmt_rtx_due_now(struct irdma_cm_core *core)
{
	struct irdma_cm_node *node;
	unsigned long flags, now = jiffies;

	spin_lock_irqsave(&core->timer_lock, flags);
	list_for_each_entry(node, &core->timer_nodes, timer_link)
		if (node->tmr_armed & BIT(IRDMA_CM_TMR_RTX) &&
		    time_after(node->tmr_due[IRDMA_CM_TMR_RTX], now))
			node->tmr_due[IRDMA_CM_TMR_RTX] = now;
	spin_unlock_irqrestore(&core->timer_lock, flags);
}

/*
 * The default clock (jiffies and the core's timer_list) and the default
 * VLAN lookup through the netdevs, without waiting for the clock: a connect
 * arms the timer for the first retransmission, one RTO away; run once that
 * is due, the timer's function resends both SYNs and arms the timer again
 * for the next.
 */
static void irdma_cm_wire_real_clock(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn cp6 = { .qpn = 3, .ird = 2, .ord = 2 };
	unsigned long rto = msecs_to_jiffies(IRDMA_CM_RETRANS_FIRST_MS), j0;
	struct irdma_cm_core *core = env->a.core;
	struct irdma_cm_hw_ops *ops;
	struct cmt_id *c4, *c6;
	u32 tx;

	ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	*ops = cmt_hw_ops;
	ops->get_vlan = NULL;
	core->ops = ops;
	core->clk = &irdma_cm_jiffies_clock;
	env->a.peer = NULL;
	c4 = cmt_id_new(&env->a);
	c6 = cmt_id_new(&env->a);
	j0 = jiffies;
	KUNIT_ASSERT_EQ(test, cmt_connect(c4, false, 1, 6000, 2, 4000, &cp), 0);
	KUNIT_ASSERT_EQ(test, cmt_connect(c6, true, 1, 6000, 2, 4000, &cp6), 0);
	KUNIT_EXPECT_EQ(test, env->a.tx, 2U);
	KUNIT_EXPECT_TRUE(test, core->timer_armed);
	KUNIT_EXPECT_TRUE(test, timer_pending(&core->tcp_timer));
	KUNIT_EXPECT_EQ(test, core->tcp_timer.expires, core->timer_due);
	KUNIT_EXPECT_TRUE(test, time_in_range(core->timer_due, j0 + rto,
					      jiffies + rto));
	del_timer_sync(&core->tcp_timer);
	tx = env->a.tx;
	cmt_rtx_due_now(core);
	core->tcp_timer.function(&core->tcp_timer);
	KUNIT_EXPECT_EQ(test, env->a.tx, tx + 2);
	KUNIT_EXPECT_TRUE(test, timer_pending(&core->tcp_timer));
	KUNIT_EXPECT_EQ(test, core->tcp_timer.expires, core->timer_due);
	KUNIT_EXPECT_TRUE(test, time_after(core->timer_due, jiffies));
	irdma_cm_teardown_connections(core, NULL, false);
	cmt_pump(env);
	cmt_expect_event(env, c4, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	cmt_expect_event(env, c6, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	KUNIT_EXPECT_FALSE(test, core->timer_armed);
	del_timer_sync(&core->tcp_timer);
	core->clk = &cmt_clock;
	core->ops = &cmt_hw_ops;
}

/*
 * The listener goes away while iw_cm holds requests for it that it has not
 * processed: iw_cm drops them unread, so the CM takes them back (a RST to
 * each peer, everything freed, the initiators told), and the port can be
 * listened on again.
 */
static void irdma_cm_wire_listener_window(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn cp3 = { .qpn = 3, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	atomic64_t *reclaimed =
		&env->b.core->stats[IRDMA_CM_STAT_REQS_RECLAIMED];
	struct cmt_id *lid, *c1, *c2, *child;
	struct cmt_event *e;
	int rc;

	env->a.core->cfg.v1_fallback = false;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	c1 = cmt_id_new(&env->a);
	c2 = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(c1, false, 1, 6000, 2, 4000, &cp), 0);
	KUNIT_ASSERT_EQ(test, cmt_connect(c2, false, 1, 6001, 2, 4000, &cp3),
			0);
	/* the CM hands both requests up; iw_cm has not run yet */
	while (cmt_deliver(env))
		cmt_flush(env);
	cmt_flush(env);
	KUNIT_EXPECT_EQ(test, env->nq, 2);
	cmt_unlisten(lid);
	cmt_pump(env);
	KUNIT_EXPECT_EQ(test, env->dropped, 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(reclaimed), 2);
	cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	cmt_expect_event(env, c1, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	cmt_expect_event(env, c2, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	cmt_expect_no_event(env);
	cmt_advance(env, 1000);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b.core->node_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b.core->listener_cnt), 0);
	KUNIT_EXPECT_EQ(test, env->b.est_filters, 0);
	KUNIT_EXPECT_EQ(test, env->b.ports, 0);
	KUNIT_EXPECT_EQ(test, lid->refs, 0);
	/* the same port again */
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	c1 = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(c1, false, 1, 6002, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, c1, IW_CM_EVENT_CONNECT_REPLY, 0);
	cmt_graceful_close(env, &env->b, c1, child);
	cmt_unlisten(lid);
}

/*
 * The MPA reply arrived, and before the CM's worker reports it the
 * connection is torn down: its address removed, or its QP destroyed.
 * The initiator gets its one CONNECT_REPLY all the same, an error.
 */
static void irdma_cm_wire_reply_race(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	u32 addr = 0xc0000201;
	struct cmt_block *blk;
	struct cmt_event *e;
	int rc, round;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	for (round = 0; round < 2; round++) {
		cid = cmt_id_new(&env->a);
		KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000 + round, 2,
						  4000, &cp), 0);
		cmt_pump(env);
		e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
		child = cmt_child_of(env, e);
		KUNIT_ASSERT_NOT_NULL(test, child);
		blk = cmt_block_events(test, &env->a);
		KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
		/* the reply reaches the initiator; its report waits */
		cmt_deliver(env);
		KUNIT_EXPECT_EQ(test, env->a.qps[1].node->state,
				IRDMA_CM_STATE_OFFLOADED);
		if (round)
			irdma_cm_disconn(env->a.qps[1].node,
					 IRDMA_CM_DISC_LOCAL_ERR);
		else
			irdma_cm_teardown_connections(env->a.core, &addr, true);
		cmt_unblock_events(&env->a, blk);
		cmt_pump(env);
		cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
		cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY,
				 -ECONNRESET);
		KUNIT_EXPECT_FALSE(test, env->a.qps[1].rts);
		/* the responder's engine sees the initiator's reset */
		irdma_cm_disconn(env->b.qps[2].node, IRDMA_CM_DISC_PEER_RST);
		cmt_pump(env);
		cmt_expect_close(env, child);
		cmt_expect_no_event(env);
	}
	cmt_unlisten(lid);
}

/* The MSS a TCP option carries, or 0 */
static u16 cmt_frame_mss(const struct cmt_frame *f)
{
	struct cmt_seen s;

	if (!cmt_seen_parse(f->data, f->len, &s) || s.optlen < 4 ||
	    s.opts[0] != TCPOPT_MSS)
		return 0;
	return get_unaligned_be16(s.opts + 2);
}

/*
 * Each side advertises the MSS of its own link's MTU, the SYN-ACK too
 * (not the smaller of both), and the connection takes the smaller one.
 */
static void irdma_cm_wire_mss(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn ap = { .qpn = 2, .ird = 2, .ord = 2 };
	struct cmt_id *lid, *cid, *child;
	struct cmt_frame *f;
	struct cmt_event *e;
	int rc;

	env->a.core->cfg.mtu = 1200;
	env->b.core->cfg.mtu = 9000;
	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	f = cmt_wire_peek(env);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, cmt_frame_mss(f), 1160);
	KUNIT_ASSERT_TRUE(test, cmt_deliver_one(env));
	f = cmt_wire_peek(env);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, cmt_frame_mss(f), 8960);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	child = cmt_child_of(env, e);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, cmt_accept(child, &ap), 0);
	cmt_pump(env);
	cmt_expect_event(env, child, IW_CM_EVENT_ESTABLISHED, 0);
	cmt_expect_event(env, cid, IW_CM_EVENT_CONNECT_REPLY, 0);
	KUNIT_EXPECT_EQ(test, env->a.qps[1].ctx.tcp.mss, 1160);
	KUNIT_EXPECT_EQ(test, env->b.qps[2].ctx.tcp.mss, 1160);
	cmt_graceful_close(env, &env->b, cid, child);
	cmt_unlisten(lid);
}

static struct kunit_case irdma_cm_wire_cases[] = {
	KUNIT_CASE_PARAM(irdma_cm_wire_connect_accept_close,
			 cmt_wire_gen_params),
	KUNIT_CASE(irdma_cm_wire_reject),
	KUNIT_CASE(irdma_cm_wire_conn_filter_refused),
	KUNIT_CASE(irdma_cm_wire_conn_port_refused),
	KUNIT_CASE(irdma_cm_wire_resp_filter_refused),
	KUNIT_CASE(irdma_cm_wire_listen_port_refused),
#ifdef CONFIG_FAULT_INJECTION
	KUNIT_CASE(irdma_cm_wire_accept_fail_nth),
	KUNIT_CASE(irdma_cm_wire_reject_fail_nth),
#endif
	KUNIT_CASE(irdma_cm_wire_ulp_errors),
	KUNIT_CASE(irdma_cm_wire_ord_above_peer_ird),
	KUNIT_CASE(irdma_cm_wire_listener_destroyed),
	KUNIT_CASE(irdma_cm_wire_listener_window),
	KUNIT_CASE(irdma_cm_wire_reply_race),
	KUNIT_CASE(irdma_cm_wire_mss),
	KUNIT_CASE(irdma_cm_wire_xmit_refused),
	KUNIT_CASE(irdma_cm_wire_loopback_refused),
	KUNIT_CASE(irdma_cm_wire_loopback_listener_gone),
	KUNIT_CASE(irdma_cm_wire_loopback_accept_refused),
	KUNIT_CASE(irdma_cm_wire_entry_errors),
	KUNIT_CASE(irdma_cm_wire_listen_refused),
	KUNIT_CASE(irdma_cm_wire_accept_qp_errors),
	KUNIT_CASE(irdma_cm_wire_refused_retry_filter),
	KUNIT_CASE(irdma_cm_wire_qp_taken),
	KUNIT_CASE(irdma_cm_wire_if_notify),
	KUNIT_CASE(irdma_cm_wire_retag),
	KUNIT_CASE(irdma_cm_wire_wildcard_netdev),
	KUNIT_CASE(irdma_cm_wire_cleanup_busy),
	KUNIT_CASE(irdma_cm_wire_real_clock),
	{}
};

static struct kunit_suite irdma_cm_wire_suite = {
	.name = "irdma_cm_wire",
	.init = cmt_init,
	.exit = cmt_exit,
	.test_cases = irdma_cm_wire_cases,
};

kunit_test_suite(irdma_cm_wire_suite);
