// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: RoCEv2 reliable connections between functions.
 *
 * An RC QP whose next hop (the context's ARP entry) is not the function
 * itself sends its work requests as real RoCEv2 packets (IB transport
 * over UDP port 4791), as the adapter does, from what the driver wrote in
 * the QP context and the WQEs:
 *
 * Requester. Each SQ WQE gets the next PSNs (one per packet of the
 * message, cut at the path MTU of context word 6; a READ takes one per
 * packet of its response) and waits in a list of messages sent and not
 * yet acknowledged (ISIM_ROCE_SWQES) until its ACK or its READ
 * responses arrive, so that completions come in SQ order; local WQEs (a
 * NOP, a bind, a fast register, an invalidate) wait there too. At most
 * ISIM_ROCE_WINDOW PSNs are outstanding, the last packet of a message and
 * every ISIM_ROCE_ACKREQ-th one ask for an ACK, and at most ORD (context
 * word 20) READs are outstanding. An ACK acknowledges everything up to its
 * PSN (coalesced); a READ response implies the ACK of what came before
 * its READ. Go-back-N: a PSN sequence error NAK, a retransmission timeout
 * (the context's RTOMIN, or the engine's default) and a gap in READ
 * responses send again from the oldest PSN not acknowledged; a READ
 * asked again from its middle asks for the rest. Timeouts and sequence
 * NAKs in a row are counted against the retry count (context word 16),
 * RNR NAKs against the RNR retry count (7: for ever), waiting the timer
 * the NAK names; once they run out the WQE fails with "retries exceeded"
 * and the QP goes to the error state with an AE, as do the WQEs the
 * responder refuses (invalid request, remote access, remote operational
 * error).
 *
 * Responder. Requests must carry the expected PSN: a later one is
 * answered with one PSN sequence error NAK, an earlier one is a duplicate
 * (a SEND or WRITE is acknowledged again and not placed, a READ answered
 * again). Opcodes must follow each other as IB allows. A SEND takes the
 * RQ WQE at the tail with its first packet (none: an RNR NAK with a
 * 20.48 ms timer) and completes it with its last; a WRITE goes to the
 * memory its RETH names (the QP's remote write right, an MR of its PD
 * with the key, rights and range); a READ is answered with READ RESPONSE
 * packets, ISIM_ROCE_BURST a pass. ACKs are coalesced: one a pass for
 * what asked for one. An error NAKs the request and moves the responder
 * to the error state with an AE.
 *
 * Every packet's ICRC is computed and checked. A packet that arrives
 * CE-marked is counted and answered with a CNP to its sender QP (at most
 * one per jiffy and QP); a CNP received is counted as handled when the
 * QP's context enables DCQCN, as ignored otherwise. No rate changes: the
 * model has no congestion control.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <asm/unaligned.h>

#include "isim.h"

#define ISIM_ROCE_RTO_MS	1000	/* ACK timeout when RTOMIN is 0 */
#define ISIM_ROCE_RTOMIN_MS	100	/* the unit of RTOMIN */
#define ISIM_ROCE_BURST		64	/* READ response packets a pass */
#define ISIM_ROCE_ACKREQ	32	/* AckReq at least this often */
#define ISIM_ROCE_RNR_TIMER	22	/* our RNR NAKs' timer: 20.48 ms */
#define ISIM_ROCE_MTU_MIN	256
#define ISIM_ROCE_MTU_MAX	4096
#define ISIM_ROCE_MSG_MAX	BIT(31)

#define ISIM_RETH_LEN		16
#define ISIM_AETH_LEN		4
#define ISIM_IMM_LEN		4	/* ImmDt, or the IETH */
#define ISIM_CNP_PAD		16
#define ISIM_BTH_B4_BECN	BIT(6)
#define ISIM_BTH_B8_ACKREQ	BIT(7)
#define ISIM_AETH_TYPE		GENMASK(7, 5)
#define ISIM_AETH_VAL		GENMASK(4, 0)
#define ISIM_AETH_MSN		GENMASK(23, 0)
#define ISIM_AETH_ACK		0
#define ISIM_AETH_RNR		1
#define ISIM_AETH_NAK		3
/* an ACK's credit field: no end-to-end credits are advertised */
#define ISIM_AETH_NO_CREDITS	0x1f

/* the NAK codes of an AETH (IB 9.7.5.2.8) */
enum isim_roce_nak {
	ISIM_NAK_SEQ		= 0,
	ISIM_NAK_INV_REQ	= 1,
	ISIM_NAK_REM_ACCESS	= 2,
	ISIM_NAK_REM_OP		= 3,
};

/* RC BTH opcodes (IB 9.2.1), and RoCEv2's CNP */
enum isim_rc_op {
	ISIM_RC_SEND_FIRST		= 0x00,
	ISIM_RC_SEND_MIDDLE		= 0x01,
	ISIM_RC_SEND_LAST		= 0x02,
	ISIM_RC_SEND_LAST_IMM		= 0x03,
	ISIM_RC_SEND_ONLY		= 0x04,
	ISIM_RC_SEND_ONLY_IMM		= 0x05,
	ISIM_RC_WRITE_FIRST		= 0x06,
	ISIM_RC_WRITE_MIDDLE		= 0x07,
	ISIM_RC_WRITE_LAST		= 0x08,
	ISIM_RC_WRITE_LAST_IMM		= 0x09,
	ISIM_RC_WRITE_ONLY		= 0x0a,
	ISIM_RC_WRITE_ONLY_IMM		= 0x0b,
	ISIM_RC_READ_REQ		= 0x0c,
	ISIM_RC_READ_RESP_FIRST		= 0x0d,
	ISIM_RC_READ_RESP_MIDDLE	= 0x0e,
	ISIM_RC_READ_RESP_LAST		= 0x0f,
	ISIM_RC_READ_RESP_ONLY		= 0x10,
	ISIM_RC_ACK			= 0x11,
	ISIM_RC_ATOMIC_ACK		= 0x12,
	ISIM_RC_CMP_SWAP		= 0x13,
	ISIM_RC_FETCH_ADD		= 0x14,
	ISIM_RC_SEND_LAST_INV		= 0x16,
	ISIM_RC_SEND_ONLY_INV		= 0x17,
	ISIM_RC_NUM			= 0x18,
	ISIM_ROCE_CNP			= 0x81,
};

/* what an opcode is and carries */
#define ISIM_RCF_REQ		BIT(0)	/* requester to responder */
#define ISIM_RCF_FIRST		BIT(1)	/* starts a message */
#define ISIM_RCF_LAST		BIT(2)	/* ends one */
#define ISIM_RCF_RETH		BIT(3)
#define ISIM_RCF_AETH		BIT(4)
#define ISIM_RCF_IMM		BIT(5)	/* ImmDt */
#define ISIM_RCF_IETH		BIT(6)
#define ISIM_RCF_DATA		BIT(7)	/* may carry payload */
#define ISIM_RCF_SEND		BIT(8)
#define ISIM_RCF_WRITE		BIT(9)
#define ISIM_RCF_READ		BIT(10)	/* READ request */
#define ISIM_RCF_RESP		BIT(11)	/* READ response */
#define ISIM_RCF_ATOMIC		BIT(12)	/* not modelled: an invalid request */

#define ISIM_RCF_S	(ISIM_RCF_REQ | ISIM_RCF_SEND | ISIM_RCF_DATA)
#define ISIM_RCF_W	(ISIM_RCF_REQ | ISIM_RCF_WRITE | ISIM_RCF_DATA)
#define ISIM_RCF_R	(ISIM_RCF_RESP | ISIM_RCF_DATA)
#define ISIM_RCF_FL	(ISIM_RCF_FIRST | ISIM_RCF_LAST)

static const u16 isim_rc_ops[ISIM_RC_NUM] = {
	[ISIM_RC_SEND_FIRST]	= ISIM_RCF_S | ISIM_RCF_FIRST,
	[ISIM_RC_SEND_MIDDLE]	= ISIM_RCF_S,
	[ISIM_RC_SEND_LAST]	= ISIM_RCF_S | ISIM_RCF_LAST,
	[ISIM_RC_SEND_LAST_IMM]	= ISIM_RCF_S | ISIM_RCF_LAST | ISIM_RCF_IMM,
	[ISIM_RC_SEND_ONLY]	= ISIM_RCF_S | ISIM_RCF_FL,
	[ISIM_RC_SEND_ONLY_IMM]	= ISIM_RCF_S | ISIM_RCF_FL | ISIM_RCF_IMM,
	[ISIM_RC_WRITE_FIRST]	= ISIM_RCF_W | ISIM_RCF_FIRST | ISIM_RCF_RETH,
	[ISIM_RC_WRITE_MIDDLE]	= ISIM_RCF_W,
	[ISIM_RC_WRITE_LAST]	= ISIM_RCF_W | ISIM_RCF_LAST,
	[ISIM_RC_WRITE_LAST_IMM] = ISIM_RCF_W | ISIM_RCF_LAST | ISIM_RCF_IMM,
	[ISIM_RC_WRITE_ONLY]	= ISIM_RCF_W | ISIM_RCF_FL | ISIM_RCF_RETH,
	[ISIM_RC_WRITE_ONLY_IMM] = ISIM_RCF_W | ISIM_RCF_FL | ISIM_RCF_RETH |
				   ISIM_RCF_IMM,
	[ISIM_RC_READ_REQ]	= ISIM_RCF_REQ | ISIM_RCF_READ | ISIM_RCF_FL |
				  ISIM_RCF_RETH,
	[ISIM_RC_READ_RESP_FIRST] = ISIM_RCF_R | ISIM_RCF_FIRST | ISIM_RCF_AETH,
	[ISIM_RC_READ_RESP_MIDDLE] = ISIM_RCF_R,
	[ISIM_RC_READ_RESP_LAST] = ISIM_RCF_R | ISIM_RCF_LAST | ISIM_RCF_AETH,
	[ISIM_RC_READ_RESP_ONLY] = ISIM_RCF_R | ISIM_RCF_FL | ISIM_RCF_AETH,
	[ISIM_RC_ACK]		= ISIM_RCF_AETH,
	[ISIM_RC_CMP_SWAP]	= ISIM_RCF_REQ | ISIM_RCF_ATOMIC | ISIM_RCF_FL,
	[ISIM_RC_FETCH_ADD]	= ISIM_RCF_REQ | ISIM_RCF_ATOMIC | ISIM_RCF_FL,
	[ISIM_RC_SEND_LAST_INV]	= ISIM_RCF_S | ISIM_RCF_LAST | ISIM_RCF_IETH,
	[ISIM_RC_SEND_ONLY_INV]	= ISIM_RCF_S | ISIM_RCF_FL | ISIM_RCF_IETH,
};

/*
 * The RNR NAK timer codes (IB 9.7.5.2.8), in tens of microseconds; code 0
 * is the longest.
 */
static const u32 isim_rnr_timer_10us[32] = {
	65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
	256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
	16384, 24576, 32768, 49152,
};

/**
 * struct isim_roce_swqe - an SQ WQE the requester took and has not
 *	completed: sent and waiting for its acknowledgment, or a local WQE
 *	waiting for those before it
 * @idx: quantum index of the WQE (it stays in the ring until completed)
 * @first: PSN of its first packet (a READ: of its request)
 * @npkts: PSNs it takes (a READ: its response packets); 0 for a local WQE
 * @len: message length
 * @got: READ: response packets placed
 * @minor: a WQE that failed locally: its error, reported in its turn
 * @quanta: quanta of the WQE
 * @op: WQE opcode
 * @signaled: the WQE asks for a completion
 * @done: acknowledged (or all of its READ response placed)
 */
struct isim_roce_swqe {
	u32 idx;
	u32 first;
	u32 npkts;
	u32 len;
	u32 got;
	u16 minor;
	u8 quanta;
	u8 op;
	bool signaled;
	bool done;
};

/**
 * struct isim_roce_rd - an inbound READ the responder answers
 * @psn: PSN of its next response packet
 * @va: address of its next byte
 * @rkey: the STag it reads through
 * @left: bytes not yet sent
 * @first: true until its first response packet went out
 */
struct isim_roce_rd {
	u32 psn;
	u64 va;
	u32 rkey;
	u32 left;
	bool first;
};

/**
 * struct isim_roce - the transport state of one RC QP
 * @qp: the QP
 * @busy_node: in isim_roce_stats.busy while isim_roce_run() has work
 * @hdrs: the Ethernet and IP headers of its packets, but the destination
 *	MAC, which the ARP entry @arp_idx holds when a packet leaves
 * @arp_idx: ARP cache entry of the next hop (context word 6)
 * @sport: UDP source port (context word 3)
 * @mtu: path MTU (context word 6)
 * @retry_cnt: timeouts and sequence NAKs a message survives
 * @ord: READs it may have outstanding
 * @ird: READs the responder holds
 * @dcqcn: context word 20 enables DCQCN: CNPs are handled
 * @rto_ms: the ACK timeout
 * @psn_nxt: PSN the next new message starts at
 * @snd_psn: PSN of the next packet to send (behind @psn_nxt after a NAK
 *	or a timeout)
 * @snd_max: one past the highest PSN ever sent (tells resends apart)
 * @psn_una: oldest PSN not acknowledged
 * @sw: messages and local WQEs in SQ order, a ring of ISIM_ROCE_SWQES
 * @sw_head: oldest entry of @sw
 * @sw_n: entries in @sw
 * @reads: READs among them
 * @retries: timeouts and sequence NAKs since the last progress
 * @rnr_left: RNR NAKs left to survive
 * @rto_due: jiffies when the oldest packet is sent again
 * @rnr_until: jiffies until which an RNR NAK holds the requester
 * @rnr_wait: an RNR NAK holds it
 * @gap_psn: a gap in READ responses was reported for this PSN
 * @halted: a WQE failed: nothing more is taken or sent
 * @epsn: expected PSN of the next request
 * @msn: messages completed by the responder
 * @rop: the message being received: 0, ISIM_RCF_SEND or ISIM_RCF_WRITE
 * @nak_sent: a sequence error or RNR NAK went out for @epsn
 * @ack_due: an ACK of @ack_psn goes out at the end of the pass
 * @ack_psn: the PSN it acknowledges
 * @ctl_due: a NAK waits for the READ responses before it
 * @ctl_syn: its AETH syndrome
 * @ctl_psn: its PSN
 * @rq_active: a SEND is being placed in the RQ WQE at @rq_idx
 * @rq_idx: quantum index of that WQE
 * @rq_off: bytes of the SEND placed
 * @rq: its fragments
 * @wr_va: the WRITE being received: its address
 * @wr_rkey: its STag
 * @wr_len: its length (the RETH's)
 * @wr_off: bytes placed
 * @rd: READs to answer, a ring of ISIM_ROCE_IRD
 * @rd_head: the one being answered
 * @rd_n: entries in @rd
 * @rerr: the responder failed: it takes nothing more
 * @cnp_at: jiffies of the last CNP sent
 */
struct isim_roce {
	struct isim_qp *qp;
	struct list_head busy_node;
	struct isim_ilq_hdrs hdrs;
	u16 arp_idx;
	u16 sport;
	u32 mtu;
	u8 retry_cnt;
	u8 ord;
	u16 ird;
	bool dcqcn;
	u32 rto_ms;
	/* requester */
	u32 psn_nxt;
	u32 snd_psn;
	u32 snd_max;
	u32 psn_una;
	struct isim_roce_swqe sw[ISIM_ROCE_SWQES];
	u32 sw_head;
	/* what isim_roce_clear() forgets on the requester's side */
	struct_group(req_flight, u32 sw_n; u32 reads; bool rnr_wait; bool halted;);
	u8 retries;
	u8 rnr_left;
	unsigned long rto_due;
	unsigned long rnr_until;
	u32 gap_psn;
	/* responder */
	u32 epsn;
	u32 msn;
	/* and on the responder's, with @rd_n */
	struct_group(rsp_flight, u16 rop; bool nak_sent, ack_due, ctl_due, rq_active, rerr;);
	u32 ack_psn;
	u8 ctl_syn;
	u32 ctl_psn;
	u32 rq_idx;
	u32 rq_off;
	struct isim_sgl rq;
	u64 wr_va;
	u32 wr_rkey;
	u32 wr_len;
	u32 wr_off;
	struct isim_roce_rd rd[ISIM_ROCE_IRD];
	u32 rd_head;
	u32 rd_n;
	unsigned long cnp_at;
};

/**
 * struct isim_roce_pkt - a packet to build
 * @op: BTH opcode
 * @se: solicited event
 * @ackreq: ask for an ACK
 * @psn: PSN
 * @dqp: destination QP
 * @ext: the extension headers after the BTH, in wire order
 * @ext_len: their bytes
 * @len: payload bytes
 */
struct isim_roce_pkt {
	u8 op;
	bool se;
	bool ackreq;
	u32 psn;
	u32 dqp;
	u8 ext[ISIM_RETH_LEN + ISIM_IMM_LEN];
	u8 ext_len;
	u32 len;
};

/**
 * struct isim_roce_in - a received packet, decoded
 * @op: BTH opcode
 * @fl: its ISIM_RCF_* flags
 * @se: solicited event
 * @ackreq: AckReq
 * @ce: CE-marked (or taken as such by the knob)
 * @dqp: destination QP
 * @psn: PSN
 * @va: RETH address
 * @rkey: RETH STag
 * @dmalen: RETH length
 * @syn: AETH syndrome
 * @imm: ImmDt or IETH
 * @data: payload
 * @len: payload bytes
 */
struct isim_roce_in {
	u8 op;
	u16 fl;
	bool se;
	bool ackreq;
	bool ce;
	u32 dqp;
	u32 psn;
	u64 va;
	u32 rkey;
	u32 dmalen;
	u8 syn;
	u32 imm;
	const u8 *data;
	u32 len;
};

/* ---- PSNs ---- */

/* @a - @b as a signed distance on the 24-bit PSN circle */
static int isim_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static u32 isim_psn_add(u32 a, u32 n)
{
	return (a + n) & ISIM_BTH_PSN;
}

static u32 isim_roce_npkts(const struct isim_roce *r, u32 len)
{
	return len ? DIV_ROUND_UP(len, r->mtu) : 1;
}

static struct isim_roce_swqe *isim_roce_sw(struct isim_roce *r, u32 i)
{
	return &r->sw[(r->sw_head + i) % ISIM_ROCE_SWQES];
}

static bool isim_roce_op_read(u8 op)
{
	return op == ISIM_WQOP_READ || op == ISIM_WQOP_READ_LOCAL_INV;
}

/* ---- state ---- */

/**
 * isim_roce_init - set up the RoCEv2 RC state of a new function
 * @f: function
 */
void isim_roce_init(struct isim_func *f)
{
	INIT_LIST_HEAD(&f->roce.busy);
	f->roce.rto_ms = ISIM_ROCE_RTO_MS;
}

/* @qp has something for isim_roce_run() to do (a timer, a response) */
static void isim_roce_busy(struct isim_func *f, struct isim_roce *r)
{
	if (list_empty(&r->busy_node))
		list_add_tail(&r->busy_node, &f->roce.busy);
}

/**
 * isim_roce_free - forget the transport state of a QP
 * @f: function
 * @qp: any QP (most have none); caller holds eng_lock
 */
void isim_roce_free(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_roce *r = qp->roce;

	if (!r)
		return;
	list_del(&r->busy_node);
	qp->roce = NULL;
	kfree(r);
	atomic64_dec(&f->roce.qps);
}

/**
 * isim_roce_reset - drop the transport's scratch state
 * @f: function; its QPs (and their state) are gone already
 */
void isim_roce_reset(struct isim_func *f)
{
	isim_xfer_put(f->roce.tx_x);
	f->roce.tx_x = NULL;
}

/* the IRD of context word 20: 0 = 4, 1 = 16, 2 = 64, 3 = 128, 4 = 256 */
static u16 isim_roce_ird(u64 w20)
{
	u8 code = FIELD_GET(ISIM_QPC_W20_IRD, w20);

	return min_t(u16, 4U << (2 * min_t(u8, code, 4)), ISIM_ROCE_IRD);
}

/* what the packets need from the context */
static void isim_roce_load(struct isim_func *f, struct isim_roce *r,
			   const u64 *ctx)
{
	struct isim_ilq_hdrs *h = &r->hdrs;
	u32 rtomin = FIELD_GET(ISIM_QPC_W16_RTOMIN, ctx[16]);

	memset(h, 0, sizeof(*h));
	h->ipv4 = ctx[0] & ISIM_QPC_W0_IPV4;
	h->vlan = ctx[0] & ISIM_QPC_W0_INSERT_VLAN;
	h->tci = FIELD_GET(ISIM_QPC_W6_VLAN_TAG, ctx[6]);
	h->tc = FIELD_GET(ISIM_QPC_W3_TOS, ctx[3]);
	h->hop = FIELD_GET(ISIM_QPC_W3_TTL, ctx[3]);
	h->flow = FIELD_GET(ISIM_QPC_W7_FLOW_LABEL, ctx[7]);
	u64_to_ether_addr(FIELD_GET(ISIM_QPC_W19_LOCAL_MAC, ctx[19]), h->smac);
	isim_conn_addr(&ctx[ISIM_QPC_W_REM_ADDR], h->ipv4, h->dst);
	isim_conn_addr(&ctx[ISIM_QPC_W_LOC_ADDR], h->ipv4, h->src);
	r->arp_idx = FIELD_GET(ISIM_QPC_W6_ARP_IDX, ctx[6]);
	r->sport = FIELD_GET(ISIM_QPC_W3_SRC_PORT, ctx[3]);
	r->mtu = clamp_t(u32, FIELD_GET(ISIM_QPC_W6_SNDMSS, ctx[6]),
			 ISIM_ROCE_MTU_MIN, ISIM_ROCE_MTU_MAX);
	r->retry_cnt = min_t(u8, FIELD_GET(ISIM_QPC_W16_REXMIT_THRESH, ctx[16]),
			     7);
	r->ord = FIELD_GET(ISIM_QPC_W20_ORD, ctx[20]);
	r->ird = isim_roce_ird(ctx[20]);
	r->dcqcn = ctx[20] & ISIM_QPC_W20_DCQCN;
	r->rto_ms = rtomin ? rtomin * ISIM_ROCE_RTOMIN_MS : f->roce.rto_ms;
}

/* forget every message and READ in flight, both ways */
static void isim_roce_clear(struct isim_roce *r)
{
	memset(&r->req_flight, 0, sizeof(r->req_flight));
	memset(&r->rsp_flight, 0, sizeof(r->rsp_flight));
	r->rd_n = 0;
}

static struct isim_roce *isim_roce_alloc(struct isim_func *f,
					 struct isim_qp *qp)
{
	struct isim_roce *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return NULL;
	r->qp = qp;
	r->cnp_at = jiffies - 1;
	INIT_LIST_HEAD(&r->busy_node);
	qp->roce = r;
	atomic64_inc(&f->roce.qps);
	return r;
}

/**
 * isim_roce_modify - a create or modify gave an RC QP a new context
 * @f: function
 * @qp: the QP, with its new state
 * @ctx: the context words in CPU order
 * @old: the state before
 *
 * Entering RTR takes the expected PSN (word 11), entering RTS the next
 * PSN (word 10); the idle state forgets everything. A QP without memory
 * for its state sends nothing on the wire (its WQEs fail, roce.c).
 */
void isim_roce_modify(struct isim_func *f, struct isim_qp *qp,
		      const u64 *ctx, u8 old)
{
	bool was_up = old == ISIM_QPS_RTR || old == ISIM_QPS_RTS ||
		      old == ISIM_QPS_CLOSING;
	struct isim_roce *r = qp->roce;

	lockdep_assert_held(&f->eng_lock);
	if (qp->type != ISIM_QP_TYPE_ROCE_RC)
		return;
	if (qp->state == ISIM_QPS_IDLE) {
		if (r) {
			isim_roce_clear(r);
			list_del_init(&r->busy_node);
		}
		return;
	}
	if (!r && qp->state != ISIM_QPS_RTR && qp->state != ISIM_QPS_RTS)
		return;
	if (!r)
		r = isim_roce_alloc(f, qp);
	if (!r)
		return;
	isim_roce_load(f, r, ctx);
	if (qp->state == ISIM_QPS_RTR && !was_up) {
		r->epsn = FIELD_GET(ISIM_QPC_PSN, ctx[11]);
		r->msn = 0;
	}
	if (qp->state == ISIM_QPS_RTS && old != ISIM_QPS_RTS &&
	    old != ISIM_QPS_CLOSING) {
		r->psn_nxt = FIELD_GET(ISIM_QPC_PSN, ctx[10]);
		r->snd_psn = r->psn_nxt;
		r->snd_max = r->psn_nxt;
		r->psn_una = r->psn_nxt;
		r->retries = 0;
		r->rnr_left = qp->rnr_retry;
		if (!was_up)
			r->epsn = FIELD_GET(ISIM_QPC_PSN, ctx[11]);
	}
}

/* ---- packets out ---- */

/* the QP may put packets on the wire now: served, not suspended */
static bool isim_roce_may_send(struct isim_func *f, const struct isim_qp *qp)
{
	return !qp->suspended && isim_sched_tc(f, qp->qs_handle) >= 0;
}

/*
 * A packet of @qp with room for its payload at *@data: Ethernet, IP and
 * UDP as the context says, the BTH and the extension headers of @p.
 * Return: NULL without memory or without the next hop's MAC.
 */
static struct sk_buff *isim_roce_new(struct isim_func *f, struct isim_roce *r,
				     const struct isim_roce_pkt *p, u8 **data)
{
	u8 pad = -p->len & 3;
	u32 ulen = sizeof(struct udphdr) + ISIM_BTH_LEN + p->ext_len + p->len +
		   pad + ISIM_ICRC_LEN;
	struct isim_ilq_hdrs h = r->hdrs;
	void *arp = xa_load(&f->conn.arp, r->arp_idx);
	struct sk_buff *skb;
	struct udphdr *uh;
	u8 *bth;

	if (!arp) {
		atomic64_inc(&f->roce.no_arp);
		return NULL;
	}
	u64_to_ether_addr(xa_to_value(arp), h.dmac);
	skb = isim_ip_frame(f, &h, IPPROTO_UDP, ulen, (void **)&uh);
	if (!skb)
		return NULL;
	uh->source = htons(r->sport ?: ISIM_ROCE_SPORT_BASE);
	uh->dest = htons(ISIM_ROCE_UDP_PORT);
	uh->len = htons(ulen);
	uh->check = 0;
	bth = (u8 *)(uh + 1);
	bth[0] = p->op;
	bth[1] = (p->se ? ISIM_BTH_B1_SE : 0) | FIELD_PREP(ISIM_BTH_B1_PAD, pad);
	put_unaligned_be16(ISIM_BTH_PKEY_DEFAULT, bth + 2);
	put_unaligned_be32(p->dqp & ISIM_BTH_QPN, bth + 4);
	bth[4] = p->op == ISIM_ROCE_CNP ? ISIM_BTH_B4_BECN : 0;
	put_unaligned_be32(p->psn & ISIM_BTH_PSN, bth + 8);
	bth[8] = p->ackreq ? ISIM_BTH_B8_ACKREQ : 0;
	memcpy(bth + ISIM_BTH_LEN, p->ext, p->ext_len);
	*data = bth + ISIM_BTH_LEN + p->ext_len;
	memset(*data + p->len, 0, pad);
	return skb;
}

/*
 * The ICRC (and on IPv6 the UDP checksum), the knobs, the wire. A packet
 * the wire loses is lost as on a network: the timers bring it again.
 */
static void isim_roce_xmit(struct isim_func *f, struct sk_buff *skb)
{
	struct udphdr *uh = udp_hdr(skb);
	u32 ulen = ntohs(uh->len);
	u8 *icrc = (u8 *)uh + ulen - ISIM_ICRC_LEN;

	if (atomic_dec_if_positive(&f->roce.drop_pkts) >= 0) {
		atomic64_inc(&f->roce.dropped);
		atomic64_inc(&f->wire.dropped);
		kfree_skb(skb);
		return;
	}
	put_unaligned_le32(isim_icrc(skb_network_header(skb),
				     skb_network_header_len(skb),
				     icrc - skb_network_header(skb)), icrc);
	/* spoiled after its ICRC is computed: the receiver must catch it */
	if (atomic_dec_if_positive(&f->roce.corrupt_tx) >= 0) {
		icrc[-1] ^= 0xff;
		atomic64_inc(&f->roce.corrupted);
	}
	if (ip_hdr(skb)->version == 6) {
		uh->check = isim_l4_csum(skb, IPPROTO_UDP, uh, ulen);
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
	}
	atomic64_inc(&f->roce.tx);
	isim_ilq_emit(f, skb);
}

/* a packet without payload (ACK, NAK, READ request, CNP) */
static void isim_roce_send_hdrs(struct isim_func *f, struct isim_roce *r,
				const struct isim_roce_pkt *p)
{
	struct sk_buff *skb;
	u8 *data;

	skb = isim_roce_new(f, r, p, &data);
	if (skb)
		isim_roce_xmit(f, skb);
}

/* an ACK or NAK of @psn with AETH syndrome @syn */
static void isim_roce_send_aeth(struct isim_func *f, struct isim_roce *r,
				u8 syn, u32 psn)
{
	struct isim_roce_pkt p = {
		.op = ISIM_RC_ACK, .psn = psn, .dqp = r->qp->dest_qp,
		.ext_len = ISIM_AETH_LEN,
	};

	put_unaligned_be32(r->msn & ISIM_AETH_MSN, p.ext);
	p.ext[0] = syn;
	isim_roce_send_hdrs(f, r, &p);
	switch (FIELD_GET(ISIM_AETH_TYPE, syn)) {
	case ISIM_AETH_ACK:
		atomic64_inc(&f->roce.acks_tx);
		break;
	case ISIM_AETH_RNR:
		atomic64_inc(&f->roce.rnr_naks_tx);
		break;
	default:
		if (FIELD_GET(ISIM_AETH_VAL, syn) == ISIM_NAK_SEQ)
			atomic64_inc(&f->roce.seq_naks_tx);
		else
			atomic64_inc(&f->roce.err_naks_tx);
	}
}

static u8 isim_aeth(u8 type, u8 val)
{
	return FIELD_PREP(ISIM_AETH_TYPE, type) | FIELD_PREP(ISIM_AETH_VAL, val);
}

/* a CE-marked packet arrived for @r's QP: tell its sender */
static void isim_roce_cnp(struct isim_func *f, struct isim_roce *r)
{
	struct isim_roce_pkt p = {
		.op = ISIM_ROCE_CNP, .dqp = r->qp->dest_qp,
		.ext_len = ISIM_CNP_PAD,
	};

	atomic64_inc(&f->roce.ecn_rx);
	isim_hwc_add(f, ISIM_GS_RX_ECN_MARKED, 1);
	if (!time_after(jiffies, r->cnp_at) || !isim_roce_may_send(f, r->qp))
		return;
	r->cnp_at = jiffies;
	isim_roce_send_hdrs(f, r, &p);
	atomic64_inc(&f->roce.cnp_tx);
	isim_hwc_add(f, ISIM_GS_CNP_SENT, 1);
}

/* ---- the requester: completions ---- */

/* complete the WQE of @e with @minor (0: success, if it asked for one) */
static void isim_roce_complete(struct isim_func *f, struct isim_qp *qp,
			       const struct isim_roce_swqe *e, u16 minor)
{
	struct isim_cpl c = {
		.sq = true, .idx = e->idx, .op = e->op, .bytes = e->len,
		.minor = minor,
	};

	if (minor || e->signaled)
		isim_exec_complete(f, qp, &c);
}

/*
 * The WQE of @e failed with @minor: it completes with the error, the QP
 * goes to the error state, and AE @code says why. The WQEs after it wait
 * for the driver's flush.
 */
static void isim_roce_fail(struct isim_func *f, struct isim_qp *qp,
			   struct isim_roce_swqe *e, u16 minor, u16 code)
{
	struct isim_roce *r = qp->roce;

	isim_roce_complete(f, qp, e, minor);
	r->sw_head = (r->sw_head + 1) % ISIM_ROCE_SWQES;
	r->sw_n--;
	if (isim_roce_op_read(e->op))
		r->reads--;
	r->halted = true;
	r->rnr_wait = false;
	qp->state = ISIM_QPS_ERROR;
	if (isim_qp_ae(f, qp, code, ISIM_AE_SRC_SQ, qp->cq_ctx, 0))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE %#x lost\n", qp->id,
				    code);
}

