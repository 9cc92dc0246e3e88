#!/usr/bin/env bash
# Lighthouse 12.2.3 on the portal's Overview (desktop, as the demo workspace admin) and the hosted
# quote page (mobile, anonymous), RUNS times each, against a running `npm start` (BASE_URL).
# Lighthouse lives outside the project (LH_DIR); Debian's Chromium runs it with --no-sandbox.
# Usage: bash bench/lighthouse.sh [runs=3]   — prints one line per run; reports in test-results/lighthouse.
set -euo pipefail
RUNS=${1:-3}
BASE_URL=${BASE_URL:-http://localhost:3000}
LH_DIR=${LH_DIR:-/tmp/lighthouse-12.2.3}
OUT=test-results/lighthouse
if [ ! -x "$LH_DIR/node_modules/.bin/lighthouse" ]; then
  mkdir -p "$LH_DIR" && (cd "$LH_DIR" && npm init -y >/dev/null && npm install --no-audit --no-fund lighthouse@12.2.3 >/dev/null)
fi
mkdir -p "$OUT"
TOKEN=$(node -p "require('./.data/demo.json').sessions.workspaceAdmin")
BUSINESS=$(node -p "require('./.data/demo.json').businessId")
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
lh() { "$LH_DIR/node_modules/.bin/lighthouse" "$@" --chrome-flags="--headless=new --no-sandbox" --output=json --quiet; }
summary() {
  node -e '
    const r = require(process.argv[1]); const a = r.audits, c = r.categories;
    const ms = (k) => Math.round(a[k].numericValue);
    console.log(`${process.argv[2]}: performance ${Math.round(c.performance.score * 100)}, accessibility ${Math.round(c.accessibility.score * 100)}, ` +
      `TBT ${ms("total-blocking-time")} ms, LCP ${ms("largest-contentful-paint")} ms, CLS ${a["cumulative-layout-shift"].numericValue.toFixed(3)}, FCP ${ms("first-contentful-paint")} ms`);
  ' "$PWD/$1" "$2"
}
for i in $(seq 1 "$RUNS"); do
  lh "$BASE_URL/portal" --preset=desktop --extra-headers="{\"Cookie\":\"next-auth.session-token=$TOKEN\"}" --output-path="$OUT/portal-$i.json"
  summary "$OUT/portal-$i.json" "/portal (desktop) run $i"
  lh "$BASE_URL/q/$BUSINESS" --output-path="$OUT/hosted-$i.json"
  summary "$OUT/hosted-$i.json" "/q/<business> (mobile) run $i"
done
