// Logs what a user's app would, with the unmodified Weave TypeScript SDK through the console's origin:
// a traced question whose first child fails and whose second is an LLM call with usage, and a Dataset.
// Usage: WF_TRACE_SERVER_URL=<console origin> WANDB_API_KEY=<key> node seed.mjs <entity/project>
import * as weave from 'weave';

const [project] = process.argv.slice(2);
const client = await weave.init(project);

const lookupFacts = weave.op(async function lookupFacts(question) {
  throw new Error(`the fact store has nothing about "${question}"`);
}, { parameterNames: ['question'] });

const chatModel = weave.op(async function chatModel(request) {
  return { model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: 'The capital of France is Paris.' } }] };
}, {
  parameterNames: 'useParam0Object',
  summarize: () => ({ usage: { 'gpt-4o-mini': { requests: 1, prompt_tokens: 14, completion_tokens: 7, total_tokens: 21 } } }),
});

const answerQuestion = weave.op(async function answerQuestion(question) {
  try {
    await lookupFacts(question);
  } catch (expected) {
    // The app falls back to the model when the fact store fails.
  }
  const reply = await chatModel({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] });
  return reply.choices[0].message.content;
}, { parameterNames: ['question'] });

await answerQuestion('What is the capital of France?');
const dataset = new weave.Dataset({
  name: 'capitals',
  rows: [
    { country: 'France', capital: 'Paris' },
    { country: 'Japan', capital: 'Tokyo' },
    { country: 'Kenya', capital: 'Nairobi' },
  ],
});
await dataset.save();
await client.waitForBatchProcessing();
console.log('SEEDED');
