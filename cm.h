/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Copyright (c) 2026 The irdma project authors */
#ifndef IRDMA_CM_H
#define IRDMA_CM_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/hashtable.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/atomic.h>
#include <rdma/iw_cm.h>

struct irdma_device;
struct irdma_cm_core;
struct irdma_cm_node;
struct net;
struct net_device;

/*
 * MPA framing (RFC 5044, enhanced by RFC 6581). All multi-byte fields are
 * big endian on the wire.
 */
#define IRDMA_MPA_KEY_LEN		16
#define IRDMA_MPA_HDR_LEN		20
#define IRDMA_MPA_V2_RTR_LEN		4
#define IRDMA_MPA_MAX_PDATA		512
#define IRDMA_MPA_MAX_FRAME		(IRDMA_MPA_HDR_LEN + IRDMA_MPA_MAX_PDATA)
/* iw_cm_event.private_data_len is a u8 */
#define IRDMA_MPA_ULP_PDATA_MAX		255

#define IRDMA_MPA_FLAG_MARKERS		0x80
#define IRDMA_MPA_FLAG_CRC		0x40
#define IRDMA_MPA_FLAG_REJECT		0x20
#define IRDMA_MPA_FLAG_ENHANCED		0x10

/* RFC 6581 IRD word: A (peer to peer), B (zero length SEND RTR) */
#define IRDMA_MPA_IRD_P2P		BIT(15)
#define IRDMA_MPA_IRD_SEND0		BIT(14)
/* RFC 6581 ORD word: C (zero length WRITE RTR), D (zero length READ RTR) */
#define IRDMA_MPA_ORD_WRITE0		BIT(15)
#define IRDMA_MPA_ORD_READ0		BIT(14)
#define IRDMA_MPA_IRD_ORD_VAL		GENMASK(13, 0)
/* "no value" for the IRD/ORD fields */
#define IRDMA_MPA_NO_IRD_ORD		0x3fff

/* TCP constants of the software handshake */
/* what a peer that sends no MSS option takes (RFC 9293 3.7.1) */
#define IRDMA_CM_DEFAULT_MSS		536
#define IRDMA_CM_DEFAULT_MSS_V6		1220
#define IRDMA_CM_MIN_MSS_V4		536
#define IRDMA_CM_MIN_MSS_V6		1220
#define IRDMA_CM_DEFAULT_RCV_WND	0x3fffc
#define IRDMA_CM_DEFAULT_RCV_WSCALE	2
#define IRDMA_CM_MAX_WSCALE		14
#define IRDMA_CM_RETRANS_FIRST_MS	1000
#define IRDMA_CM_RETRANS_CAP_MS		8000
/*
 * A segment goes again up to 32 times (about 4 minutes in all) before the
 * connection is given up: a passive side that is busy creating QPs and
 * filters for hundreds of connects at once answers late, and 8 (under a
 * minute) failed more than half of 500 rdma_cm connects issued together.
 */
#define IRDMA_CM_DEFAULT_RETRANS_MAX	32
#define IRDMA_CM_TIME_WAIT_MS		500
/* a graceful close of an offloaded connection not complete by then aborts */
#define IRDMA_CM_CLOSE_TIMEOUT_MS	5000
/*
 * The MPA exchange is timed on both sides (Documentation/cm.rst, "Timers,
 * locks, references"). A responder answers once its ULP accepts, which may
 * take a while on a busy host: the initiator waits as long as iw_cxgb4's
 * endpoint timer. A request follows the handshake at once from any
 * initiator: a responder whose peer stays silent gives up sooner and frees
 * its backlog slot.
 */
#define IRDMA_CM_MPA_REPLY_WAIT_MS	60000
#define IRDMA_CM_MPA_REQ_WAIT_MS	20000
#define IRDMA_CM_DEFAULT_BACKLOG	256
#define IRDMA_CM_NO_VLAN		0xffff
#define IRDMA_CM_HASH_BITS		8

/**
 * enum irdma_cm_node_state - state of one connection's software TCP/MPA
 * @IRDMA_CM_STATE_UNKNOWN: allocated, not yet started
 * @IRDMA_CM_STATE_LISTENING: passive node created for a SYN, not yet answered
 * @IRDMA_CM_STATE_SYN_SENT: SYN sent
 * @IRDMA_CM_STATE_SYN_RCVD: SYN-ACK sent
 * @IRDMA_CM_STATE_ESTABLISHED: passive TCP up, waiting for the MPA request
 * @IRDMA_CM_STATE_MPAREQ_RCVD: passive side raised CONNECT_REQUEST
 * @IRDMA_CM_STATE_MPAREQ_SENT: active side sent the MPA request
 * @IRDMA_CM_STATE_MPAREJ_RCVD: active side got an MPA reject
 * @IRDMA_CM_STATE_OFFLOADED: the QP owns the TCP connection
 * @IRDMA_CM_STATE_FIN_WAIT1: our FIN sent, not acknowledged
 * @IRDMA_CM_STATE_FIN_WAIT2: our FIN acknowledged, peer FIN pending
 * @IRDMA_CM_STATE_CLOSING: both FINs sent, ours not acknowledged
 * @IRDMA_CM_STATE_LAST_ACK: peer FIN received, our FIN sent
 * @IRDMA_CM_STATE_TIME_WAIT: waiting before the node is freed
 * @IRDMA_CM_STATE_CLOSED: TCP is gone
 * @IRDMA_CM_STATE_COUNT: number of states
 */
