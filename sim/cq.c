// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: completion queues, the control CQ (CCQ) among them.
 *
 * The engine writes CQEs at its producer index with the pass's valid bit.
 * With overflow checking on, it first reads the consumer index the driver
 * keeps in word 0 of the CQ's shadow area and refuses to overwrite an
 * unconsumed CQE: the CQE is lost and a CQ_OPERATION_ERROR AE is raised.
 * A CQ is armed either by a CQARM doorbell carrying its id or by a new arm
 * sequence number in word 4 of its shadow area; the next CQE then writes a
 * CEQE to the CQ's CEQ. The adapter sees the arm when the driver writes
 * it, the simulator only at its next pass: a CQE written in between came
 * after the arm, and the consumer that polled the CQ empty after arming
 * waits for its event. So an arm that finds the CQ holding a CQE the
 * driver has not consumed (word 0 of the shadow area) raises the event at
 * once; when that CQE was older than the arm the event is spurious, which
 * consumers allow (they poll and find the CQ empty).
 *
 * MODIFY_CQ with RESIZE moves the CQ to a new ring: the CQEs from then on
 * go there from slot 0 with valid bit 1, and those still in the old ring
 * are the driver's to drain. While it does, the consumer index in the
 * shadow area is the old ring's; the driver says it has moved on by
 * counting the resizes it has finished with in word 4 (RESIZED). Until
 * that count matches the engine's, nothing of the new ring counts as
 * consumed. A resize to a ring too small for the CQEs not yet consumed
 * from the current one is refused (BAD_SIZE): they could not all have
 * been delivered had the CQ been that small.
 */
#include <linux/slab.h>

#include "isim.h"

#define ISIM_CQ_ALIGN	128

static void isim_cq_free_all(struct isim_func *f)
{
	struct isim_cq *cq, *tmp;

	list_for_each_entry_safe(cq, tmp, &f->cq_list, node) {
		isim_cq_del(f, cq);
		kfree(cq);
	}
}

/**
 * isim_cq_add - make a new CQ known to the engine
 * @f: function
 * @cq: the CQ, its id set
 *
 * Caller holds eng_lock.
 *
 * Return: 0, or -EBUSY if the id is taken, -ENOMEM.
 */
int isim_cq_add(struct isim_func *f, struct isim_cq *cq)
{
	int err;

	lockdep_assert_held(&f->eng_lock);
	err = xa_insert(&f->cqs, cq->id, cq, GFP_KERNEL);
	if (!err)
		list_add_tail(&cq->node, &f->cq_list);
	return err;
}

/**
 * isim_cq_del - forget a CQ (the caller frees it)
 * @f: function
 * @cq: a CQ isim_cq_add() took
 *
 * Caller holds eng_lock.
 */
void isim_cq_del(struct isim_func *f, struct isim_cq *cq)
{
	lockdep_assert_held(&f->eng_lock);
	list_del(&cq->node);
	xa_erase(&f->cqs, cq->id);
}

/**
 * isim_cq_reset - forget every CQ
 * @f: function
 */
void isim_cq_reset(struct isim_func *f)
{
	isim_cq_free_all(f);
}

static u8 isim_cq_read_arm_seq(struct isim_func *f, struct isim_cq *cq)
{
	__le64 w;

	if (isim_dma_read(f, cq->shadow_pa + ISIM_CQSA_ARM_WORD * 8, &w,
			  sizeof(w)))
		return cq->arm_seq;
	return FIELD_GET(ISIM_CQSA_ARM_SEQ, le64_to_cpu(w));
}

/* CQ id and CEQ id of a CQ command's header: narrower fields on gen1 */
static u32 isim_cq_hdr_id(struct isim_func *f, u64 hdr)
{
	if (f->gen == ISIM_GEN1)
		return FIELD_GET(ISIM_CQ_HDR_G1_ID, hdr);
	return FIELD_GET(ISIM_CQ_HDR_ID, hdr);
}

static u32 isim_cq_hdr_ceq(struct isim_func *f, u64 hdr)
{
	if (f->gen == ISIM_GEN1)
		return FIELD_GET(ISIM_CQ_HDR_G1_CEQ, hdr);
	return FIELD_GET(ISIM_CQ_HDR_CEQ, hdr);
}

