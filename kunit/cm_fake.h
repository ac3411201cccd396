/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Copyright (c) 2026 The irdma project authors */
/*
 * Test environment of the CM suites, included by cm.c after the code under
 * test: two CM cores on a fake wire, fake QPs and hardware ops, a virtual
 * clock and a strict model of iw_cm's per-id rules. Everything is allocated
 * with kunit_kzalloc (or freed before the case ends).
 */
#ifndef IRDMA_KUNIT_CM_FAKE_H
#define IRDMA_KUNIT_CM_FAKE_H

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/random.h>

#define CMT_QPS		8
#define CMT_IDS		64
#define CMT_EVENTS	64
#define CMT_ACTIONS	16
#define CMT_START	((unsigned long)-300000)
/* 4-tuple filters one fake engine holds at most */
#define CMT_EST_MAX	32
/* refused adds one fake engine has not reported yet, at most */
#define CMT_REFUSALS	16
/* longer than a whole retransmission series: 1, 2 and 4 s, then capped */
#define CMT_GIVE_UP_MS	(7000 + IRDMA_CM_DEFAULT_RETRANS_MAX * IRDMA_CM_RETRANS_CAP_MS)
/* one jiffy, the finest step in which the CM's timers can be told apart */
#define CMT_TICK_MS	(MSEC_PER_SEC / HZ)

struct cmt_env;

/**
 * struct cmt_refusal - an add the fake engine refused, not yet reported
 * @port: an APBVT add (else a 4-tuple filter's)
 * @ci: the filter's addressing and tag
 * @loc_port: the port
 * @tag: the add's tag
 */
struct cmt_refusal {
	bool port;
	struct irdma_cm_info ci;
	u16 loc_port;
	u32 tag;
};

/**
 * struct cmt_frame - a frame in flight on the fake wire
 * @list: on cmt_env.wire
 * @src: sending side
 * @len: frame length
 * @data: frame bytes
 */
struct cmt_frame {
	struct list_head list;
	struct cmt_core *src;
	u32 len;
	u8 data[];
};

/**
 * struct cmt_qp - a fake QP
 * @qpn: number
 * @refs: references taken through qp_lookup
 * @node: CM node linked through qp_link
 * @ctx: context programmed by the CM
 * @ctx_set: @ctx is valid
 * @rts: moved to RTS
 * @err: moved to error
 * @closing: asked to close gracefully (qp_close)
 * @rtr: RTR op posted (IRDMA_CM_RDMA0_NONE: a NOP, or nothing yet)
 * @conn_wqe: quantum 0 holds the connection WQE (LSMM, RTR or NOP) of the
 *	context set last
 * @lsmm: MPA reply posted
 * @lsmm_len: its length
 */
struct cmt_qp {
	u32 qpn;
	int refs;
	struct irdma_cm_node *node;
	struct irdma_cm_tcp_ctx ctx;
	bool ctx_set;
	bool rts;
	bool err;
	bool closing;
	enum irdma_cm_rdma0 rtr;
	bool conn_wqe;
	u8 lsmm[IRDMA_MPA_MAX_FRAME + 8];
	u32 lsmm_len;
};

/**
 * struct cmt_core - one CM core and its fake hardware
 * @env: environment
 * @iwdev: device embedding the core
 * @core: the core
 * @peer: where its frames go (NULL: kept for the script to check)
 * @qps: fake QPs
 * @syn_filters: SYN qhash filters in place
 * @syn_tagged: those of them that match a VLAN (priority tags included)
 * @est_filters: 4-tuple qhash filters in place
 * @est: those filters, keyed as the engine keys them (the 4-tuple and
 *	VLAN, not the node that asked for them)
 * @est_refused: 4-tuple filter adds the engine refused: one of that
 *	4-tuple was in place already (the adapter answers EXISTS, which a
 *	command posted without waiting never tells its issuer)
 * @est_missing: 4-tuple filter deletes that found none (NO_OBJECT)
 * @unsynced: filter changes posted since the CM last waited for them (sync)
 * @refused: SYN filter changes the fake engine refused (CMT_REFUSE_QHASH)
 * @syn_ports: SYN filters in place, by local port
 * @martians: SYNs a core sent itself that no SYN filter took: the host's
 *	stack, which they then reach, drops a segment from its own address
 *	without a word
 * @syn_del_unlisted: SYN filter deletes posted once no listener of that
 *	port was in the table any more (a new listener's add could then
 *	reach the engine before the delete)
 * @ports: APBVT entries in place
 * @port_map: which ports they are
 * @ports_missing: APBVT deletes of a port not in place (one the engine
 *	refused to open, say)
 * @pending: adds refused and not yet reported to the CM; the engine's
 *	completions are reported on the command workqueue, so they come
 *	later than the post, at the latest when the CM syncs
 * @npending: their number
 * @ahs: AHs in place
 * @arps: ARP cache holds taken (arp_resolve) and not given back
 * @blackhole: drop every frame it sends
 * @xmit_err: when non-zero, what xmit returns (nothing is sent)
 * @fail: bitmap of enum cmt_fail knobs
 * @vlan: VLAN returned for local addresses
 * @prio_tag: what prio_tag returns: the priority untagged traffic carries
 *	in a priority tag, or -1 for none
 * @tx: frames sent
 */
struct cmt_core {
	struct cmt_env *env;
	struct irdma_device *iwdev;
	struct irdma_cm_core *core;
	struct cmt_core *peer;
	struct cmt_qp qps[CMT_QPS];
	int syn_filters;
	int syn_tagged;
	int est_filters;
	struct irdma_cm_info est[CMT_EST_MAX];
	int est_refused;
	int est_missing;
	int unsynced;
	int refused;
	u8 *syn_ports;
	int martians;
	int syn_del_unlisted;
	int ports;
	unsigned long *port_map;
	int ports_missing;
	struct cmt_refusal pending[CMT_REFUSALS];
	int npending;
	int ahs;
	int arps;
	bool blackhole;
	int xmit_err;
	unsigned long fail;
	u16 vlan;
	int prio_tag;
	u32 tx;
};

enum cmt_fail {
	CMT_FAIL_QHASH,
	CMT_FAIL_APBVT,
	CMT_FAIL_ARP,
	CMT_FAIL_AH,
	CMT_FAIL_CTX,
	CMT_FAIL_LSMM,
	CMT_FAIL_RTR,
	CMT_FAIL_RTS,
	CMT_FAIL_CLOSE,
	/* SYN filter changes are posted, then failed by the engine */
	CMT_REFUSE_QHASH,
	/* 4-tuple filter adds are posted, then refused and reported */
	CMT_REFUSE_EST,
	/* APBVT adds are posted, then refused and reported */
	CMT_REFUSE_APBVT,
};

enum cmt_id_state {
	CMT_IDLE,
	CMT_LISTEN,
	CMT_CONN_SENT,
	CMT_CONN_RECV,
	CMT_ESTABLISHED,
	CMT_CLOSING,
	CMT_DESTROYING,
};

