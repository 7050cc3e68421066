# geophoto — see README.md
SWIFT ?= swift
# Release binaries carry the Swift runtime inside (no shared Foundation to load): they start in
# a few milliseconds and run on any Linux with the same C libraries.
RELEASE := -c release --static-swift-stdlib
DEMO_DB := .build/demo/index.sqlite

.PHONY: all deps build demo test lint format bench examples gazetteer basemap fuzz man install uninstall deb clean

all: build

deps:
	@Scripts/install-deps.sh

build: deps
	$(SWIFT) build $(RELEASE)

## Installs into $(DESTDIR)$(PREFIX): the binary, the place names and basemap where it finds them, the
## manual page, shell completions and the example configuration. `make uninstall` removes
## exactly these files.
PREFIX ?= /usr/local
BIN_DIR = $(DESTDIR)$(PREFIX)/bin
SHARE_DIR = $(DESTDIR)$(PREFIX)/share
INSTALLED = $(BIN_DIR)/geophoto \
	$(SHARE_DIR)/geophoto/places-cities500.gaz \
	$(SHARE_DIR)/geophoto/world.basemap \
	$(SHARE_DIR)/man/man1/geophoto.1 \
	$(SHARE_DIR)/bash-completion/completions/geophoto \
	$(SHARE_DIR)/zsh/site-functions/_geophoto \
	$(SHARE_DIR)/fish/vendor_completions.d/geophoto.fish \
	$(SHARE_DIR)/doc/geophoto/geophoto.conf.example \
	$(SHARE_DIR)/doc/geophoto/README.md \
	$(SHARE_DIR)/doc/geophoto/LICENSE \
	$(SHARE_DIR)/doc/geophoto/NOTICE

install: build
	install -Dm755 .build/release/geophoto $(BIN_DIR)/geophoto
	install -Dm644 Sources/GeoPhotoPlaces/Resources/places-cities500.gaz $(SHARE_DIR)/geophoto/places-cities500.gaz
	install -Dm644 Sources/GeoPhotoBasemap/Resources/world.basemap $(SHARE_DIR)/geophoto/world.basemap
	install -Dm644 man/geophoto.1 $(SHARE_DIR)/man/man1/geophoto.1
	install -d $(SHARE_DIR)/bash-completion/completions $(SHARE_DIR)/zsh/site-functions \
		$(SHARE_DIR)/fish/vendor_completions.d
	.build/release/geophoto --generate-completion-script bash > $(SHARE_DIR)/bash-completion/completions/geophoto
	.build/release/geophoto --generate-completion-script zsh > $(SHARE_DIR)/zsh/site-functions/_geophoto
	.build/release/geophoto --generate-completion-script fish > $(SHARE_DIR)/fish/vendor_completions.d/geophoto.fish
	install -Dm644 Config/geophoto.conf.example $(SHARE_DIR)/doc/geophoto/geophoto.conf.example
	install -Dm644 README.md $(SHARE_DIR)/doc/geophoto/README.md
	install -Dm644 LICENSE $(SHARE_DIR)/doc/geophoto/LICENSE
	install -Dm644 NOTICE $(SHARE_DIR)/doc/geophoto/NOTICE

uninstall:
	rm -f $(INSTALLED)
	-rmdir $(SHARE_DIR)/geophoto $(SHARE_DIR)/doc/geophoto 2>/dev/null

## Builds geophoto_<version>_<arch>.deb under .build/deb/ (Scripts/make-deb.sh).
deb: build
	@Scripts/make-deb.sh

## Index the bundled example photos into a fresh index and list the photos near Tokyo Station.
demo: build
	@rm -rf .build/demo
	.build/release/geophoto sync Examples/tokyo --db $(DEMO_DB)
	.build/release/geophoto near 35.68,139.76 --db $(DEMO_DB)

## Every test: formatting, unit, integration and end-to-end tests.
test: lint
	@Scripts/install-deps.sh test
	node --check Sources/GeoPhotoServer/WebMap/geophoto.js
	$(SWIFT) build
	Scripts/osm-test-archives.sh
	Scripts/with-valhalla.sh Scripts/with-postgres.sh $(SWIFT) test
	Scripts/asan-replay.sh
	Scripts/fuzz.sh 30
	Scripts/fuzz-requests.sh 30
	Scripts/check-install.sh
	Scripts/check-deb.sh

lint:
	swift-format lint --strict --recursive Package.swift Sources Tests

format:
	swift-format format --in-place --recursive Package.swift Sources Tests

## Performance figures beside their anchors (SQLite R*Tree, brute force, exiftool, PostGIS).
bench:
	@Scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE)
	Scripts/osm-test-archives.sh
	Scripts/with-postgres.sh .build/release/geophoto-bench

## Regenerates Examples/tokyo from GeoPhotoFixtures.ExamplePhotos.
examples:
	$(SWIFT) build --product geophoto-fixtures
	rm -rf Examples/tokyo
	.build/debug/geophoto-fixtures examples Examples/tokyo

## libFuzzer over the readers, decoders and renderers (60 s per target; FUZZ_SECONDS=600 make fuzz for longer).
fuzz:
	Scripts/fuzz.sh $(or $(FUZZ_SECONDS),60)

## Writes the manual page from the command specs (a test checks that it is current).
man:
	$(SWIFT) build --product geophoto
	.build/debug/geophoto --generate-manual > man/geophoto.1

## Regenerates the shipped gazetteer from the GeoNames extract and country outlines in ../shared/data/places.
gazetteer:
	$(SWIFT) build --product geophoto-fixtures
	.build/debug/geophoto-fixtures gazetteer Sources/GeoPhotoPlaces/Resources/places-cities500.gaz ../shared/data/places

## Regenerates the shipped basemap from Natural Earth's layers in ../shared/data/basemap,
## labelled with the shipped gazetteer's places.
basemap:
	$(SWIFT) build -c release --product geophoto-fixtures
	.build/release/geophoto-fixtures basemap Sources/GeoPhotoBasemap/Resources/world.basemap ../shared/data/basemap \
		Sources/GeoPhotoPlaces/Resources/places-cities500.gaz

clean:
	rm -rf .build
