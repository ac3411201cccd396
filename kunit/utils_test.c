// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the CQP command path (utils.c) against a fake device
 * that completes commands only when the test says so: several issuers'
 * commands in flight at once, each completion reaching its own issuer,
 * a command given up on, and requests posted a batch at a time.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "../hw.h"
#include "../main.h"

#define CMD_T_CQP_SIZE	16
#define CMD_T_CCQ_SIZE	32
#define CMD_T_CQPDB	0x500800
#define CMD_T_CQPTAIL	0x500880
#define CMD_T_ISSUERS	3

/**
 * struct cmd_t_dev - a CQP that runs its WQEs only when the test asks
 * @hw: the function the driver sees
 * @fn: its description
 * @adev: the device its messages name
 * @regs: where its CQPDB and CQPTAIL are
 * @lock: protects the device state below against the issuers' doorbells
 * @sq_tail: next WQE slot the device runs
 * @sq_pol: valid bit of the current lap of the SQ
 * @cq_head: next CCQ slot the device writes
 * @cq_pol: valid bit of the current lap of the CCQ
 * @db: the last head written to CQPDB
 * @doorbells: CQPDB writes
 */
struct cmd_t_dev {
	struct irdma_hw hw;
	struct irdma_func fn;
	struct auxiliary_device adev;
	struct irdma_hw_regs regs;
	spinlock_t lock; /* sq_tail .. doorbells */
	u32 sq_tail;
	u8 sq_pol;
	u32 cq_head;
	u8 cq_pol;
	u32 db;
	u32 doorbells;
};

static void cmd_t_wr32(const struct irdma_mmio *mmio, u32 off, u32 val)
{
	struct cmd_t_dev *d = mmio->priv;
	unsigned long flags;

	if (off != CMD_T_CQPDB)
		return;
	spin_lock_irqsave(&d->lock, flags);
	d->db = val;
	d->doorbells++;
	spin_unlock_irqrestore(&d->lock, flags);
}

static u32 cmd_t_rd32(const struct irdma_mmio *mmio, u32 off)
{
	struct cmd_t_dev *d = mmio->priv;

	return off == CMD_T_CQPTAIL ? d->sq_tail : 0;
}

static const struct irdma_mmio_ops cmd_t_mmio_ops = {
	.write32 = cmd_t_wr32,
	.read32 = cmd_t_rd32,
};

/* WQEs rung and not run yet */
static u32 cmd_t_pending(struct cmd_t_dev *d)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&d->lock, flags);
	n = (d->db - d->sq_tail) % CMD_T_CQP_SIZE;
	spin_unlock_irqrestore(&d->lock, flags);
	return n;
}

/*
 * run the next WQE: its completion returns 0x100 + its slot; a non-zero
 * @major fails it with @major and @minor, as the engine fails a command
 */
static void cmd_t_run_one_as(struct cmd_t_dev *d, u16 major, u16 minor)
{
	__le64 *cqe = d->hw.ccq.ring + d->cq_head * 4;
	unsigned long flags;
	u32 idx;

	spin_lock_irqsave(&d->lock, flags);
	idx = d->sq_tail;
	cqe[0] = 0;
	cqe[1] = cpu_to_le64((uintptr_t)&d->hw.cqp);
	cqe[2] = cpu_to_le64(0x100 + idx);
	/* the valid bit last */
	wmb();
	cqe[3] = cpu_to_le64((u64)d->cq_pol << 63 | (u64)idx << 32 |
			     (major ? IRDMA_CQE_ERROR |
				      FIELD_PREP(IRDMA_CQE_MAJERR, major) |
				      FIELD_PREP(IRDMA_CQE_MINERR, minor) : 0));
	if (++d->cq_head == CMD_T_CCQ_SIZE) {
		d->cq_head = 0;
		d->cq_pol ^= 1;
	}
	d->sq_tail = (idx + 1) % CMD_T_CQP_SIZE;
	spin_unlock_irqrestore(&d->lock, flags);
}

static void cmd_t_run_one(struct cmd_t_dev *d)
{
	cmd_t_run_one_as(d, 0, 0);
}

static void cmd_t_exit(struct kunit *test)
{
	struct cmd_t_dev *d = test->priv;

	if (d->hw.cmd_wq)
		destroy_workqueue(d->hw.cmd_wq);
}

