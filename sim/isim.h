/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: private definitions of the simulated gen2 RDMA engine.
 *
 * One struct isim_func per simulated PCI function. Each feature lives in
 * its own file with an _init/_exit pair declared here.
 */
#ifndef _ISIM_H_
#define _ISIM_H_

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/timer.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "isim_aux.h"
#include "isim_defs.h"
#include "roce.h"

struct seq_file;

#define ISIM_MAX_ID		63	/* the ID is also the HMC function id */
#define ISIM_NUM_VECTORS	5	/* irqs[0] for the AEQ, then CEQs */
/*
 * Engine vector number of irqs[0]. The parent keeps the low vectors for
 * itself (ice its misc/OICR vector and the LAN queues', i40e its vector 0),
 * so RDMA never starts at 0; a driver that writes its own array index
 * into CEQCTL/AEQCTL instead of the vector number shows up as bad_vector.
 */
#define ISIM_FIRST_VECTOR	2
/* DYN_CTL registers past the function's vectors the engine watches */
#define ISIM_STRAY_VECTORS	16
#define ISIM_GEN1		1	/* X722 */
#define ISIM_GEN2		2	/* E810 */
#define ISIM_MAX_CEQS		32
#define ISIM_MAX_SDS		128
#define ISIM_CQP_BUDGET		64	/* CQP WQEs per engine tick */
#define ISIM_WQE_BUDGET		256	/* SQ/RQ WQEs per engine tick */
#define ISIM_PASS_NS		(100 * NSEC_PER_MSEC) /* work a pass takes on */
#define ISIM_SCAN_MS		10	/* most an idle engine goes unscanned */
#define ISIM_SCAN_SHARE		20	/* guard passes: at most 1/20 of the time */

struct isim_func;
struct isim_win;
struct dentry;

/**
 * enum isim_claim - the driver a function's auxiliary device is for
 * @ISIM_CLAIM_IRDMA: this project's irdma ("irdma_sim.func.<ID>")
 * @ISIM_CLAIM_UPSTREAM: Linux 6.1's irdma as the harness builds it
 *	("irdma_sim.upstream.<ID>"; tools/upstream/)
 */
enum isim_claim {
	ISIM_CLAIM_IRDMA,
	ISIM_CLAIM_UPSTREAM,
};

/**
 * struct isim_regmap - where one generation keeps the registers the engine
 *	reads and writes (byte offsets into the BAR)
 * @bar_len: size of the register BAR
 * @cqpdb: CQP SQ head the driver writes
 * @cqptail: CQP SQ tail and error bit the engine reports
 * @ccqpstatus: CQP create result
 * @ccqphigh: CQP host context address, high 32 bits
 * @ccqplow: CQP host context address, low 32 bits (the trigger)
 * @cqperrcodes: major and minor code of the last error
 * @cqarm: CQ arm doorbell
 * @aeqalloc: AEQ elements the driver hands back
 * @wqealloc: SQ doorbell
 * @aeqctl: AEQ cause control
 * @ceqctl: CEQ 0's cause control; CEQ n's is 4 * n further
 * @dyn_ctl: DYN_CTL of engine vector @dyn_ctl_first; vector v's is
 *	4 * (v - @dyn_ctl_first) further
 * @dyn_ctl_first: the lowest engine vector with a DYN_CTL register here
 * @cpustatus: CPUSTATUS0; 1 and 2 follow
 * @lbarctrl: LBARCTRL, which announces the doorbell BAR size
 * @lbar_db_size: its DB_SIZE value for @bar_len
 * @udb: the user doorbell page (WQEALLOC at 0, CQARM at 64)
 */
struct isim_regmap {
	u32 bar_len;
	u32 cqpdb;
	u32 cqptail;
	u32 ccqpstatus;
	u32 ccqphigh;
	u32 ccqplow;
	u32 cqperrcodes;
	u32 cqarm;
	u32 aeqalloc;
	u32 wqealloc;
	u32 aeqctl;
	u32 ceqctl;
	u32 dyn_ctl;
	u32 dyn_ctl_first;
	u32 cpustatus;
	u32 lbarctrl;
	u32 lbar_db_size;
	u32 udb;
};

/**
 * struct isim_qmem - a queue ring as the engine addresses it
 * @pa: bus address of the ring when it is physically contiguous
 * @first_pble: first PBLE index when the ring is virtually mapped
 * @bytes: ring length in bytes
 * @virt: the ring is described by single-level PBLEs in the HMC
 */
struct isim_qmem {
	u64 pa;
	u32 first_pble;
	u32 bytes;
	bool virt;
};

/**
 * struct isim_ring - producer state of a ring the engine writes
 * @mem: where the ring is
 * @size: number of elements
 * @elem: bytes per element
 * @head: index of the next element the engine writes
 * @polarity: valid bit the engine writes on this pass
 */
struct isim_ring {
	struct isim_qmem mem;
	u32 size;
	u32 elem;
	u32 head;
	u8 polarity;
};

/**
 * struct isim_cq - a completion queue known to the engine (the CCQ too)
 * @id: CQ id (the CCQ is 0)
 * @node: in the function's cq_list
 * @ring: CQE ring
 * @ctx: CQ context value echoed in CEQEs and AEQEs
 * @shadow_pa: bus address of the CQ shadow area
 * @ceq: CEQ notified when the CQ is armed, if @ceq_valid
 * @ceq_valid: the CQ reports to a CEQ
 * @chk_overflow: check the consumer index before writing a CQE
 * @armed: the driver asked for an event on the next CQE
 * @solicited_only: the event is for the next solicited or error CQE only
 * @arm_seq: arm sequence number last seen in the shadow area
 * @cqes: CQEs written
 * @overflows: CQEs dropped because the ring was full
 * @events: CEQEs raised for the CQ, @early_events among them
 * @early_events: events raised by an arm that found an unconsumed CQE
 * @resizes: rings the CQ moved to with MODIFY_CQ (word 4's RESIZED
 *	catches up with it as the driver drains the old ones)
 */
struct isim_cq {
	u32 id;
	struct list_head node;
	struct isim_ring ring;
	u64 ctx;
	u64 shadow_pa;
	u16 ceq;
	bool ceq_valid;
	bool chk_overflow;
	bool armed;
	bool solicited_only;
	u8 arm_seq;
	u64 cqes;
	u64 overflows;
	u64 events;
	u64 early_events;
	u32 resizes;
};

/**
 * struct isim_wq - the engine's side of a QP's SQ or RQ
 * @mem: where the ring is
 * @quanta: ring size in 32-byte quanta
 * @tail: quantum index of the next WQE the engine reads
 * @shift: RQ only: a WQE is 1 << @shift quanta
 * @polarity: valid bit the WQE at @tail carries when it is posted
 * @flushing: FLUSH_WQES ran: every WQE posted from now on is completed
 *	with a flush error rather than executed
 * @minor: minor code of those flush CQEs
 */
struct isim_wq {
	struct isim_qmem mem;
	u32 quanta;
	u32 tail;
	u8 shift;
	u8 polarity;
	bool flushing;
	u16 minor;
};

/**
 * struct isim_flow - the addressing of a received TCP segment, as the
 *	steering filters compare it
 * @ipv4: IPv4 (addresses in word 0)
 * @syn: SYN set and ACK clear: a connection request
 * @vlan: VLAN id, or 0xffff for an untagged frame
 * @loc_addr: destination address, host-order words
 * @rem_addr: source address, host-order words
 * @loc_port: destination port
 * @rem_port: source port
 */
struct isim_flow {
	bool ipv4;
	bool syn;
	u16 vlan;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
};

