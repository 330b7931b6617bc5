// The page's side of one training worker: start it, run a job, pause, resume, stop, sample now.
import { CONTROL, type Batch, type BlankJob, type Judged, type TrainJob } from "./protocol";

export type TrainStatus = "finished" | "stopped" | "error";

export interface TrainEvents {
  batch(batch: Batch): void;
  samples?(names: string[], error: string, step: number): void;
  paused?(step: number): void;
  resumed?(step: number): void;
}

export interface TrainResult { status: TrainStatus; error: string; weights: Float64Array; seconds: number }

const STOP_GRACE_MS = 5000; // after Stop, how long a step may take to end before the worker goes

export class Trainer {
  private worker: Worker | null = null;
  private secret = "";
  private control = new Int32Array(new SharedArrayBuffer(CONTROL.size * 4));
  private interrupt = new Int32Array(new SharedArrayBuffer(8));
  private ready: Promise<void> = Promise.resolve();
  private job: { id: number; events: TrainEvents; resolve(r: TrainResult): void; reject(e: Error): void } | null = null;
  private nextId = 1;
  private stopTimer: number | undefined;
  private assembling = new Map<number, { resolve(answer: string): void; reject(error: Error): void }>();
  private judging: { id: number; stopped: boolean; onStep(step: number): void; resolve(judged: Judged | null): void; reject(error: Error): void } | null = null;

  constructor(private workerUrl: string, private pyodideUrl: string, private onState: (text: string, ready: boolean) => void) {}

