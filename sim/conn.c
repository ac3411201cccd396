// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: connection steering state: the accelerated-port table
 * (APBVT), quad-hash filters, the ARP cache, the local MAC table and
 * address handles.
 *
 * These tables decide, on the adapter, which received segments belong to
 * the engine and how the engine addresses what it transmits. The engine
 * keeps them exactly as the driver programmed them and refuses what the
 * adapter would refuse: deleting an entry that does not exist, adding one
 * twice, indexes out of range. The quad-hash filters steer received TCP
 * segments to the ILQ (ilq.c asks isim_conn_steer()).
 */
#include <linux/slab.h>

#include "isim.h"

#define ISIM_PORTS		65536

/**
 * isim_conn_init - allocate the steering tables
 * @f: function
 *
 * Return: 0 or -ENOMEM.
 */
int isim_conn_init(struct isim_func *f)
{
	f->conn.apbvt = bitmap_zalloc(ISIM_PORTS, GFP_KERNEL);
	if (!f->conn.apbvt)
		return -ENOMEM;
	INIT_LIST_HEAD(&f->conn.qhash);
	spin_lock_init(&f->conn.qh_lock);
	xa_init(&f->conn.arp);
	xa_init(&f->ahs);
	xa_init(&f->mcgs);
	return 0;
}

/**
 * isim_conn_reset - empty every steering table
 * @f: function
 */
void isim_conn_reset(struct isim_func *f)
{
	struct isim_conn *c = &f->conn;
	struct isim_qhash *qh, *tmp;
	struct isim_mcg *mcg;
	struct isim_ah *ah;
	unsigned long i;
	LIST_HEAD(dead);

	bitmap_zero(c->apbvt, ISIM_PORTS);
	spin_lock_bh(&c->qh_lock);
	list_splice_init(&c->qhash, &dead);
	c->nqhash = 0;
	spin_unlock_bh(&c->qh_lock);
	list_for_each_entry_safe(qh, tmp, &dead, node)
		kfree(qh);
	xa_destroy(&c->arp);
	xa_for_each(&f->ahs, i, ah) {
		xa_erase(&f->ahs, i);
		kfree(ah);
	}
	xa_for_each(&f->mcgs, i, mcg) {
		xa_erase(&f->mcgs, i);
		kfree(mcg);
	}
	memset(c->lmac, 0, sizeof(c->lmac));
	c->lmac_used = 0;
	bitmap_zero(c->stats, ISIM_STATS_INSTANCES);
}

/**
 * isim_conn_exit - free the steering tables
 * @f: function
 */
void isim_conn_exit(struct isim_func *f)
{
	isim_conn_reset(f);
	xa_destroy(&f->ahs);
	xa_destroy(&f->mcgs);
	bitmap_free(f->conn.apbvt);
	f->conn.apbvt = NULL;
}

/**
 * isim_op_manage_apbvt - MANAGE_APBVT: open or close a local TCP port
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_manage_apbvt(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u16 port = FIELD_GET(ISIM_APBVT_W2_PORT, wqe[2]);
	bool add = wqe[ISIM_WQE_HDR] & ISIM_APBVT_HDR_ADD;

	if (add == test_bit(port, f->conn.apbvt)) {
		res->minor = add ? ISIM_MIN_EXISTS : ISIM_MIN_NO_OBJECT;
		return;
	}
	if (add)
		set_bit(port, f->conn.apbvt);
	else
		clear_bit(port, f->conn.apbvt);
}

/**
 * isim_conn_addr - an address as the driver writes it in a qhash or AH WQE
 * @w: the two words of the address
 * @ipv4: an IPv4 address: bits 31:0 of the first word
 * @addr: the address as four host-order words, IPv4 in word 0
 *
 * An IPv6 address has its first word in bits 63:32 of the second WQE word,
 * then bits 31:0, then the first WQE word's high and low halves.
 */
void isim_conn_addr(const u64 *w, bool ipv4, u32 *addr)
{
	memset(addr, 0, 4 * sizeof(*addr));
	if (ipv4) {
		addr[0] = lower_32_bits(w[0]);
		return;
	}
	addr[0] = upper_32_bits(w[1]);
	addr[1] = lower_32_bits(w[1]);
	addr[2] = upper_32_bits(w[0]);
	addr[3] = lower_32_bits(w[0]);
}

static void isim_qh_parse(const u64 *wqe, struct isim_qhash *qh)
{
	u64 hdr = wqe[ISIM_WQE_HDR];

	qh->type = FIELD_GET(ISIM_QH_HDR_TYPE, hdr);
	qh->ipv4 = hdr & ISIM_QH_HDR_IPV4;
	qh->vlan = hdr & ISIM_QH_HDR_VLAN_VALID ?
		   FIELD_GET(ISIM_QH_W2_VLAN, wqe[2]) : 0xffff;
	qh->loc_port = FIELD_GET(ISIM_QH_W1_DPORT, wqe[1]);
	qh->qpn = FIELD_GET(ISIM_QH_W1_QPN, wqe[1]);
	qh->qset = FIELD_GET(ISIM_QH_W2_QSET, wqe[2]);
	isim_conn_addr(&wqe[6], qh->ipv4, qh->loc_addr);
	if (qh->type == ISIM_QH_TCP_ESTABLISHED) {
		qh->rem_port = FIELD_GET(ISIM_QH_W1_SPORT, wqe[1]);
		isim_conn_addr(&wqe[4], qh->ipv4, qh->rem_addr);
	}
}

