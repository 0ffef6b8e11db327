// The Weave TypeScript SDK (npm weave 0.11.1), unmodified, against a running tracing-service (docs/tracing-service.md#the-typescript-sdk).
// Usage: WF_TRACE_SERVER_URL=http://host:port WANDB_API_KEY=<key> node weave-check.mjs <entity/project>
// Traces nested ops, publishes an object, saves a Dataset and logs an image, reads them back through the
// SDK, prints one "ok ..." line per check and, last, "RESULT <json>" with the ids and digests that the
// JUnit side checks again through the REST API. Exits non-zero on the first failure.
import * as weave from "weave";

const [project] = process.argv.slice(2);
// A 1x1 PNG: the image value whose bytes must come back identical from /file/content.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

// Key order is not part of a value: the server stores objects canonically, with sorted keys.
function canonical(value) {
  if (Array.isArray(value)) {
    return value.map(canonical);
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

function same(a, b) {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function check(condition, what) {
  if (!condition) {
    console.error(`FAIL ${what}`);
    process.exit(1);
  }
  console.log(`ok ${what}`);
}

const client = await weave.init(project);

const add = weave.op(function add(a, b) {
  return a + b;
});
const pipeline = weave.op(async function pipeline(x) {
  const sum = await add(x, 1);
  const doubled = await add(sum, sum);
  return { sum, doubled };
});
const describeImage = weave.op(async function describeImage(image) {
  return `an image of ${image.data.length} bytes`;
});

const result = await pipeline(2);
check(result.sum === 3 && result.doubled === 6, "nested ops return their values");
await describeImage(weave.weaveImage({ data: png }));

const settings = { model: "gpt-4o-mini", temperature: 0.25, stop: ["\n"] };
// Saving marks the values it saved (a __savedRef property), so the checks compare with pristine copies.
const expectedSettings = structuredClone(settings);
const settingsRef = await client.publish(settings, "chat-settings");
check(settingsRef.digest && settingsRef.objectId === "chat-settings", "publish answers a ref with a digest");

const rows = [
  { question: "1 + 2", answer: 3 },
  { question: "2 ** 4", answer: 16 },
  { question: "10 / 4", answer: 2.5 },
];
const expectedRows = structuredClone(rows);
const dataset = new weave.Dataset({ id: "arithmetic", rows });
const datasetRef = await dataset.save();
check(datasetRef.digest, "a Dataset saves");

await client.waitForBatchProcessing();

const calls = await client.getCalls();
const root = calls.find((call) => call.op_name.includes("/op/pipeline:"));
check(root && !root.parent_id, "the root call is found by getCalls");
const children = calls.filter((call) => call.parent_id === root.id);
check(children.length === 2 && children.every((call) => call.op_name.includes("/op/add:")), "the two add calls are its children");
check(children.every((call) => call.trace_id === root.trace_id), "children share the root's trace");
check(root.output.sum === 3 && root.output.doubled === 6, "the root's output reads back");
const imageCall = calls.find((call) => call.op_name.includes("/op/describeImage:"));
// A plain function's parameters are logged positionally.
const imageValue = imageCall.inputs.arg0;
check(imageValue._type === "CustomWeaveType" && imageValue.files["image.png"], "the image input is a file placeholder");

const readSettings = await client.get(settingsRef);
check(same(readSettings, expectedSettings), `the published object reads back (${JSON.stringify(readSettings)})`);
const readDataset = await client.get(datasetRef);
const readRows = [];
for await (const row of readDataset) {
  readRows.push({ question: row.question, answer: row.answer });
}
check(same(readRows, expectedRows), `the Dataset's rows read back in order (${JSON.stringify(readRows)})`);

const single = await client.getCall(children[0].id);
check(single.id === children[0].id && single.parent_id === root.id, "getCall reads one call");

console.log(
  "RESULT " +
    JSON.stringify({
      rootId: root.id,
      childIds: children.map((call) => call.id),
      rootOpName: root.op_name,
      childOpName: children[0].op_name,
      imageDigest: imageValue.files["image.png"],
      imageBase64: png.toString("base64"),
      settings: { objectId: settingsRef.objectId, digest: settingsRef.digest },
      dataset: { objectId: datasetRef.objectId, digest: datasetRef.digest },
      rows: expectedRows,
    }),
);
