"""Fictional ICAO 9303 documents and other flat things, painted as RGBA textures.

Sizes and MRZ positions (Doc 9303 Parts 4-7, nominal values):
  TD1 85.6 x 54.0 mm, 3 x 30 characters on the back, first character's left edge 5.0 mm from
      the left edge, lines 4.23 mm apart, the middle line's centre 11.8 mm above the bottom edge
  TD2 105.0 x 74.0 mm, 2 x 36, first character at 4.0 mm
  TD3 125.0 x 88.0 mm, 2 x 44, first character at 6.0 mm
  MRV-A visa 120.0 x 80.0 mm, 2 x 44, first character at 4.0 mm
  two-line zones: the reference centre lines 15.75 mm and 9.40 mm above the bottom edge
  character pitch 2.54 mm (10 per inch) in OCR-B.
"""

import numpy as np
import cv2

import draw as D
from draw import rgb
from identity import Holder, STATES, word

PPM = 8.0  # texture resolution, pixels per mm
PITCH = 2.54
OCRB_EM = 3.45  # mm: OCR-B's capitals are then ~2.48 mm high and its advance ~2.49 mm

SIZES = {"TD1": (85.6, 54.0), "TD2": (105.0, 74.0), "TD3": (125.0, 88.0), "MRVA": (120.0, 80.0)}
MRZ_GEOM = {
    # first character's left edge (mm), centre lines measured from the bottom edge (mm)
    "TD1": (5.0, [11.8 + 4.23, 11.8, 11.8 - 4.23]),
    "TD2": (4.0, [15.75, 9.40]),
    "TD3": (6.0, [15.75, 9.40]),
    "MRVA": (4.0, [15.75, 9.40]),
}
CHAR_HALF_H = 1.45  # half height of a character cell (mm) used for readability checks


class Texture:
    """An RGBA uint8 image of a flat thing and its size in mm, with a mip pyramid."""

    def __init__(self, rgba, w_mm, h_mm):
        self.w_mm, self.h_mm = w_mm, h_mm
        self.levels = [(rgba, rgba.shape[1] / w_mm)]

    def rgb_level(self, ppm_needed):
        """A contiguous RGB copy of level() (cached)."""
        arr, ppm = self.level(ppm_needed)
        if not hasattr(self, "_rgb"):
            self._rgb = {}
        if ppm not in self._rgb:
            self._rgb[ppm] = np.ascontiguousarray(arr[..., :3])
        return self._rgb[ppm], ppm

    def level(self, ppm_needed):
        best = self.levels[0]
        while True:
            arr, ppm = self.levels[-1]
            if ppm / 2.0 < ppm_needed * 1.15 or min(arr.shape[:2]) < 16:
                break
            self.levels.append((cv2.pyrDown(arr), ppm / 2.0))
        for arr, ppm in self.levels:
            if ppm >= ppm_needed * 1.15:
                best = (arr, ppm)
        return best


def texture_from(img_f32, alpha_u8, w_mm, h_mm):
    rgba = np.dstack([D.to_u8(img_f32), alpha_u8])
    return Texture(np.ascontiguousarray(rgba), w_mm, h_mm)


def mrz_boxes(kind, lines, w_mm, h_mm):
    x0, centres = MRZ_GEOM[kind]
    boxes = []
    for li, line in enumerate(lines):
        yc = h_mm - centres[li]
        for j in range(len(line)):
            boxes.append((x0 + j * PITCH, yc - CHAR_HALF_H, x0 + (j + 1) * PITCH, yc + CHAR_HALF_H))
    return np.array(boxes, np.float32)


def draw_mrz(sheet, kind, lines, ink):
    x0, centres = MRZ_GEOM[kind]
    f = D.font("ocrb", OCRB_EM * sheet.ppm)
    adv = f.getlength("M") / sheet.ppm
    cap = 0.72 * OCRB_EM
    d = sheet.draw()
    col = tuple(int(round(c * 255)) for c in ink)
    for li, line in enumerate(lines):
        base = sheet.h_mm - centres[li] + cap / 2
        for j, ch in enumerate(line):
            x = x0 + j * PITCH + (PITCH - adv) / 2
            d.text((x * sheet.ppm, base * sheet.ppm), ch, font=f, fill=col, anchor="ls")


# ------------------------------------------------------------------ palettes and designs

