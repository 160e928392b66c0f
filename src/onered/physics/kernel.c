/*
 * kernel.c -- the event loop of the table simulation, in C for speed (no Python here:
 * the CPython glue is _engine.c; the interface is kernel.h).
 *
 * The model is documented in onered/physics/engine.py; in short (Leckie & Greenspan 2005,
 * "An event-based pool physics simulator"):
 *
 *  - Between events every ball moves in closed form with constant acceleration, so its
 *    centre follows r(t) = r0 + v0 t + a t^2 / 2. Sliding: a = -mu_s g u^ (u = slip of the
 *    contact point, v + R z x w), d(w_xy)/dt = (5 mu_s g / 2R) z x u^, sliding ends after
 *    2|u0| / (7 mu_s g). Rolling: a = -mu_r g v^, w_xy locked to v, ends after
 *    |v0| / (mu_r g). Vertical-axis spin decays at 5 mu_sp g / (2R) in every state.
 *  - Event times are roots of low-degree polynomials: cushion lines and the baulk line
 *    give quadratics, balls, knuckles and pocket falls quartics. Roots are isolated
 *    exactly by splitting the search interval at the polynomial's critical points
 *    (themselves found the same way from the derivative), then refined by a safeguarded
 *    Newton iteration on a bracket; nothing is sampled, nothing is missed. Searches that
 *    cannot find a root are skipped (surely_positive, quad_entry, apart): when the
 *    polynomial's Bernstein coefficients over the interval, or the bounding box of a
 *    relative path, prove it positive by a margin far beyond rounding, INF is the answer the
 *    search would give, so no result changes by a bit (benchmarks/kernel_identity.py checks
 *    that a build changes no output).
 *  - Ball-ball: equal masses, restitution e_b on the normal impulse, Coulomb friction at
 *    the contact with Alciatore's fit mu = a + b exp(-c v_slip) (TP A-14), capped where
 *    the slip would stop: this gives cut- and spin-induced throw.
 *  - Ball-cushion: a cushion model of cushion.c (Mathavan et al. 2010 by default, Han 2005
 *    on request), in the frame of the contact; the same model is used for the jaw facings
 *    and the rounded knuckles. A rebound too slow to leave against the cloth settles.
 *  - In the air (engine 4): the slate answers a ball driven into it (slate_bounce), a
 *    flight is a projectile (set_air), and its events are exact roots too: landing, faces,
 *    nose edges (quartics), knuckles, tops, a pocket's hole, 3-D ball contacts and passing
 *    over a ball (find_static_air, pair_time_air); a ball leaves play off the table
 *    (go_off_at) or into a pocket (go_in).
 *
 * Everything is plain IEEE double arithmetic in a fixed order, so results are
 * bit-identical from run to run (build with -ffp-contract=off, no -ffast-math).
 */
#include "kernel.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INF HUGE_VAL

/* The rare paths (a ball in the air) kept out of line (not inlined into the common ones,
 * whose frames and registers they would swell). */
#if defined(__GNUC__)
#define OUT_OF_LINE __attribute__((noinline))
#else
#define OUT_OF_LINE
#endif

/* What a ball's next static event is. In the air: the nose edge of a cushion or facing
 * (SK_EDGE, SK_FEDGE), coming down on a knuckle's top (SK_KTOP), on the cushion's top or
 * the rail (SK_TOP), past the rail's outer edge (SK_OUT); SK_FALL in the air: over a
 * pocket's hole below the nose height (the jaws and the pocket's back hold it: it drops). */
enum { SK_NONE, SK_CUSHION, SK_FACING, SK_KNUCKLE, SK_FALL, SK_EDGE, SK_FEDGE, SK_KTOP, SK_TOP,
       SK_OUT };
/* What a pair's next event is. */
enum { PK_CONTACT, PK_OVER };
/* Candidate classes, in tie-breaking order for one ball. */
enum { C_TRANS, C_STATIC, C_BAULK, C_PAIR };

/* Thresholds (SI units). */
static const double EPS_U = 1e-10;    /* slip below this is rolling */
static const double EPS_V = 1e-10;    /* speed below this is at rest */
static const double EPS_W = 1e-9;     /* vertical spin below this is none */
static const double V_MIN = 1e-12;    /* approach speeds below this are touches, not impacts */
static const double D_SETTLE = 1e-5;  /* rebound excursion (m) below which a contact settles */
static const double A_MIN = 1e-13;    /* accelerations below this press nothing (m/s^2) */
static const double EXT = 1e-9;       /* slack at the ends of straight segments */
static const double EPS_POS = 1e-6;   /* tolerance of input positions (as the referee's) */
static const double TOUCH = 1e-11;    /* gaps (m) below this are contact: rounding is ~1e-15 */
static const long SAME_MAX = 64;      /* events at one instant before squeezed balls stop */
static const double V_SQUEEZE = 1e-6; /* speed (m/s) under which a squeezed ball stops */
static const long JAM_MAX = 4096;     /* events at one instant before jammed balls stop */
static const double DEEP = 1e-5;      /* behind a line by more than this: not against it */
static const double HOP_MIN = 0.05;   /* a rebound off the slate slower than this (m/s; a hop
                                       * of 0.13 mm) settles: the ball stays on the bed */
static const int REST_MAX = 16;       /* contacts from above in one flight (on a ball, a nose
                                       * edge, a jaw's top) after which a ball that would
                                       * bounce there ever lower is taken as resting there */

/* ------------------------------------------------------------------ buffers */

/* Room for k more numbers at the end of b, taken: where to write them (NULL: out of
 * memory, b unchanged). The records are written in place, not built on the stack and
 * copied (the copy's wide loads of the narrow stores just made stalled on each event). */
static double *buf_take(Buf *b, ptrdiff_t k) {
    if (b->n + k > b->cap) {
        ptrdiff_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + k) cap *= 2;
        double *d = (double *)realloc(b->d, (size_t)cap * sizeof(double));
        if (!d) return NULL;
        b->d = d;
        b->cap = cap;
    }
    double *d = b->d + b->n;
    b->n += k;
    return d;
}

/* ------------------------------------------------------------------ polynomials */

/* fmin and fmax, inlined: the same value as glibc's (x86-64: minsd / maxsd, which give y
 * when x == y, so the sign of a zero is the same too; the number when one is a NaN), where
 * the library calls are not inlined without -ffast-math. */
static inline double min_d(double x, double y) { return (x < y || y != y) ? x : y; }
static inline double max_d(double x, double y) { return (x > y || y != y) ? x : y; }

/* |(x, y)|: our numbers are far from overflow, so no need for hypot's care (or cost). */
static inline double norm2(double x, double y) { return sqrt(x * x + y * y); }

static inline double horner(const double *c, int deg, double x) {
    double r = c[deg];
    for (int k = deg - 1; k >= 0; k--) r = r * x + c[k];
    return r;
}

/* A root of c (degree deg) in [a, b], where c is monotone and fa = c(a), fb = c(b) have
 * opposite signs (fb may be 0). Safeguarded Newton on the bracket, to machine precision.
 * Returns the final bracket end on b's side (so c(result) has the sign of fb, or is 0). */
static double mono_root(const double *c, int deg, double a, double b, double fa, double fb) {
    double dc[4];
    for (int k = 0; k < deg; k++) dc[k] = (k + 1) * c[k + 1];
    double lo = a, hi = b;          /* c(lo) has fa's sign, c(hi) fb's */
    const int pos_lo = fa > 0;
    if (fb == 0) return hi;
    double x = lo - fa * (hi - lo) / (fb - fa);  /* regula falsi start */
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    double fprev = INF;
    for (int it = 0; it < 200; it++) {
        double fx = horner(c, deg, x);
        if (fx == 0) return x;
        if ((fx > 0) == pos_lo) lo = x; else hi = x;
        double tol = 4 * DBL_EPSILON * max_d(fabs(lo), fabs(hi));
        if (hi - lo <= tol || hi - lo <= DBL_MIN) break;
        double d = deg > 0 ? horner(dc, deg - 1, x) : 0;
        double xn;
        if (d != 0 && fabs(fx) <= 0.5 * fprev) {
            xn = x - fx / d;
            double step = xn - x;
            if (fabs(step) < tol) xn = x + copysign(tol, step);  /* land across the root */
        } else {
            xn = 0.5 * (lo + hi);
        }
        if (!(xn > lo && xn < hi)) xn = 0.5 * (lo + hi);
        if (xn == x) break;
        fprev = fabs(fx);
        x = xn;
    }
    return hi;
}

/* Real roots of c (degree <= 3) in the open interval (0, H), ascending; returns count. */
static int roots_in(const double *c, int deg, double H, double *out) {
    while (deg > 0 && c[deg] == 0) deg--;
    if (deg == 0) return 0;
    if (deg == 1) {
        double r = -c[0] / c[1];
        if (r > 0 && r < H) { out[0] = r; return 1; }
        return 0;
    }
    if (deg == 2) {
        double disc = c[1] * c[1] - 4 * c[2] * c[0];
        if (disc < 0) return 0;
        double q = -0.5 * (c[1] + copysign(sqrt(disc), c[1]));
        double r1 = q / c[2], r2 = q != 0 ? c[0] / q : r1;
        if (r1 > r2) { double t = r1; r1 = r2; r2 = t; }
        int n = 0;
        if (r1 > 0 && r1 < H) out[n++] = r1;
        if (r2 > 0 && r2 < H && r2 != r1) out[n++] = r2;
        return n;
    }
    /* cubic: monotone between the roots of its derivative */
    double d[3] = {c[1], 2 * c[2], 3 * c[3]};
    double knots[4];
    int nk = 0;
    knots[nk++] = 0;
    nk += roots_in(d, 2, H, knots + 1);
    knots[nk++] = H;
    int n = 0;
    double fa = c[0];
    for (int k = 0; k + 1 < nk; k++) {
        double fb = horner(c, deg, knots[k + 1]);
        if ((fa < 0 && fb > 0) || (fa > 0 && fb < 0))
            out[n++] = mono_root(c, deg, knots[k], knots[k + 1], fa, fb);
        fa = fb;
    }
    return n;
}

/* Whether c (degree 2..4, c(0) > 0) is certainly positive all over [0, H], so that every
 * value poly_entry's search would compute is positive and it would find no entry: the
 * Bernstein coefficients of c on [0, H] (subdivided at the middle, up to BERN_DEPTH times,
 * where a piece's control polygon dips) all exceed a margin of 1e-10 of the polynomial's
 * scale S = sum |c_k| H^k, which is far beyond the rounding of these coefficients or of
 * any Horner evaluation on [0, H] (a few DBL_EPSILON S). A pure shortcut: whenever it
 * answers 1, the search would have returned INF, so no result changes by a bit. */
#define BERN_DEPTH 3

static int bern_positive(const double *b, int deg, double margin, int depth) {
    int ok = b[0] > margin;
    for (int k = 1; k <= deg; k++) ok &= b[k] > margin;
    if (ok) return 1;
    if (depth == 0 || !(b[0] > margin) || !(b[deg] > margin)) return 0;
    /* de Casteljau at the middle: the left piece's coefficients, then the right's */
    double w[5], left[5], right[5];
    for (int k = 0; k <= deg; k++) w[k] = b[k];
    for (int r = 0; r <= deg; r++) {
        left[r] = w[0];
        right[deg - r] = w[deg - r];
        for (int k = 0; k < deg - r; k++) w[k] = 0.5 * (w[k] + w[k + 1]);
    }
    return bern_positive(left, deg, margin, depth - 1) &&
           bern_positive(right, deg, margin, depth - 1);
}

