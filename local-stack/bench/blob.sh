#!/usr/bin/env bash
# Blob store benchmark from outside: starts the packaged platform with the S3 blob store (./platform
# --blob-store s3, S3Proxy beside PostgreSQL and Kafka), then puts and gets 1,000 x 64 KB and 10 x 200 MB
# objects through the tracing-service's file API (/file/create, /file/content: the service streams them
# into and out of the blob store) and the same objects straight to the S3 server with the AWS SDK, in one
# run, after other small objects went both ways untimed for WARMUP_SECONDS (a warm-up). Prints each rate, the ratio
# platform/direct and the tracing-service's RSS during the large transfers.
# Knobs (environment): SMALL_COUNT (1000) SMALL_KB (64) LARGE_COUNT (10) LARGE_MB (200) CONCURRENCY (8)
# WARMUP_SECONDS (90: how long small objects go both ways untimed first; the tracing-service JIT-compiles its
# request path with C2 for about a minute on a 2-core machine).
# Run it alone: flock /tmp/bench.lock local-stack/bench/blob.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source local-stack/scripts/temporary-platform.sh
large_mb=${LARGE_MB:-200}
# The file API's limits, raised for the large objects (the defaults keep files to 30 MB).
export TRACING_FILES_MAX_SIZE_BYTES=$(( (large_mb + 1) * 1024 * 1024 ))
export QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE=$(( large_mb + 2 ))M
classpath=local-stack/target/blob-bench.classpath
# The AWS SDK for the direct client: service-support's own dependencies (the reactor builds its siblings).
if [ ! -f "$classpath" ]; then
  mvn -B -q -o -pl service-support -am dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/$classpath" >/dev/null \
    || { echo "could not resolve the AWS SDK's class path" >&2; exit 1; }
fi
start_platform --blob-store s3
work=$(mktemp -d /tmp/blob-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
java -Xmx512m -cp "$(cat "$classpath")" local-stack/bench/BlobBench.java "$TRACING_URL" "$KEY" dev/blob-bench \
  "$S3_URL" platform-dev platform-dev-secret "$(service_pid tracing-service)" "$work" \
  "${SMALL_COUNT:-1000}" "${SMALL_KB:-64}" "${LARGE_COUNT:-10}" "$large_mb" "${CONCURRENCY:-8}" "${WARMUP_SECONDS:-90}" || fail "the blob bench failed"
echo "BENCH blob load average: $(cut -d' ' -f1-3 /proc/loadavg)"
stop_platform
