import t from 'tap';
import { JsonFragment, SerializedBody, serializeBody } from '../../src/api/serialized.js';

t.test('fragments are spliced in as their bytes', async (t) => {
  const body = { a: 1, text: new JsonFragment(Buffer.from('"caf\u00e9 \\"quoted\\""')), list: [new JsonFragment(Buffer.from('[1,2]')), 'x'] };
  const out = serializeBody(body);
  t.type(out, SerializedBody);
  t.equal(out.bytes.toString('utf8'), '{"a":1,"text":"café \\"quoted\\"","list":[[1,2],"x"]}');
  t.same(JSON.parse(out.bytes.toString('utf8')), { a: 1, text: 'café "quoted"', list: [[1, 2], 'x'] });
});

t.test('a fragment serialised any other way is parsed back, and a string like the mark cannot cut a body', async (t) => {
  const fragment = new JsonFragment(Buffer.from('{"k":"v"}'));
  t.equal(JSON.stringify({ f: fragment }), '{"f":{"k":"v"}}', 'plain JSON.stringify');
  const tricky = { name: '\u0000json-fragment\u0000', f: fragment };
  t.same(JSON.parse(serializeBody(tricky).bytes.toString('utf8')), { name: '\u0000json-fragment\u0000', f: { k: 'v' } });
  t.equal(serializeBody({ none: true }).bytes.toString('utf8'), '{"none":true}');
});