/* the AE of a WQE that failed locally with @minor */
static u16 isim_roce_local_ae(u16 minor)
{
	switch (minor) {
	case ISIM_WC_LOC_PROT:
		return ISIM_AE_BAD_STAG;
	case ISIM_WC_LOC_LEN:
		return ISIM_AE_MSG_TOO_LONG;
	}
	return ISIM_AE_QP_CATASTROPHIC;
}

/*
 * A READ with local invalidate unmaps its sink once the data is in.
 * Return: 0 or ISIM_WC_LOC_PROT.
 */
static u16 isim_roce_read_inv(struct isim_func *f, struct isim_qp *qp,
			      const struct isim_roce_swqe *e);

/* complete the entries at the head that are done, in SQ order */
static void isim_roce_retire(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_swqe *e;
	u16 minor;

	while (r->sw_n && !r->halted) {
		e = isim_roce_sw(r, 0);
		if (e->minor) {
			isim_roce_fail(f, qp, e, e->minor,
				       isim_roce_local_ae(e->minor));
			return;
		}
		if (e->npkts && !e->done)
			return;
		if (e->op == ISIM_WQOP_READ_LOCAL_INV) {
			minor = isim_roce_read_inv(f, qp, e);
			if (minor) {
				isim_roce_fail(f, qp, e, minor, ISIM_AE_BAD_STAG);
				return;
			}
		}
		isim_roce_complete(f, qp, e, 0);
		r->sw_head = (r->sw_head + 1) % ISIM_ROCE_SWQES;
		r->sw_n--;
		if (isim_roce_op_read(e->op))
			r->reads--;
	}
}

