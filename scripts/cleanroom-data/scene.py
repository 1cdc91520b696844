"""A scene on the platen, its rendering through the camera, and its ground truth."""

import math

import cv2
import numpy as np

import camera as C
import surfaces as S
from draw import rgb

# ---------------------------------------------------------------- guidance rules (see the doc)
EDGE_FRAC = 0.01
MIN_AREA = 0.12
MAX_CENTRE = 0.18
MAX_TILT = 15.0
MAX_ROT = 12.0
MAX_MOTION_MM = 0.5
# readability
MRZ_MOTION_MAX_MM = 0.4 * 2.54
DEFOCUS_MAX_MM = 0.30
GLARE_MAX = 0.35
MIN_PITCH_PX = 6.0

SKINS = ["#e9c2a6", "#d8a584", "#b97f5a", "#8d5a3b", "#6a4029", "#f0cdb4"]


class Placed:
    def __init__(self, thing, R, T):
        self.thing, self.R, self.T = thing, R, T

    def world(self, local):
        return np.asarray(local) @ self.R.T + self.T

    def page_world(self, u, v):
        return self.world(self.thing.page_point(u, v))


class Scene:
    def __init__(self, cam, surface, surf_angle, surf_offset, light, jpeg_q):
        self.cam = cam
        self.surface, self.surf_angle, self.surf_offset = surface, surf_angle, surf_offset
        self.light, self.jpeg_q = light, jpeg_q
        self.main = None          # Placed labelled document (or None)
        self.others = []          # other things in the scene (second document, text page, phone...)
        self.scene_only = []      # things on the platen that the empty-platen image lacks
        self.platen_only = []     # things in the empty-platen image that the scene lacks
        self.hand = None
        self.glare = None
        self.defocus_mm = 0.0
        self.motion_mm = 0.0
        self.motion_angle = 0.0
        self.main_hidden = False


# ---------------------------------------------------------------- geometry helpers

def page_jacobian(cam, placed, u, v):
    """Canvas position of page point (u, v) and d(canvas)/d(u, v) (2x2)."""
    p = cam.project(placed.page_world([u, u + 1.0, u], [v, v, v + 1.0]))
    return p[0], np.column_stack([p[1] - p[0], p[2] - p[0]])


def ppm_at(cam, placed):
    w, h = placed.thing.page_size()
    c, J = page_jacobian(cam, placed, w / 2, h / 2)
    return math.sqrt(abs(np.linalg.det(J)))


def _chaikin(p, n=2):
    for _ in range(n):
        q = np.roll(p, -1, axis=0)
        p = np.stack([0.75 * p + 0.25 * q, 0.25 * p + 0.75 * q], 1).reshape(-1, 2)
    return p


HAND_BACK = np.array([(0, -36), (2, -20), (0, -4), (2, 12), (0, 28), (8, 37), (30, 39), (60, 33), (92, 28),
                      (92, -28), (60, -36), (30, -45), (10, -45)], float)


def hand_polys(spec, w, h):
    """The hand in page mm: (hand back, thumb, nail, finger creases, wrist centre, outward direction).
    a runs away from the held edge, b along it."""
    side, t, depth, wt, ang = (spec[k] for k in ("side", "t", "depth", "width", "angle"))
    if side == 0:
        E, n = np.array([t * w, 0.0]), np.array([0.0, 1.0])
    elif side == 1:
        E, n = np.array([w, t * h]), np.array([-1.0, 0.0])
    elif side == 2:
        E, n = np.array([t * w, h]), np.array([0.0, -1.0])
    else:
        E, n = np.array([0.0, t * h]), np.array([1.0, 0.0])
    E = E - n * spec.get("retreat", 0.0)
    c, s_ = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    out = -n
    out = np.array([c * out[0] - s_ * out[1], s_ * out[0] + c * out[1]])
    tang = np.array([-out[1], out[0]]) * (1 if spec.get("mirror", 0) == 0 else -1)

    def ab(pts):
        pts = np.asarray(pts, float)
        return E + pts[:, :1] * out[None, :] + pts[:, 1:2] * tang[None, :]

    back = ab(_chaikin(HAND_BACK * [1.0, spec.get("scale", 1.0)], 3))
    # thumb: from the side of the hand over the edge onto the page
    tb, tt = np.array([14.0, -38.0]), np.array([-depth, -30.0 + spec.get("thumb_b", 0.0)])
    d = (tt - tb) / np.linalg.norm(tt - tb)
    dn = np.array([-d[1], d[0]])
    k = np.linspace(0, math.pi, 10)
    arc = [tt + dn * (wt / 2) * math.cos(x) + d * (wt / 2) * math.sin(x) * 0.9 for x in k]
    thumb = np.array([tb + dn * wt * 0.65] + arc + [tb - dn * wt * 0.65])
    thumb = ab(_chaikin(thumb, 1))
    nc = tt - d * wt * 0.12
    a = np.linspace(0, 2 * math.pi, 16)
    nail = ab(np.array([nc + d * wt * 0.26 * math.cos(x) + dn * wt * 0.3 * math.sin(x) for x in a]))
    creases = [ab(np.array([[1.5, b], [11.0, b * 1.03]])) for b in (-20.0, -4.0, 12.0)]
    wrist = ab(np.array([[92.0, 0.0]]))[0]
    return back, thumb, nail, creases, wrist, out


