// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * faultwalk: fail each fault point of an RDMA operation in turn. Not part
 * of the driver; the harness builds it into the run directory.
 *
 * For each operation named, and n = 1, 2, ...: what the operation needs is
 * made, /proc/thread-self/fail-nth is set to n, the one call is made, and
 * fail-nth is read back. 0 means the n-th fault point the call passed (an
 * allocation through failslab or fail_page_alloc, or a user copy through
 * fail_usercopy) failed. The call must then return an errno, or succeed
 * when something tolerated the failure; whatever it made is destroyed,
 * and the engine's objects (the simulator's state files named with -s)
 * must be back to the baseline. The walk of an operation ends at the first
 * n the call no longer reaches, which it must then pass: n - 1 points.
 * The RDMA resources (rdma res) must be back to the baseline after each
 * walk. Nothing runs between writing fail-nth and the call (the heap is
 * grown and all memory locked beforehand, so that malloc makes no system
 * call); a library call that makes several system calls is walked
 * through all of them, as a program meets it.
 *
 * Operations: NAME walks the creation of an object, NAME- its destruction
 * (a destroy that fails must return an errno and work when tried again).
 *   user verbs (-d DEV, libibverbs and libirdma): ctx pd cq qp_rc qp_ud
 *     mr mw ah mcast (attach a UD QP), rtr (an RC QP from INIT to RTR)
 *   kernel verbs (-k, irdma_test_kfault's op file, on -d DEV): k_pd k_cq
 *     k_qp_rc k_qp_ud k_mr k_ah k_rts (an RC QP to RTS), and k_nop (the
 *     points of the op file's write alone)
 *   connection manager (librdmacm, loopback on -a ADDR, port -p PORT):
 *     listen connect accept reject disconnect
 *
 * Usage: faultwalk -d DEV [-a ADDR] [-p PORT] [-k OPFILE] [-s STATE]...
 *                  [-m MAX] OP...
 * Prints a line per operation, "walk OP: N points: ..."; exits 1 if any
 * check failed (saying which, on standard output), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <alloca.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/rdma_cma.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_STATES	4
#define STATE_BYTES	(1 << 20)
#define BUF_BYTES	65536
#define CM_PATIENCE_MS	20000

static struct {
	const char *dev;
	const char *addr;
	int port;
	const char *kop;
	const char *state[MAX_STATES];
	int nstate;
	unsigned int max;
	int fail_fd;
	int kop_fd;
	char *sbuf;
	void *buf;
	bool bad;
} cfg = { .addr = "192.0.2.1", .port = 7174, .max = 5000, .kop_fd = -1 };

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("faultwalk: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	exit(1);
}

/* a check that failed: say so, and go on with the walk */
static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("FAIL: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
	cfg.bad = true;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- fail-nth ---- */

/* one try of a walk: the fault point to fail, and what became of it */
struct try {
	unsigned int n;
	bool hit;
	int err;
};

static void arm(struct try *t)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", t->n);

	if (pwrite(cfg.fail_fd, b, len, 0) != len)
		die("cannot write fail-nth: %s", strerror(errno));
}

/*
 * Right after the call: was the n-th point reached (fail-nth reads 0)?
 * The read's own user copy is a fault point too; when it takes the
 * failure (EFAULT) the call did not reach the point. Then fail-nth is
 * cleared, which must leave it at 0 whatever its own copy met.
 */
static void disarm(struct try *t)
{
	char b[16] = "";
	ssize_t r;

	r = pread(cfg.fail_fd, b, sizeof(b) - 1, 0);
	t->hit = r > 0 && b[0] == '0';
	if (pwrite(cfg.fail_fd, "0", 1, 0) != 1 && errno != EFAULT)
		die("cannot clear fail-nth: %s", strerror(errno));
	memset(b, 0, sizeof(b));
	if (pread(cfg.fail_fd, b, sizeof(b) - 1, 0) <= 0 || b[0] != '0')
		die("fail-nth did not clear: '%s'", b);
}

/* ---- baselines: the engine's objects and the RDMA resources ---- */

/*
 * Append the engine objects of one state file to @out, all but its ARP
 * entries, which are added to *@arp: those follow the kernel's neighbour
 * table as well, whose entries a failed allocation may take away (the
 * driver then drops them); they may go below the baseline, not above.
 */
static void state_objects(const char *path, char *out, size_t size,
			  unsigned int *arp)
{
	size_t len = strlen(out);
	unsigned int cqs = 0;
	char *line, *save, *a, conns[32] = "?", objs[512] = "?";
	ssize_t r, got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while ((r = read(fd, cfg.sbuf + got, STATE_BYTES - 1 - got)) > 0)
		got += r;
	close(fd);
	cfg.sbuf[got] = '\0';
	for (line = strtok_r(cfg.sbuf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "objects: ", 9)) {
			snprintf(objs, sizeof(objs), "%s", line + 9);
			a = strstr(objs, " arp=");
			if (a) {
				*arp += strtoul(a + 5, NULL, 10);
				memmove(a, a + strcspn(a + 1, " ") + 1,
					strlen(a + strcspn(a + 1, " ") + 1) + 1);
			}
		}
		else if (!strncmp(line, "cq ", 3))
			cqs++;
		else if (!strncmp(line, "toe: conns=", 11))
			snprintf(conns, sizeof(conns), "%.*s",
				 (int)strcspn(line + 11, " "), line + 11);
	}
	snprintf(out + len, size - len, "[%s cqs=%u conns=%s]", objs, cqs,
		 conns);
}

static void engine_objects(char *out, size_t size, unsigned int *arp)
{
	int i;

	out[0] = '\0';
	*arp = 0;
	for (i = 0; i < cfg.nstate; i++)
		state_objects(cfg.state[i], out, size, arp);
}

/*
 * wait up to @ms for the engine objects to be @want, and its ARP entries
 * at most @want_arp; false if not
 */
static bool engine_back(const char *want, unsigned int want_arp, char *have,
			size_t size, unsigned int *arp, int ms)
{
	long end = now_ms() + ms;

	for (;;) {
		engine_objects(have, size, arp);
		if (!strcmp(have, want) && *arp <= want_arp)
			return true;
		if (now_ms() > end)
			return false;
		usleep(20000);
	}
}

static void rdma_res(char *out, size_t size)
{
	FILE *p = popen("rdma res show 2>&1", "r");
	size_t got;

	if (!p)
		die("cannot run rdma res show");
	got = fread(out, 1, size - 1, p);
	out[got] = '\0';
	pclose(p);
}

static bool res_back(const char *want, char *have, size_t size)
{
	int i;

	for (i = 0; i < 100; i++) {
		rdma_res(have, size);
		if (!strcmp(have, want))
			return true;
		usleep(200000);
	}
	return false;
}

/* ---- user verbs ---- */

enum kind {
	K_CTX, K_PD, K_CQ, K_QP_RC, K_QP_UD, K_MR, K_MW, K_AH, K_MCAST,
	K_RTR, K_NUM
};

static const char *const kind_names[K_NUM] = {
	"ctx", "pd", "cq", "qp_rc", "qp_ud", "mr", "mw", "ah", "mcast", "rtr",
};

/* what each object needs made first */
static const unsigned int kind_needs[K_NUM] = {
	[K_PD] = 1 << K_CTX,
	[K_CQ] = 1 << K_CTX,
	[K_QP_RC] = 1 << K_CTX | 1 << K_PD | 1 << K_CQ,
	[K_QP_UD] = 1 << K_CTX | 1 << K_PD | 1 << K_CQ,
	[K_MR] = 1 << K_CTX | 1 << K_PD,
	[K_MW] = 1 << K_CTX | 1 << K_PD,
	[K_AH] = 1 << K_CTX | 1 << K_PD,
	[K_MCAST] = 1 << K_CTX | 1 << K_PD | 1 << K_CQ | 1 << K_QP_UD,
	[K_RTR] = 1 << K_CTX | 1 << K_PD | 1 << K_CQ | 1 << K_QP_RC,
};

static struct {
	struct ibv_device *device;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *rc, *ud;
	struct ibv_mr *mr;
	struct ibv_mw *mw;
	struct ibv_ah *ah;
	union ibv_gid gid, mgid;
	char uverbs[96];
} u;

/* the device to open, found once (the list is kept: it holds it) */
static void find_device(void)
{
	struct ibv_device **list;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list)
		die("no RDMA devices: %s", strerror(errno));
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), cfg.dev))
			break;
	if (i == n)
		die("no RDMA device %s", cfg.dev);
	u.device = list[i];
	snprintf(u.uverbs, sizeof(u.uverbs), "/dev/infiniband/%s",
		 u.device->dev_name);
}

