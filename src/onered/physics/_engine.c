/*
 * onered.physics._engine -- the CPython glue of the table simulation: parses parameters
 * and geometry into the kernel's structs (kernel.h), runs shots with the GIL released and
 * builds the results (the compact raw tuples, or Event/Segment/ShotResult objects made by
 * calling their classes). The physics is all in kernel.c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#include "kernel.h"

static PyObject *EMPTY;  /* () */

/* ------------------------------------------------------------------ Python glue */

/* Tuples, events and segments of a result hold only numbers, strings, enum members, None
 * and immutable containers of those: they can never be part of a reference cycle, so the
 * cyclic GC need not scan them (it would, repeatedly, as a batch allocates thousands).
 * A ShotResult and its Paths hold only those, the engine's context (no GC type) and the
 * dict of segments Paths builds: no cycle passes through them either (unless a caller put
 * a result into its own frozen result's rest mapping), so they are untracked too -- kept
 * results cost the collector nothing, a tenth of simulate's time where results are kept.
 * (Dicts re-track themselves if something trackable is put in.) */
static inline PyObject *acyclic(PyObject *o) {
    if (o && PyObject_GC_IsTracked(o)) PyObject_GC_UnTrack(o);
    return o;
}


/* A result class and its fields (its __match_args__, the dataclass fields in order). */
typedef struct {
    PyObject *cls, *names;
    PyObject *slots[12];  /* the fields' slot descriptors (what object.__setattr__ finds) */
    int n;
} Maker;

/* Instances are made as the dataclass's generated __init__ makes them: object.__new__(cls),
 * then object.__setattr__(self, field, value) for each field in order -- that is, the
 * __set__ of each field's slot descriptor, looked up once (the documented construction of
 * onered.physics.types; valid as these classes have no __post_init__, which maker_init
 * checks). This costs a tenth of calling the class's Python __init__.
 * Values: n new references, stolen even on failure. */
static PyObject *make(const Maker *mk, PyObject **values) {
    PyObject *o = NULL;
    int ok = 1;
    for (int k = 0; k < mk->n; k++) ok = ok && values[k];
    if (ok) o = PyBaseObject_Type.tp_new((PyTypeObject *)mk->cls, EMPTY, NULL);
    for (int k = 0; o && k < mk->n; k++) {
        PyObject *slot = mk->slots[k];
        if (Py_TYPE(slot)->tp_descr_set(slot, o, values[k])) Py_CLEAR(o);
    }
    for (int k = 0; k < mk->n; k++) Py_XDECREF(values[k]);
    return o;
}

static int maker_init(Maker *mk, PyObject *cls, int n) {
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "builders: expected a class");
        return -1;
    }
    if (PyObject_HasAttrString(cls, "__post_init__")) {
        PyErr_Format(PyExc_TypeError, "builders: %s has a __post_init__",
                     ((PyTypeObject *)cls)->tp_name);
        return -1;
    }
    PyObject *names = PyObject_GetAttrString(cls, "__match_args__");
    if (!names) return -1;
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != n || n > 12) {
        Py_DECREF(names);
        PyErr_Format(PyExc_TypeError, "builders: %s does not have %d fields",
                     ((PyTypeObject *)cls)->tp_name, n);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        PyObject *slot = PyObject_GetAttr(cls, PyTuple_GET_ITEM(names, k));
        if (slot && !Py_TYPE(slot)->tp_descr_set) {
            Py_CLEAR(slot);
            PyErr_Format(PyExc_TypeError, "builders: %s is not a slotted class",
                         ((PyTypeObject *)cls)->tp_name);
        }
        if (!slot) {
            for (int q = 0; q < k; q++) Py_CLEAR(mk->slots[q]);
            Py_DECREF(names);
            return -1;
        }
        mk->slots[k] = slot;
    }
    Py_INCREF(cls);
    mk->cls = cls;
    mk->names = names;
    mk->n = n;
    return 0;
}

static void maker_clear(Maker *mk) {
    for (int k = 0; k < mk->n; k++) Py_CLEAR(mk->slots[k]);
    mk->n = 0;
    Py_CLEAR(mk->cls);
    Py_CLEAR(mk->names);
}

typedef struct {
    PyObject_HEAD
    Table tb;
    int ready;
    Maker event, segment, result, paths;  /* the result classes */
    PyObject *kinds, *cushions, *pockets, *directions;  /* tuples of names / enum members */
} ContextObject;

