#!/usr/bin/python3
"""Validates the generated face data against its contract (docs/face-data.md).

Usage: scripts/face-data/check.py [--out DIR] [--quick]

Checks the stamp (the generator's sources hash) and the SHA-256 of every source
photograph; every JSON against the contract; the derived fields (centre offset, width
fraction, roll, whole) recomputed from the box and landmarks; that the landmarks are where
the face was drawn (the source photograph warped onto the frame by a similarity fitted to
the recorded landmarks must agree with the frame better than with the landmarks moved);
that LED-on frames are brighter on the face than LED-off ones for genuine faces and prints,
that a screen barely changes, that a replay follows its own video's LED and not the
station's; the station assets, the match pairs and the demo recording. --quick looks at
one frame in five and one sequence in three. Prints counts; exits 1 on any failure.
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts in the worktree

import argparse
import json
import math
import os
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: datagen
import datagen

import cv2
import numpy as np

import sources

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPLITS = ("train", "dev", "heldout")
KINDS = ("genuine", "print", "screen", "replay")
CASES = ("centred", "offCentre", "small", "large", "cut", "rolled", "yawed", "empty", "two", "dark", "backlit", "blurred")
NAMES = ("leftEyeOuter", "leftEyeInner", "rightEyeInner", "rightEyeOuter", "noseBase")
FACE_KEYS = {"identity", "photo", "box", "landmarks", "center_offset", "width_fraction", "roll_deg", "yaw_deg",
             "pitch_deg", "whole", "distance_mm"}
HONESTY = ("two-photographs", "renders-of-two-photographs", "photograph-and-render-of-another",
           "renders-of-one-photograph", "photograph-and-its-render", "different-people")
# Held-out identities must not appear in train or dev (docs/face-data.md, "Splits").
HELDOUT_ONLY = {"hopper", "biden"}
# LED response thresholds (face median luma, LED on / LED off).
GENUINE_MIN, PRINT_MIN, SCREEN_MAX = 1.1, 1.1, 1.1

problems = []


def problem(where, what):
    problems.append("%s: %s" % (where, what))


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def points(face):
    return np.array([face["landmarks"][n] for n in NAMES], np.float64)


def check_face(where, face, size, derived=True):
    """The face object's keys, types and derived fields; returns True when usable."""
    if not isinstance(face, dict) or not FACE_KEYS <= set(face):
        problem(where, "face lacks %s" % sorted(FACE_KEYS - set(face or {})))
        return False
    lm = face["landmarks"]
    if set(lm) != set(NAMES) or not all(isinstance(p, list) and len(p) == 2 and all(is_number(v) for v in p) for p in lm.values()):
        problem(where, "landmarks are not the five named points")
        return False
    b = face["box"]
    if not (isinstance(b, list) and len(b) == 4 and all(is_number(v) for v in b) and b[0] < b[2] and b[1] < b[3]):
        problem(where, "box is not [x0, y0, x1, y1]")
        return False
    fw, fh = size
    p = points(face)
    whole = b[0] >= 0 and b[1] >= 0 and b[2] <= fw - 1 and b[3] <= fh - 1
    if whole != face["whole"]:
        problem(where, "whole disagrees with the box")
    if face["whole"] and not (np.all(p >= 0) and np.all(p[:, 0] <= fw - 1) and np.all(p[:, 1] <= fh - 1)):
        problem(where, "a whole face has a landmark outside the frame")
    grow = 0.1 * (b[2] - b[0])
    if np.any(p[:, 0] < b[0] - grow) or np.any(p[:, 0] > b[2] + grow) or np.any(p[:, 1] < b[1] - grow) or np.any(p[:, 1] > b[3] + grow):
        problem(where, "landmarks outside the face box")
    el, er = p[0:2].mean(0), p[2:4].mean(0)
    # Image-left eye left of the image-right eye once the roll is undone.
    roll = math.degrees(math.atan2(er[1] - el[1], er[0] - el[0]))
    if abs(roll - face["roll_deg"]) > 0.05:
        problem(where, "roll_deg is not the eye line's angle")
    if abs(roll) > 60:
        problem(where, "eyes out of order")
    if not (p[0, 0] < p[1, 0] < p[2, 0] < p[3, 0]) and abs(roll) < 30:
        problem(where, "eye corners not in image order")
    if derived:
        co = [((b[0] + b[2]) / 2 - (fw - 1) / 2) / fw, ((b[1] + b[3]) / 2 - (fh - 1) / 2) / fh]
        if any(abs(x - y) > 2e-4 for x, y in zip(co, face["center_offset"])):
            problem(where, "center_offset disagrees with the box")
        if abs((b[2] - b[0]) / fw - face["width_fraction"]) > 2e-4:
            problem(where, "width_fraction disagrees with the box")
    for k in ("yaw_deg", "pitch_deg", "distance_mm"):
        if not is_number(face[k]):
            problem(where, "%s is not a number" % k)
    return True


