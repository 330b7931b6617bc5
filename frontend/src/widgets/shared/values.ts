// A small graph of Values as graph-backward and graph-walk take it from a lesson: `inputs`
// (name: number), then `nodes`, each made by add or mul from two inputs or earlier nodes. Not a
// widget itself: build.mjs builds only the files directly in src/widgets/ as widgets.

import { record, type Params } from "../kit";

export interface ValueNode {
  name: string;
  /** null for an input (a leaf). */
  op: "add" | "mul" | null;
  args: string[];
  data: number;
}

export const SYMBOL = { add: "+", mul: "×" };

/** The nodes keyed by name (inputs first), each with its data; anything malformed is dropped. */
export function parseValueGraph(params: Params): Map<string, ValueNode> {
  const nodes = new Map<string, ValueNode>();
  for (const [name, data] of Object.entries(record(params.inputs))) {
    if (typeof data === "number" && Number.isFinite(data)) nodes.set(name, { name, op: null, args: [], data });
  }
  for (const item of Array.isArray(params.nodes) ? params.nodes : []) {
    const { name, op, args } = record(item);
    if (typeof name !== "string" || nodes.has(name) || (op !== "add" && op !== "mul")) continue;
    if (!Array.isArray(args) || args.length !== 2) continue;
    const names = args.filter((arg): arg is string => typeof arg === "string" && nodes.has(arg));
    if (names.length !== 2) continue;
    const [left, right] = names.map((arg) => (nodes.get(arg) as ValueNode).data);
    nodes.set(name, { name, op, args: names, data: op === "add" ? left + right : left * right });
  }
  return nodes;
}

/** The topological sort microgpt uses: depth-first from the output, children in argument order,
 *  each node once and after its children. */
export function topologicalOrder(nodes: Map<string, ValueNode>, output: string): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const child of nodes.get(name)?.args ?? []) visit(child);
    order.push(name);
  };
  visit(output);
  return order;
}
