// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * KUnit: seeded, reproducible mutations of valid TCP/MPA segments fed to a
 * CM core parked in each state (suite irdma_cm_fuzz). Segments of three
 * peers interleave (the parked connection's and two more), and an MPA
 * frame may come split over two segments, mutated at the split. The
 * strict iw_cm model stays armed; after each batch every node, event and
 * timer must be gone. 13 states x 8 batches x 1000 segments by default;
 * the module parameter cm_fuzz_batches makes a long run (77: 10^6), in the
 * harness: IRDMA_VM_APPEND=irdma.cm_fuzz_batches=77 tools/irdma-vm test
 * --no-static --guest kunit (the guest's modprobe passes the option on).
 */
#include <linux/moduleparam.h>

#include "cm_fake.h"

#define CMT_FUZZ_SEED		0x1d3a2026u
#define CMT_FUZZ_PER_BATCH	1000
#define CMT_FUZZ_BATCHES	8

static unsigned int cm_fuzz_batches = CMT_FUZZ_BATCHES;
module_param(cm_fuzz_batches, uint, 0444);
MODULE_PARM_DESC(cm_fuzz_batches,
		 "KUnit irdma_cm_fuzz: batches of 1000 segments per CM state (default 8)");

/*
 * The batches asked for. Suites linked into a module run from its
 * MODULE_STATE_COMING notifier, before load_module() parses the module's
 * parameters: cm_fuzz_batches still holds its default then, and the value
 * is read from the load's arguments (THIS_MODULE->args) instead.
 */
static const char *cmt_fuzz_load_args(void)
{
#ifdef MODULE
	return THIS_MODULE->args;
#else
	return NULL;
#endif
}

static unsigned int cmt_fuzz_batches(void)
{
	static const char key[] = "cm_fuzz_batches=";
	const char *args = cmt_fuzz_load_args();
	const char *p = args ? strstr(args, key) : NULL;
	unsigned int n;

	if (!p || (p != args && p[-1] != ' ') ||
	    sscanf(p + sizeof(key) - 1, "%u", &n) != 1)
		return cm_fuzz_batches;
	return n;
}

/**
 * struct cmt_fuzz_target - a state to park the core in
 * @name: state
 * @steps: script that gets there
 */
struct cmt_fuzz_target {
	const char *name;
	const struct cmt_step *steps;
};

#define TARGET(n, ...) { n, (const struct cmt_step[]){ __VA_ARGS__, END() } }

static const struct cmt_fuzz_target cmt_fuzz_targets[] = {
	TARGET("LISTEN", CALL(C_LISTEN, 0)),
	TARGET("SYN_SENT", SUB(a_synsent)),
	TARGET("SYN_RCVD", SUB(p_synrcvd)),
	TARGET("ESTABLISHED", SUB(p_estab)),
	TARGET("MPAREQ_SENT", SUB(a_reqsent)),
	TARGET("MPAREQ_RCVD", SUB(p_reqrcvd)),
	TARGET("MPAREJ_RCVD", SUB(a_rejrcvd)),
	TARGET("OFFLOADED", SUB(a_offloaded)),
	TARGET("FIN_WAIT1", SUB(p_finwait1)),
	TARGET("FIN_WAIT2", SUB(p_finwait2)),
	TARGET("CLOSING", SUB(p_closing)),
	TARGET("LAST_ACK", SUB(p_lastack)),
	TARGET("TIME_WAIT", SUB(p_timewait)),
};

static void cmt_fuzz_desc(const struct cmt_fuzz_target *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_fuzz, cmt_fuzz_targets, cmt_fuzz_desc);

static const u32 cmt_fuzz_rel[] = { 0, 1, 2, 1 + LREQ, 2 + LREQ, 1 + LOREQ,
				    2 + LOREQ, 1 + LREJ, 2 + LOREJ, 21 };

/* the peers' ports: mostly the parked connection's, and two more */
static const u16 cmt_fuzz_ports[] = { 5000, 5000, 5000, 5001, 5002 };

/*
 * An MPA frame split over two segments at a random point, a byte near the
 * split (in either) changed: the second segment goes to @b2, its length to
 * @len2. Returns the first one's length.
 */
static u32 cmt_fuzz_split(const struct cmt_raw *raw, struct rnd_state *rs,
			  u8 *b, u8 *b2, u32 *len2)
{
	struct cmt_raw r1 = *raw, r2 = *raw;
	u32 k = 1 + prandom_u32_state(rs) % (raw->paylen - 1), len1;
	u32 at = prandom_u32_state(rs) % 8;

	r1.paylen = k;
	r2.pay += k;
	r2.paylen -= k;
	r2.seq += k;
	len1 = cmt_raw_build(&r1, b);
	*len2 = cmt_raw_build(&r2, b2);
	/* the payload starts at 54: Ethernet, IPv4 and TCP, no options */
	if (at < 4 && k > at)
		b[len1 - 1 - at] = prandom_u32_state(rs);
	else if (at >= 4 && r2.paylen > at - 4)
		b2[54 + at - 4] = prandom_u32_state(rs);
	return len1;
}

/*
 * One valid segment of the kinds a peer sends, then mutated; or, split,
 * two (the second in @b2, its length in @len2, else 0).
 */
static u32 cmt_fuzz_frame(struct cmt_sctx *sc, struct rnd_state *rs, u8 *b,
			  u8 *b2, u32 *len2)
{
	static const u8 flagsets[] = { F_S, F_SA, F_A, F_PA, F_FA, F_R, F_RA,
				       F_PA | F_F };
	static const u8 *const pays[] = { S_REQ, S_REP, S_REJ, S_REQ_V1,
					  S_REQ_A };
	static const u8 paylens[] = { sizeof(S_REQ), sizeof(S_REP),
				      sizeof(S_REJ), sizeof(S_REQ_V1),
				      sizeof(S_REQ_A) };
	u32 r = prandom_u32_state(rs), p = r % ARRAY_SIZE(pays), len, n, i;
	struct cmt_raw raw = {
		.vlan = IRDMA_CM_NO_VLAN, .src = 2, .dst = 1,
		.sport = cmt_fuzz_ports[(r >> 28) % ARRAY_SIZE(cmt_fuzz_ports)],
		.dport = 4000, .flags = flagsets[(r >> 4) % ARRAY_SIZE(flagsets)],
		.seq = PISN + cmt_fuzz_rel[(r >> 8) % ARRAY_SIZE(cmt_fuzz_rel)],
		.ack = sc->isn + cmt_fuzz_rel[(r >> 12) % ARRAY_SIZE(cmt_fuzz_rel)],
	};

	*len2 = 0;
	if (raw.flags & TCPHDR_SYN) {
		raw.opts = S_OPT;
		raw.optlen = sizeof(S_OPT);
	} else if (raw.flags & TCPHDR_PSH) {
		raw.pay = pays[p];
		raw.paylen = paylens[p];
		/* one in seven split over two segments */
		if ((r >> 16) % 7 == 6 && raw.paylen > 1)
			return cmt_fuzz_split(&raw, rs, b, b2, len2);
	}
	len = cmt_raw_build(&raw, b);
	switch ((r >> 16) % 7) {
	case 0:		/* flip bytes anywhere past Ethernet */
		n = 1 + (r >> 20) % 4;
		for (i = 0; i < n; i++)
			b[14 + prandom_u32_state(rs) % (len - 14)] ^=
				1 << (prandom_u32_state(rs) % 8);
		break;
	case 1:		/* truncate */
		len = prandom_u32_state(rs) % (len + 1);
		break;
	case 2:		/* any flags */
		b[14 + 20 + 13] = prandom_u32_state(rs);
		break;
	case 3:		/* sequence numbers near the edges */
		put_unaligned_be32(raw.seq + (s8)(r >> 20), b + 14 + 20 + 4);
		put_unaligned_be32(raw.ack + (s8)(r >> 24), b + 14 + 20 + 8);
		break;
	case 4:		/* payload or option bytes */
		if (len > 54)
			b[54 + prandom_u32_state(rs) % (len - 54)] =
				prandom_u32_state(rs);
		break;
	default:	/* as is */
		break;
	}
	return len;
}

/* Bring the core back to nothing, checking nothing leaked. */
static void cmt_fuzz_reset(struct cmt_sctx *sc)
{
	struct cmt_env *env = sc->env;
	int i;

	if (sc->lid && sc->lid->state == CMT_LISTEN)
		cmt_unlisten(sc->lid);
	irdma_cm_teardown_connections(env->a.core, NULL, false);
	cmt_advance(env, CMT_GIVE_UP_MS);
	for (i = 0; i < CMT_IDS; i++)
		if (env->ids[i].used && env->ids[i].state == CMT_CONN_RECV &&
		    env->ids[i].id.provider_data)
			cmt_reject(&env->ids[i], NULL, 0);
	cmt_advance(env, CMT_GIVE_UP_MS);
	cmt_check_core(env->test, &env->a);
	for (i = 0; i < CMT_IDS; i++) {
		KUNIT_EXPECT_EQ(env->test, env->ids[i].refs, 0);
		env->ids[i].used = false;
	}
	cmt_free_list(&env->out);
	env->ev_head = 0;
	env->ev_tail = 0;
	env->nact = 0;
	memset(sc, 0, sizeof(*sc));
	sc->env = env;
}

static void irdma_cm_fuzz_receive(struct kunit *test)
{
	const struct cmt_fuzz_target *t = test->param_value;
	struct cmt_env *env = test->priv;
	struct cmt_sctx sc = { .env = env };
	u32 batches = cmt_fuzz_batches(), batch, i, len, len2, fed = 0;
	struct rnd_state rs;
	u8 *b, *b2;

	b = kunit_kzalloc(test, CMT_RAW_MAX, GFP_KERNEL);
	b2 = kunit_kzalloc(test, CMT_RAW_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, b2);
	env->a.peer = NULL;
	prandom_seed_state(&rs, CMT_FUZZ_SEED ^ (u32)(t - cmt_fuzz_targets));
	for (batch = 0; batch < batches; batch++) {
		cmt_script_exec(&sc, t->steps);
		env->no_record = true;
		if (sc.lid)
			sc.lid->ulp_fail = BIT(IW_CM_EVENT_CONNECT_REQUEST);
		for (i = 0; i < CMT_FUZZ_PER_BATCH; i++) {
			len = cmt_fuzz_frame(&sc, &rs, b, b2, &len2);
			irdma_receive_ilq(env->a.core, b, len, NULL);
			fed++;
			if (len2) {
				irdma_receive_ilq(env->a.core, b2, len2, NULL);
				fed++;
			}
			if ((i & 63) == 63) {
				cmt_pump(env);
				cmt_free_list(&env->out);
			}
		}
		cmt_pump(env);
		env->no_record = false;
		cmt_fuzz_reset(&sc);
		if (test->status == KUNIT_FAILURE)
			break;
	}
	kunit_info(test, "fuzz %s: %u mutated segments (seed 0x%x)\n", t->name,
		   fed, CMT_FUZZ_SEED);
}

static struct kunit_case irdma_cm_fuzz_cases[] = {
	KUNIT_CASE_PARAM(irdma_cm_fuzz_receive, cmt_fuzz_gen_params),
	{}
};

static struct kunit_suite irdma_cm_fuzz_suite = {
	.name = "irdma_cm_fuzz",
	.init = cmt_init,
	.exit = cmt_exit,
	.test_cases = irdma_cm_fuzz_cases,
};

kunit_test_suite(irdma_cm_fuzz_suite);
