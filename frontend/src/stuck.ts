// "Stuck?": hints one at a time, then the answer's lines to put in order (parsons.ts), then a
// code-along replay of the lines being typed, which plays
// like a video the learner can take over (chapter marks with times, a scrubber, play/pause,
// speed, "edit from here"), then the solution after a confirmation.
import type { ExerciseData } from "./exercise";
import { isStarter } from "./levels";
import type { Editor } from "./editor";
import { recordEvent } from "./events";
import type { Progress } from "./progress";
import { setUpParsons } from "./parsons";

const CHAR_MS = 45; // typing speed at 1×
const PAUSE_MS = 900; // between chapters at 1×

/** One screen of the replay: the text so far, where the cursor is, and when (ms at 1×). */
interface Frame {
  chapter: number;
  text: string;
  /** Where this chapter's typing started and where the cursor is now. */
  from: number;
  at: number;
  time: number;
}

/** Every screen of the replay: the starter, then each chapter's text typed in character by character. */
export function replayFrames(starter: string, chapters: ExerciseData["codealong"]): Frame[] {
  const frames: Frame[] = [{ chapter: -1, text: starter, from: 0, at: 0, time: 0 }];
  let text = starter;
  let time = 0;
  chapters.forEach((chapter, index) => {
    const at = text.indexOf(chapter.find);
    if (at < 0) return;
    const before = text.slice(0, at);
    const after = text.slice(at + chapter.find.length);
    time += PAUSE_MS; // a beat between chapters, to read the caption
    for (let typed = 0; typed <= chapter.type.length; typed += 1) {
      if (typed > 0) time += CHAR_MS;
      frames.push({ chapter: index, text: before + chapter.type.slice(0, typed) + after, from: at, at: at + typed, time });
    }
    text = before + chapter.type + after;
  });
  return frames;
}

/** 75000 ms -> "1:15". */
export function clock(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
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
  const parsonsButton = root.querySelector<HTMLButtonElement>('[data-action="parsons"]')!;
  const parsons = setUpParsons(root.querySelector<HTMLElement>("[data-parsons]")!, exercise, editor);

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
    parsonsButton.hidden = !allShown || !parsons.usable;
    codealongButton.hidden = !allShown || exercise.codealong.length === 0;
    solutionButton.hidden = !allShown;
  }
  let shown = progress.lesson(number).hintsShown;
  showHints(shown);
  // Hints opened elsewhere (another tab, the terminal's `linebyline hint`, another device)
  // arrive with the sync: they show here too.
  progress.onChange(() => {
    const now = progress.lesson(number).hintsShown;
    if (now > shown) { shown = now; showHints(now); }
  });

  hintButton.addEventListener("click", () => {
    const count = Math.min(progress.lesson(number).hintsShown + 1, exercise.hints.length);
    shown = Math.max(shown, count);
    progress.update(number, (lesson) => { lesson.hintsShown = count; });
    recordEvent(exercise.course, number, { kind: "hint", hint: count });
    showHints(count);
    (hintsList.lastElementChild as HTMLElement | null)?.setAttribute("tabindex", "-1");
    (hintsList.lastElementChild as HTMLElement | null)?.focus();
  });

  parsonsButton.addEventListener("click", () => parsons.open());

  const replay = setUpReplay(panel, exercise, editor);
  const openReplay = (chapter: number) => {
    recordEvent(exercise.course, number, { kind: "codealong" });
    replay.open(chapter);
  };
  codealongButton.addEventListener("click", () => openReplay(0));
  for (const link of document.querySelectorAll<HTMLAnchorElement>("[data-chapter-link]")) {
    link.addEventListener("click", (event) => {
      // The replay takes the focus itself (its Play button): following the link to #stuck as
      // well would leave the focus on <body>.
      event.preventDefault();
      // Reaching the replay from Watch skips the hints: the learner asked for it.
      progress.update(number, (lesson) => { lesson.hintsShown = Math.max(lesson.hintsShown, exercise.hints.length); });
      showHints(exercise.hints.length);
      openReplay(Number(link.dataset.chapterLink));
    });
  }

  solutionButton.addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "show") return;
    const code = root.querySelector<HTMLElement>("[data-solution-code]")!;
    const use = solutionBox.querySelector<HTMLButtonElement>('[data-action="use-solution"]')!;
    solutionBox.hidden = false;
    let solution: string;
    try {
      // The lesson's checks carry its solution (they compare with it): the same cached file,
      // so the solution is there offline too.
      const response = await fetch(exercise.checksUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      solution = ((await response.json()) as { reference: string }).reference;
    } catch (error) {
      code.textContent = `The solution could not be loaded (${(error as Error).message}). Check your connection, then ask for it again.`;
      use.hidden = true;
      return;
    }
    recordEvent(exercise.course, number, { kind: "solution" });
    code.textContent = solution;
    use.hidden = false;
    use.onclick = () => {
      if (window.confirm("Replace your code in the editor with the solution?")) editor.setText(solution);
    };
    solutionBox.scrollIntoView({ block: "nearest" });
  });
}