/* the oldest entry still waiting for the wire, or NULL */
static struct isim_roce_swqe *isim_roce_oldest(struct isim_roce *r)
{
	struct isim_roce_swqe *e;
	u32 i;

	for (i = 0; i < r->sw_n; i++) {
		e = isim_roce_sw(r, i);
		if (e->npkts && !e->done)
			return e;
	}
	return NULL;
}

/* progress: the retry counts start over, the timer from now */
static void isim_roce_progress(struct isim_func *f, struct isim_roce *r)
{
	r->retries = 0;
	r->rnr_left = r->qp->rnr_retry;
	r->rto_due = jiffies + msecs_to_jiffies(r->rto_ms);
	isim_exec_kick(f, r->qp);
}

/* send again from PSN @psn on */
static void isim_roce_go_back(struct isim_roce *r, u32 psn)
{
	if (isim_psn_diff(psn, r->snd_psn) < 0)
		r->snd_psn = psn;
}

/*
 * Everything up to PSN @a is acknowledged (an ACK, or what a NAK or a
 * READ response implies). A READ whose responses that covers and has not
 * had is asked for again. Return: true if the oldest PSN moved.
 */
static bool isim_roce_acked(struct isim_func *f, struct isim_qp *qp, u32 a)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_swqe *e;
	u32 i, una = r->psn_una;

	if (isim_psn_diff(a, r->psn_una) < 0 ||
	    isim_psn_diff(a, r->psn_nxt) >= 0)
		return false;
	for (i = 0; i < r->sw_n; i++) {
		e = isim_roce_sw(r, i);
		if (!e->npkts || e->done)
			continue;
		if (isim_psn_diff(a, e->first) < 0) {
			una = isim_psn_add(a, 1);
			break;
		}
		if (isim_roce_op_read(e->op)) {
			/* acknowledged past responses that never came */
			una = isim_psn_add(e->first, e->got);
			isim_roce_go_back(r, una);
			break;
		}
		una = isim_psn_add(a, 1);
		if (isim_psn_diff(a, e->first + e->npkts - 1) < 0)
			break;
		e->done = true;
	}
	if (isim_psn_diff(una, r->psn_una) <= 0)
		return false;
	r->psn_una = una;
	if (isim_psn_diff(r->snd_psn, una) < 0)
		r->snd_psn = una;
	isim_roce_progress(f, r);
	isim_roce_retire(f, qp);
	return true;
}

