/** GET /metrics, parsed with an independent Prometheus text parser. */
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';
import { expect } from 'vitest';

export interface Scrape {
  readonly families: ParsedFamily[];
  /** The sum of the samples of `name` whose labels include `labels`. */
  total(name: string, labels?: Record<string, string>): number;
  samples(name: string): readonly ParsedSample[];
}

export async function scrape(baseUrl: string, token?: string): Promise<Scrape> {
  const res = await fetch(`${baseUrl}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text());
  const samples = (name: string) => families.find((f) => f.name === name)?.metrics ?? [];
  const matches = (sample: ParsedSample, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => sample.labels?.[k] === v);
  return {
    families,
    samples,
    total: (name, labels = {}) => samples(name).filter((s) => matches(s, labels)).reduce((sum, s) => sum + Number(s.value ?? s.count ?? 0), 0),
  };
}
