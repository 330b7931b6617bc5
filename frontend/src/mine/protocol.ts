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
