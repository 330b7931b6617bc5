// A learner's Value graph as SVG: a box per node (its name or operation, data and grad), an arrow
// per child with the local grad it records, laid out by graph-layout.ts. Built as one string and
// parsed once: a few hundred nodes of separate DOM calls would hold the page for longer than a frame.
import { BOX, edgeKey, type GraphNode, type Layout, type Placed, type ValueGraph } from "./graph-shape";
import { formatNumber } from "./widgets/kit";
import "./widgets/shared/graph.css";

export interface NodeMarks {
  /** The node the current step writes to, the one handing its grad on, and nodes marked wrong. */
  to: number | null; from: number | null; wrong: Set<number>;
  /** Which of the giver's arrows the step travels (its child's slot), null for every arrow to `to`. */
  slot?: number | null;
  /** Each node's grad as of the current step (the step-through's replay), by id. */
  grads: Map<number, number | null>;
}

const escape = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const shown = (x: number | null): string => (x === null ? "—" : formatNumber(x));

/** What a node is, in a few words: "x", "a + node", "a number". */
export function nodeTitle(node: GraphNode): string {
  if (node.name) return node.op ? `${node.name} (${node.op})` : node.name;
  return node.op ? `${node.op} node #${node.id}` : `number #${node.id}`;
}

/** The node read out in words, for the keyboard and screen readers. */
export function nodeWords(node: GraphNode, grad: number | null, graph: ValueGraph, place = -1, sorted = 0): string {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const kids = node.children.map((child, i) => `${nodeTitle(byId.get(child)!)} (local grad ${shown(node.local[i] ?? null)})`);
  const made = kids.length ? `made from ${kids.join(" and ")}` : "a leaf: made from no other Value";
  const folded = node.folded ? `; ${node.folded} more below it, not drawn` : "";
  const sort = place >= 0 ? `; number ${place + 1} of ${sorted} in your topological sort` : "";
  return `${nodeTitle(node)}: data ${shown(node.data)}, grad ${shown(grad)}; ${made}${folded}${sort}.`;
}

function path(points: Placed[]): string {
  return points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
}

function edgesSvg(graph: ValueGraph, layout: Layout, marks: NodeMarks): string {
  const parts: string[] = [];
  for (const node of graph.nodes) {
    node.children.forEach((child, slot) => {
      const points = layout.edges[edgeKey(child, node.id, slot)];
      if (!points?.length) return;
      const hot = marks.from === node.id && marks.to === child;
      const middle = points[Math.floor(points.length / 2)];
      const local = node.local[slot];
      parts.push(`<path class="kit-edge${hot ? " kit-hot" : ""}" data-edge="${edgeKey(child, node.id, slot)}" d="${path(points)}" marker-end="url(#graph-arrow${hot ? "-hot" : ""})"/>`);
      if (local !== null && local !== undefined) {
        parts.push(`<text class="graph-local" x="${(middle.x + 4).toFixed(1)}" y="${(middle.y - 2).toFixed(1)}">×${escape(formatNumber(local, 3))}</text>`);
      }
    });
  }
  return parts.join("");
}

function nodesSvg(graph: ValueGraph, layout: Layout, marks: NodeMarks): string {
  const grads = graph.nodes.some((node) => node.grad !== null); // lesson 3.1's Values have none yet
  return graph.nodes.map((node) => {
    const { x, y } = layout.at[node.id];
    const classes = ["graph-node"];
    if (marks.to === node.id) classes.push("graph-to");
    if (marks.from === node.id) classes.push("graph-from");
    if (marks.wrong.has(node.id)) classes.push("graph-wrong");
    const grad = marks.grads.has(node.id) ? marks.grads.get(node.id)! : node.grad;
    const folded = node.folded ? `<text class="graph-folded" x="${BOX.width - 6}" y="${BOX.height - 6}" text-anchor="end">+${node.folded}</text>` : "";
    return `<g class="${classes.join(" ")}" data-node="${node.id}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)})">`
      + `<rect width="${BOX.width}" height="${BOX.height}" rx="6"/>`
      + `<text class="graph-title" x="8" y="16">${escape(nodeTitle(node))}</text>`
      + `<text x="8" y="32">data ${escape(shown(node.data))}</text>`
      + (grads ? `<text class="graph-grad" x="8" y="47">grad ${escape(shown(grad))}</text>` : "") + `${folded}</g>`;
  }).join("");
}

/** The whole picture as an <svg> element, sized to the layout (it scrolls in its panel). */
export function drawGraph(graph: ValueGraph, layout: Layout, marks: NodeMarks): SVGSVGElement {
  const arrow = (id: string, cls: string): string =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="${cls}"/></marker>`;
  const text = `<svg xmlns="http://www.w3.org/2000/svg" class="graph-svg" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" `
    + `viewBox="0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}" aria-hidden="true">`
    + `<defs>${arrow("graph-arrow", "kit-arrowhead")}${arrow("graph-arrow-hot", "kit-arrowhead kit-hot")}</defs>`
    + `${edgesSvg(graph, layout, marks)}${nodesSvg(graph, layout, marks)}</svg>`;
  // The HTML parser reads inline SVG into the page's own document in one pass (no import step).
  const holder = document.createElement("div");
  holder.innerHTML = text;
  return holder.firstElementChild as SVGSVGElement;
}

/** Each drawn node's group and grad text, found once per drawing: a step touches only what changed. */
const drawn = new WeakMap<SVGSVGElement, Map<number, { group: SVGGElement; grad: Element | null }>>();

function nodesOf(drawing: SVGSVGElement): Map<number, { group: SVGGElement; grad: Element | null }> {
  let found = drawn.get(drawing);
  if (!found) {
    found = new Map();
    for (const group of drawing.querySelectorAll<SVGGElement>("g[data-node]")) {
      found.set(Number(group.dataset.node), { group, grad: group.querySelector(".graph-grad") });
    }
    drawn.set(drawing, found);
  }
  return found;
}

/** Show a step's marks on a drawn graph without drawing it again: classes and grads only, and
 *  only where they change (with 500 nodes, rewriting every text made a step a long task). */
export function applyMarks(drawing: SVGSVGElement, graph: ValueGraph, marks: NodeMarks): void {
  for (const [id, { group, grad }] of nodesOf(drawing)) {
    const node = graph.nodes[id];
    const toggles: Array<[string, boolean]> = [
      ["graph-to", marks.to === id], ["graph-from", marks.from === id], ["graph-wrong", marks.wrong.has(id)]];
    for (const [name, on] of toggles) if (group.classList.contains(name) !== on) group.classList.toggle(name, on);
    const text = `grad ${shown(marks.grads.has(id) ? marks.grads.get(id)! : node.grad)}`;
    if (grad && grad.textContent !== text) grad.textContent = text;
  }
  drawing.querySelectorAll(".kit-edge.kit-hot").forEach((edge) => {
    edge.classList.remove("kit-hot");
    edge.setAttribute("marker-end", "url(#graph-arrow)");
  });
  if (marks.from === null || marks.to === null) return;
  const parent = graph.nodes[marks.from];
  parent?.children.forEach((child, slot) => {
    if (child !== marks.to || (marks.slot !== undefined && marks.slot !== null && slot !== marks.slot)) return;
    const edge = drawing.querySelector(`path[data-edge="${edgeKey(child, parent.id, slot)}"]`);
    edge?.classList.add("kit-hot");
    edge?.setAttribute("marker-end", "url(#graph-arrow-hot)");
  });
}
