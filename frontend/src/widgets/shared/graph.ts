// Drawing graphs of boxes and arrows, shared by the widgets that draw one (expression-graph,
// graph-backward, graph-walk, paths-graph, sort-game). Not a widget itself: build.mjs builds only
// the files directly in src/widgets/ as widgets.

import { svg } from "../kit";
import "./graph.css";

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

/** The `d` of a path through the points. */
export function pathData(points: Point[]): string {
  return points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
}

/** An arrow head for marker-end, `size` user units long, drawn with class `cls`. */
export function arrowMarker(id: string, size: number, cls = "kit-arrowhead"): SVGElement {
  return svg("marker", {
    id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: size, markerHeight: size,
    markerUnits: "userSpaceOnUse", orient: "auto-start-reverse",
  }, svg("path", { d: "M0 0 L10 5 L0 10 z", class: cls }));
}

export interface Grid {
  /** A box's width and height, and how far apart the columns and rows of boxes are. */
  boxWidth: number;
  boxHeight: number;
  column: number;
  row: number;
  margin: number;
}

export interface Layout<K> {
  /** The top-left corner of each box. */
  at: Map<K, Point>;
  width: number;
  height: number;
}

/**
 * Leaves on the top row in the order given, every other node one row below its deepest child,
 * in the middle of its children's columns (pushed right where it would overlap a neighbour).
 * `order` lists each node after its children (a depth-first post-order).
 */
export function layered<K>(order: K[], childrenOf: (node: K) => K[], grid: Grid): Layout<K> {
  const level = new Map<K, number>();
  for (const node of order) {
    const children = childrenOf(node);
    level.set(node, children.length ? 1 + Math.max(...children.map((c) => level.get(c) ?? 0)) : 0);
  }
  const depth = Math.max(0, ...level.values());
  const column = new Map<K, number>();
  order.filter((node) => level.get(node) === 0).forEach((node, index) => column.set(node, index));
  for (let row = 1; row <= depth; row += 1) {
    const here = order.filter((node) => level.get(node) === row);
    for (const node of here) {
      const children = childrenOf(node);
      column.set(node, children.reduce((sum, c) => sum + (column.get(c) ?? 0), 0) / children.length);
    }
    here.sort((p, q) => (column.get(p) ?? 0) - (column.get(q) ?? 0));
    for (let i = 1; i < here.length; i += 1) {
      const previous = column.get(here[i - 1]) ?? 0;
      if ((column.get(here[i]) ?? 0) < previous + 1) column.set(here[i], previous + 1);
    }
  }
  const low = Math.min(...column.values());
  const high = Math.max(...column.values());
  const at = new Map<K, Point>();
  for (const node of order) {
    at.set(node, {
      x: grid.margin + ((column.get(node) ?? 0) - low) * grid.column,
      y: grid.margin + (level.get(node) ?? 0) * grid.row,
    });
  }
  return {
    at,
    width: 2 * grid.margin + (high - low) * grid.column + grid.boxWidth,
    height: 2 * grid.margin + depth * grid.row + grid.boxHeight,
  };
}
