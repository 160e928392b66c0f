#!/usr/bin/env python
"""Reference numbers from pooltool 0.3.3 for docs/physics-validation.md.

This script generated ``docs/data/pooltool-0.3.3.json``, the pooltool columns and curves of
the validation page. pooltool is **not** a dependency of onered: run the script in a
virtual environment of its own,

    python -m venv /tmp/pooltool-venv
    /tmp/pooltool-venv/bin/pip install pooltool-billiards==0.3.3
    /tmp/pooltool-venv/bin/python docs/pooltool_reference.py

which writes ``docs/data/pooltool-0.3.3.json`` (the file's ``meta`` records the versions,
the models, how each block was measured and pooltool 0.3.3's known issues; its ``script``
field names where the script lay when the stored file was made). Nothing in onered imports
this script; it is kept so that the stored numbers can be remade and checked.

Conventions (all SI units, angles in degrees):

* pooltool's angular velocity is a right-handed vector in the table frame (z up).
  A ball rolling with velocity v has w = z_hat x v / R (pooltool's own
  evolve_roll_state uses w = rot90(v/R)).  "k" is defined by R*w_perp = k*v with
  w_perp the component of w along z_hat x v_hat, so k = 1 is natural roll,
  k = 0 stun, k < 0 backspin.
* Every scenario is set up by writing the ball state (pooltool BallState.rvw =
  [position, velocity, angular velocity], motion label s) directly, then calling
  pt.simulate() with an explicitly constructed PhysicsEngine (default models).
  The ball starts GAP = 1e-6 m in front of the contact, so the state at contact
  equals the prescribed state to ~1e-6 relative; the actual state at contact
  (Event.agents[i].initial, pooltool's snapshot just before resolution) is
  recorded and every ratio is taken relative to that actual incident state.
* Post-event states are Event.agents[i].final (pooltool's snapshot just after
  the resolver ran, i.e. before any further evolution on the cloth).
"""

from __future__ import annotations

import datetime
import json
import math
import platform
import sys
from pathlib import Path

import numpy as np

import pooltool as pt
import pooltool.constants as const
from pooltool.objects.ball.datatypes import BallState
from pooltool.objects.table.specs import BilliardTableSpecs
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball import BallBallModel
from pooltool.physics.resolve.ball_cushion import BallCCushionModel, BallLCushionModel
from pooltool.physics.resolve.ball_pocket import BallPocketModel
from pooltool.physics.resolve.resolver import Resolver, ResolverConfig
from pooltool.physics.resolve.stick_ball import StickBallModel
from pooltool.physics.resolve.transition import BallTransitionModel

OUT = Path(__file__).resolve().parent / "data" / "pooltool-0.3.3.json"

assert pt.__version__ == "0.3.3", pt.__version__

R = 0.02625
GAP = 1e-6  # m between the ball and the contact at t=0
TABLE_SIZE = 200.0  # m; pocketless BILLIARD table, l = w = 200 m

PARAM_SETS = {
    "matched": dict(
        m=0.1406, R=R, g=9.81, u_s=0.212, u_r=0.01274, u_sp_proportionality=0.444,
        e_c=0.98, f_c=0.14, cushion_height=1.4 * R,
    ),
    "issue": dict(
        m=0.1406, R=R, g=9.81, u_s=0.2, u_r=0.01, u_sp_proportionality=0.444,
        e_c=0.85, f_c=0.2, cushion_height=1.4 * R,
    ),
}
BALL_BALL_RESTITUTION_REQUESTED = 0.95  # cannot be set in pooltool 0.3.3, see meta

# pooltool 0.3.3 defaults (ResolverConfig.default() hard-codes exactly these when no
# ~/.config/pooltool/physics/resolver.yaml exists). Built explicitly here so that a
# user config file cannot change the result.
RESOLVER_CONFIG = ResolverConfig(
    ball_ball=BallBallModel.FRICTIONLESS_ELASTIC,
    ball_ball_params={},
    ball_linear_cushion=BallLCushionModel.HAN_2005,
    ball_linear_cushion_params={},
    ball_circular_cushion=BallCCushionModel.HAN_2005,
    ball_circular_cushion_params={},
    ball_pocket=BallPocketModel.CANONICAL,
    ball_pocket_params={},
    stick_ball=StickBallModel.INSTANTANEOUS_POINT,
    stick_ball_params={"throttle_english": True},
    transition=BallTransitionModel.CANONICAL,
    transition_params={},
)
ENGINE = PhysicsEngine(resolver=Resolver.from_config(RESOLVER_CONFIG))

