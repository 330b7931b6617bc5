// Explore widget "vector-bars" (lessons 6.1–6.3): rows of numbers (slopes, probabilities,
// gradients) drawn as bars, one view at a time, with an optional "try the mistake" toggle that
// swaps in the same views computed with a classic mistake. Every number comes from the lesson's
// own code (explore.compute); this file only draws them.

import { say, sayWith } from "../live";
import { formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { mistakeToggle, stepControls } from "./shared/controls";
import "./vector-bars.css";

type Style = "value" | "grad" | "reference" | "bad";

interface Row {
  name: string;
  values: number[];
  labels: string[] | null;
  mark: number | null;
  style: Style;
}

interface View {
  label: string;
  caption: string;
  rows: Row[];
}

const STYLES: readonly Style[] = ["value", "grad", "reference", "bad"];

function parseRow(raw: unknown): Row | null {
  const fields = record(raw);
  const values = Array.isArray(fields.values)
    ? fields.values.filter((v): v is number => typeof v === "number" && Number.isFinite(v)) : [];
  if (typeof fields.name !== "string" || values.length === 0) return null;
  const labels = Array.isArray(fields.labels) && fields.labels.length === values.length
    ? fields.labels.map(String) : null;
  const mark = typeof fields.mark === "number" && fields.mark >= 0 && fields.mark < values.length ? fields.mark : null;
  const style = STYLES.includes(fields.style as Style) ? (fields.style as Style) : "value";
  return { name: fields.name, values, labels, mark, style };
}

function parseViews(raw: unknown): View[] {
  const list = Array.isArray(raw) ? raw : [];
  const views: View[] = [];
  for (const item of list) {
    const fields = record(item);
    const rows = (Array.isArray(fields.rows) ? fields.rows : []).map(parseRow).filter((row): row is Row => row !== null);
    if (typeof fields.label !== "string" || rows.length === 0) continue;
    views.push({ label: fields.label, caption: typeof fields.caption === "string" ? fields.caption : "", rows });
  }
  return views;
}

/** A number with up to 6 decimals: gradients here are often a few thousandths. */
function show(x: number): string {
  return formatNumber(x, 6);
}

/** The label of value i: its own label, or its index. */
function labelOf(row: Row, index: number): string {
  return row.labels ? row.labels[index] : String(index);
}

// ---- One row of bars -----------------------------------------------------------------------

const W = 640;
const H = 120;
const PAD = { left: 4, right: 4, top: 6, bottom: 6 };

/** Probabilities: no number below 0 or above 1, adding up to 1 (a one-hot is one too). */
function isDistribution(row: Row): boolean {
  const total = row.values.reduce((sum, v) => sum + v, 0);
  return row.values.every((v) => v >= 0 && v <= 1) && Math.abs(total - 1) < 1e-6;
}

/** Probabilities (and one-hots) are drawn from 0 to 1, so that rows of them compare at a glance:
 *  a 0.04 is a sliver beside a one-hot's 1. Rows compared with each other (gradients, a
 *  reference) share one scale; other values get their own. */
function scaleOf(row: Row, view: View): number {
  if (isDistribution(row)) return 1;
  const together = row.style === "value" ? [row] : view.rows.filter((other) => other.style !== "value");
  const biggest = Math.max(...together.flatMap((other) => other.values.map(Math.abs)));
  return biggest > 0 ? biggest : 1;
}

/** The bars (an SVG stretched to the row's width) and, under them, the labels (HTML, never stretched). */
function drawRow(row: Row, view: View, titleId: string): HTMLElement {
  const n = row.values.length;
  const scale = scaleOf(row, view);
  const shared = row.style === "value" ? [row] : view.rows.filter((other) => other.style !== "value");
  const anyNegative = shared.some((r) => r.values.some((v) => v < 0));
  const anyPositive = shared.some((r) => r.values.some((v) => v > 0)) || !anyNegative;
  const plotTop = PAD.top;
  const plotBottom = H - PAD.bottom;
  const zero = anyNegative && anyPositive ? (plotTop + plotBottom) / 2 : anyNegative ? plotTop : plotBottom;
  const room = anyNegative && anyPositive ? (plotBottom - plotTop) / 2 : plotBottom - plotTop;
  const slot = (W - PAD.left - PAD.right) / n;
  const gap = Math.min(2, slot * 0.2);
  const chart = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "vb-chart", role: "img", "aria-labelledby": titleId,
    preserveAspectRatio: "none",
  });
  chart.append(svg("line", { class: "vb-zero", x1: PAD.left, x2: W - PAD.right, y1: zero, y2: zero }));
  if (isDistribution(row)) chart.append(svg("line", { class: "vb-one", x1: PAD.left, x2: W - PAD.right, y1: plotTop, y2: plotTop }));
  row.values.forEach((value, index) => {
    const length = (Math.abs(value) / scale) * room;
    const x = PAD.left + index * slot + gap / 2;
    const y = value >= 0 ? zero - length : zero;
    chart.append(svg("rect", {
      class: index === row.mark ? "vb-bar vb-marked" : "vb-bar",
      x: x.toFixed(2), y: y.toFixed(2), width: Math.max(0.5, slot - gap).toFixed(2), height: Math.max(0, length).toFixed(2),
    }));
  });
  const labels = h("div", { class: "vb-labels", "aria-hidden": "true" });
  if (n <= 32) {
    labels.style.gridTemplateColumns = `repeat(${n}, minmax(0, 1fr))`;
    for (let i = 0; i < n; i += 1) {
      labels.append(h("span", { class: i === row.mark ? "vb-label vb-label-marked" : "vb-label" }, labelOf(row, i)));
    }
  } else {
    labels.classList.add("vb-labels-ends");
    labels.append(h("span", { class: "vb-label" }, labelOf(row, 0)), h("span", { class: "vb-label" }, labelOf(row, n - 1)));
  }
  return h("div", { class: `vb-plot vb-${row.style}` }, chart, labels);
}

