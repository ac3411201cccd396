// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: when the engine runs a pass, and the pass itself.
 *
 * Hardware reacts to register writes at once. The engine's registers are
 * plain RAM, so a write tells it nothing by itself; how it learns of one
 * depends on the driver bound to the function:
 *
 * - A driver that follows every register write with a kick
 *   (isim_aux_ops.kick; ours does, from the accessors sim_if.c gives it)
 *   has a pass queued at once, and one pass takes whatever was written
 *   meanwhile: kicks batch as NAPI's interrupts do. The kicks carry the
 *   QP or CQ ids of the WQEALLOC and CQARM doorbells (struct isim_dbq), so
 *   a pass looks at those queues alone, where a doorbell found in the
 *   register (which keeps only the last id written) makes it look at every
 *   queue. A frame arriving for the engine kicks it too. Between kicks
 *   nothing runs, unless a deadline is pending (a retransmission or
 *   TIME_WAIT timer, QPs kicked for the next pass, such as one waiting
 *   out an RNR NAK), or user space may ring its doorbell page, which no
 *   kick can tell: a watch (an hrtimer that reads the two user doorbell
 *   registers, no more) looks every ISIM_UDB_HOT_US while user space
 *   rings, backing off to ISIM_UDB_SLOW_MS once it stops, and stops while
 *   no QP is a user QP. An idle function costs nothing.
 * - Any other driver (or none) is polled: once per jiffy (and at once
 *   again while CQP commands are still queued). An engine that has moved
 *   nothing for ISIM_QUIET_PASSES passes in a row polls every
 *   ISIM_QUIET_MS until something moves again. Linux 6.1's irdma spins
 *   for some CQP answers (the CQP's create and destroy, the HMC set-up:
 *   1000 times udelay(10)), a window that a pass of normal priority can
 *   miss on a busy guest of one CPU. So the CQP watch, a timer, looks
 *   every jiffy whether the CQP holds a request not yet answered, and has
 *   a SCHED_FIFO worker answer the CQP's requests alone, preempting the
 *   spinning task (the guest scripts that load that driver switch the
 *   kernel to full preemption). The CQP is all it does: bounded work, so
 *   that the worker cannot starve the guest as a whole pass would.
 *
 * One pass, under eng_lock: CQP create or destroy requests, CQ arm
 * requests, returned AEQEs, queued CQP commands, SQ/RQ work (exec.c),
 * raw-queue frames (ilq.c), then interrupt vectors the driver re-enabled;
 * a pass takes on no more work after ISIM_PASS_NS, and the next one
 * follows at once. The QPs' SQs and the CQs' arm words are read only after
 * a doorbell or something the engine did to a QP (see isim_exec_run()),
 * and by a guard pass every ISIM_SCAN_MS or more (when a pass runs). A
 * halted engine (critical error) reads and writes nothing until the
 * function is reset; it only raises the interrupts it had posted before
 * it stopped.
 *
 * Every pass is counted by what woke it (enum isim_wake) and timed, and
 * so are the waits for eng_lock and its holds: the "wake" and "lock"
 * lines of the state file (Documentation/sim.rst).
 */
#include "isim.h"

#define ISIM_QUIET_PASSES	16
#define ISIM_QUIET_MS	4
/*
 * The user doorbell watch looks every ISIM_UDB_HOT_US for ISIM_UDB_HOT_MS
 * after the last user doorbell, then backs off to every ISIM_UDB_SLOW_MS.
 */
#define ISIM_UDB_HOT_US		250
/* the CQP watch's period: well inside upstream's 10 ms polled waits */
#define ISIM_CQP_WATCH_US	1000
#define ISIM_UDB_HOT_MS		50
#define ISIM_UDB_SLOW_MS	20

static const char * const isim_wake_names[ISIM_WAKE_NUM] = {
	[ISIM_WAKE_REG] = "reg",
	[ISIM_WAKE_RX] = "rx",
	[ISIM_WAKE_UDB] = "udb",
	[ISIM_WAKE_CTL] = "ctl",
	[ISIM_WAKE_MORE] = "more",
	[ISIM_WAKE_TIMER] = "timer",
	[ISIM_WAKE_POLL] = "poll",
	[ISIM_WAKE_CQP] = "cqp",
};

