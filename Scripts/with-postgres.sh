#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL/PostGIS cluster (Scripts/postgres-cluster.sh):
# GEOPHOTO_TEST_POSTGRES_URL exported, and the cluster stopped and removed afterwards whatever
# happens. Without the server binaries the command still runs and the PostgreSQL tests say
# they were skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "warning: no PostgreSQL server (apt-get install postgresql postgis); the PostgreSQL tests will be skipped" >&2
  exec "$@"
fi
run="$(mktemp -d "${TMPDIR:-/tmp}/geophoto-postgres.XXXXXX")"
trap '"$here/postgres-cluster.sh" remove "$run"' EXIT
url=$("$here/postgres-cluster.sh" start "$run") || exit 1
export GEOPHOTO_TEST_POSTGRES_URL="$url"
echo "PostgreSQL for the tests: $run (socket only)" >&2
"$@"
