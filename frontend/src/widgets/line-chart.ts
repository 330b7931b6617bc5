// Explore widget "line-chart" (lesson 6.5): lines over the steps of a run (a loss, a learning
// rate), one chart at a time, with an optional "try the mistake" toggle that swaps in the same
// charts with the mistake's line added. Every point comes from the lesson's own code
// (explore.compute); this file only draws them.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import { drawLines, type LinesView, type Series } from "./shared/lines";
import "./line-chart.css";

interface View extends LinesView {
  label: string;
  caption: string;
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
    figure.replaceChildren(drawLines(view, title.id, figure.clientWidth, ["other", "main", "bad"]));
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
