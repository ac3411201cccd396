// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma: asynchronous events of the engine.
 *
 * The engine posts an AE when something happens to a QP or a CQ outside
 * the completion of a work request, or to the whole function. What each
 * code means for the consumer is decided here: an IB event on the QP or
 * the CQ; nothing but a log line; an event the iWARP connection manager
 * takes (the TCP and MPA level of a connection); or, for a catastrophe of
 * the function, the same path as a critical error reported by the parent:
 * IB_EVENT_DEVICE_FATAL and a function reset.
 */
#include <linux/rcupdate.h>
#include <linux/xarray.h>

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
 * A QP found under RCU cannot be freed before the read side ends (destroy
 * erases it and waits for a grace period); consumers' QP event handlers
 * run in atomic context on every RDMA device, so calling one here is fine.
 */
static void irdma_ae_to_qp(struct irdma_hw *hw, u32 id,
			   enum ib_event_type type)
{
	struct ib_event ev = { .event = type };
	struct irdma_qp *qp;

	rcu_read_lock();
	qp = xa_load(&hw->qps, id);
	if (qp && qp->ibqp.event_handler) {
		ev.device = qp->ibqp.device;
		ev.element.qp = &qp->ibqp;
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	rcu_read_unlock();
	if (!qp)
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "AE for QP %u, which does not exist\n", id);
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
		/* the connection manager is not attached to the device yet */
		dev_dbg_ratelimited(&hw->fn->adev->dev,
				    "AE 0x%03x of QP %u left to the connection manager\n",
				    ae->code, ae->id);
		break;
	case IRDMA_AE_ACT_LOG:
		break;
	}
}

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST)
#include "kunit/ae_test.c"
#endif
