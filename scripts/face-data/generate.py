#!/usr/bin/python3
"""Generates the face test data under .cache/face-data/ (see docs/face-data.md).

Usage: scripts/face-data/generate.py [--out DIR] [--force] [--demo-only]

Fetches the source photographs (Debian and PyPI packages, SHA-256 checked) into
.cache/face-data/sources/, then renders frames for detection and guidance, liveness
sequences answering the station's LED (genuine and attacks), the simulated camera's
assets, match pairs and the demo's face recording. Deterministic (fixed seeds, one
thread); regenerates only when the generator's sources changed (a stamp file holds their
hash) or when --force is given. Prints its own timings.
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts in the worktree

import argparse
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

import relief
import rooms
import sources

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPLITS = ("train", "dev", "heldout")
SPLIT_INDEX = {"train": 1, "dev": 2, "heldout": 3}
# Which photographs each split sees (the first of an identity is the camera's photo).
# Held-out identities are never in train or dev.
SPLIT_PHOTOS = {"train": ("collins", "obama", "obama2"), "dev": ("collins", "obama", "obama2"),
                "heldout": ("hopper", "biden")}
FRAME_COUNTS = {"train": (100, 20), "dev": (50, 10), "heldout": (80, 20)}      # (640x480, 1280x720)
LIVENESS_COUNTS = {"train": {"genuine": 40, "print": 20, "screen": 20, "replay": 20},
                   "dev": {"genuine": 40, "print": 20, "screen": 20, "replay": 20},
                   "heldout": {"genuine": 48, "print": 24, "screen": 24, "replay": 24}}
KINDS = ("genuine", "print", "screen", "replay")
FRAME_CASES = [("centred", 16), ("offCentre", 10), ("small", 9), ("large", 9), ("cut", 8), ("rolled", 9),
               ("yawed", 10), ("empty", 5), ("two", 7), ("dark", 6), ("backlit", 6), ("blurred", 5)]
FPS = 15
FRAME_JPEG_QUALITY = 90
SEQUENCE_JPEG_QUALITY = 88
DG2_SIZE = (240, 320)
DG2_QUALITY = 75
STATION_IDENTITIES = ("collins", "obama", "hopper")
STATION_POSES = [("yaw-12", -12.0), ("yaw-06", -6.0), ("yaw+00", 0.0), ("yaw+06", 6.0), ("yaw+12", 12.0)]
STATION_SWAY = 6
DEMO_IDENTITY = "collins"
LIVE_SIZE = (640, 480)
TURN_WINDOW = 18  # frames from the request's start in which the turn out and back is expected


def weighted(rng, items):
    total = sum(w for _, w in items)
    r = rng.random() * total
    for item, w in items:
        r -= w
        if r < 0:
            return item
    return items[-1][0]


def r2(v):
    return round(float(v), 2)


_models = {}
OUT = None


def model(name):
    if name not in _models:
        _models[name] = relief.FaceModel(name, sources.read_photo(OUT, name), sources.PHOTOS[name])
    return _models[name]


def place(m, cam, eye_px, distance_mm, yaw, pitch, roll):
    """The pose that puts the eyes' midpoint at pixel EYE_PX, DISTANCE_MM from the lens."""
    pose = relief.Pose(yaw, pitch, roll, (0, 0, 0))
    pe = m.object_points(m.eye_mid[None, :])[0]
    ray = np.array([(eye_px[0] - cam.c[0]) / cam.f, (eye_px[1] - cam.c[1]) / cam.f, 1.0])
    pose.T = ray * distance_mm - pose.R @ pe
    return pose


def landmark_dict(lm):
    return {name: [r2(x), r2(y)] for name, (x, y) in zip(sources.LANDMARKS, lm)}


def face_truth(m, pose, cam, identity):
    """The contract's face object for a relief or for a face on an instrument's plane."""
    lm, box = relief.project_face(m, pose, cam)
    return face_object(lm, box, cam.size, identity, m.name, pose.yaw + m.photo_pose[0], pose.pitch + m.photo_pose[1],
                       float(np.linalg.norm(pose.apply(m.object_points(m.eye_mid[None, :]))[0])))


def face_object(lm, box, size, identity, photo, yaw, pitch, distance):
    fw, fh = size
    el, er = lm[0:2].mean(0), lm[2:4].mean(0)
    roll = math.degrees(math.atan2(er[1] - el[1], er[0] - el[0]))
    whole = bool(box[0] >= 0 and box[1] >= 0 and box[2] <= fw - 1 and box[3] <= fh - 1)
    return {
        "identity": identity, "photo": photo,
        "box": [r2(v) for v in box],
        "landmarks": landmark_dict(lm),
        "center_offset": [round(((box[0] + box[2]) / 2 - (fw - 1) / 2) / fw, 4), round(((box[1] + box[3]) / 2 - (fh - 1) / 2) / fh, 4)],
        "width_fraction": round((box[2] - box[0]) / fw, 4),
        "roll_deg": r2(roll), "yaw_deg": r2(yaw), "pitch_deg": r2(pitch),
        "whole": whole, "distance_mm": round(float(distance), 1),
    }


