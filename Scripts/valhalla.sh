#!/usr/bin/env bash
# A real routing engine for the tests: Valhalla from the pyvalhalla wheel (PyPI), serving
# routing tiles built from the street grid in Tests/Fixtures/routing/grid.osm on loopback.
#
#   Scripts/valhalla.sh start RUN_DIR    prints the endpoint (http://127.0.0.1:PORT) on stdout
#   Scripts/valhalla.sh stop RUN_DIR     stops the service started in RUN_DIR (by its pid)
#
# The wheel is downloaded once into $GEOPHOTO_CACHE (default ~/.cache/geophoto) and reused.
set -euo pipefail

version=3.9.1
cache="${GEOPHOTO_CACHE:-$HOME/.cache/geophoto}"
here="$(cd "$(dirname "$0")/.." && pwd)"

fetch() {
  local wheel
  wheel=$(ls "$cache"/pyvalhalla-$version-*.whl 2>/dev/null | head -n1 || true)
  if [[ -z "$wheel" ]]; then
    mkdir -p "$cache"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
      --platform manylinux_2_28_x86_64 -d "$cache" "pyvalhalla==$version" >&2
    wheel=$(ls "$cache"/pyvalhalla-$version-*.whl | head -n1)
  fi
  local dir="$cache/pyvalhalla-$version"
  if [[ ! -x "$dir/valhalla/bin/valhalla_service" ]]; then
    rm -rf "$dir"
    python3 -m zipfile -e "$wheel" "$dir"
    chmod +x "$dir"/valhalla/bin/*
  fi
  echo "$dir"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

case "${1:-}" in
  start)
    run="${2:?usage: valhalla.sh start RUN_DIR}"
    mkdir -p "$run"
    vh=$(fetch)
    port=$(free_port)
    python3 "$vh/valhalla/valhalla_build_config.py" \
      --mjolnir-tile-dir "$run/tiles" --mjolnir-tile-extract "$run/tiles.tar" \
      --mjolnir-timezone "" --mjolnir-admin "" --additional-data-elevation "" \
      --httpd-service-listen "tcp://127.0.0.1:$port" \
      --httpd-service-loopback "ipc://$run/loopback" \
      --httpd-service-interrupt "ipc://$run/interrupt" > "$run/valhalla.json"
    "$vh/valhalla/bin/valhalla_build_tiles" -c "$run/valhalla.json" "$here/Tests/Fixtures/routing/grid.osm" \
      > "$run/build.log" 2>&1
    "$vh/valhalla/bin/valhalla_service" "$run/valhalla.json" 1 > "$run/service.log" 2>&1 &
    echo $! > "$run/pid"
    for _ in $(seq 1 100); do
      if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/status', timeout=1)" 2>/dev/null; then
        echo "http://127.0.0.1:$port"
        exit 0
      fi
      sleep 0.1
    done
    echo "valhalla did not start; see $run/service.log" >&2
    kill -KILL "$(cat "$run/pid")" 2>/dev/null || true
    exit 1
    ;;
  stop)
    run="${2:?usage: valhalla.sh stop RUN_DIR}"
    if [[ -f "$run/pid" ]]; then
      # valhalla_service does not stop on SIGTERM: end it by its recorded pid.
      kill -KILL "$(cat "$run/pid")" 2>/dev/null || true
      rm -f "$run/pid"
    fi
    ;;
  *)
    echo "usage: Scripts/valhalla.sh start|stop RUN_DIR" >&2
    exit 64
    ;;
esac