PALETTES = [
    # bg1, bg2, pattern1, pattern2, label, accent, dark?
    ("#e8f1e4", "#d4e6d9", "#78ab86", "#c48a9a", "#2e5a3c", "#2e6a4a", False),
    ("#e6eef7", "#d0dff0", "#6f93c2", "#d2a46a", "#22426e", "#1f4f8a", False),
    ("#f5e6ea", "#e9d0d9", "#c07a90", "#7f9fc4", "#6a2a3e", "#8a2f4a", False),
    ("#f4eedb", "#e6dabb", "#b89a5a", "#7fa0a8", "#5a4520", "#7a5520", False),
    ("#ece6f4", "#dbd0ec", "#8e7ab8", "#a8c48a", "#3e2e6a", "#4e3a8a", False),
    ("#f7f7f3", "#e9e9e2", "#9a9a9a", "#c8a0a0", "#333333", "#444444", False),
    ("#8fb3ad", "#6f9a94", "#3e6e66", "#c9dcd6", "#0f3530", "#0f3a34", True),
    ("#9aa8c0", "#7789a8", "#3a4a6e", "#d0d8e8", "#141e38", "#1a2a50", True),
    ("#cdb184", "#b8965e", "#7a5a2a", "#efe0c0", "#33240c", "#5a3a10", True),
    ("#a9b49a", "#8e9a7e", "#4e5a3e", "#dfe6d4", "#1e2614", "#2e3a20", True),
]

PATTERNS = ["waves", "rosettes", "mesh", "radial", "rings"]


class Design:
    def __init__(self, cls, idx, seed):
        rng = np.random.default_rng(seed)
        self.cls, self.idx = cls, idx
        self.id = "%s-d%d" % (cls.lower(), idx)
        # spread light and dark palettes over the designs of a class
        order = [0, 6, 1, 7, 2, 3, 8, 4, 9, 5]
        pal = PALETTES[order[(idx + {"TD1": 0, "TD2": 3, "TD3": 6}[cls]) % len(order)]]
        self.bg1, self.bg2, self.p1, self.p2 = (rgb(pal[i]) for i in range(4))
        self.label, self.accent, self.dark = rgb(pal[4]), rgb(pal[5]), pal[6]
        self.ink = rgb("#101010") if not self.dark else rgb("#050505")
        self.patterns = [PATTERNS[(idx + k * 2) % len(PATTERNS)] for k in range(2)]
        self.header = idx % 3
        self.ghost = idx % 2 == 0
        self.mrz_pattern = idx % 3 != 1
        self.emblem = idx % 4
        self.value_font = ["sans-bold", "mono-bold", "serif-bold", "sans"][idx % 4]
        self.label_font = ["sans", "serif", "sans", "sans"][idx % 4]
        self.grad_angle = float(rng.uniform(0, 180))
        self.radial = idx % 4 == 3
        self.seed = seed
        self.border = idx % 2 == 1
        self.portrait_bg = rng.choice(["#e4ecf2", "#f2f2ee", "#dde3e8", "#eae3da"])


DESIGN_COUNT = {"TD1": 7, "TD2": 7, "TD3": 8}


def designs():
    out = {}
    for cls, n in DESIGN_COUNT.items():
        out[cls] = [Design(cls, i, 1000 + 37 * i + {"TD1": 1, "TD2": 2, "TD3": 3}[cls]) for i in range(n)]
    return out


_bg_cache = {}


def design_background(design, side, w_mm, h_mm):
    key = (design.id, side)
    if key in _bg_cache:
        return _bg_cache[key]
    rng = np.random.default_rng(design.seed + (7 if side == "back" else 0))
    s = D.Sheet(w_mm, h_mm, PPM)
    s.gradient(design.bg1, design.bg2, design.grad_angle, radial=design.radial,
               center=(0.6, 0.4))
    # paper/laminate fibre texture
    n = D.value_noise(rng, s.H, s.W, 3.0 * PPM, 3)
    s.img *= (0.965 + 0.07 * n)[..., None]
    D.guilloche_field(s, rng, (0, 0, w_mm, h_mm), design.p1, 0.28, design.patterns[0], 1.0)
    D.guilloche_field(s, rng, (w_mm * 0.3, h_mm * 0.1, w_mm, h_mm * 0.75), design.p2, 0.22,
                      design.patterns[1], 0.8)
    D.emblem(s, w_mm * 0.68, h_mm * 0.42, min(w_mm, h_mm) * 0.22, design.p1, 0.18, design.emblem)
    if design.border:
        s.polylines([np.array([[1.2, 1.2], [w_mm - 1.2, 1.2], [w_mm - 1.2, h_mm - 1.2],
                               [1.2, h_mm - 1.2]])], design.p1, 0.25, 0.6, closed=True)
    img = s.result()
    _bg_cache[key] = img
    return img


# ------------------------------------------------------------------ portrait

SKIN = ["#f1d3bd", "#e0b08f", "#c68e66", "#a06a48", "#7a4c32", "#5a3623", "#efc9a8"]
HAIR = ["#2a1d14", "#4a3222", "#7a5535", "#b08a50", "#1a1a1a", "#8a8a88", "#5a2a1a"]
CLOTH = ["#23324a", "#4a4a4a", "#6a2a2a", "#2a4a3a", "#d8d8d0", "#3a3a5a", "#7a6a4a"]


