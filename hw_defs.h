/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: hardware bit layouts of the RDMA engine (X722 "gen1", E810 "gen2").
 *
 * Everything the driver and the device exchange through memory or
 * registers is described here and nowhere else: register offsets, CQP
 * work requests, completion and event queue elements, QP contexts, send
 * and receive WQEs, HMC descriptors. Every descriptor is an array of
 * little-endian 64-bit words; a field is named IRDMA_<BLK>_<FIELD> and is
 * a GENMASK_ULL/BIT_ULL within one word, to be used only through
 * FIELD_PREP()/FIELD_GET() and the irdma_wqe_*() accessors below. The word
 * a field lives in is given in the comment of each group. Where gen1 and
 * gen2 differ, the gen1 variant carries a _G1 suffix.
 *
 * Documentation/hw-interface.rst says how the engine uses these layouts.
 */
#ifndef IRDMA_HW_DEFS_H
#define IRDMA_HW_DEFS_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/* ---- Generic sizes ------------------------------------------------- */

#define IRDMA_HW_PAGE_SHIFT		12
#define IRDMA_HW_PAGE_SZ		BIT(IRDMA_HW_PAGE_SHIFT)
#define IRDMA_CQP_WQE_BYTES		64	/* one CQP SQ element */
#define IRDMA_CQP_WQE_WORDS		8
#define IRDMA_QUANTUM_BYTES		32	/* SQ/RQ/CQ element unit */
#define IRDMA_QUANTUM_WORDS		4
#define IRDMA_CEQE_BYTES		8
#define IRDMA_AEQE_BYTES		16
#define IRDMA_QP_CTX_BYTES		256
#define IRDMA_SHADOW_AREA_BYTES		64
/* The header (opcode, valid bit) of CQP and SQ/RQ WQEs sits in word 3. */
#define IRDMA_WQE_HDR_WORD		3

/* ---- Registers (offsets from BAR0) ---------------------------------- */

/* gen2 (E810) PF */
#define IRDMA_REG_CQPTAIL		0x00500880
#define IRDMA_REG_CQPDB			0x00500800
#define IRDMA_REG_CCQPSTATUS		0x0050a000
#define IRDMA_REG_CCQPHIGH		0x0050a100
#define IRDMA_REG_CCQPLOW		0x0050a080
#define IRDMA_REG_CQARM			0x00502c00
#define IRDMA_REG_CQACK			0x00502c80
#define IRDMA_REG_AEQALLOC		0x00502d00
#define IRDMA_REG_CQPERRCODES		0x0050a200
#define IRDMA_REG_WQEALLOC		0x00504400
#define IRDMA_REG_PFINT_AEQCTL		0x0016cb00
#define IRDMA_REG_GLINT_CEQCTL(i)	(0x0015c000 + (i) * 4)
#define IRDMA_REG_GLINT_DYN_CTL(i)	(0x00160000 + (i) * 4)
#define IRDMA_REG_PFHMC_PDINV		0x00520300
#define IRDMA_REG_GLPE_CPUSTATUS0	0x0050ba5c
#define IRDMA_REG_GLPE_CPUSTATUS1	0x0050ba60
#define IRDMA_REG_GLPE_CPUSTATUS2	0x0050ba64
#define IRDMA_REG_GLPE_CRITERR		0x00534000
#define IRDMA_REG_GLPCI_LBARCTRL	0x0009de74
/* User doorbell page: BAR0 + 8 MiB - 64 KiB on gen2 */
#define IRDMA_REG_DB_PAGE		(8 * 1024 * 1024 - 64 * 1024)

/* gen1 (X722) PF */
#define IRDMA_REG_CQPTAIL_G1		0x00008080
#define IRDMA_REG_CQPDB_G1		0x00008000
#define IRDMA_REG_CCQPSTATUS_G1		0x00008100
#define IRDMA_REG_CCQPHIGH_G1		0x00008200
#define IRDMA_REG_CCQPLOW_G1		0x00008180
#define IRDMA_REG_CQARM_G1		0x00131080
#define IRDMA_REG_CQACK_G1		0x00131100
#define IRDMA_REG_AEQALLOC_G1		0x00131180
#define IRDMA_REG_CQPERRCODES_G1	0x00008880
#define IRDMA_REG_WQEALLOC_G1		0x00138c00
#define IRDMA_REG_PFINT_AEQCTL_G1	0x00038700
#define IRDMA_REG_PFINT_CEQCTL_G1(i)	(0x00036800 + (i) * 4)
#define IRDMA_REG_PFINT_DYN_CTLN_G1(i)	(0x00034800 + (i) * 4)
#define IRDMA_REG_PFINT_LNKLSTN_G1(i)	(0x00035000 + (i) * 4)
#define IRDMA_REG_PFHMC_PDINV_G1	0x000c0300
#define IRDMA_REG_GLPE_CPUSTATUS0_G1	0x0000d040
#define IRDMA_REG_GLPE_CPUSTATUS1_G1	0x0000d044
#define IRDMA_REG_GLPE_CPUSTATUS2_G1	0x0000d048
#define IRDMA_REG_GLPE_CRITERR_G1	0x000b4000
#define IRDMA_REG_GLPCI_LBARCTRL_G1	0x000be484
#define IRDMA_REG_DB_PAGE_G1		(4 * 1024 * 1024 - 64 * 1024)

/*
 * Causes of a critical-error event, as the parent reads them from its
 * PFINT_OICR register (ice passes the whole value with IIDC_EVENT_CRIT_ERR)
 */
#define IRDMA_OICR_HMC_ERR		BIT(26)
#define IRDMA_OICR_PE_PUSH		BIT(27)
#define IRDMA_OICR_PE_CRITERR		BIT(28)

/* CCQPSTATUS: CQP came up (DONE) or failed to (ERR) */
#define IRDMA_CCQPSTATUS_DONE		BIT(0)
#define IRDMA_CCQPSTATUS_ERR		BIT(31)
/* GLPE_CPUSTATUSn: the engine's processors are up */
#define IRDMA_CPUSTATUS_READY		0x80
/* CQPTAIL: the engine's consumer index into the CQP SQ */
#define IRDMA_CQPTAIL_WQTAIL		GENMASK(10, 0)
#define IRDMA_CQPTAIL_OP_ERR		BIT(31)
/* CQPERRCODES */
#define IRDMA_CQPERRCODES_MINOR		GENMASK(15, 0)
#define IRDMA_CQPERRCODES_MAJOR		GENMASK(31, 16)
/* WQEALLOC: written with the QP id; push mode adds the WQE index / 8 */
#define IRDMA_WQEALLOC_QPID		GENMASK(19, 0)
#define IRDMA_WQEALLOC_DESC_IDX		GENMASK(31, 20)
/* AEQCTL / CEQCTL (gen2) */
#define IRDMA_INTCTL_MSIX_IDX		GENMASK(10, 0)
#define IRDMA_INTCTL_ITR_IDX		GENMASK(12, 11)
#define IRDMA_INTCTL_CAUSE_ENA		BIT(30)
/* gen1 CEQCTL: next cause on the vector's list (IRDMA_LNKLST_END: none) */
#define IRDMA_INTCTL_NEXTQ_IDX_G1	GENMASK(26, 16)
/*
 * gen1 PFINT_LNKLSTN(n): the first cause vector n + 1 serves (vector 0 is
 * the parent's); a PE CEQ is queue type 2
 */
#define IRDMA_LNKLST_FIRSTQ_IDX_G1	GENMASK(10, 0)
#define IRDMA_LNKLST_FIRSTQ_TYPE_G1	GENMASK(12, 11)
#define IRDMA_LNKLST_TYPE_CEQ_G1	2
#define IRDMA_LNKLST_END		0x7ff
/* DYN_CTL */
#define IRDMA_DYNCTL_INTENA		BIT(0)
#define IRDMA_DYNCTL_CLEARPBA		BIT(1)
#define IRDMA_DYNCTL_ITR_IDX		GENMASK(4, 3)
#define IRDMA_DYNCTL_INTERVAL		GENMASK(16, 5)
/* PFHMC_PDINV: drop one cached page descriptor */
#define IRDMA_PDINV_SD_IDX		GENMASK(11, 0)
#define IRDMA_PDINV_PARTSEL		BIT(15)
#define IRDMA_PDINV_PD_IDX		GENMASK(24, 16)

/* ---- CQP host context (written by the driver, address in CCQPHIGH/LOW) */

/* word 0 */
#define IRDMA_CQPHC_DISABLE_PFPDUS	BIT_ULL(1)
#define IRDMA_CQPHC_ROCEV2_RTO_POLICY	BIT_ULL(2)
#define IRDMA_CQPHC_PROTOCOL_USED	GENMASK_ULL(4, 3)
#define IRDMA_CQP_PROTOCOL_IWARP	1	/* PROTOCOL_USED values */
#define IRDMA_CQP_PROTOCOL_ROCEV2	2
#define IRDMA_CQPHC_SQSIZE		GENMASK_ULL(11, 8)	/* log2 */
#define IRDMA_CQPHC_SVER		GENMASK_ULL(31, 24)
#define IRDMA_CQPHC_CEQPERVF		GENMASK_ULL(39, 32)
/* word 1: SQ base physical address (512-byte aligned) */
/* word 2 */
#define IRDMA_CQPHC_HMC_PROFILE		GENMASK_ULL(2, 0)
#define IRDMA_HMC_PROFILE_DEFAULT	1	/* the PF's own split; 0 is none */
#define IRDMA_CQPHC_ENABLED_VFS		GENMASK_ULL(37, 32)
/* word 3: CQP completion context (opaque 64-bit) */
/* word 4 */
#define IRDMA_CQPHC_HW_MINVER		GENMASK_ULL(15, 0)
#define IRDMA_CQPHC_HW_MAJVER		GENMASK_ULL(31, 16)
/*
 * Words 4 (rate fields), 6 and 7 carry DCQCN congestion-control settings
 * for RoCEv2; the driver leaves them zero (hardware defaults).
 */

