// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * uverbs_fuzz: garbage through the uverbs write() ABI of an irdma device.
 * Not part of the driver; the harness builds it into the run directory.
 *
 * Sessions of random calls on one uverbs file: a user context (with a
 * random driver request), then every verb that carries an irdma request
 * or reaches the driver (PDs, ring and memory registrations, CQs, QPs,
 * modify, resize, query, post and poll through the kernel, notify, MWs,
 * AHs, multicast, mmap of the doorbell page and of anything else), with
 * random lengths, bytes, handles (the right kind, another kind, none) and
 * flags; ring registrations whose page counts lie about their length,
 * rings claimed twice or by the wrong kind of object, addresses that are
 * unmapped, read-only or kernel ones, for the data and for the response.
 * A session ends either by destroying what it made, in order, which must
 * all succeed (a QP it made must also answer a query), or by closing the
 * file with everything alive. Every call must return a result or an
 * errno; the script around it checks the kernel log, the RDMA resources
 * and the engine's objects afterwards, and kmemleak the guest's end.
 *
 * Usage: uverbs_fuzz -d /dev/infiniband/uverbsN [-n CALLS] [-s SEED]
 *                    [-S CALLS_PER_SESSION]
 * Prints the calls made per verb with their results, and "consistent"
 * or what was not; exits 1 on an inconsistency, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE		4096
#define ARENA_PAGES	1024
#define POOL_MAX	48
#define RINGS_MAX	32
#define NCMD		40
#define NERR		134

/* ---- random numbers (xorshift64*) ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

/* a size: 0, 1, a few, a power of two, at or around a limit, anything */
static uint64_t rnd_size(uint64_t typical)
{
	switch (below(10)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 1ULL << below(32);
	case 3: return typical + below(3) - 1;
	case 4: return rnd();
	case 5: return (uint32_t)rnd();
	case 6: return 0xffffffffULL - below(2);
	default: return below(typical * 2 + 1);
	}
}

static void rnd_bytes(void *p, size_t n)
{
	unsigned char *b = p;

	while (n--)
		*b++ = rnd();
}

/* ---- memory the calls point at ---- */

static struct {
	unsigned char *arena;	/* ARENA_PAGES of read-write memory */
	unsigned char *ro;	/* a read-only page */
	unsigned char *hole;	/* a page that is not mapped */
	unsigned char *resp;	/* response buffer, two pages */
} m;

/* a user address: mostly in the arena, else unmapped, read-only, NULL,
 * a kernel address or anything
 */
static uint64_t rnd_addr(bool aligned)
{
	uint64_t off = below((ARENA_PAGES - 1) * PAGE);

	switch (below(20)) {
	case 0: return (uintptr_t)m.hole;
	case 1: return (uintptr_t)m.ro;
	case 2: return 0;
	case 3: return 0xffff888000000000ULL + (rnd() & 0xfffff000);
	case 4: return rnd();
	default:
		return (uintptr_t)m.arena + (aligned ? off & ~(PAGE - 1ULL) : off);
	}
}

/* ---- handles ---- */

enum pool_kind { P_PD, P_CQ, P_QP, P_MR, P_MW, P_AH, P_NUM };

static const char *const pool_names[P_NUM] = {
	"PD", "CQ", "QP", "MR", "MW", "AH",
};

static struct {
	uint32_t h[POOL_MAX];
	int n;
} pool[P_NUM];

/* registered rings: where, what the request said, its MR */
static struct ring {
	uint64_t va;
	uint16_t type;
	uint16_t pages;
	uint32_t mr;
} rings[RINGS_MAX];
static int nrings;

static void pool_add(enum pool_kind k, uint32_t h)
{
	if (pool[k].n < POOL_MAX)
		pool[k].h[pool[k].n++] = h;
}

static void pool_del(enum pool_kind k, uint32_t h)
{
	int i;

	for (i = 0; i < pool[k].n; i++)
		if (pool[k].h[i] == h) {
			pool[k].h[i] = pool[k].h[--pool[k].n];
			return;
		}
}

/* a handle: mostly one of kind @k made in this session, else one of
 * another kind or one nobody made (never a valid one by accident)
 */
