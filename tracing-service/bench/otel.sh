#!/usr/bin/env bash
# Benchmark: OpenTelemetry ingest, OTLP protobuf in batches of 512 spans (made by the real OTel SDK
# and encoded by the OTLP exporter's marshaler) to /otel/v1/traces, against call/upsert_batch of the
# same calls in the same run, sent by 4 exporters at once (a server hears several instrumented processes;
# each OTel SDK exports one batch at a time), through the real service and the embedded PostgreSQL of the test
# resources. Prints one BENCH line: spans/s, calls/s and their ratio.
# Knobs (append to the command): -Dbench.batches=200 -Dbench.warmup=100 -Dbench.clients=4
set -uo pipefail
cd "$(dirname "$0")/../.."
log=tracing-service/target/bench-otel.log
mkdir -p tracing-service/target
mvn -q -o -pl tracing-service test -Dtest=OtelBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