/**
 * struct isim_toe - the engine's TCP connection of an offloaded iWARP QP
 * @node: in isim_conn.toe while @linked (under isim_conn.qh_lock)
 * @flow: the 4-tuple and VLAN as a received segment of the connection
 *	carries them (local = this function)
 * @qpn: the QP, for the receive path, which must not touch the QP
 * @gen: tells a segment queued for an earlier connection of the QP apart
 * @linked: the 4-tuple is the engine's (the QP is in RTS or CLOSING)
 * @loc_mac: source MAC of transmitted segments (context word 19; gen1:
 *	the local MAC table entry context word 3 names)
 * @arp_idx: ARP cache entry of the peer (destination MAC)
 * @mss: send MSS
 * @snd_nxt: sequence number of the next byte sent
 * @snd_una: oldest byte sent and not acknowledged by the peer yet
 * @snd_wnd: the peer's window, in bytes (from its last acceptable ACK)
 * @rcv_nxt: sequence number of the next byte expected
 * @rcv_wnd: our window, in bytes
 * @rcv_wscale: shift of the window we advertise
 * @snd_wscale: shift of the window the peer advertises
 * @ttl: IPv4 TTL or IPv6 hop limit
 * @tos: IPv4 TOS or IPv6 traffic class
 * @flow_label: IPv6 flow label
 * @vlan_tag: 802.1Q tag, with @insert_vlan
 * @insert_vlan: tag transmitted frames
 * @first_fpdu: a segment with payload has arrived from the peer
 * @wait_fpdu: an LSMM with WAITFORRCVPDU went out before @first_fpdu:
 *	the SQ holds every WQE after it until the peer's first FPDU
 * @fin_rcvd: the peer's FIN arrived (reported once)
 * @term_sent: a MODIFY_QP to TERMINATE sent the TERMINATE message
 * @fin_pending: a MODIFY_QP to CLOSING asked for our FIN; it goes out once
 *	the SQ has nothing more to send
 * @fin_sent: our FIN went out (it took the sequence number snd_nxt - 1)
 * @fin_acked: the peer acknowledged our FIN
 * @closed_first: our FIN went out before the peer's came in: the close
 *	ends in TIME_WAIT (struct isim_toe_tw)
 * @no_crc: the MPA CRC is not used (context word 20 bit 31): sent as 0,
 *	not checked
 * @snd_msn: MSN of the next untagged message sent on DDP queue 0 (SEND)
 *	and 1 (READ request)
 * @rcv_msn: MSN expected next on queues 0 and 1
 * @rd_busy: a READ request is outstanding; the SQ waits for its response
 * @rd_signaled: that READ WQE asked for a completion
 * @rd_idx: quantum index of the READ WQE
 * @rd_stag: its sink STag
 * @rd_to: its sink tagged offset
 * @rd_len: bytes it asked for
 * @rd_done: bytes of READ RESPONSE placed so far
 * @rd_inv: a READ with local invalidate: @rd_stag is unmapped once the
 *	data is in
 * @rtxq: segments sent and not yet acknowledged, oldest first (struct
 *	isim_toe_rtx, toe.c); set up when the connection is linked
 * @rx_queued: its segments in the engine's receive queue, not yet looked
 *	at (taken under isim_conn.qh_lock, while @linked)
 * @rto_due: jiffies when the oldest of them is sent again
 * @rto_ms: the retransmission timeout; doubles with each expiry
 * @retries: expiries since the peer last acknowledged something
 * @rexmit_thresh: expiries the connection survives (context word 16)
 * @dupacks: duplicate ACKs since snd_una last moved
 * @recovering: a loss is being repaired: each ACK that moves snd_una
 *	short of @recover sends the next oldest segment again
 * @recover: snd_nxt when the loss was detected
 * @ieq_qpn: the IEQ that takes partial FPDUs (context word 22; 0: none)
 * @partial: an FPDU was cut by a segment's end: every in-order segment
 *	with data goes to the IEQ whole until the driver has handed back
 *	(through the IEQ's loopback sends) everything up to @rcv_nxt
 * @fpdu_nxt: while @partial, where the next FPDU the engine has not seen
 *	starts (the FPSN of the episode, and on with what comes back)
 */
struct isim_toe {
	struct list_head node;
	struct isim_flow flow;
	u32 qpn;
	u32 gen;
	bool linked;
	u8 loc_mac[ETH_ALEN];
	u16 arp_idx;
	u16 mss;
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u8 rcv_wscale;
	u8 snd_wscale;
	u8 ttl;
	u8 tos;
	u32 flow_label;
	u16 vlan_tag;
	bool insert_vlan;
	bool first_fpdu;
	bool wait_fpdu;
	bool fin_rcvd;
	bool fin_pending;
	bool term_sent;
	bool fin_sent;
	bool fin_acked;
	bool closed_first;
	bool no_crc;
	u32 snd_msn[2];
	u32 rcv_msn[2];
	bool rd_busy;
	bool rd_signaled;
	u32 rd_idx;
	u32 rd_stag;
	u64 rd_to;
	u32 rd_len;
	u32 rd_done;
	bool rd_inv;
	struct list_head rtxq;
	atomic_t rx_queued;
	unsigned long rto_due;
	u32 rto_ms;
	u8 retries;
	u8 rexmit_thresh;
	u8 dupacks;
	bool recovering;
	u32 recover;
	u16 ieq_qpn;
	bool partial;
	u32 fpdu_nxt;
};

/**
 * struct isim_qp - a QP the engine knows
 * @id: QP id
 * @node: in the function's qp_list
 * @kick: in the function's kick_list while something the engine did may
 *	let its SQ run (see isim_exec_kick())
 * @sq_waits: kicked for a later pass, not at once
 *	(isim_engine_kicked_ready()): the WQE at its SQ's tail met an RNR
 *	NAK, or its RQ is flushing (posts to it ring nothing)
 * @type: QP type from the create command
 * @state: state the last create or modify asked for
 * @suspended: SUSPEND_QP completed and no RESUME_QP yet
 * @qs_handle: the work-scheduler leaf the QP transmits through (context
 *	word 22, or the last RESUME_QP); see isim_sched_tc()
 * @term_halted: iWARP: a received FPDU failed its checks or was a
 *	TERMINATE; the engine places nothing more and runs no SQ WQE, and
 *	waits for the driver (a MODIFY_QP to TERMINATE or to ERR)
 * @ctx_pa: bus address of the driver's QP host context
 * @q2_pa: bus address of the QP's Q2 buffer (0: none)
 * @shadow_pa: bus address of the QP's doorbell shadow area
 * @modifies: MODIFY_QP commands applied
 * @sq: send queue
 * @rq: receive queue
 * @cq_ctx: completion context from the host context, echoed in CQEs
 * @sq_cq: CQ of SQ completions
 * @rq_cq: CQ of RQ completions
 * @dest_qp: RoCEv2 RC: the connected QP (on this function: loopback)
 * @arp_idx: RoCEv2 RC: the ARP cache entry of the next hop (context word 6)
 * @src_mac: the QP's source MAC (context word 19)
 * @qkey: RoCEv2 UD: the Q_Key a received datagram must carry
 * @ud_psn: RoCEv2 UD: PSN of the next datagram sent (24 bits)
 * @pd: protection domain
 * @rnr_retry: RNR retry count; ISIM_QPC_RNR_FOREVER retries forever
 * @rnr_tries: RNR NAKs the SQ's head WQE has met so far
 * @rnr_until: jiffies before which that WQE is not tried again
 * @privileged: STag 0 addresses bus memory directly
 * @remote_write: the peer may write (RDMA WRITE) to this QP's memory
 * @remote_read: the peer may read (RDMA READ) from this QP's memory
 * @virt: the rings are PBLE-mapped (the context's SQ and RQ address words
 *	hold PBLE indexes)
 * @executed: SQ WQEs executed
 * @flushed: WQEs completed with a flush error
 * @toe: iWARP: the TCP connection a MODIFY_QP to RTS handed over; the
 *	QP is offloaded while @toe.linked
 * @roce: RoCEv2 RC: the transport state (roce.c), from the QP's first
 *	move to RTR until it is destroyed; NULL before, or without memory
 */
struct isim_qp {
	u32 id;
	struct list_head node;
	struct list_head kick;
	bool sq_waits;
	u8 type;
	u8 state;
	bool suspended;
	bool term_halted;
	u32 qs_handle;
	u64 ctx_pa;
	u64 q2_pa;
	u64 shadow_pa;
	u64 modifies;
	struct isim_wq sq;
	struct isim_wq rq;
	u64 cq_ctx;
	u32 sq_cq;
	u32 rq_cq;
	u32 dest_qp;
	u16 arp_idx;
	u64 src_mac;
	u32 qkey;
	u32 ud_psn;
	u32 pd;
	u8 rnr_retry;
	u8 rnr_tries;
	unsigned long rnr_until;
	bool privileged;
	bool remote_write;
	bool remote_read;
	bool virt;
	u64 executed;
	u64 flushed;
	struct isim_toe toe;
	struct isim_roce *roce;
};

/* ---- the data path's scratch state (exec.c, ud.c) ---- */

#define ISIM_SLOTS		15	/* fragment slots of an 8-quantum WQE */
#define ISIM_WQE_WORDS		(ISIM_WQ_MAX_QUANTA * ISIM_WQ_QUANTUM / 8)
#define ISIM_INLINE_MAX		(ISIM_INLINE_FIRST + \
				 (ISIM_WQ_MAX_QUANTA - 1) * ISIM_INLINE_PER_QUANTUM)