enum irdma_cm_node_state {
	IRDMA_CM_STATE_UNKNOWN,
	IRDMA_CM_STATE_LISTENING,
	IRDMA_CM_STATE_SYN_SENT,
	IRDMA_CM_STATE_SYN_RCVD,
	IRDMA_CM_STATE_ESTABLISHED,
	IRDMA_CM_STATE_MPAREQ_RCVD,
	IRDMA_CM_STATE_MPAREQ_SENT,
	IRDMA_CM_STATE_MPAREJ_RCVD,
	IRDMA_CM_STATE_OFFLOADED,
	IRDMA_CM_STATE_FIN_WAIT1,
	IRDMA_CM_STATE_FIN_WAIT2,
	IRDMA_CM_STATE_CLOSING,
	IRDMA_CM_STATE_LAST_ACK,
	IRDMA_CM_STATE_TIME_WAIT,
	IRDMA_CM_STATE_CLOSED,
	IRDMA_CM_STATE_COUNT,
};

/**
 * enum irdma_cm_rdma0 - zero length operation used as the RTR message
 * @IRDMA_CM_RDMA0_NONE: no RTR (client/server MPA)
 * @IRDMA_CM_RDMA0_WRITE: zero length RDMA WRITE
 * @IRDMA_CM_RDMA0_READ: zero length RDMA READ
 */
enum irdma_cm_rdma0 {
	IRDMA_CM_RDMA0_NONE,
	IRDMA_CM_RDMA0_WRITE,
	IRDMA_CM_RDMA0_READ,
};

/**
 * enum irdma_cm_disc_cause - why the layer below reports a connection end
 * @IRDMA_CM_DISC_PEER_FIN: the peer closed its half (DISCONNECT)
 * @IRDMA_CM_DISC_CLOSED: the close completed gracefully (CLOSE 0)
 * @IRDMA_CM_DISC_PEER_RST: the peer reset the connection
 * @IRDMA_CM_DISC_LOCAL_ERR: the QP went to error locally
 * @IRDMA_CM_DISC_TIMEOUT: the hardware TCP gave up retransmitting
 * @IRDMA_CM_DISC_LOCAL_CLOSE: the ULP closed gracefully (its QP went to
 *	SQD, and the engine sends the FIN): CLOSE waits for
 *	@IRDMA_CM_DISC_CLOSED or the close timer
 * @IRDMA_CM_DISC_CLOSE_TIMEOUT: the close timer ran out before the engine
 *	completed a graceful close: the connection is aborted (CLOSE
 *	-ETIMEDOUT; the move to ERR resets it)
 * @IRDMA_CM_DISC_TERMINATE: a TERMINATE was received, or an error asks
 *	for one to be sent: the CM closes the connection (the QP's close op
 *	sends the TERMINATE and our FIN), then as @IRDMA_CM_DISC_LOCAL_CLOSE
 */
enum irdma_cm_disc_cause {
	IRDMA_CM_DISC_PEER_FIN,
	IRDMA_CM_DISC_CLOSED,
	IRDMA_CM_DISC_PEER_RST,
	IRDMA_CM_DISC_LOCAL_ERR,
	IRDMA_CM_DISC_TIMEOUT,
	IRDMA_CM_DISC_LOCAL_CLOSE,
	IRDMA_CM_DISC_CLOSE_TIMEOUT,
	IRDMA_CM_DISC_TERMINATE,
};

/**
 * struct irdma_cm_info - addressing of a connection, listener or filter
 * @loc_addr: local IP address, host order words (IPv4 uses word 0)
 * @rem_addr: remote IP address, host order words
 * @loc_port: local TCP port, host order
 * @rem_port: remote TCP port, host order
 * @vlan_id: VLAN id or IRDMA_CM_NO_VLAN
 * @ipv4: the addresses are IPv4
 * @user_pri: 802.1p priority
 * @tos: IP TOS / traffic class byte
 * @scope_id: interface index of an IPv6 link-local address's link, or 0;
 *	not part of a connection's identity (the function has one link per
 *	VLAN, and @vlan_id tells them apart)
 * @tag: a connection's: names its node, so that the engine's refusal of
 *	its 4-tuple filter reaches that node only (irdma_cm_conn_refused());
 *	not part of the identity
 */
struct irdma_cm_info {
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	bool ipv4;
	u8 user_pri;
	u8 tos;
	u32 scope_id;
	u32 tag;
};

/**
 * struct irdma_cm_tcp - software TCP state before offload
 * @snd_nxt: next sequence number to send
 * @snd_una: oldest unacknowledged sequence number
 * @rcv_nxt: next expected sequence number
 * @irs: peer initial sequence number
 * @snd_wnd: peer window in bytes, already scaled
 * @rcv_wnd: our window in bytes
 * @snd_wscale: peer window scale, the shift it applies to its window field
 * @rcv_wscale: our window scale, the shift we apply to our window field
 * @mss: effective MSS: the smaller of ours and the peer's
 * @adv_mss: our own MSS, from the link's MTU, as our SYN or SYN-ACK
 *	advertises it
 * @ws_ok: both sides sent the window scale option
 */
struct irdma_cm_tcp {
	u32 snd_nxt;
	u32 snd_una;
	u32 rcv_nxt;
	u32 irs;
	u32 snd_wnd;
	u32 rcv_wnd;
	u8 snd_wscale;
	u8 rcv_wscale;
	u16 mss;
	u16 adv_mss;
	bool ws_ok;
};

