#!/usr/bin/env bash
# Builds geophoto_<version>_<arch>.deb from the tree `make install` stages (PREFIX=/usr), with
# the service unit, a conffile /etc/geophoto/config, Debian's copyright and changelog, md5sums,
# and Depends computed by dpkg-shlibdeps. Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n '1s/^geophoto (\([^)]*\)).*/\1/p' Packaging/debian/changelog)
arch=$(dpkg --print-architecture)
out=".build/deb"
stage="$out/geophoto_${version}_${arch}"
rm -rf "$stage" && mkdir -p "$stage/DEBIAN"
make --no-print-directory install DESTDIR="$PWD/$stage" PREFIX=/usr >&2
doc="$stage/usr/share/doc/geophoto"
# Debian keeps the licence in copyright; manuals and changelogs compressed.
rm -f "$doc/LICENSE"
gzip -9n "$stage/usr/share/man/man1/geophoto.1"
install -m644 Packaging/debian/copyright "$doc/copyright"
gzip -9nc Packaging/debian/changelog > "$doc/changelog.Debian.gz"
gzip -9n "$doc/README.md"
install -Dm644 Config/geophoto-serve.service "$stage/lib/systemd/system/geophoto-serve.service"
install -Dm644 Config/geophoto-sync@.service "$stage/lib/systemd/system/geophoto-sync@.service"
install -Dm644 Config/geophoto.conf.example "$stage/etc/geophoto/config"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/geophoto"
# dpkg-shlibdeps reads a source package's control file: a minimal one in a scratch folder.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/debian"
printf 'Source: geophoto\n\nPackage: geophoto\nArchitecture: any\n' > "$scratch/debian/control"
binary="$PWD/$stage/usr/bin/geophoto"
depends=$(cd "$scratch" && dpkg-shlibdeps -O "$binary" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[[ -n "$depends" ]] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# The web map's Leaflet, served from the machine (the page asks no other origin for it).
depends="$depends, libjs-leaflet"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
  Packaging/debian/control.in > "$stage/DEBIAN/control"
echo "/etc/geophoto/config" > "$stage/DEBIAN/conffiles"
install -m755 Packaging/debian/postinst Packaging/debian/prerm Packaging/debian/postrm "$stage/DEBIAN/"
(cd "$stage" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' | sort -z | xargs -0 md5sum) \
  > "$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/md5sums" "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles"
find "$stage" -type d -exec chmod 755 {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$out/geophoto_${version}_${arch}.deb" >&2
echo "$out/geophoto_${version}_${arch}.deb"
