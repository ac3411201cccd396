// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the data-path formats (uk.c): golden WQE layouts, CQE
 * decoding, polarity over several laps, doorbells and bad requests.
 *
 * Expected words are spelled out with explicit shifts from the hardware
 * description, not with the driver's field macros.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define V63		BIT_ULL(63)
#define SIG		BIT_ULL(62)
#define OPC(x)		((u64)(x) << 32)
#define ADDL(x)		((u64)(x) << 38)
#define IMMF		BIT_ULL(47)
#define INLF		BIT_ULL(57)
#define INLEN(x)	((u64)(x) << 48)
/* gen2 fragment descriptor word with valid bit set */
#define FRAG2(len, key)	(V63 | (u64)(len) << 32 | (key))
/* gen1 fragment descriptor word */
#define FRAG1(len, key)	((u64)(key) << 32 | (len))

#define UK_SQ_SIZE	32
#define UK_RQ_SIZE	8
#define UK_CQ_SIZE	4

struct uk_fake_mmio {
	u32 n;
	u32 off[8];
	u32 val[8];
};

static void uk_fake_wr32(const struct irdma_mmio *mmio, u32 off, u32 val)
{
	struct uk_fake_mmio *f = mmio->priv;

	if (f->n < ARRAY_SIZE(f->off)) {
		f->off[f->n] = off;
		f->val[f->n] = val;
	}
	f->n++;
}

static u32 uk_fake_rd32(const struct irdma_mmio *mmio, u32 off)
{
	return 0;
}

static const struct irdma_mmio_ops uk_fake_ops = {
	.write32 = uk_fake_wr32,
	.read32 = uk_fake_rd32,
};

struct uk_fixture {
	struct uk_fake_mmio regs;
	struct irdma_mmio mmio;
	struct irdma_uk_qp qp;
	struct irdma_uk_cq cq;
};

static int uk_qp_setup(struct kunit *test, struct uk_fixture *f, u8 hw_rev)
{
	struct irdma_uk_qp *qp = &f->qp;

	memset(qp, 0, sizeof(*qp));
	qp->sq = kunit_kcalloc(test, UK_SQ_SIZE * 4, sizeof(__le64), GFP_KERNEL);
	qp->rq = kunit_kcalloc(test, UK_RQ_SIZE * 4 * 4, sizeof(__le64),
			       GFP_KERNEL);
	qp->sq_slots = kunit_kcalloc(test, UK_SQ_SIZE, sizeof(*qp->sq_slots),
				     GFP_KERNEL);
	qp->rq_wrid = kunit_kcalloc(test, UK_RQ_SIZE, sizeof(u64), GFP_KERNEL);
	qp->shadow = kunit_kcalloc(test, 8, sizeof(__le64), GFP_KERNEL);
	qp->mmio = &f->mmio;
	qp->db_off = 0x4400;
	qp->qp_id = 0x1234;
	qp->sq_size = UK_SQ_SIZE;
	qp->rq_size = UK_RQ_SIZE;
	qp->rq_shift = 2;
	qp->hw_rev = hw_rev;
	qp->max_frags = hw_rev == 1 ? 3 : 13;
	qp->max_inline = hw_rev == 1 ? 48 : 101;
	return irdma_uk_qp_init(qp);
}

static int uk_test_init(struct kunit *test)
{
	struct uk_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->mmio.ops = &uk_fake_ops;
	f->mmio.priv = &f->regs;
	f->cq.ring = kunit_kcalloc(test, UK_CQ_SIZE * 8, sizeof(__le64),
				   GFP_KERNEL);
	f->cq.shadow = kunit_kcalloc(test, 8, sizeof(__le64), GFP_KERNEL);
	f->cq.mmio = &f->mmio;
	f->cq.arm_off = 0x2c00;
	f->cq.cq_id = 77;
	f->cq.size = UK_CQ_SIZE;
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_init(&f->cq), 0);
	test->priv = f;
	return 0;
}

static u64 uk_word(const __le64 *q, unsigned int w)
{
	return le64_to_cpu(q[w]);
}

/* ---- sizes ---- */

struct uk_quanta_case {
	u32 frags;
	int err;
	u16 quanta;
};

static const struct uk_quanta_case uk_quanta_cases[] = {
	{ 0, 0, 1 }, { 1, 0, 1 }, { 2, 0, 2 }, { 3, 0, 2 }, { 4, 0, 3 },
	{ 7, 0, 4 }, { 13, 0, 7 }, { 14, 0, 8 }, { 15, 0, 8 },
	{ 16, -EINVAL, 0 },
};

static void uk_quanta_desc(const struct uk_quanta_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u frags", c->frags);
}

KUNIT_ARRAY_PARAM(uk_quanta, uk_quanta_cases, uk_quanta_desc);

static void irdma_uk_sq_quanta_by_frags(struct kunit *test)
{
	const struct uk_quanta_case *c = test->param_value;
	u16 quanta = 0;

	KUNIT_EXPECT_EQ(test, irdma_uk_sq_quanta(c->frags, &quanta), c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, quanta, c->quanta);
}

