#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL/PostGIS cluster: initdb in a private folder, the
# server listening only on a Unix socket there (no TCP port), GEOPHOTO_TEST_POSTGRES_URL
# exported, and the cluster stopped and removed afterwards whatever happens. Without the
# server binaries the command still runs and the PostgreSQL tests say they were skipped.
set -uo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
  echo "warning: no PostgreSQL server (apt-get install postgresql postgis); the PostgreSQL tests will be skipped" >&2
  exec "$@"
fi
run="$(mktemp -d "${TMPDIR:-/tmp}/geophoto-postgres.XXXXXX")"
as_owner=()
if [[ "$(id -u)" == "0" ]]; then
  # PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
  chown postgres "$run"
  as_owner=(runuser -u postgres --)
fi
cleanup() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$run/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$run"
}
trap cleanup EXIT
"${as_owner[@]}" "$bin/initdb" -D "$run/data" -U geophoto --auth=trust --no-sync >"$run/initdb.log" 2>&1 \
  || { cat "$run/initdb.log" >&2; exit 1; }
"${as_owner[@]}" "$bin/pg_ctl" -D "$run/data" -l "$run/server.log" -w -t 30 \
  -o "-c listen_addresses='' -k $run -c fsync=off" start >/dev/null \
  || { cat "$run/server.log" >&2; exit 1; }
"${as_owner[@]}" "$bin/createdb" -h "$run" -U geophoto geophoto_test
export GEOPHOTO_TEST_POSTGRES_URL="postgresql://geophoto@/geophoto_test?host=$run"
echo "PostgreSQL for the tests: $run (socket only)" >&2
"$@"
