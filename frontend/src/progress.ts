// Progress lives in this browser (localStorage): per lesson status, draft, quiz answers, hints.
// It survives reloads and restarts, follows other tabs, and can be exported and imported.
//
// Nothing is ever lost or hidden because one part of it cannot be read: every lesson (and each
// draft and quiz answer inside it) is read on its own. What cannot be read is set aside, once,
// in a key of its own, and the learner is told and can download it; everything else loads.
// A save that fails (the storage quota is full) is shown, never swallowed.
//
// The stored form is version 2 (merge.ts): times and this browser's device id, so that progress
// from several devices and tabs merges without losing anything. Version 1 still loads.

import {
  LESSON_NUMBER, MAX_DRAFT, MAX_EARLIER, STATUSES, mergeLesson, merge, mergeSettings, readDocument, readSettings, newestPerDevice, progressDocument, readLesson, setVersions, versionsOf,
  type Lesson, type LessonStatus, type Lessons, type QuizAnswer, type Settings, type Version,
} from "./merge";

export { MAX_DRAFT };
export type { LessonStatus, QuizAnswer, Version };
export type LessonProgress = Lesson;

export interface ProgressFile {
  format: "linebyline-progress";
  version: 2;
  course: string;
  exported?: string;
  lessons: Lessons;
  /** The learner's settings for the course (merge.ts SETTINGS), synced like the lessons. */
  settings?: Settings;
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

function emptyLesson(): LessonProgress {
  return { status: "not-started", quiz: {}, hintsShown: 0 };
}

function fresh(course: string): ProgressFile {
  return { format: "linebyline-progress", version: 2, course, lessons: {} };
}

function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string } | null;
  if (e?.name === "QuotaExceededError") return "this browser's storage for this site is full";
  return `the browser refused (${e?.name ?? "error"}: ${e?.message ?? String(error)})`;
}

const DEVICE_KEY = "linebyline:device";

