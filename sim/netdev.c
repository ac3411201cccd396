// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the function's Ethernet netdev and the wire between a pair.
 *
 * Functions 2k and 2k+1 are wired back to back: a frame one transmits is
 * received by the other's netdev, in whatever namespace it is, like veth.
 * The wire is perfect unless a debugfs knob drops or delays frames. The
 * carrier is up while both ends exist.
 *
 * A unicast frame addressed to the function's own MAC never reaches the
 * wire: the adapter's internal switch turns it around to the function's
 * own receive path, where the qhash filters see it like any other frame
 * (a loopback rdma_cm connection needs this: its SYN goes to a listener of
 * the same function). Such frames are counted as looped, with the drop and
 * delay knobs applied as to any transmitted frame. The switch sits before
 * the port, so this works without a link: a function with no peer (no
 * carrier, so the stack's queue discipline drops what it is given) still
 * loops the frames its engine builds for itself.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>

#include "isim.h"

#define ISIM_DELAYQ_MAX		1024
#define ISIM_MAX_MTU		9000

/* skb->cb of a delayed frame: when it may go */
struct isim_delay_cb {
	unsigned long due;
};

static struct isim_func *isim_ndev_func(struct net_device *nd)
{
	return *(struct isim_func **)netdev_priv(nd);
}

/* the frame's destination is the function itself */
static bool isim_wire_to_self(struct isim_func *f, const struct sk_buff *skb)
{
	const struct ethhdr *eh = (const struct ethhdr *)skb->data;

	return skb_headlen(skb) >= ETH_HLEN &&
	       ether_addr_equal(eh->h_dest, f->netdev->dev_addr);
}

/*
 * A frame into @to's receive path. The adapter's filters see a frame
 * before the host does, and the netdev's rx_handler (ilq.c) stands in for
 * them; but the host hands a frame tagged with the VLAN of a VLAN device
 * to that device before any rx_handler of the netdev runs. Such a frame
 * is offered to the engine here, its tag taken out as the rx_handler
 * would find it, and put back in the skb's tag for the host otherwise.
 */
/* a received frame, data at its IP header: is it a TCP segment */
static bool isim_wire_is_tcp(struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return pskb_may_pull(skb, sizeof(struct iphdr)) &&
		       ip_hdr(skb)->protocol == IPPROTO_TCP;
	if (skb->protocol == htons(ETH_P_IPV6))
		return pskb_may_pull(skb, sizeof(struct ipv6hdr)) &&
		       ipv6_hdr(skb)->nexthdr == IPPROTO_TCP;
	return false;
}

static int isim_wire_rx(struct isim_func *to, struct sk_buff *skb)
{
	const struct vlan_ethhdr *veh = (const void *)skb->data;

	if ((to->netdev->flags & IFF_UP) &&
	    skb_headlen(skb) >= VLAN_ETH_HLEN &&
	    veh->h_vlan_proto == htons(ETH_P_8021Q) &&
	    (ntohs(veh->h_vlan_TCI) & VLAN_VID_MASK)) {
		skb->protocol = eth_type_trans(skb, to->netdev);
		skb = skb_vlan_untag(skb);
		if (!skb)
			return NET_RX_DROP;
		if (isim_wire_is_tcp(skb))
			atomic64_inc(&to->wire.vlan_tcp[skb_vlan_tag_get_prio(skb)]);
		if (isim_ilq_steer(to, skb))
			return NET_RX_SUCCESS;
		skb_push(skb, ETH_HLEN);
	}
	return dev_forward_skb(to->netdev, skb);
}

/* turn a frame around into the function's own receive path */
static void isim_wire_loop(struct isim_func *f, struct sk_buff *skb)
{
	if (isim_wire_rx(f, skb) == NET_RX_SUCCESS)
		atomic64_inc(&f->wire.looped);
	else
		atomic64_inc(&f->wire.dropped);
}

/* hand one frame to the peer, or back to the function; consumes @skb */
static void isim_wire_deliver(struct isim_func *f, struct sk_buff *skb)
{
	unsigned int len = skb->len;
	struct isim_func *peer;
	bool sent = false;

	if (isim_wire_to_self(f, skb)) {
		isim_wire_loop(f, skb);
		return;
	}
	rcu_read_lock();
	peer = rcu_dereference(f->wire.peer);
	if (!peer) {
		kfree_skb(skb);
	} else if (isim_wire_rx(peer, skb) == NET_RX_SUCCESS) {
		atomic64_inc(&peer->wire.rx_frames);
		atomic64_add(len, &peer->wire.rx_bytes);
		sent = true;
	}
	rcu_read_unlock();
	if (sent) {
		atomic64_inc(&f->wire.tx_frames);
		atomic64_add(len, &f->wire.tx_bytes);
	} else {
		atomic64_inc(&f->wire.dropped);
	}
}

static void isim_wire_delay_work(struct work_struct *work)
{
	struct isim_func *f = container_of(to_delayed_work(work),
					   struct isim_func, wire.delay_work);
	struct isim_delay_cb *cb;
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&f->wire.delayq))) {
		cb = (struct isim_delay_cb *)skb->cb;
		if (time_before(jiffies, cb->due)) {
			skb_queue_head(&f->wire.delayq, skb);
			queue_delayed_work(isim_wq, &f->wire.delay_work,
					   cb->due - jiffies);
			return;
		}
		isim_wire_deliver(f, skb);
	}
}