def random_light(rng, level=None, led_gain=None):
    a = rng.uniform(-0.9, 0.9)
    direction = (a, -rng.uniform(0.3, 1.0), -rng.uniform(0.3, 0.9))
    warm = rng.uniform(-0.06, 0.08)
    return relief.Light(level=rng.uniform(0.75, 1.15) if level is None else level, direction=direction,
                        fill=rng.uniform(0.4, 0.75), tint=(1 + warm, 1.0, 1 - warm),
                        led_gain=rng.uniform(0.35, 0.9) if led_gain is None else led_gain,
                        specular=rng.uniform(0.05, 0.15))


def light_json(light, led_on=None):
    d = {"ambient": r2(light.level), "direction": [r2(v) for v in light.s], "led_gain": r2(light.led_gain)}
    if led_on is not None:
        d["led"] = bool(led_on)
    return d


def background(name, size, light, led_on, window_rng=None, room_distance=2500.0):
    """The room lit by the ambient light (and the LED's weak share at the room's distance)."""
    img = rooms.room(name, size).copy()
    window = None
    if window_rng is not None:
        window = rooms.add_window(img, window_rng)
    scale = light.level * light.tint
    if led_on:
        scale = scale + light.led_gain * (relief.LED_REF_MM / room_distance) ** 2 * light.led_tint
    img *= scale
    return img, window


def compose_layer(frame, layer, led_on, blur=None):
    roi, amb, led, alpha = layer
    rgb = amb + led if (led_on and led is not None) else amb
    if blur is not None:
        k = rooms.motion_kernel(*blur)
        rgb = cv2.filter2D(rgb, -1, k, borderType=cv2.BORDER_REPLICATE)
        alpha = cv2.filter2D(alpha, -1, k, borderType=cv2.BORDER_CONSTANT)
    relief.over(frame, (roi, rgb, alpha))


# ---------------------------------------------------------------- frames

