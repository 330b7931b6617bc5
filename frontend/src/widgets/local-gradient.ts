// Explore widget "local-gradient" (lesson 7.4): pick one operation of Value, drag x, and compare
// the local gradient its rule gives with the slope measured by nudging x a little either way.

import { finiteOr, formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup } from "./shared/controls";
import { isOp, opRate, opValue, type Op } from "./shared/ops";
import "./shared/plot.css";
import "./local-gradient.css";

interface Operation {
  op: Op;
  /** The constant of add and mul, or the exponent of pow. */
  k: number;
  label: string;
}

/** One row of the rule's explanation: the general rule, then the same with this x put in. */
interface Worked {
  general: (Node | string)[];
  filled: (Node | string)[];
}

/** A number as Python code would spell it (plain ASCII minus), for generated labels. */
function codeNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(12)));
}

function defaultLabel(op: Op, k: number): string {
  switch (op) {
    case "add": return `x + ${codeNumber(k)}`;
    case "mul": return `x * ${codeNumber(k)}`;
    case "pow": return `x ** ${codeNumber(k)}`;
    case "log": return "x.log()";
    case "exp": return "x.exp()";
    case "relu": return "x.relu()";
  }
}

function parseOperations(raw: unknown): Operation[] {
  const list = Array.isArray(raw) ? raw : [];
  const operations: Operation[] = [];
  for (const item of list) {
    const fields = record(item);
    if (!isOp(fields.op)) continue;
    const op = fields.op;
    const k = op === "pow" ? finiteOr(fields.n, 2) : finiteOr(fields.c, op === "mul" ? 2 : 1);
    const label = textOr(fields.label, defaultLabel(op, k));
    operations.push({ op, k, label });
  }
  return operations;
}

/** f(x) for an operation; NaN or ±∞ where it is not defined. */
function value(operation: Operation, x: number): number {
  return opValue(operation.op, x, operation.k);
}

/** The local gradient as the operation's rule states it. */
function ruleGradient(operation: Operation, x: number): number {
  return opRate(operation.op, x, operation.k);
}

/** The slope measured by nudging: (f(x + h) − f(x − h)) / 2h. */
function nudgeSlope(operation: Operation, x: number, step: number): number {
  const up = value(operation, x + step);
  const down = value(operation, x - step);
  return (up - down) / (2 * step);
}

/** The agreement the verdict asks for: a relative 1e-4, as a beginner reads 4 decimals. */
function agrees(rule: number, slope: number): boolean {
  return Math.abs(rule - slope) < 1e-4 * Math.max(1, Math.abs(rule));
}

/**
 * The nudge to measure with: the lesson's h, or a tenth of it (and so on, down to 1e-7) where the
 * curve bends so sharply that ±h straddles too much of the bend (log near 0, say). Nudging can
 * always get as close as we like by nudging less, so the widget never reports a disagreement that
 * only a coarse h made. On relu's kink no h helps: that one stays as it is.
 */
function nudgeFor(operation: Operation, x: number, h: number): number {
  const rule = ruleGradient(operation, x);
  if (!defined(rule) || (operation.op === "relu" && Math.abs(x) < h)) return h;
  for (let step = h; step >= 1e-7; step /= 10) {
    if (agrees(rule, nudgeSlope(operation, x, step))) return step;
  }
  return h;
}

function defined(x: number): boolean {
  return Number.isFinite(x);
}

function shown(x: number): string {
  return defined(x) ? formatNumber(x) : "undefined here";
}

function sup(text: string): HTMLElement {
  return h("sup", {}, text);
}

function worked(operation: Operation, x: number): Worked {
  const { op, k } = operation;
  const xs = formatNumber(x);
  // A negative base goes in brackets, so −1.2² is not read as −(1.2²).
  const base = x < 0 ? `(${xs})` : xs;
  const ks = formatNumber(k);
  const g = ruleGradient(operation, x);
  const result = shown(g);
  switch (op) {
    case "add":
      return { general: ["1"], filled: [`1 (the constant ${ks} does not change how fast x + c moves)`] };
    case "mul":
      return { general: ["c"], filled: [`c = ${ks}`] };
    case "pow":
      return {
        general: ["n · x", sup("n−1")],
        filled: [`${ks} · ${base}`, sup(formatNumber(k - 1)), ` = ${result}`],
      };
    case "log":
      return { general: ["1 / x"], filled: [x > 0 ? `1 / ${xs} = ${result}` : `log needs x > 0: ${result}`] };
    case "exp":
      return { general: ["e", sup("x")], filled: ["e", sup(xs), ` = ${result}`] };
    case "relu":
      return {
        general: ["1 if x > 0 else 0"],
        filled: [x > 0 ? `${xs} > 0, so 1` : `${xs} is not > 0, so 0`],
      };
  }
}

