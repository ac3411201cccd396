// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_test_kverbs: a kernel verbs consumer of irdma, in the manner of
 * lib/test_*.c. It registers an ib_client and, on the first RoCEv2 irdma
 * device, connects two RC QPs of that one function to each other through
 * their own GID (loopback) and checks what a kernel ULP relies on:
 * SEND/RECV (with immediate data, inline), RDMA WRITE (with immediate
 * data), RDMA READ, the data that arrives and the work completions'
 * fields, error completions on both sides, a move to ERR with flushed
 * WRs, and ib_drain_qp() on CQs polled directly and from the completion
 * interrupt, and fast registration as storage ULPs use it (IB_WR_REG_MR,
 * RDMA through the rkey, SEND with invalidate, IB_WR_LOCAL_INV). Any
 * mismatch fails the module load with a message saying what differed. It
 * also prints the cost of a post_send plus poll_cq per WQE (a number, not
 * a verdict).
 *
 * With bench_dev=NAME it checks nothing and runs only that benchmark, on
 * the RoCE device NAME of any driver (irdma or rxe, for tools/irdma-vm
 * bench): on another driver's device the remote side of its WRITEs is the
 * PD's global rkey, which every device that registers a DMA MR offers,
 * rather than irdma's STag 0.
 *
 * Memory is addressed through the PD's local DMA lkey; remote accesses
 * use STag 0 as well, which the simulated engine accepts as bus memory
 * until memory regions exist.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#define TK_BUF_BYTES		SZ_64K
#define TK_SIDE_BYTES		(TK_BUF_BYTES / 2)
#define TK_CQE			128
#define TK_SEND_WR		64
#define TK_RECV_WR		16
#define TK_TIMEOUT_MS		5000
#define TK_BENCH_WQES		10000
#define TK_BENCH_BATCH		16
#define TK_BENCH_BYTES		64
#define TK_IMM			0x1badcafe

/* offsets of the areas of one side's half of the buffer */
#define TK_OFF_SRC		0
#define TK_OFF_DST		SZ_8K
#define TK_OFF_READ		SZ_16K

/**
 * struct tk_pair - two RC QPs connected to each other, and their CQs
 * @qp: QP A (requester in the tests) and QP B (responder)
 * @cq: the CQ of each QP (send and receive)
 */
struct tk_pair {
	struct ib_qp *qp[2];
	struct ib_cq *cq[2];
};

/**
 * struct tk_ctx - one run of the test on one device
 * @dev: the device
 * @pd: protection domain of everything
 * @buf: coherent buffer, side A in the first half, side B in the second
 * @dma: its bus address
 * @gid: GID 0 of port 1, the address both QPs use
 * @mac: the MAC of GID 0's netdev: a kernel consumer resolves the
 *	destination MAC of a RoCE address vector itself, and both QPs are
 *	on this port
 * @lkey: the PD's local DMA lkey
 * @rkey: the STag remote accesses name: 0, or the PD's global rkey
 */
struct tk_ctx {
	struct ib_device *dev;
	struct ib_pd *pd;
	u8 *buf;
	dma_addr_t dma;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	u32 lkey;
	u32 rkey;
};

/**
 * struct tk_event - a completion reported through its ib_cqe
 * @cqe: the ib_cqe a WR carries
 * @done: completed from the CQ's polling context
 * @status: status of the work completion
 * @opcode: opcode of the work completion
 */
struct tk_event {
	struct ib_cqe cqe;
	struct completion done;
	enum ib_wc_status status;
	enum ib_wc_opcode opcode;
};

static int tk_result = -ENODEV;
static bool tk_ran;

static char *bench_dev;
module_param(bench_dev, charp, 0444);
MODULE_PARM_DESC(bench_dev, "only benchmark post_send + poll_cq on this RoCE device");

static u8 *tk_va(struct tk_ctx *t, int side, u32 off)
{
	return t->buf + side * TK_SIDE_BYTES + off;
}

static u64 tk_bus(struct tk_ctx *t, int side, u32 off)
{
	return t->dma + side * TK_SIDE_BYTES + off;
}

static void tk_fill(u8 *p, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

/* ---- setting up ---- */

static int tk_modify(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		     const char *what)
{
	int ret = ib_modify_qp(qp, attr, mask);

	if (ret)
		pr_err("QP %u: modify to %s failed: %d\n", qp->qp_num, what,
		       ret);
	return ret;
}

static int tk_to_init(struct ib_qp *qp)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};

	return tk_modify(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			 IB_QP_PORT | IB_QP_ACCESS_FLAGS, "INIT");
}

static int tk_to_rtr(struct tk_ctx *t, struct ib_qp *qp, u32 dest)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTR,
		.path_mtu = IB_MTU_1024,
		.dest_qp_num = dest,
		.rq_psn = 100,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 1,
	};

	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	rdma_ah_set_grh(&attr.ah_attr, &t->gid, 0, 0, 64, 0);
	memcpy(attr.ah_attr.roce.dmac, t->mac, ETH_ALEN);
	return tk_modify(qp, &attr, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			 IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER, "RTR");
}

