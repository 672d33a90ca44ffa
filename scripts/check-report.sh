#!/usr/bin/env bash
# Opens every page of the HTML site written by `sudoku-lab report` in headless Chromium and
# fails (exit 1) on:
#   - any message on the browser console (the pages' only script is the few inline lines of
#     the verdict filters, which log nothing, so any message means a JavaScript error or a
#     resource the browser refused),
#   - a page that Chromium cannot render (empty DOM),
#   - a missing image: an <img src>, <source src> or <image href> whose file does not exist,
#     a report that says "missing image", a chart figure without its inline <svg>,
#   - a broken local link: an href to a file that does not exist, or a #fragment that names no
#     id in the target page,
#   - anything fetched from the network (a src, stylesheet or script on http(s):, a CDN).
# Links to other sites (<a href="https://...">) are allowed but listed.
# The DOM checked is the one Chromium built (--dump-dom), checked by a Python script that uses
# only the standard library. A screenshot of the index is saved (and of every page with
# SCREENSHOT_ALL=1) under SCREENSHOT_DIR (default target/site-check/).
#
# Usage: scripts/check-report.sh [SITE_DIR]      (default: docs)
# Needs the Debian package `chromium` (apt-get install -y chromium) and python3.
set -euo pipefail

SITE_DIR=${1:-docs}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHOT_DIR=${SCREENSHOT_DIR:-$ROOT/target/site-check}

CHROMIUM=""
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then CHROMIUM=$c; break; fi
done
if [ -z "$CHROMIUM" ]; then
    echo "check-report: chromium not installed (apt-get install -y chromium)" >&2
    exit 2
fi
if [ ! -f "$SITE_DIR/index.html" ]; then
    echo "check-report: $SITE_DIR/index.html not found (run: sudoku-lab report --out $SITE_DIR)" >&2
    exit 2
fi
SITE_ABS=$(cd "$SITE_DIR" && pwd)
mkdir -p "$SHOT_DIR"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One profile per script run; no first-run dialogs, no network services.
chrome() {
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
        --disable-extensions --disable-background-networking --disable-sync \
        --user-data-dir="$WORK/profile" --enable-logging=stderr --v=0 \
        --virtual-time-budget=5000 "$@"
}

