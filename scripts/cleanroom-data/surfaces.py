"""Platen surfaces: plain, wood, stone, fabric, printed matter and photographs.

Each surface is a texture in platen millimetres (SURF_W x SURF_H mm, centred on the optical
axis's foot) at SURF_PPM pixels per mm. Procedural ones are drawn here; the others use
photographs shipped in Debian packages (see ASSETS and docs/cleanroom-data.md).
"""

import os

import cv2
import numpy as np

import draw as D
from draw import rgb
from docs import Texture, lorem
from identity import word

SURF_W, SURF_H, SURF_PPM = 480.0, 300.0, 7.0

SKIMAGE_DIR = "/usr/lib/python3/dist-packages/skimage/data"
OPENCV_DIR = "/usr/share/doc/opencv-doc/examples/data"

# name: (path, package, origin and licence)
ASSETS = {
    "coffee": (SKIMAGE_DIR + "/coffee.png", "python3-skimage",
               "scikit-image data: coffee cup, photo by Rachel Michetti, CC0"),
    "chelsea": (SKIMAGE_DIR + "/chelsea.png", "python3-skimage",
                "scikit-image data: the cat Chelsea, photo by Stefan van der Walt, CC0"),
    "rocket": (SKIMAGE_DIR + "/rocket.jpg", "python3-skimage",
               "scikit-image data: Falcon 9 launch, SpaceX, public domain"),
    "hubble": (SKIMAGE_DIR + "/hubble_deep_field.jpg", "python3-skimage",
               "scikit-image data: Hubble deep field, NASA, public domain"),
    "coins": (SKIMAGE_DIR + "/coins.png", "python3-skimage",
              "scikit-image data: Greek coins, Brooklyn Museum collection, no known copyright restrictions"),
    "gravel": (SKIMAGE_DIR + "/gravel.png", "python3-skimage",
               "scikit-image data: gravel texture from CC0Textures, CC0"),
    "fruits": (OPENCV_DIR + "/fruits.jpg", "opencv-doc",
               "OpenCV sample data: fruits; opencv-doc, Apache-2.0 AND BSD-3-Clause per its Debian copyright"),
    "starry_night": (OPENCV_DIR + "/starry_night.jpg", "opencv-doc",
                     "OpenCV sample data: Van Gogh's Starry Night (painting in the public domain); opencv-doc, "
                     "Apache-2.0 AND BSD-3-Clause per its Debian copyright"),
    "building": (OPENCV_DIR + "/building.jpg", "opencv-doc",
                 "OpenCV sample data: building; opencv-doc, Apache-2.0 AND BSD-3-Clause per its Debian copyright"),
    "home": (OPENCV_DIR + "/home.jpg", "opencv-doc",
             "OpenCV sample data: a palace facade (home.jpg); opencv-doc, Apache-2.0 AND BSD-3-Clause per its Debian copyright"),
}

PHOTOS = ["coffee", "chelsea", "rocket", "hubble", "fruits", "starry_night", "building", "home", "coins"]

_asset_cache = {}