/* The same for degree 4, unrolled (the quartics of ball contacts, the common case). */
static int bern4_positive(double b0, double b1, double b2, double b3, double b4, double margin,
                          int depth) {
    if ((b0 > margin) & (b1 > margin) & (b2 > margin) & (b3 > margin) & (b4 > margin)) return 1;
    if (depth == 0 || !(b0 > margin) || !(b4 > margin)) return 0;
    double m01 = 0.5 * (b0 + b1), m12 = 0.5 * (b1 + b2), m23 = 0.5 * (b2 + b3);
    double m34 = 0.5 * (b3 + b4);
    double m012 = 0.5 * (m01 + m12), m123 = 0.5 * (m12 + m23), m234 = 0.5 * (m23 + m34);
    double m0123 = 0.5 * (m012 + m123), m1234 = 0.5 * (m123 + m234);
    double mid = 0.5 * (m0123 + m1234);
    return bern4_positive(b0, m01, m012, m0123, mid, margin, depth - 1) &&
           bern4_positive(mid, m1234, m234, m34, b4, margin, depth - 1);
}

static int surely_positive(const double *c, int deg, double H) {
    if (!(H < INF) || deg < 2) return 0;
    double b[5], margin;
    /* a_k = c_k H^k; b_i = sum_k binom(i, k) / binom(deg, k) a_k */
    if (deg == 4) {
        const double H2 = H * H, a1 = c[1] * H, a2 = c[2] * H2, a3 = c[3] * H2 * H,
                     a4 = c[4] * H2 * H2;
        margin = 1e-10 * (fabs(c[0]) + fabs(a1) + fabs(a2) + fabs(a3) + fabs(a4));
        if (!(margin < INF) || !(margin > 1e-260)) return 0;
        return bern4_positive(c[0], c[0] + 0.25 * a1, c[0] + 0.5 * a1 + (1.0 / 6) * a2,
                              c[0] + 0.75 * a1 + 0.5 * a2 + 0.25 * a3, c[0] + a1 + a2 + a3 + a4,
                              margin, BERN_DEPTH);
    } else if (deg == 3) {
        const double a1 = c[1] * H, a2 = c[2] * H * H, a3 = c[3] * H * H * H;
        margin = 1e-10 * (fabs(c[0]) + fabs(a1) + fabs(a2) + fabs(a3));
        b[0] = c[0];
        b[1] = c[0] + (1.0 / 3) * a1;
        b[2] = c[0] + (2.0 / 3) * a1 + (1.0 / 3) * a2;
        b[3] = c[0] + a1 + a2 + a3;
    } else {
        const double a1 = c[1] * H, a2 = c[2] * H * H;
        margin = 1e-10 * (fabs(c[0]) + fabs(a1) + fabs(a2));
        b[0] = c[0];
        b[1] = c[0] + 0.5 * a1;
        b[2] = c[0] + a1 + a2;
    }
    if (!(margin < INF) || !(margin > 1e-260)) return 0;
    return bern_positive(b, deg, margin, BERN_DEPTH);
}

/* First tau in [0, H] at which c(tau) (degree <= 4) enters c <= 0 from above, or 0 if
 * c(0) <= 0 and c decreases at once. INF if none. */
static double poly_entry(const double *c, int deg, double H) {
    while (deg > 0 && c[deg] == 0) deg--;
    if (c[0] <= 0) {
        for (int k = 1; k <= deg; k++)
            if (c[k] != 0) {
                if (c[k] < 0) return 0.0;
                break;
            }
    }
    if (deg == 0) return INF;
    if (c[0] > 0 && surely_positive(c, deg, H)) return INF;
    double dc[4];
    for (int k = 0; k < deg; k++) dc[k] = (k + 1) * c[k + 1];
    if (deg == 4 && dc[3] != 0) {
        /* The same search with the knots (the cubic derivative's roots, each found on its
         * monotone piece as roots_in finds it) found one at a time, in order, stopping at
         * the first entry: the same numbers, without the roots beyond the entry. */
        double d2[3] = {dc[1], 2 * dc[2], 3 * dc[3]}, k2[4];
        int n2 = 0;
        k2[n2++] = 0;
        n2 += roots_in(d2, 2, H, k2 + 1);
        k2[n2++] = H;
        double ga = dc[0], prev = 0, fa = c[0];
        for (int k = 0; k + 1 < n2; k++) {
            double gb = horner(dc, 3, k2[k + 1]);
            if ((ga < 0 && gb > 0) || (ga > 0 && gb < 0)) {
                double r = mono_root(dc, 3, k2[k], k2[k + 1], ga, gb);
                double fb = horner(c, 4, r);
                if (fa > 0 && fb <= 0) return mono_root(c, 4, prev, r, fa, fb);
                fa = fb;
                prev = r;
            }
            ga = gb;
        }
        double fb = horner(c, 4, H);
        if (fa > 0 && fb <= 0) return mono_root(c, 4, prev, H, fa, fb);
        return INF;
    }
    double knots[5];
    int nk = 0;
    knots[nk++] = 0;
    nk += roots_in(dc, deg - 1, H, knots + 1);
    knots[nk++] = H;
    double fa = c[0];
    for (int k = 0; k + 1 < nk; k++) {
        double fb = horner(c, deg, knots[k + 1]);
        if (fa > 0 && fb <= 0) return mono_root(c, deg, knots[k], knots[k + 1], fa, fb);
        fa = fb;
    }
    return INF;
}

/* out(u) = c(s + u) for c of degree deg (a Taylor shift by synthetic division). */
static void poly_shift(const double *c, int deg, double s, double *out) {
    for (int k = 0; k <= deg; k++) out[k] = c[k];
    for (int i = 0; i < deg; i++)
        for (int j = deg - 1; j >= i; j--) out[j] += s * out[j + 1];
}

/* The same for a quadratic c0 + c1 tau + c2 tau^2, in closed form. (A shortcut first, as
 * in surely_positive: when the Bernstein coefficients on [0, H] all exceed 1e-10 of the
 * scale S, any root the formula could give lies beyond H, so the answer is INF anyway.) */
static inline double quad_entry(double c0, double c1, double c2, double H) {
    if (c0 <= 0) {
        if (c1 < 0 || (c1 == 0 && c2 < 0)) return 0.0;
        if (!(c2 < 0)) return INF;
    } else if (c1 >= 0 && (c2 >= 0 || c1 + 2 * c2 * H >= 0)) {
        /* (c2 < 0: rising all over [0, H], its top at -c1 / 2 c2 >= H; the formula's root
         * would be the larger one, q / c2 >= -c1 / c2 >= 2 H within a few ulps: INF too) */
        return INF;
    } else if (H < INF) {
        double a1 = c1 * H, a2 = c2 * H * H;
        double margin = 1e-10 * (c0 + fabs(a1) + fabs(a2));
        if (c0 > margin && c0 + 0.5 * a1 > margin && c0 + a1 + a2 > margin) return INF;
    }
    if (c2 == 0) {
        double r = -c0 / c1;
        return r <= H ? r : INF;
    }
    double disc = c1 * c1 - 4 * c2 * c0;
    if (disc < 0) return INF;
    double q = -0.5 * (c1 + copysign(sqrt(disc), c1));
    double r1 = q / c2, r2 = q != 0 ? c0 / q : r1;
    if (r1 > r2) { double t = r1; r1 = r2; r2 = t; }
    double r = c2 > 0 ? r1 : r2;
    if (r < 0 || (c0 <= 0 && !(r > 0))) return INF;  /* (underflow: no real excursion) */
    return r <= H ? r : INF;
}

/* ------------------------------------------------------------------ ball motion */

static inline int moving(const Ball *b) {
    return b->state == ST_SLIDING || b->state == ST_ROLLING || b->state == ST_AIRBORNE;
}

static inline int gone(const Ball *b) {
    return b->state == ST_POCKETED || b->state == ST_OFF;
}

/* Height of the ball's lowest point above the slate, and its vertical velocity. */
static inline double z_at(const Ball *b, double g, double t) {
    if (b->state != ST_AIRBORNE) return 0;
    double s = t - b->t0;
    return b->z + (b->vz - 0.5 * g * s) * s;
}

static inline double vz_at(const Ball *b, double g, double t) {
    return b->state == ST_AIRBORNE ? b->vz - g * (t - b->t0) : 0;
}

static inline void pos_at(const Ball *b, double t, double *x, double *y) {
    double s = t - b->t0;
    *x = b->x + (b->vx + 0.5 * b->ax * s) * s;
    *y = b->y + (b->vy + 0.5 * b->ay * s) * s;
}

static inline void vel_at(const Ball *b, double t, double *vx, double *vy) {
    double s = t - b->t0;
    *vx = b->vx + b->ax * s;
    *vy = b->vy + b->ay * s;
}

static inline void spin_at(const Ball *b, double t, double w[3]) {
    double s = t - b->t0;
    w[0] = b->wx + b->awx * s;
    w[1] = b->wy + b->awy * s;
    w[2] = t >= b->tz ? 0.0 : b->wz + b->awz * s;
}

/* Start a new state at time t from position, velocity and angular velocity. */
static void set_state(Ball *b, const Phys *P, double t, double x, double y, double vx,
                      double vy, double wx, double wy, double wz) {
    const double R = P->R;
    b->t0 = t;
    b->x = x;
    b->y = y;
    b->z = 0;
    b->vz = 0;
    b->rests = 0;
    if (fabs(wz) <= EPS_W) wz = 0;
    double ux = vx - R * wy, uy = vy + R * wx;  /* slip of the contact point: v + R z x w */
    double u = norm2(ux, uy), v;
    if (u > EPS_U) {
        ux /= u;
        uy /= u;
        b->state = ST_SLIDING;
        b->ax = -P->slide_dec * ux;
        b->ay = -P->slide_dec * uy;
        b->awx = -P->ang_slide * uy;  /* (5 mu_s g / 2R) z x u^ */
        b->awy = P->ang_slide * ux;
        b->t_end = t + 2 * u / (7 * P->slide_dec);
    } else if ((v = norm2(vx, vy)) > EPS_V) {
        b->state = ST_ROLLING;
        wx = -vy / R;
        wy = vx / R;
        b->ax = -P->roll_dec * vx / v;
        b->ay = -P->roll_dec * vy / v;
        b->awx = -b->ay / R;
        b->awy = b->ax / R;
        b->t_end = t + v / P->roll_dec;
    } else {
        vx = vy = wx = wy = 0;
        b->ax = b->ay = b->awx = b->awy = 0;
        if (wz != 0 && P->spin_dec > 0) {
            b->state = ST_SPINNING;
            b->t_end = t + fabs(wz) / P->spin_dec;
        } else {
            b->state = wz != 0 ? ST_SPINNING : ST_STATIONARY;
            b->t_end = INF;
        }
    }
    b->vx = vx;
    b->vy = vy;
    b->wx = wx;
    b->wy = wy;
    b->wz = wz;
    if (wz != 0 && P->spin_dec > 0) {
        b->awz = -copysign(P->spin_dec, wz);
        b->tz = t + fabs(wz) / P->spin_dec;
        if (b->state == ST_SPINNING) b->tz = b->t_end;
    } else {
        b->awz = 0;
        b->tz = wz != 0 ? INF : t;
    }
}

/* Start a flight at time t: the lowest point at height z >= 0 rising at vz; x, y move
 * uniformly, z falls under gravity, the spin is kept (no air friction). It ends when the
 * ball comes down to the slate (t_end), unless something else happens first. */
