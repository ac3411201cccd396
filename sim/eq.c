// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: completion event queues (CEQs) and the asynchronous event
 * queue (AEQ).
 *
 * A CEQE names a CQ that has a new CQE and was armed; an AEQE reports an
 * asynchronous event on a QP or CQ. Both rings are written with a valid
 * bit whose polarity flips on every wrap, and both raise the vector that
 * CEQCTL(n) / AEQCTL route them to, if the cause is enabled there.
 */
#include "isim.h"

#define ISIM_EQ_ALIGN	256

/**
 * isim_eq_reset - forget every CEQ and the AEQ
 * @f: function
 */
void isim_eq_reset(struct isim_func *f)
{
	memset(f->ceq, 0, sizeof(f->ceq));
	memset(&f->aeq, 0, sizeof(f->aeq));
}

static u16 isim_eq_setup(struct isim_eq *eq, const u64 *wqe, u32 size,
			 u32 elem)
{
	struct isim_ring *r = &eq->ring;

	if (size < ISIM_EQ_MIN_SIZE)
		return ISIM_MIN_BAD_SIZE;
	if (FIELD_GET(ISIM_EQ_HDR_PBL_LEVELS, wqe[ISIM_WQE_HDR]))
		return ISIM_MIN_UNSUPPORTED;
	memset(eq, 0, sizeof(*eq));
	r->mem.virt = wqe[ISIM_WQE_HDR] & ISIM_EQ_HDR_VIRT;
	r->mem.pa = wqe[4];
	r->mem.first_pble = FIELD_GET(ISIM_EQ_W6_FIRST_PBLE, wqe[6]);
	r->mem.bytes = size * elem;
	if (!r->mem.virt && (!r->mem.pa || !IS_ALIGNED(r->mem.pa,
						       ISIM_EQ_ALIGN)))
		return ISIM_MIN_BAD_ALIGN;
	r->size = size;
	r->elem = elem;
	r->polarity = 1;
	eq->live = true;
	return ISIM_MIN_OK;
}

/**
 * isim_op_create_ceq - CREATE_CEQ
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_create_ceq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	u32 id = FIELD_GET(ISIM_CEQ_HDR_ID, wqe[ISIM_WQE_HDR]);

	if (id >= ISIM_MAX_CEQS) {
		res->minor = ISIM_MIN_BAD_ID;
		return;
	}
	if (f->ceq[id].live) {
		res->minor = ISIM_MIN_EXISTS;
		return;
	}
	res->minor = isim_eq_setup(&f->ceq[id], wqe,
				   FIELD_GET(ISIM_CEQ_W2_SIZE, wqe[2]),
				   ISIM_CEQE_BYTES);
	if (res->minor)
		f->ceq[id].live = false;
}

/**
 * isim_op_destroy_ceq - DESTROY_CEQ
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_destroy_ceq(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res)
{
	u32 id = FIELD_GET(ISIM_CEQ_HDR_ID, wqe[ISIM_WQE_HDR]);

	if (id >= ISIM_MAX_CEQS || !f->ceq[id].live) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	f->ceq[id].live = false;
}

/**
 * isim_op_create_aeq - CREATE_AEQ
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_create_aeq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	if (f->aeq.live) {
		res->minor = ISIM_MIN_EXISTS;
		return;
	}
	res->minor = isim_eq_setup(&f->aeq, wqe,
				   FIELD_GET(ISIM_AEQ_W2_SIZE, wqe[2]),
				   ISIM_AEQE_BYTES);
	if (res->minor)
		f->aeq.live = false;
	else
		f->aeq.credits = f->aeq.ring.size;
}

/**
 * isim_op_destroy_aeq - DESTROY_AEQ
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_destroy_aeq(struct isim_func *f, const u64 *wqe,
			 struct isim_res *res)
{
	if (!f->aeq.live) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return;
	}
	f->aeq.live = false;
}

static void isim_eq_kick(struct isim_func *f, u32 ctl_reg)
{
	u32 ctl = isim_rd32(f, ctl_reg);

	if (ctl & ISIM_EQCTL_CAUSE_ENA)
		isim_irq_raise(f, FIELD_GET(ISIM_EQCTL_VECTOR, ctl));
}

/**
 * isim_ceq_notify - write a CEQE for an armed CQ and raise its vector
 * @f: function
 * @ceq: CEQ id
 * @ctx: the CQ's context value
 */
