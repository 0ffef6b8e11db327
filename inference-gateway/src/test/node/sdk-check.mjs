// The official openai npm SDK against a running gateway. Usage: node sdk-check.mjs <baseURL> <apiKey> <project>
// Prints one line per check and exits non-zero on the first failure.
import OpenAI from "openai";

const [baseURL, apiKey, project] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, defaultHeaders: { "Compat-Project": project }, maxRetries: 0 });
const golden = ", a little girl was very happy.";
const request = {
  model: "stories260K",
  messages: [{ role: "user", content: "Once upon a time" }],
  temperature: 0,
  max_tokens: 12,
};

function check(condition, what) {
  if (!condition) {
    console.error(`FAIL ${what}`);
    process.exit(1);
  }
  console.log(`ok ${what}`);
}

const completion = await client.chat.completions.create(request);
check(completion.choices[0].message.content.startsWith(golden), "create returns the golden story");
check(completion.usage.completion_tokens === 12, "create reports real usage");

let text = "";
let usage = null;
const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
for await (const chunk of stream) {
  text += chunk.choices[0]?.delta?.content ?? "";
  usage = chunk.usage ?? usage;
}
check(text.startsWith(golden), "a stream yields the same text");
check(usage?.completion_tokens === 12, "a stream ends with its usage chunk");

const runner = client.chat.completions.stream(request);
const final = await runner.finalChatCompletion();
check(final.choices[0].finish_reason === "length", "the stream helper assembles a final completion");

const models = [];
for await (const model of client.models.list()) {
  models.push(model.id);
}
check(models.includes("stories260K"), "models.list lists the embedded model");
check((await client.models.retrieve("stories260K")).id === "stories260K", "models.retrieve finds it");

try {
  await client.chat.completions.create({ ...request, top_k: "many" });
  check(false, "a schema error is raised");
} catch (error) {
  check(error.status === 422 && error.message.includes("top_k"), "a 422 shows its message: " + error.message);
}
try {
  await client.chat.completions.create({ ...request, temperature: -1 });
  check(false, "a serving error is raised");
} catch (error) {
  check(error.status === 400 && error.message.includes("temperature must be non-negative"), "a 400 shows its message");
}