static uint32_t rnd_handle(enum pool_kind k, bool *mine)
{
	enum pool_kind o = below(P_NUM);

	*mine = false;
	if (pool[k].n && chance(80)) {
		*mine = true;
		return pool[k].h[below(pool[k].n)];
	}
	if (o != k && pool[o].n && chance(50))
		return pool[o].h[below(pool[o].n)];
	return 0x10000000 | (uint32_t)rnd();
}

/* ---- calls ---- */

static const char *const cmd_names[NCMD] = {
	[IB_USER_VERBS_CMD_GET_CONTEXT] = "get_context",
	[IB_USER_VERBS_CMD_QUERY_DEVICE] = "query_device",
	[IB_USER_VERBS_CMD_QUERY_PORT] = "query_port",
	[IB_USER_VERBS_CMD_ALLOC_PD] = "alloc_pd",
	[IB_USER_VERBS_CMD_DEALLOC_PD] = "dealloc_pd",
	[IB_USER_VERBS_CMD_CREATE_AH] = "create_ah",
	[IB_USER_VERBS_CMD_DESTROY_AH] = "destroy_ah",
	[IB_USER_VERBS_CMD_REG_MR] = "reg_mr",
	[IB_USER_VERBS_CMD_REREG_MR] = "rereg_mr",
	[IB_USER_VERBS_CMD_DEREG_MR] = "dereg_mr",
	[IB_USER_VERBS_CMD_ALLOC_MW] = "alloc_mw",
	[IB_USER_VERBS_CMD_DEALLOC_MW] = "dealloc_mw",
	[IB_USER_VERBS_CMD_CREATE_CQ] = "create_cq",
	[IB_USER_VERBS_CMD_RESIZE_CQ] = "resize_cq",
	[IB_USER_VERBS_CMD_DESTROY_CQ] = "destroy_cq",
	[IB_USER_VERBS_CMD_POLL_CQ] = "poll_cq",
	[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] = "req_notify_cq",
	[IB_USER_VERBS_CMD_CREATE_QP] = "create_qp",
	[IB_USER_VERBS_CMD_QUERY_QP] = "query_qp",
	[IB_USER_VERBS_CMD_MODIFY_QP] = "modify_qp",
	[IB_USER_VERBS_CMD_DESTROY_QP] = "destroy_qp",
	[IB_USER_VERBS_CMD_POST_SEND] = "post_send",
	[IB_USER_VERBS_CMD_POST_RECV] = "post_recv",
	[IB_USER_VERBS_CMD_ATTACH_MCAST] = "attach_mcast",
	[IB_USER_VERBS_CMD_DETACH_MCAST] = "detach_mcast",
};

/* results per command: [0] succeeded, [errno] failed so; and mmap's */
static unsigned long results[NCMD + 1][NERR + 1];
static unsigned long calls;
static bool inconsistent;
static int fd = -1;
static uint64_t db_key;

static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("INCONSISTENT: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	inconsistent = true;
}

static void count(int cmd, int err)
{
	results[cmd][err > 0 && err < NERR ? err : err ? NERR : 0]++;
	calls++;
}

/*
 * Write command @cmd: @core bytes of the verb's own struct (its response
 * pointer first, if it has one, filled here), then @drv bytes of the
 * driver's request; @out bytes of response (core and driver) are asked
 * for. Sometimes the header lies about the lengths. Returns 0 or the
 * errno; the response is in m.resp when the pointer was the buffer.
 */
