// Reference runs kept in this browser (IndexedDB), so the reference curve for the same script,
// steps and data is computed once: the next run of the learner's code needs one worker, not two.
// A store that cannot be opened or written only means the reference runs again.

import { getKept, putKept } from "./kept";

export interface StoredRun { losses: Array<number | null>; marks: string[]; weights: number[] }

const DB = "linebyline-reference-runs";
const STORE = "runs";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Everything the reference's numbers depend on: its text, the steps, the data, the Python. */
export async function referenceKey(source: string, steps: number, dataset: string, python: string): Promise<string> {
  return sha256([source, String(steps), await sha256(dataset), python].join("\0"));
}

export async function loadReference(key: string): Promise<StoredRun | null> {
  return ((await getKept(DB, STORE, key)) as StoredRun | undefined) ?? null;
}

export async function saveReference(key: string, run: StoredRun): Promise<void> {
  await putKept(DB, STORE, key, run); // not kept: the reference runs again next time
}
