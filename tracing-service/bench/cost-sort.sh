#!/usr/bin/env bash
# Benchmark: the console's cost sort (calls/stream_query, first 50 trace roots by summary.weave.total_cost desc)
# over a project of 100,000 roots priced by the shipped default prices and the project's own, through the real
# service and the embedded PostgreSQL of the test resources; baseline in the same run: the same page over JDBC with
# migration V12's per-call price lookup, with the default table and without it. Prints a BENCH line.
# Knobs (append to the command): -Dbench.roots=100000 -Dbench.runs=5
set -uo pipefail
cd "$(dirname "$0")/../.."
log=tracing-service/target/bench-cost-sort.log
mkdir -p tracing-service/target
mvn -q -o -pl tracing-service -am test -Dtest=CostSortBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
