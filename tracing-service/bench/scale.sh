#!/usr/bin/env bash
# Benchmark from outside: a large project through the API of the packaged tracing-service (bench/packaged.sh builds
# it and runs it in its own JVM): traces of 5-20 calls (an agent root, chat completions with 0.5-2 KB messages and
# answers and token usage, retrievals, tool calls) in threads of 8 turns, feedback on 1 trace in 20, over the last
# 30 days, sent by calls/complete from several clients. Prints calls/s and bytes on disk per call; p50/p95 of the
# calls table's first page (default sort, by op, by a day, by a rare, a 1-in-50 and a common word), calls/query_stats, calls/stats 30 days
# hourly, one trace, a thread's turns and the threads list; then ingest rate and query p95 for a while before and
# while a 27-day retention deletes the oldest tenth. Statements over 300 ms are in the log (grep 'duration:').
# Knobs (append to the command): -Dbench.calls=1000000 (10000000 for the issue's figure) -Dbench.clients=4
# -Dbench.tracesPerRequest=40 -Dbench.runs=20 -Dbench.liveSeconds=30 -Dbench.searchIndexes=v16 (V16's trigram indexes on every
# call as well, the search before V28) or none (without the trigram index of the traces' words)
# -Dbench.serviceJvmOptions="-Xlog:gc:/tmp/gc.log -XX:StartFlightRecording=settings=profile,filename=/tmp/service.jfr"
# (added to the service's JVM options, after ./platform's) -Dbench.backfill=true (at the end, every call's words filed
# again in the background as after an upgrade to V28, timed, with the search asked beside it)
# -Dbench.withoutTriggers=call_stats_after_insert,thread_summaries_after_insert (disabled for the run: their cost)
# -Dbench.consoleSeconds=2 (during the ingest, the first page and query_stats asked every this many seconds; 0: never)
exec "$(dirname "$0")/packaged.sh" ScaleBenchmark bench-scale.log "$@"
