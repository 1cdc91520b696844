#!/usr/bin/python3
"""Generates the vision test data of issue 11 under .cache/vision-data/ (see docs/vision-data.md).

Usage: scripts/vision-data/generate.py [--out DIR] [--demo-mrz LINES] [--force] [--demo-only]

Deterministic (fixed seeds, one thread); regenerates only when the generator's sources
changed (a stamp file holds their hash) or when --force is given. The demo recording is
regenerated when its MRZ changes. Prints no MRZ text.
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts in the worktree

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: datagen
import datagen

import cv2
import numpy as np

import compose
import mrzgen
import pages
import station

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPLITS = ("train", "dev", "heldout")
SPLIT_INDEX = {"train": 1, "dev": 2, "heldout": 3}
# Scenes per split: (1280x720, 1920x1080).
SCENE_COUNTS = {"train": (300, 25), "dev": (100, 10), "heldout": (200, 25)}
CROP_COUNTS = {"train": 400, "dev": 150, "heldout": 300}
SCENE_JPEG_QUALITY = 90
SEQUENCE_JPEG_QUALITY = 88
FPS = 15
# Real photographs laid on the platen as non-documents, per split (file, package).
PHOTOS = {
    "train": [station.SKIMAGE_DATA + "chelsea.png", station.OPENCV_DATA + "fruits.jpg",
              station.OPENCV_DATA + "baboon.jpg", station.OPENCV_DATA + "starry_night.jpg"],
    "dev": [station.OPENCV_DATA + "home.jpg", station.OPENCV_DATA + "HappyFish.jpg"],
    "heldout": [station.SKIMAGE_DATA + "rocket.jpg", station.OPENCV_DATA + "building.jpg",
                station.OPENCV_DATA + "butterfly.jpg", station.OPENCV_DATA + "orange.jpg"],
}
# A fictional TD3 MRZ (check digits hold) for the demo recording unless --demo-mrz is given.
DEFAULT_DEMO_MRZ = ("P<UTOVANDERMEER<<ELISE<MARIE<<<<<<<<<<<<<<<<",
                    "BZ5O18I2S6UTO8802141F3309210<<<<<<<<<<<<<<<8")
# What a scene shows, and how often.
CASES = [("ready", 24), ("moveCloser", 9), ("tooClose", 8), ("offCentre", 10), ("tilt", 12),
         ("rotated", 14), ("empty", 4), ("hand", 4), ("phone", 5), ("book", 5), ("photo", 5)]
DOC_KINDS = [(("TD1", "front"), 20), (("TD1", "back"), 25), (("TD2", "data"), 15), (("TD3", "data"), 40)]
CROP_KINDS = [(("TD1", "back"), 30), (("TD2", "data"), 20), (("TD3", "data"), 40), (("TD1", "front"), 10)]


def weighted(rng, items):
    total = sum(w for _, w in items)
    r = rng.random() * total
    for item, w in items:
        r -= w
        if r < 0:
            return item
    return items[-1][0]


def page_seed(split, kind, n):
    """Distinct page seeds per split and use: no holder is shared between splits."""
    return SPLIT_INDEX[split] * 10_000_000 + kind * 1_000_000 + n


_stations = {}


def get_station(name, size):
    key = (name, size)
    if key not in _stations:
        _stations[key] = station.Station(name, size)
    return _stations[key]


_photos = {}


def photo(path):
    if path not in _photos:
        _photos[path] = station.read_rgb(path)
    return _photos[path]


def round2(v):
    return round(float(v), 2)


def doc_object(cls, side, corners, frame_size, tilt, mrz, blur_px, glare, glare_mrz):
    """The contract's `document` object."""
    c = np.round(np.asarray(corners, np.float64), 2)
    return {
        "class": cls, "side": side,
        "corners": [[round2(x), round2(y)] for x, y in c],
        "whole": compose.is_whole(c, frame_size),
        "tilt_deg": round2(tilt),
        "rotation_deg": round2(compose.rotation_of(c)),
        "mrz": mrz, "blur_px": round2(blur_px), "glare": bool(glare), "glare_mrz": bool(glare_mrz),
    }