ALPHAS = list(range(5, 91, 5))
CUTS = list(range(0, 61, 5))
ET = pt.EventType


# ----------------------------------------------------------------------------- helpers
def ball_params(P):
    return {k: v for k, v in P.items() if k != "cushion_height"}


def make_table(P):
    return pt.Table.from_table_specs(
        BilliardTableSpecs(l=TABLE_SIZE, w=TABLE_SIZE, cushion_height=P["cushion_height"])
    )


def spin_vector(vel, k, side=0.0):
    """w with R*w_perp = k*|v| (k=1 natural roll) and R*w_z = side*|v|."""
    v = np.linalg.norm(vel)
    w = k * np.array([-vel[1], vel[0], 0.0]) / R  # z_hat x v / R
    w[2] = side * v / R
    return w


def motion_label(rvw):
    rel = rvw[1] + R * np.cross([0.0, 0.0, 1.0], rvw[2])
    if np.linalg.norm(rvw[1]) == 0 and np.linalg.norm(rvw[2]) == 0:
        return const.stationary
    return const.rolling if np.linalg.norm(rel) < 1e-12 else const.sliding


def make_ball(bid, P, pos_xy, vel=(0.0, 0.0, 0.0), w=(0.0, 0.0, 0.0)):
    b = pt.Ball.create(bid, xy=pos_xy, **ball_params(P))
    rvw = np.array([b.state.rvw[0], np.asarray(vel, float), np.asarray(w, float)])
    b.state = BallState(rvw, motion_label(rvw), 0.0)
    return b


def simulate(P, balls, t_final=None):
    system = pt.System(
        cue=pt.Cue(cue_ball_id=balls[0].id, V0=0.0),
        table=make_table(P),
        balls={b.id: b for b in balls},
    )
    return pt.simulate(system, engine=ENGINE, t_final=t_final)


def agent_state(event, ball_id, which, origin=None):
    for a in event.agents:
        if a.id == ball_id:
            rvw = getattr(a, which).state.rvw.copy()
            return rvw if origin is None else to_local(rvw, origin)
    raise KeyError(ball_id)


def events_of(system, ball_id):
    return [e for e in system.events if ball_id in e.ids]


def first(system, etype, ball_id, after_time=-1.0):
    for e in system.events:
        if e.event_type == etype and ball_id in e.ids and e.time > after_time:
            return e
    return None


def next_event_after(system, ball_id, event):
    evs = events_of(system, ball_id)
    i = evs.index(event)
    return evs[i + 1] if i + 1 < len(evs) else None


# pooltool 0.3.3's ball/linear-cushion collision-time solver divides by zero when a
# velocity component perpendicular to a cushion is exactly 0 (quadratic with A=B=0), so
# blocks B-E are run in a frame rotated by PSI about z and rotated back for measuring.
PSI = math.radians(31.7)  # not a multiple of 5 deg, so no ball ever moves exactly along a cushion


def rotz(vec, psi):
    c, s_ = math.cos(psi), math.sin(psi)
    vec = np.asarray(vec, float)
    out = vec.copy()
    out[..., 0] = c * vec[..., 0] - s_ * vec[..., 1]
    out[..., 1] = s_ * vec[..., 0] + c * vec[..., 1]
    return out


def to_local(rvw, origin):
    """Rotate a table-frame rvw (positions relative to origin) back by -PSI."""
    rvw = rvw.copy()
    rvw[0] = rvw[0] - origin
    return np.array([rotz(x, -PSI) for x in rvw])


def ang(v):
    return math.degrees(math.atan2(v[1], v[0]))


def r(x, n=6):
    if x is None:
        return None
    if isinstance(x, (list, tuple, np.ndarray)):
        return [r(y, n) for y in x]
    x = float(x)
    if not math.isfinite(x):
        return None
    return round(x, n)


