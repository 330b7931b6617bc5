// Explore widget "loss-surface" (module 10): plain SGD and Adam on the same surface,
// loss = a·x² + b·y², steep along x and flat along y. Sliders set SGD's learning rate, Adam's,
// β1 and β2; a switch lets the learning rate decay to 0 over the steps, as microgpt's does; the
// "try the mistake" toggle swaps in a classic slip of Adam's. Both paths are worked out here,
// step by step, with the very arithmetic of microgpt.py's update (its order of operations
// too), and drawn over the surface's contours; the step controls walk along them, and the
// readouts give both positions and every number of Adam's step at the step shown.

import { say } from "../live";
import { plural } from "../words";
import { finiteOr, formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { mistakeToggle, stepControls } from "./shared/controls";
import "./loss-surface.css";

type Mistake = "shared" | "no-sqrt" | "no-correction";

const MISTAKE_TEXT: Record<Mistake, string> = {
  shared: "Try one m and one v for both parameters",
  "no-sqrt": "Try v̂ without its square root",
  "no-correction": "Try m and v without their bias correction",
};
const EPS = 1e-8;
const BLOWN = 1e6; // a coordinate past this has left the picture for good: the path stops there

interface Stops { values: number[]; start: number }
interface Settings { sgdLr: number; adamLr: number; beta1: number; beta2: number; decay: boolean; mistake: boolean }

export interface Point { x: number; y: number; loss: number }
/** One of Adam's steps, per parameter (x first, then y): what microgpt.py's loop works out. */
export interface AdamStep { lr: number; g: number[]; m: number[]; v: number[]; mHat: number[]; vHat: number[]; move: number[] }

interface Surface { a: number; b: number }

function parseStops(raw: unknown, fallback: Stops): Stops {
  const fields = record(raw);
  const values = Array.isArray(fields.values) ? fields.values.filter((v): v is number => typeof v === "number" && Number.isFinite(v)) : [];
  if (values.length < 2) return fallback;
  const start = finiteOr(fields.start, values[0]);
  return { values, start: values.includes(start) ? start : values[0] };
}

function lossAt(s: Surface, x: number, y: number): number {
  return s.a * x ** 2 + s.b * y ** 2;
}

/** The slopes of the loss along x and along y. */
function gradient(s: Surface, x: number, y: number): number[] {
  return [2 * s.a * x, 2 * s.b * y];
}

function rate(lr: number, step: number, steps: number, decay: boolean): number {
  return decay ? lr * (1 - step / steps) : lr;
}

function blown(p: number[]): boolean {
  return !p.every((c) => Number.isFinite(c) && Math.abs(c) < BLOWN);
}

/** SGD: every parameter moves lr times its own gradient. */
export function sgdPath(s: Surface, start: number[], steps: number, lr: number, decay: boolean): Point[] {
  const p = [...start];
  const path: Point[] = [{ x: p[0], y: p[1], loss: lossAt(s, p[0], p[1]) }];
  for (let step = 0; step < steps && !blown(p); step += 1) {
    const g = gradient(s, p[0], p[1]);
    const lrT = rate(lr, step, steps, decay);
    for (let i = 0; i < 2; i += 1) p[i] -= lrT * g[i];
    path.push({ x: p[0], y: p[1], loss: lossAt(s, p[0], p[1]) });
  }
  return path;
}

/** Adam as microgpt.py's lines 170–175 do it, parameter by parameter; `mistake` swaps in one
 *  slip: one m and v for both parameters, no square root, or no bias correction. */
export function adamPath(s: Surface, start: number[], steps: number, o: Settings,
  mistake: Mistake | null): { points: Point[]; steps: AdamStep[] } {
  const p = [...start];
  const m = [0, 0];
  const v = [0, 0];
  const points: Point[] = [{ x: p[0], y: p[1], loss: lossAt(s, p[0], p[1]) }];
  const taken: AdamStep[] = [];
  for (let step = 0; step < steps && !blown(p); step += 1) {
    const g = gradient(s, p[0], p[1]);
    const lr = rate(o.adamLr, step, steps, o.decay);
    const seen: AdamStep = { lr, g, m: [], v: [], mHat: [], vHat: [], move: [] };
    for (let i = 0; i < 2; i += 1) {
      // The shared slip keeps one m and one v (slot 0) for every parameter, updated in turn.
      const slot = mistake === "shared" ? 0 : i;
      m[slot] = o.beta1 * m[slot] + (1 - o.beta1) * g[i];
      v[slot] = o.beta2 * v[slot] + (1 - o.beta2) * g[i] ** 2;
      const corrected = mistake !== "no-correction";
      const mHat = corrected ? m[slot] / (1 - o.beta1 ** (step + 1)) : m[slot];
      const vHat = corrected ? v[slot] / (1 - o.beta2 ** (step + 1)) : v[slot];
      const move = lr * mHat / ((mistake === "no-sqrt" ? vHat : vHat ** 0.5) + EPS);
      p[i] -= move;
      seen.m.push(m[slot]);
      seen.v.push(v[slot]);
      seen.mHat.push(mHat);
      seen.vHat.push(vHat);
      seen.move.push(move);
    }
    taken.push(seen);
    points.push({ x: p[0], y: p[1], loss: lossAt(s, p[0], p[1]) });
  }
  return { points, steps: taken };
}

// ---- The picture --------------------------------------------------------------------------

const W = 380;
const H = 250;
const PAD = { left: 34, right: 10, top: 10, bottom: 30 };

interface Picture {
  element: SVGElement;
  draw(sgd: Point[], adam: Point[], at: number): void;
}

/** y (the flat direction) across, x (the steep one) up: contours are long, narrow ellipses. */
function makePicture(s: Surface, start: number[], labelId: string): Picture {
  const yMax = Math.max(Math.abs(start[1]) * 1.15, 0.5);
  const xMax = Math.max(Math.abs(start[0]) * 1.35, 0.5);
  const sx = (W - PAD.left - PAD.right) / (2 * yMax);
  const sy = (H - PAD.top - PAD.bottom) / (2 * xMax);
  const cx = PAD.left + yMax * sx;
  const cy = PAD.top + xMax * sy;
  const toX = (y: number): number => cx + y * sx;
  const toY = (x: number): number => cy - x * sy;
  const clipId = uniqueId("ls-clip");

  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "kit-plot ls-plot", role: "img", "aria-labelledby": labelId });
  root.append(svg("defs", {}, svg("clipPath", { id: clipId },
    svg("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom }))));
  const inside = svg("g", { "clip-path": `url(#${clipId})` });
  const top = lossAt(s, start[0], start[1]);
  for (const share of [0.004, 0.02, 0.08, 0.25, 0.6, 1.2, 2.5]) {
    const level = top * share;
    inside.append(svg("ellipse", {
      class: "ls-contour", cx, cy, rx: Math.sqrt(level / s.b) * sx, ry: Math.sqrt(level / s.a) * sy,
    }));
  }
  inside.append(svg("line", { class: "ls-axis", x1: PAD.left, x2: W - PAD.right, y1: cy, y2: cy }));
  inside.append(svg("line", { class: "ls-axis", x1: cx, x2: cx, y1: PAD.top, y2: H - PAD.bottom }));
  const sgdLine = svg("polyline", { class: "ls-path ls-sgd" });
  const adamLine = svg("polyline", { class: "ls-path ls-adam" });
  const sgdDot = svg("circle", { class: "ls-dot ls-sgd-dot", r: 5 });
  const adamDot = svg("circle", { class: "ls-dot ls-adam-dot", r: 5 });
  inside.append(sgdLine, adamLine, sgdDot, adamDot,
    svg("circle", { class: "ls-start", cx: toX(start[1]), cy: toY(start[0]), r: 4 }),
    svg("circle", { class: "ls-bottom", cx, cy, r: 3 }));
  root.append(inside,
    svg("rect", { class: "ls-frame", x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom }),
    svg("text", { class: "ls-tick", x: W - PAD.right, y: H - 8, "text-anchor": "end" }, `y → (flat), ${formatNumber(-yMax, 2)} … ${formatNumber(yMax, 2)}`),
    svg("text", { class: "ls-tick", x: 4, y: PAD.top + 10 }, "x ↑"),
    svg("text", { class: "ls-tick", x: 4, y: H - PAD.bottom }, "steep"));

  const shown = (c: number): number => Math.max(-1e4, Math.min(1e4, c)); // drawing huge numbers helps nobody
  const line = (path: Point[]): string => path.map((pt) => `${toX(shown(pt.y)).toFixed(1)},${toY(shown(pt.x)).toFixed(1)}`).join(" ");
  const place = (dot: SVGElement, path: Point[], at: number): void => {
    const pt = path[Math.min(at, path.length - 1)];
    dot.setAttribute("cx", toX(shown(pt.y)).toFixed(1));
    dot.setAttribute("cy", toY(shown(pt.x)).toFixed(1));
  };
  return {
    element: root,
    draw(sgd, adam, at) {
      sgdLine.setAttribute("points", line(sgd));
      adamLine.setAttribute("points", line(adam));
      place(sgdDot, sgd, at);
      place(adamDot, adam, at);
    },
  };
}

// ---- Words ----------------------------------------------------------------------------------

function num(x: number, digits = 4): string {
  if (Number.isFinite(x) && x !== 0 && Math.abs(x) < 1e-4) return x.toExponential(2).replace("-", "−");
  if (Number.isFinite(x) && Math.abs(x) >= 1e6) return x.toExponential(2).replace("-", "−");
  return formatNumber(x, digits);
}

function sgdNote(s: Surface, lr: number, path: Point[], steps: number): string {
  const factorX = 1 - lr * 2 * s.a;
  const factorY = 1 - lr * 2 * s.b;
  const limit = 1 / s.a;
  if (Math.abs(factorX) > 1) {
    const when = path.length - 1 < steps ? `, and by step ${path.length - 1} it has left the picture for good` : "";
    return `SGD overshoots the steep direction: each step multiplies x by 1 − ${formatNumber(lr)} × ${formatNumber(2 * s.a)} = ${formatNumber(factorX)}, so x grows${when}. Any learning rate above 2 / ${formatNumber(2 * s.a)} = ${formatNumber(limit)} does that.`;
  }
  return `SGD: each step multiplies y by 1 − ${formatNumber(lr)} × ${formatNumber(2 * s.b)} = ${formatNumber(factorY)}, so the flat direction crawls; a learning rate big enough for y would blow up x (above ${formatNumber(limit)}).`;
}

function parse(params: Params): { surface: Surface; start: number[]; steps: number; sliders: Record<string, Stops> } {
  const surface = record(params.surface);
  const start = Array.isArray(params.start) && params.start.length === 2 ? params.start.map((v) => finiteOr(v, 1)) : [1, 1.5];
  return {
    surface: { a: finiteOr(surface.x, 5), b: finiteOr(surface.y, 0.05) },
    start,
    steps: Math.max(1, Math.min(200, Math.round(finiteOr(params.steps, 40)))),
    sliders: {
      sgd_lr: parseStops(params.sgd_lr, { values: [0.05, 0.1, 0.19, 0.21], start: 0.1 }),
      adam_lr: parseStops(params.adam_lr, { values: [0.05, 0.1, 0.2], start: 0.1 }),
      beta1: parseStops(params.beta1, { values: [0, 0.85, 0.9], start: 0.85 }),
      beta2: parseStops(params.beta2, { values: [0, 0.99, 0.999], start: 0.99 }),
    },
  };
}

const SLIDER_TEXT: Record<string, string> = {
  sgd_lr: "SGD's learning rate", adam_lr: "Adam's learning rate", beta1: "β1 (m's memory)", beta2: "β2 (v's memory)",
};

function mountLossSurface(root: HTMLElement, params: Params): void {
  const { surface, start, steps, sliders } = parse(params);
  const mistake = ((): Mistake | null => {
    const raw = params.mistake;
    return raw === "shared" || raw === "no-sqrt" || raw === "no-correction" ? raw : null;
  })();
  const adamLabel = textOr(params.adam_label, "Adam");
  root.classList.add("widget", "ls");

  const settings: Settings = {
    sgdLr: sliders.sgd_lr.start, adamLr: sliders.adam_lr.start, beta1: sliders.beta1.start, beta2: sliders.beta2.start,
    decay: params.decay === true, mistake: false,
  };

  const controls = h("div", { class: "kit-settings ls-settings" });
  for (const key of ["sgd_lr", "adam_lr", "beta1", "beta2"]) {
    const stops = sliders[key];
    const id = uniqueId(`ls-${key}`);
    const out = h("output", { for: id, class: "ls-value", "data-setting": key });
    // The range walks the list of values by index; its name stays put, aria-valuetext says the value.
    const input = h("input", { type: "range", id, min: 0, max: stops.values.length - 1, step: 1, value: stops.values.indexOf(stops.start), "data-control": key });
    const show = (): void => {
      const value = stops.values[Number(input.value)] ?? stops.start;
      out.textContent = formatNumber(value, 4);
      input.setAttribute("aria-valuetext", formatNumber(value, 4));
      if (key === "sgd_lr") settings.sgdLr = value;
      else if (key === "adam_lr") settings.adamLr = value;
      else if (key === "beta1") settings.beta1 = value;
      else settings.beta2 = value;
    };
    input.addEventListener("input", () => { show(); update(); });
    show();
    controls.append(h("div", { class: "kit-slider" }, h("label", { for: id }, SLIDER_TEXT[key], " = ", out), input,
      h("span", { class: "kit-ends", "aria-hidden": "true" }, `${formatNumber(stops.values[0])} … ${formatNumber(stops.values[stops.values.length - 1])}`)));
  }
  const switches = h("div", { class: "ls-switches" });
  if (typeof params.decay === "boolean") {
    const id = uniqueId("ls-decay");
    const box = h("input", { type: "checkbox", id, checked: settings.decay, "data-control": "decay" });
    box.addEventListener("change", () => { settings.decay = box.checked; update(); });
    switches.append(h("label", { class: "ls-switch", for: id }, box, " the learning rate decays to 0 over the steps (microgpt's lr)"));
  }
  if (mistake) {
    const toggle = mistakeToggle(MISTAKE_TEXT[mistake], { name: "ls-mistake", inputAttrs: { "data-control": "mistake" } });
    toggle.input.addEventListener("change", () => { settings.mistake = toggle.input.checked; update(); });
    switches.append(toggle.label);
  }
  if (switches.childElementCount > 0) controls.append(switches);

  const labelId = uniqueId("ls-label");
  const picture = makePicture(surface, start, labelId);
  const label = h("p", { id: labelId, class: "ls-label" });
  const key = h("span", { class: "ls-key" },
    h("span", { class: "ls-key-item" }, h("span", { class: "ls-key-sgd", "aria-hidden": "true" }), "SGD"),
    h("span", { class: "ls-key-item" }, h("span", { class: "ls-key-adam", "aria-hidden": "true" }), adamLabel));
  const figure = h("figure", { class: "kit-figure" }, picture.element, h("figcaption", {}, label, key));

  const cell = (name: string): HTMLElement => h("span", { class: "kit-number", "data-readout": name });
  const where = (prefix: string): HTMLElement[] => [cell(`${prefix}-x`), cell(`${prefix}-y`), cell(`${prefix}-loss`)];
  const [sgdX, sgdY, sgdLoss] = where("sgd");
  const [adamX, adamY, adamLoss] = where("adam");
  const box = (title: string, mark: string, x: HTMLElement, y: HTMLElement, loss: HTMLElement): HTMLElement =>
    h("div", { class: `kit-mark ${mark}` }, h("dt", {}, title),
      h("dd", { class: "ls-where" }, h("span", {}, "x ", x), h("span", {}, "y ", y), h("span", {}, "loss ", loss)));
  const adamTitle = h("span", {});
  const readout = h("dl", { class: "kit-readout ls-readout" },
    box("SGD", "ls-mark-sgd", sgdX, sgdY, sgdLoss), h("div", { class: "kit-mark ls-mark-adam" }, h("dt", {}, adamTitle),
      h("dd", { class: "ls-where" }, h("span", {}, "x ", adamX), h("span", {}, "y ", adamY), h("span", {}, "loss ", adamLoss))));

  const detailCaption = h("caption", {});
  const detailBody = h("tbody", {});
  const detail = h("table", { class: "ls-detail", "data-readout": "adam-step" }, detailCaption,
    h("thead", {}, h("tr", {}, ...["", "gradient", "m", "v", "m̂", "v̂", "step"].map((text) => h("th", { scope: "col" }, text)))),
    detailBody);
  const verdict = h("p", { class: "kit-verdict ls-verdict", role: "status", "data-readout": "verdict" });
  const sgdNoteLine = h("p", { class: "kit-caption ls-note", "data-readout": "sgd-note" });

  let sgd: Point[] = [];
  let adam: { points: Point[]; steps: AdamStep[] } = { points: [], steps: [] };
  const stepper = stepControls({
    last: () => steps,
    show: (at) => showStep(at),
    toEnd: true,
    reset: true,
    counter: (k, n) => `step ${k} / ${n}`,
  });

  const caption = textOr(params.caption, null);
  root.append(controls, h("div", { class: "kit-columns ls-columns" }, figure,
    h("div", {}, stepper.row, readout, verdict)), h("div", { class: "ls-table" }, detail), sgdNoteLine);
  if (caption) root.append(h("p", { class: "kit-caption" }, caption));
  stepper.arrowKeys(root);

  function setCell(element: HTMLElement, value: number | undefined): void {
    if (value === undefined) {
      element.textContent = "gone";
      element.dataset.value = "";
      return;
    }
    element.textContent = num(value);
    element.dataset.value = String(value);
  }

  function showStep(at: number): void {
    picture.draw(sgd, adam.points, at);
    const s = sgd[at];
    const a = adam.points[at];
    setCell(sgdX, s?.x);
    setCell(sgdY, s?.y);
    setCell(sgdLoss, s?.loss);
    setCell(adamX, a?.x);
    setCell(adamY, a?.y);
    setCell(adamLoss, a?.loss);
    const taken = at > 0 ? adam.steps[at - 1] : undefined;
    detailBody.replaceChildren();
    if (!taken) {
      detailCaption.textContent = at === 0 ? `${adamLabel}'s step: press Step ▶ to see the first one.` : `${adamLabel} left the picture before step ${at}.`;
      return;
    }
    detailCaption.textContent = `${adamLabel}'s step ${at}, with lr = ${num(taken.lr)}: each parameter's own numbers`;
    ["x", "y"].forEach((name, i) => {
      const values = [taken.g[i], taken.m[i], taken.v[i], taken.mHat[i], taken.vHat[i], taken.move[i]];
      const cells = values.map((value, k) => h("td", { "data-col": ["g", "m", "v", "m-hat", "v-hat", "move"][k], "data-value": String(value) }, num(value)));
      detailBody.append(h("tr", { "data-param": name }, h("th", { scope: "row" }, name), ...cells));
    });
  }

  function update(): void {
    const slip = settings.mistake ? mistake : null;
    sgd = sgdPath(surface, start, steps, settings.sgdLr, settings.decay);
    adam = adamPath(surface, start, steps, settings, slip);
    adamTitle.textContent = slip ? `${adamLabel}, with the mistake` : adamLabel;
    root.dataset.mistake = slip ?? "";
    const lastS = sgd[sgd.length - 1];
    const lastA = adam.points[adam.points.length - 1];
    const sgdEnd = sgd.length - 1 < steps ? `left the picture (x beyond ${num(BLOWN)}) at step ${sgd.length - 1}` : `loss ${num(lastS.loss)}`;
    const adamEnd = adam.points.length - 1 < steps ? `left the picture at step ${adam.points.length - 1}` : `loss ${num(lastA.loss)}`;
    say(verdict, `After ${plural(steps, "step")}, SGD: ${sgdEnd}; ${adamLabel}: ${adamEnd}.`);
    verdict.dataset.tone = "info";
    say(sgdNoteLine, sgdNote(surface, settings.sgdLr, sgd, steps));
    label.textContent = `The surface loss = ${formatNumber(surface.a)}·x² + ${formatNumber(surface.b)}·y², seen from above: `
      + `x is steep (up), y is flat (across). Both paths start at x = ${formatNumber(start[0])}, y = ${formatNumber(start[1])}; `
      + `the bottom is at 0, 0. SGD ends at x = ${num(lastS.x)}, y = ${num(lastS.y)}; ${adamLabel} at x = ${num(lastA.x)}, y = ${num(lastA.y)}.`;
    stepper.go(stepper.step());
  }

  update();
  stepper.go(steps);
}

registerWidget("loss-surface", mountLossSurface);
