# Sourced by side-by-side.sh and llama-engine/bench/engine-side-by-side.sh: starts the packaged gateway
# (quarkus-run.jar) in its own JVM with the JVM options and the environment ./platform gives it, against the
# running platform's PostgreSQL and Kafka. Expects ROOT, DATA_DIR, POSTGRES_PORT, KAFKA_PORT, GATEWAY_PORT, LOGS
# and a pids array; sets KEY (the platform's dev key).

KEY=$(cat "$DATA_DIR/dev-api-key") || { echo "no dev key in $DATA_DIR: start ./platform first"; exit 2; }
GATEWAY_JAR=$ROOT/inference-gateway/target/quarkus-app/quarkus-run.jar
STACK_JAR=$ROOT/local-stack/target/local-stack.jar
for built in "$GATEWAY_JAR" "$STACK_JAR"; do [ -f "$built" ] || { echo "$built missing: mvn -DskipTests package first"; exit 2; }; done

start_packaged_gateway() {  # start_packaged_gateway [-Dproperty=value…]: returns once it is ready
  local jvm_options
  mapfile -t jvm_options < <(java -cp "$STACK_JAR" org.llmplatform.localstack.ServiceProcess inference-gateway)
  env QUARKUS_HTTP_PORT=$GATEWAY_PORT \
    QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://localhost:$POSTGRES_PORT/postgres \
    QUARKUS_DATASOURCE_REACTIVE_URL=postgresql://localhost:$POSTGRES_PORT/postgres \
    QUARKUS_DATASOURCE_USERNAME=postgres QUARKUS_DATASOURCE_PASSWORD=postgres \
    KAFKA_BOOTSTRAP_SERVERS=localhost:$KAFKA_PORT PLATFORM_DATA_DIR="$LOGS/gateway-data" PLATFORM_BLOB_ROOT="$DATA_DIR/blobs" \
    java "${jvm_options[@]}" "$@" -jar "$GATEWAY_JAR" >"$LOGS/gateway.log" 2>&1 & pids+=($!)
  for _ in $(seq 120); do curl -s -o /dev/null -m 2 "localhost:$GATEWAY_PORT/q/health/ready" && break; sleep 1; done
  curl -sf -o /dev/null "localhost:$GATEWAY_PORT/q/health/ready" || { echo "the gateway did not start:"; tail -20 "$LOGS/gateway.log"; exit 2; }
}