/* ---- the data path's scratch state (exec.c, ud.c) ---- */

/**
 * struct isim_sge - one fragment of a WQE
 * @addr: bus address (STag 0) or IOVA
 * @len: bytes
 * @stag: STag
 */
struct isim_sge {
	u64 addr;
	u32 len;
	u32 stag;
};

/**
 * struct isim_sgl - the fragments of a WQE, or one remote range
 * @sge: fragments of non-zero length
 * @n: entries in @sge
 * @total: sum of their lengths
 * @pd: protection domain of the QP whose memory the fragments are
 * @rights: ISIM_RIGHT_* the access needs
 * @privileged: that QP may use STag 0
 */
struct isim_sgl {
	struct isim_sge sge[ISIM_SLOTS];
	u32 n;
	u64 total;
	u32 pd;
	u8 rights;
	bool privileged;
};

/**
 * struct isim_wqe - a WQE as read from a ring
 * @raw: the quanta as the driver wrote them (inline bytes)
 * @w: the same words in CPU order
 * @idx: quantum index of the first quantum
 * @quanta: quanta it covers
 * @gen: generation of the function whose ring it is: the layout of its
 *	fragments and inline data
 */
struct isim_wqe {
	__le64 raw[ISIM_WQE_WORDS];
	u64 w[ISIM_WQE_WORDS];
	u32 idx;
	u8 quanta;
	u8 gen;
};

/**
 * struct isim_cpl - what a CQE reports
 * @idx: quantum index of the WQE
 * @bytes: bytes received (RQ)
 * @imm: immediate data, with @imm_valid
 * @minor: 0 for success, else an enum isim_wc_minor
 * @op: SQ: the WQE's opcode; RQ: the message's BTH opcode
 * @sq: an SQ completion
 * @imm_valid: @imm is carried (extended CQE)
 * @solicited: the message asked for a solicited event
 * @inv_stag: the STag a SEND with invalidate unmapped, with @inv
 * @inv: an RQ completion that invalidated @inv_stag
 * @src_qp: UD receive: the sender's QP (DETH), with @ud
 * @smac: UD receive: source MAC of the frame
 * @tci: UD receive: VLAN tag, with @vlan
 * @ud: a UD receive completion: @src_qp, @smac (extended CQE)
 * @vlan: the frame was tagged
 * @ipv4: the frame was IPv4
 */
struct isim_cpl {
	u32 idx;
	u32 bytes;
	u32 imm;
	u32 inv_stag;
	u16 minor;
	u8 op;
	bool sq;
	bool imm_valid;
	bool solicited;
	bool inv;
	u32 src_qp;
	u64 smac;
	u16 tci;
	bool ud;
	bool vlan;
	bool ipv4;
};

/**
 * struct isim_xfer - scratch state of one engine pass over the data path
 * @f: function
 * @bounce: one page the payload moves through
 * @req: the SQ WQE being executed
 * @resp: the responder's RQ WQE
 * @local: fragments of @req (when not inline)
 * @rsgl: fragments of @resp, or the remote range of a WRITE/READ
 * @inl: inline payload of @req
 * @len: payload length of @req
 */
struct isim_xfer {
	struct isim_func *f;
	u8 *bounce;
	struct isim_wqe req;
	struct isim_wqe resp;
	struct isim_sgl local;
	struct isim_sgl rsgl;
	u8 inl[ISIM_INLINE_MAX];
	u64 len;
};

/**
 * struct isim_stag - an MR or MW STag index
 * @tag: bits 31:8 of the STag: the index and the driver's bits above it
 * @index: MR index, the low bits of @tag (stag.c says how many)
 * @key: key byte of the registered STag
 * @pd: protection domain
 * @len: length in bytes (0 with no page list: all of memory)
 * @va: virtual address or first-byte offset
 * @buf_pa: the one buffer or page (no page list)
 * @first_pble: first PBLE of the page list
 * @rights: access rights
 * @pbl_code: the command's raw page-list depth field
 * @pbl_levels: 0 (@buf_pa), 1 or 2, decoded from @pbl_code
 * @page_size: page size code (4 KiB << 9 * @page_size)
 * @mr: a memory region (else a memory window)
 * @mw_type1: a type 1 window
 * @registered: REG_MR, a fast-register WQE, or a window bound by a
 *	BIND_MW WQE; cleared by an invalidation
 * @fast_reg: an MR that ALLOC_STAG reserved: fast-register WQEs map it,
 *	invalidations unmap it
 * @remote: remote access enabled
 * @va_based: addressed by VA (else zero-based)
 * @parent: STag of the MR a window is bound to; its memory is reached
 *	through that MR (none once the MR is gone)
 */
struct isim_stag {
	u32 tag;
	u32 index;
	u8 key;
	u32 pd;
	u64 len;
	u64 va;
	u64 buf_pa;
	u32 first_pble;
	u8 rights;
	u8 pbl_code;
	u8 pbl_levels;
	u8 page_size;
	bool mr;
	bool mw_type1;
	bool registered;
	bool fast_reg;
	bool remote;
	bool va_based;
	u32 parent;
};

/**
 * struct isim_qhash - one quad-hash filter
 * @node: in isim_func.qhash
 * @type: TCP SYN (listener), TCP established (4-tuple), ...
 * @ipv4: addresses are IPv4 (word 3 of each address)
 * @vlan: VLAN id, or 0xffff for none
 * @loc_addr: local address, network words as the driver wrote them
 * @rem_addr: remote address (established entries)
 * @loc_port: local port
 * @rem_port: remote port (established entries)
 * @qpn: QP that receives matching segments
 * @qset: scheduler qset handle
 */
struct isim_qhash {
	struct list_head node;
	u8 type;
	bool ipv4;
	u16 vlan;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u32 qpn;
	u16 qset;
};

/**
 * struct isim_ah - an address handle, as the driver described it
 * @index: AH index
 * @wqe: the create/modify WQE, kept for the transmit path
 */
struct isim_ah {
	u32 index;
	u64 wqe[ISIM_CQP_WQE_WORDS];
};

/**
 * struct isim_mcg - a multicast group of UD QPs
 * @index: the group's index (below the committed FSIMC count)
 * @ipv4: @addr is IPv4
 * @addr: the group's address, host-order words (IPv4 in word 0)
 * @qpn: member QPs, @n of them
 * @n: members
 * @rx: datagrams delivered, one per member reached
 */
struct isim_mcg {
	u32 index;
	bool ipv4;
	u32 addr[4];
	u32 qpn[ISIM_MCG_MEMBERS];
	u8 n;
	u64 rx;
};

/**
 * struct isim_conn - connection steering tables of the function
 * @apbvt: local TCP ports open for accelerated connections
 * @qhash: quad-hash filters (struct isim_qhash)
 * @nqhash: entries in @qhash
 * @arp: valid ARP cache entries by index (xa_mk_value of the MAC)
 * @lmac: local MAC table
 * @lmac_used: entries of @lmac handed out by ALLOC_LOCAL_MAC
 * @stats: statistics instances in use
 * @toe: 4-tuples of offloaded connections (struct isim_toe.node)
 * @ntoe: entries in @toe
 * @toe_gen: generation of the last connection offloaded
 * @tw: connections in TIME_WAIT (struct isim_toe_tw), in the order they
 *	expire
 * @ntw: entries in @tw
 * @tw_id: id of the last entry added to @tw
 * @qh_lock: protects @qhash, @nqhash, @toe, @ntoe, @tw and @ntw against
 *	the receive path, which steers frames in softirq context; writers
 *	of @toe also hold eng_lock (the receive path frees @tw entries)
 */
struct isim_conn {
	unsigned long *apbvt;
	struct list_head qhash;
	u32 nqhash;
	spinlock_t qh_lock; /* see @qh_lock above */
	struct xarray arp;
	u64 lmac[ISIM_LMAC_ENTRIES];
	unsigned long lmac_used;
	DECLARE_BITMAP(stats, ISIM_STATS_INSTANCES);
	struct list_head toe;
	u32 ntoe;
	u32 toe_gen;
	struct list_head tw;
	u32 ntw;
	u32 tw_id;
};

/**
 * struct isim_ws_node - a node of the work scheduler's tree (sched.c)
 * @parent: the parent's id; a root's is its own
 * @children: nodes whose parent this is
 * @vsi: VSI the node serves (word 4)
 * @weight: share among its siblings (word 4)
 * @tc: traffic class
 * @prio_type: priority type
 * @used: the node exists
 * @leaf: a leaf, which QPs name by its id (their QS handle)
 * @enabled: the scheduler serves the node
 */
