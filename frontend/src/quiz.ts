// Part 4, Check yourself: answer, get immediate feedback with the explanation, retry at will.
import type { Progress } from "./progress";

interface QuestionData {
  id: string; kind: "choice" | "predict"; explain: string;
  /** Where the answer is kept, and whether answering starts that lesson (not for a review). */
  lesson?: string; touch?: boolean;
  choices?: Array<{ correct: boolean; explain: string }>;
  answer?: number; tolerance?: number;
}

/** A typed number: accepts "−2" (a real minus sign), " 6 ", "1e-3", "0,5". */
export function parseNumber(text: string): number | null {
  const cleaned = text.trim().replace(/[\u2212\u2013]/g, "-").replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}

export function isClose(got: number, want: number, tolerance: number): boolean {
  return Math.abs(got - want) <= Math.max(tolerance, 1e-9 * Math.abs(want));
}

export function setUpQuiz(questions: QuestionData[], lessonOf: (id: string) => string, progress: Progress): void {
  for (const question of questions) {
    const form = document.querySelector<HTMLFormElement>(`form[data-question="${question.id}"]`);
    if (!form) continue;
    const feedback = form.querySelector<HTMLElement>(".feedback")!;
    const lesson = question.lesson ?? lessonOf(question.id);

    const judge = (answer: string, save: boolean): void => {
      let correct = false;
      let html = "";
      if (question.kind === "choice") {
        const choice = question.choices![Number(answer)];
        if (!choice) return;
        correct = choice.correct;
        html = choice.explain + (correct ? question.explain : "");
      } else {
        const number = parseNumber(answer);
        if (number === null) {
          feedback.dataset.result = "invalid";
          feedback.textContent = "Type a number, like -2 or 0.5.";
          return;
        }
        correct = isClose(number, question.answer!, question.tolerance ?? 0);
        html = correct ? question.explain : "Not that number. Work it through once more, step by step.";
      }
      feedback.dataset.result = correct ? "correct" : "wrong";
      feedback.innerHTML = `<p class="verdict">${correct ? "Right." : "Not quite."}</p>${html}`;
      if (save) {
        if (question.touch !== false) progress.touch(lesson);
        progress.update(lesson, (entry) => { entry.quiz[question.id] = { answer, correct, at: Date.now() }; });
      }
    };

    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const answer = String(data.get(question.id) ?? "");
      if (!answer) {
        feedback.dataset.result = "invalid";
        feedback.textContent = question.kind === "choice" ? "Pick an answer first." : "Type a number first.";
        return;
      }
      judge(answer, true);
    });

    // Show what was answered before, so a reload keeps everything.
    const saved = progress.lesson(lesson).quiz[question.id];
    if (saved) {
      const input = question.kind === "choice"
        ? form.querySelector<HTMLInputElement>(`input[value="${CSS.escape(saved.answer)}"]`)
        : form.querySelector<HTMLInputElement>("input[type=text]");
      if (input) {
        if (question.kind === "choice") input.checked = true; else input.value = saved.answer;
      }
      judge(saved.answer, false);
    }
  }
}
