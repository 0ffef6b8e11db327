#!/usr/bin/env bash
# Benchmark from outside: the packaged tracing-service (bench/packaged.sh builds it and runs it in its own JVM)
# ingests the same calls (~1 KB inputs and outputs, a usage summary) through POST
# /v2/{entity}/{project}/calls/complete and through call/upsert_batch in one run: warm-up requests on each, then
# alternating rounds in fresh projects, 4 clients. Prints calls/s of each and the ratio (BENCH lines).
# Knobs (append to the command): -Dbench.requests=40 -Dbench.callsPerRequest=250 -Dbench.rounds=3 -Dbench.warmup=60
# -Dbench.clients=4 -Dbench.rollup=compare (each round also without the calls/stats rollup triggers of V22)
exec "$(dirname "$0")/packaged.sh" CallsCompleteBenchmark bench-calls-complete.log "$@"
