// Explore widget "paths-graph" (lesson 4.5): a small graph where a value is used more than once.
// Every path from the input to the output is listed with the product of the local rates along
// it; choosing one highlights it on the graph. The shares add up to the slope measured by
// nudging the input, and "try a mistake" shows what adding along a path, multiplying across
// paths, or keeping only the last path (= instead of +=) gives instead.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, svg, uniqueId, type Params } from "./kit";
import { choiceGroup } from "./shared/controls";
import { arrowMarker } from "./shared/graph";
import "./paths-graph.css";

type Op = "add" | "mul" | "div" | "log" | "exp" | "relu";
type Mistake = "none" | "add-along" | "multiply-across" | "last-only";
type Arg = string | number;

interface GraphNode { name: string; op: Op; args: Arg[] }
interface Graph {
  label: string;
  input: string;
  values: Record<string, number>;
  slider: { min: number; max: number; step: number } | null;
  nodes: GraphNode[];
}
/** One edge of a path: the argument `index` of node `to`, which is `from`. */
interface Edge { from: string; to: string; index: number }

const ARITY: Record<Op, number> = { add: 2, mul: 2, div: 2, log: 1, exp: 1, relu: 1 };
const SYMBOL: Partial<Record<Op, string>> = { add: "+", mul: "·", div: "/" };
const MISTAKE_TEXT: Record<Exclude<Mistake, "none">, string> = {
  "add-along": "Add the rates along a path",
  "multiply-across": "Multiply the paths' shares",
  "last-only": "Keep only the last path (= instead of +=)",
};
const AGREE = 1e-4; // the same tolerance as paths_graph.py

function parseGraphs(params: Params): Graph[] {
  const graphs: Graph[] = [];
  for (const raw of Array.isArray(params.graphs) ? params.graphs : []) {
    const fields = record(raw);
    const values: Record<string, number> = {};
    for (const [name, value] of Object.entries(record(fields.values))) {
      if (typeof value === "number" && Number.isFinite(value)) values[name] = value;
    }
    const input = typeof fields.input === "string" ? fields.input : "";
    if (!(input in values)) continue;
    const known = new Set(Object.keys(values));
    const nodes: GraphNode[] = [];
    for (const item of Array.isArray(fields.nodes) ? fields.nodes : []) {
      const node = record(item);
      const op = node.op as Op;
      const args = Array.isArray(node.args) ? node.args as Arg[] : [];
      if (typeof node.name !== "string" || known.has(node.name) || !(op in ARITY)) continue;
      if (args.length !== ARITY[op] || !args.every((a) => (typeof a === "string" && known.has(a)) || typeof a === "number")) continue;
      nodes.push({ name: node.name, op, args });
      known.add(node.name);
    }
    if (nodes.length === 0) continue;
    const s = record(fields.slider);
    const slider = typeof s.min === "number" && typeof s.max === "number" && typeof s.step === "number" && s.min < s.max && s.step > 0
      ? { min: s.min, max: s.max, step: s.step } : null;
    graphs.push({ label: typeof fields.label === "string" ? fields.label : "", input, values, slider, nodes });
  }
  return graphs;
}

// ---- The mathematics ---------------------------------------------------------------------

function opValue(op: Op, a: number, b: number): number {
  switch (op) {
    case "add": return a + b;
    case "mul": return a * b;
    case "div": return a / b;
    case "log": return a > 0 ? Math.log(a) : Number.NaN;
    case "exp": return Math.exp(a);
    case "relu": return a > 0 ? a : 0;
  }
}

/** How fast the node moves with each of its arguments (the same rules as paths_graph.py). */
function opRates(op: Op, a: number, b: number): number[] {
  switch (op) {
    case "add": return [1, 1];
    case "mul": return [b, a];
    case "div": return [1 / b, -a / (b * b)];
    case "log": return [1 / a];
    case "exp": return [Math.exp(a)];
    case "relu": return [a > 0 ? 1 : 0];
  }
}

function forward(graph: Graph, x: number): Map<string, number> {
  const known = new Map<string, number>(Object.entries({ ...graph.values, [graph.input]: x }));
  const read = (arg: Arg): number => (typeof arg === "number" ? arg : known.get(arg) ?? Number.NaN);
  for (const node of graph.nodes) {
    known.set(node.name, opValue(node.op, read(node.args[0]), read(node.args[1] ?? 0)));
  }
  return known;
}

