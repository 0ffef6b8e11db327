#!/usr/bin/env bash
# Benchmark from outside, as a user sees it: starts the packaged platform (./platform, its own data folder
# under /tmp and free ports), and from a separate Node.js process makes a webhook to a receiver on 127.0.0.1
# and an automation on CREATE_ARTIFACT, creates objects with the tracing-service's POST /obj/create at a
# steady rate (100/s, then 200/s, after a warm-up) and measures each from the create request's send to the
# webhook POST's arrival, next to the baselines (the raw /obj/create latency; the receiver POSTed directly)
# and checks nothing is lost or duplicated. Stops the platform at the end. Exit 0 on PASS (p99 ≤ 100 ms at
# the highest rate), 2 on FAIL. Stage shares come from the services' timestamps when psql is on the PATH.
# Options (-D…, or the environment variable in brackets):
#   -Dbench.replicas=N   automation-service replicas (REPLICAS, 1): the launcher's one and N-1 more, started
#                        with its command line and environment on other ports, one consumer group
#   -Dbench.ingest=N     trace ingest beside it, calls/s through calls/complete from its own process (INGEST_CALLS_S,
#                        500; 0 for none)
#   -Dbench.rates=…      (RATES, 100,200; 200,400 with two replicas or more) -Dbench.duration=S (DURATION_S, 20)
#   -Dbench.warmup=S     (WARMUP_S, 10) -Dbench.target-p99=MS (TARGET_P99_MS, 100)
#   -Dbench.home=DIR     run the platform built in DIR (a copy of another commit with its jars) with this load
#                        generator, for a baseline of older code in the same session (PLATFORM_HOME)
set -euo pipefail
bench_dir=$(cd "$(dirname "$0")" && pwd)
for arg in "$@"; do
  case "$arg" in
    -Dbench.replicas=*) REPLICAS=${arg#*=} ;;
    -Dbench.ingest=*) INGEST_CALLS_S=${arg#*=} ;;
    -Dbench.rates=*) RATES=${arg#*=} ;;
    -Dbench.duration=*) DURATION_S=${arg#*=} ;;
    -Dbench.warmup=*) WARMUP_S=${arg#*=} ;;
    -Dbench.target-p99=*) TARGET_P99_MS=${arg#*=} ;;
    -Dbench.home=*) PLATFORM_HOME=${arg#*=} ;;
    *) echo "unknown option $arg (see the head of $0)"; exit 1 ;;
  esac
done
REPLICAS=${REPLICAS:-1}
INGEST_CALLS_S=${INGEST_CALLS_S:-500}
if [ "$REPLICAS" -gt 1 ]; then RATES=${RATES:-200,400}; fi
export RATES DURATION_S WARMUP_S TARGET_P99_MS
cd "${PLATFORM_HOME:-$bench_dir/../..}"
for jar in local-stack/target/local-stack.jar \
           {tracing-service,inference-gateway,training-service,automation-service,console}/target/quarkus-app/quarkus-run.jar; do
  [ -f "$jar" ] || { echo "$jar is missing: build first (mvn -B -DskipTests package)"; exit 1; }
done
source "$bench_dir/../../local-stack/scripts/temporary-platform.sh"
# A loaded machine starts the platform slowly: at load 50-67 the tracing-service's Flyway waited more than the default 5 s
# for its first JDBC connection and the start failed.
export PLATFORM_START_TIMEOUT_S=${PLATFORM_START_TIMEOUT_S:-900} PLATFORM_READY_TIMEOUT_S=${PLATFORM_READY_TIMEOUT_S:-600} \
  QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT=${QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT:-120S} \
  QUARKUS_DATASOURCE_IDENTITY_JDBC_ACQUISITION_TIMEOUT=${QUARKUS_DATASOURCE_IDENTITY_JDBC_ACQUISITION_TIMEOUT:-120S}
start_platform
echo "platform from $(pwd) ($(git rev-parse --short HEAD 2>/dev/null || cat .bench-commit 2>/dev/null || echo 'unknown commit'))"

# More automation-service replicas: the launcher's command line and environment, another HTTP port.
replicas=()
if [ "$REPLICAS" -gt 1 ]; then
  first=$(service_pid automation-service)
  mapfile -d '' -t command < "/proc/$first/cmdline"
  mapfile -d '' -t environment < "/proc/$first/environ"
  read -r -a extra_ports < <(free_ports $((REPLICAS - 1)))
  for port in "${extra_ports[@]}"; do
    env -i "${environment[@]}" QUARKUS_HTTP_PORT="$port" "${command[@]}" > "$data/logs/automation-service-$port.log" 2>&1 &
    replicas+=($!)
  done
  for port in "${extra_ports[@]}"; do
    deadline=$(( $(date +%s) + 180 ))
    until curl -sf "http://localhost:$port/q/health/ready" > /dev/null; do
      [ "$(date +%s)" -lt "$deadline" ] || fail "automation-service replica on port $port not ready within 180 s"
      sleep 0.5
    done
  done
  echo "automation-service: $REPLICAS replicas (ports ${ports[6]} ${extra_ports[*]}), one consumer group"
fi

ingest=
if [ "$INGEST_CALLS_S" -gt 0 ]; then
  CALLS_S=$INGEST_CALLS_S node "$bench_dir/trace-ingest.mjs" &
  ingest=$!
  echo "trace ingest beside it: $INGEST_CALLS_S calls/s asked through calls/complete (pid $ingest)"
fi

status=0
PG_PORT=${ports[0]} node "$bench_dir/from-source.mjs" || status=$?
if [ -n "$ingest" ]; then kill -TERM "$ingest"; wait "$ingest" || true; fi
for pid in "${replicas[@]}"; do kill -TERM "$pid"; done
for pid in "${replicas[@]}"; do wait "$pid" || true; done
[ "$status" -le 2 ] || fail "the load generator failed (exit $status)"
stop_platform
exit "$status"
