#!/usr/bin/env bash
# Runs one benchmark class of this module against the PACKAGED service: builds target/quarkus-app (and the modules
# it needs) first, then runs the class, whose JVM starts the embedded PostgreSQL and Kafka and the packaged
# tracing-service as a child process on them (PackagedServiceBenchmark), and measures it over HTTP from outside.
# Prints the BENCH lines. Usage: bench/packaged.sh <benchmark class> <log file name> [-Dknob=value ...]
set -uo pipefail
cd "$(dirname "$0")/../.."
class=$1
log=tracing-service/target/$2
shift 2
mkdir -p tracing-service/target
if ! mvn -q -o -pl tracing-service -am package -DskipTests > "$log" 2>&1; then
  echo "the build failed; see $log"
  exit 1
fi
mvn -q -o -pl tracing-service -am test -Dtest="$class" -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false "$@" >> "$log" 2>&1
status=$?
grep '^BENCH' "$log"
[ $status -eq 0 ] || echo "benchmark failed (exit $status); see $log"
exit $status