static int tk_to_rts(struct ib_qp *qp, u8 rnr_retry)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = rnr_retry,
		.sq_psn = 100,
		.max_rd_atomic = 1,
	};

	return tk_modify(qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			 IB_QP_MAX_QP_RD_ATOMIC, "RTS");
}

static void tk_pair_destroy(struct tk_pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (!IS_ERR_OR_NULL(p->qp[i]))
			ib_destroy_qp(p->qp[i]);
		if (!IS_ERR_OR_NULL(p->cq[i]))
			ib_free_cq(p->cq[i]);
	}
	memset(p, 0, sizeof(*p));
}

static int tk_pair_create(struct tk_ctx *t, struct tk_pair *p,
			  enum ib_poll_context poll)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = TK_SEND_WR,
			.max_recv_wr = TK_RECV_WR,
			.max_send_sge = 2,
			.max_recv_sge = 2,
			.max_inline_data = 64,
		},
	};
	int i;

	for (i = 0; i < 2; i++) {
		p->cq[i] = ib_alloc_cq(t->dev, NULL, TK_CQE, 0, poll);
		if (IS_ERR(p->cq[i])) {
			pr_err("ib_alloc_cq: %ld\n", PTR_ERR(p->cq[i]));
			return PTR_ERR(p->cq[i]);
		}
		init.send_cq = p->cq[i];
		init.recv_cq = p->cq[i];
		p->qp[i] = ib_create_qp(t->pd, &init);
		if (IS_ERR(p->qp[i])) {
			pr_err("ib_create_qp: %ld\n", PTR_ERR(p->qp[i]));
			return PTR_ERR(p->qp[i]);
		}
	}
	return 0;
}

/* Both QPs to RTS, each with the other as destination */
static int tk_pair_connect(struct tk_ctx *t, struct tk_pair *p, u8 rnr_retry)
{
	int i, ret = 0;

	for (i = 0; i < 2 && !ret; i++)
		ret = tk_to_init(p->qp[i]);
	for (i = 0; i < 2 && !ret; i++)
		ret = tk_to_rtr(t, p->qp[i], p->qp[!i]->qp_num);
	for (i = 0; i < 2 && !ret; i++)
		ret = tk_to_rts(p->qp[i], rnr_retry);
	return ret;
}

/* ---- posting and polling ---- */

static int tk_post_recv(struct tk_ctx *t, struct ib_qp *qp, int side,
			u32 off, u32 len, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = tk_bus(t, side, off), .length = len, .lkey = t->lkey,
	};
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				 .num_sge = 1 };
	int ret = ib_post_recv(qp, &wr, NULL);

	if (ret)
		pr_err("QP %u: post_recv: %d\n", qp->qp_num, ret);
	return ret;
}

/* post one signaled WR whose single SGE is @len bytes of side A at @off */
static int tk_post(struct tk_ctx *t, struct ib_qp *qp, struct ib_rdma_wr *wr,
		   u32 off, u32 len)
{
	struct ib_sge sge = {
		.addr = tk_bus(t, 0, off), .length = len, .lkey = t->lkey,
	};
	int ret;

	/* inline data is copied by the CPU: the SGE holds a kernel address */
	if (wr->wr.send_flags & IB_SEND_INLINE)
		sge.addr = (uintptr_t)tk_va(t, 0, off);
	wr->wr.sg_list = &sge;
	wr->wr.num_sge = 1;
	wr->wr.send_flags |= IB_SEND_SIGNALED;
	ret = ib_post_send(qp, &wr->wr, NULL);
	if (ret)
		pr_err("QP %u: post_send opcode %d: %d\n", qp->qp_num,
		       wr->wr.opcode, ret);
	return ret;
}

