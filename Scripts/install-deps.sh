#!/usr/bin/env bash
# Installs the Debian packages geophoto needs that are missing.
#   Scripts/install-deps.sh          what building and running geophoto needs (Leaflet for the web map too)
#   Scripts/install-deps.sh test     also what the tests use (a headless browser, PostgreSQL with PostGIS,
#                                    zsh and fish for the completion scripts, groff and man for the manual,
#                                    dpkg-dev, lintian and systemd for the package and its service unit,
#                                    exiftool as the reference the format tests compare with, and ffmpeg,
#                                    heif-enc and cjxl, which make their video, AVIF and JPEG XL samples, and
#                                    GDAL, which reads the exports back, and tilemaker, osmium and pyosmium, which
#                                    make the OpenStreetMap tile archives of the street-map tests)
#   Scripts/install-deps.sh bench    also the benchmark anchors (exiftool, exiv2, wrk, PostgreSQL with PostGIS) and the
#                                    tools that make the mixed library's samples (ffmpeg, heif-enc, cjxl) and GNU
#                                    time for peak memory, sqlite3 as the export's anchor and djpeg as the
#                                    thumbnails' (the decoder's floor), and what makes the street map's archive
# Not root: prints the exact apt-get command instead.
set -euo pipefail

packages=(pkg-config zlib1g-dev libsqlite3-dev libexif-dev libbrotli-dev libiptcdata0-dev libcurl4-openssl-dev libmicrohttpd-dev libcairo2-dev libpq-dev libturbojpeg0-dev libpng-dev libwebp-dev libheif-dev libjxl-dev libyajl-dev libexpat1-dev libssl-dev fonts-dejavu-core libjs-leaflet)
case "${1:-}" in
  test) packages+=(chromium postgresql postgresql-15-postgis-3 zsh fish groff-base man-db dpkg-dev lintian systemd
    libimage-exiftool-perl ffmpeg libheif-examples libjxl-tools gdal-bin nodejs python3-jsonschema
    tilemaker osmium-tool python3-pyosmium) ;;
  bench) packages+=(libimage-exiftool-perl wrk postgresql postgresql-15-postgis-3 ffmpeg libheif-examples
    libjxl-tools time sqlite3 libjpeg-turbo-progs exiv2 tilemaker osmium-tool python3-pyosmium) ;;
  "") ;;
  *) echo "usage: Scripts/install-deps.sh [test|bench]" >&2; exit 64 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ "$(id -u)" != "0" ]]; then
  echo "geophoto needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "  sudo apt-get update && sudo $command" >&2
  exit 1
fi
echo "Installing ${missing[*]} ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$command >/dev/null
