// The live loss chart: the learner's loss at every step (points) and its trend (a smoothed line),
// with the reference run's beside it. uPlot draws it on a canvas, so a thousand points cost
// little; this module is loaded only by the My microgpt page.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** An exponential moving average of the losses so far, bias-corrected so it starts on them. */
export class Trend {
  private level = 0;
  private weight = 0;
  constructor(private alpha = 0.05) {}
  next(x: number): number {
    this.level = this.alpha * x + (1 - this.alpha) * this.level;
    this.weight = this.alpha + (1 - this.alpha) * this.weight;
    return this.level / this.weight;
  }
}

function colour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
}

export interface Curve { losses: Array<number | null>; trend: Array<number | null> }

export function emptyCurve(): Curve {
  return { losses: [], trend: [] };
}

export function extend(curve: Curve, trend: Trend, losses: Array<number | null>): void {
  for (const loss of losses) {
    curve.losses.push(loss);
    curve.trend.push(loss === null || !Number.isFinite(loss) ? null : trend.next(loss));
  }
}

export class LossChart {
  private plot: uPlot | null = null;
  private frame = 0;
  private total = 1;
  private mine = emptyCurve();
  private reference = emptyCurve();

  constructor(private holder: HTMLElement) {
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(holder);
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => this.build());
  }

  private size(): { width: number; height: number } {
    const width = Math.max(240, this.holder.clientWidth);
    return { width, height: Math.round(Math.min(320, Math.max(200, width * 0.45))) };
  }

  private build(): void {
    this.plot?.destroy();
    const fg = colour("--muted");
    const grid = colour("--border");
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const mine = colour("--accent");
    const reference = colour("--warn");
    this.plot = new uPlot({
      ...this.size(),
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: () => [1, Math.max(2, this.total)] } },
      axes: [{ ...axis, label: "step", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000] },
             { ...axis, label: "loss", size: 56 }],
      series: [
        {},
        { label: "your loss", stroke: mine, width: 0, points: { show: true, size: 5, fill: mine, stroke: mine } },
        { label: "your trend", stroke: mine, width: 2, points: { show: false } },
        { label: "reference loss", stroke: reference, width: 0, points: { show: true, size: 3, fill: reference, stroke: reference } },
        { label: "reference trend", stroke: reference, width: 2, dash: [6, 4], points: { show: false } },
      ],
    }, this.data(), this.holder);
  }

  private data(): uPlot.AlignedData {
    const n = Math.max(this.mine.losses.length, this.reference.losses.length);
    const xs = Array.from({ length: n }, (_, i) => i + 1);
    const pad = (values: Array<number | null>) => Array.from({ length: n }, (_, i) => values[i] ?? null);
    return [xs, pad(this.mine.losses), pad(this.mine.trend), pad(this.reference.losses), pad(this.reference.trend)];
  }

  /** Show these curves (redrawn at the next frame, however often this is called). */
  show(mine: Curve, reference: Curve, total: number): void {
    this.mine = mine;
    this.reference = reference;
    this.total = total;
    if (!this.plot) this.build();
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.plot?.setData(this.data());
    });
  }
}
