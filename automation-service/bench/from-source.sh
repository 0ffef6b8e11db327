#!/usr/bin/env bash
# Benchmark from outside, as a user sees it: starts the packaged platform (./platform, its own data folder
# under /tmp and free ports), and from a separate Node.js process makes a webhook to a receiver on 127.0.0.1
# and an automation on CREATE_ARTIFACT, creates objects with the tracing-service's POST /obj/create at a
# steady rate (100/s, then 200/s, after a warm-up) and measures each from the create request's send to the
# webhook POST's arrival, next to the baselines (the raw /obj/create latency; the receiver POSTed directly)
# and checks nothing is lost or duplicated. Stops the platform at the end. Exit 0 on PASS (p99 ≤ 100 ms at
# 200/s), 2 on FAIL. Options through the environment: RATES (100,200), DURATION_S (20), WARMUP_S (10),
# TARGET_P99_MS (100). Stage shares come from the services' timestamps when psql is on the PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
for jar in local-stack/target/local-stack.jar \
           {tracing-service,inference-gateway,training-service,automation-service}/target/quarkus-app/quarkus-run.jar; do
  [ -f "$jar" ] || { echo "$jar is missing: build first (mvn -B -DskipTests package)"; exit 1; }
done
source local-stack/scripts/temporary-platform.sh
start_platform
status=0
PG_PORT=${ports[0]} node automation-service/bench/from-source.mjs || status=$?
[ "$status" -le 2 ] || fail "the load generator failed (exit $status)"
stop_platform
exit "$status"
