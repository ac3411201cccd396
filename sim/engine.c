// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the engine's poll loop.
 *
 * Hardware reacts to register writes at once; the simulator notices them
 * by polling the register space: once per jiffy (and at once again while
 * CQP commands are still queued), before the CQP exists as after: a CQP
 * create request must be answered well within 10 ms, which is all Linux
 * 6.1's irdma gives the adapter, busy-waiting.
 * An engine that has moved nothing for ISIM_QUIET_PASSES passes in a row
 * polls every ISIM_QUIET_MS until something moves again: at 1000 passes a
 * second per function, an idle guest under TCG spent nearly half of its
 * CPU waking the engine up.
 * One tick, under eng_lock: CQP create or destroy requests, CQ arm
 * requests, returned AEQEs, queued CQP commands, SQ/RQ work (exec.c),
 * raw-queue frames (ilq.c), then interrupt vectors the driver re-enabled;
 * a pass takes on no more work after ISIM_PASS_NS. The QPs' SQs and the
 * CQs' arm words are read only after a doorbell or something the engine
 * did to a QP (see isim_exec_run()), and by a guard pass every
 * ISIM_SCAN_MS or more. A halted engine (critical error) reads and writes
 * nothing until the function is reset; it only raises the interrupts it
 * had posted before it stopped.
 */
#include "isim.h"

#define ISIM_QUIET_PASSES	16
#define ISIM_QUIET_MS	4

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
 * Return: true if CQP commands or WQEs may still be queued.
 */
bool isim_engine_poll(struct isim_func *f)
{
	u64 t0 = ktime_get_ns();
	bool more, scan;

	lockdep_assert_held(&f->eng_lock);
	more = false;
	f->pass_end_ns = t0 + ISIM_PASS_NS;
	scan = time_after_eq(jiffies, f->scan_due);
	if (!f->halted) {
		isim_cqp_poll_ctx(f);
		isim_cq_poll_arm(f, scan);
		isim_aeq_poll_alloc(f);
		/* a command naming a QP kicks it (isim_exec_kick()) */
		more = isim_cqp_run(f, ISIM_CQP_BUDGET);
		more |= isim_exec_run(f, ISIM_WQE_BUDGET, scan);
		more |= isim_ilq_run(f, ISIM_WQE_BUDGET);
		more |= isim_ud_run(f, ISIM_WQE_BUDGET);
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
	/* a halted engine still raises what it posted before it stopped */
	isim_irq_service(f);
	return more;
}

static void isim_engine_tick(struct work_struct *work)
{
	struct isim_func *f = container_of(to_delayed_work(work),
					   struct isim_func, tick);
	unsigned long delay;
	u64 t0, ns, moves;
	bool more;

	mutex_lock(&f->eng_lock);
	if (!f->running) {
		mutex_unlock(&f->eng_lock);
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
	if (f->tick_due_ns && t0 > f->tick_due_ns)
		f->tick_late_ns_max = max(f->tick_late_ns_max,
					  t0 - f->tick_due_ns);
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
	if (more)
		delay = 0;
	else if (f->quiet >= ISIM_QUIET_PASSES)
		delay = msecs_to_jiffies(ISIM_QUIET_MS);
	else
		delay = 1;
	f->tick_due_ns = t0 + ns + jiffies_to_nsecs(delay);
	mutex_unlock(&f->eng_lock);
	queue_delayed_work(isim_wq, &f->tick, delay);
}

/* drop every object; registers are left alone. Caller holds eng_lock. */
static void isim_engine_clear(struct isim_func *f)
{
	int i;

	lockdep_assert_held(&f->eng_lock);
	isim_cqp_reset(f);
	isim_qp_reset(f);
	isim_stag_reset(f);
	isim_conn_reset(f);
	isim_sched_reset(f);
	isim_ilq_reset(f);
	isim_ud_reset(f);
	isim_toe_reset(f);
	isim_cq_reset(f);
	isim_eq_reset(f);
	isim_hmc_reset(f);
	for (i = 0; i < ISIM_NUM_VECTORS; i++)
		f->vec[i].pending = false;
	f->halted = false;
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
	isim_ilq_init(f);
	isim_ud_init(f);
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
	mutex_lock(&f->eng_lock);
	f->running = true;
	mutex_unlock(&f->eng_lock);
	queue_delayed_work(isim_wq, &f->tick, 0);
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
	mutex_lock(&f->eng_lock);
	f->running = false;
	mutex_unlock(&f->eng_lock);
	cancel_delayed_work_sync(&f->tick);
	mutex_lock(&f->eng_lock);
	isim_engine_clear(f);
	mutex_unlock(&f->eng_lock);
}

/**
 * isim_engine_exit - free the engine state; polling has stopped
 * @f: function
 */
void isim_engine_exit(struct isim_func *f)
{
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
	mutex_lock(&f->eng_lock);
	isim_engine_clear(f);
	isim_regs_reset(f);
	mutex_unlock(&f->eng_lock);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "engine_test.c"
#endif
