// The teacher's pages: bar charts (uPlot) of the figures the page's tables hold — a module's
// funnel (learners who started / passed each lesson) and how often each check failed first — and
// times in the teacher's own time zone. Loaded on teacher pages only, so lesson pages never pay
// for the charting library.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import "./teach.css";

interface Series { label: string; color: string; values: number[] }
interface Chart { id: string; kind: "bars"; title: string; labels: string[]; series: Series[] }

const HEIGHT = 240;

function cssColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
}

function options(chart: Chart, width: number): uPlot.Options {
  const fg = cssColour("--fg");
  const grid = cssColour("--border");
  const count = chart.labels.length;
  const share = 0.8 / chart.series.length;
  const rects: Array<{ left: number; top: number; width: number; value: number }> = [];
  const font = `${Math.round(13 * devicePixelRatio)}px system-ui, sans-serif`;
  return {
    width, height: HEIGHT,
    legend: { show: false },
    cursor: { show: false, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: { time: false, range: [0.5, count + 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
    },
    axes: [
      { stroke: fg, grid: { show: false }, ticks: { stroke: grid }, font: "13px system-ui, sans-serif",
        splits: () => chart.labels.map((_, i) => i + 1),
        values: (_u, splits) => splits.map((v) => chart.labels[v - 1] ?? "") },
      { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { show: false }, font: "13px system-ui, sans-serif",
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : "")) },
    ],
    series: [{}, ...chart.series.map((series, index) => ({
      label: series.label,
      fill: cssColour(series.color), stroke: cssColour(series.color), width: 0,
      points: { show: false },
      paths: uPlot.paths.bars!({
        size: [share, 48], align: (chart.series.length === 1 ? 0 : index === 0 ? -1 : 1) as -1 | 0 | 1,
        each: (u, seriesIdx, idx, left, top, barWidth) => {
          rects.push({ left, top, width: barWidth, value: Number(u.data[seriesIdx][idx] ?? 0) });
        },
      }),
    }))],
    hooks: {
      drawClear: [() => { rects.length = 0; }],
      // Each bar's number above it: the chart is read at a glance, without hovering.
      draw: [(u) => {
        const ctx = u.ctx;
        ctx.save();
        ctx.fillStyle = fg;
        ctx.font = font;
        ctx.textAlign = "center";
        ctx.textBaseline = "bottom";
        for (const rect of rects) ctx.fillText(String(rect.value), rect.left + rect.width / 2, rect.top - 3 * devicePixelRatio);
        ctx.restore();
      }],
    },
  };
}

function draw(holder: HTMLElement, chart: Chart): uPlot {
  const data: uPlot.AlignedData = [chart.labels.map((_, i) => i + 1), ...chart.series.map((s) => s.values)];
  holder.replaceChildren();
  return new uPlot(options(chart, Math.max(280, holder.clientWidth)), data, holder);
}

/** Times are written in UTC by the server; the teacher reads them in their own time zone, named
 *  beside each time (the CSV files stay in UTC, and say so), with UTC on hover. */
function localTimes(): void {
  const format = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
  const utc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  for (const time of document.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
    const moment = new Date(time.dateTime);
    if (Number.isNaN(moment.getTime())) continue;
    time.textContent = format.format(moment);
    time.title = `${utc.format(moment)} UTC`;
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const note of document.querySelectorAll<HTMLElement>("[data-time-zone]")) {
    note.textContent = `Times on this page are in your time zone (${zone}); the CSV files give them in UTC.`;
  }
}

function main(): void {
  localTimes();
  const source = document.getElementById("chart-data");
  if (!source?.textContent) return;
  const charts = JSON.parse(source.textContent) as Chart[];
  for (const chart of charts) {
    const holder = document.querySelector<HTMLElement>(`[data-chart="${chart.id}"]`);
    if (!holder) continue;
    let plot = draw(holder, chart);
    holder.dataset.drawn = "";
    // Narrower or wider window: the same chart at the new width. Light or dark: new colours.
    new ResizeObserver(() => { plot.setSize({ width: Math.max(280, holder.clientWidth), height: HEIGHT }); }).observe(holder);
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { plot.destroy(); plot = draw(holder, chart); });
  }
}

main();
