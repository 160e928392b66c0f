/*
 * cushion.h -- the ball-cushion impact models of onered's table, one C function per model
 * behind one interface (as pooltool's resolve/ball_cushion/<model>). kernel.c finds the
 * contact and builds the frame; a model only turns the ball's state before the impact into
 * its state after it. The models are documented in onered/physics/cushion.c and
 * onered/physics/params.py (CushionModel).
 */
#ifndef ONERED_CUSHION_H
#define ONERED_CUSHION_H

/* The ball's state at the contact, in the contact frame: X horizontal towards the cushion
 * (through the ball's centre and the contact), Y = Z x X along the cushion, Z up.
 * u: centre velocity along X (> 0: approaching), v: along Y; w: angular velocity. */
typedef struct {
    double u, v, wx, wy, wz;
} CushionState;

/* What a model needs of the ball, cloth and cushion (filled by kernel_set_phys). */
typedef struct {
    double R, m, I;           /* ball radius, mass, moment of inertia 2/5 m R^2 */
    double sin_t, cos_t;      /* the contact's angle above the equator: sin = (h - R) / R */
    double e_c, e_c_drop;     /* restitution up to e_c_speed; its fall (a fraction) beyond */
    double e_c_speed;         /* normal speed (m/s) where restitution starts to fall */
    double f_c;               /* friction between ball and cushion (mu_w) */
    double mu_s;              /* sliding friction between ball and cloth (at the bed) */
} CushionPhys;

/* A model: the state after the impact, written over the state before it. */
typedef void (*CushionModelFn)(const CushionPhys *P, CushionState *s);

/* Model codes, in the order of onered.physics.params.CushionModel. */
enum { CUSHION_MATHAVAN2010, CUSHION_HAN2005, N_CUSHION_MODELS };

/* The model of a code (NULL for an unknown code). */
CushionModelFn cushion_model(int code);

/* The restitution at normal speed un (m/s): e_c up to e_c_speed, falling linearly to
 * e_c (1 - e_c_drop) over the next CUSHION_E_RAMP m/s, and that beyond. */
double cushion_restitution(const CushionPhys *P, double un);

#define CUSHION_E_RAMP 0.2

void cushion_mathavan2010(const CushionPhys *P, CushionState *s);
void cushion_han2005(const CushionPhys *P, CushionState *s);

#endif
