import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sparkGeometry } from '../../components/console/health/spark-geometry';

// The health home's sparkline: 120×28 with 3 px padding; 100 % at the top (y 3), 0 % at the bottom (y 25).

test('a run of buckets is one path, top for 100 % and bottom for 0 %', () => {
  const { paths, dots } = sparkGeometry([100, 50, 0]);
  assert.deepEqual(paths, ['M3.0,3.0 L60.0,14.0 L117.0,25.0']);
  assert.deepEqual(dots, []);
});

test('buckets without attempts break the line; a bucket alone is a dot', () => {
  const { paths, dots } = sparkGeometry([100, 100, null, 0, null, null, 50]);
  assert.equal(paths.length, 1, 'only the first run has two points');
  assert.match(paths[0], /^M3\.0,3\.0 L22\.0,3\.0$/);
  assert.deepEqual(dots, [
    [60, 25],
    [117, 14],
  ]);
});

test('one bucket alone sits in the middle; no buckets draw nothing', () => {
  assert.deepEqual(sparkGeometry([80]), { paths: [], dots: [[60, 7.4]] });
  assert.deepEqual(sparkGeometry([]), { paths: [], dots: [] });
  assert.deepEqual(sparkGeometry([null, null]), { paths: [], dots: [] });
});