function rateOf(graph: Graph, known: Map<string, number>, edge: Edge): number {
  const node = graph.nodes.find((n) => n.name === edge.to) as GraphNode;
  const read = (arg: Arg): number => (typeof arg === "number" ? arg : known.get(arg) ?? Number.NaN);
  return opRates(node.op, read(node.args[0]), read(node.args[1] ?? 0))[edge.index];
}

/** Every path from the input down to the output, each as its edges from the input upwards. */
function allPaths(graph: Graph): Edge[][] {
  const byName = new Map(graph.nodes.map((node) => [node.name, node]));
  const down = (name: string): Edge[][] => {
    if (name === graph.input) return [[]];
    const node = byName.get(name);
    if (!node) return [];
    const result: Edge[][] = [];
    node.args.forEach((arg, index) => {
      if (typeof arg !== "string") return;
      for (const path of down(arg)) result.push([...path, { from: arg, to: name, index }]);
    });
    return result;
  };
  return down(graph.nodes[graph.nodes.length - 1].name);
}

// ---- Layout: inputs on top, each node a row below its deepest argument -------------------

const BOX_W = 104;
const BOX_H = 46;
const COL = 122;
const ROW = 92;
const M = 12;

interface Box { name: string; x: number; y: number; level: number }

function layout(graph: Graph): { boxes: Map<string, Box>; width: number; height: number } {
  const level = new Map<string, number>();
  const used = new Set<string>(graph.nodes.flatMap((node) => node.args.filter((a): a is string => typeof a === "string")));
  const inputs = Object.keys(graph.values).filter((name) => used.has(name));
  for (const name of inputs) level.set(name, 0);
  const column = new Map<string, number>();
  inputs.forEach((name, index) => column.set(name, index));
  for (const node of graph.nodes) {
    const args = node.args.filter((a): a is string => typeof a === "string");
    level.set(node.name, 1 + Math.max(...args.map((a) => level.get(a) ?? 0)));
    column.set(node.name, args.reduce((sum, a) => sum + (column.get(a) ?? 0), 0) / args.length);
  }
  const names = [...inputs, ...graph.nodes.map((node) => node.name)];
  const depth = Math.max(...names.map((n) => level.get(n) ?? 0));
  for (let row = 0; row <= depth; row += 1) {
    const here = names.filter((n) => level.get(n) === row).sort((p, q) => (column.get(p) ?? 0) - (column.get(q) ?? 0));
    for (let i = 1; i < here.length; i += 1) {
      const previous = column.get(here[i - 1]) ?? 0;
      if ((column.get(here[i]) ?? 0) < previous + 1) column.set(here[i], previous + 1);
    }
  }
  const low = Math.min(...column.values());
  const high = Math.max(...column.values());
  const boxes = new Map<string, Box>();
  for (const name of names) {
    boxes.set(name, { name, x: M + ((column.get(name) ?? 0) - low) * COL, y: M + (level.get(name) ?? 0) * ROW, level: level.get(name) ?? 0 });
  }
  return { boxes, width: 2 * M + (high - low) * COL + BOX_W, height: 2 * M + depth * ROW + BOX_H };
}

