// Explore widget "linear-steps" (lessons 5.3 and 5.4): linear(x, w) one row at a time.
//
// Part 1, a small example the learner edits: Step walks the rows of w, each output a dot product
// written out pair by pair; with `relu` a ReLU step follows. The mistake toggle walks the columns
// instead (without relu: zip pairs by position and quietly stops at the shorter list, as Python
// does) or applies ReLU to x before linear (with relu).
// Part 2, the real sizes: pick a token; x is its row of the computed wte, and the widget works out
// linear(x, mlp_fc1) (and ReLU) here, with the same additions in the same order as Python's sum.

import { setUsable } from "../usable";
import { say, sayWith } from "../live";
import { formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { mistakeToggle } from "./shared/controls";
import "./linear-steps.css";

type Matrix = number[][];

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === "number" && Number.isFinite(x));
}

function isMatrix(value: unknown): value is Matrix {
  return Array.isArray(value) && value.length > 0 && value.every(isVector)
    && value.every((row) => row.length === (value[0] as number[]).length);
}

/** Python's sum(wi * xi for wi, xi in zip(row, x)): pairs up to the shorter list, added from 0. */
function dot(row: number[], x: number[]): number {
  let total = 0;
  for (let i = 0; i < Math.min(row.length, x.length); i += 1) total += row[i] * x[i];
  return total;
}

function columns(w: Matrix): Matrix {
  return w[0].map((_, c) => w.map((row) => row[c]));
}

const relu = (a: number): number => Math.max(0, a);

/** A factor inside a product: negative numbers in brackets, so 2·(−1) reads right. */
function factor(x: number): string {
  const text = formatNumber(x);
  return x < 0 ? `(${text})` : text;
}

function vectorText(values: number[]): string {
  return `[${values.map((v) => formatNumber(v)).join(", ")}]`;
}

// ---- Part 1: the small example -----------------------------------------------------------------

function numberInput(value: number, label: string, onChange: (x: number) => void): HTMLInputElement {
  const input = h("input", { type: "number", step: "any", value: String(value), "aria-label": label, class: "kit-input ls-input" });
  input.addEventListener("input", () => {
    const x = Number(input.value);
    if (input.value.trim() !== "" && Number.isFinite(x)) onChange(x);
  });
  return input;
}

