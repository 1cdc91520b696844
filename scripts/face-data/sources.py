"""The real face photographs behind the face data, where they come from, and their hand
annotations (docs/face-data.md, "Source photographs").

Each photograph ships in a Debian 12 package or a PyPI package; `fetch()` copies it from
the installed Debian package or downloads the PyPI distribution with pip (into
.cache/face-data/downloads), checks every SHA-256 and writes the photographs to
.cache/face-data/sources/. Nothing fetched is committed.

Annotations were measured once by hand on the photograph (pixel centres at integer
coordinates), never by a face detector: the 5 points in dlib's 5-point convention named in
IMAGE terms (leftEye* is the eye on the image's left), the face box [x0, y0, x1, y1] (from
about the middle of the forehead to the bottom of the chin, cheek to cheek, ears
excluded), the outline of the person (head, hair, neck, shoulders: what is cut out of the
photograph and put in front of a room), and a rough estimate of the face's own yaw, pitch
and roll in the photograph (yaw > 0: the nose points to the image's right; pitch > 0: the
face is seen from below; roll > 0: clockwise on screen).
"""
import os
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: datagen
import datagen

import numpy as np
from PIL import Image

LANDMARKS = ("leftEyeOuter", "leftEyeInner", "rightEyeInner", "rightEyeOuter", "noseBase")

# The PyPI distributions fetched with pip (sdist: the test images are not in the wheel).
PYPI = {
    "face_recognition": {
        "version": "1.3.0", "file": "face_recognition-1.3.0.tar.gz",
        "sha256": "5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec",
        "licence": "MIT (the package); the photographs: see docs/face-data.md",
    },
}

# name -> where it comes from, its checksum and its hand annotation.
PHOTOS = {
    "collins": {
        "identity": "collins",
        "file": "collins.png",
        "debian": "python3-skimage", "version": "0.19.3-8",
        "path": "/usr/lib/python3/dist-packages/skimage/data/astronaut.png",
        "sha256": "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5",
        "landmarks": [[193, 102], [213, 103], [236, 102], [258, 101], [223, 132]],
        "box": [171, 72, 277, 183],
        "pose": (0.0, 0.0, -1.0),
        "outline": [[228, 14], [262, 18], [288, 40], [300, 78], [299, 105], [290, 122], [276, 130],
                    [272, 142], [283, 155], [296, 185], [304, 222], [330, 250], [350, 268],
                    [360, 313], [400, 343], [460, 352], [497, 390], [505, 512], [20, 512],
                    [22, 400], [30, 287], [55, 250], [100, 215], [118, 195], [128, 170],
                    [150, 152], [170, 142], [165, 122], [157, 100], [155, 70], [165, 40], [190, 22]],
    },
    "hopper": {
        "identity": "hopper",
        "file": "hopper.jpg",
        "debian": "python-matplotlib-data", "version": "3.6.3-1",
        "path": "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg",
        "sha256": "a8ca6d734765703b09728ab47fe59f473d93ae3967fc24c7c0288c3c7adb7130",
        "landmarks": [[207, 190], [240, 190], [285, 189], [320, 187], [262, 252]],
        "box": [192, 150, 350, 332],
        "pose": (0.0, 0.0, -1.0),
        "outline": [[240, 28], [336, 56], [372, 104], [372, 152], [364, 208], [352, 280],
                    [332, 320], [400, 352], [472, 376], [504, 400], [512, 600], [20, 600],
                    [20, 448], [48, 392], [120, 352], [192, 320], [172, 272], [156, 224],
                    [152, 152], [172, 64]],
    },
    "obama": {
        "identity": "obama",
        "file": "obama.jpg",
        "pypi": "face_recognition", "member": "face_recognition-1.3.0/tests/test_images/obama.jpg",
        "sha256": "0930e3aa8cae5920329c0c8cbc6a2ab70f47b0e67b432875beaa95cbf7e741f6",
        "landmarks": [[419, 214], [470, 217], [521, 214], [573, 211], [497, 289]],
        "box": [385, 150, 612, 405],
        "pose": (0.0, 0.0, -1.0),
        "outline": [[486, 36], [571, 57], [614, 129], [636, 214], [621, 286], [586, 364],
                    [586, 414], [743, 471], [821, 543], [843, 714], [843, 1137], [57, 1137],
                    [71, 857], [129, 643], [186, 529], [286, 479], [407, 407], [400, 357],
                    [350, 286], [336, 207], [357, 129], [393, 64]],
    },
    "obama2": {
        "identity": "obama",
        "file": "obama2.jpg",
        "pypi": "face_recognition", "member": "face_recognition-1.3.0/tests/test_images/obama2.jpg",
        "sha256": "a7efcc907375274796f39646510704aa86672d59f6d5469d69af3c85590976a6",
        "landmarks": [[228, 373], [277, 377], [338, 382], [393, 385], [293, 466]],
        "box": [212, 300, 470, 612],
        "pose": (-18.0, 5.0, 2.0),
        "outline": [[330, 165], [400, 175], [460, 215], [490, 260], [505, 330], [500, 390],
                    [520, 395], [540, 420], [530, 470], [500, 500], [470, 520], [460, 570],
                    [455, 620], [480, 640], [560, 680], [626, 700], [626, 1070], [0, 1070],
                    [0, 720], [60, 690], [170, 660], [235, 630], [230, 560], [215, 490],
                    [205, 420], [205, 360], [215, 290], [235, 235], [275, 190]],
    },
    "obama3": {
        "identity": "obama",
        "file": "obama3.jpg",
        "pypi": "face_recognition", "member": "face_recognition-1.3.0/tests/test_images/obama3.jpg",
        "sha256": "76ac6bf97c36dc2da0ad16a537d6a5ac1b10f48d49aac29a0cca9a17cdbc3ca3",
        "landmarks": [[703, 386], [765, 389], [827, 395], [877, 393], [800, 465]],
        "box": [640, 290, 912, 672],
        "pose": (3.0, 15.0, 3.0),
        "outline": [[760, 227], [917, 283], [933, 467], [870, 620], [880, 690], [1067, 750],
                    [1167, 933], [1200, 1100], [250, 1100], [300, 867], [467, 717], [633, 667],
                    [650, 617], [583, 467], [617, 317]],
    },
    "biden": {
        "identity": "biden",
        "file": "biden.jpg",
        "pypi": "face_recognition", "member": "face_recognition-1.3.0/tests/test_images/biden.jpg",
        "sha256": "3c17508bb91554c637a2eabddfae790e5bb1caba93130814fc2ac50be9760c4c",
        "landmarks": [[506, 318], [548, 327], [623, 339], [678, 352], [596, 424]],
        "box": [415, 240, 730, 560],
        "pose": (4.0, 5.0, 10.5),
        "outline": [[567, 108], [667, 133], [733, 200], [758, 300], [750, 383], [708, 467],
                    [668, 545], [780, 590], [880, 640], [945, 720], [958, 840], [958, 1100], [42, 1100],
                    [50, 700], [100, 625], [250, 600], [408, 533], [433, 475], [400, 400],
                    [387, 317], [408, 217], [475, 142]],
    },
}