def spin_k(rvw):
    """k = R*w_perp/|v| (w_perp: component along z_hat x v_hat), side = R*w_z/|v|."""
    v = rvw[1]
    vn = np.linalg.norm(v[:2])
    perp = np.array([-v[1], v[0], 0.0]) / vn
    return R * np.dot(rvw[2], perp) / vn, R * rvw[2][2] / vn


# ----------------------------------------------------------------------------- A
SPIN_CASES = {
    # name: (k, side) ; side = R*w_z/v
    "rolling": (1.0, 0.0),
    "stun": (0.0, 0.0),
    "backspin": (-1.0, 0.0),
    "topspin2": (2.0, 0.0),
    # Geometry below: cushion along x (y = 0), ball travelling +x and -y.
    # w_z < 0 (clockwise from above) makes the contact point slip backwards (-x) on
    # the rail, so rail friction pushes the ball +x: running side. Verified
    # numerically (running_side gives a smaller rebound angle from the rail line).
    "running_side": (1.0, -1.0),
    "check_side": (1.0, +1.0),
}


def han_branch(rvw, P):
    """Which branch of pooltool 0.3.3's han2005() resolves this impact.

    Re-evaluates the branch condition of han2005() (PzS <= PzE: 'stick', otherwise
    'forward_slide') for a ball hitting cushion '18' (normal -y, pointing away from
    the table), using the same rotation to the cushion frame as pooltool.
    """
    from pooltool import ptmath
    normal = np.array([0.0, -1.0, 0.0])
    psi = ptmath.angle(normal)
    rvw_R = ptmath.coordinate_rotation(rvw.T, -psi).T
    h, Rb, m, e = P["cushion_height"], P["R"], P["m"], P["e_c"]
    th = np.arcsin(h / Rb - 1)
    sx = rvw_R[1, 0] * np.sin(th) - rvw_R[1, 2] * np.cos(th) + Rb * rvw_R[2, 1]
    sy = -rvw_R[1, 1] - Rb * rvw_R[2, 2] * np.cos(th) + Rb * rvw_R[2, 0] * np.sin(th)
    c = rvw_R[1, 0] * np.cos(th)
    PzE = (1 + e) * c * m
    PzS = np.sqrt(sx**2 + sy**2) / (7 / 2 / m)
    return "stick" if PzS <= PzE else "forward_slide"


def cushion_case(P, alpha_deg, k, side, v=1.0):
    a = math.radians(alpha_deg)
    vel = v * np.array([math.cos(a), -math.sin(a), 0.0])
    x0 = TABLE_SIZE / 2
    # Cushion "18" of pooltool's billiard table: the segment y = 0, 0 <= x <= l.
    # The ball starts a distance GAP (perpendicular) from touching it.
    ball = make_ball("cue", P, (x0, R + GAP), vel, spin_vector(vel, k, side))
    sysm = simulate(P, [ball])
    ev = first(sysm, ET.BALL_LINEAR_CUSHION, "cue")
    assert ev is not None and ev.ids == ("cue", "18"), ev
    # the first event of the ball must be the cushion contact
    assert events_of(sysm, "cue")[0] is ev, events_of(sysm, "cue")[:2]
    rvw0 = agent_state(ev, "cue", "initial")
    rvw1 = agent_state(ev, "cue", "final")
    v_in = np.linalg.norm(rvw0[1])
    k_in, side_in = spin_k(rvw0)
    vout = rvw1[1]
    res = {
        "alpha": alpha_deg,
        "incident_speed_at_contact": r(v_in, 9),
        "incident_k_at_contact": r(k_in, 9),
        "incident_side_at_contact": r(side_in, 9),
        "speed_ratio": r(np.linalg.norm(vout[:2]) / v_in),
        "rebound_angle_from_cushion": r(ang(vout)),
        "han_branch": han_branch(rvw0, P),
        "v_out": r(vout, 7),
        "w_out": r(rvw1[2], 5),
        "R_w_out_over_v_in": r(R * rvw1[2] / v_in, 6),
        "motion_state_after": int(ev.agents[0].final.state.s),
    }
    # Extra: the ball's state once it has finished sliding after the cushion
    # (first sliding->rolling transition), if nothing else happened before.
    nxt = next_event_after(sysm, "cue", ev)
    if nxt is not None and nxt.event_type == ET.SLIDING_ROLLING:
        rv = agent_state(nxt, "cue", "initial")
        res["after_slide"] = {
            "time_after_impact": r(nxt.time - ev.time, 7),
            "speed_ratio": r(np.linalg.norm(rv[1][:2]) / v_in),
            "angle_from_cushion": r(ang(rv[1])),
            "position_rel_impact": r(rv[0][:2] - rvw1[0][:2], 6),
        }
    else:
        res["after_slide"] = {
            "note": f"next event was {None if nxt is None else str(nxt.event_type)}"
        }
    return res