pages=("$SITE_ABS"/*.html)
echo "check-report: ${#pages[@]} pages in $SITE_ABS ($CHROMIUM)"
failed=0
for page in "${pages[@]}"; do
    name=$(basename "$page")
    if ! chrome --dump-dom "file://$page" >"$WORK/$name.dom" 2>"$WORK/$name.log"; then
        echo "FAIL $name: chromium exited with an error"
        failed=1
    fi
    # Console lines: "[pid:tid:time:INFO:CONSOLE:line] "message", source: url (line)".
    if grep -E ':CONSOLE[:(]' "$WORK/$name.log" >"$WORK/$name.console"; then
        echo "FAIL $name: browser console:"
        sed 's/^/    /' "$WORK/$name.console"
        failed=1
    fi
done

if ! python3 - "$SITE_ABS" "$WORK" <<'PY'
import os, sys, urllib.parse
from html.parser import HTMLParser

site, work = sys.argv[1], sys.argv[2]

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.refs, self.svgs, self.figures, self.missing = set(), [], 0, 0, 0
        self.elements, self.fig, self.empty_figures = 0, None, 0
    def handle_endtag(self, tag):
        if tag == "figure" and self.fig is not None:
            if self.fig == 0:
                self.empty_figures += 1
            self.fig = None
    def handle_starttag(self, tag, attrs):
        self.elements += 1
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "svg":
            self.svgs += 1
        if tag in ("svg", "img") and self.fig is not None:
            self.fig += 1
        if tag == "figure" and "chart" in (a.get("class") or "").split():
            self.figures += 1
            self.fig = 0
        if "missing" in (a.get("class") or "").split():
            self.missing += 1
        for attr in ("href", "src", "xlink:href"):
            if a.get(attr) is not None:
                self.refs.append((tag, attr, a[attr], a.get("rel")))

def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p

# ids of each page as written on disk (targets of #fragment links)
disk_ids = {}
def ids_of(path):
    if path not in disk_ids:
        disk_ids[path] = parse(path).ids if path.endswith(".html") else set()
    return disk_ids[path]

errors, external, checked = [], set(), 0
pages = sorted(n for n in os.listdir(site) if n.endswith(".html"))
for name in pages:
    dom_file = os.path.join(work, name + ".dom")
    if not os.path.exists(dom_file) or os.path.getsize(dom_file) == 0:
        errors.append(f"{name}: Chromium rendered nothing")
        continue
    p = parse(dom_file)
    if p.elements < 5:
        errors.append(f"{name}: Chromium rendered an almost empty page")
    if p.missing:
        errors.append(f"{name}: {p.missing} element(s) marked missing (a report image not found)")
    if p.empty_figures:
        errors.append(f"{name}: {p.empty_figures} chart figure(s) without an <svg> or <img>")
    page_path = os.path.join(site, name)
    for tag, attr, url, rel in p.refs:
        checked += 1
        u = urllib.parse.urlsplit(url)
        if u.scheme in ("http", "https") or url.startswith("//"):
            if tag == "a":
                external.add(url)
            else:
                errors.append(f"{name}: <{tag} {attr}> fetches from the network: {url}")
            continue
        if u.scheme in ("mailto", "data"):
            continue
        if u.scheme == "file":
            target = urllib.parse.unquote(u.path)
        elif u.scheme:
            errors.append(f"{name}: unexpected URL scheme: {url}")
            continue
        elif u.path == "":
            target = page_path
        else:
            target = os.path.normpath(os.path.join(site, urllib.parse.unquote(u.path)))
        if not os.path.exists(target):
            kind = "image" if tag in ("img", "image", "source") else "link"
            errors.append(f"{name}: broken {kind}: <{tag} {attr}=\"{url}\"> -> {target}")
            continue
        if tag in ("img", "image", "source") and os.path.getsize(target) == 0:
            errors.append(f"{name}: empty image file {target}")
        if u.fragment:
            ids = p.ids if target == page_path else ids_of(target)
            if u.fragment not in ids:
                errors.append(f"{name}: link {url}: no id \"{u.fragment}\" in {os.path.basename(target)}")
    print(f"  {name}: {len(p.refs)} links/sources, {p.figures} charts, {p.svgs} inline svg")

for e in errors:
    print("FAIL " + e)
for x in sorted(external):
    print(f"  external link (not followed): {x}")
print(f"check-report: {len(pages)} pages, {checked} links and sources checked, {len(errors)} problem(s)")
sys.exit(1 if errors else 0)
PY
then
    failed=1
fi

# Screenshots (the index; every page with SCREENSHOT_ALL=1).
shoot() {
    local page=$1 out=$2 size=$3
    chrome --hide-scrollbars --window-size="$size" --screenshot="$out" "file://$page" \
        >/dev/null 2>"$WORK/shot.log" || { echo "FAIL screenshot of $page"; failed=1; }
    [ -s "$out" ] || { echo "FAIL screenshot of $page is empty"; failed=1; }
}
shoot "$SITE_ABS/index.html" "$SHOT_DIR/index.png" 1400,1100
echo "check-report: screenshot $SHOT_DIR/index.png"
if [ "${SCREENSHOT_ALL:-0}" = 1 ]; then
    for page in "${pages[@]}"; do
        name=$(basename "$page" .html)
        [ "$name" = index ] && continue
        shoot "$page" "$SHOT_DIR/$name.png" 1400,3000
    done
    echo "check-report: screenshots of every page in $SHOT_DIR"
fi

if [ "$failed" != 0 ]; then
    echo "check-report: FAILED"
    exit 1
fi
echo "check-report: all pages passed"
