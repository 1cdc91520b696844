"""Camera scenes: a flat object (document page, phone, book, print) posed in 3D under the
fixed camera, composed onto the station's platen, then degraded the way a camera does.

Coordinates: image pixels with pixel centres at integers (OpenCV's convention); corners
are listed top-left, top-right, bottom-right, bottom-left of the object as printed.
"""
import math

import cv2
import numpy as np

# Focal length of the station camera in pixels, as a multiple of the frame width
# (a horizontal field of view of about 45 degrees).
FOCAL_PER_WIDTH = 1.2

# Thresholds behind the `expected` label (docs/vision-data.md repeats them).
MIN_AREA_FRACTION = 0.12       # below: moveCloser
EDGE_MARGIN_FRACTION = 0.01    # a corner closer to the frame's edge than this: tooClose
MAX_CENTRE_OFFSET = 0.18       # centre farther from the frame centre (x frame width): centerId
MAX_TILT_DEG = 15.0            # out-of-plane tilt above: tilt
MAX_ROTATION_DEG = 12.0        # in-plane rotation (mod 180) above: holdStraight


def pose_corners(size_mm, scale, centre, rotation_deg, tilt_deg, tilt_axis_deg, frame_size):
    """Projects an object of size_mm lying at the given pose; returns its 4 image corners.

    scale: pixels per mm the object would have flat at the frame centre's depth;
    centre: where its centre projects; rotation_deg: in-plane rotation (clockwise on
    screen); tilt_deg: out-of-plane angle about an in-plane axis at tilt_axis_deg.
    """
    w, h = size_mm
    fw, fh = frame_size
    f = FOCAL_PER_WIDTH * fw
    z0 = f / scale
    pts = np.array([[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]], np.float64)
    t = math.radians(rotation_deg)
    rz = np.array([[math.cos(t), -math.sin(t), 0], [math.sin(t), math.cos(t), 0], [0, 0, 1]])
    a = math.radians(tilt_axis_deg)
    axis = np.array([math.cos(a), math.sin(a), 0.0])
    rt, _ = cv2.Rodrigues(axis * math.radians(tilt_deg))
    p = pts @ (rt @ rz).T
    p += np.array([(centre[0] - fw / 2) * z0 / f, (centre[1] - fh / 2) * z0 / f, z0])
    u = f * p[:, 0] / p[:, 2] + fw / 2
    v = f * p[:, 1] / p[:, 2] + fh / 2
    return np.stack([u, v], 1)


def homography(src_size, corners):
    """The homography from an image of src_size (its outer edges) to the given corners."""
    w, h = src_size
    src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))


class Layer:
    """A premultiplied RGB image with its coverage, placed at (x0, y0) in the frame."""

    def __init__(self, rgb, a, x0, y0):
        self.rgb, self.a, self.x0, self.y0 = rgb, a, x0, y0


def region(points, frame_size, pad):
    """The frame's sub-rectangle around the points, grown by pad: (x0, y0, x1, y1) or None."""
    p = np.asarray(points, np.float64)
    fw, fh = frame_size
    x0, y0 = max(0, int(math.floor(p[:, 0].min())) - pad), max(0, int(math.floor(p[:, 1].min())) - pad)
    x1, y1 = min(fw, int(math.ceil(p[:, 0].max())) + pad), min(fh, int(math.ceil(p[:, 1].max())) + pad)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return x0, y0, x1, y1


