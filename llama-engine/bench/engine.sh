#!/usr/bin/env bash
# Engine tokens/s on stories260K (one stream, 8 concurrent streams). Usage: llama-engine/bench/engine.sh [models-dir]
# (default: the repository's models/, which ships stories260K.bin and tok512.bin)
set -euo pipefail
cd "$(dirname "$0")/../.."
models="${1:-$(pwd)/models}"
mvn -q -o -pl llama-engine test-compile
java -cp llama-engine/target/classes:llama-engine/target/test-classes org.llmplatform.llama.bench.EngineBenchmark "$models"
