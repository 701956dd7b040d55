#!/bin/sh
# SPDX-License-Identifier: MIT
# doc/timeline-png.sh BUILDDIR SRCDIR — regenerates doc/timeline.png, the
# README's before/after picture: a two-layer training step from
# bench/pl-genmodel through conf/async.ini, whose two Timeline steps draw
# the schedule before and after SplitAsyncCCOp; the two SVGs stacked in one
# and rendered by headless Chromium (`make timeline-png`).
set -eu
builddir=$1
srcdir=$2
command -v chromium >/dev/null || { echo "timeline-png needs chromium" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timeline-png.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$builddir/bench/pl-genmodel" --layers 2 --seed 1 --single-function -o "$tmp/step.pir"
"$builddir/passline" -q --plugin-dir "$builddir/plugins/.libs" -p "$srcdir/conf/async.ini" \
	"$tmp/step.pir" -o "$tmp/step.out.pir"
height() { sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$1"; }
h1=$(height "$tmp/timeline-before.svg")
h2=$(height "$tmp/timeline-after.svg")
{
	echo "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"$((h1 + h2))\">"
	sed '1d; s/^<svg /<svg y="0" /' "$tmp/timeline-before.svg"
	sed "1d; s/^<svg /<svg y=\"$h1\" /" "$tmp/timeline-after.svg"
	echo '</svg>'
} >"$tmp/both.svg"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/chrome" --hide-scrollbars --force-device-scale-factor=1 \
	--window-size="1200,$((h1 + h2))" --screenshot="$tmp/timeline.png" \
	"file://$tmp/both.svg" >/dev/null 2>&1
test -s "$tmp/timeline.png"
cp "$tmp/timeline.png" "$srcdir/doc/timeline.png"
echo "wrote $srcdir/doc/timeline.png"
