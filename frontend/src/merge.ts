// The progress merge, the same rules as src/linebyline/progress/merge.py (read that file's notes):
// a join (commutative, associative, idempotent), so devices and tabs that exchange progress in
// any order end with the same state. tests/test_merge_agrees.py runs this and the Python merge on
// the same generated cases: change both or neither.

export type LessonStatus = "not-started" | "in-progress" | "done";
export const STATUSES: LessonStatus[] = ["not-started", "in-progress", "done"];
export const FORMAT = "linebyline-progress";
export const MAX_DRAFT = 200_000; // UTF-16 code units, as the editor counts
export const MAX_EARLIER = 5;
const MAX_LESSONS = 500;
const MAX_QUIZ_ANSWERS = 100;
const MAX_ANSWER = 100;
const MAX_HINTS = 1000;
const MAX_CHECKS = 10_000;
const MAX_BASE = 64;
export const MAX_TIME = 2 ** 53 - 1;
// A lesson (7.4), or a module review's recall exercise (review-7).
export const LESSON_NUMBER = /^(\d{1,3}\.\d{1,3}|review-\d{1,3})$/;
const QUIZ_ID = /^[A-Za-z0-9_.:-]{1,100}$/;
export const DEVICE = /^[A-Za-z0-9_.:~-]{1,64}$/;
const COURSE = /^[a-z0-9][a-z0-9-]{0,59}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface QuizAnswer { answer: string; correct: boolean; at: number }
export interface Version { draft: string; at: number; device: string; base: Record<string, number> }
export interface Lesson {
  status: LessonStatus;
  quiz: Record<string, QuizAnswer>;
  hintsShown: number;
  doneAt?: number;
  checks?: { passed: number; total: number };
  draft?: string;
  draftAt?: number;
  draftDevice?: string;
  draftBase?: Record<string, number>;
  earlier?: Version[];
  /** The code that last passed its checks, kept apart from the draft (merged: the newest). */
  passedCode?: string;
  passedAt?: number;
}
export type Lessons = Record<string, Lesson>;
/** The learner's settings for the course, each with the time it was chosen (merged: the latest). */
export const SETTINGS: Record<string, string[]> = { todoLevel: ["guided", "own"] };
export interface Setting { value: string; at: number }
export type Settings = Record<string, Setting>;
export interface ProgressDocument { format: typeof FORMAT; version: 2; course: string; lessons: Lessons; settings?: Settings }

export class ProgressError extends Error {}

// --- small helpers --------------------------------------------------------------------------

