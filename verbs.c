// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the RDMA device a running function registers, and its verbs.
 *
 * Device, port, GID and P_Key queries, the port's immutable data, its
 * netdev, protection domains, and the user contexts through which
 * rdma-core's libirdma opens the device (with the doorbell page it maps and
 * the PD it allocates at once) live here; kernel CQs and QPs in cq.c and
 * qp.c, MRs and MWs in mr.c; the iWARP connection verbs in cm.c, which
 * iw_cm hands QPs to through the QP references below. iWARP functions
 * register an RNIC, RoCEv2 functions an IB CA with a RoCEv2 port, whose
 * QP1 the MAD layer creates at registration.
 */
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/rtnetlink.h>
#include <linux/vmalloc.h>
#include <asm/unaligned.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/iw_cm.h>

#include "main.h"
#include "hw.h"
#include "ilq.h"
#include "mr.h"
#include "qp.h"
#include "uring.h"

/* Limits the engine has whatever the HMC profile */
#define IRDMA_VERBS_MAX_PDS		262144
/* AH indexes are 17 bits; index 0 is not handed out */
#define IRDMA_VERBS_MAX_AH		(BIT(17) - 1)
#define IRDMA_VERBS_MAX_CQE		1048574
/* SQ of 32768 quanta, a WR takes up to 8 */
#define IRDMA_VERBS_MAX_QP_WR		4095
#define IRDMA_VERBS_MAX_MR_SIZE		0x200000000000ULL
#define IRDMA_VERBS_MAX_MSG		0x7fffffff
#define IRDMA_VERBS_VENDOR_INTEL	0x8086
/* feature_flags of the user context: CQs can be resized (libirdma's bit) */
#define IRDMA_UCTX_FEATURE_CQ_RESIZE	BIT_ULL(1)
/* Work queue sizes in quanta: gen2 SQ and RQ, gen1 SQ, gen1 RQ */
#define IRDMA_VERBS_MAX_WQ_QUANTA	32768
#define IRDMA_VERBS_MAX_SQ_QUANTA_G1	2048
#define IRDMA_VERBS_MAX_RQ_QUANTA_G1	16384
/* smallest CQ a user may ask for; libirdma rounds up to what hw takes */
#define IRDMA_VERBS_MIN_CQE		1

/* user context ABI: request without comp_mask (rdma-core before it) */
#define IRDMA_UCTX_REQ_LEN_V0 \
	offsetofend(struct irdma_alloc_ucontext_req, rsvd8)
/* the response libi40iw reads, which we do not serve */
#define IRDMA_UCTX_RESP_LEN_I40IW \
	offsetofend(struct irdma_alloc_ucontext_resp, rsvd)
/* the response up to hw_rev, which libirdma needs */
#define IRDMA_UCTX_RESP_LEN_MIN \
	offsetofend(struct irdma_alloc_ucontext_resp, rsvd2)
/* RoCEv2: GID table entries the core keeps for the port */
#define IRDMA_VERBS_ROCE_GIDS		32

/**
 * struct irdma_pd - a protection domain
 * @ibpd: the core's PD; first, for INIT_RDMA_OBJ_SIZE
 * @pd_id: hardware PD number, from the device's PD allocator
 */
struct irdma_pd {
	struct ib_pd ibpd;
	u32 pd_id;
};

/**
 * enum irdma_mmap_kind - what a user mmap entry maps
 * @IRDMA_MMAP_DB: the function's user doorbell page
 */
enum irdma_mmap_kind {
	IRDMA_MMAP_DB,
};

/**
 * struct irdma_mmap_entry - a page a user context may map
 * @rdma: the core's entry; its offset is the key user space passes to mmap
 * @kind: what the page is
 */
struct irdma_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	enum irdma_mmap_kind kind;
};

static struct irdma_device *to_irdma_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct irdma_device, ibdev);
}

/* SGEs of an RDMA read: one on gen1, as many as any WQE has on gen2 */
static u32 irdma_verbs_read_sges(enum irdma_hw_gen gen)
{
	return gen == IRDMA_GEN_1 ? 1 : IRDMA_UK_MAX_FRAGS;
}

static bool irdma_is_roce(struct ib_device *ibdev)
{
	return to_irdma_dev(ibdev)->fn->protocol == IRDMA_PROTOCOL_ROCEV2;
}

static void irdma_fill_guid(const struct irdma_device *iwdev, __be64 *guid)
{
	memset(guid, 0, sizeof(*guid));
	addrconf_addr_eui48((u8 *)guid, iwdev->fn->netdev->dev_addr);
}

/*
 * The largest AH index: an AH lives in one of the HMC's FSIAV contexts,
 * of which the profile committed a count; index 0 is not handed out.
 */
static u32 irdma_ah_max(const struct irdma_device *iwdev)
{
	u32 n = iwdev->fn->hw->hmc.obj[IRDMA_HMC_FSIAV].cnt;

	return n ? min_t(u32, n - 1, IRDMA_VERBS_MAX_AH) : 0;
}

static int irdma_query_device(struct ib_device *ibdev,
			      struct ib_device_attr *props,
			      struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_irdma_dev(ibdev);
	const struct irdma_hmc_obj_info *o = iwdev->fn->hw->hmc.obj;
	struct device *dma = iwdev->fn->dma_dev;

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(props, 0, sizeof(*props));
	irdma_fill_guid(iwdev, &props->sys_image_guid);
	props->vendor_id = IRDMA_VERBS_VENDOR_INTEL;
	if (dev_is_pci(dma)) {
		props->vendor_part_id = to_pci_dev(dma)->device;
		props->hw_ver = to_pci_dev(dma)->revision;
	}
	props->page_size_cap = irdma_mr_page_sizes(iwdev->fn->gen);
	props->max_mr_size = IRDMA_VERBS_MAX_MR_SIZE;
	props->max_qp = o[IRDMA_HMC_QP].cnt;
	props->max_qp_wr = IRDMA_VERBS_MAX_QP_WR;
	props->max_send_sge = iwdev->fn->gen == IRDMA_GEN_1 ?
			      IRDMA_UK_MAX_FRAGS_G1 : IRDMA_UK_MAX_FRAGS;
	props->max_recv_sge = props->max_send_sge;
	props->max_sge_rd = irdma_verbs_read_sges(iwdev->fn->gen);
	props->max_cq = o[IRDMA_HMC_CQ].cnt;
	/*
	 * A ring holds at most IRDMA_VERBS_MAX_CQE entries; libirdma gives a
	 * CQ of N CQEs a ring of N + 1, and of 2 * (N + 1) on gen2 (room for
	 * the immediate data of each completion): advertise what it can make.
	 */
	props->max_cqe = iwdev->fn->gen == IRDMA_GEN_1 ?
			 IRDMA_VERBS_MAX_CQE - 1 : IRDMA_VERBS_MAX_CQE / 2 - 1;
	props->max_mr = o[IRDMA_HMC_MR].cnt;
	props->max_mw = o[IRDMA_HMC_MR].cnt;
	props->max_pd = IRDMA_VERBS_MAX_PDS;
	if (iwdev->fn->protocol == IRDMA_PROTOCOL_ROCEV2) {
		props->max_ah = irdma_ah_max(iwdev);
		/* UD QPs join groups of the engine's multicast contexts */
		props->max_mcast_grp = o[IRDMA_HMC_FSIMC].cnt;
		props->max_mcast_qp_attach = IRDMA_MCG_MAX_QPS;
		props->max_total_mcast_qp_attach = props->max_mcast_grp *
						   IRDMA_MCG_MAX_QPS;
	}
	/* RoCEv2: the port's P_Key table of one entry (irdma_query_port()) */
	if (irdma_is_roce(ibdev))
		props->max_pkeys = 1;
	props->max_qp_rd_atom = irdma_qp_offer_ird(iwdev->fn->gen);
	props->max_qp_init_rd_atom = irdma_qp_offer_ord(iwdev->fn->gen);
	props->max_fast_reg_page_list_len = IRDMA_PBLE_PER_PAGE;
	/* type 2 windows exist too, but libirdma binds only type 1 */
	props->device_cap_flags = IB_DEVICE_MEM_WINDOW |
				  IB_DEVICE_MEM_MGT_EXTENSIONS;
	/* kernel QPs are privileged: lkey 0 addresses DMA memory directly */
	props->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	return 0;
}

