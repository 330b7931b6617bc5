// Explore widget "slope-plot" (module 4): a curve, a slider for x and a choice of nudge h. The
// rule's slope (for a chain of steps, the product of their rates) is drawn as the tangent; the
// slope measured by nudging is drawn as the line through the two nudged points. "Try a mistake"
// swaps in a classic slip, and the verdict says honestly whether the two numbers agree.

import { say } from "../live";
import { finiteOr, formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup } from "./shared/controls";
import { isOp, opRate, opValue, power, type Op } from "./shared/ops";
import "./shared/plot.css";
import "./slope-plot.css";

type Mistake = "none" | "one-sided" | "half-run" | "no-restore" | "wrong-rule" | "add-rates";

interface Step { op: Op; k: number }
interface Range { min: number; max: number; step: number; start: number }
interface Curve { label: string; steps: Step[]; range: Range; rule: string | null }

const MISTAKE_TEXT: Record<Exclude<Mistake, "none">, string> = {
  "one-sided": "One-sided nudge: (f(x + h) − f(x)) / h",
  "half-run": "Divide by h instead of 2h",
  "no-restore": "Forget to put x back after nudging",
  "wrong-rule": "A wrong rule: log x as log's slope, x as exp's",
  "add-rates": "Add the chain's rates instead of multiplying",
};
const AGREE = 1e-4; // the same tolerance as the Python side (slope_plot.py)
const NAMES = ["x", "u", "v", "w", "z"];

function parseRange(raw: unknown, fallback: Range): Range {
  const fields = record(raw);
  const min = finiteOr(fields.min, fallback.min);
  const max = finiteOr(fields.max, fallback.max);
  if (!(min < max)) return fallback;
  const step = finiteOr(fields.step, fallback.step) > 0 ? finiteOr(fields.step, fallback.step) : (max - min) / 100;
  const start = Math.min(max, Math.max(min, finiteOr(fields.start, (min + max) / 2)));
  return { min, max, step, start };
}

function parseCurves(params: Params): Curve[] {
  const shared = parseRange(params.x, { min: -2, max: 3, step: 0.05, start: 1 });
  const curves: Curve[] = [];
  for (const item of Array.isArray(params.functions) ? params.functions : []) {
    const fields = record(item);
    const steps: Step[] = [];
    for (const raw of Array.isArray(fields.steps) ? fields.steps : []) {
      const step = record(raw);
      const op = step.op;
      if (!isOp(op)) continue;
      steps.push({ op, k: op === "pow" ? finiteOr(step.n, 2) : finiteOr(step.c, 1) });
    }
    if (steps.length === 0) continue;
    const label = typeof fields.label === "string" ? fields.label : "f(x)";
    const rule = textOr(fields.rule, null);
    curves.push({ label, steps, range: fields.x ? parseRange(fields.x, shared) : shared, rule });
  }
  return curves;
}

// ---- The mathematics: every number shown is computed here ----------------------------------

function stepValue(step: Step, x: number): number {
  return opValue(step.op, x, step.k);
}

/** How fast a step's output moves when its input moves: the rule, or the classic wrong one. */
function stepRate(step: Step, x: number, wrong: boolean): number {
  if (!wrong) return opRate(step.op, x, step.k);
  switch (step.op) {
    case "add": return 1; // add and mul have no classic wrong rule here
    case "mul": return step.k;
    case "pow": return Math.pow(x, step.k - 1);
    case "log": return x > 0 ? Math.log(x) : Number.NaN;
    case "exp": return x;
    case "relu": return Math.max(0, x);
  }
}

function curveValue(curve: Curve, x: number): number {
  return curve.steps.reduce((value, step) => stepValue(step, value), x);
}

interface Link { input: number; output: number; rate: number }

