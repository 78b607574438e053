/**
 * Batch screening (track.lyrics.fingerprint.batch.post; docs/api.md, "Batch screening"): the body's
 * lines are read here, the texts sent to the index workers a few at a time, CHUNK_TEXTS per task (one
 * hand-off for many texts), and each task's lines written to the client as it finishes. Nothing grows
 * without bound: at most `BatchRun.inFlight` tasks of a batch run or wait at once, and while the
 * client has not taken what was written, no further task is sent (what the running ones answer waits
 * in the stream: src/http/stream.ts); a client that stops reading stops the work, one gone away ends
 * it. Every text counts against the caller's quota and rate when it is sent, and only then.
 */
import type { BodyStream } from '../http/route.js';
import { RefrainError } from '../errors.js';
import { batchErrorLine } from './batch-lines.js';
import type { BatchText, PoolAnswer } from './pool-worker.js';

/** Texts one request may hold (and at most --max-body-bytes of them). */
export const MAX_BATCH_TEXTS = 1000;
/** Texts per pool task, and characters at most (a task's deadline covers all of them). */
const CHUNK_TEXTS = 16;
const CHUNK_CHARS = 16_000;

/** A batch's body, read: the texts to screen, and the lines already answered (lines that could not be read). */
export interface ParsedBatch {
  texts: BatchText[];
  refused: string[];
}

/** Reads a batch's NDJSON body; throws the request's 400 when it holds no lines or too many. */
export function parseBatch(bytes: Buffer): ParsedBatch {
  const lines = bytes.toString('utf8').split('\n');
  const texts: BatchText[] = [];
  const refused: string[] = [];
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (++count > MAX_BATCH_TEXTS) {
      const total = lines.filter((l) => l.trim() !== '').length;
      throw new RefrainError('bad_request', `a batch holds at most ${MAX_BATCH_TEXTS.toLocaleString('en')} texts; this one has ${total.toLocaleString('en')}: split it`);
    }
    const text = readLine(line, i + 1);
    if (typeof text === 'string') refused.push(text);
    else texts.push(text);
  }
  if (count === 0) throw new RefrainError('bad_request', 'the body holds no lines: send one {"id": "…", "text": "…"} per line');
  return { texts, refused };
}

/** A line's text, or the error line answering it. */
function readLine(line: string, n: number): BatchText | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return batchErrorLine(null, new RefrainError('bad_request', `line ${n} is not valid JSON: send one {"id": "…", "text": "…"} per line`));
  }
  const record = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const id = record?.id;
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  if (validId === null) return batchErrorLine(null, new RefrainError('bad_request', `line ${n}: "id" must be a string or a number`));
  if (typeof record!.text !== 'string') return batchErrorLine(validId, new RefrainError('bad_request', `line ${n}: "text" must be a string`));
  return { id: validId, text: record!.text };
}

export interface BatchRun {
  /** Counts one more text against the caller's quota and rate; throws the 402 or 429 once spent. */
  admit: () => void;
  /** Screens some texts in an index worker: their lines. */
  screen: (texts: BatchText[]) => Promise<PoolAnswer>;
  /** Tasks of one batch running or waiting at once. */
  inFlight: number;
  /** Logs a task's failure that is not a refusal (its texts are answered 500). */
  log: (e: unknown) => void;
}

/**
 * Screens a batch's texts, writing each task's lines to `body` as it finishes, then ends it. When
 * the pool refuses a task as busy (its queue is full, or the task would miss its deadline), nothing
 * more is sent: the texts not sent yet are answered 503 without being charged, to be sent again.
 */
export function streamBatch(body: BodyStream, batch: ParsedBatch, run: BatchRun): void {
  const { texts } = batch;
  let next = 0;
  let running = 0;
  /** The client has not taken what was written: no task is sent until it has. */
  let waiting = false;
  let stopped = false;
  /** The pool's refusal, once it refused a task: the texts not sent are answered with it. */
  let busy: RefrainError | undefined;
  const write = (lines: string) => {
    if (lines !== '' && !body.write(lines)) waiting = true;
  };
  const failed = (chunk: BatchText[], e: unknown) => {
    if (e instanceof RefrainError) {
      if (e.code === 'busy') busy ??= e;
    } else run.log(e);
    write(chunk.map((t) => batchErrorLine(t.id, e)).join(''));
  };
  const pump = () => {
    while (!stopped && !busy && !waiting && running < run.inFlight && next < texts.length) {
      const chunk = take();
      if (chunk.length === 0) continue;
      running++;
      run.screen(chunk).then(
        (answer) => write(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength).toString('utf8')),
        (e: unknown) => failed(chunk, e),
      ).finally(() => {
        running--;
        pump();
      });
    }
    if (stopped || running > 0 || (next < texts.length && !busy)) return;
    if (busy) {
      const refusal = busy;
      write(texts.slice(next).map((t) => batchErrorLine(t.id, refusal)).join(''));
      next = texts.length;
    }
    stopped = true;
    body.end();
  };
  /** The next texts, each admitted against the quota (those refused are answered here). */
  const take = (): BatchText[] => {
    const chunk: BatchText[] = [];
    let chars = 0;
    let refusals = '';
    while (next < texts.length && chunk.length < CHUNK_TEXTS && (chunk.length === 0 || chars + texts[next].text.length <= CHUNK_CHARS)) {
      const text = texts[next++];
      try {
        run.admit();
      } catch (e) {
        refusals += batchErrorLine(text.id, e);
        continue;
      }
      chunk.push(text);
      chars += text.text.length;
    }
    write(refusals);
    return chunk;
  };
  body.onWritable(() => {
    waiting = false;
    pump();
  });
  body.onClose(() => (stopped = true));
  write(batch.refused.join(''));
  pump();
}