static void irdma_uk_inline_quanta_limits(struct kunit *test)
{
	static const u32 len2[] = { 0, 8, 9, 39, 40, 70, 71, 101 };
	static const u16 q2[] = { 1, 1, 2, 2, 3, 3, 4, 4 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(len2); i++)
		KUNIT_EXPECT_EQ_MSG(test, irdma_uk_inline_quanta(2, len2[i]),
				    q2[i], "len %u", len2[i]);
	KUNIT_EXPECT_EQ(test, irdma_uk_inline_quanta(1, 16), 1);
	KUNIT_EXPECT_EQ(test, irdma_uk_inline_quanta(1, 17), 2);
	KUNIT_EXPECT_EQ(test, irdma_uk_inline_quanta(1, 48), 2);
}

static void irdma_uk_rq_shift_by_frags(struct kunit *test)
{
	static const u8 want[] = { 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3 };
	unsigned int i;
	u8 shift;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_EQ(test, irdma_uk_rq_shift(i, &shift), 0);
		KUNIT_EXPECT_EQ_MSG(test, shift, want[i], "frags %u", i);
	}
	KUNIT_EXPECT_EQ(test, irdma_uk_rq_shift(15, &shift), -EINVAL);
}

/* ---- golden WQE layouts ---- */

enum uk_kind { UK_RDMA, UK_SEND, UK_LINV, UK_BIND, UK_FREG, UK_RECV };

struct uk_golden_case {
	const char *name;
	u8 hw_rev;
	enum uk_kind kind;
	struct irdma_uk_wr wr;
	struct irdma_uk_bind bind;
	struct irdma_uk_fastreg reg;
	u32 nwords;
	u64 want[8];
};

static const struct irdma_uk_sge uk_sg[] = {
	{ 0x1000, 0x100, 0x11 },
	{ 0x2000, 0x200, 0x22 },
	{ 0x3000, 0x300, 0x33 },
};

static const struct uk_golden_case uk_golden_cases[] = {
	{
		.name = "write_1sge_gen2", .hw_rev = 2, .kind = UK_RDMA,
		.wr = { .op = 0x00, .sg = uk_sg, .num_sge = 1,
			.remote_addr = 0xabcdef000ULL, .rkey = 0x5501,
			.signaled = true },
		.nwords = 4,
		.want = { 0x1000, FRAG2(0x100, 0x11), 0xabcdef000ULL,
			  V63 | SIG | OPC(0) | 0x5501 },
	}, {
		.name = "write_2sge_pad_gen2", .hw_rev = 2, .kind = UK_RDMA,
		.wr = { .op = 0x00, .sg = uk_sg, .num_sge = 2,
			.remote_addr = 0x7000, .rkey = 0x99, .local_fence = true },
		.nwords = 8,
		.want = { 0x1000, FRAG2(0x100, 0x11), 0x7000,
			  V63 | (1ULL << 61) | ADDL(2) | 0x99,
			  0x2000, FRAG2(0x200, 0x22), 0, V63 },
	}, {
		.name = "read_3sge_gen2", .hw_rev = 2, .kind = UK_RDMA,
		.wr = { .op = 0x01, .sg = uk_sg, .num_sge = 3,
			.remote_addr = 0x8000, .rkey = 0x42, .read_fence = true },
		.nwords = 8,
		.want = { 0x1000, FRAG2(0x100, 0x11), 0x8000,
			  V63 | (1ULL << 60) | ADDL(2) | OPC(1) | 0x42,
			  0x2000, FRAG2(0x200, 0x22),
			  0x3000, FRAG2(0x300, 0x33) },
	}, {
		.name = "send_imm_gen2", .hw_rev = 2, .kind = UK_SEND,
		.wr = { .op = 0x03, .sg = uk_sg, .num_sge = 1,
			.imm = 0xdeadbeef, .imm_valid = true, .signaled = true },
		.nwords = 8,
		.want = { 0xdeadbeef, 0, 0,
			  V63 | SIG | IMMF | ADDL(2) | OPC(3),
			  0x1000, FRAG2(0x100, 0x11), 0, V63 },
	}, {
		.name = "send_inv_gen2", .hw_rev = 2, .kind = UK_SEND,
		.wr = { .op = 0x04, .sg = uk_sg, .num_sge = 1,
			.inv_stag = 0x777 },
		.nwords = 4,
		.want = { 0x1000, FRAG2(0x100, 0x11), 0, V63 | OPC(4) | 0x777 },
	}, {
		.name = "send_ud_gen2", .hw_rev = 2, .kind = UK_SEND,
		.wr = { .op = 0x05, .sg = uk_sg, .num_sge = 1, .ah_id = 9,
			.dest_qp = 0x123456, .qkey = 0x11112222 },
		.nwords = 4,
		.want = { 0x1000, FRAG2(0x100, 0x11),
			  0x123456ULL << 32 | 0x11112222, V63 | OPC(5) | 9 },
	}, {
		.name = "write_2sge_gen1", .hw_rev = 1, .kind = UK_RDMA,
		.wr = { .op = 0x0d, .sg = uk_sg, .num_sge = 2,
			.remote_addr = 0x9000, .rkey = 0x31 },
		.nwords = 8,
		.want = { 0x1000, FRAG1(0x100, 0x11), 0x9000,
			  V63 | ADDL(1) | OPC(0x0d) | 0x31,
			  0x2000, FRAG1(0x200, 0x22), 0, 0 },
	}, {
		.name = "local_inv_gen2", .hw_rev = 2, .kind = UK_LINV,
		.wr = { .inv_stag = 0xabcd01, .signaled = true },
		.nwords = 4,
		.want = { 0, 0xabcd01, 0, V63 | SIG | OPC(0x0a) },
	}, {
		.name = "bind_gen2", .hw_rev = 2, .kind = UK_BIND,
		.bind = { .mw_stag = 0x500, .mr_stag = 0x600, .va = 0x10000,
			  .len = 0x2000, .rights = 0x0c, .type2 = true },
		.nwords = 4,
		.want = { 0x10000, 0x600ULL << 32 | 0x500, 0x2000,
			  V63 | (1ULL << 53) | 0x0cULL << 48 | OPC(8) },
	}, {
		.name = "bind_gen1_swapped", .hw_rev = 1, .kind = UK_BIND,
		.bind = { .mw_stag = 0x500, .mr_stag = 0x600, .va = 0x10000,
			  .len = 0x2000, .rights = 0x04, .zero_based = true },
		.nwords = 4,
		.want = { 0x10000, 0x500ULL << 32 | 0x600, 0x2000,
			  V63 | (1ULL << 54) | 0x04ULL << 48 | OPC(8) },
	}, {
		.name = "fastreg_gen2", .hw_rev = 2, .kind = UK_FREG,
		.reg = { .stag = 0x123405, .va = 0x7f0000, .len = 0x30000,
			 .pbl_addr = 0x55000, .first_pble = 0x234567,
			 .pbl_levels = 1, .page_size = 0, .rights = 0x0f,
			 .signaled = true },
		.nwords = 4,
		.want = { 0x7f0000, 0x55000 | 0x23, 0x4567ULL << 48 | 0x30000,
			  V63 | SIG | (1ULL << 53) | 0x0fULL << 48 |
			  1ULL << 44 | OPC(9) | 0x1234ULL << 8 | 0x05 },
	}, {
		.name = "fastreg_two_level", .hw_rev = 2, .kind = UK_FREG,
		.reg = { .stag = 0x200007, .va = 0x10000, .len = 0x400000,
			 .pbl_addr = 0x66000, .first_pble = 0x40,
			 .pbl_levels = 2, .rights = 0x03 },
		.nwords = 4,
		.want = { 0x10000, 0x66000, 0x40ULL << 48 | 0x400000,
			  V63 | (1ULL << 53) | 0x03ULL << 48 |
			  3ULL << 44 | OPC(9) | 0x2000ULL << 8 | 0x07 },
	},
};

