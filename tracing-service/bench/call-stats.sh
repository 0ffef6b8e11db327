#!/usr/bin/env bash
# Benchmark from outside: POST /calls/stats over a 1,000,000-call project (30 days, hourly buckets, p50/p95
# latency, call and error counts, input/output/total tokens per model) against the PACKAGED tracing-service
# (target/quarkus-app/quarkus-run.jar in its own JVM) and a PostgreSQL of its own, from curl. The calls are written
# by one INSERT ... SELECT into the service's database (through the API a million calls take far longer than
# the measurement on 2 cores). Baselines, measured in the same run: calls/query_stats counting the same 30 days
# (the API's cheapest pass over those calls) and the stats' aggregation as one plain SQL statement in psql.
# Prints BENCH lines. Knobs (environment): CALLS (1000000) RUNS (10) PG_PORT (9211) HTTP_PORT (9210)
# DATA (/tmp/call-stats-bench). Build the jar first: mvn -B -q -o -pl tracing-service -am -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
calls=${CALLS:-1000000}
runs=${RUNS:-10}
pg_port=${PG_PORT:-9211}
http_port=${HTTP_PORT:-9210}
data=${DATA:-/tmp/call-stats-bench}
jar=tracing-service/target/quarkus-app/quarkus-run.jar
[ -f "$jar" ] || { echo "no $jar: build it first (mvn -B -q -o -pl tracing-service -am -DskipTests package)" >&2; exit 1; }
# PostgreSQL refuses to run as root: as root, the server runs as nobody.
as_owner() { if [ "$(id -u)" = 0 ]; then chown -R nobody "$data"; runuser -u nobody -- "$@"; else "$@"; fi; }
# REUSE=1 keeps the database a previous run loaded (the load takes minutes); otherwise it starts empty.
if [ "${REUSE:-0}" = 1 ] && [ -f "$data/loaded" ]; then reuse=true; else
  reuse=false
  rm -rf "$data" && mkdir -p "$data"
  as_owner initdb -D "$data/pg" -U postgres -A trust >/dev/null
fi
as_owner pg_ctl -D "$data/pg" -l "$data/pg/log" -o "-p $pg_port -k $data -c shared_buffers=256MB" start >/dev/null
service=
cleanup() {
  [ -n "$service" ] && kill "$service" 2>/dev/null && wait "$service" 2>/dev/null || true
  as_owner pg_ctl -D "$data/pg" stop -m fast >/dev/null || true
}
trap cleanup EXIT
sql() { psql -q -X -h localhost -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 "$@"; }
# No broker: the inference.usage consumer retries in the background; no request here needs it.
java -Xmx512m -Dquarkus.http.port="$http_port" \
  -Dquarkus.datasource.jdbc.url="jdbc:postgresql://localhost:$pg_port/postgres" \
  -Dquarkus.datasource.reactive.url="postgresql://localhost:$pg_port/postgres" \
  -Dkafka.bootstrap.servers="localhost:$((http_port + 9))" -jar "$jar" >"$data/service.log" 2>&1 &
service=$!
for _ in $(seq 1 300); do curl -sf "http://localhost:$http_port/server_info" >/dev/null && break; sleep 1; done
curl -sf "http://localhost:$http_port/server_info" >/dev/null || { tail -40 "$data/service.log"; exit 1; }
key=$(head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n')
hash=$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)
sql -c "DELETE FROM identity.api_keys WHERE user_name = 'bench'" -c "INSERT INTO identity.entities (name, kind) VALUES ('bench', 'user')
  ON CONFLICT DO NOTHING" -c "INSERT INTO identity.users (name) VALUES ('bench') ON CONFLICT DO NOTHING" -c "INSERT INTO identity.api_keys (id, user_name, name, key_hash, hint) VALUES (gen_random_uuid()::text, 'bench', 'bench', '$hash', 'bench')"
