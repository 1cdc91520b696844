"""Platen surfaces of the field scenes: six kinds, several variants each, drawn or made
from photographs shipped by Debian packages (python3-skimage, opencv-doc; see
docs/vision-data.md, "Field scenes"). A surface is a pure function of (variant, size).
"""
import math
import random

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

import mrzgen
import pages
import station

SK, CV = station.SKIMAGE_DATA, station.OPENCV_DATA
DEJAVU_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
DEJAVU_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

# Photographs without people (no human face anywhere in them).
PHOTOS_A = [CV + "fruits.jpg", CV + "orange.jpg", CV + "apple.jpg", CV + "smarties.png"]
PHOTOS_B = [CV + "building.jpg", CV + "starry_night.jpg", CV + "home.jpg", CV + "baboon.jpg"]
PHOTOS_C = [CV + "butterfly.jpg", CV + "HappyFish.jpg", CV + "squirrel_cls.jpg", SK + "chelsea.png"]
PHOTOS_D = [SK + "rocket.jpg", SK + "coffee.png", CV + "leuvenA.jpg", SK + "hubble_deep_field.jpg"]

# kind -> variants; which variants each split sees (heldout and sealed see some never trained on).
VARIANTS = {
    "plain": ["white", "grey", "dark", "black", "beige"],
    "wood": ["coffee-planks", "oak", "walnut", "pine"],
    "stone": ["gravel", "granite", "marble", "brick"],
    "fabric": ["felt", "woven-blue", "slate-felt", "tweed"],
    "printed": ["newspaper", "magazine", "classifieds", "tables"],
    "photo": ["fruit-tiles", "city-scatter", "nature-tiles", "mixed-scatter"],
}
SPLIT_VARIANTS = {
    "train": {"plain": [0, 1, 2], "wood": [0, 1], "stone": [0, 1], "fabric": [0, 1], "printed": [0, 1], "photo": [0, 1]},
    "heldout": {"plain": [2, 3, 4], "wood": [1, 2, 3], "stone": [1, 2, 3], "fabric": [1, 2, 3], "printed": [1, 2, 3], "photo": [1, 2, 3]},
}
SPLIT_VARIANTS["sealed"] = SPLIT_VARIANTS["heldout"]
KINDS = tuple(VARIANTS)

_photos = {}


def photo(path):
    if path not in _photos:
        _photos[path] = station.read_rgb(path)
    return _photos[path]


def _seed(name, size):
    return sum(ord(c) * (i + 1) for i, c in enumerate(name)) * 31 + size[0]


