#!/usr/bin/env bash
# libFuzzer over geophoto's metadata readers, with AddressSanitizer, seeded from the shared
# corpora. Each target runs for SECONDS (default 60); a crash, leak or sanitizer report stops
# with the reproducer saved under .build/fuzz/crashes/. Leak detection is off: FoundationXML
# leaks a CFError on every XML parse error (in the toolchain, not in geophoto).
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."
corpora=../shared/corpora
swift build -c release --product geophoto-fuzz --build-path .build/fuzz \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >&2
binary=.build/fuzz/release/geophoto-fuzz
mkdir -p .build/fuzz/crashes
seed() {  # seed TARGET EXTENSIONS...: a fresh corpus folder for one target
  local dir=".build/fuzz/corpus/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  shift
  if [[ -d "$corpora" ]]; then
    for ext in "$@"; do
      find "$corpora" -type f -iname "*.$ext" -size -2M -exec cp {} "$dir/" \; 2>/dev/null || true
    done
  fi
  echo "$dir"
}
run() {  # run TARGET CORPUS
  echo "fuzzing $1 for ${seconds}s" >&2
  ASAN_OPTIONS=detect_leaks=0 GEOPHOTO_FUZZ_TARGET="$1" "$binary" "$2" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -detect_leaks=0 \
    -artifact_prefix=.build/fuzz/crashes/"$1"- -print_final_stats=0 2> ".build/fuzz/$1.log" \
    || { tail -40 ".build/fuzz/$1.log" >&2; echo "fuzzing $1 found a problem: see .build/fuzz/crashes/" >&2; exit 1; }
}
# One run per target; the fuzz binary lists its targets (one per photo format, then the EXIF
# and XMP readers) with the file extensions that seed each.
targets=$(GEOPHOTO_FUZZ_LIST=1 "$binary")
[[ -n "$targets" ]] || { echo "geophoto-fuzz listed no targets" >&2; exit 1; }
while read -r target extensions; do
  # shellcheck disable=SC2086  # the extensions are separate words
  run "$target" "$(seed "$target" $extensions)"
done <<< "$targets"
echo "fuzzing: no problem found (${seconds}s per target)" >&2