/**
 * struct cmt_id - strict fake of an iw_cm id
 * @id: the id handed to the CM
 * @env: environment
 * @cc: core it belongs to
 * @state: iw_cm state model
 * @refs: add_ref minus rem_ref
 * @ulp_fail: event types whose ULP handler fails (iw_cm reacts later)
 * @queue_fail: event types iw_cm cannot queue (-ENOMEM to the CM)
 * @drop: the id is being destroyed: its queued events are dropped unread,
 *	as iw_cm's IWCM_F_DROP_EVENTS does
 * @used: slot in use
 */
struct cmt_id {
	struct iw_cm_id id;
	struct cmt_env *env;
	struct cmt_core *cc;
	enum cmt_id_state state;
	int refs;
	u32 ulp_fail;
	u32 queue_fail;
	bool drop;
	bool used;
};

/**
 * struct cmt_qev - an event iw_cm queued for its workqueue
 * @id: receiver
 * @ev: the event, its private data pointing into @pdata
 * @pdata: iw_cm's copy of the private data
 */
struct cmt_qev {
	struct cmt_id *id;
	struct iw_cm_event ev;
	u8 pdata[IRDMA_MPA_MAX_PDATA];
};

/**
 * struct cmt_event - one recorded upcall
 * @id: receiver
 * @type: event type
 * @status: status
 * @ird: ird field
 * @ord: ord field
 * @pdata: private data
 * @pdata_len: its length
 * @provider_data: provider_data field
 * @dropped: iw_cm dropped it unread (its id was being destroyed); the CM
 *	delivered it all the same
 * @taken: already matched by an expectation
 */
struct cmt_event {
	struct cmt_id *id;
	enum iw_cm_event_type type;
	int status;
	u8 ird;
	u8 ord;
	u8 pdata[256];
	u8 pdata_len;
	void *provider_data;
	bool dropped;
	bool taken;
};

enum cmt_action_kind {
	CMT_ACT_REJECT,
	CMT_ACT_DESTROY,
};

/**
 * struct cmt_action - what iw_cm does later in its own workqueue
 * @kind: action
 * @id: id it applies to
 */
struct cmt_action {
	enum cmt_action_kind kind;
	struct cmt_id *id;
};

/**
 * struct cmt_env - the whole fixture
 * @test: current test
 * @lock: protects the event log, actions and id states
 * @a: first core
 * @b: second core
 * @wire: frames in flight, in order
 * @out: frames of a core without peer
 * @now: virtual jiffies
 * @ids: fake iw_cm ids
 * @ev: event log
 * @ev_head: next event to check
 * @ev_tail: events recorded
 * @act: pending iw_cm actions
 * @nact: their number
 * @q: events iw_cm queued and has not processed yet
 * @nq: their number
 * @dropped: events dropped unread (their id was being destroyed)
 * @violations: iw_cm rule violations seen
 * @no_record: do not log events (fuzzing)
 */
struct cmt_env {
	struct kunit *test;
	spinlock_t lock; /* events, actions, ids, frame lists */
	struct cmt_core a;
	struct cmt_core b;
	struct list_head wire;
	struct list_head out;
	unsigned long now;
	struct cmt_id ids[CMT_IDS];
	struct cmt_event ev[CMT_EVENTS];
	int ev_head;
	int ev_tail;
	struct cmt_action act[CMT_ACTIONS];
	int nact;
	struct cmt_qev q[CMT_EVENTS];
	int nq;
	int dropped;
	int violations;
	bool no_record;
};

static struct cmt_env *cmt_env_of(struct kunit *test)
{
	return test->priv;
}

static struct cmt_core *cmt_cc(struct irdma_cm_core *core)
{
	return core->ops_priv;
}

/* ---- fake hardware ops ---- */

static int cmt_xmit(struct irdma_cm_core *core, struct irdma_cm_node *node,
		    const void *frame, u32 len)
{
	struct cmt_core *cc = cmt_cc(core);
	u32 hlen = core->cfg.gen1 ? 0 : irdma_cm_l2l3_len(node);
	struct cmt_frame *f;
	unsigned long flags;

#ifdef CONFIG_FAULT_INJECTION
	unsigned int nth = current->fail_nth;
#endif

	cc->tx++;
	if (cc->xmit_err)
		return cc->xmit_err;
	/* the ILQ: gen2 sends only through the node's AH, gen1 never */
	if (!node->ah != core->cfg.gen1)
		return -EINVAL;
	if (cc->blackhole)
		return 0;
#ifdef CONFIG_FAULT_INJECTION
	/* the ILQ's send buffers are allocated beforehand: not a fault point */
	current->fail_nth = 0;
#endif
	f = kzalloc(sizeof(*f) + hlen + len, GFP_ATOMIC);
#ifdef CONFIG_FAULT_INJECTION
	current->fail_nth = nth;
#endif
	if (!f)
		return -ENOMEM;
	f->src = cc;
	f->len = hlen + len;
	if (hlen)
		irdma_cm_put_l2l3(node, f->data, len);
	memcpy(f->data + hlen, frame, len);
	spin_lock_irqsave(&cc->env->lock, flags);
	list_add_tail(&f->list, cc->peer ? &cc->env->wire : &cc->env->out);
	spin_unlock_irqrestore(&cc->env->lock, flags);
	return 0;
}

/* Is a listener on @port in the table? (no lock: the caller may hold it) */
static bool cmt_port_listed(struct irdma_cm_core *core, u16 port)
{
	struct irdma_cm_listener *l;

	list_for_each_entry(l, &core->listen_list, list)
		if (l->ci.loc_port == port)
			return true;
	return false;
}

/* The slot of the 4-tuple filter @ci names, or -1 */
static int cmt_est_find(struct cmt_core *cc, const struct irdma_cm_info *ci)
{
	int i;

	for (i = 0; i < cc->est_filters; i++)
		if (irdma_cm_info_match(&cc->est[i], ci))
			return i;
	return -1;
}

static void cmt_est_drop(struct cmt_core *cc, int i)
{
	cc->est[i] = cc->est[--cc->est_filters];
}

/* Keep a refused add for cmt_report_refusals() */
static void cmt_refuse(struct cmt_core *cc, const struct irdma_cm_info *ci,
		       u16 port, u32 tag)
{
	struct cmt_refusal *r;
	unsigned long flags;

	spin_lock_irqsave(&cc->env->lock, flags);
	if (cc->npending == CMT_REFUSALS) {
		spin_unlock_irqrestore(&cc->env->lock, flags);
		KUNIT_FAIL(cc->env->test, "fake engine: too many refusals");
		return;
	}
	r = &cc->pending[cc->npending++];
	r->port = !ci;
	if (ci)
		r->ci = *ci;
	r->loc_port = port;
	r->tag = tag;
	spin_unlock_irqrestore(&cc->env->lock, flags);
}

/*
 * Report the refused adds of @cc to its CM, as the command workqueue does
 * (irdma_cm_conn_refused(), irdma_cm_port_refused()); no CM lock held.
 */
