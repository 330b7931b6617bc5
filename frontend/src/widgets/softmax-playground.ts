// Explore widget "softmax-playground" (lesson 5.5): the learner edits logits and sees softmax
// worked out twice, the way Python would do it: with the biggest logit subtracted first, and
// without. Python's math.exp raises OverflowError where the result would not fit in a float
// (above about 709.78), and dividing by a total of 0.0 raises ZeroDivisionError: both are shown
// as Python would print them. The mistake toggle divides by the sum of the logits instead.

import { setUsable } from "../usable";
import { say } from "../live";
import { formatNumber, h, record, registerWidget, textOr, type Params } from "./kit";
import { mistakeToggle } from "./shared/controls";
import "./softmax-playground.css";

const MAX_LOGITS = 30;

interface Preset {
  label: string;
  logits: number[];
  names?: string[];
}

type Outcome = { ok: true; exps: number[]; total: number; probs: number[] } | { ok: false; error: string; at?: number };

function numbers(value: unknown): number[] | null {
  return Array.isArray(value) && value.length > 0 && value.length <= MAX_LOGITS
    && value.every((x) => typeof x === "number" && Number.isFinite(x)) ? (value as number[]) : null;
}

/** A number as Python's repr would suggest it, short: 4 decimals, or powers of ten when huge or tiny. */
function show(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "−inf";
  const size = Math.abs(x);
  if (size !== 0 && (size >= 1e6 || size < 1e-4)) {
    const [mantissa, exponent] = x.toExponential(3).split("e");
    return `${mantissa.replace("-", "−")}e${exponent.replace("+", "")}`;
  }
  return formatNumber(x);
}

/** Python's exp, then sum, then each divided by the total: stopping where Python would raise. */
function pythonSoftmax(shifted: number[], divisor: (exps: number[]) => number): Outcome {
  const exps: number[] = [];
  for (let i = 0; i < shifted.length; i += 1) {
    const e = Math.exp(shifted[i]);
    if (!Number.isFinite(e)) return { ok: false, error: "OverflowError: math range error", at: i };
    exps.push(e);
  }
  const total = divisor(exps);
  if (total === 0) return { ok: false, error: "ZeroDivisionError: float division by zero" };
  return { ok: true, exps, total, probs: exps.map((e) => e / total) };
}

const sum = (values: number[]): number => values.reduce((acc, v) => acc + v, 0);

