// A list the learner's code made, drawn where a graph would not help: numbers (or Values) as bars,
// shares that add up to 1 (a softmax's output) as bars labelled in percent, a list of such lists
// (attention weights over positions, a bigram table) as a grid shaded by size.
import { formatNumber } from "./widgets/kit";

export type Picture =
  | { kind: "bars"; values: Array<number | null>; total: number; shares: boolean }
  | { kind: "grid"; rows: Array<Array<number | null>>; total: number };

const SVG = "http://www.w3.org/2000/svg";

function el(tag: string, attrs: Record<string, string | number>, text = ""): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text) element.textContent = text;
  return element;
}

function label(x: number | null, shares: boolean): string {
  if (x === null) return "—";
  return shares ? `${formatNumber(100 * x, 1)}%` : formatNumber(x, 3);
}

function bars(values: Array<number | null>, shares: boolean): SVGElement {
  const numbers = values.map((v) => v ?? 0);
  const high = Math.max(1e-12, ...numbers.map(Math.abs));
  const row = 22;
  const width = 360;
  const picture = el("svg", { class: "graph-picture", width, height: row * values.length + 8, viewBox: `0 0 ${width} ${row * values.length + 8}`, role: "img" });
  values.forEach((value, i) => {
    const length = (Math.abs(value ?? 0) / high) * 220;
    picture.append(el("text", { x: 0, y: i * row + 16 }, `[${i}]`));
    picture.append(el("rect", { x: 40, y: i * row + 4, width: length.toFixed(1), height: row - 8, class: (value ?? 0) < 0 ? "graph-bar graph-negative" : "graph-bar" }));
    picture.append(el("text", { x: 46 + length, y: i * row + 16 }, label(value, shares)));
  });
  return picture;
}

function grid(rows: Array<Array<number | null>>): HTMLTableElement {
  const all = rows.flat().filter((v): v is number => v !== null);
  const low = Math.min(0, ...all);
  const high = Math.max(1e-12, ...all);
  const table = document.createElement("table");
  table.className = "graph-grid";
  const head = table.createTHead().insertRow();
  head.append(document.createElement("th"));
  rows[0]?.forEach((_, j) => { const th = document.createElement("th"); th.scope = "col"; th.textContent = String(j); head.append(th); });
  const body = table.createTBody();
  rows.forEach((values, i) => {
    const tr = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = String(i);
    tr.append(th);
    for (const value of values) {
      const cell = tr.insertCell();
      cell.textContent = label(value, false);
      const strength = value === null ? 0 : (value - low) / (high - low);
      cell.style.setProperty("--strength", strength.toFixed(3));
    }
  });
  return table;
}

/** The picture with a caption that names it and says what is cut. */
export function drawPicture(name: string, picture: Picture): HTMLElement {
  const figure = document.createElement("figure");
  figure.className = "graph-picture-figure";
  const shown = picture.kind === "bars" ? picture.values.length : picture.rows.length;
  const caption = document.createElement("figcaption");
  caption.textContent = `${name}${picture.kind === "bars" && picture.shares ? " (its items add up to 1: shares)" : ""}`
    + (picture.total > shown ? `: the first ${shown} of ${picture.total} items` : "");
  const body = picture.kind === "bars" ? bars(picture.values, picture.shares) : grid(picture.rows);
  if (picture.kind === "bars") body.setAttribute("aria-label", `${name}: ${picture.values.map((v, i) => `${i}: ${label(v, picture.shares)}`).join(", ")}`);
  figure.append(caption, body);
  return figure;
}
