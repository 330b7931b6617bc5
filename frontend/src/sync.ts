// Signed in, this browser's progress and the account's are kept merged through /api/progress/:
// on every page load (so signing in brings what this browser did into the account, and opening
// the course shows what other devices did), then after each change, batched, in the background.
// A failed sync is retried with backoff; offline work goes when the connection returns. Tabs do
// not fight: the merge is a join, one tab sends at a time (Web Locks), and a tab that synced
// tells the others through localStorage (Progress follows its storage events).
//
// A browser can be shared: signing out puts its progress away for that account (Progress.putAwayFor),
// and progress synced with one account is never sent to another that signs in later.

import { say } from "./live";
import { fnv1a32, readDocument, readSettings, type Lessons, type Settings } from "./merge";
import type { Progress, ProgressFile } from "./progress";

const BATCH_MS = 2_000; // changes within this wait go in one request
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;
const SIGN_OUT_WAIT_MS = 4_000; // how long signing out waits for the last changes to sync

type State = "saving" | "saved" | "offline" | "error" | "signed-out";

/** JSON with keys sorted: the same progress gives the same text whichever side merged it. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What the account and this browser hold in common once synced, as a short fingerprint. */
function fingerprint(lessons: Lessons, settings: Settings = {}): string {
  return fnv1a32(canonical(lessons) + (Object.keys(settings).length ? canonical(settings) : ""));
}

function csrfToken(): string {
  const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
}

class SyncError extends Error {
  constructor(message: string, readonly retry: boolean, readonly state: State = "error", readonly after?: number) { super(message); }
}

export class Sync {
  private timer: number | undefined;
  private due = 0;
  private inFlight = false;
  private retryMs = FIRST_RETRY_MS;
  private stopped = false;
  private readonly syncedKey: string;

  constructor(private progress: Progress, private url: string, private account: string,
              private report: (state: State, text: string) => void) {
    this.syncedKey = `${progress.key}:synced`;
  }

  start(): void {
    const owner = this.progress.owner;
    if (owner !== null && owner !== this.account) {
      // Another account's progress, left by a sign-out that did not come through our form (the
      // session ran out, say): kept apart for that account, not added to this one.
      if (!this.progress.putAwayFor(owner)) {
        this.stopped = true;
        this.report("error", "Not synced: this browser holds the progress of another account that signed in here, and has no room left to keep it apart from yours. Export it (Your progress, on the course page) and clear this site's data, then reload.");
        return;
      }
    }
    this.progress.takeBackFor(this.account);
    this.progress.onChange(() => {
      if (this.stopped || this.inFlight || !this.dirty()) return;
      this.show(navigator.onLine ? "saving" : "offline"); // not "synced" while a change waits
      this.schedule(BATCH_MS);
    });
    window.addEventListener("online", () => this.schedule(0));
    window.addEventListener("offline", () => this.show("offline"));
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") this.schedule(0); });
    window.addEventListener("pagehide", () => { if (this.dirty()) this.beacon(); });
    this.schedule(0); // what this browser has joins the account's, and the account's comes here
  }

  /** Whether this browser holds progress the account may not have yet. */
  private dirty(): boolean {
    const sendable = this.sendable();
    return localStorage.getItem(this.syncedKey) !== fingerprint(sendable.lessons, sendable.settings);
  }

  /** This browser's progress in the lessons of the server's course, the only ones it takes (it
   *  refuses a document naming any other). Others (a lesson of another version of the course,
   *  from an imported file) stay in this browser. */
  private sendable(): ProgressFile {
    const whole = this.progress.document();
    const known = this.progress.course.lessons;
    whole.lessons = Object.fromEntries(Object.entries(whole.lessons).filter(([number]) => number in known));
    return whole;
  }

  /** Whether this browser holds lessons the account cannot take (so cannot have). */
  private holdsOthers(): boolean {
    return Object.keys(this.progress.document().lessons).some((number) => !(number in this.progress.course.lessons));
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (!navigator.onLine) { this.show("offline"); return; }
    const due = Date.now() + delay;
    if (this.timer !== undefined && this.due <= due) return; // a batch already waits: it takes this too
    window.clearTimeout(this.timer);
    this.due = due;
    this.timer = window.setTimeout(() => { this.timer = undefined; void this.run(); }, delay);
  }

