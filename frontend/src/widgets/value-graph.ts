// Explore widget "value-graph" (lesson 7.3): the learner types an expression over a few Values and
// sees the graph microgpt's Value builds, every arrow labelled with the local grad its node records
// for that child. Below it, each given Value's slope twice: through the graph (local grads
// multiplied along every path, paths added: the chain rule) and by nudging its number. The
// mistake toggle turns exp, log and relu into math on the plain number (math.exp(v.data)): the
// result is no Value, so the path below it is cut, and the two slopes part.

import { formatNumber, h, record, registerWidget, svg, uniqueId, type Params } from "./kit";
import { mistakeToggle } from "./shared/controls";
import { arrowMarker, layered, pathData, route, type Point } from "./shared/graph";
import "./value-graph.css";

type BinOp = "+" | "-" | "*" | "/" | "**";
type Method = "exp" | "log" | "relu";

// ---- Reading the expression: Python's precedence, with .exp() .log() .relu() and .data -------

interface Token { kind: "num" | "name" | "op" | "open" | "close" | "dot"; text: string }

type Ast =
  | { kind: "num"; value: number }
  | { kind: "name"; name: string }
  | { kind: "neg"; operand: Ast }
  | { kind: "bin"; op: BinOp; left: Ast; right: Ast }
  | { kind: "method"; method: Method; operand: Ast }
  | { kind: "data"; operand: Ast };

class Problem extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^\s+/.exec(rest);
    const number = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(rest);
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    const dot = /^\.([A-Za-z_][A-Za-z0-9_]*)(\(\))?/.exec(rest);
    if (space) { i += space[0].length; continue; }
    if (number) { tokens.push({ kind: "num", text: number[0] }); i += number[0].length; continue; }
    if (name) { tokens.push({ kind: "name", text: name[0] }); i += name[0].length; continue; }
    if (dot) {
      const called = Boolean(dot[2]);
      if (dot[1] === "data" && !called) tokens.push({ kind: "dot", text: "data" });
      else if (["exp", "log", "relu"].includes(dot[1]) && called) tokens.push({ kind: "dot", text: dot[1] });
      else throw new Problem(`Cannot read “${dot[0]}”: a Value has .data, .exp(), .log() and .relu() here.`);
      i += dot[0].length;
      continue;
    }
    if (rest.startsWith("**")) { tokens.push({ kind: "op", text: "**" }); i += 2; continue; }
    const c = text[i];
    if ("+-*/".includes(c)) tokens.push({ kind: "op", text: c });
    else if (c === "(") tokens.push({ kind: "open", text: c });
    else if (c === ")") tokens.push({ kind: "close", text: c });
    else throw new Problem(`Cannot read “${c}”: use the names, numbers, + - * / **, brackets, .exp(), .log(), .relu() and .data.`);
    i += 1;
  }
  return tokens;
}

function parse(text: string, names: Set<string>): Ast {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new Problem("Type an expression, for example (a - 3.0).exp().");
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const isOp = (token: Token | undefined, ops: string[]): boolean => token?.kind === "op" && ops.includes(token.text);

  function atom(): Ast {
    const token = peek();
    if (!token) throw new Problem("The expression stops too early: a name, a number or a bracket must follow.");
    at += 1;
    if (token.kind === "num") return { kind: "num", value: Number(token.text) };
    if (token.kind === "name") {
      if (!names.has(token.text)) throw new Problem(`${token.text} is not one of the given Values: use ${[...names].join(", ")}.`);
      return { kind: "name", name: token.text };
    }
    if (token.kind === "open") {
      const inside = sum();
      if (peek()?.kind !== "close") throw new Problem("A bracket “(” is never closed: add a “)”.");
      at += 1;
      return inside;
    }
    throw new Problem(`Expected a name, a number or “(”, but found “${token.text}”.`);
  }

  function postfix(): Ast {
    let node = atom();
    for (let token = peek(); token?.kind === "dot"; token = peek()) {
      at += 1;
      node = token.text === "data" ? { kind: "data", operand: node } : { kind: "method", method: token.text as Method, operand: node };
    }
    return node;
  }

  function power(): Ast {
    const base = postfix();
    if (isOp(peek(), ["**"])) {
      at += 1;
      return { kind: "bin", op: "**", left: base, right: unary() };
    }
    return base;
  }

  function unary(): Ast {
    if (isOp(peek(), ["-"])) {
      at += 1;
      return { kind: "neg", operand: unary() };
    }
    return power();
  }

  function product(): Ast {
    let left = unary();
    for (let token = peek(); isOp(token, ["*", "/"]); token = peek()) {
      at += 1;
      left = { kind: "bin", op: token!.text as BinOp, left, right: unary() };
    }
    return left;
  }

  function sum(): Ast {
    let left = product();
    for (let token = peek(); isOp(token, ["+", "-"]); token = peek()) {
      at += 1;
      left = { kind: "bin", op: token!.text as BinOp, left, right: product() };
    }
    return left;
  }

  const tree = sum();
  const rest = peek();
  if (rest) throw new Problem(rest.kind === "close" ? "A “)” has no “(” to match it." : `Expected + - * / or ** before “${rest.text}”.`);
  return tree;
}

