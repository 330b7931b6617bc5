// Where each node of a learner's Value graph goes, worked out by dagre (a maintained layered-
// graph layout) inside the Python worker, so that a graph of hundreds of nodes never holds up the
// page; the page draws what comes out (graph-drawing.ts).
import dagre from "@dagrejs/dagre";
import { BOX, edgeKey, type Layout, type Placed, type ValueGraph } from "./graph-shape";

const MARGIN = 12;

/** Leaves at the top, the Value drawn last at the bottom, arrows pointing the way data flows. */
export function layOut(graph: ValueGraph): Layout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 18, ranksep: 42, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(String(node.id), { width: BOX.width, height: BOX.height });
  for (const node of graph.nodes) {
    node.children.forEach((child, slot) => g.setEdge(String(child), String(node.id), {}, edgeKey(child, node.id, slot)));
  }
  dagre.layout(g);
  const at: Record<number, Placed> = {};
  for (const node of graph.nodes) {
    const placed = g.node(String(node.id));
    at[node.id] = { x: placed.x - BOX.width / 2, y: placed.y - BOX.height / 2 };
  }
  const edges: Record<string, Placed[]> = {};
  for (const edge of g.edges()) {
    const points = (g.edge(edge) as { points?: Placed[] }).points ?? [];
    if (edge.name) edges[edge.name] = points.map(({ x, y }) => ({ x, y }));
  }
  const size = g.graph() as { width?: number; height?: number };
  return { width: size.width ?? 0, height: size.height ?? 0, at, edges };
}
