// A count in words, "1 step" and "2 steps": messages that give a count say it through here, so
// none reads "1 steps" (the Python side has linebyline.runtime.words.plural).

/** plural(1, "step") -> "1 step"; plural(1200, "document", "1,200") -> "1,200 documents". */
export function plural(count: number, one: string, shown: string = String(count), many = `${one}s`): string {
  return `${shown} ${count === 1 ? one : many}`;
}
