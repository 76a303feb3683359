"""Square's OAuth token lifecycle for the Square peer (square_peer.py): the table of access tokens it accepts, each with
its expiry, and ObtainToken (`POST /oauth2/token`) with the `refresh_token` grant of the code flow.

What the document says and this follows (ObtainToken, ObtainTokenResponse in square-connect-api-2025-08-20.json):
- the code flow's refresh grant takes `client_id`, `client_secret` and `refresh_token`; "The response returns the
  same refresh token provided in the request";
- "OAuth access tokens expire in 30 days"; `short_lived: true` gives one that "expire[s] in 24 hours";
- `expires_at` is ISO 8601 (the document's example: `2025-04-03T18:31:06Z`), `token_type` "is always `bearer`";
- an expired access token is refused with `ACCESS_TOKEN_EXPIRED` (ErrorCode: "The provided access token has
  expired.", category AUTHENTICATION_ERROR).
Not in the document, so chosen here: refreshing revokes nothing (the previous access token stays valid until its own
`expires_at`, as Square describes for refreshes; RevokeToken is not offered), and the code of a refused grant (see
`BAD_CREDENTIALS_CODE`). The peer keeps the exact expiry; `expires_at` is cut to the second, so it never says later.
"""
import json
import secrets
from datetime import datetime, timedelta, timezone

LIFETIME = timedelta(days=30)
SHORT_LIFETIME = timedelta(hours=24)

#: The error code answered (status 401, category AUTHENTICATION_ERROR) to a refresh grant with a wrong client_id,
#: client_secret or refresh_token. NOT VERIFIED: neither the document nor our reference material says which code
#: Square answers there (the document lists no `x-endpoint-errors` for ObtainToken); UNAUTHORIZED ("A general
#: authorization error occurred.") is the generic one. Overridable with square_peer.py's --oauth-error-code.
BAD_CREDENTIALS_CODE = "UNAUTHORIZED"


def error(status, code, detail, category="INVALID_REQUEST_ERROR", field=None):
    body = {"category": category, "code": code, "detail": detail}
    if field:
        body["field"] = field
    return status, {"errors": [body]}


def iso(moment):
    """ISO 8601 to the second in UTC, as in the document's example (`2025-04-03T18:31:06Z`)."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def describe(failure):
    """openapi-core's failure without the values its message quotes (here they are credentials and tokens): the
    exception, then each schema error's place and the rule it broke (taken from the schema, never the value)."""
    found, cause = [], failure
    while cause is not None:
        for problem in getattr(cause, "schema_errors", None) or []:
            where = "/".join(map(str, problem.absolute_path)) or "(body)"
            if problem.validator == "required":  # "'client_id' is a required property": a name, not a value
                found.append("%s: %s" % (where, problem.message))
            else:
                found.append("%s: %s %s" % (where, problem.validator, json.dumps(problem.validator_value, default=str)))
        cause = cause.__cause__
    return "%s: %s" % (type(failure).__name__, "; ".join(found) or "(details withheld: they may quote credentials)")


def same(given, expected):
    return secrets.compare_digest(given.encode(), expected.encode())


class Tokens:
    """The access tokens the peer accepts: token -> expiry (None: never expires, the --token given at start)."""

    def __init__(self, permanent):
        self.expiry = {permanent: None}

    def issue(self, lifetime):
        token = "EAAA" + secrets.token_hex(32)
        expires = datetime.now(timezone.utc) + lifetime
        self.expiry[token] = expires
        return token, expires

    def refusal(self, authorization):
        """None when the `Authorization` header carries a valid token, else Square's 401 (status, payload)."""
        token = authorization[len("Bearer "):] if (authorization or "").startswith("Bearer ") else None
        if token is None or token not in self.expiry:
            return error(401, "UNAUTHORIZED", "This request could not be authorized.", category="AUTHENTICATION_ERROR")
        expires = self.expiry[token]
        if expires is not None and datetime.now(timezone.utc) >= expires:
            return error(401, "ACCESS_TOKEN_EXPIRED", "The access token has expired.", category="AUTHENTICATION_ERROR")
        return None


class Authority:
    """The application (client id and secret) and the seller's authorization (refresh token, merchant id) the peer
    knows, and ObtainToken's behaviour for them."""

    def __init__(self, tokens, client_id, client_secret, refresh_token, merchant_id, bad_code=BAD_CREDENTIALS_CODE):
        self.tokens = tokens
        self.client_id, self.client_secret = client_id, client_secret
        self.refresh_token, self.merchant_id = refresh_token, merchant_id
        self.bad_code = bad_code
        self.grants = 0  # refresh grants answered 200 (counted by the peer once the answer passed validation)

    def obtain_token(self, body):
        """(status, payload) for an ObtainToken body the document already accepted."""
        grant = body.get("grant_type")
        if grant in ("authorization_code", "migration_token"):
            return error(400, "BAD_REQUEST", "The %s grant is not supported by this peer (only refresh_token)." % grant,
                         field="grant_type")
        if grant != "refresh_token":
            return error(400, "INVALID_VALUE", "grant_type must be authorization_code, refresh_token or "
                         "migration_token.", field="grant_type")
        # The code flow only: without client_secret it would be the PKCE flow, which this peer does not offer.
        for name in ("client_id", "client_secret", "refresh_token"):
            if not body.get(name):
                return error(400, "MISSING_REQUIRED_PARAMETER", "Missing required parameter %s." % name, field=name)
        # Constant-time comparisons, and no credential in any answer.
        valid = all([same(body["client_id"], self.client_id), same(body["client_secret"], self.client_secret),
                     same(body["refresh_token"], self.refresh_token)])
        if not valid:
            return error(401, self.bad_code, "The client credentials or the refresh token are not valid.",
                         category="AUTHENTICATION_ERROR")
        short = bool(body.get("short_lived"))
        token, expires = self.tokens.issue(SHORT_LIFETIME if short else LIFETIME)
        return 200, {"access_token": token, "token_type": "bearer", "expires_at": iso(expires),
                     "merchant_id": self.merchant_id, "refresh_token": body["refresh_token"], "short_lived": short}

    def issue_for_test(self, fields):
        """The control route's answer: an access token expiring `expires_in` seconds from now (0 or less: expired)."""
        seconds = fields.get("expires_in") if isinstance(fields, dict) else None
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
            return 400, {"error": "expires_in (seconds, a number) is required"}
        token, expires = self.tokens.issue(timedelta(seconds=seconds))
        return 200, {"access_token": token, "expires_at": iso(expires)}