def portrait(rng, w_mm, h_mm, bg_hex, ppm=PPM):
    """A drawn, abstract head-and-shoulders placeholder (no real face)."""
    W, H = int(round(w_mm * ppm)), int(round(h_mm * ppm))
    img = np.empty((H, W, 3), np.float32)
    bg = rgb(bg_hex)
    ys = np.linspace(0, 1, H, dtype=np.float32)[:, None, None]
    img[:] = bg * (1.02 - 0.08 * ys)
    skin = rgb(SKIN[int(rng.integers(len(SKIN)))])
    hair = rgb(HAIR[int(rng.integers(len(HAIR)))])
    cloth = rgb(CLOTH[int(rng.integers(len(CLOTH)))])
    cx = W * rng.uniform(0.46, 0.54)
    hy = H * rng.uniform(0.38, 0.44)
    ax, ay = W * rng.uniform(0.22, 0.27), H * rng.uniform(0.23, 0.27)

    def ell(c, center, axes, ang=0.0, start=0, end=360):
        m = np.zeros((H, W), np.uint8)
        cv2.ellipse(m, (int(center[0] * 16), int(center[1] * 16)), (int(axes[0] * 16), int(axes[1] * 16)),
                    ang, start, end, 255, -1, cv2.LINE_AA, shift=4)
        a = m.astype(np.float32)[..., None] / 255.0
        img[:] = img * (1 - a) + c * a

    # shoulders and neck
    ell(cloth, (cx, H * 1.04), (W * rng.uniform(0.5, 0.6), H * 0.3))
    m = np.zeros((H, W), np.uint8)
    cv2.rectangle(m, (int(cx - ax * 0.45), int(hy)), (int(cx + ax * 0.45), int(H * 0.8)), 255, -1)
    a = m.astype(np.float32)[..., None] / 255.0
    img[:] = img * (1 - a) + skin * 0.9 * a
    ell(cloth, (cx, H * 0.86), (ax * 0.55, H * 0.07), 0, 0, 180)
    # hair behind, head, hair cap
    long_hair = rng.random() < 0.4
    if long_hair:
        ell(hair, (cx, hy + ay * 0.35), (ax * 1.22, ay * 1.25))
    ell(skin, (cx, hy), (ax, ay))
    if rng.random() < 0.9:
        ell(hair, (cx, hy - ay * 0.35), (ax * 1.05, ay * 0.72), 0, 180, 360)
    # abstract features
    ey = hy - ay * 0.05
    for sx in (-1, 1):
        ell(rgb("#2a2220"), (cx + sx * ax * 0.38, ey), (ax * 0.12, ay * 0.06))
        ell(hair * 0.8, (cx + sx * ax * 0.38, ey - ay * 0.17), (ax * 0.17, ay * 0.03))
    ell(skin * 0.82, (cx, hy + ay * 0.22), (ax * 0.09, ay * 0.16))
    ell(skin * 0.62 + rgb("#802020") * 0.2, (cx, hy + ay * 0.55), (ax * 0.3, ay * 0.06))
    # light from one side, soft focus
    xs = np.linspace(-1, 1, W, dtype=np.float32)[None, :, None]
    img *= 1.0 + rng.uniform(-0.12, 0.12) * xs
    img = cv2.GaussianBlur(img, (0, 0), 0.1 * ppm)
    return np.clip(img, 0, 1)


def signature(sheet, rng, x, y, w, h, color):
    n = int(rng.integers(3, 6))
    pts = []
    t = np.linspace(0, 1, 160)
    xs = x + w * t
    ys = y + h * (0.5 + 0.35 * np.sin(t * np.pi * n * rng.uniform(1.5, 2.5) + rng.uniform(0, 6))
                  * np.exp(-t * rng.uniform(0, 1.5)))
    loops = 0.25 * h * np.sin(t * np.pi * 20 * rng.uniform(0.7, 1.3))
    pts.append(np.stack([xs + loops * 0.4, ys + loops], 1))
    pts.append(np.array([[x + w * 0.1, y + h * 0.95], [x + w * 0.9, y + h * 0.8]]))
    sheet.polylines(pts, color, 0.25, 0.85)


# ------------------------------------------------------------------ ID documents

LABELS = {
    "type": "Type / Type", "code": "Code / Code", "number": "Document No. / N\u00b0",
    "pnumber": "Passport No. / N\u00b0 du passeport", "surname": "Surname / Nom",
    "given": "Given names / Pr\u00e9noms", "nat": "Nationality / Nationalit\u00e9",
    "dob": "Date of birth / Date de naissance", "sex": "Sex / Sexe",
    "pob": "Place of birth / Lieu de naissance", "doi": "Date of issue / Date de d\u00e9livrance",
    "auth": "Authority / Autorit\u00e9", "doe": "Date of expiry / Date d'expiration",
    "sig": "Holder's signature / Signature du titulaire",
}


class DocImage:
    """A painted document side: texture, size, MRZ and the MRZ's character boxes."""

    def __init__(self, kind, side, texture, mrz, boxes, design_id, holder=None, layout="card"):
        self.kind, self.side, self.texture = kind, side, texture
        self.w_mm, self.h_mm = texture.w_mm, texture.h_mm
        self.mrz, self.boxes, self.design = mrz, boxes, design_id
        self.holder = holder
        self.layout = layout


