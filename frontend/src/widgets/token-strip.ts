// Explore widget "token-strip" (lessons 1.5, 1.6): the vocabulary as a row of ids — each
// character of chars, then BOS — and, with `encode`, a name the learner types turned into its
// tokens. Toggles show classic mistakes (BOS = 0, vocab_size without BOS, BOS at one end only,
// ids off by one, ord(ch) - ord('a')). chars, BOS and vocab_size come from the lesson's compute;
// every id shown is worked out here from chars and what the learner types.

import { say } from "../live";
import { h, record, registerWidget, textList, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeBadge } from "./shared/controls";
import "./token-strip.css";

type Mistake =
  | "bos-zero" | "bos-last-letter" | "bos-gap" | "vocab-without-bos"
  | "bos-start-only" | "bos-end-only" | "ids-from-one" | "ord";

const LABELS: Record<Mistake, string> = {
  "bos-zero": "BOS = 0",
  "bos-last-letter": "BOS = len(chars) - 1",
  "bos-gap": "BOS = len(chars) + 1",
  "vocab-without-bos": "vocab_size = len(chars)",
  "bos-start-only": "BOS only at the start",
  "bos-end-only": "BOS only at the end",
  "ids-from-one": "chars.index(ch) + 1",
  ord: "ord(ch) - ord('a')",
};

interface Setup {
  chars: string[];
  bos: number;
  vocab: number;
}

/** One token of the encoded name: its id (null when there is none) and what it stands for. */
interface Token {
  id: number | null;
  text: string;
  isBos: boolean;
  problem: string | null;
}

function parseData(value: unknown): Setup | null {
  const data = record(value);
  const chars = textList(data.chars);
  if (!chars) return null;
  if (typeof data.BOS !== "number" || typeof data.vocab_size !== "number") return null;
  return { chars, bos: data.BOS, vocab: data.vocab_size };
}

function isMistake(value: unknown): value is Mistake {
  return typeof value === "string" && value in LABELS;
}

/** A character as Python would quote it. */
function quoted(ch: string): string {
  return ch === "'" ? `"'"` : `'${ch}'`;
}

