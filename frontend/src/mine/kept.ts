// A key-value store of one IndexedDB database, for runs kept in this browser (the reference's,
// the learner's own). Every failure is an answer, never an exception: a store that cannot be
// opened or written only means a run is computed again or not shown elsewhere.

function open(db: string, store: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(db, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(store);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The value kept under `key`, or undefined (none, or the store could not be read). */
export async function getKept(db: string, store: string, key: string): Promise<unknown> {
  try {
    const opened = await open(db, store);
    return await new Promise((resolve) => {
      const request = opened.transaction(store).objectStore(store).get(key);
      request.onsuccess = () => resolve(request.result as unknown);
      request.onerror = () => resolve(undefined);
    });
  } catch {
    return undefined;
  }
}

/** Keep `value` under `key`; false if the browser refused. */
export async function putKept(db: string, store: string, key: string, value: unknown): Promise<boolean> {
  try {
    const opened = await open(db, store);
    return await new Promise<boolean>((resolve) => {
      const transaction = opened.transaction(store, "readwrite");
      transaction.objectStore(store).put(value, key);
      transaction.oncomplete = () => resolve(true);
      transaction.onerror = () => resolve(false);
      transaction.onabort = () => resolve(false);
    });
  } catch {
    return false;
  }
}
