// Runs the browser's merge (frontend/src/merge.ts, bundled by the test) on JSON lines from stdin:
// {"op": "merge", "a": lessons, "b": lessons}, {"op": "read", "doc": document}, and the same for
// settings ("mergeSettings", "readSettings"); one answer a line.
import { createInterface } from "node:readline";

const [, , bundle] = process.argv;
const merge = await import(bundle);
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  let answer;
  try {
    if (request.op === "merge") answer = { ok: merge.merge(request.a, request.b) };
    else if (request.op === "mergeSettings") answer = { ok: merge.mergeSettings(request.a, request.b) };
    else if (request.op === "readSettings") answer = { ok: merge.readSettings(request.doc) };
    else answer = { ok: merge.readDocument(request.doc).lessons };
  } catch (error) {
    answer = { error: String(error.message) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
