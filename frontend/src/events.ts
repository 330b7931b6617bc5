// What learners do in the Build part, sent to the server for their teachers and the course's
// authors: check results (each check's status and message), hints shown, the code-along opened,
// the solution revealed. Never the learner's code. A learner who is not signed in is known only
// by a random id this browser makes up; the server keeps no address.
//
// Events are queued and sent in small batches a few seconds apart (and when the page is hidden or
// left, with fetch's keepalive so the request outlives the page). A refused batch (4xx: say, from
// a page of an older course version) is dropped; a failed one (offline, 429, 5xx) is kept and
// retried with backoff while the page stays open.
import { csrfToken } from "./csrf";

export interface CheckOutcome { name: string; status: string; message: string }
export type LearningEvent =
  | { kind: "start" }
  | { kind: "check"; status: string; checks: CheckOutcome[] }
  | { kind: "hint"; hint: number }
  | { kind: "codealong" }
  | { kind: "solution" };
type Queued = LearningEvent & { lesson: string };

const ENDPOINT = "/events/";
const SEND_AFTER_MS = 3000;
const MAX_BACKOFF_MS = 5 * 60_000;
const MAX_QUEUED = 200; // past this the oldest go: a page left open offline for days stays small
const MAX_EVENTS = 25; // per batch, as the server allows
const MAX_BYTES = 24_000; // per batch (the server allows 32 KB)
const MAX_MESSAGE = 500; // characters of a check's message
const BROWSER_KEY = "linebyline-browser-id";

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function browserId(): string {
  try {
    const kept = localStorage.getItem(BROWSER_KEY);
    if (kept && /^[0-9a-f]{32}$/.test(kept)) return kept;
    const made = randomId();
    localStorage.setItem(BROWSER_KEY, made);
    return made;
  } catch {
    return randomId(); // storage refused: an id for this page only
  }
}

function shortened(text: string): string {
  const characters = Array.from(text); // by code point: never half a surrogate pair
  return characters.length <= MAX_MESSAGE ? text : `${characters.slice(0, MAX_MESSAGE - 1).join("")}…`;
}

function bounded(event: Queued): Queued {
  if (event.kind !== "check") return event;
  return { ...event, checks: event.checks.map((c) => ({ name: c.name, status: c.status, message: shortened(c.message ?? "") })) };
}

class EventLog {
  private queue: Queued[] = [];
  private timer: number | undefined;
  private sending = false;
  private backoff = 0;
  private readonly browser = browserId();

  constructor(private readonly course: string) {
    const leave = () => this.sendAll();
    window.addEventListener("pagehide", leave);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") leave(); });
  }

  record(event: Queued): void {
    this.queue.push(bounded(event));
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
    this.schedule(SEND_AFTER_MS);
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) return;
    this.timer = window.setTimeout(() => { this.timer = undefined; void this.sendSome(); }, delay);
  }

  /** The next batch: as many events as fit the server's limits. */
  private take(): Queued[] {
    const batch: Queued[] = [];
    let bytes = 200;
    while (batch.length < MAX_EVENTS && this.queue.length) {
      const size = new TextEncoder().encode(JSON.stringify(this.queue[0])).length + 1;
      if (batch.length && bytes + size > MAX_BYTES) break;
      batch.push(this.queue.shift()!);
      bytes += size;
    }
    return batch;
  }

  private post(batch: Queued[], token: string): Promise<Response> {
    return fetch(ENDPOINT, {
      method: "POST", keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ course: this.course, browser: this.browser, events: batch }),
    });
  }

  private async sendSome(): Promise<void> {
    const token = csrfToken();
    if (this.sending || !token) return;
    this.sending = true;
    try {
      while (this.queue.length) {
        const batch = this.take();
        let retry = false;
        try {
          const response = await this.post(batch, token);
          retry = response.status === 429 || response.status >= 500;
        } catch {
          retry = true; // offline, or the server is down
        }
        if (retry) {
          this.queue.unshift(...batch);
          this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff ? this.backoff * 2 : SEND_AFTER_MS * 2);
          this.schedule(this.backoff);
          return;
        }
        this.backoff = 0;
      }
    } finally {
      this.sending = false;
    }
  }

  /** The page is going away: send what is queued without waiting for answers. */
  private sendAll(): void {
    const token = csrfToken();
    if (!token) return;
    window.clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length) void this.post(this.take(), token).catch(() => undefined);
  }
}

let log: EventLog | null = null;

/** Note something the learner did in `lesson` of `course`. */
export function recordEvent(course: string, lesson: string, event: LearningEvent): void {
  log ??= new EventLog(course);
  log.record({ ...event, lesson });
}
