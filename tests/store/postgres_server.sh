#!/usr/bin/env bash
# The throwaway PostgreSQL server of the store tests, a CTest fixture (tests/CMakeLists.txt):
#   postgres_server.sh start DIR   initdb in a new folder under /tmp, start on 127.0.0.1 at a free
#                                  port with password login, write the URL to DIR/url
#   postgres_server.sh stop DIR    stop that server and remove its folder (also after failures)
#   postgres_server.sh restart DIR stop that server (fast: its sessions are cut) and start it
#                                  again on the same port (tests/reliability/postgres_restart.py)
# BENCHKIT_POSTGRES_SETTINGS adds server settings to the start (bench/history/fleet.sh:
# "-c shared_buffers=1GB"); the tests give none.
# The tests read DIR/url and touch no other server. initdb and postgres refuse to run as root:
# as root (CI) they run as the unprivileged user nobody.
set -euo pipefail
action=$1
dir=$2

bindir=/usr/lib/postgresql/15/bin
if [ ! -x "$bindir/initdb" ]; then
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "postgres_server.sh: no PostgreSQL server found under /usr/lib/postgresql; run" \
    "scripts/install-deps (it installs postgresql-15)" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u nobody -- "$@"
  else
    "$@"
  fi
}

stop() {
  [ -f "$dir/server" ] || return 0
  local folder
  folder=$(cat "$dir/server")
  if [ -f "$folder/data/postmaster.pid" ]; then
    as_owner "$bindir/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$folder"
  rm -f "$dir/server" "$dir/url"
}

case "$action" in
  start)
    stop
    mkdir -p "$dir"
    folder=$(mktemp -d /tmp/benchkit-postgres.XXXXXX)
    chmod 755 "$folder"
    echo "$folder" >"$dir/server"
    password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    echo "$password" >"$folder/password"
    [ "$(id -u)" -eq 0 ] && chown -R nobody "$folder"
    as_owner "$bindir/initdb" -D "$folder/data" -U benchkit --pwfile="$folder/password" \
      --auth=scram-sha-256 -E UTF8 --no-sync >"$folder/initdb.log" 2>&1 ||
      { cat "$folder/initdb.log" >&2; stop; exit 1; }
    # A free port: bound by the kernel's choice, then released for the server (a race with
    # another program taking it in between is possible but then the start fails loudly).
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # fsync off: the tests kill writers, not the server, and a durable server is slower to start.
    as_owner "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c fsync=off -c max_connections=60 ${BENCHKIT_POSTGRES_SETTINGS:-}" \
      start >/dev/null ||
      { cat "$folder/server.log" >&2; stop; exit 1; }
    echo "postgresql://benchkit:$password@127.0.0.1:$port/postgres" >"$dir/url"
    ;;
  stop)
    stop
    ;;
  restart)
    folder=$(cat "$dir/server")
    # pg_ctl restart starts the server with the options of its last start (postmaster.opts).
    as_owner "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -m fast -w -t 60 \
      restart >/dev/null ||
      { cat "$folder/server.log" >&2; exit 1; }
    ;;
  *)
    echo "usage: postgres_server.sh start|stop|restart DIR" >&2
    exit 2
    ;;
esac
