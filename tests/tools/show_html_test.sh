#!/bin/sh
# tools.show_html_chromium: `tessera show --format html` pages opened in headless Chromium (via
# show_html_cdp.js): hover a cell with a real mouse event, check tooltip and highlight, save a
# screenshot, zoom and pan. Exit 77 (CTest: skipped) without /usr/bin/chromium or node.
# usage: show_html_test.sh TESSERA show_html_cdp.js OUTDIR
set -eu
tessera=$1 cdp=$2 out=$3
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  echo "SKIP: $chromium not found (apt-get install chromium; .ci/run installs it)"
  exit 77
fi
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node not found (apt-get install nodejs; .ci/run installs it)"
  exit 77
fi
mkdir -p "$out"

# TV: the elementwise add's make_layout_tv; cell (5,9) is index 5 + 9*16 = 149 = tv(thread 33, value 9);
# thread 33 holds 32 cells.
"$tessera" show 'make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1))' --format html -o "$out/show_tv.html"
node "$cdp" "$chromium" "$out/show_tv.html" "$out/show_html_screenshot_tv.png" 5,9 \
  '(5,9)|offset 149|thread 33|value 9' t 33 32

# Plain, with a stride-0 mode: cell (2,3) has offset 9, like the whole column 3 (4 cells).
"$tessera" show '(4,(2,3)):(0,(1,8))' --format html -o "$out/show_plain.html"
node "$cdp" "$chromium" "$out/show_plain.html" "$out/show_html_screenshot_plain.png" 2,3 \
  '(2,3)|offset 9' o 9 4

# Coordinate layout: the (_2,_2) tiles of a 6x4 identity layout; cell (1,5) is the coordinate (5,2),
# key 5 + 2*6 = 17 (its index in coshape (6,4)), held by that one cell.
"$tessera" show 'zipped_divide(make_identity_layout((6,4)), (_2,_2))' --format html -o "$out/show_coords.html"
node "$cdp" "$chromium" "$out/show_coords.html" "$out/show_html_screenshot_coords.png" 1,5 \
  '(1,5)|coordinate (5,2)' o 17 1

# Large: 128x256 opens (fitted); hover after 1:1.
"$tessera" show '(128,256):(256,1)' --format html -o "$out/show_large.html"
node "$cdp" "$chromium" "$out/show_large.html" "$out/show_html_screenshot_large.png" 10,20 \
  '(10,20)|offset 2580' o 2580 1