struct isim_ws_node {
	u16 parent;
	u16 children;
	u16 vsi;
	u8 weight;
	u8 tc;
	u8 prio_type;
	bool used;
	bool leaf;
	bool enabled;
};

/**
 * struct isim_sched - the work scheduler of a function
 * @node: ISIM_WS_NODES nodes by id
 * @nodes: nodes in use
 * @root: id of the root node, with @has_root
 * @has_root: the tree has its root
 * @qsets: QS handles the driver registered with the parent (qset_add);
 *	a registration names a handle, not a node: it outlives a DELETE of
 *	the leaf until qset_del, as the driver deletes the node first
 * @unsched: times a pass found work on a QP it could not schedule
 *
 * The nodes go with a function reset; @qsets are the parent's and stay.
 */
struct isim_sched {
	struct isim_ws_node *node;
	u32 nodes;
	u16 root;
	bool has_root;
	DECLARE_BITMAP(qsets, ISIM_WS_NODES);
	u64 unsched;
};

/**
 * struct isim_ilq_hdrs - the headers the engine puts in front of a TCP
 *	segment or a RoCEv2 datagram it transmits (isim_ah_hdrs())
 * @dmac: destination MAC
 * @smac: source MAC
 * @tci: VLAN tag, with @vlan
 * @vlan: insert an 802.1Q tag
 * @ipv4: IPv4 (else IPv6)
 * @loopback: the AH has the loopback bit: the frame stays in the function
 *	(the IEQ's sends, isim_toe_ieq_in())
 * @tc: IPv4 TOS or IPv6 traffic class
 * @hop: TTL or hop limit
 * @flow: IPv6 flow label
 * @src: source address, host-order words
 * @dst: destination address, host-order words
 */
struct isim_ilq_hdrs {
	u8 dmac[ETH_ALEN];
	u8 smac[ETH_ALEN];
	u16 tci;
	bool vlan;
	bool ipv4;
	bool loopback;
	u8 tc;
	u8 hop;
	u32 flow;
	u32 src[4];
	u32 dst[4];
};

/**
 * struct isim_toe_tw - a connection in TIME_WAIT (RFC 9293, 3.6)
 * @node: in isim_conn.tw (under isim_conn.qh_lock)
 * @flow: its 4-tuple and VLAN, as isim_toe.flow
 * @hdrs: the headers in front of the segments it sends
 * @id: tells a segment queued for an earlier record of the 4-tuple apart
 * @snd_nxt: our sequence number after our FIN
 * @rcv_nxt: the peer's after its FIN
 * @wnd: the window field of the segments it sends
 * @expires: jiffies when the 4-tuple is given up
 *
 * The engine keeps it after a close it began, apart from the QP, which
 * the driver may then destroy: the peer's FIN, sent again because our
 * last ACK was lost, is acknowledged once more instead of meeting the
 * stack, which knows no such connection and would reset it.
 */
struct isim_toe_tw {
	struct list_head node;
	struct isim_flow flow;
	struct isim_ilq_hdrs hdrs;
	u32 id;
	u32 snd_nxt;
	u32 rcv_nxt;
	u16 wnd;
	unsigned long expires;
};

/**
 * struct isim_ilq - the privileged raw queues' side of the function
 * @rxq: steered frames waiting for the engine to place them (own lock)
 * @tx_tap: test hook: when set, takes transmitted frames instead of the
 *	netdev (KUnit); set before the engine runs, never changed after
 * @ip_id: identification of the next IPv4 header the engine writes
 * @tx: frames transmitted
 * @rx: frames placed in an RQ buffer
 * @steered: frames a filter took away from the network stack
 * @dropped: steered frames lost (no QP, no RQ buffer, too long, queue
 *	full, drop knob) and transmitted ones the knob dropped
 * @tx_err: SQ WQEs completed with an error
 */
struct isim_ilq {
	struct sk_buff_head rxq;
	void (*tx_tap)(struct isim_func *f, struct sk_buff *skb);
	u16 ip_id;
	atomic64_t tx;
	atomic64_t rx;
	atomic64_t steered;
	atomic64_t dropped;
	atomic64_t tx_err;
};

/**
 * struct isim_ud_stats - RoCEv2 datagrams of UD and GSI QPs (ud.c)
 * @rxq: datagrams taken from the stack, waiting for the engine (own lock)
 * @tx: datagrams sent
 * @tx_err: SQ WQEs completed with an error (bad opcode, AH, payload)
 * @tx_lost: datagrams built that the netdev refused
 * @steered: datagrams taken from the stack for the engine
 * @rx: datagrams placed in an RQ buffer
 * @rx_err: datagrams that completed their RQ WQE with an error (buffer
 *	too small or unreachable)
 * @drop_full: of @steered, dropped because @rxq was full
 * @drop_malformed: dropped: UDP length or headers do not fit
 * @drop_icrc: dropped: bad ICRC
 * @drop_opcode: dropped: transport version not 0, or not a UD SEND
 * @drop_qp: dropped: no UD QP of that number in RTR or RTS (or its RQ is
 *	flushing, or it is suspended)
 * @drop_qkey: dropped: Q_Key is not the QP's
 * @drop_no_rqe: dropped: no RQ WQE posted (UD has no RNR)
 */
struct isim_ud_stats {
	struct sk_buff_head rxq;
	atomic64_t tx;
	atomic64_t tx_err;
	atomic64_t tx_lost;
	atomic64_t steered;
	atomic64_t rx;
	atomic64_t rx_err;
	atomic64_t drop_full;
	atomic64_t drop_malformed;
	atomic64_t drop_icrc;
	atomic64_t drop_opcode;
	atomic64_t drop_qp;
	atomic64_t drop_qkey;
	atomic64_t drop_no_rqe;
};

/**
 * struct isim_toe_stats - segments of offloaded connections
 * @rxq: segments taken for the engine, waiting for its pass (own lock)
 * @tx: segments the engine transmitted (LSMM)
 * @rx: segments taken from the stack because their 4-tuple is offloaded
 * @fin: FINs reported (LLP_FIN_RECEIVED)
 * @rst: resets reported (LLP_CONNECTION_RESET)
 * @fin_tx: FINs sent (graceful closes the driver asked for)
 * @rst_tx: resets sent (MODIFY_QP with RESETCON)
 * @term_tx: TERMINATE messages sent (MODIFY_QP to TERMINATE)
 * @term_rx: TERMINATE messages received (LLP_TERMINATE_RECEIVED)
 * @closed: closes completed with the peer (LLP_CLOSE_COMPLETE)
 * @dropped: received segments counted and dropped (no data path; stale,
 *	out of the window, out of order, queue full), and transmits the
 *	netdev refused
 * @full: of @dropped, segments the queue had no room for
 * @stale: of @dropped, segments whose connection had gone or been
 *	replaced by the time the engine came to them
 * @malformed: of @dropped, segments whose TCP header does not fit them
 * @unacceptable: of @dropped, segments outside the receive window
 *	(duplicates of what we have), answered with an ACK
 * @ooo: segments dropped because one before them is missing
 * @retrans: segments sent again (timeout or duplicate ACKs)
 * @timeouts: retransmission timer expiries
 * @gave_up: connections failed after REXMIT_THRESH expiries in a row
 *	(LLP_TOO_MANY_RETRIES)
 * @tw_acks: segments of a connection in TIME_WAIT answered with an ACK
 * @tw_reused: connections in TIME_WAIT ended by a new SYN of the 4-tuple
 * @partials: episodes begun: a segment ended inside an FPDU (the FPSN
 *	written to Q2)
 * @to_ieq: segments handed to the IEQ
 * @from_ieq: segments the IEQ handed back and the engine placed
 * @ieq_bad: segments the IEQ handed back that matched no partial
 *	connection or not where its next FPDU starts (dropped)
 * @rxq_max: most segments ever waiting in @rxq
 * @rto_ms: first retransmission timeout of a new connection
 * @tw_ms: how long a connection stays in TIME_WAIT
 */
