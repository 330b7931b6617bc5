// Explore widget "experiment-lab" (lesson 12.2): the learner's own experiments. They pick a data
// set (the names, the names spelled backwards, or text of their own), the lesson's settings (layers,
// width) and a number of steps; the page's Python trains a fresh model with the lesson's reference
// function, step by step, and each run joins one chart and one table: its loss, its size, and the
// time each of its steps took, measured here. Nothing on it is computed ahead.

import { setUsable } from "../usable";
import { say } from "../live";
import { StoppedError } from "../python";
import { plural } from "../words";
import { formatNumber, h, PrintedLines, pythonOfThePage, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { drawLines } from "./shared/lines";
import "./experiment-lab.css";

const MAX_RUNS = 6; // as many lines as the chart keeps apart by colour and dash
const MAX_TEXT = 1_000_000; // characters of the learner's own data
const LINE = /^@lab (step|done) (.*)$/;

interface Setting { name: string; label: string; choices: number[] }

type DataKind = "names" | "backwards" | "own";
const DATA_LABELS: Record<DataKind, string> = {
  names: "the names", backwards: "the names spelled backwards", own: "your own text",
};

interface Run {
  slot: number; // 1..MAX_RUNS: its colour and dash, kept while it is on the chart
  data: string;
  settings: Record<string, number>;
  steps: number;
  params: number;
  vocabSize: number;
  documents: number;
  losses: number[];
  seconds: number; // the whole run, measured in Python
}

function parseSettings(value: unknown): Setting[] {
  const found: Setting[] = [];
  for (const item of Array.isArray(value) ? value : []) {
    const fields = record(item);
    const choices = Array.isArray(fields.choices)
      ? fields.choices.filter((n): n is number => Number.isInteger(n) && (n as number) > 0) : [];
    if (typeof fields.name === "string" && typeof fields.label === "string" && choices.length > 0) {
      found.push({ name: fields.name, label: fields.label, choices });
    }
  }
  return found;
}

/** The documents of a text, as microgpt reads input.txt: one per line, stripped, blanks left out. */
function documentsOf(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
}

/** The mean loss over the steps so far, at every step: the chart's line (single names are noisy). */
function meanSoFar(losses: number[]): [number, number][] {
  let total = 0;
  return losses.map((loss, i) => { total += loss; return [i + 1, total / (i + 1)]; });
}

function mean(values: number[]): number {
  return values.reduce((sum, x) => sum + x, 0) / Math.max(1, values.length);
}

/**
 * The Python the page runs: the reference solution as a module (its `if __name__ == "__main__"`
 * part stays quiet), its Value.backward wrapped to report each step as it ends (one backward per
 * step: the loss is the Value it is called on), then one call of the lesson's function.
 */
function driver(fn: string, docs: string[] | null, backwards: boolean, steps: number,
                settings: Record<string, number>, program: string, programName: string): string {
  const literal = (value: unknown) => JSON.stringify(JSON.stringify(value)); // a JSON text, as a Python string
  return `import json, time
lab = {"__name__": "experiment_lab"}
exec(compile(json.loads(${literal(program)}), ${JSON.stringify(programName)}, "exec"), lab)
docs = json.loads(${literal(docs)})
if docs is None:  # the names as input.txt holds them: the function shuffles as microgpt.py does
    docs = [line.strip() for line in open("input.txt", encoding="utf-8") if line.strip()]
${backwards ? "docs = [doc[::-1] for doc in docs]\n" : ""}Value, backward = lab["Value"], lab["Value"].backward
started, step = time.perf_counter(), 0

def reported(loss):
    global step
    backward(loss)
    step += 1
    print("@lab step", json.dumps([step, loss.data, time.perf_counter() - started]), flush=True)

Value.backward = reported
result = lab[${JSON.stringify(fn)}](docs, num_steps=${steps}, **json.loads(${literal(settings)}))
print("@lab done", json.dumps({"losses": result["losses"], "params": result["params"],
      "vocab_size": result["vocab_size"], "documents": len(docs),
      "seconds": time.perf_counter() - started}), flush=True)
`;
}

function mountExperimentLab(root: HTMLElement, params: Params): void {
  const program = textOr(params.program, null);
  const programName = textOr(params.programName, "experiment.py");
  const fn = textOr(params.function, "experiment");
  const settings = parseSettings(params.settings);
  const stepChoices = Array.isArray(params.steps)
    ? params.steps.filter((n): n is number => Number.isInteger(n) && (n as number) > 0) : [];
  if (!program || stepChoices.length === 0) {
    root.append(h("p", {}, "This widget has no experiment to run."));
    return;
  }

  // ---- The controls ----
  const field = (label: string, control: HTMLSelectElement) => {
    control.id = uniqueId("el-field");
    return h("div", { class: "kit-field" }, h("label", { for: control.id }, label), control);
  };
  const dataSelect = h("select", { "data-lab": "data" },
    ...(Object.keys(DATA_LABELS) as DataKind[]).map((kind) => h("option", { value: kind }, DATA_LABELS[kind])));
  const settingSelects = settings.map((setting) => h("select", { "data-lab": setting.name },
    ...setting.choices.map((n) => h("option", { value: n }, String(n)))));
  const stepsSelect = h("select", { "data-lab": "steps" },
    ...stepChoices.map((n) => h("option", { value: n }, plural(n, "step"))));
  const run = h("button", { type: "button", "data-action": "run-experiment" }, "Run the experiment");
  const stop = h("button", { type: "button", class: "secondary", "data-action": "stop-experiment" }, "Stop");
  setUsable(stop, false);

  const textId = uniqueId("el-text");
  const ownText = h("textarea", { id: textId, rows: 6, spellcheck: false, "data-lab": "own-text",
    placeholder: "One document per line: names of another language, cities, words…" });
  const file = h("input", { type: "file", accept: ".txt,text/plain", "data-lab": "own-file" });
  const fileId = uniqueId("el-file");
  file.id = fileId;
  const ownSummary = h("p", { class: "el-own-summary", "data-readout": "own-data", "aria-live": "polite" });
  const own = h("div", { class: "el-own", hidden: true },
    h("label", { for: textId }, "Your data, one document per line"), ownText,
    h("p", { class: "el-file" }, h("label", { for: fileId }, "or open a text file: "), file), ownSummary);

  const status = h("p", { class: "el-status", "data-readout": "status" },
    "Pick a data set and the settings, then run: your first run is what later runs are compared with.");
  const announce = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
  const titleId = uniqueId("el-title");
  const title = h("p", { class: "el-title", id: titleId }, "Mean loss so far, by step: nothing run yet.");
  const figure = h("figure", { class: "el-figure" });
  const legend = h("ul", { class: "lc-legend", "data-readout": "legend" });
  const tableBody = h("tbody");
  const table = h("table", { class: "el-table", "data-readout": "runs" },
    h("caption", {}, "Your runs, measured in this browser"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "run"), h("th", { scope: "col" }, "data"),
      ...settings.map((s) => h("th", { scope: "col" }, s.label)),
      h("th", { scope: "col" }, "steps"), h("th", { scope: "col" }, "parameters"),
      h("th", { scope: "col" }, "mean loss"), h("th", { scope: "col" }, "seconds per step"),
      h("th", { scope: "col" }, "cost per step"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "remove")))),
    tableBody);
  const tableBox = h("div", { class: "el-table-scroll", hidden: true }, table);
  const lossesBox = h("div", { class: "el-table-scroll", tabindex: 0, role: "region", "aria-label": "Every step's loss" });
  const losses = h("details", { class: "el-losses", hidden: true }, h("summary", {}, "The numbers: every step's loss"), lossesBox);
  const clear = h("button", { type: "button", class: "secondary", "data-action": "clear-experiments", hidden: true }, "Clear the runs");

  root.append(h("div", { class: "el" },
    h("div", { class: "kit-settings" }, field("Data", dataSelect),
      ...settings.map((s, i) => field(s.label, settingSelects[i])), field("Train for", stepsSelect)),
    own,
    h("div", { class: "kit-controls" }, run, stop, clear),
    status, announce,
    h("div", { class: "el-chart-box" }, title, figure, legend),
    tableBox, losses,
    typeof params.caption === "string" ? h("p", { class: "el-caption" }, params.caption) : null));

  // ---- The learner's own data ----
  function ownDocuments(): { docs: string[]; problem: string | null } {
    const text = ownText.value;
    if (text.length > MAX_TEXT) {
      return { docs: [], problem: `Your text has ${text.length.toLocaleString("en")} characters; the lab takes up to ${MAX_TEXT.toLocaleString("en")}. Shorten it: a few thousand lines are plenty for a short run.` };
    }
    const docs = documentsOf(text);
    if (docs.length === 0) return { docs, problem: "Your text has no documents yet: write or paste one per line (a blank line is skipped)." };
    return { docs, problem: null };
  }

  function describeOwn(): void {
    const { docs, problem } = ownDocuments();
    if (problem) { say(ownSummary, ownText.value.trim() ? problem : ""); return; }
    const characters = new Set(docs.join(""));
    const longest = Math.max(...docs.map((doc) => [...doc].length));
    say(ownSummary, `${plural(docs.length, "document", docs.length.toLocaleString("en"))}, ` +
      `${plural(characters.size, "different character")} (so vocab_size ${characters.size + 1}), the longest ${plural(longest, "character")}.`);
  }

  dataSelect.addEventListener("change", () => {
    own.hidden = dataSelect.value !== "own";
    if (!own.hidden) describeOwn();
  });
  ownText.addEventListener("input", describeOwn);
  file.addEventListener("change", async () => {
    const picked = file.files?.[0];
    if (!picked) return;
    if (picked.size > MAX_TEXT * 4) {
      say(ownSummary, `${picked.name} is ${formatNumber(picked.size / 1e6, 1)} MB: too big for the lab (up to about 1 MB of text). Your text above is unchanged.`);
      file.value = "";
      return;
    }
    try {
      ownText.value = await picked.text();
      describeOwn();
    } catch {
      say(ownSummary, `${picked.name} could not be read. Your text above is unchanged.`);
    }
  });

  // ---- Runs ----
  const runs: Run[] = [];
  let live: Run | null = null; // the run being made, drawn as it goes

  function label(r: Run): string {
    return `run ${r.slot}: ${r.data}, ${settings.map((s) => `${s.label} ${r.settings[s.name]}`).join(", ")}, ${plural(r.steps, "step")}`;
  }

  function render(): void {
    const shown = live ? [...runs, live] : runs;
    const drawable = shown.filter((r) => r.losses.length >= 2);
    if (drawable.length === 0) figure.replaceChildren();
    else {
      figure.replaceChildren(drawLines({
        xLabel: "step", yLabel: "mean loss so far",
        series: drawable.map((r) => ({ name: label(r), points: meanSoFar(r.losses), style: `run${r.slot}` })),
      }, titleId, figure.clientWidth, Array.from({ length: MAX_RUNS }, (_, i) => `run${i + 1}`)));
    }
    legend.replaceChildren(...shown.map((r) => h("li", { "data-series": `run ${r.slot}` },
      h("span", { class: `lc-key lc-run${r.slot}`, "aria-hidden": "true" }), label(r))));
    title.textContent = drawable.length === 0 ? "Mean loss so far, by step: nothing run yet."
      : `Mean loss so far, by step. ${drawable.map((r) => `Run ${r.slot}: ${formatNumber(mean(r.losses), 3)} after ${plural(r.losses.length, "step")}`).join("; ")}.`;
  }

  function renderTable(): void {
    const base = runs[0];
    tableBody.replaceChildren(...runs.map((r) => {
      const perStep = r.seconds / r.steps;
      const remove = h("button", { type: "button", class: "secondary el-remove", "aria-label": `Remove run ${r.slot}` }, "×");
      remove.addEventListener("click", () => {
        runs.splice(runs.indexOf(r), 1);
        renderAll();
        say(announce, `Run ${r.slot} removed.`);
      });
      return h("tr", { "data-run": r.slot },
        h("th", { scope: "row" }, h("span", { class: `lc-key lc-run${r.slot}`, "aria-hidden": "true" }), String(r.slot)),
        h("td", { "data-cell": "data" }, r.data, h("span", { class: "el-data-size" },
          ` (${plural(r.documents, "document", r.documents.toLocaleString("en"))}, vocab_size ${r.vocabSize})`)),
        ...settings.map((s) => h("td", {}, String(r.settings[s.name]))),
        h("td", { "data-cell": "steps" }, String(r.steps)),
        h("td", { "data-cell": "params" }, r.params.toLocaleString("en")),
        h("td", { "data-cell": "loss" }, formatNumber(mean(r.losses), 3)),
        h("td", { "data-cell": "seconds" }, formatNumber(perStep, 3)),
        h("td", { "data-cell": "cost" }, r === base ? "the baseline" : `${formatNumber(perStep / (base.seconds / base.steps), 1)}× run ${base.slot}'s`),
        h("td", {}, remove));
    }));
    tableBox.hidden = runs.length === 0;
    clear.hidden = runs.length === 0;
    losses.hidden = runs.length === 0;
    const longest = Math.max(0, ...runs.map((r) => r.losses.length));
    lossesBox.replaceChildren(h("table", { class: "el-table", "data-readout": "losses" },
      h("caption", {}, "The loss at every step of every run"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "step"), ...runs.map((r) => h("th", { scope: "col" }, `run ${r.slot}`)))),
      h("tbody", {}, ...Array.from({ length: longest }, (_, i) => h("tr", {}, h("th", { scope: "row" }, String(i + 1)),
        ...runs.map((r) => h("td", {}, i < r.losses.length ? formatNumber(r.losses[i], 4) : "")))))));
  }

  function renderAll(): void {
    render();
    renderTable();
  }

  function freeSlot(): number | null {
    for (let slot = 1; slot <= MAX_RUNS; slot += 1) if (!runs.some((r) => r.slot === slot)) return slot;
    return null;
  }

  function setRunning(running: boolean): void {
    setUsable(run, !running);
    setUsable(stop, running);
    for (const control of [dataSelect, stepsSelect, ...settingSelects, ownText, file]) control.disabled = running;
  }

  run.addEventListener("click", async () => {
    const slot = freeSlot();
    if (slot === null) {
      say(status, `${MAX_RUNS} runs fill the chart: remove one (× in the table) to add another.`);
      return;
    }
    const kind = dataSelect.value as DataKind;
    let docs: string[] | null = null;
    if (kind === "own") {
      const { docs: found, problem } = ownDocuments();
      if (problem) { say(status, problem); ownText.focus(); return; }
      docs = found;
    }
    const chosen = Object.fromEntries(settings.map((s, i) => [s.name, Number(settingSelects[i].value)]));
    const steps = Number(stepsSelect.value);
    const python = await pythonOfThePage();
    if (python.busy) {
      say(status, "Python is busy with your code in Build: wait for it to finish, or press Stop there.");
      return;
    }
    const made: Run = { slot, data: DATA_LABELS[kind], settings: chosen, steps, params: 0, vocabSize: 0,
      documents: 0, losses: [], seconds: 0 };
    live = made;
    setRunning(true);
    say(announce, `Running ${label(made)}.`);
    let finished: Record<string, unknown> | null = null;
    let lastDraw = 0;
    const started = performance.now();
    status.textContent = `Run ${slot}: starting…`;
    const printed = new PrintedLines((lines) => {
      for (const line of lines) {
        const match = LINE.exec(line);
        if (!match) continue;
        if (match[1] === "done") { finished = record(JSON.parse(match[2])); continue; }
        const [step, loss, seconds] = JSON.parse(match[2]) as [number, number, number];
        made.losses.push(loss);
        const rate = seconds / step;
        status.textContent = `Run ${slot}: step ${step} / ${steps} · ${formatNumber(rate, 2)} s per step · about ${Math.ceil((steps - step) * rate)} s left`;
      }
      if (performance.now() - lastDraw > 250) { lastDraw = performance.now(); render(); }
    });
    try {
      const result = await python.run(driver(fn, docs, kind === "backwards", steps, chosen, program, programName),
        "experiment-lab.py", printed.take, { what: "an experiment", where: "in Explore" });
      if (result.status === "stopped") throw new StoppedError("stopped");
      if (result.status === "error" || finished === null) {
        throw new Error(`The experiment stopped with an error: ${printed.lastError() || "no result"}`);
      }
      const done = finished as Record<string, unknown>;
      made.losses = (done.losses as number[]).map(Number);
      made.params = Number(done.params);
      made.vocabSize = Number(done.vocab_size);
      made.documents = Number(done.documents);
      made.seconds = Number(done.seconds);
      runs.push(made);
      const perStep = made.seconds / made.steps;
      status.textContent = `Run ${slot} done: ${made.params.toLocaleString("en")} parameters, mean loss ${formatNumber(mean(made.losses), 3)}, ` +
        `${formatNumber(perStep, 3)} s per step (${formatNumber((performance.now() - started) / 1000, 1)} s in all).`;
      say(announce, status.textContent);
    } catch (error) {
      status.textContent = error instanceof StoppedError
        ? `Run ${slot} stopped at step ${made.losses.length} of ${steps}: a run counts only once it ends, so it is not on the chart.`
        : (error as Error).message;
      say(announce, status.textContent);
    } finally {
      live = null;
      setRunning(false);
      renderAll();
    }
  });

  stop.addEventListener("click", async () => (await pythonOfThePage()).stop("user"));
  clear.addEventListener("click", () => {
    runs.splice(0);
    renderAll();
    say(status, "The runs are cleared: your next run is the new baseline.");
  });

  // Redraw when the width changes a lot (a phone turned, a window resized).
  let drawnAt = figure.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(figure.clientWidth - drawnAt) > 40) { drawnAt = figure.clientWidth; render(); }
  }).observe(figure);
}

registerWidget("experiment-lab", mountExperimentLab);