function mountExample(root: HTMLElement, params: Params, withRelu: boolean): void {
  const x0 = isVector(params.x) ? params.x : [2, 1, -1];
  const w0 = isMatrix(params.w) && params.w[0].length === x0.length ? params.w : [x0.map(() => 1)];
  const x = [...x0];
  const w = w0.map((row) => [...row]);
  let steps = 0;

  const mistakeLabel = textOr(params.mistake, "");
  const toggle = mistakeToggle(mistakeLabel, { name: "ls-mistake", dashed: true, className: "ls-mistake" });
  const mistake = toggle.input;

  const xInputs = x.map((value, i) => numberInput(value, `x[${i}]`, (v) => { x[i] = v; update(); }));
  const wRows = w.map((row, r) => h("div", { class: "ls-row", "data-row": r },
    h("span", { class: "ls-row-name" }, `row ${r}`),
    ...row.map((value, c) => numberInput(value, `w[${r}][${c}]`, (v) => { w[r][c] = v; update(); }))));
  const inputs = h("div", { class: "ls-inputs" },
    h("div", { class: "ls-block" }, h("p", { class: "ls-caption" }, "x"), h("div", { class: "ls-row ls-x" }, ...xInputs)),
    h("div", { class: "ls-block" }, h("p", { class: "ls-caption" }, `w (${w.length} × ${x.length})`), ...wRows));

  const counter = h("span", { class: "kit-counter", "data-step-counter": "", "aria-live": "polite" });
  const stepButton = h("button", { type: "button" }, "Step");
  const allButton = h("button", { type: "button", class: "secondary" }, "Show all");
  const resetButton = h("button", { type: "button", class: "secondary" }, "Reset");
  stepButton.addEventListener("click", () => { steps += 1; update(); });
  allButton.addEventListener("click", () => { steps = Number.MAX_SAFE_INTEGER; update(); });
  resetButton.addEventListener("click", () => { steps = 0; update(); });
  mistake.addEventListener("change", () => { steps = 0; update(); });

  const work = h("ol", { class: "ls-work", "aria-live": "polite" });
  const outLine = h("p", { class: "ls-result" });
  const reluLine = h("p", { class: "ls-result" });
  const note = h("p", { class: "ls-note", "data-readout": "note" });

  root.append(h("section", { class: "ls-part", "aria-label": "A small example" },
    h("h3", { class: "ls-title" }, "A small example: edit any number"),
    inputs,
    h("div", { class: "kit-controls ls-toolbar" }, stepButton, allButton, resetButton, counter),
    mistakeLabel ? toggle.label : null,
    work, outLine, withRelu ? reluLine : null, note));

  function update(): void {
    const wrong = mistake.checked;
    const reluFirst = withRelu && wrong;
    const byColumns = !withRelu && wrong;
    const input = reluFirst ? x.map(relu) : x;
    const recipes = byColumns ? columns(w) : w;
    const outputs = recipes.map((recipe) => dot(recipe, input));
    const after = withRelu && !reluFirst ? outputs.map(relu) : outputs;
    // The steps, in order: (ReLU on x first, when that is the mistake), one per row, (ReLU after).
    const events: HTMLElement[] = [];
    if (reluFirst) {
      events.push(h("li", { class: "ls-step ls-wrong" }, `ReLU first: x ${vectorText(x)} becomes `,
        h("strong", {}, vectorText(input)), "; its negative numbers are gone before any row sees them."));
    }
    recipes.forEach((recipe, k) => {
      const pairs = Math.min(recipe.length, input.length);
      const products = Array.from({ length: pairs }, (_, i) => `${factor(recipe[i])}·${factor(input[i])}`);
      const what = byColumns ? `column ${k}` : `row ${k}`;
      const dropped = byColumns && input.length > recipe.length
        ? ` (zip stopped after ${pairs} pairs: x[${pairs}]${input.length - pairs > 1 ? " onwards is" : " is"} never used)` : "";
      events.push(h("li", { class: byColumns ? "ls-step ls-wrong" : "ls-step" },
        h("span", { class: "ls-what" }, `${what} · ${reluFirst ? "relu(x)" : "x"} = `),
        h("span", { class: "ls-sum" }, `${products.join(" + ")} = `),
        h("strong", { "data-out": k, "data-value": String(outputs[k]) }, formatNumber(outputs[k])), dropped));
    });
    if (withRelu && !reluFirst) {
      const changes = outputs.map((a) => (a > 0 ? `${formatNumber(a)} stays` : `${formatNumber(a)} becomes 0`));
      events.push(h("li", { class: "ls-step" }, `ReLU, max(0, a) for each a: ${changes.join("; ")}.`));
    }
    const total = events.length;
    steps = Math.min(steps, total);
    say(counter, `step ${steps} / ${total}`);
    setUsable(stepButton, steps < total);
    setUsable(allButton, steps < total);
    sayWith(work, ...events.slice(0, steps));

    const rowsDone = Math.max(0, Math.min(recipes.length, steps - (reluFirst ? 1 : 0)));
    const done = outputs.slice(0, rowsDone).map((v) => formatNumber(v));
    const pending = outputs.slice(rowsDone).map(() => "?");
    outLine.replaceChildren(h("code", {}, `linear(${reluFirst ? "relu(x)" : "x"}, w)`), ` = [${[...done, ...pending].join(", ")}]`,
      ` (${outputs.length} number${outputs.length === 1 ? "" : "s"})`);
    if (withRelu) {
      const finished = steps >= total;
      reluLine.replaceChildren(h("code", {}, reluFirst ? "h, with no ReLU after linear" : "h = [max(0.0, a) for a in linear(x, w)]"), " = ",
        h("span", { "data-readout": "h", "data-values": finished ? JSON.stringify(after) : "" },
          finished ? vectorText(after) : "? (after the last step)"));
    }
    if (byColumns) {
      note.textContent = `One number per column: ${outputs.length} instead of ${w.length}. `
        + (w.length !== x.length ? "The shapes no longer fit, and zip pairs what it can without a word." : "Same count here, because w is square, but other numbers.");
    } else if (reluFirst) {
      const right = w.map((row) => relu(dot(row, x)));
      const differ = right.some((v, i) => v !== after[i]);
      note.textContent = differ
        ? `With ReLU after linear, h would be ${vectorText(right)}. ReLU must act on what linear makes, not on x.`
        : "Here the two orders happen to agree; make an entry of x negative to see them part.";
    } else {
      note.textContent = withRelu
        ? "Each row gives one number, then ReLU keeps the positive ones and turns the rest into 0."
        : `Each of the ${w.length} rows gives one number: ${x.length} numbers in, ${w.length} out.`;
    }
  }

  update();
}