def asset(name):
    """A float RGB image in [0,1]."""
    if name not in _asset_cache:
        path, pkg, _ = ASSETS[name]
        D.need(path, pkg)
        im = cv2.imread(path, cv2.IMREAD_COLOR)
        if im is None:
            raise SystemExit("cleanroom-data: cannot read %s (package %s)" % (path, pkg))
        _asset_cache[name] = cv2.cvtColor(im, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
    return _asset_cache[name]


def check_assets():
    for name in ASSETS:
        D.need(ASSETS[name][0], ASSETS[name][1])


def _grid():
    W, H = int(SURF_W * SURF_PPM), int(SURF_H * SURF_PPM)
    return W, H


def _tile(img, W, H, tile_px):
    """Mirror-tiles `img` scaled so that one tile is tile_px wide."""
    s = tile_px / img.shape[1]
    t = cv2.resize(img, (int(img.shape[1] * s), int(img.shape[0] * s)), interpolation=cv2.INTER_CUBIC)
    row = np.concatenate([t, t[:, ::-1]], 1)
    block = np.concatenate([row, row[::-1]], 0)
    ny, nx = H // block.shape[0] + 1, W // block.shape[1] + 1
    return np.tile(block, (ny, nx, 1))[:H, :W]


def plain(rng, color):
    W, H = _grid()
    c = rgb(color)
    low = D.value_noise(rng, H, W, 120 * SURF_PPM, 2)
    fine = D.value_noise(rng, H, W, 0.6 * SURF_PPM, 2)
    img = c[None, None, :] * (0.97 + 0.05 * low + 0.025 * fine)[..., None]
    return img


def wood(rng, base, dark, plank_mm):
    W, H = _grid()
    img = np.zeros((H, W, 3), np.float32)
    x0 = 0.0
    vertical = rng.random() < 0.5
    L = H if vertical else W  # the grain runs along the long axis of the planks
    while x0 < (W if vertical else H) / SURF_PPM:
        pw = plank_mm * rng.uniform(0.8, 1.2)
        a, b = int(x0 * SURF_PPM), int(min((x0 + pw) * SURF_PPM, (W if vertical else H)))
        n = b - a
        if n <= 0:
            break
        # coordinates: u across the plank, v along the grain
        ph, pl = (L, n)
        gh, gw = int(ph / (70 * SURF_PPM)) + 3, int(pl / (25 * SURF_PPM)) + 3
        warp = cv2.resize(rng.random((gh, gw)).astype(np.float32), (pl, ph), interpolation=cv2.INTER_CUBIC)
        gh2, gw2 = int(ph / (15 * SURF_PPM)) + 3, int(pl / (6 * SURF_PPM)) + 3
        warp2 = cv2.resize(rng.random((gh2, gw2)).astype(np.float32), (pl, ph), interpolation=cv2.INTER_CUBIC)
        u = np.arange(pl, dtype=np.float32)[None, :] / SURF_PPM
        v = np.arange(ph, dtype=np.float32)[:, None] / SURF_PPM
        freq = rng.uniform(0.18, 0.45)
        rings = np.sin((u + 9.0 * warp + 0.8 * warp2 + 0.01 * v + rng.uniform(0, 100)) * freq * 2 * np.pi)
        rings = (rings * 0.5 + 0.5) ** rng.uniform(2, 5)
        streak = cv2.resize(rng.random((ph // 40 + 2, pl // 2 + 2)).astype(np.float32), (pl, ph),
                            interpolation=cv2.INTER_LINEAR)
        t = np.clip(0.55 * rings + 0.45 * streak, 0, 1)[..., None]
        tone = rng.uniform(0.9, 1.1)
        plank = (base * (1 - t) + dark * t) * tone
        plank[:, :2] *= 0.55  # seam
        if vertical:
            img[:, a:b] = plank
        else:
            img[a:b, :] = np.transpose(plank, (1, 0, 2))
        x0 += pw
    fine = D.value_noise(rng, H, W, 0.5 * SURF_PPM, 1)
    return img * (0.96 + 0.08 * fine)[..., None]


def granite(rng, base, spots):
    W, H = _grid()
    img = np.ones((H, W, 3), np.float32) * base
    low = D.value_noise(rng, H, W, 40 * SURF_PPM, 3)
    img *= (0.92 + 0.16 * low)[..., None]
    for col, scale, thr in spots:
        n = D.value_noise(rng, H, W, scale * SURF_PPM, 2, 0.6)
        m = np.clip((n - thr) * 12.0, 0, 1)[..., None]
        img = img * (1 - m) + rgb(col) * m
    fine = D.value_noise(rng, H, W, 0.4 * SURF_PPM, 1)
    return img * (0.93 + 0.14 * fine)[..., None]


def marble(rng, base, vein):
    W, H = _grid()
    turb = D.value_noise(rng, H, W, 60 * SURF_PPM, 5, 0.55)
    xs = np.arange(W, dtype=np.float32)[None, :] / SURF_PPM
    ys = np.arange(H, dtype=np.float32)[:, None] / SURF_PPM
    v = np.abs(np.sin((xs * 0.6 + ys * 0.35) * 0.05 + turb * 9.0)) ** 0.25
    t = (1 - v)[..., None]
    return rgb(base) * (1 - 0.8 * t) + rgb(vein) * 0.8 * t


def photo_texture(rng, name, tile_mm, tint=None):
    W, H = _grid()
    im = asset(name)
    img = _tile(im, W, H, tile_mm * SURF_PPM)
    if tint is not None:
        g = img.mean(axis=2, keepdims=True)
        img = g * rgb(tint) * 1.6
    return np.clip(img, 0, 1)


def felt(rng, color):
    W, H = _grid()
    img = np.ones((H, W, 3), np.float32) * rgb(color)
    fib = rng.random((H, W)).astype(np.float32)
    acc = np.zeros((H, W), np.float32)
    for ang in (0, 45, 90, 135):
        k = np.zeros((9, 9), np.float32)
        c = 4
        for i in range(-4, 5):
            x = int(round(c + i * np.cos(np.deg2rad(ang))))
            y = int(round(c + i * np.sin(np.deg2rad(ang))))
            k[y, x] = 1
        acc += cv2.filter2D(fib, -1, k / k.sum())
    acc = (acc / 4 - 0.5) * 3.0
    low = D.value_noise(rng, H, W, 25 * SURF_PPM, 3)
    return np.clip(img * (0.92 + 0.16 * low + 0.12 * acc)[..., None], 0, 1)


def woven(rng, color, period_mm, twill):
    W, H = _grid()
    xs = np.arange(W, dtype=np.float32)[None, :] / SURF_PPM
    ys = np.arange(H, dtype=np.float32)[:, None] / SURF_PPM
    p = period_mm
    if twill:
        a = np.sin(2 * np.pi * (xs + ys) / p)
        b = np.sin(2 * np.pi * (xs - ys) / (p * 4))
        pat = 0.5 + 0.35 * a + 0.15 * b
    else:
        wx = np.sin(2 * np.pi * xs / p)
        wy = np.sin(2 * np.pi * ys / p)
        checker = np.sign(np.sin(np.pi * xs / p) * np.sin(np.pi * ys / p))
        pat = 0.5 + 0.25 * np.where(checker > 0, wx, wy) + 0.1 * checker
    noise = D.value_noise(rng, H, W, 3 * SURF_PPM, 3)
    slub = D.value_noise(rng, H // 4 + 2, 8, 1.0, 2)
    slub = cv2.resize(slub, (W, H), interpolation=cv2.INTER_LINEAR)
    t = np.clip(pat * 0.7 + noise * 0.2 + slub * 0.1, 0, 1)[..., None]
    c = rgb(color)
    return np.clip(c * (0.7 + 0.5 * t), 0, 1)


def magazine(rng, base_color="#f6f4ee"):
    """An open magazine / newspaper spread covering the platen."""
    s = D.Sheet(SURF_W, SURF_H, SURF_PPM, color=rgb("#d8d4cc"))
    ppw = rng.uniform(200, 240)
    x = -rng.uniform(0, 40)
    y0 = -rng.uniform(0, 20)
    ink = rgb("#161616")
    while x < SURF_W:
        s.rect(x, y0, x + ppw - 0.5, SURF_H + 5, rgb(base_color), 1.0)
        ncol = int(rng.integers(2, 4))
        cw = (ppw - 20) / ncol
        y = y0 + 14
        s.fit_text(x + 10, y, lorem(rng, 4).title(), "serif-bold", rng.uniform(7, 11), ink, ppw - 20)
        y += 16
        for c in range(ncol):
            cx = x + 10 + c * cw
            yy = y
            while yy < SURF_H:
                r = rng.random()
                if r < 0.05:
                    ph = asset(PHOTOS[int(rng.integers(len(PHOTOS)))])
                    pw = cw - 4
                    phh = pw * ph.shape[0] / ph.shape[1]
                    im = cv2.resize(ph, (int(pw * SURF_PPM), int(phh * SURF_PPM)), interpolation=cv2.INTER_CUBIC)
                    s.paste(cx, yy, np.clip(im, 0, 1))
                    yy += phh + 4
                elif r < 0.1:
                    s.fit_text(cx, yy + 2, lorem(rng, 3).title(), "sans-bold", 4.0, ink, cw - 4)
                    yy += 8
                elif r < 0.13:
                    col = rgb(["#d04040", "#3060c0", "#e0a020", "#40a060"][int(rng.integers(4))])
                    s.rect(cx, yy, cx + cw - 4, yy + 18, col, 0.85)
                    s.fit_text(cx + 2, yy + 5, lorem(rng, 3).upper(), "sans-bold", 4.5, (1, 1, 1), cw - 8)
                    yy += 22
                else:
                    s.fit_text(cx, yy, lorem(rng, 9), "serif", 2.6, ink, cw - 4)
                    yy += 3.7
        x += ppw
    img = s.result()
    low = D.value_noise(rng, s.H, s.W, 60 * SURF_PPM, 2)
    return img * (0.95 + 0.07 * low)[..., None]


def collage(rng, base):
    """Several photo prints lying on a plain or wooden platen."""
    img = base.copy()
    H, W = img.shape[:2]
    for _ in range(int(rng.integers(4, 8))):
        ph = asset(PHOTOS[int(rng.integers(len(PHOTOS)))])
        w_mm = rng.uniform(110, 190)
        h_mm = w_mm * ph.shape[0] / ph.shape[1]
        b = 4.0 if rng.random() < 0.5 else 0.0
        pw, phh = int((w_mm + 2 * b) * SURF_PPM), int((h_mm + 2 * b) * SURF_PPM)
        card = np.ones((phh, pw, 3), np.float32) * 0.96
        inner = cv2.resize(ph, (int(w_mm * SURF_PPM), int(h_mm * SURF_PPM)), interpolation=cv2.INTER_CUBIC)
        bi = int(b * SURF_PPM)
        card[bi:bi + inner.shape[0], bi:bi + inner.shape[1]] = np.clip(inner, 0, 1)
        ang = rng.uniform(-40, 40)
        big = int(np.hypot(pw, phh)) + 4
        M = cv2.getRotationMatrix2D((pw / 2, phh / 2), ang, 1.0)
        M[0, 2] += (big - pw) / 2
        M[1, 2] += (big - phh) / 2
        c2 = cv2.warpAffine(card, M, (big, big))
        a2 = cv2.warpAffine(np.ones((phh, pw), np.float32), M, (big, big))
        x = int(rng.uniform(-big * 0.3, W - big * 0.7))
        y = int(rng.uniform(-big * 0.3, H - big * 0.7))
        # shadow then print
        sh = cv2.GaussianBlur(a2, (0, 0), 1.5 * SURF_PPM)
        for arr, mode in ((sh, "shadow"), (a2, "print")):
            xa, ya = max(x, 0), max(y, 0)
            xb, yb = min(x + big, W), min(y + big, H)
            if xb <= xa or yb <= ya:
                continue
            ox, oy = (int(2 * SURF_PPM), int(2 * SURF_PPM)) if mode == "shadow" else (0, 0)
            a = arr[ya - y:yb - y, xa - x:xb - x][..., None]
            dst = img[ya:yb, xa:xb]
            if mode == "shadow":
                dst *= 1 - 0.35 * a
            else:
                dst[:] = dst * (1 - a) + c2[ya - y:yb - y, xa - x:xb - x] * a
    return img


# name: (kind, builder(rng), assets used)
VARIANTS = {
    "plain-white": ("plain", lambda r: plain(r, "#f3f3f0"), []),
    "plain-grey": ("plain", lambda r: plain(r, "#8c8d8f"), []),
    "plain-black": ("plain", lambda r: plain(r, "#1c1c1e"), []),
    "plain-beige": ("plain", lambda r: plain(r, "#d9c9a8"), []),
    "plain-darkgrey": ("plain", lambda r: plain(r, "#4a4b4e"), []),
    "wood-oak": ("wood", lambda r: wood(r, rgb("#c8a06a"), rgb("#8a5e30"), 140), []),
    "wood-walnut": ("wood", lambda r: wood(r, rgb("#6a4428"), rgb("#3a2212"), 110), []),
    "wood-pine": ("wood", lambda r: wood(r, rgb("#e2c48e"), rgb("#b88a4a"), 160), []),
    "wood-red": ("wood", lambda r: wood(r, rgb("#9a4a32"), rgb("#5a2412"), 95), []),
    "stone-granite": ("stone", lambda r: granite(r, rgb("#9a9896"), [("#2a2a2a", 1.2, 0.72), ("#e8e6e2", 1.0, 0.74),
                                                                      ("#6a5a56", 2.0, 0.7)]), []),
    "stone-darkgranite": ("stone", lambda r: granite(r, rgb("#3a3a3c"), [("#101010", 1.5, 0.68), ("#a8a6a4", 0.8, 0.78),
                                                                          ("#5a4a48", 2.4, 0.7)]), []),
    "stone-marble": ("stone", lambda r: marble(r, "#e8e6e0", "#7a7874"), []),
    "stone-gravel": ("stone", lambda r: photo_texture(r, "gravel", 160, "#9a948a"), ["gravel"]),
    "stone-slate": ("stone", lambda r: granite(r, rgb("#4e5458"), [("#3a3e42", 6.0, 0.62), ("#62686c", 4.0, 0.66),
                                                                   ("#2a2e30", 1.2, 0.8)]), []),
    "fabric-felt-green": ("fabric", lambda r: felt(r, "#2e5e3a"), []),
    "fabric-felt-blue": ("fabric", lambda r: felt(r, "#22305a"), []),
    "fabric-felt-grey": ("fabric", lambda r: felt(r, "#8a8a88"), []),
    "fabric-linen": ("fabric", lambda r: woven(r, "#cfc4ae", 0.9, False), []),
    "fabric-denim": ("fabric", lambda r: woven(r, "#3a4a6e", 1.1, True), []),
    "printed-magazine": ("printed", lambda r: magazine(r), ["coffee", "chelsea", "rocket", "hubble", "fruits",
                                                             "starry_night", "building", "home", "coins"]),
    "printed-newspaper": ("printed", lambda r: magazine(r, "#e9e6dc"), ["coffee", "chelsea", "rocket", "hubble",
                                                                        "fruits", "starry_night", "building",
                                                                        "home", "coins"]),
    "printed-leaflets": ("printed", lambda r: magazine(r, "#fbfaf5"), ["coffee", "chelsea", "rocket", "hubble",
                                                                       "fruits", "starry_night", "building", "home",
                                                                       "coins"]),
    "photo-coffee": ("photo", lambda r: photo_texture(r, "coffee", 420), ["coffee"]),
    "photo-starry": ("photo", lambda r: photo_texture(r, "starry_night", 400), ["starry_night"]),
    "photo-hubble": ("photo", lambda r: photo_texture(r, "hubble", 380), ["hubble"]),
    "photo-fruits": ("photo", lambda r: photo_texture(r, "fruits", 300), ["fruits"]),
    "photo-collage-white": ("photo", lambda r: collage(r, plain(r, "#ecebe6")),
                            ["coffee", "chelsea", "rocket", "hubble", "fruits", "starry_night", "building", "home",
                             "coins"]),
    "photo-collage-dark": ("photo", lambda r: collage(r, plain(r, "#2a2a2c")),
                           ["coffee", "chelsea", "rocket", "hubble", "fruits", "starry_night", "building", "home",
                            "coins"]),
}

KINDS = ["plain", "wood", "stone", "fabric", "printed", "photo"]


def names_of_kind(kind):
    return [n for n, v in VARIANTS.items() if v[0] == kind]


_surf_cache = {}


def surface(name):
    """The surface as a Texture (RGB + opaque alpha); deterministic per name."""
    if name not in _surf_cache:
        seed = sum(ord(c) * (i + 1) for i, c in enumerate(name)) + 4242
        rng = np.random.default_rng(seed)
        img = VARIANTS[name][1](rng)
        u8 = D.to_u8(np.clip(img, 0, 1))
        rgba = np.dstack([u8, np.full(u8.shape[:2], 255, np.uint8)])
        _surf_cache[name] = Texture(np.ascontiguousarray(rgba), SURF_W, SURF_H)
    return _surf_cache[name]
