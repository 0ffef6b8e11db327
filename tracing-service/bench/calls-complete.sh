#!/usr/bin/env bash
# Benchmark from outside: the packaged tracing-service (target/quarkus-app/quarkus-run.jar, started by the benchmark
# in its own JVM with ./platform's JVM options, on port 9150, against the test resources' PostgreSQL) ingests the
# same calls (~1 KB inputs and outputs, a usage summary) through POST /v2/{entity}/{project}/calls/complete and
# through call/upsert_batch in one run: warm-up requests on each, then alternating rounds in fresh projects, 4
# clients. Prints calls/s of each and the ratio (BENCH lines). Build the jar first:
#   mvn -B -q -pl tracing-service -am package -DskipTests
# Knobs (append to the command): -Dbench.requests=40 -Dbench.callsPerRequest=250 -Dbench.rounds=3 -Dbench.warmup=60
# -Dbench.clients=4 -Dbench.port=9150 -Dbench.dataDir=/tmp/wt-30-complete/bench-data
set -uo pipefail
cd "$(dirname "$0")/../.."
jar=tracing-service/target/quarkus-app/quarkus-run.jar
[ -f "$jar" ] || { echo "$jar is missing: mvn -B -q -pl tracing-service -am package -DskipTests"; exit 2; }
log=tracing-service/target/bench-calls-complete.log
mvn -q -o -pl tracing-service -am test -Dtest=CallsCompleteBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
