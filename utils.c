// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: helpers below the function lifecycle: coherent DMA memory, the
 * synchronous CQP command path and the lookup of QPs and CQs by number.
 *
 * CQP commands of any number of callers are in flight at once, as the
 * hardware allows: it runs them in ring order, and a completion names its
 * slot, whose cookie is the waiting command (struct irdma_cmd). Whoever
 * looks at the CCQ first hands every completion it finds to its command:
 * while CEQ 0 exists that is CEQ 0's interrupt thread, the CCQ armed and
 * the issuers asleep; before CEQ 0 is made and after it is gone (bring-up
 * and tear-down) the issuers poll. Only the commands that create and
 * destroy the CCQ itself go alone (hw->cmd_mutex).
 *
 * Callers that must not sleep (the CM's steering filters, the ARP cache
 * fed by the neighbour notifier) post a request instead: it joins the
 * function's request list, which a work on the ordered command workqueue
 * runs through the same path in submission order, posting a batch at a
 * time before it waits, and frees.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/slab.h>

#include "main.h"
#include "hw.h"
#include "trace.h"

/**
 * irdma_dma_alloc - allocate zeroed coherent DMA memory
 * @dev: device the memory is for
 * @mem: filled in on success, zeroed on failure
 * @size: bytes; rounded up to whole pages, so the memory is at least
 *	page aligned, which covers every ring and buffer alignment the
 *	engine asks for
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc(struct device *dev, struct irdma_dma_mem *mem,
		    size_t size)
{
	mem->size = PAGE_ALIGN(size);
	mem->va = dma_alloc_coherent(dev, mem->size, &mem->pa, GFP_KERNEL);
	if (!mem->va) {
		mem->size = 0;
		mem->pa = 0;
		return -ENOMEM;
	}
	return 0;
}

/**
 * irdma_dma_free - free memory from irdma_dma_alloc()
 * @dev: device the memory is for
 * @mem: the allocation; may be empty. Zeroed afterwards.
 */
void irdma_dma_free(struct device *dev, struct irdma_dma_mem *mem)
{
	if (mem->va)
		dma_free_coherent(dev, mem->size, mem->va, mem->pa);
	memset(mem, 0, sizeof(*mem));
}

/**
 * irdma_xa_get_ref - find an object by number and hold it
 * @xa: the engine's QP or CQ table; its objects are freed only after an
 *	RCU grace period once they have left it
 * @id: the number
 * @refs_off: offsetof() the object's refcount_t
 *
 * An object whose count has dropped to zero is being destroyed: it is not
 * found.
 *
 * Context: any context.
 * Return: the object, its count raised, or NULL.
 */
void *irdma_xa_get_ref(struct xarray *xa, u32 id, size_t refs_off)
{
	void *obj;

	rcu_read_lock();
	obj = xa_load(xa, id);
	if (obj && !refcount_inc_not_zero(obj + refs_off))
		obj = NULL;
	rcu_read_unlock();
	return obj;
}

/**
 * irdma_hw_rd32 - read a register of the function
 * @hw: the function
 * @off: byte offset in BAR0
 *
 * Return: the value.
 */
u32 irdma_hw_rd32(struct irdma_hw *hw, u32 off)
{
	return irdma_mmio_rd32(&hw->mmio, off);
}

/**
 * irdma_hw_wr32 - write a register of the function
 * @hw: the function
 * @off: byte offset in BAR0
 * @val: value
 */
void irdma_hw_wr32(struct irdma_hw *hw, u32 off, u32 val)
{
	irdma_mmio_wr32(&hw->mmio, off, val);
}

/*
 * Put the command in the next slot and ring the doorbell, with @cmd as
 * the slot's cookie (a completion names it). Caller holds hw->cqp.lock.
 * Return: the builder's error (a NOP went in its place), or -EBUSY when
 * the ring is full (nothing was posted).
 */
