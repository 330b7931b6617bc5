// Part 4, Check yourself: answer, get immediate feedback with the explanation, retry at will.
// Choices are shown in an order of their own for each learner and question (so the first or the
// longest is no clue), the same on every reload and, signed in, on every device. A wrong number
// that is a known slip gets that slip's feedback; any other gets a nudge that says how it is off;
// two misses bring the worked answer.
import { parseNumber } from "./numbers";
import type { DeviceNotes } from "./device-notes";
import { fnv1a32 } from "./merge";
import type { Progress } from "./progress";

interface ExpectedWrong { answer: number; explain: string }

interface QuestionData {
  id: string; kind: "choice" | "predict"; explain: string;
  /** Where the answer is kept, and whether answering starts that lesson (not for a review). */
  lesson?: string; touch?: boolean;
  choices?: Array<{ correct: boolean; explain: string }>;
  answer?: number; tolerance?: number;
  /** Wrong numbers a learner is likely to reach (the slip each one comes from, explained). */
  wrong?: ExpectedWrong[];
  /** The answer worked through, shown after two misses (else `explain` is). */
  worked?: string;
}

const MISSES_BEFORE_WORKED = 2;


export function isClose(got: number, want: number, tolerance: number): boolean {
  return Math.abs(got - want) <= Math.max(tolerance, 1e-9 * Math.abs(want));
}

// ---- The order of the choices ----------------------------------------------------------------