#define IRDMA_CQP_HW_MAJVER_GEN1	0
#define IRDMA_CQP_HW_MAJVER_GEN2	1

/* ---- CQP work request: common header (word 3) ----------------------- */

#define IRDMA_CQPWQE_OPCODE		GENMASK_ULL(37, 32)
#define IRDMA_CQPWQE_VALID		BIT_ULL(63)

/*
 * enum irdma_cqp_opcode - CQP work request opcodes (header word 3, 37:32)
 */
enum irdma_cqp_opcode {
	IRDMA_CQPOP_CREATE_QP		= 0x00,
	IRDMA_CQPOP_MODIFY_QP		= 0x01,
	IRDMA_CQPOP_DESTROY_QP		= 0x02,
	IRDMA_CQPOP_CREATE_CQ		= 0x03,
	IRDMA_CQPOP_MODIFY_CQ		= 0x04,
	IRDMA_CQPOP_DESTROY_CQ		= 0x05,
	IRDMA_CQPOP_ALLOC_STAG		= 0x09,
	IRDMA_CQPOP_REG_MR		= 0x0a,
	IRDMA_CQPOP_QUERY_STAG		= 0x0b,
	IRDMA_CQPOP_REG_SMR		= 0x0c,
	IRDMA_CQPOP_DEALLOC_STAG	= 0x0d,
	IRDMA_CQPOP_MANAGE_LOC_MAC	= 0x0e,
	IRDMA_CQPOP_MANAGE_ARP		= 0x0f,
	IRDMA_CQPOP_MANAGE_VF_PBLE_BP	= 0x10,
	IRDMA_CQPOP_MANAGE_PUSH_PAGES	= 0x11,
	IRDMA_CQPOP_QUERY_RDMA_FEATURES	= 0x12,
	IRDMA_CQPOP_UPLOAD_CONTEXT	= 0x13,
	IRDMA_CQPOP_ALLOC_LOC_MAC	= 0x14,
	IRDMA_CQPOP_MANAGE_HMC_PM_FUNC	= 0x15,
	IRDMA_CQPOP_CREATE_CEQ		= 0x16,
	IRDMA_CQPOP_DESTROY_CEQ		= 0x18,
	IRDMA_CQPOP_CREATE_AEQ		= 0x19,
	IRDMA_CQPOP_DESTROY_AEQ		= 0x1b,
	IRDMA_CQPOP_CREATE_AH		= 0x1c,
	IRDMA_CQPOP_MODIFY_AH		= 0x1d,
	IRDMA_CQPOP_DESTROY_AH		= 0x1e,
	IRDMA_CQPOP_UPDATE_PE_SDS	= 0x1f,
	IRDMA_CQPOP_QUERY_FPM_VAL	= 0x20,
	IRDMA_CQPOP_COMMIT_FPM_VAL	= 0x21,
	/* FLUSH_WQES and GEN_AE share one opcode */
	IRDMA_CQPOP_FLUSH_WQES		= 0x22,
	IRDMA_CQPOP_MANAGE_APBVT	= 0x23,
	IRDMA_CQPOP_NOP			= 0x24,
	IRDMA_CQPOP_MANAGE_QHASH	= 0x25,
	IRDMA_CQPOP_CREATE_MCAST_GRP	= 0x26,
	IRDMA_CQPOP_MODIFY_MCAST_GRP	= 0x27,
	IRDMA_CQPOP_DESTROY_MCAST_GRP	= 0x28,
	IRDMA_CQPOP_SUSPEND_QP		= 0x29,
	IRDMA_CQPOP_RESUME_QP		= 0x2a,
	IRDMA_CQPOP_SHMC_PAGES_ALLOC	= 0x2b,
	IRDMA_CQPOP_WORK_SCHED_NODE	= 0x2c,
	IRDMA_CQPOP_MANAGE_STATS	= 0x2d,
	IRDMA_CQPOP_GATHER_STATS	= 0x2e,
	IRDMA_CQPOP_UP_MAP		= 0x2f,
};

#define IRDMA_CQPOP_GEN_AE		IRDMA_CQPOP_FLUSH_WQES

/* Words common to several commands */
#define IRDMA_CQPWQE_TPHVAL		GENMASK_ULL(7, 0)	/* word 7 */
#define IRDMA_CQPWQE_VSIIDX		GENMASK_ULL(17, 8)	/* word 7 */
#define IRDMA_CQPWQE_TPHEN		BIT_ULL(60)		/* word 3 */
#define IRDMA_CQPWQE_BUFSIZE		GENMASK_ULL(31, 0)	/* word 3 */
#define IRDMA_CQPWQE_OBJ_ID		GENMASK_ULL(23, 0)	/* word 3 */

/* ---- CREATE/MODIFY/DESTROY QP -------------------------------------- */
/*
 * word 1: new MSS, terminate length (modify)
 * word 2: QP context physical address
 * word 5: doorbell shadow area physical address
 * word 3: header
 */
#define IRDMA_CQPQP_NEWMSS		GENMASK_ULL(45, 32)	/* word 1 */
#define IRDMA_CQPQP_TERMLEN		GENMASK_ULL(51, 48)	/* word 1 */
#define IRDMA_CQPQP_QPID		GENMASK_ULL(23, 0)
#define IRDMA_CQPQP_ORDVALID		BIT_ULL(42)
#define IRDMA_CQPQP_TOECTXVALID		BIT_ULL(43)
#define IRDMA_CQPQP_CACHEDVARVALID	BIT_ULL(44)
#define IRDMA_CQPQP_VQ			BIT_ULL(45)
#define IRDMA_CQPQP_FORCELOOPBACK	BIT_ULL(46)
#define IRDMA_CQPQP_CQNUMVALID		BIT_ULL(47)
#define IRDMA_CQPQP_QPTYPE		GENMASK_ULL(50, 48)
#define IRDMA_CQPQP_MACVALID		BIT_ULL(51)
#define IRDMA_CQPQP_MSSCHANGE		BIT_ULL(52)
#define IRDMA_CQPQP_IGNOREMWBOUND	BIT_ULL(54)
#define IRDMA_CQPQP_REMOVEHASHENTRY	BIT_ULL(55)
#define IRDMA_CQPQP_TERMACT		GENMASK_ULL(57, 56)
#define IRDMA_CQPQP_RESETCON		BIT_ULL(58)
#define IRDMA_CQPQP_ARPTABIDXVALID	BIT_ULL(59)
#define IRDMA_CQPQP_NEXTIWSTATE		GENMASK_ULL(62, 60)

/* QP types (CQPQP_QPTYPE) */
#define IRDMA_QPTYPE_IWARP		1
#define IRDMA_QPTYPE_UDA		2
#define IRDMA_QPTYPE_ROCE_RC		3
#define IRDMA_QPTYPE_ROCE_UD		4

/* Hardware QP states (CQPQP_NEXTIWSTATE, AEQE IWSTATE) */
#define IRDMA_QPS_INVALID		0
#define IRDMA_QPS_IDLE			1
#define IRDMA_QPS_RTS			2
#define IRDMA_QPS_CLOSING		3	/* SQD for RoCE */
#define IRDMA_QPS_RTR			4
#define IRDMA_QPS_TERMINATE		5
#define IRDMA_QPS_ERROR			6

/* Terminate actions (CQPQP_TERMACT) */
#define IRDMA_TERMACT_TERM_AND_FIN	0
#define IRDMA_TERMACT_TERM_ONLY		1
#define IRDMA_TERMACT_FIN_ONLY		2
#define IRDMA_TERMACT_NONE		3

/* ---- CREATE/MODIFY/DESTROY CQ (the CQ's hardware "context") --------- */
/*
 * word 0: CQ size in CQEs
 * word 1: CQ completion context >> 1 (returned in CEQEs)
 * word 2: shadow read threshold
 * word 4: CQ ring physical address (0 when virtually mapped)
 * word 5: shadow area physical address
 * word 6: first PBLE index (virtually mapped)
 * word 7: TPH value, VSI index
 */
#define IRDMA_CQPCQ_SIZE		GENMASK_ULL(20, 0)	/* word 0 */
#define IRDMA_CQPCQ_SHADOW_THRESH	GENMASK_ULL(17, 0)	/* word 2 */
#define IRDMA_CQPCQ_FIRST_PBLE		GENMASK_ULL(27, 0)	/* word 6 */
#define IRDMA_CQPCQ_CQID		GENMASK_ULL(18, 0)
#define IRDMA_CQPCQ_CQID_G1		GENMASK_ULL(15, 0)
#define IRDMA_CQPCQ_CEQID		GENMASK_ULL(31, 22)
#define IRDMA_CQPCQ_CEQID_G1		GENMASK_ULL(30, 24)
#define IRDMA_CQPCQ_RESIZE		BIT_ULL(43)
#define IRDMA_CQPCQ_LPBLSIZE		GENMASK_ULL(45, 44)
#define IRDMA_CQPCQ_CHKOVERFLOW		BIT_ULL(46)
#define IRDMA_CQPCQ_VIRTMAP		BIT_ULL(47)
#define IRDMA_CQPCQ_ENCEQEMASK		BIT_ULL(48)
#define IRDMA_CQPCQ_CEQIDVALID		BIT_ULL(49)
#define IRDMA_CQPCQ_AVOIDMEMCNFLCT	BIT_ULL(61)

