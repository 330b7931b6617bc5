// Explore widget "graph-walk" (lessons 3.4 and 3.5): a small graph of Values and a walk over it,
// one move at a time.
// mode "visit" (3.4): the sort's calls of visit(), with the visited set `seen`, or without it (the
// mistake): a Value used twice is then listed twice, and the calls pile up. A ladder slider
// counts visit's calls on a deep graph in which every Value is used twice.
// mode "paths" (3.5): backward()'s walk over the sorted list in reverse, each node handing its
// count of paths to the output on to each child; the mistake walks the list forwards.

import { say, sayWith } from "../live";
import { plural } from "../words";
import { formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { mistakeToggle, stepControls } from "./shared/controls";
import { arrowMarker, layered, pathData, route, type Point } from "./shared/graph";
import { parseValueGraph, SYMBOL, topologicalOrder as sorted, type ValueNode as GraphNode } from "./shared/values";
import "./graph-walk.css";

interface Step {
  node: string | null;
  stack: string[];
  seen: string[];
  order: string[];
  calls: number;
  /** paths mode: every node's count after this step, and who got a share. */
  counts: Map<string, number>;
  handed: string[];
  caption: string;
  bad: boolean;
}

/** Every path from `name` up to the output, found by following each node's users (its parents). */
function paths(nodes: Map<string, GraphNode>, output: string, name: string): string[][] {
  if (name === output) return [[output]];
  const found: string[][] = [];
  for (const parent of nodes.values()) {
    parent.args.forEach((arg, slot) => {
      if (arg !== name) return;
      const twice = parent.args.filter((a) => a === name).length > 1;
      const step = twice ? `${parent.name} (as its ${slot === 0 ? "first" : "second"} child)` : parent.name;
      for (const rest of paths(nodes, output, parent.name)) found.push([name, step, ...rest.slice(1)]);
    });
  }
  return found;
}

function andList(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// ---- The two walks ------------------------------------------------------------------------------

function visitTrace(nodes: Map<string, GraphNode>, output: string, withSeen: boolean): Step[] {
  const stack: string[] = [];
  const seen: string[] = [];
  const order: string[] = [];
  let calls = 0;
  const none = new Map<string, number>();
  const steps: Step[] = [{
    node: null, stack: [], seen: [], order: [], calls: 0, counts: none, handed: [], bad: false,
    caption: `Press Step (or →) to call visit(${output}). ${withSeen ? "order and seen start" : "order starts"} empty.`,
  }];
  const push = (node: string, caption: string, bad = false): void => {
    steps.push({ node, stack: [...stack], seen: [...seen], order: [...order], calls, counts: none, handed: [], caption, bad });
  };
  const visit = (name: string): void => {
    calls += 1;
    stack.push(name);
    const children = (nodes.get(name) as GraphNode).args;
    const below = children.length ? `its children ${children.join(" and ")}` : "no children";
    if (withSeen) {
      if (seen.includes(name)) {
        push(name, `visit(${name}): ${name} is in seen already, so this call does nothing and returns at once.`);
        stack.pop();
        return;
      }
      seen.push(name);
      push(name, `visit(${name}): ${name} is not in seen yet. Add it to seen, then visit ${below}`
        + (children.length ? "." : ": nothing to visit."));
    } else {
      const again = order.includes(name);
      push(name, again
        ? `visit(${name}) again: nothing tells it that ${name} is done, so it goes through ${name} and ${below} all over again.`
        : `visit(${name}): without seen, nothing is checked. Visit ${below}` + (children.length ? "." : ": nothing to visit."), again);
    }
    for (const child of children) visit(child);
    order.push(name);
    const twice = order.filter((n) => n === name).length > 1;
    push(name, twice
      ? `${name} goes at the end of order: entry ${order.length}. That is ${name}'s second time in the list!`
      : `Back in visit(${name}): its children are done, so ${name} goes at the end of order: entry ${order.length}.`, twice);
    stack.pop();
  };
  visit(output);
  const repeated = [...new Set(order.filter((n, i) => order.indexOf(n) !== i))];
  push(output, repeated.length
    ? `Done: ${calls} calls, and ${order.length} entries for ${nodes.size} Values: ${andList(repeated)} ${repeated.length === 1 ? "is" : "are"} listed more than once.`
    : `Done: ${calls} calls, and each of the ${nodes.size} Values is in order once, after its children.`, repeated.length > 0);
  return steps;
}

function pathsTrace(nodes: Map<string, GraphNode>, output: string, forwards: boolean): Step[] {
  const order = sorted(nodes, output);
  const walk = forwards ? order : [...order].reverse();
  const counts = new Map<string, number>([...nodes.keys()].map((name) => [name, 0]));
  counts.set(output, 1);
  const steps: Step[] = [{
    node: null, stack: [], seen: [], order: walk, calls: 0, counts: new Map(counts), handed: [], bad: false,
    caption: `Every count starts at 0, except the output's: ${output} reaches itself by exactly 1 path `
      + `(self.grad = 1). Press Step (or →) to walk ${forwards ? "order forwards, from the first entry" : "reversed(order), from the output down"}.`,
  }];
  walk.forEach((name, index) => {
    const node = nodes.get(name) as GraphNode;
    const count = counts.get(name) ?? 0;
    let caption: string;
    let bad = false;
    if (node.args.length === 0) {
      caption = `${name} is a leaf: it has no children, so it hands nothing on. Its count stays ${formatNumber(count)}.`;
    } else {
      const moves = node.args.map((child) => {
        const before = counts.get(child) ?? 0;
        counts.set(child, before + count);
        return `${child} ${formatNumber(before)} → ${formatNumber(before + count)}`;
      });
      caption = `${name} hands its count, ${formatNumber(count)}, to each child: ${moves.join(", ")}.`;
      const waiting = walk.slice(index + 1).filter((later) => (nodes.get(later) as GraphNode).args.includes(name));
      if (waiting.length) {
        bad = true;
        caption += ` Too early: ${andList(waiting)} ${waiting.length === 1 ? "uses" : "use"} ${name} but ${waiting.length === 1 ? "comes" : "come"} later in this walk, so ${name}'s count was not complete yet.`;
      }
    }
    steps.push({ node: name, stack: [], seen: [], order: walk, calls: index + 1, counts: new Map(counts), handed: node.args, caption, bad });
  });
  const wrong = [...nodes.keys()].filter((name) => (counts.get(name) ?? 0) !== paths(nodes, output, name).length);
  const last = steps[steps.length - 1];
  last.caption += wrong.length
    ? ` Done, but wrong: ${wrong.map((name) => `${name} has ${formatNumber(counts.get(name) ?? 0)}, not ${paths(nodes, output, name).length}`).join("; ")}.`
    : " Done: every count is complete, and each matches the paths listed below.";
  last.bad = wrong.length > 0;
  return steps;
}

// ---- Layout -------------------------------------------------------------------------------------

const BOX_W = 112;
const BOX_H = 66;
const GRID = { boxWidth: BOX_W, boxHeight: BOX_H, column: 128, row: 104, margin: 10 };

// ---- The ladder: how many calls visit makes on a deep graph --------------------------------------

/** visit()'s calls on x0, x1 = x0 + x0, ..., x_depth: counted node by node, exactly (BigInt). */
function ladderCalls(depth: number, withSeen: boolean): bigint {
  if (withSeen) return BigInt(2 * depth + 1); // each Value is entered once; its second use returns at once
  let calls = 1n; // x0 on its own
  for (let k = 1; k <= depth; k += 1) calls = 1n + 2n * calls; // x_k: itself, then x_{k-1} twice
  return calls;
}

function grouped(n: bigint): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function mountLadder(params: Params): HTMLElement | null {
  const ladder = record(params.ladder);
  const max = typeof ladder.max === "number" ? Math.max(2, Math.min(60, Math.round(ladder.max))) : 0;
  if (!max) return null;
  const start = typeof ladder.start === "number" ? Math.max(1, Math.min(max, Math.round(ladder.start))) : Math.min(10, max);
  const sliderId = uniqueId("gw-ladder");
  // A fixed name (not the label, which shows the value too); the value is said by aria-valuetext.
  const slider = h("input", { type: "range", id: sliderId, min: 1, max, step: 1, value: start, "aria-label": "Steps of the ladder" });
  const depthOut = h("output", { for: sliderId, "data-ladder": "depth" });
  const values = h("td", { "data-ladder": "values" });
  const withSeen = h("td", { "data-ladder": "with" });
  const without = h("td", { "data-ladder": "without" });
  const update = (): void => {
    const depth = Number(slider.value);
    depthOut.textContent = String(depth);
    slider.setAttribute("aria-valuetext", plural(depth, "step"));
    values.textContent = String(depth + 1);
    withSeen.textContent = grouped(ladderCalls(depth, true));
    without.textContent = grouped(ladderCalls(depth, false));
  };
  slider.addEventListener("input", update);
  update();
  return h("div", { class: "gw-ladder" },
    h("h3", { class: "kit-title" }, "A deep graph: the ladder"),
    h("p", {}, "x1 = x0 + x0, x2 = x1 + x1, and so on: each Value uses the one below it twice. "
      + "How many times is visit() called when the sort starts at the top?"),
    h("label", { for: sliderId, class: "gw-slider-label" }, "Steps of the ladder: ", depthOut),
    slider,
    h("table", { class: "gw-table" },
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, "Values in the graph"), values),
        h("tr", {}, h("th", { scope: "row" }, "calls of visit() with seen"), withSeen),
        h("tr", {}, h("th", { scope: "row" }, "calls of visit() without seen"), without))));
}

