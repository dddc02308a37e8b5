#!/usr/bin/env bash
# Measures the agent's steady memory (RSS) and CPU per report cycle, reproducibly:
#   1. builds the agent and collector jars if they are missing (mvn package, never install);
#   2. starts a real collector on a free loopback port with a fresh data folder and issues an agent token;
#   3. starts the agent with the launcher's JVM flags (or QATWATCH_AGENT_JAVA_OPTS) and a host cycle of
#      FOOTPRINT_CYCLE, waits FOOTPRINT_WARMUP seconds, then samples /proc/<pid> for FOOTPRINT_SECONDS;
#   4. prints one Markdown table row: flags, RSS (median and max of the samples) and its private part
#      (RssAnon: heap, metaspace, malloc; the rest is clean file pages of libjvm and class-data archives, shared
#      and reclaimable), CPU % of one core, CPU ms per cycle, reports written, the load average at both ends; then a
#      table of that window's CPU by thread (the kernel's thread names, a pool's threads together: event loop,
#      workers, the JIT's compiler, the VM thread that also runs the serial GC); then stops both.
# With FOOTPRINT_SQL_ROWS=N (e.g. 100000) the agent also watches a SQL Server: the project's TDS test server
# (built from the agent's test classes) answering as SQL Server 2022 with a msdb of N backup rows; the first
# sync of those rows happens during the warm-up, so keep FOOTPRINT_WARMUP long enough (the default is). The row
# then also says how long the first sync took: from the agent's start until the agent logged that the backlog
# was caught up and its outbox was empty again (every backlog report delivered to the collector).
# FOOTPRINT_CDS=1 runs the agent with its class-data archive as the launcher does when one was dumped
# (`qatwatch agent-cds`, run here first); FOOTPRINT_CLASSLIST=FILE writes the classes the agent loaded to FILE, to
# refresh install/cds/qatwatch-agent.classlist (best from a run with a SQL Server, which loads the most).
# Linux only (reads /proc). Example: FOOTPRINT_SECONDS=600 FOOTPRINT_SQL_ROWS=100000 scripts/agent-footprint.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
MEASURE="${FOOTPRINT_SECONDS:-600}"
WARMUP="${FOOTPRINT_WARMUP:-120}"
CYCLE="${FOOTPRINT_CYCLE:-60}"
SAMPLE_EVERY=5
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# the launcher's agent defaults, read from the launcher itself so that the two never drift apart
eval "$(sed -n '/^AGENT_JAVA_OPTS_DEFAULT=/,/"$/p' "$ROOT/qatwatch")"
DEFAULT_OPTS="$AGENT_JAVA_OPTS_DEFAULT"
OPTS="${QATWATCH_AGENT_JAVA_OPTS:-$DEFAULT_OPTS}"
# glibc makes a malloc arena per thread that allocates; two are plenty for the agent and save resident memory
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
AGENT_JAR="$ROOT/agent/target/qatwatch-agent-all.jar"
COLLECTOR_JAR="$ROOT/collector/target/qatwatch-collector-all.jar"

if [ ! -f "$AGENT_JAR" ] || [ ! -f "$COLLECTOR_JAR" ]; then
  echo "building the jars..." >&2
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests -pl agent,collector -am package >&2)
fi

if [ -n "${FOOTPRINT_CDS:-}" ]; then
  QATWATCH_AGENT_CDS="$ROOT/agent/target/qatwatch-agent.jsa" "$ROOT/qatwatch" agent-cds >&2
  OPTS="$OPTS -XX:SharedArchiveFile=$ROOT/agent/target/qatwatch-agent.jsa -Xshare:auto"
fi
[ -n "${FOOTPRINT_CLASSLIST:-}" ] && OPTS="$OPTS -XX:DumpLoadedClassList=$FOOTPRINT_CLASSLIST"

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
  for _ in $(seq 1 120); do [ -f "$WORK/sql.out" ] && [ "$(wc -l < "$WORK/sql.out")" -ge 3 ] && break; sleep 0.5; done
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

STARTED="$(date +%s.%N)"
# shellcheck disable=SC2086
"$JAVA" $OPTS -jar "$AGENT_JAR" agent --config "$WORK/agent.yaml" --data "$WORK/agent" > "$WORK/agent.log" 2>&1 &
AGENT_PID=$!
PIDS+=("$AGENT_PID")