/* Port state follows the netdev: usable only while it runs with a carrier. */
static void irdma_port_link(const struct net_device *netdev,
			    struct ib_port_attr *props)
{
	bool up = netif_running(netdev) && netif_carrier_ok(netdev);

	props->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	props->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				 IB_PORT_PHYS_STATE_DISABLED;
}

static int irdma_query_port(struct ib_device *ibdev, u32 port,
			    struct ib_port_attr *props)
{
	struct net_device *netdev = to_irdma_dev(ibdev)->fn->netdev;

	/* ib_query_port() passes @props zeroed: set what is not zero */
	props->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_REINIT_SUP;
	props->gid_tbl_len = 1;
	if (irdma_is_roce(ibdev)) {
		props->ip_gids = true;
		props->gid_tbl_len = IRDMA_VERBS_ROCE_GIDS;
		props->pkey_tbl_len = 1;
	}
	props->max_msg_sz = IRDMA_VERBS_MAX_MSG;
	irdma_port_link(netdev, props);
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = ib_mtu_int_to_enum(netdev->mtu);
	ib_get_eth_speed(ibdev, port, &props->active_speed,
			 &props->active_width);
	return 0;
}

static int irdma_get_port_immutable(struct ib_device *ibdev, u32 port,
				    struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int ret;

	ret = ib_query_port(ibdev, port, &attr);
	if (ret)
		return ret;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	if (irdma_is_roce(ibdev)) {
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
		immutable->pkey_tbl_len = attr.pkey_tbl_len;
		immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	}
	return 0;
}

/* Both protocols run over the function's Ethernet port */
static enum rdma_link_layer irdma_get_link_layer(struct ib_device *ibdev,
						 u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/*
 * RoCEv2: the core keeps the GID table from the netdev's addresses; the
 * engine needs no table of its own, a QP's context carries its addresses.
 */
static int irdma_add_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

static int irdma_del_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

/* iWARP: the one GID is the port's MAC address (RoCEv2 uses the cache) */
static int irdma_query_gid(struct ib_device *ibdev, u32 port, int index,
			   union ib_gid *gid)
{
	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	ether_addr_copy(gid->raw, to_irdma_dev(ibdev)->fn->netdev->dev_addr);
	return 0;
}

static int irdma_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			    u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static struct net_device *irdma_get_netdev(struct ib_device *ibdev, u32 port)
{
	struct net_device *netdev = to_irdma_dev(ibdev)->fn->netdev;

	dev_hold(netdev);
	return netdev;
}

static int irdma_upd_check(struct irdma_device *iwdev, struct ib_udata *udata)
{
	const char *why;
	int ret;

	if (udata->outlen < sizeof(struct irdma_alloc_pd_resp)) {
		ibdev_dbg(&iwdev->ibdev, "user PD: response of %zu bytes\n",
			  udata->outlen);
		return -EINVAL;
	}
	/* alloc_pd takes no driver request */
	ret = irdma_udata_req(udata, NULL, 0, &why);
	if (ret)
		ibdev_dbg(&iwdev->ibdev, "user PD refused (%s): %d\n", why,
			  ret);
	return ret;
}

static int irdma_upd_reply(struct irdma_device *iwdev, struct ib_udata *udata,
			   u32 pd_id)
{
	struct irdma_alloc_pd_resp resp = { .pd_id = pd_id };

	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

static int irdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_irdma_dev(ibpd->device);
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);
	int id, ret;

	if (udata) {
		ret = irdma_upd_check(iwdev, udata);
		if (ret)
			return ret;
	}
	id = ida_alloc_max(&iwdev->pd_ida, IRDMA_VERBS_MAX_PDS - 1,
			   GFP_KERNEL);
	if (id < 0)
		return id;
	pd->pd_id = id;
	if (udata) {
		ret = irdma_upd_reply(iwdev, udata, pd->pd_id);
		if (ret) {
			ida_free(&iwdev->pd_ida, pd->pd_id);
			return ret;
		}
	}
	return 0;
}

static int irdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_irdma_dev(ibpd->device);
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);

	ida_free(&iwdev->pd_ida, pd->pd_id);
	return 0;
}

/* ---- address handles (RoCEv2) ---- */

/* What CREATE_AH needs from the core's attributes; 0 or -EINVAL */
static int irdma_ah_info(struct irdma_device *iwdev, struct irdma_pd *pd,
			 const struct rdma_ah_attr *attr,
			 struct irdma_cqp_ah_info *info)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(attr);
	struct irdma_roce_av av;
	int idx;

	idx = irdma_roce_av_parse(iwdev->fn->hw, attr, &av);
	if (idx)
		return idx;
	memset(info, 0, sizeof(*info));
	ether_addr_copy(info->mac, av.smac);
	info->ipv4 = av.ipv4;
	memcpy(info->dest_addr, av.rem_addr, sizeof(info->dest_addr));
	memcpy(info->src_addr, av.loc_addr, sizeof(info->src_addr));
	info->insert_vlan = av.insert_vlan;
	info->vlan_tag = av.vlan_tag;
	info->pd_idx = pd->pd_id;
	info->tc = grh->traffic_class;
	info->hop_limit = grh->hop_limit;
	info->flow_label = grh->flow_label;
	/* the engine finds the next hop's MAC in its ARP cache; held */
	idx = irdma_arp_get(iwdev, info->dest_addr, info->ipv4,
			    attr->roce.dmac);
	if (idx < 0)
		return idx;
	info->arp_idx = idx;
	info->loopback = ether_addr_equal(attr->roce.dmac, info->mac);
	return 0;
}

/*
 * CREATE_AH and DESTROY_AH go through the ordered command queue even where
 * the caller may sleep: the MANAGE_ARP of the AH's next hop went that way
 * just before, and a DESTROY_AH must not overtake the CREATE_AH. The
 * MAD layer also makes AHs under spinlocks, where no command can be waited
 * for. The AH keeps its command's ticket: a UD send that names it before
 * the command has run is written to the SQ but held back until it has
 * (irdma_post_send()).
 */