/* ---- CREATE/DESTROY CEQ and AEQ ------------------------------------- */
/*
 * word 2: element count
 * word 4: ring physical address (0 when virtually mapped)
 * word 6: first PBLE index (virtually mapped)
 * word 7: TPH value, VSI index (CEQ)
 */
#define IRDMA_CQPCEQ_ELEMCNT		GENMASK_ULL(21, 0)	/* word 2 */
#define IRDMA_CQPCEQ_CEQID		GENMASK_ULL(9, 0)
#define IRDMA_CQPCEQ_LPBLSIZE		GENMASK_ULL(45, 44)
#define IRDMA_CQPCEQ_ITRNOEXPIRE	BIT_ULL(46)
#define IRDMA_CQPCEQ_VMAP		BIT_ULL(47)
#define IRDMA_CQPAEQ_ELEMCNT		GENMASK_ULL(18, 0)	/* word 2 */
#define IRDMA_CQPAEQ_LPBLSIZE		GENMASK_ULL(45, 44)
#define IRDMA_CQPAEQ_VMAP		BIT_ULL(47)
#define IRDMA_CQPQ_FIRST_PBLE		GENMASK_ULL(27, 0)	/* word 6 */

/* ---- STag: ALLOC_STAG, REG_MR, DEALLOC_STAG, MW alloc --------------- */
/*
 * word 0: VA or first-byte offset (REG_MR)
 * word 1: length (45:0) and PD id (gen2 63:46, gen1 62:48)
 * word 2: key (7:0) and index (31:8) of the STag
 * word 4: physical address of the buffer or of the level-1 PBL
 * word 5: HMC function index
 * word 6: first PBLE index
 */
#define IRDMA_CQPSTAG_LEN		GENMASK_ULL(45, 0)	/* word 1 */
#define IRDMA_CQPSTAG_PDID		GENMASK_ULL(63, 46)	/* word 1 */
#define IRDMA_CQPSTAG_PDID_G1		GENMASK_ULL(62, 48)	/* word 1 */
#define IRDMA_CQPSTAG_KEY		GENMASK_ULL(7, 0)	/* word 2 */
#define IRDMA_CQPSTAG_IDX		GENMASK_ULL(31, 8)	/* word 2 */
#define IRDMA_CQPSTAG_PARENTIDX		GENMASK_ULL(55, 32)	/* word 2 */
#define IRDMA_CQPSTAG_HMCFNIDX		GENMASK_ULL(5, 0)	/* word 5 */
#define IRDMA_CQPSTAG_FIRST_PBLE	GENMASK_ULL(27, 0)	/* word 6 */
#define IRDMA_CQPSTAG_MWTYPE		BIT_ULL(42)
#define IRDMA_CQPSTAG_MR		BIT_ULL(43)
#define IRDMA_CQPSTAG_LPBLSIZE		GENMASK_ULL(45, 44)
/*
 * The page-list depth of an STag, in IRDMA_CQPSTAG_LPBLSIZE and in the fast
 * register WQE's IRDMA_SQWQE_LPBLSIZE: a two-level list is coded 3, not 2
 * (2 is reserved). irdma_lpbl_code() below does the mapping.
 */
#define IRDMA_CQPSTAG_HPAGESIZE		GENMASK_ULL(47, 46)
#define IRDMA_CQPSTAG_ARIGHTS		GENMASK_ULL(52, 48)
#define IRDMA_CQPSTAG_REMACCENABLED	BIT_ULL(53)
#define IRDMA_CQPSTAG_MW1_NO_KEY_CHECK	BIT_ULL(58)
#define IRDMA_CQPSTAG_VABASEDTO		BIT_ULL(59)
#define IRDMA_CQPSTAG_USEHMCFNIDX	BIT_ULL(60)
#define IRDMA_CQPSTAG_USEPFRID		BIT_ULL(61)

/* Access rights (CQPSTAG_ARIGHTS, SQWQE_STAGRIGHTS) */
#define IRDMA_ACCESS_LOCAL_READ		BIT(0)
#define IRDMA_ACCESS_LOCAL_WRITE	BIT(1)
#define IRDMA_ACCESS_REMOTE_READ	BIT(2)
#define IRDMA_ACCESS_REMOTE_WRITE	BIT(3)
#define IRDMA_ACCESS_MW_BIND		BIT(4)

/* Page sizes (HPAGESIZE) */
#define IRDMA_PAGE_SIZE_4K		0
#define IRDMA_PAGE_SIZE_2M		1
#define IRDMA_PAGE_SIZE_1G		2

/* ---- MANAGE_ARP ------------------------------------------------------ */
/* word 1: reach max; word 2: MAC (47:0); word 3: header */
#define IRDMA_CQPARP_IDX		GENMASK_ULL(11, 0)
#define IRDMA_CQPARP_ENTRYVALID		BIT_ULL(42)
#define IRDMA_CQPARP_PERMANENT		BIT_ULL(43)
#define IRDMA_CQPARP_QUERY		BIT_ULL(44)
#define IRDMA_CQPARP_MAC		GENMASK_ULL(47, 0)	/* word 2 */

/* ---- MANAGE_APBVT ---------------------------------------------------- */
/* word 2: TCP port; word 3: header */
#define IRDMA_CQPAPBVT_PORT		GENMASK_ULL(15, 0)	/* word 2 */
#define IRDMA_CQPAPBVT_ADD		BIT_ULL(62)

/* ---- MANAGE_QHASH ---------------------------------------------------- */
/*
 * word 0: local MAC (47:0)
 * word 1: QP number (49:32), source port (31:16), dest port (15:0)
 * word 2: QS handle (9:0), VLAN id (43:32)
 * word 4: local address word 3 (31:0) and word 2 (63:32) for IPv6,
 *	   or the IPv4 address in 31:0
 * word 5: local address words 1 (31:0) and 0 (63:32), IPv6 only
 * word 6: remote address, as word 4
 * word 7: remote address, as word 5
 * word 3: header
 * "dest" is the local end of the connection, "src" the remote one.
 */
#define IRDMA_CQPQH_MAC			GENMASK_ULL(47, 0)	/* word 0 */
#define IRDMA_CQPQH_DEST_PORT		GENMASK_ULL(15, 0)	/* word 1 */
#define IRDMA_CQPQH_SRC_PORT		GENMASK_ULL(31, 16)	/* word 1 */
#define IRDMA_CQPQH_QPN			GENMASK_ULL(49, 32)	/* word 1 */
#define IRDMA_CQPQH_QS_HANDLE		GENMASK_ULL(9, 0)	/* word 2 */
#define IRDMA_CQPQH_VLANID		GENMASK_ULL(43, 32)	/* word 2 */
#define IRDMA_CQPQH_ADDR_LO		GENMASK_ULL(31, 0)
#define IRDMA_CQPQH_ADDR_HI		GENMASK_ULL(63, 32)
#define IRDMA_CQPQH_ENTRYTYPE		GENMASK_ULL(44, 42)
#define IRDMA_CQPQH_VLANVALID		BIT_ULL(59)
#define IRDMA_CQPQH_IPV4VALID		BIT_ULL(60)
#define IRDMA_CQPQH_MANAGE		GENMASK_ULL(62, 61)

#define IRDMA_QHASH_TYPE_TCP_ESTABLISHED	1
#define IRDMA_QHASH_TYPE_TCP_SYN		2
#define IRDMA_QHASH_MANAGE_DELETE		0
#define IRDMA_QHASH_MANAGE_ADD			1
#define IRDMA_QHASH_MANAGE_MODIFY		2

/* ---- Local MAC table -------------------------------------------------- */
/* ALLOC_LOC_MAC: header only. MANAGE_LOC_MAC: word 4 = MAC (47:0) */
#define IRDMA_CQPMLM_TABLEIDX		GENMASK_ULL(5, 0)
#define IRDMA_CQPMLM_IGNORE_REF_CNT	BIT_ULL(61)
#define IRDMA_CQPMLM_FREEENTRY		BIT_ULL(62)

/* ---- Address handle (CREATE/MODIFY/DESTROY_AH) ----------------------- */
/*
 * word 0: destination MAC in 63:16
 * word 1: PD index low (63:48), traffic class (39:32), VLAN tag (15:0)
 * word 2: ARP index (63:48), hop limit (39:32), PD index high (21:20),
 *	   flow label (19:0)
 * word 4: dest address [2] 63:32, [3] 31:0 (IPv4: 31:0)
 * word 5: dest address [0] 63:32, [1] 31:0 (IPv6 only)
 * word 6: source address as word 4; word 7: as word 5
 * word 3: header
 */