/**
 * struct irdma_cm_tcp_ctx - what a QP needs to take over a connection
 * @ci: addressing
 * @rem_mac: next hop MAC address
 * @loc_mac: our MAC address
 * @arp_idx: hardware ARP cache index of @rem_mac
 * @tcp: the CM's TCP state at the hand-over, as it is
 * @cwnd: initial congestion window
 * @ttl: IP TTL / hop limit
 * @rexmit_thresh: hardware retransmit threshold
 * @ird: inbound RDMA READ depth
 * @ord: outbound RDMA READ depth
 * @rdma0: RTR operation
 * @crc: MPA CRC in use
 * @p2p: peer-to-peer (RTR) mode
 * @active: this side initiated the connection
 */
struct irdma_cm_tcp_ctx {
	struct irdma_cm_info ci;
	u8 rem_mac[ETH_ALEN];
	u8 loc_mac[ETH_ALEN];
	int arp_idx;
	struct irdma_cm_tcp tcp;
	u32 cwnd;
	u8 ttl;
	u8 rexmit_thresh;
	u32 ird;
	u32 ord;
	enum irdma_cm_rdma0 rdma0;
	bool crc;
	bool p2p;
	bool active;
};

/**
 * struct irdma_cm_hw_ops - everything the CM needs from the layers below
 *
 * The CM never touches hardware directly. Ops marked "atomic" run with
 * spinlocks held or from softirq and must not sleep (a real implementation
 * posts a CQP command without waiting; the CQP executes in order).
 *
 * @xmit: (atomic) send one CM frame on the ILQ. For gen2 the frame starts at
 *	the TCP header and the hardware adds L2/L3 from the node's AH; for gen1
 *	it is a complete Ethernet frame. The buffer is only valid for the call.
 * @qhash: (atomic) add or delete a steering filter; @syn selects a listener
 *	(SYN) filter on local address/port, otherwise the 4-tuple filter.
 *	When the engine fails the command later, @failed (if not NULL) is
 *	incremented; only a caller that then calls @sync before @failed
 *	goes away may pass one. A refused add of a 4-tuple filter is
 *	reported with irdma_cm_conn_refused().
 * @apbvt: (atomic) add or delete the accelerated port for a local port;
 *	a refused add is reported with irdma_cm_port_refused() and @tag.
 * @sync: (optional) wait until the engine has carried out every @qhash and
 *	@apbvt posted so far. Process context, no CM lock held.
 * @ah_create: (atomic, optional) create the ILQ address handle of a node.
 * @ah_free: (atomic, optional) free it.
 * @arp_resolve: (atomic) find the next hop of @ci; fill @mac unless
 *	@have_mac, program the ARP cache, return its index, held for the
 *	caller until @arp_put, or a -errno.
 * @arp_put: (atomic, optional) give back an index @arp_resolve returned.
 * @get_vlan: (optional) VLAN id owning the local address of @ci (its scope
 *	for an IPv6 link-local one); default walks the netdevs of
 *	irdma_cm_net().
 * @vlan_prio: (optional) the 802.1p priority of traffic of IP TOS @ci->tos
 *	from the local address of @ci on a VLAN of ours: what the VLAN
 *	device's egress map gives a socket of that TOS. NULL: 0.
 * @prio_tag: (atomic, optional) the 802.1p priority that traffic of IP
 *	TOS @tos with no VLAN of its own must carry in a priority tag (VLAN
 *	0), when the port sorts frames into classes by priority; -1 when such
 *	traffic goes untagged. NULL: untagged.
 * @qp_lookup: find a QP by number that the caller may connect, with a
 *	reference; or an ERR_PTR: -EINVAL (no such QP, or not in INIT or
 *	RTR), -EACCES (not the caller's), -EBUSY (it has a connection).
 *	Called from the context of iw_cm's connect or accept.
 * @qp_put: (atomic) drop a reference taken by @qp_lookup or @qp_hold.
 * @qp_hold: (atomic, optional) take one more reference to a QP the caller
 *	holds one to (irdma_cm_ieq_lookup()).
 * @qp_link: (atomic, optional) make @node the CM node that owns the QP if
 *	@old owns it now: link with @old NULL, unlink with @node NULL. 0,
 *	or -EBUSY with nothing changed: a node never takes a QP another node
 *	owns, nor unlinks it from one.
 * @qp_set_ctx: program the TCP/iWARP context of a QP.
 * @qp_post_lsmm: post the MPA reply as the QP's first (streamed) message.
 * @qp_post_rtr: post the initiator's connection WQE: the zero length RTR
 *	operation, or with IRDMA_CM_RDMA0_NONE (no RTR) a NOP, so that the
 *	engine goes on to the ULP's first message.
 * @qp_to_rts: move the QP to RTS.
 * @qp_to_err: (atomic) move the QP to error (flush); the layer below
 *	resets a connection that has not closed.
 * @qp_close: (optional) close the QP's connection gracefully (our FIN),
 *	after the peer's FIN; the engine reports the end of the close.
 */
