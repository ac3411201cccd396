// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * KUnit: the CM state machine played by hand (suite irdma_cm_script). Each
 * case is a table of steps (feed a segment, expect a segment, advance the
 * virtual clock, call an iw_cm op, expect an event, expect silence).
 * Sequence numbers in steps are relative: ours to our ISN, the peer's to
 * PISN. cm_fuzz_test.c parks the core with the same steps.
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
	C_QUIESCE,
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
/* a RST with sequence number @s from peer port @pt */
#define IN_PORT_R(s, pt) { .op = T_IN, .flags = TCPHDR_RST, .seq = (s), \
			   .port = (pt) }
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
/* the reject answers as an accept would: A, WRITE, IRD 64, ORD to 16 */
static const u8 S_OUR_REJ[26] = CMT_MPA_REP
	"\x30\x02\x00\x06\x80\x40\x80\x10\x01\x02";
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
	/* the device leaves: nothing may wait for a peer or a timer */
	SCRIPT("leaving device ends a connect in SYN_SENT at once",
	       SUB(a_synsent), CALL(C_QUIESCE, 0), OUT(F_R, 1, 0),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED,
	       CALL(C_CONNECT, -ENETDOWN), NONE()),
	SCRIPT("leaving device ends a connect in MPAREQ_SENT at once",
	       SUB(a_reqsent), CALL(C_QUIESCE, 0), OUT(F_RA, 1 + LOREQ, 1),
	       EV(IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET), CLOSED, NONE()),
	SCRIPT("leaving device leaves a connection to its ulp",
	       SUB(a_offloaded), CALL(C_QUIESCE, 0), NONE(), SUB(r_close),
	       NONE()),
	SCRIPT("leaving device takes no syn", CALL(C_LISTEN, 0),
	       CALL(C_QUIESCE, 0), IN_O(F_S, 0, 0, S_OPT), NONE(), CLOSED,
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
	/* a request handed up is the ULP's: the next SYN is answered */
	SCRIPT_BL("unanswered request leaves the backlog", 1,
		  SUB(p_reqrcvd), IN_PORT(F_S, S_OPT, 5001), OUT(F_SA, 0, 1),
		  IN_PORT_R(1, 5001), NONE(), CALL(C_UNLISTEN, 0),
		  OUT_ANY(F_RA, 0, 0), CALL(C_ACCEPT, -ECONNRESET), NONE()),
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
	case C_QUIESCE:
		irdma_cm_quiesce(env->a.core);
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