// ---- Part 2: the real sizes --------------------------------------------------------------------

const CHART_W = 640;
const CHART_H = 150;

function barChart(values: number[], marked: number, title: string, muted: (i: number) => boolean, scale: number): SVGElement {
  const id = uniqueId("ls-chart");
  const biggest = Math.max(1e-9, scale);
  const mid = CHART_H / 2;
  const step = CHART_W / values.length;
  const bars = values.map((v, i) => {
    const height = (Math.abs(v) / biggest) * (mid - 6);
    const cls = ["ls-bar", v >= 0 ? "ls-pos" : "ls-neg", muted(i) ? "ls-zeroed" : "", i === marked ? "ls-marked" : ""].join(" ");
    return svg("rect", {
      class: cls, x: (i * step + step * 0.12).toFixed(1), width: (step * 0.76).toFixed(1),
      y: (v >= 0 ? mid - height : mid).toFixed(1), height: Math.max(height, 1).toFixed(1),
    });
  });
  return svg("svg", { viewBox: `0 0 ${CHART_W} ${CHART_H}`, class: "kit-plot", role: "img", "aria-labelledby": id },
    svg("title", { id }, title),
    svg("line", { class: "ls-axis", x1: 0, x2: CHART_W, y1: mid, y2: mid }),
    ...bars);
}

