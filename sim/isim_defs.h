/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: the simulator's own view of the gen2 (E810) and gen1 (X722)
 * RDMA engines' hardware interface.
 *
 * These definitions are written independently of the driver's headers on
 * purpose: if the driver and the simulator shared one header, a wrong bit
 * position would be wrong on both sides and every test would still pass.
 * Values come from the public datasheet facts (register map, CQP command
 * formats); the grouping and the names are the simulator's.
 */
#ifndef _ISIM_DEFS_H_
#define _ISIM_DEFS_H_

#include <linux/bits.h>
#include <linux/sizes.h>

/* ---- gen2 PF register map (byte offsets into the 8 MiB BAR) ---- */
#define ISIM_BAR_LEN			SZ_8M
#define ISIM_REG_LBARCTRL		0x0009de74
#define ISIM_REG_RATE(v)		(0x0015a000 + 4 * (v))
#define ISIM_REG_CEQCTL(q)		(0x0015c000 + 4 * (q))
#define ISIM_REG_DYN_CTL(v)		(0x00160000 + 4 * (v))
#define ISIM_REG_AEQCTL			0x0016cb00
#define ISIM_REG_PE_CTL1(vsi)		(0x00414000 + 4 * (vsi))
#define ISIM_REG_CQPDB			0x00500800
#define ISIM_REG_CQPTAIL		0x00500880
#define ISIM_REG_CQARM			0x00502c00
#define ISIM_REG_CQACK			0x00502c80
#define ISIM_REG_AEQALLOC		0x00502d00
#define ISIM_REG_WQEALLOC		0x00504400
#define ISIM_REG_CCQPSTATUS		0x0050a000
#define ISIM_REG_CCQPLOW		0x0050a080
#define ISIM_REG_CCQPHIGH		0x0050a100
#define ISIM_REG_CQPERRCODES		0x0050a200
#define ISIM_REG_CPUSTATUS(n)		(0x0050ba5c + 4 * (n))
#define ISIM_REG_PDINV			0x00520300
#define ISIM_REG_CRITERR		0x00534000
/* user doorbell pages start 64 KiB below the end of the BAR */
#define ISIM_DB_PAGES_OFF		(ISIM_BAR_LEN - SZ_64K)
/*
 * what libirdma rings in the page it maps: the SQ doorbell at offset 0, the
 * CQ arm doorbell at offset 64 (aliases of WQEALLOC and CQARM)
 */
#define ISIM_UDB_WQEALLOC_OFF		0
#define ISIM_UDB_CQARM_OFF		64
#define ISIM_REG_UDB_WQEALLOC		(ISIM_DB_PAGES_OFF + ISIM_UDB_WQEALLOC_OFF)
#define ISIM_REG_UDB_CQARM		(ISIM_DB_PAGES_OFF + ISIM_UDB_CQARM_OFF)

/*
 * gen1 (X722) PF register map: a 4 MiB BAR. PFINT_DYN_CTLN(n) is engine
 * vector n + 1 (vector 0 is i40e's); PFINT_LNKLSTN(n) links vector n + 1
 * to its first cause, a CEQ (FIRSTQ_INDX 10:0, FIRSTQ_TYPE 12:11 = 2).
 */
#define ISIM_G1_BAR_LEN			SZ_4M
#define ISIM_REG_G1_CQPDB		0x00008000
#define ISIM_REG_G1_CQPTAIL		0x00008080
#define ISIM_REG_G1_CCQPSTATUS		0x00008100
#define ISIM_REG_G1_CCQPLOW		0x00008180
#define ISIM_REG_G1_CCQPHIGH		0x00008200
#define ISIM_REG_G1_CQPERRCODES		0x00008880
#define ISIM_REG_G1_CPUSTATUS(n)	(0x0000d040 + 4 * (n))
#define ISIM_REG_G1_DYN_CTLN(n)		(0x00034800 + 4 * (n))
#define ISIM_REG_G1_LNKLSTN(n)		(0x00035000 + 4 * (n))
#define ISIM_REG_G1_CEQCTL(q)		(0x00036800 + 4 * (q))
#define ISIM_REG_G1_AEQCTL		0x00038700
#define ISIM_REG_G1_CRITERR		0x000b4000
#define ISIM_REG_G1_LBARCTRL		0x000be484
#define ISIM_REG_G1_PDINV		0x000c0300
#define ISIM_REG_G1_CQARM		0x00131080
#define ISIM_REG_G1_CQACK		0x00131100
#define ISIM_REG_G1_AEQALLOC		0x00131180
#define ISIM_REG_G1_WQEALLOC		0x00138c00
#define ISIM_G1_DB_PAGES_OFF		(ISIM_G1_BAR_LEN - SZ_64K)

/* register fields */
#define ISIM_LBARCTRL_DB_SIZE		GENMASK(5, 4)
#define ISIM_LBARCTRL_DB_SIZE_8M	2
#define ISIM_LBARCTRL_DB_SIZE_4M	1	/* the simulator's gen1 value */
#define ISIM_CPUSTATUS_READY		0x80
#define ISIM_CPUSTATUS_NUM		3

#define ISIM_CCQPSTATUS_DONE		BIT(0)
#define ISIM_CCQPSTATUS_ERR		BIT(31)
#define ISIM_CQPTAIL_TAIL		GENMASK(10, 0)
#define ISIM_CQPTAIL_OP_ERR		BIT(31)
#define ISIM_CQPERR_MINOR		GENMASK(15, 0)
#define ISIM_CQPERR_MAJOR		GENMASK(31, 16)

#define ISIM_DYN_CTL_INTENA		BIT(0)
#define ISIM_DYN_CTL_CLEARPBA		BIT(1)
#define ISIM_DYN_CTL_ITR_IDX		GENMASK(4, 3)
#define ISIM_DYN_CTL_INTERVAL		GENMASK(16, 5)
/* CEQCTL and AEQCTL share one layout */
#define ISIM_EQCTL_VECTOR		GENMASK(10, 0)
#define ISIM_EQCTL_ITR_IDX		GENMASK(12, 11)
#define ISIM_EQCTL_CAUSE_ENA		BIT(30)

/* a doorbell register the engine has consumed reads back as this */
#define ISIM_DB_IDLE			0xffffffffu
/* WQEALLOC carries the QP id (push mode adds a WQE index above it) */
#define ISIM_WQEALLOC_QPID		GENMASK(19, 0)

/* ---- CQP host context (64 bytes, address written to CCQPHIGH:LOW) ---- */
#define ISIM_CQPCTX_W0_PROTOCOL		GENMASK_ULL(4, 3)
#define ISIM_CQPCTX_PROTO_IWARP		1
#define ISIM_CQPCTX_PROTO_ROCE		2
#define ISIM_CQPCTX_W0_SQSIZE		GENMASK_ULL(11, 8)
#define ISIM_CQPCTX_W0_STRUCTVER	GENMASK_ULL(31, 24)
#define ISIM_CQPCTX_W0_CEQPERVF		GENMASK_ULL(39, 32)
/* word 1 is the SQ base, 512-byte aligned */
#define ISIM_CQPCTX_SQ_ALIGN		512
#define ISIM_CQPCTX_W2_HMC_PROFILE	GENMASK_ULL(2, 0)
#define ISIM_CQPCTX_W2_VFS		GENMASK_ULL(37, 32)
/* word 3 is an opaque cookie the engine returns in every CCQ completion */
#define ISIM_CQPCTX_W4_HW_MINOR		GENMASK_ULL(15, 0)
#define ISIM_CQPCTX_W4_HW_MAJOR		GENMASK_ULL(31, 16)
#define ISIM_CQP_HW_MAJOR_GEN1		0
#define ISIM_CQP_HW_MAJOR_GEN2		1
#define ISIM_CQP_SQSIZE_MIN_ENC		1	/* 4 entries */
#define ISIM_CQP_SQSIZE_MAX_ENC		10	/* 2048 entries */