struct irdma_cm_hw_ops {
	int (*xmit)(struct irdma_cm_core *core, struct irdma_cm_node *node,
		    const void *frame, u32 len);
	int (*qhash)(struct irdma_cm_core *core, const struct irdma_cm_info *ci,
		     bool syn, bool add, atomic_t *failed);
	int (*apbvt)(struct irdma_cm_core *core, u16 port, bool add, u32 tag);
	void (*sync)(struct irdma_cm_core *core);
	int (*ah_create)(struct irdma_cm_core *core, struct irdma_cm_node *node);
	void (*ah_free)(struct irdma_cm_core *core, struct irdma_cm_node *node);
	int (*arp_resolve)(struct irdma_cm_core *core,
			   const struct irdma_cm_info *ci, u8 *mac,
			   bool have_mac);
	void (*arp_put)(struct irdma_cm_core *core, int idx);
	u16 (*get_vlan)(struct irdma_cm_core *core,
			const struct irdma_cm_info *ci);
	u8 (*vlan_prio)(struct irdma_cm_core *core,
			const struct irdma_cm_info *ci);
	int (*prio_tag)(struct irdma_cm_core *core, u8 tos);
	void *(*qp_lookup)(struct irdma_cm_core *core, u32 qpn);
	void (*qp_put)(struct irdma_cm_core *core, void *qp);
	void (*qp_hold)(struct irdma_cm_core *core, void *qp);
	int (*qp_link)(struct irdma_cm_core *core, void *qp,
		       struct irdma_cm_node *old, struct irdma_cm_node *node);
	int (*qp_set_ctx)(struct irdma_cm_core *core, void *qp,
			  const struct irdma_cm_tcp_ctx *ctx);
	int (*qp_post_lsmm)(struct irdma_cm_core *core, void *qp,
			    const void *buf, u32 len);
	int (*qp_post_rtr)(struct irdma_cm_core *core, void *qp,
			   enum irdma_cm_rdma0 op);
	int (*qp_to_rts)(struct irdma_cm_core *core, void *qp);
	void (*qp_to_err)(struct irdma_cm_core *core, void *qp);
	int (*qp_close)(struct irdma_cm_core *core, void *qp);
};

/**
 * struct irdma_cm_clock - time source of the CM timers
 * @now: current time in jiffies
 * @arm: make the core timer fire at or after @expires
 *
 * The default uses jiffies and a timer_list; KUnit installs a virtual clock
 * and calls irdma_cm_timer_tick() itself.
 */
struct irdma_cm_clock {
	unsigned long (*now)(struct irdma_cm_core *core);
	void (*arm)(struct irdma_cm_core *core, unsigned long expires);
};

/**
 * struct irdma_cm_config - policy of a CM core (set before use)
 * @mtu: link MTU of a core without a netdev; a core with one reads the
 *	MTU of the connection's netdev (or VLAN device) when it starts
 * @mpa_rev: MPA revision we speak (1 or 2)
 * @crc: request MPA CRC
 * @p2p: use peer-to-peer mode (RTR) with MPA v2
 * @rtr_offer: RTR ops offered in a request (IRDMA_MPA_ORD_WRITE0/READ0)
 * @rtr_pref: RTR op chosen by a responder when both are offered
 * @rcv_wnd: receive window advertised to the peer
 * @rcv_wscale: receive window scale
 * @max_ird: device maximum IRD
 * @max_ord: device maximum ORD
 * @retrans_max: retransmissions before a connection is abandoned
 * @mpa_reply_wait_ms: how long an initiator waits for the MPA reply
 * @mpa_req_wait_ms: how long a responder whose TCP is up waits for the MPA
 *	request
 * @gen1: build complete Ethernet frames (X722) instead of AH based frames
 * @v1_fallback: retry once with MPA v1 when a v2 request is answered by RST
 * @mac: our MAC address
 */
struct irdma_cm_config {
	u32 mtu;
	u8 mpa_rev;
	bool crc;
	bool p2p;
	u16 rtr_offer;
	enum irdma_cm_rdma0 rtr_pref;
	u32 rcv_wnd;
	u8 rcv_wscale;
	u32 max_ird;
	u32 max_ord;
	u32 retrans_max;
	u32 mpa_reply_wait_ms;
	u32 mpa_req_wait_ms;
	bool gen1;
	bool v1_fallback;
	u8 mac[ETH_ALEN];
};

/**
 * enum irdma_cm_stat - counters of a CM core (atomic64 in core->stats)
 * @IRDMA_CM_STAT_FRAMES_TX: frames tx
 * @IRDMA_CM_STAT_TX_ERR: frames the layer below refused to send (lost)
 * @IRDMA_CM_STAT_FRAMES_RX: frames rx
 * @IRDMA_CM_STAT_RX_DROPPED: rx dropped
 * @IRDMA_CM_STAT_RX_MALFORMED: rx malformed
 * @IRDMA_CM_STAT_RX_NO_NODE: rx no node
 * @IRDMA_CM_STAT_RX_BAD_SEQ: rx bad seq
 * @IRDMA_CM_STAT_RX_OFFLOADED: rx offloaded
 * @IRDMA_CM_STAT_RETRANS: retrans
 * @IRDMA_CM_STAT_RETRANS_EXPIRED: retrans expired
 * @IRDMA_CM_STAT_RST_TX: rst tx
 * @IRDMA_CM_STAT_RST_RX: rst rx
 * @IRDMA_CM_STAT_SYN_RX: syn rx
 * @IRDMA_CM_STAT_BACKLOG_DROP: backlog drop
 * @IRDMA_CM_STAT_MPA_REQ_RX: mpa req rx
 * @IRDMA_CM_STAT_MPA_REP_RX: mpa rep rx
 * @IRDMA_CM_STAT_MPA_REJ_RX: mpa rej rx
 * @IRDMA_CM_STAT_MPA_BAD: mpa bad
 * @IRDMA_CM_STAT_V1_FALLBACK: v1 fallback
 * @IRDMA_CM_STAT_CONNECTS: connects
 * @IRDMA_CM_STAT_CONNECT_ERR: connect err
 * @IRDMA_CM_STAT_ACCEPTS: accepts
 * @IRDMA_CM_STAT_ACCEPT_ERR: accept err
 * @IRDMA_CM_STAT_REJECTS: rejects
 * @IRDMA_CM_STAT_LISTENS: listens
 * @IRDMA_CM_STAT_LISTEN_ERR: listen err
 * @IRDMA_CM_STAT_UPCALLS: upcalls
 * @IRDMA_CM_STAT_UPCALL_ERR: upcall err
 * @IRDMA_CM_STAT_EVENTS_LOST: events lost
 * @IRDMA_CM_STAT_NODES_CREATED: nodes created
 * @IRDMA_CM_STAT_NODES_FREED: nodes freed
 * @IRDMA_CM_STAT_PDATA_TRUNCATED: pdata truncated
 * @IRDMA_CM_STAT_DISCONNECTS: disconnects
 * @IRDMA_CM_STAT_CLOSE_TIMEOUTS: graceful closes aborted by the close timer
 * @IRDMA_CM_STAT_MPA_TIMEOUTS: MPA exchanges given up by the MPA timer
 * @IRDMA_CM_STAT_REQS_RECLAIMED: requests iw_cm never answered, reset when
 *	their listener went away
 * @IRDMA_CM_STAT_COUNT: number of counters
 */