/** FNV-1a over UTF-8 bytes: the pseudo-device a version-1 draft is read as (as in Python). */
export function fnv1a32(text: string): string {
  let value = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    value = Math.imul(value ^ byte, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, "0");
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

function time(value: unknown, where: string): number {
  if (!isInt(value) || value < 0 || value > MAX_TIME) {
    throw new ProgressError(`${where} must be a time: a whole number of milliseconds from 0 to ${MAX_TIME}`);
  }
  return value;
}

function text(value: unknown, where: string, limit: number): string {
  if (typeof value !== "string") throw new ProgressError(`${where} must be text`);
  if (LONE_SURROGATE.test(value)) throw new ProgressError(`${where} is not valid Unicode text`);
  if (value.length > limit) {
    throw new ProgressError(`${where} is ${value.length.toLocaleString("en")} characters, more than the ${limit.toLocaleString("en")} it can be`);
  }
  return value;
}

// --- reading --------------------------------------------------------------------------------

/** A progress document (version 1 or 2) as its course and its lessons in the version-2 form. */
export function readDocument(value: unknown, course?: string): { course: string; lessons: Lessons } {
  if (!isObject(value)) throw new ProgressError("a progress document must be a JSON object");
  if (value.format !== FORMAT) throw new ProgressError(`"format" must be "${FORMAT}"`);
  const version = value.version;
  if (version !== 1 && version !== 2) throw new ProgressError('"version" must be 1 or 2');
  const slug = value.course;
  if (typeof slug !== "string" || !COURSE.test(slug)) throw new ProgressError('"course" must be a course name (lowercase letters, digits, hyphens)');
  if (course !== undefined && slug !== course) throw new ProgressError(`this document is for the course "${slug}", not "${course}"`);
  if (!isObject(value.lessons)) throw new ProgressError('"lessons" must be an object of lessons by number');
  const entries = Object.entries(value.lessons);
  if (entries.length > MAX_LESSONS) throw new ProgressError(`"lessons" has ${entries.length} lessons, more than the ${MAX_LESSONS} a document can hold`);
  const lessons: Lessons = {};
  for (const [number, raw] of entries) {
    if (!LESSON_NUMBER.test(number)) throw new ProgressError(`"${number.slice(0, 20)}" is not a lesson number (like 7.4)`);
    lessons[number] = readLesson(raw, `lesson ${number}`, version);
  }
  return { course: slug, lessons };
}

/** A document's settings ({} without any), as progress.merge.read_settings reads them. */
export function readSettings(value: unknown): Settings {
  if (!isObject(value) || !("settings" in value)) return {};
  const settings = value.settings;
  if (!isObject(settings)) throw new ProgressError('"settings" must be an object of settings by name');
  const read: Settings = {};
  for (const [name, entry] of Object.entries(settings)) {
    if (!Object.hasOwn(SETTINGS, name)) throw new ProgressError(`"settings" has a setting it cannot have: "${name.slice(0, 40)}"`);
    if (!isObject(entry) || Object.keys(entry).sort().join(",") !== "at,value") throw new ProgressError(`setting ${name} must be an object with value and at`);
    if (typeof entry.value !== "string" || !SETTINGS[name].includes(entry.value)) throw new ProgressError(`setting ${name} must be one of ${SETTINGS[name].join(", ")}`);
    read[name] = { value: entry.value, at: time(entry.at, `setting ${name}: at`) };
  }
  return read;
}

const V1_FIELDS = ["status", "draft", "quiz", "hintsShown", "checks"];
const V2_FIELDS = [...V1_FIELDS, "doneAt", "draftAt", "draftDevice", "draftBase", "earlier", "passedCode", "passedAt"];

export function readLesson(raw: unknown, where: string, version: 1 | 2 = 2): Lesson {
  if (!isObject(raw)) throw new ProgressError(`${where} must be an object`);
  const allowed = version === 2 ? V2_FIELDS : V1_FIELDS;
  const unknown = Object.keys(raw).filter((k) => !allowed.includes(k)).sort();
  if (unknown.length) throw new ProgressError(`${where} has a field it cannot have: "${unknown[0].slice(0, 40)}"`);
  const status = raw.status as LessonStatus;
  if (!STATUSES.includes(status)) throw new ProgressError(`${where}: status must be one of ${STATUSES.join(", ")}`);
  const lesson: Lesson = { status, quiz: {}, hintsShown: 0 };
  if ("doneAt" in raw) {
    lesson.doneAt = time(raw.doneAt, `${where}: doneAt`);
    if (status !== "done") throw new ProgressError(`${where}: doneAt is given but the lesson is not done`);
  }
  const quiz = raw.quiz ?? {};
  if (!isObject(quiz)) throw new ProgressError(`${where}: quiz must be an object of answers by question`);
  const questions = Object.entries(quiz);
  if (questions.length > MAX_QUIZ_ANSWERS) throw new ProgressError(`${where}: more than ${MAX_QUIZ_ANSWERS} quiz answers`);
  for (const [question, answer] of questions) lesson.quiz[question] = readAnswer(question, answer, where);
  const hints = raw.hintsShown ?? 0;
  if (!isInt(hints) || hints < 0 || hints > MAX_HINTS) throw new ProgressError(`${where}: hintsShown must be a whole number from 0 to ${MAX_HINTS}`);
  lesson.hintsShown = hints;
  if ("checks" in raw) lesson.checks = readChecks(raw.checks, where);
  if ("passedCode" in raw || "passedAt" in raw) {
    if (!("passedCode" in raw) || !("passedAt" in raw)) throw new ProgressError(`${where}: passedCode and passedAt go together`);
    if (status !== "done") throw new ProgressError(`${where}: passedCode is given but the lesson is not done`);
    lesson.passedCode = text(raw.passedCode, `${where}: the code that passed`, MAX_DRAFT);
    lesson.passedAt = time(raw.passedAt, `${where}: passedAt`);
  }
  const versions: Version[] = [];
  if ("draft" in raw) {
    const draft = text(raw.draft, `${where}: the draft`, MAX_DRAFT);
    if (version === 2 && "draftDevice" in raw) {
      versions.push(readVersion({ draft, at: raw.draftAt, device: raw.draftDevice, base: raw.draftBase ?? {} }, `${where}: the draft`));
    } else {
      if ("draftAt" in raw || "draftBase" in raw) throw new ProgressError(`${where}: draftAt and draftBase need draftDevice`);
      versions.push({ draft, at: 0, device: `v1-${fnv1a32(draft)}`, base: {} });
    }
  } else if ("draftAt" in raw || "draftDevice" in raw || "draftBase" in raw) {
    throw new ProgressError(`${where}: draftAt, draftDevice and draftBase need a draft`);
  }
  const earlier = raw.earlier ?? [];
  if (!Array.isArray(earlier)) throw new ProgressError(`${where}: earlier must be a list of earlier versions`);
  if (earlier.length > MAX_EARLIER) throw new ProgressError(`${where}: more than ${MAX_EARLIER} earlier versions`);
  if (earlier.length && !versions.length) throw new ProgressError(`${where}: earlier versions need a draft`);
  earlier.forEach((item, index) => versions.push(readVersion(item, `${where}: earlier version ${index + 1}`)));
  setVersions(lesson, newestPerDevice(versions));
  return lesson;
}

function readAnswer(question: string, answer: unknown, where: string): QuizAnswer {
  if (!QUIZ_ID.test(question)) throw new ProgressError(`${where}: "${question.slice(0, 40)}" is not a question id`);
  if (!isObject(answer) || Object.keys(answer).some((k) => !["answer", "correct", "at"].includes(k))) {
    throw new ProgressError(`${where}: quiz answer ${question} must be an object with answer, correct and (optionally) at`);
  }
  if (typeof answer.correct !== "boolean") throw new ProgressError(`${where}: quiz answer ${question}: correct must be true or false`);
  const said = text(answer.answer, `${where}: quiz answer ${question}`, MAX_ANSWER);
  const at = time(answer.at ?? 0, `${where}: quiz answer ${question}: at`);
  return { answer: said, correct: answer.correct, at };
}

function readChecks(checks: unknown, where: string): { passed: number; total: number } {
  const keys = isObject(checks) ? Object.keys(checks).sort().join(",") : "";
  if (!isObject(checks) || keys !== "passed,total") throw new ProgressError(`${where}: checks must be an object with passed and total`);
  const { passed, total } = checks;
  if (!(isInt(passed) && isInt(total) && passed >= 0 && passed <= total && total <= MAX_CHECKS)) {
    throw new ProgressError(`${where}: checks must be whole numbers, passed at most total (at most ${MAX_CHECKS})`);
  }
  return { passed, total };
}

function readVersion(item: unknown, where: string): Version {
  if (!isObject(item) || Object.keys(item).some((k) => !["draft", "at", "device", "base"].includes(k))) {
    throw new ProgressError(`${where} must be an object with draft, at, device and base`);
  }
  const draft = text(item.draft, where, MAX_DRAFT);
  const at = time(item.at, `${where}: at`);
  const device = item.device;
  if (typeof device !== "string" || !DEVICE.test(device)) throw new ProgressError(`${where}: device must be a device id (letters, digits, _.:~-; at most 64)`);
  const base = item.base ?? {};
  if (!isObject(base) || Object.keys(base).length > MAX_BASE) throw new ProgressError(`${where}: base must be an object of at most ${MAX_BASE} device times`);
  for (const [key, value] of Object.entries(base)) {
    if (!DEVICE.test(key)) throw new ProgressError(`${where}: base names a device that is not a device id`);
    time(value, `${where}: base ${key}`);
  }
  return { draft, at, device, base: { ...(base as Record<string, number>) } };
}

// --- the merge ------------------------------------------------------------------------------

type Cmp = -1 | 0 | 1;
const cmp = <T extends string | number | boolean>(a: T, b: T): Cmp => (a < b ? -1 : a > b ? 1 : 0);

function cmpBase(a: Record<string, number>, b: Record<string, number>): Cmp {
  const x = Object.entries(a).sort(([k], [l]) => cmp(k, l));
  const y = Object.entries(b).sort(([k], [l]) => cmp(k, l));
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const c = cmp(x[i][0], y[i][0]) || cmp(x[i][1], y[i][1]);
    if (c) return c;
  }
  return cmp(x.length, y.length);
}