static int irdma_cmd_post(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	__le64 *wqe;
	int ret;
	u8 valid;

	lockdep_assert_held(&hw->cqp.lock);
	cmd->idx = hw->cqp.head;
	wqe = irdma_cqp_get_wqe(&hw->cqp, (uintptr_t)cmd, &valid);
	if (!wqe)
		return -EBUSY;
	ret = cmd->build(wqe, valid, cmd->arg);
	/* the slot is taken: fill it with something the engine will pass */
	if (ret)
		irdma_cqpw_nop(wqe, valid);
	irdma_cqp_post(&hw->cqp);
	cmd->posted = true;
	hw->cmd_inflight++;
	return ret;
}

/*
 * Longest sleep between two looks at the CCQ while waiting on CEQ 0: a
 * completion whose event was lost (a CQ arm doorbell the device did not
 * take, say) costs this much and no more.
 */
#define IRDMA_CMD_IRQ_SLICE_MS	10

/* a completion: to the command whose cookie it carries, if it still waits */
static void irdma_cmd_finish(struct irdma_hw *hw,
			     const struct irdma_ccq_info *info)
{
	struct irdma_cmd *cmd = (struct irdma_cmd *)(uintptr_t)info->scratch;

	lockdep_assert_held(&hw->cqp.lock);
	hw->cmd_inflight--;
	/* abandoned by an issuer that timed out (irdma_cmd_abandon()) */
	if (!cmd)
		return;
	cmd->done = *info;
	cmd->status = info->error ? -EIO : 0;
	/*
	 * the issuer may return, and @cmd go, once this is seen; complete_all()
	 * because its wait must not consume it (it looks with
	 * completion_done() after waking)
	 */
	complete_all(&cmd->finished);
}

/*
 * Take every completion the CCQ holds to its command, then arm the CCQ
 * for the next one if commands are in flight and CEQ 0 reports them.
 * Whoever finds completions delivers them: CEQ 0's thread, or an issuer
 * that looks itself (no CEQ 0 yet, or an event that did not come).
 * @disarmed: the CCQ's event came (or is given up for lost), so the CCQ
 * is no longer armed.
 */
static void irdma_cmd_reap(struct irdma_hw *hw, bool disarmed)
{
	struct irdma_ccq_info info;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&hw->cqp.lock, flags);
	if (disarmed)
		hw->ccq_armed = false;
	/* -EIO: a stale completion (a no_ccq command's), consumed */
	while ((err = irdma_ccq_poll(&hw->cqp, &hw->ccq, &info)) == 0 ||
	       err == -EIO)
		if (!err)
			irdma_cmd_finish(hw, &info);
	if (READ_ONCE(hw->ccq_irq) && hw->cmd_inflight && !hw->ccq_armed) {
		/* a CQE that came after the last look raises the event */
		irdma_uk_cq_arm(&hw->ccq, false);
		hw->ccq_armed = true;
	}
	spin_unlock_irqrestore(&hw->cqp.lock, flags);
}

/*
 * The command waited too long: a completion that still comes finds no
 * one. The first to give up marks the CQP broken; those that give up
 * after it had no fault of their own (-EIO).
 */
static int irdma_cmd_abandon(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	unsigned long flags;
	bool first;

	spin_lock_irqsave(&hw->cqp.lock, flags);
	if (completion_done(&cmd->finished)) {
		spin_unlock_irqrestore(&hw->cqp.lock, flags);
		return cmd->status;
	}
	hw->cqp.scratch[cmd->idx] = 0;
	first = !hw->cqp_broken;
	hw->cqp_broken = true;
	spin_unlock_irqrestore(&hw->cqp.lock, flags);
	if (!first)
		return -EIO;
	/* did the engine not get to it, or did its completion go? */
	dev_err(&hw->fn->adev->dev,
		"CQP slot %u of %u; the engine's CQP tail is at %lu\n",
		cmd->idx, hw->cqp.size,
		FIELD_GET(IRDMA_CQPTAIL_WQTAIL,
			  irdma_hw_rd32(hw, hw->regs->cqp_tail)));
	return -ETIMEDOUT;
}

