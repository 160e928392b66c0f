/*
 * cushion.c -- the ball-cushion impact models (interface: cushion.h). Used for the cushion
 * noses, the jaw facings and the rounded knuckles alike.
 *
 * mathavan2010 (the default): Mathavan, Jackson & Parkin (2010), "A theoretical analysis of
 * billiard ball dynamics under cushion impacts", Proc. IMechE C 224(9) 1863-1873. The ball
 * stays on the bed during the impact; it touches the cushion at I, an angle theta above its
 * equator (sin theta = (h - R) / R; 2/5 for snooker's h = 7R/5), and the bed at C. The
 * normal impulse P at I is the independent variable: with it grow Coulomb friction at I
 * (mu_w = f_c, against the slip of the ball's surface over the cushion, in the tangent plane
 * at I), the bed's normal impulse (whatever keeps the centre's vertical speed zero) and
 * friction at C (mu_s, against the slip over the cloth). Compression lasts until the
 * centre stops approaching (u = 0); restitution goes on until the work of the normal force
 * in restitution is e^2 times the work in compression (Stronge's energetic coefficient).
 *
 * The equations are integrated over P numerically, MV_STEPS steps a phase (the phase's end
 * falls within its last step, where the state is interpolated). A step is semi-implicit
 * in the friction: each contact takes the friction impulse that stops its slip within the
 * step when its cone allows that (it sticks), else the cone's limit against the slip it
 * ends the step with. So a slip that stops or reverses is never overshot into chatter,
 * and a rolling ball's zero slip at the bed needs no special case. Against the same
 * equations with 20,000 steps a phase, over 3,000 random impacts (incidence 3-90 degrees,
 * 0.2-4 m/s, top and back spin -2..3 v/R, side -2.5..2.5 v/R on 60 %), the direction just
 * after the impact is within 0.10 degrees (median), 0.43 (95 %) and 0.84 (worst); the
 * speed within 0.2 % (median), 1.2 % (95 %) and 3.5 % (worst) of the incident speed; the
 * direction once the ball rolls again within 0.11 degrees (median), 0.66 (95 %). Three
 * steps a phase cost about 0.25 us an impact (the limit was a shot at most 15 % dearer
 * than with Han's single impulse); each doubling of the steps halves these errors and
 * doubles the cost (docs/physics-validation.md; tests/physics/test_physics_validation.py
 * holds the engine to the paper's own scheme, integrated finely).
 *
 * han2005: Han (2005), "Dynamics in carom and three cushion billiards", J. Mech. Sci. Tech.
 * 19(4): one impulse at I with restitution e on the contact's normal velocity and friction
 * f_c (or sticking) in the tangent plane; the vertical velocity it would give is absorbed
 * by the table. It caps a rolling ball's square rebound at (1 + e) cos^2 theta - 1 of its
 * speed (0.69 at e = 0.85): kept for comparison and for the records of older engines.
 *
 * Both use the restitution of cushion_restitution: e_c up to e_c_speed (Mathavan's 2.5 m/s,
 * the limit of the rigid-cushion assumption), then falling by the fraction e_c_drop, which
 * fits the measured rebounds of faster balls (Mathavan 2010, Fig. 7a).
 */
#include "cushion.h"

#include <math.h>
#include <stddef.h>

/* Steps a phase (compression, restitution); and the most a phase may take before it is
 * ended as it stands (only frictions beyond any cloth's, with a contact near the top of
 * the ball, could make the cushion hold a ball: then it stops there). */
#define MV_STEPS 3
#define MV_MAX_STEPS (16 * MV_STEPS)

CushionModelFn cushion_model(int code) {
    switch (code) {
        case CUSHION_MATHAVAN2010: return cushion_mathavan2010;
        case CUSHION_HAN2005: return cushion_han2005;
        default: return NULL;
    }
}

double cushion_restitution(const CushionPhys *P, double un) {
    if (un <= P->e_c_speed) return P->e_c;
    double f = un >= P->e_c_speed + CUSHION_E_RAMP ? 1 : (un - P->e_c_speed) / CUSHION_E_RAMP;
    return P->e_c * (1 - P->e_c_drop * f);
}

