#!/usr/bin/env bash
# Benchmark: POST /log of 10,000 trajectories (8 messages each), job pickup latency create -> training_started
# with an idle embedded trainer, and the embedded trainer's tokens/s on stories260K, through the real service,
# PostgreSQL and Kafka of the test resources. Prints BENCH lines (our figure, the baseline measured in the same
# run, the ratio). Knobs (append to the command): -Dbench.logRuns=5 -Dbench.pickups=15
set -uo pipefail
cd "$(dirname "$0")/../.."
log=training-service/target/bench.log
mkdir -p training-service/target
mvn -q -o -pl training-service test -Dtest=TrainingBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