/** This browser's device id, made once and kept (a new one if storage cannot keep it). */
export function deviceId(storage: Storage = window.localStorage): string {
  let id: string | null = null;
  try { id = storage.getItem(DEVICE_KEY); } catch { /* no storage: a fresh id per page */ }
  if (id && /^b-[a-z0-9]{12}$/.test(id)) return id;
  const random = crypto.getRandomValues(new Uint8Array(12));
  id = `b-${Array.from(random, (byte) => "abcdefghijklmnopqrstuvwxyz0123456789"[byte % 36]).join("")}`;
  try { storage.setItem(DEVICE_KEY, id); } catch { /* kept for this page only */ }
  return id;
}

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
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
  // The stored text this page last read or wrote: other text there means another tab wrote,
  // and what it wrote is merged in before this page writes (so two tabs never undo each other).
  private lastText: string | null = null;
  // Per lesson, the draft version the editor started from (see adoptDraft).
  private adopted = new Map<string, Version>();
  readonly key: string;
  readonly asideKey: string;
  /** Where this device keeps its teaching notes beside the progress (device-notes.ts). */
  readonly notesKey: string;
  readonly device: string;

  constructor(readonly course: CourseSummary, private storage: Storage = window.localStorage) {
    this.key = `linebyline:progress:${course.slug}`;
    this.asideKey = `${this.key}:set-aside`;
    this.notesKey = `${this.key}:this-device`;
    this.device = deviceId(storage);
    this.data = this.load();
    window.addEventListener("storage", (event) => {
      if (event.key === this.key || event.key === this.asideKey) {
        // Removed: another tab signed out and put the progress away; this tab lets it go too.
        const putAway = event.key === this.key && event.newValue === null;
        const mine = this.data.lessons;
        const mySettings = this.data.settings ?? {};
        this.data = this.load();
        if (!this.blocked && !putAway) {
          this.data.lessons = merge(this.data.lessons, mine);
          this.setSettings(mergeSettings(this.data.settings ?? {}, mySettings));
        }
        this.notify();
      }
    });
  }

  // --- reading -----------------------------------------------------------------------------

  private load(): ProgressFile {
    this.aside = this.readParts(this.asideKey);
    const found: SetAsidePart[] = [];
    const data = fresh(this.course.slug);
    let wholeFileUnreadable = false;
    const text = this.storage.getItem(this.key);
    this.lastText = text;
    if (text) {
      const read = salvage(text, this.course.slug);
      Object.assign(data.lessons, read.lessons);
      if (Object.keys(read.settings).length) data.settings = read.settings;
      found.push(...read.parts);
      wholeFileUnreadable = read.unreadable;
    }
    // Copies the previous version of this page kept, one per load, of a file it could not read:
    // what can be read in them comes back, the rest joins the set-aside parts, and they go.
    const old = this.legacyKeys();
    for (const key of old) {
      const read = salvage(this.storage.getItem(key) ?? "", this.course.slug);
      for (const [number, lesson] of Object.entries(read.lessons)) {
        data.lessons[number] = mergeLesson(data.lessons[number] ?? emptyLesson(), lesson);
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

  /** Set-aside parts stored under `key` (an unreadable copy there becomes a part itself). */
  private readParts(key: string): SetAsidePart[] {
    const text = this.storage.getItem(key);
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
      const stored = this.storage.getItem(this.key);
      if (stored !== null && stored !== this.lastText) this.absorbStored(stored);
      const text = JSON.stringify(this.data);
      this.storage.setItem(this.key, text);
      this.lastText = text;
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

  /** Change a lesson; times the change and, for a new draft, makes it this device's version. */
  update(number: string, change: (lesson: LessonProgress) => void): void {
    const lesson = this.data.lessons[number] ?? emptyLesson();
    const before = copy(lesson);
    change(lesson);
    this.stamp(number, before, lesson);
    this.data.lessons[number] = lesson;
    this.write();
  }

  private stamp(number: string, before: Lesson, after: Lesson): void {
    const now = Date.now();
    if (after.status === "done" && after.doneAt === undefined) after.doneAt = now;
    for (const [id, answer] of Object.entries(after.quiz)) {
      const was = before.quiz[id];
      if (!was || was.answer !== answer.answer || was.correct !== answer.correct || !Number.isInteger(answer.at)) answer.at = now;
    }
    if (after.passedCode !== undefined && after.passedCode !== before.passedCode) {
      // Newer than the code that passed before, even on a clock that runs behind.
      after.passedAt = Math.max(now, (before.passedAt ?? -1) + 1);
    }
    if (after.draft === undefined || after.draft === before.draft) return;
    const previous = versionsOf(before);
    const mine = previous.find((v) => v.device === this.device);
    const base: Record<string, number> = { ...(mine?.base ?? {}) };
    const adopted = this.adopted.get(number);
    if (adopted && adopted.device !== this.device) {
      for (const [device, at] of Object.entries({ ...adopted.base, [adopted.device]: adopted.at })) {
        base[device] = Math.max(base[device] ?? 0, at);
      }
    }
    delete base[this.device];
    // Kept small (the format allows 64): the newest devices matter for what is offered.
    const trimmed = Object.fromEntries(Object.entries(base).sort((x, y) => y[1] - x[1]).slice(0, 32));
    // An edit continues from what is shown: it is the newest, even on a clock that runs behind.
    const at = Math.max(now, ...previous.map((v) => v.at + 1));
    const version: Version = { draft: after.draft, at, device: this.device, base: trimmed };
    setVersions(after, newestPerDevice([version, ...previous]));
    this.adopted.set(number, version);
  }

  /** The lesson's draft, as the editor starts from it: later edits here are based on it, so it
   *  is not offered back as a conflicting version. */
  adoptDraft(number: string): string | undefined {
    const current = versionsOf(this.lesson(number))[0];
    if (current) this.adopted.set(number, current);
    return current?.draft;
  }

  /** The draft version the editor last started from (null: none). */
  adoptedDraft(number: string): Version | null {
    return this.adopted.get(number) ?? null;
  }

  /** Earlier versions of a lesson's draft from other devices (or set aside here) that the
   *  current draft was not made from: the learner can look at them and restore one. */
  earlierVersions(number: string): Version[] {
    const [current, ...earlier] = versionsOf(this.lesson(number));
    if (!current) return [];
    return earlier.filter((v) => v.draft !== current.draft && !((current.base[v.device] ?? -1) >= v.at));
  }

  /** Make an earlier version the draft again; the draft it replaces stays as an earlier version. */
  restore(number: string, version: Version): void {
    const lesson = copy(this.lesson(number));
    const versions = versionsOf(lesson);
    const current = versions[0];
    if (!current) return;
    const now = Math.max(Date.now(), ...versions.map((v) => v.at + 1));
    const kept = versions.map((v) => (v.device === this.device ? { ...v, device: `${this.device}~${v.at}` } : v));
    const base = { ...version.base, [version.device]: version.at };
    delete base[this.device];
    const restored: Version = { draft: version.draft, at: now, device: this.device, base };
    setVersions(lesson, newestPerDevice([restored, ...kept]));
    this.adopted.set(number, restored);
    this.data.lessons[number] = lesson;
    this.write();
  }

  /** Merge progress from elsewhere (the account, another tab) into this browser's. */
  absorb(lessons: Lessons, settings: Settings = {}): void {
    if (this.blocked) return;
    this.data.lessons = this.mergeKeepingDropped(this.data.lessons, lessons);
    this.setSettings(mergeSettings(this.data.settings ?? {}, settings));
    this.write();
  }

  // --- settings ------------------------------------------------------------------------------

  /** A setting's value, or undefined when the learner never chose one. */
  setting(name: string): string | undefined {
    return this.data.settings?.[name]?.value;
  }

  /** Choose a setting's value: the newest choice, even on a clock that runs behind. */
  choose(name: string, value: string): void {
    const before = this.data.settings?.[name];
    if (before?.value === value) return;
    const at = Math.max(Date.now(), (before?.at ?? -1) + 1);
    this.setSettings({ ...(this.data.settings ?? {}), [name]: { value, at } });
    this.write();
  }

  /** All the settings (a copy), as the sync sends them. */
  settings(): Settings {
    return copy(this.data.settings ?? {});
  }

  private setSettings(settings: Settings): void {
    if (Object.keys(settings).length) this.data.settings = settings;
    else delete this.data.settings;
  }

  // --- a browser that several accounts use ---------------------------------------------------
  // Signing out puts this browser's progress away under the account's id, out of sight of the
  // next learner and of any other account that signs in here; it comes back, merged, when the
  // same account signs in here again. Nothing is deleted: the account has it, and so does the stash.

  /** The account this browser's progress was last synced with, if any. */
  get owner(): string | null {
    return this.storage.getItem(`${this.key}:account`);
  }

  set owner(account: string) {
    try { this.storage.setItem(`${this.key}:account`, account); } catch { /* asked again next sync */ }
  }

  /** Move this browser's progress into the stash of `account` and start empty; false (and nothing
   *  moved) when the browser cannot store it. With `keep` false (the account already has all of
   *  it), nothing is stashed: a classroom computer does not fill up with every learner's copy. */
  putAwayFor(account: string, keep = true): boolean {
    const stashKey = `${this.key}:kept-for:${account}`;
    const asideStashKey = `${this.key}:set-aside-for:${account}`;
    let lessons = copy(this.data.lessons);
    let settings = copy(this.data.settings ?? {});
    const earlier = this.storage.getItem(stashKey);
    if (earlier) {
      try {
        const parsed = JSON.parse(earlier) as unknown;
        lessons = merge(readDocument(parsed, this.course.slug).lessons, lessons);
        settings = mergeSettings(readSettings(parsed), settings);
      } catch { /* replaced below */ }
    }
    // What was set aside was never synced (it could not be read), so the account does not have
    // it: it goes with the account's stash whatever `keep` says, out of the next learner's sight.
    const aside = [...this.readParts(asideStashKey), ...this.aside];
    try {
      if (aside.length) this.storage.setItem(asideStashKey, this.partsText(aside));
      if (keep || earlier) this.storage.setItem(stashKey, JSON.stringify(progressDocument(this.course.slug, lessons, settings)));
      this.storage.removeItem(`${this.key}:account`);
      this.storage.removeItem(this.key);
      this.storage.removeItem(this.asideKey);
      this.storage.removeItem(this.notesKey); // quiz misses, recent checks: the next learner starts afresh
    } catch (error) {
      this.saveError = describeError(error);
      this.notify();
      return false;
    }
    this.data = fresh(this.course.slug);
    this.aside = [];
    this.asideStored = true;
    this.blocked = false;
    this.lastText = null;
    this.adopted.clear();
    this.notify();
    return true;
  }

  /** The account was deleted: nothing of it stays in this browser. Its stash goes, and so does
   *  the progress on show, unless it was another account's. */
  forgetAccount(account: string): void {
    for (const suffix of [`kept-for:${account}`, `set-aside-for:${account}`]) this.storage.removeItem(`${this.key}:${suffix}`);
    const owner = this.owner;
    if (owner !== null && owner !== account) return;
    for (const key of [this.key, this.asideKey, `${this.key}:account`, `${this.key}:synced`]) this.storage.removeItem(key);
    this.data = fresh(this.course.slug);
    this.aside = [];
    this.asideStored = true;
    this.blocked = false;
    this.lastText = null;
    this.adopted.clear();
    this.notify();
  }

  /** Merge back what was put away for `account` on this browser, if anything. */
  takeBackFor(account: string): void {
    const asideStashKey = `${this.key}:set-aside-for:${account}`;
    const parked = this.readParts(asideStashKey);
    if (parked.length) {
      this.addAside(parked);
      this.asideStored = this.storeAside();
      if (this.asideStored) this.storage.removeItem(asideStashKey);
      this.notify();
    }
    const stashKey = `${this.key}:kept-for:${account}`;
    const kept = this.storage.getItem(stashKey);
    if (kept === null) return;
    try {
      const parsed = JSON.parse(kept) as unknown;
      this.absorb(readDocument(parsed, this.course.slug).lessons, readSettings(parsed));
    } catch {
      return; // unreadable: left where it is, never lost by this
    }
    if (this.saveError === null) this.storage.removeItem(stashKey);
  }

  /** This browser's progress as a version-2 document (what the sync sends). */
  document(): ProgressFile {
    return progressDocument(this.course.slug, copy(this.data.lessons), this.settings());
  }

  private absorbStored(text: string): void {
    try {
      const parsed = JSON.parse(text) as unknown;
      const { lessons } = readDocument(parsed, this.course.slug);
      this.data.lessons = this.mergeKeepingDropped(this.data.lessons, lessons);
      this.setSettings(mergeSettings(this.data.settings ?? {}, readSettings(parsed)));
    } catch {
      // Unreadable: load() sets such text aside when this page (or the next) reads it.
    }
  }

  /** The merge, but a draft version pushed out by the limit on earlier versions is set aside
   *  (shown, downloadable) rather than lost. */
  private mergeKeepingDropped(ours: Lessons, theirs: Lessons): Lessons {
    const merged = merge(ours, theirs);
    const found: SetAsidePart[] = [];
    for (const [number, lesson] of Object.entries(merged)) {
      const kept = new Set(versionsOf(lesson).map((v) => v.device));
      const seen = new Set<string>();
      for (const v of [...versionsOf(ours[number] ?? emptyLesson()), ...versionsOf(theirs[number] ?? emptyLesson())]) {
        if (kept.has(v.device) || seen.has(v.device)) continue;
        seen.add(v.device);
        found.push({ lesson: number, part: "an earlier version of its draft", reason: `more than ${MAX_EARLIER} earlier versions met`, value: v, when: new Date().toISOString() });
      }
    }
    if (found.length && this.addAside(found)) this.asideStored = this.storeAside();
    return merged;
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
    // Version 2: what merging needs (times, devices) travels with the file.
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
    const settingsBefore = this.settings();
    for (const [number, theirs] of Object.entries(incoming.lessons)) {
      this.data.lessons[number] = mergeLesson(this.data.lessons[number] ?? emptyLesson(), theirs);
    }
    this.setSettings(mergeSettings(settingsBefore, incoming.settings));
    if (!this.write()) {
      this.data.lessons = JSON.parse(before) as Record<string, LessonProgress>;
      this.setSettings(settingsBefore);
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
    return this.partsText(this.aside);
  }

  private partsText(parts: SetAsidePart[]): string {
    return JSON.stringify({ format: "linebyline-set-aside", course: this.course.slug, parts }, null, 2);
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

interface Salvaged { lessons: Record<string, LessonProgress>; settings: Settings; parts: SetAsidePart[]; unreadable: boolean }

/** Read stored text, keeping every lesson that can be read and setting aside what cannot. */
function salvage(text: string, course: string): Salvaged {
  const when = new Date().toISOString();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { lessons: {}, settings: {}, parts: [{ lesson: null, part: "the whole progress file", reason: "it is not JSON", value: text, when }], unreadable: true };
  }
  try {
    return { ...readFile(parsed, course), unreadable: false };
  } catch (error) {
    return { lessons: {}, settings: {}, parts: [{ lesson: null, part: "the whole progress file", reason: (error as Error).message, value: parsed, when }], unreadable: true };
  }
}

/** Check a progress file's head (a wrong one is refused, named), then read each lesson on its
 *  own: a lesson, draft or quiz answer that cannot be read is left out and listed. A version-2
 *  lesson is read whole; if that fails, what a version-1 reader can take of it is kept and the
 *  lesson as it was is set aside too (its times and earlier versions are not lost). */
function readFile(value: unknown, course: string): { lessons: Lessons; settings: Settings; parts: SetAsidePart[] } {
  if (typeof value !== "object" || value === null) fail("it is not an object");
  const file = value as Record<string, unknown>;
  if (file.format !== "linebyline-progress" || (file.version !== 1 && file.version !== 2)) fail("its format is not linebyline-progress version 1 or 2");
  if (file.course !== course) fail(`it is for the course "${String(file.course)}", not "${course}"`);
  if (typeof file.lessons !== "object" || file.lessons === null) fail("it has no lessons");
  const lessons: Lessons = {};
  const parts: SetAsidePart[] = [];
  const when = new Date().toISOString();
  let settings: Settings = {};
  try {
    settings = readSettings(file);
  } catch (error) {
    parts.push({ lesson: null, part: "its settings", reason: (error as Error).message, value: file.settings, when });
  }
  for (const [number, raw] of Object.entries(file.lessons as Record<string, unknown>)) {
    const aside = (part: string, reason: string, kept: unknown) => parts.push({ lesson: number, part, reason, value: kept, when });
    if (!LESSON_NUMBER.test(number)) { aside("the whole lesson", `"${number}" is not a lesson number`, raw); continue; }
    if (file.version === 2) {
      try {
        lessons[number] = readLesson(raw, `lesson ${number}`, 2);
        continue;
      } catch (error) {
        aside("the lesson as it was stored", (error as Error).message, raw);
      }
    }
    const cleaned = readVersion1Lesson(raw, aside);
    if (!cleaned) continue;
    try {
      lessons[number] = readLesson(cleaned, `lesson ${number}`, 1);
    } catch (error) {
      aside("the whole lesson", (error as Error).message, raw);
    }
  }
  return { lessons, settings, parts };
}

/** What a version-1 lesson holds, taken part by part; a part that cannot be read is set aside. */
function readVersion1Lesson(raw: unknown, aside: (part: string, reason: string, kept: unknown) => void): Record<string, unknown> | null {
  if (typeof raw !== "object" || raw === null) { aside("the whole lesson", "it is not an object", raw); return null; }
  const entry = raw as Record<string, unknown>;
  if (!STATUSES.includes(entry.status as LessonStatus)) { aside("the whole lesson", "its status is unknown", raw); return null; }
  const lesson: Record<string, unknown> = { status: entry.status };
  if (typeof entry.draft === "string" && entry.draft.length <= MAX_DRAFT) lesson.draft = entry.draft;
  else if (typeof entry.draft === "string") aside("its draft", `its draft is ${entry.draft.length.toLocaleString("en")} characters, more than the ${MAX_DRAFT.toLocaleString("en")} a draft can be`, entry.draft);
  else if (entry.draft !== undefined) aside("its draft", "its draft is not text", entry.draft);
  const quiz: Record<string, unknown> = {};
  const answers = entry.quiz ?? {};
  if (typeof answers !== "object" || answers === null) aside("its quiz answers", "its quiz answers are not a list of answers", answers);
  else {
    for (const [id, answer] of Object.entries(answers as Record<string, unknown>)) {
      const a = answer as Record<string, unknown> | null;
      if (typeof a !== "object" || a === null || typeof a.answer !== "string" || typeof a.correct !== "boolean" || !/^[A-Za-z0-9_.:-]{1,100}$/.test(id)) {
        aside(`its quiz answer ${id}`, `its quiz answer ${id} is malformed`, answer);
        continue;
      }
      quiz[id] = { answer: a.answer.slice(0, 100), correct: a.correct };
    }
  }
  lesson.quiz = quiz;
  lesson.hintsShown = typeof entry.hintsShown === "number" && entry.hintsShown >= 0 ? Math.min(Math.floor(entry.hintsShown), 1000) : 0;
  const checks = entry.checks as { passed?: unknown; total?: unknown } | undefined;
  if (checks && Number.isInteger(checks.passed) && Number.isInteger(checks.total) && (checks.passed as number) >= 0 && (checks.passed as number) <= (checks.total as number) && (checks.total as number) <= 10_000) {
    lesson.checks = { passed: checks.passed, total: checks.total };
  }
  return lesson;
}

/** A progress file, checked as a whole (for tools and tests): anything unreadable is refused. */
export function validate(value: unknown, course: string): ProgressFile {
  const { lessons, settings, parts } = readFile(value, course);
  if (parts.length) fail(parts[0].lesson ? `lesson ${parts[0].lesson}: ${parts[0].reason}` : parts[0].reason);
  return progressDocument(course, lessons, settings);
}