static void Context_dealloc(ContextObject *self) {
    maker_clear(&self->event);
    maker_clear(&self->segment);
    maker_clear(&self->result);
    maker_clear(&self->paths);
    Py_XDECREF(self->kinds);
    Py_XDECREF(self->cushions);
    Py_XDECREF(self->pockets);
    Py_XDECREF(self->directions);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_doubles(PyObject *seq, double *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd numbers, got %zd", what, n,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < n; k++) {
        out[k] = PyFloat_AsDouble(items[k]);
        if (out[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* The Params fields the kernel reads, by name, in kernel_set_phys's order. */
static const char *const PHYS_NAMES[N_PHYS_FIELDS] = {
    "R", "m", "g", "mu_s", "mu_r", "mu_sp", "e_b", "e_c", "f_c", "cushion_height", "mu_b_a",
    "mu_b_b", "mu_b_c", "e_c_drop", "e_c_speed", "e_table", "rail_width"};

static int set_builders(ContextObject *self, PyObject *b) {
    PyObject *ev, *seg, *res, *pth, *kinds, *cushions, *pockets, *dirs;
    if (!PyArg_ParseTuple(b, "OOOOO!O!O!O!:builders", &ev, &seg, &res, &pth, &PyTuple_Type,
                          &kinds, &PyTuple_Type, &cushions, &PyTuple_Type, &pockets,
                          &PyTuple_Type, &dirs))
        return -1;
    if (PyTuple_GET_SIZE(kinds) != N_EVENT_KINDS || PyTuple_GET_SIZE(cushions) != N_CUSHIONS + 2 ||
        PyTuple_GET_SIZE(pockets) != N_POCKETS + 1 || PyTuple_GET_SIZE(dirs) != 3) {
        PyErr_SetString(PyExc_ValueError, "builders: wrong table sizes");
        return -1;
    }
    if (maker_init(&self->event, ev, 6) || maker_init(&self->segment, seg, 10) ||
        maker_init(&self->result, res, 4) || maker_init(&self->paths, pth, 5))
        return -1;
    PyObject *items[4] = {kinds, cushions, pockets, dirs};
    for (int k = 0; k < 4; k++) Py_INCREF(items[k]);
    self->kinds = kinds;
    self->cushions = cushions;
    self->pockets = pockets;
    self->directions = dirs;
    return 0;
}

static int Context_init(ContextObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"params", "geometry", "builders", "max_events", "cushion_model",
                             NULL};
    PyObject *params, *geo_o, *builders;
    long max_events;
    int model;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Context is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO!li", kwlist, &params, &geo_o,
                                     &PyTuple_Type, &builders, &max_events, &model))
        return -1;
    double ph[N_PHYS_FIELDS];
    for (int k = 0; k < N_PHYS_FIELDS; k++) {
        PyObject *v = PyObject_GetAttrString(params, PHYS_NAMES[k]);
        if (!v) return -1;
        ph[k] = PyFloat_AsDouble(v);
        Py_DECREF(v);
        if (ph[k] == -1.0 && PyErr_Occurred()) return -1;
    }
    if (kernel_set_phys(&self->tb.ph, ph, model, max_events)) {
        PyErr_Format(PyExc_ValueError, "cushion_model: unknown code %d", model);
        return -1;
    }
    PyObject *fast = PySequence_Fast(geo_o, "geometry");
    if (!fast) return -1;
    Py_ssize_t ng = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    double *g = (double *)malloc((size_t)(ng ? ng : 1) * sizeof(double));
    if (!g) { PyErr_NoMemory(); return -1; }
    if (read_doubles(geo_o, g, ng, "geometry")) { free(g); return -1; }
    int bad = kernel_set_geometry(&self->tb, g, ng);
    free(g);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "geometry: does not fit the layout in kernel.h");
        return -1;
    }
    if (set_builders(self, builders)) return -1;
    self->ready = 1;
    return 0;
}

static int check_ready(const ContextObject *self) {
    if (self->ready) return 0;
    PyErr_SetString(PyExc_RuntimeError, "Context is not initialised");
    return -1;
}

static PyObject *Context_validate(ContextObject *self, PyObject *arg) {
    if (check_ready(self)) return NULL;
    PyObject *fast = PySequence_Fast(arg, "positions");
    if (!fast) return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (m % 2) {
        PyErr_SetString(PyExc_ValueError, "positions: odd length");
        return NULL;
    }
    double *p = (double *)malloc((size_t)(m ? m : 1) * sizeof(double));
    if (!p) return PyErr_NoMemory();
    if (read_doubles(arg, p, m, "positions")) { free(p); return NULL; }
    Py_ssize_t i = -1, j = -1;
    int code = kernel_check_positions(&self->tb, p, m / 2, &i, &j);
    free(p);
    if (code == PLACE_OK) Py_RETURN_NONE;
    return Py_BuildValue("(inn)", code, i, j);
}

static PyObject *pair_of(double a, double b);

/* A tuple of n new references (stolen; NULL entries make it fail cleanly). */
static PyObject *tuple_of(PyObject **items, int n) {
    PyObject *t = PyTuple_New(n);
    for (int k = 0; k < n; k++) {
        if (!t || !items[k]) {
            for (int q = k; q < n; q++) Py_XDECREF(items[q]);
            Py_XDECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, items[k]);
    }
    return t;
}


/* The raw result of one shot: (status, duration, rest, events, paths or None). */
static PyObject *build_result(int status, double duration, int n, const Ball *balls,
                              const double *ev, Py_ssize_t nev, const double *seg,
                              Py_ssize_t nseg, int want_paths) {
    PyObject *rest = acyclic(PyTuple_New(n)), *events = acyclic(PyTuple_New(nev)), *paths = NULL;
    if (!rest || !events) goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *r;
        if (balls[i].state == ST_POCKETED || balls[i].state == ST_OFF) {
            r = Py_None;
            Py_INCREF(r);
        } else if (!(r = pair_of(balls[i].x, balls[i].y))) {
            goto fail;
        }
        PyTuple_SET_ITEM(rest, i, r);
    }
    for (Py_ssize_t e = 0; e < nev; e++) {
        const double *q = ev + 7 * e;
        PyObject *items[7] = {PyFloat_FromDouble(q[0])};
        for (int c = 1; c < 7; c++) items[c] = PyLong_FromLong((long)q[c]);
        PyObject *item = acyclic(tuple_of(items, 7));
        if (!item) goto fail;
        PyTuple_SET_ITEM(events, e, item);
    }
    if (want_paths) {
        int *count = (int *)calloc((size_t)n, sizeof(int));
        paths = acyclic(PyTuple_New(n));
        if (!count || !paths) {
            free(count);
            if (!count) PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t s = 0; s < nseg; s++) count[(int)seg[SEG_SIZE * s]]++;
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            PyObject *t = PyTuple_New(count[i]);
            if (!t) { ok = 0; break; }
            PyTuple_SET_ITEM(paths, i, acyclic(t));
            count[i] = 0;
        }
        for (Py_ssize_t s = 0; s < nseg && ok; s++) {
            const double *q = seg + SEG_SIZE * s;
            PyObject *items[SEG_SIZE - 1];
            for (int c = 0; c < SEG_SIZE - 1; c++) items[c] = PyFloat_FromDouble(q[1 + c]);
            PyObject *item = acyclic(tuple_of(items, SEG_SIZE - 1));
            if (!item) { ok = 0; break; }
            int i = (int)q[0];
            PyTuple_SET_ITEM(PyTuple_GET_ITEM(paths, i), count[i]++, item);
        }
        free(count);
        if (!ok) goto fail;
    } else {
        paths = Py_None;
        Py_INCREF(paths);
    }
    PyObject *items[5] = {PyLong_FromLong(status), PyFloat_FromDouble(duration), acyclic(rest),
                          acyclic(events), acyclic(paths)};
    return acyclic(tuple_of(items, 5));
fail:
    Py_XDECREF(rest);
    Py_XDECREF(events);
    Py_XDECREF(paths);
    return NULL;
}