function mountTokenStrip(root: HTMLElement, params: Params): void {
  const setup = parseData(params.data);
  if (setup === null) {
    root.append(h("p", {}, "This widget has nothing to show: its vocabulary was not computed."));
    return;
  }
  const { chars } = setup;
  const encode = params.encode === true;
  const mistakes = (Array.isArray(params.mistakes) ? params.mistakes : []).filter(isMistake);
  let mistake: Mistake | null = null;
  let selected: number | null = null;
  let name = typeof params.name === "string" ? params.name : "emma";

  // ---- what the current version does ------------------------------------------------------
  const bos = (): number => {
    if (mistake === "bos-zero") return 0;
    if (mistake === "bos-last-letter") return chars.length - 1;
    if (mistake === "bos-gap") return chars.length + 1;
    return setup.bos;
  };
  const vocab = (): number => (mistake === "vocab-without-bos" ? chars.length : setup.vocab);
  /** The id a character gets, or null where the right code raises ValueError. */
  const idOf = (ch: string): number | null => {
    if (mistake === "ord") return (ch.codePointAt(0) ?? 0) - ("a".codePointAt(0) ?? 97);
    const index = chars.indexOf(ch);
    if (index < 0) return null;
    return mistake === "ids-from-one" ? index + 1 : index;
  };
  /** What an id means: the characters whose id it is, and BOS. */
  const meanings = (id: number): string[] => {
    const found = chars.filter((ch) => idOf(ch) === id).map(quoted);
    if (id === bos()) found.push("BOS");
    return found;
  };
  const lastId = (): number => Math.max(vocab() - 1, bos(), ...chars.map((ch) => idOf(ch) ?? 0));
  const tokens = (): Token[] => {
    const letters: Token[] = [...name].map((ch) => {
      const id = idOf(ch);
      let problem: string | null = null;
      if (id === null) problem = `${quoted(ch)} is not in chars`;
      else if (id < 0 || id >= vocab()) problem = `${id} is not an id from 0 to ${vocab() - 1}`;
      else if (id === bos()) problem = `${id} is BOS's id`;
      return { id, text: ch, isBos: false, problem };
    });
    const marker: Token = { id: bos(), text: "BOS", isBos: true, problem: null };
    const start = mistake === "bos-end-only" ? [] : [marker];
    const end = mistake === "bos-start-only" ? [] : [marker];
    return [...start, ...letters, ...end];
  };

  // ---- the page ---------------------------------------------------------------------------
  const versions: (Mistake | null)[] = [null, ...mistakes];
  const picker = mistakes.length ? choiceGroup({
    legend: "Which version", name: "ts-version",
    choices: versions.map((version) => ({
      label: [version ? mistakeBadge() : null, h("code", {}, version ? LABELS[version] : "the right code")],
      mistake: version !== null,
    })),
    onPick: (index) => {
      mistake = versions[index];
      render();
    },
  }) : null;

  const code = h("pre", { class: "kit-lines ts-code", "aria-label": "The lines in effect, with what they give", "data-code": "" });
  const tableTitle = h("p", { class: "ts-title", id: uniqueId("ts-table-title") });
  const table = h("ol", { class: "kit-chips", "aria-labelledby": tableTitle.id, "data-table": "" });
  const detail = h("p", { class: "ts-detail", "aria-live": "polite", "data-detail": "" });

  const inputId = uniqueId("ts-name");
  const input = h("input", {
    type: "text", id: inputId, value: name, maxlength: 16, autocomplete: "off", spellcheck: "false",
    autocapitalize: "none", "data-name-input": "", class: "kit-input",
  });
  const stripTitleId = uniqueId("ts-strip-title");
  const strip = h("ol", { class: "kit-chips", "aria-labelledby": stripTitleId, "data-strip": "" });
  const list = h("p", { class: "ts-list", "data-tokens": "" });
  const pairs = h("p", { class: "ts-pairs", "data-pairs": "" });
  const encoder = encode ? h("div", { class: "ts-encoder" },
    h("label", { class: "ts-name-label", for: inputId }, "Type a name"), input,
    h("p", { class: "ts-title", id: stripTitleId }, "Its tokens (letters on top, ids below):"),
    strip, list, pairs) : null;

  const verdict = h("p", { class: "kit-callout", "aria-live": "polite", "data-verdict": "" });
  const captionText = textOr(params.caption, null);
  const caption = captionText ? h("p", { class: "kit-caption" }, captionText) : null;

  root.append(h("div", { class: "ts" }, picker, code, encoder, tableTitle, table, detail, verdict, caption));

  input.addEventListener("input", () => {
    name = input.value;
    render();
  });

  // ---- drawing ----------------------------------------------------------------------------
  function codeLines(): [string, string, boolean][] {
    const lines: [string, string, boolean][] = [];
    const bosLine = mistake === "bos-zero" ? "BOS = 0"
      : mistake === "bos-last-letter" ? "BOS = len(chars) - 1"
        : mistake === "bos-gap" ? "BOS = len(chars) + 1" : "BOS = len(chars)";
    lines.push([`chars = sorted(set(''.join(docs)))`, `${chars.length} characters`, false]);
    lines.push([bosLine, String(bos()), bosLine !== "BOS = len(chars)"]);
    const vocabLine = mistake === "vocab-without-bos" ? "vocab_size = len(chars)" : "vocab_size = len(chars) + 1";
    lines.push([vocabLine, String(vocab()), mistake === "vocab-without-bos"]);
    if (encode) {
      const id = mistake === "ids-from-one" ? "chars.index(ch) + 1"
        : mistake === "ord" ? "ord(ch) - ord('a')" : "chars.index(ch)";
      const start = mistake === "bos-end-only" ? "" : "[BOS] + ";
      const end = mistake === "bos-start-only" ? "" : " + [BOS]";
      const wrong = mistake === "ids-from-one" || mistake === "ord" || mistake === "bos-start-only"
        || mistake === "bos-end-only";
      lines.push([`tokens = ${start}[${id} for ch in doc]${end}`, `${tokens().length} ids`, wrong]);
    }
    return lines;
  }

  function renderCode(): void {
    code.replaceChildren(...codeLines().map(([line, gives, wrong]) =>
      h("span", { class: `kit-line${wrong ? " kit-line-marked" : ""}` },
        line, h("span", { class: "ts-gives" }, `  # ${gives}`),
        wrong ? h("span", { class: "visually-hidden" }, " (the mistake)") : null)));
  }

  function renderTable(): void {
    const size = vocab();
    const used = new Set(encode ? tokens().map((token) => token.id) : []);
    tableTitle.textContent = `The ids: vocab_size = ${size}, so the model has the ids 0 to ${size - 1}` +
      (lastId() >= size ? ` (the dashed line marks the end)` : "");
    const cells: HTMLElement[] = [];
    for (let id = 0; id <= lastId(); id += 1) {
      const meant = meanings(id);
      const state = meant.length > 1 ? "clash" : meant.length === 0 ? "unused" : id >= size ? "outside" : "ok";
      const text = meant.length ? meant.join(" + ") : "—";
      const button = h("button", {
        type: "button", class: "ts-cell", "data-id": String(id), "data-state": state,
        "aria-pressed": String(selected === id),
        "aria-label": `id ${id}: ${meant.length ? meant.join(" and ") : "nothing"}${id >= size ? ", outside vocab_size" : ""}`,
      }, h("span", { class: "ts-cell-id" }, String(id)), h("span", { class: "ts-cell-text" }, text));
      button.addEventListener("click", () => {
        selected = selected === id ? null : id;
        render();
      });
      const item = h("li", { class: `ts-item${used.has(id) ? " ts-used" : ""}${id === size ? " ts-edge" : ""}` }, button);
      cells.push(item);
    }
    table.replaceChildren(...cells);
    say(detail, selected === null || selected > lastId() ? "Press an id to see what it means."
      : describeId(selected));
  }

  function describeId(id: number): string {
    const meant = meanings(id);
    const outside = id >= vocab() ? ` It is not below vocab_size (${vocab()}): the model has no row for it.` : "";
    if (meant.length === 0) return `id ${id} means nothing: no character and not BOS. It is wasted.${outside}`;
    if (meant.length > 1) return `id ${id} means ${meant.join(" and ")} at once: from the id alone, nobody can tell which.${outside}`;
    if (meant[0] === "BOS") return `id ${id} is BOS: no character, the marker for where a name starts and ends.${outside}`;
    return `id ${id} is ${meant[0]}: chars[${id}] is ${meant[0]}${mistake === "ids-from-one" ? ` only after subtracting 1` : ""}.${outside}`;
  }

  function renderStrip(): void {
    const all = tokens();
    strip.replaceChildren(...all.map((token) => h("li", {
      class: `ts-token${token.isBos ? " ts-bos" : ""}${token.problem ? " ts-bad" : ""}`,
      "aria-label": `${token.isBos ? "BOS" : quoted(token.text)}, id ${token.id ?? "none"}${token.problem ? `: ${token.problem}` : ""}`,
    }, h("span", { class: "ts-token-text" }, token.isBos ? "BOS" : token.text),
    h("span", { class: "ts-token-id" }, token.id === null ? "?" : String(token.id)))));
    const ids = all.map((token) => (token.id === null ? "?" : String(token.id)));
    list.textContent = `tokens = [${ids.join(", ")}]`;
    const readBack = (token: Token): string => (token.isBos ? "BOS" : quoted(token.text));
    const follows = all.slice(1).map((token, index) => `${readBack(all[index])} → ${readBack(token)}`);
    pairs.textContent = follows.length
      ? `What follows what (${follows.length} pair${follows.length === 1 ? "" : "s"}): ${follows.join(", ")}`
      : "No pairs: a single token has no neighbour.";
  }

  function describe(): string {
    const all = tokens();
    const letters = all.filter((token) => !token.isBos);
    const unknown = letters.filter((token) => token.id === null).map((token) => quoted(token.text));
    if (encode && unknown.length) {
      return `${[...new Set(unknown)].join(", ")} ${unknown.length === 1 ? "is" : "are"} not in chars, so chars.index raises ValueError: the names in input.txt only use ${quoted(chars[0])} to ${quoted(chars[chars.length - 1])}.`;
    }
    const first = letters[0];
    const last = letters[letters.length - 1];
    switch (mistake) {
      case "bos-zero":
      case "bos-last-letter": {
        const clash = chars[bos()];
        return `BOS and ${quoted(clash)} share the id ${bos()}, and id ${chars.length} is left unused. From the ids alone, the model cannot tell the edge of a name from the letter ${quoted(clash)}.`;
      }
      case "bos-gap":
        return `BOS is ${bos()}, which leaves id ${chars.length} unused and puts BOS outside vocab_size = ${vocab()}: ids go 0 to ${vocab() - 1}, so there is no row for BOS.`;
      case "vocab-without-bos":
        return `vocab_size = ${vocab()} counts the characters but not BOS: ids go 0 to ${vocab() - 1}, and BOS (${bos()}) has no row. The model's tables have one row per id, so BOS would fall off the end (an IndexError).`;
      case "bos-start-only":
        return last ? `The last pair, ${quoted(last.text)} → BOS, is missing: nothing in this name says it can end after ${quoted(last.text)}. Trained on names like this, the model never learns to stop.` : "Type a name.";
      case "bos-end-only":
        return first ? `The first pair, BOS → ${quoted(first.text)}, is missing: nothing in this name shows how it starts. Trained on names like this, the model never learns which letters begin a name.` : "Type a name.";
      case "ids-from-one": {
        const hitsBos = letters.filter((token) => token.id === bos()).map((token) => quoted(token.text));
        const example = letters.find((token) => token.id !== null && token.id < chars.length);
        const shifted = example && example.id !== null
          ? ` ${quoted(example.text)} gets ${example.id}, which is ${quoted(chars[example.id])}'s id.` : "";
        return `Every id is one too big.${shifted}${hitsBos.length ? ` And ${hitsBos[0]} gets ${bos()}, BOS's id: the name seems to end there.` : ` Type a name with ${quoted(chars[chars.length - 1])} in it.`}`;
      }
      case "ord": {
        const strange = letters.filter((token) => token.problem).map((token) => `${quoted(token.text)} → ${token.id}`);
        return strange.length
          ? `ord(ch) - ord('a') is not a position in chars: ${strange.join(", ")}. It only matches chars.index while chars is exactly 'a' to 'z'.`
          : `The same ids as chars.index, but only because chars is exactly 'a' to 'z'. Type a capital letter or an accent (É, ë) to see it break.`;
      }
      default:
        break;
    }
    if (!encode) {
      return `${chars.length} characters get the ids 0 to ${chars.length - 1}, BOS gets the next one, ${bos()}, and vocab_size = ${vocab()} counts them all: every id from 0 to ${vocab() - 1} means exactly one thing.`;
    }
    if (letters.length === 0) return "Type a name: BOS, BOS alone is an empty name.";
    return `${letters.length} letter${letters.length === 1 ? "" : "s"} and a BOS at each end: ${all.length} ids, and ${all.length - 1} pairs of neighbours, from BOS → ${quoted(first.text)} to ${quoted(last.text)} → BOS.`;
  }

  function render(): void {
    renderCode();
    if (encode) renderStrip();
    renderTable();
    say(verdict, describe());
    if (mistake) verdict.dataset.tone = "bad";
    else delete verdict.dataset.tone;
  }

  render();
}

registerWidget("token-strip", mountTokenStrip);
