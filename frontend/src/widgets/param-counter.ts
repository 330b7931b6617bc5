// Explore widget "param-counter" (lesson 5.6): every matrix with its shape and count, and the sum.
//
// The shapes are named in the parameters by sizes (vocab_size, or a knob such as n_embd); the
// learner changes the knobs and every count is worked out again here, rows × cols. At the knobs'
// starting values the widget shows the real matrices as the lesson's code counted them (`data`),
// and says whether the shapes give the same counts. A mistake toggle gives one matrix a wrong
// shape; an optional comparison (the bigram table) puts the total in proportion.

import { say } from "../live";
import { h, record, registerWidget, svg, uniqueId, type Params } from "./kit";
import { mistakeToggle } from "./shared/controls";
import "./param-counter.css";

interface Knob {
  name: string;
  label: string;
  min: number;
  max: number;
  start: number;
  follows?: string;
  times: number;
}

interface Shape {
  name: string;
  rows: string;
  cols: string;
}

interface Real {
  name: string;
  rows: number;
  cols: number;
  count: number;
}

function whole(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" && value ? value : fallback;
}

/** 3184 → "3,184". */
function count(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function shapeOf(value: unknown): Shape | null {
  const fields = record(value);
  if (typeof fields.rows !== "string" || typeof fields.cols !== "string") return null;
  return { name: text(fields.name, text(fields.label, "")), rows: fields.rows, cols: fields.cols };
}

const VIEW_W = 640;
const VIEW_H = 170;

function mountParamCounter(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const vocabSize = whole(data.vocab_size, 27);
  const reals: Real[] = (Array.isArray(data.matrices) ? data.matrices : []).map(record).map((m) => ({
    name: text(m.name, "?"), rows: whole(m.rows, 0), cols: whole(m.cols, 0), count: whole(m.count, 0),
  }));
  const knobs: Knob[] = (Array.isArray(params.knobs) ? params.knobs : []).map(record).map((k) => {
    const min = whole(k.min, 1);
    const max = Math.max(min, whole(k.max, 128));
    return {
      name: text(k.name, "?"), label: text(k.label, text(k.name, "?")), min, max,
      start: Math.min(max, Math.max(min, whole(k.start, min))),
      follows: typeof k.follows === "string" ? k.follows : undefined, times: whole(k.times, 1),
    };
  });
  const shapes = (Array.isArray(params.matrices) ? params.matrices : []).map(shapeOf).filter((s): s is Shape => s !== null);
  const compare = shapeOf(params.compare);
  const compareLabel = text(record(params.compare).label, "for comparison");
  const mistakeFields = record(params.mistake);
  const mistakeShape = shapeOf(params.mistake);
  const mistakeTarget = text(mistakeFields.matrix, "");
  const mistakeLabel = text(mistakeFields.label, "");
  if (shapes.length === 0) {
    root.append(h("p", {}, "This widget has no matrices to count."));
    return;
  }

  const values = new Map<string, number>(knobs.map((k) => [k.name, k.start]));
  const linked = new Map<string, HTMLInputElement>();
  const inputs = new Map<string, HTMLInputElement>();

  const knobRows = knobs.map((knob) => {
    const id = uniqueId("pc-knob");
    const input = h("input", { type: "number", id, min: knob.min, max: knob.max, step: 1, value: knob.start, inputmode: "numeric", "data-knob": knob.name });
    inputs.set(knob.name, input);
    input.addEventListener("input", () => {
      const v = Math.round(Number(input.value));
      if (input.value.trim() !== "" && Number.isFinite(v) && v >= knob.min && v <= knob.max) {
        values.set(knob.name, v);
        update();
      }
    });
    const parts: (HTMLElement | null)[] = [h("label", { for: id }, knob.label), input];
    if (knob.follows) {
      const linkId = uniqueId("pc-link");
      const link = h("input", { type: "checkbox", id: linkId, checked: true });
      linked.set(knob.name, link);
      input.readOnly = true;
      link.addEventListener("change", () => { input.readOnly = link.checked; update(); });
      parts.push(h("label", { class: "pc-link", for: linkId }, link, `keep it ${knob.times} × ${knob.follows}`));
    }
    return h("div", { class: "kit-field pc-knob" }, ...parts);
  });

  const toggle = mistakeToggle(mistakeLabel, { name: "pc-mistake", dashed: true });
  const mistake = toggle.input;
  mistake.addEventListener("change", update);
  const resetButton = h("button", { type: "button", class: "secondary" }, "Back to train1.py");
  resetButton.addEventListener("click", () => {
    for (const knob of knobs) {
      values.set(knob.name, knob.start);
      const input = inputs.get(knob.name);
      if (input) input.value = String(knob.start);
      const link = linked.get(knob.name);
      if (link && input) { link.checked = true; input.readOnly = true; }
    }
    mistake.checked = false;
    update();
  });

  const tbody = h("tbody");
  const tfoot = h("tfoot");
  const table = h("table", { class: "pc-table" },
    h("caption", {}, "The matrices and how many numbers each holds"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "matrix"), h("th", { scope: "col" }, "shape"),
      h("th", { scope: "col" }, "rows × cols"), h("th", { scope: "col" }, "numbers"))),
    tbody, tfoot);
  const pictureId = uniqueId("pc-picture");
  const picture = svg("svg", { viewBox: `0 0 ${VIEW_W} ${VIEW_H}`, class: "kit-plot", role: "img", "aria-labelledby": pictureId });
  const pictureTitle = h("p", { id: pictureId, class: "pc-picture-title" });
  const status = h("p", { class: "kit-verdict pc-status", "data-readout": "status", role: "status" });

  root.append(h("div", { class: "pc" },
    h("div", { class: "pc-controls" }, ...knobRows),
    h("div", { class: "kit-controls pc-toolbar" }, resetButton, mistakeLabel && mistakeShape ? toggle.label : null),
    table, status,
    h("figure", { class: "pc-figure" }, picture, h("figcaption", {}, pictureTitle))));

  function size(name: string): number {
    return name === "vocab_size" ? vocabSize : values.get(name) ?? Number.NaN;
  }

  function update(): void {
    for (const knob of knobs) {
      const link = linked.get(knob.name);
      if (knob.follows && link?.checked) {
        const v = Math.min(knob.max, Math.max(knob.min, size(knob.follows) * knob.times));
        values.set(knob.name, v);
        const input = inputs.get(knob.name);
        if (input) input.value = String(v);
      }
    }
    const wrong = mistake.checked && mistakeShape !== null;
    const rows = shapes.map((shape) => {
      const used = wrong && shape.name === mistakeTarget && mistakeShape ? mistakeShape : shape;
      const r = size(used.rows);
      const c = size(used.cols);
      return { name: shape.name, rowsName: used.rows, colsName: used.cols, r, c, n: r * c, wrong: used !== shape };
    });
    const total = rows.reduce((sum, row) => sum + row.n, 0);
    tbody.replaceChildren(...rows.map((row) => h("tr", { class: row.wrong ? "pc-wrong" : "" },
      h("th", { scope: "row" }, row.name),
      h("td", {}, `${row.rowsName} × ${row.colsName}`),
      h("td", {}, `${row.r} × ${row.c}`),
      h("td", { "data-count": row.name, "data-value": String(row.n) }, count(row.n)))));
    const compareCount = compare ? size(compare.rows) * size(compare.cols) : 0;
    tfoot.replaceChildren(
      h("tr", {}, h("th", { scope: "row", colspan: 3 }, "total"),
        h("td", { "data-readout": "total", "data-value": String(total) }, count(total))),
      compare ? h("tr", { class: "pc-compare" }, h("th", { scope: "row", colspan: 2 }, compareLabel),
        h("td", {}, `${size(compare.rows)} × ${size(compare.cols)}`),
        h("td", { "data-readout": "compare", "data-value": String(compareCount) }, count(compareCount))) : "");

    const atStart = knobs.every((k) => values.get(k.name) === k.start) && !wrong;
    const sameAsReal = reals.length === rows.length
      && rows.every((row, i) => row.name === reals[i].name && row.r === reals[i].rows && row.c === reals[i].cols && row.n === reals[i].count);
    const ratio = compareCount > 0 ? total / compareCount : 0;
    const ratioText = compare ? ` That is ${ratio.toFixed(1)} times the ${count(compareCount)} of ${compareLabel}.` : "";
    if (atStart) {
      say(status, sameAsReal
        ? `These are the real matrices of train1.py, as the lesson's code counts them: ${count(total)} numbers.${ratioText}`
        : `Careful: these shapes do not match the real matrices (${reals.map((r) => `${r.name} ${r.rows} × ${r.cols}`).join(", ")}).`);
    } else if (wrong) {
      const real = reals.find((r) => r.name === mistakeTarget);
      say(status, `With the wrong shape the total is ${count(total)}, but the real ${mistakeTarget} is `
        + `${real ? `${real.rows} × ${real.cols} = ${count(real.count)}` : "different"}: its rows must be as long as what it reads.`);
    } else {
      say(status, `A model with these sizes would have ${count(total)} numbers to learn.${ratioText}`);
    }
    status.dataset.tone = wrong || (atStart && !sameAsReal) ? "bad" : "good";
    status.dataset.ratio = ratio.toFixed(1);
    draw(rows, compare ? { name: compareLabel, r: size(compare.rows), c: size(compare.cols) } : null, total);
  }

  function draw(rows: { name: string; r: number; c: number; wrong: boolean }[], extra: { name: string; r: number; c: number } | null, total: number): void {
    const boxes = [...rows.map((row) => ({ ...row, compare: false })), ...(extra ? [{ ...extra, wrong: false, compare: true }] : [])];
    const gap = 28;
    const top = 18;
    const widthUnits = boxes.reduce((sum, b) => sum + b.c, 0);
    const heightUnits = Math.max(...boxes.map((b) => b.r));
    const unit = Math.min((VIEW_W - gap * (boxes.length + 1)) / widthUnits, (VIEW_H - top - 6) / heightUnits);
    let x = gap;
    const parts: SVGElement[] = [];
    for (const box of boxes) {
      const w = Math.max(2, box.c * unit);
      const hgt = Math.max(2, box.r * unit);
      const cls = box.compare ? "pc-box pc-box-compare" : box.wrong ? "pc-box pc-box-wrong" : "pc-box";
      parts.push(svg("rect", { class: cls, x: x.toFixed(1), y: top, width: w.toFixed(1), height: hgt.toFixed(1) }));
      parts.push(svg("text", { class: "pc-box-label", x: x.toFixed(1), y: top - 5 }, box.compare ? "bigram" : box.name));
      x += w + gap;
    }
    picture.replaceChildren(...parts);
    pictureTitle.textContent = `Each matrix drawn to scale, one small square per number: ${rows.map((r) => `${r.name} ${r.r} × ${r.c}`).join(", ")}`
      + `${extra ? `, and ${extra.name}, ${extra.r} × ${extra.c}` : ""}. Together ${count(total)} numbers.`;
  }

  update();
}

registerWidget("param-counter", mountParamCounter);
