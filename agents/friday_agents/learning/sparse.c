/* friday_agents.learning._sparse: the first layer of friday rl's networks over the
 * non-zero inputs only (sparse.py wraps it in a torch autograd Function and holds its numpy
 * twin, which gives the same values).
 *
 * A flat observation holds about 64 non-zeros of 991 numbers, so a dense first layer does
 * ~15x the work it needs; torch's own sparse paths (EmbeddingBag, gathers) are slower than
 * the dense layer on a CPU at this size. The observations are kept as rows of (index, value)
 * lists, CSR style: row r's entries are idx[ptr[r] .. ptr[r+1]) and val[...] alike.
 *
 *   nonzeros(obs, ends, idx, val, offset) -> end   the non-zeros of each row of obs (N x F)
 *       appended at offset; ends[i] = the end of row i's entries. -1 (nothing usable
 *       written) when idx/val lack room: the caller grows them and calls again.
 *   forward(weight_t, bias, ptr, idx, val, rows, out)    out[m] = bias + sum over row
 *       rows[m]'s entries of val * weight_t[idx]  (weight_t: the layer's weight transposed,
 *       F x H, so that each input's weights are one contiguous run)
 *   backward(grad, ptr, idx, val, rows, grad_weight_t)   grad_weight_t[idx] += val * grad[m]
 *       over every row's entries (added to; rows of inputs no row holds stay untouched)
 *
 * The policy's last layer over the legal actions only (about 2 of 199 in a state):
 *
 *   legal_ids(mask, ids) -> widest   each row's legal action ids (mask M x A, bytes) in
 *       ascending order, padded with -1 (ids M x L); the widest row's count, or -1 when a
 *       row has more than L (ids then incomplete: the caller widens it and calls again)
 *   legal_forward(hidden, weight, bias, ids, fill, out)   out[m][l] = hidden[m] . weight[id]
 *       + bias[id] for id = ids[m][l], fill where id is -1 (weight: nn.Linear's, A x D)
 *   legal_backward(grad, hidden, weight, ids, grad_hidden, grad_weight, grad_bias)
 *       grad_hidden = sum over a row's ids of grad * weight[id] (written); grad_weight[id]
 *       += grad * hidden[m] and grad_bias[id] += grad (added to)
 *
 * Every index is checked before it is used: a bad row, pointer or input index raises
 * ValueError and writes nothing outside the given buffers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A C-contiguous buffer of `ndim` dimensions whose items are `kind` ('f' float32, 'i' int32,
 * 'q' int64) or a ValueError naming `what`. */
