/* Python binding of rng.c: a test hook comparing the compiled shuffle with CPython's. */
#include "pybind.h"

#define SHUFFLE_MAX_CARDS 4096 /* far more than any pile; bounds the temporary buffer */

/* Reads a card list into cards[0:*n]; 0 ok, -1 with an exception set. The items are read
 * from a tuple copy, which owns them: an item's __index__ that shrinks the caller's list
 * cannot free what is being read. */
static int read_cards(PyObject *cards_obj, int8_t *cards, int32_t *n, Py_ssize_t pile) {
    if (!PySequence_Check(cards_obj)) {
        PyErr_Format(PyExc_TypeError, "_shuffle: cards of pile %zd must be a sequence of ints", pile);
        return -1;
    }
    PyObject *items = PySequence_Tuple(cards_obj);
    if (items == NULL) return -1;
    Py_ssize_t size = PyTuple_GET_SIZE(items);
    if (size > SHUFFLE_MAX_CARDS) {
        Py_DECREF(items);
        PyErr_Format(PyExc_ValueError, "_shuffle: at most %d cards, got %zd (pile %zd)",
                     SHUFFLE_MAX_CARDS, size, pile);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(items, i));
        if ((v == -1 && PyErr_Occurred()) || v < -128 || v > 127) {
            PyErr_Clear();
            Py_DECREF(items);
            PyErr_Format(PyExc_ValueError,
                         "_shuffle: card %zd of pile %zd is not an int in -128..127", i, pile);
            return -1;
        }
        cards[i] = (int8_t)v;
    }
    Py_DECREF(items);
    *n = (int32_t)size;
    return 0;
}

static PyObject *cards_list(const int8_t *cards, int32_t n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int32_t i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(cards[i]));
    return out;
}

/* Parses (seed, k, piles): seed in 0..2**64-1, k in 0..FR_MAX_SHUFFLES; 0 ok. */
static int parse_args(PyObject *args, const char *format, uint64_t *seed, int64_t *k,
                      PyObject **piles) {
    PyObject *seed_obj, *k_obj;
    if (!PyArg_ParseTuple(args, format, &seed_obj, &k_obj, piles)) return -1;
    if (fr_parse_seed(seed_obj, "_shuffle: seed", seed) < 0) return -1;
    int overflow = 0;
    long long value = PyLong_Check(k_obj) && !PyBool_Check(k_obj)
                          ? PyLong_AsLongLongAndOverflow(k_obj, &overflow)
                          : -1;
    if (overflow || value < 0 || value > FR_MAX_SHUFFLES) {
        PyErr_Clear();
        fr_state_error("_shuffle: k must be an int in 0..2**62, got %R", k_obj);
        return -1;
    }
    *k = (int64_t)value;
    return 0;
}

/* _shuffle(seed, k, cards) -> a new list: cards shuffled as
 * random.Random(f"{seed}:{k}").shuffle would (each card an int in -128..127). */
static PyObject *py_shuffle(PyObject *self, PyObject *args) {
    uint64_t seed;
    int64_t k;
    PyObject *cards_obj;
    if (parse_args(args, "OOO:_shuffle", &seed, &k, &cards_obj) < 0) return NULL;
    int8_t cards[SHUFFLE_MAX_CARDS];
    int32_t n;
    if (read_cards(cards_obj, cards, &n, 0) < 0) return NULL;
    fr_shuffle(seed, k, cards, n);
    return cards_list(cards, n);
}

#define SHUFFLE_MANY_MAX_PILES 16

/* _shuffle_many(seed, k_first, piles) -> new lists: pile i shuffled by shuffle k_first + i
 * (fr_shuffle_many, the batched shuffle; at most 16 piles). */
static PyObject *py_shuffle_many(PyObject *self, PyObject *args) {
    uint64_t seed;
    int64_t k_first;
    PyObject *piles_obj;
    if (parse_args(args, "OOO:_shuffle_many", &seed, &k_first, &piles_obj) < 0) return NULL;
    PyObject *piles_owned = PySequence_Tuple(piles_obj); /* owns each pile while it is read */
    if (piles_owned == NULL) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(piles_owned);
    if (count > SHUFFLE_MANY_MAX_PILES) {
        Py_DECREF(piles_owned);
        return PyErr_Format(PyExc_ValueError, "_shuffle_many: at most %d piles, got %zd",
                            SHUFFLE_MANY_MAX_PILES, count);
    }
    static int8_t cards[SHUFFLE_MANY_MAX_PILES][SHUFFLE_MAX_CARDS]; /* under the GIL */
    int8_t *piles[SHUFFLE_MANY_MAX_PILES];
    int32_t sizes[SHUFFLE_MANY_MAX_PILES];
    for (Py_ssize_t i = 0; i < count; i++) {
        piles[i] = cards[i];
        if (read_cards(PyTuple_GET_ITEM(piles_owned, i), cards[i], &sizes[i], i) < 0) {
            Py_DECREF(piles_owned);
            return NULL;
        }
    }
    Py_DECREF(piles_owned);
    fr_shuffle_many(seed, k_first, (int32_t)count, piles, sizes);
    PyObject *out = PyList_New(count);
    for (Py_ssize_t i = 0; out != NULL && i < count; i++) {
        PyObject *pile = cards_list(cards[i], sizes[i]);
        if (pile == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, pile);
    }
    return out;
}

