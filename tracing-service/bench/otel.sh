#!/usr/bin/env bash
# Benchmark: OpenTelemetry ingest, OTLP protobuf in batches of 512 spans (made by the real OTel SDK
# and encoded by the OTLP exporter's marshaler) to /otel/v1/traces, against call/upsert_batch of the
# same calls in the same run, sent by 4 exporters at once (a server hears several instrumented processes;
# each OTel SDK exports one batch at a time), through the packaged service (bench/packaged.sh builds it and
# runs it in its own JVM). Prints one BENCH line: spans/s, calls/s and their ratio.
# Knobs (append to the command): -Dbench.batches=200 -Dbench.warmup=100 -Dbench.clients=4
exec "$(dirname "$0")/packaged.sh" OtelBenchmark bench-otel.log "$@"
