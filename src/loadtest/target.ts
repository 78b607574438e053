/**
 * The target of a load test: an http(s) base URL. A run sends thousands of requests a second, so it
 * refuses any target that does not resolve to this machine's loopback addresses unless the operator
 * says it is theirs (`--i-own-this-target`).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { RefrainError } from '../errors.js';

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** The target's origin (scheme, host, port), checked; `allowRemote` lifts the loopback rule. */
export async function checkTarget(url: string, allowRemote: boolean): Promise<URL> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new RefrainError('usage', `--target: "${url}" is not a URL; e.g. http://127.0.0.1:8080`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new RefrainError('usage', `--target: ${target.protocol} is not http: or https:`);
  if (allowRemote) return target;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new RefrainError('usage', `--target: cannot resolve ${host}`);
  }
  const remote = addresses.filter((a) => !isLoopback(a));
  if (remote.length > 0) {
    throw new RefrainError(
      'usage',
      `--target: ${host} is not this machine (${remote.join(', ')}); a load test can overwhelm a server, so only loopback targets are accepted unless you pass --i-own-this-target`,
    );
  }
  return target;
}
