#!/usr/bin/python3
"""Checks the field scenes and their recordings (docs/vision-data.md, "Field scenes",
"Field recordings").

Usage: scripts/vision-data/field/check.py [--out DIR] [--no-determinism] [--recordings-only]

Every still has its frame, its platen picture and its JSON; image sizes; the JSON's exact
fields, types and values; every MRZ's check digits (and the decoy visa's); the labels
recomputed here from the recorded geometry with the rules written again (guidance from
the corners, tilt, rotation and motion; mrz_readable from the MRZ's nominal ICAO place
mapped through the corners and the station's lens); counts per class, layout, surface and
label; the set's size; and that a sample of stills is made again byte for byte.
Recordings: frames (JPEGs) as many as JSON entries, sizes, the platen picture; each frame's
entry checked as a still (fields, check digits, guidance; mrz_readable where decided) plus
its frame, time, station and field of view; one run of frames with a document after 0.5 s
of empty platen; `still` from its rule, one run, the page whole, labels unchanged and the
corners moving no more than the rule allows; the motion blur against the corners' motion
between frames; index.json against the frames; the demo's booklet held ready 6 s and more;
the first 30 frames of a recording made again byte for byte.
Prints counts only (no MRZ text); exits 1 on any problem.
"""
import sys

sys.dont_write_bytecode = True

import argparse
import hashlib
import importlib.util
import io
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


def check_record(where, r, jpg_size, max_motion=3.0, readable_rule=True):
    """A still's (or a recording's frame's) fields and labels; readable_rule False: the
    mrz_readable rule is not applied (a frame whose MRZ is within 2.5 mm of the frame's
    edge, where the nominal ICAO cells and the printed ones may fall either side)."""
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
    if not (num(r["motion_blur_mm"]) and 0 <= r["motion_blur_mm"] <= max_motion and num(r["defocus_mm"]) and r["defocus_mm"] >= 0):
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
        if readable_rule and readable != r["mrz_readable"]:
            problem(where, "mrz_readable %s, the rule gives %s" % (r["mrz_readable"], readable))
        if r["glare_over_mrz"] and not r["glare"]:
            problem(where, "glare over the MRZ without glare")
    if expected_guidance(r) != r["guidance"]:
        problem(where, "guidance %s, the rule gives %s" % (r["guidance"], expected_guidance(r)))


# ---------------------------------------------------------------- recordings

REC_FIELDS = FIELDS | {"frame", "time_s", "still", "rest_offset_mm", "hfov_deg", "decisive"}
REC_GROUPS = {"heldout": 12, "train": 5, "demo": 1}
REC_KINDS = {"booklet": ("TD3", "booklet", "data"), "td3-loose": ("TD3", "loose", "data"), "td2": ("TD2", "card", "data"),
             "td1-back": ("TD1", "card", "back")}
INDEX_FIELDS = {"name", "group", "kind", "class", "layout", "side", "station", "hfov_deg", "width", "height", "frames", "fps",
                "duration_s", "surface", "surface_variant", "style", "upside_down", "glare_spot", "low_light", "withdrawn",
                "first_seen_s", "first_still_s", "still_frames", "rest_guidance", "rest_mrz_readable"}
FPS, EXPOSURE_S, STILL_MM = 15, 1 / 40, 0.3
MAX_REC_BYTES = 400 * 1024 * 1024


def mjpeg_frames(data):
    """The JPEG frames of a concatenated MJPEG (each starts with SOI FF D8 FF and ends with
    EOI FF D9; the entropy-coded data never holds FF D8)."""
    starts = []
    i = data.find(b"\xff\xd8\xff")
    while i >= 0:
        starts.append(i)
        i = data.find(b"\xff\xd8\xff", i + 3)
    starts.append(len(data))
    frames = [data[a:b] for a, b in zip(starts, starts[1:])]
    return frames if data.startswith(b"\xff\xd8\xff") and all(f.endswith(b"\xff\xd9") for f in frames) else None