def sample_pose(rng, case, size_mm, frame_size):
    """(scale, centre, rotation, tilt, tilt axis) for a wanted case; the label is computed
    from the result afterwards, never taken from the case."""
    fw, fh = frame_size
    area = {"moveCloser": rng.uniform(0.04, 0.105), "tooClose": rng.uniform(0.5, 0.95),
            "rotated": rng.uniform(0.15, 0.32)}.get(case, rng.uniform(0.17, 0.5))
    cut_by_position = case == "tooClose" and rng.random() < 0.5
    if cut_by_position:
        area = rng.uniform(0.15, 0.4)
    scale = math.sqrt(area * fw * fh / (size_mm[0] * size_mm[1]))
    cx, cy = fw / 2 + rng.gauss(0, 0.035 * fw), fh / 2 + rng.gauss(0, 0.035 * fh)
    if case == "offCentre":
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.2, 0.3) * fw
        cx, cy = fw / 2 + d * math.cos(a), fh / 2 + 0.6 * d * math.sin(a)
    elif cut_by_position:
        if rng.random() < 0.5:
            cx = fw / 2 + rng.choice((-1, 1)) * rng.uniform(0.32, 0.55) * fw
        else:
            cy = fh / 2 + rng.choice((-1, 1)) * rng.uniform(0.3, 0.5) * fh
    elif case == "moveCloser":
        cx, cy = fw / 2 + rng.gauss(0, 0.08 * fw), fh / 2 + rng.gauss(0, 0.08 * fh)
    if case == "rotated":
        rotation = rng.choice((-1, 1)) * rng.uniform(14, 30)
    elif case in ("ready", "tilt"):
        rotation = max(-9.0, min(9.0, rng.gauss(0, 4)))
    else:
        rotation = rng.uniform(-30, 30) if rng.random() < 0.3 else rng.gauss(0, 4)
    if rng.random() < 0.1:
        rotation += 180  # upside down
    if case == "tilt":
        tilt = rng.uniform(17, 35)
    elif case in ("ready", "rotated", "offCentre"):
        tilt = rng.uniform(0, 10)
    else:
        tilt = rng.uniform(0, 22) if rng.random() < 0.4 else rng.uniform(0, 8)
    return scale, (cx, cy), rotation, tilt, rng.uniform(0, 360)


def place_object(frame, rgb, alpha, size_mm, pose, frame_size, motion=(0.0, 0.0), shadow=0.18, shadow_offset=(5, 7), shadow_blur=6.0):
    """Poses an object image, composes it onto the frame; returns its corners."""
    scale, centre, rotation, tilt, axis = pose
    corners = compose.pose_corners(size_mm, scale, centre, rotation, tilt, axis, frame_size)
    layer = compose.warp_layer(rgb, alpha, corners, frame_size)
    layer = compose.blur_layer(layer, motion[0], motion[1])
    compose.over(frame, layer, shadow=shadow + 0.01 * tilt, shadow_offset=shadow_offset, shadow_blur=shadow_blur)
    return corners


def add_hand(frame, rng, frame_size, corners, scale, over_document=True):
    """A hand holding an edge of the object (fingers over it) or reaching in alone."""
    fw, fh = frame_size
    if over_document:
        c = np.asarray(corners)
        i = rng.randrange(4)
        a, b = c[i], c[(i + 1) % 4]
        t = rng.uniform(0.25, 0.75)
        p = a + (b - a) * t
        centre = c.mean(0)
        inward = centre - p
        inward /= np.linalg.norm(inward) + 1e-9
        tip = p + inward * rng.uniform(6, 20) * scale
        direction = inward
    else:
        side = rng.randrange(4)
        tip = np.array([rng.uniform(0.3, 0.7) * fw, rng.uniform(0.3, 0.7) * fh])
        direction = np.array([(1, 0), (-1, 0), (0, 1), (0, -1)][side], np.float64)
        direction = direction + np.array([rng.gauss(0, 0.3), rng.gauss(0, 0.3)])
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    layer = compose.hand_layer(frame_size, tip, direction, scale * rng.uniform(0.9, 1.1), nrng)
    compose.over(frame, layer, shadow=0.3, shadow_offset=(10, 14), shadow_blur=12.0)