def arm_world(placed, back, wrist, outd):
    """The forearm: from the wrist, level with it, away from the page for 450 mm."""
    wl = placed.page_world([wrist[0]], [wrist[1]])[0]
    p2 = placed.page_world([wrist[0] + outd[0]], [wrist[1] + outd[1]])[0]
    d = p2 - wl
    d[2] = 0.0
    d /= max(1e-6, np.linalg.norm(d))
    nrm = np.array([-d[1], d[0], 0.0])
    wl = wl.copy()
    wl[2] -= 3.0
    return np.array([wl + nrm * 27 - d * 5, wl + d * 450 + nrm * 38, wl + d * 450 - nrm * 38, wl - nrm * 27 - d * 5])


def to_canvas(cam, placed, poly, dz=0.0):
    loc = placed.thing.page_point(poly[:, 0], poly[:, 1])
    loc[:, 2] += dz
    return cam.project(placed.world(loc))


def glare_intensity(g, u, v):
    c, s = math.cos(g["angle"]), math.sin(g["angle"])
    du, dv = u - g["u"], v - g["v"]
    a = (c * du + s * dv) / g["ru"]
    b = (-s * du + c * dv) / g["rv"]
    return g["peak"] * np.exp(-2.0 * (a * a + b * b))


# ---------------------------------------------------------------- rendering

def _shadow(cam, canvas, placed, strength, lift_extra=0.0, polys_local=None):
    L = cam.st.led
    polys = []
    for loc in (polys_local if polys_local is not None else placed.thing.outline()):
        P = placed.world(loc)
        P[:, 2] -= lift_extra
        P[:, 2] = np.maximum(P[:, 2], L[2] + 0.25 * abs(L[2]))  # nothing is above the LED
        k = (0 - L[2]) / (P[:, 2] - L[2])
        Q = L + (P - L) * k[:, None]
        polys.append(cam.project(Q))
    h = max(0.3, -placed.world(placed.thing.support_points())[:, 2].min() + lift_extra)
    blur = 0.6 + 0.08 * h * cam.ppm_platen
    C.shade_region(canvas, polys, strength, blur)
    # contact darkening right along the edges
    cont = [cam.project(placed.world(loc)) for loc in placed.thing.outline()]
    C.shade_region(canvas, cont, 0.12, 0.8 * cam.ppm_platen)


def _layer_for(cam, placed, extra_pts=None, margin=2):
    quads = placed.thing.quads(placed.R, placed.T)
    pts = np.vstack([cam.project(q.world) for q in quads] + ([extra_pts] if extra_pts is not None else []))
    x0, y0, x1, y1 = C.bbox_of(pts, cam.CW, cam.CH, margin)
    if x1 <= x0 or y1 <= y0:
        return None, quads
    return C.Layer(x0, y0, x1, y1), quads


def _draw_simple(cam, canvas, placed, shadow=0.3):
    _shadow(cam, canvas, placed, shadow)
    layer, quads = _layer_for(cam, placed)
    if layer is None:
        return
    for q in quads:
        C.draw_quad(cam, layer, q)
    C.composite(canvas, layer)