/* ---- CQP WQE: 64 bytes, word 3 is the header ---- */
#define ISIM_CQP_WQE_BYTES		64
#define ISIM_CQP_WQE_WORDS		8
#define ISIM_WQE_HDR			3
#define ISIM_HDR_OPCODE			GENMASK_ULL(37, 32)
#define ISIM_HDR_VALID			BIT_ULL(63)
#define ISIM_HDR_BUFLEN			GENMASK_ULL(31, 0)

/* CQP opcodes */
enum isim_cqp_opcode {
	ISIM_OP_CREATE_QP		= 0x00,
	ISIM_OP_MODIFY_QP		= 0x01,
	ISIM_OP_DESTROY_QP		= 0x02,
	ISIM_OP_CREATE_CQ		= 0x03,
	ISIM_OP_MODIFY_CQ		= 0x04,
	ISIM_OP_DESTROY_CQ		= 0x05,
	ISIM_OP_ALLOC_STAG		= 0x09,
	ISIM_OP_REG_MR			= 0x0a,
	ISIM_OP_QUERY_STAG		= 0x0b,
	ISIM_OP_REG_SMR			= 0x0c,
	ISIM_OP_DEALLOC_STAG		= 0x0d,
	ISIM_OP_MANAGE_MAC		= 0x0e,
	ISIM_OP_MANAGE_ARP		= 0x0f,
	ISIM_OP_MANAGE_VF_PBLE		= 0x10,
	ISIM_OP_MANAGE_PUSH		= 0x11,
	ISIM_OP_QUERY_FEATURES		= 0x12,
	ISIM_OP_UPLOAD_CTX		= 0x13,
	ISIM_OP_ALLOC_MAC		= 0x14,
	ISIM_OP_MANAGE_PMFN		= 0x15,
	ISIM_OP_CREATE_CEQ		= 0x16,
	ISIM_OP_DESTROY_CEQ		= 0x18,
	ISIM_OP_CREATE_AEQ		= 0x19,
	ISIM_OP_DESTROY_AEQ		= 0x1b,
	ISIM_OP_CREATE_AH		= 0x1c,
	ISIM_OP_MODIFY_AH		= 0x1d,
	ISIM_OP_DESTROY_AH		= 0x1e,
	ISIM_OP_UPDATE_SDS		= 0x1f,
	ISIM_OP_QUERY_FPM		= 0x20,
	ISIM_OP_COMMIT_FPM		= 0x21,
	ISIM_OP_FLUSH_WQES		= 0x22,	/* also "generate AE" */
	ISIM_OP_MANAGE_APBVT		= 0x23,
	ISIM_OP_NOP			= 0x24,
	ISIM_OP_MANAGE_QHASH		= 0x25,
	ISIM_OP_CREATE_MCG		= 0x26,
	ISIM_OP_MODIFY_MCG		= 0x27,
	ISIM_OP_DESTROY_MCG		= 0x28,
	ISIM_OP_SUSPEND_QP		= 0x29,
	ISIM_OP_RESUME_QP		= 0x2a,
	ISIM_OP_SHMC_PAGES		= 0x2b,
	ISIM_OP_WS_NODE			= 0x2c,
	ISIM_OP_MANAGE_STATS		= 0x2d,
	ISIM_OP_GATHER_STATS		= 0x2e,
	ISIM_OP_UP_MAP			= 0x2f,
	ISIM_OP_NUM			= 0x40,
};

/* ---- completion queue element (32 bytes; 64 with the big-CQE bit) ---- */
/* word 1: CQP cookie (CCQ) or WQE context; word 2: op return value */
#define ISIM_CQE_W3_MINOR		GENMASK_ULL(15, 0)
#define ISIM_CQE_W3_MAJOR		GENMASK_ULL(31, 16)
#define ISIM_CQE_W3_WQEIDX		GENMASK_ULL(46, 32)
#define ISIM_CQE_W3_ERROR		BIT_ULL(55)
#define ISIM_CQE_W3_VALID		BIT_ULL(63)

#define ISIM_CQE_W0_BYTES		GENMASK_ULL(31, 0)
#define ISIM_CQE_W2_QP			GENMASK_ULL(55, 32)
#define ISIM_CQE_W3_EXT			BIT_ULL(50)
#define ISIM_CQE_W3_SOLICITED		BIT_ULL(54)
#define ISIM_CQE_W3_OP			GENMASK_ULL(61, 56)
/* ISIM_CQE_W3_OP of a RoCEv2 RQ CQE: the BTH opcode of the message taken */
#define ISIM_BTH_SEND_ONLY		0x04
#define ISIM_BTH_SEND_ONLY_IMM		0x05
#define ISIM_BTH_WRITE_ONLY_IMM		0x0b
#define ISIM_BTH_SEND_ONLY_INV		0x17
#define ISIM_CQE_W3_SQ			BIT_ULL(62)
/* extension (bytes 32..63, the next slot of a 32-byte ring) */
#define ISIM_CQE_W4_IMM			GENMASK_ULL(31, 0)
#define ISIM_CQE_W7_IMM_VALID		BIT_ULL(62)
#define ISIM_CQE_BYTES			32
#define ISIM_CQE_BIG_BYTES		64
#define ISIM_CQE_WORDS			8

/*
 * ---- completion status: ISIM_CQE_W3_MAJOR/MINOR, and CQPERRCODES ----
 * A CCQ CQE reports a CQP op as ISIM_MAJ_OK or ISIM_MAJ_ERR with an
 * isim_minor; a data-path error is major "flushed" with an isim_wc_minor.
 * The CQP minor codes are the simulator's own (the hardware's are not
 * public); Documentation/sim.rst lists them.
 */
#define ISIM_MAJ_OK			0x0000
#define ISIM_CQE_MAJ_FLUSHED		0x0001
#define ISIM_MAJ_ERR			0xffff

enum isim_minor {
	ISIM_MIN_OK			= 0x0000,
	ISIM_MIN_BAD_OPCODE		= 0x0001,
	ISIM_MIN_BAD_ID			= 0x0002,
	ISIM_MIN_EXISTS			= 0x0003,
	ISIM_MIN_NO_OBJECT		= 0x0004,
	ISIM_MIN_BAD_SIZE		= 0x0005,
	ISIM_MIN_BAD_ALIGN		= 0x0006,
	ISIM_MIN_DMA_FAULT		= 0x0007,
	ISIM_MIN_NOT_READY		= 0x0008,
	ISIM_MIN_BUSY			= 0x0009,
	ISIM_MIN_BAD_FIELD		= 0x000a,
	ISIM_MIN_HMC_UNBACKED		= 0x000b,
	ISIM_MIN_UNSUPPORTED		= 0x000c,
	ISIM_MIN_INJECTED		= 0x8001,
};

/* data-path errors */
enum isim_wc_minor {
	ISIM_WC_FLUSHED			= 1,
	ISIM_WC_LOC_PROT		= 2,
	ISIM_WC_REM_ACCESS		= 3,
	ISIM_WC_LOC_QP_OP		= 4,
	ISIM_WC_REM_OP			= 5,
	ISIM_WC_LOC_LEN			= 6,
	ISIM_WC_RETRY_EXC		= 8,
	ISIM_WC_REM_INV_REQ		= 10,
};