/** A small seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same numbers. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The indexes 0 … count − 1 in an order that depends only on `seed` (a Fisher–Yates shuffle). */
export function seededOrder(count: number, seed: string): number[] {
  const random = seededRandom(Number.parseInt(fnv1a32(seed), 16));
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** Put each question's choices in this learner's order. `learner`: the account's opaque seed
 *  when signed in (the same order on every device), else this browser's device id. The radios
 *  keep their values (the authored indexes), so answers are recorded as before. */
export function shuffleChoices(learner: string, root: ParentNode = document): void {
  for (const list of root.querySelectorAll<HTMLElement>("[data-choices]")) {
    const form = list.closest<HTMLElement>("form[data-question]");
    // In the authored order first (by the radios' values), so that shuffling again, for the
    // account the server confirmed after the page showed, gives that account's order.
    const authored = (choice: HTMLElement) => Number(choice.querySelector("input")?.value ?? 0);
    const choices = [...list.querySelectorAll<HTMLElement>(":scope > .choice")].sort((a, b) => authored(a) - authored(b));
    if (!form || choices.length < 2) continue;
    const order = seededOrder(choices.length, `${learner}:${form.dataset.question}`);
    list.append(...order.map((index) => choices[index]));
    list.dataset.shuffled = "";
  }
}

// ---- Feedback ---------------------------------------------------------------------------------

/** A number as a learner reads it: at most 6 significant digits, a real minus sign. */
function shown(x: number): string {
  return String(Number(x.toPrecision(6))).replace("-", "−");
}

/** Say how a wrong number is off, in words that depend on how (never the same for every slip). */
export function nudge(got: number, want: number, tolerance: number): string {
  if (want === 0) return `The answer is ${got > 0 ? "smaller" : "bigger"} than ${shown(got)}. Work it through once more.`;
  if (got === 0) return "Not 0: something here is not zero. Work it through once more.";
  if (got * want < 0) {
    return isClose(-got, want, tolerance)
      ? "The size is right, the sign is not: check which way it goes."
      : "The sign is wrong, and the size is off too. Work it through once more.";
  }
  const ratio = got / want;
  const decades = Math.log10(ratio);
  if (Math.abs(decades) >= 0.999 && Math.abs(decades - Math.round(decades)) < 0.005) {
    return `Off by a factor of ${shown(10 ** Math.abs(Math.round(decades)))}: the digits look right, the decimal point or a unit does not.`;
  }
  if (Number.isInteger(want) && Number.isInteger(got) && Math.abs(got - want) === 1) {
    return "Off by one: check where the counting starts and where it stops.";
  }
  const bigger = ratio > 1;
  const factor = bigger ? ratio : 1 / ratio;
  const too = `too ${bigger ? "big" : "small"}${want < 0 ? " in size" : ""}`;
  const whole = Math.round(factor);
  if (whole >= 2 && whole <= 9 && Math.abs(factor - whole) < 0.01 * whole) {
    return `Your number is ${whole} times ${too}: is something counted ${bigger ? `${whole} times over` : "only in part"}?`;
  }
  if (factor < 1.1) return `Close, but ${too}: check each step, and round only at the end.`;
  if (factor > 10) return `Far ${too}: more than ten times. Check what the question counts.`;
  return `${too[0].toUpperCase()}${too.slice(1)}. Work it through once more, step by step.`;
}

/** The explanation after a right answer, without its own "Right." (the verdict says it once). */
export function withoutRight(html: string): string {
  return html.replace(/^(\s*<p>)?\s*(Right|Correct)[.!]\s*/i, "$1");
}

interface Verdict { correct: boolean; html: string }

function judgeChoice(question: QuestionData, answer: string): Verdict | null {
  const choice = question.choices?.[Number(answer)];
  if (!choice || !/^\d+$/.test(answer)) return null;
  return { correct: choice.correct, html: choice.correct ? withoutRight(choice.explain + question.explain) : choice.explain };
}

function judgeNumber(question: QuestionData, number: number, misses: number): Verdict {
  const want = question.answer!;
  const tolerance = question.tolerance ?? 0;
  if (isClose(number, want, tolerance)) return { correct: true, html: withoutRight(question.explain) };
  const expected = question.wrong?.find((slip) => isClose(number, slip.answer, tolerance));
  let html = expected ? expected.explain : `<p class="nudge">${nudge(number, want, tolerance)}</p>`;
  if (misses >= MISSES_BEFORE_WORKED) {
    html += `<div class="worked" data-worked><p><strong>The answer: ${shown(want)}.</strong> Worked through:</p>` +
      `${question.worked ?? question.explain}</div>`;
  } else if (misses === MISSES_BEFORE_WORKED - 1) {
    html += "<p class=\"quiz-next\">Miss once more and the worked answer is shown.</p>";
  }
  return { correct: false, html };
}

// ---- The forms --------------------------------------------------------------------------------

export function setUpQuiz(questions: QuestionData[], lessonOf: (id: string) => string, progress: Progress,
                          notes: DeviceNotes): void {
  for (const question of questions) {
    const form = document.querySelector<HTMLFormElement>(`form[data-question="${CSS.escape(question.id)}"]`);
    if (form) setUpQuestion(form, question, question.lesson ?? lessonOf(question.id), progress, notes);
  }
}

function setUpQuestion(form: HTMLFormElement, question: QuestionData, lesson: string, progress: Progress,
                       notes: DeviceNotes): void {
  const feedback = form.querySelector<HTMLElement>(".feedback")!;
  const invalid = (text: string): void => {
    feedback.dataset.result = "invalid";
    feedback.textContent = text;
  };

  /** Judge an answer; `fresh`: the learner just gave it (saved, and a miss counted). */
  const judge = (answer: string, fresh: boolean): void => {
    let verdict: Verdict | null;
    if (question.kind === "choice") {
      verdict = judgeChoice(question, answer);
      if (!verdict) return;
    } else {
      const number = parseNumber(answer);
      if (number === null) { invalid("Type a number, like -2 or 0.5."); return; }
      const wrong = !isClose(number, question.answer!, question.tolerance ?? 0);
      const misses = fresh && wrong ? notes.addMiss(question.id) : notes.misses(question.id);
      verdict = judgeNumber(question, number, misses);
    }
    feedback.dataset.result = verdict.correct ? "correct" : "wrong";
    feedback.innerHTML = `<p class="verdict">${verdict.correct ? "Right." : "Not quite."}</p>${verdict.html}`;
    if (fresh) {
      const correct = verdict.correct;
      if (question.touch !== false) progress.touch(lesson);
      progress.update(lesson, (entry) => { entry.quiz[question.id] = { answer, correct, at: Date.now() }; });
    }
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const answer = String(new FormData(form).get(question.id) ?? "");
    if (!answer) { invalid(question.kind === "choice" ? "Pick an answer first." : "Type a number first."); return; }
    judge(answer, true);
  });

  // Show what was answered before, so a reload keeps everything.
  const saved = progress.lesson(lesson).quiz[question.id];
  if (!saved) return;
  const input = question.kind === "choice"
    ? form.querySelector<HTMLInputElement>(`input[value="${CSS.escape(saved.answer)}"]`)
    : form.querySelector<HTMLInputElement>("input[type=text]");
  if (input) {
    if (question.kind === "choice") input.checked = true; else input.value = saved.answer;
  }
  judge(saved.answer, false);
}