def check_recording(d, item, tables, stats):
    name = item["name"]
    where = "sequences/" + name
    path = os.path.join(d, name)
    try:
        frames = mjpeg_frames(open(path + ".mjpeg", "rb").read())
        entries = json.load(open(path + ".json"))
    except (OSError, ValueError):
        problem(where, "files missing or unreadable")
        return
    if frames is None:
        problem(where, "not a sequence of JPEG frames")
        return
    stats["bytes"] += sum(len(f) for f in frames) + os.path.getsize(path + ".json")
    size = (item["width"], item["height"])
    if not isinstance(entries, list) or len(frames) != len(entries) or item["frames"] != len(entries):
        problem(where, "%d frames, %s JSON entries, index says %s" % (len(frames), len(entries) if isinstance(entries, list) else "no",
                                                                     item["frames"]))
        return
    for k in sorted({0, len(frames) - 1} | set(range(0, len(frames), 10))):
        with Image.open(io.BytesIO(frames[k])) as im:
            if im.size != size:
                problem(where, "frame %d is %s" % (k, im.size))
    try:
        with Image.open(path + "-platen.jpg") as im:
            if im.size != size:
                problem(where, "platen size")
    except OSError:
        problem(where, "no platen picture")
    if item["station"] not in tables or tables[item["station"]][0] != item["hfov_deg"]:
        problem(where, "station or its field of view")
    # Present: one run of frames with a document, after at least 0.5 s of the empty platen,
    # to the end unless it is taken away.
    seen = [k for k, e in enumerate(entries) if e is not None]
    if not seen or seen != list(range(seen[0], seen[-1] + 1)):
        problem(where, "the frames with a document are not one run")
        return
    if seen[0] < 0.5 * FPS:
        problem(where, "the platen is empty for less than 0.5 s")
    if item["withdrawn"] != (seen[-1] < len(entries) - 1):
        problem(where, "withdrawn")
    kind = REC_KINDS.get(item["kind"])
    same = None
    for k in seen:
        e = entries[k]
        w = "%s[%d]" % (where, k)
        if not isinstance(e, dict) or set(e) != REC_FIELDS:
            problem(w, "fields differ: %s" % (sorted(set(e) ^ REC_FIELDS) if isinstance(e, dict) else type(e).__name__))
            return
        if e["frame"] != k or not num(e["time_s"]) or abs(e["time_s"] - k / FPS) > 1e-3:
            problem(w, "frame or time_s")
        if e["hfov_deg"] != item["hfov_deg"] or e["station"] != item["station"]:
            problem(w, "station or hfov_deg")
        if (e["class"], e["layout"], e["side"]) != kind:
            problem(w, "class/layout/side are not the index's kind")
        if not all(isinstance(e[f], bool) for f in ("still", "decisive")) or not num(e["rest_offset_mm"]):
            problem(w, "still, decisive or rest_offset_mm")
            return
        key = json.dumps([e[f] for f in ("mrz", "surface", "surface_variant", "width", "height")])
        if same is None:
            same = key
        elif key != same:
            problem(w, "the MRZ, surface or size changes within the recording")
        check_record(w, {f: e[f] for f in FIELDS}, size, max_motion=40.0, readable_rule=e["decisive"])
        if e["still"] != (e["rest_offset_mm"] <= STILL_MM and e["motion_blur_mm"] < STILL_MM):
            problem(w, "still does not follow from rest_offset_mm and motion_blur_mm")
        stats["frames"] += 1
        stats["decisive"] += e["decisive"]
    # Still: one run, the page whole and its labels decided and unchanged; between still frames
    # the corners move no more than two positions within 0.3 mm of one rest allow (and the
    # tremor's turn); index.
    still = [k for k in seen if entries[k]["still"]]
    if not still or still != list(range(still[0], still[-1] + 1)):
        problem(where, "the still frames are not one run")
        return
    first = entries[still[0]]
    for k in still:
        e = entries[k]
        c = np.array(e["corners"])
        if not (e["decisive"] and (c[:, 0] >= 0).all() and (c[:, 0] <= e["width"] - 1).all() and (c[:, 1] >= 0).all()
                and (c[:, 1] <= e["height"] - 1).all()):
            problem("%s[%d]" % (where, k), "a still frame whose page is not whole or whose labels are not decided")
        if (e["guidance"], e["mrz_readable"]) != (first["guidance"], first["mrz_readable"]):
            problem("%s[%d]" % (where, k), "the labels change while still")
        if k > still[0]:
            moved = np.linalg.norm(c - np.array(entries[k - 1]["corners"]), axis=1).max()
            if moved > 0.7 * e["px_per_mm"] + 0.05:
                problem("%s[%d]" % (where, k), "a still page moved %.2f px in a frame" % moved)
    # Motion blur: within the exposure's share of the corners' motion from the frame before
    # and to the frame after (the motion speeds up or slows down between them).
    for k in seen[1:-1]:
        e = entries[k]
        c = [np.array(entries[j]["corners"]) for j in (k - 1, k, k + 1)]
        steps = [np.linalg.norm(c[1] - c[0], axis=1).max(), np.linalg.norm(c[2] - c[1], axis=1).max()]
        lo, hi = (v * FPS * EXPOSURE_S / e["px_per_mm"] for v in (min(steps), max(steps)))
        m = e["motion_blur_mm"]
        excess = max(0.75 * lo - m, m - 1.25 * hi)
        stats["blur_err"] = max(stats["blur_err"], excess)
        if excess > 0.15:
            problem("%s[%d]" % (where, k), "motion_blur_mm %.2f, the corners' motion gives %.2f-%.2f" % (m, lo, hi))
    want = {"first_seen_s": round(seen[0] / FPS, 4), "first_still_s": round(still[0] / FPS, 4), "still_frames": len(still),
            "rest_guidance": first["guidance"], "rest_mrz_readable": first["mrz_readable"], "class": kind[0], "layout": kind[1],
            "side": kind[2], "surface": first["surface"], "surface_variant": first["surface_variant"], "fps": FPS,
            "duration_s": round(len(entries) / FPS, 3)}
    for f, v in want.items():
        if item[f] != v:
            problem(where, "index %s is %s, the frames give %s" % (f, item[f], v))
    if item["upside_down"] != (abs(first["rotation_deg"]) > 90):
        problem(where, "index upside_down")
    if item["group"] == "demo":
        # The demo's passport: a booklet under a 45-degree camera, held 6 s and more, ready to
        # read all along (the MRZ crisp, no glare over it), to the end.
        if (item["kind"], item["hfov_deg"], size) != ("booklet", 45.0, (1280, 720)) or len(still) < 6 * FPS or item["withdrawn"]:
            problem(where, "the demo's booklet is not a booklet at 45 degrees held 6 s to the end")
        if still[-1] != len(entries) - 1 or any(entries[k]["guidance"] != "ready" or not entries[k]["mrz_readable"]
                                                or entries[k]["glare_over_mrz"] for k in still):
            problem(where, "the demo's booklet is not ready to read while still")
        if sum(entries[k]["motion_blur_mm"] <= 0.05 for k in still) < 6 * FPS:
            problem(where, "the demo's booklet is crisp (motion under 0.05 mm) for less than 6 s")
    stats["recordings"][item["group"]] += 1
    stats["kinds"][item["kind"]] += 1
    stats["first_still"].append(item["first_still_s"] - item["first_seen_s"])


