// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026 The irdma project authors */
/*
 * iWARP connection manager: a small software TCP that runs the three-way
 * handshake and the MPA exchange over the ILQ, then hands the connection to
 * a QP, and reports every step to iw_cm. Documentation/cm.rst describes the
 * state machine, timers, locks and references.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/unaligned/packed_struct.h>
#include <asm/unaligned.h>
#include <net/addrconf.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/secure_seq.h>
#include <net/tcp.h>

#include "main.h"
#include "trace.h"

#define cm_dbg(core, fmt, ...) \
	ibdev_dbg(&(core)->iwdev->ibdev, "CM: " fmt, ##__VA_ARGS__)
#define cm_stat(core, name) \
	atomic64_inc(&(core)->stats[IRDMA_CM_STAT_##name])

#define IRDMA_CM_COLLECT_MAX	32
#define IRDMA_CM_TCP_OPT_MAX	8
#define IRDMA_CM_L2L3_MAX	(VLAN_ETH_HLEN + sizeof(struct ipv6hdr))

static const char irdma_mpa_key_req[IRDMA_MPA_KEY_LEN] = "MPA ID Req Frame";
static const char irdma_mpa_key_rep[IRDMA_MPA_KEY_LEN] = "MPA ID Rep Frame";

/**
 * struct irdma_cm_seg - a parsed TCP segment, seen from the receiver
 * @ci: addressing (local = destination of the frame)
 * @smac: source MAC
 * @seq: sequence number
 * @ack: acknowledgment number
 * @wnd: window field
 * @flags: TCP flag byte
 * @opts: TCP options
 * @optlen: their length
 * @data: payload
 * @datalen: payload length
 */
struct irdma_cm_seg {
	struct irdma_cm_info ci;
	u8 smac[ETH_ALEN];
	u32 seq;
	u32 ack;
	u16 wnd;
	u8 flags;
	const u8 *opts;
	u32 optlen;
	const u8 *data;
	u32 datalen;
};

/**
 * struct irdma_mpa_parsed - syntax of a received MPA frame
 * @flags: flag byte
 * @rev: revision
 * @v2: RFC 6581 block present
 * @ird_word: IRD word of the block
 * @ord_word: ORD word of the block
 * @ulp_off: offset of the ULP private data
 * @ulp_len: its length
 */
struct irdma_mpa_parsed {
	u8 flags;
	u8 rev;
	bool v2;
	u16 ird_word;
	u16 ord_word;
	u16 ulp_off;
	u16 ulp_len;
};

enum irdma_mpa_kind {
	IRDMA_MPA_KIND_REQ,
	IRDMA_MPA_KIND_REP,
	IRDMA_MPA_KIND_REJ,
};

static void irdma_cm_timer_sync(struct irdma_cm_node *node);
static void irdma_cm_free_tcp(struct irdma_cm_node *node);
static void irdma_active_open_err(struct irdma_cm_node *node, bool reset,
				  int status);
static bool irdma_cm_loopback_heard(struct irdma_cm_core *core,
				    const struct irdma_cm_info *ci);
static void irdma_create_event(struct irdma_cm_node *node,
			       enum irdma_cm_ev_kind kind, int status);

static struct irdma_cm_core *irdma_cm_core_of(struct ib_device *ibdev)
{
	return &to_iwdev(ibdev)->cm_core;
}

static unsigned long irdma_cm_now(struct irdma_cm_core *core)
{
	return core->clk->now(core);
}

static bool irdma_cm_node_get(struct irdma_cm_node *node)
{
	return refcount_inc_not_zero(&node->refcnt);
}

/* Drop a reference later, when node->lock is released. */
static void irdma_cm_defer_put(struct irdma_cm_node *node)
{
	lockdep_assert_held(&node->lock);
	node->deferred_puts++;
}

static void irdma_cm_node_unlock(struct irdma_cm_node *node,
				 unsigned long flags)
	__releases(&node->lock)
{
	u8 puts = node->deferred_puts;

	node->deferred_puts = 0;
	spin_unlock_irqrestore(&node->lock, flags);
	while (puts--)
		irdma_rem_ref_cm_node(node);
}

/*
 * Still opening: the TCP or MPA exchange is not finished, so a node torn
 * down now answers with RST.
 */
static bool irdma_cm_state_opening(enum irdma_cm_node_state state)
{
	switch (state) {
	case IRDMA_CM_STATE_UNKNOWN:
	case IRDMA_CM_STATE_LISTENING:
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_SYN_RCVD:
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_SENT:
	case IRDMA_CM_STATE_MPAREQ_RCVD:
		return true;
	default:
		return false;
	}
}

/* An active open still in its TCP or MPA handshake. */
static bool irdma_cm_connecting(const struct irdma_cm_node *node)
{
	return node->active && (node->state == IRDMA_CM_STATE_SYN_SENT ||
				node->state == IRDMA_CM_STATE_MPAREQ_SENT);
}

/* The MPA exchange runs: its timer is armed in these states. */
static bool irdma_cm_state_mpa(enum irdma_cm_node_state state)
{
	return state == IRDMA_CM_STATE_MPAREQ_SENT ||
	       state == IRDMA_CM_STATE_ESTABLISHED;
}

static void irdma_cm_mpa_timer(struct irdma_cm_node *node, bool arm);

static void irdma_cm_set_state(struct irdma_cm_node *node,
			       enum irdma_cm_node_state state)
{
	bool mpa = irdma_cm_state_mpa(state);

	lockdep_assert_held(&node->lock);
	trace_irdma_cm_state(node, node->ci.loc_port, node->ci.rem_port,
			     node->state, state);
	if (mpa != irdma_cm_state_mpa(node->state))
		irdma_cm_mpa_timer(node, mpa);
	node->state = state;
}

/* ---------------------------------------------------------------------- */
/* Addresses                                                              */

static void irdma_copy_ip_ntohl(u32 *dst, const __be32 *src)
{
	int i;

	for (i = 0; i < 4; i++)
		dst[i] = ntohl(src[i]);
}

static void irdma_copy_ip_htonl(__be32 *dst, const u32 *src)
{
	int i;

	for (i = 0; i < 4; i++)
		dst[i] = htonl(src[i]);
}

/* The addressing of a node as the qhash and context writers want it. */
static void irdma_get_addr_info(struct irdma_cm_node *node,
				struct irdma_cm_info *ci)
{
	*ci = node->ci;
}

static void irdma_fill_sockaddr4(const u32 *addr, u16 port,
				 struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(addr[0]);
	sin->sin_port = htons(port);
}

/* @scope_id goes with a link-local address only (RFC 4007). */
static void irdma_fill_sockaddr6(const u32 *addr, u16 port, u32 scope_id,
				 struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	sin6->sin6_family = AF_INET6;
	irdma_copy_ip_htonl(sin6->sin6_addr.in6_u.u6_addr32, addr);
	sin6->sin6_port = htons(port);
	if (ipv6_addr_type(&sin6->sin6_addr) & IPV6_ADDR_LINKLOCAL)
		sin6->sin6_scope_id = scope_id;
}

static bool irdma_ipv4_is_lpb(u32 loc_addr, u32 rem_addr)
{
	return ipv4_is_loopback(htonl(rem_addr)) || loc_addr == rem_addr;
}

static bool irdma_ipv6_is_lpb(const u32 *loc_addr, const u32 *rem_addr)
{
	struct in6_addr a;

	irdma_copy_ip_htonl(a.in6_u.u6_addr32, rem_addr);
	return ipv6_addr_loopback(&a) || !memcmp(loc_addr, rem_addr, 16);
}

/* Both ends of @ci are this host. */
static bool irdma_cm_is_lpb(const struct irdma_cm_info *ci)
{
	return ci->ipv4 ? irdma_ipv4_is_lpb(ci->loc_addr[0], ci->rem_addr[0]) :
			  irdma_ipv6_is_lpb(ci->loc_addr, ci->rem_addr);
}

static bool irdma_addr_is_any(const u32 *addr, bool ipv4)
{
	return ipv4 ? !addr[0] : !(addr[0] | addr[1] | addr[2] | addr[3]);
}

static bool irdma_addr_eq(const u32 *a, const u32 *b, bool ipv4)
{
	return ipv4 ? a[0] == b[0] : !memcmp(a, b, 16);
}

/* Convert the mapped addresses of an iw_cm id into host order info. */
static int irdma_cm_id_addrs(struct iw_cm_id *cm_id, struct irdma_cm_info *ci,
			     bool want_remote)
{
	struct sockaddr_in *l4 = (struct sockaddr_in *)&cm_id->m_local_addr;
	struct sockaddr_in *r4 = (struct sockaddr_in *)&cm_id->m_remote_addr;
	struct sockaddr_in6 *l6 = (struct sockaddr_in6 *)&cm_id->m_local_addr;
	struct sockaddr_in6 *r6 = (struct sockaddr_in6 *)&cm_id->m_remote_addr;

	memset(ci, 0, sizeof(*ci));
	ci->vlan_id = IRDMA_CM_NO_VLAN;
	if (l4->sin_family == AF_INET) {
		if (want_remote && r4->sin_family != AF_INET)
			return -EAFNOSUPPORT;
		ci->ipv4 = true;
		ci->loc_addr[0] = ntohl(l4->sin_addr.s_addr);
		ci->loc_port = ntohs(l4->sin_port);
		ci->rem_addr[0] = ntohl(r4->sin_addr.s_addr);
		ci->rem_port = ntohs(r4->sin_port);
	} else if (l6->sin6_family == AF_INET6) {
		if (want_remote && r6->sin6_family != AF_INET6)
			return -EAFNOSUPPORT;
		irdma_copy_ip_ntohl(ci->loc_addr, l6->sin6_addr.in6_u.u6_addr32);
		ci->loc_port = ntohs(l6->sin6_port);
		irdma_copy_ip_ntohl(ci->rem_addr, r6->sin6_addr.in6_u.u6_addr32);
		ci->rem_port = ntohs(r6->sin6_port);
		/* the link of a link-local address, from either end */
		ci->scope_id = l6->sin6_scope_id;
		if (!ci->scope_id && want_remote)
			ci->scope_id = r6->sin6_scope_id;
	} else {
		return -EAFNOSUPPORT;
	}
	if (!ci->loc_port || (want_remote && !ci->rem_port))
		return -EINVAL;
	return 0;
}

/**
 * irdma_cm_net - the network namespace of a CM core
 * @core: CM core
 *
 * The CM finds its addresses, routes, neighbours and netdevs in the
 * namespace of the function's netdev, which need not be init_net: the
 * netdev may have been moved (ip link set ... netns). A core without a
 * netdev (KUnit's fake wire) uses init_net. The answer changes when the
 * netdev moves, so use it only inside the rcu_read_lock() section it was
 * taken in: a move waits for RCU readers before it completes, and a
 * namespace is freed only after its devices left it.
 *
 * Context: rcu_read_lock() held.
 * Return: the namespace, valid until rcu_read_unlock().
 */
struct net *irdma_cm_net(const struct irdma_cm_core *core)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "irdma: no RCU read lock");
	return core->netdev ? dev_net(core->netdev) : &init_net;
}

/**
 * irdma_cm_dev_is_ours - may the CM use the addresses of a netdev
 * @core: CM core
 * @dev: a netdev, of any namespace
 *
 * The function's own netdev and the VLANs on top of it, as long as they
 * are in the same namespace as the netdev: a VLAN moved elsewhere has
 * addresses the CM cannot route from.
 *
 * Context: rcu_read_lock() held.
 * Return: true if @dev's addresses are the CM's.
 */
bool irdma_cm_dev_is_ours(const struct irdma_cm_core *core,
			  const struct net_device *dev)
{
	if (!core->netdev)
		return false;
	if (dev == core->netdev)
		return true;
	return is_vlan_dev(dev) && vlan_dev_real_dev(dev) == core->netdev &&
	       net_eq(dev_net(dev), irdma_cm_net(core));
}

/**
 * irdma_cm_local_dev - the netdev holding a connection's local address
 * @core: CM core
 * @ci: the connection; for an IPv6 link-local address, its scope names the
 *	netdev (a netdev and its VLANs share their link-local addresses)
 *
 * Looks in the CM's namespace (irdma_cm_net()).
 *
 * Context: rcu_read_lock() held.
 * Return: the netdev, valid until rcu_read_unlock(), or NULL.
 */
struct net_device *irdma_cm_local_dev(struct irdma_cm_core *core,
				      const struct irdma_cm_info *ci)
{
	struct net *net = irdma_cm_net(core);
	struct net_device *ndev;
	struct in6_addr a;

	if (ci->ipv4)
		return __ip_dev_find(net, htonl(ci->loc_addr[0]), false);
	if (!IS_ENABLED(CONFIG_IPV6))
		return NULL;
	irdma_copy_ip_htonl(a.in6_u.u6_addr32, ci->loc_addr);
	if (ci->scope_id) {
		ndev = dev_get_by_index_rcu(net, ci->scope_id);
		return ndev && ipv6_chk_addr(net, &a, ndev, 1) ? ndev : NULL;
	}
	for_each_netdev_rcu(net, ndev)
		if (ipv6_chk_addr(net, &a, ndev, 1))
			return ndev;
	return NULL;
}

/*
 * Traffic with no VLAN of its own goes out with VLAN 0, a priority tag
 * carrying the priority of @tos, when the port sorts frames into classes
 * by priority (irdma_cm_hw_ops.prio_tag); @prio, when given, gets it. The
 * listeners' SYN filters and the nodes take the same VLAN, so a peer's
 * priority-tagged SYN finds its listener.
 */
static u16 irdma_cm_tag_vlan(struct irdma_cm_core *core, u16 vlan, u8 tos,
			     u8 *prio)
{
	int p;

	if (vlan != IRDMA_CM_NO_VLAN || !core->ops->prio_tag)
		return vlan;
	p = core->ops->prio_tag(core, tos);
	if (p < 0)
		return vlan;
	if (prio)
		*prio = p;
	return 0;
}

/* The VLAN of the netdev holding the local address of @ci. */
static u16 irdma_cm_addr_vlan(struct irdma_cm_core *core,
			      const struct irdma_cm_info *ci)
{
	struct net_device *ndev;
	u16 vlan = IRDMA_CM_NO_VLAN;

	if (core->ops->get_vlan)
		return core->ops->get_vlan(core, ci);
	rcu_read_lock();
	ndev = irdma_cm_local_dev(core, ci);
	if (ndev && is_vlan_dev(ndev))
		vlan = vlan_dev_vlan_id(ndev);
	rcu_read_unlock();
	return vlan;
}

/*
 * The MAC of the next hop behind @dst. A neighbour not yet resolved is
 * kicked and -EAGAIN returned; the caller retries.
 */
static int irdma_cm_neigh_mac(struct dst_entry *dst, const void *daddr,
			      u8 *mac)
{
	struct neighbour *n = dst_neigh_lookup(dst, daddr);
	int err = 0;

	if (!n)
		return -ENODATA;
	if (!(n->nud_state & NUD_VALID)) {
		neigh_event_send(n, NULL);
		err = -EAGAIN;
	} else {
		neigh_ha_snapshot(mac, n, n->dev);
	}
	neigh_release(n);
	return err;
}

/**
 * irdma_addr_resolve_neigh - next hop MAC of an IPv4 destination
 * @core: CM core
 * @src: source address, host order
 * @dst: destination address, host order
 * @mac: filled with the neighbour's MAC
 *
 * Helper for the arp_resolve op of the hardware layer. An unresolved
 * neighbour is kicked and -EAGAIN returned.
 *
 * Return: 0 or a negative errno.
 */
int irdma_addr_resolve_neigh(struct irdma_cm_core *core, u32 src, u32 dst,
			     u8 *mac)
{
	__be32 dst_be = htonl(dst);
	struct rtable *rt;
	int err;

	rcu_read_lock();
	rt = ip_route_output(irdma_cm_net(core), dst_be, htonl(src), 0, 0);
	if (IS_ERR(rt)) {
		err = PTR_ERR(rt);
	} else {
		err = irdma_cm_neigh_mac(&rt->dst, &dst_be, mac);
		ip_rt_put(rt);
	}
	rcu_read_unlock();
	return err;
}

/*
 * A link-local destination is reached on the link its scope names: the
 * one the caller gave, else the function's netdev (a core without one
 * cannot tell).
 */
static struct dst_entry *irdma_get_dst_ipv6(struct irdma_cm_core *core,
					    const struct in6_addr *src,
					    const struct in6_addr *dst,
					    u32 scope_id)
{
	struct flowi6 fl6 = {};

	if (!IS_ENABLED(CONFIG_IPV6) || !ipv6_stub->ipv6_dst_lookup_flow)
		return ERR_PTR(-EAFNOSUPPORT);
	fl6.daddr = *dst;
	fl6.saddr = *src;
	if (ipv6_addr_type(dst) & IPV6_ADDR_LINKLOCAL) {
		if (!scope_id && core->netdev)
			scope_id = core->netdev->ifindex;
		if (!scope_id)
			return ERR_PTR(-EINVAL);
		fl6.flowi6_oif = scope_id;
	}
	return ipv6_stub->ipv6_dst_lookup_flow(irdma_cm_net(core), NULL, &fl6,
					       NULL);
}

/**
 * irdma_addr_resolve_neigh_ipv6 - next hop MAC of an IPv6 destination
 * @core: CM core
 * @src: source address, host order words
 * @dst: destination address, host order words
 * @scope_id: for a link-local @dst, the interface index of its link (0:
 *	the function's netdev)
 * @mac: filled with the neighbour's MAC
 *
 * Return: 0, -EAGAIN while resolution runs, or a negative errno.
 */
int irdma_addr_resolve_neigh_ipv6(struct irdma_cm_core *core, const u32 *src,
				  const u32 *dst, u32 scope_id, u8 *mac)
{
	struct in6_addr s, d;
	struct dst_entry *dst_e;
	int err;

	irdma_copy_ip_htonl(s.in6_u.u6_addr32, src);
	irdma_copy_ip_htonl(d.in6_u.u6_addr32, dst);
	rcu_read_lock();
	dst_e = irdma_get_dst_ipv6(core, &s, &d, scope_id);
	if (IS_ERR(dst_e)) {
		err = PTR_ERR(dst_e);
	} else {
		err = irdma_cm_neigh_mac(dst_e, &d, mac);
		dst_release(dst_e);
	}
	rcu_read_unlock();
	return err;
}

/* ---------------------------------------------------------------------- */
/* Frame building                                                         */

/**
 * irdma_free_sqbuf - free a CM frame buffer
 * @buf: buffer from a frame builder, may be NULL
 */
void irdma_free_sqbuf(u8 *buf)
{
	kfree(buf);
}

static u8 irdma_cm_put_tcp_opts(struct irdma_cm_node *node, u8 *opt)
{
	put_unaligned_be32(TCPOPT_MSS << 24 | TCPOLEN_MSS << 16 |
			   node->tcp.adv_mss, opt);
	if (!node->tcp.ws_ok)
		return TCPOLEN_MSS;
	put_unaligned_be32(TCPOPT_NOP << 24 | TCPOPT_WINDOW << 16 |
			   TCPOLEN_WINDOW << 8 | node->tcp.rcv_wscale, opt + 4);
	return TCPOLEN_MSS + 4;
}

static void irdma_cm_tcp_csum(struct irdma_cm_node *node, struct tcphdr *th,
			      u32 l4len)
{
	struct in6_addr s, d;
	__wsum sum;

	th->check = 0;
	sum = csum_partial(th, l4len, 0);
	if (node->ci.ipv4) {
		th->check = csum_tcpudp_magic(htonl(node->ci.loc_addr[0]),
					      htonl(node->ci.rem_addr[0]),
					      l4len, IPPROTO_TCP, sum);
		return;
	}
	irdma_copy_ip_htonl(s.in6_u.u6_addr32, node->ci.loc_addr);
	irdma_copy_ip_htonl(d.in6_u.u6_addr32, node->ci.rem_addr);
	th->check = csum_ipv6_magic(&s, &d, l4len, IPPROTO_TCP, sum);
}

/* Write the TCP header, options and payload; return the L4 length. */
static u32 irdma_cm_put_tcp(struct irdma_cm_node *node, u8 *p, u8 flags,
			    const u8 *pay, u32 paylen)
{
	struct tcphdr *th = (struct tcphdr *)p;
	u8 optlen = 0;
	u32 wnd;

	memset(th, 0, sizeof(*th));
	if (flags & TCPHDR_SYN)
		optlen = irdma_cm_put_tcp_opts(node, p + sizeof(*th));
	th->source = htons(node->ci.loc_port);
	th->dest = htons(node->ci.rem_port);
	th->seq = htonl(node->tcp.snd_nxt);
	if (flags & TCPHDR_ACK)
		th->ack_seq = htonl(node->tcp.rcv_nxt);
	th->doff = (sizeof(*th) + optlen) / 4;
	tcp_flag_byte(th) = flags;
	wnd = node->tcp.rcv_wnd;
	if (!(flags & TCPHDR_SYN))
		wnd >>= node->tcp.rcv_wscale;
	th->window = htons(min_t(u32, wnd, U16_MAX));
	if (paylen)
		memcpy(p + sizeof(*th) + optlen, pay, paylen);
	irdma_cm_tcp_csum(node, th, sizeof(*th) + optlen + paylen);
	return sizeof(*th) + optlen + paylen;
}

static void irdma_cm_advance_snd(struct irdma_cm_node *node, u8 flags,
				 u32 paylen)
{
	node->tcp.snd_nxt += paylen + !!(flags & TCPHDR_SYN) +
			     !!(flags & TCPHDR_FIN);
}

