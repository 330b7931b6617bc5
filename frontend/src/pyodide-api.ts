// The part of Pyodide's API that our two workers (worker.ts, train-worker.ts) use, typed once.
// Types only: nothing of this file reaches the bundles.

export interface PyProxy {
  (...args: unknown[]): unknown;
  copy(): PyProxy;
  toJs(): unknown;
  destroy(): void;
}

export interface Pyodide {
  runPython(code: string): unknown;
  setInterruptBuffer(buffer: Int32Array): void;
  setStdout(options: { batched: (text: string) => void }): void;
  setStderr(options: { batched: (text: string) => void }): void;
  setStdin(options: { stdin: () => string | null }): void;
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: string | Uint8Array): void };
  pyimport(name: string): Record<string, PyProxy> & { destroy(): void };
}
