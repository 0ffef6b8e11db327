#!/usr/bin/env bash
# Benchmark: table/create of 100,000 rows of ~200 B and table/query_stream of them, each against a
# batched JDBC insert / plain JDBC select of the same rows in the same run, then refs/read_batch of
# 1,000 refs to distinct objects (p50), through the packaged service (bench/packaged.sh builds it and
# runs it in its own JVM). Prints BENCH lines. Knobs: -Dbench.rows=100000 -Dbench.refRuns=30
exec "$(dirname "$0")/packaged.sh" TablesBenchmark bench-tables.log "$@"
