/* rng.c: the engine's seeded shuffle, bit for bit as CPython (3.11+) computes it.
 *
 * The Python engine shuffles with random.Random(f"{seed}:{k}").shuffle(cards)
 * (friday_env/engine/state.py). Reproducing that exactly takes four pieces, each written here
 * from its specification:
 *
 *   1. random.seed(str), version 2: a = int.from_bytes(s + sha512(s).digest(), "big")
 *      -> SHA-512 (FIPS 180-4).
 *   2. CPython's random_seed: the absolute value of a, split into 32-bit words, least
 *      significant first, seeds MT19937 through init_by_array (Matsumoto & Nishimura's
 *      reference initialisation, 2002 version).
 *   3. getrandbits(k) for 0 < k <= 32: the next 32-bit output shifted right by 32 - k.
 *   4. shuffle: for i = n-1 down to 1, j = randbelow(i + 1), swap x[i] and x[j]; randbelow(m)
 *      draws getrandbits(m.bit_length()) until the draw is below m.
 *
 * A shuffle of at most 70 cards needs a few hundred outputs at most, so the generator twists
 * its state lazily, one word at a time, in the same order as the reference's whole-state
 * twist (which makes the outputs identical).
 */
#include <stdlib.h>
#include <string.h>

#include "friday.h"

/* ------------------------------------------------------------------ SHA-512 (FIPS 180-4) */

/* First 64 bits of the fractional parts of the square roots of the first 8 primes (5.3.5);
 * derived with exact integer roots: isqrt(p << 128) mod 2**64. */