def _draw_hand_part(cam, layer, polys_canvas, skin, shade=True):
    origin = np.array([layer.x0, layer.y0])
    pts = np.vstack(polys_canvas)
    bx0, by0, bx1, by1 = C.bbox_of(pts, cam.CW, cam.CH, 4)
    bx0, by0 = max(bx0, layer.x0), max(by0, layer.y0)
    bx1, by1 = min(bx1, layer.x1), min(by1, layer.y1)
    if bx1 <= bx0 or by1 <= by0:
        return
    m = C.poly_mask((by1 - by0, bx1 - bx0), polys_canvas, np.array([bx0, by0]))
    if m.max() <= 0:
        return
    col = np.empty(m.shape + (3,), np.float32)
    col[:] = skin
    if shade:
        soft = C.soft_blur(m, max(2.0, 0.012 * max(m.shape)))
        col *= (0.7 + 0.35 * np.sqrt(np.clip(soft, 0, 1)))[..., None]
    layer.over(bx0, by0, col, m)


def render(scene, rng, platen=False, cache=None):
    """The camera frame (uint8 RGB) of the scene, or of its empty platen. `cache` (a dict) keeps
    the warped surface and the lighting between calls for the same camera, surface and light."""
    cam = scene.cam
    cache = {} if cache is None else cache
    if "bg" not in cache:
        tex = S.surface(scene.surface)
        bg = C.warp_surface(cam, tex, scene.surf_angle, scene.surf_offset)
        cache["bg"] = cv2.multiply(bg, (1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0, 0), dtype=cv2.CV_32F)
        cache["g3"] = C.gain3(cam, scene.light)
    canvas = cache["bg"].copy()
    for p in (scene.platen_only if platen else scene.scene_only):
        _draw_simple(cam, canvas, p, shadow=0.15)
    if not platen:
        for p in scene.others:
            _draw_simple(cam, canvas, p, shadow=0.35)
        if scene.main is not None and not scene.main_hidden:
            _render_main(scene, canvas, rng)
    return C.finish(cam, canvas, scene.light, rng, cache["g3"])