/* wait up to TK_TIMEOUT_MS for exactly @n work completions */
static int tk_poll(struct ib_cq *cq, struct ib_wc *wc, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(TK_TIMEOUT_MS);
	int got = 0, r, idle = 0;

	while (got < n) {
		r = ib_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return r;
		got += r;
		if (got == n)
			break;
		if (time_after(jiffies, end)) {
			pr_err("CQ: %d of %d completions after %d ms\n", got, n,
			       TK_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		/* the engine runs from a workqueue: let it */
		if (++idle % 64)
			cond_resched();
		else
			usleep_range(20, 50);
	}
	return 0;
}

/**
 * struct tk_want - what a work completion must say
 * @wr_id: cookie
 * @status: status
 * @opcode: opcode (not checked for flushed WRs)
 * @byte_len: bytes, or -1 not to check
 * @qp: the QP
 * @imm: immediate data expected (with IB_WC_WITH_IMM in @flags)
 * @flags: wc_flags
 */
struct tk_want {
	u64 wr_id;
	enum ib_wc_status status;
	enum ib_wc_opcode opcode;
	int byte_len;
	struct ib_qp *qp;
	u32 imm;
	int flags;
};

static int tk_check_wc(const char *what, const struct ib_wc *wc,
		       const struct tk_want *w)
{
	bool ok = wc->wr_id == w->wr_id && wc->status == w->status &&
		  wc->qp == w->qp && wc->wc_flags == w->flags;

	if (w->status != IB_WC_WR_FLUSH_ERR)
		ok = ok && wc->opcode == w->opcode;
	if (w->byte_len >= 0)
		ok = ok && wc->byte_len == w->byte_len;
	if (w->flags & IB_WC_WITH_IMM)
		ok = ok && be32_to_cpu(wc->ex.imm_data) == w->imm;
	if (ok)
		return 0;
	pr_err("%s: wc wr_id %llu status %d (%s) opcode %d len %u qp %u flags 0x%x imm 0x%x; want wr_id %llu status %d opcode %d len %d qp %u flags 0x%x\n",
	       what, wc->wr_id, wc->status, ib_wc_status_msg(wc->status),
	       wc->opcode, wc->byte_len, wc->qp ? wc->qp->qp_num : 0,
	       wc->wc_flags, be32_to_cpu(wc->ex.imm_data), w->wr_id, w->status,
	       w->opcode, w->byte_len, w->qp->qp_num, w->flags);
	return -EINVAL;
}

/* poll one completion from @cq and check it */
static int tk_expect(const char *what, struct ib_cq *cq,
		     const struct tk_want *w)
{
	struct ib_wc wc;
	int ret = tk_poll(cq, &wc, 1);

	if (ret) {
		pr_err("%s: no completion: %d\n", what, ret);
		return ret;
	}
	return tk_check_wc(what, &wc, w);
}

static int tk_same(const char *what, const u8 *got, const u8 *want, u32 len)
{
	if (!memcmp(got, want, len))
		return 0;
	pr_err("%s: the data that arrived differs from what was sent\n", what);
	return -EINVAL;
}

/* ---- the checks ---- */

/* SEND (plain, with immediate data, inline) from A into B's RQ */
static int tk_check_send(struct tk_ctx *t, struct tk_pair *p,
			 enum ib_wr_opcode op, int flags, u32 len)
{
	struct ib_rdma_wr wr = { .wr = { .wr_id = 11, .opcode = op,
					 .send_flags = flags } };
	struct tk_want ws = { 11, IB_WC_SUCCESS, IB_WC_SEND, -1, p->qp[0] };
	struct tk_want wrcv = { 12, IB_WC_SUCCESS, IB_WC_RECV, len, p->qp[1] };
	int ret;

	tk_fill(tk_va(t, 0, TK_OFF_SRC), len, len + op);
	memset(tk_va(t, 1, TK_OFF_DST), 0, len);
	if (op == IB_WR_SEND_WITH_IMM) {
		wr.wr.ex.imm_data = cpu_to_be32(TK_IMM);
		wrcv.flags = IB_WC_WITH_IMM;
		wrcv.imm = TK_IMM;
	}
	ret = tk_post_recv(t, p->qp[1], 1, TK_OFF_DST, len + 64, 12);
	if (!ret)
		ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, len);
	if (!ret)
		ret = tk_expect("send: requester", p->cq[0], &ws);
	if (!ret)
		ret = tk_expect("send: responder", p->cq[1], &wrcv);
	if (!ret)
		ret = tk_same("send", tk_va(t, 1, TK_OFF_DST),
			      tk_va(t, 0, TK_OFF_SRC), len);
	return ret;
}

/* RDMA WRITE from A into B's memory, with immediate data into B's RQ */
static int tk_check_write(struct tk_ctx *t, struct tk_pair *p, bool imm,
			  u32 len)
{
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 21, .opcode = imm ? IB_WR_RDMA_WRITE_WITH_IMM :
						     IB_WR_RDMA_WRITE },
		.remote_addr = tk_bus(t, 1, TK_OFF_DST),
	};
	struct tk_want ws = { 21, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, -1,
			      p->qp[0] };
	struct tk_want wrcv = { 22, IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM,
				len, p->qp[1], TK_IMM, IB_WC_WITH_IMM };
	int ret = 0;

	tk_fill(tk_va(t, 0, TK_OFF_SRC), len, 0x30 + imm);
	memset(tk_va(t, 1, TK_OFF_DST), 0, len);
	wr.wr.ex.imm_data = cpu_to_be32(TK_IMM);
	if (imm)
		ret = tk_post_recv(t, p->qp[1], 1, TK_OFF_READ, 16, 22);
	if (!ret)
		ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, len);
	if (!ret)
		ret = tk_expect("write: requester", p->cq[0], &ws);
	if (!ret && imm)
		ret = tk_expect("write with immediate: responder", p->cq[1],
				&wrcv);
	if (!ret)
		ret = tk_same("write", tk_va(t, 1, TK_OFF_DST),
			      tk_va(t, 0, TK_OFF_SRC), len);
	return ret;
}