/**
 * isim_eng_lock - take eng_lock, timing the wait
 * @f: function
 * @by: who takes it, for the state file's longest hold (a string literal)
 */
void isim_eng_lock(struct isim_func *f, const char *by)
{
	u64 t0 = ktime_get_ns(), t1;

	mutex_lock(&f->eng_lock);
	t1 = ktime_get_ns();
	f->lockstat.wait_ns_max = max(f->lockstat.wait_ns_max, t1 - t0);
	f->lockstat.t0 = t1;
	f->lockstat.by = by;
}

/**
 * isim_eng_unlock - release eng_lock taken with isim_eng_lock()
 * @f: function
 */
void isim_eng_unlock(struct isim_func *f)
{
	u64 ns = ktime_get_ns() - f->lockstat.t0;

	if (ns > f->lockstat.hold_ns_max) {
		f->lockstat.hold_ns_max = ns;
		f->lockstat.hold_max_by = f->lockstat.by;
	}
	mutex_unlock(&f->eng_lock);
}

/*
 * Which passes run on the high-priority work queue, ahead of every task
 * of normal priority: what a frame or a user doorbell asks for, the
 * continuation of such work, and every pass of a driver that does not
 * kick (polled, as upstream's is). A kicking driver's own register
 * writes queue theirs on isim_wq, where the writes the driver makes
 * meanwhile (a CQP command after another, a WQE after a WQE) join the
 * same pass, as they did before there were two queues.
 */
static bool isim_wake_hi(struct isim_func *f, enum isim_wake why)
{
	switch (why) {
	case ISIM_WAKE_RX:
	case ISIM_WAKE_UDB:
		return true;
	case ISIM_WAKE_REG:
	case ISIM_WAKE_CTL:
	case ISIM_WAKE_CQP:
		return false;
	default:
		return !READ_ONCE(f->wake.kicked);
	}
}

/**
 * isim_engine_kick - have a pass run now
 * @f: function
 * @why: what the pass is for
 *
 * Kicks before the pass starts are taken by that one pass; a kick during
 * a pass queues the next. A stopped engine takes none.
 *
 * Context: any (the driver rings doorbells under spinlocks and in its
 * interrupt handlers, frames arrive in softirq context).
 */
void isim_engine_kick(struct isim_func *f, enum isim_wake why)
{
	bool hi = isim_wake_hi(f, why);

	/* a stopped engine runs no pass; isim_engine_start() kicks it */
	if (!READ_ONCE(f->running))
		return;
	if (atomic_xchg(&f->wake.pending, 1)) {
		/* a frame or a user doorbell does not wait behind tasks */
		if (hi && !xchg(&f->wake.pending_hi, true))
			mod_delayed_work(isim_wq_hi, &f->tick_hi, 0);
		return;
	}
	atomic64_inc(&f->wake.count[why]);
	WRITE_ONCE(f->wake.kick_ns, ktime_get_ns());
	WRITE_ONCE(f->wake.pending_hi, hi);
	if (hi)
		mod_delayed_work(isim_wq_hi, &f->tick_hi, 0);
	else
		mod_delayed_work(isim_wq, &f->tick, 0);
}

static void isim_dbq_push(struct isim_dbq *q, u32 id)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	if (q->n < ISIM_DBQ_LEN)
		q->id[q->n++] = id;
	else
		q->overflow = true;
	spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * isim_engine_kick_reg - the driver wrote a register: look at once
 * @f: function
 * @off: the register's byte offset
 * @val: the value written
 *
 * A WQEALLOC or CQARM write names its QP or CQ, which the pass then looks
 * at (isim_engine_dbq_drain()).
 *
 * Context: any.
 */
