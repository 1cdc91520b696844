#!/usr/bin/env bash
# Builds and boots the rig VM; see rig.mk. Usage: rig.sh test|shell|powercut|prepare
#
# prepare: the kernel and the modules built for it, nothing booted (make test, beside its build).
#
# powercut: a small VM with the outbox on a virtual ext4 disk, stopped hard RIG_CUTS
# times (default 30) while outbox-drain-child writes; powercut.sh runs the cuts.
#
# Everything downloaded or built goes to $RIG_CACHE (git-ignored): the Debian kernel
# package and its unpacked tree, the initramfs, the VM's console log and results.
# Every wait is bounded: the VM is killed after RIG_TIMEOUT seconds and reported.
set -euo pipefail
# The whole script is one compound command, so bash reads it completely before
# running it, and editing this file during a run cannot change that run.
{

mode=${1:-test}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${RIG_CACHE:-.cache/rig}
case "$cache" in /*) ;; *) cache="$root/$cache" ;; esac
timeout_s=${RIG_TIMEOUT:-600}
filter=${RIG_FILTER:-RigTests}
mkdir -p "$cache"

say() { echo "rig: $*" >&2; }
die() { say "$*"; exit 2; }

for tool in qemu-system-x86_64 cpio gzip; do
    command -v "$tool" >/dev/null || die "$tool missing: apt-get install qemu-system-x86 cpio"
done
busybox=${RIG_BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || die "busybox missing: apt-get install busybox-static"

# 1. The kernel (kernel.sh: Debian's linux-image-6.1.0-N-amd64, downloaded once).
. "$here/kernel.sh"
rig_kernel

# 2. Modules and their dependencies, in load order (from each module's .modinfo).
rig_modules_index
if [ "$mode" = powercut ]; then
    # The disk (virtio-blk, ext4 with its CRC32C checksums) instead of the devices.
    for m in virtio_pci 9pnet_virtio 9p virtio_blk crc32c_generic ext4; do add_module "$m"; done
else
    for m in virtio_pci 9pnet_virtio 9p vivid; do add_module "$m"; done
fi

# gpio-sim is not in Debian's kernel: build it out of tree (needs linux-headers-$kver).
# Without the headers the rig runs without it and the Flash rig tests skip.
if [ "${RIG_GPIO_SIM:-1}" = 1 ] && [ "$mode" != powercut ]; then
    if [ ! -f "$cache/extra/$kver/gpio-sim.ko" ] || [ "$here/gpio-sim/build.sh" -nt "$cache/extra/$kver/gpio-sim.ko" ]; then
        say "building gpio-sim for $kver"
        bash "$here/gpio-sim/build.sh" "$kver" "$cache/extra/$kver" "$cache" || say "gpio-sim not built: Flash rig tests will skip"
    fi
    if [ -f "$cache/extra/$kver/gpio-sim.ko" ]; then
        modfile[gpio_sim]="$cache/extra/$kver/gpio-sim.ko"
        add_module gpio_sim
    fi
fi

# v4l2loopback: Debian ships it as DKMS source only; build it the same way.
if [ "${RIG_V4L2LOOPBACK:-1}" = 1 ] && [ "$mode" != powercut ]; then
    if [ ! -f "$cache/extra/$kver/v4l2loopback.ko" ] || [ "$here/v4l2loopback/build.sh" -nt "$cache/extra/$kver/v4l2loopback.ko" ]; then
        say "building v4l2loopback for $kver"
        bash "$here/v4l2loopback/build.sh" "$kver" "$cache/extra/$kver" "$cache" || say "v4l2loopback not built: loopback rig tests will skip"
    fi
    if [ -f "$cache/extra/$kver/v4l2loopback.ko" ]; then
        modfile[v4l2loopback]="$cache/extra/$kver/v4l2loopback.ko"
        add_module v4l2loopback
    fi
fi

# prepare: only the kernel and the modules built for it (make test does this beside its build).
if [ "$mode" = prepare ]; then
    say "prepared: $kpkg and its modules (${order[*]})"
    exit 0
fi

# 3. The test bundle and every shared library it loads (Swift Testing has no static
#    library in the toolchain, so the bundle goes in with its libraries).
build_flags=${SWIFT_BUILD_FLAGS:-}
if [ "$mode" = powercut ]; then
    say "building outbox-drain-child"
    build_what=(--product outbox-drain-child)
    stage="$cache/powercut/initramfs"
    initramfs="$cache/powercut/initramfs.cpio.gz"
else
    say "building the test bundle"
    build_what=(--build-tests)
    stage="$cache/initramfs"
    initramfs="$cache/initramfs.cpio.gz"
fi
# RIG_BIN: a build already made (make test runs the rig beside its tests, and a second
# SwiftPM would wait for the lock the running tests hold): nothing is built, its files are taken.
if [ -n "${RIG_BIN:-}" ]; then
    bin=$RIG_BIN
    say "taking the build in $bin (RIG_BIN)"
else
    (cd "$root" && swift build "${build_what[@]}" $build_flags >"$cache/build.log" 2>&1) || { tail -30 "$cache/build.log"; die "swift build failed"; }
    bin=$(cd "$root" && swift build --show-bin-path $build_flags)
fi

# Copies every shared library the executables given load (as ldd names them) into the initramfs.
stage_libraries() {
    ldd "$@" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' | sort -u | while read -r lib; do
        mkdir -p "$stage$(dirname "$lib")"
        cp -L "$lib" "$stage$lib"
    done
    mkdir -p "$stage/lib64"
    [ -e "$stage/lib64/ld-linux-x86-64.so.2" ] || cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib64/"
}
pack_initramfs() {
    (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$initramfs"
    say "initramfs $(du -h "$initramfs" | cut -f1), modules: ${order[*]}"
}

rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,results,rig/bin,lib/modules/rig}
cp "$busybox" "$stage/bin/busybox"
cp "$here/init" "$stage/init"
: > "$stage/rig/modules.list"
for m in "${order[@]}"; do
    cp "${modfile[$m]}" "$stage/lib/modules/rig/$m.ko"
    opts=""
    # vivid: one device, a video capture node only (webcam input first).
    [ "$m" = vivid ] && opts="n_devs=1 node_types=0x1"
    # v4l2loopback: /dev/video10, capture and output on the same node.
    [ "$m" = v4l2loopback ] && opts="devices=1 video_nr=10 card_label=idkiosk-loopback exclusive_caps=0"
    echo "$m $opts" >> "$stage/rig/modules.list"
done
echo "$mode" > "$stage/rig/mode"
if [ "$mode" = powercut ]; then
    [ -x "$bin/outbox-drain-child" ] || die "no outbox-drain-child executable in $bin"
    cp "$bin/outbox-drain-child" "$stage/rig/bin/"
    stage_libraries "$bin/outbox-drain-child"
    pack_initramfs
    exec bash "$here/powercut.sh" "$vmlinuz" "$initramfs" "$cache/powercut" "${RIG_CUTS:-30}"
fi
bundle=$(ls -d "$bin"/*PackageTests.xctest | head -1)
[ -x "$bundle" ] || die "no test bundle in $bin"
# The idkiosk executable next to the bundle, where IDKioskBinary finds it, for the
# command rig tests (idkioskTests' CommandRigTests).
[ -x "$bin/idkiosk" ] || die "no idkiosk executable in $bin"
cp "$bundle" "$stage/rig/bin/test-bundle"
cp "$bin/idkiosk" "$stage/rig/bin/idkiosk"
stage_libraries "$bundle" "$bin/idkiosk"
# The analysis rig test (idkioskTests' AnalyzeRigTests) feeds a generated recording through
# v4l2loopback and reads its MRZ with the model: both come from make vision-data and
# make vision-models; without them that test skips.
if [ -f "$root/.cache/vision-data/sequences/td3-slide-in.mjpeg" ] && [ -f "$root/.cache/models/mrz-ocrb-v1.bin" ]; then
    mkdir -p "$stage/rig/vision" "$stage/rig/models"
    cp "$root/.cache/vision-data/sequences/td3-slide-in.mjpeg" "$stage/rig/vision/"
    cp "$root/.cache/models/mrz-ocrb-v1.bin" "$root/.cache/models/MANIFEST" "$stage/rig/models/"
fi
# The booklet's analysis rig test feeds the field scenes' demo booklet (make vision-data: a
# passport open at its data page, placed on the platen) with the same model.
if [ -f "$root/.cache/vision-data/field/sequences/demo-booklet.mjpeg" ] && [ -f "$root/.cache/models/mrz-ocrb-v1.bin" ]; then
    mkdir -p "$stage/rig/vision" "$stage/rig/models"
    cp "$root/.cache/vision-data/field/sequences/demo-booklet.mjpeg" "$stage/rig/vision/"
    cp "$root/.cache/models/mrz-ocrb-v1.bin" "$root/.cache/models/MANIFEST" "$stage/rig/models/"
fi
# The face analysis rig test feeds the generated face recording (make face-data) with the
# face models (make vision-models); without them it skips.
if [ -f "$root/.cache/face-data/demo-face.mjpeg" ] && [ -f "$root/.cache/models/dlib_face_recognition_resnet_model_v1.dat" ]; then
    mkdir -p "$stage/rig/vision" "$stage/rig/models"
    cp "$root/.cache/face-data/demo-face.mjpeg" "$stage/rig/vision/"
    cp "$root/.cache/models/shape_predictor_5_face_landmarks.dat" "$root/.cache/models/dlib_face_recognition_resnet_model_v1.dat" \
        "$root/.cache/models/MANIFEST" "$stage/rig/models/"
fi
echo "$filter" > "$stage/rig/filter"
pack_initramfs

# 4. Boot. TCG only: /dev/kvm here cannot run a normal kernel.
results="$cache/results"
rm -rf "$results"; mkdir -p "$results"
qemu=(qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp 2 -m 3072 -no-reboot -nographic
    -kernel "$vmlinuz" -initrd "$initramfs"
    -append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init"
    -virtfs "local,path=$results,mount_tag=results,security_model=none,id=results")
if [ "$mode" = shell ]; then
    exec "${qemu[@]}"
fi
say "booting $kver under QEMU TCG (limit ${timeout_s}s)"
start=$(date +%s)
set +e
timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null >"$cache/console.log" 2>&1
qrc=$?
set -e
elapsed=$(( $(date +%s) - start ))
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
    tail -40 "$cache/console.log"
    say "VM hung: killed after ${timeout_s}s (console: $cache/console.log)"
    exit 124
fi
if [ -f "$results/rc" ]; then
    cat "$results/test.log"
    rc=$(cat "$results/rc")
else
    # No 9p results: fall back to what the VM printed.
    sed -n '/^rig: video nodes/,/^RIG-EXIT/p' "$cache/console.log"
    rc=$(sed -n 's/^RIG-EXIT: \([0-9]*\).*/\1/p' "$cache/console.log" | tail -1)
    [ -n "$rc" ] || { tail -40 "$cache/console.log"; say "the VM ended without running the tests (qemu exit $qrc)"; exit 2; }
fi
say "VM ran ${elapsed}s; tests exited $rc"
exit "$rc"
}
