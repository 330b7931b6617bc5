// Explore widget "matrix-heatmap" (lessons 5.1 and 5.2): a matrix as a grid of coloured cells.
//
// mode "init": pick a stream of draws (computed by the lesson: standard normal numbers, as
// random.gauss(0, 1) gives them after a seed) and a std; every cell is std × draw, which is
// exactly what random.gauss(0, std) returns. The mistake toggle puts the same draws into the grid
// column by column.
// mode "lookup": pick a token; its row of the (computed) matrix lights up and becomes x. The
// mistake toggle takes column `token` instead, as `[row[token] for row in w]` would.

import { finiteOr, formatNumber, h, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import "./matrix-heatmap.css";

type Matrix = number[][];

interface Option {
  label: string;
  z: Matrix;
}

interface Range {
  min: number;
  max: number;
  step: number;
  start: number;
}

function isMatrix(value: unknown, rows: number): value is Matrix {
  if (!Array.isArray(value) || value.length !== rows || rows === 0) return false;
  const width = Array.isArray(value[0]) ? value[0].length : 0;
  return width > 0 && value.every((row) => Array.isArray(row) && row.length === width
    && row.every((x) => typeof x === "number" && Number.isFinite(x)));
}

/** A number as a Python list shows it here: 4 decimals, ASCII minus (it reads as code). */
function codeNumber(x: number): string {
  return formatNumber(x).replace("−", "-");
}

function pythonList(values: number[]): string {
  return `[${values.map(codeNumber).join(", ")}]`;
}

/** The background of a cell: the accent for positive numbers, --bad for negative, paler near 0. */
function cellColour(value: number, scale: number): string {
  const share = Math.round(Math.min(1, Math.abs(value) / scale) * 100);
  const hue = value >= 0 ? "var(--accent)" : "var(--bad)";
  return `color-mix(in srgb, ${hue} ${share}%, var(--surface))`;
}

interface Grid {
  element: HTMLElement;
  cells: HTMLElement[][];
  show(values: Matrix, scale: number): void;
  mark(kind: "row" | "column" | "cell" | null, r: number, c: number): void;
}

function makeGrid(rowLabels: string[], cols: number, caption: string, onPick: (r: number, c: number) => void): Grid {
  const grid = h("div", { class: "mh-grid", role: "img", "aria-label": caption });
  grid.style.gridTemplateColumns = `minmax(2.1rem, auto) repeat(${cols}, minmax(0, 1fr))`;
  grid.append(h("span", { class: "mh-corner", "aria-hidden": "true" }));
  for (let c = 0; c < cols; c += 1) {
    grid.append(h("span", { class: "mh-col-label", "aria-hidden": "true" }, String(c)));
  }
  const cells: HTMLElement[][] = [];
  rowLabels.forEach((label, r) => {
    grid.append(h("span", { class: "mh-row-label", "aria-hidden": "true", "data-row-label": r }, label));
    const row: HTMLElement[] = [];
    for (let c = 0; c < cols; c += 1) {
      const cell = h("span", { class: "mh-cell", "aria-hidden": "true", "data-r": r, "data-c": c });
      // A click (or tap) is a shortcut; the controls above do the same with the keyboard.
      cell.addEventListener("click", () => onPick(r, c));
      grid.append(cell);
      row.push(cell);
    }
    cells.push(row);
  });
  return {
    element: grid,
    cells,
    show(values: Matrix, scale: number): void {
      values.forEach((row, r) => row.forEach((value, c) => {
        const cell = cells[r][c];
        cell.style.background = cellColour(value, scale);
        cell.dataset.value = String(value);
      }));
    },
    mark(kind, r, c): void {
      cells.forEach((row, i) => row.forEach((cell, j) => {
        const on = (kind === "row" && i === r) || (kind === "column" && j === c)
          || (kind === "cell" && i === r && j === c);
        cell.classList.toggle("mh-marked", on);
      }));
      for (const label of grid.querySelectorAll<HTMLElement>("[data-row-label]")) {
        label.classList.toggle("mh-marked-label", kind === "row" && Number(label.dataset.rowLabel) === r);
      }
    },
  };
}

function legend(scale: number): HTMLElement {
  const swatch = (value: number): HTMLElement => {
    const box = h("span", { class: "mh-swatch", "aria-hidden": "true" });
    box.style.background = cellColour(value, scale);
    return box;
  };
  return h("p", { class: "mh-legend" },
    swatch(scale), ` positive, `, swatch(-scale), ` negative; full colour at ±${formatNumber(scale)}, `,
    swatch(0), " pale near 0.");
}

function labelled(text: string, control: HTMLElement, id: string): HTMLElement {
  return h("div", { class: "kit-field" }, h("label", { for: id }, text), control);
}

// ---- mode init --------------------------------------------------------------------------------

function mountInit(root: HTMLElement, params: Params, rows: string[], options: Option[]): void {
  const name = textOr(params.name, "w");
  const scale = finiteOr(params.scale, 0.25);
  const raw = record(params.std);
  let min = finiteOr(raw.min, 0);
  let max = finiteOr(raw.max, 0.3);
  if (!(min < max)) [min, max] = [0, 0.3];
  const step = finiteOr(raw.step, 0.01) > 0 ? finiteOr(raw.step, 0.01) : 0.01;
  const range: Range = { min, max, step, start: Math.min(max, Math.max(min, finiteOr(raw.start, 0.08))) };
  const cols = options[0].z[0].length;
  let option = options[0];
  let pick = { r: 0, c: 1 };

  // Which stream of draws.
  const seeds = choiceGroup({
    legend: "The draws", name: "mh-seed", groupClass: "kit-picker mh-seeds", choiceClass: "mh-choice",
    choices: options.map((each) => ({ label: [each.label] })),
    onPick: (index) => {
      option = options[index];
      update();
    },
  });

  const stdId = uniqueId("mh-std");
  // A fixed name (not the label, which shows the value too); the value is said by aria-valuetext.
  const slider = h("input", { type: "range", id: stdId, min: range.min, max: range.max, step: range.step, value: range.start, "aria-label": "std" });
  const stdOut = h("output", { for: stdId, "data-readout": "std" });
  slider.addEventListener("input", update);
  const stdRow = h("div", { class: "kit-slider" }, h("label", { for: stdId }, "std = ", stdOut), slider);

  const mistakeText = textOr(params.mistake, "");
  const { label: mistakeRow, input: mistake } = mistakeToggle(mistakeText, { name: "mh-mistake", dashed: true });
  mistake.addEventListener("change", update);

  // Inspect one number: a row and a column, with the keyboard.
  const rowId = uniqueId("mh-row");
  const colId = uniqueId("mh-col");
  const rowPick = h("select", { id: rowId },
    ...rows.map((label, r) => h("option", { value: String(r) }, `${r} (${label})`)));
  const colPick = h("input", { type: "number", id: colId, min: 0, max: cols - 1, step: 1, value: pick.c, inputmode: "numeric" });
  rowPick.value = String(pick.r);
  rowPick.addEventListener("change", () => { pick = { ...pick, r: Number(rowPick.value) }; update(); });
  colPick.addEventListener("input", () => {
    const c = Math.round(Number(colPick.value));
    if (Number.isFinite(c) && c >= 0 && c < cols) { pick = { ...pick, c }; update(); }
  });
  const cellOut = h("span", { class: "mh-big", "data-readout": "value" });
  const expressionOut = h("code", { "data-readout": "expression" });
  const drawOut = h("span", { "data-readout": "draw" });
  const inspector = h("div", { class: "mh-inspect" },
    h("div", { class: "mh-pickers" }, labelled("row", rowPick, rowId), labelled("column", colPick, colId)),
    h("p", { class: "mh-line" }, expressionOut, " = ", cellOut),
    h("p", { class: "mh-note" }, drawOut));

  const stats = h("dl", { class: "kit-readout mh-stats" });
  const caption = `${name}: ${rows.length} rows of ${cols} random numbers, coloured by sign and size.`;
  const grid = makeGrid(rows, cols, caption, (r, c) => {
    pick = { r, c };
    rowPick.value = String(r);
    colPick.value = String(c);
    update();
  });

  root.append(h("div", { class: "mh" },
    h("div", { class: "kit-settings" }, seeds, h("div", { class: "mh-stack" }, stdRow, mistakeText ? mistakeRow : null)),
    h("figure", { class: "mh-figure" }, grid.element, h("figcaption", {}, legend(scale))),
    h("div", { class: "mh-side" }, inspector, stats)));

  function update(): void {
    const std = Number(Number(slider.value).toFixed(6));
    const draws = option.z.flat();
    const byColumn = mistake.checked;
    // Row by row, cell [r][c] is draw r·cols + c; column by column it is draw c·rows + r.
    const index = (r: number, c: number): number => (byColumn ? c * rows.length + r : r * cols + c);
    const values: Matrix = rows.map((_, r) => Array.from({ length: cols }, (_, c) => 0 + std * draws[index(r, c)]));
    grid.show(values, scale);
    grid.mark("cell", pick.r, pick.c);
    stdOut.textContent = formatNumber(std);
    slider.setAttribute("aria-valuetext", formatNumber(std));

    const value = values[pick.r][pick.c];
    expressionOut.textContent = `${name}[${pick.r}][${pick.c}]`;
    cellOut.textContent = formatNumber(value);
    cellOut.dataset.value = String(value);
    const k = index(pick.r, pick.c) + 1;
    drawOut.textContent = byColumn
      ? `Draw number ${k}: filling column by column puts draw ${k} here, where row by row puts draw ${pick.r * cols + pick.c + 1}.`
      : `Draw number ${k}: row ${pick.r} starts after ${pick.r} × ${cols} = ${pick.r * cols} draws, then ${pick.c} more.`;
    drawOut.dataset.value = String(k);

    const flat = values.flat();
    const mean = flat.reduce((sum, v) => sum + v, 0) / flat.length;
    const spread = Math.sqrt(flat.reduce((sum, v) => sum + (v - mean) ** 2, 0) / flat.length);
    const moved = byColumn ? flat.filter((v, i) => v !== 0 + std * draws[i]).length : 0;
    stats.replaceChildren(
      ...[["smallest", Math.min(...flat), "min"], ["largest", Math.max(...flat), "max"],
        ["average", mean, "mean"], ["measured spread (std)", spread, "spread"]].map(([label, x, key]) =>
        h("div", {}, h("dt", {}, String(label)), h("dd", { "data-stat": String(key), "data-value": String(x) }, formatNumber(Number(x))))),
      ...(byColumn ? [h("div", { class: "mh-moved" }, h("dt", {}, "cells holding another number than row by row"),
        h("dd", { "data-stat": "moved" }, `${moved} of ${flat.length}`))] : []));
  }

  update();
}

// ---- mode lookup ------------------------------------------------------------------------------

function mountLookup(root: HTMLElement, params: Params, rows: string[], matrix: Matrix): void {
  const name = textOr(params.name, "w");
  const scale = finiteOr(params.scale, 0.25);
  const cols = matrix[0].length;
  let token = Math.min(4, rows.length - 1);

  const pickId = uniqueId("mh-token");
  const picker = h("select", { id: pickId },
    ...rows.map((label, r) => h("option", { value: String(r) }, `${label} (id ${r})`)));
  picker.value = String(token);
  picker.addEventListener("change", () => { token = Number(picker.value); update(); });

  const mistakeText = textOr(params.mistake, "");
  const toggle = mistakeToggle(mistakeText, { name: "mh-mistake", dashed: true });
  const mistake = toggle.input;
  mistake.addEventListener("change", update);

  const line = h("code", { class: "mh-code", "data-readout": "line" });
  const result = h("pre", { class: "mh-result", "data-readout": "x", tabindex: 0, "aria-label": "x" });
  const note = h("p", { class: "mh-note", "data-readout": "note" });
  const caption = `${name}: ${rows.length} rows (one per token) of ${cols} numbers.`;
  const grid = makeGrid(rows, cols, caption, (r) => { token = r; picker.value = String(r); update(); });

  root.append(h("div", { class: "mh" },
    h("div", { class: "kit-settings" }, labelled("token", picker, pickId), mistakeText ? toggle.label : null),
    h("div", { class: "mh-side mh-lookup" }, h("p", { class: "mh-line" }, line), result, note),
    h("figure", { class: "mh-figure" }, grid.element, h("figcaption", {}, legend(scale)))));
  grid.show(matrix, scale);

  function update(): void {
    const byColumn = mistake.checked;
    const label = rows[token];
    if (!byColumn) {
      const x = matrix[token];
      line.textContent = `x = ${name}[${token}]`;
      result.textContent = `x = ${pythonList(x)}`;
      result.dataset.values = JSON.stringify(x);
      note.textContent = `Row ${token} holds the ${cols} numbers of ${label}: x has ${cols} numbers, n_embd.`;
      grid.mark("row", token, 0);
      return;
    }
    line.textContent = `x = [row[${token}] for row in ${name}]`;
    if (token >= cols) {
      result.textContent = "IndexError: list index out of range";
      result.dataset.values = "";
      note.textContent = `Each row has only ${cols} numbers (positions 0 to ${cols - 1}), so row[${token}] does not exist: `
        + `a column lookup crashes for every id from ${cols} up.`;
      grid.mark(null, 0, 0);
      return;
    }
    const x = matrix.map((row) => row[token]);
    result.textContent = `x = ${pythonList(x)}`;
    result.dataset.values = JSON.stringify(x);
    note.textContent = `Column ${token} takes one number from every token's row: ${rows.length} numbers, `
      + `none of them about ${label} in particular, and the wrong length for x.`;
    grid.mark("column", 0, token);
  }

  update();
}

function mountMatrixHeatmap(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const rows = Array.isArray(data.rows) ? data.rows.map(String) : [];
  if (params.mode === "lookup" && isMatrix(data.matrix, rows.length)) {
    mountLookup(root, params, rows, data.matrix);
    return;
  }
  const options = (Array.isArray(data.options) ? data.options : [])
    .map(record)
    .filter((o) => typeof o.label === "string" && isMatrix(o.z, rows.length))
    .map((o) => ({ label: String(o.label), z: o.z as Matrix }));
  if (params.mode === "init" && options.length > 0) {
    mountInit(root, params, rows, options);
    return;
  }
  root.append(h("p", {}, "This widget's numbers are not available."));
}

registerWidget("matrix-heatmap", mountMatrixHeatmap);