def _field(s, design, x, y, label, value, w, lsize, vsize):
    s.fit_text(x, y, LABELS[label], design.label_font, lsize, design.label, w)
    s.fit_text(x, y + lsize * 1.15, value, design.value_font, vsize, design.ink, w)


def _header(s, design, v, title, w_mm, h_hdr):
    if design.header == 1:
        s.rect(0, 0, w_mm, h_hdr, design.accent, 0.92)
        col = rgb("#f4f4f0")
    elif design.header == 2:
        s.rect(0, 0, w_mm, h_hdr, design.p1, 0.35)
        col = design.accent
    else:
        col = design.accent
    s.fit_text(w_mm / 2, h_hdr * 0.42, v["state_name"], "sans-bold", h_hdr * 0.36, col,
               w_mm * 0.8, anchor="mm")
    s.fit_text(w_mm / 2, h_hdr * 0.8, title, "sans", h_hdr * 0.24, col, w_mm * 0.8, anchor="mm")


def _ghost(s, rng, design, por, x, y, w, h):
    g = cv2.resize(por, (int(w * PPM), int(h * PPM)), interpolation=cv2.INTER_AREA)
    gray = g.mean(axis=2)
    dark = np.clip(np.median(gray[:4]) - gray, 0, 1) / max(1e-3, np.median(gray[:4]))
    ink = np.ones(g.shape, np.float32) * (design.p1 * 0.6)
    s.paste(x, y, ink, alpha=np.clip(dark * 1.2, 0, 1), opacity=0.45)


def _mrz_pattern(s, rng, design, w, h, top):
    curves = []
    for i in range(14):
        yy = top + 1.0 + (h - top - 2.0) * i / 13
        curves.append(D.wave_band(0, w, yy, 0.9, rng.uniform(6, 11), i * 0.8, n=500))
    s.polylines(curves, design.p1, 0.12, 0.55)


