// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: the transmit scheduler set-up, and traffic-class changes.
 *
 * Every QP context names a queue set (QS handle), and the engine sends for
 * a QP only through it. On gen2 (E810) the driver builds those queue sets
 * itself as a small work-scheduler tree: a root node, one node for the
 * function's VSI, and under it one leaf per traffic class some QP uses.
 * A leaf sends nothing until the parent driver (ice) has hooked it into
 * its own transmit scheduler (qset_add) and the leaf is enabled. On gen1
 * (X722) the parent made one queue set per user priority and hands their
 * handles over; nothing is built.
 *
 * A QP joins at creation on user priority 0, and takes its connection's
 * priority when it is about to send (RTR for RoCEv2, the connection's
 * hand-over for iWARP); the ILQ and IEQ stay on 0. The priority comes
 * from the connection's VLAN priority or TOS, or from its DSCP when the
 * port prioritises by DSCP, and the parent's map gives its class. A port
 * with more than one class that prioritises by 802.1p priority sorts and
 * pauses frames by their VLAN tag, so traffic with no VLAN of its own then
 * goes out with VLAN 0 carrying its priority (irdma_qos_prio_tag()):
 * RoCEv2 QPs and AHs, and the iWARP CM's connections, whose listeners'
 * SYN filters expect such tags then too.
 *
 * A traffic-class change comes in two events. On the first, every QP that
 * may be sending is suspended (SUSPEND_QP, confirmed by an AE) and the
 * leaves are torn down, since the classes they stand for may be gone. On
 * the second, the new map is read, every QP gets the leaf of its
 * priority's new class, and the suspended ones resume on it (RESUME_QP
 * names the new queue set). Meanwhile no QP may start sending: moves to
 * RTR or RTS fail with -EBUSY, as no leaf may be built. A QP that cannot
 * get a leaf afterwards resumes where it was and is moved to the error
 * state.
 */
#include <linux/bitfield.h>
#include <linux/idr.h>
#include <net/route.h>

#include "ctrl.h"
#include "hw.h"
#include "main.h"
#include "qos.h"

/* node ids: the root is 0, the others come from an IDA, 10 bits wide */
#define IRDMA_QOS_ROOT		0
#define IRDMA_QOS_NODE_MAX	1023
/* how long the engine has to confirm the suspensions of one change */
#define IRDMA_QOS_SUSPEND_MS	2000

#define qos_stat(q, s)	atomic64_inc(&(q)->stats[IRDMA_QOS_STAT_##s])

static struct irdma_qos *irdma_qos_of(struct irdma_hw *hw)
{
	return &hw->qos;
}

static bool irdma_qos_builds(const struct irdma_hw *hw)
{
	return hw->fn->gen != IRDMA_GEN_1;
}

/* The parent's current classes; one class for everything if it has none */
static void irdma_qos_fetch(struct irdma_hw *hw, struct irdma_qos_params *p)
{
	struct irdma_func *fn = hw->fn;
	int ret = -EOPNOTSUPP;
	u8 i;

	memset(p, 0, sizeof(*p));
	if (fn->ops->qos_get)
		ret = fn->ops->qos_get(fn, p);
	if (ret)
		memset(p, 0, sizeof(*p));
	/* a map naming classes beyond what is in use is not believed */
	if (p->num_tc < 1 || p->num_tc > IRDMA_QOS_TCS)
		p->num_tc = 1;
	for (i = 0; i < IRDMA_QOS_UPS; i++) {
		if (p->up2tc[i] >= p->num_tc) {
			dev_warn(&fn->adev->dev, "user priority %u maps to traffic class %u of %u: using class 0\n",
				 i, p->up2tc[i], p->num_tc);
			p->up2tc[i] = 0;
		}
	}
	for (i = 0; i < IRDMA_QOS_DSCPS; i++)
		p->dscp_map[i] &= IRDMA_QOS_UPS - 1;
	if (ret && ret != -EOPNOTSUPP)
		dev_warn(&fn->adev->dev, "no traffic classes from the parent (%d): one class for all\n",
			 ret);
}