/* The shots of one call, run with the GIL released, kept in C buffers. */
typedef struct {
    int n;
    Py_ssize_t nshots;
    double *meta;  /* per shot: status, duration, end of its events, end of its segments */
    Ball *rest;    /* per shot and ball: the final state */
    Buf ev, seg;
} Runs;

static void runs_free(Runs *r) {
    free(r->meta);
    free(r->rest);
    free(r->ev.d);
    free(r->seg.d);
}

/* A shot's scratch for n balls (kernel.h's Sim without its outputs): made once a call. */
static int sim_open(Sim *S, const Table *tb, int n, Buf *ev, Buf *seg) {
    memset(S, 0, sizeof(*S));
    S->tb = tb;
    S->n = n;
    S->ev = ev;
    S->seg = seg;
    S->b = (Ball *)malloc((size_t)n * sizeof(Ball));
    S->stat = (Cand *)malloc((size_t)n * sizeof(Cand));
    S->baulk = (double *)malloc((size_t)n * sizeof(double));
    S->pair = (double *)malloc((size_t)n * (size_t)n * sizeof(double));
    S->pkind = (int *)calloc((size_t)n * (size_t)n, sizeof(int));
    S->over = (unsigned char *)calloc((size_t)n * (size_t)n, 1);
    return S->b && S->stat && S->baulk && S->pair && S->pkind && S->over ? 0 : -1;
}

static void sim_close(Sim *S) {
    free(S->b);
    free(S->stat);
    free(S->baulk);
    free(S->pair);
    free(S->pkind);
    free(S->over);
}

static int run_all(ContextObject *self, PyObject *pos_o, int cue, PyObject *lau_o,
                   int want_paths, Runs *R) {
    memset(R, 0, sizeof(*R));
    PyObject *fp = PySequence_Fast(pos_o, "positions");
    if (!fp) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fp);
    Py_DECREF(fp);
    PyObject *fl = PySequence_Fast(lau_o, "launches");
    if (!fl) return -1;
    Py_ssize_t ml = PySequence_Fast_GET_SIZE(fl);
    Py_DECREF(fl);
    if (m % 2 || m == 0 || ml % LAUNCH_SIZE) {
        PyErr_SetString(PyExc_ValueError, "positions or launches: bad length");
        return -1;
    }
    const int n = (int)(m / 2);
    const Py_ssize_t nshots = ml / LAUNCH_SIZE;
    if (cue < 0 || cue >= n) {
        PyErr_SetString(PyExc_ValueError, "cue: index out of range");
        return -1;
    }
    R->n = n;
    R->nshots = nshots;
    double *pos = (double *)malloc((size_t)m * sizeof(double));
    double *lau = (double *)malloc((size_t)(ml ? ml : 1) * sizeof(double));
    Sim S;
    const int scratch = sim_open(&S, &self->tb, n, &R->ev, want_paths ? &R->seg : NULL);
    R->meta = (double *)malloc((size_t)(nshots ? nshots : 1) * 4 * sizeof(double));
    R->rest = (Ball *)malloc((size_t)(nshots ? nshots : 1) * (size_t)n * sizeof(Ball));
    int rc = -1;
    if (!pos || !lau || scratch || !R->meta || !R->rest) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_doubles(pos_o, pos, m, "positions") || read_doubles(lau_o, lau, ml, "launches"))
        goto done;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < nshots; k++) {
        double duration = 0;
        int status = kernel_run_shot(&S, pos, cue, lau + LAUNCH_SIZE * k, &duration);
        if (status < 0) { failed = 1; break; }
        R->meta[4 * k] = status;
        R->meta[4 * k + 1] = duration;
        R->meta[4 * k + 2] = (double)(R->ev.n / 7);
        R->meta[4 * k + 3] = (double)(R->seg.n / SEG_SIZE);
        memcpy(R->rest + k * n, S.b, (size_t)n * sizeof(Ball));
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    rc = 0;
done:
    free(pos);
    free(lau);
    sim_close(&S);
    if (rc) runs_free(R);
    return rc;
}

static PyObject *Context_simulate(ContextObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"positions", "cue", "launches", "paths", NULL};
    PyObject *pos_o, *lau_o;
    int cue, want_paths;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOp", kwlist, &pos_o, &cue, &lau_o,
                                     &want_paths))
        return NULL;
    Runs R;
    if (check_ready(self) || run_all(self, pos_o, cue, lau_o, want_paths, &R)) return NULL;
    PyObject *out = PyList_New(R.nshots);
    Py_ssize_t e0 = 0, s0 = 0;
    for (Py_ssize_t k = 0; out && k < R.nshots; k++) {
        Py_ssize_t e1 = (Py_ssize_t)R.meta[4 * k + 2], s1 = (Py_ssize_t)R.meta[4 * k + 3];
        PyObject *r = build_result((int)R.meta[4 * k], R.meta[4 * k + 1], R.n, R.rest + k * R.n,
                                   R.ev.d ? R.ev.d + 7 * e0 : NULL, e1 - e0,
                                   R.seg.d ? R.seg.d + SEG_SIZE * s0 : NULL, s1 - s0, want_paths);
        if (!r) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, r);
        e0 = e1;
        s0 = s1;
    }
    runs_free(&R);
    return out;
}

static PyObject *pair_of(double a, double b) {
    PyObject *t = PyTuple_New(2);
    if (!t) return NULL;
    PyObject *x = PyFloat_FromDouble(a), *y = PyFloat_FromDouble(b);
    if (!x || !y) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, x);
    PyTuple_SET_ITEM(t, 1, y);
    return acyclic(t);
}

static PyObject *triple_of(double a, double b, double c) {
    PyObject *items[3] = {PyFloat_FromDouble(a), PyFloat_FromDouble(b), PyFloat_FromDouble(c)};
    return acyclic(tuple_of(items, 3));
}

static inline PyObject *new_ref(PyObject *o) {
    Py_INCREF(o);
    return o;
}

/* One ShotResult, made as the result classes' __init__ would (see make). names: ball ids in engine order; order:
 * engine indices in the caller's order; rank: each engine index's place in that order. */
