/** Only loopback targets unless the operator says the target is theirs. */
import t from 'tap';
import { checkTarget, isLoopback } from '../../src/loadtest/target.js';
import { isError } from '../../src/errors.js';

/** The usage error's hint a call is refused with ('' when it is not refused that way). */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return '';
  } catch (e) {
    return isError(e, 'usage') ? e.hint : `not a usage error: ${String(e)}`;
  }
}

t.test('loopback addresses', async (t) => {
  for (const a of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', '::ffff:127.0.0.1']) t.ok(isLoopback(a), a);
  for (const a of ['10.0.0.1', '192.0.2.7', '0.0.0.0', '::', '::ffff:10.0.0.1', '2001:db8::1', 'localhost']) t.notOk(isLoopback(a), a);
});

t.test('a target that is not this machine is refused without --i-own-this-target', async (t) => {
  for (const url of ['http://192.0.2.7:8080', 'http://10.1.2.3', 'https://[2001:db8::1]/']) {
    t.match(await refusal(checkTarget(url, false)), /is not this machine .*only loopback targets .*--i-own-this-target/, url);
    t.equal((await checkTarget(url, true)).hostname.replace(/^\[|\]$/g, '').length > 0, true, `${url} with --i-own-this-target`);
  }
  for (const url of ['http://127.0.0.1:8080', 'http://localhost:9', 'http://[::1]:8080/ws/1.1/']) t.ok(await checkTarget(url, false), url);
});

t.test('what is not an http(s) URL', async (t) => {
  t.match(await refusal(checkTarget('127.0.0.1:8080', false)), /is not http: or https:|is not a URL/, 'no scheme');
  t.match(await refusal(checkTarget('ftp://127.0.0.1/', false)), /ftp: is not http: or https:/);
  t.match(await refusal(checkTarget('not a url', false)), /"not a url" is not a URL; e.g. http:\/\/127.0.0.1:8080/);
});