def document_glare(frame, rng, cls, corners, doc_size_px, has_mrz, gain):
    """A specular highlight on the document, sometimes over the MRZ; returns (glare, over MRZ)."""
    w, h = doc_size_px
    on_mrz = has_mrz and rng.random() < 0.4
    if on_mrz:
        zone = pages.MRZ_ZONE_MM[cls] * pages.PX_PER_MM
        p = (rng.uniform(0.1, 0.9) * w, h - rng.uniform(0.25, 0.6) * zone)
    else:
        p = (rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h)
    hm = compose.homography((w, h), corners)
    q = cv2.perspectiveTransform(np.array([[p]], np.float32), hm)[0, 0]
    c = np.asarray(corners)
    width = np.linalg.norm(c[1] - c[0])
    axes = (width * rng.uniform(0.04, 0.12), width * rng.uniform(0.02, 0.06))
    placed = compose.glare(frame, q, axes, rng.uniform(0, 180), rng.uniform(280, 420) / gain)
    inside = placed and cv2.pointPolygonTest(c.astype(np.float32), (float(q[0]), float(q[1])), False) >= 0
    return bool(inside), bool(inside and on_mrz)


def make_scene(split, n, frame_size, out_dir):
    rng = random.Random(SPLIT_INDEX[split] * 1_000_003 + n * 7 + frame_size[0])
    bg_name = rng.choice(station.SPLIT_BACKGROUNDS[split])
    st = get_station(bg_name, frame_size)
    frame = st.texture.copy()
    case = weighted(rng, CASES)
    document = None
    negative = None
    note = None
    hand = False
    page_info = None
    low_light = rng.random() < 0.15
    gain = rng.uniform(0.3, 0.55) if low_light else rng.uniform(0.88, 1.12)
    focus_sigma = rng.uniform(0.8, 2.8) if rng.random() < 0.15 else 0.0
    glare_on = glare_mrz = False
    if case in ("empty", "hand", "phone", "book", "photo"):
        negative = None if case == "empty" else case
        if case == "hand":
            add_hand(frame, rng, frame_size, None, math.sqrt(0.3 * frame_size[0] * frame_size[1] / 11000), over_document=False)
        elif case != "empty":
            nrng = np.random.default_rng(rng.randrange(1 << 30))
            if case == "phone":
                rgb, alpha, size_mm = compose.phone_image(nrng)
            elif case == "book":
                rgb, alpha, size_mm = compose.book_image(nrng, pages.DEJAVU_SERIF_BOLD)
            else:
                rgb, alpha, size_mm = compose.print_image(photo(rng.choice(PHOTOS[split])))
            pose = sample_pose(rng, rng.choice(("ready", "ready", "rotated", "offCentre")), size_mm, frame_size)
            pose = (min(pose[0], math.sqrt(0.45 * frame_size[0] * frame_size[1] / (size_mm[0] * size_mm[1]))),) + pose[1:]
            pose = pose[:2] + (rng.uniform(-180, 180) if case == "phone" else pose[2],) + pose[3:]
            heavy = case == "book"
            corners = place_object(frame, rgb, alpha, size_mm, pose, frame_size,
                                   shadow=0.45 if heavy else 0.2, shadow_offset=(14, 18) if heavy else (5, 7), shadow_blur=10.0 if heavy else 6.0)
            if rng.random() < 0.3:
                add_hand(frame, rng, frame_size, corners, pose[0])
                hand = True
    else:
        cls, side = weighted(rng, DOC_KINDS)
        template = rng.choice(pages.TEMPLATES[split])
        seed = page_seed(split, 0, n + (100_000 if frame_size[0] > 1280 else 0))
        rgb, alpha, mrz = pages.render(cls, side, seed, template)
        page_info = {"seed": seed, "template": template}
        size_mm = pages.SIZE_MM[cls]
        pose = sample_pose(rng, case, size_mm, frame_size)
        if case in ("ready", "offCentre") and rng.random() < 0.08:
            ocls, oside = weighted(rng, DOC_KINDS)
            orgb, oalpha, _ = pages.render(ocls, oside, page_seed(split, 2, n), rng.choice(pages.TEMPLATES[split]))
            opose = (pose[0] * rng.uniform(0.45, 0.7), (rng.uniform(0.1, 0.9) * frame_size[0], rng.choice((0.15, 0.85)) * frame_size[1]),
                     rng.uniform(-40, 40), rng.uniform(0, 10), rng.uniform(0, 360))
            place_object(frame, orgb, oalpha, pages.SIZE_MM[ocls], opose, frame_size)
            note = "two documents: labelled the larger"
        moving = rng.random() < 0.2
        motion = (rng.uniform(3, 18), rng.uniform(0, 180)) if moving else (0.0, 0.0)
        corners = place_object(frame, rgb, alpha, size_mm, pose, frame_size, motion=motion)
        if rng.random() < 0.18:
            add_hand(frame, rng, frame_size, corners, pose[0])
            hand = True
        frame *= st.light[:, :, None]
        if rng.random() < 0.3:
            glare_on, glare_mrz = document_glare(frame, rng, cls, corners, pages.SIZE_PX[cls], mrz is not None, gain)
        blur_px = math.hypot(motion[0], 2 * focus_sigma)
        page_info.update({"motion": [round2(motion[0]), round2(motion[1])], "focus_sigma": round2(focus_sigma)})
        document = doc_object(cls, side, corners, frame_size, pose[3], mrz, blur_px, glare_on, glare_mrz)
    if document is None:
        frame *= st.light[:, :, None]
    noise = rng.uniform(3.5, 7.5) if low_light else rng.uniform(1.2, 3.5)
    pre_jpeg = rng.randint(45, 80) if rng.random() < 0.3 else None
    img = compose.camera_finish(frame, rng, gain, noise, focus_sigma, pre_jpeg)
    name = "%04d" % n
    cv2.imwrite(os.path.join(out_dir, name + ".jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, SCENE_JPEG_QUALITY])
    record = {"size": list(frame_size), "background": bg_name, "document": document, "negative": negative,
              "expected": compose.expected(document, frame_size), "hand": hand, "note": note,
              "low_light": low_light, "page": page_info}
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(record, f)
    return record


def make_crop(split, n, out_dir):
    rng = random.Random(SPLIT_INDEX[split] * 2_000_003 + n * 11)
    cls, side = weighted(rng, CROP_KINDS)
    template = rng.choice(pages.TEMPLATES[split])
    seed = page_seed(split, 1, n)
    rgb, alpha, mrz = pages.render(cls, side, seed, template)
    w, h = pages.SIZE_PX[cls]
    # Residual misalignment of the perspective correction: a few px and up to 1.5 degrees.
    angle = rng.uniform(-1.5, 1.5)
    shift = (rng.uniform(-5, 5), rng.uniform(-5, 5))
    zoom = rng.uniform(0.985, 1.015)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, zoom)
    m[:, 2] += shift
    bg = get_station(rng.choice(station.SPLIT_BACKGROUNDS[split]), (1920, 1080)).texture
    y0, x0 = rng.randrange(0, bg.shape[0] - h), rng.randrange(0, bg.shape[1] - w)
    # Luma from here on: the camera's JPEG keeps luma at full resolution, so the crop's
    # degradations act on luma alone.
    frame = cv2.cvtColor(bg[y0:y0 + h, x0:x0 + w], cv2.COLOR_RGB2GRAY)
    a = cv2.warpAffine(alpha, m, (w, h)).astype(np.float32) * (1 / 255.0)
    page = cv2.warpAffine(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), m, (w, h)).astype(np.float32)
    frame = frame * (1 - a) + page * a
    # Uneven light: a gradient across the page and an exposure.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = rng.uniform(0, 2 * math.pi)
    grad = 1 + rng.uniform(0.05, 0.3) * ((xx / w - 0.5) * math.cos(t) + (yy / h - 0.5) * math.sin(t))
    gain = rng.uniform(0.45, 0.75) if rng.random() < 0.15 else rng.uniform(0.85, 1.1)
    frame *= grad * gain
    kind = rng.random()
    blur = {"kind": "none"}
    if kind < 0.45:
        sigma = rng.uniform(0.4, 1.6)
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
        blur = {"kind": "focus", "sigma": round2(sigma)}
    elif kind < 0.65:
        length, ang = rng.uniform(2, 7), rng.uniform(0, 180)
        frame = cv2.filter2D(frame, -1, compose.motion_kernel(length, ang))
        blur = {"kind": "motion", "px": round2(length), "angle": round2(ang)}
    sigma = rng.uniform(1.0, 6.0)
    frame += compose.unit_noise(frame.shape + (1,), rng)[:, :, 0] * sigma
    quality = rng.randint(45, 92)
    ok, buf = cv2.imencode(".jpg", np.clip(frame, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
    luma = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    name = "%04d" % n
    cv2.imwrite(os.path.join(out_dir, name + ".pgm"), luma)
    record = {"class": cls, "side": side, "mrz": mrz,
              "degradation": {"rotation_deg": round2(angle), "shift_px": [round2(shift[0]), round2(shift[1])],
                              "zoom": round(zoom, 4), "blur": blur, "noise_sigma": round2(sigma), "jpeg_quality": quality,
                              "gain": round2(gain)},
              "page": {"seed": seed, "template": template}}
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(record, f)
    return record


def smooth(t):
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def make_sequence(path, cls, side, seed, template, bg_name, plan, given_mrz=None):
    """Renders a recording: empty platen, the document slides in, settles, is held.

    plan: dict with the timeline in seconds (empty, slide, settle, hold), the entry
    direction, the final pose and the tilt at entry (eased to the final tilt).
    Writes PATH.mjpeg (concatenated JPEG frames) and PATH.json (per frame: the
    document object or null).
    """
    frame_size = (1280, 720)
    fw, fh = frame_size
    rng = random.Random(seed)
    st = get_station(bg_name, frame_size)
    rgb, alpha, mrz = pages.render(cls, side, seed, template, given_mrz)
    size_mm = pages.SIZE_MM[cls]
    scale = math.sqrt(plan["area"] * fw * fh / (size_mm[0] * size_mm[1]))
    final = np.array(plan["centre"], np.float64)
    entry = final + np.array(plan["from"], np.float64) * np.array([fw, fh]) * 0.95
    t_empty, t_slide, t_tilt, t_hold = plan["empty"], plan["slide"], plan.get("tilt_fix", 0.0), plan["hold"]
    total = t_empty + t_slide + t_tilt + t_hold
    frames = int(round(total * FPS))
    hand_skin = None
    hand_side = rng.randrange(4)
    docs = []
    prev = None
    with open(path + ".mjpeg", "wb") as out:
        for k in range(frames):
            t = k / FPS
            frame = st.texture.copy()
            document = None
            if t >= t_empty:
                u = (t - t_empty) / t_slide
                centre = entry + (final - entry) * smooth(u)
                settle = max(0.0, t - t_empty - t_slide)
                tilt = plan["tilt_start"] + (plan["tilt"] - plan["tilt_start"]) * smooth(settle / t_tilt if t_tilt else 1.0)
                rotation = plan["rotation"] + (1 - smooth(u)) * plan.get("rotation_swing", 6)
                if u >= 1:
                    centre = centre + np.array([rng.gauss(0, 0.5), rng.gauss(0, 0.5)])
                    rotation += rng.gauss(0, 0.08)
                pose = (scale, tuple(centre), rotation, tilt, plan["axis"])
                corners = compose.pose_corners(size_mm, scale, pose[1], rotation, tilt, plan["axis"], frame_size)
                speed = 0.0 if prev is None else float(np.linalg.norm(corners.mean(0) - prev))
                prev = corners.mean(0)
                direction = math.degrees(math.atan2(*(final - entry)[::-1]))
                motion = (speed * 0.5, direction)
                place_object(frame, rgb, alpha, size_mm, pose, frame_size, motion=motion)
                let_go = t > total - plan.get("hand_leaves", 1.2)
                if not let_go:
                    c = np.asarray(corners)
                    a, b = c[hand_side], c[(hand_side + 1) % 4]
                    p = (a + b) / 2
                    inward = c.mean(0) - p
                    inward /= np.linalg.norm(inward)
                    tip = p + inward * 20 * scale + np.array([rng.gauss(0, 0.7), rng.gauss(0, 0.7)])
                    nrng = np.random.default_rng(seed)  # the same hand every frame
                    layer = compose.hand_layer(frame_size, tip, inward, scale, nrng, hand_skin)
                    compose.over(frame, layer, shadow=0.3, shadow_offset=(10, 14), shadow_blur=12.0)
                visible = c_visible(corners, frame_size)
                if visible:
                    document = doc_object(cls, side, corners, frame_size, tilt, mrz, motion[0], False, False)
            frame *= st.light[:, :, None]
            img = compose.camera_finish(frame, rng, 1.0, 2.0, 0.0, None)
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, SEQUENCE_JPEG_QUALITY])
            out.write(buf.tobytes())
            docs.append(document)
    with open(path + ".json", "w") as f:
        json.dump(docs, f)
    return frames