function mountReal(root: HTMLElement, params: Params, withRelu: boolean, mistake: () => boolean): (() => void) | null {
  const data = record(params.data);
  const labels = Array.isArray(data.rows) ? data.rows.map(String) : [];
  if (!isMatrix(data.x) || !isMatrix(data.w) || data.x.length !== labels.length || data.x[0].length !== data.w[0].length) return null;
  const table = data.x;
  const w = data.w;
  const name = textOr(data.name, "w");
  let token = Math.min(4, labels.length - 1);
  let pick = 0;

  const tokenId = uniqueId("ls-token");
  const tokenPick = h("select", { id: tokenId }, ...labels.map((label, i) => h("option", { value: String(i) }, `${label} (id ${i})`)));
  tokenPick.value = String(token);
  tokenPick.addEventListener("change", () => { token = Number(tokenPick.value); update(); });
  const outId = uniqueId("ls-out");
  const outPick = h("input", { type: "number", id: outId, min: 0, max: w.length - 1, step: 1, value: 0, inputmode: "numeric" });
  outPick.addEventListener("input", () => {
    const k = Math.round(Number(outPick.value));
    if (Number.isFinite(k) && k >= 0) { pick = k; update(); }
  });

  const summary = h("p", { class: "ls-summary", "data-readout": "summary" });
  const charts = h("div", { class: "ls-charts" });
  const detail = h("p", { class: "ls-detail" });
  root.append(h("section", { class: "ls-part", "aria-label": "The real sizes" },
    h("h3", { class: "ls-title" }, `The real sizes: ${name}, ${w.length} × ${w[0].length}`),
    h("div", { class: "ls-pickers" },
      h("div", { class: "kit-field" }, h("label", { for: tokenId }, "token (x is its row of wte)"), tokenPick),
      h("div", { class: "kit-field" }, h("label", { for: outId }, "output number"), outPick)),
    summary, charts, detail));

  function update(): void {
    const x = table[token];
    const wrong = mistake();
    const reluFirst = withRelu && wrong;
    const byColumns = !withRelu && wrong;
    const input = reluFirst ? x.map(relu) : x;
    const recipes = byColumns ? columns(w) : w;
    const out = recipes.map((recipe) => dot(recipe, input));
    pick = Math.min(pick, out.length - 1);
    outPick.max = String(out.length - 1);
    outPick.value = String(pick);
    const after = withRelu && !reluFirst ? out.map(relu) : out;
    const zeros = after.filter((v) => v === 0).length;
    const negatives = after.filter((v) => v < 0).length;

    const call = reluFirst ? `linear(relu(x), ${name})` : `linear(x, ${name})`;
    const what = byColumns ? `${out.length} numbers, one per column of ${name} (it has ${w.length} rows)` : `${out.length} numbers`;
    summary.replaceChildren(`x = wte row ${token} (${labels[token]}): ${x.length} numbers. `, h("code", {}, call), ` gives ${what}.`);
    const scale = Math.max(...out.map(Math.abs));
    const list: Element[] = [barChart(out, pick, `${call} for ${labels[token]}: ${out.length} numbers as bars, positive up, negative down.`, () => false, scale)];
    if (withRelu && !reluFirst) {
      list.push(h("p", { class: "ls-chart-caption" }, "after ReLU: ",
        h("strong", { "data-readout": "zeros", "data-value": String(zeros) }, `${zeros} of ${after.length}`), " are 0"));
      list.push(barChart(after, pick, `After ReLU: ${zeros} of ${after.length} numbers are 0.`, (i) => after[i] === 0, scale));
    } else if (reluFirst) {
      list.push(h("p", { class: "ls-chart-caption ls-bad" }, "no ReLU after linear: ",
        h("strong", { "data-readout": "negatives", "data-value": String(negatives) }, `${negatives} of ${after.length}`), " are still negative"));
    }
    charts.replaceChildren(...list);

    const recipe = recipes[pick];
    const pairs = Math.min(recipe.length, input.length);
    const products = Array.from({ length: pairs }, (_, i) => `${factor(recipe[i])}·${factor(input[i])}`);
    sayWith(detail,
      h("span", {}, `${byColumns ? "column" : "row"} ${pick} · ${reluFirst ? "relu(x)" : "x"} = ${products.join(" + ")} = `),
      h("strong", { "data-readout": "real-value", "data-value": String(out[pick]) }, formatNumber(out[pick])),
      withRelu && !reluFirst ? `; after ReLU: ${formatNumber(after[pick])}` : "",
      byColumns ? ` (zip stopped after ${pairs} of the ${recipe.length} numbers of the column)` : "",
      h("span", { class: "ls-fine" }, " (each number shown to 4 decimals; the sum uses them in full)"));
  }

  update();
  return update;
}

function mountLinearSteps(root: HTMLElement, params: Params): void {
  const withRelu = params.relu === true;
  const wrapper = h("div", { class: "ls" });
  root.append(wrapper);
  mountExample(wrapper, params, withRelu);
  const toggle = wrapper.querySelector<HTMLInputElement>(".ls-mistake input");
  const refresh = mountReal(wrapper, params, withRelu, () => toggle?.checked ?? false);
  if (refresh && toggle) toggle.addEventListener("change", refresh);
}

registerWidget("linear-steps", mountLinearSteps);