static void set_air(Ball *b, const Phys *P, double t, double x, double y, double z, double vx,
                    double vy, double vz, double wx, double wy, double wz) {
    b->state = ST_AIRBORNE;
    b->t0 = t;
    b->x = x;
    b->y = y;
    b->z = z;
    b->vx = vx;
    b->vy = vy;
    b->vz = vz;
    b->ax = b->ay = b->awx = b->awy = b->awz = 0;
    if (fabs(wz) <= EPS_W) wz = 0;
    b->wx = wx;
    b->wy = wy;
    b->wz = wz;
    b->tz = wz != 0 ? INF : t;
    b->t_end = t + (vz + sqrt(vz * vz + 2 * P->g * max_d(z, 0))) / P->g;
}

/* The slate's answer to ball i meeting it at (x, y) with vertical velocity vz < 0 (coming
 * down from a flight, or driven down by an elevated cue): a normal impulse with the
 * slate's restitution e_t and Coulomb friction at the contact point with the cloth's mu_s,
 * up to stopping the slip (an impulse of 2 m |u| / 7). The ball flies again when it
 * rebounds faster than HOP_MIN, else it stays on the bed. Energy never increases: the
 * vertical speed falls by e_t and friction only takes. Returns 1 when it flies again. */
static int slate_bounce(Ball *b, const Phys *P, double t, double x, double y, double vx,
                        double vy, double vz, const double w[3]) {
    const double R = P->R;
    double jn = -(1 + P->e_t) * vz;  /* normal impulse per unit mass */
    double ux = vx - R * w[1], uy = vy + R * w[0], u = norm2(ux, uy);
    double wx = w[0], wy = w[1];
    if (u > 0 && jn > 0) {
        double jt = min_d(P->mu_s * jn, 2 * u / 7);
        ux /= u;
        uy /= u;
        vx -= jt * ux;
        vy -= jt * uy;
        double k = 2.5 * jt / R;  /* dw = R m (z x u^) jt / I */
        wx -= k * uy;
        wy += k * ux;
    }
    double up = -P->e_t * vz;
    if (up > HOP_MIN) {
        set_air(b, P, t, x, y, 0, vx, vy, up, wx, wy, w[2]);
        return 1;
    }
    set_state(b, P, t, x, y, vx, vy, wx, wy, w[2]);
    return 0;
}

/* Bounds of x0 + v t + a t^2 / 2 over [0, T]. */
static inline void span(double x0, double v, double a, double T, double *lo, double *hi) {
    double x1 = x0 + (v + 0.5 * a * T) * T;
    *lo = min_d(x0, x1);
    *hi = max_d(x0, x1);
    if (a != 0) {
        double tv = -v / a;
        if (tv > 0 && tv < T) {
            double xv = x0 + 0.5 * v * tv;
            *lo = min_d(*lo, xv);
            *hi = max_d(*hi, xv);
        }
    }
}

/* ------------------------------------------------------------------ event times */

/* When the ball (centre x, y, velocity v, acceleration a, now) first touches line L while
 * approaching it, within H; INF if not. Within TOUCH of the line (a ball frozen against a
 * cushion or facing, or up to DEEP into it, along the segment), approach is read from the normal velocity and
 * acceleration, not from the sign of the noisy gap: closing faster than V_MIN, or not
 * parting and pressed, is contact now; parting, the next contact is the root of (c1 + c2 tau) with c0 = 0. */
static double line_hit(const Line *L, double R, double x, double y, double vx, double vy,
                       double ax, double ay, double H) {
    double c0 = (x - L->px) * L->nx + (y - L->py) * L->ny - R;
    double c1 = vx * L->nx + vy * L->ny;
    double c2 = 0.5 * (ax * L->nx + ay * L->ny);
    double tau, s0 = (x - L->px) * L->tx + (y - L->py) * L->ty;
    if (c0 <= TOUCH && c0 >= -DEEP && s0 >= -EXT && s0 <= L->len + EXT) {
        if (c1 < -V_MIN || (c1 <= 0 && c2 < -0.5 * A_MIN)) {
            tau = 0;
        } else if (c2 < 0) {
            c1 = max_d(c1, 0);
            tau = c1 / -c2;  /* back at the line */
            if (!(tau <= H)) return INF;
            c1 = -c1;        /* its slope there */
        } else {
            return INF;
        }
    } else {
        if (c1 >= 0 && c2 >= 0) return INF;
        tau = quad_entry(c0, c1, c2, H);
        if (tau == INF) return INF;
    }
    double slope = c1 + 2 * c2 * tau;
    if (-slope < V_MIN && !(c2 < -0.5 * A_MIN)) return INF;  /* a graze, not an impact */
    double px = x + (vx + 0.5 * ax * tau) * tau, py = y + (vy + 0.5 * ay * tau) * tau;
    double s = (px - L->px) * L->tx + (py - L->py) * L->ty;
    if (s < -EXT || s > L->len + EXT) return INF;
    return tau;
}

/* Quartic |d(tau)|^2 - r^2 for d = D + V tau + A tau^2 (A is half the acceleration). */
static inline void dist_quartic(double Dx, double Dy, double Vx, double Vy, double Ax,
                                double Ay, double r, double c[5]) {
    c[4] = Ax * Ax + Ay * Ay;
    c[3] = 2 * (Ax * Vx + Ay * Vy);
    c[2] = Vx * Vx + Vy * Vy + 2 * (Ax * Dx + Ay * Dy);
    c[1] = 2 * (Vx * Dx + Vy * Dy);
    c[0] = Dx * Dx + Dy * Dy - r * r;
}

/* The same in three dimensions (a pair with a ball in the air). */
static inline void dist_quartic3(const double D[3], const double V[3], const double A[3],
                                 double r, double c[5]) {
    c[4] = A[0] * A[0] + A[1] * A[1] + A[2] * A[2];
    c[3] = 2 * (A[0] * V[0] + A[1] * V[1] + A[2] * V[2]);
    c[2] = V[0] * V[0] + V[1] * V[1] + V[2] * V[2] + 2 * (A[0] * D[0] + A[1] * D[1] + A[2] * D[2]);
    c[1] = 2 * (V[0] * D[0] + V[1] * D[1] + V[2] * D[2]);
    c[0] = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] - r * r;
}

/* When two circles (or spheres) whose centres are apart by d(tau) = D + V tau + A tau^2 (A:
 * half the relative acceleration) first come to distance r while closing, within H; INF if
 * not.
 *
 * Exact for touching and nearly touching starts, where the quartic |d|^2 - r^2 is all
 * rounding noise near tau = 0: within TOUCH of contact, approach and separation are read
 * from the relative velocity along the line of centres (and, when that is nil, from the
 * curvature of |d|^2), never from the noisy polynomial; a pair that is neither closing nor
 * pressed is at contact now (c0 = 0) and parting, so its next contact is the first entry of
 * the quartic divided by tau (or tau^2 when it also parts with zero speed). A graze found
 * later (touching with a normal speed under V_MIN, not pressed) is no impact: the search
 * goes on from the grazing point the same way, so a re-entry after it is never lost. */
static double contact_time3(const double D0[3], const double V0[3], const double A[3], double r,
                            double H) {
    double D[3] = {D0[0], D0[1], D0[2]}, V[3] = {V0[0], V0[1], V0[2]};
    double t = 0;
    for (int it = 0; it < 8; it++) {
        double c[5];
        dist_quartic3(D, V, A, r, c);
        double d = sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]), tau;
        if (d - r <= TOUCH) {
            double vn = (D[0] * V[0] + D[1] * V[1] + D[2] * V[2]) / d;  /* separation speed */
            if (vn < -V_MIN || (vn <= 0 && c[2] < -r * A_MIN)) return t;
            int k = 1;  /* |d|^2 - r^2 = tau^k q(tau), q(0) > 0 or q(0) = 0 and rising */
            if (!(c[1] > 0)) {
                k = 2;
                if (!(c[2] > 0)) k = 3;
            }
            double q[4] = {0, 0, 0, 0};
            for (int j = 0; j + k <= 4; j++) q[j] = c[j + k];
            tau = poly_entry(q, 4 - k, H - t);
        } else {
            tau = poly_entry(c, 4, H - t);
        }
        if (tau == INF) return INF;
        t += tau;
        for (int k = 0; k < 3; k++) {
            D[k] += (V[k] + A[k] * tau) * tau;
            V[k] += 2 * A[k] * tau;
        }
        double d2 = sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]);
        double vn = (D[0] * V[0] + D[1] * V[1] + D[2] * V[2]) / d2;
        double c2 = V[0] * V[0] + V[1] * V[1] + V[2] * V[2] +
                    2 * (A[0] * D[0] + A[1] * D[1] + A[2] * D[2]);
        if (vn < -V_MIN || c2 < -r * A_MIN) return t;  /* an impact, or pressed together */
        if (!(tau > 0) && d2 - r <= TOUCH) return INF;  /* (closing at third order only) */
    }
    return INF;
}

/* The same in the plane (adding the zero third components changes no bit). */
static inline double contact_time(double Dx, double Dy, double Vx, double Vy, double Ax,
                                  double Ay, double r, double H) {
    const double D[3] = {Dx, Dy, 0}, V[3] = {Vx, Vy, 0}, A[3] = {Ax, Ay, 0};
    return contact_time3(D, V, A, r, H);
}

/* Whether d(tau) = D + V tau + A tau^2 surely stays farther than r from 0 all over [0, H],
 * by far more than rounding, so that contact_time would find no contact (INF), nor
 * poly_entry an entry of the quartic |d|^2 - r^2. The test: d's bounding box in the frame
 * of V (along V, a quadratic's range; across V, D's and A's parts only, which is tight when
 * A is along V: a ball rolling at one at rest, or at a knuckle), scaled by v = |V| (no
 * division), keeps out of the circle of radius r + 1e-9 L, where L = |D| + |V| H + |A| H^2
 * (below 1000 r) is the scale of d. Then |d|^2 - r^2 > 2e-9 r L on [0, H], while the
 * quartic's coefficients and any Horner value of it on [0, H] err by some 30 DBL_EPSILON
 * L^2, over 100 times less; and |d(0)| - r > 1e-9 |D| > 1e-9 r, far beyond TOUCH. So every
 * value the search computes on [0, H] is positive and it returns INF: a pure shortcut, no
 * result changes. */
static inline int apart(double Dx, double Dy, double Vx, double Vy, double Ax, double Ay,
                        double r, double H, double L, double v) {
    if (!(L < 1000 * r) || !(v > 0)) return 0;
    const double v2 = Vx * Vx + Vy * Vy;
    /* v times d's components along V and across it */
    const double De = Dx * Vx + Dy * Vy, Ae = Ax * Vx + Ay * Vy;
    const double Dn = Dy * Vx - Dx * Vy, An = Ay * Vx - Ax * Vy;
    const double e1 = De + (v2 + Ae * H) * H, n1 = Dn + An * H * H;
    double lo = min_d(De, e1), hi = max_d(De, e1);
    if (Ae < 0 && v2 < -2 * Ae * H) hi = De - v2 * v2 / (4 * Ae);  /* the top within */
    double ge = lo > 0 ? lo : hi < 0 ? -hi : 0;
    double gn = (Dn > 0 && n1 > 0) ? min_d(Dn, n1) : (Dn < 0 && n1 < 0) ? -max_d(Dn, n1) : 0;
    double m = (r + 1e-9 * L) * v;
    return ge * ge + gn * gn > m * m;
}

