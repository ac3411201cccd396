/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: control plane. CQP work-request builders, the CQP ring and its
 * completion matching, CEQ/AEQ element decoding and QP contexts.
 *
 * Builders take a plain parameter structure and write one 64-byte WQE
 * (or a 256-byte QP context) into caller memory; they touch no device
 * state, so KUnit can check every word. The header word, which carries
 * the valid bit, is always written last, after a write barrier.
 */
#ifndef IRDMA_CTRL_H
#define IRDMA_CTRL_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include "hw_defs.h"
#include "uk.h"

/**
 * struct irdma_cqp - the control QP's send ring
 * @sq: @size WQEs of 8 words, 512-byte aligned
 * @scratch: caller cookie of each in-flight WQE, indexed like @sq
 * @mmio: register space for the CQPDB doorbell
 * @db_off: offset of CQPDB
 * @size: WQEs in the ring (power of two, 4..2048)
 * @head: next WQE to fill
 * @tail: oldest WQE not yet completed
 * @pol: valid bit value of the current lap
 * @lock: protects @head, @tail, @pol and @scratch; taken by every
 *	producer and by the CCQ poller
 */
struct irdma_cqp {
	__le64 *sq;
	u64 *scratch;
	const struct irdma_mmio *mmio;
	u32 db_off;
	u32 size;
	u32 head;
	u32 tail;
	u8 pol;
	spinlock_t lock; /* head, tail, pol, scratch */
};

/**
 * struct irdma_ccq_info - a decoded CQP completion
 * @scratch: cookie given when the WQE was posted
 * @op_ret: command result (OPRETVAL), e.g. an allocated index
 * @wqe_idx: CQP SQ index completed
 * @major: major error (0 = success)
 * @minor: minor error
 * @error: the command failed
 */
struct irdma_ccq_info {
	u64 scratch;
	u32 op_ret;
	u32 wqe_idx;
	u16 major;
	u16 minor;
	bool error;
};

/**
 * struct irdma_eq_ring - a CEQ or AEQ as the driver consumes it
 * @ring: elements (1 word for a CEQ, 2 for the AEQ)
 * @size: number of elements
 * @head: next element to look at
 * @pol: valid bit value of the current lap (starts at 1)
 * @words: words per element
 */
struct irdma_eq_ring {
	__le64 *ring;
	u32 size;
	u32 head;
	u8 pol;
	u8 words;
};

/**
 * struct irdma_aeqe_info - a decoded AEQ element
 * @ctx: completion context of the QP or CQ
 * @id: QP or CQ number
 * @wqe_idx: WQE descriptor index
 * @code: AE code (enum irdma_ae_code)
 * @source: AE source (IRDMA_AESRC_*)
 * @iw_state: QP state (IRDMA_QPS_*)
 * @tcp_state: TCP state (IRDMA_TCPS_*)
 * @q2_data: Q2 data indication
 * @overflow: the AEQ overflowed
 * @is_cq: the event is about a CQ (@id is a CQ number)
 * @is_qp: the event is about a QP
 */
struct irdma_aeqe_info {
	u64 ctx;
	u32 id;
	u16 wqe_idx;
	u16 code;
	u8 source;
	u8 iw_state;
	u8 tcp_state;
	u8 q2_data;
	bool overflow;
	bool is_cq;
	bool is_qp;
};

/* ---- CQP ring ---- */

int irdma_cqp_init(struct irdma_cqp *cqp);
__le64 *irdma_cqp_get_wqe(struct irdma_cqp *cqp, u64 scratch, u8 *valid);
void irdma_cqp_post(struct irdma_cqp *cqp);
int irdma_ccq_poll(struct irdma_cqp *cqp, struct irdma_uk_cq *ccq,
		   struct irdma_ccq_info *info);
int irdma_cqp_wait(struct irdma_cqp *cqp, struct irdma_uk_cq *ccq,
		   u64 scratch, unsigned int timeout_us,
		   struct irdma_ccq_info *info);