/* the ring, CEQ and shadow area a CREATE_CQ or MODIFY_CQ names */
static u16 isim_cq_check_ring(struct isim_func *f, const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	u32 size = FIELD_GET(ISIM_CQ_W0_SIZE, wqe[0]);

	if (size < ISIM_CQ_MIN_SIZE || size > ISIM_CQ_MAX_SIZE)
		return ISIM_MIN_BAD_SIZE;
	/* a PBLE-mapped ring has one level of PBLEs (LPBLSIZE 0 or 1) */
	if (FIELD_GET(ISIM_CQ_HDR_PBL_LEVELS, hdr) > 1)
		return ISIM_MIN_UNSUPPORTED;
	if ((hdr & ISIM_CQ_HDR_CEQ_VALID) &&
	    isim_cq_hdr_ceq(f, hdr) >= ISIM_MAX_CEQS)
		return ISIM_MIN_BAD_ID;
	if (!(hdr & ISIM_CQ_HDR_VIRT) &&
	    (!wqe[4] || !IS_ALIGNED(wqe[4], ISIM_CQ_ALIGN)))
		return ISIM_MIN_BAD_ALIGN;
	if (!wqe[5] || !IS_ALIGNED(wqe[5], 8))
		return ISIM_MIN_BAD_ALIGN;
	return ISIM_MIN_OK;
}

static u16 isim_cq_check(struct isim_func *f, const u64 *wqe, u32 id)
{
	if (id && (!f->hmc.committed || id >= f->hmc.cnt[ISIM_HMC_CQ]))
		return ISIM_MIN_BAD_ID;
	if (xa_load(&f->cqs, id))
		return ISIM_MIN_EXISTS;
	return isim_cq_check_ring(f, wqe);
}

/* take the ring and shadow area of a CREATE_CQ or MODIFY_CQ */
static void isim_cq_fill_ring(struct isim_cq *cq, const u64 *wqe)
{
	u64 hdr = wqe[ISIM_WQE_HDR];
	struct isim_ring *r = &cq->ring;

	cq->shadow_pa = wqe[5];
	cq->chk_overflow = hdr & ISIM_CQ_HDR_CHK_OVERFLOW;
	r->size = FIELD_GET(ISIM_CQ_W0_SIZE, wqe[0]);
	r->elem = hdr & ISIM_CQ_HDR_BIG_CQE ? ISIM_CQE_BIG_BYTES :
					      ISIM_CQE_BYTES;
	r->mem.virt = hdr & ISIM_CQ_HDR_VIRT;
	r->mem.pa = wqe[4];
	r->mem.first_pble = FIELD_GET(ISIM_CQ_W6_FIRST_PBLE, wqe[6]);
	r->mem.bytes = r->size * r->elem;
	r->head = 0;
	r->polarity = 1;
}

static void isim_cq_fill(struct isim_func *f, struct isim_cq *cq,
			 const u64 *wqe, u32 id)
{
	u64 hdr = wqe[ISIM_WQE_HDR];

	cq->id = id;
	cq->ctx = wqe[1];
	cq->ceq_valid = hdr & ISIM_CQ_HDR_CEQ_VALID;
	cq->ceq = isim_cq_hdr_ceq(f, hdr);
	isim_cq_fill_ring(cq, wqe);
}

/*
 * CQEs written to the current ring and not consumed yet, or -EFAULT when
 * the shadow area cannot be read. Word 4 is read only once the CQ has
 * been resized: before, the consumer index is always the current ring's.
 */
static int isim_cq_pending(struct isim_func *f, const struct isim_cq *cq)
{
	const struct isim_ring *r = &cq->ring;
	u32 cons = 0;
	__le64 w;

	if (cq->resizes) {
		if (isim_dma_read(f, cq->shadow_pa + ISIM_CQSA_ARM_WORD * 8, &w,
				  sizeof(w)))
			return -EFAULT;
		/* the driver still drains an older ring */
		if (FIELD_GET(ISIM_CQSA_RESIZED, le64_to_cpu(w)) !=
		    (cq->resizes & FIELD_MAX(ISIM_CQSA_RESIZED)))
			return r->head;
	}
	if (isim_dma_read(f, cq->shadow_pa, &w, sizeof(w)))
		return -EFAULT;
	cons = FIELD_GET(ISIM_CQSA_CONSUMER, le64_to_cpu(w)) % r->size;
	return (r->head + r->size - cons) % r->size;
}

/**
 * isim_op_create_cq - CREATE_CQ, also used for the CCQ (id 0)
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_create_cq(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	u32 id = isim_cq_hdr_id(f, wqe[ISIM_WQE_HDR]);
	struct isim_cq *cq;

	res->minor = isim_cq_check(f, wqe, id);
	if (res->minor)
		return;
	cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	if (!cq) {
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	isim_cq_fill(f, cq, wqe, id);
	cq->arm_seq = isim_cq_read_arm_seq(f, cq);
	if (isim_cq_add(f, cq)) {
		kfree(cq);
		res->minor = ISIM_MIN_BUSY;
	}
}

/* the CQ a command names by id and context, or NULL with the minor set */
static struct isim_cq *isim_cq_named(struct isim_func *f, const u64 *wqe,
				     struct isim_res *res)
{
	u32 id = isim_cq_hdr_id(f, wqe[ISIM_WQE_HDR]);
	struct isim_cq *cq = xa_load(&f->cqs, id);

