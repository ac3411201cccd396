// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: QP control commands.
 *
 * CREATE_QP and MODIFY_QP hand the engine the bus address of the driver's
 * QP host context; the engine copies it into the QP's slot of the HMC, as
 * the adapter does, so a QP whose HMC memory is not backed fails with
 * HMC_UNBACKED. The engine records the state the driver asked for and
 * reads from the context what the data path needs (exec.c): where the
 * rings are, the CQs, the connected QP, the scheduler leaf it sends
 * through (QS handle, sched.c), and for an iWARP QP moving to RTS with a
 * TCP context, the connection (toe.c).
 */
#include <linux/slab.h>

#include "isim.h"
#include "isim_trace.h"

/**
 * isim_qp_reset - forget every QP
 * @f: function
 */
void isim_qp_reset(struct isim_func *f)
{
	struct isim_qp *qp, *tmp;

	list_for_each_entry_safe(qp, tmp, &f->qp_list, node) {
		isim_toe_unlink(f, qp);
		isim_qp_del(f, qp);
		kfree(qp);
	}
	f->exec_resume = false;
}

/**
 * isim_qp_add - make a new QP known to the engine
 * @f: function
 * @qp: the QP, its id set
 *
 * Caller holds eng_lock. The QP joins the end of the SQ passes' order.
 *
 * Return: 0, or -EBUSY if the id is taken, -ENOMEM.
 */
int isim_qp_add(struct isim_func *f, struct isim_qp *qp)
{
	int err;

	lockdep_assert_held(&f->eng_lock);
	err = xa_insert(&f->qps, qp->id, qp, GFP_KERNEL);
	if (err)
		return err;
	list_add_tail(&qp->node, &f->qp_list);
	INIT_LIST_HEAD(&qp->kick);
	return 0;
}

/**
 * isim_qp_del - forget a QP (the caller frees it)
 * @f: function
 * @qp: a QP isim_qp_add() took
 *
 * Caller holds eng_lock.
 */
void isim_qp_del(struct isim_func *f, struct isim_qp *qp)
{
	lockdep_assert_held(&f->eng_lock);
	isim_roce_free(f, qp);
	list_del(&qp->node);
	list_del(&qp->kick);
	xa_erase(&f->qps, qp->id);
}

#define ISIM_QP_CTX_WORDS	(ISIM_QP_HOST_CTX_BYTES / 8)

/* copy the host context into the QP's HMC slot; @ctx gets it in CPU order */
static u16 isim_qp_load_ctx(struct isim_func *f, u32 id, u64 ctx_pa,
			    u64 *ctx)
{
	__le64 raw[ISIM_QP_CTX_WORDS];
	unsigned int i;
	int err;

	if (!ctx_pa || !IS_ALIGNED(ctx_pa, 8))
		return ISIM_MIN_BAD_ALIGN;
	if (isim_dma_read(f, ctx_pa, raw, sizeof(raw)))
		return ISIM_MIN_DMA_FAULT;
	err = isim_hmc_obj_write(f, ISIM_HMC_QP, id, raw, sizeof(raw));
	if (err == -EFAULT)
		return ISIM_MIN_DMA_FAULT;
	if (err)
		return ISIM_MIN_HMC_UNBACKED;
	for (i = 0; i < ISIM_QP_CTX_WORDS; i++)
		ctx[i] = le64_to_cpu(raw[i]);
	trace_isim_ctx(f->id, "qp", id, ctx, ISIM_QP_CTX_WORDS);
	return ISIM_MIN_OK;
}

static u16 isim_qp_check_new(struct isim_func *f, const u64 *wqe, u32 id)
{
	u32 type = FIELD_GET(ISIM_QP_HDR_TYPE, wqe[ISIM_WQE_HDR]);
	bool roce = f->protocol == ISIM_AUX_ROCEV2;

	if (!f->hmc.committed || id >= f->hmc.cnt[ISIM_HMC_QP])
		return ISIM_MIN_BAD_ID;
	if (xa_load(&f->qps, id))
		return ISIM_MIN_EXISTS;
	switch (type) {
	case ISIM_QP_TYPE_IWARP:
		return roce ? ISIM_MIN_BAD_FIELD : ISIM_MIN_OK;
	case ISIM_QP_TYPE_ROCE_RC:
	case ISIM_QP_TYPE_ROCE_UD:
		return roce ? ISIM_MIN_OK : ISIM_MIN_BAD_FIELD;
	case ISIM_QP_TYPE_UDA:
		return ISIM_MIN_OK;
	}
	return ISIM_MIN_BAD_FIELD;
}

