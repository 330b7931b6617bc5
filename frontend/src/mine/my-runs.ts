// The learner's own finished training runs, kept in this browser (IndexedDB), one per script:
// My microgpt writes one when a run of the learner's assembled script ends; the course's end
// page draws it beside the reference, and lesson 11.2 samples names from its weights. Like the
// reference runs (reference-store.ts), a store that cannot be opened or written only means the
// run is not shown elsewhere: it is never lost work, the learner can train again.

import { getKept, putKept } from "./kept";

export interface MyRun {
  script: string; // "microgpt.py", "train5.py" ...
  steps: number;
  bundledNames: boolean; // trained on the bundled names (not a file of the learner's own)
  dataset: string; // in words: "the bundled names", or the file's name
  losses: Array<number | null>;
  referenceLosses: Array<number | null>; // the reference run for the same script, steps and data
  verdict: string; // how the two compared, in the words My microgpt showed
  weights: number[];
  names: string[]; // what the script sampled at the end
  temperature: number | null;
  seconds: number;
  at: number; // when it finished (ms since 1970)
}

const DB = "linebyline-my-runs";
const STORE = "runs";

/** The learner's last finished run of `script`, or null. */
export async function loadMyRun(script: string): Promise<MyRun | null> {
  return readRun(await getKept(DB, STORE, script));
}

/** Keep `run` as the learner's last run of its script; false if the browser refused. */
export function saveMyRun(run: MyRun): Promise<boolean> {
  return putKept(DB, STORE, run.script, run);
}

const isNumberOrNull = (x: unknown): x is number | null => x === null || (typeof x === "number" && Number.isFinite(x));

/** A stored run as it must be, or null (a run kept by an older page, or damaged). */
function readRun(value: unknown): MyRun | null {
  const run = value as Partial<MyRun> | undefined;
  if (!run || typeof run !== "object") return null;
  if (typeof run.script !== "string" || !Number.isInteger(run.steps) || typeof run.bundledNames !== "boolean") return null;
  if (!Array.isArray(run.losses) || !run.losses.every(isNumberOrNull)) return null;
  if (!Array.isArray(run.referenceLosses) || !run.referenceLosses.every(isNumberOrNull)) return null;
  if (!Array.isArray(run.weights) || !run.weights.every((x) => typeof x === "number")) return null;
  if (!Array.isArray(run.names) || !run.names.every((x) => typeof x === "string")) return null;
  return {
    script: run.script, steps: run.steps!, bundledNames: run.bundledNames, dataset: String(run.dataset ?? ""),
    losses: run.losses, referenceLosses: run.referenceLosses, verdict: String(run.verdict ?? ""),
    weights: run.weights, names: run.names, temperature: typeof run.temperature === "number" ? run.temperature : null,
    seconds: Number(run.seconds) || 0, at: Number(run.at) || 0,
  };
}
