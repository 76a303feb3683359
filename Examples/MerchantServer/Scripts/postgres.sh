#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for merchant-server's tests: Debian's `postgresql` (installed with apt-get when
# missing), a cluster made by initdb under Examples/MerchantServer/.build/postgres, listening on 127.0.0.1 only on a
# free port, stopped by the process id it started.
#
#   Scripts/postgres.sh start   initdb + start; writes .build/postgres/env (MERCHANT_TEST_POSTGRES_URL=…)
#   Scripts/postgres.sh stop    stops the server by its recorded pid (and waits for it), removes the cluster
#
# PostgreSQL refuses to run as root: when run as root the cluster belongs to the `postgres` user the package creates.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/.build/postgres"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
  bin=$(find_bin)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "postgres.sh: installing Debian's postgresql" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(find_bin)
  fi
  [ -x "$bin/initdb" ] || { echo "postgres.sh: no initdb after installing postgresql" >&2; exit 1; }
  if [ -f "$dir/server.pid" ] && kill -0 "$(cat "$dir/server.pid")" 2>/dev/null; then
    echo "postgres.sh: already running (pid $(cat "$dir/server.pid"))" >&2; exit 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bin/initdb" -D "$dir/data" -U tender --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  # Started directly (not pg_ctl) in the background; the pid recorded is the postmaster's, from its postmaster.pid.
  as_owner "$bin/postgres" -D "$dir/data" -h 127.0.0.1 -p "$port" -k "$dir" -c fsync=off \
    -c max_connections=200 >"$dir/server.log" 2>&1 &
  launcher=$!
  for _ in $(seq 1 100); do
    if "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q; then break; fi
    kill -0 "$launcher" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    sleep 0.1
  done
  "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q || { echo "postgres.sh: not ready" >&2; cat "$dir/server.log" >&2; exit 1; }
  # The postmaster's own pid (the launcher above is a shell and runuser around it).
  pid=$(head -n 1 "$dir/data/postmaster.pid")
  echo "$pid" >"$dir/server.pid"
  echo "export MERCHANT_TEST_POSTGRES_URL=postgres://tender@127.0.0.1:$port/postgres" >"$dir/env"
  echo "postgres.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (pid $pid)"
  ;;
stop)
  if [ -f "$dir/server.pid" ]; then
    pid=$(cat "$dir/server.pid")
    # SIGINT is PostgreSQL's fast shutdown (the backends end, the postmaster exits).
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    rm -f "$dir/server.pid"
    echo "postgres.sh: stopped (pid $pid)"
  fi
  rm -rf "$dir/data"
  ;;
*)
  echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