/* a failed call's errno; NO_ERRNO when it left none */
#define NO_ERRNO	INT_MIN

static int call_errno(void)
{
	return errno ? errno : NO_ERRNO;
}

/*
 * The walk of a user context: GET_CONTEXT through the uverbs write() ABI,
 * as libirdma asks for it, on a file of its own, closed after. Not
 * through ibv_open_device(): 6.1's ioctl GET_CONTEXT frees a context the
 * driver refused without dropping its restrack hold on the task (a task
 * leaks each time), and Debian 12's libirdma keeps the file of a context
 * it failed to set up open.
 */
static int raw_ctx(struct try *t)
{
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_get_context c;
		struct irdma_alloc_ucontext_req r;
	} cmd = {
		.h = { .command = IB_USER_VERBS_CMD_GET_CONTEXT,
		       .in_words = sizeof(cmd) / 4 },
		.r = { .userspace_ver = IRDMA_ABI_VER,
		       .comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR },
	};
	struct {
		struct ib_uverbs_get_context_resp c;
		struct irdma_alloc_ucontext_resp r;
	} resp;
	int fd, err = 0;

	fd = open(u.uverbs, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", u.uverbs, strerror(errno));
	cmd.h.out_words = sizeof(resp) / 4;
	cmd.c.response = (uintptr_t)&resp;
	memset(&resp, 0, sizeof(resp));
	if (t)
		arm(t);
	if (write(fd, &cmd, sizeof(cmd)) != sizeof(cmd))
		err = call_errno();
	if (t)
		disarm(t);
	if (!err)
		close(resp.c.async_fd);
	close(fd);
	return err;
}

