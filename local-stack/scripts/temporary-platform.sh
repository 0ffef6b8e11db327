# Sourced by .ci/smoke and local-stack/bench/*.sh: starts `./platform` (the launcher jar and the service
# jars, as a user runs them) in the background with its own data folder and free ports, and stops it.
# After start_platform: $data, $out (the launcher's output), $launcher (its pid), $ports, and the URLs
# and key exported as TRACING_URL, INFERENCE_URL, TRAINING_URL, AUTOMATION_URL, CONSOLE_URL, CONSOLE_HTTPS_URL, S3_URL (the S3
# server's, with --blob-store s3) and KEY (replica 0 of each service; with --replicas N, replica k listens on
# its port + 100·k: $tracing_port, $inference_port, $training_port, $automation_port are replica 0's).

free_ports() {  # free_ports N: N distinct free ports, each with its next port free and not among them (Kafka's controller takes N+1)
  node -e '
    const net = require("net");
    const probe = (port) => new Promise((ok) => { const s = net.createServer().once("error", () => ok(false))
      .listen(port, "127.0.0.1", () => s.close(() => ok(true))); });
    (async () => { const taken = new Set(); const ports = [];
      while (ports.length < Number(process.argv[1])) { const s = net.createServer().listen(0, "127.0.0.1");
        await new Promise((r) => s.once("listening", r)); const p = s.address().port; await new Promise((r) => s.close(r));
        if (p < 65000 && !taken.has(p) && !taken.has(p + 1) && await probe(p + 1)) { ports.push(p); taken.add(p).add(p + 1); } }
      console.log(ports.join(" ")); })();' "$1"
}

fail() {
  echo "FAILED: $*" >&2
  echo "--- launcher output (tail) ---" >&2; tail -n 40 "$out" >&2 || true
  for log in "$data"/logs/*.log; do
    [ -f "$log" ] && { echo "--- $log (tail) ---" >&2; tail -n 30 "$log" >&2; }
  done
  if [ -n "${launcher:-}" ]; then kill "$launcher" 2>/dev/null; wait "$launcher" 2>/dev/null || true; fi
  exit 1
}

wait_for_line() {  # wait_for_line PATTERN SECONDS: until the launcher prints PATTERN
  local deadline=$(( $(date +%s) + $2 ))
  until grep -q "$1" "$out"; do
    kill -0 "$launcher" 2>/dev/null || fail "the launcher exited while waiting for '$1'"
    [ "$(date +%s)" -lt "$deadline" ] || fail "no '$1' within $2 s"
    sleep 0.2
  done
}

service_pid() {  # service_pid MODULE [REPLICA]: the pid of a service's replica (from 0; default 0) the launcher runs
  local port pid
  port=$(( $(eval echo "\$${1%%-*}_port") + 100 * ${2:-0} ))
  for pid in $(pgrep -P "$launcher" -f "$1/target/quarkus-app/quarkus-run.jar"); do
    tr '\0' '\n' <"/proc/$pid/environ" | grep -qx "QUARKUS_HTTP_PORT=$port" && echo "$pid"
  done
}

start_platform() {  # start_platform [./platform options…]; PORT_BASE=N: ports N…N+22 (and +100·k for replicas) instead of free ones
  data=$(mktemp -d /tmp/platform.XXXXXX)
  out=$data/launcher.out
  local pg kafka tracing inference training automation console console_https s3
  if [ -n "${PORT_BASE:-}" ]; then
    read -r pg kafka tracing inference training automation console console_https s3 <<<"$PORT_BASE $((PORT_BASE + 2)) \
      $((PORT_BASE + 10)) $((PORT_BASE + 11)) $((PORT_BASE + 12)) $((PORT_BASE + 13)) $((PORT_BASE + 20)) $((PORT_BASE + 21)) $((PORT_BASE + 22))"
  else
    # every port in one pick, the S3 server's too (used only with --blob-store s3), so that none can clash
    read -r pg kafka tracing inference training automation console console_https s3 < <(free_ports 9)
  fi
  tracing_port=$tracing inference_port=$inference training_port=$training automation_port=$automation
  ports=("$pg" "$kafka" "$((kafka + 1))" "$tracing" "$inference" "$training" "$automation" "$console" "$console_https" "$s3")
  local arg replicas=1 previous= k
  for arg in "$@"; do
    if [ "$previous" = --replicas ]; then replicas=$arg; fi
    previous=$arg
  done
  for ((k = 1; k < replicas; k++)); do
    ports+=("$((tracing + 100 * k))" "$((inference + 100 * k))" "$((training + 100 * k))" "$((automation + 100 * k))")
  done
  ./platform --data-dir "$data" --postgres-port "$pg" --kafka-port "$kafka" --tracing-port "$tracing" \
    --inference-port "$inference" --training-port "$training" --automation-port "$automation" \
    --console-port "$console" --console-https-port "$console_https" --s3-port "$s3" "$@" >"$out" 2>&1 &
  launcher=$!
  wait_for_line "The platform is ready" "${PLATFORM_START_TIMEOUT_S:-300}"
  KEY=$(cat "$data/dev-api-key")
  export KEY TRACING_URL=http://localhost:$tracing INFERENCE_URL=http://localhost:$inference \
    TRAINING_URL=http://localhost:$training AUTOMATION_URL=http://localhost:$automation CONSOLE_URL=http://localhost:$console \
    CONSOLE_HTTPS_URL=https://localhost:$console_https \
    S3_URL=http://127.0.0.1:$s3
}

stop_platform() {  # SIGTERM, as Ctrl-C would; fails unless every process and port of the platform is gone
  local descendants_of processes left port
  descendants_of() { local child; for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$child"; descendants_of "$child"; done; }
  processes=$(descendants_of "$launcher")
  kill -TERM "$launcher"
  for _ in $(seq 1 90); do kill -0 "$launcher" 2>/dev/null || break; sleep 1; done
  kill -0 "$launcher" 2>/dev/null && fail "the launcher did not stop within 90 s of SIGTERM"
  launcher=
  left=$(for pid in $processes; do kill -0 "$pid" 2>/dev/null && ps -o pid=,args= -p "$pid"; done; pgrep -af -- "$data" || true)
  [ -z "$left" ] || fail "processes left after SIGTERM: $left"
  for port in "${ports[@]}"; do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && fail "port $port still open after SIGTERM"
  done
  rm -rf "$data"
}
