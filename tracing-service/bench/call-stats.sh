#!/usr/bin/env bash
# Benchmark: POST /calls/stats over a 1,000,000-call project (30 days in hourly buckets: avg/p50/p95 latency, call and
# error counts, input/output/total tokens and cost of 3 models) through the packaged service (bench/packaged.sh
# builds it and runs it in its own JVM), answered from the V22 rollup; baselines in the same run: the same request
# answered from the calls (a filter of every op) and calls/query_stats of the project. The calls are written by
# INSERT ... SELECT into the service's database, a day a statement, through the triggers that fill the rollup.
# Prints BENCH lines. Knobs (append to the command): -Dbench.calls=1000000 -Dbench.runs=10 -Dbench.exactRuns=3
exec "$(dirname "$0")/packaged.sh" CallStatsBenchmark bench-call-stats.log "$@"
