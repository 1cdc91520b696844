#!/usr/bin/python3
"""Generates the field scenes under .cache/vision-data/field/ (docs/vision-data.md, "Field scenes").

Usage: scripts/vision-data/field/generate.py [--out DIR] [--force] [--only SPLIT] [--limit N]

Camera stills of ID documents (TD1 and TD2 cards, TD3 data pages loose and in an open
passport booklet) on many platen surfaces, seen by several stations (field of view,
height, lens distortion), each with the same camera's view of the empty platen, and a
JSON of ground truth whose labels (mrz_readable, guidance) follow from the geometry.
Splits train (tune on), heldout (measure) and sealed (measure once per finished change).

Deterministic (fixed seeds, one thread); regenerates only when these sources or
scripts/vision-data/*.py changed, or with --force. (The recordings are recordings.py's,
with their own stamp; this one leaves recordings.py out.)
Prints counts and timings only.
"""
import sys

sys.dont_write_bytecode = True

import argparse
import json
import math
import os
import random
import shutil
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PARENT = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PARENT))
sys.path.insert(0, PARENT)
sys.path.insert(0, HERE)

import cv2
import numpy as np

import importlib.util

import compose
import mrzgen
import pages
import scene
import surfaces

# The ID-document generator's weighted choice, loaded under another name (this is a `generate` too).
_spec = importlib.util.spec_from_file_location("id_generate", os.path.join(PARENT, "generate.py"))
id_generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(id_generate)
weighted = id_generate.weighted

SPLITS = ("train", "heldout", "sealed")
SPLIT_INDEX = {"train": 1, "heldout": 3, "sealed": 5}
# Stills per split: (1280x720, 1920x1080).
COUNTS = {"train": (288, 72), "heldout": (192, 48), "sealed": (192, 48)}
SIZES = ((1280, 720), (1920, 1080))

# Page designs per class: template (colour scheme), clear zone under the MRZ, MRZ cap
# height (mm), MRZ offsets (mm, within ICAO's tolerance), ghost portrait.
DESIGNS = [
    (0, True, 2.42, 0.0, 0.0, False), (1, False, 2.30, 0.4, -0.3, True), (6, False, 2.55, -0.3, 0.3, False),
    (2, True, 2.20, 0.2, 0.2, True), (3, False, 2.60, -0.4, -0.2, True),
    (7, False, 2.25, 0.3, 0.4, True), (4, True, 2.50, -0.2, -0.4, False), (8, False, 2.40, 0.5, 0.1, True),
    (9, False, 2.35, -0.5, -0.1, False), (5, True, 2.58, 0.1, 0.3, True),
]
SPLIT_DESIGNS = {"train": (0, 1, 2, 3, 4), "heldout": (5, 6, 7, 8, 9), "sealed": (5, 6, 7, 8, 9)}
# Photographs laid on the platen as non-documents (no people in any).
PRINT_PHOTOS = {"train": surfaces.PHOTOS_A + surfaces.PHOTOS_B, "heldout": surfaces.PHOTOS_C + surfaces.PHOTOS_D,
                "sealed": surfaces.PHOTOS_C + surfaces.PHOTOS_D}
GROUPS = [("TD1", "card"), ("TD2", "card"), ("TD3", "loose"), ("TD3", "booklet")]
CASES = [("normal", 84), ("visa_decoy", 4), ("two_documents", 3), ("text_page", 2.5), ("partial_mrz", 3),
         ("empty", 1.5), ("non_document", 2)]
TARGETS = [("ready", 44), ("tooClose", 10), ("moveCloser", 8), ("centerId", 9), ("tilt", 10), ("holdStraight", 11), ("holdStill", 8)]
DOC_CASES = ("normal", "visa_decoy", "two_documents", "partial_mrz")


def r2(v):
    return round(float(v), 2)


# ---------------------------------------------------------------- labels

def rotation_dev(r):
    r = abs(r) % 180
    return min(r, 180 - r)


