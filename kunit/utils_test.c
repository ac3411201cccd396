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
#include "cmd_fake.h"

#define CMD_T_ISSUERS	3

static void cmd_t_exit(struct kunit *test)
{
	cmd_t_dev_exit(test->priv);
}

static int cmd_t_init(struct kunit *test)
{
	struct cmd_t_dev *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	test->priv = d;
	cmd_t_dev_init(test, d);
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