/* Ethernet, optional 802.1Q and IP headers in front of an L4 segment. */
static u32 irdma_cm_put_l2l3(struct irdma_cm_node *node, u8 *p, u32 l4len)
{
	struct irdma_cm_core *core = node->core;
	struct ethhdr *eth = (struct ethhdr *)p;
	__be16 proto = htons(node->ci.ipv4 ? ETH_P_IP : ETH_P_IPV6);
	u32 off = ETH_HLEN;

	ether_addr_copy(eth->h_dest, node->rem_mac);
	ether_addr_copy(eth->h_source, core->cfg.mac);
	eth->h_proto = proto;
	if (node->ci.vlan_id != IRDMA_CM_NO_VLAN) {
		struct vlan_hdr *vh = (struct vlan_hdr *)(p + ETH_HLEN);

		eth->h_proto = htons(ETH_P_8021Q);
		vh->h_vlan_TCI = htons((node->ci.vlan_id & VLAN_VID_MASK) |
				       node->ci.user_pri << VLAN_PRIO_SHIFT);
		vh->h_vlan_encapsulated_proto = proto;
		off += VLAN_HLEN;
	}
	if (node->ci.ipv4) {
		struct iphdr *iph = (struct iphdr *)(p + off);

		memset(iph, 0, sizeof(*iph));
		iph->version = 4;
		iph->ihl = 5;
		iph->tos = node->ci.tos;
		iph->tot_len = htons(sizeof(*iph) + l4len);
		iph->frag_off = htons(IP_DF);
		iph->ttl = 64;
		iph->protocol = IPPROTO_TCP;
		iph->saddr = htonl(node->ci.loc_addr[0]);
		iph->daddr = htonl(node->ci.rem_addr[0]);
		iph->check = ip_fast_csum(iph, iph->ihl);
		return off + sizeof(*iph);
	}
	{
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(p + off);

		memset(ip6, 0, sizeof(*ip6));
		ip6_flow_hdr(ip6, node->ci.tos, 0);
		ip6->payload_len = htons(l4len);
		ip6->nexthdr = IPPROTO_TCP;
		ip6->hop_limit = 64;
		irdma_copy_ip_htonl(ip6->saddr.in6_u.u6_addr32,
				    node->ci.loc_addr);
		irdma_copy_ip_htonl(ip6->daddr.in6_u.u6_addr32,
				    node->ci.rem_addr);
	}
	return off + sizeof(struct ipv6hdr);
}

static u32 irdma_cm_l2l3_len(struct irdma_cm_node *node)
{
	return ETH_HLEN + (node->ci.vlan_id != IRDMA_CM_NO_VLAN ? VLAN_HLEN : 0) +
	       (node->ci.ipv4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr));
}

/*
 * Gen2 frame: the TCP segment only; the hardware prepends L2/L3 from the
 * node's address handle. Advances snd_nxt.
 */
static u8 *irdma_form_ah_cm_frame(struct irdma_cm_node *node, u8 flags,
				  const u8 *pay, u32 paylen, u32 *len)
{
	u32 size = sizeof(struct tcphdr) + IRDMA_CM_TCP_OPT_MAX + paylen;
	u8 *buf;

	buf = kzalloc(size, GFP_ATOMIC);
	if (!buf)
		return NULL;
	*len = irdma_cm_put_tcp(node, buf, flags, pay, paylen);
	irdma_cm_advance_snd(node, flags, paylen);
	return buf;
}

/* Gen1 frame: a complete Ethernet frame for the UDA ILQ. */
static u8 *irdma_form_uda_cm_frame(struct irdma_cm_node *node, u8 flags,
				   const u8 *pay, u32 paylen, u32 *len)
{
	u32 hlen = irdma_cm_l2l3_len(node);
	u32 l4len;
	u8 *buf;

	buf = kzalloc(hlen + sizeof(struct tcphdr) + IRDMA_CM_TCP_OPT_MAX +
		      paylen, GFP_ATOMIC);
	if (!buf)
		return NULL;
	l4len = irdma_cm_put_tcp(node, buf + hlen, flags, pay, paylen);
	irdma_cm_put_l2l3(node, buf, l4len);
	*len = hlen + l4len;
	irdma_cm_advance_snd(node, flags, paylen);
	return buf;
}

static u8 *irdma_cm_form_frame(struct irdma_cm_node *node, u8 flags,
			       const u8 *pay, u32 paylen, u32 *len)
{
	if (node->core->cfg.gen1)
		return irdma_form_uda_cm_frame(node, flags, pay, paylen, len);
	return irdma_form_ah_cm_frame(node, flags, pay, paylen, len);
}

static void irdma_cm_xmit(struct irdma_cm_node *node, const u8 *buf, u32 len,
			  u8 flags)
{
	struct irdma_cm_core *core = node->core;
	int err;

	trace_irdma_cm_frame_tx(node, flags, node->tcp.snd_nxt,
				node->tcp.rcv_nxt, len);
	cm_stat(core, FRAMES_TX);
	if (flags & TCPHDR_RST)
		cm_stat(core, RST_TX);
	err = core->ops->xmit(core, node, buf, len);
	if (unlikely(err)) {
		/*
		 * Treated as a segment lost on the wire: one on the
		 * retransmit queue goes again when its timer fires, a bare
		 * ACK or RST is answered again by the peer's next segment.
		 */
		cm_stat(core, TX_ERR);
		cm_dbg(core, "a %u byte segment (flags %#x) was not sent: %d\n",
		       len, flags, err);
	}
}

/* The largest segment without payload: gen1's headers, TCP's options */
#define IRDMA_CM_BARE_MAX	(ETH_HLEN + VLAN_HLEN + sizeof(struct ipv6hdr) + \
				 sizeof(struct tcphdr) + IRDMA_CM_TCP_OPT_MAX)

/*
 * Send a segment without payload that is not retransmitted: an ACK, or
 * the RST that tells the peer of an error. It is built on the stack, so
 * that a RST goes out also when memory is short (an accept that failed
 * for want of it, say), and the peer does not wait for its timers.
 */
static int irdma_cm_send_once(struct irdma_cm_node *node, u8 flags)
{
	u8 buf[IRDMA_CM_BARE_MAX] = {};
	u32 hlen = node->core->cfg.gen1 ? irdma_cm_l2l3_len(node) : 0;
	u32 l4len;

	lockdep_assert_held(&node->lock);
	l4len = irdma_cm_put_tcp(node, buf + hlen, flags, NULL, 0);
	if (hlen)
		irdma_cm_put_l2l3(node, buf, l4len);
	irdma_cm_advance_snd(node, flags, 0);
	irdma_cm_xmit(node, buf, hlen + l4len, flags);
	return 0;
}

static int irdma_cm_create_ah(struct irdma_cm_node *node);

/*
 * Our RST for the node's connection. In SYN_SENT nothing of the peer's is
 * known yet: no ACK (RFC 9293 3.10.7.3), our sequence number being the one
 * the peer expects if it got our SYN. A node that has no AH yet (a SYN
 * refused before its resources were made) makes one now: the engine sends
 * nothing without it.
 */
static int irdma_send_reset(struct irdma_cm_node *node)
{
	u8 flags = TCPHDR_RST;

	if (node->state != IRDMA_CM_STATE_SYN_SENT)
		flags |= TCPHDR_ACK;
	if (!node->ah)
		irdma_cm_create_ah(node);
	return irdma_cm_send_once(node, flags);
}

/*
 * The RST that answers an unacceptable segment (RFC 9293 3.10.7.1): our
 * sequence number is its ACK number when it has one; otherwise it is 0
 * and the RST acknowledges everything the segment occupied.
 */
static int irdma_cm_reply_rst(struct irdma_cm_node *node,
			      const struct irdma_cm_seg *seg)
{
	struct irdma_cm_tcp tcp = node->tcp;
	u8 flags = TCPHDR_RST;
	int err;

	lockdep_assert_held(&node->lock);
	if (seg->flags & TCPHDR_ACK) {
		node->tcp.snd_nxt = seg->ack;
	} else {
		flags |= TCPHDR_ACK;
		node->tcp.snd_nxt = 0;
		node->tcp.rcv_nxt = seg->seq + seg->datalen +
				    !!(seg->flags & TCPHDR_SYN) +
				    !!(seg->flags & TCPHDR_FIN);
	}
	if (!node->ah)
		irdma_cm_create_ah(node);
	err = irdma_cm_send_once(node, flags);
	node->tcp = tcp;
	return err;
}

static int irdma_send_ack(struct irdma_cm_node *node)
{
	return irdma_cm_send_once(node, TCPHDR_ACK);
}

/* ---------------------------------------------------------------------- */
/* Timers                                                                 */

static void irdma_cm_rearm(struct irdma_cm_core *core)
{
	struct irdma_cm_node *node;
	unsigned long due = 0;
	bool any = false;
	int t;

	lockdep_assert_held(&core->timer_lock);
	list_for_each_entry(node, &core->timer_nodes, timer_link) {
		for (t = 0; t < IRDMA_CM_TMR_COUNT; t++) {
			if (!(node->tmr_armed & BIT(t)) ||
			    (any && !time_before(node->tmr_due[t], due)))
				continue;
			due = node->tmr_due[t];
			any = true;
		}
	}
	if (any && (!core->timer_armed || core->timer_due != due))
		core->clk->arm(core, due);
	core->timer_armed = any;
	core->timer_due = due;
}

/* Keep node->timer_link in step with its entries; the list holds a ref. */
static void irdma_cm_timer_sync(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	bool pending, listed;

	lockdep_assert_held(&node->lock);
	lockdep_assert_held(&core->timer_lock);
	pending = node->tmr_armed;
	listed = !list_empty(&node->timer_link);
	if (pending && !listed) {
		refcount_inc(&node->refcnt);
		list_add_tail(&node->timer_link, &core->timer_nodes);
	} else if (!pending && listed) {
		list_del_init(&node->timer_link);
		irdma_cm_defer_put(node);
	}
	irdma_cm_rearm(core);
}

/* Arm entry @t to expire @ms from now (core->timer_lock held). */
static void irdma_cm_tmr_set(struct irdma_cm_node *node, enum irdma_cm_tmr t,
			     u32 ms)
{
	lockdep_assert_held(&node->core->timer_lock);
	node->tmr_due[t] = irdma_cm_now(node->core) + msecs_to_jiffies(ms);
	node->tmr_armed |= BIT(t);
}

/* Arm or disarm entry @t of a node (node->lock held). */
static void irdma_cm_tmr(struct irdma_cm_node *node, enum irdma_cm_tmr t,
			 bool arm, u32 ms)
{
	struct irdma_cm_core *core = node->core;

	lockdep_assert_held(&node->lock);
	spin_lock(&core->timer_lock);
	if (arm)
		irdma_cm_tmr_set(node, t, ms);
	else
		node->tmr_armed &= ~BIT(t);
	irdma_cm_timer_sync(node);
	spin_unlock(&core->timer_lock);
}

/* The entries of a node that are due at @now (core->timer_lock held). */
static unsigned long irdma_cm_tmr_due(struct irdma_cm_node *node,
				      unsigned long now)
{
	unsigned long due = 0;
	int t;

	lockdep_assert_held(&node->core->timer_lock);
	for (t = 0; t < IRDMA_CM_TMR_COUNT; t++)
		if ((node->tmr_armed & BIT(t)) &&
		    !time_before(now, node->tmr_due[t]))
			due |= BIT(t);
	return due;
}

static void irdma_free_retrans_entry(struct irdma_cm_node *node)
{
	lockdep_assert_held(&node->core->timer_lock);
	irdma_free_sqbuf(node->rtx.buf);
	node->rtx.buf = NULL;
	node->rtx.len = 0;
	node->tmr_armed &= ~BIT(IRDMA_CM_TMR_RTX);
}

static void irdma_cleanup_retrans_entry(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	spin_lock(&core->timer_lock);
	irdma_free_retrans_entry(node);
	irdma_cm_timer_sync(node);
	spin_unlock(&core->timer_lock);
}

/*
 * The MPA timer of a node still negotiating (irdma_cm_state_mpa()): an
 * initiator waits for the reply from its request on, a responder for the
 * request once its TCP is up. Armed and disarmed as the node enters and
 * leaves those states.
 */
static void irdma_cm_mpa_timer(struct irdma_cm_node *node, bool arm)
{
	struct irdma_cm_config *cfg = &node->core->cfg;

	irdma_cm_tmr(node, IRDMA_CM_TMR_MPA, arm,
		     node->active ? cfg->mpa_reply_wait_ms :
				    cfg->mpa_req_wait_ms);
}

/*
 * Arm a timer entry. With @buf the frame is transmitted now and kept for
 * retransmission (replacing any older one); without it the node gets its
 * TIME_WAIT entry.
 */
static int irdma_schedule_cm_timer(struct irdma_cm_node *node, u8 *buf,
				   u32 len, u8 flags)
{
	struct irdma_cm_core *core = node->core;

	lockdep_assert_held(&node->lock);
	if (buf)
		irdma_cm_xmit(node, buf, len, flags);
	spin_lock(&core->timer_lock);
	if (buf) {
		irdma_free_retrans_entry(node);
		node->rtx.buf = buf;
		node->rtx.len = len;
		node->rtx.end_seq = node->tcp.snd_nxt;
		node->rtx.count = 0;
		node->rtx.timeout_ms = IRDMA_CM_RETRANS_FIRST_MS;
		irdma_cm_tmr_set(node, IRDMA_CM_TMR_RTX,
				 IRDMA_CM_RETRANS_FIRST_MS);
	} else {
		irdma_cm_tmr_set(node, IRDMA_CM_TMR_TIME_WAIT,
				 IRDMA_CM_TIME_WAIT_MS);
	}
	irdma_cm_timer_sync(node);
	spin_unlock(&core->timer_lock);
	return 0;
}

/* Build a segment and send it with retransmission. */
static int irdma_cm_send_rtx(struct irdma_cm_node *node, u8 flags,
			     const u8 *pay, u32 paylen)
{
	u32 len;
	u8 *buf;

	buf = irdma_cm_form_frame(node, flags, pay, paylen, &len);
	if (!buf)
		return -ENOMEM;
	return irdma_schedule_cm_timer(node, buf, len, flags);
}

static int irdma_send_syn(struct irdma_cm_node *node, bool synack)
{
	u8 flags = TCPHDR_SYN | (synack ? TCPHDR_ACK : 0);

	return irdma_cm_send_rtx(node, flags, NULL, 0);
}

static int irdma_send_fin(struct irdma_cm_node *node)
{
	return irdma_cm_send_rtx(node, TCPHDR_FIN | TCPHDR_ACK, NULL, 0);
}

/* ---------------------------------------------------------------------- */
/* MPA                                                                    */

static u32 irdma_cm_ulp_pdata_max(struct irdma_cm_node *node)
{
	return IRDMA_MPA_MAX_PDATA - (node->mpa_rev == 2 ? IRDMA_MPA_V2_RTR_LEN : 0);
}

static void irdma_mpa_put_key(u8 *hdr, enum irdma_mpa_kind kind)
{
	memcpy(hdr, kind == IRDMA_MPA_KIND_REQ ? irdma_mpa_key_req :
	       irdma_mpa_key_rep, IRDMA_MPA_KEY_LEN);
}

/* RFC 5044 header; returns its length. */
static u32 irdma_build_mpa_v1(struct irdma_cm_node *node, u8 *hdr,
			      enum irdma_mpa_kind kind, u16 ulp_len)
{
	u8 flags = 0;

	irdma_mpa_put_key(hdr, kind);
	if (kind == IRDMA_MPA_KIND_REJ)
		flags |= IRDMA_MPA_FLAG_REJECT;
	else if (node->mpa_crc)
		flags |= IRDMA_MPA_FLAG_CRC;
	hdr[16] = flags;
	hdr[17] = 1;
	put_unaligned_be16(ulp_len, hdr + 18);
	return IRDMA_MPA_HDR_LEN;
}

static u16 irdma_mpa_rtr_bit(enum irdma_cm_rdma0 op)
{
	switch (op) {
	case IRDMA_CM_RDMA0_WRITE:
		return IRDMA_MPA_ORD_WRITE0;
	case IRDMA_CM_RDMA0_READ:
		return IRDMA_MPA_ORD_READ0;
	default:
		return 0;
	}
}

/* RFC 6581 header plus the IRD/ORD block; returns its length. */
static u32 irdma_build_mpa_v2(struct irdma_cm_node *node, u8 *hdr,
			      enum irdma_mpa_kind kind, u16 ulp_len)
{
	u16 ird = min_t(u32, node->ird, IRDMA_MPA_IRD_ORD_VAL);
	u16 ord = min_t(u32, node->ord, IRDMA_MPA_IRD_ORD_VAL);
	u8 flags = IRDMA_MPA_FLAG_ENHANCED;

	irdma_mpa_put_key(hdr, kind);
	if (kind == IRDMA_MPA_KIND_REJ)
		flags |= IRDMA_MPA_FLAG_REJECT;
	else if (node->mpa_crc)
		flags |= IRDMA_MPA_FLAG_CRC;
	/*
	 * A reject is a reply with R set (RFC 6581): to a peer-to-peer
	 * request it answers A and the RTR it chose as an accept would;
	 * without an RTR to choose it answers as no peer-to-peer responder.
	 */
	if (node->p2p && kind == IRDMA_MPA_KIND_REQ) {
		ird |= IRDMA_MPA_IRD_P2P;
		ord |= node->rtr_offer;
	} else if (node->p2p && (kind == IRDMA_MPA_KIND_REP ||
				 node->rdma0 != IRDMA_CM_RDMA0_NONE)) {
		ird |= IRDMA_MPA_IRD_P2P;
		ord |= irdma_mpa_rtr_bit(node->rdma0);
	}
	hdr[16] = flags;
	hdr[17] = 2;
	put_unaligned_be16(ulp_len + IRDMA_MPA_V2_RTR_LEN, hdr + 18);
	put_unaligned_be16(ird, hdr + 20);
	put_unaligned_be16(ord, hdr + 22);
	return IRDMA_MPA_HDR_LEN + IRDMA_MPA_V2_RTR_LEN;
}

/*
 * Build a complete MPA request, reply or reject with ULP private data into
 * a new buffer. Returns the buffer (kfree) and its length in @len.
 */
static u8 *irdma_cm_build_mpa_frame(struct irdma_cm_node *node,
				    enum irdma_mpa_kind kind,
				    const void *pdata, u16 pdata_len, u32 *len)
{
	u32 hlen;
	u8 *buf;

	buf = kzalloc(IRDMA_MPA_HDR_LEN + IRDMA_MPA_V2_RTR_LEN + pdata_len,
		      GFP_ATOMIC);
	if (!buf)
		return NULL;
	if (node->mpa_rev == 2)
		hlen = irdma_build_mpa_v2(node, buf, kind, pdata_len);
	else
		hlen = irdma_build_mpa_v1(node, buf, kind, pdata_len);
	if (pdata_len)
		memcpy(buf + hlen, pdata, pdata_len);
	*len = hlen + pdata_len;
	return buf;
}

static int irdma_send_mpa_request(struct irdma_cm_node *node)
{
	u32 len;
	u8 *mpa;
	int err;

	mpa = irdma_cm_build_mpa_frame(node, IRDMA_MPA_KIND_REQ, node->pdata,
				       node->pdata_len, &len);
	if (!mpa)
		return -ENOMEM;
	err = irdma_cm_send_rtx(node, TCPHDR_ACK | TCPHDR_PSH, mpa, len);
	kfree(mpa);
	return err;
}

/* MPA reject and our FIN in one segment; the node moves to FIN_WAIT1. */
static int irdma_send_mpa_reject(struct irdma_cm_node *node,
				 const void *pdata, u8 pdata_len)
{
	u32 len;
	u8 *mpa;
	int err;

	mpa = irdma_cm_build_mpa_frame(node, IRDMA_MPA_KIND_REJ, pdata,
				       pdata_len, &len);
	if (!mpa)
		return -ENOMEM;
	err = irdma_cm_send_rtx(node, TCPHDR_ACK | TCPHDR_PSH | TCPHDR_FIN,
				mpa, len);
	kfree(mpa);
	if (!err)
		irdma_cm_set_state(node, IRDMA_CM_STATE_FIN_WAIT1);
	return err;
}

/*
 * Bytes needed for the MPA frame starting at @buf, or a negative errno
 * when the header already shows it is unacceptable.
 */
static int irdma_mpa_frame_need(const u8 *buf, u32 len)
{
	u16 pd_len;

	if (len < IRDMA_MPA_HDR_LEN)
		return IRDMA_MPA_HDR_LEN;
	pd_len = get_unaligned_be16(buf + 18);
	if (pd_len > IRDMA_MPA_MAX_PDATA)
		return -EMSGSIZE;
	return IRDMA_MPA_HDR_LEN + pd_len;
}

/*
 * Check the syntax of one complete MPA frame. A passive node expects a
 * request, an active node a reply or reject.
 */
static int irdma_parse_mpa(struct irdma_cm_node *node, const u8 *buf, u32 len,
			   struct irdma_mpa_parsed *mp)
{
	const char *key = node->active ? irdma_mpa_key_rep : irdma_mpa_key_req;
	int need = irdma_mpa_frame_need(buf, len);

	if (need < 0)
		return need;
	if (len < IRDMA_MPA_HDR_LEN || len != need)
		return -EBADMSG;
	if (memcmp(buf, key, IRDMA_MPA_KEY_LEN))
		return -EBADMSG;
	memset(mp, 0, sizeof(*mp));
	mp->flags = buf[16];
	mp->rev = buf[17];
	if (mp->rev < 1 || mp->rev > 2 || mp->rev > node->core->cfg.mpa_rev)
		return -EPROTONOSUPPORT;
	if (node->active && mp->rev > node->mpa_rev)
		return -EPROTONOSUPPORT;
	mp->ulp_off = IRDMA_MPA_HDR_LEN;
	mp->ulp_len = len - IRDMA_MPA_HDR_LEN;
	if (mp->rev == 2 && (mp->flags & IRDMA_MPA_FLAG_ENHANCED)) {
		if (mp->ulp_len < IRDMA_MPA_V2_RTR_LEN)
			return -EPROTO;
		mp->v2 = true;
		mp->ird_word = get_unaligned_be16(buf + 20);
		mp->ord_word = get_unaligned_be16(buf + 22);
		mp->ulp_off += IRDMA_MPA_V2_RTR_LEN;
		mp->ulp_len -= IRDMA_MPA_V2_RTR_LEN;
	}
	if (mp->flags & IRDMA_MPA_FLAG_MARKERS)
		return -EOPNOTSUPP;
	return 0;
}

/* An IRD or ORD word's value; IRDMA_MPA_NO_IRD_ORD for "no value". */
static u32 irdma_mpa_ird_ord_val(u16 word)
{
	return word & IRDMA_MPA_IRD_ORD_VAL;
}