/** Which of one device's versions wins: the newest, then a fixed order. */
function cmpVersion(a: Version, b: Version): Cmp {
  return cmp(a.at, b.at) || cmp(a.draft, b.draft) || cmpBase(a.base, b.base);
}

export function versionsOf(lesson: Lesson): Version[] {
  if (lesson.draft === undefined) return [];
  const current = { draft: lesson.draft, at: lesson.draftAt ?? 0, device: lesson.draftDevice ?? `v1-${fnv1a32(lesson.draft)}`, base: lesson.draftBase ?? {} };
  return [current, ...(lesson.earlier ?? [])];
}

export function newestPerDevice(versions: Version[]): Version[] {
  const newest = new Map<string, Version>();
  for (const version of versions) {
    const known = newest.get(version.device);
    if (!known || cmpVersion(version, known) > 0) newest.set(version.device, version);
  }
  const ranked = [...newest.values()].sort((a, b) => cmp(b.at, a.at) || cmp(b.device, a.device));
  return ranked.slice(0, 1 + MAX_EARLIER);
}

export function setVersions(lesson: Lesson, versions: Version[]): void {
  delete lesson.draft; delete lesson.draftAt; delete lesson.draftDevice; delete lesson.draftBase; delete lesson.earlier;
  if (!versions.length) return;
  const [current, ...earlier] = versions;
  lesson.draft = current.draft;
  lesson.draftAt = current.at;
  lesson.draftDevice = current.device;
  lesson.draftBase = { ...current.base };
  if (earlier.length) lesson.earlier = earlier.map((v) => ({ ...v, base: { ...v.base } }));
}