/* the retries ran out: the oldest message fails */
static void isim_roce_give_up(struct isim_func *f, struct isim_qp *qp,
			      u16 code)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_swqe *e;

	/* the entries before it are done: they complete first */
	isim_roce_retire(f, qp);
	e = r->sw_n && !r->halted ? isim_roce_sw(r, 0) : NULL;
	if (!e)
		return;
	atomic64_inc(&f->roce.gave_up);
	isim_roce_fail(f, qp, e, ISIM_WC_RETRY_EXC, code);
}

/* a timeout or a sequence NAK: try again, or give up */
static void isim_roce_retry(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_roce *r = qp->roce;

	if (r->retries >= r->retry_cnt) {
		isim_roce_give_up(f, qp, ISIM_AE_LLP_TOO_MANY_RETRIES);
		return;
	}
	r->retries++;
	isim_roce_go_back(r, r->psn_una);
	r->rto_due = jiffies + msecs_to_jiffies(r->rto_ms);
}

/* an RNR NAK of @psn with timer code @t */
static void isim_roce_rnr_nak(struct isim_func *f, struct isim_qp *qp,
			      u32 psn, u8 t)
{
	struct isim_roce *r = qp->roce;

	if (qp->rnr_retry != ISIM_QPC_RNR_FOREVER) {
		if (!r->rnr_left) {
			isim_roce_give_up(f, qp, ISIM_AE_RNR_EXCEEDED);
			return;
		}
		r->rnr_left--;
	}
	isim_roce_go_back(r, psn);
	r->rnr_wait = true;
	r->rnr_until = jiffies + usecs_to_jiffies(isim_rnr_timer_10us[t] * 10);
	/* the responder has it: no timeout while the RNR timer runs */
	r->rto_due = r->rnr_until + msecs_to_jiffies(r->rto_ms);
}

/* an error NAK of @psn: its message fails */
static void isim_roce_err_nak(struct isim_func *f, struct isim_qp *qp, u8 code)
{
	static const u16 minor[] = {
		[ISIM_NAK_INV_REQ] = ISIM_WC_REM_INV_REQ,
		[ISIM_NAK_REM_ACCESS] = ISIM_WC_REM_ACCESS,
		[ISIM_NAK_REM_OP] = ISIM_WC_REM_OP,
	};
	static const u16 ae[] = {
		[ISIM_NAK_INV_REQ] = ISIM_AE_IB_INVALID_REQUEST,
		[ISIM_NAK_REM_ACCESS] = ISIM_AE_IB_REMOTE_ACCESS,
		[ISIM_NAK_REM_OP] = ISIM_AE_IB_REMOTE_OP,
	};
	struct isim_roce *r = qp->roce;

	atomic64_inc(&f->roce.err_naks_rx);
	if (code >= ARRAY_SIZE(minor) || !minor[code])
		return;
	isim_roce_retire(f, qp);
	if (r->sw_n && !r->halted)
		isim_roce_fail(f, qp, isim_roce_sw(r, 0), minor[code], ae[code]);
}

/* an ACK or NAK for the requester */
static void isim_roce_aeth_in(struct isim_func *f, struct isim_qp *qp,
			      const struct isim_roce_in *in)
{
	u8 val = FIELD_GET(ISIM_AETH_VAL, in->syn);
	u32 before = isim_psn_add(in->psn, ISIM_BTH_PSN);
	struct isim_roce *r = qp->roce;

	switch (FIELD_GET(ISIM_AETH_TYPE, in->syn)) {
	case ISIM_AETH_ACK:
		atomic64_inc(&f->roce.acks_rx);
		isim_roce_acked(f, qp, in->psn);
		return;
	case ISIM_AETH_RNR:
		atomic64_inc(&f->roce.rnr_naks_rx);
		isim_roce_acked(f, qp, before);
		if (in->psn == r->psn_una)
			isim_roce_rnr_nak(f, qp, in->psn, val);
		return;
	case ISIM_AETH_NAK:
		break;
	default:
		atomic64_inc(&f->roce.drop_bad);
		return;
	}
	isim_roce_acked(f, qp, before);
	if (in->psn != r->psn_una)
		return;
	if (val != ISIM_NAK_SEQ) {
		isim_roce_err_nak(f, qp, val);
		return;
	}
	atomic64_inc(&f->roce.seq_naks_rx);
	isim_roce_retry(f, qp);
}

/* ---- the requester: the WQE behind an entry ---- */

/*
 * Read the WQE of @e again from the SQ (it stays there until completed)
 * into the transmit scratch state, and its payload's fragments.
 * Return: 0, or the minor code of a WQE that cannot be used now.
 */
static u16 isim_roce_wqe(struct isim_func *f, struct isim_qp *qp,
			 const struct isim_roce_swqe *e, struct isim_xfer *x,
			 const u8 **inl)
{
	unsigned int i;
	u16 minor;

	x->req.idx = e->idx;
	x->req.quanta = e->quanta;
	x->req.gen = f->gen;
	if (isim_qmem_read(f, &qp->sq.mem, e->idx * ISIM_WQ_QUANTUM,
			   x->req.raw, e->quanta * ISIM_WQ_QUANTUM))
		return ISIM_WC_LOC_PROT;
	for (i = 0; i < e->quanta * ISIM_WQ_QUANTUM / 8; i++)
		x->req.w[i] = le64_to_cpu(x->req.raw[i]);
	minor = isim_exec_payload(x, qp, x->req.w[ISIM_WQE_HDR], inl);
	if (!minor && x->len != e->len)
		minor = ISIM_WC_LOC_QP_OP;
	return minor;
}

static u16 isim_roce_read_inv(struct isim_func *f, struct isim_qp *qp,
			      const struct isim_roce_swqe *e)
{
	struct isim_xfer *x = isim_xfer_get(&f->roce.tx_x, f);
	const u8 *inl;

	if (!x || isim_roce_wqe(f, qp, e, x, &inl) || !x->local.n ||
	    isim_stag_invalidate(f, qp->pd, x->local.sge[0].stag))
		return ISIM_WC_LOC_PROT;
	return 0;
}