/* What the peer's IRD or ORD @v means to a ULP: "no value" is our @max. */
static u8 irdma_mpa_ird_ord_report(u32 v, u32 max)
{
	return min_t(u32, v == IRDMA_MPA_NO_IRD_ORD ? max : v, U8_MAX);
}

/* Clamp IRD/ORD to the device and to what the RTR needs. */
static void irdma_record_ird_ord(struct irdma_cm_node *node, u32 ird, u32 ord)
{
	struct irdma_cm_config *cfg = &node->core->cfg;

	node->ird = min(ird, cfg->max_ird);
	node->ord = min(ord, cfg->max_ord);
	if (node->p2p && node->active && (node->rtr_offer & IRDMA_MPA_ORD_READ0))
		node->ord = max_t(u32, node->ord, 1);
}

static enum irdma_cm_rdma0 irdma_mpa_pick_rtr(struct irdma_cm_node *node,
					      u16 offer)
{
	bool w = offer & IRDMA_MPA_ORD_WRITE0, r = offer & IRDMA_MPA_ORD_READ0;

	if (w && r)
		return node->core->cfg.rtr_pref == IRDMA_CM_RDMA0_READ ?
		       IRDMA_CM_RDMA0_READ : IRDMA_CM_RDMA0_WRITE;
	if (w)
		return IRDMA_CM_RDMA0_WRITE;
	if (r)
		return IRDMA_CM_RDMA0_READ;
	return IRDMA_CM_RDMA0_NONE;
}

/*
 * Relaxed RFC 6581 negotiation. Responder (at accept): clamp our ORD to the
 * initiator's IRD, raise our IRD towards its ORD as far as the device goes;
 * the reply carries that IRD and the initiator lowers its ORD to it, so an
 * ORD above what we can take is not a reason to refuse (librdmacm offers the
 * device's maximum ORD, 255 here, which is above our own maximum IRD).
 * Initiator (on the reply): raise our IRD to the responder's ORD or fail,
 * since the responder will not lower its ORD after its reply; lower our ORD
 * to its IRD, and use the RTR op the reply selected. A peer's IRD or ORD of
 * "no value" asks nothing: ours stays as the ULP set it.
 */
static int irdma_negotiate_mpa_v2_ird_ord(struct irdma_cm_node *node)
{
	u32 max_ird = node->core->cfg.max_ird;
	bool peer_ird = node->peer_ird != IRDMA_MPA_NO_IRD_ORD;
	bool peer_ord = node->peer_ord != IRDMA_MPA_NO_IRD_ORD;

	if (!node->p2p)
		return 0;
	if (!node->active) {
		if (peer_ird)
			node->ord = min(node->ord, node->peer_ird);
		if (peer_ord && node->ird < node->peer_ord)
			node->ird = min(node->peer_ord, max_ird);
		if (node->rdma0 == IRDMA_CM_RDMA0_READ && !node->ird)
			node->ird = 1;
		return 0;
	}
	if (peer_ord && node->peer_ord > node->ird) {
		if (node->peer_ord > max_ird)
			return -ENOMEM;
		node->ird = node->peer_ord;
	}
	if (peer_ird)
		node->ord = min(node->ord, node->peer_ird);
	if (node->rdma0 == IRDMA_CM_RDMA0_READ && !node->ord)
		node->ord = 1;
	return 0;
}

/* Record what a parsed request (passive) or reply (active) announces. */
static int irdma_mpa_apply(struct irdma_cm_node *node,
			   const struct irdma_mpa_parsed *mp)
{
	struct irdma_cm_config *cfg = &node->core->cfg;
	u16 offer;

	node->mpa_crc = (mp->flags & IRDMA_MPA_FLAG_CRC) || node->mpa_crc;
	node->rx_pdata_off = mp->ulp_off;
	node->rx_pdata_len = mp->ulp_len;
	if (!node->active)
		node->mpa_rev = mp->rev;
	if (!mp->v2) {
		node->p2p = false;
		node->rdma0 = IRDMA_CM_RDMA0_NONE;
		node->peer_ird = IRDMA_MPA_NO_IRD_ORD;
		node->peer_ord = IRDMA_MPA_NO_IRD_ORD;
		if (!node->active)
			node->mpa_rev = 1;
		return 0;
	}
	node->peer_ird = irdma_mpa_ird_ord_val(mp->ird_word);
	node->peer_ord = irdma_mpa_ird_ord_val(mp->ord_word);
	offer = mp->ord_word & (IRDMA_MPA_ORD_WRITE0 | IRDMA_MPA_ORD_READ0);
	if (!node->active) {
		node->p2p = cfg->p2p && (mp->ird_word & IRDMA_MPA_IRD_P2P);
		node->rtr_offer = offer;
		node->rdma0 = node->p2p ? irdma_mpa_pick_rtr(node, offer) :
			      IRDMA_CM_RDMA0_NONE;
		if (node->p2p && node->rdma0 == IRDMA_CM_RDMA0_NONE)
			return -EPROTO;
		return 0;
	}
	/* a reject is reported as one, whatever its RTR bits say */
	if (mp->flags & IRDMA_MPA_FLAG_REJECT)
		return 0;
	if (!(mp->ird_word & IRDMA_MPA_IRD_P2P) || !node->p2p) {
		node->p2p = false;
		node->rdma0 = IRDMA_CM_RDMA0_NONE;
		return 0;
	}
	if (hweight16(offer) != 1 || !(offer & node->rtr_offer))
		return -EPROTO;
	node->rdma0 = irdma_mpa_pick_rtr(node, offer);
	return irdma_negotiate_mpa_v2_ird_ord(node);
}

/* ---------------------------------------------------------------------- */
/* Ports, filters, address handles                                        */

/**
 * struct irdma_cm_apbvt - use count of one local port
 * @hnode: in core->apbvt_ht
 * @port: local port
 * @users: listeners and nodes using it
 * @tag: names the last add posted for it (irdma_cm_port_refused())
 * @refused: the engine refused that add: the port is not open there, and
 *	no delete is posted for it; the next user asks again
 */
struct irdma_cm_apbvt {
	struct hlist_node hnode;
	u16 port;
	u32 users;
	u32 tag;
	bool refused;
};

/* A tag that no add in flight carries (0 is none) */
static u32 irdma_cm_new_tag(struct irdma_cm_core *core)
{
	u32 tag;

	do {
		tag = (u32)atomic_inc_return(&core->tags);
	} while (!tag);
	return tag;
}

static int irdma_cm_apbvt_get(struct irdma_cm_core *core, u16 port)
{
	struct irdma_cm_apbvt *e;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&core->apbvt_lock, flags);
	hash_for_each_possible(core->apbvt_ht, e, hnode, port) {
		if (e->port != port)
			continue;
		if (e->refused) {
			/* the engine refused the last add: ask again */
			e->tag = irdma_cm_new_tag(core);
			err = core->ops->apbvt(core, port, true, e->tag);
			if (err)
				goto out_unlock;
			e->refused = false;
		}
		e->users++;
		goto out_unlock;
	}
	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	if (!e) {
		err = -ENOMEM;
		goto out_unlock;
	}
	e->tag = irdma_cm_new_tag(core);
	err = core->ops->apbvt(core, port, true, e->tag);
	if (err) {
		kfree(e);
		goto out_unlock;
	}
	e->port = port;
	e->users = 1;
	hash_add(core->apbvt_ht, &e->hnode, port);
out_unlock:
	spin_unlock_irqrestore(&core->apbvt_lock, flags);
	return err;
}

static void irdma_cm_apbvt_put(struct irdma_cm_core *core, u16 port)
{
	struct irdma_cm_apbvt *e;
	unsigned long flags;

	spin_lock_irqsave(&core->apbvt_lock, flags);
	hash_for_each_possible(core->apbvt_ht, e, hnode, port) {
		if (e->port != port)
			continue;
		if (!--e->users) {
			hash_del(&e->hnode);
			/* a port the engine never opened is not closed */
			if (!e->refused)
				core->ops->apbvt(core, port, false, 0);
			kfree(e);
		}
		break;
	}
	spin_unlock_irqrestore(&core->apbvt_lock, flags);
}

/* Did the engine refuse to open @port, used by the caller? */
static bool irdma_cm_port_lost(struct irdma_cm_core *core, u16 port)
{
	struct irdma_cm_apbvt *e;
	unsigned long flags;
	bool lost = false;

	spin_lock_irqsave(&core->apbvt_lock, flags);
	hash_for_each_possible(core->apbvt_ht, e, hnode, port)
		if (e->port == port)
			lost = e->refused;
	spin_unlock_irqrestore(&core->apbvt_lock, flags);
	return lost;
}

/* The node's AH, made once: its own segments and any RST need it. */
static int irdma_cm_create_ah(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	if (node->ah || !core->ops->ah_create)
		return 0;
	return core->ops->ah_create(core, node);
}

static void irdma_cm_free_ah(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	if (node->ah && core->ops->ah_free)
		core->ops->ah_free(core, node);
	node->ah = NULL;
}

/* APBVT, 4-tuple qhash and AH of a new connection. */
static int irdma_cm_conn_resources(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_info ci;
	int err;

	err = irdma_cm_apbvt_get(core, node->ci.loc_port);
	if (err)
		return err;
	node->apbvt_set = true;
	irdma_get_addr_info(node, &ci);
	err = core->ops->qhash(core, &ci, false, true, NULL);
	if (err)
		return err;
	node->qhash_set = true;
	return irdma_cm_create_ah(node);
}

/* ---------------------------------------------------------------------- */
/* Nodes                                                                  */

static u32 irdma_cm_hkey(const struct irdma_cm_info *ci)
{
	return (u32)ci->loc_port << 16 | ci->rem_port;
}

/* The same addresses and ports. */
static bool irdma_cm_info_match_addrs(const struct irdma_cm_info *a,
				      const struct irdma_cm_info *b)
{
	return a->loc_port == b->loc_port && a->rem_port == b->rem_port &&
	       a->ipv4 == b->ipv4 &&
	       irdma_addr_eq(a->loc_addr, b->loc_addr, a->ipv4) &&
	       irdma_addr_eq(a->rem_addr, b->rem_addr, a->ipv4);
}

/* The same connection: addresses, ports and VLAN. */
static bool irdma_cm_info_match(const struct irdma_cm_info *a,
				const struct irdma_cm_info *b)
{
	return a->vlan_id == b->vlan_id && irdma_cm_info_match_addrs(a, b);
}

