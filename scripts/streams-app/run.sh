#!/usr/bin/env bash
# Runs a real Kafka Streams 4.4.0 application (clients/streams-app, group.protocol=streams,
# exactly-once v2, one standby replica) through `streamspec proxy` in front of Kafka 4.4.0:
# three instances count words, one is stopped cleanly and one killed with SIGKILL while input
# flows, both come back and a fourth joins; the group must settle each time and the committed
# counts must equal what the input implies, exactly. Every client connects only to the proxy.
# The proxy is stopped while the four instances are members of the settled group, with
# --settled-at-exit: it judges from their last answers that every task is owned once (a group
# whose members had all left would not be judged); the instances are killed after it.
#
# Environment: STREAMSPEC_KAFKA (a broker to use; else Kafka 4.4.0 is started on APP_KAFKA_PORT,
# default 9492, and stopped at exit), APP_PROXY_PORT (9490), STREAMSPEC_BIN
# (./target/debug/streamspec), APP_PROXY_ARGS (more proxy flags), APP_TIMEOUT_S (bound on each
# wait, 120), APP_RECORDS (6000), APP_KEYS (23), APP_CAPTURE_DIR (where to keep the group's
# captured trace; by default it is removed with the run's files).
# After the run, the group's captured trace (every heartbeat and describe, the topics and group
# configs seen) is answered again by the reference coordinator: every answer must equal Kafka's
# under the differential equivalence (`streamspec replay --differential`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

PROXY_PORT="${APP_PROXY_PORT:-9490}"
KAFKA_PORT_OWN="${APP_KAFKA_PORT:-9492}"
TIMEOUT_S="${APP_TIMEOUT_S:-120}"
BIN="${STREAMSPEC_BIN:-./target/debug/streamspec}"
RECORDS="${APP_RECORDS:-6000}"
KEYS="${APP_KEYS:-23}"
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"
PARTITIONS=6

T0=$(date +%s)
log() { printf 'streams-app [%3ss] %s\n' "$(($(date +%s) - T0))" "$*"; }
# The reason is printed again after the logs at exit, so it ends the output however long they are.
FAILURE=""
die() { FAILURE=$*; log "FAILED: $*"; exit 1; }
# The proxy carries every client connection: its end ends the run.
proxy_alive() { kill -0 "$PROXY_PID" 2>/dev/null || die "the proxy exited: $(tail -n 5 "$WORK/proxy.log")"; }

[ -x "$BIN" ] || die "no streamspec binary at $BIN (cargo build -p streamspec, or set STREAMSPEC_BIN)"
WORK=$(mktemp -d /tmp/streamspec-streams-app-run.XXXXXX)
APP_ID="wordcount-$(date +%s)-$$"
declare -A INSTANCE_PID=()
PROXY_PID=""
PRODUCER_PID=""
STARTED_KAFKA=""

cleanup() {
  local rc=$?
  trap - EXIT
  for pid in "${INSTANCE_PID[@]}" $PRODUCER_PID $PROXY_PID; do
    kill -KILL "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    for file in "$WORK"/instance-*.log "$WORK"/instance-*.out "$WORK"/proxy.log; do
      [ -f "$file" ] || continue
      echo "---- last lines of $file"
      # Kafka's client logs say little at their end; the application's and the proxy's lines more.
      lines=25
      case $file in "$WORK"/instance-*.log) lines=8 ;; esac
      tail -n "$lines" "$file"
    done
    if [ -f "$WORK/failure-detail.txt" ]; then
      echo "---- why"
      cat "$WORK/failure-detail.txt"
    fi
    echo "streams-app: FAILED${FAILURE:+: $FAILURE}; the run's files stay in $WORK"
  else
    rm -rf "$WORK"
  fi
  if [ -n "$STARTED_KAFKA" ]; then
    KAFKA_PORT=$KAFKA_PORT_OWN scripts/kafka/stop.sh >/dev/null 2>&1 || true
  fi
  exit "$rc"
}
trap cleanup EXIT

CP=$(scripts/streams-app/build.sh) || die "no classpath for the application"

if [ -n "${STREAMSPEC_KAFKA:-}" ]; then
  UPSTREAM=$STREAMSPEC_KAFKA
