// The official openai npm SDK's Responses API against a running gateway.
// Usage: node responses-check.mjs <baseURL> <apiKey> <project>
// Needs the gateway's test upstreams chat-tools and native-responses (FakeResponsesUpstreams). Prints one line per
// check, exits non-zero on the first failure.
import OpenAI from "openai";

const [baseURL, apiKey, project] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, defaultHeaders: { "Compat-Project": project }, maxRetries: 0 });
const golden = ", a little girl was very happy.";
const story = { model: "stories260K", input: "Once upon a time", temperature: 0, max_output_tokens: 12 };

function check(condition, what) {
  if (!condition) {
    console.error(`FAIL ${what}`);
    process.exit(1);
  }
  console.log(`ok ${what}`);
}

const created = await client.responses.create(story);
check(created.id.startsWith("resp_") && created.object === "response", "responses.create returns a Response");
check(created.output_text.startsWith(golden), "its output_text is the golden story");
check(created.usage.output_tokens === 12 && created.usage.total_tokens === created.usage.input_tokens + 12,
  "its usage counts input and output tokens");
check(created.status === "incomplete" && created.incomplete_details.reason === "max_output_tokens",
  "a response cut by max_output_tokens is incomplete");

const retrieved = await client.responses.retrieve(created.id);
check(retrieved.id === created.id && retrieved.output_text === created.output_text, "responses.retrieve reads it back");

const continued = await client.responses.create({ ...story, previous_response_id: created.id, input: "The end." });
check(continued.previous_response_id === created.id, "previous_response_id continues a stored response");

const listed = [];
for await (const item of client.responses.inputItems.list(continued.id)) listed.push(item);
check(listed.length === 3 && listed[0].content[0].text === "The end." && listed[1].role === "assistant"
  && listed[2].content[0].text === "Once upon a time", "responses.inputItems.list lists the conversation, newest first");
const pagedAscending = [];
for await (const item of client.responses.inputItems.list(continued.id, { order: "asc", limit: 1 })) {
  pagedAscending.push(item.id);
}
check(JSON.stringify(pagedAscending) === JSON.stringify(listed.map((item) => item.id).reverse()),
  "its pages (limit 1, order asc) follow one another by after");

const truncated = await client.responses.create({ ...story, truncation: "auto", store: false });
check(truncated.truncation === "auto", "truncation auto is accepted and echoed");

const stream = client.responses.stream(story);
let deltas = "";
stream.on("response.output_text.delta", (event) => { deltas += event.delta; });
const final = await stream.finalResponse();
check(deltas.startsWith(golden) && final.output_text === deltas, "responses.stream yields deltas and a final Response");

const events = [];
for await (const event of await client.responses.create({ ...story, stream: true })) {
  events.push(event.type);
}
check(events[0] === "response.created" && events.at(-1) === "response.incomplete", "a raw stream runs created to its end");

await client.responses.delete(created.id);
try {
  await client.responses.retrieve(created.id);
  check(false, "a deleted response is gone");
} catch (error) {
  check(error.status === 404, "responses.delete removes it (retrieve: 404)");
}

const weather = { type: "function", name: "get_weather", description: "The weather of a city", strict: false,
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const asked = await client.responses.create({ model: "chat-tools", input: "Weather in Paris?", tools: [weather] });
const call = asked.output.find((item) => item.type === "function_call");
check(call?.name === "get_weather" && JSON.parse(call.arguments).city === "Paris", "a tool call is a function_call item");
const answered = await client.responses.create({ model: "chat-tools", tools: [weather], previous_response_id: asked.id,
  input: [{ type: "function_call_output", call_id: call.call_id, output: "Sunny" }] });
check(answered.output_text === "The tool said: Sunny", "its output goes back as function_call_output");

const streamedCall = client.responses.stream({ model: "chat-tools", input: "Weather in Paris?", tools: [weather] });
let argumentDeltas = "";
streamedCall.on("response.function_call_arguments.delta", (event) => { argumentDeltas += event.delta; });
const streamedFinal = await streamedCall.finalResponse();
check(argumentDeltas === streamedFinal.output[0].arguments, "a streamed tool call yields its argument deltas");

const required = await client.responses.create({ model: "chat-tools", input: "Weather?", tools: [weather],
  tool_choice: "required" });
check(required.tool_choice === "required" && required.output[0].type === "function_call",
  "tool_choice required reaches a chat-only upstream");

const relayed = client.responses.stream({ model: "native-responses", input: "hi" });
const relayedTypes = [];
relayed.on("event", (event) => relayedTypes.push(event.type));
const relayedFinal = await relayed.finalResponse();
check(relayedFinal.output_text === "Natively answered" && relayedFinal.model === "native-responses"
  && relayedTypes.at(-1) === "response.completed", "a stream relayed from a Responses upstream is read by the SDK");

try {
  await client.responses.create({ ...story, temperature: "hot" });
  check(false, "an invalid request is raised");
} catch (error) {
  check(error.status === 400 && error.param === "temperature" && error.message.includes("temperature"),
    "a 400 names the field: " + error.message);
}