def block_A(P):
    out = {"cases": {}}
    for name, (k, side) in SPIN_CASES.items():
        out["cases"][name] = {"k": k, "side_R_wz_over_v": side,
                              "grid": [cushion_case(P, al, k, side) for al in ALPHAS]}
    out["square_on_rolling_vs_speed"] = []
    for v in [0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]:
        c = cushion_case(P, 90, 1.0, 0.0, v=v)
        out["square_on_rolling_vs_speed"].append(
            {"v_in": v, "incident_speed_at_contact": c["incident_speed_at_contact"],
             "speed_ratio": c["speed_ratio"], "v_out": c["v_out"], "w_out": c["w_out"],
             "after_slide_speed_ratio": c["after_slide"].get("speed_ratio")}
        )
    return out


# ----------------------------------------------------------------------------- B
def single_ball_run(P, v0, k):
    origin = np.array([TABLE_SIZE / 2, TABLE_SIZE / 2, R])
    vel = rotz([v0, 0.0, 0.0], PSI)
    ball = make_ball("cue", P, origin[:2], vel, spin_vector(vel, k))
    sysm = simulate(P, [ball])
    assert not any(e.event_type.is_collision() for e in sysm.events)
    return sysm, origin


def block_B(P):
    g, us, ur = P["g"], P["u_s"], P["u_r"]
    stun = []
    for v0 in [0.5, 1.0, 2.0, 3.0, 4.0]:
        sysm, origin = single_ball_run(P, v0, 0.0)
        sr = first(sysm, ET.SLIDING_ROLLING, "cue")
        rv = to_local(agent_state(sr, "cue", "initial"), origin)
        rest = to_local(sysm.balls["cue"].state.rvw, origin)
        x0 = 0.0
        t_roll_cf = 2 * v0 / (7 * us * g)
        d_roll_cf = 12 * v0**2 / (49 * us * g)
        d_total_cf = d_roll_cf + (5 * v0 / 7) ** 2 / (2 * ur * g)
        stun.append({
            "v0": v0,
            "time_to_roll": r(sr.time, 7),
            "distance_to_roll": r(rv[0][0] - x0, 7),
            "speed_at_roll": r(np.linalg.norm(rv[1]), 7),
            "distance_to_rest": r(rest[0][0] - x0, 6),
            "time_to_rest": r(sysm.events[-1].time, 5),
            "lateral_drift": r(rest[0][1], 9),
            "closed_form": {"time_to_roll": r(t_roll_cf, 7), "distance_to_roll": r(d_roll_cf, 7),
                            "speed_at_roll": r(5 * v0 / 7, 7), "distance_to_rest": r(d_total_cf, 6)},
        })
    sysm, origin = single_ball_run(P, 1.0, 1.0)
    rest = to_local(sysm.balls["cue"].state.rvw, origin)
    x0 = 0.0
    rolling = {"v0": 1.0, "distance_to_rest": r(rest[0][0] - x0, 6),
               "time_to_rest": r(sysm.events[-1].time, 5),
               "closed_form": {"distance_to_rest": r(1.0 / (2 * ur * g), 6),
                               "time_to_rest": r(1.0 / (ur * g), 5)}}
    return {"stun": stun, "rolling_1mps": rolling}