function mountSoftmax(root: HTMLElement, params: Params): void {
  const presets: Preset[] = [];
  for (const item of Array.isArray(params.presets) ? params.presets : []) {
    const fields = record(item);
    const logits = numbers(fields.logits);
    if (logits && typeof fields.label === "string") presets.push({ label: fields.label, logits });
  }
  const data = record(params.data);
  const dataLogits = numbers(data.logits);
  if (dataLogits && typeof data.label === "string") {
    const names = Array.isArray(data.labels) ? data.labels.map(String) : undefined;
    presets.push({ label: data.label, logits: dataLogits, names });
  }
  let logits = [...(numbers(params.logits) ?? presets[0]?.logits ?? [2, 1, 0.1])];
  let names: string[] | undefined;

  const presetButtons = presets.map((preset) => {
    const button = h("button", { type: "button", class: "secondary" }, preset.label);
    button.addEventListener("click", () => {
      logits = [...preset.logits];
      names = preset.names;
      rebuild();
    });
    return button;
  });
  const addButton = h("button", { type: "button", class: "secondary" }, "Add a logit");
  const removeButton = h("button", { type: "button", class: "secondary" }, "Remove the last");
  addButton.addEventListener("click", () => { logits.push(0); names = undefined; rebuild(); });
  removeButton.addEventListener("click", () => { logits.pop(); names = undefined; rebuild(); });

  const mistakeLabel = textOr(params.mistake, "");
  const toggle = mistakeToggle(mistakeLabel, { name: "sp-mistake", dashed: true });
  const mistake = toggle.input;
  mistake.addEventListener("change", update);

  const biggestLine = h("p", { class: "sp-line" });
  const withBody = h("tbody");
  const withFoot = h("tfoot");
  const withError = h("p", { class: "sp-error", "data-readout": "error", role: "status" });
  const rawBody = h("tbody");
  const rawFoot = h("tfoot");
  const rawError = h("p", { class: "sp-error", "data-readout": "raw-error", role: "status" });
  const verdict = h("p", { class: "kit-verdict sp-verdict", "data-readout": "verdict" });

  const withTable = h("table", { class: "sp-table" },
    h("caption", {}, "softmax, with the biggest logit subtracted"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "token"), h("th", { scope: "col" }, "logit v"),
      h("th", { scope: "col", class: "sp-wide" }, "v − biggest"), h("th", { scope: "col" }, "exp(v − biggest)"), h("th", { scope: "col" }, "p"))),
    withBody, withFoot);
  const rawTable = h("table", { class: "sp-table" },
    h("caption", {}, "the same without subtracting it"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "token"), h("th", { scope: "col" }, "exp(v)"), h("th", { scope: "col" }, "p"))),
    rawBody, rawFoot);

  root.append(h("div", { class: "sp" },
    h("div", { class: "kit-controls sp-toolbar", role: "group", "aria-label": "Presets" }, h("span", { class: "sp-muted" }, "Try:"), ...presetButtons),
    h("div", { class: "kit-controls sp-toolbar" }, addButton, removeButton, mistakeLabel ? toggle.label : null),
    biggestLine,
    h("div", { class: "sp-tables" },
      h("div", { class: "sp-panel" }, h("div", { class: "sp-scroll" }, withTable), withError),
      h("div", { class: "sp-panel sp-raw" }, h("div", { class: "sp-scroll" }, rawTable), rawError)),
    verdict));

  const label = (i: number): string => names?.[i] ?? String(i);
  const inputs: HTMLInputElement[] = [];
  const cells: { shifted: HTMLElement; exp: HTMLElement; p: HTMLElement; bar: HTMLElement; rawExp: HTMLElement; rawP: HTMLElement }[] = [];

  function rebuild(): void {
    inputs.length = 0;
    cells.length = 0;
    withBody.replaceChildren();
    rawBody.replaceChildren();
    logits.forEach((value, i) => {
      const input = h("input", { type: "number", step: "any", value: String(value), class: "kit-input sp-input",
        "aria-label": `logit of ${label(i)}`, "data-logit": i });
      input.addEventListener("input", () => {
        const x = Number(input.value);
        if (input.value.trim() !== "" && Number.isFinite(x)) { logits[i] = x; update(); }
      });
      inputs.push(input);
      const bar = h("span", { class: "sp-bar", "aria-hidden": "true" });
      const row = {
        // p and its bar share one cell: p is a span in it (a cell in a cell is not a table).
        shifted: h("td", { class: "sp-wide" }), exp: h("td", {}), p: h("span", { "data-p": i }), bar,
        rawExp: h("td", {}), rawP: h("td", { "data-p-raw": i }),
      };
      cells.push(row);
      withBody.append(h("tr", {}, h("th", { scope: "row" }, label(i)), h("td", {}, input), row.shifted, row.exp,
        h("td", { class: "sp-p-cell" }, row.p, bar)));
      rawBody.append(h("tr", {}, h("th", { scope: "row" }, label(i)), row.rawExp, row.rawP));
    });
    setUsable(addButton, logits.length < MAX_LOGITS);
    setUsable(removeButton, logits.length > 1);
    update();
  }

  function update(): void {
    const biggest = Math.max(...logits);
    const shifted = logits.map((v) => v - biggest);
    const wrongSum = mistake.checked;
    const divisor = (exps: number[]): number => (wrongSum ? sum(logits) : sum(exps));
    const safe = pythonSoftmax(shifted, divisor);
    const raw = pythonSoftmax(logits, sum);
    biggestLine.replaceChildren("biggest = max(logits) = ", h("strong", { "data-readout": "biggest" }, show(biggest)),
      wrongSum ? h("span", { class: "sp-bad" }, ` · total = sum(logits) = ${show(sum(logits))}`) : "");

    cells.forEach((row, i) => {
      row.shifted.textContent = show(shifted[i]);
      if (safe.ok) {
        row.exp.textContent = show(safe.exps[i]);
        row.p.textContent = show(safe.probs[i]);
        row.p.dataset.value = String(safe.probs[i]);
        row.bar.style.width = `${Math.max(0, Math.min(1, safe.probs[i])) * 100}%`;
      } else {
        row.exp.textContent = "";
        row.p.textContent = "—";
        row.p.dataset.value = "";
        row.bar.style.width = "0";
      }
      if (raw.ok) {
        row.rawExp.textContent = show(raw.exps[i]);
        row.rawP.textContent = show(raw.probs[i]);
        row.rawP.dataset.value = String(raw.probs[i]);
      } else {
        // Python computes the exps left to right and stops at the first that overflows.
        const stop = raw.at ?? logits.length;
        const failedHere = i === raw.at;
        row.rawExp.textContent = failedHere ? "overflow" : i < stop ? show(Math.exp(logits[i])) : "not reached";
        row.rawExp.classList.toggle("sp-bad", failedHere);
        row.rawP.textContent = "—";
        row.rawP.dataset.value = "";
      }
    });

    withFoot.replaceChildren(safe.ok
      ? h("tr", {}, h("th", { scope: "row", colspan: 2 }, "total"), h("td", { class: "sp-wide" }), h("td", {}, show(safe.total)),
        h("td", { "data-readout": "sum", "data-value": String(sum(safe.probs)) }, `sum ${show(sum(safe.probs))}`))
      : h("tr", {}));
    say(withError, safe.ok ? ""
      : wrongSum ? `${safe.error}: sum(logits) is 0, and Python cannot divide by it.` : safe.error);
    rawFoot.replaceChildren(raw.ok
      ? h("tr", {}, h("th", { scope: "row" }, "total"), h("td", {}, show(raw.total)),
        h("td", { "data-readout": "raw-sum" }, `sum ${show(sum(raw.probs))}`))
      : h("tr", {}));
    say(rawError, raw.ok ? ""
      : raw.at !== undefined
        ? `${raw.error}: math.exp(${show(logits[raw.at])}) is bigger than the largest float (about 1.8e308).`
        : `${raw.error}: every exp(v) rounded to 0.0, so their total is 0.0.`);

    if (wrongSum) {
      say(verdict, safe.ok
        ? `Divided by the sum of the logits, the "probabilities" add up to ${show(sum(safe.probs))}, not 1.`
        : "Divided by the sum of the logits, softmax crashes whenever they add up to 0.");
      verdict.dataset.tone = "bad";
    } else if (!raw.ok) {
      say(verdict, "Without subtracting the max Python stops with an error; with it, the same softmax runs fine.");
      verdict.dataset.tone = "bad";
    } else if (safe.ok) {
      const gap = Math.max(...safe.probs.map((p, i) => Math.abs(p - raw.probs[i])));
      say(verdict, gap < 1e-12
        ? "Both ways give the same probabilities: subtracting the max changes each exp, but not their shares."
        : `Both ways agree to within ${show(gap)}: the shares are the same, up to rounding.`);
      verdict.dataset.tone = "good";
    }
  }

  rebuild();
}

registerWidget("softmax-playground", mountSoftmax);