static struct ibv_qp *make_qp(enum ibv_qp_type type)
{
	struct ibv_qp_init_attr a = {
		.send_cq = u.cq, .recv_cq = u.cq, .qp_type = type,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 2, .max_recv_sge = 2 },
	};

	return ibv_create_qp(u.pd, &a);
}

static int qp_to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int qp_to_rtr(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024,
		.dest_qp_num = qp->qp_num, .rq_psn = 1,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = u.gid, .hop_limit = 64 } },
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			     IBV_QP_MIN_RNR_TIMER);
}

/* a created-object errno: libibverbs returns NULL with errno set */
static int made(const void *obj)
{
	if (obj)
		return 0;
	return call_errno();
}

/* Make @k; between arm() and disarm() when @t is given */
static int user_make(enum kind k, struct try *t)
{
	struct ibv_ah_attr ah = {
		.is_global = 1, .port_num = 1,
		.grh = { .dgid = u.gid, .hop_limit = 64 },
	};
	int err = 0;

	if (t)
		arm(t);
	errno = 0;
	switch (k) {
	case K_CTX:
		err = made(u.ctx = ibv_open_device(u.device));
		break;
	case K_PD:
		err = made(u.pd = ibv_alloc_pd(u.ctx));
		break;
	case K_CQ:
		err = made(u.cq = ibv_create_cq(u.ctx, 16, NULL, NULL, 0));
		break;
	case K_QP_RC:
		err = made(u.rc = make_qp(IBV_QPT_RC));
		break;
	case K_QP_UD:
		err = made(u.ud = make_qp(IBV_QPT_UD));
		break;
	case K_MR:
		err = made(u.mr = ibv_reg_mr(u.pd, cfg.buf, BUF_BYTES,
					     IBV_ACCESS_LOCAL_WRITE |
					     IBV_ACCESS_REMOTE_WRITE |
					     IBV_ACCESS_REMOTE_READ));
		break;
	case K_MW:
		err = made(u.mw = ibv_alloc_mw(u.pd, IBV_MW_TYPE_1));
		break;
	case K_AH:
		err = made(u.ah = ibv_create_ah(u.pd, &ah));
		break;
	case K_MCAST:
		err = ibv_attach_mcast(u.ud, &u.mgid, 0);
		break;
	case K_RTR:
		err = qp_to_rtr(u.rc);
		break;
	default:
		break;
	}
	if (t)
		disarm(t);
	return err;
}

/* Destroy @k; between arm() and disarm() when @t is given */
static int user_unmake(enum kind k, struct try *t)
{
	struct ibv_qp_attr reset = { .qp_state = IBV_QPS_RESET };
	int err = 0;

	if (t)
		arm(t);
	switch (k) {
	case K_CTX:
		err = ibv_close_device(u.ctx);
		break;
	case K_PD:
		err = ibv_dealloc_pd(u.pd);
		break;
	case K_CQ:
		err = ibv_destroy_cq(u.cq);
		break;
	case K_QP_RC:
		err = ibv_destroy_qp(u.rc);
		break;
	case K_QP_UD:
		err = ibv_destroy_qp(u.ud);
		break;
	case K_MR:
		err = ibv_dereg_mr(u.mr);
		break;
	case K_MW:
		err = ibv_dealloc_mw(u.mw);
		break;
	case K_AH:
		err = ibv_destroy_ah(u.ah);
		break;
	case K_MCAST:
		err = ibv_detach_mcast(u.ud, &u.mgid, 0);
		break;
	case K_RTR:
		/* back to RESET, then INIT, for the next try */
		err = ibv_modify_qp(u.rc, &reset, IBV_QP_STATE);
		if (!err)
			err = qp_to_init(u.rc);
		break;
	default:
		break;
	}
	if (t)
		disarm(t);
	return err;
}

static void user_make_needs(unsigned int needs)
{
	int k, err;

	for (k = 0; k < K_NUM; k++) {
		if (!(needs & 1 << k))
			continue;
		err = user_make(k, NULL);
		if (err)
			die("cannot make %s: %s", kind_names[k], strerror(err));
		if (k == K_CTX && ibv_query_gid(u.ctx, 1, 0, &u.gid))
			die("no GID 0 on %s", cfg.dev);
		if (k == K_QP_RC && (err = qp_to_init(u.rc)))
			die("RC QP to INIT: %s", strerror(err));
	}
}