/* RDMA READ of B's memory into A's */
static int tk_check_read(struct tk_ctx *t, struct tk_pair *p, u32 len)
{
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 31, .opcode = IB_WR_RDMA_READ },
		.remote_addr = tk_bus(t, 1, TK_OFF_READ),
	};
	struct tk_want w = { 31, IB_WC_SUCCESS, IB_WC_RDMA_READ, len,
			     p->qp[0] };
	int ret;

	tk_fill(tk_va(t, 1, TK_OFF_READ), len, 0x51);
	memset(tk_va(t, 0, TK_OFF_READ), 0, len);
	ret = tk_post(t, p->qp[0], &wr, TK_OFF_READ, len);
	if (!ret)
		ret = tk_expect("read", p->cq[0], &w);
	if (!ret)
		ret = tk_same("read", tk_va(t, 0, TK_OFF_READ),
			      tk_va(t, 1, TK_OFF_READ), len);
	return ret;
}

static int tk_check_data(struct tk_ctx *t, struct tk_pair *p)
{
	int ret;

	ret = tk_check_send(t, p, IB_WR_SEND, 0, 100);
	if (!ret)
		ret = tk_check_send(t, p, IB_WR_SEND, 0, 3 * PAGE_SIZE + 5);
	if (!ret)
		ret = tk_check_send(t, p, IB_WR_SEND_WITH_IMM, 0, 64);
	if (!ret)
		ret = tk_check_send(t, p, IB_WR_SEND, IB_SEND_INLINE, 60);
	if (!ret)
		ret = tk_check_write(t, p, false, 256);
	if (!ret)
		ret = tk_check_write(t, p, true, 64);
	if (!ret)
		ret = tk_check_read(t, p, 200);
	if (!ret)
		pr_info("SEND, SEND with immediate, inline SEND, WRITE, WRITE with immediate and READ passed\n");
	return ret;
}

/* ns per post_send + poll_cq, over TK_BENCH_WQES small signaled WRITEs */
static int tk_bench(struct tk_ctx *t, struct tk_pair *p)
{
	struct ib_rdma_wr wr = {
		.wr = { .opcode = IB_WR_RDMA_WRITE },
		.remote_addr = tk_bus(t, 1, TK_OFF_DST),
		.rkey = t->rkey,
	};
	struct tk_want want = { 0, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, -1,
				p->qp[0] };
	struct ib_wc wc[TK_BENCH_BATCH];
	int i, n, ret = 0;
	ktime_t t0;
	u64 ns;

	t0 = ktime_get();
	for (n = 0; n < TK_BENCH_WQES && !ret; n += TK_BENCH_BATCH) {
		for (i = 0; i < TK_BENCH_BATCH && !ret; i++) {
			wr.wr.wr_id = n + i;
			wr.wr.send_flags = 0;
			ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC,
				      TK_BENCH_BYTES);
		}
		if (!ret)
			ret = tk_poll(p->cq[0], wc, TK_BENCH_BATCH);
		for (i = 0; i < TK_BENCH_BATCH && !ret; i++) {
			want.wr_id = n + i;
			ret = tk_check_wc("benchmark", &wc[i], &want);
		}
	}
	if (ret)
		return ret;
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	pr_info("benchmark: %d RDMA WRITEs of %d bytes, %d per batch: %llu ns per WQE (post_send + poll_cq)\n",
		n, TK_BENCH_BYTES, TK_BENCH_BATCH, div_u64(ns, n));
	return 0;
}

/*
 * A SEND larger than B's receive buffer: B's WR fails with a length
 * error, A's with "remote invalid request"; both QPs are in error then.
 */
static int tk_check_len_error(struct tk_ctx *t, struct tk_pair *p)
{
	struct ib_rdma_wr wr = { .wr = { .wr_id = 41, .opcode = IB_WR_SEND } };
	struct tk_want ws = { 41, IB_WC_REM_INV_REQ_ERR, IB_WC_SEND, -1,
			      p->qp[0] };
	struct tk_want wrcv = { 42, IB_WC_LOC_LEN_ERR, IB_WC_RECV, -1,
				p->qp[1] };
	int ret;

	ret = tk_post_recv(t, p->qp[1], 1, TK_OFF_DST, 16, 42);
	if (!ret)
		ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, 100);
	if (!ret)
		ret = tk_expect("length error: requester", p->cq[0], &ws);
	if (!ret)
		ret = tk_expect("length error: responder", p->cq[1], &wrcv);
	if (!ret)
		pr_info("a SEND too long for the receive buffer fails on both sides\n");
	return ret;
}

/*
 * Move A to ERR with a receive and a send outstanding, post one of each
 * more, and see all four flushed: what ib_drain_qp() relies on.
 */
