// Explore widget "model-size" (lesson 9.5): microgpt's matrices one by one, how many numbers each
// holds, and the total, for any sizes. The lesson's code counted the real model (`data`): the
// widget starts from those sizes and shows that its own shapes give the same matrices and the
// same total. The learner then changes the sizes, and every shape is worked out here from
// microgpt's layout: wte, wpe, lm_head, and for each layer four n_embd × n_embd attention
// matrices, mlp_fc1 (4·n_embd × n_embd) and mlp_fc2 (n_embd × 4·n_embd). n_head changes no
// count, and the widget says so. The mistake toggle turns mlp_fc1 round: the total stays put.

import { say } from "../live";
import { h, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { mistakeToggle } from "./shared/controls";
import "./model-size.css";

const NAMES = ["vocab_size", "n_embd", "block_size", "n_layer", "n_head"] as const;
type SizeName = (typeof NAMES)[number];
type Sizes = Record<SizeName, number>;

interface Knob { name: SizeName; label: string; min: number; max: number }
interface Matrix { name: string; rows: number; cols: number; rowsSaid: string; colsSaid: string; wrong: boolean }
interface Real { name: string; rows: number; cols: number; count: number }

function whole(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** 4192 → "4,192". */
function count(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** microgpt's matrices for these sizes, in the order it draws them. */
function matricesFor(sizes: Sizes, fc1Round: boolean): Matrix[] {
  const d = sizes.n_embd;
  const out: Matrix[] = [
    { name: "wte", rows: sizes.vocab_size, cols: d, rowsSaid: "vocab_size", colsSaid: "n_embd", wrong: false },
    { name: "wpe", rows: sizes.block_size, cols: d, rowsSaid: "block_size", colsSaid: "n_embd", wrong: false },
    { name: "lm_head", rows: sizes.vocab_size, cols: d, rowsSaid: "vocab_size", colsSaid: "n_embd", wrong: false },
  ];
  for (let layer = 0; layer < sizes.n_layer; layer += 1) {
    for (const name of ["attn_wq", "attn_wk", "attn_wv", "attn_wo"]) {
      out.push({ name: `layer${layer}.${name}`, rows: d, cols: d, rowsSaid: "n_embd", colsSaid: "n_embd", wrong: false });
    }
    out.push(fc1Round
      ? { name: `layer${layer}.mlp_fc1`, rows: d, cols: 4 * d, rowsSaid: "n_embd", colsSaid: "4·n_embd", wrong: true }
      : { name: `layer${layer}.mlp_fc1`, rows: 4 * d, cols: d, rowsSaid: "4·n_embd", colsSaid: "n_embd", wrong: false });
    out.push({ name: `layer${layer}.mlp_fc2`, rows: d, cols: 4 * d, rowsSaid: "n_embd", colsSaid: "4·n_embd", wrong: false });
  }
  return out;
}

function mountModelSize(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const realSizes = record(data.sizes);
  const start = Object.fromEntries(NAMES.map((name) => [name, whole(realSizes[name], 0)])) as Sizes;
  const reals: Real[] = (Array.isArray(data.matrices) ? data.matrices : []).map(record).map((m) => ({
    name: String(m.name), rows: whole(m.rows, 0), cols: whole(m.cols, 0), count: whole(m.count, 0),
  }));
  if (NAMES.some((name) => start[name] === 0) || reals.length === 0) {
    root.append(h("p", {}, "This widget has no model to count."));
    return;
  }
  const knobs: Knob[] = (Array.isArray(params.sizes) ? params.sizes : []).map(record)
    .filter((k) => NAMES.includes(k.name as SizeName))
    .map((k) => {
      const min = whole(k.min, 1);
      return { name: k.name as SizeName, label: textOr(k.label, String(k.name)) as string, min, max: Math.max(min, whole(k.max, 256)) };
    });
  const sizes: Sizes = { ...start };
  let fc1Round = false;

  const inputs = new Map<SizeName, HTMLInputElement>();
  const knobRows = knobs.map((knob) => {
    const id = uniqueId("ms-size");
    const input = h("input", { type: "number", id, min: knob.min, max: knob.max, step: 1, value: start[knob.name], inputmode: "numeric", "data-size": knob.name });
    inputs.set(knob.name, input);
    input.addEventListener("input", () => {
      const v = Math.round(Number(input.value));
      if (input.value.trim() !== "" && Number.isFinite(v) && v >= knob.min && v <= knob.max) {
        sizes[knob.name] = v;
        update();
      }
    });
    return h("div", { class: "kit-field ms-size" }, h("label", { for: id }, knob.label), input);
  });
  const mistakeText = textOr(params.mistake, null);
  const toggle = mistakeText ? mistakeToggle(mistakeText, { name: "ms-mistake", dashed: true }) : null;
  toggle?.input.addEventListener("change", () => { fc1Round = toggle.input.checked; update(); });
  const reset = h("button", { type: "button", class: "secondary" }, "Back to microgpt");
  reset.addEventListener("click", () => {
    Object.assign(sizes, start);
    for (const [name, input] of inputs) input.value = String(start[name]);
    if (toggle) { toggle.input.checked = false; fc1Round = false; }
    update();
  });

  const tbody = h("tbody");
  const tfoot = h("tfoot");
  const table = h("table", { class: "ms-table" },
    h("caption", {}, "Every matrix, drawn in this order, and how many numbers it holds"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "matrix"), h("th", { scope: "col" }, "rows × columns"),
      h("th", { scope: "col" }, "numbers"))), tbody, tfoot);
  const formula = h("p", { class: "ms-formula", "data-readout": "formula" });
  const heads = h("p", { class: "ms-heads", "data-readout": "heads" });
  const barTitle = uniqueId("ms-bar");
  const bar = h("div", { class: "ms-bar", role: "img", "aria-labelledby": barTitle });
  const barText = h("p", { class: "ms-bar-text", id: barTitle });
  const status = h("p", { class: "kit-verdict", role: "status", "data-readout": "status" });
  root.append(h("div", { class: "ms" },
    h("div", { class: "ms-sizes" }, ...knobRows),
    h("div", { class: "kit-controls ms-toolbar" }, reset, toggle ? toggle.label : null),
    status, formula, heads, h("figure", { class: "ms-figure" }, bar, h("figcaption", {}, barText)), table));

  function update(): void {
    const shown = matricesFor(sizes, fc1Round);
    const total = shown.reduce((sum, m) => sum + m.rows * m.cols, 0);
    const perLayer = shown.slice(3, 9).reduce((sum, m) => sum + m.rows * m.cols, 0);
    // The first layer in full; further layers, the same six matrices each, in one row.
    const rows = shown.slice(0, 9).map((m) => h("tr", { class: m.wrong ? "ms-wrong" : "" },
      h("th", { scope: "row" }, m.name),
      h("td", {}, `${m.rowsSaid} × ${m.colsSaid} = ${m.rows} × ${m.cols}`),
      h("td", { "data-count": m.name, "data-value": m.rows * m.cols }, count(m.rows * m.cols))));
    if (sizes.n_layer > 1) {
      const more = sizes.n_layer - 1;
      rows.push(h("tr", { class: "ms-more" },
        h("th", { scope: "row" }, more === 1 ? "layer1.*" : `layer1.* to layer${sizes.n_layer - 1}.*`),
        h("td", {}, `the same six matrices again, ${more} more time${more > 1 ? "s" : ""}`),
        h("td", { "data-count": "more layers", "data-value": more * perLayer }, count(more * perLayer))));
    }
    tbody.replaceChildren(...rows);
    tfoot.replaceChildren(h("tr", {}, h("th", { scope: "row", colspan: 2 }, "total"),
      h("td", { "data-readout": "total", "data-value": total }, count(total))));

    const d = sizes.n_embd;
    formula.textContent = `2 × vocab_size × n_embd + block_size × n_embd + n_layer × 12 × n_embd² = `
      + `2 × ${sizes.vocab_size} × ${d} + ${sizes.block_size} × ${d} + ${sizes.n_layer} × 12 × ${d}² = ${count(total)}`;
    const whole_ = d % sizes.n_head === 0;
    heads.textContent = whole_
      ? `n_head = ${sizes.n_head}: each head gets head_dim = ${d} // ${sizes.n_head} = ${d / sizes.n_head} numbers. `
        + "The count does not change: the heads share q, k and v, they add no matrix."
      : `n_head = ${sizes.n_head} does not divide n_embd = ${d}: head_dim would not be a whole number, and microgpt's slices `
        + "would not tile q. The count itself does not depend on n_head.";
    heads.dataset.tone = whole_ ? "" : "bad";

    const embed = (2 * sizes.vocab_size + sizes.block_size) * d;
    const attention = sizes.n_layer * 4 * d * d;
    const mlp = sizes.n_layer * 8 * d * d;
    const parts = [["embeddings and lm_head", embed, "ms-part-embed"], ["attention", attention, "ms-part-attn"], ["MLP", mlp, "ms-part-mlp"]] as const;
    bar.replaceChildren(...parts.map(([label, n, cls]) => h("span", {
      class: `ms-part ${cls}`, style: `flex-grow: ${n}`, "data-part": label, "data-value": n, title: `${label}: ${count(n)}`,
    })));
    barText.replaceChildren(...parts.flatMap(([label, n, cls], i) => [i ? " · " : "",
      h("span", { class: `ms-swatch ${cls}`, "aria-hidden": "true" }), `${label} ${count(n)} (${Math.round((100 * n) / total)}%)`]));

    const atStart = NAMES.every((name) => sizes[name] === start[name]);
    const same = reals.length === shown.length && shown.every((m, i) => m.name === reals[i].name && m.rows === reals[i].rows
      && m.cols === reals[i].cols && m.rows * m.cols === reals[i].count);
    const realTotal = reals.reduce((sum, m) => sum + m.count, 0);
    let text: string;
    if (fc1Round) {
      text = `mlp_fc1 turned round is ${d} × ${4 * d}: the total is still ${count(total)}, since a count cannot tell a matrix `
        + `from its transpose. But linear() gives one number per row, so this mlp_fc1 would make ${d} numbers, not ${4 * d}.`;
    } else if (atStart) {
      text = same
        ? `These are microgpt's own ${reals.length} matrices, as the lesson's code counted them: ${count(realTotal)} numbers.`
        : `Careful: microgpt's real matrices are ${reals.map((r) => `${r.name} ${r.rows} × ${r.cols}`).join(", ")}.`;
    } else {
      text = `A model with these sizes has ${count(total)} numbers to learn, ${(total / realTotal).toFixed(2)} times microgpt's ${count(realTotal)}.`;
    }
    say(status, text);
    status.dataset.tone = fc1Round || (atStart && !same) ? "bad" : "good";
  }

  update();
}

registerWidget("model-size", mountModelSize);
