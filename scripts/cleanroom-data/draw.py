"""Small drawing helpers shared by the document, surface and object painters.

Everything is drawn at a given resolution in pixels per millimetre; coordinates are in mm.
"""

import os
import sys

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

DEJAVU_DIR = "/usr/share/fonts/truetype/dejavu"
OCRB_CANDIDATES = ["/usr/share/fonts/opentype/ocr-b/OCRB.otf"]

FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
}


def need(path, package):
    if not os.path.exists(path):
        sys.exit("cleanroom-data: %s is missing; install the Debian package %s" % (path, package))
    return path


def font_path(key):
    if key == "ocrb":
        for p in OCRB_CANDIDATES:
            if os.path.exists(p):
                return p
        return need(OCRB_CANDIDATES[0], "fonts-ocr-b")
    return need(os.path.join(DEJAVU_DIR, FONT_FILES[key]), "fonts-dejavu-core")


_fonts = {}


def font(key, size_px):
    size_px = max(4, int(round(size_px)))
    k = (key, size_px)
    if k not in _fonts:
        _fonts[k] = ImageFont.truetype(font_path(key), size_px)
    return _fonts[k]


def check_assets():
    for k in list(FONT_FILES) + ["ocrb"]:
        font_path(k)


def to_u8(img):
    return np.clip(img * 255.0 + 0.5, 0, 255).astype(np.uint8)


def to_f32(img):
    return img.astype(np.float32) * (1.0 / 255.0)


def rgb(hexstr):
    hexstr = hexstr.lstrip("#")
    return np.array([int(hexstr[i:i + 2], 16) / 255.0 for i in (0, 2, 4)], np.float32)


def lerp(a, b, t):
    return a + (b - a) * t


class Sheet:
    """A float RGB image in mm coordinates, with PIL text on demand."""

    def __init__(self, w_mm, h_mm, ppm, color=(1, 1, 1)):
        self.w_mm, self.h_mm, self.ppm = w_mm, h_mm, ppm
        self.W = int(round(w_mm * ppm))
        self.H = int(round(h_mm * ppm))
        self.img = np.empty((self.H, self.W, 3), np.float32)
        self.img[:] = np.asarray(color, np.float32)
        self._pil = None

    # --- numpy side
    def px(self, v):
        return v * self.ppm

    def gradient(self, c1, c2, angle_deg=90.0, radial=False, center=(0.5, 0.5)):
        ys = np.arange(self.H, dtype=np.float32)[:, None]
        xs = np.arange(self.W, dtype=np.float32)[None, :]
        if radial:
            cx, cy = center[0] * self.W, center[1] * self.H
            t = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2) / (0.75 * max(self.W, self.H))
        else:
            a = np.deg2rad(angle_deg)
            t = (xs * np.float32(np.cos(a)) + ys * np.float32(np.sin(a)))
            t = (t - t.min()) / max(1e-6, t.max() - t.min())
        t = np.clip(t, 0, 1)[..., None]
        self.flush()
        self.img = np.asarray(c1, np.float32) * (1 - t) + np.asarray(c2, np.float32) * t

    def _get(self, x0, y0, x1, y1):
        if self._pil is not None:
            return to_f32(np.asarray(self._pil.crop((x0, y0, x1, y1))))
        return self.img[y0:y1, x0:x1]

    def _put(self, x0, y0, arr):
        if self._pil is not None:
            self._pil.paste(Image.fromarray(to_u8(arr)), (x0, y0))
        else:
            self.img[y0:y0 + arr.shape[0], x0:x0 + arr.shape[1]] = arr

    def blend_mask(self, mask_u8, color, alpha):
        x, y, w, h = cv2.boundingRect(mask_u8)
        if w == 0 or h == 0:
            return
        m = mask_u8[y:y + h, x:x + w].astype(np.float32) * (alpha / 255.0)
        m = m[..., None]
        sub = self._get(x, y, x + w, y + h)
        self._put(x, y, sub * (1 - m) + np.asarray(color, np.float32) * m)

    def polylines(self, curves, color, width_mm, alpha, closed=False):
        mask = np.zeros((self.H, self.W), np.uint8)
        pts = [np.round(np.asarray(c) * self.ppm * 16).astype(np.int32) for c in curves]
        t = max(1, int(round(width_mm * self.ppm)))
        cv2.polylines(mask, pts, closed, 255, t, cv2.LINE_AA, shift=4)
        self.blend_mask(mask, color, alpha)

    def fill_poly(self, polys, color, alpha=1.0):
        mask = np.zeros((self.H, self.W), np.uint8)
        pts = [np.round(np.asarray(c) * self.ppm * 16).astype(np.int32) for c in polys]
        cv2.fillPoly(mask, pts, 255, cv2.LINE_AA, shift=4)
        self.blend_mask(mask, color, alpha)

    def rect(self, x0, y0, x1, y1, color, alpha=1.0):
        a, b = max(int(round(x0 * self.ppm)), 0), min(int(round(x1 * self.ppm)), self.W)
        c, d = max(int(round(y0 * self.ppm)), 0), min(int(round(y1 * self.ppm)), self.H)
        if b <= a or d <= c:
            return
        sub = self._get(a, c, b, d)
        self._put(a, c, sub * (1 - alpha) + np.asarray(color, np.float32) * alpha)

    def paste(self, x_mm, y_mm, arr, alpha=None, mode="normal", opacity=1.0):
        """Pastes a float RGB array (already at this resolution) at (x_mm, y_mm)."""
        x, y = int(round(x_mm * self.ppm)), int(round(y_mm * self.ppm))
        h, w = arr.shape[:2]
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.W), min(y + h, self.H)
        if x1 <= x0 or y1 <= y0:
            return
        src = arr[y0 - y:y1 - y, x0 - x:x1 - x]
        a = np.ones(src.shape[:2] + (1,), np.float32) * opacity
        if alpha is not None:
            a = a * alpha[y0 - y:y1 - y, x0 - x:x1 - x, None]
        dst = self._get(x0, y0, x1, y1)
        if mode == "multiply":
            out = dst * (1 - a) + dst * src * a
        else:
            out = dst * (1 - a) + src * a
        self._put(x0, y0, out)

    # --- PIL side (text)
    def draw(self):
        if self._pil is None:
            self._pil = Image.fromarray(to_u8(self.img))
            self._draw = ImageDraw.Draw(self._pil)
        return self._draw

    def flush(self):
        if self._pil is not None:
            self.img = to_f32(np.asarray(self._pil))
            self._pil = None

    def text(self, x_mm, y_mm, s, key, size_mm, color, anchor="la"):
        d = self.draw()
        f = font(key, size_mm * self.ppm)
        col = tuple(int(round(c * 255)) for c in color)
        d.text((x_mm * self.ppm, y_mm * self.ppm), s, font=f, fill=col, anchor=anchor)

    def text_width_mm(self, s, key, size_mm):
        return font(key, size_mm * self.ppm).getlength(s) / self.ppm

    def fit_text(self, x_mm, y_mm, s, key, size_mm, color, max_w_mm, anchor="la"):
        w = self.text_width_mm(s, key, size_mm)
        if w > max_w_mm:
            size_mm *= max_w_mm / w
        self.text(x_mm, y_mm, s, key, size_mm, color, anchor)

    def result(self):
        self.flush()
        return self.img


