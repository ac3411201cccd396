// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the register space, in a register window's BAR (win.c) or in
 * RAM.
 *
 * The driver reads and writes it with readl()/writel() exactly as it does
 * the E810's or the X722's BAR; which registers sit where is the
 * generation's struct isim_regmap. The engine notices writes by polling (engine.c); registers
 * that act as doorbells are consumed with an atomic exchange so that no
 * write between the engine's read and its reset is lost.
 */
#include <linux/atomic.h>
#include <linux/vmalloc.h>

#include "isim.h"
#include "isim_trace.h"

static const struct isim_regmap isim_regmap_gen2 = {
	.bar_len = ISIM_BAR_LEN,
	.cqpdb = ISIM_REG_CQPDB,
	.cqptail = ISIM_REG_CQPTAIL,
	.ccqpstatus = ISIM_REG_CCQPSTATUS,
	.ccqphigh = ISIM_REG_CCQPHIGH,
	.ccqplow = ISIM_REG_CCQPLOW,
	.cqperrcodes = ISIM_REG_CQPERRCODES,
	.cqarm = ISIM_REG_CQARM,
	.aeqalloc = ISIM_REG_AEQALLOC,
	.wqealloc = ISIM_REG_WQEALLOC,
	.aeqctl = ISIM_REG_AEQCTL,
	.ceqctl = ISIM_REG_CEQCTL(0),
	.dyn_ctl = ISIM_REG_DYN_CTL(0),
	.dyn_ctl_first = 0,
	.cpustatus = ISIM_REG_CPUSTATUS(0),
	.lbarctrl = ISIM_REG_LBARCTRL,
	.lbar_db_size = ISIM_LBARCTRL_DB_SIZE_8M,
	.udb = ISIM_DB_PAGES_OFF,
};

/* PFINT_DYN_CTLN(0) is vector 1: vector 0 belongs to i40e */
static const struct isim_regmap isim_regmap_gen1 = {
	.bar_len = ISIM_G1_BAR_LEN,
	.cqpdb = ISIM_REG_G1_CQPDB,
	.cqptail = ISIM_REG_G1_CQPTAIL,
	.ccqpstatus = ISIM_REG_G1_CCQPSTATUS,
	.ccqphigh = ISIM_REG_G1_CCQPHIGH,
	.ccqplow = ISIM_REG_G1_CCQPLOW,
	.cqperrcodes = ISIM_REG_G1_CQPERRCODES,
	.cqarm = ISIM_REG_G1_CQARM,
	.aeqalloc = ISIM_REG_G1_AEQALLOC,
	.wqealloc = ISIM_REG_G1_WQEALLOC,
	.aeqctl = ISIM_REG_G1_AEQCTL,
	.ceqctl = ISIM_REG_G1_CEQCTL(0),
	.dyn_ctl = ISIM_REG_G1_DYN_CTLN(0),
	.dyn_ctl_first = 1,
	.cpustatus = ISIM_REG_G1_CPUSTATUS(0),
	.lbarctrl = ISIM_REG_G1_LBARCTRL,
	.lbar_db_size = ISIM_LBARCTRL_DB_SIZE_4M,
	.udb = ISIM_G1_DB_PAGES_OFF,
};

static __le32 *isim_reg(struct isim_func *f, u32 off)
{
	if (WARN_ON_ONCE(off & 3 || off >= f->rm->bar_len))
		off = 0;
	return f->regs + off;
}

/**
 * isim_reg_dyn_ctl - the DYN_CTL register of an engine vector
 * @f: function
 * @v: engine vector number
 *
 * gen2 has GLINT_DYN_CTL(v) for every vector, gen1 PFINT_DYN_CTLN(v - 1)
 * for every vector but 0, which is i40e's and has a register of its own
 * that RDMA never touches.
 *
 * Return: the register offset, or 0 when the vector has none.
 */
