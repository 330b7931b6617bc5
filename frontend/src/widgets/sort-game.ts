// Explore widget "sort-game" (lesson 3.3): put the items of a puzzle in an order that keeps every
// "must come before" rule (socks before shoes), have the order checked, then step through the
// depth-first sort that builds one: visit the children first, append the node after them. A
// toggle swaps in the classic mistake, appending before the children.

import { say } from "../live";
import { h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle, stepControls } from "./shared/controls";
import { arrowMarker, layered, pathData, route } from "./shared/graph";
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
const GRID = { boxWidth: BOX_W, boxHeight: BOX_H, column: 124, row: 74, margin: 8 };

interface Drawing {
  element: SVGElement;
  boxes: Map<string, SVGElement>;
  badges: Map<string, SVGElement>;
}

function draw(puzzle: Puzzle): Drawing {
  // Depth-first from the goal: each item after what it needs, each once.
  const seen: string[] = [];
  const walk = (name: string): void => {
    if (seen.includes(name)) return;
    for (const need of (puzzle.items.get(name) as Item).needs) walk(need);
    seen.push(name);
  };
  walk(puzzle.goal);
  const { at: places, width, height } = layered(seen, (name) => (puzzle.items.get(name) as Item).needs, GRID);
  const at = (name: string): { x: number; y: number } => places.get(name) as { x: number; y: number };
  const arrowId = uniqueId("sg-arrow");
  const element = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "kit-graph", role: "img",
    "aria-label": `The rules as a picture: an arrow from one item to another means it must come before it. `
      + `The list of rules below says the same in words.`,
  }, svg("defs", {}, arrowMarker(arrowId, 9)));
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
      edges.append(svg("path", { d: pathData(points), class: "kit-edge", "marker-end": `url(#${arrowId})` }));
    });
  }
  element.append(edges);
  const boxes = new Map<string, SVGElement>();
  const badges = new Map<string, SVGElement>();
  for (const name of seen) {
    const place = at(name);
    const item = puzzle.items.get(name) as Item;
    const badge = svg("text", { x: BOX_W - 6, y: 13, "text-anchor": "end", class: "sg-badge" });
    const box = svg("g", { class: `kit-node sg-box${name === puzzle.goal ? " sg-goal" : ""}`, transform: `translate(${place.x} ${place.y})`, "data-item": name },
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
  const mistakeText = textOr(params.mistake, "Try appending before the children");
  let puzzle = puzzles[0];
  let mine: string[] = [];
  let early = false;
  let steps: Step[] = [];

  // Which puzzle.
  const picker = choiceGroup({
    legend: "Puzzle", name: "sg-puzzle", onPick: (index) => choose(puzzles[index]),
    choices: puzzles.map((p, index) => ({ label: [`${index + 1}. ${p.title}`] })),
  });

  // The rules.
  const intro = h("p", { class: "sg-intro" });
  const figure = h("figure", { class: "sg-figure" });
  const rules = h("ul", { class: "sg-rules", "data-rules": "" });
  const rulesBox = h("details", { class: "sg-rules-box" }, h("summary", {}, "The rules in words"), rules);

  // The learner's order.
  const mineList = h("ol", { class: "kit-chips", "aria-label": "Your order", "data-mine": "" });
  const itemButtons = h("div", { class: "sg-items", role: "group", "aria-label": "Items not placed yet: press one to put it next" });
  const undo = h("button", { type: "button", class: "secondary" }, "Undo");
  const restart = h("button", { type: "button", class: "secondary" }, "Start over");
  const checkButton = h("button", { type: "button", "data-check-order": "" }, "Check my order");
  const verdict = h("p", { class: "kit-callout sg-verdict", role: "status", "aria-live": "polite", "data-verdict": "" });
  undo.addEventListener("click", () => {
    mine.pop();
    say(verdict, "");
    renderMine();
  });
  restart.addEventListener("click", () => {
    mine = [];
    say(verdict, "");
    renderMine();
  });
  checkButton.addEventListener("click", () => {
    const broken = firstBroken(puzzle, mine);
    const left = puzzle.items.size - mine.length;
    if (broken) verdict.dataset.tone = "bad";
    else if (left === 0) verdict.dataset.tone = "good";
    else delete verdict.dataset.tone;
    if (broken) say(verdict, brokenText(mine, broken));
    else if (mine.length === 0) say(verdict, "Nothing placed yet: press the items in the order you would put them on.");
    else if (left > 0) say(verdict, `No rule broken so far. ${left} item${left === 1 ? "" : "s"} still to place.`);
    else say(verdict, `Every rule holds: a right order! Other orders may be right too; compare yours with the sort's below.`);
  });

  // The algorithm.
  const stepper = stepControls({ last: () => steps.length - 1, show, toEnd: true, reset: true });
  const toggle = mistakeToggle(mistakeText, { name: "sg-mistake" });
  stepper.row.append(toggle.label);
  const stackView = h("ol", { class: "sg-stack", "aria-label": "The calls of visit still running, outermost first", "data-stack": "" });
  const orderView = h("ol", { class: "kit-chips", "aria-label": "The list the sort has built so far", "data-sort-order": "" });
  const caption = h("p", { class: "kit-callout", "aria-live": "polite", "data-caption": "" });
  const code = h("pre", { class: "kit-code" });
  const algorithm = h("div", {
    class: "sg-algorithm", tabindex: 0, role: "group",
    "aria-label": "The sort, one step at a time. Left and Right arrow keys step back and forward.",
  },
  stepper.row,
  h("div", { class: "sg-run" },
    h("div", { class: "sg-run-part" }, h("p", { class: "sg-heading" }, "Calls running"), stackView),
    h("div", { class: "sg-run-part" }, h("p", { class: "sg-heading" }, "The list so far"), orderView),
    h("div", { class: "sg-run-part sg-code-part" }, h("p", { class: "sg-heading" }, "visit()"), code)),
  caption);

  let drawing: Drawing | null = null;
  root.append(h("div", { class: "sg" },
    picker, intro, figure, rulesBox,
    h("h3", { class: "kit-title" }, "Your order"),
    h("p", { class: "sg-help" }, "Press the items in the order you would put them: each goes at the end of your list."),
    itemButtons, h("div", { class: "sg-line" }, h("span", { class: "sg-heading" }, "Your list:"), mineList),
    h("div", { class: "kit-controls" }, checkButton, undo, restart), verdict,
    h("h3", { class: "kit-title" }, "The sort's order, step by step"),
    algorithm));

  toggle.input.addEventListener("change", () => {
    const step = stepper.step();
    const atEnd = step > 0 && step === steps.length - 1;
    early = toggle.input.checked;
    steps = trace(puzzle, early);
    stepper.go(atEnd ? steps.length - 1 : Math.min(step, steps.length - 1));
  });
  stepper.arrowKeys(algorithm);

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
        say(verdict, "");
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

  function show(step: number): void {
    const now = steps[step];
    stackView.replaceChildren(...now.stack.map((name, depth) => h("li", {
      class: `sg-call${depth === now.stack.length - 1 ? " sg-current" : ""}`,
      style: `margin-left: ${Math.min(depth, 6) * 0.8}rem`,
    }, `visit(${name})`)));
    if (now.stack.length === 0) stackView.append(h("li", { class: "sg-empty" }, step === 0 ? "not started" : "all returned"));
    orderView.replaceChildren(...now.order.map((name, index) => chip(name, index,
      now.kind === "append" && index === now.order.length - 1 ? " sg-new" : "")));
    if (now.order.length === 0) orderView.append(h("li", { class: "sg-empty" }, "empty"));
    say(caption, now.caption);
    if (now.kind === "done" && firstBroken(puzzle, now.order) !== null) caption.dataset.tone = "bad";
    else delete caption.dataset.tone;
    renderCode();
    if (drawing) {
      for (const [name, box] of drawing.boxes) box.classList.toggle("sg-active", step > 0 && now.node === name && now.kind !== "done");
    }
  }

  function choose(next: Puzzle): void {
    puzzle = next;
    mine = [];
    say(verdict, "");
    intro.textContent = puzzle.intro;
    intro.hidden = !puzzle.intro;
    drawing = draw(puzzle);
    figure.replaceChildren(drawing.element);
    rules.replaceChildren(...[...puzzle.items.values()].flatMap((item) => item.needs.map((need) => h("li", {}, `${need} before ${item.name}`))));
    steps = trace(puzzle, early);
    renderMine();
    stepper.go(0);
  }

  choose(puzzle);
}

registerWidget("sort-game", mountSortGame);
