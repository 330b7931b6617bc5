// Explore widget "expression-graph" (lessons 3.1 and 3.2): the learner types an expression over a
// few given Values and sees the graph it makes, redrawn as they type, and described in words.
// build "written": one node per operator as written. build "value": the graph microgpt's Value
// really builds (-, / and unary minus made of add, mul and pow; plain numbers wrapped), with
// optional wrong versions of Value to switch to.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, svg, uniqueId, type Params } from "./kit";
import { choiceGroup } from "./shared/controls";
import { arrowMarker, layered, pathData, route, type Point } from "./shared/graph";
import "./expression-graph.css";

type BinOp = "+" | "-" | "*" | "/" | "**";
type MistakeId = "rsub-flipped" | "no-radd" | "no-wrap";

const MISTAKE_LABELS: Record<MistakeId, string> = {
  "rsub-flipped": "Try the mistake: __rsub__ returns self + (-other)",
  "no-radd": "Try the mistake: no __radd__",
  "no-wrap": "Try the mistake: __add__ and __mul__ do not wrap plain numbers",
};

// ---- Reading the expression -------------------------------------------------------------------

interface Token {
  kind: "num" | "name" | "op" | "open" | "close";
  text: string;
  at: number;
}

type Ast =
  | { kind: "num"; value: number; isInt: boolean }
  | { kind: "name"; name: string }
  | { kind: "neg"; operand: Ast }
  | { kind: "bin"; op: BinOp; left: Ast; right: Ast };

class Problem extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t") { i += 1; continue; }
    const number = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ kind: "num", text: number[0], at: i });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (name) {
      tokens.push({ kind: "name", text: name[0], at: i });
      i += name[0].length;
      continue;
    }
    if (text.startsWith("**", i)) {
      tokens.push({ kind: "op", text: "**", at: i });
      i += 2;
      continue;
    }
    if ("+-*/".includes(c)) tokens.push({ kind: "op", text: c, at: i });
    else if (c === "(") tokens.push({ kind: "open", text: c, at: i });
    else if (c === ")") tokens.push({ kind: "close", text: c, at: i });
    else throw new Problem(`Cannot read “${c}”: use the names, numbers, + - * / ** and brackets.`);
    i += 1;
  }
  return tokens;
}

/** Python's precedence: + - < * / < unary minus < ** (whose right side may start with a minus). */
function parse(text: string, names: Set<string>): Ast {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new Problem("Type an expression, for example a * b + c.");
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const describe = (token: Token | undefined): string => (token ? `“${token.text}”` : "the end");

  function atom(after: string): Ast {
    const token = peek();
    if (!token) {
      throw new Problem(after === "" ? "Type an expression, for example a * b + c."
        : `The expression stops after “${after}”: a name, a number or a bracket must follow it.`);
    }
    position += 1;
    if (token.kind === "num") {
      const next = peek();
      if (next && (next.kind === "name" || next.kind === "open")) {
        throw new Problem(`Python needs a * between ${token.text} and ${next.text}: write ${token.text} * ${next.text}.`);
      }
      return { kind: "num", value: Number(token.text), isInt: /^\d+$/.test(token.text) };
    }
    if (token.kind === "name") {
      if (!names.has(token.text)) {
        throw new Problem(`${token.text} is not one of the given Values: use ${[...names].join(", ")}.`);
      }
      return { kind: "name", name: token.text };
    }
    if (token.kind === "open") {
      const inside = sum("(");
      const close = peek();
      if (!close || close.kind !== "close") throw new Problem(`A bracket “(” is never closed: add a “)”.`);
      position += 1;
      return inside;
    }
    throw new Problem(`Expected a name, a number or “(” ${after === "" ? "at the start" : `after “${after}”`}, but found ${describe(token)}.`);
  }

  function power(after: string): Ast {
    const base = atom(after);
    const token = peek();
    if (token && token.kind === "op" && token.text === "**") {
      position += 1;
      return { kind: "bin", op: "**", left: base, right: unary("**") };
    }
    return base;
  }

  function unary(after: string): Ast {
    const token = peek();
    if (token && token.kind === "op" && token.text === "-") {
      position += 1;
      return { kind: "neg", operand: unary("-") };
    }
    if (token && token.kind === "op" && token.text === "+") {
      throw new Problem("A + with nothing on its left: Value has no unary plus. Remove it.");
    }
    return power(after);
  }

  function product(after: string): Ast {
    let left = unary(after);
    for (let token = peek(); token && token.kind === "op" && (token.text === "*" || token.text === "/"); token = peek()) {
      position += 1;
      left = { kind: "bin", op: token.text as BinOp, left, right: unary(token.text) };
    }
    return left;
  }

  function sum(after: string): Ast {
    let left = product(after);
    for (let token = peek(); token && token.kind === "op" && (token.text === "+" || token.text === "-"); token = peek()) {
      position += 1;
      left = { kind: "bin", op: token.text as BinOp, left, right: product(token.text) };
    }
    return left;
  }

  const tree = sum("");
  const rest = peek();
  if (rest) {
    if (rest.kind === "close") throw new Problem("A “)” has no “(” to match it.");
    throw new Problem(`Expected an operator such as + or * before ${describe(rest)}.`);
  }
  return tree;
}