static void uk_golden_desc(const struct uk_golden_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(uk_golden, uk_golden_cases, uk_golden_desc);

static int uk_post_case(struct irdma_uk_qp *qp, const struct uk_golden_case *c)
{
	switch (c->kind) {
	case UK_RDMA:
		return irdma_uk_post_rdma(qp, &c->wr);
	case UK_SEND:
		return irdma_uk_post_send(qp, &c->wr);
	case UK_LINV:
		return irdma_uk_post_local_inv(qp, &c->wr);
	case UK_BIND:
		return irdma_uk_post_bind(qp, &c->bind);
	case UK_FREG:
		return irdma_uk_post_fastreg(qp, &c->reg);
	default:
		return -EINVAL;
	}
}

static void irdma_uk_post_golden_layout(struct kunit *test)
{
	const struct uk_golden_case *c = test->param_value;
	struct uk_fixture *f = test->priv;
	unsigned int w;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, c->hw_rev), 0);
	KUNIT_ASSERT_EQ(test, uk_post_case(&f->qp, c), 0);
	for (w = 0; w < c->nwords; w++)
		KUNIT_EXPECT_EQ_MSG(test, uk_word(f->qp.sq, w), c->want[w],
				    "word %u", w);
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, c->nwords / 4);
}

static void irdma_uk_post_recv_layout(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	__le64 *wqe;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_recv(&f->qp, 5, uk_sg, 1), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_recv(&f->qp, 6, uk_sg, 2), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.rq, 0), 0x1000ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.rq, 1), FRAG2(0x100, 0x11));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.rq, 3), V63);
	/* second WQE starts 4 quanta (rq_shift 2) later */
	wqe = f->qp.rq + 16;
	KUNIT_EXPECT_EQ(test, uk_word(wqe, 3), V63 | ADDL(2));
	KUNIT_EXPECT_EQ(test, uk_word(wqe, 4), 0x2000ULL);
	KUNIT_EXPECT_EQ(test, uk_word(wqe, 5), FRAG2(0x200, 0x22));
	KUNIT_EXPECT_EQ(test, uk_word(wqe, 7), V63);
	KUNIT_EXPECT_EQ(test, f->qp.rq_wrid[1], 6ULL);
}

