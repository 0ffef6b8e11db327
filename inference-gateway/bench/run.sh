#!/usr/bin/env bash
# Benchmark: the gateway's overhead against a canned vLLM-format upstream (a Vert.x server in the
# test JVM). The same non-streamed and streamed chat completions go directly to the upstream and
# through the gateway in one run: open-loop at 1,000 req/s for 30 s each (added latency p50/p99,
# timed from the scheduled send time), then closed-loop saturation (throughput gateway/direct).
# Direct and gateway alternate in slices (bench.slice seconds, a fresh client each) so both see the
# same machine; the load average is printed with the figures. The load generator, the upstream and
# the Kafka broker share the gateway's JVM and cores, so on a busy machine the tails are the machine's.
# Prints BENCH lines. Knobs (append to the command): -Dbench.rate=1000 -Dbench.seconds=30
# -Dbench.warmup=10 -Dbench.saturation.seconds=10 -Dbench.saturation.concurrency=64 -Dbench.slice=5
set -uo pipefail
cd "$(dirname "$0")/../.."
log=inference-gateway/target/bench.log
mkdir -p inference-gateway/target
mvn -q -o -pl inference-gateway test -Dtest=GatewayOverheadBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dquarkus.log.level=WARN -Dquarkus.log.category.\"org.apache.kafka\".level=ERROR "$@" > "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