/* CQ shadow area: word 0 is the consumer index, word 4 the arm request */
#define ISIM_CQSA_CONSUMER		GENMASK_ULL(19, 0)
#define ISIM_CQSA_ARM_WORD		4
#define ISIM_CQSA_ARM_NEXT		BIT_ULL(14)
#define ISIM_CQSA_ARM_NEXT_SE		BIT_ULL(15)
#define ISIM_CQSA_ARM_SEQ		GENMASK_ULL(17, 16)
/*
 * QP shadow area, word 0: the SQ tail the engine has reached, which a
 * driver reads after posting to skip the doorbell while the engine is
 * still behind its earlier WQEs
 */
#define ISIM_QPSA_SQ_TAIL		GENMASK_ULL(14, 0)
/* word 4: how many resizes the driver has finished with (ring switches) */
#define ISIM_CQSA_RESIZED		GENMASK_ULL(13, 0)

/* ---- CQ create / destroy ---- */
#define ISIM_CQ_W0_SIZE			GENMASK_ULL(20, 0)
/* word 1: CQ context (written to CEQEs), word 4: ring PA, word 5: shadow */
#define ISIM_CQ_W6_FIRST_PBLE		GENMASK_ULL(27, 0)
#define ISIM_CQ_HDR_ID			GENMASK_ULL(18, 0)
#define ISIM_CQ_HDR_CEQ			GENMASK_ULL(31, 22)
#define ISIM_CQ_HDR_G1_ID		GENMASK_ULL(15, 0)
#define ISIM_CQ_HDR_G1_CEQ		GENMASK_ULL(30, 24)
#define ISIM_CQ_HDR_RESIZE		BIT_ULL(43)
#define ISIM_CQ_HDR_PBL_LEVELS		GENMASK_ULL(45, 44)
#define ISIM_CQ_HDR_CHK_OVERFLOW	BIT_ULL(46)
#define ISIM_CQ_HDR_VIRT		BIT_ULL(47)
#define ISIM_CQ_HDR_CEQE_ENA		BIT_ULL(48)
#define ISIM_CQ_HDR_CEQ_VALID		BIT_ULL(49)
#define ISIM_CQ_HDR_BIG_CQE		BIT_ULL(61)
#define ISIM_CQ_MIN_SIZE		4
#define ISIM_CQ_MAX_SIZE		ISIM_CQ_W0_SIZE	/* the field's maximum */

/* ---- CEQ / AEQ create / destroy ---- */
#define ISIM_CEQ_W2_SIZE		GENMASK_ULL(21, 0)
#define ISIM_AEQ_W2_SIZE		GENMASK_ULL(18, 0)
/* word 4: ring PA, word 6: first PBLE index */
#define ISIM_EQ_W6_FIRST_PBLE		GENMASK_ULL(27, 0)
#define ISIM_CEQ_HDR_ID			GENMASK_ULL(9, 0)
#define ISIM_EQ_HDR_PBL_LEVELS		GENMASK_ULL(45, 44)
#define ISIM_EQ_HDR_VIRT		BIT_ULL(47)
#define ISIM_EQ_MIN_SIZE		8

/* CEQ element: 8 bytes */
#define ISIM_CEQE_BYTES			8
#define ISIM_CEQE_CTX			GENMASK_ULL(62, 0)
#define ISIM_CEQE_VALID			BIT_ULL(63)

/* AEQ element: 16 bytes, word 0 the object context, word 1 as below */
#define ISIM_AEQE_BYTES			16
#define ISIM_AEQE_ID_LO			GENMASK_ULL(17, 0)
#define ISIM_AEQE_WQIDX			GENMASK_ULL(32, 18)
#define ISIM_AEQE_OVERFLOW		BIT_ULL(33)
#define ISIM_AEQE_CODE			GENMASK_ULL(45, 34)
#define ISIM_AEQE_ID_HI			BIT_ULL(46)
#define ISIM_AEQE_SOURCE		GENMASK_ULL(53, 50)
#define ISIM_AEQE_IWSTATE		GENMASK_ULL(56, 54)
#define ISIM_AEQE_TCPSTATE		GENMASK_ULL(60, 57)
#define ISIM_AEQE_Q2DATA		GENMASK_ULL(62, 61)
#define ISIM_AEQE_VALID			BIT_ULL(63)
#define ISIM_AEQE_ID_LO_BITS		18
/* Q2DATA: the received frame the AE is about is in the QP's Q2 buffer */
#define ISIM_AEQ_Q2_FRAME		1

/*
 * ---- Q2, the QP's 256-byte buffer (context word 18) ----
 * The driver writes a TERMINATE message at offset 0 before a MODIFY_QP
 * to TERMINATE that sends one; the engine writes a received frame an AE
 * is about (its Ethernet, IP and TCP headers, then the FPDU at fault)
 * from ISIM_Q2_FRAME_OFF, cut at the end of the buffer.
 */
#define ISIM_Q2_BYTES			256
#define ISIM_Q2_FRAME_OFF		72
/*
 * An offloaded QP's partial FPDU (an IEQ episode): the engine writes the
 * sequence number where it starts (the FPSN), little endian, here
 */
#define ISIM_Q2_FPSN_OFF		64
/* MPA framing (RFC 5044, 4): ULPDU_Length in front of each FPDU, its CRC */
#define ISIM_MPA_LEN_BYTES		2
#define ISIM_MPA_CRC_BYTES		4
/* TERMINATE control (RFC 5040, 4.8): byte 2 says what follows it */
#define ISIM_TERM_CTRL_BYTES		4
#define ISIM_TERM_HDRCT_M		0x80	/* DDP segment length */
#define ISIM_TERM_HDRCT_D		0x40	/* the DDP header */
#define ISIM_TERM_HDRCT_R		0x20	/* the RDMAP header */

/* AE sources and the codes the simulator raises by itself */
#define ISIM_AE_SRC_NONE		0x0
#define ISIM_AE_SRC_RQ			0x1
#define ISIM_AE_SRC_CQ			0x2
#define ISIM_AE_SRC_SQ			0x5
#define ISIM_AE_CQ_OPERATION_ERROR	0x0203
#define ISIM_AE_QP_CATASTROPHIC		0x0700
/* the engine stops after posting this one */
#define ISIM_AE_FUNC_CATASTROPHIC	0x0701
#define ISIM_AE_BAD_STAG		0x0103
#define ISIM_AE_BOUNDS			0x0108
#define ISIM_AE_RNR_EXCEEDED		0x050f
#define ISIM_AE_MSG_TOO_LONG		0x0303
#define ISIM_AE_LLP_CLOSE_COMPLETE	0x0501
#define ISIM_AE_LLP_CONN_RESET		0x0502
#define ISIM_AE_LLP_FIN_RECEIVED	0x0503
#define ISIM_AE_LLP_ESTABLISHED		0x050e
/* iWARP receive errors (exec.c) */
#define ISIM_AE_DDP_MSN_GAP		0x0301
#define ISIM_AE_DDP_BAD_VERSION		0x0304
#define ISIM_AE_DDP_NO_BUFFER		0x0306
#define ISIM_AE_DDP_BAD_QN		0x0307
#define ISIM_AE_RDMAP_BAD_VERSION	0x0311
#define ISIM_AE_RDMAP_BAD_OPCODE	0x0312
#define ISIM_AE_RDMAP_BAD_READ_REQ	0x0313
#define ISIM_AE_RDMAP_BAD_READ_RESP	0x0314
#define ISIM_AE_LLP_LENGTH_MISMATCH	0x0504
#define ISIM_AE_LLP_MPA_CRC		0x0505
#define ISIM_AE_LLP_TOO_MANY_RETRIES	0x050a
#define ISIM_AE_LLP_TERMINATE_RECEIVED	0x0509
#define ISIM_AE_RESOURCE_EXHAUSTION	0x0520
#define ISIM_AE_TERMINATE_SENT		0x0602
/* RoCEv2 RC (roce.c): a NAK the requester received, a bad response */
#define ISIM_AE_IB_INVALID_REQUEST	0x0208
#define ISIM_AE_IB_REMOTE_ACCESS	0x020d
#define ISIM_AE_IB_REMOTE_OP		0x020e
#define ISIM_AE_ROCE_RSP_LENGTH		0x0316
#define ISIM_AE_CODE_MAX		0xfff

