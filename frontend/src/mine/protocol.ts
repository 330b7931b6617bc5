// What the My microgpt page and its training workers say to each other.

/** Int32 slots of the shared control buffer the page writes and the worker reads at each step. */
export const CONTROL = {
  pause: 0, // 1 while paused; the worker sleeps on this slot, the page notifies it on any change
  stop: 1, // 1: end the run at the next step
  sample: 2, // bumped by the page for each "sample now"
  temperature: 3, // for "sample now": the temperature times 1000
  size: 4,
} as const;

export interface TrainJob {
  id: number;
  source: string; // the script, as it is (the worker sets its steps and temperature)
  filename: string;
  steps: number;
  temperature: number | null; // null: the script's own (train0 has none)
  dataset: string; // what the script reads as input.txt
}

/** Steps since the last batch: step numbers, exact losses (null if none), weight fingerprints,
 *  and the other lines the script printed. */
export interface Batch {
  steps: number[];
  losses: Array<number | null>;
  marks: string[];
  lines: string[];
}

/** The blank-page recall: the learner's whole program, judged by its first steps (blank.py). */
export interface BlankJob {
  id: number;
  source: string;
  name: string; // the program's file name: microgpt.py
  kept: string; // the kept first steps of the reference, as JSON
  regions: string; // the reference program's regions, as JSON
  unlocks: string; // {lesson: [[start, end], ...]}, as JSON
  steps: number;
  dataset: string;
}

/** What blank.py's judge_json says. */
export interface Judged { passed: boolean; text: string; step: number; lines: [number, number] | null }