struct isim_toe_stats {
	struct sk_buff_head rxq;
	atomic64_t full;
	atomic64_t stale;
	atomic64_t malformed;
	atomic64_t unacceptable;
	atomic64_t ooo;
	atomic64_t retrans;
	atomic64_t timeouts;
	atomic64_t gave_up;
	u32 rxq_max;
	u32 rto_ms;
	u32 tw_ms;
	atomic64_t tw_acks;
	atomic64_t tw_reused;
	atomic64_t partials;
	atomic64_t to_ieq;
	atomic64_t from_ieq;
	atomic64_t ieq_bad;
	atomic64_t tx;
	atomic64_t rx;
	atomic64_t fin;
	atomic64_t rst;
	atomic64_t fin_tx;
	atomic64_t rst_tx;
	atomic64_t term_tx;
	atomic64_t term_rx;
	atomic64_t closed;
	atomic64_t dropped;
};

/**
 * struct isim_eq - a CEQ or the AEQ
 * @ring: element ring
 * @live: created and not destroyed
 * @posted: elements written
 * @credits: AEQ only: elements the driver handed back through AEQALLOC
 */
struct isim_eq {
	struct isim_ring ring;
	bool live;
	u64 posted;
	u64 credits;
};

/**
 * struct isim_sd - one segment descriptor of the function's HMC
 * @addr: bus address of the 2 MiB page (direct) or of the PD page (paged)
 * @valid: the SD is backed
 * @direct: @addr is a 2 MiB page rather than a page-descriptor page
 */
struct isim_sd {
	u64 addr;
	bool valid;
	bool direct;
};

/**
 * struct isim_hmc - host memory cache layout
 * @max: per-object maximum count reported by QUERY_FPM
 * @size_log: per-object log2 of the object size
 * @cnt: per-object count the driver committed
 * @base: per-object byte offset in the HMC the driver committed
 * @committed: COMMIT_FPM succeeded at least once
 * @sd: segment descriptors
 * @sd_updates: SD entries written
 */
struct isim_hmc {
	u32 max[ISIM_HMC_NUM];
	u8 size_log[ISIM_HMC_NUM];
	u32 cnt[ISIM_HMC_NUM];
	u64 base[ISIM_HMC_NUM];
	bool committed;
	struct isim_sd sd[ISIM_MAX_SDS];
	u64 sd_updates;
};

/**
 * struct isim_cqp - control QP state
 * @live: created through CCQPHIGH:LOW and not destroyed
 * @ctx_pa: bus address of the host context
 * @sq_pa: bus address of the WQE ring
 * @size: ring entries
 * @tail: index of the next WQE the engine reads
 * @polarity: valid bit expected at @tail
 * @cookie: host context word 3, returned in CCQ completions
 * @protocol: protocol field of the host context
 * @done: commands completed
 * @errors: commands completed with an error
 * @bad_valid: doorbells that pointed past WQEs without the valid bit
 * @op_done: per opcode, commands completed
 * @op_err: per opcode, error completions
 */
struct isim_cqp {
	bool live;
	u64 ctx_pa;
	u64 sq_pa;
	u32 size;
	u32 tail;
	u8 polarity;
	u64 cookie;
	u8 protocol;
	u64 done;
	u64 errors;
	u64 bad_valid;
	u32 op_done[ISIM_OP_NUM];
	u32 op_err[ISIM_OP_NUM];
};

/**
 * struct isim_vec - one interrupt vector
 * @virq: Linux IRQ number
 * @pending: a cause fired while the vector was masked
 * @fired: interrupts delivered
 */
struct isim_vec {
	int virq;
	bool pending;
	u64 fired;
};

/**
 * struct isim_fail_share - fail a random share of the CQP commands
 * @permille: how many of a thousand commands fail; 0: none
 * @seed: what @rnd was seeded with
 * @ops: the opcodes that may fail
 * @rnd: the random sequence that picks them
 * @seen: commands of @ops executed since the knob was last written
 *	(removals of filters, ports and ARP entries are left be, as
 *	destroys are: a refused one would keep the object)
 * @failed: how many of those failed
 * @failed_op: the same, by opcode
 *
 * All under the function's eng_lock, which the CQP runs under.
 */
struct isim_fail_share {
	u32 permille;
	u64 seed;
	DECLARE_BITMAP(ops, ISIM_OP_NUM);
	struct rnd_state rnd;
	u64 seen;
	u64 failed;
	u32 failed_op[ISIM_OP_NUM];
};

/**
 * struct isim_faults - fault injection knobs (debugfs)
 * @fail_op: per CQP opcode, number of next commands to fail
 * @drop_frames: number of next frames the wire drops
 * @delay_ms: delay every frame on the wire by this much
 * @stall: hold CQP commands (no completions) while set
 * @stall_raw_tx: hold the SQ WQEs of the raw queues (ILQ, IEQ) while set
 * @drop_cm: number of next CM (ILQ) frames to lose, either direction
 * @drop_toe: number of next data segments of offloaded connections the
 *	engine sends that are lost (the first transmission, not a resend)
 * @drop_toe_acks: number of next bare ACKs of offloaded connections the
 *	engine sends that are lost
 * @corrupt_toe_tx: number of next data segments of offloaded connections
 *	the engine sends with their last byte flipped (the first
 *	transmission; a resend is whole)
 * @corrupt_toe_rx: number of next data segments of offloaded connections
 *	received with their last byte flipped before the engine reads them
 * @share: a random share of the commands to fail (fail_share)
 */
struct isim_faults {
	atomic_t fail_op[ISIM_OP_NUM];
	atomic_t drop_frames;
	atomic_t drop_cm;
	atomic_t drop_toe;
	atomic_t drop_toe_acks;
	atomic_t corrupt_toe_tx;
	atomic_t corrupt_toe_rx;
	u32 delay_ms;
	bool stall;
	bool stall_raw_tx;
	struct isim_fail_share share;
};

/**
 * struct isim_wire - the function's end of a back-to-back Ethernet link
 * @peer: the other function of the pair, NULL while it does not exist;
 *	written under isim_bus_lock, read under RCU
 * @delayq: frames held back by the delay knob
 * @delay_work: releases @delayq
 * @tx_frames: frames handed to the peer
 * @tx_bytes: bytes handed to the peer
 * @rx_frames: frames received from the peer
 * @rx_bytes: bytes received from the peer
 * @looped: frames addressed to the function's own MAC, turned around to
 *	its own receive path instead of the wire
 * @dropped: frames dropped (no peer, knob, full delay queue, peer refused)
 * @vlan_tcp: TCP segments received with a VLAN tag (VLAN 1 or above), by
 *	their 802.1p priority, whoever took them (engine or host)
 */
struct isim_wire {
	struct isim_func __rcu *peer;
	struct sk_buff_head delayq;
	struct delayed_work delay_work;
	atomic64_t tx_frames;
	atomic64_t tx_bytes;
	atomic64_t rx_frames;
	atomic64_t rx_bytes;
	atomic64_t looped;
	atomic64_t dropped;
	atomic64_t vlan_tcp[8];
};

#define ISIM_DBQ_LEN		64	/* doorbells a pass takes by id */

/**
 * enum isim_wake - why an engine pass ran
 * @ISIM_WAKE_REG: the driver wrote a register and kicked the engine
 *	(isim_aux_ops.kick)
 * @ISIM_WAKE_RX: a frame arrived for the engine (steered to a raw queue,
 *	an offloaded connection or a UD QP)
 * @ISIM_WAKE_UDB: the user doorbell watch found a user doorbell rung
 * @ISIM_WAKE_CTL: the engine started, or a parent service or debugfs knob
 *	changed what it may do
 * @ISIM_WAKE_MORE: the pass before ran out of budget or time
 * @ISIM_WAKE_TIMER: a deadline came: a retransmission or TIME_WAIT timer,
 *	an RNR wait, QPs kicked for the next pass
 * @ISIM_WAKE_POLL: a poll of the register space: the bound driver does not
 *	kick (or none is bound), or a stall knob is set
 * @ISIM_WAKE_NUM: number of reasons
 */
enum isim_wake {
	ISIM_WAKE_REG,
	ISIM_WAKE_RX,
	ISIM_WAKE_UDB,
	ISIM_WAKE_CTL,
	ISIM_WAKE_MORE,
	ISIM_WAKE_TIMER,
	ISIM_WAKE_POLL,
	ISIM_WAKE_NUM,
};

/**
 * struct isim_dbq - doorbells the kicks named, by id, between two passes
 * @lock: protects the rest; taken from any context
 * @n: ids in @id
 * @overflow: more were rung than @id holds: the next pass looks at every
 *	queue, as for a doorbell it cannot attribute
 * @id: QP ids (WQEALLOC) or CQ ids (CQARM), in the order rung
 */
