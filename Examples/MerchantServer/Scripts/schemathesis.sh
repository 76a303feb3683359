#!/usr/bin/env bash
# Bad input, tried by a machine: schemathesis (PyPI, pinned) against a running merchant-server in test mode, with the
# bundled OpenAPI document (merchant-server.bundled.openapi.yaml: its own routes and Tender's under /v1/…).
#
#   Examples/MerchantServer/Scripts/schemathesis.sh      (from anywhere; the repository root is found from here)
#
# 1. A virtual environment under .build/schemathesis-venv with schemathesis==$SCHEMATHESIS_VERSION (pip, PyPI).
# 2. Scripts/openapi-bundle.py --check: the committed bundle is what the two source documents make (else: stale).
# 3. merchant-server (the debug build of Examples/MerchantServer; MERCHANT_SERVER_BIN overrides) in test mode on
#    127.0.0.1, port 0, a fresh SQLite store under .build/schemathesis/, a random MERCHANT_ADMIN_TOKEN, and a failure
#    limit (--rate-limit) high enough that the run is not answered 429 throughout: schemathesis and the probes below
#    send hundreds of wrong codes and tokens on purpose (the limit itself is tested by the package's tests). Tender's
#    routes reach the loopback peers. Stopped by its pid on exit, whatever happens.
# 4. Through the administrator's route: enrolment codes for location tml_schemathesis (role manager, so refunds
#    reach the vendor rather than stop at the policy); two devices enrol with them. A PaymentIntent of that location
#    is created at localstripe, so the routes that take a payment id find one part of the time.
# 5. Authentication, every operation the document secures: no token, a wrong token and the other scheme's token are
#    each answered 401 with a PaymentError; the public ones answer without a token.
# 6. schemathesis run on every operation, each scheme's token where the document asks for it, with the checks
#    not_a_server_error (no 5xx), status_code_conformance, content_type_conformance, response_headers_conformance,
#    response_schema_conformance (every answer as documented) and ignored_auth; a fixed seed (SCHEMATHESIS_SEED),
#    SCHEMATHESIS_MAX_EXAMPLES cases per operation and phase. Two invocations: every operation but the revocation,
#    then the revocation alone (schemathesis learns device ids from GET /admin/devices and would otherwise revoke the
#    run's own device halfway, leaving the rest of the run to 401s). Its warnings that mean the run tested less than
#    it seems (answered 429 throughout, a token it was given but never sent) fail the script.
# 7. The answers that need the run's own data, checked against the document with schemathesis's checks: the device
#    list, the audit trail of the day (not empty: the run's captures, voids and refunds are in it), and a second
#    device revoked (204), then refused (401), then revoked again (404); the seeded PaymentIntent read as the device.
#
# Tender's routes need the loopback vendors: the peers' environment must be set (Scripts/peers/peers.sh start;
# . .build/peers/env; .ci/run does both); without them every vendor route would answer 501 and the run fails.
# One allowance, in the configuration below: POST /v1/stripe/connection-token may answer 502, because localstripe has
# no Terminal connection tokens (it answers 404 to every one, which the route reports as the vendor's failure).
#
# Prints `schemathesis: N requests, 0 failures` (N from schemathesis's own report: every request it sent, auth probes
# included) and exits non-zero on any failure. No token is ever printed: schemathesis reads them from its
# environment (its configuration file names the variables) and masks what it sends; its output passes through a mask
# of every credential of the run before it is shown or kept (the answers it quotes can hold one); its NDJSON reports,
# which hold the answers as they came, are deleted once counted.
set -euo pipefail
# A relative MERCHANT_SERVER_BIN is the caller's: made absolute before leaving its directory.
if [ -n "${MERCHANT_SERVER_BIN:-}" ]; then MERCHANT_SERVER_BIN="$(realpath "$MERCHANT_SERVER_BIN")"; fi
cd "$(dirname "$0")/../../.."
root=$PWD
package=$root/Examples/MerchantServer
SCHEMATHESIS_VERSION=4.32.5
venv=$root/.build/schemathesis-venv
# Everything of a run (the server's store and log, schemathesis's configuration, reports, its .schemathesis and
# .hypothesis folders: it runs from here) under one folder, made anew each run.
work=$root/.build/schemathesis
bundle=$package/merchant-server.bundled.openapi.yaml
seed=${SCHEMATHESIS_SEED:-29}
max_examples=${SCHEMATHESIS_MAX_EXAMPLES:-50}

