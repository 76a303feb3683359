#!/usr/bin/env bash
# Checks the README's installation lines against what SwiftPM really does (run by .ci/run).
#
#   Scripts/check-install.sh            all three checks (about a minute and a half: one clean build of `Tender`)
#   Scripts/check-install.sh --quick    only (c), the snippets against Package.swift (no build)
#
# (a) A clean clone of this repository at HEAD resolves and builds the `Tender` target without the network: no
#     Package.resolved, no pins, nothing under .build/checkouts or .build/repositories.
# (b) `swift build --traits StripeTerminalSDK` (and `SquareMobilePaymentsSDK`) fails only for want of the network:
#     its output shows it tried to fetch that vendor's package (https://github.com/stripe/stripe-terminal-ios, resp.
#     https://github.com/square/mobile-payments-sdk-ios) and nothing else, and no other error.
# (c) The `.package(url:…, traits:)` and `.product(…)` lines and the vendor table in README.md and in the DocC
#     article UsingTheRealSDKs.md name the traits, bridge products, vendor URLs and versions Package.swift declares.
#
# The network is cut for every SwiftPM call here, on any machine: git reads no system or global configuration
# (no URL rewrites to a local mirror) and every proxy variable points at a closed port on 127.0.0.1. So a check
# never downloads a vendor SDK (stripe-terminal-ios is over 1 GiB), and a fetch always fails the same way.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; fi

fail() { echo "check-install: $*" >&2; exit 1; }
say() { printf 'check-install: %s\n' "$*"; }

# --- (c) the snippets against Package.swift ---------------------------------------------------------------------
python3 - "$root" <<'PY' || fail "the installation lines in the docs do not match Package.swift"
import re, sys, pathlib
root = pathlib.Path(sys.argv[1])
manifest = (root / "Package.swift").read_text()
docs = {name: (root / name).read_text() for name in ("README.md", "Sources/Tender/Tender.docc/UsingTheRealSDKs.md")}
problems = []

if not manifest.startswith("// swift-tools-version: 6.2"):
    problems.append("Package.swift: the tools version must be 6.2 (the first SwiftPM that skips trait-only dependencies)")
traits = set(re.findall(r'\.trait\(\s*name:\s*"([^"]+)"', manifest))
products = set(re.findall(r'\.library\(name:\s*"([^"]+)"', manifest))
# dependency identity (last path component of the URL) -> (URL, requirement text)
dependencies = {}
for url, requirement in re.findall(r'\.package\(url:\s*"([^"]+)",\s*([^)\n]*?)\),?\s*$', manifest, re.M):
    dependencies[url.rstrip("/").split("/")[-1].removesuffix(".git")] = (url, requirement.strip())
# trait -> (bridge target, vendor package identity), from `.product(…, package: P, condition: .when(traits: [T]))`
bridges = {}
for target in re.finditer(r'\.target\(\s*name:\s*"([^"]+)",\s*dependencies:\s*\[(.*?)\],\s*path:', manifest, re.S):
    for package, trait in re.findall(
            r'\.product\(name:\s*"[^"]+",\s*package:\s*"([^"]+)",\s*condition:\s*\.when\(traits:\s*\["([^"]+)"\]\)\)',
            target.group(2)):
        bridges[trait] = (target.group(1), package)
if traits != set(bridges):
    problems.append(f"Package.swift: traits {sorted(traits)} but trait-conditional bridges {sorted(bridges)}")

for name, text in docs.items():
    # `.package(url: "<Tender's repository URL>", from: "<version>", traits: ["T"])`: every trait, and no other.
    lines = re.findall(r'\.package\(url:\s*"([^"]+)",\s*from:\s*"[^"]+",\s*traits:\s*\[([^\]]*)\]\)', text)
    named = set()
    for url, listed in lines:
        if "stripe-terminal-ios" in url or "mobile-payments-sdk-ios" in url:
            problems.append(f"{name}: an app depends on Tender, not on the vendor package ({url})")
        named |= set(re.findall(r'"([^"]+)"', listed))
    if named != traits:
        problems.append(f"{name}: the `.package(…, traits:)` lines name {sorted(named)}, Package.swift declares {sorted(traits)}")
    # `.product(name: "X", package: "Tender")`: a product Tender declares.
    for product in re.findall(r'\.product\(name:\s*"([^"]+)",\s*package:\s*"Tender"\)', text):
        if product not in products:
            problems.append(f"{name}: `.product(name: \"{product}\", package: \"Tender\")` is not a product of Package.swift")
    # Table rows naming a trait: its bridge product, the vendor's URL and Package.swift's version requirement.
    rows = [row for row in text.splitlines() if row.startswith("|") and any(f"`{t}`" in row for t in traits)]
    for trait in sorted(traits):
        bridge, package = bridges.get(trait, (None, None))
        url, requirement = dependencies.get(package, (None, None))
        matching = [row for row in rows if f"`{trait}`" in row]
        if not matching:
            problems.append(f"{name}: no table row for the trait {trait}")
        for row in matching:
            expected = [f"`{bridge}`", url.removeprefix("https://"), requirement.replace('"', '')]
            for piece in expected:
                if piece not in row.replace('"', ''):
                    problems.append(f"{name}: the row for {trait} lacks {piece!r} (from Package.swift): {row}")

