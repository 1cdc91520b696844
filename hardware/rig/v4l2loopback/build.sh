#!/usr/bin/env bash
# Builds v4l2loopback.ko for kernel $1 into $2 from Debian's v4l2loopback-dkms source
# (downloaded into the rig cache, not installed) against linux-headers-$1 (installed).
# Usage: build.sh KVER OUTDIR CACHE
set -euo pipefail
kver=$1 out=$2 cache=$3
headers=/usr/src/linux-headers-$kver
[ -d "$headers" ] || { echo "v4l2loopback: $headers missing: apt-get install linux-headers-$kver" >&2; exit 3; }
src="$cache/src"
mkdir -p "$src"
ls "$src"/v4l2loopback-dkms_*.deb >/dev/null 2>&1 || (cd "$src" && timeout 600 apt-get download v4l2loopback-dkms)
work="$cache/v4l2loopback-build"
rm -rf "$work" "$src/v4l2loopback-deb"
dpkg -x "$src"/v4l2loopback-dkms_*.deb "$src/v4l2loopback-deb"
cp -r "$src"/v4l2loopback-deb/usr/src/v4l2loopback-* "$work"
rm -rf "$src/v4l2loopback-deb"
make -C "$headers" M="$work" modules >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 3; }
mkdir -p "$out" && cp "$work/v4l2loopback.ko" "$out/v4l2loopback.ko"