#define IRDMA_CQPAH_MAC			GENMASK_ULL(63, 16)	/* word 0 */
#define IRDMA_CQPAH_VLANTAG		GENMASK_ULL(15, 0)	/* word 1 */
#define IRDMA_CQPAH_TC			GENMASK_ULL(39, 32)	/* word 1 */
#define IRDMA_CQPAH_PDIDX_LO		GENMASK_ULL(63, 48)	/* word 1 */
#define IRDMA_CQPAH_FLOWLABEL		GENMASK_ULL(19, 0)	/* word 2 */
#define IRDMA_CQPAH_PDIDX_HI		GENMASK_ULL(21, 20)	/* word 2 */
#define IRDMA_CQPAH_HOPLIMIT		GENMASK_ULL(39, 32)	/* word 2 */
#define IRDMA_CQPAH_ARPIDX		GENMASK_ULL(63, 48)	/* word 2 */
#define IRDMA_CQPAH_IDX			GENMASK_ULL(16, 0)
#define IRDMA_CQPAH_IPV4VALID		BIT_ULL(59)
#define IRDMA_CQPAH_INSERTVLANTAG	BIT_ULL(60)
#define IRDMA_CQPAH_DOLOOPBACK		BIT_ULL(62)

/* ---- Multicast groups (CREATE/MODIFY/DESTROY_MCAST_GRP) -------------- */
/*
 * word 0: the group's destination MAC (47:0)
 * word 1: HMC function id (5:0)
 * word 4: address of the member list, IRDMA_MCG_MAX_QPS words, 8-byte
 *	   aligned: the valid entries first, one per member QP
 * word 6: group address [2] 63:32, [3] 31:0 (IPv4: 31:0)
 * word 7: group address [0] 63:32, [1] 31:0 (IPv6 only)
 * word 3: header
 */
#define IRDMA_CQPMCG_MAC		GENMASK_ULL(47, 0)	/* word 0 */
#define IRDMA_CQPMCG_HMCFNID		GENMASK_ULL(5, 0)	/* word 1 */
#define IRDMA_CQPMCG_IDX		GENMASK_ULL(12, 0)
#define IRDMA_CQPMCG_IPV4VALID		BIT_ULL(60)
/* a member list entry */
#define IRDMA_MCGE_QPID			GENMASK_ULL(17, 0)
#define IRDMA_MCGE_VALID		BIT_ULL(31)
#define IRDMA_MCG_MAX_QPS		8

/* ---- HMC: commit/query FPM, function table, update SDs --------------- */
/*
 * QUERY/COMMIT_FPM_VAL: word 2 = HMC function id, word 4 = buffer address
 * (4-byte aligned), header word 3 carries the buffer size (COMMIT).
 */
#define IRDMA_CQPFPM_HMCFNID		GENMASK_ULL(5, 0)	/* word 2 */
#define IRDMA_CQPHMCFN_VFIDX		GENMASK_ULL(15, 0)
#define IRDMA_CQPHMCFN_FREEPMFN		BIT_ULL(62)
/*
 * UPDATE_PE_SDS: up to three SD entries in the WQE (cmd, data pairs in
 * words 0/1, 4/5, 6/7), the rest in a host buffer whose address is in
 * word 2 together with the HMC function id.
 */
#define IRDMA_CQPSDS_HMCFNID		GENMASK_ULL(5, 0)	/* word 2 */
#define IRDMA_CQPSDS_BUF_ADDR		GENMASK_ULL(63, 6)	/* word 2 */
#define IRDMA_CQPSDS_SDCMD		GENMASK_ULL(31, 0)
#define IRDMA_CQPSDS_ENTRY_VALID	BIT_ULL(63)
#define IRDMA_CQPSDS_ENTRY_COUNT	GENMASK_ULL(3, 0)	/* header */
#define IRDMA_CQPSDS_SKIP_ENTRY		BIT_ULL(7)		/* header */

/* FPM commit buffer word: object count low, base / 512 in 63:32 */
#define IRDMA_FPM_COMMIT_BASE		GENMASK_ULL(63, 32)
#define IRDMA_FPM_COMMIT_QPCNT		GENMASK_ULL(18, 0)
#define IRDMA_FPM_COMMIT_CQCNT		GENMASK_ULL(19, 0)
#define IRDMA_FPM_COMMIT_CQCNT_G1	GENMASK_ULL(17, 0)
#define IRDMA_FPM_BASE_UNIT		512
/* FPM query buffer word: max count low, log2 object size in 63:32 */
#define IRDMA_FPM_QUERY_MAXCNT		GENMASK_ULL(31, 0)
#define IRDMA_FPM_QUERY_SIZE_LOG2	GENMASK_ULL(63, 32)
#define IRDMA_FPM_QUERY_FIRST_SD	GENMASK_ULL(13, 0)	/* word 0 */
#define IRDMA_FPM_QUERY_MAX_SDS		GENMASK_ULL(45, 32)	/* word 0 */
#define IRDMA_FPM_QUERY_MISC_WORD	15
#define IRDMA_FPM_QUERY_MAX_CEQS	GENMASK_ULL(9, 0)	/* word 15 */

/* Segment descriptor (SD) entry data and command, PD entries */
#define IRDMA_SD_DATA_VALID		BIT_ULL(0)
#define IRDMA_SD_DATA_DIRECT		BIT_ULL(1)	/* 0 = paged */
#define IRDMA_SD_DATA_BPCOUNT		GENMASK_ULL(11, 2)
#define IRDMA_SD_DATA_ADDR		GENMASK_ULL(63, 12)
#define IRDMA_SD_CMD_IDX		GENMASK(11, 0)
#define IRDMA_SD_CMD_PARTSEL		BIT(15)
#define IRDMA_SD_CMD_WRITE		BIT(31)
#define IRDMA_PD_ENTRY_VALID		BIT_ULL(0)
#define IRDMA_PD_ENTRY_ADDR		GENMASK_ULL(63, 12)

/* ---- FLUSH_WQES and GEN_AE ------------------------------------------- */
/*
 * word 1: AE code (15:0) and source (19:16) when GENERATE_AE is set
 * word 2: RQ minor/major (31:0), SQ minor/major (63:32) flush codes
 * word 3: header with the QP id in 23:0
 */
#define IRDMA_CQPFL_AECODE		GENMASK_ULL(15, 0)	/* word 1 */
#define IRDMA_CQPFL_AESRC		GENMASK_ULL(19, 16)	/* word 1 */
#define IRDMA_CQPFL_RQMNERR		GENMASK_ULL(15, 0)	/* word 2 */
#define IRDMA_CQPFL_RQMJERR		GENMASK_ULL(31, 16)	/* word 2 */
#define IRDMA_CQPFL_SQMNERR		GENMASK_ULL(47, 32)	/* word 2 */
#define IRDMA_CQPFL_SQMJERR		GENMASK_ULL(63, 48)	/* word 2 */
#define IRDMA_CQPFL_GENERATE_AE		BIT_ULL(59)
#define IRDMA_CQPFL_USERFLCODE		BIT_ULL(60)
#define IRDMA_CQPFL_FLUSHSQ		BIT_ULL(61)
#define IRDMA_CQPFL_FLUSHRQ		BIT_ULL(62)

/* ---- UPLOAD_CONTEXT, SUSPEND/RESUME QP ------------------------------- */
/* UPLOAD: word 2 = buffer address. RESUME: word 2 = QS handle */
#define IRDMA_CQPUC_QPTYPE		GENMASK_ULL(51, 48)
#define IRDMA_CQPUC_RAWFORMAT		BIT_ULL(61)
#define IRDMA_CQPUC_FREEZEQP		BIT_ULL(62)
#define IRDMA_CQPRES_QSHANDLE		GENMASK_ULL(31, 0)	/* word 2 */

/* ---- Statistics (MANAGE_STATS, GATHER_STATS) ------------------------- */
/* word 4: gather buffer address; word 5: HMC function index */
#define IRDMA_CQPST_HMCFNIDX		GENMASK_ULL(5, 0)	/* word 5 */
#define IRDMA_CQPST_INST_IDX		GENMASK_ULL(6, 0)
#define IRDMA_CQPST_USE_HMCFNIDX	BIT_ULL(60)
#define IRDMA_CQPST_USE_INST		BIT_ULL(61)
#define IRDMA_CQPST_ALLOC_INST		BIT_ULL(62)

/*
 * The counters of the GATHER_STATS block (Documentation/hw-interface.rst);
 * where each one lies, and its width, is in hw.c.
 */
#define IRDMA_GATHER_BUF_SIZE		1024

