// Explore widget "bigram-table" (lessons 2.1, 2.2): the table of counts as a 27×27 heatmap.
// Selecting a row (click or tap a cell or a row name, arrow keys, Enter/Space, or the "Open row"
// menu) opens it beside the map as counts, or as probabilities that sum to 1. Every number
// comes from the lesson's own code (explore.compute); a toggle swaps in the same table made the
// wrong way ("try the mistake"). A table whose cells started at 1 says so wherever it shows a
// count: its totals are pairs plus those starting ones, not pairs alone.

import { say } from "../live";
import { finiteOr, formatNumber, h, record, registerWidget, textList, textOr, uniqueId, type Params } from "./kit";
import "./bigram-table.css";

type Table = number[][];
type Panel = "counts" | "probabilities";

interface Data {
  labels: string[];
  counts: Table;
  /** The count every cell of `counts` started at before any pair was counted. */
  startCount: number;
  probs: Table | null;
  mistake: { counts: Table | null; startCount: number; probs: Table | null } | null;
}

function square(value: unknown, size: number): Table | null {
  if (!Array.isArray(value) || value.length !== size) return null;
  const rows: Table = [];
  for (const row of value) {
    if (!Array.isArray(row) || row.length !== size) return null;
    if (!row.every((cell) => typeof cell === "number" && Number.isFinite(cell))) return null;
    rows.push(row as number[]);
  }
  return rows;
}