for problem in problems:
    print("  " + problem, file=sys.stderr)
if not problems:
    print(f"check-install: (c) README.md and UsingTheRealSDKs.md match Package.swift: traits {sorted(traits)}, "
          + ", ".join(f"{t} -> {dependencies[bridges[t][1]][0]} {dependencies[bridges[t][1]][1]}" for t in sorted(traits)))
sys.exit(1 if problems else 0)
PY
if [ "$quick" = 1 ]; then exit 0; fi

# --- A clean clone, with the network cut ------------------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-local "$root" "$work/Tender"
cd "$work/Tender"
say "clean clone of $(git rev-parse --short HEAD) in $work/Tender"

dead=http://127.0.0.1:9
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export http_proxy=$dead https_proxy=$dead HTTP_PROXY=$dead HTTPS_PROXY=$dead ALL_PROXY=$dead all_proxy=$dead
unset no_proxy NO_PROXY
# The clone's own cache, so nothing comes from (or goes to) the user's SwiftPM cache.
cache=(--cache-path "$work/swiftpm-cache" --disable-dependency-cache)

# --- (a) resolves and builds with no pins and no checkouts ------------------------------------------------------
timeout 300 swift package "${cache[@]}" resolve > "$work/resolve.txt" 2>&1 \
  || { cat "$work/resolve.txt" >&2; fail "(a) swift package resolve failed in a clean clone without the network"; }
timeout 1200 swift build "${cache[@]}" --target Tender > "$work/build.txt" 2>&1 \
  || { tail -n 40 "$work/build.txt" >&2; fail "(a) swift build --target Tender failed in a clean clone without the network"; }
if grep -q 'Fetching\|Cloning\|Computing version' "$work/resolve.txt" "$work/build.txt"; then
  cat "$work/resolve.txt" "$work/build.txt" >&2; fail "(a) a plain build fetched a package"
fi
[ ! -e Package.resolved ] || { cat Package.resolved >&2; fail "(a) a plain resolve wrote Package.resolved"; }
for dir in .build/checkouts .build/repositories; do
  if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then ls -A "$dir" >&2; fail "(a) $dir is not empty"; fi
done
python3 -c 'import json,sys; d=json.load(open(".build/workspace-state.json"))["object"]["dependencies"]; sys.exit(1 if d else 0)' \
  || fail "(a) .build/workspace-state.json records dependencies"
say "(a) a clean clone resolves and builds Tender with no network: no Package.resolved, no checkouts"

# --- (b) a trait fetches its vendor's package, and only that ----------------------------------------------------
check_trait() {
  local trait=$1 url=$2 other=$3 out="$work/trait-$1.txt" status
  set +e
  timeout 120 swift build "${cache[@]}" --traits "$trait" > "$out" 2>&1
  status=$?
  set -e
  if [ "$status" -eq 0 ]; then cat "$out" >&2; fail "(b) swift build --traits $trait succeeded without the network"; fi
  if [ "$status" -eq 124 ]; then cat "$out" >&2; fail "(b) swift build --traits $trait timed out"; fi
  grep -q "Fetching $url\$" "$out" || { cat "$out" >&2; fail "(b) --traits $trait did not try to fetch $url"; }
  grep -q "error: Failed to clone repository $url:" "$out" \
    || { cat "$out" >&2; fail "(b) --traits $trait did not fail on fetching $url"; }
  if grep -q "$other" "$out"; then cat "$out" >&2; fail "(b) --traits $trait also fetched $other"; fi
  # Its only error is the fetch (the lines under it are git's own account of the failure; SwiftPM may add its
  # exit status as `error: ExitCode(rawValue: 1)`).
  if grep '^error:' "$out" | grep -v "^error: Failed to clone repository $url:" | grep -qvx 'error: ExitCode(rawValue: 1)'; then
    cat "$out" >&2; fail "(b) --traits $trait failed for another reason than the network"
  fi
  rm -rf .build/repositories .build/checkouts Package.resolved
  say "(b) swift build --traits $trait fails only for want of the network: it fetches $url"
}
check_trait StripeTerminalSDK https://github.com/stripe/stripe-terminal-ios square/mobile-payments-sdk-ios
check_trait SquareMobilePaymentsSDK https://github.com/square/mobile-payments-sdk-ios stripe/stripe-terminal-ios
say "the README's installation lines hold"
