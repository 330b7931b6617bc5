// Explore widget "sort-game" (lesson 3.3): put the items of a puzzle in an order that keeps every
// "must come before" rule (socks before shoes), have the order checked, then step through the
// depth-first sort that builds one: visit the children first, append the node after them. A
// toggle swaps in the classic mistake, appending before the children.

import { h, registerWidget, svg, uniqueId, type Params } from "./kit";
import { route } from "./shared/graph";
import "./sort-game.css";

interface Item {
  name: string;
  label: string;
  /** What must come before this item: its children. */
  needs: string[];
}

interface Puzzle {
  title: string;
  intro: string;
  goal: string;
  items: Map<string, Item>;
}

interface Step {
  /** The item this step is about (null before the first step). */
  node: string | null;
  kind: "start" | "enter" | "skip" | "append" | "done";
  stack: string[];
  order: string[];
  caption: string;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function parsePuzzles(raw: unknown): Puzzle[] {
  const puzzles: Puzzle[] = [];
  for (const entry of Array.isArray(raw) ? raw : []) {
    const fields = record(entry);
    const items = new Map<string, Item>();
    for (const rawItem of Array.isArray(fields.items) ? fields.items : []) {
      const item = record(rawItem);
      if (typeof item.name !== "string" || items.has(item.name)) continue;
      const needs = (Array.isArray(item.needs) ? item.needs : []).filter((n): n is string => typeof n === "string");
      items.set(item.name, { name: item.name, label: typeof item.label === "string" ? item.label : item.name, needs });
    }
    for (const item of items.values()) item.needs = item.needs.filter((n) => items.has(n));
    const goal = typeof fields.goal === "string" && items.has(fields.goal) ? fields.goal : [...items.keys()].pop();
    if (!goal) continue;
    puzzles.push({
      title: typeof fields.title === "string" ? fields.title : `Puzzle ${puzzles.length + 1}`,
      intro: typeof fields.intro === "string" ? fields.intro : "",
      goal,
      items,
    });
  }
  return puzzles;
}

/** The first rule `order` breaks: an item placed while something it needs is not placed before it. */
function firstBroken(puzzle: Puzzle, order: string[]): { need: string; item: string; at: number } | null {
  for (let at = 0; at < order.length; at += 1) {
    const item = puzzle.items.get(order[at]) as Item;
    for (const need of item.needs) {
      if (!order.slice(0, at).includes(need)) return { need, item: item.name, at };
    }
  }
  return null;
}

function brokenText(order: string[], broken: { need: string; item: string; at: number }): string {
  const later = order.indexOf(broken.need);
  const where = later < 0 ? `${broken.need} is not in the order yet` : `${broken.need} only comes at position ${later + 1}`;
  return `Broken rule: ${broken.need} must come before ${broken.item}, but ${broken.item} is at position ${broken.at + 1} and ${where}.`;
}

/** Every step of the depth-first sort from the goal, children in the order listed. */
function trace(puzzle: Puzzle, early: boolean): Step[] {
  const order: string[] = [];
  const stack: string[] = [];
  const steps: Step[] = [{
    node: null, kind: "start", stack: [], order: [],
    caption: `Press Step (or →) to call visit(${puzzle.goal}). The list starts empty.`,
  }];
  const push = (node: string, kind: Step["kind"], caption: string): void => {
    steps.push({ node, kind, stack: [...stack], order: [...order], caption });
  };
  const visit = (name: string): void => {
    const item = puzzle.items.get(name) as Item;
    if (order.includes(name)) {
      stack.push(name);
      push(name, "skip", `visit(${name}): ${name} is already in the list, so visit returns at once. `
        + "(Your visit in Build has no such check yet: it would list it twice. Lesson 3.4 adds the check.)");
      stack.pop();
      return;
    }
    stack.push(name);
    const children = item.needs.join(", ");
    if (early) {
      order.push(name);
      push(name, "append", `visit(${name}) appends ${name} at once, before its children: position ${order.length}.`
        + (item.needs.length ? ` Only then does it visit ${children}.` : ""));
    } else {
      push(name, "enter", item.needs.length
        ? `visit(${name}): ${name} needs ${children} before it, so visit those first, one after the other.`
        : `visit(${name}): ${name} needs nothing before it.`);
    }
    for (const child of item.needs) visit(child);
    if (!early) {
      order.push(name);
      push(name, "append", item.needs.length
        ? `Back in visit(${name}): all it needs is in the list now, so ${name} goes at the end: position ${order.length}.`
        : `${name} goes at the end of the list: position ${order.length}.`);
    }
    stack.pop();
  };
  visit(puzzle.goal);
  const broken = firstBroken(puzzle, order);
  push(puzzle.goal, "done", `visit(${puzzle.goal}) has returned. `
    + (broken ? brokenText(order, broken) : `Every rule holds: each item comes after everything it needs, and ${puzzle.goal} is last.`));
  return steps;
}

// ---- The rules, drawn ---------------------------------------------------------------------------

const BOX_W = 112;
const BOX_H = 40;
const COL = 124;
const ROW = 74;
const MARGIN = 8;

interface Drawing {
  element: SVGElement;
  boxes: Map<string, SVGElement>;
  badges: Map<string, SVGElement>;
}

function draw(puzzle: Puzzle): Drawing {
  // Depth-first from the goal gives each item a level (1 + its deepest need) and a first-seen order.
  const seen: string[] = [];
  const level = new Map<string, number>();
  const walk = (name: string): number => {
    const known = level.get(name);
    if (known !== undefined) return known;
    const item = puzzle.items.get(name) as Item;
    const depth = item.needs.length ? 1 + Math.max(...item.needs.map(walk)) : 0;
    level.set(name, depth);
    seen.push(name);
    return depth;
  };
  walk(puzzle.goal);
  const rows = Math.max(...level.values());
  const column = new Map<string, number>();
  seen.filter((n) => level.get(n) === 0).forEach((n, i) => column.set(n, i));
  for (let row = 1; row <= rows; row += 1) {
    const here = seen.filter((n) => level.get(n) === row);
    for (const name of here) {
      const needs = (puzzle.items.get(name) as Item).needs;
      column.set(name, needs.reduce((sum, n) => sum + (column.get(n) ?? 0), 0) / needs.length);
    }
    here.sort((p, q) => (column.get(p) ?? 0) - (column.get(q) ?? 0));
    for (let i = 1; i < here.length; i += 1) {
      const previous = column.get(here[i - 1]) ?? 0;
      if ((column.get(here[i]) ?? 0) < previous + 1) column.set(here[i], previous + 1);
    }
  }
  const low = Math.min(...column.values());
  const high = Math.max(...column.values());
  const width = 2 * MARGIN + (high - low) * COL + BOX_W;
  const height = 2 * MARGIN + rows * ROW + BOX_H;
  const at = (name: string): { x: number; y: number } => ({
    x: MARGIN + ((column.get(name) ?? 0) - low) * COL, y: MARGIN + (level.get(name) ?? 0) * ROW,
  });
  const arrowId = uniqueId("sg-arrow");
  const element = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "sg-graph", role: "img",
    "aria-label": `The rules as a picture: an arrow from one item to another means it must come before it. `
      + `The list of rules below says the same in words.`,
  }, svg("defs", {}, svg("marker", {
    id: arrowId, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 9, markerHeight: 9,
    markerUnits: "userSpaceOnUse", orient: "auto-start-reverse",
  }, svg("path", { d: "M0 0 L10 5 L0 10 z", class: "sg-arrowhead" }))));
  element.style.maxWidth = `${Math.round(width * 1.1)}px`;
  const edges = svg("g", {});
  const placed = seen.map((name) => ({ name, ...at(name) }));
  for (const name of seen) {
    const to = at(name);
    const needs = (puzzle.items.get(name) as Item).needs;
    // Arrows arrive side by side, left to right in the order their tails stand.
    const slots = [...needs].sort((p, q) => at(p).x - at(q).x);
    needs.forEach((need) => {
      const from = at(need);
      const slot = slots.indexOf(need);
      const spread = needs.length > 1 ? (slot / (needs.length - 1) - 0.5) * 0.5 : 0;
      const points = route({ x: from.x + BOX_W / 2, y: from.y + BOX_H }, { x: to.x + BOX_W / 2 + spread * BOX_W, y: to.y },
        placed.filter((box) => box.name !== name && box.name !== need), BOX_W, BOX_H);
      const d = points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
      edges.append(svg("path", { d, class: "sg-edge", "marker-end": `url(#${arrowId})` }));
    });
  }
  element.append(edges);
  const boxes = new Map<string, SVGElement>();
  const badges = new Map<string, SVGElement>();
  for (const name of seen) {
    const place = at(name);
    const item = puzzle.items.get(name) as Item;
    const badge = svg("text", { x: BOX_W - 6, y: 13, "text-anchor": "end", class: "sg-badge" });
    const box = svg("g", { class: `sg-box${name === puzzle.goal ? " sg-goal" : ""}`, transform: `translate(${place.x} ${place.y})`, "data-item": name },
      svg("rect", { width: BOX_W, height: BOX_H, rx: 7 }),
      svg("text", { x: BOX_W / 2, y: 25, "text-anchor": "middle", class: "sg-label" }, item.label),
      badge);
    element.append(box);
    boxes.set(name, box);
    badges.set(name, badge);
  }
  return { element, boxes, badges };
}


