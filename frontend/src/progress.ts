// Progress lives in this browser (localStorage): per lesson status, draft, quiz answers, hints.
// It survives reloads and restarts, follows other tabs, and can be exported and imported.

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

const MAX_DRAFT = 200_000; // characters: far more than any exercise, far less than the quota

function emptyLesson(): LessonProgress {
  return { status: "not-started", quiz: {}, hintsShown: 0 };
}

export class Progress {
  private data: ProgressFile;
  private listeners: Array<() => void> = [];
  readonly key: string;

  constructor(readonly course: CourseSummary, private storage: Storage = window.localStorage) {
    this.key = `linebyline:progress:${course.slug}`;
    this.data = this.read();
    window.addEventListener("storage", (event) => {
      if (event.key === this.key) {
        this.data = this.read();
        this.notify();
      }
    });
  }

  private read(): ProgressFile {
    const fresh: ProgressFile = { format: "linebyline-progress", version: 1, course: this.course.slug, lessons: {} };
    const text = this.storage.getItem(this.key);
    if (!text) return fresh;
    try {
      return validate(JSON.parse(text), this.course.slug);
    } catch {
      // Never throw away what we cannot read: keep it aside, start afresh.
      this.storage.setItem(`${this.key}:unreadable:${Date.now()}`, text);
      return fresh;
    }
  }

  private write(): void {
    try {
      this.storage.setItem(this.key, JSON.stringify(this.data));
    } catch (error) {
      console.warn("linebyline: progress could not be saved", error);
    }
    this.notify();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

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

  /** Merge an exported file into this browser's progress; nothing already here is lost. */
  importText(text: string): number {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error("That file is not JSON, so it cannot be linebyline progress.");
    }
    const incoming = validate(parsed, this.course.slug);
    let count = 0;
    for (const [number, theirs] of Object.entries(incoming.lessons)) {
      const ours = this.data.lessons[number] ?? emptyLesson();
      const further = STATUSES.indexOf(theirs.status) > STATUSES.indexOf(ours.status);
      this.data.lessons[number] = {
        status: further ? theirs.status : ours.status,
        draft: ours.draft ?? theirs.draft,
        quiz: { ...theirs.quiz, ...ours.quiz },
        hintsShown: Math.max(ours.hintsShown, theirs.hintsShown),
        checks: ours.checks ?? theirs.checks,
      };
      count += 1;
    }
    this.write();
    return count;
  }
}

function fail(why: string): never {
  throw new Error(`That file is not linebyline progress for this course: ${why}.`);
}

/** Check a progress file's shape field by field; anything unexpected is refused, named. */
export function validate(value: unknown, course: string): ProgressFile {
  if (typeof value !== "object" || value === null) fail("it is not an object");
  const file = value as Record<string, unknown>;
  if (file.format !== "linebyline-progress" || file.version !== 1) fail("its format is not linebyline-progress version 1");
  if (file.course !== course) fail(`it is for the course "${String(file.course)}", not "${course}"`);
  if (typeof file.lessons !== "object" || file.lessons === null) fail("it has no lessons");
  const lessons: Record<string, LessonProgress> = {};
  for (const [number, raw] of Object.entries(file.lessons as Record<string, unknown>)) {
    if (!/^\d+\.\d+$/.test(number)) fail(`"${number}" is not a lesson number`);
    if (typeof raw !== "object" || raw === null) fail(`lesson ${number} is not an object`);
    const entry = raw as Record<string, unknown>;
    if (!STATUSES.includes(entry.status as LessonStatus)) fail(`lesson ${number} has an unknown status`);
    if (entry.draft !== undefined && (typeof entry.draft !== "string" || entry.draft.length > MAX_DRAFT)) {
      fail(`lesson ${number}'s draft is not text of a sensible size`);
    }
    const quiz: Record<string, QuizAnswer> = {};
    for (const [id, answer] of Object.entries((entry.quiz ?? {}) as Record<string, unknown>)) {
      const a = answer as Record<string, unknown>;
      if (typeof a !== "object" || a === null || typeof a.answer !== "string" || typeof a.correct !== "boolean") {
        fail(`lesson ${number} has a malformed quiz answer`);
      }
      quiz[id] = { answer: a.answer.slice(0, 100), correct: a.correct };
    }
    const hints = typeof entry.hintsShown === "number" && entry.hintsShown >= 0 ? Math.floor(entry.hintsShown) : 0;
    const checks = entry.checks as { passed?: unknown; total?: unknown } | undefined;
    lessons[number] = {
      status: entry.status as LessonStatus,
      draft: entry.draft as string | undefined,
      quiz,
      hintsShown: hints,
      checks: checks && typeof checks.passed === "number" && typeof checks.total === "number"
        ? { passed: checks.passed, total: checks.total } : undefined,
    };
  }
  return { format: "linebyline-progress", version: 1, course, lessons };
}
