#!/usr/bin/env bash
# Renders the HTML reports in REPORT_DIR (report.html of a run, capacity.html of a capacity
# search) in headless Chromium, checks that their charts were drawn and laid out, and saves a
# screenshot of each next to it (report.png, capacity.png).
#   scripts/check-html-report.sh reports/greeting-20250101T000000Z
#   scripts/check-html-report.sh reports/capacity-20250101T000000Z
# Exits 0 when every chart a page declares is in the rendered DOM, drew its marks (or says
# "no data") and its title's box does not intersect its legend's, 1 when not, 2 on bad usage.
# Installs Chromium with apt-get if missing.
set -euo pipefail
dir="${1:?usage: scripts/check-html-report.sh REPORT_DIR}"
[ -d "$dir" ] || { echo "check-html-report: no directory $dir" >&2; exit 2; }
dir="$(cd "$dir" && pwd)"
pages=()
for name in report.html capacity.html; do [ -f "$dir/$name" ] && pages+=("$name"); done
[ "${#pages[@]}" -gt 0 ] || { echo "check-html-report: no report.html or capacity.html in $dir" >&2; exit 2; }

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

# Measures, in the laid-out page, the box of every chart's title and of its legend, and
# writes one line per chart into the DOM: "ok|OVERLAP|no-legend<TAB>title<TAB>boxes".
layout_script='<script>
(function () {
  var lines = [];
  document.querySelectorAll("svg.chart").forEach(function (svg, index) {
    var title = svg.querySelector("text.chart-title"), legend = svg.querySelector("g.legend");
    var name = title ? title.textContent : "chart " + (index + 1);
    if (!title || !legend) { lines.push("no-legend\t" + name); return; }
    var a = title.getBoundingClientRect(), b = legend.getBoundingClientRect();
    var overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    var box = function (r) { return "[" + [r.left, r.top, r.right, r.bottom].map(function (v) { return v.toFixed(1); }).join(" ") + "]"; };
    lines.push((overlap ? "OVERLAP" : "ok") + "\t" + name + "\ttitle " + box(a) + " legend " + box(b));
  });
  var out = document.createElement("pre");
  out.id = "vload-layout";
  out.textContent = lines.join("\n");
  document.body.appendChild(out);
})();
</script>'

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for page in "${pages[@]}"; do
    html="$dir/$page"
    screenshot="$dir/${page%.html}.png"
    echo "$page:"
    "$browser" "${flags[@]}" --dump-dom "file://$html" >"$work/dom.html" 2>"$work/chromium.log"
    rm -f "$screenshot"
    "$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$screenshot" "file://$html" >>"$work/chromium.log" 2>&1

    expected="$(sed -n 's/.*<meta name="vload-charts" content="\([0-9]*\)".*/\1/p' "$work/dom.html" | head -1)"
    [ -n "$expected" ] || { fail "$page: the rendered DOM has no vload-charts meta (is this a vload report?)"; expected=0; }
    # One line per chart: everything from <svg class="chart" to its </svg>.
    tr '\n' ' ' <"$work/dom.html" | sed 's#</svg>#</svg>\n#g' | grep -o '<svg class="chart".*</svg>' >"$work/charts.txt" || true
    charts="$(wc -l <"$work/charts.txt")"
    drawn="$(grep -c -E '<(path|rect) [^>]*(d="M|height="[1-9])' "$work/charts.txt" || true)"
    empty="$(grep -c '>no data</text>' "$work/charts.txt" || true)"
    titled="$(grep -c '<title id="chart-' "$work/charts.txt" || true)"
    echo "  charts: $charts rendered of $expected declared; $drawn drawn, $empty without data; $titled with a title"
    [ "$charts" -eq "$expected" ] && [ "$expected" -gt 0 ] || fail "$page: expected $expected charts in the DOM, found $charts"
    [ $((drawn + empty)) -eq "$charts" ] || fail "$page: $((charts - drawn - empty)) charts drew nothing and do not say why"
    [ "$titled" -eq "$charts" ] || fail "$page: $((charts - titled)) charts have no accessible title"

    # Layout: a copy of the page (self-contained: no links to load) with the measuring
    # script, laid out at the screenshot's width.
    probe="$work/layout-$page"
    sed "s#</body>#$(printf '%s' "$layout_script" | tr '\n' ' ' | sed 's/[#&\\]/\\&/g')</body>#" "$html" >"$probe"
    "$browser" "${flags[@]}" --window-size=1280,2400 --dump-dom "file://$probe" >"$work/layout.html" 2>>"$work/chromium.log" || true
    tr '\n' '\001' <"$work/layout.html" | sed -n 's#.*<pre id="vload-layout">\(.*\)</pre>.*#\1#p' | tr '\001' '\n' \
        | sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' >"$work/layout.txt"
    measured="$(grep -c -E '^(ok|OVERLAP|no-legend)' "$work/layout.txt" || true)"
    overlapping="$(grep -c '^OVERLAP' "$work/layout.txt" || true)"
    legends="$(grep -c -E '^(ok|OVERLAP)' "$work/layout.txt" || true)"
    echo "  layout: $measured charts measured, $legends with a legend, $overlapping with a title over its legend"
    grep '^OVERLAP' "$work/layout.txt" | sed 's/^/    /' || true
    [ "$measured" -eq "$charts" ] || fail "$page: the layout was measured for $measured of $charts charts"
    [ "$overlapping" -eq 0 ] || fail "$page: $overlapping chart titles overlap their legends"

    if [ -s "$screenshot" ]; then
        bytes="$(wc -c <"$screenshot")"
        echo "  screenshot: $screenshot ($bytes bytes)"
        [ "$bytes" -gt 20000 ] || fail "$page: the screenshot is nearly empty ($bytes bytes)"
    else
        fail "$page: Chromium wrote no screenshot"; sed -n '1,20p' "$work/chromium.log"
    fi
done

if [ "$failures" -gt 0 ]; then echo "HTML report check FAILED ($failures problems)"; exit 1; fi
echo "HTML report check passed"