enum irdma_cm_stat {
	IRDMA_CM_STAT_FRAMES_TX,
	IRDMA_CM_STAT_TX_ERR,
	IRDMA_CM_STAT_FRAMES_RX,
	IRDMA_CM_STAT_RX_DROPPED,
	IRDMA_CM_STAT_RX_MALFORMED,
	IRDMA_CM_STAT_RX_NO_NODE,
	IRDMA_CM_STAT_RX_BAD_SEQ,
	IRDMA_CM_STAT_RX_OFFLOADED,
	IRDMA_CM_STAT_RETRANS,
	IRDMA_CM_STAT_RETRANS_EXPIRED,
	IRDMA_CM_STAT_RST_TX,
	IRDMA_CM_STAT_RST_RX,
	IRDMA_CM_STAT_SYN_RX,
	IRDMA_CM_STAT_BACKLOG_DROP,
	IRDMA_CM_STAT_MPA_REQ_RX,
	IRDMA_CM_STAT_MPA_REP_RX,
	IRDMA_CM_STAT_MPA_REJ_RX,
	IRDMA_CM_STAT_MPA_BAD,
	IRDMA_CM_STAT_V1_FALLBACK,
	IRDMA_CM_STAT_CONNECTS,
	IRDMA_CM_STAT_CONNECT_ERR,
	IRDMA_CM_STAT_ACCEPTS,
	IRDMA_CM_STAT_ACCEPT_ERR,
	IRDMA_CM_STAT_REJECTS,
	IRDMA_CM_STAT_LISTENS,
	IRDMA_CM_STAT_LISTEN_ERR,
	IRDMA_CM_STAT_UPCALLS,
	IRDMA_CM_STAT_UPCALL_ERR,
	IRDMA_CM_STAT_EVENTS_LOST,
	IRDMA_CM_STAT_NODES_CREATED,
	IRDMA_CM_STAT_NODES_FREED,
	IRDMA_CM_STAT_PDATA_TRUNCATED,
	IRDMA_CM_STAT_DISCONNECTS,
	IRDMA_CM_STAT_CLOSE_TIMEOUTS,
	IRDMA_CM_STAT_MPA_TIMEOUTS,
	IRDMA_CM_STAT_REQS_RECLAIMED,
	IRDMA_CM_STAT_COUNT,
};

/**
 * struct irdma_cm_retrans - the one retransmittable segment of a node
 * @buf: frame bytes (NULL when nothing is pending); its timer entry is
 *	IRDMA_CM_TMR_RTX
 * @len: frame length
 * @end_seq: sequence number that acknowledges the whole segment
 * @count: retransmissions done
 * @timeout_ms: current backoff
 */
struct irdma_cm_retrans {
	u8 *buf;
	u32 len;
	u32 end_seq;
	u32 count;
	u32 timeout_ms;
};

/**
 * enum irdma_cm_tmr - the timer entries of a node
 * @IRDMA_CM_TMR_RTX: retransmission of the pending segment
 * @IRDMA_CM_TMR_TIME_WAIT: end of TIME_WAIT
 * @IRDMA_CM_TMR_CLOSE: a graceful close of an offloaded connection not
 *	complete by then is aborted
 * @IRDMA_CM_TMR_MPA: the MPA exchange not complete by then is given up
 * @IRDMA_CM_TMR_COUNT: number of entries
 */
enum irdma_cm_tmr {
	IRDMA_CM_TMR_RTX,
	IRDMA_CM_TMR_TIME_WAIT,
	IRDMA_CM_TMR_CLOSE,
	IRDMA_CM_TMR_MPA,
	IRDMA_CM_TMR_COUNT,
};

/**
 * enum irdma_cm_ev_kind - internal events turned into iw_cm upcalls
 * @IRDMA_CM_EV_MPA_REQ: MPA request received (CONNECT_REQUEST)
 * @IRDMA_CM_EV_CONNECTED: MPA reply accepted (CONNECT_REPLY 0)
 * @IRDMA_CM_EV_MPA_REJECT: MPA reject received (CONNECT_REPLY -ECONNREFUSED)
 * @IRDMA_CM_EV_ABORTED: active open failed (CONNECT_REPLY with a status)
 * @IRDMA_CM_EV_ESTABLISHED: accept completed (ESTABLISHED)
 * @IRDMA_CM_EV_COUNT: number of kinds
 */
