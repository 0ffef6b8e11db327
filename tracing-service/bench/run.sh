#!/usr/bin/env bash
# Benchmark: call/upsert_batch ingest (batches of 500 start+end parts, ~1 KB inputs and outputs)
# against a batched JDBC insert of the same rows, then calls/stream_query over a large project
# (unfiltered and with a $expr on an input field) and the filtered first page, through the packaged
# service (bench/packaged.sh builds it and runs it in its own JVM). Prints BENCH lines.
# Knobs (append to the command): -Dbench.batches=120 -Dbench.warmup=40 -Dbench.calls=1000000 -Dbench.pages=50
exec "$(dirname "$0")/packaged.sh" CallsBenchmark bench.log "$@"
