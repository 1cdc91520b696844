"""Recordings: a document slides or is put into view, moves a little, settles and is held still."""

import math

import numpy as np

import camera as C
import objects as O
import scene as SC
import stills as ST
import surfaces as S

FPS = 15
EXPOSURE_S = 1.0 / 40
GROUPS = [("TD1", "card", "back"), ("TD2", "card", "data"), ("TD3", "loose", "data"), ("TD3", "booklet", "data")]
PER_GROUP = 6


def plan(seed=777):
    rng = np.random.default_rng(seed)
    out = []
    for cls, layout, side in GROUPS:
        kinds = list(S.KINDS)
        rng.shuffle(kinds)
        for i in range(PER_GROUP):
            out.append(dict(name="%s-%s-%02d" % (cls.lower(), layout, i + 1), cls=cls, layout=layout, side=side,
                            kind=kinds[i % len(kinds)], seed=int(rng.integers(1 << 30)),
                            duration=float(rng.uniform(4.0, 6.5)),
                            entry=["slide", "slide", "place", "slide", "place", "place"][i],
                            hand_leaves=i % 2 == 0, upside=i == 3))
    return out


def smooth(t):
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


class Track:
    """Pose parameters over time (piecewise smooth between keyframes)."""

    def __init__(self, keys):
        self.keys = keys  # list of (time, dict(rot, tilt, axis, cx, cy, lift))

    def at(self, t):
        ks = self.keys
        if t <= ks[0][0]:
            return dict(ks[0][1])
        for (t0, a), (t1, b) in zip(ks, ks[1:]):
            if t <= t1:
                u = smooth((t - t0) / max(1e-6, t1 - t0))
                return {k: a[k] + (b[k] - a[k]) * u for k in a}
        return dict(ks[-1][1])


def build(rp):
    rng = np.random.default_rng(rp["seed"])
    W, H = 1280, 720
    thing, _ = ST.make_thing(rng, rp["cls"], rp["layout"], rp["side"])
    name, _, _ = ST.pick_surface(rng, rp["kind"])
    st0 = ST.stations()[0]
    sc = SC.Scene(C.Camera.get(st0, W, H), name, 0.0, [0.0, 0.0], ST.make_light(rng, st0), int(rng.integers(75, 93)))
    # the settled pose: a ready frame on a station where the class fits
    for _ in range(50):
        lab = ST.place_main(rng, sc, thing, "ready", rp["upside"], rp["layout"], False)
        if lab == "ready" and -sc.main.world(thing.support_points())[:, 2].min() < 2.0:
            break
    sc.light = ST.make_light(rng, sc.cam.st)
    ST.orient_surface(rng, sc)
    st = sc.cam.st
    final = dict(sc.pose_params)
    dur = rp["duration"]
    nfr = int(round(dur * FPS))
    t_in0 = rng.uniform(0.0, 0.6)
    t_in1 = t_in0 + rng.uniform(1.2, 2.2)
    t_adj = t_in1 + rng.uniform(0.5, 1.0)
    t_hold = t_adj + rng.uniform(0.2, 0.5)
    ang = rng.uniform(0, 2 * math.pi)
    start = dict(final)
    if rp["entry"] == "slide":
        dist = st.wp * rng.uniform(0.75, 1.0)
        start.update(cx=final["cx"] + dist * math.cos(ang), cy=final["cy"] + dist * math.sin(ang) * 0.6,
                     rot=final["rot"] + rng.uniform(-40, 40))
    else:
        start.update(cx=final["cx"] + st.wp * 0.45 * math.cos(ang), cy=final["cy"] + st.wp * 0.3 * math.sin(ang),
                     lift=st.hc * rng.uniform(0.25, 0.45), tilt=rng.uniform(15, 30), axis=rng.uniform(0, 360),
                     rot=final["rot"] + rng.uniform(-30, 30))
    mid = dict(final)
    mid.update(cx=final["cx"] + rng.uniform(-12, 12), cy=final["cy"] + rng.uniform(-10, 10),
               rot=final["rot"] + rng.uniform(-8, 8))
    track = Track([(t_in0, start), (t_in1, mid), (t_adj, final)])
    hand = None
    ST.add_hand(rng, sc, force=True)
    hand = sc.hand
    sc.hand = None
    t_release = t_hold + rng.uniform(0.2, 0.6) if rp["hand_leaves"] else None
    glare = None
    if rng.random() < 0.25:
        ST.add_glare(rng, sc, over=False)
        glare = sc.glare
    # jitter during the hold: a random walk of < 0.3 mm
    amp = rng.uniform(0.05, 0.22)
    jit = np.cumsum(rng.normal(0, 0.05, (nfr + 2, 2)), 0)
    jit = jit - jit.mean(0)
    jit = jit / max(1e-6, np.abs(jit).max()) * amp
    return dict(scene=sc, thing=thing, track=track, hand=hand, t_release=t_release, t_hold=t_hold, glare=glare,
                nfr=nfr, jit=jit, surface_kind=rp["kind"])


def _pose_from(thing, p):
    return O.pose(thing, p["rot"], p["tilt"], p["axis"], p["cx"], p["cy"], p["lift"])


def frame_state(rec, i):
    """(R, T, hand spec, motion_mm, motion angle (image), glare) of frame i."""
    t = i / FPS
    sc = rec["scene"]
    thing = rec["thing"]

    def pose_at(tt, jidx):
        p = rec["track"].at(tt)
        if tt >= rec["t_hold"]:
            p["cx"] += rec["jit"][jidx][0]
            p["cy"] += rec["jit"][jidx][1]
        return _pose_from(thing, p)

    R, T = pose_at(t, i)
    Ra, Ta = pose_at(t - EXPOSURE_S / 2, i)
    Rb, Tb = pose_at(t + EXPOSURE_S / 2, i if t + EXPOSURE_S / 2 < rec["t_hold"] or t >= rec["t_hold"] else i)
    w, h = thing.page_size()
    pa = SC.Placed(thing, Ra, Ta).page_world([w / 2], [h / 2])[0]
    pb = SC.Placed(thing, Rb, Tb).page_world([w / 2], [h / 2])[0]
    motion = float(np.linalg.norm(pb - pa))
    ia, ib = sc.cam.project(np.stack([pa, pb]))
    mang = math.atan2(ib[1] - ia[1], ib[0] - ia[0])
    hand = None
    if rec["hand"] is not None:
        hand = dict(rec["hand"])
        if rec["t_release"] is not None and t > rec["t_release"]:
            retreat = (t - rec["t_release"]) * 260.0
            if retreat > 500:
                hand = None
            else:
                hand["retreat"] = retreat
    return R, T, hand, motion, mang


def settle_distance(rec, R, T):
    """How far (mm) the page centre is from where it finally rests."""
    thing = rec["thing"]
    w, h = thing.page_size()
    Rf, Tf = _pose_from(thing, rec["track"].keys[-1][1])
    a = SC.Placed(thing, R, T).page_world([w / 2], [h / 2])[0]
    b = SC.Placed(thing, Rf, Tf).page_world([w / 2], [h / 2])[0]
    return float(np.linalg.norm(a - b))