// ---- The widget ---------------------------------------------------------------------------------

function mountGraphWalk(root: HTMLElement, params: Params): void {
  const nodes = parseValueGraph(params);
  const inner = [...nodes.values()].filter((node) => node.op !== null);
  if (inner.length === 0) {
    root.append(h("p", {}, "This widget has no graph to show."));
    return;
  }
  const mode = params.mode === "paths" ? "paths" : "visit";
  const output = inner[inner.length - 1].name;
  const order = sorted(nodes, output);
  const mistakeText = textOr(params.mistake, mode === "visit" ? "Try without seen" : "Try walking forwards");
  let mistake = false;
  let steps: Step[] = [];

  // The graph.
  const { at, width, height } = layered(order, (name) => (nodes.get(name) as GraphNode).args, GRID);
  const arrowId = uniqueId("gw-arrow");
  const graph = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "kit-graph", role: "img",
    "aria-label": `The graph of ${output}: an arrow runs from each child to the Value made from it. The text below the controls tells what each step does.`,
  }, svg("defs", {}, arrowMarker(arrowId, 9)));
  graph.style.maxWidth = `${Math.round(width * 1.15)}px`;
  const boxes = order.map((name) => ({ name, ...(at.get(name) as Point) }));
  const edges = new Map<string, SVGElement[]>();
  const edgeLayer = svg("g", {});
  for (const name of order) {
    const node = nodes.get(name) as GraphNode;
    const to = at.get(name) as Point;
    const slots = node.args.map((arg, i) => ({ arg, i })).sort((p, q) => ((at.get(p.arg) as Point).x - (at.get(q.arg) as Point).x) || p.i - q.i);
    node.args.forEach((child, index) => {
      const from = at.get(child) as Point;
      const slot = slots.findIndex((s) => s.i === index);
      const spread = node.args.length > 1 ? (slot / (node.args.length - 1) - 0.5) * 0.5 : 0;
      const points = route({ x: from.x + BOX_W / 2, y: from.y + BOX_H }, { x: to.x + BOX_W / 2 + spread * BOX_W, y: to.y },
        boxes.filter((box) => box.name !== name && box.name !== child), BOX_W, BOX_H);
      const line = svg("path", { d: pathData(points), class: "kit-edge", "marker-end": `url(#${arrowId})` });
      edgeLayer.append(line);
      edges.set(name, [...(edges.get(name) ?? []), line]);
    });
  }
  graph.append(edgeLayer);
  const views = new Map<string, { box: SVGElement; status: SVGElement }>();
  for (const name of order) {
    const node = nodes.get(name) as GraphNode;
    const place = at.get(name) as Point;
    const title = node.op ? `${name} = ${node.args[0]} ${SYMBOL[node.op]} ${node.args[1]}` : name;
    const status = svg("text", { x: BOX_W / 2, y: 57, "text-anchor": "middle", class: "gw-status", "data-status": name });
    const box = svg("g", { class: `kit-node gw-node${name === output ? " gw-output" : ""}`, transform: `translate(${place.x} ${place.y})`, "data-node": name },
      svg("rect", { width: BOX_W, height: BOX_H, rx: 8 }),
      svg("text", { x: BOX_W / 2, y: 19, "text-anchor": "middle", class: "gw-name" }, title),
      svg("text", { x: BOX_W / 2, y: 38, "text-anchor": "middle", class: "gw-data" }, `data ${formatNumber(node.data)}`),
      status);
    graph.append(box);
    views.set(name, { box, status });
  }

  // Controls.
  const stepper = stepControls({ last: () => steps.length - 1, show, toEnd: true, reset: true });
  const toggle = mistakeToggle(mistakeText, { name: "gw-mistake" });
  stepper.row.append(toggle.label);
  const caption = h("p", { class: "kit-callout gw-caption", "aria-live": "polite", "data-caption": "" });
  const facts = h("dl", { class: "gw-facts" });
  const code = h("pre", { class: "kit-code" });

  const walker = h("div", {
    class: "gw-walker", tabindex: 0, role: "group",
    "aria-label": `${mode === "visit" ? "The sort" : "The walk"}, one move at a time. Left and Right arrow keys step back and forward.`,
  },
  stepper.row,
  h("div", { class: "gw-body" }, h("figure", { class: "gw-figure" }, graph), h("div", { class: "gw-side" }, facts, code)),
  caption);
  const parts: HTMLElement[] = [walker];

  // paths mode: list the paths of any node, to check the counts by hand.
  if (mode === "paths") {
    const listing = h("div", { class: "gw-paths", "aria-live": "polite", "data-paths": "" });
    const buttons = order.map((name) => {
      const button = h("button", { type: "button", class: "secondary gw-path-button", "data-paths-of": name }, name);
      button.setAttribute("aria-label", `List the paths from ${name} to ${output}`);
      button.addEventListener("click", () => {
        const found = paths(nodes, output, name);
        const shown = found.slice(0, 12);
        sayWith(listing,
          h("p", {}, `${found.length} path${found.length === 1 ? "" : "s"} from ${name} up to ${output}:`),
          h("ol", { class: "gw-path-list" }, ...shown.map((path) => h("li", {}, path.join(" → ")))));
        if (found.length > shown.length) listing.append(h("p", {}, `… and ${found.length - shown.length} more.`));
      });
      return button;
    });
    parts.push(h("div", { class: "gw-path-box" },
      h("h3", { class: "kit-title" }, "Check a count by listing the paths"),
      h("div", { class: "gw-path-buttons", role: "group", "aria-label": "List the paths of a node" }, ...buttons),
      listing));
  }
  const ladder = mode === "visit" ? mountLadder(params) : null;
  if (ladder) parts.push(ladder);
  root.append(h("div", { class: "gw" }, ...parts));

  toggle.input.addEventListener("change", () => {
    const step = stepper.step();
    const atEnd = step > 0 && step === steps.length - 1;
    mistake = toggle.input.checked;
    rebuild();
    stepper.go(atEnd ? steps.length - 1 : Math.min(step, steps.length - 1));
  });
  stepper.arrowKeys(walker);

  function rebuild(): void {
    steps = mode === "visit" ? visitTrace(nodes, output, !mistake) : pathsTrace(nodes, output, mistake);
    code.textContent = (mode === "visit"
      ? (mistake
        ? ["def visit(node):", "    # no seen: nothing is checked", "    for child in node._children:", "        visit(child)", "    order.append(node)"]
        : ["def visit(node):", "    if node not in seen:", "        seen.add(node)", "        for child in node._children:", "            visit(child)", "        order.append(node)"])
      : [mistake ? "for node in order:   # the mistake" : "for node in reversed(order):", "    for child in node._children:", "        child.grad += node.grad"]).join("\n");
  }

  function fact(term: string, ...value: (Node | string)[]): HTMLElement[] {
    return [h("dt", {}, term), h("dd", {}, ...value)];
  }

  function chips(names: string[], highlight: (name: string, index: number) => boolean, attr: string): HTMLElement {
    const list = h("ol", { class: "kit-chips gw-chips", [attr]: "" });
    names.forEach((name, index) => list.append(h("li", { class: highlight(name, index) ? "gw-hot" : "" }, name)));
    if (names.length === 0) list.append(h("li", { class: "gw-empty" }, "empty"));
    return list;
  }

  function show(step: number): void {
    const now = steps[step];
    for (const [name, view] of views) {
      view.box.classList.toggle("gw-active", now.node === name && step > 0);
      if (mode === "visit") {
        const times = now.order.filter((n) => n === name).length;
        view.box.classList.toggle("gw-done", times > 0);
        view.box.classList.toggle("gw-twice", times > 1);
        view.box.classList.toggle("gw-open", now.stack.includes(name));
        view.status.textContent = times === 0 ? (now.seen.includes(name) ? "in seen" : "") : times === 1 ? "in order" : `in order ×${times}`;
      } else {
        const count = now.counts.get(name) ?? 0;
        view.status.textContent = `paths: ${formatNumber(count)}`;
        view.box.classList.toggle("gw-done", step > 0 && now.order.indexOf(name) < step);
        view.box.classList.toggle("gw-open", now.handed.includes(name));
      }
    }
    for (const [name, lines] of edges) for (const line of lines) line.classList.toggle("kit-hot", step > 0 && now.node === name);
    const rows: HTMLElement[] = [];
    if (mode === "visit") {
      const repeated = (name: string, index: number): boolean => now.order.indexOf(name) !== index;
      rows.push(
        ...fact("calls of visit()", h("span", { "data-calls": "" }, String(now.calls))),
        ...fact("calls running", now.stack.length ? now.stack.map((n) => `visit(${n})`).join(" → ") : "none"),
        ...fact("seen", mistake ? "not used" : chips(now.seen, () => false, "data-seen")),
        ...fact("order", chips(now.order, repeated, "data-order")));
    } else {
      rows.push(
        ...fact(mistake ? "the walk (forwards)" : "the walk: reversed(order)", chips(now.order, (_, index) => index === step - 1, "data-walk")));
    }
    facts.replaceChildren(...rows);
    say(caption, now.caption);
    if (now.bad) caption.dataset.tone = "bad";
    else delete caption.dataset.tone;
  }

  rebuild();
  stepper.go(0);
}

registerWidget("graph-walk", mountGraphWalk);
