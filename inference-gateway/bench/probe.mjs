// Closed-loop load with per-request timing: C keep-alive connections, each sending its next request when the
// previous answer ended, for D seconds. Times the first byte (streams: the first content chunk) and the whole
// answer with sub-millisecond resolution, and checks every answer: a 200, a stream ending with [DONE], and
// what the environment asks: EXPECTED_CHUNKS (the upstream.mjs chunks "w<n> " a stream must carry all of),
// EXPECT (text every answer must contain). Used where autocannon's whole-millisecond latencies or its lack of
// a first-chunk time would hide what is measured (c=1, streams, the engine). A stream of another API than chat
// completions names its own marks: STREAM_END (text its last event carries; default data: [DONE]), FIRST_MARK (text
// of its first content event; default "content") and CHUNK_FIELD (the field carrying the chunks; default content).
// Usage: node probe.mjs URL C D BODY [header: value]...   Prints one JSON line.
import http from 'node:http';

const [url, connections, seconds, body, ...headerArgs] = process.argv.slice(2);
const target = new URL(url);
const streamed = /"stream"\s*:\s*true/.test(body);
const expectedChunks = process.env.EXPECTED_CHUNKS ? Number(process.env.EXPECTED_CHUNKS) : null;
const expected = process.env.EXPECT || '';
const streamEnd = process.env.STREAM_END || 'data: [DONE]';
const firstMark = process.env.FIRST_MARK || '"content"';
const chunkPattern = new RegExp(`"${process.env.CHUNK_FIELD || 'content'}":"w\\d+ "`, 'g');
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
for (const header of headerArgs) {
  const at = header.indexOf(':');
  headers[header.slice(0, at).trim().toLowerCase()] = header.slice(at + 1).trim();
}
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const first = [];
const whole = [];
let ok = 0;
let errors = 0;
let incomplete = 0;
let non2xx = 0;
const deadline = performance.now() + Number(seconds) * 1000;

function once() {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstAt = 0;
    let text = '';
    const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent },
      (response) => {
        response.setEncoding('utf8');
        response.on('data', (part) => {
          if (!firstAt && (!streamed || part.includes(firstMark))) firstAt = performance.now();
          text += part;
        });
        response.on('end', () => {
          const ended = performance.now();
          if (response.statusCode !== 200) {
            non2xx++;
          } else if ((streamed && !text.includes(streamEnd)) || !text.includes(expected)
              || (expectedChunks !== null && (text.match(chunkPattern) || []).length !== expectedChunks)) {
            incomplete++;
          } else {
            ok++;
            first.push(firstAt - started);
            whole.push(ended - started);
          }
          resolve();
        });
        response.on('error', () => { errors++; resolve(); });
      });
    request.on('error', () => { errors++; resolve(); });
    request.end(body);
  });
}

async function loop() {
  while (performance.now() < deadline) await once();
}

const began = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, loop));
const elapsed = (performance.now() - began) / 1000;
const percentile = (values, p) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p / 100 * sorted.length))] * 1000) / 1000;
};
console.log(JSON.stringify({
  ok, rps: Math.round(ok / elapsed), non2xx, errors, incomplete,
  firstP50: percentile(first, 50), firstP99: percentile(first, 99), p50: percentile(whole, 50), p99: percentile(whole, 99),
}));
agent.destroy();
