/**
 * The transport: one uWS app listening on one address, every route mounted through the connection
 * rules (connection.ts). It knows nothing of what the routes answer: the composition root
 * (src/app.ts) builds the services and mounts their routes once the port is known.
 */
import { createServer as createNetServer } from 'node:net';
import { uws, type TemplatedApp, type us_listen_socket } from './uws.js';
import { withConnectionRules, type ConnectionLimits } from './connection.js';
import { RefrainError } from '../errors.js';

export type Routes = TemplatedApp;

export interface ListenOptions {
  host: string;
  /** 0 for any free port. */
  port: number;
  limits: ConnectionLimits;
  /**
   * Bind with SO_REUSEPORT, beside the server's other HTTP threads (port-lock.ts keeps other servers
   * out first). Otherwise the port is exclusive.
   */
  shared?: boolean;
}

export interface Listening<T> {
  port: number;
  /** What `mount` returned. */
  mounted: T;
  /** Stops listening (open connections finish their answers). */
  close(): void;
}

/**
 * Listens on `host:port` and calls `mount` with the app and the port before any request is read
 * (uWS calls the listen callback synchronously), and resolves with what `mount` returned; GET
 * routes answer HEAD too. Rejects with a
 * startup error (RefrainError, code `startup`) that names why when the address cannot be used.
 */
export function listen<T>(options: ListenOptions, mount: (routes: Routes, port: number) => T): Promise<Listening<T>> {
  const app = uws.App();
  const routes = withConnectionRules(app, options.limits);
  return new Promise((resolve, reject) => {
    // Exclusive: uWS would otherwise set SO_REUSEPORT, and a second server on the same port would
    // start and silently take half the connections.
    listenWith(app, options.host, options.port, options.shared ? 0 : EXCLUSIVE_PORT, (socket) => {
      if (!socket) {
        return void listenFailure(options.host, options.port).then((why) => reject(new RefrainError('startup', `cannot listen on ${options.host}:${options.port}: ${why}`)));
      }
      const port = uws.us_socket_local_port(socket);
      let mounted: T;
      try {
        mounted = mount(routes, port);
        routes.finish();
      } catch (e) {
        uws.us_listen_socket_close(socket);
        return reject(e);
      }
      let open = true;
      resolve({
        port,
        mounted,
        close() {
          if (open) uws.us_listen_socket_close(socket);
          open = false;
        },
      });
    });
  });
}

/** LIBUS_LISTEN_EXCLUSIVE_PORT: the native module exports it, its typings and the JS fallback do not. */
const EXCLUSIVE_PORT: number = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT?: number }).LIBUS_LISTEN_EXCLUSIVE_PORT ?? 1;

/** uWS's listen(host, port, options, cb): the typings only know the (port, options, cb) form. */
function listenWith(app: TemplatedApp, host: string, port: number, flags: number, cb: (socket: us_listen_socket | false) => void): void {
  (app.listen as unknown as (h: string, p: number, o: number, c: typeof cb) => void)(host, port, flags, cb);
}

/** Why uWS could not listen (it only says that it could not): node:net tries the same address and names the error. */
export function listenFailure(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') resolve(`port ${port} is already in use (another refrain serve, or another program, listens there); stop it or choose another --port`);
      else if (e.code === 'EACCES') resolve(`no permission to use port ${port} (ports below 1024 need privileges); choose another --port`);
      else if (e.code === 'EADDRNOTAVAIL') resolve(`${host} is not an address of this machine; choose another --host`);
      else resolve(`${e.code ?? 'error'}: ${e.message}`);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve('in use, or no permission')));
  });
}
