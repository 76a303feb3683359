"""Validates recorded exchanges with Tender's routes against Documentation/tender-server.openapi.yaml (openapi-core).

Usage: check_routes.py EXCHANGES.jsonl [--spec PATH] [--host URL]
Each line of EXCHANGES is one exchange as the Swift tests record it:
  {"method", "path" (with its query), "requestHeaders", "requestBody" (text or null),
   "status", "responseHeaders", "responseBody" (text), and "requestIsInvalid": true for a request that breaks the
   document on purpose (its answer is checked, the request is not)}
Prints one line per problem and exits 1 when there is any; prints the count of exchanges checked otherwise.
"""
import argparse
import json
import os
import sys
from urllib.parse import parse_qsl, urlsplit

from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = "http://tender.test"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exchanges")
    parser.add_argument("--spec", default=os.path.join(ROOT, "Documentation", "tender-server.openapi.yaml"))
    parser.add_argument("--host", default=HOST, help="the server URL requests are made against (the document's)")
    arguments = parser.parse_args()
    api = OpenAPI.from_file_path(arguments.spec)
    problems, count = [], 0
    with open(arguments.exchanges) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            count += 1
            exchange = json.loads(line)
            where = "#%d %s %s -> %s" % (number, exchange["method"], exchange["path"], exchange["status"])
            parts = urlsplit(exchange["path"])
            request_headers = {k.title(): v for k, v in exchange.get("requestHeaders", {}).items()}
            body = exchange.get("requestBody")
            request = MockRequest(arguments.host, exchange["method"].lower(), parts.path, args=dict(parse_qsl(parts.query)),
                                  headers=request_headers, data=body.encode() if body else None,
                                  content_type=request_headers.get("Content-Type", "application/json"))
            try:
                # A request that breaks the document on purpose (the test says so) is answered, not validated.
                if not exchange.get("requestIsInvalid"):
                    api.validate_request(request)
            except Exception as failure:  # openapi-core raises one exception per failed validation
                problems.append("%s: request: %s: %s" % (where, type(failure).__name__, describe(failure)))
            response_headers = {k.title(): v for k, v in exchange.get("responseHeaders", {}).items()}
            data = exchange.get("responseBody") or ""
            response = MockResponse(data.encode(), status_code=exchange["status"], headers=response_headers,
                                    content_type=response_headers.get("Content-Type") if data else None)
            try:
                api.validate_response(request, response)
            except Exception as failure:
                problems.append("%s: response: %s: %s" % (where, type(failure).__name__, describe(failure)))
    for problem in problems:
        print(problem)
    if not problems:
        print("checked %d exchanges against %s: all valid" % (count, os.path.relpath(arguments.spec, ROOT)))
    sys.exit(1 if problems or count == 0 else 0)


def describe(failure):
    """The failure and its causes (openapi-core wraps the schema errors)."""
    text = str(failure)
    cause = failure.__cause__
    while cause is not None:
        text += " <- %s" % cause
        for error in getattr(cause, "schema_errors", []) or []:
            text += " [%s]" % error.message
        cause = cause.__cause__
    return text


if __name__ == "__main__":
    main()
