#!/usr/bin/env bash
# The Debian package as a user gets it: built, checked by lintian (no errors), installed with
# apt-get, used from outside the checkout (version, a sync of the examples, near, the manual,
# the completions, the service unit), then removed: nothing of it may be left.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "$(id -u)" != "0" ]]; then
  echo "package check skipped: installing a package needs root" >&2
  exit 0
fi
deb=$(Scripts/make-deb.sh)
lintian --fail-on error --suppress-tags initial-upload-closes-no-bugs "$deb" >&2
if dpkg-query -W -f='${Status}' geophoto 2>/dev/null | grep -q "install ok installed"; then
  apt-get remove --purge -y -qq geophoto >/dev/null
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >/dev/null
files=$(dpkg -L geophoto | while read -r f; do [[ -f "$f" ]] && echo "$f"; done)
work=$(mktemp -d /tmp/geophoto-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r Examples/tokyo "$work/photos"
(
  cd "$work"
  export HOME="$work" XDG_CONFIG_HOME="$work/config"
  [[ "$(command -v geophoto)" == /usr/bin/geophoto ]]
  geophoto --version | grep -q "GeoNames"
  geophoto sync photos --db "$work/index.sqlite" >/dev/null
  geophoto near 35.68,139.76 --limit 1 --db "$work/index.sqlite" | grep -q "Ginza, Tokyo, JP"
  warnings=$(LANG=C MANWIDTH=80 man geophoto 2>&1 >/dev/null)
  [[ -z "$warnings" ]] || { echo "check-deb: man geophoto: $warnings" >&2; exit 1; }
  LANG=C MANWIDTH=80 man geophoto | grep -q "EXIT STATUS"
)
bash -n /usr/share/bash-completion/completions/geophoto
zsh -n /usr/share/zsh/site-functions/_geophoto
fish --no-execute /usr/share/fish/vendor_completions.d/geophoto.fish
systemd-analyze verify /lib/systemd/system/geophoto-serve.service
systemd-analyze verify "/lib/systemd/system/geophoto-sync@$(systemd-escape --path /srv/photos).service"
getent passwd geophoto >/dev/null
[[ -f /etc/geophoto/config ]]
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq geophoto >/dev/null
left=""
for f in $files /etc/geophoto/config; do [[ -e "$f" ]] && left+=" $f"; done
[[ -z "$left" ]] || { echo "check-deb: removing the package left:$left" >&2; exit 1; }
echo "package check: $(basename "$deb") builds, passes lintian, installs, works and removes cleanly"
