"""The field scenes' camera and objects: stations (field of view, height, lens distortion,
mount tilt), 3D poses, the open passport booklet (facing page, cover, page block, pages
curving up to the gutter, drawn by strips), and the label rules.

Coordinates: the world is the platen (mm; X right, Y down as the camera sees it, Z up
towards the camera). The scene is drawn on an undistorted canvas (the frame grown by a
margin on every side), then the canvas is remapped through the lens's radial distortion
into the frame. Frame pixels have their centres at integers (OpenCV's convention).
"""
import math
import random

import cv2
import numpy as np
from PIL import Image, ImageDraw

import compose
import mrzgen
import pages

# name, horizontal field of view (deg), camera height over the platen (mm), k1 (radial
# distortion, normalised by the focal length), mount tilt (deg about x, about y).
STATIONS = {
    "desk-45": (45.0, 300.0, -0.06, (1.0, -0.6)),
    "wide-60": (60.0, 240.0, -0.12, (-0.8, 0.5)),
    "narrow-40": (40.0, 430.0, 0.02, (0.4, 1.2)),
    "fisheye-65": (65.0, 190.0, -0.14, (1.5, 0.0)),
    "overhead-62": (62.0, 400.0, -0.10, (-1.2, -1.0)),
    "close-42": (42.0, 255.0, -0.02, (0.0, 0.8)),
    "kiosk-50": (50.0, 265.0, -0.08, (2.0, 0.5)),
    "tall-55": (55.0, 370.0, 0.03, (-0.5, -1.5)),
}
SPLIT_STATIONS = {
    "train": ("desk-45", "wide-60", "narrow-40", "fisheye-65", "overhead-62", "close-42"),
    "heldout": tuple(STATIONS),
    "sealed": tuple(STATIONS),
}
MARGIN = 0.08  # canvas margin on each side, a part of the frame width

# The label rules (docs/vision-data.md, "Field scenes"); check.py writes them again.
EDGE = 0.01
AREA = 0.12
OFFSET = 0.18
TILT = 15.0
ROTATION = 12.0
HOLD_STILL_MM = 0.5
READ_BLUR_MM = 1.0
READ_DEFOCUS_MM = 0.3
READ_GLARE = 0.35
CELL_W, CELL_H = 2.54, 2.9


_MAPS = {}


class Camera:
    def __init__(self, name, size):
        self.name = name
        hfov, self.height, self.k1, mount = STATIONS[name]
        self.size = size
        fw, fh = size
        self.f = (fw / 2) / math.tan(math.radians(hfov / 2))
        self.cx, self.cy = (fw - 1) / 2, (fh - 1) / 2
        rx, _ = cv2.Rodrigues(np.array([math.radians(mount[0]), 0, 0]))
        ry, _ = cv2.Rodrigues(np.array([0, math.radians(mount[1]), 0]))
        self.R = ry @ rx
        self.m = int(round(MARGIN * fw))
        self.canvas = (fw + 2 * self.m, fh + 2 * self.m)
        self._maps = None

    def platen_ppm(self):
        return self.f / self.height

    def to_camera(self, P):
        P = np.asarray(P, np.float64).reshape(-1, 3)
        q = np.stack([P[:, 0], P[:, 1], self.height - P[:, 2]], 1)
        return q @ self.R.T

    def canvas_xy(self, P):
        """World points -> undistorted canvas pixels."""
        q = self.to_camera(P)
        u = self.f * q[:, 0] / q[:, 2] + self.cx + self.m
        v = self.f * q[:, 1] / q[:, 2] + self.cy + self.m
        return np.stack([u, v], 1)

    def distort(self, canvas_pts):
        """Undistorted canvas pixels -> frame pixels through the lens."""
        p = np.asarray(canvas_pts, np.float64).reshape(-1, 2)
        x = (p[:, 0] - self.m - self.cx) / self.f
        y = (p[:, 1] - self.m - self.cy) / self.f
        k = 1 + self.k1 * (x * x + y * y)
        return np.stack([x * k * self.f + self.cx, y * k * self.f + self.cy], 1)

    def frame_xy(self, P):
        return self.distort(self.canvas_xy(P))

    def maps(self):
        """remap maps: for each frame pixel, where it lies on the undistorted canvas (made
        once per station and size)."""
        key = (self.name, self.size)
        if key in _MAPS:
            self._maps = _MAPS[key]
        if self._maps is None:
            fw, fh = self.size
            v, u = np.mgrid[0:fh, 0:fw].astype(np.float64)
            xd, yd = (u - self.cx) / self.f, (v - self.cy) / self.f
            xu, yu = xd.copy(), yd.copy()
            for _ in range(12):
                k = 1 + self.k1 * (xu * xu + yu * yu)
                xu, yu = xd / k, yd / k
            mx = (xu * self.f + self.cx + self.m).astype(np.float32)
            my = (yu * self.f + self.cy + self.m).astype(np.float32)
            assert mx.min() >= 0 and my.min() >= 0 and mx.max() < self.canvas[0] - 1 and my.max() < self.canvas[1] - 1, self.name
            self._maps = _MAPS[key] = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        return self._maps

    def lens(self, canvas_u8):
        m1, m2 = self.maps()
        return cv2.remap(canvas_u8, m1, m2, cv2.INTER_LINEAR)