/* sleep until the command completes or a slice ends; false: it ended */
static bool irdma_cmd_wait_slice(struct irdma_cmd *cmd)
{
	unsigned long slice = msecs_to_jiffies(IRDMA_CMD_IRQ_SLICE_MS);

	return wait_for_completion_timeout(&cmd->finished, slice);
}

/* Wait until the CCQ brings the command's completion. */
static int irdma_cmd_wait_ccq(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(IRDMA_HW_CQP_TIMEOUT_MS);
	bool lost = false;

	for (;;) {
		/* after a slice without the event, arm the CCQ anew */
		irdma_cmd_reap(hw, lost);
		if (completion_done(&cmd->finished))
			return cmd->status;
		if (time_after(jiffies, deadline))
			return irdma_cmd_abandon(hw, cmd);
		if (READ_ONCE(hw->ccq_irq))
			lost = !irdma_cmd_wait_slice(cmd);
		else
			usleep_range(20, 100);
	}
}

/*
 * Wait for the command in slot @cmd->idx through CQPTAIL, for the
 * commands that create or destroy the CCQ, then retire the slot by hand.
 * A CQE the engine may also have written for it is dropped later as
 * stale. Caller holds hw->cmd_mutex; no other command is in flight.
 */
static int irdma_cmd_wait_tail(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(IRDMA_HW_CQP_TIMEOUT_MS);
	u32 next = (cmd->idx + 1) & (hw->cqp.size - 1);
	unsigned long flags;
	u32 tail, codes;

	lockdep_assert_held(&hw->cmd_mutex);
	for (;;) {
		tail = irdma_hw_rd32(hw, hw->regs->cqp_tail);
		if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, tail) == next)
			break;
		if (time_after(jiffies, deadline))
			return irdma_cmd_abandon(hw, cmd);
		usleep_range(20, 100);
	}
	spin_lock_irqsave(&hw->cqp.lock, flags);
	hw->cqp.tail = next;
	hw->cmd_inflight--;
	spin_unlock_irqrestore(&hw->cqp.lock, flags);
	memset(&cmd->done, 0, sizeof(cmd->done));
	if (!(tail & IRDMA_CQPTAIL_OP_ERR))
		return 0;
	codes = irdma_hw_rd32(hw, hw->regs->cqp_err_codes);
	cmd->done.error = true;
	cmd->done.major = FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes);
	cmd->done.minor = FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes);
	return -EIO;
}

static void irdma_cmd_report(struct irdma_hw *hw, const struct irdma_cmd *cmd,
			     int ret)
{
	struct device *dev = &hw->fn->adev->dev;

	if (ret == -EIO)
		dev_err_ratelimited(dev, "CQP command %s failed: major 0x%x minor 0x%x\n",
				    cmd->name, cmd->done.major, cmd->done.minor);
	else if (ret == -ETIMEDOUT)
		dev_err_ratelimited(dev, "CQP command %s timed out; CQP unusable\n",
				    cmd->name);
	else
		dev_err_ratelimited(dev, "CQP command %s not issued: %d\n",
				    cmd->name, ret);
}

/**
 * irdma_cmd_use_irq - wait for CQP completions on CEQ 0 or poll for them
 * @hw: the function
 * @on: true once CEQ 0 and its interrupt exist (nothing happens without
 *	CEQs), false before CEQ 0 is destroyed
 *
 * A command in flight notices on its next look at the CCQ.
 */
void irdma_cmd_use_irq(struct irdma_hw *hw, bool on)
{
	WRITE_ONCE(hw->ccq_irq, on && hw->ceq_cnt);
	/* commands in flight: arm the CCQ now */
	irdma_cmd_reap(hw, false);
}

/**
 * irdma_cmd_ccq_event - CEQ 0 reported an event for the CCQ
 * @hw: the function
 *
 * Takes the completions off the CCQ to their commands and wakes their
 * issuers.
 *
 * Context: CEQ 0's interrupt thread, which must never issue a command
 * and wait for it (the wait would be for this thread).
 */
