#!/usr/bin/env bash
# Installs what idkiosk needs to build, test and run its demo on Debian 12, and only
# what is missing. Needs root (or sudo). Safe to run again.
#
#   scripts/setup-debian.sh          everything make test needs
#   scripts/setup-debian.sh --demo   only what make demo needs: the build, the simulated
#                                    station and its data (no browser, no VMs, no packaging,
#                                    no PostgreSQL)
set -euo pipefail
demo=0
[ "${1:-}" = --demo ] && demo=1

# What the demo needs: the build of idkiosk and idkiosk-backend, the real PC/SC stack the
# simulated station uses, and the generators of its recordings and models.
packages=(
    # build
    pkg-config libpcsclite-dev libssl-dev libeac-dev libturbojpeg0-dev libopenjp2-7-dev libgpiod-dev libsqlite3-dev
    # Vision: OpenCV core and imgproc behind the COpenCV shim; dlib (faces) behind CDlib
    libopencv-dev libpng-dev libdlib-dev
    # the Digital Identity hand-off's QR code (libqrencode, LGPL-2.1+)
    libqrencode-dev
    # Vision: the PDF417 reader of North American cards' backs (ZXing-C++ behind CZXing)
    libzxing-dev
    # the benchmarks' baselines (libv4lconvert; Tesseract): only benchmarks link them, but the
    # package declares them and SwiftPM may look them up for any build
    libv4l-dev libtesseract-dev
    # the real PC/SC stack the tests and the demo use
    pcscd vsmartcard-vpcd
    # the generated vision data (scripts/vision-data, run by Debian's /usr/bin/python3):
    # OpenCV, numpy, PIL, scikit-image (its sample photographs too), the OCR-B font of the
    # MRZ, OpenCV's sample photographs, DejaVu
    python3 python3-pip python3-numpy python3-opencv python3-pil python3-skimage fonts-ocr-b opencv-doc fonts-dejavu-core
    # real face photographs for the generated face data (scripts/face-data): matplotlib's Grace
    # Hopper (skimage's astronaut is above); the face_recognition sdist's photographs and the
    # face models are fetched with python3-pip (pip download --no-build-isolation needs python3-setuptools)
    python-matplotlib-data python3-setuptools
)
# What only the tests need on top.
test_packages=(
    # the QR code's tests read it back with ZBar's zbarimg, a decoder we did not write
    zbar-tools
    # the vision benchmark's MRZ baseline reads English with Tesseract
    tesseract-ocr-eng
    # the reference backend's PostgreSQL tests (scripts/postgres.sh runs a private cluster)
    postgresql
    # docs/events.schema.json and docs/backend-api.yaml are checked with python
    python3-jsonschema
    # the display's browser tests: a real headless Chromium driven over WebDriver
    chromium chromium-driver
    # the TLS pinning tests make their certificates with the openssl command
    openssl
    # the face benchmark's baseline: OpenCV's Haar cascades
    opencv-data
    # make deb: debhelper packs the build, lintian checks the packages
    debhelper lintian fakeroot
)
if [ "$demo" = 0 ]; then
    packages+=("${test_packages[@]}")
fi
# The hardware rig (make rig-test): Debian's kernel under QEMU with vivid, and
# gpio-sim and v4l2loopback built against the matching headers.
if [ "$demo" = 0 ] && [ "${IDKIOSK_NO_RIG:-0}" != 1 ]; then
    packages+=(qemu-system-x86 busybox-static cpio linux-headers-amd64)
    # the system test (make system-test): a Debian root filesystem made by mmdebstrap, booted
    # with systemd on a copy-on-write layer (qemu-img)
    packages+=(mmdebstrap qemu-utils)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The python found first on PATH runs the schema tests; make sure it has both
# validators (Debian's python has them from apt, another python from PyPI).
[ "$demo" = 1 ] || for module in jsonschema:jsonschema openapi_spec_validator:openapi-spec-validator; do
    python3 -c "import ${module%%:*}" 2>/dev/null && continue
    python3 -m pip install --quiet "${module##*:}" 2>/dev/null ||
        python3 -m pip install --quiet --break-system-packages "${module##*:}"
done

command -v swift >/dev/null || { echo "swift is not on PATH (Swift 6.x toolchain needed)" >&2; exit 1; }
