#!/usr/bin/env bash
# The gateway as users measure it, from outside, in one run on one machine: the same fixed-answer upstream
# (upstream.mjs, its own process) reached directly, through Portkey's open-source gateway (npm, its own
# process) and through our gateway (the packaged quarkus-run.jar in its own JVM, started with the JVM options
# and the environment ./platform gives it: API-key auth against the platform's PostgreSQL, usage records to its
# Kafka, per-project limits on). Load from separate processes: autocannon for the non-streamed throughput runs,
# probe.mjs where sub-millisecond latencies or the first chunk of a stream are timed.
#
# Needs the platform running (./platform) for PostgreSQL, Kafka and the dev key, and the project built
# (mvn -DskipTests package). Installs autocannon and Portkey under bench/node_modules on first use.
# Usage (from anywhere): inference-gateway/bench/side-by-side.sh [seconds per run, default 10]
# Environment: DATA_DIR (./platform --data-dir, default .local-data), POSTGRES_PORT (15432), KAFKA_PORT (19092),
# WARMUP_SECONDS (30: the non-streamed warm-up of each target; the streamed one takes half).
# Prints every figure next to its baselines, then the issue's targets with a verdict each; exit 1 when a
# request was lost or failed, or the usage records do not add up.
set -uo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH/../.." && pwd)
SECONDS_PER_RUN=${1:-10}
DATA_DIR=${DATA_DIR:-$ROOT/.local-data}
POSTGRES_PORT=${POSTGRES_PORT:-15432}
KAFKA_PORT=${KAFKA_PORT:-19092}
UPSTREAM_PORT=${UPSTREAM_PORT:-9931}
PORTKEY_PORT=${PORTKEY_PORT:-8797}
GATEWAY_PORT=${GATEWAY_PORT:-8191}
[ -x "$BENCH/node_modules/.bin/autocannon" ] || (cd "$BENCH" && npm ci --no-audit --no-fund >/dev/null) || exit 2

LOGS=$(mktemp -d /tmp/gateway-bench.XXXXXX)
RESULTS=$LOGS/results.jsonl
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

PORT=$UPSTREAM_PORT node "$BENCH/upstream.mjs" >"$LOGS/upstream.log" 2>&1 & pids+=($!)
(cd "$BENCH" && exec node node_modules/@portkey-ai/gateway/build/start-server.js --port="$PORTKEY_PORT" --headless \
  >"$LOGS/portkey.log" 2>&1) & pids+=($!)
# ./platform's environment for the gateway; the limits are on, set high enough that the load itself is not refused.
source "$BENCH/packaged-gateway.sh"
start_packaged_gateway -Dgateway.upstreams.fast.url=http://127.0.0.1:$UPSTREAM_PORT/v1 -Dgateway.upstreams.fast.model=m \
  -Dgateway.limits.concurrent-requests-per-project=256 -Dgateway.limits.requests-per-minute=1000000000 \
  -Dgateway.limits.tokens-per-minute=1000000000000
GATEWAY_PID=${pids[-1]}
for _ in $(seq 60); do curl -s -o /dev/null -m 2 "localhost:$PORTKEY_PORT/" && break; sleep 1; done

BODY='{"model":"fast","messages":[{"role":"user","content":"hi"}],"max_tokens":8}'
STREAM_BODY='{"model":"fast","messages":[{"role":"user","content":"hi"}],"max_tokens":8,"stream":true}'
RUN_ID=$(date +%s)
DIRECT=http://127.0.0.1:$UPSTREAM_PORT/v1/chat/completions
PORTKEY=http://localhost:$PORTKEY_PORT/v1/chat/completions
OURS=http://localhost:$GATEWAY_PORT/v1/chat/completions
PORTKEY_HEADERS=("x-portkey-provider: openai" "x-portkey-custom-host: http://127.0.0.1:$UPSTREAM_PORT/v1" "authorization: Bearer x")
# each scenario's requests are attributed to their own project, so its usage records can be counted exactly
project_of() { echo "dev/bench-$RUN_ID-$(echo "$1" | tr -c 'a-z0-9\n' '-')"; }
ours_headers() { echo "authorization: Bearer $KEY"; echo "Compat-Project: $(project_of "$1")"; }

# CPU time (clock ticks) so far of our gateway, and of the rest of the platform that each of its requests keeps busy
# (PostgreSQL, Kafka, the platform's services: the tracing-service records every request as a call).
cpu_ticks() { local total=0 pid stat; for pid in "$@"; do
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue; read -r -a fields <<<"${stat##*) }"
  total=$((total + fields[11] + fields[12])); done; echo "$total"; }
