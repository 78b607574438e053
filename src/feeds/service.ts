/**
 * The feeds part of a running server, built in one place so the composition root (src/app.ts) only wires it: the
 * listing tracks.dump.get answers from, the download route, and the schedule (unless `--no-feeds`).
 */
import type { Logger } from 'pino';
import type { Catalog } from '../catalog/store.js';
import type { ServeConfig } from '../config.js';
import type { TemplatedApp } from '../http/uws.js';
import { loadOrCreateSecret } from '../util/secret.js';
import { feedDownloadRoute } from './download-route.js';
import { FeedDirectory } from './listing.js';
import { FeedSchedule } from './schedule.js';
import { FeedSigner } from './sign.js';
import { feedsDir, FeedStore } from './store.js';

export interface FeedService {
  directory: FeedDirectory;
  store: FeedStore;
  /** Builds on the configured schedule; tests and operators may also call `build` directly. */
  schedule: FeedSchedule;
  /** Adds the download route (GET and HEAD /feeds/<file>). */
  mount(app: TemplatedApp): void;
  /** Starts the schedule (the first start builds a full feed at once). */
  start(): void;
  close(): Promise<void>;
}

type FeedConfig = Pick<ServeConfig, 'data' | 'noFeeds' | 'feedsFullEvery' | 'feedsIncrementalEvery' | 'feedsRetention' | 'feedUrlTtl'>;

export function openFeeds(config: FeedConfig, deps: { catalog: Catalog; clock: () => number; logger: Logger; baseUrl: () => string }): FeedService {
  const store = new FeedStore(deps.catalog.root);
  const signer = new FeedSigner(loadOrCreateSecret(config.data, 'feeds.key'));
  const directory = new FeedDirectory(store, signer, deps.baseUrl, config.feedUrlTtl);
  const schedule = new FeedSchedule({
    dataDir: config.data,
    catalog: deps.catalog,
    store,
    logger: deps.logger,
    clock: deps.clock,
    options: { fullEvery: config.feedsFullEvery, incrementalEvery: config.feedsIncrementalEvery, retention: config.feedsRetention },
  });
  return {
    directory,
    store,
    schedule,
    mount(app) {
      const route = feedDownloadRoute({ dir: feedsDir(config.data), store, signer, clock: deps.clock, logger: deps.logger });
      app.get('/feeds/:file', route);
      app.head('/feeds/:file', route);
    },
    start() {
      if (!config.noFeeds) schedule.start();
    },
    close: () => schedule.close(),
  };
}