_photos = {}


def photo_luma(out, name):
    if name not in _photos:
        rgb = sources.read_photo(out, name)
        _photos[name] = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    return _photos[name]


def similarity(src, dst):
    """Least-squares similarity (Umeyama) mapping src points onto dst: 2x3 matrix."""
    ms, md = src.mean(0), dst.mean(0)
    a, b = src - ms, dst - md
    cov = b.T @ a / len(src)
    u, s, vt = np.linalg.svd(cov)
    d = np.sign(np.linalg.det(u @ vt))
    r = u @ np.diag([1, d]) @ vt
    scale = (s * [1, d]).sum() / (a ** 2).sum() * len(src)
    m = np.zeros((2, 3))
    m[:, :2] = scale * r
    m[:, 2] = md - m[:, :2] @ ms
    return m


def agreement(luma, photo, m, region):
    """Correlation of the frame with the photograph warped by M, inside REGION (a polygon in
    the photograph)."""
    fh, fw = luma.shape
    poly = (np.asarray(region, np.float64) @ m[:, :2].T + m[:, 2])
    x0, y0 = max(0, int(poly[:, 0].min()) - 1), max(0, int(poly[:, 1].min()) - 1)
    x1, y1 = min(fw, int(poly[:, 0].max()) + 2), min(fh, int(poly[:, 1].max()) + 2)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return -1.0
    mm = m.copy()
    mm[:, 2] -= [x0, y0]
    warped = cv2.warpAffine(photo, mm, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA if np.linalg.norm(m[:, 0]) < 1 else cv2.INTER_LINEAR)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(poly - [x0, y0]).astype(np.int32)], 1)
    sel = mask > 0
    a, b = warped[sel], luma[y0:y1, x0:x1][sel]
    if a.size < 150:
        return -1.0
    a = a - a.mean()
    b = b - b.mean()
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))


def check_landmarks(out, luma, face):
    """(agreement at the recorded landmarks, best agreement with them moved) or None."""
    ann = sources.PHOTOS[face["photo"]]
    src = np.asarray(ann["landmarks"], np.float64)
    dst = points(face)
    photo = photo_luma(out, face["photo"])
    # The inner face: eyes to below the nose, the region a similarity maps best.
    el, er, nb = src[0], src[3], src[4]
    d = np.linalg.norm(src[2:4].mean(0) - src[0:2].mean(0))
    region = [el + [-0.1 * d, -0.35 * d], er + [0.1 * d, -0.35 * d], nb + [0.55 * d, 0.15 * d], nb + [-0.55 * d, 0.15 * d]]
    m = similarity(src, dst)
    base = agreement(luma, photo, m, region)
    step = 0.12 * np.linalg.norm(dst[2:4].mean(0) - dst[0:2].mean(0))
    moved = []
    for dx, dy in ((step, 0), (-step, 0), (0, step), (0, -step)):
        mv = m.copy()
        mv[:, 2] += [dx, dy]
        moved.append(agreement(luma, photo, mv, region))
    return base, max(moved)