class Pose:
    """A rigid pose of an object's frame (mm, x right, y down, z up) over the platen."""

    def __init__(self, centre, rotation_deg, tilt_deg, tilt_axis_deg, lift):
        t = math.radians(rotation_deg)
        rz = np.array([[math.cos(t), -math.sin(t), 0], [math.sin(t), math.cos(t), 0], [0, 0, 1]])
        a = math.radians(tilt_axis_deg)
        rt, _ = cv2.Rodrigues(np.array([math.cos(a), math.sin(a), 0.0]) * math.radians(tilt_deg))
        self.R = rt @ rz
        self.T = np.array([centre[0], centre[1], lift], np.float64)
        self.tilt, self.rotation, self.lift = tilt_deg, rotation_deg, lift

    def world(self, p):
        return np.asarray(p, np.float64).reshape(-1, 3) @ self.R.T + self.T


def tilt_to_camera(cam, pose):
    n = pose.R @ np.array([0, 0, 1.0])
    nc = cam.R @ np.array([n[0], n[1], -n[2]])
    return math.degrees(math.acos(min(1.0, abs(nc[2]) / np.linalg.norm(nc))))


# ---------------------------------------------------------------- drawing into a layer

class Acc:
    """A premultiplied RGB + coverage layer over a region of the canvas."""

    def __init__(self, box):
        self.x0, self.y0, x1, y1 = box
        self.rgb = np.zeros((y1 - self.y0, x1 - self.x0, 3), np.float32)
        self.a = np.zeros((y1 - self.y0, x1 - self.x0), np.float32)

    def warp(self, src_rgb, src_a, src_quad, dst_quad, shade=1.0, pad=2):
        """Warps the source region src_quad (4 points in source px) onto dst_quad (canvas)."""
        sq = np.asarray(src_quad, np.float32)
        dq = np.asarray(dst_quad, np.float64)
        h, w = src_a.shape
        sx0, sy0 = max(0, int(sq[:, 0].min()) - pad), max(0, int(sq[:, 1].min()) - pad)
        sx1, sy1 = min(w, int(math.ceil(sq[:, 0].max())) + pad + 1), min(h, int(math.ceil(sq[:, 1].max())) + pad + 1)
        if sx1 - sx0 < 2 or sy1 - sy0 < 2:
            return
        H = cv2.getPerspectiveTransform((sq - np.array([sx0, sy0], np.float32)).astype(np.float32),
                                        (dq - np.array([self.x0, self.y0])).astype(np.float32))
        bw, bh = self.a.shape[1], self.a.shape[0]
        bx0, by0 = max(0, int(dq[:, 0].min()) - self.x0 - 3), max(0, int(dq[:, 1].min()) - self.y0 - 3)
        bx1, by1 = min(bw, int(dq[:, 0].max()) - self.x0 + 4), min(bh, int(dq[:, 1].max()) - self.y0 + 4)
        if bx1 - bx0 < 1 or by1 - by0 < 1:
            return
        Hs = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], np.float64) @ H
        a = src_a[sy0:sy1, sx0:sx1]
        pre = src_rgb[sy0:sy1, sx0:sx1] * (a[:, :, None] * shade)
        size = (bx1 - bx0, by1 - by0)
        wr = cv2.warpPerspective(pre, Hs, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        wa = cv2.warpPerspective(a, Hs, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        vr, va = self.rgb[by0:by1, bx0:bx1], self.a[by0:by1, bx0:bx1]
        vr *= (1 - wa)[:, :, None]
        vr += wr
        va *= 1 - wa
        va += wa

    def layer(self):
        return compose.Layer(self.rgb, self.a, self.x0, self.y0)


def texture(rgb_u8, alpha_u8, ppm, target_ppm):
    """The object's image as float32 RGB and coverage, shrunk by area near 1.4x the scale it
    is seen at (so fine print does not alias); returns (rgb, a, px per mm)."""
    k = min(1.0, 1.4 * target_ppm / ppm)
    if k < 0.95:
        w, h = alpha_u8.shape[1], alpha_u8.shape[0]
        size = (max(2, int(round(w * k))), max(2, int(round(h * k))))
        rgb_u8 = cv2.resize(rgb_u8, size, interpolation=cv2.INTER_AREA)
        alpha_u8 = cv2.resize(alpha_u8, size, interpolation=cv2.INTER_AREA)
        k = size[0] / w
    return rgb_u8.astype(np.float32), alpha_u8.astype(np.float32) * (1 / 255.0), ppm * k


def flat_object(acc, cam, pose, rgb, a, tppm, size_mm, z=0.0, chunks=1):
    """A flat rectangle of size_mm centred at the pose origin (at height z in its frame)."""
    w, h = size_mm
    xs = np.linspace(-w / 2, w / 2, chunks + 1)
    ys = np.linspace(-h / 2, h / 2, chunks + 1)
    for i in range(chunks):
        for j in range(chunks):
            p = [[xs[i], ys[j], z], [xs[i + 1], ys[j], z], [xs[i + 1], ys[j + 1], z], [xs[i], ys[j + 1], z]]
            dst = cam.canvas_xy(pose.world(p))
            src = [((x + w / 2) * tppm - 0.5, (y + h / 2) * tppm - 0.5) for x, y, _ in p]
            acc.warp(rgb, a, src, dst)


def object_box(cam, pts_canvas, pad=60):
    return compose.region(pts_canvas, cam.canvas, pad)


# ---------------------------------------------------------------- the booklet

LEATHER = [(70, 20, 30), (20, 40, 70), (30, 30, 34), (25, 60, 40), (90, 30, 20), (45, 25, 50)]


def _stamp(draw, rng, cx, cy, r, ink):
    kind = rng.random()
    if kind < 0.5:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=max(2, r // 14))
        draw.ellipse((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), outline=ink, width=max(2, r // 20))
    else:
        draw.rounded_rectangle((cx - r * 1.4, cy - r * 0.8, cx + r * 1.4, cy + r * 0.8), radius=r // 5, outline=ink, width=max(2, r // 14))
    f = pages.font(pages.DEJAVU_BOLD, max(10, r // 3))
    draw.text((cx, cy - r * 0.15), mrzgen._word(rng, 2, 3), font=f, fill=ink, anchor="mm")
    f2 = pages.font(pages.DEJAVU_BOLD, max(8, r // 4))
    draw.text((cx, cy + r * 0.3), "%02d.%02d.%d" % (rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2026)), font=f2, fill=ink, anchor="mm")


def facing_page(rng, template, turn, visa=None, visa_turn=False, stamps=0):
    """The page facing the data page (1250 x 880 at 10 px/mm, in the data page's reading
    frame): a visa/observations page printed in the booklet's own (portrait) direction
    (turn: +1/-1, a quarter turn either way), text lines, ink stamps, and a visa sticker
    (visa: its MRZ lines; visa_turn: the sticker upside down)."""
    W, H = 880, 1250  # portrait: the booklet's page as the holder reads it
    top, bottom, g1, g2, accent = pages.PALETTES[template]
    base = np.array(top, np.float32) * 0.5 + np.array((250, 248, 240), np.float32) * 0.5
    img = np.ones((H, W, 3), np.float32) * base
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    per = rng.uniform(28, 50)
    pat = 0.5 + 0.5 * np.sin((x + 18 * np.sin(y / per)) / rng.uniform(6, 10)) * np.sin((y + 18 * np.sin(x / per)) / rng.uniform(6, 10))
    img -= pat[:, :, None] * (base - np.array(g1, np.float32) * 0.6 - base * 0.4) * 0.35
    pil = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(pil)
    title = rng.choice(["VISAS", "OBSERVATIONS", "ENDORSEMENTS", "VISAS / VISA"])
    draw.text((W // 2, 60), title, font=pages.font(pages.DEJAVU_BOLD, 40), fill=accent, anchor="mm")
    draw.text((W // 2, H - 40), str(rng.randint(2, 40)), font=pages.font(pages.DEJAVU_BOLD, 34), fill=accent, anchor="mm")
    f = pages.font(pages.DEJAVU, rng.choice((22, 26, 30)))
    yy = 130
    for _ in range(rng.randint(3, 14)):
        draw.text((60, yy), " ".join(mrzgen._word(rng, 1, 3).lower() for _ in range(rng.randint(3, 7))), font=f, fill=(40, 40, 60))
        yy += int(f.size * 1.6)
        if yy > H - 120:
            break
    for _ in range(stamps):
        ink = rng.choice([(40, 60, 150), (150, 30, 50), (40, 110, 60), (90, 40, 130)])
        layer = Image.new("RGBA", (W, H))
        _stamp(ImageDraw.Draw(layer), rng, rng.uniform(180, W - 180), rng.uniform(200, H - 200), rng.randint(70, 140), ink + (170,))
        layer = layer.rotate(rng.uniform(-30, 30), center=(W / 2, H / 2))
        pil.paste(layer, (0, 0), layer)
    page = np.asarray(pil)
    page = cv2.rotate(page, cv2.ROTATE_90_CLOCKWISE if turn > 0 else cv2.ROTATE_90_COUNTERCLOCKWISE)
    if visa is not None:
        sticker = visa_sticker(rng, template, visa)
        if visa_turn:
            sticker = sticker[::-1, ::-1]
        sh, sw = sticker.shape[:2]
        ox, oy = (1250 - sw) // 2 + rng.randint(-8, 8), (880 - sh) // 2 + rng.randint(-10, 10)
        page = page.copy()
        page[oy:oy + sh, ox:ox + sw] = sticker
    return page


def visa_sticker(rng, template, lines):
    """An MRV-A visa (120 x 80 mm): security print, photo, fields and its 2 x 44 MRZ."""
    w, h = 1200, 800
    bg = pages._guilloche("TD3", "data", (template + 3) % len(pages.PALETTES))[:h, :w].copy()
    bg[-200:] = (bg[-200:].astype(np.float32) * 0.4 + 255 * 0.6).astype(np.uint8)
    face = pages.draw_face(rng, 260, 330, False)
    bg[150:480, 50:310] = face
    pil = Image.fromarray(bg)
    draw = ImageDraw.Draw(pil)
    accent = pages.PALETTES[(template + 3) % len(pages.PALETTES)][4]
    draw.text((50, 40), "VISA", font=pages.font(pages.DEJAVU_SERIF_BOLD, 60), fill=accent)
    fy = 150
    for label in ("Valid from", "Until", "Type", "Number of entries", "Duration of stay", "Surname, name"):
        draw.text((360, fy), label, font=pages.font(pages.DEJAVU, 18), fill=(60, 60, 90))
        draw.text((360, fy + 20), mrzgen._word(rng, 2, 4), font=pages.font(pages.DEJAVU_BOLD, 26), fill=(25, 25, 35))
        fy += 56
    f = pages.font(pages.OCRB, 24.2 / 0.72)
    for line, yc in zip(lines, (h - 105.8, h - 63.5)):
        for i, c in enumerate(line):
            draw.text((50 + i * 25.4, yc + 12.1), c, font=f, fill=(18, 18, 24), anchor="ls")
    return np.asarray(pil)


def booklet_parts(rng, data_rgb, template, facing, cover_colour, tppm_target):
    """The booklet's textures: the two pages (facing above the data page, the gutter
    between) and the geometry in the booklet frame (mm, origin at the data page's centre)."""
    gap = 1.2
    H = 880 + int(gap * 10) + 880
    pages_img = np.zeros((H, 1250, 3), np.uint8)
    pages_img[:880] = facing
    pages_img[880 + int(gap * 10):] = data_rgb
    alpha = np.zeros((H, 1250), np.uint8)
    alpha[:880] = 255
    alpha[880 + int(gap * 10):] = 255
    # Darker towards the gutter (the valley between the pages).
    d = np.abs(np.arange(H, dtype=np.float32) - (880 + gap * 5)) / 10.0
    dark = 1 - 0.45 * np.exp(-d / 1.2)
    pages_img = (pages_img.astype(np.float32) * dark[:, None, None]).astype(np.uint8)
    return texture(pages_img, alpha, 10.0, tppm_target), gap


def draw_booklet(acc, cam, pose, parts, gap, geo):
    """Draws the cover, the page block and the curved pages; geo holds the booklet's shape:
    t (page block height), H1, L1 (data page rise and run to the gutter), H2, L2 (facing),
    cover margin cm, cover colour, block margin bm."""
    (prgb, pa, tppm) = parts
    t, cm, bm = geo["t"], geo["cm"], geo["bm"]
    y_top = -44 - gap - 88  # facing page's outer edge
    # Cover: a dark rounded rectangle around both pages.
    cw, ch = 125 + 2 * cm, 88 * 2 + gap + 2 * cm
    cppm = min(tppm, 3.0)
    cover = np.ones((int(ch * cppm), int(cw * cppm), 3), np.float32) * np.array(geo["cover"], np.float32)
    g = np.random.default_rng(geo["seed"]).normal(0, 1, cover.shape[:2]).astype(np.float32)
    cover *= (1 + 0.06 * cv2.GaussianBlur(g, (0, 0), 1.2))[:, :, None]
    ca = np.zeros(cover.shape[:2], np.uint8)
    r = int(4 * cppm)
    cv2.rectangle(ca, (r, 0), (ca.shape[1] - 1 - r, ca.shape[0] - 1), 255, -1)
    cv2.rectangle(ca, (0, r), (ca.shape[1] - 1, ca.shape[0] - 1 - r), 255, -1)
    for cx, cy in ((r, r), (ca.shape[1] - 1 - r, r), (r, ca.shape[0] - 1 - r), (ca.shape[1] - 1 - r, ca.shape[0] - 1 - r)):
        cv2.circle(ca, (cx, cy), r, 255, -1, cv2.LINE_AA)
    cy0 = (y_top + 44) / 2  # the booklet's centre in the booklet frame
    sub = Pose((0, 0), 0, 0, 0, 0)
    sub.R, sub.T = pose.R, pose.world([[0, cy0, 0]])[0]
    flat_object(acc, cam, sub, cover, ca.astype(np.float32) / 255, cppm, (cw, ch), z=0.0, chunks=2)
    # The page block: the pages' edges, lighter than the cover, a little beyond the pages.
    bw, bh = 125 + 2 * bm, 88 * 2 + gap + 2 * bm
    block = np.ones((int(bh * cppm), int(bw * cppm), 3), np.float32) * np.array((236, 230, 212), np.float32)
    lines = np.sin(np.arange(block.shape[0], dtype=np.float32) * 2.1)[:, None] * 10
    block[:, :, :] -= np.abs(lines)[:, :, None]
    flat_object(acc, cam, sub, block, np.ones(block.shape[:2], np.float32), cppm, (bw, bh), z=t * 0.5, chunks=2)
    # The pages, by strips: flat where they lie, rising to the gutter.
    light = np.array([0.35, -0.25, 1.0])
    light /= np.linalg.norm(light)

    def strips(y_outer, y_gutter, Hr, L, n=7):
        sgn = 1 if y_outer > y_gutter else -1
        # distances from the gutter: finer near it
        ds = [L * (k / n) ** 1.5 for k in range(n + 1)]
        rows = [(y_gutter + sgn * ds[k], y_gutter + sgn * ds[k + 1], ds[k], ds[k + 1]) for k in range(n)]
        rows.append((y_gutter + sgn * L, y_outer, L, abs(y_outer - y_gutter)))
        for ya, yb, da, db in rows:
            za = t + Hr * max(0.0, 1 - da / L) ** 2
            zb = t + Hr * max(0.0, 1 - db / L) ** 2
            slope = (za - zb) / max(1e-6, db - da) * sgn  # dz/dy
            nrm = np.array([0.0, -slope, 1.0])
            nrm /= np.linalg.norm(nrm)
            shade = 0.62 + 0.38 * max(0.0, float(nrm @ light)) / float(np.array([0, 0, 1.0]) @ light)
            shade = min(1.04, shade)
            chunks = 4 if db - da < 30 else 2
            xs = np.linspace(-62.5, 62.5, chunks + 1)
            for i in range(chunks):
                p = [[xs[i], ya, za], [xs[i + 1], ya, za], [xs[i + 1], yb, zb], [xs[i], yb, zb]]
                dst = cam.canvas_xy(pose.world(p))
                src = [((x + 62.5) * tppm - 0.5, (yy - y_top) * tppm - 0.5) for x, yy, _ in p]
                acc.warp(prgb, pa, src, dst, shade=shade, pad=2)

    strips(44.0, -44.0, geo["H1"], geo["L1"])
    strips(y_top, -44.0 - gap, geo["H2"], geo["L2"])


def booklet_page_height(geo, y):
    """The data page's height over the cover at y (booklet frame, mm)."""
    d = y + 44.0
    return geo["t"] + geo["H1"] * max(0.0, 1 - d / geo["L1"]) ** 2


# ---------------------------------------------------------------- printed sheets

def text_sheet(rng, wmm, hmm, ppm=4.0, headline=True):
    """A page of printed text (a leaflet, a letter): white paper, DejaVu lines."""
    w, h = int(wmm * ppm), int(hmm * ppm)
    pil = Image.new("RGB", (w, h), tuple(int(v) for v in rng.choice([(246, 246, 242), (250, 248, 236), (238, 242, 246)])))
    draw = ImageDraw.Draw(pil)
    m = int(12 * ppm)
    y = m
    if headline:
        draw.text((m, y), " ".join(mrzgen._word(rng, 2, 3) for _ in range(2)).upper(), font=pages.font(pages.DEJAVU_BOLD, int(7 * ppm)), fill=(30, 30, 60))
        y += int(12 * ppm)
    f = pages.font(pages.DEJAVU, max(8, int(rng.uniform(2.6, 3.6) * ppm)))
    while y < h - m:
        if rng.random() < 0.08:
            y += int(4 * ppm)
            continue
        line = " ".join(mrzgen._word(rng, 1, 3).lower() for _ in range(16))
        while draw.textlength(line, font=f) > w - 2 * m:
            line = line[:-3]
        draw.text((m, y), line, font=f, fill=(30, 30, 34))
        y += int(f.size * 1.5)
    return np.asarray(pil), np.full((h, w), 255, np.uint8), (wmm, hmm)
