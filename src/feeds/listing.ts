/** The body of tracks.dump.get: the current feeds as the spec's Feed entries, each with a fresh signed URL. */
import type { FeedSigner } from './sign.js';
import type { FeedStore } from './store.js';

/** Spec, "Feed entry (tracks.dump.get)". */
export interface FeedEntry {
  id: number;
  created: string;
  full: boolean;
  download_url: string;
}

/** Path of a feed file on the server (the download route, download-route.ts). */
export const feedPath = (file: string): string => `/feeds/${file}`;

export class FeedDirectory {
  constructor(
    private readonly store: FeedStore,
    private readonly signer: FeedSigner,
    /** The server's base URL (known once it listens). */
    private readonly baseUrl: () => string,
    private readonly urlTtlSeconds: number,
  ) {}

  /** The latest full feed and every feed after it, oldest first, with URLs valid from `now` (ms). */
  entries(now: number): FeedEntry[] {
    // Feeds are built by a worker thread or another process: look past this thread's read snapshot.
    this.store.refresh();
    return this.store.current().map((f) => ({ id: f.id, created: f.created, full: f.full, download_url: this.urlFor(f.file, now) }));
  }

  /** A feed file's signed download URL, valid from `now` (ms) for the configured lifetime. */
  urlFor(file: string, now: number): string {
    return this.signer.url(this.baseUrl(), feedPath(file), now, this.urlTtlSeconds);
  }
}