static int tk_check_flush(struct tk_ctx *t, struct tk_pair *p)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_rdma_wr wr = { .wr = { .opcode = IB_WR_SEND } };
	struct tk_want w = { 0, IB_WC_WR_FLUSH_ERR, 0, -1, p->qp[0] };
	unsigned long seen = 0;
	struct ib_wc wc[4];
	int i, ret;

	ret = tk_post_recv(t, p->qp[0], 0, TK_OFF_DST, 64, 51);
	if (!ret)
		ret = tk_modify(p->qp[0], &attr, IB_QP_STATE, "ERR");
	for (i = 0; i < 2 && !ret; i++) {
		wr.wr.wr_id = 52 + 2 * i;
		ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, 8);
		if (!ret && !i)
			ret = tk_post_recv(t, p->qp[0], 0, TK_OFF_DST, 64, 53);
	}
	if (!ret)
		ret = tk_poll(p->cq[0], wc, 4);
	for (i = 0; i < 4 && !ret; i++) {
		w.wr_id = wc[i].wr_id;
		ret = tk_check_wc("flush", &wc[i], &w);
		if (!ret && (wc[i].wr_id < 51 || wc[i].wr_id > 54 ||
			     test_and_set_bit(wc[i].wr_id - 51, &seen))) {
			pr_err("flush: unexpected or repeated wr_id %llu\n",
			       wc[i].wr_id);
			ret = -EINVAL;
		}
	}
	if (!ret)
		pr_info("WRs outstanding and posted in ERR are flushed\n");
	return ret;
}

static int tk_run_direct(struct tk_ctx *t)
{
	struct tk_pair p = {};
	int ret;

	ret = tk_pair_create(t, &p, IB_POLL_DIRECT);
	if (!ret)
		ret = tk_pair_connect(t, &p, 7);
	if (!ret)
		ret = tk_check_data(t, &p);
	if (!ret)
		ret = tk_bench(t, &p);
	if (!ret)
		ret = tk_check_len_error(t, &p);
	if (!ret)
		ret = tk_check_flush(t, &p);
	if (!ret) {
		ib_drain_qp(p.qp[0]);
		ib_drain_qp(p.qp[1]);
		pr_info("ib_drain_qp() on directly polled CQs returned\n");
	}
	tk_pair_destroy(&p);
	return ret;
}

/* ---- completions from the interrupt ---- */

static void tk_event_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct tk_event *e = container_of(wc->wr_cqe, struct tk_event, cqe);

	e->status = wc->status;
	e->opcode = wc->opcode;
	complete(&e->done);
}

static int tk_wait_event(const char *what, struct tk_event *e,
			 enum ib_wc_status status)
{
	if (!wait_for_completion_timeout(&e->done,
					 msecs_to_jiffies(TK_TIMEOUT_MS))) {
		pr_err("%s: no completion event\n", what);
		return -ETIMEDOUT;
	}
	if (e->status == status)
		return 0;
	pr_err("%s: status %s, want %s\n", what, ib_wc_status_msg(e->status),
	       ib_wc_status_msg(status));
	return -EINVAL;
}

/* a WRITE through @key, completed from the CQ's softirq poller */
static int tk_event_write(struct tk_ctx *t, struct tk_pair *p, u32 key,
			  enum ib_wc_status status)
{
	struct tk_event e = { .cqe.done = tk_event_done };
	struct ib_rdma_wr wr = {
		.wr = { .wr_cqe = &e.cqe, .opcode = IB_WR_RDMA_WRITE },
		.remote_addr = tk_bus(t, 1, TK_OFF_DST),
		.rkey = key,
	};
	int ret;

	init_completion(&e.done);
	ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, 32);
	if (ret)
		return ret;
	return tk_wait_event(key ? "write with a bad rkey" : "event write",
			     &e, status);
}

/*
 * CQs polled from the completion interrupt: a WRITE completes through
 * the CEQ, a WRITE with an rkey the engine does not know fails with a
 * remote access error, and ib_drain_qp() returns on both QPs.
 */
static int tk_run_events(struct tk_ctx *t)
{
	struct tk_pair p = {};
	int ret;

	ret = tk_pair_create(t, &p, IB_POLL_SOFTIRQ);
	if (!ret)
		ret = tk_pair_connect(t, &p, 7);
	if (!ret)
		ret = tk_event_write(t, &p, 0, IB_WC_SUCCESS);
	if (!ret)
		ret = tk_event_write(t, &p, 0x1234, IB_WC_REM_ACCESS_ERR);
	if (!ret) {
		ib_drain_qp(p.qp[0]);
		ib_drain_qp(p.qp[1]);
		pr_info("completion events, a remote access error and ib_drain_qp() from interrupts passed\n");
	}
	tk_pair_destroy(&p);
	return ret;
}