def check_frames(out, quick):
    counts = {}
    agreements = []
    for split in SPLITS:
        d = os.path.join(out, "frames", split)
        names = sorted(n[:-5] for n in os.listdir(d) if n.endswith(".json"))
        cases, sizes, ids = Counter(), Counter(), Counter()
        faces_n = 0
        for i, name in enumerate(names):
            where = "frames/%s/%s" % (split, name)
            rec = json.load(open(os.path.join(d, name + ".json")))
            need = {"size", "split", "case", "background", "faces", "light", "blur_px"}
            if not need <= set(rec):
                problem(where, "lacks %s" % sorted(need - set(rec)))
                continue
            if rec["case"] not in CASES or rec["split"] != split:
                problem(where, "bad case or split")
            img = cv2.imread(os.path.join(d, name + ".jpg"))
            size = tuple(rec["size"])
            if img is None or (img.shape[1], img.shape[0]) != size or size not in ((640, 480), (1280, 720)):
                problem(where, "image missing or not %dx%d" % size)
                continue
            sizes["%dx%d" % size] += 1
            cases[rec["case"]] += 1
            if rec["case"] == "empty" and rec["faces"]:
                problem(where, "an empty room has faces")
            if rec["case"] != "empty" and not rec["faces"]:
                problem(where, "no face")
            if rec["case"] == "cut" and all(f["whole"] for f in rec["faces"]):
                problem(where, "a cut face is whole")
            widths = [f["width_fraction"] for f in rec["faces"]]
            if widths != sorted(widths, reverse=True):
                problem(where, "faces not ordered by width")
            luma = None
            for f in rec["faces"]:
                faces_n += 1
                if not check_face(where, f, size):
                    continue
                ids[f["identity"]] += 1
                if split != "heldout" and f["identity"] in HELDOUT_ONLY:
                    problem(where, "a held-out identity outside heldout")
                if split == "heldout" and f["identity"] not in HELDOUT_ONLY:
                    problem(where, "a train/dev identity in heldout")
                if f["whole"] and f["width_fraction"] * size[0] >= 50 and rec["blur_px"] == 0 and (not quick or i % 5 == 0):
                    if luma is None:
                        luma = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
                    r = check_landmarks(out, luma, f)
                    agreements.append(r + (rec["case"],))
                    base, moved = r
                    if base < 0.3 or base < moved - 0.03:
                        problem(where, "landmarks do not match the face drawn (agreement %.3f, moved %.3f)" % (base, moved))
        counts[split] = (len(names), faces_n, cases, sizes, ids)
    return counts, agreements


def split_mjpeg(data):
    """The JPEG images of a concatenated stream (start-of-image after end-of-image)."""
    images, i = [], 0
    while True:
        s = data.find(b"\xff\xd8", i)
        if s < 0:
            return images
        e = data.find(b"\xff\xd9", s)
        if e < 0:
            return images
        images.append(data[s:e + 2])
        i = e + 2


def face_luma(img, face):
    """Median luma of the inner face (the box shrunk to its middle 50%)."""
    b = face["box"]
    h, w = img.shape[:2]
    cx, cy, bw, bh = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, (b[2] - b[0]) / 4, (b[3] - b[1]) / 4
    x0, x1 = int(max(0, cx - bw)), int(min(w, cx + bw))
    y0, y1 = int(max(0, cy - bh)), int(min(h, cy + bh))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    return float(np.median(img[y0:y1, x0:x1]))