static int get(PyObject *obj, Py_buffer *view, char kind, int ndim, int writable,
               const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    const char *f = view->format;
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    int ok;
    if (kind == 'f')
        ok = strcmp(f, "f") == 0 && view->itemsize == 4;
    else if (kind == 'i')
        ok = (strcmp(f, "i") == 0 || strcmp(f, "l") == 0) && view->itemsize == 4;
    else if (kind == 'b') /* a mask: int8, uint8 or bool */
        ok = (strcmp(f, "b") == 0 || strcmp(f, "B") == 0 || strcmp(f, "?") == 0) &&
             view->itemsize == 1;
    else /* numpy calls int64 'l' on LP64 systems and 'q' on Windows */
        ok = (strcmp(f, "q") == 0 || strcmp(f, "l") == 0) && view->itemsize == 8;
    if (!ok || view->ndim != ndim) {
        const char *type = kind == 'f'   ? "float32"
                           : kind == 'i' ? "int32"
                           : kind == 'b' ? "byte"
                                         : "int64";
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous %d-D %s array", what, ndim,
                     type);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *fail(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return NULL;
}

/* ------------------------------------------------------------------ nonzeros */

/* Whether the 8 floats at p are all +0.0 (their bits all zero): most runs of 8 in a flat
 * observation are, and one test skips them (a -0.0 is looked at, and skipped, one by one). */
static inline int all_zero_bits(const float *p) {
    uint64_t w[4];
    memcpy(w, p, sizeof w);
    return (w[0] | w[1] | w[2] | w[3]) == 0;
}

static Py_ssize_t append_nonzeros(const float *obs, Py_ssize_t n, Py_ssize_t f, int64_t *ends,
                                  int32_t *idx, float *val, Py_ssize_t at, Py_ssize_t cap) {
    for (Py_ssize_t i = 0; i < n; i++) {
        const float *row = obs + i * f;
        for (Py_ssize_t j = 0; j < f; j++) {
            if (j % 8 == 0 && j + 8 <= f && all_zero_bits(row + j)) {
                j += 7;
                continue;
            }
            if (row[j] == 0.0f) continue;
            if (at == cap) return -1;
            idx[at] = (int32_t)j;
            val[at++] = row[j];
        }
        ends[i] = at;
    }
    return at;
}

static PyObject *py_nonzeros(PyObject *module, PyObject *args) {
    PyObject *o[4];
    Py_ssize_t offset;
    if (!PyArg_ParseTuple(args, "OOOOn:nonzeros", &o[0], &o[1], &o[2], &o[3], &offset))
        return NULL;
    Py_buffer obs, ends, idx, val;
    if (get(o[0], &obs, 'f', 2, 0, "obs") < 0) return NULL;
    PyObject *result = NULL;
    if (get(o[1], &ends, 'q', 1, 1, "ends") < 0) goto obs_done;
    if (get(o[2], &idx, 'i', 1, 1, "idx") < 0) goto ends_done;
    if (get(o[3], &val, 'f', 1, 1, "val") < 0) goto idx_done;
    Py_ssize_t n = obs.shape[0], f = obs.shape[1], cap = idx.shape[0];
    if (ends.shape[0] != n || val.shape[0] != cap || offset < 0 || offset > cap ||
        f > INT32_MAX) {
        fail("nonzeros: ends needs a row per observation, val idx's length, offset within them");
    } else {
        Py_ssize_t end = append_nonzeros(obs.buf, n, f, ends.buf, idx.buf, val.buf, offset, cap);
        result = PyLong_FromSsize_t(end);
    }
    PyBuffer_Release(&val);
idx_done:
    PyBuffer_Release(&idx);
ends_done:
    PyBuffer_Release(&ends);
obs_done:
    PyBuffer_Release(&obs);
    return result;
}

/* ------------------------------------------------------ forward and backward */

/* The buffers forward and backward share: the rows and where their entries are. */
typedef struct {
    Py_buffer ptr, idx, val, rows, table, dense;
    Py_ssize_t inputs, width, count;
} layer_args;

static void release(layer_args *a, int held) {
    Py_buffer *views[] = {&a->ptr, &a->idx, &a->val, &a->rows, &a->table, &a->dense};
    for (int k = 0; k < held; k++) PyBuffer_Release(views[k]);
}

/* Fill `a` from the objects (ptr, idx, val, rows, table F x H, dense M x H); the table is
 * read by forward and written by backward, the dense rows the other way round. */
static int get_layer_args(PyObject **o, layer_args *a, int backward) {
    struct {
        PyObject *obj;
        Py_buffer *view;
        char kind;
        int ndim, writable;
        const char *what;
    } spec[] = {
        {o[0], &a->ptr, 'q', 1, 0, "ptr"},
        {o[1], &a->idx, 'i', 1, 0, "idx"},
        {o[2], &a->val, 'f', 1, 0, "val"},
        {o[3], &a->rows, 'q', 1, 0, "rows"},
        {o[4], &a->table, 'f', 2, backward, "weight_t"},
        {o[5], &a->dense, 'f', 2, !backward, "dense rows"},
    };
    for (int k = 0; k < 6; k++) {
        if (get(spec[k].obj, spec[k].view, spec[k].kind, spec[k].ndim, spec[k].writable,
                spec[k].what) < 0) {
            release(a, k);
            return -1;
        }
    }
    a->inputs = a->table.shape[0];
    a->width = a->table.shape[1];
    a->count = a->rows.shape[0];
    if (a->idx.shape[0] != a->val.shape[0] || a->dense.shape[0] != a->count ||
        a->dense.shape[1] != a->width || a->ptr.shape[0] < 1) {
        release(a, 6);
        fail("sparse layer: idx and val of one length, a dense row per row, of weight_t's width");
        return -1;
    }
    return 0;
}

/* Whether every row's entries lie within idx and every input index within the table. */
static int rows_in_range(const layer_args *a) {
    const int64_t *ptr = a->ptr.buf, *rows = a->rows.buf;
    const int32_t *idx = a->idx.buf;
    Py_ssize_t last_row = a->ptr.shape[0] - 1, entries = a->idx.shape[0];
    for (Py_ssize_t m = 0; m < a->count; m++) {
        int64_t r = rows[m];
        if (r < 0 || r >= last_row) return 0;
        int64_t lo = ptr[r], hi = ptr[r + 1];
        if (lo < 0 || lo > hi || hi > entries) return 0;
        for (int64_t e = lo; e < hi; e++)
            if (idx[e] < 0 || idx[e] >= a->inputs) return 0;
    }
    return 1;
}

/* The two loops, written once (SPARSE_LOOPS) and compiled twice where the compiler can: for
 * AVX2 and for the baseline instruction set, chosen at run time. -std=c11 keeps every
 * multiply and add apart (no fused multiply-add), so both give the same floats bit for bit.
 * The forward keeps a block of outputs in registers across a row's entries; the backward
 * keeps a block of the row's gradient in registers and adds it into each entry's row. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define SPARSE_VECTORS 1
/* Eight floats at any float's address (may_alias: they are read and written as floats too). */
typedef float vec8 __attribute__((vector_size(32), aligned(4), may_alias));
#define LANES 8
#define BLOCK 64 /* outputs per block: 8 vectors of 8 */
#define load8(p) (*(const vec8 *)(p))
#define store8(p, x) (*(vec8 *)(p) = (x))

#define SPARSE_LOOPS(SUFFIX, ATTR)                                                              \
    ATTR static void forward_rows_##SUFFIX(const layer_args *a, const float *bias) {            \
        const int64_t *ptr = a->ptr.buf, *rows = a->rows.buf;                                   \
        const int32_t *idx = a->idx.buf;                                                        \
        const float *val = a->val.buf, *table = a->table.buf;                                   \
        Py_ssize_t h = a->width;                                                                \
        for (Py_ssize_t m = 0; m < a->count; m++) {                                             \
            float *out = (float *)a->dense.buf + m * h;                                         \
            int64_t lo = ptr[rows[m]], hi = ptr[rows[m] + 1];                                   \
            Py_ssize_t k = 0;                                                                   \
            for (; k + BLOCK <= h; k += BLOCK) {                                                \
                vec8 acc[BLOCK / LANES];                                                        \
                for (int q = 0; q < BLOCK / LANES; q++) acc[q] = load8(bias + k + q * LANES);   \
                for (int64_t e = lo; e < hi; e++) {                                             \
                    const float *w = table + (Py_ssize_t)idx[e] * h + k;                        \
                    float v = val[e];                                                           \
                    for (int q = 0; q < BLOCK / LANES; q++) acc[q] += v * load8(w + q * LANES); \
                }                                                                               \
                for (int q = 0; q < BLOCK / LANES; q++) store8(out + k + q * LANES, acc[q]);    \
            }                                                                                   \
            for (; k < h; k++) {                                                                \
                float acc = bias[k];                                                            \
                for (int64_t e = lo; e < hi; e++) acc += val[e] * table[(Py_ssize_t)idx[e] * h + k]; \
                out[k] = acc;                                                                   \
            }                                                                                   \
        }                                                                                       \
    }                                                                                           \
    ATTR static void backward_rows_##SUFFIX(const layer_args *a) {                              \
        const int64_t *ptr = a->ptr.buf, *rows = a->rows.buf;                                   \
        const int32_t *idx = a->idx.buf;                                                        \
        const float *val = a->val.buf;                                                          \
        float *table = a->table.buf;                                                            \
        Py_ssize_t h = a->width;                                                                \
        for (Py_ssize_t m = 0; m < a->count; m++) {                                             \
            const float *g = (const float *)a->dense.buf + m * h;                               \
            int64_t lo = ptr[rows[m]], hi = ptr[rows[m] + 1];                                   \
            Py_ssize_t k = 0;                                                                   \
            for (; k + BLOCK <= h; k += BLOCK) {                                                \
                vec8 grad[BLOCK / LANES];                                                       \
                for (int q = 0; q < BLOCK / LANES; q++) grad[q] = load8(g + k + q * LANES);     \
                for (int64_t e = lo; e < hi; e++) {                                             \
                    float *w = table + (Py_ssize_t)idx[e] * h + k;                              \
                    float v = val[e];                                                           \
                    for (int q = 0; q < BLOCK / LANES; q++)                                     \
                        store8(w + q * LANES, load8(w + q * LANES) + v * grad[q]);              \
                }                                                                               \
            }                                                                                   \
            for (; k < h; k++)                                                                  \
                for (int64_t e = lo; e < hi; e++) table[(Py_ssize_t)idx[e] * h + k] += val[e] * g[k]; \
        }                                                                                       \
    }

