"""The stills: what each one shows, sampled so that its label is the one planned."""

import math

import numpy as np

import camera as C
import docs
import objects as O
import scene as SC
import surfaces as S
from identity import Holder

GUIDANCE = ["ready", "tooClose", "moveCloser", "centerId", "tilt", "holdStraight", "holdStill"]
# planned share of each label in every class (at least 35 % ready)
LABEL_SHARE = {"ready": 0.42, "tooClose": 0.09, "moveCloser": 0.09, "centerId": 0.09, "tilt": 0.11,
               "holdStraight": 0.10, "holdStill": 0.10}
MAIN_COUNT = 165
SPECIAL = {"visa_decoy": 25, "two_documents": 20, "text_page": 15, "partial_mrz": 25, "empty": 15,
           "non_document": 20, "upside_down_booklet": 20}

_designs = None
_stations = None


def designs():
    global _designs
    if _designs is None:
        _designs = docs.designs()
    return _designs


def stations():
    global _stations
    if _stations is None:
        _stations = C.make_stations()
    return _stations


def _alloc(n, shares, rng):
    keys = list(shares)
    counts = {k: int(math.floor(n * shares[k])) for k in keys}
    rest = n - sum(counts.values())
    for k in keys[:rest]:
        counts[k] += 1
    out = [k for k in keys for _ in range(counts[k])]
    rng.shuffle(out)
    return out


def _kinds(n, rng):
    out = [S.KINDS[i % len(S.KINDS)] for i in range(n)]
    rng.shuffle(out)
    return out


def plan(seed=20240611):
    """The list of stills to make (deterministic)."""
    rng = np.random.default_rng(seed)
    specs = []
    groups = [("TD1", "card"), ("TD2", "card"), ("TD3", "loose"), ("TD3", "booklet")]
    for cls, layout in groups:
        labels = _alloc(MAIN_COUNT, LABEL_SHARE, rng)
        kinds = _kinds(MAIN_COUNT, rng)
        for i in range(MAIN_COUNT):
            side = "data"
            if cls == "TD1":
                side = "front" if i % 5 < 2 else "back"
            specs.append(dict(case="normal", cls=cls, layout=layout, side=side, target=labels[i],
                              kind=kinds[i], upside=bool(rng.random() < 0.15)))
    for case, n in SPECIAL.items():
        kinds = _kinds(n, rng)
        for i in range(n):
            sp = dict(case=case, kind=kinds[i], upside=bool(rng.random() < 0.15), target=None,
                      cls=None, layout=None, side=None)
            if case in ("visa_decoy", "upside_down_booklet"):
                sp.update(cls="TD3", layout="booklet", side="data",
                          target=["ready", "ready", "ready", "tilt", "holdStraight", "centerId", "tooClose"][i % 7])
                if case == "upside_down_booklet":
                    sp.update(case="normal", upside=True)
            elif case in ("two_documents", "partial_mrz"):
                g = groups[i % 4] if case == "partial_mrz" else groups[1 + i % 3]
                sp.update(cls=g[0], layout=g[1], side="back" if g[0] == "TD1" else "data",
                          target="ready" if case == "two_documents" else None)
            specs.append(sp)
    order = rng.permutation(len(specs))
    specs = [specs[i] for i in order]
    for i, sp in enumerate(specs):
        sp["index"] = i
        sp["seed"] = int(rng.integers(1 << 30))
        sp["hd"] = bool(rng.random() < 0.2)
    return specs


# ---------------------------------------------------------------- building blocks

def make_light(rng, st):
    fh = st.wp * 9 / 16
    return {
        "exposure": float(rng.uniform(0.8, 1.18)),
        "wb": [float(rng.uniform(0.9, 1.1)), 1.0, float(rng.uniform(0.88, 1.1))],
        "vignette": float(st.vignette * rng.uniform(0.8, 1.2)),
        "hotspot": float(rng.uniform(0.0, 0.12)),
        "hot_xy": [float(0.5 + st.led[0] / st.wp * 0.5 + rng.normal(0, 0.05)),
                   float(0.5 + st.led[1] / fh * 0.5 + rng.normal(0, 0.05))],
        "hot_sigma": float(rng.uniform(0.25, 0.5)),
        "ramp": [float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.06, 0.06))],
        "read_noise": float(rng.uniform(0.004, 0.014)),
        "shot_noise": float(rng.uniform(0.006, 0.02)),
        "shadow": float(rng.uniform(0.25, 0.5)),
    }


