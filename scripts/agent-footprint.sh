#!/usr/bin/env bash
# Measures the agent's steady memory (RSS) and CPU per report cycle, reproducibly:
#   1. builds the agent and collector jars if they are missing (mvn package, never install);
#   2. starts a real collector on a free loopback port with a fresh data folder and issues an agent token;
#   3. starts the agent with the launcher's JVM flags (or QATWATCH_AGENT_JAVA_OPTS) and a host cycle of
#      FOOTPRINT_CYCLE, waits FOOTPRINT_WARMUP seconds, then samples /proc/<pid> for FOOTPRINT_SECONDS;
#   4. prints one Markdown table row: flags, RSS (median and max of the samples), CPU % of one core,
#      CPU ms per cycle, reports delivered; then stops both.
# With FOOTPRINT_SQL_ROWS=N (e.g. 100000) the agent also watches a SQL Server: the project's TDS test server
# (built from the agent's test classes) answering as SQL Server 2022 with a msdb of N backup rows; the first
# sync of those rows happens during the warm-up, so keep FOOTPRINT_WARMUP long enough (the default is).
# Linux only (reads /proc). Example: FOOTPRINT_SECONDS=600 FOOTPRINT_SQL_ROWS=100000 scripts/agent-footprint.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
MEASURE="${FOOTPRINT_SECONDS:-600}"
WARMUP="${FOOTPRINT_WARMUP:-120}"
CYCLE="${FOOTPRINT_CYCLE:-60}"
SAMPLE_EVERY=5
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
DEFAULT_OPTS="-XX:+UseSerialGC -Xms8m -Xmx48m -XX:MaxMetaspaceSize=48m -Xss256k -XX:TieredStopAtLevel=1 \
-XX:CICompilerCount=1 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=16m -XX:-UsePerfData \
-XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:+UnlockDiagnosticVMOptions -XX:AsyncDeflationInterval=10000 \
-XX:GuaranteedSafepointInterval=0 -Dio.netty.allocator.type=unpooled -Dio.netty.noPreferDirect=true -Djava.awt.headless=true"
OPTS="${QATWATCH_AGENT_JAVA_OPTS:-$DEFAULT_OPTS}"
# glibc makes a malloc arena per thread that allocates; two are plenty for the agent and save resident memory
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
AGENT_JAR="$ROOT/agent/target/qatwatch-agent-all.jar"
COLLECTOR_JAR="$ROOT/collector/target/qatwatch-collector-all.jar"

if [ ! -f "$AGENT_JAR" ] || [ ! -f "$COLLECTOR_JAR" ]; then
  echo "building the jars..." >&2
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests -pl agent,collector -am package >&2)
fi

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "${FOOTPRINT_KEEP:-}" ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
COLLECTOR_PORT="$(free_port)"
HEALTH_PORT="$(free_port)"

"$JAVA" -jar "$COLLECTOR_JAR" collector token add footprint --data "$WORK/collector" 2>/dev/null | tail -1 > "$WORK/agent.token"
chmod 600 "$WORK/agent.token"
"$JAVA" -Xmx256m -jar "$COLLECTOR_JAR" up --no-agent --port "$COLLECTOR_PORT" --data "$WORK" > "$WORK/collector.log" 2>&1 &
PIDS+=($!)

SQL_ROWS="${FOOTPRINT_SQL_ROWS:-0}"
SQL_YAML=""
if [ "$SQL_ROWS" -gt 0 ]; then
  # one invocation, so that sibling modules resolve to their freshly compiled classes (the agent's is written last)
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests -pl agent -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp.txt" >&2)
  "$JAVA" -Xmx512m -cp "$ROOT/agent/target/test-classes:$ROOT/agent/target/classes:$(cat "$WORK/cp.txt")" \
    io.qatwatch.agent.probe.sqlserver.FootprintSqlServer "$SQL_ROWS" "$WORK/sql" > "$WORK/sql.out" 2> "$WORK/sql.log" &
  PIDS+=($!)
  for _ in $(seq 1 120); do [ "$(wc -l < "$WORK/sql.out")" -ge 3 ] && break; sleep 0.5; done
  mapfile -t SQL < "$WORK/sql.out"
  SQL_YAML="sqlserver:
  instances:
    - name: PROD
      jdbcUrl: '${SQL[0]}'
      user: ${SQL[1]}
      passwordFile: '${SQL[2]}'"
fi

cat > "$WORK/agent.yaml" <<YAML
agent:
  name: footprint
collector:
  url: http://127.0.0.1:$COLLECTOR_PORT
  tokenFile: agent.token
schedule:
  host: ${CYCLE}s
health:
  port: $HEALTH_PORT
$SQL_YAML
YAML
chmod 600 "$WORK/agent.yaml"

for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$COLLECTOR_PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done

# shellcheck disable=SC2086
"$JAVA" $OPTS -jar "$AGENT_JAR" agent --config "$WORK/agent.yaml" --data "$WORK/agent" > "$WORK/agent.log" 2>&1 &
AGENT_PID=$!
PIDS+=("$AGENT_PID")

cpu_ticks() { awk '{print $14 + $15}' "/proc/$AGENT_PID/stat"; }
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$AGENT_PID/status"; }
written() {  # reports written so far, from /healthz; -1 when it does not answer (the row then says so)
  curl -sS "http://127.0.0.1:$HEALTH_PORT/healthz" 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["reportsWritten"])' 2>/dev/null || echo -1
}

sleep "$WARMUP"
kill -0 "$AGENT_PID" 2>/dev/null || { echo "the agent died; its log:" >&2; cat "$WORK/agent.log" >&2; exit 1; }
HZ="$(getconf CLK_TCK)"
T0="$(date +%s.%N)"; C0="$(cpu_ticks)"; W0="$(written)"
SAMPLES=()
END=$(( $(date +%s) + MEASURE ))
while [ "$(date +%s)" -lt "$END" ]; do
  SAMPLES+=("$(rss_kib)")
  sleep "$SAMPLE_EVERY"
done
T1="$(date +%s.%N)"; C1="$(cpu_ticks)"; W1="$(written)"

if [ "$SQL_ROWS" -gt 0 ]; then
  echo "SQL Server: TDS test server with $SQL_ROWS backup rows; the agent's health at the end:" >&2
  curl -sS "http://127.0.0.1:$HEALTH_PORT/healthz" >&2 2>/dev/null || true
  echo >&2
fi
python3 - "$HZ" "$T0" "$T1" "$C0" "$C1" "$W0" "$W1" "$CYCLE" "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX $OPTS" "${SAMPLES[@]}" <<'PY'
import statistics, sys
hz, t0, t1, c0, c1, w0, w1, cycle = (float(x) for x in sys.argv[1:9])
opts = sys.argv[9]
rss = [int(x) for x in sys.argv[10:]]
elapsed = t1 - t0
cpu_s = (c1 - c0) / hz
cycles = elapsed / cycle
print("| flags | cycle | measured | RSS median | RSS max | CPU % of one core | CPU per cycle | reports |")
print("|---|---|---|---|---|---|---|---|")
reports = int(w1 - w0) if w0 >= 0 and w1 >= 0 else "unknown (no /healthz)"
print(f"| `{opts}` | {cycle:.0f} s | {elapsed:.0f} s | {statistics.median(rss)/1024:.1f} MiB | {max(rss)/1024:.1f} MiB "
      f"| {100*cpu_s/elapsed:.3f} % | {1000*cpu_s/cycles:.0f} ms | {reports} |")
PY
