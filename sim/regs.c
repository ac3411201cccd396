// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: the RAM-backed register space.
 *
 * The driver reads and writes it with readl()/writel() exactly as it does
 * the E810's BAR. The engine notices writes by polling (engine.c); registers
 * that act as doorbells are consumed with an atomic exchange so that no
 * write between the engine's read and its reset is lost.
 */
#include <linux/atomic.h>
#include <linux/vmalloc.h>

#include "isim.h"

static __le32 *isim_reg(struct isim_func *f, u32 off)
{
	if (WARN_ON_ONCE(off & 3 || off >= ISIM_BAR_LEN))
		off = 0;
	return f->regs + off;
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

	return le32_to_cpu((__force __le32)xchg(reg,
						 (__force u32)cpu_to_le32(val)));
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
 * The PE firmware reports ready, the doorbell BAR is 8 MiB, every doorbell
 * is idle and everything else reads zero.
 */
void isim_regs_reset(struct isim_func *f)
{
	int i;

	memset(f->regs, 0, ISIM_BAR_LEN);
	for (i = 0; i < ISIM_CPUSTATUS_NUM; i++)
		isim_wr32(f, ISIM_REG_CPUSTATUS(i), ISIM_CPUSTATUS_READY);
	isim_wr32(f, ISIM_REG_LBARCTRL,
		  FIELD_PREP(ISIM_LBARCTRL_DB_SIZE, ISIM_LBARCTRL_DB_SIZE_8M));
	isim_wr32(f, ISIM_REG_CQARM, ISIM_DB_IDLE);
	isim_wr32(f, ISIM_REG_WQEALLOC, ISIM_DB_IDLE);
	isim_wr32(f, ISIM_REG_UDB_CQARM, ISIM_DB_IDLE);
	isim_wr32(f, ISIM_REG_UDB_WQEALLOC, ISIM_DB_IDLE);
}

/**
 * isim_regs_init - allocate the register space
 * @f: function
 *
 * Return: 0 or -ENOMEM.
 */
int isim_regs_init(struct isim_func *f)
{
	f->regs = vmalloc(ISIM_BAR_LEN);
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
	vfree(f->regs);
	f->regs = NULL;
}