/** Each step's input, output and rate at x. */
function links(curve: Curve, x: number, wrong: boolean): Link[] {
  const result: Link[] = [];
  let input = x;
  for (const step of curve.steps) {
    const output = stepValue(step, input);
    result.push({ input, output, rate: stepRate(step, input, wrong) });
    input = output;
  }
  return result;
}

function ruleSlope(curve: Curve, x: number, mistake: Mistake): number {
  const rates = links(curve, x, mistake === "wrong-rule").map((link) => link.rate);
  return mistake === "add-rates" ? rates.reduce((a, b) => a + b, 0) : rates.reduce((a, b) => a * b, 1);
}

interface Measured { left: number; right: number; fLeft: number; fRight: number; run: number; slope: number }

function measure(curve: Curve, x: number, nudge: number, mistake: Mistake): Measured {
  const left = mistake === "one-sided" ? x : x - nudge;
  const right = x + nudge;
  const fLeft = curveValue(curve, left);
  const fRight = curveValue(curve, right);
  const run = mistake === "half-run" || mistake === "one-sided" ? nudge : 2 * nudge;
  return { left, right, fLeft, fRight, run, slope: (fRight - fLeft) / run };
}

function agrees(rule: number, nudged: number): boolean {
  return Math.abs(rule - nudged) <= AGREE * Math.max(1, Math.abs(rule));
}

/** Up to 10 significant digits, for heights that differ only far after the decimal point. */
function precise(x: number): string {
  if (!Number.isFinite(x)) return formatNumber(x);
  return Number(x.toPrecision(10)).toString().replace("-", "−");
}

/** f(x + h) and f(x − h) with just enough digits (10 at least) that subtracting the two numbers
 *  shown and dividing by the run gives the slope shown: at a tiny h they differ only in their
 *  last digits, and rounded alike they would make the arithmetic on screen wrong. */
function heightsText(m: Measured): [string, string] {
  if (!defined(m.fRight) || !defined(m.fLeft)) return [precise(m.fRight), precise(m.fLeft)];
  const slope = formatNumber(m.slope);
  for (let digits = 10; digits < 17; digits += 1) {
    const right = Number(m.fRight.toPrecision(digits));
    const left = Number(m.fLeft.toPrecision(digits));
    if (formatNumber((right - left) / m.run) === slope) return [minus(right), minus(left)];
  }
  return [minus(m.fRight), minus(m.fLeft)]; // every digit a float has: exactly the division made
}

function minus(x: number): string {
  return String(x).replace("-", "−");
}

function hText(nudge: number): string {
  return nudge >= 1e-5 ? precise(nudge) : nudge.toExponential(0).replace("-", "−");
}

function defined(x: number): boolean {
  return Number.isFinite(x);
}

// ---- Words for the rule ------------------------------------------------------------------

function stepText(step: Step, name: string): string {
  const k = formatNumber(step.k);
  switch (step.op) {
    case "add": return step.k < 0 ? `${name} − ${formatNumber(-step.k)}` : `${name} + ${k}`;
    case "mul": return `${k} · ${name}`;
    case "pow": return power(name, step.k);
    case "log": return `log ${name}`;
    case "exp": return `e^${name}`;
    case "relu": return `relu(${name})`;
  }
}

function rateText(step: Step, name: string, wrong: boolean): string {
  const k = formatNumber(step.k);
  switch (step.op) {
    case "add": return "1";
    case "mul": return k;
    case "pow": return wrong ? `${power(name, step.k - 1)} (n missing: wrong)`
      : step.k === 1 ? "1" : `${k} · ${power(name, step.k - 1)}`;
    case "log": return wrong ? `log ${name} (wrong)` : `1 / ${name}`;
    case "exp": return wrong ? `${name} (wrong)` : `e^${name}`;
    case "relu": return wrong ? `relu(${name}) (its output: wrong)` : `1 if ${name} > 0, else 0`;
  }
}

// ---- The plot ----------------------------------------------------------------------------