/* ---- HMC: FPM query / commit buffers, one 64-bit slot per object ---- */
enum isim_hmc_obj {
	ISIM_HMC_QP, ISIM_HMC_CQ, ISIM_HMC_RSVD, ISIM_HMC_HTE, ISIM_HMC_ARP,
	ISIM_HMC_APBVT, ISIM_HMC_MR, ISIM_HMC_XF, ISIM_HMC_XFFL, ISIM_HMC_Q1,
	ISIM_HMC_Q1FL, ISIM_HMC_TIMER, ISIM_HMC_FSIMC, ISIM_HMC_FSIAV,
	ISIM_HMC_PBLE, ISIM_HMC_RSVD2, ISIM_HMC_RRF, ISIM_HMC_RRFFL,
	ISIM_HMC_HDR, ISIM_HMC_MD, ISIM_HMC_OOISC, ISIM_HMC_OOISCFFL,
	ISIM_HMC_NUM
};

#define ISIM_FPM_BUF_BYTES		176
/* query buffer: slot 0 carries the SD window, slot 15 the CEQ limits */
#define ISIM_FPMQ_FIRST_SD		GENMASK_ULL(13, 0)
#define ISIM_FPMQ_MAX_SDS		GENMASK_ULL(45, 32)
#define ISIM_FPMQ_COUNT			GENMASK_ULL(31, 0)
#define ISIM_FPMQ_SIZE_LOG		GENMASK_ULL(63, 32)
#define ISIM_FPMQ_BLOCK			GENMASK_ULL(63, 32)
#define ISIM_FPMQ_MAX_CEQS		GENMASK_ULL(9, 0)
#define ISIM_FPMQ_HT_MULT		GENMASK_ULL(19, 16)
#define ISIM_FPMQ_TIMER_BUCKET		GENMASK_ULL(47, 32)
/* query: QP/CQ limits live one slot later than their commit slot */
#define ISIM_FPMQ_SLOT_MISC		15
/* commit buffer: count in the low bits, base in 512-byte units above */
#define ISIM_FPMC_QP_COUNT		GENMASK_ULL(18, 0)
#define ISIM_FPMC_CQ_COUNT		GENMASK_ULL(19, 0)
#define ISIM_FPMC_G1_CQ_COUNT		GENMASK_ULL(17, 0)
#define ISIM_FPMC_COUNT			GENMASK_ULL(31, 0)
#define ISIM_FPMC_BASE			GENMASK_ULL(63, 32)
#define ISIM_FPMC_BASE_UNIT		512
/* word 2 of both WQEs: the HMC function id; word 4: buffer PA */
#define ISIM_FPM_W2_FN			GENMASK_ULL(5, 0)

/* ---- segment descriptors ---- */
#define ISIM_SD_BYTES			SZ_2M
#define ISIM_PD_BYTES			SZ_4K
#define ISIM_PD_ENTRIES			512
#define ISIM_PDE_VALID			BIT_ULL(0)
#define ISIM_PDE_ADDR			GENMASK_ULL(63, 12)
#define ISIM_SDCMD_INDEX		GENMASK_ULL(11, 0)
#define ISIM_SDCMD_PARTSEL		BIT_ULL(15)
#define ISIM_SDCMD_WRITE		BIT_ULL(31)
#define ISIM_SDCMD_ENTRY_VALID		BIT_ULL(63)
#define ISIM_SDDATA_VALID		BIT_ULL(0)
#define ISIM_SDDATA_DIRECT		BIT_ULL(1)
#define ISIM_SDDATA_BPCOUNT		GENMASK_ULL(11, 2)
#define ISIM_SDDATA_ADDR		GENMASK_ULL(63, 12)
/* UPDATE_SDS: three entries inline, more in a buffer at word 2 */
#define ISIM_SDS_W2_FN			GENMASK_ULL(5, 0)
#define ISIM_SDS_W2_BUF			GENMASK_ULL(63, 7)
#define ISIM_SDS_HDR_MEM_ENTRIES	GENMASK_ULL(3, 0)
#define ISIM_SDS_INLINE			3
#define ISIM_SDS_ENTRY_BYTES		16

/* ---- MANAGE_HMC_PM_FUNC_TABLE ---- */
#define ISIM_PMFN_HDR_VF		GENMASK_ULL(15, 0)
/* SHMC_PAGES_ALLOCATED: word 2, the HMC function whose pages are there */
#define ISIM_SHMC_W2_FN			GENMASK_ULL(5, 0)
#define ISIM_PMFN_HDR_FREE		BIT_ULL(62)

/* ---- QUERY_RDMA_FEATURES: one 64-bit record per feature ---- */
#define ISIM_FEAT_TYPE			GENMASK_ULL(63, 48)
#define ISIM_FEAT_COUNT			GENMASK_ULL(47, 32)
#define ISIM_FEAT_INFO			GENMASK_ULL(47, 0)
#define ISIM_FEAT_FW_MINOR		GENMASK_ULL(15, 0)
#define ISIM_FEAT_FW_MAJOR		GENMASK_ULL(31, 16)
#define ISIM_FEAT_FW_INFO		0
#define ISIM_FEAT_HW_VERSION		1
#define ISIM_FEAT_QSETS_MAX		26
#define ISIM_HW_REV_GEN2		2

