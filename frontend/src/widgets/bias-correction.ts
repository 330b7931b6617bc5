// Explore widget "bias-correction" (lesson 10.4): microgpt's first steps, for a few of its
// parameters, with Adam's bias correction and without it. The gradients, m and v come from the
// lesson's compute (a real run); here m̂ = m / (1 − β1^t), v̂ = v / (1 − β2^t) and the step
// m̂ / (√v̂ + eps) are worked out for step t, or m and v used as they are when the correction is
// switched off, or, as the mistake, the power t − 1 (Python's `step` instead of `step + 1`),
// whose first step divides by 1 − β^0 = 0. A chart shows the step each way over all the steps,
// a second one the losses of the run with the correction and of a run without it.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle, stepControls } from "./shared/controls";
import "./bias-correction.css";

type Mode = "corrected" | "raw" | "shifted";

interface Watched { label: string; about: string; g: number[]; m: number[]; v: number[] }
interface Data {
  beta1: number; beta2: number; eps: number; lr: number[]; names: string[];
  params: Watched[]; losses: { with: number[]; without: number[] };
}

export interface Worked { weight1: number; weight2: number; mHat: number; vHat: number; step: number; move: number }

function numbers(value: unknown, count: number): number[] | null {
  return Array.isArray(value) && value.length === count && value.every((x) => typeof x === "number" && Number.isFinite(x))
    ? (value as number[]) : null;
}

function parse(raw: unknown): Data | null {
  const data = record(raw);
  const names = Array.isArray(data.names) && data.names.every((n) => typeof n === "string") ? (data.names as string[]) : null;
  if (!names || names.length === 0) return null;
  const count = names.length;
  const lr = numbers(data.lr, count);
  const losses = record(data.losses);
  const withC = numbers(losses.with, count);
  const without = numbers(losses.without, count);
  const params: Watched[] = [];
  for (const item of Array.isArray(data.params) ? data.params : []) {
    const one = record(item);
    const g = numbers(one.g, count);
    const m = numbers(one.m, count);
    const v = numbers(one.v, count);
    if (g && m && v && typeof one.label === "string") {
      params.push({ label: one.label, about: textOr(one.about, ""), g, m, v });
    }
  }
  const [beta1, beta2, eps] = [data.beta1, data.beta2, data.eps];
  if (!lr || !withC || !without || params.length === 0 || typeof beta1 !== "number"
    || typeof beta2 !== "number" || typeof eps !== "number") return null;
  return { beta1, beta2, eps, lr, names, params, losses: { with: withC, without } };
}

/** Step t (1 for the first) as Adam works it out; null where it divides by 0. */
export function worked(d: Data, p: Watched, t: number, mode: Mode): Worked | null {
  const power = mode === "shifted" ? t - 1 : t;
  const weight1 = mode === "raw" ? 1 : 1 - d.beta1 ** power;
  const weight2 = mode === "raw" ? 1 : 1 - d.beta2 ** power;
  if (weight1 === 0 || weight2 === 0) return null;
  const m = p.m[t - 1];
  const v = p.v[t - 1];
  const mHat = m / weight1;
  const vHat = v / weight2;
  const step = mHat / (vHat ** 0.5 + d.eps);
  return { weight1, weight2, mHat, vHat, step, move: d.lr[t - 1] * step };
}

function num(x: number): string {
  if (x !== 0 && Math.abs(x) < 1e-4) return x.toExponential(3).replace("-", "−");
  return formatNumber(x, 5);
}

// ---- Charts ---------------------------------------------------------------------------------

const W = 380;
const H = 180;
const PAD = { left: 40, right: 10, top: 12, bottom: 26 };

interface Line { key: string; values: (number | null)[]; cls: string }
interface Chart { element: SVGElement; draw(lines: Line[], at: number): void }

