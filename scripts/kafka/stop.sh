#!/usr/bin/env bash
# Stop the broker that start.sh started (same KAFKA_PORT / STREAMSPEC_KAFKA_HOME), then remove its
# data directory. SIGTERM (controlled shutdown), bounded wait, then SIGKILL. Succeeds if nothing runs.
set -euo pipefail

KAFKA_PORT="${KAFKA_PORT:-9092}"
KH="${STREAMSPEC_KAFKA_HOME:-/tmp/streamspec-kafka}"
RUN="$KH/broker-$KAFKA_PORT"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

log() { echo "kafka/stop.sh: $*" >&2; }

ours() {  # is $1 alive and the kafka.Kafka process started for this directory?
  kill -0 "$1" 2>/dev/null &&
    tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF "kafka.Kafka $RUN/server.properties"
}

PID=""
[ -f "$RUN/kafka.pid" ] && PID=$(cat "$RUN/kafka.pid" 2>/dev/null || true)
if [ -n "$PID" ] && ours "$PID"; then
  T0=$(date +%s%N)
  kill -TERM "$PID" 2>/dev/null || true
  for _ in $(seq $((STOP_TIMEOUT * 10))); do ours "$PID" || break; sleep 0.1; done
  if ours "$PID"; then
    log "broker (pid $PID) still running after ${STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$PID" 2>/dev/null || true
    for _ in $(seq 50); do ours "$PID" || break; sleep 0.1; done
    ours "$PID" && { log "ERROR: pid $PID survived SIGKILL"; exit 1; }
  fi
  echo "kafka on 127.0.0.1:$KAFKA_PORT stopped (pid $PID, $(( ($(date +%s%N) - T0) / 1000000 )) ms)"
else
  echo "kafka on 127.0.0.1:$KAFKA_PORT is not running"
fi
rm -f "$RUN/kafka.pid"
rm -rf "$RUN/data"
