#!/usr/bin/env bash
# Connection floods against a real collector (issue 34 item 3): idle connections and clients trickling their
# headers, from one address and from many, while an agent reports and /healthz is polled. Prints a Markdown table
# for docs/benchmarks.md: held and refused connections, the agent's and /healthz's latency, the collector's RSS and
# descriptors before, during and after.
#
#   scripts/flood-drill.sh                          the drill of issue 34: 2,000 idle + 200 trickling (about 2 minutes)
#   FLOOD_IDLE=200 FLOOD_TRICKLE=20 FLOOD_MAX_CONNECTIONS=300 scripts/flood-drill.sh   a smaller one
#   MVN=/work/bin/mvn-slot scripts/flood-drill.sh   build the collector jar through another Maven wrapper
#
# Phases: (1) every connection from one address (127.0.0.2): listen.maxConnectionsPerAddress holds; (2) spread over
# 50 addresses (127.0.1.1-50): all held, under listen.maxConnections; (3) listen.maxConnections + 500 idle
# connections from 100 addresses: the total holds, and while it is full the agent is refused too. The collector runs
# with the default limits and ingest.headerTimeoutSeconds of FLOOD_HEADER_TIMEOUT (15 s) so that trickling clients
# are seen closed. Linux only (the loopback's 127/8, /proc). Run it alone: its figures are latencies.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR="$ROOT/collector/target/qatwatch-collector-all.jar"
IDLE="${FLOOD_IDLE:-2000}"
TRICKLE="${FLOOD_TRICKLE:-200}"
HEADER_TIMEOUT="${FLOOD_HEADER_TIMEOUT:-15}"
MAX_CONNECTIONS="${FLOOD_MAX_CONNECTIONS:-4096}"

if [ ! -f "$JAR" ]; then
  echo "building the collector jar..." >&2
  (cd "$ROOT" && ${MVN:-mvn} -B -q -ntp -DskipTests -pl collector -am package >&2)
fi

WORK="$(mktemp -d /tmp/qatwatch-flood.XXXXXX)"
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill "$PID"
    wait "$PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$WORK/collector.yaml" <<EOF
listen:
  host: 127.0.0.1
  port: $PORT
  maxConnections: $MAX_CONNECTIONS
ingest:
  headerTimeoutSeconds: $HEADER_TIMEOUT
EOF
"$JAVA" -jar "$JAR" collector token add flood-agent --data "$WORK/data" 2>/dev/null | tail -1 > "$WORK/agent.token"
"$JAVA" -Xmx512m -jar "$JAR" collector --config "$WORK/collector.yaml" --data "$WORK/data" > "$WORK/collector.log" 2>&1 &
PID=$!
for _ in $(seq 1 600); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  kill -0 "$PID" 2>/dev/null || { cat "$WORK/collector.log" >&2; exit 1; }
  sleep 0.1
done

python3 - "$PORT" "$PID" "$WORK/agent.token" "$ROOT/protocol/src/test/resources/golden/report-complete.json" \
  "$IDLE" "$TRICKLE" "$HEADER_TIMEOUT" "$MAX_CONNECTIONS" <<'PY'
import http.client, json, os, socket, sys, threading, time, uuid

port, pid, token_file, report_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
idle_n, trickle_n, header_timeout, max_connections = (int(a) for a in sys.argv[5:9])
token = open(token_file).read().strip()
report = json.load(open(report_file))

def rss_mib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
def fds():
    return len(os.listdir(f"/proc/{pid}/fd"))
def metric(name):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/metrics"); text = c.getresponse().read().decode(); c.close()
    return sum(float(l.split(" ")[1]) for l in text.splitlines() if l.startswith(name))

def agent_post():
    """One report as an agent sends it, on a new connection: (status or error, seconds)."""
    report["reportId"] = str(uuid.uuid4())
    body = json.dumps(report).encode()
    start = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("POST", "/api/v1/reports", body, {"Authorization": "Bearer " + token,
                                                     "Content-Type": "application/json"})
        status = c.getresponse().status; c.close()
    except OSError as e:
        status = type(e).__name__
    return status, time.monotonic() - start