enum irdma_hw_counter {
	IRDMA_HWC_RX_VLAN_ERR,
	IRDMA_HWC_IP4_RX_OCTETS,
	IRDMA_HWC_IP4_RX_PKTS,
	IRDMA_HWC_IP4_RX_TRUNC,
	IRDMA_HWC_IP4_RX_DISCARD,
	IRDMA_HWC_IP4_RX_FRAGS,
	IRDMA_HWC_IP4_RX_MC_OCTETS,
	IRDMA_HWC_IP4_RX_MC_PKTS,
	IRDMA_HWC_IP6_RX_OCTETS,
	IRDMA_HWC_IP6_RX_PKTS,
	IRDMA_HWC_IP6_RX_TRUNC,
	IRDMA_HWC_IP6_RX_DISCARD,
	IRDMA_HWC_IP6_RX_FRAGS,
	IRDMA_HWC_IP6_RX_MC_OCTETS,
	IRDMA_HWC_IP6_RX_MC_PKTS,
	IRDMA_HWC_IP4_TX_OCTETS,
	IRDMA_HWC_IP4_TX_PKTS,
	IRDMA_HWC_IP4_TX_FRAGS,
	IRDMA_HWC_IP4_TX_MC_OCTETS,
	IRDMA_HWC_IP4_TX_MC_PKTS,
	IRDMA_HWC_IP6_TX_OCTETS,
	IRDMA_HWC_IP6_TX_PKTS,
	IRDMA_HWC_IP6_TX_FRAGS,
	IRDMA_HWC_IP6_TX_MC_OCTETS,
	IRDMA_HWC_IP6_TX_MC_PKTS,
	IRDMA_HWC_IP6_TX_NO_ROUTE,
	IRDMA_HWC_IP4_TX_NO_ROUTE,
	IRDMA_HWC_TCP_RX_SEGS,
	IRDMA_HWC_TCP_RX_PROTO_ERR,
	IRDMA_HWC_TCP_RX_OPT_ERR,
	IRDMA_HWC_TCP_TX_SEGS,
	IRDMA_HWC_TCP_RTX_SEGS,
	IRDMA_HWC_UDP_RX,
	IRDMA_HWC_UDP_TX,
	IRDMA_HWC_RDMA_RX_WRITES,
	IRDMA_HWC_RDMA_RX_READS,
	IRDMA_HWC_RDMA_RX_SENDS,
	IRDMA_HWC_RDMA_TX_WRITES,
	IRDMA_HWC_RDMA_TX_READS,
	IRDMA_HWC_RDMA_TX_SENDS,
	IRDMA_HWC_MW_BINDS,
	IRDMA_HWC_INVALIDATES,
	IRDMA_HWC_RX_ECN_MARKED,
	IRDMA_HWC_CNP_HANDLED,
	IRDMA_HWC_CNP_IGNORED,
	IRDMA_HWC_CNP_SENT,
	IRDMA_HWC_COUNT
};

/* ---- WORK_SCHED_NODE -------------------------------------------------- */
/* word 4: VSI (57:48), weight (38:32) */
#define IRDMA_CQPWS_VSI			GENMASK_ULL(57, 48)	/* word 4 */
#define IRDMA_CQPWS_WEIGHT		GENMASK_ULL(38, 32)	/* word 4 */
#define IRDMA_CQPWS_NODEID		GENMASK_ULL(9, 0)
#define IRDMA_CQPWS_PARENTID		GENMASK_ULL(25, 16)
#define IRDMA_CQPWS_VMVFNUM		GENMASK_ULL(51, 42)
#define IRDMA_CQPWS_NODEOP		GENMASK_ULL(53, 52)
#define IRDMA_CQPWS_VMVFTYPE		GENMASK_ULL(55, 54)
#define IRDMA_CQPWS_TC			GENMASK_ULL(58, 56)
#define IRDMA_CQPWS_PRIOTYPE		GENMASK_ULL(60, 59)
#define IRDMA_CQPWS_NODETYPE		BIT_ULL(61)	/* 1 = leaf */
#define IRDMA_CQPWS_ENABLENODE		BIT_ULL(62)

#define IRDMA_WS_OP_ADD			0
#define IRDMA_WS_OP_MODIFY		1
#define IRDMA_WS_OP_DELETE		2

/* ---- CQP completion (CCQ) and CQ elements (32 bytes, 4 words) -------- */
/*
 * word 0: payload length (31:0), TCP seq or RTT (63:32)
 * word 1: completion context (QP pointer, or the CQP for the CCQ)
 * word 2: op return value (CCQ) / invalidated STag (31:0), QP id (55:32)
 * word 3: minor (15:0), major (31:16), WQE index (46:32), flags, valid
 * An extended CQE (gen2, 64 bytes) adds words 4..7: immediate data in
 * word 4, UD source MAC (47:0) and VLAN (63:48) in word 6, flags in word 7.
 */
#define IRDMA_CQE_PAYLDLEN		GENMASK_ULL(31, 0)	/* word 0 */
#define IRDMA_CQE_TCPSEQ_RTT		GENMASK_ULL(63, 32)	/* word 0 */
#define IRDMA_CQE_OPRETVAL		GENMASK_ULL(31, 0)	/* word 2 */
#define IRDMA_CQE_INVSTAG		GENMASK_ULL(31, 0)	/* word 2 */
#define IRDMA_CQE_UDSRCQPN		GENMASK_ULL(31, 0)	/* word 2 */
#define IRDMA_CQE_QPID			GENMASK_ULL(55, 32)	/* word 2 */
#define IRDMA_CQE_MINERR		GENMASK_ULL(15, 0)
#define IRDMA_CQE_MAJERR		GENMASK_ULL(31, 16)
#define IRDMA_CQE_WQEIDX		GENMASK_ULL(46, 32)
#define IRDMA_CQE_EXTCQE		BIT_ULL(50)
#define IRDMA_CQE_VLANVALID_G1		BIT_ULL(50)	/* gen1 raw queue RQ */
#define IRDMA_CQE_L3PROTO_G1		GENMASK_ULL(1, 0)	/* word 2 */
#define IRDMA_CQE_PSHDROP		BIT_ULL(51)
#define IRDMA_CQE_STAG_IPV4		BIT_ULL(53)	/* RQ: STag invalidated */
#define IRDMA_CQE_OOO_SOEVENT		BIT_ULL(54)
#define IRDMA_CQE_ERROR			BIT_ULL(55)
#define IRDMA_CQE_OP			GENMASK_ULL(61, 56)
#define IRDMA_CQE_SQ			BIT_ULL(62)
#define IRDMA_CQE_VALID			BIT_ULL(63)
#define IRDMA_CQE_IMM_LO		GENMASK_ULL(31, 0)	/* word 4 */
#define IRDMA_CQE_UDSMAC		GENMASK_ULL(47, 0)	/* word 6 */
#define IRDMA_CQE_UDVLAN		GENMASK_ULL(63, 48)	/* word 6 */
#define IRDMA_CQE_UDVLANVALID		BIT_ULL(60)		/* word 7 */
#define IRDMA_CQE_UDSMACVALID		BIT_ULL(61)		/* word 7 */
#define IRDMA_CQE_IMMVALID		BIT_ULL(62)		/* word 7 */

/* CQE major error meaning "flushed"; CCQ major error codes */
#define IRDMA_CQE_MAJ_FLUSH		1
#define IRDMA_CCQ_MAJ_NO_ERROR		0x0000
#define IRDMA_CCQ_MAJ_OBJCACHE_ERROR	0xf000
#define IRDMA_CCQ_MAJ_CNTXTCACHE_ERROR	0xf001
#define IRDMA_CCQ_MAJ_ERROR		0xffff
#define IRDMA_CCQ_MIN_STAG_INVALID	0x0001
#define IRDMA_CCQ_MIN_SUSPEND_PND	0x0005

/* ---- CEQ element (8 bytes) ------------------------------------------- */
/* bits 62:0 hold the CQ completion context >> 1 given at create */
#define IRDMA_CEQE_CQCTX		GENMASK_ULL(62, 0)
#define IRDMA_CEQE_VALID		BIT_ULL(63)

/* ---- AEQ element (16 bytes) ------------------------------------------ */
/*
 * word 0: completion context (QP or CQ context given at create)
 * word 1: QP/CQ id (17:0 plus bit 46 as bit 18), WQE index, code, source,
 *	   iWARP and TCP state, Q2 data, valid
 */
#define IRDMA_AEQE_QPCQID_LO		GENMASK_ULL(17, 0)
#define IRDMA_AEQE_WQDESCIDX		GENMASK_ULL(32, 18)
#define IRDMA_AEQE_OVERFLOW		BIT_ULL(33)
#define IRDMA_AEQE_AECODE		GENMASK_ULL(45, 34)
#define IRDMA_AEQE_QPCQID_HI		BIT_ULL(46)
#define IRDMA_AEQE_AESRC		GENMASK_ULL(53, 50)
#define IRDMA_AEQE_IWSTATE		GENMASK_ULL(56, 54)
#define IRDMA_AEQE_TCPSTATE		GENMASK_ULL(60, 57)
#define IRDMA_AEQE_Q2DATA		GENMASK_ULL(62, 61)
#define IRDMA_AEQE_VALID		BIT_ULL(63)
/* Q2DATA value: the frame the event is about is in the QP's Q2 */
#define IRDMA_AEQ_Q2_FRAME		1

/*
 * ---- Q2: a QP's 256-byte buffer (host context word 18) ----
 * At offset 0 the driver writes the TERMINATE message a MODIFY_QP to
 * TERMINATE sends (its length, in 4-byte words, in the command's
 * TERMLEN). At IRDMA_Q2_FRAME_OFF the engine writes the received frame
 * an AE is about (Q2DATA set): its Ethernet, IP and TCP headers, then
 * the FPDU at fault, cut at the end of the buffer.
 */
#define IRDMA_Q2_BYTES			256
#define IRDMA_Q2_FRAME_OFF		72

/*
 * TERMINATE control word (RFC 5040, 4.8): layer and error type in byte 0,
 * error code in byte 1, which headers of the terminated segment follow in
 * byte 2. Layers and error types from RFC 5040, 7, RFC 5041, 7.2 and RFC
 * 5044, 8.
 */
