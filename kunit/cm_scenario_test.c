// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * KUnit: the CM state machine (suites irdma_cm_script and irdma_cm_wire).
 *
 * irdma_cm_script plays the peer by hand: each case is a table of steps
 * (feed a segment, expect a segment, advance the virtual clock, call an
 * iw_cm op, expect an event, expect silence). Sequence numbers in steps are
 * relative: ours to our ISN, the peer's to PISN.
 *
 * irdma_cm_wire puts two CM cores back to back on the fake wire.
 */
#include "cm_fake.h"

#define PISN	1000000u

enum cmt_op {
	T_END,
	T_IN,
	T_OUT,
	T_ADV,
	T_CALL,
	T_EV,
	T_NONE,
	T_STATE,
	T_SUB,
	T_QP,
};

enum cmt_call {
	C_LISTEN,
	C_UNLISTEN,
	C_CONNECT,
	C_ACCEPT,
	C_REJECT,
	C_DISC,
	C_ACCEPT_BADQP,
	C_FAIL_CLOSE,
	C_FAIL_QHASH,
};

#define OUT_ANYPAY	1
/* the step checks the last frame sent; those before it go unchecked */
#define OUT_LASTF	2

/**
 * struct cmt_step - one step of a script
 * @op: enum cmt_op
 * @flags: TCP flags (IN, OUT)
 * @seq: relative sequence number; for C_DISC the cause
 * @ack: relative acknowledgment number
 * @pay: payload to send or expect
 * @paylen: its length
 * @opts: TCP options to send
 * @optlen: their length
 * @port: peer port (0: 5000)
 * @arg: ms (ADV), call (CALL), event (EV), state (STATE)
 * @rc: return code (CALL), status (EV), OUT_ANYPAY (OUT)
 * @sub: steps to run first (SUB)
 */
struct cmt_step {
	u8 op;
	u8 flags;
	u32 seq;
	u32 ack;
	const u8 *pay;
	u16 paylen;
	const u8 *opts;
	u8 optlen;
	u16 port;
	u32 arg;
	int rc;
	const struct cmt_step *sub;
};

#define IN(f, s, a) { .op = T_IN, .flags = (f), .seq = (s), .ack = (a) }
#define IN_P(f, s, a, p) { .op = T_IN, .flags = (f), .seq = (s), .ack = (a), \
			   .pay = (p), .paylen = sizeof(p) }
#define IN_O(f, s, a, o) { .op = T_IN, .flags = (f), .seq = (s), .ack = (a), \
			   .opts = (o), .optlen = sizeof(o) }
#define IN_PORT(f, o, pt) { .op = T_IN, .flags = (f), .opts = (o), \
			    .optlen = sizeof(o), .port = (pt) }
#define OUT(f, s, a) { .op = T_OUT, .flags = (f), .seq = (s), .ack = (a) }
#define OUT_P(f, s, a, p) { .op = T_OUT, .flags = (f), .seq = (s), \
			    .ack = (a), .pay = (p), .paylen = sizeof(p) }
#define OUT_ANY(f, s, a) { .op = T_OUT, .flags = (f), .seq = (s), \
			   .ack = (a), .rc = OUT_ANYPAY }
#define OUT_LAST(f, s, a) { .op = T_OUT, .flags = (f), .seq = (s), \
			    .ack = (a), .rc = OUT_ANYPAY | OUT_LASTF }
#define ADV(ms) { .op = T_ADV, .arg = (ms) }
#define CALL(c, r) { .op = T_CALL, .arg = (c), .rc = (r) }
#define DISC(cause) { .op = T_CALL, .arg = C_DISC, .seq = (cause) }
#define EV(t, st) { .op = T_EV, .arg = (t), .rc = (st) }
/* an event with the private data @p */
#define EV_P(t, st, p) { .op = T_EV, .arg = (t), .rc = (st), .pay = (p), \
			 .paylen = sizeof(p) }
#define NONE() { .op = T_NONE }
#define STATE(s) { .op = T_STATE, .arg = (s) }
#define END() { .op = T_END }
#define SUB(p) { .op = T_SUB, .sub = (p) }
/* the connected QP of core a: asked to close gracefully, moved to error */
#define QP(closing, err) { .op = T_QP, .arg = (closing), .rc = (err) }

#define F_S	TCPHDR_SYN
#define F_A	TCPHDR_ACK
#define F_F	TCPHDR_FIN
#define F_R	TCPHDR_RST
#define F_P	TCPHDR_PSH
#define F_SA	(TCPHDR_SYN | TCPHDR_ACK)
#define F_FA	(TCPHDR_FIN | TCPHDR_ACK)
#define F_RA	(TCPHDR_RST | TCPHDR_ACK)
#define F_PA	(TCPHDR_PSH | TCPHDR_ACK)

static const u8 S_OPT[] = { 2, 4, 0x05, 0xb4, 1, 3, 3, 2 };
static const u8 S_BADOPT[] = { 2, 4, 0x00, 0x0a };
/* the peer's v2 request offering WRITE|READ with "hi!" (vector 5) */
static const u8 S_REQ[27] = CMT_MPA_REQ
	"\x50\x02\x00\x07\x80\x10\xc0\x10hi!";
static const u8 S_REQ_A[20] = CMT_MPA_REQ
	"\x50\x02\x00\x07";
static const u8 S_REQ_B[] = { 0x80, 0x10, 0xc0, 0x10, 'h', 'i', '!' };
static const u8 S_REQ_V1[20] = CMT_MPA_REQ
	"\x00\x01\x00\x00";
static const u8 S_REQ_REV3[20] = CMT_MPA_REQ
	"\x00\x03\x00\x00";
static const u8 S_REQ_MARK[20] = CMT_MPA_REQ
	"\x80\x01\x00\x00";
static const u8 S_REQ_BADKEY[20] = CMT_MPA_REP
	"\x00\x01\x00\x00";
static const u8 S_REQ_EXTRA[21] = CMT_MPA_REQ
	"\x00\x01\x00\x00\x07";
static const u8 S_REQ_HUGE[20] = CMT_MPA_REQ
	"\x00\x01\x02\x01";
/* our answers to S_REQ with ird = ord = 16 */
static const u8 S_OUR_REP[24] = CMT_MPA_REP
	"\x50\x02\x00\x04\x80\x10\x80\x10";
static const u8 S_OUR_REJ[26] = CMT_MPA_REP
	"\x30\x02\x00\x06\x00\x40\x00\x40\x01\x02";