static int uv_cmd(int cmd, void *core, size_t core_len, bool has_resp,
		  const void *drv, size_t drv_len, size_t out)
{
	static unsigned char buf[8 + 4096];
	struct ib_uverbs_cmd_hdr *h = (void *)buf;
	size_t len = 8 + core_len + drv_len;
	uint64_t rp = (uintptr_t)m.resp;
	ssize_t r;
	int err;

	len = (len + 3) & ~3UL;
	if (len > sizeof(buf))
		len = sizeof(buf);
	if (has_resp) {
		switch (below(20)) {
		case 0: rp = (uintptr_t)m.ro; break;
		case 1: rp = (uintptr_t)m.hole; break;
		case 2: rp = rnd_addr(false); break;
		default: break;
		}
		memcpy(core, &rp, sizeof(rp));
	}
	memset(buf, 0, len);
	memcpy(buf + 8, core, core_len);
	if (drv_len && len > 8 + core_len)
		memcpy(buf + 8 + core_len, drv, len - 8 - core_len);
	h->command = cmd;
	h->in_words = len / 4;
	h->out_words = (out + 3) / 4;
	if (chance(2))
		h->in_words = below(len / 4 + 4);
	if (chance(2))
		h->out_words = below(1024);
	memset(m.resp, 0, 2 * PAGE);
	r = write(fd, buf, len);
	err = r < 0 ? errno : 0;
	if (r >= 0 && (size_t)r != len)
		bad("%s: write returned %zd of %zu", cmd_names[cmd], r, len);
	/*
	 * A call that succeeded with its response elsewhere in the arena made
	 * its object all the same: its handle is read from there, as if the
	 * response had come to m.resp. Anywhere else it must have failed.
	 */
	if (!err && has_resp && rp != (uintptr_t)m.resp) {
		if (rp < (uintptr_t)m.arena ||
		    rp >= (uintptr_t)m.arena + (ARENA_PAGES - 1) * PAGE)
			bad("%s: succeeded with its response at %#llx",
			    cmd_names[cmd], (unsigned long long)rp);
		else
			memcpy(m.resp, (void *)(uintptr_t)rp,
			       h->out_words * 4 < 2 * PAGE ? h->out_words * 4 :
			       2 * PAGE);
		rp = (uintptr_t)m.resp;
		memcpy(core, &rp, sizeof(rp));
	}
	count(cmd, err);
	return err;
}

/* a driver request of @want bytes, sometimes shorter, longer or absent */
static size_t drv_len(size_t want)
{
	switch (below(12)) {
	case 0: return 0;
	case 1: return below(want + 1) & ~3UL;
	case 2: return want + 4 * (1 + below(16));
	default: return want;
	}
}

/* the response's room for the driver's part */
static size_t out_len(size_t core, size_t drv)
{
	switch (below(12)) {
	case 0: return below(core + 1);
	case 1: return core;
	case 2: return core + drv + 8 * below(8);
	default: return core + drv;
	}
}

static void get_context(bool must)
{
	struct ib_uverbs_get_context c = { 0 };
	struct irdma_alloc_ucontext_req req = {
		.userspace_ver = 5,
		.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR,
	};
	struct irdma_alloc_ucontext_resp *resp;
	int err;

	if (!must) {
		req.userspace_ver = below(8);
		req.comp_mask = chance(50) ? rnd() : req.comp_mask;
		req.rsvd32 = chance(10) ? rnd() : 0;
	}
	resp = (void *)(m.resp + sizeof(struct ib_uverbs_get_context_resp));
	err = uv_cmd(IB_USER_VERBS_CMD_GET_CONTEXT, &c, sizeof(c), true,
		     &req, must ? sizeof(req) : drv_len(sizeof(req)),
		     must ? PAGE : out_len(8, sizeof(*resp)));
	if (!err && c.response == (uintptr_t)m.resp) {
		db_key = resp->db_mmap_key;
		close(((struct ib_uverbs_get_context_resp *)m.resp)->async_fd);
	}
}

static void alloc_pd(void)
{
	struct ib_uverbs_alloc_pd c = { 0 };
	uint64_t junk[4];

	rnd_bytes(junk, sizeof(junk));
	if (!uv_cmd(IB_USER_VERBS_CMD_ALLOC_PD, &c, sizeof(c), true, junk,
		    drv_len(0), out_len(4, 8)) &&
	    c.response == (uintptr_t)m.resp)
		pool_add(P_PD, *(uint32_t *)m.resp);
}

static void destroy_simple(int cmd, enum pool_kind k)
{
	uint32_t h;
	bool mine;

	h = rnd_handle(k, &mine);
	if (!uv_cmd(cmd, &h, sizeof(h), false, NULL, 0, 0)) {
		if (!mine)
			bad("%s of handle %u that is no %s succeeded",
			    cmd_names[cmd], h, pool_names[k]);
		pool_del(k, h);
	}
}