const W = 320;
const H = 220;
const PAD = { left: 40, right: 12, top: 12, bottom: 26 };
const SAMPLES = 240;

function yRange(values: number[]): [number, number] {
  const sorted = values.filter(defined).sort((p, q) => p - q);
  if (sorted.length === 0) return [-1, 1];
  const low = Math.min(sorted[0], 0);
  const high = Math.max(sorted[sorted.length - 1], 0);
  const span = high - low < 1e-9 ? 2 : high - low;
  return [low - span * 0.08, high + span * 0.08];
}

interface Plot {
  element: SVGElement;
  /** The x range drawn: the slider's, widened by the largest nudge so both nudged points show. */
  widen: number;
  draw(curve: Curve, x: number, home: number, rule: number, m: Measured): void;
}

function makePlot(titleId: string): Plot {
  const clipId = uniqueId("sp-clip");
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "kit-plot kit-curve-plot", role: "img", "aria-labelledby": titleId });
  const inner = { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom };
  root.append(svg("defs", {}, svg("clipPath", { id: clipId }, svg("rect", inner))));
  const axes = svg("g", { class: "sp-axes" });
  const clipped = { "clip-path": `url(#${clipId})` };
  const curvePath = svg("path", { class: "kit-curve", ...clipped });
  const secant = svg("line", { class: "sp-secant", ...clipped });
  const tangent = svg("line", { class: "sp-tangent", ...clipped });
  const home = svg("circle", { class: "sp-home", r: 5 });
  const left = svg("circle", { class: "sp-point", r: 3.5 });
  const right = svg("circle", { class: "sp-point", r: 3.5 });
  const dot = svg("circle", { class: "kit-curve-dot", r: 4.5 });
  root.append(axes, curvePath, secant, tangent, home, left, right, dot);

  let drawn: Curve | null = null;
  let range: Range = { min: 0, max: 1, step: 0.1, start: 0 };
  let yLow = -1;
  let yHigh = 1;
  const px = (x: number): number => inner.x + ((x - range.min) / (range.max - range.min)) * inner.width;
  const py = (y: number): number => inner.y + ((yHigh - y) / (yHigh - yLow)) * inner.height;
  const r = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : "0");
  const clampY = (y: number): number => Math.min(yHigh + (yHigh - yLow), Math.max(yLow - (yHigh - yLow), y));

  function drawCurve(curve: Curve): void {
    range = { ...curve.range, min: curve.range.min - plot.widen, max: curve.range.max + plot.widen };
    const xs = Array.from({ length: SAMPLES + 1 }, (_, i) => range.min + ((range.max - range.min) * i) / SAMPLES);
    const ys = xs.map((x) => curveValue(curve, x));
    [yLow, yHigh] = yRange(ys);
    let d = "";
    let pen = false;
    xs.forEach((x, i) => {
      if (!defined(ys[i])) { pen = false; return; }
      d += `${pen ? "L" : "M"}${r(px(x))} ${r(py(clampY(ys[i])))}`;
      pen = true;
    });
    curvePath.setAttribute("d", d);
    axes.replaceChildren(svg("rect", { class: "kit-curve-frame", ...inner }));
    if (yLow < 0 && yHigh > 0) axes.append(svg("line", { class: "kit-curve-zero", x1: inner.x, x2: inner.x + inner.width, y1: r(py(0)), y2: r(py(0)) }));
    if (range.min < 0 && range.max > 0) axes.append(svg("line", { class: "kit-curve-zero", x1: r(px(0)), x2: r(px(0)), y1: inner.y, y2: inner.y + inner.height }));
    const bottom = inner.y + inner.height;
    // Ticks at the ends of the slider's range (the plot runs a largest nudge beyond them).
    axes.append(
      svg("line", { class: "kit-curve-zero", x1: r(px(curve.range.min)), x2: r(px(curve.range.min)), y1: bottom, y2: bottom + 4 }),
      svg("line", { class: "kit-curve-zero", x1: r(px(curve.range.max)), x2: r(px(curve.range.max)), y1: bottom, y2: bottom + 4 }),
      svg("text", { class: "kit-curve-tick", x: r(px(curve.range.min)), y: bottom + 17, "text-anchor": "middle" }, formatNumber(curve.range.min, 2)),
      svg("text", { class: "kit-curve-tick", x: r(px(curve.range.max)), y: bottom + 17, "text-anchor": "middle" }, formatNumber(curve.range.max, 2)),
      svg("text", { class: "kit-curve-tick", x: inner.x - 5, y: r(py(yHigh) + 10), "text-anchor": "end" }, formatNumber(yHigh, 1)),
      svg("text", { class: "kit-curve-tick", x: inner.x - 5, y: r(py(yLow) - 2), "text-anchor": "end" }, formatNumber(yLow, 1)),
    );
  }

  function line(element: SVGElement, x0: number, y0: number, slope: number): void {
    // From one edge of the plot to the other; the clip path cuts what leaves the frame.
    const y1 = y0 + slope * (range.min - x0);
    const y2 = y0 + slope * (range.max - x0);
    const visible = defined(y1) && defined(y2);
    element.toggleAttribute("hidden", !visible);
    if (!visible) return;
    element.setAttribute("x1", r(px(range.min)));
    element.setAttribute("x2", r(px(range.max)));
    element.setAttribute("y1", r(py(y1)));
    element.setAttribute("y2", r(py(y2)));
  }

  function point(element: SVGElement, x: number, y: number): void {
    const visible = defined(y) && x >= range.min - 1e-9 && x <= range.max + 1e-9;
    element.toggleAttribute("hidden", !visible);
    if (!visible) return;
    element.setAttribute("cx", r(px(x)));
    element.setAttribute("cy", r(py(Math.min(yHigh, Math.max(yLow, y)))));
  }

  const plot: Plot = {
    element: root,
    widen: 0,
    draw(curve, x, homeX, rule, m) {
      if (curve !== drawn) { drawCurve(curve); drawn = curve; }
      const fx = curveValue(curve, x);
      line(tangent, homeX, curveValue(curve, homeX), rule);
      line(secant, m.left, m.fLeft, m.slope);
      point(left, m.left, m.fLeft);
      point(right, m.right, m.fRight);
      point(dot, x, fx);
      point(home, homeX, homeX === x ? Number.NaN : curveValue(curve, homeX));
    },
  };
  return plot;
}