def check_liveness(out, quick):
    counts = {}
    ratios = {k: [] for k in KINDS}
    replay_follow = []
    for split in SPLITS:
        counts[split] = {}
        for kind in KINDS:
            d = os.path.join(out, "liveness", split, kind)
            names = sorted(n[:-5] for n in os.listdir(d) if n.endswith(".json"))
            frames_total = 0
            for i, name in enumerate(names):
                where = "liveness/%s/%s/%s" % (split, kind, name)
                rec = json.load(open(os.path.join(d, name + ".json")))
                need = {"kind", "split", "identity", "photo", "size", "fps", "frames", "led", "turn", "per_frame", "instrument", "replay"}
                if not need <= set(rec):
                    problem(where, "lacks %s" % sorted(need - set(rec)))
                    continue
                n = rec["frames"]
                frames_total += n
                if rec["kind"] != kind or rec["split"] != split or rec["size"] != [640, 480] or rec["fps"] != 15:
                    problem(where, "bad kind, split, size or fps")
                if not 30 <= n <= 45 or len(rec["led"]) != n or len(rec["per_frame"]) != n:
                    problem(where, "frames %d, led %d, per_frame %d (30-45 expected)" % (n, len(rec["led"]), len(rec["per_frame"])))
                    continue
                if set(rec["led"]) != {0, 1}:
                    problem(where, "the LED is never on or never off")
                t = rec["turn"]
                if not (0 <= t["start"] < t["end"] <= n and 8 <= abs(t["yaw_deg"]) <= 15):
                    problem(where, "bad turn request")
                if (split == "heldout") != (rec["identity"] in HELDOUT_ONLY):
                    problem(where, "identity %s in the wrong split" % rec["identity"])
                if (kind == "genuine") != (rec["instrument"] is None) or (kind == "replay") != (rec["replay"] is not None):
                    problem(where, "instrument/replay disagree with the kind")
                for k, pf in enumerate(rec["per_frame"]):
                    face = dict(pf, identity=rec["identity"], photo=rec["photo"], center_offset=[0, 0], width_fraction=0,
                                roll_deg=math.degrees(math.atan2(*(points(pf)[2:4].mean(0) - points(pf)[0:2].mean(0))[::-1])),
                                pitch_deg=0, distance_mm=0)
                    check_face("%s frame %d" % (where, k), face, (640, 480), derived=False)
                data = open(os.path.join(d, name + ".mjpeg"), "rb").read()
                jpegs = split_mjpeg(data)
                if len(jpegs) != n:
                    problem(where, "%d JPEG frames, %d in the JSON" % (len(jpegs), n))
                    continue
                if quick and i % 3:
                    continue
                lumas = []
                for k, j in enumerate(jpegs):
                    img = cv2.imdecode(np.frombuffer(j, np.uint8), cv2.IMREAD_GRAYSCALE)
                    if img is None or img.shape != (480, 640):
                        problem(where, "frame %d is not a 640x480 JPEG" % k)
                        lumas = None
                        break
                    lumas.append(face_luma(img, rec["per_frame"][k]))
                if not lumas or any(v is None for v in lumas):
                    continue
                lumas = np.array(lumas)
                led = np.array(rec["led"])
                ratio = lumas[led == 1].mean() / max(1.0, lumas[led == 0].mean())
                ratios[kind].append(ratio)
                if kind == "genuine" and ratio < GENUINE_MIN:
                    problem(where, "the face brightens only %.3fx with the LED" % ratio)
                if kind == "print" and ratio < PRINT_MIN:
                    problem(where, "the print brightens only %.3fx with the LED" % ratio)
                if kind == "screen" and ratio > SCREEN_MAX:
                    problem(where, "the screen brightens %.3fx with the LED" % ratio)
                if kind == "replay":
                    vled = np.array(rec["replay"]["led"])
                    own = np.corrcoef(lumas, vled)[0, 1] if vled.std() > 0 else 0
                    station = np.corrcoef(lumas, led)[0, 1]
                    replay_follow.append((own, station))
                    if not own > station:
                        problem(where, "the replay follows the station's LED (%.2f) more than its own video's (%.2f)" % (station, own))
            counts[split][kind] = (len(names), frames_total)
    return counts, ratios, replay_follow


def check_station(out):
    d = os.path.join(out, "station")
    man = json.load(open(os.path.join(d, "manifest.json")))
    rows = []
    for identity, entry in man["identities"].items():
        dg2 = cv2.imread(os.path.join(d, entry["dg2"]))
        if dg2 is None or dg2.shape[:2] != (320, 240):
            problem("station/" + entry["dg2"], "not a 240x320 image")
        photos = sources.IDENTITIES[identity]["photos"]
        if len(photos) > 1 and entry["dg2_photo"] == entry["camera_photo"]:
            problem("station/" + identity, "the chip portrait uses the camera's photograph though another exists")
        gains = {}
        for presentation in ("genuine", "print", "screen"):
            poses = entry["presentations"].get(presentation, [])
            if [p["pose"] for p in poses] != man["poses"]:
                problem("station/%s/%s" % (identity, presentation), "poses differ from the manifest's")
            g = []
            for p in poses:
                where = "station/" + p["ambient"]
                amb = cv2.imread(os.path.join(d, p["ambient"]), cv2.IMREAD_GRAYSCALE)
                led = cv2.imread(os.path.join(d, p["led"]), cv2.IMREAD_GRAYSCALE)
                if amb is None or led is None or amb.shape != (480, 640) or led.shape != (480, 640):
                    problem(where, "ambient/led image missing or not 640x480")
                    continue
                face = {"box": p["box"], "landmarks": p["landmarks"]}
                la, ll = face_luma(amb, face), face_luma(led, face)
                g.append(ll / max(1.0, la))
                pts = points(face)
                if np.any(pts < 0) or np.any(pts[:, 0] > 639) or np.any(pts[:, 1] > 479):
                    problem(where, "landmark outside the frame")
            gains[presentation] = float(np.median(g)) if g else 0.0
        if not (gains["genuine"] > 0.1 and gains["print"] > 0.1 and gains["screen"] < 0.5 * min(gains["genuine"], gains["print"])):
            problem("station/" + identity, "LED gains on the face genuine %.2f print %.2f screen %.2f" % (gains["genuine"], gains["print"], gains["screen"]))
        rows.append((identity, entry["camera_photo"], entry["dg2_photo"], gains))
    return man, rows