u32 isim_reg_dyn_ctl(struct isim_func *f, u32 v)
{
	if (v < f->rm->dyn_ctl_first)
		return 0;
	return f->rm->dyn_ctl + 4 * (v - f->rm->dyn_ctl_first);
}

/**
 * isim_rd32 - read a register as the engine
 * @f: function
 * @off: byte offset in the register space
 *
 * Return: the register value.
 */
u32 isim_rd32(struct isim_func *f, u32 off)
{
	return le32_to_cpu(READ_ONCE(*isim_reg(f, off)));
}

/**
 * isim_wr32 - write a register as the engine
 * @f: function
 * @off: byte offset in the register space
 * @val: value
 */
void isim_wr32(struct isim_func *f, u32 off, u32 val)
{
	WRITE_ONCE(*isim_reg(f, off), cpu_to_le32(val));
}

/**
 * isim_xchg32 - consume a doorbell register
 * @f: function
 * @off: byte offset in the register space
 * @val: value the register reads back as afterwards
 *
 * Return: the value the driver last wrote.
 */
u32 isim_xchg32(struct isim_func *f, u32 off, u32 val)
{
	u32 *reg = (u32 *)isim_reg(f, off);
	u32 new = (__force u32)cpu_to_le32(val);
	u32 old = le32_to_cpu((__force __le32)xchg(reg, new));

	if (old != val)
		trace_isim_reg(f->id, off, old);
	return old;
}

/**
 * isim_clr32 - clear bits of a register the driver may write concurrently
 * @f: function
 * @off: byte offset in the register space
 * @bits: bits to clear
 */
void isim_clr32(struct isim_func *f, u32 off, u32 bits)
{
	u32 *reg = (u32 *)isim_reg(f, off);
	u32 old = READ_ONCE(*reg);
	u32 new;

	do {
		new = old & ~(__force u32)cpu_to_le32(bits);
	} while (!try_cmpxchg(reg, &old, new));
}

/**
 * isim_regs_reset - put the register space in its power-on state
 * @f: function
 *
 * The PE firmware reports ready, LBARCTRL gives the doorbell BAR's size,
 * every doorbell is idle and everything else reads zero.
 */
void isim_regs_reset(struct isim_func *f)
{
	const struct isim_regmap *rm = f->rm;
	int i;

	memset(f->regs, 0, rm->bar_len);
	for (i = 0; i < ISIM_CPUSTATUS_NUM; i++)
		isim_wr32(f, rm->cpustatus + 4 * i, ISIM_CPUSTATUS_READY);
	isim_wr32(f, rm->lbarctrl,
		  FIELD_PREP(ISIM_LBARCTRL_DB_SIZE, rm->lbar_db_size));
	isim_wr32(f, rm->cqarm, ISIM_DB_IDLE);
	isim_wr32(f, rm->wqealloc, ISIM_DB_IDLE);
	isim_wr32(f, isim_reg_udb_cqarm(f), ISIM_DB_IDLE);
	isim_wr32(f, isim_reg_udb_wqealloc(f), ISIM_DB_IDLE);
}

/**
 * isim_regs_init - allocate the register space of the function's generation
 * @f: function, its @gen set
 *
 * The registers go into a free register window (win.c) if there is one,
 * else into the simulator's RAM.
 *
 * Return: 0 or -ENOMEM.
 */
int isim_regs_init(struct isim_func *f)
{
	f->rm = f->gen == ISIM_GEN1 ? &isim_regmap_gen1 : &isim_regmap_gen2;
	if (!isim_win_get(f))
		f->regs = vmalloc(f->rm->bar_len);
	if (!f->regs)
		return -ENOMEM;
	isim_regs_reset(f);
	return 0;
}

/**
 * isim_regs_exit - free the register space
 * @f: function
 */
void isim_regs_exit(struct isim_func *f)
{
	if (f->win) {
		isim_win_put(f);
		return;
	}
	vfree(f->regs);
	f->regs = NULL;
}
