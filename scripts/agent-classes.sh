#!/usr/bin/env bash
# Counts the classes the agent daemon loads (-Xlog:class+load), with the launcher's agent JVM options, over a short
# run: host probe every 10 s and one SQL Server, the project's TDS test server answering as SQL Server 2022 with a
# msdb of CLASSES_SQL_ROWS backup rows (default 1000). The collector URL points at a closed port, so reports wait in
# the outbox and every delivery attempt fails: the HTTP client's classes load as they do against a collector.
# Prints the total and the largest groups (the first three parts of the package). A measurement, not a benchmark:
# needs the jars and test classes of `mvn -pl agent -am package -DskipTests` (built first when missing).
#   scripts/agent-classes.sh            CLASSES_SECONDS=45 by default
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SECONDS_RUN="${CLASSES_SECONDS:-45}"
ROWS="${CLASSES_SQL_ROWS:-1000}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
AGENT_JAR="$ROOT/agent/target/qatwatch-agent-all.jar"
eval "$(sed -n '/^AGENT_JAVA_OPTS_DEFAULT=/,/"$/p' "$ROOT/qatwatch")"
if [ ! -f "$AGENT_JAR" ] || [ ! -d "$ROOT/agent/target/test-classes" ]; then
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests -pl agent -am package >&2)
fi
WORK="$(mktemp -d)"
SQL_PID=""
trap '[ -n "$SQL_PID" ] && kill "$SQL_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
"$JAVA" -Xmx256m -cp "$ROOT/agent/target/test-classes:$ROOT/tds-test-server/target/classes:$AGENT_JAR" \
  io.qatwatch.agent.probe.sqlserver.FootprintSqlServer "$ROWS" "$WORK/sql" > "$WORK/sql.out" 2> "$WORK/sql.log" &
SQL_PID=$!
for _ in $(seq 1 120); do [ -f "$WORK/sql.out" ] && [ "$(wc -l < "$WORK/sql.out")" -ge 3 ] && break; sleep 0.5; done
mapfile -t SQL < "$WORK/sql.out"
echo "classes-0123456789abcdefghijklmnopqrstuv" > "$WORK/agent.token"
cat > "$WORK/agent.yaml" <<YAML
agent:
  name: classes
collector:
  url: http://127.0.0.1:9
  tokenFile: agent.token
schedule:
  host: 10s
sqlserver:
  instances:
    - name: PROD
      jdbcUrl: '${SQL[0]}'
      user: ${SQL[1]}
      passwordFile: '${SQL[2]}'
YAML
chmod 600 "$WORK/agent.yaml" "$WORK/agent.token"
# shellcheck disable=SC2086
timeout "$SECONDS_RUN" "$JAVA" $AGENT_JAVA_OPTS_DEFAULT -Xlog:class+load=info:file="$WORK/classes.log" \
  -jar "$AGENT_JAR" agent --config "$WORK/agent.yaml" --data "$WORK/agent" > "$WORK/agent.log" 2>&1 || true
grep -q "SQL Server instance(s)" "$WORK/agent.log" || { cat "$WORK/agent.log" >&2; exit 1; }
echo "classes loaded: $(grep -c '\[class,load\]' "$WORK/classes.log")"
grep -oE '\] [A-Za-z0-9_$.]+ source' "$WORK/classes.log" | awk '{print $2}' | sed -E 's/\.[^.]+$//' \
  | awk -F. '{print (NF >= 3 ? $1"."$2"."$3 : $0)}' | sort | uniq -c | sort -rn | head -"${CLASSES_GROUPS:-20}"
