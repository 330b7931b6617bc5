// Runs the browser's merge (frontend/src/merge.ts, bundled by the test) on JSON lines from stdin:
// {"op": "merge", "a": lessons, "b": lessons} or {"op": "read", "doc": document}; one answer a line.
import { createInterface } from "node:readline";

const [, , bundle] = process.argv;
const merge = await import(bundle);
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  let answer;
  try {
    if (request.op === "merge") answer = { ok: merge.merge(request.a, request.b) };
    else answer = { ok: merge.readDocument(request.doc).lessons };
  } catch (error) {
    answer = { error: String(error.message) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
