#!/usr/bin/python3
"""Clean-room test data for the kiosk's document vision: camera frames of fictional ICAO 9303
documents on a platen, with ground truth. For measurement only; see docs/cleanroom-data.md.

Usage: /usr/bin/python3 scripts/cleanroom-data/generate.py [--out DIR] [--force]

PACKAGES (Debian): python3-numpy python3-opencv python3-pil python3-skimage fonts-ocr-b
  fonts-dejavu-core opencv-doc (its sample photographs). Nothing is downloaded.

It prints counts and timings only, never MRZ text or names.
"""

import argparse
import collections
import hashlib
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep the work tree clean

VERSION = 1


def _imports():
    missing = []
    for mod, pkg in (("numpy", "python3-numpy"), ("cv2", "python3-opencv"), ("PIL", "python3-pil"),
                     ("skimage", "python3-skimage")):
        try:
            __import__(mod)
        except ImportError:
            missing.append(pkg)
    if missing:
        sys.exit("cleanroom-data: missing Debian packages: " + " ".join(missing) +
                 " (run with Debian's /usr/bin/python3)")


def source_hash():
    h = hashlib.sha256()
    for name in sorted(os.listdir(HERE)):
        if name.endswith(".py"):
            h.update(name.encode())
            with open(os.path.join(HERE, name), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, ensure_ascii=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help="output folder (default .cache/cleanroom-data at the repo root)")
    ap.add_argument("--force", action="store_true", help="regenerate even if the sources did not change")
    ap.add_argument("--limit", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    out = os.path.abspath(args.out or os.path.join(root, ".cache", "cleanroom-data"))
    stamp_path = os.path.join(out, ".stamp")
    digest = source_hash()
    if not args.force and args.limit is None and os.path.exists(stamp_path):
        with open(stamp_path) as f:
            if f.read().strip() == digest:
                print("cleanroom-data: up to date in %s (use --force to regenerate)" % out)
                return 0
    _imports()
    import numpy as np
    import camera as C
    import docs
    import draw
    import recordings as RC
    import scene as SC
    import stills as ST
    import surfaces as S

    draw.check_assets()
    S.check_assets()
    t_start = time.time()
    c_start = time.process_time()
    os.makedirs(out, exist_ok=True)
    for sub in ("stills", "recordings"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        os.makedirs(os.path.join(out, sub))
    for f in ("manifest.json", ".stamp"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))

    items = []
    counts = collections.defaultdict(collections.Counter)
    specs = ST.plan()
    if args.limit is not None:
        specs = specs[:args.limit]
    mismatched = 0
    for sp in specs:
        sc, extra = ST.build_still(sp)
        rng = np.random.default_rng(sp["seed"] + 1)
        cache = {}
        frame = SC.render(sc, rng, cache=cache)
        platen = SC.render(sc, np.random.default_rng(sp["seed"] + 2), platen=True, cache=cache)
        gt, _ = SC.ground_truth(sc)
        base = "%04d" % sp["index"]
        with open(os.path.join(out, "stills", base + ".jpg"), "wb") as f:
            f.write(C.encode_jpeg(frame, sc.jpeg_q))
        with open(os.path.join(out, "stills", base + "-platen.jpg"), "wb") as f:
            f.write(C.encode_jpeg(platen, sc.jpeg_q))
        gt["surface"] = S.VARIANTS[sc.surface][0]
        gt["surface_variant"] = sc.surface
        gt["platen"] = base + "-platen.jpg"
        gt["platen_changed"] = bool(extra["platen_changed"])
        if gt["design"] is None and extra.get("design"):
            gt["design"] = extra["design"]
        gt["case"] = extra["case"]
        gt["note"] = extra["note"]
        gt["decoy_mrz"] = extra["decoy_mrz"]
        if gt["decoy_mrz"] is not None:
            gt["decoy_mrz_visible"] = round(SC.decoy_visible(sc), 3)
        gt["jpeg_quality"] = sc.jpeg_q
        gt["station"] = sc.cam.st.id
        if sp["target"] and gt["guidance"] != sp["target"] and sp["case"] == "normal":
            mismatched += 1
        write_json(os.path.join(out, "stills", base + ".json"), gt)
        key = "%s/%s" % (gt["class"], gt["layout"])
        counts["class_layout"][key] += 1
        counts["surface"][gt["surface"]] += 1
        counts["guidance"][gt["guidance"]] += 1
        counts["case"][gt["case"]] += 1
        counts["guidance_by_class"][key + ":" + gt["guidance"]] += 1
        counts["surface_by_class"][key + ":" + gt["surface"]] += 1
        counts["resolution"]["%dx%d" % (gt["width"], gt["height"])] += 1
        counts["mrz_readable"][str(gt["mrz_readable"]).lower()] += 1
        counts["flags"].update([k for k in ("hand", "glare", "glare_over_mrz", "platen_changed", "upside_down")
                                if gt[k]])
        items.append({"kind": "still", "file": "stills/" + base + ".jpg", "json": "stills/" + base + ".json",
                      "platen": "stills/" + gt["platen"], "class": gt["class"], "layout": gt["layout"],
                      "side": gt["side"], "guidance": gt["guidance"], "case": gt["case"], "surface": gt["surface"]})
        if (sp["index"] + 1) % 100 == 0 and args.limit is None:
            print("  stills: %d done (%.0f s)" % (len(items), time.time() - t_start), flush=True)
    t_stills = time.time() - t_start
    c_stills = time.process_time() - c_start
    print("stills: %d in %.0f s (cpu %.0f s); %d of the normal stills differ from their planned label"
          % (len(specs), t_stills, c_stills, mismatched), flush=True)

    rplans = RC.plan()
    if args.limit is not None:
        rplans = rplans[:max(1, args.limit // 100)]
    nframes = 0
    for rp in rplans:
        rec = RC.build(rp)
        sc = rec["scene"]
        frames = []
        data = bytearray()
        rng = np.random.default_rng(rp["seed"] + 5)
        cache = {}
        for i in range(rec["nfr"]):
            R, T, hand, motion, mang = RC.frame_state(rec, i)
            sc.main = SC.Placed(rec["thing"], R, T)
            sc.hand, sc.motion_mm, sc.motion_angle, sc.glare = hand, motion, mang, rec["glare"]
            img = SC.render(sc, rng, cache=cache)
            data += C.encode_jpeg(img, sc.jpeg_q)
            gt, _ = SC.ground_truth(sc)
            settle = RC.settle_distance(rec, R, T)
            gt["frame"] = i
            gt["time_s"] = round(i / RC.FPS, 4)
            gt["surface"] = rec["surface_kind"]
            gt["surface_variant"] = sc.surface
            gt["platen"] = rp["name"] + "-platen.jpg"
            gt["platen_changed"] = False
            gt["case"] = "normal"
            gt["settle_distance_mm"] = round(settle, 3)
            frames.append(gt)
        nframes += len(frames)
        still_from = None
        for i in range(len(frames) - 1, -1, -1):
            f = frames[i]
            whole = f["corners"] is not None and all(0 <= x <= f["width"] - 1 and 0 <= y <= f["height"] - 1
                                                     for x, y in f["corners"])
            if whole and f["mrz_readable"] and f["settle_distance_mm"] < 0.3 and f["motion_blur_mm"] < 0.3:
                still_from = i
            else:
                break
        sc.main = None
        sc.hand = None
        platen = SC.render(sc, np.random.default_rng(rp["seed"] + 6), platen=True, cache=cache)
        with open(os.path.join(out, "recordings", rp["name"] + ".mjpeg"), "wb") as f:
            f.write(bytes(data))
        with open(os.path.join(out, "recordings", rp["name"] + "-platen.jpg"), "wb") as f:
            f.write(C.encode_jpeg(platen, sc.jpeg_q))
        doc = rec["thing"].doc
        write_json(os.path.join(out, "recordings", rp["name"] + ".json"), {
            "name": rp["name"], "fps": RC.FPS, "width": 1280, "height": 720,
            "class": doc.kind, "layout": doc.layout, "side": doc.side, "mrz": list(doc.mrz) if doc.mrz else None,
            "design": doc.design, "surface": rec["surface_kind"], "surface_variant": sc.surface,
            "platen": rp["name"] + "-platen.jpg", "station": sc.cam.st.id, "jpeg_quality": sc.jpeg_q,
            "still_from_frame": still_from, "frame_count": len(frames), "frames": frames})
        counts["recordings"]["%s/%s" % (doc.kind, doc.layout)] += 1
        counts["recording_surface"][rec["surface_kind"]] += 1
        items.append({"kind": "recording", "file": "recordings/" + rp["name"] + ".mjpeg",
                      "json": "recordings/" + rp["name"] + ".json",
                      "platen": "recordings/" + rp["name"] + "-platen.jpg", "class": doc.kind,
                      "layout": doc.layout, "frames": len(frames), "still_from_frame": still_from,
                      "surface": rec["surface_kind"]})
    t_rec = time.time() - t_start - t_stills
    print("recordings: %d with %d frames in %.0f s" % (len(rplans), nframes, t_rec), flush=True)

    manifest = {
        "version": VERSION,
        "generator": "scripts/cleanroom-data/generate.py",
        "source_sha256": digest,
        "purpose": "measurement only; never tune a vision system on these images (docs/cleanroom-data.md)",
        "counts": {k: dict(sorted(v.items())) for k, v in sorted(counts.items())},
        "stills": len(specs), "recordings": len(rplans), "recording_frames": nframes,
        "stations": [s.describe() for s in ST.stations()],
        "surfaces": {n: {"kind": v[0], "assets": v[2]} for n, v in S.VARIANTS.items()},
        "assets": {n: {"path": a[0], "package": a[1], "origin": a[2]} for n, a in S.ASSETS.items()},
        "items": items,
    }
    write_json(os.path.join(out, "manifest.json"), manifest)
    if args.limit is None:
        with open(stamp_path, "w") as f:
            f.write(digest + "\n")
    for k in ("class_layout", "case", "guidance", "surface", "resolution", "mrz_readable"):
        print("  %s: %s" % (k, ", ".join("%s=%d" % kv for kv in sorted(counts[k].items()))))
    print("done in %.0f s wall, %.0f s cpu -> %s" % (time.time() - t_start, time.process_time() - c_start, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