/* When the ball first touches circle C (centre distance C->r) while approaching it;
 * fall = 1: when its centre first lies inside (no approach needed). */
static double circle_hit(const Circle *C, double x, double y, double vx, double vy, double ax,
                         double ay, double H, int fall) {
    double Dx = x - C->cx, Dy = y - C->cy;
    double reach = norm2(vx, vy) * H + 0.5 * norm2(ax, ay) * H * H;
    double dist = norm2(Dx, Dy);
    if (dist - C->r > reach) return INF;
    if (apart(Dx, Dy, vx, vy, 0.5 * ax, 0.5 * ay, C->r, H, dist + reach, norm2(vx, vy)))
        return INF;  /* (fall: the same quartic's entry, as positive all over [0, H]) */
    if (!fall) return contact_time(Dx, Dy, vx, vy, 0.5 * ax, 0.5 * ay, C->r, H);
    double c[5];
    dist_quartic(Dx, Dy, vx, vy, 0.5 * ax, 0.5 * ay, C->r, c);
    if (c[0] <= 0) return 0.0;
    return poly_entry(c, 4, H);
}

/* ------------------------------------------------------------------ in the air */

static int inside_outline(const Table *tb, double x, double y);
static double seg_dist(const Line *L, double x, double y);

/* The pocket whose neighbourhood (the box around its fall circle, facings and knuckles)
 * holds (x, y), or -1. */
static int pocket_near(const Table *tb, double x, double y) {
    for (int p = 0; p < N_POCKETS; p++) {
        const Pocket *Q = &tb->pocket[p];
        if (x >= Q->x0 && x <= Q->x1 && y >= Q->y0 && y <= Q->y1) return p;
    }
    return -1;
}

/* Whether (x, y) lies inside the convex polygon of n points (either orientation). */
static int in_convex(const double *pts, int n, double x, double y) {
    int pos = 0, neg = 0;
    for (int k = 0; k < n; k++) {
        const double *a = pts + 2 * k, *b = pts + 2 * ((k + 1) % n);
        double cr = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        if (cr > 0) pos = 1;
        if (cr < 0) neg = 1;
    }
    return !(pos && neg);
}

/* Whether (x, y) lies over the table's solid top: beyond the bed's outline, not over a
 * pocket's hole (its fall circle) nor between its jaws (the quadrilateral of its two
 * facings): the cushions' and jaws' tops, the rail, the wood behind a pocket. */
static int over_solid(const Table *tb, double x, double y) {
    if (inside_outline(tb, x, y)) return 0;
    for (int p = 0; p < N_POCKETS; p++) {
        const Pocket *Q = &tb->pocket[p];
        if (norm2(x - Q->fall.cx, y - Q->fall.cy) < Q->fall.r) return 0;
        const Line *F0 = &Q->facing[0], *F1 = &Q->facing[1];
        double quad[8] = {F0->px, F0->py, F0->px + F0->len * F0->tx, F0->py + F0->len * F0->ty,
                          F1->px + F1->len * F1->tx, F1->py + F1->len * F1->ty, F1->px, F1->py};
        if (in_convex(quad, 4, x, y)) return 0;
    }
    return 1;
}

/* An airborne ball (centre x, y moving uniformly at vx, vy; lowest point at z rising at vz)
 * against the line L of a cushion or jaw facing, a vertical face up to the nose at height
 * h with a flat top beyond it: the first contact within H, INF if none; *edge says whether
 * it is the nose edge (the centre above h: the sphere meets the edge line, a quartic) or
 * the face (the centre at or below h, at distance R from the line). Contacts are taken
 * while closing, with the touching start read from the velocity as in contact_time. */
static double air_line_hit(const Line *L, const Phys *P, double x, double y, double z,
                           double vx, double vy, double vz, double H, int *edge) {
    const double R = P->R, h = P->h, g = P->g;
    const double c0 = (x - L->px) * L->nx + (y - L->py) * L->ny;
    const double c1 = vx * L->nx + vy * L->ny;
    const double s0 = (x - L->px) * L->tx + (y - L->py) * L->ty;
    const double s1 = vx * L->tx + vy * L->ty;
    double best = INF;
    if (c1 < -V_MIN && c0 - R >= -DEEP) {
        double tau = c0 - R <= TOUCH ? 0 : (R - c0) / c1;
        if (tau <= H) {
            double zt = z + (vz - 0.5 * g * tau) * tau, st = s0 + s1 * tau;
            if (zt + R <= h && st >= -EXT && st <= L->len + EXT) {
                best = tau;
                *edge = 0;
            }
        }
    }
    /* the edge: c^2 + (zc - h)^2 = R^2 with zc = R + z the centre's height */
    const double d0 = z + R - h, d1 = vz, d2 = -0.5 * g;
    double q[5] = {c0 * c0 + d0 * d0 - R * R, 2 * (c0 * c1 + d0 * d1),
                   c1 * c1 + d1 * d1 + 2 * d0 * d2, 2 * d1 * d2, d2 * d2};
    const double Hq = min_d(best, H);
    double tau;
    double dist = sqrt(c0 * c0 + d0 * d0);
    if (fabs(dist - R) <= TOUCH && c0 >= 0 && d0 > 0) {
        if (c0 * c1 + d0 * d1 < -V_MIN * dist) {
            tau = 0;  /* touching and closing */
        } else if (q[1] > 0) {  /* touching and parting: the next contact, tau divided out */
            double r3[4] = {q[1], q[2], q[3], q[4]};
            tau = poly_entry(r3, 3, Hq);
        } else {  /* touching, neither closing nor parting: gravity presses it on: now */
            tau = 0;
        }
    } else {
        tau = poly_entry(q, 4, Hq);
    }
    /* an entry with the centre below the nose, behind the line or beyond the segment's
     * ends is no contact with this edge: look on from where the sphere leaves it again */
    for (int it = 0; it < 8 && tau < best; it++) {
        double ct = c0 + c1 * tau, dt = d0 + (d1 + d2 * tau) * tau, st = s0 + s1 * tau;
        if (ct >= 0 && dt > 0 && st >= -EXT && st <= L->len + EXT) {
            best = tau;
            *edge = 1;
            break;
        }
        double sh[5], out;
        poly_shift(q, 4, tau, sh);
        for (int k = 0; k < 5; k++) sh[k] = -sh[k];
        out = poly_entry(sh, 4, Hq - tau);  /* the sphere leaves the edge */
        if (out == INF || !(out > 0)) break;
        poly_shift(q, 4, tau + out, sh);
        double again = poly_entry(sh, 4, Hq - tau - out);
        if (again == INF) break;
        tau += out + again;
    }
    return best;
}

/* The next static event of an airborne ball, other than coming down on the slate (its
 * t_end): a cushion's or facing's face or nose edge, a knuckle (a vertical cylinder up to
 * h: met while the ball's lowest point is below h, else passed over), coming down to the
 * height h over a knuckle (its top) or over the cushions' top and the rail (outside the
 * bed's outline and away from the pockets: off the table), or crossing the rail's outer
 * edge (off the table). */
OUT_OF_LINE static void find_static_air(const Sim *S, int i, double tnow, Cand *out) {
    const Ball *b = &S->b[i];
    const Table *tb = S->tb;
    const Phys *P = &tb->ph;
    const double h = P->h, g = P->g;
    double H = b->t_end - tnow;
    if (!(H >= 0)) return;
    double x, y;
    pos_at(b, tnow, &x, &y);
    const double vx = b->vx, vy = b->vy;
    const double z = z_at(b, g, tnow), vz = vz_at(b, g, tnow);
    double best = H;
    int kind = SK_NONE, obj = -1, edge = 0;
    for (int k = 0; k < N_CUSHIONS; k++) {
        double tau = air_line_hit(&tb->cushion[k], P, x, y, z, vx, vy, vz, best, &edge);
        if (tau < best) { best = tau; kind = edge ? SK_EDGE : SK_CUSHION; obj = k; }
    }
    for (int p = 0; p < N_POCKETS; p++) {
        const Pocket *Q = &tb->pocket[p];
        for (int f = 0; f < 2; f++) {
            double tau = air_line_hit(&Q->facing[f], P, x, y, z, vx, vy, vz, best, &edge);
            if (tau < best) { best = tau; kind = edge ? SK_FEDGE : SK_FACING; obj = 2 * p + f; }
        }
        for (int k = 0; k < 2; k++) {
            double tau = circle_hit(&Q->knuckle[k], x, y, vx, vy, 0, 0, best, 0);
            if (tau < best && z + (vz - 0.5 * g * tau) * tau < h) {
                best = tau;
                kind = SK_KNUCKLE;
                obj = 2 * p + k;
            }
        }
        /* over the hole below the nose height: in (the centre enters the fall circle, the
         * smaller root of a quadratic, with the lowest point below h; or is in it now) */
        const Circle *F = &Q->fall;
        double Dx = x - F->cx, Dy = y - F->cy;
        double a2 = vx * vx + vy * vy, b1 = Dx * vx + Dy * vy;
        double c0 = Dx * Dx + Dy * Dy - F->r * F->r;
        double disc = b1 * b1 - a2 * c0;
        double tau = INF;
        if (c0 < 0) tau = 0;
        else if (a2 > 0 && disc > 0 && b1 < 0) tau = c0 / (-b1 + sqrt(disc));
        if (tau < best && z + (vz - 0.5 * g * tau) * tau < h) {
            best = tau;
            kind = SK_FALL;
            obj = p;
        }
    }
    /* coming down to the height h (the top of cushions, jaws and rail) */
    double disc = vz * vz + 2 * g * (z - h);
    if (disc >= 0) {
        double tau = (vz + sqrt(disc)) / g;
        if (tau >= 0 && tau < best && (tau > 0 || vz < 0)) {
            double xh = x + vx * tau, yh = y + vy * tau;
            int p = pocket_near(tb, xh, yh), top = SK_NONE, o = -1;
            for (int q = 0; q < N_POCKETS; q++) {  /* over a hole: it drops in */
                const Circle *F = &tb->pocket[q].fall;
                if (norm2(xh - F->cx, yh - F->cy) < F->r) { top = SK_FALL; o = q; }
            }
            for (int k = 0; p >= 0 && top == SK_NONE && k < 2; k++) {
                const Circle *C = &tb->pocket[p].knuckle[k];
                if (norm2(xh - C->cx, yh - C->cy) < C->r - 1e-9) { top = SK_KTOP; o = 2 * p + k; }
            }
            if (top == SK_NONE && over_solid(tb, xh, yh)) top = SK_TOP;
            if (top != SK_NONE) { best = tau; kind = top; obj = o; }
        }
    }
    /* past the rail's outer edge */
    const double W = P->rail_w;
    double tx = vx > 0 ? (tb->bx1 + W - x) / vx : vx < 0 ? (tb->bx0 - W - x) / vx : INF;
    double ty = vy > 0 ? (tb->by1 + W - y) / vy : vy < 0 ? (tb->by0 - W - y) / vy : INF;
    double tout = max_d(0, min_d(tx, ty));
    if (tout < best) { best = tout; kind = SK_OUT; obj = -1; }
    if (kind != SK_NONE) {
        out->t = tnow + best;
        out->kind = kind;
        out->obj = obj;
    }
}

