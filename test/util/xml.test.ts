import t from 'tap';
import { escapeXml, toXml } from '../../src/util/xml.js';

t.test('toXml shapes lists as the public API does', async (t) => {
  const xml = toXml({ message: { header: { status_code: 200 }, body: { track_list: [{ track: { id: 1 } }, { track: { id: 2 } }], tags: ['a', 'b'], none: null, empty: [] } } });
  t.equal(
    xml,
    '<?xml version="1.0" encoding="utf-8"?>\n<message><header><status_code>200</status_code></header><body>' +
      '<track_list><track><id>1</id></track><track><id>2</id></track></track_list><tags><item>a</item><item>b</item></tags><none/><empty></empty></body></message>',
  );
});

t.test('escapeXml escapes markup and drops characters XML cannot carry', async (t) => {
  t.equal(escapeXml(`<a href="x">&'</a>\u0001`), '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
});