def check_match(out):
    pairs = json.load(open(os.path.join(out, "match", "pairs.json")))["pairs"]
    c = Counter()
    for i, p in enumerate(pairs):
        where = "match pair %d" % i
        for k in ("a", "b"):
            if not os.path.exists(os.path.join(out, p[k])):
                problem(where, "%s missing" % p[k])
        if p["honesty"] not in HONESTY:
            problem(where, "bad honesty label")
        if p["same"] != (p["a_identity"] == p["b_identity"]) or (p["honesty"] == "different-people") == p["same"]:
            problem(where, "same disagrees with the identities or the label")
        c[(p["same"], p["honesty"])] += 1
    return c


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "face-data"))
    parser.add_argument("--quick", action="store_true", help="one frame in five and one sequence in three for the image checks")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    out = os.path.abspath(args.out)
    try:
        stamp = json.load(open(os.path.join(out, "stamp.json")))
    except (OSError, ValueError):
        print("check: %s has no stamp (run scripts/face-data/generate.py)" % out)
        return 1
    if stamp.get("sources") != datagen.source_hash(HERE):
        problem("stamp.json", "made by another version of the generator (run scripts/face-data/generate.py)")
    bad = sources.verify(out)
    if bad:
        problem("sources", "missing or changed: %s" % ", ".join(bad))
    if stamp.get("photos") != {n: p["sha256"] for n, p in sources.PHOTOS.items()}:
        problem("stamp.json", "photos' SHA-256 differ from the sources table")
    frames, agreements = check_frames(out, args.quick)
    live, ratios, replay_follow = check_liveness(out, args.quick)
    man, station = check_station(out)
    match = check_match(out)
    demo = split_mjpeg(open(os.path.join(out, "demo-face.mjpeg"), "rb").read())
    demo_json = json.load(open(os.path.join(out, "demo-face.json")))
    if len(demo) != demo_json["frames"] or len(demo_json["per_frame"]) != len(demo) or not 45 <= len(demo) <= 90:
        problem("demo-face", "%d frames, JSON says %d" % (len(demo), demo_json["frames"]))
    for j in demo[:1]:
        img = cv2.imdecode(np.frombuffer(j, np.uint8), cv2.IMREAD_COLOR)
        if img is None or img.shape[:2] != (480, 640):
            problem("demo-face", "not 640x480")
    for split in SPLITS:
        n, faces, cases, sizes, ids = frames[split]
        print("frames   %-8s %4d (%d faces) %s" % (split, n, faces, dict(sorted(sizes.items()))))
        print("   cases:      %s" % dict(sorted(cases.items())))
        print("   identities: %s" % dict(sorted(ids.items())))
    for split in SPLITS:
        print("liveness %-8s %s" % (split, "  ".join("%s %d (%d frames)" % (k, v[0], v[1]) for k, v in live[split].items())))
    for kind in KINDS:
        r = np.array(ratios[kind])
        if len(r):
            print("   LED on/off face luma, %-8s %3d sequences: median %.3f (%.3f-%.3f)" % (kind, len(r), np.median(r), r.min(), r.max()))
    if replay_follow:
        a = np.array(replay_follow)
        print("   replay: correlation of face luma with its video's LED median %.2f, with the station's %.2f" % (np.median(a[:, 0]), np.median(a[:, 1])))
    for identity, cam_photo, dg2_photo, gains in station:
        print("station  %-8s camera %-7s dg2 %-7s LED gain on the face: %s" % (identity, cam_photo, dg2_photo, ", ".join("%s %.2f" % kv for kv in gains.items())))
    print("match    %d pairs: %s" % (sum(match.values()), ", ".join("%s %s %d" % ("same" if s else "diff", h, v) for (s, h), v in sorted(match.items()))))
    print("demo     %d frames" % len(demo))
    if agreements:
        a = np.array([x[:2] for x in agreements])
        print("landmarks: photograph warped by the recorded landmarks at %d faces: agreement median %.3f (min %.3f), "
              "moved by 12%% of the eye distance median %.3f; recorded best in %d of %d"
              % (len(a), np.median(a[:, 0]), a[:, 0].min(), np.median(a[:, 1]), int((a[:, 0] >= a[:, 1]).sum()), len(a)))
    return datagen.verdict(problems)


if __name__ == "__main__":
    sys.exit(main())