/* ---- work-scheduler nodes (gen2) ---- */

static int irdma_qos_ws_cmd(struct irdma_hw *hw,
			    const struct irdma_cqp_ws_info *info, u32 *ret_val)
{
	struct irdma_cmd cmd = {
		.build = irdma_cqpw_ws_node_cb,
		.arg = info,
		.name = "WORK_SCHED_NODE",
	};
	int ret;

	ret = irdma_cmd_exec(hw, &cmd);
	if (!ret && ret_val)
		*ret_val = cmd.done.op_ret;
	return ret;
}

static struct irdma_cqp_ws_info irdma_qos_ws_info(struct irdma_hw *hw,
						  u8 op, u16 id, u16 parent)
{
	return (struct irdma_cqp_ws_info){
		.op = op,
		.id = id,
		.parent_id = parent,
		.vsi = hw->fn->vsi_id,
		.weight = 1,
		.enable = true,
	};
}

static int irdma_qos_node_id(struct irdma_qos *q)
{
	return ida_alloc_range(&q->ids, 1, IRDMA_QOS_NODE_MAX,
			       GFP_KERNEL);
}

/* The root and the VSI's node, which live as long as the function */
static int irdma_qos_tree_build(struct irdma_hw *hw)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_cqp_ws_info info;
	int id, ret;

	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_ADD, IRDMA_QOS_ROOT,
				 IRDMA_QOS_ROOT);
	ret = irdma_qos_ws_cmd(hw, &info, NULL);
	if (ret)
		return ret;
	id = irdma_qos_node_id(q);
	if (id < 0) {
		ret = id;
		goto err_root;
	}
	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_ADD, id, IRDMA_QOS_ROOT);
	ret = irdma_qos_ws_cmd(hw, &info, NULL);
	if (ret)
		goto err_id;
	q->root = IRDMA_QOS_ROOT;
	q->vsi_node = id;
	q->tree = true;
	return 0;

err_id:
	ida_free(&q->ids, id);
err_root:
	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_DELETE, IRDMA_QOS_ROOT,
				 IRDMA_QOS_ROOT);
	irdma_qos_ws_cmd(hw, &info, NULL);
	return ret;
}

static void irdma_qos_tree_free(struct irdma_hw *hw)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_cqp_ws_info info;

	if (!q->tree)
		return;
	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_DELETE, q->vsi_node, q->root);
	irdma_qos_ws_cmd(hw, &info, NULL);
	ida_free(&q->ids, q->vsi_node);
	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_DELETE, q->root, q->root);
	irdma_qos_ws_cmd(hw, &info, NULL);
	q->tree = false;
}

/*
 * A leaf for class @tc: added disabled, hooked into the parent's
 * scheduler, then enabled, the order in which ice expects it.
 */
static int irdma_qos_leaf_build(struct irdma_hw *hw, u8 tc)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_qos_leaf *leaf = &q->leaf[tc];
	struct irdma_func *fn = hw->fn;
	struct irdma_cqp_ws_info info;
	u32 handle;
	int id, ret;

	if (!fn->ops->qset_add || !fn->ops->qset_del)
		return -EOPNOTSUPP;
	id = irdma_qos_node_id(q);
	if (id < 0)
		return id;
	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_ADD, id, q->vsi_node);
	info.leaf = true;
	info.enable = false;
	info.tc = tc;
	info.weight = clamp_t(u8, q->params.rel_bw[tc], 1, 0x7f);
	ret = irdma_qos_ws_cmd(hw, &info, &handle);
	if (ret)
		goto err_id;
	if (handle > FIELD_MAX(IRDMA_QPC_QSHANDLE)) {
		dev_err(&fn->adev->dev, "the engine gave a leaf queue set handle %u, beyond what a QP context holds\n",
			handle);
		ret = -EIO;
		goto err_node;
	}
	ret = fn->ops->qset_add(fn, handle, tc, &leaf->teid);
	if (ret) {
		dev_err(&fn->adev->dev, "the parent did not take the queue set of traffic class %u: %d\n",
			tc, ret);
		goto err_node;
	}
	info.op = IRDMA_WS_OP_MODIFY;
	info.enable = true;
	ret = irdma_qos_ws_cmd(hw, &info, NULL);
	if (ret)
		goto err_qset;
	leaf->node = id;
	leaf->qs_handle = handle;
	qos_stat(q, LEAVES);
	return 0;

