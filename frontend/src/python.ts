// The page's side of in-browser Python: one Web Worker running Pyodide, loaded in the background
// as the page opens. Stop and the time limit interrupt Python through a shared buffer; if that
// does not work in time, the worker is replaced, so the page never freezes.
//
// Each worker gets a random secret with "init", before any learner code can run in it, and the
// page takes only messages that carry it: the learner's Python can post messages from the worker
// (`import js`), but never one the page would take for a result.

export type PythonState = "loading" | "ready" | "busy" | "failed";

export interface CheckJob {
  lesson: string; source: string; checks: string; reference: string; starter: string; filename: string; timeout: number;
  /** The on-my-own starter, when the lesson has one: untouched, it is not attempted either. */
  ownStarter?: string;
}
/** One check's outcome: `message` diagnoses; `fix` ("" when none) is the literal line(s) to write,
 *  which the page holds back until the learner has struggled (build-checks.ts). */
export interface CheckItem { name: string; status: string; message: string; fix: string }
/** `traceback` is the learner's traceback of the first error ("" if none), for the Output panel. */
export interface CheckResult { lesson: string; status: string; checks: CheckItem[]; stdout: string; traceback: string }
export interface RunResult { status: "ok" | "error" | "stopped"; line: number | null }

/** A job in words: "the training" (what), "in Explore" (where); `build` marks the Build part's own. */
export interface Job { what: string; where: string; build?: boolean }
const BUILD_RUN: Job = { what: "your code", where: "in Build", build: true };
const BUILD_CHECK: Job = { what: "the checks of your code", where: "in Build", build: true };

interface Urls { worker: string; pyodide: string; runtime: string; dataset: string }

type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onOutput?: (text: string, stream: "stdout" | "stderr") => void;
};

const GRAPH_TIMEOUT_MS = 20_000; // replaying a whole forward pass's backward() takes a few seconds
const INTERRUPT_GRACE_MS = 3000; // after an interrupt, how long Python gets to stop by itself

export class Python {
  private worker: Worker | null = null;
  private interrupt: Int32Array | null = null;
  private ready: Promise<void> = Promise.resolve();
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private current: number | null = null;
  private timer: number | undefined;
  private stopReason: "user" | "time" | null = null;
  private secret = "";
  private submitted = 0; // performance.now() when the current job was posted
  private who: Job | null = null; // what the current job is, in words
  private idle: Array<() => void> = [];

  constructor(private urls: Urls, private onState: (state: PythonState, text: string) => void) {}

