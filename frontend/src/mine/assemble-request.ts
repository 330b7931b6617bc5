// Asking the server to assemble one of the learner's scripts (My microgpt, and the course's end
// page): the statuses of every lesson and the code that passed of those done, as /my-microgpt/assemble
// wants them. Progress lives in the browser; the server only compares and parses the code.
import { csrfToken } from "../csrf";
import type { CourseSummary, Progress } from "../progress";
import type { Assembled } from "./assembly-view";

const MAX_BODY = 2_400_000; // characters: under the server's 2.5 MB limit on a request

/** Statuses of every lesson, and for those done the code that passed their checks (never a
 *  draft: code edited after its pass may fail). A lesson done without such code says why
 *  (`missing`): `recheck` holds the lessons whose draft was checked again here and failed. Code
 *  that would make the request too big is left out, largest first, and named in `leftOut`. */
export function assemblyRequest(progress: Progress, course: CourseSummary, script: string, maxDraft: number,
                                recheck: ReadonlyMap<string, boolean> = new Map()): { text: string; leftOut: string[] } {
  type Entry = { status: string; passed: string | null; missing?: string };
  const lessons: Record<string, Entry> = {};
  for (const number of Object.keys(course.lessons)) {
    const lesson = progress.lesson(number);
    const entry: Entry = { status: lesson.status, passed: null };
    if (lesson.status === "done") {
      if (typeof lesson.passedCode === "string" && lesson.passedCode.length <= maxDraft) entry.passed = lesson.passedCode;
      else if (recheck.get(number) === false) entry.missing = "fails-now";
      else entry.missing = "not-kept";
    }
    lessons[number] = entry;
  }
  const leftOut: string[] = [];
  let text = JSON.stringify({ script, lessons });
  while (text.length > MAX_BODY) {
    const biggest = Object.entries(lessons).filter(([, l]) => l.passed).sort((a, b) => b[1].passed!.length - a[1].passed!.length)[0];
    if (!biggest) break;
    biggest[1].passed = null;
    biggest[1].missing = "too-large";
    leftOut.push(biggest[0]);
    text = JSON.stringify({ script, lessons });
  }
  return { text, leftOut };
}

/** The server could not be reached (offline): the caller may assemble in the browser instead. */
export class Unreachable extends Error {}

/** The server's assembly of the request's script; an Error that says why if there is none. */
export async function fetchAssembly(url: string, text: string): Promise<Assembled> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST", body: text,
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
    });
  } catch {
    throw new Unreachable("the server cannot be reached");
  }
  const answer = (await response.json().catch(() => ({}))) as Assembled & { error?: string };
  if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
  return answer;
}

/** The note for each lesson whose draft was too large to send. */
export function leftOutNotes(leftOut: string[]): string[] {
  return leftOut.map((n) => `Your code for lesson ${n} was too large to send with the rest, so the reference is used for it.`);
}