def pick_surface(rng, kind):
    names = S.names_of_kind(kind)
    return names[int(rng.integers(len(names)))], 0.0, [0.0, 0.0]


def orient_surface(rng, scene):
    """A rotation and shift of the surface texture that still covers the whole canvas."""
    cam = scene.cam
    Hi = np.linalg.inv(cam.platen_homography())
    cc = np.column_stack([cam.border_canvas, np.ones(len(cam.border_canvas))])
    P = (Hi @ cc.T).T
    P = P[:, :2] / P[:, 2:3]
    for k in range(40):
        base = [0, 180, 90, 270][int(rng.integers(4))] if k < 30 else [0, 180][k % 2]
        ang = base + (rng.uniform(-6, 6) if k < 35 else 0.0)
        off = rng.uniform(-15, 15, 2) if k < 35 else np.zeros(2)
        a = math.radians(ang)
        Rm = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        q = (P - off) @ Rm  # inverse rotation
        if (np.abs(q[:, 0]) < S.SURF_W / 2 - 3).all() and (np.abs(q[:, 1]) < S.SURF_H / 2 - 3).all():
            scene.surf_angle, scene.surf_offset = float(ang), [float(off[0]), float(off[1])]
            return
    scene.surf_angle, scene.surf_offset = 0.0, [0.0, 0.0]


def make_thing(rng, cls, layout, side, case=None, visa=False):
    ds = designs()
    design = ds[cls][int(rng.integers(len(ds[cls])))]
    holder = Holder(rng, cls)
    decoy = None
    if layout == "booklet":
        di = docs.render_id(design, holder, "data", rng)
        di.layout = "booklet"
        n_st = int(rng.choice([0, 0, 1, 2, 3]))
        vh = Holder(rng, "MRVA") if visa else None
        ftex, decoy = docs.render_facing(rng, design, vh, n_st, visa_upright=bool(rng.random() < 0.35))
        cover = ["red", "blue", "green", "black"][int(rng.integers(4))]
        thing = O.Booklet(di.texture, ftex, cover, rng, doc=di)
        if decoy is not None:
            thing.decoy_boxes = decoy[1]
            decoy = decoy[0]
    else:
        di = docs.render_id(design, holder, side if cls == "TD1" else "data", rng)
        thing = O.FlatThing(di.texture, 0.76 if layout == "card" else 0.5, doc=di)
    return thing, decoy


def frame_size(hd):
    return (1920, 1080) if hd else (1280, 720)


def _bands_ok(meas, motion):
    """Keeps sampled frames away from every threshold so that labels are decisive."""
    if abs(meas["margin"]) < 0.004:
        return False
    if 0.11 < meas["area"] < 0.13:
        return False
    if 0.165 < meas["centre"] < 0.195:
        return False
    if 13.5 < meas["tilt"] < 16.5:
        return False
    dev = min(abs(meas["rot"]), 180 - abs(meas["rot"]))
    if 10.5 < dev < 13.5:
        return False
    if 0.4 < motion < 0.6:
        return False
    return True


def label_of(scene, meas):
    g = SC.guidance(scene.cam, meas["corners"], meas["area"], meas["tilt"], meas["rot"])
    if g is None:
        g = "holdStill" if scene.motion_mm > SC.MAX_MOTION_MM else "ready"
    return g