function setUpReplay(panel: HTMLElement, exercise: ExerciseData, editor: Editor) {
  const frames = replayFrames(exercise.starter, exercise.codealong);
  const total = frames[frames.length - 1].time;
  const part = (name: string) => panel.querySelector<HTMLElement>(`[data-replay="${name}"]`)!;
  const screen = part("screen");
  const caption = part("caption");
  const position = part("position");
  const time = part("time");
  const play = part("play") as HTMLButtonElement;
  const speed = part("speed") as HTMLSelectElement;
  const scrubber = part("scrubber") as HTMLInputElement;
  const edit = part("edit") as HTMLButtonElement;
  const chapterList = part("chapters") as HTMLOListElement;
  scrubber.max = String(frames.length - 1);
  let index = 0;
  let timer: number | undefined;
  let captionOf: number | null = null; // the chapter whose caption is on screen

  const chapterButtons = exercise.codealong.map((chapter, i) => {
    const first = frames.findIndex((f) => f.chapter === i);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${i + 1}. ${chapter.title} · ${clock(first >= 0 ? frames[first].time : 0)}`;
    button.addEventListener("click", () => { seek(first); });
    const li = document.createElement("li");
    li.append(button);
    chapterList.append(li);
    return button;
  });

  function render(): void {
    const frame = frames[index];
    // The text with this chapter's typing marked and the cursor shown where it types.
    const typed = document.createElement("mark");
    typed.textContent = frame.text.slice(frame.from, frame.at);
    const caret = document.createElement("span");
    caret.className = "replay-caret";
    caret.setAttribute("aria-hidden", "true");
    screen.replaceChildren(frame.text.slice(0, frame.from), typed, caret, frame.text.slice(frame.at));
    const chapter = exercise.codealong[frame.chapter];
    // The caption and the position are live regions: written only when they change (a chapter
    // plays about 20 frames a second, and each write would be read aloud again).
    if (captionOf !== frame.chapter) {
      captionOf = frame.chapter;
      if (chapter) caption.innerHTML = chapter.caption; // Markdown rendered server-side, HTML escaped there
      else caption.textContent = "The starter, before any line is typed.";
      chapterButtons.forEach((button, i) => button.setAttribute("aria-current", String(i === frame.chapter)));
    }
    const where = `chapter ${Math.max(frame.chapter + 1, 0)} / ${exercise.codealong.length}`;
    if (position.textContent !== where) position.textContent = where;
    time.textContent = `${clock(frame.time)} / ${clock(total)}`;
    scrubber.value = String(index);
    scrubber.setAttribute("aria-valuetext",
      `${clock(frame.time)} of ${clock(total)}${chapter ? `, chapter ${frame.chapter + 1}: ${chapter.title}` : ", the starter"}`);
    if (frame.chapter >= 0) caret.scrollIntoView({ block: "nearest" });
  }

  function pause(): void {
    window.clearTimeout(timer);
    timer = undefined;
    play.textContent = "Play";
  }

  function tick(): void {
    if (index >= frames.length - 1) { pause(); return; }
    const wait = frames[index + 1].time - frames[index].time;
    timer = window.setTimeout(() => {
      index += 1;
      render();
      tick();
    }, wait / Number(speed.value));
  }

  function seek(to: number): void {
    index = Math.max(0, Math.min(to, frames.length - 1));
    render();
  }

  play.addEventListener("click", () => {
    if (timer !== undefined) { pause(); return; }
    if (index >= frames.length - 1) seek(0);
    play.textContent = "Pause";
    tick();
  });
  scrubber.addEventListener("input", () => { pause(); seek(Number(scrubber.value)); });
  speed.addEventListener("change", () => { if (timer !== undefined) { pause(); play.click(); } });
  edit.addEventListener("click", () => {
    const frame = frames[index];
    const mine = editor.text();
    if (!isStarter(exercise, mine) && mine !== frame.text
        && !window.confirm("Replace your code in the editor with the code-along at this point?")) return;
    pause();
    editor.setText(frame.text);
    editor.goToOffset(frame.at);
  });

  return {
    open(chapter: number): void {
      panel.hidden = false;
      seek(Math.max(0, frames.findIndex((f) => f.chapter === chapter)));
      panel.scrollIntoView({ block: "nearest" });
      play.focus();
    },
  };
}