void irdma_cmd_ccq_event(struct irdma_hw *hw)
{
	irdma_cmd_reap(hw, true);
}

static void irdma_stat_max(atomic64_t *v, u64 val)
{
	s64 old = atomic64_read(v);

	while (old < (s64)val && !atomic64_try_cmpxchg(v, &old, val))
		;
}

/*
 * Count a command that was issued at @t0 and posted at @t1 (0: it was
 * not): how long it waited for the CQP, then for its completion.
 */
static void irdma_cmd_account(struct irdma_hw *hw, const struct irdma_cmd *cmd,
			      u64 t0, u64 t1, int ret)
{
	atomic64_t *st = hw->cmd_stats;
	u64 t2 = ktime_get_ns(), queue_us, wait_us;

	if (!t1)
		t1 = t2;
	queue_us = div_u64(t1 - t0, NSEC_PER_USEC);
	wait_us = div_u64(t2 - t1, NSEC_PER_USEC);
	atomic64_inc(&st[cmd->queued ? IRDMA_CMD_STAT_POSTED :
				       IRDMA_CMD_STAT_WAITED]);
	atomic64_add(queue_us, &st[IRDMA_CMD_STAT_QUEUE_US]);
	atomic64_add(wait_us, &st[IRDMA_CMD_STAT_WAIT_US]);
	irdma_stat_max(&st[IRDMA_CMD_STAT_WAIT_MAX_US], wait_us);
	trace_irdma_cqp_cmd(dev_name(&hw->fn->adev->dev), cmd->name,
			    cmd->queued, queue_us, wait_us, ret);
}

/**
 * irdma_cmd_read_stats - the CQP and interrupt counters
 * @hw: the function
 * @vals: IRDMA_CMD_STAT_COUNT values, in the order of enum irdma_cmd_stat
 */
void irdma_cmd_read_stats(struct irdma_hw *hw, u64 *vals)
{
	int i;

	for (i = 0; i < IRDMA_CMD_STAT_COUNT; i++)
		vals[i] = atomic64_read(&hw->cmd_stats[i]);
}

/* post @cmd, waiting for a free slot while the ring is full */
static int irdma_cmd_post_wait(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(IRDMA_HW_CQP_TIMEOUT_MS);
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&hw->cqp.lock, flags);
		if (hw->cqp_broken || atomic_read(&hw->halted))
			ret = -EIO;
		else
			ret = irdma_cmd_post(hw, cmd);
		spin_unlock_irqrestore(&hw->cqp.lock, flags);
		if (ret != -EBUSY || time_after(jiffies, deadline))
			return ret;
		/* completions free slots */
		irdma_cmd_reap(hw, false);
		usleep_range(50, 200);
	}
}

/*
 * Post @cmd (issued at @cmd->t0; @cmd->t1 is when it went into the ring).
 * Return: the builder's error (a NOP went in its place), or -EIO, -EBUSY:
 * nothing was posted.
 */
static int irdma_cmd_start(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	int ret;

	cmd->t0 = ktime_get_ns();
	cmd->t1 = 0;
	init_completion(&cmd->finished);
	cmd->posted = false;
	ret = irdma_cmd_post_wait(hw, cmd);
	if (cmd->posted)
		cmd->t1 = ktime_get_ns();
	return ret;
}

