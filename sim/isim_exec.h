/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim: the data path: a pass's scratch state (WQEs, SGLs,
 * completions), memory registrations, and what exec.c, sgl.c, iwarp.c
 * and stag.c offer the rest of the engine.
 */
#ifndef _ISIM_EXEC_H_
#define _ISIM_EXEC_H_

#include <linux/types.h>

#include "isim_defs.h"

struct isim_func;
struct isim_qp;
struct isim_wq;
struct isim_res;
struct seq_file;

#define ISIM_SLOTS		15	/* fragment slots of an 8-quantum WQE */
#define ISIM_WQE_WORDS		(ISIM_WQ_MAX_QUANTA * ISIM_WQ_QUANTUM / 8)
#define ISIM_INLINE_MAX		(ISIM_INLINE_FIRST + \
				 (ISIM_WQ_MAX_QUANTA - 1) * ISIM_INLINE_PER_QUANTUM)

/**
 * struct isim_sge - one fragment of a WQE
 * @addr: bus address (STag 0) or IOVA
 * @len: bytes
 * @stag: STag
 */
struct isim_sge {
	u64 addr;
	u32 len;
	u32 stag;
};

/**
 * struct isim_sgl - the fragments of a WQE, or one remote range
 * @sge: fragments of non-zero length
 * @n: entries in @sge
 * @total: sum of their lengths
 * @pd: protection domain of the QP whose memory the fragments are
 * @rights: ISIM_RIGHT_* the access needs
 * @privileged: that QP may use STag 0
 */
struct isim_sgl {
	struct isim_sge sge[ISIM_SLOTS];
	u32 n;
	u64 total;
	u32 pd;
	u8 rights;
	bool privileged;
};

/**
 * struct isim_wqe - a WQE as read from a ring
 * @raw: the quanta as the driver wrote them (inline bytes)
 * @w: the same words in CPU order
 * @idx: quantum index of the first quantum
 * @quanta: quanta it covers
 * @gen: generation of the function whose ring it is: the layout of its
 *	fragments and inline data
 */
struct isim_wqe {
	__le64 raw[ISIM_WQE_WORDS];
	u64 w[ISIM_WQE_WORDS];
	u32 idx;
	u8 quanta;
	u8 gen;
};

/**
 * struct isim_cpl - what a CQE reports
 * @idx: quantum index of the WQE
 * @bytes: bytes received (RQ)
 * @imm: immediate data, with @imm_valid
 * @minor: 0 for success, else an enum isim_wc_minor
 * @op: SQ: the WQE's opcode; RQ: the message's BTH opcode
 * @sq: an SQ completion
 * @imm_valid: @imm is carried (extended CQE)
 * @solicited: the message asked for a solicited event
 * @inv_stag: the STag a SEND with invalidate unmapped, with @inv
 * @inv: an RQ completion that invalidated @inv_stag
 * @src_qp: UD receive: the sender's QP (DETH), with @ud
 * @smac: UD receive: source MAC of the frame
 * @tci: UD receive: VLAN tag, with @vlan
 * @ud: a UD receive completion: @src_qp, @smac (extended CQE)
 * @vlan: the frame was tagged
 * @ipv4: the frame was IPv4
 */
struct isim_cpl {
	u32 idx;
	u32 bytes;
	u32 imm;
	u32 inv_stag;
	u16 minor;
	u8 op;
	bool sq;
	bool imm_valid;
	bool solicited;
	bool inv;
	u32 src_qp;
	u64 smac;
	u16 tci;
	bool ud;
	bool vlan;
	bool ipv4;
};

/**
 * struct isim_xfer - scratch state of one engine pass over the data path
 * @f: function
 * @bounce: one page the payload moves through
 * @req: the SQ WQE being executed
 * @resp: the responder's RQ WQE
 * @local: fragments of @req (when not inline)
 * @rsgl: fragments of @resp, or the remote range of a WRITE/READ
 * @inl: inline payload of @req
 * @len: payload length of @req
 */
struct isim_xfer {
	struct isim_func *f;
	u8 *bounce;
	struct isim_wqe req;
	struct isim_wqe resp;
	struct isim_sgl local;
	struct isim_sgl rsgl;
	u8 inl[ISIM_INLINE_MAX];
	u64 len;
};

/**
 * struct isim_stag - an MR or MW STag index
 * @tag: bits 31:8 of the STag: the index and the driver's bits above it
 * @index: MR index, the low bits of @tag (stag.c says how many)
 * @key: key byte of the registered STag
 * @pd: protection domain
 * @len: length in bytes (0 with no page list: all of memory)
 * @va: virtual address or first-byte offset
 * @buf_pa: the one buffer or page (no page list)
 * @first_pble: first PBLE of the page list
 * @rights: access rights
 * @pbl_code: the command's raw page-list depth field
 * @pbl_levels: 0 (@buf_pa), 1 or 2, decoded from @pbl_code
 * @page_size: page size code (4 KiB << 9 * @page_size)
 * @mr: a memory region (else a memory window)
 * @mw_type1: a type 1 window
 * @registered: REG_MR, a fast-register WQE, or a window bound by a
 *	BIND_MW WQE; cleared by an invalidation
 * @fast_reg: an MR that ALLOC_STAG reserved: fast-register WQEs map it,
 *	invalidations unmap it
 * @remote: remote access enabled
 * @va_based: addressed by VA (else zero-based)
 * @parent: STag of the MR a window is bound to; its memory is reached
 *	through that MR (none once the MR is gone)
 */
