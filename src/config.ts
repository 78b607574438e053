/**
 * Refrain's configuration: one zod schema per command, built from one table of options. The same
 * table drives the command-line flags, the environment variables, `--help`, the docs table
 * (`docs/configuration.md`) and the validation errors, so none of them can drift apart (STYLE.md §11).
 */
import { z } from 'zod';
import { GRANT_TYPES } from './oauth/clients.js';
import { SCOPES } from './oauth/scopes.js';
import { RefrainError } from './errors.js';

/** How an option is read: its flag is `--kebab-case` of the key; `env` names an environment variable. */
interface OptionMeta {
  description: string;
  env?: string;
}

const bool = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const s = v.toLowerCase();
  if (s === '' || s === '1' || s === 'true' || s === 'yes') return true;
  if (s === '0' || s === 'false' || s === 'no') return false;
  return v;
}, z.boolean());

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const opt = <T extends z.ZodType>(schema: T, meta: OptionMeta) => schema.meta({ ...meta });

const SECONDS_PER: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
/** A duration: seconds, or a number with s, m, h or d (`90`, `10m`, `24h`, `7d`); parsed to seconds. */
const duration = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+(\.\d+)?\s*[smhd]?$/i, 'a duration such as 90, 90s, 10m, 24h or 7d')])
    .transform((v) => {
      if (typeof v === 'number') return v;
      const unit = v.trim().slice(-1).toLowerCase();
      return parseFloat(v) * (SECONDS_PER[unit] ?? 1);
    })
    .pipe(z.number().min(min).max(max));

/** A string option without a default: says "required" when missing. */
const required = () => z.string({ error: (issue) => (issue.input === undefined ? 'required' : undefined) });
/** A list given as one value, split on commas (and whitespace when `spaces`). */
const list = (spaces = false) => z.string().transform((s) => s.split(spaces ? /[\s,]+/ : ',').map((x) => x.trim()).filter(Boolean));

