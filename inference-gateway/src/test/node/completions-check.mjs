// Legacy completions and embeddings with the official openai npm SDK against a running gateway.
// Usage: node completions-check.mjs <baseURL> <apiKey> <project>. Prints one line per check; exits non-zero on a failure.
import OpenAI from "openai";

const [baseURL, apiKey, project] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, defaultHeaders: { "Compat-Project": project }, maxRetries: 0 });
const request = { model: "stories260K", prompt: "Once upon a time", temperature: 0, max_tokens: 8 };

function check(condition, what) {
  if (!condition) {
    console.error(`FAIL ${what}`);
    process.exit(1);
  }
  console.log(`ok ${what}`);
}

const completion = await client.completions.create({ ...request, logprobs: 2 });
const choice = completion.choices[0];
check(completion.object === "text_completion" && choice.text.length > 0, "completions.create returns a text completion");
check(completion.usage.completion_tokens === 8, "it reports its usage");
check(choice.logprobs.tokens.length === 8 && choice.logprobs.tokens.join("") === choice.text, "its logprobs list every token");
check(choice.logprobs.top_logprobs.every((top) => Object.keys(top).length >= 2), "with their alternatives");

let streamed = "";
let usage = null;
const stream = await client.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
for await (const chunk of stream) {
  streamed += chunk.choices[0]?.text ?? "";
  usage = chunk.usage ?? usage;
}
check(streamed === choice.text, "a stream yields the same text");
check(usage?.completion_tokens === 8, "a stream ends with its usage chunk");

const echoed = await client.completions.create({ ...request, echo: true, max_tokens: 0, logprobs: 1 });
check(echoed.choices[0].text === request.prompt && echoed.choices[0].logprobs.token_logprobs[0] === null,
  "an echo without generation scores the prompt");

const floats = await client.embeddings.create({ model: "stories260K", input: "Once upon a time", encoding_format: "float" });
const vector = floats.data[0].embedding;
const length = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
check(vector.length === 64 && Math.abs(length - 1) < 1e-5, "embeddings.create returns a unit vector of floats");
check(floats.usage.prompt_tokens > 0 && floats.usage.total_tokens === floats.usage.prompt_tokens, "embeddings count prompt tokens");

// without encoding_format the SDK asks for base64 and decodes it
const decoded = await client.embeddings.create({ model: "stories260K", input: ["Once upon a time", "The cat"] });
// JSON carries a float's shortest decimal, base64 its exact float32 value: equal within a float's precision
check(decoded.data.length === 2 && decoded.data[0].embedding.length === 64
  && decoded.data[0].embedding.every((value, i) => Math.abs(value - vector[i]) <= 1e-7),
  "base64 embeddings decode to the same floats");

try {
  await client.completions.create({ ...request, suffix: "The end." });
  check(false, "a refused field is raised");
} catch (error) {
  check(error.status === 400 && error.message.includes("suffix is not currently supported"), "a 400 shows its message");
}
