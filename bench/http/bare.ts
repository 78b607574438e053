/**
 * The baseline of bench/http: a bare uWS app answering a small JSON "hello" on every path, on the
 * same uWS build as Refrain. Prints its port on stdout once listening.
 */
import { uws } from '../../src/http/uws.js';

const body = JSON.stringify({ message: { header: { status_code: 200, execute_time: 0 }, body: { hello: 'world' } } });
uws
  .App()
  .any('/*', (res) => {
    res.writeHeader('content-type', 'application/json');
    res.end(body);
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write(`${uws.us_socket_local_port(socket)}\n`);
  });
