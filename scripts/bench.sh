#!/usr/bin/env bash
# Builds the bench module and runs qatwatch's benchmarks; prints Markdown for docs/benchmarks.md.
#
#   scripts/bench.sh                 full run (about an hour on 2 cores; run it on a quiet machine)
#   scripts/bench.sh --quick         smoke run of about a minute: proves the harness, figures mean nothing
#   scripts/bench.sh --only ingest   one part: ingest, rebuild, analysis, growth, jmh, stalled, pages, agent (comma-separated)
#   scripts/bench.sh --only pages    status pages (fleet, host, database) of a 10,000-instance store: p50/p99 ms of each,
#                                    goal under 200 ms; --quick: 200 instances x 7 nights, 10 requests per page
#   scripts/bench.sh --only collectors   ingest into 1, 2 and 3 collectors on PostgreSQL against 1 on SQLite: starts
#                                    its own PostgreSQL 15 (Debian's postgresql package) on a loopback port, fsync on
#   scripts/bench.sh --only fleet100k    100,000 instances x 30 nights over 3 collectors on one PostgreSQL (its own, as
#                                    above): each collector's heap, RSS, first evaluation and minute; --quick: 2,000 x 7
#   scripts/bench.sh --only analysis --analysis-split 2,3   also the alert stage as one of 2 and of 3 collectors
#   scripts/bench.sh --only rebuild      ingest p99 at 1,000 reports/s while the alert stage rebuilds 1,000 new
#                                    instances (their first reports bring 30 nights), paced and not
#   scripts/bench.sh --only agent    the agent's RSS and CPU per cycle beside a SQL Server (scripts/agent-footprint.sh with
#                                    issue 33's settings: class-data archive, 100,000 backup rows, 600 s at a 60 s cycle)
#   scripts/bench.sh --help          every option (agents, rates, durations, fleet sizes, server JVM options)
#
# The Markdown goes to stdout and to bench/target/bench-results.md; progress goes to stderr.
# Needs Java 17 and Maven; the InfluxDB sink run needs Debian's influxdb package (./run-tests installs it)
# and is skipped with a message when influxd is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR=bench/target/qatwatch-bench-all.jar

if [[ "${BENCH_SKIP_BUILD:-}" != 1 ]]; then
  echo "[bench] building (mvn -pl bench,agent -am package -DskipTests)" >&2
  mvn -B -q -pl bench,agent -am package -DskipTests >&2
fi

extra=()
if [[ ( " $* " == *"collectors"* || " $* " == *"fleet100k"* ) && " $* " != *"--pg-url"* ]]; then
  # a PostgreSQL of the bench's own: a temporary data directory, loopback only, durable commits like SQLite's FULL
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  pgdir=$(mktemp -d /tmp/qatwatch-bench-pg.XXXXXX)
  pgport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_pg=(); [ "$(id -u)" -eq 0 ] && as_pg=(runuser -u postgres --)
  echo "bench-pg-secret" > "$pgdir/password"
  [ "$(id -u)" -eq 0 ] && chown -R postgres "$pgdir"
  "${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -U qatwatch --pwfile "$pgdir/password" --auth-host=scram-sha-256 \
    --auth-local=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/postgres.log" -w -o "-p $pgport -c listen_addresses=127.0.0.1 \
    -c unix_socket_directories='' -c max_connections=100" start >/dev/null
  trap '"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -w -m fast stop >/dev/null; rm -rf "$pgdir"' EXIT
  extra=(--pg-url "jdbc:postgresql://127.0.0.1:$pgport/postgres" --pg-password-file "$pgdir/password"
         --pg-pid "$(head -1 "$pgdir/data/postmaster.pid")")
fi

"$JAVA" -Xmx2g -jar "$JAR" --out bench/target/bench-results.md "$@" "${extra[@]}"