static PyObject *build_object(const ContextObject *self, double duration, int n,
                              const Ball *balls, const double *ev, Py_ssize_t nev,
                              const double *seg, Py_ssize_t nseg, int want_paths,
                              PyObject *names, const int *order, const int *rank,
                              PyObject *order_tuple) {
    PyObject *events = acyclic(PyTuple_New(nev)), *rest = acyclic(PyDict_New());
    PyObject *paths = want_paths ? NULL : acyclic(PyDict_New());  /* no paths: {} */
    PyObject *out = NULL;
    if (!events || !rest || (!want_paths && !paths)) goto done;
    for (Py_ssize_t e = 0; e < nev; e++) {
        const double *q = ev + 7 * e;
        int kind = (int)q[1], a = (int)q[2], b = (int)q[3], c = (int)q[4], p = (int)q[5];
        PyObject *agents;
        if (b < 0) {
            agents = acyclic(PyTuple_Pack(1, PyTuple_GET_ITEM(names, a)));
        } else {
            /* in the caller's order, but "over" keeps its order: the airborne ball first */
            if (kind != EV_OVER && rank[b] < rank[a]) { int tmp = a; a = b; b = tmp; }
            agents = acyclic(
                PyTuple_Pack(2, PyTuple_GET_ITEM(names, a), PyTuple_GET_ITEM(names, b)));
        }
        PyObject *cushion =
            kind == EV_CUSHION ? PyTuple_GET_ITEM(self->cushions, c >= 0 ? c : N_CUSHIONS)
            : kind == EV_OFF_TABLE && c >= 0 ? PyTuple_GET_ITEM(self->cushions, c)
                                              : PyTuple_GET_ITEM(self->cushions, N_CUSHIONS + 1);
        PyObject *pocket = PyTuple_GET_ITEM(self->pockets, p >= 0 ? p : N_POCKETS);
        PyObject *values[6] = {PyFloat_FromDouble(q[0]),
                               new_ref(PyTuple_GET_ITEM(self->kinds, kind)),
                               agents,
                               new_ref(cushion),
                               new_ref(pocket),
                               new_ref(PyTuple_GET_ITEM(self->directions, (int)q[6]))};
        PyObject *event = acyclic(make(&self->event, values));  /* immutable */
        if (!event) goto done;
        PyTuple_SET_ITEM(events, e, event);
    }
    for (int k = 0; k < n; k++) {
        int i = order[k];
        PyObject *r = balls[i].state == ST_POCKETED || balls[i].state == ST_OFF
                          ? new_ref(Py_None)
                          : pair_of(balls[i].x, balls[i].y);
        if (!r || PyDict_SetItem(rest, PyTuple_GET_ITEM(names, i), r)) {
            Py_XDECREF(r);
            goto done;
        }
        Py_DECREF(r);
    }
    if (want_paths) {
        /* the segments stay numbers until the paths are read (Paths, paths_of) */
        PyObject *values[5] = {
            new_ref((PyObject *)self),
            PyBytes_FromStringAndSize((const char *)seg,
                                      (Py_ssize_t)(nseg * SEG_SIZE * (Py_ssize_t)sizeof(double))),
            new_ref(names), new_ref(order_tuple), new_ref(Py_None)};
        paths = acyclic(make(&self->paths, values));
        if (!paths) goto done;
    }
    PyObject *values[4] = {events, rest, PyFloat_FromDouble(duration), paths};
    events = rest = paths = NULL;  /* stolen */
    out = acyclic(make(&self->result, values));
done:
    Py_XDECREF(events);
    Py_XDECREF(rest);
    Py_XDECREF(paths);
    return out;
}

/* paths_of(raw, names, order): the paths of one shot from its raw segments (SEG_SIZE
 * doubles a segment, as kernel_run_shot writes them): a dict of ball name (in `order`, engine
 * indices in the caller's order) to a tuple of Segment. Called by onered.physics.types.Paths
 * when a shot's paths are first read. */
static PyObject *Context_paths_of(ContextObject *self, PyObject *args) {
    PyObject *names, *order_o;
    Py_buffer raw;
    if (check_ready(self)) return NULL;
    if (!PyArg_ParseTuple(args, "y*O!O!:paths_of", &raw, &PyTuple_Type, &names, &PyTuple_Type,
                          &order_o))
        return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(names);
    const Py_ssize_t nseg = raw.len / (Py_ssize_t)(SEG_SIZE * sizeof(double));
    const double *seg = (const double *)raw.buf;
    PyObject *paths = NULL, **pieces = (PyObject **)calloc((size_t)(n ? n : 1), sizeof(PyObject *));
    Py_ssize_t *count = (Py_ssize_t *)calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    if (!pieces || !count) {
        PyErr_NoMemory();
        goto done;
    }
    if (PyTuple_GET_SIZE(order_o) != n) {
        PyErr_SetString(PyExc_ValueError, "paths_of: one order entry per name");
        goto done;
    }
    for (Py_ssize_t s = 0; s < nseg; s++) {
        long i = (long)seg[SEG_SIZE * s];
        if (i < 0 || i >= n) {
            PyErr_SetString(PyExc_ValueError, "paths_of: a segment of an unknown ball");
            goto done;
        }
        count[i]++;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        pieces[i] = acyclic(PyTuple_New(count[i]));
        if (!pieces[i]) goto done;
        count[i] = 0;
    }
    for (Py_ssize_t s = 0; s < nseg; s++) {
        const double *q = seg + SEG_SIZE * s;
        int i = (int)q[0];
        PyObject *values[10] = {PyFloat_FromDouble(q[1]),       PyFloat_FromDouble(q[2]),
                                pair_of(q[3], q[4]),            pair_of(q[5], q[6]),
                                pair_of(q[7], q[8]),            triple_of(q[9], q[10], q[11]),
                                triple_of(q[12], q[13], q[14]), PyFloat_FromDouble(q[15]),
                                PyFloat_FromDouble(q[16]),      PyFloat_FromDouble(q[17])};
        PyObject *piece = acyclic(make(&self->segment, values));
        if (!piece) goto done;
        PyTuple_SET_ITEM(pieces[i], count[i]++, piece);
    }
    paths = PyDict_New();
    for (Py_ssize_t k = 0; paths && k < n; k++) {
        long i = PyLong_AsLong(PyTuple_GET_ITEM(order_o, k));
        if (i < 0 || i >= n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "paths_of: bad order");
            Py_CLEAR(paths);
        } else if (PyDict_SetItem(paths, PyTuple_GET_ITEM(names, i), pieces[i])) {
            Py_CLEAR(paths);
        }
    }
