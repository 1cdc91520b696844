#!/usr/bin/env bash
# `make check`: the developer's inner loop. Builds what changed (swift build --build-tests,
# incremental), then runs the unit tests of the modules that changed and the fast
# integration tests (pcscd with vpcd, the reference backend on loopback, the command line),
# in parallel where they may be. Not CI: `make test` runs everything.
#
#   make check                       the modules changed in the working tree (against HEAD)
#   make check MODULES="Vision MRTD" these modules' tests instead
#   make check MODULES=all           every test of the main build (no VM, no ASan)
#
# A change under Sources/<Module>/ runs Tests/<Module>Tests; one under Tests/<T>/ runs T. The
# suites that measure the generated data sets whole and the browser tests run only when their
# own module changed (docs/testing.md lists them). Prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."

run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}
start=$(date +%s)
step_start=$start
took() { echo "==> $1 took $(( $(date +%s) - step_start )) s"; step_start=$(date +%s); }

# The fast integration tests: the real PC/SC stack, the command line and the station's serve
# loop, each under a minute here; the ones that drive Chromium or measure whole data sets are not.
fast_integration="PCSCIntegrationTests|ChipDeviceIntegrationTests|ReadChipIntegrationTests|CommandLineIntegrationTests"

# The modules whose tests run.
modules=${MODULES:-}
if [ -z "$modules" ]; then
    changed=$( { git diff --name-only HEAD; git ls-files --others --exclude-standard; } | sort -u)
    modules=$(echo "$changed" | sed -n 's|^Sources/\([^/]*\)/.*|\1|p; s|^Tests/\([^/]*\)Tests/.*|\1|p' | sort -u | xargs)
fi
targets=()
if [ "$modules" = all ]; then
    filter=""
else
    for m in $modules; do
        [ -d "Tests/${m}Tests" ] && targets+=("${m}Tests")
    done
    if [ ${#targets[@]} -eq 0 ]; then
        echo "==> no changed module has tests of its own (${modules:-nothing changed}): the fast integration tests only"
    else
        echo "==> the tests of: ${targets[*]}; and the fast integration tests"
    fi
    filter="^($(IFS='|'; echo "${targets[*]}"))\\.|\\.($fast_integration)/"
    [ ${#targets[@]} -gt 0 ] || filter="\\.($fast_integration)/"
fi

echo "==> build (swift build --build-tests, incremental)"
run_filtered swift build --build-tests || { echo "==> build FAILED"; exit 1; }
took "build"

# The real PC/SC stack: one pcscd, reused when one runs already (the tests take its readers);
# one started here is stopped at the end (a pcscd left running would stop make test's own).
started_pcscd=0
if ! scripts/pcscd-vpcd.sh status >/dev/null 2>&1 && ! pgrep -x pcscd >/dev/null; then
    scripts/pcscd-vpcd.sh start >/dev/null
    started_pcscd=1
else
    scripts/pcscd-vpcd.sh start --reuse >/dev/null
fi
trap '[ "$started_pcscd" -eq 0 ] || scripts/pcscd-vpcd.sh stop >/dev/null || true' EXIT
export IDKIOSK_PCSCD=1

echo "==> tests"
status=0
if [ -z "$filter" ]; then
    run_filtered swift test --skip-build --no-parallel || status=$?
else
    run_filtered swift test --skip-build --no-parallel --filter "$filter" || status=$?
fi
took "tests"
echo "==> make check took $(( $(date +%s) - start )) s"
exit "$status"