/* fmin and fmax, inlined: glibc's value (x86-64 minsd / maxsd: y when x == y; the number
 * when one is a NaN), where the library calls are not inlined without -ffast-math. */
static inline double min_d(double x, double y) { return (x < y || y != y) ? x : y; }
static inline double max_d(double x, double y) { return (x > y || y != y) ? x : y; }

static inline double hyp(double x, double y) { return sqrt(x * x + y * y); }

/* ------------------------------------------------------------------ mathavan2010 */

/* The constants of the integration, derived once an impact. The slips: at I along
 * e1 = Y and e2 = (-sin t, 0, cos t); at C along X and Y. A friction impulse (g1, g2) at I
 * and (q1, q2) at C change them by the Delassus operator, which pairs (s1, yc) with
 * (g1, q2) and (s2, xc) with (g2, q1): k11, k22 on the diagonal at I, kcc at C, k1y and
 * k2x between the contacts. */
typedef struct {
    double R, st, ct, im, ri;     /* 1 / m, R / I */
    double k1y, k2x;
    double ik11, ik22, ikcc;      /* the diagonal's inverses */
    double mw, ms, stct_im, ct_im;
} Mv;

static inline void mv_slips(const Mv *K, const CushionState *s, double *q) {
    q[0] = s->v + K->R * (s->wz * K->ct - s->wx * K->st);
    q[1] = -s->u * K->st - K->R * s->wy;
    q[2] = s->u - K->R * s->wy;
    q[3] = s->v + K->R * s->wx;
}

/* The friction impulse (t1, t2) of a contact within a step: the one that stops its slip
 * (f1, f2: the slip at the end of the step without it; i1, i2: the inverse slip change per
 * unit impulse) if the cone |t| <= lim allows it (the contact sticks), else lim against f
 * (it slides, against the slip it ends the step with: the step is implicit in the
 * friction's direction, so a slip that would reverse within the step stops instead). */
static inline void mv_friction(double f1, double f2, double i1, double i2, double lim,
                               double *t1, double *t2) {
    double a = -f1 * i1, b = -f2 * i2, n2 = f1 * f1 + f2 * f2;
    if (a * a + b * b <= lim * lim) {
        *t1 = a;
        *t2 = b;
    } else {
        /* -lim / |f| (n2 > 0 here), the root and the division side by side rather than one
         * after the other */
        double k = -lim * sqrt(n2) * (1 / n2);
        *t1 = k * f1;
        *t2 = k * f2;
    }
}

/* One step of normal impulse h from s to *out: the friction at the cushion first (the
 * bed's friction left out), then at the bed given the cushion's. */
static inline void mv_step(const Mv *K, const CushionState *s, double h, CushionState *out) {
    double q[4];
    mv_slips(K, s, q);
    double g1, g2;
    mv_friction(q[0], q[1] + K->stct_im * h, K->ik11, K->ik22, K->mw * h, &g1, &g2);
    /* the bed: its normal impulse keeps the centre on the bed */
    double nc = K->st * h - K->ct * g2;
    if (nc < 0) nc = 0;
    double q1, q2;
    mv_friction(q[2] - K->ct_im * h + K->k2x * g2, q[3] + K->k1y * g1, K->ikcc, K->ikcc,
                K->ms * nc, &q1, &q2);
    out->u = s->u + (q1 - K->ct * h - K->st * g2) * K->im;
    out->v = s->v + (g1 + q2) * K->im;
    out->wx = s->wx + (q2 - K->st * g1) * K->ri;
    out->wy = s->wy - (g2 + q1) * K->ri;
    out->wz = s->wz + K->ct * g1 * K->ri;
}

/* The state a fraction f along the step from s to next (the step's impulses are constant
 * along it, so the state is linear in P): the end of a phase within a step. */
static inline void mv_lerp(CushionState *s, const CushionState *next, double f) {
    s->u += f * (next->u - s->u);
    s->v += f * (next->v - s->v);
    s->wx += f * (next->wx - s->wx);
    s->wy += f * (next->wy - s->wy);
    s->wz += f * (next->wz - s->wz);
}