/* ---- QP create / modify / destroy ---- */
/* word 2: QP host context PA; word 5: QP shadow area PA */
#define ISIM_QP_HDR_ID			GENMASK_ULL(23, 0)
#define ISIM_QP_HDR_ORD_VALID		BIT_ULL(42)
#define ISIM_QP_HDR_TCPCTX_VALID	BIT_ULL(43)
#define ISIM_QP_HDR_CACHED_VALID	BIT_ULL(44)
#define ISIM_QP_HDR_VIRT		BIT_ULL(45)
#define ISIM_QP_HDR_LOOPBACK		BIT_ULL(46)
#define ISIM_QP_HDR_CQ_VALID		BIT_ULL(47)
#define ISIM_QP_HDR_TYPE		GENMASK_ULL(50, 48)
#define ISIM_QP_HDR_MAC_VALID		BIT_ULL(51)
#define ISIM_QP_HDR_MSS_CHANGE		BIT_ULL(52)
#define ISIM_QP_HDR_IGNORE_MW		BIT_ULL(54)
#define ISIM_QP_HDR_DEL_HASH		BIT_ULL(55)
#define ISIM_QP_HDR_TERM_ACT		GENMASK_ULL(57, 56)	/* TERMINATE */
#define ISIM_TERMACT_TERM_AND_FIN	0
#define ISIM_TERMACT_TERM		1
#define ISIM_TERMACT_FIN		2
#define ISIM_QP_W1_TERMLEN		GENMASK_ULL(51, 48)	/* 4-byte words */
#define ISIM_QP_HDR_RESET_CONN		BIT_ULL(58)
#define ISIM_QP_HDR_ARP_VALID		BIT_ULL(59)
#define ISIM_QP_HDR_NEXT_STATE		GENMASK_ULL(62, 60)
#define ISIM_QP_HOST_CTX_BYTES		256
#define ISIM_QP_TYPE_IWARP		1
#define ISIM_QP_TYPE_UDA		2
#define ISIM_QP_TYPE_ROCE_RC		3
#define ISIM_QP_TYPE_ROCE_UD		4
#define ISIM_QPS_INVALID		0
#define ISIM_QPS_IDLE			1
#define ISIM_QPS_RTS			2
#define ISIM_QPS_CLOSING		3
#define ISIM_QPS_RTR			4
#define ISIM_QPS_TERMINATE		5
#define ISIM_QPS_ERROR			6

/* FLUSH_WQES / generate AE (one opcode), SUSPEND_QP, RESUME_QP */
#define ISIM_FL_W1_AE_CODE		GENMASK_ULL(15, 0)
#define ISIM_FL_W1_AE_SRC		GENMASK_ULL(19, 16)
#define ISIM_FL_HDR_GEN_AE		BIT_ULL(59)
#define ISIM_FL_HDR_USER_CODE		BIT_ULL(60)
#define ISIM_FL_HDR_SQ			BIT_ULL(61)
#define ISIM_FL_HDR_RQ			BIT_ULL(62)
#define ISIM_RESUME_W2_QSET		GENMASK_ULL(31, 0)
#define ISIM_AE_QP_SUSPENDED		0x0900

/* FLUSH_WQES word 2, with ISIM_FL_HDR_USER_CODE: the codes CQEs carry */
#define ISIM_FL_W2_RQ_MINOR		GENMASK_ULL(15, 0)
#define ISIM_FL_W2_RQ_MAJOR		GENMASK_ULL(31, 16)
#define ISIM_FL_W2_SQ_MINOR		GENMASK_ULL(47, 32)
#define ISIM_FL_W2_SQ_MAJOR		GENMASK_ULL(63, 48)

/*
 * ---- QP host context: the words the data path reads ----
 * word 1: SQ bus address; word 2: RQ bus address; word 21: the QP's
 * completion context, copied into every CQE of the QP.
 */
#define ISIM_QPC_W0_RQ_WQE_SHIFT	GENMASK_ULL(9, 8)
#define ISIM_QPC_W0_PD_HI		GENMASK_ULL(21, 20)
#define ISIM_QPC_W3_RQ_SIZE		GENMASK_ULL(11, 8)	/* log2 quanta - 2 */
#define ISIM_QPC_W3_SQ_SIZE		GENMASK_ULL(15, 12)	/* log2 quanta - 2 */
#define ISIM_QPC_W7_PD_LO		GENMASK_ULL(63, 48)
#define ISIM_QPC_W8_DEST_QP		GENMASK_ULL(23, 0)
#define ISIM_QPC_W8_QKEY		GENMASK_ULL(63, 32)	/* RoCE UD */
#define ISIM_QPC_W16_REXMIT_THRESH	GENMASK_ULL(53, 48)
#define ISIM_QPC_W16_RNR_RETRY		GENMASK_ULL(56, 54)
/* RoCEv2 RC: the ACK timeout's floor, in the engine's units (roce.c) */
#define ISIM_QPC_W16_RTOMIN		GENMASK_ULL(63, 57)
#define ISIM_QPC_W17_SQ_CQ		GENMASK_ULL(18, 0)
#define ISIM_QPC_W17_RQ_CQ		GENMASK_ULL(50, 32)
#define ISIM_QPC_W18_Q2_ADDR		GENMASK_ULL(63, 8)	/* bus address */
#define ISIM_QPC_W20_REMOTE_WRITE	BIT_ULL(20)
#define ISIM_QPC_W20_REMOTE_READ	BIT_ULL(21)
#define ISIM_QPC_W20_PRIVILEGED		BIT_ULL(25)
#define ISIM_QPC_W20_NO_MPA_CRC		BIT_ULL(31)	/* iWARP */
/* RoCEv2 RC: outbound and inbound RDMA READs (IRD encoded: 4 << 2n) */
#define ISIM_QPC_W20_ORD		GENMASK_ULL(7, 0)
#define ISIM_QPC_W20_IRD		GENMASK_ULL(18, 16)
#define ISIM_QPC_W20_DCQCN		BIT_ULL(22)	/* RoCE */
/* RoCEv2 RC: PSNs, words 10 (next) and 11 (expected), bits 23:0 */
#define ISIM_QPC_PSN			GENMASK_ULL(23, 0)
#define ISIM_QPC_RNR_FOREVER		7

/*
 * ---- iWARP QP host context: the TCP connection (MODIFY_QP to RTS with
 * ISIM_QP_HDR_TCPCTX_VALID) ----
 * Words 4/5 hold the remote address and 23/24 the local one, laid out as
 * in a qhash WQE (IPv4 in bits 31:0 of words 4 and 23).
 */
#define ISIM_QPC_W0_IPV4		BIT_ULL(3)
#define ISIM_QPC_W0_INSERT_VLAN		BIT_ULL(5)
#define ISIM_QPC_W3_TTL			GENMASK_ULL(7, 0)
#define ISIM_QPC_W3_TOS			GENMASK_ULL(31, 24)
/* gen1: the source MAC is this local MAC table entry, not word 19 */
#define ISIM_QPC_W3_G1_SRCMAC_IDX	GENMASK_ULL(21, 16)
#define ISIM_QPC_W3_SRC_PORT		GENMASK_ULL(47, 32)
#define ISIM_QPC_W3_DST_PORT		GENMASK_ULL(63, 48)
#define ISIM_QPC_W_REM_ADDR		4
#define ISIM_QPC_W6_SNDMSS		GENMASK_ULL(29, 16)
#define ISIM_QPC_W6_VLAN_TAG		GENMASK_ULL(47, 32)
#define ISIM_QPC_W6_ARP_IDX		GENMASK_ULL(63, 48)
#define ISIM_QPC_W7_FLOW_LABEL		GENMASK_ULL(19, 0)
#define ISIM_QPC_W7_TCP_STATE		GENMASK_ULL(31, 28)
#define ISIM_QPC_W7_RCV_SCALE		GENMASK_ULL(35, 32)
#define ISIM_QPC_W7_SND_SCALE		GENMASK_ULL(43, 40)
#define ISIM_QPC_TCPS_ESTABLISHED	5
/* TCP states of an AEQE (TCPSTATE) */
#define ISIM_TCPS_NON_EXISTENT		0
#define ISIM_TCPS_CLOSED		1
#define ISIM_TCPS_ESTABLISHED		5
#define ISIM_TCPS_CLOSE_WAIT		6
#define ISIM_TCPS_FIN_WAIT_1		7
#define ISIM_TCPS_CLOSING		8
#define ISIM_TCPS_LAST_ACK		9
#define ISIM_TCPS_FIN_WAIT_2		10
#define ISIM_TCPS_TIME_WAIT		11
/* words 10 (snd_nxt, snd_wnd) and 11 (rcv_nxt, rcv_wnd) */
#define ISIM_QPC_SEQ_LO			GENMASK_ULL(31, 0)
#define ISIM_QPC_SEQ_HI			GENMASK_ULL(63, 32)
#define ISIM_QPC_W19_LOCAL_MAC		GENMASK_ULL(63, 16)
/* the work-scheduler leaf the QP transmits through (every QP type) */
#define ISIM_QPC_W22_QS_HANDLE		GENMASK_ULL(25, 16)
/* the IEQ's QP (exception LAN queue), iWARP; 0: none */
#define ISIM_QPC_W22_EXCEPTION_Q	GENMASK_ULL(43, 32)
#define ISIM_QPC_W_LOC_ADDR		23

