// What the lesson page tells the Build part about its exercise (the page's JSON): here, apart from
// build-part.ts and build-editor.ts, so that neither imports the other for it.
import type { LevelPairs } from "./levels";

export interface ExerciseData {
  lesson: string; course: string; filename: string; starter: string; checksUrl: string;
  checkNames: string[]; hints: string[];
  codealong: Array<{ title: string; caption: string; find: string; type: string }>;
  /** A line of the answer as a known mistake writes it, for the Parsons rung ("" for none). */
  distractor: string;
  runtimeUrl: string;
  /** The on-my-own level (levels.ts), null for a lesson that has none yet: its starter, and each
   *  TODO block at both levels. `starter` is the guided one. */
  own: { starter: string; blocks: LevelPairs } | null;
  /** The Graph tab's rule for backward() ("chain" or "paths"), "" where the module has no tab. */
  graph: string;
}