err_qset:
	fn->ops->qset_del(fn, handle, tc, leaf->teid);
err_node:
	info.op = IRDMA_WS_OP_DELETE;
	irdma_qos_ws_cmd(hw, &info, NULL);
err_id:
	ida_free(&q->ids, id);
	return ret;
}

static void irdma_qos_leaf_free(struct irdma_hw *hw, u8 tc)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_qos_leaf *leaf = &q->leaf[tc];
	struct irdma_func *fn = hw->fn;
	struct irdma_cqp_ws_info info;

	if (!leaf->node)
		return;
	info = irdma_qos_ws_info(hw, IRDMA_WS_OP_DELETE, leaf->node,
				 q->vsi_node);
	info.leaf = true;
	info.tc = tc;
	irdma_qos_ws_cmd(hw, &info, NULL);
	fn->ops->qset_del(fn, leaf->qs_handle, tc, leaf->teid);
	ida_free(&q->ids, leaf->node);
	memset(leaf, 0, sizeof(*leaf));
}

/* ---- membership ---- */

/* Give @m the queue set of priority @up's class, building its leaf */
static int irdma_qos_take(struct irdma_hw *hw, struct irdma_qos_member *m,
			  u8 up)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	u8 tc = q->params.up2tc[up];
	int ret;

	lockdep_assert_held(&q->lock);
	if (!irdma_qos_builds(hw)) {
		m->tc = tc;
		m->up = up;
		m->qs_handle = q->params.qs_handle[up];
		return 0;
	}
	if (!q->leaf[tc].users) {
		ret = irdma_qos_leaf_build(hw, tc);
		if (ret)
			return ret;
	}
	q->leaf[tc].users++;
	m->tc = tc;
	m->up = up;
	m->qs_handle = q->leaf[tc].qs_handle;
	return 0;
}

/* Drop @m's hold on its leaf; the last holder removes it */
static void irdma_qos_drop(struct irdma_hw *hw, struct irdma_qos_member *m)
{
	struct irdma_qos *q = irdma_qos_of(hw);

	lockdep_assert_held(&q->lock);
	if (m->tc < 0)
		return;
	if (irdma_qos_builds(hw) && !--q->leaf[m->tc].users)
		irdma_qos_leaf_free(hw, m->tc);
	m->tc = -1;
}

/**
 * irdma_qos_attach - give a new QP a queue set
 * @hw: the engine
 * @m: the QP's membership, zeroed or detached
 * @qp_id: its number on the engine
 *
 * The QP starts on user priority 0; @m->qs_handle is what its context
 * names. During a traffic-class change it gets none (0) until the change
 * ends, which is harmless as it cannot send before irdma_qos_activate().
 *
 * Context: process context; sleeps.
 * Return: 0, or the errno of building a leaf.
 */
int irdma_qos_attach(struct irdma_hw *hw, struct irdma_qos_member *m,
		     u32 qp_id)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	int ret = 0;

	*m = (struct irdma_qos_member){ .qp_id = qp_id, .tc = -1,
					.lost = m->lost };
	mutex_lock(&q->lock);
	if (!q->changing)
		ret = irdma_qos_take(hw, m, 0);
	if (!ret)
		list_add_tail(&m->node, &q->members);
	mutex_unlock(&q->lock);
	return ret;
}

