// Builds the browser code into the Django app's static folder, and copies Pyodide beside it.
// Run by the README's set-up commands (make start / make test): nobody runs it by hand.
import * as esbuild from "esbuild";
import { copyFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { compiledStdlib } from "./compile-stdlib.mjs";

const STATIC = "../src/linebyline/web/static";
const OUT = `${STATIC}/linebyline/dist`;

// Every widget kind is its own entry point (dist/widgets/<kind>.js and .css): a lesson page loads
// only the widget it shows. Code they share with the page (the kit) goes into shared chunks.
const widgets = (await readdir("src/widgets"))
  .filter((file) => file.endsWith(".ts") && file !== "kit.ts")
  .map((file) => file.slice(0, -3));
// The teacher's pages, the My microgpt page, its training worker and the course's end page are
// entry points of their own:
// their charting library and training code never reach a lesson page.
const entryPoints = {
  app: "src/main.ts", worker: "src/worker.ts", teach: "src/teach.ts",
  "my-microgpt": "src/my-microgpt.ts", "train-worker": "src/train-worker.ts", end: "src/end-page.ts",
};
for (const kind of widgets) entryPoints[`widgets/${kind}`] = `src/widgets/${kind}.ts`;

await rm(OUT, { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  target: ["es2022"],
  outdir: OUT,
  chunkNames: "chunks/[name]-[hash]",
  // The training worker runs src/linebyline/mine/training.py, the file the CLI runs: bundled as text.
  loader: { ".py": "text" },
  logLevel: "warning",
});
// The service worker is one classic script (every browser runs those as workers), served by the
// server at /sw.js with the list of what to keep in front of it (web/offline.py).
await esbuild.build({
  entryPoints: { sw: "src/sw.ts" },
  bundle: true,
  format: "iife",
  minify: true,
  target: ["es2022"],
  outdir: OUT,
  logLevel: "warning",
});

// Pyodide loads its own files by their plain names from one folder, so we copy them as they are
// into a folder named after the version (the server marks that folder as never changing), with
// the standard library compiled to bytecode (compile-stdlib.mjs says why): the name says which.
const { version } = JSON.parse(await readFile("node_modules/pyodide/package.json", "utf8"));
const stdlib = await compiledStdlib();
const pyodideOut = `${STATIC}/pyodide/${stdlib.name}`;
await rm(`${STATIC}/pyodide`, { recursive: true, force: true });
await mkdir(pyodideOut, { recursive: true });
for (const file of ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"]) {
  await copyFile(`node_modules/pyodide/${file}`, `${pyodideOut}/${file}`);
}
await copyFile(stdlib.path, `${pyodideOut}/python_stdlib.zip`);
console.log(`built ${OUT} and Pyodide ${version}`);
