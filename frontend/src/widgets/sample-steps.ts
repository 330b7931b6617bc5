// Explore widget "sample-steps" (lesson 2.4): a name sampled one draw at a time. Each draw shows
// the current token's row of probabilities as bars, lays the same probabilities end to end on a
// strip from 0 to 1, and drops the draw's random number u on it: the segment it lands in is the
// next token. BOS ends the name. The draws (u included) come from the lesson's own code
// (explore.compute, seeded like train0.py), so the names are the ones train0 prints; a toggle
// swaps in "always take the likeliest token".

import { setUsable } from "../usable";
import { say } from "../live";
import { formatNumber, h, registerWidget, svg, uniqueId, type Params } from "./kit";
import "./sample-steps.css";

interface Draw {
  from: number;
  to: number;
  /** The uniform random number of the draw; absent for the greedy mistake. */
  u: number | null;
}

interface Data {
  labels: string[];
  probs: number[][];
  samples: Draw[][];
  greedy: Draw[];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>) : {};
}

function parseDraws(raw: unknown, size: number): Draw[] | null {
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const draws: Draw[] = [];
  for (const item of raw) {
    const fields = record(item);
    const from = fields.from;
    const to = fields.to;
    if (typeof from !== "number" || typeof to !== "number" || from < 0 || to < 0 || from >= size || to >= size) return null;
    draws.push({ from, to, u: typeof fields.u === "number" ? fields.u : null });
  }
  return draws;
}

function parseData(raw: unknown): Data | null {
  const fields = record(raw);
  const labels = Array.isArray(fields.labels) && fields.labels.every((x) => typeof x === "string")
    ? (fields.labels as string[]) : null;
  if (!labels || labels.length < 2) return null;
  const size = labels.length;
  const probs = Array.isArray(fields.probs) && fields.probs.length === size
    && fields.probs.every((row) => Array.isArray(row) && row.length === size) ? (fields.probs as number[][]) : null;
  if (!probs || !Array.isArray(fields.samples)) return null;
  const samples = fields.samples.map((steps) => parseDraws(steps, size));
  const greedy = parseDraws(fields.greedy, size);
  if (samples.length === 0 || samples.some((s) => s === null) || !greedy) return null;
  return { labels, probs, samples: samples as Draw[][], greedy };
}

function quoted(label: string): string {
  return label === "BOS" ? "BOS" : `'${label}'`;
}

function formatProb(p: number): string {
  return p >= 0.001 ? formatNumber(p, 3) : Number(p.toPrecision(2)).toString();
}

const W = 400;
const BARS_H = 150;
const STRIP_H = 62;
const PAD = 6;