cpu_ticks() { awk '{print $14 + $15}' "/proc/$AGENT_PID/stat"; }
status_kib() { awk -v key="$1:" '$1 == key {print $2}' "/proc/$AGENT_PID/status"; }
load1() { cut -d' ' -f1 /proc/loadavg; }
healthz() { curl -sS "http://127.0.0.1:$HEALTH_PORT/healthz" 2>/dev/null; }
written() {  # reports written so far, from /healthz; -1 when it does not answer (the row then says so)
  healthz | python3 -c 'import json,sys; print(json.load(sys.stdin)["reportsWritten"])' 2>/dev/null || echo -1
}
outbox_depth() { healthz | python3 -c 'import json,sys; print(json.load(sys.stdin)["outbox"]["depth"])' 2>/dev/null || echo -1; }

# The warm-up, watching for the end of the first sync when there is a SQL Server: its time, the agent's CPU
# until then, and the largest RSS (VmHWM, the kernel's own peak) and private part (sampled every second) until then.
HZ="$(getconf CLK_TCK)"
FIRST_SYNC=""
ANON_PEAK=0
WARM_END=$(( $(date +%s) + WARMUP ))
while [ "$(date +%s)" -lt "$WARM_END" ]; do
  kill -0 "$AGENT_PID" 2>/dev/null || { echo "the agent died; its log:" >&2; cat "$WORK/agent.log" >&2; exit 1; }
  if [ -z "$FIRST_SYNC" ]; then
    a="$(status_kib RssAnon)"; [ "${a:-0}" -gt "$ANON_PEAK" ] && ANON_PEAK="$a"
  fi
  if [ "$SQL_ROWS" -gt 0 ] && [ -z "$FIRST_SYNC" ] && grep -q "backup history caught up" "$WORK/agent.log" \
      && [ "$(outbox_depth)" = 0 ]; then
    SYNC_CPU="$(cpu_ticks)"
    FIRST_SYNC="$(python3 -c "import time; print(f'{time.time() - $STARTED:.0f} s (agent CPU {$SYNC_CPU / $HZ:.1f} s; peak RSS {$(status_kib VmHWM) / 1024:.1f} MiB, private {$ANON_PEAK / 1024:.1f} MiB)')")"
    echo "first sync of $SQL_ROWS backup rows delivered after $FIRST_SYNC" >&2
  fi
  sleep 1
done
[ "$SQL_ROWS" -gt 0 ] && [ -z "$FIRST_SYNC" ] && FIRST_SYNC="not within the ${WARMUP} s warm-up"
# The measured window's CPU by thread: a sampler that lists the agent's threads ten times a second with each one's
# time on a CPU in nanoseconds (/proc/<pid>/task/<tid>/schedstat: per-thread clock ticks are too coarse for threads
# that each run a few milliseconds a minute); a thread that ended in the window is kept with its time when last seen.
# When stopped it writes "kernel name<TAB>nanoseconds in the window" a thread to its file.
sample_threads() {  # run it in the background: it is the python process itself (exec), so that it can be stopped by its id
  exec python3 - "$AGENT_PID" "$1" <<'PY'
import os, signal, sys, time
pid, out = sys.argv[1], sys.argv[2]
base, seen, first = f"/proc/{pid}/task", {}, True
def read():
    now = {}
    try:
        tids = os.listdir(base)
    except OSError:
        return now
    for tid in tids:
        try:
            with open(f"{base}/{tid}/comm") as f:
                name = f.read().rstrip("\n")
            with open(f"{base}/{tid}/schedstat") as f:
                now[tid] = (name, int(f.read().split()[0]))  # nanoseconds on a CPU, the scheduler's own count
        except OSError:
            continue  # the thread ended while we listed
    return now
def sample():
    global first
    for tid, (name, t) in read().items():
        # a thread seen at the start counts from there; one born in the window from its birth
        t0 = seen[tid][1] if tid in seen else (t if first else 0)
        seen[tid] = (name, t0, t)
    first = False
def stop(*_):
    sample()
    for name, t0, t in seen.values():
        if t > t0:
            print(f"{name}\t{t - t0}", file=open(out, "a"))
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
sample()
open(out + ".started", "w").close()  # the window's CPU is read from here on
while True:
    time.sleep(0.1)
    sample()
PY
}
# the reports written are read from /healthz outside the window: serving it costs the agent CPU a cycle does not
W0="$(written)"
sample_threads "$WORK/threads" & SAMPLER=$!
until [ -f "$WORK/threads.started" ]; do sleep 0.05; done
L0="$(load1)"; T0="$(date +%s.%N)"; C0="$(cpu_ticks)"
SAMPLES=()
ANON=()
END=$(( $(date +%s) + MEASURE ))
while [ "$(date +%s)" -lt "$END" ]; do
  SAMPLES+=("$(status_kib VmRSS)")
  ANON+=("$(status_kib RssAnon)")
  sleep "$SAMPLE_EVERY"
