#!/usr/bin/python3
"""Checks the field scenes (docs/vision-data.md, "Field scenes").

Usage: scripts/vision-data/field/check.py [--out DIR] [--no-determinism]

Every still has its frame, its platen picture and its JSON; image sizes; the JSON's exact
fields, types and values; every MRZ's check digits (and the decoy visa's); the labels
recomputed here from the recorded geometry with the rules written again (guidance from
the corners, tilt, rotation and motion; mrz_readable from the MRZ's nominal ICAO place
mapped through the corners and the station's lens); counts per class, layout, surface and
label; the set's size; and that a sample of stills is made again byte for byte.
Prints counts only (no MRZ text); exits 1 on any problem.
"""
import sys

sys.dont_write_bytecode = True

import argparse
import hashlib
import json
import math
import os
import shutil
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PARENT = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PARENT))
sys.path.insert(0, os.path.dirname(PARENT))  # scripts/: datagen
sys.path.insert(0, PARENT)
import datagen

import cv2
import numpy as np
from PIL import Image

import mrzgen

SPLITS = {"train": 360, "heldout": 240, "sealed": 240}
FIELDS = {"width", "height", "class", "layout", "side", "corners", "mrz", "mrz_readable", "guidance", "tilt_deg",
          "rotation_deg", "motion_blur_mm", "defocus_mm", "glare", "glare_over_mrz", "hand", "surface", "surface_variant",
          "platen_changed", "case", "decoy_mrz", "px_per_mm", "station"}
LAYOUTS = {"TD1": {"card"}, "TD2": {"card"}, "TD3": {"loose", "booklet"}}
SIDES = {"TD1": {"front", "back"}, "TD2": {"data"}, "TD3": {"data"}}
SHAPE = {"TD1": (3, 30), "TD2": (2, 36), "TD3": (2, 44)}
SIZE_MM = {"TD1": (85.6, 53.98), "TD2": (105.0, 74.0), "TD3": (125.0, 88.0)}
# ICAO Doc 9303 nominal MRZ: line centres (mm above the bottom edge), first character's left edge.
LINES_MM = {"TD1": (13.12, 8.89, 4.66), "TD2": (15.75, 9.40), "TD3": (15.75, 9.40)}
LEFT_MM = {"TD1": 5.0, "TD2": 4.0, "TD3": 6.0}
GUIDANCE = ("centerId", "tooClose", "moveCloser", "tilt", "holdStraight", "holdStill", "ready")
CASES = ("normal", "visa_decoy", "two_documents", "text_page", "partial_mrz", "empty", "non_document")
KINDS = ("plain", "wood", "stone", "fabric", "printed", "photo")
MAX_BYTES = 300 * 1024 * 1024

problems = []


def problem(where, what):
    problems.append("%s: %s" % (where, what))


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def cd(field):
    """ICAO 7-3-1 check digit, written again here."""
    total = 0
    for i, c in enumerate(field):
        v = int(c) if c.isdigit() else (ord(c) - 55 if c.isalpha() else 0)
        total += v * (7, 3, 1)[i % 3]
    return str(total % 10)


def visa_failures(lines):
    """MRV-A (2 x 44, Doc 9303 Part 7): number, birth, expiry digits; no composite."""
    if [len(l) for l in lines] != [44, 44] or lines[0][0] != "V":
        return ["layout"]
    l2 = lines[1]
    return [n for n, f, d in (("number", l2[0:9], l2[9]), ("birth", l2[13:19], l2[19]), ("expiry", l2[21:27], l2[27])) if cd(f) != d]


