// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the hardware side of the iWARP connection manager, and the
 * address and neighbour notifiers that feed it and the ARP cache.
 *
 * cm.c reaches the engine only through struct irdma_cm_hw_ops. Here those
 * ops become CQP commands: steering filters (MANAGE_QHASH), accelerated
 * ports (MANAGE_APBVT), ARP cache entries (MANAGE_ARP) and the address
 * handles of the CM's segments (CREATE_AH, DESTROY_AH). The CM calls them
 * with spinlocks held, so each one is posted without waiting
 * (irdma_cmd_req_submit()); the command workqueue keeps them in order.
 * Segments go out on the ILQ (ilq.c), which the CM's setup brings up
 * first and its cleanup takes down last, and come in from it.
 *
 * The CM holds the QP of a connection with a reference of its own
 * (qp_lookup, qp_put; see irdma_qp_get()), apart from iw_cm's, and links
 * its node to it (qp_link), so that the QP's AEs and its destroy reach
 * the connection. The lookup refuses a QP the caller may not connect
 * (irdma_qp_cm_may_take()), and a QP has at most one connection.
 *
 * User QPs take connection WQEs too: qp.c maps the first quantum of their
 * pinned SQ for the write, and the LSMM's MPA reply gets an STag of the
 * QP's PD, for a user QP is not privileged. Once the QP is in RTS with
 * its TCP context, the connection's segments are the engine's.
 */
#include <linux/inetdevice.h>
#include <linux/if_vlan.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <net/ndisc.h>
#include <net/netevent.h>
#include <net/route.h>
#include <rdma/ib_addr.h>

#include "arp.h"
#include "hw.h"
#include "hw_defs.h"
#include "ilq.h"
#include "main.h"
#include "qp.h"

/* The TTL / hop limit of the CM's segments */
#define IRDMA_CM_HOP_LIMIT	64

/* An IPv6 address as the CM keeps it: host order words */
static void irdma_cm_ip6_to_host(u32 *dst, const struct in6_addr *a)
{
	int i;

	for (i = 0; i < 4; i++)
		dst[i] = ntohl(a->s6_addr32[i]);
}

static struct irdma_device *irdma_cm_hw_dev(struct irdma_cm_core *core)
{
	return core->ops_priv;
}

/*
 * Post a command for the CM without waiting; @end (if any) hears how it
 * ended, with the core as its context. irdma_cm_hw_cleanup() waits for
 * the requests before the core goes.
 */
static int irdma_cm_hw_post(struct irdma_cm_core *core,
			    int (*build)(__le64 *wqe, u8 valid, const void *arg),
			    const void *arg, size_t len, const char *name,
			    atomic_t *failed,
			    void (*end)(struct irdma_cmd_req *req, int ret))
{
	struct irdma_device *iwdev = irdma_cm_hw_dev(core);
	struct irdma_cmd_req *req;

	req = irdma_cmd_req_alloc(build, arg, len, name, GFP_ATOMIC);
	if (!req)
		return -ENOMEM;
	req->failed = failed;
	req->end = end;
	req->end_ctx = core;
	irdma_cmd_req_submit(iwdev->fn->hw, req);
	return 0;
}

static int irdma_cm_hw_xmit(struct irdma_cm_core *core,
			    struct irdma_cm_node *node, const void *frame,
			    u32 len)
{
	struct irdma_device *iwdev = irdma_cm_hw_dev(core);
	int ret;

	ret = irdma_ilq_xmit(iwdev->fn->hw, node->ah, frame, len);
	if (ret)
		ibdev_dbg(&iwdev->ibdev, "CM: %u byte segment not sent: %d\n",
			  len, ret);
	return ret;
}

/* Both ends of the connection are addresses of this function */
static bool irdma_cm_conn_local(const struct irdma_cm_info *ci)
{
	return ci->ipv4 ? ci->loc_addr[0] == ci->rem_addr[0] :
			  !memcmp(ci->loc_addr, ci->rem_addr,
				  sizeof(ci->loc_addr));
}

/* The headers the engine puts in front of the node's segments */
static void irdma_cm_ah_info(struct irdma_cm_core *core,
			     const struct irdma_cm_node *node,
			     struct irdma_cqp_ah_info *info)
{
	const struct irdma_cm_info *ci = &node->ci;