/* RCU lookup of a connection; returns it with a reference, or NULL. */
static struct irdma_cm_node *irdma_find_node(struct irdma_cm_core *core,
					     const struct irdma_cm_info *ci)
{
	struct irdma_cm_node *node, *found = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(core->conn_ht, node, hnode,
				   irdma_cm_hkey(ci)) {
		if (irdma_cm_info_match(&node->ci, ci) &&
		    irdma_cm_node_get(node)) {
			found = node;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * The device is leaving (irdma_cm_quiesce()). Read under @ht_lock, which
 * orders it against the quiesce's collect of the connects in progress.
 */
static bool irdma_cm_quiesced(struct irdma_cm_core *core)
{
	unsigned long flags;
	bool quiesced;

	spin_lock_irqsave(&core->ht_lock, flags);
	quiesced = core->quiesced;
	spin_unlock_irqrestore(&core->ht_lock, flags);
	return quiesced;
}

static int irdma_add_hte_node(struct irdma_cm_core *core,
			      struct irdma_cm_node *node)
{
	struct irdma_cm_node *other;
	unsigned long flags;

	spin_lock_irqsave(&core->ht_lock, flags);
	if (core->quiesced) {
		spin_unlock_irqrestore(&core->ht_lock, flags);
		return -ENETDOWN;
	}
	hash_for_each_possible(core->conn_ht, other, hnode,
			       irdma_cm_hkey(&node->ci)) {
		if (irdma_cm_info_match(&other->ci, &node->ci)) {
			spin_unlock_irqrestore(&core->ht_lock, flags);
			return -EADDRINUSE;
		}
	}
	hash_add_rcu(core->conn_ht, &node->hnode, irdma_cm_hkey(&node->ci));
	spin_unlock_irqrestore(&core->ht_lock, flags);
	return 0;
}

static void irdma_cm_unhash(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	unsigned long flags;

	spin_lock_irqsave(&core->ht_lock, flags);
	if (!hlist_unhashed(&node->hnode))
		hash_del_rcu(&node->hnode);
	spin_unlock_irqrestore(&core->ht_lock, flags);
}

/*
 * Delete the node's 4-tuple filter, if it still has one, before the node
 * leaves the connection table (node->lock held, or the last reference).
 * The engine keys the filter by the 4-tuple, not by the node: a new node
 * of the same 4-tuple (the peer trying again from the same port, say) can
 * only be hashed once this one is gone, and posts its add after that, so
 * the engine carries out this delete first. A delete left to the node's
 * last put would come after that add whenever something still held the
 * node: the engine would refuse the add as a duplicate (a refusal nobody
 * hears of) and this delete would then remove the new node's filter.
 */
static void irdma_cm_del_qhash(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_info ci;

	if (!node->qhash_set)
		return;
	node->qhash_set = false;
	irdma_get_addr_info(node, &ci);
	core->ops->qhash(core, &ci, false, false, NULL);
}

static u32 irdma_cm_isn(const struct irdma_cm_info *ci)
{
	__be32 l[4], r[4];

	irdma_copy_ip_htonl(l, ci->loc_addr);
	irdma_copy_ip_htonl(r, ci->rem_addr);
	if (ci->ipv4)
		return secure_tcp_seq(l[0], r[0], htons(ci->loc_port),
				      htons(ci->rem_port));
#if IS_ENABLED(CONFIG_IPV6)
	return secure_tcpv6_seq(l, r, htons(ci->loc_port), htons(ci->rem_port));
#else
	return get_random_u32();
#endif
}

/*
 * The netdev a connection of @ci goes through: the VLAN device of its
 * VLAN, or the function's netdev (for VLAN 0, a priority tag, too). Under
 * RCU, on a core with a netdev.
 */
static struct net_device *irdma_cm_link_dev(struct irdma_cm_core *core,
					    const struct irdma_cm_info *ci)
{
	struct net_device *dev = NULL;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "irdma: no RCU read lock");
	if (ci->vlan_id && ci->vlan_id < VLAN_N_VID)
		dev = __vlan_find_dev_deep_rcu(core->netdev, htons(ETH_P_8021Q),
					       ci->vlan_id);
	return dev ?: core->netdev;
}

/*
 * The MTU of the link a connection uses now: its VLAN device's, or the
 * function's netdev's. It follows "ip link set ... mtu" for every new
 * connection; a core without a netdev (KUnit) has its configured one.
 */
static u32 irdma_cm_link_mtu(struct irdma_cm_core *core,
			     const struct irdma_cm_info *ci)
{
	u32 mtu = core->cfg.mtu;

	if (!core->netdev)
		return mtu;
	rcu_read_lock();
	mtu = READ_ONCE(irdma_cm_link_dev(core, ci)->mtu);
	rcu_read_unlock();
	return mtu;
}

/*
 * The link of an IPv6 link-local connection a peer opened: the scope its
 * addresses get in the events, and its route. Set already for a connect.
 */
static void irdma_cm_set_scope(struct irdma_cm_core *core,
			       struct irdma_cm_info *ci)
{
	struct in6_addr a;

	if (ci->ipv4 || ci->scope_id || !core->netdev)
		return;
	irdma_copy_ip_htonl(a.in6_u.u6_addr32, ci->loc_addr);
	if (!(ipv6_addr_type(&a) & IPV6_ADDR_LINKLOCAL))
		return;
	rcu_read_lock();
	ci->scope_id = irdma_cm_link_dev(core, ci)->ifindex;
	rcu_read_unlock();
}

static void irdma_cm_node_init_tcp(struct irdma_cm_node *node)
{
	struct irdma_cm_config *cfg = &node->core->cfg;
	u32 min_mss = node->ci.ipv4 ? IRDMA_CM_MIN_MSS_V4 : IRDMA_CM_MIN_MSS_V6;
	u32 hdrs = node->ci.ipv4 ? 40 : 60;
	u32 mtu = irdma_cm_link_mtu(node->core, &node->ci);

	node->tcp.rcv_wnd = cfg->rcv_wnd;
	node->tcp.rcv_wscale = cfg->rcv_wscale;
	node->tcp.ws_ok = true;
	node->tcp.adv_mss = max(mtu > hdrs ? mtu - hdrs : 0, min_mss);
	node->tcp.mss = node->tcp.adv_mss;
	node->tcp.snd_nxt = irdma_cm_isn(&node->ci);
	node->tcp.snd_una = node->tcp.snd_nxt;
}

static void irdma_cm_event_handler(struct work_struct *work);
static void irdma_disconnect_worker(struct work_struct *work);

static struct irdma_cm_node *irdma_cm_node_alloc(struct irdma_cm_core *core,
						 const struct irdma_cm_info *ci)
{
	struct irdma_cm_node *node;
	int i;

	node = kzalloc(sizeof(*node), GFP_ATOMIC);
	if (!node)
		return NULL;
	refcount_set(&node->refcnt, 1);
	spin_lock_init(&node->lock);
	INIT_LIST_HEAD(&node->timer_link);
	INIT_HLIST_NODE(&node->hnode);
	INIT_WORK(&node->disc_work, irdma_disconnect_worker);
	for (i = 0; i < IRDMA_CM_EV_COUNT; i++) {
		INIT_WORK(&node->events[i].work, irdma_cm_event_handler);
		node->events[i].node = node;
		node->events[i].kind = i;
	}
	node->core = core;
	node->ci = *ci;
	/* names this node's 4-tuple filter add (irdma_cm_conn_refused()) */
	node->ci.tag = irdma_cm_new_tag(core);
	node->arp_idx = -1;
	node->mpa_rev = core->cfg.mpa_rev;
	node->mpa_crc = core->cfg.crc;
	node->p2p = core->cfg.p2p && node->mpa_rev == 2;
	node->rtr_offer = core->cfg.rtr_offer;
	node->ird = core->cfg.max_ird;
	node->ord = core->cfg.max_ord;
	return node;
}

/* Give back the node's hold on its next hop's ARP cache entry. */
static void irdma_cm_arp_put(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	if (node->arp_idx >= 0 && core->ops->arp_put)
		core->ops->arp_put(core, node->arp_idx);
	node->arp_idx = -1;
}

/*
 * Allocate, address and hash a node (atomic). @mac is the peer MAC when the
 * frame that created the node carried it.
 */
static struct irdma_cm_node *
irdma_make_cm_node(struct irdma_cm_core *core, const struct irdma_cm_info *ci,
		   struct irdma_cm_listener *listener, const u8 *mac)
{
	struct irdma_cm_node *node;
	int err;

	node = irdma_cm_node_alloc(core, ci);
	if (!node)
		return ERR_PTR(-ENOMEM);
	irdma_cm_set_scope(core, &node->ci);
	irdma_cm_node_init_tcp(node);
	node->loopback = irdma_cm_is_lpb(ci);
	if (mac)
		ether_addr_copy(node->rem_mac, mac);
	err = core->ops->arp_resolve(core, ci, node->rem_mac, !!mac);
	if (err < 0)
		goto err_free;
	node->arp_idx = err;
	node->listener = listener;
	err = irdma_add_hte_node(core, node);
	if (err)
		goto err_put_arp;
	atomic_inc(&core->node_cnt);
	cm_stat(core, NODES_CREATED);
	return node;

err_put_arp:
	irdma_cm_arp_put(node);
err_free:
	kfree(node);
	return ERR_PTR(err);
}

static void irdma_cm_listener_put(struct irdma_cm_listener *listener);

/* Undo everything a node still holds; the node is unreachable. */
static void irdma_cm_destroy_node(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	WARN_ON_ONCE(!list_empty(&node->timer_link) || node->rtx.buf);
	if (node->apbvt_set)
		irdma_cm_apbvt_put(core, node->ci.loc_port);
	irdma_cm_free_ah(node);
	irdma_cm_arp_put(node);
	if (node->qp) {
		if (core->ops->qp_link)
			core->ops->qp_link(core, node->qp, node, NULL);
		core->ops->qp_put(core, node->qp);
	}
	if (node->cm_id)
		node->cm_id->rem_ref(node->cm_id);
	if (node->listener) {
		if (node->pending_counted)
			atomic_dec(&node->listener->pending);
		irdma_cm_listener_put(node->listener);
	}
	irdma_free_lsmm_rsrc(node);
	kfree(node->pdata);
	kfree(node->mpa_rx);
	atomic_dec(&core->node_cnt);
	cm_stat(core, NODES_FREED);
}

/**
 * irdma_rem_ref_cm_node - drop a reference to a connection node
 * @node: node, may be NULL
 *
 * The last reference releases what the node holds and frees it after an RCU
 * grace period. Safe in atomic context.
 */
void irdma_rem_ref_cm_node(struct irdma_cm_node *node)
{
	if (!node || !refcount_dec_and_test(&node->refcnt))
		return;
	irdma_cm_del_qhash(node);
	irdma_cm_unhash(node);
	irdma_cm_destroy_node(node);
	kfree_rcu(node, rcu);
}

/* The software TCP is finished: unhash and drop the TCP reference. */
static void irdma_cm_free_tcp(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	lockdep_assert_held(&node->lock);
	if (node->tcp_ref_dropped)
		return;
	spin_lock(&core->timer_lock);
	irdma_free_retrans_entry(node);
	node->tmr_armed &= ~(BIT(IRDMA_CM_TMR_TIME_WAIT) |
			     BIT(IRDMA_CM_TMR_MPA));
	irdma_cm_timer_sync(node);
	spin_unlock(&core->timer_lock);
	node->tcp_ref_dropped = true;
	irdma_cm_set_state(node, IRDMA_CM_STATE_CLOSED);
	irdma_cm_del_qhash(node);
	irdma_cm_unhash(node);
	irdma_cm_defer_put(node);
}

/* Stop counting a passive request against the listener's backlog. */
static void irdma_cm_uncount_pending(struct irdma_cm_node *node)
{
	if (node->pending_counted && node->listener) {
		atomic_dec(&node->listener->pending);
		node->pending_counted = false;
	}
}

/* ---------------------------------------------------------------------- */
/* Events                                                                 */

static void irdma_cm_post_event(struct irdma_cm_event *ev)
{
	struct irdma_cm_node *node = ev->node;

	refcount_inc(&node->refcnt);
	atomic_inc(&node->core->event_cnt);
	queue_work(node->core->event_wq, &ev->work);
}

/* Post an event once per kind; a node holds a slot for each kind. */
static void irdma_create_event(struct irdma_cm_node *node,
			       enum irdma_cm_ev_kind kind, int status)
{
	struct irdma_cm_event *ev = &node->events[kind];

	lockdep_assert_held(&node->lock);
	if (ev->used) {
		cm_stat(node->core, EVENTS_LOST);
		return;
	}
	ev->used = true;
	ev->status = status;
	irdma_cm_post_event(ev);
}

static void irdma_get_cmevent_info(struct irdma_cm_node *node,
				   struct iw_cm_event *ev)
{
	struct irdma_cm_info *ci = &node->ci;

	if (ci->ipv4) {
		irdma_fill_sockaddr4(ci->loc_addr, ci->loc_port, &ev->local_addr);
		irdma_fill_sockaddr4(ci->rem_addr, ci->rem_port,
				     &ev->remote_addr);
	} else {
		irdma_fill_sockaddr6(ci->loc_addr, ci->loc_port, ci->scope_id,
				     &ev->local_addr);
		irdma_fill_sockaddr6(ci->rem_addr, ci->rem_port, ci->scope_id,
				     &ev->remote_addr);
	}
}

static void irdma_cm_event_pdata(struct irdma_cm_node *node,
				 struct iw_cm_event *ev)
{
	u16 len = node->rx_pdata_len;

	if (!len || !node->mpa_rx)
		return;
	if (len > IRDMA_MPA_ULP_PDATA_MAX) {
		cm_stat(node->core, PDATA_TRUNCATED);
		len = IRDMA_MPA_ULP_PDATA_MAX;
	}
	ev->private_data = node->mpa_rx + node->rx_pdata_off;
	ev->private_data_len = len;
}

/**
 * irdma_send_cm_event - deliver one event to iw_cm
 * @cm_node: connection
 * @cm_id: iw_cm id to deliver to
 * @type: event type
 * @status: event status
 *
 * Called from the event workqueue without CM locks held. ird/ord follow
 * rdma_cm's reading: for CONNECT_REQUEST the peer's IRD/ORD, for
 * CONNECT_REPLY and ESTABLISHED our ORD in .ird and our IRD in .ord.
 *
 * Return: the iw_cm handler's return value.
 */
int irdma_send_cm_event(struct irdma_cm_node *cm_node, struct iw_cm_id *cm_id,
			enum iw_cm_event_type type, int status)
{
	struct irdma_cm_core *core = cm_node->core;
	struct iw_cm_event ev = {};
	int ret;

	ev.event = type;
	ev.status = status;
	irdma_get_cmevent_info(cm_node, &ev);
	switch (type) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		/* a number, not the node: iw_cm may keep it past the node */
		ev.provider_data = (void *)(uintptr_t)cm_node->req_id;
		ev.ird = irdma_mpa_ird_ord_report(cm_node->peer_ird,
						  core->cfg.max_ird);
		ev.ord = irdma_mpa_ird_ord_report(cm_node->peer_ord,
						  core->cfg.max_ord);
		irdma_cm_event_pdata(cm_node, &ev);
		break;
	case IW_CM_EVENT_CONNECT_REPLY:
		irdma_cm_event_pdata(cm_node, &ev);
		fallthrough;
	case IW_CM_EVENT_ESTABLISHED:
		ev.ird = min_t(u32, cm_node->ord, U8_MAX);
		ev.ord = min_t(u32, cm_node->ird, U8_MAX);
		break;
	default:
		break;
	}
	trace_irdma_cm_upcall(cm_node, cm_id, type, status);
	cm_stat(core, UPCALLS);
	ret = cm_id->event_handler(cm_id, &ev);
	if (ret)
		cm_stat(core, UPCALL_ERR);
	return ret;
}

/* Take the iw_cm id, QP and ULP reference away from a node. */
static void irdma_cm_unlink_ulp(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	struct iw_cm_id *cm_id;
	unsigned long flags;
	bool ulp_ref;
	void *qp;

	spin_lock_irqsave(&node->lock, flags);
	cm_id = node->cm_id;
	qp = node->qp;
	ulp_ref = node->ulp_ref;
	node->cm_id = NULL;
	node->qp = NULL;
	node->ulp_ref = false;
	clear_bit(IRDMA_CM_DISC_PEER_FIN, &node->disc_causes);
	spin_unlock_irqrestore(&node->lock, flags);
	if (qp) {
		if (core->ops->qp_link)
			core->ops->qp_link(core, qp, node, NULL);
		core->ops->qp_put(core, qp);
	}
	if (cm_id) {
		cm_id->provider_data = NULL;
		cm_id->rem_ref(cm_id);
	}
	if (ulp_ref)
		irdma_rem_ref_cm_node(node);
}

/* Link the ULP; -EBUSY, nothing linked, if another node owns the QP */
static int irdma_cm_link_ulp(struct irdma_cm_node *node,
			     struct iw_cm_id *cm_id, void *qp)
{
	struct irdma_cm_core *core = node->core;

	lockdep_assert_held(&node->lock);
	if (core->ops->qp_link && core->ops->qp_link(core, qp, NULL, node))
		return -EBUSY;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = node;
	node->cm_id = cm_id;
	node->qp = qp;
	return 0;
}

/* CONNECT_REPLY with an error, then forget the ULP. */
static void irdma_event_connect_error(struct irdma_cm_node *node, int status)
{
	struct iw_cm_id *cm_id;
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	cm_id = node->cm_id;
	node->disc_causes = 0;
	spin_unlock_irqrestore(&node->lock, flags);
	if (!cm_id)
		return;
	cm_stat(node->core, CONNECT_ERR);
	irdma_send_cm_event(node, cm_id, IW_CM_EVENT_CONNECT_REPLY, status);
	irdma_cm_unlink_ulp(node);
}

/*
 * The initiator's first FPDU. A responder's LSMM carries WAITFORRCVPDU: its
 * SQ holds until that FPDU arrives. With RTR negotiated (RFC 6581) it is the
 * RTR; without (MPA v1, as after a fallback, or a v2 reply without P2P) the
 * initiator still opens with a zero-length RDMA READ, which any responder
 * answers and which the 6.1 driver sends too, so a responder whose ULP
 * speaks first is not left waiting for an initiator that waits for it. A v2
 * responder that announced IRD 0 cannot take a READ: a NOP then.
 */
static enum irdma_cm_rdma0 irdma_cm_first_fpdu(const struct irdma_cm_node *node)
{
	if (node->p2p)
		return node->rdma0;
	if (!node->active || !node->peer_ird)
		return IRDMA_CM_RDMA0_NONE;
	return IRDMA_CM_RDMA0_READ;
}

static void irdma_init_tcp_ctx(struct irdma_cm_node *node,
			       struct irdma_cm_tcp_ctx *ctx)
{
	enum irdma_cm_rdma0 rdma0 = irdma_cm_first_fpdu(node);

	/* a fresh connection starts with two segments in flight */
	*ctx = (struct irdma_cm_tcp_ctx){
		.tcp = node->tcp,
		.cwnd = 2 * node->tcp.mss,
		.ttl = 64,
		.rexmit_thresh = 8,
		.arp_idx = node->arp_idx,
		.ord = rdma0 == IRDMA_CM_RDMA0_READ ? max(node->ord, 1U) :
		       node->ord,
		.ird = node->ird,
		.rdma0 = rdma0,
		.p2p = node->p2p,
		.crc = node->mpa_crc,
		.active = node->active,
	};
	irdma_get_addr_info(node, &ctx->ci);
	ether_addr_copy(ctx->loc_mac, node->core->cfg.mac);
	ether_addr_copy(ctx->rem_mac, node->rem_mac);
}

/*
 * Snapshot the context the QP needs and mark the node offloaded: from now on
 * the QP owns the TCP connection and ILQ segments for it are dropped.
 */
static void irdma_cm_init_tsa_conn(struct irdma_cm_node *node,
				   struct irdma_cm_tcp_ctx *ctx)
{
	lockdep_assert_held(&node->lock);
	irdma_init_tcp_ctx(node, ctx);
	spin_lock(&node->core->timer_lock);
	irdma_free_retrans_entry(node);
	irdma_cm_timer_sync(node);
	spin_unlock(&node->core->timer_lock);
	irdma_cm_set_state(node, IRDMA_CM_STATE_OFFLOADED);
}

/*
 * Program and start the QP of an offloaded node (process context). Once the
 * QP is in RTS the engine owns the 4-tuple and has dropped its qhash
 * filter (Documentation/hw-interface.rst): the node must not delete it.
 */
static int irdma_cm_start_qp(struct irdma_cm_node *node, void *qp,
			     const struct irdma_cm_tcp_ctx *ctx)
{
	struct irdma_cm_core *core = node->core;
	unsigned long flags;
	int err;

	err = core->ops->qp_set_ctx(core, qp, ctx);
	if (err)
		return err;
	if (!ctx->active && node->lsmm_buf) {
		err = core->ops->qp_post_lsmm(core, qp, node->lsmm_buf,
					      node->lsmm_len);
		if (err)
			return err;
	}
	/* an initiator without a first FPDU still fills the quantum */
	if (ctx->active) {
		err = core->ops->qp_post_rtr(core, qp, ctx->rdma0);
		if (err)
			return err;
	}
	err = core->ops->qp_to_rts(core, qp);
	if (err)
		return err;
	spin_lock_irqsave(&node->lock, flags);
	node->qhash_set = false;
	spin_unlock_irqrestore(&node->lock, flags);
	return 0;
}

/*
 * The MPA exchange is over once the ULP is connected: what it buffered
 * goes, so that an idle connection holds no more than it needs. The upcalls
 * that read @mpa_rx run on the ordered core->event_wq, as this does.
 */
static void irdma_cm_mark_connected(struct irdma_cm_node *node)
{
	unsigned long flags;
	u8 *pdata, *mpa_rx;
	bool requeue;

	spin_lock_irqsave(&node->lock, flags);
	node->ulp_connected = true;
	requeue = node->disc_causes && node->cm_id;
	pdata = node->pdata;
	mpa_rx = node->mpa_rx;
	node->pdata = NULL;
	node->pdata_len = 0;
	node->mpa_rx = NULL;
	node->mpa_rx_len = 0;
	node->rx_pdata_len = 0;
	spin_unlock_irqrestore(&node->lock, flags);
	kfree(pdata);
	kfree(mpa_rx);
	if (requeue && irdma_cm_node_get(node) &&
	    !queue_work(node->core->event_wq, &node->disc_work))
		irdma_rem_ref_cm_node(node);
}

/* Abort an offloaded node whose QP was not started: the peer gets a RST. */
static void irdma_cm_abort_offloaded(struct irdma_cm_node *node)
{
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	if (!node->tcp_ref_dropped)
		irdma_send_reset(node);
	irdma_cm_free_tcp(node);
	irdma_cm_node_unlock(node, flags);
}

/* Active side: the reply was accepted; start the QP and tell iw_cm. */
static void irdma_cm_event_connected(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_tcp_ctx ctx;
	struct iw_cm_id *cm_id;
	unsigned long flags;
	void *qp;
	int err;

	spin_lock_irqsave(&node->lock, flags);
	cm_id = node->cm_id;
	qp = node->qp;
	if (!cm_id || !qp) {
		/* answered already */
		spin_unlock_irqrestore(&node->lock, flags);
		return;
	}
	if (node->state != IRDMA_CM_STATE_OFFLOADED || node->disc_causes) {
		/*
		 * Torn down between the reply and now (its address went
		 * away, its QP is being destroyed): the connect failed, and
		 * iw_cm still waits for its one CONNECT_REPLY.
		 */
		spin_unlock_irqrestore(&node->lock, flags);
		irdma_cm_abort_offloaded(node);
		irdma_event_connect_error(node, -ECONNRESET);
		return;
	}
	irdma_init_tcp_ctx(node, &ctx);
	spin_unlock_irqrestore(&node->lock, flags);
	err = irdma_cm_start_qp(node, qp, &ctx);
	if (err) {
		cm_dbg(core, "QP start failed %d\n", err);
		core->ops->qp_to_err(core, qp);
		irdma_cm_abort_offloaded(node);
		irdma_event_connect_error(node, -ECONNRESET);
		return;
	}
	irdma_cm_free_ah(node);
	cm_stat(core, CONNECTS);
	irdma_send_cm_event(node, cm_id, IW_CM_EVENT_CONNECT_REPLY, 0);
	irdma_cm_mark_connected(node);
}

/* Passive side: ESTABLISHED after a successful accept. */
static void irdma_cm_event_established(struct irdma_cm_node *node)
{
	struct iw_cm_id *cm_id;
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	cm_id = node->cm_id;
	spin_unlock_irqrestore(&node->lock, flags);
	if (!cm_id)
		return;
	irdma_send_cm_event(node, cm_id, IW_CM_EVENT_ESTABLISHED, 0);
	irdma_cm_mark_connected(node);
}

/*
 * Abort a passive request that iw_cm did not take or failed to accept:
 * reset it and give up the ULP reference.
 */
static void irdma_cm_abort_request(struct irdma_cm_node *node)
{
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	if (!node->tcp_ref_dropped)
		irdma_send_reset(node);
	irdma_cm_uncount_pending(node);
	irdma_cm_free_tcp(node);
	irdma_cm_node_unlock(node, flags);
	irdma_cm_unlink_ulp(node);
}

/*
 * Number a request about to go to iw_cm (core->requests), under
 * listen_lock: a listener being destroyed either goes PASSIVE first, and
 * the request is not handed up, or finds the number and reclaims it.
 * Return: the listener's iw_cm id, or NULL when the request stays here.
 */
static struct iw_cm_id *irdma_cm_number_request(struct irdma_cm_node *node)
{
	struct irdma_cm_listener *listener = node->listener;
	struct irdma_cm_core *core = node->core;
	struct iw_cm_id *cm_id = NULL;
	unsigned long flags;
	u32 id;

	spin_lock_irqsave(&core->listen_lock, flags);
	if (listener && listener->state == IRDMA_CM_LISTENER_ACTIVE) {
		xa_lock(&core->requests);
		if (__xa_alloc_cyclic(&core->requests, &id, node,
				      XA_LIMIT(1, INT_MAX), &core->next_req,
				      GFP_ATOMIC) >= 0) {
			node->req_id = id;
			cm_id = listener->cm_id;
		}
		xa_unlock(&core->requests);
	}
	spin_unlock_irqrestore(&core->listen_lock, flags);
	return cm_id;
}

/* Take a request back from iw_cm; false if someone else took it. */
static bool irdma_cm_unnumber_request(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	unsigned long flags;
	bool taken = false;

	xa_lock_irqsave(&core->requests, flags);
	if (node->req_id && xa_load(&core->requests, node->req_id) == node) {
		__xa_erase(&core->requests, node->req_id);
		taken = true;
	}
	xa_unlock_irqrestore(&core->requests, flags);
	return taken;
}

/*
 * CONNECT_REQUEST to the listener; iw_cm refusing it aborts the node. A
 * request iw_cm took is the ULP's, as an accept(2)ed socket is: it leaves
 * the backlog, which bounds the handshakes not yet handed up (rdma_ucm
 * bounds the requests its user has not read). A ULP that never answers
 * one would otherwise hold the slot until it destroys the id, and once
 * the backlog is full every later SYN is dropped.
 */
static void irdma_cm_event_request(struct irdma_cm_node *node)
{
	struct iw_cm_id *cm_id;
	unsigned long flags;
	bool deliver;

	spin_lock_irqsave(&node->lock, flags);
	deliver = node->state == IRDMA_CM_STATE_MPAREQ_RCVD;
	if (deliver) {
		refcount_inc(&node->refcnt);
		node->ulp_ref = true;
	}
	spin_unlock_irqrestore(&node->lock, flags);
	cm_id = deliver ? irdma_cm_number_request(node) : NULL;
	if (!cm_id) {
		irdma_cm_abort_request(node);
		return;
	}
	if (irdma_send_cm_event(node, cm_id, IW_CM_EVENT_CONNECT_REQUEST, 0)) {
		if (irdma_cm_unnumber_request(node))
			irdma_cm_abort_request(node);
		return;
	}
	spin_lock_irqsave(&node->lock, flags);
	irdma_cm_uncount_pending(node);
	irdma_cm_node_unlock(node, flags);
}

static void irdma_cm_event_handler(struct work_struct *work)
{
	struct irdma_cm_event *ev = container_of(work, struct irdma_cm_event,
						 work);
	struct irdma_cm_node *node = ev->node;

	switch (ev->kind) {
	case IRDMA_CM_EV_MPA_REQ:
		irdma_cm_event_request(node);
		break;
	case IRDMA_CM_EV_CONNECTED:
		irdma_cm_event_connected(node);
		break;
	case IRDMA_CM_EV_MPA_REJECT:
		irdma_event_connect_error(node, -ECONNREFUSED);
		break;
	case IRDMA_CM_EV_ABORTED:
		irdma_event_connect_error(node, ev->status);
		break;
	case IRDMA_CM_EV_ESTABLISHED:
		irdma_cm_event_established(node);
		break;
	default:
		break;
	}
	atomic_dec(&node->core->event_cnt);
	irdma_rem_ref_cm_node(node);
}

/* ---------------------------------------------------------------------- */
/* Teardown of connected nodes                                            */

/**
 * irdma_free_lsmm_rsrc - release the MPA reply buffer of a node
 * @node: connection
 */
void irdma_free_lsmm_rsrc(struct irdma_cm_node *node)
{
	kfree(node->lsmm_buf);
	node->lsmm_buf = NULL;
}

/* The close action of each state; TCP states already closing finish alone. */
static void irdma_cm_close(struct irdma_cm_node *node)
{
	lockdep_assert_held(&node->lock);
	switch (node->state) {
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_SYN_RCVD:
	case IRDMA_CM_STATE_LISTENING:
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_SENT:
	case IRDMA_CM_STATE_MPAREQ_RCVD:
		irdma_send_reset(node);
		irdma_cm_free_tcp(node);
		break;
	case IRDMA_CM_STATE_FIN_WAIT1:
	case IRDMA_CM_STATE_FIN_WAIT2:
	case IRDMA_CM_STATE_CLOSING:
	case IRDMA_CM_STATE_LAST_ACK:
	case IRDMA_CM_STATE_TIME_WAIT:
	case IRDMA_CM_STATE_MPAREJ_RCVD:
		break;
	default:
		irdma_cm_free_tcp(node);
		break;
	}
}

/* After the final CLOSE: end the software side and release the ULP. */
static void irdma_qp_disconnect(struct irdma_cm_node *node, void *qp)
{
	struct irdma_cm_core *core = node->core;
	unsigned long flags;

	if (qp)
		core->ops->qp_to_err(core, qp);
	spin_lock_irqsave(&node->lock, flags);
	irdma_cm_close(node);
	irdma_cm_node_unlock(node, flags);
	irdma_cm_unlink_ulp(node);
	cm_stat(core, DISCONNECTS);
}

/* Peer reset: DISCONNECT(-ECONNRESET) unless already sent, then CLOSE. */
static void irdma_cm_event_reset(struct irdma_cm_node *node,
				 struct iw_cm_id *cm_id, bool disc)
{
	if (disc)
		irdma_send_cm_event(node, cm_id, IW_CM_EVENT_DISCONNECT,
				    -ECONNRESET);
	irdma_send_cm_event(node, cm_id, IW_CM_EVENT_CLOSE, -ECONNRESET);
}

static int irdma_cm_close_status(unsigned long causes)
{
	if (causes & BIT(IRDMA_CM_DISC_PEER_RST))
		return -ECONNRESET;
	if (causes & (BIT(IRDMA_CM_DISC_TIMEOUT) |
		      BIT(IRDMA_CM_DISC_CLOSE_TIMEOUT)))
		return -ETIMEDOUT;
	if (causes & BIT(IRDMA_CM_DISC_LOCAL_ERR))
		return -ECONNRESET;
	return 0;
}

/*
 * A graceful close, ours (the ULP's SQD) or the peer's (its FIN), waits for
 * the engine's close completion, under the close timer. After the peer's
 * FIN the CM closes our half itself: iw_cm's DISCONNECT does not reach the
 * ULP through rdma_cm, so nobody else would. A TERMINATE closes the same
 * way (the QP's close op sends it). Return: true to close it.
 */
static bool irdma_cm_closing(struct irdma_cm_node *node, unsigned long causes)
{
	unsigned long graceful = BIT(IRDMA_CM_DISC_LOCAL_CLOSE) |
				 BIT(IRDMA_CM_DISC_PEER_FIN) |
				 BIT(IRDMA_CM_DISC_TERMINATE);
	bool ours = causes & BIT(IRDMA_CM_DISC_LOCAL_CLOSE);

	lockdep_assert_held(&node->lock);
	if (node->close_sent || !(causes & graceful))
		return false;
	/* every writer of tmr_armed holds node->lock too */
	if (!(node->tmr_armed & BIT(IRDMA_CM_TMR_CLOSE)) && !node->llp_closing)
		irdma_cm_tmr(node, IRDMA_CM_TMR_CLOSE, true,
			     IRDMA_CM_CLOSE_TIMEOUT_MS);
	if (node->llp_closing)
		return false;
	node->llp_closing = true;
	return !ours;
}

/*
 * Turn the accumulated causes into DISCONNECT and one CLOSE. Before the
 * connection was reported up the causes wait for irdma_cm_mark_connected.
 */
static void irdma_cm_disconn_true(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	bool disc = false, close = false, fin;
	unsigned long causes, flags, ends;
	struct iw_cm_id *cm_id;
	void *qp;

	ends = BIT(IRDMA_CM_DISC_CLOSED) | BIT(IRDMA_CM_DISC_PEER_RST) |
	       BIT(IRDMA_CM_DISC_LOCAL_ERR) | BIT(IRDMA_CM_DISC_TIMEOUT) |
	       BIT(IRDMA_CM_DISC_CLOSE_TIMEOUT);
	spin_lock_irqsave(&node->lock, flags);
	cm_id = node->cm_id;
	qp = node->qp;
	if (!cm_id || !node->ulp_connected) {
		/*
		 * Causes reaching a connection not yet reported up wait for
		 * irdma_cm_mark_connected(). A connect still in its handshake
		 * whose QP the ULP destroys or fails ends now, with its one
		 * CONNECT_REPLY: iw_cm's destroy waits for that.
		 */
		if (cm_id && irdma_cm_connecting(node) &&
		    test_bit(IRDMA_CM_DISC_LOCAL_ERR, &node->disc_causes))
			irdma_active_open_err(node, true, -ECONNRESET);
		irdma_cm_node_unlock(node, flags);
		return;
	}
	causes = xchg(&node->disc_causes, 0);
	if ((causes & (BIT(IRDMA_CM_DISC_PEER_FIN) |
		       BIT(IRDMA_CM_DISC_PEER_RST))) && !node->disc_sent) {
		node->disc_sent = true;
		disc = true;
	}
	if ((causes & ends) && !node->close_sent) {
		node->close_sent = true;
		close = true;
		irdma_cm_tmr(node, IRDMA_CM_TMR_CLOSE, false, 0);
	}
	fin = irdma_cm_closing(node, causes);
	irdma_cm_node_unlock(node, flags);
	if (close && (causes & BIT(IRDMA_CM_DISC_PEER_RST))) {
		irdma_cm_event_reset(node, cm_id, disc);
	} else {
		if (disc)
			irdma_send_cm_event(node, cm_id,
					    IW_CM_EVENT_DISCONNECT, 0);
		if (close)
			irdma_send_cm_event(node, cm_id, IW_CM_EVENT_CLOSE,
					    irdma_cm_close_status(causes));
	}
	if (close) {
		irdma_qp_disconnect(node, qp);
	} else if (fin && qp && core->ops->qp_close &&
		   core->ops->qp_close(core, qp)) {
		/* the QP cannot close gracefully: abort at once */
		irdma_cm_disconn(node, IRDMA_CM_DISC_LOCAL_ERR);
	}
}

static void irdma_disconnect_worker(struct work_struct *work)
{
	struct irdma_cm_node *node = container_of(work, struct irdma_cm_node,
						  disc_work);

	irdma_cm_disconn_true(node);
	irdma_rem_ref_cm_node(node);
}

/**
 * irdma_cm_disconn - report the end of an offloaded connection
 * @node: connection, linked to its QP
 * @cause: what the layer below saw
 *
 * Callable from any context while the QP is linked to @node (see the
 * qp_link op). The upcalls run on the CM workqueue.
 */
void irdma_cm_disconn(struct irdma_cm_node *node,
		      enum irdma_cm_disc_cause cause)
{
	struct irdma_cm_core *core = node->core;

	set_bit(cause, &node->disc_causes);
	if (!irdma_cm_node_get(node))
		return;
	if (!queue_work(core->event_wq, &node->disc_work))
		irdma_rem_ref_cm_node(node);
}

/* ---------------------------------------------------------------------- */
/* Receive state machine                                                  */

static void irdma_active_open_err(struct irdma_cm_node *node, bool reset,
				  int status)
{
	lockdep_assert_held(&node->lock);
	if (reset)
		irdma_send_reset(node);
	irdma_create_event(node, IRDMA_CM_EV_ABORTED, status);
	irdma_cm_free_tcp(node);
}

static void irdma_passive_open_err(struct irdma_cm_node *node, bool reset)
{
	lockdep_assert_held(&node->lock);
	if (reset)
		irdma_send_reset(node);
	irdma_cm_uncount_pending(node);
	node->peer_reset = true;
	irdma_cm_free_tcp(node);
}

static void irdma_cm_open_err(struct irdma_cm_node *node, bool reset,
			      int status)
{
	if (node->active)
		irdma_active_open_err(node, reset, status);
	else
		irdma_passive_open_err(node, reset);
}

/* Parse the options of a SYN or SYN-ACK. */
static int irdma_process_options(struct irdma_cm_node *node, const u8 *opt,
				 u32 optlen)
{
	u16 min_mss = node->ci.ipv4 ? IRDMA_CM_MIN_MSS_V4 : IRDMA_CM_MIN_MSS_V6;
	bool have_ws = false, have_mss = false;
	u32 i = 0;

	while (i < optlen) {
		u8 kind = opt[i], len;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= optlen)
			return -EINVAL;
		len = opt[i + 1];
		if (len < 2 || i + len > optlen)
			return -EINVAL;
		if (kind == TCPOPT_MSS) {
			u16 mss;

			if (len != TCPOLEN_MSS)
				return -EINVAL;
			mss = get_unaligned_be16(opt + i + 2);
			if (mss < min_mss)
				return -EINVAL;
			node->tcp.mss = min(node->tcp.adv_mss, mss);
			have_mss = true;
		} else if (kind == TCPOPT_WINDOW) {
			if (len != TCPOLEN_WINDOW ||
			    opt[i + 2] > IRDMA_CM_MAX_WSCALE)
				return -EINVAL;
			node->tcp.snd_wscale = opt[i + 2];
			have_ws = true;
		}
		i += len;
	}
	if (!have_mss)
		node->tcp.mss = min_t(u16, node->tcp.adv_mss, node->ci.ipv4 ?
				      IRDMA_CM_DEFAULT_MSS :
				      IRDMA_CM_DEFAULT_MSS_V6);
	if (!have_ws) {
		node->tcp.ws_ok = false;
		node->tcp.snd_wscale = 0;
		node->tcp.rcv_wscale = 0;
	}
	return 0;
}

