#!/usr/bin/env bash
# geophoto-fuzz's request fuzzer against a live `geophoto serve` on loopback: an index of the
# example photos and the hostile files, a token, and SECONDS (default 30) of random requests
# made from the server's own route table with extreme values. Fails on any 5xx, when the
# server stops answering or dies, or when it does not stop cleanly on SIGTERM afterwards.
set -euo pipefail
seconds="${1:-30}"
cd "$(dirname "$0")/.."
swift build --product geophoto >&2
swift build --product geophoto-fuzz >&2
swift build --product geophoto-fixtures >&2
bin=.build/debug
work=$(mktemp -d)
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
"$bin/geophoto-fixtures" examples "$work/photos" >/dev/null
"$bin/geophoto-fuzz" seeds "$work/photos/hostile"
# A clean environment: no user configuration, no GEOPHOTO_* of the caller's.
run() { env -i PATH="$PATH" HOME="$work" "$@"; }
run "$bin/geophoto" sync "$work/photos" --db "$work/index.sqlite" >/dev/null 2>"$work/sync.err"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/token"
chmod 600 "$work/token"
# Started directly (not through the function, whose subshell would be what gets the signal).
env -i PATH="$PATH" HOME="$work" "$bin/geophoto" serve --db "$work/index.sqlite" --port 0 \
  --token-file "$work/token" --quiet >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
port=""
for _ in $(seq 1 300); do
  port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$work/serve.out" | head -1)
  [[ -n "$port" ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/serve.err" >&2; echo "geophoto serve did not start" >&2; exit 1; }
  sleep 0.1
done
[[ -n "$port" ]] || { echo "geophoto serve did not say its port" >&2; exit 1; }
status=0
GEOPHOTO_FUZZ_TOKEN="$(cat "$work/token")" "$bin/geophoto-fuzz" requests --port "$port" --seconds "$seconds" || status=$?
if ! kill -0 "$pid" 2>/dev/null; then
  tail -20 "$work/serve.err" >&2
  echo "request fuzzing: the server died" >&2
  exit 1
fi
kill -TERM "$pid"
stopped=0
wait "$pid" || stopped=$?
pid=""
if [[ "$stopped" != 0 ]]; then
  tail -20 "$work/serve.err" >&2
  echo "request fuzzing: the server exited $stopped on SIGTERM" >&2
  exit 1
fi
exit "$status"