/** Every option any command takes. Commands pick theirs below. */
export const OPTIONS = {
  data: opt(z.string().min(1).default('./data'), {
    description: 'data directory: catalog, keys, index segments, feeds',
    env: 'REFRAIN_DATA',
  }),
  port: opt(int(0, 65535).default(8080), { description: 'TCP port to listen on (0 picks a free one)', env: 'PORT' }),
  host: opt(z.string().min(1).default('0.0.0.0'), {
    description: 'address to listen on; serve --demo without --host (or HOST) listens on 127.0.0.1 only',
    env: 'HOST',
  }),
  publicUrl: opt(z.url().optional(), {
    description: 'base URL clients reach this server at (tracking and share URLs); default http://localhost:PORT',
    env: 'REFRAIN_PUBLIC_URL',
  }),
  httpStatus: opt(z.enum(['200', 'mirror']).default('200'), {
    description:
      "HTTP status of /ws/1.1/ answers: 200 (the public API's convention: the status is in the envelope and x-refrain-header-status) or mirror (the HTTP status repeats it); see docs/api.md",
    env: 'REFRAIN_HTTP_STATUS',
  }),
  allowUwsFallback: opt(bool.default(false), {
    description: "start even when uWebSockets.js's native binary did not load (slow JS fallback)",
    env: 'REFRAIN_ALLOW_UWS_FALLBACK',
  }),
  demo: opt(bool.default(false), {
    description: 'on an empty data directory, generate and import a demo catalog and create a demo key',
  }),
  demoTracks: opt(int(100, 1_000_000).default(20_000), { description: 'size of the demo catalog in tracks' }),
  maxBodyBytes: opt(int(1024, 64 * 1024 * 1024).default(1024 * 1024), {
    description: 'largest request body accepted, in bytes (413 above it)',
    env: 'REFRAIN_MAX_BODY_BYTES',
  }),
  httpStallTimeout: opt(duration(1, 3600).default(10), {
    description: 'seconds a response may wait for a client that reads none of it before the connection is closed',
    env: 'REFRAIN_HTTP_STALL_TIMEOUT',
  }),
  maxUrlBytes: opt(int(256, 1024 * 1024).default(8192), {
    description: 'longest request target (path and query) accepted, in bytes (414 above it)',
    env: 'REFRAIN_MAX_URL_BYTES',
  }),
  maxHeaderBytes: opt(int(1024, 1024 * 1024).default(16_384), {
    description: 'largest total of request header fields accepted, in bytes (431 above it)',
    env: 'REFRAIN_MAX_HEADER_BYTES',
  }),
  lyricslensSunset: opt(z.iso.date().default('2026-09-01'), {
    description: 'date from which track.lyricslens.get answers 410 (extend it to keep the old method alive)',
    env: 'REFRAIN_LYRICSLENS_SUNSET',
  }),
  responseCache: opt(int(0, 10_000_000).default(50_000), {
    description: 'rendered answers kept in memory for repeated lookups (0 turns the cache off)',
    env: 'REFRAIN_RESPONSE_CACHE',
  }),
  responseCacheTtl: opt(int(1, 86_400).default(60), {
    description: 'seconds a cached answer may be served (catalog changes drop the cache at once)',
    env: 'REFRAIN_RESPONSE_CACHE_TTL',
  }),
  httpThreads: opt(int(0, 64).default(0), {
    description:
      'HTTP threads serving the port (0: one per four cores, 1 to 8; 1 answers on the main thread, 2 or more in threads of their own beside it); see docs/operations.md',
    env: 'REFRAIN_HTTP_THREADS',
  }),
  indexThreads: opt(int(0, 256).default(0), {
    description: 'index workers answering fingerprint, search and matcher queries (0: one per core)',
    env: 'REFRAIN_INDEX_THREADS',
  }),
  engine: opt(z.enum(['auto', 'native', 'ts']).default('auto'), {
    description:
      'which kernel answers index queries (fingerprints, track.search, artist.search, the matcher): native (the C++ addon, native-index/), ts (the TypeScript reference) or auto (native when the addon loads, else ts with a warning); see docs/operations.md',
    env: 'REFRAIN_ENGINE',
  }),
  indexQueue: opt(int(1, 1_000_000).default(256), {
    description: 'index queries waiting for a worker at most; more are answered 503 at once',
    env: 'REFRAIN_INDEX_QUEUE',
  }),
  indexDeadlineMs: opt(int(10, 600_000).default(2000), {
    description: 'milliseconds an index query may take, queueing included (503 after it)',
    env: 'REFRAIN_INDEX_DEADLINE_MS',
  }),
  indexQueueCost: opt(int(1000, 1_000_000_000).default(4_000_000), {
    description:
      'estimated cost of the index queries waiting at most, in characters of text (a fingerprint counts its text, a search 1,000); ' +
      'more is answered 503 at once, as is a query whose estimated wait would pass --index-deadline-ms',
    env: 'REFRAIN_INDEX_QUEUE_COST',
  }),
  maxFingerprintChars: opt(int(100, 10_000_000).default(20_000), {
    description: 'longest text track.lyrics.fingerprint.post screens, in characters (400 above it)',
    env: 'REFRAIN_MAX_FINGERPRINT_CHARS',
  }),
  contributionsPerKey: opt(int(1, 1_000_000).default(1000), {
    description: 'contributions (track.lyrics.post, track.lyrics.feedback.post) one key or OAuth client may have awaiting review; more are answered 429',
    env: 'REFRAIN_CONTRIBUTIONS_PER_KEY',
  }),
  contributionsPending: opt(int(1, 100_000_000).default(100_000), {
    description: 'contributions awaiting review on the whole server at most; more are answered 429',
    env: 'REFRAIN_CONTRIBUTIONS_PENDING',
  }),
  status: opt(z.enum(['pending', 'approved', 'rejected']).default('pending'), { description: 'which contributions to list: pending, approved or rejected' }),
  limit: opt(int(1, 1_000_000).default(100), { description: 'list at most this many' }),
  reason: opt(z.string().trim().max(1000).optional(), { description: 'why, kept with the contribution' }),
  noIndex: opt(bool.default(false), { description: 'do not build the search index after importing (build it later with refrain index)' }),
  nice: opt(int(0, 19).default(10), {
    description: 'CPU priority of this batch job, as nice(1): 0 normal to 19 lowest; the default leaves a server on the same machine the CPU its requests need',
    env: 'REFRAIN_NICE',
  }),
  force: opt(bool.default(false), { description: 'rebuild even when the index already covers the catalog' }),
  corsOrigin: opt(z.string().default('*'), {
    description: 'Access-Control-Allow-Origin sent to browsers on /ws/1.1/',
    env: 'REFRAIN_CORS_ORIGIN',
  }),
  unknownKeyCache: opt(int(0, 10_000_000).default(50_000), {
    description: 'well-formed but unknown API keys remembered so repeats skip the key store, at most (0: none)',
    env: 'REFRAIN_UNKNOWN_KEY_CACHE',
  }),
  unknownKeyCacheBytes: opt(int(0, 1024 * 1024 * 1024).default(8 * 1024 * 1024), {
    description: 'memory the unknown-key cache may hold, in bytes (estimated: key length + 96 per key); oldest dropped first',
    env: 'REFRAIN_UNKNOWN_KEY_CACHE_BYTES',
  }),
  trackingTokenTtl: opt(duration(60, 366 * 86_400).default(7 * 86_400), {
    description: 'lifetime of tracking URLs, in seconds or with s/m/h/d (7d); an expired one answers 410 and counts nothing',
    env: 'REFRAIN_TRACKING_TOKEN_TTL',
  }),
  trackingReplayWindow: opt(duration(0, 7 * 86_400).default(3600), {
    description: 'a tracking URL sent again from the same address within this time counts once, in seconds or with s/m/h/d (1h)',
    env: 'REFRAIN_TRACKING_REPLAY_WINDOW',
  }),
  trackingDedupeEntries: opt(int(0, 10_000_000).default(200_000), {
    description: '(address, tracking URL) pairs remembered for the replay window at most, oldest dropped first (about 100 bytes each; 0: no deduplication)',
    env: 'REFRAIN_TRACKING_DEDUPE_ENTRIES',
  }),
  logLevel: opt(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'), {
    description: 'log level of the logs (JSON on stdout unless --log-file or a terminal)',
    env: 'LOG_LEVEL',
  }),
  accessLog: opt(bool.default(false), { description: 'log one line per request', env: 'REFRAIN_ACCESS_LOG' }),
  logFile: opt(z.string().min(1).optional(), {
    description: 'write the JSON logs to this file (appended) instead of standard output, which then shows only the startup messages',
    env: 'REFRAIN_LOG_FILE',
  }),
  logFormat: opt(z.enum(['auto', 'json', 'pretty']).default('auto'), {
    description: 'logs on standard output: JSON lines, or one readable line each; auto is readable on a terminal, JSON otherwise',
    env: 'REFRAIN_LOG_FORMAT',
  }),
  issuer: opt(
    z
      .url({ protocol: /^https?$/ })
      .refine((s) => !s.includes('?') && !s.includes('#'), 'an issuer has no query or fragment (RFC 8414 §2)')
      .optional(),
    {
      description: "OAuth issuer identifier, used byte for byte in discovery, tokens and the iss parameter; default the server's base URL",
      env: 'REFRAIN_ISSUER',
    },
  ),
  oauthInsecureCookies: opt(bool.default(false), {
    description: 'send the OAuth login session cookie without Secure (plain-HTTP development only)',
    env: 'REFRAIN_OAUTH_INSECURE_COOKIES',
  }),
  accessTokenTtl: opt(int(60, 86_400).default(3600), {
    description: 'lifetime of OAuth access tokens in seconds (expires_in)',
    env: 'REFRAIN_ACCESS_TOKEN_TTL',
  }),
  oauthSigninTtl: opt(duration(60, 86_400).default(3600), {
    description: 'how long an OAuth sign-in may take, from the authorization request to consent, in seconds or with s/m/h/d (1h)',
    env: 'REFRAIN_OAUTH_SIGNIN_TTL',
  }),
  oauthSessionsPerAddress: opt(int(1, 100_000).default(20), {
    description: "logged-in OAuth sessions kept per client address; a login beyond it ends the address's oldest",
    env: 'REFRAIN_OAUTH_SESSIONS_PER_ADDRESS',
  }),
  oauthLoginAttempts: opt(int(1, 1000).default(5), {
    description: 'OAuth login attempts that are not successes allowed per e-mail and per client address within --oauth-login-window (429 beyond)',
    env: 'REFRAIN_OAUTH_LOGIN_ATTEMPTS',
  }),
  oauthLoginWindow: opt(duration(1, 7 * 86_400).default(900), {
    description: 'the window of --oauth-login-attempts, in seconds or with s/m/h/d (15m)',
    env: 'REFRAIN_OAUTH_LOGIN_WINDOW',
  }),
  strict: opt(bool.default(false), { description: 'abort on the first bad line, with nothing applied' }),
  batch: opt(int(1, 100_000).default(2000), { description: 'lines written per LMDB transaction' }),
  readThreads: opt(int(0, 16).default(0), {
    description: "threads reading, validating and encoding the files' lines for the one writing thread (0: for 64 MiB of files or more two, or one fewer than the cores up to four; else one); see docs/operations.md",
  }),
  progress: opt(bool.optional(), { description: 'show a progress bar (default: when stderr is a terminal)' }),
  json: opt(bool.default(false), { description: 'print exactly one JSON object describing the result' }),
  tracks: opt(int(1, 50_000_000).default(1000), { description: 'number of tracks to generate' }),
  seed: opt(int(0, 2 ** 31 - 1).default(1), { description: 'random seed: the same seed gives the same catalog' }),
  out: opt(z.string().optional(), { description: 'output file (.jsonl or .jsonl.gz); default standard output' }),
  plan: opt(z.enum(['free', 'basic', 'enterprise']).default('free'), { description: 'plan of the key or OAuth client' }),
  quota: opt(int(0, 2 ** 31 - 1).optional(), {
    description: 'daily request quota (0 = unlimited; default by plan: free 2000, basic 100000, enterprise 0)',
  }),
  rate: opt(int(0, 1_000_000).default(0), { description: 'keys create: rate limit in requests per minute (0 = none); loadtest: requests per second' }),
  country: opt(
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'a two-letter ISO 3166-1 country code')
      .transform((s) => s.toUpperCase())
      .optional(),
    { description: 'country of the key or OAuth client: content blocked there is returned restricted' },
  ),
  label: opt(z.string().max(200).default(''), { description: 'a note to tell keys apart' }),
  name: opt(required().trim().min(1).max(200), { description: 'name of the OAuth client (shown on the consent page) or of the user (required)' }),
  redirectUri: opt(list().optional(), {
    description: 'redirect URI of the OAuth client, matched exactly; repeat the flag or separate with commas; https, or http on localhost only',
  }),
  grantTypes: opt(list().pipe(z.array(z.enum(GRANT_TYPES)).min(1)).default(['authorization_code', 'refresh_token']), {
    description: 'grant types of the OAuth client, comma-separated: authorization_code, refresh_token, client_credentials',
  }),
  scopes: opt(list(true).pipe(z.array(z.enum(SCOPES)).min(1)).default(['openid', 'profile', 'email', 'catalog:read']), {
    description: `scopes the OAuth client may be granted, space- or comma-separated: ${SCOPES.join(' ')}`,
  }),
  email: opt(required().min(3).max(254), { description: 'e-mail address of the user: the login name (required)' }),
  passwordStdin: opt(bool.default(false), {
    description: "read the user's password from standard input (else from REFRAIN_USER_PASSWORD; never a flag, which ps would show)",
  }),
  retire: opt(bool.default(false), { description: 'also drop signing keys older than the previous one (tokens they signed stop verifying)' }),
  noFeeds: opt(bool.default(false), {
    description: 'build no feeds while serving (tracks.dump.get still lists those `refrain feeds build` makes)',
    env: 'REFRAIN_NO_FEEDS',
  }),
  feedsFullEvery: opt(duration(60, 366 * 86_400).default(86_400), {
    description: 'time between full feeds while serving, in seconds or with s/m/h/d (24h)',
    env: 'REFRAIN_FEEDS_FULL_EVERY',
  }),
  feedsIncrementalEvery: opt(duration(60, 366 * 86_400).default(3600), {
    description: 'time between incremental feeds while serving, in seconds or with s/m/h/d (1h); none is built when nothing changed',
    env: 'REFRAIN_FEEDS_INCREMENTAL_EVERY',
  }),
  feedsRetention: opt(duration(0, 3650 * 86_400).default(7 * 86_400), {
    description: 'how long superseded feed files are kept, in seconds or with s/m/h/d (7d); the latest full feed and those after it always stay',
    env: 'REFRAIN_FEEDS_RETENTION',
  }),
  feedUrlTtl: opt(duration(10, 7 * 86_400).default(3600), {
    description: 'lifetime of the signed download URLs tracks.dump.get gives, in seconds or with s/m/h/d (1h)',
    env: 'REFRAIN_FEED_URL_TTL',
  }),
  full: opt(bool.default(false), { description: 'build a full feed: every track with its content, artists and albums' }),
  incremental: opt(bool.default(false), { description: 'build an incremental feed: the changes since the latest feed' }),
  from: opt(required().pipe(z.url({ protocol: /^https?$/ })), { description: 'base URL of the primary Refrain server to replicate (required)' }),
  apikey: opt(z.string().min(1).optional(), {
    description: "API key of the server the command talks to: sync, the primary's (enterprise plan) to list its feeds; loadtest, the target's",
    env: 'REFRAIN_SYNC_APIKEY',
  }),
  bearer: opt(z.string().min(1).optional(), {
    description: 'an OAuth access token instead of --apikey (sync: with the feeds:read scope)',
    env: 'REFRAIN_SYNC_BEARER',
  }),
  every: opt(duration(10, 366 * 86_400).optional(), {
    description: 'keep syncing at this interval (seconds or with s/m/h/d, e.g. 10m) until stopped; default: sync once and exit',
  }),
  target: opt(required().pipe(z.url({ protocol: /^https?$/ })), {
    description: 'base URL of the Refrain server or cluster to load-test (required); only this machine unless --i-own-this-target',
  }),
  iOwnThisTarget: opt(bool.default(false), { description: 'allow a target that is not this machine (a load test can overwhelm a server: only yours)' }),
  mix: opt(z.string().default('fingerprint=40,track.get=30,track.search=20,matcher.track.get=10'), {
    description: 'methods and their weights: fingerprint, track.get, track.lyrics.get, track.search, matcher.track.get, artist.get, album.get, chart.tracks.get',
  }),
  duration: opt(duration(1, 86_400).default(60), { description: 'how long the load runs, in seconds or with s/m/h (the ramp: its longest)' }),
  connections: opt(int(1, 10_000).optional(), {
    description: 'without --rate: closed loop with this many connections, each sending when answered (peak throughput); with --rate: the pool size (default 64)',
  }),
  ramp: opt(bool.default(false), { description: 'find the highest rate whose p99 stays within --slo: step up, hold, back off' }),
  slo: opt(
    z.union([z.number(), z.string().regex(/^\d+(\.\d+)?\s*(ms|s)?$/i, 'a latency such as 20ms, 20 or 0.5s')])
      .transform((v) => (typeof v === 'number' ? v : parseFloat(v) * (/s$/i.test(v) && !/ms$/i.test(v) ? 1000 : 1)))
      .pipe(z.number().positive().max(60_000))
      .default(20),
    { description: 'the ramp\'s objective for p99, in ms or with ms/s (20ms)' },
  ),
  rampStep: opt(duration(2, 3600).default(10), { description: 'how long the ramp holds each rate, in seconds or with s/m' }),
  rampFrom: opt(int(1, 1_000_000).default(50), { description: 'the ramp\'s first rate, requests per second' }),
  timeout: opt(duration(0.1, 600).default(10), { description: 'a request unanswered this long (seconds) counts as a timeout' }),
  discoverTracks: opt(int(100, 100_000).default(1000), { description: 'tracks read from the target\'s top chart (and further down it) to build requests' }),
  discoverLyrics: opt(int(1, 5000).default(200), { description: 'lyrics read from the target to cut fingerprint texts from' }),
  html: opt(z.string().default('loadtest-report.html'), { description: 'where to write the HTML report (empty: none)' }),
};

