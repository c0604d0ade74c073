/**
 * The bench's scenario catalogue: every `--only` name `npm run bench` took before the bench was
 * shelved by scenario still selects the same scenarios, and `--list` names files that exist.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, formatCatalogue, selectNames, unknownNames } from '../../bench/catalogue.ts';

const ROOT = new URL('../../bench/', import.meta.url).pathname;
const selected = (...only: string[]): string[] => [...selectNames(only)].sort();

describe('bench catalogue', () => {
  it('selects every scenario without --only', () => {
    expect(selectNames(null).size).toBe(CATALOGUE.length);
  });

  it('keeps the single-scenario names, in any case', () => {
    for (const name of ['A-none', 'B-none', 'B-exact', 'B-estimated', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'M', 'memory', 'start', 'formula', 'import', 'admin']) {
      expect(selected(name), name).toEqual([name]);
      expect(selected(name.toLowerCase()), name).toEqual([name]);
    }
    expect(selected('maria')).toEqual(['M']);
    expect(selected('mem')).toEqual(['memory']);
    expect(selected('bulk')).toEqual(['import']);
  });

  it('selects a letter group and the named groups', () => {
    expect(selected('A')).toEqual(['A', 'A-none']);
    expect(selected('B')).toEqual(['B-estimated', 'B-exact', 'B-none']);
    expect(selected('reads')).toEqual(['E', 'F', 'G']);
    expect(selected('aggregate-export')).toEqual(['H', 'I']);
    expect(selected('cluster')).toEqual(['J', 'K']);
    expect(selected('C', 'reads', 'formula')).toEqual(['C', 'E', 'F', 'G', 'formula']);
  });

  it('names the numbered group names as unknown instead of measuring nothing', () => {
    expect(unknownNames(['15', 'C', '16', '18'])).toEqual(['15', '16', '18']);
    expect(unknownNames(null)).toEqual([]);
  });

  it('lists every scenario with a file that exists', () => {
    const listed = formatCatalogue();
    for (const entry of CATALOGUE) {
      expect(listed).toContain(`  ${entry.name} `);
      expect(existsSync(`${ROOT}${entry.file}`), entry.file).toBe(true);
    }
  });
});
