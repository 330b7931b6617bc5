// A text file the learner picks or drops to train on: checked the way `linebyline train
// --dataset` checks one (src/linebyline/course/dataset.py), with a message that names the problem.

export const MAX_DATASET_BYTES = 10_000_000; // far more than 32,000 names (about 250 KB)

export async function readDataset(file: File): Promise<{ text: string; documents: number }> {
  const fail = (problem: string): never => { throw new Error(`${file.name}: ${problem}`); };
  if (file.size === 0) fail("is empty; a data set needs one document (e.g. a name) per line");
  if (file.size > MAX_DATASET_BYTES) {
    fail(`is ${(file.size / 1e6).toFixed(1)} MB, more than the ${MAX_DATASET_BYTES / 1e6} MB a data set can be here`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.subarray(0, 65536).includes(0)) fail("looks like a binary file (it contains NUL bytes), not text");
  let text = "";
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail("is not UTF-8 text; save it as UTF-8 and try again");
  }
  const documents = text.split(/\r?\n/).filter((line) => line.trim()).length;
  if (documents === 0) fail("holds only blank lines; a data set needs one document per line");
  return { text, documents };
}