/* With an RNR retry count of 0, a SEND finding no receive fails */
static int tk_run_rnr(struct tk_ctx *t)
{
	struct ib_rdma_wr wr = { .wr = { .wr_id = 61, .opcode = IB_WR_SEND } };
	struct tk_pair p = {};
	struct tk_want w = { 61, IB_WC_RETRY_EXC_ERR, IB_WC_SEND, -1 };
	int ret;

	ret = tk_pair_create(t, &p, IB_POLL_DIRECT);
	if (!ret)
		ret = tk_pair_connect(t, &p, 0);
	if (!ret)
		ret = tk_post(t, p.qp[0], &wr, TK_OFF_SRC, 8);
	w.qp = p.qp[0];
	if (!ret)
		ret = tk_expect("send without a receive", p.cq[0], &w);
	if (!ret) {
		ib_drain_qp(p.qp[0]);
		ib_drain_qp(p.qp[1]);
		pr_info("a SEND without a receive fails with retries exceeded\n");
	}
	tk_pair_destroy(&p);
	return ret;
}

/* ---- fast registration ---- */

/*
 * B maps the two pages of its TK_OFF_DST area into @mr under a new key
 * with an IB_WR_REG_MR of its own QP.
 */
static int tk_frwr_map(struct tk_ctx *t, struct tk_pair *p, struct ib_mr *mr)
{
	struct ib_reg_wr wr = {
		.wr = { .wr_id = 71, .opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED },
		.mr = mr,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			  IB_ACCESS_REMOTE_READ,
	};
	struct tk_want w = { 71, IB_WC_SUCCESS, IB_WC_REG_MR, -1, p->qp[1] };
	struct scatterlist sg;
	int n, ret;

	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = tk_bus(t, 1, TK_OFF_DST);
	sg_dma_len(&sg) = SZ_8K;
	n = ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1) {
		pr_err("fast register: ib_map_mr_sg mapped %d of 1 entries\n", n);
		return n < 0 ? n : -EINVAL;
	}
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	wr.key = mr->rkey;
	ret = ib_post_send(p->qp[1], &wr.wr, NULL);
	if (ret) {
		pr_err("fast register: post_send: %d\n", ret);
		return ret;
	}
	return tk_expect("fast register", p->cq[1], &w);
}

/* A writes across B's page boundary through the rkey, and reads it back */
static int tk_frwr_io(struct tk_ctx *t, struct tk_pair *p, struct ib_mr *mr)
{
	const u32 off = 100, len = 5000;
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 72, .opcode = IB_WR_RDMA_WRITE },
		.remote_addr = mr->iova + off,
		.rkey = mr->rkey,
	};
	struct tk_want w = { 72, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, -1,
			     p->qp[0] };
	int ret;

	tk_fill(tk_va(t, 0, TK_OFF_SRC), len, (u8)(0x71 + mr->rkey));
	memset(tk_va(t, 1, TK_OFF_DST), 0, SZ_8K);
	memset(tk_va(t, 0, TK_OFF_READ), 0, len);
	ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, len);
	if (!ret)
		ret = tk_expect("write through a fast-registered MR", p->cq[0],
				&w);
	if (!ret)
		ret = tk_same("write through a fast-registered MR",
			      tk_va(t, 1, TK_OFF_DST + off),
			      tk_va(t, 0, TK_OFF_SRC), len);
	wr.wr.wr_id = 73;
	w.wr_id = 73;
	wr.wr.opcode = IB_WR_RDMA_READ;
	w.opcode = IB_WC_RDMA_READ;
	w.byte_len = len;
	if (!ret)
		ret = tk_post(t, p->qp[0], &wr, TK_OFF_READ, len);
	if (!ret)
		ret = tk_expect("read through a fast-registered MR", p->cq[0],
				&w);
	if (!ret)
		ret = tk_same("read through a fast-registered MR",
			      tk_va(t, 0, TK_OFF_READ),
			      tk_va(t, 0, TK_OFF_SRC), len);
	return ret;
}

/* A's SEND with invalidate unmaps the MR; B's completion names the rkey */
static int tk_frwr_remote_inv(struct tk_ctx *t, struct tk_pair *p,
			      struct ib_mr *mr)
{
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 74, .opcode = IB_WR_SEND_WITH_INV,
			.ex.invalidate_rkey = mr->rkey },
	};
	struct tk_want ws = { 74, IB_WC_SUCCESS, IB_WC_SEND, -1, p->qp[0] };
	struct tk_want wrcv = { 75, IB_WC_SUCCESS, IB_WC_RECV, 16, p->qp[1],
				0, IB_WC_WITH_INVALIDATE };
	struct ib_wc wc;
	int ret;

	ret = tk_post_recv(t, p->qp[1], 1, TK_OFF_READ, 64, 75);
	if (!ret)
		ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, 16);
	if (!ret)
		ret = tk_expect("send with invalidate: requester", p->cq[0],
				&ws);
	if (!ret)
		ret = tk_poll(p->cq[1], &wc, 1);
	if (!ret)
		ret = tk_check_wc("send with invalidate: responder", &wc,
				  &wrcv);
	if (!ret && wc.ex.invalidate_rkey != mr->rkey) {
		pr_err("send with invalidate: responder reports rkey 0x%x, not 0x%x\n",
		       wc.ex.invalidate_rkey, mr->rkey);
		ret = -EINVAL;
	}
	return ret;
}