cpu_snapshot() {
  echo "$(cpu_ticks "$GATEWAY_PID") $(cpu_ticks $(pgrep -f 'quarkus-run.jar|kafka.Kafka|postgres' | grep -vx "$GATEWAY_PID"))"
}
# measured RUNNER ARGS...: runs a run of ours, which prints one JSON line, and records that line with the CPU per
# answered request of the gateway and of the rest of the platform, to tell where a change moved the cost
measured() {
  local before line; before=$(cpu_snapshot); line=$("$@")
  echo "$line" | node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => { const r = JSON.parse(s);
    const [before, after, tick] = process.argv.slice(1); const perRequest = (i) => r.ok > 0
      ? Math.round((Number(after.split(" ")[i]) - Number(before.split(" ")[i])) * 1e6 / Number(tick) / r.ok) : null;
    console.log(JSON.stringify({ ...r, gatewayCpuUs: perRequest(0), platformCpuUs: perRequest(1) })) })' \
    "$before" "$(cpu_snapshot)" "$(getconf CLK_TCK)" >>"$RESULTS"
}
# autocannon SCENARIO TARGET CONNECTIONS URL BODY HEADERS...: a closed-loop throughput run, one JSON line
autocannon_run() {
  local scenario=$1 target=$2 connections=$3 url=$4 body=$5; shift 5
  local args=(); for header in "$@"; do args+=(-H "$header"); done
  "$BENCH/node_modules/.bin/autocannon" -j -c "$connections" -d "$SECONDS_PER_RUN" -m POST -H 'content-type: application/json' \
    "${args[@]}" -b "$body" "$url" 2>/dev/null | node -e '
      let s = ""; process.stdin.on("data", d => s += d).on("end", () => { const r = JSON.parse(s);
      console.log(JSON.stringify({ scenario: process.argv[1], target: process.argv[2], rps: Math.round(r.requests.average),
        ok: r["2xx"], p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts })) })' \
      "$scenario" "$target"
}
# probe SCENARIO TARGET CONNECTIONS URL BODY HEADERS...: the same with sub-millisecond and first-chunk timing
probe_run() {
  local scenario=$1 target=$2 connections=$3 url=$4 body=$5; shift 5
  EXPECTED_CHUNKS=$([[ $body == *'"stream":true'* ]] && echo 16) node "$BENCH/probe.mjs" "$url" "$connections" "$SECONDS_PER_RUN" "$body" "$@" |
    node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => console.log(JSON.stringify(
      { scenario: process.argv[1], target: process.argv[2], ...JSON.parse(s) })))' "$scenario" "$target"
}
# one scenario: direct, Portkey and ours back to back
scenario() {
  local runner=$1 name=$2 connections=$3 body=$4
  mapfile -t ours < <(ours_headers "$name")
  $runner "$name" direct "$connections" "$DIRECT" "$body" >>"$RESULTS"
  $runner "$name" portkey "$connections" "$PORTKEY" "$body" "${PORTKEY_HEADERS[@]}" >>"$RESULTS"
  measured $runner "$name" ours "$connections" "$OURS" "$body" "${ours[@]}"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); logs in $LOGS"
# Warm-up: every target serves the paths it is measured on before any figure is taken, long enough for the
# JVM's optimising compiler to finish with ours (about 30 s of load on two cores; the first 10 s ran at a third
# of the warm rate) and for V8's with the Node.js processes. Figures are of services that have been running.
measured_seconds=$SECONDS_PER_RUN
SECONDS_PER_RUN=${WARMUP_SECONDS:-30}
scenario autocannon_run warm-up 20 "$BODY"
SECONDS_PER_RUN=$(( (SECONDS_PER_RUN + 1) / 2 ))
scenario probe_run warm-up-stream 20 "$STREAM_BODY"
SECONDS_PER_RUN=$measured_seconds
: >"$RESULTS"
scenario autocannon_run "non-streamed c=20" 20 "$BODY"
scenario probe_run "non-streamed c=1" 1 "$BODY"
scenario autocannon_run "non-streamed c=64" 64 "$BODY"
scenario probe_run "streamed c=20" 20 "$STREAM_BODY"
scenario probe_run "streamed c=1" 1 "$STREAM_BODY"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# usage records: every answered request of ours has exactly one, counted by the gateway from Kafka; the totals
# are read once they stopped growing (the consumer catches up after the load)
usage=$LOGS/usage.jsonl
read_usage() {
  : >"$usage"
  for name in "non-streamed c=20" "non-streamed c=1" "non-streamed c=64" "streamed c=20" "streamed c=1"; do
    curl -s "localhost:$GATEWAY_PORT/v1/usage?project=$(project_of "$name")" -H "authorization: Bearer $KEY" |
      node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => console.log(JSON.stringify(
        { scenario: process.argv[1], usage: JSON.parse(s) })))' "$name" >>"$usage"
  done
}
previous=
for _ in $(seq 60); do
  sleep 2; read_usage
  current=$(cat "$usage"); [ "$current" = "$previous" ] && break; previous=$current
done
node "$BENCH/report.mjs" "$RESULTS" "$usage"