/* the opcode of packet @k of the SEND or WRITE @e */
static u8 isim_roce_req_op(const struct isim_roce_swqe *e, u64 hdr, u32 k)
{
	bool first = !k, last = k == e->npkts - 1;
	bool imm = hdr & ISIM_WQH_IMM;
	bool inv = e->op == ISIM_WQOP_SEND_INV ||
		   e->op == ISIM_WQOP_SEND_SOL_INV;

	if (e->op == ISIM_WQOP_WRITE || e->op == ISIM_WQOP_WRITE_SOL) {
		if (first && last)
			return imm ? ISIM_RC_WRITE_ONLY_IMM : ISIM_RC_WRITE_ONLY;
		if (last)
			return imm ? ISIM_RC_WRITE_LAST_IMM : ISIM_RC_WRITE_LAST;
		return first ? ISIM_RC_WRITE_FIRST : ISIM_RC_WRITE_MIDDLE;
	}
	if (first && last)
		return inv ? ISIM_RC_SEND_ONLY_INV :
		       imm ? ISIM_RC_SEND_ONLY_IMM : ISIM_RC_SEND_ONLY;
	if (last)
		return inv ? ISIM_RC_SEND_LAST_INV :
		       imm ? ISIM_RC_SEND_LAST_IMM : ISIM_RC_SEND_LAST;
	return first ? ISIM_RC_SEND_FIRST : ISIM_RC_SEND_MIDDLE;
}

static void isim_roce_put_reth(struct isim_roce_pkt *p, u64 va, u32 rkey,
			       u32 len)
{
	put_unaligned_be64(va, p->ext + p->ext_len);
	put_unaligned_be32(rkey, p->ext + p->ext_len + 8);
	put_unaligned_be32(len, p->ext + p->ext_len + 12);
	p->ext_len += ISIM_RETH_LEN;
}

/* the headers of packet @k of the SEND or WRITE in x->req */
static void isim_roce_req_hdrs(struct isim_roce *r,
			       const struct isim_roce_swqe *e,
			       struct isim_xfer *x, u32 k,
			       struct isim_roce_pkt *p)
{
	u64 hdr = x->req.w[ISIM_WQE_HDR];
	u16 fl;

	p->op = isim_roce_req_op(e, hdr, k);
	fl = isim_rc_ops[p->op];
	p->psn = isim_psn_add(e->first, k);
	p->dqp = r->qp->dest_qp;
	p->len = min_t(u32, e->len - k * r->mtu, r->mtu);
	p->ackreq = (fl & ISIM_RCF_LAST) || !((k + 1) % ISIM_ROCE_ACKREQ);
	p->se = (fl & ISIM_RCF_LAST) &&
		(e->op == ISIM_WQOP_SEND_SOL || e->op == ISIM_WQOP_SEND_SOL_INV ||
		 e->op == ISIM_WQOP_WRITE_SOL);
	if (fl & ISIM_RCF_RETH)
		isim_roce_put_reth(p, x->req.w[2], FIELD_GET(ISIM_WQH_REMOTE_STAG,
							     hdr), e->len);
	if (fl & ISIM_RCF_IMM)
		put_unaligned_be32(lower_32_bits(x->req.w[0]),
				   p->ext + p->ext_len);
	if (fl & ISIM_RCF_IETH)
		put_unaligned_be32(FIELD_GET(ISIM_WQH_REMOTE_STAG, hdr),
				   p->ext + p->ext_len);
	if (fl & (ISIM_RCF_IMM | ISIM_RCF_IETH))
		p->ext_len += ISIM_IMM_LEN;
}

/*
 * Send the packet at r->snd_psn, which belongs to @e, and move on.
 * Return: 0, or the minor code of a WQE whose memory fails now.
 */
static u16 isim_roce_send_one(struct isim_func *f, struct isim_qp *qp,
			      const struct isim_roce_swqe *e,
			      struct isim_xfer *x)
{
	struct isim_roce *r = qp->roce;
	u32 k = isim_psn_diff(r->snd_psn, e->first);
	struct isim_roce_pkt p = {};
	struct sk_buff *skb;
	const u8 *inl;
	u8 *data;
	u16 minor;

	minor = isim_roce_wqe(f, qp, e, x, &inl);
	if (minor)
		return minor;
	if (isim_roce_op_read(e->op)) {
		/* a READ asked from its middle asks for the rest */
		p.op = ISIM_RC_READ_REQ;
		p.psn = r->snd_psn;
		p.dqp = qp->dest_qp;
		p.ackreq = true;
		isim_roce_put_reth(&p, x->req.w[2] + (u64)k * r->mtu,
				   FIELD_GET(ISIM_WQH_REMOTE_STAG,
					     x->req.w[ISIM_WQE_HDR]),
				   e->len - k * r->mtu);
		isim_roce_send_hdrs(f, r, &p);
		r->snd_psn = isim_psn_add(e->first, e->npkts);
		return 0;
	}
	isim_roce_req_hdrs(r, e, x, k, &p);
	skb = isim_roce_new(f, r, &p, &data);
	r->snd_psn = isim_psn_add(r->snd_psn, 1);
	if (!skb)
		return 0;
	if (inl) {
		memcpy(data, inl + k * r->mtu, p.len);
	} else if (p.len && isim_sgl_io(f, &x->local, (u64)k * r->mtu, data,
				       p.len, false)) {
		kfree_skb(skb);
		return ISIM_WC_LOC_PROT;
	}
	isim_roce_xmit(f, skb);
	return 0;
}

/* the entry the PSN @psn belongs to, or NULL */
static struct isim_roce_swqe *isim_roce_entry(struct isim_roce *r, u32 psn)
{
	struct isim_roce_swqe *e;
	u32 i;

	for (i = 0; i < r->sw_n; i++) {
		e = isim_roce_sw(r, i);
		if (e->npkts && isim_psn_diff(psn, e->first) >= 0 &&
		    isim_psn_diff(psn, e->first + e->npkts) < 0)
			return e;
	}
	return NULL;
}

/*
 * Send what the window allows from r->snd_psn on: new packets and, after
 * a NAK or a timeout, those sent before.
 */
static void isim_roce_pump(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_swqe *e;
	struct isim_xfer *x;
	bool resend;
	u16 minor;

	if (r->halted || r->rnr_wait || !isim_roce_may_send(f, qp) ||
	    (qp->state != ISIM_QPS_RTS && qp->state != ISIM_QPS_CLOSING))
		return;
	x = isim_xfer_get(&f->roce.tx_x, f);
	while (x && isim_psn_diff(r->snd_psn, r->psn_nxt) < 0 &&
	       isim_psn_diff(r->snd_psn, r->psn_una) < ISIM_ROCE_WINDOW) {
		e = isim_roce_entry(r, r->snd_psn);
		if (!e || e->done) {
			r->snd_psn = isim_psn_add(r->snd_psn, 1);
			continue;
		}
		resend = isim_psn_diff(r->snd_psn, r->snd_max) < 0;
		if (resend)
			atomic64_inc(&f->roce.retrans);
		if (r->snd_psn == r->psn_una)
			r->rto_due = jiffies + msecs_to_jiffies(r->rto_ms);
		minor = isim_roce_send_one(f, qp, e, x);
		if (minor) {
			/* its memory went away under it */
			e->minor = minor;
			r->halted = true;
			break;
		}
		if (isim_psn_diff(r->snd_psn, r->snd_max) > 0)
			r->snd_max = r->snd_psn;
	}
	isim_roce_busy(f, r);
}

/* ---- the requester: taking WQEs from the SQ ---- */

/* the SQ must wait: for the window, the list, ORD, a fence, an RNR NAK */
static bool isim_roce_sq_blocked(const struct isim_roce *r, u64 hdr)
{
	u8 op = FIELD_GET(ISIM_WQH_OP, hdr);

	if (r->halted || r->rnr_wait || r->sw_n == ISIM_ROCE_SWQES ||
	    isim_psn_diff(r->psn_nxt, r->psn_una) >= ISIM_ROCE_WINDOW)
		return true;
	if (isim_roce_op_read(op) && r->reads >= max_t(u8, r->ord, 1))
		return true;
	/* the read fence waits for READs, the local fence for everything */
	if ((hdr & ISIM_WQH_READ_FENCE) && r->reads)
		return true;
	return (hdr & ISIM_WQH_LOCAL_FENCE) && r->sw_n;
}

/*
 * What the WQE x->req is on the wire: its entry's PSNs and length.
 * Return: 0, or the minor code of a WQE that cannot be sent.
 */
static u16 isim_roce_take(struct isim_xfer *x, struct isim_qp *qp, u64 hdr,
			  struct isim_roce_swqe *e)
{
	struct isim_roce *r = qp->roce;
	const u8 *inl;
	u16 minor;
	int ret;

	switch (e->op) {
	case ISIM_WQOP_NOP:
		return 0;
	case ISIM_WQOP_SEND:
	case ISIM_WQOP_SEND_INV:
	case ISIM_WQOP_SEND_SOL:
	case ISIM_WQOP_SEND_SOL_INV:
	case ISIM_WQOP_WRITE:
	case ISIM_WQOP_WRITE_SOL:
	case ISIM_WQOP_READ:
	case ISIM_WQOP_READ_LOCAL_INV:
		break;
	default:
		ret = isim_exec_mem_op(x, qp, e->op);
		return ret == -ENOENT ? ISIM_WC_LOC_QP_OP : ret;
	}
	minor = isim_exec_payload(x, qp, hdr, &inl);
	if (minor)
		return minor;
	if (x->len > ISIM_ROCE_MSG_MAX)
		return ISIM_WC_LOC_LEN;
	if (isim_roce_op_read(e->op) &&
	    (inl || (hdr & ISIM_WQH_IMM) || x->local.n > 1))
		return ISIM_WC_LOC_QP_OP;
	e->len = x->len;
	e->npkts = isim_roce_npkts(r, e->len);
	e->first = r->psn_nxt;
	r->psn_nxt = isim_psn_add(r->psn_nxt, e->npkts);
	return 0;
}

/**
 * isim_roce_sq_wqe - take an SQ WQE of an RC QP whose next hop is not the
 *	function
 * @x: scratch state of the pass, x->req the WQE at the SQ's tail
 * @qp: the QP, in RTS
 * @hdr: the WQE's header
 *
 * The WQE joins the messages in flight (a local one executes now) and
 * its packets go out as far as the window allows; it completes when its
 * acknowledgment comes. A WQE that fails locally completes with its error
 * once those before it are done.
 *
 * Return: 0, the WQE was taken; -EBUSY, it waits for the peer (an ACK or
 * a READ response makes the engine look again).
 */
int isim_roce_sq_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_swqe *e;
	struct isim_cpl c = {
		.sq = true, .idx = x->req.idx, .minor = ISIM_WC_RETRY_EXC,
		.op = FIELD_GET(ISIM_WQH_OP, hdr),
	};

	if (!r) {
		/* no state, no wire: as if no peer ever answered */
		x->f->unrouted++;
		isim_exec_complete(x->f, qp, &c);
		qp->state = ISIM_QPS_ERROR;
		return 0;
	}
	if (isim_roce_sq_blocked(r, hdr))
		return -EBUSY;
	e = isim_roce_sw(r, r->sw_n);
	memset(e, 0, sizeof(*e));
	e->idx = x->req.idx;
	e->quanta = x->req.quanta;
	e->op = c.op;
	e->signaled = hdr & ISIM_WQH_SIGNALED;
	e->first = r->psn_nxt;
	e->minor = isim_roce_take(x, qp, hdr, e);
	r->sw_n++;
	if (isim_roce_op_read(e->op) && !e->minor)
		r->reads++;
	qp->executed++;
	if (e->minor)
		r->halted = true;
	else
		isim_hwc_wqe(x->f, e->op, false);
	isim_roce_retire(x->f, qp);
	isim_roce_pump(x->f, qp);
	return 0;
}