# ----------------------------------------------------------------------------- C, D
def two_ball(P, cut_deg, v, k, t_final=None):
    """Cue ball moving +x, hits the object ball with line of centres n at -cut."""
    th = math.radians(cut_deg)
    n = np.array([math.cos(th), -math.sin(th), 0.0])  # line of centres at contact
    # local frame: object ball at the origin, cue ball travelling +x
    C = -2 * R * n  # cue-ball centre at contact
    start = C - np.array([GAP, 0.0, 0.0])
    origin = np.array([TABLE_SIZE / 2, TABLE_SIZE / 2, R])
    vel = rotz([v, 0.0, 0.0], PSI)
    cue = make_ball("cue", P, (origin + rotz(start, PSI))[:2], vel, spin_vector(vel, k))
    obj = make_ball("obj", P, origin[:2])
    sysm = simulate(P, [cue, obj], t_final=t_final)
    ev = first(sysm, ET.BALL_BALL, "cue")
    assert ev is not None and events_of(sysm, "cue")[0] is ev
    return sysm, ev, origin


def signed_angle(a, b):
    """Angle from 2D vector a to b, CCW positive, degrees."""
    return math.degrees(math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1]))


def throw_case(P, cut, v, k, full=False):
    # Only the collision itself is needed for throw / separation angle, so the
    # simulation is stopped right after it (t_final < collision time: pooltool stops after
    # resolving the first event past t_final). This also avoids a pooltool 0.3.3
    # ZeroDivisionError: after a stun full-ball hit the cue ball is left 'sliding' with
    # v = w = 0 exactly, which its cushion collision-time solver cannot handle.
    sysm, ev, origin = two_ball(P, cut, v, k, t_final=None if full else 0.5 * GAP / v)
    c0 = agent_state(ev, "cue", "initial", origin)
    c1 = agent_state(ev, "cue", "final", origin)
    o1 = agent_state(ev, "obj", "final", origin)
    n = (o1[0] - c1[0])[:2]
    n /= np.linalg.norm(n)
    d = c0[1][:2] / np.linalg.norm(c0[1][:2])
    s = math.copysign(1.0, n[0] * d[1] - n[1] * d[0]) if cut > 0 else 1.0
    throw = s * signed_angle(n, o1[1][:2])
    res = {"cut": cut, "throw_deg": r(throw, 6),
           "obj_speed_over_v": r(np.linalg.norm(o1[1][:2]) / np.linalg.norm(c0[1][:2])),
           "incident_speed_at_contact": r(np.linalg.norm(c0[1]), 9)}
    if np.linalg.norm(c1[1][:2]) > 1e-9:
        res["cue_obj_separation_angle_deg"] = r(abs(signed_angle(c1[1][:2], o1[1][:2])), 6)
    else:
        res["cue_obj_separation_angle_deg"] = None
    return res, sysm, ev, origin


def block_C(P):
    out = {}
    for label, v, k in [("stun_1mps", 1.0, 0.0), ("stun_3mps", 3.0, 0.0), ("rolling_1mps", 1.0, 1.0)]:
        out[label] = [throw_case(P, c, v, k)[0] for c in CUTS]
    return out


def block_D(P):
    stun = []
    for c in range(10, 61, 5):
        res = throw_case(P, c, 1.0, 0.0)[0]
        stun.append({"cut": c, "separation_angle_deg": res["cue_obj_separation_angle_deg"]})
    rolling = []
    for c in range(10, 61, 5):
        res, sysm, ev, origin = throw_case(P, c, 1.0, 1.0, full=True)
        nxt = next_event_after(sysm, "cue", ev)
        assert nxt.event_type == ET.SLIDING_ROLLING, nxt
        rv = agent_state(nxt, "cue", "initial", origin)
        c1 = agent_state(ev, "cue", "final", origin)
        rolling.append({
            "cut": c,
            "separation_angle_just_after_contact_deg": res["cue_obj_separation_angle_deg"],
            "final_deflection_deg": r(abs(ang(rv[1])), 6),
            "final_speed": r(np.linalg.norm(rv[1]), 6),
            "time_to_roll_after_contact": r(nxt.time - ev.time, 7),
            "position_when_rolling_rel_contact": r(rv[0][:2] - c1[0][:2], 6),
        })
    return {"stun_1mps": stun, "rolling_1mps": rolling}