/* Options and window of a SYN/SYN-ACK; bad options reset the attempt. */
static int irdma_handle_tcp_options(struct irdma_cm_node *node,
				    const struct irdma_cm_seg *seg)
{
	int err = irdma_process_options(node, seg->opts, seg->optlen);

	if (err) {
		cm_dbg(node->core, "bad TCP options\n");
		cm_stat(node->core, RX_MALFORMED);
		if (node->active) {
			irdma_active_open_err(node, true, -ECONNRESET);
		} else {
			irdma_cm_reply_rst(node, seg);
			irdma_passive_open_err(node, false);
		}
		return err;
	}
	node->tcp.snd_wnd = seg->wnd;
	return 0;
}

/* SYN-ACK must acknowledge exactly our SYN. */
static int irdma_check_syn(struct irdma_cm_node *node,
			   const struct irdma_cm_seg *seg)
{
	return seg->ack == node->tcp.snd_nxt ? 0 : -EINVAL;
}

/*
 * -ERANGE: the ACK field acknowledges something not sent (or too old);
 * -EAGAIN: the segment is not the next one in sequence.
 */
static int irdma_check_seq(struct irdma_cm_node *node,
			   const struct irdma_cm_seg *seg)
{
	struct irdma_cm_tcp *tcp = &node->tcp;
	u32 wnd = max_t(u32, tcp->rcv_wnd, 1);

	if (before(seg->ack, tcp->snd_una) || after(seg->ack, tcp->snd_nxt))
		return -ERANGE;
	if (seg->datalen || (seg->flags & TCPHDR_FIN))
		return seg->seq == tcp->rcv_nxt ? 0 : -EAGAIN;
	if (before(seg->seq, tcp->rcv_nxt) ||
	    !before(seg->seq, tcp->rcv_nxt + wnd))
		return -EAGAIN;
	return 0;
}

static void irdma_cm_ack_advance(struct irdma_cm_node *node, u32 ack)
{
	struct irdma_cm_core *core = node->core;

	if (after(ack, node->tcp.snd_una))
		node->tcp.snd_una = ack;
	spin_lock(&core->timer_lock);
	if (node->rtx.buf && !before(ack, node->rtx.end_seq)) {
		irdma_free_retrans_entry(node);
		irdma_cm_timer_sync(node);
	}
	spin_unlock(&core->timer_lock);
}

static void irdma_cm_enter_time_wait(struct irdma_cm_node *node)
{
	irdma_cm_set_state(node, IRDMA_CM_STATE_TIME_WAIT);
	irdma_schedule_cm_timer(node, NULL, 0, 0);
}

/* Peer FIN, in sequence (after any data of the same segment). */
static void irdma_handle_fin_pkt(struct irdma_cm_node *node)
{
	node->tcp.rcv_nxt++;
	switch (node->state) {
	case IRDMA_CM_STATE_SYN_RCVD:
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_RCVD:
	case IRDMA_CM_STATE_MPAREJ_RCVD:
		if (!node->active) {
			node->peer_reset = true;
			irdma_cm_uncount_pending(node);
		}
		irdma_cm_set_state(node, IRDMA_CM_STATE_LAST_ACK);
		irdma_send_fin(node);
		break;
	case IRDMA_CM_STATE_MPAREQ_SENT:
		irdma_active_open_err(node, true, -ECONNRESET);
		break;
	case IRDMA_CM_STATE_FIN_WAIT1:
		irdma_cm_set_state(node, IRDMA_CM_STATE_CLOSING);
		irdma_send_ack(node);
		break;
	case IRDMA_CM_STATE_FIN_WAIT2:
		irdma_send_ack(node);
		irdma_cm_enter_time_wait(node);
		break;
	default:
		node->tcp.rcv_nxt--;
		break;
	}
}

/* Peer RST (already validated). */
static void irdma_handle_rst_pkt(struct irdma_cm_node *node);

/*
 * The SYN of an active open to this function that none of its listeners
 * takes any more (its listener went while the SYN was on its way, or
 * before an MPA v1 retry): the host drops it unanswered
 * (irdma_cm_loopback_heard()), and a RST would have refused it.
 */
static bool irdma_cm_syn_unheard(struct irdma_cm_node *node)
{
	lockdep_assert_held(&node->lock);
	return node->active && node->loopback &&
	       node->state == IRDMA_CM_STATE_SYN_SENT &&
	       !irdma_cm_loopback_heard(node->core, &node->ci);
}

static void irdma_cm_v1_fallback(struct irdma_cm_node *node)
{
	cm_stat(node->core, V1_FALLBACK);
	irdma_cleanup_retrans_entry(node);
	node->v1_retry_done = true;
	node->mpa_rev = 1;
	node->p2p = false;
	node->rdma0 = IRDMA_CM_RDMA0_NONE;
	node->tcp.ws_ok = true;
	node->tcp.rcv_wscale = node->core->cfg.rcv_wscale;
	node->tcp.rcv_nxt = 0;
	node->tcp.snd_nxt = irdma_cm_isn(&node->ci) + 0x10000;
	node->tcp.snd_una = node->tcp.snd_nxt;
	node->mpa_rx_len = 0;
	irdma_cm_set_state(node, IRDMA_CM_STATE_SYN_SENT);
	if (irdma_cm_syn_unheard(node))
		irdma_active_open_err(node, false, -ECONNREFUSED);
	else if (irdma_send_syn(node, false))
		irdma_active_open_err(node, false, -ENOMEM);
}

static void irdma_handle_rst_pkt(struct irdma_cm_node *node)
{
	cm_stat(node->core, RST_RX);
	switch (node->state) {
	case IRDMA_CM_STATE_MPAREQ_SENT:
		if (node->mpa_rev == 2 && !node->v1_retry_done &&
		    node->core->cfg.v1_fallback) {
			irdma_cm_v1_fallback(node);
			break;
		}
		irdma_active_open_err(node, false, -ECONNRESET);
		break;
	case IRDMA_CM_STATE_SYN_SENT:
		/* nobody listens there: refused, as connect(2) would say */
		irdma_active_open_err(node, false, -ECONNREFUSED);
		break;
	case IRDMA_CM_STATE_SYN_RCVD:
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_RCVD:
	case IRDMA_CM_STATE_LISTENING:
		irdma_passive_open_err(node, false);
		break;
	default:
		irdma_cm_free_tcp(node);
		break;
	}
}

static bool irdma_cm_rst_valid(struct irdma_cm_node *node,
			       const struct irdma_cm_seg *seg)
{
	if (node->state == IRDMA_CM_STATE_SYN_SENT)
		return (seg->flags & TCPHDR_ACK) && seg->ack == node->tcp.snd_nxt;
	return seg->seq == node->tcp.rcv_nxt;
}

/* Pure SYN. A new passive node is in LISTENING. */
static void irdma_handle_syn_pkt(struct irdma_cm_node *node,
				 const struct irdma_cm_seg *seg)
{
	switch (node->state) {
	case IRDMA_CM_STATE_LISTENING:
		node->tcp.irs = seg->seq;
		node->tcp.rcv_nxt = seg->seq + 1;
		if (irdma_handle_tcp_options(node, seg))
			return;
		if (irdma_cm_conn_resources(node)) {
			irdma_passive_open_err(node, false);
			return;
		}
		irdma_cm_set_state(node, IRDMA_CM_STATE_SYN_RCVD);
		if (irdma_send_syn(node, true))
			irdma_passive_open_err(node, false);
		break;
	case IRDMA_CM_STATE_SYN_SENT:
		/* simultaneous open is refused: the peer learns from an ACK */
		irdma_cm_reply_rst(node, seg);
		irdma_active_open_err(node, false, -ECONNRESET);
		break;
	case IRDMA_CM_STATE_MPAREQ_SENT:
		irdma_active_open_err(node, true, -ECONNRESET);
		break;
	default:
		/* a retransmitted SYN: our own retransmission answers it */
		break;
	}
}

static void irdma_handle_synack_pkt(struct irdma_cm_node *node,
				    const struct irdma_cm_seg *seg)
{
	if (node->state != IRDMA_CM_STATE_SYN_SENT) {
		if (node->state == IRDMA_CM_STATE_MPAREQ_RCVD)
			irdma_passive_open_err(node, true);
		return;
	}
	if (irdma_check_syn(node, seg)) {
		/*
		 * Not an answer to our SYN (an old duplicate): reset it and
		 * wait for the right one (RFC 9293 3.10.7.3)
		 */
		cm_stat(node->core, RX_BAD_SEQ);
		irdma_cm_reply_rst(node, seg);
		return;
	}
	node->tcp.irs = seg->seq;
	node->tcp.rcv_nxt = seg->seq + 1;
	if (irdma_handle_tcp_options(node, seg))
		return;
	irdma_cm_ack_advance(node, seg->ack);
	irdma_cm_set_state(node, IRDMA_CM_STATE_MPAREQ_SENT);
	if (irdma_send_mpa_request(node))
		irdma_active_open_err(node, true, -ENOMEM);
}

/* A complete MPA request arrived on a passive node. */
static void irdma_cm_rx_request(struct irdma_cm_node *node)
{
	struct irdma_mpa_parsed mp;
	int err;

	err = irdma_parse_mpa(node, node->mpa_rx, node->mpa_rx_len, &mp);
	if (!err)
		err = irdma_mpa_apply(node, &mp);
	if (err == -EPROTONOSUPPORT || err == -EOPNOTSUPP || err == -EPROTO) {
		cm_stat(node->core, MPA_BAD);
		irdma_cm_uncount_pending(node);
		node->peer_reset = true;
		/* answer in the peer's revision, v1 if it has none we know */
		node->mpa_rev = mp.rev == 2 ? 2 : 1;
		irdma_send_mpa_reject(node, NULL, 0);
		return;
	}
	if (err) {
		cm_stat(node->core, MPA_BAD);
		irdma_passive_open_err(node, true);
		return;
	}
	cm_stat(node->core, MPA_REQ_RX);
	irdma_send_ack(node);
	irdma_cm_set_state(node, IRDMA_CM_STATE_MPAREQ_RCVD);
	irdma_create_event(node, IRDMA_CM_EV_MPA_REQ, 0);
}

/* A complete MPA reply or reject arrived on an active node. */
static void irdma_cm_rx_reply(struct irdma_cm_node *node)
{
	struct irdma_mpa_parsed mp;
	int err;

	err = irdma_parse_mpa(node, node->mpa_rx, node->mpa_rx_len, &mp);
	if (!err)
		err = irdma_mpa_apply(node, &mp);
	if (err) {
		cm_stat(node->core, MPA_BAD);
		irdma_active_open_err(node, true, -ECONNRESET);
		return;
	}
	if (mp.flags & IRDMA_MPA_FLAG_REJECT) {
		cm_stat(node->core, MPA_REJ_RX);
		irdma_send_ack(node);
		irdma_cm_set_state(node, IRDMA_CM_STATE_MPAREJ_RCVD);
		irdma_create_event(node, IRDMA_CM_EV_MPA_REJECT, -ECONNREFUSED);
		return;
	}
	cm_stat(node->core, MPA_REP_RX);
	irdma_cleanup_retrans_entry(node);
	irdma_cm_set_state(node, IRDMA_CM_STATE_OFFLOADED);
	irdma_create_event(node, IRDMA_CM_EV_CONNECTED, 0);
}

/*
 * Collect MPA bytes (a request or reply may span segments); returns true
 * when the payload was consumed.
 */
static bool irdma_handle_rcv_mpa(struct irdma_cm_node *node,
				 const struct irdma_cm_seg *seg)
{
	u32 room = IRDMA_MPA_MAX_FRAME - node->mpa_rx_len;
	int need;

	if (seg->datalen > room) {
		irdma_cm_open_err(node, true, -ECONNRESET);
		return false;
	}
	if (!node->mpa_rx) {
		node->mpa_rx = kmalloc(IRDMA_MPA_MAX_FRAME, GFP_ATOMIC);
		if (!node->mpa_rx) {
			irdma_cm_open_err(node, true, -ENOMEM);
			return false;
		}
	}
	memcpy(node->mpa_rx + node->mpa_rx_len, seg->data, seg->datalen);
	node->mpa_rx_len += seg->datalen;
	node->tcp.rcv_nxt += seg->datalen;
	need = irdma_mpa_frame_need(node->mpa_rx, node->mpa_rx_len);
	if (need < 0 || node->mpa_rx_len > need) {
		cm_stat(node->core, MPA_BAD);
		irdma_cm_open_err(node, true, -ECONNRESET);
		return false;
	}
	if (node->mpa_rx_len < need) {
		if (!node->active)
			irdma_send_ack(node);
		return true;
	}
	if (node->active)
		irdma_cm_rx_reply(node);
	else
		irdma_cm_rx_request(node);
	return true;
}

/* Payload of an in-sequence segment; returns true if it was consumed. */
static bool irdma_cm_rx_data(struct irdma_cm_node *node,
			     const struct irdma_cm_seg *seg)
{
	switch (node->state) {
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_SENT:
		return irdma_handle_rcv_mpa(node, seg);
	default:
		cm_stat(node->core, RX_DROPPED);
		return false;
	}
}

/* Our FIN (or anything outstanding) was acknowledged. */
static void irdma_cm_ack_state(struct irdma_cm_node *node)
{
	bool all = node->tcp.snd_una == node->tcp.snd_nxt;

	switch (node->state) {
	case IRDMA_CM_STATE_SYN_RCVD:
		if (all)
			irdma_cm_set_state(node, IRDMA_CM_STATE_ESTABLISHED);
		break;
	case IRDMA_CM_STATE_FIN_WAIT1:
		if (all)
			irdma_cm_set_state(node, IRDMA_CM_STATE_FIN_WAIT2);
		break;
	case IRDMA_CM_STATE_CLOSING:
		if (all)
			irdma_cm_enter_time_wait(node);
		break;
	case IRDMA_CM_STATE_LAST_ACK:
		if (all)
			irdma_cm_free_tcp(node);
		break;
	default:
		break;
	}
}

static void irdma_handle_ack_pkt(struct irdma_cm_node *node,
				 const struct irdma_cm_seg *seg)
{
	int err = irdma_check_seq(node, seg);
	bool consumed = true;

	if (err) {
		cm_stat(node->core, RX_BAD_SEQ);
		if (err == -ERANGE && node->state == IRDMA_CM_STATE_SYN_RCVD)
			irdma_passive_open_err(node, true);
		else if (node->state != IRDMA_CM_STATE_SYN_SENT)
			irdma_send_ack(node);
		return;
	}
	if (node->state == IRDMA_CM_STATE_SYN_SENT)
		return;
	irdma_cm_ack_advance(node, seg->ack);
	node->tcp.snd_wnd = (u32)seg->wnd << node->tcp.snd_wscale;
	irdma_cm_ack_state(node);
	if (seg->datalen)
		consumed = irdma_cm_rx_data(node, seg);
	if (consumed && (seg->flags & TCPHDR_FIN) &&
	    node->state != IRDMA_CM_STATE_OFFLOADED &&
	    node->state != IRDMA_CM_STATE_CLOSED)
		irdma_handle_fin_pkt(node);
}

/* Dispatch one segment: RST, then SYN / SYN-ACK, then ACK (+data, FIN). */
static void irdma_process_pkt(struct irdma_cm_node *node,
			      const struct irdma_cm_seg *seg)
{
	u8 f = seg->flags;

	lockdep_assert_held(&node->lock);
	if (node->tcp_ref_dropped)
		return;
	if (f & TCPHDR_RST) {
		if (irdma_cm_rst_valid(node, seg))
			irdma_handle_rst_pkt(node);
		else
			cm_stat(node->core, RX_BAD_SEQ);
		return;
	}
	if ((f & TCPHDR_SYN) && (f & TCPHDR_FIN)) {
		cm_stat(node->core, RX_MALFORMED);
		return;
	}
	if ((f & TCPHDR_SYN) && !(f & TCPHDR_ACK))
		irdma_handle_syn_pkt(node, seg);
	else if (f & TCPHDR_SYN)
		irdma_handle_synack_pkt(node, seg);
	else if (f & TCPHDR_ACK)
		irdma_handle_ack_pkt(node, seg);
	else
		cm_stat(node->core, RX_DROPPED);
}

/* ---------------------------------------------------------------------- */
/* Frame parsing and the ILQ receive entry                                */

