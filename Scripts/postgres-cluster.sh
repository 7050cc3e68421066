#!/usr/bin/env bash
# A throwaway PostgreSQL/PostGIS cluster in one folder, listening only on a Unix socket there
# (no TCP port): geophoto's tests and benchmarks run against it.
#
#   Scripts/postgres-cluster.sh start DIR    initdb (first time) and start; prints the URL
#   Scripts/postgres-cluster.sh stop DIR     stop at once (connections are cut)
#   Scripts/postgres-cluster.sh restart DIR  stop at once, then start again
#   Scripts/postgres-cluster.sh reload DIR   reread pg_hba.conf and the settings
#   Scripts/postgres-cluster.sh remove DIR   stop and delete the folder
#   Scripts/postgres-cluster.sh standby PRIMARY DIR
#                                            a hot standby of the cluster in PRIMARY, streaming
#                                            from it (pg_basebackup -R), on its own socket in
#                                            DIR; prints its URL (read-only: the same databases)
#
# Run as root, the cluster belongs to the postgres user (PostgreSQL refuses to run as root).
set -euo pipefail
usage="usage: postgres-cluster.sh start|stop|restart|reload|remove DIR, or standby PRIMARY DIR"
action=${1:?$usage}
if [[ "$action" == "standby" ]]; then
  primary=${2:?$usage}
  dir=${3:?$usage}
else
  dir=${2:?$usage}
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[[ -n "$bin" && -x "$bin/initdb" ]] || { echo "no PostgreSQL server (apt-get install postgresql postgis)" >&2; exit 3; }
as_owner=()
[[ "$(id -u)" == "0" ]] && as_owner=(runuser -u postgres --)

start() {
  if [[ ! -d "$dir/data" ]]; then
    mkdir -p "$dir"
    [[ "$(id -u)" == "0" ]] && chown postgres "$dir"
    "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U geophoto --auth=trust --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    fresh=1
  fi
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses='' -k $dir -c fsync=off" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  if [[ -n "${fresh:-}" ]]; then "${as_owner[@]}" "$bin/createdb" -h "$dir" -U geophoto geophoto_test; fi
  echo "postgresql://geophoto@/geophoto_test?host=$dir"
}
# A streaming replica: a base backup of the primary (its replication connection over the
# primary's socket, which initdb's trust rules allow) that recovers from it as it writes. With
# hot_standby_feedback the primary keeps the rows a standby query still reads, so replay does
# not stall behind the standby's readers.
standby() {
  mkdir -p "$dir"
  [[ "$(id -u)" == "0" ]] && chown postgres "$dir"
  "${as_owner[@]}" "$bin/pg_basebackup" -h "$primary" -U geophoto -D "$dir/data" -R -X stream -c fast \
    >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log" >&2; exit 1; }
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses='' -k $dir -c fsync=off -c hot_standby=on -c hot_standby_feedback=on" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgresql://geophoto@/geophoto_test?host=$dir"
}
stop() { "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; }

case "$action" in
  start) start ;;
  standby) standby ;;
  stop) stop ;;
  restart) stop; start >/dev/null ;;
  reload) "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" reload >/dev/null ;;
  remove) stop; rm -rf "$dir" ;;
  *) echo "unknown action '$action'" >&2; exit 64 ;;
esac