void isim_engine_kick_reg(struct isim_func *f, u32 off, u32 val)
{
	if (off == f->rm->wqealloc)
		isim_dbq_push(&f->wake.wqe, FIELD_GET(ISIM_WQEALLOC_QPID, val));
	else if (off == f->rm->cqarm)
		isim_dbq_push(&f->wake.arm, val);
	isim_engine_kick(f, ISIM_WAKE_REG);
}

/* start the CQP watch if the driver does not kick and it is not running */
static void isim_cqp_watch_start(struct isim_func *f)
{
	if (READ_ONCE(f->running) && !READ_ONCE(f->wake.kicked) &&
	    !hrtimer_active(&f->wake.cqp_timer))
		hrtimer_start(&f->wake.cqp_timer,
			      ns_to_ktime(ISIM_CQP_WATCH_US * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_SOFT);
}

/**
 * isim_engine_set_kicked - the bound driver kicks after every write, or not
 * @f: function
 * @on: from now on every register write is followed by a kick; false
 *	before the driver unbinds (and when the device is unplugged)
 *
 * Context: any.
 */
void isim_engine_set_kicked(struct isim_func *f, bool on)
{
	WRITE_ONCE(f->wake.kicked, on);
	/* the next pass picks the schedule of the new mode */
	isim_engine_kick(f, ISIM_WAKE_CTL);
	isim_cqp_watch_start(f);
}

/**
 * isim_engine_due - a pass must come by @when
 * @f: function
 * @when: jiffies
 *
 * For what happens at a time rather than on a register write or a frame:
 * the timers of offloaded connections. Each pass collects the deadlines
 * anew. Caller holds eng_lock.
 */
void isim_engine_due(struct isim_func *f, unsigned long when)
{
	lockdep_assert_held(&f->eng_lock);
	if (!f->wake.due_set || time_before(when, f->wake.due)) {
		f->wake.due = when;
		f->wake.due_set = true;
	}
}

/**
 * isim_engine_dbq_drain - take the ids that kicked doorbells named
 * @f: function
 * @q: &f->wake.wqe or &f->wake.arm
 * @ids: room for ISIM_DBQ_LEN ids
 * @n: set to the number of ids taken
 *
 * Return: true if some were lost (the queue overflowed): every queue must
 * be looked at, as for a doorbell of unknown origin.
 */
bool isim_engine_dbq_drain(struct isim_func *f, struct isim_dbq *q, u32 *ids,
			   u32 *n)
{
	unsigned long flags;
	bool overflow;

	spin_lock_irqsave(&q->lock, flags);
	*n = q->n;
	memcpy(ids, q->id, q->n * sizeof(*ids));
	overflow = q->overflow;
	q->n = 0;
	q->overflow = false;
	spin_unlock_irqrestore(&q->lock, flags);
	return overflow;
}

/*
 * A kicking driver's WQEALLOC and CQARM doorbells: the registers are only
 * consumed (their last value says nothing the kicks did not), the ids the
 * kicks carried are looked at. A write whose kick comes after this look
 * has a pass of its own queued.
 */
static void isim_engine_rung(struct isim_func *f)
{
	u32 ids[ISIM_DBQ_LEN], n, i;
	struct isim_qp *qp;
	bool lost;

	isim_xchg32(f, f->rm->wqealloc, ISIM_DB_IDLE);
	isim_xchg32(f, f->rm->cqarm, ISIM_DB_IDLE);
	lost = isim_engine_dbq_drain(f, &f->wake.wqe, ids, &n);
	for (i = 0; i < n; i++) {
		qp = xa_load(&f->qps, ids[i]);
		if (!qp)
			continue;
		/* a raw queue's SQ is run by ilq.c, not exec.c */
		if (qp->type == ISIM_QP_TYPE_UDA)
			f->wake.raw_rung = true;
		else
			isim_exec_kick(f, qp);
	}
	if (lost)
		f->rescan = true;
	lost = isim_engine_dbq_drain(f, &f->wake.arm, ids, &n);
	for (i = 0; i < n; i++)
		isim_cq_arm_rung(f, ids[i]);
	if (lost)
		f->wake.arm_lost = true;
}

/*
 * A QP kicked during the pass (a segment opened its window, a command
 * named it, it did work that may free more) has its look in the very next
 * pass; only an SQ waiting out an RNR NAK waits for a later one.
 */
static bool isim_engine_kicked_ready(struct isim_func *f)
{
	struct isim_qp *qp;

	list_for_each_entry(qp, &f->kick_list, kick)
		if (!qp->sq_waits)
			return true;
	return false;
}

/* non-privileged QPs, recounted after CQP commands ran */
static void isim_engine_count_user(struct isim_func *f)
{
	struct isim_qp *qp;
	u32 n = 0;

	list_for_each_entry(qp, &f->qp_list, node)
		n += !qp->privileged;
	WRITE_ONCE(f->wake.user_qps, n);
}

/*
 * What a pass that did something moves: CQP commands run, doorbells
 * answered, kicked QPs looked at, frames sent, taken or turned around.
 */
static u64 isim_engine_moves(struct isim_func *f)
{
	return f->cqp.done + f->asked_passes + f->kick_passes +
	       atomic64_read(&f->wire.tx_frames) +
	       atomic64_read(&f->wire.rx_frames) +
	       atomic64_read(&f->wire.looped);
}

/**
 * isim_engine_poll - one pass of the engine over the register space
 * @f: function
 *
 * Return: true if CQP commands, WQEs or kicked QPs may still have work,
 * for the next pass to take at once.
 */
bool isim_engine_poll(struct isim_func *f)
{
	u64 t0 = ktime_get_ns(), done = f->cqp.done;
	bool more, scan;

	lockdep_assert_held(&f->eng_lock);
	more = false;
	f->pass_end_ns = t0 + ISIM_PASS_NS;
	f->wake.due_set = false;
	scan = time_after_eq(jiffies, f->scan_due);
	if (!f->halted) {
		isim_cqp_poll_ctx(f);
		if (READ_ONCE(f->wake.kicked))
			isim_engine_rung(f);
		isim_cq_poll_arm(f, scan || f->wake.arm_lost);
		f->wake.arm_lost = false;
		isim_aeq_poll_alloc(f);
		/* a command naming a QP kicks it (isim_exec_kick()) */
		more = isim_cqp_run(f, ISIM_CQP_BUDGET);
		more |= isim_exec_run(f, ISIM_WQE_BUDGET, scan);
		more |= isim_ilq_run(f, ISIM_WQE_BUDGET);
		/* a doorbell rung while the raw sends stall waits for them */
		if (!READ_ONCE(f->faults.stall_raw_tx))
			f->wake.raw_rung = false;
		more |= isim_ud_run(f, ISIM_WQE_BUDGET);
		more |= isim_roce_run(f, ISIM_WQE_BUDGET);
		more |= isim_toe_run(f, ISIM_WQE_BUDGET);
	}
	/*
	 * The guard looks at every QP and CQ, which with hundreds of them
	 * is the dearest pass there is: the next one waits ISIM_SCAN_MS, and
	 * longer when this one took long, so that the guard never costs more
	 * than about 1/ISIM_SCAN_SHARE of the engine's time.
	 */
	if (scan)
		f->scan_due = jiffies + msecs_to_jiffies(ISIM_SCAN_MS) +
			      nsecs_to_jiffies((ktime_get_ns() - t0) *
					       ISIM_SCAN_SHARE);
	if (f->cqp.done != done)
		isim_engine_count_user(f);
	if (!f->halted)
		more |= isim_engine_kicked_ready(f);
	/* a halted engine still raises what it posted before it stopped */
	isim_irq_service(f);
	return more;
}

/* the schedule of a driver that does not kick: poll the registers */
static long isim_engine_poll_delay(struct isim_func *f)
{
	f->wake.next = ISIM_WAKE_POLL;
	if (f->quiet >= ISIM_QUIET_PASSES)
		return msecs_to_jiffies(ISIM_QUIET_MS);
	return 1;
}

/*
 * When the next pass must run without a kick, in jiffies from now, or -1
 * for never. Caller holds eng_lock.
 */
static long isim_engine_next(struct isim_func *f, bool more)
{
	long delay = -1;

	if (more) {
		f->wake.next = ISIM_WAKE_MORE;
		return 0;
	}
	if (!READ_ONCE(f->wake.kicked) || READ_ONCE(f->faults.stall) ||
	    READ_ONCE(f->faults.stall_raw_tx))
		return isim_engine_poll_delay(f);
	f->wake.next = ISIM_WAKE_TIMER;
	if (!list_empty(&f->kick_list))
		delay = 1;
	if (f->wake.due_set) {
		long d = (long)(f->wake.due - jiffies);

		/* a deadline passed that could not act (a held QP) */
		d = max(d, 1L);
		delay = delay < 0 ? d : min(delay, d);
	}
	return delay;
}

/* the user doorbell watch's next period, in ns */
static u64 isim_udb_period(struct isim_func *f)
{
	u64 p = f->wake.udb_period;

	if (time_before(jiffies, READ_ONCE(f->wake.udb_seen) +
				 msecs_to_jiffies(ISIM_UDB_HOT_MS)))
		p = ISIM_UDB_HOT_US * NSEC_PER_USEC;
	else
		p = min_t(u64, 2 * p, ISIM_UDB_SLOW_MS * NSEC_PER_MSEC);
	f->wake.udb_period = p;
	return p;
}

/*
 * The user doorbell watch: libirdma writes user space's doorbells straight
 * into the mapped page, which no kick can report. An hrtimer (in softirq
 * context) reads the two doorbell registers and kicks the engine if one
 * was rung; the pass consumes them (isim_exec_run(), isim_cq_poll_arm()).
 * A doorbell is seen within ISIM_UDB_HOT_US while user space rings, as
 * the adapter sees its doorbell write at once; a timer of the tick would
 * leave each one a jiffy (4 ms at HZ=250) to wait, which every round trip
 * of a user QP paid twice.
 */
static enum hrtimer_restart isim_udb_watch(struct hrtimer *t)
{
	struct isim_func *f = container_of(t, struct isim_func,
					   wake.udb_timer);

	if (!READ_ONCE(f->running) || !READ_ONCE(f->wake.kicked) ||
	    !READ_ONCE(f->wake.user_qps))
		return HRTIMER_NORESTART;
	atomic64_inc(&f->wake.udb_looks);
	if (isim_rd32(f, isim_reg_udb_wqealloc(f)) != ISIM_DB_IDLE ||
	    isim_rd32(f, isim_reg_udb_cqarm(f)) != ISIM_DB_IDLE) {
		WRITE_ONCE(f->wake.udb_seen, jiffies);
		isim_engine_kick(f, ISIM_WAKE_UDB);
	}
	hrtimer_forward_now(t, ns_to_ktime(isim_udb_period(f)));
	return HRTIMER_RESTART;
}

/* start the watch if user space may ring and it is not running */
static void isim_udb_start(struct isim_func *f)
{
	struct hrtimer *t = &f->wake.udb_timer;

	if (!READ_ONCE(f->wake.kicked) || !READ_ONCE(f->wake.user_qps) ||
	    hrtimer_active(t))
		return;
	f->wake.udb_period = ISIM_UDB_HOT_US * NSEC_PER_USEC;
	hrtimer_start(t, ns_to_ktime(f->wake.udb_period),
		      HRTIMER_MODE_REL_SOFT);
}

/*
 * A CQP request the engine has not answered, read without eng_lock: a
 * stale answer costs one look of the worker, or waits for the next look.
 */
static bool isim_cqp_asks(struct isim_func *f)
{
	const struct isim_cqp *cqp = &f->cqp;
	u32 low = isim_rd32(f, f->rm->ccqplow);

	if (!READ_ONCE(cqp->live))
		return low ? low != lower_32_bits(READ_ONCE(cqp->ctx_pa)) :
			     READ_ONCE(cqp->ctx_pa) != 0;
	return !low || isim_rd32(f, f->rm->cqpdb) != READ_ONCE(cqp->tail);
}

/*
 * The CQP watch's look, every ISIM_CQP_WATCH_US while the driver does not
 * kick: a jiffy (4 ms) plus the worker's wake-up left too little of
 * upstream's 10 ms spin on a busy host.
 */
static enum hrtimer_restart isim_cqp_watch(struct hrtimer *t)
{
	struct isim_func *f = container_of(t, struct isim_func,
					   wake.cqp_timer);

	if (!READ_ONCE(f->running) || READ_ONCE(f->wake.kicked))
		return HRTIMER_NORESTART;
	if (isim_cqp_asks(f))
		kthread_queue_work(isim_cqp_worker, &f->wake.cqp_work);
	hrtimer_forward_now(t, ns_to_ktime(ISIM_CQP_WATCH_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* the CQP watch's worker: the CQP's requests, and nothing else */
static void isim_cqp_answer(struct kthread_work *work)
{
	struct isim_func *f = container_of(work, struct isim_func,
					   wake.cqp_work);
	u64 done, ctx_pa;
	bool moved;

	isim_eng_lock(f, "cqp watch");
	if (!f->running || f->halted || READ_ONCE(f->wake.kicked)) {
		isim_eng_unlock(f);
		return;
	}
	done = f->cqp.done;
	ctx_pa = f->cqp.ctx_pa;
	isim_cqp_poll_ctx(f);
	isim_cqp_run(f, ISIM_CQP_BUDGET);
	isim_irq_service(f);
	moved = f->cqp.done != done || f->cqp.ctx_pa != ctx_pa;
	if (moved)
		f->wake.cqp_answers++;
	if (f->cqp.done != done)
		isim_engine_count_user(f);
	isim_eng_unlock(f);
	/* what the commands started (a QP kicked, an event) is the pass's */
	if (moved)
		isim_engine_kick(f, ISIM_WAKE_CQP);
}

static void isim_engine_account(struct isim_func *f, bool kicked, u64 t0)
{
	u64 lat;

	if (!kicked) {
		atomic64_inc(&f->wake.count[f->wake.next]);
		if (f->tick_due_ns && t0 > f->tick_due_ns)
			f->tick_late_ns_max = max(f->tick_late_ns_max,
						  t0 - f->tick_due_ns);
		return;
	}
	/* how long the work queue took to run the pass a kick asked for */
	lat = t0 - min(t0, READ_ONCE(f->wake.kick_ns));
	f->wake.kick_lat_ns_max = max(f->wake.kick_lat_ns_max, lat);
	f->wake.kick_lat_ns_total += lat;
	f->wake.kicked_passes++;
}

/*
 * One pass; the next one queued as the pass asks. f->tick and f->tick_hi
 * each stay on their own queue, so that each is never run twice at once
 * (and cancel_delayed_work_sync() waits for it); eng_lock orders one
 * against the other.
 */
static void isim_engine_pass(struct isim_func *f)
{
	u64 t0, ns, moves;
	bool more, kicked, hi;
	long delay;

	isim_eng_lock(f, "pass");
	/*
	 * Kicks from now on queue the next pass; this one sees the writes of
	 * those before (the exchange orders its reads after them).
	 */
	hi = xchg(&f->wake.pending_hi, false);
	kicked = atomic_xchg(&f->wake.pending, 0);
	if (!f->running) {
		isim_eng_unlock(f);
		return;
	}
	/*
	 * Every pass is timed, not a sample of them: max_us is there to show
	 * the one long pass among many short ones (a stall of the engine),
	 * which a sample would miss. Two clock reads cost tens of ns next to
	 * a pass that takes microseconds at least; what else takes eng_lock
	 * (the debugfs files, start, stop, reset) is rare.
	 */
	t0 = ktime_get_ns();
	isim_engine_account(f, kicked, t0);
	moves = isim_engine_moves(f);
	more = isim_engine_poll(f);
	if (more || isim_engine_moves(f) != moves)
		f->quiet = 0;
	else if (f->quiet < ISIM_QUIET_PASSES)
		f->quiet++;
	ns = ktime_get_ns() - t0;
	f->ticks++;
	f->tick_ns_total += ns;
	f->tick_ns_max = max(f->tick_ns_max, ns);
	delay = isim_engine_next(f, more);
	f->tick_due_ns = delay < 0 ? 0 : t0 + ns + jiffies_to_nsecs(delay);
	isim_eng_unlock(f);
	/* work left over goes on as it began; a deadline as a kick would */
	if (delay > 0 || !kicked)
		hi = isim_wake_hi(f, f->wake.next);
	if (delay >= 0 && hi)
		queue_delayed_work(isim_wq_hi, &f->tick_hi, delay);
	else if (delay >= 0)
		queue_delayed_work(isim_wq, &f->tick, delay);
	isim_udb_start(f);
}

static void isim_engine_tick(struct work_struct *work)
{
	isim_engine_pass(container_of(to_delayed_work(work), struct isim_func,
				      tick));
}

static void isim_engine_tick_hi(struct work_struct *work)
{
	isim_engine_pass(container_of(to_delayed_work(work), struct isim_func,
				      tick_hi));
}

/**
 * isim_engine_show - the state file's lines on passes and eng_lock
 * @s: the state file
 * @f: function; caller holds eng_lock
 */
void isim_engine_show(struct seq_file *s, struct isim_func *f)
{
	struct isim_wakeup *w = &f->wake;
	int i;

	lockdep_assert_held(&f->eng_lock);
	seq_printf(s, "wake: kicked=%d", READ_ONCE(w->kicked));
	for (i = 0; i < ISIM_WAKE_NUM; i++)
		seq_printf(s, " %s=%lld", isim_wake_names[i],
			   atomic64_read(&w->count[i]));
	seq_printf(s, " kick_lat_max_us=%llu kick_lat_avg_us=%llu user_qps=%u udb_looks=%lld udb_period_us=%llu cqp_answers=%llu\n",
		   div_u64(w->kick_lat_ns_max, NSEC_PER_USEC),
		   w->kicked_passes ?
		   div64_u64(w->kick_lat_ns_total,
			     w->kicked_passes * NSEC_PER_USEC) : 0,
		   READ_ONCE(w->user_qps), atomic64_read(&w->udb_looks),
		   hrtimer_active(&w->udb_timer) ?
		   div_u64(w->udb_period, NSEC_PER_USEC) : 0, w->cqp_answers);
	seq_printf(s, "lock: wait_max_us=%llu hold_max_us=%llu hold_max_by=%s\n",
		   div_u64(f->lockstat.wait_ns_max, NSEC_PER_USEC),
		   div_u64(f->lockstat.hold_ns_max, NSEC_PER_USEC),
		   f->lockstat.hold_max_by ?: "-");
}

/* drop every object; registers are left alone. Caller holds eng_lock. */
static void isim_engine_clear(struct isim_func *f)
{
	u32 ids[ISIM_DBQ_LEN], n;
	int i;

	lockdep_assert_held(&f->eng_lock);
	isim_cqp_reset(f);
	isim_qp_reset(f);
	isim_stag_reset(f);
	isim_conn_reset(f);
	isim_sched_reset(f);
	isim_ilq_reset(f);
	isim_ud_reset(f);
	isim_roce_reset(f);
	isim_toe_reset(f);
	isim_cq_reset(f);
	isim_eq_reset(f);
	isim_hmc_reset(f);
	for (i = 0; i < ISIM_NUM_VECTORS; i++)
		f->vec[i].pending = false;
	f->halted = false;
	isim_engine_dbq_drain(f, &f->wake.wqe, ids, &n);
	isim_engine_dbq_drain(f, &f->wake.arm, ids, &n);
	f->wake.raw_rung = false;
	f->wake.arm_lost = false;
	WRITE_ONCE(f->wake.user_qps, 0);
}

/**
 * isim_engine_init - set up the engine state of a new function
 * @f: function
 *
 * Return: 0 or -ENOMEM.
 */
int isim_engine_init(struct isim_func *f)
{
	int err;

	mutex_init(&f->eng_lock);
	xa_init(&f->cqs);
	xa_init(&f->qps);
	INIT_LIST_HEAD(&f->cq_list);
	INIT_LIST_HEAD(&f->qp_list);
	INIT_LIST_HEAD(&f->kick_list);
	xa_init(&f->stags);
	INIT_DELAYED_WORK(&f->tick, isim_engine_tick);
	INIT_DELAYED_WORK(&f->tick_hi, isim_engine_tick_hi);
	spin_lock_init(&f->wake.wqe.lock);
	spin_lock_init(&f->wake.arm.lock);
	hrtimer_init(&f->wake.udb_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	f->wake.udb_timer.function = isim_udb_watch;
	hrtimer_init(&f->wake.cqp_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	f->wake.cqp_timer.function = isim_cqp_watch;
	kthread_init_work(&f->wake.cqp_work, isim_cqp_answer);
	isim_ilq_init(f);
	isim_ud_init(f);
	isim_roce_init(f);
	isim_toe_init(f);
	err = isim_sched_init(f);
	if (err)
		return err;
	err = isim_conn_init(f);
	if (err)
		goto err_sched_exit;
	mutex_lock(&f->eng_lock);
	isim_engine_clear(f);
	mutex_unlock(&f->eng_lock);
	return 0;

err_sched_exit:
	isim_sched_exit(f);
	return err;
}

/**
 * isim_engine_start - start polling the register space
 * @f: function
 */
void isim_engine_start(struct isim_func *f)
{
	isim_eng_lock(f, "start");
	WRITE_ONCE(f->running, true);
	isim_eng_unlock(f);
	isim_engine_kick(f, ISIM_WAKE_CTL);
	isim_cqp_watch_start(f);
}

/**
 * isim_engine_stop - stop polling and free every engine object
 * @f: function
 *
 * Whatever the driver left behind (it should have destroyed everything)
 * is dropped, as a function reset would.
 */
void isim_engine_stop(struct isim_func *f)
{
	isim_eng_lock(f, "stop");
	WRITE_ONCE(f->running, false);
	isim_eng_unlock(f);
	/* the watches end themselves once they see !running */
	hrtimer_cancel(&f->wake.udb_timer);
	hrtimer_cancel(&f->wake.cqp_timer);
	kthread_cancel_work_sync(&f->wake.cqp_work);
	cancel_delayed_work_sync(&f->tick);
	cancel_delayed_work_sync(&f->tick_hi);
	isim_eng_lock(f, "stop");
	isim_engine_clear(f);
	isim_eng_unlock(f);
}

/**
 * isim_engine_exit - free the engine state; polling has stopped
 * @f: function
 */
void isim_engine_exit(struct isim_func *f)
{
	/*
	 * A frame that arrived, or a debugfs write made, after the stop may
	 * have queued a pass; it found the engine stopped, and none can come
	 * now that the netdev and debugfs are gone.
	 */
	hrtimer_cancel(&f->wake.udb_timer);
	hrtimer_cancel(&f->wake.cqp_timer);
	kthread_cancel_work_sync(&f->wake.cqp_work);
	cancel_delayed_work_sync(&f->tick);
	cancel_delayed_work_sync(&f->tick_hi);
	mutex_lock(&f->eng_lock);
	isim_engine_clear(f);
	mutex_unlock(&f->eng_lock);
	isim_conn_exit(f);
	isim_sched_exit(f);
	xa_destroy(&f->cqs);
	xa_destroy(&f->qps);
	xa_destroy(&f->stags);
	mutex_destroy(&f->eng_lock);
}

/**
 * isim_engine_reset - function-level reset of the engine
 * @f: function
 *
 * Every object is dropped and the register space returns to its power-on
 * state. The driver must be unbound (see isim_func_reset()).
 */
void isim_engine_reset(struct isim_func *f)
{
	isim_eng_lock(f, "reset");
	isim_engine_clear(f);
	isim_regs_reset(f);
	isim_eng_unlock(f);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/engine_test.c"
#endif
