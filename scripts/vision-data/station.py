"""Station backgrounds: the empty platen seen by the fixed camera, and its light.

Two are synthetic felt; two are made from real photographs shipped by Debian's
python3-skimage (scikit-image data, CC0 per their docstrings): gravel.png (stone) and the
wooden table of coffee.png (wood). docs/vision-data.md names them and their licences.
"""
import cv2
import numpy as np
from PIL import Image

SKIMAGE_DATA = "/usr/lib/python3/dist-packages/skimage/data/"
OPENCV_DATA = "/usr/share/doc/opencv-doc/examples/data/"

# Which station backgrounds each split sees: heldout's are never trained or tuned on.
SPLIT_BACKGROUNDS = {"train": ("felt", "stone"), "dev": ("felt", "stone"), "heldout": ("wood", "slate-felt")}
NAMES = ("felt", "stone", "wood", "slate-felt")
SIZES = ((1280, 720), (1920, 1080))
BASE = (1920, 1080)


def read_rgb(path):
    """An image file as RGB uint8 (through PIL: quiet about colour profiles)."""
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB")).copy()


def _felt(rng, w, h, tint, level):
    """Felt: fine fibre noise over a slowly varying tone."""
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.8) * 9
    fibres = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 2.5) * 14
    slow = cv2.resize(rng.normal(0, 1, (h // 120 + 2, w // 120 + 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * 5
    g = level + fine + fibres + slow
    return np.clip(g[:, :, None] * np.array(tint, np.float32)[None, None, :], 0, 255)


def _tile_mirror(img, w, h):
    """Fills w x h with the image and its mirror images (no visible seams)."""
    row = np.concatenate([img, img[:, ::-1]], 1)
    block = np.concatenate([row, row[::-1]], 0)
    reps = (h // block.shape[0] + 1, w // block.shape[1] + 1) + ((1,) if img.ndim == 3 else ())
    return np.tile(block, reps)[:h, :w]


def _stone(w, h):
    """Gravel, scaled so that one mirror seam at most crosses the frame."""
    g = read_rgb(SKIMAGE_DATA + "gravel.png")[:, :, 0].astype(np.float32)
    g = cv2.resize(g, (int(g.shape[1] * 2.2), int(g.shape[0] * 2.2)), interpolation=cv2.INTER_CUBIC)
    g = _tile_mirror(g, w, h)
    g = 118 + (g - g.mean()) * 0.55
    return np.clip(g[:, :, None] * np.array((1.04, 1.0, 0.93), np.float32)[None, None, :], 0, 255)


def _wood(w, h):
    """Planks: the wooden table of coffee.png, its grain turned along the frame's width,
    stretched along the grain, one plank per strip with a dark joint between planks."""
    rgb = read_rgb(SKIMAGE_DATA + "coffee.png").astype(np.float32)
    strip = cv2.rotate(rgb[0:400, 485:600], cv2.ROTATE_90_CLOCKWISE)
    plank_h = 230
    strip = cv2.resize(strip, (w, plank_h), interpolation=cv2.INTER_CUBIC)
    rows = []
    for i in range(h // plank_h + 1):
        plank = strip[::-1] if i % 2 else strip
        plank = np.roll(plank, (i * 613) % w, axis=1) * (0.92 + 0.06 * ((i * 5) % 3))
        plank[:3] *= 0.45
        rows.append(plank)
    return np.concatenate(rows, 0)[:h]


def light_field(name, w, h):
    """Vignetting and a light gradient, fixed for each station (a multiplier per pixel)."""
    seed = NAMES.index(name)
    rng = np.random.default_rng(500 + seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    nx, ny = (x - w / 2) / (w / 2), (y - h / 2) / (w / 2)
    r2 = nx * nx + ny * ny
    strength = rng.uniform(0.18, 0.3)
    vignette = 1 - strength * r2
    angle = rng.uniform(0, 2 * np.pi)
    gradient = 1 + rng.uniform(0.06, 0.12) * (np.cos(angle) * nx + np.sin(angle) * ny)
    return (vignette * gradient).astype(np.float32)


def texture(name):
    """The platen's texture at the base resolution (float32 RGB, before light)."""
    w, h = BASE
    if name == "felt":
        return _felt(np.random.default_rng(11), w, h, (1.0, 1.0, 1.02), 132)
    if name == "slate-felt":
        return _felt(np.random.default_rng(12), w, h, (0.8, 0.95, 1.05), 78)
    if name == "stone":
        return _stone(w, h)
    if name == "wood":
        return _wood(w, h)
    raise KeyError(name)


class Station:
    """One station: its platen texture and light at one camera size."""

    def __init__(self, name, size):
        self.name = name
        self.size = size
        w, h = size
        tex = texture(name)
        if (w, h) != BASE:
            tex = cv2.resize(tex, (w, h), interpolation=cv2.INTER_AREA)
        self.texture = tex
        self.light = light_field(name, w, h)

    def frame(self):
        """The clean empty frame (float32 RGB, lit)."""
        return self.texture * self.light[:, :, None]
