"""A loopback Square Payments peer that answers from the published OpenAPI document's own examples and validates
every request it receives and every answer it gives against that document (fixed by square_spec.py) with
openapi-core.

- Binds 127.0.0.1 on a free port, written to --ready-file once listening.
- Requires `Authorization: Bearer <token>` and `Square-Version: 2025-08-20` on /v2/. The token is --token (never
  expires) or one ObtainToken issued (expires at its `expires_at`, then 401 ACCESS_TOKEN_EXPIRED); any other gets
  401 UNAUTHORIZED.
- POST /oauth2/token (ObtainToken, no bearer): the code flow's refresh_token grant for --client-id, --client-secret
  and --refresh-token, validated like /v2/ (square_oauth.py has the behaviour).
- A request the spec rejects (or with a query or top-level body parameter the operation does not declare, which
  Square answers with UNKNOWN_QUERY_PARAMETER / UNKNOWN_BODY_PARAMETER) gets 400 with code TENDER_SPEC_VIOLATION and
  the validator's message, and is recorded. An answer of its own that fails validation is recorded too and turned
  into a 500. GET /_tender/report returns {"requests": n, "violations": [...], "token_grants": n}: the tests fail on
  any violation. POST /_tender/tokens {"expires_in": seconds} issues an access token with that lifetime (test control).
- State: payments seeded by the tests (POST /_tender/payments, a template from the spec's GetPaymentResponse example
  with the given fields), refunds made through RefundPayment (template: the RefundPaymentResponse example).
  Behaviour follows Square's documentation: CompletePayment / CancelPayment only on APPROVED payments (400
  BAD_REQUEST otherwise; a stale version_token gives VERSION_MISMATCH), CancelPaymentByIdempotencyKey succeeds
  whether or not a payment exists, ListPayments filters by location, time, is_offline_payment (default false) and
  offline times and pages with an opaque cursor, RefundPayment replays a reused key with the same body and refuses
  it with another (IDEMPOTENCY_KEY_REUSED), a refund is PENDING when made and COMPLETED when next read.
"""
import argparse
import base64
import copy
import json
import os
import socket
import sys
import uuid
from datetime import datetime, timezone

from aiohttp import web
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import square_oauth  # noqa: E402
import square_spec  # noqa: E402

HOST = "http://127.0.0.1"
STATE = {"payments": {}, "refunds": {}, "refund_keys": {}, "requests": 0, "violations": []}


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


error = square_oauth.error


def plain(failure):
    return "%s: %s" % (type(failure).__name__, failure)