	memset(info, 0, sizeof(*info));
	/* word 0 carries our own MAC; the ARP entry gives the peer's */
	ether_addr_copy(info->mac, core->cfg.mac);
	memcpy(info->dest_addr, ci->rem_addr, sizeof(info->dest_addr));
	memcpy(info->src_addr, ci->loc_addr, sizeof(info->src_addr));
	info->ipv4 = ci->ipv4;
	info->arp_idx = node->arp_idx;
	info->tc = ci->tos;
	info->hop_limit = IRDMA_CM_HOP_LIMIT;
	/* to itself: the engine turns the frames around, not the wire */
	info->loopback = node->loopback;
	if (ci->vlan_id < VLAN_N_VID) {
		info->insert_vlan = true;
		info->vlan_tag = ci->vlan_id | ci->user_pri << VLAN_PRIO_SHIFT;
	}
}

static int irdma_cm_hw_ah_create(struct irdma_cm_core *core,
				 struct irdma_cm_node *node)
{
	struct irdma_device *iwdev = irdma_cm_hw_dev(core);
	struct irdma_cqp_ah_info info;
	struct irdma_ilq_ah *ah;

	/* gen1 ILQ frames carry their own headers: no AH */
	if (core->cfg.gen1)
		return 0;
	if (node->arp_idx < 0)
		return -EINVAL;
	irdma_cm_ah_info(core, node, &info);
	ah = irdma_ilq_ah_create(iwdev->fn->hw, &info);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	node->ah = ah;
	return 0;
}

static void irdma_cm_hw_ah_free(struct irdma_cm_core *core,
				struct irdma_cm_node *node)
{
	irdma_ilq_ah_put(node->ah);
}

/**
 * struct irdma_cm_conn_qhash - the add of a connection's 4-tuple filter
 * @qh: the command
 * @ci: the connection, told to the CM if the engine refuses the add
 */
struct irdma_cm_conn_qhash {
	struct irdma_cqp_qhash_info qh;
	struct irdma_cm_info ci;
};

static int irdma_cm_conn_qhash_build(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_cm_conn_qhash *c = arg;

	return irdma_cqpw_qhash(wqe, valid, &c->qh);
}

static void irdma_cm_conn_qhash_end(struct irdma_cmd_req *req, int ret)
{
	const struct irdma_cm_conn_qhash *c = req->cmd.arg;

	if (ret)
		irdma_cm_conn_refused(req->end_ctx, &c->ci, ret);
}

static int irdma_cm_hw_qhash(struct irdma_cm_core *core,
			     const struct irdma_cm_info *ci, bool syn, bool add,
			     atomic_t *failed)
{
	struct irdma_cm_conn_qhash c = {};
	struct irdma_cqp_qhash_info qh = {
		.loc_port = ci->loc_port,
		.qp_num = IRDMA_ILQ_QPN,
		.qs_handle = irdma_ilq_qs_handle(irdma_cm_hw_dev(core)->fn->hw),
		.ipv4 = ci->ipv4,
		.vlan_valid = ci->vlan_id < VLAN_N_VID,
		.entry_type = syn ? IRDMA_QHASH_TYPE_TCP_SYN :
				    IRDMA_QHASH_TYPE_TCP_ESTABLISHED,
		.manage = add ? IRDMA_QHASH_MANAGE_ADD :
				IRDMA_QHASH_MANAGE_DELETE,
	};

	if (qh.vlan_valid)
		qh.vlan_id = ci->vlan_id;
	ether_addr_copy(qh.mac, core->cfg.mac);
	memcpy(qh.loc_addr, ci->loc_addr, sizeof(qh.loc_addr));
	if (!syn) {
		memcpy(qh.rem_addr, ci->rem_addr, sizeof(qh.rem_addr));
		qh.rem_port = ci->rem_port;
	}
	if (!syn && add) {
		c.qh = qh;
		c.ci = *ci;
		return irdma_cm_hw_post(core, irdma_cm_conn_qhash_build, &c,
					sizeof(c), "MANAGE_QHASH add", failed,
					irdma_cm_conn_qhash_end);
	}
	return irdma_cm_hw_post(core, irdma_cqpw_qhash_cb, &qh, sizeof(qh),
				add ? "MANAGE_QHASH add" : "MANAGE_QHASH delete",
				failed, NULL);
}

