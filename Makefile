# geophoto — see README.md
SWIFT ?= swift
# Release binaries carry the Swift runtime inside (no shared Foundation to load): they start in
# a few milliseconds and run on any Linux with the same C libraries.
RELEASE := -c release --static-swift-stdlib
DEMO_DB := .build/demo/index.sqlite

.PHONY: all deps build demo test lint format bench examples gazetteer fuzz man clean

all: build

deps:
	@Scripts/install-deps.sh

build: deps
	$(SWIFT) build $(RELEASE)

## Index the bundled example photos into a fresh index and list the photos near Tokyo Station.
demo: build
	@rm -rf .build/demo
	.build/release/geophoto sync Examples/tokyo --db $(DEMO_DB)
	.build/release/geophoto near 35.68,139.76 --db $(DEMO_DB)

## Every test: formatting, unit, integration and end-to-end tests.
test: lint
	@Scripts/install-deps.sh test
	$(SWIFT) build
	Scripts/with-valhalla.sh Scripts/with-postgres.sh $(SWIFT) test
	Scripts/asan-replay.sh
	Scripts/fuzz.sh 5

lint:
	swift-format lint --strict --recursive Package.swift Sources Tests

format:
	swift-format format --in-place --recursive Package.swift Sources Tests

## Performance figures beside their anchors (SQLite R*Tree, brute force, exiftool, PostGIS).
bench:
	@Scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE)
	Scripts/with-postgres.sh .build/release/geophoto-bench

## Regenerates Examples/tokyo from GeoPhotoFixtures.ExamplePhotos.
examples:
	$(SWIFT) build --product geophoto-fixtures
	rm -rf Examples/tokyo
	.build/debug/geophoto-fixtures examples Examples/tokyo

## libFuzzer over the metadata readers (60 s per target; FUZZ_SECONDS=600 make fuzz for longer).
fuzz:
	Scripts/fuzz.sh $(or $(FUZZ_SECONDS),60)

## Writes the manual page from the command specs (a test checks that it is current).
man:
	$(SWIFT) build --product geophoto
	.build/debug/geophoto --generate-manual > man/geophoto.1

## Regenerates the shipped gazetteer from the GeoNames extract in ../shared/data.
gazetteer:
	$(SWIFT) build --product geophoto-fixtures
	.build/debug/geophoto-fixtures gazetteer Sources/GeoPhotoPlaces/Resources/places-cities1000.gaz ../shared/data/geonames-cities1000.csv

clean:
	rm -rf .build
