#!/usr/bin/env bash
# The gateway as users measure it, from outside, in one run on one machine: the same fixed-answer upstream
# (upstream.mjs, its own process) reached directly, through Portkey's open-source gateway (npm, its own
# process) and through our gateway (the packaged quarkus-run.jar in its own JVM, started with the JVM options
# and the environment ./platform gives it: API-key auth against the platform's PostgreSQL, usage records to its
# Kafka, per-project limits on). Load from separate processes: autocannon for the non-streamed throughput runs,
# probe.mjs where sub-millisecond latencies or the first chunk of a stream are timed. Beside our chat path, in the
# same scenarios, our Responses API path: POST /v1/responses relayed to an upstream that speaks it (upstream.mjs's
# /v1/responses, the same fixed answer) and translated into a chat completion for the chat-only upstream.
# The CPU each target spends per answered request comes from /proc (utime+stime before and after each run): our
# gateway's JVM, the rest of our platform (PostgreSQL, Kafka and the services of the ./platform run whose data is in
# DATA_DIR: the tracing-service records every request as a call) and Portkey's Node.js process.
#
# Needs the platform running (./platform) for PostgreSQL, Kafka and the dev key, and the project built
# (mvn -DskipTests package). Installs autocannon and Portkey under bench/node_modules on first use.
# Usage (from anywhere): inference-gateway/bench/side-by-side.sh [seconds per run, default 10]
# Environment: DATA_DIR (./platform --data-dir, default .local-data), POSTGRES_PORT (15432), KAFKA_PORT (19092),
# WARMUP_SECONDS (30: the non-streamed warm-up of each target; the streamed one takes half).
# Prints every figure next to its baselines, then the issues' targets with a verdict each; exit 1 when a
# request was lost or failed, or the usage records do not add up. On a shared machine every figure is noisy:
# compare within one run, through the ratios printed.
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
PORTKEY_PID=${pids[-1]}
# ./platform's environment for the gateway; the limits are on, set high enough that the load itself is not refused.
source "$BENCH/packaged-gateway.sh"
start_packaged_gateway -Dgateway.upstreams.fast.url=http://127.0.0.1:$UPSTREAM_PORT/v1 -Dgateway.upstreams.fast.model=m \
  -Dgateway.upstreams.fast-responses.url=http://127.0.0.1:$UPSTREAM_PORT/v1 -Dgateway.upstreams.fast-responses.model=m \
  -Dgateway.upstreams.fast-responses.wire=responses \
  -Dgateway.limits.concurrent-requests-per-project=256 -Dgateway.limits.requests-per-minute=1000000000 \
  -Dgateway.limits.tokens-per-minute=1000000000000
GATEWAY_PID=${pids[-1]}
for _ in $(seq 60); do curl -s -o /dev/null -m 2 "localhost:$PORTKEY_PORT/" && break; sleep 1; done

BODY='{"model":"fast","messages":[{"role":"user","content":"hi"}],"max_tokens":8}'
STREAM_BODY='{"model":"fast","messages":[{"role":"user","content":"hi"}],"max_tokens":8,"stream":true}'
# what Codex sends: store false (a stored response adds a PostgreSQL insert)
RESPONSES_BODY='{"model":"fast-responses","input":"hi","max_output_tokens":8,"store":false}'
TRANSLATED_BODY='{"model":"fast","input":"hi","max_output_tokens":8,"store":false}'
RUN_ID=$(date +%s)
DIRECT=http://127.0.0.1:$UPSTREAM_PORT/v1/chat/completions
PORTKEY=http://localhost:$PORTKEY_PORT/v1/chat/completions
OURS=http://localhost:$GATEWAY_PORT/v1/chat/completions
OURS_RESPONSES=http://localhost:$GATEWAY_PORT/v1/responses
PORTKEY_HEADERS=("x-portkey-provider: openai" "x-portkey-custom-host: http://127.0.0.1:$UPSTREAM_PORT/v1" "authorization: Bearer x")
# each scenario's requests of each of our paths are attributed to their own project, so that their usage records
# can be counted exactly
project_of() { echo "dev/bench-$RUN_ID-$(echo "$1-$2" | tr -c 'a-z0-9\n' '-')"; }
ours_headers() { echo "authorization: Bearer $KEY"; echo "Compat-Project: $(project_of "$1" "$2")"; }
streamed_body() { echo "${1%\}},\"stream\":true}"; }

# CPU time (clock ticks) so far of the given processes
cpu_ticks() { local total=0 pid stat; for pid in "$@"; do
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue; read -r -a fields <<<"${stat##*) }"
  total=$((total + fields[11] + fields[12])); done; echo "$total"; }