function mountSampleSteps(root: HTMLElement, params: Params): void {
  const parsed = parseData(params.data);
  if (!parsed) {
    root.append(h("p", {}, "The sampled names are missing: the lesson's compute did not run."));
    return;
  }
  const data: Data = parsed;
  const size = data.labels.length;
  const bos = size - 1;
  let sample = 0;
  let done = 0; // how many draws of the current name have been made
  let greedy = false;

  const draws = (): Draw[] => (greedy ? data.greedy : data.samples[sample]);
  const nameOf = (count: number): string => draws().slice(0, count)
    .filter((d) => d.to !== bos).map((d) => data.labels[d.to]).join("");

  // ---- controls ----
  const pickId = uniqueId("ss-sample");
  const pick = h("select", { id: pickId, "data-control": "sample" },
    ...data.samples.map((_, i) => h("option", { value: String(i) }, `sample ${i + 1}`)));
  pick.addEventListener("change", () => { sample = Number(pick.value); done = 0; render(); });
  const back = h("button", { type: "button", class: "secondary" }, "Back");
  const step = h("button", { type: "button", "data-action": "draw" }, "Draw the next token");
  const finish = h("button", { type: "button", class: "secondary" }, "Whole name");
  const reset = h("button", { type: "button", class: "secondary" }, "Reset");
  const counter = h("span", { class: "ss-counter", "data-readout": "counter" });
  back.addEventListener("click", () => { if (done > 0) { done -= 1; render(); } });
  step.addEventListener("click", () => { if (done < draws().length) { done += 1; render(); } });
  finish.addEventListener("click", () => { done = draws().length; render(); });
  reset.addEventListener("click", () => { done = 0; render(); });
  for (const button of [back, step, finish, reset]) {
    button.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight" && done < draws().length) { done += 1; render(); event.preventDefault(); }
      if (event.key === "ArrowLeft" && done > 0) { done -= 1; render(); event.preventDefault(); }
    });
  }
  const controls = h("div", { class: "ss-controls" },
    h("span", { class: "ss-pick" }, h("label", { for: pickId }, "Name"), pick),
    h("span", { class: "ss-buttons", role: "group", "aria-label": "Draws" }, back, step, finish, reset), counter);

  const mistakeLabel = typeof params.mistake === "string" ? params.mistake : "";
  if (mistakeLabel) {
    const id = uniqueId("ss-mistake");
    const toggle = h("input", { type: "checkbox", id, "data-control": "mistake" });
    toggle.addEventListener("change", () => { greedy = toggle.checked; done = 0; pick.disabled = greedy; render(); });
    controls.append(h("span", { class: "ss-mistake" }, toggle, h("label", { for: id }, mistakeLabel)));
  }

  // ---- the name so far ----
  const nameOut = h("p", { class: "ss-name", "data-readout": "name" });

  // ---- the bars ----
  const barsTitleId = uniqueId("ss-bars-title");
  const barsTitle = h("p", { class: "ss-title", id: barsTitleId });
  const barsSummaryId = uniqueId("ss-bars-numbers");
  const bars = svg("svg", {
    viewBox: `0 0 ${W} ${BARS_H}`, class: "ss-bars", role: "img", "aria-labelledby": barsTitleId, "aria-describedby": barsSummaryId,
  });
  const barsSummary = h("p", { class: "visually-hidden", id: barsSummaryId });

  // ---- the strip ----
  const stripTitleId = uniqueId("ss-strip-title");
  const stripTitle = h("p", { class: "ss-title", id: stripTitleId });
  const stripSummaryId = uniqueId("ss-strip-numbers");
  const strip = svg("svg", {
    viewBox: `0 0 ${W} ${STRIP_H}`, class: "ss-strip", role: "img", "aria-labelledby": stripTitleId, "aria-describedby": stripSummaryId,
  });
  const stripSummary = h("p", { class: "visually-hidden", id: stripSummaryId });
  const explain = h("p", { class: "ss-explain", "data-readout": "explain", "aria-live": "polite" });

  const caption = typeof params.caption === "string" ? h("p", { class: "kit-caption" }, params.caption) : null;
  root.append(h("div", { class: "ss" }, controls, nameOut,
    h("figure", { class: "ss-figure" }, barsTitle, bars, barsSummary), h("figure", { class: "ss-figure" }, stripTitle, strip, stripSummary),
    explain, caption));

  function drawBars(row: number, chosen: number | null): void {
    const p = data.probs[row];
    const top = Math.max(...p);
    const slot = (W - 2 * PAD) / size;
    const base = BARS_H - 18;
    const children: SVGElement[] = [];
    p.forEach((value, b) => {
      const height = top > 0 ? ((base - 14) * value) / top : 0;
      const x = PAD + b * slot;
      children.push(svg("rect", {
        x: (x + 1).toFixed(2), y: (base - height).toFixed(2), width: (slot - 2).toFixed(2), height: Math.max(0.5, height).toFixed(2),
        class: b === chosen ? "ss-bar ss-chosen" : "ss-bar",
      }));
      children.push(svg("text", { x: (x + slot / 2).toFixed(2), y: BARS_H - 4, "text-anchor": "middle", class: b === chosen ? "ss-label ss-chosen-label" : "ss-label" },
        data.labels[b] === "BOS" ? "•" : data.labels[b]));
    });
    if (chosen !== null) {
      const x = PAD + chosen * slot + slot / 2;
      const height = top > 0 ? ((base - 14) * p[chosen]) / top : 0;
      children.push(svg("text", { x: Math.min(W - 24, Math.max(24, x)).toFixed(2), y: (base - height - 4).toFixed(2), "text-anchor": "middle", class: "ss-value" },
        formatProb(p[chosen])));
    }
    bars.replaceChildren(...children);
    // Every bar's number, likeliest first: the text a screen reader gives for the chart.
    const ranked = [...p.keys()].sort((x, y) => p[y] - p[x]);
    barsSummary.textContent = `All ${p.length} probabilities, likeliest first: ${ranked.map((b) => `${quoted(data.labels[b])} ${formatProb(p[b])}`).join(", ")}.`;
  }

  function drawStrip(row: number, draw: Draw | null): void {
    const p = data.probs[row];
    const total = p.reduce((s, v) => s + v, 0);
    const width = W - 2 * PAD;
    const top = 22;
    const height = 24;
    const children: SVGElement[] = [];
    let running = 0;
    p.forEach((value, b) => {
      const x = PAD + (width * running) / total;
      const w = (width * value) / total;
      children.push(svg("rect", { x: x.toFixed(2), y: top, width: Math.max(0, w).toFixed(2), height,
        class: `ss-seg${b % 2 ? " ss-seg-odd" : ""}${draw && b === draw.to ? " ss-chosen" : ""}` }));
      if (w >= 11) {
        children.push(svg("text", { x: (x + w / 2).toFixed(2), y: top + 16, "text-anchor": "middle", class: draw && b === draw.to ? "ss-seg-label ss-chosen-label" : "ss-seg-label" },
          data.labels[b] === "BOS" ? "•" : data.labels[b]));
      }
      running += value;
    });
    children.push(svg("text", { x: PAD, y: top + height + 13, class: "ss-label", "text-anchor": "start" }, "0"));
    children.push(svg("text", { x: W - PAD, y: top + height + 13, class: "ss-label", "text-anchor": "end" }, "1"));
    if (draw && draw.u !== null) {
      const x = PAD + width * draw.u;
      // A pointer above the strip and a tick below it, so the segment's letter stays readable.
      children.push(svg("path", { d: `M${(x - 5).toFixed(2)} ${top - 3} L${(x + 5).toFixed(2)} ${top - 3} L${x.toFixed(2)} ${top + 3} Z`, class: "ss-pointer" }));
      children.push(svg("line", { x1: x.toFixed(2), x2: x.toFixed(2), y1: top + height - 5, y2: top + height + 4, class: "ss-marker" }));
      children.push(svg("text", { x: Math.min(W - 40, Math.max(40, x)).toFixed(2), y: top - 5, "text-anchor": "middle", class: "ss-value" },
        `u = ${formatNumber(draw.u, 4)}`));
    }
    strip.replaceChildren(...children);
    // Every segment's ends, in the strip's order: the text a screen reader gives for it.
    const ends: string[] = [];
    let from = 0;
    p.forEach((value, b) => {
      const to = from + value / total;
      ends.push(`${quoted(data.labels[b])} ${formatNumber(from, 4)} to ${formatNumber(to, 4)}`);
      from = to;
    });
    stripSummary.textContent = `The ${p.length} segments from 0 to 1: ${ends.join(", ")}.` +
      (draw && draw.u !== null ? ` u = ${formatNumber(draw.u, 4)}.` : "");
  }

  function segment(row: number, token: number): [number, number] {
    const p = data.probs[row];
    const total = p.reduce((s, v) => s + v, 0);
    const start = p.slice(0, token).reduce((s, v) => s + v, 0) / total;
    return [start, start + p[token] / total];
  }

  function render(): void {
    const list = draws();
    const total = list.length;
    counter.textContent = `draw ${done} / ${total}`;
    setUsable(back, done !== 0);
    setUsable(step, done !== total);
    setUsable(finish, done !== total);
    setUsable(reset, done !== 0);

    const finished = done === total && list[total - 1].to === bos;
    const letters = nameOf(done);
    nameOut.replaceChildren(
      h("span", { class: "ss-bos" }, "BOS"), " ",
      h("span", { class: "ss-letters", "data-name": letters }, letters || "…"),
      finished ? h("span", { class: "ss-bos" }, " BOS") : h("span", { class: "ss-cursor", "aria-hidden": "true" }, " ▌"));

    const draw = done > 0 ? list[done - 1] : null;
    const row = draw ? draw.from : bos;
    const rowName = quoted(data.labels[row]);
    barsTitle.textContent = `Row ${rowName} of probs: the chances of each next token when the current token is ${rowName}.`;
    stripTitle.textContent = greedy
      ? "The same probabilities laid end to end from 0 to 1 (not used: the mistake takes the tallest bar)."
      : "The same probabilities laid end to end from 0 to 1; the draw's random number u lands in one of them.";
    drawBars(row, draw ? draw.to : null);
    drawStrip(row, draw);

    if (!draw) {
      say(explain, `Every name starts at BOS, so the first draw uses row BOS: how names start. Press "Draw the next token".`);
    } else {
      const to = data.labels[draw.to];
      const next = draw.to === bos ? "BOS: the name ends here" : `${quoted(to)}, added to the name`;
      if (draw.u === null) {
        say(explain, `The tallest bar of row ${rowName} is ${quoted(to)} (p = ${formatProb(data.probs[row][draw.to])}), so the next token is ${next}.` +
          (finished ? ` Always taking the likeliest token gives "${letters}", every time: all 20 names would be the same.` : ""));
      } else {
        const [a, b] = segment(row, draw.to);
        say(explain, `u = ${formatNumber(draw.u, 4)} lands in the segment of ${quoted(to)}, from ${formatNumber(a, 4)} to ${formatNumber(b, 4)} ` +
          `(its width is its probability, ${formatProb(data.probs[row][draw.to])}), so the next token is ${next}.` +
          (finished ? ` The name is "${letters}": ${letters.length} ${letters.length === 1 ? "letter" : "letters"}, ${total} draws.` : ""));
      }
    }
    explain.dataset.done = finished ? "true" : "false";
  }

  render();
}

registerWidget("sample-steps", mountSampleSteps);
