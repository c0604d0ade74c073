/**
 * The patch of csv-parse's internals (core/import/csv-parse-patch.ts) is written for one version.
 * These fail when the pinned library changes, so whoever upgrades it re-reads the patch: the
 * records stay right either way (the patch falls back), but the import would silently slow down.
 */
import { parse } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import { leanCast, PATCHED_VERSION } from '../../core/import/csv-parse-patch.ts';
import { installedVersion } from '../../core/library-version.ts';

describe('csv-parse patch', () => {
  it('is written for the installed csv-parse', () => {
    expect(installedVersion('csv-parse')).toBe(PATCHED_VERSION);
  });

  it('takes the short cast path on it', () => {
    expect(leanCast(parse({ cast: (value: unknown) => value }))).toBe(true);
  });
});