static int cmd_t_init(struct kunit *test)
{
	struct cmd_t_dev *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct irdma_hw *hw;

	KUNIT_ASSERT_NOT_NULL(test, d);
	test->priv = d;
	hw = &d->hw;
	spin_lock_init(&d->lock);
	d->cq_pol = 1;
	d->regs.cqp_db = CMD_T_CQPDB;
	d->regs.cqp_tail = CMD_T_CQPTAIL;
	d->adev.dev.init_name = "irdma-cmd-kunit";
	d->fn.adev = &d->adev;
	hw->fn = &d->fn;
	hw->regs = &d->regs;
	hw->mmio.ops = &cmd_t_mmio_ops;
	hw->mmio.priv = d;
	mutex_init(&hw->cmd_mutex);
	irdma_cmd_req_init(hw);
	hw->cmd_wq = alloc_ordered_workqueue("irdma-cmd-kunit", 0);
	KUNIT_ASSERT_NOT_NULL(test, hw->cmd_wq);
	hw->cqp.sq = kunit_kcalloc(test, CMD_T_CQP_SIZE * IRDMA_CQP_WQE_WORDS,
				   sizeof(__le64), GFP_KERNEL);
	hw->cqp.scratch = kunit_kcalloc(test, CMD_T_CQP_SIZE, sizeof(u64),
					GFP_KERNEL);
	hw->cqp.mmio = &hw->mmio;
	hw->cqp.db_off = CMD_T_CQPDB;
	hw->cqp.size = CMD_T_CQP_SIZE;
	KUNIT_ASSERT_EQ(test, irdma_cqp_init(&hw->cqp), 0);
	hw->ccq.ring = kunit_kcalloc(test, CMD_T_CCQ_SIZE * 4, sizeof(__le64),
				     GFP_KERNEL);
	hw->ccq.shadow = kunit_kcalloc(test, 8, sizeof(__le64), GFP_KERNEL);
	hw->ccq.mmio = &hw->mmio;
	hw->ccq.size = CMD_T_CCQ_SIZE;
	hw->ccq.hw_rev = IRDMA_GEN_2;
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_init(&hw->ccq), 0);
	return 0;
}

static int cmd_t_build_nop(__le64 *wqe, u8 valid, const void *arg)
{
	return irdma_cqpw_nop(wqe, valid);
}

/**
 * struct cmd_t_issuer - one thread issuing one command
 * @hw: the function
 * @task: the thread
 * @ret: what irdma_cmd_exec() returned
 * @op_ret: the completion's return value
 * @done: the thread is through
 */
struct cmd_t_issuer {
	struct irdma_hw *hw;
	struct task_struct *task;
	int ret;
	u32 op_ret;
	struct completion done;
};

static int cmd_t_issue(void *data)
{
	struct cmd_t_issuer *is = data;
	struct irdma_cmd cmd = {
		.build = cmd_t_build_nop,
		.name = "NOP (kunit)",
	};

	is->ret = irdma_cmd_exec(is->hw, &cmd);
	is->op_ret = cmd.done.op_ret;
	complete(&is->done);
	return 0;
}

/* wait up to @ms for @n WQEs rung and not run */
static bool cmd_t_wait_pending(struct cmd_t_dev *d, u32 n, unsigned int ms)
{
	while (cmd_t_pending(d) < n && ms--)
		usleep_range(1000, 2000);
	return cmd_t_pending(d) >= n;
}

/*
 * Three issuers each post a command while the device runs none: all three
 * are in the ring at once (none waits for another's completion). The
 * device then runs them in ring order, and each issuer gets the
 * completion of its own slot.
 */
