#!/usr/bin/env bash
# Runs a command with a real routing engine on loopback: starts Valhalla on the test street
# grid (Scripts/valhalla.sh), exports GEOPHOTO_TEST_ROUTING_ENDPOINT, runs "$@", and stops the
# engine whatever happens. If the engine cannot be had (no wheel, no network to PyPI), the
# command still runs and the routing tests say they were skipped.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
run="$(mktemp -d "${TMPDIR:-/tmp}/geophoto-valhalla.XXXXXX")"
cleanup() {
  "$here/valhalla.sh" stop "$run"
  rm -rf "$run"
}
trap cleanup EXIT
if endpoint=$("$here/valhalla.sh" start "$run"); then
  export GEOPHOTO_TEST_ROUTING_ENDPOINT="$endpoint"
  echo "routing engine for the tests: Valhalla at $endpoint" >&2
else
  echo "warning: no routing engine (Valhalla could not be started); the routing tests will be skipped" >&2
fi
"$@"
