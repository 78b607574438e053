/**
 * The pool worker (piscina): answers fingerprint, search and match tasks from the shared index.
 * It keeps views of the generations it was sent (the buffers are shared, never copied; a task
 * names its generation and carries the handle only when the worker asked for it) and reads
 * lyrics and names from the LMDB catalog, resetting its read snapshot at the start of every task
 * (docs/design.md §10: a worker parked in Atomics.wait would otherwise keep an old snapshot).
 */
import { workerData } from 'piscina';
import { Catalog } from '../../catalog/store.js';
import { indexOf } from '../store/layout.js';
import { NEEDS_INDEX, type PoolWorkerData, type TaskEnvelope, type TaskResult } from './task.js';
import { CatalogCache, makeEngines, type Engines } from './engines.js';
import { pastDeadline, selectKernel } from '../kernel/kernel.js';
import { RefrainError, type WireError } from '../../errors.js';
import { nameThisThread } from '../../util/thread-name.js';

nameThisThread('refrain-index');

const { dataDir, engine } = workerData as PoolWorkerData;
/** The kernel the server chose; a worker that cannot load it fails to start rather than answer with another. */
const chosen = selectKernel(engine);
if (!chosen.kernel || chosen.engine !== engine) throw new Error(`index worker: the ${engine} kernel does not load here (${chosen.why ?? 'unknown'})`);
const kernel = chosen.kernel;
let catalog: Catalog | undefined;
let cache: CatalogCache | undefined;
const engines = new Map<number, Engines>();
/** The catalog change the cache holds reads of: it is dropped whenever the catalog changes. */
let cacheSeq = -1;

function enginesFor(envelope: TaskEnvelope): Engines | undefined {
  let e = engines.get(envelope.generation);
  if (!e && envelope.index) {
    catalog ??= Catalog.open(dataDir, { randomReads: true });
    cache ??= new CatalogCache(catalog, { engine: kernel });
    e = makeEngines(indexOf(envelope.index), catalog, cache, kernel);
    engines.set(envelope.generation, e);
    // Keep the newest two generations: a task of the previous one may still arrive.
    for (const id of engines.keys()) if (engines.size > 2 && id !== envelope.generation) engines.delete(id);
  }
  return e;
}

/** A task's answer, or its RefrainError as a value: a thrown one would reach the server without its code. */
export default function run(envelope: TaskEnvelope): TaskResult | WireError {
  try {
    return answer(envelope);
  } catch (e) {
    if (e instanceof RefrainError) return e.toWire();
    throw e;
  }
}

/**
 * The engines of a task's generation, with the catalog's read snapshot renewed; undefined when this
 * worker holds no views of that generation yet (the task is answered NEEDS_INDEX and resent with
 * them). Throws the deadline error for a task that waited past its deadline: its client has its 503.
 */
export function enginesOf(envelope: TaskEnvelope): { engines: Engines; catalog: Catalog } | undefined {
  if (Date.now() > envelope.deadline) throw pastDeadline();
  const e = enginesFor(envelope);
  if (!e) return undefined;
  catalog!.refresh();
  const seq = catalog!.lastChange();
  if (seq !== cacheSeq) {
    cache!.clear();
    cacheSeq = seq;
  }
  return { engines: e, catalog: catalog! };
}

function answer(envelope: TaskEnvelope): TaskResult {
  const prepared = enginesOf(envelope);
  if (!prepared) return NEEDS_INDEX;
  const e = prepared.engines;
  const { task, deadline } = envelope;
  switch (task.op) {
    case 'warm':
      return { warmed: true };
    case 'fingerprint':
      return e.fingerprint.search(task.text, task.size, deadline);
    case 'tracks':
      return e.text.tracks(task.query, deadline);
    case 'artists':
      return e.text.artists(task.query, deadline);
    case 'match':
      return e.text.match(task.query, deadline, task.afterPrecise);
    case 'call':
      throw new RefrainError('internal', 'a call task is answered by the module it was sent to, not by the index worker');
  }
}