/**
 * struct irdma_cm_apbvt_cmd - argument of a MANAGE_APBVT command
 * @port: local TCP port
 * @add: open (true) or close the port
 * @tag: the CM's name for an add (irdma_cm_port_refused())
 */
struct irdma_cm_apbvt_cmd {
	u16 port;
	bool add;
	u32 tag;
};

static int irdma_cm_apbvt_build(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_cm_apbvt_cmd *a = arg;

	return irdma_cqpw_apbvt(wqe, valid, a->port, a->add);
}

static void irdma_cm_apbvt_end(struct irdma_cmd_req *req, int ret)
{
	const struct irdma_cm_apbvt_cmd *a = req->cmd.arg;

	if (ret && a->add)
		irdma_cm_port_refused(req->end_ctx, a->port, a->tag, ret);
}

static int irdma_cm_hw_apbvt(struct irdma_cm_core *core, u16 port, bool add,
			     u32 tag)
{
	struct irdma_cm_apbvt_cmd a = { .port = port, .add = add, .tag = tag };

	return irdma_cm_hw_post(core, irdma_cm_apbvt_build, &a, sizeof(a),
				add ? "MANAGE_APBVT add" : "MANAGE_APBVT delete",
				NULL, irdma_cm_apbvt_end);
}

static int irdma_cm_hw_arp_resolve(struct irdma_cm_core *core,
				   const struct irdma_cm_info *ci, u8 *mac,
				   bool have_mac)
{
	struct irdma_device *iwdev = irdma_cm_hw_dev(core);
	int err = 0;

	/*
	 * Both ends on this function: the route is local (its neighbour is
	 * the loopback device's, MAC zero), but the frames must carry the
	 * function's own MAC for the adapter's switch to turn them around.
	 */
	if (!have_mac && irdma_cm_conn_local(ci))
		ether_addr_copy(mac, core->netdev->dev_addr);
	else if (!have_mac && ci->ipv4)
		err = irdma_addr_resolve_neigh(core, ci->loc_addr[0],
					       ci->rem_addr[0], mac);
	else if (!have_mac)
		err = irdma_addr_resolve_neigh_ipv6(core, ci->loc_addr,
						    ci->rem_addr, ci->scope_id,
						    mac);
	if (err)
		return err;
	/* held by the node: a peer cannot fill the cache with its SYNs */
	return irdma_arp_get(iwdev, ci->rem_addr, ci->ipv4, mac);
}

static void irdma_cm_hw_arp_put(struct irdma_cm_core *core, int idx)
{
	irdma_arp_put(irdma_cm_hw_dev(core), idx);
}

/* The VLAN of the netdev owning @dev's address, if it is ours or above it */
static u16 irdma_cm_dev_vlan(struct irdma_cm_core *core, struct net_device *dev)
{
	struct net_device *real = rdma_vlan_dev_real_dev(dev);

	if (real == core->netdev)
		return vlan_dev_vlan_id(dev);
	return IRDMA_CM_NO_VLAN;
}

static u16 irdma_cm_hw_get_vlan(struct irdma_cm_core *core,
				const struct irdma_cm_info *ci)
{
	u16 vlan = IRDMA_CM_NO_VLAN;
	struct net_device *dev;

	rcu_read_lock();
	dev = irdma_cm_local_dev(core, ci);
	if (dev)
		vlan = irdma_cm_dev_vlan(core, dev);
	rcu_read_unlock();
	return vlan;
}

/*
 * A VLAN device tags a socket's frames through its egress map, from the
 * priority the socket's TOS gives it (rt_tos2priority()): the CM and the
 * offloaded connection tag theirs the same way, as rdma_cm does for RoCE.
 */
