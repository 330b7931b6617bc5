// The Parsons rung of "Stuck?", between the last hint and the code-along: the answer's lines,
// shuffled, with one wrong line from the lesson's known mistakes, to put in order and indent, by
// mouse or keyboard alone (every move is a button that names its line, and a live region says
// where the line went). In order, they fill the editor's TODOs, which counts as the solution
// shown, never as a pass: the checks still decide.
import type { ExerciseData } from "./exercise";
import type { Editor } from "./editor";
import { recordEvent } from "./events";
import { setUsable } from "./usable";

const INDENT = 4;
const MAX_LEVEL = 8;

export interface Line { text: string; level: number }
interface Piece extends Line { id: number; out: boolean }

const isCode = (line: string): boolean => line.trim() !== "" && !line.trimStart().startsWith("#");

/** The code lines the code-along types, in file order (course/parsons.py answer_lines: the
 *  chapters played on the starter with each code line tagged, the tags read back in order). */
export function answerLines(exercise: ExerciseData): Line[] {
  const lines: string[] = [];
  let text = exercise.starter;
  let order: string[] | null = null;
  for (const chapter of exercise.codealong) {
    const typed = chapter.type.split(/(?<=\n)/).map((line) => {
      if (!isCode(line)) return line;
      lines.push(line.replace(/\n$/, ""));
      return `\0${lines.length - 1}\0${line}`;
    }).join("");
    const at = text.indexOf(chapter.find);
    if (at < 0) { order = exercise.codealong.flatMap((c) => c.type.split("\n")).filter(isCode); break; }
    text = text.slice(0, at) + typed + text.slice(at + chapter.find.length);
  }
  order ??= [...text.matchAll(/\0(\d+)\0/g)].map((match) => lines[Number(match[1])]);
  return order.map((line) => ({ text: line.trim(), level: Math.floor((line.length - line.trimStart().length) / INDENT) }));
}

/** How far the learner's arrangement is right: "distractor" when the wrong line is still in,
 *  else how many lines from the top are in place (text and indent), the whole answer when done. */
export function judgeOrder(pieces: Array<Line & { out: boolean; wrong?: boolean }>, answer: Line[]): { right: number; distractorIn: boolean } {
  const kept = pieces.filter((piece) => !piece.out);
  const distractorIn = kept.some((piece) => piece.wrong);
  let right = 0;
  while (right < answer.length && right < kept.length && !kept[right].wrong
         && kept[right].text === answer[right].text && kept[right].level === answer[right].level) right += 1;
  return { right: kept.length === answer.length ? right : Math.min(right, answer.length - 1), distractorIn };
}

/** The editor's text with each chapter's TODO replaced by its lines; null when a TODO is gone
 *  (the learner rewrote it). */