def guidance(c, tilt, rotation, motion_mm, size):
    """The guidance label, the first rule that applies, and whether every rule is decided
    by a margin (so the label does not hang on a pixel)."""
    if c is None:
        return "centerId", True
    fw, fh = size
    mx, my = scene.EDGE * fw, scene.EDGE * fh
    x, y = c[:, 0], c[:, 1]
    edge_gap = min(np.abs(x - mx).min(), np.abs(x - (fw - mx)).min(), np.abs(y - my).min(), np.abs(y - (fh - my)).min())
    area = compose.quad_area(c) / (fw * fh)
    off = math.hypot(*(c.mean(0) - np.array([fw / 2, fh / 2]))) / fw
    dev = rotation_dev(rotation)
    decisive = (edge_gap >= 0.004 * fw and abs(area - scene.AREA) >= 0.008 and abs(off - scene.OFFSET) >= 0.008
                and abs(tilt - scene.TILT) >= 1.0 and abs(dev - scene.ROTATION) >= 1.0 and abs(motion_mm - scene.HOLD_STILL_MM) >= 0.05)
    if np.any(x < mx) or np.any(x > fw - mx) or np.any(y < my) or np.any(y > fh - my):
        return "tooClose", decisive
    if area < scene.AREA:
        return "moveCloser", decisive
    if off > scene.OFFSET:
        return "centerId", decisive
    if tilt > scene.TILT:
        return "tilt", decisive
    if dev > scene.ROTATION:
        return "holdStraight", decisive
    if motion_mm > scene.HOLD_STILL_MM:
        return "holdStill", decisive
    return "ready", decisive


def mrz_cells(geometry, lines, size_mm):
    """Every character cell of the MRZ in the page frame (mm, origin at the page centre):
    an array (cells, 5, 2) of its corners and centre."""
    if not lines:
        return None
    w, h = size_mm
    left = geometry["left_px"] / pages.PX_PER_MM
    pitch = geometry["pitch_px"] / pages.PX_PER_MM
    out = []
    for line, yc in zip(lines, geometry["ys_px"]):
        yc /= pages.PX_PER_MM
        for i in range(len(line)):
            x0 = left + i * pitch - w / 2
            y0, y1 = yc - scene.CELL_H / 2 - h / 2, yc + scene.CELL_H / 2 - h / 2
            x1 = x0 + scene.CELL_W
            out.append([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [(x0 + x1) / 2, (y0 + y1) / 2]])
    return np.array(out, np.float64)


def inside_margin(pts, size):
    """The least distance of the points inside the frame (negative: outside)."""
    fw, fh = size
    x, y = pts[:, 0], pts[:, 1]
    return float(min((x + 0.5).min(), (fw - 0.5 - x).min(), (y + 0.5).min(), (fh - 0.5 - y).min()))


def glare_at(pts, g):
    """compose.glare's added value at points (g: centre, axes, angle, strength)."""
    (cx, cy), axes, angle, strength = g
    dx, dy = pts[:, 0] - cx, pts[:, 1] - cy
    t = math.radians(angle)
    u = (dx * math.cos(t) + dy * math.sin(t)) / axes[0]
    v = (-dx * math.sin(t) + dy * math.cos(t)) / axes[1]
    return strength * np.exp(-(u * u + v * v) ** 1.5)


# ---------------------------------------------------------------- the still

_surf = {}


def surface(kind, variant, canvas):
    key = (kind, variant, canvas)
    if key not in _surf:
        _surf[key] = surfaces.make(kind, variant, canvas)
    return _surf[key]


_light_grid = {}


def light_field(rng, canvas, m, wb, gain):
    """The per-pixel multiplier of the still's light: vignetting, a gradient, white
    balance and exposure (3 channels)."""
    w, h = canvas
    if canvas not in _light_grid:
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        nx, ny = (x - w / 2) / (w / 2 - m), (y - h / 2) / (w / 2 - m)
        _light_grid[canvas] = (nx, ny, nx * nx + ny * ny)
    nx, ny, rr = _light_grid[canvas]
    a = rng.uniform(0, 2 * math.pi)
    lf = (1 - rng.uniform(0.08, 0.32) * rr) * (1 + rng.uniform(0.0, 0.12) * (math.cos(a) * nx + math.sin(a) * ny))
    return cv2.merge([lf * float(gain * wb[0]), lf * float(gain * wb[1]), lf * float(gain * wb[2])])


def finish(canvas, cam, rng, light, noise, glares=()):
    """Light, glare, the lens, sensor noise: the frame as 8-bit BGR."""
    return sensor(develop(canvas, cam, light, glares), rng, noise)


def develop(canvas, cam, light, glares=(), glare_mask=None):
    """Light, glare and the lens: the frame as 8-bit RGB before the sensor's noise.
    glare_mask (canvas-sized, 0-1; the recordings'): where the glare shows (the laminate,
    not the platen or a hand); None: everywhere."""
    u8 = cv2.multiply(canvas, light, dtype=cv2.CV_8U)
    add_glares(u8, glares, glare_mask)
    return cam.lens(u8)


