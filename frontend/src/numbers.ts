// How a learner's typed number is read: the page's quiz uses this, and terminal/quiz.py reads
// numbers the same way (tests/test_quiz_numbers.py holds the two to the same answers).

const THOUSANDS = /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/;

/** A typed number: accepts "−2" (a real minus sign), " 6 ", "1e-3", "0,5", and "32,001" or
 *  "14,348,907" with commas between thousands, as the pages print them (terminal/quiz.py agrees). */
export function parseNumber(text: string): number | null {
  let cleaned = text.trim().replace(/[\u2212\u2013]/g, "-");
  cleaned = THOUSANDS.test(cleaned) ? cleaned.replace(/,/g, "") : cleaned.replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}