// ---- Building the graph -----------------------------------------------------------------------

interface GraphNode {
  id: number;
  /** leaf: a given Value; number: a number as written (3.1); wrapped: a number wrapped into a Value (3.2). */
  kind: "leaf" | "number" | "wrapped" | "op";
  /** The box's first line: a name, an operation symbol or "number". */
  label: string;
  /** The node as code, e.g. "a * b + c", for the text description. */
  text: string;
  /** For the text: which operation made it ("add", "mul", "pow", ...). */
  opName: string;
  data: number;
  children: GraphNode[];
  precedence: number;
}

type Val = { kind: "num"; value: number; isInt: boolean } | { kind: "value"; node: GraphNode };

const LEAF = 9;
const PREC = { add: 1, mul: 2, neg: 3, pow: 4 };

function codeNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

/** `child` as it reads inside a parent of `precedence` (brackets where Python needs them). */
function inside(child: GraphNode, precedence: number, right = false): string {
  let needs = child.precedence < precedence;
  // a - (b - c) and a * (b * c) keep their brackets, so the text shows how the graph is built.
  if (right && child.precedence === precedence && precedence <= PREC.mul) needs = true;
  // The base of ** needs brackets unless it is a name or a positive number: (-3) ** 2, (a * b) ** 2.
  if (precedence === PREC.pow && !right && (child.kind === "op" || (child.kind !== "leaf" && child.data < 0))) needs = true;
  return needs ? `(${child.text})` : child.text;
}

function powerOf(base: number, n: number): number {
  if (base === 0 && n < 0) throw new Problem("0 cannot be raised to a negative power: Python raises ZeroDivisionError.");
  if (base < 0 && !Number.isInteger(n)) throw new Problem(`${codeNumber(base)} ** ${codeNumber(n)} is not a real number: a negative number has no real fractional power.`);
  return Math.pow(base, n);
}

class Builder {
  nodes: GraphNode[] = [];
  private names = new Map<string, GraphNode>();

  constructor(private variables: Map<string, number>, private mistake: MistakeId | null) {}

  private make(kind: GraphNode["kind"], label: string, text: string, opName: string, data: number,
    children: GraphNode[], precedence: number): GraphNode {
    const node = { id: this.nodes.length, kind, label, text, opName, data, children, precedence };
    this.nodes.push(node);
    return node;
  }

  name(name: string): GraphNode {
    let node = this.names.get(name);
    if (!node) {
      node = this.make("leaf", name, name, "", this.variables.get(name) as number, [], LEAF);
      this.names.set(name, node);
    }
    return node;
  }

  // -- build "written": one node per operator, as typed --