static bool cmt_report_core(struct cmt_core *cc)
{
	struct cmt_refusal r;
	unsigned long flags;
	bool any = false;

	for (;;) {
		spin_lock_irqsave(&cc->env->lock, flags);
		if (!cc->npending) {
			spin_unlock_irqrestore(&cc->env->lock, flags);
			return any;
		}
		r = cc->pending[0];
		memmove(cc->pending, cc->pending + 1,
			--cc->npending * sizeof(cc->pending[0]));
		spin_unlock_irqrestore(&cc->env->lock, flags);
		any = true;
		if (r.port)
			irdma_cm_port_refused(cc->core, r.loc_port, r.tag, -EIO);
		else
			irdma_cm_conn_refused(cc->core, &r.ci, -EIO);
	}
}

/* A 4-tuple filter change, as the engine carries it out: strictly */
static void cmt_est_change(struct cmt_core *cc, const struct irdma_cm_info *ci,
			   bool add, atomic_t *failed)
{
	int i = cmt_est_find(cc, ci);

	if (add && test_bit(CMT_REFUSE_EST, &cc->fail)) {
		cmt_refuse(cc, ci, ci->loc_port, ci->tag);
	} else if (add && i >= 0) {
		cc->est_refused++;
		if (failed)
			atomic_inc(failed);
		cmt_refuse(cc, ci, ci->loc_port, ci->tag);
	} else if (add && cc->est_filters == CMT_EST_MAX) {
		KUNIT_FAIL(cc->env->test, "fake engine out of 4-tuple filters");
	} else if (add) {
		cc->est[cc->est_filters++] = *ci;
	} else if (i < 0) {
		cc->est_missing++;
	} else {
		cmt_est_drop(cc, i);
	}
}

static int cmt_qhash(struct irdma_cm_core *core, const struct irdma_cm_info *ci,
		     bool syn, bool add, atomic_t *failed)
{
	struct cmt_core *cc = cmt_cc(core);

	if (add && test_bit(CMT_FAIL_QHASH, &cc->fail))
		return -EIO;
	if (syn && test_bit(CMT_REFUSE_QHASH, &cc->fail)) {
		/* the post succeeds; the engine's table does not change */
		if (failed)
			atomic_inc(failed);
		cc->refused++;
		cc->unsynced++;
		return 0;
	}
	if (syn && !add && !cmt_port_listed(core, ci->loc_port))
		cc->syn_del_unlisted++;
	if (syn && ci->vlan_id < VLAN_N_VID)
		cc->syn_tagged += add ? 1 : -1;
	if (syn) {
		cc->syn_filters += add ? 1 : -1;
		cc->syn_ports[ci->loc_port] += add ? 1 : -1;
	} else {
		cmt_est_change(cc, ci, add, failed);
	}
	cc->unsynced++;
	return 0;
}

static void cmt_sync(struct irdma_cm_core *core)
{
	cmt_cc(core)->unsynced = 0;
	/* the workqueue a sync waits for reports the refusals */
	cmt_report_core(cmt_cc(core));
}

static int cmt_apbvt(struct irdma_cm_core *core, u16 port, bool add, u32 tag)
{
	struct cmt_core *cc = cmt_cc(core);

	if (add && test_bit(CMT_FAIL_APBVT, &cc->fail))
		return -EIO;
	if (add && test_bit(CMT_REFUSE_APBVT, &cc->fail)) {
		cmt_refuse(cc, NULL, port, tag);
		return 0;
	}
	if (add == test_bit(port, cc->port_map)) {
		/* open twice, or closed without being open */
		cc->ports_missing++;
		return 0;
	}
	if (add)
		__set_bit(port, cc->port_map);
	else
		__clear_bit(port, cc->port_map);
	cc->ports += add ? 1 : -1;
	return 0;
}

static int cmt_ah_create(struct irdma_cm_core *core, struct irdma_cm_node *node)
{
	struct cmt_core *cc = cmt_cc(core);

	/* gen1 ILQ frames carry their own headers: no AH */
	if (core->cfg.gen1)
		return 0;
	if (test_bit(CMT_FAIL_AH, &cc->fail))
		return -EIO;
	node->ah = cc;
	cc->ahs++;
	return 0;
}

static void cmt_ah_free(struct irdma_cm_core *core, struct irdma_cm_node *node)
{
	cmt_cc(core)->ahs--;
}

static int cmt_arp(struct irdma_cm_core *core, const struct irdma_cm_info *ci,
		   u8 *mac, bool have_mac)
{
	struct cmt_core *cc = cmt_cc(core);

	if (test_bit(CMT_FAIL_ARP, &cc->fail))
		return -EHOSTUNREACH;
	if (!have_mac)
		ether_addr_copy(mac, cc->peer ? cc->peer->core->cfg.mac :
				cc->core->cfg.mac);
	cc->arps++;
	return 3;
}

static void cmt_arp_put(struct irdma_cm_core *core, int idx)
{
	struct cmt_core *cc = cmt_cc(core);

	if (idx != 3 || --cc->arps < 0)
		KUNIT_FAIL(cc->env->test, "ARP index %d given back unheld", idx);
}

static u16 cmt_get_vlan(struct irdma_cm_core *core,
			const struct irdma_cm_info *ci)
{
	return cmt_cc(core)->vlan;
}

/* the fake VLAN devices map every priority to this one (egress map) */
#define CMT_VLAN_PRIO 3

static u8 cmt_vlan_prio(struct irdma_cm_core *core,
			const struct irdma_cm_info *ci)
{
	return CMT_VLAN_PRIO;
}

static int cmt_prio_tag(struct irdma_cm_core *core, u8 tos)
{
	return cmt_cc(core)->prio_tag;
}

/* as strict as the real lookup: no such QP, or one with a connection */
static void *cmt_qp_lookup(struct irdma_cm_core *core, u32 qpn)
{
	struct cmt_core *cc = cmt_cc(core);

	if (!qpn || qpn >= CMT_QPS)
		return ERR_PTR(-EINVAL);
	if (cc->qps[qpn].node)
		return ERR_PTR(-EBUSY);
	cc->qps[qpn].refs++;
	return &cc->qps[qpn];
}

static void cmt_qp_put(struct irdma_cm_core *core, void *qp)
{
	((struct cmt_qp *)qp)->refs--;
}

static int cmt_qp_link(struct irdma_cm_core *core, void *qp,
		       struct irdma_cm_node *old, struct irdma_cm_node *node)
{
	struct cmt_qp *q = qp;

	if (q->node != old)
		return -EBUSY;
	q->node = node;
	return 0;
}

static int cmt_qp_set_ctx(struct irdma_cm_core *core, void *qp,
			  const struct irdma_cm_tcp_ctx *ctx)
{
	struct cmt_qp *q = qp;

	if (test_bit(CMT_FAIL_CTX, &cmt_cc(core)->fail))
		return -EIO;
	q->ctx = *ctx;
	q->ctx_set = true;
	q->conn_wqe = false;
	return 0;
}

