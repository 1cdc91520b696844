"""Fictional document pages drawn at 10 px/mm: TD1 card front and back, TD2 and TD3 data pages.

A page is a pure function of (class, side, seed, template): check.py draws the same page
again to verify the corners recorded for a scene. Geometry follows ICAO Doc 9303 Parts 4-6
(nominal values; see docs/vision-data.md): ID-1 85.6 x 53.98 mm, ID-2 105 x 74 mm,
ID-3 125 x 88 mm; MRZ in OCR-B at a 2.54 mm character pitch, at the bottom of the page
in a clear zone.
"""
import random

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

import mrzgen

PX_PER_MM = 10
OCRB = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
DEJAVU_SERIF_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"

# Page size in mm of each class (ISO/IEC 7810 ID-1, ID-2, ID-3).
SIZE_MM = {"TD1": (85.6, 53.98), "TD2": (105.0, 74.0), "TD3": (125.0, 88.0)}
# Pixel size of the page at 10 px/mm, as the contract's crops have it.
SIZE_PX = {"TD1": (856, 540), "TD2": (1050, 740), "TD3": (1250, 880)}
MRZ_PITCH_MM = 2.54
# Nominal OCR-B size I character height.
MRZ_CAP_MM = 2.42
# Reference centre lines of the MRZ lines in mm from the bottom edge, top line first,
# and the left edge of the first character in mm from the left edge. Doc 9303 Part 4
# Figure 3: a TD3's lines are centred in printing zones 7.25-11.55 and 13.6-17.9 mm above
# the bottom edge (9.40 and 15.75 mm, 6.35 mm apart); Part 6's TD2 zone conforms to it.
# First character: TD3 6.0, TD1 5.0, TD2 4.0 mm (+-1.0, Parts 4-6 4.2.1.3). A TD1's three
# lines are 4.23 mm apart, centred in its 17.78 mm zone (no figure value was at hand).
MRZ_LINES_MM = {"TD1": (13.12, 8.89, 4.66), "TD2": (15.75, 9.40), "TD3": (15.75, 9.40)}
MRZ_LEFT_MM = {"TD1": 5.0, "TD2": 4.0, "TD3": 6.0}
# Height of the clear zone the MRZ is printed in, from the bottom edge.
MRZ_ZONE_MM = {"TD1": 17.78, "TD2": 23.2, "TD3": 23.2}
CARD_CORNER_RADIUS_MM = 3.18

# Page colour schemes: base tint top, base tint bottom, guilloche 1, guilloche 2, accent.
PALETTES = [
    ((236, 228, 244), (222, 236, 246), (170, 140, 200), (120, 170, 210), (70, 40, 120)),
    ((246, 236, 220), (250, 244, 228), (220, 160, 110), (190, 190, 120), (140, 60, 20)),
    ((224, 240, 230), (236, 246, 236), (110, 180, 140), (160, 200, 120), (20, 90, 60)),
    ((246, 226, 228), (240, 236, 244), (220, 130, 150), (170, 140, 200), (130, 20, 40)),
    ((226, 236, 250), (244, 244, 236), (100, 140, 210), (200, 170, 110), (20, 40, 110)),
    ((240, 240, 226), (226, 238, 238), (170, 170, 100), (100, 170, 170), (60, 70, 20)),
    # Darker schemes (the field scenes' designs only): teal, slate, ochre, grey-green.
    ((168, 208, 204), (190, 222, 216), (70, 140, 140), (110, 170, 160), (10, 70, 70)),
    ((176, 186, 200), (196, 204, 214), (90, 104, 130), (130, 140, 170), (30, 40, 70)),
    ((222, 196, 140), (234, 214, 166), (170, 120, 50), (190, 150, 80), (100, 60, 10)),
    ((184, 198, 176), (204, 214, 196), (110, 134, 100), (140, 160, 120), (40, 60, 30)),
]
# Templates each split may use: heldout pages have colour schemes never trained on.
TEMPLATES = {"train": (0, 1, 2, 3), "dev": (0, 1, 2, 3), "heldout": (4, 5)}

