#!/usr/bin/env python3
"""Copies the vendor reference data the tests read from the workspace's shared folder into Tests/Reference.

CI starts from a clean clone that may not have the workspace's `../shared` folder, so the facts the tests check
against live in the repository:

  Tests/Reference/sdk-surface/*.json   the SDKs' whole documented public API as Swift imports it (from
                                       shared/reference/sdk-surface/full/; mirror-vs-surface checks)
  Tests/Reference/peers/square-connect-api-2025-08-20.json   Square's OpenAPI document (the Square peer validates
                                                              every request and answer against it)
  Tests/Reference/peers/stripe-openapi-fixtures3-2023-09-12.json   Stripe's example objects (decoding tests)
  Tests/Reference/peers/stripe-openapi-spec3-2023-09-12.required.json   only the `required` lists of the Stripe
                                                              schemas the decoding tests use (the full document is
                                                              5 MB; nothing else of it is read)

Data only: names, declarations, published specifications and example objects; no vendor code.

  python3 Scripts/reference/refresh.py           refresh the copies from ../shared
  python3 Scripts/reference/refresh.py --check   exit 1 if a copy differs from ../shared (skipped when absent)
"""
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.environ.get("TENDER_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
OUT = os.path.join(ROOT, "Tests", "Reference")
STRIPE_SCHEMAS = ["payment_intent", "charge", "refund", "terminal.location", "terminal.connection_token",
                  "terminal.reader"]

COPIES = [
    # The full surfaces (second pass: each SDK's whole documented public surface), not the partial first-pass files
    # beside them in shared/reference/sdk-surface/.
    ("reference/sdk-surface/full/stripe-terminal-ios.json", "sdk-surface/stripe-terminal-ios.json"),
    ("reference/sdk-surface/full/square-mobile-payments-ios.json", "sdk-surface/square-mobile-payments-ios.json"),
    ("reference/sdk-surface/full/README.md", "sdk-surface/README.md"),
    ("peers/square-connect-api-2025-08-20.json", "peers/square-connect-api-2025-08-20.json"),
    ("peers/stripe-openapi-fixtures3-2023-09-12.json", "peers/stripe-openapi-fixtures3-2023-09-12.json"),
]


def stripe_required():
    with open(os.path.join(SHARED, "peers", "stripe-openapi-spec3-2023-09-12.json"), encoding="utf-8") as handle:
        spec = json.load(handle)
    schemas = spec["components"]["schemas"]
    trimmed = {"source": "peers/stripe-openapi-spec3-2023-09-12.json (components.schemas[*].required only)",
               "components": {"schemas": {name: {"required": schemas[name].get("required", [])}
                                          for name in STRIPE_SCHEMAS if name in schemas}}}
    return (json.dumps(trimmed, indent=1, sort_keys=True) + "\n").encode()


def outputs():
    for source, target in COPIES:
        with open(os.path.join(SHARED, source), "rb") as handle:
            yield target, handle.read()
    yield "peers/stripe-openapi-spec3-2023-09-12.required.json", stripe_required()


def main():
    check = "--check" in sys.argv[1:]
    if not os.path.isdir(SHARED):
        print(f"no shared folder at {SHARED}: nothing to compare" if check else f"no shared folder at {SHARED}")
        return 0 if check else 1
    stale = []
    for target, data in outputs():
        path = os.path.join(OUT, target)
        current = open(path, "rb").read() if os.path.exists(path) else None
        if current == data:
            continue
        if check:
            stale.append(target)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
            print(f"wrote Tests/Reference/{target}")
    if check:
        if stale:
            print("Tests/Reference differs from ../shared (run Scripts/reference/refresh.py): " + ", ".join(stale))
            return 1
        print("Tests/Reference matches ../shared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
