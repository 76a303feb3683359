#!/usr/bin/env bash
# The products an app ships (Tender, TenderStripe, TenderSquare and the two bridges) hold no test code: no simulator,
# in-memory processor, manual clock, simulated network, simulator state file or sync-counting VFS, and no public test
# hook (those are `@_spi(Testing)`, or in the test-support products TenderTesting, TenderTestKit, TenderPowerLoss and
# the simulators). Three checks, each of which fails if one of them is put back:
#   1. the manifest: no shipping target depends, even transitively, on a test-support target;
#   2. the built modules: no symbol of the shipping modules' object files names a test-support type (`nm`, demangled);
#   3. the public API: the symbol graph of each shipping module (public, without SPI) has no test type or test hook.
# Builds the shipping targets (debug) first. Usage: Scripts/check-shipping-modules.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

shipping=(Tender TenderUI TenderStripe TenderSquare TenderStripeTerminal TenderSquareMobilePayments)
# Test-support targets: none may be a dependency of a shipping target.
support_pattern='^(TenderTesting|TenderTestKit|TenderPowerLoss|TenderPreviews|.*Simulator|.*Surface.*|HouseAccountAdapter)$'
# Types and hooks that are test code (a symbol naming one of them in a shipping module fails the check).
types='InMemoryPaymentProcessor|ManualClock|SimulatedNetwork|SeededGenerator|SimulatorStateFile|SimulatedCardPresentation|SyncCountingVFS|SQLiteSyncCount|SQLiteFileOperation|StripeSimulator|SquareSimulator|HoldGate'
# (`Configuration.simulatedReaders` is not one: Stripe's simulated reader and Square's mock reader are the vendors' own
# development features, which an app turns on before it has hardware.)
hooks='keepingEventHistory|emittedEvents|keepingHistory|emitted'
failures=0
fail() { echo "check-shipping-modules: $*" >&2; failures=$((failures + 1)); }

# --- 1. The manifest ------------------------------------------------------------------------------------------------
manifest=$(mktemp)
trap 'rm -f "$manifest"; rm -rf "${symbols:-}"' EXIT
swift package dump-package > "$manifest"
python3 - "$manifest" "$support_pattern" "${shipping[@]}" <<'PY' || failures=$((failures + 1))
import json, re, sys
package = json.load(open(sys.argv[1]))
support = re.compile(sys.argv[2])
targets = {t["name"]: t for t in package["targets"]}
def deps(name):
    for d in targets[name].get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in d and d[kind][0] in targets:
                yield d[kind][0]
bad = []
for root in sys.argv[3:]:
    seen, stack = set(), [root]
    while stack:
        name = stack.pop()
        for dep in deps(name):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    bad += [f"{root} depends on {d}" for d in sorted(seen) if support.match(d)]
for line in bad: print("check-shipping-modules:", line, file=sys.stderr)
print(f"manifest: {len(sys.argv) - 3} shipping targets, no test-support dependency" if not bad else "", end="")
sys.exit(1 if bad else 0)
PY
echo

# --- 2. The built modules' symbols ------------------------------------------------------------------------------------
if [ "${1:-}" != "--no-build" ]; then
  for target in "${shipping[@]}"; do swift build --target "$target" >/dev/null; done
fi
bin=$(swift build --show-bin-path)
for target in "${shipping[@]}"; do
  # The objects of the target's current sources only (a removed file's object may linger in the build folder).
  path=$(python3 -c 'import json,sys; t=[t for t in json.load(open(sys.argv[1]))["targets"] if t["name"]==sys.argv[2]][0]
print(t.get("path") or "Sources/" + t["name"])' "$manifest" "$target")
  objects=()
  while IFS= read -r source; do
    object="$bin/$target.build/$(basename "$source").o"
    [ -e "$object" ] && objects+=("$object")
  done < <(find -L "$path" -name '*.swift')
  [ "${#objects[@]}" -gt 0 ] || { fail "no object files for $target in $bin/$target.build (build it first)"; continue; }
  found=$(nm --defined-only "${objects[@]}" 2>/dev/null | awk '{print $NF}' | swift demangle --simplified \
    | grep -Eo "\b($types)\b" | sort -u || true)
  if [ -n "$found" ]; then
    fail "$target's object files define symbols of test code: $(echo "$found" | tr '\n' ' ')"
  else
    echo "symbols: $target (${#objects[@]} object files) defines no test type"
  fi
done

# --- 3. The public API (without SPI) ----------------------------------------------------------------------------------
symbols=$(mktemp -d)
triple=$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
sdk=()
if [ "$(uname)" = Darwin ]; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi
for target in "${shipping[@]}"; do
  swift-symbolgraph-extract -module-name "$target" -target "$triple" -I "$bin/Modules" -I Sources/CSQLite \
    ${sdk[@]+"${sdk[@]}"} -minimum-access-level public -output-dir "$symbols" 2>/dev/null \
    || { fail "could not extract $target's symbol graph"; continue; }
done
python3 - "$symbols" "$types" "$hooks" <<'PY' || failures=$((failures + 1))
import glob, json, re, sys
directory, types, hooks = sys.argv[1], re.compile(rf"^({sys.argv[2]})$"), re.compile(rf"^({sys.argv[3]})$")
bad = []
for path in sorted(glob.glob(f"{directory}/*.symbols.json")):
    graph = json.load(open(path))
    module = graph["module"]["name"]
    for symbol in graph["symbols"]:
        names = symbol["pathComponents"]
        # A name, a parameter label (`init(…keepingEventHistory:)`) or a type in a declaration's signature.
        labels = [f.get("spelling", "") for f in symbol.get("declarationFragments", [])
                  if f.get("kind") in ("externalParam", "identifier", "typeIdentifier")]
        hit = [n for n in names + labels if types.match(n) or hooks.match(n)]
        if hit:
            bad.append(f"{module}: public {'.'.join(names)} names test code ({', '.join(sorted(set(hit)))})")
for line in bad: print("check-shipping-modules:", line, file=sys.stderr)
if not bad:
    count = len(glob.glob(f"{directory}/*.symbols.json"))
    print(f"public API: {count} symbol graphs, no test type or test hook outside @_spi(Testing)")
sys.exit(1 if bad else 0)
PY

if [ "$failures" -ne 0 ]; then
  echo "check-shipping-modules: FAILED ($failures)" >&2
  exit 1
fi
echo "check-shipping-modules: ok"