#define IRDMA_TERM_CTRL_BYTES		4
#define IRDMA_TERM_HDRCT_M		0x80	/* its DDP segment length */
#define IRDMA_TERM_HDRCT_D		0x40	/* its DDP header */
#define IRDMA_TERM_HDRCT_R		0x20	/* its RDMAP header */
#define IRDMA_TERM_RDMAP_LOCAL		0x00	/* RDMAP, local catastrophic */
#define IRDMA_TERM_RDMAP_PROT		0x01	/* RDMAP, remote protection */
#define IRDMA_TERM_RDMAP_OP		0x02	/* RDMAP, remote operation */
#define IRDMA_TERM_DDP_CATASTROPHIC	0x10
#define IRDMA_TERM_DDP_TAGGED		0x11	/* DDP, tagged buffer */
#define IRDMA_TERM_DDP_UNTAGGED		0x12	/* DDP, untagged buffer */
#define IRDMA_TERM_MPA			0x20	/* LLP, MPA */

/* AE sources (AEQE_AESRC) */
#define IRDMA_AESRC_RSVD		0x0
#define IRDMA_AESRC_RQ			0x1
#define IRDMA_AESRC_CQ			0x2
#define IRDMA_AESRC_RQ_0011		0x3
#define IRDMA_AESRC_SQ			0x5
#define IRDMA_AESRC_CQ_0110		0x6
#define IRDMA_AESRC_SQ_0111		0x7
#define IRDMA_AESRC_IN_RR_WR		0x9
#define IRDMA_AESRC_CQ_1010		0xa
#define IRDMA_AESRC_IN_RR_WR_1011	0xb
#define IRDMA_AESRC_OUT_RR		0xd
#define IRDMA_AESRC_CQ_1110		0xe
#define IRDMA_AESRC_OUT_RR_1111		0xf

/* TCP states (AEQE_TCPSTATE, QPC_TCPSTATE) */
#define IRDMA_TCPS_NON_EXISTENT		0
#define IRDMA_TCPS_CLOSED		1
#define IRDMA_TCPS_LISTEN		2
#define IRDMA_TCPS_SYN_SENT		3
#define IRDMA_TCPS_SYN_RCVD		4
#define IRDMA_TCPS_ESTABLISHED		5
#define IRDMA_TCPS_CLOSE_WAIT		6
#define IRDMA_TCPS_FIN_WAIT_1		7
#define IRDMA_TCPS_CLOSING		8
#define IRDMA_TCPS_LAST_ACK		9
#define IRDMA_TCPS_FIN_WAIT_2		10
#define IRDMA_TCPS_TIME_WAIT		11

/*
 * enum irdma_ae_code - asynchronous event codes (AEQE_AECODE)
 */
enum irdma_ae_code {
	IRDMA_AE_AMP_UNALLOCATED_STAG			= 0x0102,
	IRDMA_AE_AMP_INVALID_STAG			= 0x0103,
	IRDMA_AE_AMP_BAD_QP				= 0x0104,
	IRDMA_AE_AMP_BAD_PD				= 0x0105,
	IRDMA_AE_AMP_BAD_STAG_KEY			= 0x0106,
	IRDMA_AE_AMP_BAD_STAG_INDEX			= 0x0107,
	IRDMA_AE_AMP_BOUNDS_VIOLATION			= 0x0108,
	IRDMA_AE_AMP_RIGHTS_VIOLATION			= 0x0109,
	IRDMA_AE_AMP_TO_WRAP				= 0x010a,
	IRDMA_AE_AMP_FASTREG_VALID_STAG			= 0x010c,
	IRDMA_AE_AMP_FASTREG_MW_STAG			= 0x010d,
	IRDMA_AE_AMP_FASTREG_INVALID_RIGHTS		= 0x010e,
	IRDMA_AE_AMP_FASTREG_INVALID_LENGTH		= 0x0110,
	IRDMA_AE_AMP_INVALIDATE_SHARED			= 0x0111,
	IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS	= 0x0112,
	IRDMA_AE_AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS	= 0x0113,
	IRDMA_AE_AMP_MWBIND_VALID_STAG			= 0x0114,
	IRDMA_AE_AMP_MWBIND_OF_MR_STAG			= 0x0115,
	IRDMA_AE_AMP_MWBIND_TO_ZERO_BASED_STAG		= 0x0116,
	IRDMA_AE_AMP_MWBIND_TO_MW_STAG			= 0x0117,
	IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS		= 0x0118,
	IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS		= 0x0119,
	IRDMA_AE_AMP_MWBIND_TO_INVALID_PARENT		= 0x011a,
	IRDMA_AE_AMP_MWBIND_BIND_DISABLED		= 0x011b,
	IRDMA_AE_PRIV_OPERATION_DENIED			= 0x011c,
	IRDMA_AE_AMP_INVALIDATE_TYPE1_MW		= 0x011d,
	IRDMA_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW		= 0x011e,
	IRDMA_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG	= 0x011f,
	IRDMA_AE_AMP_MWBIND_WRONG_TYPE			= 0x0120,
	IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH		= 0x0121,
	IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG		= 0x0132,
	IRDMA_AE_UDA_XMIT_BAD_PD			= 0x0133,
	IRDMA_AE_UDA_XMIT_DGRAM_TOO_SHORT		= 0x0134,
	IRDMA_AE_UDA_L4LEN_INVALID			= 0x0135,
	IRDMA_AE_BAD_CLOSE				= 0x0201,
	IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE		= 0x0202,
	IRDMA_AE_CQ_OPERATION_ERROR			= 0x0203,
	IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO		= 0x0205,
	IRDMA_AE_STAG_ZERO_INVALID			= 0x0206,
	IRDMA_AE_IB_RREQ_AND_Q1_FULL			= 0x0207,
	IRDMA_AE_IB_INVALID_REQUEST			= 0x0208,
	IRDMA_AE_WQE_UNEXPECTED_OPCODE			= 0x020a,
	IRDMA_AE_WQE_INVALID_PARAMETER			= 0x020b,
	IRDMA_AE_WQE_INVALID_FRAG_DATA			= 0x020c,
	IRDMA_AE_IB_REMOTE_ACCESS_ERROR			= 0x020d,
	IRDMA_AE_IB_REMOTE_OP_ERROR			= 0x020e,
	IRDMA_AE_WQE_LSMM_TOO_LONG			= 0x0220,
	IRDMA_AE_INVALID_REQUEST			= 0x0223,
	IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN		= 0x0301,
	IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER = 0x0303,
	IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION		= 0x0304,
	IRDMA_AE_DDP_UBE_INVALID_MO			= 0x0305,
	IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE = 0x0306,
	IRDMA_AE_DDP_UBE_INVALID_QN			= 0x0307,
	IRDMA_AE_DDP_NO_L_BIT				= 0x0308,
	IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION	= 0x0311,
	IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE		= 0x0312,
	IRDMA_AE_ROE_INVALID_RDMA_READ_REQUEST		= 0x0313,
	IRDMA_AE_ROE_INVALID_RDMA_WRITE_OR_READ_RESP	= 0x0314,
	IRDMA_AE_ROCE_RSP_LENGTH_ERROR			= 0x0316,
	IRDMA_AE_ROCE_EMPTY_MCG				= 0x0380,
	IRDMA_AE_ROCE_BAD_MC_IP_ADDR			= 0x0381,
	IRDMA_AE_ROCE_BAD_MC_QPID			= 0x0382,
	IRDMA_AE_MCG_QP_PROTOCOL_MISMATCH		= 0x0383,
	IRDMA_AE_INVALID_ARP_ENTRY			= 0x0401,
	IRDMA_AE_INVALID_TCP_OPTION_RCVD		= 0x0402,
	IRDMA_AE_STALE_ARP_ENTRY			= 0x0403,
	IRDMA_AE_INVALID_AH_ENTRY			= 0x0406,
	IRDMA_AE_LLP_CLOSE_COMPLETE			= 0x0501,
	IRDMA_AE_LLP_CONNECTION_RESET			= 0x0502,
	IRDMA_AE_LLP_FIN_RECEIVED			= 0x0503,
	IRDMA_AE_LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH = 0x0504,
	IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR		= 0x0505,
	IRDMA_AE_LLP_SEGMENT_TOO_SMALL			= 0x0507,
	IRDMA_AE_LLP_SYN_RECEIVED			= 0x0508,
	IRDMA_AE_LLP_TERMINATE_RECEIVED			= 0x0509,
	IRDMA_AE_LLP_TOO_MANY_RETRIES			= 0x050a,
	IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES		= 0x050b,
	IRDMA_AE_LLP_DOUBT_REACHABILITY			= 0x050c,
	IRDMA_AE_LLP_CONNECTION_ESTABLISHED		= 0x050e,
	IRDMA_AE_LLP_TOO_MANY_RNRS			= 0x050f,
	IRDMA_AE_RESOURCE_EXHAUSTION			= 0x0520,
	IRDMA_AE_RESET_SENT				= 0x0601,
	IRDMA_AE_TERMINATE_SENT				= 0x0602,
	IRDMA_AE_RESET_NOT_SENT				= 0x0603,
	IRDMA_AE_LCE_QP_CATASTROPHIC			= 0x0700,
	IRDMA_AE_LCE_FUNCTION_CATASTROPHIC		= 0x0701,
	IRDMA_AE_LCE_CQ_CATASTROPHIC			= 0x0702,
	IRDMA_AE_QP_SUSPEND_COMPLETE			= 0x0900,
};

/* ---- SQ and RQ WQEs (1..8 quanta of 32 bytes) ------------------------ */
/*
 * Quantum 0:
 * word 0: first fragment address, or immediate data, or inline data
 * word 1: first fragment length/STag/valid
 * word 2: remote address (RDMA) or Q key/dest QP (UD send), 0 otherwise
 * word 3: header
 * Each further quantum holds two fragments (words 0/1 and 2/3).
 */