def add_glares(u8, glares, glare_mask=None):
    """LED glare spots added to a lit 8-bit canvas (in place; see develop)."""
    for (cx, cy), axes, angle, strength in glares:
        r = int(max(axes) * 2.2) + 2
        xa, ya = max(0, int(cx) - r), max(0, int(cy) - r)
        xb, yb = min(u8.shape[1], int(cx) + r), min(u8.shape[0], int(cy) + r)
        if xa < xb and ya < yb:
            patch = u8[ya:yb, xa:xb].astype(np.float32)
            compose.glare(patch, (cx - xa, cy - ya), axes, angle, strength)
            if glare_mask is not None:
                before = u8[ya:yb, xa:xb].astype(np.float32)
                patch = before + (patch - before) * glare_mask[ya:yb, xa:xb, None]
            u8[ya:yb, xa:xb] = np.clip(patch, 0, 255).astype(np.uint8)


def sensor(out, rng, noise):
    """Sensor noise (a random window of a fixed bank) on a developed frame: 8-bit BGR."""
    h, w = out.shape[:2]
    if (h, w) not in _noise:  # unit Gaussian noise x 8 in int16; a random window per image
        _noise[(h, w)] = np.round(np.random.default_rng(h * 7 + w).standard_normal((h + 64, w + 64, 3)) * 8).astype(np.int16)
    dy, dx = rng.randrange(64), rng.randrange(64)
    window = _noise[(h, w)][dy:dy + h, dx:dx + w]
    out = cv2.addWeighted(out, 1.0, window, noise / 8.0, 0.0, dtype=cv2.CV_8U)
    return cv2.cvtColor(out, cv2.COLOR_RGB2BGR)


_noise = {}


def sample_pose(rng, cam, target, size_mm, lifted_bias=0.3, extent=None):
    """(centre mm, rotation, tilt, axis, lift) for a wanted label; checked afterwards."""
    fw, fh = cam.size
    H = cam.height
    lifted = target == "tilt" or rng.random() < lifted_bias
    lift = rng.uniform(8, 0.45 * H) if lifted else 0.0
    if target == "tooClose" and rng.random() < 0.5:
        lift = rng.uniform(0.3, 0.55) * H
    if target == "moveCloser":
        lift = 0.0
    tilt = rng.uniform(17, 35) if target == "tilt" else (rng.uniform(0, 12) if lifted else rng.uniform(0, 2.5))
    half = 0.5 * math.hypot(*(extent or size_mm))
    lift = max(lift, half * math.sin(math.radians(tilt)) + (3 if tilt > 3 else 0))
    # At most ~8.3 px/mm at 1280 wide (the document held close to the camera).
    lift = min(lift, H - cam.f / (8.3 * fw / 1280))
    ppm = cam.f / (H - lift)
    if target == "holdStraight":
        rotation = rng.choice((-1, 1)) * rng.uniform(14, 90)
    elif target in ("ready", "tilt", "holdStill", "moveCloser") or rng.random() < 0.6:
        rotation = max(-10.5, min(10.5, rng.gauss(0, 4.5)))
    else:
        rotation = rng.uniform(-180, 180)
    if rng.random() < 0.15:
        rotation += 180
    if target == "centerId":
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.2, 0.32) * fw
        off = (d * math.cos(a), 0.6 * d * math.sin(a))
    elif target == "tooClose" and lift < 0.3 * H:
        a = rng.uniform(0, 2 * math.pi)
        off = (math.cos(a) * rng.uniform(0.3, 0.5) * fw, math.sin(a) * rng.uniform(0.3, 0.5) * fh)
    else:
        off = (rng.gauss(0, 0.04 * fw), rng.gauss(0, 0.04 * fh))
    centre = (off[0] / ppm, off[1] / ppm)
    if rotation > 180:
        rotation -= 360
    return centre, rotation, tilt, rng.uniform(0, 360), lift