// ---- Building the graph, as microgpt's Value does ---------------------------------------------

interface GraphNode {
  id: number;
  /** leaf: a given Value; wrapped: a plain number made into a new Value; else the operation. */
  kind: "leaf" | "wrapped" | "add" | "mul" | "pow" | "exp" | "log" | "relu";
  label: string;
  data: number;
  children: GraphNode[];
  local: number[]; // one local grad per child, recorded when the node was made
  /** A wrapped number that came out of math on a plain number (the mistake): a cut. */
  cut: boolean;
}

type Val = { kind: "num"; value: number; cut: boolean } | { kind: "value"; node: GraphNode };

function show(x: number): string {
  return formatNumber(x, 4);
}

function powerOf(base: number, n: number): number {
  if (base === 0 && n < 0) throw new Problem("0 cannot be raised to a negative power: Python raises ZeroDivisionError.");
  if (base < 0 && !Number.isInteger(n)) throw new Problem(`${show(base)} ** ${show(n)} is not a real number.`);
  return Math.pow(base, n);
}

class Builder {
  nodes: GraphNode[] = [];
  private leaves = new Map<string, GraphNode>();

  constructor(private variables: Map<string, number>, private cutMethods: boolean) {}

  private make(kind: GraphNode["kind"], label: string, data: number, children: GraphNode[], local: number[], cut = false): GraphNode {
    if (!Number.isFinite(data)) throw new Problem(`${label} gives ${show(data)}: too big for a float, as in Python (OverflowError).`);
    const node: GraphNode = { id: this.nodes.length, kind, label, data, children, local, cut };
    this.nodes.push(node);
    return node;
  }

  leaf(name: string): GraphNode {
    let node = this.leaves.get(name);
    if (!node) {
      node = this.make("leaf", name, this.variables.get(name) as number, [], []);
      this.leaves.set(name, node);
    }
    return node;
  }

  given(): GraphNode[] {
    return [...this.leaves.values()];
  }

  private wrap(x: Val): GraphNode {
    if (x.kind === "value") return x.node;
    return this.make("wrapped", `Value(${show(x.value)})`, x.value, [], [], x.cut);
  }

  private add(x: Val, y: Val): Val {
    if (x.kind === "num" && y.kind === "num") return { kind: "num", value: x.value + y.value, cut: x.cut || y.cut };
    const [self, other] = x.kind === "value" ? [x.node, this.wrap(y)] : [(y as { node: GraphNode }).node, this.wrap(x)]; // __radd__
    return { kind: "value", node: this.make("add", "add", self.data + other.data, [self, other], [1, 1]) };
  }

  private mul(x: Val, y: Val): Val {
    if (x.kind === "num" && y.kind === "num") return { kind: "num", value: x.value * y.value, cut: x.cut || y.cut };
    const [self, other] = x.kind === "value" ? [x.node, this.wrap(y)] : [(y as { node: GraphNode }).node, this.wrap(x)]; // __rmul__
    return { kind: "value", node: this.make("mul", "mul", self.data * other.data, [self, other], [other.data, self.data]) };
  }

  private pow(x: Val, n: Val): Val {
    if (n.kind === "value") throw new Problem("In microgpt, ** takes a plain number as the power, like a ** 2 or a ** -1, not a Value.");
    if (x.kind === "num") return { kind: "num", value: powerOf(x.value, n.value), cut: x.cut };
    const self = x.node;
    return { kind: "value", node: this.make("pow", `pow ${show(n.value)}`, powerOf(self.data, n.value), [self],
      [n.value * powerOf(self.data, n.value - 1)]) };
  }

  private neg(x: Val): Val {
    return x.kind === "num" ? { kind: "num", value: -x.value, cut: x.cut } : this.mul(x, { kind: "num", value: -1, cut: false });
  }