function rowSummary(row: Row): string {
  const low = Math.min(...row.values);
  const high = Math.max(...row.values);
  const scale = isDistribution(row) ? ", drawn on a scale from 0 to 1" : "";
  return `${row.values.length} numbers, from ${show(low)} to ${show(high)}${scale}`;
}

// ---- The widget ----------------------------------------------------------------------------

function mountVectorBars(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const views = parseViews(data.views);
  const mistakeViews = parseViews(data.mistake_views);
  if (views.length === 0) {
    root.append(h("p", {}, "This widget has no numbers to show."));
    return;
  }
  const viewLabel = textOr(params.view_label, "View");
  const mistakeText = mistakeViews.length === views.length ? textOr(params.mistake, null) : null;

  let mistaken = false;

  const stepper = stepControls({
    last: () => views.length - 1, show: render, back: "◀ Previous", forward: "Next ▶",
    counter: (index, last) => `${index + 1} / ${last + 1}`, counterAttr: "data-view-counter",
  });
  if (mistakeText) {
    const toggle = mistakeToggle(mistakeText, { name: "vb-mistake", className: "kit-push" });
    toggle.input.addEventListener("change", () => {
      mistaken = toggle.input.checked;
      stepper.go(stepper.step());
    });
    stepper.row.append(toggle.label);
  }
  const heading = h("p", { class: "vb-heading", "aria-live": "polite", "data-view-label": "" });
  const rowsBox = h("div", { class: "vb-rows" });
  const caption = h("p", { class: "vb-caption", "aria-live": "polite", "data-caption": "" });
  // A region the keyboard can reach and scroll, with a name for screen readers.
  const numbers = h("div", { class: "vb-numbers", tabindex: 0, role: "region", "aria-label": "The numbers, row by row" });
  const details = h("details", { class: "vb-details" }, h("summary", {}, "The numbers"), numbers);

  const widget = h("div", {
    class: "vb", tabindex: 0, role: "group",
    "aria-label": `${viewLabel}, one at a time. Left and Right arrow keys move between them.`,
  }, stepper.row, heading, rowsBox, caption, details);
  root.append(widget);
  stepper.arrowKeys(widget);

  function render(index: number): void {
    const view = (mistaken ? mistakeViews : views)[index];
    sayWith(heading, h("span", { class: "vb-heading-key" }, `${viewLabel}: `), h("strong", {}, view.label));
    rowsBox.replaceChildren();
    numbers.replaceChildren();
    view.rows.forEach((row, rowIndex) => {
      const titleId = uniqueId("vb-row");
      const marked = row.mark === null ? null
        : h("span", { class: "vb-mark-text" }, " · marked ", h("code", {}, labelOf(row, row.mark)), " = ",
          h("span", { "data-mark-value": "" }, show(row.values[row.mark])));
      const title = h("p", { class: "vb-row-title", id: titleId },
        h("span", { class: `vb-swatch vb-${row.style}`, "aria-hidden": "true" }),
        h("strong", {}, row.name), `: ${rowSummary(row)}`, marked);
      rowsBox.append(h("figure", { class: "vb-row", "data-row": rowIndex, "data-style": row.style },
        title, drawRow(row, view, titleId)));
      const table = h("table", { class: "vb-table" },
        h("caption", {}, row.name),
        h("tr", {}, h("th", { scope: "col" }, row.labels ? "token" : "index"), h("th", { scope: "col" }, "value")),
        ...row.values.map((value, i) => h("tr", { class: i === row.mark ? "vb-table-marked" : "" },
          h("td", {}, labelOf(row, i)), h("td", { "data-value": String(value) }, show(value)))));
      numbers.append(table);
    });
    say(caption, view.caption);
    widget.dataset.mistake = String(mistaken);
  }

  stepper.go(0);
}

registerWidget("vector-bars", mountVectorBars);