static int cmt_qp_post_lsmm(struct irdma_cm_core *core, void *qp,
			    const void *buf, u32 len)
{
	struct cmt_qp *q = qp;

	if (test_bit(CMT_FAIL_LSMM, &cmt_cc(core)->fail) ||
	    len > sizeof(q->lsmm))
		return -EIO;
	memcpy(q->lsmm, buf, len);
	q->lsmm_len = len;
	q->conn_wqe = true;
	return 0;
}

static int cmt_qp_post_rtr(struct irdma_cm_core *core, void *qp,
			   enum irdma_cm_rdma0 op)
{
	if (test_bit(CMT_FAIL_RTR, &cmt_cc(core)->fail))
		return -EIO;
	((struct cmt_qp *)qp)->rtr = op;
	((struct cmt_qp *)qp)->conn_wqe = true;
	return 0;
}

/* RTS: the "hardware" now sends the posted MPA reply as a TCP segment. */
static int cmt_qp_to_rts(struct irdma_cm_core *core, void *qp)
{
	struct cmt_qp *q = qp;
#ifdef CONFIG_FAULT_INJECTION
	unsigned int nth;
#endif
	int i;
	u32 len;
	u8 *buf;

	if (test_bit(CMT_FAIL_RTS, &cmt_cc(core)->fail))
		return -EIO;
	/*
	 * As the engine: it runs the SQ from quantum 0, which the QP keeps
	 * for its connection WQE; left empty, the SQ never starts and the
	 * connection hangs without an error anywhere.
	 */
	if (!q->conn_wqe)
		KUNIT_FAIL(cmt_cc(core)->env->test,
			   "QP %u goes to RTS without its connection WQE", q->qpn);
	q->rts = true;
	/* as the engine: the QP takes the 4-tuple, its filter goes */
	i = q->node ? cmt_est_find(cmt_cc(core), &q->node->ci) : -1;
	if (i >= 0)
		cmt_est_drop(cmt_cc(core), i);
	if (!q->lsmm_len || !q->node)
		return 0;
#ifdef CONFIG_FAULT_INJECTION
	/* the engine sends the MPA reply: not a fault point of the caller */
	nth = current->fail_nth;
	current->fail_nth = 0;
#endif
	buf = irdma_cm_form_frame(q->node, TCPHDR_ACK | TCPHDR_PSH, q->lsmm,
				  q->lsmm_len, &len);
#ifdef CONFIG_FAULT_INJECTION
	current->fail_nth = nth;
#endif
	if (!buf)
		return -ENOMEM;
	cmt_xmit(core, q->node, buf, len);
	irdma_free_sqbuf(buf);
	return 0;
}

static void cmt_qp_to_err(struct irdma_cm_core *core, void *qp)
{
	((struct cmt_qp *)qp)->err = true;
}

static int cmt_qp_close(struct irdma_cm_core *core, void *qp)
{
	struct cmt_qp *q = qp;

	if (test_bit(CMT_FAIL_CLOSE, &cmt_cc(core)->fail))
		return -EINVAL;
	q->closing = true;
	return 0;
}

static const struct irdma_cm_hw_ops cmt_hw_ops = {
	.xmit = cmt_xmit,
	.qhash = cmt_qhash,
	.apbvt = cmt_apbvt,
	.sync = cmt_sync,
	.ah_create = cmt_ah_create,
	.ah_free = cmt_ah_free,
	.arp_resolve = cmt_arp,
	.arp_put = cmt_arp_put,
	.get_vlan = cmt_get_vlan,
	.vlan_prio = cmt_vlan_prio,
	.prio_tag = cmt_prio_tag,
	.qp_lookup = cmt_qp_lookup,
	.qp_put = cmt_qp_put,
	.qp_link = cmt_qp_link,
	.qp_set_ctx = cmt_qp_set_ctx,
	.qp_post_lsmm = cmt_qp_post_lsmm,
	.qp_post_rtr = cmt_qp_post_rtr,
	.qp_to_rts = cmt_qp_to_rts,
	.qp_to_err = cmt_qp_to_err,
	.qp_close = cmt_qp_close,
};

/* ---- virtual clock ---- */

static unsigned long cmt_clock_now(struct irdma_cm_core *core)
{
	return cmt_cc(core)->env->now;
}

static void cmt_clock_arm(struct irdma_cm_core *core, unsigned long expires)
{
	/* cmt_advance() polls core->timer_armed / timer_due */
}

static const struct irdma_cm_clock cmt_clock = {
	.now = cmt_clock_now,
	.arm = cmt_clock_arm,
};

/* ---- strict iw_cm model ---- */

static void cmt_violation(struct cmt_env *env, const char *what,
			  struct cmt_id *id, int type)
{
	env->violations++;
	KUNIT_FAIL(env->test, "iw_cm would BUG: %s (id %ld, event %d, state %d)",
		   what, (long)(id - env->ids), type, id->state);
}

static void cmt_add_ref(struct iw_cm_id *id)
{
	struct cmt_id *c = container_of(id, struct cmt_id, id);

	c->refs++;
}

static void cmt_rem_ref(struct iw_cm_id *id)
{
	struct cmt_id *c = container_of(id, struct cmt_id, id);

	if (--c->refs < 0)
		cmt_violation(c->env, "rem_ref without add_ref", c, 0);
}

static int cmt_event_handler(struct iw_cm_id *id, struct iw_cm_event *ev);

static struct cmt_id *cmt_id_new(struct cmt_core *cc)
{
	struct cmt_env *env = cc->env;
	struct cmt_id *c;
	int i;

	for (i = 0; i < CMT_IDS; i++) {
		c = &env->ids[i];
		if (c->used)
			continue;
		memset(c, 0, sizeof(*c));
		c->used = true;
		c->env = env;
		c->cc = cc;
		c->id.device = &cc->iwdev->ibdev;
		c->id.event_handler = cmt_event_handler;
		c->id.add_ref = cmt_add_ref;
		c->id.rem_ref = cmt_rem_ref;
		return c;
	}
	KUNIT_FAIL(env->test, "out of fake ids");
	return NULL;
}

static void cmt_queue_action(struct cmt_env *env, enum cmt_action_kind kind,
			     struct cmt_id *id)
{
	if (env->nact == CMT_ACTIONS) {
		KUNIT_FAIL(env->test, "too many iw_cm actions");
		return;
	}
	env->act[env->nact].kind = kind;
	env->act[env->nact].id = id;
	env->nact++;
}

static void cmt_record(struct cmt_env *env, struct cmt_id *c,
		       const struct iw_cm_event *ev, bool dropped)
{
	struct cmt_event *r;

	if (env->no_record)
		return;
	if (env->ev_tail == CMT_EVENTS) {
		KUNIT_FAIL(env->test, "event log full");
		return;
	}
	r = &env->ev[env->ev_tail++];
	*r = (struct cmt_event) {
		.id = c, .type = ev->event, .status = ev->status,
		.ird = ev->ird, .ord = ev->ord,
		.provider_data = ev->provider_data,
		.pdata_len = ev->private_data_len, .dropped = dropped,
	};
	if (ev->private_data_len)
		memcpy(r->pdata, ev->private_data, ev->private_data_len);
}