/**
 * isim_roce_flush - FLUSH_WQES of a queue whose WQEs the transport holds
 * @f: function
 * @qp: the QP
 * @sq: the SQ (else the RQ)
 * @minor: minor code of the flush CQEs
 *
 * The SQ's messages in flight complete with the flush code (NOPs
 * excepted), oldest first; so does an RQ WQE a SEND was being placed in.
 * They come before the WQEs not yet taken, which exec.c flushes.
 */
void isim_roce_flush(struct isim_func *f, struct isim_qp *qp, bool sq,
		     u16 minor)
{
	struct isim_roce *r = qp->roce;
	struct isim_cpl c = { .minor = minor };
	struct isim_roce_swqe *e;

	lockdep_assert_held(&f->eng_lock);
	if (!r)
		return;
	if (!sq) {
		if (r->rq_active) {
			c.idx = r->rq_idx;
			isim_exec_complete(f, qp, &c);
			qp->flushed++;
		}
		r->rq_active = false;
		r->rop = 0;
		r->rd_n = 0;
		return;
	}
	while (r->sw_n) {
		e = isim_roce_sw(r, 0);
		if (e->op != ISIM_WQOP_NOP) {
			isim_roce_complete(f, qp, e, minor);
			qp->flushed++;
		}
		r->sw_head = (r->sw_head + 1) % ISIM_ROCE_SWQES;
		r->sw_n--;
	}
	r->reads = 0;
	r->halted = true;
	r->rnr_wait = false;
}

/* ---- the requester: READ responses ---- */

/* place the READ response @in, packet @k of @e */
static u16 isim_roce_resp_place(struct isim_func *f, struct isim_qp *qp,
				struct isim_roce_swqe *e, u32 k,
				const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	struct isim_xfer *x = isim_xfer_get(&f->roce.tx_x, f);
	bool last = k == e->npkts - 1;
	const u8 *inl;
	u32 want;

	want = last ? e->len - k * r->mtu : r->mtu;
	if (in->len != want || !!(in->fl & ISIM_RCF_LAST) != last)
		return ISIM_WC_REM_OP;
	if (!x || isim_roce_wqe(f, qp, e, x, &inl))
		return ISIM_WC_LOC_PROT;
	if (in->len && isim_sgl_io(f, &x->local, (u64)k * r->mtu,
				   (u8 *)in->data, in->len, true))
		return ISIM_WC_LOC_PROT;
	return 0;
}

/* a READ response for the requester */
static void isim_roce_resp_in(struct isim_func *f, struct isim_qp *qp,
			      const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_swqe *e = isim_roce_entry(r, in->psn);
	u32 want;
	u16 minor;

	if (!e || !isim_roce_op_read(e->op) || e->done)
		return;
	/* a response implies the ACK of all before its READ */
	isim_roce_acked(f, qp, isim_psn_add(e->first, ISIM_BTH_PSN));
	want = isim_psn_add(e->first, e->got);
	if (in->psn != want || r->halted) {
		/* a gap: ask for the rest at once, once per gap */
		if (isim_psn_diff(in->psn, want) > 0 && r->gap_psn != want &&
		    r->psn_una == want) {
			r->gap_psn = want;
			isim_roce_retry(f, qp);
		}
		return;
	}
	minor = isim_roce_resp_place(f, qp, e, e->got, in);
	if (minor) {
		isim_roce_retire(f, qp);
		isim_roce_fail(f, qp, isim_roce_sw(r, 0), minor,
			       minor == ISIM_WC_REM_OP ? ISIM_AE_ROCE_RSP_LENGTH :
			       ISIM_AE_BAD_STAG);
		return;
	}
	e->got++;
	r->psn_una = isim_psn_add(in->psn, 1);
	if (isim_psn_diff(r->snd_psn, r->psn_una) < 0)
		r->snd_psn = r->psn_una;
	if (e->got == e->npkts)
		e->done = true;
	isim_roce_progress(f, r);
	isim_roce_retire(f, qp);
}

/* ---- the responder ---- */

/* the responder's error: the QP goes to the error state, AE @code */
static void isim_roce_resp_err(struct isim_func *f, struct isim_qp *qp,
			       u16 code)
{
	struct isim_roce *r = qp->roce;

	r->rerr = true;
	r->rd_n = 0;
	qp->state = ISIM_QPS_ERROR;
	if (isim_qp_ae(f, qp, code, ISIM_AE_SRC_RQ, qp->cq_ctx, 0))
		dev_dbg_ratelimited(&f->dev, "QP %u: AE %#x lost\n", qp->id,
				    code);
}

/* the RQ WQE a SEND was being placed in completes with @minor */
static void isim_roce_rq_done(struct isim_func *f, struct isim_qp *qp,
			      struct isim_cpl *c, u16 minor)
{
	struct isim_roce *r = qp->roce;

	c->idx = r->rq_idx;
	c->minor = minor;
	c->bytes = minor ? 0 : r->rq_off;
	isim_exec_complete(f, qp, c);
	r->rq_active = false;
}

/*
 * A range of the QP's memory the peer names: remote access enabled, an
 * MR or window of its PD with the key, @rights and range (STag 0 is
 * never valid from the wire)
 */
static bool isim_roce_remote_ok(struct isim_func *f, struct isim_qp *qp,
				u32 rkey, u64 va, u32 len, u8 rights)
{
	return rkey && !isim_stag_access(f, rkey, qp->pd, rights, va, len);
}

/* the end of a received SEND: invalidate, complete */
static int isim_roce_send_done(struct isim_func *f, struct isim_qp *qp,
			       const struct isim_roce_in *in)
{
	struct isim_cpl c = {
		.solicited = in->se, .imm = in->imm,
		.imm_valid = in->fl & ISIM_RCF_IMM,
		.op = (in->fl & ISIM_RCF_IMM) ? ISIM_BTH_SEND_ONLY_IMM :
		      (in->fl & ISIM_RCF_IETH) ? ISIM_BTH_SEND_ONLY_INV :
		      ISIM_BTH_SEND_ONLY,
	};

	if (in->fl & ISIM_RCF_IETH) {
		c.inv_stag = in->imm;
		if (isim_stag_invalidate(f, qp->pd, in->imm)) {
			isim_roce_rq_done(f, qp, &c, ISIM_WC_LOC_PROT);
			return ISIM_NAK_INV_REQ;
		}
		c.inv = true;
	}
	isim_roce_rq_done(f, qp, &c, 0);
	isim_hwc_add(f, ISIM_GS_RDMA_RX_SENDS, 1);
	return 0;
}

/* a SEND packet. Return: 0, -EAGAIN (RNR) or an enum isim_roce_nak */
static int isim_roce_rx_send(struct isim_xfer *x, struct isim_qp *qp,
			     const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	struct isim_cpl c = {};
	int err;

	if (in->fl & ISIM_RCF_FIRST) {
		err = isim_exec_take_rq(x, qp);
		if (err == -ENOENT)
			return -EAGAIN;
		if (err)
			return ISIM_NAK_REM_OP;
		r->rq = x->rsgl;
		r->rq_idx = x->resp.idx;
		r->rq_off = 0;
		r->rq_active = true;
		if (!isim_sgl_allowed(x->f, &r->rq)) {
			isim_roce_rq_done(x->f, qp, &c, ISIM_WC_LOC_PROT);
			return ISIM_NAK_REM_OP;
		}
	}
	if ((u64)r->rq_off + in->len > r->rq.total) {
		isim_roce_rq_done(x->f, qp, &c, ISIM_WC_LOC_LEN);
		return ISIM_NAK_INV_REQ;
	}
	if (in->len && isim_sgl_io(x->f, &r->rq, r->rq_off, (u8 *)in->data,
				   in->len, true)) {
		isim_roce_rq_done(x->f, qp, &c, ISIM_WC_LOC_PROT);
		return ISIM_NAK_REM_OP;
	}
	r->rq_off += in->len;
	if (!(in->fl & ISIM_RCF_LAST))
		return 0;
	return isim_roce_send_done(x->f, qp, in);
}

/* the end of a received WRITE with immediate data: its RQ WQE */
static void isim_roce_write_imm(struct isim_xfer *x, struct isim_qp *qp,
				const struct isim_roce_in *in, u16 minor)
{
	struct isim_roce *r = qp->roce;
	struct isim_cpl c = {
		.idx = x->resp.idx, .bytes = minor ? 0 : r->wr_len,
		.imm = in->imm, .imm_valid = !minor, .solicited = in->se,
		.op = ISIM_BTH_WRITE_ONLY_IMM, .minor = minor,
	};

	isim_exec_complete(x->f, qp, &c);
}

/* a WRITE packet. Return: 0, -EAGAIN (RNR) or an enum isim_roce_nak */
static int isim_roce_rx_write(struct isim_xfer *x, struct isim_qp *qp,
			      const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	struct isim_sgl l = {};

	if (in->fl & ISIM_RCF_FIRST) {
		r->wr_va = in->va;
		r->wr_rkey = in->rkey;
		r->wr_len = in->dmalen;
		r->wr_off = 0;
		if (r->wr_len && (!qp->remote_write ||
				  !isim_roce_remote_ok(x->f, qp, in->rkey, in->va,
						       in->dmalen,
						       ISIM_RIGHT_REMOTE_WRITE)))
			return ISIM_NAK_REM_ACCESS;
	}
	if ((u64)r->wr_off + in->len > r->wr_len ||
	    ((in->fl & ISIM_RCF_LAST) && r->wr_off + in->len != r->wr_len))
		return ISIM_NAK_INV_REQ;
	/* with immediate data: an RQ WQE, or an RNR NAK before any placing */
	if ((in->fl & ISIM_RCF_IMM) && isim_exec_take_rq(x, qp))
		return -EAGAIN;
	l.sge[0].addr = r->wr_va;
	l.sge[0].len = r->wr_len;
	l.sge[0].stag = r->wr_rkey;
	l.n = r->wr_len ? 1 : 0;
	l.total = r->wr_len;
	if (in->len && isim_sgl_io(x->f, &l, r->wr_off, (u8 *)in->data,
				   in->len, true)) {
		if (in->fl & ISIM_RCF_IMM)
			isim_roce_write_imm(x, qp, in, ISIM_WC_LOC_PROT);
		return ISIM_NAK_REM_OP;
	}
	r->wr_off += in->len;
	if (!(in->fl & ISIM_RCF_LAST))
		return 0;
	if (in->fl & ISIM_RCF_IMM)
		isim_roce_write_imm(x, qp, in, 0);
	isim_hwc_add(x->f, ISIM_GS_RDMA_RX_WRITES, 1);
	return 0;
}

