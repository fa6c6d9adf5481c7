// The health home's sparkline as SVG geometry (pure, so it is tested without a browser).

export const SPARK_W = 120;
export const SPARK_H = 28;
const W = SPARK_W;
const H = SPARK_H;
const PAD = 3;

/** The line's segments (runs of buckets with attempts) and lone points, in the SVG's coordinates. */
export function sparkGeometry(rates: (number | null)[]): { paths: string[]; dots: [number, number][] } {
  const n = rates.length;
  const x = (i: number) => (n <= 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (n - 1));
  const y = (r: number) => PAD + (1 - r / 100) * (H - 2 * PAD);
  const paths: string[] = [];
  const dots: [number, number][] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length > 1) paths.push(run.join(' '));
    run = [];
  };
  rates.forEach((r, i) => {
    if (r === null) return close();
    const pt = `${x(i).toFixed(1)},${y(r).toFixed(1)}`;
    run.push(`${run.length ? 'L' : 'M'}${pt}`);
    if ((rates[i - 1] ?? null) === null && (rates[i + 1] ?? null) === null) dots.push([Number(x(i).toFixed(1)), Number(y(r).toFixed(1))]);
  });
  close();
  return { paths, dots };
}