static void isim_wire_delay(struct isim_func *f, struct sk_buff *skb,
			    u32 ms)
{
	struct isim_delay_cb *cb = (struct isim_delay_cb *)skb->cb;

	if (skb_queue_len(&f->wire.delayq) >= ISIM_DELAYQ_MAX) {
		atomic64_inc(&f->wire.dropped);
		kfree_skb(skb);
		return;
	}
	cb->due = jiffies + msecs_to_jiffies(ms);
	skb_queue_tail(&f->wire.delayq, skb);
	queue_delayed_work(isim_wq, &f->wire.delay_work,
			   msecs_to_jiffies(ms));
}

/* a frame enters the switch: the knobs, then the wire or the loop */
static void isim_wire_xmit(struct isim_func *f, struct sk_buff *skb)
{
	u32 ms = READ_ONCE(f->faults.delay_ms);

	if (atomic_dec_if_positive(&f->faults.drop_frames) >= 0) {
		atomic64_inc(&f->wire.dropped);
		kfree_skb(skb);
	} else if (ms) {
		isim_wire_delay(f, skb, ms);
	} else {
		isim_wire_deliver(f, skb);
	}
}

static netdev_tx_t isim_ndo_xmit(struct sk_buff *skb, struct net_device *nd)
{
	isim_wire_xmit(isim_ndev_func(nd), skb);
	return NETDEV_TX_OK;
}

/**
 * isim_wire_engine_xmit - a frame the engine built, addressed to itself
 * @f: function, with a netdev
 * @skb: the frame, data at the Ethernet header
 *
 * Without a link the stack would drop a frame queued on the netdev; the
 * adapter's switch still turns a frame for the function's own MAC around.
 *
 * Return: true if @skb was consumed that way, false to send it normally.
 */
bool isim_wire_engine_xmit(struct isim_func *f, struct sk_buff *skb)
{
	if (netif_carrier_ok(f->netdev) || !isim_wire_to_self(f, skb))
		return false;
	skb->dev = f->netdev;
	isim_wire_xmit(f, skb);
	return true;
}

/**
 * isim_wire_engine_loop - a frame the engine built for itself, turned
 *	around inside the adapter
 * @f: function, with a netdev
 * @skb: the frame, data at the Ethernet header
 *
 * The adapter's switch turns such a frame around before the port; the
 * host has no part in it. So, unless something may look at it on the way
 * (a packet tap such as tcpdump, the drop and delay knobs) or it carries
 * a VLAN tag, it goes straight to the filters, without the netdev's queue
 * and the softirq of its receive path: the next pass, or this one, takes
 * it. A frame the filters leave to the host goes the usual way.
 *
 * Return: true if @skb was consumed that way, false to send it normally.
 */
bool isim_wire_engine_loop(struct isim_func *f, struct sk_buff *skb)
{
	const struct ethhdr *eh = (const struct ethhdr *)skb->data;
	bool took;

	if (!isim_wire_to_self(f, skb) || !(f->netdev->flags & IFF_UP) ||
	    eth_type_vlan(eh->h_proto) || dev_nit_active(f->netdev) ||
	    READ_ONCE(f->faults.delay_ms) ||
	    atomic_read(&f->faults.drop_frames) > 0)
		return false;
	skb->dev = f->netdev;
	skb->protocol = eth_type_trans(skb, f->netdev);
	/* the filters run in the receive softirq otherwise: its locking */
	local_bh_disable();
	took = isim_ilq_steer(f, skb);
	local_bh_enable();
	if (!took) {
		skb_push(skb, ETH_HLEN);
		return false;
	}
	atomic64_inc(&f->wire.looped);
	return true;
}

static void isim_ndo_stats(struct net_device *nd,
			   struct rtnl_link_stats64 *s)
{
	struct isim_func *f = isim_ndev_func(nd);

	s->tx_packets = atomic64_read(&f->wire.tx_frames);
	s->tx_bytes = atomic64_read(&f->wire.tx_bytes);
	s->rx_packets = atomic64_read(&f->wire.rx_frames);
	s->rx_bytes = atomic64_read(&f->wire.rx_bytes);
	s->tx_dropped = atomic64_read(&f->wire.dropped);
}