/* ---- SQ and RQ WQEs: 1..8 quanta of 32 bytes, word 3 the header ---- */
#define ISIM_WQ_QUANTUM			32
#define ISIM_WQ_MAX_QUANTA		8
#define ISIM_WQH_REMOTE_STAG		GENMASK_ULL(31, 0)
#define ISIM_WQH_OP			GENMASK_ULL(37, 32)
#define ISIM_WQH_MORE_FRAGS		GENMASK_ULL(41, 38)
#define ISIM_WQH_IMM			BIT_ULL(47)
#define ISIM_WQH_INLINE_LEN		GENMASK_ULL(55, 48)
#define ISIM_WQH_INLINE			BIT_ULL(57)
/* iWARP connection WQEs: the LSMM is a SEND of the TCP stream itself */
#define ISIM_WQH_STREAM_MODE		BIT_ULL(58)
#define ISIM_WQH_WAIT_RCV_PDU		BIT_ULL(59)
/* RoCEv2 RC: wait for the READs before (read fence), or for every WQE */
#define ISIM_WQH_READ_FENCE		BIT_ULL(60)
#define ISIM_WQH_LOCAL_FENCE		BIT_ULL(61)
#define ISIM_WQH_SIGNALED		BIT_ULL(62)
#define ISIM_WQH_VALID			BIT_ULL(63)
/*
 * Fragment slot 0 is words 0/1 (word 0 holds immediate data instead when
 * ISIM_WQH_IMM is set), slot n > 0 is words 2n + 2 and 2n + 3. A slot is
 * a bus address (or IOVA) word followed by the word below.
 */
#define ISIM_FRAG_STAG			GENMASK_ULL(31, 0)
#define ISIM_FRAG_LEN			GENMASK_ULL(62, 32)
/* gen1: the length first, then the STag, and no valid bit */
#define ISIM_FRAG_G1_LEN		GENMASK_ULL(31, 0)
#define ISIM_FRAG_G1_STAG		GENMASK_ULL(63, 32)
/* inline data: 8 bytes at byte 8, then 31 bytes per further quantum */
#define ISIM_INLINE_FIRST		8
#define ISIM_INLINE_PER_QUANTUM		31
/* gen1 inline data: 16 bytes in words 0/1, then 32 in quantum 1 */
#define ISIM_INLINE_G1_FIRST		16
#define ISIM_INLINE_G1_MAX		48
/* gen1: at most 3 fragments, and WQEs never cross a 2-quantum boundary */
#define ISIM_G1_MAX_FRAGS		3
#define ISIM_G1_SQ_CHUNK		2
#define ISIM_LOCAL_DMA_STAG		0

enum isim_wq_op {
	ISIM_WQOP_WRITE			= 0x00,
	ISIM_WQOP_READ			= 0x01,
	ISIM_WQOP_SEND			= 0x03,
	ISIM_WQOP_SEND_INV		= 0x04,
	ISIM_WQOP_SEND_SOL		= 0x05,
	ISIM_WQOP_SEND_SOL_INV		= 0x06,
	ISIM_WQOP_BIND_MW		= 0x08,
	ISIM_WQOP_FAST_REG		= 0x09,
	ISIM_WQOP_LOCAL_INV		= 0x0a,
	ISIM_WQOP_READ_LOCAL_INV	= 0x0b,
	ISIM_WQOP_NOP			= 0x0c,
	ISIM_WQOP_WRITE_SOL		= 0x0d,
	ISIM_WQOP_GEN_RTS_AE		= 0x30,
};

/*
 * UD SEND WQE (RoCEv2 UD and GSI QPs): the header names the AH instead of
 * a remote STag; word 2 carries the Q_Key and the destination QP.
 */
#define ISIM_WQH_AH			GENMASK_ULL(16, 0)
#define ISIM_WQU_W2_QKEY		GENMASK_ULL(31, 0)
#define ISIM_WQU_W2_DEST_QP		GENMASK_ULL(55, 32)

/*
 * MW bind WQE: word 0 the window's VA, word 1 its STags (gen1 the other
 * way round: MR 31:0, MW 63:32), word 2 its length
 */
#define ISIM_WQB_W1_MW_STAG		GENMASK_ULL(31, 0)
#define ISIM_WQB_W1_MR_STAG		GENMASK_ULL(63, 32)
#define ISIM_WQB_HDR_RIGHTS		GENMASK_ULL(52, 48)
#define ISIM_WQB_HDR_VA_BASED		BIT_ULL(53)
#define ISIM_WQB_HDR_TYPE1		BIT_ULL(54)

/*
 * Fast-register WQE: word 0 the VA (or first-byte offset), word 1 the
 * first page's address and the first PBLE's index high bits, word 2 the
 * length and its low bits; the header names the STag and the mapping.
 * Rights and VA based are where the bind WQE has them.
 */
#define ISIM_WQF_W1_FIRST_PAGE		GENMASK_ULL(63, 12)
#define ISIM_WQF_W1_PBLE_HI		GENMASK_ULL(11, 0)
#define ISIM_WQF_W2_LEN			GENMASK_ULL(40, 0)
#define ISIM_WQF_W2_PBLE_LO		GENMASK_ULL(63, 48)
#define ISIM_WQF_HDR_KEY		GENMASK_ULL(7, 0)
#define ISIM_WQF_HDR_INDEX		GENMASK_ULL(31, 8)
#define ISIM_WQF_HDR_PBL_LEVELS		GENMASK_ULL(45, 44)
#define ISIM_WQF_HDR_PAGE_SIZE		GENMASK_ULL(47, 46)

/* local invalidate WQE: the STag in the first fragment's STag field */
/* an RQ CQE of a SEND with invalidate: the STag in word 2, 31:0 */
#define ISIM_CQE_W2_INV_STAG		GENMASK_ULL(31, 0)
/* a UD RQ CQE: the sender's QP in word 2, 31:0 */
#define ISIM_CQE_W2_UD_SRC_QP		GENMASK_ULL(31, 0)
#define ISIM_CQE_W3_INVALIDATED		BIT_ULL(53)