done:
    if (pieces)
        for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(pieces[i]);
    free(pieces);
    free(count);
    PyBuffer_Release(&raw);
    return paths;
}

static PyObject *Context_results(ContextObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"positions", "cue", "launches", "paths", "names", "order", NULL};
    PyObject *pos_o, *lau_o, *names, *order_o;
    int cue, want_paths;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOpO!O", kwlist, &pos_o, &cue, &lau_o,
                                     &want_paths, &PyTuple_Type, &names, &order_o))
        return NULL;
    Runs R;
    if (check_ready(self) || run_all(self, pos_o, cue, lau_o, want_paths, &R)) return NULL;
    const int n = R.n;
    PyObject *out = NULL, *order_tuple = NULL;
    int *order = (int *)malloc((size_t)n * sizeof(int)), *rank = (int *)malloc((size_t)n * sizeof(int));
    double *ord = (double *)malloc((size_t)n * sizeof(double));
    if (!order || !rank || !ord) {
        PyErr_NoMemory();
        goto done;
    }
    if (PyTuple_GET_SIZE(names) != n) {
        PyErr_SetString(PyExc_ValueError, "names: one per ball");
        goto done;
    }
    if (read_doubles(order_o, ord, n, "order")) goto done;
    for (int i = 0; i < n; i++) rank[i] = -1;
    for (int k = 0; k < n; k++) {
        int i = (int)ord[k];
        if (i < 0 || i >= n || rank[i] >= 0) {
            PyErr_SetString(PyExc_ValueError, "order: not a permutation");
            goto done;
        }
        order[k] = i;
        rank[i] = k;
    }
    /* the caller's order as a tuple, shared by every shot's Paths */
    order_tuple = PyTuple_New(n);
    for (int k = 0; order_tuple && k < n; k++) {
        PyObject *i = PyLong_FromLong(order[k]);
        if (!i) Py_CLEAR(order_tuple);
        else PyTuple_SET_ITEM(order_tuple, k, i);
    }
    if (!order_tuple) goto done;
    acyclic(order_tuple);
    out = PyList_New(R.nshots);
    Py_ssize_t e0 = 0, s0 = 0;
    for (Py_ssize_t k = 0; out && k < R.nshots; k++) {
        Py_ssize_t e1 = (Py_ssize_t)R.meta[4 * k + 2], s1 = (Py_ssize_t)R.meta[4 * k + 3];
        PyObject *r;
        if (R.meta[4 * k] != 0) {
            r = new_ref(Py_None);  /* the shot did not end within max_events */
        } else {
            r = build_object(self, R.meta[4 * k + 1], n, R.rest + k * n,
                             R.ev.d ? R.ev.d + 7 * e0 : NULL, e1 - e0,
                             R.seg.d ? R.seg.d + SEG_SIZE * s0 : NULL, s1 - s0, want_paths, names,
                             order, rank, order_tuple);
        }
        if (!r) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, r);
        e0 = e1;
        s0 = s1;
    }
done:
    Py_XDECREF(order_tuple);
    free(order);
    free(rank);
    free(ord);
    runs_free(&R);
    return out;
}

/* ------------------------------------------------------------------ many positions */

/* A buffer of the batch entry: C-contiguous, items of `size` bytes of kind 'f' (float),
 * 'i' (signed) or 'u' (unsigned), exactly `len` items; writable when asked. */