/* a registration: memory, or a CQ or QP ring whose counts may lie */
static void reg_mr(void)
{
	struct ib_uverbs_reg_mr c = { 0 };
	struct irdma_mem_reg_req req = { 0 };
	uint64_t pages = 1 + below(8);
	bool mine;

	req.reg_type = below(4);
	if (req.reg_type == IRDMA_MEMREG_TYPE_CQ)
		req.cq_pages = pages;
	else if (req.reg_type == IRDMA_MEMREG_TYPE_QP)
		req.sq_pages = 1 + below(pages), req.rq_pages = pages;
	if (chance(20)) {
		req.cq_pages = rnd_size(8);
		req.sq_pages = rnd_size(8);
		req.rq_pages = rnd_size(8);
	}
	c.start = rnd_addr(chance(90));
	/* the ring pages and the shadow page, or a lie */
	c.length = (req.reg_type == IRDMA_MEMREG_TYPE_QP ?
		    req.sq_pages + req.rq_pages : req.cq_pages) * PAGE +
		   (chance(70) ? 64 : 0);
	if (req.reg_type == IRDMA_MEMREG_TYPE_MEM || chance(20))
		c.length = rnd_size(8 * PAGE);
	c.hca_va = chance(80) ? c.start : rnd();
	c.pd_handle = rnd_handle(P_PD, &mine);
	c.access_flags = chance(70) ? 1 + below(7) : (uint32_t)rnd();
	if (uv_cmd(IB_USER_VERBS_CMD_REG_MR, &c, sizeof(c), true, &req,
		   drv_len(sizeof(req)), out_len(12, 0)) ||
	    c.response != (uintptr_t)m.resp)
		return;
	pool_add(P_MR, *(uint32_t *)m.resp);
	if (req.reg_type && nrings < RINGS_MAX)
		rings[nrings++] = (struct ring){ c.start, req.reg_type,
			req.reg_type == IRDMA_MEMREG_TYPE_CQ ? req.cq_pages :
			req.sq_pages + req.rq_pages, *(uint32_t *)m.resp };
}

/* the address of a registered ring, mostly of type @type */
static uint64_t ring_addr(uint16_t type)
{
	int i, tries;

	for (tries = 0; nrings && tries < 4; tries++) {
		i = below(nrings);
		if (rings[i].type == type || chance(20))
			return rings[i].va;
	}
	return rnd_addr(chance(50));
}

static void create_cq(void)
{
	struct ib_uverbs_create_cq c = { 0 };
	struct irdma_create_cq_req req;

	req.user_cq_buf = ring_addr(IRDMA_MEMREG_TYPE_CQ);
	req.user_shadow_area = chance(50) ? ring_addr(IRDMA_MEMREG_TYPE_CQ) :
				rnd_addr(true);
	c.user_handle = rnd();
	c.cqe = chance(70) ? 1 + below(128) : rnd_size(256);
	c.comp_vector = chance(80) ? 0 : rnd_size(4);
	c.comp_channel = -1;
	if (!uv_cmd(IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), true, &req,
		    drv_len(sizeof(req)),
		    out_len(8, sizeof(struct irdma_create_cq_resp))) &&
	    c.response == (uintptr_t)m.resp)
		pool_add(P_CQ, *(uint32_t *)m.resp);
}

static void resize_cq(void)
{
	struct ib_uverbs_resize_cq c = { 0 };
	struct irdma_resize_cq_req req;
	bool mine;

	req.user_cq_buffer = ring_addr(IRDMA_MEMREG_TYPE_CQ);
	c.cq_handle = rnd_handle(P_CQ, &mine);
	c.cqe = chance(70) ? 1 + below(256) : rnd_size(256);
	uv_cmd(IB_USER_VERBS_CMD_RESIZE_CQ, &c, sizeof(c), true, &req,
	       drv_len(sizeof(req)), out_len(8, 0));
}

