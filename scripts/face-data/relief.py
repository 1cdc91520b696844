"""The relief renderer: a plausible 3D face made from one photograph and its hand
annotation, posed in front of the station's camera and lit by the room and the LED.

Coordinates. The camera looks along +z (x right, y down, millimetres, the lens at the
origin); a pixel (u, v) sees the ray ((u - cx) / f, (v - cy) / f, 1). A photograph's
person lives in object coordinates (millimetres): x right and y down along the image, z
away from the camera, origin at the head's turning point (behind the eyes). The object is
turned by R (yaw about y, pitch about x, roll about z) and moved by T (the turning point in
camera coordinates): C = R P + T.

The relief. depth(x, y) (in working pixels, towards the camera) is a sum of simple shapes
placed by the five landmarks: a paraboloid head, the brow, eye sockets, the nose (ridge,
tip, wings), cheeks, lips and chin; outside the head (hair, neck, shoulders) the outline is
a flat layer. The photograph is the albedo. The renderer works backwards: for each output
pixel the ray is followed into the relief by a damped fixed-point iteration (like parallax
occlusion mapping), which is exact where the surface is seen once and good enough for the
turns used here (|yaw| <= 25 degrees). The landmarks and the face box are projected
forwards with their depth: that is the ground truth.

Light (pixel values, the photograph treated as linear): ambient room light = level x (fill +
(1 - fill) x max(0, n.s)) normalised so a face towards the camera gets `level`, s the
direction towards the room light; the station's LED is a point light beside the lens:
gain x (500 mm)^2 x max(0, n.l) / d^2, plus a weak specular highlight on skin.
"""
import math

import cv2
import numpy as np

IPD_MM = 63.0            # distance of the eye centres (adult mean) sets the photograph's scale
WORK_EYE_PX = 96.0        # photographs are worked at most at this eye distance
LED_REF_MM = 500.0        # the LED gain is the brightening of a surface facing it at this distance
PIVOT = 1.35              # the turning point lies this many eye distances behind the eyes


