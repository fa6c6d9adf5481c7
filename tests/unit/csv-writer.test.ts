import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvHeader, csvLine, csvRows, money } from '../../lib/console/export/csv-writer';

// The console's one CSV writer (issue 49, item 5): a text cell a spreadsheet would run as a formula
// gets a leading apostrophe; a number stays a number. Every prefix, including the tab and CR that
// no donor name can start with (the Connect page and the API trim them).

const PREFIXES = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

test('a text cell starting like a formula is written with a leading apostrophe, wherever it is', () => {
  for (const p of PREFIXES) {
    const text = `${p}HYPERLINK("http://evil.test","x")`;
    const [[a, b, c]] = parse(csvRows([['ok', text, `mid${p}dle`]])) as string[][];
    assert.deepEqual([a, b, c], ['ok', `'${text}`, `mid${p}dle`], JSON.stringify(p));
    assert.equal((parse(csvLine([text])) as string[][])[0][0], `'${text}`, JSON.stringify(p));
  }
});

test('numbers stay numbers: a negative amount is summable; the same digits as text are escaped', () => {
  const [[amount, text, zero]] = parse(csvRows([[-1500, '-1500', 0]])) as string[][];
  assert.deepEqual([amount, text, zero], ['-1500', "'-1500", '0']);
});

test('a header first when columns are given; the header alone for an empty file', () => {
  assert.equal(csvRows([['a', 1]], ['name', 'amount']), 'name,amount\na,1\n');
  assert.equal(csvHeader(['name', 'amount']), 'name,amount\n');
  assert.equal(csvRows([[null, undefined, '']]), ',,\n');
});

// Issue 50.3: finance files the reconciliation; its money is a decimal with two places, a number a
// spreadsheet sums (a negative one too, never escaped as a formula).
test('a money cell is its cents as a decimal with two places, a negative one unescaped', () => {
  const [[a, b, c, d, e, f]] = parse(csvRows([[money(2500), money(5), money(0), money(-150), money(-5), money(10_000_000_099)]])) as string[][];
  assert.deepEqual([a, b, c, d, e, f], ['25.00', '0.05', '0.00', '-1.50', '-0.05', '100000000.99']);
  assert.equal(csvLine(['-1.50', money(-150), 7]), "'-1.50,-1.50,7", 'the same text typed is still escaped');
  assert.equal(csvLine([null, { other: 1 } as never]), ',"{""other"":1}"', 'another object is its JSON, as before');
});
