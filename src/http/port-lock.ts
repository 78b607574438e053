/**
 * One server per port when several HTTP threads share it (docs/http-threads-plan.md §7). The
 * threads must bind with SO_REUSEPORT, which would also let a second server join silently, so
 * before they bind:
 * - `probePort` holds the port with an exclusive `node:net` listener, which fails against any
 *   listener, SO_REUSEPORT ones included, and picks the port when 0 is asked (uWS binds port 0
 *   without SO_REUSEPORT, so the threads need a number);
 * - `lockPort` takes a Linux abstract socket named after the user and the port, which the kernel
 *   releases when the process dies: another Refrain finds it taken for as long as this one serves.
 * The probe is released the moment the threads bind; the lock is kept until the server stops.
 */
import { createServer, type Server } from 'node:net';
import { userInfo } from 'node:os';
import { RefrainError } from '../errors.js';
import { listenFailure } from './server.js';

export interface HeldPort {
  port: number;
  release(): Promise<void>;
}

/** Holds `host:port` exclusively (the startup error when it cannot be used). */
export async function probePort(host: string, port: number): Promise<HeldPort> {
  const server = createServer();
  try {
    await listenOn(server, { host, port, exclusive: true });
  } catch {
    throw new RefrainError('startup', `cannot listen on ${host}:${port}: ${await listenFailure(host, port)}`);
  }
  const bound = (server.address() as { port: number }).port;
  return { port: bound, release: () => closeServer(server) };
}

/** Takes this user's lock on `port` (the startup error when another server of this user holds it). */
export async function lockPort(port: number): Promise<HeldPort> {
  const server = createServer();
  try {
    await listenOn(server, { path: `\0refrain-serve:${userInfo().uid}:${port}` });
  } catch {
    throw new RefrainError('startup', `cannot listen on port ${port}: another refrain serve of this user holds it; stop it or choose another --port`);
  }
  server.unref();
  return { port, release: () => closeServer(server) };
}

function listenOn(server: Server, options: { host?: string; port?: number; exclusive?: boolean; path?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const closeServer = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