static void destroy_cq(void)
{
	struct ib_uverbs_destroy_cq c = { 0 };
	bool mine;

	c.cq_handle = rnd_handle(P_CQ, &mine);
	if (!uv_cmd(IB_USER_VERBS_CMD_DESTROY_CQ, &c, sizeof(c), true, NULL,
		    0, 8)) {
		if (!mine)
			bad("destroy_cq of handle %u that is no CQ succeeded",
			    c.cq_handle);
		pool_del(P_CQ, c.cq_handle);
	}
}

static void poll_or_notify(void)
{
	struct ib_uverbs_poll_cq p = { 0 };
	struct ib_uverbs_req_notify_cq n;
	bool mine;

	if (chance(50)) {
		p.cq_handle = rnd_handle(P_CQ, &mine);
		p.ne = rnd_size(4);
		uv_cmd(IB_USER_VERBS_CMD_POLL_CQ, &p, sizeof(p), true, NULL, 0,
		       8 + 48 * below(4));
		return;
	}
	n.cq_handle = rnd_handle(P_CQ, &mine);
	n.solicited_only = chance(80) ? below(2) : rnd();
	uv_cmd(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &n, sizeof(n), false, NULL, 0,
	       0);
}

static void create_qp(void)
{
	struct ib_uverbs_create_qp c = { 0 };
	struct irdma_create_qp_req req;
	static const uint8_t types[] = { 2, 2, 2, 3, 4, 4, 8, 9, 10, 0xff };
	bool mine;

	req.user_wqe_bufs = ring_addr(IRDMA_MEMREG_TYPE_QP);
	req.user_compl_ctx = rnd();
	c.user_handle = rnd();
	c.pd_handle = rnd_handle(P_PD, &mine);
	c.send_cq_handle = rnd_handle(P_CQ, &mine);
	c.recv_cq_handle = chance(80) ? c.send_cq_handle :
			   rnd_handle(P_CQ, &mine);
	c.srq_handle = chance(90) ? 0 : rnd();
	c.max_send_wr = chance(70) ? 1 + below(64) : rnd_size(64);
	c.max_recv_wr = chance(70) ? 1 + below(64) : rnd_size(64);
	c.max_send_sge = chance(70) ? 1 + below(3) : rnd_size(4);
	c.max_recv_sge = chance(70) ? 1 + below(3) : rnd_size(4);
	c.max_inline_data = chance(70) ? below(64) : rnd_size(128);
	c.sq_sig_all = below(2);
	c.qp_type = types[below(sizeof(types))];
	c.is_srq = chance(95) ? 0 : 1;
	if (!uv_cmd(IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), true, &req,
		    drv_len(sizeof(req)),
		    out_len(32, sizeof(struct irdma_create_qp_resp))) &&
	    c.response == (uintptr_t)m.resp)
		pool_add(P_QP, *(uint32_t *)m.resp);
}

static void modify_qp(void)
{
	struct ib_uverbs_modify_qp c;
	struct irdma_modify_qp_req req;
	bool mine;

	rnd_bytes(&c, sizeof(c));
	rnd_bytes(&req, sizeof(req));
	c.qp_handle = rnd_handle(P_QP, &mine);
	if (chance(70)) {
		/* mostly sensible: a state, some attributes */
		c.qp_state = below(7);
		c.attr_mask = 1 | (rnd() & 0x1fffff & ~(chance(50) ? 0x180 : 0));
		c.port_num = chance(80) ? 1 : c.port_num;
		c.dest.port_num = chance(80) ? 1 : c.dest.port_num;
		c.dest.sgid_index = chance(80) ? below(3) : c.dest.sgid_index;
		c.path_mtu = chance(80) ? 1 + below(5) : c.path_mtu;
		req.sq_flush = below(2);
		req.rq_flush = below(2);
		memset(req.rsvd, 0, sizeof(req.rsvd));
	}
	uv_cmd(IB_USER_VERBS_CMD_MODIFY_QP, &c, sizeof(c), false, &req,
	       drv_len(sizeof(req)), chance(80) ? 0 : 8 * below(8));
}

static void query_qp(void)
{
	struct ib_uverbs_query_qp c = { 0 };
	bool mine;

	c.qp_handle = rnd_handle(P_QP, &mine);
	c.attr_mask = chance(50) ? 0xffffffff : (uint32_t)rnd();
	uv_cmd(IB_USER_VERBS_CMD_QUERY_QP, &c, sizeof(c), true, NULL, 0,
	       out_len(sizeof(struct ib_uverbs_query_qp_resp), 0));
}

