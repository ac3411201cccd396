// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: helpers below the function lifecycle: coherent DMA memory, the
 * synchronous CQP command path and the lookup of QPs and CQs by number.
 *
 * A CQP command is issued by one caller at a time (hw->cmd_mutex), which
 * then waits for its completion on the CCQ: while CEQ 0 exists the CCQ is
 * armed and the issuer sleeps until CEQ 0's interrupt thread reports an
 * event; before CEQ 0 is made and after it is gone (bring-up and
 * tear-down) the issuer polls. Several commands in flight would need no
 * change to the ring: it (ctrl.c) already matches completions by cookie.
 *
 * Callers that must not sleep (the CM's steering filters, the ARP cache
 * fed by the neighbour notifier) post a request instead: it is queued on
 * the function's ordered command workqueue, which runs it through the same
 * path in submission order and frees it.
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

/* Put the command in the next slot and ring the doorbell; the slot index */
static int irdma_cmd_post(struct irdma_hw *hw, struct irdma_cmd *cmd,
			  u64 scratch, u32 *idx)
{
	unsigned long flags;
	__le64 *wqe;
	int ret;
	u8 valid;

	spin_lock_irqsave(&hw->cqp.lock, flags);
	*idx = hw->cqp.head;
	wqe = irdma_cqp_get_wqe(&hw->cqp, scratch, &valid);
	if (!wqe) {
		spin_unlock_irqrestore(&hw->cqp.lock, flags);
		return -EBUSY;
	}
	ret = cmd->build(wqe, valid, cmd->arg);
	/* the slot is taken: fill it with something the engine will pass */
	if (ret)
		irdma_cqpw_nop(wqe, valid);
	irdma_cqp_post(&hw->cqp);
	spin_unlock_irqrestore(&hw->cqp.lock, flags);
	return ret;
}

/*
 * Longest sleep between two looks at the CCQ while waiting on CEQ 0: a
 * completion whose event was lost (a CQ arm doorbell the device did not
 * take, say) costs this much and no more.
 */
#define IRDMA_CMD_IRQ_SLICE_MS	10

/*
 * Nothing for us on the CCQ yet: sleep until CEQ 0 reports a CCQ event,
 * or briefly when there is no CEQ 0 to report one.
 */
static void irdma_cmd_wait_event(struct irdma_hw *hw)
{
	int seen;

	if (!hw->ccq_irq) {
		usleep_range(20, 100);
		return;
	}
	seen = atomic_read(&hw->ccq_events);
	/* a CQE that came after our last look raises the event at once */
	irdma_uk_cq_arm(&hw->ccq, false);
	wait_event_timeout(hw->ccq_wq, atomic_read(&hw->ccq_events) != seen,
			   msecs_to_jiffies(IRDMA_CMD_IRQ_SLICE_MS));
}

/* Wait on the CCQ until the completion with @scratch shows up. */
static int irdma_cmd_wait_ccq(struct irdma_hw *hw, struct irdma_cmd *cmd,
			      u64 scratch)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(IRDMA_HW_CQP_TIMEOUT_MS);
	unsigned long flags;
	int err;

	lockdep_assert_held(&hw->cmd_mutex);
	for (;;) {
		spin_lock_irqsave(&hw->cqp.lock, flags);
		err = irdma_ccq_poll(&hw->cqp, &hw->ccq, &cmd->done);
		spin_unlock_irqrestore(&hw->cqp.lock, flags);
		if (!err && cmd->done.scratch == scratch)
			return cmd->done.error ? -EIO : 0;
		/* another or a stale (-EIO) completion: look again at once */
		if (!err || err == -EIO)
			continue;
		if (err != -ENOENT)
			return err;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		irdma_cmd_wait_event(hw);
	}
}

/*
 * Wait for the command in slot @idx through CQPTAIL, for the commands
 * that create or destroy the CCQ, then retire the slot by hand. A CQE
 * the engine may also have written for it is dropped later as stale.
 */
static int irdma_cmd_wait_tail(struct irdma_hw *hw, struct irdma_cmd *cmd,
			       u32 idx)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(IRDMA_HW_CQP_TIMEOUT_MS);
	u32 next = (idx + 1) & (hw->cqp.size - 1);
	unsigned long flags;
	u32 tail, codes;

	lockdep_assert_held(&hw->cmd_mutex);
	for (;;) {
		tail = irdma_hw_rd32(hw, hw->regs->cqp_tail);
		if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, tail) == next)
			break;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		usleep_range(20, 100);
	}
	spin_lock_irqsave(&hw->cqp.lock, flags);
	hw->cqp.tail = next;
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
 * Context: process context; takes @hw->cmd_mutex, so a command in flight
 * finishes the way it began.
 */