#define IRDMA_SQWQE_REMSTAG		GENMASK_ULL(31, 0)	/* word 3 */
#define IRDMA_SQWQE_AHID		GENMASK_ULL(16, 0)	/* word 3, UD */
#define IRDMA_SQWQE_OPCODE		GENMASK_ULL(37, 32)
#define IRDMA_SQWQE_ADDFRAGCNT		GENMASK_ULL(41, 38)
#define IRDMA_SQWQE_L4LEN		GENMASK_ULL(45, 42)
#define IRDMA_SQWQE_REPORTRTT		BIT_ULL(46)
/* gen1 raw queue (ILQ) send of a complete frame: word 2, and header bit */
#define IRDMA_SQWQE_MACLEN_G1		GENMASK_ULL(62, 56)	/* 2-byte units */
#define IRDMA_SQWQE_IPLEN_G1		GENMASK_ULL(54, 48)	/* 4-byte units */
#define IRDMA_SQWQE_L4T_G1		GENMASK_ULL(31, 30)
#define IRDMA_SQWQE_IIPT_G1		GENMASK_ULL(29, 28)
#define IRDMA_SQWQE_L4LEN_G1		GENMASK_ULL(27, 24)
#define IRDMA_SQWQE_LOOPBACK_G1		BIT_ULL(44)
#define IRDMA_L4T_TCP_G1		1
#define IRDMA_IIPT_IPV6_G1		1
#define IRDMA_IIPT_IPV4_CSUM_G1		3
#define IRDMA_SQWQE_IMMDATAFLAG		BIT_ULL(47)
#define IRDMA_SQWQE_INLINELEN		GENMASK_ULL(55, 48)
#define IRDMA_SQWQE_PUSHWQE		BIT_ULL(56)
#define IRDMA_SQWQE_INLINEFLAG		BIT_ULL(57)
#define IRDMA_SQWQE_STREAMMODE		BIT_ULL(58)
#define IRDMA_SQWQE_WAITFORRCVPDU	BIT_ULL(59)
#define IRDMA_SQWQE_READFENCE		BIT_ULL(60)
#define IRDMA_SQWQE_LOCALFENCE		BIT_ULL(61)
#define IRDMA_SQWQE_UDPHEADER		BIT_ULL(61)	/* UD only */
#define IRDMA_SQWQE_SIGCOMPL		BIT_ULL(62)
#define IRDMA_SQWQE_VALID		BIT_ULL(63)
#define IRDMA_SQWQE_DESTQKEY		GENMASK_ULL(31, 0)	/* word 2 */
#define IRDMA_SQWQE_DESTQPN		GENMASK_ULL(55, 32)	/* word 2 */
/* Fragment (gen2): address word, then len/stag/valid word */
#define IRDMA_FRAG_STAG			GENMASK_ULL(31, 0)
#define IRDMA_FRAG_LEN			GENMASK_ULL(62, 32)
#define IRDMA_FRAG_VALID		BIT_ULL(63)
/* Fragment (gen1): no valid bit, STag and length swapped */
#define IRDMA_FRAG_LEN_G1		GENMASK_ULL(31, 0)
#define IRDMA_FRAG_STAG_G1		GENMASK_ULL(63, 32)
/* gen2 inline data: the last byte of each extra quantum carries valid */
#define IRDMA_INLINE_VALID_BIT		7

/* MW bind (opcode BIND_MW): word 0 = VA, word 1 = stags, word 2 = length */
#define IRDMA_SQWQE_MWSTAG		GENMASK_ULL(31, 0)	/* word 1 */
#define IRDMA_SQWQE_PARENTMRSTAG	GENMASK_ULL(63, 32)	/* word 1 */
#define IRDMA_SQWQE_STAGRIGHTS		GENMASK_ULL(52, 48)	/* word 3 */
#define IRDMA_SQWQE_VABASEDTO		BIT_ULL(53)		/* word 3 */
/* set to bind a type 1 window, clear for type 2 */
#define IRDMA_SQWQE_MWTYPE		BIT_ULL(54)		/* word 3 */

/*
 * Fast register (opcode FAST_REGISTER): word 0 = VA or FBO, word 1 = PBL
 * address (63:12) and first PBLE index high (11:0), word 2 = length
 * (40:0) and first PBLE index low (63:48), header has STag key/index.
 */
#define IRDMA_SQWQE_PBLADDR		GENMASK_ULL(63, 12)	/* word 1 */
#define IRDMA_SQWQE_FIRSTPBLE_HI	GENMASK_ULL(11, 0)	/* word 1 */
#define IRDMA_SQWQE_STAGLEN		GENMASK_ULL(40, 0)	/* word 2 */
#define IRDMA_SQWQE_FIRSTPBLE_LO	GENMASK_ULL(63, 48)	/* word 2 */
#define IRDMA_SQWQE_STAGKEY		GENMASK_ULL(7, 0)	/* word 3 */
#define IRDMA_SQWQE_STAGINDEX		GENMASK_ULL(31, 8)	/* word 3 */
#define IRDMA_SQWQE_LPBLSIZE		GENMASK_ULL(45, 44)	/* word 3 */
#define IRDMA_SQWQE_HPAGESIZE		GENMASK_ULL(47, 46)	/* word 3 */

/*
 * enum irdma_wqe_op - SQ WQE opcodes (SQWQE_OPCODE) and CQE ops (CQE_OP)
 */
enum irdma_wqe_op {
	IRDMA_WQEOP_RDMA_WRITE		= 0x00,
	IRDMA_WQEOP_RDMA_READ		= 0x01,
	IRDMA_WQEOP_SEND		= 0x03,
	IRDMA_WQEOP_SEND_INV		= 0x04,
	IRDMA_WQEOP_SEND_SOL		= 0x05,
	IRDMA_WQEOP_SEND_SOL_INV	= 0x06,
	IRDMA_WQEOP_BIND_MW		= 0x08,
	IRDMA_WQEOP_FAST_REG		= 0x09,
	IRDMA_WQEOP_LOCAL_INV		= 0x0a,
	IRDMA_WQEOP_RDMA_READ_LOC_INV	= 0x0b,
	IRDMA_WQEOP_NOP			= 0x0c,
	IRDMA_WQEOP_RDMA_WRITE_SOL	= 0x0d,
	IRDMA_WQEOP_GEN_RTS_AE		= 0x30,
	IRDMA_WQEOP_RECV		= 0x3e,	/* CQE only */
	IRDMA_WQEOP_RECV_IMM		= 0x3f,	/* CQE only */
};

/* Doorbell shadow areas */
#define IRDMA_QPSA_HW_SQ_TAIL		GENMASK_ULL(14, 0)	/* QP word 0 */
#define IRDMA_CQSA_HEAD			GENMASK_ULL(19, 0)	/* CQ word 0 */
#define IRDMA_CQSA_SW_CQ_SELECT		GENMASK_ULL(13, 0)	/* CQ word 4 */
#define IRDMA_CQSA_ARM_NEXT		BIT_ULL(14)
#define IRDMA_CQSA_ARM_NEXT_SE		BIT_ULL(15)
#define IRDMA_CQSA_ARM_SEQ		GENMASK_ULL(17, 16)
#define IRDMA_CQSA_ARM_WORD		4