static int take_buffer(PyObject *o, Py_buffer *v, char kind, Py_ssize_t size, Py_ssize_t len,
                       int writable, const char *what) {
    if (PyObject_GetBuffer(o, v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT |
                                     (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const char *f = v->format ? v->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    char c = *f;
    char k = c == 'd' || c == 'f' ? 'f' : strchr("bhilq", c) ? 'i' : strchr("BHILQ?", c) ? 'u' : 0;
    if (k != kind || v->itemsize != size || v->len != len * size || f[1] != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes ('%c'), got %zd bytes "
                     "of format '%s'", what, len, size, kind, v->len, v->format ? v->format : "B");
        PyBuffer_Release(v);
        v->obj = NULL;
        return -1;
    }
    return 0;
}

/* What a shot of the batch tells without its event log: the struck ball's first contact
 * with each ball, each ball's fate and the event that decided it, its baulk-line crossings,
 * cushion contacts, flights and the times it came above another ball in the air. */
typedef struct {
    int8_t *status, *fate, *pocket;
    double *duration, *rest, *contact;
    int32_t *gone, *n_events, *cushions;
    uint8_t *crossed;
    int16_t *flights, *overs;
} Summary;

enum { FATE_ON_TABLE, FATE_POCKETED, FATE_OFF_TABLE };

static void summarise(const Summary *O, Py_ssize_t k, int n, int cue, const Ball *balls,
                      const double *ev, Py_ssize_t nev, int status, double duration) {
    const Py_ssize_t b0 = k * n;
    O->status[k] = (int8_t)status;
    O->duration[k] = duration;
    O->n_events[k] = (int32_t)nev;
    for (int i = 0; i < n; i++) {
        const Ball *b = &balls[i];
        int fate = b->state == ST_POCKETED ? FATE_POCKETED : b->state == ST_OFF ? FATE_OFF_TABLE
                                                                                : FATE_ON_TABLE;
        O->fate[b0 + i] = (int8_t)fate;
        O->rest[2 * (b0 + i)] = fate == FATE_ON_TABLE ? b->x : NAN;
        O->rest[2 * (b0 + i) + 1] = fate == FATE_ON_TABLE ? b->y : NAN;
        O->pocket[b0 + i] = -1;
        O->gone[b0 + i] = -1;
        O->contact[b0 + i] = INFINITY;
        O->crossed[b0 + i] = 0;
        O->cushions[b0 + i] = 0;
        O->flights[b0 + i] = 0;
        O->overs[b0 + i] = 0;
    }
    for (Py_ssize_t e = 0; e < nev; e++) {
        const double *q = ev + 7 * e;
        const int kind = (int)q[1], a = (int)q[2], b = (int)q[3];
        switch (kind) {
            case EV_BALL_BALL:
                if (a == cue && O->contact[b0 + b] == INFINITY) O->contact[b0 + b] = q[0];
                if (b == cue && O->contact[b0 + a] == INFINITY) O->contact[b0 + a] = q[0];
                break;
            case EV_CUSHION: O->cushions[b0 + a]++; break;
            case EV_POCKET:
                O->pocket[b0 + a] = (int8_t)q[5];
                O->gone[b0 + a] = (int32_t)e;
                break;
            case EV_OFF_TABLE:
                if (O->gone[b0 + a] < 0) O->gone[b0 + a] = (int32_t)e;
                break;
            case EV_BAULK: O->crossed[b0 + a] |= (uint8_t)(q[6] == 1 ? 1 : 2); break;
            case EV_AIRBORNE: O->flights[b0 + a]++; break;
            case EV_OVER: O->overs[b0 + a]++; break;
            default: break;
        }
    }
}

/* run_many(positions, n, cue, launches, at, outputs, keep_events): see _engine.pyi. */
static PyObject *Context_run_many(ContextObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_ready(self)) return NULL;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "run_many: 7 arguments");
        return NULL;
    }
    const long n = PyLong_AsLong(args[1]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    PyObject *outs = args[5];
    const int keep = PyObject_IsTrue(args[6]);
    if (keep < 0) return NULL;
    if (n < 1 || n > 64 || !PyTuple_Check(outs) || PyTuple_GET_SIZE(outs) != 14) {
        PyErr_SetString(PyExc_ValueError, "run_many: 1 to 64 balls and 14 outputs");
        return NULL;
    }
    Py_buffer v[19];
    int nv = 0, rc = -1;
    for (int k = 0; k < 19; k++) v[k].obj = NULL;
    PyObject *events = NULL;
    /* inputs: the sizes follow from the buffers' lengths */
    if (PyObject_GetBuffer(args[0], &v[0], PyBUF_C_CONTIGUOUS) < 0) return NULL;
    nv = 1;
    const Py_ssize_t npos = v[0].len / (Py_ssize_t)(sizeof(double) * 2 * (size_t)n);
    PyBuffer_Release(&v[0]);
    if (PyObject_GetBuffer(args[3], &v[0], PyBUF_C_CONTIGUOUS) < 0) return NULL;
    const Py_ssize_t N = v[0].len / (Py_ssize_t)(sizeof(double) * LAUNCH_SIZE);
    PyBuffer_Release(&v[0]);
    nv = 0;
    struct { PyObject *o; char kind; Py_ssize_t size, len; int w; const char *what; } spec[19] = {
        {args[0], 'f', 8, npos * n * 2, 0, "positions"},
        {args[2], 'i', 4, npos, 0, "cue"},
        {args[3], 'f', 8, N * LAUNCH_SIZE, 0, "launches"},
        {args[4], 'i', 4, N, 0, "at"},
        {PyTuple_GET_ITEM(outs, 0), 'i', 1, N, 1, "status"},
        {PyTuple_GET_ITEM(outs, 1), 'f', 8, N, 1, "duration"},
        {PyTuple_GET_ITEM(outs, 2), 'f', 8, N * n * 2, 1, "rest"},
        {PyTuple_GET_ITEM(outs, 3), 'i', 1, N * n, 1, "fate"},
        {PyTuple_GET_ITEM(outs, 4), 'i', 1, N * n, 1, "pocket"},
        {PyTuple_GET_ITEM(outs, 5), 'i', 4, N * n, 1, "gone"},
        {PyTuple_GET_ITEM(outs, 6), 'f', 8, N * n, 1, "contact"},
        {PyTuple_GET_ITEM(outs, 7), 'u', 1, N * n, 1, "crossed"},
        {PyTuple_GET_ITEM(outs, 8), 'i', 4, N * n, 1, "cushions"},
        {PyTuple_GET_ITEM(outs, 9), 'i', 2, N * n, 1, "flights"},
        {PyTuple_GET_ITEM(outs, 10), 'i', 2, N * n, 1, "overs"},
        {PyTuple_GET_ITEM(outs, 11), 'i', 4, N, 1, "n_events"},
        {PyTuple_GET_ITEM(outs, 12), 'i', 8, N, 1, "event_end"},
        {PyTuple_GET_ITEM(outs, 13), 'i', 4, 4, 1, "problem"},
        {NULL, 0, 0, 0, 0, NULL}};
    for (; nv < 18; nv++)
        if (take_buffer(spec[nv].o, &v[nv], spec[nv].kind, spec[nv].size, spec[nv].len,
                        spec[nv].w, spec[nv].what))
            goto done;
    const double *pos = (const double *)v[0].buf, *lau = (const double *)v[2].buf;
    const int32_t *cue = (const int32_t *)v[1].buf, *at = (const int32_t *)v[3].buf;
    Summary O = {(int8_t *)v[4].buf, (int8_t *)v[7].buf, (int8_t *)v[8].buf,
                 (double *)v[5].buf, (double *)v[6].buf, (double *)v[10].buf,
                 (int32_t *)v[9].buf, (int32_t *)v[15].buf, (int32_t *)v[12].buf,
                 (uint8_t *)v[11].buf, (int16_t *)v[13].buf, (int16_t *)v[14].buf};
    int64_t *ev_end = (int64_t *)v[16].buf;
    int32_t *problem = (int32_t *)v[17].buf;
    for (Py_ssize_t p = 0; p < npos; p++)
        if (cue[p] < 0 || cue[p] >= n) {
            PyErr_Format(PyExc_ValueError, "cue[%zd]: not a ball of the position", p);
            goto done;
        }
    for (Py_ssize_t k = 0; k < N; k++)
        if (at[k] < 0 || at[k] >= npos) {
            PyErr_Format(PyExc_ValueError, "at[%zd]: not a position", k);
            goto done;
        }
    Buf ev = {NULL, 0, 0};
    Sim S;
    int failed = 0;
    if (sim_open(&S, &self->tb, (int)n, &ev, NULL)) {
        failed = -1;
    } else {
        Py_BEGIN_ALLOW_THREADS
        problem[0] = -1;
        /* every position is checked before any shot runs */
        for (Py_ssize_t p = 0; p < npos; p++) {
            ptrdiff_t i = -1, j = -1;
            int code = kernel_check_positions(&self->tb, pos + 2 * n * p, n, &i, &j);
            if (code != PLACE_OK) {
                problem[0] = (int32_t)p;
                problem[1] = code;
                problem[2] = (int32_t)i;
                problem[3] = (int32_t)j;
                failed = 1;
                break;
            }
        }
        Py_ssize_t e0 = 0;
        for (Py_ssize_t k = 0; !failed && k < N; k++) {
            const Py_ssize_t p = at[k];
            double duration = 0;
            if (!keep) ev.n = 0;
            int status = kernel_run_shot(&S, pos + 2 * n * p, cue[p], lau + LAUNCH_SIZE * k,
                                         &duration);
            if (status < 0) { failed = -1; break; }
            const Py_ssize_t e1 = ev.n / 7;
            summarise(&O, k, (int)n, cue[p], S.b, ev.d ? ev.d + 7 * e0 : NULL, e1 - e0, status,
                      duration);
            ev_end[k] = keep ? e1 : 0;
            if (keep) e0 = e1;
        }
        Py_END_ALLOW_THREADS
    }
    sim_close(&S);
    if (failed < 0) {
        free(ev.d);
        PyErr_NoMemory();
        goto done;
    }
    if (keep && !failed) {
        events = PyBytes_FromStringAndSize(ev.d ? (const char *)ev.d : "",
                                           (Py_ssize_t)(ev.n * (ptrdiff_t)sizeof(double)));
    } else {
        events = Py_None;
        Py_INCREF(events);
    }
    free(ev.d);
    if (events) rc = 0;
done:
    for (int k = 0; k < nv; k++)
        if (v[k].obj) PyBuffer_Release(&v[k]);
    if (rc) Py_CLEAR(events);
    return events;
}

