// Explore widget "attention-grid" (lessons 8.3, 8.4, 8.6): attention over the positions of a name.
// Rows are the positions asking (their queries), columns the positions they look at (the keys in
// the cache). Row t of a view holds the numbers for columns 0 … t, or for every column when a
// classic mistake lets a position see the future. With `steps`, the rows appear one position at a
// time, the cache growing as gpt() fills it. Every number comes from the lesson's own code
// (explore.compute); this file draws them and works out the readouts from them.

import { formatNumber, h, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle, stepControls } from "./shared/controls";
import "./attention-grid.css";

type Values = "weights" | "scores";

interface View {
  label: string;
  caption: string;
  tokens: string[];
  cells: number[][];
}

function parseViews(raw: unknown): View[] {
  const views: View[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const fields = record(item);
    const tokens = Array.isArray(fields.tokens) ? fields.tokens.map(String) : [];
    const cells = (Array.isArray(fields.cells) ? fields.cells : []).map((row) =>
      (Array.isArray(row) ? row : []).filter((x): x is number => typeof x === "number" && Number.isFinite(x)));
    if (typeof fields.label !== "string" || tokens.length === 0 || cells.length !== tokens.length) continue;
    if (cells.some((row) => row.length === 0 || row.length > tokens.length)) continue;
    views.push({ label: fields.label, caption: typeof fields.caption === "string" ? fields.caption : "", tokens, cells });
  }
  return views;
}

/** How strongly a cell is coloured, from 0 to 1: weights on their own 0–1 scale, scores by size. */
function strength(value: number, values: Values, scale: number): number {
  return Math.min(1, values === "weights" ? value : Math.abs(value) / scale);
}

// At most half the hue, so that the text on a cell keeps its contrast in both themes.
function cellBackground(value: number, values: Values, scale: number): string {
  const share = Math.round(strength(value, values, scale) * 50);
  const hue = values === "scores" && value < 0 ? "var(--bad)" : "var(--accent)";
  return `color-mix(in srgb, ${hue} ${share}%, var(--surface))`;
}

/** The mean of each row's largest weight, over the rows that have a choice (more than one cell). */
function meanTop(cells: number[][]): number | null {
  const rows = cells.filter((row) => row.length > 1);
  if (rows.length === 0) return null;
  return rows.reduce((sum, row) => sum + Math.max(...row), 0) / rows.length;
}

function positionName(tokens: string[], index: number): string {
  return `${tokens[index]} (position ${index})`;
}