def warp_layer(rgb, alpha, corners, frame_size, pad=48):
    """Warps an object image into the frame; returns a Layer (or None when out of frame).

    Large down-scalings first shrink the image by area so fine print does not alias.
    """
    h, w = alpha.shape
    c = np.asarray(corners, np.float64)
    box = region(c, frame_size, pad)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    edge = max(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[3]))
    factor = edge / w
    if factor < 0.7:
        k = max(factor * 1.4, 0.05)
        rgb = cv2.resize(rgb, (max(2, int(w * k)), max(2, int(h * k))), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (rgb.shape[1], rgb.shape[0]), interpolation=cv2.INTER_AREA)
    hm = homography((rgb.shape[1], rgb.shape[0]), c - np.array([x0, y0]))
    a = alpha.astype(np.float32) * (1 / 255.0)
    pre = rgb.astype(np.float32) * a[:, :, None]
    size = (x1 - x0, y1 - y0)
    out_rgb = cv2.warpPerspective(pre, hm, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    out_a = cv2.warpPerspective(a, hm, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return Layer(out_rgb, out_a, x0, y0)


def motion_kernel(length, angle_deg):
    n = max(3, int(math.ceil(length)) | 1)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    for i in range(n * 3):
        t = (i / (n * 3 - 1) - 0.5) * length
        x, y = int(round(c + t * dx)), int(round(c + t * dy))
        if 0 <= x < n and 0 <= y < n:
            k[y, x] = 1
    return k / k.sum()


def blur_layer(layer, length, angle):
    """Motion blur of an object layer (premultiplied), the background staying sharp."""
    if layer is None or length < 1.0:
        return layer
    k = motion_kernel(length, angle)
    layer.rgb, layer.a = cv2.filter2D(layer.rgb, -1, k), cv2.filter2D(layer.a, -1, k)
    return layer


def over(frame, layer, shadow=0.0, shadow_offset=(6, 8), shadow_blur=7.0):
    """Composes a layer over the frame, with a soft drop shadow."""
    if layer is None:
        return frame
    h, w = layer.a.shape
    view = frame[layer.y0:layer.y0 + h, layer.x0:layer.x0 + w]
    if shadow > 0:
        m = np.float32([[1, 0, shadow_offset[0]], [0, 1, shadow_offset[1]]])
        s = cv2.warpAffine(layer.a, m, (w, h))
        s = cv2.GaussianBlur(s, (0, 0), shadow_blur)
        view *= (1 - shadow * s)[:, :, None]
    view *= (1 - layer.a)[:, :, None]
    view += layer.rgb
    return frame


def quad_area(c):
    x, y = c[:, 0], c[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def rotation_of(c):
    """In-plane rotation as seen: the angle of the printed x axis (left-edge middle to
    right-edge middle), degrees in (-180, 180], clockwise on screen positive."""
    left = (c[0] + c[3]) / 2
    right = (c[1] + c[2]) / 2
    d = right - left
    return math.degrees(math.atan2(d[1], d[0]))


def is_whole(c, frame_size):
    fw, fh = frame_size
    return bool(np.all(c[:, 0] >= -0.5) and np.all(c[:, 0] <= fw - 0.5) and np.all(c[:, 1] >= -0.5) and np.all(c[:, 1] <= fh - 0.5))


def expected(document, frame_size):
    """The guidance this scene alone should give, in the documented order."""
    if document is None:
        return "centerId"
    fw, fh = frame_size
    c = np.array(document["corners"], np.float64)
    mx, my = EDGE_MARGIN_FRACTION * fw, EDGE_MARGIN_FRACTION * fh
    if np.any(c[:, 0] < mx) or np.any(c[:, 0] > fw - mx) or np.any(c[:, 1] < my) or np.any(c[:, 1] > fh - my):
        return "tooClose"
    if quad_area(c) < MIN_AREA_FRACTION * fw * fh:
        return "moveCloser"
    centre = c.mean(0)
    if math.hypot(centre[0] - fw / 2, centre[1] - fh / 2) > MAX_CENTRE_OFFSET * fw:
        return "centerId"
    if document["tilt_deg"] > MAX_TILT_DEG:
        return "tilt"
    r = abs(document["rotation_deg"]) % 180
    if min(r, 180 - r) > MAX_ROTATION_DEG:
        return "holdStraight"
    return "ready"


def glare(frame, centre, axes, angle, strength):
    """A specular highlight: a bright, saturated ellipse with a soft rim."""
    fh, fw = frame.shape[:2]
    r = int(max(axes) * 2.2) + 2
    x0, y0 = int(centre[0]) - r, int(centre[1]) - r
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(fw, x0 + 2 * r), min(fh, y0 + 2 * r)
    if xa >= xb or ya >= yb:
        return False
    y, x = np.mgrid[ya:yb, xa:xb].astype(np.float32)
    dx, dy = x - centre[0], y - centre[1]
    t = math.radians(angle)
    u = (dx * math.cos(t) + dy * math.sin(t)) / axes[0]
    v = (-dx * math.sin(t) + dy * math.cos(t)) / axes[1]
    g = np.exp(-(u * u + v * v) ** 1.5)
    patch = frame[ya:yb, xa:xb]
    patch += (strength * g)[:, :, None] * np.array([1.0, 0.99, 0.96], np.float32)
    return True


def hand_layer(frame_size, tip, direction, scale, rng, skin=None):
    """A hand reaching along `direction` (unit vector) with fingertips near `tip`.

    Returns a Layer (None when out of frame). scale: pixels per mm at the hand.
    """
    fw, fh = frame_size
    skins = [(224, 180, 150), (205, 150, 115), (170, 120, 90), (120, 80, 60), (235, 195, 170)]
    skin = skin or skins[rng.integers(len(skins))]
    mask = np.zeros((fh, fw), np.uint8)
    d = np.asarray(direction, np.float64)
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    tip = np.asarray(tip, np.float64)
    finger_w = 17 * scale
    palm_len, palm_w = 95 * scale, 85 * scale
    palm_centre = tip - d * (finger_w * 2.5 + palm_len * 0.55)
    angle = math.degrees(math.atan2(d[1], d[0]))
    cv2.ellipse(mask, tuple(int(v) for v in palm_centre), (int(palm_len * 0.6), int(palm_w * 0.5)), angle, 0, 360, 255, -1, cv2.LINE_AA)
    fingers = int(rng.choice((1, 1, 2, 2, 3)))
    for i in range(fingers):
        off = (i - (fingers - 1) / 2) * finger_w * 1.05
        length = finger_w * (2.6 + 0.5 * rng.random()) * (0.85 if i in (0, 3) else 1.0)
        base = palm_centre + d * palm_len * 0.4 + n * off
        end = base + d * length
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in end), 255, max(2, int(finger_w)), cv2.LINE_AA)
    thumb_base = palm_centre + n * palm_w * 0.45
    thumb_end = thumb_base + (d * 0.8 + n * 0.6) * finger_w * 2.3
    cv2.line(mask, tuple(int(v) for v in thumb_base), tuple(int(v) for v in thumb_end), 255, max(2, int(finger_w * 1.15)), cv2.LINE_AA)
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    x0, y0, x1, y1 = region(np.stack([xs, ys], 1), frame_size, 4)
    mask = mask[y0:y1, x0:x1]
    a = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.0)
    # Shading: darker towards the wrist and at the rim.
    y, x = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    along = ((x - tip[0]) * d[0] + (y - tip[1]) * d[1]) / max(1.0, palm_len * 2)
    rim = cv2.GaussianBlur(a, (0, 0), max(1.0, finger_w * 0.25))
    shade = (0.8 + 0.2 * np.clip(1 + along, 0, 1)) * (0.75 + 0.25 * rim)
    rgb = (shade[:, :, None] * np.array(skin, np.float32)[None, None, :]) * a[:, :, None]
    return Layer(rgb, a, x0, y0)


