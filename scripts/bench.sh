#!/usr/bin/env bash
# Builds the bench module and runs qatwatch's benchmarks; prints Markdown for docs/benchmarks.md.
#
#   scripts/bench.sh                 full run (about 30 minutes on 2 cores; run it on a quiet machine)
#   scripts/bench.sh --quick         smoke run of about a minute: proves the harness, figures mean nothing
#   scripts/bench.sh --only ingest   one part: ingest, analysis, growth, jmh (comma-separated)
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
  echo "[bench] building (mvn -pl bench -am package -DskipTests)" >&2
  mvn -B -q -pl bench -am package -DskipTests >&2
fi

exec "$JAVA" -Xmx2g -jar "$JAR" --out bench/target/bench-results.md "$@"
