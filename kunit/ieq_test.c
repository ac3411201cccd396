// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests for the IEQ's stream of partial FPDUs (ieq.c): FPDUs split
 * across segments come out whole and only once complete, the first
 * segment's bytes before the FPSN are left out, duplicates and gaps are
 * refused, a new FPSN starts over, and a bad length or CRC is reported.
 */
#include <kunit/test.h>

#define IT_SIZE		4096
#define IT_FPS		0x7ffffff0U	/* the stream wraps past 2^31 below */

/* An FPDU of @ulpdu bytes (pattern @tag) at @p; returns its length */
static u32 it_fpdu(u8 *p, u32 ulpdu, u8 tag, bool good_crc)
{
	u32 len = ALIGN(IRDMA_IEQ_MPA_LEN + ulpdu, 4);
	u32 crc;

	put_unaligned_be16(ulpdu, p);
	memset(p + IRDMA_IEQ_MPA_LEN, tag, ulpdu);
	memset(p + IRDMA_IEQ_MPA_LEN + ulpdu, 0, len - IRDMA_IEQ_MPA_LEN - ulpdu);
	crc = ~__crc32c_le(~0U, p, len);
	put_unaligned_le32(good_crc ? crc : crc ^ 1, p + len);
	return len + IRDMA_IEQ_MPA_CRC;
}

static struct irdma_ieq_stream *it_stream(struct kunit *test)
{
	struct irdma_ieq_stream *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	irdma_ieq_stream_init(s);
	return s;
}

static void it_done(struct irdma_ieq_stream *s)
{
	irdma_ieq_stream_reset(s);
}

/* Three FPDUs cut into segments at odd places come out at FPDU borders */
static void irdma_ieq_split(struct kunit *test)
{
	struct irdma_ieq_stream *s = it_stream(test);
	u8 *wire = kunit_kzalloc(test, 2048, GFP_KERNEL);
	u32 a, b, c, n, fpdus;

	KUNIT_ASSERT_NOT_NULL(test, wire);
	/* 16 bytes the engine placed, then the FPDUs from the FPSN on */
	a = it_fpdu(wire + 16, 301, 0xa1, true);
	b = it_fpdu(wire + 16 + a, 57, 0xb2, true);
	c = it_fpdu(wire + 16 + a + b, 400, 0xc3, true);

	/* the first segment: the placed bytes and part of FPDU a */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, IT_FPS, IT_FPS - 16,
						   wire, 16 + 100, IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, s->seq, IT_FPS);
	KUNIT_EXPECT_EQ(test, s->len, 100U);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1500, true, &n,
						     &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);

	/* the rest of a and the start of b */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, IT_FPS, IT_FPS + 100,
						   wire + 16 + 100, a - 100 + 10,
						   IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1500, true, &n,
						     &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, a);
	KUNIT_EXPECT_EQ(test, fpdus, 1U);
	KUNIT_EXPECT_EQ(test, memcmp(s->buf, wire + 16, a), 0);
	irdma_ieq_stream_consume(s, n);
	KUNIT_EXPECT_EQ(test, s->seq, IT_FPS + a);
	KUNIT_EXPECT_EQ(test, s->len, 10U);

	/* the rest of b and all of c: both at once */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, IT_FPS, IT_FPS + a + 10,
						   wire + 16 + a + 10,
						   b - 10 + c, IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1500, true, &n,
						     &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, b + c);
	KUNIT_EXPECT_EQ(test, fpdus, 2U);
	KUNIT_EXPECT_EQ(test, memcmp(s->buf, wire + 16 + a, b + c), 0);
	/* a send too small for both takes b alone */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, b + c - 1, 1500, true,
						     &n, &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, b);
	KUNIT_EXPECT_EQ(test, fpdus, 1U);
	irdma_ieq_stream_consume(s, b + c);
	KUNIT_EXPECT_EQ(test, s->len, 0U);
	KUNIT_EXPECT_EQ(test, s->seq, IT_FPS + a + b + c);
	it_done(s);
}

/* Nothing new, a gap, a new FPSN */
static void irdma_ieq_order(struct kunit *test)
{
	struct irdma_ieq_stream *s = it_stream(test);
	u8 *wire = kunit_kzalloc(test, 2048, GFP_KERNEL);
	u32 a, n, fpdus;

	KUNIT_ASSERT_NOT_NULL(test, wire);
	a = it_fpdu(wire, 500, 0x11, true);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 1000, 1000, wire, 200,
						   IT_SIZE), 0);
	/* the same segment again, and one inside it */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 1000, 1000, wire, 200,
						   IT_SIZE), -EALREADY);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 1000, 1050, wire + 50,
						   100, IT_SIZE), -EALREADY);
	/* one beyond a missing byte */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 1000, 1201, wire + 201,
						   50, IT_SIZE), -ERANGE);
	KUNIT_EXPECT_EQ(test, s->len, 200U);
	/* one that overlaps what is held: only the new bytes are taken */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 1000, 1100, wire + 100,
						   a - 100, IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, s->len, a);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1500, true, &n,
						     &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, a);
	KUNIT_EXPECT_EQ(test, memcmp(s->buf, wire, a), 0);
	/* a new episode: what was held is forgotten */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 9000, 9000, wire, 20,
						   IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, s->seq, 9000U);
	KUNIT_EXPECT_EQ(test, s->len, 20U);
	/* more than the buffer holds */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 9000, 9020, wire,
						   IT_SIZE, IT_SIZE), -ENOSPC);
	it_done(s);
}

/* A bad CRC, an FPDU longer than the connection takes, no CRC in use */
static void irdma_ieq_bad(struct kunit *test)
{
	struct irdma_ieq_stream *s = it_stream(test);
	u8 *wire = kunit_kzalloc(test, 4096, GFP_KERNEL);
	u32 a, b, n, fpdus;

	KUNIT_ASSERT_NOT_NULL(test, wire);
	a = it_fpdu(wire, 100, 0x21, true);
	b = it_fpdu(wire + a, 100, 0x22, false);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 5, 5, wire, a + b,
						   IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1500, true, &n,
						     &fpdus), -EBADMSG);
	/* a connection without CRCs takes both */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1500, false, &n,
						     &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, a + b);
	KUNIT_EXPECT_EQ(test, fpdus, 2U);
	/* the length field of an FPDU of 1600 bytes: more than an MSS */
	irdma_ieq_stream_consume(s, a + b);
	a = it_fpdu(wire, 1600, 0x23, true);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 5, 5 + 2 * 108, wire,
						   20, IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1460, true, &n,
						     &fpdus), -EMSGSIZE);
	/* a single byte: not even a length yet */
	irdma_ieq_stream_consume(s, 20);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_add(s, 5, 5 + 2 * 108 + 20,
						   wire, 1, IT_SIZE), 0);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(s, 1500, 1460, true, &n,
						     &fpdus), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);
	it_done(s);
}

static struct kunit_case irdma_ieq_cases[] = {
	KUNIT_CASE(irdma_ieq_split),
	KUNIT_CASE(irdma_ieq_order),
	KUNIT_CASE(irdma_ieq_bad),
	{}
};

static struct kunit_suite irdma_ieq_suite = {
	.name = "irdma_ieq",
	.test_cases = irdma_ieq_cases,
};

kunit_test_suite(irdma_ieq_suite);
