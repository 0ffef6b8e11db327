// An evaluation logged by the Weave TypeScript SDK (npm weave 0.11.1, unmodified) against a running tracing-service, for
// EvalResultsSdkTest, which logs another through the v2 routes and reads both back (docs/tracing-service.md#evaluations-as-data).
// Usage: WF_TRACE_SERVER_URL=http://host:port WANDB_API_KEY=<key> node weave-eval.mjs <entity/project>
// Prints "RESULT <json>" with the evaluation's summary.
import * as weave from "weave";

const [project] = process.argv.slice(2);
await weave.init(project);

const dataset = new weave.Dataset({
  id: "arithmetic",
  rows: [
    { question: "1+1", expected: "2" },
    { question: "2+2", expected: "4" },
  ],
});
const exact = weave.op(function exact({ modelOutput, datasetRow }) {
  return modelOutput === datasetRow.expected;
});
const model = weave.op(async function calculator({ datasetRow }) {
  return datasetRow.question === "1+1" ? "2" : "5";
});
const evaluation = new weave.Evaluation({ id: "arithmetic-eval", dataset, scorers: [exact] });
const summary = await evaluation.evaluate({ model });
console.log(`RESULT ${JSON.stringify(summary)}`);