enum irdma_cm_ev_kind {
	IRDMA_CM_EV_MPA_REQ,
	IRDMA_CM_EV_CONNECTED,
	IRDMA_CM_EV_MPA_REJECT,
	IRDMA_CM_EV_ABORTED,
	IRDMA_CM_EV_ESTABLISHED,
	IRDMA_CM_EV_COUNT,
};

/**
 * struct irdma_cm_event - one pre-allocated event slot of a node
 * @work: queued on core->event_wq
 * @node: owner (a node reference is held while queued)
 * @kind: what happened
 * @status: iw_cm status to report
 * @used: the slot was posted (each kind happens at most once)
 */
struct irdma_cm_event {
	struct work_struct work;
	struct irdma_cm_node *node;
	enum irdma_cm_ev_kind kind;
	int status;
	bool used;
};

/**
 * enum irdma_cm_listener_state - whether a listener takes new connections
 * @IRDMA_CM_LISTENER_PASSIVE: being destroyed
 * @IRDMA_CM_LISTENER_ACTIVE: accepting SYNs
 */
enum irdma_cm_listener_state {
	IRDMA_CM_LISTENER_PASSIVE,
	IRDMA_CM_LISTENER_ACTIVE,
};

/**
 * struct irdma_cm_listen_child - one SYN filter of a wildcard listener
 * @list: on the listener's children list
 * @ci: local address, port and VLAN of the filter
 * @dev_vlan: the VLAN of the address's netdev, or IRDMA_CM_NO_VLAN: @ci
 *	has it, or the priority tag a port sorting by priority asks for
 */
struct irdma_cm_listen_child {
	struct list_head list;
	struct irdma_cm_info ci;
	u16 dev_vlan;
};

/**
 * struct irdma_cm_listener - one iw_cm listen
 * @list: on core->listen_list (core->listen_lock)
 * @refcnt: 1 while listed, +1 per node created from it
 * @core: owning core
 * @cm_id: iw_cm id; holds one cm_id reference until the listener is freed
 * @ci: local address, port and VLAN (addresses zero for a wildcard)
 * @state: ACTIVE or PASSIVE (core->listen_lock)
 * @wildcard: the local address is INADDR_ANY / in6addr_any
 * @dual_stack: an IPv6 wildcard that also takes IPv4
 * @children: SYN filters of a wildcard listener (core->listen_lock)
 * @pending: connection requests not yet accepted or rejected
 * @backlog: limit of @pending
 * @qhash_set: the SYN filter of a specific address is programmed
 * @dev_vlan: a specific listener's address's netdev VLAN, as for a child
 */
struct irdma_cm_listener {
	struct list_head list;
	refcount_t refcnt;
	struct irdma_cm_core *core;
	struct iw_cm_id *cm_id;
	struct irdma_cm_info ci;
	enum irdma_cm_listener_state state;
	bool wildcard;
	bool dual_stack;
	struct list_head children;
	atomic_t pending;
	int backlog;
	bool qhash_set;
	u16 dev_vlan;
};

/**
 * struct irdma_cm_node - one connection
 *
 * Lifetime: refcnt starts at one, the TCP reference, dropped when the
 * software TCP is finished (the node is then unhashed). The ULP holds a
 * second reference from CONNECT_REQUEST (passive) or connect (active) until
 * reject, a failed CONNECT_REPLY or the final CLOSE. Every queued event,
 * pending timer entry and lookup holds one more. Freed with kfree_rcu.
 *
 * @hnode: in core->conn_ht (core->ht_lock, RCU readers)
 * @timer_link: on core->timer_nodes while a timer entry is pending
 *	(core->timer_lock)
 * @tmp_link: private list used while collecting nodes
 * @rcu: deferred free
 * @refcnt: see above
 * @lock: protects everything below that is not marked otherwise
 * @core: owning core
 * @listener: listener this passive node came from (holds a listener ref)
 * @cm_id: iw_cm id once linked (holds a cm_id reference)
 * @qp: QP once linked (holds a QP reference)
 * @ah: address handle from hw ops
 * @ci: addressing
 * @rem_mac: next hop MAC
 * @arp_idx: hardware ARP index
 * @state: connection state
 * @tcp: software TCP state
 * @rtx: retransmittable segment (core->timer_lock)
 * @tmr_due: expiry of each timer entry, enum irdma_cm_tmr
 *	(core->timer_lock)
 * @tmr_armed: bitmap of the armed entries (core->timer_lock)
 * @mpa_rev: MPA revision in use
 * @mpa_crc: CRC negotiated
 * @p2p: peer-to-peer mode
 * @rtr_offer: RTR ops offered (initiator) or offered by the peer (responder)
 * @rdma0: RTR op selected
 * @ird: our IRD
 * @ord: our ORD
 * @peer_ird: IRD announced by the peer, or IRDMA_MPA_NO_IRD_ORD (none)
 * @peer_ord: ORD announced by the peer, or IRDMA_MPA_NO_IRD_ORD (none)
 * @pdata: private data of our request (active), until the ULP is connected
 * @pdata_len: its length
 * @mpa_rx: MPA frame being reassembled (IRDMA_MPA_MAX_FRAME bytes, taken
 *	at its first byte), until the ULP is connected
 * @mpa_rx_len: bytes in @mpa_rx
 * @rx_pdata_off: offset of the peer's ULP private data in @mpa_rx
 * @rx_pdata_len: its length
 * @events: event slots
 * @deferred_puts: references to drop once @lock is released
 * @lsmm_buf: MPA reply handed to the QP
 * @lsmm_len: its length
 * @active: we initiated the connection
 * @loopback: both ends are local
 * @v1_retry_done: already fell back from MPA v2 to v1
 * @tcp_ref_dropped: the TCP reference is gone
 * @ulp_ref: the ULP reference is held
 * @ulp_connected: CONNECT_REPLY(0) or ESTABLISHED delivered
 * @disc_sent: DISCONNECT delivered
 * @close_sent: CLOSE delivered
 * @llp_closing: our side of the offloaded connection is closing (the QP
 *	was moved to SQD, by the ULP or by the CM after the peer's FIN)
 * @peer_reset: the peer reset or closed before accept
 * @req_id: while the node's CONNECT_REQUEST is with iw_cm, its number in
 *	core->requests (what iw_cm's id carries as provider_data); 0 before
 *	(core->listen_lock, then fixed)
 * @pending_counted: counted in the listener's pending requests
 * @qhash_set: 4-tuple filter programmed
 * @apbvt_set: local port registered
 * @res_refused: the engine refused its filter or port before its connect
 *	linked the ULP: the connect fails there (irdma_cm_conn_refused())
 * @disc_causes: pending enum irdma_cm_disc_cause bits (atomic bitops)
 * @disc_work: runs irdma_disconnect_worker on core->event_wq
 */
