#!/usr/bin/env bash
# Every malformed and odd file of the shared corpora, the hostile files (HostileFiles) and every
# input fuzzing ever found (Tests/Fixtures/fuzz-regressions) through every reader, decoder and
# renderer, built with AddressSanitizer: any out-of-bounds access fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=../shared/corpora
swift build --product geophoto-fuzz --build-path .build/asan --sanitize=address >&2
binary=.build/asan/debug/geophoto-fuzz
hostile=.build/asan/hostile
rm -rf "$hostile"
"$binary" seeds "$hostile"
folders=("$hostile")
for folder in Tests/Fixtures/fuzz-regressions/*/; do [[ -d "$folder" ]] && folders+=("$folder"); done
if [[ -d "$corpora" ]]; then
  folders+=("$corpora/exiv2-malformed" "$corpora/exif-samples/jpg/invalid" "$corpora/exif-samples/jpg/tests"
    "$corpora/exiftool-images" "$corpora/photoprism-testdata" "$corpora/exiv2-samples" "$corpora/exif-samples/heic")
else
  echo "asan replay: $corpora is not there; replaying the hostile files and regressions only" >&2
fi
ASAN_OPTIONS=detect_leaks=0 "$binary" "${folders[@]}"
