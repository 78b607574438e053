/** Territory codes: countries, the world, UN M49 areas, and the countries each covers. */
import t from 'tap';
import { isTerritory, normalizeTerritory, territoryCountries } from '../../src/works/territories.js';

t.test('a country covers itself', async (t) => {
  t.same(territoryCountries('IT'), ['IT']);
  t.same(territoryCountries(' it '), ['IT'], 'any case, trimmed');
  t.same(territoryCountries('380'), ['IT'], 'its UN M49 number too');
  t.equal(normalizeTerritory(' world '), 'WORLD');
});

t.test('the world covers every ISO 3166-1 country', async (t) => {
  const world = territoryCountries('XW')!;
  t.ok(world.length >= 249, `${world.length} countries`);
  t.same(territoryCountries('WORLD'), world);
  t.same(territoryCountries('001'), world);
  t.ok(world.includes('TW') && world.includes('US') && world.includes('AQ'));
  t.same([...world].sort(), world, 'sorted');
});

t.test('UN M49 regions, sub-regions and intermediate regions', async (t) => {
  const europe = territoryCountries('150')!;
  for (const c of ['IT', 'FR', 'DE', 'NO', 'GB', 'PL', 'XK']) t.ok(europe.includes(c), `Europe has ${c}`);
  t.notOk(europe.includes('US'));
  t.notOk(europe.includes('TR'), 'Turkey is in Western Asia for UN M49');
  t.same(territoryCountries('155')!.filter((c) => ['FR', 'DE', 'IT'].includes(c)), ['DE', 'FR'], 'Western Europe');
  t.ok(territoryCountries('419')!.includes('BR') && territoryCountries('419')!.includes('MX'), 'Latin America and the Caribbean');
  t.ok(territoryCountries('005')!.includes('AR'), 'South America');
  t.notOk(territoryCountries('005')!.includes('MX'));
  t.ok(territoryCountries('142')!.includes('TW'), 'Asia includes Taiwan (left out of UN M49, placed in Eastern Asia)');
  t.ok(territoryCountries('030')!.includes('JP'));
  t.ok(territoryCountries('002')!.includes('NG') && territoryCountries('202')!.includes('NG'), 'Africa and Sub-Saharan Africa');
  t.ok(territoryCountries('009')!.includes('AU'), 'Oceania');
  t.ok(territoryCountries('019')!.includes('US') && territoryCountries('021')!.includes('CA'), 'Americas, Northern America');
});

t.test('unknown codes', async (t) => {
  for (const code of ['XY', 'UK', 'EU', '999', '', 'EUROPE']) {
    t.equal(territoryCountries(code), undefined, code || '(empty)');
    t.equal(isTerritory(code), false);
  }
});