type Options = typeof OPTIONS;
type Pick<K extends keyof Options> = z.ZodObject<{ [P in K]: Options[P] }>;

function pick<K extends keyof Options>(...keys: K[]): Pick<K> {
  const shape = {} as { [P in K]: Options[P] };
  for (const k of keys) shape[k] = OPTIONS[k];
  return z.strictObject(shape) as unknown as Pick<K>;
}

/** The options of each command; `positionals` says what follows the flags. */
export const COMMANDS = {
  serve: {
    summary: 'serve the /ws/1.1/ API',
    positionals: '',
    schema: pick(
      'data', 'port', 'host', 'publicUrl', 'httpStatus', 'allowUwsFallback', 'demo', 'demoTracks',
      'maxBodyBytes', 'lyricslensSunset', 'responseCache', 'responseCacheTtl', 'corsOrigin', 'logLevel', 'accessLog',
      'httpThreads', 'indexThreads', 'engine', 'indexQueue', 'indexQueueCost', 'indexDeadlineMs', 'maxFingerprintChars', 'issuer', 'oauthInsecureCookies', 'accessTokenTtl',
      'oauthSigninTtl', 'oauthSessionsPerAddress', 'oauthLoginAttempts', 'oauthLoginWindow',
      'noFeeds', 'feedsFullEvery', 'feedsIncrementalEvery', 'feedsRetention', 'feedUrlTtl',
      'unknownKeyCache', 'unknownKeyCacheBytes', 'contributionsPerKey', 'contributionsPending',
      'httpStallTimeout', 'maxUrlBytes', 'maxHeaderBytes',
      'trackingTokenTtl', 'trackingReplayWindow', 'trackingDedupeEntries',
      'progress', 'logFile', 'logFormat',
    ),
  },
  import: {
    summary: 'import catalog files (JSONL or JSONL.gz, the format of docs/import-format.md)',
    positionals: '<files…>',
    schema: pick('data', 'strict', 'batch', 'readThreads', 'progress', 'json', 'noIndex', 'nice'),
  },
  index: {
    summary: 'build the search and fingerprint index from the catalog (import does it too)',
    positionals: '',
    schema: pick('data', 'force', 'progress', 'json', 'nice'),
  },
  generate: {
    summary: 'write a deterministic synthetic catalog in the import format',
    positionals: '',
    schema: pick('tracks', 'seed', 'out', 'progress', 'json'),
  },
  'keys create': {
    summary: 'create an API key (its plaintext is shown once)',
    positionals: '',
    schema: pick('data', 'plan', 'quota', 'rate', 'country', 'label', 'json'),
  },
  'keys list': { summary: 'list API keys (never their plaintext)', positionals: '', schema: pick('data', 'json') },
  'keys revoke': { summary: 'revoke an API key by its id', positionals: '<key_id>', schema: pick('data', 'json') },
  'clients create': {
    summary: 'register an OAuth client (its secret is shown once)',
    positionals: '',
    schema: pick('data', 'name', 'redirectUri', 'grantTypes', 'scopes', 'plan', 'quota', 'rate', 'country', 'json'),
    describe: { name: 'name of the OAuth client, shown on the consent page (required)' },
  },
  'clients list': { summary: 'list OAuth clients (never their secrets)', positionals: '', schema: pick('data', 'json') },
  'clients revoke': {
    summary: 'revoke an OAuth client: its tokens stop working at once',
    positionals: '<client_id>',
    schema: pick('data', 'json'),
  },
  'users create': {
    summary: 'create a user who can log in to the OAuth consent page',
    positionals: '',
    schema: pick('data', 'email', 'name', 'passwordStdin', 'json'),
    describe: { name: "the user's display name, shown on the consent page and as the name claim of the profile scope (required)" },
  },
  'users list': { summary: 'list users (never their password hashes)', positionals: '', schema: pick('data', 'json') },
  'users disable': {
    summary: 'disable a user: no login, their tokens stop working at once',
    positionals: '<user_id|email>',
    schema: pick('data', 'json'),
  },
  'feeds build': {
    summary: 'build a feed now (--full or --incremental) and prune old ones',
    positionals: '',
    schema: pick('data', 'full', 'incremental', 'feedsRetention', 'json'),
  },
  'feeds list': { summary: 'list the built feeds with their sizes and checksums', positionals: '', schema: pick('data', 'json') },
  'feeds prune': { summary: 'remove feeds past their retention', positionals: '', schema: pick('data', 'feedsRetention', 'json') },
  sync: {
    summary: "make this data directory a replica of a primary's catalog from its feeds (tracks.dump.get)",
    positionals: '',
    schema: pick('data', 'from', 'apikey', 'bearer', 'every', 'batch', 'readThreads', 'noIndex', 'json', 'nice'),
  },
  'contributions list': {
    summary: 'list lyrics and feedback users sent (track.lyrics.post, track.lyrics.feedback.post), oldest first',
    positionals: '',
    schema: pick('data', 'status', 'limit', 'json'),
  },
  'contributions show': {
    summary: 'show one contribution: proposed lyrics as a diff against the current ones',
    positionals: '<contribution_id>',
    schema: pick('data', 'json'),
  },
  'contributions approve': {
    summary: "approve contributions: lyrics replace the track's (change log, feeds, index follow); feedback is marked done",
    positionals: '<contribution_id…>',
    schema: pick('data', 'json'),
  },
  'contributions reject': {
    summary: 'reject contributions; the catalog is untouched',
    positionals: '<contribution_id…>',
    schema: pick('data', 'reason', 'json'),
  },
  'oauth-keys rotate': {
    summary: 'add a new OAuth signing key; tokens signed with the old ones keep verifying',
    positionals: '',
    schema: pick('data', 'retire', 'json'),
  },
  loadtest: {
    summary: 'load-test a Refrain server with a realistic mix: latencies, capacity, a report (docs/loadtest.md)',
    positionals: '',
    schema: pick(
      'target', 'apikey', 'bearer', 'iOwnThisTarget', 'mix', 'duration', 'rate', 'connections', 'ramp', 'slo', 'rampStep', 'rampFrom',
      'timeout', 'discoverTracks', 'discoverLyrics', 'seed', 'html', 'json', 'progress',
    ),
    describe: {
      rate: 'open loop: requests per second at a constant arrival rate, latency counted from each intended send time (0: 200; with --ramp: its ceiling, 0: 100000)',
      apikey: 'API key to load-test with (its plan must allow the mix: fingerprint needs enterprise); counts against its quota',
      bearer: 'an OAuth access token to load-test with, instead of --apikey',
      seed: 'random seed of the requests: the same seed and catalog give the same requests',
      json: 'print the report as one JSON object on standard output (the summary goes to standard error)',
    },
  },
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandConfig<C extends CommandName> = z.output<(typeof COMMANDS)[C]['schema']>;
export type ServeConfig = CommandConfig<'serve'>;

const kebab = (camel: string): string => camel.replace(/[A-Z0-9]+/g, (m) => `-${m.toLowerCase()}`);
const camel = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function metaOf(schema: z.ZodType): OptionMeta {
  return (schema.meta() ?? { description: '' }) as unknown as OptionMeta;
}

/** A problem with the command line, shown with the command's usage. */

/**
 * Parse `argv` (after the command words) for a command: flags win over environment variables,
 * which win over defaults. Throws a `usage` RefrainError naming the flag on any bad value or unknown flag.
 */
export function parseCommand<C extends CommandName>(
  command: C,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { config: CommandConfig<C>; positionals: string[]; explicit: ReadonlySet<string> } {
  const { schema } = COMMANDS[command];
  const shape = schema.shape as Record<string, z.ZodType>;
  const raw: Record<string, unknown> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = camel(arg.slice(2, eq === -1 ? undefined : eq));
    const field = shape[name];
    if (!field) throw new RefrainError('usage', `unknown option ${arg.split('=')[0]} for "${command}"`);
    if (eq !== -1) raw[name] = arg.slice(eq + 1);
    else if (isBoolean(field) && (argv[i + 1] === undefined || argv[i + 1].startsWith('--') || !isBoolWord(argv[i + 1])))
      raw[name] = 'true';
    else if (argv[i + 1] === undefined) throw new RefrainError('usage', `option --${kebab(name)} needs a value`);
    else raw[name] = argv[++i];
  }
  for (const [name, field] of Object.entries(shape)) {
    const envName = metaOf(field).env;
    if (raw[name] === undefined && envName && env[envName] !== undefined && env[envName] !== '') raw[name] = env[envName];
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue.path[0] ?? '');
    const envName = key && shape[key] ? metaOf(shape[key]).env : undefined;
    const where = key ? `--${kebab(key)}${envName ? ` (or ${envName})` : ''}` : 'options';
    throw new RefrainError('usage', `${where}: ${issue.message}`);
  }
  // `explicit`: the options the operator set (flag or environment), as opposed to defaults.
  return { config: parsed.data as CommandConfig<C>, positionals, explicit: new Set(Object.keys(raw)) };
}

