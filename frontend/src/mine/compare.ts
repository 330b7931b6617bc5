// How the learner's run compares with the reference run: the words of training.compare()
// (src/linebyline/mine/training.py), which `linebyline train --mine` prints, said the same way here.

export interface Verdict { kind: "same" | "rounding" | "parted" | "nothing"; text: string; step: number }

const ROUNDING = 1e-9; // a first difference smaller than this (relative) is rounding, not a bug
const TINY = 2.2250738585072014e-308; // sys.float_info.min

/** Python's f"{x:.{digits}g}". */
export function formatG(x: number, digits: number): string {
  if (x === 0) return "0";
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const exponent = Number(x.toExponential(digits - 1).split("e")[1]);
  if (exponent < -4 || exponent >= digits) {
    const [mantissa, power] = x.toExponential(digits - 1).split("e");
    const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
    const sign = power.startsWith("-") ? "-" : "+";
    return `${trimmed}e${sign}${power.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  const fixed = x.toFixed(Math.max(0, digits - 1 - exponent));
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, "") : fixed;
}

function relative(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), TINY);
}

function digitsShared(rel: number): number {
  return rel <= 0 ? 16 : Math.max(1, Math.min(16, Math.floor(-Math.log10(rel))));
}

function shown(x: number | null, digits = 6): string {
  return x === null ? "not a number" : formatG(x, digits);
}

function weightsCloseness(mine: Float64Array | null, reference: Float64Array | null): string {
  if (!mine || !reference || !mine.length || mine.length !== reference.length) return "";
  let worst = 0;
  for (let i = 0; i < mine.length; i += 1) worst = Math.max(worst, relative(mine[i], reference[i]));
  return worst ? ` (at the end they agree to ${digitsShared(worst)} significant digits)` : " (at the end they are the same again)";
}

export function compare(mine: Array<number | null>, reference: Array<number | null>,
                        myMarks: string[] = [], referenceMarks: string[] = [],
                        myWeights: Float64Array | null = null, referenceWeights: Float64Array | null = null): Verdict {
  const steps = Math.min(mine.length, reference.length);
  if (steps === 0) return { kind: "nothing", text: "No steps to compare yet.", step: 0 };
  let first = -1;
  for (let k = 0; k < steps; k += 1) if (mine[k] !== reference[k]) { first = k; break; }
  const soFar = mine.length === reference.length ? "" : " so far";
  if (first < 0) {
    let split = -1;
    for (let k = 0; k < Math.min(steps, myMarks.length, referenceMarks.length); k += 1) {
      if (myMarks[k] && referenceMarks[k] && myMarks[k] !== referenceMarks[k]) { split = k; break; }
    }
    if (split < 0) {
      const every = steps !== 1 ? `all ${steps} steps` : "its one step";
      return { kind: "same", step: 0, text: `Matches the reference at every step${soFar}: the same loss and the same weights, to the last digit, for ${every}.` };
    }
    return {
      kind: "rounding", step: split + 1,
      text: `Matches the reference's loss at every step${soFar}, to the last digit. Your weights differ from the reference's only in their last digits, from step ${split + 1}${weightsCloseness(myWeights, referenceWeights)}: your code adds the same numbers in another order, and a computer rounds the last digit of every sum, so the order shows there. That is rounding, not a bug.`,
    };
  }
  const a = mine[first];
  const b = reference[first];
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b) || relative(a, b) > ROUNDING) {
    const apart = a !== null && b !== null ? `, ${shown(Math.abs(a - b), 2)} apart` : "";
    return {
      kind: "parted", step: first + 1,
      text: `Parts from the reference at step ${first + 1}: your loss is ${shown(a)}, the reference's ${shown(b)}${apart}. A difference this big is not rounding: your code computes something else there.`,
    };
  }
  let worst = 0;
  for (let k = 0; k < steps; k += 1) {
    const x = mine[k];
    const y = reference[k];
    if (x !== null && y !== null) worst = Math.max(worst, relative(x, y));
  }
  return {
    kind: "rounding", step: first + 1,
    text: `Agrees with the reference to ${digitsShared(worst)} significant digits at every step${soFar}; the last digits first differ at step ${first + 1}. Your code adds the same numbers in another order, and a computer rounds the last digit of every sum, so the order shows there. That is rounding, not a bug.`,
  };
}