/**
 * isim_op_create_qp - CREATE_QP
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The QP type must fit the function's protocol (UDA, the privileged
 * queues' type, fits both).
 */
void isim_op_create_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	u32 id = FIELD_GET(ISIM_QP_HDR_ID, wqe[ISIM_WQE_HDR]);
	u64 ctx[ISIM_QP_CTX_WORDS];
	struct isim_qp *qp;

	res->minor = isim_qp_check_new(f, wqe, id);
	if (!res->minor)
		res->minor = isim_qp_load_ctx(f, id, wqe[2], ctx);
	if (res->minor)
		return;
	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp) {
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	qp->id = id;
	qp->type = FIELD_GET(ISIM_QP_HDR_TYPE, wqe[ISIM_WQE_HDR]);
	qp->state = FIELD_GET(ISIM_QP_HDR_NEXT_STATE, wqe[ISIM_WQE_HDR]);
	qp->ctx_pa = wqe[2];
	qp->shadow_pa = wqe[5];
	isim_exec_load_ctx(qp, ctx, wqe[ISIM_WQE_HDR] & ISIM_QP_HDR_VIRT);
	isim_exec_new_state(f, qp, ISIM_QPS_INVALID);
	if (isim_qp_add(f, qp)) {
		kfree(qp);
		res->minor = ISIM_MIN_BUSY;
		return;
	}
	isim_roce_modify(f, qp, ctx, ISIM_QPS_INVALID);
}

static struct isim_qp *isim_qp_of(struct isim_func *f, const u64 *wqe,
				  struct isim_res *res)
{
	struct isim_qp *qp;

	qp = xa_load(&f->qps, FIELD_GET(ISIM_QP_HDR_ID, wqe[ISIM_WQE_HDR]));
	if (!qp) {
		res->minor = ISIM_MIN_NO_OBJECT;
		return NULL;
	}
	/* a new state, a flush, a resume: the SQ may run */
	isim_exec_kick(f, qp);
	return qp;
}

/*
 * TERMINATE is an iWARP state; a move to it that sends a TERMINATE
 * message needs the message in Q2, as long as TERMLEN says.
 */
static u16 isim_qp_term_check(struct isim_func *f, const struct isim_qp *qp,
			      const u64 *wqe, const u64 *ctx)
{
	u8 act = FIELD_GET(ISIM_QP_HDR_TERM_ACT, wqe[ISIM_WQE_HDR]);

	if (qp->type != ISIM_QP_TYPE_IWARP)
		return ISIM_MIN_BAD_FIELD;
	if (act != ISIM_TERMACT_TERM_AND_FIN && act != ISIM_TERMACT_TERM)
		return 0;
	return isim_exec_iw_term_check(f, ctx[18] & ISIM_QPC_W18_Q2_ADDR,
				       FIELD_GET(ISIM_QP_W1_TERMLEN, wqe[1]));
}

/**
 * isim_op_modify_qp - MODIFY_QP
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The context is copied again and the requested state recorded. The type
 * cannot change. An iWARP QP moving to RTS with TOECTXVALID hands its TCP
 * connection to the engine (toe.c); a context the engine refuses fails
 * the command and leaves the QP as it was. On an offloaded QP, CLOSING
 * starts a graceful close, TERMINATE sends the driver's TERMINATE message
 * and our FIN as TERMACT asks, and RESETCON resets the connection (toe.c).
 */
void isim_op_modify_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	struct isim_qp *qp = isim_qp_of(f, wqe, res);
	u64 hdr = wqe[ISIM_WQE_HDR];
	u64 ctx[ISIM_QP_CTX_WORDS];
	struct isim_toe toe;
	bool conn;
	u8 old;

	if (!qp)
		return;
	if (FIELD_GET(ISIM_QP_HDR_TYPE, hdr) != qp->type) {
		res->minor = ISIM_MIN_BAD_FIELD;
		return;
	}
	res->minor = isim_qp_load_ctx(f, qp->id, wqe[2], ctx);
	conn = isim_toe_wanted(qp, hdr);
	if (!res->minor && conn)
		res->minor = isim_toe_check(f, qp, ctx, &toe);
	if (!res->minor &&
	    FIELD_GET(ISIM_QP_HDR_NEXT_STATE, hdr) == ISIM_QPS_TERMINATE)
		res->minor = isim_qp_term_check(f, qp, wqe, ctx);
	if (res->minor)
		return;
	old = qp->state;
	qp->state = FIELD_GET(ISIM_QP_HDR_NEXT_STATE, hdr);
	qp->ctx_pa = wqe[2];
	qp->modifies++;
	isim_exec_load_ctx(qp, ctx, hdr & ISIM_QP_HDR_VIRT);
	isim_exec_new_state(f, qp, old);
	isim_roce_modify(f, qp, ctx, old);
	if (!conn)
		isim_toe_modify(f, qp, hdr);
	isim_toe_new_state(f, qp, conn ? &toe : NULL);
}

