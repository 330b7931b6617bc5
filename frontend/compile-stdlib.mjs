// Pyodide's npm package ships Python's standard library as source (.py) in python_stdlib.zip, so
// every page load compiled the ~190 modules Python imports as it starts: about 2.5 s of the 3.4 s
// Pyodide took to start in headless Chromium here (bench/browser.py --profile shows it). This
// compiles them once, at build time, with the very same Pyodide (in Node.js), so the bytecode fits
// the browser's Python exactly, into a zip of .pyc files that the browser imports without parsing.
//
// The .pyc files carry no column ranges (-X no_debug_ranges) and replace the sources: a
// traceback through the standard library shows its file and line but not its text, which the
// learner never sees (our tracebacks keep only their own frames). Built once per Pyodide version
// and kept in node_modules/.cache, since compiling takes some seconds.
import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const PYODIDE = `${HERE}node_modules/pyodide/`;
const CACHE = `${HERE}node_modules/.cache/linebyline/`;

const COMPILE = `
import os, py_compile, sys, zipfile

def compile_stdlib(source, target):
    # The path Pyodide mounts the zip at, which zipimport puts in front of each module's name.
    mounted = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
    compiled = 0
    with zipfile.ZipFile(source) as given, zipfile.ZipFile(
            target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as made:
        for info in given.infolist():
            data = given.read(info)
            if not info.filename.endswith(".py"):
                made.writestr(info, data)
                continue
            path = "/tmp/stdlib/" + info.filename
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(data)
            # Named as zipimport names a source, so tracebacks and __file__ read as before.
            # Unchecked: there is no source beside it to check against.
            py_compile.compile(path, path + "c", dfile=f"{mounted}/{info.filename}", doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            entry = zipfile.ZipInfo(info.filename + "c", info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            with open(path + "c", "rb") as file:
                made.writestr(entry, file.read())
            compiled += 1
    if compiled == 0:
        raise ValueError("no .py file in python_stdlib.zip: has Pyodide changed how it ships it?")
`;

/**
 * npm Pyodide's standard library, compiled: the path of the zip (cached), and a name for this
 * build of it, which changes whenever Pyodide's zip or the way it is compiled does.
 */
export async function compiledStdlib() {
  const { version } = JSON.parse(await readFile(`${PYODIDE}package.json`, "utf8"));
  const source = await readFile(`${PYODIDE}python_stdlib.zip`);
  const recipe = createHash("sha256").update(source).update(COMPILE).digest("hex").slice(0, 8);
  const name = `${version}-pyc-${recipe}`;
  const cached = `${CACHE}python_stdlib-${name}.zip`;
  if (!(await exists(cached))) {
    const { loadPyodide } = await import(`${PYODIDE}pyodide.mjs`);
    const python = await loadPyodide({ indexURL: PYODIDE, args: ["-X", "no_debug_ranges"] });
    python.FS.writeFile("/tmp/stdlib-source.zip", source);
    python.runPython(COMPILE);
    python.globals.get("compile_stdlib")("/tmp/stdlib-source.zip", "/tmp/stdlib-compiled.zip");
    await mkdir(CACHE, { recursive: true });
    await writeFile(cached, python.FS.readFile("/tmp/stdlib-compiled.zip"));
  }
  return { path: cached, name };
}

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
