#!/usr/bin/env bash
# Installs what idkiosk needs to build, test and run its demo on Debian 12, and only
# what is missing. Needs root (or sudo). Safe to run again.
set -euo pipefail

packages=(
    # build
    pkg-config libpcsclite-dev libssl-dev libturbojpeg0-dev libgpiod-dev
    # the real PC/SC stack the tests and the demo use
    pcscd vsmartcard-vpcd
    # docs/events.schema.json is checked with python's jsonschema
    python3 python3-jsonschema
)
# The hardware rig (make rig-test): Debian's kernel under QEMU with vivid, and
# gpio-sim and v4l2loopback built against the matching headers.
if [ "${IDKIOSK_NO_RIG:-0}" != 1 ]; then
    packages+=(qemu-system-x86 busybox-static cpio linux-headers-amd64)
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

# The python found first on PATH runs the schema test; make sure it has jsonschema.
if ! python3 -c "import jsonschema" 2>/dev/null; then
    python3 -m pip install --quiet jsonschema
fi

command -v swift >/dev/null || { echo "swift is not on PATH (Swift 6.x toolchain needed)" >&2; exit 1; }