static int irdma_ah_cmd(struct irdma_ah *ah, struct irdma_cqp_ah_info *info,
			gfp_t gfp)
{
	struct irdma_cmd_req *req;

	req = irdma_cmd_req_alloc(irdma_cqpw_ah_cb, info, sizeof(*info),
				  info->op == IRDMA_CQPOP_CREATE_AH ?
				  "CREATE_AH" : "DESTROY_AH", gfp);
	if (!req)
		return -ENOMEM;
	ah->ticket = irdma_cmd_req_submit(ah->hw, req);
	return 0;
}

/*
 * A user AH is named in WQEs that libirdma writes straight to the SQ, past
 * the held-back sends of irdma_post_send(): the engine must have it before
 * its index goes back. The commands queued before it (its next hop's
 * MANAGE_ARP, a DESTROY_AH of the same index) run first; then it is issued
 * and waited for, so that a refusal fails the verb.
 */
static int irdma_user_ah_cmd(struct irdma_ah *ah,
			     struct irdma_cqp_ah_info *info,
			     struct ib_udata *udata)
{
	struct irdma_create_ah_resp resp = { .ah_id = ah->idx };
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_ah_cb,
		.arg = info,
		.name = "CREATE_AH (user)",
	};
	int ret;

	flush_workqueue(ah->hw->cmd_wq);
	ret = irdma_cmd_exec(ah->hw, &cmd);
	if (ret)
		return ret;
	ret = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (ret) {
		info->op = IRDMA_CQPOP_DESTROY_AH;
		cmd.name = "DESTROY_AH (user)";
		irdma_cmd_exec(ah->hw, &cmd);
	}
	return ret;
}

static int irdma_create_ah(struct ib_ah *ibah,
			   struct rdma_ah_init_attr *init_attr,
			   struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_irdma_dev(ibah->device);
	struct irdma_pd *pd = container_of(ibah->pd, struct irdma_pd, ibpd);
	gfp_t gfp = init_attr->flags & RDMA_CREATE_AH_SLEEPABLE ?
		    GFP_KERNEL : GFP_ATOMIC;
	struct irdma_ah *ah = to_irdma_ah(ibah);
	struct irdma_cqp_ah_info info;
	const char *why;
	int idx, ret;

	/* a user AH takes no driver request; its reply is the index */
	if (udata) {
		ret = irdma_udata_req(udata, NULL, 0, &why);
		if (!ret && udata->outlen < sizeof(struct irdma_create_ah_resp)) {
			why = "response too short";
			ret = -EINVAL;
		}
		if (ret) {
			ibdev_dbg(ibah->device, "user AH refused (%s): %d\n",
				  why, ret);
			return ret;
		}
	}
	if (!irdma_ah_max(iwdev))
		return -ENOSPC;
	ret = irdma_ah_info(iwdev, pd, init_attr->ah_attr, &info);
	if (ret)
		return ret;
	ah->arp_idx = info.arp_idx;
	idx = ida_alloc_range(&iwdev->ah_ida, 1, irdma_ah_max(iwdev), gfp);
	if (idx < 0) {
		ret = idx;
		goto err_put_arp;
	}
	ah->hw = iwdev->fn->hw;
	ah->idx = idx;
	info.ah_idx = idx;
	info.op = IRDMA_CQPOP_CREATE_AH;
	if (udata) {
		/* ran already: nothing of a user AH is held back */
		ah->ticket = 0;
		ret = irdma_user_ah_cmd(ah, &info, udata);
	} else {
		ret = irdma_ah_cmd(ah, &info, gfp);
	}
	if (ret)
		goto err_free_idx;
	return 0;

err_free_idx:
	ida_free(&iwdev->ah_ida, idx);
err_put_arp:
	irdma_arp_put(iwdev, ah->arp_idx);
	return ret;
}

/*
 * A sleepable destroy runs DESTROY_AH and waits, behind the commands
 * queued before it. If the engine fails it, the context is still there:
 * the index and the ARP entry stay taken, so that no later CREATE_AH
 * meets it. A user AH then stays too, and the destroy fails (the core
 * keeps the AH); a kernel destroy may not fail, so its index is kept for
 * good. A destroy that may not sleep (the MAD layer's) queues DESTROY_AH
 * and frees the index at once: a later CREATE_AH of it runs after. No
 * destroy frees host memory the engine could reach: an AH context holds
 * addresses only.
 */
static int irdma_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct irdma_device *iwdev = to_irdma_dev(ibah->device);
	struct irdma_ah *ah = to_irdma_ah(ibah);
	struct irdma_cqp_ah_info info = {
		.ah_idx = ah->idx,
		.op = IRDMA_CQPOP_DESTROY_AH,
	};
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_ah_cb,
		.arg = &info,
		.name = "DESTROY_AH",
	};
	int ret;

	if (!(flags & RDMA_DESTROY_AH_SLEEPABLE)) {
		ret = irdma_ah_cmd(ah, &info, GFP_ATOMIC);
	} else {
		flush_workqueue(ah->hw->cmd_wq);
		ret = irdma_cmd_exec(ah->hw, &cmd);
		if (ret && irdma_hw_given_up(ah->hw))
			ret = 0;
	}
	if (ret) {
		ibdev_err_ratelimited(ibah->device, "AH %u: DESTROY_AH failed (%d); its index stays taken\n",
				      ah->idx, ret);
		return ibah->uobject ? ret : 0;
	}
	ida_free(&iwdev->ah_ida, ah->idx);
	irdma_arp_put(iwdev, ah->arp_idx);
	return 0;
}

/* ---- multicast groups of UD QPs (RoCEv2) ---- */

/**
 * struct irdma_mcg - a multicast group the engine delivers to
 * @node: in the device's list
 * @mgid: the group's GID (an IPv4-mapped or IPv6 multicast address)
 * @list: the member list the engine reads, IRDMA_MCG_MAX_QPS words
 * @qpn: the member QPs, @cnt of them
 * @idx: the group's index on the engine
 * @cnt: members
 */
struct irdma_mcg {
	struct list_head node;
	union ib_gid mgid;
	struct irdma_dma_mem list;
	u32 qpn[IRDMA_MCG_MAX_QPS];
	u32 idx;
	u8 cnt;
};

/* the group's IP and MAC from its GID; false if it is not multicast */
static bool irdma_mcg_addr(const union ib_gid *mgid,
			   struct irdma_cqp_mcg_info *info)
{
	const struct in6_addr *a6 = (const struct in6_addr *)mgid->raw;
	__be32 a4;

	info->ipv4 = ipv6_addr_v4mapped(a6);
	irdma_gid_to_addr(mgid, info->ipv4, info->addr);
	if (info->ipv4) {
		a4 = a6->s6_addr32[3];
		ip_eth_mc_map(a4, info->mac);
		return ipv4_is_multicast(a4);
	}
	ipv6_eth_mc_map(a6, info->mac);
	return ipv6_addr_is_multicast(a6);
}

/* Tell the engine the group's members with @op; 0 or a negative errno */
static int irdma_mcg_cmd(struct irdma_device *iwdev, struct irdma_mcg *mcg,
			 u8 op)
{
	struct irdma_cqp_mcg_info info = {
		.list_pa = mcg->list.pa,
		.idx = mcg->idx,
		.op = op,
	};
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_mcg_cb,
		.arg = &info,
		.name = op == IRDMA_CQPOP_CREATE_MCAST_GRP ? "CREATE_MCAST_GRP" :
			op == IRDMA_CQPOP_MODIFY_MCAST_GRP ? "MODIFY_MCAST_GRP" :
			"DESTROY_MCAST_GRP",
	};
	__le64 *list = mcg->list.va;
	int i;

	irdma_mcg_addr(&mcg->mgid, &info);
	memset(list, 0, IRDMA_MCG_MAX_QPS * sizeof(*list));
	for (i = 0; i < mcg->cnt; i++)
		list[i] = cpu_to_le64(FIELD_PREP(IRDMA_MCGE_QPID, mcg->qpn[i]) |
				      IRDMA_MCGE_VALID);
	return irdma_cmd_exec(iwdev->fn->hw, &cmd);
}