static void cmt_conn_request(struct cmt_env *env, struct cmt_id *lid,
			     const struct iw_cm_event *ev)
{
	struct cmt_id *child;

	if (ev->status || !ev->provider_data)
		cmt_violation(env, "CONNECT_REQUEST with status/no ep", lid,
			      ev->event);
	child = cmt_id_new(lid->cc);
	if (!child)
		return;
	child->state = CMT_CONN_RECV;
	child->id.provider_data = ev->provider_data;
	child->id.m_local_addr = ev->local_addr;
	child->id.m_remote_addr = ev->remote_addr;
	child->ulp_fail = lid->ulp_fail;
	if (lid->state != CMT_LISTEN || (lid->ulp_fail & BIT(ev->event)))
		cmt_queue_action(env, CMT_ACT_REJECT, child);
}

static void cmt_model_event(struct cmt_env *env, struct cmt_id *c,
			    const struct iw_cm_event *ev)
{
	switch (ev->event) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		cmt_conn_request(env, c, ev);
		break;
	case IW_CM_EVENT_CONNECT_REPLY:
		if (c->state != CMT_CONN_SENT)
			cmt_violation(env, "CONNECT_REPLY outside CONN_SENT", c,
				      ev->event);
		c->state = ev->status ? CMT_IDLE : CMT_ESTABLISHED;
		if (!ev->status && (c->ulp_fail & BIT(ev->event)))
			cmt_queue_action(env, CMT_ACT_DESTROY, c);
		break;
	case IW_CM_EVENT_ESTABLISHED:
		if (c->state != CMT_CONN_RECV)
			cmt_violation(env, "ESTABLISHED outside CONN_RECV", c,
				      ev->event);
		c->state = CMT_ESTABLISHED;
		if (c->ulp_fail & BIT(ev->event))
			cmt_queue_action(env, CMT_ACT_DESTROY, c);
		break;
	case IW_CM_EVENT_DISCONNECT:
		if (c->state == CMT_ESTABLISHED)
			c->state = CMT_CLOSING;
		break;
	case IW_CM_EVENT_CLOSE:
		if (c->state == CMT_ESTABLISHED || c->state == CMT_CLOSING)
			c->state = CMT_IDLE;
		else if (c->state != CMT_DESTROYING)
			cmt_violation(env, "CLOSE outside ESTABLISHED/CLOSING",
				      c, ev->event);
		break;
	default:
		cmt_violation(env, "unknown event", c, ev->event);
	}
}

/*
 * iw_cm's event handler: it only queues the event (with a copy of its
 * private data) for its workqueue, which cmt_process() plays later. What
 * the event does to the id happens then, as in iw_cm.
 */
static int cmt_event_handler(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	struct cmt_id *c = container_of(id, struct cmt_id, id);
	struct cmt_env *env = c->env;
	unsigned long flags;
	struct cmt_qev *q;

	spin_lock_irqsave(&env->lock, flags);
	if (c->refs <= 0)
		cmt_violation(env, "event on an id the CM holds no ref on", c,
			      ev->event);
	if ((c->queue_fail & BIT(ev->event)) || env->nq == CMT_EVENTS) {
		spin_unlock_irqrestore(&env->lock, flags);
		return -ENOMEM;
	}
	q = &env->q[env->nq++];
	q->id = c;
	q->ev = *ev;
	if (ev->private_data_len)
		memcpy(q->pdata, ev->private_data, ev->private_data_len);
	q->ev.private_data = q->pdata;
	spin_unlock_irqrestore(&env->lock, flags);
	return 0;
}

/* iw_cm's workqueue: play the queued events in order; true if any. */
static bool cmt_process(struct cmt_env *env)
{
	struct cmt_qev *q;
	unsigned long flags;
	bool ran = false;

	spin_lock_irqsave(&env->lock, flags);
	while (env->nq) {
		q = kmemdup(&env->q[0], sizeof(*q), GFP_ATOMIC);
		memmove(env->q, env->q + 1, --env->nq * sizeof(env->q[0]));
		if (!q) {
			KUNIT_FAIL(env->test, "out of memory");
			break;
		}
		ran = true;
		q->ev.private_data = q->pdata;
		if (q->id->drop)
			env->dropped++;
		else
			cmt_model_event(env, q->id, &q->ev);
		cmt_record(env, q->id, &q->ev, q->id->drop);
		kfree(q);
	}
	spin_unlock_irqrestore(&env->lock, flags);
	return ran;
}

/* ---- environment ---- */

static void cmt_core_init(struct kunit *test, struct cmt_env *env,
			  struct cmt_core *cc, u8 mac_last)
{
	int i;