  written(ast: Ast): GraphNode {
    switch (ast.kind) {
      case "num":
        return this.make("number", "number", codeNumber(ast.value), "", ast.value, [], LEAF);
      case "name":
        return this.name(ast.name);
      case "neg": {
        const x = this.written(ast.operand);
        return this.make("op", "−", `-${inside(x, PREC.neg)}`, "neg", -x.data, [x], PREC.neg);
      }
      case "bin": {
        if (ast.op === "**") {
          const n = constant(ast.right);
          const x = this.written(ast.left);
          return this.make("op", `** ${codeNumber(n)}`, `${inside(x, PREC.pow)} ** ${codeNumber(n)}`, "pow",
            powerOf(x.data, n), [x], PREC.pow);
        }
        const left = this.written(ast.left);
        const right = this.written(ast.right);
        const symbol = { "+": "+", "-": "−", "*": "×", "/": "/" }[ast.op];
        const precedence = ast.op === "+" || ast.op === "-" ? PREC.add : PREC.mul;
        let data: number;
        if (ast.op === "+") data = left.data + right.data;
        else if (ast.op === "-") data = left.data - right.data;
        else if (ast.op === "*") data = left.data * right.data;
        else {
          if (right.data === 0) throw new Problem(`${right.text} is 0 here, and dividing by 0 makes Python raise ZeroDivisionError.`);
          data = left.data / right.data;
        }
        const opName = { "+": "add", "-": "sub", "*": "mul", "/": "div" }[ast.op];
        return this.make("op", symbol, `${inside(left, precedence)} ${ast.op} ${inside(right, precedence, true)}`,
          opName, data, [left, right], precedence);
      }
    }
  }

  // -- build "value": what Python does with microgpt's Value, method by method --

  value(ast: Ast): Val {
    switch (ast.kind) {
      case "num":
        return { kind: "num", value: ast.value, isInt: ast.isInt };
      case "name":
        return { kind: "value", node: this.name(ast.name) };
      case "neg":
        return this.neg(this.value(ast.operand));
      case "bin": {
        const left = this.value(ast.left);
        const right = this.value(ast.right);
        switch (ast.op) {
          case "+": return this.add(left, right);
          case "*": return this.mul(left, right);
          case "-": return this.sub(left, right);
          case "/": return this.div(left, right);
          case "**": return this.pow(left, right);
        }
      }
    }
  }

  private wrap(x: { value: number; isInt: boolean }): GraphNode {
    if (this.mistake === "no-wrap") {
      throw new Problem(`AttributeError: '${x.isInt ? "int" : "float"}' object has no attribute 'data'. `
        + `Without the wrapping line, other stays the plain number ${codeNumber(x.value)}, and other.data fails.`);
    }
    return this.make("wrapped", "wrapped", codeNumber(x.value), "wrap", x.value, [], LEAF);
  }

  /** Value.__add__(self, other) */
  private valueAdd(self: GraphNode, other: Val): Val {
    const o = other.kind === "value" ? other.node : this.wrap(other);
    return { kind: "value", node: this.make("op", "add", `${inside(self, PREC.add)} + ${inside(o, PREC.add, true)}`,
      "add", self.data + o.data, [self, o], PREC.add) };
  }

  /** Value.__mul__(self, other) */
  private valueMul(self: GraphNode, other: Val): Val {
    const o = other.kind === "value" ? other.node : this.wrap(other);
    return { kind: "value", node: this.make("op", "mul", `${inside(self, PREC.mul)} * ${inside(o, PREC.mul, true)}`,
      "mul", self.data * o.data, [self, o], PREC.mul) };
  }

  add(x: Val, y: Val): Val {
    if (x.kind === "value") return this.valueAdd(x.node, y);
    if (y.kind === "value") {
      if (this.mistake === "no-radd") {
        throw new Problem(`TypeError: unsupported operand type(s) for +: '${x.isInt ? "int" : "float"}' and 'Value'. `
          + `A plain number on the left of + does not know Values, and without __radd__ this Value cannot help.`);
      }
      return this.valueAdd(y.node, x); // __radd__: self + other
    }
    return { kind: "num", value: x.value + y.value, isInt: x.isInt && y.isInt };
  }

  mul(x: Val, y: Val): Val {
    if (x.kind === "value") return this.valueMul(x.node, y);
    if (y.kind === "value") return this.valueMul(y.node, x); // __rmul__: self * other
    return { kind: "num", value: x.value * y.value, isInt: x.isInt && y.isInt };
  }

