#!/usr/bin/env bash
# `make system-test`: the Debian packages proven under real systemd. Boots a Debian 12 root
# filesystem (rootfs.sh, cached) with systemd as PID 1 on Debian's kernel under QEMU TCG,
# installs the packages of `make deb` inside it and runs checks.sh there: READY, /health,
# the STATUS= line, the watchdog, systemd-analyze security, upgrade, removal and purge.
# Prints the time of each phase; exits 1 naming each check that failed, 124 when the VM hung.
#
# Variables: SYSVM_CACHE (.cache/system-vm), SYSVM_TIMEOUT (seconds for the whole VM, 1200),
# SYSVM_DEBS (instead of running make deb: a folder holding idkiosk_<A>_amd64.deb, idkiosk_<B>_amd64.deb and
# idkiosk-backend_<B>_amd64.deb, with SYSVM_VERSION_A and SYSVM_VERSION_B: skips make deb),
# SYSVM_BUILT (the two paths make deb printed: version B is made already),
# RIG_CACHE (.cache/rig: the kernel, shared with the rig).
#
# run.sh --prepare: only the root filesystem, for the packages that depends.list names (make
# test makes it beside its build, before the packages exist; a run whose packages need more
# makes it again and says which to add to depends.list).
set -euo pipefail
{

prepare=0
[ "${1:-}" = --prepare ] && prepare=1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
abs() { case "$1" in /*) echo "$1" ;; *) echo "$root/$1" ;; esac; }
sysvm=$(abs "${SYSVM_CACHE:-.cache/system-vm}")
cache=$(abs "${RIG_CACHE:-.cache/rig}")     # kernel.sh's cache: the rig's kernel
timeout_s=${SYSVM_TIMEOUT:-1200}
mkdir -p "$sysvm" "$cache"

say() { echo "system-vm: $*" >&2; }
die() { say "$*"; exit 2; }
phase_start=0
phase() { phase_start=$(date +%s); say "$1"; }
phase_end() { say "$1 took $(( $(date +%s) - phase_start )) s"; }
total_start=$(date +%s)

for tool in qemu-system-x86_64 qemu-img cpio gzip dpkg-deb; do
    command -v "$tool" >/dev/null || die "$tool missing: scripts/setup-debian.sh installs it"
done
busybox=${RIG_BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || die "busybox missing: apt-get install busybox-static"

# 2. The root filesystem, made again only when rootfs.sh changes or the packages depend on
#    a package it lacks (they are installed in advance: the VM has no network). depends.list
#    names what the packages depended on when it was last written, so that make test can
#    make the image before the packages exist.
listed=$(sed 's/#.*//' "$here/depends.list" | xargs -n1 | sort -u)
image="$sysvm/rootfs.img"
ensure_rootfs() {  # ensure_rootfs PACKAGE...: the image holds at least these
    local depends key lacking reason=""
    depends=$(printf '%s\n' "$@" | sort -u)
    key=$(sha256sum "$here/rootfs.sh" | cut -d' ' -f1)
    lacking=$(comm -23 <(echo "$depends") <(sort -u "$sysvm/rootfs.packages" 2>/dev/null) | xargs)
    [ -f "$image" ] || reason="no image yet"
    [ -n "$reason" ] || [ "$(cat "$sysvm/rootfs.key" 2>/dev/null)" = "$key" ] || reason="rootfs.sh changed"
    [ -n "$reason" ] || [ -z "$lacking" ] || reason="the packages need $lacking"
    if [ -z "$reason" ]; then
        say "cache hit ($(du -h "$image" | cut -f1) used)"
        return 0
    fi
    say "building it: $reason"
    rm -f "$sysvm/rootfs.key"
    # shellcheck disable=SC2086
    bash "$here/rootfs.sh" "$image" $depends > "$sysvm/rootfs.log" 2>&1 || { tail -30 "$sysvm/rootfs.log"; die "building the root filesystem failed ($sysvm/rootfs.log)"; }
    echo "$depends" > "$sysvm/rootfs.packages"
    echo "$key" > "$sysvm/rootfs.key"
}
if [ "$prepare" = 1 ]; then
    phase "root filesystem for the packages of depends.list (mmdebstrap; cached in $sysvm)"
    # shellcheck disable=SC2086
    ensure_rootfs $listed
    phase_end "root filesystem"
    exit 0
fi

# 1. The packages: version B of idkiosk and idkiosk-backend from `make deb`, and an older
#    version A of idkiosk (the upgrade check), B's package under an older version number.
phase "packages (make deb, versions A and B)"
if [ -n "${SYSVM_DEBS:-}" ]; then
    debs=$(abs "$SYSVM_DEBS")
    version_a=${SYSVM_VERSION_A:?SYSVM_VERSION_A with SYSVM_DEBS}
    version_b=${SYSVM_VERSION_B:?SYSVM_VERSION_B with SYSVM_DEBS}
else
    # make deb prints the paths of the two packages on its last two lines. B is the version
    # the tree builds; A, older (a ~ sorts before), is the same build.
    make_deb() {  # make_deb LOG
        (cd "$root" && make --no-print-directory deb >"$1" 2>&1) ||
            { tail -20 "$1" >&2; die "make deb failed (log: $1)"; }
        tail -n 2 "$1"
    }
    if [ -n "${SYSVM_BUILT:-}" ]; then
        built=$(echo "$SYSVM_BUILT" | tr ' ' '\n')   # make test's make deb stage made B already
    else
        built=$(make_deb "$sysvm/deb-b.log")
    fi
    deb_b_path=$(echo "$built" | grep '/idkiosk_[^/]*\.deb$' || true)
    [ -n "$deb_b_path" ] || die "make deb named no idkiosk package (log: $sysvm/deb-b.log)"
    debs=$(dirname "$deb_b_path")
    version_b=$(dpkg-deb -f "$deb_b_path" Version)
    version_a="$version_b~systest1"
    # A is B's content under an older version: unpacked, its control file's Version changed,
    # packed again (gzip -1: the VM only installs it). The maintainer scripts are B's.
    repack="$sysvm/repack"
    rm -rf "$repack"
    dpkg-deb -R "$deb_b_path" "$repack" || die "dpkg-deb could not unpack $deb_b_path"
    sed -i "s/^Version: .*/Version: $version_a/" "$repack/DEBIAN/control"
    dpkg-deb -Zgzip -z1 -b "$repack" "$debs/idkiosk_${version_a}_amd64.deb" >/dev/null ||
        die "dpkg-deb could not pack version $version_a"
    rm -rf "$repack"
fi
deb_a="$debs/idkiosk_${version_a}_amd64.deb"
deb_b="$debs/idkiosk_${version_b}_amd64.deb"
deb_backend="$debs/idkiosk-backend_${version_b}_amd64.deb"
for f in "$deb_a" "$deb_b" "$deb_backend"; do [ -f "$f" ] || die "missing package $f"; done
phase_end "packages"

phase "root filesystem (mmdebstrap; cached in $sysvm)"
depends=$(for f in "$deb_a" "$deb_b" "$deb_backend"; do dpkg-deb -f "$f" Depends; done |
    tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | { grep -v '^$' || true; } | sort -u)
unlisted=$(comm -23 <(echo "$depends") <(echo "$listed") | xargs)
[ -z "$unlisted" ] || say "WARNING: the packages depend on $unlisted, which $here/depends.list does not name: add them, so that make test makes the image before the packages"
# shellcheck disable=SC2086
ensure_rootfs $depends $listed
phase_end "root filesystem"

# 3. The kernel (the rig's, downloaded once) and an initramfs that mounts the root filesystem.
phase "kernel and initramfs"
. "$root/hardware/rig/kernel.sh"
rig_kernel
rig_modules_index
for m in virtio_pci virtio_blk crc32c_generic ext4 9pnet_virtio 9p virtio_rng; do add_module "$m"; done
stage="$sysvm/initramfs"
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,newroot,lib/modules/sysvm}
cp "$busybox" "$stage/bin/busybox"
cp "$here/init" "$stage/init"
chmod 755 "$stage/init"
for m in "${order[@]}"; do cp "${modfile[$m]}" "$stage/lib/modules/sysvm/$m.ko"; echo "$m"; done > "$stage/modules.list"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$sysvm/initramfs.cpio.gz"
phase_end "kernel and initramfs"

# 4. Boot: a copy-on-write layer over the cached image (the cache stays clean), the packages
#    and checks.sh in a 9p share, the results back through it and the serial console. The
#    layer is thrown away after the run, so its writes need not reach the host's disk
#    (cache=unsafe: dpkg's many fsyncs cost minutes under emulation otherwise).
run="$sysvm/run"
rm -rf "$run"
mkdir -p "$run/share/in/debs" "$run/share/out"
cp "$here/checks.sh" "$run/share/in/"
cp "$deb_a" "$deb_b" "$run/share/in/debs/"
cp "$deb_backend" "$run/share/in/debs/idkiosk-backend.deb"
printf 'VERSION_A=%q\nVERSION_B=%q\n' "$version_a" "$version_b" > "$run/share/in/versions"
qemu-img create -q -f qcow2 -b "$image" -F raw "$run/disk.qcow2"
phase "boot and checks under QEMU TCG (limit ${timeout_s}s)"
set +e
timeout -k 10 "$timeout_s" qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp 2 -m 3072 \
    -no-reboot -nographic -nic none \
    -kernel "$vmlinuz" -initrd "$sysvm/initramfs.cpio.gz" \
    -append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init systemd.show_status=error" \
    -drive "file=$run/disk.qcow2,if=virtio,format=qcow2,cache=unsafe" \
    -device virtio-rng-pci \
    -virtfs "local,path=$run/share,mount_tag=sysvm,security_model=none,id=sysvm" \
    </dev/null >"$run/console.log" 2>&1
qrc=$?
set -e
phase_end "VM"
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
    tail -40 "$run/console.log"
    say "VM hung: killed after ${timeout_s}s (console: $run/console.log)"
    exit 124
fi

# 5. The results: from the share, or from the console when the share failed.
results="$run/share/out/results.txt"
if ! grep -q '^DONE' "$results" 2>/dev/null; then
    sed -n 's/^.*SYSVM: //p; s/^.*SYSVM-DONE /DONE /p' "$run/console.log" | tr -d '\r' > "$run/console-results.txt"
    results="$run/console-results.txt"
fi
if ! grep -q '^DONE' "$results"; then
    tail -40 "$run/console.log"
    say "the checks did not finish (qemu exit $qrc; console: $run/console.log)"
    exit 2
fi
echo "system-vm: check      seconds  result"
awk '$1 == "PASS" || $1 == "FAIL" { printf "system-vm: %-10s %7s  %s %s\n", $2, $3, $1, substr($0, index($0, $4)) }' "$results"
failed=$(awk '$1 == "FAIL" { print $2 }' "$results" | tr '\n' ' ')
say "total $(( $(date +%s) - total_start )) s"
if [ -n "$failed" ]; then
    say "FAILED: $failed(logs in $run/share/out)"
    exit 1
fi
say "all checks passed"
exit 0
}
