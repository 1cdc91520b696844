"""The kiosk's camera: a pinhole above the platen with radial distortion, and the renderer.

Coordinates
  platen (world) frame, mm: X to the image's right, Y to the image's bottom, Z away from the
  camera (into the platen); the platen's surface is Z = 0, the camera sits at (0, 0, -Hc).
  image: pixels, the centre of the top-left pixel at (0, 0).
The scene is drawn undistorted on a padded canvas, then remapped through the distortion model
  x_d = x_u * (1 + k1 r^2 + k2 r^4)   (normalised coordinates, r^2 = x_u^2 + y_u^2).
"""

import math

import cv2
import numpy as np

cv2.setNumThreads(1)


def rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_y(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def rot_axis(axis, a):
    axis = np.asarray(axis, float)
    axis = axis / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


class Station:
    """A kiosk: camera optics and mounting, LED and vignetting. Resolution-independent."""

    def __init__(self, sid, hfov_deg, wp_mm, k1, k2, ox, oy, tilt_x, tilt_y, led, vignette):
        self.id, self.hfov, self.wp = sid, hfov_deg, wp_mm
        self.k1, self.k2, self.ox, self.oy = k1, k2, ox, oy
        self.hc = (wp_mm / 2) / math.tan(math.radians(hfov_deg) / 2)
        self.R = rot_x(math.radians(tilt_x)) @ rot_y(math.radians(tilt_y))
        self.C = np.array([0.0, 0.0, -self.hc])
        self.led = np.array([led[0], led[1], -self.hc * led[2]])
        self.vignette = vignette
        self.tilt = (tilt_x, tilt_y)

    def axis_world(self):
        return self.R.T @ np.array([0.0, 0.0, 1.0])

    def describe(self):
        return {"id": self.id, "hfov_deg": round(self.hfov, 2), "camera_height_mm": round(self.hc, 1),
                "frame_width_at_platen_mm": round(self.wp, 1), "k1": self.k1, "k2": self.k2,
                "camera_tilt_deg": [round(t, 2) for t in self.tilt]}


def make_stations():
    # hfov, width of the view at the platen (mm), distortion, principal point offset, mount tilt,
    # LED offset (x, y mm; height as a fraction of the camera's), vignetting
    spec = [
        (42.0, 188, -0.06, 0.010, 0.004, -0.003, 0.8, -0.6, (45, -30, 0.97), 0.22),
        (60.0, 212, -0.11, 0.020, -0.006, 0.005, -1.2, 0.4, (-60, 40, 1.0), 0.30),
        (50.0, 236, -0.08, 0.012, 0.002, 0.006, 0.3, 1.5, (70, 20, 0.95), 0.25),
        (64.0, 258, -0.13, 0.025, -0.004, -0.004, 1.8, 0.0, (-40, -50, 1.02), 0.35),
        (45.0, 282, -0.05, 0.006, 0.007, 0.002, -0.5, -1.0, (30, 60, 0.98), 0.20),
        (55.0, 305, -0.09, 0.015, -0.002, -0.006, 0.0, 2.0, (-80, 0, 0.96), 0.28),
        (62.0, 332, -0.12, 0.022, 0.003, 0.004, 2.2, -1.4, (55, 45, 1.0), 0.33),
        (48.0, 362, -0.07, 0.010, -0.005, 0.001, -1.6, 0.8, (-30, 70, 0.99), 0.24),
        (58.0, 395, -0.10, 0.018, 0.005, -0.002, 0.6, -2.2, (65, -55, 0.97), 0.30),
        (52.0, 428, -0.08, 0.014, -0.003, 0.007, -2.0, 1.2, (-70, -35, 1.01), 0.27),
        (40.0, 200, 0.03, 0.000, 0.000, 0.000, 0.4, 0.4, (50, 50, 0.98), 0.18),
        (65.0, 300, -0.14, 0.030, 0.006, -0.005, -0.8, -0.8, (-50, 55, 1.0), 0.38),
    ]
    return [Station("s%02d" % i, *p) for i, p in enumerate(spec)]


class Camera:
    """A station at one resolution: intrinsics, the padded canvas and the distortion maps."""

    _cache = {}

    @classmethod
    def get(cls, station, W, H):
        key = (station.id, W, H)
        if key not in cls._cache:
            cls._cache[key] = Camera(station, W, H)
        return cls._cache[key]

    def __init__(self, st, W, H):
        self.st, self.W, self.H = st, W, H
        self.f = (W / 2) / math.tan(math.radians(st.hfov) / 2)
        self.cx = (W - 1) / 2 + st.ox * W
        self.cy = (H - 1) / 2 + st.oy * H
        # distortion maps: for each output pixel the undistorted position
        ys, xs = np.mgrid[0:H, 0:W].astype(np.float64)
        xd, yd = (xs - self.cx) / self.f, (ys - self.cy) / self.f
        xu, yu = xd.copy(), yd.copy()
        for _ in range(12):
            r2 = xu * xu + yu * yu
            fac = 1 + st.k1 * r2 + st.k2 * r2 * r2
            xu, yu = xd / fac, yd / fac
        ux, uy = xu * self.f + self.cx, yu * self.f + self.cy
        pad = int(math.ceil(max(0.0, -ux.min(), -uy.min(), ux.max() - (W - 1), uy.max() - (H - 1)))) + 4
        self.pad = pad
        self.CW, self.CH = W + 2 * pad, H + 2 * pad
        m1, m2 = cv2.convertMaps((ux + pad).astype(np.float32), (uy + pad).astype(np.float32), cv2.CV_16SC2)
        self.map1, self.map2 = m1, m2
        # where the frame's border comes from on the undistorted canvas (what must be covered)
        step = 16
        bx = np.concatenate([np.arange(0, W, step), np.full(H // step, W - 1), np.arange(0, W, step)[::-1],
                             np.zeros(H // step, int)])
        by = np.concatenate([np.zeros(len(np.arange(0, W, step)), int), np.arange(0, H, step)[:H // step],
                             np.full(len(np.arange(0, W, step)), H - 1), np.arange(0, H, step)[:H // step][::-1]])
        self.border_canvas = np.stack([ux[by, bx] + pad, uy[by, bx] + pad], 1)
        r = np.sqrt(((xs - (W - 1) / 2) / (W / 2)) ** 2 + ((ys - (H - 1) / 2) / (W / 2)) ** 2)
        self.r_norm = r.astype(np.float32)
        self.ppm_platen = self.f / st.hc

    # --- projection
    def to_cam(self, P):
        P = np.atleast_2d(np.asarray(P, float))
        return (self.st.R @ (P - self.st.C).T).T

    def project(self, P):
        """World points -> undistorted canvas pixels (N x 2)."""
        pc = self.to_cam(P)
        z = np.maximum(pc[:, 2], 1e-3)
        return np.stack([self.f * pc[:, 0] / z + self.cx + self.pad, self.f * pc[:, 1] / z + self.cy + self.pad], 1)

    def distort(self, canvas_pts):
        """Undistorted canvas pixels -> distorted image pixels."""
        p = np.atleast_2d(np.asarray(canvas_pts, float))
        xu = (p[:, 0] - self.pad - self.cx) / self.f
        yu = (p[:, 1] - self.pad - self.cy) / self.f
        r2 = xu * xu + yu * yu
        fac = 1 + self.st.k1 * r2 + self.st.k2 * r2 * r2
        return np.stack([xu * fac * self.f + self.cx, yu * fac * self.f + self.cy], 1)

    def image_points(self, P):
        return self.distort(self.project(P))

    def platen_homography(self):
        """Platen mm (X, Y, Z=0) -> canvas pixels."""
        K = np.array([[self.f, 0, self.cx + self.pad], [0, self.f, self.cy + self.pad], [0, 0, 1.0]])
        R = self.st.R
        t = -R @ self.st.C
        return K @ np.column_stack([R[:, 0], R[:, 1], t])


# ---------------------------------------------------------------- drawing into the canvas

def warp_surface(cam, tex, angle_deg, offset_mm):
    """Background: the surface texture (centred on the platen origin, rotated and shifted)."""
    Hp = cam.platen_homography()
    ppm_need = cam.ppm_platen
    arr, ppm = tex.rgb_level(ppm_need)
    a = math.radians(angle_deg)
    # texture px -> texture mm (centred) -> platen mm
    T1 = np.array([[1 / ppm, 0, 0.5 / ppm - tex.w_mm / 2], [0, 1 / ppm, 0.5 / ppm - tex.h_mm / 2], [0, 0, 1]])
    Rz = np.array([[math.cos(a), -math.sin(a), offset_mm[0]], [math.sin(a), math.cos(a), offset_mm[1]], [0, 0, 1]])
    M = Hp @ Rz @ T1
    # the mount tilts are small: an affine fit of the homography over the canvas is exact to a
    # fraction of a pixel for the background and twice as fast to apply
    Mi = np.linalg.inv(M)
    dst = np.array([[0, 0], [cam.CW, 0], [cam.CW, cam.CH], [0, cam.CH], [cam.CW / 2, cam.CH / 2]], np.float64)
    src = (Mi @ np.column_stack([dst, np.ones(len(dst))]).T).T
    src = src[:, :2] / src[:, 2:3]
    X = np.column_stack([src, np.ones(len(src))])
    A = np.linalg.lstsq(X, dst, rcond=None)[0].T
    return cv2.warpAffine(arr, A, (cam.CW, cam.CH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


class Quad:
    """A planar piece of an object: world corners of the texture rect (u0,v0)-(u1,v1) mm,
    in the order (u0,v0), (u1,v0), (u1,v1), (u0,v1)."""

    def __init__(self, tex, rect, world, clip=False, opacity=1.0):
        self.tex, self.rect, self.world, self.clip, self.opacity = tex, rect, np.asarray(world, float), clip, opacity


class Layer:
    """Premultiplied RGB + alpha over a rectangle of the canvas."""

    def __init__(self, x0, y0, x1, y1):
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        h, w = y1 - y0, x1 - x0
        self.rgb = np.zeros((h, w, 3), np.float32)
        self.a = np.zeros((h, w), np.float32)
        self.empty = True

    def over(self, x, y, rgb, a):
        """Composites a straight-alpha patch at canvas (x, y)."""
        h, w = a.shape
        if self.empty and x == self.x0 and y == self.y0 and (h, w) == self.a.shape:
            self.rgb = rgb * a[..., None]
            self.a = a.copy()
            self.empty = False
            return
        self.empty = False
        xa, ya = max(x, self.x0), max(y, self.y0)
        xb, yb = min(x + w, self.x1), min(y + h, self.y1)
        if xb <= xa or yb <= ya:
            return
        pa = np.ascontiguousarray(a[ya - y:yb - y, xa - x:xb - x])
        prgb = np.ascontiguousarray(rgb[ya - y:yb - y, xa - x:xb - x])
        L = self.rgb[ya - self.y0:yb - self.y0, xa - self.x0:xb - self.x0]
        La = self.a[ya - self.y0:yb - self.y0, xa - self.x0:xb - self.x0]
        pa3 = cv2.merge([pa, pa, pa])
        inv = 1.0 - pa
        cv2.multiply(L, cv2.merge([inv, inv, inv]), dst=L)
        cv2.add(L, cv2.multiply(prgb, pa3), dst=L)
        cv2.multiply(La, inv, dst=La)
        cv2.add(La, pa, dst=La)


def bbox_of(pts, CW, CH, margin=2):
    x0 = int(math.floor(pts[:, 0].min())) - margin
    y0 = int(math.floor(pts[:, 1].min())) - margin
    x1 = int(math.ceil(pts[:, 0].max())) + margin + 1
    y1 = int(math.ceil(pts[:, 1].max())) + margin + 1
    return max(x0, 0), max(y0, 0), min(x1, CW), min(y1, CH)


def draw_quad(cam, layer, q):
    dst = cam.project(q.world)
    if (cam.to_cam(q.world)[:, 2] < 1).any():
        return
    x0, y0, x1, y1 = bbox_of(dst, cam.CW, cam.CH)
    x0, y0 = max(x0, layer.x0), max(y0, layer.y0)
    x1, y1 = min(x1, layer.x1), min(y1, layer.y1)
    if x1 <= x0 or y1 <= y0:
        return
    u0, v0, u1, v1 = q.rect
    area_px = 0.5 * abs(np.cross(dst[2] - dst[0], dst[3] - dst[1]))
    area_mm = max(1e-6, (u1 - u0) * (v1 - v0))
    arr, ppm = q.tex.level(math.sqrt(area_px / area_mm))
    src = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]], np.float32) * ppm - 0.5
    Hm = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
    w = cv2.warpPerspective(arr, Hm, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    wf = w.astype(np.float32) * (1.0 / 255.0)
    a = wf[..., 3] * q.opacity
    if q.clip:
        c = dst.mean(0)
        poly = dst + (dst - c) / np.maximum(np.linalg.norm(dst - c, axis=1, keepdims=True), 1e-6) * 1.5
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.round((poly - [x0, y0]) * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
        a = a * (m.astype(np.float32) / 255.0)
    layer.over(x0, y0, wf[..., :3], a)


def poly_mask(shape, polys_canvas, origin):
    m = np.zeros(shape, np.uint8)
    polys_canvas = [p for p in polys_canvas if np.isfinite(p).all() and np.abs(p).max() < 1e6]
    pts = [np.round((np.asarray(p) - origin) * 16).astype(np.int32) for p in polys_canvas]
    cv2.fillPoly(m, pts, 255, cv2.LINE_AA, shift=4)
    return m.astype(np.float32) / 255.0


def line_kernel(length_px, angle_rad):
    L = max(1.0, length_px)
    n = int(math.ceil(L)) | 1
    n = max(n, 3)
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2
    dx, dy = math.cos(angle_rad), math.sin(angle_rad)
    steps = max(8, int(L * 4))
    for i in range(steps + 1):
        t = -L / 2 + L * i / steps
        x, y = c + t * dx, c + t * dy
        xi, yi = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - xi, y - yi
        for (xx, yy, wgt) in ((xi, yi, (1 - fx) * (1 - fy)), (xi + 1, yi, fx * (1 - fy)),
                              (xi, yi + 1, (1 - fx) * fy), (xi + 1, yi + 1, fx * fy)):
            if 0 <= xx < n and 0 <= yy < n:
                k[yy, xx] += wgt
    return k / k.sum()


def blur_layer(layer, defocus_px, motion_px, motion_angle):
    if defocus_px > 0.05:
        layer.rgb = cv2.GaussianBlur(layer.rgb, (0, 0), defocus_px)
        layer.a = cv2.GaussianBlur(layer.a, (0, 0), defocus_px)
    if motion_px > 0.6:
        k = line_kernel(motion_px, motion_angle)
        layer.rgb = cv2.filter2D(layer.rgb, -1, k, borderType=cv2.BORDER_CONSTANT)
        layer.a = cv2.filter2D(layer.a, -1, k, borderType=cv2.BORDER_CONSTANT)


def composite(canvas_f, layer):
    sub = canvas_f[layer.y0:layer.y1, layer.x0:layer.x1]
    sub *= (1 - layer.a)[..., None]
    sub += layer.rgb


def soft_blur(m, sigma):
    """Gaussian blur; large kernels are done on a reduced copy."""
    if sigma <= 0.3:
        return m
    f = int(sigma // 3)
    if f < 2:
        return cv2.GaussianBlur(m, (0, 0), sigma)
    h, w = m.shape[:2]
    small = cv2.resize(m, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / f)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def shade_region(canvas_f, polys, strength, blur_px):
    """Darkens the canvas under polygons (soft shadows)."""
    polys = [p for p in polys if np.isfinite(p).all() and np.abs(p).max() < 1e6]
    if not polys:
        return
    pts = np.vstack(polys)
    m = int(3 * blur_px) + 3
    x0, y0, x1, y1 = bbox_of(pts, canvas_f.shape[1], canvas_f.shape[0], m)
    if x1 <= x0 or y1 <= y0:
        return
    mask = poly_mask((y1 - y0, x1 - x0), polys, np.array([x0, y0]))
    mask = soft_blur(mask, blur_px)
    mask *= -strength
    mask += 1.0
    sub = canvas_f[y0:y1, x0:x1]
    cv2.multiply(sub, cv2.merge([mask, mask, mask]), dst=sub)


# ---------------------------------------------------------------- camera effects

class NoisePool:
    _pools = {}

    @classmethod
    def field(cls, W, H, rng):
        key = (W, H)
        if key not in cls._pools:
            g = np.random.default_rng(W * 7 + H)
            cls._pools[key] = [g.standard_normal((H + 48, W + 48, 3)).astype(np.float32) for _ in range(4)]
        pool = cls._pools[key]
        f = pool[int(rng.integers(len(pool)))]
        ox, oy = int(rng.integers(48)), int(rng.integers(48))
        return f[oy:oy + H, ox:ox + W]


def illumination(cam, light):
    """Vignetting, the LED's hot spot and exposure as a gain map (H x W)."""
    W, H = cam.W, cam.H
    g = 1.0 - light["vignette"] * cam.r_norm ** 2
    if light["hotspot"] > 0:
        hx, hy, hs = light["hot_xy"][0] * W, light["hot_xy"][1] * H, light["hot_sigma"] * W
        xs = np.arange(W, dtype=np.float32)
        ys = np.arange(H, dtype=np.float32)
        gx = np.exp(-0.5 * ((xs - hx) / hs) ** 2)
        gy = np.exp(-0.5 * ((ys - hy) / hs) ** 2)
        g = g + light["hotspot"] * np.outer(gy, gx)
        ramp = light["ramp"]
        g = g * (1 + ramp[0] * (xs[None, :] / W - 0.5) + ramp[1] * (ys[:, None] / H - 0.5))
    return (g * light["exposure"]).astype(np.float32)


def gain3(cam, light):
    g = illumination(cam, light)
    wb = np.asarray(light["wb"], np.float32)
    return cv2.merge([g * wb[0], g * wb[1], g * wb[2]])


def finish(cam, canvas_f, light, rng, g3=None):
    """Distortion, lighting, white balance, sensor noise -> uint8 RGB frame."""
    img = cv2.remap(canvas_f, cam.map1, cam.map2, cv2.INTER_LINEAR)
    if g3 is None:
        g3 = gain3(cam, light)
    cv2.multiply(img, g3, dst=img)
    np.clip(img, 0, 1, out=img)
    n = NoisePool.field(cam.W, cam.H, rng)
    # signal-dependent noise: (read + shot * signal) * N(0, 1)
    tmp = cv2.multiply(img, n, scale=light["shot_noise"])
    cv2.scaleAdd(n, light["read_noise"], tmp, dst=tmp)
    cv2.add(img, tmp, dst=img)
    # a small black level keeps the noise at black from folding (convertScaleAbs takes |x|)
    return cv2.convertScaleAbs(img, alpha=255.0, beta=3.0)


def encode_jpeg(rgb_u8, quality):
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb_u8, cv2.COLOR_RGB2BGR),
                           [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    return buf.tobytes()
