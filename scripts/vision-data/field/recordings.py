#!/usr/bin/python3
"""Recordings of the field scenes under .cache/vision-data/field/sequences/ (docs/vision-data.md,
"Field recordings").

Usage: scripts/vision-data/field/recordings.py [--out DIR] [--force] [--demo-only] [--demo-mrz LINES]
       scripts/vision-data/field/recordings.py --only NAME [--frames N]   (a trial, into sequences-trial/)

A document placed under one of the field stations and held: the empty platen, the
document carried in from an edge by a hand (lowered, turned, tilted; motion blur along
its motion over a 1/40 s exposure), a small correction, about 3 s held with a hand's
sub-millimetre tremor (or let go), then taken away. 15 fps MJPEG (concatenated JPEG
frames), a JSON entry per frame (null without a document in view, else the stills'
truth plus frame, time_s, still ...), the same camera's empty platen, and index.json.
Groups heldout (measure) and train, and demo-booklet (the demo's passport, --demo-mrz).

Deterministic (fixed seeds, one thread). Made again only when the sources changed
(its own stamp: this folder's and scripts/vision-data/*.py; the demo's also holds its
MRZ), or with --force. Draws with the stills' code (generate.py, scene.py, surfaces.py).
Prints no MRZ text.
"""
import sys

sys.dont_write_bytecode = True

import argparse
import hashlib
import importlib.util
import json
import math
import os
import random
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PARENT = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PARENT))
sys.path.insert(0, PARENT)
sys.path.insert(0, HERE)

import cv2
import numpy as np

# The stills' generator (its labels, light, lens finish, page designs), under another name.
_spec = importlib.util.spec_from_file_location("field_generate", os.path.join(HERE, "generate.py"))
stills = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stills)

import compose
import mrzgen
import pages
import scene
import surfaces

datagen = stills.id_generate.datagen
DEFAULT_DEMO_MRZ = stills.id_generate.DEFAULT_DEMO_MRZ  # the older generator's demo holder

FPS = 15
EXPOSURE_S = 1 / 40
STILL_MM = 0.3  # `still`: the page centre within this of its rest, and motion blur under it
# kind -> (class, layout, side)
KINDS = {"booklet": ("TD3", "booklet", "data"), "td3-loose": ("TD3", "loose", "data"),
         "td2": ("TD2", "card", "data"), "td1-back": ("TD1", "card", "back")}
# How the document is held once it rests: `held` (the hand stays on it: tremor), `placed`
# (the hand lets go, leaves, and comes back to take it), `raised` (held up off the platen,
# nearer a high camera: tremor).
# name, kind, station, size, surface kind, options
PLANS = {
    "heldout": [
        ("booklet", "kiosk-50", (1280, 720), "wood", {"style": "held", "glare": True}),
        ("booklet", "tall-55", (1280, 720), "stone", {"style": "placed"}),
        ("booklet", "desk-45", (1280, 720), "fabric", {"style": "held", "upside_down": True}),
        ("booklet", "wide-60", (1920, 1080), "fabric", {"style": "placed"}),
        ("booklet", "fisheye-65", (1280, 720), "printed", {"style": "placed", "glare": True, "rest": "holdStraight"}),
        ("booklet", "narrow-40", (1280, 720), "plain", {"style": "held", "low_light": True}),
        ("booklet", "overhead-62", (1280, 720), "photo", {"style": "raised"}),
        ("td3-loose", "close-42", (1280, 720), "wood", {"style": "placed"}),
        ("td3-loose", "kiosk-50", (1920, 1080), "plain", {"style": "placed", "glare": True}),
        ("td2", "narrow-40", (1280, 720), "photo", {"style": "held"}),
        ("td1-back", "desk-45", (1280, 720), "stone", {"style": "held", "glare": True, "low_light": True}),
        ("td1-back", "tall-55", (1280, 720), "printed", {"style": "raised"}),
    ],
    "train": [
        ("booklet", "desk-45", (1280, 720), "plain", {"style": "held"}),
        ("booklet", "wide-60", (1280, 720), "fabric", {"style": "placed", "glare": True}),
        ("td3-loose", "fisheye-65", (1280, 720), "wood", {"style": "held"}),
        ("td2", "overhead-62", (1280, 720), "stone", {"style": "raised"}),
        ("td1-back", "close-42", (1280, 720), "printed", {"style": "placed"}),
    ],
}
GROUPS = ("heldout", "train")
# Seeds apart from the stills' (split x 7_000_003 + ..., pages split x 10^7 + 5-6 x 10^6).
GROUP_INDEX = {"train": 1, "heldout": 3}
# The demo's passport: the station its configuration names (45 degrees, mild distortion).
DEMO_NAME = "demo-booklet"
DEMO_PLAN = ("booklet", "desk-45", (1280, 720), "fabric", {"style": "placed", "hold_s": 7.0, "withdraw": False, "variant": 0,
                                                           "design": 0, "crisp": True, "show_facing": True, "gain": 0.8})
DEMO_SEED = 7_000_041


def rec_name(group, i, kind):
    return "%s-%02d-%s" % (group, i + 1, kind)


def minjerk(u):
    u = min(1.0, max(0.0, u))
    return u * u * u * (10 - 15 * u + 6 * u * u)


# ---------------------------------------------------------------- the document

class Document:
    """A recording's document: its page (and booklet) textures, drawn at any pose."""

    def __init__(self, rng, kind, seed, design_index, cam, max_ppm, given_mrz=None):
        self.cls, self.layout, self.side = KINDS[kind]
        template, clear, cap, dx, dy, ghost = stills.DESIGNS[design_index]
        design = {"clear_zone": clear, "cap_mm": cap, "mrz_dx": dx, "mrz_dy": dy, "ghost": ghost}
        geometry = {}
        prgb, pa, self.mrz = pages.render(self.cls, self.side, seed, template, given_mrz=given_mrz, design=design, geometry=geometry)
        self.size_mm = w, h = pages.SIZE_MM[self.cls]
        self.cells = stills.mrz_cells(geometry, self.mrz, self.size_mm)
        self.geo = None
        if self.layout == "booklet":
            self.geo = {"t": rng.uniform(1.5, 3.5), "H1": rng.uniform(2.0, 5.0), "L1": rng.uniform(5, 12), "H2": rng.uniform(2.0, 6.0),
                        "L2": rng.uniform(5, 12), "cm": rng.uniform(2.0, 4.5), "bm": rng.uniform(0.6, 1.4),
                        "cover": scene.LEATHER[rng.randrange(len(scene.LEATHER))], "seed": seed}
            facing = scene.facing_page(rng, template, rng.choice((-1, 1)), None, False, stamps=rng.choice((0, 1, 1, 2, 3)))
            self.parts, self.gap = scene.booklet_parts(rng, prgb, template, facing, self.geo["cover"], max_ppm)
            cm = self.geo["cm"]
            y_top = -44 - self.gap - 88
            x0, x1, y0, y1 = -62.5 - cm, 62.5 + cm, y_top - cm, 44 + cm
        else:
            self.tex = scene.texture(prgb, pa, pages.PX_PER_MM, max_ppm)
            x0, x1, y0, y1 = -w / 2, w / 2, -h / 2, h / 2
        self.outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        # The points the truth needs, in the page frame (mm, z over the cover): the data
        # page's corners, its centre, the MRZ cells (5 points each), the outline densified.
        pc = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        pts = [np.c_[pc, [self.z_of(y) for y in pc[:, 1]]], [[0.0, 0.0, self.z_of(0.0)]]]
        if self.cells is not None:
            cp = self.cells.reshape(-1, 2)
            pts.append(np.c_[cp, [self.z_of(y) for y in cp[:, 1]]])
        dense = []
        for k in range(4):
            a, b = self.outline[k], self.outline[(k + 1) % 4]
            dense += [a + (b - a) * s for s in np.linspace(0, 1, 12, endpoint=False)]
        pts.append(np.c_[np.array(dense), np.zeros(len(dense))])
        self.points = np.concatenate([np.asarray(p, np.float64) for p in pts])
        self.n_cells = 0 if self.cells is None else len(self.cells) * 5

    def z_of(self, y):
        """The data page's height over the cover at y (page frame, mm)."""
        return scene.booklet_page_height(self.geo, y) if self.geo else 0.0

    def top_z(self, y):
        """The height of whatever lies at y: the data page, the facing page (flat, but for its
        rise to the gutter: taken as the block's height) or the card."""
        if not self.geo:
            return 0.0
        return self.geo["t"] if y < -44.0 else self.z_of(y)

    def split(self, p):
        """Canvas points of self.points -> corners (4), centre, cells (n, 5, 2) or None, outline."""
        cells = p[5:5 + self.n_cells].reshape(-1, 5, 2) if self.n_cells else None
        return p[0:4], p[4], cells, p[5 + self.n_cells:]

    def layer(self, cam, pose):
        """The document drawn at a pose: a premultiplied layer in canvas coordinates, not cut
        at the canvas's edge (it is moved about from there)."""
        wide = wide_camera(cam)
        outline = wide.canvas_xy(pose.world(np.c_[self.outline, np.zeros(4)]))
        acc = scene.Acc(scene.object_box(wide, outline))
        if self.geo:
            scene.draw_booklet(acc, wide, pose, self.parts, self.gap, self.geo)
        else:
            rgb, a, tppm = self.tex
            scene.flat_object(acc, wide, pose, rgb, a, tppm, self.size_mm, chunks=1)
        layer = acc.layer()
        layer.x0 -= WIDE
        layer.y0 -= WIDE
        return layer