static void irdma_mcg_free(struct irdma_device *iwdev, struct irdma_mcg *mcg)
{
	irdma_dma_free(iwdev->fn->hw->dev, &mcg->list);
	ida_free(&iwdev->mcg_ida, mcg->idx);
	kfree(mcg);
}

/* A new group of one member, on the engine and in the list */
static int irdma_mcg_create(struct irdma_device *iwdev,
			    const union ib_gid *mgid, u32 qpn)
{
	u32 max = iwdev->fn->hw->hmc.obj[IRDMA_HMC_FSIMC].cnt;
	struct irdma_mcg *mcg;
	int idx, ret;

	if (!max)
		return -ENOSPC;
	idx = ida_alloc_max(&iwdev->mcg_ida, max - 1, GFP_KERNEL);
	if (idx < 0)
		return idx;
	mcg = kzalloc(sizeof(*mcg), GFP_KERNEL);
	if (!mcg) {
		ida_free(&iwdev->mcg_ida, idx);
		return -ENOMEM;
	}
	mcg->idx = idx;
	mcg->mgid = *mgid;
	mcg->qpn[0] = qpn;
	mcg->cnt = 1;
	ret = irdma_dma_alloc(iwdev->fn->hw->dev, &mcg->list,
			      IRDMA_MCG_MAX_QPS * sizeof(__le64)) ? -ENOMEM :
	      irdma_mcg_cmd(iwdev, mcg, IRDMA_CQPOP_CREATE_MCAST_GRP);
	if (ret) {
		irdma_mcg_free(iwdev, mcg);
		return ret;
	}
	list_add_tail(&mcg->node, &iwdev->mcgs);
	return 0;
}

static struct irdma_mcg *irdma_mcg_find(struct irdma_device *iwdev,
					const union ib_gid *mgid)
{
	struct irdma_mcg *mcg;

	list_for_each_entry(mcg, &iwdev->mcgs, node)
		if (!memcmp(&mcg->mgid, mgid, sizeof(*mgid)))
			return mcg;
	return NULL;
}

/* the member slot of @qpn in @mcg, or -1 */
static int irdma_mcg_slot(const struct irdma_mcg *mcg, u32 qpn)
{
	int i;

	for (i = 0; i < mcg->cnt; i++)
		if (mcg->qpn[i] == qpn)
			return i;
	return -1;
}

/*
 * Only UD QPs join groups (the IB spec), and only multicast GIDs name
 * them. The first member creates the group on the engine, later ones
 * modify its member list; attaching a member twice changes nothing.
 */
static int irdma_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct irdma_device *iwdev = to_irdma_dev(ibqp->device);
	struct irdma_cqp_mcg_info info;
	struct irdma_mcg *mcg;
	int ret = 0;

	if (ibqp->qp_type != IB_QPT_UD || !irdma_mcg_addr(gid, &info))
		return -EINVAL;
	mutex_lock(&iwdev->mcg_lock);
	mcg = irdma_mcg_find(iwdev, gid);
	if (!mcg) {
		ret = irdma_mcg_create(iwdev, gid, ibqp->qp_num);
	} else if (irdma_mcg_slot(mcg, ibqp->qp_num) < 0) {
		if (mcg->cnt == IRDMA_MCG_MAX_QPS) {
			ret = -ENOSPC;
		} else {
			mcg->qpn[mcg->cnt++] = ibqp->qp_num;
			ret = irdma_mcg_cmd(iwdev, mcg,
					    IRDMA_CQPOP_MODIFY_MCAST_GRP);
			if (ret)
				mcg->cnt--;
		}
	}
	mutex_unlock(&iwdev->mcg_lock);
	if (ret)
		ibdev_dbg(ibqp->device, "QP %u: attach to %pI6 failed: %d\n",
			  ibqp->qp_num, gid->raw, ret);
	return ret;
}

/* The last member leaving destroys the group on the engine */
static int irdma_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct irdma_device *iwdev = to_irdma_dev(ibqp->device);
	struct irdma_mcg *mcg;
	int ret = -EINVAL, slot;

	mutex_lock(&iwdev->mcg_lock);
	mcg = irdma_mcg_find(iwdev, gid);
	slot = mcg ? irdma_mcg_slot(mcg, ibqp->qp_num) : -1;
	if (slot >= 0) {
		swap(mcg->qpn[slot], mcg->qpn[mcg->cnt - 1]);
		mcg->cnt--;
		ret = irdma_mcg_cmd(iwdev, mcg, mcg->cnt ?
				    IRDMA_CQPOP_MODIFY_MCAST_GRP :
				    IRDMA_CQPOP_DESTROY_MCAST_GRP);
		if (ret) {
			/* the engine still delivers to it: so it stays */
			mcg->cnt++;
		} else if (!mcg->cnt) {
			list_del(&mcg->node);
			irdma_mcg_free(iwdev, mcg);
		}
	}
	mutex_unlock(&iwdev->mcg_lock);
	return ret;
}

/* Groups left when the device goes: the engine is going too */
static void irdma_mcg_cleanup(struct irdma_device *iwdev)
{
	struct irdma_mcg *mcg, *tmp;

	list_for_each_entry_safe(mcg, tmp, &iwdev->mcgs, node) {
		list_del(&mcg->node);
		irdma_mcg_free(iwdev, mcg);
	}
	ida_destroy(&iwdev->mcg_ida);
	mutex_destroy(&iwdev->mcg_lock);
}

/* ---- user contexts and the doorbell page mapping ---- */

/*
 * Pure helpers first (KUnit drives them directly): what the request may
 * look like, and what the response says.
 */

static int irdma_uctx_check(const struct irdma_alloc_ucontext_req *req,
			    size_t inlen, size_t outlen, const char **why)
{
	/* rdma-core before comp_mask sends the request without it */
	if (inlen != IRDMA_UCTX_REQ_LEN_V0 && inlen < sizeof(*req)) {
		*why = "request length";
		return -EINVAL;
	}
	if (outlen == IRDMA_UCTX_RESP_LEN_I40IW) {
		*why = "libi40iw response layout";
		return -EOPNOTSUPP;
	}
	if (outlen < IRDMA_UCTX_RESP_LEN_MIN) {
		*why = "response length";
		return -EINVAL;
	}
	if (req->userspace_ver != IRDMA_ABI_VER) {
		*why = "user ABI version";
		return -EINVAL;
	}
	if (req->rsvd32 || memchr_inv(req->rsvd8, 0, sizeof(req->rsvd8))) {
		*why = "reserved request bytes";
		return -EINVAL;
	}
	/* comp_mask lists what user space can do: bits we do not know are
	 * left out of the answer, not refused
	 */
	*why = NULL;
	return 0;
}

