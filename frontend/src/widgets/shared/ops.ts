// The operations of Value that several widgets plot or explain (local-gradient, rule-cards,
// slope-plot): each one's output and its local gradient, with the same formulas as microgpt.py.
// Not a widget itself: build.mjs builds only the files directly in src/widgets/ as widgets.

import { formatNumber } from "../kit";

export type Op = "add" | "mul" | "pow" | "log" | "exp" | "relu";

export const OPS: readonly Op[] = ["add", "mul", "pow", "log", "exp", "relu"];

export function isOp(value: unknown): value is Op {
  return typeof value === "string" && (OPS as readonly string[]).includes(value);
}

/** The output for x; k is the constant of add and mul, or the exponent of pow. NaN where undefined. */
export function opValue(op: Op, x: number, k: number): number {
  switch (op) {
    case "add": return x + k;
    case "mul": return x * k;
    case "pow": return Math.pow(x, k);
    case "log": return x > 0 ? Math.log(x) : Number.NaN;
    case "exp": return Math.exp(x);
    case "relu": return x > 0 ? x : 0;
  }
}

/** The local gradient as the operation's rule states it: how fast the output moves with x. */
export function opRate(op: Op, x: number, k: number): number {
  switch (op) {
    case "add": return 1;
    case "mul": return k;
    case "pow": return k * Math.pow(x, k - 1);
    case "log": return x > 0 ? 1 / x : Number.NaN;
    case "exp": return Math.exp(x);
    case "relu": return x > 0 ? 1 : 0;
  }
}

const SUPERSCRIPT: Record<string, string> = {
  "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻",
};

/** name to the power k, as a learner writes it: x², x⁻¹, x (for k = 1), x^0.5. */
export function power(name: string, k: number): string {
  if (k === 1) return name;
  if (Number.isInteger(k)) return name + String(k).split("").map((c) => SUPERSCRIPT[c] ?? c).join("");
  return `${name}^${formatNumber(k)}`;
}