def make_card_sequence(path, seed, template, bg_name, front_plan, back_plan, given_mrz=None):
    """Renders an identity card shown front, then back (the ID card journey): the front
    slides in and is held, the card is taken away, and its back slides in and is held.
    Writes PATH.mjpeg and PATH.json as make_sequence does; the back's frames carry the
    TD1 zone of the same holder."""
    frames = 0
    with open(path + ".mjpeg", "wb") as out:
        truth = []
        for side, plan in (("front", front_plan), ("back", back_plan)):
            part = path + "-" + side
            frames += make_sequence(part, "TD1", side, seed, template, bg_name, plan, given_mrz=given_mrz)
            with open(part + ".mjpeg", "rb") as f:
                out.write(f.read())
            with open(part + ".json") as f:
                truth += json.load(f)
            os.remove(part + ".mjpeg")
            os.remove(part + ".json")
    with open(path + ".json", "w") as f:
        json.dump(truth, f)
    return frames


def c_visible(corners, frame_size):
    c = np.asarray(corners)
    fw, fh = frame_size
    return bool(c[:, 0].max() > 0 and c[:, 0].min() < fw and c[:, 1].max() > 0 and c[:, 1].min() < fh)


SEQUENCES = [
    # name, class, side, seed, template, background, plan
    ("td3-slide-in", "TD3", "data", 31, 0, "felt",
     {"empty": 0.6, "slide": 1.2, "hold": 2.6, "area": 0.42, "centre": (650, 370), "from": (0.9, 0.1),
      "rotation": 2.0, "tilt": 3.0, "tilt_start": 3.0, "axis": 30.0}),
    ("td1-back-slide-in", "TD1", "back", 32, 2, "stone",
     {"empty": 0.5, "slide": 1.0, "hold": 2.5, "area": 0.34, "centre": (630, 355), "from": (0.1, 0.9),
      "rotation": -3.0, "tilt": 2.0, "tilt_start": 2.0, "axis": 120.0}),
    ("td3-tilt-corrected", "TD3", "data", 33, 1, "felt",
     {"empty": 0.5, "slide": 1.1, "tilt_fix": 1.6, "hold": 1.8, "area": 0.4, "centre": (640, 360), "from": (-0.9, 0.2),
      "rotation": 1.0, "tilt": 2.5, "tilt_start": 28.0, "axis": 80.0, "hand_leaves": 1.0}),
]
# The demo's identity card: front, then back (whose MRZ opens the chip), each held for a while.
DEMO_CARD_FRONT = {"empty": 0.6, "slide": 1.0, "hold": 3.4, "area": 0.3, "centre": (640, 360), "from": (0.9, 0.0),
                   "rotation": 1.0, "tilt": 2.0, "tilt_start": 2.0, "axis": 10.0}