	if (!cq)
		res->minor = ISIM_MIN_NO_OBJECT;
	else if (cq->ctx != wqe[1])
		res->minor = ISIM_MIN_BAD_FIELD;
	return res->minor ? NULL : cq;
}

/**
 * isim_op_modify_cq - MODIFY_CQ: move a CQ to a new ring (RESIZE)
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * Only resizing is modelled; the CQ keeps its CEQ. Must run under
 * eng_lock, from the engine's pass (it runs the rung work first).
 */
void isim_op_modify_cq(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	struct isim_cq *cq = isim_cq_named(f, wqe, res);
	int pending;

	if (!cq)
		return;
	if (!cq->id || !(wqe[ISIM_WQE_HDR] & ISIM_CQ_HDR_RESIZE)) {
		res->minor = ISIM_MIN_UNSUPPORTED;
		return;
	}
	res->minor = isim_cq_check_ring(f, wqe);
	if (res->minor)
		return;
	/*
	 * The work rung for before the command is done first, so that its
	 * completions are counted (and written to the ring the CQ has now):
	 * the adapter saw those doorbells before the command
	 */
	isim_exec_run(f, ISIM_WQE_BUDGET, false);
	isim_ud_run(f, ISIM_WQE_BUDGET);
	pending = cq->chk_overflow ? isim_cq_pending(f, cq) : 0;
	if (pending < 0) {
		res->minor = ISIM_MIN_DMA_FAULT;
		return;
	}
	/* the new ring keeps one slot free, as every ring does */
	if (pending >= FIELD_GET(ISIM_CQ_W0_SIZE, wqe[0])) {
		res->minor = ISIM_MIN_BAD_SIZE;
		return;
	}
	isim_cq_fill_ring(cq, wqe);
	cq->resizes++;
}

/**
 * isim_op_destroy_cq - DESTROY_CQ
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_destroy_cq(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	struct isim_cq *cq = isim_cq_named(f, wqe, res);

	if (!cq)
		return;
	isim_cq_del(f, cq);
	kfree(cq);
}

/* the ring has no room for @slots more CQEs the driver has not consumed */
static bool isim_cq_full(struct isim_func *f, struct isim_cq *cq,
			 unsigned int slots)
{
	int used;

	if (!cq->chk_overflow)
		return false;
	used = isim_cq_pending(f, cq);
	/* one slot always stays free: a full ring would look empty */
	return used < 0 || used + slots >= cq->ring.size;
}

/*
 * Write one CQE. A 64-byte ring holds it in one slot, with the valid bit
 * in words 3 and 7; a 32-byte ring puts an extended CQE (immediate data)
 * in two slots, each with its own valid bit.
 */
/* gen1 CQEs have no extension: its bit 50 means something else there */
static bool isim_cqe_ext(const struct isim_func *f, const u64 *cqe)
{
	return f->gen != ISIM_GEN1 && cqe[3] & ISIM_CQE_W3_EXT;
}

static int isim_cq_write(struct isim_func *f, struct isim_cq *cq, u64 *cqe)
{
	struct isim_ring *r = &cq->ring;
	int err;

	if (r->elem == ISIM_CQE_BIG_BYTES) {
		cqe[7] &= ~ISIM_CQE_W3_VALID;
		if (r->polarity)
			cqe[7] |= ISIM_CQE_W3_VALID;
		return isim_ring_post(f, r, cqe, 3, ISIM_CQE_W3_VALID);
	}
	err = isim_ring_post(f, r, cqe, 3, ISIM_CQE_W3_VALID);
	if (err || !isim_cqe_ext(f, cqe))
		return err;
	return isim_ring_post(f, r, cqe + 4, 3, ISIM_CQE_W3_VALID);
}

static bool isim_cq_wakes(const struct isim_cq *cq, const u64 *cqe)
{
	if (!cq->armed || !cq->ceq_valid)
		return false;
	return !cq->solicited_only ||
	       cqe[3] & (ISIM_CQE_W3_SOLICITED | ISIM_CQE_W3_ERROR);
}

/**
 * isim_cq_post - write a CQE and, if the CQ is armed, a CEQE
 * @f: function
 * @cq_id: CQ id
 * @cqe: CQE words in CPU order: 4 of them, or ISIM_CQE_WORDS when word 3
 *	has ISIM_CQE_W3_EXT set on gen2 (only the first ring.elem/8 words of
 *	a 64-byte ring are used); valid bits are set here
 *
 * Return: 0, -ENOENT for an unknown CQ, -ENOSPC on overflow, -EFAULT.
 */
