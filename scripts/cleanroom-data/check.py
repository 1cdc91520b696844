#!/usr/bin/python3
"""Validates the clean-room data set written by generate.py.

Usage: /usr/bin/python3 scripts/cleanroom-data/check.py [--out DIR]

Checks that every file exists and decodes at its stated size, that every MRZ's check digits hold
and its format fits the class, that the guidance label follows from the recorded geometry by the
rules of docs/cleanroom-data.md (re-implemented here), that the readability flag agrees with the
recorded blur/glare, and that the counts per class, layout, surface and label are as promised.
Prints counts only (no MRZ text). Exits non-zero on any problem.
"""

import argparse
import collections
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep the work tree clean

import mrz  # noqa: E402

FIELDS = ["width", "height", "class", "layout", "side", "corners", "mrz", "mrz_readable", "guidance", "tilt_deg",
          "rotation_deg", "motion_blur_mm", "defocus", "glare", "glare_over_mrz", "hand", "surface", "platen",
          "platen_changed", "design", "upside_down", "case"]
LABELS = {"ready", "tooClose", "moveCloser", "centerId", "tilt", "holdStraight", "holdStill"}
SURFACES = {"plain", "wood", "stone", "fabric", "printed", "photo"}
CASES = {"normal", "visa_decoy", "two_documents", "text_page", "partial_mrz", "empty", "non_document"}
FORMAT = {"TD1": (3, 30), "TD2": (2, 36), "TD3": (2, 44)}


class Report:
    def __init__(self):
        self.failed = []
        self.passed = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed.append(what)


def area(c):
    s = 0.0
    for i in range(4):
        x0, y0 = c[i]
        x1, y1 = c[(i + 1) % 4]
        s += x0 * y1 - x1 * y0
    return abs(s) / 2


def expected_guidance(g):
    if g["class"] is None or g["corners"] is None:
        return "centerId"
    W, H = g["width"], g["height"]
    c = g["corners"]
    if any(x < 0.01 * W or x > W - 0.01 * W or y < 0.01 * H or y > H - 0.01 * H for x, y in c):
        return "tooClose"
    if area(c) / (W * H) < 0.12:
        return "moveCloser"
    mx = sum(p[0] for p in c) / 4
    my = sum(p[1] for p in c) / 4
    if math.hypot(mx - W / 2, my - H / 2) > 0.18 * W:
        return "centerId"
    if g["tilt_deg"] > 15:
        return "tilt"
    r = abs(g["rotation_deg"])
    if min(r, 180 - r) > 12:
        return "holdStraight"
    if g["motion_blur_mm"] > 0.5:
        return "holdStill"
    return "ready"


def check_frame(rep, g, name, in_recording=False):
    for f in FIELDS:
        rep.check(f in g, "%s: field %s missing" % (name, f))
    rep.check(g["guidance"] in LABELS, "%s: unknown label" % name)
    rep.check(g["surface"] in SURFACES, "%s: unknown surface" % name)
    rep.check(g["case"] in CASES, "%s: unknown case" % name)
    rep.check(g["guidance"] == expected_guidance(g), "%s: label %s, rules give %s" % (name, g["guidance"],
                                                                                     expected_guidance(g)))
    if g["class"] is None:
        rep.check(g["corners"] is None and g["mrz"] is None and not g["mrz_readable"] and g["layout"] is None,
                  "%s: no document but geometry or MRZ given" % name)
        return
    rep.check(g["layout"] in ("card", "loose", "booklet"), "%s: layout" % name)
    rep.check((g["class"] == "TD3") == (g["layout"] in ("loose", "booklet")), "%s: class/layout" % name)
    rep.check(len(g["corners"]) == 4, "%s: corners" % name)
    if g["mrz"] is None:
        rep.check(g["class"] == "TD1" and g["side"] == "front", "%s: MRZ missing" % name)
        rep.check(not g["mrz_readable"], "%s: readable without an MRZ" % name)
    else:
        n, w = FORMAT[g["class"]]
        rep.check(len(g["mrz"]) == n and all(len(l) == w for l in g["mrz"]), "%s: MRZ format" % name)
        rep.check(not mrz.validate(g["mrz"]), "%s: MRZ check digits %s" % (name, mrz.validate(g["mrz"])))
        first = g["mrz"][0][0]
        rep.check(first == "P" if g["class"] == "TD3" else first in "ACI", "%s: document code" % name)
    if g["mrz_readable"]:
        rep.check(g["motion_blur_mm"] <= 0.4 * 2.54 + 1e-9 and g["defocus"] <= 0.3 and not g["glare_over_mrz"],
                  "%s: readable despite blur or glare" % name)
    if g["glare_over_mrz"]:
        rep.check(g["glare"], "%s: glare over MRZ without glare" % name)
    if g["case"] == "partial_mrz":
        rep.check(not g["mrz_readable"], "%s: partial MRZ marked readable" % name)
    if g["case"] == "visa_decoy":
        d = g.get("decoy_mrz")
        rep.check(d is not None and len(d) == 2 and all(len(l) == 44 for l in d) and d[0][0] == "V"
                  and not mrz.validate(d), "%s: decoy MRZ" % name)
        rep.check(g["layout"] == "booklet", "%s: visa decoy not in a booklet" % name)
        rep.check(g.get("decoy_mrz_visible", 0) >= 0.6, "%s: decoy MRZ hardly in view" % name)
    rep.check(g["upside_down"] == (abs(g["rotation_deg"]) > 90), "%s: upside_down flag" % name)


