#!/usr/bin/env bash
# libFuzzer over geophoto's readers, decoders and renderers, with AddressSanitizer. Each target
# runs for SECONDS (default 60), seeded from the shared corpora (by extension), the hostile files
# (HostileFiles: one extreme size or offset field each) and the regression folder; file targets
# mutate structure-aware half the time (ExtremeFields). A crash, hang or sanitizer report stops
# the run; its reproducer is saved under .build/fuzz/crashes/ and copied into
# Tests/Fixtures/fuzz-regressions/TARGET/, which Scripts/asan-replay.sh replays from then on.
# Leak detection is off: FoundationXML leaks a CFError on every XML parse error (in the
# toolchain, not in geophoto).
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."
corpora=../shared/corpora
regressions=Tests/Fixtures/fuzz-regressions
swift build -c release --product geophoto-fuzz --build-path .build/fuzz \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >&2
binary=.build/fuzz/release/geophoto-fuzz
mkdir -p .build/fuzz/crashes
hostile=.build/fuzz/hostile
rm -rf "$hostile"
"$binary" seeds "$hostile"
seed() {  # seed TARGET EXTENSIONS...: a fresh corpus folder for one target
  local target="$1" dir=".build/fuzz/corpus/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  shift
  for ext in "$@"; do
    if [[ -d "$corpora" ]]; then
      find "$corpora" -type f -iname "*.$ext" -size -2M -exec cp {} "$dir/" \; 2>/dev/null || true
    fi
    find "$hostile" -type f -iname "*.$ext" -exec cp {} "$dir/" \; 2>/dev/null || true
    # The OpenStreetMap archives the tests build (Scripts/osm-test-archives.sh), when built.
    find .build/osm -maxdepth 1 -type f -iname "*.$ext" -exec cp {} "$dir/" \; 2>/dev/null || true
  done
  if [[ -d "$regressions/$target" ]]; then cp "$regressions/$target"/* "$dir/" 2>/dev/null || true; fi
  # A target of parameters (tile, snapshot) starts from a few bytes of each kind.
  if [[ -z "$(ls -A "$dir")" ]]; then
    for byte in 00 01 7f 80 ff; do head -c 64 /dev/zero | tr '\0' "\\x$byte" > "$dir/seed-$byte"; done
  fi
  echo "$dir"
}
run() {  # run TARGET CORPUS
  echo "fuzzing $1 for ${seconds}s" >&2
  if ! ASAN_OPTIONS=detect_leaks=0 GEOPHOTO_FUZZ_TARGET="$1" "$binary" "$2" -max_total_time="$seconds" \
    -rss_limit_mb=2048 -timeout=10 -detect_leaks=0 -artifact_prefix=.build/fuzz/crashes/"$1"- \
    -print_final_stats=0 2> ".build/fuzz/$1.log"; then
    tail -40 ".build/fuzz/$1.log" >&2
    mkdir -p "$regressions/$1"
    for crash in .build/fuzz/crashes/"$1"-*; do [[ -f "$crash" ]] && cp "$crash" "$regressions/$1/"; done
    echo "fuzzing $1 found a problem: its input is in $regressions/$1/ (replayed by Scripts/asan-replay.sh)" >&2
    exit 1
  fi
}
# One run per target; the fuzz binary lists its targets with the file extensions that seed each.
targets=$(GEOPHOTO_FUZZ_LIST=1 "$binary")
[[ -n "$targets" ]] || { echo "geophoto-fuzz listed no targets" >&2; exit 1; }
while read -r target extensions; do
  # shellcheck disable=SC2086  # the extensions are separate words
  run "$target" "$(seed "$target" $extensions)"
done <<< "$targets"
echo "fuzzing: no problem found (${seconds}s per target)" >&2