struct isim_stag {
	u32 tag;
	u32 index;
	u8 key;
	u32 pd;
	u64 len;
	u64 va;
	u64 buf_pa;
	u32 first_pble;
	u8 rights;
	u8 pbl_code;
	u8 pbl_levels;
	u8 page_size;
	bool mr;
	bool mw_type1;
	bool registered;
	bool fast_reg;
	bool remote;
	bool va_based;
	u32 parent;
};

/* exec.c */
void isim_exec_load_ctx(struct isim_qp *qp, const u64 *ctx, bool virt);
void isim_exec_new_state(struct isim_func *f, struct isim_qp *qp,
			 u8 old_state);
int isim_wq_peek(struct isim_func *f, const struct isim_wq *wq, u64 *hdr);
bool isim_exec_sq_empty(struct isim_func *f, const struct isim_qp *qp);
u8 isim_sq_quanta(u8 gen, u64 hdr);
u8 isim_wq_wqe_quanta(const struct isim_func *f, const struct isim_qp *qp,
		      const struct isim_wq *wq, u64 hdr);
int isim_wq_read(struct isim_func *f, const struct isim_wq *wq, u8 quanta,
		 struct isim_wqe *wqe);
void isim_wq_advance(struct isim_wq *wq, u8 quanta);
void isim_exec_complete(struct isim_func *f, struct isim_qp *qp,
			const struct isim_cpl *c);
void isim_exec_flush(struct isim_func *f, struct isim_qp *qp,
		     struct isim_wq *wq, u16 minor);
void isim_exec_iw_fail(struct isim_func *f, struct isim_qp *qp,
		       const struct isim_cpl *c);
int isim_exec_take_rq(struct isim_xfer *x, struct isim_qp *peer);
bool isim_wqe_is_read(u64 hdr);
int isim_exec_payload(struct isim_xfer *x, const struct isim_qp *qp, u64 hdr,
		      const u8 **inl);
int isim_exec_mem_op(struct isim_xfer *x, struct isim_qp *qp, u8 op);
void isim_hwc_wqe(struct isim_func *f, u8 op, bool fabric);
struct isim_xfer *isim_xfer_get(struct isim_xfer **xp, struct isim_func *f);
void isim_xfer_put(struct isim_xfer *x);
void isim_exec_kick(struct isim_func *f, struct isim_qp *qp);
bool isim_exec_run(struct isim_func *f, unsigned int budget, bool scan);

/* sgl.c */
u32 isim_frag_stag(u8 gen, u64 w);
u32 isim_frag_len(u8 gen, u64 w);
void isim_wqe_sgl(const struct isim_wqe *wqe, u64 hdr, u32 first,
		  struct isim_sgl *l);
void isim_sgl_one(struct isim_sgl *l, u64 addr, u64 len, u32 stag);
void isim_sgl_owner(struct isim_sgl *l, const struct isim_qp *qp, u8 rights);
bool isim_sgl_allowed(struct isim_func *f, const struct isim_sgl *l);
int isim_wqe_inline(const struct isim_wqe *wqe, u64 hdr, u8 *buf, u64 *len);
int isim_sgl_io(struct isim_func *f, const struct isim_sgl *l, u64 off,
		u8 *buf, u32 len, bool to_host);
int isim_copy(struct isim_xfer *x, const struct isim_sgl *src,
	      const u8 *inl, const struct isim_sgl *dst, u64 len);

/* iwarp.c */
int isim_exec_iw_wqe(struct isim_xfer *x, struct isim_qp *qp, u64 hdr);
void isim_exec_iw_rx(struct isim_xfer **xp, struct isim_func *f,
		     struct isim_qp *qp, const u8 *data, u32 len,
		     const u8 *hdrs, u32 hdr_len);
u16 isim_exec_iw_term_check(struct isim_func *f, u64 q2_pa, u8 words);
void isim_exec_iw_terminate(struct isim_func *f, struct isim_qp *qp);

/* stag.c */
void isim_stag_reset(struct isim_func *f);
void isim_stag_show(struct seq_file *s, struct isim_func *f);
int isim_stag_access(struct isim_func *f, u32 stag, u32 pd, u8 rights,
		     u64 addr, u64 len);
int isim_stag_translate(struct isim_func *f, u32 stag, u64 addr, u64 *bus,
			u64 *contig);
int isim_stag_bind(struct isim_func *f, u32 pd, const u64 *wqe);
int isim_stag_fast_reg(struct isim_func *f, u32 pd, const u64 *wqe);
int isim_stag_invalidate(struct isim_func *f, u32 pd, u32 stag);
void isim_op_alloc_stag(struct isim_func *f, const u64 *wqe,
			struct isim_res *res);
void isim_op_reg_mr(struct isim_func *f, const u64 *wqe,
		    struct isim_res *res);
void isim_op_dealloc_stag(struct isim_func *f, const u64 *wqe,
			  struct isim_res *res);

#endif /* _ISIM_EXEC_H_ */