static void irdma_uk_post_inline_gen2_layout(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_sge sge;
	struct irdma_uk_wr wr = { .op = 0x03, .num_sge = 1, .sg = &sge,
				  .inline_data = true };
	u8 data[45], *wqe;
	unsigned int i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = i + 1;
	sge.addr = (uintptr_t)data;
	sge.len = sizeof(data);
	sge.lkey = 0;
	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_send(&f->qp, &wr), 0);
	wqe = (u8 *)f->qp.sq;
	/* 45 bytes: 8 in quantum 0, 31 in quantum 1, 6 in quantum 2 */
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 3U);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3),
			V63 | INLF | INLEN(45) | OPC(3));
	KUNIT_EXPECT_EQ(test, memcmp(wqe + 8, data, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(wqe + 32, data + 8, 31), 0);
	KUNIT_EXPECT_EQ(test, wqe[63], 0x80);
	KUNIT_EXPECT_EQ(test, memcmp(wqe + 64, data + 39, 6), 0);
	KUNIT_EXPECT_EQ(test, wqe[95], 0x80);
	KUNIT_EXPECT_EQ(test, wqe[70], 0);
}

/* A send of the ILQ: one buffer, the AH index and the TCP header length */
static void irdma_uk_post_send_raw_queue_layout(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_sge sge = { .addr = 0x12340, .len = 74 };
	struct irdma_uk_wr wr = { .op = 0x03, .num_sge = 1, .sg = &sge,
				  .ah_id = 0x1abcd, .l4len = 8,
				  .signaled = true, .wr_id = 9 };

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_send(&f->qp, &wr), 0);
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 1U);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 0), 0x12340ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 1), FRAG2(74, 0));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 2), 0ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3),
			V63 | SIG | (8ULL << 42) | OPC(3) | 0x1abcdULL);
	/* the field is four bits wide */
	wr.l4len = 16;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_send(&f->qp, &wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 1U);
}

/*
 * gen1 raw queue send: no AH; word 2 describes the whole frame (MAC
 * header in 2-byte words, IP header in 4-byte words, TCP, IPv4 with
 * checksum or IPv6), the header may ask for loopback; malformed
 * descriptions are refused before anything is written.
 */
static void irdma_uk_post_send_raw_gen1_layout(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_sge sge = { .addr = 0x22000, .len = 94 };
	struct irdma_uk_wr wr = { .op = 0x03, .num_sge = 1, .sg = &sge,
				  .l4len = 8, .maclen = 18, .iplen = 20,
				  .ipv4 = true, .signaled = true };

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 1), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_send(&f->qp, &wr), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 0), 0x22000ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 1), FRAG1(94, 0));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 2),
			9ULL << 56 | 5ULL << 48 | 1ULL << 30 | 3ULL << 28 |
			8ULL << 24);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), V63 | SIG | OPC(3));

	wr.maclen = 14;
	wr.iplen = 40;
	wr.ipv4 = false;
	wr.loopback = true;
	KUNIT_ASSERT_EQ(test, irdma_uk_post_send(&f->qp, &wr), 0);
	/* the second WQE takes the quantum kept invalid after the first */
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 2U);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq + IRDMA_QUANTUM_WORDS, 2),
			7ULL << 56 | 10ULL << 48 | 1ULL << 30 | 1ULL << 28 |
			8ULL << 24);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq + IRDMA_QUANTUM_WORDS, 3),
			V63 | SIG | OPC(3) | BIT_ULL(44));

	wr.maclen = 15;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_send(&f->qp, &wr), -EINVAL);
	wr.maclen = 14;
	wr.ah_id = 1;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_send(&f->qp, &wr), -EINVAL);
	wr.ah_id = 0;
	wr.iplen = 22;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_send(&f->qp, &wr), -EINVAL);
}

/*
 * A UD send carries the AH, Q_Key and destination QP; held, it is written
 * but for its header, and a send after it does not get ahead of it: the
 * device stops at the first quantum without a valid header.
 */
static void irdma_uk_post_send_ud_held(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_sge sge = { .addr = 0x5000, .len = 296, .lkey = 7 };
	struct irdma_uk_held held = {};
	struct irdma_uk_wr wr = { .op = 0x03, .num_sge = 1, .sg = &sge,
				  .ah_id = 0x101, .dest_qp = 1,
				  .qkey = 0x80010000, .signaled = true,
				  .hold = &held };

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_send(&f->qp, &wr), 0);
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 1U);
	KUNIT_EXPECT_PTR_EQ(test, held.wqe, f->qp.sq);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 0), 0x5000ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 1), FRAG2(296, 7));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 2), 1ULL << 32 | 0x80010000ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), 0ULL);
	KUNIT_EXPECT_EQ(test, held.hdr, V63 | SIG | OPC(3) | 0x101ULL);
	/* the next one is complete, behind the held one */
	wr.hold = NULL;
	wr.ah_id = 0x102;
	KUNIT_ASSERT_EQ(test, irdma_uk_post_send(&f->qp, &wr), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq + 4, 3),
			V63 | SIG | OPC(3) | 0x102ULL);
	irdma_uk_ring_sq_db(&f->qp);
	KUNIT_ASSERT_EQ(test, f->regs.n, 1U);
	/* released: the header goes in and the doorbell rings again */
	irdma_uk_release_held(&f->qp, &held);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), held.hdr);
	KUNIT_ASSERT_EQ(test, f->regs.n, 2U);
	KUNIT_EXPECT_EQ(test, f->regs.val[1], 0x1234U);
}

