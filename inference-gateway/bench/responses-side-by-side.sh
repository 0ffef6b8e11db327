#!/usr/bin/env bash
# The Responses API beside chat completions, from outside, in one run against the same upstream: the packaged gateway
# (quarkus-run.jar in its own JVM, with ./platform's JVM options and environment: API-key auth, usage records to
# Kafka, limits on) in front of bench/upstream.mjs, a chat-only server that answers at once. POST /v1/responses to
# it is translated into a chat completion and back (docs/inference-gateway.md#the-responses-api), so the two paths
# differ by what the gateway does, nothing else. Load from probe.mjs, which checks every answer (a stream must end
# with response.completed and carry all 16 chunks). Chat and Responses runs alternate, each twice, and the figures
# are the better of the two, so that a neighbour's burst on a shared machine does not decide a ratio.
#
# Needs the platform running (./platform) for PostgreSQL, Kafka and the dev key, and the project built
# (mvn -DskipTests package). Usage: inference-gateway/bench/responses-side-by-side.sh [seconds per run, default 10]
# Environment: DATA_DIR, POSTGRES_PORT, KAFKA_PORT (as side-by-side.sh), UPSTREAM_PORT (9381), GATEWAY_PORT (9382),
# WARMUP_SECONDS (20). Prints per scenario rps, p50, p99 (streams: first event p50) and the gateway's CPU per answered
# request, with the Responses/chat ratios; exits 1 when a request failed.
set -uo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH/../.." && pwd)
SECONDS_PER_RUN=${1:-10}
DATA_DIR=${DATA_DIR:-$ROOT/.local-data}
POSTGRES_PORT=${POSTGRES_PORT:-15432}
KAFKA_PORT=${KAFKA_PORT:-19092}
UPSTREAM_PORT=${UPSTREAM_PORT:-9381}
GATEWAY_PORT=${GATEWAY_PORT:-9382}

LOGS=$(mktemp -d /tmp/responses-bench.XXXXXX)
RESULTS=$LOGS/results.jsonl
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

PORT=$UPSTREAM_PORT node "$BENCH/upstream.mjs" >"$LOGS/upstream.log" 2>&1 & pids+=($!)
source "$BENCH/packaged-gateway.sh"
start_packaged_gateway -Dgateway.upstreams.fast.url=http://127.0.0.1:$UPSTREAM_PORT/v1 -Dgateway.upstreams.fast.model=m \
  -Dgateway.limits.concurrent-requests-per-project=256 -Dgateway.limits.requests-per-minute=1000000000 \
  -Dgateway.limits.tokens-per-minute=1000000000000
GATEWAY_PID=${pids[-1]}

CHAT=http://localhost:$GATEWAY_PORT/v1/chat/completions
RESPONSES=http://localhost:$GATEWAY_PORT/v1/responses
CHAT_BODY='{"model":"fast","messages":[{"role":"user","content":"hi"}],"max_tokens":8}'
# what Codex sends: store false (a stored response adds a PostgreSQL insert, measured on its own line)
RESPONSES_BODY='{"model":"fast","input":"hi","max_output_tokens":8,"store":false}'
STORED_BODY='{"model":"fast","input":"hi","max_output_tokens":8}'
CHAT_STREAM='{"model":"fast","messages":[{"role":"user","content":"hi"}],"max_tokens":8,"stream":true}'
RESPONSES_STREAM='{"model":"fast","input":"hi","max_output_tokens":8,"store":false,"stream":true}'
HEADERS=("authorization: Bearer $KEY" "Compat-Project: dev/bench-responses-$(date +%s)")

gateway_ticks() { local stat; stat=$(cat "/proc/$GATEWAY_PID/stat") || return; read -r -a fields <<<"${stat##*) }";
  echo $((fields[11] + fields[12])); }