int isim_cq_post(struct isim_func *f, u32 cq_id, u64 *cqe)
{
	struct isim_cq *cq = xa_load(&f->cqs, cq_id);
	bool ext = isim_cqe_ext(f, cqe);
	int err;

	lockdep_assert_held(&f->eng_lock);
	if (!cq)
		return -ENOENT;
	if (isim_cq_full(f, cq, ext && cq->ring.elem == ISIM_CQE_BYTES ? 2 : 1)) {
		cq->overflows++;
		isim_aeq_post(f, ISIM_AE_CQ_OPERATION_ERROR, ISIM_AE_SRC_CQ,
			      cq->id, cq->ctx);
		return -ENOSPC;
	}
	err = isim_cq_write(f, cq, cqe);
	if (err)
		return err;
	cq->cqes++;
	if (isim_cq_wakes(cq, cqe)) {
		cq->armed = false;
		cq->events++;
		isim_ceq_notify(f, cq->ceq, cq->ctx);
	}
	return 0;
}

/* the ring holds a CQE the driver has not consumed */
static bool isim_cq_unconsumed(struct isim_func *f, const struct isim_cq *cq)
{
	return isim_cq_pending(f, cq) > 0;
}

static void isim_cq_arm(struct isim_func *f, struct isim_cq *cq)
{
	__le64 w;

	cq->armed = true;
	cq->arm_seq = isim_cq_read_arm_seq(f, cq);
	cq->solicited_only = false;
	/* "next solicited" without "next any" */
	if (!isim_dma_read(f, cq->shadow_pa + ISIM_CQSA_ARM_WORD * 8, &w,
			   sizeof(w)))
		cq->solicited_only = (le64_to_cpu(w) &
				      (ISIM_CQSA_ARM_NEXT | ISIM_CQSA_ARM_NEXT_SE)) ==
				     ISIM_CQSA_ARM_NEXT_SE;
	if (cq->ceq_valid && isim_cq_unconsumed(f, cq)) {
		cq->armed = false;
		cq->events++;
		cq->early_events++;
		isim_ceq_notify(f, cq->ceq, cq->ctx);
	}
}

/* one arm doorbell register; Return: true if it was rung */
static bool isim_cq_doorbell(struct isim_func *f, u32 reg)
{
	u32 id = isim_xchg32(f, reg, ISIM_DB_IDLE);
	struct isim_cq *cq;

	if (id == ISIM_DB_IDLE)
		return false;
	cq = xa_load(&f->cqs, id);
	if (cq)
		isim_cq_arm(f, cq);
	else
		dev_dbg(&f->dev, "CQARM for unknown CQ %u\n", id);
	return true;
}

/**
 * isim_cq_arm_rung - a kicked CQARM doorbell named CQ @id
 * @f: function
 * @id: the CQ id written
 *
 * The CQ is armed if its arm sequence moved since the engine last armed
 * it, as on a scan: a CQ rung twice between two passes is armed once.
 * Caller holds eng_lock.
 */
void isim_cq_arm_rung(struct isim_func *f, u32 id)
{
	struct isim_cq *cq = xa_load(&f->cqs, id);

	lockdep_assert_held(&f->eng_lock);
	if (!cq) {
		dev_dbg(&f->dev, "CQARM for unknown CQ %u\n", id);
		return;
	}
	if (isim_cq_read_arm_seq(f, cq) != cq->arm_seq)
		isim_cq_arm(f, cq);
}

/**
 * isim_cq_poll_arm - notice CQ arm requests
 * @f: function
 * @scan: read every CQ's arm sequence even without a doorbell
 *
 * The CQARM doorbell, and its alias in the user doorbell page, carry one
 * CQ id each; arm requests for two CQs between two polls would collapse
 * into one, so after a doorbell the shadow-area
 * arm sequence of every CQ is read as well. Consumers write the sequence
 * before they ring, so a pass that finds the register idle has no arm to
 * look for: the CQs are read then only when @scan asks for it.
 */
void isim_cq_poll_arm(struct isim_func *f, bool scan)
{
	struct isim_cq *cq;
	bool rung;

	lockdep_assert_held(&f->eng_lock);
	/* the kernel's doorbell, and user space's in its doorbell page */
	rung = isim_cq_doorbell(f, f->rm->cqarm);
	rung |= isim_cq_doorbell(f, isim_reg_udb_cqarm(f));
	if (!rung && !scan)
		return;
	f->arm_scans++;
	list_for_each_entry(cq, &f->cq_list, node)
		if (isim_cq_read_arm_seq(f, cq) != cq->arm_seq)
			isim_cq_arm(f, cq);
}
