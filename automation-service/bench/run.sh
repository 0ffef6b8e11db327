#!/usr/bin/env bash
# Benchmark: event published on Kafka → signed webhook received by a local receiver, through the built
# service running in its own JVM against embedded PostgreSQL and Kafka (the test resources). Prints p50/p99
# latency at a paced rate and deliveries/s at saturation, each next to the baseline of POSTing the same
# bodies straight to the receiver, and the verdict of a fault run: the receiver fails 30 % of requests at
# random and the service is restarted halfway; the delivery ledger is checked against what the receiver saw.
# Knobs (append to the command): -Dbench.rate=200 -Dbench.paced-warmup=6000 -Dbench.paced=2000 -Dbench.burst=10000 -Dbench.fault=2000
# -Dbench.phase-minutes=4 (a phase that has not ended by then fails the run with what was missing)
set -uo pipefail
cd "$(dirname "$0")/../.."
log=automation-service/target/bench.log
mkdir -p automation-service/target
rm -f automation-service/target/bench-service.log
mvn -q -o -pl automation-service package -DskipTests > "$log" 2>&1 || { echo "packaging failed; see $log"; exit 1; }
# Production's retry and disable policy shape, with short delays so the fault run ends in seconds.
mvn -q -o -pl automation-service test -Dtest=DeliveryBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR \
  -Dautomation.delivery.retry-schedule=200ms,200ms,200ms,400ms,400ms,800ms,800ms,1s,1s,1s \
  -Dautomation.delivery.throttle-delay=1s \
  -Dautomation.delivery.disable-after=P5D "$@" >> "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log and automation-service/target/bench-service.log"
exit $status