def _render_main(scene, canvas, rng):
    cam, m = scene.cam, scene.main
    w, h = m.thing.page_size()
    ppm = ppm_at(cam, m)
    hand_under = thumb = nail = creases = None
    extra = []
    if scene.hand is not None:
        back, th, nl, cr, wrist, outd = hand_polys(scene.hand, w, h)
        arm = arm_world(m, back, wrist, outd)
        hand_under = [to_canvas(cam, m, back, dz=-3.0), cam.project(arm)]
        thumb = to_canvas(cam, m, th, dz=-3.0)
        nail = to_canvas(cam, m, nl, dz=-4.0)
        creases = [to_canvas(cam, m, c, dz=-4.0) for c in cr]
        extra = hand_under + [thumb]
    # shadows on the platen: the document, then the hand
    _shadow(cam, canvas, m, scene.light.get("shadow", 0.35))
    if scene.hand is not None:
        loc_back = m.thing.page_point(back[:, 0], back[:, 1])
        loc_th = m.thing.page_point(th[:, 0], th[:, 1])
        loc_arm = (arm - m.T) @ m.R
        _shadow(cam, canvas, m, 0.3, lift_extra=20.0, polys_local=[loc_back, loc_th, loc_arm])
    blur_margin = int(3 * scene.defocus_mm * ppm + scene.motion_mm * ppm) + 3
    layer, quads = _layer_for(cam, m, np.vstack(extra) if extra else None, blur_margin)
    if layer is None:
        return
    skin = rgb(SKINS[scene.hand["skin"]]) if scene.hand is not None else None
    if hand_under is not None:
        _draw_hand_part(cam, layer, hand_under, skin)
    for q in quads:
        C.draw_quad(cam, layer, q)
    if thumb is not None:
        # the thumb's own shadow on the page, then the thumb
        off = np.array([0.8, 1.2]) * ppm
        origin = np.array([layer.x0, layer.y0])
        bx0, by0, bx1, by1 = C.bbox_of(thumb + off, cam.CW, cam.CH, int(3 * ppm) + 3)
        bx0, by0 = max(bx0, layer.x0), max(by0, layer.y0)
        bx1, by1 = min(bx1, layer.x1), min(by1, layer.y1)
        if bx1 > bx0 and by1 > by0:
            sm = C.poly_mask((by1 - by0, bx1 - bx0), [thumb + off], np.array([bx0, by0]))
            sm = C.soft_blur(sm, max(1.0, 0.8 * ppm))
            layer.rgb[by0 - layer.y0:by1 - layer.y0, bx0 - layer.x0:bx1 - layer.x0] *= (1 - 0.35 * sm)[..., None]
        _draw_hand_part(cam, layer, [thumb], skin)
        for c in creases:
            bx0, by0, bx1, by1 = C.bbox_of(c, cam.CW, cam.CH, int(2 * ppm) + 3)
            bx0, by0 = max(bx0, layer.x0), max(by0, layer.y0)
            bx1, by1 = min(bx1, layer.x1), min(by1, layer.y1)
            if bx1 <= bx0 or by1 <= by0:
                continue
            cm = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
            cv2.polylines(cm, [np.round((c - [bx0, by0]) * 16).astype(np.int32)], False, 255,
                          max(1, int(0.8 * ppm)), cv2.LINE_AA, shift=4)
            cm = cv2.GaussianBlur(cm.astype(np.float32) / 255.0, (0, 0), max(0.8, 0.5 * ppm))
            sub = layer.rgb[by0 - layer.y0:by1 - layer.y0, bx0 - layer.x0:bx1 - layer.x0]
            suba = layer.a[by0 - layer.y0:by1 - layer.y0, bx0 - layer.x0:bx1 - layer.x0]
            sub *= (1 - 0.12 * cm * suba)[..., None]
        bx0, by0, bx1, by1 = C.bbox_of(nail, cam.CW, cam.CH, 2)
        bx0, by0 = max(bx0, layer.x0), max(by0, layer.y0)
        bx1, by1 = min(bx1, layer.x1), min(by1, layer.y1)
        if bx1 > bx0 and by1 > by0:
            nm = C.poly_mask((by1 - by0, bx1 - bx0), [nail], np.array([bx0, by0]))
            ncol = np.empty(nm.shape + (3,), np.float32)
            ncol[:] = np.clip(skin * 1.12 + 0.05, 0, 1)
            layer.over(bx0, by0, ncol, nm * 0.8)
    if scene.glare is not None:
        _add_glare(cam, m, layer, scene.glare)
    C.blur_layer(layer, scene.defocus_mm * ppm, scene.motion_mm * ppm, scene.motion_angle)
    C.composite(canvas, layer)


def _add_glare(cam, placed, layer, g):
    c, J = page_jacobian(cam, placed, g["u"], g["v"])
    r = max(g["ru"], g["rv"]) * 1.6
    Jr = np.abs(J).sum(1) * r
    x0, x1 = int(c[0] - Jr[0]) - 1, int(c[0] + Jr[0]) + 2
    y0, y1 = int(c[1] - Jr[1]) - 1, int(c[1] + Jr[1]) + 2
    x0, y0 = max(x0, layer.x0), max(y0, layer.y0)
    x1, y1 = min(x1, layer.x1), min(y1, layer.y1)
    if x1 <= x0 or y1 <= y0:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    Ji = np.linalg.inv(J)
    du = Ji[0, 0] * (xs - c[0]) + Ji[0, 1] * (ys - c[1]) + g["u"]
    dv = Ji[1, 0] * (xs - c[0]) + Ji[1, 1] * (ys - c[1]) + g["v"]
    gi = glare_intensity(g, du, dv).astype(np.float32)
    sub_a = layer.a[y0 - layer.y0:y1 - layer.y0, x0 - layer.x0:x1 - layer.x0]
    sub = layer.rgb[y0 - layer.y0:y1 - layer.y0, x0 - layer.x0:x1 - layer.x0]
    sub += (gi * sub_a)[..., None] * np.array([1.0, 0.99, 0.96], np.float32)


# ---------------------------------------------------------------- ground truth