# Identities, their photographs (the first is the one the camera shows) and who they are.
IDENTITIES = {
    "collins": {"photos": ["collins"], "who": "Eileen Collins, NASA astronaut"},
    "hopper": {"photos": ["hopper"], "who": "Grace Hopper, US Navy rear admiral"},
    "obama": {"photos": ["obama", "obama2", "obama3"], "who": "Barack Obama"},
    "biden": {"photos": ["biden"], "who": "Joe Biden"},
}


def source_path(out, name):
    return os.path.join(out, "sources", PHOTOS[name]["file"])


def _pypi_download(out, dist):
    """The distribution's file in .cache/face-data/downloads, downloaded with pip when
    missing; checked against its SHA-256."""
    info = PYPI[dist]
    d = os.path.join(out, "downloads")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, info["file"])
    if not (os.path.exists(path) and datagen.sha256_file(path) == info["sha256"]):
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
               "--no-build-isolation", "-d", d, "%s==%s" % (dist, info["version"])]
        print("face-data: fetching %s %s from PyPI with pip" % (dist, info["version"]))
        subprocess.run(cmd, check=True)
    got = datagen.sha256_file(path)
    if got != info["sha256"]:
        raise SystemExit("face-data: %s has SHA-256 %s, expected %s" % (path, got, info["sha256"]))
    return path


def fetch(out):
    """Copies or downloads every source photograph into OUT/sources/ (only those missing or
    changed), each checked against its SHA-256. Returns the number fetched."""
    d = os.path.join(out, "sources")
    os.makedirs(d, exist_ok=True)
    fetched = 0
    archives = {}
    for name, p in PHOTOS.items():
        dest = source_path(out, name)
        if os.path.exists(dest) and datagen.sha256_file(dest) == p["sha256"]:
            continue
        if "debian" in p:
            if not os.path.exists(p["path"]):
                raise SystemExit("face-data: %s is missing: install the Debian package %s (scripts/setup-debian.sh)"
                                 % (p["path"], p["debian"]))
            shutil.copyfile(p["path"], dest + ".part")
        else:
            dist = p["pypi"]
            if dist not in archives:
                archives[dist] = _pypi_download(out, dist)
            with tarfile.open(archives[dist]) as tar:
                member = tar.extractfile(p["member"])
                with open(dest + ".part", "wb") as f:
                    shutil.copyfileobj(member, f)
        got = datagen.sha256_file(dest + ".part")
        if got != p["sha256"]:
            os.remove(dest + ".part")
            raise SystemExit("face-data: %s has SHA-256 %s, expected %s" % (name, got, p["sha256"]))
        os.replace(dest + ".part", dest)
        fetched += 1
    return fetched


def verify(out):
    """Names of the source photographs whose file is missing or has another SHA-256."""
    return [name for name, p in PHOTOS.items()
            if not os.path.exists(source_path(out, name)) or datagen.sha256_file(source_path(out, name)) != p["sha256"]]


def read_photo(out, name):
    """The photograph as RGB uint8."""
    with Image.open(source_path(out, name)) as im:
        return np.asarray(im.convert("RGB")).copy()
