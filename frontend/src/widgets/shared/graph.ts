// Drawing graphs of boxes and arrows, shared by the widgets that draw one (expression-graph,
// graph-walk, sort-game). Not a widget itself: build.mjs builds only the files directly in
// src/widgets/ as widgets.

export interface Point { x: number; y: number }

/** A straight arrow from start to end, or one that steps around the boxes (top-left corners of
 *  boxes `width` × `height`) that the straight line would cross. */
export function route(start: Point, end: Point, boxes: Point[], width: number, height: number): Point[] {
  const gap = 6;
  const hits = boxes.filter((box) => {
    for (let i = 1; i < 30; i += 1) {
      const t = i / 30;
      const x = start.x + (end.x - start.x) * t;
      const y = start.y + (end.y - start.y) * t;
      if (x > box.x - gap && x < box.x + width + gap && y > box.y - gap && y < box.y + height + gap) return true;
    }
    return false;
  });
  if (hits.length === 0) return [start, end];
  const left = Math.min(...hits.map((b) => b.x));
  const right = Math.max(...hits.map((b) => b.x + width));
  const top = Math.min(...hits.map((b) => b.y));
  const bottom = Math.max(...hits.map((b) => b.y + height));
  const x = Math.abs(start.x - left) <= Math.abs(right - start.x) ? left - 2 * gap : right + 2 * gap;
  return [start, { x, y: top - gap }, { x, y: bottom + gap }, end];
}