def make_frame(split, n, size, out_dir):
    rng = random.Random(SPLIT_INDEX[split] * 1_000_003 + n * 7 + size[0])
    cam = relief.Camera(size)
    fw, fh = size
    room_name = rng.choice(rooms.SPLIT_ROOMS[split])
    case = weighted(rng, FRAME_CASES)
    photos = SPLIT_PHOTOS[split]
    dark = case == "dark"
    backlit = case == "backlit"
    light = random_light(rng, level=rng.uniform(0.12, 0.25) if dark else (rng.uniform(0.3, 0.45) if backlit else None))
    led_on = rng.random() < 0.2
    frame, window = background(room_name, size, light, led_on, window_rng=rng if backlit else None)
    people = []
    if case != "empty":
        count = 2 if case == "two" else 1
        names = rng.sample(photos, count) if count <= len(photos) else [rng.choice(photos) for _ in range(count)]
        for i, photo in enumerate(names):
            yaw, pitch, roll = rng.gauss(0, 4), rng.gauss(0, 3), rng.gauss(0, 3)
            dist = rng.uniform(450, 700)
            ex, ey = fw / 2 + rng.gauss(0, 0.03 * fw), fh * 0.42 + rng.gauss(0, 0.03 * fh)
            if case == "offCentre":
                a = rng.uniform(0, 2 * math.pi)
                ex, ey = fw / 2 + rng.uniform(0.18, 0.3) * fw * math.cos(a), fh * 0.45 + rng.uniform(0.12, 0.22) * fh * math.sin(a)
            elif case == "small":
                dist = rng.uniform(1200, 2000)
            elif case == "large":
                dist = rng.uniform(260, 340)
            elif case == "cut":
                # Drawn again until the face box really crosses the frame's edge.
                m = model(photo)
                for _ in range(20):
                    side = rng.randrange(3)
                    dist = rng.uniform(350, 600)
                    ex, ey = fw / 2 + rng.gauss(0, 0.03 * fw), fh * 0.42 + rng.gauss(0, 0.03 * fh)
                    if side == 0:
                        ex = rng.choice((-1, 1)) * rng.uniform(0.45, 0.6) * fw + fw / 2
                    elif side == 1:
                        ey = rng.uniform(-0.02, 0.06) * fh
                    else:
                        dist = rng.uniform(150, 200)
                        ey = fh * rng.uniform(0.3, 0.6)
                    box = relief.project_face(m, place(m, cam, (ex, ey), dist, yaw, pitch, roll), cam)[1]
                    if box[0] < 0 or box[1] < 0 or box[2] > fw - 1 or box[3] > fh - 1:
                        break
            elif case == "rolled":
                roll = rng.choice((-1, 1)) * rng.uniform(14, 30)
            elif case == "yawed":
                yaw = rng.choice((-1, 1)) * rng.uniform(14, 25)
            elif case == "two":
                if i == 0:
                    ex = fw / 2 + rng.choice((-1, 1)) * rng.uniform(0.08, 0.22) * fw
                else:
                    dist = rng.uniform(900, 1500)
                    ex = fw / 2 + (1 if people[0][2] < fw / 2 else -1) * rng.uniform(0.15, 0.3) * fw
                    ey = fh * rng.uniform(0.3, 0.45)
            people.append((photo, (ex, ey), ex, dist, yaw, pitch, roll))
    faces = []
    blur = None
    if case == "blurred":
        blur = (rng.uniform(6, 20), rng.uniform(0, 180))
    for photo, eye_px, _, dist, yaw, pitch, roll in sorted(people, key=lambda p: -p[3]):
        m = model(photo)
        pose = place(m, cam, eye_px, dist, yaw, pitch, roll)
        layer = relief.render_relief(m, pose, cam, light, led_on=int(led_on))
        if layer is not None:
            compose_layer(frame, layer, led_on, blur)
        f = face_truth(m, pose, cam, sources.PHOTOS[photo]["identity"])
        visible = f["box"][2] > 0 and f["box"][0] < fw and f["box"][3] > 0 and f["box"][1] < fh
        if visible:
            faces.append(f)
    faces.sort(key=lambda f: -f["width_fraction"])
    sigma = rng.uniform(4, 7) if dark else rng.uniform(1.2, 3.2)
    img = rooms.finish(rooms.to_u8(frame), rng, sigma)
    name = "%04d" % n
    cv2.imwrite(os.path.join(out_dir, name + ".jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, FRAME_JPEG_QUALITY])
    record = {"size": [fw, fh], "split": split, "case": case, "background": room_name, "faces": faces,
              "light": dict(light_json(light, led_on), dark=dark, backlit=backlit, window=window),
              "blur_px": r2(blur[0]) if blur else 0.0, "noise_sigma": r2(sigma)}
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(record, f)
    return record


# ---------------------------------------------------------------- liveness

def led_sequence(rng):
    """LED on/off per frame: 2 frames off, then random slots of 2-3 frames until 30-45 frames."""
    led = [0, 0]
    while True:
        slots = []
        total = 2
        while total < 30:
            n = rng.choice((2, 3))
            slots.append((rng.random() < 0.5, n))
            total += n
        ons = sum(1 for s, _ in slots if s)
        if 3 <= ons <= len(slots) - 3 and total <= 45:
            break
    for on, n in slots:
        led += [int(on)] * n
    return led


def ease(u):
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def turn_yaw(k, start, latency, amp, rise=5, hold=3):
    s = k - start - latency
    if s < 0:
        return 0.0
    if s < rise:
        return amp * ease(s / rise)
    if s < rise + hold:
        return amp
    if s < 2 * rise + hold:
        return amp * (1 - ease((s - rise - hold) / rise))
    return 0.0


class Sway:
    """Small hand or body motion: sums of slow sinusoids (mm and degrees)."""

    def __init__(self, rng, pos=4.0, ang=1.2):
        self.p = [(rng.uniform(0.2, 0.7), rng.uniform(0, 6.3), rng.uniform(0.4, 1.0) * pos) for _ in range(3)]
        self.a = [(rng.uniform(0.2, 0.8), rng.uniform(0, 6.3), rng.uniform(0.4, 1.0) * ang) for _ in range(3)]

    def at(self, t):
        pos = [a * math.sin(2 * math.pi * f * t + ph) for f, ph, a in self.p]
        ang = [a * math.sin(2 * math.pi * f * t + ph) for f, ph, a in self.a]
        return pos, ang


def photo_crop(photo, aspect, widen):
    """A crop of the photograph around its face (for a print or a screen): RGB float32 and
    the landmarks in the crop's pixels."""
    rgb = sources.read_photo(OUT, photo).astype(np.float32)
    ann = sources.PHOTOS[photo]
    b = np.asarray(ann["box"], np.float64)
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2 + 0.12 * (b[3] - b[1])
    w = (b[2] - b[0]) * widen
    h = w * aspect
    x0, y0 = cx - w / 2, cy - h / 2
    target_w = 360
    s = target_w / w
    m = np.array([[s, 0, -x0 * s], [0, s, -y0 * s]])
    size = (target_w, int(round(h * s)))
    crop = cv2.warpAffine(rgb, m, size, flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lm = np.asarray(ann["landmarks"], np.float64)
    lm = np.stack([lm[:, 0] * s - x0 * s, lm[:, 1] * s - y0 * s], 1)
    box = np.array([b[0] * s - x0 * s, b[1] * s - y0 * s, b[2] * s - x0 * s, b[3] * s - y0 * s])
    return crop, lm, box


def print_content(rng, photo):
    """A print: the photograph's face crop on paper with a white border (ink gamut, matte)."""
    crop, lm, box = photo_crop(photo, rng.uniform(1.25, 1.45), rng.uniform(2.0, 2.6))
    grey = crop.mean(2, keepdims=True)
    sat = rng.uniform(0.75, 0.95)
    ink = 14 + 0.84 * (grey + (crop - grey) * sat)
    ink = cv2.GaussianBlur(ink, (0, 0), 0.6)
    border = int(crop.shape[1] * rng.uniform(0.03, 0.07))
    h, w = crop.shape[:2]
    paper = np.full((h + 2 * border, w + 2 * border, 3), 236.0, np.float32) * np.array([1.0, 0.99, 0.96], np.float32)
    paper[border:border + h, border:border + w] = ink
    return paper, lm + border, box + border


def screen_content(rng, picture, lm, box, bezel_frac):
    """A screen: the picture (emissive) inside a dark bezel; a faint pixel grid."""
    h, w = picture.shape[:2]
    bezel = int(w * bezel_frac)
    img = np.zeros((h + 2 * bezel, w + 2 * bezel, 3), np.float32)
    pic = picture * np.array([0.96, 1.0, 1.06], np.float32)
    pic[::3] *= 0.93
    img[bezel:bezel + h, bezel:bezel + w] = pic
    return img, lm + bezel, box + bezel


def plane_truth(lm_c, box_c, content_size, size_mm, pose, cam, identity, photo, photo_yaw):
    pts = np.concatenate([lm_c, [[box_c[0], box_c[1]], [box_c[2], box_c[1]], [box_c[2], box_c[3]], [box_c[0], box_c[3]]]])
    q = cam.project(relief.plane_points(pose, size_mm, pts, content_size))
    lm, bq = q[:5], q[5:]
    box = np.array([bq[:, 0].min(), bq[:, 1].min(), bq[:, 0].max(), bq[:, 1].max()])
    dist = float(np.linalg.norm(pose.T))
    return face_object(lm, box, cam.size, identity, photo, pose.yaw + photo_yaw, pose.pitch, dist)


def place_plane(cam, centre_px, distance, yaw, pitch, roll):
    ray = np.array([(centre_px[0] - cam.c[0]) / cam.f, (centre_px[1] - cam.c[1]) / cam.f, 1.0])
    return relief.Pose(yaw, pitch, roll, ray * distance)


def make_sequence(split, kind, n, path):
    rng = random.Random(SPLIT_INDEX[split] * 5_000_011 + KINDS.index(kind) * 100_003 + n * 13)
    cam = relief.Camera(LIVE_SIZE)
    fw, fh = LIVE_SIZE
    photos = SPLIT_PHOTOS[split]
    identity = sources.PHOTOS[rng.choice(photos)]["identity"]
    own = [p for p in photos if sources.PHOTOS[p]["identity"] == identity]
    photo = own[0] if kind in ("genuine", "replay") else rng.choice(own)
    room_name = rng.choice(rooms.SPLIT_ROOMS[split])
    light = random_light(rng, level=rng.uniform(0.35, 1.15))
    led = led_sequence(rng)
    frames = len(led)
    start = rng.randint(5, frames - TURN_WINDOW)
    amp = rng.choice((-1, 1)) * rng.uniform(8, 15)
    turn = {"start": start, "end": start + TURN_WINDOW, "yaw_deg": r2(amp)}
    sway = Sway(rng, pos=rng.uniform(2, 6), ang=rng.uniform(0.6, 1.8))
    sigma = rng.uniform(1.2, 3.5)
    quality = SEQUENCE_JPEG_QUALITY
    eye_px = (fw / 2 + rng.gauss(0, 0.04 * fw), fh * 0.42 + rng.gauss(0, 0.04 * fh))
    base = [rooms.to_u8(background(room_name, LIVE_SIZE, light, on)[0]) for on in (0, 1)]
    base_f = [b.astype(np.float32) for b in base]
    record = {"kind": kind, "split": split, "identity": identity, "photo": photo, "size": [fw, fh], "fps": FPS,
              "frames": frames, "led": led, "turn": turn, "background": room_name, "light": light_json(light),
              "noise_sigma": r2(sigma), "jpeg_quality": quality, "instrument": None, "replay": None}
    per_frame = []
    if kind == "genuine":
        m = model(photo)
        dist = rng.uniform(380, 650)
        latency = rng.randint(2, 4)
        yaw0, pitch0 = rng.gauss(0, 3), rng.gauss(0, 3)
        record["distance_mm"] = r2(dist)

        def layer_at(k):
            pos, ang = sway.at(k / FPS)
            yaw = yaw0 + ang[0] + turn_yaw(k, start, latency, amp)
            pose = place(m, cam, (eye_px[0] + pos[0] * cam.f / dist, eye_px[1] + pos[1] * cam.f / dist), dist + pos[2],
                         yaw, pitch0 + ang[1], ang[2])
            return relief.render_relief(m, pose, cam, light, led_on=led[k]), face_truth(m, pose, cam, identity)
    else:
        follows = kind != "replay" and rng.random() < 0.7
        latency = rng.randint(3, 6)
        p_amp = rng.choice((-1, 1)) * rng.uniform(8, 20) if kind != "replay" else 0.0
        if kind == "print":
            content, lm_c, box_c = print_content(rng, photo)
            face_scale = rng.uniform(0.75, 1.1)
            params = (rng.uniform(0.0, 0.25) if rng.random() < 0.3 else 0.0, 30)
        else:
            if kind == "screen":
                pic, lm_p, box_p = photo_crop(photo, 0.75, rng.uniform(2.2, 2.8))
                pic = pic.copy()
            else:
                pic, lm_p, box_p = None, None, None
            face_scale = rng.uniform(0.7, 1.0)
            # Emission level, diffuse reflection of the glass (under 1.5%), the LED's mirror
            # image (a glossy screen: a small saturated spot where it is seen) and its sharpness.
            params = (rng.uniform(0.75, 1.05), rng.uniform(0.004, 0.012), rng.uniform(1.5, 4.0), rng.uniform(20000, 60000))
        if kind == "replay":
            # The replayed video: a genuine session recorded elsewhere, which answered another
            # LED sequence and turned at its own time.
            vcam = relief.Camera((288, 216), hfov_factor=1.7)
            vm = model(photo)
            vlight = random_light(rng, level=rng.uniform(0.5, 1.0))
            vled = led_sequence(rng)
            while sum(a != b for a, b in zip(vled, led)) < 0.3 * min(len(vled), len(led)):
                vled = led_sequence(rng)
            vled = (vled * 2)[:frames]
            vstart = rng.randint(3, frames - TURN_WINDOW)
            vamp = rng.choice((-1, 1)) * rng.uniform(8, 15)
            vdist = rng.uniform(420, 560)
            vroom = rng.choice(rooms.SPLIT_ROOMS[split])
            vbase = [background(vroom, vcam.size, vlight, on)[0] for on in (0, 1)]
            vsway = Sway(rng)
            record["replay"] = {"led": vled, "turn": {"start": vstart, "end": vstart + TURN_WINDOW, "yaw_deg": r2(vamp)},
                                "background": vroom}
            bezel_frac = rng.uniform(0.04, 0.08)
        if kind == "screen":
            content, lm_c, box_c = screen_content(rng, pic, lm_p, box_p, rng.uniform(0.04, 0.08))
        ch, cw = (216, 288) if kind == "replay" else content.shape[:2]
        if kind == "replay":
            bezel = int(cw * bezel_frac)
            ch, cw = ch + 2 * bezel, cw + 2 * bezel
        # Physical size: the face on the instrument looks about life-size to the camera.
        if kind == "replay":
            eye_d_px = 63.0 * vcam.f / vdist
        else:
            eye_d_px = float(np.linalg.norm(lm_c[2:4].mean(0) - lm_c[0:2].mean(0)))
        mm_per_px = 63.0 * face_scale / eye_d_px
        size_mm = (cw * mm_per_px, ch * mm_per_px)
        dist = rng.uniform(300, 520)
        record["distance_mm"] = r2(dist)
        record["instrument"] = {"kind": kind, "size_mm": [r2(size_mm[0]), r2(size_mm[1])], "follows_turn": follows,
                                "face_scale": r2(face_scale)}
        centre = (fw / 2 + rng.gauss(0, 0.04 * fw), fh * 0.5 + rng.gauss(0, 0.04 * fh))
        yaw0, pitch0, roll0 = rng.gauss(0, 4), rng.gauss(0, 4), rng.gauss(0, 2)
        photo_yaw = sources.PHOTOS[photo]["pose"][0]
        ones = np.ones((ch, cw), np.float32)

        def layer_at(k):
            pos, ang = sway.at(k / FPS)
            yaw = yaw0 + ang[0] + (turn_yaw(k, start, latency, p_amp) if follows else 0.0)
            pose = place_plane(cam, (centre[0] + pos[0] * cam.f / dist, centre[1] + pos[1] * cam.f / dist), dist + pos[2],
                               yaw, pitch0 + ang[1], roll0 + ang[2])
            if kind == "replay":
                vpos, vang = vsway.at(k / FPS)
                vyaw = vang[0] + turn_yaw(k, vstart, 3, vamp)
                vpose = place(vm, vcam, (144 + vpos[0], 92 + vpos[1]), vdist, vyaw, vang[1], vang[2])
                vframe = vbase[vled[k]].copy()
                compose_layer(vframe, relief.render_relief(vm, vpose, vcam, vlight, led_on=vled[k]), vled[k])
                vlm, vbox = relief.project_face(vm, vpose, vcam)
                pic = np.clip(vframe, 0, 255)
                c, lmc, bxc = screen_content(rng, pic, vlm, vbox, bezel_frac)
                layer = relief.render_plane(c, ones, size_mm, pose, cam, light, "screen", params, led_on=led[k])
                truth = plane_truth(lmc, bxc, (cw, ch), size_mm, pose, cam, identity, photo, photo_yaw + vyaw)
            else:
                layer = relief.render_plane(content, ones, size_mm, pose, cam, light, kind, params, led_on=led[k])
                truth = plane_truth(lm_c, box_c, (cw, ch), size_mm, pose, cam, identity, photo, photo_yaw)
            return layer, truth
    with open(path + ".mjpeg", "wb") as outf:
        for k in range(frames):
            layer, truth = layer_at(k)
            img = base[led[k]].copy()
            if layer is not None:
                roi, amb, ledc, alpha = layer
                x0, y0, x1, y1 = roi
                region = base_f[led[k]][y0:y1, x0:x1].copy()
                relief.over(region, ((0, 0, x1 - x0, y1 - y0), amb, alpha))
                img[y0:y1, x0:x1] = rooms.to_u8(region)
            out = rooms.finish(img, rng, sigma)
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
            outf.write(buf.tobytes())
            per_frame.append({"box": truth["box"], "landmarks": truth["landmarks"], "yaw_deg": truth["yaw_deg"],
                              "whole": truth["whole"]})
    record["per_frame"] = per_frame
    with open(path + ".json", "w") as f:
        json.dump(record, f)
    return record


# ---------------------------------------------------------------- station assets

def station_light():
    return relief.Light(level=0.85, direction=(0.25, -0.8, -0.55), fill=0.55, tint=(1.02, 1.0, 0.97), led_gain=0.7, specular=0.1)


def write_png(path, rgb):
    cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_PNG_COMPRESSION, 3])


def dg2_portrait(photo):
    """An ICAO-like head-and-shoulders crop (240x320): eyes level, 0.42 of the height from the
    top, eye centres 62 px apart; JPEG quality 75 (a chip's DG2 is small)."""
    rgb = sources.read_photo(OUT, photo)
    lm = np.asarray(sources.PHOTOS[photo]["landmarks"], np.float64)
    el, er = lm[0:2].mean(0), lm[2:4].mean(0)
    angle = math.degrees(math.atan2(er[1] - el[1], er[0] - el[0]))
    s = 62.0 / np.linalg.norm(er - el)
    mid = (el + er) / 2
    m = cv2.getRotationMatrix2D((float(mid[0]), float(mid[1])), angle, s)
    m[:, 2] += np.array([DG2_SIZE[0] / 2, DG2_SIZE[1] * 0.42]) - mid
    crop = cv2.warpAffine(rgb, m, DG2_SIZE, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(crop, cv2.COLOR_RGB2BGR)


def make_station(out):
    d = os.path.join(out, "station")
    cam = relief.Camera(LIVE_SIZE)
    fw, fh = LIVE_SIZE
    light = station_light()
    amb_bg, _ = background(rooms.STATION_ROOM, LIVE_SIZE, light, False)
    on_bg, _ = background(rooms.STATION_ROOM, LIVE_SIZE, light, True)
    led_bg = on_bg - amb_bg
    dist = 480.0
    rng = random.Random(4242)
    sway = Sway(rng, pos=4.0, ang=1.5)
    poses = [(name, yaw, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)) for name, yaw in STATION_POSES]
    for i in range(STATION_SWAY):
        pos, ang = sway.at(i * 0.35)
        poses.append(("sway-%d" % i, ang[0], tuple(pos), (0.0, ang[1], ang[2])))
    manifest = {"size": [fw, fh], "camera": {"f_px": cam.f, "led_mm": [0.0, -45.0, 0.0]},
                "distance_mm": dist, "light": light_json(light), "background": rooms.STATION_ROOM,
                "poses": [p[0] for p in poses], "sway": ["sway-%d" % i for i in range(STATION_SWAY)],
                "identities": {}}
    for identity in STATION_IDENTITIES:
        photos = sources.IDENTITIES[identity]["photos"]
        camera_photo = photos[0]
        dg2_photo = photos[-1] if len(photos) > 1 else photos[0]
        cv2.imwrite(os.path.join(d, identity + "-dg2.jpg"), dg2_portrait(dg2_photo), [cv2.IMWRITE_JPEG_QUALITY, DG2_QUALITY])
        entry = {"dg2": identity + "-dg2.jpg", "dg2_photo": dg2_photo, "camera_photo": camera_photo,
                 "same_photo": dg2_photo == camera_photo, "presentations": {}}
        m = model(camera_photo)
        prng = random.Random(sum(map(ord, identity)))
        content, lm_c, box_c = print_content(prng, camera_photo)
        pic, lm_p, box_p = photo_crop(camera_photo, 0.75, 2.4)
        scontent, slm, sbox = screen_content(prng, pic, lm_p, box_p, 0.06)
        for presentation in ("genuine", "print", "screen"):
            pd = os.path.join(d, identity, presentation)
            os.makedirs(pd, exist_ok=True)
            rows = []
            for name, yaw, pos, ang in poses:
                eye = (fw / 2 + pos[0] * cam.f / dist, fh * 0.42 + pos[1] * cam.f / dist)
                if presentation == "genuine":
                    pose = place(m, cam, eye, dist + pos[2], yaw, ang[1], ang[2])
                    layer = relief.render_relief(m, pose, cam, light)
                    truth = face_truth(m, pose, cam, identity)
                else:
                    c, lmc, bxc = (content, lm_c, box_c) if presentation == "print" else (scontent, slm, sbox)
                    ch, cw = c.shape[:2]
                    mm = 63.0 * 0.95 / float(np.linalg.norm(lmc[2:4].mean(0) - lmc[0:2].mean(0)))
                    size_mm = (cw * mm, ch * mm)
                    pose = place_plane(cam, (eye[0], fh * 0.5 + pos[1] * cam.f / dist), dist - 40 + pos[2], yaw, ang[1], ang[2])
                    params = (0.0, 30) if presentation == "print" else (0.9, 0.008, 3.0, 40000)
                    layer = relief.render_plane(c, np.ones((ch, cw), np.float32), size_mm, pose, cam, light, presentation, params)
                    truth = plane_truth(lmc, bxc, (cw, ch), size_mm, pose, cam, identity, camera_photo, sources.PHOTOS[camera_photo]["pose"][0])
                ambient = amb_bg.copy()
                led = led_bg.copy()
                roi, a_rgb, l_rgb, alpha = layer
                relief.over(ambient, (roi, a_rgb, alpha))
                relief.over(led, (roi, l_rgb, alpha))
                write_png(os.path.join(pd, name + "-ambient.png"), rooms.to_u8(ambient))
                write_png(os.path.join(pd, name + "-led.png"), rooms.to_u8(led))
                rows.append({"pose": name, "yaw_deg": truth["yaw_deg"],
                             "ambient": "%s/%s/%s-ambient.png" % (identity, presentation, name),
                             "led": "%s/%s/%s-led.png" % (identity, presentation, name),
                             "box": truth["box"], "landmarks": truth["landmarks"]})
            entry["presentations"][presentation] = rows
        manifest["identities"][identity] = entry
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return len(STATION_IDENTITIES)


# ---------------------------------------------------------------- match pairs and demo

MATCH_RENDERS = [(-8.0, 0.9, (0.6, -0.6, -0.5)), (7.0, 0.7, (-0.5, -0.8, -0.4))]


def make_match(out):
    d = os.path.join(out, "match", "renders")
    os.makedirs(d, exist_ok=True)
    cam = relief.Camera(LIVE_SIZE)
    renders = {}
    for photo in sources.PHOTOS:
        m = model(photo)
        for i, (yaw, level, direction) in enumerate(MATCH_RENDERS):
            light = relief.Light(level=level, direction=direction, led_gain=0.0, specular=0.0)
            frame, _ = background(rooms.STATION_ROOM, LIVE_SIZE, light, False)
            pose = place(m, cam, (LIVE_SIZE[0] / 2, LIVE_SIZE[1] * 0.42), 520.0, yaw, 0.0, 0.0)
            compose_layer(frame, relief.render_relief(m, pose, cam, light), False)
            rel = "match/renders/%s-%d.jpg" % (photo, i)
            cv2.imwrite(os.path.join(out, rel), cv2.cvtColor(rooms.to_u8(frame), cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, FRAME_JPEG_QUALITY])
            renders.setdefault(photo, []).append((rel, face_truth(m, pose, cam, sources.PHOTOS[photo]["identity"])))
    items = []
    for photo, p in sources.PHOTOS.items():
        items.append(("sources/" + p["file"], photo, None))
        for rel, truth in renders[photo]:
            items.append((rel, photo, truth))
    pairs = []
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            a, b = items[i], items[j]
            ia, ib = sources.PHOTOS[a[1]]["identity"], sources.PHOTOS[b[1]]["identity"]
            same = ia == ib
            real_a, real_b = a[2] is None, b[2] is None
            if not same:
                honesty = "different-people"
            elif a[1] != b[1]:
                honesty = "two-photographs" if real_a and real_b else ("renders-of-two-photographs" if not (real_a or real_b) else "photograph-and-render-of-another")
            else:
                honesty = "renders-of-one-photograph" if not (real_a or real_b) else "photograph-and-its-render"
            pair = {"a": a[0], "b": b[0], "same": same, "honesty": honesty, "a_identity": ia, "b_identity": ib,
                    "a_photo": a[1], "b_photo": b[1]}
            for key, item in (("a_landmarks", a), ("b_landmarks", b)):
                pair[key] = item[2]["landmarks"] if item[2] else landmark_dict(np.asarray(sources.PHOTOS[item[1]]["landmarks"], float))
            pairs.append(pair)
    # The station's chip portraits against the camera's photograph.
    for identity in STATION_IDENTITIES:
        photos = sources.IDENTITIES[identity]["photos"]
        dg2_photo = photos[-1] if len(photos) > 1 else photos[0]
        for rel, truth in renders[photos[0]]:
            pairs.append({"a": "station/%s-dg2.jpg" % identity, "b": rel, "same": True,
                          "honesty": "photograph-and-render-of-another" if dg2_photo != photos[0] else "photograph-and-its-render",
                          "a_identity": identity, "b_identity": identity, "a_photo": dg2_photo, "b_photo": photos[0],
                          "a_landmarks": None, "b_landmarks": truth["landmarks"]})
    with open(os.path.join(out, "match", "pairs.json"), "w") as f:
        json.dump({"pairs": pairs}, f, indent=0)
    counts = {}
    for p in pairs:
        counts[p["honesty"]] = counts.get(p["honesty"], 0) + 1
    return counts


def make_demo(out):
    cam = relief.Camera(LIVE_SIZE)
    m = model(sources.IDENTITIES[DEMO_IDENTITY]["photos"][0])
    light = station_light()
    base = rooms.to_u8(background(rooms.STATION_ROOM, LIVE_SIZE, light, False)[0])
    base_f = base.astype(np.float32)
    rng = random.Random(77)
    sway = Sway(rng, pos=3.0, ang=0.8)
    frames = 60
    truth = []
    with open(os.path.join(out, "demo-face.mjpeg"), "wb") as f:
        for k in range(frames):
            pos, ang = sway.at(k / FPS)
            yaw = 9.0 * math.sin(2 * math.pi * k / frames) + ang[0]
            pose = place(m, cam, (LIVE_SIZE[0] / 2 + pos[0], LIVE_SIZE[1] * 0.42 + pos[1]), 500 + pos[2], yaw, ang[1], ang[2])
            roi, amb, _, alpha = relief.render_relief(m, pose, cam, light, led_on=0)
            x0, y0, x1, y1 = roi
            img = base.copy()
            region = base_f[y0:y1, x0:x1].copy()
            relief.over(region, ((0, 0, x1 - x0, y1 - y0), amb, alpha))
            img[y0:y1, x0:x1] = rooms.to_u8(region)
            ok, buf = cv2.imencode(".jpg", rooms.finish(img, rng, 1.8), [cv2.IMWRITE_JPEG_QUALITY, SEQUENCE_JPEG_QUALITY])
            f.write(buf.tobytes())
            t = face_truth(m, pose, cam, DEMO_IDENTITY)
            truth.append({"box": t["box"], "landmarks": t["landmarks"], "yaw_deg": t["yaw_deg"]})
    with open(os.path.join(out, "demo-face.json"), "w") as f:
        json.dump({"identity": DEMO_IDENTITY, "photo": m.name, "size": list(LIVE_SIZE), "fps": FPS, "frames": frames,
                   "led": [0] * frames, "per_frame": truth}, f)
    return frames


# ---------------------------------------------------------------- the run

def contact_sheet(out):
    tiles = []
    for split in SPLITS:
        d = os.path.join(out, "frames", split)
        names = sorted(n for n in os.listdir(d) if n.endswith(".json"))
        for name in names[:: max(1, len(names) // 6)][:6]:
            rec = json.load(open(os.path.join(d, name)))
            img = cv2.imread(os.path.join(d, name[:-5] + ".jpg"))
            for face in rec["faces"]:
                b = np.round(face["box"]).astype(int)
                cv2.rectangle(img, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), (0, 0, 255), 2)
                for p in face["landmarks"].values():
                    cv2.circle(img, (int(round(p[0])), int(round(p[1]))), 3, (0, 255, 0), -1)
            img = cv2.resize(img, (400, 300), interpolation=cv2.INTER_AREA)
            cv2.putText(img, "%s %s" % (split, rec["case"]), (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA)
            tiles.append(img)
    rows = [np.hstack(tiles[i:i + 6]) for i in range(0, len(tiles) - len(tiles) % 6, 6)]
    cv2.imwrite(os.path.join(out, "contact-frames.jpg"), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 88])


def generate_all(out):
    timings = {}
    for sub in ("frames", "liveness", "station", "match"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    summary = {}
    t0 = time.process_time()
    for split in SPLITS:
        d = os.path.join(out, "frames", split)
        os.makedirs(d, exist_ok=True)
        n480, n720 = FRAME_COUNTS[split]
        cases, faces = {}, 0
        for n in range(n480 + n720):
            rec = make_frame(split, n, (640, 480) if n < n480 else (1280, 720), d)
            cases[rec["case"]] = cases.get(rec["case"], 0) + 1
            faces += len(rec["faces"])
        summary[split] = {"frames": n480 + n720, "faces": faces, "cases": dict(sorted(cases.items()))}
    timings["frames"] = time.process_time() - t0
    t0 = time.process_time()
    for split in SPLITS:
        summary[split]["liveness"] = {}
        for kind in KINDS:
            d = os.path.join(out, "liveness", split, kind)
            os.makedirs(d, exist_ok=True)
            total = 0
            for n in range(LIVENESS_COUNTS[split][kind]):
                total += make_sequence(split, kind, n, os.path.join(d, "%03d" % n))["frames"]
            summary[split]["liveness"][kind] = {"sequences": LIVENESS_COUNTS[split][kind], "frames": total}
    timings["liveness"] = time.process_time() - t0
    t0 = time.process_time()
    os.makedirs(os.path.join(out, "station"), exist_ok=True)
    make_station(out)
    timings["station"] = time.process_time() - t0
    t0 = time.process_time()
    summary["match"] = make_match(out)
    timings["match"] = time.process_time() - t0
    t0 = time.process_time()
    summary["demo_frames"] = make_demo(out)
    contact_sheet(out)
    timings["demo, contact"] = time.process_time() - t0
    return summary, timings


def main():
    global OUT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "face-data"))
    parser.add_argument("--force", action="store_true", help="regenerate even when the stamp is current")
    parser.add_argument("--demo-only", action="store_true",
                        help="only the simulated camera's assets the demo reads (station/); the data set is left as it is")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    out = OUT = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    wall, cpu = time.time(), time.process_time()
    fetched = sources.fetch(out)
    if fetched:
        print("  %-15s %6.1f s (%d photographs)" % ("sources", time.time() - wall, fetched))
    stamp_path = os.path.join(out, "stamp.json")
    src = datagen.source_hash(HERE)
    try:
        stamp = json.load(open(stamp_path))
    except (OSError, ValueError):
        stamp = {}
    if not args.force and stamp.get("sources") == src:
        print("face-data: %s is current" % out)
        return
    if args.demo_only:
        # The station's assets alone, stamped apart: a later full run still makes everything.
        station_stamp = os.path.join(out, "station-stamp.json")
        try:
            current = json.load(open(station_stamp)).get("sources") == src
        except (OSError, ValueError):
            current = False
        if current and not args.force:
            print("face-data: the station's assets in %s are current" % out)
            return
        shutil.rmtree(os.path.join(out, "station"), ignore_errors=True)
        os.makedirs(os.path.join(out, "station"))
        make_station(out)
        with open(station_stamp, "w") as f:
            json.dump({"sources": src}, f)
        print("face-data: made the station's assets in %s in %.1f s" % (out, time.time() - wall))
        return
    summary, timings = generate_all(out)
    for k, v in timings.items():
        print("  %-15s %6.1f s CPU" % (k, v))
    for split in SPLITS:
        s = summary[split]
        live = " ".join("%s %d" % (k, s["liveness"][k]["sequences"]) for k in KINDS)
        print("  %-8s frames %4d (faces %d)  liveness %s" % (split, s["frames"], s["faces"], live))
    print("  match pairs %s" % json.dumps(summary["match"]))
    # No times in the stamp: two runs give byte-identical files, the stamp included.
    stamp = {"sources": src, "photos": {name: p["sha256"] for name, p in sources.PHOTOS.items()}, "summary": summary}
    with open(stamp_path, "w") as f:
        json.dump(stamp, f, indent=1)
    print("face-data: made the data set in %s in %.1f s (%.1f s CPU, one thread)" % (out, time.time() - wall, time.process_time() - cpu))


if __name__ == "__main__":
    main()