def render_id(design, holder, side, rng):
    """TD1 front/back, TD2, TD3 data page."""
    kind = design.cls
    w, h = SIZES[kind]
    v = holder.viz()
    s = D.Sheet(w, h, PPM)
    s.img = design_background(design, side, w, h).copy()
    mrz = None
    if kind == "TD3":
        _header(s, design, v, "PASSPORT / PASSEPORT", w, 11.0)
        por = portrait(rng, 30, 38, design.portrait_bg)
        s.paste(4.0, 14.0, por)
        x, y, cw = 39.0, 13.0, w - 41.0
        ls, vs, rh = 1.45, 2.6, 6.8
        _field(s, design, x, y, "type", v["code"], 14, ls, vs)
        _field(s, design, x + 16, y, "code", v["state"], 20, ls, vs)
        _field(s, design, x + 40, y, "pnumber", v["number"], cw - 40, ls, vs)
        _field(s, design, x, y + rh, "surname", v["surname"], cw, ls, vs)
        _field(s, design, x, y + 2 * rh, "given", v["given"], cw, ls, vs)
        _field(s, design, x, y + 3 * rh, "nat", v["nationality"], cw, ls, vs)
        _field(s, design, x, y + 4 * rh, "dob", v["dob"], 30, ls, vs)
        _field(s, design, x + 33, y + 4 * rh, "sex", v["sex"], 10, ls, vs)
        _field(s, design, x + 45, y + 4 * rh, "pob", v["place"], cw - 45, ls, vs)
        _field(s, design, x, y + 5 * rh, "doi", v["issue"], 30, ls, vs)
        _field(s, design, x + 33, y + 5 * rh, "auth", v["authority"], cw - 33, ls, vs)
        _field(s, design, x, y + 6 * rh, "doe", v["expiry"], 30, ls, vs)
        s.fit_text(x + 33, y + 6 * rh, LABELS["sig"], design.label_font, ls, design.label, 40)
        signature(s, rng, x + 36, y + 6 * rh + 1.6, 30, 4.0, rgb("#1a2a6a"))
        if design.ghost:
            _ghost(s, rng, design, por, 104, 28, 17, 22)
        mtop = h - 23.2
    elif kind == "TD2":
        _header(s, design, v, "IDENTITY CARD / CARTE D'IDENTIT\u00c9", w, 9.5)
        por = portrait(rng, 26, 33, design.portrait_bg)
        s.paste(3.5, 11.0, por)
        x, y, cw = 33.0, 11.0, w - 35.0
        ls, vs, rh = 1.35, 2.5, 6.1
        _field(s, design, x, y, "surname", v["surname"], cw, ls, vs)
        _field(s, design, x, y + rh, "given", v["given"], cw, ls, vs)
        _field(s, design, x, y + 2 * rh, "sex", v["sex"], 9, ls, vs)
        _field(s, design, x + 11, y + 2 * rh, "nat", v["nat_code"], 24, ls, vs)
        _field(s, design, x + 37, y + 2 * rh, "dob", v["dob"], cw - 37, ls, vs)
        _field(s, design, x, y + 3 * rh, "number", v["number"], 30, ls, vs)
        _field(s, design, x + 33, y + 3 * rh, "doe", v["expiry"], cw - 33, ls, vs)
        signature(s, rng, x + 2, y + 4 * rh + 0.6, 28, 4.0, rgb("#1a2a6a"))
        if design.ghost:
            _ghost(s, rng, design, por, 88, 34, 13, 16)
        mtop = h - 23.2
    else:  # TD1
        if side == "front":
            _header(s, design, v, "IDENTITY CARD / CARTE D'IDENTIT\u00c9", w, 8.5)
            por = portrait(rng, 25, 32, design.portrait_bg)
            s.paste(3.0, 10.0, por)
            x, y, cw = 31.0, 10.0, w - 33.0
            ls, vs, rh = 1.25, 2.35, 5.8
            _field(s, design, x, y, "surname", v["surname"], cw, ls, vs)
            _field(s, design, x, y + rh, "given", v["given"], cw, ls, vs)
            _field(s, design, x, y + 2 * rh, "sex", v["sex"], 8, ls, vs)
            _field(s, design, x + 10, y + 2 * rh, "nat", v["nat_code"], 14, ls, vs)
            _field(s, design, x + 26, y + 2 * rh, "dob", v["dob"], cw - 26, ls, vs)
            _field(s, design, x, y + 3 * rh, "number", v["number"], 26, ls, vs)
            _field(s, design, x + 26, y + 3 * rh, "doe", v["expiry"], cw - 26, ls, vs)
            signature(s, rng, x + 1, y + 4 * rh + 1.0, 24, 4.5, rgb("#1a2a6a"))
            if design.ghost:
                _ghost(s, rng, design, por, 68, 37, 13, 15)
            can = "".join(str(int(rng.integers(10))) for _ in range(6))
            s.text(w - 3.0, h - 2.5, can, "ocrb", 2.6, design.ink, anchor="rs")
        else:
            # Zone VI: optional data
            x, y, cw = 4.0, 3.0, w - 8.0
            ls, vs = 1.2, 2.1
            s.fit_text(x, y, "Address / Adresse", design.label_font, ls, design.label, cw)
            s.fit_text(x, y + 1.5, "%d %s STREET, %s" % (int(rng.integers(1, 300)), word(rng, 2, 3),
                                                         v["place"]), design.value_font, vs, design.ink, cw * 0.7)
            s.fit_text(x, y + 5.2, "Place of birth / Lieu de naissance", design.label_font, ls, design.label, cw)
            s.fit_text(x, y + 6.7, v["place"], design.value_font, vs, design.ink, cw * 0.6)
            s.fit_text(x, y + 10.4, "Date of issue / Date de d\u00e9livrance", design.label_font, ls,
                       design.label, cw * 0.6)
            s.fit_text(x, y + 11.9, v["issue"], design.value_font, vs, design.ink, cw * 0.6)
            s.fit_text(x + 42, y + 10.4, "Authority / Autorit\u00e9", design.label_font, ls, design.label, 35)
            s.fit_text(x + 42, y + 11.9, v["authority"], design.value_font, vs * 0.85, design.ink, 36)
            # a chip-like symbol
            s.rect(w - 16, 3.5, w - 5, 11.5, rgb("#c9a24a"), 0.9)
            s.polylines([np.array([[w - 16, 7.5], [w - 5, 7.5]]), np.array([[w - 10.5, 3.5], [w - 10.5, 11.5]])],
                        rgb("#7a5a20"), 0.2, 0.8)
        mtop = h - 23.3
    if kind != "TD1" or side == "back":
        mrz = holder.mrz
        if design.mrz_pattern:
            _mrz_pattern(s, rng, design, w, h, mtop)
        draw_mrz(s, kind, mrz, design.ink)
    img = s.result()
    alpha = D.rounded_alpha(s.W, s.H, 3.18 * PPM)
    tex = texture_from(img, alpha, w, h)
    boxes = mrz_boxes(kind, mrz, w, h) if mrz else None
    return DocImage(kind, side if kind == "TD1" else "data", tex, mrz, boxes, design.id, holder,
                    layout="card" if kind in ("TD1", "TD2") else "loose")


# ------------------------------------------------------------------ booklet pieces

FACING_TEXT = [
    "THE BEARER OF THIS PASSPORT IS A CITIZEN OF THE ISSUING STATE.",
    "THIS DOCUMENT REMAINS THE PROPERTY OF THE ISSUING AUTHORITY.",
    "ANY ALTERATION RENDERS IT INVALID. KEEP IT IN A SAFE PLACE.",
    "THE HOLDER IS REQUESTED TO CARRY IT WHEN TRAVELLING ABROAD.",
    "IN CASE OF LOSS INFORM THE NEAREST CONSULAR OFFICE AT ONCE.",
]


