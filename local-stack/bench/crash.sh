#!/usr/bin/env bash
# Crash check from outside: starts the packaged platform (./platform), ingests calls with
# `call/upsert_batch` from a separate process, kills the tracing-service with SIGKILL mid-run, and checks
# that the stack brings it back, the client's ingest resumes and no acknowledged call is lost or doubled.
# Options through the environment: DURATION_S (40), KILL_AFTER_S (12), WORKERS (4), BATCH (50 calls).
set -euo pipefail
cd "$(dirname "$0")/../.."
source local-stack/scripts/temporary-platform.sh
start_platform
VICTIM_PID=$(service_pid tracing-service) node local-stack/bench/crash-ingest.mjs || fail "the crash check failed"
grep -E "exited unexpectedly|Restarted|serving again" "$out" | sed 's/^/launcher: /'
stop_platform