struct isim_dbq {
	spinlock_t lock; /* n, overflow, id */
	u32 n;
	bool overflow;
	u32 id[ISIM_DBQ_LEN];
};

/**
 * struct isim_wakeup - how the engine is woken (engine.c)
 * @kicked: the bound driver follows every register write with a kick, so
 *	its registers need no polling; set and cleared by the driver
 *	(isim_aux_ops.set_kicked) and when the auxiliary device is unplugged
 * @pending: a pass is queued for a kick and has not started yet
 * @kick_ns: when the kick that queued the pending pass came
 * @wqe: the WQEALLOC doorbells the kicks named
 * @arm: the CQARM doorbells the kicks named
 * @raw_rung: a kick named a raw queue (UDA QP): this pass runs their SQs
 * @arm_lost: @arm overflowed: this pass reads every CQ's arm word
 * @count: passes by reason (enum isim_wake); a kick that found a pass
 *	queued already is not counted
 * @next: why the next pass was scheduled, when not for a kick
 * @kicked_passes: passes a kick queued
 * @kick_lat_ns_max: the longest from a kick to its pass, in ns
 * @kick_lat_ns_total: the sum of those, in ns
 * @due: jiffies of the earliest deadline the last pass found, if @due_set
 * @due_set: a deadline was found
 * @user_qps: QPs that are not privileged: user space may ring its
 *	doorbell page for them
 * @udb_timer: the user doorbell watch (runs while @kicked and @user_qps)
 * @udb_seen: jiffies when a user doorbell was last found rung
 * @udb_period: the watch's period now, in jiffies
 * @udb_looks: times the watch looked at the user doorbell page
 */
struct isim_wakeup {
	bool kicked;
	atomic_t pending;
	u64 kick_ns;
	struct isim_dbq wqe;
	struct isim_dbq arm;
	bool raw_rung;
	bool arm_lost;
	atomic64_t count[ISIM_WAKE_NUM];
	enum isim_wake next;
	u64 kicked_passes;
	u64 kick_lat_ns_max;
	u64 kick_lat_ns_total;
	unsigned long due;
	bool due_set;
	u32 user_qps;
	struct timer_list udb_timer;
	unsigned long udb_seen;
	unsigned long udb_period;
	atomic64_t udb_looks;
};

/**
 * struct isim_lockstat - how long eng_lock is waited for and held
 * @t0: when the holder took it, in ns
 * @wait_ns_max: the longest wait for it
 * @hold_ns_max: the longest hold
 * @hold_max_by: who held it that long
 * @by: who holds it now
 */
struct isim_lockstat {
	u64 t0;
	u64 wait_ns_max;
	u64 hold_ns_max;
	const char *hold_max_by;
	const char *by;
};

/**
 * struct isim_func - one simulated RDMA function
 * @dev: the function's device on the irdma_sim bus
 * @dma_parms: DMA segment limits, as a PCI function has them (the RDMA
 *	core expects them of the device it maps for)
 * @id: device ID; 2k and 2k+1 are wired to each other
 * @protocol: protocol chosen at creation
 * @gen: generation chosen at creation, ISIM_GEN1 or ISIM_GEN2
 * @rm: the register map of @gen, set with @regs
 * @regs: register space (@rm->bar_len bytes): @win's BAR0, or RAM
 * @win: the register window holding @regs, NULL for RAM (win.c)
 * @irq_domain: simulated interrupt controller of the function
 * @irq_fwnode: name of @irq_domain
 * @irqs: Linux IRQ numbers of the vectors, handed to the driver
 * @netdev: the function's Ethernet netdev
 * @wire: back-to-back link to the peer function
 * @aux_lock: protects @iadev, @dying and @vsi_filter against the reset work
 * @iadev: auxiliary device the driver binds to, NULL while unplugged
 * @claim: which driver the auxiliary device is plugged for (claim.c)
 * @dying: the function is being removed; no more replugging
 * @vsi_filter: the driver asked for RDMA traffic to reach the engine
 * @qsets: scheduler qsets the driver registered (struct isim_sched.qsets)
 * @qos_lock: protects @qos (the driver reads it from its event handler,
 *	which runs under @aux_lock)
 * @qos: the traffic classes the parent reports (qos_get)
 * @reset_work: replugs the auxiliary device after a reset request
 * @tick: engine pass, queued by a kick or at a deadline (engine.c)
 * @wake: what queues @tick, and the count of passes by reason
 * @ddir: debugfs directory
 * @faults: fault injection knobs
 * @ilq: privileged raw queue frames and counters
 * @toe: segments of offloaded connections
 * @ud: RoCEv2 datagrams of UD and GSI QPs
 * @roce: RoCEv2 RC between functions: counters, knobs, busy QPs (the
 *	list under eng_lock)
 * @hwc: the engine's counters, as GATHER_STATS reports them (enum
 *	isim_gs); counted where the engine moves frames and messages
 * @eng_lock: protects everything below it; taken with isim_eng_lock()
 * @lockstat: how long @eng_lock is waited for and held
 * @running: the engine polls the register space
 * @halted: the engine stopped on a critical error: it reads and writes
 *	nothing until a function reset
 * @ticks: engine passes run
 * @tick_ns_max: the longest pass, in ns
 * @tick_ns_total: the time spent in passes, in ns
 * @tick_due_ns: when the next pass is due
 * @tick_late_ns_max: the most a pass started after it was due, in ns
 * @pass_end_ns: when the current pass stops taking on more work
 *	(the work queue's scheduling: a starved engine answers late)
 * @cqp: control QP
 * @hmc: host memory cache layout
 * @cqs: CQs by id (struct isim_cq)
 * @qps: QPs by id (struct isim_qp)
 * @cq_list: the same CQs, for the passes that read every arm word
 * @qp_list: the same QPs, in the order the next SQ pass visits them (a
 *	pass that runs out of budget rotates the one it did not reach to
 *	the front: round robin)
 * @exec_resume: the last SQ pass ran out of budget
 * @kick_list: QPs whose SQ the next pass looks at without a doorbell
 *	(struct isim_qp.kick)
 * @rescan: the raw queues' SQs ran out of budget: the next pass looks at
 *	every QP
 * @scan_due: jiffies by which the QPs and CQs are looked at even when
 *	nothing asked for it
 * @scanning: this pass looks at every QP's SQ (raw queues included)
 * @scans: passes that looked at every QP's SQ
 * @kick_passes: passes that looked only at kicked QPs
 * @idle_passes: passes that looked at none: no doorbell and nothing new
 * @asked_passes: passes that found a doorbell rung (or SQ work left over)
 * @quiet: passes in a row that moved nothing (isim_engine_tick())
 * @arm_scans: passes that read every CQ's arm sequence
 * @unasked: scans due to @scan_due alone that found work (a missing
 *	wake-up)
 * @unrouted: RoCEv2 RC WQEs whose QP's next hop is not the function
 *	itself (only loopback RC is modelled): completed as if retries ran out
 * @stags: STags by index (struct isim_stag)
 * @ahs: address handles by index (struct isim_ah)
 * @mcgs: multicast groups by index (struct isim_mcg)
 * @conn: connection steering tables
 * @sched: the work scheduler's nodes and the parent's registrations
 * @ceq: CEQs by id
 * @aeq: the AEQ
 * @vec: interrupt vectors
 * @bad_vector: causes routed to (CEQCTL/AEQCTL) and DYN_CTL writes for an
 *	engine vector that is not one of the function's; none was delivered
 */
struct isim_func {
	struct device dev;
	struct device_dma_parameters dma_parms;
	u32 id;
	enum isim_aux_protocol protocol;
	u8 gen;
	const struct isim_regmap *rm;
	void *regs;
	struct isim_win *win;
	struct irq_domain *irq_domain;
	struct fwnode_handle *irq_fwnode;
	int irqs[ISIM_NUM_VECTORS];
	struct net_device *netdev;
	struct isim_wire wire;
	struct mutex aux_lock; /* see @aux_lock above */
	struct isim_aux_dev *iadev;
	enum isim_claim claim;
	bool dying;
	bool vsi_filter;
	atomic_t qsets;
	spinlock_t qos_lock; /* qos */
	struct isim_aux_qos qos;
	struct work_struct reset_work;
	struct delayed_work tick;
	struct isim_wakeup wake;
	struct dentry *ddir;
	struct isim_faults faults;
	struct isim_ilq ilq;
	struct isim_toe_stats toe;
	struct isim_ud_stats ud;
	struct isim_roce_stats roce;
	atomic64_t hwc[ISIM_GS_NUM];