done
L1="$(load1)"; T1="$(date +%s.%N)"; C1="$(cpu_ticks)"
kill -TERM "$SAMPLER"; wait "$SAMPLER" 2>/dev/null || true
W1="$(written)"

if [ "$SQL_ROWS" -gt 0 ]; then
  echo "SQL Server: TDS test server with $SQL_ROWS backup rows; the agent's health at the end:" >&2
  healthz >&2 || true
  echo >&2
fi
python3 - "$HZ" "$T0" "$T1" "$C0" "$C1" "$W0" "$W1" "$CYCLE" "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX $OPTS" \
  "$L0–$L1" "${FIRST_SYNC:-no SQL Server}" "$WORK/threads" "${#SAMPLES[@]}" "${SAMPLES[@]}" \
  "${ANON[@]}" <<'PY'
import re, statistics, sys
hz, t0, t1, c0, c1, w0, w1, cycle = (float(x) for x in sys.argv[1:9])
opts, load, first_sync, threads = sys.argv[9:13]
n = int(sys.argv[13])
rss = [int(x) for x in sys.argv[14:14 + n]]
anon = [int(x) for x in sys.argv[14 + n:14 + 2 * n]]
elapsed = t1 - t0
cpu_s = (c1 - c0) / hz
cycles = elapsed / cycle
print("| flags | cycle | measured | RSS median | RSS max | private (RssAnon) median | CPU % of one core | CPU per cycle "
      "| reports | load average | first sync |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
reports = int(w1 - w0) if w0 >= 0 and w1 >= 0 else "unknown (no /healthz)"
print(f"| `{opts}` | {cycle:.0f} s | {elapsed:.0f} s | {statistics.median(rss)/1024:.1f} MiB | {max(rss)/1024:.1f} MiB "
      f"| {statistics.median(anon)/1024:.1f} MiB | {100*cpu_s/elapsed:.3f} % | {1000*cpu_s/cycles:.0f} ms | {reports} "
      f"| {load} | {first_sync} |")

# The window's CPU by thread, a pool's threads together (the kernel's name, cut at 15 characters, less its number),
# with how many threads of it the window saw; what no sample saw (threads that lived less than a tenth of a second)
# is the rest of the total.
groups, counts = {}, {}
try:
    with open(threads) as f:
        for line in f:
            name, t = line.rstrip("\n").split("\t")
            group = re.sub(r"[-#]?\d+$", "", name) or name
            groups[group] = groups.get(group, 0) + int(t) * hz / 1e9  # in clock ticks, as the total
            counts[group] = counts.get(group, 0) + 1
except FileNotFoundError:
    pass
print()
print("| agent threads (kernel name) | threads seen | CPU s in the window | CPU per cycle | share |")
print("|---|---|---|---|---|")
for group, t in sorted(groups.items(), key=lambda g: -g[1]):
    print(f"| `{group}` | {counts[group]} | {t / hz:.2f} | {1000 * t / hz / cycles:.1f} ms "
          f"| {100 * t / max(1, c1 - c0):.0f} % |")
rest = (c1 - c0) - sum(groups.values())
if rest > 0:
    print(f"| threads no sample saw | | {rest / hz:.2f} | {1000 * rest / hz / cycles:.1f} ms "
          f"| {100 * rest / max(1, c1 - c0):.0f} % |")
PY
