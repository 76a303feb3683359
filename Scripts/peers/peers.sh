#!/usr/bin/env bash
# The test peers of TenderServer, on 127.0.0.1 only: localstripe (PyPI) and a Square peer validating against Square's
# published OpenAPI document with openapi-core (PyPI). See README.md beside this file.
#
#   Scripts/peers/peers.sh install      virtual environment .build/peers-venv with the pinned packages
#   Scripts/peers/peers.sh check-spec   the Square document fails strict validation as published, passes once fixed
#   Scripts/peers/peers.sh start        starts both peers (this run's state under .build/peers/run), writes
#                                       .build/peers/env (the URLs, the token and the Square OAuth application's
#                                       credentials the Swift tests and merchant-server read)
#   Scripts/peers/peers.sh stop         stops them by the process ids `start` recorded, nothing else
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="$ROOT/.build/peers-venv"
RUN="$ROOT/.build/peers/run"
ENV_FILE="$ROOT/.build/peers/env"
HERE="$ROOT/Scripts/peers"
PACKAGES=(localstripe==1.15.10 openapi-core==0.23.1)
export TENDER_SQUARE_SPEC="${TENDER_SQUARE_SPEC:-$ROOT/Tests/Reference/peers/square-connect-api-2025-08-20.json}"

install() {
  if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "${PACKAGES[@]}"
}

wait_ready() { # file name pid
  for _ in $(seq 1 120); do
    if [ -s "$1" ]; then return 0; fi
    if ! kill -0 "$3" 2>/dev/null; then echo "$2 exited during start-up:" >&2; cat "$RUN/$2.log" >&2; return 1; fi
    sleep 0.5
  done
  echo "$2 did not start within 60 s" >&2
  return 1
}

start() {
  stop
  rm -rf "$RUN" && mkdir -p "$RUN"
  local token="sq-test-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  local client_id="sq0idp-tender-peer"
  local client_secret="sq0csp-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
  local refresh_token="EQAA$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
  "$VENV/bin/python" "$HERE/localstripe_peer.py" --state "$RUN/localstripe.pickle" --ready-file "$RUN/localstripe.port" \
    > "$RUN/localstripe.log" 2>&1 &
  echo $! > "$RUN/localstripe.pid"
  "$VENV/bin/python" -W ignore "$HERE/square_peer.py" --token "$token" --ready-file "$RUN/square.port" \
    --client-id "$client_id" --client-secret "$client_secret" --refresh-token "$refresh_token" \
    --merchant-id MLTENDERPEER > "$RUN/square.log" 2>&1 &
  echo $! > "$RUN/square.pid"
  wait_ready "$RUN/localstripe.port" localstripe "$(cat "$RUN/localstripe.pid")"
  wait_ready "$RUN/square.port" square "$(cat "$RUN/square.pid")"
  {
    echo "export TENDER_LOCALSTRIPE_URL=http://127.0.0.1:$(cat "$RUN/localstripe.port")"
    echo "export TENDER_SQUARE_PEER_URL=http://127.0.0.1:$(cat "$RUN/square.port")"
    echo "export TENDER_SQUARE_PEER_TOKEN=$token"
    echo "export TENDER_SQUARE_PEER_CLIENT_ID=$client_id"
    echo "export TENDER_SQUARE_PEER_CLIENT_SECRET=$client_secret"
    echo "export TENDER_SQUARE_PEER_REFRESH_TOKEN=$refresh_token"
    echo "export TENDER_SQUARE_PEER_MERCHANT_ID=MLTENDERPEER"
  } > "$ENV_FILE"
  echo "peers started: localstripe pid $(cat "$RUN/localstripe.pid") port $(cat "$RUN/localstripe.port"), square pid $(cat "$RUN/square.pid") port $(cat "$RUN/square.port")"
}

stop() {
  local name pid
  for name in localstripe square; do
    [ -f "$RUN/$name.pid" ] || continue
    pid="$(cat "$RUN/$name.pid")"
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
      echo "stopped $name (pid $pid)"
    fi
    rm -f "$RUN/$name.pid"
  done
  rm -f "$ENV_FILE"
}

case "${1:-}" in
  install) install ;;
  check-spec) "$VENV/bin/python" -W ignore "$HERE/square_spec.py" --check ;;
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 install|check-spec|start|stop" >&2; exit 2 ;;
esac
