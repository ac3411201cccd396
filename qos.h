/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: which transmit queue set each QP sends through, and the
 * traffic-class changes that move them (qos.c).
 */
#ifndef IRDMA_QOS_H
#define IRDMA_QOS_H

#include <linux/idr.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>

struct irdma_hw;

#define IRDMA_QOS_UPS		8	/* 802.1p user priorities */
#define IRDMA_QOS_TCS		8	/* traffic classes */
#define IRDMA_QOS_DSCPS		64

/**
 * struct irdma_qos_params - the traffic classes of the port, from the parent
 * @num_tc: classes in use, 1 to IRDMA_QOS_TCS (0 to @num_tc - 1)
 * @up2tc: the class of each user priority
 * @rel_bw: each class's share of the bandwidth, in percent
 * @qs_handle: gen1: the queue set of each user priority, which the parent
 *	(i40e) made; gen2 builds its own
 * @dscp: the port prioritises by DSCP, not by VLAN priority: a
 *	connection's user priority is the entry of @dscp_map for its DSCP
 * @dscp_map: user priority of each DSCP value
 */
struct irdma_qos_params {
	u8 num_tc;
	u8 up2tc[IRDMA_QOS_UPS];
	u8 rel_bw[IRDMA_QOS_TCS];
	u16 qs_handle[IRDMA_QOS_UPS];
	bool dscp;
	u8 dscp_map[IRDMA_QOS_DSCPS];
};

/**
 * struct irdma_qos_member - a QP as the scheduler set-up knows it
 * @node: in the QoS state's member list
 * @qp_id: the QP's number on the engine
 * @qs_handle: the queue set its context names; 0 while it has none (a QP
 *	created during a traffic-class change, until the change ends)
 * @up: its user priority
 * @tc: the class whose leaf it holds a reference on, or -1
 * @active: it reached the state in which the engine sends for it (RTR or
 *	RTS), so a traffic-class change suspends it
 * @suspended: a SUSPEND_QP was issued and no RESUME_QP yet
 * @lost: called (under the QoS lock, may not sleep long) when a change
 *	could not give it a queue set again, after it was resumed on its old
 *	one; the owner moves it to the error state. May be NULL
 *
 * Embedded in its owner (struct irdma_qp, the ILQ and IEQ); the fields are
 * the QoS state's, under its lock.
 */
struct irdma_qos_member {
	struct list_head node;
	u32 qp_id;
	u16 qs_handle;
	u8 up;
	s8 tc;
	bool active;
	bool suspended;
	void (*lost)(struct irdma_qos_member *m);
};

/**
 * struct irdma_qos_leaf - the scheduler leaf of one traffic class (gen2)
 * @node: its work-scheduler node id (0: none)
 * @qs_handle: the queue set handle the engine returned for it
 * @teid: the parent's handle of its registration
 * @users: members holding it; it is removed with the last
 */
struct irdma_qos_leaf {
	u16 node;
	u16 qs_handle;
	u32 teid;
	u32 users;
};

/**
 * enum irdma_qos_stat - what the QoS state counts
 * @IRDMA_QOS_STAT_TC_CHANGES: traffic-class changes carried out
 * @IRDMA_QOS_STAT_SUSPENDS: QPs suspended for one
 * @IRDMA_QOS_STAT_SUSPEND_TIMEOUTS: suspensions the engine did not
 *	confirm in time
 * @IRDMA_QOS_STAT_RESUMES: QPs resumed after one
 * @IRDMA_QOS_STAT_LOST: QPs that got no queue set after one (moved to ERR)
 * @IRDMA_QOS_STAT_LEAVES: scheduler leaves added
 * @IRDMA_QOS_STAT_BUSY: QPs refused the move to RTR/RTS while a change ran
 * @IRDMA_QOS_STAT_COUNT: number of counters
 */
enum irdma_qos_stat {
	IRDMA_QOS_STAT_TC_CHANGES,
	IRDMA_QOS_STAT_SUSPENDS,
	IRDMA_QOS_STAT_SUSPEND_TIMEOUTS,
	IRDMA_QOS_STAT_RESUMES,
	IRDMA_QOS_STAT_LOST,
	IRDMA_QOS_STAT_LEAVES,
	IRDMA_QOS_STAT_BUSY,
	IRDMA_QOS_STAT_COUNT,
};

/**
 * struct irdma_qos - the transmit scheduler set-up of one function
 * @lock: serialises set-up, changes and membership; protects every field
 *	but @suspends and @stats
 * @params: the classes in force
 * @members: every QP the engine has (struct irdma_qos_member)
 * @leaf: gen2: the leaf of each class
 * @root: gen2: the root node id
 * @vsi_node: gen2: the node of the function's VSI, parent of the leaves
 * @tree: gen2: @root and @vsi_node exist
 * @ids: gen2: node ids in use but the root's
 * @changing: between a change's announcement and its end: no leaf is
 *	made, no QP may start sending
 * @prio_tags: the port has more than one class and tells them apart by
 *	802.1p priority, not DSCP: untagged traffic must carry a priority tag
 *	(VLAN 0); read without @lock (irdma_qos_prio_tag())
 * @suspends: SUSPEND_QP commands whose AE has not come yet
 * @suspend_wq: woken when @suspends reaches 0
 * @stats: counters (enum irdma_qos_stat)
 */
struct irdma_qos {
	struct mutex lock; /* see above */
	struct irdma_qos_params params;
	struct list_head members;
	struct irdma_qos_leaf leaf[IRDMA_QOS_TCS];
	u16 root;
	u16 vsi_node;
	bool tree;
	struct ida ids;
	bool changing;
	bool prio_tags;
	atomic_t suspends;
	wait_queue_head_t suspend_wq;
	atomic64_t stats[IRDMA_QOS_STAT_COUNT];
};

int irdma_qos_init(struct irdma_hw *hw);
void irdma_qos_fini(struct irdma_hw *hw);
u8 irdma_qos_up(struct irdma_hw *hw, u8 tos, int vlan_prio);
int irdma_qos_prio_tag(struct irdma_hw *hw, u8 tos);
int irdma_qos_attach(struct irdma_hw *hw, struct irdma_qos_member *m,
		     u32 qp_id);
int irdma_qos_activate(struct irdma_hw *hw, struct irdma_qos_member *m,
		       u8 up);
u16 irdma_qos_handle(struct irdma_hw *hw, const struct irdma_qos_member *m);
void irdma_qos_retire(struct irdma_hw *hw, struct irdma_qos_member *m);
void irdma_qos_detach(struct irdma_hw *hw, struct irdma_qos_member *m);
void irdma_qos_tc_prepare(struct irdma_hw *hw);
void irdma_qos_tc_done(struct irdma_hw *hw);
void irdma_qos_suspended(struct irdma_hw *hw, u32 qp_id);
void irdma_qos_read_stats(struct irdma_hw *hw, u64 *vals);

#endif /* IRDMA_QOS_H */
