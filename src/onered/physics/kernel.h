/*
 * kernel.h -- the pure C kernel of onered's table simulation: closed-form motion, exact
 * event times, collisions, the event loop and the input checks. No Python here: the
 * CPython glue is _engine.c (the model is documented in onered/physics/engine.py).
 */
#ifndef ONERED_KERNEL_H
#define ONERED_KERNEL_H

#include <stddef.h>

#include "cushion.h"

#define N_CUSHIONS 6
#define N_POCKETS 6
#define MAX_OUTLINE 64

/* Motion states (ST_AIRBORNE: in flight above the slate; ST_OFF: off the table). */
enum { ST_STATIONARY, ST_SPINNING, ST_SLIDING, ST_ROLLING, ST_POCKETED, ST_AIRBORNE, ST_OFF };
/* Event kinds, in the order of onered.physics.types.EventKind. */
enum {
    EV_BALL_BALL, EV_CUSHION, EV_POCKET, EV_BAULK,
    EV_SLIDE_ROLL, EV_ROLL_SPIN, EV_ROLL_STOP, EV_SPIN_STOP,
    EV_AIRBORNE, EV_LAND, EV_OVER, EV_OFF_TABLE, N_EVENT_KINDS
};
/* Doubles per launch (vx, vy, wx, wy, wz, vz) and per output segment (ball, t0, t1, x, y,
 * vx, vy, ax, ay, w(3), dw(3), z, vz, az). */
#define LAUNCH_SIZE 6
#define SEG_SIZE 18
/* Why a ball may not stand where it is (kernel_check_point, kernel_check_positions);
 * mirrored by onered.physics.engine.Placement. */
enum {
    PLACE_OK, PLACE_OFF_TABLE, PLACE_OVER_POCKET, PLACE_CUSHION, PLACE_JAW, PLACE_BALL
};

typedef struct {
    double R, m, g, mu_s, mu_r, mu_sp, e_b, e_c, f_c, h, mu_b_a, mu_b_b, mu_b_c;
    double e_c_drop, e_c_speed;
    double e_t;        /* ball-slate restitution */
    double rail_w;     /* the cushion's top and the rail, beyond the nose line (m) */
    double I;          /* 2/5 m R^2 */
    double slide_dec;  /* mu_s g */
    double roll_dec;   /* mu_r g */
    double spin_dec;   /* 5 mu_sp g / (2R) */
    double ang_slide;  /* 5 mu_s g / (2R) */
    double sin_t, cos_t;
    CushionPhys cushion;       /* what the cushion model reads */
    CushionModelFn resolve;    /* the cushion model */
    long max_events;
} Phys;

typedef struct {
    double px, py, tx, ty, nx, ny, len;
} Line;

typedef struct {
    double cx, cy, r;  /* r: distance of the ball centre at contact (knuckle: rho + R) */
} Circle;

typedef struct {
    Line facing[2];
    Circle knuckle[2];
    double rho[2];
    Circle fall;
    double x0, x1, y0, y1;  /* box holding every ball-centre contact with this pocket */
} Pocket;

typedef struct {
    Phys ph;
    Line cushion[N_CUSHIONS];
    Pocket pocket[N_POCKETS];
    double baulk_y;
    int n_outline;
    double outline[2 * MAX_OUTLINE];
    double bx0, bx1, by0, by1;  /* the outline's bounding box */
} Table;

typedef struct {
    int state;
    double t0, x, y, vx, vy, wx, wy, wz; /* state at t0 */
    double z, vz;                        /* height of the lowest point, vertical velocity */
    double ax, ay, awx, awy, awz;        /* constant accelerations during this state */
    double tz;                           /* when w_z reaches zero (then stays zero) */
    double t_end;                        /* next motion transition (INF if none) */
    int side;                            /* +1 above the baulk line, -1 on or below it */
    int rests;                           /* in the air: contacts from above with a ball, a
                                          * nose edge or a jaw's top since the last landing */
    double t_side;                       /* when side last changed (-1: never) */
} Ball;

typedef struct {
    double t;
    int kind, obj;
} Cand;

typedef struct {
    double *d;
    ptrdiff_t n, cap;
} Buf;

typedef struct {
    const Table *tb;
    int n;
    Ball *b;
    Cand *stat;
    double *baulk;
    double *pair;  /* n * n, entry [i * n + j] for i < j */
    int *pkind;    /* n * n: what pair[] is (a contact, or an airborne ball coming over) */
    unsigned char *over;  /* n * n: "over" already reported in this flight */
    Buf *ev;       /* 7 doubles an event: t, kind, a, b, cushion, pocket, direction */
    Buf *seg;      /* SEG_SIZE doubles a segment */
    int oom;       /* set when an output buffer could not grow */
} Sim;

/* Physical parameters: the inputs, then the derived values (kernel_set_phys fills them).
 * p: R, m, g, mu_s, mu_r, mu_sp, e_b, e_c, f_c, cushion height, mu_b_a, mu_b_b, mu_b_c,
 * e_c_drop, e_c_speed, e_table, rail_width (the fields of onered.physics.Params, in
 * _engine.c's PHYS_NAMES order); model: a cushion model code (cushion.h). Returns 0, or -1
 * for an unknown model. */
#define N_PHYS_FIELDS 17
int kernel_set_phys(Phys *P, const double *p, int model, long max_events);

/* The table from its flat layout (the one engine.py's _geometry_numbers writes):
 *   baulk_y;
 *   per cushion (N_CUSHIONS, onered.table.CUSHION_NAMES order): a line;
 *   per pocket (N_POCKETS, onered.table.POCKET_NAMES order): fall centre x, y, radius,
 *     two facing lines, two knuckles (centre x, y, radius);
 *   the outline: n, then n points x, y (counter-clockwise, 3 <= n <= MAX_OUTLINE);
 * a line being x0, y0, unit tangent tx, ty, unit normal nx, ny (towards the balls),
 * length. Needs tb->ph set (R). Returns 0, or -1 when the layout does not fit. */
int kernel_set_geometry(Table *tb, const double *g, ptrdiff_t n);

/* Runs one shot: balls at pos (x, y per ball), all at rest but the cue ball, launched with
 * (vx, vy, wx, wy, wz, vz) (vz < 0: the cue drives the ball into the slate). Events and segments go to S->ev and S->seg (if not NULL).
 * Returns 0, 1 when tb->ph.max_events was exceeded, -1 when a buffer could not grow.
 * *duration: when the last ball stops (INFINITY when a ball would spin for ever). */
int kernel_run_shot(Sim *S, const double *pos, int cue, const double *launch,
                    double *duration);

/* PLACE_OK if a ball may rest at (x, y), else why not (*idx: the pocket or cushion). */
int kernel_check_point(const Table *tb, double x, double y, int *idx);

/* The first ball of n (pos: x, y per ball) that may not stand where it is: PLACE_OK, or
 * the code with *i the ball and *j the pocket, cushion or other ball. */
int kernel_check_positions(const Table *tb, const double *pos, ptrdiff_t n, ptrdiff_t *i,
                           ptrdiff_t *j);

/* The root isolation behind event times: the first tau in [0, H] where c0 + c1 tau + ...
 * (degree <= 4; quadratics in closed form) enters <= 0 from above, else INFINITY. */
double kernel_first_entry(const double *c, int deg, double H);

#endif