	struct mutex eng_lock; /* engine state below, see @eng_lock */
	struct isim_lockstat lockstat;
	bool running;
	bool halted;
	u64 ticks;
	u64 tick_ns_max;
	u64 tick_ns_total;
	u64 tick_due_ns;
	u64 tick_late_ns_max;
	u64 pass_end_ns;
	struct isim_cqp cqp;
	struct isim_hmc hmc;
	struct xarray cqs;
	struct xarray qps;
	struct list_head cq_list;
	struct list_head qp_list;
	bool exec_resume;
	struct list_head kick_list;
	bool rescan;
	bool scanning;
	unsigned long scan_due;
	u64 scans;
	u64 kick_passes;
	u64 idle_passes;
	u64 asked_passes;
	unsigned int quiet;
	u64 arm_scans;
	u64 unasked;
	u64 unrouted;
	struct xarray stags;
	struct xarray ahs;
	struct xarray mcgs;
	struct isim_conn conn;
	struct isim_sched sched;
	struct isim_eq ceq[ISIM_MAX_CEQS];
	struct isim_eq aeq;
	struct isim_vec vec[ISIM_NUM_VECTORS];
	u64 bad_vector;
};

static inline struct isim_func *to_isim_func(struct device *dev)
{
	return container_of(dev, struct isim_func, dev);
}

/**
 * struct isim_res - result of one CQP command
 * @minor: 0 for success, else an enum isim_minor
 * @ret_val: value returned in the completion's op-return word
 */
struct isim_res {
	u16 minor;
	u32 ret_val;
};

/*
 * The pass has worked long enough: the rest waits for the next one, which
 * comes at once. Without this a pass over hundreds of busy QPs took
 * seconds under emulation, and the CQP commands queued behind it timed
 * out in the driver.
 */
static inline bool isim_pass_over(const struct isim_func *f)
{
	return ktime_get_ns() > f->pass_end_ns;
}

/* count @n events of engine counter @c */
static inline void isim_hwc_add(struct isim_func *f, enum isim_gs c, u64 n)
{
	atomic64_add(n, &f->hwc[c]);
}

void isim_hwc_frame(struct isim_func *f, bool ipv4, u8 proto, bool rx,
		    u32 octets);
void isim_hwc_segment(struct isim_func *f, bool ipv4, bool rx, u32 octets);

typedef void (*isim_op_fn)(struct isim_func *f, const u64 *wqe,
			   struct isim_res *res);

/* bus.c */
extern struct workqueue_struct *isim_wq;
extern struct mutex isim_bus_lock;

/* bus.c */
struct isim_func *isim_func_lookup(u32 id);
int isim_parse_new(const char *buf, u32 *id, enum isim_aux_protocol *proto,
		   u8 *gen, enum isim_claim *claim);

/* func.c */
int isim_func_probe(struct isim_func *f);
void isim_func_remove(struct isim_func *f);
void isim_func_reset(struct isim_func *f);

/* win.c */
bool isim_win_get(struct isim_func *f);
void isim_win_put(struct isim_func *f);
struct pci_dev *isim_win_pdev(struct isim_func *f);
int isim_win_mod_init(void);
void isim_win_mod_exit(void);

/* claim.c */
const char *isim_claim_dev_name(enum isim_claim claim);
int isim_claim_parse(const char *word, enum isim_claim *claim);
void isim_claim_debugfs_init(struct isim_func *f);

/* regs.c */
int isim_regs_init(struct isim_func *f);
void isim_regs_exit(struct isim_func *f);
void isim_regs_reset(struct isim_func *f);
u32 isim_rd32(struct isim_func *f, u32 off);
void isim_wr32(struct isim_func *f, u32 off, u32 val);
u32 isim_xchg32(struct isim_func *f, u32 off, u32 val);
void isim_clr32(struct isim_func *f, u32 off, u32 bits);
u32 isim_reg_dyn_ctl(struct isim_func *f, u32 v);

/* CEQCTL of CEQ @ceq */
static inline u32 isim_reg_ceqctl(struct isim_func *f, u32 ceq)
{
	return f->rm->ceqctl + 4 * ceq;
}

/* the user doorbell page's aliases of WQEALLOC and CQARM */
static inline u32 isim_reg_udb_wqealloc(struct isim_func *f)
{
	return f->rm->udb + ISIM_UDB_WQEALLOC_OFF;
}

static inline u32 isim_reg_udb_cqarm(struct isim_func *f)
{
	return f->rm->udb + ISIM_UDB_CQARM_OFF;
}

/* dma.c */
int isim_dma_read(struct isim_func *f, u64 addr, void *buf, size_t len);
int isim_dma_write(struct isim_func *f, u64 addr, const void *buf,
		   size_t len);
int isim_qmem_read(struct isim_func *f, const struct isim_qmem *qm,
		   u32 off, void *buf, size_t len);
int isim_qmem_write(struct isim_func *f, const struct isim_qmem *qm,
		    u32 off, const void *buf, size_t len);
int isim_ring_post(struct isim_func *f, struct isim_ring *r, u64 *elem,
		   unsigned int valid_word, u64 valid_bit);

/* irq.c */
int isim_irq_init(struct isim_func *f);
void isim_irq_exit(struct isim_func *f);
void isim_irq_raise(struct isim_func *f, u32 vec);
void isim_irq_service(struct isim_func *f);

/* hmc.c */
void isim_hmc_reset(struct isim_func *f);
bool isim_hmc_obj_present(struct isim_func *f, unsigned int obj);
int isim_hmc_pble(struct isim_func *f, u32 idx, u64 *pa);
int isim_hmc_obj_write(struct isim_func *f, unsigned int obj, u32 idx,
		       const void *buf, size_t len);
