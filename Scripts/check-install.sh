#!/usr/bin/env bash
# `make install` into a scratch DESTDIR, then the installed geophoto used from outside the
# checkout with nothing else copied, then `make uninstall`: nothing of it may be left.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(mktemp -d /tmp/geophoto-install.XXXXXX)
work=$(mktemp -d /tmp/geophoto-use.XXXXXX)
trap 'rm -rf "$root" "$work"' EXIT
make --no-print-directory install DESTDIR="$root" PREFIX=/usr >/dev/null
geophoto="$root/usr/bin/geophoto"
for f in usr/bin/geophoto usr/share/geophoto/places-cities500.gaz usr/share/geophoto/world.basemap \
  usr/share/man/man1/geophoto.1 \
  usr/share/bash-completion/completions/geophoto usr/share/zsh/site-functions/_geophoto \
  usr/share/fish/vendor_completions.d/geophoto.fish usr/share/doc/geophoto/geophoto.conf.example; do
  [[ -s "$root/$f" ]] || { echo "check-install: make install did not install $f" >&2; exit 1; }
done
# From another folder, through PATH, with an index of its own: place names must be found.
cp -r Examples/tokyo "$work/photos"
(
  cd "$work"
  export PATH="$root/usr/bin:$PATH" HOME="$work" XDG_CONFIG_HOME="$work/config"
  geophoto --version | grep -q "GeoNames"
  geophoto sync photos --db "$work/index.sqlite" >/dev/null
  out=$(geophoto near 35.68,139.76 --limit 1 --db "$work/index.sqlite")
  grep -q "Ginza, Tokyo, JP" <<<"$out" || { echo "check-install: no place names from $geophoto: $out" >&2; exit 1; }
  # The basemap is found too: a snapshot draws it (no graticule fallback, no error).
  geophoto snapshot --near 35.68,139.76 -o "$work/map.png" --db "$work/index.sqlite" >/dev/null \
    || { echo "check-install: no basemap for snapshots from $geophoto" >&2; exit 1; }
)
bash -n "$root/usr/share/bash-completion/completions/geophoto"
make --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr >/dev/null
left=$(find "$root" -type f)
[[ -z "$left" ]] || { echo "check-install: make uninstall left: $left" >&2; exit 1; }
echo "install check: make install and uninstall, geophoto from outside the checkout: fine"