/**
 * struct irdma_cqp_ctx_info - CQP host context
 * @sq_pa: CQP SQ address (512-byte aligned)
 * @compl_ctx: returned in CCQ CQE word 1
 * @sq_size: WQEs in the SQ (power of two, 4..2048)
 * @struct_ver: structure version
 * @hw_rev: 1 or 2
 * @protocol: 0 any, 1 iWARP, 2 RoCEv2
 * @hmc_profile: HMC profile
 * @ena_vfs: enabled VFs
 * @ceqs_per_vf: CEQs per VF
 * @disable_pfpdus: disable packed FPDUs
 * @rocev2_rto_policy: RoCEv2 retransmit policy
 */
struct irdma_cqp_ctx_info {
	u64 sq_pa;
	u64 compl_ctx;
	u32 sq_size;
	u8 struct_ver;
	u8 hw_rev;
	u8 protocol;
	u8 hmc_profile;
	u8 ena_vfs;
	u8 ceqs_per_vf;
	bool disable_pfpdus;
	bool rocev2_rto_policy;
};

int irdma_cqp_ctx_build(__le64 *ctx, const struct irdma_cqp_ctx_info *info);

/* ---- QP commands ---- */

/**
 * struct irdma_cqp_qp_info - CREATE/MODIFY/DESTROY_QP
 * @ctx_pa: QP context address
 * @shadow_pa: doorbell shadow area address
 * @qp_id: QP number (24 bits)
 * @qp_type: IRDMA_QPTYPE_*
 * @next_state: IRDMA_QPS_* to move to
 * @term_act: IRDMA_TERMACT_* (modify)
 * @term_len: terminate message length (modify)
 * @new_mss: new MSS (modify with @mss_change)
 * @ord_valid: context ORD valid
 * @tcp_ctx_valid: TCP context valid
 * @cached_var_valid: cached variables valid (modify)
 * @virtual_map: queues are PBL-mapped
 * @force_lpb: force loopback
 * @cq_num_valid: CQ numbers valid
 * @mac_valid: MAC valid
 * @arp_valid: ARP index valid
 * @mss_change: take @new_mss
 * @remove_hash: remove the QP's hash entry
 * @reset_con: reset the TCP connection
 * @ignore_mw_bound: destroy even with bound windows
 */
struct irdma_cqp_qp_info {
	u64 ctx_pa;
	u64 shadow_pa;
	u32 qp_id;
	u8 qp_type;
	u8 next_state;
	u8 term_act;
	u8 term_len;
	u16 new_mss;
	bool ord_valid;
	bool tcp_ctx_valid;
	bool cached_var_valid;
	bool virtual_map;
	bool force_lpb;
	bool cq_num_valid;
	bool mac_valid;
	bool arp_valid;
	bool mss_change;
	bool remove_hash;
	bool reset_con;
	bool ignore_mw_bound;
};

int irdma_cqpw_qp_create(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_qp_info *info);
int irdma_cqpw_qp_modify(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_qp_info *info);
int irdma_cqpw_qp_destroy(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_qp_info *info);

/* ---- CQ commands ---- */

/**
 * struct irdma_cqp_cq_info - CREATE/MODIFY/DESTROY_CQ (also the CCQ)
 * @ring_pa: CQE ring address (unused with @virtual_map)
 * @shadow_pa: shadow area address
 * @compl_ctx: CQ context returned (>> 1) in CEQEs; must be even
 * @size: CQEs (1..1048575)
 * @cq_id: CQ number
 * @ceq_id: CEQ (with @ceq_id_valid)
 * @first_pble: first PBLE (with @virtual_map)
 * @shadow_thresh: shadow read threshold
 * @hw_rev: 1 or 2 (CQ and CEQ id positions differ)
 * @pbl_levels: LPBLSIZE
 * @tph_val: TPH steering tag
 * @vsi: VSI index
 * @ceq_id_valid: report events to @ceq_id
 * @ceqe_mask: event mask
 * @virtual_map: ring is PBL-mapped
 * @check_overflow: detect overflow
 * @ext_cqe: 64-byte CQEs
 * @tph_en: TPH enabled
 * @resize: resize (modify)
 */
struct irdma_cqp_cq_info {
	u64 ring_pa;
	u64 shadow_pa;
	u64 compl_ctx;
	u32 size;
	u32 cq_id;
	u16 ceq_id;
	u32 first_pble;
	u32 shadow_thresh;
	u8 hw_rev;
	u8 pbl_levels;
	u8 tph_val;
	u16 vsi;
	bool ceq_id_valid;
	bool ceqe_mask;
	bool virtual_map;
	bool check_overflow;
	bool ext_cqe;
	bool tph_en;
	bool resize;
};

