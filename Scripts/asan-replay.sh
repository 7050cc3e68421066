#!/usr/bin/env bash
# Every malformed and odd file of the shared corpora through every metadata reader, built with
# AddressSanitizer: any out-of-bounds read or leak of the readers fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=../shared/corpora
if [[ ! -d "$corpora" ]]; then
  echo "asan replay skipped: $corpora is not there" >&2
  exit 0
fi
swift build --product geophoto-fuzz --build-path .build/asan --sanitize=address >&2
ASAN_OPTIONS=detect_leaks=0 .build/asan/debug/geophoto-fuzz \
  "$corpora/exiv2-malformed" "$corpora/exif-samples/jpg/invalid" "$corpora/exif-samples/jpg/tests" \
  "$corpora/exiftool-images" "$corpora/photoprism-testdata" "$corpora/exiv2-samples" "$corpora/exif-samples/heic"