	cc->env = env;
	cc->iwdev = kunit_kzalloc(test, sizeof(*cc->iwdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cc->iwdev);
	/* what the CM logs is prefixed with the device's name */
	cc->iwdev->ibdev.dev.init_name = mac_last == 0xa ? "cmt-a" : "cmt-b";
	KUNIT_ASSERT_EQ(test, irdma_setup_cm_core(cc->iwdev, &cmt_hw_ops, cc), 0);
	cc->core = &cc->iwdev->cm_core;
	cc->core->clk = &cmt_clock;
	cc->core->cfg.mac[0] = 0x02;
	cc->core->cfg.mac[5] = mac_last;
	cc->vlan = IRDMA_CM_NO_VLAN;
	cc->prio_tag = -1;
	cc->port_map = kunit_kzalloc(test, BITS_TO_LONGS(1 << 16) *
				     sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cc->port_map);
	cc->syn_ports = kunit_kzalloc(test, 1 << 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cc->syn_ports);
	for (i = 0; i < CMT_QPS; i++)
		cc->qps[i].qpn = i;
}

static int cmt_init(struct kunit *test)
{
	struct cmt_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->test = test;
	spin_lock_init(&env->lock);
	INIT_LIST_HEAD(&env->wire);
	INIT_LIST_HEAD(&env->out);
	env->now = CMT_START;
	cmt_core_init(test, env, &env->a, 0xa);
	cmt_core_init(test, env, &env->b, 0xb);
	env->a.peer = &env->b;
	env->b.peer = &env->a;
	test->priv = env;
	return 0;
}

static void cmt_free_list(struct list_head *head)
{
	struct cmt_frame *f, *tmp;

	list_for_each_entry_safe(f, tmp, head, list) {
		list_del(&f->list);
		kfree(f);
	}
}

/*
 * A pure SYN a core sent to itself that no SYN filter of it takes: the
 * engine hands it to the host's stack, which drops it as a martian (its
 * source is one of its own addresses), without a RST.
 */
static bool cmt_martian(const struct cmt_frame *f)
{
	const u8 *b = f->data;
	u32 off = 12;
	u16 proto;

	if (f->src->peer != f->src || f->len < off + 2)
		return false;
	proto = get_unaligned_be16(b + off);
	if (proto == ETH_P_8021Q) {
		off += 4;
		proto = get_unaligned_be16(b + off);
	}
	off += 2 + (proto == ETH_P_IPV6 ? 40 : 20);
	if (f->len < off + 20 ||
	    (b[off + 13] & (TCPHDR_SYN | TCPHDR_ACK | TCPHDR_RST)) != TCPHDR_SYN)
		return false;
	return !f->src->syn_ports[get_unaligned_be16(b + off + 2)];
}

/* Deliver the oldest frame on the wire; returns false if there was none. */
static bool cmt_deliver_one(struct cmt_env *env)
{
	struct cmt_frame *f;
	unsigned long flags;

	spin_lock_irqsave(&env->lock, flags);
	f = list_first_entry_or_null(&env->wire, struct cmt_frame, list);
	if (f)
		list_del(&f->list);
	spin_unlock_irqrestore(&env->lock, flags);
	if (!f)
		return false;
	if (cmt_martian(f))
		f->src->martians++;
	else if (f->src->peer)
		irdma_receive_ilq(f->src->peer->core, f->data, f->len, NULL);
	kfree(f);
	return true;
}

/* The oldest frame on the wire, left there, or NULL. */
static struct cmt_frame *cmt_wire_peek(struct cmt_env *env)
{
	return list_first_entry_or_null(&env->wire, struct cmt_frame, list);
}

/**
 * struct cmt_block - holds a CM core's event workqueue (it is ordered)
 * @work: the work item that waits
 * @go: completed to let it end
 */
struct cmt_block {
	struct work_struct work;
	struct completion go;
};

static void cmt_block_fn(struct work_struct *work)
{
	wait_for_completion(&container_of(work, struct cmt_block, work)->go);
}

/* Nothing the CM queues on @cc's event workqueue runs until unblocked. */
static struct cmt_block *cmt_block_events(struct kunit *test,
					  struct cmt_core *cc)
{
	struct cmt_block *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	INIT_WORK(&b->work, cmt_block_fn);
	init_completion(&b->go);
	queue_work(cc->core->event_wq, &b->work);
	return b;
}

static void cmt_unblock_events(struct cmt_core *cc, struct cmt_block *b)
{
	complete(&b->go);
	flush_workqueue(cc->core->event_wq);
}

/* Deliver what is on the wire; returns true if anything moved. */
static bool cmt_deliver(struct cmt_env *env)
{
	bool moved = false;

	while (cmt_deliver_one(env))
		moved = true;
	return moved;
}

static struct irdma_cm_node *cmt_node_of(struct cmt_id *c)
{
	return c->id.provider_data;
}

/* Find the peer's node of an offloaded connection (by reversed ports). */
static struct irdma_cm_node *cmt_peer_node(struct cmt_env *env,
					   struct irdma_cm_node *node)
{
	struct cmt_core *cc = cmt_cc(node->core)->peer;
	int i;

	if (!cc)
		return NULL;
	for (i = 0; i < CMT_QPS; i++) {
		struct irdma_cm_node *n = cc->qps[i].node;

		if (n && n->ci.loc_port == node->ci.rem_port &&
		    n->ci.rem_port == node->ci.loc_port)
			return n;
	}
	return NULL;
}

/* The ULP's QP goes to error: the local CM and the peer's hardware react. */
static void cmt_hw_abort(struct cmt_env *env, struct irdma_cm_node *node)
{
	struct irdma_cm_node *peer = cmt_peer_node(env, node);

	if (peer)
		irdma_cm_disconn(peer, IRDMA_CM_DISC_PEER_RST);
	irdma_cm_disconn(node, IRDMA_CM_DISC_LOCAL_ERR);
}

static bool cmt_run_actions(struct cmt_env *env)
{
	struct cmt_action act;
	unsigned long flags;
	bool ran = false;

	for (;;) {
		spin_lock_irqsave(&env->lock, flags);
		if (!env->nact) {
			spin_unlock_irqrestore(&env->lock, flags);
			return ran;
		}
		act = env->act[0];
		memmove(env->act, env->act + 1, --env->nact * sizeof(act));
		if (act.kind == CMT_ACT_DESTROY) {
			act.id->state = CMT_DESTROYING;
			act.id->drop = true;
		}
		spin_unlock_irqrestore(&env->lock, flags);
		ran = true;
		if (act.kind == CMT_ACT_REJECT) {
			irdma_reject(&act.id->id, NULL, 0);
			act.id->state = CMT_IDLE;
		} else if (cmt_node_of(act.id)) {
			cmt_hw_abort(env, cmt_node_of(act.id));
		}
	}
}

static void cmt_flush(struct cmt_env *env)
{
	flush_workqueue(env->a.core->event_wq);
	flush_workqueue(env->b.core->event_wq);
}

/* Run wire, workqueues and iw_cm actions until nothing moves. */
static void cmt_pump(struct cmt_env *env)
{
	int i;

	for (i = 0; i < 1000; i++) {
		bool busy = cmt_deliver(env);

		busy |= cmt_report_core(&env->a);
		busy |= cmt_report_core(&env->b);
		cmt_flush(env);
		busy |= cmt_process(env);
		busy |= cmt_run_actions(env);
		cmt_flush(env);
		busy |= cmt_process(env);
		if (!busy && !cmt_deliver(env))
			return;
	}
	KUNIT_FAIL(env->test, "wire never went quiet");
}

static bool cmt_due(struct cmt_core *cc, unsigned long target,
		    unsigned long *due)
{
	struct irdma_cm_core *core = cc->core;
	unsigned long flags;
	bool armed;

	spin_lock_irqsave(&core->timer_lock, flags);
	armed = core->timer_armed && !time_after(core->timer_due, target);
	*due = core->timer_due;
	spin_unlock_irqrestore(&core->timer_lock, flags);
	return armed;
}

/* Advance the virtual clock, firing due timers in order. */
static void cmt_advance(struct cmt_env *env, u32 ms)
{
	unsigned long target = env->now + msecs_to_jiffies(ms), da, db;
	int guard = 0;

	cmt_pump(env);
	for (;;) {
		bool ra = cmt_due(&env->a, target, &da);
		bool rb = cmt_due(&env->b, target, &db);
		struct cmt_core *cc;

		if (!ra && !rb)
			break;
		cc = ra && (!rb || !time_after(da, db)) ? &env->a : &env->b;
		if (time_after(cc == &env->a ? da : db, env->now))
			env->now = cc == &env->a ? da : db;
		irdma_cm_timer_tick(cc->core);
		cmt_pump(env);
		if (++guard > 10000) {
			KUNIT_FAIL(env->test, "timer storm");
			break;
		}
	}
	env->now = target;
	cmt_pump(env);
}

static void cmt_check_core(struct kunit *test, struct cmt_core *cc)
{
	struct irdma_cm_core *core = cc->core;
	char name = cc == &cc->env->a ? 'a' : 'b';
	int i;

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&core->node_cnt), 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&core->listener_cnt), 0, "core %c",
			    name);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&core->event_cnt), 0, "core %c",
			    name);
	KUNIT_EXPECT_TRUE_MSG(test, list_empty(&core->timer_nodes), "core %c",
			      name);
	KUNIT_EXPECT_EQ_MSG(test, cc->syn_filters, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->est_filters, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->est_refused, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->est_missing, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->syn_del_unlisted, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->ports, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->ports_missing, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->npending, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->ahs, 0, "core %c", name);
	KUNIT_EXPECT_EQ_MSG(test, cc->arps, 0, "core %c", name);
	for (i = 0; i < CMT_QPS; i++)
		KUNIT_EXPECT_EQ_MSG(test, cc->qps[i].refs, 0, "core %c qp %d",
				    name, i);
}