static void irdma_uctx_fill(enum irdma_hw_gen gen, u32 max_qps,
			    u64 req_mask, struct irdma_alloc_ucontext_resp *r)
{
	bool g1 = gen == IRDMA_GEN_1;

	memset(r, 0, sizeof(*r));
	r->max_pds = IRDMA_VERBS_MAX_PDS;
	r->max_qps = max_qps;
	r->kernel_ver = IRDMA_ABI_VER;
	r->max_hw_wq_frags = g1 ? IRDMA_UK_MAX_FRAGS_G1 : IRDMA_UK_MAX_FRAGS;
	r->max_hw_read_sges = irdma_verbs_read_sges(gen);
	r->max_hw_inline = g1 ? IRDMA_UK_MAX_INLINE_G1 : IRDMA_UK_MAX_INLINE;
	r->max_hw_rq_quanta = g1 ? IRDMA_VERBS_MAX_RQ_QUANTA_G1 :
				   IRDMA_VERBS_MAX_WQ_QUANTA;
	r->max_hw_wq_quanta = g1 ? IRDMA_VERBS_MAX_SQ_QUANTA_G1 :
				   IRDMA_VERBS_MAX_WQ_QUANTA;
	r->max_hw_sq_chunk = g1 ? IRDMA_UK_SQ_CHUNK_G1 : IRDMA_UK_SQ_CHUNK;
	r->min_hw_cq_size = IRDMA_VERBS_MIN_CQE;
	r->max_hw_cq_size = IRDMA_VERBS_MAX_CQE + 1;
	r->hw_rev = gen;
	/* gen2 moves a CQ to a new ring with MODIFY_CQ (irdma_resize_cq()) */
	r->feature_flags = g1 ? 0 : IRDMA_UCTX_FEATURE_CQ_RESIZE;
	r->comp_mask = req_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
}

/* the page user space maps, and how: uncached I/O or the RAM behind it */
static void irdma_db_pfn(const struct irdma_func *fn, unsigned long *pfn,
			 pgprot_t *prot)
{
	u32 off = fn->hw->regs->db_page;

	if (fn->regs_in_ram) {
		*pfn = vmalloc_to_pfn((__force const void *)(fn->hw_addr + off));
		return;
	}
	*pfn = PHYS_PFN(fn->hw_phys + off);
	*prot = pgprot_noncached(*prot);
}

static int irdma_uctx_db_entry(struct irdma_device *iwdev,
			       struct irdma_ucontext *uctx, u64 *key)
{
	struct irdma_mmap_entry *e;
	int ret;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->kind = IRDMA_MMAP_DB;
	ret = rdma_user_mmap_entry_insert(&uctx->ibuctx, &e->rdma, PAGE_SIZE);
	if (ret) {
		kfree(e);
		return ret;
	}
	uctx->db_entry = &e->rdma;
	*key = rdma_user_mmap_get_offset(&e->rdma);
	return 0;
}

static int irdma_alloc_ucontext(struct ib_ucontext *ibuctx,
				struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_irdma_dev(ibuctx->device);
	struct irdma_ucontext *uctx = to_irdma_uctx(ibuctx);
	struct irdma_alloc_ucontext_req req = {};
	struct irdma_alloc_ucontext_resp resp;
	const char *why;
	int ret;

	ret = irdma_udata_req(udata, &req, sizeof(req), &why) ?:
	      irdma_uctx_check(&req, udata->inlen, udata->outlen, &why);
	if (ret) {
		ibdev_dbg(&iwdev->ibdev,
			  "ucontext refused (%s): in %zu out %zu ver %u: %d\n",
			  why, udata->inlen, udata->outlen, req.userspace_ver,
			  ret);
		return ret;
	}
	irdma_uctx_fill(iwdev->fn->gen, iwdev->fn->hw->hmc.obj[IRDMA_HMC_QP].cnt,
			req.comp_mask, &resp);
	ret = irdma_uctx_db_entry(iwdev, uctx, &resp.db_mmap_key);
	if (ret)
		return ret;
	irdma_uring_uctx_init(uctx);
	uctx->raw_attrs = resp.comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
	ret = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (ret)
		goto err_remove_db;
	return 0;

err_remove_db:
	irdma_uring_uctx_fini(uctx);
	rdma_user_mmap_entry_remove(uctx->db_entry);
	return ret;
}

static void irdma_dealloc_ucontext(struct ib_ucontext *ibuctx)
{
	irdma_uring_uctx_fini(to_irdma_uctx(ibuctx));
	rdma_user_mmap_entry_remove(to_irdma_uctx(ibuctx)->db_entry);
}

/*
 * The device is going away under a process that still holds the context:
 * nothing of ours needs releasing early, the core revokes the mappings.
 */
static void irdma_disassociate_ucontext(struct ib_ucontext *ibuctx)
{
}

static void irdma_mmap_free(struct rdma_user_mmap_entry *rdma)
{
	kfree(container_of(rdma, struct irdma_mmap_entry, rdma));
}

/*
 * rdma_user_mmap_io() remaps by PFN for both kinds of register space, so
 * that the core can zap the mapping when the device is disassociated; the
 * simulator's page stays allocated until its function is gone, which is
 * after unregistration.
 */
static int irdma_mmap(struct ib_ucontext *ibuctx, struct vm_area_struct *vma)
{
	struct irdma_device *iwdev = to_irdma_dev(ibuctx->device);
	struct irdma_func *fn = iwdev->fn;
	struct rdma_user_mmap_entry *rdma;
	pgprot_t prot = vma->vm_page_prot;
	unsigned long pfn;
	int ret;

	rdma = rdma_user_mmap_entry_get(ibuctx, vma);
	if (!rdma) {
		ibdev_dbg(&iwdev->ibdev, "mmap: no entry at page %lu (%lu bytes)\n",
			  vma->vm_pgoff, vma->vm_end - vma->vm_start);
		return -EINVAL;
	}
	if (vma->vm_flags & VM_EXEC) {
		ret = -EPERM;
		goto out_put;
	}
	if (!fn->regs_in_ram && !fn->hw_phys) {
		ret = -EOPNOTSUPP;
		goto out_put;
	}
	irdma_db_pfn(fn, &pfn, &prot);
	ret = rdma_user_mmap_io(ibuctx, vma, pfn, PAGE_SIZE, prot, rdma);
out_put:
	if (ret)
		ibdev_dbg(&iwdev->ibdev, "mmap of the doorbell page: %d\n", ret);
	rdma_user_mmap_entry_put(rdma);
	return ret;
}

/**
 * irdma_pd_num - the hardware number of a PD
 * @ibpd: the PD
 *
 * Return: the number the PD was given at allocation.
 */
u32 irdma_pd_num(const struct ib_pd *ibpd)
{
	return container_of(ibpd, struct irdma_pd, ibpd)->pd_id;
}

/*
 * iWARP connections go to the CM (cm.c). iw_cm finds the QP of a connect
 * or accept with iw_get_qp and keeps it until iw_rem_ref (CLOSE, a failed
 * connect, or the id's destruction); a QP's destroy waits for that
 * (irdma_qp_unpublish()). The CM checks that the caller may use the QP
 * and holds a reference of its own (irdma_qp_cm_may_take()).
 */