/* B unmaps the MR itself */
static int tk_frwr_local_inv(struct tk_pair *p, struct ib_mr *mr)
{
	struct ib_send_wr wr = {
		.wr_id = 76, .opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = mr->rkey,
	};
	struct tk_want w = { 76, IB_WC_SUCCESS, IB_WC_LOCAL_INV, -1,
			     p->qp[1] };
	int ret = ib_post_send(p->qp[1], &wr, NULL);

	if (ret) {
		pr_err("local invalidate: post_send: %d\n", ret);
		return ret;
	}
	return tk_expect("local invalidate", p->cq[1], &w);
}

/*
 * A READs B's TK_OFF_READ area into the MR with IB_WR_RDMA_READ_WITH_INV,
 * as rdma_rw does on iWARP: the data lands and the MR is unmapped.
 */
static int tk_frwr_read_inv(struct tk_ctx *t, struct tk_pair *p,
			    struct ib_mr *mr)
{
	const u32 len = 3000;
	struct ib_sge sge = {
		.addr = mr->iova, .length = len, .lkey = mr->lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 78, .opcode = IB_WR_RDMA_READ_WITH_INV,
			.send_flags = IB_SEND_SIGNALED, .sg_list = &sge,
			.num_sge = 1, .ex.invalidate_rkey = mr->lkey },
		.remote_addr = tk_bus(t, 1, TK_OFF_READ),
	};
	struct tk_want w = { 78, IB_WC_SUCCESS, IB_WC_RDMA_READ, len,
			     p->qp[0] };
	int ret;

	tk_fill(tk_va(t, 1, TK_OFF_READ), len, 0x78);
	memset(tk_va(t, 1, TK_OFF_DST), 0, len);
	ret = ib_post_send(p->qp[0], &wr.wr, NULL);
	if (ret) {
		pr_err("read with invalidate: post_send: %d\n", ret);
		return ret;
	}
	ret = tk_expect("read with invalidate", p->cq[0], &w);
	if (!ret)
		ret = tk_same("read with invalidate", tk_va(t, 1, TK_OFF_DST),
			      tk_va(t, 1, TK_OFF_READ), len);
	return ret;
}

/* an access through the rkey of an unmapped MR fails, and A with it */
static int tk_frwr_stale(struct tk_ctx *t, struct tk_pair *p,
			 struct ib_mr *mr)
{
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 77, .opcode = IB_WR_RDMA_WRITE },
		.remote_addr = mr->iova,
		.rkey = mr->rkey,
	};
	struct ib_wc wc;
	int ret;

	ret = tk_post(t, p->qp[0], &wr, TK_OFF_SRC, 64);
	if (!ret)
		ret = tk_poll(p->cq[0], &wc, 1);
	if (!ret && (wc.wr_id != 77 || wc.status != IB_WC_REM_ACCESS_ERR)) {
		pr_err("write through an invalidated rkey: wr_id %llu status %s\n",
		       wc.wr_id, ib_wc_status_msg(wc.status));
		ret = -EINVAL;
	}
	return ret;
}

/*
 * Fast registration, as NVMe-oF and SMB Direct use it: an MR from
 * ib_alloc_mr() mapped by B's IB_WR_REG_MR, written and read by A through
 * its rkey, unmapped by A's SEND with invalidate; mapped again under a new
 * key, unmapped by B's IB_WR_LOCAL_INV; mapped again and unmapped by the
 * READ with invalidate it is the sink of; the stale rkey refused.
 */
static int tk_run_frwr(struct tk_ctx *t)
{
	struct tk_pair p = {};
	struct ib_mr *mr = NULL;
	int ret;

	ret = tk_pair_create(t, &p, IB_POLL_DIRECT);
	if (!ret)
		ret = tk_pair_connect(t, &p, 7);
	if (!ret) {
		mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 4);
		if (IS_ERR(mr)) {
			ret = PTR_ERR(mr);
			pr_err("ib_alloc_mr: %d\n", ret);
			mr = NULL;
		}
	}
	if (!ret)
		ret = tk_frwr_map(t, &p, mr);
	if (!ret)
		ret = tk_frwr_io(t, &p, mr);
	if (!ret)
		ret = tk_frwr_remote_inv(t, &p, mr);
	if (!ret)
		ret = tk_frwr_map(t, &p, mr);
	if (!ret)
		ret = tk_frwr_io(t, &p, mr);
	if (!ret)
		ret = tk_frwr_local_inv(&p, mr);
	if (!ret)
		ret = tk_frwr_map(t, &p, mr);
	if (!ret)
		ret = tk_frwr_read_inv(t, &p, mr);
	if (!ret)
		ret = tk_frwr_stale(t, &p, mr);
	if (!ret) {
		ib_drain_qp(p.qp[0]);
		ib_drain_qp(p.qp[1]);
		pr_info("fast register, RDMA through the rkey, remote and local invalidate, read with invalidate passed\n");
	}
	if (mr)
		ib_dereg_mr(mr);
	tk_pair_destroy(&p);
	return ret;
}