static void find_static(const Sim *S, int i, double tnow, Cand *out) {
    const Ball *b = &S->b[i];
    const Table *tb = S->tb;
    const double R = tb->ph.R;
    out->t = INF;
    out->kind = SK_NONE;
    out->obj = -1;
    if (b->state == ST_AIRBORNE) {
        find_static_air(S, i, tnow, out);
        return;
    }
    if (!moving(b)) return;
    double H = b->t_end - tnow;
    if (!(H > 0)) return;
    double x, y, vx, vy;
    pos_at(b, tnow, &x, &y);
    vel_at(b, tnow, &vx, &vy);
    const double ax = b->ax, ay = b->ay;
    double best = H;
    int kind = SK_NONE, obj = -1;
    for (int k = 0; k < N_CUSHIONS; k++) {
        double tau = line_hit(&tb->cushion[k], R, x, y, vx, vy, ax, ay, best);
        if (tau < best) { best = tau; kind = SK_CUSHION; obj = k; }
    }
    double x0, x1, y0, y1;
    span(x, vx, ax, best, &x0, &x1);
    span(y, vy, ay, best, &y0, &y1);
    for (int p = 0; p < N_POCKETS; p++) {
        const Pocket *P = &tb->pocket[p];
        if (x1 < P->x0 || x0 > P->x1 || y1 < P->y0 || y0 > P->y1) continue;
        for (int f = 0; f < 2; f++) {
            double tau = line_hit(&P->facing[f], R, x, y, vx, vy, ax, ay, best);
            if (tau < best) { best = tau; kind = SK_FACING; obj = 2 * p + f; }
        }
        for (int k = 0; k < 2; k++) {
            double tau = circle_hit(&P->knuckle[k], x, y, vx, vy, ax, ay, best, 0);
            if (tau < best) { best = tau; kind = SK_KNUCKLE; obj = 2 * p + k; }
        }
        double tau = circle_hit(&P->fall, x, y, vx, vy, ax, ay, best, 1);
        if (tau < best) { best = tau; kind = SK_FALL; obj = p; }
    }
    if (kind != SK_NONE) {
        out->t = tnow + best;
        out->kind = kind;
        out->obj = obj;
    }
}

static inline double baulk_time(const Sim *S, int i, double tnow) {
    const Ball *b = &S->b[i];
    if (!moving(b)) return INF;
    double H = min_d(b->t_end, S->stat[i].t) - tnow;
    if (!(H >= 0)) return INF;
    double y, vy, x, vx;
    pos_at(b, tnow, &x, &y);
    vel_at(b, tnow, &vx, &vy);
    double sd = b->side;
    double tau = quad_entry(sd * (y - S->tb->baulk_y), sd * vy, sd * 0.5 * b->ay, H);
    if (tau == INF || (tau == 0 && b->t_side == tnow)) return INF;  /* no double crossing */
    return tnow + tau;
}

/* A pair with a ball in the air (i < j): the first 3-D contact, or the airborne ball passing
 * over part of the other: the closest horizontal approach of the centres (the half
 * derivative of their squared horizontal distance, a cubic, turning from negative to
 * positive) at a horizontal distance under 2R and not touching (reported once per flight:
 * S->over), within H; *kind says which. */
OUT_OF_LINE static double pair_time_air(const Sim *S, int i, int j, double tnow, double H,
                                 int *kind) {
    const Ball *a = &S->b[i], *b = &S->b[j];
    const double g = S->tb->ph.g, r = 2 * S->tb->ph.R;
    double xa, ya, vxa, vya, xb, yb, vxb, vyb;
    pos_at(a, tnow, &xa, &ya);
    vel_at(a, tnow, &vxa, &vya);
    pos_at(b, tnow, &xb, &yb);
    vel_at(b, tnow, &vxb, &vyb);
    double D[3] = {xb - xa, yb - ya, z_at(b, g, tnow) - z_at(a, g, tnow)};
    double V[3] = {vxb - vxa, vyb - vya, vz_at(b, g, tnow) - vz_at(a, g, tnow)};
    double A[3] = {0.5 * (b->ax - a->ax), 0.5 * (b->ay - a->ay),
                   0.5 * g * ((a->state == ST_AIRBORNE) - (b->state == ST_AIRBORNE))};
    double reach = sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]) * H +
                   sqrt(A[0] * A[0] + A[1] * A[1] + A[2] * A[2]) * H * H;
    if (norm2(D[0], D[1]) - r > reach) return INF;
    double tau = contact_time3(D, V, A, r, H);
    *kind = PK_CONTACT;
    if (!S->over[i * S->n + j]) {
        /* minus half the derivative of |D_h|^2: positive while approaching */
        double q[4] = {-(D[0] * V[0] + D[1] * V[1]),
                       -(V[0] * V[0] + V[1] * V[1] + 2 * (D[0] * A[0] + D[1] * A[1])),
                       -3 * (V[0] * A[0] + V[1] * A[1]), -2 * (A[0] * A[0] + A[1] * A[1])};
        double tov = q[0] > 0 ? poly_entry(q, 3, min_d(tau, H)) : INF;
        if (tov < tau) {
            double hx = D[0] + (V[0] + A[0] * tov) * tov, hy = D[1] + (V[1] + A[1] * tov) * tov;
            double hz = D[2] + (V[2] + A[2] * tov) * tov;
            if (norm2(hx, hy) < r - TOUCH && sqrt(hx * hx + hy * hy + hz * hz) > r) {
                tau = tov;
                *kind = PK_OVER;
            }
        }
    }
    return tau == INF ? INF : tnow + tau;
}

static double pair_time(const Sim *S, int i, int j, double tnow, int *kind) {
    const Ball *a = &S->b[i], *b = &S->b[j];
    *kind = PK_CONTACT;
    if (gone(a) || gone(b)) return INF;
    int ma = moving(a), mb = moving(b);
    if (!ma && !mb) return INF;
    double H = INF;
    if (ma) H = min_d(H, min_d(a->t_end, S->stat[i].t));
    if (mb) H = min_d(H, min_d(b->t_end, S->stat[j].t));
    H -= tnow;
    if (!(H > 0)) return INF;
    if (a->state == ST_AIRBORNE || b->state == ST_AIRBORNE)
        return pair_time_air(S, i, j, tnow, H, kind);
    double xa, ya, vxa, vya, xb, yb, vxb, vyb;
    pos_at(a, tnow, &xa, &ya);
    vel_at(a, tnow, &vxa, &vya);
    pos_at(b, tnow, &xb, &yb);
    vel_at(b, tnow, &vxb, &vyb);
    double Dx = xb - xa, Dy = yb - ya, Vx = vxb - vxa, Vy = vyb - vya;
    double Ax = 0.5 * (b->ax - a->ax), Ay = 0.5 * (b->ay - a->ay);
    double r = 2 * S->tb->ph.R;
    const double v = norm2(Vx, Vy), an = norm2(Ax, Ay), d = norm2(Dx, Dy);
    double reach = v * H + an * H * H;
    if (d - r > reach) return INF;
    if (apart(Dx, Dy, Vx, Vy, Ax, Ay, r, H, d + reach, v)) return INF;
    double tau = contact_time(Dx, Dy, Vx, Vy, Ax, Ay, r, H);
    return tau == INF ? INF : tnow + tau;
}

/* ------------------------------------------------------------------ output */

static void push_event(Sim *S, double t, int kind, int a, int b, int cushion, int pocket,
                       int dir) {
    double *e = buf_take(S->ev, 7);
    if (!e) {
        S->oom = 1;
        return;
    }
    e[0] = t;
    e[1] = kind;
    e[2] = a;
    e[3] = b;
    e[4] = cushion;
    e[5] = pocket;
    e[6] = dir;
}

/* Close ball i's current piece of trajectory at t1 (skipped when empty or unwanted). */
static void push_segment(Sim *S, int i, double t1) {
    const Ball *b = &S->b[i];
    if (!S->seg || !(t1 > b->t0)) return;
    double *s = buf_take(S->seg, SEG_SIZE);
    if (!s) {
        S->oom = 1;
        return;
    }
    s[0] = i;
    s[1] = b->t0;
    s[2] = t1;
    s[3] = b->x;
    s[4] = b->y;
    s[5] = b->vx;
    s[6] = b->vy;
    s[7] = b->ax;
    s[8] = b->ay;
    s[9] = b->wx;
    s[10] = b->wy;
    s[11] = b->wz;
    s[12] = b->awx;
    s[13] = b->awy;
    s[14] = b->awz;
    s[15] = b->z;
    s[16] = b->vz;
    s[17] = b->state == ST_AIRBORNE ? -S->tb->ph.g : 0;
}

/* ------------------------------------------------------------------ collisions */

/* The relative motion of two touching balls along n (from A to B): separation speed vs and
 * c2 = |dv|^2 + (a_B - a_A).(2R n), the curvature of their squared distance. */
static void pair_motion(const Ball *A, const Ball *B, double R, double nx, double ny,
                        double *vs, double *c2) {
    double dvx = B->vx - A->vx, dvy = B->vy - A->vy;
    *vs = dvx * nx + dvy * ny;
    *c2 = dvx * dvx + dvy * dvy + 2 * R * ((B->ax - A->ax) * nx + (B->ay - A->ay) * ny);
}

/* Ball-ball impulse at time t: equal masses, restitution e_b on the normal impulse,
 * friction at the contact (Alciatore's fit) up to stopping the slip, which gives throw.
 *
 * A ball pushing another (pressed together by cloth friction) would bounce ever more
 * often with ever smaller speeds. When the rebound would part them by less than D_SETTLE
 * before they meet again, the contact is resolved as a sustained push instead: a plastic
 * normal impulse between the balls together with friction impulses at both cloth contacts
 * that stop each ball's slip along n (the three impulses in closed form: the energy
 * projection onto "same normal velocity, no normal slip", so energy only decreases). If
 * rolling resistance alone still presses them, both roll on together at their mean
 * velocity. */
