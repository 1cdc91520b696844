#!/usr/bin/env bash
# Builds gpio-sim.ko for kernel $1 into $2, from linux-source-6.1 (downloaded into the
# rig cache) against linux-headers-$1 (installed). Usage: build.sh KVER OUTDIR CACHE
set -euo pipefail
kver=$1 out=$2 cache=$3
here=$(cd "$(dirname "$0")" && pwd)
headers=/usr/src/linux-headers-$kver
[ -d "$headers" ] || { echo "gpio-sim: $headers missing: apt-get install linux-headers-$kver" >&2; exit 3; }
src="$cache/src"
mkdir -p "$src"
if [ ! -f "$src/linux-source-6.1/drivers/gpio/gpio-sim.c" ]; then
    ls "$src"/linux-source-6.1_*.deb >/dev/null 2>&1 || (cd "$src" && timeout 600 apt-get download linux-source-6.1)
    rm -rf "$src/deb" && dpkg -x "$src"/linux-source-6.1_*.deb "$src/deb"
    tar -C "$src" -xaf "$src"/deb/usr/src/linux-source-6.1.tar.xz \
        linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
        linux-source-6.1/kernel/irq/irq_sim.c
    rm -rf "$src/deb"
fi
work="$cache/gpio-sim-build"
rm -rf "$work" && mkdir -p "$work"
cp "$here/Kbuild" "$work/"
cp "$src/linux-source-6.1/drivers/gpio/gpio-sim.c" "$work/gpio-sim-main.c"
cp "$src/linux-source-6.1/drivers/gpio/gpiolib.h" "$work/"
sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' \
    "$src/linux-source-6.1/kernel/irq/irq_sim.c" > "$work/irq-sim.c"
grep -q 'generic_handle_irq(irqnum)' "$work/irq-sim.c" || { echo "gpio-sim: irq_sim.c did not patch" >&2; exit 3; }
make -C "$headers" M="$work" modules >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 3; }
mkdir -p "$out" && cp "$work/gpio-sim.ko" "$out/gpio-sim.ko"