/**
 * irdma_qos_activate - put a QP on its connection's priority, to send
 * @hw: the engine
 * @m: an attached QP
 * @up: the connection's user priority (irdma_qos_up())
 *
 * Called before the QP's context goes to the engine for the state in
 * which it sends; the context then names @m->qs_handle.
 *
 * Context: process context; sleeps.
 * Return: 0; -EBUSY during a traffic-class change; the errno of building
 * a leaf (the QP then keeps its queue set).
 */
int irdma_qos_activate(struct irdma_hw *hw, struct irdma_qos_member *m,
		       u8 up)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_qos_member old = *m;
	int ret = 0;

	up &= IRDMA_QOS_UPS - 1;
	mutex_lock(&q->lock);
	if (q->changing) {
		qos_stat(q, BUSY);
		ret = -EBUSY;
		goto out;
	}
	if (m->tc < 0 || m->up != up) {
		/* take the new one first: a shared leaf survives the move */
		ret = irdma_qos_take(hw, m, up);
		if (ret)
			goto out;
		irdma_qos_drop(hw, &old);
	}
	m->active = true;
out:
	mutex_unlock(&q->lock);
	return ret;
}

/**
 * irdma_qos_retire - a QP is about to be destroyed: no resume for it
 * @hw: the engine
 * @m: an attached QP
 *
 * A traffic-class change that ends between the DESTROY_QP and
 * irdma_qos_detach() must not send RESUME_QP for a QP the engine no
 * longer has; the QP keeps its leaf until it is detached.
 *
 * Context: process context; sleeps.
 */
void irdma_qos_retire(struct irdma_hw *hw, struct irdma_qos_member *m)
{
	struct irdma_qos *q = irdma_qos_of(hw);

	mutex_lock(&q->lock);
	m->active = false;
	m->suspended = false;
	mutex_unlock(&q->lock);
}

/**
 * irdma_qos_detach - forget a destroyed QP
 * @hw: the engine
 * @m: its membership; the engine no longer has the QP
 *
 * Context: process context; sleeps.
 */
void irdma_qos_detach(struct irdma_hw *hw, struct irdma_qos_member *m)
{
	struct irdma_qos *q = irdma_qos_of(hw);

	mutex_lock(&q->lock);
	list_del_init(&m->node);
	irdma_qos_drop(hw, m);
	m->active = false;
	m->suspended = false;
	mutex_unlock(&q->lock);
}

/**
 * irdma_qos_handle - the queue set a QP's context is to name now
 * @hw: the engine
 * @m: an attached QP
 *
 * Context: process context; sleeps (the QoS lock).
 * Return: the handle, 0 while a traffic-class change leaves it none.
 */
u16 irdma_qos_handle(struct irdma_hw *hw, const struct irdma_qos_member *m)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	u16 handle;

	mutex_lock(&q->lock);
	handle = m->qs_handle;
	mutex_unlock(&q->lock);
	return handle;
}

/**
 * irdma_qos_up - the user priority of a connection
 * @hw: the engine
 * @tos: its IP TOS / traffic class byte
 * @vlan_prio: its VLAN priority, or -1 when untagged
 *
 * Return: the DSCP's priority when the port prioritises by DSCP, else the
 * VLAN priority, else the priority the TOS stands for in the IP stack.
 */
u8 irdma_qos_up(struct irdma_hw *hw, u8 tos, int vlan_prio)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	u8 up;

	mutex_lock(&q->lock);
	if (q->params.dscp)
		up = q->params.dscp_map[tos >> 2];
	else if (vlan_prio >= 0)
		up = vlan_prio;
	else
		up = rt_tos2priority(tos);
	mutex_unlock(&q->lock);
	return up & (IRDMA_QOS_UPS - 1);
}

/**
 * irdma_qos_prio_tag - the priority tag untagged traffic must carry
 * @hw: the engine
 * @tos: the traffic's IP TOS / traffic class byte
 *
 * A port with more than one traffic class that tells them apart by 802.1p
 * priority (DCB by PCP, not DSCP) puts each frame in its class, and pauses
 * it (PFC), by the priority in its VLAN tag: traffic with no VLAN of its
 * own must then go out with VLAN 0, a priority tag, or it lands in the
 * default class whatever its queue set.
 *
 * Context: any; does not sleep.
 * Return: the priority for @tos, or -1 when untagged traffic stays so.
 */
