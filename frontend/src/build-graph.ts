// The Build's Graph tab (modules whose course.yaml sets `graph:`): after Run, the graph of a Value
// the learner's own code made, and their own backward() replayed one grad write at a time, each
// write held against the lesson's rule (runtime/graph.py and backward_replay.py, in the worker).
import { applyMarks, drawGraph, nodeWords, type NodeMarks } from "./graph-drawing";
import type { Layout, ValueGraph } from "./graph-shape";
import { drawPicture, type Picture } from "./graph-picture";
import "./build-graph.css";
import { $ } from "./dom";
import { say } from "./live";
import { type Python, StoppedError } from "./python";
import { setUsable } from "./usable";

interface Step {
  to: number | null; from: number | null; before: number | null; after: number | null;
  add: number | null; line: number | null; mark: string; words: string; slot: number | null;
}
interface Backward {
  available: boolean; why?: string; rule?: string; steps: Step[]; writes: number; marked: number; order: number[];
  error: string; wrong: Array<{ id: number; got: number | null; want: number }>;
}
export interface GraphResult {
  error?: string; names: string[]; name?: string;
  graph?: ValueGraph; layout?: Layout; backward?: Backward; picture?: Picture | null;
  /** A graph of more than 500 nodes: its blocks (runtime/graph_blocks.py), and the one drawn. */
  blocks?: Array<{ name: string; count: number }>; block?: string;
}

const GRAPH_JOB = { what: "the drawing of your Values", where: "in Build", build: true };

function graphParts(root: HTMLElement) {
  return {
    tabs: [...root.querySelectorAll<HTMLButtonElement>("[data-run-tabs] [role=tab]")],
    output: $(root, "[data-output]"),
    view: $(root, "[data-graph-view]"),
    name: $(root, "[data-graph-name]") as HTMLSelectElement,
    status: $(root, "[data-graph-status]"),
    blocks: $(root, "[data-graph-blocks]"),
    steps: $(root, "[data-graph-steps]"),
    back: $(root, "[data-graph-back]") as HTMLButtonElement,
    step: $(root, "[data-graph-step]") as HTMLButtonElement,
    slider: $(root, "[data-graph-slider]") as HTMLInputElement,
    firstWrong: $(root, "[data-graph-first-wrong]") as HTMLButtonElement,
    words: $(root, "[data-graph-words]"),
    canvas: $(root, "[data-graph-canvas]"),
    node: $(root, "[data-graph-node]"),
  };
}
type GraphParts = ReturnType<typeof graphParts>;

/** Output and Graph as two tabs: arrows move between them, as the ARIA tabs pattern has it. */
function tabs(parts: GraphParts, onGraph: () => void): () => boolean {
  const select = (index: number, focus: boolean): void => {
    parts.tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === index));
      tab.tabIndex = i === index ? 0 : -1;
    });
    parts.output.hidden = index !== 0;
    parts.view.hidden = index !== 1;
    if (focus) parts.tabs[index].focus();
    if (index === 1) onGraph();
  };
  parts.tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(i, false));
    tab.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
      event.preventDefault();
      select((i + 1) % parts.tabs.length, true);
    });
  });
  return () => !parts.view.hidden;
}

/** The grads of the drawn nodes after the first `count` steps: from all zero, as the replay ran.
 *  After the last step, the grads backward() left (the same, unless there were more writes than
 *  steps kept). */
function gradsAfter(graph: ValueGraph, steps: Step[], count: number): Map<number, number | null> {
  const grads = new Map<number, number | null>();
  if (count >= steps.length) return grads;
  for (const node of graph.nodes) if (node.grad !== null) grads.set(node.id, 0);
  for (const step of steps.slice(0, count)) if (step.to !== null) grads.set(step.to, step.after);
  return grads;
}

function summary(backward: Backward, graph: ValueGraph): string {
  if (!backward.available) return backward.why ?? "";
  const marked = backward.marked;
  const markedHere = backward.steps.filter((s) => s.mark).length;
  const rule = backward.rule === "paths" ? "counting paths" : "the chain rule";
  const writes = `Your backward() wrote a grad ${backward.writes} time${backward.writes === 1 ? "" : "s"}`;
  const broke = backward.error ? ` It stopped with ${backward.error}.` : "";
  const wrong = backward.wrong.length
    ? ` ${backward.wrong.length} node${backward.wrong.length === 1 ? " ends" : "s end"} with a grad ${rule} does not give (outlined in red).`
    : "";
  const shownCount = graph.total > graph.nodes.length ? " (steps on nodes not drawn are counted, not shown)" : "";
  if (!marked && !backward.wrong.length && !backward.error) return `${writes}${shownCount}: every step agrees with ${rule}.`;
  const here = marked > markedHere ? ` (${markedHere} of them shown here)` : "";
  return `${writes}${shownCount}; ${marked} step${marked === 1 ? " is" : "s are"} marked wrong${here}.${wrong}${broke}`;
}