/* bench_dev: the benchmark alone, on directly polled CQs */
static int tk_run_bench_only(struct tk_ctx *t)
{
	struct tk_pair p = {};
	int ret;

	ret = tk_pair_create(t, &p, IB_POLL_DIRECT);
	if (!ret)
		ret = tk_pair_connect(t, &p, 7);
	if (!ret)
		ret = tk_bench(t, &p);
	tk_pair_destroy(&p);
	return ret;
}

/*
 * The buffer both sides use: coherent DMA memory, or on a device without
 * DMA of its own (rxe) plain memory addressed by its kernel address.
 */
static int tk_buf_alloc(struct tk_ctx *t)
{
	if (ib_uses_virt_dma(t->dev)) {
		t->buf = kzalloc(TK_BUF_BYTES, GFP_KERNEL);
		t->dma = (uintptr_t)t->buf;
	} else {
		t->buf = dma_alloc_coherent(t->dev->dma_device, TK_BUF_BYTES,
					    &t->dma, GFP_KERNEL);
	}
	return t->buf ? 0 : -ENOMEM;
}

static void tk_buf_free(struct tk_ctx *t)
{
	if (!t->buf)
		return;
	if (ib_uses_virt_dma(t->dev))
		kfree(t->buf);
	else
		dma_free_coherent(t->dev->dma_device, TK_BUF_BYTES, t->buf,
				  t->dma);
}

/* ---- the client ---- */

static int tk_run(struct ib_device *dev)
{
	bool irdma = dev->ops.driver_id == RDMA_DRIVER_IRDMA;
	const struct ib_gid_attr *ga;
	struct tk_ctx t = { .dev = dev };
	int ret;

	ga = rdma_get_gid_attr(dev, 1, 0);
	ret = PTR_ERR_OR_ZERO(ga);
	if (!ret) {
		t.gid = ga->gid;
		ret = rdma_read_gid_l2_fields(ga, NULL, t.mac);
		rdma_put_gid_attr(ga);
	}
	if (ret) {
		pr_err("%s: no GID 0 on port 1 (is the netdev up?): %d\n",
		       dev_name(&dev->dev), ret);
		return ret;
	}
	t.pd = ib_alloc_pd(dev, irdma ? 0 : IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(t.pd))
		return PTR_ERR(t.pd);
	t.lkey = t.pd->local_dma_lkey;
	if (!irdma)
		t.rkey = t.pd->unsafe_global_rkey;
	ret = tk_buf_alloc(&t);
	if (!ret && bench_dev) {
		ret = tk_run_bench_only(&t);
		goto out_free;
	}
	if (!ret)
		ret = tk_run_direct(&t);
	if (!ret)
		ret = tk_run_events(&t);
	if (!ret)
		ret = tk_run_rnr(&t);
	if (!ret)
		ret = tk_run_frwr(&t);
out_free:
	tk_buf_free(&t);
	ib_dealloc_pd(t.pd);
	return ret;
}

/* the device to run on: the first RoCEv2 irdma device, or bench_dev */
static bool tk_wanted(struct ib_device *dev)
{
	if (!rdma_protocol_roce(dev, 1))
		return false;
	if (bench_dev)
		return !strcmp(dev_name(&dev->dev), bench_dev);
	return dev->ops.driver_id == RDMA_DRIVER_IRDMA;
}

static int tk_add(struct ib_device *dev)
{
	if (tk_ran || !tk_wanted(dev))
		return -EOPNOTSUPP;
	tk_ran = true;
	pr_info("%s %s\n", bench_dev ? "benchmarking" : "testing",
		dev_name(&dev->dev));
	tk_result = tk_run(dev);
	if (!tk_result && !bench_dev)
		pr_info("%s: all checks passed\n", dev_name(&dev->dev));
	/* nothing is kept per device */
	return -EOPNOTSUPP;
}

static void tk_remove(struct ib_device *dev, void *data)
{
}

static struct ib_client tk_client = {
	.name = "irdma_test_kverbs",
	.add = tk_add,
	.remove = tk_remove,
};

static int __init tk_init(void)
{
	int ret = ib_register_client(&tk_client);

	if (ret)
		return ret;
	if (!tk_ran)
		pr_err("no %s to test\n",
		       bench_dev ?: "RoCEv2 irdma device");
	if (tk_result) {
		ib_unregister_client(&tk_client);
		return tk_result;
	}
	return 0;
}

static void __exit tk_exit(void)
{
	ib_unregister_client(&tk_client);
}

module_init(tk_init);
module_exit(tk_exit);

MODULE_DESCRIPTION("irdma kernel verbs loopback test and benchmark");
MODULE_LICENSE("Dual BSD/GPL");