def check_recordings(out, tables, determinism):
    d = os.path.join(out, "sequences")
    try:
        index = json.load(open(os.path.join(d, "index.json")))
    except (OSError, ValueError):
        problem("sequences", "no index.json")
        return
    if (index.get("fps"), index.get("exposure_s"), index.get("still_mm")) != (FPS, EXPOSURE_S, STILL_MM):
        problem("sequences/index.json", "fps, exposure_s or still_mm")
    items = index.get("recordings", [])
    names = [r.get("name") for r in items]
    on_disk = sorted(n[:-6] for n in os.listdir(d) if n.endswith(".mjpeg"))
    if sorted(names) != on_disk or len(set(names)) != len(names):
        problem("sequences/index.json", "lists %s, the folder holds %s" % (sorted(names), on_disk))
    stats = {"bytes": 0, "frames": 0, "decisive": 0, "blur_err": 0.0, "recordings": Counter(), "kinds": Counter(), "first_still": []}
    for item in items:
        if set(item) != INDEX_FIELDS:
            problem("sequences/index.json", "%s: fields differ: %s" % (item.get("name"), sorted(set(item) ^ INDEX_FIELDS)))
            continue
        check_recording(d, item, tables, stats)
    if dict(stats["recordings"]) != REC_GROUPS:
        problem("sequences", "recordings per group %s, want %s" % (dict(stats["recordings"]), REC_GROUPS))
    heldout = [r for r in items if r.get("group") == "heldout"]
    kinds = Counter(r.get("kind") for r in heldout)
    if kinds["booklet"] * 2 <= len(heldout) or set(kinds) != set(REC_KINDS) or not any(r.get("upside_down") for r in heldout):
        problem("sequences", "heldout's kinds: most booklets, one upside down, every kind: %s" % dict(kinds))
    if stats["bytes"] > MAX_REC_BYTES:
        problem("sequences", "larger than 400 MB")
    fs = sorted(stats["first_still"])
    print("recordings %s (%s), %d frames with a document (%d decided), %.1f MB; still %.2f-%.2f s after first seen; "
          "motion blur against the corners' motion: worst excess %.2f mm" %
          (json.dumps(dict(sorted(stats["recordings"].items()))), json.dumps(dict(sorted(stats["kinds"].items()))), stats["frames"],
           stats["decisive"], stats["bytes"] / 1e6, fs[0] if fs else 0, fs[-1] if fs else 0, stats["blur_err"]))
    if determinism and "train-01-booklet" in names:
        # The first 30 frames of a recording made again: the same bytes and truth.
        spec = importlib.util.spec_from_file_location("field_recordings", os.path.join(HERE, "recordings.py"))
        rec = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(rec)
        tmp = tempfile.mkdtemp(prefix="field-check-")
        try:
            name, group, i, plan = next(p for p in rec.all_plans() if p[0] == "train-01-booklet")
            rec.write_recording(rec.Recording(name, group, i, plan), tmp, limit=30)
            a = mjpeg_frames(open(os.path.join(tmp, name + ".mjpeg"), "rb").read())
            b = mjpeg_frames(open(os.path.join(d, name + ".mjpeg"), "rb").read())
            ja, jb = json.load(open(os.path.join(tmp, name + ".json"))), json.load(open(os.path.join(d, name + ".json")))
            same = a == b[:30] and ja == jb[:30] and file_md5(os.path.join(tmp, name + "-platen.jpg")) == file_md5(os.path.join(d, name + "-platen.jpg"))
            if not same:
                problem("sequences/" + name, "not made again byte for byte")
            print("determinism: the first 30 frames of %s made again %s" % (name, "identical" if same else "DIFFERENT"))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def file_md5(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".cache", "vision-data", "field"))
    parser.add_argument("--no-determinism", action="store_true")
    parser.add_argument("--recordings-only", action="store_true", help="only the recordings (sequences/)")
    parser.add_argument("--splits", default=",".join(SPLITS), help="the splits to check, comma-separated")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    # The stations' lens table (data, not code) from the generator's scene module.
    spec = importlib.util.spec_from_file_location("scene_table", os.path.join(HERE, "scene.py"))
    sys.modules["scene_table"] = mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    check_recordings(args.out, mod.STATIONS, not args.no_determinism)
    if args.recordings_only:
        sys.exit(datagen.verdict(problems))
    total = 0
    splits = [split for split in SPLITS if split in args.splits.split(",")]
    for split, want in ((split, SPLITS[split]) for split in splits):
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
            probes = [p for p in (("train", 3, (1280, 720)), ("heldout", 100, (1280, 720)), ("sealed", 230, (1920, 1080))) if p[0] in splits]
            for split, n, size in probes:
                gen.make_still(split, n, size, tmp)
                for suffix in (".jpg", "-platen.jpg", ".json"):
                    a = os.path.join(tmp, "%04d%s" % (n, suffix))
                    b = os.path.join(args.out, split, "%04d%s" % (n, suffix))
                    if not os.path.exists(b) or file_md5(a) != file_md5(b):
                        problem("%s/%04d%s" % (split, n, suffix), "not made again byte for byte")
                    else:
                        same += 1
            print("determinism: %d of %d files made again identical" % (same, 3 * len(probes)))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(datagen.verdict(problems))


if __name__ == "__main__":
    main()