static int irdma_cm_parse_tcp(const u8 *p, u32 len, struct irdma_cm_seg *seg)
{
	const struct tcphdr *th = (const struct tcphdr *)p;
	u32 doff;

	if (len < sizeof(*th))
		return -EINVAL;
	doff = th->doff * 4;
	if (doff < sizeof(*th) || doff > len)
		return -EINVAL;
	seg->ci.rem_port = ntohs(th->source);
	seg->ci.loc_port = ntohs(th->dest);
	seg->seq = ntohl(th->seq);
	seg->ack = ntohl(th->ack_seq);
	seg->wnd = ntohs(th->window);
	seg->flags = tcp_flag_byte(th) & (TCPHDR_FIN | TCPHDR_SYN | TCPHDR_RST |
					  TCPHDR_PSH | TCPHDR_ACK | TCPHDR_URG);
	seg->opts = p + sizeof(*th);
	seg->optlen = doff - sizeof(*th);
	seg->data = p + doff;
	seg->datalen = len - doff;
	if (!seg->ci.rem_port || !seg->ci.loc_port)
		return -EINVAL;
	return 0;
}

static int irdma_cm_parse_ipv4(const u8 *p, u32 len, struct irdma_cm_seg *seg)
{
	const struct iphdr *iph = (const struct iphdr *)p;
	u32 ihl, tot;

	if (len < sizeof(*iph) || iph->version != 4)
		return -EINVAL;
	ihl = iph->ihl * 4;
	tot = ntohs(iph->tot_len);
	if (ihl < sizeof(*iph) || tot < ihl || tot > len)
		return -EINVAL;
	if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
		return -EPROTONOSUPPORT;
	seg->ci.ipv4 = true;
	seg->ci.tos = iph->tos;
	seg->ci.rem_addr[0] = ntohl(iph->saddr);
	seg->ci.loc_addr[0] = ntohl(iph->daddr);
	return irdma_cm_parse_tcp(p + ihl, tot - ihl, seg);
}

static int irdma_cm_parse_ipv6(const u8 *p, u32 len, struct irdma_cm_seg *seg)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)p;
	u32 plen;

	if (len < sizeof(*ip6) || ip6->version != 6)
		return -EINVAL;
	plen = ntohs(ip6->payload_len);
	if (plen > len - sizeof(*ip6))
		return -EINVAL;
	if (ip6->nexthdr != IPPROTO_TCP)
		return -EPROTONOSUPPORT;
	seg->ci.ipv4 = false;
	seg->ci.tos = ipv6_get_dsfield(ip6);
	irdma_copy_ip_ntohl(seg->ci.rem_addr, ip6->saddr.in6_u.u6_addr32);
	irdma_copy_ip_ntohl(seg->ci.loc_addr, ip6->daddr.in6_u.u6_addr32);
	return irdma_cm_parse_tcp(p + sizeof(*ip6), plen, seg);
}

/*
 * Parse an ILQ frame that starts at its IP header: the L2 facts come from
 * the completion (source MAC, stripped VLAN tag, IP version).
 */
static int irdma_cm_parse_l3(const u8 *p, u32 len,
			     const struct irdma_cm_rx_info *rxi,
			     struct irdma_cm_seg *seg)
{
	u16 tci = rxi->vlan_tci;

	if (!rxi->smac_valid)
		return -EINVAL;
	ether_addr_copy(seg->smac, rxi->smac);
	seg->ci.vlan_id = rxi->vlan_valid ? tci & VLAN_VID_MASK :
					    IRDMA_CM_NO_VLAN;
	seg->ci.user_pri = rxi->vlan_valid ? tci >> VLAN_PRIO_SHIFT : 0;
	if (rxi->ipv4)
		return irdma_cm_parse_ipv4(p, len, seg);
	return irdma_cm_parse_ipv6(p, len, seg);
}

/* Parse Ethernet / 802.1Q / IP / TCP of an ILQ frame, or IP / TCP (l3). */
static int irdma_cm_parse_frame(const u8 *p, u32 len,
				const struct irdma_cm_rx_info *rxi,
				struct irdma_cm_seg *seg)
{
	const struct ethhdr *eth = (const struct ethhdr *)p;
	u32 off = ETH_HLEN;
	u16 proto, tci;
	bool tagged;

	memset(seg, 0, sizeof(*seg));
	if (rxi && rxi->l3)
		return irdma_cm_parse_l3(p, len, rxi, seg);
	if (len < ETH_HLEN)
		return -EINVAL;
	ether_addr_copy(seg->smac, eth->h_source);
	proto = ntohs(eth->h_proto);
	tagged = rxi && rxi->vlan_valid;
	tci = tagged ? rxi->vlan_tci : 0;
	if (proto == ETH_P_8021Q) {
		if (len < VLAN_ETH_HLEN)
			return -EINVAL;
		tci = get_unaligned_be16(p + ETH_HLEN);
		proto = get_unaligned_be16(p + ETH_HLEN + 2);
		off = VLAN_ETH_HLEN;
		tagged = true;
	}
	seg->ci.vlan_id = tagged ? tci & VLAN_VID_MASK : IRDMA_CM_NO_VLAN;
	seg->ci.user_pri = tagged ? tci >> VLAN_PRIO_SHIFT : 0;
	if (proto == ETH_P_IP)
		return irdma_cm_parse_ipv4(p + off, len - off, seg);
	if (proto == ETH_P_IPV6)
		return irdma_cm_parse_ipv6(p + off, len - off, seg);
	return -EPROTONOSUPPORT;
}

static struct irdma_cm_listener *
irdma_find_listener(struct irdma_cm_core *core, const struct irdma_cm_info *ci);

/*
 * A segment of no connection gets a RST, as a host answers one for a
 * closed port (RFC 9293 3.10.7.1): a SYN-ACK arriving after its connect
 * was given up, a segment whose node is gone while its filter is not yet,
 * a SYN its listener left. The RST goes out through a node of its own,
 * never hashed, with an AH of its own.
 */
static void irdma_cm_rst_closed(struct irdma_cm_core *core,
				const struct irdma_cm_seg *seg)
{
	struct irdma_cm_node *node;
	unsigned long flags;
	int idx;

	if (seg->flags & TCPHDR_RST)
		return;
	node = irdma_cm_node_alloc(core, &seg->ci);
	if (!node)
		return;
	node->loopback = irdma_cm_is_lpb(&seg->ci);
	ether_addr_copy(node->rem_mac, seg->smac);
	idx = core->ops->arp_resolve(core, &seg->ci, node->rem_mac, true);
	if (idx >= 0) {
		node->arp_idx = idx;
		spin_lock_irqsave(&node->lock, flags);
		node->state = IRDMA_CM_STATE_CLOSED;
		irdma_cm_reply_rst(node, seg);
		spin_unlock_irqrestore(&node->lock, flags);
		irdma_cm_free_ah(node);
		irdma_cm_arp_put(node);
	}
	kfree(node);
}

/* A segment without a node: only a pure SYN to a listener makes one. */
static int irdma_cm_rx_new(struct irdma_cm_core *core,
			   const struct irdma_cm_seg *seg)
{
	struct irdma_cm_listener *listener;
	struct irdma_cm_node *node;
	unsigned long flags;

	if ((seg->flags & (TCPHDR_SYN | TCPHDR_ACK | TCPHDR_RST | TCPHDR_FIN)) !=
	    TCPHDR_SYN) {
		cm_stat(core, RX_NO_NODE);
		irdma_cm_rst_closed(core, seg);
		return -ENOENT;
	}
	cm_stat(core, SYN_RX);
	listener = irdma_find_listener(core, &seg->ci);
	if (!listener) {
		cm_stat(core, RX_NO_NODE);
		irdma_cm_rst_closed(core, seg);
		return -ENOENT;
	}
	if (atomic_inc_return(&listener->pending) > listener->backlog) {
		cm_stat(core, BACKLOG_DROP);
		atomic_dec(&listener->pending);
		irdma_cm_listener_put(listener);
		return -EBUSY;
	}
	node = irdma_make_cm_node(core, &seg->ci, listener, seg->smac);
	if (IS_ERR(node)) {
		atomic_dec(&listener->pending);
		irdma_cm_listener_put(listener);
		return PTR_ERR(node);
	}
	node->pending_counted = true;
	node->ci.tos = listener->cm_id->tos_set ? listener->cm_id->tos :
		       seg->ci.tos;
	spin_lock_irqsave(&node->lock, flags);
	irdma_cm_set_state(node, IRDMA_CM_STATE_LISTENING);
	irdma_handle_syn_pkt(node, seg);
	irdma_cm_node_unlock(node, flags);
	return 0;
}

/**
 * irdma_receive_ilq - process one CM frame received on the ILQ
 * @core: CM core
 * @frame: frame starting at the Ethernet header, or at the IP header
 *	when @rxi says so (@rxi->l3)
 * @len: frame length
 * @rxi: receive metadata, may be NULL
 *
 * Safe in softirq context; the frame is only read during the call.
 *
 * Return: 0 if the frame was used, a negative errno if it was dropped.
 */
int irdma_receive_ilq(struct irdma_cm_core *core, const void *frame, u32 len,
		      const struct irdma_cm_rx_info *rxi)
{
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg;
	unsigned long flags;
	int err;

	cm_stat(core, FRAMES_RX);
	if (rxi && rxi->csum_err) {
		cm_stat(core, RX_MALFORMED);
		return -EBADMSG;
	}
	err = irdma_cm_parse_frame(frame, len, rxi, &seg);
	if (err) {
		cm_stat(core, RX_MALFORMED);
		return err;
	}
	node = irdma_find_node(core, &seg.ci);
	trace_irdma_cm_frame_rx(node, seg.flags, seg.seq, seg.ack, seg.datalen);
	if (!node)
		return irdma_cm_rx_new(core, &seg);
	spin_lock_irqsave(&node->lock, flags);
	if (node->state == IRDMA_CM_STATE_OFFLOADED) {
		cm_stat(core, RX_OFFLOADED);
		err = -EALREADY;
	} else {
		irdma_process_pkt(node, &seg);
	}
	irdma_cm_node_unlock(node, flags);
	irdma_rem_ref_cm_node(node);
	return err;
}

/**
 * irdma_cm_ieq_lookup - the connection of a segment the IEQ received
 * @core: CM core
 * @frame: the segment, from its IP header (@rxi->l3), or the whole frame
 *	(gen1)
 * @len: its length
 * @rxi: receive metadata
 * @out: filled in on success; its pointers are into @frame
 *
 * The engine hands the IEQ segments of connections it has offloaded,
 * whose node still names their QP. Nothing of the node changes.
 *
 * Context: any; does not sleep.
 * Return: 0 with @out->qp held, -EINVAL for a malformed segment, -ENOENT
 * when no node with a QP has its 4-tuple.
 */
int irdma_cm_ieq_lookup(struct irdma_cm_core *core, const void *frame,
			u32 len, const struct irdma_cm_rx_info *rxi,
			struct irdma_cm_ieq_seg *out)
{
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg;
	unsigned long flags;
	void *qp = NULL;

	if (!rxi || !core->ops->qp_hold ||
	    irdma_cm_parse_frame(frame, len, rxi, &seg))
		return -EINVAL;
	node = irdma_find_node(core, &seg.ci);
	if (!node)
		return -ENOENT;
	spin_lock_irqsave(&node->lock, flags);
	if (node->qp) {
		qp = node->qp;
		core->ops->qp_hold(core, qp);
		out->arp_idx = node->arp_idx;
	}
	spin_unlock_irqrestore(&node->lock, flags);
	irdma_rem_ref_cm_node(node);
	if (!qp)
		return -ENOENT;
	out->qp = qp;
	out->ci = seg.ci;
	ether_addr_copy(out->smac, seg.smac);
	out->tcp_len = sizeof(struct tcphdr) + seg.optlen;
	out->tcp = seg.data - out->tcp_len;
	out->l2l3_len = rxi->l3 ? 0 : out->tcp - (const u8 *)frame;
	out->seq = seg.seq;
	out->data = seg.data;
	out->datalen = seg.datalen;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Timer entries                                                          */

/* Collect nodes with a due entry (with a reference each). */
static int irdma_timer_list_prep(struct irdma_cm_core *core,
				 struct irdma_cm_node **nodes, unsigned long now)
{
	struct irdma_cm_node *node;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&core->timer_lock, flags);
	list_for_each_entry(node, &core->timer_nodes, timer_link) {
		if (!irdma_cm_tmr_due(node, now) || !irdma_cm_node_get(node))
			continue;
		nodes[n++] = node;
		if (n == IRDMA_CM_COLLECT_MAX)
			break;
	}
	spin_unlock_irqrestore(&core->timer_lock, flags);
	return n;
}

static void irdma_retrans_expired(struct irdma_cm_node *node)
{
	cm_stat(node->core, RETRANS_EXPIRED);
	switch (node->state) {
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_MPAREQ_SENT:
		irdma_active_open_err(node, true, -ETIMEDOUT);
		break;
	case IRDMA_CM_STATE_SYN_RCVD:
		irdma_passive_open_err(node, true);
		break;
	default:
		if (!node->active)
			node->peer_reset = true;
		irdma_send_reset(node);
		irdma_cm_free_tcp(node);
		break;
	}
}

/*
 * The MPA exchange did not end in time: an initiator reports the connect
 * timed out, a responder resets its silent peer without a word to iw_cm.
 * Both reset the peer.
 */
static void irdma_mpa_expired(struct irdma_cm_node *node)
{
	cm_stat(node->core, MPA_TIMEOUTS);
	switch (node->state) {
	case IRDMA_CM_STATE_MPAREQ_SENT:
		irdma_active_open_err(node, true, -ETIMEDOUT);
		break;
	case IRDMA_CM_STATE_ESTABLISHED:
		if (!node->active)
			irdma_passive_open_err(node, true);
		break;
	default:
		break;
	}
}

static void irdma_cm_retransmit(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_retrans *r = &node->rtx;

	spin_lock(&core->timer_lock);
	r->count++;
	r->timeout_ms = min_t(u32, r->timeout_ms * 2, IRDMA_CM_RETRANS_CAP_MS);
	irdma_cm_tmr_set(node, IRDMA_CM_TMR_RTX, r->timeout_ms);
	irdma_cm_timer_sync(node);
	spin_unlock(&core->timer_lock);
	cm_stat(core, RETRANS);
	irdma_cm_xmit(node, r->buf, r->len, 0);
}

/* Run the due entries of one node (node->lock held). */
static void irdma_cm_node_timers(struct irdma_cm_node *node, unsigned long now)
{
	struct irdma_cm_core *core = node->core;
	unsigned long due;

	lockdep_assert_held(&node->lock);
	spin_lock(&core->timer_lock);
	due = irdma_cm_tmr_due(node, now);
	/* each one runs once; what it does may arm it again */
	node->tmr_armed &= ~(due & ~BIT(IRDMA_CM_TMR_RTX));
	irdma_cm_timer_sync(node);
	spin_unlock(&core->timer_lock);
	/* the entry goes with the node's TCP, and on its way to OFFLOADED */
	if (due & BIT(IRDMA_CM_TMR_RTX)) {
		if (node->rtx.count >= core->cfg.retrans_max)
			irdma_retrans_expired(node);
		else if (irdma_cm_syn_unheard(node))
			irdma_active_open_err(node, false, -ECONNREFUSED);
		else
			irdma_cm_retransmit(node);
	}
	if ((due & BIT(IRDMA_CM_TMR_MPA)) && !node->tcp_ref_dropped)
		irdma_mpa_expired(node);
	if (due & BIT(IRDMA_CM_TMR_TIME_WAIT))
		irdma_cm_free_tcp(node);
	if (due & BIT(IRDMA_CM_TMR_CLOSE)) {
		/* the engine did not complete the close: abort it */
		cm_stat(core, CLOSE_TIMEOUTS);
		irdma_cm_disconn(node, IRDMA_CM_DISC_CLOSE_TIMEOUT);
	}
}

/**
 * irdma_cm_timer_tick - run every due retransmission and TIME_WAIT entry
 * @core: CM core
 *
 * Called by the core timer, or by KUnit after advancing its clock.
 */
void irdma_cm_timer_tick(struct irdma_cm_core *core)
{
	struct irdma_cm_node *nodes[IRDMA_CM_COLLECT_MAX];
	unsigned long now = irdma_cm_now(core), flags;
	int i, n;

	do {
		n = irdma_timer_list_prep(core, nodes, now);
		for (i = 0; i < n; i++) {
			spin_lock_irqsave(&nodes[i]->lock, flags);
			irdma_cm_node_timers(nodes[i], now);
			irdma_cm_node_unlock(nodes[i], flags);
			irdma_rem_ref_cm_node(nodes[i]);
		}
	} while (n == IRDMA_CM_COLLECT_MAX);
	spin_lock_irqsave(&core->timer_lock, flags);
	core->timer_armed = false;
	irdma_cm_rearm(core);
	spin_unlock_irqrestore(&core->timer_lock, flags);
}

static unsigned long irdma_cm_clock_jiffies(struct irdma_cm_core *core)
{
	return jiffies;
}

static void irdma_cm_clock_arm(struct irdma_cm_core *core,
			       unsigned long expires)
{
	mod_timer(&core->tcp_timer, expires);
}

static const struct irdma_cm_clock irdma_cm_jiffies_clock = {
	.now = irdma_cm_clock_jiffies,
	.arm = irdma_cm_clock_arm,
};

static void irdma_cm_timer_fn(struct timer_list *t)
{
	struct irdma_cm_core *core = from_timer(core, t, tcp_timer);

	irdma_cm_timer_tick(core);
}

/* ---------------------------------------------------------------------- */
/* Listeners                                                              */

static void irdma_cm_listener_put(struct irdma_cm_listener *listener)
{
	struct irdma_cm_core *core;

	if (!listener || !refcount_dec_and_test(&listener->refcnt))
		return;
	core = listener->core;
	irdma_cm_apbvt_put(core, listener->ci.loc_port);
	listener->cm_id->rem_ref(listener->cm_id);
	atomic_dec(&core->listener_cnt);
	kfree(listener);
}

static bool irdma_listener_takes(const struct irdma_cm_listener *l,
				 const struct irdma_cm_info *ci)
{
	if (l->state != IRDMA_CM_LISTENER_ACTIVE ||
	    l->ci.loc_port != ci->loc_port)
		return false;
	if (l->ci.ipv4 != ci->ipv4 && !(l->dual_stack && ci->ipv4))
		return false;
	if (l->wildcard)
		return true;
	return l->ci.ipv4 == ci->ipv4 && l->ci.vlan_id == ci->vlan_id &&
	       irdma_addr_eq(l->ci.loc_addr, ci->loc_addr, ci->ipv4);
}

/* An exact listener wins over a wildcard one; returned with a reference. */
static struct irdma_cm_listener *
irdma_find_listener(struct irdma_cm_core *core, const struct irdma_cm_info *ci)
{
	struct irdma_cm_listener *l, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry(l, &core->listen_list, list) {
		if (!irdma_listener_takes(l, ci))
			continue;
		if (!found || found->wildcard)
			found = l;
	}
	if (found)
		refcount_inc(&found->refcnt);
	spin_unlock_irqrestore(&core->listen_lock, flags);
	return found;
}

static bool irdma_listener_clash(const struct irdma_cm_listener *a,
				 const struct irdma_cm_listener *b)
{
	if (a->ci.loc_port != b->ci.loc_port || a->ci.ipv4 != b->ci.ipv4)
		return false;
	return a->wildcard || b->wildcard ||
	       irdma_addr_eq(a->ci.loc_addr, b->ci.loc_addr, a->ci.ipv4);
}

/*
 * Allocate a listener and list it unless the address is taken. @dev_vlan
 * is the VLAN of a specific address's netdev (IRDMA_CM_NO_VLAN for none or
 * a wildcard), set before the listener is listed for
 * irdma_cm_retag_listeners().
 */
static struct irdma_cm_listener *
irdma_make_listen_node(struct irdma_cm_core *core, struct iw_cm_id *cm_id,
		       const struct irdma_cm_info *ci, u16 dev_vlan,
		       int backlog)
{
	struct irdma_cm_listener *listener, *l;
	unsigned long flags;

	listener = kzalloc(sizeof(*listener), GFP_KERNEL);
	if (!listener)
		return ERR_PTR(-ENOMEM);
	refcount_set(&listener->refcnt, 1);
	INIT_LIST_HEAD(&listener->children);
	listener->core = core;
	listener->cm_id = cm_id;
	listener->ci = *ci;
	listener->dev_vlan = dev_vlan;
	listener->wildcard = irdma_addr_is_any(ci->loc_addr, ci->ipv4);
	listener->dual_stack = listener->wildcard && !ci->ipv4 &&
			       !cm_id->afonly;
	listener->backlog = backlog > 0 ? backlog : IRDMA_CM_DEFAULT_BACKLOG;
	listener->state = IRDMA_CM_LISTENER_ACTIVE;
	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry(l, &core->listen_list, list) {
		if (irdma_listener_clash(l, listener)) {
			spin_unlock_irqrestore(&core->listen_lock, flags);
			kfree(listener);
			return ERR_PTR(-EADDRINUSE);
		}
	}
	list_add_tail(&listener->list, &core->listen_list);
	spin_unlock_irqrestore(&core->listen_lock, flags);
	atomic_inc(&core->listener_cnt);
	return listener;
}

static int irdma_cm_add_child(struct irdma_cm_listener *listener,
			      const u32 *addr, bool ipv4, u16 vlan, gfp_t gfp,
			      atomic_t *failed)
{
	struct irdma_cm_core *core = listener->core;
	struct irdma_cm_listen_child *child;
	unsigned long flags;
	int err;

	child = kzalloc(sizeof(*child), gfp);
	if (!child)
		return -ENOMEM;
	child->ci = listener->ci;
	child->ci.ipv4 = ipv4;
	memcpy(child->ci.loc_addr, addr, ipv4 ? 4 : 16);
	child->dev_vlan = vlan;
	/*
	 * A child's filter is added and deleted under listen_lock, with the
	 * child listed and unlisted: a listener being taken down gains none.
	 * Its tag is chosen there too: irdma_cm_retag_listeners() either
	 * finds the child or comes before the tag is chosen.
	 */
	spin_lock_irqsave(&core->listen_lock, flags);
	child->ci.vlan_id = irdma_cm_tag_vlan(core, vlan, listener->ci.tos,
					      NULL);
	if (listener->state != IRDMA_CM_LISTENER_ACTIVE)
		err = -ENOENT;
	else
		err = core->ops->qhash(core, &child->ci, true, true, failed);
	if (!err)
		list_add_tail(&child->list, &listener->children);
	spin_unlock_irqrestore(&core->listen_lock, flags);
	if (err)
		kfree(child);
	return err;
}

