#!/usr/bin/env bash
# Makes the system VM's root filesystem: Debian 12 from Debian's packages (mmdebstrap, from
# the Debian mirrors this machine's apt already uses), systemd as PID 1, pcscd with
# vsmartcard's vpcd, and the libraries the packages under test depend on, so that they
# install offline inside the VM. Written as an ext4 image; run.sh keeps it until this
# script or the package list changes.
#
# Usage: rootfs.sh IMAGE [PACKAGE...]   (extra packages: the Depends of the .debs)
set -euo pipefail

image=$1; shift
extra=("$@")
say() { echo "system-vm: $*" >&2; }
die() { say "$*"; exit 2; }
command -v mmdebstrap >/dev/null || die "mmdebstrap missing: apt-get install mmdebstrap (scripts/setup-debian.sh)"
command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 missing: apt-get install e2fsprogs"

# The mirrors: the Debian bookworm suites this machine's apt is configured with (main,
# bookworm-updates, bookworm-security), taken from apt itself, so no host is named here.
mirrors=$(apt-cache policy | awk '
    /^ *[0-9]+ [a-z]+:\/\// { uri=$2; split($3, sc, "/"); suite=sc[1]; comp=sc[2]; next }
    /release .*o=Debian,/ && uri != "" && suite ~ /^bookworm/ { print "deb " uri " " suite " " comp; uri="" }
' | sort -u)
[ -n "$mirrors" ] || die "no Debian bookworm source in this machine's apt configuration (apt-get update?)"

packages=(
    # systemd as PID 1, with udev (the package's rules) and D-Bus, as on a station
    systemd-sysv udev dbus
    # the real PC/SC stack with vsmartcard's virtual reader (the virtual passport connects to it)
    pcscd vsmartcard-vpcd
    # the checks: /health over HTTP, process tools
    curl procps
)
packages+=("${extra[@]}")

work=$(mktemp -d "${image}.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/root"

mirror_args=()
while IFS= read -r line; do mirror_args+=("$line"); done <<< "$mirrors"

say "mmdebstrap bookworm (minbase + ${#packages[@]} packages) from $(echo "$mirrors" | wc -l) apt sources"
# The customize hooks: the fstab, the 9p share with the host, no login prompt on the
# console, none of the timers and module loaders that only slow an emulated boot (the
# initramfs loaded the modules; the image has none), and the unit that runs the checks the
# host puts into that share.
mmdebstrap --mode=root --variant=minbase --quiet \
    --include="$(IFS=,; echo "${packages[*]}")" \
    --customize-hook='echo "/dev/vda / ext4 rw,noatime 0 1" > "$1/etc/fstab"' \
    --customize-hook='echo "sysvm /sysvm 9p trans=virtio,version=9p2000.L,msize=262144,nofail 0 0" >> "$1/etc/fstab"' \
    --customize-hook='mkdir -p "$1/sysvm" && echo idkiosk-system-vm > "$1/etc/hostname"' \
    --customize-hook='chroot "$1" systemctl mask serial-getty@ttyS0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer man-db.timer modprobe@loop.service modprobe@fuse.service modprobe@efi_pstore.service modprobe@drm.service modprobe@configfs.service' \
    --customize-hook='cat > "$1/etc/systemd/system/sysvm-checks.service" <<UNIT
[Unit]
Description=idkiosk system test: the checks the host put into /sysvm/in
RequiresMountsFor=/sysvm
After=basic.target

[Service]
Type=exec
ExecStart=/bin/bash /sysvm/in/checks.sh
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
UNIT
chroot "$1" systemctl enable sysvm-checks.service' \
    bookworm "$root" "${mirror_args[@]}"

say "writing the ext4 image"
rm -f "$image.new"
mkfs.ext4 -q -L idkiosk-sysvm -d "$root" "$image.new" 3G
mv "$image.new" "$image"