interface Range {
  min: number;
  max: number;
  step: number;
  start: number;
}

function parseRange(raw: unknown): Range {
  const fields = record(raw);
  let min = finiteOr(fields.min, -2);
  let max = finiteOr(fields.max, 3);
  if (!(min < max)) [min, max] = [-2, 3];
  let step = finiteOr(fields.step, 0.05);
  if (!(step > 0)) step = (max - min) / 100;
  const start = Math.min(max, Math.max(min, finiteOr(fields.start, (min + max) / 2)));
  return { min, max, step, start };
}

// ---- The plot -------------------------------------------------------------------------------

const W = 320;
const H = 220;
const PAD = { left: 40, right: 12, top: 12, bottom: 26 };
const SAMPLES = 240;

interface Plot {
  element: SVGElement;
  /** Redraw for an operation (curve, axes), then the tangent and dot at x. */
  show(operation: Operation, x: number): void;
}

/** The y range to draw f in: all its finite values, unless a few near a pole would crush the rest. */
function yRange(values: number[]): [number, number] {
  const sorted = values.filter(defined).sort((p, q) => p - q);
  if (sorted.length === 0) return [-1, 1];
  let low = sorted[0];
  let high = sorted[sorted.length - 1];
  const pick = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const inner = pick(0.9) - pick(0.1);
  if (inner > 0 && high - low > 20 * inner) [low, high] = [pick(0.03), pick(0.97)];
  low = Math.min(low, 0);
  high = Math.max(high, 0);
  if (high - low < 1e-9) [low, high] = [low - 1, high + 1];
  const pad = (high - low) * 0.08;
  return [low - pad, high + pad];
}