static void irdma_uk_post_inline_gen1_layout(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_sge sge;
	struct irdma_uk_wr wr = { .op = 0x00, .num_sge = 1, .sg = &sge,
				  .inline_data = true, .remote_addr = 0x40 };
	u8 data[40], *wqe;
	unsigned int i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = 0xa0 + i;
	sge.addr = (uintptr_t)data;
	sge.len = sizeof(data);
	sge.lkey = 0;
	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 1), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), 0);
	wqe = (u8 *)f->qp.sq;
	KUNIT_EXPECT_EQ(test, memcmp(wqe, data, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(wqe + 32, data + 16, 24), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 2), 0x40ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), V63 | INLF | INLEN(40));
}

/* ---- bad requests ---- */

static void irdma_uk_post_rejects_bad_requests(struct kunit *test)
{
	struct irdma_uk_sge many[14] = {};
	struct uk_fixture *f = test->priv;
	struct irdma_uk_sge big = { .addr = 0x1000, .len = 0x80000000U };
	struct irdma_uk_wr wr = { .op = 0x00, .sg = many, .num_sge = 14 };
	struct irdma_uk_fastreg reg = { .pbl_addr = 0x1001 };

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_EXPECT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), -EINVAL);
	wr.num_sge = 1;
	wr.sg = &big;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), -EINVAL);
	wr.sg = uk_sg;
	wr.op = 0x01;
	wr.imm_valid = true;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), -EINVAL);
	wr.op = 0x03;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), -EINVAL);
	wr.op = 0x00;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_send(&f->qp, &wr), -EINVAL);
	wr.op = 0x03;
	wr.imm_valid = false;
	wr.inline_data = true;
	big.len = 102;
	wr.sg = &big;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_send(&f->qp, &wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_uk_post_fastreg(&f->qp, &reg), -EINVAL);
	reg.pbl_addr = 0x1000;
	reg.len = 1ULL << 41;
	KUNIT_EXPECT_EQ(test, irdma_uk_post_fastreg(&f->qp, &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_uk_post_recv(&f->qp, 1, many, 14), -EINVAL);
	/* nothing was posted by any of the above */
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 0U);
	KUNIT_EXPECT_EQ(test, f->qp.rq_head, 0U);
}

static void irdma_uk_qp_init_rejects_bad_sizes(struct kunit *test)
{
	struct uk_fixture *f = test->priv;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	f->qp.sq_size = 24;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_init(&f->qp), -EINVAL);
	f->qp.sq_size = UK_SQ_SIZE;
	f->qp.max_frags = 14;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_init(&f->qp), -EINVAL);
	f->qp.max_frags = 13;
	f->qp.hw_rev = 3;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_init(&f->qp), -EINVAL);
	KUNIT_EXPECT_EQ(test, uk_qp_setup(test, f, 1), 0);
	f->qp.max_frags = 4;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_init(&f->qp), -EINVAL);
}

/* ---- ring behaviour ---- */

static void irdma_uk_sq_pads_chunk_with_nops(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_wr wr = { .op = 0x00, .sg = uk_sg, .num_sge = 1 };
	unsigned int i;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	for (i = 0; i < 7; i++)
		KUNIT_ASSERT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), 0);
	wr.num_sge = 2;
	KUNIT_ASSERT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), 0);
	/* quantum 7 became a NOP, the 2-quantum WQE starts at 8 */
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq + 7 * 4, 3), V63 | OPC(0x0c));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq + 8 * 4, 3), V63 | ADDL(2));
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 10U);
}

static void irdma_uk_sq_full_returns_enomem(struct kunit *test)
{
	struct irdma_uk_wr wr = { .inv_stag = 1 };
	struct uk_fixture *f = test->priv;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	for (i = 0; i < UK_SQ_SIZE - 1; i++)
		KUNIT_ASSERT_EQ(test, irdma_uk_post_nop(&f->qp, i, true), 0);
	KUNIT_EXPECT_EQ(test, irdma_uk_post_nop(&f->qp, 99, true), -ENOMEM);
	KUNIT_EXPECT_EQ(test, irdma_uk_post_local_inv(&f->qp, &wr), -ENOMEM);
}

/* Device side of the test: write a successful SQ CQE for @wqe_idx. */
static void uk_dev_write_cqe(struct uk_fixture *f, u32 slot, u8 pol,
			     u32 wqe_idx, bool sq)
{
	__le64 *cqe = f->cq.ring + slot * 4;

	cqe[0] = cpu_to_le64(0x40);
	cqe[1] = cpu_to_le64(0xfeed0000ULL);
	cqe[2] = cpu_to_le64((u64)f->qp.qp_id << 32);
	cqe[3] = cpu_to_le64((u64)pol << 63 | (u64)sq << 62 |
			     (u64)wqe_idx << 32);
}