int irdma_cqpw_cq_create(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_cq_info *info);
int irdma_cqpw_cq_modify(__le64 *wqe, u8 valid,
			 const struct irdma_cqp_cq_info *info);
int irdma_cqpw_cq_destroy(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_cq_info *info);

/**
 * struct irdma_cqp_eq_info - CREATE/DESTROY_CEQ and _AEQ
 * @ring_pa: element ring address (unused with @virtual_map)
 * @elem_cnt: number of elements
 * @first_pble: first PBLE (with @virtual_map)
 * @ceq_id: CEQ number (CEQ only)
 * @pbl_levels: LPBLSIZE
 * @tph_val: TPH steering tag (CEQ)
 * @vsi: VSI index (CEQ)
 * @virtual_map: ring is PBL-mapped
 * @itr_no_expire: no interrupt throttling expiry (CEQ)
 * @tph_en: TPH enabled (CEQ)
 */
struct irdma_cqp_eq_info {
	u64 ring_pa;
	u32 elem_cnt;
	u32 first_pble;
	u16 ceq_id;
	u8 pbl_levels;
	u8 tph_val;
	u16 vsi;
	bool virtual_map;
	bool itr_no_expire;
	bool tph_en;
};

int irdma_cqpw_ceq_create(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_eq_info *info);
int irdma_cqpw_ceq_destroy(__le64 *wqe, u8 valid,
			   const struct irdma_cqp_eq_info *info);
int irdma_cqpw_aeq_create(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_eq_info *info);
int irdma_cqpw_aeq_destroy(__le64 *wqe, u8 valid,
			   const struct irdma_cqp_eq_info *info);

/* ---- STags ---- */

/**
 * struct irdma_cqp_stag_info - ALLOC_STAG, REG_MR, DEALLOC_STAG, MW alloc
 * @va: VA or first-byte offset (REG_MR)
 * @len: length (46 bits)
 * @buf_pa: buffer or level-1 PBL address (REG_MR without PBLE index)
 * @stag: STag (index << 8 | key)
 * @pd_id: protection domain
 * @first_pble: first PBLE index (with @pbl_levels)
 * @hmc_fn: HMC function index (with @use_hmc_fn)
 * @hw_rev: 1 or 2 (PD field position differs)
 * @rights: IRDMA_ACCESS_* bits
 * @pbl_levels: LPBLSIZE (0: @buf_pa is the buffer)
 * @page_size: IRDMA_PAGE_SIZE_*
 * @remote_access: remote access enabled
 * @zero_based: addressed from 0 (REG_MR)
 * @use_hmc_fn: use @hmc_fn
 * @use_pf_rid: use the PF requester id
 * @is_mr: STag of an MR (dealloc) / allocate an MR STag
 * @mw_type1: a type 1 window (MW alloc); the engine's window-type bit
 *	is set for type 1 and clear for type 2
 * @mw1_no_key_check: type 1 bind does not validate the key
 */
struct irdma_cqp_stag_info {
	u64 va;
	u64 len;
	u64 buf_pa;
	u32 stag;
	u32 pd_id;
	u32 first_pble;
	u8 hmc_fn;
	u8 hw_rev;
	u8 rights;
	u8 pbl_levels;
	u8 page_size;
	bool remote_access;
	bool zero_based;
	bool use_hmc_fn;
	bool use_pf_rid;
	bool is_mr;
	bool mw_type1;
	bool mw1_no_key_check;
};

int irdma_cqpw_alloc_stag(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_stag_info *info);
int irdma_cqpw_reg_mr(__le64 *wqe, u8 valid,
		      const struct irdma_cqp_stag_info *info);
int irdma_cqpw_dealloc_stag(__le64 *wqe, u8 valid,
			    const struct irdma_cqp_stag_info *info);
int irdma_cqpw_mw_alloc(__le64 *wqe, u8 valid,
			const struct irdma_cqp_stag_info *info);

/* ---- Network helpers: ARP, APBVT, qhash, AH, local MAC ---- */

int irdma_cqpw_arp_add(__le64 *wqe, u8 valid, u16 arp_idx, const u8 *mac,
		       bool permanent);
