// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: debugfs state and fault injection, one directory per function
 * under /sys/kernel/debug/irdma_sim/irdma_sim<ID>/.
 *
 *   state             engine objects, queues and counters (read)
 *   fail_<op>         fail the next N CQP commands with that opcode
 *   fail_share        write "PERMILLE SEED [OP...]": fail that share of the
 *                     CQP commands (of the opcodes named, as in fail_<op>;
 *                     of all without; never a removal), picked by a
 *                     random sequence from SEED; "0" stops; reads back
 *                     with the counts, by opcode too
 *   drop_frames       drop the next N frames this function transmits
 *   delay_ms          delay every frame this function transmits
 *   drop_cm_frames    lose the next N CM frames: ILQ transmits, or frames
 *                     the qhash filters steered to the ILQ
 *   drop_toe_segs     lose the next N data segments the engine sends on
 *                     offloaded connections (first transmissions only)
 *   drop_toe_acks     lose the next N bare ACKs the engine sends on
 *                     offloaded connections or in TIME_WAIT
 *   time_wait_ms      how long a connection the engine closed first stays
 *                     in TIME_WAIT (60000)
 *   corrupt_toe_tx    flip the last byte of the next N data segments the
 *                     engine sends on offloaded connections (ditto)
 *   corrupt_toe_rx    flip the last byte of the next N data segments the
 *                     engine receives on offloaded connections
 *   stall_cqp         while Y, queued CQP commands are not executed
 *   stall_raw_tx      while Y, the raw queues' (ILQ, IEQ) sends wait
 *   raise_ae          write "CODE [SOURCE [ID [CTX]]]" to post an AE
 *   reset             write anything: function reset, as after a PF reset
 *   parent_event      write "mtu", "tc_prepare", "tc_done" or
 *                     "crit_err [CAUSE]": the parent's event to the driver
 *                     (crit_err halts the engine until a reset)
 *   qos               the parent's traffic classes (read); write
 *                     "up2tc A B C D E F G H" (the class of priorities 0
 *                     to 7) to change them as a DCB change on ice does
 *   driver            the driver the function is for, "irdma" or
 *                     "upstream"; write the other to hand it over (claim.c)
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "isim.h"

static struct dentry *isim_droot;

static void isim_show_cqp(struct seq_file *s, struct isim_func *f)
{
	struct isim_cqp *cqp = &f->cqp;
	unsigned int op;

	seq_printf(s, "engine: halted=%d\n", f->halted);
	seq_printf(s, "ticks: count=%llu max_us=%llu total_ms=%llu late_max_us=%llu quiet=%u\n",
		   f->ticks, div_u64(f->tick_ns_max, NSEC_PER_USEC),
		   div_u64(f->tick_ns_total, NSEC_PER_MSEC),
		   div_u64(f->tick_late_ns_max, NSEC_PER_USEC), f->quiet);
	isim_engine_show(s, f);
	seq_printf(s, "exec: scans=%llu kicks=%llu idle=%llu arm_scans=%llu unasked=%llu unrouted=%llu\n",
		   f->scans, f->kick_passes, f->idle_passes, f->arm_scans,
		   f->unasked, f->unrouted);
	seq_printf(s, "cqp: live=%d size=%u tail=%u polarity=%u done=%llu errors=%llu bad_valid=%llu\n",
		   cqp->live, cqp->size, cqp->tail, cqp->polarity, cqp->done,
		   cqp->errors, cqp->bad_valid);
	for (op = 0; op < ISIM_OP_NUM; op++)
		if (cqp->op_done[op])
			seq_printf(s, "  op %-15s done=%u errors=%u\n",
				   isim_cqp_op_name(op) ?: "?", cqp->op_done[op],
				   cqp->op_err[op]);
}

static void isim_show_hmc(struct seq_file *s, struct isim_func *f)
{
	struct isim_hmc *h = &f->hmc;
	unsigned int i, sds = 0;

	for (i = 0; i < ISIM_MAX_SDS; i++)
		sds += h->sd[i].valid;
	seq_printf(s, "hmc: committed=%d sds_valid=%u sd_updates=%llu\n",
		   h->committed, sds, h->sd_updates);
	if (!h->committed)
		return;
	for (i = 0; i < ISIM_HMC_NUM; i++)
		if (h->cnt[i])
			seq_printf(s, "  obj %2u count=%u base=0x%llx\n", i,
				   h->cnt[i], h->base[i]);
}