const isBoolWord = (s: string): boolean => /^(true|false|1|0|yes|no)$/i.test(s);

function isBoolean(field: z.ZodType): boolean {
  // Boolean options are the ones whose default parses `true`: cheap and exact for this table.
  return field.safeParse('true').success && field.safeParse(true).success && !field.safeParse('x').success;
}

function describeDefault(field: z.ZodType): string {
  const def = field.safeParse(undefined);
  if (!def.success || def.data === undefined) return '';
  return ` (default: ${JSON.stringify(def.data)})`;
}

/** `--help` text of a command, generated from its schema. */
export function helpText(command: CommandName): string {
  const { schema, summary, positionals } = COMMANDS[command];
  // A shared option (--name) may mean something particular to this command.
  const describe = ((COMMANDS[command] as { describe?: Record<string, string> }).describe ?? {}) as Record<string, string>;
  const lines = [`refrain ${command}${positionals ? ` ${positionals}` : ''} [options]`, '', `  ${summary}`, '', 'Options:'];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const meta = metaOf(field);
    const flag = `--${kebab(name)}${isBoolean(field) ? '' : ' <value>'}`;
    lines.push(`  ${flag.padEnd(26)} ${describe[name] ?? meta.description}${describeDefault(field)}${meta.env ? ` [env ${meta.env}]` : ''}`);
  }
  lines.push(`  ${'--help'.padEnd(26)} show this help`);
  return lines.join('\n');
}

/** The whole option table as Markdown, for docs/configuration.md (written by scripts/docs-config.ts). */
export function optionsMarkdown(): string {
  const rows = ['| flag | env | default | commands | meaning |', '|---|---|---|---|---|'];
  for (const [name, field] of Object.entries(OPTIONS) as [string, z.ZodType][]) {
    const meta = metaOf(field);
    const commands = (Object.keys(COMMANDS) as CommandName[]).filter((c) => name in COMMANDS[c].schema.shape);
    const def = describeDefault(field).replace(/^ \(default: (.*)\)$/, '$1');
    rows.push(`| \`--${kebab(name)}\` | ${meta.env ? `\`${meta.env}\`` : ''} | ${def ? `\`${def}\`` : ''} | ${commands.join(', ')} | ${meta.description} |`);
  }
  return rows.join('\n');
}