SPARSE_LOOPS(avx2, __attribute__((target("avx2"))))
SPARSE_LOOPS(base, )

static void forward_rows(const layer_args *a, const float *bias) {
    if (__builtin_cpu_supports("avx2"))
        forward_rows_avx2(a, bias);
    else
        forward_rows_base(a, bias);
}

static void backward_rows(const layer_args *a) {
    if (__builtin_cpu_supports("avx2"))
        backward_rows_avx2(a);
    else
        backward_rows_base(a);
}
#else /* other compilers: plain loops, same sums in the same order */
static void forward_rows(const layer_args *a, const float *bias) {
    const int64_t *ptr = a->ptr.buf, *rows = a->rows.buf;
    const int32_t *idx = a->idx.buf;
    const float *val = a->val.buf, *table = a->table.buf;
    Py_ssize_t h = a->width;
    for (Py_ssize_t m = 0; m < a->count; m++) {
        float *out = (float *)a->dense.buf + m * h;
        memcpy(out, bias, (size_t)h * sizeof(float));
        for (int64_t e = ptr[rows[m]]; e < ptr[rows[m] + 1]; e++)
            for (Py_ssize_t k = 0; k < h; k++) out[k] += val[e] * table[(Py_ssize_t)idx[e] * h + k];
    }
}