static void isim_show_queues(struct seq_file *s, struct isim_func *f)
{
	struct isim_cq *cq;
	unsigned long id;
	unsigned int i;

	xa_for_each(&f->cqs, id, cq)
		seq_printf(s, "cq %lu: size=%u head=%u ceq=%d armed=%d cqes=%llu overflows=%llu events=%llu early_events=%llu resizes=%u\n",
			   id, cq->ring.size, cq->ring.head,
			   cq->ceq_valid ? cq->ceq : -1, cq->armed, cq->cqes,
			   cq->overflows, cq->events, cq->early_events,
			   cq->resizes);
	for (i = 0; i < ISIM_MAX_CEQS; i++)
		if (f->ceq[i].live)
			seq_printf(s, "ceq %u: size=%u head=%u posted=%llu\n", i,
				   f->ceq[i].ring.size, f->ceq[i].ring.head,
				   f->ceq[i].posted);
	if (f->aeq.live)
		seq_printf(s, "aeq: size=%u head=%u posted=%llu credits=%llu lost=%llu\n",
			   f->aeq.ring.size, f->aeq.ring.head, f->aeq.posted,
			   f->aeq.credits, f->aeq.lost);
	for (i = 0; i < ISIM_NUM_VECTORS; i++)
		seq_printf(s, "vector %u: irq=%d pending=%d fired=%llu engine=%u\n",
			   i, f->vec[i].virq, f->vec[i].pending, f->vec[i].fired,
			   ISIM_FIRST_VECTOR + i);
	seq_printf(s, "bad_vector: %llu\n", f->bad_vector);
}

static unsigned long isim_xa_count(struct xarray *xa)
{
	unsigned long i, n = 0;
	void *entry;

	xa_for_each(xa, i, entry)
		n++;
	return n;
}

/*
 * an offloaded connection's close, for one that hangs: "toe qp N: ..." with
 * what its FIN waits for (isim_toe_sq_idle())
 */
static void isim_show_toe_qp(struct seq_file *s, struct isim_func *f,
			     unsigned long id, struct isim_qp *qp)
{
	const struct isim_toe *t = &qp->toe;

	if (qp->type != ISIM_QP_TYPE_IWARP || !t->linked)
		return;
	seq_printf(s, "toe qp %lu: snd_una=%u snd_nxt=%u snd_wnd=%u wnd_open=%d sq_empty=%d wait_fpdu=%d rd_busy=%d term_halted=%d fin_pending=%d fin_sent=%d fin_acked=%d fin_rcvd=%d kicked=%d\n",
		   id, t->snd_una, t->snd_nxt, t->snd_wnd,
		   isim_toe_window_open(t), isim_exec_sq_empty(f, qp),
		   t->wait_fpdu, t->rd_busy, qp->term_halted, t->fin_pending,
		   t->fin_sent, t->fin_acked, t->fin_rcvd,
		   !list_empty(&qp->kick));
}

static void isim_show_objects(struct seq_file *s, struct isim_func *f)
{
	struct isim_mcg *mcg;
	struct isim_qp *qp;
	unsigned long id;

	seq_printf(s, "objects: qps=%lu stags=%lu ahs=%lu qhash=%u apbvt_ports=%u arp=%lu ws_nodes=%u stats=%u mcgs=%lu\n",
		   isim_xa_count(&f->qps), isim_xa_count(&f->stags),
		   isim_xa_count(&f->ahs), f->conn.nqhash,
		   bitmap_weight(f->conn.apbvt, 65536),
		   isim_xa_count(&f->conn.arp),
		   f->sched.nodes,
		   bitmap_weight(f->conn.stats, ISIM_STATS_INSTANCES),
		   isim_xa_count(&f->mcgs));
	xa_for_each(&f->mcgs, id, mcg)
		seq_printf(s, "mcg %lu: ipv4=%d members=%u rx=%llu\n", id,
			   mcg->ipv4, mcg->n, mcg->rx);
	xa_for_each(&f->qps, id, qp)
		seq_printf(s, "qp %lu: type=%u state=%u suspended=%d modifies=%llu executed=%llu flushed=%llu virt=%d qset=%u tc=%d sq=%u rq=%u rq_shift=%u\n",
			   id, qp->type, qp->state, qp->suspended, qp->modifies,
			   qp->executed, qp->flushed, qp->virt, qp->qs_handle,
			   isim_sched_tc(f, qp->qs_handle), qp->sq.quanta,
			   qp->rq.quanta, qp->rq.shift);
	xa_for_each(&f->qps, id, qp)
		isim_show_toe_qp(s, f, id, qp);
	isim_stag_show(s, f);
}