static void irdma_cmd_exec_issuers_in_flight_at_once(struct kunit *test)
{
	struct cmd_t_dev *d = test->priv;
	struct cmd_t_issuer is[CMD_T_ISSUERS];
	bool seen[CMD_T_ISSUERS] = {};
	int i;

	for (i = 0; i < CMD_T_ISSUERS; i++) {
		is[i].hw = &d->hw;
		init_completion(&is[i].done);
		is[i].task = kthread_run(cmd_t_issue, &is[i], "cmd-kunit-%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(is[i].task));
	}
	KUNIT_EXPECT_TRUE(test, cmd_t_wait_pending(d, CMD_T_ISSUERS, 2000));
	KUNIT_EXPECT_EQ(test, d->hw.cmd_inflight, (u32)CMD_T_ISSUERS);
	for (i = 0; i < CMD_T_ISSUERS; i++)
		cmd_t_run_one(d);
	for (i = 0; i < CMD_T_ISSUERS; i++) {
		KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&is[i].done,
								  10 * HZ), 0UL);
		KUNIT_EXPECT_EQ(test, is[i].ret, 0);
		/* the slots are 0 to 2, one issuer each */
		KUNIT_ASSERT_GE(test, is[i].op_ret, 0x100U);
		KUNIT_ASSERT_LT(test, is[i].op_ret, 0x100U + CMD_T_ISSUERS);
		KUNIT_EXPECT_FALSE(test, seen[is[i].op_ret - 0x100]);
		seen[is[i].op_ret - 0x100] = true;
	}
	KUNIT_EXPECT_EQ(test, d->hw.cmd_inflight, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&d->hw.cmd_stats[IRDMA_CMD_STAT_WAITED]),
			(s64)CMD_T_ISSUERS);
}

/*
 * A command the device never runs times out and breaks the CQP: the next
 * one fails at once. When the device runs it after all, its completion
 * goes to no one (the issuer is gone; KASAN would see a write to its
 * stack).
 */
static void irdma_cmd_exec_timeout_breaks_cqp(struct kunit *test)
{
	struct cmd_t_dev *d = test->priv;
	struct irdma_cmd cmd = { .build = cmd_t_build_nop, .name = "NOP" };
	struct irdma_cmd again = { .build = cmd_t_build_nop, .name = "NOP" };
	unsigned long flags;
	int err;

	KUNIT_EXPECT_EQ(test, irdma_cmd_exec(&d->hw, &cmd), -ETIMEDOUT);
	KUNIT_EXPECT_TRUE(test, d->hw.cqp_broken);
	KUNIT_EXPECT_EQ(test, irdma_cmd_exec(&d->hw, &again), -EIO);
	KUNIT_EXPECT_EQ(test, d->doorbells, 1U);
	cmd_t_run_one(d);
	spin_lock_irqsave(&d->hw.cqp.lock, flags);
	err = irdma_ccq_poll(&d->hw.cqp, &d->hw.ccq, &cmd.done);
	spin_unlock_irqrestore(&d->hw.cqp.lock, flags);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, cmd.done.scratch, 0ULL);
}

/**
 * struct cmd_t_gate - a work that holds the command workqueue until opened
 * @work: queued on the function's @cmd_wq
 * @open: completed by the test
 */
struct cmd_t_gate {
	struct work_struct work;
	struct completion open;
};

static void cmd_t_gate_wait(struct work_struct *work)
{
	struct cmd_t_gate *g = container_of(work, struct cmd_t_gate, work);

	wait_for_completion(&g->open);
}

/*
 * Requests waiting when the command workqueue gets to them are all posted
 * before the first is waited for: one engine pass can take them all.
 * (The queue is held while they are submitted, so that it does not take
 * the first alone.) They complete in order, and a sync waits for every
 * one.
 */
static void irdma_cmd_req_posts_a_batch(struct kunit *test)
{
	struct cmd_t_dev *d = test->priv;
	struct irdma_cmd_req *req;
	atomic_t failed = ATOMIC_INIT(0);
	struct cmd_t_gate gate;
	u64 ticket = 0;
	int i;

	INIT_WORK_ONSTACK(&gate.work, cmd_t_gate_wait);
	init_completion(&gate.open);
	queue_work(d->hw.cmd_wq, &gate.work);
	for (i = 0; i < CMD_T_ISSUERS; i++) {
		req = irdma_cmd_req_alloc(cmd_t_build_nop, NULL, 0, "NOP",
					  GFP_KERNEL);
		/* no assertion here: the gate's work must end first */
		KUNIT_EXPECT_NOT_NULL(test, req);
		if (!req)
			break;
		req->failed = &failed;
		ticket = irdma_cmd_req_submit(&d->hw, req);
	}
	complete(&gate.open);
	flush_work(&gate.work);
	destroy_work_on_stack(&gate.work);
	if (i < CMD_T_ISSUERS)
		return;
	KUNIT_EXPECT_TRUE(test, cmd_t_wait_pending(d, CMD_T_ISSUERS, 2000));
	KUNIT_EXPECT_FALSE(test, irdma_cmd_req_ran(&d->hw, 1));
	for (i = 0; i < CMD_T_ISSUERS; i++)
		cmd_t_run_one(d);
	irdma_cmd_req_sync(&d->hw);
	KUNIT_EXPECT_TRUE(test, irdma_cmd_req_ran(&d->hw, ticket));
	KUNIT_EXPECT_EQ(test, atomic_read(&failed), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&d->hw.cmd_stats[IRDMA_CMD_STAT_POSTED]),
			(s64)CMD_T_ISSUERS);
}

