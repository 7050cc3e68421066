#!/usr/bin/env bash
# Makes one located sample of every format and layout geophoto reads, from the camera samples
# in the corpora and Debian's tools: exiftool writes the position (and capture time, make and
# model) into copies of the tiny RAW samples and into stand-ins for RAW families without
# samples, ffmpeg makes the videos in each layout (moov first and last), heif-enc the AVIF and
# HEIC files, cjxl the JPEG XL files. Nothing made here is committed: tests and the benchmark
# run it into a scratch folder. Every sample has a name of its own: files with one name are one shot.
#
#   Scripts/make-format-samples.sh OUT [CORPORA]      (CORPORA defaults to ../shared/corpora)
#
# Every file gets latitude -33.8567844, longitude -70.6693, altitude -12.25, taken
# 2024-05-01 12:20:30 at -04:00 (16:20:30 UTC), as far as its format and writer can say it:
# ffmpeg rounds positions to 4 decimals, 3GPP `loci` stores 16.16 fixed point, and brob.jxl
# (Brotli-compressed Exif, which exiftool cannot read) carries the values written into src.jpg.
set -euo pipefail
out=${1:?usage: make-format-samples.sh OUT [CORPORA]}
corpora=$(cd "${2:-$(dirname "$0")/../../shared/corpora}" && pwd)
samples=$corpora/exiftool-images
for tool in exiftool ffmpeg heif-enc cjxl; do
  command -v "$tool" >/dev/null || { echo "make-format-samples: $tool is missing (Scripts/install-deps.sh test)" >&2; exit 3; }
done
mkdir -p "$out"
cd "$out"

lat=-33.8567844 lon=-70.6693 alt=-12.25
gps=("-GPSLatitude*=$lat" "-GPSLongitude*=$lon" "-GPSAltitude*=$alt"
  "-DateTimeOriginal=2024:05:01 12:20:30" "-OffsetTimeOriginal=-04:00")
write() { exiftool -m -q -q -overwrite_original "${gps[@]}" "$@"; }
ff() { ffmpeg -v error -y "$@"; }

# Camera RAW from real samples, one per family the corpora have.
for pair in CanonRaw.cr2:raw-cr2.cr2 CanonRaw.cr3:raw-cr3.cr3 Nikon.nef:raw-nef.nef FujiFilm.raf:raw-raf.raf \
  Panasonic.rw2:raw-rw2.rw2 PhaseOne.iiq:raw-iiq.iiq DNG.dng:raw-dng.dng Minolta.mrw:raw-mrw.mrw; do
  cp "$samples/${pair%%:*}" "${pair#*:}"
  chmod u+w "${pair#*:}"
done
write raw-cr2.cr2 raw-cr3.cr3 raw-nef.nef raw-raf.raf raw-rw2.rw2 raw-iiq.iiq raw-dng.dng raw-mrw.mrw
cp raw-rw2.rw2 raw-rwl.rwl
# A CR3 in the northern and eastern hemispheres too (the GPS references).
cp raw-cr3.cr3 north-east.cr3
exiftool -m -q -overwrite_original "-GPSLatitude*=35.6812" "-GPSLongitude*=139.7671" "-GPSAltitude*=40" north-east.cr3

# TIFF stand-ins for RAW families without samples (the reader sees only their TIFF structure).
ff -f lavfi -i color=gray:s=16x16 -frames:v 1 base.tif
for ext in arw sr2 srw pef nrw erf mef mos; do
  cp base.tif "stand-in-$ext.$ext"
  write -Make=TEST -Model=TEST "stand-in-$ext.$ext"
done
cp base.tif stand-in-orf.orf
write -Make=TEST -Model=TEST stand-in-orf.orf
printf 'RO' | dd of=stand-in-orf.orf bs=1 seek=2 conv=notrunc status=none   # IIRO: Olympus's magic
for ext in 3fr srf dcr kdc; do                                          # exiftool will not write these
  cp base.tif t.tif
  write -Make=TEST -Model=TEST t.tif
  mv t.tif "stand-in-$ext.$ext"
done
rm base.tif

# HEIF and AVIF: heif-enc copies the JPEG's EXIF with a zero offset; exiftool adds an Exif
# item with the 6-byte "Exif\0\0" offset.
ff -f lavfi -i testsrc=size=64x64 -frames:v 1 src.jpg
ff -f lavfi -i testsrc=size=64x64 -frames:v 1 -pix_fmt rgb24 p8.png
write -Make=TEST -Model=TEST src.jpg
heif-enc -q 50 src.jpg -o copied-heic.heic >/dev/null
heif-enc -A -q 50 src.jpg -o copied-avif.avif >/dev/null
heif-enc -A -q 50 p8.png -o added.avif >/dev/null
write -Make=TEST -Model=TEST added.avif

# JPEG XL: a plain Exif box (exiftool), and Exif compressed in a brob box (cjxl from a JPEG).
cjxl --quiet p8.png plain.jxl 2>/dev/null || cjxl p8.png plain.jxl >/dev/null 2>&1
write -Make=TEST -Model=TEST plain.jxl
cjxl --quiet src.jpg brob.jxl 2>/dev/null || cjxl src.jpg brob.jxl >/dev/null 2>&1
cjxl --quiet p8.png bare.jxl --container=0 2>/dev/null || true   # a bare codestream: no metadata
rm p8.png

# Videos: exiftool writes each place a position can live (mdta keys, udta, the item list);
# ffmpeg writes udta/©xyz (MOV) or 3GPP loci (MP4, M4V, 3GP, 3G2), and mdta keys under udta/meta.
for ext in mov mp4; do
  ff -f lavfi -i testsrc=size=64x48:rate=1 -t 3 -c:v mpeg4 "plain.$ext"
  for group in Keys UserData ItemList; do
    cp "plain.$ext" "$group-$ext.$ext"
    exiftool -q -overwrite_original -api QuickTimeUTC "-$group:GPSCoordinates=$lat, $lon, $alt" \
      "-QuickTime:CreateDate=2024:05:01 16:20:30" "$group-$ext.$ext"
  done
  rm "plain.$ext"
done
exiftool -q -overwrite_original "-Keys:CreationDate=2024:05:01 12:20:30-04:00" -Keys:Make=Apple \
  "-Keys:Model=iPhone 15" Keys-mov.mov
for ext in mov mp4 3gp 3g2 m4v; do
  for layout in moov-last moov-first; do
    flags=()
    [[ $layout == moov-first ]] && flags=(-movflags +faststart)
    ff -f lavfi -i testsrc=size=64x48:rate=1 -t 2 -c:v mpeg4 "${flags[@]}" \
      -metadata location=-33.8568-070.6693-012.250/ -metadata creation_time=2024-05-01T16:20:30Z \
      -metadata make=TEST -metadata model=TEST "ffmpeg-$layout-$ext.$ext"
  done
done
ff -f lavfi -i testsrc=size=64x48:rate=1 -t 2 -c:v mpeg4 -movflags use_metadata_tags \
  -metadata com.apple.quicktime.location.ISO6709=-33.8568-070.6693-012.250/ udta-keys.mp4