/** An edge from the bottom of `from` to the top of `to`, bent around boxes in between. */
function edgePath(from: Box, to: Box, spread: number, all: Box[]): { d: string; lx: number; ly: number } {
  const x1 = from.x + BOX_W / 2;
  const y1 = from.y + BOX_H;
  const x2 = to.x + BOX_W / 2 + spread;
  const y2 = to.y;
  const between = all.filter((b) => b.level > from.level && b.level < to.level && b !== from && b !== to);
  const crossing = between.filter((b) => {
    const t = (b.y + BOX_H / 2 - y1) / (y2 - y1);
    const x = x1 + (x2 - x1) * t;
    return x > b.x - 8 && x < b.x + BOX_W + 8;
  });
  if (crossing.length === 0) {
    const cx = (x1 + x2) / 2 + spread * 0.6;
    return { d: `M${x1} ${y1} Q${cx.toFixed(1)} ${((y1 + y2) / 2).toFixed(1)} ${x2.toFixed(1)} ${y2}`, lx: (x1 + x2) / 2 + spread * 0.3, ly: (y1 + y2) / 2 };
  }
  const left = Math.min(...crossing.map((b) => b.x)) - 36;
  const right = Math.max(...crossing.map((b) => b.x + BOX_W)) + 36;
  const side = Math.abs(x1 - left) <= Math.abs(right - x1) ? left : right;
  const top = Math.min(...crossing.map((b) => b.y));
  const bottom = Math.max(...crossing.map((b) => b.y + BOX_H));
  const d = `M${x1} ${y1} C${x1} ${top} ${side} ${top} ${side} ${(top + bottom) / 2} S${x2.toFixed(1)} ${bottom} ${x2.toFixed(1)} ${y2}`;
  return { d, lx: side, ly: (top + bottom) / 2 };
}

// ---- The widget --------------------------------------------------------------------------

/** A number inside a sum or a product: negative ones in brackets, 4 × (−1). */
function term(x: number): string {
  return x < 0 ? `(${formatNumber(x)})` : formatNumber(x);
}

function nodeText(node: GraphNode): string {
  const args = node.args.map((a) => (typeof a === "number" ? formatNumber(a) : a));
  const symbol = SYMBOL[node.op];
  return symbol ? `${args[0]} ${symbol} ${args[1]}` : `${node.op}(${args[0]})`;
}

