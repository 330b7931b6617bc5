// What learners do in the Build part, sent to the server for their teachers and the course's
// authors: check results (each check's status and message), hints shown, the code-along opened,
// the solution revealed; for a signed-in learner, also the code they checked (their teachers see
// it). A learner who is not signed in is known only by a random id this browser makes up; the
// server keeps no address, and never their code.
//
// Each event gets an id of its own when it happens, and waits in localStorage until the server
// has said it has it: so nothing is lost when a page is left or the connection drops, and the
// server stores an event sent twice once. Events are sent in small batches a few seconds apart
// (and when the page is hidden or left, with fetch's keepalive so the request outlives the page;
// what that sends is sent again by the next page, harmlessly). A failed batch (offline, 429, 5xx)
// is retried with backoff. Each event says which account it was recorded under ("" for none),
// and waits for that account: on a shared computer, one learner's events never go as another's.
import { csrfToken } from "./csrf";

export interface CheckOutcome { name: string; status: string; message: string }
export type LearningEvent =
  | { kind: "start" }
  | { kind: "check"; status: string; checks: CheckOutcome[]; code?: string }
  | { kind: "hint"; hint: number }
  | { kind: "codealong" }
  | { kind: "solution" };
type Queued = LearningEvent & { lesson: string; id: string; at: number; account: string };

const ENDPOINT = "/events/";
const SEND_AFTER_MS = 3000;
const MAX_BACKOFF_MS = 5 * 60_000;
const MAX_QUEUED = 500; // past this the oldest go: a page left open offline for days stays small
const MAX_EVENTS = 25; // per batch, as the server allows
const MAX_BYTES = 1_000_000; // per batch (the server allows 2 MB; one event alone always goes)
const KEEPALIVE_BYTES = 60_000; // browsers refuse a keepalive request larger than 64 KB
const MAX_MESSAGE = 500; // characters of a check's message
const BROWSER_KEY = "linebyline-browser-id";

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** This browser's random id: what the server knows an anonymous learner by. */
export function browserId(): string {
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
  // Only what the learner saw: a check's other fields (the course's own fix) are not sent.
  return { ...event, checks: event.checks.map((c) => ({ name: c.name, status: c.status, message: shortened(c.message ?? "") })) };
}

/** The account this page is signed in as ("" for none). */
function pageAccount(): string {
  return document.body.dataset.account ?? "";
}

/** The events not yet acknowledged, kept in localStorage (or, if it refuses, in this page). */
class Pending {
  private memory: Queued[] = [];

  constructor(private readonly key: string) {}

  read(): Queued[] {
    try {
      const text = localStorage.getItem(this.key);
      const found: unknown = text ? JSON.parse(text) : [];
      return Array.isArray(found) ? (found as Queued[]) : [];
    } catch {
      return this.memory;
    }
  }

  write(events: Queued[]): void {
    const kept = events.slice(-MAX_QUEUED);
    this.memory = kept;
    try {
      if (kept.length) localStorage.setItem(this.key, JSON.stringify(kept));
      else localStorage.removeItem(this.key);
    } catch { /* storage full or refused: kept in this page (memory) */ }
  }

  add(event: Queued): void {
    this.write([...this.read(), event]);
  }

  remove(ids: Set<string>): void {
    this.write(this.read().filter((event) => !ids.has(event.id)));
  }
}

class EventLog {
  private timer: number | undefined;
  private sending = false;
  private backoff = 0;
  private readonly pending: Pending;

  constructor(private readonly course: string) {
    this.pending = new Pending(`linebyline-events:${course}`);
    const leave = () => this.sendAll();
    window.addEventListener("pagehide", leave);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") leave(); });
    if (this.mine().length) this.schedule(SEND_AFTER_MS); // what an earlier page could not send
  }

  record(event: LearningEvent, lesson: string): void {
    this.pending.add(bounded({ ...event, lesson, id: randomId(), at: Date.now(), account: pageAccount() }));
    this.schedule(SEND_AFTER_MS);
  }

  /** The events this page may send: those recorded under the account it is signed in as. */
  private mine(): Queued[] {
    const account = pageAccount();
    return this.pending.read().filter((event) => event.account === account);
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) return;
    this.timer = window.setTimeout(() => { this.timer = undefined; void this.sendSome(); }, delay);
  }

  /** The next batch from `queue`: as many events as fit the server's limits. */
  private take(queue: Queued[]): Queued[] {
    const batch: Queued[] = [];
    let bytes = 300;
    while (batch.length < MAX_EVENTS && queue.length) {
      const size = new TextEncoder().encode(JSON.stringify(queue[0])).length + 1;
      if (batch.length && bytes + size > MAX_BYTES) break;
      batch.push(queue.shift()!);
      bytes += size;
    }
    return batch;
  }

  private post(batch: Queued[], token: string, keepalive: boolean): Promise<Response> {
    const account = batch[0]?.account ?? "";
    const events = batch.map(({ account: _, ...event }) => event);
    // The browser's id is made when there is something to send (a page that only looks, leaves none).
    const body = JSON.stringify({ course: this.course, browser: browserId(), account, sent: Date.now(), events });
    return fetch(ENDPOINT, {
      method: "POST", keepalive: keepalive && body.length < KEEPALIVE_BYTES, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body,
    });
  }

  private async sendSome(): Promise<void> {
    const token = csrfToken();
    if (this.sending || !token) return;
    this.sending = true;
    try {
      const queue = this.mine();
      while (queue.length) {
        const batch = this.take(queue);
        let status = 0;
        try {
          status = (await this.post(batch, token, false)).status;
        } catch {
          status = 0; // offline, or the server is down
        }
        if (status === 0 || status === 429 || status >= 500 || status === 409) {
          // Kept, and tried again later (409: the account it belongs to is not signed in now).
          this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff ? this.backoff * 2 : SEND_AFTER_MS * 2);
          this.schedule(this.backoff);
          return;
        }
        // Stored (201), or refused for good (another 4xx, say from a page of an older course
        // version): either way sending it again cannot help.
        if (status !== 201) console.warn(`linebyline: the server refused ${batch.length} learning event(s) (${status})`);
        this.pending.remove(new Set(batch.map((event) => event.id)));
        this.backoff = 0;
      }
    } finally {
      this.sending = false;
    }
  }

  /** The page is going away: send what is pending without waiting for answers (it stays
   *  pending: the next page sends it again, and the server keeps one copy). */
  private sendAll(): void {
    const token = csrfToken();
    if (!token) return;
    window.clearTimeout(this.timer);
    this.timer = undefined;
    const queue = this.mine();
    while (queue.length) void this.post(this.take(queue), token, true).catch(() => undefined);
  }
}

let log: EventLog | null = null;

/** Send what an earlier page recorded and could not send (any page of the site can). */
export function sendPendingEvents(course: string): void {
  log ??= new EventLog(course);
}

/** Note something the learner did in `lesson` of `course`. */
export function recordEvent(course: string, lesson: string, event: LearningEvent): void {
  log ??= new EventLog(course);
  log.record(event.kind === "check" && !pageAccount() ? { ...event, code: undefined } : event, lesson);
}

/** Forget the events this browser still holds for `account` (its account was deleted). */
export function forgetEvents(course: string, account: string): void {
  const pending = new Pending(`linebyline-events:${course}`);
  pending.write(pending.read().filter((event) => event.account !== account));
}
