#!/usr/bin/env bash
# Benchmark: table/create of 100,000 rows of ~200 B and table/query_stream of them, each against a
# batched JDBC insert / plain JDBC select of the same rows in the same run, then refs/read_batch of
# 1,000 refs to distinct objects (p50), through the real service and the embedded PostgreSQL of the
# test resources. Prints BENCH lines. Knobs: -Dbench.rows=100000 -Dbench.refRuns=30
set -uo pipefail
cd "$(dirname "$0")/../.."
log=tracing-service/target/bench-tables.log
mkdir -p tracing-service/target
mvn -q -o -pl tracing-service test -Dtest=TablesBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