def expected_guidance(r):
    """The guidance rule, in its order."""
    if r["corners"] is None:
        return "centerId"
    fw, fh = r["width"], r["height"]
    c = np.array(r["corners"], np.float64)
    if (c[:, 0] < 0.01 * fw).any() or (c[:, 0] > 0.99 * fw).any() or (c[:, 1] < 0.01 * fh).any() or (c[:, 1] > 0.99 * fh).any():
        return "tooClose"
    x, y = c[:, 0], c[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    if area < 0.12 * fw * fh:
        return "moveCloser"
    if math.hypot(x.mean() - fw / 2, y.mean() - fh / 2) > 0.18 * fw:
        return "centerId"
    if r["tilt_deg"] > 15:
        return "tilt"
    a = abs(r["rotation_deg"]) % 180
    if min(a, 180 - a) > 12:
        return "holdStraight"
    if r["motion_blur_mm"] > 0.5:
        return "holdStill"
    return "ready"


class Lens:
    """The station's pinhole and radial distortion (x_d = x_u (1 + k1 r_u^2))."""

    def __init__(self, station, size):
        import scene_table
        hfov, _, self.k1, _ = scene_table.STATIONS[station]
        self.f = size[0] / 2 / math.tan(math.radians(hfov / 2))
        self.c = np.array([(size[0] - 1) / 2, (size[1] - 1) / 2])

    def undistort(self, p):
        d = (np.asarray(p, np.float64) - self.c) / self.f
        u = d.copy()
        for _ in range(20):
            u = d / (1 + self.k1 * (u ** 2).sum(1, keepdims=True))
        return u * self.f + self.c

    def distort(self, p):
        u = (np.asarray(p, np.float64) - self.c) / self.f
        return u * (1 + self.k1 * (u ** 2).sum(1, keepdims=True)) * self.f + self.c


def cells_in_frame(r):
    """Whether the MRZ's nominal character cells lie inside the frame (their least distance
    inside, px; the generator keeps the true cells 2.5 mm from the edge either way)."""
    cls = r["class"]
    w, h = SIZE_MM[cls]
    lens = Lens(r["station"], (r["width"], r["height"]))
    cu = lens.undistort(r["corners"])
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), cu.astype(np.float32))
    pts = []
    for k, c in enumerate(LINES_MM[cls]):
        yc = h - c
        for i in range(len(r["mrz"][k])):
            x0 = LEFT_MM[cls] + 2.54 * i
            pts += [[x0, yc - 1.45], [x0 + 2.54, yc - 1.45], [x0 + 2.54, yc + 1.45], [x0, yc + 1.45]]
    p = lens.distort(cv2.perspectiveTransform(np.float32([pts]), H)[0])
    fw, fh = r["width"], r["height"]
    return float(min((p[:, 0] + 0.5).min(), (fw - 0.5 - p[:, 0]).min(), (p[:, 1] + 0.5).min(), (fh - 0.5 - p[:, 1]).min()))


def check_record(where, r, jpg_size):
    if set(r) != FIELDS:
        problem(where, "fields differ: extra %s, missing %s" % (sorted(set(r) - FIELDS), sorted(FIELDS - set(r))))
        return
    if (r["width"], r["height"]) not in ((1280, 720), (1920, 1080)) or jpg_size != (r["width"], r["height"]):
        problem(where, "size")
    if r["case"] not in CASES or r["surface"] not in KINDS or r["guidance"] not in GUIDANCE:
        problem(where, "case/surface/guidance value")
    for k in ("mrz_readable", "glare", "glare_over_mrz", "hand", "platen_changed"):
        if not isinstance(r[k], bool):
            problem(where, k + " not a bool")
    if not (num(r["motion_blur_mm"]) and 0 <= r["motion_blur_mm"] <= 3.0 and num(r["defocus_mm"]) and r["defocus_mm"] >= 0):
        problem(where, "blur values")
    if not isinstance(r["station"], str) or not isinstance(r["surface_variant"], str):
        problem(where, "station/surface_variant")
    has_doc = r["case"] in ("normal", "visa_decoy", "two_documents", "partial_mrz")
    if not has_doc:
        if any(r[k] is not None for k in ("class", "layout", "side", "corners", "mrz", "decoy_mrz", "px_per_mm")) or r["mrz_readable"]:
            problem(where, "a still without a document has document fields")
    else:
        cls = r["class"]
        if cls not in LAYOUTS or r["layout"] not in LAYOUTS[cls] or r["side"] not in SIDES[cls]:
            problem(where, "class/layout/side")
            return
        c = r["corners"]
        if not (isinstance(c, list) and len(c) == 4 and all(isinstance(p, list) and len(p) == 2 and all(num(v) for v in p) for p in c)):
            problem(where, "corners")
            return
        for k in ("tilt_deg", "rotation_deg", "px_per_mm"):
            if not num(r[k]):
                problem(where, k)
                return
        if not (-180 < r["rotation_deg"] <= 180):
            problem(where, "rotation_deg range")
        cc = np.array(c, np.float64)
        d = (cc[1] + cc[2]) / 2 - (cc[0] + cc[3]) / 2
        rot = math.degrees(math.atan2(d[1], d[0]))
        if abs((rot - r["rotation_deg"] + 180) % 360 - 180) > 0.05:
            problem(where, "rotation_deg does not follow from the corners")
        # the corners are in reading order: clockwise on screen (positive area in image coords)
        x, y = cc[:, 0], cc[:, 1]
        if np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) <= 0:
            problem(where, "corners not clockwise")
        if not (1.5 <= r["px_per_mm"] * 1280 / r["width"] <= 9.5):
            problem(where, "px_per_mm out of range")
        has_mrz = not (cls == "TD1" and r["side"] == "front")
        if has_mrz:
            lines, width = SHAPE[cls]
            m = r["mrz"]
            if not (isinstance(m, list) and len(m) == lines and all(isinstance(l, str) and len(l) == width for l in m)):
                problem(where, "mrz shape")
                return
            if mrzgen.verify(m):
                problem(where, "MRZ check digits: %s" % ",".join(mrzgen.verify(m)))
            if m[0][0] not in ("P" if cls == "TD3" else "IAC"):
                problem(where, "document code")
        elif r["mrz"] is not None:
            problem(where, "a card front has no MRZ")
        if (r["decoy_mrz"] is not None) != (r["case"] == "visa_decoy"):
            problem(where, "decoy_mrz only in visa_decoy")
        if r["decoy_mrz"] is not None:
            f = visa_failures(r["decoy_mrz"])
            if f:
                problem(where, "visa MRZ: %s" % ",".join(f))
        if r["case"] == "visa_decoy" and r["layout"] != "booklet":
            problem(where, "a visa lies in a booklet")
        readable = False
        if has_mrz:
            margin = cells_in_frame(r)
            readable = (margin > 0 and r["motion_blur_mm"] <= 1.0 and r["defocus_mm"] <= 0.3 and not r["glare_over_mrz"]
                        and r["case"] != "partial_mrz")
        if readable != r["mrz_readable"]:
            problem(where, "mrz_readable %s, the rule gives %s" % (r["mrz_readable"], readable))
        if r["glare_over_mrz"] and not r["glare"]:
            problem(where, "glare over the MRZ without glare")
    if expected_guidance(r) != r["guidance"]:
        problem(where, "guidance %s, the rule gives %s" % (r["guidance"], expected_guidance(r)))


