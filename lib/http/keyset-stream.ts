/**
 * An NDJSON byte stream read page by page along a keyset cursor: the next page is read only once the
 * reader has taken this one (one page queued at most), and a failure part-way errors the stream (a
 * cut connection, never a short body that looks whole). `readPage(after)` returns the page's lines
 * and its last cursor, or null when it was the last page.
 */
export function keysetStream<C>(readPage: (after: C | null) => Promise<{ text: string; last: C | null }>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: C | null = null;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (done) return controller.close();
        const page = await readPage(after);
        after = page.last;
        done = !page.last;
        if (page.text) controller.enqueue(encoder.encode(page.text));
        if (done) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