def _poly_area(p):
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _visible(cam, corners):
    frame = np.array([[0, 0], [cam.W, 0], [cam.W, cam.H], [0, cam.H]], np.float32)
    quad = corners.astype(np.float32)
    if _poly_area(quad) < 1:
        return False
    # orientation for intersectConvexConvex
    area, _ = cv2.intersectConvexConvex(frame, quad)
    if area <= 0:
        area, _ = cv2.intersectConvexConvex(frame, quad[::-1].copy())
    return area > 0


def hand_covers_mrz(scene, boxes, w, h):
    if scene.hand is None or boxes is None:
        return False
    thumb = hand_polys(scene.hand, w, h)[1]
    s = 4.0
    W, H = int(w * s) + 2, int(h * s) + 2
    m = np.zeros((H, W), np.uint8)
    cv2.fillPoly(m, [np.round(thumb * s).astype(np.int32)], 1)
    bm = np.zeros_like(m)
    for b in boxes:
        bm[int(b[1] * s):int(math.ceil(b[3] * s)), int(b[0] * s):int(math.ceil(b[2] * s))] = 1
    return bool((m & bm).any())


def glare_over_mrz(scene, boxes):
    if scene.glare is None or boxes is None:
        return False, 0.0
    g = scene.glare
    fx = np.array([0.15, 0.5, 0.85])
    u = (boxes[:, 0:1] + (boxes[:, 2:3] - boxes[:, 0:1]) * fx[None, :])
    v = (boxes[:, 1:2] + (boxes[:, 3:4] - boxes[:, 1:2]) * fx[None, :])
    uu = np.repeat(u, 3, axis=1)
    vv = np.tile(v, (1, 3))
    gi = glare_intensity(g, uu, vv)
    mx = float(gi.max())
    return mx > GLARE_MAX, mx


def guidance(cam, corners, area_frac, tilt, rot):
    W, H = cam.W, cam.H
    ex, ey = EDGE_FRAC * W, EDGE_FRAC * H
    if (corners[:, 0] < ex).any() or (corners[:, 0] > W - ex).any() or \
            (corners[:, 1] < ey).any() or (corners[:, 1] > H - ey).any():
        return "tooClose"
    if area_frac < MIN_AREA:
        return "moveCloser"
    c = corners.mean(0)
    if math.hypot(c[0] - W / 2, c[1] - H / 2) > MAX_CENTRE * W:
        return "centerId"
    if tilt > MAX_TILT:
        return "tilt"
    if min(abs(rot), 180 - abs(rot)) > MAX_ROT:
        return "holdStraight"
    return None


def measures(scene):
    """Geometry of the labelled page: corners, tilt, rotation, area, MRZ boxes in the image."""
    cam, m = scene.cam, scene.main
    w, h = m.thing.page_size()
    corners = cam.image_points(m.page_world([0, w, w, 0], [0, 0, h, h]))
    n = m.R @ np.array([0.0, 0.0, 1.0])
    tilt = math.degrees(math.acos(min(1.0, abs(float(n @ cam.st.axis_world())))))
    v = (corners[1] - corners[0]) + (corners[2] - corners[3])
    rot = math.degrees(math.atan2(v[1], v[0]))
    area = _poly_area(corners) / (cam.W * cam.H)
    c = corners.mean(0)
    centre = math.hypot(c[0] - cam.W / 2, c[1] - cam.H / 2) / cam.W
    ex, ey = EDGE_FRAC * cam.W, EDGE_FRAC * cam.H
    margin = min((corners[:, 0] - ex).min() / cam.W, (cam.W - ex - corners[:, 0]).min() / cam.W,
                 (corners[:, 1] - ey).min() / cam.H, (cam.H - ey - corners[:, 1]).min() / cam.H)
    return dict(corners=corners, tilt=tilt, rot=rot, area=area, centre=centre, margin=margin)


def mrz_image_boxes(scene):
    cam, m = scene.cam, scene.main
    b = m.thing.doc.boxes if m.thing.doc is not None else None
    if b is None:
        return None
    us = np.stack([b[:, 0], b[:, 2], b[:, 2], b[:, 0]], 1).ravel()
    vs = np.stack([b[:, 1], b[:, 1], b[:, 3], b[:, 3]], 1).ravel()
    pts = cam.image_points(m.page_world(us, vs))
    return pts.reshape(-1, 4, 2)