static u8 irdma_cm_hw_vlan_prio(struct irdma_cm_core *core,
				const struct irdma_cm_info *ci)
{
	struct net_device *dev;
	u16 tci = 0;

	rcu_read_lock();
	dev = irdma_cm_local_dev(core, ci);
	if (dev && irdma_cm_dev_vlan(core, dev) != IRDMA_CM_NO_VLAN)
		tci = vlan_dev_get_egress_qos_mask(dev,
						   rt_tos2priority(ci->tos));
	rcu_read_unlock();
	return (tci & VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT;
}

/*
 * An iWARP QP of this function that the caller may connect
 * (irdma_qp_cm_may_take()), held until irdma_cm_hw_qp_put()
 */
static void *irdma_cm_hw_qp_lookup(struct irdma_cm_core *core, u32 qpn)
{
	struct irdma_device *iwdev = irdma_cm_hw_dev(core);
	struct irdma_qp *qp;
	int ret;

	qp = irdma_qp_get(iwdev->fn->hw, qpn);
	if (!qp) {
		ibdev_dbg(&iwdev->ibdev, "CM: no QP %u\n", qpn);
		return ERR_PTR(-EINVAL);
	}
	ret = irdma_qp_cm_may_take(qp);
	if (ret) {
		irdma_qp_put(qp);
		ibdev_dbg(&iwdev->ibdev, "CM: QP %u refused to %s[%d]: %d\n",
			  qpn, current->comm, task_tgid_nr(current), ret);
		return ERR_PTR(ret);
	}
	return qp;
}

static void irdma_cm_hw_qp_put(struct irdma_cm_core *core, void *qp)
{
	irdma_qp_put(qp);
}

static void irdma_cm_hw_qp_hold(struct irdma_cm_core *core, void *qp)
{
	struct irdma_qp *iwqp = qp;

	refcount_inc(&iwqp->refs);
}

/* The QP's AEs go to @node (irdma_cm_disconn()) instead of @old */
static int irdma_cm_hw_qp_link(struct irdma_cm_core *core, void *qp,
			       struct irdma_cm_node *old,
			       struct irdma_cm_node *node)
{
	return irdma_qp_cm_link(qp, old, node);
}

/*
 * The QP hooks run in process context (cm.h); the QP is one qp_lookup
 * returned, held by the CM.
 */
static int irdma_cm_hw_qp_set_ctx(struct irdma_cm_core *core, void *qp,
				  const struct irdma_cm_tcp_ctx *ctx)
{
	return irdma_qp_iw_set_ctx(qp, ctx);
}

static int irdma_cm_hw_qp_post_lsmm(struct irdma_cm_core *core, void *qp,
				    const void *buf, u32 len)
{
	return irdma_qp_iw_post_lsmm(qp, buf, len);
}

static int irdma_cm_hw_qp_post_rtr(struct irdma_cm_core *core, void *qp,
				   enum irdma_cm_rdma0 op)
{
	if (op == IRDMA_CM_RDMA0_NONE)
		return irdma_qp_iw_post_nop(qp);
	if (op != IRDMA_CM_RDMA0_READ && op != IRDMA_CM_RDMA0_WRITE)
		return -EINVAL;
	return irdma_qp_iw_post_rtr(qp, op == IRDMA_CM_RDMA0_READ);
}

static int irdma_cm_hw_qp_to_rts(struct irdma_cm_core *core, void *qp)
{
	return irdma_qp_iw_to_rts(qp);
}

/* atomic: the move to ERR and the flush run on a workqueue */
static void irdma_cm_hw_qp_to_err(struct irdma_cm_core *core, void *qp)
{
	irdma_qp_async_err(qp);
}

static int irdma_cm_hw_qp_close(struct irdma_cm_core *core, void *qp)
{
	return irdma_qp_iw_close(qp);
}

static int irdma_cm_hw_prio_tag(struct irdma_cm_core *core, u8 tos)
{
	return irdma_qos_prio_tag(irdma_cm_hw_dev(core)->fn->hw, tos);
}

static void irdma_cm_hw_sync(struct irdma_cm_core *core)
{
	irdma_cmd_req_sync(irdma_cm_hw_dev(core)->fn->hw);
}

static const struct irdma_cm_hw_ops irdma_cm_cqp_ops = {
	.xmit = irdma_cm_hw_xmit,
	.qhash = irdma_cm_hw_qhash,
	.apbvt = irdma_cm_hw_apbvt,
	.sync = irdma_cm_hw_sync,
	.ah_create = irdma_cm_hw_ah_create,
	.ah_free = irdma_cm_hw_ah_free,
	.arp_resolve = irdma_cm_hw_arp_resolve,
	.arp_put = irdma_cm_hw_arp_put,
	.get_vlan = irdma_cm_hw_get_vlan,
	.vlan_prio = irdma_cm_hw_vlan_prio,
	.prio_tag = irdma_cm_hw_prio_tag,
	.qp_lookup = irdma_cm_hw_qp_lookup,
	.qp_put = irdma_cm_hw_qp_put,
	.qp_hold = irdma_cm_hw_qp_hold,
	.qp_link = irdma_cm_hw_qp_link,
	.qp_set_ctx = irdma_cm_hw_qp_set_ctx,
	.qp_post_lsmm = irdma_cm_hw_qp_post_lsmm,
	.qp_post_rtr = irdma_cm_hw_qp_post_rtr,
	.qp_to_rts = irdma_cm_hw_qp_to_rts,
	.qp_to_err = irdma_cm_hw_qp_to_err,
	.qp_close = irdma_cm_hw_qp_close,
};

/**
 * irdma_cm_hw_setup - start the ARP cache and, for iWARP, the ILQ, IEQ and CM
 * @iwdev: a device about to be registered; its engine is up
 *
 * Context: process context.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int irdma_cm_hw_setup(struct irdma_device *iwdev)
{
	struct net_device *netdev = iwdev->fn->netdev;
	struct irdma_cm_core *core = &iwdev->cm_core;
	int ret;

	ret = irdma_arp_cache_init(iwdev);
	if (ret)
		return ret;
	if (iwdev->fn->protocol != IRDMA_PROTOCOL_IWARP)
		return 0;
	ret = irdma_ilq_create(iwdev);
	if (ret)
		goto err_cleanup_arp;
	/*
	 * The IEQ's buffers hold a segment of the largest MTU the netdev
	 * allows (jumbo at most): the MTU may grow while the IEQ lives.
	 */
	ret = irdma_ieq_create(iwdev, clamp_t(u32, netdev->max_mtu,
					      READ_ONCE(netdev->mtu),
					      IRDMA_IEQ_MTU_MAX));
	if (ret)
		goto err_destroy_ilq;
	ret = irdma_setup_cm_core(iwdev, &irdma_cm_cqp_ops, iwdev);
	if (ret)
		goto err_destroy_ieq;
	core->netdev = netdev;
	core->cfg.mtu = READ_ONCE(netdev->mtu);
	core->cfg.max_ird = irdma_qp_offer_ird(iwdev->fn->gen);
	core->cfg.max_ord = irdma_qp_offer_ord(iwdev->fn->gen);
	core->cfg.gen1 = iwdev->fn->gen == IRDMA_GEN_1;
	ether_addr_copy(core->cfg.mac, netdev->dev_addr);
	irdma_ilq_attach(iwdev->fn->hw, core);
	return 0;

err_destroy_ieq:
	irdma_ieq_destroy(iwdev);
err_destroy_ilq:
	irdma_ilq_destroy(iwdev);
err_cleanup_arp:
	irdma_arp_cache_cleanup(iwdev);
	return ret;
}