/*
 * A specific listener's one SYN filter. Added under listen_lock with its
 * tag chosen there, as a wildcard listener's children are: a traffic-class
 * change either finds the filter or comes before its tag is chosen.
 */
static int irdma_cm_add_own_filter(struct irdma_cm_listener *listener,
				   atomic_t *verdict)
{
	struct irdma_cm_core *core = listener->core;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&core->listen_lock, flags);
	listener->ci.vlan_id = irdma_cm_tag_vlan(core, listener->dev_vlan,
						 listener->ci.tos, NULL);
	err = core->ops->qhash(core, &listener->ci, true, true, verdict);
	listener->qhash_set = !err;
	spin_unlock_irqrestore(&core->listen_lock, flags);
	return err;
}

static u16 irdma_cm_dev_vlan(struct net_device *dev)
{
	return is_vlan_dev(dev) ? vlan_dev_vlan_id(dev) : IRDMA_CM_NO_VLAN;
}

/*
 * One SYN filter per IPv4 address of our netdev and its VLANs, in the
 * netdev's namespace (irdma_cm_dev_is_ours()). Under RCU, not RTNL:
 * rdma_cm calls listen with its own mutex held, which its netdev notifier
 * takes under RTNL.
 */
static int irdma_add_mqh_4(struct irdma_cm_core *core,
			   struct irdma_cm_listener *listener, atomic_t *failed)
{
	const struct in_ifaddr *ifa;
	struct net_device *dev;
	struct in_device *idev;
	int n = 0;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "irdma: no RCU read lock");
	for_each_netdev_rcu(irdma_cm_net(core), dev) {
		if (!irdma_cm_dev_is_ours(core, dev))
			continue;
		idev = __in_dev_get_rcu(dev);
		if (!idev)
			continue;
		in_dev_for_each_ifa_rcu(ifa, idev) {
			u32 a = ntohl(ifa->ifa_address);

			if (!irdma_cm_add_child(listener, &a, true,
						irdma_cm_dev_vlan(dev), GFP_ATOMIC,
						failed))
				n++;
		}
	}
	return n;
}

/* The same for IPv6; a netdev without IPv6 is skipped, not the end. */
static int irdma_add_mqh_6(struct irdma_cm_core *core,
			   struct irdma_cm_listener *listener, atomic_t *failed)
{
	struct inet6_dev *idev;
	struct inet6_ifaddr *ifp;
	struct net_device *dev;
	u32 a[4];
	int n = 0;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "irdma: no RCU read lock");
	if (!IS_ENABLED(CONFIG_IPV6))
		return 0;
	for_each_netdev_rcu(irdma_cm_net(core), dev) {
		if (!irdma_cm_dev_is_ours(core, dev))
			continue;
		idev = __in6_dev_get(dev);
		if (!idev)
			continue;
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			irdma_copy_ip_ntohl(a, ifp->addr.in6_u.u6_addr32);
			if (!irdma_cm_add_child(listener, a, false,
						irdma_cm_dev_vlan(dev), GFP_ATOMIC,
						failed))
				n++;
		}
		read_unlock_bh(&idev->lock);
	}
	return n;
}

static void irdma_add_mqh(struct irdma_cm_core *core,
			  struct irdma_cm_listener *listener, atomic_t *failed)
{
	rcu_read_lock();
	if (listener->ci.ipv4 || listener->dual_stack)
		irdma_add_mqh_4(core, listener, failed);
	if (!listener->ci.ipv4)
		irdma_add_mqh_6(core, listener, failed);
	rcu_read_unlock();
}

/*
 * Take a listener out of the table with its SYN filters. The deletes are
 * posted before it leaves the list, under listen_lock: a new listener on
 * the same address can only be listed after that, so the engine carries
 * out its adds after these deletes and keeps its filters.
 */
static void irdma_del_multiple_qhash(struct irdma_cm_core *core,
				     struct irdma_cm_listener *listener)
{
	struct irdma_cm_listen_child *child, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&core->listen_lock, flags);
	listener->state = IRDMA_CM_LISTENER_PASSIVE;
	list_for_each_entry_safe(child, tmp, &listener->children, list) {
		core->ops->qhash(core, &child->ci, true, false, NULL);
		list_move(&child->list, &gone);
	}
	if (listener->qhash_set) {
		core->ops->qhash(core, &listener->ci, true, false, NULL);
		listener->qhash_set = false;
	}
	list_del(&listener->list);
	spin_unlock_irqrestore(&core->listen_lock, flags);
	list_for_each_entry_safe(child, tmp, &gone, list)
		kfree(child);
}

typedef bool (*irdma_cm_match_fn)(struct irdma_cm_node *node, const void *arg);

/* Collect up to IRDMA_CM_COLLECT_MAX hashed nodes matching @match. */
static int irdma_cm_collect(struct irdma_cm_core *core, irdma_cm_match_fn match,
			    const void *arg, struct irdma_cm_node **nodes)
{
	struct irdma_cm_node *node;
	int bkt, n = 0;

	rcu_read_lock();
	hash_for_each_rcu(core->conn_ht, bkt, node, hnode) {
		if (!match(node, arg) || !irdma_cm_node_get(node))
			continue;
		nodes[n++] = node;
		if (n == IRDMA_CM_COLLECT_MAX)
			break;
	}
	rcu_read_unlock();
	return n;
}

static bool irdma_cm_match_listener(struct irdma_cm_node *node,
				    const void *arg)
{
	return READ_ONCE(node->listener) == arg;
}

static int irdma_reset_list_prep(struct irdma_cm_core *core,
				 struct irdma_cm_listener *listener,
				 struct irdma_cm_node **nodes)
{
	return irdma_cm_collect(core, irdma_cm_match_listener, listener, nodes);
}

/* Abort one not yet accepted request of a listener being destroyed. */
static void irdma_cm_listener_abort_node(struct irdma_cm_node *node)
{
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	if (node->listener && node->state != IRDMA_CM_STATE_OFFLOADED) {
		if (!node->tcp_ref_dropped && irdma_cm_state_opening(node->state))
			irdma_send_reset(node);
		irdma_cm_uncount_pending(node);
		node->peer_reset = true;
		irdma_cm_free_tcp(node);
	}
	irdma_cm_node_unlock(node, flags);
}

/*
 * Take back the requests iw_cm holds and has not answered, of @listener
 * (or of every listener): iw_cm drops those still queued for a listener
 * it destroys without a word, and cannot tell which. Each is reset and
 * freed; an accept or reject naming one later finds it gone. Like close(2)
 * of a listening socket, a listener's end takes its requests not yet
 * accepted with it.
 */
static void irdma_cm_reclaim_requests(struct irdma_cm_core *core,
				      struct irdma_cm_listener *listener)
{
	struct irdma_cm_node *node, *tmp;
	unsigned long id, flags;
	LIST_HEAD(taken);

	xa_lock_irqsave(&core->requests, flags);
	xa_for_each(&core->requests, id, node) {
		if (listener && READ_ONCE(node->listener) != listener)
			continue;
		__xa_erase(&core->requests, id);
		list_add_tail(&node->tmp_link, &taken);
	}
	xa_unlock_irqrestore(&core->requests, flags);
	list_for_each_entry_safe(node, tmp, &taken, tmp_link) {
		cm_stat(core, REQS_RECLAIMED);
		irdma_cm_abort_request(node);
	}
}

/*
 * Abort the listener's pending requests, those handed to iw_cm too, then
 * drop the listing reference.
 */
static void irdma_dec_refcnt_listen(struct irdma_cm_core *core,
				    struct irdma_cm_listener *listener)
{
	struct irdma_cm_node *nodes[IRDMA_CM_COLLECT_MAX];
	int i, n, rounds = 0;

	do {
		n = irdma_reset_list_prep(core, listener, nodes);
		for (i = 0; i < n; i++) {
			irdma_cm_listener_abort_node(nodes[i]);
			irdma_rem_ref_cm_node(nodes[i]);
		}
	} while (n == IRDMA_CM_COLLECT_MAX && ++rounds < 1024);
	irdma_cm_reclaim_requests(core, listener);
	irdma_cm_listener_put(listener);
}

static void irdma_cm_del_listen(struct irdma_cm_core *core,
				struct irdma_cm_listener *listener)
{
	irdma_del_multiple_qhash(core, listener);
	irdma_dec_refcnt_listen(core, listener);
}

/**
 * irdma_create_listen - iw_cm listen on the mapped local address
 * @cm_id: listening iw_cm id
 * @backlog: pending request limit (0: default)
 *
 * Return: 0, -EADDRINUSE for an address already listened on, -EIO when
 * the engine refused a SYN filter of the listen, or an errno.
 */
int irdma_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct irdma_cm_core *core = irdma_cm_core_of(cm_id->device);
	atomic_t refused = ATOMIC_INIT(0);
	u16 dev_vlan = IRDMA_CM_NO_VLAN;
	struct irdma_cm_listener *listener;
	struct irdma_cm_info ci;
	unsigned long flags;
	atomic_t *verdict;
	int err;

	err = irdma_cm_id_addrs(cm_id, &ci, false);
	if (err)
		goto err_count;
	memset(ci.rem_addr, 0, sizeof(ci.rem_addr));
	ci.rem_port = 0;
	ci.tos = cm_id->tos;
	/* the filter's tag is chosen when it is added */
	if (!irdma_addr_is_any(ci.loc_addr, ci.ipv4))
		dev_vlan = irdma_cm_addr_vlan(core, &ci);
	listener = irdma_make_listen_node(core, cm_id, &ci, dev_vlan, backlog);
	if (IS_ERR(listener)) {
		err = PTR_ERR(listener);
		goto err_count;
	}
	err = irdma_cm_apbvt_get(core, ci.loc_port);
	if (err)
		goto err_unlist;
	/* the engine's verdict on a filter is known only after a sync */
	verdict = core->ops->sync ? &refused : NULL;
	if (listener->wildcard) {
		irdma_add_mqh(core, listener, verdict);
	} else {
		err = irdma_cm_add_own_filter(listener, verdict);
		if (err)
			goto err_apbvt;
	}
	/*
	 * Return once the engine steers SYNs to the ILQ: a peer told that
	 * we listen must not have its SYN answered by the host's TCP.
	 */
	if (core->ops->sync)
		core->ops->sync(core);
	cm_id->add_ref(cm_id);
	if (atomic_read(&refused) ||
	    (core->ops->sync && irdma_cm_port_lost(core, ci.loc_port))) {
		/*
		 * A listen with an address the engine does not steer, or on
		 * a port it did not open, would leave its peers to the host's
		 * RST. Other filters may have taken a SYN meanwhile: take it
		 * down as a destroy would. An exact listener's one filter, if
		 * refused, is not there to delete.
		 */
		cm_dbg(core, "listen on port %u: %d SYN filters refused\n",
		       ci.loc_port, atomic_read(&refused));
		if (!listener->wildcard && atomic_read(&refused)) {
			spin_lock_irqsave(&core->listen_lock, flags);
			listener->qhash_set = false;
			spin_unlock_irqrestore(&core->listen_lock, flags);
		}
		irdma_cm_del_listen(core, listener);
		cm_stat(core, LISTEN_ERR);
		return -EIO;
	}
	cm_id->provider_data = listener;
	cm_stat(core, LISTENS);
	return 0;

err_apbvt:
	irdma_cm_apbvt_put(core, ci.loc_port);
err_unlist:
	irdma_del_multiple_qhash(core, listener);
	atomic_dec(&core->listener_cnt);
	kfree(listener);
err_count:
	cm_stat(core, LISTEN_ERR);
	return err;
}

/**
 * irdma_destroy_listen - stop an iw_cm listen
 * @cm_id: listening iw_cm id
 *
 * Requests not yet accepted are reset. The listener keeps its cm_id
 * reference until the last request created from it is gone.
 *
 * Return: 0 or -EINVAL for an id that is not listening.
 */
int irdma_destroy_listen(struct iw_cm_id *cm_id)
{
	struct irdma_cm_core *core = irdma_cm_core_of(cm_id->device);
	struct irdma_cm_listener *listener = cm_id->provider_data;

	if (!listener)
		return -EINVAL;
	cm_id->provider_data = NULL;
	irdma_cm_del_listen(core, listener);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* iw_cm connect, accept, reject                                          */

static int irdma_cm_check_conn_param(struct irdma_cm_core *core,
				     const struct iw_cm_conn_param *p)
{
	u32 max_pd = IRDMA_MPA_MAX_PDATA -
		     (core->cfg.mpa_rev == 2 ? IRDMA_MPA_V2_RTR_LEN : 0);

	if (p->ird > core->cfg.max_ird || p->ord > core->cfg.max_ord)
		return -EINVAL;
	if (p->private_data_len > max_pd ||
	    (p->private_data_len && !p->private_data))
		return -EINVAL;
	return 0;
}

/* Active node: addressing, ISN, IRD/ORD and the request's private data. */
static struct irdma_cm_node *
irdma_create_cm_node(struct irdma_cm_core *core, struct irdma_cm_info *ci,
		     struct iw_cm_id *cm_id, const struct iw_cm_conn_param *p)
{
	u16 vlan = irdma_cm_addr_vlan(core, ci);
	struct irdma_cm_node *node;
	u8 *pdata = NULL;

	if (p->private_data_len) {
		pdata = kmemdup(p->private_data, p->private_data_len,
				GFP_KERNEL);
		if (!pdata)
			return ERR_PTR(-ENOMEM);
	}
	ci->tos = cm_id->tos_set ? cm_id->tos : 0;
	/* on a VLAN of its own, the VLAN device's priority for the TOS */
	if (vlan != IRDMA_CM_NO_VLAN && core->ops->vlan_prio)
		ci->user_pri = core->ops->vlan_prio(core, ci);
	ci->vlan_id = irdma_cm_tag_vlan(core, vlan, ci->tos, &ci->user_pri);
	node = irdma_make_cm_node(core, ci, NULL, NULL);
	if (IS_ERR(node)) {
		kfree(pdata);
		return node;
	}
	node->active = true;
	irdma_record_ird_ord(node, p->ird, p->ord);
	node->pdata = pdata;
	node->pdata_len = p->private_data_len;
	return node;
}

/* Tear down a node that never produced an event. */
static void irdma_cm_discard_node(struct irdma_cm_node *node)
{
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	irdma_cm_free_tcp(node);
	irdma_cm_node_unlock(node, flags);
}

/*
 * An active open to an address of this function can be taken by one of
 * our own listeners only: its SYN comes back to this function, and the
 * host's stack, if nothing here takes it, drops a segment from one of its
 * own addresses as a martian without a RST. Without a listener the open
 * would wait out every retransmission of the SYN. No reference is taken:
 * callable under a node's lock.
 */
static bool irdma_cm_loopback_heard(struct irdma_cm_core *core,
				    const struct irdma_cm_info *ci)
{
	struct irdma_cm_info passive = *ci;
	struct irdma_cm_listener *l;
	unsigned long flags;
	bool heard = false;

	memcpy(passive.loc_addr, ci->rem_addr, sizeof(passive.loc_addr));
	memcpy(passive.rem_addr, ci->loc_addr, sizeof(passive.rem_addr));
	passive.loc_port = ci->rem_port;
	passive.rem_port = ci->loc_port;
	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry(l, &core->listen_list, list)
		heard |= irdma_listener_takes(l, &passive);
	spin_unlock_irqrestore(&core->listen_lock, flags);
	return heard;
}

/**
 * irdma_connect - iw_cm active open
 * @cm_id: iw_cm id (m_local_addr / m_remote_addr are used)
 * @conn_param: QP, IRD/ORD and private data
 *
 * An open to this function's own address that none of its listeners
 * takes is refused at once: CONNECT_REPLY with -ECONNREFUSED follows.
 *
 * Return: 0 when the SYN is on its way or the refusal queued (events
 * follow), or an errno, in which case no event is ever raised and no
 * reference is kept.
 */
int irdma_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param)
{
	struct irdma_cm_core *core = irdma_cm_core_of(cm_id->device);
	struct irdma_cm_node *node;
	struct irdma_cm_info ci;
	unsigned long flags;
	bool refused;
	void *qp;
	int err;

	err = irdma_cm_id_addrs(cm_id, &ci, true);
	if (!err)
		err = irdma_cm_check_conn_param(core, conn_param);
	if (err)
		goto err_count;
	qp = core->ops->qp_lookup(core, conn_param->qpn);
	if (IS_ERR(qp)) {
		err = PTR_ERR(qp);
		goto err_count;
	}
	node = irdma_create_cm_node(core, &ci, cm_id, conn_param);
	if (IS_ERR(node)) {
		err = PTR_ERR(node);
		goto err_put_qp;
	}
	err = irdma_cm_conn_resources(node);
	if (err)
		goto err_node;
	refused = node->loopback && !irdma_cm_loopback_heard(core, &ci);
	spin_lock_irqsave(&node->lock, flags);
	err = irdma_cm_link_ulp(node, cm_id, qp);
	if (err) {
		spin_unlock_irqrestore(&node->lock, flags);
		goto err_node;
	}
	refcount_inc(&node->refcnt);
	node->ulp_ref = true;
	irdma_cm_set_state(node, IRDMA_CM_STATE_SYN_SENT);
	if (refused) {
		/* refused, as a RST to the SYN would say, and as connect(2) */
		irdma_active_open_err(node, false, -ECONNREFUSED);
		irdma_cm_node_unlock(node, flags);
		return 0;
	}
	if (node->res_refused) {
		/* the engine refused its filter or port already */
		irdma_active_open_err(node, false, -EIO);
		irdma_cm_node_unlock(node, flags);
		return 0;
	}
	if (irdma_cm_quiesced(core)) {
		/* the device began to leave since the node was made */
		irdma_active_open_err(node, false, -ENETDOWN);
		irdma_cm_node_unlock(node, flags);
		return 0;
	}
	err = irdma_send_syn(node, false);
	if (err)
		irdma_cm_free_tcp(node);
	irdma_cm_node_unlock(node, flags);
	if (err) {
		irdma_cm_unlink_ulp(node);
		goto err_count;
	}
	return 0;

err_node:
	irdma_cm_discard_node(node);
err_put_qp:
	core->ops->qp_put(core, qp);
err_count:
	cm_stat(core, CONNECT_ERR);
	return err;
}

/* Validate an accept and negotiate IRD/ORD (node->lock held). */
static int irdma_cm_accept_check(struct irdma_cm_node *node,
				 const struct iw_cm_conn_param *p)
{
	struct irdma_cm_core *core = node->core;

	lockdep_assert_held(&node->lock);
	if (node->active || !node->ulp_ref)
		return -EINVAL;
	if (node->peer_reset || node->state != IRDMA_CM_STATE_MPAREQ_RCVD)
		return -ECONNRESET;
	if (p->ird > core->cfg.max_ird || p->ord > core->cfg.max_ord)
		return -EINVAL;
	if (p->private_data_len > irdma_cm_ulp_pdata_max(node) ||
	    (p->private_data_len && !p->private_data))
		return -EINVAL;
	node->ird = p->ird;
	node->ord = p->ord;
	return irdma_negotiate_mpa_v2_ird_ord(node);
}

/* Build the reply, link the ULP and hand TCP to the QP (node->lock held). */
static int irdma_cm_accept_locked(struct irdma_cm_node *node,
				  struct iw_cm_id *cm_id, void *qp,
				  const struct iw_cm_conn_param *p,
				  struct irdma_cm_tcp_ctx *ctx)
{
	struct irdma_cm_listener *listener = node->listener;
	int err;

	node->lsmm_buf = irdma_cm_build_mpa_frame(node, IRDMA_MPA_KIND_REP,
						  p->private_data,
						  p->private_data_len,
						  &node->lsmm_len);
	if (!node->lsmm_buf)
		return -ENOMEM;
	err = irdma_cm_link_ulp(node, cm_id, qp);
	if (err)
		return err;
	irdma_cm_uncount_pending(node);
	WRITE_ONCE(node->listener, NULL);
	irdma_cm_listener_put(listener);
	irdma_cm_init_tsa_conn(node, ctx);
	return 0;
}

/*
 * The request an iw_cm id names (its provider_data, the number the
 * CONNECT_REQUEST carried), taken out of core->requests: the caller owns
 * its ULP reference. NULL when it is not there any more (its listener was
 * destroyed, or it was answered) or the number is not of this id's
 * connection.
 */
static struct irdma_cm_node *irdma_cm_claim_request(struct irdma_cm_core *core,
						    struct iw_cm_id *cm_id)
{
	unsigned long id = (uintptr_t)cm_id->provider_data, flags;
	struct irdma_cm_node *node;
	struct irdma_cm_info ci;

	if (!id || id > INT_MAX || irdma_cm_id_addrs(cm_id, &ci, true))
		return NULL;
	xa_lock_irqsave(&core->requests, flags);
	node = xa_load(&core->requests, id);
	if (node && irdma_cm_info_match_addrs(&node->ci, &ci))
		__xa_erase(&core->requests, id);
	else
		node = NULL;
	xa_unlock_irqrestore(&core->requests, flags);
	/* answered now, or never to be: the number is spent either way */
	cm_id->provider_data = NULL;
	return node;
}

/**
 * irdma_accept - iw_cm passive accept of a CONNECT_REQUEST
 * @cm_id: the new iw_cm id (provider_data numbers the request)
 * @conn_param: QP, IRD/ORD and reply private data
 *
 * The reply goes out as the QP's first message; ESTABLISHED follows.
 *
 * Return: 0 or an errno (-EINVAL for an id without a request,
 * -ECONNRESET if the peer went away, or the request with it, its listener
 * having been destroyed); after an error no event is raised and the
 * request is reset.
 */
