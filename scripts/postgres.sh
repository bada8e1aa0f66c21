#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, in a folder of its own.
#
#   scripts/postgres.sh start DIR   initialises a cluster in DIR/data, starts it on a free port of
#                                   127.0.0.1 (its unix socket in DIR/socket, its log in DIR/log),
#                                   writes its URL to DIR/url and prints it
#   scripts/postgres.sh stop DIR    stops that cluster (fast shutdown) and removes DIR
#
# The cluster trusts every connection: it listens on 127.0.0.1 and in DIR only, and holds nothing
# but test data. It has nothing to do with a cluster the system's package may have set up (Debian's
# "main" on 5432): it never reads its configuration, port or files.
#
# PostgreSQL refuses to run as root: when run as root, the server programs run as the `postgres`
# user (created when missing) and DIR is handed to it; as any other user they run as that user.
# The programs are taken from the highest /usr/lib/postgresql/VERSION/bin, else from PATH.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
command=$1
dir=$2
[ -n "$dir" ] || usage

fail() {
  echo "postgres.sh: $*" >&2
  exit 1
}

find_bin() {
  local best='' version
  for candidate in /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ] || continue
    version=$(basename "$(dirname "$candidate")")
    if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$(basename "$(dirname "$best")")" "$version" | sort -V | tail -n 1)" = "$version" ]; then
      best=$candidate
    fi
  done
  if [ -z "$best" ] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    best=$(dirname "$(command -v initdb)")
  fi
  [ -n "$best" ] || fail "no PostgreSQL found (no initdb under /usr/lib/postgresql/*/bin nor on PATH): apt-get install postgresql"
  printf '%s\n' "$best"
}

# Runs a PostgreSQL program as the user it must run as.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start() {
  local bin port tries log url
  bin=$(find_bin)
  if [ -e "$dir/data" ]; then fail "$dir/data exists already: stop that cluster first"; fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  case "$dir" in *"'"* | *'"'* | *\\*) fail "DIR must not hold quotes or backslashes: $dir" ;; esac
  if [ "$(id -u)" = 0 ]; then
    if ! id -u postgres >/dev/null 2>&1; then
      useradd --system --user-group --no-create-home --home-dir /var/lib/postgresql --shell /usr/sbin/nologin postgres
    fi
    chown postgres: "$dir"
    chmod 700 "$dir"
    runuser -u postgres -- test -w "$dir" || fail "the postgres user cannot reach $dir (is a folder above it closed to others?)"
  fi
  log="$dir/log"
  as_owner mkdir -p "$dir/socket"
  as_owner touch "$log"

  # C locale: text sorts byte by byte, as SQLite's BINARY does, and lower()/ILIKE fold ASCII only.
  as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C --no-sync >>"$log" 2>&1 ||
    { cat "$log" >&2; fail "initdb failed"; }

  # A free port is only known free until someone takes it: try another when the server cannot bind.
  for tries in 1 2 3 4 5 6 7 8 9 10; do
    port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi # something listens there
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$log" -w -t 60 -s \
      -o "-c listen_addresses=127.0.0.1 -p $port -k '$dir/socket' -c max_connections=300 -c shared_buffers=32MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null 2>&1; then
      url="postgres://postgres@127.0.0.1:$port/postgres"
      printf '%s\n' "$url" >"$dir/url"
      printf '%s\n' "$url"
      return 0
    fi
    if ! grep -q -i 'could not bind\|address already in use\|could not create any TCP/IP sockets\|lock file' "$log"; then break; fi
  done
  cat "$log" >&2
  fail "the server did not start (log above, from $log)"
}

stop() {
  local bin
  [ -d "$dir" ] || return 0
  if [ -f "$dir/data/postmaster.pid" ]; then
    bin=$(find_bin)
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 -s stop >/dev/null 2>&1 &&
      as_owner "$bin/pg_ctl" -D "$dir/data" -s status >/dev/null 2>&1; then
      fail "the server in $dir/data did not stop (see $dir/log); $dir is left as it is"
    fi
  fi
  rm -rf -- "$dir"
}

case "$command" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