/*
 * A request a case left unanswered ends as iw_cm ends it when its ULP
 * destroys the id: with a reject, which may find the request gone.
 */
static void cmt_end_requests(struct cmt_env *env)
{
	int i;

	for (i = 0; i < CMT_IDS; i++) {
		struct cmt_id *c = &env->ids[i];

		if (!c->used || c->state != CMT_CONN_RECV)
			continue;
		c->state = CMT_DESTROYING;
		c->drop = true;
		irdma_reject(&c->id, NULL, 0);
	}
}

/*
 * What iw_cm relies on, once everything settled: every connect got its
 * one CONNECT_REPLY (else iw_cm's destroy waits for ever), every
 * connection reported up got its one CLOSE, and the CM keeps no reference.
 */
static void cmt_check_id_ended(struct cmt_env *env, struct cmt_id *c)
{
	struct kunit *test = env->test;
	long n = c - env->ids;

	KUNIT_EXPECT_EQ_MSG(test, c->refs, 0, "id %ld keeps CM references", n);
	KUNIT_EXPECT_NE_MSG(test, c->state, CMT_CONN_SENT,
			    "id %ld: a connect without its CONNECT_REPLY", n);
	KUNIT_EXPECT_TRUE_MSG(test, c->state != CMT_ESTABLISHED &&
			      c->state != CMT_CLOSING,
			      "id %ld: a connection without its CLOSE", n);
}

/* After every case: settle, then nothing may be left anywhere. */
static void cmt_exit(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	int i;

	if (!env)
		return;
	cmt_advance(env, 120000);
	cmt_end_requests(env);
	cmt_advance(env, 120000);
	cmt_check_core(test, &env->a);
	cmt_check_core(test, &env->b);
	for (i = 0; i < CMT_IDS; i++)
		if (env->ids[i].used)
			cmt_check_id_ended(env, &env->ids[i]);
	KUNIT_EXPECT_EQ(test, env->violations, 0);
	irdma_cleanup_cm_core(env->a.core);
	irdma_cleanup_cm_core(env->b.core);
	cmt_free_list(&env->wire);
	cmt_free_list(&env->out);
}

/* ---- ULP side helpers ---- */

static void cmt_sin(struct sockaddr_storage *ss, bool v6, u32 host, u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (!v6) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = host ? htonl(0xc0000200 | host) : 0;
		s->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

		s->sin6_family = AF_INET6;
		if (host) {
			s->sin6_addr.s6_addr32[0] = htonl(0x20010db8);
			s->sin6_addr.s6_addr32[3] = htonl(host);
		}
		s->sin6_port = htons(port);
	}
}

static struct cmt_id *cmt_listen(struct cmt_core *cc, bool v6, u32 host,
				 u16 port, int backlog, int *rc)
{
	struct cmt_id *c = cmt_id_new(cc);

	if (!c)
		return NULL;
	cmt_sin(&c->id.m_local_addr, v6, host, port);
	c->state = CMT_LISTEN;
	*rc = irdma_create_listen(&c->id, backlog);
	if (*rc)
		c->state = CMT_IDLE;
	else
		KUNIT_EXPECT_EQ_MSG(cc->env->test, cc->unsynced, 0,
				    "listen returned before its filters were in place");
	return c;
}

/* iw_cm's destroy of a listening id: its queued events are dropped. */
static void cmt_unlisten(struct cmt_id *c)
{
	c->drop = true;
	c->state = CMT_DESTROYING;
	KUNIT_EXPECT_EQ(c->env->test, irdma_destroy_listen(&c->id), 0);
}

/**
 * struct cmt_conn - parameters of one connect or accept
 * @qpn: QP number
 * @ird: IRD
 * @ord: ORD
 * @pdata: private data
 * @pdata_len: its length
 */
struct cmt_conn {
	u32 qpn;
	u32 ird;
	u32 ord;
	const void *pdata;
	u16 pdata_len;
};

static int cmt_connect(struct cmt_id *c, bool v6, u32 lhost, u16 lport,
		       u32 rhost, u16 rport, const struct cmt_conn *p)
{
	struct iw_cm_conn_param cp = {
		.private_data = p->pdata, .private_data_len = p->pdata_len,
		.ird = p->ird, .ord = p->ord, .qpn = p->qpn,
	};
	int rc;

	cmt_sin(&c->id.m_local_addr, v6, lhost, lport);
	cmt_sin(&c->id.m_remote_addr, v6, rhost, rport);
	c->state = CMT_CONN_SENT;
	rc = irdma_connect(&c->id, &cp);
	if (rc)
		c->state = CMT_IDLE;
	return rc;
}

static int cmt_accept(struct cmt_id *c, const struct cmt_conn *p)
{
	struct iw_cm_conn_param cp = {
		.private_data = p->pdata, .private_data_len = p->pdata_len,
		.ird = p->ird, .ord = p->ord, .qpn = p->qpn,
	};
	int rc = irdma_accept(&c->id, &cp);

	if (rc)
		c->state = CMT_IDLE;
	return rc;
}

static int cmt_reject(struct cmt_id *c, const void *pdata, u8 len)
{
	int rc = irdma_reject(&c->id, pdata, len);

	c->state = CMT_IDLE;
	return rc;
}

/*
 * Take the oldest event not yet matched (for @id if given: order is only
 * defined per iw_cm id) and check it.
 */
static struct cmt_event *cmt_expect_event(struct cmt_env *env,
					  struct cmt_id *id,
					  enum iw_cm_event_type type,
					  int status)
{
	struct kunit *test = env->test;
	struct cmt_event *e;
	int i;

	for (i = env->ev_head; i < env->ev_tail; i++) {
		e = &env->ev[i];
		if (e->taken || (id && e->id != id))
			continue;
		e->taken = true;
		KUNIT_EXPECT_EQ(test, e->type, type);
		KUNIT_EXPECT_EQ(test, e->status, status);
		while (env->ev_head < env->ev_tail && env->ev[env->ev_head].taken)
			env->ev_head++;
		return e;
	}
	KUNIT_FAIL(test, "expected event %d (status %d) for id %ld, none recorded",
		   type, status, id ? (long)(id - env->ids) : -1L);
	for (i = 0; i < env->ev_tail; i++)
		kunit_info(test, "event log %d: id %ld type %d status %d%s\n",
			   i, (long)(env->ev[i].id - env->ids),
			   env->ev[i].type, env->ev[i].status,
			   env->ev[i].taken ? " (matched)" : "");
	return NULL;
}

static void cmt_expect_no_event(struct cmt_env *env)
{
	int i;

	for (i = env->ev_head; i < env->ev_tail; i++)
		if (!env->ev[i].taken)
			KUNIT_FAIL(env->test, "unexpected event %d status %d",
				   env->ev[i].type, env->ev[i].status);
}

