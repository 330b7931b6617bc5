// Progress lives in this browser (localStorage): per lesson status, draft, quiz answers, hints.
// It survives reloads and restarts, follows other tabs, and can be exported and imported.
//
// Nothing is ever lost or hidden because one part of it cannot be read: every lesson (and each
// draft and quiz answer inside it) is read on its own. What cannot be read is set aside, once,
// in a key of its own, and the learner is told and can download it; everything else loads.
// A save that fails (the storage quota is full) is shown, never swallowed.

export type LessonStatus = "not-started" | "in-progress" | "done";
const STATUSES: LessonStatus[] = ["not-started", "in-progress", "done"];

export interface QuizAnswer { answer: string; correct: boolean }

export interface LessonProgress {
  status: LessonStatus;
  draft?: string;
  quiz: Record<string, QuizAnswer>;
  hintsShown: number;
  checks?: { passed: number; total: number };
}

export interface ProgressFile {
  format: "linebyline-progress";
  version: 1;
  course: string;
  exported?: string;
  lessons: Record<string, LessonProgress>;
}

export interface CourseSummary {
  slug: string;
  version: string;
  total: number;
  lessons: Record<string, { title: string; url: string; module: number; lines: number[] }>;
  modules: Record<string, string[]>;
}

/** A part of the stored progress that could not be read, kept as it was. */
export interface SetAsidePart { lesson: string | null; part: string; reason: string; value: unknown; when: string }

export interface ImportReport { imported: number; leftOut: string[] }

export const MAX_DRAFT = 200_000; // characters: far more than any exercise, far less than the quota

function emptyLesson(): LessonProgress {
  return { status: "not-started", quiz: {}, hintsShown: 0 };
}

function fresh(course: string): ProgressFile {
  return { format: "linebyline-progress", version: 1, course, lessons: {} };
}

function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string } | null;
  if (e?.name === "QuotaExceededError") return "this browser's storage for this site is full";
  return `the browser refused (${e?.name ?? "error"}: ${e?.message ?? String(error)})`;
}

/** Merge a lesson into another: the further status, our draft first, every quiz answer. */
function merged(ours: LessonProgress, theirs: LessonProgress): LessonProgress {
  const further = STATUSES.indexOf(theirs.status) > STATUSES.indexOf(ours.status);
  return {
    status: further ? theirs.status : ours.status,
    draft: ours.draft ?? theirs.draft,
    quiz: { ...theirs.quiz, ...ours.quiz },
    hintsShown: Math.max(ours.hintsShown, theirs.hintsShown),
    checks: ours.checks ?? theirs.checks,
  };
}

export class Progress {
  private data: ProgressFile;
  private listeners: Array<() => void> = [];
  private aside: SetAsidePart[] = [];
  private asideStored = true; // false: the set-aside parts are only in this page's memory
  private saveError: string | null = null;
  // The stored progress could not be read at all, nor set aside: it is never overwritten until
  // the learner has downloaded or deleted it.
  private blocked = false;
  readonly key: string;
  readonly asideKey: string;

  constructor(readonly course: CourseSummary, private storage: Storage = window.localStorage) {
    this.key = `linebyline:progress:${course.slug}`;
    this.asideKey = `${this.key}:set-aside`;
    this.data = this.load();
    window.addEventListener("storage", (event) => {
      if (event.key === this.key || event.key === this.asideKey) {
        this.data = this.load();
        this.notify();
      }
    });
  }

  // --- reading -----------------------------------------------------------------------------

  private load(): ProgressFile {
    this.aside = this.readAside();
    const found: SetAsidePart[] = [];
    const data = fresh(this.course.slug);
    let wholeFileUnreadable = false;
    const text = this.storage.getItem(this.key);
    if (text) {
      const read = salvage(text, this.course.slug);
      Object.assign(data.lessons, read.lessons);
      found.push(...read.parts);
      wholeFileUnreadable = read.unreadable;
    }
    // Copies the previous version of this page kept, one per load, of a file it could not read:
    // what can be read in them comes back, the rest joins the set-aside parts, and they go.
    const old = this.legacyKeys();
    for (const key of old) {
      const read = salvage(this.storage.getItem(key) ?? "", this.course.slug);
      for (const [number, lesson] of Object.entries(read.lessons)) {
        data.lessons[number] = merged(data.lessons[number] ?? emptyLesson(), lesson);
      }
      found.push(...read.parts);
    }
    const added = this.addAside(found);
    this.blocked = false;
    if (found.length || old.length) {
      if (added) this.asideStored = this.storeAside();
      if (this.asideStored) {
        for (const key of old) this.storage.removeItem(key);
        this.data = data;
        this.write(); // the main file without what was set aside: it is not set aside again
      } else {
        this.blocked = wholeFileUnreadable;
      }
    }
    return data;
  }

