"""Rooms behind the person and the camera's finish (noise, JPEG).

Rooms are real photographs shipped by Debian packages (opencv-doc's sample data,
scikit-image's brick wall), defocused as a camera focused at arm's length sees a room 2-4
m away, or synthetic painted walls. docs/face-data.md names them and their licences.
"""
import cv2
import numpy as np
from PIL import Image

SKIMAGE_DATA = "/usr/lib/python3/dist-packages/skimage/data/"
OPENCV_DATA = "/usr/share/doc/opencv-doc/examples/data/"

# name -> (source file or None for a painted wall, tint, level)
ROOMS = {
    "aloe": (OPENCV_DATA + "aloeL.jpg", (1.0, 1.0, 1.0), 0.95),
    "brick": (SKIMAGE_DATA + "brick.png", (1.08, 0.98, 0.88), 1.0),
    "wall-beige": (None, (0.93, 0.86, 0.74), 0.85),
    "rubberwhale": (OPENCV_DATA + "rubberwhale1.png", (1.0, 1.0, 1.0), 1.0),
    "wall-grey": (None, (0.78, 0.8, 0.82), 0.8),
    "leuven": (OPENCV_DATA + "leuvenA.jpg", (1.0, 1.0, 1.0), 1.0),
    "building": (OPENCV_DATA + "building.jpg", (1.0, 1.0, 1.0), 1.0),
    "wall-blue": (None, (0.62, 0.72, 0.86), 0.85),
}
SPLIT_ROOMS = {"train": ("aloe", "brick", "wall-beige"), "dev": ("rubberwhale", "wall-grey"),
               "heldout": ("leuven", "building", "wall-blue")}
STATION_ROOM = "wall-grey"


def read_rgb(path):
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB")).copy()


def _painted_wall(w, h, tint, seed):
    """A painted wall: slow tone variation, a faint roller texture, a door frame edge."""
    rng = np.random.default_rng(seed)
    slow = cv2.resize(rng.normal(0, 1, (h // 90 + 2, w // 90 + 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
    g = 200 + 8 * slow + 3 * fine
    yy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    g = g * (1 - 0.12 * yy)                      # lit from above
    img = g[:, :, None] * np.asarray(tint, np.float32)[None, None, :]
    x = int(w * rng.uniform(0.62, 0.85))
    img[:, x:x + max(3, w // 80)] *= 0.82        # a door frame
    img[:, x + max(3, w // 80):] *= 0.93
    return img


_cache = {}


def room(name, size):
    """The room's albedo at a frame size (float32 RGB), defocused."""
    key = (name, size)
    if key not in _cache:
        w, h = size
        path, tint, level = ROOMS[name]
        if path is None:
            img = _painted_wall(w, h, tint, sum(map(ord, name)))
        else:
            src = read_rgb(path).astype(np.float32)
            sh, sw = src.shape[:2]
            s = max(w / sw, h / sh)
            src = cv2.resize(src, (max(w, int(round(sw * s))), max(h, int(round(sh * s)))), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
            y0, x0 = (src.shape[0] - h) // 2, (src.shape[1] - w) // 2
            img = src[y0:y0 + h, x0:x0 + w] * np.asarray(tint, np.float32) * level
        img = cv2.GaussianBlur(img, (0, 0), 0.004 * w + 0.8)
        _cache[key] = np.ascontiguousarray(img, dtype=np.float32)
    return _cache[key]


def add_window(img, rng):
    """A bright window behind the person (the backlit case), in place; returns its box."""
    h, w = img.shape[:2]
    ww, wh = int(w * rng.uniform(0.3, 0.5)), int(h * rng.uniform(0.45, 0.7))
    x0 = int(rng.uniform(0.1, 0.9) * w - ww / 2)
    y0 = int(rng.uniform(0.05, 0.25) * h)
    x0 = max(0, min(w - ww, x0))
    win = np.zeros((h, w), np.float32)
    win[y0:y0 + wh, x0:x0 + ww] = 1
    bars = max(2, w // 160)
    win[y0:y0 + wh, x0 + ww // 2 - bars:x0 + ww // 2 + bars] = 0.1
    glow = cv2.GaussianBlur(win, (0, 0), w * 0.03)
    img *= (1 - win)[:, :, None]
    img += (win * 1000.0 + glow * 240.0)[:, :, None] * np.array([0.98, 1.0, 1.03], np.float32)
    return [x0, y0, x0 + ww, y0 + wh]


_noise = {}


def _noise_bank(h, w):
    """A fixed bank of unit noise (uint8 positive and negative parts at several sigmas)."""
    key = (h, w)
    if key not in _noise:
        g = np.random.default_rng(h * 7 + w).standard_normal((h + 64, w + 64, 3), dtype=np.float32)
        _noise[key] = g
    return _noise[key]


_noise_u8 = {}


def noise_parts(h, w, sigma):
    """(positive, negative) uint8 noise at sigma (rounded to 0.5)."""
    s = round(sigma * 2) / 2
    key = (h, w, s)
    if key not in _noise_u8:
        g = _noise_bank(h, w) * s
        _noise_u8[key] = (np.clip(np.rint(g), 0, 255).astype(np.uint8), np.clip(np.rint(-g), 0, 255).astype(np.uint8))
    return _noise_u8[key]


def finish(img_u8, rng, sigma):
    """Sensor noise on an RGB uint8 frame (saturating); returns BGR uint8 for writing."""
    h, w = img_u8.shape[:2]
    pos, neg = noise_parts(h, w, sigma)
    dy, dx = rng.randrange(64), rng.randrange(64)
    out = cv2.add(img_u8, pos[dy:dy + h, dx:dx + w])
    out = cv2.subtract(out, neg[dy:dy + h, dx:dx + w])
    return cv2.cvtColor(out, cv2.COLOR_RGB2BGR)


def to_u8(img):
    return cv2.convertScaleAbs(img)


def motion_kernel(length, angle_deg):
    """A normalised line kernel (motion blur of LENGTH pixels)."""
    n = int(np.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = np.deg2rad(angle_deg)
    for t in np.linspace(-length / 2, length / 2, max(2, int(length * 2))):
        x, y = int(round(c + t * np.cos(a))), int(round(c + t * np.sin(a)))
        if 0 <= x < n and 0 <= y < n:
            k[y, x] = 1
    return k / k.sum()