  private method(method: Method, x: Val): Val {
    if (x.kind === "num") throw new Problem(`A plain number has no .${method}(): only a Value does (AttributeError in Python).`);
    const v = x.node.data;
    if (method === "log" && v <= 0) throw new Problem(`log of ${show(v)}: log is only defined above 0 (ValueError in Python).`);
    const data = method === "exp" ? Math.exp(v) : method === "log" ? Math.log(v) : Math.max(0, v);
    if (this.cutMethods) return { kind: "num", value: data, cut: true }; // math.exp(v.data): a plain float
    const local = method === "exp" ? Math.exp(v) : method === "log" ? 1 / v : v > 0 ? 1 : 0;
    return { kind: "value", node: this.make(method, method, data, [x.node], [local]) };
  }

  value(ast: Ast): Val {
    switch (ast.kind) {
      case "num": return { kind: "num", value: ast.value, cut: false };
      case "name": return { kind: "value", node: this.leaf(ast.name) };
      case "neg": return this.neg(this.value(ast.operand));
      case "method": return this.method(ast.method, this.value(ast.operand));
      case "data": {
        const x = this.value(ast.operand);
        if (x.kind === "num") throw new Problem("A plain number has no .data: only a Value does.");
        return { kind: "num", value: x.node.data, cut: true };
      }
      case "bin": {
        const left = this.value(ast.left);
        const right = this.value(ast.right);
        if (ast.op === "+") return this.add(left, right);
        if (ast.op === "*") return this.mul(left, right);
        if (ast.op === "**") return this.pow(left, right);
        if (ast.op === "-") return this.add(left, this.neg(right)); // self + (-other), other + (-self)
        if (right.kind === "num" && left.kind === "num") {
          if (right.value === 0) throw new Problem("Dividing by 0 makes Python raise ZeroDivisionError.");
          return { kind: "num", value: left.value / right.value, cut: left.cut || right.cut };
        }
        return this.mul(left, this.pow(right, { kind: "num", value: -1, cut: false })); // a * b ** -1
      }
    }
  }
}

/** Every node below `out`, each after its children (depth-first, children first). */
function ordered(out: GraphNode): GraphNode[] {
  const order: GraphNode[] = [];
  const seen = new Set<number>();
  const visit = (node: GraphNode): void => {
    if (seen.has(node.id)) return;
    seen.add(node.id);
    node.children.forEach(visit);
    order.push(node);
  };
  visit(out);
  return order;
}

/** d(out)/d(node) for every node below out: local grads multiplied along paths, paths added. */
function slopesThroughGraph(order: GraphNode[]): Map<number, number> {
  const share = new Map<number, number>([[order[order.length - 1].id, 1]]);
  for (const node of [...order].reverse()) {
    const mine = share.get(node.id) ?? 0;
    node.children.forEach((child, index) => share.set(child.id, (share.get(child.id) ?? 0) + node.local[index] * mine));
  }
  return share;
}

// ---- Drawing ------------------------------------------------------------------------------------

const BOX_W = 100;
const BOX_H = 48;
const GRID = { boxWidth: BOX_W, boxHeight: BOX_H, column: 118, row: 92, margin: 12 };
const MAX_NODES = 18; // value_graph.py MAX_NODES

