"""localstripe (PyPI), served on 127.0.0.1 only, with per-run state and Stripe's idempotency semantics.

localstripe's own CLI binds every interface (`::`) and keeps its state in the fixed file /tmp/localstripe.pickle.
This launcher imports its aiohttp app instead and:
- binds 127.0.0.1 on a free port, written to --ready-file once listening;
- keeps the state in --state (a file of this run; it starts empty);
- adds what localstripe lacks and the tests rely on, as Stripe documents it:
  * `Idempotency-Key`: the first answer to a key is saved and replayed for a retry with the same method, path and
    body (header `Idempotent-Replayed: true`); the same key with other parameters answers 400 `idempotency_error`.
    localstripe itself ignores the header (a retried refund would refund twice).
  * a `Request-Id` header on every answer.
- reports what it saw at GET /_config/tender/report (idempotency keys and replays, `Stripe-Version` values; never a
  credential).

What localstripe does not have at all (Search, Terminal connection tokens, refund `reason`, `created` filters on
lists) is not faked here: the Swift tests cover those with an in-process transport.
"""
import argparse
import hashlib
import json
import os
import socket
import sys
import uuid

from aiohttp import web

from localstripe import resources
from localstripe import server as localstripe_server

IDEMPOTENT = {}
REPORT = {"posts": [], "stripe_versions": []}


def _patch_state_file(path):
    """Points localstripe's pickle store at this run's file (its path is hard-coded in resources.Store)."""
    def load(self):
        try:
            with open(path, "rb") as handle:
                import pickle
                old = pickle.load(handle)
                self.clear()
                self.update(old)
        except FileNotFoundError:
            pass

    def dump(self):
        import pickle
        with open(path, "wb") as handle:
            pickle.dump(self, handle, protocol=pickle.HIGHEST_PROTOCOL)

    resources.Store.try_load_from_disk = load
    resources.Store.dump_to_disk = dump


@web.middleware
async def request_ids(request, handler):
    response = await handler(request)
    response.headers["Request-Id"] = "req_" + uuid.uuid4().hex[:14]
    return response


@web.middleware
async def idempotency(request, handler):
    version = request.headers.get("Stripe-Version")
    if version not in REPORT["stripe_versions"]:
        REPORT["stripe_versions"].append(version)
    if request.method != "POST" or request.path.startswith("/_"):
        return await handler(request)
    key = request.headers.get("Idempotency-Key")
    body = await request.read()
    entry = {"path": request.path, "key": key, "replayed": False}
    REPORT["posts"].append(entry)
    if key is None:
        return await handler(request)
    account = hashlib.sha256(request.headers.get("Authorization", "").encode()).hexdigest()
    slot = (account, key)
    fingerprint = (request.method, request.path_qs, body)
    saved = IDEMPOTENT.get(slot)
    if saved is not None:
        if saved["fingerprint"] != fingerprint:
            entry["conflict"] = True
            return web.json_response({"error": {
                "type": "idempotency_error",
                "message": "Keys for idempotent requests can only be used with the same parameters they were first "
                           "used with. Try using a key other than '%s' if you meant to execute a different request." % key,
            }}, status=400)
        entry["replayed"] = True
        return web.Response(status=saved["status"], body=saved["body"], content_type="application/json",
                            headers={"Idempotent-Replayed": "true"})
    response = await handler(request)
    if response.status < 500:
        IDEMPOTENT[slot] = {"fingerprint": fingerprint, "status": response.status, "body": response.body}
    entry["status"] = response.status
    return response


async def report(request):
    return web.json_response(REPORT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", required=True, help="this run's state file")
    parser.add_argument("--ready-file", required=True, help="written with the port once listening")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    args = parser.parse_args()

    _patch_state_file(args.state)
    resources.store.clear()
    app = localstripe_server.app
    # Outermost first: request ids on every answer, then idempotency (a replay never reaches localstripe).
    app.middlewares.insert(0, idempotency)
    app.middlewares.insert(0, request_ids)
    app.router.add_get("/_config/tender/report", report)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]

    async def announce(_app):
        with open(args.ready_file + ".tmp", "w") as handle:
            handle.write(str(port))
        os.replace(args.ready_file + ".tmp", args.ready_file)

    app.on_startup.append(announce)
    web.run_app(app, sock=sock, print=lambda *_: None, access_log=None, handle_signals=True)


if __name__ == "__main__":
    sys.exit(main())