/*
 * iw_cm's reference is taken here, where the QP is found: under RCU, and
 * only while the QP's count is not zero, so that a destroy that dropped
 * the table's reference already cannot be raced (irdma_qp_get()).
 * iw_cm calls iw_add_ref once right after, which therefore takes none:
 * the pair holds one reference, and iw_rem_ref drops it.
 */
static struct ib_qp *irdma_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	struct irdma_qp *qp;

	if (qpn < 0)
		return NULL;
	qp = irdma_qp_get(iwdev->fn->hw, qpn);
	if (qp && qp->hw_type != IRDMA_QPTYPE_IWARP) {
		irdma_qp_put(qp);
		qp = NULL;
	}
	return qp ? &qp->ibqp : NULL;
}

/* The reference of this pair was taken by irdma_iw_get_qp() */
static void irdma_iw_add_ref(struct ib_qp *ibqp)
{
}

static void irdma_iw_rem_ref(struct ib_qp *ibqp)
{
	irdma_qp_put(to_irdma_qp(ibqp));
}

/*
 * Port counters: the engine's (GATHER_STATS) and the scheduler set-up's
 * (qos.c), on every port; then, on an iWARP port, the connection
 * manager's (cm.c) and its ILQ's and IEQ's, the software half of the
 * adapter's TCP. "rdma statistic show link irdmaN/1" and the port's
 * hw_counters in sysfs show them.
 */
#define IRDMA_QOS_DESC(i)	(IRDMA_HWC_COUNT + (i))
#define IRDMA_PORT_COMMON	(IRDMA_HWC_COUNT + IRDMA_QOS_STAT_COUNT)
#define IRDMA_CM_DESC(i)	(IRDMA_PORT_COMMON + (i))
#define IRDMA_ILQ_DESC(i)	(IRDMA_CM_DESC(IRDMA_CM_STAT_COUNT) + (i))
#define IRDMA_IEQ_DESC(i)	(IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_COUNT) + (i))

static const struct rdma_stat_desc irdma_port_stat_descs[] = {
	[IRDMA_HWC_RX_VLAN_ERR].name = "rxVlanErrors",
	[IRDMA_HWC_IP4_RX_OCTETS].name = "ip4InOctets",
	[IRDMA_HWC_IP4_RX_PKTS].name = "ip4InPkts",
	[IRDMA_HWC_IP4_RX_TRUNC].name = "ip4InTruncatedPkts",
	[IRDMA_HWC_IP4_RX_DISCARD].name = "ip4InDiscards",
	[IRDMA_HWC_IP4_RX_FRAGS].name = "ip4InReasmRqd",
	[IRDMA_HWC_IP4_RX_MC_OCTETS].name = "ip4InMcastOctets",
	[IRDMA_HWC_IP4_RX_MC_PKTS].name = "ip4InMcastPkts",
	[IRDMA_HWC_IP6_RX_OCTETS].name = "ip6InOctets",
	[IRDMA_HWC_IP6_RX_PKTS].name = "ip6InPkts",
	[IRDMA_HWC_IP6_RX_TRUNC].name = "ip6InTruncatedPkts",
	[IRDMA_HWC_IP6_RX_DISCARD].name = "ip6InDiscards",
	[IRDMA_HWC_IP6_RX_FRAGS].name = "ip6InReasmRqd",
	[IRDMA_HWC_IP6_RX_MC_OCTETS].name = "ip6InMcastOctets",
	[IRDMA_HWC_IP6_RX_MC_PKTS].name = "ip6InMcastPkts",
	[IRDMA_HWC_IP4_TX_OCTETS].name = "ip4OutOctets",
	[IRDMA_HWC_IP4_TX_PKTS].name = "ip4OutPkts",
	[IRDMA_HWC_IP4_TX_FRAGS].name = "ip4OutSegRqd",
	[IRDMA_HWC_IP4_TX_MC_OCTETS].name = "ip4OutMcastOctets",
	[IRDMA_HWC_IP4_TX_MC_PKTS].name = "ip4OutMcastPkts",
	[IRDMA_HWC_IP6_TX_OCTETS].name = "ip6OutOctets",
	[IRDMA_HWC_IP6_TX_PKTS].name = "ip6OutPkts",
	[IRDMA_HWC_IP6_TX_FRAGS].name = "ip6OutSegRqd",
	[IRDMA_HWC_IP6_TX_MC_OCTETS].name = "ip6OutMcastOctets",
	[IRDMA_HWC_IP6_TX_MC_PKTS].name = "ip6OutMcastPkts",
	[IRDMA_HWC_IP6_TX_NO_ROUTE].name = "ip6OutNoRoutes",
	[IRDMA_HWC_IP4_TX_NO_ROUTE].name = "ip4OutNoRoutes",
	[IRDMA_HWC_TCP_RX_SEGS].name = "tcpInSegs",
	[IRDMA_HWC_TCP_RX_PROTO_ERR].name = "tcpInProtoErrors",
	[IRDMA_HWC_TCP_RX_OPT_ERR].name = "tcpInOptErrors",
	[IRDMA_HWC_TCP_TX_SEGS].name = "tcpOutSegs",
	[IRDMA_HWC_TCP_RTX_SEGS].name = "tcpRetransSegs",
	[IRDMA_HWC_UDP_RX].name = "RxUDP",
	[IRDMA_HWC_UDP_TX].name = "TxUDP",
	[IRDMA_HWC_RDMA_RX_WRITES].name = "iwInRdmaWrites",
	[IRDMA_HWC_RDMA_RX_READS].name = "iwInRdmaReads",
	[IRDMA_HWC_RDMA_RX_SENDS].name = "iwInRdmaSends",
	[IRDMA_HWC_RDMA_TX_WRITES].name = "iwOutRdmaWrites",
	[IRDMA_HWC_RDMA_TX_READS].name = "iwOutRdmaReads",
	[IRDMA_HWC_RDMA_TX_SENDS].name = "iwOutRdmaSends",
	[IRDMA_HWC_MW_BINDS].name = "iwRdmaBnd",
	[IRDMA_HWC_INVALIDATES].name = "iwRdmaInv",
	[IRDMA_HWC_RX_ECN_MARKED].name = "RxECNMrkd",
	[IRDMA_HWC_CNP_HANDLED].name = "cnpHandled",
	[IRDMA_HWC_CNP_IGNORED].name = "cnpIgnored",
	[IRDMA_HWC_CNP_SENT].name = "cnpSent",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_FRAMES_TX)].name = "cm_frames_tx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_TX_ERR)].name = "cm_tx_err",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_FRAMES_RX)].name = "cm_frames_rx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RX_DROPPED)].name = "cm_rx_dropped",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RX_MALFORMED)].name = "cm_rx_malformed",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RX_NO_NODE)].name = "cm_rx_no_node",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RX_BAD_SEQ)].name = "cm_rx_bad_seq",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RX_OFFLOADED)].name = "cm_rx_offloaded",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RETRANS)].name = "cm_retrans",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RETRANS_EXPIRED)].name = "cm_retrans_expired",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RST_TX)].name = "cm_rst_tx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_RST_RX)].name = "cm_rst_rx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_SYN_RX)].name = "cm_syn_rx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_BACKLOG_DROP)].name = "cm_backlog_drop",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_MPA_REQ_RX)].name = "cm_mpa_req_rx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_MPA_REP_RX)].name = "cm_mpa_rep_rx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_MPA_REJ_RX)].name = "cm_mpa_rej_rx",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_MPA_BAD)].name = "cm_mpa_bad",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_V1_FALLBACK)].name = "cm_mpa_v1_fallback",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_CONNECTS)].name = "cm_connects",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_CONNECT_ERR)].name = "cm_connect_err",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_ACCEPTS)].name = "cm_accepts",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_ACCEPT_ERR)].name = "cm_accept_err",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_REJECTS)].name = "cm_rejects",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_LISTENS)].name = "cm_listens",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_LISTEN_ERR)].name = "cm_listen_err",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_UPCALLS)].name = "cm_upcalls",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_UPCALL_ERR)].name = "cm_upcall_err",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_EVENTS_LOST)].name = "cm_events_lost",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_NODES_CREATED)].name = "cm_nodes_created",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_NODES_FREED)].name = "cm_nodes_freed",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_PDATA_TRUNCATED)].name = "cm_pdata_truncated",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_DISCONNECTS)].name = "cm_disconnects",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_CLOSE_TIMEOUTS)].name = "cm_close_timeouts",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_MPA_TIMEOUTS)].name = "cm_mpa_timeouts",
	[IRDMA_CM_DESC(IRDMA_CM_STAT_REQS_RECLAIMED)].name = "cm_reqs_reclaimed",
	[IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_RX)].name = "ilq_rx",
	[IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_RX_REFUSED)].name = "ilq_rx_refused",
	[IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_TX)].name = "ilq_tx",
	[IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_TX_NOBUF)].name = "ilq_tx_nobuf",
	[IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_TX_ERR)].name = "ilq_tx_err",
	[IRDMA_ILQ_DESC(IRDMA_ILQ_STAT_BAD_CQE)].name = "ilq_bad_cqe",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_EPISODES)].name = "ieq_episodes",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_SEGS)].name = "ieq_segs",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_FPDUS)].name = "ieq_fpdus",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_SENDS)].name = "ieq_sends",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_DUP)].name = "ieq_dup",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_GAP)].name = "ieq_gap",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_NO_CONN)].name = "ieq_no_conn",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_BAD_FPDU)].name = "ieq_bad_fpdu",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_NO_RES)].name = "ieq_no_res",
	[IRDMA_IEQ_DESC(IRDMA_IEQ_STAT_WAITS)].name = "ieq_waits",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_TC_CHANGES)].name = "qos_tc_changes",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_SUSPENDS)].name = "qos_suspends",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_SUSPEND_TIMEOUTS)].name = "qos_suspend_timeouts",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_RESUMES)].name = "qos_resumes",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_LOST)].name = "qos_lost",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_LEAVES)].name = "qos_leaves",
	[IRDMA_QOS_DESC(IRDMA_QOS_STAT_BUSY)].name = "qos_busy",
};