int irdma_cqpw_arp_del(__le64 *wqe, u8 valid, u16 arp_idx);
int irdma_cqpw_apbvt(__le64 *wqe, u8 valid, u16 port, bool add);
int irdma_cqpw_loc_mac_alloc(__le64 *wqe, u8 valid);
int irdma_cqpw_loc_mac_add(__le64 *wqe, u8 valid, u8 idx, const u8 *mac);
int irdma_cqpw_loc_mac_del(__le64 *wqe, u8 valid, u8 idx, bool ignore_ref);

/**
 * struct irdma_cqp_qhash_info - MANAGE_QHASH
 * @mac: local MAC
 * @loc_addr: local address (IPv4 in [0]), host order words
 * @rem_addr: remote address (ESTABLISHED only)
 * @loc_port: local TCP port
 * @rem_port: remote TCP port (ESTABLISHED only)
 * @qp_num: QP to steer to (the ILQ for the CM)
 * @qs_handle: QS handle
 * @vlan_id: VLAN (with @vlan_valid)
 * @entry_type: IRDMA_QHASH_TYPE_*
 * @manage: IRDMA_QHASH_MANAGE_*
 * @ipv4: addresses are IPv4
 * @vlan_valid: match @vlan_id
 */
struct irdma_cqp_qhash_info {
	u8 mac[6];
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u32 qp_num;
	u16 qs_handle;
	u16 vlan_id;
	u8 entry_type;
	u8 manage;
	bool ipv4;
	bool vlan_valid;
};

int irdma_cqpw_qhash(__le64 *wqe, u8 valid,
		     const struct irdma_cqp_qhash_info *info);

/**
 * struct irdma_cqp_ah_info - CREATE/MODIFY/DESTROY_AH
 * @mac: destination MAC
 * @dest_addr: destination address (IPv4 in [0])
 * @src_addr: source address
 * @ah_idx: AH index (17 bits)
 * @pd_idx: PD index (18 bits)
 * @arp_idx: ARP cache index
 * @flow_label: IPv6 flow label
 * @vlan_tag: VLAN tag
 * @tc: traffic class / TOS
 * @hop_limit: hop limit / TTL
 * @op: IRDMA_CQPOP_CREATE_AH, _MODIFY_AH or _DESTROY_AH
 * @ipv4: addresses are IPv4
 * @insert_vlan: insert @vlan_tag
 * @loopback: loop back locally
 */
struct irdma_cqp_ah_info {
	u8 mac[6];
	u32 dest_addr[4];
	u32 src_addr[4];
	u32 ah_idx;
	u32 pd_idx;
	u16 arp_idx;
	u32 flow_label;
	u16 vlan_tag;
	u8 tc;
	u8 hop_limit;
	u8 op;
	bool ipv4;
	bool insert_vlan;
	bool loopback;
};

int irdma_cqpw_ah(__le64 *wqe, u8 valid, const struct irdma_cqp_ah_info *info);

/**
 * struct irdma_cqp_mcg_info - CREATE/MODIFY/DESTROY_MCAST_GRP parameters
 * @mac: the group's destination MAC
 * @addr: the group's IP address (IPv4 in [0])
 * @list_pa: bus address of the member list (IRDMA_MCG_MAX_QPS words)
 * @idx: group index, below the HMC's multicast context count
 * @hmc_fn: HMC function id
 * @op: IRDMA_CQPOP_{CREATE,MODIFY,DESTROY}_MCAST_GRP
 * @ipv4: @addr is IPv4
 */
struct irdma_cqp_mcg_info {
	u8 mac[6];
	u32 addr[4];
	u64 list_pa;
	u32 idx;
	u8 hmc_fn;
	u8 op;
	bool ipv4;
};

int irdma_cqpw_mcg(__le64 *wqe, u8 valid,
		   const struct irdma_cqp_mcg_info *info);

/* ---- HMC ---- */

int irdma_cqpw_query_fpm(__le64 *wqe, u8 valid, u8 hmc_fn, u64 buf_pa);
int irdma_cqpw_commit_fpm(__le64 *wqe, u8 valid, u8 hmc_fn, u64 buf_pa,
			  u32 buf_len);
int irdma_cqpw_hmc_fn_table(__le64 *wqe, u8 valid, u16 vf_idx, bool free);