  neg(x: Val): Val {
    if (x.kind === "num") return { kind: "num", value: -x.value, isInt: x.isInt };
    return this.valueMul(x.node, { kind: "num", value: -1, isInt: true }); // __neg__: self * -1
  }

  sub(x: Val, y: Val): Val {
    if (x.kind === "value") return this.add(x, this.neg(y)); // __sub__: self + (-other)
    if (y.kind === "value") {
      if (this.mistake === "rsub-flipped") return this.add(y, this.neg(x)); // the mistake: self + (-other)
      return this.add(x, this.neg(y)); // __rsub__: other + (-self)
    }
    return { kind: "num", value: x.value - y.value, isInt: x.isInt && y.isInt };
  }

  div(x: Val, y: Val): Val {
    if (x.kind === "value") return this.mul(x, this.pow(y, { kind: "num", value: -1, isInt: true })); // self * other ** -1
    if (y.kind === "value") return this.mul(x, this.pow(y, { kind: "num", value: -1, isInt: true })); // other * self ** -1
    if (y.value === 0) throw new Problem("Dividing by 0 makes Python raise ZeroDivisionError.");
    return { kind: "num", value: x.value / y.value, isInt: false };
  }

  pow(x: Val, n: Val): Val {
    if (n.kind === "value") {
      throw new Problem(x.kind === "value"
        ? "In microgpt, ** takes a plain number as the power, like a ** 2 or a ** -1, not a Value."
        : "TypeError: Value has no __rpow__, so a plain number cannot be raised to a Value's power.");
    }
    if (x.kind === "num") {
      return { kind: "num", value: powerOf(x.value, n.value), isInt: x.isInt && n.isInt && n.value >= 0 };
    }
    const self = x.node;
    return { kind: "value", node: this.make("op", `pow ${formatNumber(n.value)}`,
      `${inside(self, PREC.pow)} ** ${codeNumber(n.value)}`, "pow", powerOf(self.data, n.value), [self], PREC.pow) };
  }
}

/** The plain number an exponent stands for (3.1 draws `a ** 2` as one node with the child a). */
function constant(ast: Ast): number {
  if (ast.kind === "num") return ast.value;
  if (ast.kind === "neg") return -constant(ast.operand);
  if (ast.kind === "bin" && ast.op !== "**") {
    const a = constant(ast.left);
    const b = constant(ast.right);
    if (ast.op === "/" && b === 0) throw new Problem("Dividing by 0 makes Python raise ZeroDivisionError.");
    return ast.op === "+" ? a + b : ast.op === "-" ? a - b : ast.op === "*" ? a * b : a / b;
  }
  if (ast.kind === "bin") return powerOf(constant(ast.left), constant(ast.right));
  throw new Problem("In microgpt, ** takes a plain number as the power, like a ** 2 or a ** -1, not a Value.");
}

// ---- Layout -------------------------------------------------------------------------------------

const BOX_W = 92;
const BOX_H = 50;
const GRID = { boxWidth: BOX_W, boxHeight: BOX_H, column: 108, row: 86, margin: 10 };
const MAX_NODES = 16;

/** Depth-first, children first: the order the graph is described and laid out in. */
function ordered(output: GraphNode): GraphNode[] {
  const order: GraphNode[] = [];
  const seen = new Set<number>();
  const visit = (node: GraphNode): void => {
    if (seen.has(node.id)) return;
    seen.add(node.id);
    for (const child of node.children) visit(child);
    order.push(node);
  };
  visit(output);
  return order;
}

// ---- The widget ---------------------------------------------------------------------------------