export function filled(text: string, chapters: ExerciseData["codealong"]): string | null {
  let result = text;
  for (const chapter of chapters) {
    if (result.includes(chapter.find)) result = result.replace(chapter.find, chapter.type);
    else if (!result.includes(chapter.type)) return null;
  }
  return result;
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

export function setUpParsons(panel: HTMLElement, exercise: ExerciseData, editor: Editor): { open(): void; usable: boolean } {
  const answer = answerLines(exercise);
  const list = panel.querySelector<HTMLOListElement>("[data-parsons-lines]")!;
  const status = panel.querySelector<HTMLElement>("[data-parsons-status]")!;
  const verdict = panel.querySelector<HTMLElement>("[data-parsons-verdict]")!;
  const check = panel.querySelector<HTMLButtonElement>("[data-parsons-check]")!;
  let pieces: Array<Piece & { wrong?: boolean }> = [];

  function deal(): void {
    const lines: Array<Piece & { wrong?: boolean }> = answer.map((line, id) => ({ ...line, level: 0, id, out: false }));
    if (exercise.distractor) lines.push({ text: exercise.distractor, level: 0, id: lines.length, out: false, wrong: true });
    do pieces = shuffled(lines); while (pieces.length > 1 && pieces.every((piece, i) => piece.id === i));
  }

  const describe = (piece: Piece, index: number): string =>
    `“${piece.text}”${piece.out ? ", left out" : `, line ${index + 1} of ${pieces.length}, indented ${piece.level}`}`;

  function move(id: number, action: string): void {
    const index = pieces.findIndex((piece) => piece.id === id);
    const piece = pieces[index];
    if (action === "up" && index > 0) [pieces[index - 1], pieces[index]] = [pieces[index], pieces[index - 1]];
    else if (action === "down" && index < pieces.length - 1) [pieces[index + 1], pieces[index]] = [pieces[index], pieces[index + 1]];
    else if (action === "indent") piece.level = Math.min(MAX_LEVEL, piece.level + 1);
    else if (action === "outdent") piece.level = Math.max(0, piece.level - 1);
    else if (action === "out") piece.out = !piece.out;
    render();
    status.textContent = describe(piece, pieces.indexOf(piece));
    verdict.textContent = "";
    list.querySelector<HTMLButtonElement>(`[data-piece="${id}"] [data-move="${action}"]`)?.focus();
  }

  function button(piece: Piece, action: string, text: string, label: string, usable: boolean): HTMLButtonElement {
    const made = document.createElement("button");
    made.type = "button";
    made.className = "secondary";
    made.dataset.move = action;
    made.textContent = text;
    made.setAttribute("aria-label", `${label} “${piece.text}”`);
    setUsable(made, usable);
    made.addEventListener("click", () => move(piece.id, action));
    return made;
  }

  function render(): void {
    list.replaceChildren(...pieces.map((piece, index) => {
      const item = document.createElement("li");
      item.dataset.piece = String(piece.id);
      item.dataset.out = String(piece.out);
      const code = document.createElement("code");
      code.className = "parsons-line";
      code.style.setProperty("--level", String(piece.level));
      code.textContent = piece.text;
      const moves = document.createElement("span");
      moves.className = "parsons-moves";
      moves.append(
        button(piece, "up", "↑", "Move up", index > 0),
        button(piece, "down", "↓", "Move down", index < pieces.length - 1),
        button(piece, "outdent", "←", "Indent less", piece.level > 0 && !piece.out),
        button(piece, "indent", "→", "Indent more", piece.level < MAX_LEVEL && !piece.out),
        button(piece, "out", piece.out ? "Put back" : "Leave out", piece.out ? "Put back" : "Leave out", true),
      );
      item.append(code, moves);
      return item;
    }));
  }

  check.addEventListener("click", () => {
    const { right, distractorIn } = judgeOrder(pieces, answer);
    if (distractorIn) {
      verdict.textContent = "One of these lines is not part of the answer: it is a known mistake. Find it and leave it out.";
      return;
    }
    if (right < answer.length) {
      verdict.textContent = right === 0
        ? "The first line is not in place yet (its text or its indent)."
        : `The first ${right === 1 ? "line is" : `${right} lines are`} in place, indents included; the next one is not yet.`;
      return;
    }
    let text = filled(editor.text(), exercise.codealong);
    if (text === null) {
      if (!window.confirm("Your TODO comments have changed, so the lines cannot go in their place. Replace your code with the starter and these lines?")) return;
      text = filled(exercise.starter, exercise.codealong)!;
    }
    editor.setText(text);
    recordEvent(exercise.course, exercise.lesson, { kind: "solution" });
    verdict.textContent = "In order. Your editor's TODOs now hold these lines (this counts as the solution shown, not as a pass): run the checks.";
    editor.focus();
  });

  return {
    // One line alone is worth the rung only with a wrong line to tell it from.
    usable: answer.length >= 2 || (answer.length === 1 && exercise.distractor !== ""),
    open(): void {
      if (!pieces.length) deal();
      render();
      panel.hidden = false;
      panel.scrollIntoView({ block: "nearest" });
      list.querySelector<HTMLButtonElement>("button:not([aria-disabled='true'])")?.focus();
    },
  };
}