# ----------------------------------------------------------------------------- E
def block_E(P):
    out = []
    for v in [1.0, 2.0]:
        for k in [-0.5, -1.0, -1.5, -2.0]:
            sysm, ev, origin = two_ball(P, 0, v, k)
            c0 = agent_state(ev, "cue", "initial", origin)
            c1 = agent_state(ev, "cue", "final", origin)
            nxt = next_event_after(sysm, "cue", ev)
            assert nxt.event_type == ET.SLIDING_ROLLING, nxt
            rv = agent_state(nxt, "cue", "initial", origin)
            rest = to_local(sysm.balls["cue"].state.rvw, origin)
            later = [e for e in events_of(sysm, "cue") if e.time > ev.time and e.event_type.is_collision()]
            out.append({
                "v": v, "k": k,
                "incident_speed_at_contact": r(np.linalg.norm(c0[1]), 9),
                "incident_k_at_contact": r(spin_k(c0)[0], 9),
                "draw_distance": r(-(rest[0][0] - c1[0][0]), 6),
                "return_speed_when_rolling": r(-rv[1][0], 6),
                "distance_back_when_rolling": r(-(rv[0][0] - c1[0][0]), 6),
                "time_to_roll_after_contact": r(nxt.time - ev.time, 7),
                "later_collisions": len(later),
            })
            # closed forms with pooltool's equations: after a frictionless elastic full-ball
            # hit the cue ball has v=0 and R*w = k*v (backspin). Sliding: relative speed
            # u0 = |k| v decays at (7/2) u_s g; final rolling speed 2/7*u0 backwards,
            # slide distance = (2/7 u0) * t/2 ... computed explicitly:
            g, us, ur = P["g"], P["u_s"], P["u_r"]
            u0 = -k * v
            ts = 2 * u0 / (7 * us * g)
            ds = 0.5 * us * g * ts**2  # ball accelerates from 0 backwards at u_s g
            vr = 2 / 7 * u0
            out[-1]["closed_form_frictionless_elastic"] = {
                "return_speed_when_rolling": r(vr, 6),
                "draw_distance": r(ds + vr**2 / (2 * ur * g), 6),
            }
    return out


# ----------------------------------------------------------------------------- main
HOW = {
    "A": (
        "Pocketless pooltool BILLIARD table (BilliardTableSpecs l=w=200 m, "
        "cushion_height=1.4R). Ball centre placed R+1e-6 m from linear cushion '18' "
        "(the line y=0), velocity v*(cos a, -sin a, 0), spin set directly (no cue "
        "strike). Cushion frame = table frame: x along the cushion in the direction of "
        "travel, y away from the cushion into the table, z up. Incident state = "
        "Event.agents[0].initial of the first BALL_LINEAR_CUSHION event (state at "
        "contact, before resolution), post-impact state = Event.agents[0].final "
        "(immediately after the Han 2005 impulse, before any cloth sliding). "
        "speed_ratio = |v_out|/|v_in at contact|; rebound_angle_from_cushion = "
        "atan2(v_out_y, v_out_x) in degrees (0..180; >90 means it came back against "
        "its direction of travel). v_out [m/s] and w_out [rad/s] are full vectors in "
        "the cushion frame; R_w_out_over_v_in = R*w_out/|v_in|. 'after_slide' is the "
        "state at the ball's next SLIDING_ROLLING transition (if it is the next "
        "event): speed ratio and angle from the cushion once it rolls in a straight "
        "line. Running side = w_z < 0 in this geometry (ball travelling +x with the "
        "cushion on its right): the contact point slips backwards on the rail so rail "
        "friction drives the ball forward; check side = w_z > 0."
    ),
    "B": (
        "Single ball, velocity v0 along a fixed direction (31.7 deg to the table x axis, "
        "see setup.frame_rotation; all numbers are along/across that direction), spin set directly (stun: w=0; rolling: "
        "R*w=v), on a 200 m x 200 m pocketless table (no collisions). time_to_roll = "
        "time of the SLIDING_ROLLING event, distance_to_roll and speed_at_roll from "
        "the ball state at that event, distance_to_rest = x at the end of the "
        "simulation minus start x. closed_form: t=2v0/(7 u_s g), d=12v0^2/(49 u_s g), "
        "v=5v0/7, total = d + (5v0/7)^2/(2 u_r g); rolling: v0^2/(2 u_r g)."
    ),
    "C": (
        "Cue ball moving +x with the prescribed state, placed 1e-6 m (along x) before "
        "contact with a stationary object ball, such that the line of centres at "
        "contact makes the cut angle with +x. Line of centres n from the two balls' "
        "positions in Event.agents[*].final of the BALL_BALL event; throw_deg = signed "
        "angle from n to the object ball's velocity just after contact, positive "
        "towards the cue ball's incoming direction. pooltool 0.3.3's only ball-ball "
        "model is FRICTIONLESS_ELASTIC, so the throw is identically 0 (to round-off)."
    ),
    "D": (
        "(i) same setup as C with stun cue ball at 1 m/s: separation_angle_deg = angle "
        "between cue-ball and object-ball velocities in Event.agents[*].final of the "
        "BALL_BALL event. (ii) rolling cue ball (R*w=v) at 1 m/s: final_deflection_deg "
        "= angle between the cue ball's velocity at its next SLIDING_ROLLING "
        "transition (when it has finished curving) and its original direction (+x)."
    ),
    "E": (
        "Full-ball hit (cut 0): cue ball starts 1e-6 m before contact with the "
        "prescribed state (v, R*w = k*v about the horizontal axis, k<0 = backspin). "
        "draw_distance = (cue-ball centre x at contact, Event.agents[cue].final of the "
        "BALL_BALL event) minus (x at rest at end of simulation); positive = came back. "
        "It is measured from the cue-ball CENTRE at contact (the ball-ball contact "
        "point itself is R further forward). return_speed_when_rolling = backwards "
        "speed at the cue ball's next SLIDING_ROLLING transition."
    ),
}