function draw(order: GraphNode[], output: GraphNode): SVGElement {
  const { at, width, height } = layered(order, (node) => node.children, GRID);
  const arrowId = uniqueId("vg-arrow");
  const graph = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "kit-graph vg-graph", role: "img",
    "aria-label": `The graph: ${order.length} nodes. The list below gives each node's children and local grads.`,
  }, svg("defs", {}, arrowMarker(arrowId, 9)));
  graph.style.maxWidth = `${Math.round(width * 1.15)}px`;
  const place = (node: GraphNode): Point => at.get(node) as Point;
  const placed = order.map((node) => ({ node, ...place(node) }));
  const edges = svg("g", {});
  const labels = svg("g", {});
  for (const node of order) {
    const to = place(node);
    node.children.forEach((child, index) => {
      const from = place(child);
      const spread = node.children.length > 1 ? (index / (node.children.length - 1) - 0.5) * 0.5 : 0;
      const start = { x: from.x + BOX_W / 2, y: from.y + BOX_H };
      const end = { x: to.x + BOX_W / 2 + spread * BOX_W, y: to.y };
      const points = route(start, end, placed.filter((p) => p.node !== node && p.node !== child), BOX_W, BOX_H);
      edges.append(svg("path", { d: pathData(points), class: "kit-edge", "marker-end": `url(#${arrowId})` }));
      // The local grad sits on the arrow, nearer the parent that recorded it.
      const a = points[points.length - 2];
      const b = points[points.length - 1];
      const x = a.x + (b.x - a.x) * 0.62;
      const y = a.y + (b.y - a.y) * 0.62;
      const text = `×${show(node.local[index])}`;
      const w = 8 + 7.2 * text.length;
      labels.append(svg("g", { class: "vg-grad", transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` },
        svg("rect", { x: -w / 2, y: -10, width: w, height: 20, rx: 4 }),
        svg("text", { x: 0, y: 5, "text-anchor": "middle" }, text)));
    });
  }
  graph.append(edges, labels);
  for (const node of order) {
    const { x, y } = place(node);
    const cls = `kit-node vg-node vg-${node.kind}${node.cut ? " vg-cut" : ""}${node === output ? " vg-output" : ""}`;
    graph.append(svg("g", { class: cls, transform: `translate(${x} ${y})` },
      svg("rect", { width: BOX_W, height: BOX_H, rx: 7 }),
      svg("text", { x: BOX_W / 2, y: 19, "text-anchor": "middle", class: "vg-label" }, node.label),
      svg("text", { x: BOX_W / 2, y: 38, "text-anchor": "middle", class: "vg-data" }, show(node.data))));
  }
  return graph;
}

function nodeName(node: GraphNode): string {
  return node.kind === "leaf" || node.kind === "wrapped" ? node.label : `${node.label} node (${show(node.data)})`;
}

function describe(node: GraphNode, output: GraphNode): HTMLElement {
  const item = h("li", { "data-kind": node.kind, "data-data": String(node.data), "data-local": node.local.join(",") });
  if (node.kind === "leaf") item.append(h("strong", {}, node.label), `: data ${show(node.data)}, a given Value. No children.`);
  else if (node.kind === "wrapped") {
    item.append(h("strong", {}, node.label), node.cut
      ? `: a plain number made into a new Value. It was worked out from a Value's number, but it has no children: the path stops here.`
      : `: a plain number made into a new Value, a leaf.`);
  } else {
    item.append(h("strong", {}, `${node.label}`), `: data ${show(node.data)}. `);
    node.children.forEach((child, index) => {
      item.append(index ? "; " : "Children: ", `${nodeName(child)} with local grad `, h("code", {}, show(node.local[index])));
    });
    item.append(".");
  }
  if (node === output) item.append(" This is the output.");
  return item;
}

// ---- The widget ---------------------------------------------------------------------------------

function mountValueGraph(root: HTMLElement, params: Params): void {
  const variables = new Map<string, number>();
  for (const [name, value] of Object.entries(record(params.variables))) {
    if (typeof value === "number" && Number.isFinite(value)) variables.set(name, value);
  }
  const names = new Set(variables.keys());
  const examples = (Array.isArray(params.examples) ? params.examples : []).filter((e): e is string => typeof e === "string");
  const start = typeof params.start === "string" ? params.start : examples[0] ?? "";
  const nudge = typeof params.h === "number" && params.h > 0 ? params.h : 1e-6;
  let cut = false;

  const inputId = uniqueId("vg-input");
  const helpId = uniqueId("vg-help");
  const given = [...variables].map(([name, value]) => `${name} = Value(${show(value)})`).join(", ");
  const input = h("input", {
    type: "text", id: inputId, value: start, spellcheck: "false", autocomplete: "off", autocapitalize: "off",
    "aria-describedby": helpId, class: "vg-input",
  });
  const exampleButtons = examples.map((example) => {
    const button = h("button", { type: "button", class: "secondary vg-example", "aria-label": `Draw ${example}` }, example);
    button.addEventListener("click", () => { input.value = example; update(); });
    return button;
  });
  const toggle = typeof params.mistake === "string" ? mistakeToggle(params.mistake, { name: "vg-mistake" }) : null;
  toggle?.input.addEventListener("change", () => { cut = toggle.input.checked; update(); });

  const status = h("p", { class: "kit-callout", role: "status", "aria-live": "polite", "data-status": "" });
  const figure = h("figure", { class: "vg-figure" });
  const list = h("ol", { class: "vg-list", "data-nodes": "" });
  const slopeRows = h("tbody", {});
  const slopes = h("table", { class: "vg-slopes", "data-slopes": "" },
    h("caption", {}, "How fast the output moves with each given Value"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Value"),
      h("th", { scope: "col" }, "through the graph"), h("th", { scope: "col" }, `by nudging ±${nudge}`))),
    slopeRows);
  const words = h("div", { class: "vg-words" }, h("p", { class: "vg-list-title" }, "Each node, children first:"), list);
  root.append(h("div", { class: "vg" },
    h("div", { class: "vg-field" }, h("label", { for: inputId }, "Expression"), input,
      h("p", { class: "vg-help", id: helpId }, "Given: ", h("code", {}, given),
        ". Use them with numbers, + - * / **, brackets, .exp(), .log(), .relu() and .data.")),
    exampleButtons.length ? h("div", { class: "vg-examples", role: "group", "aria-label": "Examples" },
      h("span", { class: "vg-examples-title" }, "Try:"), ...exampleButtons) : null,
    toggle ? h("div", { class: "vg-toggle" }, toggle.label) : null,
    status, figure, slopes, words));

  let timer = 0;
  input.addEventListener("input", () => { window.clearTimeout(timer); timer = window.setTimeout(update, 150); });

  /** The output's number with one given Value's number moved by `shift` (no graph needed). */
  function outputWith(ast: Ast, name: string, shift: number): number {
    const moved = new Map(variables);
    moved.set(name, (moved.get(name) as number) + shift);
    const result = new Builder(moved, cut).value(ast);
    return result.kind === "value" ? result.node.data : result.value;
  }

  function fail(message: string): void {
    status.textContent = message;
    status.dataset.tone = "bad";
    input.setAttribute("aria-invalid", "true");
    figure.replaceChildren();
    list.replaceChildren();
    slopeRows.replaceChildren();
    slopes.hidden = true;
    words.hidden = true;
  }

  function update(): void {
    let ast: Ast;
    let builder: Builder;
    let result: Val;
    try {
      ast = parse(input.value, names);
      builder = new Builder(variables, cut);
      result = builder.value(ast);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      fail(error.message);
      return;
    }
    input.removeAttribute("aria-invalid");
    const used = builder.given();
    const measured = new Map<string, number>();
    try {
      for (const node of used) {
        measured.set(node.label, (outputWith(ast, node.label, nudge) - outputWith(ast, node.label, -nudge)) / (2 * nudge));
      }
    } catch {
      // A nudge that crosses the edge of log's domain: leave that slope out.
    }
    if (result.kind === "num") {
      fail(`The output is a plain number, ${show(result.value)}: no Value, so no graph at all. `
        + (result.cut ? "It was worked out from Values' numbers, but nothing leads back to them: backward() would have nothing to walk."
          : "Use at least one of the given Values."));
      delete status.dataset.tone;
      if (result.cut) status.dataset.tone = "bad";
      return;
    }
    const output = result.node;
    const order = ordered(output);
    if (order.length > MAX_NODES) {
      fail(`That makes ${order.length} nodes, too many to draw here (at most ${MAX_NODES}). Try a shorter expression.`);
      return;
    }
    const share = slopesThroughGraph(order);
    const parted: string[] = [];
    slopeRows.replaceChildren(...used.map((node) => {
      const through = share.get(node.id) ?? 0;
      const nudged = measured.get(node.label);
      const agree = nudged !== undefined && Math.abs(through - nudged) <= 1e-4 * Math.max(1, Math.abs(nudged));
      if (!agree && nudged !== undefined) parted.push(node.label);
      return h("tr", { "data-name": node.label, "data-graph": String(through), "data-nudged": String(nudged ?? ""), "data-agree": String(agree) },
        h("th", { scope: "row" }, node.label),
        h("td", {}, show(through), order.includes(node) ? "" : " (not below the output)"),
        h("td", { class: agree ? "vg-agree" : "vg-part" }, nudged === undefined ? "—" : show(nudged), agree ? " ✓ agrees" : " ✗ differs"));
    }));
    const cuts = order.filter((node) => node.cut).length;
    const why = cuts
      ? "a number worked out from a Value's .data was made into a new leaf, which has no children, so the path down stops there"
      : "at a kink (relu at exactly 0) the nudge measures the average of the two sides";
    status.textContent = `${order.length} nodes; the output holds ${show(output.data)}.`
      + (parted.length ? ` The slope through the graph and the nudge part for ${parted.join(", ")}: ${why}.`
        : " Every slope through the graph agrees with nudging.");
    status.dataset.tone = parted.length ? "bad" : "good";
    figure.replaceChildren(draw(order, output));
    list.replaceChildren(...order.map((node) => describe(node, output)));
    slopes.hidden = false;
    words.hidden = false;
  }

  update();
}

registerWidget("value-graph", mountValueGraph);