static void resolve_pair(Sim *S, int i, int j, double t) {
    const Phys *P = &S->tb->ph;
    Ball *A = &S->b[i], *B = &S->b[j];
    const double R = P->R, m = P->m;
    double x1, y1, vx1, vy1, w1[3], x2, y2, vx2, vy2, w2[3];
    pos_at(A, t, &x1, &y1);
    vel_at(A, t, &vx1, &vy1);
    spin_at(A, t, w1);
    pos_at(B, t, &x2, &y2);
    vel_at(B, t, &vx2, &vy2);
    spin_at(B, t, w2);
    double dx = x2 - x1, dy = y2 - y1, d = norm2(dx, dy);
    double nx = dx / d, ny = dy / d;
    double vn = (vx1 - vx2) * nx + (vy1 - vy2) * ny;  /* approach speed */
    double Jn = vn > 0 ? 0.5 * m * (1 + P->e_b) * vn : 0;
    /* slip of A's surface against B's at the contact: (v1 - v2) + R (w1 + w2) x n */
    double s0 = w1[0] + w2[0], s1 = w1[1] + w2[1], s2 = w1[2] + w2[2];
    double sx = (vx1 - vx2) - R * s2 * ny;
    double sy = (vy1 - vy2) + R * s2 * nx;
    double sz = R * (s0 * ny - s1 * nx);
    double sn = sx * nx + sy * ny;
    sx -= sn * nx;
    sy -= sn * ny;
    double s = sqrt(sx * sx + sy * sy + sz * sz);
    double px = -Jn * nx, py = -Jn * ny, pz = 0;  /* impulse on A; B gets the opposite */
    if (s > 0 && Jn > 0) {
        double mu = P->mu_b_a + P->mu_b_b * exp(-P->mu_b_c * s);
        double Jt = min_d(mu * Jn, m * s / 7);
        px -= Jt * sx / s;
        py -= Jt * sy / s;
        pz -= Jt * sz / s;
    }
    /* both balls: dw = R (n x P_A) / I */
    double k = R / P->I;
    double dwx = k * (ny * pz), dwy = k * (-nx * pz), dwz = k * (nx * py - ny * px);
    push_segment(S, i, t);
    push_segment(S, j, t);
    set_state(A, P, t, x1, y1, vx1 + px / m, vy1 + py / m, w1[0] + dwx, w1[1] + dwy,
              w1[2] + dwz);
    set_state(B, P, t, x2, y2, vx2 - px / m, vy2 - py / m, w2[0] + dwx, w2[1] + dwy,
              w2[2] + dwz);
    double vs, c2;
    pair_motion(A, B, R, nx, ny, &vs, &c2);
    if (!(c2 < 0 && R * vs * vs < -c2 * D_SETTLE)) return;

    /* a sustained push: normal speeds and normal slips (u.n, u = v + R z x w) */
    double v1n = vx1 * nx + vy1 * ny, v2n = vx2 * nx + vy2 * ny;
    double u1n = v1n + R * (-w1[1] * nx + w1[0] * ny);
    double u2n = v2n + R * (-w2[1] * nx + w2[0] * ny);
    double kn = max_d(0.0, 0.7 * (v1n - v2n) - 0.2 * (u1n - u2n));  /* push, per unit mass */
    double j1 = 2.0 / 7.0 * (kn - u1n), j2 = -2.0 / 7.0 * (kn + u2n);  /* cloth impulses */
    double dv1 = j1 - kn, dv2 = j2 + kn;
    /* a cloth impulse j along n turns w by -(5 j / 2R) z x n = -(5 j / 2R)(-ny, nx) */
    double q1 = 2.5 * j1 / R, q2 = 2.5 * j2 / R;
    set_state(A, P, t, x1, y1, vx1 + dv1 * nx, vy1 + dv1 * ny, w1[0] + q1 * ny,
              w1[1] - q1 * nx, w1[2]);
    set_state(B, P, t, x2, y2, vx2 + dv2 * nx, vy2 + dv2 * ny, w2[0] + q2 * ny,
              w2[1] - q2 * nx, w2[2]);
    pair_motion(A, B, R, nx, ny, &vs, &c2);
    if (!(c2 < -2 * R * A_MIN)) return;
    /* still pressed by rolling resistance: both stop slipping and roll on together */
    double ax_ = A->vx - 2.0 / 7.0 * (A->vx - R * A->wy), ay_ = A->vy - 2.0 / 7.0 * (A->vy + R * A->wx);
    double bx_ = B->vx - 2.0 / 7.0 * (B->vx - R * B->wy), by_ = B->vy - 2.0 / 7.0 * (B->vy + R * B->wx);
    double cx = 0.5 * (ax_ + bx_), cy = 0.5 * (ay_ + by_);
    set_state(A, P, t, x1, y1, cx, cy, -cy / R, cx / R, A->wz);
    set_state(B, P, t, x2, y2, cx, cy, -cy / R, cx / R, B->wz);
}

/* A ball touching a cushion, jaw facing or knuckle whose direction from the ball centre is
 * (Nx, Ny) (unit, horizontal): the chosen cushion model (cushion.c) in the contact frame. */
static void resolve_cushion(Sim *S, int i, double t, double Nx, double Ny) {
    const Phys *P = &S->tb->ph;
    Ball *b = &S->b[i];
    const double R = P->R;
    double x, y, vx, vy, w[3];
    pos_at(b, t, &x, &y);
    vel_at(b, t, &vx, &vy);
    spin_at(b, t, w);
    const int air = b->state == ST_AIRBORNE;
    const double z = z_at(b, P->g, t), vz = vz_at(b, P->g, t);
    /* cushion frame: X towards the cushion, Y = z x X along it, Z up */
    const double Tx = -Ny, Ty = Nx;
    CushionState s = {vx * Nx + vy * Ny, vx * Tx + vy * Ty, w[0] * Nx + w[1] * Ny,
                      w[0] * Tx + w[1] * Ty, w[2]};
    P->resolve(&P->cushion, &s);
    double u = s.u, v = s.v, ox = s.wx, oy = s.wy, oz = s.wz;
    /* A slow rebound against friction pushing the ball back into the cushion would make
     * endless tiny bounces: settle it against the cushion instead (no normal velocity, no
     * normal slip). This only removes energy. */
    double ux = u - R * oy, uy = v + R * ox, us = norm2(ux, uy);
    if (air) {  /* in the air: the same model in the plane, the flight goes on */
        push_segment(S, i, t);
        set_air(b, P, t, x, y, z, u * Nx + v * Tx, u * Ny + v * Ty, vz, ox * Nx + oy * Tx,
                ox * Ny + oy * Ty, oz);
        return;
    }
    if (us > EPS_U) {
        double toward = -P->slide_dec * ux / us;  /* acceleration towards the cushion */
        if (toward > 0 && u <= 0 && u * u < 2 * toward * D_SETTLE) {
            u = 0;
            oy = 0;
        }
    }
    push_segment(S, i, t);
    set_state(b, P, t, x, y, u * Nx + v * Tx, u * Ny + v * Ty, ox * Nx + oy * Tx,
              ox * Ny + oy * Ty, oz);
}

/* An airborne ball meets the nose edge of line L (a cushion or jaw facing) at height h:
 * Newton's restitution e_c along the normal from the edge to the centre (three
 * dimensions), no friction; the flight goes on (up, over or back). Energy only falls.
 * Returns 1 when the ball has come down on edges and balls more than REST_MAX times in
 * this flight (a ball lying on the nose, bouncing ever lower): it rests there. */
static int edge_impact(Sim *S, int i, double t, const Line *L) {
    const Phys *P = &S->tb->ph;
    Ball *b = &S->b[i];
    double x, y, vx, vy, w[3];
    pos_at(b, t, &x, &y);
    vel_at(b, t, &vx, &vy);
    spin_at(b, t, w);
    double z = z_at(b, P->g, t), vz = vz_at(b, P->g, t);
    double c = (x - L->px) * L->nx + (y - L->py) * L->ny, dz = z + P->R - P->h;
    double d = sqrt(c * c + dz * dz);
    double nx = L->nx * c / d, ny = L->ny * c / d, nz = dz / d;
    double vn = vx * nx + vy * ny + vz * nz;
    if (vn < 0) {
        double k = (1 + P->e_c) * vn;
        vx -= k * nx;
        vy -= k * ny;
        vz -= k * nz;
    }
    int rests = b->rests + (nz > 0);
    push_segment(S, i, t);
    set_air(b, P, t, x, y, z, vx, vy, vz, w[0], w[1], w[2]);
    b->rests = rests;
    return rests > REST_MAX;  /* it sits on the nose: not on the bed */
}

/* The ball is off the table at (x, y): it stays there, out of play. The event names the
 * cushion it went over (the nearest), or the pocket it flew off over; neither for a ball
 * that came to rest on another (where = 0). */
static void go_off_at(Sim *S, int i, double t, int where) {
    const Table *tb = S->tb;
    Ball *b = &S->b[i];
    double x, y;
    pos_at(b, t, &x, &y);
    push_segment(S, i, t);
    set_state(b, &tb->ph, t, x, y, 0, 0, 0, 0, 0);
    b->state = ST_OFF;
    b->t_end = INF;
    int p = where ? pocket_near(tb, x, y) : -1, c = -1;
    if (where && p < 0) {
        double dmin = INF;
        for (int k = 0; k < N_CUSHIONS; k++) {
            double d = seg_dist(&tb->cushion[k], x, y);
            if (d < dmin) { dmin = d; c = k; }
        }
    }
    push_event(S, t, EV_OFF_TABLE, i, -1, c, p, 0);
}

static void go_off(Sim *S, int i, double t) { go_off_at(S, i, t, 1); }

static void go_in(Sim *S, int i, double t, int p) {
    Ball *b = &S->b[i];
    double x, y;
    pos_at(b, t, &x, &y);
    push_segment(S, i, t);
    set_state(b, &S->tb->ph, t, x, y, 0, 0, 0, 0, 0);
    b->state = ST_POCKETED;
    b->t_end = INF;
    push_event(S, t, EV_POCKET, i, -1, -1, p, 0);
}

static void clear_over(Sim *S, int i) {
    for (int j = 0; j < S->n; j++) S->over[i * S->n + j] = S->over[j * S->n + i] = 0;
}

/* An airborne ball comes down to the slate at t: into a pocket when its centre is over a
 * pocket's fall circle or past a mouth (beyond the outline, by a pocket), off the table
 * when beyond the outline elsewhere (the nose edges keep this from happening), else it
 * bounces (slate_bounce) and flies again or rolls on. */
static void land(Sim *S, int i, double t) {
    const Table *tb = S->tb;
    const Phys *P = &tb->ph;
    Ball *b = &S->b[i];
    double x, y, vx, vy, w[3];
    pos_at(b, t, &x, &y);
    vel_at(b, t, &vx, &vy);
    spin_at(b, t, w);
    double vz = vz_at(b, P->g, t);
    clear_over(S, i);
    for (int p = 0; p < N_POCKETS; p++) {
        const Circle *F = &tb->pocket[p].fall;
        if (norm2(x - F->cx, y - F->cy) < F->r) { go_in(S, i, t, p); return; }
    }
    if (!inside_outline(tb, x, y)) {
        int p = pocket_near(tb, x, y);
        if (p >= 0) go_in(S, i, t, p); else go_off(S, i, t);
        return;
    }
    push_segment(S, i, t);
    int again = slate_bounce(b, P, t, x, y, vx, vy, vz, w);
    b->rests = 0;
    push_event(S, t, EV_LAND, i, -1, -1, -1, 0);
    if (again) push_event(S, t, EV_AIRBORNE, i, -1, -1, -1, 0);
}

/* Ball-ball impulse with a ball in the air: as resolve_pair (restitution e_b on the normal
 * impulse, Alciatore's friction up to stopping the slip), along the 3-D line of centres.
 * A ball on the bed driven down into the slate gets the slate's bounce next (slate_bounce:
 * impulses in sequence, as for an elevated cue); one that flies reports it (*up_a, *up_b).
 * A ball in the air that comes down on top of another on the bed (the contact more than
 * 30 degrees above the lower ball's equator) and would rebound off it slower than HOP_MIN,
 * or that has met balls on the bed more than REST_MAX times in one flight, would bounce
 * ever lower on it, without end: it is taken as come to rest there, which is not on the
 * bed nor in a pocket: off the table (*up_a or *up_b = -1). */