  private readAside(): SetAsidePart[] {
    const text = this.storage.getItem(this.asideKey);
    if (!text) return [];
    try {
      const parsed = JSON.parse(text) as { parts?: unknown };
      if (Array.isArray(parsed.parts)) return parsed.parts as SetAsidePart[];
    } catch {
      // fall through: keep the unreadable text itself
    }
    return [{ lesson: null, part: "an earlier set-aside copy", reason: "it is not in the expected form", value: text, when: new Date().toISOString() }];
  }

  private legacyKeys(): string[] {
    const keys: string[] = [];
    for (let index = 0; index < this.storage.length; index += 1) {
      const key = this.storage.key(index);
      if (key?.startsWith(`${this.key}:unreadable:`)) keys.push(key);
    }
    return keys;
  }

  /** Add parts not already set aside (the same part found again is kept once); how many were new. */
  private addAside(parts: SetAsidePart[]): number {
    const seen = new Set(this.aside.map((p) => JSON.stringify([p.lesson, p.part, p.value])));
    let added = 0;
    for (const part of parts) {
      const id = JSON.stringify([part.lesson, part.part, part.value]);
      if (seen.has(id)) continue;
      seen.add(id);
      this.aside.push(part);
      added += 1;
    }
    return added;
  }

  private storeAside(): boolean {
    try {
      if (this.aside.length) this.storage.setItem(this.asideKey, this.setAsideText());
      else this.storage.removeItem(this.asideKey);
      return true;
    } catch {
      return false;
    }
  }

  // --- writing -----------------------------------------------------------------------------

  /** Save; on failure keep the change in memory, remember why, and tell the listeners. */
  private write(): boolean {
    if (this.blocked) {
      this.notify();
      return false;
    }
    try {
      this.storage.setItem(this.key, JSON.stringify(this.data));
      this.saveError = null;
    } catch (error) {
      this.saveError = describeError(error);
    }
    this.notify();
    return this.saveError === null;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  // --- what the pages use -------------------------------------------------------------------

  lesson(number: string): LessonProgress {
    return this.data.lessons[number] ?? emptyLesson();
  }

  update(number: string, change: (lesson: LessonProgress) => void): void {
    const lesson = this.data.lessons[number] ?? emptyLesson();
    change(lesson);
    this.data.lessons[number] = lesson;
    this.write();
  }

  /** Mark a lesson in progress, unless it is already further along. */
  touch(number: string): void {
    if (this.lesson(number).status === "not-started") {
      this.update(number, (lesson) => { lesson.status = "in-progress"; });
    }
  }

  linesLearned(): Set<number> {
    const lines = new Set<number>();
    for (const [number, info] of Object.entries(this.course.lessons)) {
      if (this.lesson(number).status === "done") info.lines.forEach((line) => lines.add(line));
    }
    return lines;
  }

  exportText(): string {
    return JSON.stringify({ ...this.data, exported: new Date().toISOString() }, null, 2);
  }

  /** Merge an exported file into this browser's progress; nothing already here is lost.
   *  Reports only what was really stored: if the merged progress cannot be saved, nothing is
   *  imported and the error says why. */
  importText(text: string): ImportReport {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error("That file is not JSON, so it cannot be linebyline progress.");
    }
    const incoming = readFile(parsed, this.course.slug);
    if (this.blocked) {
      throw new Error("Nothing was imported: the progress stored here could not be read, so it is kept untouched until you download or delete it (see the message at the top of the page).");
    }
    const before = JSON.stringify(this.data.lessons);
    for (const [number, theirs] of Object.entries(incoming.lessons)) {
      this.data.lessons[number] = merged(this.data.lessons[number] ?? emptyLesson(), theirs);
    }
    if (!this.write()) {
      this.data.lessons = JSON.parse(before) as Record<string, LessonProgress>;
      const why = this.saveError;
      this.write(); // what was there before is unchanged in storage; this only clears the notice
      throw new Error(`Nothing was imported: ${why}, so the merged progress could not be saved. Your progress here is as it was.`);
    }
    return {
      imported: Object.keys(incoming.lessons).length,
      leftOut: incoming.parts.map((p) => `${p.lesson ? `lesson ${p.lesson}: ` : ""}${p.reason}`),
    };
  }

  // --- problems to show ---------------------------------------------------------------------

  /** Why the latest change could not be saved, or null when everything is saved. */
  get notSaved(): string | null {
    return this.blocked ? "the progress stored here could not be read" : this.saveError;
  }

  /** The parts of the stored progress that could not be read and were set aside. */
  get setAside(): readonly SetAsidePart[] {
    return this.aside;
  }

  /** Whether the set-aside parts are kept in the browser (false: only until this page closes). */
  get setAsideKept(): boolean {
    return this.asideStored;
  }