def phone_image(rng, px_per_mm=4):
    """A phone seen from above: dark rounded body (aspect about 2.1), dark screen."""
    w, h = int(71 * px_per_mm), int(150 * px_per_mm)
    body = tuple(int(v) for v in rng.choice([(25, 25, 28), (40, 40, 45), (180, 180, 185), (60, 50, 70)]))
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    r = int(9 * px_per_mm)
    for target, value in ((img, body), (alpha, 255)):
        cv2.rectangle(target, (r, 0), (w - 1 - r, h - 1), value, -1)
        cv2.rectangle(target, (0, r), (w - 1, h - 1 - r), value, -1)
        for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
            cv2.circle(target, (cx, cy), r, value, -1, cv2.LINE_AA)
    m = int(3 * px_per_mm)
    screen = np.zeros((h - 2 * m, w - 2 * m, 3), np.float32)
    t = np.linspace(0, 1, screen.shape[0])[:, None, None]
    screen[:] = (np.array((14, 16, 22)) * (1 - t) + np.array((35, 38, 48)) * t)
    if rng.random() < 0.5:  # a lit screen
        screen[:] = screen * 0.3 + np.array(rng.choice([(60, 90, 160), (200, 200, 210), (40, 120, 80)])) * 0.7
    img[m:h - m, m:w - m] = screen.astype(np.uint8)
    cv2.circle(img, (w // 2, int(6 * px_per_mm)), int(1.5 * px_per_mm), (10, 10, 10), -1, cv2.LINE_AA)
    return img, alpha, (71.0, 150.0)


def book_image(rng, font_path, px_per_mm=3):
    """A closed book from above: cover with title, a spine shadow and page edges (thick)."""
    from PIL import Image, ImageDraw, ImageFont
    wmm, hmm = float(rng.integers(130, 170)), float(rng.integers(190, 240))
    w, h = int(wmm * px_per_mm), int(hmm * px_per_mm)
    cover = np.array(rng.choice([(150, 30, 30), (30, 60, 120), (40, 100, 60), (220, 200, 150), (60, 60, 60), (230, 230, 225)]), np.float32)
    img = np.ones((h, w, 3), np.float32) * cover
    spine = int(12 * px_per_mm)
    x = np.arange(w, dtype=np.float32)
    shade = 0.55 + 0.45 * np.clip(x / spine, 0, 1) ** 0.7
    img *= shade[None, :, None]
    edge = int(4 * px_per_mm)  # page block visible on the far side
    lines = 225 + 20 * np.sin(np.arange(h, dtype=np.float32) * 1.7)[:, None]
    img[:, w - edge:] = np.repeat(lines, edge, 1)[:, :, None] * np.array([1, 0.98, 0.92], np.float32)
    pil = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(pil)
    ink = (250, 245, 230) if cover.mean() < 128 else (30, 30, 40)
    title = ImageFont.truetype(font_path, int(11 * px_per_mm))
    draw.text((spine + int(10 * px_per_mm), int(30 * px_per_mm)), rng.choice(["ATLAS", "NOTES", "POEMS", "GUIDE"]), font=title, fill=ink)
    draw.rectangle((spine + int(10 * px_per_mm), int(50 * px_per_mm), w - edge - int(10 * px_per_mm), int(53 * px_per_mm)), fill=ink)
    return np.asarray(pil).copy(), np.full((h, w), 255, np.uint8), (wmm, hmm)


def print_image(rgb, px_per_mm=4):
    """A photographic print (150 x 100 mm, white border) of a real photograph."""
    h, w = rgb.shape[:2]
    landscape = w >= h
    wmm, hmm = (150.0, 100.0) if landscape else (100.0, 150.0)
    pw, ph = int(wmm * px_per_mm), int(hmm * px_per_mm)
    img = np.full((ph, pw, 3), 246, np.uint8)
    b = int(4 * px_per_mm)
    inner = cv2.resize(rgb, (pw - 2 * b, ph - 2 * b), interpolation=cv2.INTER_AREA)
    img[b:ph - b, b:pw - b] = inner
    return img, np.full((ph, pw), 255, np.uint8), (wmm, hmm)


_noise_bank = {}


def unit_noise(shape, rng):
    """Unit Gaussian noise of the given shape: a random window of a fixed, seeded bank
    (drawing fresh noise per frame is the slowest step otherwise)."""
    h, w, ch = shape
    key = (h, w, ch)
    if key not in _noise_bank:
        g = np.random.default_rng(h * 7 + w)
        _noise_bank[key] = g.standard_normal((h + 64, w + 64, ch), dtype=np.float32)
    bank = _noise_bank[key]
    dy, dx = rng.randrange(64), rng.randrange(64)
    return bank[dy:dy + h, dx:dx + w]


def camera_finish(frame, rng, gain, noise_sigma, focus_sigma, jpeg_quality):
    """Exposure, focus blur, sensor noise and a lossy pass; returns uint8 BGR (for writing)."""
    frame *= gain
    if focus_sigma > 0.3:
        frame = cv2.GaussianBlur(frame, (0, 0), focus_sigma)
    frame += unit_noise(frame.shape, rng) * noise_sigma
    out = cv2.cvtColor(np.clip(frame, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
    if jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return out
