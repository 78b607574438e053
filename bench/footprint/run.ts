/**
 * bench/footprint: what a data directory spends per track, by record kind (the size issue's first
 * measurement: where the bytes of a catalog go before any of them is cut).
 *
 *   npm run bench:footprint -- [--data DIR]
 *
 * Reads the catalog's LMDB environment read-only: for every database its entries, the pages its
 * B-tree holds (leaf, branch and overflow pages: what it costs on disk and in the page cache), and
 * the bytes of its values (the records as stored, without keys or page overhead); the file's size
 * and its free pages; and the sizes of the other parts of the data directory (index generations,
 * feeds, OAuth, secrets). Per track = divided by the catalog's track count.
 */
import { open } from 'lmdb';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from '../lib/args.js';
import { bytesUnder, machine } from '../lib/measure.js';
import { DATA_DIR, writeResult } from '../lib/paths.js';

const { data } = benchArgs({ data: path.join(DATA_DIR, 'catalog-1000000') });

interface Row {
  name: string;
  /** Entries, without a record database's shared-structures entry (its reserved first or last key). */
  entries: number;
  pageBytes: number;
  valueBytes: number;
  keyBytes: number;
}

/** Where a record database keeps its shared structures (src/catalog/store.ts), as a uint32 key's bytes: 0, or STRUCTURES_KEY in older catalogs. */
const STRUCTURES = [Buffer.from([0, 0, 0, 0]), Buffer.from([0xff, 0xff, 0xff, 0xff])];
const root = open({ path: path.join(data, 'catalog'), readOnly: true, maxDbs: 128 });
const env = root.getStats() as { pageSize: number; lastPageNumber: number; free: { treeLeafPageCount: number; overflowPages: number; entryCount: number } };
const names = [...root.getKeys({})].map(String);
const rows: Row[] = [];
for (const name of names) {
  const db = root.openDB({ name, encoding: 'binary', keyEncoding: 'binary' });
  const stats = db.getStats() as { entryCount: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number; pageSize: number };
  let valueBytes = 0;
  let keyBytes = 0;
  let structures = 0;
  for (const { key, value } of db.getRange({})) {
    valueBytes += (value as Buffer).length;
    keyBytes += (key as Buffer).length;
    if (STRUCTURES.some((k) => k.equals(key as Buffer))) structures++;
  }
  rows.push({ name, entries: stats.entryCount - structures, pageBytes: (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages) * stats.pageSize, valueBytes, keyBytes });
}
const tracks = rows.find((r) => r.name === 'tracks')?.entries ?? 0;
await root.close();

const file = statSync(path.join(data, 'catalog', 'data.mdb')).size;
const usedPages = rows.reduce((n, r) => n + r.pageBytes, 0);
const parts = readdirSync(data, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'catalog')
  .map((e) => ({ name: e.name, bytes: bytesUnder(path.join(data, e.name)) }));
const directory = bytesUnder(data);

const mb = (n: number) => (n / 1e6).toLocaleString('en', { maximumFractionDigits: 1 });
const per = (n: number) => (tracks ? (n / tracks).toLocaleString('en', { maximumFractionDigits: 0 }) : '—');
const shown = rows.filter((r) => r.entries > 0).sort((a, b) => b.pageBytes - a.pageBytes);
const table = [
  `bench/footprint — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}`,
  `data directory ${data}: ${tracks.toLocaleString('en')} tracks; ${mb(directory)} MB in all = ${per(directory)} B per track`,
  '',
  '| catalog database | entries | B-tree pages, MB | per track, B | values, MB | value bytes per entry | keys, MB |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...shown.map((r) => `| ${r.name} | ${r.entries.toLocaleString('en')} | ${mb(r.pageBytes)} | ${per(r.pageBytes)} | ${mb(r.valueBytes)} | ${r.entries ? Math.round(r.valueBytes / r.entries).toLocaleString('en') : '—'} | ${mb(r.keyBytes)} |`),
  `| **all databases** | | **${mb(usedPages)}** | **${per(usedPages)}** | ${mb(rows.reduce((n, r) => n + r.valueBytes, 0))} | | ${mb(rows.reduce((n, r) => n + r.keyBytes, 0))} |`,
  '',
  `catalog/data.mdb: ${mb(file)} MB on disk (${per(file)} B per track); pages in the databases' trees ${mb(usedPages)} MB; ` +
    `the rest is LMDB's free pages and the file's growth margin (free list: ${env.free.entryCount.toLocaleString('en')} entries).`,
  '',
  '| rest of the data directory | MB | per track, B |',
  '|---|---:|---:|',
  ...parts.map((p) => `| ${p.name}/ | ${mb(p.bytes)} | ${per(p.bytes)} |`),
].join('\n');
console.log(table);
writeResult('footprint', table, { at: new Date().toISOString(), machine: machine(), data, tracks, file, directory, rows, parts, pageSize: env.pageSize });