void irdma_cmd_use_irq(struct irdma_hw *hw, bool on)
{
	mutex_lock(&hw->cmd_mutex);
	hw->ccq_irq = on && hw->ceq_cnt;
	mutex_unlock(&hw->cmd_mutex);
}

/**
 * irdma_cmd_ccq_event - CEQ 0 reported an event for the CCQ
 * @hw: the function
 *
 * Wakes the issuer waiting in irdma_cmd_exec(); it takes the completion
 * off the CCQ itself, under @hw->cmd_mutex.
 *
 * Context: CEQ 0's interrupt thread, which must never issue a command
 * and wait for it (the wait would be for this thread).
 */
void irdma_cmd_ccq_event(struct irdma_hw *hw)
{
	atomic_inc(&hw->ccq_events);
	wake_up(&hw->ccq_wq);
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

/**
 * irdma_cmd_exec - run one CQP command and wait for its completion
 * @hw: the function; its CQP (and, unless @cmd->no_ccq, its CCQ) exist
 * @cmd: the command; @cmd->done receives the completion
 *
 * Context: process context; sleeps.
 * Return: 0, the builder's error (a NOP went in its place), -EIO when the
 * engine failed the command, -ETIMEDOUT when it did not answer (the CQP is
 * then marked broken and every later command fails with -EIO at once; on
 * a registered device the function is reset, see irdma_func_fatal()),
 * -EBUSY when the ring is full.
 */
int irdma_cmd_exec(struct irdma_hw *hw, struct irdma_cmd *cmd)
{
	u64 t0 = ktime_get_ns(), t1 = 0;
	int ret, build_err;
	u64 scratch;
	u32 idx;

	mutex_lock(&hw->cmd_mutex);
	if (hw->cqp_broken || atomic_read(&hw->halted)) {
		ret = -EIO;
		goto out_unlock;
	}
	scratch = ++hw->cmd_seq;
	t1 = ktime_get_ns();
	build_err = irdma_cmd_post(hw, cmd, scratch, &idx);
	if (build_err == -EBUSY) {
		ret = build_err;
		goto out_report;
	}
	if (cmd->no_ccq)
		ret = irdma_cmd_wait_tail(hw, cmd, idx);
	else
		ret = irdma_cmd_wait_ccq(hw, cmd, scratch);
	if (ret == -ETIMEDOUT) {
		hw->cqp_broken = true;
		/* did the engine not get to it, or did its completion go? */
		dev_err(&hw->fn->adev->dev,
			"CQP slot %u of %u; the engine's CQP tail is at %lu\n",
			idx, hw->cqp.size,
			FIELD_GET(IRDMA_CQPTAIL_WQTAIL,
				  irdma_hw_rd32(hw, hw->regs->cqp_tail)));
	}
	if (!ret)
		ret = build_err;
out_report:
	if (ret)
		irdma_cmd_report(hw, cmd, ret);
out_unlock:
	mutex_unlock(&hw->cmd_mutex);
	irdma_cmd_account(hw, cmd, t0, t1, ret);
	/*
	 * An engine that stops answering its CQP is of no more use than a
	 * stopped one, and a reset is the only way back: on a registered
	 * device, report it as fatal. Probe and remove unwind instead.
	 */
	if (ret == -ETIMEDOUT && READ_ONCE(hw->fn->iwdev))
		irdma_func_fatal(hw->fn, "a CQP command timed out");
	return ret;
}

static void irdma_cmd_req_work(struct work_struct *work)
{
	struct irdma_cmd_req *req = container_of(work, struct irdma_cmd_req,
						 work);

	/*
	 * irdma_cmd_exec() reported a failure; nobody waits for the command,
	 * but a submitter that syncs may count failures
	 */
	if (irdma_cmd_exec(req->hw, &req->cmd) && req->failed)
		atomic_inc(req->failed);
	/* the queue is ordered: tickets come here in increasing order */
	atomic64_set_release(&req->hw->req_done, req->ticket);
	irdma_cmd_req_free(req);
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
	INIT_WORK(&req->work, irdma_cmd_req_work);
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
 * the engine halted) is reported and dropped. irdma_hw_deinit() runs every
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
	queue_work(hw->cmd_wq, &req->work);
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
