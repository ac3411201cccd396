/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Copyright (c) 2026 The irdma project authors */
/*
 * A fake device for the suites that issue CQP commands: it runs the WQEs
 * rung on its CQP only when the test says so, completing each as asked
 * (done, or failed as the engine fails a command). Included by the suites
 * after the code under test.
 */
#ifndef IRDMA_KUNIT_CMD_FAKE_H
#define IRDMA_KUNIT_CMD_FAKE_H

#include <kunit/test.h>
#include <linux/wait.h>

#define CMD_T_CQP_SIZE	16
#define CMD_T_CCQ_SIZE	32
#define CMD_T_CQPDB	0x500800
#define CMD_T_CQPTAIL	0x500880

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
 * @rung: woken at each CQPDB write
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
	wait_queue_head_t rung;
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
	wake_up(&d->rung);
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
static inline u32 cmd_t_pending(struct cmd_t_dev *d)
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
static inline void cmd_t_run_one_as(struct cmd_t_dev *d, u16 major, u16 minor)
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

static inline void cmd_t_run_one(struct cmd_t_dev *d)
{
	cmd_t_run_one_as(d, 0, 0);
}

static inline void cmd_t_dev_exit(struct cmd_t_dev *d)
{
	if (d->hw.cmd_wq)
		destroy_workqueue(d->hw.cmd_wq);
}

/* a function with a CQP and a CCQ on the fake device @d, zeroed before */
static inline void cmd_t_dev_init(struct kunit *test, struct cmd_t_dev *d)
{
	struct irdma_hw *hw = &d->hw;

	spin_lock_init(&d->lock);
	init_waitqueue_head(&d->rung);
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
}

/* the header word of the next WQE the device runs; one must be rung */
static inline u64 cmd_t_peek_hdr(struct cmd_t_dev *d)
{
	const __le64 *wqe = d->hw.cqp.sq + d->sq_tail * IRDMA_CQP_WQE_WORDS;

	return le64_to_cpu(READ_ONCE(wqe[IRDMA_WQE_HDR_WORD]));
}

/* wait up to @ms for @n WQEs rung and not run */
static inline bool cmd_t_wait_pending(struct cmd_t_dev *d, u32 n,
				      unsigned int ms)
{
	wait_event_timeout(d->rung, cmd_t_pending(d) >= n,
			   msecs_to_jiffies(ms));
	return cmd_t_pending(d) >= n;
}

#endif /* IRDMA_KUNIT_CMD_FAKE_H */