def file_md5(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "vision-data", "field"))
    parser.add_argument("--no-determinism", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    # The stations' lens table (data, not code) from the generator's scene module.
    import importlib.util
    spec = importlib.util.spec_from_file_location("scene_table", os.path.join(HERE, "scene.py"))
    sys.modules["scene_table"] = mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    total = 0
    for split, want in SPLITS.items():
        d = os.path.join(args.out, split)
        if not os.path.isdir(d):
            problem(split, "missing")
            continue
        names = sorted(x[:-5] for x in os.listdir(d) if x.endswith(".json"))
        if len(names) != want:
            problem(split, "%d stills, want %d" % (len(names), want))
        counts = {k: Counter() for k in ("class", "layout", "surface", "guidance", "case", "station")}
        per_group = Counter()
        big = readable = changed = 0
        normal = Counter()
        for name in names:
            where = "%s/%s" % (split, name)
            r = json.load(open(os.path.join(d, name + ".json")))
            for suffix in (".jpg", "-platen.jpg"):
                p = os.path.join(d, name + suffix)
                if not os.path.exists(p) or os.path.getsize(p) < 4000:
                    problem(where, suffix + " missing or too small")
                    continue
                total += os.path.getsize(p)
            try:
                with Image.open(os.path.join(d, name + ".jpg")) as im:
                    size = im.size
                with Image.open(os.path.join(d, name + "-platen.jpg")) as im:
                    if im.size != size:
                        problem(where, "platen size")
            except OSError:
                continue
            check_record(where, r, size)
            for k in counts:
                counts[k][str(r.get(k))] += 1
            per_group[(str(r.get("class")), str(r.get("layout")), r.get("surface"))] += 1
            big += r.get("width") == 1920
            readable += bool(r.get("mrz_readable"))
            changed += bool(r.get("platen_changed"))
            if r.get("case") == "normal":
                normal[r.get("guidance")] += 1
        print("%-8s %d stills (%d at 1920x1080), mrz_readable %d, platen_changed %d, ready %d of %d normal" %
              (split, len(names), big, readable, changed, normal["ready"], sum(normal.values())))
        for k, c in counts.items():
            print("  %-9s %s" % (k, json.dumps(dict(sorted(c.items())))))
        for cls, layout in (("TD1", "card"), ("TD2", "card"), ("TD3", "loose"), ("TD3", "booklet")):
            missing = [k for k in KINDS if per_group[(cls, layout, k)] == 0]
            if missing:
                problem(split, "%s %s on no %s surface" % (cls, layout, ",".join(missing)))
    print("size %.1f MB" % (total / 1e6))
    if total > MAX_BYTES:
        problem("set", "larger than 300 MB")
    if not args.no_determinism:
        spec = importlib.util.spec_from_file_location("field_generate", os.path.join(HERE, "generate.py"))
        gen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gen)
        tmp = tempfile.mkdtemp(prefix="field-check-")
        try:
            same = 0
            for split, n, size in (("train", 3, (1280, 720)), ("heldout", 100, (1280, 720)), ("sealed", 230, (1920, 1080))):
                gen.make_still(split, n, size, tmp)
                for suffix in (".jpg", "-platen.jpg", ".json"):
                    a = os.path.join(tmp, "%04d%s" % (n, suffix))
                    b = os.path.join(args.out, split, "%04d%s" % (n, suffix))
                    if not os.path.exists(b) or file_md5(a) != file_md5(b):
                        problem("%s/%04d%s" % (split, n, suffix), "not made again byte for byte")
                    else:
                        same += 1
            print("determinism: %d of 9 files made again identical" % same)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(datagen.verdict(problems))


if __name__ == "__main__":
    main()
