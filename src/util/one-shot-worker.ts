/**
 * A worker thread that does one job, posts its answer once and exits (index and feed builds): the
 * answer, once the thread has exited (its LMDB environment closed), or the reason it ended without
 * one.
 */
import { Worker } from 'node:worker_threads';

/**
 * The module `name` beside `from` (a module's import.meta.url), for a worker thread to run: `.ts`
 * under the test runner's TypeScript loader, `.js` in the built server.
 */
export const siblingModule = (from: string, name: string): URL => new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);

export interface OneShot<T> {
  result: Promise<T>;
  /** Stops the thread; `result` then rejects. */
  terminate: () => Promise<number>;
}

export function oneShotWorker<T>(url: URL, workerData: unknown, what: string): OneShot<T> {
  const worker = new Worker(url, { workerData });
  const result = new Promise<T>((resolve, reject) => {
    let answer: { value: T } | undefined;
    let failure: unknown;
    worker.once('message', (value: T) => (answer = { value }));
    worker.once('error', (err) => (failure = err));
    worker.once('exit', (code) => {
      if (answer) resolve(answer.value);
      else reject(failure ?? new Error(`the ${what} thread exited with code ${code} without an answer`));
    });
  });
  return { result, terminate: () => worker.terminate() };
}