# --- 1. schemathesis, pinned (through the registry's proxy when the environment names one) ---------------------------
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -qx "schemathesis, version $SCHEMATHESIS_VERSION"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
"$venv/bin/schemathesis" --version
python="$venv/bin/python"

# Everything below talks to 127.0.0.1 only: no proxy (CI's environment may name one for the registries).
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

# --- 2. the bundle is current ----------------------------------------------------------------------------------------
"$python" "$package/Scripts/openapi-bundle.py" --check

# --- 3. the server -----------------------------------------------------------------------------------------------------
if [ -z "${TENDER_LOCALSTRIPE_URL:-}" ] || [ -z "${TENDER_SQUARE_PEER_URL:-}" ]; then
  echo "schemathesis.sh: the loopback peers' environment is not set (Scripts/peers/peers.sh start; . .build/peers/env)" >&2
  exit 1
fi
bin=${MERCHANT_SERVER_BIN:-$package/.build/debug/merchant-server}
[ -x "$bin" ] || { echo "schemathesis.sh: no $bin: swift build --package-path Examples/MerchantServer --product merchant-server" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/report"
cd "$work"
admin_token=$("$python" -c 'import secrets; print(secrets.token_urlsafe(32))')
server_pid=
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap stop_server EXIT
# The webhooks configured as in production (random secrets): schemathesis's deliveries are unsigned, so refused.
STRIPE_WEBHOOK_SECRET="whsec_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
SQUARE_WEBHOOK_SIGNATURE_KEY="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
SQUARE_WEBHOOK_URL="https://merchant.example/webhooks/square" \
MERCHANT_ADMIN_TOKEN=$admin_token "$bin" --port 0 --database "$work/merchant.sqlite" --rate-limit 1000000 \
  >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do
  grep -q 'listening on' "$work/server.log" && break
  kill -0 "$server_pid" 2>/dev/null || { echo "schemathesis.sh: merchant-server exited:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
url=$(grep 'listening on' "$work/server.log" | grep -o 'http://127.0.0.1:[0-9]*' | head -n 1)
[ -n "$url" ] || { echo "schemathesis.sh: merchant-server did not say where it listens" >&2; cat "$work/server.log" >&2; exit 1; }
echo "schemathesis.sh: merchant-server (pid $server_pid) at $url; $(head -n 1 "$work/server.log" | sed 's/.*merchant-server: //')"
trap 'stop_server; rm -f "$work"/report/*.ndjson' EXIT

# The helper for steps 4, 5 and 7 (the standard library and schemathesis's own modules; tokens stay in its memory and
# environment, never in its output).
cat >"$work/helper.py" <<'PYTHON'
import json, os, sys, urllib.error, urllib.request

URL = os.environ["MERCHANT_URL"]
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
METHODS = ("get", "put", "post", "delete", "patch")


def call(method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with OPENER.open(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def enrol(name):
    """Prints the device's id and token (captured by the script, never shown)."""
    status, _, body = call("POST", "/admin/enrolment-codes", {"locationID": "tml_schemathesis", "role": "manager"},
                           token=os.environ["SCHEMATHESIS_ADMIN_TOKEN"])
    if status != 201:
        sys.exit(f"enrolment code: HTTP {status}")
    code = json.loads(body)["code"]
    status, _, body = call("POST", "/v1/devices/enrol", {"code": code, "name": name})
    if status != 201:
        sys.exit(f"enrol: HTTP {status}")
    enrolled = json.loads(body)
    print(enrolled["deviceID"], enrolled["token"])


def seed():
    """A PaymentIntent of the run's location at localstripe, authorized (requires_capture: it has a charge, which
    localstripe needs to list its refunds), so the routes that take a payment id find one (schemathesis draws ids
    from it). Prints its id."""
    import base64, urllib.parse
    data = urllib.parse.urlencode({"amount": 2000, "currency": "usd", "capture_method": "manual",
                                   "payment_method": "pm_card_visa", "confirm": "true",
                                   "metadata[tender_location]": "tml_schemathesis"}).encode()
    request = urllib.request.Request(os.environ["TENDER_LOCALSTRIPE_URL"] + "/v1/payment_intents", data=data,
                                     method="POST")
    request.add_header("Authorization", "Basic " + base64.b64encode(b"sk_test_schemathesis:").decode())
    with OPENER.open(request, timeout=30) as response:
        print(json.loads(response.read())["id"])


def mask():
    """Copies stdin to stdout with every credential of the run replaced: the tokens it knows (its own and the peers'),
    any JSON value whose key names a token or secret, enrolment codes. schemathesis masks what it sends, not the
    answers it quotes in a failure (an enrolment's token, a connection token's secret, Square's access token)."""
    import re
    known = [os.environ.get(name, "") for name in (
        "SCHEMATHESIS_ADMIN_TOKEN", "SCHEMATHESIS_DEVICE_TOKEN", "SCHEMATHESIS_REVOKED_TOKEN",
        "TENDER_SQUARE_PEER_TOKEN", "TENDER_SQUARE_PEER_CLIENT_SECRET", "TENDER_SQUARE_PEER_REFRESH_TOKEN")]
    keyed = re.compile(r'("(?:token|accessToken|access_token|refresh_token|secret|client_secret)"\s*:\s*)"[^"]*"?')
    code = re.compile(r"\b[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\b")
    for line in sys.stdin:
        for value in known:
            if len(value) >= 8:
                line = line.replace(value, "[Filtered]")
        line = code.sub("[Filtered]", keyed.sub(r'\1"[Filtered]"', line))
        sys.stdout.write(line)


def operations():
    import yaml
    with open(os.environ["BUNDLE"], encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    default = document.get("security", [])
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                operation = item[method]
                schemes = [name for requirement in operation.get("security", default) for name in requirement]
                concrete = path
                for parameter in operation.get("parameters", []):
                    if parameter["in"] == "path":
                        concrete = concrete.replace("{" + parameter["name"] + "}", "sch_probe")
                yield (method.upper(), path, concrete, schemes, "requestBody" in operation,
                       operation.get("x-tender-signed", False))


def auth():
    """Every secured operation refuses no token, a wrong token and the other scheme's token with 401 and a
    PaymentError; every public one answers without a token."""
    tokens = {"admin": os.environ["SCHEMATHESIS_ADMIN_TOKEN"], "device": os.environ["SCHEMATHESIS_DEVICE_TOKEN"]}
    requests = failures = 0
    for method, path, concrete, schemes, has_body, signed in operations():
        body = {} if has_body else None
        if signed:
            # Public, but authenticated by the vendor's signature (the webhooks): unsigned, it must be refused.
            status, _, answer = call(method, concrete, body)
            requests += 1
            if status != 401 or b"not_authorized" not in answer:
                failures += 1
                print(f"auth: {method} {path} is signed in the document but answered {status} unsigned")
            continue
        if not schemes:
            status, _, _ = call(method, concrete, body)
            requests += 1
            if status in (401, 403):
                failures += 1
                print(f"auth: {method} {path} is public in the document but answered {status} without a token")
            continue
        others = [name for name in tokens if name not in schemes]
        tries = [("no token", None), ("a wrong token", "not-a-token-" + "x" * 32)]
        tries += [(f"the {name} token", tokens[name]) for name in others]
        for label, token in tries:
            status, headers, answer = call(method, concrete, body, token=token)
            requests += 1
            try:
                error = json.loads(answer)["error"]
                shaped = error["code"] == "not_authorized" and "message" in error
            except (ValueError, KeyError, TypeError):
                shaped = False
            if status != 401 or not shaped or "application/json" not in headers.get("Content-Type", ""):
                failures += 1
                print(f"auth: {method} {path} with {label}: HTTP {status}, not 401 with a not_authorized error")
    print(f"auth: {requests} requests, {failures} failures")
    return failures


def known():
    """The answers that need the run's own data, checked against the document by schemathesis's checks."""
    import datetime
    import schemathesis
    from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                                   status_code_conformance)
    from schemathesis.checks import not_a_server_error
    schema = schemathesis.openapi.from_path(os.environ["BUNDLE"])
    admin = {"Authorization": "Bearer " + os.environ["SCHEMATHESIS_ADMIN_TOKEN"]}
    device = {"Authorization": "Bearer " + os.environ["SCHEMATHESIS_DEVICE_TOKEN"]}
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    revoked = os.environ["SCHEMATHESIS_REVOKED_DEVICE"]
    revoked_token = {"Authorization": "Bearer " + os.environ["SCHEMATHESIS_REVOKED_TOKEN"]}
    revoke = schema["/admin/devices/{id}/revoke"]["POST"]
    cases = [
        (schema["/admin/devices"]["GET"].Case(query={"location": "tml_schemathesis"}, headers=admin), 200, "devices"),
        (schema["/admin/devices"]["GET"].Case(headers=admin), 200, "devices"),
        (schema["/admin/audit"]["GET"].Case(query={"location": "tml_schemathesis", "day": today}, headers=admin), 200,
         "entries"),
        (schema["/health"]["GET"].Case(), 200, None),
        # The device still works, then is revoked, then refused; a second revocation finds no active device.
        (schema["/v1/square/authorization"]["POST"].Case(headers=revoked_token), 200, None),
        (revoke.Case(path_parameters={"id": revoked}, headers=admin), 204, None),
        (schema["/v1/square/authorization"]["POST"].Case(headers=revoked_token), 401, None),
        (revoke.Case(path_parameters={"id": revoked}, headers=admin), 404, None),
        (schema["/v1/square/authorization"]["POST"].Case(headers=device), 200, None),
        # The seeded intent, as the device's location sees it (canceled, if schemathesis abandoned it).
        (schema["/v1/stripe/payment-intents/{id}"]["GET"].Case(
            path_parameters={"id": os.environ["SCHEMATHESIS_STRIPE_INTENT"]}, headers=device), 200, None),
    ]
    failures = 0
    for case, expected, listing in cases:
        response = case.call(base_url=URL)
        label = f"{case.method} {case.operation.path}"
        try:
            case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                                     content_type_conformance, response_schema_conformance])
        except AssertionError as failure:
            failures += 1
            print(f"known: {label}: {str(failure).splitlines()[0]}")
            continue
        if response.status_code != expected:
            failures += 1
            print(f"known: {label}: HTTP {response.status_code}, expected {expected}")
            continue
        count = len(response.json()[listing]) if listing else None
        if count == 0:
            failures += 1
            print(f"known: {label}: empty, although the run enrolled a device and sent it through Tender's routes")
            continue
        items = "" if count is None else f", {count} item(s)"
        print(f"known: {label}: HTTP {response.status_code}{items}, as documented")
    print(f"known: {len(cases)} requests, {failures} failures")
    return failures


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "enrol":
        enrol(sys.argv[2])
    elif command == "seed":
        seed()
    elif command == "mask":
        mask()
    else:
        sys.exit(1 if {"auth": auth, "known": known}[command]() else 0)
PYTHON

export MERCHANT_URL=$url BUNDLE=$bundle SCHEMATHESIS_ADMIN_TOKEN=$admin_token
# --- 4. the devices ------------------------------------------------------------------------------------------------
read -r _ SCHEMATHESIS_DEVICE_TOKEN < <("$python" "$work/helper.py" enrol schemathesis)
read -r SCHEMATHESIS_REVOKED_DEVICE SCHEMATHESIS_REVOKED_TOKEN < <("$python" "$work/helper.py" enrol to-be-revoked)
[ -n "$SCHEMATHESIS_DEVICE_TOKEN" ] && [ -n "$SCHEMATHESIS_REVOKED_TOKEN" ] \
  || { echo "schemathesis.sh: enrolment failed" >&2; exit 1; }
export SCHEMATHESIS_DEVICE_TOKEN SCHEMATHESIS_REVOKED_DEVICE SCHEMATHESIS_REVOKED_TOKEN
SCHEMATHESIS_STRIPE_INTENT=$("$python" "$work/helper.py" seed)
export SCHEMATHESIS_STRIPE_INTENT
echo "schemathesis.sh: enrolled two devices (manager) at tml_schemathesis; PaymentIntent $SCHEMATHESIS_STRIPE_INTENT at localstripe"

# --- 5. authentication where the document asks for it ---------------------------------------------------------------
auth_status=0
"$python" "$work/helper.py" auth || auth_status=$?

# --- 6. schemathesis ---------------------------------------------------------------------------------------------------
# Each security scheme's token from the environment (never on a command line); schemathesis sends the one the
# operation's `security` names, and none where it is `[]`.
cat >"$work/schemathesis.toml" <<'TOML'
[auth.openapi.admin]
bearer = "${SCHEMATHESIS_ADMIN_TOKEN}"

[auth.openapi.device]
bearer = "${SCHEMATHESIS_DEVICE_TOKEN}"

# What would make the run test less than it seems fails it: answered 429 throughout, a token never sent, a reference
# it cannot resolve, a filter that matches nothing.
[warnings]
fail-on = ["rate_limited", "unused_openapi_auth", "base_url_mismatch", "unresolvable_reference", "unmatched_filter"]

# localstripe has no Terminal connection tokens (Scripts/peers/localstripe_peer.py says so): it answers 404 to every
# one, which the route answers as the vendor's failure, 502 (documented). Every other check still applies.
[[operations]]
include-operation-id = "createConnectionToken"
checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "502"]
TOML
# Values that reach past the first check of a route: real currencies (the document's pattern also admits "AAA", which
# the routes refuse as no ISO 4217 currency) and the seeded PaymentIntent's id, each drawn part of the time only.
cat >>"$work/schemathesis.toml" <<TOML

[dictionaries.currencies]
values = ["USD", "EUR", "GBP", "JPY", "KWD"]

[dictionaries.payments]
values = ["$SCHEMATHESIS_STRIPE_INTENT"]

[[operations]]
include-operation-id = ["retrievePaymentIntent", "cancelAbandonedPaymentIntent"]
parameters = { "path.id" = { dictionary = "payments", probability = 0.5 } }

[[operations]]
include-operation-id = ["capture", "refund"]
parameters = { "body.processorPaymentID" = { dictionary = "payments", probability = 0.5 }, "body.amount.currency" = { dictionary = "currencies", probability = 0.8 } }

[[operations]]
include-operation-id = ["void", "lookUpRefund"]
parameters = { "body.processorPaymentID" = { dictionary = "payments", probability = 0.5 } }
TOML
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance
checks=$checks,response_schema_conformance,ignored_auth
run_schemathesis() { # name, then the filter
  local name=$1; shift
  set +e
  "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" --no-color run "$bundle" --url "$url" \
    --checks "$checks" --max-examples "$max_examples" --seed "$seed" --workers 2 \
    --phases examples,coverage,fuzzing,stateful --generation-database none --output-sanitize true \
    --report ndjson --report-ndjson-path "$work/report/$name.ndjson" "$@" >"$work/$name.raw" 2>&1
  local status=$?
  set -e
  # Its output with the answers' credentials masked (kept as $name.txt); the failures, warnings and summary shown.
  "$python" "$work/helper.py" mask <"$work/$name.raw" >"$work/$name.txt" && rm -f "$work/$name.raw"
  echo "schemathesis.sh: schemathesis ($name), exit $status:"
  sed -n '/^=* \(FAILURES\|ERRORS\|WARNINGS\|SUMMARY\) =*$/,$p' "$work/$name.txt" | grep -vE '^\s*$' | tail -n 80
  return "$status"
}
schemathesis_status=0
run_schemathesis operations --exclude-operation-id revokeDevice || schemathesis_status=$?
run_schemathesis revocation --include-operation-id revokeDevice || schemathesis_status=$?

# --- 7. the answers that need the run's own data --------------------------------------------------------------------
known_status=0
"$python" "$work/helper.py" known || known_status=$?

# --- the count -------------------------------------------------------------------------------------------------------
read -r requests failures < <("$python" - "$work/report" <<'PYTHON'
import glob, json, sys
requests = failures = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.ndjson")):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            event = json.loads(line)
            for name, body in event.items():
                if name == "ScenarioFinished":
                    recorder = body.get("recorder", {})
                    requests += len(recorder.get("interactions", {}))
                    failures += sum(1 for checks in recorder.get("checks", {}).values() for check in checks
                                    if check.get("status") != "success")
print(requests, failures)
PYTHON
)
[[ "$requests" =~ ^[0-9]+$ && "$failures" =~ ^[0-9]+$ ]] || { echo "schemathesis.sh: no report to count" >&2; exit 1; }
echo "schemathesis: $requests requests, $failures failures"
if [ "$schemathesis_status" -ne 0 ] || [ "$failures" -ne 0 ] || [ "$requests" -eq 0 ]; then
  echo "schemathesis.sh: schemathesis failed (exit $schemathesis_status; the logs: $work/*.txt)" >&2
  exit 1
fi
[ "$auth_status" -eq 0 ] || { echo "schemathesis.sh: authentication is not required where the document says so" >&2; exit 1; }
[ "$known_status" -eq 0 ] || { echo "schemathesis.sh: an answer with the run's data does not match the document" >&2; exit 1; }