WIDE = 700  # px added on every side of the canvas to draw what lies beyond it


def wide_camera(cam):
    """The camera with its canvas grown by WIDE px on every side (same projection)."""
    wide = scene.Camera(cam.name, cam.size)
    wide.m = cam.m + WIDE
    wide.canvas = (cam.canvas[0] + 2 * WIDE, cam.canvas[1] + 2 * WIDE)
    return wide


class Sprite:
    """A premultiplied 8-bit RGBA image (unlit, or lit for the held frames) at (x0, y0) on
    the canvas (8 bits: its warps are the frames' largest cost)."""

    def __init__(self, rgba, x0, y0):
        self.rgba, self.x0, self.y0 = rgba, x0, y0

    @staticmethod
    def of(layer, pad=0):
        if layer is None:
            return None
        rgba = cv2.convertScaleAbs(cv2.merge([layer.rgb, layer.a * 255.0]))  # rounded, saturated
        if pad:
            rgba = cv2.copyMakeBorder(rgba, pad, pad, pad, pad, cv2.BORDER_CONSTANT)
        return Sprite(rgba, layer.x0 - pad, layer.y0 - pad)

    def box(self):
        h, w = self.rgba.shape[:2]
        return self.x0, self.y0, self.x0 + w, self.y0 + h

    def alpha(self):
        """Coverage 0-1 (float32)."""
        return cv2.extractChannel(self.rgba, 3).astype(np.float32) * (1 / 255.0)


def view_of(cam, margin=100):
    """The part of the canvas the lens samples for the frame, grown by a margin (room for
    the shadows of what lies just beyond it): (x0, y0, x1, y1)."""
    m1, _ = cam.maps()
    cw, ch = cam.canvas
    return (max(0, int(m1[..., 0].min()) - margin), max(0, int(m1[..., 1].min()) - margin),
            min(cw, int(m1[..., 0].max()) + 2 + margin), min(ch, int(m1[..., 1].max()) + 2 + margin))


def moved(sp, H, view, length=0.0, angle=0.0, pad=2, affine=False):
    """The sprite moved by a homography H (canvas pixels) and streaked over `length` px along
    `angle` (degrees, clockwise on screen: motion blur), cut to the view (or None). A long
    streak is a box filter along the motion in a turned copy (one warp into it, one back).
    affine: H is a tremor's (no perspective to speak of): warped as an affine map."""
    if sp is None:
        return None
    x0, y0, x1, y1 = sp.box()
    q = cv2.perspectiveTransform(np.array([[[x0 - 0.5, y0 - 0.5], [x1 - 0.5, y0 - 0.5], [x1 - 0.5, y1 - 0.5], [x0 - 0.5, y1 - 0.5]]]), H)[0]
    grow = pad + int(length / 2) + 1
    bx0, by0 = max(view[0], int(math.floor(q[:, 0].min())) - grow), max(view[1], int(math.floor(q[:, 1].min())) - grow)
    bx1, by1 = min(view[2], int(math.ceil(q[:, 0].max())) + grow), min(view[3], int(math.ceil(q[:, 1].max())) + grow)
    if bx1 - bx0 < 2 or by1 - by0 < 2:
        return None
    size = (bx1 - bx0, by1 - by0)
    src = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    T = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], np.float64) @ H @ src
    if affine:
        return Sprite(cv2.warpAffine(sp.rgba, (T / T[2, 2])[:2], size, flags=cv2.INTER_LINEAR), bx0, by0)
    if length < 11:
        out = cv2.warpPerspective(sp.rgba, T, size, flags=cv2.INTER_LINEAR)
        if length >= 1.0:
            out = cv2.filter2D(out, -1, compose.motion_kernel(length, angle))
        return Sprite(out, bx0, by0)
    # Turned so the motion runs along x; a streak of 16 px or more at half the resolution
    # (what it smears along the motion is gone, and across it a pixel's sharpness is lost
    # in the streak's own blur of the edges).
    k = 0.5 if length >= 16 else 1.0
    w, h = size
    t = math.radians(angle)
    c, s_ = abs(math.cos(t)), abs(math.sin(t))
    W, Hh = int(math.ceil((w * c + h * s_) * k)) + 4, int(math.ceil((w * s_ + h * c) * k)) + 4
    M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, k)
    M[0, 2] += W / 2 - w / 2
    M[1, 2] += Hh / 2 - h / 2
    turned = cv2.warpPerspective(sp.rgba, np.vstack([M, [0, 0, 1]]) @ T, (W, Hh), flags=cv2.INTER_LINEAR)
    turned = cv2.blur(turned, (max(1, int(round(length * k))), 1))
    return Sprite(cv2.warpAffine(turned, M, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP), bx0, by0)