static void backward_rows(const layer_args *a) {
    const int64_t *ptr = a->ptr.buf, *rows = a->rows.buf;
    const int32_t *idx = a->idx.buf;
    const float *val = a->val.buf;
    float *table = a->table.buf;
    Py_ssize_t h = a->width;
    for (Py_ssize_t m = 0; m < a->count; m++) {
        const float *g = (const float *)a->dense.buf + m * h;
        for (int64_t e = ptr[rows[m]]; e < ptr[rows[m] + 1]; e++)
            for (Py_ssize_t k = 0; k < h; k++) table[(Py_ssize_t)idx[e] * h + k] += val[e] * g[k];
    }
}
#endif

static PyObject *py_forward(PyObject *module, PyObject *args) {
    PyObject *o[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO:forward", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6]))
        return NULL;
    /* forward(weight_t, bias, ptr, idx, val, rows, out): the shared order is ptr..out */
    PyObject *shared[6] = {o[2], o[3], o[4], o[5], o[0], o[6]};
    layer_args a;
    if (get_layer_args(shared, &a, 0) < 0) return NULL;
    Py_buffer bias;
    if (get(o[1], &bias, 'f', 1, 0, "bias") < 0) {
        release(&a, 6);
        return NULL;
    }
    PyObject *result = NULL;
    if (bias.shape[0] != a.width)
        fail("forward: bias must have weight_t's width");
    else if (!rows_in_range(&a))
        fail("forward: a row, a row pointer or an input index is out of range");
    else {
        forward_rows(&a, bias.buf);
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&bias);
    release(&a, 6);
    return result;
}

static PyObject *py_backward(PyObject *module, PyObject *args) {
    PyObject *o[6];
    if (!PyArg_ParseTuple(args, "OOOOOO:backward", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5]))
        return NULL;
    /* backward(grad, ptr, idx, val, rows, grad_weight_t) */
    PyObject *shared[6] = {o[1], o[2], o[3], o[4], o[5], o[0]};
    layer_args a;
    if (get_layer_args(shared, &a, 1) < 0) return NULL;
    PyObject *result = NULL;
    if (!rows_in_range(&a))
        fail("backward: a row, a row pointer or an input index is out of range");
    else {
        backward_rows(&a);
        result = Py_NewRef(Py_None);
    }
    release(&a, 6);
    return result;
}

/* ------------------------------------------------------------- the legal head */

