// The live loss chart: the learner's loss at every step (points) and its trend (a smoothed line),
// with the reference run's beside it. uPlot draws it on a canvas; this module is loaded only by
// the My microgpt page.
//
// A redraw must stay cheap while a worker trains (the page's tasks stay under 50 ms): Chromium
// records every canvas operation and hands the recording over at each frame, so the cost grows
// with what is drawn. Points are filled squares in one path (uPlot's round points are arcs, filled
// and stroked: twice the recording), and the arrays handed to uPlot are filled in place instead of
// rebuilt at each redraw (less garbage to collect mid-training). bench/train_browser.py measures it.
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

/** Points as small filled squares, one path per series, on whole pixels. */
function squarePoints(u: uPlot, seriesIndex: number, first: number, last: number): uPlot.Series.Points.Paths {
  const size = Math.max(1, Math.round(Number(u.series[seriesIndex].points?.size ?? 3) * devicePixelRatio));
  const half = size / 2;
  const xs = u.data[0];
  const ys = u.data[seriesIndex];
  const path = new Path2D();
  for (let i = first; i <= last; i++) {
    const y = ys[i];
    if (y === null || y === undefined) continue;
    path.rect(Math.round(u.valToPos(xs[i], "x", true) - half), Math.round(u.valToPos(y, "y", true) - half), size, size);
  }
  return { fill: path, stroke: null };
}

/** The five aligned columns uPlot draws (step; your loss and trend; the reference's), kept
 *  between redraws and filled in as the curves grow. */
class Columns {
  readonly data: [number[], ...Array<Array<number | null>>];
  private filled = [0, 0];

  constructor(readonly mine: Curve, readonly reference: Curve, readonly total: number) {
    const n = Math.max(total, mine.losses.length, reference.losses.length);
    const empty = () => new Array<number | null>(n).fill(null);
    this.data = [Array.from({ length: n }, (_, i) => i + 1), empty(), empty(), empty(), empty()];
  }

  fits(mine: Curve, reference: Curve, total: number): boolean {
    return mine === this.mine && reference === this.reference && total === this.total &&
      Math.max(mine.losses.length, reference.losses.length) <= this.data[0].length;
  }

  update(): void {
    [this.mine, this.reference].forEach((curve, side) => {
      const [losses, trend] = [this.data[1 + 2 * side], this.data[2 + 2 * side]];
      for (let i = this.filled[side]; i < curve.losses.length; i++) {
        losses[i] = curve.losses[i];
        trend[i] = curve.trend[i];
      }
      this.filled[side] = curve.losses.length;
    });
  }
}

export class LossChart {
  private plot: uPlot | null = null;
  private frame = 0;
  private columns = new Columns(emptyCurve(), emptyCurve(), 1);

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
      scales: { x: { time: false, range: () => [1, Math.max(2, this.columns.total)] } },
      axes: [{ ...axis, label: "step", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000] },
             { ...axis, label: "loss", size: 56 }],
      series: [
        {},
        { label: "your loss", stroke: mine, width: 0, points: { show: true, size: 5, fill: mine, paths: squarePoints } },
        { label: "your trend", stroke: mine, width: 2, points: { show: false } },
        { label: "reference loss", stroke: reference, width: 0, points: { show: true, size: 3, fill: reference, paths: squarePoints } },
        { label: "reference trend", stroke: reference, width: 2, dash: [6, 4], points: { show: false } },
      ],
    }, this.columns.data, this.holder);
  }

  /** Show these curves (redrawn at the next frame, however often this is called). */
  show(mine: Curve, reference: Curve, total: number): void {
    if (!this.columns.fits(mine, reference, total)) this.columns = new Columns(mine, reference, total);
    if (!this.plot) this.build();
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.columns.update();
      this.plot?.setData(this.columns.data);
    });
  }
}
