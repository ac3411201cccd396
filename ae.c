// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: asynchronous events of the engine.
 *
 * The engine posts an AE when something happens to a QP or a CQ outside
 * the completion of a work request, or to the whole function. What each
 * code means for the consumer is decided here: an IB event on the QP or
 * the CQ; nothing but a log line; an event the iWARP connection manager
 * takes (the TCP and MPA level of a connection: the cause of its end,
 * given to the CM node the QP is linked to); or, for a catastrophe of
 * the function, the same path as a critical error reported by the parent:
 * IB_EVENT_DEVICE_FATAL and a function reset.
 */
#include <linux/spinlock.h>

#include "main.h"
#include "qp.h"

/* What an AE asks of the driver. */
enum irdma_ae_action {
	IRDMA_AE_ACT_LOG,
	IRDMA_AE_ACT_CM,
	IRDMA_AE_ACT_QP,
	IRDMA_AE_ACT_CQ,
	IRDMA_AE_ACT_FATAL,
};

/* Events of the TCP connection under an iWARP QP, and of its closing. */
static bool irdma_ae_is_llp(u16 code)
{
	switch (code) {
	case IRDMA_AE_BAD_CLOSE:
	case IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE:
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
	case IRDMA_AE_LLP_CONNECTION_RESET:
	case IRDMA_AE_LLP_FIN_RECEIVED:
	case IRDMA_AE_LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH:
	case IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR:
	case IRDMA_AE_LLP_SEGMENT_TOO_SMALL:
	case IRDMA_AE_LLP_SYN_RECEIVED:
	case IRDMA_AE_LLP_TERMINATE_RECEIVED:
	case IRDMA_AE_LLP_TOO_MANY_RETRIES:
	case IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES:
	case IRDMA_AE_LLP_DOUBT_REACHABILITY:
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
	case IRDMA_AE_LLP_TOO_MANY_RNRS:
	case IRDMA_AE_RESET_SENT:
	case IRDMA_AE_TERMINATE_SENT:
	case IRDMA_AE_RESET_NOT_SENT:
		return true;
	default:
		return false;
	}
}

/* The IB event a QP's consumer gets for an AE about that QP. */
static enum ib_event_type irdma_ae_qp_event(u16 code)
{
	if (code >= IRDMA_AE_AMP_UNALLOCATED_STAG &&
	    code <= IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH)
		return IB_EVENT_QP_ACCESS_ERR;
	switch (code) {
	case IRDMA_AE_STAG_ZERO_INVALID:
	case IRDMA_AE_IB_REMOTE_ACCESS_ERROR:
		return IB_EVENT_QP_ACCESS_ERR;
	case IRDMA_AE_IB_INVALID_REQUEST:
	case IRDMA_AE_INVALID_REQUEST:
	case IRDMA_AE_ROE_INVALID_RDMA_READ_REQUEST:
	case IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO:
	case IRDMA_AE_IB_RREQ_AND_Q1_FULL:
		return IB_EVENT_QP_REQ_ERR;
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
		return IB_EVENT_COMM_EST;
	default:
		return IB_EVENT_QP_FATAL;
	}
}

/**
 * irdma_ae_action - what an AE asks of the driver
 * @ae: the decoded event
 * @iwarp: the function runs iWARP
 *
 * Return: an enum irdma_ae_action.
 */
static enum irdma_ae_action irdma_ae_action(const struct irdma_aeqe_info *ae,
					    bool iwarp)
{
	if (ae->code == IRDMA_AE_LCE_FUNCTION_CATASTROPHIC)
		return IRDMA_AE_ACT_FATAL;
	if (ae->is_cq)
		return IRDMA_AE_ACT_CQ;
	if (!ae->is_qp || ae->code == IRDMA_AE_QP_SUSPEND_COMPLETE)
		return IRDMA_AE_ACT_LOG;
	if (iwarp && irdma_ae_is_llp(ae->code))
		return IRDMA_AE_ACT_CM;
	return IRDMA_AE_ACT_QP;
}

/*
 * The QP is held while its consumer's handler runs, so a destroy waits
 * for it; QP event handlers may be called from any context on every RDMA
 * device, so calling one from the AEQ thread is fine.
 */