/**
 * struct cmd_t_ends - what the @end of requests heard
 * @n: how many were told
 * @ret: what each was told, in order
 * @on_wq: each was told on the command workqueue
 */
struct cmd_t_ends {
	int n;
	int ret[CMD_T_ISSUERS];
	bool on_wq[CMD_T_ISSUERS];
};

static void cmd_t_end(struct irdma_cmd_req *req, int ret)
{
	struct cmd_t_ends *e = req->end_ctx;

	if (e->n < CMD_T_ISSUERS) {
		e->on_wq[e->n] = current_work() == &req->hw->req_work;
		e->ret[e->n] = ret;
	}
	e->n++;
}

/*
 * Requests nobody waits for, the first of which the engine fails: each
 * one's issuer hears how it ended through @end, on the command workqueue
 * and in order, the failed one with -EIO (a refusal is not dropped
 * unheard), the others with 0.
 */
static void irdma_cmd_req_end_hears_refusal(struct kunit *test)
{
	struct cmd_t_dev *d = test->priv;
	atomic_t failed = ATOMIC_INIT(0);
	struct cmd_t_ends ends = {};
	struct irdma_cmd_req *req;
	struct cmd_t_gate gate;
	int i;

	INIT_WORK_ONSTACK(&gate.work, cmd_t_gate_wait);
	init_completion(&gate.open);
	queue_work(d->hw.cmd_wq, &gate.work);
	for (i = 0; i < CMD_T_ISSUERS; i++) {
		req = irdma_cmd_req_alloc(cmd_t_build_nop, NULL, 0, "NOP",
					  GFP_KERNEL);
		KUNIT_EXPECT_NOT_NULL(test, req);
		if (!req)
			break;
		req->failed = &failed;
		req->end = cmd_t_end;
		req->end_ctx = &ends;
		irdma_cmd_req_submit(&d->hw, req);
	}
	complete(&gate.open);
	flush_work(&gate.work);
	destroy_work_on_stack(&gate.work);
	if (i < CMD_T_ISSUERS) {
		irdma_cmd_req_sync(&d->hw);
		return;
	}
	KUNIT_EXPECT_TRUE(test, cmd_t_wait_pending(d, CMD_T_ISSUERS, 2000));
	/* the engine's refusal: an invalid-argument major code */
	cmd_t_run_one_as(d, 0x8029, 0x1);
	for (i = 1; i < CMD_T_ISSUERS; i++)
		cmd_t_run_one(d);
	irdma_cmd_req_sync(&d->hw);
	KUNIT_ASSERT_EQ(test, ends.n, CMD_T_ISSUERS);
	KUNIT_EXPECT_EQ(test, ends.ret[0], -EIO);
	for (i = 1; i < CMD_T_ISSUERS; i++)
		KUNIT_EXPECT_EQ(test, ends.ret[i], 0);
	for (i = 0; i < CMD_T_ISSUERS; i++)
		KUNIT_EXPECT_TRUE(test, ends.on_wq[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&failed), 1);
}

static struct kunit_case irdma_cmd_cases[] = {
	KUNIT_CASE(irdma_cmd_exec_issuers_in_flight_at_once),
	KUNIT_CASE(irdma_cmd_exec_timeout_breaks_cqp),
	KUNIT_CASE(irdma_cmd_req_posts_a_batch),
	KUNIT_CASE(irdma_cmd_req_end_hears_refusal),
	{}
};

static struct kunit_suite irdma_utils_suite = {
	.name = "irdma_utils",
	.init = cmd_t_init,
	.exit = cmd_t_exit,
	.test_cases = irdma_cmd_cases,
};

kunit_test_suite(irdma_utils_suite);