// ---- The widget --------------------------------------------------------------------------

interface State {
  home: number; x: number; nudge: number; drift: number; fx: number; rule: number; slope: number;
  /** An h of the menu that measures this slope well, larger or smaller as the advice needs. */
  larger: number | null; smaller: number | null;
}

const SWEET_H = 1e-4; // central differences: big enough for rounding, small enough for the bend

/** Of the menu's h that measure the rule's slope here (with no mistake), the one nearest SWEET_H
 *  among those larger (or smaller) than `nudge`; null when none does. */
function menuH(curve: Curve, home: number, rule: number, choices: number[], nudge: number, larger: boolean): number | null {
  const fits = choices.filter((h) => (larger ? h > nudge : h < nudge)
    && agrees(rule, measure(curve, home, h, "none").slope));
  const distance = (h: number): number => Math.abs(Math.log10(h / SWEET_H));
  let best: number | null = null;
  for (const h of fits) {
    if (best === null || distance(h) < distance(best) - 1e-9 || (Math.abs(distance(h) - distance(best)) <= 1e-9 && h > best)) best = h;
  }
  return best;
}

/** What the numbers mean, in one or two sentences; it says "agree" only when they do. */
function verdictText(curve: Curve, mistake: Mistake, ok: boolean, s: State): string {
  if (!defined(s.fx) || !defined(s.slope) || !defined(s.rule)) {
    return "The curve is undefined here, or a nudge away from here: move x or make h smaller.";
  }
  if (mistake === "no-restore") {
    if (s.drift === 0) {
      return `Measured at x = ${formatNumber(s.home)}, but x was never put back: it is left at x − h = ${precise(s.home - s.nudge)}. Press Measure again.`;
    }
    return `x should be ${formatNumber(s.home)}, but ${s.drift} forgotten put-back${s.drift === 1 ? "" : "s"} left it at ${precise(s.x)}: this slope is measured in the wrong place.`;
  }
  const relu = curve.steps.some((step) => step.op === "relu");
  if (relu && Math.abs(s.home) <= s.nudge) {
    return "x sits on relu's corner: the nudge straddles the flat side and the rising side, and averages their slopes, while the rule takes the flat side's 0.";
  }
  const straight = curve.steps.every((step) => step.op === "add" || step.op === "mul");
  if (ok) {
    if (mistake === "half-run") return "They agree only because the slope is 0 here; anywhere else the nudged slope is twice the rule's.";
    if (mistake === "wrong-rule" || mistake === "add-rates") return "The wrong rule happens to give the right number at this one x: move x and they part.";
    if (mistake === "one-sided") {
      return straight ? "On a straight line even a one-sided nudge is exact. Try a curve."
        : "At this h the one-sided error is too small to show: pick a larger h and watch it grow.";
    }
    return "The rule and the nudge agree.";
  }
  switch (mistake) {
    case "half-run": return "Dividing by h instead of 2h doubles the measured slope: the two points are 2h apart, not h.";
    case "one-sided": return "A one-sided nudge measures the slope between x and x + h, a little to the right of x: it is off by about h times how fast the slope changes. Two sides cancel that.";
    case "wrong-rule": return "The wrong rule's tangent misses the curve: nudging measures a different slope.";
    case "add-rates": return "Adding the rates gives a different number from nudging: along a chain, rates multiply.";
    default:
      if (s.nudge <= 1e-9) {
        return "h is so tiny that f(x + h) and f(x − h) share almost every digit a float keeps: their difference is mostly rounding noise. " +
          (s.larger === null ? "Use a larger h." : `Use a larger h, such as ${hText(s.larger)}.`);
      }
      return "The curve bends within ±h, so the line through the two nudged points is not the tangent yet: " +
        (s.smaller === null ? "make h smaller." : `make h smaller, such as ${hText(s.smaller)}.`);
  }
}