function makeChart(labelId: string, yName: string, count: number): Chart {
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "kit-plot bc-chart", role: "img", "aria-labelledby": labelId });
  const layer = svg("g", {});
  root.append(layer);
  const x = (t: number): number => PAD.left + ((t - 1) / Math.max(1, count - 1)) * (W - PAD.left - PAD.right);
  return {
    element: root,
    draw(lines, at) {
      const values = lines.flatMap((line) => line.values.filter((value): value is number => value !== null));
      const top = Math.max(0.1, ...values);
      const bottom = Math.min(0, ...values);
      const y = (value: number): number => PAD.top + (1 - (value - bottom) / (top - bottom)) * (H - PAD.top - PAD.bottom);
      layer.replaceChildren(
        svg("rect", { class: "bc-frame", x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom }),
        svg("line", { class: "bc-now", x1: x(at), x2: x(at), y1: PAD.top, y2: H - PAD.bottom }),
        svg("text", { class: "bc-tick", x: PAD.left - 4, y: y(top) + 4, "text-anchor": "end" }, formatNumber(top, 2)),
        svg("text", { class: "bc-tick", x: PAD.left - 4, y: y(bottom) + 4, "text-anchor": "end" }, formatNumber(bottom, 2)),
        svg("text", { class: "bc-tick", x: PAD.left, y: H - 8 }, "step 1"),
        svg("text", { class: "bc-tick", x: W - PAD.right, y: H - 8, "text-anchor": "end" }, `step ${count} · ${yName}`),
      );
      for (const line of lines) {
        const points = line.values.map((value, i) => (value === null ? null : `${x(i + 1).toFixed(1)},${y(value).toFixed(1)}`));
        const runs: string[][] = [[]];
        for (const point of points) {
          if (point === null) runs.push([]);
          else runs[runs.length - 1].push(point);
        }
        for (const run of runs.filter((r) => r.length > 0)) {
          layer.append(svg("polyline", { class: `bc-line ${line.cls}`, points: run.join(" "), "data-line": line.key }));
        }
        const here = line.values[at - 1];
        if (here !== null && here !== undefined) {
          layer.append(svg("circle", { class: `bc-dot ${line.cls}`, cx: x(at), cy: y(here), r: 3.5 }));
        } else if (here === null) {
          layer.append(svg("text", { class: "bc-zero", x: x(at) + 4, y: PAD.top + 12 }, "÷ 0"));
        }
      }
    },
  };
}

// ---- The widget ----------------------------------------------------------------------------

const COLUMNS: [string, string][] = [
  ["g", "gradient"], ["m", "m"], ["weight1", "1 − β1^t"], ["m-hat", "m̂"],
  ["v", "v"], ["weight2", "1 − β2^t"], ["v-hat", "v̂"], ["step", "step (× lr)"],
];

