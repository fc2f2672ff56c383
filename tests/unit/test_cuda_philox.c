/* tests/unit/test_cuda_philox.c — cuda/philox.h, the simulator's copy of
 * curand's Philox4x32-10: Random123's known-answer vectors (kat_vectors,
 * philox4x32 with 10 rounds), curand_init's subsequence and offset against
 * plain stepping, and the uniform conversions' end points. */
#include <stdio.h>

#include "../../cuda/philox.h"
#include "unit.h"

static int same4(kphilox_u4 a, kphilox_u4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

TEST(philox_known_answers)
{
    static const struct { kphilox_u4 ctr; uint32_t k0, k1; kphilox_u4 out; } kat[] = {
        {{0, 0, 0, 0}, 0, 0, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
        {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, 0xffffffffu, 0xffffffffu,
         {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
        {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, 0xa4093822u, 0x299f31d0u,
         {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
    };
    for (size_t i = 0; i < sizeof kat / sizeof *kat; i++) {
        kphilox_u4 r = kphilox4x32_10(kat[i].ctr, kat[i].k0, kat[i].k1);
        if (!CHECK(same4(r, kat[i].out)))
            fprintf(stderr, "  vector %zu: got %08x %08x %08x %08x\n", i, r.x, r.y, r.z, r.w);
    }
}

/* curand_init(seed, idx, offset): counter (offset/4, idx) in (x,y | z,w);
 * an offset of 4k skips k curand4 draws; a ragged offset shifts the words. */
TEST(philox_init_offset_subsequence)
{
    const uint64_t seed = UINT64_C(67280421310721);
    kphilox a, b;
    kphilox_init(&a, seed, 5, 0);
    kphilox_u4 first = kphilox_next4(&a), second = kphilox_next4(&a), third = kphilox_next4(&a);
    kphilox_init(&b, seed, 5, 8);
    CHECK(same4(kphilox_next4(&b), third));
    CHECK_EQ_INT(b.ctr.z, 5);
    kphilox_u4 c = {0, 0, 5, 0};
    CHECK(same4(kphilox4x32_10(c, (uint32_t)seed, (uint32_t)(seed >> 32)), first));
    kphilox_init(&b, seed, 5, 5);      /* one word into the second draw */
    kphilox_u4 r = kphilox_next4(&b), want = {second.y, second.z, second.w, third.x};
    CHECK(same4(r, want));
    kphilox_init(&b, seed, UINT64_C(1) << 32, 0);   /* the subsequence's high word goes to w */
    CHECK_EQ_INT(b.ctr.z, 0);
    CHECK_EQ_INT(b.ctr.w, 1);
    kphilox_init(&b, seed, 0, UINT64_C(4) << 32);   /* the offset's high word goes to y */
    CHECK_EQ_INT(b.ctr.x, 0);
    CHECK_EQ_INT(b.ctr.y, 1);
}

TEST(philox_uniform_conversions)
{
    CHECK(kcurand_uniform(0) == 0x1p-33f);
    CHECK(kcurand_uniform(0xffffffffu) == 1.0f);        /* (0, 1]: 1 is reachable */
    CHECK(kcurand_uniform(0x80000000u) == 0.5f);            /* 2^-33 is below half an ulp */
    CHECK(kcurand_uniform_double_hq(0, 0) == 0x1p-54);
    CHECK(kcurand_uniform_double_hq(1, 0) == 0x1p-53 + 0x1p-54);
    float s, c;
    kcurand_box_muller(0x80000000u, 0, &s, &c);          /* u = 1/2, v ~ 0 */
    CHECK(fabsf(c - sqrtf(2.0f * logf(2.0f))) < 1e-6f && fabsf(s) < 1e-6f);
}