class Peer:
    def __init__(self, token, authority_options):
        spec, self.fixes = square_spec.load_fixed_spec()
        spec["servers"] = [{"url": HOST}]
        self.spec = spec
        self.api = OpenAPI.from_dict(spec)
        schemas = spec["components"]["schemas"]
        self.payment_template = schemas["GetPaymentResponse"]["example"]["payment"]
        self.refund_template = schemas["RefundPaymentResponse"]["example"]["refund"]
        self.tokens = square_oauth.Tokens(token)
        self.authority = square_oauth.Authority(self.tokens, **authority_options)

    # -- validation -------------------------------------------------------------------------------------------
    def operation(self, method, path):
        for template, item in self.spec["paths"].items():
            parts, actual = template.strip("/").split("/"), path.strip("/").split("/")
            if len(parts) == len(actual) and all(p.startswith("{") or p == a for p, a in zip(parts, actual)):
                if method.lower() in item:
                    return item[method.lower()]
        return None

    def strict_violations(self, method, path, query, body):
        operation = self.operation(method, path)
        if operation is None:
            return ["no operation %s %s in the spec" % (method, path)]
        declared = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
        problems = ["UNKNOWN_QUERY_PARAMETER %s" % name for name in query if name not in declared]
        if isinstance(body, dict) and "requestBody" in operation:
            ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
            properties = self.spec["components"]["schemas"][ref].get("properties", {})
            problems += ["UNKNOWN_BODY_PARAMETER %s" % name for name in body if name not in properties]
        return problems

    def mock_request(self, request, raw):
        return MockRequest(HOST, request.method.lower(), request.path, args=dict(request.query),
                           headers=dict(request.headers), data=raw or None, content_type="application/json")

    def validated(self, request, raw, describe=plain):
        """(body, None) for a request the document accepts, else (None, the 400 TENDER_SPEC_VIOLATION answer)."""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        problems = self.strict_violations(request.method, request.path, request.query, body)
        try:
            self.api.validate_request(self.mock_request(request, raw))
        except Exception as failure:  # openapi-core raises one exception per failed validation
            problems.append(describe(failure))
        if problems:
            where = "%s %s" % (request.method, request.path)
            STATE["violations"].extend("%s: %s" % (where, problem) for problem in problems)
            return None, self.answer(request, raw, *error(400, "TENDER_SPEC_VIOLATION", "; ".join(problems)),
                                     validate=False)
        return body or {}, None

    async def handle(self, request):
        STATE["requests"] += 1
        raw = await request.read()
        refusal = self.tokens.refusal(request.headers.get("Authorization"))
        if refusal:
            return self.answer(request, raw, *refusal, validate=False)
        if request.headers.get("Square-Version") != square_spec.SQUARE_VERSION:
            STATE["violations"].append("%s %s: Square-Version %r" % (request.method, request.path,
                                                                    request.headers.get("Square-Version")))
        body, refused = self.validated(request, raw)
        if refused:
            return refused
        status, payload = self.route(request, body)
        return self.answer(request, raw, status, payload, validate=True)

    async def obtain_token(self, request):
        """ObtainToken: `security: []`, so no bearer; Square-Version is optional here, but must be the document's."""
        STATE["requests"] += 1
        raw = await request.read()
        version = request.headers.get("Square-Version")
        if version is not None and version != square_spec.SQUARE_VERSION:
            STATE["violations"].append("POST /oauth2/token: Square-Version %r" % version)
        # openapi-core's messages quote the body and the answer (secrets, tokens): square_oauth.describe leaves them out.
        body, refused = self.validated(request, raw, describe=square_oauth.describe)
        if refused:
            return refused
        status, payload = self.authority.obtain_token(body)
        response = self.answer(request, raw, status, payload, validate=True, describe=square_oauth.describe)
        if response.status == 200:
            self.authority.grants += 1
        return response

    def answer(self, request, raw, status, payload, validate, describe=plain):
        data = json.dumps(payload).encode()
        if validate and status == 200:
            try:
                self.api.validate_response(self.mock_request(request, raw),
                                           MockResponse(data, status_code=status, content_type="application/json"))
            except Exception as failure:
                STATE["violations"].append("answer to %s %s: %s" % (request.method, request.path, describe(failure)))
                status, payload = error(500, "INTERNAL_SERVER_ERROR", "the peer's answer failed validation",
                                        category="API_ERROR")
                data = json.dumps(payload).encode()
        return web.Response(status=status, body=data, content_type="application/json")

    # -- behaviour --------------------------------------------------------------------------------------------
    def route(self, request, body):
        parts = request.path.strip("/").split("/")
        method = request.method
        if method == "GET" and parts == ["v2", "payments"]:
            return self.list_payments(request.query)
        if method == "POST" and parts == ["v2", "payments", "cancel"]:
            return self.cancel_by_key(body["idempotency_key"])
        if method == "GET" and len(parts) == 3 and parts[:2] == ["v2", "payments"]:
            payment = STATE["payments"].get(parts[2])
            return (200, {"payment": payment}) if payment else error(404, "NOT_FOUND", "Payment not found.")
        if method == "POST" and len(parts) == 4 and parts[:2] == ["v2", "payments"]:
            return self.transition(parts[2], parts[3], body)
        if method == "POST" and parts == ["v2", "refunds"]:
            return self.refund(body)
        if method == "GET" and len(parts) == 3 and parts[:2] == ["v2", "refunds"]:
            refund = STATE["refunds"].get(parts[2])
            if not refund:
                return error(404, "NOT_FOUND", "Refund not found.")
            answer = copy.deepcopy(refund)
            if refund["status"] == "PENDING":
                refund["status"], refund["updated_at"] = "COMPLETED", now()
            return 200, {"refund": answer}
        return error(404, "NOT_FOUND", "No such endpoint in this peer.")

    def transition(self, payment_id, action, body):
        payment = STATE["payments"].get(payment_id)
        if payment is None:
            return error(404, "NOT_FOUND", "Payment not found.")
        if payment["status"] != "APPROVED":
            return error(400, "BAD_REQUEST", "Payment %s is %s, not APPROVED." % (payment_id, payment["status"]))
        token = body.get("version_token")
        if action == "complete" and token is not None and token != payment["version_token"]:
            return error(400, "VERSION_MISMATCH", "The version token does not match.", field="version_token")
        payment["status"] = "COMPLETED" if action == "complete" else "CANCELED"
        payment["card_details"]["status"] = "CAPTURED" if action == "complete" else "VOIDED"
        payment["version_token"], payment["updated_at"] = uuid.uuid4().hex, now()
        return 200, {"payment": payment}

    def cancel_by_key(self, key):
        for payment in STATE["payments"].values():
            if payment.get("_key") == key and payment["status"] == "APPROVED":
                self.transition(payment["id"], "cancel", {})
        return 200, {}

    def list_payments(self, query):
        offline = query.get("is_offline_payment", "false") == "true"
        selected = []
        for payment in STATE["payments"].values():
            if query.get("location_id") and payment["location_id"] != query["location_id"]:
                continue
            if bool(payment.get("is_offline_payment")) != offline:
                continue
            created = parse_time(payment["created_at"])
            if "begin_time" in query and created < parse_time(query["begin_time"]):
                continue
            if "end_time" in query and created >= parse_time(query["end_time"]):
                continue
            client = payment.get("offline_payment_details", {}).get("client_created_at")
            if "offline_begin_time" in query and (not client or parse_time(client) < parse_time(query["offline_begin_time"])):
                continue
            if "offline_end_time" in query and (not client or parse_time(client) >= parse_time(query["offline_end_time"])):
                continue
            selected.append(payment)
        selected.sort(key=lambda p: p["created_at"], reverse=query.get("sort_order", "DESC") == "DESC")
        start = int(base64.b64decode(query["cursor"]).decode()) if "cursor" in query else 0
        limit = int(query.get("limit", "100"))
        page = [{k: v for k, v in p.items() if not k.startswith("_")} for p in selected[start:start + limit]]
        answer = {"payments": page} if page else {}
        if start + limit < len(selected):
            answer["cursor"] = base64.b64encode(str(start + limit).encode()).decode()
        return 200, answer

    def refund(self, body):
        key = body["idempotency_key"]
        previous = STATE["refund_keys"].get(key)
        if previous is not None:
            if previous["body"] != body:
                return error(400, "IDEMPOTENCY_KEY_REUSED", "The idempotency key was used with another request.",
                             field="idempotency_key")
            return 200, {"refund": STATE["refunds"][previous["id"]]}
        payment = STATE["payments"].get(body.get("payment_id"))
        if payment is None:
            return error(404, "NOT_FOUND", "Payment not found.", field="payment_id")
        if payment["status"] != "COMPLETED":
            return error(400, "REFUND_ERROR_PAYMENT_NEEDS_COMPLETION", "Only completed payments can be refunded.",
                         category="REFUND_ERROR")
        money = body["amount_money"]
        total = payment["total_money"]
        if money["currency"] != total["currency"]:
            return error(400, "CURRENCY_MISMATCH", "The refund's currency is not the payment's.", field="amount_money.currency")
        refunded = payment.get("refunded_money", {"amount": 0})["amount"]
        if money["amount"] <= 0 or refunded + money["amount"] > total["amount"]:
            return error(400, "REFUND_AMOUNT_INVALID", "The refund exceeds what is left to refund.", field="amount_money.amount")
        refund = copy.deepcopy(self.refund_template)
        refund.pop("app_fee_money", None)
        refund.update({"id": uuid.uuid4().hex, "payment_id": payment["id"], "location_id": payment["location_id"],
                       "order_id": payment.get("order_id"), "amount_money": money, "status": "PENDING",
                       "created_at": now(), "updated_at": now()})
        if body.get("reason"):
            refund["reason"] = body["reason"]
        else:
            refund.pop("reason", None)
        STATE["refunds"][refund["id"]] = refund
        STATE["refund_keys"][key] = {"id": refund["id"], "body": body}
        payment["refunded_money"] = {"amount": refunded + money["amount"], "currency": total["currency"]}
        payment.setdefault("refund_ids", []).append(refund["id"])
        return 200, {"refund": refund}

    # -- test control (not Square's API; never validated) ----------------------------------------------------
    async def seed(self, request):
        fields = await request.json()
        payment = copy.deepcopy(self.payment_template)
        for key in ("refunded_money", "refund_ids", "processing_fee"):
            payment.pop(key, None)
        amount, currency = fields["amount"], fields.get("currency", "USD")
        tip = fields.get("tip", 0)
        payment.update({
            "id": fields.get("id", uuid.uuid4().hex), "status": fields.get("status", "APPROVED"),
            "amount_money": {"amount": amount, "currency": currency},
            "total_money": {"amount": amount + tip, "currency": currency},
            "approved_money": {"amount": amount + tip, "currency": currency},
            "location_id": fields["location_id"], "created_at": fields.get("created_at", now()), "updated_at": now(),
            "version_token": uuid.uuid4().hex, "_key": fields.get("idempotency_key")})
        if tip:
            payment["tip_money"] = {"amount": tip, "currency": currency}
        if fields.get("reference_id"):
            payment["reference_id"] = fields["reference_id"]
        else:
            payment.pop("reference_id", None)
        if fields.get("offline"):
            payment["is_offline_payment"] = True
            payment["offline_payment_details"] = {"client_created_at": fields.get("client_created_at", now())}
        status = payment["status"]
        payment["card_details"]["status"] = {"APPROVED": "AUTHORIZED", "COMPLETED": "CAPTURED",
                                             "CANCELED": "VOIDED"}.get(status, "FAILED")
        STATE["payments"][payment["id"]] = payment
        return web.json_response({k: v for k, v in payment.items() if not k.startswith("_")})

    async def issue_token(self, request):
        try:
            fields = await request.json()
        except ValueError:
            fields = None
        status, payload = self.authority.issue_for_test(fields)
        return web.json_response(payload, status=status)

    async def report(self, request):
        return web.json_response({"requests": STATE["requests"], "violations": STATE["violations"],
                                  "token_grants": self.authority.grants, "fixes": self.fixes})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--token", required=True, help="an access token requests may carry; it never expires")
    parser.add_argument("--client-id", default="sq0idp-tender-peer", help="the application id ObtainToken accepts")
    parser.add_argument("--client-secret", default="sq0csp-tender-peer", help="the application secret it accepts")
    parser.add_argument("--refresh-token", default="EQAA-tender-peer", help="the refresh token it accepts")
    parser.add_argument("--merchant-id", default="MLTENDERPEER", help="the merchant_id its answers carry")
    parser.add_argument("--oauth-error-code", default=square_oauth.BAD_CREDENTIALS_CODE,
                        help="the code of the 401 to a refresh grant with wrong credentials (not verified at Square)")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    peer = Peer(args.token, dict(client_id=args.client_id, client_secret=args.client_secret,
                                 refresh_token=args.refresh_token, merchant_id=args.merchant_id,
                                 bad_code=args.oauth_error_code))
    app = web.Application()
    app.router.add_post("/_tender/payments", peer.seed)
    app.router.add_post("/_tender/tokens", peer.issue_token)
    app.router.add_post("/oauth2/token", peer.obtain_token)
    app.router.add_get("/_tender/report", peer.report)
    app.router.add_route("*", "/v2/{tail:.*}", peer.handle)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]

    async def announce(_app):
        with open(args.ready_file + ".tmp", "w") as handle:
            handle.write(str(port))
        os.replace(args.ready_file + ".tmp", args.ready_file)

    app.on_startup.append(announce)
    web.run_app(app, sock=sock, print=lambda *_: None, access_log=None)


if __name__ == "__main__":
    sys.exit(main())