/* _prefetched_shuffles(seeds, ks, piles, wide) -> new lists: pile i shuffled by shuffle
 * (seeds[i], ks[i]), each generator seeded beforehand into one prefetch cache
 * (fr_rng_prefetch: batches of equal key length, the wide AVX2 seeding where `wide` is true
 * and the processor has it) and taken from it by fr_shuffle. */
static PyObject *py_prefetched_shuffles(PyObject *self, PyObject *args) {
    PyObject *seeds_obj, *ks_obj, *piles_obj;
    int wide;
    if (!PyArg_ParseTuple(args, "OOOp:_prefetched_shuffles", &seeds_obj, &ks_obj, &piles_obj,
                          &wide))
        return NULL;
    PyObject *seeds_t = PySequence_Tuple(seeds_obj), *ks_t = PySequence_Tuple(ks_obj),
             *piles_t = PySequence_Tuple(piles_obj);
    PyObject *out = NULL;
    fr_rng_cache *cache = NULL;
    if (seeds_t == NULL || ks_t == NULL || piles_t == NULL) goto done;
    Py_ssize_t count = PyTuple_GET_SIZE(piles_t);
    if (count > FR_RNG_CACHE_SIZE || PyTuple_GET_SIZE(seeds_t) != count ||
        PyTuple_GET_SIZE(ks_t) != count) {
        PyErr_Format(PyExc_ValueError,
                     "_prefetched_shuffles: as many seeds, ks and piles, at most %d",
                     FR_RNG_CACHE_SIZE);
        goto done;
    }
    static int8_t cards[FR_RNG_CACHE_SIZE][SHUFFLE_MAX_CARDS]; /* under the GIL */
    int32_t sizes[FR_RNG_CACHE_SIZE];
    uint64_t seeds[FR_RNG_CACHE_SIZE];
    int64_t ks[FR_RNG_CACHE_SIZE];
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *triple = PyTuple_Pack(3, PyTuple_GET_ITEM(seeds_t, i), PyTuple_GET_ITEM(ks_t, i),
                                        PyTuple_GET_ITEM(piles_t, i));
        PyObject *pile;
        int rc = triple == NULL ? -1 : parse_args(triple, "OOO:_prefetched_shuffles", &seeds[i], &ks[i], &pile);
        if (rc == 0) rc = read_cards(pile, cards[i], &sizes[i], i);
        Py_XDECREF(triple);
        if (rc < 0) goto done;
    }
    cache = PyMem_Malloc(sizeof *cache);
    if (cache == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int was_wide = fr_rng_wide_seeding(wide);
    fr_rng_prefetch(cache, seeds, ks, (int32_t)count);
    fr_rng_wide_seeding(was_wide);
    fr_rng_use(cache);
    for (Py_ssize_t i = 0; i < count; i++) fr_shuffle(seeds[i], ks[i], cards[i], sizes[i]);
    fr_rng_use(NULL);
    out = PyList_New(count);
    for (Py_ssize_t i = 0; out != NULL && i < count; i++) {
        PyObject *pile = cards_list(cards[i], sizes[i]);
        if (pile == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, pile);
    }
done:
    PyMem_Free(cache);
    Py_XDECREF(seeds_t);
    Py_XDECREF(ks_t);
    Py_XDECREF(piles_t);
    return out;
}

/* _wide_seeding_available() -> bool: whether this processor runs the wide (AVX2) seeding. */
static PyObject *py_wide_seeding_available(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(fr_rng_wide_available());
}

static PyMethodDef rng_methods[] = {
    {"_prefetched_shuffles", py_prefetched_shuffles, METH_VARARGS,
     "_prefetched_shuffles(seeds, ks, piles, wide) -> list of lists: pile i shuffled by "
     "shuffle (seeds[i], ks[i]) from generators prefetched into one cache (a test hook of "
     "fr_rng_prefetch; wide: allow the AVX2 seeding)."},
    {"_wide_seeding_available", py_wide_seeding_available, METH_NOARGS,
     "_wide_seeding_available() -> bool: whether the wide (AVX2) seeding runs here."},
    {"_shuffle", py_shuffle, METH_VARARGS,
     "_shuffle(seed, k, cards) -> list: cards shuffled as random.Random(f'{seed}:{k}').shuffle "
     "would (a test hook of the compiled shuffle)."},
    {"_shuffle_many", py_shuffle_many, METH_VARARGS,
     "_shuffle_many(seed, k_first, piles) -> list of lists: pile i shuffled by shuffle "
     "k_first + i, in one batched call (a test hook of fr_shuffle_many)."},
    {NULL, NULL, 0, NULL},
};

int fr_register_rng(PyObject *module) {
    fr_rng_prepare();
    return PyModule_AddFunctions(module, rng_methods);
}