/** A whole number of at least 0 (the count cells started at), else 0. */
function startCount(value: unknown): number {
  const n = finiteOr(value, 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

function parseData(raw: unknown): Data | null {
  const fields = record(raw);
  const labels = textList(fields.labels);
  if (!labels || labels.length < 2) return null;
  const counts = square(fields.counts, labels.length);
  if (!counts) return null;
  const wrong = record(fields.mistake);
  const mistake = {
    counts: square(wrong.counts, labels.length), startCount: startCount(wrong.start_count),
    probs: square(wrong.probs, labels.length),
  };
  return {
    labels, counts, startCount: startCount(fields.start_count), probs: square(fields.probs, labels.length),
    mistake: mistake.counts || mistake.probs ? mistake : null,
  };
}

/** The one-character symbol a token gets in the map's headers: BOS becomes a dot. */
function symbol(label: string): string {
  return label === "BOS" ? "•" : label;
}

/** A token as the text names it: letters in quotes, BOS as BOS. */
function spoken(label: string): string {
  return label === "BOS" ? "BOS" : `'${label}'`;
}

/** A probability readable at any size: 4 decimals, or 2 significant digits when tiny. */
function formatProb(p: number): string {
  if (p === 0) return "0";
  if (p >= 0.001) return formatNumber(p, 4);
  return Number(p.toPrecision(2)).toString().replace("-", "−");
}

function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function pairs(n: number): string {
  return n === 1 ? "pair" : "pairs";
}

function mountBigramTable(root: HTMLElement, params: Params): void {
  const parsed = parseData(params.data);
  if (!parsed) {
    root.append(h("p", {}, "The table's numbers are missing: the lesson's compute did not run."));
    return;
  }
  const data: Data = parsed;
  const panel: Panel = params.panel === "probabilities" && data.probs ? "probabilities" : "counts";
  const size = data.labels.length;
  const startLabel = typeof params.start === "string" ? params.start : "";
  let row = Math.max(0, data.labels.indexOf(startLabel));
  let focusRow = row;
  let focusCol = 0;
  let wrong = false;
  let byCount = true;

  const counts = (): Table => (wrong && data.mistake?.counts) || data.counts;
  /** What every cell of the table shown now started at: its counts minus this are pairs. */
  const start = (): number => (wrong && data.mistake?.counts ? data.mistake.startCount : data.startCount);
  const probs = (): Table | null => (wrong && data.mistake?.probs) || data.probs;
  const shown = (): Table => (panel === "probabilities" ? (probs() as Table) : counts());

  // ---- controls ----
  const selectId = uniqueId("bt-row");
  const select = h("select", { id: selectId, "data-control": "row" });
  data.labels.forEach((label, index) => {
    select.append(h("option", { value: String(index) },
      label === "BOS" ? "BOS (• in the map)" : `'${label}'`));
  });
  select.addEventListener("change", () => open(Number(select.value), false));

  const sortId = uniqueId("bt-sort");
  const sort = h("input", { type: "checkbox", id: sortId, checked: true });
  sort.addEventListener("change", () => { byCount = sort.checked; renderPanel(); });

  const controls = h("div", { class: "bt-controls" },
    h("span", { class: "kit-inline-field" }, h("label", { for: selectId }, "Open row"), select),
    h("span", { class: "kit-inline-field" }, sort, h("label", { for: sortId }, "Most frequent first")));

  const mistakeLabel = textOr(params.mistake, "");
  if (mistakeLabel && data.mistake) {
    const mistakeId = uniqueId("bt-mistake");
    const toggle = h("input", { type: "checkbox", id: mistakeId, "data-control": "mistake" });
    toggle.addEventListener("change", () => { wrong = toggle.checked; renderAll(); });
    controls.append(h("span", { class: "kit-inline-field bt-mistake" }, toggle, h("label", { for: mistakeId }, mistakeLabel)));
  }

  // ---- the map ----
  const mapTitleId = uniqueId("bt-map-title");
  const grid = h("table", { class: "bt-map", role: "grid", "aria-labelledby": mapTitleId });
  const head = h("tr", {}, h("th", { scope: "col", class: "bt-corner" },
    h("span", { "aria-hidden": "true" }, "↓ then →"), h("span", { class: "visually-hidden" }, "first token")));
  data.labels.forEach((label) => {
    head.append(h("th", { scope: "col" }, h("span", { "aria-hidden": "true" }, symbol(label)),
      h("span", { class: "visually-hidden" }, `then ${label}`)));
  });
  grid.append(h("thead", {}, head));
  const body = h("tbody", {});
  const cells: HTMLTableCellElement[][] = [];
  const rowHeads: HTMLTableCellElement[] = [];
  for (let a = 0; a < size; a += 1) {
    const th = h("th", { scope: "row" }, h("span", { "aria-hidden": "true" }, symbol(data.labels[a])),
      h("span", { class: "visually-hidden" }, `after ${data.labels[a]}`));
    th.addEventListener("click", () => open(a, false));
    rowHeads.push(th);
    const tr = h("tr", {}, th);
    const line: HTMLTableCellElement[] = [];
    for (let b = 0; b < size; b += 1) {
      const td = h("td", { tabindex: -1, "data-row": a, "data-col": b }, h("span", { class: "visually-hidden" }));
      td.addEventListener("click", () => { focusCell(a, b, false); open(a, false); });
      line.push(td);
      tr.append(td);
    }
    cells.push(line);
    body.append(tr);
  }
  grid.append(body);
  grid.addEventListener("keydown", (event) => {
    let [r, c] = [focusRow, focusCol];
    switch (event.key) {
      case "ArrowUp": r -= 1; break;
      case "ArrowDown": r += 1; break;
      case "ArrowLeft": c -= 1; break;
      case "ArrowRight": c += 1; break;
      case "Home": c = 0; break;
      case "End": c = size - 1; break;
      case "Enter": case " ": open(focusRow, false); event.preventDefault(); return;
      default: return;
    }
    event.preventDefault();
    r = Math.min(size - 1, Math.max(0, r));
    c = Math.min(size - 1, Math.max(0, c));
    focusCell(r, c, true);
    if (r !== row) open(r, false);
  });

  const mapTitle = h("p", { id: mapTitleId, class: "bt-map-title" });
  const cellOut = h("p", { class: "bt-cell", "data-readout": "cell", "aria-live": "polite" });
  const legend = h("p", { class: "bt-legend" });
  const figure = h("figure", { class: "kit-figure" }, mapTitle, h("div", { class: "bt-map-wrap" }, grid), legend, cellOut);

  // ---- the opened row ----
  const panelTitle = h("h3", { class: "bt-panel-title", "data-readout": "row-title" });
  const panelTotal = h("p", { class: "bt-total", "data-readout": "total" });
  const rowTable = h("table", { class: "bt-row" });
  const panelSum = h("p", { class: "bt-sum", "data-readout": "sum" });
  const note = h("p", { class: "bt-note", "data-readout": "note" });
  const panelBox = h("section", { class: "bt-panel", "aria-live": "polite" }, panelTitle, panelTotal, note, panelSum, rowTable);

  const captionText = textOr(params.caption, null);
  const caption = captionText ? h("p", { class: "kit-caption" }, captionText) : null;
  root.append(h("div", { class: "bt" }, controls, h("div", { class: "kit-columns bt-body" }, figure, panelBox), caption));

  function focusCell(r: number, c: number, moveFocus: boolean): void {
    cells[focusRow][focusCol].tabIndex = -1;
    focusRow = r;
    focusCol = c;
    const td = cells[r][c];
    td.tabIndex = 0;
    if (moveFocus) td.focus();
    renderCellReadout();
  }

  function open(a: number, moveFocus: boolean): void {
    row = a;
    select.value = String(a);
    if (focusRow !== a) focusCell(a, focusCol, moveFocus);
    renderMapMarks();
    renderPanel();
  }

  function valueText(a: number, b: number): string {
    const count = counts()[a][b];
    if (panel === "counts") return formatCount(count);
    return `${formatProb((probs() as Table)[a][b])} (count ${formatCount(count)})`;
  }

  function renderCellReadout(): void {
    const [a, b] = [focusRow, focusCol];
    const what = panel === "counts" ? "count" : "probability";
    const made = panel === "counts" && start() > 0
      ? ` (${formatCount(counts()[a][b] - start())} ${pairs(counts()[a][b] - start())}, plus the ${start()} it started with)`
      : "";
    say(cellOut, `${panel === "counts" ? "counts" : "probs"}[${a}][${b}]: ${spoken(data.labels[a])} then ${spoken(data.labels[b])}, ${what} ${valueText(a, b)}${made}`);
  }

  function renderMap(): void {
    const table = shown();
    let low = Infinity;
    let high = 0;
    for (const line of table) for (const v of line) {
      if (v > 0) low = Math.min(low, v);
      high = Math.max(high, v);
    }
    const span = Math.log(high) - Math.log(low) || 1;
    for (let a = 0; a < size; a += 1) {
      for (let b = 0; b < size; b += 1) {
        const v = table[a][b];
        const td = cells[a][b];
        td.classList.toggle("bt-zero", v === 0);
        const t = v > 0 ? (Math.log(v) - Math.log(low)) / span : 0;
        td.style.setProperty("--bt-level", `${Math.round(6 + 94 * t)}%`);
        (td.firstChild as HTMLElement).textContent =
          `${data.labels[a]} then ${data.labels[b]}: ${valueText(a, b)}`;
      }
    }
    const zeros = table.reduce((n, line) => n + line.filter((v) => v === 0).length, 0);
    const kind = panel === "counts" ? "counts" : "probabilities";
    mapTitle.textContent = `${wrong ? "The wrong table: " : ""}${size} × ${size} = ${size * size} ${kind}. ` +
      "Rows: the token that comes first. Columns: the token right after it.";
    legend.textContent = `The stronger the colour, the bigger the number (on a log scale). • is BOS, the start or end of a name.` +
      (start() > 0 ? ` Each count includes the ${start()} its cell started with.` : "") +
      (zeros ? ` ${zeros} of the ${size * size} cells are 0 (hatched).` : "");
    legend.dataset.zeros = String(zeros);
  }

  function renderMapMarks(): void {
    rowHeads.forEach((th, a) => th.classList.toggle("bt-open", a === row));
    cells.forEach((line, a) => line.forEach((td) => td.classList.toggle("bt-open", a === row)));
  }

  function renderPanel(): void {
    const line = counts()[row];
    const total = line.reduce((s, v) => s + v, 0);
    const p = probs();
    const label = data.labels[row];
    panelTitle.textContent = label === "BOS"
      ? "Row BOS: how names start"
      : `Row ${spoken(label)}: what comes after ${spoken(label)}`;
    panelTotal.textContent = totalText(total, label);
    panelTotal.dataset.value = String(total);

    const order = [...Array(size).keys()];
    if (byCount) order.sort((x, y) => line[y] - line[x] || x - y);
    // Counts are drawn against the row's biggest; probabilities against 1, so that a row
    // that does not add up to 1 shows it.
    const max = panel === "counts" ? Math.max(...line, 0) : 1;
    const headRow = h("tr", {}, h("th", { scope: "col" }, "next"), h("th", { scope: "col", class: "bt-bar-col" },
      h("span", { class: "visually-hidden" }, "bar")), h("th", { scope: "col", class: "bt-num" }, "count"));
    if (panel === "probabilities") headRow.append(h("th", { scope: "col", class: "bt-num" }, "probability"));
    const rows = order.map((b) => {
      const v = panel === "counts" ? line[b] : (p as Table)[row][b];
      const width = max > 0 ? (100 * v) / max : 0;
      const tr = h("tr", { "data-next": data.labels[b] },
        h("th", { scope: "row" }, data.labels[b] === "BOS" ? "BOS (end)" : data.labels[b]),
        h("td", { class: "bt-bar-col", "aria-hidden": "true" },
          h("span", { class: `bt-bar${v === 0 ? " bt-bar-zero" : ""}`, style: `width: ${width.toFixed(2)}%` })),
        h("td", { class: "bt-num", "data-count": String(line[b]) }, formatCount(line[b])));
      if (panel === "probabilities") {
        tr.append(h("td", { class: "bt-num", "data-prob": String((p as Table)[row][b]) }, formatProb((p as Table)[row][b])));
      }
      return tr;
    });
    rowTable.replaceChildren(
      h("caption", { class: "visually-hidden" }, panelTitle.textContent ?? ""),
      h("thead", {}, headRow), h("tbody", {}, ...rows));

    const zeros = line.filter((v) => v === 0).length;
    if (panel === "probabilities" && p) {
      const sum = p[row].reduce((s, v) => s + v, 0);
      panelSum.textContent = `The row's probabilities add up to ${formatNumber(sum, 4)}.`;
      panelSum.dataset.value = String(sum);
      panelSum.dataset.tone = Math.abs(sum - 1) < 1e-9 ? "good" : "bad";
      panelSum.hidden = false;
    } else {
      panelSum.hidden = true;
    }
    const notes: string[] = [];
    if (zeros) {
      notes.push(`${zeros} ${zeros === 1 ? "pair" : "pairs"} in this row ${zeros === 1 ? "has" : "have"} count 0: ` +
        "the table would call them impossible, though a new name could well contain them.");
    }
    if (panel === "probabilities" && p && wrong) {
      const grand = counts().reduce((s, l) => s + l.reduce((x, y) => x + y, 0), 0);
      notes.push(`Each count was divided by ${formatCount(grand)}, the total of the whole table, ` +
        `instead of ${formatCount(total)}, the total of this row.`);
    }
    note.textContent = notes.join(" ");
    note.hidden = notes.length === 0;
  }

  /** The row's total, and what it is made of: the pairs, and the counts its cells started at. */
  function totalText(total: number, label: string): string {
    const verb = (n: number): string => (n === 1 ? "starts" : "start");
    if (start() === 0) return `${formatCount(total)} ${pairs(total)} ${verb(total)} with ${spoken(label)} (the row's total).`;
    const seen = total - start() * size;
    const starts = start() === 1 ? `the ${size} ones its cells started with` : `the ${start()} each of its ${size} cells started with`;
    return `The row adds up to ${formatCount(total)}: ${formatCount(seen)} ${pairs(seen)} that ${verb(seen)} with ${spoken(label)}, plus ${starts}.`;
  }

  function renderAll(): void {
    renderMap();
    renderMapMarks();
    renderPanel();
    renderCellReadout();
  }

  cells[focusRow][focusCol].tabIndex = 0;
  select.value = String(row);
  renderAll();
}

registerWidget("bigram-table", mountBigramTable);