def place_main(rng, scene, thing, target, upside, layout, hd, tries=400):
    """Samples station, pose and motion until the frame's label is `target`."""
    W, H = frame_size(hd)
    sts = stations()
    best = None
    for k in range(tries):
        st = sts[int(rng.integers(len(sts)))]
        cam = C.Camera.get(st, W, H)
        wp = st.wp
        rot0 = 180.0 if upside else 0.0
        if target == "holdStraight":
            rot = rot0 + float(rng.choice([-1, 1])) * rng.uniform(15, 75) * (1 if rng.random() < 0.85 else 1.6)
        else:
            rot = rot0 + rng.uniform(-9, 9)
        if target == "tilt":
            tilt = rng.uniform(17, 34)
        else:
            tilt = 0.0 if rng.random() < 0.4 else rng.uniform(0, 12)
        axis = rng.uniform(0, 360)
        lift = 0.0
        p_lift = {"card": 0.35, "loose": 0.2, "booklet": 0.1}[layout]
        if rng.random() < p_lift:
            lift = rng.uniform(5, 0.35 * st.hc if layout != "booklet" else 50)
        if target == "centerId":
            r = rng.uniform(0.2, 0.42) * wp
        elif target == "tooClose":
            r = rng.uniform(0.15, 0.6) * wp
            if rng.random() < 0.3:
                lift = rng.uniform(0.3, 0.6) * st.hc
        else:
            r = rng.uniform(0, 0.12) * wp
        a = rng.uniform(0, 2 * math.pi)
        cx, cy = r * math.cos(a), r * math.sin(a) * 0.7
        if target == "holdStill":
            motion = float(rng.choice([rng.uniform(0.65, 0.9), rng.uniform(1.2, 3.5)]))
        else:
            motion = 0.0 if rng.random() < 0.85 else float(rng.uniform(0.05, 0.35))
        R, T = O.pose(thing, rot, tilt, axis, cx, cy, lift)
        scene.cam = cam
        scene.main = SC.Placed(thing, R, T)
        scene.motion_mm = motion
        scene.motion_angle = float(rng.uniform(0, math.pi))
        meas = SC.measures(scene)
        if not SC._visible(cam, meas["corners"]):
            continue
        lab = label_of(scene, meas)
        params = dict(rot=rot, tilt=tilt, axis=axis, cx=cx, cy=cy, lift=lift)
        if best is None:
            best = (cam, scene.main, motion, scene.motion_angle, params, lab)
        if not _bands_ok(meas, motion):
            continue
        if lab == target:
            scene.pose_params = params
            return lab
    scene.cam, scene.main, scene.motion_mm, scene.motion_angle, scene.pose_params, lab = best
    return lab


def add_hand(rng, scene, avoid_mrz=True, force=False, p=0.25):
    m = scene.main
    w, h = m.thing.page_size()
    booklet = isinstance(m.thing, O.Booklet)
    if not force and rng.random() > p:
        return
    for _ in range(30):
        if booklet:
            side = int(rng.choice([1, 3]))
            t = rng.uniform(0.2, 0.6)
        else:
            side = int(rng.integers(4))
            t = rng.uniform(0.15, 0.85)
        scene.hand = {"side": side, "t": float(t), "depth": float(rng.uniform(5, 15)),
                      "width": float(rng.uniform(15, 19)), "angle": float(rng.uniform(-25, 25)),
                      "mirror": int(rng.integers(2)), "scale": float(rng.uniform(0.9, 1.1)),
                      "thumb_b": float(rng.uniform(-6, 6)), "skin": int(rng.integers(len(SC.SKINS)))}
        doc = m.thing.doc
        if not avoid_mrz or doc.boxes is None or not SC.hand_covers_mrz(scene, doc.boxes, w, h):
            return
    scene.hand = None