/**
 * isim_op_destroy_qp - DESTROY_QP
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 */
void isim_op_destroy_qp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	struct isim_qp *qp = isim_qp_of(f, wqe, res);

	if (!qp)
		return;
	isim_toe_unlink(f, qp);
	isim_qp_del(f, qp);
	kfree(qp);
}

static u16 isim_qp_flush_minor(u64 hdr, u64 codes, bool sq)
{
	u16 minor = FIELD_GET(sq ? ISIM_FL_W2_SQ_MINOR : ISIM_FL_W2_RQ_MINOR,
			      codes);

	return hdr & ISIM_FL_HDR_USER_CODE && minor ? minor : ISIM_WC_FLUSHED;
}

/**
 * isim_op_flush_wqes - FLUSH_WQES, which also generates AEs on request
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The QP moves to the error state; every WQE of a flushed queue that was
 * posted and not executed is completed with a flush error, and so is every
 * WQE posted to that queue later, until the QP is reset (exec.c). The
 * minor code of those CQEs is the driver's (USER_CODE) or "flushed". A
 * requested AE is posted with the code and source from the WQE.
 */
void isim_op_flush_wqes(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	struct isim_qp *qp = isim_qp_of(f, wqe, res);
	u64 hdr = wqe[ISIM_WQE_HDR];

	if (!qp)
		return;
	if (hdr & (ISIM_FL_HDR_SQ | ISIM_FL_HDR_RQ)) {
		qp->state = ISIM_QPS_ERROR;
		isim_toe_new_state(f, qp, NULL);
	}
	if (hdr & ISIM_FL_HDR_SQ)
		isim_exec_flush(f, qp, &qp->sq,
				isim_qp_flush_minor(hdr, wqe[2], true));
	if (hdr & ISIM_FL_HDR_RQ)
		isim_exec_flush(f, qp, &qp->rq,
				isim_qp_flush_minor(hdr, wqe[2], false));
	if (hdr & ISIM_FL_HDR_GEN_AE)
		isim_qp_ae(f, qp, FIELD_GET(ISIM_FL_W1_AE_CODE, wqe[1]),
			   FIELD_GET(ISIM_FL_W1_AE_SRC, wqe[1]), 0, 0);
}

/**
 * isim_op_suspend_qp - SUSPEND_QP
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * As on the adapter, the end of the suspension is reported by an AE.
 */
void isim_op_suspend_qp(struct isim_func *f, const u64 *wqe,
			struct isim_res *res)
{
	struct isim_qp *qp = isim_qp_of(f, wqe, res);

	if (!qp)
		return;
	qp->suspended = true;
	isim_qp_ae(f, qp, ISIM_AE_QP_SUSPENDED, ISIM_AE_SRC_NONE, 0, 0);
}

/**
 * isim_op_resume_qp - RESUME_QP
 * @f: function
 * @wqe: CQP WQE in CPU order
 * @res: completion status
 *
 * The QP goes on through the leaf word 2 names, its new QS handle; a
 * handle the scheduler does not serve is taken, and the QP stays held
 * (isim_sched_tc()).
 */
void isim_op_resume_qp(struct isim_func *f, const u64 *wqe,
		       struct isim_res *res)
{
	struct isim_qp *qp = isim_qp_of(f, wqe, res);

	if (!qp)
		return;
	if (!qp->suspended) {
		res->minor = ISIM_MIN_BAD_FIELD;
		return;
	}
	qp->qs_handle = FIELD_GET(ISIM_RESUME_W2_QSET, wqe[2]);
	qp->suspended = false;
	/* the raw queues' SQs run on passes that look at every QP */
	f->rescan = true;
}