  start(): Promise<void> {
    this.worker?.terminate();
    const worker = new Worker(this.workerUrl, { type: "module", name: "training" });
    this.worker = worker;
    this.secret = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    const secret = this.secret;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent) => {
        const message = event.data;
        if (typeof message !== "object" || message === null || message.secret !== secret) return;
        if (message.type === "status") this.onState(message.text, false);
        else if (message.type === "ready") { this.onState("Python: ready", true); resolve(); }
        else if (message.type === "failed") { this.onState(`Python could not start: ${message.error}`, false); reject(new Error(message.error)); }
        else this.receive(message);
      };
      worker.onerror = (event) => {
        this.onState(`Python could not start: ${event.message}`, false);
        reject(new Error(event.message));
      };
    });
    this.ready.catch(() => undefined);
    worker.postMessage({ type: "init", secret, pyodideUrl: this.pyodideUrl, control: this.control, interrupt: this.interrupt });
    return this.ready;
  }

  /** Resolves once Python has started (rejects if it could not). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get busy(): boolean {
    return this.job !== null;
  }

  private receive(message: Record<string, unknown> & { type: string; id: number }): void {
    if (message.type === "assembled") {
      const asked = this.assembling.get(message.id);
      this.assembling.delete(message.id);
      if (message.error !== undefined) asked?.reject(new Error(String(message.error)));
      else asked?.resolve(String(message.answer));
      return;
    }
    const judging = this.judging;
    if (judging && message.id === judging.id) {
      if (message.type === "judging") judging.onStep(message.step as number);
      else if (message.type === "judged" || message.type === "crashed") {
        this.judging = null;
        window.clearTimeout(this.stopTimer);
        Atomics.store(this.interrupt, 0, 0);
        if (message.type === "judged") judging.resolve(judging.stopped ? null : JSON.parse(String(message.answer)) as Judged);
        else {
          void this.start();
          // Stop may reach Python anywhere (while it imports, say): it is still a stop.
          if (judging.stopped) judging.resolve(null);
          else judging.reject(new Error(`Python crashed and was restarted (${String(message.error)}).`));
        }
      }
      return;
    }
    const job = this.job;
    if (!job || message.id !== job.id) return;
    if (message.type === "batch") job.events.batch(message.batch as Batch);
    else if (message.type === "samples") job.events.samples?.(message.names as string[], message.error as string, message.step as number);
    else if (message.type === "paused") job.events.paused?.(message.step as number);
    else if (message.type === "resumed") job.events.resumed?.(message.step as number);
    else if (message.type === "done") {
      this.finish();
      job.resolve({ status: message.status as TrainStatus, error: String(message.error ?? ""), weights: (message.weights as Float64Array) ?? new Float64Array(), seconds: Number(message.seconds ?? 0) });
    } else if (message.type === "crashed") {
      this.finish();
      void this.start(); // Python broke: a fresh one takes its place
      job.reject(new Error(`Python crashed and was restarted (${String(message.error)}). If your code has a function that calls itself very deeply, that is the likely cause.`));
    }
  }

  private finish(): void {
    this.job = null;
    window.clearTimeout(this.stopTimer);
    Atomics.store(this.interrupt, 0, 0);
    for (const slot of [CONTROL.pause, CONTROL.stop]) Atomics.store(this.control, slot, 0);
  }

  async train(job: Omit<TrainJob, "id">, events: TrainEvents): Promise<TrainResult> {
    if (this.job) throw new Error("This worker is still training");
    await this.ready;
    const id = this.nextId++;
    for (const slot of [CONTROL.pause, CONTROL.stop]) Atomics.store(this.control, slot, 0);
    return new Promise<TrainResult>((resolve, reject) => {
      this.job = { id, events, resolve, reject };
      this.worker!.postMessage({ type: "train", secret: this.secret, job: { ...job, id } });
    });
  }

  /** Run the learner's whole program until its first steps are in, and judge it (blank.py):
   *  null if stopJudging() ended it first. */
  async judge(job: Omit<BlankJob, "id">, onStep: (step: number) => void): Promise<Judged | null> {
    if (this.job || this.judging) throw new Error("This worker is busy");
    await this.ready;
    const id = this.nextId++;
    return new Promise<Judged | null>((resolve, reject) => {
      this.judging = { id, stopped: false, onStep, resolve, reject };
      this.worker!.postMessage({ type: "judge", secret: this.secret, job: { ...job, id } });
    });
  }

  /** Stop a judging run: Python is interrupted (the run then counts for nothing); a program that
   *  ignores even that loses its worker, and a fresh one takes its place. */
  stopJudging(): void {
    const judging = this.judging;
    if (!judging) return;
    Atomics.store(this.interrupt, 0, 2); // 2 = SIGINT: Python raises KeyboardInterrupt
    window.clearTimeout(this.stopTimer);
    this.stopTimer = window.setTimeout(() => {
      if (this.judging !== judging) return;
      this.judging = null;
      Atomics.store(this.interrupt, 0, 0);
      void this.start();
      judging.resolve(null);
    }, STOP_GRACE_MS);
    judging.stopped = true; // whatever the interrupted run says, it was stopped
  }

  /** Assemble `script` here, as the server would (for when it cannot be reached): the answer's
   *  JSON. `url`: the course as the assembler reads it; `lessons`: {number: {status, draft}}. */
  async assemble(url: string, script: string, lessons: Record<string, unknown>): Promise<string> {
    await this.ready;
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      this.assembling.set(id, { resolve, reject });
      this.worker!.postMessage({ type: "assemble", secret: this.secret, id, url, script, lessons: JSON.stringify(lessons) });
    });
  }

  private wake(): void {
    Atomics.notify(this.control, CONTROL.pause);
  }

  pause(): void {
    Atomics.store(this.control, CONTROL.pause, 1);
    this.wake();
  }

  resume(): void {
    Atomics.store(this.control, CONTROL.pause, 0);
    this.wake();
  }

  /** Sample names now, with the weights as they are, at the next step (or at once if paused). */
  sampleNow(temperature: number): void {
    Atomics.store(this.control, CONTROL.temperature, Math.round(temperature * 1000));
    Atomics.add(this.control, CONTROL.sample, 1);
    this.wake();
  }

  /** End the run at the next step; interrupt a step that takes long; replace the worker if even
   *  that does not end it in time. */
  stop(): void {
    const job = this.job;
    if (!job) return;
    Atomics.store(this.control, CONTROL.stop, 1);
    this.wake();
    window.clearTimeout(this.stopTimer);
    this.stopTimer = window.setTimeout(() => {
      if (this.job !== job) return;
      Atomics.store(this.interrupt, 0, 2); // 2 = SIGINT: Python raises KeyboardInterrupt
      this.stopTimer = window.setTimeout(() => {
        if (this.job !== job) return;
        this.finish();
        void this.start();
        job.resolve({ status: "stopped", error: "", weights: new Float64Array(), seconds: 0 });
      }, STOP_GRACE_MS);
    }, 500);
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
