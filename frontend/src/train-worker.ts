// The training worker of the My microgpt page: Pyodide running one course script, the learner's
// own or the reference, under linebyline/mine/training.py (the very file `linebyline train --mine`
// uses). Training runs entirely here; the page gets each step's exact loss and a fingerprint of
// the weights in batches, at most every BATCH_MS, so a step is never slowed by the page.
//
// Pause, Stop and "sample now" reach Python through a shared buffer the page writes: at every
// step Python asks (`on_step`), and while paused this worker sleeps in Atomics.wait until the
// page wakes it. Stop also interrupts Python mid-step (Pyodide's interrupt buffer).
//
// As in worker.ts, the learner's Python can reach this worker's globals (`import js`), so what
// is needed once Python runs is taken first, and every message carries the page's secret.
/// <reference lib="webworker" />
import type { Pyodide, PyProxy } from "./pyodide-api";
import trainingSource from "../../src/linebyline/mine/training.py";
import assembleSource from "../../src/linebyline/mine/assemble.py";
import levelsSource from "../../src/linebyline/course/levels.py";
import blankSource from "../../src/linebyline/mine/blank.py";
import { CONTROL, type Batch, type BlankJob, type TrainJob } from "./mine/protocol";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const postToPage = scope.postMessage.bind(scope);
const now = performance.now.bind(performance);
const wait = Atomics.wait.bind(Atomics);
const load = Atomics.load.bind(Atomics);
const HOME = "/home/pyodide";
const BATCH_MS = 100; // steps and output reach the page at most this often, and at the end
// A recursive topological sort of a full microgpt step (block size 16, every position used)
// nests `visit` 193 deep, 199 frames in all; train2 115, train3 120 (bench/topo_depth.py). In a
// Chromium worker a plain recursive function runs past 200,000 deep (Python 3.14 calls Python
// functions without the C stack), while recursion through C (an operator method calling its
// operator) crashes at 500 to 600, varying by run (bench/worker_stack.py): so the checks' worker
// keeps 400, and here a learner's recursive walk gets five times what it needs. A deeper one ends in a RecursionError
// that training.explain() turns into advice; a crash of the worker itself restarts it.
const TRAIN_RECURSION_LIMIT = 1000;

let secret = "";
let python: Pyodide | null = null;
let training: (Record<string, PyProxy> & { destroy(): void }) | null = null;
interface BlankModule { judge_json(...args: unknown[]): string }
let blank: BlankModule | null = null; // blank.py, the blank-page recall's judge
let control: Int32Array | null = null;
let batch: Batch = { steps: [], losses: [], marks: [], lines: [] };
let lastPost = 0;
let lastStep = 0;
let sampled = 0; // the page's "sample now" requests answered so far
let paused = false;
let jobId = 0;

function post(message: Record<string, unknown>, transfer: Transferable[] = []): void {
  postToPage({ ...message, secret }, transfer);
}

function flush(): void {
  if (batch.steps.length || batch.lines.length) post({ type: "batch", id: jobId, batch });
  batch = { steps: [], losses: [], marks: [], lines: [] };
  lastPost = now();
}

function output(text: string): void {
  if (text.startsWith("step ")) return; // steps come with their exact numbers instead
  batch.lines.push(text);
}

/** Called by Python at every step: record it, then go on, stop, sample, or sleep while paused. */
function onStep(step: number, _total: number, loss: number | undefined, mark: string): string {
  if (step !== lastStep) {
    lastStep = step;
    batch.steps.push(step);
    batch.losses.push(loss ?? null);
    batch.marks.push(mark);
    if (now() - lastPost >= BATCH_MS) flush();
  }
  const ctrl = control!;
  for (;;) {
    if (load(ctrl, CONTROL.stop)) return "stop";
    const requested = load(ctrl, CONTROL.sample);
    if (requested !== sampled) {
      sampled = requested;
      flush();
      return `sample ${load(ctrl, CONTROL.temperature) / 1000}`;
    }
    if (!load(ctrl, CONTROL.pause)) {
      if (paused) { paused = false; post({ type: "resumed", id: jobId, step }); }
      return "";
    }
    if (!paused) { paused = true; flush(); post({ type: "paused", id: jobId, step }); }
    wait(ctrl, CONTROL.pause, 1, 1000); // the page notifies on any change
  }
}

function onSamples(names: PyProxy, error: string): void {
  const list = names.toJs() as string[];
  names.destroy();
  post({ type: "samples", id: jobId, names: list, error, step: lastStep });
}