if [ "$reuse" = false ]; then
began=$(date +%s)
# 30 days from 2025-01-01, one call every 2.592 s, traces of 4 (a root and 3 children), 5 ops, every 50th failed,
# latency 0..5 s, one of three models per call with prompt/completion/total tokens.
sql -c "INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, ended_at, attributes, inputs,
    output, summary, summary_size_bytes, exception, svc_user_id)
  SELECT 'bench/stats', lpad(g::text, 8, '0'), 't' || (g / 4), CASE WHEN g % 4 = 0 THEN NULL ELSE lpad((g - g % 4)::text, 8, '0') END,
    'op_' || (g % 5), timestamptz '2025-01-01' + (g - 1) * interval '2592 milliseconds',
    timestamptz '2025-01-01' + (g - 1) * interval '2592 milliseconds' + ((g::bigint * 7919) % 5000) * interval '1 millisecond',
    '{}', jsonb_build_object('question', 'question ' || g), jsonb_build_object('answer', 'answer ' || g), s, octet_length(s::text),
    CASE WHEN g % 50 = 0 THEN 'ValueError: boom' END, 'bench'
  FROM generate_series(1, $calls) g, LATERAL (SELECT jsonb_build_object('usage', jsonb_build_object(
    (ARRAY['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet'])[g % 3 + 1], jsonb_build_object('prompt_tokens', g % 900,
    'completion_tokens', g % 300, 'total_tokens', g % 900 + g % 300, 'requests', 1))) AS s) usage"
sql -c "VACUUM ANALYZE tracing.calls"
echo "BENCH load: $calls calls by INSERT ... SELECT and VACUUM ANALYZE in $(( $(date +%s) - began )) s"
touch "$data/loaded"
fi
range='"start": "2025-01-01T00:00:00Z", "end": "2025-01-31T00:00:00Z"'
stats_body="{\"project_id\": \"bench/stats\", $range, \"granularity\": 3600,
  \"call_metrics\": [{\"metric\": \"latency_ms\", \"aggregations\": [\"avg\"], \"percentiles\": [50, 95]},
    {\"metric\": \"call_count\"}, {\"metric\": \"error_count\"}],
  \"usage_metrics\": [{\"metric\": \"input_tokens\"}, {\"metric\": \"output_tokens\"}, {\"metric\": \"total_tokens\"}]}"
count_body='{"project_id": "bench/stats"}'
measure() {  # measure LABEL PATH BODY: RUNS timed requests after one untimed, p50 and p95 in ms
  local label=$1 path=$2 body=$3 times=() answer
  answer=$(curl -sS -u "api:$key" -H 'Content-Type: application/json' -d "$body" "http://localhost:$http_port$path")
  printf '%s\n' "${answer:0:300}" > "$data/answer$(echo "$path" | tr / _).json"
  for _ in $(seq 1 "$runs"); do
    times+=("$(curl -sS -o /dev/null -w '%{time_total}' -u "api:$key" -H 'Content-Type: application/json' -d "$body" \
      "http://localhost:$http_port$path")")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" -v n="$runs" '{ t[NR] = $1 * 1000 }
    END { printf "BENCH %s: p50 %.0f ms, p95 %.0f ms (%d runs)\n", label, t[int((n + 1) / 2)], t[int(n * 0.95 + 0.999)], n }'
}
measure "calls/stats, 30 days hourly (720 buckets), p50/p95 latency, counts, tokens of 3 models" /calls/stats "$stats_body"
echo "BENCH   answer: $(curl -sS -u "api:$key" -H 'Content-Type: application/json' -d "$stats_body" "http://localhost:$http_port/calls/stats" \
  | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["call_buckets"]), "call buckets,", len(d["usage_buckets"]), "usage buckets, calls", sum(b["count"] for b in d["call_buckets"]))')"
measure "baseline: calls/query_stats, count of the project (the same 30 days)" /calls/query_stats "$count_body"
sql -c '\timing on' -c "SET max_parallel_workers_per_gather = 0" -c "SELECT count(*) FROM (
    SELECT floor(extract(epoch FROM started_at) / 3600) AS bucket, count(*), count(*) FILTER (WHERE exception IS NOT NULL),
      percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ended_at - started_at) * 1000),
      percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM ended_at - started_at) * 1000)
    FROM tracing.calls WHERE project_id = 'bench/stats' AND started_at >= '2025-01-01' AND started_at < '2025-01-31'
      AND deleted_at IS NULL GROUP BY 1) calls" > "$data/baseline.txt"
echo "BENCH baseline: the call buckets alone as one plain SQL statement in psql: $(grep -o 'Time: [0-9.]* ms' "$data/baseline.txt")"
echo "BENCH load average: $(cut -d' ' -f1-3 /proc/loadavg)"