void isim_ceq_notify(struct isim_func *f, u16 ceq, u64 ctx)
{
	struct isim_eq *eq = ceq < ISIM_MAX_CEQS ? &f->ceq[ceq] : NULL;
	u64 e = FIELD_PREP(ISIM_CEQE_CTX, ctx);

	lockdep_assert_held(&f->eng_lock);
	if (!eq || !eq->live) {
		dev_warn_ratelimited(&f->dev, "CQ event for CEQ %u, not live (size %u posted %llu)\n",
				     ceq, eq ? eq->ring.size : 0,
				     eq ? eq->posted : 0);
		return;
	}
	if (isim_ring_post(f, &eq->ring, &e, 0, ISIM_CEQE_VALID)) {
		dev_warn_ratelimited(&f->dev, "CEQ %u: DMA fault\n", ceq);
		return;
	}
	eq->posted++;
	isim_eq_kick(f, isim_reg_ceqctl(f, ceq));
}

/**
 * isim_aeq_post_q2 - write an AEQE and raise the AEQ's vector
 * @f: function
 * @code: AE code
 * @src: AE source (QP SQ/RQ, CQ, ...)
 * @id: QP or CQ id
 * @ctx: the object's context value
 * @q2: Q2DATA: ISIM_AEQ_Q2_FRAME when the QP's Q2 holds the frame the
 *	event is about, else 0
 *
 * Return: 0, -ENOENT without an AEQ, -ENOSPC when the driver has not
 * returned enough AEQEs (the event is lost, as on hardware), -EFAULT.
 */
int isim_aeq_post_q2(struct isim_func *f, u16 code, u8 src, u32 id, u64 ctx,
		     u8 q2)
{
	return isim_aeq_post_full(f, code, src, id, ctx,
				  FIELD_PREP(ISIM_AEQE_Q2DATA, q2));
}

/**
 * isim_aeq_post_full - write an AEQE with more fields of its second word
 * @f: function
 * @code: AE code
 * @src: AE source (QP SQ/RQ, CQ, ...)
 * @id: QP or CQ id
 * @ctx: the object's context value
 * @more: Q2DATA, IWSTATE and TCPSTATE, in place
 *
 * Return: as isim_aeq_post_q2().
 */
int isim_aeq_post_full(struct isim_func *f, u16 code, u8 src, u32 id,
		       u64 ctx, u64 more)
{
	struct isim_eq *eq = &f->aeq;
	u64 e[2];
	int err;

	lockdep_assert_held(&f->eng_lock);
	if (!eq->live)
		return -ENOENT;
	if (!eq->credits) {
		eq->lost++;
		return -ENOSPC;
	}
	e[0] = ctx;
	e[1] = FIELD_PREP(ISIM_AEQE_ID_LO,
			  id & GENMASK(ISIM_AEQE_ID_LO_BITS - 1, 0)) |
	       FIELD_PREP(ISIM_AEQE_ID_HI, id >> ISIM_AEQE_ID_LO_BITS) |
	       FIELD_PREP(ISIM_AEQE_CODE, code) |
	       FIELD_PREP(ISIM_AEQE_SOURCE, src) |
	       (more & (ISIM_AEQE_Q2DATA | ISIM_AEQE_IWSTATE |
			ISIM_AEQE_TCPSTATE));
	err = isim_ring_post(f, &eq->ring, e, 1, ISIM_AEQE_VALID);
	if (err)
		return err;
	eq->credits--;
	eq->posted++;
	isim_eq_kick(f, f->rm->aeqctl);
	return 0;
}

/**
 * isim_aeq_post - write an AEQE with nothing in Q2
 * @f: function
 * @code: AE code
 * @src: AE source (QP SQ/RQ, CQ, ...)
 * @id: QP or CQ id
 * @ctx: the object's context value
 *
 * Return: as isim_aeq_post_q2().
 */
int isim_aeq_post(struct isim_func *f, u16 code, u8 src, u32 id, u64 ctx)
{
	return isim_aeq_post_q2(f, code, src, id, ctx, 0);
}

/**
 * isim_aeq_poll_alloc - take back AEQEs the driver returned via AEQALLOC
 * @f: function
 */
void isim_aeq_poll_alloc(struct isim_func *f)
{
	u32 n = isim_xchg32(f, f->rm->aeqalloc, 0);

	lockdep_assert_held(&f->eng_lock);
	if (f->aeq.live)
		f->aeq.credits = min_t(u64, f->aeq.credits + n,
				       f->aeq.ring.size);
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/eq_test.c"
#endif