# run SCENARIO PATH CONNECTIONS URL BODY: one probe.mjs run, recorded with the gateway's CPU per answered request
run() {
  local scenario=$1 path=$2 connections=$3 url=$4 body=$5 before line marks=()
  if [[ $path == responses* && $body == *'"stream":true'* ]]; then
    marks=(STREAM_END=response.completed FIRST_MARK=output_text.delta CHUNK_FIELD=delta)
  fi
  before=$(gateway_ticks)
  line=$(env "${marks[@]}" EXPECTED_CHUNKS=$([[ $body == *'"stream":true'* ]] && echo 16) \
    node "$BENCH/probe.mjs" "$url" "$connections" "$SECONDS_PER_RUN" "$body" "${HEADERS[@]}")
  echo "$line" | node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => { const r = JSON.parse(s);
    const [scenario, path, before, after, tick] = process.argv.slice(1);
    console.log(JSON.stringify({ scenario, path, ...r,
      gatewayCpuUs: r.ok ? Math.round((after - before) * 1e6 / tick / r.ok) : null })) })' \
    "$scenario" "$path" "$before" "$(gateway_ticks)" "$(getconf CLK_TCK)" >>"$RESULTS"
}
# both paths, alternating, twice
pair() {
  local scenario=$1 connections=$2 chat_body=$3 responses_body=$4 label=${5:-responses}
  for _ in 1 2; do
    run "$scenario" chat "$connections" "$CHAT" "$chat_body"
    run "$scenario" "$label" "$connections" "$RESPONSES" "$responses_body"
  done
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); logs in $LOGS"
measured=$SECONDS_PER_RUN
SECONDS_PER_RUN=${WARMUP_SECONDS:-20}
pair warm-up 20 "$CHAT_BODY" "$RESPONSES_BODY"
run warm-up "responses stored" 20 "$RESPONSES" "$STORED_BODY"
pair warm-up-stream 20 "$CHAT_STREAM" "$RESPONSES_STREAM"
SECONDS_PER_RUN=$measured
: >"$RESULTS"
pair "non-streamed c=20" 20 "$CHAT_BODY" "$RESPONSES_BODY"
run "non-streamed c=20" "responses stored" 20 "$RESPONSES" "$STORED_BODY"
run "non-streamed c=20" "responses stored" 20 "$RESPONSES" "$STORED_BODY"
pair "non-streamed c=1" 1 "$CHAT_BODY" "$RESPONSES_BODY"
pair "streamed c=20" 20 "$CHAT_STREAM" "$RESPONSES_STREAM"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
let failed = 0;
const best = {};
for (const r of rows) {
  failed += r.non2xx + r.errors + r.incomplete;
  const key = r.scenario + "|" + r.path;
  if (!best[key] || r.rps > best[key].rps) best[key] = r;
}
const fmt = (r) => `${r.rps} rps, p50 ${r.p50} ms, p99 ${r.p99} ms` + (r.firstP50 !== null && r.scenario.startsWith("streamed")
  ? `, first event p50 ${r.firstP50} ms` : "") + `, gateway CPU ${r.gatewayCpuUs} µs/request`;
for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
  const chat = best[scenario + "|chat"];
  console.log(`\n${scenario}\n  chat completions   ${fmt(chat)}`);
  for (const path of ["responses", "responses stored"]) {
    const r = best[scenario + "|" + path];
    if (!r) continue;
    const ratio = (chat.rps / r.rps).toFixed(2);
    const cpu = (r.gatewayCpuUs / chat.gatewayCpuUs).toFixed(2);
    const latency = (r.p50 / chat.p50).toFixed(2);
    console.log(`  ${path.padEnd(18)} ${fmt(r)}\n    chat/responses throughput ${ratio}x, CPU per request ${cpu}x, p50 ${latency}x` +
      (path === "responses" ? ` (target within 1.1x: ${Math.max(ratio, cpu) <= 1.1 ? "met" : "not met"})` : ""));
  }
}
console.log(failed ? `\n${failed} requests failed or were incomplete` : "\nevery request answered and complete");
process.exit(failed ? 1 : 0);
' "$RESULTS"