struct irdma_cm_node {
	struct hlist_node hnode;
	struct list_head timer_link;
	struct list_head tmp_link;
	struct rcu_head rcu;
	refcount_t refcnt;
	spinlock_t lock; /* node state, TCP, MPA, ULP links */
	struct irdma_cm_core *core;
	struct irdma_cm_listener *listener;
	struct iw_cm_id *cm_id;
	void *qp;
	void *ah;
	struct irdma_cm_info ci;
	u8 rem_mac[ETH_ALEN];
	int arp_idx;
	enum irdma_cm_node_state state;
	struct irdma_cm_tcp tcp;
	struct irdma_cm_retrans rtx;
	unsigned long tmr_due[IRDMA_CM_TMR_COUNT];
	u8 tmr_armed;
	u8 mpa_rev;
	bool mpa_crc;
	bool p2p;
	u16 rtr_offer;
	enum irdma_cm_rdma0 rdma0;
	u32 ird;
	u32 ord;
	u32 peer_ird;
	u32 peer_ord;
	u8 *pdata;
	u16 pdata_len;
	u8 *mpa_rx;
	u16 mpa_rx_len;
	u16 rx_pdata_off;
	u16 rx_pdata_len;
	struct irdma_cm_event events[IRDMA_CM_EV_COUNT];
	u8 deferred_puts;
	u8 *lsmm_buf;
	u32 lsmm_len;
	u32 req_id;
	bool active:1;
	bool loopback:1;
	bool v1_retry_done:1;
	bool tcp_ref_dropped:1;
	bool ulp_ref:1;
	bool ulp_connected:1;
	bool disc_sent:1;
	bool close_sent:1;
	bool llp_closing:1;
	bool peer_reset:1;
	bool pending_counted:1;
	bool qhash_set:1;
	bool apbvt_set:1;
	bool res_refused:1;
	unsigned long disc_causes;
	struct work_struct disc_work;
};

/**
 * struct irdma_cm_core - the connection manager of one RDMA function
 * @iwdev: owning device
 * @ops: hardware ops
 * @ops_priv: private pointer for @ops
 * @clk: time source
 * @clk_priv: private pointer for @clk
 * @netdev: netdev whose addresses wildcard listeners use, and whose
 *	namespace the CM resolves in (irdma_cm_net()); may be NULL
 * @cfg: policy
 * @ht_lock: protects @conn_ht writers
 * @conn_ht: connection nodes keyed by ports (RCU readers)
 * @listen_lock: protects @listen_list and listener children and state
 * @listen_list: listeners
 * @apbvt_lock: protects @apbvt_ht
 * @apbvt_ht: local ports in use with their use counts
 * @timer_lock: protects @timer_nodes and every node's timer entries
 * @timer_nodes: nodes with a pending timer entry (each holds a ref)
 * @timer_armed: the clock is armed for @timer_due
 * @timer_due: expiry the clock is armed for
 * @tcp_timer: default clock's timer
 * @event_wq: ordered WQ_MEM_RECLAIM queue of all upcalls
 * @requests: passive nodes whose CONNECT_REQUEST iw_cm has and has not
 *	answered, by number; an entry stands for the node's ULP reference,
 *	and whoever erases it (accept, reject, the listener's end) owns that
 *	reference: iw_cm drops the requests of a listener it destroys
 *	without a word, and a number that is gone is refused
 * @next_req: the next number to try for @requests
 * @stats: counters
 * @tags: the last tag given to a node or a port's add
 * @node_cnt: live nodes
 * @listener_cnt: live listeners
 * @event_cnt: queued events
 * @quiesced: the device is leaving: no node may be made (under @ht_lock)
 * @ready: set up and not yet cleaned up
 */
