// Reference runs kept in this browser (IndexedDB), so the reference curve for the same script,
// steps and data is computed once: the next run of the learner's code needs one worker, not two.
// A store that cannot be opened or written only means the reference runs again.

export interface StoredRun { losses: Array<number | null>; marks: string[]; weights: number[] }

const DB = "linebyline-reference-runs";
const STORE = "runs";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Everything the reference's numbers depend on: its text, the steps, the data, the Python. */
export async function referenceKey(source: string, steps: number, dataset: string, python: string): Promise<string> {
  return sha256([source, String(steps), await sha256(dataset), python].join("\0"));
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export async function loadReference(key: string): Promise<StoredRun | null> {
  try {
    const db = await open();
    return await new Promise((resolve) => {
      const request = db.transaction(STORE).objectStore(STORE).get(key);
      request.onsuccess = () => resolve((request.result as StoredRun | undefined) ?? null);
      request.onerror = () => resolve(null);
    });
  } catch {
    return null;
  }
}

export async function saveReference(key: string, run: StoredRun): Promise<void> {
  try {
    const db = await open();
    await new Promise<void>((resolve) => {
      const transaction = db.transaction(STORE, "readwrite");
      transaction.objectStore(STORE).put(run, key);
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => resolve();
    });
  } catch {
    // nothing kept: the reference runs again next time
  }
}