def add_glare(rng, scene, over=None, p=0.2):
    m = scene.main
    w, h = m.thing.page_size()
    if over is None and rng.random() > p:
        return
    boxes = m.thing.doc.boxes
    want = over if over is not None else (rng.random() < 0.3)
    for _ in range(60):
        g = {"ru": float(rng.uniform(4, 14)), "rv": float(rng.uniform(3, 10)), "angle": float(rng.uniform(0, math.pi)),
             "peak": float(rng.uniform(0.9, 1.8))}
        if want and boxes is not None:
            b = boxes[int(rng.integers(len(boxes)))]
            g["u"], g["v"] = float((b[0] + b[2]) / 2 + rng.normal(0, 2)), float((b[1] + b[3]) / 2 + rng.normal(0, 1))
        else:
            g["u"], g["v"] = float(rng.uniform(0.1, 0.9) * w), float(rng.uniform(0.1, 0.9) * h)
        scene.glare = g
        if boxes is None:
            return
        over_, mx = SC.glare_over_mrz(scene, boxes)
        if 0.1 < mx < 0.55:
            continue
        if over_ == want or over is None:
            return
    scene.glare = None


def add_defocus(rng, scene, p=0.12):
    if rng.random() < p:
        scene.defocus_mm = float(rng.uniform(0.06, 0.2) if rng.random() < 0.5 else rng.uniform(0.45, 0.9))


def leaflet(rng):
    tex = docs.text_page(rng, float(rng.uniform(95, 150)), float(rng.uniform(130, 210)), ppm=5.0)
    return O.FlatThing(tex, 0.2)


def add_platen_change(rng, scene, force=False, p=0.1):
    if not force and rng.random() > p:
        return False
    st = scene.cam.st
    thing = leaflet(rng)
    R, T = O.pose(thing, rng.uniform(0, 360), 0, 0, rng.uniform(-0.35, 0.35) * st.wp,
                  rng.uniform(-0.2, 0.2) * st.wp, 0.0)
    placed = SC.Placed(thing, R, T)
    if rng.random() < 0.65:
        scene.scene_only.append(placed)
    else:
        scene.platen_only.append(placed)
    return True


def free_spot(rng, scene, thing, avoid, tries=60):
    """A pose for `thing` on the platen, in view, not overlapping the placed things `avoid`."""
    st = scene.cam.st
    for _ in range(tries):
        R, T = O.pose(thing, rng.uniform(0, 360), 0, 0, rng.uniform(-0.45, 0.45) * st.wp,
                      rng.uniform(-0.25, 0.25) * st.wp, 0.0)
        p = SC.Placed(thing, R, T)
        r1 = 0.5 * math.hypot(*thing.page_size()) if not isinstance(thing, O.Booklet) else 110
        ok = True
        for a in avoid:
            r2 = 0.5 * math.hypot(*a.thing.page_size()) if not isinstance(a.thing, O.Booklet) else 110
            if np.linalg.norm(T[:2] - a.T[:2]) < (r1 + r2) * 0.95:
                ok = False
        if ok:
            return p
    return None


# ---------------------------------------------------------------- one still

def _null_scene(rng, sp):
    W, H = frame_size(sp["hd"])
    sts = stations()
    st = sts[int(rng.integers(len(sts)))]
    cam = C.Camera.get(st, W, H)
    name, ang, off = pick_surface(rng, sp["kind"])
    return SC.Scene(cam, name, ang, off, make_light(rng, st), int(rng.integers(70, 96)))


