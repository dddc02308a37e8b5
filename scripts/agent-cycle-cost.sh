#!/usr/bin/env bash
# Counts what the agent daemon's steady cycles cost: bytes allocated per cycle by each of its threads (exact, whatever
# the machine's load), their CPU time (load-dependent), SQL batches per cycle by query, report bytes and classes
# loaded. The real daemon runs in one JVM with the TDS test server (SQL Server 2022, a msdb of ROWS backups, a full
# backup running) and a stand-in collector answering 202, with the launcher's agent JVM options
# (io.qatwatch.agent.daemon.CycleCost). A measurement, not a benchmark: it may run beside other work.
#   scripts/agent-cycle-cost.sh [sql|sql-all|sql-local|sql-host|host] [ROWS] [WARM] [CYCLES]
#     sql      backups every 2 s (history, running requests, job history, CommandLog, restores), host probe hourly
#     sql-all  every SQL group every 2 s (inventory and configuration too)
#     sql-local  as sql, with SQL Server "on this host" (its MachineName and ProcessID this host and JVM), so that every
#              poll seeing the running backup reads the process through OSHI, as beside a local sqlservr
#     sql-host as sql, with the host probe every 2 s too: the cycle of scripts/agent-footprint.sh (host and backups each cycle)
#     host     the host probe every 2 s, no SQL Server
# CYCLE_COST_AGENT_JAR=/tmp/old/agent/target/qatwatch-agent-all.jar measures another build's agent (an older commit)
# against the same servers and harness. CYCLE_COST_CDS=1 first dumps a class-data archive of that jar from
# install/cds/qatwatch-agent.classlist (or CYCLE_COST_CLASSLIST) and runs with it, as the launcher does;
# CYCLE_COST_CLASS_LOG=FILE writes -Xlog:class+load there (each class's source: the archive or a jar);
# CYCLE_COST_REPORTS=DIR writes every report's JSON there (report-0001.json, ...).
# CYCLE_COST_EVERY=60s runs the cycle at that period instead of 2 s (the footprint bench's 60 s: what a minute's pause
# undoes, such as the collector's connection, is then counted; few cycles are enough, e.g. sql-host 1000 2 5).
# CYCLE_COST_WRITE_CLASSLIST=FILE writes the classes loaded (-XX:DumpLoadedClassList) to FILE without the harness's own
# (the TDS test server, the stand-in collector, the MXBeans it counts with): the agent's class list for its archive,
# e.g. `CYCLE_COST_WRITE_CLASSLIST=install/cds/qatwatch-agent.classlist scripts/agent-cycle-cost.sh sql-local 100000 5 10`. Needs `mvn -pl agent -am test-compile package -DskipTests` (built when missing).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
AGENT_JAR="${CYCLE_COST_AGENT_JAR:-$ROOT/agent/target/qatwatch-agent-all.jar}"
eval "$(sed -n '/^AGENT_JAVA_OPTS_DEFAULT=/,/"$/p' "$ROOT/qatwatch")"
if [ ! -f "$ROOT/agent/target/qatwatch-agent-all.jar" ] || [ ! -f "$ROOT/agent/target/test-classes/io/qatwatch/agent/daemon/CycleCost.class" ]; then
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests -pl agent -am package >&2)
fi
# The harness and the servers allocate in this JVM too (their threads are counted apart): a heap above the agent's
# own 48 MiB, the rest of the launcher's flags as they are.
OPTS="${AGENT_JAVA_OPTS_DEFAULT/-Xmx48m/-Xmx256m}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ -n "${CYCLE_COST_CDS:-}" ]; then
  "$JAVA" -Xshare:dump -XX:SharedClassListFile="${CYCLE_COST_CLASSLIST:-$ROOT/install/cds/qatwatch-agent.classlist}" \
    -XX:SharedArchiveFile="$WORK/agent.jsa" -cp "$AGENT_JAR" > "$WORK/dump.log" 2>&1 || { cat "$WORK/dump.log" >&2; exit 1; }
  OPTS="$OPTS -XX:SharedArchiveFile=$WORK/agent.jsa -Xshare:auto"
fi
[ -n "${CYCLE_COST_REPORTS:-}" ] && OPTS="$OPTS -Dcycle-cost.reports=$CYCLE_COST_REPORTS"
[ -n "${CYCLE_COST_EVERY:-}" ] && OPTS="$OPTS -Dcycle-cost.every=$CYCLE_COST_EVERY"
[ -n "${CYCLE_COST_WRITE_CLASSLIST:-}" ] && OPTS="$OPTS -XX:DumpLoadedClassList=$WORK/loaded.classlist -Dcycle-cost.exit=true"
[ -n "${CYCLE_COST_CLASS_LOG:-}" ] && OPTS="$OPTS -Xlog:class+load=info:file=$CYCLE_COST_CLASS_LOG"
# the agent's jar first: an archive is used only when the class path starts with the one it was dumped with
# shellcheck disable=SC2086
"$JAVA" $OPTS -cp "$AGENT_JAR:$ROOT/agent/target/test-classes:$ROOT/tds-test-server/target/classes" \
  io.qatwatch.agent.daemon.CycleCost "${1:-sql}" "${2:-1000}" "${3:-10}" "${4:-30}"
if [ -n "${CYCLE_COST_WRITE_CLASSLIST:-}" ]; then
  # the harness's classes and the JDK packages only it uses (the agent loads no java.lang.management, no httpserver)
  grep -Ev '(^|[ /])(io/qatwatch/tds/|io/qatwatch/agent/daemon/CycleCost|io/qatwatch/agent/probe/sqlserver/FootprintMsdb|com/sun/net/httpserver/|sun/net/httpserver/|java/lang/management/|sun/management/|com/sun/management/|javax/management/)' \
    "$WORK/loaded.classlist" > "$CYCLE_COST_WRITE_CLASSLIST"
  echo "wrote $(grep -vc '^#' "$CYCLE_COST_WRITE_CLASSLIST") classes and lambda lines to $CYCLE_COST_WRITE_CLASSLIST" >&2
fi