def make_still(split, n, size, out_dir, only_record=False):
    rng = random.Random(SPLIT_INDEX[split] * 7_000_003 + n * 131 + size[0])
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    cam = scene.Camera(rng.choice(scene.SPLIT_STATIONS[split]), size)
    fw, fh = size
    kind = rng.choice(surfaces.KINDS)
    variant = rng.choice(surfaces.SPLIT_VARIANTS[split][kind])
    case = weighted(rng, CASES)
    rec = {"width": fw, "height": fh, "class": None, "layout": None, "side": None, "corners": None, "mrz": None,
           "mrz_readable": False, "guidance": "centerId", "tilt_deg": None, "rotation_deg": None,
           "motion_blur_mm": 0.0, "defocus_mm": 0.0, "glare": False, "glare_over_mrz": False, "hand": False,
           "surface": kind, "surface_variant": surfaces.VARIANTS[kind][variant], "platen_changed": False,
           "case": case, "decoy_mrz": None, "px_per_mm": None, "station": cam.name}
    surf = surface(kind, variant, cam.canvas)
    base = surf.astype(np.float32)
    wb = np.array([rng.uniform(0.92, 1.08), 1.0, rng.uniform(0.9, 1.1)], np.float32)
    low = rng.random() < 0.1
    gain = rng.uniform(0.45, 0.65) if low else rng.uniform(0.82, 1.15)
    light = light_field(rng, cam.canvas, cam.m, wb, gain)
    noise = rng.uniform(3.0, 5.0) if low else rng.uniform(0.8, 2.5)
    quality = 70 + int(25.99 * rng.random() ** 2)  # 70-95, most of them low (the set's size)
    # The platen changed since its picture: a printed leaflet added or removed.
    platen = surf
    frame = base
    if rng.random() < 0.1:
        rec["platen_changed"] = True
        lrgb, la, lmm = scene.text_sheet(rng, rng.choice((105.0, 148.0)), rng.choice((148.0, 210.0)))
        lpose = scene.Pose((rng.uniform(-0.4, 0.4) * fw / cam.platen_ppm(), rng.uniform(-0.4, 0.4) * fh / cam.platen_ppm()),
                           rng.uniform(-180, 180), 0, 0, 0)
        with_leaflet = base.copy()
        draw_flat(with_leaflet, cam, lpose, lrgb, la, lmm, shadow=0.12)
        if rng.random() < 0.5:
            frame = with_leaflet
        else:
            platen = with_leaflet
    glares = []
    doc = None
    if case in DOC_CASES:
        doc = place_document(rng, nrng, split, n, cam, case, frame, rec)
        glares = doc.get("glares", [])
    elif case == "text_page":
        srgb, sa, smm = scene.text_sheet(rng, *rng.choice(((210.0, 297.0), (148.0, 210.0))), ppm=3.5)
        p = sample_pose(rng, cam, "ready", smm, lifted_bias=0.0)
        draw_flat(frame, cam, scene.Pose(p[0], rng.uniform(-180, 180), 0, 0, 0), srgb, sa, smm, shadow=0.15)
    elif case == "non_document":
        what = rng.choice(("phone", "book", "photo"))
        if what == "phone":
            orgb, oa, omm = compose.phone_image(nrng)
        elif what == "book":
            orgb, oa, omm = compose.book_image(nrng, pages.DEJAVU_SERIF_BOLD)
        else:
            orgb, oa, omm = compose.print_image(surfaces.photo(rng.choice(PRINT_PHOTOS[split])))
        p = sample_pose(rng, cam, "ready", omm, lifted_bias=0.0)
        draw_flat(frame, cam, scene.Pose(p[0], rng.uniform(-180, 180), 0, 0, 20.0 if what == "book" else 0.0), orgb, oa, omm,
                  shadow=0.4 if what == "book" else 0.15)
    if only_record:
        return rec
    name = "%04d" % n
    img = finish(frame, cam, rng, light, noise, glares)
    cv2.imwrite(os.path.join(out_dir, name + ".jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    img = finish(platen, cam, rng, light, noise)
    cv2.imwrite(os.path.join(out_dir, name + "-platen.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(rec, f)
    return rec


def draw_flat(canvas, cam, pose, rgb_u8, a_u8, size_mm, shadow=0.15, z=0.0):
    ppm = rgb_u8.shape[1] / size_mm[0]
    rgb, a, tppm = scene.texture(rgb_u8, a_u8, ppm, cam.f / (cam.height - pose.lift))
    w, h = size_mm
    pts = cam.canvas_xy(pose.world([[-w / 2, -h / 2, z], [w / 2, -h / 2, z], [w / 2, h / 2, z], [-w / 2, h / 2, z]]))
    box = scene.object_box(cam, pts)
    if box is None:
        return None
    acc = scene.Acc(box)
    scene.flat_object(acc, cam, pose, rgb, a, tppm, size_mm, z=z)
    compose.over(canvas, acc.layer(), shadow=shadow, shadow_offset=(4, 6), shadow_blur=5.0)
    return pts


def place_document(rng, nrng, split, n, cam, case, frame, rec):
    fw, fh = cam.size
    if case == "visa_decoy":
        cls, layout = "TD3", "booklet"
    else:
        cls, layout = GROUPS[rng.randrange(4)]
    side = "data" if cls != "TD1" else ("back" if case == "partial_mrz" or rng.random() < 0.5 else "front")
    d = SPLIT_DESIGNS[split][rng.randrange(5)]
    template, clear, cap, dx, dy, ghost = DESIGNS[d]
    design = {"clear_zone": clear, "cap_mm": cap, "mrz_dx": dx, "mrz_dy": dy, "ghost": ghost}
    seed = SPLIT_INDEX[split] * 10_000_000 + 5_000_000 + n * 3 + (1 if fw > 1280 else 0) * 1_000_000
    geometry = {}
    prgb, pa, mrz = pages.render(cls, side, seed, template, design=design, geometry=geometry)
    size_mm = pages.SIZE_MM[cls]
    cells = mrz_cells(geometry, mrz, size_mm)
    rec.update({"class": cls, "layout": layout, "side": side, "mrz": mrz})
    geo = None
    extent = size_mm
    if layout == "booklet":
        geo = {"t": rng.uniform(1.5, 3.5), "H1": rng.uniform(2.0, 5.0), "L1": rng.uniform(5, 12), "H2": rng.uniform(2.0, 6.0),
               "L2": rng.uniform(5, 12), "cm": rng.uniform(2.0, 4.5), "bm": rng.uniform(0.6, 1.4),
               "cover": scene.LEATHER[rng.randrange(len(scene.LEATHER))], "seed": seed}
        extent = (130, 185)
    # Motion and focus: drawn away from the thresholds (0.5 and 1.0 mm; 0.3 mm).
    target = weighted(rng, TARGETS) if case != "partial_mrz" else "ready"
    if target == "holdStill":
        motion = rng.uniform(0.58, 3.0)
    elif rng.random() < 0.2:
        motion = rng.uniform(0.05, 0.44)
    else:
        motion = 0.0
    if 0.92 < motion < 1.08:
        motion = 1.12
    r = rng.random()
    defocus = 0.0 if r < 0.8 else (rng.uniform(0.05, 0.25) if r < 0.88 else rng.uniform(0.36, 1.5))
    partial = rng.choice(("edge", "thumb", "glare")) if case == "partial_mrz" else None
    z_of = (lambda y: scene.booklet_page_height(geo, y)) if geo else (lambda y: 0.0)
    best = None
    for attempt in range(40):
        centre, rotation, tilt, axis, lift = sample_pose(rng, cam, target if partial != "edge" else "tooClose", size_mm,
                                                          lifted_bias=0.15 if layout == "booklet" else 0.3, extent=extent)
        if layout == "booklet":
            tilt = min(tilt, 20.0) if target == "tilt" else min(tilt, 6.0)
        pose = scene.Pose(centre, rotation, tilt, axis, lift)
        w, h = size_mm
        pc = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        P = np.c_[pc, [z_of(y) for y in pc[:, 1]]]
        corners = cam.frame_xy(pose.world(P))
        tilt_cam = scene.tilt_to_camera(cam, pose)
        rot = compose.rotation_of(corners)
        label, decisive = guidance(corners, tilt_cam, rot, motion, cam.size)
        cell_ok, cells_in = True, None
        if cells is not None:
            cp = cells.reshape(-1, 2)
            cw = cam.frame_xy(pose.world(np.c_[cp, [z_of(y) for y in cp[:, 1]]]))
            ppm_here = cam.f / (cam.height - lift)
            im = inside_margin(cw.reshape(-1, 5, 2)[:, :4].reshape(-1, 2), cam.size)
            cells_in = im >= 0
            cell_ok = abs(im) >= 2.5 * ppm_here
            if partial == "edge":
                visible = np.mean([inside_margin(c[:4], cam.size) > 0 for c in cw.reshape(-1, 5, 2)])
                cell_ok = cell_ok and not cells_in and visible >= 0.4
        if not (decisive and cell_ok):
            continue
        best = (pose, corners, tilt_cam, rot, label)
        if label == target or partial:
            break
    if best is None:  # nothing decisive: lay it flat in the middle, straight
        pose = scene.Pose((0, 0), 0.0, 0.0, 0.0, 0.0)
        motion = 0.0
        P = np.c_[pc, [z_of(y) for y in pc[:, 1]]]
        corners = cam.frame_xy(pose.world(P))
        best = (pose, corners, scene.tilt_to_camera(cam, pose), compose.rotation_of(corners), None)
    pose, corners, tilt_cam, rot, _ = best
    if partial == "edge" and best[4] is None:
        partial = "glare"  # no pose cut the MRZ decisively: a glare spot covers it instead
    label, _ = guidance(corners, tilt_cam, rot, motion, cam.size)
    # Scale at the page's centre, through the lens.
    zc = z_of(0.0)
    q = cam.frame_xy(pose.world([[0, 0, zc], [0.5, 0, zc], [0, 0.5, zc]]))
    ppm = math.sqrt(abs(np.cross(q[1] - q[0], q[2] - q[0]))) / 0.5
    target_ppm = cam.f / (cam.height - pose.lift)
    # A second, smaller document beside (drawn first: the main one lies over it).
    if case == "two_documents":
        ocls, oside = rng.choice((("TD1", "front"), ("TD1", "back"), ("TD2", "data")))
        orgb, oa, _ = pages.render(ocls, oside, seed + 1, rng.choice([DESIGNS[k][0] for k in SPLIT_DESIGNS[split]]))
        omm = pages.SIZE_MM[ocls]
        ang = math.radians(pose.rotation + rng.choice((0, 90, 180, 270)) + rng.uniform(-25, 25))
        dist = 0.5 * math.hypot(*extent) + 0.5 * math.hypot(*omm) + rng.uniform(3, 25)
        opose = scene.Pose((pose.T[0] + dist * math.cos(ang), pose.T[1] + dist * math.sin(ang)), rng.uniform(-180, 180), 0, 0, 0)
        draw_flat(frame, cam, opose, orgb, oa, omm)
    # The document layer.
    if layout == "booklet":
        visa = mrzgen.visa_mrv_a(seed) if case == "visa_decoy" else None
        facing = scene.facing_page(rng, template, rng.choice((-1, 1)), visa, rng.random() < 0.35, stamps=rng.choice((0, 0, 1, 2, 3)))
        parts, gap = scene.booklet_parts(rng, prgb, template, facing, geo["cover"], target_ppm)
        y_top = -44 - gap - 88
        cm = geo["cm"]
        outline = cam.canvas_xy(pose.world([[-62.5 - cm, y_top - cm, 0], [62.5 + cm, y_top - cm, 0], [62.5 + cm, 44 + cm, 0], [-62.5 - cm, 44 + cm, 0]]))
        box = scene.object_box(cam, outline)
        acc = scene.Acc(box)
        scene.draw_booklet(acc, cam, pose, parts, gap, geo)
        rec["decoy_mrz"] = visa
    else:
        rgb, a, tppm = scene.texture(prgb, pa, pages.PX_PER_MM, target_ppm)
        w, h = size_mm
        outline = cam.canvas_xy(pose.world([[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]]))
        box = scene.object_box(cam, outline)
        acc = scene.Acc(box)
        scene.flat_object(acc, cam, pose, rgb, a, tppm, size_mm, chunks=1)
    layer = acc.layer()
    if motion > 0:
        layer = compose.blur_layer(layer, max(1.0, motion * target_ppm), rng.uniform(0, 180))
    if defocus > 0:
        s = defocus / 2 * target_ppm
        if s > 0.3:
            layer.rgb = cv2.GaussianBlur(layer.rgb, (0, 0), s)
            layer.a = cv2.GaussianBlur(layer.a, (0, 0), s)
    lift = pose.lift
    compose.over(frame, layer, shadow=0.18 + 0.004 * lift, shadow_offset=(4 + 0.25 * lift, 6 + 0.3 * lift), shadow_blur=4.0 + 0.2 * lift)
    # Cells on the canvas (hand and glare are drawn there).
    cells_canvas = None
    if cells is not None:
        cp = cells.reshape(-1, 2)
        cells_canvas = cam.canvas_xy(pose.world(np.c_[cp, [z_of(y) for y in cp[:, 1]]]))
    canvas_corners = cam.canvas_xy(pose.world(np.c_[pc, [z_of(y) for y in pc[:, 1]]]))
    # A hand holding an edge, its thumb over the page (over the MRZ only in partial_mrz).
    thumb_on_mrz = False
    hand_p = 0.7 if lift > 20 else 0.18
    if partial == "thumb" or rng.random() < hand_p:
        edges = [0, 1, 3] if partial != "thumb" else [2]
        rng.shuffle(edges)
        for e in edges:
            a_, b_ = canvas_corners[e], canvas_corners[(e + 1) % 4]
            t = rng.uniform(0.3, 0.7) if partial != "thumb" else None
            if partial == "thumb":
                c0 = cells_canvas.reshape(-1, 5, 2)[rng.randrange(len(cells_canvas) // 5)][4]
                inward = canvas_corners.mean(0) - (a_ + b_) / 2
                inward /= np.linalg.norm(inward)
                tip = c0 + inward * 12 * target_ppm  # the fingertips end some 9 mm short of `tip`
            else:
                p = a_ + (b_ - a_) * t
                inward = canvas_corners.mean(0) - p
                inward /= np.linalg.norm(inward) + 1e-9
                tip = p + inward * rng.uniform(4, 14) * target_ppm
            hl = compose.hand_layer(cam.canvas, tip, inward, target_ppm * rng.uniform(1.0, 1.15), np.random.default_rng(rng.randrange(1 << 30)))
            if hl is None:
                continue
            on, near = False, False
            if cells_canvas is not None:
                r = int(math.ceil(2 * target_ppm))
                dil = cv2.dilate(hl.a, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
                ij = np.round(cells_canvas - np.array([hl.x0, hl.y0])).astype(int)
                ok = (ij[:, 0] >= 0) & (ij[:, 0] < hl.a.shape[1]) & (ij[:, 1] >= 0) & (ij[:, 1] < hl.a.shape[0])
                vals = np.zeros(len(ij))
                vd = np.zeros(len(ij))
                vals[ok] = hl.a[ij[ok, 1], ij[ok, 0]]
                vd[ok] = dil[ij[ok, 1], ij[ok, 0]]
                on, near = bool((vals > 0.5).any()), bool((vd > 0.05).any())
            if partial == "thumb" and not on:
                continue
            if partial != "thumb" and near:
                continue
            compose.over(frame, hl, shadow=0.3, shadow_offset=(8, 11), shadow_blur=10.0)
            rec["hand"] = True
            thumb_on_mrz = on
            break
    if partial == "thumb" and not thumb_on_mrz:
        partial = "glare"  # the thumb did not land on the MRZ: a glare spot covers it instead
    # LED glare on the page: away from the MRZ, or over it (partial_mrz).
    glares = []
    glare_max = 0.0
    if partial == "glare" or rng.random() < 0.3:
        Hm = cv2.getPerspectiveTransform(pc.astype(np.float32), canvas_corners.astype(np.float32))
        width = np.linalg.norm(canvas_corners[1] - canvas_corners[0])
        for attempt in range(6):
            if partial == "glare":
                c0 = cells.reshape(-1, 5, 2)[rng.randrange(len(cells))][4]
                g_at = cv2.perspectiveTransform(np.array([[c0]], np.float32), Hm)[0, 0]
                strength = rng.uniform(260, 380)
            else:
                g_at = cv2.perspectiveTransform(np.array([[[rng.uniform(-0.45, 0.45) * size_mm[0], rng.uniform(-0.5, 0.2) * size_mm[1]]]], np.float32), Hm)[0, 0]
                strength = rng.uniform(140, 330)
            g = ((float(g_at[0]), float(g_at[1])), (width * rng.uniform(0.04, 0.1), width * rng.uniform(0.02, 0.05)), rng.uniform(0, 180), strength)
            if partial == "glare" and attempt == 5:
                g = g[:3] + (420.0,)  # the last try: a saturating spot on the cell
            gm = float(glare_at(cells_canvas, g).max()) if cells_canvas is not None else 0.0
            if partial == "glare" and gm < 0.5 * 255:
                continue
            if partial != "glare" and gm > 0.25 * 255:
                continue
            glares = [g]
            glare_max = gm
            break
    inside_page = bool(glares) and cv2.pointPolygonTest(canvas_corners.astype(np.float32), glares[0][0], False) >= 0
    # mrz_readable, by the rule.
    readable = False
    if cells is not None:
        cw = cam.distort(cells_canvas).reshape(-1, 5, 2)[:, :4].reshape(-1, 2)
        readable = (inside_margin(cw, cam.size) >= 0 and not thumb_on_mrz and glare_max <= scene.READ_GLARE * 255
                    and motion <= scene.READ_BLUR_MM and defocus <= scene.READ_DEFOCUS_MM)
    rec.update({"corners": [[r2(x), r2(y)] for x, y in corners], "mrz_readable": bool(readable), "guidance": label,
                "tilt_deg": r2(tilt_cam), "rotation_deg": r2(rot if rot > -180 else rot + 360), "motion_blur_mm": r2(motion),
                "defocus_mm": r2(defocus), "glare": bool(inside_page), "glare_over_mrz": bool(glare_max > scene.READ_GLARE * 255),
                "px_per_mm": r2(ppm)})
    return {"glares": glares}


# ---------------------------------------------------------------- the set

def contact_sheet(out, splits):
    tiles, crops = [], []
    for split in splits:
        d = os.path.join(out, split)
        names = sorted(x for x in os.listdir(d) if x.endswith(".json"))
        for name in names[::max(1, len(names) // 10)][:10]:
            rec = json.load(open(os.path.join(d, name)))
            img = cv2.imread(os.path.join(d, name[:-5] + ".jpg"))
            if rec["corners"]:
                c = np.array(rec["corners"], np.float32)
                cv2.polylines(img, [np.round(c).astype(np.int32)], True, (0, 255, 0), 2, cv2.LINE_AA)
                cv2.circle(img, tuple(int(v) for v in np.round(c[0])), 8, (0, 0, 255), -1)
            t = cv2.resize(img, (480, 270), interpolation=cv2.INTER_AREA)
            label = "%s %s %s %s %s" % (rec["case"], rec["class"] or "-", rec["layout"] or "", rec["guidance"], "R" if rec["mrz_readable"] else "")
            for col, th in (((0, 0, 0), 3), ((255, 255, 255), 1)):
                cv2.putText(t, label, (5, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, col, th, cv2.LINE_AA)
                cv2.putText(t, rec["surface_variant"] + " " + rec["station"], (5, 262), cv2.FONT_HERSHEY_SIMPLEX, 0.45, col, th, cv2.LINE_AA)
            tiles.append(t)
    rows = [np.hstack(tiles[i:i + 5]) for i in range(0, len(tiles) - len(tiles) % 5, 5)]
    # Full-resolution looks at the MRZ of a few large stills.
    d = os.path.join(out, "train")
    names = sorted(x for x in os.listdir(d) if x.endswith(".json"))
    for name in names:
        rec = json.load(open(os.path.join(d, name)))
        if rec["width"] == 1920 and rec["mrz_readable"] and rec["px_per_mm"] > 6 and len(crops) < 5:
            img = cv2.imread(os.path.join(d, name[:-5] + ".jpg"))
            c = np.array(rec["corners"])
            p = (c[2] + c[3]) / 2 * 0.85 + c.mean(0) * 0.15
            x0, y0 = int(np.clip(p[0] - 240, 0, 1920 - 480)), int(np.clip(p[1] - 135, 0, 1080 - 270))
            crops.append(img[y0:y0 + 270, x0:x0 + 480])
    if len(crops) == 5:
        rows.append(np.hstack(crops))
    cv2.imwrite(os.path.join(out, "contact.jpg"), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 88])


def still_sources():
    """The hash the stills' stamp holds: this folder's scripts but recordings.py (the
    recordings have their own stamp, over all of them) and scripts/vision-data/*.py."""
    datagen = id_generate.datagen
    return datagen.source_hash(HERE, exclude=("recordings.py",)) + datagen.source_hash(PARENT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "vision-data", "field"))
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--splits", default=",".join(SPLITS),
                        help="the splits to have, comma-separated (make test needs train; make bench all)")
    parser.add_argument("--only", choices=SPLITS, help="one split (a trial; no stamp)")
    parser.add_argument("--limit", type=int, help="the first N stills of each size (a trial; no stamp)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    stamp_path = os.path.join(out, "stamp.json")
    sources = still_sources()
    trial = bool(args.only or args.limit)
    try:
        stamp = json.load(open(stamp_path))
    except (OSError, ValueError):
        stamp = {}
    wanted = [split for split in SPLITS if split in args.splits.split(",")]
    if not wanted:
        parser.error("--splits: none of %s" % ", ".join(SPLITS))
    # The splits made from these sources (a stamp from before splits were chosen holds all).
    current = set(stamp.get("splits", SPLITS)) if stamp.get("sources") == sources and not args.force else set()
    if not trial and set(wanted) <= current:
        print("field-data: %s is current (%s)" % (out, ", ".join(wanted)))
        return
    if os.path.exists(stamp_path):
        os.remove(stamp_path)
    # Splits made from other sources go: nothing measures stale stills.
    for split in SPLITS:
        if split not in current and split not in wanted and not trial:
            shutil.rmtree(os.path.join(out, split), ignore_errors=True)
    wall, cpu = time.time(), time.process_time()
    summary = {k: v for k, v in stamp.get("summary", {}).items() if k in current}
    for split in (args.only,) if args.only else [split for split in wanted if split not in current]:
        t0 = time.process_time()
        d = os.path.join(out, split)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        counts = {}
        n = 0
        for size, count in zip(SIZES, COUNTS[split]):
            for k in range(min(count, args.limit or count)):
                rec = make_still(split, n + k, size, d)
                for key in ("case", "class", "layout", "surface", "guidance"):
                    counts.setdefault(key, {})
                    counts[key][str(rec[key])] = counts[key].get(str(rec[key]), 0) + 1
                counts["mrz_readable"] = counts.get("mrz_readable", 0) + int(rec["mrz_readable"])
            n += count
            _surf.clear()
        summary[split] = counts
        print("  %-8s %4d stills  %6.1f s CPU" % (split, sum(counts["case"].values()), time.process_time() - t0))
        for key in ("class", "layout", "surface", "case", "guidance"):
            print("    %-9s %s" % (key, json.dumps(dict(sorted(counts[key].items())))))
        print("    mrz_readable %d" % counts["mrz_readable"])
    if not trial:
        made = [split for split in SPLITS if split in current or split in wanted]
        contact_sheet(out, made)
        with open(stamp_path, "w") as f:
            json.dump({"sources": sources, "splits": made, "summary": summary, "cpu_s": round(time.process_time() - cpu, 1)}, f, indent=1)
    print("field-data: made %s in %.1f s (%.1f s CPU, one thread)" % (out, time.time() - wall, time.process_time() - cpu))


if __name__ == "__main__":
    main()
