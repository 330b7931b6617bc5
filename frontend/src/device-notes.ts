// What this device remembers beside the progress, for teaching only, never synced: how often each
// quiz number was missed (the worked answer comes after two misses) and the checks' statuses in
// the last few checked runs of each lesson (a check's literal fix shows after it failed three
// runs in a row). The synced progress format stays as it is; these notes go with the progress
// when a learner signs out of a shared browser (Progress.putAwayFor removes them).

const KEPT_RUNS = 3;

interface Notes {
  misses: Record<string, number>;
  runs: Record<string, Array<Record<string, string>>>;
}

function empty(): Notes {
  return { misses: {}, runs: {} };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The stored notes, keeping only what has the expected shape (they are hints, not progress). */
function parse(text: string | null): Notes {
  const notes = empty();
  if (!text) return notes;
  let raw: unknown;
  try { raw = JSON.parse(text); } catch { return notes; }
  if (!isObject(raw)) return notes;
  if (isObject(raw.misses)) {
    for (const [id, count] of Object.entries(raw.misses)) {
      if (Number.isInteger(count) && (count as number) > 0) notes.misses[id] = count as number;
    }
  }
  if (isObject(raw.runs)) {
    for (const [lesson, runs] of Object.entries(raw.runs)) {
      if (!Array.isArray(runs)) continue;
      notes.runs[lesson] = runs.filter((run): run is Record<string, string> =>
        isObject(run) && Object.values(run).every((status) => typeof status === "string")).slice(-KEPT_RUNS);
    }
  }
  return notes;
}

export class DeviceNotes {
  constructor(private key: string, private storage: Storage = window.localStorage) {}

  private read(): Notes {
    try { return parse(this.storage.getItem(this.key)); } catch { return empty(); }
  }

  private change(edit: (notes: Notes) => void): void {
    const notes = this.read();
    edit(notes);
    try { this.storage.setItem(this.key, JSON.stringify(notes)); } catch { /* a hint lost, nothing more */ }
  }

  /** How many times this question's number was missed on this device. */
  misses(question: string): number {
    return this.read().misses[question] ?? 0;
  }

  addMiss(question: string): number {
    let count = 0;
    this.change((notes) => { count = (notes.misses[question] ?? 0) + 1; notes.misses[question] = count; });
    return count;
  }

  /** Remember one checked run of a lesson: each check's status by its name. */
  addRun(lesson: string, statuses: Record<string, string>): void {
    this.change((notes) => { notes.runs[lesson] = [...(notes.runs[lesson] ?? []), statuses].slice(-KEPT_RUNS); });
  }

  /** Whether the check failed (or broke) in each of the lesson's last three checked runs here. */
  failedEveryRecentRun(lesson: string, check: string): boolean {
    const runs = this.read().runs[lesson] ?? [];
    return runs.length === KEPT_RUNS && runs.every((run) => run[check] === "fail" || run[check] === "error");
  }
}
