// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: partial FPDUs of offloaded iWARP connections (the IEQ's side of
 * hw-interface.rst, "Partial FPDUs (IEQ)").
 *
 * The engine finds FPDUs in a connection's byte stream by their MPA length
 * field, starting each segment where the last FPDU ended. When a segment
 * ends inside an FPDU (a peer that does not align FPDUs with segments, or
 * a path that splits them), the engine cannot place it: it places the
 * whole FPDUs before it, writes the sequence number of the partial one
 * (the FPSN) into the QP's Q2 and hands that segment, and every later one
 * of the connection, to the IEQ, until the driver has given back as much
 * as the engine took.
 *
 * Here the segments of such an episode are put together, per QP, into
 * the stream that follows the FPSN. Complete FPDUs are checked (length
 * within the connection's MSS, the MPA CRC if the connection uses it) and
 * sent back through the IEQ as one segment with the peer's TCP header,
 * its sequence number where they start, through a loopback AH that names
 * the connection as its segments arrive; the engine takes it as received
 * and places the FPDUs. What is left (the start of the next FPDU) waits
 * for the next segment. Complete FPDUs that find every send buffer busy
 * wait in the IEQ's list for the next send completion, which takes the
 * waiting streams in turn. A segment with nothing new is dropped (the engine
 * delivers in order, so that is a duplicate), one beyond a missing byte
 * too. A bad FPDU ends the connection: the engine raises an MPA error AE
 * for the QP (GEN_AE), which the AE handling turns into a TERMINATE.
 *
 * A new FPSN in Q2 starts a new episode: whatever the driver held then
 * belongs to the old one, which the engine has given up.
 *
 * Context: the IEQ's CEQ thread, bottom halves off, under the IEQ's CQ
 * lock; each QP's stream has its own lock for QP destroy.
 */
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <asm/unaligned.h>
#include <net/checksum.h>

#include "cm.h"
#include "ieq.h"
#include "ilq.h"
#include "main.h"
#include "qp.h"

#define IRDMA_IEQ_MPA_LEN	2	/* the FPDU's ULPDU length field */
#define IRDMA_IEQ_MPA_CRC	4
#define IRDMA_IEQ_HOP_LIMIT	64
/* IP and TCP headers without options: what an MSS leaves of an MTU */
#define IRDMA_IEQ_MTU_OVERHEAD	40

#define ieq_stat(st, s) atomic64_inc(&(st)->stats[IRDMA_IEQ_STAT_##s])

/**
 * irdma_ieq_stream_init - set up the partial FPDU state of a new QP
 * @s: the QP's stream
 */
void irdma_ieq_stream_init(struct irdma_ieq_stream *s)
{
	memset(s, 0, sizeof(*s));
	spin_lock_init(&s->lock);
	INIT_LIST_HEAD(&s->wait);
}

/**
 * irdma_ieq_stream_reset - forget an episode and free what it held
 * @s: the stream, locked (or not yet or no longer shared)
 *
 * The AH is kept: the next episode sends through it too.
 */
void irdma_ieq_stream_reset(struct irdma_ieq_stream *s)
{
	kfree(s->buf);
	s->buf = NULL;
	s->size = 0;
	s->len = 0;
	s->active = false;
	s->failed = false;
}

/* Start the episode of @fps with an empty buffer of at least @size bytes */
static int irdma_ieq_stream_start(struct irdma_ieq_stream *s, u32 fps,
				  u32 size)
{
	if (!s->buf || s->size < size) {
		kfree(s->buf);
		s->buf = kmalloc(size, GFP_ATOMIC);
		if (!s->buf) {
			irdma_ieq_stream_reset(s);
			return -ENOMEM;
		}
		s->size = size;
	}
	s->len = 0;
	s->seq = fps;
	s->fps = fps;
	s->active = true;
	s->failed = false;
	return 0;
}

/**
 * irdma_ieq_stream_add - take a segment's payload into the stream
 * @s: the QP's stream, locked
 * @fps: the FPSN the engine wrote for the QP
 * @seq: the segment's sequence number
 * @data: its payload
 * @len: the payload's bytes
 * @size: the room a new episode's buffer needs (two segments' worth)
 *
 * A new @fps starts a new episode, whose stream begins at @fps: the bytes
 * of the first segment before it are the whole FPDUs the engine placed.
 *
 * Return: 0 if bytes were added; -EALREADY for a segment with nothing
 * new, -ERANGE for one that starts beyond the stream's end, -EIO after a
 * bad FPDU in this episode, -ENOSPC if the bytes do not fit, -ENOMEM.
 */
int irdma_ieq_stream_add(struct irdma_ieq_stream *s, u32 fps, u32 seq,
			 const u8 *data, u32 len, u32 size)
{
	u32 end, skip;
	int ret;

	if (!s->active || fps != s->fps) {
		ret = irdma_ieq_stream_start(s, fps, size);
		if (ret)
			return ret;
	}
	if (s->failed)
		return -EIO;
	end = s->seq + s->len;
	if ((s32)(seq - end) > 0)
		return -ERANGE;
	skip = end - seq;
	if (skip >= len)
		return -EALREADY;
	data += skip;
	len -= skip;
	if (len > s->size - s->len)
		return -ENOSPC;
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	return 0;
}

/**
 * irdma_ieq_stream_ready - the complete FPDUs at the front of the stream
 * @s: the stream, locked
 * @room: the most bytes one send may carry
 * @max_fpdu: the longest FPDU the connection may receive
 * @crc: the connection uses MPA CRCs: check them
 * @n: set to the bytes of the complete FPDUs that fit in @room (0: none)
 * @fpdus: set to their number
 *
 * An FPDU is its 2-byte length, that many bytes of ULPDU, padding to a
 * multiple of 4 and the 4-byte CRC (RFC 5044, 4).
 *
 * Return: 0; -EMSGSIZE if an FPDU's length exceeds @max_fpdu, -EBADMSG
 * if a complete one's CRC is wrong.
 */
int irdma_ieq_stream_ready(const struct irdma_ieq_stream *s, u32 room,
			   u32 max_fpdu, bool crc, u32 *n, u32 *fpdus)
{
	u32 off = 0, flen, cnt = 0;
	const u8 *p;

	while (s->len - off >= IRDMA_IEQ_MPA_LEN) {
		p = s->buf + off;
		flen = ALIGN(IRDMA_IEQ_MPA_LEN + get_unaligned_be16(p), 4) +
		       IRDMA_IEQ_MPA_CRC;
		if (flen > max_fpdu)
			return -EMSGSIZE;
		if (flen > s->len - off || off + flen > room)
			break;
		if (crc && get_unaligned_le32(p + flen - IRDMA_IEQ_MPA_CRC) !=
			   ~__crc32c_le(~0U, p, flen - IRDMA_IEQ_MPA_CRC))
			return -EBADMSG;
		off += flen;
		cnt++;
	}
	*n = off;
	*fpdus = cnt;
	return 0;
}

/**
 * irdma_ieq_stream_consume - drop bytes handed back from the stream's front
 * @s: the stream, locked
 * @n: bytes, at most what it holds
 */
void irdma_ieq_stream_consume(struct irdma_ieq_stream *s, u32 n)
{
	n = min(n, s->len);
	memmove(s->buf, s->buf + n, s->len - n);
	s->len -= n;
	s->seq += n;
}

/* ---- the device side ---- */

/**
 * struct irdma_ieq_ae - GEN_AE parameters
 * @qp_id: the QP
 * @code: the AE
 */
struct irdma_ieq_ae {
	u32 qp_id;
	u16 code;
};

static int irdma_ieq_ae_cb(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_ieq_ae *ae = arg;

	return irdma_cqpw_gen_ae(wqe, valid, ae->qp_id, ae->code,
				 IRDMA_AESRC_RQ);
}

/* Have the engine raise @code for the QP, as for an FPDU it refused */
static void irdma_ieq_gen_ae(struct irdma_qp *qp, u16 code)
{
	struct irdma_ieq_ae ae = { .qp_id = qp->ibqp.qp_num, .code = code };
	struct irdma_cmd_req *req;

	req = irdma_cmd_req_alloc(irdma_ieq_ae_cb, &ae, sizeof(ae),
				  "GEN_AE (IEQ)", GFP_ATOMIC);
	if (!req) {
		ibdev_warn_ratelimited(qp->ibqp.device,
				       "IEQ: QP %u: no memory for the AE of a bad FPDU\n",
				       qp->ibqp.qp_num);
		return;
	}
	irdma_cmd_req_submit(qp->hw, req);
}

/* The loopback AH: the connection as its segments arrive */
static struct irdma_ilq_ah *irdma_ieq_ah(struct irdma_qp *qp,
					 const struct irdma_cm_ieq_seg *seg)
{
	const struct irdma_cm_info *ci = &seg->ci;
	struct irdma_cqp_ah_info info = {
		.ipv4 = ci->ipv4,
		.tc = ci->tos,
		.hop_limit = IRDMA_IEQ_HOP_LIMIT,
		.loopback = true,
	};

	if (seg->arp_idx < 0)
		return ERR_PTR(-EINVAL);
	info.arp_idx = seg->arp_idx;
	ether_addr_copy(info.mac, seg->smac);
	memcpy(info.src_addr, ci->rem_addr, sizeof(info.src_addr));
	memcpy(info.dest_addr, ci->loc_addr, sizeof(info.dest_addr));
	if (ci->vlan_id < VLAN_N_VID) {
		info.insert_vlan = true;
		info.vlan_tag = ci->vlan_id | ci->user_pri << VLAN_PRIO_SHIFT;
	}
	return irdma_ilq_ah_create(qp->hw, &info);
}

/* gen1: where a whole frame's IP header starts, after one tag at most */
static u32 irdma_ieq_l3_off(const u8 *frame)
{
	return ((const struct ethhdr *)frame)->h_proto == htons(ETH_P_8021Q) ?
	       VLAN_ETH_HLEN : ETH_HLEN;
}

/*
 * gen1 sends back what the ILQ can describe: IPv4 without options or IPv6
 * without extension headers, right behind the Ethernet header
 */
static bool irdma_ieq_frame_ok(const u8 *frame, u32 l2l3_len)
{
	u32 l3 = irdma_ieq_l3_off(frame);

	if (l2l3_len <= l3)
		return false;
	switch (frame[l3] >> 4) {
	case 4:
		return l2l3_len == l3 + sizeof(struct iphdr);
	case 6:
		return l2l3_len == l3 + sizeof(struct ipv6hdr);
	default:
		return false;
	}
}

/*
 * gen1: the IP header of the frame going back says how long it is now (the
 * engine offloads the checksums of a raw queue's frames)
 */
static void irdma_ieq_set_ip_len(struct irdma_ieq_stream *s, u32 n)
{
	u32 tcp = s->hdr_len - s->tcp_off + n;
	u8 *l3 = s->hdr + irdma_ieq_l3_off(s->hdr);
	struct ipv6hdr *ip6;
	struct iphdr *ip4;

	if (*l3 >> 4 == 4) {
		ip4 = (struct iphdr *)l3;
		ip4->tot_len = htons(sizeof(*ip4) + tcp);
		ip4->check = 0;
		ip4->check = ip_fast_csum(ip4, ip4->ihl);
	} else {
		ip6 = (struct ipv6hdr *)l3;
		ip6->payload_len = htons(tcp);
	}
}

/* Send back @n bytes from the stream's front as one segment */
static int irdma_ieq_send(struct irdma_qp *qp, u32 n)
{
	struct irdma_ieq_stream *s = &qp->ieq;
	struct tcphdr *th = (struct tcphdr *)(s->hdr + s->tcp_off);

	th->seq = htonl(s->seq);
	/* the engine has acted on the segment's flags already */
	th->fin = 0;
	th->syn = 0;
	th->rst = 0;
	th->urg = 0;
	th->psh = 0;
	if (s->tcp_off)
		irdma_ieq_set_ip_len(s, n);
	return irdma_ieq_xmit(qp->hw, s->ah, s->hdr, s->hdr_len, s->buf, n);
}

/*
 * Hand back what is complete; a bad FPDU fails the episode. With every
 * send buffer busy the stream waits in the IEQ's list for the next send
 * to complete (irdma_ieq_tx_done()). Under the IEQ's CQ lock and the
 * stream's lock.
 */
static void irdma_ieq_flush(struct irdma_qp *qp, struct irdma_ieq_state *st)
{
	struct irdma_ieq_stream *s = &qp->ieq;
	bool crc = !qp->conn.iw.rcv_no_mpa_crc;
	u32 n, fpdus;
	int ret;

	for (;;) {
		ret = irdma_ieq_stream_ready(s, s->max_fpdu, s->max_fpdu, crc,
					     &n, &fpdus);
		if (ret) {
			s->failed = true;
			ieq_stat(st, BAD_FPDU);
			ibdev_dbg(qp->ibqp.device,
				  "IEQ: QP %u: %s FPDU at %u\n", qp->ibqp.qp_num,
				  ret == -EBADMSG ? "bad CRC in an" : "oversized",
				  s->seq);
			irdma_ieq_gen_ae(qp, ret == -EBADMSG ?
					 IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR :
					 IRDMA_AE_LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH);
			return;
		}
		if (!n)
			return;
		if (irdma_ieq_send(qp, n)) {
			/* kept, until a send buffer comes free */
			if (!s->waiting) {
				s->waiting = true;
				list_add_tail(&s->wait, &st->wait);
				ieq_stat(st, WAITS);
			}
			return;
		}
		irdma_ieq_stream_consume(s, n);
		atomic64_add(fpdus, &st->stats[IRDMA_IEQ_STAT_FPDUS]);
		ieq_stat(st, SENDS);
	}
}

/**
 * irdma_ieq_tx_done - a send buffer of the IEQ came free
 * @st: the IEQ's state
 *
 * The streams that waited for one try again, oldest first, until one
 * finds every buffer busy again.
 *
 * Context: the IEQ's CEQ thread, under its CQ lock.
 */
void irdma_ieq_tx_done(struct irdma_ieq_state *st)
{
	struct irdma_ieq_stream *s;
	struct irdma_qp *qp;

	while (!list_empty(&st->wait)) {
		s = list_first_entry(&st->wait, struct irdma_ieq_stream, wait);
		list_del_init(&s->wait);
		s->waiting = false;
		qp = container_of(s, struct irdma_qp, ieq);
		spin_lock(&s->lock);
		if (s->active && !s->failed)
			irdma_ieq_flush(qp, st);
		spin_unlock(&s->lock);
		if (s->waiting)
			break;
	}
}

/* One segment of the QP's connection */
static int irdma_ieq_take(struct irdma_device *iwdev, struct irdma_qp *qp,
			  const struct irdma_cm_ieq_seg *seg,
			  struct irdma_ieq_state *st)
{
	struct irdma_ieq_stream *s = &qp->ieq;
	u32 mtu = READ_ONCE(iwdev->fn->netdev->mtu);
	u32 fps;
	int ret;

	if (!qp->conn_set || seg->tcp_len > IRDMA_IEQ_TCP_MAX ||
	    seg->l2l3_len + seg->tcp_len > IRDMA_IEQ_HDR_MAX ||
	    (seg->l2l3_len &&
	     !irdma_ieq_frame_ok(seg->tcp - seg->l2l3_len, seg->l2l3_len)))
		return -EINVAL;
	fps = get_unaligned_le32(irdma_qp_q2(qp) + IRDMA_Q2_FPSN_OFF);
	spin_lock(&s->lock);
	if (!s->active || fps != s->fps)
		ieq_stat(st, EPISODES);
	ret = irdma_ieq_stream_add(s, fps, seg->seq, seg->data, seg->datalen,
				   2 * mtu);
	if (ret) {
		if (ret == -EALREADY)
			ieq_stat(st, DUP);
		else if (ret == -ERANGE)
			ieq_stat(st, GAP);
		else if (ret != -EIO)
			ieq_stat(st, NO_RES);
		goto out;
	}
	ieq_stat(st, SEGS);
	s->max_fpdu = mtu - IRDMA_IEQ_MTU_OVERHEAD;
	/* gen1 gives back whole frames: the headers in front come along */
	memcpy(s->hdr, seg->tcp - seg->l2l3_len,
	       seg->l2l3_len + seg->tcp_len);
	s->hdr_len = seg->l2l3_len + seg->tcp_len;
	s->tcp_off = seg->l2l3_len;
	/* gen1 has no AHs: the frame's own headers say where it goes */
	if (!s->ah && !seg->l2l3_len) {
		struct irdma_ilq_ah *ah = irdma_ieq_ah(qp, seg);

		if (IS_ERR(ah)) {
			ieq_stat(st, NO_RES);
			ret = PTR_ERR(ah);
			goto out;
		}
		s->ah = ah;
	}
	/* a stream waiting for a buffer waits its turn */
	if (!s->waiting)
		irdma_ieq_flush(qp, st);
out:
	spin_unlock(&s->lock);
	return ret;
}

/**
 * irdma_ieq_rx - a segment the engine handed to the IEQ
 * @iwdev: the device
 * @core: its CM, which knows the connection
 * @frame: the segment from its IP header
 * @len: its bytes
 * @rxi: receive metadata from the CQE
 * @st: the IEQ's counters and wait list
 *
 * Context: the IEQ's CEQ thread, under its CQ lock.
 * Return: 0 if the segment was taken, a negative errno if it was dropped.
 */
int irdma_ieq_rx(struct irdma_device *iwdev, struct irdma_cm_core *core,
		 const u8 *frame, u32 len, const struct irdma_cm_rx_info *rxi,
		 struct irdma_ieq_state *st)
{
	struct irdma_cm_ieq_seg seg;
	int ret;

	ret = irdma_cm_ieq_lookup(core, frame, len, rxi, &seg);
	if (ret) {
		ieq_stat(st, NO_CONN);
		return ret;
	}
	ret = irdma_ieq_take(iwdev, seg.qp, &seg, st);
	irdma_qp_put(seg.qp);
	return ret;
}

/**
 * irdma_ieq_qp_release - give up a QP's partial FPDU state
 * @qp: an unpublished QP (no lookup finds it any more)
 *
 * Context: process context.
 */
void irdma_ieq_qp_release(struct irdma_qp *qp)
{
	struct irdma_ieq_stream *s = &qp->ieq;
	struct irdma_ilq_ah *ah;

	irdma_ieq_unwait(qp->hw, s);
	spin_lock_bh(&s->lock);
	ah = s->ah;
	s->ah = NULL;
	irdma_ieq_stream_reset(s);
	spin_unlock_bh(&s->lock);
	irdma_ilq_ah_put(ah);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ieq_test.c"
#endif