/* the local MAC table entries handed out: "lmac N: MAC" */
static void isim_show_lmac(struct seq_file *s, struct isim_func *f)
{
	unsigned long i;
	u8 mac[ETH_ALEN];

	for_each_set_bit(i, &f->conn.lmac_used, ISIM_LMAC_ENTRIES) {
		u64_to_ether_addr(f->conn.lmac[i], mac);
		seq_printf(s, "lmac %lu: %pM\n", i, mac);
	}
}

static int isim_state_show(struct seq_file *s, void *unused)
{
	struct isim_func *f = s->private;
	unsigned int i;

	/* scripts read the protocol from the second line */
	seq_printf(s, "id: %u\nprotocol: %s\ngen: %u\nnetdev: %s\n", f->id,
		   f->protocol == ISIM_AUX_ROCEV2 ? "roce" : "iwarp", f->gen,
		   netdev_name(f->netdev));
	seq_printf(s, "wire: tx=%lld rx=%lld looped=%lld dropped=%lld\n",
		   (s64)atomic64_read(&f->wire.tx_frames),
		   (s64)atomic64_read(&f->wire.rx_frames),
		   (s64)atomic64_read(&f->wire.looped),
		   (s64)atomic64_read(&f->wire.dropped));
	seq_puts(s, "vlan_tcp:");
	for (i = 0; i < ARRAY_SIZE(f->wire.vlan_tcp); i++)
		seq_printf(s, " p%u=%lld", i,
			   (s64)atomic64_read(&f->wire.vlan_tcp[i]));
	seq_putc(s, '\n');
	seq_printf(s, "ilq: tx=%lld rx=%lld steered=%lld dropped=%lld tx_err=%lld\n",
		   (s64)atomic64_read(&f->ilq.tx),
		   (s64)atomic64_read(&f->ilq.rx),
		   (s64)atomic64_read(&f->ilq.steered),
		   (s64)atomic64_read(&f->ilq.dropped),
		   (s64)atomic64_read(&f->ilq.tx_err));
	isim_toe_show(s, f);
	isim_ud_show(s, f);
	isim_roce_show(s, f);
	seq_printf(s, "qsets: %d\nvsi_filter: %d\n", atomic_read(&f->qsets),
		   READ_ONCE(f->vsi_filter));
	isim_eng_lock(f, "state");
	isim_show_lmac(s, f);
	isim_show_cqp(s, f);
	isim_show_hmc(s, f);
	isim_show_queues(s, f);
	isim_show_objects(s, f);
	isim_sched_show(s, f);
	isim_eng_unlock(f);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(isim_state);

/* A short line the user wrote, NUL-terminated in @buf of @size bytes */
static int isim_user_line(char *buf, size_t size, const char __user *ubuf,
			  size_t len)
{
	if (len >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	return 0;
}

static ssize_t isim_raise_ae_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct isim_func *f = file->private_data;
	u32 code, src = ISIM_AE_SRC_NONE, id = 0;
	u64 ctx = 0;
	char buf[64];
	int err;

	err = isim_user_line(buf, sizeof(buf), ubuf, len);
	if (err)
		return err;
	if (sscanf(buf, "%i %i %i %lli", &code, &src, &id, &ctx) < 1 ||
	    code > ISIM_AE_CODE_MAX || src > 0xf)
		return -EINVAL;
	isim_eng_lock(f, "raise_ae");
	/* a halted engine posts nothing; after a catastrophe it halts */
	err = f->halted ? -EIO : isim_aeq_post(f, code, src, id, ctx);
	if (!err && code == ISIM_AE_FUNC_CATASTROPHIC)
		f->halted = true;
	isim_eng_unlock(f);
	isim_engine_kick(f, ISIM_WAKE_CTL);
	return err ? err : len;
}

static const struct file_operations isim_raise_ae_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_raise_ae_write,
	.llseek = no_llseek,
};