else
  STARTED_KAFKA=1
  KAFKA_PORT=$KAFKA_PORT_OWN scripts/kafka/start.sh >"$WORK/kafka-start.log" 2>&1 ||
    { cat "$WORK/kafka-start.log"; die "Kafka did not start on port $KAFKA_PORT_OWN"; }
  UPSTREAM=127.0.0.1:$KAFKA_PORT_OWN
fi

# shellcheck disable=SC2086
# The proxy judges every heartbeat and describe of the real clients with the oracle (README,
# "Live checking"); a violation writes a trace to $WORK and fails the run at the end.
"$BIN" proxy --listen "127.0.0.1:$PROXY_PORT" --upstream "$UPSTREAM" --trace-dir "$WORK" \
  --json "$WORK/live.json" --capture --settled-at-exit ${APP_PROXY_ARGS:-} >"$WORK/proxy.log" 2>&1 &
PROXY_PID=$!
BOOTSTRAP=127.0.0.1:$PROXY_PORT
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PROXY_PORT") 2>/dev/null && break
  kill -0 "$PROXY_PID" 2>/dev/null || die "the proxy exited: $(cat "$WORK/proxy.log")"
  sleep 0.1
done
log "proxy $BOOTSTRAP -> $UPSTREAM; application $APP_ID; files in $WORK"

# Becomes one JVM (exec: started with &, its $! is the JVM's own pid, which signals reach); the
# application's own lines go to stdout, Kafka's logs to the named file.
exec_wordcount() {
  local log_file=$1 mode=$2
  shift 2
  exec "$JAVA" -Xmx256m -XX:+UseSerialGC -Dstreams.app.log="$log_file" -cp "$CP" \
    dev.streamspec.app.WordCount "$mode" --bootstrap "$BOOTSTRAP" --app-id "$APP_ID" "$@"
}
tool() { (exec_wordcount "$WORK/tools.log" "$@"); }

start_instance() {
  local n=$1
  exec_wordcount "$WORK/instance-$n.log" run --state-dir "$WORK/state-$n" >>"$WORK/instance-$n.out" 2>&1 &
  INSTANCE_PID[$n]=$!
  log "instance $n started (pid ${INSTANCE_PID[$n]})"
}

# Waits for a child to end, at most TIMEOUT_S; its exit status is left in EXIT_STATUS.
EXIT_STATUS=""
wait_exit() {
  local pid=$1 deadline=$(($(date +%s) + TIMEOUT_S))
  while kill -0 "$pid" 2>/dev/null; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
  EXIT_STATUS=0
  wait "$pid" || EXIT_STATUS=$?
}

settled() {
  local members=$1
  proxy_alive
  tool settled --members "$members" --partitions "$PARTITIONS" --timeout-s "$TIMEOUT_S" ||
    die "the group did not settle with $members members"
}