static void irdma_ae_to_qp(struct irdma_hw *hw, u32 id,
			   enum ib_event_type type)
{
	struct ib_event ev = { .event = type };
	struct irdma_qp *qp;

	qp = irdma_qp_get(hw, id);
	if (!qp) {
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "AE for QP %u, which does not exist\n", id);
		return;
	}
	if (qp->ibqp.event_handler) {
		ev.device = qp->ibqp.device;
		ev.element.qp = &qp->ibqp;
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	irdma_qp_put(qp);
}

/* No cause: the AE changes nothing for the connection */
#define IRDMA_AE_NO_DISC	-1

/* What an LLP AE means for the connection the CM runs on the QP */
static int irdma_ae_disc_cause(u16 code)
{
	switch (code) {
	case IRDMA_AE_LLP_FIN_RECEIVED:
		return IRDMA_CM_DISC_PEER_FIN;
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
		return IRDMA_CM_DISC_CLOSED;
	case IRDMA_AE_LLP_CONNECTION_RESET:
		return IRDMA_CM_DISC_PEER_RST;
	case IRDMA_AE_LLP_TOO_MANY_RETRIES:
	case IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES:
		return IRDMA_CM_DISC_TIMEOUT;
	/* the CM reports the connection up itself, after the move to RTS */
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
	case IRDMA_AE_LLP_SYN_RECEIVED:
	case IRDMA_AE_LLP_DOUBT_REACHABILITY:
	case IRDMA_AE_RESET_NOT_SENT:
		return IRDMA_AE_NO_DISC;
	default:
		/* bad closes, terminates, MPA framing errors, our own RST */
		return IRDMA_CM_DISC_LOCAL_ERR;
	}
}

/*
 * An LLP AE of an iWARP QP goes to the CM node linked to it (qp_link in
 * cm_hw.c); the QP is held, and the node stays linked, while it is told.
 */
static void irdma_ae_to_cm(struct irdma_hw *hw,
			   const struct irdma_aeqe_info *ae)
{
	int cause = irdma_ae_disc_cause(ae->code);
	struct irdma_qp *qp;
	unsigned long flags;
	bool told = false;

	if (cause == IRDMA_AE_NO_DISC)
		return;
	qp = irdma_qp_get(hw, ae->id);
	if (qp) {
		/* the engine's TCP is over: nothing left to reset */
		if (cause == IRDMA_CM_DISC_CLOSED ||
		    cause == IRDMA_CM_DISC_PEER_RST ||
		    cause == IRDMA_CM_DISC_TIMEOUT)
			WRITE_ONCE(qp->llp_closed, true);
		spin_lock_irqsave(&qp->cm_lock, flags);
		if (qp->cm_node) {
			irdma_cm_disconn(qp->cm_node, cause);
			told = true;
		}
		spin_unlock_irqrestore(&qp->cm_lock, flags);
		irdma_qp_put(qp);
	}
	if (!told)
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "AE 0x%03x of QP %u, which has no connection\n",
				    ae->code, ae->id);
}

/**
 * irdma_ae_dispatch - act on one asynchronous event of the engine
 * @hw: the engine that posted it
 * @ae: the decoded event
 *
 * Context: the AEQ's interrupt thread (process context).
 */
void irdma_ae_dispatch(struct irdma_hw *hw, const struct irdma_aeqe_info *ae)
{
	bool iwarp = hw->fn->protocol == IRDMA_PROTOCOL_IWARP;
	char why[48];

	switch (irdma_ae_action(ae, iwarp)) {
	case IRDMA_AE_ACT_FATAL:
		snprintf(why, sizeof(why), "AE 0x%03x, function catastrophic",
			 ae->code);
		irdma_func_fatal(hw->fn, why);
		break;
	case IRDMA_AE_ACT_CQ:
		irdma_cq_async_event(hw, ae->id);
		break;
	case IRDMA_AE_ACT_QP:
		irdma_ae_to_qp(hw, ae->id, irdma_ae_qp_event(ae->code));
		break;
	case IRDMA_AE_ACT_CM:
		irdma_ae_to_cm(hw, ae);
		break;
	case IRDMA_AE_ACT_LOG:
		break;
	}
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ae_test.c"
#endif