def decoy_visible(scene):
    """Share of the facing page's visa MRZ characters that lie wholly inside the frame."""
    m, cam = scene.main, scene.cam
    b = getattr(m.thing, "decoy_boxes", None)
    if b is None:
        return 0.0
    us = np.stack([b[:, 0], b[:, 2], b[:, 2], b[:, 0]], 1).ravel()
    vs = np.stack([b[:, 1], b[:, 1], b[:, 3], b[:, 3]], 1).ravel()
    pts = cam.image_points(m.world(m.thing.facing_point(us, vs))).reshape(-1, 4, 2)
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= cam.W - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= cam.H - 1)).all(1)
    return float(inside.mean())


def readability(scene, meas=None):
    """(mrz_readable, details) by the rule in docs/cleanroom-data.md."""
    m = scene.main
    doc = m.thing.doc
    if doc is None or doc.mrz is None:
        return False, {"reason": "no MRZ on this side"}
    cam = scene.cam
    ib = mrz_image_boxes(scene)
    inside = bool(((ib[..., 0] >= 0) & (ib[..., 0] <= cam.W - 1) & (ib[..., 1] >= 0) &
                   (ib[..., 1] <= cam.H - 1)).all())
    per_line = len(doc.mrz[0])
    origins = ib[:, 0, :].reshape(len(doc.mrz), per_line, 2)
    pitch = float(np.linalg.norm(np.diff(origins, axis=1), axis=2).min())
    w, h = m.thing.page_size()
    covered = hand_covers_mrz(scene, doc.boxes, w, h)
    gl, gmax = glare_over_mrz(scene, doc.boxes)
    ok = inside and not covered and not gl and scene.motion_mm <= MRZ_MOTION_MAX_MM and \
        scene.defocus_mm <= DEFOCUS_MAX_MM and pitch >= MIN_PITCH_PX and not scene.main_hidden
    return ok, {"inside": inside, "covered": covered, "glare": gl, "glare_max": gmax, "pitch_px": pitch}


def ground_truth(scene):
    cam = scene.cam
    gt = {"width": cam.W, "height": cam.H}
    m = scene.main
    present = m is not None and not scene.main_hidden
    meas = measures(scene) if present else None
    if present and not _visible(cam, meas["corners"]):
        present = False
    if not present:
        gt.update({"class": None, "layout": None, "side": None, "corners": None, "mrz": None,
                   "mrz_readable": False, "guidance": "centerId", "tilt_deg": None, "rotation_deg": None,
                   "motion_blur_mm": 0.0, "defocus": 0.0, "glare": False, "glare_over_mrz": False,
                   "hand": False, "design": None, "upside_down": False})
        return gt, None
    doc = m.thing.doc
    ok, det = readability(scene, meas)
    g = guidance(cam, meas["corners"], meas["area"], meas["tilt"], meas["rot"])
    if g is None:
        g = "holdStill" if scene.motion_mm > MAX_MOTION_MM else "ready"
    gt.update({
        "class": doc.kind, "layout": doc.layout, "side": doc.side,
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in meas["corners"]],
        "mrz": list(doc.mrz) if doc.mrz else None,
        "mrz_readable": bool(ok), "guidance": g,
        "tilt_deg": round(meas["tilt"], 2), "rotation_deg": round(meas["rot"], 2),
        "motion_blur_mm": round(scene.motion_mm, 3), "defocus": round(scene.defocus_mm, 3),
        "glare": scene.glare is not None, "glare_over_mrz": bool(det.get("glare", False)),
        "hand": scene.hand is not None, "design": doc.design,
        "upside_down": bool(abs(meas["rot"]) > 90),
    })
    if doc.layout == "booklet":
        outl = cam.image_points(m.world(m.thing.outline()[0]))
        gt["booklet_whole_in_view"] = bool(((outl[:, 0] >= 0) & (outl[:, 0] <= cam.W - 1) &
                                            (outl[:, 1] >= 0) & (outl[:, 1] <= cam.H - 1)).all())
    return gt, (meas, det)