/*
 * A READ request, new or a duplicate: queued for isim_roce_run() to
 * answer. Return: 0 or an enum isim_roce_nak.
 */
static int isim_roce_rx_read(struct isim_func *f, struct isim_qp *qp,
			     const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_rd *rd;

	if (in->dmalen > ISIM_ROCE_MSG_MAX)
		return ISIM_NAK_INV_REQ;
	if (in->dmalen && (!qp->remote_read ||
			   !isim_roce_remote_ok(f, qp, in->rkey, in->va,
						in->dmalen,
						ISIM_RIGHT_REMOTE_READ)))
		return ISIM_NAK_REM_ACCESS;
	if (r->rd_n >= r->ird)
		return ISIM_NAK_INV_REQ;
	/* an ACK of what came before goes first */
	if (r->ack_due) {
		r->ack_due = false;
		isim_roce_send_aeth(f, r, isim_aeth(ISIM_AETH_ACK,
						    ISIM_AETH_NO_CREDITS),
				    r->ack_psn);
	}
	rd = &r->rd[(r->rd_head + r->rd_n) % ISIM_ROCE_IRD];
	rd->psn = in->psn;
	rd->va = in->va;
	rd->rkey = in->rkey;
	rd->left = in->dmalen;
	rd->first = true;
	r->rd_n++;
	isim_roce_busy(f, r);
	return 0;
}

/*
 * The ACK or NAK of a request: an error NAK at once; an RNR or sequence
 * NAK after the READ responses queued before it (it acknowledges what
 * came before); an ACK at the end of the pass, coalesced.
 */
static void isim_roce_answer(struct isim_func *f, struct isim_roce *r,
			     u8 syn, u32 psn)
{
	if (FIELD_GET(ISIM_AETH_TYPE, syn) == ISIM_AETH_ACK) {
		r->ack_due = true;
		r->ack_psn = psn;
	} else if (r->rd_n && !r->rerr) {
		r->ctl_due = true;
		r->ctl_syn = syn;
		r->ctl_psn = psn;
	} else {
		r->ack_due = false;
		isim_roce_send_aeth(f, r, syn, psn);
	}
	isim_roce_busy(f, r);
}

/* the opcode may follow the message being received (IB 9.7.5.1.2) */
static bool isim_roce_op_seq_ok(const struct isim_roce *r, u16 fl)
{
	if (!r->rop)
		return fl & ISIM_RCF_FIRST;
	return !(fl & ISIM_RCF_FIRST) && (fl & r->rop);
}

/* a request with the expected PSN. Return: as isim_roce_rx_send() */
static int isim_roce_req_new(struct isim_xfer *x, struct isim_qp *qp,
			     const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	int ret;

	if (!isim_roce_op_seq_ok(r, in->fl) || (in->fl & ISIM_RCF_ATOMIC) ||
	    in->len > r->mtu)
		return ISIM_NAK_INV_REQ;
	if (in->fl & ISIM_RCF_READ)
		return isim_roce_rx_read(x->f, qp, in);
	if (in->fl & ISIM_RCF_SEND)
		ret = isim_roce_rx_send(x, qp, in);
	else
		ret = isim_roce_rx_write(x, qp, in);
	if (ret)
		return ret;
	r->rop = (in->fl & ISIM_RCF_LAST) ? 0 :
		 in->fl & (ISIM_RCF_SEND | ISIM_RCF_WRITE);
	return 0;
}

/* the AE of a responder error answered with NAK @nak */
static u16 isim_roce_nak_ae(int nak)
{
	switch (nak) {
	case ISIM_NAK_REM_ACCESS:
		return ISIM_AE_BAD_STAG;
	case ISIM_NAK_REM_OP:
		return ISIM_AE_QP_CATASTROPHIC;
	}
	return ISIM_AE_IB_INVALID_REQUEST;
}

/* a duplicate request: acknowledged again, a READ answered again */
static void isim_roce_dup(struct isim_func *f, struct isim_qp *qp,
			  const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;

	atomic64_inc(&f->roce.dups);
	if (in->fl & ISIM_RCF_READ) {
		isim_roce_rx_read(f, qp, in);
		return;
	}
	isim_roce_answer(f, r, isim_aeth(ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS),
			 isim_psn_add(r->epsn, ISIM_BTH_PSN));
}

/* a request for the responder */
static void isim_roce_req_in(struct isim_xfer *x, struct isim_qp *qp,
			     const struct isim_roce_in *in)
{
	struct isim_roce *r = qp->roce;
	int d = isim_psn_diff(in->psn, r->epsn);
	int ret;

	if (d > 0) {
		if (!r->nak_sent)
			isim_roce_answer(x->f, r, isim_aeth(ISIM_AETH_NAK,
							    ISIM_NAK_SEQ),
					 r->epsn);
		r->nak_sent = true;
		return;
	}
	if (d < 0) {
		isim_roce_dup(x->f, qp, in);
		return;
	}
	ret = isim_roce_req_new(x, qp, in);
	if (ret == -EAGAIN) {
		isim_roce_answer(x->f, r, isim_aeth(ISIM_AETH_RNR,
						    ISIM_ROCE_RNR_TIMER),
				 in->psn);
		/*
		 * the packets behind it are dropped unanswered: a sequence NAK
		 * would cost the requester a retry while it waits the timer
		 */
		r->nak_sent = true;
		return;
	}
	if (ret) {
		/* the NAK goes at once: the READs queued before it are off */
		isim_roce_resp_err(x->f, qp, isim_roce_nak_ae(ret));
		isim_roce_answer(x->f, r, isim_aeth(ISIM_AETH_NAK, ret), in->psn);
		return;
	}
	r->nak_sent = false;
	if (in->fl & ISIM_RCF_READ) {
		r->epsn = isim_psn_add(r->epsn, isim_roce_npkts(r, in->dmalen));
		r->msn++;
		isim_hwc_add(x->f, ISIM_GS_RDMA_RX_READS, 1);
		return;
	}
	r->epsn = isim_psn_add(r->epsn, 1);
	if (in->fl & ISIM_RCF_LAST)
		r->msn++;
	if (in->ackreq || (in->fl & ISIM_RCF_LAST))
		isim_roce_answer(x->f, r, isim_aeth(ISIM_AETH_ACK,
						    ISIM_AETH_NO_CREDITS),
				 in->psn);
}

/*
 * Send up to @budget response packets of the READ at the head; Return:
 * packets sent
 */
static unsigned int isim_roce_rd_out(struct isim_func *f, struct isim_qp *qp,
				     unsigned int budget)
{
	struct isim_roce *r = qp->roce;
	struct isim_roce_rd *rd = &r->rd[r->rd_head];
	struct isim_roce_pkt p = { .dqp = qp->dest_qp };
	struct isim_sgl l = {};
	struct sk_buff *skb;
	unsigned int n = 0;
	bool last;
	u8 *data;

	while (n < budget && r->rd_n && !r->rerr) {
		p.len = min_t(u32, rd->left, r->mtu);
		last = p.len == rd->left;
		p.op = rd->first ? (last ? ISIM_RC_READ_RESP_ONLY :
					   ISIM_RC_READ_RESP_FIRST) :
			(last ? ISIM_RC_READ_RESP_LAST : ISIM_RC_READ_RESP_MIDDLE);
		p.psn = rd->psn;
		p.ext_len = isim_rc_ops[p.op] & ISIM_RCF_AETH ? ISIM_AETH_LEN : 0;
		put_unaligned_be32(r->msn & ISIM_AETH_MSN, p.ext);
		p.ext[0] = isim_aeth(ISIM_AETH_ACK, ISIM_AETH_NO_CREDITS);
		skb = isim_roce_new(f, r, &p, &data);
		l.sge[0].addr = rd->va;
		l.sge[0].len = p.len;
		l.sge[0].stag = rd->rkey;
		l.n = p.len ? 1 : 0;
		/* the MR went away since the request: a remote op error */
		if (skb && p.len && isim_sgl_io(f, &l, 0, data, p.len, false)) {
			kfree_skb(skb);
			isim_roce_send_aeth(f, r, isim_aeth(ISIM_AETH_NAK,
							    ISIM_NAK_REM_OP),
					    rd->psn);
			isim_roce_resp_err(f, qp, ISIM_AE_QP_CATASTROPHIC);
			break;
		}
		if (skb)
			isim_roce_xmit(f, skb);
		n++;
		rd->first = false;
		rd->psn = isim_psn_add(rd->psn, 1);
		rd->va += p.len;
		rd->left -= p.len;
		if (last) {
			r->rd_head = (r->rd_head + 1) % ISIM_ROCE_IRD;
			r->rd_n--;
			rd = &r->rd[r->rd_head];
		}
	}
	return n;
}

/* ---- receive ---- */

/* bytes of the extension headers an opcode with flags @fl carries */
static u32 isim_roce_ext_len(u16 fl)
{
	return (fl & ISIM_RCF_RETH ? ISIM_RETH_LEN : 0) +
	       (fl & ISIM_RCF_AETH ? ISIM_AETH_LEN : 0) +
	       (fl & (ISIM_RCF_IMM | ISIM_RCF_IETH) ? ISIM_IMM_LEN : 0);
}

/* the extension headers of @in, from @p on; Return: their bytes */
static u32 isim_roce_ext_in(struct isim_roce_in *in, const u8 *p)
{
	const u8 *start = p;

	if (in->fl & ISIM_RCF_RETH) {
		in->va = get_unaligned_be64(p);
		in->rkey = get_unaligned_be32(p + 8);
		in->dmalen = get_unaligned_be32(p + 12);
		p += ISIM_RETH_LEN;
	}
	if (in->fl & ISIM_RCF_AETH) {
		in->syn = p[0];
		p += ISIM_AETH_LEN;
	}
	if (in->fl & (ISIM_RCF_IMM | ISIM_RCF_IETH)) {
		in->imm = get_unaligned_be32(p);
		p += ISIM_IMM_LEN;
	}
	return p - start;
}

/* the ECN field of the packet's IP header says CE */
static bool isim_roce_ce_marked(const u8 *l3)
{
	const struct iphdr *ih = (const struct iphdr *)l3;

	if (ih->version == 4)
		return INET_ECN_is_ce(ih->tos);
	return INET_ECN_is_ce(ipv6_get_dsfield((const struct ipv6hdr *)l3));
}

/*
 * Check and decode the packet at @l3 (@tot bytes of IP datagram).
 * Return: NULL, or the counter of the reason it is dropped.
 */