static_assert(ARRAY_SIZE(irdma_port_stat_descs) ==
	      IRDMA_PORT_COMMON + IRDMA_CM_STAT_COUNT + IRDMA_ILQ_STAT_COUNT +
	      IRDMA_IEQ_STAT_COUNT);

/*
 * The engine's own counters head the array. gen1 keeps them in registers
 * this driver does not read (no GATHER_STATS there), so its ports have the
 * driver's counters only: the array past that head.
 */
static bool irdma_port_has_engine_stats(const struct irdma_device *iwdev)
{
	return iwdev->fn->gen != IRDMA_GEN_1;
}

static struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						       u32 port)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	bool iwarp = iwdev->fn->protocol != IRDMA_PROTOCOL_ROCEV2;
	u32 skip = irdma_port_has_engine_stats(iwdev) ? 0 : IRDMA_HWC_COUNT;

	/* a RoCEv2 port has the common counters only: the array's head */
	return rdma_alloc_hw_stats_struct(irdma_port_stat_descs + skip,
					  (iwarp ? ARRAY_SIZE(irdma_port_stat_descs) :
						   IRDMA_PORT_COMMON) - skip,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/*
 * Device counters: what the function's CQP commands and interrupts cost
 * (utils.c). They live on the device, not the port: the port's list is
 * near what one netlink message of "rdma statistic" holds.
 */
static const struct rdma_stat_desc irdma_dev_stat_descs[] = {
	[IRDMA_CMD_STAT_WAITED].name = "cqp_waited",
	[IRDMA_CMD_STAT_POSTED].name = "cqp_posted",
	[IRDMA_CMD_STAT_QUEUE_US].name = "cqp_queue_us",
	[IRDMA_CMD_STAT_WAIT_US].name = "cqp_wait_us",
	[IRDMA_CMD_STAT_WAIT_MAX_US].name = "cqp_wait_max_us",
	[IRDMA_CMD_STAT_CEQ_IRQS].name = "ceq_irqs",
	[IRDMA_CMD_STAT_AEQ_IRQS].name = "aeq_irqs",
};

static_assert(ARRAY_SIZE(irdma_dev_stat_descs) == IRDMA_CMD_STAT_COUNT);

static struct rdma_hw_stats *irdma_alloc_hw_device_stats(struct ib_device *ibdev)
{
	return rdma_alloc_hw_stats_struct(irdma_dev_stat_descs,
					  ARRAY_SIZE(irdma_dev_stat_descs),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int irdma_get_hw_stats(struct ib_device *ibdev,
			      struct rdma_hw_stats *stats, u32 port, int index)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	bool iwarp = iwdev->fn->protocol != IRDMA_PROTOCOL_ROCEV2;
	u64 *v = stats->value;
	int ret;

	/* port 0: the device's counters */
	if (!port) {
		irdma_cmd_read_stats(iwdev->fn->hw, v);
		return stats->num_counters;
	}
	if (irdma_port_has_engine_stats(iwdev)) {
		ret = irdma_hw_read_counters(iwdev->fn->hw, v);
		if (ret)
			return ret;
		v += IRDMA_HWC_COUNT;
	}
	irdma_qos_read_stats(iwdev->fn->hw, v);
	if (!iwarp)
		return stats->num_counters;
	v += IRDMA_QOS_STAT_COUNT;
	irdma_cm_read_stats(&iwdev->cm_core, v);
	irdma_ilq_read_stats(iwdev->fn->hw, v + IRDMA_CM_STAT_COUNT);
	irdma_ieq_read_stats(iwdev->fn->hw,
			     v + IRDMA_CM_STAT_COUNT + IRDMA_ILQ_STAT_COUNT);
	return stats->num_counters;
}

static const struct ib_device_ops irdma_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_IRDMA,
	.uverbs_abi_ver = IRDMA_ABI_VER,

	/* the device and its port */
	.query_device = irdma_query_device,
	.query_port = irdma_query_port,
	.query_gid = irdma_query_gid,
	.query_pkey = irdma_query_pkey,
	.get_port_immutable = irdma_get_port_immutable,
	.get_link_layer = irdma_get_link_layer,
	.get_netdev = irdma_get_netdev,
	.alloc_hw_device_stats = irdma_alloc_hw_device_stats,
	.alloc_hw_port_stats = irdma_alloc_hw_port_stats,
	.get_hw_stats = irdma_get_hw_stats,

	/* user contexts, their mappings, protection domains */
	.alloc_ucontext = irdma_alloc_ucontext,
	.dealloc_ucontext = irdma_dealloc_ucontext,
	.disassociate_ucontext = irdma_disassociate_ucontext,
	.mmap = irdma_mmap,
	.mmap_free = irdma_mmap_free,
	.alloc_pd = irdma_alloc_pd,
	.dealloc_pd = irdma_dealloc_pd,
	INIT_RDMA_OBJ_SIZE(ib_ucontext, irdma_ucontext, ibuctx),
	INIT_RDMA_OBJ_SIZE(ib_pd, irdma_pd, ibpd),

	/* completion queues (cq.c) */
	.create_cq = irdma_create_cq,
	.destroy_cq = irdma_destroy_cq,
	.resize_cq = irdma_resize_cq,
	.req_notify_cq = irdma_req_notify_cq,
	.poll_cq = irdma_poll_cq,
	INIT_RDMA_OBJ_SIZE(ib_cq, irdma_cq, ibcq),

	/* queue pairs (qp.c) */
	.create_qp = irdma_create_qp,
	.modify_qp = irdma_modify_qp,
	.query_qp = irdma_query_qp,
	.destroy_qp = irdma_destroy_qp,
	.post_send = irdma_post_send,
	.post_recv = irdma_post_recv,
	INIT_RDMA_OBJ_SIZE(ib_qp, irdma_qp, ibqp),

	/* memory regions and windows (mr.c) */
	.get_dma_mr = irdma_get_dma_mr,
	.reg_user_mr = irdma_reg_user_mr,
	.dereg_mr = irdma_dereg_mr,
	.alloc_mr = irdma_alloc_mr,
	.map_mr_sg = irdma_map_mr_sg,
	.alloc_mw = irdma_alloc_mw,
	.dealloc_mw = irdma_dealloc_mw,
	INIT_RDMA_OBJ_SIZE(ib_mw, irdma_mw, ibmw),

	/* iWARP connections (cm.c) */
	.iw_accept = irdma_accept,
	.iw_connect = irdma_connect,
	.iw_create_listen = irdma_create_listen,
	.iw_destroy_listen = irdma_destroy_listen,
	.iw_get_qp = irdma_iw_get_qp,
	.iw_add_ref = irdma_iw_add_ref,
	.iw_rem_ref = irdma_iw_rem_ref,
	.iw_reject = irdma_reject,

	/* what rdma(8) shows with -dd (restrack.c) */
	.fill_res_cm_id_entry = irdma_fill_res_cm_id_entry,
	.fill_res_cq_entry = irdma_fill_res_cq_entry,
	.fill_res_mr_entry = irdma_fill_res_mr_entry,
	.fill_res_qp_entry = irdma_fill_res_qp_entry,
};

static const struct ib_device_ops irdma_roce_ops = {
	.add_gid = irdma_add_gid,
	.del_gid = irdma_del_gid,
	.create_ah = irdma_create_ah,
	.create_user_ah = irdma_create_ah,
	.destroy_ah = irdma_destroy_ah,
	.attach_mcast = irdma_attach_mcast,
	.detach_mcast = irdma_detach_mcast,
	INIT_RDMA_OBJ_SIZE(ib_ah, irdma_ah, ibah),
};

static void irdma_ib_setup(struct irdma_device *iwdev)
{
	struct ib_device *ibdev = &iwdev->ibdev;
	struct irdma_func *fn = iwdev->fn;
	struct net_device *netdev = fn->netdev;

	ibdev->node_type = fn->protocol == IRDMA_PROTOCOL_ROCEV2 ?
			   RDMA_NODE_IB_CA : RDMA_NODE_RNIC;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = iwdev->fn->hw->ceq_cnt;
	/*
	 * The PCI function (the simulated function's device), as the netdev's
	 * parent is: <ibdev>/device/net then names the port's netdev, which
	 * rdma-core's tests and tools look up.
	 */
	ibdev->dev.parent = fn->dma_dev;
	irdma_fill_guid(iwdev, &ibdev->node_guid);
	memcpy(ibdev->iw_ifname, netdev->name, sizeof(ibdev->iw_ifname));
	ib_set_device_ops(ibdev, &irdma_dev_ops);
	if (fn->protocol == IRDMA_PROTOCOL_ROCEV2)
		ib_set_device_ops(ibdev, &irdma_roce_ops);
}

/**
 * irdma_ib_register - register the RDMA device of a running function
 * @fn: a function whose engine is up (@fn->hw set)
 *
 * Context: process context; sleeps.
 * An iWARP function registers an RNIC; a RoCEv2 function an IB CA whose
 * port carries RoCEv2, so the MAD layer creates its GSI QP (QP1) during
 * registration.
 *
 * Return: 0 with @fn->iwdev set, or a negative errno.
 */
int irdma_ib_register(struct irdma_func *fn)
{
	struct irdma_device *iwdev;
	int ret;

	iwdev = ib_alloc_device(irdma_device, ibdev);
	if (!iwdev)
		return -ENOMEM;
	iwdev->fn = fn;
	ida_init(&iwdev->pd_ida);
	ida_init(&iwdev->stag_ida);
	ida_init(&iwdev->ah_ida);
	mutex_init(&iwdev->mcg_lock);
	INIT_LIST_HEAD(&iwdev->mcgs);
	ida_init(&iwdev->mcg_ida);
	irdma_ib_setup(iwdev);
	ret = irdma_cm_hw_setup(iwdev);
	if (ret)
		goto err_dealloc;
	ret = ib_device_set_netdev(&iwdev->ibdev, fn->netdev, 1);
	if (ret)
		goto err_cleanup_cm;
	ret = ib_register_device(&iwdev->ibdev, "irdma%d", fn->dma_dev);
	if (ret)
		goto err_cleanup_cm;
	fn->iwdev = iwdev;
	/* catch up with the link, which may have changed while registering */
	rtnl_lock();
	irdma_port_update(iwdev);
	rtnl_unlock();
	ibdev_info(&iwdev->ibdev, "registered on %s\n", netdev_name(fn->netdev));
	return 0;

err_cleanup_cm:
	irdma_cm_hw_cleanup(iwdev);
err_dealloc:
	irdma_mcg_cleanup(iwdev);
	ida_destroy(&iwdev->ah_ida);
	ida_destroy(&iwdev->stag_ida);
	ida_destroy(&iwdev->pd_ida);
	ib_dealloc_device(&iwdev->ibdev);
	return ret;
}

/**
 * irdma_ib_unregister - unregister what irdma_ib_register() registered
 * @fn: the function; @fn->iwdev is cleared
 *
 * Context: process context; sleeps until every user let go of the device.
 */
void irdma_ib_unregister(struct irdma_func *fn)
{
	struct irdma_device *iwdev = fn->iwdev;

	if (!iwdev)
		return;
	fn->iwdev = NULL;
	/* iw_cm's destroys below must not wait for connects on this device */
	if (iwdev->fn->protocol == IRDMA_PROTOCOL_IWARP)
		irdma_cm_quiesce(&iwdev->cm_core);
	ib_unregister_device(&iwdev->ibdev);
	/* no listen is left and no notifier finds the device any more */
	irdma_cm_hw_cleanup(iwdev);
	irdma_mcg_cleanup(iwdev);
	ida_destroy(&iwdev->ah_ida);
	ida_destroy(&iwdev->stag_ida);
	ida_destroy(&iwdev->pd_ida);
	ib_dealloc_device(&iwdev->ibdev);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/uctx_test.c"
#endif