  setAsideText(): string {
    return JSON.stringify({ format: "linebyline-set-aside", course: this.course.slug, parts: this.aside }, null, 2);
  }

  /** Delete the set-aside parts for good (after the learner has downloaded them, or not). */
  discardSetAside(): void {
    this.aside = [];
    this.asideStored = true;
    this.storage.removeItem(this.asideKey);
    if (this.blocked) {
      this.blocked = false;
      this.storage.removeItem(this.key);
    }
    for (const key of this.legacyKeys()) this.storage.removeItem(key);
    this.write();
  }
}

function fail(why: string): never {
  throw new Error(`That file is not linebyline progress for this course: ${why}.`);
}

interface Salvaged { lessons: Record<string, LessonProgress>; parts: SetAsidePart[]; unreadable: boolean }

/** Read stored text, keeping every lesson that can be read and setting aside what cannot. */
function salvage(text: string, course: string): Salvaged {
  const when = new Date().toISOString();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { lessons: {}, parts: [{ lesson: null, part: "the whole progress file", reason: "it is not JSON", value: text, when }], unreadable: true };
  }
  try {
    return { ...readFile(parsed, course), unreadable: false };
  } catch (error) {
    return { lessons: {}, parts: [{ lesson: null, part: "the whole progress file", reason: (error as Error).message, value: parsed, when }], unreadable: true };
  }
}

/** Check a progress file's head (a wrong one is refused, named), then read each lesson on its
 *  own: a lesson, draft or quiz answer that cannot be read is left out and listed. */
function readFile(value: unknown, course: string): { lessons: Record<string, LessonProgress>; parts: SetAsidePart[] } {
  if (typeof value !== "object" || value === null) fail("it is not an object");
  const file = value as Record<string, unknown>;
  if (file.format !== "linebyline-progress" || file.version !== 1) fail("its format is not linebyline-progress version 1");
  if (file.course !== course) fail(`it is for the course "${String(file.course)}", not "${course}"`);
  if (typeof file.lessons !== "object" || file.lessons === null) fail("it has no lessons");
  const lessons: Record<string, LessonProgress> = {};
  const parts: SetAsidePart[] = [];
  const when = new Date().toISOString();
  for (const [number, raw] of Object.entries(file.lessons as Record<string, unknown>)) {
    const aside = (part: string, reason: string, kept: unknown) => parts.push({ lesson: number, part, reason, value: kept, when });
    if (!/^\d+\.\d+$/.test(number)) { aside("the whole lesson", `"${number}" is not a lesson number`, raw); continue; }
    if (typeof raw !== "object" || raw === null) { aside("the whole lesson", "it is not an object", raw); continue; }
    const entry = raw as Record<string, unknown>;
    if (!STATUSES.includes(entry.status as LessonStatus)) { aside("the whole lesson", "its status is unknown", raw); continue; }
    let draft: string | undefined;
    if (typeof entry.draft === "string" && entry.draft.length <= MAX_DRAFT) draft = entry.draft;
    else if (typeof entry.draft === "string") aside("its draft", `its draft is ${entry.draft.length.toLocaleString("en")} characters, more than the ${MAX_DRAFT.toLocaleString("en")} a draft can be`, entry.draft);
    else if (entry.draft !== undefined) aside("its draft", "its draft is not text", entry.draft);
    const quiz: Record<string, QuizAnswer> = {};
    const answers = entry.quiz ?? {};
    if (typeof answers !== "object" || answers === null) aside("its quiz answers", "its quiz answers are not a list of answers", answers);
    else {
      for (const [id, answer] of Object.entries(answers as Record<string, unknown>)) {
        const a = answer as Record<string, unknown> | null;
        if (typeof a !== "object" || a === null || typeof a.answer !== "string" || typeof a.correct !== "boolean") {
          aside(`its quiz answer ${id}`, `its quiz answer ${id} is malformed`, answer);
          continue;
        }
        quiz[id] = { answer: a.answer.slice(0, 100), correct: a.correct };
      }
    }
    const hints = typeof entry.hintsShown === "number" && entry.hintsShown >= 0 ? Math.floor(entry.hintsShown) : 0;
    const checks = entry.checks as { passed?: unknown; total?: unknown } | undefined;
    lessons[number] = {
      status: entry.status as LessonStatus,
      draft,
      quiz,
      hintsShown: hints,
      checks: checks && typeof checks.passed === "number" && typeof checks.total === "number"
        ? { passed: checks.passed, total: checks.total } : undefined,
    };
  }
  return { lessons, parts };
}

/** A progress file, checked as a whole (for tools and tests): anything unreadable is refused. */
export function validate(value: unknown, course: string): ProgressFile {
  const { lessons, parts } = readFile(value, course);
  if (parts.length) fail(`lesson ${parts[0].lesson}: ${parts[0].reason}`);
  return { format: "linebyline-progress", version: 1, course, lessons };
}