/**
 * irdma_cm_hw_cleanup - undo irdma_cm_hw_setup()
 * @iwdev: the device, no longer registered (iw_cm destroyed its listens
 *	and no notifier can find it), its engine still up: the filters,
 *	ports, AHs and ARP entries removed here are deleted through the CQP
 *
 * The ILQ and IEQ stop delivering first, so nothing reaches the CM while
 * it is cleaned up; the ILQ still sends (the resets of aborted
 * connections) until it goes, after the CM and the IEQ.
 *
 * Context: process context.
 */
void irdma_cm_hw_cleanup(struct irdma_device *iwdev)
{
	if (iwdev->fn->protocol == IRDMA_PROTOCOL_IWARP) {
		irdma_ilq_attach(iwdev->fn->hw, NULL);
		/* the refusals of adds posted so far reach the CM before it goes */
		irdma_cmd_req_sync(iwdev->fn->hw);
		irdma_cleanup_cm_core(&iwdev->cm_core);
		irdma_ieq_destroy(iwdev);
		irdma_ilq_destroy(iwdev);
	}
	irdma_arp_cache_cleanup(iwdev);
}

/* ---- notifiers ---- */

/*
 * The registered device on @dev or below its VLAN, with a reference, or
 * NULL. The reference keeps the device registered, and so its ARP cache
 * and CM core alive (both are cleaned up only after unregistration, which
 * waits for every reference); the lookup itself is RCU inside the core,
 * so this works from any context.
 */
static struct irdma_device *irdma_notify_get(struct net_device *dev)
{
	struct net_device *real = rdma_vlan_dev_real_dev(dev);
	struct ib_device *ibdev;

