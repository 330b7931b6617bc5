// Asking the server to assemble one of the learner's scripts (My microgpt, and the course's end
// page): the statuses of every lesson and the drafts of those done, as /my-microgpt/assemble
// wants them. Progress lives in the browser; the server only compares and parses the code.
import type { CourseSummary, Progress } from "../progress";
import type { Assembled } from "./assembly-view";

const MAX_BODY = 2_400_000; // characters: under the server's 2.5 MB limit on a request

/** Statuses of every lesson, and the drafts of those done. Drafts that would make the request
 *  too big are left out, largest first, and named in `leftOut`. */
export function assemblyRequest(progress: Progress, course: CourseSummary, script: string,
                                maxDraft: number): { text: string; leftOut: string[] } {
  const lessons: Record<string, { status: string; draft: string | null }> = {};
  for (const number of Object.keys(course.lessons)) {
    const lesson = progress.lesson(number);
    const draft = lesson.status === "done" && typeof lesson.draft === "string" && lesson.draft.length <= maxDraft
      ? lesson.draft : null;
    lessons[number] = { status: lesson.status, draft };
  }
  const leftOut: string[] = [];
  let text = JSON.stringify({ script, lessons });
  while (text.length > MAX_BODY) {
    const biggest = Object.entries(lessons).filter(([, l]) => l.draft).sort((a, b) => b[1].draft!.length - a[1].draft!.length)[0];
    if (!biggest) break;
    biggest[1].draft = null;
    leftOut.push(biggest[0]);
    text = JSON.stringify({ script, lessons });
  }
  return { text, leftOut };
}

/** The server's assembly of the request's script; an Error that says why if there is none. */
export async function fetchAssembly(url: string, csrf: string, text: string): Promise<Assembled> {
  const response = await fetch(url, {
    method: "POST", body: text,
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
  });
  const answer = await response.json() as Assembled & { error?: string };
  if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
  return answer;
}

/** The note for each lesson whose draft was too large to send. */
export function leftOutNotes(leftOut: string[]): string[] {
  return leftOut.map((n) => `Your code for lesson ${n} was too large to send with the rest, so the reference is used for it.`);
}