static void irdma_uk_sq_polarity_over_laps(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_wr wr = { .op = 0x00, .sg = uk_sg, .num_sge = 1 };
	u32 posted = 0, dev_slot = 0;
	struct irdma_uk_done done;
	struct irdma_uk_cqe cqe;
	u8 dev_pol = 1;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	/* five laps of the SQ, one WR in flight at a time */
	while (posted < 5 * UK_SQ_SIZE) {
		u32 idx = f->qp.sq_head;
		u8 lap_pol = (posted / UK_SQ_SIZE + 1) & 1;

		wr.wr_id = posted;
		KUNIT_ASSERT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), 0);
		KUNIT_ASSERT_EQ(test, uk_word(f->qp.sq + idx * 4, 3) >> 63,
				(u64)lap_pol);
		uk_dev_write_cqe(f, dev_slot, dev_pol, idx, true);
		if (++dev_slot == UK_CQ_SIZE) {
			dev_slot = 0;
			dev_pol ^= 1;
		}
		KUNIT_ASSERT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
		KUNIT_ASSERT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done),
				0);
		KUNIT_ASSERT_EQ(test, done.wr_id, (u64)posted);
		KUNIT_ASSERT_EQ(test, done.bytes, 0x100U);
		KUNIT_EXPECT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), -ENOENT);
		posted++;
	}
	KUNIT_EXPECT_EQ(test, f->qp.sq_tail, f->qp.sq_head);
	KUNIT_EXPECT_EQ(test, uk_word(f->cq.shadow, 0), (u64)f->cq.head);
}

static void irdma_uk_cq_poll_stale_lap_is_empty(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_cqe cqe;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	/* first lap: device writes valid=1 into every slot */
	for (i = 0; i < UK_CQ_SIZE; i++)
		uk_dev_write_cqe(f, i, 1, 0, false);
	for (i = 0; i < UK_CQ_SIZE; i++)
		KUNIT_ASSERT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
	/* the old entries are still there but belong to the last lap */
	KUNIT_EXPECT_EQ(test, f->cq.head, 0U);
	KUNIT_EXPECT_EQ(test, f->cq.pol, 0);
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), -ENOENT);
	uk_dev_write_cqe(f, 0, 0, 3, false);
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
	KUNIT_EXPECT_EQ(test, cqe.wqe_idx, 3U);
	KUNIT_EXPECT_EQ(test, uk_word(f->cq.shadow, 0), 1ULL);
}

static void irdma_uk_cq_peek_decodes_fields(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	__le64 *raw = f->cq.ring;
	struct irdma_uk_cqe cqe;

	raw[0] = cpu_to_le64(0x11223344ULL << 32 | 0x5000);
	raw[1] = cpu_to_le64(0xffff888812345678ULL);
	raw[2] = cpu_to_le64(0xabcdefULL << 32 | 0xc0ffee);
	raw[3] = cpu_to_le64(V63 | 0x3fULL << 56 | 1ULL << 55 | 1ULL << 54 |
			     1ULL << 53 | 0x1234ULL << 32 | 0x0002ULL << 16 |
			     0x0007);
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_peek(&f->cq, &cqe), 0);
	KUNIT_EXPECT_EQ(test, cqe.bytes, 0x5000U);
	KUNIT_EXPECT_EQ(test, cqe.tcp_seq_rtt, 0x11223344U);
	KUNIT_EXPECT_EQ(test, cqe.ctx, 0xffff888812345678ULL);
	KUNIT_EXPECT_EQ(test, cqe.qp_id, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, cqe.inv_stag, 0xc0ffeeU);
	KUNIT_EXPECT_EQ(test, cqe.op, 0x3f);
	KUNIT_EXPECT_TRUE(test, cqe.error);
	KUNIT_EXPECT_TRUE(test, cqe.solicited);
	KUNIT_EXPECT_TRUE(test, cqe.stag_inv);
	KUNIT_EXPECT_FALSE(test, cqe.sq);
	KUNIT_EXPECT_FALSE(test, cqe.ext);
	KUNIT_EXPECT_EQ(test, cqe.wqe_idx, 0x1234U);
	KUNIT_EXPECT_EQ(test, cqe.major, 2);
	KUNIT_EXPECT_EQ(test, cqe.minor, 7);
	/* peek does not consume */
	KUNIT_EXPECT_EQ(test, f->cq.head, 0U);
}

static void irdma_uk_cq_poll_extended_cqe(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	__le64 *raw = f->cq.ring;
	struct irdma_uk_cqe cqe;

	raw[3] = cpu_to_le64(V63 | 1ULL << 50);
	/* extension not written yet: nothing to report */
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_peek(&f->cq, &cqe), -ENOENT);
	raw[4] = cpu_to_le64(0x99887766);
	raw[6] = cpu_to_le64(0x0064ULL << 48 | 0x0200aabbccddULL);
	raw[7] = cpu_to_le64(V63 | 1ULL << 62 | 1ULL << 61 | 1ULL << 60);
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
	KUNIT_EXPECT_TRUE(test, cqe.ext);
	KUNIT_EXPECT_TRUE(test, cqe.imm_valid);
	KUNIT_EXPECT_EQ(test, cqe.imm, 0x99887766U);
	KUNIT_EXPECT_EQ(test, cqe.ud_smac, 0x0200aabbccddULL);
	KUNIT_EXPECT_EQ(test, cqe.ud_vlan, 0x64);
	/* an extended 32-byte CQE uses two slots */
	KUNIT_EXPECT_EQ(test, f->cq.head, 2U);
}

/*
 * gen1 has no extended CQEs: bit 50 of a raw queue's receive says the
 * frame is tagged, word 2's L3PROTO says IPv4 (0) or IPv6
 */
