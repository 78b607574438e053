/**
 * Messages between the bench and its MiniSearch child process (systems/minisearch-child.ts).
 */
import type { Hit } from './system.js';

export type ToChild =
  | { type: 'load'; file: string }
  | { type: 'search'; id: number; text: string; fuzzy: number };

export type FromChild =
  | { type: 'progress'; docs: number; seconds: number }
  | { type: 'loaded'; docs: number; seconds: number; heapMiB: number }
  | { type: 'result'; id: number; hits: Hit[] }
  | { type: 'error'; id?: number; message: string };