static void user_unmake_needs(unsigned int needs)
{
	int k, err;

	for (k = K_NUM - 1; k >= 0; k--) {
		if (!(needs & 1 << k))
			continue;
		err = user_unmake(k, NULL);
		if (err)
			bad("cannot destroy %s: %s", kind_names[k],
			    strerror(err));
	}
}

/* ---- kernel verbs: irdma_test_kfault's op file ---- */

static const char *const kern_names[] = {
	"pd", "cq", "qp_rc", "qp_ud", "mr", "ah", "rts", "nop",
};

#define KERN_NUM	(int)(sizeof(kern_names) / sizeof(kern_names[0]))

/* what each kernel object needs (bits of kern_names) */
static const unsigned int kern_needs[] = {
	0, 0, 1 << 0 | 1 << 1, 1 << 0 | 1 << 1, 1 << 0, 1 << 0,
	1 << 0 | 1 << 1 | 1 << 2, 0,
};

/* "DEV create|destroy KIND" to the op file; its errno */
static int kern_op(const char *verb, int k, struct try *t)
{
	char b[96];
	int len, err = 0;

	len = snprintf(b, sizeof(b), "%s %s %s", cfg.dev, verb,
		       kern_names[k]);
	if (t)
		arm(t);
	if (write(cfg.kop_fd, b, len) != len)
		err = call_errno();
	if (t)
		disarm(t);
	return err;
}

static void kern_needs_do(unsigned int needs, bool make)
{
	int i, k, err;

	for (i = 0; i < KERN_NUM; i++) {
		k = make ? i : KERN_NUM - 1 - i;
		if (!(needs & 1 << k))
			continue;
		err = kern_op(make ? "create" : "destroy", k, NULL);
		if (err && make)
			die("kernel %s: %s", kern_names[k], strerror(err));
		if (err)
			bad("kernel %s destroy: %s", kern_names[k],
			    strerror(err));
	}
}

/* ---- the connection manager ---- */

struct cm_end {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	bool qp;
};

static struct {
	struct cm_end lis, cli, srv;
	struct sockaddr_in sa;
} c;

/* the next event on @ch within @ms, acked; -1 when none came */
static int cm_event(struct rdma_event_channel *ch, int ms,
		    struct rdma_cm_id **id, int *status)
{
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int type;

	if (poll(&p, 1, ms) != 1 || rdma_get_cm_event(ch, &ev))
		return -1;
	type = ev->event;
	if (id)
		*id = ev->event == RDMA_CM_EVENT_CONNECT_REQUEST ?
		      ev->id : NULL;
	if (status)
		*status = ev->status;
	rdma_ack_cm_event(ev);
	return type;
}

static void cm_channel(struct cm_end *e)
{
	e->ch = rdma_create_event_channel();
	if (!e->ch)
		die("rdma_create_event_channel: %s", strerror(errno));
	if (fcntl(e->ch->fd, F_SETFL, O_NONBLOCK))
		die("event channel: %s", strerror(errno));
}

static void cm_listen_up(void)
{
	cm_channel(&c.lis);
	if (rdma_create_id(c.lis.ch, &c.lis.id, NULL, RDMA_PS_TCP))
		die("rdma_create_id: %s", strerror(errno));
	if (rdma_bind_addr(c.lis.id, (struct sockaddr *)&c.sa))
		die("rdma_bind_addr %s: %s", cfg.addr, strerror(errno));
	if (rdma_listen(c.lis.id, 8))
		die("rdma_listen: %s", strerror(errno));
}

/* a QP on @e's id, with a PD and CQ of its own */
static void cm_qp(struct cm_end *e)
{
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	e->pd = ibv_alloc_pd(e->id->verbs);
	e->cq = e->pd ? ibv_create_cq(e->id->verbs, 8, NULL, NULL, 0) : NULL;
	if (!e->cq)
		die("PD or CQ for the CM: %s", strerror(errno));
	a.send_cq = e->cq;
	a.recv_cq = e->cq;
	if (rdma_create_qp(e->id, e->pd, &a))
		die("rdma_create_qp: %s", strerror(errno));
	e->qp = true;
}

static void cm_end_free(struct cm_end *e)
{
	if (e->qp)
		rdma_destroy_qp(e->id);
	if (e->id && rdma_destroy_id(e->id))
		bad("rdma_destroy_id: %s", strerror(errno));
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ch)
		rdma_destroy_event_channel(e->ch);
	memset(e, 0, sizeof(*e));
}

