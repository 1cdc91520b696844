# idkiosk — the two commands of README.md, and helpers.
.PHONY: test demo build bench pcscd-start pcscd-stop unit

## make test: install what the tests need, build once, run every test (with timings)
test:
	scripts/test.sh

## make demo: the station on simulated hardware (virtual reader and card)
demo:
	scripts/demo.sh

build:
	swift build --build-tests

## unit: the tests that need no pcscd (fast, for development)
unit:
	swift build --build-tests && swift test --skip-build --skip IntegrationTests

include hardware/rig/rig.mk

pcscd-start:
	scripts/pcscd-vpcd.sh start

pcscd-stop:
	scripts/pcscd-vpcd.sh stop

## bench: performance figures, each compared with a baseline taken in the same run
bench:
	scripts/bench.sh
