#!/usr/bin/env bash
# Engine tokens/s on stories260K (one stream, 8 concurrent streams). Usage: llama-engine/bench/engine.sh [models-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
models="${1:-$(pwd)/../shared/models}"
mvn -q -o -pl llama-engine test-compile
java -cp llama-engine/target/classes:llama-engine/target/test-classes org.llmplatform.llama.bench.EngineBenchmark "$models"
