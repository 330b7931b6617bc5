// Explore widget "graph-backward" (lesson 7.5): a small graph of Values, and backward() run on it
// one node at a time in reverse topological order, with a toggle that swaps `+=` for `=`.

import { say } from "../live";
import { formatNumber, h, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { mistakeToggle, stepControls } from "./shared/controls";
import { arrowMarker, layered, pathData, type Point } from "./shared/graph";
import { parseValueGraph, SYMBOL, topologicalOrder, type ValueNode as GraphNode } from "./shared/values";
import "./graph-backward.css";

/** One `child.grad += local × node.grad` line of a step. */
interface Pass {
  child: string;
  local: number;
  upstream: number;
  before: number;
  after: number;
}

interface StepResult {
  grads: Map<string, number>;
  /** The node the last step processed, or null before any step. */
  active: string | null;
  seeded: boolean;
  passes: Pass[];
}

/** How fast `node` moves when its i-th argument moves: add 1, mul the other argument's data. */
function localGradient(nodes: Map<string, GraphNode>, node: GraphNode, index: number): number {
  if (node.op === "add") return 1;
  const other = node.args[1 - index];
  return nodes.get(other)?.data ?? Number.NaN;
}

/** Replay backward() from zero grads up to `steps` nodes of `reverse`, with `+=` or `=`. */
function runSteps(nodes: Map<string, GraphNode>, reverse: string[], steps: number, assign: boolean): StepResult {
  const grads = new Map<string, number>();
  for (const name of nodes.keys()) grads.set(name, 0);
  let passes: Pass[] = [];
  let active: string | null = null;
  let seeded = false;
  for (let k = 0; k < steps && k < reverse.length; k += 1) {
    const name = reverse[k];
    const node = nodes.get(name) as GraphNode;
    active = name;
    seeded = k === 0;
    if (seeded) grads.set(name, 1);
    const upstream = grads.get(name) ?? 0;
    passes = node.args.map((child, index) => {
      const local = localGradient(nodes, node, index);
      const before = grads.get(child) ?? 0;
      const after = assign ? local * upstream : before + local * upstream;
      grads.set(child, after);
      return { child, local, upstream, before, after };
    });
  }
  return { grads, active, seeded, passes };
}

// ---- Layout ---------------------------------------------------------------------------------

const BOX_W = 116;
const BOX_H = 74;
const GRID = { boxWidth: BOX_W, boxHeight: BOX_H, column: 132, row: 118, margin: 14 };

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Route {
  points: Point[];
  /** Where the edge's label goes, and which way its text extends from there. */
  label: Point;
  anchor: "middle" | "start" | "end";
}

/** A straight edge, or, when a box of a row in between is in the way, one that steps around it. */
function routeEdge(start: Point, end: Point, obstacles: Rect[]): Route {
  const gap = 8;
  const hit = (box: Rect): boolean => {
    for (let i = 1; i < 40; i += 1) {
      const t = i / 40;
      const x = start.x + (end.x - start.x) * t;
      const y = start.y + (end.y - start.y) * t;
      if (x > box.left - gap && x < box.right + gap && y > box.top - gap && y < box.bottom + gap) return true;
    }
    return false;
  };
  const blocking = obstacles.filter(hit);
  if (blocking.length === 0) {
    return {
      points: [start, end],
      label: { x: start.x + (end.x - start.x) * 0.45, y: start.y + (end.y - start.y) * 0.45 },
      anchor: "middle",
    };
  }
  const left = Math.min(...blocking.map((box) => box.left));
  const right = Math.max(...blocking.map((box) => box.right));
  const top = Math.min(...blocking.map((box) => box.top));
  const bottom = Math.max(...blocking.map((box) => box.bottom));
  const middle = (top + bottom) / 2;
  const straightX = start.x + ((end.x - start.x) * (middle - start.y)) / (end.y - start.y);
  const goLeft = Math.abs(straightX - (left - 2 * gap)) <= Math.abs(right + 2 * gap - straightX);
  const x = goLeft ? left - 2 * gap : right + 2 * gap;
  return {
    points: [start, { x, y: top - gap }, { x, y: bottom + gap }, end],
    label: { x: goLeft ? x - 5 : x + 5, y: middle },
    anchor: goLeft ? "end" : "start",
  };
}

// ---- The widget -----------------------------------------------------------------------------

function mountGraphBackward(root: HTMLElement, params: Params): void {
  const nodes = parseValueGraph(params);
  const opNodes = [...nodes.values()].filter((node) => node.op !== null);
  if (opNodes.length === 0) {
    root.append(h("p", {}, "This widget has no graph to show."));
    return;
  }
  const output = opNodes[opNodes.length - 1].name;
  const order = topologicalOrder(nodes, output);
  const reverse = [...order].reverse();
  const total = reverse.length;
  const mistakeText = textOr(params.mistake, "Try = instead of +=");

  let assign = false;

  // The graph: edges first (under the boxes), then one box per node.
  const { at, width, height } = layered(order, (name) => (nodes.get(name) as GraphNode).args, GRID);
  const arrowId = uniqueId("gb-arrow");
  const arrowHotId = uniqueId("gb-arrow-hot");
  const graph = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "kit-graph gb-graph", role: "group",
    "aria-label": `The graph of ${output}: each box shows a Value's data and grad`,
  }, svg("defs", {}, arrowMarker(arrowId, 10), arrowMarker(arrowHotId, 10, "kit-arrowhead kit-hot")));

  interface EdgeView { parent: string; child: string; line: SVGElement; label: SVGElement }
  const edges: EdgeView[] = [];
  const edgeLayer = svg("g", { class: "gb-edges" });
  const labelLayer = svg("g", { class: "gb-edge-labels", "aria-hidden": "true" });
  const boxes = order.map((name) => {
    const place = at.get(name) as Point;
    return { name, left: place.x, top: place.y, right: place.x + BOX_W, bottom: place.y + BOX_H };
  });
  for (const name of order) {
    const node = nodes.get(name) as GraphNode;
    const to = at.get(name) as Point;
    // Route each incoming edge first, then give the arrow heads slots along the parent's top
    // edge from left to right in the order the edges arrive, so they neither cross nor overlap.
    const routes = node.args.map((child) => {
      const from = at.get(child) as Point;
      const start: Point = { x: from.x + BOX_W / 2, y: from.y + BOX_H };
      const centre: Point = { x: to.x + BOX_W / 2, y: to.y };
      const obstacles = boxes.filter((box) => box.name !== child && box.name !== name);
      return { child, start, route: routeEdge(start, centre, obstacles) };
    });
    const arrival = (r: (typeof routes)[number]): number => r.route.points[r.route.points.length - 2].x;
    const slots = [...routes].sort((p, q) => arrival(p) - arrival(q));
    routes.forEach((r, index) => {
      const slot = slots.indexOf(r);
      const spread = routes.length > 1 ? (slot / (routes.length - 1) - 0.5) * 0.44 : 0;
      const end: Point = { x: to.x + BOX_W / 2 + spread * BOX_W, y: to.y };
      const route = routeEdge(r.start, end, boxes.filter((box) => box.name !== r.child && box.name !== name));
      const line = svg("path", { d: pathData(route.points), class: "kit-edge", "marker-end": `url(#${arrowId})` });
      const text = `local ${formatNumber(localGradient(nodes, node, index))}`;
      const textWidth = text.length * 7.6;
      const { x: lx, y: ly } = route.label;
      const boxLeft = route.anchor === "middle" ? lx - textWidth / 2 - 4 : route.anchor === "end" ? lx - textWidth - 8 : lx;
      const label = svg("g", { class: "gb-edge-label" },
        svg("rect", { x: boxLeft.toFixed(1), y: (ly - 9).toFixed(1), width: textWidth + 8, height: 17, rx: 4 }),
        svg("text", { x: (boxLeft + 4 + textWidth / 2).toFixed(1), y: (ly + 4).toFixed(1), "text-anchor": "middle" }, text));
      edgeLayer.append(line);
      labelLayer.append(label);
      edges.push({ parent: name, child: r.child, line, label });
    });
  }
  graph.append(edgeLayer, labelLayer);

  interface NodeView { box: HTMLElement; grad: HTMLElement; group: SVGElement }
  const views = new Map<string, NodeView>();
  for (const name of order) {
    const node = nodes.get(name) as GraphNode;
    const place = at.get(name) as Point;
    const heading = node.op
      ? h("span", { class: "gb-name" }, h("b", {}, name), ` = ${node.args[0]} ${SYMBOL[node.op]} ${node.args[1]}`)
      : h("span", { class: "gb-name" }, h("b", {}, name), h("span", { class: "gb-kind" }, " input"));
    const grad = h("span", { class: "gb-value", "data-grad": name }, "0");
    const box = h("div", { class: "gb-node", "data-node": name },
      heading,
      h("span", { class: "gb-line" }, h("span", { class: "gb-key" }, "data "),
        h("span", { class: "gb-value", "data-data": name }, formatNumber(node.data))),
      h("span", { class: "gb-line gb-grad-line" }, h("span", { class: "gb-key" }, "grad "), grad));
    const object = svg("foreignObject", { x: place.x, y: place.y, width: BOX_W, height: BOX_H });
    object.append(box);
    const group = svg("g", { class: "gb-node-group" }, object);
    graph.append(group);
    views.set(name, { box, grad, group });
  }

  // Controls.
  const steps = stepControls({ last: () => total, show: render, reset: true });
  const toggle = mistakeToggle(mistakeText, { name: "gb-mistake", className: "kit-push gb-toggle" });
  steps.row.append(toggle.label);

  const orderList = h("ol", { class: "kit-chips gb-order", "aria-label": "Reverse topological order" },
    ...reverse.map((name) => h("li", { "data-order": name }, name)));
  const caption = h("p", { class: "kit-callout gb-caption", "aria-live": "polite", "data-caption": "" });
  const rule = h("p", { class: "gb-rule" });

  const widget = h("div", {
    class: "gb", tabindex: 0, role: "group",
    "aria-label": "backward(), one node at a time. Left and Right arrow keys step back and forward.",
  },
    steps.row,
    h("div", { class: "gb-order-row" }, h("span", { class: "gb-order-title" }, "Order (reversed):"), orderList),
    h("figure", { class: "gb-figure" }, graph),
    caption,
    rule,
  );
  root.append(widget);

  toggle.input.addEventListener("change", () => {
    assign = toggle.input.checked;
    steps.go(steps.step());
  });
  steps.arrowKeys(widget, true);

  function describe(result: StepResult, step: number): string {
    if (result.active === null) {
      return `Press Step (or →) to start backward() at ${output}. Every grad starts at 0.`;
    }
    const node = nodes.get(result.active) as GraphNode;
    const grad = formatNumber(result.grads.get(node.name) ?? 0);
    const parts: string[] = [];
    if (result.seeded) parts.push(`${node.name} is the output: seed ${node.name}.grad = 1.`);
    if (result.passes.length === 0) {
      parts.push(`${node.name} is an input: it has no children, so it passes nothing on (its grad stays ${grad}).`);
    } else {
      const sign = assign ? "=" : "+=";
      const lines = result.passes.map((pass) => {
        const arithmetic = `${pass.child}.grad ${sign} ${formatNumber(pass.local)} × ${formatNumber(pass.upstream)} → ${formatNumber(pass.after)}`;
        const lost = assign && pass.before !== 0
          ? ` (the ${formatNumber(pass.before)} it already had is lost)` : "";
        return arithmetic + lost;
      });
      parts.push(`${node.name} passes on its grad: ${lines.join("; ")}.`);
    }
    if (step === total) parts.push(assign
      ? "Done. With =, a value used twice keeps only its last share."
      : "Done: every grad is in.");
    return parts.join(" ");
  }

  function render(step: number): void {
    const result = runSteps(nodes, reverse, step, assign);
    const changed = new Set(result.passes.map((pass) => pass.child));
    if (result.seeded && result.active) changed.add(result.active);
    const lostShare = new Set(result.passes
      .filter((pass) => assign && pass.before !== 0)
      .map((pass) => pass.child));
    const processed = new Set(reverse.slice(0, step));
    const received = new Set<string>();
    for (const name of processed) {
      if (name === output) received.add(name);
      for (const child of (nodes.get(name) as GraphNode).args) received.add(child);
    }

    for (const [name, view] of views) {
      const grad = result.grads.get(name) ?? 0;
      view.grad.textContent = formatNumber(grad);
      let state = "waiting";
      if (name === result.active) state = "active";
      else if (processed.has(name)) state = "done";
      else if (received.has(name)) state = "heard";
      view.box.dataset.state = state;
      view.box.classList.toggle("gb-changed", changed.has(name));
      view.box.classList.toggle("gb-lost", lostShare.has(name));
      view.grad.classList.toggle("gb-not-yet", !received.has(name));
      view.group.classList.toggle("gb-active", name === result.active);
    }
    for (const edge of edges) {
      const hot = edge.parent === result.active;
      edge.line.classList.toggle("kit-hot", hot);
      edge.line.setAttribute("marker-end", `url(#${hot ? arrowHotId : arrowId})`);
      edge.label.classList.toggle("gb-hot", hot);
    }
    // Draw the active node's edges last so they sit above the others.
    for (const edge of edges) if (edge.parent === result.active) edgeLayer.append(edge.line);
    for (const item of orderList.children) {
      const li = item as HTMLElement;
      const index = reverse.indexOf(li.dataset.order ?? "");
      li.classList.toggle("gb-past", index < step - 1);
      if (index === step - 1) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    }

    say(caption, describe(result, step));
    rule.textContent = assign
      ? "Mistake on: child.grad = local_grad * node.grad — each child keeps only the last share it hears."
      : "backward(): child.grad += local_grad * node.grad — shares from every user add up.";
    rule.classList.toggle("gb-rule-mistake", assign);
  }

  steps.go(0);
}

registerWidget("graph-backward", mountGraphBackward);