def build_still(sp):
    """Returns (scene, extra ground truth)."""
    rng = np.random.default_rng(sp["seed"])
    case = sp["case"]
    scene = _null_scene(rng, sp)
    extra = {"case": case, "note": None, "decoy_mrz": None, "platen_changed": False}
    if case in ("empty", "text_page", "non_document"):
        if case == "text_page":
            t = docs.text_page(rng, float(rng.choice([148.0, 140.0, 176.0])), float(rng.choice([210.0, 200.0, 250.0])))
            thing = O.FlatThing(t, 0.2)
            extra["design"] = "text-page"
        elif case == "non_document":
            k = int(rng.integers(3))
            if k == 0:
                thing, extra["design"] = O.FlatThing(docs.phone(rng), 8.0), "phone"
            elif k == 1:
                thing, extra["design"] = O.FlatThing(docs.book(rng), 15.0), "book"
            else:
                thing = O.FlatThing(docs.photo_print(rng, S.asset(S.PHOTOS[int(rng.integers(len(S.PHOTOS)))])), 0.3)
                extra["design"] = "photo-print"
        if case != "empty":
            st = scene.cam.st
            R, T = O.pose(thing, rng.uniform(0, 360), rng.uniform(0, 8), rng.uniform(0, 360),
                          rng.uniform(-0.15, 0.15) * st.wp, rng.uniform(-0.1, 0.1) * st.wp, 0.0)
            scene.others.append(SC.Placed(thing, R, T))
            extra["note"] = {"text_page": "a page of printed text, not an identity document",
                             "non_document": "not an identity document: " + extra["design"]}[case]
        else:
            extra["note"] = "empty platen"
        extra["platen_changed"] = add_platen_change(rng, scene, p=0.1 if case != "empty" else 0.0)
        orient_surface(rng, scene)
        return scene, extra

    visa = case == "visa_decoy"
    thing, decoy = make_thing(rng, sp["cls"], sp["layout"], sp["side"], case, visa=visa)
    extra["decoy_mrz"] = decoy
    if case == "partial_mrz":
        variant = sp["index"] % 3
        for attempt in range(40):
            target = "tooClose" if variant == 0 else "ready"
            place_main(rng, scene, thing, target, sp["upside"], sp["layout"], sp["hd"])
            scene.hand, scene.glare = None, None
            if variant == 1:
                for _ in range(40):
                    add_hand(rng, scene, avoid_mrz=False, force=True)
                    if scene.hand is None:
                        continue
                    if SC.hand_covers_mrz(scene, thing.doc.boxes, *thing.page_size()):
                        break
                    if scene.hand["side"] != 2 and sp["layout"] != "booklet":
                        scene.hand["side"] = 2
                        if SC.hand_covers_mrz(scene, thing.doc.boxes, *thing.page_size()):
                            break
            elif variant == 2:
                add_glare(rng, scene, over=True)
            ok, det = SC.readability(scene)
            if not ok and (variant != 0 or not det["inside"]):
                break
        extra["note"] = ["MRZ partly outside the frame", "MRZ covered by a thumb", "MRZ under glare"][variant]
        add_defocus(rng, scene, p=0.0)
        extra["platen_changed"] = add_platen_change(rng, scene)
        orient_surface(rng, scene)
        return scene, extra

    place_main(rng, scene, thing, sp["target"], sp["upside"], sp["layout"], sp["hd"])
    if visa:
        # the decoy is only a decoy when the camera sees it
        for _ in range(60):
            if SC.decoy_visible(scene) >= 0.6:
                break
            place_main(rng, scene, thing, sp["target"], sp["upside"], sp["layout"], sp["hd"])
    # a document held in the air is usually held by a hand; one resting on an edge sometimes
    held = scene.pose_params["lift"] > 0
    tilted = scene.pose_params["tilt"] > 15
    add_hand(rng, scene, p=0.6 if held else (0.35 if tilted else 0.12))
    add_glare(rng, scene)
    add_defocus(rng, scene)
    if case == "two_documents":
        big = thing.doc
        cls2 = "TD1" if big.kind != "TD1" else None
        if big.kind == "TD3" and rng.random() < 0.4:
            cls2 = "TD2"
        side2 = ["front", "back"][int(rng.integers(2))] if cls2 == "TD1" else "data"
        other, _ = make_thing(rng, cls2, "card", side2)
        p = None
        for _ in range(20):
            p = free_spot(rng, scene, other, [scene.main])
            if p is not None:
                break
            place_main(rng, scene, thing, "ready", sp["upside"], sp["layout"], sp["hd"])
        if p is not None:
            scene.others.append(p)
        extra["note"] = "two documents: the labelled one is the larger %s %s; the other is a %s%s" % (
            big.kind, big.layout, cls2, " card (%s side)" % side2 if cls2 == "TD1" else " card")
    if case == "visa_decoy":
        extra["note"] = "the facing page carries an MRV-A visa whose 2 x 44 MRZ is in decoy_mrz"
    extra["platen_changed"] = add_platen_change(rng, scene)
    orient_surface(rng, scene)
    return scene, extra