def main():
    import pooltool.physics.evolve as ev_mod  # noqa: F401  (documented in meta)

    results = {}
    for name, P in PARAM_SETS.items():
        print(f"[{name}] A", flush=True)
        A = block_A(P)
        print(f"[{name}] B", flush=True)
        B = block_B(P)
        print(f"[{name}] C", flush=True)
        C = block_C(P)
        print(f"[{name}] D", flush=True)
        D = block_D(P)
        print(f"[{name}] E", flush=True)
        E = block_E(P)
        results[name] = {"A_cushion": A, "B_slide_roll": B, "C_throw": C,
                         "D_30_90_rules": D, "E_draw": E}

    file_cfg = None
    try:
        from pooltool.physics.resolve.resolver import RESOLVER_CONFIG_PATH
        if RESOLVER_CONFIG_PATH.exists():
            file_cfg = RESOLVER_CONFIG_PATH.read_text()
    except Exception:  # pragma: no cover
        pass

    meta = {
        "pooltool_version": pt.__version__,
        "pypi_package": "pooltool-billiards==0.3.3",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "platform": platform.platform(),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "script": str(Path(__file__).resolve()),
        "parameters": {
            name: {**P, "u_sp (= u_sp_proportionality*R)": P["u_sp_proportionality"] * R,
                   "ball_ball_restitution": "not settable in pooltool 0.3.3 (frictionless, perfectly elastic: e=1)"}
            for name, P in PARAM_SETS.items()
        },
        "parameter_names_in_pooltool": {
            "m, R, g, u_s, u_r, u_sp_proportionality, e_c, f_c":
                "pooltool.objects.BallParams fields (per ball; e_c and f_c are the "
                "ball-cushion restitution and friction used by the Han 2005 model); "
                "BallParams.u_sp = u_sp_proportionality * R",
            "cushion_height":
                "pooltool.objects.table.specs.BilliardTableSpecs.cushion_height -> z of "
                "LinearCushionSegment.p1/p2 -> LinearCushionSegment.height, passed as h "
                "to han2005(); contact angle theta_a = asin(h/R - 1) = 23.578 deg for h=1.4R",
            "ball-ball restitution/friction": "none: BallBallModel.FRICTIONLESS_ELASTIC has no parameters",
        },
        "models": {
            "resolver_config": {
                "ball_ball": str(RESOLVER_CONFIG.ball_ball),
                "ball_linear_cushion": str(RESOLVER_CONFIG.ball_linear_cushion),
                "ball_circular_cushion": str(RESOLVER_CONFIG.ball_circular_cushion),
                "ball_pocket": str(RESOLVER_CONFIG.ball_pocket),
                "stick_ball": str(RESOLVER_CONFIG.stick_ball) + " (not used: states set directly)",
                "stick_ball_params": dict(RESOLVER_CONFIG.stick_ball_params),
                "transition": str(RESOLVER_CONFIG.transition),
            },
            "resolver_classes": {
                "ball_ball": type(ENGINE.resolver.ball_ball).__module__ + "." + type(ENGINE.resolver.ball_ball).__name__,
                "ball_linear_cushion": type(ENGINE.resolver.ball_linear_cushion).__module__ + "." + type(ENGINE.resolver.ball_linear_cushion).__name__,
            },
            "notes": [
                "These are exactly the defaults of pooltool 0.3.3 (ResolverConfig.default()); "
                "the engine is built explicitly from them so ~/.config/pooltool/physics/resolver.yaml cannot interfere.",
                "Ball-cushion: Han 2005 (han2005() in physics/resolve/ball_cushion/han_2005/model.py); "
                "restitution e_c and friction f_c are constants (get_ball_cushion_restitution/_friction return e_c, f_c). "
                "The vertical impulse PZ is not applied to the velocity (v_z stays 0) and the ball is set to 'sliding' afterwards.",
                "Ball-ball: FRICTIONLESS_ELASTIC: frictionless, instantaneous, perfectly elastic (e=1), equal masses; "
                "angular velocities are left unchanged. Hence zero throw and no 0.95 restitution.",
                "Cloth motion (hard-coded in pooltool.physics.evolve): sliding friction u_s*g along the contact-point slip, "
                "rolling deceleration u_r*g, spin (w_z) decay 5*u_sp*g/(2R) with u_sp = u_sp_proportionality*R.",
                "Event detection: pt.simulate(..., quartic_solver=HYBRID) default.",
            ],
            "resolver_yaml_on_this_machine": file_cfg,
        },
        "setup": {
            "table": "BilliardTableSpecs(l=200, w=200, cushion_height=1.4R), no pockets",
            "gap_before_contact_m": GAP,
            "frame_rotation": "Blocks B-E are simulated with the whole scenario rotated by 31.7 deg about z and "
                              "rotated back for measurement, because pooltool 0.3.3's ball/linear-cushion "
                              "collision-time solver raises ZeroDivisionError when a ball's velocity has an "
                              "exactly zero component perpendicular to a cushion (A=B=0 in its quadratic). "
                              "Block A does not need this (cos(90 deg) is not exactly 0 in floating point).",
            "spin_convention": "k = R*w_perp/|v| with w_perp along z_hat x v_hat (k=1 natural roll, k<0 backspin); side = R*w_z/|v|",
        },
        "how_measured": HOW,
        "known_issues": [
            "pooltool 0.3.3's han2005() contains errors that upstream fixed after 0.3.3 (ekiefl/pooltool PR #247 "
            "'Fix han_2005 Ball-Cushion Model', merged Dec 2025: the slip/stick boundary inequality lacked a mu, and "
            "theta_0 (used as phi = direction of the ball's velocity in the cushion frame) was misinterpreted). "
            "Visible consequences here: in the 'forward_slide' branch (see A.*.han_branch) the impulse depends only "
            "on the normal velocity and the incidence direction, not on spin, so at shallow incidence all spin cases "
            "without running side give identical numbers, and the tangential friction impulse points along the "
            "direction of travel, giving speed ratios > 1 (e.g. 1.02 at alpha = 5 deg). These are pooltool 0.3.3's "
            "numbers as produced, not a physically validated reference.",
            "Han 2005 in pooltool is linear in the incident state (constant e_c, f_c), so rebound ratios do not "
            "depend on incident speed (A.square_on_rolling_vs_speed is constant).",
            "A.*.after_slide angles < 0 (e.g. topspin2 at alpha = 5) mean the ball curves back into the cushion "
            "after the impact; the first impact's numbers are unaffected.",
        ],
        "not_measurable": [
            "Ball-ball restitution 0.95 and ball-ball friction: pooltool 0.3.3 has only the frictionless elastic "
            "ball-ball model, so block C throw is 0 by construction and the requested restitution could not be applied "
            "(object-ball speed ratios reflect e=1).",
        ],
    }

    OUT.write_text(json.dumps({"meta": meta, **results}, indent=1))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
