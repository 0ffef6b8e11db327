#!/usr/bin/env bash
# Benchmark: the first page of a search of inputs and outputs (the console's search box: trace roots,
# started_at desc, 50 rows) for a rare and a common word, and calls/query_stats and calls/stream_query
# with a trace_ids filter of 200 ids, over a 1,000,000-call project, through the packaged service
# (bench/packaged.sh builds it and runs it in its own JVM). The calls are written with one INSERT ... SELECT into the
# service's database (through the API, a million calls take far longer than the query measurement on
# 2 cores); the search's old form ($contains on inputs.arg0.topic, which the console never reached) is the
# baseline. Prints BENCH lines. Knobs: -Dbench.calls=1000000 -Dbench.runs=20
exec "$(dirname "$0")/packaged.sh" SearchBenchmark bench-search.log "$@"