/* The next event of @id, whatever it is, or NULL */
static struct cmt_event *cmt_take_event(struct cmt_env *env,
					struct cmt_id *id)
{
	struct cmt_event *e;
	int i;

	for (i = env->ev_head; i < env->ev_tail; i++) {
		e = &env->ev[i];
		if (e->taken || e->id != id)
			continue;
		e->taken = true;
		while (env->ev_head < env->ev_tail && env->ev[env->ev_head].taken)
			env->ev_head++;
		return e;
	}
	return NULL;
}

/*
 * For cases that make many connections one after another, once all is
 * settled and every event checked: empty the event log, and give back
 * the ids of connections that ended (the CM holds no reference to them).
 */
static void cmt_recycle(struct cmt_env *env)
{
	unsigned long flags;
	int i;

	cmt_expect_no_event(env);
	spin_lock_irqsave(&env->lock, flags);
	env->ev_head = 0;
	env->ev_tail = 0;
	for (i = 0; i < CMT_IDS; i++) {
		struct cmt_id *c = &env->ids[i];

		if (c->used && !c->refs && c->state == CMT_IDLE)
			c->used = false;
	}
	spin_unlock_irqrestore(&env->lock, flags);
}

/* The child id iw_cm made for the last CONNECT_REQUEST. */
static struct cmt_id *cmt_child_of(struct cmt_env *env, struct cmt_event *e)
{
	int i;

	if (!e)
		return NULL;
	for (i = 0; i < CMT_IDS; i++)
		if (env->ids[i].used && env->ids[i].state == CMT_CONN_RECV &&
		    env->ids[i].id.provider_data == e->provider_data)
			return &env->ids[i];
	return NULL;
}

/* ---- raw frames written independently of the code under test ---- */

/**
 * struct cmt_raw - a TCP segment to craft
 * @v6: IPv6 (2001:db8::host) instead of IPv4 (192.0.2.host)
 * @vlan: VLAN id or IRDMA_CM_NO_VLAN
 * @src: source host number
 * @dst: destination host number
 * @sport: source port
 * @dport: destination port
 * @seq: sequence number
 * @ack: acknowledgment number
 * @flags: TCP flags
 * @wnd: window
 * @opts: options (a multiple of 4 bytes)
 * @optlen: their length
 * @pay: payload
 * @paylen: its length
 */
struct cmt_raw {
	bool v6;
	u16 vlan;
	u32 src;
	u32 dst;
	u16 sport;
	u16 dport;
	u32 seq;
	u32 ack;
	u8 flags;
	u16 wnd;
	const u8 *opts;
	u8 optlen;
	const u8 *pay;
	u16 paylen;
};

#define CMT_RAW_MAX	(18 + 40 + 60 + IRDMA_MPA_MAX_FRAME + 16)

static u32 cmt_raw_build(const struct cmt_raw *r, u8 *b)
{
	u32 off = 12, l4 = 20 + r->optlen + r->paylen, ip;

	memset(b, 0, CMT_RAW_MAX);
	b[0] = 0x02;
	b[5] = 0xb;
	b[6] = 0x02;
	b[11] = 0xa;
	if (r->vlan != IRDMA_CM_NO_VLAN) {
		put_unaligned_be16(ETH_P_8021Q, b + off);
		put_unaligned_be16(r->vlan, b + off + 2);
		off += 4;
	}
	put_unaligned_be16(r->v6 ? ETH_P_IPV6 : ETH_P_IP, b + off);
	off += 2;
	ip = off;
	if (!r->v6) {
		b[ip] = 0x45;
		put_unaligned_be16(20 + l4, b + ip + 2);
		b[ip + 8] = 64;
		b[ip + 9] = IPPROTO_TCP;
		put_unaligned_be32(0xc0000200 | r->src, b + ip + 12);
		put_unaligned_be32(0xc0000200 | r->dst, b + ip + 16);
		off += 20;
	} else {
		b[ip] = 0x60;
		put_unaligned_be16(l4, b + ip + 4);
		b[ip + 6] = IPPROTO_TCP;
		b[ip + 7] = 64;
		put_unaligned_be32(0x20010db8, b + ip + 8);
		put_unaligned_be32(r->src, b + ip + 20);
		put_unaligned_be32(0x20010db8, b + ip + 24);
		put_unaligned_be32(r->dst, b + ip + 36);
		off += 40;
	}
	put_unaligned_be16(r->sport, b + off);
	put_unaligned_be16(r->dport, b + off + 2);
	put_unaligned_be32(r->seq, b + off + 4);
	put_unaligned_be32(r->ack, b + off + 8);
	b[off + 12] = (5 + r->optlen / 4) << 4;
	b[off + 13] = r->flags;
	put_unaligned_be16(r->wnd ? r->wnd : 0xffff, b + off + 14);
	memcpy(b + off + 20, r->opts, r->optlen);
	memcpy(b + off + 20 + r->optlen, r->pay, r->paylen);
	return off + l4;
}

/**
 * struct cmt_seen - fields of a frame the CM sent, parsed by the test
 * @flags: TCP flags
 * @seq: sequence number
 * @ack: acknowledgment number
 * @wnd: window
 * @optlen: TCP option bytes
 * @opts: pointer to them
 * @pay: payload
 * @paylen: its length
 * @vlan: VLAN id or IRDMA_CM_NO_VLAN
 */
struct cmt_seen {
	u8 flags;
	u32 seq;
	u32 ack;
	u16 wnd;
	u8 optlen;
	const u8 *opts;
	const u8 *pay;
	u32 paylen;
	u16 vlan;
};

static bool cmt_seen_parse(const u8 *b, u32 len, struct cmt_seen *s)
{
	u32 off = 12, l4;
	u16 proto;

	s->vlan = IRDMA_CM_NO_VLAN;
	proto = get_unaligned_be16(b + off);
	if (proto == ETH_P_8021Q) {
		s->vlan = get_unaligned_be16(b + off + 2) & VLAN_VID_MASK;
		off += 4;
		proto = get_unaligned_be16(b + off);
	}
	off += 2;
	if (proto == ETH_P_IP) {
		l4 = get_unaligned_be16(b + off + 2) - 20;
		off += 20;
	} else if (proto == ETH_P_IPV6) {
		l4 = get_unaligned_be16(b + off + 4);
		off += 40;
	} else {
		return false;
	}
	if (off + l4 > len || l4 < 20)
		return false;
	s->seq = get_unaligned_be32(b + off + 4);
	s->ack = get_unaligned_be32(b + off + 8);
	s->flags = b[off + 13];
	s->wnd = get_unaligned_be16(b + off + 14);
	s->optlen = (b[off + 12] >> 4) * 4 - 20;
	s->opts = b + off + 20;
	s->pay = s->opts + s->optlen;
	s->paylen = l4 - 20 - s->optlen;
	return true;
}

#endif /* IRDMA_KUNIT_CM_FAKE_H */