static PyMethodDef Context_methods[] = {
    {"validate", (PyCFunction)Context_validate, METH_O,
     "validate(positions) -> None or (code, index, other): why balls may not lie there."},
    {"simulate", (PyCFunction)(void (*)(void))Context_simulate, METH_VARARGS | METH_KEYWORDS,
     "simulate(positions, cue, launches, paths) -> list of raw shot results."},
    {"results", (PyCFunction)(void (*)(void))Context_results, METH_VARARGS | METH_KEYWORDS,
     "results(positions, cue, launches, paths, names, order) -> list of ShotResult or None."},
    {"paths_of", (PyCFunction)Context_paths_of, METH_VARARGS,
     "paths_of(raw, names, order) -> dict of ball name to tuple of Segment."},
    {"run_many", (PyCFunction)(void (*)(void))Context_run_many, METH_FASTCALL,
     "run_many(positions, n, cue, launches, at, outputs, keep_events) -> events or None."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ContextType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "onered.physics._engine.Context",
    .tp_doc = "Parameters and table geometry, parsed once for many simulations.",
    .tp_basicsize = sizeof(ContextObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Context_init,
    .tp_dealloc = (destructor)Context_dealloc,
    .tp_methods = Context_methods,
};

/* first_entry(coefficients, horizon): the root isolation used for event times, exposed
 * for tests. Coefficients ascending (c0 + c1 t + ... + c4 t^4), at most five. */
static PyObject *engine_first_entry(PyObject *mod, PyObject *args) {
    PyObject *co;
    double H;
    if (!PyArg_ParseTuple(args, "Od:first_entry", &co, &H)) return NULL;
    PyObject *fast = PySequence_Fast(co, "coefficients");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n < 1 || n > 5) {
        PyErr_SetString(PyExc_ValueError, "coefficients: 1 to 5 numbers");
        return NULL;
    }
    double c[5] = {0, 0, 0, 0, 0};
    if (read_doubles(co, c, n, "coefficients")) return NULL;
    return PyFloat_FromDouble(kernel_first_entry(c, (int)n - 1, H));
}

/* ------------------------------------------------------------------ strikes */

/* The cue ball's launch (vx, vy, wx, wy, wz, vz) from a strike (speed, aim, side, height,
 * elevation): onered.physics.cue.strike_to_launch's arithmetic, the one place it is done
 * (the operations in Python's order, libm's functions as Python's math module calls them,
 * math.radians's x * (pi / 180)). The strike is checked by the caller. */
static void strike_launch(const double *s, double R, double m, double cue_end_mass,
                          double *out) {
    static const double deg = 3.14159265358979323846 / 180.0;
    const double phi = s[1] * deg, theta = s[4] * deg;
    const double a = s[2], b = s[3], v = s[0];
    const double cp = cos(phi), sp = sin(phi), ct = cos(theta), st = sin(theta);
    const double k = 5 * v / (2 * R);
    out[2] = k * (a * (cp * st) - b * sp);
    out[3] = k * (a * (sp * st) - b * -cp);
    out[4] = k * (a * ct - b * 0.0);
    double squirt = 0.0;
    if (!(cue_end_mass == 0 || a == 0)) {
        const double rest = 1 - a * a;
        squirt = atan2(2.5 * a * sqrt(rest), 1 + m / cue_end_mass + 2.5 * rest);
    }
    const double direction = phi + squirt, horizontal = v * ct;
    out[0] = horizontal * cos(direction);
    out[1] = horizontal * sin(direction);
    out[5] = -v * st;
}

/* launch_of(speed, aim, side, height, elevation, R, m, cue_end_mass) -> 6 floats */
static PyObject *engine_launch_of(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "launch_of: 8 numbers");
        return NULL;
    }
    double in[8], out[6];
    for (int k = 0; k < 8; k++) {
        in[k] = PyFloat_AsDouble(args[k]);
        if (in[k] == -1.0 && PyErr_Occurred()) return NULL;
    }
    strike_launch(in, in[5], in[6], in[7], out);
    PyObject *items[6];
    for (int k = 0; k < 6; k++) items[k] = PyFloat_FromDouble(out[k]);
    return tuple_of(items, 6);
}

/* launches_of(strikes, out, R, m, cue_end_mass[, max_speed, max_tip, min_elevation,
 * max_elevation]): 5 doubles a strike in, 6 a launch out. With the limits, every strike
 * is checked first (finite numbers, 0 < speed <= max_speed, hypot(side, height) <= max_tip,
 * min_elevation <= elevation <= max_elevation) and the index of the first that breaks them
 * is returned, nothing written; else -1 (None without the limits). */
