// Logs what a user evaluating two models would, with the unmodified Weave TypeScript SDK through the console's
// origin: one Evaluation (two scorers: a boolean and a number) of two models on one three-row dataset.
// Usage: WF_TRACE_SERVER_URL=<console origin> WANDB_API_KEY=<key> node seed-evals.mjs <entity/project>
import * as weave from 'weave';

const [project] = process.argv.slice(2);
const client = await weave.init(project);

const dataset = new weave.Dataset({
  name: 'arithmetic',
  rows: [
    { question: '1+1', expected: '2' },
    { question: '2+2', expected: '4' },
    { question: '3+3', expected: '6' },
  ],
});
const exact = weave.op(function exact({ modelOutput, datasetRow }) {
  return modelOutput === datasetRow.expected;
});
const distance = weave.op(function distance({ modelOutput, datasetRow }) {
  return Math.abs(Number(modelOutput) - Number(datasetRow.expected));
});
const careful = weave.op(async function careful({ datasetRow }) {
  const [left, right] = datasetRow.question.split('+').map(Number);
  return String(left + right);
});
const sloppy = weave.op(async function sloppy({ datasetRow }) {
  return { '1+1': '2', '2+2': '5' }[datasetRow.question] ?? '9';
});
const evaluation = new weave.Evaluation({ name: 'arithmetic-eval', dataset, scorers: [exact, distance] });
await evaluation.evaluate({ model: careful });
await evaluation.evaluate({ model: sloppy });
await client.waitForBatchProcessing();
console.log('SEEDED');
