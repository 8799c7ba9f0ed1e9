#!/usr/bin/env bash
# Start one real Apache Kafka broker (KRaft, combined broker+controller) on 127.0.0.1 with the
# Streams rebalance protocol (KIP-1071) usable, from Maven Central jars. Waits until it is ready.
# See README.md next to this file. Stop it with stop.sh (same environment variables).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_HOST=127.0.0.1
# One node of a cluster (cluster.sh sets these): its id, every controller of the quorum, the
# cluster id all nodes format with, and the replication factor of internal and default topics.
KAFKA_NODE_ID="${KAFKA_NODE_ID:-1}"
KAFKA_QUORUM_VOTERS="${KAFKA_QUORUM_VOTERS:-$KAFKA_NODE_ID@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT}"
KAFKA_REPLICATION_FACTOR="${KAFKA_REPLICATION_FACTOR:-1}"
KH="${STREAMSPEC_KAFKA_HOME:-/tmp/streamspec-kafka}"
RUN="$KH/broker-$KAFKA_PORT"
TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"
JAVAC="${JAVAC:-${JAVA_HOME:+$JAVA_HOME/bin/}javac}"
HEAP="${KAFKA_HEAP_OPTS:--Xms256m -Xmx1g}"

log() { echo "kafka/start.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
now() { date +%s; }
T0=$(now)

# major.minor of KAFKA_VERSION as one comparable number, e.g. 4.4.0 -> 404
IFS=. read -r V_MAJ V_MIN _ <<<"$KAFKA_VERSION"
VNUM=$((V_MAJ * 100 + V_MIN))
[ "$VNUM" -ge 401 ] || die "Kafka $KAFKA_VERSION has no Streams rebalance protocol (API 88 appears in 4.1)"

mkdir -p "$KH" "$RUN"

# ---- refuse to start twice / on a busy port ---------------------------------------------------
if [ -f "$RUN/kafka.pid" ]; then
  OLD=$(cat "$RUN/kafka.pid" 2>/dev/null || true)
  if [ -n "$OLD" ] && kill -0 "$OLD" 2>/dev/null && tr '\0' ' ' <"/proc/$OLD/cmdline" 2>/dev/null | grep -qF "kafka.Kafka $RUN/server.properties"; then
    die "a broker is already running for port $KAFKA_PORT (pid $OLD); run stop.sh first"
  fi
  rm -f "$RUN/kafka.pid"
fi
port_open() { (exec 3<>"/dev/tcp/$KAFKA_HOST/$1") 2>/dev/null; }
for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
  port_open "$p" && die "port $KAFKA_HOST:$p is already in use"
done

# ---- 1. classpath (resolved once per version with Maven, cached) -------------------------------
CP="$("$HERE/classpath.sh")" || die "no classpath for Kafka $KAFKA_VERSION"

# ---- 2. probe, compiled once per (version, Probe.java) ----------------------------------------
PROBE_SUM=$(cksum <"$HERE/Probe.java" | cut -d' ' -f1)
PROBE_DIR="$KH/probe-$KAFKA_VERSION-$PROBE_SUM"
if [ ! -f "$PROBE_DIR/Probe.class" ]; then
  rm -rf "$PROBE_DIR.tmp.$$" && mkdir -p "$PROBE_DIR.tmp.$$"
  if "$JAVAC" -nowarn -d "$PROBE_DIR.tmp.$$" -cp "$CP" "$HERE/Probe.java" >"$KH/javac.log" 2>&1; then
    # The nodes of a cluster start at once: the first rename wins, the others drop their copy.
    mv -T "$PROBE_DIR.tmp.$$" "$PROBE_DIR" 2>/dev/null || rm -rf "$PROBE_DIR.tmp.$$"
  else
    rm -rf "$PROBE_DIR.tmp.$$"
    log "javac failed (see $KH/javac.log); falling back to the source launcher"
    PROBE_DIR=""
  fi
fi
probe() {
  if [ -n "$PROBE_DIR" ]; then "$JAVA" -cp "$PROBE_DIR:$CP" Probe "$@"
  else "$JAVA" -cp "$CP" "$HERE/Probe.java" "$@"; fi
}

# ---- 3. config files ---------------------------------------------------------------------------
rm -rf "$RUN/data"
mkdir -p "$RUN/data"

cat >"$RUN/log4j2.properties" <<EOF
status = warn
name = streamspec-kafka
# keep logging until the JVM exits (otherwise log4j2's own hook cuts off Kafka's shutdown log)
shutdownHook = disable
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.target = SYSTEM_OUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = ${KAFKA_LOG_LEVEL:-INFO}
rootLogger.appenderRef.stdout.ref = STDOUT
logger.statechange.name = state.change.logger
logger.statechange.level = WARN
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.groupcoord.name = org.apache.kafka.coordinator.group
logger.groupcoord.level = ${KAFKA_GROUP_LOG_LEVEL:-INFO}
EOF

{
  cat <<EOF
# written by scripts/kafka/start.sh for Kafka $KAFKA_VERSION
process.roles=broker,controller
node.id=$KAFKA_NODE_ID
controller.quorum.voters=$KAFKA_QUORUM_VOTERS
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$RUN/data

# every internal topic with replication factor $KAFKA_REPLICATION_FACTOR (1 on a single node)
offsets.topic.replication.factor=$KAFKA_REPLICATION_FACTOR
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=$KAFKA_REPLICATION_FACTOR
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=$KAFKA_REPLICATION_FACTOR
share.coordinator.state.topic.min.isr=1
num.partitions=1
default.replication.factor=$KAFKA_REPLICATION_FACTOR
min.insync.replicas=1
auto.create.topics.enable=true

# small footprint
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1

# The group coordinator deletes every Empty group without committed offsets at its periodic
# offsets-retention check (every 10 minutes by default; seen on 4.2.2 between a leave and the next
# join of R37-empty-group-topology-replace-higher-epoch). Scenarios that leave their group empty and
# go on must not meet that deletion, so it runs daily here; the protocol reads no such config.
offsets.retention.check.interval.ms=86400000

EOF
  if [ "${KAFKA_PROFILE:-}" != stock ]; then
    cat <<EOF

# classic groups
group.initial.rebalance.delay.ms=0

# streams groups (KIP-1071), fast and deterministic for tests
group.streams.min.session.timeout.ms=1000
group.streams.session.timeout.ms=6000
group.streams.max.session.timeout.ms=60000
group.streams.min.heartbeat.interval.ms=100
group.streams.heartbeat.interval.ms=500
group.streams.max.heartbeat.interval.ms=15000
group.streams.num.standby.replicas=0
EOF
  fi
  if [ "$VNUM" -le 401 ]; then
    cat <<EOF
# 4.1: the Streams protocol is early access: API 88/89 and streams.version=1 are "unstable"
unstable.api.versions.enable=true
unstable.feature.versions.enable=true
EOF
  fi
  if [ "$VNUM" -ge 402 ] && [ "${KAFKA_PROFILE:-}" != stock ]; then
    echo "group.streams.initial.rebalance.delay.ms=0"
  fi
  if [ "$VNUM" -ge 403 ] && [ "${KAFKA_PROFILE:-}" != stock ]; then
    echo "group.streams.assignment.interval.ms=0"
    echo "group.streams.assignor.offload.enable=false"
  fi
  if [ "${KAFKA_PROFILE:-}" = stock ]; then
    cat <<EOF
# KAFKA_PROFILE=stock: Kafka's own defaults for every group and streams-group config (45 s
# sessions, 5 s heartbeats, 3 s initial rebalance delay, 1 s assignment interval), as on a broker
# nobody tuned for tests.
EOF
  elif [ "${KAFKA_PROFILE:-}" = restricted ]; then
    cat <<EOF
# KAFKA_PROFILE=restricted: small groups (R22, R51) and ACLs enforced (R18, R34, R47). Everything
# without an ACL stays allowed, so scenarios that set none behave as on the plain broker.
group.streams.max.size=2
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=true
EOF
  elif [ -n "${KAFKA_PROFILE:-}" ]; then
    die "unknown KAFKA_PROFILE=$KAFKA_PROFILE (known: stock, restricted)"
  fi
  if [ -n "${KAFKA_EXTRA_CONFIG:-}" ]; then
    echo "# KAFKA_EXTRA_CONFIG (later lines win)"
    printf '%s\n' "$KAFKA_EXTRA_CONFIG"
  fi
} >"$RUN/server.properties"

# ---- 4. format the KRaft storage ---------------------------------------------------------------
L4J="-Dlog4j2.configurationFile=$RUN/log4j2.properties"
# cluster id: 16 random bytes, base64url without padding (22 chars); must not start with '-'
# (KAFKA_CLUSTER_ID: the one every node of a cluster shares)
CID="${KAFKA_CLUSTER_ID:-}"
while [ -z "$CID" ] || [ "${CID:0:1}" = "-" ]; do
  CID=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
done
FORMAT_ARGS=(format -t "$CID" -c "$RUN/server.properties")
if [ "$VNUM" -le 401 ]; then FORMAT_ARGS+=(--release-version 4.1 --feature streams.version=1); fi
: >"$RUN/server.log"
log "formatting $RUN/data (cluster id $CID) ..."
if ! timeout "$TIMEOUT" "$JAVA" $L4J -cp "$CP" kafka.tools.StorageTool "${FORMAT_ARGS[@]}" >"$RUN/format.log" 2>&1; then
  tail -n 50 "$RUN/format.log" >&2
  die "kafka.tools.StorageTool format failed (log: $RUN/format.log)"
fi

# ---- 5. start in the background ----------------------------------------------------------------
T_START=$(now)
# setsid: own session, so Ctrl-C / SIGHUP of the caller does not reach the broker; stop.sh does.
# shellcheck disable=SC2086
setsid bash -c 'echo $$ >"$1/kafka.pid"; shift; exec "$@"' _ "$RUN" \
  "$JAVA" $HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
  -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true $L4J -Dkafka.logs.dir="$RUN" \
  -cp "$CP" kafka.Kafka "$RUN/server.properties" \
  </dev/null >>"$RUN/server.log" 2>&1 &
for _ in $(seq 50); do [ -s "$RUN/kafka.pid" ] && break; sleep 0.1; done
PID=$(cat "$RUN/kafka.pid" 2>/dev/null || true)
[ -n "$PID" ] || die "could not start the broker (no pid file)"

fail() {
  log "ERROR: $*"
  log "last 50 lines of $RUN/server.log:"
  tail -n 50 "$RUN/server.log" >&2
  if kill -0 "$PID" 2>/dev/null; then
    log "killing the broker (pid $PID)"
    kill -TERM "$PID" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PID" 2>/dev/null || true
  fi
  rm -f "$RUN/kafka.pid"
  exit 1
}

# ---- 6. wait until it really answers -----------------------------------------------------------
DEADLINE=$((T_START + TIMEOUT))
until port_open "$KAFKA_PORT"; do
  kill -0 "$PID" 2>/dev/null || fail "broker process $PID exited during startup"
  [ "$(now)" -lt "$DEADLINE" ] || fail "timed out after ${TIMEOUT}s waiting for $KAFKA_HOST:$KAFKA_PORT to accept connections"
  sleep 0.2
done
LEFT=$(( (DEADLINE - $(now)) * 1000 ))
[ "$LEFT" -gt 1000 ] || LEFT=1000
set +e
probe "$KAFKA_HOST:$KAFKA_PORT" --timeout-ms "$LEFT" --pid "$PID" >"$RUN/probe.out" 2>"$RUN/probe.err"
RC=$?
set -e
cat "$RUN/probe.out" >&2
case $RC in
  0) ;;
  1) cat "$RUN/probe.err" >&2; fail "timed out after ${TIMEOUT}s waiting for the broker to be ready" ;;
  2) cat "$RUN/probe.err" >&2; fail "the broker runs but the Streams protocol is not usable" ;;
  3) cat "$RUN/probe.err" >&2; fail "broker process $PID exited during startup" ;;
  *) cat "$RUN/probe.err" >&2; fail "readiness probe failed (exit $RC)" ;;
esac
echo "kafka $KAFKA_VERSION ready at $KAFKA_HOST:$KAFKA_PORT (pid $PID, controller $KAFKA_HOST:$KAFKA_CONTROLLER_PORT, dir $RUN, $(( $(now) - T0 ))s)"