/**
 * struct irdma_sd_update - one segment descriptor change
 * @cmd: SD command word (IRDMA_SD_CMD_*)
 * @data: SD data word (IRDMA_SD_DATA_*)
 */
struct irdma_sd_update {
	u32 cmd;
	u64 data;
};

int irdma_cqpw_update_sds(__le64 *wqe, u8 valid, u8 hmc_fn,
			  const struct irdma_sd_update *sd, u32 cnt,
			  __le64 *buf, u64 buf_pa);

/* ---- QP maintenance ---- */

/**
 * struct irdma_cqp_flush_info - FLUSH_WQES / GEN_AE
 * @qp_id: QP number
 * @sq_major: SQ flush major code (with @user_codes)
 * @sq_minor: SQ flush minor code
 * @rq_major: RQ flush major code
 * @rq_minor: RQ flush minor code
 * @ae_code: AE to generate (with @gen_ae)
 * @ae_src: AE source
 * @flush_sq: flush the SQ
 * @flush_rq: flush the RQ
 * @user_codes: use the given flush codes
 * @gen_ae: generate @ae_code
 */
struct irdma_cqp_flush_info {
	u32 qp_id;
	u16 sq_major;
	u16 sq_minor;
	u16 rq_major;
	u16 rq_minor;
	u16 ae_code;
	u8 ae_src;
	bool flush_sq;
	bool flush_rq;
	bool user_codes;
	bool gen_ae;
};

int irdma_cqpw_flush_wqes(__le64 *wqe, u8 valid,
			  const struct irdma_cqp_flush_info *info);
int irdma_cqpw_gen_ae(__le64 *wqe, u8 valid, u32 qp_id, u16 ae_code,
		      u8 ae_src);
int irdma_cqpw_upload_ctx(__le64 *wqe, u8 valid, u32 qp_id, u8 qp_type,
			  u64 buf_pa, bool freeze, bool raw);
int irdma_cqpw_suspend_qp(__le64 *wqe, u8 valid, u32 qp_id);
int irdma_cqpw_resume_qp(__le64 *wqe, u8 valid, u32 qp_id, u16 qs_handle);
int irdma_cqpw_nop(__le64 *wqe, u8 valid);

/* ---- Statistics and work scheduler ---- */

int irdma_cqpw_manage_stats(__le64 *wqe, u8 valid, u8 inst, u8 hmc_fn,
			    bool alloc, bool use_hmc_fn);
int irdma_cqpw_gather_stats(__le64 *wqe, u8 valid, u8 inst, u8 hmc_fn,
			    u64 buf_pa, bool use_inst, bool use_hmc_fn);

/**
 * struct irdma_cqp_ws_info - WORK_SCHED_NODE
 * @id: node id
 * @parent_id: parent node id
 * @vsi: VSI
 * @weight: scheduling weight (7 bits)
 * @op: IRDMA_WS_OP_*
 * @tc: traffic class
 * @prio_type: priority type
 * @leaf: leaf node
 * @enable: node enabled
 */
struct irdma_cqp_ws_info {
	u16 id;
	u16 parent_id;
	u16 vsi;
	u8 weight;
	u8 op;
	u8 tc;
	u8 prio_type;
	bool leaf;
	bool enable;
};

int irdma_cqpw_ws_node(__le64 *wqe, u8 valid,
		       const struct irdma_cqp_ws_info *info);

/* ---- The builders as CQP command callbacks ---- */

/*
 * irdma_cqpw_<x>_cb() is irdma_cqpw_<x>() in the shape of the @build
 * callback of a CQP command (struct irdma_cmd, hw.h): @arg points at the
 * builder's info structure. ctrl.c defines them with IRDMA_CQPW_CB().
 */
int irdma_cqpw_qp_create_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_qp_modify_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_qp_destroy_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_cq_create_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_cq_modify_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_cq_destroy_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_ceq_create_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_ceq_destroy_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_aeq_create_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_aeq_destroy_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_alloc_stag_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_reg_mr_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_dealloc_stag_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_mw_alloc_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_qhash_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_ah_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_mcg_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_flush_wqes_cb(__le64 *wqe, u8 valid, const void *arg);
int irdma_cqpw_ws_node_cb(__le64 *wqe, u8 valid, const void *arg);

