/**
 * `refrain loadtest`: the operator's load test of a deployment (docs/loadtest.md). A progress line
 * on stderr while it runs (when stderr is a terminal, or with --progress), the summary at the end
 * (stdout; stderr with --json, which prints the report as JSON on stdout), and the HTML report.
 * Ctrl-C ends the load early and still reports; a second Ctrl-C leaves at once.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandConfig } from '../config.js';
import { RefrainError } from '../errors.js';
import { htmlReport } from '../loadtest/html.js';
import { summaryText } from '../loadtest/report.js';
import { runLoadtest } from '../loadtest/run.js';

export async function runLoadtestCommand(config: CommandConfig<'loadtest'>): Promise<number> {
  if (config.apikey === undefined && config.bearer === undefined) throw new RefrainError('usage', 'give --apikey KEY or --bearer TOKEN: the target answers nothing without credentials');
  if (config.apikey !== undefined && config.bearer !== undefined) throw new RefrainError('usage', 'give --apikey or --bearer, not both');
  const showProgress = config.progress ?? Boolean(process.stderr.isTTY);
  let drawn = false;
  const progress = (line: string) => {
    if (!showProgress) return;
    process.stderr.write(`\r${line.slice(0, (process.stderr.columns || 120) - 1).padEnd(drawn ? 80 : 0)}`);
    drawn = true;
  };
  const endProgress = () => {
    if (drawn) process.stderr.write('\n');
    drawn = false;
  };
  // The first Ctrl-C ends the load and reports what was measured; a second one leaves at once.
  const stop = new AbortController();
  const onInterrupt = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  process.on('SIGINT', onInterrupt);
  const report = await runLoadtest(
    {
      target: config.target,
      credentials: config.apikey !== undefined ? { apikey: config.apikey } : { bearer: config.bearer! },
      allowRemote: config.iOwnThisTarget,
      mix: config.mix,
      durationSeconds: config.duration,
      rate: config.rate > 0 ? config.rate : undefined,
      connections: config.connections,
      ramp: config.ramp ? { sloMs: config.slo, stepSeconds: config.rampStep, from: config.rampFrom } : undefined,
      timeoutSeconds: config.timeout,
      discoverTracks: config.discoverTracks,
      discoverLyrics: config.discoverLyrics,
      seed: config.seed,
      signal: stop.signal,
    },
    {
      progress,
      warn: (line) => {
        endProgress();
        process.stderr.write(`warning: ${line}\n`);
      },
    },
  ).finally(() => {
    endProgress();
    process.off('SIGINT', onInterrupt);
  });
  const summary = summaryText(report);
  if (config.json) {
    process.stderr.write(`${summary}\n`);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else process.stdout.write(`${summary}\n`);
  if (config.html) {
    const file = path.resolve(config.html);
    writeFileSync(file, htmlReport(report));
    process.stderr.write(`report: ${file}\n`);
  }
  return report.overall.requests > 0 && report.overall.failed === report.overall.requests ? 1 : 0;
}