/* Wait for the end of a command irdma_cmd_start() returned @start_ret for. */
static int irdma_cmd_end(struct irdma_hw *hw, struct irdma_cmd *cmd,
			 int start_ret)
{
	int ret = start_ret;

	if (cmd->posted) {
		if (cmd->no_ccq)
			ret = irdma_cmd_wait_tail(hw, cmd);
		else
			ret = irdma_cmd_wait_ccq(hw, cmd);
		if (!ret)
			ret = start_ret;
	}
	if (ret)
		irdma_cmd_report(hw, cmd, ret);
	irdma_cmd_account(hw, cmd, cmd->t0, cmd->t1, ret);
	/*
	 * An engine that stops answering its CQP is of no more use than a
	 * stopped one, and a reset is the only way back: on a registered
	 * device, report it as fatal. Probe and remove unwind instead.
	 */
	if (ret == -ETIMEDOUT && READ_ONCE(hw->fn->iwdev))
		irdma_func_fatal(hw->fn, "a CQP command timed out");
	return ret;
}

/**
 * irdma_cmd_exec - run one CQP command and wait for its completion
 * @hw: the function; its CQP (and, unless @cmd->no_ccq, its CCQ) exist
 * @cmd: the command; @cmd->done receives the completion
 *
 * Commands of several issuers are in flight at once: the engine runs
 * them in the order posted, and each completion goes to its command by
 * the slot's cookie (irdma_cmd_reap()). Only those that create or destroy
 * the CCQ go one at a time, alone (@hw->cmd_mutex).
 *
 * Context: process context; sleeps.
 * Return: 0, the builder's error (a NOP went in its place), -EIO when the
 * engine failed the command, -ETIMEDOUT when it did not answer (the CQP is
 * then marked broken and every later command fails with -EIO at once; on
 * a registered device the function is reset, see irdma_func_fatal()),
 * -EBUSY when the ring stayed full.
 */
int irdma_cmd_exec(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	int ret;

	if (cmd->no_ccq)
		mutex_lock(&hw->cmd_mutex);
	ret = irdma_cmd_end(hw, cmd, irdma_cmd_start(hw, cmd));
	if (cmd->no_ccq)
		mutex_unlock(&hw->cmd_mutex);
	return ret;
}

/* the most requests one engine pass is given at once */
#define IRDMA_CMD_REQ_BATCH	32

/*
 * The requests submitted so far, in order: up to IRDMA_CMD_REQ_BATCH at a
 * time are posted together and then waited for, so that one engine pass
 * takes them all rather than one each. Every request on the list when
 * this runs is done when it returns: a work queued on @cmd_wq after a
 * submission runs after that request (the ILQ's sends after their AHs).
 */
static void irdma_cmd_req_work(struct work_struct *work)
{
	struct irdma_hw *hw = container_of(work, struct irdma_hw, req_work);
	struct irdma_cmd_req *req, *tmp;
	unsigned long flags;
	LIST_HEAD(batch);
	int n;

	for (;;) {
		spin_lock_irqsave(&hw->req_lock, flags);
		for (n = 0; n < IRDMA_CMD_REQ_BATCH &&
		     !list_empty(&hw->req_list); n++)
			list_move_tail(hw->req_list.next, &batch);
		spin_unlock_irqrestore(&hw->req_lock, flags);
		if (!n)
			return;
		list_for_each_entry(req, &batch, node)
			req->start_ret = irdma_cmd_start(hw, &req->cmd);
		list_for_each_entry_safe(req, tmp, &batch, node) {
			int ret = irdma_cmd_end(hw, &req->cmd, req->start_ret);

			/*
			 * irdma_cmd_end() reported a failure; nobody waits for
			 * the command, but a submitter that syncs may count
			 * failures, and one that gave @end hears of it
			 */
			if (ret && req->failed)
				atomic_inc(req->failed);
			if (req->end)
				req->end(req, ret);
			/* completions come in order: so do the tickets */
			atomic64_set_release(&hw->req_done, req->ticket);
			list_del(&req->node);
			irdma_cmd_req_free(req);
		}
	}
}

/**
 * irdma_cmd_req_init - set up the request queue of a function
 * @hw: the function
 */
void irdma_cmd_req_init(struct irdma_hw *hw)
{
	spin_lock_init(&hw->req_lock);
	INIT_LIST_HEAD(&hw->req_list);
	INIT_WORK(&hw->req_work, irdma_cmd_req_work);
	atomic64_set(&hw->req_done, 0);
}