static PyObject *py_legal_ids(PyObject *module, PyObject *args) {
    PyObject *o[2];
    if (!PyArg_ParseTuple(args, "OO:legal_ids", &o[0], &o[1])) return NULL;
    Py_buffer mask, ids;
    if (get(o[0], &mask, 'b', 2, 0, "mask") < 0) return NULL;
    if (get(o[1], &ids, 'q', 2, 1, "ids") < 0) {
        PyBuffer_Release(&mask);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t rows = mask.shape[0], actions = mask.shape[1], width = ids.shape[1];
    if (ids.shape[0] != rows) {
        fail("legal_ids: ids needs a row per mask row");
    } else {
        const uint8_t *m = mask.buf;
        int64_t *out = ids.buf;
        Py_ssize_t widest = 0;
        for (Py_ssize_t r = 0; r < rows && widest >= 0; r++) {
            Py_ssize_t n = 0;
            for (Py_ssize_t a = 0; a < actions; a++) {
                if (!m[r * actions + a]) continue;
                if (n == width) {
                    widest = -1;
                    break;
                }
                out[r * width + n++] = a;
            }
            for (Py_ssize_t l = n; l < width; l++) out[r * width + l] = -1;
            if (widest >= 0 && n > widest) widest = n;
        }
        result = PyLong_FromSsize_t(widest);
    }
    PyBuffer_Release(&ids);
    PyBuffer_Release(&mask);
    return result;
}

/* The buffers of the legal head: hidden M x D, weight A x D, ids M x L, dense M x L. */
typedef struct {
    Py_buffer hidden, weight, ids, dense;
    Py_ssize_t rows, depth, actions, width;
} head_args;

static void release_head(head_args *h, int held) {
    Py_buffer *views[] = {&h->hidden, &h->weight, &h->ids, &h->dense};
    for (int k = 0; k < held; k++) PyBuffer_Release(views[k]);
}

/* Fill `h` from (hidden, weight, ids, dense); `dense` is written by the forward, read by
 * the backward. Checks the shapes and every id. */
static int get_head_args(PyObject **o, head_args *h, int backward) {
    if (get(o[0], &h->hidden, 'f', 2, 0, "hidden") < 0) return -1;
    if (get(o[1], &h->weight, 'f', 2, 0, "weight") < 0) {
        release_head(h, 1);
        return -1;
    }
    if (get(o[2], &h->ids, 'q', 2, 0, "ids") < 0) {
        release_head(h, 2);
        return -1;
    }
    if (get(o[3], &h->dense, 'f', 2, !backward, backward ? "grad" : "out") < 0) {
        release_head(h, 3);
        return -1;
    }
    h->rows = h->hidden.shape[0];
    h->depth = h->hidden.shape[1];
    h->actions = h->weight.shape[0];
    h->width = h->ids.shape[1];
    int ok = h->weight.shape[1] == h->depth && h->ids.shape[0] == h->rows &&
             h->dense.shape[0] == h->rows && h->dense.shape[1] == h->width;
    const int64_t *ids = h->ids.buf;
    for (Py_ssize_t k = 0; ok && k < h->rows * h->width; k++)
        ok = ids[k] >= -1 && ids[k] < h->actions;
    if (!ok) {
        release_head(h, 4);
        fail("legal head: hidden M x D, weight A x D, ids and the logits M x L, ids in -1..A-1");
        return -1;
    }
    return 0;
}

static float dot(const float *a, const float *b, Py_ssize_t n) {
    float sum = 0.0f;
    for (Py_ssize_t k = 0; k < n; k++) sum += a[k] * b[k];
    return sum;
}

static PyObject *py_legal_forward(PyObject *module, PyObject *args) {
    PyObject *o[6];
    float fill;
    if (!PyArg_ParseTuple(args, "OOOOfO:legal_forward", &o[0], &o[1], &o[2], &o[3], &fill,
                          &o[4]))
        return NULL;
    /* legal_forward(hidden, weight, bias, ids, fill, out) */
    PyObject *shared[4] = {o[0], o[1], o[3], o[4]};
    head_args h;
    if (get_head_args(shared, &h, 0) < 0) return NULL;
    Py_buffer bias;
    if (get(o[2], &bias, 'f', 1, 0, "bias") < 0) {
        release_head(&h, 4);
        return NULL;
    }
    PyObject *result = NULL;
    if (bias.shape[0] != h.actions) {
        fail("legal_forward: a bias per action");
    } else {
        const float *hidden = h.hidden.buf, *weight = h.weight.buf, *b = bias.buf;
        const int64_t *ids = h.ids.buf;
        float *out = h.dense.buf;
        for (Py_ssize_t m = 0; m < h.rows; m++)
            for (Py_ssize_t l = 0; l < h.width; l++) {
                int64_t a = ids[m * h.width + l];
                out[m * h.width + l] =
                    a < 0 ? fill : dot(hidden + m * h.depth, weight + a * h.depth, h.depth) + b[a];
            }
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&bias);
    release_head(&h, 4);
    return result;
}

static PyObject *py_legal_backward(PyObject *module, PyObject *args) {
    PyObject *o[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO:legal_backward", &o[0], &o[1], &o[2], &o[3], &o[4],
                          &o[5], &o[6]))
        return NULL;
    /* legal_backward(grad, hidden, weight, ids, grad_hidden, grad_weight, grad_bias) */
    PyObject *shared[4] = {o[1], o[2], o[3], o[0]};
    head_args h;
    if (get_head_args(shared, &h, 1) < 0) return NULL;
    Py_buffer gh, gw, gb;
    int held = 0;
    if (get(o[4], &gh, 'f', 2, 1, "grad_hidden") == 0) held = 1;
    if (held == 1 && get(o[5], &gw, 'f', 2, 1, "grad_weight") == 0) held = 2;
    if (held == 2 && get(o[6], &gb, 'f', 1, 1, "grad_bias") == 0) held = 3;
    PyObject *result = NULL;
    if (held == 3) {
        if (gh.shape[0] != h.rows || gh.shape[1] != h.depth || gw.shape[0] != h.actions ||
            gw.shape[1] != h.depth || gb.shape[0] != h.actions) {
            fail("legal_backward: the gradients' shapes are hidden's, weight's and bias's");
        } else {
            const float *hidden = h.hidden.buf, *weight = h.weight.buf, *grad = h.dense.buf;
            const int64_t *ids = h.ids.buf;
            float *grad_hidden = gh.buf, *grad_weight = gw.buf, *grad_bias = gb.buf;
            Py_ssize_t d = h.depth;
            memset(grad_hidden, 0, (size_t)(h.rows * d) * sizeof(float));
            for (Py_ssize_t m = 0; m < h.rows; m++)
                for (Py_ssize_t l = 0; l < h.width; l++) {
                    int64_t a = ids[m * h.width + l];
                    if (a < 0) continue;
                    float g = grad[m * h.width + l];
                    for (Py_ssize_t k = 0; k < d; k++) {
                        grad_hidden[m * d + k] += g * weight[a * d + k];
                        grad_weight[a * d + k] += g * hidden[m * d + k];
                    }
                    grad_bias[a] += g;
                }
            result = Py_NewRef(Py_None);
        }
    }
    if (held >= 3) PyBuffer_Release(&gb);
    if (held >= 2) PyBuffer_Release(&gw);
    if (held >= 1) PyBuffer_Release(&gh);
    release_head(&h, 4);
    return result;
}