function mountBiasCorrection(root: HTMLElement, params: Params): void {
  root.classList.add("widget", "bc");
  const data = parse(params.data);
  if (!data) {
    root.textContent = "This widget's data could not be read.";
    return;
  }
  const count = data.names.length;
  let chosen = data.params[0];
  let corrected = true;
  let mistake = false;
  const mode = (): Mode => (mistake ? "shifted" : corrected ? "corrected" : "raw");

  const settings = h("div", { class: "kit-settings bc-settings" });
  settings.append(choiceGroup({
    legend: "Parameter",
    name: "bc-param",
    choices: data.params.map((p) => ({ label: [h("code", {}, p.label)] })),
    onPick: (index) => { chosen = data.params[index]; update(); },
  }));
  const switchId = uniqueId("bc-on");
  const box = h("input", { type: "checkbox", id: switchId, checked: true, "data-control": "correction" });
  box.addEventListener("change", () => { corrected = box.checked; update(); });
  const switches = h("div", { class: "bc-switches" },
    h("label", { class: "bc-switch", for: switchId }, box, " bias correction (divide m and v by 1 − β^t)"));
  const mistakeText = textOr(params.mistake, null);
  if (mistakeText) {
    const toggle = mistakeToggle(mistakeText, { name: "bc-mistake", inputAttrs: { "data-control": "mistake" } });
    toggle.input.addEventListener("change", () => { mistake = toggle.input.checked; update(); });
    switches.append(toggle.label);
  }
  settings.append(switches);

  const about = h("p", { class: "bc-about" });
  const stepLabel = uniqueId("bc-steps");
  const lossLabel = uniqueId("bc-loss");
  const stepChart = makeChart(stepLabel, "step, in units of lr", count);
  const lossChart = makeChart(lossLabel, "loss", count);
  const stepCaption = h("p", { id: stepLabel, class: "bc-caption" });
  const lossCaption = h("p", { id: lossLabel, class: "bc-caption" });
  const key = h("p", { class: "bc-key" },
    h("span", { class: "bc-key-item" }, h("span", { class: "bc-swatch bc-corrected", "aria-hidden": "true" }), "with the correction"),
    h("span", { class: "bc-key-item" }, h("span", { class: "bc-swatch bc-raw", "aria-hidden": "true" }), "without it"),
    h("span", { class: "bc-key-item bc-key-shifted" }, h("span", { class: "bc-swatch bc-shifted", "aria-hidden": "true" }), "with the power step, not step + 1"));

  const caption = h("caption", {});
  const row = h("tr", { "data-readout": "row" });
  const table = h("table", { class: "bc-table" }, caption,
    h("thead", {}, h("tr", {}, ...COLUMNS.map(([, text]) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, row));
  const verdict = h("p", { class: "kit-verdict bc-verdict", role: "status", "data-readout": "verdict" });
  let at = 1;
  const stepper = stepControls({
    last: () => count - 1,
    show: (k) => { at = k + 1; draw(); },
    toEnd: true,
    reset: true,
    counter: (k, n) => `step ${k + 1} / ${n + 1}`,
  });

  root.append(settings, about, stepper.row,
    h("div", { class: "bc-scroll" }, table), verdict,
    h("div", { class: "kit-columns bc-charts" },
      h("figure", { class: "kit-figure" }, stepChart.element, h("figcaption", {}, stepCaption, key)),
      h("figure", { class: "kit-figure" }, lossChart.element, h("figcaption", {}, lossCaption))));
  const closing = textOr(params.caption, null);
  if (closing) root.append(h("p", { class: "kit-caption" }, closing));
  stepper.arrowKeys(root, true);

  function series(m: Mode): (number | null)[] {
    return Array.from({ length: count }, (_, i) => worked(data!, chosen, i + 1, m)?.step ?? null);
  }

  function draw(): void {
    const m = mode();
    const t = at;
    const w = worked(data!, chosen, t, m);
    caption.textContent = `Step ${t} (step = ${t - 1} in Python), the name '${data!.names[t - 1]}', lr = ${num(data!.lr[t - 1])}: ${chosen.label}`;
    const values: Record<string, number | null> = {
      g: chosen.g[t - 1], m: chosen.m[t - 1], v: chosen.v[t - 1],
      weight1: w ? w.weight1 : 0, weight2: w ? w.weight2 : 0,
      "m-hat": w ? w.mHat : null, "v-hat": w ? w.vHat : null, step: w ? w.step : null,
    };
    const shown = (col: string): string => {
      const value = values[col];
      if (value !== null) return num(value);
      return col === "step" ? "ZeroDivisionError" : "÷ 0";
    };
    row.replaceChildren(...COLUMNS.map(([col, text]) => h("td", { "data-col": col, "data-label": text, "data-value": String(values[col] ?? "") }, shown(col))));
    root.dataset.mode = m;
    const right = worked(data!, chosen, t, "corrected");
    const raw = worked(data!, chosen, t, "raw");
    let text: string;
    if (!w) {
      text = `Step ${t}: 1 − β1^${t - 1} = 1 − 1 = 0, and dividing m by it raises ZeroDivisionError: the power has to be the number of steps so far, step + 1.`;
    } else if (right && raw && m !== "shifted") {
      const ratio = right.step !== 0 ? raw.step / right.step : NaN;
      // The update subtracts the step (p.data -= lr * step): the weight moves by minus the step.
      text = `Step ${t}: with the correction this weight moves by ${num(-right.step)} × lr; without it, by ${num(-raw.step)} × lr`
        + (Number.isFinite(ratio) ? `, ${formatNumber(ratio, 3)} times as far.` : ".");
    } else {
      text = `Step ${t}, with the power t − 1: the step is ${num(w.step)} × lr, where the right correction gives ${right ? num(right.step) : "—"} × lr.`;
    }
    say(verdict, text);
    const lines: Line[] = [
      { key: "corrected", values: series("corrected"), cls: `bc-corrected${m === "corrected" ? " bc-active" : ""}` },
      { key: "raw", values: series("raw"), cls: `bc-raw${m === "raw" ? " bc-active" : ""}` },
    ];
    if (mistake) lines.push({ key: "shifted", values: series("shifted"), cls: "bc-shifted bc-active" });
    stepChart.draw(lines, t);
    lossChart.draw([
      { key: "with", values: data!.losses.with, cls: "bc-corrected bc-active" },
      { key: "without", values: data!.losses.without, cls: "bc-raw" },
    ], t);
  }

  function update(): void {
    about.textContent = `${chosen.label}: ${chosen.about}.`;
    const raw = series("raw");
    const right = series("corrected");
    const ratios = right.map((value, i) => (value && raw[i] !== null ? (raw[i] as number) / value : null))
      .filter((value): value is number => value !== null && Number.isFinite(value));
    const biggest = ratios.length ? Math.max(...ratios) : NaN;
    stepCaption.textContent = `The step of ${chosen.label} at each of the first ${count} steps, in units of lr: `
      + "m̂ / (√v̂ + eps), which the update subtracts from the weight (a positive step moves it down)."
      + (Number.isFinite(biggest) ? ` Without the correction it is up to ${formatNumber(biggest, 2)} times as long.` : "");
    const withL = data!.losses.with;
    const withoutL = data!.losses.without;
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    // Each run's largest loss with its own step: they need not come at the same step.
    const largest = (xs: number[]): string => `${formatNumber(Math.max(...xs), 4)} (step ${xs.indexOf(Math.max(...xs)) + 1})`;
    lossCaption.textContent = `The loss of each step, measured in two runs of microgpt: the mean of the ${count} losses is `
      + `${formatNumber(mean(withL), 4)} with the correction and ${formatNumber(mean(withoutL), 4)} without; the largest, `
      + `${largest(withL)} with it and ${largest(withoutL)} without.`;
    key.querySelector<HTMLElement>(".bc-key-shifted")!.hidden = !mistake;
    draw();
  }

  update();
  stepper.go(0);
}

registerWidget("bias-correction", mountBiasCorrection);
