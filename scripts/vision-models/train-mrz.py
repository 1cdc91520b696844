#!/usr/bin/python3
"""Trains the MRZ character classifier from the OCR-B font and writes it as a model file.

The classifier reads one fixed-pitch MRZ character cell (the 37 characters 0-9, A-Z
and '<') sampled to CELL_W x CELL_H; Vision's MRZReader cuts and normalises cells the
same way (see cell_features below and Sources/Vision/MRZ/MRZCell.swift). Training data
is rendered here from /usr/share/fonts/opentype/ocr-b/OCRB.otf (Debian fonts-ocr-b,
public domain) only: lines of random MRZ text at varied sizes and weights, sub-pixel
shifts, blur, uneven light, noise, JPEG, contrast and threshold changes; every cell is
cut with the position errors the reader makes, so neighbours bleed in as they do there.

Output (docs/vision-models.md describes the format):
  .cache/models/mrz-ocrb-v1.bin   the weights
  .cache/models/MANIFEST          "<sha256>  mrz-ocrb-v1.bin" lines, as sha256sum prints
  .cache/models/mrz-ocrb-v1.stamp the sha256 of this script: regenerated only when it changes

Run with Debian's interpreter: /usr/bin/python3 scripts/vision-models/train-mrz.py [--force]
"""
import os

# One core, as documented; set before numpy loads its BLAS.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import hashlib
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: datagen
import datagen

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

cv2.setNumThreads(1)

FONT = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
CELL_W, CELL_H = 16, 24
MAGIC = b"IKMRZOCR"
VERSION = 1
MODEL_NAME = "mrz-ocrb-v1.bin"
# OCR-B's advance is 0.723 em; ICAO's pitch is 2.54 mm, 25.4 px at the crops' 10 px/mm.
ADVANCE_EM = 0.723
SUPERSAMPLE = 4
SEED = 20261124

# The cell geometry, shared with the Swift reader (MRZCell.swift): the box is centred
# on the character, BOX_W pitches wide, and spans the line's text height plus MARGIN_Y
# of it above and below; levels come from LEVEL_W pitches around the character.
BOX_W = 1.2
MARGIN_Y = 0.15
LEVEL_W = 3.0
INK_PERCENTILE = 0.02
PAPER_PERCENTILE = 0.90
MIN_CONTRAST = 24.0


# --- the cell features (mirror of MRZCell.swift) -----------------------------------

def percentile_of(histogram, total, fraction):
    """The smallest value whose cumulative count reaches fraction of total."""
    target = max(1, int(np.ceil(fraction * total)))
    cumulative = np.cumsum(histogram)
    return int(np.searchsorted(cumulative, target))


def bilinear(image, x, y):
    """Samples image (float32 array) at pixel-centre coordinates x, y (arrays), clamped."""
    h, w = image.shape
    x = np.clip(x, 0, w - 1)
    y = np.clip(y, 0, h - 1)
    x0 = np.floor(x).astype(np.int32)
    y0 = np.floor(y).astype(np.int32)
    x1 = np.minimum(x0 + 1, w - 1)
    y1 = np.minimum(y0 + 1, h - 1)
    fx = x - x0
    fy = y - y0
    top = image[y0, x0] * (1 - fx) + image[y0, x1] * fx
    bottom = image[y1, x0] * (1 - fx) + image[y1, x1] * fx
    return top * (1 - fy) + bottom * fy