def healthz():
    start = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/healthz"); status = c.getresponse().status; c.close()
    except OSError as e:
        status = type(e).__name__
    return status, time.monotonic() - start
def probe(n=10):
    posts = [agent_post() for _ in range(n)]
    checks = [healthz() for _ in range(n)]
    def summary(xs):
        statuses = sorted({str(s) for s, _ in xs})
        times = sorted(t for _, t in xs)
        return "/".join(statuses), f"{times[len(times) // 2]:.3f} / {times[-1]:.3f} s"
    return summary(posts), summary(checks)

def open_from(address):
    s = socket.socket()
    s.bind((address, 0))
    s.connect(("127.0.0.1", port))
    return s
def held(sockets, wait=2.0):
    """Sockets the collector still holds: those it closed read as EOF or reset."""
    time.sleep(wait)
    alive = 0
    for s in sockets:
        s.setblocking(False)
        try:
            alive += 0 if s.recv(1) == b"" else 1
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive

stop = threading.Event()
def trickle(sockets):
    """A byte of a request head a second on each: never silent long enough for an idle timeout."""
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000
    i = 0
    while not stop.is_set() and i < len(head):
        for s in sockets:
            try:
                s.send(head[i:i + 1])
            except OSError:
                pass
        i += 1
        stop.wait(1.0)

rows = []
def phase(name, addresses, idle, trickling):
    base_rss, base_fds = rss_mib(), fds()
    refused_before = metric("qatwatch_connections_refused_total")
    conns = []
    started = time.monotonic()
    for i in range(idle + trickling):
        try:
            conns.append(open_from(addresses[i % len(addresses)]))
        except OSError:
            pass
    t = threading.Thread(target=trickle, args=(conns[idle:],), daemon=True)
    stop.clear(); t.start()
    (post, post_max), (check, check_max) = probe(20)
    during_rss, during_fds = rss_mib(), fds()
    kept = held(conns, 0.5)
    closed_after = None
    # the collector closes idle and trickling connections at the header timeout
    deadline = time.monotonic() + header_timeout + 10
    while time.monotonic() < deadline:
        if held(conns, 0.5) == 0:
            closed_after = time.monotonic() - started
            break
    stop.set(); t.join()
    for s in conns:
        s.close()
    time.sleep(3)
    refused = metric("qatwatch_connections_refused_total") - refused_before
    (post2, _), _ = probe(3)
    # a full GC first: what stays on the heap after the flood is held, not garbage yet to be collected
    os.system(f"jcmd {pid} GC.run > /dev/null 2>&1")
    heap_mib = metric('jvm_memory_used_bytes{area="heap"}') / 1024 / 1024
    rows.append((name, idle + trickling, len(addresses), kept, int(refused), post, post_max, check,
                 check_max, closed_after if conns else None, base_rss, during_rss, rss_mib(), base_fds, during_fds, fds(),
                 post2, heap_mib))

for _ in range(50):       # warm up: the JIT and the store's first writes
    agent_post(); healthz()
phase("none (baseline)", ["127.0.0.2"], 0, 0)
phase("one address", ["127.0.0.2"], idle_n, trickle_n)
phase("50 addresses", [f"127.0.1.{i}" for i in range(1, 51)], idle_n, trickle_n)
phase(f"past the total ({max_connections} + 500)", [f"127.0.2.{i}" for i in range(1, 101)], max_connections + 500, 0)

print("| flood | connections | from addresses | held | refused | agent reports during | median / slowest | /healthz during | median / slowest | all closed after | RSS before → during → after | heap after GC | descriptors before → during → after | agent after |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | {r[7]} | {r[8]} | "
          f"{'-' if r[9] is None else f'{r[9]:.1f} s'} | {r[10]:.0f} → {r[11]:.0f} → {r[12]:.0f} MiB | {r[17]:.0f} MiB | "
          f"{r[13]} → {r[14]} → {r[15]} | {r[16]} |")
PY