static const uint64_t SHA512_H0[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* First 64 bits of the fractional parts of the cube roots of the first 80 primes (4.2.3);
 * derived with exact integer roots: icbrt(p << 192) mod 2**64. */
static const uint64_t SHA512_K[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
    0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
    0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
    0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
    0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
    0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
    0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
    0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
    0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
    0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
    0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
    0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
    0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
    0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
    0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
    0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
    0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

static uint64_t load_be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}

/* One 1024-bit block into the hash value h (6.4.2). */
static void sha512_block(uint64_t h[8], const uint8_t *block) { /* 128 bytes */
    uint64_t w[80];
    for (int t = 0; t < 16; t++) w[t] = load_be64(block + 8 * t);
    for (int t = 16; t < 80; t++) {
        uint64_t s0 = rotr64(w[t - 15], 1) ^ rotr64(w[t - 15], 8) ^ (w[t - 15] >> 7);
        uint64_t s1 = rotr64(w[t - 2], 19) ^ rotr64(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = s1 + w[t - 7] + s0 + w[t - 16];
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 80; t++) {
        uint64_t big_s1 = rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41);
        uint64_t choose = (e & f) ^ (~e & g);
        uint64_t t1 = hh + big_s1 + choose + SHA512_K[t] + w[t];
        uint64_t big_s0 = rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39);
        uint64_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = big_s0 + majority;
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* digest = SHA-512(msg[0:len]); padding per 5.1.2 (a 1 bit, zeros, the 128-bit length). */
static void sha512(const uint8_t *msg, size_t len, uint8_t digest[64]) {
    uint64_t h[8];
    memcpy(h, SHA512_H0, sizeof h);
    size_t done = 0;
    for (; len - done >= 128; done += 128) sha512_block(h, msg + done);
    uint8_t tail[256] = {0};
    size_t rest = len - done;
    memcpy(tail, msg + done, rest);
    tail[rest] = 0x80;
    size_t tail_len = rest + 1 + 16 <= 128 ? 128 : 256;
    uint64_t bits = (uint64_t)len * 8; /* messages here are short: the high 64 bits are 0 */
    for (int i = 0; i < 8; i++) tail[tail_len - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t off = 0; off < tail_len; off += 128) sha512_block(h, tail + off);
    for (int i = 0; i < 64; i++) digest[i] = (uint8_t)(h[i / 8] >> (56 - 8 * (i % 8)));
}

/* ------------------------------------------------------------------ MT19937 */

enum { MT_N = 624, MT_M = 397 };
#define MT_MATRIX_A 0x9908b0dfU
#define MT_UPPER 0x80000000U
#define MT_LOWER 0x7fffffffU

/* fr_mt_state (friday.h): mt, the state words; next, the index of the next output word;
 * twisted, the words of the current round already twisted (the twist is lazy). */
typedef fr_mt_state mt_state;

/* init_genrand(19650218): the state init_by_array starts from, the same for every key.
 * Computed once (fr_rng_prepare, called when the extension module loads) because it is a
 * third of a shuffle's cost. */
static uint32_t mt_base[MT_N];
static int mt_base_ready = 0;

static void mt_prepare_base(void) {
    uint32_t prev = 19650218U;
    mt_base[0] = prev;
    for (uint32_t i = 1; i < MT_N; i++) {
        prev = 1812433253U * (prev ^ (prev >> 30)) + i;
        mt_base[i] = prev;
    }
    mt_base_ready = 1;
}

/* Non-zero where the wide seeding below runs (AVX2 found when the module loads); a test
 * hook turns it off to test the other path on the same machine. */
static int wide_seeding = 0;

void fr_rng_prepare(void) {
    if (!mt_base_ready) {
        mt_prepare_base();
        wide_seeding = fr_rng_wide_available();
    }
}

/* init_by_array for `lanes` generators at once, all with keys of key_len words (key_plus_index
 * [j][lane] = key word j + j, the reference adds the index). Each word depends on the word
 * before, so one generator is a chain of 1247 dependent multiplications; running several
 * independent chains side by side lets the processor overlap them (about 2.5x faster per
 * generator with 5 lanes). `lanes` is a constant where this is inlined (see
 * mt_init_by_array), so the lane loop unrolls and `prev` stays in registers. */
static inline void mt_init_lanes(mt_state *st, const uint32_t (*key_plus_index)[FR_SHUFFLE_LANES],
                                 int key_len, const int lanes) {
    uint32_t prev[FR_SHUFFLE_LANES];
    for (int s = 0; s < lanes; s++) {
        memcpy(st[s].mt, mt_base, sizeof mt_base);
        prev[s] = mt_base[0];
    }
    int i = 1, j = 0;
    for (int k = MT_N; k > 0; k--) { /* max(N, key_len) steps: keys here are <= 32 words */
        for (int s = 0; s < lanes; s++) {
            uint32_t p = prev[s];
            p = (st[s].mt[i] ^ ((p ^ (p >> 30)) * 1664525U)) + key_plus_index[j][s];
            prev[s] = st[s].mt[i] = p;
        }
        if (++j >= key_len) j = 0;
        if (++i >= MT_N) {
            for (int s = 0; s < lanes; s++) st[s].mt[0] = prev[s];
            i = 1;
        }
    }
    for (int k = MT_N - 1; k > 0; k--) {
        for (int s = 0; s < lanes; s++) {
            uint32_t p = prev[s];
            p = (st[s].mt[i] ^ ((p ^ (p >> 30)) * 1566083941U)) - (uint32_t)i;
            prev[s] = st[s].mt[i] = p;
        }
        if (++i >= MT_N) {
            for (int s = 0; s < lanes; s++) st[s].mt[0] = prev[s];
            i = 1;
        }
    }
    for (int s = 0; s < lanes; s++) {
        st[s].mt[0] = 0x80000000U; /* a non-zero initial state */
        st[s].next = MT_N;         /* the first output twists a new round */
        st[s].twisted = MT_N;
    }
}

static void mt_init_by_array(mt_state *st, const uint32_t (*key_plus_index)[FR_SHUFFLE_LANES],
                             int key_len, int lanes) {
    fr_rng_prepare();
    switch (lanes) { /* one specialised copy per lane count */
    case 1: mt_init_lanes(st, key_plus_index, key_len, 1); break;
    case 2: mt_init_lanes(st, key_plus_index, key_len, 2); break;
    case 3: mt_init_lanes(st, key_plus_index, key_len, 3); break;
    case 4: mt_init_lanes(st, key_plus_index, key_len, 4); break;
    case 5: mt_init_lanes(st, key_plus_index, key_len, 5); break;
    case 6: mt_init_lanes(st, key_plus_index, key_len, 6); break;
    case 7: mt_init_lanes(st, key_plus_index, key_len, 7); break;
    default: mt_init_lanes(st, key_plus_index, key_len, FR_SHUFFLE_LANES); break;
    }
}

/* ---------------------------------------------- wide seeding: MT_WIDE_LANES at once */

/* Scalar lanes above stop gaining at about eight: the processor's multipliers are busy. AVX2
 * multiplies eight 32-bit words in one instruction, but one vector chain waits on its own
 * multiplications; three independent chains of eight keep the unit busy. So a batch of 9 to
 * 24 generators whose keys have one length is seeded here, about 2.5x faster per generator
 * than eight scalar lanes. The caches of fr_rng_prefetch (random play, the vector env's
 * resets) are what fill such batches. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32) /* aligned_alloc */
#define MT_WIDE 1
enum { MT_VECTOR = 8, MT_CHAINS = 3, MT_WIDE_LANES = MT_VECTOR * MT_CHAINS };
typedef uint32_t mt_vector __attribute__((vector_size(4 * MT_VECTOR)));
/* The transposed state of a wide batch: word i of chain c's eight generators (58 KB). */
typedef struct {
    mt_vector word[MT_N][MT_CHAINS];
    mt_vector key[32][MT_CHAINS];
} mt_wide;

int fr_rng_wide_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* init_by_array as mt_init_lanes computes it, for MT_WIDE_LANES generators at once;
 * keys[j][lane] as there (key word j + j). Lanes past `lanes` compute garbage, unread. */
__attribute__((target("avx2"))) static void mt_init_wide(mt_wide *w, mt_state *st, int lanes,
                                                          int key_len) {
    for (int i = 0; i < MT_N; i++)
        for (int c = 0; c < MT_CHAINS; c++) w->word[i][c] = (mt_vector){0} + mt_base[i];
    mt_vector prev[MT_CHAINS];
    for (int c = 0; c < MT_CHAINS; c++) prev[c] = w->word[0][c];
    int i = 1, j = 0;
    for (int k = MT_N; k > 0; k--) {
        for (int c = 0; c < MT_CHAINS; c++) {
            mt_vector p = prev[c];
            prev[c] = w->word[i][c] = (w->word[i][c] ^ ((p ^ (p >> 30)) * 1664525U)) + w->key[j][c];
        }
        if (++j >= key_len) j = 0;
        if (++i >= MT_N) {
            for (int c = 0; c < MT_CHAINS; c++) w->word[0][c] = prev[c];
            i = 1;
        }
    }
    for (int k = MT_N - 1; k > 0; k--) {
        for (int c = 0; c < MT_CHAINS; c++) {
            mt_vector p = prev[c];
            prev[c] = w->word[i][c] = (w->word[i][c] ^ ((p ^ (p >> 30)) * 1566083941U)) - (uint32_t)i;
        }
        if (++i >= MT_N) {
            for (int c = 0; c < MT_CHAINS; c++) w->word[0][c] = prev[c];
            i = 1;
        }
    }
    for (int s = 0; s < lanes; s++) {
        for (int word = 1; word < MT_N; word++) st[s].mt[word] = w->word[word][s / MT_VECTOR][s % MT_VECTOR];
        st[s].mt[0] = 0x80000000U;
        st[s].next = MT_N;
        st[s].twisted = MT_N;
    }
}

/* Seeds `lanes` (at most MT_WIDE_LANES) generators whose keys have one length; 0 when it
 * could not (no memory for the transposed state: the caller seeds them the other way). */
static int seed_wide(mt_state *states, int lanes, const uint32_t (*keys)[32], int key_len) {
    mt_wide *w = aligned_alloc(32, sizeof(mt_wide)); /* a multiple of 32 bytes */
    if (w == NULL) return 0;
    memset(w->key, 0, sizeof w->key);
    for (int s = 0; s < lanes; s++)
        for (int j = 0; j < key_len; j++)
            w->key[j][s / MT_VECTOR][s % MT_VECTOR] = keys[s][j] + (uint32_t)j;
    fr_rng_prepare();
    mt_init_wide(w, states, lanes, key_len);
    free(w);
    return 1;
}
#else
enum { MT_WIDE_LANES = FR_SHUFFLE_LANES };
int fr_rng_wide_available(void) { return 0; }
#endif

int fr_rng_wide_seeding(int on) {
    int was = wide_seeding;
    wide_seeding = on && fr_rng_wide_available();
    return was;
}

/* Twists word kk of the state. Done in ascending kk, in place, this is the reference's
 * whole-state twist: word kk reads words kk+1 (still old) and kk+M mod N (new once wrapped). */
static void mt_twist_word(uint32_t *mt, int kk) {
    int after = kk + 1 < MT_N ? kk + 1 : 0;
    int ahead = kk + MT_M < MT_N ? kk + MT_M : kk + MT_M - MT_N;
    uint32_t y = (mt[kk] & MT_UPPER) | (mt[after] & MT_LOWER);
    mt[kk] = mt[ahead] ^ (y >> 1) ^ ((y & 1U) ? MT_MATRIX_A : 0U);
}

static uint32_t mt_next32(mt_state *s) {
    if (s->next >= MT_N) {
        /* finish the previous round (the wrap-around words read it), then start anew */
        while (s->twisted < MT_N) mt_twist_word(s->mt, s->twisted++);
        s->next = 0;
        s->twisted = 0;
    }
    while (s->twisted <= s->next) mt_twist_word(s->mt, s->twisted++);
    uint32_t y = s->mt[s->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* ------------------------------------------------------------------ Python's random */

/* The MT19937 key random.Random(f"{seed}:{k}") uses: a = int.from_bytes(text +
 * sha512(text), "big") (seed version 2), as 32-bit words, least significant first. Returns
 * the number of words. */
static size_t write_decimal(char *out, uint64_t value) {
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    for (size_t i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    return n;
}

static int python_key(uint64_t seed, int64_t k, uint32_t key[32]) {
    char text[48]; /* f"{seed}:{k}" (0 <= k < 2**63): at most 20 + 1 + 19 characters */
    size_t len = write_decimal(text, seed);
    text[len++] = ':';
    len += write_decimal(text + len, (uint64_t)(k < 0 ? 0 : k));
    uint8_t bytes[128]; /* at most 20 + 1 + 19 + 64 bytes */
    memcpy(bytes, text, len);
    sha512((const uint8_t *)text, len, bytes + len);
    size_t total = len + 64;
    /* The text starts with a digit (a non-zero byte), so a has ceil(total / 4) words, the
     * last one possibly partial. */
    int key_len = (int)((total + 3) / 4);
    for (int w = 0; w < key_len; w++) {
        uint32_t word = 0;
        for (int b = 3; b >= 0; b--) {
            long pos = (long)total - 1 - (4L * w + b); /* byte b (from the right) of word w */
            word = (word << 8) | (pos >= 0 ? bytes[pos] : 0U);
        }
        key[w] = word;
    }
    return key_len;
}

static int bit_length(uint32_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return v ? 32 - __builtin_clz(v) : 0;
#else
    int bits = 0;
    while (v) bits++, v >>= 1;
    return bits;
#endif
}

/* random._randbelow_with_getrandbits(n) for 0 < n < 2**32: getrandbits(k) is the next output
 * shifted right by 32 - k. */
static uint32_t python_randbelow(mt_state *s, uint32_t n) {
    int k = bit_length(n);
    uint32_t r = mt_next32(s) >> (32 - k);
    while (r >= n) r = mt_next32(s) >> (32 - k);
    return r;
}

/* random.shuffle: Fisher-Yates from the end. */
static void python_shuffle(mt_state *s, int8_t *cards, int32_t n) {
    for (int32_t i = n - 1; i >= 1; i--) {
        uint32_t j = python_randbelow(s, (uint32_t)i + 1U);
        int8_t tmp = cards[i];
        cards[i] = cards[j];
        cards[j] = tmp;
    }
}

/* ------------------------------------------------------------------ the prefetch cache */

#if defined(_MSC_VER)
#define FR_THREAD_LOCAL __declspec(thread)
#else
#define FR_THREAD_LOCAL _Thread_local
#endif

static FR_THREAD_LOCAL fr_rng_cache *installed_cache = NULL;
static FR_THREAD_LOCAL fr_rng_batch *installed_batch = NULL;

void fr_rng_use(fr_rng_cache *cache) { installed_cache = cache; }

static void seed_many(mt_state *states, const uint64_t *seeds, const int64_t *ks, int32_t count);

int fr_rng_batch_begin(fr_rng_batch *batch, uint64_t seed, int64_t k_first, int32_t count) {
    if (installed_cache != NULL || installed_batch != NULL) return 0;
    if (count > FR_SHUFFLE_LANES) count = FR_SHUFFLE_LANES;
    if (count < 0) count = 0;
    uint64_t seeds[FR_SHUFFLE_LANES];
    int64_t ks[FR_SHUFFLE_LANES];
    for (int32_t i = 0; i < count; i++) seeds[i] = seed, ks[i] = k_first + i, batch->unused[i] = 1;
    batch->seed = seed;
    batch->k_first = k_first;
    batch->count = count;
    seed_many(batch->state, seeds, ks, count);
    installed_batch = batch;
    return 1;
}

void fr_rng_batch_end(void) { installed_batch = NULL; }

/* The installed batch's or cache's unused generator for (seed, k), taken; NULL if there is
 * none. */
static mt_state *take_cached(uint64_t seed, int64_t k) {
    fr_rng_batch *batch = installed_batch;
    if (batch != NULL && batch->seed == seed && k >= batch->k_first &&
        k - batch->k_first < batch->count && batch->unused[k - batch->k_first]) {
        batch->unused[k - batch->k_first] = 0;
        return &batch->state[k - batch->k_first];
    }
    fr_rng_cache *cache = installed_cache;
    if (cache == NULL) return NULL;
    for (int32_t i = 0; i < cache->count; i++) {
        if (cache->unused[i] && cache->seed[i] == seed && cache->k[i] == k) {
            cache->unused[i] = 0;
            return &cache->state[i];
        }
    }
    return NULL;
}

void fr_shuffle(uint64_t seed, int64_t k, int8_t *cards, int32_t n) {
    mt_state *cached = take_cached(seed, k);
    if (cached != NULL) {
        python_shuffle(cached, cards, n);
        return;
    }
    int8_t *piles[1] = {cards};
    fr_shuffle_many(seed, k, 1, piles, &n);
}

/* Seeds `lanes` generators (at most FR_SHUFFLE_LANES) whose keys have one length. */
static void seed_lanes(mt_state *states, int lanes, const uint32_t (*keys)[32], int key_len) {
    uint32_t key_plus_index[32][FR_SHUFFLE_LANES];
    for (int s = 0; s < lanes; s++)
        for (int j = 0; j < key_len; j++) key_plus_index[j][s] = keys[s][j] + (uint32_t)j;
    mt_init_by_array(states, (const uint32_t (*)[FR_SHUFFLE_LANES])key_plus_index, key_len,
                     lanes);
}

/* Seeds the generators of (seeds[i], ks[i]) for i < count into states[i], side by side in
 * runs of up to FR_SHUFFLE_LANES keys of one length. */
static void seed_many(mt_state *states, const uint64_t *seeds, const int64_t *ks, int32_t count) {
    uint32_t keys[MT_WIDE_LANES][32];
    int key_lens[MT_WIDE_LANES];
    int most = wide_seeding ? MT_WIDE_LANES : FR_SHUFFLE_LANES;
    for (int32_t done = 0; done < count;) {
        int lanes = 0;
        while (done + lanes < count && lanes < most) {
            key_lens[lanes] = python_key(seeds[done + lanes], ks[done + lanes], keys[lanes]);
            if (lanes > 0 && key_lens[lanes] != key_lens[0]) break;
            lanes++;
        }
#ifdef MT_WIDE
        if (lanes > FR_SHUFFLE_LANES && seed_wide(states + done, lanes, keys, key_lens[0])) {
            done += lanes;
            continue;
        }
#endif
        for (int from = 0; from < lanes; from += FR_SHUFFLE_LANES) { /* eight at a time */
            int part = lanes - from < FR_SHUFFLE_LANES ? lanes - from : FR_SHUFFLE_LANES;
            seed_lanes(states + done + from, part, (const uint32_t (*)[32])keys + from, key_lens[0]);
        }
        done += lanes;
    }
}

void fr_shuffle_many(uint64_t seed, int64_t k_first, int32_t count, int8_t *const *piles,
                     const int32_t *sizes) {
    mt_state states[FR_SHUFFLE_LANES];
    uint64_t seeds[FR_SHUFFLE_LANES];
    int64_t ks[FR_SHUFFLE_LANES];
    for (int32_t done = 0; done < count; done += FR_SHUFFLE_LANES) {
        int32_t batch = count - done < FR_SHUFFLE_LANES ? count - done : FR_SHUFFLE_LANES;
        for (int32_t i = 0; i < batch; i++) seeds[i] = seed, ks[i] = k_first + done + i;
        seed_many(states, seeds, ks, batch);
        for (int32_t i = 0; i < batch; i++) python_shuffle(&states[i], piles[done + i], sizes[done + i]);
    }
}

void fr_rng_prefetch(fr_rng_cache *cache, const uint64_t *seeds, const int64_t *ks,
                     int32_t count) {
    if (count > FR_RNG_CACHE_SIZE) count = FR_RNG_CACHE_SIZE;
    if (count < 0) count = 0;
    for (int32_t i = 0; i < count; i++) {
        cache->seed[i] = seeds[i];
        cache->k[i] = ks[i];
        cache->unused[i] = 1;
    }
    cache->count = count;
    seed_many(cache->state, seeds, ks, count);
}