int irdma_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param)
{
	struct irdma_cm_core *core = irdma_cm_core_of(cm_id->device);
	struct irdma_cm_tcp_ctx ctx;
	struct irdma_cm_node *node;
	unsigned long flags;
	void *qp;
	int err;

	if (!cm_id->provider_data)
		return -EINVAL;
	node = irdma_cm_claim_request(core, cm_id);
	if (!node) {
		cm_stat(core, ACCEPT_ERR);
		return -ECONNRESET;
	}
	qp = core->ops->qp_lookup(core, conn_param->qpn);
	if (IS_ERR(qp)) {
		err = PTR_ERR(qp);
		goto err_abort;
	}
	spin_lock_irqsave(&node->lock, flags);
	err = irdma_cm_accept_check(node, conn_param);
	if (!err)
		err = irdma_cm_accept_locked(node, cm_id, qp, conn_param, &ctx);
	spin_unlock_irqrestore(&node->lock, flags);
	if (err) {
		core->ops->qp_put(core, qp);
		goto err_abort;
	}
	err = irdma_cm_start_qp(node, qp, &ctx);
	if (err) {
		core->ops->qp_to_err(core, qp);
		goto err_abort;
	}
	irdma_cm_free_ah(node);
	cm_stat(core, ACCEPTS);
	spin_lock_irqsave(&node->lock, flags);
	irdma_create_event(node, IRDMA_CM_EV_ESTABLISHED, 0);
	spin_unlock_irqrestore(&node->lock, flags);
	return 0;

err_abort:
	cm_stat(core, ACCEPT_ERR);
	irdma_cm_abort_request(node);
	return err;
}

static int irdma_cm_reject(struct irdma_cm_node *node, const void *pdata,
			   u8 pdata_len)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&node->lock, flags);
	if (!node->ulp_ref || node->active) {
		spin_unlock_irqrestore(&node->lock, flags);
		return -EINVAL;
	}
	irdma_cm_uncount_pending(node);
	if (node->state == IRDMA_CM_STATE_MPAREQ_RCVD && !node->peer_reset) {
		/*
		 * the reject's IRD/ORD are what an accept would answer: an
		 * ORD above the initiator's IRD is one it must refuse
		 */
		irdma_negotiate_mpa_v2_ird_ord(node);
		err = irdma_send_mpa_reject(node, pdata, pdata_len);
		if (err) {
			irdma_send_reset(node);
			irdma_cm_free_tcp(node);
		}
	}
	irdma_cm_node_unlock(node, flags);
	irdma_cm_unlink_ulp(node);
	cm_stat(node->core, REJECTS);
	return 0;
}

/**
 * irdma_reject - iw_cm reject of a CONNECT_REQUEST
 * @cm_id: iw_cm id of the request (provider_data numbers it)
 * @pdata: private data for the MPA reject
 * @pdata_len: its length
 *
 * Sends the MPA reject and our FIN; TCP closes on its own afterwards.
 *
 * Return: 0, -EINVAL for an id without a request or bad private data, or
 * -ECONNRESET when the request is gone already (its listener was
 * destroyed).
 */
int irdma_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pdata_len)
{
	struct irdma_cm_core *core = irdma_cm_core_of(cm_id->device);
	struct irdma_cm_node *node;

	if (!cm_id->provider_data || (pdata_len && !pdata))
		return -EINVAL;
	node = irdma_cm_claim_request(core, cm_id);
	if (!node)
		return -ECONNRESET;
	return irdma_cm_reject(node, pdata, pdata_len);
}

/* ---------------------------------------------------------------------- */
/* Address changes and teardown                                           */

/**
 * struct irdma_cm_addr_match - address filter for teardown
 * @addr: local address, host order words
 * @ipv4: family
 * @all: match every node
 */
struct irdma_cm_addr_match {
	const u32 *addr;
	bool ipv4;
	bool all;
};

static bool irdma_cm_match_addr(struct irdma_cm_node *node, const void *arg)
{
	const struct irdma_cm_addr_match *m = arg;

	if (m->all)
		return true;
	return node->ci.ipv4 == m->ipv4 &&
	       irdma_addr_eq(node->ci.loc_addr, m->addr, m->ipv4);
}

static int irdma_teardown_list_prep(struct irdma_cm_core *core,
				    const struct irdma_cm_addr_match *m,
				    struct irdma_cm_node **nodes)
{
	return irdma_cm_collect(core, irdma_cm_match_addr, m, nodes);
}

/*
 * Force one node down: offloaded ones through their QP, others by RST; an
 * active open not yet connected ends with @status.
 */
static void irdma_cm_teardown_node(struct irdma_cm_node *node, int status)
{
	struct irdma_cm_core *core = node->core;
	unsigned long flags;
	void *qp = NULL;

	spin_lock_irqsave(&node->lock, flags);
	if (node->state == IRDMA_CM_STATE_OFFLOADED) {
		qp = node->qp;
		if (!qp)
			irdma_cm_free_tcp(node);
	} else if (node->state != IRDMA_CM_STATE_CLOSED) {
		irdma_cm_open_err(node, irdma_cm_state_opening(node->state),
				  status);
		irdma_cm_free_tcp(node);
	}
	irdma_cm_node_unlock(node, flags);
	if (qp) {
		core->ops->qp_to_err(core, qp);
		irdma_cm_disconn(node, IRDMA_CM_DISC_LOCAL_ERR);
		spin_lock_irqsave(&node->lock, flags);
		irdma_cm_free_tcp(node);
		irdma_cm_node_unlock(node, flags);
	}
}

/**
 * irdma_cm_read_stats - a snapshot of the CM's counters
 * @core: CM core
 * @vals: IRDMA_CM_STAT_COUNT values, in the order of enum irdma_cm_stat
 */
void irdma_cm_read_stats(struct irdma_cm_core *core, u64 *vals)
{
	int i;

	for (i = 0; i < IRDMA_CM_STAT_COUNT; i++)
		vals[i] = atomic64_read(&core->stats[i]);
}

/**
 * irdma_cm_teardown_connections - abort connections on a local address
 * @core: CM core
 * @addr: local address (host order words), or NULL for every connection
 * @ipv4: family of @addr
 */
void irdma_cm_teardown_connections(struct irdma_cm_core *core,
				   const u32 *addr, bool ipv4)
{
	struct irdma_cm_addr_match m = { .addr = addr, .ipv4 = ipv4,
					 .all = !addr };
	struct irdma_cm_node *nodes[IRDMA_CM_COLLECT_MAX];
	int i, n, rounds = 0;

	do {
		n = irdma_teardown_list_prep(core, &m, nodes);
		for (i = 0; i < n; i++) {
			irdma_cm_teardown_node(nodes[i], -ECONNRESET);
			irdma_rem_ref_cm_node(nodes[i]);
		}
	} while (n == IRDMA_CM_COLLECT_MAX && ++rounds < 1024);
}

/*
 * End @node, whose filter or port the engine refused, with @status. An
 * active node whose connect has not linked its ULP yet is only marked:
 * irdma_connect() fails the connect when it links (both under the lock).
 */
static void irdma_cm_refused_node(struct irdma_cm_node *node, int status)
{
	unsigned long flags;
	bool early;

	spin_lock_irqsave(&node->lock, flags);
	early = node->active && !node->ulp_ref;
	if (early)
		node->res_refused = true;
	irdma_cm_node_unlock(node, flags);
	if (!early)
		irdma_cm_teardown_node(node, status);
}

/**
 * irdma_cm_conn_refused - the engine refused a connection's 4-tuple filter
 * @core: CM core
 * @ci: the filter's addressing, as the qhash op was given it; its @tag
 *	names the node that asked
 * @status: the command's error
 *
 * The layer below posts the add without waiting (the CM holds spinlocks)
 * and reports a refusal here. Without its filter the connection's
 * segments do not reach the CM: that node, if it is still there, forgets
 * the filter (no delete follows for it) and its connection ends, an
 * active open with CONNECT_REPLY @status, others as an abort. A node of
 * the same 4-tuple made since is a different connection and is left be.
 *
 * Context: process context, no CM lock held; the CM core is set up.
 */
void irdma_cm_conn_refused(struct irdma_cm_core *core,
			   const struct irdma_cm_info *ci, int status)
{
	struct irdma_cm_node *node = irdma_find_node(core, ci);
	unsigned long flags;
	bool had = false;

	if (!node)
		return;
	spin_lock_irqsave(&node->lock, flags);
	if (node->ci.tag == ci->tag) {
		had = node->qhash_set;
		node->qhash_set = false;
	}
	irdma_cm_node_unlock(node, flags);
	if (had) {
		cm_dbg(core, "port %u: the engine refused the connection's filter (%d)\n",
		       ci->loc_port, status);
		irdma_cm_refused_node(node, status);
	}
	irdma_rem_ref_cm_node(node);
}

/**
 * struct irdma_cm_port_match - nodes using one local port
 * @port: the port
 */
struct irdma_cm_port_match {
	u16 port;
};

static bool irdma_cm_match_port(struct irdma_cm_node *node, const void *arg)
{
	const struct irdma_cm_port_match *m = arg;

	return node->ci.loc_port == m->port && node->apbvt_set;
}

/**
 * irdma_cm_port_refused - the engine refused to open a local port
 * @core: CM core
 * @port: the port
 * @tag: the tag the apbvt op was given with the add
 * @status: the command's error
 *
 * The port's entry, if that add is still its last, is marked: the port is
 * not open on the engine, its last user posts no delete, and its next
 * user asks again. The connections that used the port end (as in
 * irdma_cm_conn_refused()); a listener learns of it in
 * irdma_create_listen(), after its sync.
 *
 * Context: process context, no CM lock held; the CM core is set up.
 */
void irdma_cm_port_refused(struct irdma_cm_core *core, u16 port, u32 tag,
			   int status)
{
	struct irdma_cm_port_match m = { .port = port };
	struct irdma_cm_node *nodes[IRDMA_CM_COLLECT_MAX];
	struct irdma_cm_apbvt *e;
	unsigned long flags;
	bool hit = false;
	int i, n;

	spin_lock_irqsave(&core->apbvt_lock, flags);
	hash_for_each_possible(core->apbvt_ht, e, hnode, port) {
		if (e->port == port && e->tag == tag && !e->refused) {
			e->refused = true;
			hit = true;
		}
	}
	spin_unlock_irqrestore(&core->apbvt_lock, flags);
	if (!hit)
		return;
	cm_dbg(core, "port %u: the engine refused to open it (%d)\n", port,
	       status);
	n = irdma_cm_collect(core, irdma_cm_match_port, &m, nodes);
	for (i = 0; i < n; i++) {
		irdma_cm_refused_node(nodes[i], status);
		irdma_rem_ref_cm_node(nodes[i]);
	}
}

/* Add or remove the SYN filter of one listener for one address. */
static void irdma_qhash_ctrl(struct irdma_cm_core *core,
			     struct irdma_cm_listener *listener,
			     const u32 *addr, bool ipv4, u16 vlan, bool ifup)
{
	struct irdma_cm_listen_child *child, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	if (!listener->wildcard || (listener->ci.ipv4 != ipv4 &&
				    !(listener->dual_stack && ipv4)))
		return;
	if (ifup) {
		irdma_cm_add_child(listener, addr, ipv4, vlan, GFP_ATOMIC,
				   NULL);
		return;
	}
	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry_safe(child, tmp, &listener->children, list) {
		if (child->ci.ipv4 == ipv4 &&
		    irdma_addr_eq(child->ci.loc_addr, addr, ipv4)) {
			core->ops->qhash(core, &child->ci, true, false, NULL);
			list_move(&child->list, &gone);
		}
	}
	spin_unlock_irqrestore(&core->listen_lock, flags);
	list_for_each_entry_safe(child, tmp, &gone, list)
		kfree(child);
}

/**
 * irdma_if_notify - a local address appeared or went away
 * @core: CM core
 * @addr: the address, host order words
 * @ipv4: its family
 * @vlan: the VLAN of the netdev holding it, or IRDMA_CM_NO_VLAN
 * @ifup: added (true) or removed (false)
 *
 * Wildcard listeners gain or lose the SYN filter of the address, the one
 * of a VLAN device's address matching that VLAN's SYNs; on removal the
 * connections using it are torn down.
 */
void irdma_if_notify(struct irdma_cm_core *core, const u32 *addr, bool ipv4,
		     u16 vlan, bool ifup)
{
	struct irdma_cm_listener *ls[IRDMA_CM_COLLECT_MAX], *l;
	unsigned long flags;
	int i, n = 0;

	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry(l, &core->listen_list, list) {
		if (n == IRDMA_CM_COLLECT_MAX)
			break;
		refcount_inc(&l->refcnt);
		ls[n++] = l;
	}
	spin_unlock_irqrestore(&core->listen_lock, flags);
	for (i = 0; i < n; i++) {
		irdma_qhash_ctrl(core, ls[i], addr, ipv4, vlan, ifup);
		irdma_cm_listener_put(ls[i]);
	}
	if (!ifup)
		irdma_cm_teardown_connections(core, addr, ipv4);
}

/*
 * Give one SYN filter the VLAN its address's SYNs carry now. The new one
 * is posted before the old one goes, so no SYN meets neither; both under
 * listen_lock, like every other change of a listener's filters. A new
 * filter that cannot be posted leaves the old one in place and in @ci.
 * Return: 1 when the filter was changed, 0 when it had the tag already,
 * or the qhash op's errno when the new one could not be posted.
 */
static int irdma_cm_retag_filter(struct irdma_cm_core *core,
				 struct irdma_cm_info *ci, u16 dev_vlan, u8 tos,
				 atomic_t *refused)
{
	struct irdma_cm_info old = *ci;
	int err;

	lockdep_assert_held(&core->listen_lock);
	ci->vlan_id = irdma_cm_tag_vlan(core, dev_vlan, tos, NULL);
	if (ci->vlan_id == old.vlan_id)
		return 0;
	err = core->ops->qhash(core, ci, true, true, refused);
	if (err) {
		*ci = old;
		return err;
	}
	core->ops->qhash(core, &old, true, false, NULL);
	return 1;
}

/**
 * irdma_cm_retag_listeners - the port's classes changed: retag SYN filters
 * @core: CM core
 *
 * A port that sorts frames into classes by 802.1p priority has untagged
 * traffic carry VLAN 0 (irdma_cm_hw_ops.prio_tag); a traffic-class change
 * can start or end that. The listeners' SYN filters on addresses with no
 * VLAN of their own follow, so that a peer's SYN, tagged or not as the
 * port now wants, still reaches a listener made before the change.
 * Connections already made keep their tag.
 *
 * Context: process context, after the change; sleeps while the engine
 * takes the new filters.
 */
void irdma_cm_retag_listeners(struct irdma_cm_core *core)
{
	struct irdma_cm_listen_child *child;
	atomic_t refused = ATOMIC_INIT(0);
	struct irdma_cm_listener *l;
	unsigned long flags;
	int n = 0, unposted = 0, r;
	atomic_t *verdict;

	/* the engine's verdicts come only to a caller that waits for them */
	verdict = core->ops->sync ? &refused : NULL;
	spin_lock_irqsave(&core->listen_lock, flags);
	list_for_each_entry(l, &core->listen_list, list) {
		if (l->state != IRDMA_CM_LISTENER_ACTIVE)
			continue;
		if (l->qhash_set) {
			r = irdma_cm_retag_filter(core, &l->ci, l->dev_vlan,
						  l->ci.tos, verdict);
			n += r > 0;
			unposted += r < 0;
		}
		list_for_each_entry(child, &l->children, list) {
			r = irdma_cm_retag_filter(core, &child->ci,
						  child->dev_vlan, l->ci.tos,
						  verdict);
			n += r > 0;
			unposted += r < 0;
		}
	}
	spin_unlock_irqrestore(&core->listen_lock, flags);
	if (n && core->ops->sync)
		core->ops->sync(core);
	if (unposted || atomic_read(&refused))
		ibdev_warn(&core->iwdev->ibdev,
			   "CM: %d SYN filters not retagged, %d refused: their listeners miss SYNs\n",
			   unposted, atomic_read(&refused));
	else if (n)
		cm_dbg(core, "%d SYN filters retagged\n", n);
}

/* ---------------------------------------------------------------------- */
/* Core setup                                                             */

static void irdma_cm_default_config(struct irdma_cm_config *cfg)
{
	cfg->mtu = ETH_DATA_LEN;
	cfg->mpa_rev = 2;
	cfg->crc = true;
	cfg->p2p = true;
	cfg->rtr_offer = IRDMA_MPA_ORD_WRITE0 | IRDMA_MPA_ORD_READ0;
	cfg->rtr_pref = IRDMA_CM_RDMA0_WRITE;
	cfg->rcv_wnd = IRDMA_CM_DEFAULT_RCV_WND;
	cfg->rcv_wscale = IRDMA_CM_DEFAULT_RCV_WSCALE;
	cfg->max_ird = 64;
	cfg->max_ord = 64;
	cfg->retrans_max = IRDMA_CM_DEFAULT_RETRANS_MAX;
	cfg->mpa_reply_wait_ms = IRDMA_CM_MPA_REPLY_WAIT_MS;
	cfg->mpa_req_wait_ms = IRDMA_CM_MPA_REQ_WAIT_MS;
	cfg->v1_fallback = true;
}

/**
 * irdma_setup_cm_core - initialise the CM core of a device
 * @iwdev: device owning the core
 * @ops: hardware ops (kept by reference)
 * @ops_priv: private pointer for @ops
 *
 * The policy in cm_core.cfg gets defaults the caller may change before the
 * first listen or connect.
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_setup_cm_core(struct irdma_device *iwdev,
			const struct irdma_cm_hw_ops *ops, void *ops_priv)
{
	struct irdma_cm_core *core = &iwdev->cm_core;
	int i;

	memset(core, 0, sizeof(*core));
	core->iwdev = iwdev;
	core->ops = ops;
	core->ops_priv = ops_priv;
	core->clk = &irdma_cm_jiffies_clock;
	irdma_cm_default_config(&core->cfg);
	spin_lock_init(&core->ht_lock);
	spin_lock_init(&core->listen_lock);
	spin_lock_init(&core->apbvt_lock);
	spin_lock_init(&core->timer_lock);
	hash_init(core->conn_ht);
	hash_init(core->apbvt_ht);
	INIT_LIST_HEAD(&core->listen_list);
	INIT_LIST_HEAD(&core->timer_nodes);
	for (i = 0; i < IRDMA_CM_STAT_COUNT; i++)
		atomic64_set(&core->stats[i], 0);
	timer_setup(&core->tcp_timer, irdma_cm_timer_fn, 0);
	xa_init_flags(&core->requests, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	core->event_wq = alloc_ordered_workqueue("irdma-cm", WQ_MEM_RECLAIM);
	if (!core->event_wq)
		return -ENOMEM;
	core->quiesced = false;
	core->ready = true;
	return 0;
}

/* Drop every remaining timer entry (the nodes' TCP is abandoned). */
static void irdma_cm_flush_timers(struct irdma_cm_core *core)
{
	struct irdma_cm_node *nodes[IRDMA_CM_COLLECT_MAX];
	unsigned long flags;
	int i, n;

	do {
		n = irdma_timer_list_prep(core, nodes, irdma_cm_now(core) +
					  MAX_JIFFY_OFFSET / 2);
		for (i = 0; i < n; i++) {
			spin_lock_irqsave(&nodes[i]->lock, flags);
			irdma_cm_tmr(nodes[i], IRDMA_CM_TMR_CLOSE, false, 0);
			irdma_cm_free_tcp(nodes[i]);
			irdma_cm_node_unlock(nodes[i], flags);
			irdma_rem_ref_cm_node(nodes[i]);
		}
	} while (n);
}

/* an active open whose CONNECT_REPLY iw_cm still waits for */
static bool irdma_cm_match_connecting(struct irdma_cm_node *node,
				      const void *arg)
{
	return node->active && irdma_cm_state_opening(READ_ONCE(node->state));
}

/**
 * irdma_cm_quiesce - end the connects in progress of a device that is leaving
 * @core: CM core
 *
 * ib_unregister_device() waits until rdma_cm's users have destroyed their
 * ids, and iw_cm's destroy of an id waits for the CONNECT_REPLY of a
 * connect in progress. On a device that is leaving, that must not wait for
 * a peer or for a CM timer (an MPA reply, SYN retries): from here on no
 * node is made, so connects and SYNs find no way in, and connects in
 * progress end with ECONNRESET, their CONNECT_REPLY handed to iw_cm before
 * this returns. Connections already reported up and listeners are left to
 * their ULPs, which rdma_cm tells of the removal.
 *
 * Context: process context, before ib_unregister_device(); may sleep.
 */
void irdma_cm_quiesce(struct irdma_cm_core *core)
{
	struct irdma_cm_node *nodes[IRDMA_CM_COLLECT_MAX];
	unsigned long flags;
	int i, n, rounds = 0;

	if (!core->ready)
		return;
	spin_lock_irqsave(&core->ht_lock, flags);
	core->quiesced = true;
	spin_unlock_irqrestore(&core->ht_lock, flags);
	do {
		n = irdma_cm_collect(core, irdma_cm_match_connecting, NULL,
				     nodes);
		for (i = 0; i < n; i++) {
			irdma_cm_teardown_node(nodes[i], -ECONNRESET);
			irdma_rem_ref_cm_node(nodes[i]);
		}
	} while (n == IRDMA_CM_COLLECT_MAX && ++rounds < 1024);
	flush_workqueue(core->event_wq);
}

/**
 * irdma_cleanup_cm_core - stop the CM core of a device
 * @core: CM core
 *
 * Connections still present are aborted; iw_cm must have destroyed its
 * listeners before.
 */
void irdma_cleanup_cm_core(struct irdma_cm_core *core)
{
	if (!core->ready)
		return;
	irdma_cm_teardown_connections(core, NULL, false);
	flush_workqueue(core->event_wq);
	irdma_cm_reclaim_requests(core, NULL);
	irdma_cm_flush_timers(core);
	del_timer_sync(&core->tcp_timer);
	flush_workqueue(core->event_wq);
	destroy_workqueue(core->event_wq);
	core->event_wq = NULL;
	xa_destroy(&core->requests);
	core->ready = false;
	if (atomic_read(&core->node_cnt) || atomic_read(&core->listener_cnt))
		ibdev_warn(&core->iwdev->ibdev,
			   "CM: %d nodes and %d listeners left at cleanup\n",
			   atomic_read(&core->node_cnt),
			   atomic_read(&core->listener_cnt));
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/cm_frame_test.c"
#include "kunit/cm_script_test.c"
#include "kunit/cm_wire_test.c"
#include "kunit/cm_fuzz_test.c"
#endif