function mountAttentionGrid(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const values: Values = data.values === "scores" ? "scores" : "weights";
  const views = parseViews(data.views);
  const mistakeViews = parseViews(data.mistake_views);
  if (views.length === 0) {
    root.append(h("p", {}, "This widget has no numbers to show."));
    return;
  }
  const steps = params.steps === true;
  const viewLabel = textOr(params.view_label, "Name");
  const mistakeText = mistakeViews.length === views.length ? textOr(params.mistake, null) : null;
  // Scores share one scale over every view, mistaken ones too, so the toggle compares honestly.
  const scale = Math.max(1e-9, ...[...views, ...mistakeViews].flatMap((v) => v.cells.flat().map(Math.abs)));

  let viewIndex = 0;
  let mistaken = false;
  const current = (): View => (mistaken ? mistakeViews : views)[viewIndex];

  const picker = views.length > 1 ? choiceGroup({
    legend: viewLabel, name: "ag-view",
    choices: views.map((view) => ({ label: [h("span", {}, view.label)] })),
    onPick: (index) => { viewIndex = index; if (stepper) stepper.go(stepper.step()); else render(); },
  }) : null;
  const toggle = mistakeText ? mistakeToggle(mistakeText, { name: "ag-mistake", className: "kit-push" }) : null;
  const stepper = steps ? stepControls({
    last: () => current().tokens.length - 1, show: () => render(), toEnd: true, reset: true,
    counter: (k, last) => `position ${k} / ${last}`, counterAttr: "data-step-counter",
  }) : null;
  toggle?.input.addEventListener("change", () => {
    mistaken = toggle.input.checked;
    if (stepper) stepper.go(stepper.step()); else render();
  });
  const controls = stepper ? stepper.row : h("div", { class: "kit-controls" });
  if (toggle) controls.append(toggle.label);

  const tableId = uniqueId("ag-table");
  const scroller = h("div", { class: "ag-scroll", tabindex: 0, role: "region", "aria-labelledby": tableId });
  const readout = h("p", { class: "ag-readout", "aria-live": "polite", "data-readout": "" });
  const caption = h("p", { class: "ag-caption", "data-caption": "" });
  const legend = h("p", { class: "ag-legend" });
  const widget = h("div", { class: "ag", role: "group", "aria-label": `Attention over the positions of a ${viewLabel.toLowerCase()}` },
    picker, controls, scroller, readout, caption, legend,
    typeof params.caption === "string" ? h("p", { class: "kit-caption" }, params.caption) : null);
  root.append(widget);
  if (stepper) stepper.arrowKeys(widget);

  function swatch(value: number): HTMLElement {
    const box = h("span", { class: "ag-swatch", "aria-hidden": "true" });
    box.style.background = cellBackground(value, values, scale);
    return box;
  }
  legend.replaceChildren(...(values === "weights"
    ? [swatch(0), " 0  ", swatch(0.5), " 0.5  ", swatch(1), " 1: each row adds up to 1. A dotted cell is a position this row does not see."]
    : [swatch(scale), ` positive, `, swatch(-scale), ` negative, full colour at ±${formatNumber(scale, 2)}; a dotted cell is a position this row does not see.`]));

  function render(): void {
    const view = current();
    const n = view.tokens.length;
    const shown = stepper ? stepper.step() : n - 1; // rows 0 … shown are on screen
    const table = h("table", { class: "ag-table", "data-mistake": String(mistaken) },
      h("caption", { id: tableId },
        `${values === "weights" ? "Attention weights" : "Scores"} for ${view.label}: each row is a position asking, each column a position it may look at.`));
    const head = h("tr", {}, h("th", { scope: "col", class: "ag-corner" }, h("span", { "aria-hidden": "true" }, "asks ↓ looks at →"),
      h("span", { class: "visually-hidden" }, "position asking")));
    view.tokens.forEach((token, c) => head.append(h("th", { scope: "col", "data-col": c, class: c <= shown ? "" : "ag-later" },
      h("span", { class: "ag-token" }, token), h("span", { class: "ag-pos" }, String(c)))));
    const body = h("tbody");
    view.cells.forEach((row, r) => {
      const tr = h("tr", { "data-row": r, class: r === shown && stepper ? "ag-current" : "" },
        h("th", { scope: "row" }, h("span", { class: "ag-token" }, view.tokens[r]), h("span", { class: "ag-pos" }, String(r))));
      tr.hidden = r > shown;
      for (let c = 0; c < n; c += 1) {
        if (c >= row.length) {
          tr.append(h("td", { class: "ag-empty", "data-cell": `${r},${c}` }, h("span", { class: "visually-hidden" }, "not seen")));
          continue;
        }
        const value = row[c];
        const td = h("td", {
          class: c > r ? "ag-future" : "", "data-cell": `${r},${c}`, "data-value": String(value),
        }, formatNumber(value, 2));
        td.style.background = cellBackground(value, values, scale);
        if (strength(value, values, scale) > 0.55) td.classList.add("ag-strong");
        if (c > r) td.append(h("span", { class: "visually-hidden" }, " (a later position)"));
        tr.append(td);
      }
      body.append(tr);
    });
    table.append(h("thead", {}, head), body);
    scroller.replaceChildren(table);
    caption.textContent = view.caption;
    readout.textContent = readoutText(view, shown);
    widget.dataset.mistake = String(mistaken);
  }

  function readoutText(view: View, shown: number): string {
    if (stepper) {
      const row = view.cells[shown];
      const seen = row.map((_, c) => view.tokens[c]);
      const future = row.length > shown + 1;
      const ahead = view.cells.some((cells, index) => cells.length > index + 1);
      const cache = ahead
        ? `No cache here: the keys and values of the whole name (${view.tokens.join(", ")}) were made before any position looked.`
        : `The cache holds ${shown + 1} key${shown === 0 ? "" : "s"} and ${shown + 1} value${shown === 0 ? "" : "s"}, one per position so far (${view.tokens.slice(0, shown + 1).join(", ")}).`;
      const look = future
        ? ` ${positionName(view.tokens, shown)} looks at all ${row.length} positions, ${row.length - shown - 1} of them later ones it should be predicting.`
        : ` ${positionName(view.tokens, shown)} looks at ${seen.length === 1 ? "itself only" : `these ${seen.length}`}.`;
      const top = row.indexOf(Math.max(...row));
      const weight = values === "weights" ? ` Its largest weight, ${formatNumber(row[top], 2)}, is on ${positionName(view.tokens, top)}.` : "";
      return cache + look + weight;
    }
    if (values === "weights") {
      const top = meanTop(view.cells);
      return top === null ? "" : `Largest weight in each row, averaged over the rows with a choice: ${formatNumber(top, 2)}.`;
    }
    const all = view.cells.flat();
    return `Scores from ${formatNumber(Math.min(...all), 2)} to ${formatNumber(Math.max(...all), 2)}.`;
  }

  if (stepper) stepper.go(0); else render();
}

registerWidget("attention-grid", mountAttentionGrid);
