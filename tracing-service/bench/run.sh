#!/usr/bin/env bash
# Benchmark: call/upsert_batch ingest (batches of 500 start+end parts, ~1 KB inputs and outputs)
# against a batched JDBC insert of the same rows, then calls/stream_query over a large project
# (unfiltered and with a $expr on an input field) and the filtered first page, through the real
# service and the embedded PostgreSQL of the test resources. Prints BENCH lines.
# Knobs (append to the command): -Dbench.batches=120 -Dbench.warmup=40 -Dbench.calls=1000000 -Dbench.pages=50
set -uo pipefail
cd "$(dirname "$0")/../.."
log=tracing-service/target/bench.log
mkdir -p tracing-service/target
mvn -q -o -pl tracing-service test -Dtest=CallsBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