def shadow_of(a, offset, blur):
    """A soft drop shadow of a coverage (compose.over's), drawn at a quarter of the
    resolution (it is soft): the shadow's coverage at each pixel of the same box."""
    h, w = a.shape
    sw, sh = max(2, w // 4), max(2, h // 4)
    small = cv2.resize(a, (sw, sh), interpolation=cv2.INTER_AREA)
    M = np.float32([[1, 0, offset[0] * sw / w], [0, 1, offset[1] * sh / h]])
    small = cv2.GaussianBlur(cv2.warpAffine(small, M, (sw, sh)), (0, 0), max(0.3, blur * sw / w))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def over(canvas, sp, shadow=0.0, shadow_offset=(0, 0), shadow_blur=1.0):
    """compose.over for a sprite on a float canvas (in place), with OpenCV's arithmetic."""
    if sp is None:
        return
    x0, y0, x1, y1 = sp.box()
    a = sp.alpha()
    keep = 1.0 - a
    if shadow > 0:
        keep = cv2.multiply(keep, 1.0 - shadow * shadow_of(a, shadow_offset, shadow_blur))
    view = canvas[y0:y1, x0:x1]
    view[:] = cv2.add(cv2.multiply(view, cv2.merge([keep, keep, keep])), cv2.cvtColor(sp.rgba, cv2.COLOR_RGBA2RGB), dtype=cv2.CV_32F)


def lit(sp, light):
    """A sprite lit where it lies, as 8-bit premultiplied RGBA (the held frames, whose
    sub-pixel tremor moves it less than the light changes)."""
    if sp is None:
        return None
    x0, y0, x1, y1 = sp.box()
    rgb = cv2.multiply(cv2.cvtColor(sp.rgba, cv2.COLOR_RGBA2RGB).astype(np.float32), light[y0:y1, x0:x1], dtype=cv2.CV_8U)
    return Sprite(cv2.merge([rgb, cv2.extractChannel(sp.rgba, 3)]), x0, y0)


def over_u8(canvas, sp):
    """Composes an 8-bit premultiplied sprite over an 8-bit canvas (in place)."""
    if sp is None:
        return
    x0, y0, x1, y1 = sp.box()
    view = canvas[y0:y1, x0:x1]
    keep = 255 - cv2.extractChannel(sp.rgba, 3)
    view[:] = cv2.add(cv2.multiply(view, cv2.merge([keep, keep, keep]), scale=1 / 255.0), cv2.cvtColor(sp.rgba, cv2.COLOR_RGBA2RGB))


def lens_part(cam, u8, box, frame):
    """The frame through the lens where the canvas changed within box (x0, y0, x1, y1),
    over a copy of `frame` (the same canvas through the lens elsewhere)."""
    x0, y0, x1, y1 = box
    edge = np.linspace(0, 1, 9)[:, None]
    pts = np.concatenate([[x0 - 1, y0 - 1] + edge * [x1 - x0 + 2, 0], [x1 + 1, y0 - 1] + edge * [0, y1 - y0 + 2],
                          [x1 + 1, y1 + 1] - edge * [x1 - x0 + 2, 0], [x0 - 1, y1 + 1] - edge * [0, y1 - y0 + 2]])
    q = cam.distort(pts)
    fw, fh = cam.size
    fx0, fy0 = max(0, int(math.floor(q[:, 0].min())) - 1), max(0, int(math.floor(q[:, 1].min())) - 1)
    fx1, fy1 = min(fw, int(math.ceil(q[:, 0].max())) + 2), min(fh, int(math.ceil(q[:, 1].max())) + 2)
    out = frame.copy()
    if fx0 < fx1 and fy0 < fy1:
        m1, m2 = cam.maps()
        out[fy0:fy1, fx0:fx1] = cv2.remap(u8, m1[fy0:fy1, fx0:fx1], m2[fy0:fy1, fx0:fx1], cv2.INTER_LINEAR)
    return out


def union(sprites):
    boxes = [sp.box() for sp in sprites if sp is not None]
    if not boxes:
        return None
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


class Sensor:
    """The camera's noise at one level (generate.sensor's, drawn for many frames): a fixed
    bank of Gaussian noise rounded to 8-bit steps, a random window per frame, added and
    subtracted with saturation (the frame as 8-bit BGR)."""

    _banks = {}

    def __init__(self, size, sigma):
        w, h = size
        if size not in Sensor._banks:
            Sensor._banks[size] = np.random.default_rng(w * 7 + h).standard_normal((h + 64, w + 64, 3), dtype=np.float32)
        bank = cv2.multiply(Sensor._banks[size], sigma)
        self.up = cv2.convertScaleAbs(cv2.max(bank, 0.0))  # rounded, saturated
        self.down = cv2.convertScaleAbs(cv2.min(bank, 0.0))
        self.size = size

    def __call__(self, out, rng):
        w, h = self.size
        dy, dx = rng.randrange(64), rng.randrange(64)
        out = cv2.subtract(cv2.add(out, self.up[dy:dy + h, dx:dx + w]), self.down[dy:dy + h, dx:dx + w])
        return cv2.cvtColor(out, cv2.COLOR_RGB2BGR)


def cut(sp, view):
    """The part of a sprite within the view (x0, y0, x1, y1), or None."""
    if sp is None:
        return None
    x0, y0, x1, y1 = sp.box()
    xa, ya, xb, yb = max(view[0], x0), max(view[1], y0), min(view[2], x1), min(view[3], y1)
    if xa >= xb or ya >= yb:
        return None
    return Sprite(sp.rgba[ya - y0:yb - y0, xa - x0:xb - x0], xa, ya)


# ---------------------------------------------------------------- the motion

class Track:
    """The document's pose over time (centre x, y mm, rotation, tilt, lift; one tilt axis):
    in from `start` to `approach` (t0-t1), the correction to `rest` (t1-t2), held (t2-t3),
    out to `exit` (t3-t4; none: held to the end); a hand's tremor on top all along."""

    def __init__(self, t_empty, start, approach, rest, t_in, t_settle, t_hold, exit_pose, t_out, axis, arc, tremor):
        self.t0 = t_empty
        self.t1 = self.t0 + t_in
        self.t2 = self.t1 + t_settle
        self.t3 = self.t2 + t_hold
        self.t4 = self.t3 + t_out if exit_pose is not None else None
        self.start, self.approach, self.rest, self.exit = (np.asarray(p, np.float64) if p is not None else None
                                                          for p in (start, approach, rest, exit_pose))
        self.axis, self.arc, self.tremor = axis, arc, tremor

    def params(self, t):
        """(cx, cy, rotation, tilt, lift) at time t (the document exists from t0 to t4)."""
        if t <= self.t0:
            return self.start.copy()
        if t < self.t1:
            u = (t - self.t0) / (self.t1 - self.t0)
            a, b = self.start, self.approach
            s = minjerk(u)
            p = a + (b - a) * s
            p[4] = a[4] + (b[4] - a[4]) * minjerk(u / 0.8)  # lowered before the end, then slid
            d = (b - a)[:2]
            n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
            p[:2] += n * self.arc * math.sin(math.pi * s)  # a curved path, still at both ends
        elif t < self.t2:
            p = self.approach + (self.rest - self.approach) * minjerk((t - self.t1) / (self.t2 - self.t1))
        elif self.t4 is None or t < self.t3:
            p = self.rest.copy()
        else:
            u = (t - self.t3) / (self.t4 - self.t3)
            a, b = self.rest, self.exit
            p = a + (b - a) * minjerk((u - 0.1) / 0.9)
            p[3] = a[3] + (b[3] - a[3]) * minjerk(u / 0.6)
            p[4] = a[4] + (b[4] - a[4]) * minjerk(u / 0.6)  # lifted first
        if self.tremor is not None:
            p[:3] += self.tremor(t)
        return p

    def present(self, t):
        return t >= self.t0 and (self.t4 is None or t <= self.t4)

    def resting(self, t):
        return self.t2 <= t and (self.t4 is None or t < self.t3)

    def rest_pose(self):
        return scene.Pose((self.rest[0], self.rest[1]), self.rest[2], self.rest[3], self.axis, self.rest[4])

    def pose(self, t):
        p = self.params(t)
        return scene.Pose((p[0], p[1]), p[2], p[3], self.axis, p[4])


def make_tremor(rng, radius):
    """A hand's tremor: in-plane (dx, dy mm, rotation degrees), a few sines of 3-11 Hz,
    scaled so the largest excursion is `radius` mm."""
    f, ph, a = (np.array([[rng.uniform(*r) for _ in range(3)] for _ in range(3)]) for r in ((3, 11), (0, 2 * math.pi), (0.3, 1.0)))

    def raw(t):  # rows: dx, dy, rotation; three sines each
        return (a * np.sin(2 * math.pi * f * np.asarray(t, np.float64)[..., None, None] + ph)).sum(-1)

    arr = raw(np.arange(0, 15, 1 / 240))
    k = radius / max(1e-9, float(np.hypot(arr[:, 0], arr[:, 1]).max()))
    kr = rng.uniform(0.02, 0.05) / max(1e-9, float(np.abs(arr[:, 2]).max()))
    return lambda t: raw(t) * np.array([k, k, kr])


# ---------------------------------------------------------------- one recording

class Recording:
    def __init__(self, name, group, index, plan, given_mrz=None):
        kind, station, size, surface_kind, opts = plan
        self.name, self.group, self.kind, self.opts = name, group, kind, opts
        demo = group == "demo"
        self.seed = DEMO_SEED if demo else GROUP_INDEX[group] * 9_000_011 + index * 101 + 7
        rng = random.Random(self.seed)
        self.cam = cam = scene.Camera(station, size)
        fw, fh = size
        split = "train" if group in ("train", "demo") else "heldout"
        variant = opts.get("variant", rng.choice(surfaces.SPLIT_VARIANTS[split][surface_kind]))
        self.surface = (surface_kind, variant)
        self.base = stills.surface(surface_kind, variant, cam.canvas).astype(np.float32)
        # Light: white balance, exposure (low light: dimmer and noisier), noise, JPEG quality.
        crisp = opts.get("crisp", False)
        wb = np.array([rng.uniform(0.93, 1.07), 1.0, rng.uniform(0.92, 1.08)], np.float32)
        low = opts.get("low_light", False)
        gain = rng.uniform(0.5, 0.65) if low else rng.uniform(0.85, 1.1)
        # A station set up by its operator: exposed so that the white page does not saturate.
        gain = opts.get("gain", gain)
        self.light = stills.light_field(rng, cam.canvas, cam.m, wb, gain)
        self.noise = rng.uniform(2.0, 3.0) if low else (0.8 if crisp else rng.uniform(0.6, 1.6))
        self.quality = 90 if crisp else rng.randint(76, 88)
        # The document.
        page_seed = (DEMO_SEED if demo else GROUP_INDEX[group] * 10_000_000 + 7_000_000 + index * 7)
        design = opts.get("design", rng.choice(stills.SPLIT_DESIGNS[split]))
        style = opts["style"]
        H = cam.height
        raised_lift = 0.0
        if style == "raised":  # held up nearer the camera: a card at 5-6 px/mm (at 1280), a booklet at 3.8-4.4
            lo, hi = (3.8, 4.4) if kind == "booklet" else (5.0, 6.0)
            raised_lift = H - cam.f / (rng.uniform(lo, hi) * fw / 1280)
        max_ppm = cam.f / (H - raised_lift - 50)
        self.doc = doc = Document(rng, kind, page_seed, design, cam, max_ppm, given_mrz)
        # The rest pose: drawn again until every label is decided by a margin (as the stills');
        # `show_facing` (the demo's): the lowest of 30 such data pages, the most facing page in view.
        target = opts.get("rest", "ready")
        ppm0 = cam.f / (H - raised_lift)
        found = []
        for attempt in range(300):
            rot = max(-8.0, min(8.0, rng.gauss(0, 3.5))) if target == "ready" else rng.choice((-1, 1)) * rng.uniform(18, 26)
            if opts.get("upside_down"):
                rot += 180 if rot < 0 else -180
            off = np.array([rng.gauss(0, 0.035 * fw), rng.gauss(0, 0.035 * fh)]) / ppm0
            down = np.array([-math.sin(math.radians(rot)), math.cos(math.radians(rot))])  # towards the MRZ
            if doc.layout == "booklet":  # the data page below the middle, the facing page in view
                off += down * rng.uniform(0.05, 0.14) * fw / ppm0
            tilt = rng.uniform(2, 7) if style == "raised" else 0.0
            axis = rng.uniform(0, 360)
            rest = np.array([off[0], off[1], rot, tilt, raised_lift])
            ok, label = self.decided(rest, axis, target)
            if ok:
                found.append((float(off @ down), attempt, rest, axis, label))
                if not opts.get("show_facing") or len(found) == 30:
                    break
        if not found:
            raise RuntimeError("%s: no decisive rest pose" % name)
        _, _, rest, axis, _ = max(found, key=lambda f: f[:2]) if opts.get("show_facing") else found[0]
        # The hand's grip (page frame): an edge away from the MRZ, fingertips inward.
        self.hand_seed = rng.randrange(1 << 30)
        self.hand_scale = rng.uniform(1.0, 1.12)
        self.skin = [(224, 180, 150), (205, 150, 115), (170, 120, 90), (120, 80, 60), (235, 195, 170)][rng.randrange(5)]
        x0, y0 = doc.outline[0]
        x1, y1 = doc.outline[2]
        # A booklet by its side beside the data page's upper half (or the facing page's edge),
        # a loose page or a TD2 card by its top edge or a side's upper part, a TD1 card by its
        # top edge: the fingers (up to three, 17 mm wide) stay off the MRZ (checked).
        sides = {"booklet": ("top", "left", "right", "left", "right"), "loose": ("top", "left", "right")}.get(doc.layout)
        side = rng.choice(sides or (("top",) if doc.cls == "TD1" else ("top", "left", "right")))
        h = doc.size_mm[1]
        if side == "top":
            grip, inward = np.array([rng.uniform(0.25, 0.75) * (x1 - x0) + x0, y0]), np.array([0.0, 1.0])
            depth = rng.uniform(16, 26) if doc.cls == "TD1" else rng.uniform(18, 34)
        else:
            y = -h / 2 + rng.uniform(0.08, 0.3 if doc.cls == "TD2" else 0.4) * h
            grip, inward = np.array([x0 if side == "left" else x1, y]), np.array([1.0 if side == "left" else -1.0, 0.0])
            depth = rng.uniform(24, 34)
        self.grip = grip + inward * depth  # the fingertips end 4-19 mm short of it (compose.hand_layer)
        self.inward = inward
        # Timeline and motion: in from the side the hand holds (at 150-230 mm/s on average,
        # minimum-jerk: a peak speed 1.9 times that), a correction, held, out (a little faster).
        t_empty = rng.uniform(0.5, 1.0)
        v_in = rng.uniform(150, 230)
        t_settle = rng.uniform(0.3, 0.55)
        t_hold = opts.get("hold_s", rng.uniform(2.9, 3.3))
        v_out = rng.uniform(180, 280)
        t_tail = rng.uniform(0.25, 0.45)
        th = math.radians(rest[2])
        Rz = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
        arm = -(Rz @ inward)  # world direction from the page towards the arm
        arm_in = self.turn(arm, rng.uniform(-20, 20))
        nudge = self.turn(arm_in, rng.uniform(-60, 60)) * rng.uniform(2.0, 5.0)
        approach = rest + np.array([nudge[0], nudge[1], rng.uniform(-2.5, 2.5), 0.0, rng.uniform(2, 6) if style == "raised" else 0.0])
        start = rest + np.array([0, 0, rng.uniform(-14, 14), rng.uniform(3, 10), 0.0])
        start[4] = raised_lift + rng.uniform(15, 45)
        d_in = self.away(start, arm_in, axis, rest[:2])
        start[:2] = rest[:2] + arm_in * d_in
        t_in = max(0.6, d_in / v_in)
        exit_pose, t_out = None, 0.0
        if opts.get("withdraw", True):
            arm_out = self.turn(arm, rng.uniform(-25, 25))
            exit_pose = rest + np.array([0, 0, rng.uniform(-12, 12), rng.uniform(3, 10), 0.0])
            exit_pose[4] = raised_lift + rng.uniform(15, 40)
            d_out = self.away(exit_pose, arm_out, axis, rest[:2])
            exit_pose[:2] = rest[:2] + arm_out * d_out
            t_out = max(0.5, d_out / v_out)
        tremor = None
        if style in ("held", "raised"):
            tremor = make_tremor(rng, rng.uniform(0.07, 0.16) if style == "held" else rng.uniform(0.12, 0.2))
        self.track = Track(t_empty, start, approach, rest, t_in, t_settle, t_hold, exit_pose, t_out, axis,
                           rng.uniform(-15, 15), tremor)
        end = self.track.t4 + t_tail if self.track.t4 is not None else self.track.t3
        self.frames = int(round(end * FPS))
        self.style = style
        # A placed document: the hand lets go after the correction and comes back for it.
        if style == "placed":
            self.release = (self.track.t2 + rng.uniform(0.1, 0.3), rng.uniform(0.45, 0.6))
            self.regrip = self.track.t3 - rng.uniform(0.45, 0.6) if self.track.t4 is not None else None
            self.hand_away = np.r_[arm * rng.uniform(170, 230), rng.uniform(20, 50)]
        # An LED's reflection: fixed in the frame, on the resting page, away from its MRZ.
        self.glares = []
        if opts.get("glare") or (opts.get("glare") is None and not crisp and rng.random() < 0.3):
            self.glares = [self.place_glare(rng)]
        self.glare_spot = bool(self.glares)
        self.spot = None

    # helpers

    @staticmethod
    def turn(v, deg):
        t = math.radians(deg)
        return np.array([math.cos(t) * v[0] - math.sin(t) * v[1], math.sin(t) * v[0] + math.cos(t) * v[1]])

    def away(self, p, direction, axis, origin):
        """How far along `direction` the document at pose p must go to be out of view."""
        cam = self.cam
        fw, fh = cam.size
        for d in range(0, 2000, 10):
            q = p.copy()
            q[:2] = origin + direction * d
            pose = scene.Pose((q[0], q[1]), q[2], q[3], axis, q[4])
            out = cam.frame_xy(pose.world(np.c_[self.doc.outline, np.zeros(4)]))
            dense = np.concatenate([out[k] + (out[(k + 1) % 4] - out[k]) * s[:, None] for k in range(4) for s in [np.linspace(0, 1, 16)]])
            inside = ((dense[:, 0] > -40) & (dense[:, 0] < fw + 40) & (dense[:, 1] > -40) & (dense[:, 1] < fh + 40)).any()
            if not inside and cv2.pointPolygonTest(out.astype(np.float32), (fw / 2, fh / 2), False) < 0:
                return d + 15.0
        raise RuntimeError("never out of view")

    def decided(self, p, axis, target):
        """Whether a rest pose's labels are decided by the stills' margins, the page whole
        and its MRZ cells 2.5 mm inside the frame; and its guidance."""
        cam, doc = self.cam, self.doc
        pose = scene.Pose((p[0], p[1]), p[2], p[3], axis, p[4])
        corners, centre, cells, _ = doc.split(cam.frame_xy(pose.world(doc.points)))
        tilt = scene.tilt_to_camera(cam, pose)
        label, decisive = stills.guidance(corners, tilt, compose.rotation_of(corners), 0.0, cam.size)
        ppm = cam.f / (cam.height - p[4])
        if cells is not None and stills.inside_margin(cells[:, :4].reshape(-1, 2), cam.size) < 2.5 * ppm:
            return False, label
        return decisive and label == target and stills.inside_margin(corners, cam.size) > 0.02 * cam.size[0], label

    def place_glare(self, rng):
        cam, doc = self.cam, self.doc
        pose = self.track.pose(self.track.t2)
        w, h = doc.size_mm
        width = w * cam.f / (cam.height - pose.lift)
        _, _, cells, _ = doc.split(cam.canvas_xy(pose.world(doc.points)))
        for attempt in range(50):
            gx, gy = rng.uniform(-0.42, 0.42) * w, rng.uniform(-0.5, 0.15) * h
            if doc.layout == "booklet" and rng.random() < 0.4:
                gy = rng.uniform(-0.5 * h - 60, -0.5 * h - 10)  # on the facing page
            at = cam.canvas_xy(pose.world([[gx, gy, doc.top_z(gy)]]))[0]
            g = ((float(at[0]), float(at[1])), (width * rng.uniform(0.04, 0.1), width * rng.uniform(0.02, 0.05)),
                 rng.uniform(0, 180), rng.uniform(160, 330))
            if cells is None or stills.glare_at(cells.reshape(-1, 2), g).max() < 0.2 * 255:
                return g
        raise RuntimeError("no glare spot off the MRZ")

    # the hand

    def grip_world(self, pose):
        """The fingertips' point on the document and points around it (world mm), for the
        hand's place and its plane."""
        g, z = self.grip, self.doc.top_z(self.grip[1])
        d = self.inward * 10
        return pose.world([[g[0], g[1], z], [g[0] + d[0], g[1] + d[1], z], [g[0] - 40, g[1] - 40, z], [g[0] + 40, g[1] - 40, z],
                           [g[0] + 40, g[1] + 40, z], [g[0] - 40, g[1] + 40, z]])

    def hand_offset(self, t):
        """Where the hand is: a world offset from its grip (0: holding the document), or None
        (let go and gone)."""
        if self.style != "placed" or t < self.release[0]:
            return np.zeros(3)
        r0, rd = self.release
        u = (t - r0) / rd
        if self.regrip is not None and t >= self.regrip:
            u = 1 - (t - self.regrip) / (self.track.t3 - self.regrip)
        if u >= 1:
            return None
        return self.hand_away * minjerk(max(0.0, u))

    def rest_hand(self):
        """The hand holding the resting document, drawn once (not cut at the canvas's edge)."""
        cam = self.cam
        q = cam.canvas_xy(self.grip_world(self.track.rest_pose()))
        scale = cam.f / (cam.height - self.grip_world(self.track.rest_pose())[0, 2]) * self.hand_scale
        d = (q[1] - q[0]) / np.linalg.norm(q[1] - q[0])
        r = int(90 * scale)  # the hand lies within 85 mm of a point 76 mm behind its fingertips' aim
        o = np.floor(q[0] - d * 76 * scale) - r
        layer = compose.hand_layer((2 * r, 2 * r), q[0] - o, q[1] - q[0], scale, np.random.default_rng(self.hand_seed), self.skin)
        layer.x0 += int(o[0])
        layer.y0 += int(o[1])
        return Sprite.of(layer, pad=36)  # room for its shadow

    def hand_homography(self, t, H):
        """The hand's map from its resting place at time t (None: no hand)."""
        off = self.hand_offset(t)
        if off is None:
            return None
        if not off.any():
            return H
        cam = self.cam
        g = self.grip_world(self.track.rest_pose())[2:]
        return cv2.getPerspectiveTransform(cam.canvas_xy(g).astype(np.float32), cam.canvas_xy(g + off).astype(np.float32))

    # truth

    def truth(self, k, t, canvas_pts, pose, motion_mm, hand):
        cam, doc = self.cam, self.doc
        fw, fh = cam.size
        frame_pts = cam.distort(canvas_pts)
        corners, centre, cells, outline = doc.split(frame_pts)
        inside = ((outline[:, 0] >= -0.5) & (outline[:, 0] <= fw - 0.5) & (outline[:, 1] >= -0.5) & (outline[:, 1] <= fh - 0.5)).any()
        if not inside and cv2.pointPolygonTest(outline.astype(np.float32), (fw / 2, fh / 2), False) < 0:
            return None
        c_canvas, _, cells_canvas, _ = doc.split(canvas_pts)
        tilt = scene.tilt_to_camera(cam, pose)
        rc = np.array([[stills.r2(x), stills.r2(y)] for x, y in corners])
        rot = compose.rotation_of(corners)
        rot = stills.r2(rot if rot > -180 else rot + 360)
        tilt_r, motion_r = stills.r2(tilt), stills.r2(motion_mm)
        label, decisive = stills.guidance(rc, tilt_r, rot, motion_r, cam.size)
        zc = doc.z_of(0.0)
        ppm = self.scale(pose)
        readable, glare_max = False, 0.0
        if cells is not None:
            if self.glares:
                glare_max = float(stills.glare_at(cells_canvas.reshape(-1, 2), self.glares[0]).max())
            im = stills.inside_margin(cells[:, :4].reshape(-1, 2), cam.size)
            readable = im >= 0 and glare_max <= scene.READ_GLARE * 255 and motion_r <= scene.READ_BLUR_MM
            decisive = decisive and abs(im) >= 2.5 * ppm and abs(motion_r - scene.READ_BLUR_MM) >= 0.08
        on_page = bool(self.glares) and cv2.pointPolygonTest(c_canvas.astype(np.float32), self.glares[0][0], False) >= 0
        rest_pose = self.track.rest_pose()
        rest_offset = float(np.linalg.norm(pose.world([[0, 0, zc]])[0] - rest_pose.world([[0, 0, zc]])[0]))
        rest_r = stills.r2(rest_offset)
        surface_kind, variant = self.surface
        return {"width": fw, "height": fh, "class": doc.cls, "layout": doc.layout, "side": doc.side,
                "corners": rc.tolist(), "mrz": doc.mrz, "mrz_readable": bool(readable), "guidance": label,
                "tilt_deg": tilt_r, "rotation_deg": rot, "motion_blur_mm": motion_r, "defocus_mm": 0.0,
                "glare": bool(on_page or glare_max > scene.READ_GLARE * 255), "glare_over_mrz": bool(glare_max > scene.READ_GLARE * 255), "hand": hand,
                "surface": surface_kind, "surface_variant": surfaces.VARIANTS[surface_kind][variant], "platen_changed": False,
                "case": "normal", "decoy_mrz": None, "px_per_mm": stills.r2(ppm), "station": cam.name,
                "frame": k, "time_s": round(t, 4), "still": bool(rest_r <= STILL_MM and motion_r < STILL_MM),
                "rest_offset_mm": rest_r, "hfov_deg": scene.STATIONS[cam.name][0], "decisive": bool(decisive)}

    def homography(self, t):
        """The map of the canvas from the document at rest to the document at time t: that of
        the data page's plane (its flat part; a booklet's cover, block and gutter move with
        it, without the parallax their 1.5-8 mm of relief would add off the camera's axis)."""
        cam = self.cam
        return cv2.getPerspectiveTransform(self.plane_rest, cam.canvas_xy(self.track.pose(t).world(self.plane)).astype(np.float32))

    def motion(self, t):
        """The largest motion of the page's corners and centre over the exposure (mm on the
        page), and the canvas motion of its centre (the streak drawn), as drawn (the
        homographies at the exposure's start and end)."""
        cam = self.cam
        rest = self.rest_canvas[None, :5]
        a = cv2.perspectiveTransform(rest, self.homography(t - EXPOSURE_S / 2))[0]
        b = cv2.perspectiveTransform(rest, self.homography(t + EXPOSURE_S / 2))[0]
        fa, fb = cam.distort(a), cam.distort(b)
        return float(np.linalg.norm(fb - fa, axis=1).max()) / self.scale(self.track.pose(t)), b[4] - a[4]

    def scale(self, pose):
        """Pixels a mm on the page at its centre, through the lens (as the stills')."""
        zc = self.doc.z_of(0.0)
        q = self.cam.frame_xy(pose.world([[0, 0, zc], [0.5, 0, zc], [0, 0.5, zc]]))
        return math.sqrt(abs(np.cross(q[1] - q[0], q[2] - q[0]))) / 0.5

    def hand_motion(self, t, H):
        """The canvas motion of the fingertips over the exposure (a streak), when the hand
        moves by itself."""
        ends = []
        for dt in (-EXPOSURE_S / 2, EXPOSURE_S / 2):
            Hh = self.hand_homography(t + dt, H)
            if Hh is None:
                return np.zeros(2)
            ends.append(cv2.perspectiveTransform(self.hand_tip0[None, None].astype(np.float32), Hh)[0, 0])
        return ends[1] - ends[0]

    # drawing

    def frames_iter(self, limit=None):
        """Yields (frame index, BGR image, JSON entry). The document and the hand are drawn
        once at rest; each frame moves them by the homography of the document's plane from
        its rest to its pose (the lifted booklet's curve moves with its plane), so a frame's
        truth is the same map of the resting truth."""
        cam, doc, tr = self.cam, self.doc, self.track
        rest_pose = tr.rest_pose()
        rest_pts = self.rest_canvas = cam.canvas_xy(rest_pose.world(doc.points))
        w, h = doc.size_mm
        self.plane = np.array([[-w / 2, -h / 2 + 20], [w / 2, -h / 2 + 20], [w / 2, h / 2], [-w / 2, h / 2]])  # clear of the gutter
        self.plane = np.c_[self.plane, np.full(4, doc.z_of(0.0))]
        self.plane_rest = cam.canvas_xy(rest_pose.world(self.plane)).astype(np.float32)
        D = Sprite.of(doc.layer(cam, rest_pose))
        Hd = self.rest_hand()
        self.hand_tip0 = cam.canvas_xy(self.grip_world(rest_pose))[0]
        self.hand_clear_of_mrz(Hd, rest_pts)
        lift = tr.rest[4]
        doc_shadow = dict(shadow=0.18 + 0.004 * lift, shadow_offset=(4 + 0.25 * lift, 6 + 0.3 * lift), shadow_blur=4.0 + 0.2 * lift)
        hand_shadow = dict(shadow=0.3, shadow_offset=(8, 11), shadow_blur=10.0)
        base_lit = cv2.multiply(self.base, self.light, dtype=cv2.CV_8U)
        view = view_of(cam)
        sensor = self.sensor = Sensor(cam.size, self.noise)
        work = self.base.copy()  # the float canvas, put back where a frame drew
        cache = {}
        n = self.frames if limit is None else min(limit, self.frames)
        for k in range(n):
            t = k / FPS
            frng = random.Random(self.seed * 1000 + k)
            entry = None
            if not tr.present(t):
                if "empty" not in cache:
                    cache["empty"] = cam.lens(base_lit)
                out = cache["empty"]
            else:
                pose = tr.pose(t)
                H = self.homography(t)
                canvas_pts = cv2.perspectiveTransform(rest_pts[None].astype(np.float64), H)[0]
                motion_mm, streak_v = self.motion(t)
                Hh = self.hand_homography(t, H)
                hand_free = Hh is not None and Hh is not H
                if tr.resting(t) and not hand_free:
                    hand = Hh is not None
                    key = "rest" + ("+hand" if hand else "")
                    if key not in cache:  # the platen with the resting shadows, lit; the sprites lit
                        bg = self.base.copy()
                        for sp, kw in ((D, doc_shadow), (Hd if hand else None, hand_shadow)):
                            self.shade(bg, sp, kw)
                        bg = cv2.multiply(bg, self.light, dtype=cv2.CV_8U)
                        cache[key] = (bg, cam.lens(bg), lit(cut(D, view), self.light), lit(cut(Hd, view), self.light) if hand else None)
                    bg, bg_frame, dl, hl = cache[key]
                    if tr.tremor is None:  # lying still: the same frame but for the sensor's noise
                        if key + "-frame" not in cache:
                            u8 = bg.copy()
                            over_u8(u8, dl)
                            over_u8(u8, hl)
                            self.shine(u8, dl, hl)
                            cache[key + "-frame"] = cam.lens(u8)
                        out = cache[key + "-frame"]
                        drawn_hand = hl
                    else:  # held: moved by the tremor, less than a pixel
                        u8 = bg.copy()
                        dl2, hl2 = moved(dl, H, view, affine=True), moved(hl, H, view, affine=True)
                        over_u8(u8, dl2)
                        over_u8(u8, hl2)
                        self.shine(u8, dl2, hl2)
                        out = lens_part(cam, u8, union((dl, dl2, hl, hl2)), bg_frame)
                        drawn_hand = hl2
                else:
                    # Moving (or the hand moving about the resting page): drawn on the float
                    # canvas with their shadows and streaks; only that part lit again.
                    length, angle = float(np.hypot(*streak_v)), math.degrees(math.atan2(streak_v[1], streak_v[0]))
                    dl = moved(D, H, view, length, angle)
                    over(work, dl, shadow=0.18 + 0.004 * pose.lift, shadow_offset=(4 + 0.25 * pose.lift, 6 + 0.3 * pose.lift),
                         shadow_blur=4.0 + 0.2 * pose.lift)
                    drawn_hand = None
                    if Hh is not None:
                        hv = self.hand_motion(t, H) if hand_free else streak_v
                        drawn_hand = moved(Hd, Hh, view, float(np.hypot(*hv)), math.degrees(math.atan2(hv[1], hv[0])))
                        over(work, drawn_hand, **hand_shadow)
                    box = union((dl, drawn_hand))
                    if "empty" not in cache:
                        cache["empty"] = cam.lens(base_lit)
                    if box is None:
                        out = cache["empty"]
                    else:
                        x0, y0, x1, y1 = box
                        u8 = base_lit.copy()
                        u8[y0:y1, x0:x1] = cv2.multiply(work[y0:y1, x0:x1], self.light[y0:y1, x0:x1], dtype=cv2.CV_8U)
                        work[y0:y1, x0:x1] = self.base[y0:y1, x0:x1]
                        self.shine(u8, dl, drawn_hand)
                        out = lens_part(cam, u8, box, cache["empty"])
                entry = self.truth(k, t, canvas_pts, pose, motion_mm, self.in_frame(drawn_hand))
            img = sensor(out, frng)
            yield k, img, entry

    def hand_clear_of_mrz(self, Hd, rest_pts):
        """The hand (which moves with the page, or away from it) keeps 2 mm from every MRZ
        cell, as the stills' hands do: mrz_readable does not depend on it."""
        _, _, cells, _ = self.doc.split(rest_pts)
        if cells is None or Hd is None:
            return
        r = int(math.ceil(2 * self.cam.f / (self.cam.height - self.track.rest[4])))
        near = cv2.dilate(Hd.alpha(), np.ones((2 * r + 1, 2 * r + 1), np.uint8))
        ij = np.round(cells.reshape(-1, 2) - [Hd.x0, Hd.y0]).astype(int)
        ok = (ij[:, 0] >= 0) & (ij[:, 0] < near.shape[1]) & (ij[:, 1] >= 0) & (ij[:, 1] < near.shape[0])
        if (near[ij[ok, 1], ij[ok, 0]] > 0.05).any():
            raise RuntimeError("%s: the hand comes within 2 mm of the MRZ" % self.name)

    def shade(self, canvas, sp, kw):
        """The shadow alone of a sprite on the float canvas (the resting platen's)."""
        if sp is None:
            return
        x0, y0, x1, y1 = sp.box()
        s = 1.0 - kw["shadow"] * shadow_of(sp.alpha(), kw["shadow_offset"], kw["shadow_blur"])
        cw, ch = self.cam.canvas
        xa, ya, xb, yb = max(0, x0), max(0, y0), min(cw, x1), min(ch, y1)
        if xa < xb and ya < yb:
            s = np.ascontiguousarray(s[ya - y0:yb - y0, xa - x0:xb - x0])
            view = canvas[ya:yb, xa:xb]
            view[:] = cv2.multiply(view, cv2.merge([s, s, s]))

    def shine(self, u8, dl, hl):
        """The LED's glare on the lit canvas (in place), on the document only (not the platen
        or the hand): generate.add_glares with the spot's light drawn once (it stays put)."""
        if not self.glares:
            return
        if self.spot is None:
            (cx, cy), axes, angle, strength = self.glares[0]
            r = int(max(axes) * 2.2) + 2
            ch, cw = u8.shape[:2]
            xa, ya, xb, yb = max(0, int(cx) - r), max(0, int(cy) - r), min(cw, int(cx) + r), min(ch, int(cy) + r)
            pattern = np.zeros((max(0, yb - ya), max(0, xb - xa), 3), np.float32)
            if pattern.size:
                compose.glare(pattern, (cx - xa, cy - ya), axes, angle, strength)
            self.spot = ((xa, ya, xb, yb), pattern)
        (xa, ya, xb, yb), pattern = self.spot
        if not pattern.size:
            return
        m = np.zeros((yb - ya, xb - xa), np.float32)
        for sp, sign in ((dl, 1), (hl, -1)):
            if sp is None:
                continue
            x0, y0, x1, y1 = sp.box()
            ia, ja, ib, jb = max(xa, x0), max(ya, y0), min(xb, x1), min(yb, y1)
            if ia >= ib or ja >= jb:
                continue
            a = sp.alpha()[ja - y0:jb - y0, ia - x0:ib - x0]
            view = m[ja - ya:jb - ya, ia - xa:ib - xa]
            if sign > 0:
                view[:] = a
            else:
                view *= 1 - a
        before = u8[ya:yb, xa:xb].astype(np.float32)
        u8[ya:yb, xa:xb] = np.clip(before + pattern * m[:, :, None], 0, 255).astype(np.uint8)

    def in_frame(self, sp):
        """Whether a drawn sprite (the hand's) reaches into the frame's part of the canvas."""
        if sp is None:
            return False
        m, (fw, fh) = self.cam.m, self.cam.size
        x0, y0, x1, y1 = sp.box()
        return bool(x0 < m + fw and x1 > m and y0 < m + fh and y1 > m)


# ---------------------------------------------------------------- writing

def write_recording(rec, d, thumbs=None, limit=None):
    """Writes NAME.mjpeg, NAME.json, NAME-platen.jpg; returns the index entry."""
    path = os.path.join(d, rec.name)
    entries = []
    picks = {}
    with open(path + ".mjpeg", "wb") as f:
        for k, img, entry in rec.frames_iter(limit):
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rec.quality])
            f.write(buf.tobytes())
            entries.append(entry)
            if thumbs is not None:
                picks[k] = buf
    with open(path + ".json", "w") as f:
        json.dump(entries, f)
    platen = rec.sensor(stills.develop(rec.base, rec.cam, rec.light), random.Random(rec.seed * 1000 - 1))
    cv2.imwrite(path + "-platen.jpg", platen, [cv2.IMWRITE_JPEG_QUALITY, rec.quality])
    still = [e["frame"] for e in entries if e and e["still"]]
    seen = [e["frame"] for e in entries if e]
    rest = entries[still[0]] if still else None
    item = {"name": rec.name, "group": rec.group, "kind": rec.kind, "class": rec.doc.cls, "layout": rec.doc.layout,
            "side": rec.doc.side, "station": rec.cam.name, "hfov_deg": scene.STATIONS[rec.cam.name][0],
            "width": rec.cam.size[0], "height": rec.cam.size[1], "frames": len(entries), "fps": FPS,
            "duration_s": round(len(entries) / FPS, 3), "surface": rec.surface[0],
            "surface_variant": surfaces.VARIANTS[rec.surface[0]][rec.surface[1]], "style": rec.style,
            "upside_down": bool(rec.opts.get("upside_down", False)), "glare_spot": rec.glare_spot,
            "low_light": bool(rec.opts.get("low_light", False)), "withdrawn": rec.track.t4 is not None,
            "first_seen_s": round(seen[0] / FPS, 4) if seen else None,
            "first_still_s": round(still[0] / FPS, 4) if still else None, "still_frames": len(still),
            "rest_guidance": rest["guidance"] if rest else None, "rest_mrz_readable": rest["mrz_readable"] if rest else None}
    if thumbs is not None and entries:
        moving = [e["frame"] for e in entries if e and not e["still"]]
        fastest = max(seen, key=lambda k: entries[k]["motion_blur_mm"]) if seen else 0
        want = [seen[0] + 2 if seen else 0, fastest, still[0] if still else 0, (still[0] + still[-1]) // 2 if still else 0,
                moving[-1] - 3 if moving else 0]
        row = []
        for k in want:
            k = max(0, min(len(entries) - 1, k))
            tile = cv2.resize(cv2.imdecode(picks[k], cv2.IMREAD_COLOR), (384, 216), interpolation=cv2.INTER_AREA)
            e = entries[k]
            if e:
                c = np.round(np.array(e["corners"], np.float32) * (384 / rec.cam.size[0])).astype(np.int32)
                cv2.polylines(tile, [c], True, (0, 255, 0), 1, cv2.LINE_AA)
                cv2.circle(tile, tuple(int(v) for v in c[0]), 3, (0, 0, 255), -1)
            text = "%s f%d %s" % (rec.name, k, "-" if not e else "%s %.1fmm%s%s" % (e["guidance"], e["motion_blur_mm"],
                                                                                    " still" if e["still"] else "", " R" if e["mrz_readable"] else ""))
            for col, th in (((0, 0, 0), 3), ((255, 255, 255), 1)):
                cv2.putText(tile, text, (4, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.38, col, th, cv2.LINE_AA)
            row.append(tile)
        thumbs.append(np.hstack(row))
    return item


def all_plans():
    for group in GROUPS:
        for i, plan in enumerate(PLANS[group]):
            yield rec_name(group, i, plan[0]), group, i, plan


def sources_hash():
    return hashlib.sha256((datagen.source_hash(HERE) + datagen.source_hash(PARENT)).encode()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "vision-data", "field"))
    parser.add_argument("--force", action="store_true", help="make them again even when the stamp is current")
    parser.add_argument("--demo-only", action="store_true", help="only the demo's booklet (demo-booklet)")
    parser.add_argument("--demo-mrz", help="the demo passport's TD3 MRZ: LINE1LINE2 (88 characters) or two lines")
    parser.add_argument("--only", help="one recording by name, into sequences-trial/ (a trial: no stamp, no index)")
    parser.add_argument("--frames", type=int, help="with --only: the first N frames")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    try:
        demo_mrz = mrzgen.parse_lines(args.demo_mrz) if args.demo_mrz else list(DEFAULT_DEMO_MRZ)
    except ValueError as e:
        parser.error("--demo-mrz: %s" % e)
    out = os.path.abspath(args.out)
    d = os.path.join(out, "sequences")
    os.makedirs(d, exist_ok=True)
    wall, cpu = time.time(), time.process_time()
    if args.only:
        plans = {name: (group, i, plan) for name, group, i, plan in all_plans()}
        if args.only == DEMO_NAME:
            rec = Recording(DEMO_NAME, "demo", 0, DEMO_PLAN, demo_mrz)
        elif args.only in plans:
            group, i, plan = plans[args.only]
            rec = Recording(args.only, group, i, plan)
        else:
            parser.error("--only: one of %s" % ", ".join(list(plans) + [DEMO_NAME]))
        thumbs = []
        trial = os.path.join(out, "sequences-trial")
        os.makedirs(trial, exist_ok=True)
        item = write_recording(rec, trial, thumbs, args.frames)
        cv2.imwrite(os.path.join(trial, args.only + "-contact.jpg"), np.vstack(thumbs), [cv2.IMWRITE_JPEG_QUALITY, 88])
        print(json.dumps(item))
        print("field-recordings: %s in %.1f s CPU" % (args.only, time.process_time() - cpu))
        return
    stamp_path = os.path.join(d, "stamp.json")
    index_path = os.path.join(d, "index.json")
    sources = sources_hash()
    demo_hash = hashlib.sha256((sources + "\n" + "\n".join(demo_mrz)).encode()).hexdigest()
    try:
        stamp = json.load(open(stamp_path))
    except (OSError, ValueError):
        stamp = {}
    try:
        index = json.load(open(index_path))
    except (OSError, ValueError):
        index = {"recordings": []}

    def present(name):
        return all(os.path.exists(os.path.join(d, name + s)) for s in (".mjpeg", ".json", "-platen.jpg"))

    items = {r["name"]: r for r in index.get("recordings", [])}
    did = []
    timings = {}
    if os.path.exists(stamp_path):
        os.remove(stamp_path)
    if not args.demo_only and (args.force or stamp.get("sources") != sources or not all(present(n) for n, *_ in all_plans())):
        for name in os.listdir(d):
            if not name.startswith(DEMO_NAME):
                os.remove(os.path.join(d, name))
        items = {k: v for k, v in items.items() if k == DEMO_NAME}
        thumbs = []
        for name, group, i, plan in all_plans():
            t0 = time.process_time()
            items[name] = write_recording(Recording(name, group, i, plan), d, thumbs)
            timings[name] = time.process_time() - t0
            print("  %-24s %3d frames %6.1f s CPU  still from %s s" % (name, items[name]["frames"], timings[name], items[name]["first_still_s"]))
        cv2.imwrite(os.path.join(d, "contact.jpg"), np.vstack(thumbs), [cv2.IMWRITE_JPEG_QUALITY, 85])
        stamp["sources"] = sources
        did.append("%d recordings" % len(timings))
    if args.force or stamp.get("demo") != demo_hash or not present(DEMO_NAME):
        t0 = time.process_time()
        thumbs = []
        items[DEMO_NAME] = write_recording(Recording(DEMO_NAME, "demo", 0, DEMO_PLAN, demo_mrz), d, thumbs)
        timings[DEMO_NAME] = time.process_time() - t0
        cv2.imwrite(os.path.join(d, DEMO_NAME + "-contact.jpg"), thumbs[0], [cv2.IMWRITE_JPEG_QUALITY, 85])
        print("  %-24s %3d frames %6.1f s CPU  still from %s s" % (DEMO_NAME, items[DEMO_NAME]["frames"], timings[DEMO_NAME],
                                                               items[DEMO_NAME]["first_still_s"]))
        stamp["demo"] = demo_hash
        did.append("the demo's booklet")
    order = {g: i for i, g in enumerate(GROUPS + ("demo",))}
    index = {"fps": FPS, "exposure_s": EXPOSURE_S, "still_mm": STILL_MM,
             "recordings": sorted(items.values(), key=lambda r: (order[r["group"]], r["name"]))}
    with open(index_path, "w") as f:
        json.dump(index, f, indent=1)
    if did:
        stamp["cpu_s"] = {k: round(v, 1) for k, v in timings.items()}
    with open(stamp_path, "w") as f:
        json.dump(stamp, f, indent=1)
    if did:
        print("field-recordings: made %s in %s in %.1f s (%.1f s CPU, one thread)" % (" and ".join(did), d, time.time() - wall,
                                                                                     time.process_time() - cpu))
    else:
        print("field-recordings: %s is current" % d)


if __name__ == "__main__":
    main()
