#!/usr/bin/env bash
# Benchmark: the first page of a search of inputs and outputs (the console's search box: trace roots,
# started_at desc, 50 rows) for a rare and a common word, and calls/query_stats and calls/stream_query
# with a trace_ids filter of 200 ids, over a 1,000,000-call project, through the real service and the
# embedded PostgreSQL of the test resources. The calls are written with one INSERT ... SELECT into the
# service's database (through the API, a million calls take far longer than the query measurement on
# 2 cores); the search's old form ($contains on inputs.arg0.topic, which the console never reached) is the
# baseline. Prints BENCH lines. Knobs: -Dbench.calls=1000000 -Dbench.runs=20
set -uo pipefail
cd "$(dirname "$0")/../.."
log=tracing-service/target/bench-search.log
mkdir -p tracing-service/target
mvn -q -o -pl tracing-service -am test -Dtest=SearchBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