# the rest of our platform: the ./platform process started in this checkout (its working directory), everything it
# started, and what runs on DATA_DIR (PostgreSQL's server processes); never another checkout's processes
platform_pids() {
  local stacks pid children=() all=()
  stacks=$(for pid in $(pgrep -f local-stack.jar); do
    [ "$(readlink "/proc/$pid/cwd")" = "$ROOT" ] && echo "$pid"; done)
  all=($stacks)
  while [ ${#all[@]} -gt 0 ]; do
    children=($(for pid in "${all[@]}"; do pgrep -P "$pid"; done))
    printf '%s\n' "${all[@]}"; all=("${children[@]}")
  done
  pgrep -f "$DATA_DIR"
}
cpu_snapshot() {  # cpu_snapshot PID: that process's ticks, then the rest of the platform's (our runs only)
  if [ "$1" = "$GATEWAY_PID" ]; then
    echo "$(cpu_ticks "$GATEWAY_PID") $(cpu_ticks $(platform_pids | sort -u | grep -vx "$GATEWAY_PID"))"
  else
    echo "$(cpu_ticks "$1") 0"
  fi
}
# settle PID: returns once the process PID and, for our gateway, the rest of the platform are idle again (under a
# fifth of a core for a second, at most a minute): the usage records of a run are consumed after its last answer (by
# the gateway's totals and the tracing-service), and that work belongs to the run, not to the next one
settle() {
  local before after
  for _ in $(seq 60); do
    before=$(cpu_snapshot "$1"); sleep 1; after=$(cpu_snapshot "$1")
    [ $(( ${after% *} + ${after#* } - ${before% *} - ${before#* } )) -le $(( $(getconf CLK_TCK) / 5 )) ] && return
  done
}
# measured PID RUNNER ARGS...: runs a run, which prints one JSON line, and records that line with the CPU per
# answered request of the process PID (our gateway, Portkey) and, for ours, of the rest of the platform, counted
# until the work the run caused is done
measured() {
  local pid=$1 before line; shift; settle "$pid"; before=$(cpu_snapshot "$pid"); line=$("$@"); settle "$pid"
  echo "$line" | node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => { const r = JSON.parse(s);
    const [before, after, tick, ours] = process.argv.slice(1); const perRequest = (i) => r.ok > 0
      ? Math.round((Number(after.split(" ")[i]) - Number(before.split(" ")[i])) * 1e6 / Number(tick) / r.ok) : null;
    console.log(JSON.stringify({ ...r, gatewayCpuUs: perRequest(0), platformCpuUs: ours === "yes" ? perRequest(1) : null }))
    })' "$before" "$(cpu_snapshot "$pid")" "$(getconf CLK_TCK)" "$([ "$pid" = "$GATEWAY_PID" ] && echo yes)" >>"$RESULTS"
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
# probe SCENARIO TARGET CONNECTIONS URL BODY HEADERS...: the same with sub-millisecond and first-chunk timing; a
# Responses stream must end with response.completed and carry the 16 chunks as output_text deltas
probe_run() {
  local scenario=$1 target=$2 connections=$3 url=$4 body=$5 marks=(); shift 5
  if [[ $url == */responses && $body == *'"stream":true'* ]]; then
    marks=(STREAM_END=response.completed FIRST_MARK=output_text.delta CHUNK_FIELD=delta)
  fi
  env "${marks[@]}" EXPECTED_CHUNKS=$([[ $body == *'"stream":true'* ]] && echo 16) \
    node "$BENCH/probe.mjs" "$url" "$connections" "$SECONDS_PER_RUN" "$body" "$@" |
    node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => console.log(JSON.stringify(
      { scenario: process.argv[1], target: process.argv[2], ...JSON.parse(s) })))' "$scenario" "$target"
}
# one scenario: direct, Portkey, ours (chat), ours over the Responses API (relayed, translated) back to back
scenario() {
  local runner=$1 name=$2 connections=$3 body=$4 responses=$RESPONSES_BODY translated=$TRANSLATED_BODY
  if [[ $body == *'"stream":true'* ]]; then
    responses=$(streamed_body "$RESPONSES_BODY"); translated=$(streamed_body "$TRANSLATED_BODY")
  fi
  $runner "$name" direct "$connections" "$DIRECT" "$body" >>"$RESULTS"
  measured "$PORTKEY_PID" $runner "$name" portkey "$connections" "$PORTKEY" "$body" "${PORTKEY_HEADERS[@]}"
  local target url request
  for target in ours ours-responses ours-translated; do
    case $target in
      ours) url=$OURS request=$body ;;
      ours-responses) url=$OURS_RESPONSES request=$responses ;;
      ours-translated) url=$OURS_RESPONSES request=$translated ;;
    esac
    mapfile -t headers < <(ours_headers "$name" "$target")
    measured "$GATEWAY_PID" $runner "$name" "$target" "$connections" "$url" "$request" "${headers[@]}"
  done
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
    for target in ours ours-responses ours-translated; do
      curl -s "localhost:$GATEWAY_PORT/v1/usage?project=$(project_of "$name" "$target")" -H "authorization: Bearer $KEY" |
        node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => console.log(JSON.stringify(
          { scenario: process.argv[1], target: process.argv[2], usage: JSON.parse(s) })))' "$name" "$target" >>"$usage"
    done
  done
}
previous=
for _ in $(seq 60); do
  sleep 2; read_usage
  current=$(cat "$usage"); [ "$current" = "$previous" ] && break; previous=$current
done
node "$BENCH/report.mjs" "$RESULTS" "$usage"