/* ---- STags (ALLOC_STAG, REG_MR, DEALLOC_STAG) ---- */
/* REG_MR word 0: VA or FBO; word 4: single-page PA; word 5: HMC fn */
#define ISIM_STAG_W1_LEN		GENMASK_ULL(45, 0)
/* the longest MR or window the engine takes */
#define ISIM_STAG_MAX_LEN		BIT_ULL(45)
#define ISIM_STAG_W1_PD			GENMASK_ULL(63, 46)
#define ISIM_STAG_W1_G1_PD		GENMASK_ULL(62, 48)
#define ISIM_STAG_W2_KEY		GENMASK_ULL(7, 0)
#define ISIM_STAG_W2_INDEX		GENMASK_ULL(31, 8)
#define ISIM_STAG_W6_FIRST_PBLE		GENMASK_ULL(27, 0)
/* set for a type 1 window, clear for type 2 */
#define ISIM_STAG_HDR_MW_TYPE1		BIT_ULL(42)
#define ISIM_STAG_HDR_MR		BIT_ULL(43)
#define ISIM_STAG_HDR_PBL_LEVELS	GENMASK_ULL(45, 44)
#define ISIM_STAG_HDR_PAGE_SIZE		GENMASK_ULL(47, 46)
#define ISIM_STAG_HDR_RIGHTS		GENMASK_ULL(52, 48)
#define ISIM_STAG_HDR_REMOTE		BIT_ULL(53)
#define ISIM_STAG_HDR_VA_BASED		BIT_ULL(59)
/* STag rights (ISIM_STAG_HDR_RIGHTS); local read is implied */
#define ISIM_RIGHT_LOCAL_WRITE		BIT(1)
#define ISIM_RIGHT_REMOTE_READ		BIT(2)
#define ISIM_RIGHT_REMOTE_WRITE		BIT(3)
#define ISIM_RIGHT_MW_BIND		BIT(4)
/* ISIM_STAG_HDR_PAGE_SIZE: 4 KiB << (9 * value); 3 is reserved */
#define ISIM_STAG_PAGE_1G		2

/* ---- connection steering: APBVT, quad hash, ARP cache, MAC table ---- */
#define ISIM_APBVT_W2_PORT		GENMASK_ULL(15, 0)
#define ISIM_APBVT_HDR_ADD		BIT_ULL(62)

/* qhash: word 0 MAC; word 1 ports and QP; word 2 qset, VLAN */
#define ISIM_QH_W1_DPORT		GENMASK_ULL(15, 0)
#define ISIM_QH_W1_SPORT		GENMASK_ULL(31, 16)
#define ISIM_QH_W1_QPN			GENMASK_ULL(49, 32)
#define ISIM_QH_W2_QSET			GENMASK_ULL(9, 0)
#define ISIM_QH_W2_VLAN			GENMASK_ULL(43, 32)
/* words 4/5: source address, 6/7: destination address */
#define ISIM_QH_HDR_TYPE		GENMASK_ULL(44, 42)
#define ISIM_QH_HDR_VLAN_VALID		BIT_ULL(59)
#define ISIM_QH_HDR_IPV4		BIT_ULL(60)
#define ISIM_QH_HDR_MANAGE		GENMASK_ULL(62, 61)
#define ISIM_QH_DELETE			0
#define ISIM_QH_ADD			1
#define ISIM_QH_MODIFY			2
#define ISIM_QH_TCP_ESTABLISHED		1
#define ISIM_QH_TCP_SYN			2
#define ISIM_QH_ROCEV2_HW		6

#define ISIM_ARP_HDR_INDEX		GENMASK_ULL(11, 0)
#define ISIM_ARP_HDR_VALID		BIT_ULL(42)
#define ISIM_ARP_HDR_PERMANENT		BIT_ULL(43)
/* word 2: MAC address in the low 48 bits */
#define ISIM_MAC_BITS			GENMASK_ULL(47, 0)

#define ISIM_LMAC_HDR_INDEX		GENMASK_ULL(5, 0)
#define ISIM_LMAC_HDR_FREE		BIT_ULL(62)
#define ISIM_LMAC_ENTRIES		16

/* ---- address handles ---- */
/* word 0: destination MAC << 16; word 1: PD low, TC; word 2: ARP, PD hi */
#define ISIM_AH_W1_PD_LO		GENMASK_ULL(63, 48)
#define ISIM_AH_W2_ARP			GENMASK_ULL(63, 48)
#define ISIM_AH_W2_PD_HI		GENMASK_ULL(21, 20)
#define ISIM_AH_HDR_INDEX		GENMASK_ULL(16, 0)
#define ISIM_AH_HDR_IPV4		BIT_ULL(59)
#define ISIM_AH_HDR_VLAN		BIT_ULL(60)
#define ISIM_AH_HDR_LOOPBACK		BIT_ULL(62)
#define ISIM_AH_MAX			BIT(17)

/* ---- multicast groups (CREATE/MODIFY/DESTROY_MCG) ---- */
/* word 0: MAC; word 4: member list; words 6 and 7: the group's address */
#define ISIM_MCG_W0_MAC			GENMASK_ULL(47, 0)
#define ISIM_MCG_W_ADDR			6
#define ISIM_MCG_HDR_INDEX		GENMASK_ULL(12, 0)
#define ISIM_MCG_HDR_IPV4		BIT_ULL(60)
/* a member list entry; the list has ISIM_MCG_MEMBERS of them */
#define ISIM_MCGE_QP			GENMASK_ULL(17, 0)
#define ISIM_MCGE_VALID			BIT_ULL(31)
#define ISIM_MCG_MEMBERS		8
/* the BTH destination QP of a datagram to a multicast group */
#define ISIM_MCG_QPN			0xffffff

/*
 * The ILQ transmit path reads more of the AH: word 0 bits 63:16 the source
 * MAC; word 1 the VLAN tag (PCP and VID) and the IPv4 TOS / IPv6 traffic
 * class; word 2 the IPv6 flow label and the TTL / hop limit. Words 4/5 hold
 * the destination address and 6/7 the source, laid out as in a qhash WQE.
 */
#define ISIM_AH_W0_SMAC			GENMASK_ULL(63, 16)
#define ISIM_AH_W1_VLAN_TAG		GENMASK_ULL(15, 0)
#define ISIM_AH_W1_TC			GENMASK_ULL(39, 32)
#define ISIM_AH_W2_FLOW_LABEL		GENMASK_ULL(19, 0)
#define ISIM_AH_W2_HOP_LIMIT		GENMASK_ULL(39, 32)
#define ISIM_AH_W_DST			4
#define ISIM_AH_W_SRC			6

/* ---- work scheduler nodes, statistics instances, UP map ---- */
#define ISIM_WS_HDR_NODE		GENMASK_ULL(9, 0)
#define ISIM_WS_HDR_PARENT		GENMASK_ULL(25, 16)
#define ISIM_WS_HDR_OP			GENMASK_ULL(53, 52)
#define ISIM_WS_HDR_TC			GENMASK_ULL(58, 56)
#define ISIM_WS_HDR_PRIO_TYPE		GENMASK_ULL(60, 59)
#define ISIM_WS_HDR_LEAF		BIT_ULL(61)
#define ISIM_WS_HDR_ENABLE		BIT_ULL(62)
#define ISIM_WS_W4_WEIGHT		GENMASK_ULL(38, 32)
#define ISIM_WS_W4_VSI			GENMASK_ULL(57, 48)
#define ISIM_WS_ADD			0
#define ISIM_WS_MODIFY			1
#define ISIM_WS_DELETE			2
#define ISIM_WS_NODES			1024

#define ISIM_STATS_HDR_INDEX		GENMASK_ULL(6, 0)
#define ISIM_STATS_HDR_USE_FN		BIT_ULL(60)
#define ISIM_STATS_HDR_USE_INST		BIT_ULL(61)
#define ISIM_STATS_HDR_ALLOC		BIT_ULL(62)
#define ISIM_STATS_W5_FN		GENMASK_ULL(5, 0)
#define ISIM_STATS_INSTANCES		128

/*
 * The GATHER_STATS block: ISIM_GS_BLOCK bytes, each counter at its own
 * offset and width (the slot table is in sched.c).
 */