# Every client connection must go through the proxy: none of the instances may hold one to the
# broker's own address (as it would if a broker address in an answer reached it unrewritten).
only_through_proxy() {
  local upstream_port=${UPSTREAM##*:} pid
  command -v ss >/dev/null || die "ss (iproute2) is needed to see where the instances connect"
  for pid in "${INSTANCE_PID[@]}"; do
    if ss -Htnp state established "dport = :$upstream_port" 2>/dev/null | grep -q "pid=$pid,"; then
      ss -Htnp state established "dport = :$upstream_port" | grep "pid=$pid," || true
      die "an instance (pid $pid) is connected to the broker at $UPSTREAM directly"
    fi
  done
}

tool setup --partitions "$PARTITIONS" --standbys 1 || die "setup failed"
for n in 1 2 3; do start_instance "$n"; done
HALF=$((RECORDS / 2))
tool produce --from 0 --to "$HALF" --keys "$KEYS" --timeout-s "$TIMEOUT_S" || die "producing the first half failed"
settled 3
only_through_proxy
log "three instances settled"

# The second half flows while one instance leaves cleanly and one dies.
exec_wordcount "$WORK/tools.log" produce --from "$HALF" --to "$RECORDS" --keys "$KEYS" --rate 300 \
  --timeout-s "$TIMEOUT_S" &
PRODUCER_PID=$!
sleep 2
kill -TERM "${INSTANCE_PID[1]}"
wait_exit "${INSTANCE_PID[1]}" || die "instance 1 did not close within ${TIMEOUT_S} s of SIGTERM"
grep -q '^run: closed$' "$WORK/instance-1.out" || die "instance 1 exited ($EXIT_STATUS) without closing"
log "instance 1 closed on SIGTERM (exit $EXIT_STATUS)"
kill -KILL "${INSTANCE_PID[2]}"
wait_exit "${INSTANCE_PID[2]}" || die "instance 2 outlived SIGKILL"
log "instance 2 killed (exit $EXIT_STATUS)"
unset 'INSTANCE_PID[1]' 'INSTANCE_PID[2]'
for n in 1 2 4; do start_instance "$n"; done
wait_exit "$PRODUCER_PID" || die "the second half was not produced within ${TIMEOUT_S} s"
PRODUCER_PID=""
[ "$EXIT_STATUS" -eq 0 ] || die "producing the second half failed"
settled 4
only_through_proxy
log "four instances settled"

proxy_alive
tool verify --records "$RECORDS" --keys "$KEYS" --timeout-s "$TIMEOUT_S" || die "the counts are not exact"

# Still settled after the counts were read: the proxy stops on the settled group.
settled 4
# Ctrl-C ends the proxy: it judges the group settled from its four members' last answers,
# prints its report and exits 1 if the live traffic broke a property.
kill -INT "$PROXY_PID"
wait_exit "$PROXY_PID" || die "the proxy did not stop within ${TIMEOUT_S} s"
PROXY_PID=""
PROXY_STATUS=$EXIT_STATUS
# Without the proxy the instances can reach no broker: they are killed (instance 1 showed a
# clean close above).
for n in "${!INSTANCE_PID[@]}"; do kill -KILL "${INSTANCE_PID[$n]}"; done
for n in "${!INSTANCE_PID[@]}"; do
  wait_exit "${INSTANCE_PID[$n]}" || die "instance $n outlived SIGKILL"
  unset 'INSTANCE_PID[$n]'
done
grep -E 'PASSED|FAILED|NOTHING CHECKED' "$WORK/proxy.log" | tail -n 1 || true
[ "$PROXY_STATUS" -eq 0 ] || die "the live oracle found a violation in the real clients' traffic (exit $PROXY_STATUS; traces in $WORK)"
# Both must have been judged, not skipped: the group's tasks known from the topics' counts.
for property in 'always: assigned tasks exist in the topology' \
  'eventually: the group settles with every task owned once'; do
  grep -E "^$property +pass " "$WORK/proxy.log" || die "the proxy did not judge \"$property\" passed"
  # What it judged, from the JSON report: the reason line after the property's.
  awk -v label="\"scenario\": \"$property\"," 'index($0, label) { found = 1 }
    found && /"reason":/ { sub(/^ *"reason": /, ""); print "  " $0; exit }' "$WORK/live.json"
done
CAPTURED="$WORK/streamspec-capture-$APP_ID.json"
[ -f "$CAPTURED" ] || die "the proxy captured no trace of group $APP_ID"
if [ -n "${APP_CAPTURE_DIR:-}" ]; then
  mkdir -p "$APP_CAPTURE_DIR"
  cp "$CAPTURED" "$APP_CAPTURE_DIR"/
  log "captured trace kept in $APP_CAPTURE_DIR"
fi
"$BIN" replay "$CAPTURED" --differential >"$WORK/differential.txt" 2>&1 ||
  { # The first differences, then the times they are read against (the replay lists them last).
    awk '/^the shown exchanges/ { times = 1 } NR <= 40 || times' "$WORK/differential.txt" \
      >"$WORK/failure-detail.txt"
    die "the reference answered the captured traffic otherwise than Kafka (see $WORK/differential.txt)"; }
log "the reference answered the captured traffic as Kafka did: $(tail -n 1 "$WORK/differential.txt")"
proxy_errors=$(grep -c 'streamspec proxy: connection from' "$WORK/proxy.log" || true)
log "passed in $(($(date +%s) - T0)) s, no violation in the live traffic; connections the proxy ended on an error: $proxy_errors"
