/**
 * Raw HTTP/1.1 over a TCP socket, for what fetch cannot show: pipelining, bytes after a HEAD answer,
 * requests a client library would refuse to send, and whether the server closes the connection.
 */
import net from 'node:net';

export interface RawResult {
  /** Everything the server sent, as latin1. */
  text: string;
  /** Status codes of the responses, in order. */
  statuses: number[];
  /** The server closed the connection (FIN or reset) before `timeoutMs`. */
  closed: boolean;
  /** Milliseconds until the close, or until the timeout. */
  ms: number;
}

/**
 * Write `parts` (strings; a number waits that many milliseconds) and read until the server closes the
 * connection or `timeoutMs` passes. `until`, when given, ends the read early once it holds.
 */
export function raw(port: number, parts: (string | Buffer | number)[], timeoutMs: number, until?: (text: string) => boolean): Promise<RawResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, statuses: statusesOf(text), closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (until?.(text)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', async () => {
      for (const part of parts) {
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else if (!socket.destroyed) socket.write(part);
      }
    });
  });
}

export function statusesOf(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

/** Split a response into its status, its headers (lower-case names) and the bytes after the blank line. */
export function parseResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const [line, ...fields] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const f of fields) {
    const colon = f.indexOf(':');
    headers[f.slice(0, colon).trim().toLowerCase()] = f.slice(colon + 1).trim();
  }
  return { status: Number(line.split(' ')[1]), headers, body: text.slice(end + 4) };
}
