#!/usr/bin/env bash
# Benchmark: the console's cost sort (calls/stream_query, first 50 trace roots by summary.weave.total_cost desc)
# over a project of 100,000 roots priced by the shipped default prices and the project's own, through the packaged
# service (bench/packaged.sh builds it and runs it in its own JVM); baseline in the same run: the same page
# over JDBC with migration V12's per-call price lookup, with the default table and without it. Prints a BENCH line.
# Knobs (append to the command): -Dbench.roots=100000 -Dbench.runs=5
exec "$(dirname "$0")/packaged.sh" CostSortBenchmark bench-cost-sort.log "$@"