function cmpAnswer(a: QuizAnswer, b: QuizAnswer): Cmp {
  return cmp(a.correct, b.correct) || cmp(a.at, b.at) || cmp(a.answer, b.answer);
}

export function mergeLesson(ours: Lesson, theirs: Lesson): Lesson {
  const status = STATUSES[Math.max(STATUSES.indexOf(ours.status), STATUSES.indexOf(theirs.status))];
  const merged: Lesson = { status, quiz: {}, hintsShown: Math.max(ours.hintsShown, theirs.hintsShown) };
  const doneTimes = [ours.doneAt, theirs.doneAt].filter((t): t is number => t !== undefined);
  if (doneTimes.length) merged.doneAt = Math.min(...doneTimes);
  const questions = [...new Set([...Object.keys(ours.quiz), ...Object.keys(theirs.quiz)])].sort();
  for (const question of questions) {
    const a = ours.quiz[question];
    const b = theirs.quiz[question];
    const best = !a ? b : !b ? a : cmpAnswer(b, a) > 0 ? b : a;
    merged.quiz[question] = { ...best };
  }
  const checks = [ours.checks, theirs.checks].filter((c) => c !== undefined);
  if (checks.length) {
    const best = checks.reduce((x, y) => (cmp(y.passed, x.passed) || cmp(y.total, x.total)) > 0 ? y : x);
    merged.checks = { ...best };
  }
  const passed = [ours, theirs].filter((l) => l.passedCode !== undefined);
  if (passed.length) {
    const newest = passed.reduce((x, y) => (cmp(y.passedAt!, x.passedAt!) || cmp(y.passedCode!, x.passedCode!)) > 0 ? y : x);
    merged.passedCode = newest.passedCode;
    merged.passedAt = newest.passedAt;
  }
  setVersions(merged, newestPerDevice([...versionsOf(ours), ...versionsOf(theirs)]));
  return merged;
}

/** Two courses' worth of lessons (the version-2 form) merged into one. */
export function merge(ours: Lessons, theirs: Lessons): Lessons {
  const merged: Lessons = {};
  for (const number of [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort()) {
    const a = ours[number] ?? theirs[number];
    const b = theirs[number] ?? ours[number];
    merged[number] = mergeLesson(a, b);
  }
  return merged;
}

/** Per setting, the latest choice (then the greater value, so that a tie has one answer). */
export function mergeSettings(ours: Settings, theirs: Settings): Settings {
  const merged: Settings = {};
  for (const name of [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort()) {
    const a = ours[name];
    const b = theirs[name];
    const best = !a ? b : !b ? a : (cmp(b.at, a.at) || cmp(b.value, a.value)) > 0 ? b : a;
    merged[name] = { ...best };
  }
  return merged;
}

export function progressDocument(course: string, lessons: Lessons, settings: Settings = {}): ProgressDocument {
  return Object.keys(settings).length ? { format: FORMAT, version: 2, course, lessons, settings } : { format: FORMAT, version: 2, course, lessons };
}