  start(): void {
    this.worker?.terminate();
    // Needs a cross-origin isolated page (the server sends COOP/COEP); without it, Stop can
    // only replace the worker.
    const shared = typeof SharedArrayBuffer !== "undefined" && self.crossOriginIsolated;
    this.interrupt = shared ? new Int32Array(new SharedArrayBuffer(8)) : null;
    const worker = new Worker(this.urls.worker, { type: "module", name: "python" });
    this.worker = worker;
    const secret = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    this.secret = secret;
    this.onState("loading", "Python: loading…");
    this.ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent) => {
        const message = event.data;
        if (typeof message !== "object" || message === null || message.secret !== secret) return;
        if (message.type === "status") this.onState("loading", message.text);
        else if (message.type === "ready") { this.onState("ready", "Python: ready"); resolve(); }
        else if (message.type === "failed") {
          this.onState("failed", `Python could not start: ${message.error}`);
          reject(new Error(message.error));
        } else this.receive(message);
      };
      worker.onerror = (event) => {
        this.onState("failed", `Python could not start: ${event.message}`);
        reject(new Error(event.message));
      };
    });
    this.ready.catch(() => undefined);
    worker.postMessage({
      type: "init", secret, pyodideUrl: this.urls.pyodide, runtimeUrl: this.urls.runtime,
      datasetUrl: this.urls.dataset, interrupt: this.interrupt,
    });
  }

  get busy(): boolean {
    return this.current !== null;
  }

  /** What Python is busy with, in words a learner reads; null when idle. */
  get busyWith(): Job | null {
    return this.current === null ? null : this.who;
  }

  /** Resolves once the job running now (if any) has ended, however it ended. */
  whenIdle(): Promise<void> {
    if (this.current === null) return Promise.resolve();
    return new Promise((resolve) => { this.idle.push(resolve); });
  }

  private receive(message: { type: string; id: number; text?: string; result?: unknown; error?: string; exited?: boolean;
                             pythonMs?: number }): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === "stdout" || message.type === "stderr") {
      pending.onOutput?.(message.text ?? "", message.type);
      return;
    }
    this.finish(message.id);
    if (message.type === "done") {
      // On the page's performance timeline (DevTools shows it; bench/browser.py reads it): the
      // whole round trip, and how much of it Python itself took in the worker.
      performance.measure("linebyline: python job", {
        start: this.submitted, detail: { pythonMs: message.pythonMs ?? null },
      });
      pending.resolve(message.result);
      return;
    }
    this.start(); // Python broke: a fresh one takes its place
    pending.reject(new StoppedError(message.exited
      ? `Your code ended Python itself (${message.error ?? "exit"}), so Python was restarted. ` +
        "os._exit() ends Python at once; to end your program early, use sys.exit(), or just let the file end."
      : `Python crashed and was restarted (${message.error ?? "unknown error"}). If your code has a ` +
        "function that keeps calling itself, that is the likely cause."));
  }

  private finish(id: number): void {
    this.pending.delete(id);
    if (this.current === id) this.current = null;
    window.clearTimeout(this.timer);
    if (this.interrupt) { Atomics.store(this.interrupt, 0, 0); Atomics.store(this.interrupt, 1, 0); }
    this.stopReason = null;
    this.who = null;
    this.onState("ready", "Python: ready");
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private async submit<T>(message: Record<string, unknown>, timeoutMs: number | null, who: Job,
                         onOutput?: Pending["onOutput"]): Promise<T> {
    if (this.current !== null) throw new Error("Python is still busy with the last run");
    await this.ready;
    const id = this.nextId++;
    this.current = id;
    this.who = who;
    this.onState("busy", "Python: running…");
    const result = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onOutput });
    });
    if (timeoutMs !== null) this.timer = window.setTimeout(() => this.stop("time"), timeoutMs);
    this.submitted = performance.now();
    this.worker!.postMessage({ ...message, id, secret: this.secret });
    return result;
  }

  /** Run a file; `who` says in words what is running, for whoever finds Python busy meanwhile. */
  run(source: string, filename: string, onOutput: Pending["onOutput"], who: Job = BUILD_RUN): Promise<RunResult> {
    // Only the Build's runs keep what they made, for its Graph tab (an Explore widget's must not
    // replace the learner's Values).
    return this.submit<RunResult>({ type: "run", source, filename, keepValues: who.build === true }, null, who, onOutput);
  }

  /** The graph of a Value the last Build run made, laid out (build-graph.ts reads the result). */
  graph(name: string, rule: string, block: string, who: Job): Promise<unknown> {
    return this.submit<unknown>({ type: "graph", name, rule, block }, GRAPH_TIMEOUT_MS, who);
  }

  check(job: CheckJob): Promise<CheckResult> {
    return this.submit<CheckResult>({ type: "check", job }, job.timeout * 1000, BUILD_CHECK);
  }

  /** Interrupt the running code; replace the worker if it does not stop in time. */
  stop(reason: "user" | "time"): void {
    const id = this.current;
    if (id === null) return;
    this.stopReason = reason;
    if (this.interrupt) {
      Atomics.store(this.interrupt, 1, reason === "user" ? 1 : 2);
      Atomics.store(this.interrupt, 0, 2); // 2 = SIGINT: Python raises KeyboardInterrupt
    }
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.replace(id), this.interrupt ? INTERRUPT_GRACE_MS : 0);
  }

  private replace(id: number): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    const reason = this.stopReason;
    this.finish(id);
    this.start();
    pending.reject(new StoppedError(reason === "user"
      ? "Stopped. Python did not stop by itself, so it was restarted."
      : "Your code ran past the time limit and did not stop, so Python was restarted."));
  }
}

export class StoppedError extends Error {}
