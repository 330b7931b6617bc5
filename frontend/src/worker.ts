// The Web Worker that runs Python (Pyodide, served from our own static files, never a CDN).
// It sets Python up once — the check runtime's files, the names data set as input.txt — then
// runs the learner's code or the lesson's checks, one job at a time.
/// <reference lib="webworker" />

interface PyProxyFunction {
  (...args: unknown[]): unknown;
  destroy(): void;
}
interface Pyodide {
  runPython(code: string): unknown;
  setInterruptBuffer(buffer: Int32Array): void;
  setStdout(options: { batched: (text: string) => void }): void;
  setStderr(options: { batched: (text: string) => void }): void;
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: string | Uint8Array): void };
  pyimport(name: string): Record<string, PyProxyFunction> & { destroy(): void };
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
const HOME = "/home/pyodide";
const RECURSION_LIMIT = 400;
let pyodide: Pyodide | null = null;
let interrupt: Int32Array | null = null;
let currentId = 0;

const userStopped = (): boolean => interrupt !== null && Atomics.load(interrupt, 1) === 1;

async function init(message: { pyodideUrl: string; runtimeUrl: string; datasetUrl: string; interrupt: Int32Array | null }) {
  interrupt = message.interrupt;
  scope.postMessage({ type: "status", text: "Python: downloading (about 6 MB the first time)…" });
  const module = await import(/* @vite-ignore */ `${message.pyodideUrl}pyodide.mjs`);
  const loaded: Pyodide = await module.loadPyodide({ indexURL: message.pyodideUrl });
  scope.postMessage({ type: "status", text: "Python: setting up…" });
  const [runtime, dataset] = await Promise.all([
    fetch(message.runtimeUrl).then((r) => r.json() as Promise<{ files: Record<string, string> }>),
    fetch(message.datasetUrl).then((r) => r.text()),
  ]);
  for (const [path, source] of Object.entries(runtime.files)) {
    const full = `${HOME}/lib/${path}`;
    loaded.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    loaded.FS.writeFile(full, source);
  }
  loaded.FS.writeFile(`${HOME}/input.txt`, dataset);
  // A worker's native stack is small: Python recursing through operators (say, a __pow__ that
  // calls **) overflowed it at a recursion limit of 600 in Chromium, a fatal crash, while 400
  // ended in a RecursionError the checks can explain. Pure-Python recursion is unaffected.
  loaded.runPython(`import os, sys; sys.path.insert(0, "${HOME}/lib"); os.chdir("${HOME}"); sys.setrecursionlimit(${RECURSION_LIMIT})`);
  if (interrupt) loaded.setInterruptBuffer(interrupt);
  loaded.setStdout({ batched: (text) => scope.postMessage({ type: "stdout", id: currentId, text: `${text}\n` }) });
  loaded.setStderr({ batched: (text) => scope.postMessage({ type: "stderr", id: currentId, text: `${text}\n` }) });
  pyodide = loaded;
  scope.postMessage({ type: "ready" });
}

function call(name: "run" | "check", ...args: unknown[]): unknown {
  const browser = pyodide!.pyimport("linebyline.runtime.browser");
  try {
    return JSON.parse(browser[name](...args, userStopped) as string);
  } finally {
    browser.destroy();
  }
}

scope.onmessage = async (event: MessageEvent) => {
  const message = event.data;
  if (message.type === "init") {
    try {
      await init(message);
    } catch (error) {
      scope.postMessage({ type: "failed", error: String(error) });
    }
    return;
  }
  currentId = message.id;
  try {
    const result = message.type === "run"
      ? call("run", message.source, message.filename)
      : call("check", JSON.stringify(message.job));
    scope.postMessage({ type: "done", id: message.id, result });
  } catch (error) {
    // A JavaScript error here means Python itself broke (e.g. its stack overflowed): it cannot
    // be used again, so the page replaces this worker.
    scope.postMessage({ type: "crashed", id: message.id, error: String(error) });
  }
};