static const u8 S_OUR_REJ0[20] = CMT_MPA_REP
	"\x20\x01\x00\x00";
/* our request when connecting with ird = ord = 16 */
static const u8 S_OUR_REQ[24] = CMT_MPA_REQ
	"\x50\x02\x00\x04\x80\x10\xc0\x10";
static const u8 S_OUR_REQ_V1[20] = CMT_MPA_REQ
	"\x40\x01\x00\x00";
/* the peer's answers to S_OUR_REQ */
static const u8 S_REP[24] = CMT_MPA_REP
	"\x50\x02\x00\x04\x80\x10\x80\x10";
static const u8 S_REP_B[24] = CMT_MPA_REP
	"\x50\x02\x00\x04\xc0\x10\x00\x10";
static const u8 S_REP_V1[20] = CMT_MPA_REP
	"\x40\x01\x00\x00";
static const u8 S_REJ[26] = CMT_MPA_REP
	"\x30\x02\x00\x06\x00\x10\x00\x10\x01\x02";
/* a reject with the A flag and no RTR bit, and one with both RTR bits */
static const u8 S_REJ_A0[26] = CMT_MPA_REP
	"\x30\x02\x00\x06\x80\x10\x00\x10\x01\x02";
static const u8 S_REJ_A2[26] = CMT_MPA_REP
	"\x30\x02\x00\x06\x80\x10\xc0\x10\x01\x02";
static const u8 S_PD0102[] = { 0x01, 0x02 };

#define LREQ	((u32)sizeof(S_REQ))
#define LOREQ	((u32)sizeof(S_OUR_REQ))
#define LREJ	((u32)sizeof(S_REJ))
#define LOREJ	((u32)sizeof(S_OUR_REJ))

#define CLOSED	STATE(IRDMA_CM_STATE_CLOSED)

static const struct cmt_step p_synrcvd[] = {
	CALL(C_LISTEN, 0),
	IN_O(F_S, 0, 0, S_OPT),
	OUT(F_SA, 0, 1),
	END()
};

static const struct cmt_step p_estab[] = {
	SUB(p_synrcvd),
	IN(F_A, 1, 1),
	STATE(IRDMA_CM_STATE_ESTABLISHED),
	END()
};

static const struct cmt_step p_reqrcvd[] = {
	SUB(p_estab),
	IN_P(F_PA, 1, 1, S_REQ),
	OUT(F_A, 1, 1 + LREQ),
	EV(IW_CM_EVENT_CONNECT_REQUEST, 0),
	STATE(IRDMA_CM_STATE_MPAREQ_RCVD),
	END()
};

static const struct cmt_step p_finwait1[] = {
	SUB(p_reqrcvd),
	CALL(C_REJECT, 0),
	OUT_P(F_PA | F_F, 1, 1 + LREQ, S_OUR_REJ),
	STATE(IRDMA_CM_STATE_FIN_WAIT1),
	END()
};

static const struct cmt_step p_finwait2[] = {
	SUB(p_finwait1),
	IN(F_A, 1 + LREQ, 2 + LOREJ),
	STATE(IRDMA_CM_STATE_FIN_WAIT2),
	END()
};

static const struct cmt_step p_timewait[] = {
	SUB(p_finwait2),
	IN(F_FA, 1 + LREQ, 2 + LOREJ),
	OUT(F_A, 2 + LOREJ, 2 + LREQ),
	STATE(IRDMA_CM_STATE_TIME_WAIT),
	END()
};

static const struct cmt_step p_lastack[] = {
	SUB(p_estab),
	IN(F_FA, 1, 1),
	OUT(F_FA, 1, 2),
	STATE(IRDMA_CM_STATE_LAST_ACK),
	END()
};

static const struct cmt_step p_closing[] = {
	SUB(p_finwait1),
	IN(F_FA, 1 + LREQ, 1),
	OUT(F_A, 2 + LOREJ, 2 + LREQ),
	STATE(IRDMA_CM_STATE_CLOSING),
	END()
};

static const struct cmt_step p_offloaded[] = {
	SUB(p_reqrcvd),
	CALL(C_ACCEPT, 0),
	OUT_P(F_PA, 1, 1 + LREQ, S_OUR_REP),
	EV(IW_CM_EVENT_ESTABLISHED, 0),
	STATE(IRDMA_CM_STATE_OFFLOADED),
	END()
};

static const struct cmt_step a_synsent[] = {
	CALL(C_CONNECT, 0),
	OUT_ANY(F_S, 0, 0),
	STATE(IRDMA_CM_STATE_SYN_SENT),
	END()
};

/* four SYNs sent again at the capped timeout */
static const struct cmt_step a_syn_again_4[] = {
	ADV(IRDMA_CM_RETRANS_CAP_MS), OUT_ANY(F_S, 0, 0),
	ADV(IRDMA_CM_RETRANS_CAP_MS), OUT_ANY(F_S, 0, 0),
	ADV(IRDMA_CM_RETRANS_CAP_MS), OUT_ANY(F_S, 0, 0),
	ADV(IRDMA_CM_RETRANS_CAP_MS), OUT_ANY(F_S, 0, 0),
	END()
};

static const struct cmt_step a_reqsent[] = {
	SUB(a_synsent),
	IN_O(F_SA, 0, 1, S_OPT),
	OUT_P(F_PA, 1, 1, S_OUR_REQ),
	STATE(IRDMA_CM_STATE_MPAREQ_SENT),
	END()
};

static const struct cmt_step a_offloaded[] = {
	SUB(a_reqsent),
	IN_P(F_PA, 1, 1 + LOREQ, S_REP),
	EV(IW_CM_EVENT_CONNECT_REPLY, 0),
	STATE(IRDMA_CM_STATE_OFFLOADED),
	END()
};

static const struct cmt_step a_rejrcvd[] = {
	SUB(a_reqsent),
	IN_P(F_PA, 1, 1 + LOREQ, S_REJ),
	OUT(F_A, 1 + LOREQ, 1 + LREJ),
	EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED),
	STATE(IRDMA_CM_STATE_MPAREJ_RCVD),
	END()
};

static const struct cmt_step r_close[] = {
	DISC(IRDMA_CM_DISC_CLOSED),
	EV(IW_CM_EVENT_CLOSE, 0),
	END()
};

/**
 * struct cmt_script - one scripted case
 * @name: description
 * @steps: steps, ending with END()
 * @backlog: listen backlog
 */
struct cmt_script {
	const char *name;
	const struct cmt_step *steps;
	int backlog;
};

