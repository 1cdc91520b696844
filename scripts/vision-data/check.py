#!/usr/bin/python3
"""Validates the generated vision data against the shared contract (docs/vision-data.md).

Usage: scripts/vision-data/check.py [--out DIR] [--quick]

Checks every JSON against the contract, every MRZ's check digits, image sizes, that
`expected` follows from the documented thresholds (recomputed here, not imported), and
that the recorded corners are where the document was drawn: the page is drawn again from
its seed and its agreement with the frame at the recorded corners must not fall behind
(by more than 0.02) the same corners moved by a few pixels or scaled by 3%. Prints counts; exits 1 on any failure. Prints no MRZ text.
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

import compose
import mrzgen
import pages

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPLITS = ("train", "dev", "heldout")
SIDES = {"TD1": ("front", "back"), "TD2": ("data",), "TD3": ("data",)}
MRZ_SHAPE = {"TD1": (3, 30), "TD2": (2, 36), "TD3": (2, 44)}
EXPECTED = ("none", "centerId", "tooClose", "moveCloser", "tilt", "holdStraight", "ready")
NEGATIVES = (None, "hand", "phone", "book", "photo")
CROP_SIZE = {"TD1": (856, 540), "TD2": (1050, 740), "TD3": (1250, 880)}
# docs/vision-data.md, "Thresholds behind expected".
AREA, MARGIN, OFFSET, TILT, ROTATION = 0.12, 0.01, 0.18, 15.0, 12.0

problems = []


def problem(where, what):
    problems.append("%s: %s" % (where, what))


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_mrz(where, cls, side, mrz):
    if cls == "TD1" and side == "front":
        if mrz is not None:
            problem(where, "a card front has no MRZ")
        return
    if not (isinstance(mrz, list) and all(isinstance(l, str) for l in mrz)):
        problem(where, "mrz is not a list of lines")
        return
    lines, width = MRZ_SHAPE[cls]
    if len(mrz) != lines or any(len(l) != width for l in mrz):
        problem(where, "mrz is not %dx%d" % (lines, width))
        return
    failed = mrzgen.verify(mrz)
    if failed:
        problem(where, "MRZ check digits fail: %s" % ",".join(failed))


def check_document(where, d, frame_size):
    keys = {"class", "side", "corners", "whole", "tilt_deg", "rotation_deg", "mrz", "blur_px", "glare"}
    if not isinstance(d, dict) or not keys <= set(d):
        problem(where, "document lacks %s" % sorted(keys - set(d or {})))
        return False
    if d["class"] not in SIDES or d["side"] not in SIDES[d["class"]]:
        problem(where, "bad class/side")
        return False
    c = d["corners"]
    if not (isinstance(c, list) and len(c) == 4 and all(isinstance(p, list) and len(p) == 2 and all(is_number(v) for v in p) for p in c)):
        problem(where, "corners are not 4 points")
        return False
    for k in ("tilt_deg", "rotation_deg", "blur_px"):
        if not is_number(d[k]):
            problem(where, "%s is not a number" % k)
    if not isinstance(d["whole"], bool) or not isinstance(d["glare"], bool):
        problem(where, "whole/glare not booleans")
    p = np.array(c, np.float64)
    fw, fh = frame_size
    whole = bool(np.all(p[:, 0] >= -0.5) and np.all(p[:, 0] <= fw - 0.5) and np.all(p[:, 1] >= -0.5) and np.all(p[:, 1] <= fh - 0.5))
    if whole != d["whole"]:
        problem(where, "whole disagrees with the corners")
    # Printed order: top-left, top-right, bottom-right, bottom-left is clockwise on screen.
    cross = [np.cross(p[(i + 1) % 4] - p[i], p[(i + 2) % 4] - p[(i + 1) % 4]) for i in range(4)]
    if not all(x > 0 for x in cross):
        problem(where, "corners are not a convex clockwise quadrilateral")
    left, right = (p[0] + p[3]) / 2, (p[1] + p[2]) / 2
    seen = math.degrees(math.atan2(right[1] - left[1], right[0] - left[0]))
    if abs((seen - d["rotation_deg"] + 180) % 360 - 180) > 0.05:
        problem(where, "rotation_deg is not the angle of the corners")
    check_mrz(where, d["class"], d["side"], d["mrz"])
    return True


def expected_of(document, frame_size):
    if document is None:
        return "centerId"
    fw, fh = frame_size
    p = np.array(document["corners"], np.float64)
    if p[:, 0].min() < MARGIN * fw or p[:, 0].max() > fw - MARGIN * fw or p[:, 1].min() < MARGIN * fh or p[:, 1].max() > fh - MARGIN * fh:
        return "tooClose"
    x, y = p[:, 0], p[:, 1]
    if 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) < AREA * fw * fh:
        return "moveCloser"
    if math.hypot(x.mean() - fw / 2, y.mean() - fh / 2) > OFFSET * fw:
        return "centerId"
    if document["tilt_deg"] > TILT:
        return "tilt"
    r = abs(document["rotation_deg"]) % 180
    if min(r, 180 - r) > ROTATION:
        return "holdStraight"
    return "ready"


def agreement(luma, page_luma, page_mask, corners, blur):
    """Correlation of the frame with the page drawn at these corners (inside the frame),
    blurred in the frame as the generator blurred it."""
    fh, fw = luma.shape
    ph, pw = page_luma.shape
    src = np.array([[-0.5, -0.5], [pw - 0.5, -0.5], [pw - 0.5, ph - 0.5], [-0.5, ph - 0.5]], np.float32)
    c = np.asarray(corners, np.float64)
    x0, y0 = max(0, int(c[:, 0].min()) - 2), max(0, int(c[:, 1].min()) - 2)
    x1, y1 = min(fw, int(c[:, 0].max()) + 3), min(fh, int(c[:, 1].max()) + 3)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return -1.0
    hm = cv2.getPerspectiveTransform(src, (c - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(page_luma, hm, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    length, angle, sigma = blur
    if length >= 1:
        warped = cv2.filter2D(warped, -1, compose.motion_kernel(length, angle))
    warped = cv2.GaussianBlur(warped, (0, 0), max(0.7, sigma))
    mask = cv2.warpPerspective(page_mask, hm, (x1 - x0, y1 - y0), flags=cv2.INTER_NEAREST) > 0
    a = warped[mask]
    b = luma[y0:y1, x0:x1][mask]
    if a.size < 200:
        return -1.0
    a = a - a.mean()
    b = b - b.mean()
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))


def check_corners(where, img, record):
    """The page drawn again from its seed agrees best with the frame at the recorded
    corners; returns (correlation, best of the moved corners) or None."""
    d = record["document"]
    info = record.get("page")
    if not info:
        problem(where, "no page seed to draw the page again")
        return None
    rgb, alpha, mrz = pages.render(d["class"], d["side"], info["seed"], info["template"])
    if mrz != d["mrz"]:
        problem(where, "the page drawn again has another MRZ")
    c = np.array(d["corners"], np.float64)
    width = np.linalg.norm(c[1] - c[0])
    scale = width / rgb.shape[1]
    luma_page = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    if scale < 0.7:
        k = max(scale * 1.4, 0.05)
        size = (max(2, int(rgb.shape[1] * k)), max(2, int(rgb.shape[0] * k)))
        luma_page = cv2.resize(luma_page, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    blur = tuple(info.get("motion", (0, 0))) + (info.get("focus_sigma", 0),)
    mask = cv2.erode((alpha > 250).astype(np.uint8), np.ones((9, 9), np.uint8))
    luma = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    base = agreement(luma, luma_page, mask, c, blur)
    step = max(3.0, 0.012 * width)
    moved = []
    for dx, dy in ((step, 0), (-step, 0), (0, step), (0, -step)):
        moved.append(agreement(luma, luma_page, mask, c + [dx, dy], blur))
    centre = c.mean(0)
    for f in (1.03, 0.97):
        moved.append(agreement(luma, luma_page, mask, centre + (c - centre) * f, blur))
    return base, max(moved)


def check_scenes(out, quick):
    counts = {}
    agreements = []
    for split in SPLITS:
        d = os.path.join(out, "scenes", split)
        names = sorted(n[:-5] for n in os.listdir(d) if n.endswith(".json"))
        labels, kinds, sizes, extras = Counter(), Counter(), Counter(), Counter()
        for i, name in enumerate(names):
            where = "scenes/%s/%s" % (split, name)
            rec = json.load(open(os.path.join(d, name + ".json")))
            need = {"size", "background", "document", "negative", "expected"}
            if not need <= set(rec):
                problem(where, "lacks %s" % sorted(need - set(rec)))
                continue
            if not os.path.exists(os.path.join(d, name + ".jpg")):
                problem(where, "no image")
                continue
            size = tuple(rec["size"])
            sizes["%dx%d" % size] += 1
            img = cv2.imread(os.path.join(d, name + ".jpg"))
            if img is None or (img.shape[1], img.shape[0]) != size:
                problem(where, "image is not %dx%d" % size)
                continue
            if not os.path.exists(os.path.join(out, "backgrounds", "%s-%dx%d.png" % ((rec["background"],) + size))):
                problem(where, "unknown background")
            if rec["negative"] not in NEGATIVES or (rec["negative"] and rec["document"]):
                problem(where, "bad negative")
            if rec["expected"] not in EXPECTED:
                problem(where, "bad expected")
            doc = rec["document"]
            if doc is not None and check_document(where, doc, size):
                kinds["%s-%s" % (doc["class"], doc["side"])] += 1
                if not quick or i % 5 == 0:
                    r = check_corners(where, img, rec)
                    if r:
                        agreements.append(r)
                        base, moved = r
                        if base < 0.05 or base < moved - 0.02:
                            problem(where, "corners do not match the drawn page (agreement %.3f, moved %.3f)" % (base, moved))
            else:
                kinds[rec["negative"] or "empty"] += 1
            if rec["expected"] != expected_of(doc, size):
                problem(where, "expected is %s, the thresholds give %s" % (rec["expected"], expected_of(doc, size)))
            labels[rec["expected"]] += 1
            for k in ("hand", "low_light"):
                if rec.get(k):
                    extras[k] += 1
            if rec.get("note"):
                extras["two documents"] += 1
            if doc and doc["glare"]:
                extras["glare"] += 1
            if doc and doc.get("glare_mrz"):
                extras["glare over MRZ"] += 1
            if doc and doc["blur_px"] >= 3:
                extras["blur >= 3 px"] += 1
            if doc and abs(doc["rotation_deg"]) > 150:
                extras["upside down"] += 1
        counts[split] = (len(names), labels, kinds, sizes, extras)
    return counts, agreements


def check_crops(out):
    counts = {}
    for split in SPLITS:
        d = os.path.join(out, "crops", split)
        names = sorted(n[:-5] for n in os.listdir(d) if n.endswith(".json"))
        kinds = Counter()
        for name in names:
            where = "crops/%s/%s" % (split, name)
            rec = json.load(open(os.path.join(d, name + ".json")))
            if not {"class", "side", "mrz"} <= set(rec) or rec["class"] not in SIDES or rec["side"] not in SIDES[rec["class"]]:
                problem(where, "bad class/side/mrz")
                continue
            img = cv2.imread(os.path.join(d, name + ".pgm"), cv2.IMREAD_UNCHANGED)
            if img is None or img.ndim != 2 or img.dtype != np.uint8 or (img.shape[1], img.shape[0]) != CROP_SIZE[rec["class"]]:
                problem(where, "not an 8-bit %dx%d PGM" % CROP_SIZE[rec["class"]])
                continue
            with open(os.path.join(d, name + ".pgm"), "rb") as f:
                if f.read(2) != b"P5":
                    problem(where, "not a binary PGM (P5)")
            check_mrz(where, rec["class"], rec["side"], rec["mrz"])
            kinds["%s-%s" % (rec["class"], rec["side"])] += 1
        counts[split] = (len(names), kinds)
    return counts


def split_mjpeg(data):
    """JPEG images of a concatenated stream (start-of-image after end-of-image)."""
    images, start, i = [], None, 0
    while True:
        if start is None:
            i = data.find(b"\xff\xd8", i)
            if i < 0:
                return images
            start = i
            i += 2
        else:
            j = data.find(b"\xff\xd9", i)
            if j < 0:
                return images
            img = cv2.imdecode(np.frombuffer(data[start:j + 2], np.uint8), cv2.IMREAD_COLOR)
            if img is not None:
                images.append(img.shape[:2])
                start = None
            i = j + 2


def check_sequences(out):
    d = os.path.join(out, "sequences")
    rows = []
    for name in sorted(n[:-6] for n in os.listdir(d) if n.endswith(".mjpeg")):
        where = "sequences/" + name
        frames = split_mjpeg(open(os.path.join(d, name + ".mjpeg"), "rb").read())
        docs = json.load(open(os.path.join(d, name + ".json")))
        if not isinstance(docs, list) or len(docs) != len(frames):
            problem(where, "%d frames, %d JSON entries" % (len(frames), len(docs) if isinstance(docs, list) else -1))
            continue
        if any(shape != (720, 1280) for shape in frames):
            problem(where, "a frame is not 1280x720")
        seen = 0
        for k, doc in enumerate(docs):
            if doc is not None:
                seen += 1
                check_document("%s frame %d" % (where, k), doc, (1280, 720))
        rows.append((name, len(frames), len(frames) / 15.0, seen))
        # A card shown front then back (the ID card demo) is two recordings of 3-6 s in one.
        sides = 2 if name == "demo-idcard" else 1
        if not 3.0 * sides <= len(frames) / 15.0 <= 6.0 * sides:
            problem(where, "not %d-%d s at 15 fps" % (3 * sides, 6 * sides))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "vision-data"))
    parser.add_argument("--quick", action="store_true", help="redraw the pages of one scene in five only")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    out = os.path.abspath(args.out)
    for split in SPLITS:
        for sub in ("scenes", "crops"):
            if not os.path.isdir(os.path.join(out, sub, split)):
                print("check: %s/%s/%s is missing (run scripts/vision-data/generate.py)" % (out, sub, split))
                return 1
    bgs = [n for n in os.listdir(os.path.join(out, "backgrounds"))]
    for n in bgs:
        img = cv2.imread(os.path.join(out, "backgrounds", n))
        want = (720, 1280) if "1280x720" in n else (1080, 1920)
        if img is None or img.shape[:2] != want:
            problem("backgrounds/" + n, "not %dx%d" % want[::-1])
    scenes, agreements = check_scenes(out, args.quick)
    crops = check_crops(out)
    sequences = check_sequences(out)
    print("backgrounds: %d files (%s)" % (len(bgs), ", ".join(sorted({n.split("-1")[0] for n in bgs}))))
    for split in SPLITS:
        n, labels, kinds, sizes, extras = scenes[split]
        print("scenes %-8s %4d  %s" % (split, n, dict(sorted(sizes.items()))))
        print("   expected: %s" % dict(sorted(labels.items())))
        print("   content:  %s" % dict(sorted(kinds.items())))
        print("   also:     %s" % dict(sorted(extras.items())))
    for split in SPLITS:
        n, kinds = crops[split]
        print("crops  %-8s %4d  %s" % (split, n, dict(sorted(kinds.items()))))
    for name, frames, seconds, seen in sequences:
        print("sequence %-20s %3d frames (%.1f s), document in %d" % (name, frames, seconds, seen))
    if agreements:
        a = np.array(agreements)
        print("corners: page drawn again at %d scenes; agreement at the recorded corners median %.3f (min %.3f), "
              "best moved corners median %.3f; recorded corners best in %d of %d"
              % (len(a), np.median(a[:, 0]), a[:, 0].min(), np.median(a[:, 1]), int((a[:, 0] >= a[:, 1]).sum()), len(a)))
    return datagen.verdict(problems)


if __name__ == "__main__":
    sys.exit(main())