/** The grads the drawing shows now (the step-through's position), shared with the keyboard. */
interface Showing { grads: Map<number, number | null> }

/** The step-through of one graph: Back, Step, the slider and "First wrong step". */
function stepper(parts: GraphParts, graph: ValueGraph, backward: Backward, drawing: SVGSVGElement,
                 showing: Showing, markLine: (line: number | null) => void): void {
  const steps = backward.steps;
  const wrongAtEnd = new Set(backward.wrong.map((w) => w.id));
  parts.steps.hidden = !backward.available || steps.length === 0;
  parts.slider.max = String(steps.length);
  parts.slider.setAttribute("aria-valuetext", "");
  const firstWrong = steps.findIndex((s) => s.mark);
  parts.firstWrong.hidden = firstWrong < 0;
  const show = (position: number): void => {
    parts.slider.value = String(position);
    const step = position > 0 ? steps[position - 1] : null;
    const marks: NodeMarks = {
      to: step?.to ?? null, from: step?.from ?? null, slot: step?.slot ?? null,
      grads: gradsAfter(graph, steps, position),
      wrong: position === steps.length ? wrongAtEnd : new Set(step?.mark && step.to !== null ? [step.to] : []),
    };
    applyMarks(drawing, graph, marks);
    showing.grads = marks.grads;
    markLine(step?.line ?? null);
    const where = step?.line ? ` (line ${step.line} of your code)` : "";
    const text = step
      ? `Step ${position} of ${steps.length}${where}: ${step.mark ? "wrong step. " : ""}${step.words}`
      : `Before backward(): every grad is 0. Press Step to replay your backward() one write at a time.`;
    parts.words.textContent = text;
    parts.words.dataset.mark = step?.mark ? "wrong" : "";
    parts.slider.setAttribute("aria-valuetext", `step ${position} of ${steps.length}`);
    setUsable(parts.back, position > 0);
    setUsable(parts.step, position < steps.length);
  };
  parts.slider.oninput = () => show(Number(parts.slider.value));
  parts.back.onclick = () => show(Math.max(0, Number(parts.slider.value) - 1));
  parts.step.onclick = () => show(Math.min(steps.length, Number(parts.slider.value) + 1));
  parts.firstWrong.onclick = () => show(firstWrong + 1);
  show(steps.length);
}

/** Arrow keys walk the drawn nodes in the order drawn; each one's values are read out. */
function keyboard(parts: GraphParts, graph: ValueGraph, drawing: SVGSVGElement, showing: Showing,
                  sortOrder: number[]): void {
  const place = new Map(sortOrder.map((id, i) => [id, i]));
  let at = graph.root;
  const focus = (id: number): void => {
    at = id;
    drawing.querySelectorAll(".graph-focus").forEach((e) => e.classList.remove("graph-focus"));
    const element = drawing.querySelector<SVGGElement>(`g[data-node="${id}"]`);
    element?.classList.add("graph-focus");
    element?.scrollIntoView({ block: "nearest", inline: "nearest" });
    const node = graph.nodes[id];
    parts.node.textContent = nodeWords(node, showing.grads.has(id) ? showing.grads.get(id)! : node.grad, graph,
                                       place.get(id) ?? -1, sortOrder.length);
  };
  parts.canvas.onkeydown = (event) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key === "Home") focus(0);
    else if (event.key === "End") focus(graph.nodes.length - 1);
    else if (event.key in moves) focus((at + moves[event.key] + graph.nodes.length) % graph.nodes.length);
    else return;
    event.preventDefault();
  };
  parts.canvas.onfocus = () => focus(at);
  drawing.addEventListener("click", (event) => {
    const element = (event.target as Element).closest<SVGGElement>("g[data-node]");
    if (element) focus(Number(element.dataset.node));
  });
}