function mountPathsGraph(root: HTMLElement, params: Params): void {
  const graphs = parseGraphs(params);
  if (graphs.length === 0) {
    root.append(h("p", {}, "This widget has no graph to show."));
    return;
  }
  const nudge = typeof params.h === "number" && params.h > 0 ? params.h : 0.0001;
  const mistakes = (Array.isArray(params.mistakes) ? params.mistakes : [])
    .filter((m): m is Exclude<Mistake, "none"> => typeof m === "string" && m in MISTAKE_TEXT);
  let graph = graphs[0];
  let mistake: Mistake = "none";
  let chosen: number | null = null;
  let x = graph.values[graph.input];

  const controls = h("div", { class: "kit-settings" });
  const radioGroup = (legend: string, options: [string, string][], onPick: (value: string) => void): HTMLElement =>
    choiceGroup({
      legend, name: "pg",
      choices: options.map(([value, text]) => ({ label: [h("span", {}, text)], value })),
      onPick: (index) => onPick(options[index][0]),
    });
  if (graphs.length > 1) {
    controls.append(radioGroup("Graph", graphs.map((g, i) => [String(i), g.label]), (value) => {
      graph = graphs[Number(value)];
      x = graph.values[graph.input];
      chosen = null;
      build();
    }));
  }
  const sliderBox = h("div", { class: "kit-slider pg-slider" });
  controls.append(sliderBox);
  if (mistakes.length > 0) {
    controls.append(radioGroup("Try a mistake", [["none", "No mistake: multiply along, add across"],
      ...mistakes.map((m): [string, string] => [m, MISTAKE_TEXT[m]])], (value) => {
      mistake = value as Mistake;
      update();
    }));
  }

  const figure = h("figure", { class: "kit-figure" });
  const pathList = h("ol", { class: "pg-paths", "aria-label": "Paths from the input to the output" });
  const totalOut = h("p", { class: "pg-total" });
  const measuredOut = h("p", { class: "pg-measured" });
  const verdict = h("p", { class: "kit-verdict", role: "status", "data-readout": "verdict" });
  root.append(h("div", { class: "pg" }, controls,
    h("div", { class: "kit-columns pg-body" }, figure,
      h("div", { class: "pg-side" }, h("h3", { class: "pg-heading" }, "Paths and their shares"), pathList,
        totalOut, measuredOut, verdict))));

  let paths: Edge[][] = [];
  let edgeViews = new Map<string, SVGElement[]>();
  let rateViews = new Map<string, SVGElement>();
  let valueViews = new Map<string, SVGElement>();
  let boxViews = new Map<string, SVGElement>();
  let buttons: HTMLButtonElement[] = [];
  const key = (edge: Edge): string => `${edge.from}>${edge.to}>${edge.index}`;

  function build(): void {
    paths = allPaths(graph);
    const { boxes, width, height } = layout(graph);
    const all = [...boxes.values()];
    const output = graph.nodes[graph.nodes.length - 1].name;
    const arrow = uniqueId("pg-arrow");
    const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "kit-graph pg-graph", role: "img",
      "aria-label": `${graph.label}. The numbers on the arrows are local rates; the paths are listed beside the graph.` },
    svg("defs", {}, arrowMarker(arrow, 9)));
    const edgeLayer = svg("g", {});
    const labelLayer = svg("g", {});
    let low = 0;
    let high = width;
    edgeViews = new Map();
    rateViews = new Map();
    for (const node of graph.nodes) {
      const to = boxes.get(node.name) as Box;
      const named = node.args.map((a, index) => ({ a, index })).filter((e): e is { a: string; index: number } => typeof e.a === "string");
      named.forEach(({ a, index }, k) => {
        const spread = named.length > 1 ? (k / (named.length - 1) - 0.5) * 44 : 0;
        const { d, lx, ly } = edgePath(boxes.get(a) as Box, to, spread, all);
        const line = svg("path", { d, class: "kit-edge pg-edge", "marker-end": `url(#${arrow})` });
        const text = svg("text", { x: lx.toFixed(1), y: (ly + 4).toFixed(1), "text-anchor": "middle" });
        const pill = svg("g", { class: "pg-rate" }, svg("rect", { x: (lx - 30).toFixed(1), y: (ly - 9).toFixed(1), width: 60, height: 17, rx: 8 }), text);
        low = Math.min(low, lx - 34);
        high = Math.max(high, lx + 34);
        edgeLayer.append(line);
        labelLayer.append(pill);
        const k2 = key({ from: a, to: node.name, index });
        edgeViews.set(k2, [line, pill]);
        rateViews.set(k2, text);
      });
    }
    picture.append(edgeLayer, labelLayer);
    picture.setAttribute("viewBox", `${low.toFixed(0)} 0 ${(high - low).toFixed(0)} ${height}`);
    valueViews = new Map();
    boxViews = new Map();
    for (const box of all) {
      const node = graph.nodes.find((n) => n.name === box.name);
      const title = node ? `${box.name} = ${nodeText(node)}` : box.name === graph.input ? `${box.name} (input)` : box.name;
      const value = svg("text", { x: box.x + BOX_W / 2, y: box.y + 37, "text-anchor": "middle", class: "pg-value" });
      const rect = svg("rect", { x: box.x, y: box.y, width: BOX_W, height: BOX_H, rx: 7,
        class: `kit-node pg-box${box.name === output ? " pg-output" : ""}${box.name === graph.input ? " pg-input" : ""}` });
      const group = svg("g", { "data-node": box.name }, rect,
        svg("text", { x: box.x + BOX_W / 2, y: box.y + 18, "text-anchor": "middle", class: "pg-title" }, title), value);
      picture.append(group);
      valueViews.set(box.name, value);
      boxViews.set(box.name, rect);
    }
    figure.replaceChildren(picture, h("figcaption", {}, "Numbers on the arrows: each step's local rate at the current values."));

    sliderBox.replaceChildren();
    if (graph.slider) {
      const id = uniqueId("pg-x");
      // A fixed name (not the label, which shows the value too); the value is said by aria-valuetext.
      const slider = h("input", { type: "range", id, min: graph.slider.min, max: graph.slider.max, step: graph.slider.step, value: x, "aria-label": graph.input });
      const out = h("output", { for: id, "data-readout": "x", class: "pg-mono" });
      slider.addEventListener("input", () => { x = Number(slider.value); update(); });
      sliderBox.append(h("label", { for: id }, `${graph.input} = `, out), slider);
    }
    buttons = paths.map((_, index) => {
      const button = h("button", { type: "button", class: "pg-path", "aria-pressed": "false", "data-path": index });
      button.addEventListener("click", () => { chosen = chosen === index ? null : index; update(); });
      return button;
    });
    pathList.replaceChildren(...buttons.map((button) => h("li", {}, button)));
    update();
  }

  function update(): void {
    const known = forward(graph, x);
    const output = graph.nodes[graph.nodes.length - 1].name;
    for (const [name, view] of valueViews) view.textContent = formatNumber(known.get(name) ?? Number.NaN);
    const out = sliderBox.querySelector("output");
    if (out) { out.textContent = formatNumber(x); out.dataset.value = String(x); }
    sliderBox.querySelector("input")?.setAttribute("aria-valuetext", formatNumber(x));
    const rates = new Map<string, number>();
    for (const [k, text] of rateViews) {
      const [from, to, index] = k.split(">");
      const rate = rateOf(graph, known, { from, to, index: Number(index) });
      rates.set(k, rate);
      text.textContent = formatNumber(rate);
    }
    const along = mistake === "add-along" ? " + " : " × ";
    const shares = paths.map((path) => {
      const factors = path.map((edge) => rates.get(key(edge)) ?? Number.NaN);
      return mistake === "add-along" ? factors.reduce((a, b) => a + b, 0) : factors.reduce((a, b) => a * b, 1);
    });
    paths.forEach((path, index) => {
      const route = [graph.input, ...path.map((edge) => edge.to)].join(" → ");
      const factors = path.map((edge) => term(rates.get(key(edge)) ?? Number.NaN)).join(along);
      const button = buttons[index];
      button.replaceChildren(h("span", { class: "pg-route" }, `Path ${index + 1}: ${route}`), h("span", { class: "pg-share" }, `${factors} = `,
        h("b", { "data-share": index }, formatNumber(shares[index]))));
      button.setAttribute("aria-pressed", String(chosen === index));
      button.dataset.value = String(shares[index]);
    });
    let total: number;
    let how: string;
    if (mistake === "multiply-across") {
      total = shares.reduce((a, b) => a * b, 1);
      how = `the shares multiplied: ${shares.map(term).join(" × ")}`;
    } else if (mistake === "last-only") {
      total = shares[shares.length - 1];
      how = `only the last path kept: each share replaced the one before`;
    } else {
      total = shares.reduce((a, b) => a + b, 0);
      how = `the shares added: ${shares.map(term).join(" + ")}`;
    }
    totalOut.replaceChildren(`d${output}/d${graph.input} from the paths, ${how} = `,
      h("b", { "data-readout": "total", "data-value": String(total) }, formatNumber(total)));
    const up = forward(graph, x + nudge).get(output) ?? Number.NaN;
    const down = forward(graph, x - nudge).get(output) ?? Number.NaN;
    const measured = (up - down) / (2 * nudge);
    measuredOut.replaceChildren(`Nudging ${graph.input} by ±${formatNumber(nudge, 6)} measures `,
      h("b", { "data-readout": "measured", "data-value": String(measured) }, formatNumber(measured)));
    const ok = Math.abs(total - measured) <= AGREE * Math.max(1, Math.abs(measured));
    verdict.dataset.tone = ok && mistake === "none" ? "good" : "warn";
    say(verdict, !Number.isFinite(measured) ? "The graph is undefined here."
      : ok ? (mistake === "none" ? `They agree: ${paths.length} paths, each a product of rates, added up.`
        : "They happen to agree at this value; move the slider and they part.")
        : mistake === "add-along" ? "Adding the rates along a path does not give its share: along a path, rates multiply."
          : mistake === "multiply-across" ? "Multiplying the shares of different paths is not what nudging measures: each path adds its own share."
            : mistake === "last-only" ? "Keeping only the last path loses the others' shares: with =, a value used twice keeps only its last share."
              : "They differ.");
    const on = chosen === null ? null : new Set(paths[chosen].map(key));
    for (const [k, parts] of edgeViews) {
      for (const part of parts) {
        part.classList.toggle("pg-on", on !== null && on.has(k));
        part.classList.toggle("pg-off", on !== null && !on.has(k));
      }
    }
    const onNodes = chosen === null ? null : new Set([graph.input, ...paths[chosen].map((e) => e.to)]);
    for (const [name, rect] of boxViews) rect.classList.toggle("pg-on", onNodes !== null && onNodes.has(name));
  }

  build();
}

registerWidget("paths-graph", mountPathsGraph);