static atomic64_t *isim_roce_decode(struct isim_func *f, u8 *l3, u8 l3_len,
				    u32 tot, struct isim_roce_in *in)
{
	u8 *bth = l3 + l3_len + sizeof(struct udphdr);
	u32 ulen = tot - l3_len, hlen, tail;

	if (ulen < sizeof(struct udphdr) + ISIM_BTH_LEN + ISIM_ICRC_LEN ||
	    get_unaligned_be16(l3 + l3_len + 4) != ulen)
		return &f->roce.drop_bad;
	if (atomic_dec_if_positive(&f->roce.corrupt_rx) >= 0) {
		l3[tot - ISIM_ICRC_LEN - 1] ^= 0xff;
		atomic64_inc(&f->roce.corrupted);
	}
	if (get_unaligned_le32(l3 + tot - ISIM_ICRC_LEN) !=
	    isim_icrc(l3, l3_len, tot - ISIM_ICRC_LEN))
		return &f->roce.drop_icrc;
	in->op = bth[0];
	in->fl = in->op < ISIM_RC_NUM ? isim_rc_ops[in->op] : 0;
	if (FIELD_GET(ISIM_BTH_B1_TVER, bth[1]) ||
	    (!in->fl && in->op != ISIM_ROCE_CNP))
		return &f->roce.drop_bad;
	in->se = bth[1] & ISIM_BTH_B1_SE;
	in->dqp = get_unaligned_be32(bth + 4) & ISIM_BTH_QPN;
	in->ackreq = bth[8] & ISIM_BTH_B8_ACKREQ;
	in->psn = get_unaligned_be32(bth + 8) & ISIM_BTH_PSN;
	hlen = sizeof(struct udphdr) + ISIM_BTH_LEN;
	tail = FIELD_GET(ISIM_BTH_B1_PAD, bth[1]) + ISIM_ICRC_LEN;
	if (in->op == ISIM_ROCE_CNP)
		return NULL;
	if (ulen < hlen + isim_roce_ext_len(in->fl) + tail)
		return &f->roce.drop_bad;
	hlen += isim_roce_ext_in(in, bth + ISIM_BTH_LEN);
	if (ulen > hlen + tail && !(in->fl & ISIM_RCF_DATA))
		return &f->roce.drop_bad;
	in->data = l3 + l3_len + hlen;
	in->len = ulen - hlen - tail;
	in->ce = isim_roce_ce_marked(l3) ||
		 atomic_dec_if_positive(&f->roce.ce_rx) >= 0;
	return NULL;
}

/* a CNP for @qp's requester */
static void isim_roce_cnp_in(struct isim_func *f, struct isim_roce *r)
{
	atomic64_inc(&f->roce.cnp_rx);
	isim_hwc_add(f, r->dcqcn ? ISIM_GS_CNP_HANDLED : ISIM_GS_CNP_IGNORED,
		     1);
}

/* hand the decoded packet @in to its QP's responder or requester */
static void isim_roce_dispatch(struct isim_xfer **xp, struct isim_func *f,
			       const struct isim_roce_in *in)
{
	struct isim_qp *qp = xa_load(&f->qps, in->dqp);
	struct isim_roce *r = qp ? qp->roce : NULL;
	struct isim_xfer *x;

	if (!r || qp->type != ISIM_QP_TYPE_ROCE_RC) {
		atomic64_inc(&f->roce.drop_qp);
		return;
	}
	if (in->op == ISIM_ROCE_CNP) {
		isim_roce_cnp_in(f, r);
		return;
	}
	if (in->ce)
		isim_roce_cnp(f, r);
	if (!(in->fl & ISIM_RCF_REQ)) {
		if (qp->state != ISIM_QPS_RTS && qp->state != ISIM_QPS_CLOSING) {
			atomic64_inc(&f->roce.drop_qp);
			return;
		}
		if (in->op == ISIM_RC_ACK)
			isim_roce_aeth_in(f, qp, in);
		else if (in->fl & ISIM_RCF_RESP)
			isim_roce_resp_in(f, qp, in);
		isim_roce_pump(f, qp);
		return;
	}
	x = isim_xfer_get(xp, f);
	if (!x || r->rerr || qp->rq.flushing ||
	    (qp->state != ISIM_QPS_RTR && qp->state != ISIM_QPS_RTS &&
	     qp->state != ISIM_QPS_CLOSING)) {
		atomic64_inc(&f->roce.drop_qp);
		return;
	}
	isim_roce_req_in(x, qp, in);
}

/**
 * isim_roce_rx - take a received RoCEv2 packet of the RC transport
 * @xp: scratch state of the engine pass (allocated on first use)
 * @f: function
 * @skb: a datagram ud.c took for the engine, data at its IP header
 * @l3_len: bytes of its IP header
 * @tot: bytes of the IP datagram
 *
 * Return: true if the packet was an RC packet or a CNP (consumed: placed,
 * answered or dropped and counted), false for ud.c to look at.
 */
bool isim_roce_rx(struct isim_xfer **xp, struct isim_func *f,
		  struct sk_buff *skb, u8 l3_len, u32 tot)
{
	u32 at = l3_len + sizeof(struct udphdr);
	struct isim_roce_in in = {};
	atomic64_t *drop;

	lockdep_assert_held(&f->eng_lock);
	if (skb->len < at + 1 || tot > skb->len || skb_linearize(skb))
		return false;
	if (skb->data[at] >= ISIM_RC_NUM && skb->data[at] != ISIM_ROCE_CNP)
		return false;
	atomic64_inc(&f->roce.rx);
	drop = isim_roce_decode(f, skb->data, l3_len, tot, &in);
	if (drop) {
		atomic64_inc(drop);
		kfree_skb(skb);
		return true;
	}
	isim_roce_dispatch(xp, f, &in);
	consume_skb(skb);
	return true;
}

/* ---- the pass ---- */

/* the requester's timers: RNR wait over, a timeout */
static void isim_roce_timers(struct isim_func *f, struct isim_qp *qp)
{
	struct isim_roce *r = qp->roce;

	if (r->rnr_wait && time_after_eq(jiffies, r->rnr_until)) {
		r->rnr_wait = false;
		isim_exec_kick(f, qp);
	}
	if (!isim_roce_oldest(r) || r->rnr_wait || r->halted ||
	    (qp->state != ISIM_QPS_RTS && qp->state != ISIM_QPS_CLOSING) ||
	    time_before(jiffies, r->rto_due))
		return;
	atomic64_inc(&f->roce.timeouts);
	isim_roce_retry(f, qp);
}

/* one QP's part of a pass; Return: packets sent, and whether it idles */
static unsigned int isim_roce_serve(struct isim_func *f, struct isim_roce *r,
				    unsigned int budget, bool *idle)
{
	struct isim_qp *qp = r->qp;
	unsigned int n = 0;

	if (isim_roce_may_send(f, qp)) {
		n = isim_roce_rd_out(f, qp, min_t(unsigned int, budget,
						  ISIM_ROCE_BURST));
		if (!r->rd_n && r->ctl_due) {
			r->ctl_due = false;
			isim_roce_send_aeth(f, r, r->ctl_syn, r->ctl_psn);
		}
		if (!r->rd_n && r->ack_due) {
			r->ack_due = false;
			isim_roce_send_aeth(f, r, isim_aeth(ISIM_AETH_ACK,
							    ISIM_AETH_NO_CREDITS),
					    r->ack_psn);
		}
	}
	isim_roce_timers(f, qp);
	isim_roce_pump(f, qp);
	*idle = !r->rd_n && !r->ack_due && !r->ctl_due && !r->rnr_wait &&
		!isim_roce_oldest(r);
	/* the engine runs on kicks: a pass must come for the timers */
	if (r->rnr_wait)
		isim_engine_due(f, r->rnr_until);
	else if (isim_roce_oldest(r) && !r->halted)
		isim_engine_due(f, r->rto_due);
	if (r->ack_due || r->ctl_due)
		isim_engine_due(f, jiffies + 1);
	return n;
}

/**
 * isim_roce_run - the RC transport's part of an engine pass
 * @f: function
 * @budget: most READ response packets to send in this pass
 *
 * Coalesced ACKs and the NAKs held behind READ responses go out, READs
 * are answered (ISIM_ROCE_BURST packets a QP), the requesters' timers
 * run and their windows are filled.
 *
 * Return: true if READ responses are left for the next pass.
 */
bool isim_roce_run(struct isim_func *f, unsigned int budget)
{
	struct isim_roce *r, *tmp;
	unsigned int n = 0;
	bool idle, more = false;

	lockdep_assert_held(&f->eng_lock);
	list_for_each_entry_safe(r, tmp, &f->roce.busy, busy_node) {
		n += isim_roce_serve(f, r, budget > n ? budget - n : 0, &idle);
		if (idle)
			list_del_init(&r->busy_node);
		else if (r->rd_n && isim_roce_may_send(f, r->qp))
			more = true;
	}
	return more;
}

/**
 * isim_roce_show - the roce line of the state file
 * @s: the file
 * @f: function
 */
void isim_roce_show(struct seq_file *s, struct isim_func *f)
{
	static const struct {
		const char *name;
		size_t off;
	} c[] = {
#define ISIM_RS(n) { #n, offsetof(struct isim_roce_stats, n) }
		ISIM_RS(qps), ISIM_RS(tx), ISIM_RS(rx), ISIM_RS(retrans),
		ISIM_RS(timeouts), ISIM_RS(gave_up), ISIM_RS(acks_tx),
		ISIM_RS(acks_rx), ISIM_RS(dups), ISIM_RS(seq_naks_tx),
		ISIM_RS(seq_naks_rx), ISIM_RS(rnr_naks_tx),
		ISIM_RS(rnr_naks_rx), ISIM_RS(err_naks_tx),
		ISIM_RS(err_naks_rx), ISIM_RS(drop_icrc), ISIM_RS(drop_qp),
		ISIM_RS(drop_bad), ISIM_RS(dropped), ISIM_RS(corrupted),
		ISIM_RS(no_arp), ISIM_RS(cnp_tx), ISIM_RS(cnp_rx),
		ISIM_RS(ecn_rx),
#undef ISIM_RS
	};
	unsigned int i;

	seq_puts(s, "roce:");
	for (i = 0; i < ARRAY_SIZE(c); i++)
		seq_printf(s, " %s=%lld", c[i].name,
			   (s64)atomic64_read((atomic64_t *)((u8 *)&f->roce +
							     c[i].off)));
	seq_putc(s, '\n');
}

/**
 * isim_roce_debugfs - the RC transport's knobs in the function's directory
 * @f: function, its debugfs directory made
 */
void isim_roce_debugfs(struct isim_func *f)
{
	debugfs_create_atomic_t("drop_roce_pkts", 0600, f->ddir,
				&f->roce.drop_pkts);
	debugfs_create_atomic_t("corrupt_roce_tx", 0600, f->ddir,
				&f->roce.corrupt_tx);
	debugfs_create_atomic_t("corrupt_roce_rx", 0600, f->ddir,
				&f->roce.corrupt_rx);
	debugfs_create_atomic_t("ce_roce_rx", 0600, f->ddir, &f->roce.ce_rx);
	debugfs_create_u32("roce_rto_ms", 0600, f->ddir, &f->roce.rto_ms);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/roce_test.c"
#endif
