// Logs what a user evaluating two models would, with the unmodified Weave TypeScript SDK through the console's
// origin: one Evaluation (two scorers: a boolean and a number) of two models on one three-row dataset; then a third
// model's run of that Evaluation logged through Weave's v2 REST routes, as a service without the SDK logs one.
// Usage: WF_TRACE_SERVER_URL=<console origin> WANDB_API_KEY=<key> node seed-evals.mjs <entity/project>
import * as weave from 'weave';

const [project] = process.argv.slice(2);
const client = await weave.init(project);

const rows = [
  { question: '1+1', expected: '2' },
  { question: '2+2', expected: '4' },
  { question: '3+3', expected: '6' },
];
const dataset = new weave.Dataset({ name: 'arithmetic', rows });
const exact = weave.op(function exact({ modelOutput, datasetRow }) {
  return modelOutput === datasetRow.expected;
});
const distance = weave.op(function distance({ modelOutput, datasetRow }) {
  return Math.abs(Number(modelOutput) - Number(datasetRow.expected));
});
// careful is an LLM app: each answer reports its tokens, which the run's summary adds up.
const careful = weave.op(async function careful({ datasetRow }) {
  const [left, right] = datasetRow.question.split('+').map(Number);
  return String(left + right);
}, { summarize: () => ({ usage: { 'arith-llm': { requests: 1, prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } }) });
const sloppy = weave.op(async function sloppy({ datasetRow }) {
  return { '1+1': '2', '2+2': '5' }[datasetRow.question] ?? '9';
});
const evaluation = new weave.Evaluation({ name: 'arithmetic-eval', dataset, scorers: [exact, distance] });
await evaluation.evaluate({ model: careful });
await evaluation.evaluate({ model: sloppy });
await client.waitForBatchProcessing();

const origin = process.env.WF_TRACE_SERVER_URL;
async function post(path, body) {
  const response = await fetch(`${origin}${path}`, { method: 'POST', body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${process.env.WANDB_API_KEY}`, 'Content-Type': 'application/json' } });
  if (!response.ok) throw new Error(`${path} answered ${response.status} ${await response.text()}`);
  return response.json();
}
const v2 = (path, body) => post(`/v2/${project}${path}`, body);
const { objs: [published] } = await post('/objs/query', { project_id: project, filter: { object_ids: ['arithmetic-eval'], latest_only: true } });
const evaluationRef = `weave:///${project}/object/arithmetic-eval:${published.digest}`;
const { model_ref: model } = await v2('/models', { name: 'rest-model', source_code: 'def predict(question):\n    return ...\n' });
const scorers = {};
for (const name of ['exact', 'distance']) {
  scorers[name] = (await v2('/scorers', { name, op_source_code: 'def score(output, expected):\n    return ...\n' })).scorer;
}
const { evaluation_run_id: run } = await v2('/evaluation_runs', { evaluation: evaluationRef, model });
const answers = { '1+1': '2', '2+2': '4', '3+3': '7' };
const summary = { exact: { true_count: 0, true_fraction: 0 }, distance: { mean: 0 } };
for (const row of rows) {
  const output = answers[row.question];
  // The row's own fields: the SDK marked the objects it saved with a __savedRef of its own.
  const inputs = { question: row.question, expected: row.expected };
  const { prediction_id: prediction } = await v2('/predictions', { model, inputs, output, evaluation_run_id: run });
  const exactValue = output === row.expected;
  const distanceValue = Math.abs(Number(output) - Number(row.expected));
  await v2('/scores', { prediction_id: prediction, scorer: scorers.exact, value: exactValue, evaluation_run_id: run });
  await v2('/scores', { prediction_id: prediction, scorer: scorers.distance, value: distanceValue, evaluation_run_id: run });
  await v2(`/predictions/${prediction}/finish`, {});
  summary.exact.true_count += exactValue ? 1 : 0;
  summary.distance.mean += distanceValue / rows.length;
}
summary.exact.true_fraction = summary.exact.true_count / rows.length;
await v2(`/evaluation_runs/${run}/finish`, { summary });
console.log('SEEDED');
