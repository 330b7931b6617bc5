// Explore widget "line-chart" (lesson 6.5): lines over the steps of a run (a loss, a learning
// rate), one chart at a time, with an optional "try the mistake" toggle that swaps in the same
// charts with the mistake's line added. Every point comes from the lesson's own code
// (explore.compute); this file only draws them.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, svg, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import "./line-chart.css";

type Style = "main" | "other" | "bad";

interface Series {
  name: string;
  points: [number, number][];
  style: Style;
}

interface View {
  label: string;
  caption: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function parseSeries(raw: unknown): Series | null {
  const fields = record(raw);
  const points = (Array.isArray(fields.points) ? fields.points : [])
    .filter((p): p is [number, number] => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === "number" && Number.isFinite(v)));
  if (typeof fields.name !== "string" || points.length < 2) return null;
  const style = fields.style === "other" || fields.style === "bad" ? fields.style : "main";
  return { name: fields.name, points, style };
}

function parseViews(raw: unknown): View[] {
  const views: View[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const fields = record(item);
    const series = (Array.isArray(fields.series) ? fields.series : []).map(parseSeries).filter((s): s is Series => s !== null);
    if (typeof fields.label !== "string" || series.length === 0) continue;
    views.push({ label: fields.label, caption: text(fields.caption), xLabel: text(fields.x_label), yLabel: text(fields.y_label), series });
  }
  return views;
}

const PAD = { left: 52, right: 16, top: 14, bottom: 36 };

/** A few round tick values between low and high. */
function ticks(low: number, high: number, count = 4): number[] {
  const span = high - low || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

/** The chart in user units close to screen pixels, so its text stays readable on a phone. */
function drawChart(view: View, titleId: string, width: number): SVGElement {
  const W = Math.round(Math.max(300, Math.min(640, width || 640)));
  const H = Math.round(Math.max(220, W * 0.45));
  const xs = view.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = view.series.flatMap((s) => s.points.map((p) => p[1]));
  const xLow = Math.min(...xs);
  const xHigh = Math.max(...xs);
  let yLow = Math.min(...ys);
  let yHigh = Math.max(...ys);
  const pad = (yHigh - yLow || 1) * 0.06;
  yLow -= pad;
  yHigh += pad;
  const px = (x: number): number => PAD.left + ((x - xLow) / (xHigh - xLow || 1)) * (W - PAD.left - PAD.right);
  const py = (y: number): number => PAD.top + ((yHigh - y) / (yHigh - yLow)) * (H - PAD.top - PAD.bottom);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "lc-chart", role: "img", "aria-labelledby": titleId });
  chart.append(svg("rect", { class: "lc-frame", x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom }));
  for (const t of ticks(yLow, yHigh)) {
    chart.append(svg("line", { class: "lc-grid", x1: PAD.left, x2: W - PAD.right, y1: py(t).toFixed(1), y2: py(t).toFixed(1) }));
    chart.append(svg("text", { class: "lc-tick", x: PAD.left - 6, y: (py(t) + 4).toFixed(1), "text-anchor": "end" }, formatNumber(t, 3)));
  }
  for (const t of ticks(xLow, xHigh)) {
    const anchor = px(t) > W - PAD.right - 24 ? "end" : "middle";
    chart.append(svg("text", { class: "lc-tick", x: px(t).toFixed(1), y: H - PAD.bottom + 18, "text-anchor": anchor }, formatNumber(t, 0)));
  }
  chart.append(svg("text", { class: "lc-axis", x: (PAD.left + W - PAD.right) / 2, y: H - 4, "text-anchor": "middle" }, view.xLabel));
  // Draw the reference lines first, so the main one and the mistake stay on top.
  const order: Style[] = ["other", "main", "bad"];
  for (const style of order) {
    for (const series of view.series.filter((s) => s.style === style)) {
      const d = series.points.map((p, i) => `${i ? "L" : "M"}${px(p[0]).toFixed(1)} ${py(p[1]).toFixed(1)}`).join("");
      chart.append(svg("path", { class: `lc-line lc-${style}`, d }));
    }
  }
  return chart;
}

function mountLineChart(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const views = parseViews(data.views);
  const mistakeViews = parseViews(data.mistake_views);
  if (views.length === 0) {
    root.append(h("p", {}, "This widget has nothing to draw."));
    return;
  }
  const viewLabel = textOr(params.view_label, "Chart");
  const mistakeText = mistakeViews.length === views.length ? textOr(params.mistake, null) : null;
  let index = 0;
  let mistaken = false;

  const tabs = choiceGroup({
    legend: viewLabel, hiddenLegend: true, name: "lc-view", groupClass: "lc-tabs", choiceClass: "lc-tab",
    choices: views.map((view) => ({ label: [" ", view.label] })),
    onPick: (i) => {
      index = i;
      render();
    },
  });
  const controls = h("div", { class: "kit-controls" }, tabs);
  if (mistakeText) {
    const toggle = mistakeToggle(mistakeText, { name: "lc-mistake", className: "kit-push" });
    toggle.input.addEventListener("change", () => {
      mistaken = toggle.input.checked;
      render();
    });
    controls.append(toggle.label);
  }
  const title = h("p", { class: "lc-title", id: uniqueId("lc-title") });
  const figure = h("figure", { class: "lc-figure" });
  const legend = h("ul", { class: "lc-legend" });
  const caption = h("p", { class: "lc-caption", "aria-live": "polite", "data-caption": "" });
  root.append(h("div", { class: "lc" }, controls, title, figure, legend, caption));

  function render(): void {
    const view = (mistaken ? mistakeViews : views)[index];
    const last = view.series.map((s) => `${s.name}: ${formatNumber(s.points[s.points.length - 1][1], 4)} at the end`);
    title.textContent = `${view.yLabel}, by ${view.xLabel}. ${last.join("; ")}.`;
    figure.replaceChildren(drawChart(view, title.id, figure.clientWidth));
    legend.replaceChildren(...view.series.map((s) => h("li", { "data-series": s.name },
      h("span", { class: `lc-key lc-${s.style}`, "aria-hidden": "true" }), s.name)));
    say(caption, view.caption);
  }

  render();
  // Redraw when the width changes a lot (a phone turned, a window resized).
  let drawnAt = figure.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(figure.clientWidth - drawnAt) > 40) {
      drawnAt = figure.clientWidth;
      render();
    }
  }).observe(figure);
}

registerWidget("line-chart", mountLineChart);
