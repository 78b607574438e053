/**
 * Questions to another thread over a port, each answered by a reply that carries its id: the ids,
 * and the questions still waiting for their answers. Used by the HTTP threads' asks of the main
 * thread (src/front-worker.ts) and by RemoteIndex (src/index/service/remote.ts).
 */
export class Asks {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (e: unknown) => void }>();

  /** `busy(true)` when the first question starts waiting, `busy(false)` when the last is answered (a port to ref and unref). */
  constructor(private readonly busy?: (busy: boolean) => void) {}

  /** Sends a question with `send(id)` and resolves with its answer; a question that cannot be sent rejects at once. */
  ask<T>(send: (id: number) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = this.next++;
      if (this.waiting.size === 0) this.busy?.(true);
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        send(id);
      } catch (e) {
        this.settle(id)?.reject(e);
      }
    });
  }

  /** The answer to question `id` (one not waiting, e.g. answered twice, is ignored). */
  answer(id: number, value: unknown): void {
    this.settle(id)?.resolve(value);
  }

  /** Question `id` failed. */
  fail(id: number, error: unknown): void {
    this.settle(id)?.reject(error);
  }

  private settle(id: number) {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.busy?.(false);
    return waiting;
  }
}