#define SCRIPT(n, ...) { n, (const struct cmt_step[]){ __VA_ARGS__, END() } }
#define SCRIPT_BL(n, bl, ...) \
	{ n, (const struct cmt_step[]){ __VA_ARGS__, END() }, bl }

static const struct cmt_script cmt_scripts[] = {
	/* complete connections */
	SCRIPT("passive accept then close", SUB(p_offloaded), SUB(r_close),
	       CALL(C_UNLISTEN, 0), CLOSED, NONE()),
	SCRIPT("active connect then peer close: we close our half",
	       SUB(a_offloaded), DISC(IRDMA_CM_DISC_PEER_FIN),
	       EV(IW_CM_EVENT_DISCONNECT, 0), QP(true, false),
	       DISC(IRDMA_CM_DISC_PEER_FIN), NONE(), SUB(r_close),
	       QP(true, true), CLOSED, NONE()),
	SCRIPT("active connect, peer reset after offload", SUB(a_offloaded),
	       IN(F_RA, 1 + sizeof(S_REP), 1 + LOREQ),
	       STATE(IRDMA_CM_STATE_OFFLOADED),
	       DISC(IRDMA_CM_DISC_PEER_RST),
	       EV(IW_CM_EVENT_DISCONNECT, -ECONNRESET),
	       EV(IW_CM_EVENT_CLOSE, -ECONNRESET), DISC(IRDMA_CM_DISC_CLOSED),
	       CLOSED, NONE()),
	SCRIPT("active connect, hardware timeout", SUB(a_offloaded),
	       DISC(IRDMA_CM_DISC_TIMEOUT), EV(IW_CM_EVENT_CLOSE, -ETIMEDOUT),
	       CLOSED, NONE()),
	SCRIPT("passive local close (SQD): close 0 after the engine's",
	       SUB(p_offloaded), DISC(IRDMA_CM_DISC_LOCAL_CLOSE), NONE(),
	       ADV(IRDMA_CM_CLOSE_TIMEOUT_MS - 100), NONE(), QP(false, false),
	       DISC(IRDMA_CM_DISC_CLOSED), EV(IW_CM_EVENT_CLOSE, 0),
	       QP(false, true), ADV(IRDMA_CM_CLOSE_TIMEOUT_MS), NONE(),
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("active local close, then the peer's fin: one close",
	       SUB(a_offloaded), DISC(IRDMA_CM_DISC_LOCAL_CLOSE), NONE(),
	       DISC(IRDMA_CM_DISC_PEER_FIN), EV(IW_CM_EVENT_DISCONNECT, 0),
	       QP(false, false), DISC(IRDMA_CM_DISC_CLOSED),
	       EV(IW_CM_EVENT_CLOSE, 0), DISC(IRDMA_CM_DISC_PEER_FIN),
	       CLOSED, NONE()),
	SCRIPT("active local close the engine never completes: abort",
	       SUB(a_offloaded), DISC(IRDMA_CM_DISC_LOCAL_CLOSE), NONE(),
	       ADV(IRDMA_CM_CLOSE_TIMEOUT_MS), EV(IW_CM_EVENT_CLOSE, -ETIMEDOUT),
	       QP(false, true), DISC(IRDMA_CM_DISC_CLOSED), CLOSED, NONE()),
	SCRIPT("passive peer fin, our close never completes: abort",
	       SUB(p_offloaded), DISC(IRDMA_CM_DISC_PEER_FIN),
	       EV(IW_CM_EVENT_DISCONNECT, 0), QP(true, false),
	       ADV(IRDMA_CM_CLOSE_TIMEOUT_MS), EV(IW_CM_EVENT_CLOSE, -ETIMEDOUT),
	       QP(true, true), CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("passive TERMINATE: the QP's close sends it, close 0 after",
	       SUB(p_offloaded), DISC(IRDMA_CM_DISC_TERMINATE), NONE(),
	       QP(true, false), DISC(IRDMA_CM_DISC_CLOSED),
	       EV(IW_CM_EVENT_CLOSE, 0), QP(true, true),
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("active TERMINATE the peer never closes: abort",
	       SUB(a_offloaded), DISC(IRDMA_CM_DISC_TERMINATE), NONE(),
	       QP(true, false), ADV(IRDMA_CM_CLOSE_TIMEOUT_MS),
	       EV(IW_CM_EVENT_CLOSE, -ETIMEDOUT), QP(true, true), CLOSED,
	       NONE()),
	SCRIPT("active peer fin, the QP cannot close: abort at once",
	       SUB(a_offloaded), CALL(C_FAIL_CLOSE, 0),
	       DISC(IRDMA_CM_DISC_PEER_FIN), EV(IW_CM_EVENT_DISCONNECT, 0),
	       EV(IW_CM_EVENT_CLOSE, -ECONNRESET), QP(false, true), CLOSED,
	       NONE()),
	SCRIPT("active peer reset during our close: reset wins",
	       SUB(a_offloaded), DISC(IRDMA_CM_DISC_LOCAL_CLOSE), NONE(),
	       DISC(IRDMA_CM_DISC_PEER_RST),
	       EV(IW_CM_EVENT_DISCONNECT, -ECONNRESET),
	       EV(IW_CM_EVENT_CLOSE, -ECONNRESET), QP(false, true),
	       ADV(IRDMA_CM_CLOSE_TIMEOUT_MS), CLOSED, NONE()),
	SCRIPT("passive local error gives one close", SUB(p_offloaded),
	       DISC(IRDMA_CM_DISC_LOCAL_ERR), DISC(IRDMA_CM_DISC_CLOSED),
	       EV(IW_CM_EVENT_CLOSE, -ECONNRESET), DISC(IRDMA_CM_DISC_CLOSED),
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("passive mpa v1 request gets v1 reply", SUB(p_estab),
	       IN_P(F_PA, 1, 1, S_REQ_V1), OUT(F_A, 1, 21),
	       EV(IW_CM_EVENT_CONNECT_REQUEST, 0), CALL(C_ACCEPT, 0),
	       OUT_ANY(F_PA, 1, 21), EV(IW_CM_EVENT_ESTABLISHED, 0), SUB(r_close),
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("passive request split over two segments", SUB(p_estab),
	       IN_P(F_PA, 1, 1, S_REQ_A), OUT(F_A, 1, 1 + sizeof(S_REQ_A)),
	       NONE(), IN_P(F_PA, 1 + sizeof(S_REQ_A), 1, S_REQ_B),
	       OUT(F_A, 1, 1 + LREQ), EV(IW_CM_EVENT_CONNECT_REQUEST, 0),
	       CALL(C_REJECT, 0), OUT_P(F_PA | F_F, 1, 1 + LREQ, S_OUR_REJ),
	       IN(F_FA, 1 + LREQ, 2 + LOREJ), OUT(F_A, 2 + LOREJ, 2 + LREQ),
	       ADV(IRDMA_CM_TIME_WAIT_MS), CLOSED, CALL(C_UNLISTEN, 0), NONE()),
	/* RST in every state */
	SCRIPT("rst in SYN_SENT refuses", SUB(a_synsent), IN(F_RA, 0, 1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED), CLOSED, NONE()),
	SCRIPT("rst with bad ack in SYN_SENT ignored", SUB(a_synsent),
	       IN(F_RA, 0, 7), STATE(IRDMA_CM_STATE_SYN_SENT), NONE(),
	       IN(F_RA, 0, 1), EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED),
	       NONE()),
	SCRIPT("rst in SYN_RCVD", SUB(p_synrcvd), IN(F_R, 1, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst out of window ignored", SUB(p_synrcvd), IN(F_R, 9, 0),
	       STATE(IRDMA_CM_STATE_SYN_RCVD), IN(F_R, 1, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in ESTABLISHED", SUB(p_estab), IN(F_R, 1, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in MPAREQ_SENT falls back to v1", SUB(a_reqsent),
	       IN(F_RA, 1, 1), OUT_ANY(F_S, 0, 0),
	       STATE(IRDMA_CM_STATE_SYN_SENT), IN_O(F_SA, 0, 1, S_OPT),
	       OUT_P(F_PA, 1, 1, S_OUR_REQ_V1), IN(F_RA, 1, 1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED, NONE()),
	SCRIPT("v1 reply after fallback connects", SUB(a_reqsent), IN(F_RA, 1, 1),
	       OUT_ANY(F_S, 0, 0), IN_O(F_SA, 0, 1, S_OPT),
	       OUT_P(F_PA, 1, 1, S_OUR_REQ_V1),
	       IN_P(F_PA, 1, 1 + sizeof(S_OUR_REQ_V1), S_REP_V1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, 0), SUB(r_close), NONE()),
	SCRIPT("rst in MPAREQ_RCVD fails accept", SUB(p_reqrcvd),
	       IN(F_R, 1 + LREQ, 0), CALL(C_ACCEPT, -ECONNRESET), NONE(),
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in OFFLOADED belongs to the QP", SUB(p_offloaded),
	       IN(F_R, 1 + LREQ, 0), NONE(), DISC(IRDMA_CM_DISC_PEER_RST),
	       EV(IW_CM_EVENT_DISCONNECT, -ECONNRESET),
	       EV(IW_CM_EVENT_CLOSE, -ECONNRESET), CALL(C_UNLISTEN, 0),
	       NONE()),
	SCRIPT("rst in FIN_WAIT1", SUB(p_finwait1), IN(F_R, 1 + LREQ, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in FIN_WAIT2", SUB(p_finwait2), IN(F_R, 1 + LREQ, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in TIME_WAIT", SUB(p_timewait), IN(F_R, 2 + LREQ, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in LAST_ACK", SUB(p_lastack), IN(F_R, 2, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in CLOSING", SUB(p_closing), IN(F_R, 2 + LREQ, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("rst in MPAREJ_RCVD", SUB(a_rejrcvd), IN(F_R, 1 + LREJ, 0), CLOSED,
	       NONE()),
	/* FIN in every state */
	SCRIPT("fin in ESTABLISHED", SUB(p_lastack), IN(F_A, 2, 2), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("fin with ack in SYN_RCVD", SUB(p_synrcvd), IN(F_FA, 1, 1),
	       OUT(F_FA, 1, 2), IN(F_A, 2, 2), CLOSED, CALL(C_UNLISTEN, 0),
	       NONE()),
	SCRIPT("fin in MPAREQ_SENT", SUB(a_reqsent), IN(F_FA, 1, 1),
	       OUT(F_RA, 1 + LOREQ, 2),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED, NONE()),
	SCRIPT("fin in MPAREQ_RCVD fails accept", SUB(p_reqrcvd),
	       IN(F_FA, 1 + LREQ, 1), OUT(F_FA, 1, 2 + LREQ),
	       STATE(IRDMA_CM_STATE_LAST_ACK), CALL(C_ACCEPT, -ECONNRESET),
	       OUT(F_RA, 2, 2 + LREQ), CLOSED, CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("reject after fin in MPAREQ_RCVD", SUB(p_reqrcvd),
	       IN(F_FA, 1 + LREQ, 1), OUT(F_FA, 1, 2 + LREQ),
	       CALL(C_REJECT, 0), NONE(), IN(F_A, 2 + LREQ, 2), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("fin in MPAREJ_RCVD", SUB(a_rejrcvd), IN(F_FA, 1 + LREJ, 1 + LOREQ),
	       OUT(F_FA, 1 + LOREQ, 2 + LREJ), STATE(IRDMA_CM_STATE_LAST_ACK),
	       IN(F_A, 2 + LREJ, 2 + LOREQ), CLOSED, NONE()),
	SCRIPT("reject with fin in one segment", SUB(a_reqsent),
	       IN_P(F_PA | F_F, 1, 1 + LOREQ, S_REJ),
	       OUT(F_A, 1 + LOREQ, 1 + LREJ), OUT(F_FA, 1 + LOREQ, 2 + LREJ),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED),
	       IN(F_A, 2 + LREJ, 2 + LOREQ), CLOSED, NONE()),
	SCRIPT("simultaneous close", SUB(p_closing), IN(F_A, 2 + LREQ, 2 + LOREJ),
	       STATE(IRDMA_CM_STATE_TIME_WAIT),
	       ADV(IRDMA_CM_TIME_WAIT_MS - CMT_TICK_MS),
	       STATE(IRDMA_CM_STATE_TIME_WAIT), ADV(CMT_TICK_MS), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("fin retransmitted in TIME_WAIT is acked again", SUB(p_timewait),
	       IN(F_FA, 1 + LREQ, 2 + LOREJ), OUT(F_A, 2 + LOREJ, 2 + LREQ),
	       ADV(IRDMA_CM_TIME_WAIT_MS), CLOSED, CALL(C_UNLISTEN, 0),
	       NONE()),
	SCRIPT("fin out of sequence gets a duplicate ack", SUB(p_estab),
	       IN(F_FA, 5, 1), OUT(F_A, 1, 1), STATE(IRDMA_CM_STATE_ESTABLISHED),
	       IN(F_R, 1, 0), CALL(C_UNLISTEN, 0), NONE()),
	/* retransmission */
	/* 32 resends: after 1, 2 and 4 s, then 29 at the 8 s cap */
	SCRIPT("syn retransmit backoff then timeout", SUB(a_synsent),
	       ADV(1000 - CMT_TICK_MS), NONE(), ADV(CMT_TICK_MS),
	       OUT_ANY(F_S, 0, 0), ADV(2000 - CMT_TICK_MS), NONE(),
	       ADV(CMT_TICK_MS), OUT_ANY(F_S, 0, 0), ADV(4000),
	       OUT_ANY(F_S, 0, 0), ADV(8000 - CMT_TICK_MS), NONE(),
	       ADV(CMT_TICK_MS), OUT_ANY(F_S, 0, 0), SUB(a_syn_again_4),
	       SUB(a_syn_again_4), SUB(a_syn_again_4), SUB(a_syn_again_4),
	       SUB(a_syn_again_4), SUB(a_syn_again_4), SUB(a_syn_again_4),
	       ADV(8000), OUT(F_R, 1, 0),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ETIMEDOUT), CLOSED, NONE()),
	SCRIPT("stray ack does not cancel syn retransmit", SUB(a_synsent),
	       IN(F_A, 0, 0), ADV(1000), OUT_ANY(F_S, 0, 0), IN(F_RA, 0, 1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED), NONE()),
	SCRIPT("mpa request retransmitted until acked", SUB(a_reqsent), ADV(1000),
	       OUT_P(F_PA, 1, 1, S_OUR_REQ), IN(F_A, 1, 1 + LOREQ),
	       ADV(IRDMA_CM_MPA_REPLY_WAIT_MS - 2000), NONE(),
	       IN_P(F_PA, 1, 1 + LOREQ, S_REP),
	       EV(IW_CM_EVENT_CONNECT_REPLY, 0), SUB(r_close), NONE()),
	/* the MPA timer */
	SCRIPT("mpa reply never comes: connect times out", SUB(a_reqsent),
	       IN(F_A, 1, 1 + LOREQ),
	       ADV(IRDMA_CM_MPA_REPLY_WAIT_MS - CMT_TICK_MS), NONE(),
	       STATE(IRDMA_CM_STATE_MPAREQ_SENT), ADV(CMT_TICK_MS),
	       OUT(F_RA, 1 + LOREQ, 1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ETIMEDOUT), CLOSED, NONE()),
	SCRIPT("mpa request never comes: silent reset", SUB(p_estab),
	       ADV(IRDMA_CM_MPA_REQ_WAIT_MS - CMT_TICK_MS), NONE(),
	       STATE(IRDMA_CM_STATE_ESTABLISHED), ADV(CMT_TICK_MS),
	       OUT(F_RA, 1, 1), CLOSED, NONE(), CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("mpa request in parts: the timer runs on", SUB(p_estab),
	       ADV(IRDMA_CM_MPA_REQ_WAIT_MS - 1000),
	       IN_P(F_PA, 1, 1, S_REQ_A), OUT(F_A, 1, 1 + sizeof(S_REQ_A)),
	       ADV(1000), OUT_ANY(F_RA, 1, 0), CLOSED, NONE(),
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("mpa request in time stops the timer", SUB(p_reqrcvd),
	       ADV(2 * IRDMA_CM_MPA_REQ_WAIT_MS), NONE(),
	       STATE(IRDMA_CM_STATE_MPAREQ_RCVD), CALL(C_REJECT, 0),
	       OUT_ANY(F_PA | F_F, 1, 1 + LREQ), IN(F_R, 1 + LREQ, 0),
	       CALL(C_UNLISTEN, 0), NONE()),
	/* the ULP's QP goes away while the connect runs: it ends at once */
	SCRIPT("qp destroyed in SYN_SENT: connect ends now", SUB(a_synsent),
	       DISC(IRDMA_CM_DISC_LOCAL_ERR), OUT(F_R, 1, 0),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED,
	       IN_O(F_SA, 0, 1, S_OPT), OUT(F_R, 1, 0), NONE()),
	SCRIPT("qp destroyed in MPAREQ_SENT: connect ends now", SUB(a_reqsent),
	       DISC(IRDMA_CM_DISC_LOCAL_ERR), OUT(F_RA, 1 + LOREQ, 1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED,
	       IN_P(F_PA, 1, 1 + LOREQ, S_REP), OUT(F_R, 1 + LOREQ, 0),
	       NONE()),
	SCRIPT("syn-ack retransmit exhausted", SUB(p_synrcvd), ADV(1000),
	       OUT(F_SA, 0, 1), ADV(CMT_GIVE_UP_MS), CLOSED, CALL(C_UNLISTEN, 0)),
	SCRIPT("reject fin retransmit exhausted", SUB(p_finwait1), ADV(1000),
	       OUT_P(F_PA | F_F, 1, 1 + LREQ, S_OUR_REJ), ADV(CMT_GIVE_UP_MS), CLOSED,
	       CALL(C_UNLISTEN, 0)),
	SCRIPT("mpa request retransmit exhausted", SUB(a_reqsent), ADV(CMT_GIVE_UP_MS),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ETIMEDOUT), CLOSED),
	SCRIPT("fin retransmit exhausted in CLOSING", SUB(p_closing),
	       ADV(CMT_GIVE_UP_MS), OUT_LAST(F_RA, 2 + LOREJ, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("fin retransmit exhausted in LAST_ACK", SUB(p_lastack),
	       ADV(CMT_GIVE_UP_MS), OUT_LAST(F_RA, 2, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	/* bad input */
	SCRIPT("syn whose filter cannot be made dropped", CALL(C_LISTEN, 0),
	       CALL(C_FAIL_QHASH, 0), IN_O(F_S, 0, 0, S_OPT), NONE(), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("bad syn options get rst", CALL(C_LISTEN, 0),
	       IN_O(F_S, 0, 0, S_BADOPT), OUT_ANY(F_RA, 0, 1), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("bad syn-ack options get rst", SUB(a_synsent),
	       IN_O(F_SA, 0, 1, S_BADOPT), OUT(F_R, 1, 0),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), NONE()),
	SCRIPT("syn-ack with wrong ack gets rst, the connect waits on",
	       SUB(a_synsent), IN_O(F_SA, 0, 5, S_OPT), OUT(F_R, 5, 0),
	       STATE(IRDMA_CM_STATE_SYN_SENT), NONE(), ADV(1000),
	       OUT_ANY(F_S, 0, 0), IN_O(F_SA, 0, 1, S_OPT),
	       OUT_P(F_PA, 1, 1, S_OUR_REQ), IN_P(F_PA, 1, 1 + LOREQ, S_REP),
	       EV(IW_CM_EVENT_CONNECT_REPLY, 0), SUB(r_close), NONE()),
	SCRIPT("simultaneous open refused", SUB(a_synsent), IN_O(F_S, 0, 0, S_OPT),
	       OUT(F_RA, 0, 1), EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET),
	       NONE()),
	SCRIPT("ack of unsent data in SYN_RCVD gets rst", SUB(p_synrcvd),
	       IN(F_A, 1, 9), OUT(F_RA, 1, 1), CLOSED, CALL(C_UNLISTEN, 0),
	       NONE()),
	SCRIPT("segment without ack dropped", SUB(p_estab), IN(F_P, 1, 0), NONE(),
	       STATE(IRDMA_CM_STATE_ESTABLISHED), IN(F_R, 1, 0),
	       CALL(C_UNLISTEN, 0)),
	SCRIPT("syn with fin dropped", SUB(p_estab), IN(F_S | F_F, 1, 0), NONE(),
	       IN(F_R, 1, 0), CALL(C_UNLISTEN, 0)),
	SCRIPT("segments of no connection get rst", IN_O(F_S, 0, 0, S_OPT),
	       OUT(F_RA, 0, 1), IN(F_A, 1, 7), OUT(F_R, 7, 0),
	       IN_P(F_P, 1, 0, S_REQ_V1), OUT(F_RA, 0, 21), IN(F_RA, 1, 7),
	       NONE(), CLOSED),
	SCRIPT("mpa bad key gets rst", SUB(p_estab), IN_P(F_PA, 1, 1, S_REQ_BADKEY),
	       OUT(F_RA, 1, 1 + sizeof(S_REQ_BADKEY)), CLOSED, NONE(),
	       CALL(C_UNLISTEN, 0)),
	SCRIPT("mpa oversized length gets rst", SUB(p_estab),
	       IN_P(F_PA, 1, 1, S_REQ_HUGE), OUT_ANY(F_RA, 1, 0), CLOSED,
	       NONE(), CALL(C_UNLISTEN, 0)),
	SCRIPT("mpa extra bytes get rst", SUB(p_estab),
	       IN_P(F_PA, 1, 1, S_REQ_EXTRA), OUT_ANY(F_RA, 1, 0), CLOSED,
	       NONE(), CALL(C_UNLISTEN, 0)),
	SCRIPT("mpa rev 3 rejected", SUB(p_estab), IN_P(F_PA, 1, 1, S_REQ_REV3),
	       OUT_P(F_PA | F_F, 1, 21, S_OUR_REJ0),
	       STATE(IRDMA_CM_STATE_FIN_WAIT1), NONE(), IN(F_R, 21, 0), CLOSED,
	       CALL(C_UNLISTEN, 0)),
	SCRIPT("mpa markers rejected", SUB(p_estab), IN_P(F_PA, 1, 1, S_REQ_MARK),
	       OUT_P(F_PA | F_F, 1, 21, S_OUR_REJ0), NONE(), IN(F_R, 21, 0),
	       CALL(C_UNLISTEN, 0)),
	SCRIPT("reject with the A flag and no rtr bit is a reject",
	       SUB(a_reqsent), IN_P(F_PA, 1, 1 + LOREQ, S_REJ_A0),
	       OUT(F_A, 1 + LOREQ, 1 + LREJ),
	       EV_P(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED, S_PD0102),
	       STATE(IRDMA_CM_STATE_MPAREJ_RCVD), IN(F_R, 1 + LREJ, 0), CLOSED,
	       NONE()),
	SCRIPT("reject with the A flag and two rtr bits is a reject",
	       SUB(a_reqsent), IN_P(F_PA, 1, 1 + LOREQ, S_REJ_A2),
	       OUT(F_A, 1 + LOREQ, 1 + LREJ),
	       EV_P(IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED, S_PD0102),
	       IN(F_R, 1 + LREJ, 0), CLOSED, NONE()),
	SCRIPT("reply with send0 rtr refused", SUB(a_reqsent),
	       IN_P(F_PA, 1, 1 + LOREQ, S_REP_B), OUT_ANY(F_RA, 1 + LOREQ, 0),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED, NONE()),
	SCRIPT("data in MPAREQ_RCVD ignored", SUB(p_reqrcvd),
	       IN_P(F_PA, 1 + LREQ, 1, S_REQ_V1), NONE(),
	       STATE(IRDMA_CM_STATE_MPAREQ_RCVD), CALL(C_REJECT, 0),
	       OUT_ANY(F_PA | F_F, 1, 1 + LREQ), IN(F_R, 1 + LREQ, 0),
	       CALL(C_UNLISTEN, 0)),
	SCRIPT_BL("backlog full drops syn", 1, CALL(C_LISTEN, 0),
		  IN_O(F_S, 0, 0, S_OPT), OUT(F_SA, 0, 1),
		  IN_PORT(F_S, S_OPT, 5001), NONE(), IN(F_R, 1, 0),
		  CALL(C_UNLISTEN, 0)),
	SCRIPT("accept with unknown qp resets", SUB(p_reqrcvd),
	       CALL(C_ACCEPT_BADQP, -EINVAL), OUT_ANY(F_RA, 1, 0), CLOSED,
	       CALL(C_UNLISTEN, 0), NONE()),
	SCRIPT("listener destroyed with request pending", SUB(p_reqrcvd),
	       CALL(C_UNLISTEN, 0), OUT_ANY(F_RA, 1, 0),
	       CALL(C_ACCEPT, -ECONNRESET), CALL(C_REJECT, -EINVAL), NONE()),
	SCRIPT("listener destroyed in SYN_RCVD", SUB(p_synrcvd),
	       CALL(C_UNLISTEN, 0), OUT_ANY(F_RA, 1, 0), CLOSED, NONE()),
};

static void cmt_script_desc(const struct cmt_script *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt_script, cmt_scripts, cmt_script_desc);

/**
 * struct cmt_sctx - state of a running script
 * @env: environment
 * @isn: our ISN
 * @lid: listening id
 * @cid: connecting id
 * @child: id of the last CONNECT_REQUEST
 * @backlog: listen backlog
 */
struct cmt_sctx {
	struct cmt_env *env;
	u32 isn;
	struct cmt_id *lid;
	struct cmt_id *cid;
	struct cmt_id *child;
	int backlog;
};

static void cmt_step_in(struct cmt_sctx *sc, const struct cmt_step *st)
{
	struct cmt_raw r = {
		.vlan = IRDMA_CM_NO_VLAN, .src = 2, .dst = 1,
		.sport = st->port ? st->port : 5000, .dport = 4000,
		.seq = PISN + st->seq, .flags = st->flags, .opts = st->opts,
		.optlen = st->optlen, .pay = st->pay, .paylen = st->paylen,
	};
	u8 *b = kunit_kzalloc(sc->env->test, CMT_RAW_MAX, GFP_KERNEL);
	u32 len;

	KUNIT_ASSERT_NOT_NULL(sc->env->test, b);
	if (st->flags & TCPHDR_ACK)
		r.ack = sc->isn + st->ack;
	len = cmt_raw_build(&r, b);
	irdma_receive_ilq(sc->env->a.core, b, len, NULL);
	kunit_kfree(sc->env->test, b);
}

static struct cmt_frame *cmt_pop_out(struct cmt_env *env)
{
	struct cmt_frame *f;
	unsigned long flags;

	spin_lock_irqsave(&env->lock, flags);
	f = list_first_entry_or_null(&env->out, struct cmt_frame, list);
	if (f)
		list_del(&f->list);
	spin_unlock_irqrestore(&env->lock, flags);
	return f;
}

static void cmt_step_out(struct cmt_sctx *sc, const struct cmt_step *st,
			 int i)
{
	struct kunit *test = sc->env->test;
	struct cmt_frame *f = cmt_pop_out(sc->env);
	struct cmt_seen s;

	while (f && (st->rc & OUT_LASTF) && !list_empty(&sc->env->out)) {
		kfree(f);
		f = cmt_pop_out(sc->env);
	}
	if (!f) {
		KUNIT_FAIL(test, "step %d: no frame sent", i);
		return;
	}
	KUNIT_EXPECT_TRUE(test, cmt_seen_parse(f->data, f->len, &s));
	KUNIT_EXPECT_EQ_MSG(test, s.flags, st->flags, "step %d flags", i);
	if (st->flags & TCPHDR_SYN)
		sc->isn = s.seq - st->seq;
	if (!(st->flags & TCPHDR_RST) || st->seq)
		KUNIT_EXPECT_EQ_MSG(test, s.seq - sc->isn, st->seq,
				    "step %d seq", i);
	if ((st->flags & TCPHDR_ACK) && (st->ack || !(st->flags & TCPHDR_RST)))
		KUNIT_EXPECT_EQ_MSG(test, s.ack - PISN, st->ack,
				    "step %d ack", i);
	if (st->pay) {
		KUNIT_EXPECT_EQ_MSG(test, s.paylen, (u32)st->paylen,
				    "step %d payload length", i);
		if (s.paylen == st->paylen)
			KUNIT_EXPECT_EQ_MSG(test, memcmp(s.pay, st->pay,
							 st->paylen), 0,
					    "step %d payload", i);
	} else if (!(st->rc & OUT_ANYPAY)) {
		KUNIT_EXPECT_EQ_MSG(test, s.paylen, 0U, "step %d payload", i);
	}
	kfree(f);
}

static const struct cmt_conn cmt_conn16 = { .qpn = 1, .ird = 16, .ord = 16 };
static const struct cmt_conn cmt_acc16 = { .qpn = 2, .ird = 16, .ord = 16 };

static int cmt_step_call(struct cmt_sctx *sc, const struct cmt_step *st)
{
	struct cmt_env *env = sc->env;
	struct cmt_conn bad = cmt_acc16;
	int rc = 0;

	switch (st->arg) {
	case C_ACCEPT:
	case C_ACCEPT_BADQP:
	case C_REJECT:
		if (!sc->child) {
			KUNIT_FAIL(env->test, "no connect request to answer");
			return -ENOENT;
		}
		break;
	}
	switch (st->arg) {
	case C_LISTEN:
		sc->lid = cmt_listen(&env->a, false, 1, 4000, sc->backlog, &rc);
		break;
	case C_UNLISTEN:
		cmt_unlisten(sc->lid);
		break;
	case C_CONNECT:
		sc->cid = cmt_id_new(&env->a);
		rc = cmt_connect(sc->cid, false, 1, 4000, 2, 5000, &cmt_conn16);
		break;
	case C_ACCEPT:
		rc = cmt_accept(sc->child, &cmt_acc16);
		break;
	case C_ACCEPT_BADQP:
		bad.qpn = 99;
		rc = cmt_accept(sc->child, &bad);
		break;
	case C_REJECT:
		rc = cmt_reject(sc->child, cmt_0102, sizeof(cmt_0102));
		break;
	case C_FAIL_CLOSE:
		set_bit(CMT_FAIL_CLOSE, &env->a.fail);
		break;
	case C_FAIL_QHASH:
		set_bit(CMT_FAIL_QHASH, &env->a.fail);
		break;
	case C_DISC:
		if (env->a.qps[1].node)
			irdma_cm_disconn(env->a.qps[1].node, st->seq);
		if (env->a.qps[2].node)
			irdma_cm_disconn(env->a.qps[2].node, st->seq);
		break;
	}
	return rc;
}

/* The only hashed node of core a, or NULL. */
static struct irdma_cm_node *cmt_the_node(struct cmt_env *env)
{
	struct irdma_cm_node *node, *found = NULL;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(env->a.core->conn_ht, bkt, node, hnode)
		found = node;
	rcu_read_unlock();
	return found;
}

static void cmt_step_state(struct cmt_sctx *sc, const struct cmt_step *st,
			   int i)
{
	struct irdma_cm_node *node = cmt_the_node(sc->env);

	if (st->arg == IRDMA_CM_STATE_CLOSED) {
		KUNIT_EXPECT_PTR_EQ_MSG(sc->env->test, node, NULL,
					"step %d: a node is still hashed", i);
		return;
	}
	if (!node) {
		KUNIT_FAIL(sc->env->test, "step %d: no node", i);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(sc->env->test, node->state, st->arg,
			    "step %d state", i);
}

static void cmt_step_event(struct cmt_sctx *sc, const struct cmt_step *st)
{
	struct cmt_event *e = cmt_expect_event(sc->env, NULL, st->arg, st->rc);

	if (e && st->pay) {
		KUNIT_EXPECT_EQ(sc->env->test, e->pdata_len, st->paylen);
		KUNIT_EXPECT_EQ(sc->env->test,
				memcmp(e->pdata, st->pay,
				       min_t(u32, e->pdata_len, st->paylen)), 0);
	}

	if (e && st->arg == IW_CM_EVENT_CONNECT_REQUEST) {
		sc->child = cmt_child_of(sc->env, e);
		KUNIT_EXPECT_NOT_NULL(sc->env->test, sc->child);
	}
}

static void cmt_step_none(struct cmt_sctx *sc, int i)
{
	struct cmt_frame *f = cmt_pop_out(sc->env);

	if (f) {
		KUNIT_FAIL(sc->env->test, "step %d: unexpected frame", i);
		kfree(f);
	}
	cmt_expect_no_event(sc->env);
}

static void cmt_step_qp(struct cmt_sctx *sc, const struct cmt_step *st,
			int i)
{
	struct cmt_env *env = sc->env;
	struct cmt_qp *q = NULL;
	int n;

	for (n = 1; n < CMT_QPS && !q; n++)
		if (env->a.qps[n].ctx_set)
			q = &env->a.qps[n];
	if (!q) {
		KUNIT_FAIL(env->test, "step %d: no connected QP", i);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(env->test, q->closing, !!st->arg,
			    "step %d: QP %u closing", i, q->qpn);
	KUNIT_EXPECT_EQ_MSG(env->test, q->err, !!st->rc,
			    "step %d: QP %u in error", i, q->qpn);
}

static void cmt_script_exec(struct cmt_sctx *sc, const struct cmt_step *st)
{
	struct cmt_env *env = sc->env;
	struct kunit *test = env->test;
	int i, rc;

	for (i = 0; st->op != T_END; i++, st++) {
		switch (st->op) {
		case T_IN:
			cmt_step_in(sc, st);
			break;
		case T_OUT:
			cmt_step_out(sc, st, i);
			break;
		case T_ADV:
			cmt_advance(env, st->arg);
			break;
		case T_CALL:
			rc = cmt_step_call(sc, st);
			KUNIT_EXPECT_EQ_MSG(test, rc, st->rc, "step %d call", i);
			break;
		case T_EV:
			cmt_step_event(sc, st);
			break;
		case T_NONE:
			cmt_step_none(sc, i);
			break;
		case T_STATE:
			cmt_step_state(sc, st, i);
			break;
		case T_SUB:
			cmt_script_exec(sc, st->sub);
			break;
		case T_QP:
			cmt_step_qp(sc, st, i);
			break;
		}
		cmt_pump(env);
	}
}

static void irdma_cm_script_run(struct kunit *test)
{
	const struct cmt_script *s = test->param_value;
	struct cmt_env *env = test->priv;
	struct cmt_sctx sc = { .env = env, .backlog = s->backlog };

	env->a.peer = NULL;
	cmt_script_exec(&sc, s->steps);
}

static struct kunit_case irdma_cm_script_cases[] = {
	KUNIT_CASE_PARAM(irdma_cm_script_run, cmt_script_gen_params),
	{}
};

static struct kunit_suite irdma_cm_script_suite = {
	.name = "irdma_cm_script",
	.init = cmt_init,
	.exit = cmt_exit,
	.test_cases = irdma_cm_script_cases,
};

kunit_test_suite(irdma_cm_script_suite);

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
		KUNIT_EXPECT_EQ(test, qa->rtr, IRDMA_CM_RDMA0_NONE);
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
	struct cmt_event *e;
	int rc;

	lid = cmt_listen(&env->b, false, 2, 4000, 0, &rc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	cid = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(cid, false, 1, 6000, 2, 4000, &cp), 0);
	cmt_pump(env);
	e = cmt_expect_event(env, lid, IW_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, cmt_reject(cmt_child_of(env, e), why, 4), 0);
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

/*
 * The default time source (jiffies and the core timer) and the default
 * VLAN lookup through the netdevs, with a real one-second retransmission.
 */
static void irdma_cm_wire_real_clock(struct kunit *test)
{
	struct cmt_env *env = test->priv;
	struct cmt_conn cp = { .qpn = 1, .ird = 2, .ord = 2 };
	struct cmt_conn cp6 = { .qpn = 3, .ird = 2, .ord = 2 };
	struct irdma_cm_hw_ops *ops;
	struct cmt_id *c4, *c6;

	ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	*ops = cmt_hw_ops;
	ops->get_vlan = NULL;
	env->a.core->ops = ops;
	env->a.core->clk = &irdma_cm_jiffies_clock;
	env->a.peer = NULL;
	c4 = cmt_id_new(&env->a);
	c6 = cmt_id_new(&env->a);
	KUNIT_ASSERT_EQ(test, cmt_connect(c4, false, 1, 6000, 2, 4000, &cp), 0);
	KUNIT_ASSERT_EQ(test, cmt_connect(c6, true, 1, 6000, 2, 4000, &cp6), 0);
	KUNIT_EXPECT_EQ(test, env->a.tx, 2U);
	msleep(1500);
	KUNIT_EXPECT_GE(test, env->a.tx, 4U);
	irdma_cm_teardown_connections(env->a.core, NULL, false);
	cmt_pump(env);
	cmt_expect_event(env, c4, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	cmt_expect_event(env, c6, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET);
	KUNIT_EXPECT_FALSE(test, env->a.core->timer_armed);
	del_timer_sync(&env->a.core->tcp_timer);
	env->a.core->clk = &cmt_clock;
	env->a.core->ops = &cmt_hw_ops;
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
	KUNIT_CASE(irdma_cm_wire_ulp_errors),
	KUNIT_CASE(irdma_cm_wire_ord_above_peer_ird),
	KUNIT_CASE(irdma_cm_wire_listener_destroyed),
	KUNIT_CASE(irdma_cm_wire_listener_window),
	KUNIT_CASE(irdma_cm_wire_reply_race),
	KUNIT_CASE(irdma_cm_wire_mss),
	KUNIT_CASE(irdma_cm_wire_xmit_refused),
	KUNIT_CASE(irdma_cm_wire_loopback_refused),
	KUNIT_CASE(irdma_cm_wire_entry_errors),
	KUNIT_CASE(irdma_cm_wire_listen_refused),
	KUNIT_CASE(irdma_cm_wire_accept_qp_errors),
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