int irdma_qos_prio_tag(struct irdma_hw *hw, u8 tos)
{
	if (!READ_ONCE(irdma_qos_of(hw)->prio_tags))
		return -1;
	return rt_tos2priority(tos) & (IRDMA_QOS_UPS - 1);
}

/* The classes in force changed: whether untagged traffic needs a tag */
static void irdma_qos_params_set(struct irdma_qos *q)
{
	WRITE_ONCE(q->prio_tags, q->params.num_tc > 1 && !q->params.dscp);
}

/* ---- traffic-class changes ---- */

struct irdma_qos_qp_arg {
	u32 qp_id;
	u16 qs_handle;
};

static int irdma_qos_suspend_build(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_qos_qp_arg *a = arg;

	return irdma_cqpw_suspend_qp(wqe, valid, a->qp_id);
}

static int irdma_qos_resume_build(__le64 *wqe, u8 valid, const void *arg)
{
	const struct irdma_qos_qp_arg *a = arg;

	return irdma_cqpw_resume_qp(wqe, valid, a->qp_id, a->qs_handle);
}

static int irdma_qos_qp_cmd(struct irdma_hw *hw, struct irdma_qos_member *m,
			    bool suspend)
{
	struct irdma_qos_qp_arg arg = {
		.qp_id = m->qp_id,
		.qs_handle = m->qs_handle,
	};
	struct irdma_cmd cmd = {
		.build = suspend ? irdma_qos_suspend_build :
				   irdma_qos_resume_build,
		.arg = &arg,
		.name = suspend ? "SUSPEND_QP" : "RESUME_QP",
	};

	return irdma_cmd_exec(hw, &cmd);
}

/**
 * irdma_qos_tc_prepare - the parent is about to change the traffic classes
 * @hw: the engine
 *
 * Suspends every QP that may be sending and waits (a bounded time) for
 * the engine to confirm, then tears the leaves down. Until
 * irdma_qos_tc_done() no QP may start sending.
 *
 * Context: process context, from the parent's event; sleeps.
 */
void irdma_qos_tc_prepare(struct irdma_hw *hw)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_qos_member *m;
	long left;
	u8 tc;

	mutex_lock(&q->lock);
	if (q->changing) {
		mutex_unlock(&q->lock);
		return;
	}
	q->changing = true;
	list_for_each_entry(m, &q->members, node) {
		if (!m->active || m->suspended)
			continue;
		atomic_inc(&q->suspends);
		if (irdma_qos_qp_cmd(hw, m, true)) {
			atomic_dec(&q->suspends);
			continue;
		}
		m->suspended = true;
		qos_stat(q, SUSPENDS);
	}
	/*
	 * The confirmations come through the AEQ thread, whose other work
	 * (a TERMINATE, say) may write a QP context and so want the lock.
	 * Meanwhile QPs may come, without a queue set, and go.
	 */
	mutex_unlock(&q->lock);
	left = wait_event_timeout(q->suspend_wq, !atomic_read(&q->suspends),
				  msecs_to_jiffies(IRDMA_QOS_SUSPEND_MS));
	mutex_lock(&q->lock);
	if (!left) {
		dev_warn(&hw->fn->adev->dev, "%d QPs did not confirm their suspension for the traffic-class change\n",
			 atomic_read(&q->suspends));
		qos_stat(q, SUSPEND_TIMEOUTS);
		atomic_set(&q->suspends, 0);
	}
	list_for_each_entry(m, &q->members, node)
		m->tc = -1;
	if (irdma_qos_builds(hw))
		for (tc = 0; tc < IRDMA_QOS_TCS; tc++)
			irdma_qos_leaf_free(hw, tc);
	mutex_unlock(&q->lock);
}

