#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL/PostGIS cluster (Scripts/postgres-cluster.sh) and
# a hot standby streaming from it: GEOPHOTO_TEST_POSTGRES_URL (the primary) and
# GEOPHOTO_TEST_POSTGRES_STANDBY_URL exported, and both stopped and removed afterwards whatever
# happens. Without the server binaries the command still runs and the PostgreSQL tests say
# they were skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "warning: no PostgreSQL server (apt-get install postgresql postgis); the PostgreSQL tests will be skipped" >&2
  exec "$@"
fi
run="$(mktemp -d "${TMPDIR:-/tmp}/geophoto-postgres.XXXXXX")"
standby="$run-standby"
trap '"$here/postgres-cluster.sh" remove "$standby"; "$here/postgres-cluster.sh" remove "$run"' EXIT
url=$("$here/postgres-cluster.sh" start "$run") || exit 1
export GEOPHOTO_TEST_POSTGRES_URL="$url"
echo "PostgreSQL for the tests: $run (socket only)" >&2
if standby_url=$("$here/postgres-cluster.sh" standby "$run" "$standby"); then
  export GEOPHOTO_TEST_POSTGRES_STANDBY_URL="$standby_url"
  echo "PostgreSQL standby for the tests: $standby (socket only)" >&2
else
  echo "warning: the standby did not start; the replica tests will be skipped" >&2
fi
"$@"