function decimalsOf(step: number): number {
  const text = String(Number(step.toPrecision(12)));
  return text.includes(".") ? text.length - text.indexOf(".") - 1 : 0;
}

function mountSlopePlot(root: HTMLElement, params: Params): void {
  const curves = parseCurves(params);
  if (curves.length === 0) {
    root.append(h("p", {}, "This widget has no curves to show."));
    return;
  }
  const hFields = record(params.h);
  const choices = (Array.isArray(hFields.choices) ? hFields.choices : [0.001])
    .filter((c): c is number => typeof c === "number" && c > 0);
  const mistakes = (Array.isArray(params.mistakes) ? params.mistakes : [])
    .filter((m): m is Exclude<Mistake, "none"> => typeof m === "string" && m in MISTAKE_TEXT);
  let curve = curves[0];
  let mistake: Mistake = "none";
  let drift = 0; // measurements made without putting x back (the no-restore mistake)

  const titleId = uniqueId("sp-title");
  const sliderId = uniqueId("sp-x");
  const hId = uniqueId("sp-h");

  const controls = h("div", { class: "kit-settings" });
  if (curves.length > 1) {
    controls.append(choiceGroup({
      legend: "Curve y = f(x)", name: "sp-f", groupClass: "kit-picker sp-picker",
      choices: curves.map((c) => ({ label: [h("span", {}, c.label)] })),
      onPick: (index) => {
        curve = curves[index];
        setRange();
        update(true);
      },
    }));
  }

  // A fixed name (not the label, which shows the value too); the value is said by aria-valuetext.
  const slider = h("input", { type: "range", id: sliderId, "aria-label": "x" });
  const xOut = h("output", { "data-readout": "x", for: sliderId, class: "sp-mono" });
  const ends = h("span", { class: "kit-ends", "aria-hidden": "true" });
  slider.addEventListener("input", () => update(true));
  const select = h("select", { id: hId, "data-control": "h", class: "kit-input" });
  for (const choice of choices) {
    select.append(h("option", { value: String(choice), selected: choice === finiteOr(hFields.start, choices[0]) }, hText(choice)));
  }
  select.addEventListener("change", () => update(true));
  controls.append(
    h("div", { class: "kit-slider" }, h("label", { for: sliderId }, "x = ", xOut), slider, ends),
    h("div", { class: "sp-nudge" }, h("label", { for: hId }, "nudge h"), select),
  );

  if (mistakes.length > 0) {
    const options: [Mistake, string][] = [["none", "No mistake"], ...mistakes.map((m): [Mistake, string] => [m, MISTAKE_TEXT[m]])];
    controls.append(choiceGroup({
      legend: "Try a mistake", name: "sp-m", groupClass: "kit-picker sp-picker sp-mistakes",
      choices: options.map(([value, text]) => ({ label: [h("span", {}, text)], value })),
      onPick: (index) => {
        mistake = options[index][0];
        update(true);
      },
    }));
  }

  const again = h("button", { type: "button", class: "secondary", hidden: true }, "Measure again");
  again.addEventListener("click", () => { drift += 1; update(false); });

  const readout = (key: string): HTMLElement => h("span", { "data-readout": key, class: "kit-number" });
  const valueOut = readout("value");
  const ruleOut = readout("rule");
  const nudgeOut = readout("nudge");
  const gapOut = readout("gap");
  const ruleHow = h("span", { class: "kit-how sp-how" });
  const nudgeHow = h("span", { class: "kit-how sp-how" });
  const fLabel = h("span", {});
  const verdict = h("p", { class: "kit-verdict sp-verdict", "data-readout": "verdict", role: "status" });
  const numbers = h("dl", { class: "kit-readout" },
    h("div", {}, h("dt", {}, fLabel), h("dd", {}, valueOut)),
    h("div", { class: "kit-mark" }, h("dt", {}, "the rule's slope (tangent)"), h("dd", {}, ruleOut, ruleHow)),
    h("div", { class: "kit-mark sp-measured" }, h("dt", {}, "the slope measured by nudging"), h("dd", {}, nudgeOut, nudgeHow)),
    h("div", {}, h("dt", {}, "difference"), h("dd", {}, gapOut)),
  );
  const plot = makePlot(titleId);
  plot.widen = Math.max(...choices);
  const title = h("p", { id: titleId, class: "sp-title" });
  const figure = h("figure", { class: "kit-figure" }, plot.element, h("figcaption", {}, title,
    h("span", { class: "sp-key" },
      h("span", { class: "sp-key-item" }, h("span", { class: "sp-key-tangent", "aria-hidden": "true" }), "the rule's slope (tangent)"),
      h("span", { class: "sp-key-item" }, h("span", { class: "sp-key-secant", "aria-hidden": "true" }), "the measured slope, through the nudged points"))));
  root.append(h("div", { class: "sp" }, controls,
    h("div", { class: "kit-columns" }, figure, h("div", {}, numbers, verdict, again))));

  function setRange(): void {
    const { min, max, step, start } = curve.range;
    slider.min = String(min);
    slider.max = String(max);
    slider.step = String(step);
    slider.value = String(start);
    ends.textContent = `${formatNumber(min)} … ${formatNumber(max)}`;
  }

  function set(element: HTMLElement, x: number, text?: string): void {
    element.textContent = text ?? (defined(x) ? formatNumber(x) : "undefined here");
    element.dataset.value = defined(x) ? String(x) : "";
  }

  function update(resetDrift: boolean): void {
    if (resetDrift) drift = 0;
    const raw = Number(slider.value);
    const home = Number((Number.isFinite(raw) ? raw : curve.range.start).toFixed(decimalsOf(curve.range.step)));
    const nudge = Number(select.value) || choices[0];
    const x = mistake === "no-restore" ? home - drift * nudge : home;
    // The rule answers the question asked, at home; a drifted measurement answers another one.
    const rule = ruleSlope(curve, home, mistake);
    const m = measure(curve, x, nudge, mistake);
    const fx = curveValue(curve, x);

    xOut.textContent = formatNumber(home);
    xOut.dataset.value = String(home);
    slider.setAttribute("aria-valuetext", formatNumber(home));
    fLabel.textContent = `f(x) = ${curve.label}`;
    set(valueOut, fx);
    set(ruleOut, rule);
    set(nudgeOut, m.slope);
    const gap = Math.abs(rule - m.slope);
    set(gapOut, gap, !defined(gap) ? "undefined here" : gap === 0 ? "0"
      : gap < 1e-6 ? "less than 0.000001" : precise(gap));

    const wrong = mistake === "wrong-rule";
    const parts = links(curve, home, wrong);
    if (curve.rule !== null && mistake !== "wrong-rule" && mistake !== "add-rates") {
      ruleHow.replaceChildren(`rule: ${curve.rule}, at x = ${formatNumber(home)}: ${formatNumber(rule)}`);
    } else if (curve.steps.length === 1) {
      ruleHow.replaceChildren(`rule: ${rateText(curve.steps[0], "x", wrong)}, at x = ${formatNumber(home)}: ${formatNumber(rule)}`);
    } else {
      const rows = parts.map((link, i) => h("li", {},
        `${NAMES[i + 1] && i < parts.length - 1 ? NAMES[i + 1] : "y"} = ${stepText(curve.steps[i], NAMES[i])} = ${formatNumber(link.output)}: rate ${rateText(curve.steps[i], NAMES[i], wrong)} = ${formatNumber(link.rate)}`));
      const joined = parts.map((link) => formatNumber(link.rate)).join(mistake === "add-rates" ? " + " : " × ");
      ruleHow.replaceChildren(h("ol", { class: "sp-chain" }, ...rows),
        `${mistake === "add-rates" ? "added (wrong)" : "multiplied"}: ${joined} = ${formatNumber(rule)}`);
    }
    const fraction = m.run === nudge ? "h" : "2h";
    const leftName = mistake === "one-sided" ? "f(x)" : "f(x − h)";
    const [right, left] = heightsText(m);
    nudgeHow.textContent = `(f(x + h) − ${leftName}) / ${fraction} = (${right} − ${left}) / ${precise(m.run)}`;

    const ok = defined(rule) && defined(m.slope) && agrees(rule, m.slope);
    const advice = mistake === "none" && !ok;
    say(verdict, verdictText(curve, mistake, ok, {
      home, x, nudge, drift, fx, rule, slope: m.slope,
      larger: advice ? menuH(curve, home, rule, choices, nudge, true) : null,
      smaller: advice ? menuH(curve, home, rule, choices, nudge, false) : null,
    }));
    verdict.dataset.tone = ok && mistake === "none" ? "good" : "warn";
    again.hidden = mistake !== "no-restore";
    title.textContent = `${curve.label} from x = ${formatNumber(curve.range.min)} to ${formatNumber(curve.range.max)}: the tangent at x = ${formatNumber(home)} has slope ${formatNumber(rule)}; nudging by h = ${hText(nudge)} measures ${formatNumber(m.slope)}.`;
    plot.draw(curve, x, home, rule, m);
  }

  setRange();
  update(true);
}

registerWidget("slope-plot", mountSlopePlot);