static PyMethodDef sparse_methods[] = {
    {"nonzeros", py_nonzeros, METH_VARARGS,
     "nonzeros(obs, ends, idx, val, offset) -> end: append the non-zeros of each row of obs "
     "at offset (-1: idx and val lack room)."},
    {"forward", py_forward, METH_VARARGS,
     "forward(weight_t, bias, ptr, idx, val, rows, out): out = the layer on the rows."},
    {"backward", py_backward, METH_VARARGS,
     "backward(grad, ptr, idx, val, rows, grad_weight_t): add the weights' gradient."},
    {"legal_ids", py_legal_ids, METH_VARARGS,
     "legal_ids(mask, ids) -> widest: each row's legal action ids, padded with -1 (-1: ids "
     "too narrow)."},
    {"legal_forward", py_legal_forward, METH_VARARGS,
     "legal_forward(hidden, weight, bias, ids, fill, out): the last layer's logits of the "
     "listed actions, fill for the padding."},
    {"legal_backward", py_legal_backward, METH_VARARGS,
     "legal_backward(grad, hidden, weight, ids, grad_hidden, grad_weight, grad_bias)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef sparse_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "friday_agents.learning._sparse",
    .m_doc = "friday rl's first layer over the non-zero inputs (sparse.py wraps it).",
    .m_size = -1,
    .m_methods = sparse_methods,
};

PyMODINIT_FUNC PyInit__sparse(void) { return PyModule_Create(&sparse_module); }