def stamp(rng, ppm=PPM):
    """A rubber-stamp impression as (rgb, alpha) float arrays and its size in mm."""
    ink = rgb(["#23308a", "#5a2a7a", "#8a1f2a", "#1f5a3a", "#202020"][int(rng.integers(5))])
    rnd = rng.random() < 0.5
    if rnd:
        d = rng.uniform(26, 38)
        w_mm = h_mm = d
    else:
        w_mm, h_mm = rng.uniform(34, 50), rng.uniform(20, 28)
    s = D.Sheet(w_mm, h_mm, ppm, color=(0, 0, 0))
    white = (1, 1, 1)
    lines = [word(rng, 2, 3), "%02d %s %d" % (int(rng.integers(1, 29)),
                                             ["JAN", "MAR", "MAY", "JUL", "SEP", "NOV"][int(rng.integers(6))],
                                             int(rng.integers(2017, 2025))),
             ["ARRIVAL", "DEPARTURE", "ENTRY", "EXIT", "ADMITTED"][int(rng.integers(5))]]
    if rnd:
        t = np.linspace(0, 2 * np.pi, 200)
        c = d / 2
        s.polylines([np.stack([c + (c - 0.8) * np.cos(t), c + (c - 0.8) * np.sin(t)], 1),
                     np.stack([c + (c - 3.2) * np.cos(t), c + (c - 3.2) * np.sin(t)], 1)], white, 0.5, 1.0)
        s.fit_text(c, c - 3.5, lines[2], "sans-bold", 2.6, white, d * 0.6, anchor="mm")
        s.fit_text(c, c + 0.5, lines[1], "mono-bold", 2.8, white, d * 0.7, anchor="mm")
        s.fit_text(c, c + 4.5, lines[0], "sans", 2.2, white, d * 0.55, anchor="mm")
    else:
        s.polylines([np.array([[0.8, 0.8], [w_mm - 0.8, 0.8], [w_mm - 0.8, h_mm - 0.8], [0.8, h_mm - 0.8]])],
                    white, 0.5, 1.0, closed=True)
        s.fit_text(w_mm / 2, h_mm * 0.28, lines[2], "sans-bold", 3.0, white, w_mm * 0.8, anchor="mm")
        s.fit_text(w_mm / 2, h_mm * 0.55, lines[1], "mono-bold", 3.2, white, w_mm * 0.85, anchor="mm")
        s.fit_text(w_mm / 2, h_mm * 0.8, lines[0] + " " + str(int(rng.integers(10, 99))), "sans", 2.4,
                   white, w_mm * 0.8, anchor="mm")
    a = s.result()[..., 0]
    speck = D.value_noise(rng, s.H, s.W, 0.6 * ppm, 2)
    a = a * np.clip((speck - 0.25) * 2.2, 0, 1) * rng.uniform(0.55, 0.85)
    col = np.ones_like(s.img) * ink
    return col, a, w_mm, h_mm


def render_visa(rng, holder, ppm=PPM):
    """An MRV-A visa sticker (120 x 80 mm) with its own 2 x 44 MRZ."""
    w, h = SIZES["MRVA"]
    v = holder.viz()
    s = D.Sheet(w, h, ppm)
    c1 = rgb(["#f3e9d2", "#e3eef0", "#efe3ee", "#e6f0df"][int(rng.integers(4))])
    c2 = c1 * np.array([0.93, 0.95, 0.97], np.float32)
    s.gradient(c1, c2, rng.uniform(0, 180))
    pc = rgb(["#a0785a", "#5a8aa0", "#a05a8a", "#6a9a5a"][int(rng.integers(4))])
    D.guilloche_field(s, rng, (0, 0, w, h), pc, 0.3, ["waves", "rosettes", "rings"][int(rng.integers(3))])
    s.fit_text(w / 2, 5.5, "VISA  " + v["state_name"], "sans-bold", 4.0, pc * 0.5, w * 0.85, anchor="mm")
    por = portrait(rng, 24, 30, "#eeeeea", ppm)
    s.paste(4, 11, por)
    lab, ink = pc * 0.45, rgb("#111111")
    rows = [("Valid from", v["issue"]), ("Until", v["expiry"]), ("Type of visa", "C  MULT"),
            ("Surname, given names", v["surname"] + ", " + v["given"]),
            ("Passport No.", v["number"]), ("Remarks", word(rng, 2, 3) + " " + word(rng, 2, 3))]
    for i, (l, val) in enumerate(rows):
        y = 11 + i * 6.4
        s.fit_text(32, y, l, "sans", 1.4, lab, 80)
        s.fit_text(32, y + 1.7, val, "sans-bold", 2.5, ink, 84)
    _ = [s.polylines([D.wave_band(0, w, h - 23.2 + 1 + i * 1.6, 0.7, 8, i)], pc, 0.1, 0.4) for i in range(13)]
    draw_mrz(s, "MRVA", holder.mrz, ink)
    img = s.result()
    alpha = D.rounded_alpha(s.W, s.H, 2.0 * ppm)
    return img, alpha.astype(np.float32) / 255.0