static struct isim_qhash *isim_qh_find(struct isim_func *f,
				       const struct isim_qhash *key)
{
	struct isim_qhash *qh;

	list_for_each_entry(qh, &f->conn.qhash, node)
		if (qh->type == key->type && qh->ipv4 == key->ipv4 &&
		    qh->vlan == key->vlan && qh->loc_port == key->loc_port &&
		    qh->rem_port == key->rem_port &&
		    !memcmp(qh->loc_addr, key->loc_addr, sizeof(key->loc_addr)) &&
		    !memcmp(qh->rem_addr, key->rem_addr, sizeof(key->rem_addr)))
			return qh;
	return NULL;
}

static u16 isim_qh_add(struct isim_func *f, const struct isim_qhash *key)
{
	struct isim_qhash *qh;

	if (f->conn.nqhash >= f->hmc.cnt[ISIM_HMC_HTE])
		return ISIM_MIN_BAD_SIZE;
	qh = kmemdup(key, sizeof(*key), GFP_KERNEL);
	if (!qh)
		return ISIM_MIN_BUSY;
	spin_lock_bh(&f->conn.qh_lock);
	list_add_tail(&qh->node, &f->conn.qhash);
	f->conn.nqhash++;
	spin_unlock_bh(&f->conn.qh_lock);
	return ISIM_MIN_OK;
}

static bool isim_qh_match(const struct isim_qhash *qh,
			  const struct isim_flow *fl)
{
	if (qh->ipv4 != fl->ipv4 || qh->vlan != fl->vlan ||
	    qh->loc_port != fl->loc_port ||
	    memcmp(qh->loc_addr, fl->loc_addr, sizeof(fl->loc_addr)))
		return false;
	if (qh->type == ISIM_QH_TCP_SYN)
		return fl->syn;
	return qh->type == ISIM_QH_TCP_ESTABLISHED &&
	       qh->rem_port == fl->rem_port &&
	       !memcmp(qh->rem_addr, fl->rem_addr, sizeof(fl->rem_addr));
}

/**
 * isim_conn_drop_established - an offloaded connection takes its 4-tuple
 * @f: function
 * @fl: the connection's addressing, as a received segment of it has it
 *
 * The engine drops the established filter of the 4-tuple (the one that
 * steered the handshake to the driver's raw queue) when a QP takes the
 * connection: Linux 6.1's irdma forgets the filter once its QP is in RTS
 * and never deletes it. Caller holds conn.qh_lock.
 */
void isim_conn_drop_established(struct isim_func *f,
				const struct isim_flow *fl)
{
	struct isim_qhash *qh, *tmp;

	lockdep_assert_held(&f->conn.qh_lock);
	list_for_each_entry_safe(qh, tmp, &f->conn.qhash, node) {
		if (qh->type != ISIM_QH_TCP_ESTABLISHED || !isim_qh_match(qh, fl))
			continue;
		list_del(&qh->node);
		f->conn.nqhash--;
		kfree(qh);
	}
}

/**
 * isim_conn_steer - find the filter a received TCP segment matches
 * @f: function
 * @fl: the segment's addressing
 * @qpn: the filter's QP, when one matches
 *
 * An established filter matches the whole 4-tuple and VLAN; a listener
 * (SYN) filter matches the local address, port and VLAN of a connection
 * request only. An established filter wins over a listener. Callable from
 * softirq context.
 *
 * Return: true if a filter matched.
 */
bool isim_conn_steer(struct isim_func *f, const struct isim_flow *fl,
		     u32 *qpn)
{
	struct isim_qhash *qh, *hit = NULL;

	spin_lock_bh(&f->conn.qh_lock);
	list_for_each_entry(qh, &f->conn.qhash, node) {
		if (!isim_qh_match(qh, fl))
			continue;
		hit = qh;
		if (qh->type == ISIM_QH_TCP_ESTABLISHED)
			break;
	}
	if (hit)
		*qpn = hit->qpn;
	spin_unlock_bh(&f->conn.qh_lock);
	return hit;
}

/**
 * isim_op_manage_qhash - MANAGE_QUAD_HASH_TABLE_ENTRY
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * Listener (TCP SYN) entries match the local address and port, established
 * entries the whole 4-tuple; both carry the QP that receives the segments.
 */
