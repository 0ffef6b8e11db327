// Evaluates models served by the gateway with the unmodified Weave TypeScript SDK, through the console's origin:
// the same Evaluation (does the story mention a girl; how long is it) of each model on one dataset of openings,
// each model an op that asks /v1/chat/completions at temperature 0.
// Usage: WF_TRACE_SERVER_URL=<console origin> WANDB_API_KEY=<key> node eval-checkpoints.mjs <entity/project> <model>=<op name>...
import * as weave from 'weave';

const [project, ...models] = process.argv.slice(2);
const client = await weave.init(project);
const origin = process.env.WF_TRACE_SERVER_URL;

const dataset = new weave.Dataset({
  name: 'story-openings',
  rows: [{ prompt: 'Once upon a time' }, { prompt: 'The little dog' }, { prompt: 'One day, Lily' }],
});
const mentionsGirl = weave.op(function mentions_girl({ modelOutput }) {
  return /girl/.test(modelOutput);
});
const storyLength = weave.op(function story_length({ modelOutput }) {
  return modelOutput.length;
});
const evaluation = new weave.Evaluation({ name: 'story-eval', dataset, scorers: [mentionsGirl, storyLength] });

for (const spec of models) {
  const [model, opName] = spec.split('=');
  // A function named after the model, so the run's model shows by that name.
  const ask = { [opName]: async function ({ datasetRow }) {
    const response = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${process.env.WANDB_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: datasetRow.prompt }], temperature: 0, max_tokens: 24 }),
    });
    if (!response.ok) throw new Error(`${model} answered ${response.status}: ${await response.text()}`);
    return (await response.json()).choices[0].message.content;
  } }[opName];
  await evaluation.evaluate({ model: weave.op(ask) });
}
await client.waitForBatchProcessing();
console.log('EVALUATED');
