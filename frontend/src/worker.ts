// The Web Worker that runs Python (Pyodide, served from our own static files, never a CDN).
// It sets Python up once — the check runtime's files, the names data set as input.txt — then
// runs the learner's code or the lesson's checks, one job at a time.
//
// The learner's Python can reach this worker's globals (`import js`): it could post messages of
// its own or replace postMessage and JSON.parse. So everything used once Python runs is taken
// here, before any learner code, and every message carries a secret that only this module's
// scope knows (the page sent it with "init"): the page ignores any message without it.
/// <reference lib="webworker" />
import { layOut } from "./graph-layout";
import type { Pyodide, PyProxy } from "./pyodide-api";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const postToPage = scope.postMessage.bind(scope);
const parseJson = JSON.parse;
const now = performance.now.bind(performance);
const HOME = "/home/pyodide";
const RECURSION_LIMIT = 400;
const OUTPUT_MAX = 200_000; // characters of one run's output sent to the page; the rest is counted
const OUTPUT_EVERY_MS = 50; // output is sent in batches, at most this often (and at the end)

let secret = "";
let entries: { run: PyProxy; check: PyProxy; graph: PyProxy } | null = null;
let interrupt: Int32Array | null = null;
let job: { id: number; sendOutput: boolean; sent: number; cut: number; pending: Array<[string, string]>; last: number } | null = null;

function post(message: Record<string, unknown>): void {
  postToPage({ ...message, secret });
}

/** Why Python was interrupted: 1 the Stop button, 2 the time limit, 0 nothing from outside. */
const stopReason = (): number => (interrupt === null ? 0 : Atomics.load(interrupt, 1));

function flushOutput(): void {
  if (!job) return;
  for (const [stream, text] of job.pending) post({ type: stream, id: job.id, text });
  job.pending = [];
  job.last = now();
}

function output(stream: "stdout" | "stderr", text: string): void {
  if (!job || !job.sendOutput) return; // a check keeps its own output; nobody reads this
  const line = `${text}\n`;
  const room = OUTPUT_MAX - job.sent;
  if (room <= 0) {
    job.cut += line.length;
    return;
  }
  job.pending.push([stream, line.slice(0, room)]);
  job.sent += Math.min(room, line.length);
  job.cut += Math.max(0, line.length - room);
  if (now() - job.last >= OUTPUT_EVERY_MS) flushOutput();
}

async function init(message: { pyodideUrl: string; runtimeUrl: string; datasetUrl: string; interrupt: Int32Array | null }) {
  interrupt = message.interrupt;
  post({ type: "status", text: "Python: downloading (about 7 MB the first time)…" });
  // Fetched while Pyodide downloads and starts, not after.
  const files = Promise.all([
    fetch(message.runtimeUrl).then((r) => r.json() as Promise<{ files: Record<string, string> }>),
    fetch(message.datasetUrl).then((r) => r.text()),
  ]);
  files.catch(() => undefined); // awaited below; until then a failure must not go unhandled
  const module = await import(/* @vite-ignore */ `${message.pyodideUrl}pyodide.mjs`);
  const loaded: Pyodide = await module.loadPyodide({ indexURL: message.pyodideUrl });
  post({ type: "status", text: "Python: setting up…" });
  const [runtime, dataset] = await files;
  for (const [path, source] of Object.entries(runtime.files)) {
    const full = `${HOME}/lib/${path}`;
    loaded.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    loaded.FS.writeFile(full, source);
  }
  loaded.FS.writeFile(`${HOME}/input.txt`, dataset);
  if (interrupt) loaded.setInterruptBuffer(interrupt);
  loaded.setStdout({ batched: (text) => output("stdout", text) });
  loaded.setStderr({ batched: (text) => output("stderr", text) });
  loaded.setStdin({ stdin: () => null }); // input() meets an end of file, as in the CLI's checks
  // A worker's native stack is small: Python recursing through operators (say, a __pow__ that
  // calls **) overflows it 500 to 600 deep in Chromium, varying by run, a fatal crash
  // (bench/worker_stack.py), while 400 ends in a RecursionError the checks can explain.
  // Pure-Python recursion is unaffected.
  loaded.runPython(`import os, sys; sys.path.insert(0, "${HOME}/lib"); os.chdir("${HOME}"); sys.setrecursionlimit(${RECURSION_LIMIT})`);
  // Taken once, before any learner code: the runtime makes its private copies as it loads.
  const browser = loaded.pyimport("linebyline.runtime.browser");
  entries = { run: browser.run.copy(), check: browser.check.copy(), graph: browser.graph.copy() }; // outlive the module proxy
  browser.destroy();
  post({ type: "ready" });
}

scope.onmessage = async (event: MessageEvent) => {
  const message = event.data;
  if (message.type === "init") {
    if (secret) return; // only the page's first message sets things up
    secret = String(message.secret);
    try {
      await init(message);
    } catch (error) {
      post({ type: "failed", error: String(error) });
    }
    return;
  }
  if (!entries || message.secret !== secret) return;
  job = { id: message.id, sendOutput: message.type === "run", sent: 0, cut: 0, pending: [], last: now() };
  try {
    const started = now();
    const text = message.type === "run"
      ? entries.run(message.source, message.filename, stopReason, Boolean(message.keepValues))
      : message.type === "graph"
      ? entries.graph(String(message.name ?? ""), String(message.rule ?? "chain"), String(message.block ?? ""))
      : entries.check(message.job.lesson, message.job.source, message.job.checks, message.job.starter,
                      message.job.filename, message.job.timeout, stopReason, message.job.reference,
                      message.job.ownStarter ?? "");
    const pythonMs = now() - started; // for the page's performance timeline (python.ts)
    flushOutput();
    if (job.cut) post({ type: "stderr", id: job.id, text: `\n[output cut: ${job.cut.toLocaleString("en")} more characters not shown]\n` });
    const result = parseJson(text as string);
    // The layout is worked out here too, off the page's main thread (a few hundred nodes take dagre
    // longer than a frame).
    if (message.type === "graph" && result.graph) result.layout = layOut(result.graph);
    post({ type: "done", id: message.id, result, pythonMs });
  } catch (error) {
    // A JavaScript error here means Python itself broke (its stack overflowed, or the learner's
    // code ended it with os._exit): it cannot be used again, so the page replaces this worker.
    flushOutput();
    const name = (error as { name?: string } | null)?.name ?? "";
    post({ type: "crashed", id: message.id, exited: name === "Exit", error: String(error) });
  } finally {
    job = null;
  }
};