static const struct net_device_ops isim_ndo = {
	.ndo_start_xmit = isim_ndo_xmit,
	.ndo_get_stats64 = isim_ndo_stats,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

/* an E810 port as the RDMA core sees it: 100 Gb/s full duplex */
static int isim_get_link_ksettings(struct net_device *nd,
				   struct ethtool_link_ksettings *cmd)
{
	cmd->base.speed = SPEED_100000;
	cmd->base.duplex = DUPLEX_FULL;
	cmd->base.port = PORT_DA;
	cmd->base.autoneg = AUTONEG_DISABLE;
	return 0;
}

static const struct ethtool_ops isim_ethtool_ops = {
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = isim_get_link_ksettings,
};

static void isim_ndev_setup(struct net_device *nd)
{
	ether_setup(nd);
	nd->netdev_ops = &isim_ndo;
	nd->ethtool_ops = &isim_ethtool_ops;
	nd->needs_free_netdev = false;
	nd->min_mtu = ETH_MIN_MTU;
	nd->max_mtu = ISIM_MAX_MTU;
	nd->priv_flags |= IFF_LIVE_ADDR_CHANGE;
}

/**
 * isim_netdev_init - create and register the function's netdev
 * @f: function
 *
 * The netdev is named isim<ID> and has the locally administered MAC
 * address 02:00:49:53:00:<ID>.
 *
 * Return: 0 or a negative errno.
 */
int isim_netdev_init(struct isim_func *f)
{
	u8 mac[ETH_ALEN] = { 0x02, 0x00, 0x49, 0x53, 0x00, f->id };
	char name[IFNAMSIZ];
	struct net_device *nd;
	int err;

	skb_queue_head_init(&f->wire.delayq);
	INIT_DELAYED_WORK(&f->wire.delay_work, isim_wire_delay_work);
	snprintf(name, sizeof(name), "isim%u", f->id);
	nd = alloc_netdev(sizeof(f), name, NET_NAME_PREDICTABLE,
			  isim_ndev_setup);
	if (!nd)
		return -ENOMEM;
	*(struct isim_func **)netdev_priv(nd) = f;
	eth_hw_addr_set(nd, mac);
	/* under the PCI function, as ice's netdev is, when there is one */
	SET_NETDEV_DEV(nd, isim_win_pdev(f) ? &isim_win_pdev(f)->dev : &f->dev);
	netif_carrier_off(nd);
	err = register_netdev(nd);
	if (err)
		goto err_free;
	/* received frames pass the engine's steering filters first */
	rtnl_lock();
	err = netdev_rx_handler_register(nd, isim_ilq_rx_handler, f);
	rtnl_unlock();
	if (err)
		goto err_unregister;
	f->netdev = nd;
	return 0;

err_unregister:
	unregister_netdev(nd);
err_free:
	free_netdev(nd);
	return err;
}

/**
 * isim_netdev_exit - unregister and free the netdev
 * @f: function, already unlinked from its peer
 */
void isim_netdev_exit(struct isim_func *f)
{
	rtnl_lock();
	netdev_rx_handler_unregister(f->netdev);
	rtnl_unlock();
	unregister_netdev(f->netdev);
	/* no transmit can queue a delayed frame any more */
	cancel_delayed_work_sync(&f->wire.delay_work);
	skb_queue_purge(&f->wire.delayq);
	free_netdev(f->netdev);
	f->netdev = NULL;
}

/**
 * isim_wire_link - connect a new function to its pair, if it exists
 * @f: function
 *
 * Caller holds isim_bus_lock.
 */
void isim_wire_link(struct isim_func *f)
{
	struct isim_func *peer = isim_func_lookup(f->id ^ 1);

	lockdep_assert_held(&isim_bus_lock);
	if (!peer)
		return;
	rcu_assign_pointer(f->wire.peer, peer);
	rcu_assign_pointer(peer->wire.peer, f);
	netif_carrier_on(f->netdev);
	netif_carrier_on(peer->netdev);
}

/**
 * isim_wire_unlink - disconnect a function from its pair
 * @f: function
 *
 * On return neither end transmits to the other any more. Caller holds
 * isim_bus_lock.
 */
void isim_wire_unlink(struct isim_func *f)
{
	struct isim_func *peer;

	peer = rcu_dereference_protected(f->wire.peer,
					 lockdep_is_held(&isim_bus_lock));
	if (!peer)
		return;
	RCU_INIT_POINTER(peer->wire.peer, NULL);
	RCU_INIT_POINTER(f->wire.peer, NULL);
	netif_carrier_off(peer->netdev);
	netif_carrier_off(f->netdev);
	synchronize_net();
}