#define ISIM_GS_BLOCK			1024

enum isim_gs {
	ISIM_GS_VLAN_ERR,
	ISIM_GS_IP4_RX_OCTETS,
	ISIM_GS_IP4_RX_PKTS,
	ISIM_GS_IP4_RX_TRUNC,
	ISIM_GS_IP4_RX_DISCARD,
	ISIM_GS_IP4_RX_FRAGS,
	ISIM_GS_IP4_RX_MC_OCTETS,
	ISIM_GS_IP4_RX_MC_PKTS,
	ISIM_GS_IP6_RX_OCTETS,
	ISIM_GS_IP6_RX_PKTS,
	ISIM_GS_IP6_RX_TRUNC,
	ISIM_GS_IP6_RX_DISCARD,
	ISIM_GS_IP6_RX_FRAGS,
	ISIM_GS_IP6_RX_MC_OCTETS,
	ISIM_GS_IP6_RX_MC_PKTS,
	ISIM_GS_IP4_TX_OCTETS,
	ISIM_GS_IP4_TX_PKTS,
	ISIM_GS_IP4_TX_FRAGS,
	ISIM_GS_IP4_TX_MC_OCTETS,
	ISIM_GS_IP4_TX_MC_PKTS,
	ISIM_GS_IP6_TX_OCTETS,
	ISIM_GS_IP6_TX_PKTS,
	ISIM_GS_IP6_TX_FRAGS,
	ISIM_GS_IP6_TX_MC_OCTETS,
	ISIM_GS_IP6_TX_MC_PKTS,
	ISIM_GS_IP6_TX_NO_ROUTE,
	ISIM_GS_IP4_TX_NO_ROUTE,
	ISIM_GS_TCP_RX_SEGS,
	ISIM_GS_TCP_RX_PROTO_ERR,
	ISIM_GS_TCP_RX_OPT_ERR,
	ISIM_GS_TCP_TX_SEGS,
	ISIM_GS_TCP_RTX_SEGS,
	ISIM_GS_UDP_RX,
	ISIM_GS_UDP_TX,
	ISIM_GS_RDMA_RX_WRITES,
	ISIM_GS_RDMA_RX_READS,
	ISIM_GS_RDMA_RX_SENDS,
	ISIM_GS_RDMA_TX_WRITES,
	ISIM_GS_RDMA_TX_READS,
	ISIM_GS_RDMA_TX_SENDS,
	ISIM_GS_BINDS,
	ISIM_GS_INVALIDATES,
	ISIM_GS_RX_ECN_MARKED,
	ISIM_GS_CNP_HANDLED,
	ISIM_GS_CNP_IGNORED,
	ISIM_GS_CNP_SENT,
	ISIM_GS_NUM
};

#define ISIM_UPMAP_W5_FN		GENMASK_ULL(5, 0)

/*
 * ---- privileged raw queues (ILQ): the CM's TCP segments ----
 * The ILQ is a UDA QP (id 1, CQ 1 by the driver's convention). Its SQ and
 * RQ WQEs are one quantum each. SQ WQE: word 0 the buffer's bus address
 * (the TCP header and payload), word 1 the length in ISIM_FRAG_LEN, word 2
 * zero, word 3 the header below with ISIM_WQH_OP = SEND, ISIM_WQH_SIGNALED
 * and ISIM_WQH_VALID. RQ WQE: word 0 the buffer's bus address, word 1 its
 * length in ISIM_FRAG_LEN, word 3 the valid bit.
 */
#define ISIM_ILQ_SQ_HDR_AH		GENMASK_ULL(16, 0)
#define ISIM_ILQ_SQ_HDR_L4LEN		GENMASK_ULL(45, 42)	/* dwords */
#define ISIM_ILQ_L4LEN_MIN		5
/*
 * gen1 ILQ SQ WQE: the buffer is a complete frame (its length in
 * ISIM_FRAG_G1_LEN). Word 2 may describe it: MAC header in 2-byte units,
 * IP header and TCP header in 4-byte units, IP type (IIPT) and L4 type;
 * the header has no AH index but a loopback bit.
 */
#define ISIM_ILQ_G1_W2_MACLEN		GENMASK_ULL(62, 56)
#define ISIM_ILQ_G1_W2_IPLEN		GENMASK_ULL(54, 48)
#define ISIM_ILQ_G1_W2_L4T		GENMASK_ULL(31, 30)
#define ISIM_ILQ_G1_W2_IIPT		GENMASK_ULL(29, 28)
#define ISIM_ILQ_G1_W2_L4LEN		GENMASK_ULL(27, 24)
#define ISIM_ILQ_G1_HDR_LOOPBACK	BIT_ULL(44)
/* gen1 raw queue receive CQE: no extension; tag present, L3 protocol */
#define ISIM_CQE_W3_G1_VLAN		BIT_ULL(50)
#define ISIM_CQE_W2_G1_L3PROTO		GENMASK_ULL(1, 0)
#define ISIM_G1_L3PROTO_IPV6		1
/* a received segment: the TCP header at byte 40, the IP header before it */
#define ISIM_ILQ_RX_TCP_OFF		40
#define ISIM_ILQ_RX_IPV4_OFF		20
/* receive CQE: word 0 ISIM_CQE_W0_BYTES counts from byte 0 of the buffer */
#define ISIM_CQE_W3_IPV4		BIT_ULL(53)
/* extension of a receive CQE: the frame's source MAC and VLAN tag */
#define ISIM_CQE_W6_SMAC		GENMASK_ULL(47, 0)
#define ISIM_CQE_W6_VLAN		GENMASK_ULL(63, 48)
#define ISIM_CQE_W7_VLAN_VALID		BIT_ULL(60)
#define ISIM_CQE_W7_SMAC_VALID		BIT_ULL(61)

/*
 * ---- RoCEv2 datagrams on the wire (UD and GSI QPs, ud.c) ----
 * UDP to port 4791, then the BTH, the DETH, the immediate data of a
 * SEND_ONLY_WITH_IMMEDIATE, the payload, 0-3 pad bytes and the ICRC.
 */
#define ISIM_ROCE_UDP_PORT		4791
#define ISIM_ROCE_SPORT_BASE		0xc000
#define ISIM_ROCE_SPORT_QP		GENMASK(13, 0)
#define ISIM_BTH_LEN			12
#define ISIM_DETH_LEN			8
#define ISIM_IMMDT_LEN			4
#define ISIM_ICRC_LEN			4
#define ISIM_BTH_UD_SEND_ONLY		0x64
#define ISIM_BTH_UD_SEND_ONLY_IMM	0x65
/* BTH byte 1: solicited event, migration, pad count, transport version */
#define ISIM_BTH_B1_SE			BIT(7)
#define ISIM_BTH_B1_PAD			GENMASK(5, 4)
#define ISIM_BTH_B1_TVER		GENMASK(3, 0)
#define ISIM_BTH_PKEY_DEFAULT		0xffff
#define ISIM_BTH_QPN			GENMASK(23, 0)
#define ISIM_BTH_PSN			GENMASK(23, 0)
/* the longest UD payload the engine sends: its largest path MTU */
#define ISIM_UD_PAYLOAD_MAX		4096
/*
 * A received datagram lands in its RQ buffer after 40 bytes standing for
 * the GRH: the IPv6 header, or 20 zero bytes and the IPv4 header.
 */
#define ISIM_UD_GRH_LEN			40

#endif /* _ISIM_DEFS_H_ */