/**
 * irdma_qos_tc_done - the parent's traffic-class change is over
 * @hw: the engine
 *
 * Reads the new classes, gives every QP the leaf of its priority's class
 * and resumes the suspended ones on it. A QP that cannot have a leaf
 * resumes on its old queue set and is handed to its owner's @lost. A
 * change the parent did not announce is carried out in full here.
 *
 * Context: process context, from the parent's event; sleeps.
 */
void irdma_qos_tc_done(struct irdma_hw *hw)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	struct irdma_qos_member *m;
	u16 old;

	if (!READ_ONCE(q->changing))
		irdma_qos_tc_prepare(hw);
	mutex_lock(&q->lock);
	irdma_qos_fetch(hw, &q->params);
	irdma_qos_params_set(q);
	q->changing = false;
	list_for_each_entry(m, &q->members, node) {
		old = m->qs_handle;
		if (irdma_qos_take(hw, m, m->up)) {
			m->qs_handle = old;
			qos_stat(q, LOST);
			if (m->suspended)
				irdma_qos_qp_cmd(hw, m, false);
			m->suspended = false;
			m->active = false;
			if (m->lost)
				m->lost(m);
			continue;
		}
		if (!m->suspended)
			continue;
		m->suspended = false;
		if (!irdma_qos_qp_cmd(hw, m, false))
			qos_stat(q, RESUMES);
	}
	qos_stat(q, TC_CHANGES);
	mutex_unlock(&q->lock);
}

/**
 * irdma_qos_suspended - the engine confirmed a SUSPEND_QP
 * @hw: the engine
 * @qp_id: the QP
 *
 * Context: the AEQ thread.
 */
void irdma_qos_suspended(struct irdma_hw *hw, u32 qp_id)
{
	struct irdma_qos *q = irdma_qos_of(hw);

	if (!atomic_dec_if_positive(&q->suspends))
		wake_up(&q->suspend_wq);
}

/**
 * irdma_qos_read_stats - the QoS counters
 * @hw: the engine
 * @vals: IRDMA_QOS_STAT_COUNT values, in enum irdma_qos_stat order
 */
void irdma_qos_read_stats(struct irdma_hw *hw, u64 *vals)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	int i;

	for (i = 0; i < IRDMA_QOS_STAT_COUNT; i++)
		vals[i] = atomic64_read(&q->stats[i]);
}

/**
 * irdma_qos_init - set up the scheduler of a function whose CQP runs
 * @hw: the engine
 *
 * Context: process context; sleeps.
 * Return: 0 or the errno of building the tree (nothing is left then).
 */
int irdma_qos_init(struct irdma_hw *hw)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	int ret;

	mutex_init(&q->lock);
	INIT_LIST_HEAD(&q->members);
	ida_init(&q->ids);
	init_waitqueue_head(&q->suspend_wq);
	irdma_qos_fetch(hw, &q->params);
	irdma_qos_params_set(q);
	if (!irdma_qos_builds(hw))
		return 0;
	ret = irdma_qos_tree_build(hw);
	if (ret)
		ida_destroy(&q->ids);
	return ret;
}

/**
 * irdma_qos_fini - undo irdma_qos_init()
 * @hw: the engine; every QP is gone, its CQP still runs
 *
 * Context: process context; sleeps.
 */
void irdma_qos_fini(struct irdma_hw *hw)
{
	struct irdma_qos *q = irdma_qos_of(hw);
	u8 tc;

	mutex_lock(&q->lock);
	if (!list_empty(&q->members))
		dev_warn(&hw->fn->adev->dev, "QPs left on the scheduler at tear-down\n");
	if (irdma_qos_builds(hw)) {
		for (tc = 0; tc < IRDMA_QOS_TCS; tc++)
			irdma_qos_leaf_free(hw, tc);
		irdma_qos_tree_free(hw);
	}
	mutex_unlock(&q->lock);
	ida_destroy(&q->ids);
	mutex_destroy(&q->lock);
}