void cushion_mathavan2010(const CushionPhys *P, CushionState *io) {
    const double u0 = io->u, st = P->sin_t, ct = P->cos_t;
    if (!(u0 > 0)) return;
    /* the state in a local (kept in registers, not stored back each step) */
    CushionState cur = *io, *s = &cur;
    const double im = 1 / P->m, ri = P->R / P->I, r2i = P->R * ri;
    Mv K;
    K.R = P->R;
    K.st = st;
    K.ct = ct;
    K.im = im;
    K.ri = ri;
    K.k1y = im - r2i * st;
    K.k2x = r2i - st * im;
    K.ik11 = 1 / (im + r2i);
    K.ik22 = 1 / (st * st * im + r2i);
    K.ikcc = K.ik11;
    K.mw = P->f_c;
    K.ms = P->mu_s;
    K.stct_im = st * ct * im;
    K.ct_im = ct * im;
    const double e = cushion_restitution(P, u0);
    const double h = P->m * u0 / (ct * MV_STEPS);  /* a phase's impulse is about m u0 / cos t */
    CushionState next;
    /* compression: until u = 0; the work of the normal force is cos t * integral of u dP */
    double work = 0;
    int k;
    for (k = 0; k < MV_MAX_STEPS; k++) {
        mv_step(&K, s, h, &next);
        if (next.u <= 0) {
            double f = s->u / (s->u - next.u);  /* u is linear in P along a step */
            work += 0.5 * h * f * ct * s->u;
            mv_lerp(s, &next, f);
            s->u = 0;
            break;
        }
        work += 0.5 * h * ct * (s->u + next.u);
        *s = next;
    }
    if (k == MV_MAX_STEPS) {
        s->u = 0;  /* held by the cushion (see MV_MAX_STEPS) */
        *io = cur;
        return;
    }
    /* restitution: until the work done on the way out is e^2 times that on the way in */
    const double target = e * e * work;
    double done = 0;
    for (k = 0; k < MV_MAX_STEPS && done < target; k++) {
        mv_step(&K, s, h, &next);
        double a = -ct * s->u, b = -ct * (next.u - s->u) / h;  /* dW/dP = a + b P */
        double dw = h * (a + 0.5 * b * h);
        if (done + dw >= target) {
            double rest = target - done, x;
            if (fabs(b) * h < 1e-9 * fabs(a)) {
                x = rest / a;
            } else {
                double disc = a * a + 2 * b * rest;
                x = disc > 0 ? (sqrt(disc) - a) / b : h;
            }
            mv_lerp(s, &next, max_d(0.0, min_d(1.0, x / h)));
            *io = cur;
            return;
        }
        done += dw;
        *s = next;
    }
    if (s->u > 0) s->u = 0;
    *io = cur;
}

/* ------------------------------------------------------------------ han2005 */

void cushion_han2005(const CushionPhys *P, CushionState *s) {
    const double R = P->R, m = P->m, I = P->I, st = P->sin_t, ct = P->cos_t;
    /* contact I at R (cos t, 0, sin t); normal approach speed there is u cos t */
    double c = s->u * ct;
    double Pn = c > 0 ? (1 + cushion_restitution(P, s->u)) * m * c : 0;
    /* slip at I in the tangent plane, along t1 = (-sin t, 0, cos t) and Y */
    double s1 = -s->u * st - R * s->wy;
    double s2 = s->v + R * (s->wz * ct - s->wx * st);
    double sl = hyp(s1, s2);
    double p1 = 0, p2 = 0;
    if (sl > 0 && Pn > 0) {
        double Pt = min_d(P->f_c * Pn, 2 * m * sl / 7);  /* sliding, or sticking if less */
        p1 = -Pt * s1 / sl;
        p2 = -Pt * s2 / sl;
    }
    /* total impulse on the ball: -Pn (cos t, 0, sin t) + p1 (-sin t, 0, cos t) + p2 Y */
    double PX = -Pn * ct - p1 * st, PY = p2, PZ = -Pn * st + p1 * ct;
    s->u += PX / m;
    s->v += PY / m;  /* the vertical part PZ / m is absorbed by the table */
    if (s->u > 0) s->u = 0;  /* (only for e_c near 0) the cushion never lets the ball on */
    s->wx += R * (-st * PY) / I;
    s->wy += R * (st * PX - ct * PZ) / I;
    s->wz += R * (ct * PY) / I;
}