static void resolve_pair_air(Sim *S, int i, int j, double t, int *up_a, int *up_b) {
    const Phys *P = &S->tb->ph;
    const double R = P->R, m = P->m, g = P->g;
    Ball *B2[2] = {&S->b[i], &S->b[j]};
    double p[2][3], v[2][3], w[2][3];
    int air[2];
    for (int k = 0; k < 2; k++) {
        Ball *b = B2[k];
        pos_at(b, t, &p[k][0], &p[k][1]);
        vel_at(b, t, &v[k][0], &v[k][1]);
        spin_at(b, t, w[k]);
        p[k][2] = z_at(b, g, t);
        v[k][2] = vz_at(b, g, t);
        air[k] = b->state == ST_AIRBORNE;
    }
    double n[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    double d = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) n[k] /= d;
    double dv[3] = {v[0][0] - v[1][0], v[0][1] - v[1][1], v[0][2] - v[1][2]};
    double vn = dv[0] * n[0] + dv[1] * n[1] + dv[2] * n[2];  /* approach speed */
    double Jn = vn > 0 ? 0.5 * m * (1 + P->e_b) * vn : 0;
    double ws[3] = {w[0][0] + w[1][0], w[0][1] + w[1][1], w[0][2] + w[1][2]};
    /* slip of A's surface against B's at the contact: dv + R (w1 + w2) x n, tangential */
    double sl[3] = {dv[0] + R * (ws[1] * n[2] - ws[2] * n[1]),
                    dv[1] + R * (ws[2] * n[0] - ws[0] * n[2]),
                    dv[2] + R * (ws[0] * n[1] - ws[1] * n[0])};
    double sn = sl[0] * n[0] + sl[1] * n[1] + sl[2] * n[2];
    for (int k = 0; k < 3; k++) sl[k] -= sn * n[k];
    double sm = sqrt(sl[0] * sl[0] + sl[1] * sl[1] + sl[2] * sl[2]);
    double J[3] = {-Jn * n[0], -Jn * n[1], -Jn * n[2]};  /* on A; B gets the opposite */
    if (sm > 0 && Jn > 0) {
        double mu = P->mu_b_a + P->mu_b_b * exp(-P->mu_b_c * sm);
        double Jt = min_d(mu * Jn, m * sm / 7);
        for (int k = 0; k < 3; k++) J[k] -= Jt * sl[k] / sm;
    }
    double kk = R / P->I;  /* both balls: dw = R (n x J_A) / I */
    double dw[3] = {kk * (n[1] * J[2] - n[2] * J[1]), kk * (n[2] * J[0] - n[0] * J[2]),
                    kk * (n[0] * J[1] - n[1] * J[0])};
    int *up[2] = {up_a, up_b};
    /* the rebound along the normal: the separation speed after the impulse */
    double sep = -vn + 2 * Jn / m;
    int top = -1;  /* the ball resting on the other, if any */
    /* the ball in the air against one on the bed (its centre is the higher) */
    int upper = air[0] && !air[1] ? 0 : air[1] && !air[0] ? 1 : -1;
    int steep = upper >= 0 && (upper == 0 ? n[2] < -0.5 : n[2] > 0.5);
    int rests = upper >= 0 ? B2[upper]->rests + 1 : 0;
    if (upper >= 0 && ((steep && sep < HOP_MIN) || rests > REST_MAX)) top = upper;
    for (int k = 0; k < 2; k++) {
        double sgn = k == 0 ? 1 : -1;
        double nv[3], nw[3];
        for (int q = 0; q < 3; q++) {
            nv[q] = v[k][q] + sgn * J[q] / m;
            nw[q] = w[k][q] + dw[q];
        }
        push_segment(S, k == 0 ? i : j, t);
        *up[k] = 0;
        if (k == top) {
            *up[k] = -1;  /* the caller ends its play after the ball-ball event */
            set_air(B2[k], P, t, p[k][0], p[k][1], p[k][2], 0, 0, 0, 0, 0, 0);
        } else if (air[k]) {
            int keep = B2[k]->rests;
            set_air(B2[k], P, t, p[k][0], p[k][1], p[k][2], nv[0], nv[1], nv[2], nw[0], nw[1],
                    nw[2]);
            B2[k]->rests = k == upper ? rests : keep;
        } else if (nv[2] > HOP_MIN) {
            set_air(B2[k], P, t, p[k][0], p[k][1], 0, nv[0], nv[1], nv[2], nw[0], nw[1], nw[2]);
            *up[k] = 1;
        } else if (nv[2] < 0) {  /* driven into the slate: its bounce, as for the cue's push */
            *up[k] = slate_bounce(B2[k], P, t, p[k][0], p[k][1], nv[0], nv[1], nv[2], nw);
        } else {
            set_state(B2[k], P, t, p[k][0], p[k][1], nv[0], nv[1], nw[0], nw[1], nw[2]);
        }
    }
}

/* ------------------------------------------------------------------ the loop */

static void refresh_ball(Sim *S, int i, double t) {
    find_static(S, i, t, &S->stat[i]);
    S->baulk[i] = baulk_time(S, i, t);
}

/* The pairs of ball i but the one with ball skip (-1: none; after a ball-ball event the
 * pair of both balls is computed once, with the first ball's). */
static void refresh_pairs(Sim *S, int i, double t, int skip) {
    const int n = S->n;
    for (int j = 0; j < n; j++) {
        if (j == i || j == skip) continue;
        int a = i < j ? i : j, b = i < j ? j : i;
        S->pair[a * n + b] = pair_time(S, a, b, t, &S->pkind[a * n + b]);
    }
}

/* A ball squeezed between contacts that recur at one instant (between a ball and a cushion,
 * with next to no speed: each contact hands a sliver of speed to the other) would make
 * events forever: after SAME_MAX events at the same instant, a ball in one of them that is
 * slower than V_SQUEEZE stops where it is (keeping its vertical spin); after JAM_MAX, it
 * stops whatever its speed (two balls rolling together jammed against a jaw never settle;
 * chains that do settle take at most a few thousand events). */
static void go_off_at(Sim *S, int i, double t, int where);

static void stop_squeezed(Sim *S, int i, double t, long same) {
    Ball *b = &S->b[i];
    if (b->state == ST_AIRBORNE) {  /* wedged in the air: not on the bed */
        go_off_at(S, i, t, 0);
        return;
    }
    if (!moving(b) || (same <= JAM_MAX && norm2(b->vx, b->vy) >= V_SQUEEZE)) return;
    double x, y, w[3];
    pos_at(b, t, &x, &y);
    spin_at(b, t, w);
    push_segment(S, i, t);
    set_state(b, &S->tb->ph, t, x, y, 0, 0, 0, 0, w[2]);
}

int kernel_run_shot(Sim *S, const double *pos, int cue, const double *launch,
                    double *duration) {
    const Table *tb = S->tb;
    const Phys *P = &tb->ph;
    const int n = S->n;
    for (int i = 0; i < n; i++) {
        Ball *b = &S->b[i];
        set_state(b, P, 0, pos[2 * i], pos[2 * i + 1], 0, 0, 0, 0, 0);
        b->side = pos[2 * i + 1] > tb->baulk_y ? 1 : -1;
        b->t_side = -1;
    }
    memset(S->over, 0, (size_t)n * (size_t)n);
    S->oom = 0;
    /* the cue's push down into the slate (an elevated cue) is answered by the slate; a
     * launch upwards leaves the bed at once */
    Ball *cb = &S->b[cue];
    const double lw[3] = {launch[2], launch[3], launch[4]}, lvz = launch[5];
    int up = 0;
    if (lvz < 0) {
        up = slate_bounce(cb, P, 0, pos[2 * cue], pos[2 * cue + 1], launch[0], launch[1], lvz, lw);
    } else if (lvz > 0) {
        set_air(cb, P, 0, pos[2 * cue], pos[2 * cue + 1], 0, launch[0], launch[1], lvz, lw[0],
                lw[1], lw[2]);
        up = 1;
    } else {
        set_state(cb, P, 0, pos[2 * cue], pos[2 * cue + 1], launch[0], launch[1], lw[0], lw[1],
                  lw[2]);
    }
    if (up) push_event(S, 0, EV_AIRBORNE, cue, -1, -1, -1, 0);
    for (int i = 0; i < n; i++) refresh_ball(S, i, 0);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            S->pair[i * n + j] = pair_time(S, i, j, 0, &S->pkind[i * n + j]);
    double tlast = 0;
    long count = 0, same = 0;
    for (;;) {
        double best = INF;
        int cls = -1, bi = -1, bj = -1;
        for (int i = 0; i < n; i++) {
            const Ball *b = &S->b[i];
            if (b->t_end < best) { best = b->t_end; cls = C_TRANS; bi = i; }
            if (S->stat[i].t < best) { best = S->stat[i].t; cls = C_STATIC; bi = i; }
            if (S->baulk[i] < best) { best = S->baulk[i]; cls = C_BAULK; bi = i; }
            for (int j = i + 1; j < n; j++)
                if (S->pair[i * n + j] < best) {
                    best = S->pair[i * n + j]; cls = C_PAIR; bi = i; bj = j;
                }
        }
        if (best == INF) break;
        if (++count > P->max_events) return 1;
        const double t = best;
        same = t == tlast ? same + 1 : 0;
        tlast = t;
        if (cls == C_TRANS && S->b[bi].state == ST_AIRBORNE) {
            land(S, bi, t);
            refresh_ball(S, bi, t);
            refresh_pairs(S, bi, t, -1);
        } else if (cls == C_TRANS) {
            Ball *b = &S->b[bi];
            double x, y, vx, vy, w[3];
            pos_at(b, t, &x, &y);
            vel_at(b, t, &vx, &vy);
            spin_at(b, t, w);
            int before = b->state;
            push_segment(S, bi, t);
            if (before == ST_SLIDING)
                set_state(b, P, t, x, y, vx, vy, -vy / P->R, vx / P->R, w[2]);
            else
                set_state(b, P, t, x, y, 0, 0, 0, 0, before == ST_ROLLING ? w[2] : 0);
            int kind;
            if (b->state == ST_ROLLING) kind = EV_SLIDE_ROLL;
            else if (b->state == ST_SPINNING) kind = EV_ROLL_SPIN;
            else kind = before == ST_SPINNING ? EV_SPIN_STOP : EV_ROLL_STOP;
            push_event(S, t, kind, bi, -1, -1, -1, 0);
            refresh_ball(S, bi, t);
            refresh_pairs(S, bi, t, -1);
        } else if (cls == C_STATIC) {
            Cand c = S->stat[bi];
            Ball *b = &S->b[bi];
            double x, y;
            pos_at(b, t, &x, &y);
            if (c.kind == SK_CUSHION) {
                const Line *L = &tb->cushion[c.obj];
                resolve_cushion(S, bi, t, -L->nx, -L->ny);
                push_event(S, t, EV_CUSHION, bi, -1, c.obj, -1, 0);
            } else if (c.kind == SK_FACING) {
                const Line *L = &tb->pocket[c.obj / 2].facing[c.obj % 2];
                resolve_cushion(S, bi, t, -L->nx, -L->ny);
                push_event(S, t, EV_CUSHION, bi, -1, -1, c.obj / 2, 0);
            } else if (c.kind == SK_KNUCKLE) {
                const Circle *C = &tb->pocket[c.obj / 2].knuckle[c.obj % 2];
                double dx = C->cx - x, dy = C->cy - y, d = norm2(dx, dy);
                resolve_cushion(S, bi, t, dx / d, dy / d);
                push_event(S, t, EV_CUSHION, bi, -1, -1, c.obj / 2, 0);
            } else if (c.kind == SK_FALL) {
                go_in(S, bi, t, c.obj);
            } else if (c.kind == SK_EDGE) {
                int rests = edge_impact(S, bi, t, &tb->cushion[c.obj]);
                push_event(S, t, EV_CUSHION, bi, -1, c.obj, -1, 0);
                if (rests) go_off(S, bi, t);
            } else if (c.kind == SK_FEDGE) {
                int rests = edge_impact(S, bi, t, &tb->pocket[c.obj / 2].facing[c.obj % 2]);
                push_event(S, t, EV_CUSHION, bi, -1, -1, c.obj / 2, 0);
                if (rests) go_off(S, bi, t);
            } else if (c.kind == SK_KTOP) {
                /* down on a knuckle's top: bounces up (e_c), or rests there: off the table */
                double vx, vy, w[3], z = z_at(b, P->g, t), vz = vz_at(b, P->g, t);
                vel_at(b, t, &vx, &vy);
                spin_at(b, t, w);
                push_event(S, t, EV_CUSHION, bi, -1, -1, c.obj / 2, 0);
                if (-P->e_c * vz > HOP_MIN && b->rests < REST_MAX) {
                    int rests = b->rests + 1;
                    push_segment(S, bi, t);
                    set_air(b, P, t, x, y, z, vx, vy, -P->e_c * vz, w[0], w[1], w[2]);
                    b->rests = rests;
                } else {
                    go_off(S, bi, t);
                }
            } else if (c.kind == SK_OUT && z_at(b, P->g, t) + P->R < P->h) {
                /* low through the back of a pocket: into it */
                int p = pocket_near(tb, x, y);
                double dmin = INF;
                for (int q = 0; p < 0 && q < N_POCKETS; q++) {
                    const Circle *F = &tb->pocket[q].fall;
                    double d = norm2(x - F->cx, y - F->cy);
                    if (d < dmin) dmin = d, p = q;
                }
                go_in(S, bi, t, p);
            } else {  /* SK_TOP, SK_OUT */
                go_off(S, bi, t);
            }
            if (same > SAME_MAX) stop_squeezed(S, bi, t, same);
            refresh_ball(S, bi, t);
            refresh_pairs(S, bi, t, -1);
        } else if (cls == C_BAULK) {
            Ball *b = &S->b[bi];
            push_event(S, t, EV_BAULK, bi, -1, -1, -1, b->side > 0 ? 1 : 2);
            b->side = -b->side;
            b->t_side = t;
            S->baulk[bi] = baulk_time(S, bi, t);
        } else if (S->pkind[bi * n + bj] == PK_OVER) {
            /* an airborne ball comes above part of another: the higher one first */
            S->over[bi * n + bj] = 1;
            int hi = z_at(&S->b[bi], P->g, t) >= z_at(&S->b[bj], P->g, t) ? bi : bj;
            push_event(S, t, EV_OVER, hi, hi == bi ? bj : bi, -1, -1, 0);
            S->pair[bi * n + bj] = pair_time(S, bi, bj, t, &S->pkind[bi * n + bj]);
        } else {
            int up_a = 0, up_b = 0;
            if (S->b[bi].state == ST_AIRBORNE || S->b[bj].state == ST_AIRBORNE)
                resolve_pair_air(S, bi, bj, t, &up_a, &up_b);
            else
                resolve_pair(S, bi, bj, t);
            push_event(S, t, EV_BALL_BALL, bi, bj, -1, -1, 0);
            if (up_a > 0) { clear_over(S, bi); push_event(S, t, EV_AIRBORNE, bi, -1, -1, -1, 0); }
            if (up_b > 0) { clear_over(S, bj); push_event(S, t, EV_AIRBORNE, bj, -1, -1, -1, 0); }
            if (up_a < 0) go_off_at(S, bi, t, 0);
            if (up_b < 0) go_off_at(S, bj, t, 0);
            if (same > SAME_MAX) {
                stop_squeezed(S, bi, t, same);
                stop_squeezed(S, bj, t, same);
            }
            refresh_ball(S, bi, t);
            refresh_ball(S, bj, t);
            refresh_pairs(S, bi, t, -1);
            refresh_pairs(S, bj, t, bi);
        }
        if (S->oom) return -1;
    }
    /* A ball still spinning has no end (spin friction mu_sp = 0): the shot never ends, and
     * its duration is reported as infinite rather than as the time of the last event. */
    *duration = tlast;
    for (int i = 0; i < n; i++)
        if (S->b[i].state == ST_SPINNING) *duration = INF;
    for (int i = 0; i < n; i++)
        if (!gone(&S->b[i])) push_segment(S, i, tlast);
    return S->oom ? -1 : 0;
}