# Page headers: (country x mm, y mm, px), (title, x mm, y mm, px).
HEADERS = {
    ("TD3", "data"): ((6, 3, 42), ("PASSPORT", 80, 4, 34)),
    ("TD2", "data"): ((5, 3, 40), ("IDENTITY CARD", 50, 4, 30)),
    ("TD1", "front"): ((3.5, 2.5, 36), ("IDENTITY CARD", 45, 3.5, 26)),
}

_fonts = {}
_templates = {}


def font(path, px):
    key = (path, int(round(px)))
    if key not in _fonts:
        _fonts[key] = ImageFont.truetype(path, key[1])
    return _fonts[key]


def mm(v):
    return int(round(v * PX_PER_MM))


def _guilloche(cls, side, template):
    """The printed background of a template: tints, wave lines and rosettes (cached)."""
    key = (cls, side, template)
    if key in _templates:
        return _templates[key]
    w, h = SIZE_PX[cls]
    top, bottom, g1, g2, accent = PALETTES[template]
    rng = np.random.default_rng(1000 + template * 10 + ("TD1", "TD2", "TD3").index(cls) * 3 + ("front", "back", "data").index(side))
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img = (np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t) * np.ones((1, w, 1), np.float32)
    img = img.astype(np.uint8)
    xs = np.arange(0, w + 8, 4, dtype=np.float32)
    wavelength = rng.uniform(90, 180)
    for k in range(0, h + 60, 7):
        phase = k * 0.045
        amp = 10 + 6 * np.sin(k * 0.013)
        ys = k + amp * np.sin(2 * np.pi * xs / wavelength + phase) + 4 * np.sin(2 * np.pi * xs / 37 + phase * 2)
        pts = np.stack([xs, ys], 1).astype(np.int32)
        cv2.polylines(img, [pts], False, g1 if k % 14 else g2, 1, cv2.LINE_AA)
    for _ in range(2):
        cx, cy = rng.uniform(0.25, 0.85) * w, rng.uniform(0.25, 0.75) * h
        big, small = rng.uniform(0.18, 0.3) * h, rng.uniform(0.03, 0.07) * h
        ts = np.linspace(0, 2 * np.pi * 23, 6000, dtype=np.float32)
        for d in (0.6, 0.9, 1.2):
            rd = small * d
            x = cx + (big - small) * np.cos(ts) + rd * np.cos((big - small) / small * ts)
            y = cy + (big - small) * np.sin(ts) - rd * np.sin((big - small) / small * ts)
            cv2.polylines(img, [np.stack([x, y], 1).astype(np.int32)], False, g2, 1, cv2.LINE_AA)
    # Soften the pattern towards the base tint: a security print is faint.
    base = (np.array(top, np.float32) + np.array(bottom, np.float32)) / 2
    img = (img.astype(np.float32) * 0.55 + base * 0.45).astype(np.uint8)
    _templates[key] = img
    return img