def rotation(yaw, pitch, roll):
    """R for yaw (about y: > 0 turns the nose to the image's right), pitch (about x: > 0
    lifts the chin, the face seen from below) and roll (about z: > 0 clockwise on screen),
    degrees; applied roll after yaw after pitch."""
    y, p, r = (math.radians(a) for a in (yaw, pitch, roll))
    ry = np.array([[math.cos(y), 0, -math.sin(y)], [0, 1, 0], [math.sin(y), 0, math.cos(y)]])
    rx = np.array([[1, 0, 0], [0, math.cos(p), math.sin(p)], [0, -math.sin(p), math.cos(p)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    return rz @ ry @ rx


class Camera:
    def __init__(self, size, hfov_factor=0.85):
        self.size = size
        self.f = hfov_factor * size[0]
        self.c = ((size[0] - 1) / 2.0, (size[1] - 1) / 2.0)

    def project(self, pts):
        pts = np.asarray(pts, np.float64)
        return np.stack([self.f * pts[:, 0] / pts[:, 2] + self.c[0], self.f * pts[:, 1] / pts[:, 2] + self.c[1]], 1)

    def rays(self, x0, y0, x1, y1):
        xs = (np.arange(x0, x1, dtype=np.float32) - self.c[0]) / self.f
        ys = (np.arange(y0, y1, dtype=np.float32) - self.c[1]) / self.f
        return np.meshgrid(xs, ys)


def _gauss(u, v, cu, cv, su, sv, amp):
    return amp * np.exp(-0.5 * (((u - cu) / su) ** 2 + ((v - cv) / sv) ** 2))


class FaceModel:
    """One photograph made into a relief (working resolution, RGB float32 albedo)."""

    def __init__(self, name, rgb, ann):
        self.name = name
        lm = np.asarray(ann["landmarks"], np.float64)
        eye_l, eye_r = lm[0:2].mean(0), lm[2:4].mean(0)
        d = float(np.linalg.norm(eye_r - eye_l))
        scale = min(1.0, WORK_EYE_PX / d)
        outline = np.asarray(ann["outline"], np.float64)
        x0, y0 = np.floor(outline.min(0)).astype(int)
        x1, y1 = np.ceil(outline.max(0)).astype(int)
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(rgb.shape[1], x1 + 1), min(rgb.shape[0], y1 + 1)
        crop = rgb[y0:y1, x0:x1]
        w, h = int(round((x1 - x0) * scale)), int(round((y1 - y0) * scale))
        self.albedo = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR).astype(np.float32)
        # Photo pixel p -> working pixel (p - origin + 0.5) * scale - 0.5.
        to_work = lambda p: (np.asarray(p, np.float64) - [x0, y0] + 0.5) * scale - 0.5
        self.landmarks = to_work(lm)
        b = np.asarray(ann["box"], np.float64)
        self.box = np.concatenate([to_work(b[:2]), to_work(b[2:])])
        poly = to_work(outline)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(poly * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        mask = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.2)
        # The outline's bottom is where the photograph (or the crop) ends: fade it out.
        fade = max(4, int(0.12 * h))
        mask[h - fade:] *= np.linspace(1, 0, fade, dtype=np.float32)[:, None]
        self.mask = mask
        self.size = (w, h)
        el, er = self.landmarks[0:2].mean(0), self.landmarks[2:4].mean(0)
        self.eye_mid = (el + er) / 2
        self.d = float(np.linalg.norm(er - el))
        self.k = IPD_MM / self.d                  # millimetres per working pixel
        ex = (er - el) / self.d
        ey = np.array([-ex[1], ex[0]])
        self.ex, self.ey = ex, ey
        self.depth = self._relief(w, h)
        self.max_depth = float(self.depth.max())
        # Normals (object frame) from the relief's gradient: n = normalise(-dx, -dy, -1).
        dx = cv2.Sobel(self.depth, cv2.CV_32F, 1, 0, ksize=3) / 8.0
        dy = cv2.Sobel(self.depth, cv2.CV_32F, 0, 1, ksize=3) / 8.0
        n = np.stack([-dx, -dy, -np.ones_like(dx)], 2)
        n /= np.linalg.norm(n, axis=2, keepdims=True)
        self.normals = n.astype(np.float32)
        self.pivot_px = PIVOT * self.d        # turning point behind the eye plane (working px)
        self.photo_pose = ann.get("pose", (0.0, 0.0, 0.0))
        # Skin-ness for the specular highlight: inside the head, away from hair/eyes.
        self.skin = np.clip(self._head_profile * 1.6, 0, 1).astype(np.float32)

    def canonical(self, w, h):
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        rx, ry = xx - self.eye_mid[0], yy - self.eye_mid[1]
        u = (rx * self.ex[0] + ry * self.ex[1]) / self.d
        v = (rx * self.ey[0] + ry * self.ey[1]) / self.d
        return u, v

    def _relief(self, w, h):
        """Depth towards the camera, working pixels, 0 at the flat layer."""
        u, v = self.canonical(w, h)
        nb = self.landmarks[4] - self.eye_mid
        nu = float(nb @ self.ex) / self.d
        nv = max(0.6, float(nb @ self.ey) / self.d)
        # Head: a paraboloid (bounded slope: the fixed point converges), centred under the eyes.
        ax, ay, az = 1.22, 1.05 + 0.85 * nv, 0.95
        cu, cv = 0.15 * nu, 0.45 * nv
        rho2 = ((u - cu) / ax) ** 2 + ((v - cv) / ay) ** 2
        head = np.clip(1 - rho2, 0, None)
        self._head_profile = head
        z = az * head
        # Forehead roundness and brow ridge.
        z += _gauss(u, v, 0.0, -0.35 * nv - 0.05, 0.75, 0.16, 0.07)
        # Eye sockets.
        for side in (-0.5, 0.5):
            z += _gauss(u, v, side, 0.02, 0.24, 0.17, -0.13)
        # Nose: ridge from the nasion to the tip, the tip, the wings; it follows the
        # annotated nose base (a turned photograph keeps its nose where it is).
        t = np.clip((v + 0.05) / (0.8 * nv + 0.05), 0, 1)
        ridge_u = t * nu * 0.9
        ridge_h = 0.08 + 0.3 * t ** 1.3
        z += ridge_h * np.exp(-0.5 * ((u - ridge_u) / (0.09 + 0.05 * t)) ** 2) * (v < 0.8 * nv + 0.1) * np.clip((v + 0.15) * 6, 0, 1)
        z += _gauss(u, v, 0.92 * nu, 0.8 * nv, 0.13, 0.12, 0.1)
        for side in (-0.2, 0.2):
            z += _gauss(u, v, nu + side, nv - 0.08, 0.1, 0.09, 0.07)
        # Cheeks, lips, chin.
        for side in (-0.6, 0.6):
            z += _gauss(u, v, side + 0.3 * nu, 0.62 * nv + 0.1, 0.28, 0.28, 0.07)
        z += _gauss(u, v, nu * 0.8, nv + 0.45, 0.35, 0.14, 0.05)
        z += _gauss(u, v, nu * 0.6, nv + 1.05, 0.3, 0.2, 0.07)
        z = cv2.GaussianBlur(z.astype(np.float32), (0, 0), max(1.0, 0.04 * self.d))
        return (z * self.d).astype(np.float32)

    def object_points(self, pts_work, depth=None):
        """Working pixels -> object coordinates (mm)."""
        p = np.asarray(pts_work, np.float64)
        if depth is None:
            depth = sample(self.depth, p)
        return np.stack([self.k * (p[:, 0] - self.eye_mid[0]), self.k * (p[:, 1] - self.eye_mid[1]),
                         self.k * (self.pivot_px - depth)], 1)

    def box_points(self):
        """Points on the annotated face box's edges (with their relief depth)."""
        x0, y0, x1, y1 = self.box
        ts = np.linspace(0, 1, 7)
        pts = [(x0 + (x1 - x0) * t, y0) for t in ts] + [(x0 + (x1 - x0) * t, y1) for t in ts]
        pts += [(x0, y0 + (y1 - y0) * t) for t in ts[1:-1]] + [(x1, y0 + (y1 - y0) * t) for t in ts[1:-1]]
        return np.array(pts)

    def outline_corners(self):
        w, h = self.size
        return np.array([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)], np.float64)


def sample(img, pts):
    """Bilinear samples of a one-channel float image at points (x, y)."""
    p = np.asarray(pts, np.float32).reshape(1, -1, 2)
    out = cv2.remap(img, p[:, :, 0].copy(), p[:, :, 1].copy(), cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out.reshape(-1).astype(np.float64)


class Pose:
    """Where a person or an instrument is: rotation and the turning point (mm)."""

    def __init__(self, yaw=0.0, pitch=0.0, roll=0.0, t=(0.0, 0.0, 500.0)):
        self.yaw, self.pitch, self.roll = yaw, pitch, roll
        self.R = rotation(yaw, pitch, roll)
        self.T = np.asarray(t, np.float64)

    def apply(self, pts):
        return pts @ self.R.T + self.T


def project_face(model, pose, cam):
    """Ground truth of a posed relief: the 5 landmarks and the face box (pixels)."""
    lm = cam.project(pose.apply(model.object_points(model.landmarks)))
    bx = cam.project(pose.apply(model.object_points(model.box_points())))
    box = np.array([bx[:, 0].min(), bx[:, 1].min(), bx[:, 0].max(), bx[:, 1].max()])
    return lm, box


def face_roi(model, pose, cam, margin=4):
    """The frame region the posed photograph can cover (clipped), or None."""
    w, h = model.size
    corners = model.outline_corners()
    pts = []
    for depth in (0.0, model.max_depth):
        pts.append(cam.project(pose.apply(model.object_points(corners, np.full(len(corners), depth)))))
    pts = np.concatenate(pts)
    fw, fh = cam.size
    x0, y0 = int(max(0, math.floor(pts[:, 0].min()) - margin)), int(max(0, math.floor(pts[:, 1].min()) - margin))
    x1, y1 = int(min(fw, math.ceil(pts[:, 0].max()) + margin)), int(min(fh, math.ceil(pts[:, 1].max()) + margin))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return x0, y0, x1, y1


class Light:
    """The room's light and the station's LED for one scene."""

    def __init__(self, level=1.0, direction=(0.0, -0.6, -0.8), fill=0.55, tint=(1.0, 1.0, 1.0),
                 led_gain=0.6, led_pos=(0.0, -45.0, 0.0), led_tint=(0.97, 1.0, 1.04), specular=0.12):
        self.level = level
        s = np.asarray(direction, np.float64)
        self.s = s / np.linalg.norm(s)
        self.fill = fill
        self.tint = np.asarray(tint, np.float32)
        self.led_gain = led_gain
        self.led_pos = np.asarray(led_pos, np.float64)
        self.led_tint = np.asarray(led_tint, np.float32)
        self.specular = specular

    def ambient_norm(self):
        return self.fill + (1 - self.fill) * max(0.0, -self.s[2])


BLOCK = 3      # the ray search and the light are worked on blocks of BLOCK x BLOCK pixels


def block_rays(cam, roi, block):
    """Rays through the centres of the ROI's blocks, and the blocks' grid size."""
    x0, y0, x1, y1 = roi
    cw, ch = -(-(x1 - x0) // block), -(-(y1 - y0) // block)
    off = (block - 1) / 2.0
    xs = (x0 + off + block * np.arange(cw, dtype=np.float32) - cam.c[0]) / cam.f
    ys = (y0 + off + block * np.arange(ch, dtype=np.float32) - cam.c[1]) / cam.f
    rx, ry = np.meshgrid(xs, ys)
    return rx, ry, cw, ch


def upsample(m, roi, block, cw, ch):
    """A block grid back to the ROI's pixels (bilinear; the blocks' centres line up)."""
    x0, y0, x1, y1 = roi
    return cv2.resize(m, (block * cw, block * ch), interpolation=cv2.INTER_LINEAR)[:y1 - y0, :x1 - x0]


def render_relief(model, pose, cam, light, roi=None, iterations=6, led_on=None):
    """Renders the posed relief into the frame region ROI.

    Returns (roi, ambient, led, alpha): ambient and led are float32 RGB pixel values (led the
    LED's additive contribution at full power), alpha the coverage (0..1); None if the person
    is out of view. With led_on 0 or 1, ambient is the whole picture with the LED off or on
    and led is None (cheaper). The ray search and the light are worked on a grid of pixel blocks (both
    are smooth) and interpolated; the photograph is sampled at every pixel."""
    roi = roi or face_roi(model, pose, cam)
    if roi is None:
        return None
    rx, ry, cw, ch = block_rays(cam, roi, BLOCK)
    rt = pose.R.T
    # a = R^T r, b = R^T T: the object point on the ray at parameter t is t a - b.
    ax = rt[0, 0] * rx + rt[0, 1] * ry + rt[0, 2]
    ay = rt[1, 0] * rx + rt[1, 1] * ry + rt[1, 2]
    az = rt[2, 0] * rx + rt[2, 1] * ry + rt[2, 2]
    b = rt @ pose.T
    k = model.k
    inv_az = 1.0 / az
    zz = np.full(rx.shape, k * (model.pivot_px - 0.75 * model.max_depth), np.float32)
    ex, ey = model.eye_mid
    for i in range(iterations):
        t = (zz + b[2]) * inv_az
        px = (t * ax - b[0]) * (1.0 / k) + ex
        py = (t * ay - b[1]) * (1.0 / k) + ey
        depth = cv2.remap(model.depth, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        target = k * (model.pivot_px - depth)
        zz = target if i < 2 else zz + 0.6 * (target - zz)
    t = (zz + b[2]) * inv_az
    px = (t * ax - b[0]) * (1.0 / k) + ex
    py = (t * ay - b[1]) * (1.0 / k) + ey
    nrm = cv2.remap(model.normals, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    r = pose.R
    nx = r[0, 0] * nrm[:, :, 0] + r[0, 1] * nrm[:, :, 1] + r[0, 2] * nrm[:, :, 2]
    ny = r[1, 0] * nrm[:, :, 0] + r[1, 1] * nrm[:, :, 1] + r[1, 2] * nrm[:, :, 2]
    nz = r[2, 0] * nrm[:, :, 0] + r[2, 1] * nrm[:, :, 1] + r[2, 2] * nrm[:, :, 2]
    # Ambient.
    s = light.s
    amb = np.maximum(nx * s[0] + ny * s[1] + nz * s[2], 0) * ((1 - light.fill) * light.level / light.ambient_norm())
    amb += light.fill * light.level / light.ambient_norm()
    # LED: a point light at led_pos; the surface point is t * ray.
    lx = light.led_pos[0] - t * rx
    ly = light.led_pos[1] - t * ry
    lz = light.led_pos[2] - t
    d2 = lx * lx + ly * ly + lz * lz
    inv_d = 1.0 / np.sqrt(d2)
    power = (light.led_gain * LED_REF_MM ** 2) / d2
    led = np.maximum((nx * lx + ny * ly + nz * lz) * inv_d, 0) * power
    spec = None
    if light.specular > 0:
        skin = cv2.remap(model.skin, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        # Blinn-Phong: the half vector between the LED and the camera (at the origin).
        inv_v = 1.0 / (np.abs(t) * np.sqrt(rx * rx + ry * ry + 1))
        hx, hy, hz = lx * inv_d - t * rx * inv_v, ly * inv_d - t * ry * inv_v, lz * inv_d - t * inv_v
        nh = np.maximum((nx * hx + ny * hy + nz * hz) / np.sqrt(hx * hx + hy * hy + hz * hz), 0)
        spec = (light.specular * 255.0) * skin * nh ** 24 * power
    def up(m):
        return upsample(m, roi, BLOCK, cw, ch)
    px, py = up(px), up(py)
    alpha = cv2.remap(model.mask, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    albedo = cv2.remap(model.albedo, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    tint, led_tint = light.tint, light.led_tint
    if led_on is not None:
        shade = amb[:, :, None] * tint
        if led_on:
            shade = shade + led[:, :, None] * led_tint
        rgb = albedo * up(shade)
        if led_on and spec is not None:
            rgb += up(spec[:, :, None] * led_tint)
        return roi, rgb, None, alpha
    ambient = albedo * up(amb[:, :, None] * tint)
    led_rgb = albedo * up(led[:, :, None] * led_tint)
    if spec is not None:
        led_rgb += up(spec[:, :, None] * led_tint)
    return roi, ambient, led_rgb, alpha


def plane_points(pose, size_mm, pts_px, content_size):
    """Content pixels of a flat sheet (centred on the pose's point) -> camera coordinates."""
    w, h = content_size
    p = np.asarray(pts_px, np.float64)
    obj = np.stack([(p[:, 0] + 0.5) / w * size_mm[0] - size_mm[0] / 2, (p[:, 1] + 0.5) / h * size_mm[1] - size_mm[1] / 2,
                    np.zeros(len(p))], 1)
    return pose.apply(obj)


def render_plane(content, alpha_content, size_mm, pose, cam, light, kind, screen=None, led_on=None):
    """A flat instrument: a print (lit like paper) or a screen (emissive, with reflections).

    content: float32 RGB (the sheet or the screen's picture, including a border or bezel),
    alpha_content: its coverage. Returns (roi, ambient, led, alpha) like render_relief (and
    like it the whole picture in ambient when led_on is 0 or 1), or
    None."""
    h, w = content.shape[:2]
    corners = np.array([(-0.5, -0.5), (w - 0.5, -0.5), (w - 0.5, h - 0.5), (-0.5, h - 0.5)])
    cam_pts = plane_points(pose, size_mm, corners, (w, h))
    if np.any(cam_pts[:, 2] < 50):
        return None
    q = cam.project(cam_pts)
    fw, fh = cam.size
    x0, y0 = int(max(0, math.floor(q[:, 0].min()) - 2)), int(max(0, math.floor(q[:, 1].min()) - 2))
    x1, y1 = int(min(fw, math.ceil(q[:, 0].max()) + 3)), int(min(fh, math.ceil(q[:, 1].max()) + 3))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    src = corners.astype(np.float32)
    hm = cv2.getPerspectiveTransform(src, (q - [x0, y0]).astype(np.float32))
    out_size = (x1 - x0, y1 - y0)
    # Large reductions: shrink the content first, so the warp does not alias.
    scale = np.linalg.norm(q[1] - q[0]) / w
    if scale < 0.6:
        k = max(scale * 1.5, 0.02)
        small = (max(2, int(w * k)), max(2, int(h * k)))
        content = cv2.resize(content, small, interpolation=cv2.INTER_AREA)
        alpha_content = cv2.resize(alpha_content, small, interpolation=cv2.INTER_AREA)
        sx, sy = small[0] / w, small[1] / h
        hm = hm @ np.array([[1 / sx, 0, 0.5 / sx - 0.5], [0, 1 / sy, 0.5 / sy - 0.5], [0, 0, 1]])
    both = cv2.warpPerspective(np.dstack([content, alpha_content]), hm, out_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    img, alpha = both[:, :, :3], np.ascontiguousarray(both[:, :, 3])
    # The plane's points along each block's ray, for the LED's falloff and the highlight.
    roi = (x0, y0, x1, y1)
    rx, ry, cw, ch = block_rays(cam, roi, 4)
    n = pose.R @ np.array([0.0, 0.0, -1.0])
    denom = n[0] * rx + n[1] * ry + n[2]
    t = (n @ pose.T) / np.where(np.abs(denom) < 1e-6, 1e-6, denom)
    lx, ly, lz = light.led_pos[0] - t * rx, light.led_pos[1] - t * ry, light.led_pos[2] - t
    d2 = lx * lx + ly * ly + lz * lz
    inv_d = 1.0 / np.sqrt(d2)
    cos_l = np.maximum((n[0] * lx + n[1] * ly + n[2] * lz) * inv_d, 0)
    led_irr = cos_l * (light.led_gain * LED_REF_MM ** 2) / d2
    amb = light.level * (light.fill + (1 - light.fill) * max(0.0, float(n @ light.s))) / light.ambient_norm()
    vx, vy, vz = -t * rx, -t * ry, -t
    inv_v = 1.0 / np.sqrt(vx * vx + vy * vy + vz * vz)
    hx, hy, hz = lx * inv_d + vx * inv_v, ly * inv_d + vy * inv_v, lz * inv_d + vz * inv_v
    inv_h = 1.0 / np.sqrt(hx * hx + hy * hy + hz * hz)
    nh = np.maximum((n[0] * hx + n[1] * hy + n[2] * hz) * inv_h, 0)
    led_irr = led_irr.astype(np.float32)
    up = lambda m: upsample(m.astype(np.float32), roi, 4, cw, ch)
    tint, led_tint = light.tint.astype(np.float32), light.led_tint.astype(np.float32)
    if kind == "print":
        gloss, shine = screen or (0.0, 30)
        diffuse = led_irr[:, :, None] * led_tint
        highlight = (gloss * 255.0 * nh ** shine * led_irr)[:, :, None] * led_tint if gloss > 0 else None
        if led_on is not None:
            shade = amb * tint + diffuse if led_on else np.broadcast_to(amb * tint, diffuse.shape)
            ambient = img * up(shade)
            if led_on and highlight is not None:
                ambient += up(highlight)
            return (x0, y0, x1, y1), ambient, None, alpha
        ambient = img * (amb * tint)
        led = img * up(diffuse)
        if highlight is not None:
            led += up(highlight)
    else:
        level, reflect, glare, shine = screen
        led = (reflect * 255.0 * led_irr)[:, :, None] * led_tint
        if glare > 0:
            led = led + (glare * 255.0 * nh ** shine * led_irr)[:, :, None] * led_tint
        ambient = img * level + reflect * 255.0 * amb * tint * 0.35
        if led_on is not None:
            if led_on:
                ambient += up(led)
            return (x0, y0, x1, y1), ambient, None, alpha
        led = up(led)
    return (x0, y0, x1, y1), ambient, led, alpha


def over(frame, layer, weight=1.0):
    """Composites a rendered layer's (roi, rgb, alpha) into a float frame in place."""
    roi, rgb, alpha = layer
    x0, y0, x1, y1 = roi
    a = alpha[:, :, None] * weight
    region = frame[y0:y1, x0:x1]
    region *= 1 - a
    region += rgb * a