static ssize_t isim_reset_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct isim_func *f = file->private_data;

	queue_work(isim_wq, &f->reset_work);
	flush_work(&f->reset_work);
	return len;
}

static const struct file_operations isim_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_reset_write,
	.llseek = no_llseek,
};

/* the bit of the PFINT_OICR layout that says "PE critical error" */
#define ISIM_OICR_PE_CRITERR	BIT(28)

static const char * const isim_event_names[] = {
	[ISIM_AUX_EV_MTU] = "mtu",
	[ISIM_AUX_EV_TC_PREPARE] = "tc_prepare",
	[ISIM_AUX_EV_TC_DONE] = "tc_done",
	[ISIM_AUX_EV_CRIT_ERR] = "crit_err",
};

static ssize_t isim_parent_event_write(struct file *file,
				       const char __user *ubuf, size_t len,
				       loff_t *ppos)
{
	struct isim_func *f = file->private_data;
	u32 info = ISIM_OICR_PE_CRITERR;
	char buf[32], *arg, *name;
	int ev, err;

	err = isim_user_line(buf, sizeof(buf), ubuf, len);
	if (err)
		return err;
	arg = strim(buf);
	name = strsep(&arg, " ");
	ev = match_string(isim_event_names, ARRAY_SIZE(isim_event_names), name);
	if (ev < 0)
		return -EINVAL;
	/* only a critical error takes an argument: its cause */
	if (arg && (ev != ISIM_AUX_EV_CRIT_ERR || kstrtou32(strim(arg), 0, &info)))
		return -EINVAL;
	if (ev == ISIM_AUX_EV_MTU)
		info = READ_ONCE(f->netdev->mtu);
	err = isim_aux_event(f, ev, info);
	return err ? err : len;
}

static const struct file_operations isim_parent_event_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_parent_event_write,
	.llseek = no_llseek,
};

static int isim_qos_show(struct seq_file *s, void *unused)
{
	struct isim_func *f = s->private;
	struct isim_aux_qos qos;
	unsigned int i;

	spin_lock(&f->qos_lock);
	qos = f->qos;
	spin_unlock(&f->qos_lock);
	seq_printf(s, "num_tc %u\nup2tc", qos.num_tc);
	for (i = 0; i < ISIM_AUX_MAX_UP; i++)
		seq_printf(s, " %u", qos.up2tc[i]);
	seq_puts(s, "\nrel_bw");
	for (i = 0; i < ISIM_AUX_MAX_TC; i++)
		seq_printf(s, " %u", qos.rel_bw[i]);
	seq_putc(s, '\n');
	return 0;
}

/* "up2tc A B C D E F G H", the class of each user priority, into @qos */
static int isim_qos_parse(char *buf, struct isim_aux_qos *qos)
{
	unsigned int i, tc[ISIM_AUX_MAX_UP];
	char end;

	memset(qos, 0, sizeof(*qos));
	if (sscanf(buf, "up2tc %u %u %u %u %u %u %u %u %c", &tc[0], &tc[1],
		   &tc[2], &tc[3], &tc[4], &tc[5], &tc[6], &tc[7], &end) !=
	    ISIM_AUX_MAX_UP)
		return -EINVAL;
	for (i = 0; i < ISIM_AUX_MAX_UP; i++) {
		if (tc[i] >= ISIM_AUX_MAX_TC)
			return -EINVAL;
		qos->up2tc[i] = tc[i];
		qos->num_tc = max_t(u8, qos->num_tc, tc[i] + 1);
	}
	/* an even split of the bandwidth, the remainder to the first ones */
	for (i = 0; i < qos->num_tc; i++)
		qos->rel_bw[i] = 100 / qos->num_tc + (i < 100 % qos->num_tc);
	return 0;
}