static void destroy_qp(void)
{
	struct ib_uverbs_destroy_qp c = { 0 };
	bool mine;

	c.qp_handle = rnd_handle(P_QP, &mine);
	if (!uv_cmd(IB_USER_VERBS_CMD_DESTROY_QP, &c, sizeof(c), true, NULL,
		    0, 4)) {
		if (!mine)
			bad("destroy_qp of handle %u that is no QP succeeded",
			    c.qp_handle);
		pool_del(P_QP, c.qp_handle);
	}
}

/* post_send and post_recv through the kernel, to a user QP */
static void post(void)
{
	unsigned char b[1024];
	struct ib_uverbs_post_send *c = (void *)b;
	bool send = chance(50), mine;
	size_t wqe = send ? sizeof(struct ib_uverbs_send_wr) :
			    sizeof(struct ib_uverbs_recv_wr);
	uint32_t wrs = below(4), sges = below(4);
	size_t len = sizeof(*c) + wrs * wqe + sges * 16;

	rnd_bytes(b, sizeof(b));
	c->qp_handle = rnd_handle(P_QP, &mine);
	c->wr_count = chance(90) ? wrs : rnd();
	c->sge_count = chance(90) ? sges : rnd();
	c->wqe_size = chance(90) ? wqe : rnd_size(wqe);
	uv_cmd(send ? IB_USER_VERBS_CMD_POST_SEND : IB_USER_VERBS_CMD_POST_RECV,
	       c, len < sizeof(b) ? len : sizeof(b), true, NULL, 0, 4);
}

static void alloc_mw(void)
{
	struct ib_uverbs_alloc_mw c = { 0 };
	bool mine;

	c.pd_handle = rnd_handle(P_PD, &mine);
	c.mw_type = chance(80) ? 1 + below(2) : rnd();
	if (!uv_cmd(IB_USER_VERBS_CMD_ALLOC_MW, &c, sizeof(c), true, NULL, 0,
		    out_len(8, 0)) && c.response == (uintptr_t)m.resp)
		pool_add(P_MW, *(uint32_t *)m.resp);
}

static void create_ah(void)
{
	struct ib_uverbs_create_ah c;
	bool mine;

	rnd_bytes(&c, sizeof(c));
	c.pd_handle = rnd_handle(P_PD, &mine);
	if (chance(70)) {
		c.attr.port_num = 1;
		c.attr.is_global = 1;
		c.attr.grh.sgid_index = below(3);
		c.attr.grh.hop_limit = 64;
		c.attr.static_rate = 0;
		if (chance(50)) {
			/* fe80::/64, or an IPv4-mapped address */
			memset(c.attr.grh.dgid, 0, 16);
			c.attr.grh.dgid[0] = 0xfe;
			c.attr.grh.dgid[1] = 0x80;
			rnd_bytes(c.attr.grh.dgid + 8, 8);
		}
	}
	if (!uv_cmd(IB_USER_VERBS_CMD_CREATE_AH, &c, sizeof(c), true, NULL,
		    0, out_len(4, sizeof(struct irdma_create_ah_resp))) &&
	    c.response == (uintptr_t)m.resp)
		pool_add(P_AH, *(uint32_t *)m.resp);
}

static void mcast(void)
{
	struct ib_uverbs_attach_mcast c;
	bool mine;

	rnd_bytes(&c, sizeof(c));
	c.qp_handle = rnd_handle(P_QP, &mine);
	if (chance(70)) {
		memset(c.gid, 0, 16);
		c.gid[0] = 0xff;
		c.gid[1] = 0x0e;
		c.gid[15] = below(4);
	}
	c.mlid = chance(80) ? 0 : c.mlid;
	uv_cmd(chance(50) ? IB_USER_VERBS_CMD_ATTACH_MCAST :
	       IB_USER_VERBS_CMD_DETACH_MCAST, &c, sizeof(c), false, NULL, 0,
	       0);
}