async function init(message: { pyodideUrl: string; control: Int32Array; interrupt: Int32Array }) {
  control = message.control;
  post({ type: "status", text: "Python: downloading (about 6 MB the first time)…" });
  const module = await import(/* @vite-ignore */ `${message.pyodideUrl}pyodide.mjs`);
  const loaded: Pyodide = await module.loadPyodide({ indexURL: message.pyodideUrl });
  post({ type: "status", text: "Python: setting up…" });
  loaded.FS.mkdirTree(`${HOME}/lib`);
  loaded.FS.writeFile(`${HOME}/lib/linebyline_training.py`, trainingSource);
  loaded.FS.writeFile(`${HOME}/lib/linebyline_assemble.py`, assembleSource);
  loaded.FS.writeFile(`${HOME}/lib/linebyline_levels.py`, levelsSource); // assemble.py imports it
  loaded.FS.writeFile(`${HOME}/lib/linebyline_blank.py`, blankSource); // the blank-page recall
  loaded.setInterruptBuffer(message.interrupt);
  loaded.setStdout({ batched: output });
  loaded.setStderr({ batched: output });
  loaded.setStdin({ stdin: () => null });
  loaded.runPython(`import os, sys; sys.path.insert(0, "${HOME}/lib"); os.chdir("${HOME}"); sys.setrecursionlimit(${TRAIN_RECURSION_LIMIT})`);
  training = loaded.pyimport("linebyline_training");
  // Imported now, not when a blank-page run starts: a Stop then never lands in an import.
  blank = loaded.pyimport("linebyline_blank") as unknown as BlankModule;
  python = loaded;
  post({ type: "ready" });
}

function train(job: TrainJob): void {
  const py = python!;
  const api = training!;
  jobId = job.id;
  lastStep = 0;
  paused = false;
  sampled = load(control!, CONTROL.sample);
  batch = { steps: [], losses: [], marks: [], lines: [] };
  lastPost = now();
  py.FS.writeFile(`${HOME}/input.txt`, job.dataset);
  let source: string;
  try {
    source = api.configure(job.source, job.steps, job.temperature ?? undefined) as string;
  } catch (error) {
    post({ type: "done", id: job.id, status: "error", error: String((error as Error).message).split("\n").filter(Boolean).pop() ?? String(error) });
    return;
  }
  const started = now();
  const result = api.train(source, job.filename, onStep, onSamples) as PyProxy;
  const [status, error, run] = result.toJs() as [string, string, PyProxy];
  result.destroy();
  const weightsProxy = (run as unknown as { weights(): PyProxy }).weights();
  const weights = Float64Array.from(weightsProxy.toJs() as number[]);
  weightsProxy.destroy();
  run.destroy();
  flush();
  post({ type: "done", id: job.id, status, error, weights, seconds: (now() - started) / 1000 }, [weights.buffer]);
}

// Offline, the page assembles here what the server would: the same assemble.py, on the course
// as plain data (fetched once per course version, from the service worker's cache).
const ASSEMBLE = `
import json, linebyline_assemble as assemble
_assemblers = {}
def assemble_json(url, data, script, lessons):
    if url not in _assemblers:
        _assemblers.clear()
        _assemblers[url] = assemble.Assembler(assemble.PlainCourse(json.loads(data)))
    made = _assemblers[url].assemble(script, assemble.progress_from(json.loads(lessons)))
    return json.dumps(made.to_dict())
assemble_json`;
let assembleJson: PyProxy | null = null;
const courseData = new Map<string, Promise<string>>();

async function assembleHere(message: { id: number; url: string; script: string; lessons: string }): Promise<void> {
  try {
    if (!courseData.has(message.url)) {
      courseData.set(message.url, fetch(message.url).then((response) => {
        if (!response.ok) throw new Error(`the course data could not be loaded (${response.status})`);
        return response.text();
      }));
    }
    const data = await courseData.get(message.url)!.catch((error: Error) => {
      courseData.delete(message.url);
      throw error;
    });
    assembleJson ??= python!.runPython(ASSEMBLE) as PyProxy;
    const answer = (assembleJson as unknown as (...args: string[]) => string)(message.url, data, message.script, message.lessons);
    post({ type: "assembled", id: message.id, answer });
  } catch (error) {
    post({ type: "assembled", id: message.id, error: String((error as Error).message ?? error).split("\n").filter(Boolean).pop() });
  }
}

// The blank-page recall: the learner's whole program, run here until its first steps are in (or
// the first that parts from the kept run), then judged by blank.py, as `linebyline check` does.
function judge(job: BlankJob): void {
  const py = python!;
  jobId = job.id;
  py.FS.writeFile(`${HOME}/input.txt`, job.dataset);
  const onJudgeStep = (step: number): void => post({ type: "judging", id: job.id, step });
  const answer = blank!.judge_json(job.source, job.name, job.kept, job.regions, job.unlocks, onJudgeStep, job.steps);
  post({ type: "judged", id: job.id, answer });
}

scope.onmessage = async (event: MessageEvent) => {
  const message = event.data;
  if (message.type === "init") {
    if (secret) return;
    secret = String(message.secret);
    try {
      await init(message);
    } catch (error) {
      post({ type: "failed", error: String(error) });
    }
    return;
  }
  if (!python || message.secret !== secret) return;
  if (message.type === "assemble") { await assembleHere(message); return; }
  if (message.type !== "train" && message.type !== "judge") return;
  try {
    if (message.type === "judge") judge(message.job as BlankJob);
    else train(message.job as TrainJob);
  } catch (error) {
    // A JavaScript error here means Python itself broke (its stack overflowed, say): the page
    // replaces this worker.
    flush();
    post({ type: "crashed", id: message.job.id, error: String(error) });
  }
};