	ibdev = irdma_ibdev_get_by_netdev(real ?: dev);
	return ibdev ? to_iwdev(ibdev) : NULL;
}

static void irdma_notify_put(struct irdma_device *iwdev)
{
	ib_device_put(&iwdev->ibdev);
}

/*
 * An address came or went on @dev, in any namespace: the notifiers are
 * global. It is the CM's if @dev is its netdev or a VLAN of it in the
 * netdev's namespace, whichever that is.
 */
static void irdma_notify_addr(struct net_device *dev, const u32 *addr,
			      bool ipv4, bool up)
{
	struct irdma_device *iwdev = irdma_notify_get(dev);
	bool ours;

	if (!iwdev)
		return;
	rcu_read_lock();
	ours = iwdev->fn->protocol == IRDMA_PROTOCOL_IWARP &&
	       irdma_cm_dev_is_ours(&iwdev->cm_core, dev);
	rcu_read_unlock();
	if (ours)
		irdma_if_notify(&iwdev->cm_core, addr, ipv4,
				irdma_cm_dev_vlan(&iwdev->cm_core, dev), up);
	irdma_notify_put(iwdev);
}

static int irdma_inetaddr_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct in_ifaddr *ifa = ptr;
	u32 addr = ntohl(ifa->ifa_address);

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		irdma_notify_addr(ifa->ifa_dev->dev, &addr, true,
				  event == NETDEV_UP);
	return NOTIFY_DONE;
}

static int irdma_inet6addr_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct inet6_ifaddr *ifa = ptr;
	u32 addr[4];

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	irdma_cm_ip6_to_host(addr, &ifa->addr);
	irdma_notify_addr(ifa->idev->dev, addr, false, event == NETDEV_UP);
	return NOTIFY_DONE;
}

/* A neighbour of one of our netdevs was resolved, changed or went stale */
static void irdma_neigh_update(struct neighbour *n)
{
	struct irdma_device *iwdev;
	u8 mac[ETH_ALEN];
	u32 addr[4] = {};
	bool ipv4;

	if (n->tbl->family == AF_INET)
		ipv4 = true;
	else if (n->tbl->family == AF_INET6)
		ipv4 = false;
	else
		return;
	/* multicast and broadcast next hops need no ARP entry */
	if (n->nud_state & NUD_NOARP)
		return;
	iwdev = irdma_notify_get(n->dev);
	if (!iwdev)
		return;
	if (ipv4)
		addr[0] = ntohl(*(const __be32 *)n->primary_key);
	else
		irdma_cm_ip6_to_host(addr, (const struct in6_addr *)n->primary_key);
	if (n->nud_state & NUD_VALID) {
		neigh_ha_snapshot(mac, n, n->dev);
		irdma_arp_add(iwdev, addr, ipv4, mac);
	} else {
		irdma_arp_del(iwdev, addr, ipv4);
	}
	irdma_notify_put(iwdev);
}

static int irdma_netevent(struct notifier_block *nb, unsigned long event,
			  void *ptr)
{
	if (event == NETEVENT_NEIGH_UPDATE)
		irdma_neigh_update(ptr);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_inetaddr_nb = {
	.notifier_call = irdma_inetaddr_event,
};

static struct notifier_block irdma_inet6addr_nb = {
	.notifier_call = irdma_inet6addr_event,
};

static struct notifier_block irdma_netevent_nb = {
	.notifier_call = irdma_netevent,
};

/**
 * irdma_addr_notifiers_register - follow addresses and neighbours
 *
 * Registered once for the module; each event finds its device by netdev.
 *
 * Return: 0 or a negative errno, with nothing registered.
 */
int irdma_addr_notifiers_register(void)
{
	int ret;

	ret = register_inetaddr_notifier(&irdma_inetaddr_nb);
	if (ret)
		return ret;
	ret = register_inet6addr_notifier(&irdma_inet6addr_nb);
	if (ret)
		goto err_unregister_inet;
	ret = register_netevent_notifier(&irdma_netevent_nb);
	if (ret)
		goto err_unregister_inet6;
	return 0;

err_unregister_inet6:
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
err_unregister_inet:
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
	return ret;
}

/**
 * irdma_addr_notifiers_unregister - undo irdma_addr_notifiers_register()
 */
void irdma_addr_notifiers_unregister(void)
{
	unregister_netevent_notifier(&irdma_netevent_nb);
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
}