static void query(void)
{
	struct ib_uverbs_query_port p = { 0 };
	struct ib_uverbs_query_device d = { 0 };

	if (chance(50)) {
		p.port_num = chance(80) ? 1 : rnd();
		uv_cmd(IB_USER_VERBS_CMD_QUERY_PORT, &p, sizeof(p), true, NULL,
		       0, out_len(sizeof(struct ib_uverbs_query_port_resp), 0));
	} else {
		uv_cmd(IB_USER_VERBS_CMD_QUERY_DEVICE, &d, sizeof(d), true,
		       NULL, 0,
		       out_len(sizeof(struct ib_uverbs_query_device_resp), 0));
	}
}

static void rereg_mr(void)
{
	struct ib_uverbs_rereg_mr c = { 0 };
	bool mine;

	c.mr_handle = rnd_handle(P_MR, &mine);
	c.flags = rnd() & 7;
	c.start = rnd_addr(true);
	c.length = rnd_size(4 * PAGE);
	c.hca_va = c.start;
	c.pd_handle = rnd_handle(P_PD, &mine);
	c.access_flags = below(8);
	uv_cmd(IB_USER_VERBS_CMD_REREG_MR, &c, sizeof(c), true, NULL, 0, 8);
}

/* mmap of the doorbell page, or of anything; a doorbell written */
static void fuzz_mmap(void)
{
	uint64_t off = chance(50) ? db_key : rnd_size(1 << 20) * PAGE;
	size_t len = chance(70) ? PAGE : rnd_size(4) * PAGE;
	int prot = chance(70) ? PROT_READ | PROT_WRITE : (int)below(8);
	void *p;

	if (chance(10))
		off += below(PAGE);
	p = mmap(NULL, len, prot, MAP_SHARED, fd, off);
	count(NCMD, p == MAP_FAILED ? errno : 0);
	if (p == MAP_FAILED)
		return;
	/* what libirdma does: the number of one of its QPs or CQs */
	if (off == db_key && len == PAGE && (prot & PROT_WRITE) && chance(30))
		*(volatile uint32_t *)p = below(64);
	munmap(p, len);
}

static void one_call(void)
{
	switch (below(24)) {
	case 0: get_context(false); break;
	case 1: case 2: alloc_pd(); break;
	case 3: destroy_simple(IB_USER_VERBS_CMD_DEALLOC_PD, P_PD); break;
	case 4: case 5: case 6: reg_mr(); break;
	case 7: destroy_simple(IB_USER_VERBS_CMD_DEREG_MR, P_MR); break;
	case 8: case 9: create_cq(); break;
	case 10: resize_cq(); break;
	case 11: destroy_cq(); break;
	case 12: poll_or_notify(); break;
	case 13: case 14: create_qp(); break;
	case 15: modify_qp(); break;
	case 16: query_qp(); break;
	case 17: destroy_qp(); break;
	case 18: post(); break;
	case 19: if (chance(50)) alloc_mw();
		 else destroy_simple(IB_USER_VERBS_CMD_DEALLOC_MW, P_MW);
		 break;
	case 20: if (chance(60)) create_ah();
		 else destroy_simple(IB_USER_VERBS_CMD_DESTROY_AH, P_AH);
		 break;
	case 21: mcast(); break;
	case 22: if (chance(50)) query(); else rereg_mr(); break;
	default: fuzz_mmap(); break;
	}
}