DEMO_CARD_BACK = {"empty": 0.8, "slide": 1.0, "hold": 4.4, "area": 0.3, "centre": (640, 360), "from": (0.9, 0.0),
                  "rotation": -1.0, "tilt": 2.0, "tilt_start": 2.0, "axis": 10.0}
DEMO_PLAN = {"empty": 0.7, "slide": 1.2, "hold": 3.1, "area": 0.42, "centre": (640, 360), "from": (0.9, 0.0),
             "rotation": 1.5, "tilt": 2.0, "tilt_start": 2.0, "axis": 10.0}


def contact_sheets(out):
    """Tiles a few scenes (corners and expected label drawn) and crops for a look."""
    tiles = []
    for split in SPLITS:
        d = os.path.join(out, "scenes", split)
        names = sorted(x for x in os.listdir(d) if x.endswith(".json"))
        for name in names[:: max(1, len(names) // 5)][:5]:
            rec = json.load(open(os.path.join(d, name)))
            img = cv2.imread(os.path.join(d, name[:-5] + ".jpg"))
            if rec["document"]:
                c = np.array(rec["document"]["corners"], np.float32)
                cv2.polylines(img, [np.round(c).astype(np.int32)], True, (0, 255, 0), 2, cv2.LINE_AA)
                cv2.circle(img, tuple(np.round(c[0]).astype(int)), 8, (0, 0, 255), -1)
            img = cv2.resize(img, (480, 270), interpolation=cv2.INTER_AREA)
            label = "%s %s %s" % (split, rec["expected"], rec["negative"] or (rec["document"] or {}).get("class", "empty"))
            cv2.putText(img, label, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(img, label, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
            tiles.append(img)
    rows = [np.hstack(tiles[i:i + 3]) for i in range(0, len(tiles) - len(tiles) % 3, 3)]
    cv2.imwrite(os.path.join(out, "contact-scenes.jpg"), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 90])
    crops = []
    d = os.path.join(out, "crops", "heldout")
    for name in sorted(n for n in os.listdir(d) if n.endswith(".pgm"))[:24:4]:
        if True:
            g = cv2.imread(os.path.join(d, name), cv2.IMREAD_GRAYSCALE)
            canvas = np.full((880, 1250), 128, np.uint8)
            canvas[:g.shape[0], :g.shape[1]] = g
            crops.append(canvas)
    crops = crops[:6]
    rows = [np.hstack(crops[i:i + 2]) for i in range(0, len(crops) - len(crops) % 2, 2)]
    cv2.imwrite(os.path.join(out, "contact-crops.jpg"), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 90])


def write_backgrounds(out):
    d = os.path.join(out, "backgrounds")
    os.makedirs(d, exist_ok=True)
    for name in station.NAMES:
        for size in station.SIZES:
            st = get_station(name, size)
            clean = np.clip(st.frame(), 0, 255).astype(np.uint8)
            cv2.imwrite(os.path.join(d, "%s-%dx%d.png" % (name, size[0], size[1])), cv2.cvtColor(clean, cv2.COLOR_RGB2BGR))
        st = get_station(name, (1280, 720))
        rng = random.Random(77 + station.NAMES.index(name))
        for k in range(5):
            img = compose.camera_finish(st.frame(), rng, rng.uniform(0.96, 1.04), rng.uniform(1.2, 3.0), 0.0, None)
            cv2.imwrite(os.path.join(d, "%s-1280x720-idle-%d.jpg" % (name, k)), img, [cv2.IMWRITE_JPEG_QUALITY, SCENE_JPEG_QUALITY])


def generate_all(out):
    timings = {}
    for sub in ("backgrounds", "scenes", "crops", "sequences"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    t0 = time.time()
    write_backgrounds(out)
    timings["backgrounds"] = time.time() - t0
    t0 = time.time()
    summary = {}
    for split in SPLITS:
        d = os.path.join(out, "scenes", split)
        os.makedirs(d, exist_ok=True)
        n720, n1080 = SCENE_COUNTS[split]
        labels = {}
        for n in range(n720 + n1080):
            size = (1280, 720) if n < n720 else (1920, 1080)
            rec = make_scene(split, n, size, d)
            labels[rec["expected"]] = labels.get(rec["expected"], 0) + 1
        summary[split] = {"scenes": n720 + n1080, "expected": labels}
    timings["scenes"] = time.time() - t0
    t0 = time.time()
    for split in SPLITS:
        d = os.path.join(out, "crops", split)
        os.makedirs(d, exist_ok=True)
        kinds = {}
        for n in range(CROP_COUNTS[split]):
            rec = make_crop(split, n, d)
            key = rec["class"] + "-" + rec["side"]
            kinds[key] = kinds.get(key, 0) + 1
        summary[split]["crops"] = CROP_COUNTS[split]
        summary[split]["crop_kinds"] = kinds
    timings["crops"] = time.time() - t0
    t0 = time.time()
    d = os.path.join(out, "sequences")
    os.makedirs(d, exist_ok=True)
    for name, cls, side, seed, template, bg, plan in SEQUENCES:
        make_sequence(os.path.join(d, name), cls, side, seed, template, bg, plan)
    timings["sequences"] = time.time() - t0
    t0 = time.time()
    contact_sheets(out)
    timings["contact sheets"] = time.time() - t0
    return summary, timings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "vision-data"))
    parser.add_argument("--demo-mrz", help="the demo document's TD3 MRZ: LINE1LINE2 (88 characters) or two lines")
    parser.add_argument("--force", action="store_true", help="regenerate even when the stamp is current")
    parser.add_argument("--demo-only", action="store_true",
                        help="only the demo recordings (make demo); the data set is left as it is")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    try:
        demo = mrzgen.parse_lines(args.demo_mrz) if args.demo_mrz else list(DEFAULT_DEMO_MRZ)
    except ValueError as e:
        parser.error("--demo-mrz: %s" % e)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    stamp_path = os.path.join(out, "stamp.json")
    sources = datagen.source_hash(HERE)
    demo_hash = hashlib.sha256((sources + "\n".join(demo)).encode()).hexdigest()
    try:
        stamp = json.load(open(stamp_path))
    except (OSError, ValueError):
        stamp = {}
    wall, cpu = time.time(), time.process_time()
    did = []
    if not args.demo_only and (args.force or stamp.get("sources") != sources):
        stamp = {}
        summary, timings = generate_all(out)
        stamp["sources"] = sources
        stamp["summary"] = summary
        did.append("data set")
        for k, v in timings.items():
            print("  %-15s %6.1f s" % (k, v))
        for split in SPLITS:
            s = summary[split]
            print("  %-8s scenes %4d  crops %4d  expected %s" % (split, s["scenes"], s["crops"], json.dumps(dict(sorted(s["expected"].items())))))
    if args.force or stamp.get("demo") != demo_hash:
        t0 = time.time()
        d = os.path.join(out, "sequences")
        os.makedirs(d, exist_ok=True)
        make_sequence(os.path.join(d, "demo-document"), "TD3", "data", 41, 0, "felt", DEMO_PLAN, given_mrz=demo)
        make_card_sequence(os.path.join(d, "demo-idcard"), 42, 2, "felt", DEMO_CARD_FRONT, DEMO_CARD_BACK, given_mrz=demo)
        stamp["demo"] = demo_hash
        did.append("demo recordings")
        print("  %-15s %6.1f s" % ("demo recording", time.time() - t0))
    with open(stamp_path, "w") as f:
        json.dump(stamp, f, indent=1)
    if did:
        print("vision-data: made %s in %s in %.1f s (%.1f s CPU, one thread)" % (" and ".join(did), out, time.time() - wall, time.process_time() - cpu))
    else:
        print("vision-data: %s is current" % out)


if __name__ == "__main__":
    main()