/** A big graph's blocks as buttons: each draws its block; the first, the nodes nearest the Value. */
function blockButtons(parts: GraphParts, result: GraphResult, open: (block: string) => void): void {
  parts.blocks.hidden = !result.blocks;
  if (!result.blocks || !result.graph) { parts.blocks.replaceChildren(); return; }
  const total = result.blocks.reduce((sum, b) => sum + b.count, 0);
  const intro = document.createElement("p");
  intro.textContent = `${result.name}'s graph has ${total.toLocaleString("en")} nodes. It folds into blocks, each named by `
    + "the weights its part of the computation uses last (the embedding, attention, the MLP, the logits and the loss). Open one:";
  const button = (label: string, block: string): HTMLButtonElement => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = label;
    b.setAttribute("aria-pressed", String((result.block ?? "") === block));
    b.addEventListener("click", () => open(block));
    return b;
  };
  const list = document.createElement("div");
  list.className = "graph-block-list";
  list.append(button(`nearest ${result.name}`, ""),
              ...result.blocks.map((b) => button(`${b.name} · ${b.count.toLocaleString("en")}`, b.name)));
  parts.blocks.replaceChildren(intro, list);
}

function showResult(parts: GraphParts, result: GraphResult, markLine: (line: number | null) => void,
                    open: (block: string) => void): void {
  blockButtons(parts, result, open);
  parts.name.replaceChildren(...result.names.map((name) => new Option(name, name, false, name === result.name)));
  parts.name.disabled = result.names.length === 0;
  parts.canvas.replaceChildren();
  parts.node.textContent = "";
  parts.steps.hidden = true;
  parts.canvas.tabIndex = -1;
  markLine(null);
  if (result.error) { say(parts.status, result.error); return; }
  if (result.picture) {
    parts.canvas.append(drawPicture(result.name ?? "", result.picture));
    say(parts.status, `${result.name}: a list, drawn as ${result.picture.kind === "grid" ? "a grid (darker is bigger)" : "bars"}.`);
    return;
  }
  const { graph, layout, backward } = result;
  if (!graph || !layout || !backward) return;
  const drawing = drawGraph(graph, layout, { to: null, from: null, wrong: new Set(), grads: new Map() });
  parts.canvas.append(drawing);
  parts.canvas.tabIndex = 0;
  const where = result.block ? `the block ${result.block} of ${result.name}` : result.name;
  const drawn = graph.total > graph.nodes.length
    ? `${graph.nodes.length} of its ${graph.total} nodes, those nearest its top (+n: nodes below, not drawn)`
    : `${graph.total} node${graph.total === 1 ? "" : "s"}`;
  say(parts.status, `${where}: ${drawn}. ${summary(backward, graph)} Arrow keys in the drawing read out each node.`);
  const showing: Showing = { grads: new Map() };
  keyboard(parts, graph, drawing, showing, backward.available ? backward.order : []);
  if (backward.available) stepper(parts, graph, backward, drawing, showing, markLine);
}

/** Wire the Graph tab, if the page has one; returns what Run calls after each Build run. */
export function setUpGraph(root: HTMLElement, rule: string, python: Python,
                           markLine: (line: number | null) => void): { ran(): void } | null {
  if (!rule || !root.querySelector("[data-graph-view]")) return null;
  const parts = graphParts(root);
  let stale = false;
  let ranOnce = false;
  const load = async (name: string, block = ""): Promise<void> => {
    if (!ranOnce) return;
    stale = false;
    parts.view.dataset.state = "drawing";
    say(parts.status, "Drawing your Values…");
    try {
      let result = await python.graph(name, rule, block, GRAPH_JOB) as GraphResult;
      // The name drawn before this run is gone: draw what a first look would.
      if (result.error && name && result.names.length) result = await python.graph("", rule, "", GRAPH_JOB) as GraphResult;
      showResult(parts, result, markLine, (chosen) => void load(parts.name.value, chosen));
      parts.view.dataset.state = result.error ? "error" : "drawn";
    } catch (error) {
      stale = true;
      parts.view.dataset.state = "error";
      say(parts.status, error instanceof StoppedError ? error.message : `The graph could not be drawn: ${(error as Error).message}`);
    }
  };
  const visible = tabs(parts, () => { if (stale) void load(parts.name.value); });
  parts.name.addEventListener("change", () => void load(parts.name.value));
  return {
    ran(): void {
      ranOnce = true;
      stale = true;
      if (visible()) void load(parts.name.value);
    },
  };
}