/* one traffic-class change at a time: its two events must pair up */
static DEFINE_MUTEX(isim_qos_change);

/*
 * As ice on a DCB change: TC_PREPARE to the bound driver (which suspends
 * its QPs and takes its scheduler leaves down), the new classes, then
 * TC_DONE (the driver reads them with qos_get and builds new leaves).
 * Without a driver, or one that takes no events, only the map changes.
 */
static ssize_t isim_qos_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct isim_func *f = file_inode(file)->i_private;
	struct isim_aux_qos qos;
	char buf[64];
	int err;

	err = isim_user_line(buf, sizeof(buf), ubuf, len);
	if (err)
		return err;
	if (isim_qos_parse(buf, &qos))
		return -EINVAL;
	mutex_lock(&isim_qos_change);
	err = isim_aux_event(f, ISIM_AUX_EV_TC_PREPARE, 0);
	spin_lock(&f->qos_lock);
	f->qos = qos;
	spin_unlock(&f->qos_lock);
	/* a leaf of a class now in use may serve held QPs */
	isim_eng_lock(f, "qos");
	f->rescan = true;
	isim_eng_unlock(f);
	isim_engine_kick(f, ISIM_WAKE_CTL);
	if (!err)
		isim_aux_event(f, ISIM_AUX_EV_TC_DONE, 0);
	mutex_unlock(&isim_qos_change);
	return len;
}

static int isim_qos_open(struct inode *inode, struct file *file)
{
	return single_open(file, isim_qos_show, inode->i_private);
}

