#!/usr/bin/env bash
# Renders REPORT_DIR/report.html in headless Chromium, checks that its charts were drawn, and
# saves a screenshot next to the report (REPORT_DIR/report.png).
#   scripts/check-html-report.sh reports/greeting-20250101T000000Z
# Exits 0 when every chart the report declares is in the rendered DOM and drew its marks
# (or says "no data"), 1 when not, 2 on bad usage. Installs Chromium with apt-get if missing.
set -euo pipefail
dir="${1:?usage: scripts/check-html-report.sh REPORT_DIR}"
[ -f "$dir/report.html" ] || { echo "check-html-report: no report.html in $dir" >&2; exit 2; }
dir="$(cd "$dir" && pwd)"
html="$dir/report.html"
screenshot="$dir/report.png"

browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ]; then
    echo "check-html-report: installing chromium" >&2
    sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get install -y chromium >/dev/null
    browser="$(command -v chromium)"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$work/profile")
"$browser" "${flags[@]}" --dump-dom "file://$html" >"$work/dom.html" 2>"$work/chromium.log"
rm -f "$screenshot"
"$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$screenshot" "file://$html" >>"$work/chromium.log" 2>&1

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expected="$(sed -n 's/.*<meta name="vload-charts" content="\([0-9]*\)".*/\1/p' "$work/dom.html" | head -1)"
[ -n "$expected" ] || { fail "the rendered DOM has no vload-charts meta (is this a vload report.html?)"; expected=0; }
# One line per chart: everything from <svg class="chart" to its </svg>.
tr '\n' ' ' <"$work/dom.html" | sed 's#</svg>#</svg>\n#g' | grep -o '<svg class="chart".*</svg>' >"$work/charts.txt" || true
charts="$(wc -l <"$work/charts.txt")"
drawn="$(grep -c -E '<(path|rect) [^>]*(d="M|height="[1-9])' "$work/charts.txt" || true)"
empty="$(grep -c '>no data</text>' "$work/charts.txt" || true)"
titled="$(grep -c '<title id="chart-' "$work/charts.txt" || true)"
echo "charts: $charts rendered of $expected declared; $drawn drawn, $empty without data; $titled with a title"
[ "$charts" -eq "$expected" ] && [ "$expected" -gt 0 ] || fail "expected $expected charts in the DOM, found $charts"
[ $((drawn + empty)) -eq "$charts" ] || fail "$((charts - drawn - empty)) charts drew nothing and do not say why"
[ "$titled" -eq "$charts" ] || fail "$((charts - titled)) charts have no accessible title"

if [ -s "$screenshot" ]; then
    bytes="$(wc -c <"$screenshot")"
    echo "screenshot: $screenshot ($bytes bytes)"
    [ "$bytes" -gt 20000 ] || fail "the screenshot is nearly empty ($bytes bytes)"
else
    fail "Chromium wrote no screenshot"; sed -n '1,20p' "$work/chromium.log"
fi

if [ "$failures" -gt 0 ]; then echo "report.html check FAILED ($failures problems)"; exit 1; fi
echo "report.html check passed"