def cell_features(image_u8, image_f, cx, top, bottom, pitch):
    """The CELL_W*CELL_H features of the character centred at cx in the line spanning
    rows top..bottom: ink 1, paper 0, levels from the neighbourhood."""
    h, w = image_u8.shape
    height = bottom - top
    y0 = top - MARGIN_Y * height
    y1 = bottom + MARGIN_Y * height
    x0 = cx - BOX_W * pitch / 2
    x1 = cx + BOX_W * pitch / 2
    # Levels: a histogram of the integer rectangle LEVEL_W pitches wide.
    lx0 = max(0, int(np.floor(cx - LEVEL_W * pitch / 2)))
    lx1 = min(w, int(np.ceil(cx + LEVEL_W * pitch / 2)))
    ly0 = max(0, int(np.floor(y0)))
    ly1 = min(h, int(np.ceil(y1)))
    if lx1 <= lx0 or ly1 <= ly0:
        return np.zeros(CELL_W * CELL_H, np.float32)
    patch = image_u8[ly0:ly1, lx0:lx1]
    histogram = np.bincount(patch.ravel(), minlength=256)
    ink = percentile_of(histogram, patch.size, INK_PERCENTILE)
    paper = percentile_of(histogram, patch.size, PAPER_PERCENTILE)
    contrast = max(float(paper - ink), MIN_CONTRAST)
    # 2x2 samples per output pixel, at the centres of its quarters.
    sx = (x1 - x0) / CELL_W
    sy = (y1 - y0) / CELL_H
    offsets = np.array([0.25, 0.75], np.float32)
    xs = x0 + (np.arange(CELL_W, dtype=np.float32)[:, None] + offsets[None, :]).ravel() * sx - 0.5
    ys = y0 + (np.arange(CELL_H, dtype=np.float32)[:, None] + offsets[None, :]).ravel() * sy - 0.5
    gx, gy = np.meshgrid(xs, ys)
    samples = bilinear(image_f, gx, gy).reshape(CELL_H, 2, CELL_W, 2).mean(axis=(1, 3))
    return np.clip((paper - samples) / contrast, 0.0, 1.0).astype(np.float32).ravel()


# --- rendering ---------------------------------------------------------------------

_fonts = {}


def font(size):
    if size not in _fonts:
        _fonts[size] = ImageFont.truetype(FONT, size)
    return _fonts[size]


_ink_centres = {}


def ink_centre(size_px, ch):
    """The horizontal centre of the glyph's ink, from the pen position, at size_px."""
    key = (size_px, ch)
    if key not in _ink_centres:
        f = font(size_px)
        pad = size_px
        canvas = Image.new("L", (3 * size_px, 3 * size_px), 0)
        ImageDraw.Draw(canvas).text((pad, pad), ch, font=f, fill=255)
        columns = np.where(np.asarray(canvas).max(axis=0) > 127)[0]
        _ink_centres[key] = (columns[0] + columns[-1] + 1) / 2 - pad
    return _ink_centres[key]


def random_text(rng, n):
    """MRZ-like text: random characters with runs of fillers."""
    out = []
    while len(out) < n:
        if rng.random() < 0.15:
            out.extend("<" * int(rng.integers(2, 8)))
        else:
            out.append(ALPHABET[int(rng.integers(0, len(ALPHABET)))])
    return "".join(out[:n])


