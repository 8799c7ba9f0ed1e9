#!/usr/bin/env bash
# Start or stop three real Kafka nodes on 127.0.0.1 as one cluster: each a combined
# broker+controller started by start.sh (same test profile), the three controllers one KRaft
# quorum. Nodes listen on KAFKA_CLUSTER_PORT, +2 and +4, their controllers one port above each.
#   scripts/kafka/cluster.sh start   # prints the bootstrap address and a group's coordinator
#   scripts/kafka/cluster.sh stop
# See README.md next to this file.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BASE="${KAFKA_CLUSTER_PORT:-9500}"
KAFKA_HOST=127.0.0.1
KH="${STREAMSPEC_KAFKA_HOME:-/tmp/streamspec-kafka}"
TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
NODES=(1 2 3)
# Every node formats its storage with this id (16 bytes, base64url): the data is wiped on each
# start, so one fixed id serves every run.
CLUSTER_ID=c3RyZWFtc3BlYy1jbHVzdA

log() { echo "kafka/cluster.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
node_port() { echo $((BASE + 2 * ($1 - 1))); }

stop_all() {
  local pids=() node
  for node in "${NODES[@]}"; do
    KAFKA_PORT=$(node_port "$node") "$HERE/stop.sh" &
    pids+=($!)
  done
  local failed=0 pid
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return $failed
}

start_all() {
  local voters="" node
  for node in "${NODES[@]}"; do
    voters+="${voters:+,}$node@$KAFKA_HOST:$(($(node_port "$node") + 1))"
  done
  # Resolved once here, so the three starts below do not each run Maven.
  KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}" "$HERE/classpath.sh" >/dev/null || die "no classpath"
  mkdir -p "$KH/cluster-$BASE"
  # A node is ready only once a quorum of controllers has elected a leader and
  # __consumer_offsets (replicated on all three) is loaded: the three must start together.
  local pids=() failed=0 i
  for node in "${NODES[@]}"; do
    KAFKA_PORT=$(node_port "$node") KAFKA_NODE_ID=$node KAFKA_QUORUM_VOTERS=$voters \
      KAFKA_CLUSTER_ID=$CLUSTER_ID KAFKA_REPLICATION_FACTOR=${#NODES[@]} \
      KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms128m -Xmx512m}" \
      KAFKA_EXTRA_CONFIG="$(cluster_config)${KAFKA_EXTRA_CONFIG:+$'\n'$KAFKA_EXTRA_CONFIG}" \
      "$HERE/start.sh" >"$KH/cluster-$BASE/node-$node.out" 2>"$KH/cluster-$BASE/node-$node.err" &
    pids+=($!)
  done
  for i in "${!NODES[@]}"; do
    if ! wait "${pids[$i]}"; then
      failed=1
      log "node ${NODES[$i]} did not start; its start.sh said:"
      tail -n 60 "$KH/cluster-$BASE/node-${NODES[$i]}.err" >&2
    fi
  done
  if [ "$failed" -ne 0 ]; then
    stop_all >&2 || true
    die "the cluster on $KAFKA_HOST:$BASE did not start"
  fi
  cat "$KH/cluster-$BASE"/node-*.out
}

# Settings only a cluster needs, before any KAFKA_EXTRA_CONFIG of the caller (later lines win).
cluster_config() {
  cat <<EOF
# three partitions of __consumer_offsets, led by different nodes: groups get different
# coordinators, and a group's coordinator is often not the broker a client bootstraps from
offsets.topic.num.partitions=3
EOF
}

case "${1:-}" in
  start)
    T0=$(date +%s)
    start_all
    BOOTSTRAP=""
    for node in "${NODES[@]}"; do BOOTSTRAP+="${BOOTSTRAP:+,}$KAFKA_HOST:$(node_port "$node")"; done
    CP="$(KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}" "$HERE/classpath.sh")"
    PROBE_DIR=$(ls -d "$KH/probe-${KAFKA_VERSION:-4.4.0}-$(cksum <"$HERE/Probe.java" | cut -d' ' -f1)" 2>/dev/null || true)
    PROBE_CP="${PROBE_DIR:+$PROBE_DIR:}$CP"
    PROBE_MAIN=Probe
    [ -n "$PROBE_DIR" ] || PROBE_MAIN="$HERE/Probe.java"
    if ! COORDINATOR=$("${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}" -cp "$PROBE_CP" "$PROBE_MAIN" \
        "$KAFKA_HOST:$BASE" --coordinator --timeout-ms $((TIMEOUT * 1000)) 2>&1 | grep '^coordinator '); then
      stop_all >&2 || true
      die "no group coordinator found through $KAFKA_HOST:$BASE"
    fi
    echo "kafka cluster ready: bootstrap $BOOTSTRAP ($(( $(date +%s) - T0 ))s)"
    echo "$COORDINATOR (the probe asked $KAFKA_HOST:$BASE)"
    ;;
  stop)
    stop_all
    ;;
  *)
    echo "usage: $0 start|stop   (env KAFKA_CLUSTER_PORT, default 9500)" >&2
    exit 64
    ;;
esac
