#!/usr/bin/env bash
# Benchmark: the gateway's overhead against a stand-in for a fast vLLM server, run as its own JVM
# (bench/VllmStandIn in the test sources): continuous batching of at most 256 sequences (vLLM's default
# max_num_seqs), 6 ms per engine step (a ~1B model on one H100 decodes 256 sequences at ~40k tokens/s;
# Llama-3.1-8B needs ~20 ms), one token per sequence per step, the prefill step samples the first token;
# the canned answers are 10 tokens (non-streamed) and 7 (streamed), streamed chunks leave per step.
# The same non-streamed and streamed requests go directly to the upstream and through the gateway in
# one run: open-loop Poisson arrivals at 1,000 req/s for 30 s each (added latency p50/p99, timed from the
# scheduled send time), against the stand-in and against an upstream that answers at once; then
# closed-loop saturation with 512 in flight (twice what the stand-in runs, so directly it is the
# bottleneck): throughput gateway/direct. The same against the upstream that answers at once is printed
# as the "gateway CPU ceiling" (not the target), with the benchmark JVM's CPU time per request.
# Direct and gateway alternate in slices (bench.slice seconds, a fresh client each) so both see the
# same machine; the load average is printed with the figures. The load generator and the test Kafka
# broker share the gateway's JVM and its garbage collections; the upstream does not.
# Prints BENCH lines. Knobs (append to the command): -Dbench.rate=1000 -Dbench.seconds=30
# -Dbench.warmup=10 -Dbench.saturation.seconds=10 -Dbench.saturation.concurrency=512
# -Dbench.ceiling.concurrency=64 -Dbench.slice=5 -Dbench.upstream.max-num-seqs=256
# -Dbench.upstream.step-micros=6000 "-Dbench.jvm.options=<options for the gateway's JVM, e.g. -Xlog:gc>"
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