/**
 * irdma_cmd_req_alloc - prepare a CQP command to post without waiting
 * @build: writes the WQE from @arg
 * @arg: the builder's argument, copied into the request
 * @arg_len: its size in bytes
 * @name: for messages; must outlive the request (a string literal)
 * @gfp: allocation flags (GFP_ATOMIC from atomic context)
 *
 * Allocating apart from submitting lets a caller allocate first and then
 * submit under its own spinlock, so that the order of its commands on the
 * CQP follows the order of its table updates.
 *
 * Return: the request, or NULL when out of memory.
 */
struct irdma_cmd_req *
irdma_cmd_req_alloc(int (*build)(__le64 *wqe, u8 valid, const void *arg),
		    const void *arg, size_t arg_len, const char *name,
		    gfp_t gfp)
{
	struct irdma_cmd_req *req;

	req = kzalloc(struct_size(req, arg, DIV_ROUND_UP(arg_len, 8)), gfp);
	if (!req)
		return NULL;
	memcpy(req->arg, arg, arg_len);
	req->cmd.build = build;
	req->cmd.arg = req->arg;
	req->cmd.name = name;
	req->cmd.queued = true;
	return req;
}

/**
 * irdma_cmd_req_submit - post a prepared command without waiting for it
 * @hw: the function; its command workqueue runs the request
 * @req: from irdma_cmd_req_alloc(); owned by the workqueue from now on
 *
 * Requests run in the order they were submitted. One that fails (or finds
 * the engine halted) is reported, its @end told, and dropped. irdma_hw_deinit() runs every
 * request still queued before the CQP goes away; nothing may be submitted
 * after that has started.
 *
 * Context: any.
 * Return: the request's ticket, for irdma_cmd_req_ran().
 */
u64 irdma_cmd_req_submit(struct irdma_hw *hw, struct irdma_cmd_req *req)
{
	unsigned long flags;
	u64 ticket;

	req->hw = hw;
	spin_lock_irqsave(&hw->req_lock, flags);
	ticket = ++hw->req_seq;
	req->ticket = ticket;
	list_add_tail(&req->node, &hw->req_list);
	/* queued before any work its submitter queues after it */
	queue_work(hw->cmd_wq, &hw->req_work);
	spin_unlock_irqrestore(&hw->req_lock, flags);
	return ticket;
}

/**
 * irdma_cmd_req_ran - has a submitted request been carried out
 * @hw: the function
 * @ticket: from irdma_cmd_req_submit()
 *
 * Context: any.
 * Return: true once the request has run (successfully or not), and with
 * it every request submitted before it.
 */
bool irdma_cmd_req_ran(struct irdma_hw *hw, u64 ticket)
{
	return atomic64_read_acquire(&hw->req_done) >= ticket;
}

/**
 * irdma_cmd_req_sync - wait for the requests submitted so far
 * @hw: the function
 *
 * Returns once every request submitted before the call has run (or been
 * dropped); the outcome of each is reported where it ran.
 *
 * Context: process; not from the function's command workqueue.
 */
void irdma_cmd_req_sync(struct irdma_hw *hw)
{
	flush_workqueue(hw->cmd_wq);
}

/**
 * irdma_cmd_req_free - free a request that was not submitted
 * @req: the request, or NULL
 */
void irdma_cmd_req_free(struct irdma_cmd_req *req)
{
	kfree(req);
}

/**
 * irdma_hw_halt - stop using an engine that reported a critical error
 * @hw: the function's engine
 *
 * From now on every CQP command fails at once with -EIO and tear-down
 * does not wait for the engine to acknowledge anything: it will not. A
 * command already waiting runs into its timeout.
 *
 * Context: any.
 * Return: true if this call halted the engine, false if it was already.
 */
bool irdma_hw_halt(struct irdma_hw *hw)
{
	return !atomic_xchg(&hw->halted, 1);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/utils_test.c"
#endif
