// Explore widget "head-attention" (lesson 9.2): every head's attention over a name, one grid
// per head, side by side. Row p of a grid is position p looking back: its weights over
// positions 0 to p, adding up to 1. The lesson's code (`data`) worked them out on the model as
// it is drawn, before training, with a probe, `attention_of(word)`, whose source comes with the
// data. "Train" runs the course script (train4.py) in the page's Python for the steps chosen,
// then the same probe on the trained model, so before and after come from one piece of code.
// The mistake toggle shows what one search over the whole of q and k gives: four equal grids.

import { say } from "../live";
import { StoppedError } from "../python";
import { setUsable } from "../usable";
import { plural } from "../words";
import { formatNumber, h, pythonOfThePage, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import "./head-attention.css";

interface NameView {
  name: string;
  labels: string[];
  heads: number[][][]; // heads[h][p] = weights of position p over positions 0..p
  whole: number[][];
}

const STEP_LINE = /^step\s+(\d+) \/ (\d+) \| loss (\S+)$/;
const NUM_STEPS = /^num_steps = \d+$/m;
const SAMPLING = "# --- sampling";
const RESULT = "ATTENTION_OF_THE_HEADS ";

function grid(value: unknown, positions: number): number[][] | null {
  if (!Array.isArray(value) || value.length !== positions) return null;
  const rows = value.map((row, p) => (Array.isArray(row) && row.length === p + 1
    && row.every((w) => typeof w === "number" && Number.isFinite(w)) ? (row as number[]) : null));
  return rows.every((row) => row !== null) ? (rows as number[][]) : null;
}

function parseNames(value: unknown): NameView[] {
  const views: NameView[] = [];
  for (const item of Array.isArray(value) ? value : []) {
    const fields = record(item);
    const labels = Array.isArray(fields.labels) ? fields.labels.map(String) : [];
    const heads = (Array.isArray(fields.heads) ? fields.heads : []).map((rows) => grid(rows, labels.length));
    const whole = grid(fields.whole, labels.length);
    if (typeof fields.name !== "string" || labels.length === 0 || heads.length === 0 || heads.some((g) => g === null) || !whole) continue;
    views.push({ name: fields.name, labels, heads: heads as number[][][], whole });
  }
  return views;
}

/** The Python the browser runs: the script, trained for `steps`, without its sampling, then the
 *  probe on every name, printed as one JSON line. */
function trainingProgram(script: string, steps: number, probe: string, names: string[]): string {
  const trained = script.replace(NUM_STEPS, `num_steps = ${steps}`);
  const cut = trained.indexOf(SAMPLING);
  const body = cut >= 0 ? trained.slice(0, cut) : trained;
  return `${body}\n${probe}\n\nimport json as _json\n`
    + `print(${JSON.stringify(RESULT)} + _json.dumps([attention_of(_w) for _w in ${JSON.stringify(names)}]))\n`;
}

function mountHeadAttention(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const before = parseNames(data.names);
  const probe = typeof data.probe === "string" ? data.probe : "";
  if (before.length === 0 || !probe) {
    root.append(h("p", {}, "This widget has no attention to show."));
    return;
  }
  const script = typeof params.script === "string" ? params.script : "";
  const scriptUrl = typeof params.scriptUrl === "string" ? params.scriptUrl : "";
  const steps = (Array.isArray(params.steps) ? params.steps : [])
    .filter((n): n is number => typeof n === "number" && Number.isInteger(n) && n > 0);
  let nameIndex = 0;
  let mistaken = false;
  let after: NameView[] | null = null;
  let afterSteps = 0;
  let showing: "before" | "after" = "before";

  const namePicker = choiceGroup({
    legend: "Name", name: "ha-name",
    choices: before.map((view) => ({ label: [view.name], value: view.name })),
    onPick: (index) => { nameIndex = index; draw(); },
  });
  const whenTitle = uniqueId("ha-when");
  const whenPicker = h("fieldset", { class: "kit-picker ha-when", hidden: true, "aria-labelledby": whenTitle });
  const mistakeText = textOr(params.mistake, null);
  const toggle = mistakeText ? mistakeToggle(mistakeText, { name: "ha-mistake" }) : null;
  toggle?.input.addEventListener("change", () => { mistaken = toggle.input.checked; draw(); });

  const selectId = uniqueId("ha-steps");
  const select = h("select", { id: selectId }, ...steps.map((n, i) => h("option", { value: n, selected: i === 0 }, plural(n, "step"))));
  const train = h("button", { type: "button" }, `Train ${script}`);
  const stop = h("button", { type: "button", class: "secondary" }, "Stop");
  setUsable(stop, false);
  // The status line changes at every step while training: only its start and end are announced.
  const status = h("p", { class: "ha-status", "data-readout": "status" },
    `Before training, every head spreads its attention almost evenly. Train ${script} here, in your browser, then compare.`);
  const announce = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
  const heading = h("p", { class: "ha-heading", "data-readout": "heading" });
  const grids = h("div", { class: "kit-columns ha-grids" });
  const summary = h("p", { class: "kit-verdict", "data-readout": "summary", role: "status" });
  root.append(h("div", { class: "ha" },
    h("div", { class: "kit-settings" }, namePicker, whenPicker, toggle ? toggle.label : null),
    heading, grids, summary,
    h("p", { class: "ha-key" }, "Each row is one position looking back over the positions so far; its weights add up to 1. "
      + "The darker a cell, the more it gets than an even share (1 ÷ the number of positions in its row)."),
    scriptUrl && steps.length ? h("div", { class: "kit-controls ha-train" },
      h("label", { for: selectId }, "Train for "), select, train, stop) : null,
    status, announce,
    textOr(data.caption, null) ? h("p", { class: "kit-caption" }, String(data.caption)) : null));

  function views(): NameView[] {
    return showing === "after" && after ? after : before;
  }

  function draw(): void {
    const view = views()[Math.min(nameIndex, views().length - 1)];
    const when = showing === "after" ? `after ${afterSteps} steps of training` : "before training";
    heading.textContent = mistaken
      ? `${view.name}, ${when}, with one search over the whole of q and k: every head gets the same grid.`
      : `${view.name}, ${when}: each of the ${view.heads.length} heads with its own softmax.`;
    const shown = mistaken ? view.heads.map(() => view.whole) : view.heads;
    grids.replaceChildren(...shown.map((rows, head) => table(view, rows, head)));
    const last = view.labels.length - 1;
    const even = 1 / view.labels.length;
    const tops = shown.map((rows) => {
      const row = rows[last];
      const best = row.indexOf(Math.max(...row));
      return { best, weight: row[best] };
    });
    const most = Math.max(...tops.map((top) => top.weight)) / even;
    const apart = new Set(tops.map((top) => top.best)).size > 1;
    const leans = tops.map((top, head) => `head ${head} ${formatNumber(top.weight, 3)} on ${view.labels[top.best]}`).join(", ");
    let verdict: string;
    if (mistaken) {
      verdict = "One search gives one set of weights, so all four heads look at the same places.";
    } else if (showing === "before") {
      verdict = "Before training these leans are chance, from the random weights: no head has learned where to look yet.";
    } else if (most < 1.5) {
      verdict = `After ${afterSteps} steps every head is still within ${formatNumber(most, 2)} times an even share: `
        + `plain SGD moves attention slowly${apart ? ", though the heads already lean different ways" : ""}.`;
    } else {
      verdict = apart ? "The heads have learned to look at different places." : "The heads have learned to look at the same place.";
    }
    say(summary, `At the last position (${view.labels[last]}), an even share would be ${formatNumber(even, 3)}. `
      + `The largest weights: ${leans}. ${verdict}`);
    summary.dataset.tone = showing === "after" && most >= 1.5 && apart && !mistaken ? "good" : "info";
  }

  function table(view: NameView, rows: number[][], head: number): HTMLElement {
    const caption = `Head ${head}`;
    const head_ = h("tr", {}, h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "position")),
      ...view.labels.map((label) => h("th", { scope: "col" }, label)));
    const body = rows.map((row, p) => h("tr", {},
      h("th", { scope: "row" }, view.labels[p]),
      ...view.labels.map((_, t) => {
        if (t > p) return h("td", { class: "ha-future", "aria-label": "not yet seen" });
        const share = row[t] * row.length; // 1 = an even share
        const level = Math.max(0, Math.min(4, Math.round((share - 1) * 4 + 1)));
        return h("td", { class: `ha-cell ha-level-${level}`, "data-head": head, "data-row": p, "data-col": t, "data-weight": row[t] },
          formatNumber(row[t], 2));
      })));
    return h("figure", { class: "kit-figure ha-figure" },
      h("table", { class: "ha-table" }, h("caption", {}, caption), h("thead", {}, head_), h("tbody", {}, ...body)));
  }

  function whenChoices(): void {
    const legend = h("legend", { id: whenTitle }, "Weights");
    const choice = (value: "before" | "after", text: string) => {
      const id = uniqueId("ha-when");
      const input = h("input", { type: "radio", name: whenTitle, id, value, checked: showing === value });
      input.addEventListener("change", () => { if (input.checked) { showing = value; draw(); } });
      return h("label", { class: "kit-choice", for: id }, input, text);
    };
    whenPicker.replaceChildren(legend, choice("before", "before training"), choice("after", `after ${afterSteps} steps`));
    whenPicker.hidden = false;
  }

  const sources = new Map<string, Promise<string>>();
  function source(url: string): Promise<string> {
    if (!sources.has(url)) {
      sources.set(url, fetch(url).then((response) => {
        if (!response.ok) throw new Error(`could not load ${script} (${response.status})`);
        return response.text();
      }));
    }
    return sources.get(url)!;
  }

  train.addEventListener("click", async () => {
    const total = Number(select.value);
    setUsable(train, false);
    select.disabled = true;
    setUsable(stop, true);
    status.textContent = `Training ${script} for ${plural(total, "step")}…`;
    say(announce, status.textContent);
    let output = "";
    let pending = "";
    let done = 0;
    const started = performance.now();
    try {
      const text = trainingProgram(await source(scriptUrl), total, probe, before.map((view) => view.name));
      const python = await pythonOfThePage();
      if (python.busy) throw new Error("Python is busy with your code in Build: wait for it to finish, or press Stop there.");
      const result = await python.run(text, script, (chunk, stream) => {
        if (stream !== "stdout") return;
        const lines = (pending + chunk).split("\n");
        pending = lines.pop() ?? "";
        const before_ = done;
        for (const line of lines) {
          if (STEP_LINE.test(line)) done += 1;
          else if (line.startsWith(RESULT)) output = line;
        }
        if (done !== before_) {
          const rate = done / Math.max((performance.now() - started) / 1000, 1e-3);
          status.textContent = `Training ${script}: step ${done} / ${total} · about ${Math.ceil((total - done) / Math.max(rate, 1e-3))} s left`;
        }
      }, { what: "the training", where: "in Explore" });
      if (result.status === "stopped") throw new StoppedError("stopped");
      const line = output || (pending.startsWith(RESULT) ? pending : "");
      if (result.status === "error" || !line) throw new Error(`${script} stopped with an error before the heads could be read.`);
      const trained = parseNames(JSON.parse(line.slice(RESULT.length)));
      if (trained.length !== before.length) throw new Error("The trained model's attention could not be read.");
      after = trained;
      afterSteps = total;
      showing = "after";
      whenChoices();
      draw();
      status.textContent = `Trained ${plural(total, "step")} of ${script} in ${formatNumber((performance.now() - started) / 1000, 1)} s. `
        + "Switch between before and after training above the grids.";
    } catch (error) {
      status.textContent = error instanceof StoppedError
        ? `Stopped at step ${done} of ${total}; the grids still show the last model read.` : (error as Error).message;
    } finally {
      say(announce, status.textContent);
      setUsable(train, true);
      select.disabled = false;
      setUsable(stop, false);
    }
  });

  stop.addEventListener("click", async () => {
    const python = await pythonOfThePage();
    python.stop("user");
  });

  draw();
}

registerWidget("head-attention", mountHeadAttention);
