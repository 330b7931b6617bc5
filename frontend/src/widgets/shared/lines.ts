// Lines over x (a loss by step, a rate by step) in one framed chart with round ticks: drawn by
// line-chart (computed lines) and experiment-lab (runs made in the page). Not a widget itself.
import { formatNumber, svg } from "../kit";
import "./lines.css";

export interface Series {
  name: string;
  points: [number, number][];
  style: string; // the line's class is lc-<style>
}

export interface LinesView {
  xLabel: string;
  yLabel: string;
  series: Series[];
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

/**
 * The chart in user units close to screen pixels, so its text stays readable on a phone. Series
 * are drawn style by style in `order` (the last on top); a style is a class, `lc-<style>`.
 */
export function drawLines(view: LinesView, titleId: string, width: number, order: string[]): SVGElement {
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
  for (const style of order) {
    for (const series of view.series.filter((s) => s.style === style)) {
      const d = series.points.map((p, i) => `${i ? "L" : "M"}${px(p[0]).toFixed(1)} ${py(p[1]).toFixed(1)}`).join("");
      chart.append(svg("path", { class: `lc-line lc-${style}`, d }));
    }
  }
  return chart;
}