void isim_op_query_fpm(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_commit_fpm(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_update_sds(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_shmc_pages(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_manage_pmfn(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res);

/* eq.c */
void isim_eq_reset(struct isim_func *f);
void isim_ceq_notify(struct isim_func *f, u16 ceq, u64 ctx);
int isim_aeq_post_q2(struct isim_func *f, u16 code, u8 src, u32 id, u64 ctx,
		     u8 q2);
int isim_aeq_post_full(struct isim_func *f, u16 code, u8 src, u32 id,
		       u64 ctx, u64 more);
int isim_aeq_post(struct isim_func *f, u16 code, u8 src, u32 id, u64 ctx);
void isim_aeq_poll_alloc(struct isim_func *f);
void isim_op_create_ceq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_destroy_ceq(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res);
void isim_op_create_aeq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_destroy_aeq(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res);

/* cq.c */
void isim_cq_reset(struct isim_func *f);
int isim_cq_add(struct isim_func *f, struct isim_cq *cq);
void isim_cq_del(struct isim_func *f, struct isim_cq *cq);
int isim_cq_post(struct isim_func *f, u32 cq_id, u64 *cqe);
void isim_cq_poll_arm(struct isim_func *f, bool scan);
void isim_cq_arm_rung(struct isim_func *f, u32 id);
void isim_op_create_cq(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_modify_cq(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_mcg(struct isim_func *f, const u64 *wqe, struct isim_res *res);
void isim_op_destroy_cq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);

/* qp.c */
void isim_qp_reset(struct isim_func *f);
int isim_qp_add(struct isim_func *f, struct isim_qp *qp);
void isim_qp_del(struct isim_func *f, struct isim_qp *qp);
void isim_op_create_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_modify_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_destroy_qp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_flush_wqes(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_suspend_qp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_resume_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);

/* exec.c */
u32 isim_frag_stag(u8 gen, u64 w);
u32 isim_frag_len(u8 gen, u64 w);
void isim_exec_load_ctx(struct isim_qp *qp, const u64 *ctx, bool virt);
void isim_exec_new_state(struct isim_func *f, struct isim_qp *qp,
			 u8 old_state);
bool isim_exec_sq_empty(struct isim_func *f, const struct isim_qp *qp);
void isim_exec_flush(struct isim_func *f, struct isim_qp *qp,
		     struct isim_wq *wq, u16 minor);
void isim_exec_kick(struct isim_func *f, struct isim_qp *qp);
bool isim_exec_run(struct isim_func *f, unsigned int budget, bool scan);
struct isim_xfer;
void isim_exec_iw_rx(struct isim_xfer **xp, struct isim_func *f,
		     struct isim_qp *qp, const u8 *data, u32 len,
		     const u8 *hdrs, u32 hdr_len);
u16 isim_exec_iw_term_check(struct isim_func *f, u64 q2_pa, u8 words);
void isim_exec_iw_terminate(struct isim_func *f, struct isim_qp *qp);
void isim_xfer_put(struct isim_xfer *x);
struct isim_xfer *isim_xfer_get(struct isim_xfer **xp, struct isim_func *f);
void isim_exec_complete(struct isim_func *f, struct isim_qp *qp,
			const struct isim_cpl *c);
int isim_exec_payload(struct isim_xfer *x, const struct isim_qp *qp, u64 hdr,
		      const u8 **inl);
int isim_exec_take_rq(struct isim_xfer *x, struct isim_qp *peer);
int isim_exec_mem_op(struct isim_xfer *x, struct isim_qp *qp, u8 op);
void isim_hwc_wqe(struct isim_func *f, u8 op, bool fabric);
bool isim_sgl_allowed(struct isim_func *f, const struct isim_sgl *l);
int isim_sgl_io(struct isim_func *f, const struct isim_sgl *l, u64 off,
		u8 *buf, u32 len, bool to_host);

/* stag.c */
void isim_stag_reset(struct isim_func *f);
void isim_stag_show(struct seq_file *s, struct isim_func *f);
int isim_stag_access(struct isim_func *f, u32 stag, u32 pd, u8 rights,
		     u64 addr, u64 len);
int isim_stag_translate(struct isim_func *f, u32 stag, u64 addr, u64 *bus,
			u64 *contig);
int isim_stag_bind(struct isim_func *f, u32 pd, const u64 *wqe);
int isim_stag_fast_reg(struct isim_func *f, u32 pd, const u64 *wqe);
int isim_stag_invalidate(struct isim_func *f, u32 pd, u32 stag);
void isim_op_alloc_stag(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_reg_mr(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res);
void isim_op_dealloc_stag(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);

/* conn.c */
int isim_conn_init(struct isim_func *f);
void isim_conn_exit(struct isim_func *f);
void isim_conn_reset(struct isim_func *f);
void isim_op_manage_apbvt(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_manage_qhash(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_manage_arp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_alloc_mac(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_manage_mac(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_create_ah(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_modify_ah(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res);
void isim_op_destroy_ah(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_ws_node(struct isim_func *f, const u64 *wqe,
		     struct isim_res *res);
int isim_sched_init(struct isim_func *f);
void isim_sched_exit(struct isim_func *f);
void isim_sched_reset(struct isim_func *f);
u16 isim_ws_add(struct isim_func *f, u32 id, u32 parent, u8 tc, bool leaf,
		bool enable);
int isim_sched_qset_add(struct isim_func *f, u32 qs_handle, u8 tc);
int isim_sched_qset_del(struct isim_func *f, u32 qs_handle);
int isim_sched_tc(struct isim_func *f, u32 qs_handle);
bool isim_sched_may_send(struct isim_func *f, const struct isim_qp *qp);
bool isim_sched_check(struct isim_func *f, const struct isim_qp *qp,
		      bool work);
void isim_sched_show(struct seq_file *s, struct isim_func *f);
void isim_op_manage_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_gather_stats(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);
void isim_op_up_map(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res);
void isim_conn_addr(const u64 *w, bool ipv4, u32 *addr);
void isim_conn_drop_established(struct isim_func *f,
				const struct isim_flow *fl);
bool isim_conn_steer(struct isim_func *f, const struct isim_flow *fl,
		     u32 *qpn);

/* ilq.c */
void isim_ilq_init(struct isim_func *f);
void isim_ilq_reset(struct isim_func *f);
bool isim_ilq_steer(struct isim_func *f, struct sk_buff *skb);
int isim_ilq_exception(struct isim_func *f, struct sk_buff *skb,
		       u32 qpn);
void isim_toe_ieq_in(struct isim_func *f, const struct isim_ilq_hdrs *h,
		     const u8 *seg, u32 len);
rx_handler_result_t isim_ilq_rx_handler(struct sk_buff **pskb);
bool isim_ilq_run(struct isim_func *f, unsigned int budget);
void isim_ilq_tx_drain(struct isim_func *f);
struct sk_buff *isim_ilq_seg_frame(struct isim_func *f,
				   const struct isim_ilq_hdrs *h,
				   const void *th, u32 hlen,
				   const void *data, u32 dlen);
int isim_ilq_emit(struct isim_func *f, struct sk_buff *skb);
int isim_ah_hdrs(struct isim_func *f, u32 ah_idx, struct isim_ilq_hdrs *h);
struct sk_buff *isim_ip_frame(struct isim_func *f,
			      const struct isim_ilq_hdrs *h, u8 proto, u32 len,
			      void **l4);
__sum16 isim_l4_csum(struct sk_buff *skb, u8 proto, const void *l4, u32 len);

/* ud.c */
void isim_ud_init(struct isim_func *f);
void isim_ud_reset(struct isim_func *f);
int isim_ud_sq_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr);
bool isim_ud_steer(struct isim_func *f, struct sk_buff *skb);
bool isim_ud_run(struct isim_func *f, unsigned int budget);
u32 isim_icrc(const u8 *l3, u8 l3_len, u32 len);
void isim_ud_show(struct seq_file *s, struct isim_func *f);

/* toe.c */
void isim_toe_init(struct isim_func *f);
void isim_toe_reset(struct isim_func *f);
bool isim_toe_wanted(const struct isim_qp *qp, u64 hdr);
u16 isim_toe_check(struct isim_func *f, const struct isim_qp *qp,
		   const u64 *ctx, struct isim_toe *toe);
void isim_toe_new_state(struct isim_func *f, struct isim_qp *qp,
			const struct isim_toe *toe);
void isim_toe_unlink(struct isim_func *f, struct isim_qp *qp);
bool isim_toe_window_open(const struct isim_toe *t);
void isim_toe_modify(struct isim_func *f, struct isim_qp *qp, u64 hdr);
void isim_toe_sq_idle(struct isim_func *f, struct isim_qp *qp);
void isim_toe_ae(struct isim_func *f, struct isim_qp *qp, u16 code);
bool isim_toe_steer(struct isim_func *f, const struct isim_flow *fl,
		    struct sk_buff *skb, u8 l3_len, u32 seg_len);
bool isim_toe_run(struct isim_func *f, unsigned int budget);
u16 isim_toe_send(struct isim_func *f, struct isim_qp *qp, const u8 *data,
		  u32 len);
void isim_toe_show(struct seq_file *s, struct isim_func *f);

/* cqp.c */
void isim_cqp_reset(struct isim_func *f);
void isim_cqp_poll_ctx(struct isim_func *f);
bool isim_cqp_run(struct isim_func *f, unsigned int budget);
const char *isim_cqp_op_name(unsigned int op);
void isim_op_query_features(struct isim_func *f, const u64 *wqe,
			    struct isim_res *res);

/* engine.c */
void isim_eng_lock(struct isim_func *f, const char *by);
void isim_eng_unlock(struct isim_func *f);
void isim_engine_kick(struct isim_func *f, enum isim_wake why);
void isim_engine_kick_reg(struct isim_func *f, u32 off, u32 val);
void isim_engine_set_kicked(struct isim_func *f, bool on);
void isim_engine_due(struct isim_func *f, unsigned long when);
bool isim_engine_dbq_drain(struct isim_func *f, struct isim_dbq *q,
			   u32 *ids, u32 *n);
void isim_engine_show(struct seq_file *s, struct isim_func *f);
bool isim_engine_poll(struct isim_func *f);
int isim_engine_init(struct isim_func *f);
void isim_engine_start(struct isim_func *f);
void isim_engine_stop(struct isim_func *f);
void isim_engine_exit(struct isim_func *f);
void isim_engine_reset(struct isim_func *f);

/* netdev.c */
int isim_netdev_init(struct isim_func *f);
void isim_netdev_exit(struct isim_func *f);
void isim_wire_link(struct isim_func *f);
void isim_wire_unlink(struct isim_func *f);
bool isim_wire_engine_xmit(struct isim_func *f, struct sk_buff *skb);

/* aux.c */
void isim_aux_reset_work(struct work_struct *work);
int isim_aux_replug(struct isim_func *f, enum isim_claim claim);
int isim_aux_init(struct isim_func *f);
void isim_aux_exit(struct isim_func *f);
int isim_aux_event(struct isim_func *f, enum isim_aux_event ev, u32 info);

/* debugfs.c */
void isim_debugfs_mod_init(void);
void isim_debugfs_mod_exit(void);
void isim_debugfs_init(struct isim_func *f);
void isim_debugfs_exit(struct isim_func *f);

#endif /* _ISIM_H_ */