/* ---- Event queues ---- */

int irdma_eq_init(struct irdma_eq_ring *eq, __le64 *ring, u32 size,
		  u8 words);
int irdma_ceq_next(struct irdma_eq_ring *eq, u64 *cq_ctx);
int irdma_aeq_next(struct irdma_eq_ring *eq, struct irdma_aeqe_info *info);
void irdma_aeqe_decode(const __le64 *aeqe, struct irdma_aeqe_info *info);

/* ---- QP context ---- */

/**
 * struct irdma_qpc_common - QP context fields of both protocols
 * @sq_pa: SQ address
 * @rq_pa: RQ address
 * @q2_pa: Q2 buffer address (256-byte aligned)
 * @compl_ctx: QP completion context
 * @dest_addr: remote address (IPv4 in [0])
 * @local_addr: local address (IPv4 in [0])
 * @mac: local MAC as a 48-bit number
 * @send_cq: send CQ number
 * @recv_cq: receive CQ number
 * @pd_id: PD (18 bits)
 * @src_port: local port
 * @dst_port: remote port
 * @snd_mss: send MSS
 * @vlan_tag: VLAN tag
 * @arp_idx: ARP index
 * @qs_handle: QS handle
 * @ieq_qpn: the IEQ the engine hands this QP's partial FPDUs to (iWARP;
 *	0: none)
 * @flow_label: IPv6 flow label
 * @ord: ORD
 * @ird: IRD (4, 16, 64, 128 or 256)
 * @sq_size_log2: encoded SQ size
 * @rq_size_log2: encoded RQ size
 * @rq_wqe_size: RQ WQE size code (rq shift)
 * @ttl: TTL / hop limit
 * @tos: TOS / traffic class
 * @stats_idx: statistics instance (with @use_stats)
 * @ipv4: IPv4 connection
 * @insert_vlan: insert @vlan_tag
 * @rd_en: RDMA read allowed
 * @wr_rdresp_en: RDMA write and read responses allowed
 * @bind_en: MW bind allowed
 * @fast_reg_en: fast register allowed
 * @priv_en: privileged QP
 * @use_stats: use @stats_idx
 */
struct irdma_qpc_common {
	u64 sq_pa;
	u64 rq_pa;
	u64 q2_pa;
	u64 compl_ctx;
	u32 dest_addr[4];
	u32 local_addr[4];
	u64 mac;
	u32 send_cq;
	u32 recv_cq;
	u32 pd_id;
	u16 src_port;
	u16 dst_port;
	u16 snd_mss;
	u16 vlan_tag;
	u16 arp_idx;
	u16 qs_handle;
	u16 ieq_qpn;
	u32 flow_label;
	u8 ord;
	u16 ird;
	u8 sq_size_log2;
	u8 rq_size_log2;
	u8 rq_wqe_size;
	u8 ttl;
	u8 tos;
	u8 stats_idx;
	bool ipv4;
	bool insert_vlan;
	bool rd_en;
	bool wr_rdresp_en;
	bool bind_en;
	bool fast_reg_en;
	bool priv_en;
	bool use_stats;
};

/**
 * struct irdma_qpc_tcp - iWARP TCP connection state for the QP context
 * @snd_nxt: next sequence to send
 * @snd_una: oldest unacknowledged
 * @snd_max: highest sent
 * @rcv_nxt: next expected
 * @snd_wnd: send window
 * @rcv_wnd: receive window
 * @max_snd_wnd: largest send window seen
 * @cwnd: congestion window
 * @ss_thresh: slow-start threshold
 * @srtt: smoothed RTT
 * @rtt_var: RTT variance
 * @snd_wl1: seq of last window update
 * @snd_wl2: ack of last window update
 * @ts_recent: last timestamp received
 * @ts_age: its age
 * @tcp_state: IRDMA_TCPS_*
 * @snd_wscale: send window scale
 * @rcv_wscale: receive window scale
 * @rexmit_thresh: retransmit threshold
 * @dup_ack_thresh: duplicate ACK threshold
 * @cwnd_inc_limit: congestion window increase limit
 * @rtomin: minimum RTO
 * @wscale: window scaling negotiated
 * @timestamp: timestamps negotiated
 * @no_nagle: Nagle off
 * @keepalive: keepalive on
 * @drop_ooo: drop out-of-order segments
 * @avoid_stretch_ack: avoid stretch ACKs
 * @ignore_tcp_opt: ignore TCP options
 * @ignore_tcp_uns_opt: ignore unsupported TCP options
 */