  private async run(): Promise<void> {
    if (this.inFlight) { this.schedule(BATCH_MS); return; }
    this.inFlight = true;
    this.show("saving");
    try {
      const locks = navigator.locks;
      if (locks) await locks.request(`linebyline-sync:${this.progress.course.slug}`, () => this.exchange());
      else await this.exchange();
      this.retryMs = FIRST_RETRY_MS;
      this.show(this.dirty() ? "saving" : "saved");
      if (this.dirty()) this.schedule(BATCH_MS);
    } catch (error) {
      const problem = error instanceof SyncError ? error : new SyncError(navigator.onLine ? "the server could not be reached" : "offline", true, navigator.onLine ? "error" : "offline");
      if (problem.state === "signed-out") this.stopped = true;
      if (problem.retry && navigator.onLine) {
        const wait = problem.after ?? this.retryMs;
        this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
        this.report(problem.state, `Not synced yet (${problem.message}): saved in this browser, trying again in ${Math.round(wait / 1000)} s.`);
        this.schedule(wait * (0.8 + Math.random() * 0.4));
      } else if (problem.state === "offline") {
        this.show("offline");
      } else {
        this.report(problem.state, `Not synced: ${problem.message}. Your progress is kept in this browser.`);
      }
    } finally {
      this.inFlight = false;
    }
  }

  /** Send this browser's progress; merge in the account's answer. */
  private async exchange(): Promise<void> {
    const sent = this.sendable();
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
        body: JSON.stringify(sent),
      });
    } catch {
      throw new SyncError(navigator.onLine ? "the server could not be reached" : "offline", true, navigator.onLine ? "error" : "offline");
    }
    const answer = await response.json().catch(() => null) as { error?: string } | null;
    if (response.status === 401 || response.status === 403) {
      throw new SyncError(answer?.error ?? "you are signed out; sign in again to sync", false, "signed-out");
    }
    if (response.status === 429 || response.status === 503 || response.status >= 500) {
      const after = Number(response.headers.get("Retry-After")) * 1000 || undefined;
      throw new SyncError(answer?.error ?? `the server answered ${response.status}`, true, "error", after);
    }
    if (!response.ok || !answer) throw new SyncError(answer?.error ?? `the server answered ${response.status}`, false);
    let lessons;
    let settings;
    try {
      lessons = readDocument(answer, this.progress.course.slug).lessons;
      settings = readSettings(answer);
    } catch (error) {
      throw new SyncError(`the server's answer could not be read (${(error as Error).message})`, true);
    }
    localStorage.setItem(this.syncedKey, fingerprint(lessons, settings));
    this.progress.absorb(lessons, settings);
    this.progress.owner = this.account;
  }

  /** Signing out: send what is not synced yet (waiting a few seconds at most), stop syncing, and
   *  put this browser's progress away for this account. */
  async signOut(): Promise<void> {
    this.stopped = true;
    window.clearTimeout(this.timer);
    if (this.dirty() && navigator.onLine) {
      const waited = new Promise<void>((resolve) => window.setTimeout(resolve, SIGN_OUT_WAIT_MS));
      await Promise.race([this.exchange().catch(() => undefined), waited]);
    }
    // Synced, the account has all of it and this browser keeps no copy; otherwise it is stashed
    // for this account. If it cannot be put away, it stays marked as this account's, so no other
    // account takes it.
    if (!this.progress.putAwayFor(this.account, this.dirty() || this.holdsOthers())) this.progress.owner = this.account;
  }

  /** The page is going with changes not sent: send them without waiting for an answer. */
  private beacon(): void {
    void fetch(this.url, {
      method: "POST", credentials: "same-origin", keepalive: true,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(this.sendable()),
    }).catch(() => undefined); // the next page load sends it again
  }

  private show(state: State): void {
    const texts: Record<State, string> = {
      saving: "Syncing…",
      saved: "Synced",
      offline: "Offline: saved in this browser, synced when you are back online",
      error: "Not synced yet",
      "signed-out": "Signed out: sign in again to sync",
    };
    this.report(state, texts[state]);
  }
}

/** Start syncing when the page says the learner is signed in (the body's data-progress-api). */
export function setUpSync(progress: Progress): Sync | null {
  const url = document.body.dataset.progressApi;
  const account = document.body.dataset.account;
  if (!url || !account) return null;
  const badge = document.querySelector<HTMLElement>("[data-sync-status]");
  const detail = document.querySelector<HTMLElement>("[data-sync-detail]");
  const sync = new Sync(progress, url, account, (state, text) => {
    if (badge) {
      badge.dataset.state = state;
      say(badge, state === "saved" ? "Synced" : state === "saving" ? "Syncing…" : "Not synced"); // a live region
      badge.title = text;
    }
    if (detail) { detail.dataset.state = state; say(detail, text); }
  });
  sync.start();
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-sign-out]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      for (const button of form.querySelectorAll("button")) button.disabled = true;
      void sync.signOut().finally(() => form.submit());
    }, { once: true });
  }
  return sync;
}