/* the client's id with its address and route resolved, and its QP */
static void cm_client(void)
{
	cm_channel(&c.cli);
	if (rdma_create_id(c.cli.ch, &c.cli.id, NULL, RDMA_PS_TCP))
		die("rdma_create_id: %s", strerror(errno));
	if (rdma_resolve_addr(c.cli.id, NULL, (struct sockaddr *)&c.sa, 5000))
		die("rdma_resolve_addr: %s", strerror(errno));
	if (cm_event(c.cli.ch, CM_PATIENCE_MS, NULL, NULL) !=
	    RDMA_CM_EVENT_ADDR_RESOLVED)
		die("address not resolved");
	if (rdma_resolve_route(c.cli.id, 5000))
		die("rdma_resolve_route: %s", strerror(errno));
	if (cm_event(c.cli.ch, CM_PATIENCE_MS, NULL, NULL) !=
	    RDMA_CM_EVENT_ROUTE_RESOLVED)
		die("route not resolved");
	cm_qp(&c.cli);
}

static int cm_connect(struct try *t)
{
	struct rdma_conn_param p = {
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	int err = 0;

	if (t)
		arm(t);
	if (rdma_connect(c.cli.id, &p))
		err = call_errno();
	if (t)
		disarm(t);
	return err;
}

/*
 * Wait for event @want on the listener's channel (its own, and those of
 * the ids of its connections), skipping what earlier tries left; a
 * request is kept in c.srv, with a QP. False if it did not come.
 */
static bool cm_listener_wait(int want)
{
	long end = now_ms() + CM_PATIENCE_MS;
	struct rdma_cm_id *id;
	int ev;

	while (now_ms() < end) {
		ev = cm_event(c.lis.ch, end - now_ms(), &id, NULL);
		if (ev == RDMA_CM_EVENT_CONNECT_REQUEST && want == ev) {
			/* the child's events come on the listener's channel */
			c.srv.id = id;
			cm_qp(&c.srv);
			return true;
		}
		if (ev == RDMA_CM_EVENT_CONNECT_REQUEST)
			rdma_destroy_id(id);
		else if (ev == want)
			return true;
	}
	return false;
}

static bool cm_request(void)
{
	return cm_listener_wait(RDMA_CM_EVENT_CONNECT_REQUEST);
}

static int cm_accept(struct try *t)
{
	struct rdma_conn_param p = {
		.responder_resources = 1, .initiator_depth = 1,
	};
	int err = 0;

	if (t)
		arm(t);
	if (rdma_accept(c.srv.id, &p))
		err = call_errno();
	if (t)
		disarm(t);
	return err;
}

/*
 * The end of a connection attempt: the client's next event must come
 * (an attempt that neither connects nor fails is a hang) and be @want or
 * a connection error.
 */
static int cm_client_check(const char *what, int want, int ev, int status)
{
	if (ev < 0) {
		bad("%s: the client heard nothing in %d s", what,
		    CM_PATIENCE_MS / 1000);
		return -1;
	}
	if (ev != want && ev != RDMA_CM_EVENT_REJECTED &&
	    ev != RDMA_CM_EVENT_CONNECT_ERROR &&
	    ev != RDMA_CM_EVENT_UNREACHABLE)
		bad("%s: the client heard %s (%d)", what, rdma_event_str(ev),
		    status);
	return ev;
}

static int cm_client_result(const char *what, int want)
{
	int ev, status = 0;

	ev = cm_event(c.cli.ch, CM_PATIENCE_MS, NULL, &status);
	return cm_client_check(what, want, ev, status);
}

/*
 * As cm_client_result(), after an accept or reject that may have ended
 * with our RST: the client may then try again with MPA v1, as the CM
 * does after a reset during its MPA request. A request that comes
 * meanwhile is rejected (unarmed), and the client hears that.
 */
static int cm_client_answer(const char *what, int want)
{
	long end = now_ms() + CM_PATIENCE_MS;
	struct rdma_cm_id *id;
	int ev, status = 0;

	while (now_ms() < end) {
		ev = cm_event(c.cli.ch, 100, NULL, &status);
		if (ev >= 0)
			return cm_client_check(what, want, ev, status);
		if (cm_event(c.lis.ch, 0, &id, NULL) ==
		    RDMA_CM_EVENT_CONNECT_REQUEST && id) {
			rdma_reject(id, NULL, 0);
			rdma_destroy_id(id);
		}
	}
	return cm_client_check(what, want, -1, 0);
}

/* the passive side's ESTABLISHED, once the client has its own */
static void cm_server_result(const char *what)
{
	if (!cm_listener_wait(RDMA_CM_EVENT_ESTABLISHED))
		bad("%s: the server heard no ESTABLISHED in %d s", what,
		    CM_PATIENCE_MS / 1000);
}

/* close an established connection from the client: both hear of it */
static void cm_disconnect_both(void)
{
	if (rdma_disconnect(c.cli.id))
		bad("rdma_disconnect: %s", strerror(errno));
	if (cm_event(c.cli.ch, CM_PATIENCE_MS, NULL, NULL) !=
	    RDMA_CM_EVENT_DISCONNECTED)
		bad("disconnect: the client heard no DISCONNECTED");
	if (!cm_listener_wait(RDMA_CM_EVENT_DISCONNECTED))
		bad("disconnect: the server heard no DISCONNECTED");
}

/* drop whatever the listener still hears: requests of attempts gone */
static void cm_drain_listener(int ms)
{
	struct rdma_cm_id *id;
	int ev;

	while ((ev = cm_event(c.lis.ch, ms, &id, NULL)) >= 0)
		if (ev == RDMA_CM_EVENT_CONNECT_REQUEST && id)
			rdma_destroy_id(id);
}

static void cm_end_try(void)
{
	cm_end_free(&c.srv);
	cm_end_free(&c.cli);
	cm_drain_listener(50);
}

/* one connection, established unarmed; false if it could not be */
static bool cm_establish(void)
{
	cm_client();
	if (cm_connect(NULL) || !cm_request() || cm_accept(NULL) ||
	    cm_client_result("connect", RDMA_CM_EVENT_ESTABLISHED) !=
	    RDMA_CM_EVENT_ESTABLISHED) {
		bad("a connection without failures did not establish");
		cm_end_try();
		return false;
	}
	cm_server_result("accept");
	return true;
}

enum cm_op { CM_LISTEN, CM_CONNECT, CM_ACCEPT, CM_REJECT, CM_DISCONNECT };

static int cm_try(enum cm_op op, struct try *t)
{
	struct rdma_cm_id *id;
	int err = 0;

	switch (op) {
	case CM_LISTEN:
		cm_channel(&c.cli);
		if (rdma_create_id(c.cli.ch, &id, NULL, RDMA_PS_TCP))
			die("rdma_create_id: %s", strerror(errno));
		c.sa.sin_port = htons(cfg.port + 1);
		if (rdma_bind_addr(id, (struct sockaddr *)&c.sa))
			die("rdma_bind_addr: %s", strerror(errno));
		c.sa.sin_port = htons(cfg.port);
		if (t)
			arm(t);
		if (rdma_listen(id, 8))
			err = call_errno();
		if (t)
			disarm(t);
		c.cli.id = id;
		break;
	case CM_CONNECT:
		cm_client();
		err = cm_connect(t);
		if (err)
			break;
		/* a connect that went out may still fail cleanly */
		if (!cm_request()) {
			cm_client_result("connect", RDMA_CM_EVENT_ESTABLISHED);
			break;
		}
		if (cm_accept(NULL)) {
			bad("accept without failures: %s", strerror(errno));
			break;
		}
		if (cm_client_result("connect", RDMA_CM_EVENT_ESTABLISHED) ==
		    RDMA_CM_EVENT_ESTABLISHED) {
			cm_server_result("accept");
			cm_disconnect_both();
		}
		break;
	case CM_ACCEPT:
	case CM_REJECT:
		cm_client();
		if (cm_connect(NULL) || !cm_request()) {
			bad("no connect request without failures");
			break;
		}
		if (op == CM_ACCEPT) {
			err = cm_accept(t);
		} else {
			if (t)
				arm(t);
			if (rdma_reject(c.srv.id, NULL, 0))
				err = call_errno();
			if (t)
				disarm(t);
		}
		if (err) {
			/* the request is dropped: the client must hear of it */
			cm_end_free(&c.srv);
			cm_client_answer("failed accept or reject",
					 RDMA_CM_EVENT_REJECTED);
			break;
		}
		if (op == CM_REJECT) {
			cm_client_answer("reject", RDMA_CM_EVENT_REJECTED);
			break;
		}
		if (cm_client_result("accept", RDMA_CM_EVENT_ESTABLISHED) ==
		    RDMA_CM_EVENT_ESTABLISHED) {
			cm_server_result("accept");
			cm_disconnect_both();
		}
		break;
	case CM_DISCONNECT:
		if (!cm_establish())
			return -1;
		if (t)
			arm(t);
		if (rdma_disconnect(c.cli.id))
			err = call_errno();
		if (t)
			disarm(t);
		/* a disconnect that failed is tried again unarmed */
		if (err && rdma_disconnect(c.cli.id))
			bad("disconnect after a failed one: %s",
			    strerror(errno));
		/* both ends must hear of the close */
		if (cm_event(c.cli.ch, CM_PATIENCE_MS, NULL, NULL) !=
		    RDMA_CM_EVENT_DISCONNECTED)
			bad("disconnect: the client heard no DISCONNECTED");
		if (!cm_listener_wait(RDMA_CM_EVENT_DISCONNECTED))
			bad("disconnect: the server heard no DISCONNECTED");
		break;
	}
	cm_end_try();
	return err;
}

/* ---- walks ---- */

struct op {
	const char *name;
	int kind;		/* K_* for verbs, index of kern_names, cm_op */
	enum { USER, KERN, CM } where;
	bool destroy;		/* walk the destruction */
};

/* one try of @o at fault point @t->n (NULL: unarmed); the call's errno */
static int op_try(const struct op *o, struct try *t)
{
	int err, err2;

	if (o->where == CM)
		return cm_try(o->kind, t);
	if (o->where == KERN) {
		if (!o->destroy) {
			err = kern_op("create", o->kind, t);
			if (!err && kern_op("destroy", o->kind, NULL))
				bad("kernel %s: destroy failed", o->name);
			return err;
		}
		err = kern_op("create", o->kind, NULL);
		if (err)
			die("kernel %s: %s", o->name, strerror(err));
		/*
		 * a kernel destroy cannot fail: only the write of the op
		 * file can, and then the object stays for a second try
		 */
		err = kern_op("destroy", o->kind, t);
		if (err && (err2 = kern_op("destroy", o->kind, NULL)))
			bad("kernel %s: destroy failed again: %s", o->name,
			    strerror(err2));
		return err;
	}
	if (o->kind == K_CTX && !o->destroy)
		return raw_ctx(t);
	if (!o->destroy) {
		err = user_make(o->kind, t);
		if (!err && (err2 = user_unmake(o->kind, NULL)))
			bad("%s: destroy failed: %s", o->name, strerror(err2));
		return err;
	}
	/* a destroy is walked in a context of its own each time */
	user_make_needs(kind_needs[o->kind]);
	err = user_make(o->kind, NULL);
	if (err)
		die("%s: %s", o->name, strerror(err));
	err = user_unmake(o->kind, t);
	if (!err && !(t && t->hit)) {
		user_unmake_needs(kind_needs[o->kind]);
		return 0;
	}
	/*
	 * A destroy that failed must work when tried again, or find the
	 * object gone: the core destroys it before it writes the reply,
	 * and a reply that cannot be written fails the call. libirdma then
	 * keeps the registration of the object's rings, on the PD, as it
	 * does when their deregistration fails (it ignores that): the
	 * context's close must take what is left.
	 */
	err2 = err ? user_unmake(o->kind, NULL) : 0;
	if (err2 && err2 != ENOENT)
		bad("%s: destroy failed again: %s", o->name, strerror(err2));
	if (ibv_close_device(u.ctx))
		bad("%s: closing the context: %s", o->name, strerror(errno));
	return err;
}

static void op_needs(const struct op *o, bool make)
{
	if (o->where == USER) {
		if (o->destroy || o->kind == K_CTX)
			return;
		if (make)
			user_make_needs(kind_needs[o->kind]);
		else
			user_unmake_needs(kind_needs[o->kind]);
	} else if (o->where == KERN) {
		kern_needs_do(kern_needs[o->kind], make);
	} else if (make) {
		cm_listen_up();
	} else {
		cm_end_free(&c.lis);
	}
}

/*
 * errnos the failures returned, by errno; then the calls that left none
 * and those that left a value no errno has
 */
#define ERRS	134
#define ERR_NONE	ERRS
#define ERR_BAD		(ERRS + 1)

static void walk(const struct op *o)
{
	static char base[8192], have[8192], res0[8192], res1[8192];
	unsigned int errs[ERR_BAD + 1] = { 0 }, hits = 0, tolerated = 0, i;
	unsigned int arp0, arp;
	struct try t = { 0 };
	long t0 = now_ms();
	char line[512];
	int len;

	rdma_res(res0, sizeof(res0));
	op_needs(o, true);
	/* one try unarmed: caches the operation fills stay in the baseline */
	if (op_try(o, NULL))
		bad("%s fails without an injected failure", o->name);
	engine_objects(base, sizeof(base), &arp0);
	for (t.n = 1; t.n <= cfg.max; t.n++) {
		t.err = op_try(o, &t);
		if (!engine_back(base, arp0, have, sizeof(have), &arp, 10000))
			bad("%s, point %u: engine objects %s arp=%u, not %s arp<=%u",
			    o->name, t.n, have, arp, base, arp0);
		if (!t.hit) {
			if (t.err)
				bad("%s fails (%s) beyond its %u points",
				    o->name, strerror(t.err), t.n - 1);
			break;
		}
		hits++;
		if (!t.err)
			tolerated++;
		else
			errs[t.err > 0 && t.err < ERRS ? t.err :
			     t.err == NO_ERRNO ? ERR_NONE : ERR_BAD]++;
	}
	if (t.n > cfg.max)
		bad("%s: still failing at point %u", o->name, cfg.max);
	op_needs(o, false);
	if (!res_back(res0, res1, sizeof(res1)))
		bad("%s: RDMA resources %s, not %s", o->name, res1, res0);
	len = snprintf(line, sizeof(line), "walk %s: %u points:", o->name,
		       hits);
	for (i = 0; i <= ERR_BAD; i++)
		if (errs[i] && len < (int)sizeof(line))
			len += snprintf(line + len, sizeof(line) - len,
					" %s %u", i == ERR_NONE ? "no-errno" :
					i == ERR_BAD ? "not-an-errno" :
					strerrorname_np(i), errs[i]);
	printf("%s, tolerated %u (%.1f s)\n", line, tolerated,
	       (now_ms() - t0) / 1000.0);
	fflush(stdout);
}

static bool parse_op(const char *arg, struct op *o)
{
	static const char *const cm_names[] = {
		"listen", "connect", "accept", "reject", "disconnect",
	};
	size_t len = strlen(arg);
	int i;

	memset(o, 0, sizeof(*o));
	o->name = arg;
	o->destroy = len && arg[len - 1] == '-';
	len -= o->destroy;
	for (i = 0; i < K_NUM; i++)
		if (strlen(kind_names[i]) == len &&
		    !strncmp(arg, kind_names[i], len)) {
			o->where = USER;
			o->kind = i;
			return true;
		}
	for (i = 0; i < KERN_NUM; i++)
		if (len > 2 && !strncmp(arg, "k_", 2) &&
		    strlen(kern_names[i]) == len - 2 &&
		    !strncmp(arg + 2, kern_names[i], len - 2)) {
			o->where = KERN;
			o->kind = i;
			return true;
		}
	for (i = 0; i < 5 && !o->destroy; i++)
		if (!strcmp(arg, cm_names[i])) {
			o->where = CM;
			o->kind = i;
			return true;
		}
	return false;
}

/*
 * No system call of our own between arm() and the call: malloc gets a
 * heap grown beforehand and never trimmed, and every page, the stack's
 * included, is locked in now and as mapped (no page fault allocates a
 * page table under the walk).
 */
static void quiet_memory(void)
{
	volatile char *stack = alloca(256 << 10);

	memset((char *)stack, 0, 256 << 10);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	mallopt(M_TOP_PAD, 16 << 20);
	free(malloc(16 << 20));
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	struct op o;
	int opt, i;

	while ((opt = getopt(argc, argv, "d:a:p:k:s:m:")) != -1) {
		switch (opt) {
		case 'd': cfg.dev = optarg; break;
		case 'a': cfg.addr = optarg; break;
		case 'p': cfg.port = atoi(optarg); break;
		case 'k': cfg.kop = optarg; break;
		case 'm': cfg.max = atoi(optarg); break;
		case 's':
			if (cfg.nstate == MAX_STATES)
				return 2;
			cfg.state[cfg.nstate++] = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!cfg.dev || optind == argc) {
		fprintf(stderr, "usage: faultwalk -d DEV [-a ADDR] [-p PORT] [-k OPFILE] [-s STATE]... [-m MAX] OP...\n");
		return 2;
	}
	for (i = optind; i < argc; i++)
		if (!parse_op(argv[i], &o)) {
			fprintf(stderr, "faultwalk: no operation %s\n", argv[i]);
			return 2;
		}
	setvbuf(stdout, NULL, _IOLBF, 0);
	cfg.sbuf = malloc(STATE_BYTES);
	if (posix_memalign(&cfg.buf, 4096, BUF_BYTES) || !cfg.sbuf)
		die("out of memory");
	memset(cfg.buf, 0, BUF_BYTES);
	c.sa.sin_family = AF_INET;
	c.sa.sin_port = htons(cfg.port);
	if (inet_pton(AF_INET, cfg.addr, &c.sa.sin_addr) != 1)
		die("not an IPv4 address: %s", cfg.addr);
	/* ff0e::1:2, a multicast group of global scope */
	u.mgid.raw[0] = 0xff;
	u.mgid.raw[1] = 0x0e;
	u.mgid.raw[13] = 0x01;
	u.mgid.raw[15] = 0x02;
	cfg.fail_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (cfg.fail_fd < 0)
		die("/proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION?)",
		    strerror(errno));
	if (cfg.kop) {
		cfg.kop_fd = open(cfg.kop, O_WRONLY | O_CLOEXEC);
		if (cfg.kop_fd < 0)
			die("%s: %s", cfg.kop, strerror(errno));
	}
	find_device();
	/*
	 * librdmacm opens a device's context and PD when an id first binds
	 * to it and keeps them: one listener before the walks puts them in
	 * every walk's baseline of RDMA resources.
	 */
	for (i = optind; i < argc; i++)
		if (parse_op(argv[i], &o) && o.where == CM) {
			cm_listen_up();
			cm_end_free(&c.lis);
			break;
		}
	quiet_memory();
	for (i = optind; i < argc; i++) {
		parse_op(argv[i], &o);
		if (o.where == KERN && cfg.kop_fd < 0)
			die("%s needs -k", o.name);
		walk(&o);
	}
	return cfg.bad ? 1 : 0;
}