/* destroy what the session made, in order: all of it must go */
static void session_cleanup(void)
{
	static const int order[] = { P_AH, P_MW, P_QP, P_CQ, P_MR, P_PD };
	static const int destroy[] = {
		[P_AH] = IB_USER_VERBS_CMD_DESTROY_AH,
		[P_MW] = IB_USER_VERBS_CMD_DEALLOC_MW,
		[P_MR] = IB_USER_VERBS_CMD_DEREG_MR,
		[P_PD] = IB_USER_VERBS_CMD_DEALLOC_PD,
	};
	struct ib_uverbs_destroy_qp dq = { .response = (uintptr_t)m.resp };
	struct ib_uverbs_destroy_cq dc = { .response = (uintptr_t)m.resp };
	struct ib_uverbs_query_qp q = { .response = (uintptr_t)m.resp };
	struct { struct ib_uverbs_cmd_hdr h; uint64_t b[16]; } w;
	unsigned int i;
	int k, err;
	ssize_t r;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		k = order[i];
		while (pool[k].n) {
			uint32_t h = pool[k].h[0];
			size_t len = 8;

			memset(&w, 0, sizeof(w));
			if (k == P_QP) {
				q.qp_handle = h;
				q.attr_mask = 0xffffffff;
				w.h = (struct ib_uverbs_cmd_hdr){
					IB_USER_VERBS_CMD_QUERY_QP,
					(8 + sizeof(q)) / 4,
					sizeof(struct ib_uverbs_query_qp_resp) / 4 };
				memcpy(w.b, &q, sizeof(q));
				r = write(fd, &w, 8 + sizeof(q));
				if (r < 0)
					bad("query of QP %u made here: %s", h,
					    strerrorname_np(errno));
				dq.qp_handle = h;
				memcpy(w.b, &dq, sizeof(dq));
				len += sizeof(dq);
				w.h = (struct ib_uverbs_cmd_hdr){
					IB_USER_VERBS_CMD_DESTROY_QP, len / 4, 1 };
			} else if (k == P_CQ) {
				dc.cq_handle = h;
				memcpy(w.b, &dc, sizeof(dc));
				len += sizeof(dc);
				w.h = (struct ib_uverbs_cmd_hdr){
					IB_USER_VERBS_CMD_DESTROY_CQ, len / 4, 2 };
			} else {
				memcpy(w.b, &h, 4);
				len += 4;
				w.h = (struct ib_uverbs_cmd_hdr){
					destroy[k], len / 4, 0 };
			}
			r = write(fd, &w, len);
			err = r < 0 ? errno : 0;
			if (err)
				bad("destroy of %s %u made here: %s",
				    pool_names[k], h, strerrorname_np(err));
			pool[k].h[0] = pool[k].h[--pool[k].n];
		}
	}
}

static void session(const char *dev, unsigned long n)
{
	unsigned long i;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("uverbs_fuzz: %s: %s\n", dev, strerror(errno));
		exit(1);
	}
	memset(pool, 0, sizeof(pool));
	nrings = 0;
	db_key = 0;
	get_context(true);
	for (i = 0; i < n; i++)
		one_call();
	if (chance(50))
		session_cleanup();
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long n = 10000, per = 500, done, seed = 1;
	const char *dev = NULL;
	int opt, c, e;

	while ((opt = getopt(argc, argv, "d:n:s:S:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'S': per = strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (!dev || !per) {
		fprintf(stderr, "usage: uverbs_fuzz -d /dev/infiniband/uverbsN [-n CALLS] [-s SEED] [-S PER_SESSION]\n");
		return 2;
	}
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	m.arena = mmap(NULL, ARENA_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m.ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m.hole = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	m.resp = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m.arena == MAP_FAILED || m.ro == MAP_FAILED ||
	    m.hole == MAP_FAILED || m.resp == MAP_FAILED)
		return 1;
	munmap(m.hole, PAGE);
	rnd_bytes(m.arena, ARENA_PAGES * PAGE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (done = 0; done < n; done += per)
		session(dev, per < n - done ? per : n - done);
	printf("uverbs_fuzz %s: %lu calls, seed %lu\n", dev, calls, seed);
	for (c = 0; c <= NCMD; c++) {
		char line[1024];
		int len;
		unsigned long tot = 0;

		for (e = 0; e <= NERR; e++)
			tot += results[c][e];
		if (!tot)
			continue;
		len = snprintf(line, sizeof(line), "  %-14s %6lu: ok %lu",
			       c == NCMD ? "mmap" : cmd_names[c] ?: "?", tot,
			       results[c][0]);
		for (e = 1; e <= NERR; e++)
			if (results[c][e] && len < (int)sizeof(line))
				len += snprintf(line + len, sizeof(line) - len,
						", %s %lu", e == NERR ? "other" :
						strerrorname_np(e),
						results[c][e]);
		puts(line);
	}
	puts(inconsistent ? "inconsistent" : "consistent");
	return inconsistent ? 1 : 0;
}