void isim_op_manage_qhash(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res)
{
	u32 manage = FIELD_GET(ISIM_QH_HDR_MANAGE, wqe[ISIM_WQE_HDR]);
	struct isim_qhash key = {}, *qh;

	isim_qh_parse(wqe, &key);
	if (!f->hmc.committed || !key.type || key.type > ISIM_QH_ROCEV2_HW) {
		res->minor = ISIM_MIN_BAD_FIELD;
		return;
	}
	qh = isim_qh_find(f, &key);
	if (manage == ISIM_QH_ADD) {
		res->minor = qh ? ISIM_MIN_EXISTS : isim_qh_add(f, &key);
	} else if (!qh) {
		res->minor = ISIM_MIN_NO_OBJECT;
	} else if (manage == ISIM_QH_MODIFY) {
		spin_lock_bh(&f->conn.qh_lock);
		qh->qpn = key.qpn;
		qh->qset = key.qset;
		spin_unlock_bh(&f->conn.qh_lock);
	} else if (manage == ISIM_QH_DELETE) {
		spin_lock_bh(&f->conn.qh_lock);
		list_del(&qh->node);
		f->conn.nqhash--;
		spin_unlock_bh(&f->conn.qh_lock);
		kfree(qh);
	} else {
		res->minor = ISIM_MIN_BAD_FIELD;
	}
}

/**
 * isim_op_manage_arp - MANAGE_ARP: write or clear an ARP cache entry
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_manage_arp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	u32 idx = FIELD_GET(ISIM_ARP_HDR_INDEX, wqe[ISIM_WQE_HDR]);
	u64 mac = wqe[2] & ISIM_MAC_BITS;

	if (!f->hmc.committed || idx >= f->hmc.cnt[ISIM_HMC_ARP]) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	if (!(wqe[ISIM_WQE_HDR] & ISIM_ARP_HDR_VALID)) {
		xa_erase(&f->conn.arp, idx);
		return;
	}
	if (xa_err(xa_store(&f->conn.arp, idx, xa_mk_value(mac),
			    GFP_KERNEL)))
		res->minor = ISIM_MIN_BUSY;
}

/**
 * isim_op_alloc_mac - ALLOCATE_LOC_MAC_TABLE_ENTRY
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status; the entry index is the op return value
 */
void isim_op_alloc_mac(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	unsigned long idx = ffz(f->conn.lmac_used);

	if (idx >= ISIM_LMAC_ENTRIES) {
		res->minor = ISIM_MIN_BAD_SIZE;
		return;
	}
	__set_bit(idx, &f->conn.lmac_used);
	res->ret_val = idx;
}

/**
 * isim_op_manage_mac - MANAGE_LOC_MAC_TABLE: set or free an entry
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_manage_mac(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	u32 idx = FIELD_GET(ISIM_LMAC_HDR_INDEX, wqe[ISIM_WQE_HDR]);

	if (idx >= ISIM_LMAC_ENTRIES || !test_bit(idx, &f->conn.lmac_used)) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	if (wqe[ISIM_WQE_HDR] & ISIM_LMAC_HDR_FREE) {
		__clear_bit(idx, &f->conn.lmac_used);
		f->conn.lmac[idx] = 0;
		return;
	}
	f->conn.lmac[idx] = wqe[4] & ISIM_MAC_BITS;
}

static void isim_ah_store(struct isim_func *f, const u64 *wqe, bool create,
			  struct isim_res *res)
{
	u32 idx = FIELD_GET(ISIM_AH_HDR_INDEX, wqe[ISIM_WQE_HDR]);
	struct isim_ah *ah = xa_load(&f->ahs, idx);

	/* an AH lives in an FSIAV context of the HMC */
	if (!f->hmc.committed || idx >= f->hmc.cnt[ISIM_HMC_FSIAV]) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	if (create == !!ah) {
		res->minor = create ? ISIM_MIN_EXISTS : ISIM_MIN_NO_OBJECT;
		return;
	}
	if (!ah) {
		ah = kzalloc(sizeof(*ah), GFP_KERNEL);
		if (!ah || xa_insert(&f->ahs, idx, ah, GFP_KERNEL)) {
			kfree(ah);
			res->minor = ISIM_MIN_BUSY;
			return;
		}
	}
	ah->index = idx;
	memcpy(ah->wqe, wqe, sizeof(ah->wqe));
}

/**
 * isim_op_create_ah - CREATE_ADDR_HANDLE
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_create_ah(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	isim_ah_store(f, wqe, true, res);
}

/**
 * isim_op_modify_ah - MODIFY_ADDR_HANDLE
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_modify_ah(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	isim_ah_store(f, wqe, false, res);
}

/**
 * isim_op_destroy_ah - DESTROY_ADDR_HANDLE
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_destroy_ah(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	struct isim_ah *ah;

	/* the raw sends posted before the command still find their AH */
	isim_ilq_tx_drain(f);
	ah = xa_erase(&f->ahs, FIELD_GET(ISIM_AH_HDR_INDEX, wqe[ISIM_WQE_HDR]));
	if (!ah)
		res->minor = ISIM_MIN_NO_OBJECT;
	kfree(ah);
}
