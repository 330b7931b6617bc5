// The shapes of a learner's Value graph as runtime/graph.py sends it, and the box size both the
// layout (graph-layout.ts, in the Python worker) and the drawing (graph-drawing.ts, on the page)
// use. Apart from the layout so that the page's bundle never carries dagre.

export interface GraphNode {
  id: number; name: string; op: string; data: number | null; grad: number | null;
  children: number[]; local: Array<number | null>; folded: number;
}
export interface ValueGraph { nodes: GraphNode[]; total: number; root: number }
export interface Placed { x: number; y: number }
export interface Layout {
  width: number; height: number;
  /** Each node's top-left corner, by id. */
  at: Record<number, Placed>;
  /** Each edge's route, child to parent, keyed "child>parent#k" (k: which of the parent's slots). */
  edges: Record<string, Placed[]>;
}

export const BOX = { width: 132, height: 54 };

export function edgeKey(child: number, parent: number, slot: number): string {
  return `${child}>${parent}#${slot}`;
}