def render_facing(rng, data_design, visa_holder=None, n_stamps=0, visa_upright=False):
    """The booklet's upper page (125 x 88), in the same reading orientation as the data page.
    Returns (DocImage-like texture, decoy lines or None)."""
    w, h = SIZES["TD3"]
    s = D.Sheet(w, h, PPM)
    paper = rgb(["#f2efe4", "#eef1ea", "#f1ecef", "#eceef3"][int(rng.integers(4))])
    s.gradient(paper, paper * 0.96, rng.uniform(0, 180))
    n = D.value_noise(rng, s.H, s.W, 2.0 * PPM, 3)
    s.img *= (0.975 + 0.05 * n)[..., None]
    D.guilloche_field(s, rng, (0, 0, w, h), data_design.p1, 0.22, PATTERNS[int(rng.integers(len(PATTERNS)))])
    D.emblem(s, w / 2, h / 2, 22, data_design.p2, 0.12, int(rng.integers(4)))
    kind = int(rng.integers(3))
    ink = data_design.label
    if kind == 0:
        s.text(w / 2, 8, "OBSERVATIONS", "sans-bold", 3.2, ink, anchor="mm")
        for i in range(8):
            y = 16 + i * 8.5
            s.polylines([np.array([[8, y], [w - 8, y]])], ink, 0.15, 0.5)
    elif kind == 1:
        for i, line in enumerate(FACING_TEXT):
            s.fit_text(8, 10 + i * 6, line, "serif", 2.2, ink, w - 16)
        for i, line in enumerate(FACING_TEXT[:3]):
            s.fit_text(8, 48 + i * 6, line.lower().capitalize(), "serif", 2.0, ink * 0.9, w - 16)
    else:
        s.text(w / 2, 8, "VISAS", "sans-bold", 3.6, ink, anchor="mm")
    s.text(w - 6, h - 4, str(int(rng.integers(2, 30))), "sans", 2.6, ink, anchor="rs")
    decoy = None
    if visa_holder is not None:
        vimg, va = render_visa(rng, visa_holder)
        vb = mrz_boxes("MRVA", visa_holder.mrz, *SIZES["MRVA"])
        vw, vh = SIZES["MRVA"]
        if not visa_upright:
            vimg, va = vimg[::-1, ::-1], va[::-1, ::-1]
            # MRZ along the page's outer (upper) edge
            s.paste(2.5, 2.0, vimg, alpha=va)
            vb = np.stack([vw - vb[:, 2], vh - vb[:, 3], vw - vb[:, 0], vh - vb[:, 1]], 1) + [2.5, 2.0, 2.5, 2.0]
        else:
            s.paste(2.5, h - 80 - 4.5, vimg, alpha=va)
            vb = vb + [2.5, h - 84.5, 2.5, h - 84.5]
        decoy = (list(visa_holder.mrz), vb.astype(np.float32))
    for _ in range(n_stamps):
        col, a, sw, sh = stamp(rng)
        ang = rng.uniform(-35, 35)
        M = cv2.getRotationMatrix2D((col.shape[1] / 2, col.shape[0] / 2), ang, 1.0)
        big = int(np.hypot(*col.shape[:2])) + 2
        M[0, 2] += (big - col.shape[1]) / 2
        M[1, 2] += (big - col.shape[0]) / 2
        a2 = cv2.warpAffine(a, M, (big, big))
        c2 = cv2.warpAffine(col, M, (big, big))
        x = rng.uniform(-5, w - big / PPM + 5)
        y = rng.uniform(-5, h - big / PPM + 5)
        s.paste(x, y, c2, alpha=a2, mode="multiply")
    img = s.result()
    alpha = D.rounded_alpha(s.W, s.H, 3.18 * PPM)
    return texture_from(img, alpha, w, h), decoy


COVERS = {"red": "#5c1a20", "blue": "#1b2647", "green": "#1c3a2a", "black": "#171717"}


def cover_texture(rng, color_name, w_mm, h_mm, ppm=4.0):
    s = D.Sheet(w_mm, h_mm, ppm)
    c = rgb(COVERS[color_name])
    s.img[:] = c
    n = D.value_noise(rng, s.H, s.W, 0.5 * ppm, 3)
    s.img *= (0.85 + 0.3 * n)[..., None]
    img = s.result()
    alpha = D.rounded_alpha(s.W, s.H, 4.0 * ppm)
    return texture_from(img, alpha, w_mm, h_mm)


def paper_edge_texture(rng, w_mm, h_mm, ppm=4.0):
    s = D.Sheet(w_mm, h_mm, ppm)
    s.img[:] = rgb("#e4e0d4")
    ys = np.arange(s.H, dtype=np.float32)
    s.img *= (0.93 + 0.05 * np.sin(ys * 2.7))[:, None, None]
    alpha = D.rounded_alpha(s.W, s.H, 3.0 * ppm)
    return texture_from(s.result(), alpha, w_mm, h_mm)