static void irdma_uk_cq_poll_gen1_raw_cqe(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	__le64 *raw = f->cq.ring;
	struct irdma_uk_cqe cqe;

	f->cq.hw_rev = 1;
	raw[0] = cpu_to_le64(78);
	raw[2] = cpu_to_le64(1ULL << 32 | 1);
	raw[3] = cpu_to_le64(V63 | 1ULL << 50);
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
	KUNIT_EXPECT_FALSE(test, cqe.ext);
	KUNIT_EXPECT_TRUE(test, cqe.vlan_valid);
	KUNIT_EXPECT_FALSE(test, cqe.ipv4);
	KUNIT_EXPECT_EQ(test, cqe.bytes, 78U);
	KUNIT_EXPECT_EQ(test, cqe.qp_id, 1U);
	/* one slot, not two */
	KUNIT_EXPECT_EQ(test, f->cq.head, 1U);

	raw[4 + 2] = cpu_to_le64(1ULL << 32);
	raw[4 + 3] = cpu_to_le64(V63 | 1ULL << 32);
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
	KUNIT_EXPECT_FALSE(test, cqe.vlan_valid);
	KUNIT_EXPECT_TRUE(test, cqe.ipv4);
	KUNIT_EXPECT_EQ(test, cqe.wqe_idx, 1U);
}

static void irdma_uk_cq_poll_ext64_cqe(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	__le64 *raw = f->cq.ring;
	struct irdma_uk_cqe cqe;

	f->cq.ext64 = true;
	raw[3] = cpu_to_le64(V63 | 1ULL << 50 | 5ULL << 32);
	raw[4] = cpu_to_le64(0x1234);
	/* second half not written yet */
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_peek(&f->cq, &cqe), -ENOENT);
	raw[7] = cpu_to_le64(V63 | 1ULL << 62);
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), 0);
	KUNIT_EXPECT_EQ(test, cqe.imm, 0x1234U);
	KUNIT_EXPECT_EQ(test, cqe.wqe_idx, 5U);
	/* a 64-byte CQE is one slot */
	KUNIT_EXPECT_EQ(test, f->cq.head, 1U);
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_poll(&f->cq, &cqe), -ENOENT);
}

static void irdma_uk_qp_complete_flush_all(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_wr wr = { .op = 0x00, .sg = uk_sg, .num_sge = 2 };
	struct irdma_uk_cqe cqe = { .sq = true, .error = true, .major = 1 };
	struct irdma_uk_done done;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	for (i = 0; i < 4; i++) {
		wr.wr_id = 100 + i;
		KUNIT_ASSERT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), 0);
	}
	/* one flush CQE reports every outstanding WR, oldest first */
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done),
				0);
		KUNIT_EXPECT_EQ(test, done.wr_id, 100ULL + i);
		KUNIT_EXPECT_TRUE(test, done.flushed);
	}
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done),
			-ENOENT);
	cqe.sq = false;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done),
			-ENOENT);
}

static void irdma_uk_qp_complete_flush_skips_unsignaled(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_wr wr = { .op = 0x00, .sg = uk_sg, .num_sge = 2 };
	struct irdma_uk_cqe cqe = { .sq = true, .error = true, .major = 1,
				    .minor = 2 };
	struct irdma_uk_done done;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	/* four 2-quanta WRs at quanta 0, 2, 4, 6 */
	for (i = 0; i < 4; i++) {
		wr.wr_id = 100 + i;
		KUNIT_ASSERT_EQ(test, irdma_uk_post_rdma(&f->qp, &wr), 0);
	}
	/* the CQE names quantum 4: WRs 100 and 101 ran unsignaled */
	cqe.wqe_idx = 4;
	KUNIT_ASSERT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done), 0);
	KUNIT_EXPECT_EQ(test, done.wr_id, 102ULL);
	KUNIT_EXPECT_TRUE(test, done.named);
	KUNIT_ASSERT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done), 0);
	KUNIT_EXPECT_EQ(test, done.wr_id, 103ULL);
	KUNIT_EXPECT_FALSE(test, done.named);
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done),
			-ENOENT);
	/* a stale CQE naming a retired WQE finds nothing either */
	cqe.wqe_idx = 2;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done),
			-ENOENT);
}

static void irdma_uk_qp_complete_rejects_bad_index(struct kunit *test)
{
	struct uk_fixture *f = test->priv;
	struct irdma_uk_cqe cqe = { .sq = true, .wqe_idx = UK_SQ_SIZE };
	struct irdma_uk_done done;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done), -EIO);
	cqe.sq = false;
	cqe.wqe_idx = UK_RQ_SIZE << 2;
	KUNIT_EXPECT_EQ(test, irdma_uk_qp_complete(&f->qp, &cqe, &done), -EIO);
}

static void irdma_uk_ring_sq_db_writes_qp_id(struct kunit *test)
{
	struct uk_fixture *f = test->priv;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	irdma_uk_ring_sq_db(&f->qp);
	KUNIT_EXPECT_EQ(test, f->regs.n, 0U);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_nop(&f->qp, 1, false), 0);
	irdma_uk_ring_sq_db(&f->qp);
	irdma_uk_ring_sq_db(&f->qp);
	KUNIT_ASSERT_EQ(test, f->regs.n, 1U);
	KUNIT_EXPECT_EQ(test, f->regs.off[0], 0x4400U);
	KUNIT_EXPECT_EQ(test, f->regs.val[0], 0x1234U);
}