static const struct file_operations isim_qos_fops = {
	.owner = THIS_MODULE,
	.open = isim_qos_open,
	.read = seq_read,
	.write = isim_qos_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int isim_fail_share_show(struct seq_file *s, void *unused)
{
	struct isim_func *f = s->private;
	struct isim_fail_share *sh = &f->faults.share;
	unsigned int op;

	mutex_lock(&f->eng_lock);
	seq_printf(s, "permille=%u seed=%llu failed=%llu seen=%llu ops=",
		   sh->permille, sh->seed, sh->failed, sh->seen);
	for_each_set_bit(op, sh->ops, ISIM_OP_NUM)
		seq_printf(s, "%s%s", isim_cqp_op_name(op),
			   op == find_last_bit(sh->ops, ISIM_OP_NUM) ? "" : ",");
	seq_puts(s, " failed_by_op=");
	for (op = 0; op < ISIM_OP_NUM; op++)
		if (sh->failed_op[op])
			seq_printf(s, "%s:%u ", isim_cqp_op_name(op),
				   sh->failed_op[op]);
	seq_putc(s, '\n');
	mutex_unlock(&f->eng_lock);
	return 0;
}

/* "PERMILLE SEED [OP...]" into @sh (its counts cleared), or "0" */
static int isim_fail_share_parse(char *buf, struct isim_fail_share *sh)
{
	char *w, *arg = strim(buf);
	unsigned int op;

	memset(sh, 0, sizeof(*sh));
	w = strsep(&arg, " ");
	if (kstrtou32(w, 0, &sh->permille) || sh->permille > 1000)
		return -EINVAL;
	if (!sh->permille)
		return arg ? -EINVAL : 0;
	w = strsep(&arg, " ");
	if (!w || kstrtou64(w, 0, &sh->seed))
		return -EINVAL;
	prandom_seed_state(&sh->rnd, sh->seed);
	while ((w = strsep(&arg, " "))) {
		if (!*w)
			continue;
		for (op = 0; op < ISIM_OP_NUM; op++)
			if (isim_cqp_op_name(op) &&
			    !strcmp(isim_cqp_op_name(op), w))
				break;
		if (op == ISIM_OP_NUM)
			return -EINVAL;
		__set_bit(op, sh->ops);
	}
	if (bitmap_empty(sh->ops, ISIM_OP_NUM))
		for (op = 0; op < ISIM_OP_NUM; op++)
			if (isim_cqp_op_name(op))
				__set_bit(op, sh->ops);
	return 0;
}

static ssize_t isim_fail_share_write(struct file *file,
				     const char __user *ubuf, size_t len,
				     loff_t *ppos)
{
	struct isim_func *f = file_inode(file)->i_private;
	struct isim_fail_share sh;
	char buf[512];
	int err;

	err = isim_user_line(buf, sizeof(buf), ubuf, len);
	if (err)
		return err;
	err = isim_fail_share_parse(buf, &sh);
	if (err)
		return err;
	mutex_lock(&f->eng_lock);
	f->faults.share = sh;
	mutex_unlock(&f->eng_lock);
	return len;
}

static int isim_fail_share_open(struct inode *inode, struct file *file)
{
	return single_open(file, isim_fail_share_show, inode->i_private);
}

static const struct file_operations isim_fail_share_fops = {
	.owner = THIS_MODULE,
	.open = isim_fail_share_open,
	.read = seq_read,
	.write = isim_fail_share_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static void isim_debugfs_fail_knobs(struct isim_func *f)
{
	char name[32];
	unsigned int op;

	for (op = 0; op < ISIM_OP_NUM; op++) {
		if (!isim_cqp_op_name(op))
			continue;
		snprintf(name, sizeof(name), "fail_%s", isim_cqp_op_name(op));
		debugfs_create_atomic_t(name, 0600, f->ddir,
					&f->faults.fail_op[op]);
	}
}

/**
 * isim_debugfs_init - create the function's debugfs directory
 * @f: function
 *
 * debugfs failures are not fatal and leave the function without knobs.
 */
void isim_debugfs_init(struct isim_func *f)
{
	f->ddir = debugfs_create_dir(dev_name(&f->dev), isim_droot);
	debugfs_create_file("state", 0400, f->ddir, f, &isim_state_fops);
	isim_debugfs_fail_knobs(f);
	debugfs_create_atomic_t("drop_frames", 0600, f->ddir,
				&f->faults.drop_frames);
	debugfs_create_atomic_t("drop_cm_frames", 0600, f->ddir,
				&f->faults.drop_cm);
	debugfs_create_atomic_t("drop_toe_segs", 0600, f->ddir,
				&f->faults.drop_toe);
	debugfs_create_atomic_t("drop_toe_acks", 0600, f->ddir,
				&f->faults.drop_toe_acks);
	debugfs_create_u32("time_wait_ms", 0600, f->ddir, &f->toe.tw_ms);
	debugfs_create_atomic_t("corrupt_toe_tx", 0600, f->ddir,
				&f->faults.corrupt_toe_tx);
	debugfs_create_atomic_t("corrupt_toe_rx", 0600, f->ddir,
				&f->faults.corrupt_toe_rx);
	isim_roce_debugfs(f);
	debugfs_create_u32("delay_ms", 0600, f->ddir, &f->faults.delay_ms);
	debugfs_create_bool("stall_cqp", 0600, f->ddir, &f->faults.stall);
	debugfs_create_bool("stall_raw_tx", 0600, f->ddir,
			    &f->faults.stall_raw_tx);
	debugfs_create_file("raise_ae", 0200, f->ddir, f,
			    &isim_raise_ae_fops);
	debugfs_create_file("reset", 0200, f->ddir, f, &isim_reset_fops);
	debugfs_create_file("parent_event", 0200, f->ddir, f,
			    &isim_parent_event_fops);
	debugfs_create_file("qos", 0600, f->ddir, f, &isim_qos_fops);
	isim_claim_debugfs_init(f);
	debugfs_create_file("fail_share", 0600, f->ddir, f,
			    &isim_fail_share_fops);
}

/**
 * isim_debugfs_exit - remove the function's debugfs directory
 * @f: function
 */
void isim_debugfs_exit(struct isim_func *f)
{
	debugfs_remove(f->ddir);
	f->ddir = NULL;
}

/**
 * isim_debugfs_mod_init - create /sys/kernel/debug/irdma_sim
 */
void isim_debugfs_mod_init(void)
{
	isim_droot = debugfs_create_dir("irdma_sim", NULL);
}

/**
 * isim_debugfs_mod_exit - remove /sys/kernel/debug/irdma_sim
 */
void isim_debugfs_mod_exit(void)
{
	debugfs_remove(isim_droot);
}
