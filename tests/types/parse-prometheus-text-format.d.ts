// The parser the metrics test reads /metrics with ships no types; its output (prom2json's shape).
declare module 'parse-prometheus-text-format' {
  type TSample = { labels?: Record<string, string>; value?: string; count?: string; sum?: string; buckets?: Record<string, string> };
  type TFamily = { name: string; help: string; type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'; metrics: TSample[] };
  export default function parsePrometheusTextFormat(text: string): TFamily[];
}