/* ------------------------------------------------------------------ input checks */

static double seg_dist(const Line *L, double x, double y) {
    double s = (x - L->px) * L->tx + (y - L->py) * L->ty;
    s = max_d(0, min_d(L->len, s));
    return norm2(x - (L->px + s * L->tx), y - (L->py + s * L->ty));
}

static int inside_outline(const Table *tb, double x, double y) {
    int in = 0;
    const int n = tb->n_outline;
    for (int k = 0, j = n - 1; k < n; j = k++) {
        double xk = tb->outline[2 * k], yk = tb->outline[2 * k + 1];
        double xj = tb->outline[2 * j], yj = tb->outline[2 * j + 1];
        if ((yk > y) != (yj > y) && x < (xj - xk) * (y - yk) / (yj - yk) + xk) in = !in;
    }
    return in;
}

int kernel_check_point(const Table *tb, double x, double y, int *idx) {
    const double R = tb->ph.R;
    for (int p = 0; p < N_POCKETS; p++) {
        const Circle *F = &tb->pocket[p].fall;
        if (norm2(x - F->cx, y - F->cy) < F->r - EPS_POS) { *idx = p; return PLACE_OVER_POCKET; }
    }
    if (!inside_outline(tb, x, y)) { *idx = -1; return PLACE_OFF_TABLE; }
    for (int k = 0; k < N_CUSHIONS; k++)
        if (seg_dist(&tb->cushion[k], x, y) < R - EPS_POS) { *idx = k; return PLACE_CUSHION; }
    for (int p = 0; p < N_POCKETS; p++) {
        const Pocket *Q = &tb->pocket[p];
        for (int f = 0; f < 2; f++) {
            if (seg_dist(&Q->facing[f], x, y) < R - EPS_POS ||
                norm2(x - Q->knuckle[f].cx, y - Q->knuckle[f].cy) < Q->knuckle[f].r - EPS_POS) {
                *idx = p;
                return PLACE_JAW;
            }
        }
    }
    return PLACE_OK;
}

int kernel_check_positions(const Table *tb, const double *pos, ptrdiff_t n, ptrdiff_t *i,
                           ptrdiff_t *j) {
    for (ptrdiff_t a = 0; a < n; a++) {
        int idx = -1;
        int code = kernel_check_point(tb, pos[2 * a], pos[2 * a + 1], &idx);
        if (code != PLACE_OK) {
            *i = a;
            *j = idx;
            return code;
        }
    }
    const double R2 = 2 * tb->ph.R;
    for (ptrdiff_t a = 0; a < n; a++)
        for (ptrdiff_t b = a + 1; b < n; b++)
            if (norm2(pos[2 * a] - pos[2 * b], pos[2 * a + 1] - pos[2 * b + 1]) < R2 - EPS_POS) {
                *i = a;
                *j = b;
                return PLACE_BALL;
            }
    return PLACE_OK;
}

/* ------------------------------------------------------------------ setup */

int kernel_set_phys(Phys *P, const double *p, int model, long max_events) {
    P->R = p[0]; P->m = p[1]; P->g = p[2]; P->mu_s = p[3]; P->mu_r = p[4]; P->mu_sp = p[5];
    P->e_b = p[6]; P->e_c = p[7]; P->f_c = p[8]; P->h = p[9];
    P->mu_b_a = p[10]; P->mu_b_b = p[11]; P->mu_b_c = p[12];
    P->e_c_drop = p[13]; P->e_c_speed = p[14];
    P->e_t = p[15]; P->rail_w = p[16];
    P->max_events = max_events;
    P->I = 0.4 * P->m * P->R * P->R;
    P->slide_dec = P->mu_s * P->g;
    P->roll_dec = P->mu_r * P->g;
    P->spin_dec = 5 * P->mu_sp * P->g / (2 * P->R);
    P->ang_slide = 5 * P->mu_s * P->g / (2 * P->R);
    P->sin_t = (P->h - P->R) / P->R;
    P->cos_t = sqrt(1 - P->sin_t * P->sin_t);
    CushionPhys C = {P->R, P->m, P->I, P->sin_t, P->cos_t, P->e_c, P->e_c_drop, P->e_c_speed,
                     P->f_c, P->mu_s};
    P->cushion = C;
    P->resolve = cushion_model(model);
    return P->resolve ? 0 : -1;
}

static Line make_line(const double *g) {
    Line L;
    L.px = g[0];
    L.py = g[1];
    L.tx = g[2];
    L.ty = g[3];
    L.nx = g[4];
    L.ny = g[5];
    L.len = g[6];
    return L;
}

#define N_GEO_FIXED (1 + 7 * N_CUSHIONS + 23 * N_POCKETS + 1)

int kernel_set_geometry(Table *tb, const double *g, ptrdiff_t ng) {
    if (ng < N_GEO_FIXED) return -1;
    const double R = tb->ph.R;
    int k = 0;
    tb->baulk_y = g[k++];
    for (int c = 0; c < N_CUSHIONS; c++, k += 7) tb->cushion[c] = make_line(g + k);
    for (int p = 0; p < N_POCKETS; p++) {
        Pocket *Q = &tb->pocket[p];
        Q->fall.cx = g[k]; Q->fall.cy = g[k + 1]; Q->fall.r = g[k + 2];
        k += 3;
        for (int f = 0; f < 2; f++, k += 7) Q->facing[f] = make_line(g + k);
        for (int f = 0; f < 2; f++, k += 3) {
            Q->knuckle[f].cx = g[k];
            Q->knuckle[f].cy = g[k + 1];
            Q->rho[f] = g[k + 2];
            Q->knuckle[f].r = g[k + 2] + R;
        }
        double x0 = Q->fall.cx - Q->fall.r, x1 = Q->fall.cx + Q->fall.r;
        double y0 = Q->fall.cy - Q->fall.r, y1 = Q->fall.cy + Q->fall.r;
        for (int f = 0; f < 2; f++) {
            const Line *L = &Q->facing[f];
            double ex = L->px + L->len * L->tx, ey = L->py + L->len * L->ty;
            x0 = min_d(x0, min_d(L->px, ex) - R); x1 = max_d(x1, max_d(L->px, ex) + R);
            y0 = min_d(y0, min_d(L->py, ey) - R); y1 = max_d(y1, max_d(L->py, ey) + R);
            const Circle *C = &Q->knuckle[f];
            x0 = min_d(x0, C->cx - C->r); x1 = max_d(x1, C->cx + C->r);
            y0 = min_d(y0, C->cy - C->r); y1 = max_d(y1, C->cy + C->r);
        }
        Q->x0 = x0 - 1e-9; Q->x1 = x1 + 1e-9; Q->y0 = y0 - 1e-9; Q->y1 = y1 + 1e-9;
    }
    int no = (int)g[k++];
    if (no < 3 || no > MAX_OUTLINE || k + 2 * no != ng) return -1;
    tb->n_outline = no;
    memcpy(tb->outline, g + k, (size_t)(2 * no) * sizeof(double));
    tb->bx0 = tb->bx1 = tb->outline[0];
    tb->by0 = tb->by1 = tb->outline[1];
    for (int q = 1; q < no; q++) {
        tb->bx0 = min_d(tb->bx0, tb->outline[2 * q]);
        tb->bx1 = max_d(tb->bx1, tb->outline[2 * q]);
        tb->by0 = min_d(tb->by0, tb->outline[2 * q + 1]);
        tb->by1 = max_d(tb->by1, tb->outline[2 * q + 1]);
    }
    return 0;
}

double kernel_first_entry(const double *c, int deg, double H) {
    return deg <= 2 ? quad_entry(c[0], c[1], c[2], H) : poly_entry(c, 4, H);
}
