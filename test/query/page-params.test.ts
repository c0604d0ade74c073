/** `page` and `size` each have one message for every bad value, on the list and the aggregate routes. */
import { describe, expect, it } from 'vitest';
import { parseAggregateRequest } from '../../core/query/aggregate-request.ts';
import { parseReadRequest } from '../../core/query/parse-request.ts';
import { ApiError } from '../../core/errors.ts';

function messageOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'BAD_REQUEST') return error.message;
    throw error;
  }
  throw new Error('accepted');
}

const PARSERS = [
  ['list', (query: Record<string, string>) => parseReadRequest(query)],
  ['aggregate', (query: Record<string, string>) => parseAggregateRequest({ metrics: 'count', ...query })],
] as const;

describe.each(PARSERS)('page and size on the %s route', (_route, parse) => {
  it.each(['-1', '0', '1001', 'abc', '1.5', '99999999999'])('size=%s says what size takes', (value) => {
    expect(messageOf(() => parse({ size: value }))).toBe(`'size' must be an integer between 1 and 1000, got '${value}'`);
  });

  it.each(['-1', 'abc', '1.5', '99999999999'])('page=%s says what page takes', (value) => {
    expect(messageOf(() => parse({ page: value }))).toBe(`'page' must be an integer between 0 and 999999999, got '${value}'`);
  });

  it('the bounds themselves are accepted', () => {
    expect(() => parse({ size: '1', page: '0' })).not.toThrow();
    expect(() => parse({ size: '1000' })).not.toThrow();
  });
});