def _slow(rng, w, h, cell, amp):
    n = rng.normal(0, 1, (h // cell + 2, w // cell + 2)).astype(np.float32)
    return cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC) * amp


def _plain(rng, w, h, colour):
    g = 1 + _slow(rng, w, h, 200, 0.03)
    img = np.array(colour, np.float32)[None, None, :] * g[:, :, None]
    return img + rng.normal(0, 1.5, (h, w, 1)).astype(np.float32)


def _grain(rng, w, h, base, dark, plank_mm, scale):
    """Drawn wood: wavy grain lines along x, planks with joints."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = _slow(rng, w, h, 90, 14) + _slow(rng, w, h, 25, 3)
    rings = np.sin((y + warp) * (2 * math.pi / rng.uniform(7, 13)) + _slow(rng, w, h, 300, 2))
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigmaX=6, sigmaY=0.6)
    t = np.clip(0.5 + 0.3 * rings + 0.25 * fine, 0, 1)
    img = np.array(base, np.float32)[None, None] * (1 - t[:, :, None]) + np.array(dark, np.float32)[None, None] * t[:, :, None]
    plank = int(plank_mm * scale)
    for k, y0 in enumerate(range(0, h, plank)):
        img[y0:y0 + plank] *= 0.9 + 0.1 * ((k * 7) % 3) / 2
        img[y0:y0 + 2] *= 0.5
    return img


def _granite(rng, w, h, tint):
    a = _slow(rng, w, h, 3, 25) + _slow(rng, w, h, 12, 12)
    img = (140 + a)[:, :, None] * np.array(tint, np.float32)[None, None]
    speck = rng.random((h, w)) < 0.02
    img[speck] = np.array((40, 38, 40), np.float32)
    speck = rng.random((h, w)) < 0.015
    img[speck] = np.array((230, 228, 220), np.float32)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def _marble(rng, w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    turb = _slow(rng, w, h, 120, 40) + _slow(rng, w, h, 30, 10)
    v = np.abs(np.sin((x * 0.6 + y * 0.8) / 55.0 + turb / 20.0)) ** 0.25
    g = 225 - 70 * (1 - v) + _slow(rng, w, h, 8, 3)
    return g[:, :, None] * np.array((1.0, 0.99, 0.96), np.float32)[None, None]


def _woven(rng, w, h, colour, check=False):
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    p = rng.uniform(3.5, 5.0)
    warp = np.sin(x * 2 * math.pi / p) * np.sin(y * math.pi / p)
    weft = np.sin(y * 2 * math.pi / p) * np.sin(x * math.pi / p + math.pi / 2)
    t = 0.5 + 0.2 * np.where(((x // p + y // p) % 2) == 0, warp, weft) + 0.1 * _slow(rng, w, h, 4, 1)
    img = np.array(colour, np.float32)[None, None] * (0.7 + 0.5 * t[:, :, None])
    if check:
        band = ((x // 60) % 3 == 0) | ((y // 60) % 3 == 0)
        img[band] *= np.array((0.6, 0.8, 0.7), np.float32)
    return img


def _tile_mirror(img, w, h):
    row = np.concatenate([img, img[:, ::-1]], 1)
    block = np.concatenate([row, row[::-1]], 0)
    reps = (h // block.shape[0] + 1, w // block.shape[1] + 1, 1)
    return np.tile(block, reps)[:h, :w]


def _words(rng, n):
    return " ".join(mrzgen._word(rng, 1, 3).lower() for _ in range(n))


def _printed(name, w, h):
    """Newspaper- or magazine-like columns of DejaVu text with headlines, boxes and pictures."""
    rng = random.Random(_seed(name, (w, h)))
    style = {"newspaper": (236, 232, 222), "magazine": (248, 248, 246), "classifieds": (232, 230, 218), "tables": (244, 244, 240)}[name]
    pil = Image.new("RGB", (w, h), style)
    draw = ImageDraw.Draw(pil)
    s = w / 1400.0
    cols = {"newspaper": 5, "magazine": 3, "classifieds": 7, "tables": 4}[name]
    body = int({"newspaper": 15, "magazine": 19, "classifieds": 12, "tables": 14}[name] * s)
    gap = int(18 * s)
    cw = (w - gap * (cols + 1)) // cols
    pics = PHOTOS_A + PHOTOS_B + PHOTOS_C
    fbody = ImageFont.truetype(DEJAVU_SERIF if name == "newspaper" else pages.DEJAVU, body)
    fmono = ImageFont.truetype(DEJAVU_MONO, body)
    fhead = ImageFont.truetype(pages.DEJAVU_SERIF_BOLD if name != "magazine" else pages.DEJAVU_BOLD, int(body * 2.2))
    accent = [(160, 30, 40), (30, 70, 140), (20, 20, 20), (40, 110, 60)]
    for c in range(cols):
        x = gap + c * (cw + gap)
        y = gap
        while y < h - body:
            r = rng.random()
            if r < 0.12:
                text = _words(rng, rng.randint(2, 4)).upper()
                draw.text((x, y), text, font=fhead, fill=rng.choice(accent) if name == "magazine" else (20, 20, 20))
                y += int(body * 3)
            elif r < 0.2:
                bh = int(rng.uniform(4, 10) * body)
                img = photo(rng.choice(pics))
                pic = cv2.resize(img, (cw, bh), interpolation=cv2.INTER_AREA)
                if name == "newspaper":
                    g = cv2.cvtColor(pic, cv2.COLOR_RGB2GRAY)
                    pic = np.dstack([g, g, g])
                pil.paste(Image.fromarray(pic), (x, y))
                y += bh + body
            elif r < 0.26:
                bh = int(rng.uniform(3, 6) * body)
                draw.rectangle((x, y, x + cw, y + bh), outline=(30, 30, 30), width=max(1, int(2 * s)),
                               fill=(220, 226, 236) if name == "magazine" else None)
                for k in range(int(bh / body / 1.4) - 1):
                    draw.text((x + body // 2, y + body // 2 + int(k * body * 1.4)), _words(rng, 3), font=fbody, fill=(30, 30, 30))
                y += bh + body
            else:
                mono = name in ("classifieds", "tables") and rng.random() < 0.35
                f = fmono if mono else fbody
                for _ in range(rng.randint(4, 14)):
                    if y > h - body:
                        break
                    if mono:  # code-like upper-case lines: lines of text that are not an MRZ
                        t = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789  <") for _ in range(int(cw / (body * 0.6))))
                    else:
                        t = _words(rng, 12)
                    while draw.textlength(t, font=f) > cw and len(t) > 4:
                        t = t[:-2]
                    draw.text((x, y), t, font=f, fill=(25, 25, 28))
                    y += int(body * 1.35)
                y += body // 2
        if name == "tables":
            draw.line((x + cw + gap // 2, 0, x + cw + gap // 2, h), fill=(60, 60, 60), width=max(1, int(s)))
    return np.asarray(pil).astype(np.float32)


def _photo_surface(name, w, h):
    rng = random.Random(_seed(name, (w, h)))
    src = {"fruit-tiles": PHOTOS_A, "city-scatter": PHOTOS_B, "nature-tiles": PHOTOS_C, "mixed-scatter": PHOTOS_D}[name]
    if name.endswith("tiles"):
        img = np.zeros((h, w, 3), np.float32)
        tile = int(w / rng.uniform(3.0, 4.5))
        k = 0
        for y0 in range(0, h, tile):
            for x0 in range(0, w, tile):
                p = cv2.resize(photo(src[k % len(src)]), (tile, tile), interpolation=cv2.INTER_AREA)
                k += 1
                img[y0:y0 + tile, x0:x0 + tile] = p[:min(tile, h - y0), :min(tile, w - x0)]
        return img
    img = _plain(np.random.default_rng(rng.randrange(1 << 30)), w, h, (120, 110, 100))
    for k in range(int(rng.uniform(10, 16))):
        p = photo(src[k % len(src)])
        pw = int(w * rng.uniform(0.2, 0.38))
        ph = int(pw * p.shape[0] / p.shape[1])
        b = max(3, pw // 30)
        card = np.full((ph + 2 * b, pw + 2 * b, 3), 246, np.uint8)
        card[b:b + ph, b:b + pw] = cv2.resize(p, (pw, ph), interpolation=cv2.INTER_AREA)
        m = cv2.getRotationMatrix2D((card.shape[1] / 2, card.shape[0] / 2), rng.uniform(-35, 35), 1.0)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        m[0, 2] += cx - card.shape[1] / 2
        m[1, 2] += cy - card.shape[0] / 2
        warped = cv2.warpAffine(card, m, (w, h)).astype(np.float32)
        a = cv2.warpAffine(np.full(card.shape[:2], 1.0, np.float32), m, (w, h))
        img = img * (1 - a[:, :, None]) + warped * a[:, :, None]
    return img


def make(kind, variant, size):
    """The surface (float32 RGB) of a variant at a size (the scene's undistorted canvas)."""
    w, h = size
    name = VARIANTS[kind][variant]
    rng = np.random.default_rng(_seed(name, size))
    s = w / 1400.0
    if kind == "plain":
        img = _plain(rng, w, h, {"white": (236, 236, 232), "grey": (150, 152, 150), "dark": (66, 66, 70),
                                 "black": (24, 24, 26), "beige": (214, 200, 172)}[name])
    elif kind == "wood":
        if name == "coffee-planks":
            img = station._wood(w, h)
        else:
            base, dark, plank = {"oak": ((205, 160, 110), (150, 100, 60), 90), "walnut": ((110, 70, 45), (60, 36, 22), 120),
                                 "pine": ((228, 196, 150), (190, 140, 90), 70)}[name]
            img = _grain(rng, w, h, base, dark, plank, 2.0 * s)
    elif kind == "stone":
        if name == "gravel":
            img = station._stone(w, h)
        elif name == "granite":
            img = _granite(rng, w, h, (1.0, 0.96, 0.94))
        elif name == "marble":
            img = _marble(rng, w, h)
        else:
            g = station.read_rgb(SK + "brick.png")[:, :, 0].astype(np.float32)
            g = cv2.resize(g, (int(g.shape[1] * 1.6 * s), int(g.shape[0] * 1.6 * s)), interpolation=cv2.INTER_CUBIC)
            img = _tile_mirror(g[:, :, None] * np.array((1.1, 0.85, 0.75), np.float32)[None, None], w, h)
    elif kind == "fabric":
        if name == "felt":
            img = station._felt(rng, w, h, (1.0, 1.0, 1.02), 132)
        elif name == "slate-felt":
            img = station._felt(rng, w, h, (0.8, 0.95, 1.05), 78)
        elif name == "woven-blue":
            img = _woven(rng, w, h, (60, 80, 130))
        else:
            img = _woven(rng, w, h, (150, 70, 60), check=True)
    elif kind == "printed":
        img = _printed(name, w, h)
    else:
        img = _photo_surface(name, w, h)
    return np.clip(img, 0, 255).astype(np.uint8)
