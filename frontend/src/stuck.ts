// "Stuck?": hints one at a time, then a code-along replay of the lines being typed (chapters,
// captions, play/pause, seek by chapter, speed), then the solution after a confirmation.
import type { ExerciseData } from "./build-part";
import type { Editor } from "./editor";
import type { Progress } from "./progress";

const CHAR_MS = 45; // typing speed at 1×
const PAUSE_MS = 900; // between chapters at 1×

interface Frame { chapter: number; text: string }

/** Every screen of the replay: the starter, then each chapter's text typed in character by character. */
export function replayFrames(starter: string, chapters: ExerciseData["codealong"]): Frame[] {
  const frames: Frame[] = [{ chapter: -1, text: starter }];
  let text = starter;
  chapters.forEach((chapter, index) => {
    const at = text.indexOf(chapter.find);
    if (at < 0) return;
    const before = text.slice(0, at);
    const after = text.slice(at + chapter.find.length);
    for (let typed = 0; typed <= chapter.type.length; typed += 1) {
      frames.push({ chapter: index, text: before + chapter.type.slice(0, typed) + after });
    }
    text = before + chapter.type + after;
  });
  return frames;
}

export function setUpStuck(root: HTMLElement, exercise: ExerciseData, progress: Progress, editor: Editor): void {
  const number = exercise.lesson;
  const hintsList = root.querySelector<HTMLOListElement>("[data-hints]")!;
  const hintButton = root.querySelector<HTMLButtonElement>('[data-action="hint"]')!;
  const codealongButton = root.querySelector<HTMLButtonElement>('[data-action="codealong"]')!;
  const solutionButton = root.querySelector<HTMLButtonElement>('[data-action="solution"]')!;
  const panel = root.querySelector<HTMLElement>("[data-codealong]")!;
  const dialog = root.querySelector<HTMLDialogElement>("[data-solution-dialog]")!;
  const solutionBox = root.querySelector<HTMLElement>("[data-solution]")!;

  function showHints(count: number): void {
    hintsList.replaceChildren();
    exercise.hints.slice(0, count).forEach((hint) => {
      const li = document.createElement("li");
      li.innerHTML = hint; // rendered server-side from the lesson's Markdown, HTML escaped there
      hintsList.append(li);
    });
    const allShown = count >= exercise.hints.length;
    hintButton.textContent = count === 0 ? "Show a hint" : "Show another hint";
    hintButton.hidden = allShown;
    codealongButton.hidden = !allShown || exercise.codealong.length === 0;
    solutionButton.hidden = !allShown;
  }
  showHints(progress.lesson(number).hintsShown);

  hintButton.addEventListener("click", () => {
    const count = Math.min(progress.lesson(number).hintsShown + 1, exercise.hints.length);
    progress.update(number, (lesson) => { lesson.hintsShown = count; });
    showHints(count);
    (hintsList.lastElementChild as HTMLElement | null)?.setAttribute("tabindex", "-1");
    (hintsList.lastElementChild as HTMLElement | null)?.focus();
  });

  const replay = setUpReplay(panel, exercise);
  codealongButton.addEventListener("click", () => replay.open(0));
  for (const link of document.querySelectorAll<HTMLAnchorElement>("[data-chapter-link]")) {
    link.addEventListener("click", () => {
      // Reaching the replay from Watch skips the hints: the learner asked for it.
      progress.update(number, (lesson) => { lesson.hintsShown = Math.max(lesson.hintsShown, exercise.hints.length); });
      showHints(exercise.hints.length);
      replay.open(Number(link.dataset.chapterLink));
    });
  }

  solutionButton.addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "show") return;
    const response = await fetch(exercise.solutionUrl, { headers: { Accept: "application/json" } });
    const data = (await response.json()) as { solution: string };
    root.querySelector("[data-solution-code]")!.textContent = data.solution;
    solutionBox.hidden = false;
    solutionBox.querySelector<HTMLButtonElement>('[data-action="use-solution"]')!.onclick = () => {
      if (window.confirm("Replace your code in the editor with the solution?")) editor.setText(data.solution);
    };
    solutionBox.scrollIntoView({ block: "nearest" });
  });
}

function setUpReplay(panel: HTMLElement, exercise: ExerciseData) {
  const frames = replayFrames(exercise.starter, exercise.codealong);
  const screen = panel.querySelector<HTMLElement>('[data-replay="screen"]')!;
  const caption = panel.querySelector<HTMLElement>('[data-replay="caption"]')!;
  const position = panel.querySelector<HTMLElement>('[data-replay="position"]')!;
  const play = panel.querySelector<HTMLButtonElement>('[data-replay="play"]')!;
  const speed = panel.querySelector<HTMLSelectElement>('[data-replay="speed"]')!;
  const chapterList = panel.querySelector<HTMLOListElement>('[data-replay="chapters"]')!;
  let index = 0;
  let timer: number | undefined;

  const chapterButtons = exercise.codealong.map((chapter, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${i + 1}. ${chapter.title}`;
    button.addEventListener("click", () => { seek(frames.findIndex((f) => f.chapter === i)); });
    const li = document.createElement("li");
    li.append(button);
    chapterList.append(li);
    return button;
  });

  function render(): void {
    const frame = frames[index];
    screen.textContent = frame.text;
    const chapter = exercise.codealong[frame.chapter];
    caption.textContent = chapter ? chapter.caption : "The starter, before any line is typed.";
    position.textContent = `chapter ${Math.max(frame.chapter + 1, 0)} / ${exercise.codealong.length}`;
    chapterButtons.forEach((button, i) => button.setAttribute("aria-current", String(i === frame.chapter)));
  }

  function pause(): void {
    window.clearTimeout(timer);
    timer = undefined;
    play.textContent = "Play";
  }

  function tick(): void {
    if (index >= frames.length - 1) { pause(); return; }
    const nextChapter = frames[index + 1].chapter !== frames[index].chapter;
    index += 1;
    render();
    timer = window.setTimeout(tick, (nextChapter ? PAUSE_MS : CHAR_MS) / Number(speed.value));
  }

  function seek(to: number): void {
    index = Math.max(0, Math.min(to, frames.length - 1));
    render();
  }

  play.addEventListener("click", () => {
    if (timer !== undefined) { pause(); return; }
    if (index >= frames.length - 1) index = 0;
    play.textContent = "Pause";
    tick();
  });

  return {
    open(chapter: number): void {
      panel.hidden = false;
      seek(frames.findIndex((f) => f.chapter === chapter));
      panel.scrollIntoView({ block: "nearest" });
      play.focus();
    },
  };
}