/* ---- QP context (256 bytes, 32 words) -------------------------------- */
/* word 0: flags */
#define IRDMA_QPC_DDP_VER		GENMASK_ULL(1, 0)
#define IRDMA_QPC_IBRDENABLE		BIT_ULL(2)
#define IRDMA_QPC_IPV4			BIT_ULL(3)
#define IRDMA_QPC_NONAGLE		BIT_ULL(4)
#define IRDMA_QPC_INSERTVLANTAG		BIT_ULL(5)
#define IRDMA_QPC_ISQP1			BIT_ULL(6)
#define IRDMA_QPC_TIMESTAMP		BIT_ULL(7)
#define IRDMA_QPC_RQWQESIZE		GENMASK_ULL(9, 8)
#define IRDMA_QPC_INSERTL2TAG2		BIT_ULL(11)
#define IRDMA_QPC_LIMIT			GENMASK_ULL(13, 12)
#define IRDMA_QPC_ECN_EN		BIT_ULL(14)
#define IRDMA_QPC_DROPOOOSEG		BIT_ULL(15)
#define IRDMA_QPC_DUPACK_THRESH		GENMASK_ULL(18, 16)
#define IRDMA_QPC_ERR_RQ_IDX_VALID	BIT_ULL(19)
#define IRDMA_QPC_PDIDXHI		GENMASK_ULL(21, 20)
#define IRDMA_QPC_DC_TCP_EN		BIT_ULL(25)
#define IRDMA_QPC_RCVTPHEN		BIT_ULL(28)
#define IRDMA_QPC_XMITTPHEN		BIT_ULL(29)
#define IRDMA_QPC_RQTPHEN		BIT_ULL(30)
#define IRDMA_QPC_SQTPHEN		BIT_ULL(31)
#define IRDMA_QPC_PPIDX			GENMASK_ULL(41, 32)
#define IRDMA_QPC_PMENA			BIT_ULL(47)
#define IRDMA_QPC_ROCE_TVER		GENMASK_ULL(63, 60)
#define IRDMA_QPC_RDMAP_VER		GENMASK_ULL(63, 62)
/* word 1: SQ address; word 2: RQ address */
/* word 3 */
#define IRDMA_QPC_TTL			GENMASK_ULL(7, 0)
#define IRDMA_QPC_RQSIZE		GENMASK_ULL(11, 8)
#define IRDMA_QPC_SQSIZE		GENMASK_ULL(15, 12)
#define IRDMA_QPC_SRCMACIDX_G1		GENMASK_ULL(21, 16)
#define IRDMA_QPC_AVOIDSTRETCHACK	BIT_ULL(23)
#define IRDMA_QPC_TOS			GENMASK_ULL(31, 24)
#define IRDMA_QPC_SRCPORT		GENMASK_ULL(47, 32)
#define IRDMA_QPC_DESTPORT		GENMASK_ULL(63, 48)
/* word 4: dest addr [2] 63:32, [3] 31:0; word 5: [0] 63:32, [1] 31:0 */
#define IRDMA_QPC_ADDR_HI		GENMASK_ULL(63, 32)
#define IRDMA_QPC_ADDR_LO		GENMASK_ULL(31, 0)
/* word 6 */
#define IRDMA_QPC_SNDMSS		GENMASK_ULL(29, 16)
#define IRDMA_QPC_SYN_RST_HANDLING	GENMASK_ULL(31, 30)
#define IRDMA_QPC_VLANTAG		GENMASK_ULL(47, 32)
#define IRDMA_QPC_ARPIDX		GENMASK_ULL(63, 48)
/* word 7 */
#define IRDMA_QPC_FLOWLABEL		GENMASK_ULL(19, 0)
#define IRDMA_QPC_WSCALE		BIT_ULL(20)
#define IRDMA_QPC_KEEPALIVE		BIT_ULL(21)
#define IRDMA_QPC_IGNORE_TCP_OPT	BIT_ULL(22)
#define IRDMA_QPC_IGNORE_TCP_UNS_OPT	BIT_ULL(23)
#define IRDMA_QPC_ACKCREDITS		GENMASK_ULL(24, 20)	/* RoCE */
#define IRDMA_QPC_TCPSTATE		GENMASK_ULL(31, 28)
#define IRDMA_QPC_RCVSCALE		GENMASK_ULL(35, 32)
#define IRDMA_QPC_PKEY			GENMASK_ULL(47, 32)	/* RoCE */
#define IRDMA_QPC_SNDSCALE		GENMASK_ULL(43, 40)
#define IRDMA_QPC_PDIDX			GENMASK_ULL(63, 48)
/* word 8 (RoCE) */
#define IRDMA_QPC_DESTQP		GENMASK_ULL(23, 0)
#define IRDMA_QPC_QKEY			GENMASK_ULL(63, 32)
/* word 9: timestamps (iWARP) */
#define IRDMA_QPC_TS_RECENT		GENMASK_ULL(31, 0)
#define IRDMA_QPC_TS_AGE		GENMASK_ULL(63, 32)
/* words 10..15: TCP (iWARP) or PSN (RoCE) sequence state */
#define IRDMA_QPC_SEQ_LO		GENMASK_ULL(31, 0)
#define IRDMA_QPC_SEQ_HI		GENMASK_ULL(63, 32)
#define IRDMA_QPC_PSN_LO		GENMASK_ULL(23, 0)
#define IRDMA_QPC_PSN_HI		GENMASK_ULL(55, 32)
#define IRDMA_QPC_CWNDROCE		GENMASK_ULL(55, 32)	/* word 14 */
/* word 16 */
#define IRDMA_QPC_MAXSNDWND		GENMASK_ULL(31, 0)
#define IRDMA_QPC_ERR_RQ_IDX		GENMASK_ULL(45, 32)
#define IRDMA_QPC_REXMIT_THRESH		GENMASK_ULL(53, 48)
#define IRDMA_QPC_RNRNAK_THRESH		GENMASK_ULL(56, 54)
#define IRDMA_QPC_RTOMIN		GENMASK_ULL(63, 57)
/* word 17 */
#define IRDMA_QPC_TXCQNUM		GENMASK_ULL(18, 0)
#define IRDMA_QPC_RXCQNUM		GENMASK_ULL(50, 32)
/* word 18 */
#define IRDMA_QPC_STAT_INDEX		GENMASK_ULL(6, 0)
#define IRDMA_QPC_Q2ADDR		GENMASK_ULL(63, 8)	/* addr >> 8 */
/* word 19 */
#define IRDMA_QPC_LASTBYTESENT		GENMASK_ULL(7, 0)
#define IRDMA_QPC_MACADDRESS		GENMASK_ULL(63, 16)
/* word 20 */
#define IRDMA_QPC_ORDSIZE		GENMASK_ULL(7, 0)
#define IRDMA_QPC_IRDSIZE		GENMASK_ULL(18, 16)
#define IRDMA_QPC_UDPRIVCQENABLE	BIT_ULL(19)
#define IRDMA_QPC_WRRDRSPOK		BIT_ULL(20)
#define IRDMA_QPC_RDOK			BIT_ULL(21)
#define IRDMA_QPC_SNDMARKERS		BIT_ULL(22)	/* iWARP */
#define IRDMA_QPC_DCQCNENABLE		BIT_ULL(22)	/* RoCE */
#define IRDMA_QPC_BINDEN		BIT_ULL(23)
#define IRDMA_QPC_FASTREGEN		BIT_ULL(24)
#define IRDMA_QPC_PRIVEN		BIT_ULL(25)
#define IRDMA_QPC_USESTATSINSTANCE	BIT_ULL(26)
#define IRDMA_QPC_TIMELYENABLE		BIT_ULL(27)
#define IRDMA_QPC_IWARPMODE		BIT_ULL(28)	/* iWARP */
#define IRDMA_QPC_FW_CC_ENABLE		BIT_ULL(28)	/* RoCE */
#define IRDMA_QPC_RCVMARKERS		BIT_ULL(29)
#define IRDMA_QPC_ALIGNHDRS		BIT_ULL(30)
#define IRDMA_QPC_RCVNOMPACRC		BIT_ULL(31)	/* iWARP */
#define IRDMA_QPC_RCVNOICRC		BIT_ULL(31)	/* RoCE */
#define IRDMA_QPC_RCVMARKOFFSET		GENMASK_ULL(40, 32)
#define IRDMA_QPC_SNDMARKOFFSET		GENMASK_ULL(56, 48)
/* word 21: QP completion context (returned in CQEs and AEQEs) */
/* word 22 */
#define IRDMA_QPC_SQTPHVAL		GENMASK_ULL(7, 0)
#define IRDMA_QPC_RQTPHVAL		GENMASK_ULL(15, 8)
#define IRDMA_QPC_QSHANDLE		GENMASK_ULL(25, 16)
#define IRDMA_QPC_EXCEPTION_LAN_Q	GENMASK_ULL(43, 32)
/* word 23: local addr [2] 63:32, [3] 31:0; word 24: [0] 63:32, [1] 31:0 */
/* word 25 */
#define IRDMA_QPC_TLOW			GENMASK_ULL(39, 32)
#define IRDMA_QPC_THIGH			GENMASK_ULL(63, 52)
/* word 26 */
#define IRDMA_QPC_REMENDPOINTIDX	GENMASK_ULL(16, 0)

/* Encoded IRD sizes (QPC_IRDSIZE) */
#define IRDMA_IRD_HW_SIZE_4		0
#define IRDMA_IRD_HW_SIZE_16		1
#define IRDMA_IRD_HW_SIZE_64		2
#define IRDMA_IRD_HW_SIZE_128		3
#define IRDMA_IRD_HW_SIZE_256		4

/* ---- Word accessors -------------------------------------------------- */

/**
 * irdma_wqe_set - store a CPU-order value into descriptor word @word
 * @desc: descriptor (WQE, context, element) as little-endian words
 * @word: word index (byte offset / 8)
 * @val: value
 */
static inline void irdma_wqe_set(__le64 *desc, unsigned int word, u64 val)
{
	desc[word] = cpu_to_le64(val);
}

/**
 * irdma_wqe_get - load descriptor word @word in CPU order
 * @desc: descriptor as little-endian words
 * @word: word index (byte offset / 8)
 *
 * Return: the word's value.
 */
static inline u64 irdma_wqe_get(const __le64 *desc, unsigned int word)
{
	return le64_to_cpu(READ_ONCE(desc[word]));
}

/**
 * struct irdma_flag - a one-bit descriptor field and whether to set it
 * @bit: the field (a BIT_ULL() of one descriptor word)
 * @on: set the bit
 *
 * Descriptors carry groups of yes/no switches (access rights, fences,
 * completion requests). Encoders list such a group as a table of these
 * and fold it with irdma_flags(), so the group reads as one unit of
 * meaning rather than as a run of shifts.
 */
struct irdma_flag {
	u64 bit;
	bool on;
};

/**
 * irdma_flags - fold a table of one-bit fields into a descriptor word
 * @f: the fields
 * @n: how many
 *
 * Return: the OR of every @f[i].bit whose @f[i].on is set.
 */
static inline u64 irdma_flags(const struct irdma_flag *f, unsigned int n)
{
	u64 word = 0;

	while (n--)
		word |= f[n].on ? f[n].bit : 0;
	return word;
}

/**
 * irdma_lpbl_code - the LPBLSIZE code of a page list @levels deep
 * @levels: 0 (no list), 1 or 2
 *
 * Return: the field value; two levels are coded 3.
 */
static inline u8 irdma_lpbl_code(u8 levels)
{
	return levels == 2 ? 3 : levels;
}

#endif /* IRDMA_HW_DEFS_H */