def draw_face(rng, w, h, grey=False):
    """A drawn portrait: backdrop, shoulders, neck, head, hair, eyes, brows, nose, mouth."""
    backdrop = tuple(int(v) for v in rng.choice([(222, 226, 232), (210, 220, 236), (236, 234, 226), (228, 232, 228)]))
    img = np.full((h, w, 3), backdrop, np.uint8)
    skins = [(241, 205, 180), (224, 172, 138), (198, 140, 100), (150, 100, 70), (110, 72, 50), (232, 190, 160)]
    skin = skins[rng.randrange(len(skins))]
    hair = [(30, 25, 20), (80, 50, 30), (150, 110, 60), (200, 170, 110), (120, 120, 120), (60, 40, 35)][rng.randrange(6)]
    cloth = [(40, 50, 80), (60, 60, 60), (120, 30, 40), (30, 80, 60), (200, 200, 205)][rng.randrange(5)]
    cx = w // 2 + rng.randint(-w // 20, w // 20)
    head_w, head_h = int(w * rng.uniform(0.27, 0.33)), int(h * rng.uniform(0.27, 0.32))
    head_cy = int(h * 0.43)
    cv2.ellipse(img, (cx, h + int(h * 0.06)), (int(w * 0.55), int(h * 0.3)), 0, 0, 360, cloth, -1, cv2.LINE_AA)
    cv2.rectangle(img, (cx - head_w // 2, head_cy), (cx + head_w // 2, int(h * 0.82)), skin, -1)
    cv2.ellipse(img, (cx, int(h * 0.8)), (head_w // 2 + 2, int(h * 0.05)), 0, 0, 180, skin, -1, cv2.LINE_AA)
    long_hair = rng.random() < 0.4
    if long_hair:
        cv2.ellipse(img, (cx, head_cy + head_h // 3), (int(head_w * 1.25), int(head_h * 1.2)), 0, 180, 360, hair, -1, cv2.LINE_AA)
        cv2.rectangle(img, (cx - int(head_w * 1.25), head_cy + head_h // 3), (cx + int(head_w * 1.25), head_cy + int(head_h * 1.1)), hair, -1)
    cv2.ellipse(img, (cx, head_cy), (head_w, head_h), 0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.ellipse(img, (cx - head_w, head_cy + 4), (head_w // 7, head_h // 5), 0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.ellipse(img, (cx + head_w, head_cy + 4), (head_w // 7, head_h // 5), 0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.ellipse(img, (cx, head_cy - head_h // 3), (int(head_w * 1.04), int(head_h * 0.72)), 0, 180, 360, hair, -1, cv2.LINE_AA)
    eye_y = head_cy - head_h // 10
    dx = int(head_w * 0.42)
    shade = tuple(int(c * 0.55) for c in skin)
    for sx in (-1, 1):
        ex = cx + sx * dx
        cv2.ellipse(img, (ex, eye_y), (head_w // 6, head_h // 14), 0, 0, 360, (245, 245, 240), -1, cv2.LINE_AA)
        cv2.circle(img, (ex, eye_y), max(2, head_h // 16), (50, 40, 35), -1, cv2.LINE_AA)
        cv2.line(img, (ex - head_w // 6, eye_y - head_h // 6), (ex + head_w // 6, eye_y - head_h // 6 - 2), hair, max(2, h // 80), cv2.LINE_AA)
    cv2.line(img, (cx, eye_y + 4), (cx - head_w // 10, head_cy + head_h // 4), shade, max(1, h // 120), cv2.LINE_AA)
    cv2.ellipse(img, (cx, head_cy + int(head_h * 0.52)), (head_w // 3, head_h // 10), 0, 10, 170, (150, 70, 70), max(2, h // 90), cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    if grey:
        g = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        img = np.dstack([g, g, g])
    return img


def _field(draw, x, y, label, value, size_mm=2.6, label_color=(60, 60, 90)):
    draw.text((mm(x), mm(y)), label, font=font(DEJAVU, 1.5 * PX_PER_MM), fill=label_color)
    draw.text((mm(x), mm(y + 1.9)), value, font=font(DEJAVU_BOLD, size_mm * PX_PER_MM), fill=(25, 25, 35))


def _date(d):
    months = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
    return "%02d %s %04d" % (d[2], months[d[1] - 1], d[0])


def mrz_geometry(cls, jitter=(0.0, 0.0)):
    """Where the MRZ characters go: (left x px, [centre y px per line], pitch px)."""
    h_mm = SIZE_MM[cls][1]
    left = (MRZ_LEFT_MM[cls] + jitter[0]) * PX_PER_MM
    ys = [(h_mm - c + jitter[1]) * PX_PER_MM for c in MRZ_LINES_MM[cls]]
    return left, ys, MRZ_PITCH_MM * PX_PER_MM


def _draw_mrz(draw, cls, lines, jitter, cap_mm=MRZ_CAP_MM):
    left, ys, pitch = mrz_geometry(cls, jitter)
    f = font(OCRB, cap_mm * PX_PER_MM / 0.72)  # OCR-B's capitals are 0.72 em tall
    cap = cap_mm * PX_PER_MM
    for line, yc in zip(lines, ys):
        baseline = yc + cap / 2
        for i, c in enumerate(line):
            draw.text((left + i * pitch, baseline), c, font=f, fill=(18, 18, 24), anchor="ls")


def _clear_zone(img, cls):
    zone = mm(MRZ_ZONE_MM[cls])
    img[-zone:] = (img[-zone:].astype(np.float32) * 0.35 + 255 * 0.65).astype(np.uint8)


def render(cls, side, seed, template, given_mrz=None, design=None, geometry=None):
    """Draws one page; given_mrz: the TD3 lines to print instead of a generated holder's.

    design (the field scenes' page designs; None draws the page exactly as before): a dict
    with `clear_zone` (False: the security print goes on under the MRZ), `cap_mm` (the
    MRZ's cap height), `mrz_dx`, `mrz_dy` (mm added to the MRZ's position, within ICAO's
    tolerance) and `ghost` (a faint ghost portrait on every side). geometry: a dict that
    receives where the MRZ went (`left_px`, `ys_px` line centres, `pitch_px`, `cap_px`,
    at PX_PER_MM), for labels that need the character cells.

    Returns (RGB uint8 array at 10 px/mm, alpha uint8 array, MRZ lines or None).
    """
    rng = random.Random(seed)
    person = mrzgen.GivenTD3(given_mrz, random.Random(seed)) if given_mrz else mrzgen.holder(seed)
    w, h = SIZE_PX[cls]
    img = _guilloche(cls, side, template).copy()
    accent = PALETTES[template][4]
    mrz = person.mrz(cls) if (cls != "TD1" or side == "back") else None
    if mrz is not None and (design is None or design.get("clear_zone", True)):
        _clear_zone(img, cls)
    grey_photo = rng.random() < 0.25
    if side in ("front", "data"):
        if cls == "TD3":
            photo_box = (6, 16, 35, 45)
        elif cls == "TD2":
            photo_box = (5, 14, 28, 36)
        else:
            photo_box = (3.5, 11, 25, 32)
        px, py, pw, ph = photo_box
        face = draw_face(rng, mm(pw), mm(ph), grey_photo)
        img[mm(py):mm(py) + face.shape[0], mm(px):mm(px) + face.shape[1]] = face
    pil = Image.fromarray(img)
    draw = ImageDraw.Draw(pil)
    country = {"UTO": "UTOPIA", "XQA": "QUALIA", "XQB": "QUBERIA", "ZZQ": "ZANQUA"}.get(person.state, person.state.strip("<"))
    header = HEADERS.get((cls, side))
    if header:
        (cx, cy, csize), (title, tx, ty, tsize) = header
        draw.text((mm(cx), mm(cy)), ("REPUBLIC OF " if cls == "TD3" else "") + country, font=font(DEJAVU_SERIF_BOLD, csize), fill=accent)
        draw.text((mm(tx), mm(ty)), title, font=font(DEJAVU_BOLD, tsize), fill=accent)
    if cls == "TD3":
        fields = [
            (45, 15, "Type", "P"), (60, 15, "Code", person.state), (82, 15, "Passport No.", person.number),
            (45, 22, "Surname", person.surname), (45, 29, "Given names", person.given),
            (45, 36, "Nationality", country), (45, 43, "Date of birth", _date(person.birth)),
            (95, 43, "Sex", person.sex), (45, 50, "Place of birth", person.place),
            (45, 57, "Date of issue", _date(person.issue)), (85, 57, "Date of expiry", _date(person.expiry)),
        ]
    elif cls == "TD2":
        fields = [
            (37, 13, "Surname", person.surname), (37, 20, "Given names", person.given),
            (37, 27, "Date of birth", _date(person.birth)), (75, 27, "Sex", person.sex),
            (37, 34, "Document No.", person.number), (75, 34, "Nationality", person.nationality),
            (37, 41, "Date of expiry", _date(person.expiry)),
        ]
    elif side == "front":
        fields = [
            (31, 10.5, "Surname", person.surname), (31, 17, "Given names", person.given),
            (31, 23.5, "Date of birth", _date(person.birth)), (66, 23.5, "Sex", person.sex),
            (31, 30, "Nationality", person.nationality), (50, 30, "Date of expiry", _date(person.expiry)),
            (31, 36.5, "Document No.", person.number),
        ]
        can = "".join(str(rng.randrange(10)) for _ in range(6))
        draw.text((mm(70), mm(47)), can, font=font(DEJAVU_BOLD, 26), fill=(25, 25, 35))
        # The signature: a pen scribble under the photo.
        sx = np.linspace(mm(6), mm(26), 60)
        sy = mm(47) + 8 * np.sin(sx / rng.uniform(5, 12)) + 4 * np.sin(sx / 3.1)
        draw.line(list(zip(sx.tolist(), sy.tolist())), fill=(30, 40, 110), width=3)
    else:
        draw.text((mm(3.5), mm(2.5)), country, font=font(DEJAVU_BOLD, 24), fill=accent)
        fields = [
            (3.5, 7, "Address", "%d %s STREET" % (rng.randint(1, 200), mrzgen._word(rng, 2, 3))),
            (3.5, 13.5, "Height", "%d cm" % rng.randint(150, 200)), (25, 13.5, "Eyes", rng.choice(("BROWN", "BLUE", "GREEN", "GREY"))),
            (3.5, 20, "Authority", "CITY OF " + person.place), (45, 20, "Date of issue", _date(person.issue)),
        ]
        ghost = draw_face(rng, mm(14), mm(18), True)
        ghost = (ghost.astype(np.float32) * 0.35 + 255 * 0.65).astype(np.uint8)
        pil.paste(Image.fromarray(ghost), (mm(68), mm(6)))
    for x, y, label, value in fields:
        _field(draw, x, y, label, value, 2.4 if cls == "TD1" else 2.6)
    if cls == "TD3":
        ghost = draw_face(rng, mm(17), mm(22), True)
        ghost = (ghost.astype(np.float32) * 0.3 + 255 * 0.7).astype(np.uint8)
        pil.paste(Image.fromarray(ghost), (mm(104), mm(34)))
    elif design is not None and design.get("ghost") and side != "back":
        # A faint ghost portrait at the right edge of a card's visual zone.
        gw, gh = (mm(13), mm(17)) if cls == "TD1" else (mm(16), mm(21))
        ghost = draw_face(rng, gw, gh, True)
        ghost = (ghost.astype(np.float32) * 0.3 + 255 * 0.7).astype(np.uint8)
        gx, gy = w - gw - mm(3), mm(9 if cls == "TD1" else 12)
        under = np.asarray(pil.crop((gx, gy, gx + gw, gy + gh)))
        pil.paste(Image.fromarray(np.minimum(under, ghost)), (gx, gy))  # printed over the pattern
    if mrz is not None:
        jitter = (rng.uniform(-0.6, 0.6), rng.uniform(-0.5, 0.5))
        cap_mm = MRZ_CAP_MM
        if design is not None:
            jitter = (jitter[0] + design.get("mrz_dx", 0.0), jitter[1] + design.get("mrz_dy", 0.0))
            cap_mm = design.get("cap_mm", MRZ_CAP_MM)
        _draw_mrz(draw, cls, mrz, jitter, cap_mm)
        if geometry is not None:
            left, ys, pitch = mrz_geometry(cls, jitter)
            geometry.update({"left_px": left, "ys_px": list(ys), "pitch_px": pitch, "cap_px": cap_mm * PX_PER_MM})
    img = np.asarray(pil).copy()
    alpha = np.full((h, w), 255, np.uint8)
    if cls in ("TD1", "TD2"):
        r = mm(CARD_CORNER_RADIUS_MM)
        corner = np.zeros((r, r), np.uint8)
        cv2.circle(corner, (r, r), r, 255, -1, cv2.LINE_AA)
        alpha[:r, :r] = corner
        alpha[:r, -r:] = corner[:, ::-1]
        alpha[-r:, :r] = corner[::-1, :]
        alpha[-r:, -r:] = corner[::-1, ::-1]
    return img, alpha, mrz
