// The two levels of a Build's TODO comments, as src/linebyline/course/levels.py has them: guided
// (how to write each line) and on my own (only what the lines must achieve, and which check
// proves it). The page gets each TODO block at both levels from the server; switching rewrites
// only the blocks still in the learner's code exactly as a starter had them (trailing spaces
// aside), in order, each after the one before. Their code, and any comment they changed, stays.

export type Level = "guided" | "own";
export const LEVELS: Level[] = ["guided", "own"];
export const LEVEL_NAMES: Record<Level, string> = { guided: "Guided", own: "On my own" };
/** Each TODO block as [its guided lines, its on-my-own lines], joined by newlines. */
export type LevelPairs = Array<[string, string]>;

const trimEnd = (line: string): string => line.replace(/\s+$/, "");

function find(lines: string[], block: string[], start: number): number {
  const wanted = block.map(trimEnd);
  for (let at = start; at + block.length <= lines.length; at += 1) {
    if (wanted.every((line, k) => trimEnd(lines[at + k]) === line)) return at;
  }
  return -1;
}

/** `text` with every TODO block still at the other level rewritten to level `to`, and how many
 *  blocks were rewritten. */
export function switchBlocks(text: string, pairs: LevelPairs, to: Level): { text: string; rewritten: number } {
  const ends = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let position = 0;
  let rewritten = 0;
  for (const [guided, own] of pairs) {
    const [wanted, replacement] = to === "guided" ? [own, guided] : [guided, own];
    const block = wanted.split("\n");
    const at = find(lines, block, position);
    if (at < 0) continue;
    const fresh = replacement.split("\n");
    lines.splice(at, block.length, ...fresh);
    position = at + fresh.length;
    rewritten += 1;
  }
  return { text: lines.join(ends), rewritten };
}

/** How many of the TODO blocks `text` holds at `level`, as a starter had them. */
export function blocksAt(text: string, pairs: LevelPairs, level: Level): number {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  return pairs.filter(([g, o]) => find(lines, (level === "guided" ? g : o).split("\n"), 0) >= 0).length;
}

/** The level whose TODO blocks `text` holds more of (guided on a tie); null when it holds none. */
export function levelOf(text: string, pairs: LevelPairs): Level | null {
  const guided = blocksAt(text, pairs, "guided");
  const own = blocksAt(text, pairs, "own");
  if (!guided && !own) return null;
  return own > guided ? "own" : "guided";
}

/** The level the course home chose (kept in the progress, synced), guided until one is chosen. */
export function chosenLevel(progress: { setting(name: string): string | undefined }): Level {
  return progress.setting("todoLevel") === "own" ? "own" : "guided";
}

/** What levels.ts needs of a lesson's Build data: its starters. */
interface Starters { starter: string; own: { starter: string } | null }

/** The lesson's starter at `level` (the guided one where the lesson has no other). */
export function starterOf(exercise: Starters, level: Level): string {
  return level === "own" && exercise.own ? exercise.own.starter : exercise.starter;
}

/** Whether `text` is one of the lesson's starters, untouched. */
export function isStarter(exercise: Starters, text: string): boolean {
  return text === exercise.starter || (exercise.own !== null && text === exercise.own.starter);
}