def jpeg_size(data):
    """(width, height) from a JPEG's SOF marker."""
    i = 2
    while i < len(data) - 9:
        if data[i] != 0xFF:
            return None
        m = data[i + 1]
        L = (data[i + 2] << 8) | data[i + 3]
        if m in (0xC0, 0xC1, 0xC2):
            return (data[i + 7] << 8) | data[i + 8], (data[i + 5] << 8) | data[i + 6]
        i += 2 + L
    return None


def split_mjpeg(data):
    frames, start = [], 0
    while True:
        e = data.find(b"\xff\xd9\xff\xd8", start)
        if e < 0:
            frames.append(data[start:])
            return frames
        frames.append(data[start:e + 2])
        start = e + 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", ".cache", "cleanroom-data"))
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    rep = Report()
    with open(os.path.join(out, "manifest.json")) as f:
        man = json.load(f)
    stills = [it for it in man["items"] if it["kind"] == "still"]
    recs = [it for it in man["items"] if it["kind"] == "recording"]
    per_group = collections.defaultdict(collections.Counter)
    surf_group = collections.defaultdict(set)
    cases = collections.Counter()
    res = collections.Counter()
    changed = 0
    try:
        import cv2
        import numpy as np
    except ImportError:
        cv2 = None
    for k, it in enumerate(stills):
        for key in ("file", "json", "platen"):
            rep.check(os.path.exists(os.path.join(out, it[key])), "missing %s" % it[key])
        with open(os.path.join(out, it["json"])) as f:
            g = json.load(f)
        check_frame(rep, g, it["json"])
        for key in ("file", "platen"):
            with open(os.path.join(out, it[key]), "rb") as f:
                data = f.read()
            rep.check(jpeg_size(data) == (g["width"], g["height"]), "%s: JPEG size" % it[key])
            if cv2 is not None and k % 20 == 0:
                im = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
                rep.check(im is not None and im.shape[1] == g["width"], "%s: does not decode" % it[key])
        rep.check(g["platen"] == os.path.basename(it["platen"]), "%s: platen name" % it["json"])
        grp = "%s/%s" % (g["class"], g["layout"])
        if g["case"] == "normal" and g["class"] is not None:
            per_group[grp][g["guidance"]] += 1
            surf_group[grp].add(g["surface"])
        cases[g["case"]] += 1
        res["%dx%d" % (g["width"], g["height"])] += 1
        changed += bool(g["platen_changed"])
    # counts
    n = len(stills)
    rep.check(700 <= n <= 900, "about 800 stills (%d)" % n)
    for grp in ("TD1/card", "TD2/card", "TD3/loose", "TD3/booklet"):
        tot = sum(per_group[grp].values())
        rep.check(tot >= 140, "%s: %d normal stills" % (grp, tot))
        rep.check(per_group[grp]["ready"] >= 0.35 * tot, "%s: ready %d of %d" % (grp, per_group[grp]["ready"], tot))
        for lab in LABELS:
            rep.check(per_group[grp][lab] >= 5, "%s: only %d %s" % (grp, per_group[grp][lab], lab))
        rep.check(surf_group[grp] == SURFACES, "%s: surfaces %s" % (grp, sorted(surf_group[grp])))
    for c in CASES:
        rep.check(cases[c] >= 10, "case %s: %d" % (c, cases[c]))
    rep.check(0.7 <= res["1280x720"] / n <= 0.9, "resolution mix %s" % dict(res))
    rep.check(0.05 <= changed / n <= 0.15, "platen_changed share %d of %d" % (changed, n))
    # recordings
    rgroups = collections.Counter()
    rsurf = collections.defaultdict(set)
    nfr = 0
    for it in recs:
        for key in ("file", "json", "platen"):
            rep.check(os.path.exists(os.path.join(out, it[key])), "missing %s" % it[key])
        with open(os.path.join(out, it["json"])) as f:
            r = json.load(f)
        with open(os.path.join(out, it["file"]), "rb") as f:
            frames = split_mjpeg(f.read())
        rep.check(r["fps"] == 15, "%s: fps" % it["json"])
        rep.check(len(frames) == len(r["frames"]) == r["frame_count"], "%s: frame count" % it["json"])
        rep.check(4.0 <= len(frames) / 15 <= 8.0, "%s: duration" % it["json"])
        rep.check(all(jpeg_size(fr) == (1280, 720) for fr in frames[::10]), "%s: frame size" % it["json"])
        rep.check(not mrz.validate(r["mrz"]), "%s: MRZ" % it["json"])
        for i, g in enumerate(r["frames"]):
            check_frame(rep, g, "%s#%d" % (it["json"], i), True)
            if g["class"] is not None:
                rep.check(g["mrz"] == r["mrz"], "%s#%d: MRZ differs" % (it["json"], i))
        sf = r["still_from_frame"]
        rep.check(sf is not None, "%s: never still and readable" % it["json"])
        if sf is not None:
            for g in r["frames"][sf:]:
                W, H = g["width"], g["height"]
                ok = g["corners"] is not None and g["mrz_readable"] and g["settle_distance_mm"] < 0.3 and \
                    all(0 <= x <= W - 1 and 0 <= y <= H - 1 for x, y in g["corners"])
                rep.check(ok, "%s: frame after still_from_frame not still" % it["json"])
            if sf > 0:
                g = r["frames"][sf - 1]
                W, H = g["width"], g["height"]
                ok = g["corners"] is not None and g["mrz_readable"] and g["settle_distance_mm"] < 0.3 and \
                    all(0 <= x <= W - 1 and 0 <= y <= H - 1 for x, y in g["corners"])
                rep.check(not ok, "%s: still_from_frame too late" % it["json"])
        rgroups["%s/%s" % (r["class"], r["layout"])] += 1
        rsurf["%s/%s" % (r["class"], r["layout"])].add(r["surface"])
        nfr += len(frames)
    rep.check(len(recs) >= 24, "recordings: %d" % len(recs))
    for grp in ("TD1/card", "TD2/card", "TD3/loose", "TD3/booklet"):
        rep.check(rgroups[grp] >= 6, "recordings of %s: %d" % (grp, rgroups[grp]))
        rep.check(len(rsurf[grp] - {"plain"}) >= 3, "recordings of %s on textured surfaces" % grp)
    print("stills: %d (%s)" % (n, ", ".join("%s=%d" % kv for kv in sorted(res.items()))))
    for grp in sorted(per_group):
        tot = sum(per_group[grp].values())
        print("  %s: %d normal; %s" % (grp, tot, ", ".join("%s=%d" % kv for kv in sorted(per_group[grp].items()))))
    print("  cases: %s" % ", ".join("%s=%d" % kv for kv in sorted(cases.items())))
    print("  platen_changed: %d" % changed)
    print("recordings: %d with %d frames (%s)" % (len(recs), nfr, ", ".join("%s=%d" % kv for kv in sorted(rgroups.items()))))
    for msg in rep.failed[:40]:
        print("FAIL " + msg)
    if len(rep.failed) > 40:
        print("... and %d more" % (len(rep.failed) - 40))
    print("%d passed, %d failed" % (rep.passed, len(rep.failed)))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