function makePlot(range: Range, titleId: string): Plot {
  const clipId = uniqueId("lg-clip");
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "kit-plot kit-curve-plot", role: "img", "aria-labelledby": titleId,
  });
  const defs = svg("defs", {}, svg("clipPath", { id: clipId },
    svg("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom })));
  const axes = svg("g", { class: "lg-axes" });
  const curve = svg("path", { class: "kit-curve", "clip-path": `url(#${clipId})` });
  const tangent = svg("line", { class: "lg-tangent", "clip-path": `url(#${clipId})` });
  const dot = svg("circle", { class: "kit-curve-dot", r: 4.5 });
  const note = svg("text", { class: "lg-plot-note", x: (PAD.left + W - PAD.right) / 2, y: PAD.top + 16, "text-anchor": "middle" });
  root.append(defs, axes, curve, tangent, dot, note);

  let current: Operation | null = null;
  let yLow = -1;
  let yHigh = 1;
  const px = (x: number): number => PAD.left + ((x - range.min) / (range.max - range.min)) * (W - PAD.left - PAD.right);
  const py = (y: number): number => PAD.top + ((yHigh - y) / (yHigh - yLow)) * (H - PAD.top - PAD.bottom);
  const r = (n: number): string => n.toFixed(2);

  function drawCurve(operation: Operation): void {
    const xs: number[] = [];
    for (let i = 0; i <= SAMPLES; i += 1) xs.push(range.min + ((range.max - range.min) * i) / SAMPLES);
    const ys = xs.map((x) => value(operation, x));
    [yLow, yHigh] = yRange(ys);
    // Keep the pen inside a band a little wider than the plot, so steep parts stay drawable.
    const span = yHigh - yLow;
    let d = "";
    let pen = false;
    xs.forEach((x, i) => {
      const y = ys[i];
      if (!defined(y)) { pen = false; return; }
      const clamped = Math.min(yHigh + span, Math.max(yLow - span, y));
      d += `${pen ? "L" : "M"}${r(px(x))} ${r(py(clamped))}`;
      pen = true;
    });
    curve.setAttribute("d", d);

    axes.replaceChildren();
    const left = PAD.left;
    const right = W - PAD.right;
    const top = PAD.top;
    const bottom = H - PAD.bottom;
    axes.append(svg("rect", { class: "kit-curve-frame", x: left, y: top, width: right - left, height: bottom - top }));
    if (yLow < 0 && yHigh > 0) axes.append(svg("line", { class: "kit-curve-zero", x1: left, x2: right, y1: r(py(0)), y2: r(py(0)) }));
    if (range.min < 0 && range.max > 0) axes.append(svg("line", { class: "kit-curve-zero", x1: r(px(0)), x2: r(px(0)), y1: top, y2: bottom }));
    const xTicks = [range.min, range.max];
    if (range.min < 0 && range.max > 0) xTicks.splice(1, 0, 0);
    for (const tick of xTicks) {
      const anchor = tick === range.min ? "start" : tick === range.max ? "end" : "middle";
      axes.append(svg("text", { class: "kit-curve-tick", x: r(px(tick)), y: bottom + 17, "text-anchor": anchor }, formatNumber(tick, 2)));
    }
    for (const tick of [yLow, yHigh]) {
      axes.append(svg("text", { class: "kit-curve-tick", x: left - 5, y: r(py(tick) + (tick === yHigh ? 10 : -2)), "text-anchor": "end" },
        formatNumber(tick, 1)));
    }
  }

  return {
    element: root,
    show(operation: Operation, x: number): void {
      if (operation !== current) {
        drawCurve(operation);
        current = operation;
      }
      const fx = value(operation, x);
      const slope = ruleGradient(operation, x);
      const visible = defined(fx) && defined(slope);
      for (const element of [tangent, dot]) element.toggleAttribute("hidden", !visible);
      note.textContent = visible ? "" : `f is undefined at x = ${formatNumber(x)}`;
      if (!visible) return;
      const x1 = range.min - (range.max - range.min);
      const x2 = range.max + (range.max - range.min);
      tangent.setAttribute("x1", r(px(x1)));
      tangent.setAttribute("x2", r(px(x2)));
      tangent.setAttribute("y1", r(py(fx + slope * (x1 - x))));
      tangent.setAttribute("y2", r(py(fx + slope * (x2 - x))));
      dot.setAttribute("cx", r(px(x)));
      dot.setAttribute("cy", r(py(Math.min(yHigh, Math.max(yLow, fx)))));
    },
  };
}

// ---- The widget -----------------------------------------------------------------------------

/** Decimal places enough to show every stop of the slider exactly. */
function decimalsOf(step: number): number {
  const text = codeNumber(step);
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

function mountLocalGradient(root: HTMLElement, params: Params): void {
  const operations = parseOperations(params.operations);
  if (operations.length === 0) {
    root.append(h("p", {}, "This widget has no operations to show."));
    return;
  }
  const range = parseRange(params.x);
  const nudge = typeof params.h === "number" && params.h > 0 && params.h < 1 ? params.h : 0.001;
  const decimals = decimalsOf(range.step);
  let selected = operations[0];

  const sliderId = uniqueId("lg-x");
  const titleId = uniqueId("lg-title");

  // Operation picker: one radio per operation.
  const picker = choiceGroup({
    legend: "Operation f(x)", name: "lg-op",
    choices: operations.map((operation) => ({ label: [h("code", {}, operation.label)] })),
    onPick: (index) => {
      selected = operations[index];
      update();
    },
  });

  // The x slider.
  // A fixed name (not the label, which shows the value too); the value is said by aria-valuetext.
  const slider = h("input", {
    type: "range", id: sliderId, min: range.min, max: range.max, step: range.step, value: range.start, "aria-label": "x",
  });
  const xOut = h("output", { "data-readout": "x", for: sliderId, class: "lg-x-value" });
  const sliderRow = h("div", { class: "kit-slider" },
    h("label", { for: sliderId }, "x = ", xOut), slider,
    h("span", { class: "kit-ends", "aria-hidden": "true" }, `${formatNumber(range.min)} … ${formatNumber(range.max)}`));
  slider.addEventListener("input", update);

  // Readouts.
  const valueOut = h("span", { "data-readout": "value", class: "kit-number" });
  const ruleOut = h("span", { "data-readout": "rule", class: "kit-number" });
  const nudgeOut = h("span", { "data-readout": "nudge", class: "kit-number" });
  const fLabel = h("code", {});
  const ruleGeneral = h("span", { class: "lg-formula" });
  const ruleFilled = h("span", { class: "lg-formula" });
  const nudgeFilled = h("span", { class: "lg-formula" });
  const hOut = h("span", { "data-readout": "h" });
  const hNote = h("span", { class: "lg-h-note" });
  const verdict = h("p", { class: "kit-verdict", "data-readout": "verdict" });

  const readout = h("dl", { class: "kit-readout lg-readout" },
    h("div", {}, h("dt", {}, "f(x) = ", fLabel), h("dd", {}, valueOut)),
    h("div", { class: "kit-mark" },
      h("dt", {}, "the rule's local gradient"),
      h("dd", {}, ruleOut, h("span", { class: "kit-how" }, "rule: ", ruleGeneral, h("br"), ruleFilled))),
    h("div", { class: "kit-mark lg-nudge" },
      h("dt", {}, "slope by nudging"),
      h("dd", {}, nudgeOut, h("span", { class: "kit-how" },
        "(f(x + h) − f(x − h)) / 2h, h = ", hOut, h("br"), nudgeFilled, hNote))),
  );

  const plot = makePlot(range, titleId);
  const plotTitle = h("p", { id: titleId, class: "lg-plot-title" });
  const figure = h("figure", { class: "kit-figure" }, plot.element, h("figcaption", {}, plotTitle,
    h("span", { class: "lg-key" },
      h("span", { class: "lg-key-curve", "aria-hidden": "true" }), "f(x) ",
      h("span", { class: "lg-key-tangent", "aria-hidden": "true" }), "tangent with the rule's slope")));

  const widget = h("div", { class: "lg" },
    h("div", { class: "kit-settings" }, picker, sliderRow),
    h("div", { class: "kit-columns" }, figure, h("div", { class: "lg-numbers" }, readout, verdict)),
  );
  root.append(widget);

  function currentX(): number {
    const raw = Number(slider.value);
    return Number.isFinite(raw) ? Number(raw.toFixed(decimals)) : range.start;
  }

  function setNumber(element: HTMLElement, x: number): void {
    element.textContent = shown(x);
    element.dataset.value = defined(x) ? String(x) : "";
    element.classList.toggle("lg-undefined", !defined(x));
  }

  function update(): void {
    const x = currentX();
    const fx = value(selected, x);
    const rule = ruleGradient(selected, x);
    const used = nudgeFor(selected, x, nudge);
    const slope = nudgeSlope(selected, x, used);

    xOut.textContent = formatNumber(x);
    xOut.dataset.value = String(x);
    slider.setAttribute("aria-valuetext", formatNumber(x));
    fLabel.textContent = selected.label;
    setNumber(valueOut, fx);
    // Where f itself is undefined, neither slope exists.
    setNumber(ruleOut, defined(fx) ? rule : Number.NaN);
    setNumber(nudgeOut, slope);

    const work = worked(selected, x);
    ruleGeneral.replaceChildren(...work.general);
    ruleFilled.replaceChildren(...(defined(fx) ? work.filled : ["undefined here"]));
    const up = value(selected, x + used);
    const down = value(selected, x - used);
    const digits = Math.max(6, Math.ceil(-Math.log10(used)) + 3);
    hOut.textContent = formatNumber(used, 8);
    hOut.dataset.value = String(used);
    nudgeFilled.replaceChildren(defined(slope)
      ? `(${formatNumber(up, digits)} − ${formatNumber(down, digits)}) / ${formatNumber(2 * used, 8)} = ${formatNumber(slope)}`
      : `f(x ± h) is undefined here`);
    hNote.textContent = used < nudge
      ? ` The curve bends sharply here, so h = ${formatNumber(nudge, 8)} was too coarse: the nudge shrank to ${formatNumber(used, 8)}.`
      : "";

    let text: string;
    let tone: "good" | "warn" | "none";
    if (!defined(fx) || !defined(rule) || !defined(slope)) {
      text = selected.op === "log" ? "log is only defined for x > 0: try a larger x." : "f is undefined at this x.";
      tone = "none";
    } else if (selected.op === "relu" && Math.abs(x) < nudge) {
      text = "x sits on relu's kink: the nudge straddles both sides and averages 0 and 1, while the rule says 0.";
      tone = "warn";
    } else {
      const gap = Math.abs(rule - slope);
      text = agrees(rule, slope)
        ? "The rule and the nudge agree."
        : `The rule and the nudge differ by ${formatNumber(gap, 6)}.`;
      tone = agrees(rule, slope) ? "good" : "warn";
    }
    verdict.textContent = text;
    verdict.dataset.tone = tone;

    plotTitle.textContent = defined(fx) && defined(rule)
      ? `${selected.label} from x = ${formatNumber(range.min)} to ${formatNumber(range.max)}, with the tangent at x = ${formatNumber(x)} (slope ${formatNumber(rule)}).`
      : `${selected.label} from x = ${formatNumber(range.min)} to ${formatNumber(range.max)}; undefined at x = ${formatNumber(x)}.`;
    plot.show(selected, x);
  }

  update();
}

registerWidget("local-gradient", mountLocalGradient);