function mountExpressionGraph(root: HTMLElement, params: Params): void {
  const variables = new Map<string, number>();
  for (const [name, value] of Object.entries(record(params.variables))) {
    if (typeof value === "number" && Number.isFinite(value)) variables.set(name, value);
  }
  const names = new Set(variables.keys());
  const mode = params.build === "value" ? "value" : "written";
  const mistakes = (Array.isArray(params.mistakes) ? params.mistakes : [])
    .filter((m): m is MistakeId => typeof m === "string" && m in MISTAKE_LABELS);
  const examples = (Array.isArray(params.examples) ? params.examples : []).filter((e): e is string => typeof e === "string");
  const start = typeof params.start === "string" ? params.start : examples[0] ?? "";
  let mistake: MistakeId | null = null;

  const inputId = uniqueId("eg-input");
  const helpId = uniqueId("eg-help");
  const given = [...variables].map(([name, value]) => (mode === "value" ? `${name} = Value(${codeNumber(value)})` : `${name} = ${codeNumber(value)}`));
  const input = h("input", {
    type: "text", id: inputId, value: start, spellcheck: "false", autocomplete: "off", autocapitalize: "off",
    "aria-describedby": helpId, class: "eg-input",
  });
  const exampleButtons = examples.map((example) => {
    const button = h("button", { type: "button", class: "secondary eg-example" }, example);
    button.setAttribute("aria-label", `Draw ${example}`);
    button.addEventListener("click", () => {
      input.value = example;
      update();
    });
    return button;
  });

  const controls: HTMLElement[] = [
    h("div", { class: "eg-field" },
      h("label", { for: inputId }, "Expression"),
      input,
      h("p", { class: "eg-help", id: helpId }, "Given: ", h("code", {}, given.join(", ")),
        ". Use them with numbers, + - * / ** and brackets.")),
  ];
  if (exampleButtons.length) controls.push(h("div", { class: "eg-examples", role: "group", "aria-label": "Examples" },
    h("span", { class: "eg-examples-title" }, "Try:"), ...exampleButtons));
  if (mode === "value" && mistakes.length) {
    const versions: (MistakeId | null)[] = [null, ...mistakes];
    controls.push(choiceGroup({
      legend: "Which Value builds it", name: "eg-mistake", groupClass: "kit-picker eg-mistakes",
      choices: versions.map((id) => ({ label: [id ? MISTAKE_LABELS[id] : "Value as in microgpt.py"], mistake: id !== null })),
      onPick: (index) => {
        mistake = versions[index];
        update();
      },
    }));
  }

  const status = h("p", { class: "kit-callout", role: "status", "aria-live": "polite", "data-status": "" });
  const figure = h("figure", { class: "eg-figure" });
  const listTitle = h("p", { class: "eg-list-title" }, "The graph in words, children first:");
  const list = h("ol", { class: "eg-list", "data-nodes": "" });
  const words = h("div", { class: "eg-words" }, listTitle, list);
  root.append(h("div", { class: "eg" }, ...controls, status, figure, words));

  let timer = 0;
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(update, 120);
  });

  function childName(node: GraphNode): string {
    return node.kind === "wrapped" ? `Value(${node.text})` : node.text;
  }

  function describe(node: GraphNode, output: GraphNode): HTMLElement {
    const data = formatNumber(node.data);
    const item = h("li", { "data-node-text": node.text, "data-data": String(node.data) });
    const code = h("code", {}, node.kind === "wrapped" ? `Value(${node.text})` : node.text);
    if (node.kind === "leaf") item.append(code, `: data ${data}. A leaf: no children.`);
    else if (node.kind === "number") item.append(code, `: the number ${data}, a leaf.`);
    else if (node.kind === "wrapped") item.append(code, `: data ${data}. The plain number ${data}, wrapped into a new Value: a leaf.`);
    else if (mode === "value") {
      const article = node.opName === "add" ? "an" : "a";
      item.append(code, `: data ${data}, ${article} ${node.opName} node with ${node.children.length === 1 ? "the child" : "children"} `,
        ...joinCodes(node.children.map(childName)), ".");
    } else {
      item.append(code, `: data ${data}, made by ${node.label} from `, ...joinCodes(node.children.map(childName)), ".");
    }
    if (node === output) item.append(" This is the output.");
    return item;
  }

  function joinCodes(texts: string[]): (Node | string)[] {
    const parts: (Node | string)[] = [];
    texts.forEach((text, index) => {
      if (index > 0) parts.push(index === texts.length - 1 ? " and " : ", ");
      parts.push(h("code", {}, text));
    });
    return parts;
  }

  function draw(order: GraphNode[], output: GraphNode): SVGElement {
    const { at, width, height } = layered(order, (node) => node.children, GRID);
    const arrowId = uniqueId("eg-arrow");
    const graph = svg("svg", {
      viewBox: `0 0 ${width} ${height}`, class: "kit-graph", role: "img",
      "aria-label": `The graph: ${order.length} nodes; the list below describes each one.`,
    }, svg("defs", {}, arrowMarker(arrowId, 9)));
    graph.style.maxWidth = `${Math.round(width * 1.1)}px`;
    const place = (node: GraphNode): Point => at.get(node) as Point;
    const placed = order.map((node) => ({ node, ...place(node) }));
    const edges = svg("g", { class: "eg-edges" });
    for (const node of order) {
      const to = place(node);
      node.children.forEach((child, index) => {
        const from = place(child);
        const spread = node.children.length > 1 ? (index / (node.children.length - 1) - 0.5) * 0.5 : 0;
        const start = { x: from.x + BOX_W / 2, y: from.y + BOX_H };
        const end = { x: to.x + BOX_W / 2 + spread * BOX_W, y: to.y };
        const points = route(start, end, placed.filter((p) => p.node !== node && p.node !== child), BOX_W, BOX_H);
        edges.append(svg("path", { d: pathData(points), class: "kit-edge", "marker-end": `url(#${arrowId})` }));
      });
    }
    graph.append(edges);
    for (const node of order) {
      const { x, y } = place(node);
      const cls = `kit-node eg-node eg-${node.kind}${node === output ? " eg-output" : ""}`;
      graph.append(svg("g", { class: cls, "data-node": node.text, transform: `translate(${x} ${y})` },
        svg("rect", { width: BOX_W, height: BOX_H, rx: 7 }),
        svg("text", { x: BOX_W / 2, y: 20, "text-anchor": "middle", class: "eg-label" }, node.label),
        svg("text", { x: BOX_W / 2, y: 40, "text-anchor": "middle", class: "eg-data" }, formatNumber(node.data))));
    }
    return graph;
  }

  /** With a mistake switched on: what microgpt's own Value gives for the same expression. */
  function correctNote(text: string, got: number): string {
    if (mistake === null) return "";
    try {
      const right = new Builder(variables, null).value(parse(text, names));
      const want = right.kind === "value" ? right.node.data : right.value;
      return want === got ? " Here the mistake changes nothing."
        : ` With microgpt's Value the output would be ${formatNumber(want)}: the mistake changed the result.`;
    } catch {
      return "";
    }
  }

  function update(): void {
    const text = input.value;
    let output: GraphNode | null = null;
    let message = "";
    let builder: Builder | null = null;
    try {
      const ast = parse(text, names);
      builder = new Builder(variables, mistake);
      if (mode === "written") output = builder.written(ast);
      else {
        const result = builder.value(ast);
        if (result.kind === "num") {
          message = `That is plain-number arithmetic (${formatNumber(result.value)}): Python works it out directly, `
            + "no Value is involved, so no graph is made. Use at least one of the given Values.";
        } else output = result.node;
      }
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      message = error.message;
    }
    if (output && builder) {
      const order = ordered(output);
      if (order.length > MAX_NODES) {
        message = `That makes ${order.length} nodes, too many to draw here (at most ${MAX_NODES}). Try a shorter expression.`;
        output = null;
      } else {
        const arrows = order.reduce((sum, node) => sum + node.children.length, 0);
        const wrapped = order.filter((node) => node.kind === "wrapped").length;
        say(status, `${order.length} nodes and ${arrows} arrows. The output's data is ${formatNumber(output.data)}.`
          + (wrapped ? ` ${wrapped === 1 ? "One plain number was wrapped into a new Value" : `${wrapped} plain numbers were wrapped into new Values`}.` : "")
          + correctNote(text, output.data));
        delete status.dataset.tone;
        input.removeAttribute("aria-invalid");
        figure.replaceChildren(draw(order, output));
        list.replaceChildren(...order.map((node) => describe(node, output as GraphNode)));
        words.hidden = false;
        return;
      }
    }
    say(status, message);
    status.dataset.tone = "bad";
    input.setAttribute("aria-invalid", "true");
    figure.replaceChildren();
    list.replaceChildren();
    words.hidden = true;
  }

  update();
}

registerWidget("expression-graph", mountExpressionGraph);