static PyObject *engine_launches_of(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 && nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "launches_of: strikes, out, R, m, cue_end_mass[, 4 limits]");
        return NULL;
    }
    double c[7];
    for (int k = 0; k < nargs - 2; k++) {
        c[k] = PyFloat_AsDouble(args[2 + k]);
        if (c[k] == -1.0 && PyErr_Occurred()) return NULL;
    }
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    const Py_ssize_t n = in.len / (Py_ssize_t)(5 * sizeof(double));
    PyBuffer_Release(&in);
    if (take_buffer(args[0], &in, 'f', 8, 5 * n, 0, "strikes")) return NULL;
    if (take_buffer(args[1], &out, 'f', 8, 6 * n, 1, "out")) {
        PyBuffer_Release(&in);
        return NULL;
    }
    const double *s = (const double *)in.buf;
    double *o = (double *)out.buf;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    if (nargs == 9) {
        for (Py_ssize_t k = 0; k < n && bad < 0; k++) {
            const double *q = s + 5 * k;
            int ok = 1;
            for (int j = 0; j < 5; j++) ok = ok && isfinite(q[j]);
            if (!(ok && q[0] > 0 && q[0] <= c[3] && hypot(q[2], q[3]) <= c[4] &&
                  q[4] >= c[5] && q[4] <= c[6]))
                bad = k;
        }
    }
    if (bad < 0)
        for (Py_ssize_t k = 0; k < n; k++) strike_launch(s + 5 * k, c[0], c[1], c[2], o + 6 * k);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    if (nargs == 5) Py_RETURN_NONE;
    return PyLong_FromSsize_t(bad);
}

/* check_launches(launches, R, max_speed, max_spin): the index of the first launch (6
 * doubles a row) that simulate would refuse -- a number not finite, a speed
 * sqrt(vx^2 + vy^2 + vz^2) above max_speed, a spin surface speed R|w| above max_spin, or
 * neither speed nor spin -- else -1 (engine._launch_numbers's limits, the slack given). */
static PyObject *engine_check_launches(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "check_launches: launches, R, max_speed, max_spin");
        return NULL;
    }
    double c[3];
    for (int k = 0; k < 3; k++) {
        c[k] = PyFloat_AsDouble(args[1 + k]);
        if (c[k] == -1.0 && PyErr_Occurred()) return NULL;
    }
    Py_buffer in;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    const Py_ssize_t n = in.len / (Py_ssize_t)(LAUNCH_SIZE * sizeof(double));
    PyBuffer_Release(&in);
    if (take_buffer(args[0], &in, 'f', 8, LAUNCH_SIZE * n, 0, "launches")) return NULL;
    const double *q = (const double *)in.buf;
    Py_ssize_t bad = -1;
    for (Py_ssize_t k = 0; k < n && bad < 0; k++, q += LAUNCH_SIZE) {
        int ok = 1;
        for (int j = 0; j < LAUNCH_SIZE; j++) ok = ok && isfinite(q[j]);
        const double speed = sqrt(q[0] * q[0] + q[1] * q[1] + q[5] * q[5]);
        const double spin = c[0] * sqrt(q[2] * q[2] + q[3] * q[3] + q[4] * q[4]);
        if (!ok || speed > c[1] || spin > c[2] || (speed == 0 && spin == 0)) bad = k;
    }
    PyBuffer_Release(&in);
    return PyLong_FromSsize_t(bad);
}

static PyMethodDef engine_methods[] = {
    {"first_entry", engine_first_entry, METH_VARARGS,
     "first_entry(coefficients, horizon) -> first t in [0, horizon] entering p(t) <= 0."},
    {"check_launches", (PyCFunction)(void (*)(void))engine_check_launches, METH_FASTCALL,
     "check_launches(launches, R, max_speed, max_spin) -> first refused row or -1."},
    {"launch_of", (PyCFunction)(void (*)(void))engine_launch_of, METH_FASTCALL,
     "launch_of(speed, aim, side, height, elevation, R, m, cue_end_mass) -> launch numbers."},
    {"launches_of", (PyCFunction)(void (*)(void))engine_launches_of, METH_FASTCALL,
     "launches_of(strikes, out, R, m, cue_end_mass): strikes (5 a row) to launches (6 a row)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "onered.physics._engine",
    .m_doc = "The event loop of onered's table simulation (see onered.physics.engine).",
    .m_size = -1,
    .m_methods = engine_methods,
};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&ContextType) < 0) return NULL;
    if (!EMPTY && !(EMPTY = PyTuple_New(0))) return NULL;
    PyObject *mod = PyModule_Create(&engine_module);
    if (!mod) return NULL;
    static const char *const place_names[] = {"PLACE_OK", "PLACE_OFF_TABLE", "PLACE_OVER_POCKET",
                                              "PLACE_CUSHION", "PLACE_JAW", "PLACE_BALL"};
    static const int place_codes[] = {PLACE_OK, PLACE_OFF_TABLE, PLACE_OVER_POCKET,
                                      PLACE_CUSHION, PLACE_JAW, PLACE_BALL};
    for (int k = 0; k < 6; k++)
        if (PyModule_AddIntConstant(mod, place_names[k], place_codes[k]) < 0) {
            Py_DECREF(mod);
            return NULL;
        }
    PyObject *phys = PyTuple_New(N_PHYS_FIELDS);
    for (int k = 0; phys && k < N_PHYS_FIELDS; k++) {
        PyObject *name = PyUnicode_FromString(PHYS_NAMES[k]);
        if (!name) Py_CLEAR(phys);
        else PyTuple_SET_ITEM(phys, k, name);
    }
    if (!phys || PyModule_AddObject(mod, "PHYS_FIELDS", phys) < 0) {
        Py_XDECREF(phys);
        Py_DECREF(mod);
        return NULL;
    }
    if (PyModule_AddIntConstant(mod, "CUSHION_MATHAVAN2010", CUSHION_MATHAVAN2010) < 0 ||
        PyModule_AddIntConstant(mod, "CUSHION_HAN2005", CUSHION_HAN2005) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    Py_INCREF(&ContextType);
    if (PyModule_AddObject(mod, "Context", (PyObject *)&ContextType) < 0) {
        Py_DECREF(&ContextType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