// ---- The widget ---------------------------------------------------------------------------------

function mountSortGame(root: HTMLElement, params: Params): void {
  const puzzles = parsePuzzles(params.puzzles);
  if (puzzles.length === 0) {
    root.append(h("p", {}, "This widget has no puzzle to show."));
    return;
  }
  const mistakeText = typeof params.mistake === "string" && params.mistake.trim() ? params.mistake : "Try appending before the children";
  let puzzle = puzzles[0];
  let mine: string[] = [];
  let early = false;
  let steps: Step[] = [];
  let step = 0;

  // Which puzzle.
  const pickerName = uniqueId("sg-puzzle");
  const picker = h("fieldset", { class: "sg-picker" }, h("legend", {}, "Puzzle"),
    ...puzzles.map((p, index) => {
      const id = uniqueId("sg-pick");
      const radio = h("input", { type: "radio", name: pickerName, id, checked: index === 0 });
      radio.addEventListener("change", () => {
        if (radio.checked) choose(p);
      });
      return h("label", { class: "sg-pick", for: id }, radio, `${index + 1}. ${p.title}`);
    }));

  // The rules.
  const intro = h("p", { class: "sg-intro" });
  const figure = h("figure", { class: "sg-figure" });
  const rules = h("ul", { class: "sg-rules", "data-rules": "" });
  const rulesBox = h("details", { class: "sg-rules-box" }, h("summary", {}, "The rules in words"), rules);

  // The learner's order.
  const mineList = h("ol", { class: "sg-order", "aria-label": "Your order", "data-mine": "" });
  const itemButtons = h("div", { class: "sg-items", role: "group", "aria-label": "Items not placed yet: press one to put it next" });
  const undo = h("button", { type: "button", class: "secondary" }, "Undo");
  const restart = h("button", { type: "button", class: "secondary" }, "Start over");
  const checkButton = h("button", { type: "button", "data-check-order": "" }, "Check my order");
  const verdict = h("p", { class: "sg-verdict", role: "status", "aria-live": "polite", "data-verdict": "" });
  undo.addEventListener("click", () => {
    mine.pop();
    verdict.textContent = "";
    renderMine();
  });
  restart.addEventListener("click", () => {
    mine = [];
    verdict.textContent = "";
    renderMine();
  });
  checkButton.addEventListener("click", () => {
    const broken = firstBroken(puzzle, mine);
    const left = puzzle.items.size - mine.length;
    verdict.classList.toggle("sg-bad", broken !== null);
    verdict.classList.toggle("sg-good", broken === null && left === 0);
    if (broken) verdict.textContent = brokenText(mine, broken);
    else if (mine.length === 0) verdict.textContent = "Nothing placed yet: press the items in the order you would put them on.";
    else if (left > 0) verdict.textContent = `No rule broken so far. ${left} item${left === 1 ? "" : "s"} still to place.`;
    else verdict.textContent = `Every rule holds: a right order! Other orders may be right too; compare yours with the sort's below.`;
  });

  // The algorithm.
  const back = h("button", { type: "button", class: "secondary", "aria-keyshortcuts": "ArrowLeft" }, "◀ Back");
  const forward = h("button", { type: "button", "aria-keyshortcuts": "ArrowRight" }, "Step ▶");
  const toEnd = h("button", { type: "button", class: "secondary" }, "To the end");
  const reset = h("button", { type: "button", class: "secondary" }, "Reset");
  const counter = h("span", { class: "sg-counter", "data-step-counter": "" });
  const toggleId = uniqueId("sg-mistake");
  const toggle = h("input", { type: "checkbox", id: toggleId });
  const toggleLabel = h("label", { class: "sg-toggle", for: toggleId }, toggle, " ", mistakeText);
  const stackView = h("ol", { class: "sg-stack", "aria-label": "The calls of visit still running, outermost first", "data-stack": "" });
  const orderView = h("ol", { class: "sg-order", "aria-label": "The list the sort has built so far", "data-sort-order": "" });
  const caption = h("p", { class: "sg-caption", "aria-live": "polite", "data-caption": "" });
  const code = h("pre", { class: "sg-code" });
  const algorithm = h("div", {
    class: "sg-algorithm", tabindex: 0, role: "group",
    "aria-label": "The sort, one step at a time. Left and Right arrow keys step back and forward.",
  },
  h("div", { class: "sg-controls" }, back, forward, toEnd, reset, counter, toggleLabel),
  h("div", { class: "sg-run" },
    h("div", { class: "sg-run-part" }, h("p", { class: "sg-heading" }, "Calls running"), stackView),
    h("div", { class: "sg-run-part" }, h("p", { class: "sg-heading" }, "The list so far"), orderView),
    h("div", { class: "sg-run-part sg-code-part" }, h("p", { class: "sg-heading" }, "visit()"), code)),
  caption);

  let drawing: Drawing | null = null;
  root.append(h("div", { class: "sg" },
    picker, intro, figure, rulesBox,
    h("h3", { class: "sg-title" }, "Your order"),
    h("p", { class: "sg-help" }, "Press the items in the order you would put them: each goes at the end of your list."),
    itemButtons, h("div", { class: "sg-line" }, h("span", { class: "sg-heading" }, "Your list:"), mineList),
    h("div", { class: "sg-controls" }, checkButton, undo, restart), verdict,
    h("h3", { class: "sg-title" }, "The sort's order, step by step"),
    algorithm));

  back.addEventListener("click", () => go(step - 1));
  forward.addEventListener("click", () => go(step + 1));
  toEnd.addEventListener("click", () => go(steps.length - 1));
  reset.addEventListener("click", () => go(0));
  toggle.addEventListener("change", () => {
    const atEnd = step > 0 && step === steps.length - 1;
    early = toggle.checked;
    steps = trace(puzzle, early);
    go(atEnd ? steps.length - 1 : Math.min(step, steps.length - 1));
  });
  algorithm.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else return;
    event.preventDefault();
  });

  function chip(name: string, index: number, extra = ""): HTMLElement {
    return h("li", { class: `sg-chip${extra}`, "data-name": name }, h("span", { class: "sg-pos", "aria-hidden": "true" }, String(index + 1)), name);
  }

  function renderMine(): void {
    mineList.replaceChildren(...mine.map((name, index) => chip(name, index)));
    if (mine.length === 0) mineList.append(h("li", { class: "sg-empty" }, "empty"));
    itemButtons.replaceChildren(...[...puzzle.items.values()].filter((item) => !mine.includes(item.name)).map((item) => {
      const button = h("button", { type: "button", class: "secondary sg-item", "data-put": item.name }, item.label);
      button.setAttribute("aria-label", `Put ${item.label} next`);
      button.addEventListener("click", () => {
        mine.push(item.name);
        verdict.textContent = "";
        renderMine();
        const next = itemButtons.querySelector("button");
        (next ?? checkButton).focus();
      });
      return button;
    }));
    if (itemButtons.children.length === 0) itemButtons.append(h("span", { class: "sg-help" }, "All placed: check your order."));
    undo.toggleAttribute("disabled", mine.length === 0);
    restart.toggleAttribute("disabled", mine.length === 0);
    if (drawing) {
      for (const [name, badge] of drawing.badges) {
        const position = mine.indexOf(name);
        badge.textContent = position < 0 ? "" : String(position + 1);
        drawing.boxes.get(name)?.classList.toggle("sg-placed", position >= 0);
      }
    }
  }

  function renderCode(): void {
    const lines = early
      ? ["def visit(node):", "    order.append(node)   # the mistake", "    for child in node._children:", "        visit(child)"]
      : ["def visit(node):", "    for child in node._children:", "        visit(child)", "    order.append(node)"];
    code.textContent = lines.join("\n");
  }

  function go(to: number): void {
    step = Math.max(0, Math.min(steps.length - 1, to));
    const now = steps[step];
    stackView.replaceChildren(...now.stack.map((name, depth) => h("li", {
      class: `sg-call${depth === now.stack.length - 1 ? " sg-current" : ""}`,
      style: `margin-left: ${Math.min(depth, 6) * 0.8}rem`,
    }, `visit(${name})`)));
    if (now.stack.length === 0) stackView.append(h("li", { class: "sg-empty" }, step === 0 ? "not started" : "all returned"));
    orderView.replaceChildren(...now.order.map((name, index) => chip(name, index,
      now.kind === "append" && index === now.order.length - 1 ? " sg-new" : "")));
    if (now.order.length === 0) orderView.append(h("li", { class: "sg-empty" }, "empty"));
    caption.textContent = now.caption;
    caption.classList.toggle("sg-bad", now.kind === "done" && firstBroken(puzzle, now.order) !== null);
    counter.textContent = `step ${step} / ${steps.length - 1}`;
    back.setAttribute("aria-disabled", String(step === 0));
    forward.setAttribute("aria-disabled", String(step === steps.length - 1));
    renderCode();
    if (drawing) {
      for (const [name, box] of drawing.boxes) box.classList.toggle("sg-active", step > 0 && now.node === name && now.kind !== "done");
    }
  }

  function choose(next: Puzzle): void {
    puzzle = next;
    mine = [];
    verdict.textContent = "";
    intro.textContent = puzzle.intro;
    intro.hidden = !puzzle.intro;
    drawing = draw(puzzle);
    figure.replaceChildren(drawing.element);
    rules.replaceChildren(...[...puzzle.items.values()].flatMap((item) => item.needs.map((need) => h("li", {}, `${need} before ${item.name}`))));
    steps = trace(puzzle, early);
    renderMine();
    go(0);
  }

  choose(puzzle);
}

registerWidget("sort-game", mountSortGame);
