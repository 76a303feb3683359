#!/usr/bin/env bash
# Checks the package's module boundaries (issue 19, "the server stands apart"): TenderServer, TenderBackend (the
# device's client for TenderServer's routes) and TenderWire must not depend, directly or through another target or
# product, on the core (Tender, and with it the system SQLite) or on a device adapter; TenderBackend not on
# TenderServer either (the device never links the vendors' secret-key clients). Reads the dependency graph from `swift package describe --type json`, so it needs no build.
# Usage: Scripts/check-module-deps.sh             checks the package
#        Scripts/check-module-deps.sh --self-test  also checks that the check fails when TenderServer depends on
#                                                  Tender (through TenderTestKit) or TenderWire on CSQLite
#        Scripts/check-module-deps.sh FILE         checks a saved describe JSON
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--self-test" ]; then
  real=$(mktemp); broken=$(mktemp)
  trap 'rm -f "$real" "$broken"' EXIT
  swift package describe --type json > "$real"
  "$0" "$real"
  for edit in 'TenderServer:TenderTestKit' 'TenderWire:CSQLite' 'TenderBackend:TenderServer'; do
    python3 - "$real" "$broken" "${edit%%:*}" "${edit##*:}" <<'PY'
import json, sys
package = json.load(open(sys.argv[1]))
for target in package["targets"]:
    if target["name"] == sys.argv[3]:
        target.setdefault("target_dependencies", []).append(sys.argv[4])
json.dump(package, open(sys.argv[2], "w"))
PY
    if "$0" "$broken" > /dev/null 2>&1; then
      echo "check-module-deps self-test: a ${edit%%:*} that depends on ${edit##*:} was not caught" >&2
      exit 1
    fi
  done
  echo "check-module-deps self-test: broken graphs are refused"
  exit 0
fi

if [ $# -ge 1 ]; then
  describe=$(cat "$1")
else
  describe=$(swift package describe --type json)
fi

python3 - "$describe" <<'PY'
import json, sys

package = json.loads(sys.argv[1])
targets = {t["name"]: t for t in package["targets"]}
# A product of this package stands for its targets.
products = {p["name"]: p.get("targets", []) for p in package.get("products", [])}

def direct(name):
    target = targets[name]
    deps = list(target.get("target_dependencies", []))
    for product in target.get("product_dependencies", []):
        deps += products.get(product, [])
    return [d for d in deps if d in targets]

def closure(name):
    seen, stack = set(), [name]
    while stack:
        for dep in direct(stack.pop()):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen

forbidden = {"Tender", "CSQLite", "TenderStripe", "TenderSquare"}
rules = {
    "TenderServer": forbidden | {"TenderStripeSimulator", "TenderSquareSimulator", "TenderTestKit"},
    "TenderWire": forbidden | {"TenderServer"},
    "TenderBackend": forbidden | {"TenderServer", "TenderStripeSimulator", "TenderSquareSimulator", "TenderTestKit"},
}
failed = False
for name, banned in rules.items():
    if name not in targets:
        print(f"check-module-deps: no target {name}", file=sys.stderr)
        failed = True
        continue
    deps = closure(name)
    bad = sorted(deps & banned)
    print(f"{name} depends on: {', '.join(sorted(deps)) or 'nothing'}")
    if bad:
        print(f"check-module-deps: {name} must not depend on {', '.join(bad)}", file=sys.stderr)
        failed = True
if "TenderWire" in targets and direct("TenderWire"):
    print("check-module-deps: TenderWire must depend on nothing", file=sys.stderr)
    failed = True
sys.exit(1 if failed else 0)
PY