static void irdma_uk_cq_arm_sets_shadow_and_db(struct kunit *test)
{
	struct uk_fixture *f = test->priv;

	f->cq.shadow[4] = cpu_to_le64(3ULL << 16 | 0x55);
	irdma_uk_cq_arm(&f->cq, false);
	/* sequence 3 wraps to 0, select kept, both arm bits */
	KUNIT_EXPECT_EQ(test, uk_word(f->cq.shadow, 4),
			0x55ULL | 1ULL << 14 | 1ULL << 15);
	irdma_uk_cq_arm(&f->cq, true);
	KUNIT_EXPECT_EQ(test, uk_word(f->cq.shadow, 4),
			0x55ULL | 1ULL << 15 | 1ULL << 16);
	KUNIT_ASSERT_EQ(test, f->regs.n, 2U);
	KUNIT_EXPECT_EQ(test, f->regs.off[1], 0x2c00U);
	KUNIT_EXPECT_EQ(test, f->regs.val[1], 77U);
}

static void irdma_uk_qp_init_conn_quanta(struct kunit *test)
{
	struct uk_fixture *f = test->priv;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	f->qp.conn_quanta = 3;
	KUNIT_ASSERT_EQ(test, irdma_uk_qp_init(&f->qp), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_post_nop(&f->qp, 1, false), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq + 3 * 4, 3), V63 | OPC(0x0c));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), 0ULL);
}

static void irdma_uk_conn_wqes_layout(struct kunit *test)
{
	struct uk_fixture *f = test->priv;

	KUNIT_ASSERT_EQ(test, uk_qp_setup(test, f, 2), 0);
	KUNIT_EXPECT_EQ(test, irdma_uk_conn_lsmm(&f->qp, 0x9000, 28, 0x42),
			-EINVAL);
	f->qp.conn_quanta = 3;
	KUNIT_ASSERT_EQ(test, irdma_uk_qp_init(&f->qp), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_conn_lsmm(&f->qp, 0x9000, 28, 0x42), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 0), 0x9000ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 1), FRAG2(28, 0x42));
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3),
			V63 | BIT_ULL(59) | BIT_ULL(58) | OPC(3));
	KUNIT_ASSERT_EQ(test, irdma_uk_conn_rtr(&f->qp, true), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 1), V63 | 0xabcd);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), V63 | OPC(1) | 0x1234);
	KUNIT_ASSERT_EQ(test, irdma_uk_conn_rtr(&f->qp, false), 0);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 1), V63);
	KUNIT_EXPECT_EQ(test, uk_word(f->qp.sq, 3), V63 | OPC(0));
	/* ordinary posting starts after the connection quanta */
	KUNIT_EXPECT_EQ(test, f->qp.sq_head, 3U);
}

static struct kunit_case irdma_uk_cases[] = {
	KUNIT_CASE_PARAM(irdma_uk_sq_quanta_by_frags, uk_quanta_gen_params),
	KUNIT_CASE(irdma_uk_inline_quanta_limits),
	KUNIT_CASE(irdma_uk_rq_shift_by_frags),
	KUNIT_CASE_PARAM(irdma_uk_post_golden_layout, uk_golden_gen_params),
	KUNIT_CASE(irdma_uk_post_recv_layout),
	KUNIT_CASE(irdma_uk_post_inline_gen2_layout),
	KUNIT_CASE(irdma_uk_post_send_raw_queue_layout),
	KUNIT_CASE(irdma_uk_post_send_raw_gen1_layout),
	KUNIT_CASE(irdma_uk_post_send_ud_held),
	KUNIT_CASE(irdma_uk_post_inline_gen1_layout),
	KUNIT_CASE(irdma_uk_post_rejects_bad_requests),
	KUNIT_CASE(irdma_uk_qp_init_rejects_bad_sizes),
	KUNIT_CASE(irdma_uk_sq_pads_chunk_with_nops),
	KUNIT_CASE(irdma_uk_sq_full_returns_enomem),
	KUNIT_CASE(irdma_uk_sq_polarity_over_laps),
	KUNIT_CASE(irdma_uk_cq_poll_stale_lap_is_empty),
	KUNIT_CASE(irdma_uk_cq_peek_decodes_fields),
	KUNIT_CASE(irdma_uk_cq_poll_extended_cqe),
	KUNIT_CASE(irdma_uk_cq_poll_gen1_raw_cqe),
	KUNIT_CASE(irdma_uk_cq_poll_ext64_cqe),
	KUNIT_CASE(irdma_uk_qp_complete_flush_all),
	KUNIT_CASE(irdma_uk_qp_complete_flush_skips_unsignaled),
	KUNIT_CASE(irdma_uk_qp_complete_rejects_bad_index),
	KUNIT_CASE(irdma_uk_ring_sq_db_writes_qp_id),
	KUNIT_CASE(irdma_uk_cq_arm_sets_shadow_and_db),
	KUNIT_CASE(irdma_uk_qp_init_conn_quanta),
	KUNIT_CASE(irdma_uk_conn_wqes_layout),
	{}
};

static struct kunit_suite irdma_uk_suite = {
	.name = "irdma_uk",
	.init = uk_test_init,
	.test_cases = irdma_uk_cases,
};

kunit_test_suite(irdma_uk_suite);