def rounded_alpha(W, H, r_px):
    """An anti-aliased alpha mask of a rectangle with rounded corners."""
    big = np.zeros((H * 2, W * 2), np.uint8)
    r = int(round(r_px * 2))
    cv2.rectangle(big, (r, 0), (W * 2 - 1 - r, H * 2 - 1), 255, -1)
    cv2.rectangle(big, (0, r), (W * 2 - 1, H * 2 - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W * 2 - 1 - r, r), (r, H * 2 - 1 - r), (W * 2 - 1 - r, H * 2 - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1, cv2.LINE_AA)
    m = cv2.resize(big, (W, H), interpolation=cv2.INTER_AREA)
    return m


# ---------------------------------------------------------------- pattern generators (mm)

def rosette(cx, cy, R, r, d, turns=1, n=900, rot=0.0):
    """An epitrochoid, the classic guilloche rosette."""
    t = np.linspace(0, 2 * np.pi * turns, n)
    x = (R + r) * np.cos(t) - d * np.cos((R + r) / r * t)
    y = (R + r) * np.sin(t) - d * np.sin((R + r) / r * t)
    c, s = np.cos(rot), np.sin(rot)
    return np.stack([cx + c * x - s * y, cy + s * x + c * y], 1)


def wave_band(x0, x1, y, amp, period, phase, n=400, amp2=0.0, period2=1.0):
    x = np.linspace(x0, x1, n)
    yy = y + amp * np.sin(2 * np.pi * x / period + phase) + amp2 * np.sin(2 * np.pi * x / period2)
    return np.stack([x, yy], 1)


def guilloche_field(sheet, rng, region, color, alpha, kind, density=1.0):
    x0, y0, x1, y1 = region
    curves = []
    if kind == "waves":
        n = int(40 * density)
        period = rng.uniform(15, 40)
        amp = rng.uniform(1.5, 5)
        for i in range(n):
            y = y0 + (y1 - y0) * i / max(1, n - 1)
            curves.append(wave_band(x0, x1, y, amp, period, i * 0.35, amp2=amp * 0.4,
                                    period2=period * 0.37))
    elif kind == "rosettes":
        cx, cy = rng.uniform(x0 + 0.3 * (x1 - x0), x0 + 0.7 * (x1 - x0)), (y0 + y1) / 2
        R = 0.3 * min(x1 - x0, y1 - y0) + rng.uniform(0, 8)
        for k in range(int(6 * density)):
            r = R / rng.choice([5, 6, 7, 8, 9])
            curves.append(rosette(cx, cy, R * (0.45 + 0.09 * k), r, r * rng.uniform(0.6, 1.4),
                                  turns=1, n=1400, rot=k * 0.2))
    elif kind == "mesh":
        n = int(26 * density)
        period = rng.uniform(20, 50)
        for i in range(n):
            y = y0 + (y1 - y0) * i / max(1, n - 1)
            curves.append(wave_band(x0, x1, y, 3, period, 0.0))
            curves.append(wave_band(x0, x1, y, 3, period, np.pi))
    elif kind == "radial":
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        Rm = np.hypot(x1 - x0, y1 - y0)
        for i in range(int(70 * density)):
            a = 2 * np.pi * i / int(70 * density)
            t = np.linspace(0, Rm, 300)
            w = 2.5 * np.sin(t / 6.0 + i)
            curves.append(np.stack([cx + t * np.cos(a) - w * np.sin(a),
                                    cy + t * np.sin(a) + w * np.cos(a)], 1))
    elif kind == "rings":
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        Rm = np.hypot(x1 - x0, y1 - y0)
        for i in range(1, int(60 * density)):
            rr = Rm * i / int(60 * density)
            t = np.linspace(0, 2 * np.pi, 600)
            q = rr + 0.8 * np.sin(t * 24 + i)
            curves.append(np.stack([cx + q * np.cos(t), cy + q * np.sin(t)], 1))
    # clip to region by masking: draw into a mask then restrict
    mask = np.zeros((sheet.H, sheet.W), np.uint8)
    pts = [np.round(np.asarray(c) * sheet.ppm * 16).astype(np.int32) for c in curves]
    cv2.polylines(mask, pts, False, 255, max(1, int(round(0.09 * sheet.ppm))), cv2.LINE_AA, shift=4)
    rm = np.zeros_like(mask)
    rm[int(y0 * sheet.ppm):int(y1 * sheet.ppm), int(x0 * sheet.ppm):int(x1 * sheet.ppm)] = 1
    sheet.blend_mask(mask * rm, color, alpha)


def microtext(sheet, x0, y, x1, text, color, size_mm=0.7, alpha=0.6):
    s = (text + " ") * 80
    d = sheet.draw()
    f = font("sans", size_mm * sheet.ppm)
    col = tuple(int(round(c * 255)) for c in color)
    # clip by drawing on the line only up to x1
    while sheet.text_width_mm(s, "sans", size_mm) > (x1 - x0) and len(s) > 10:
        s = s[: int(len(s) * 0.9)]
    d.text((x0 * sheet.ppm, y * sheet.ppm), s, font=f, fill=col)


def emblem(sheet, cx, cy, r, color, alpha, kind):
    polys = []
    if kind == 0:  # star
        a = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rr = np.where(np.arange(10) % 2 == 0, r, r * 0.42)
        polys.append(np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1))
        sheet.fill_poly(polys, color, alpha)
    elif kind == 1:  # shield
        t = np.linspace(0, np.pi, 30)
        bottom = np.stack([cx + r * 0.8 * np.cos(t), cy + 0.2 * r + r * 0.8 * np.sin(t)], 1)
        poly = np.vstack([[[cx + 0.8 * r, cy - r]], bottom[:: 1], [[cx - 0.8 * r, cy - r]]])
        sheet.fill_poly([poly], color, alpha)
    elif kind == 2:  # sun
        curves = []
        for i in range(24):
            a = 2 * np.pi * i / 24
            curves.append(np.array([[cx + 0.45 * r * np.cos(a), cy + 0.45 * r * np.sin(a)],
                                    [cx + r * np.cos(a), cy + r * np.sin(a)]]))
        sheet.polylines(curves, color, 0.35, alpha)
        t = np.linspace(0, 2 * np.pi, 60)
        sheet.fill_poly([np.stack([cx + 0.38 * r * np.cos(t), cy + 0.38 * r * np.sin(t)], 1)],
                        color, alpha)
    else:  # laurel ring
        curves = []
        for side in (-1, 1):
            for i in range(9):
                a = np.pi / 2 + side * (0.25 + i * 0.3)
                px, py = cx + r * np.cos(a), cy + r * np.sin(a)
                t = np.linspace(0, 2 * np.pi, 20)
                curves.append(np.stack([px + 0.22 * r * np.cos(t) * 0.5,
                                        py + 0.22 * r * np.sin(t)], 1))
        sheet.fill_poly(curves, color, alpha)


def value_noise(rng, H, W, cell, octaves=4, persistence=0.5):
    """Smooth fractal noise in [0,1] (bilinear upsampled random grids)."""
    out = np.zeros((H, W), np.float32)
    amp, total = 1.0, 0.0
    c = cell
    for _ in range(octaves):
        gh, gw = max(2, int(H / c) + 2), max(2, int(W / c) + 2)
        g = rng.random((gh, gw)).astype(np.float32)
        up = cv2.resize(g, (int(gw * c), int(gh * c)), interpolation=cv2.INTER_CUBIC)
        out += amp * up[:H, :W]
        total += amp
        amp *= persistence
        c = max(1.0, c / 2.0)
    return np.clip(out / total, 0, 1)
