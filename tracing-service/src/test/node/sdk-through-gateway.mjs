// The Weave TypeScript SDK (npm weave 0.11.1) and the openai npm client, both unmodified, tracing chat completions
// of the inference gateway the way a user's app does (docs/tracing-service.md#usage-calls):
// weave.wrapOpenAI(new OpenAI({baseURL: <gateway>/v1, defaultHeaders: {'Compat-Project': <project>}})).
// Usage: WF_TRACE_SERVER_URL=<tracing> WANDB_API_KEY=<key> GATEWAY_URL=<gateway> node sdk-through-gateway.mjs <entity/project> <order>
// order "sdk-first": the SDK's calls are sent as the SDK sends them (the caller holds the usage records back).
// order "gateway-first": the SDK's uploads are held by a proxy in front of the tracing service until the
// gateway's call of every completion is there, then let through.
// Makes one completion and one streamed completion; prints "RESULT <json>" with the completions' ids, last.
import http from "node:http";
import OpenAI from "openai";

const [project, order] = process.argv.slice(2);
const tracing = process.env.WF_TRACE_SERVER_URL;
const key = process.env.WANDB_API_KEY;

function fail(what) {
  console.error(`FAIL ${what}`);
  process.exit(1);
}

// Holds the SDK's call uploads while `holding`; everything else goes straight through.
let holding = order === "gateway-first";
const held = [];
const proxy = http.createServer((request, response) => {
  const forward = () => {
    const upstream = http.request(new URL(request.url, tracing), { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", (error) => response.destroy(error));
    request.pipe(upstream);
  };
  if (holding && request.url.startsWith("/call/")) {
    request.pause();
    held.push(forward);
  } else {
    forward();
  }
});
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
process.env.WF_TRACE_SERVER_URL = `http://127.0.0.1:${proxy.address().port}`;

const weave = await import("weave");
const client = await weave.init(project);
const openai = weave.wrapOpenAI(new OpenAI({
  baseURL: `${process.env.GATEWAY_URL}/v1`,
  apiKey: key,
  defaultHeaders: { "Compat-Project": project },
}));

const messages = [{ role: "user", content: "Once upon a time" }];
const whole = await openai.chat.completions.create({ model: "stories260K", messages, max_tokens: 8, temperature: 0 });
let streamedId = null;
let streamedText = "";
const stream = await openai.chat.completions.create({ model: "stories260K", messages, max_tokens: 8, temperature: 0, stream: true });
for await (const chunk of stream) {
  streamedId = chunk.id;
  streamedText += chunk.choices[0]?.delta?.content ?? "";
}
if (!whole.id || !streamedId) fail("the gateway answered completions with ids");
const ids = [whole.id, streamedId];

async function gatewayCallsOf(completionIds) {
  const response = await fetch(`${tracing}/calls/stream_query`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: JSON.stringify({ project_id: project }),
  });
  const lines = (await response.text()).split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  return lines.filter((call) => call.op_name === "inference.chat.completions" && completionIds.includes(call.output?.id));
}

if (order === "gateway-first") {
  for (let attempt = 0; (await gatewayCallsOf(ids)).length < ids.length; attempt++) {
    if (attempt > 150) fail("the gateway's calls of the completions arrived");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`ok the gateway's calls came first, ${held.length} SDK uploads held`);
  holding = false;
  held.splice(0).forEach((forward) => forward());
}
await client.waitForBatchProcessing();
proxy.close();
console.log("RESULT " + JSON.stringify({ ids, text: whole.choices[0].message.content, streamedText }));
process.exit(0);