# ------------------------------------------------------------------ other things

def lorem(rng, n_words):
    return " ".join(word(rng, 1, 3).lower() for _ in range(n_words))


def text_page(rng, w_mm=148.0, h_mm=210.0, ppm=6.0):
    s = D.Sheet(w_mm, h_mm, ppm, color=rgb(["#f7f6f1", "#fbfbf8", "#f3f0e6"][int(rng.integers(3))]))
    ink = rgb("#151515")
    y = 16.0
    s.fit_text(14, y, lorem(rng, 4).title(), "serif-bold", 6.0, ink, w_mm - 28)
    y += 12
    size = rng.uniform(2.6, 3.4)
    while y < h_mm - 16:
        if rng.random() < 0.12:
            y += size * 1.2
            s.fit_text(14, y, lorem(rng, 3).title(), "sans-bold", size * 1.15, ink, w_mm - 28)
            y += size * 1.8
            continue
        line = lorem(rng, 12)
        s.fit_text(14, y, line.capitalize(), "serif", size, ink, w_mm - 28)
        y += size * 1.45
    s.text(w_mm / 2, h_mm - 8, str(int(rng.integers(1, 300))), "serif", 3, ink, anchor="mm")
    img = s.result()
    alpha = np.full((s.H, s.W), 255, np.uint8)
    return texture_from(img, alpha, w_mm, h_mm)


def phone(rng, ppm=6.0):
    w_mm, h_mm = rng.uniform(68, 78), rng.uniform(140, 162)
    s = D.Sheet(w_mm, h_mm, ppm, color=rgb("#121214"))
    on = rng.random() < 0.6
    if on:
        scr = D.Sheet(w_mm - 6, h_mm - 12, ppm)
        scr.gradient(rgb(["#2a4a8a", "#8a3a5a", "#2a7a6a", "#6a5a9a"][int(rng.integers(4))]),
                     rgb("#101830"), rng.uniform(0, 180))
        for i in range(4):
            for j in range(5):
                c = rgb(["#e0e0e0", "#f0a030", "#30a0f0", "#40c060", "#f05050"][int(rng.integers(5))])
                scr.rect(5 + i * 15, 20 + j * 18, 15 + i * 15, 30 + j * 18, c, 0.9)
        s.paste(3, 6, scr.result())
    else:
        s.rect(3, 6, w_mm - 3, h_mm - 6, rgb("#050507"), 1.0)
    t = np.linspace(0, 1, s.W, dtype=np.float32)[None, :, None]
    s.img += 0.06 * np.exp(-((t - 0.3) / 0.08) ** 2)
    alpha = D.rounded_alpha(s.W, s.H, 8.0 * ppm)
    return texture_from(s.result(), alpha, w_mm, h_mm)


def book(rng, ppm=5.0):
    w_mm, h_mm = rng.uniform(125, 160), rng.uniform(190, 235)
    s = D.Sheet(w_mm, h_mm, ppm)
    c = rgb(["#7a2a2a", "#2a4a7a", "#d8c8a0", "#3a6a4a", "#e8e0d0", "#222222"][int(rng.integers(6))])
    s.gradient(c, c * 0.8, rng.uniform(0, 180))
    ink = rgb("#f0f0e8") if c.mean() < 0.5 else rgb("#202020")
    s.fit_text(w_mm / 2, h_mm * 0.2, lorem(rng, 3).upper(), "serif-bold", 9, ink, w_mm * 0.8, anchor="mm")
    s.fit_text(w_mm / 2, h_mm * 0.3, lorem(rng, 2).title(), "sans", 5, ink, w_mm * 0.7, anchor="mm")
    D.emblem(s, w_mm / 2, h_mm * 0.6, w_mm * 0.25, ink, 0.6, int(rng.integers(4)))
    s.rect(0, 0, 6, h_mm, c * 0.6, 1.0)
    alpha = D.rounded_alpha(s.W, s.H, 1.5 * ppm)
    return texture_from(s.result(), alpha, w_mm, h_mm)


def photo_print(rng, photo, ppm=5.0):
    """A photograph print with a white border; `photo` is a float RGB image."""
    landscape = photo.shape[1] >= photo.shape[0]
    w_mm, h_mm = (150.0, 100.0) if landscape else (100.0, 150.0)
    s = D.Sheet(w_mm, h_mm, ppm, color=rgb("#f4f4f0"))
    b = 4.0 if rng.random() < 0.6 else 0.0
    iw, ih = int((w_mm - 2 * b) * ppm), int((h_mm - 2 * b) * ppm)
    im = cv2.resize(photo, (iw, ih), interpolation=cv2.INTER_CUBIC)
    s.paste(b, b, np.clip(im, 0, 1))
    alpha = D.rounded_alpha(s.W, s.H, 1.0 * ppm)
    return texture_from(s.result(), alpha, w_mm, h_mm)