struct irdma_cm_core {
	struct irdma_device *iwdev;
	const struct irdma_cm_hw_ops *ops;
	void *ops_priv;
	const struct irdma_cm_clock *clk;
	void *clk_priv;
	struct net_device *netdev;
	struct irdma_cm_config cfg;
	spinlock_t ht_lock; /* conn_ht writers */
	DECLARE_HASHTABLE(conn_ht, IRDMA_CM_HASH_BITS);
	spinlock_t listen_lock; /* listen_list, children, state */
	struct list_head listen_list;
	spinlock_t apbvt_lock; /* apbvt_ht */
	DECLARE_HASHTABLE(apbvt_ht, 4);
	spinlock_t timer_lock; /* timer_nodes, node timer entries */
	struct list_head timer_nodes;
	bool timer_armed;
	unsigned long timer_due;
	struct timer_list tcp_timer;
	struct workqueue_struct *event_wq;
	struct xarray requests;
	u32 next_req;
	atomic64_t stats[IRDMA_CM_STAT_COUNT];
	atomic_t tags;
	atomic_t node_cnt;
	atomic_t listener_cnt;
	atomic_t event_cnt;
	bool quiesced;
	bool ready;
};

/**
 * struct irdma_cm_rx_info - receive metadata from the ILQ completion
 * @vlan_valid: the hardware stripped a VLAN tag
 * @vlan_tci: the stripped tag
 * @csum_err: the hardware found a bad checksum
 * @l3: the frame starts at its IP header, without Ethernet header (the
 *	gen2 ILQ); @ipv4 and @smac say what the Ethernet header would have
 * @ipv4: with @l3, the IP header is IPv4 (else IPv6)
 * @smac_valid: with @l3, @smac holds the frame's source MAC; a frame
 *	without it is refused, since the reply needs it
 * @smac: the source MAC
 */
struct irdma_cm_rx_info {
	bool vlan_valid;
	u16 vlan_tci;
	bool csum_err;
	bool l3;
	bool ipv4;
	bool smac_valid;
	u8 smac[ETH_ALEN];
};

int irdma_setup_cm_core(struct irdma_device *iwdev,
			const struct irdma_cm_hw_ops *ops, void *ops_priv);
void irdma_cleanup_cm_core(struct irdma_cm_core *core);
void irdma_cm_quiesce(struct irdma_cm_core *core);
int irdma_receive_ilq(struct irdma_cm_core *core, const void *frame, u32 len,
		      const struct irdma_cm_rx_info *rxi);

/**
 * struct irdma_cm_ieq_seg - a segment of an offloaded connection
 * @qp: the connection's QP, with a reference (core->ops->qp_put())
 * @ci: its 4-tuple and VLAN as seen from here
 * @smac: the peer's MAC
 * @arp_idx: the hardware ARP index of the peer
 * @tcp: the segment's TCP header
 * @tcp_len: its bytes, options included
 * @l2l3_len: bytes of Ethernet and IP header in front of @tcp in the
 *	frame (a whole frame, gen1), or 0 (a segment from its IP header)
 * @seq: its sequence number
 * @data: its payload
 * @datalen: the payload's bytes
 */
struct irdma_cm_ieq_seg {
	void *qp;
	struct irdma_cm_info ci;
	u8 smac[ETH_ALEN];
	int arp_idx;
	const u8 *tcp;
	u32 tcp_len;
	u32 l2l3_len;
	u32 seq;
	const u8 *data;
	u32 datalen;
};

int irdma_cm_ieq_lookup(struct irdma_cm_core *core, const void *frame,
			u32 len, const struct irdma_cm_rx_info *rxi,
			struct irdma_cm_ieq_seg *out);
void irdma_cm_timer_tick(struct irdma_cm_core *core);
void irdma_cm_disconn(struct irdma_cm_node *node,
		      enum irdma_cm_disc_cause cause);
int irdma_send_cm_event(struct irdma_cm_node *cm_node, struct iw_cm_id *cm_id,
			enum iw_cm_event_type type, int status);
void irdma_free_sqbuf(u8 *buf);
int irdma_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param);
int irdma_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param);
int irdma_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pdata_len);
int irdma_create_listen(struct iw_cm_id *cm_id, int backlog);
int irdma_destroy_listen(struct iw_cm_id *cm_id);
void irdma_if_notify(struct irdma_cm_core *core, const u32 *addr, bool ipv4,
		     u16 vlan, bool ifup);
void irdma_cm_retag_listeners(struct irdma_cm_core *core);
void irdma_cm_read_stats(struct irdma_cm_core *core, u64 *vals);
void irdma_cm_teardown_connections(struct irdma_cm_core *core,
				   const u32 *addr, bool ipv4);
void irdma_cm_conn_refused(struct irdma_cm_core *core,
			   const struct irdma_cm_info *ci, int status);
void irdma_cm_port_refused(struct irdma_cm_core *core, u16 port, u32 tag,
			   int status);
struct net *irdma_cm_net(const struct irdma_cm_core *core);
bool irdma_cm_dev_is_ours(const struct irdma_cm_core *core,
			  const struct net_device *dev);
struct net_device *irdma_cm_local_dev(struct irdma_cm_core *core,
				      const struct irdma_cm_info *ci);
int irdma_addr_resolve_neigh(struct irdma_cm_core *core, u32 src, u32 dst,
			     u8 *mac);
int irdma_addr_resolve_neigh_ipv6(struct irdma_cm_core *core, const u32 *src,
				  const u32 *dst, u32 scope_id, u8 *mac);
void irdma_free_lsmm_rsrc(struct irdma_cm_node *node);
void irdma_rem_ref_cm_node(struct irdma_cm_node *node);

#endif /* IRDMA_CM_H */
