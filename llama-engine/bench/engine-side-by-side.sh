#!/usr/bin/env bash
# The embedded engine as users measure it, in one run: llama2.c's run.c (C, -O3 -march=native, compiled into /tmp
# from ../shared/bench/llama2c-run.c, never kept here) next to the engine behind the gateway's
# POST /v1/chat/completions, the packaged quarkus-run.jar in its own JVM with the JVM options and environment
# ./platform gives it. stories260K, greedy, 256 tokens (ignore_eos), after a warm-up; the client is
# inference-gateway/bench/probe.mjs (Node, keep-alive connections like an SDK's, its own process).
#
# Needs the platform running (./platform) for PostgreSQL, Kafka and the dev key, and the project built
# (mvn -DskipTests package). Usage: llama-engine/bench/engine-side-by-side.sh
# Environment: MODELS (default the repository's models/), LLAMA2C_SOURCE (default ../shared/bench/llama2c-run.c),
# DATA_DIR (./platform --data-dir, default .local-data), POSTGRES_PORT (15432), KAFKA_PORT (19092).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODELS=${MODELS:-$ROOT/models}
SOURCE=${LLAMA2C_SOURCE:-$ROOT/../shared/bench/llama2c-run.c}
DATA_DIR=${DATA_DIR:-$ROOT/.local-data}
POSTGRES_PORT=${POSTGRES_PORT:-15432}
KAFKA_PORT=${KAFKA_PORT:-19092}
GATEWAY_PORT=${GATEWAY_PORT:-8192}
REFERENCE=/tmp/llama2c-run-$(sha256sum "$SOURCE" | cut -c1-12)
[ -x "$REFERENCE" ] || gcc -O3 -march=native -o "$REFERENCE" "$SOURCE" -lm || exit 2

LOGS=$(mktemp -d /tmp/engine-bench.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
source "$ROOT/inference-gateway/bench/packaged-gateway.sh"
start_packaged_gateway "-Dgateway.models.\"stories260K\".checkpoint=$MODELS/stories260K.bin" \
  "-Dgateway.models.\"stories260K\".tokenizer=$MODELS/tok512.bin"

URL=http://localhost:$GATEWAY_PORT/v1/chat/completions
PROBE=$ROOT/inference-gateway/bench/probe.mjs
LONG='{"model":"stories260K","messages":[{"role":"user","content":"Once upon a time"}],"max_tokens":256,"temperature":0,"ignore_eos":true'
ONE='{"model":"stories260K","messages":[{"role":"user","content":"hi"}],"max_tokens":1}'
# probe C SECONDS BODY [EXPECT]: closed loop over keep-alive connections, as an SDK client holds them (probe.mjs)
probe() {
  EXPECT=${4:-} node "$PROBE" "$URL" "$1" "$2" "$3" "authorization: Bearer $KEY" | tee -a "$LOGS/probes.jsonl"
}
field() { node -e 'const r = JSON.parse(process.argv[1]); console.log(r[process.argv[2]])' "$1" "$2"; }
ALL='"completion_tokens":256'

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); logs in $LOGS"
probe 1 10 "$LONG}" "$ALL" >/dev/null
probe 1 10 "$ONE" >/dev/null
probe 8 5 "$LONG}" "$ALL" >/dev/null
reference=$(for _ in 1 2 3 4 5; do "$REFERENCE" "$MODELS/stories260K.bin" -z "$MODELS/tok512.bin" -t 0 -n 256 -i "Once upon a time" 2>&1 |
  grep -o 'tok/s: [0-9.]*' | cut -d' ' -f2; done | sort -g | sed -n 3p | awk '{printf "%.0f\n", $1}')
one=$(probe 1 10 "$LONG}" "$ALL")
streamed=$(probe 1 10 "$LONG,\"stream\":true,\"stream_options\":{\"include_usage\":true}}" "$ALL")
eight=$(probe 8 10 "$LONG}" "$ALL")
token=$(probe 1 10 "$ONE")
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

per_second() { awk -v ms="$1" 'BEGIN {printf "%.0f\n", 256 * 1000 / ms}'; }
one_stream=$(per_second "$(field "$one" p50)")
streamed_stream=$(per_second "$(field "$streamed" p50)")
eight_streams=$(node -e 'const r = JSON.parse(process.argv[1]); console.log(Math.round(r.ok * 256 / 10))' "$eight")
one_token_ms=$(field "$token" p50)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
printf '\nllama2.c run.c (C reference), one stream        %6s tok/s\n' "$reference"
printf 'ours through the API, one stream, non-streamed  %6s tok/s  (%sx run.c; p50 of the whole answer)\n' "$one_stream" "$(ratio "$one_stream" "$reference")"
printf 'ours through the API, one stream, streamed      %6s tok/s  (%sx run.c; first chunk p50 %s ms)\n' "$streamed_stream" "$(ratio "$streamed_stream" "$reference")" "$(field "$streamed" firstP50)"
printf 'ours through the API, 8 concurrent streams      %6s tok/s in total  (%sx one stream)\n' "$eight_streams" "$(ratio "$eight_streams" "$one_stream")"
printf 'ours, a 1-token completion end to end           %6s ms p50, %s ms p99\n' "$one_token_ms" "$(field "$token" p99)"
verdict() { if awk "BEGIN {exit !($2)}"; then echo "  MET   $1"; else echo "  MISS  $1"; fi; }
echo; echo "targets (issue 19)"
verdict "one stream through the API >= 0.5x run.c" "$one_stream >= 0.5 * $reference"
verdict "a 1-token completion <= 2 ms end to end" "$one_token_ms <= 2"
verdict "8 concurrent streams >= 1.5x one stream in total tokens/s" "$eight_streams >= 1.5 * $one_stream"
failures=$(node -e 'let n = 0; for (const line of require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) {
  const r = JSON.parse(line); n += r.non2xx + r.errors + r.incomplete; } console.log(n)' "$LOGS/probes.jsonl")
if [ "$failures" -eq 0 ]; then echo "  MET   no request failed or came back short"; else echo "  MISS  $failures requests failed or came back short"; fi
[ "$failures" -eq 0 ]
