#!/usr/bin/env bash
# Fault run from outside: starts the packaged platform with two replicas of every service on one PostgreSQL
# and one Kafka (./platform --replicas 2), and from a separate Node.js process (replicas.mjs) drives trace
# ingest, object versions that fire webhooks, chat completions with usage and ART-style training jobs through
# the console's one origin while it SIGKILLs one replica of each service in turn; the stack restarts each.
# Prints every check as a figure (replicas.mjs says which) and exits 0 on PASS.
# Options through the environment: PORT_BASE (ports from N, replicas at +100; default: free ports),
# DURATION_S (80), KILL_FIRST_S (10), KILL_EVERY_S (15), INGEST_WORKERS (2), BATCH (10), OBJECTS_PER_S (5),
# TRAINING_JOBS (2), DRAIN_S (90), KILL_RUNNING_JOB (1: kill the training replica running a job), CANCELS (4).
set -euo pipefail
cd "$(dirname "$0")/../.."
for jar in local-stack/target/local-stack.jar \
           {tracing-service,inference-gateway,training-service,automation-service,console}/target/quarkus-app/quarkus-run.jar; do
  [ -f "$jar" ] || { echo "$jar is missing: build first (mvn -B -DskipTests install)"; exit 1; }
done
source local-stack/scripts/temporary-platform.sh
started=$(date +%s)
PLATFORM_START_TIMEOUT_S=${PLATFORM_START_TIMEOUT_S:-900} start_platform --replicas 2
echo "replicas: the platform with two replicas of each service was ready after $(( $(date +%s) - started )) s"
status=0
LAUNCHER_PID=$launcher LOG_DIR="$data/logs" PG_PORT=${ports[0]} TRACING_PORT=$tracing_port INFERENCE_PORT=$inference_port \
  TRAINING_PORT=$training_port AUTOMATION_PORT=$automation_port node local-stack/bench/replicas.mjs || status=$?
grep -E "exited unexpectedly|Restarted|serving again" "$out" | sed 's/^/launcher: /'
[ "$status" -le 1 ] || fail "the load generator failed (exit $status)"
stop_platform
exit "$status"