struct irdma_qpc_tcp {
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_max;
	u32 rcv_nxt;
	u32 snd_wnd;
	u32 rcv_wnd;
	u32 max_snd_wnd;
	u32 cwnd;
	u32 ss_thresh;
	u32 srtt;
	u32 rtt_var;
	u32 snd_wl1;
	u32 snd_wl2;
	u32 ts_recent;
	u32 ts_age;
	u8 tcp_state;
	u8 snd_wscale;
	u8 rcv_wscale;
	u8 rexmit_thresh;
	u8 dup_ack_thresh;
	u8 cwnd_inc_limit;
	u8 rtomin;
	bool wscale;
	bool timestamp;
	bool no_nagle;
	bool keepalive;
	bool drop_ooo;
	bool avoid_stretch_ack;
	bool ignore_tcp_opt;
	bool ignore_tcp_uns_opt;
};

/**
 * struct irdma_qpc_iwarp - iWARP-specific QP context fields
 * @tcp: TCP state (with @tcp_valid)
 * @rcv_mark_offset: receive marker offset
 * @snd_mark_offset: send marker offset
 * @ddp_ver: DDP version (1)
 * @rdmap_ver: RDMAP version (1)
 * @src_mac_idx: gen1 source MAC index
 * @tcp_valid: @tcp is filled in
 * @ib_rd_en: IB-style read semantics
 * @snd_markers: send MPA markers
 * @rcv_markers: expect MPA markers
 * @align_hdrs: align FPDU headers
 * @rcv_no_mpa_crc: no MPA CRC on receive
 * @ecn_en: ECN
 * @dctcp_en: DCTCP
 */
struct irdma_qpc_iwarp {
	struct irdma_qpc_tcp tcp;
	u16 rcv_mark_offset;
	u16 snd_mark_offset;
	u8 ddp_ver;
	u8 rdmap_ver;
	u8 src_mac_idx;
	bool tcp_valid;
	bool ib_rd_en;
	bool snd_markers;
	bool rcv_markers;
	bool align_hdrs;
	bool rcv_no_mpa_crc;
	bool ecn_en;
	bool dctcp_en;
};

/**
 * struct irdma_qpc_roce - RoCEv2-specific QP context fields
 * @qkey: Q key
 * @dest_qp: destination QP
 * @psn_nxt: next PSN to send
 * @lsn: limit sequence number
 * @epsn: expected PSN
 * @psn_max: highest PSN sent
 * @psn_una: oldest unacknowledged PSN
 * @cwnd: congestion window
 * @p_key: partition key
 * @ack_credits: ACK credits
 * @rnr_nak_thresh: RNR NAK threshold
 * @rexmit_thresh: retransmit threshold
 * @rtomin: minimum RTO
 * @is_qp1: GSI QP
 * @dcqcn_en: DCQCN
 * @rcv_no_icrc: no ICRC check
 * @udprivcq_en: UD privileged CQ
 */
struct irdma_qpc_roce {
	u32 qkey;
	u32 dest_qp;
	u32 psn_nxt;
	u32 lsn;
	u32 epsn;
	u32 psn_max;
	u32 psn_una;
	u32 cwnd;
	u16 p_key;
	u8 ack_credits;
	u8 rnr_nak_thresh;
	u8 rexmit_thresh;
	u8 rtomin;
	bool is_qp1;
	bool dcqcn_en;
	bool rcv_no_icrc;
	bool udprivcq_en;
};

int irdma_qpc_write_iwarp(__le64 *ctx, const struct irdma_qpc_common *c,
			  const struct irdma_qpc_iwarp *iw);
int irdma_qpc_write_roce(__le64 *ctx, const struct irdma_qpc_common *c,
			 const struct irdma_qpc_roce *rc);
int irdma_qpc_write_uda(__le64 *ctx, const struct irdma_qpc_common *c);
int irdma_ird_encode(u16 ird, u8 *code);

#endif /* IRDMA_CTRL_H */