def render_line(rng, text, pitch):
    """A degraded line of text; returns (image uint8, centres, top, bottom) where centres
    are the ink-box centres of the characters and top/bottom the text's rows."""
    s = SUPERSAMPLE
    # The font's own advance is 0.723 em; printers set the 2.54 mm pitch with capitals
    # from about 2.2 to 2.6 mm tall, so the glyphs are a little narrower than the pitch
    # or fill it: the size varies around the one whose advance is the pitch.
    size_px = int(round(pitch / ADVANCE_EM * rng.uniform(0.9, 1.02) * s))
    f = font(size_px)
    step = pitch * s
    ascent, descent = f.getmetrics()
    margin_x = int(2 * pitch * s)
    height = int(ascent * 2.2)
    width = int(margin_x * 2 + step * len(text))
    canvas = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(canvas)
    ox = margin_x + rng.uniform(0, s)
    oy = int(height * 0.3) + rng.uniform(0, s)
    for i, ch in enumerate(text):
        draw.text((ox + i * step, oy), ch, font=f, fill=255)
    ink = np.asarray(canvas, np.uint8)
    # Weight: thinner or bolder strokes, as printers and scanners make them.
    grow = int(rng.integers(-2, 4))
    if grow > 0:
        ink = cv2.dilate(ink, np.ones((grow + 1, grow + 1), np.uint8))
    elif grow < 0:
        ink = cv2.erode(ink, np.ones((-grow + 1, -grow + 1), np.uint8))
    # Each character's ink-box centre (the reader centres cells on the ink it sees).
    centres = [(ox + i * step + ink_centre(size_px, ch)) / s for i, ch in enumerate(text)]
    cap = f.getbbox("H")
    top = (oy + cap[1]) / s
    bottom = (oy + cap[3]) / s
    # A small in-plane rotation about the line's centre (residual deskew error).
    angle = rng.uniform(-0.4, 0.4)
    matrix = cv2.getRotationMatrix2D((width / 2, (oy + ascent / 2)), angle, 1.0)
    ink = cv2.warpAffine(ink, matrix, (width, height), flags=cv2.INTER_LINEAR)
    ink = cv2.resize(ink, (width // s, height // s), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    h, w = ink.shape
    # Paper and ink levels, uneven light, a faint background pattern.
    paper = rng.uniform(120, 250)
    ink_level = rng.uniform(0, min(110, paper - 50))
    gradient = rng.uniform(-40, 40) * np.linspace(-0.5, 0.5, w)[None, :] + rng.uniform(-25, 25) * np.linspace(-0.5, 0.5, h)[:, None]
    background = paper + gradient
    if rng.random() < 0.4:
        yy, xx = np.mgrid[0:h, 0:w]
        period = rng.uniform(6, 40)
        background = background + rng.uniform(3, 18) * np.sin((xx * np.cos(rng.uniform(0, 3.14)) + yy) / period * 6.283)
    image = background * (1 - ink) + (ink_level + 0.3 * gradient) * ink
    blur = rng.uniform(0, 1.6)
    if blur > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if rng.random() < 0.2:
        k = int(rng.integers(2, 5))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        image = cv2.filter2D(image, -1, kernel)
    image = image + rng.normal(0, rng.uniform(0, 12), image.shape)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.6, 1.6)
        image = 255.0 * (np.clip(image, 0, 255) / 255.0) ** gamma
    image = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        image = cv2.imdecode(buffer, cv2.IMREAD_GRAYSCALE)
    if rng.random() < 0.15:
        # Hard thresholding somewhere in the chain (a binarising scanner).
        binary = cv2.adaptiveThreshold(image, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 31, int(rng.integers(4, 16)))
        image = np.where(binary == 0, ink_level, paper).astype(np.uint8)
        image = cv2.GaussianBlur(image, (0, 0), 0.6)
    return image, centres, top, bottom


def samples(rng, lines):
    """Features and labels of every character of `lines` rendered lines."""
    xs, ys = [], []
    for _ in range(lines):
        pitch = rng.uniform(21.5, 29.5)
        n = int(rng.integers(28, 45))
        text = random_text(rng, n)
        image, centres, top, bottom = render_line(rng, text, pitch)
        image_f = image.astype(np.float32)
        height = bottom - top
        for ch, cx in zip(text, centres):
            # The reader's errors: the centre within ~0.15 pitch, each edge of the line
            # band within ~0.1 of its height, the pitch within a few per cent.
            jx = rng.normal(0, 0.07 * pitch)
            t = top + rng.normal(0, 0.06 * height)
            b = bottom + rng.normal(0, 0.06 * height)
            p = pitch * rng.uniform(0.96, 1.04)
            xs.append(cell_features(image, image_f, cx + jx, t, b, p))
            ys.append(ALPHABET.index(ch))
    return np.stack(xs), np.array(ys, np.int32)


# --- the classifier ----------------------------------------------------------------

def train(x, y, xv, yv, rng, hidden=128, epochs=30, batch=256, rate=2e-3):
    n, d = x.shape
    k = len(ALPHABET)
    w1 = (rng.normal(0, np.sqrt(2.0 / d), (d, hidden))).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.normal(0, np.sqrt(1.0 / hidden), (hidden, k))).astype(np.float32)
    b2 = np.zeros(k, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    decay = 1e-5
    for epoch in range(epochs):
        order = rng.permutation(n)
        lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            xb, yb = x[idx], y[idx]
            h = np.maximum(xb @ w1 + b1, 0)
            z = h @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            g = p
            g[np.arange(len(idx)), yb] -= 1
            g /= len(idx)
            gw2 = h.T @ g + decay * w2
            gb2 = g.sum(axis=0)
            gh = (g @ w2.T) * (h > 0)
            gw1 = xb.T @ gh + decay * w1
            gb1 = gh.sum(axis=0)
            step += 1
            for i, grad in enumerate([gw1, gb1, gw2, gb2]):
                m[i] = 0.9 * m[i] + 0.1 * grad
                v[i] = 0.999 * v[i] + 0.001 * grad * grad
                mh = m[i] / (1 - 0.9 ** step)
                vh = v[i] / (1 - 0.999 ** step)
                params[i] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if epoch % 5 == 4 or epoch == epochs - 1:
            print(f"  epoch {epoch + 1}: train {accuracy(params, x, y):.4f} validation {accuracy(params, xv, yv):.4f}", flush=True)
    return params


def predict(params, x):
    w1, b1, w2, b2 = params
    return (np.maximum(x @ w1 + b1, 0) @ w2 + b2).argmax(axis=1)


def accuracy(params, x, y):
    return float((predict(params, x) == y).mean())


def confusions(params, x, y):
    guess = predict(params, x)
    lines = []
    for a, b in [("O", "0"), ("I", "1"), ("B", "8"), ("S", "5"), ("Z", "2"), ("D", "0")]:
        ia, ib = ALPHABET.index(a), ALPHABET.index(b)
        ab = int(((y == ia) & (guess == ib)).sum())
        ba = int(((y == ib) & (guess == ia)).sum())
        lines.append(f"{a}->{b} {ab}/{int((y == ia).sum())}, {b}->{a} {ba}/{int((y == ib).sum())}")
    return "; ".join(lines)


def write_model(path, params):
    w1, b1, w2, b2 = params
    out = bytearray()
    out += MAGIC
    out += struct.pack("<IIII", VERSION, CELL_W, CELL_H, len(ALPHABET))
    out += ALPHABET.encode("ascii")
    out += struct.pack("<I", 2)
    for w, b in [(w1, b1), (w2, b2)]:
        inputs, outputs = w.shape
        out += struct.pack("<II", inputs, outputs)
        # Row-major [outputs][inputs]: one output's weights are contiguous.
        out += np.ascontiguousarray(w.T, dtype="<f4").tobytes()
        out += np.ascontiguousarray(b, dtype="<f4").tobytes()
    with open(path, "wb") as handle:
        handle.write(bytes(out))
    return hashlib.sha256(bytes(out)).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", ".cache", "models"))
    parser.add_argument("--force", action="store_true", help="train even when the stamp matches")
    parser.add_argument("--lines", type=int, default=2600, help="training lines (about 36 characters each)")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with open(__file__, "rb") as handle:
        script_hash = hashlib.sha256(handle.read()).hexdigest()
    stamp = os.path.join(out, MODEL_NAME.replace(".bin", ".stamp"))
    model = os.path.join(out, MODEL_NAME)
    if not args.force and os.path.exists(model) and os.path.exists(stamp):
        with open(stamp) as handle:
            if handle.read().strip() == script_hash:
                print(f"{MODEL_NAME} is up to date")
                return 0
    if not os.path.exists(FONT):
        print(f"missing {FONT}: install Debian's fonts-ocr-b (scripts/setup-debian.sh)", file=sys.stderr)
        return 1
    started = time.process_time()
    wall = time.monotonic()
    rng = np.random.default_rng(SEED)
    x, y = samples(rng, args.lines)
    xv, yv = samples(np.random.default_rng(SEED + 1), max(200, args.lines // 8))
    print(f"rendered {len(y)} training and {len(yv)} validation cells in {time.monotonic() - wall:.1f} s", flush=True)
    params = train(x, y, xv, yv, rng)
    print(f"train accuracy {accuracy(params, x, y):.4f}, validation accuracy {accuracy(params, xv, yv):.4f}")
    print(f"validation confusions: {confusions(params, xv, yv)}")
    digest = write_model(model, params)
    datagen.update_manifest(out, {MODEL_NAME: digest})
    with open(stamp, "w") as handle:
        handle.write(script_hash + "\n")
    print(f"wrote {model} (sha256 {digest}) in {time.monotonic() - wall:.0f} s wall, {time.process_time() - started:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
