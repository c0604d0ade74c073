/** The README as a newcomer pastes it into a shell. */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const readme = readFileSync(`${ROOT}README.md`, 'utf8');

/** Shell commands of the README's sh blocks, continuation lines joined. */
function shellCommands(): string[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return blocks.flatMap((block) => block.replace(/\\\n/g, ' ').split('\n')).filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

describe('README examples', () => {
  it('turn off curl globbing wherever a URL has brackets (filter[...] fails in a shell otherwise)', () => {
    const curls = shellCommands().filter((line) => /\bcurl\b/.test(line));
    expect(curls.length).toBeGreaterThan(10);
    const urls = (line: string): string[] => [...line.matchAll(/"?((?:\$BASE|https?:\/\/)[^"\s]*)"?/g)].map((m) => m[1] ?? '');
    expect(curls.some((line) => urls(line).some((url) => url.includes('[')))).toBe(true);
    const unguarded = curls.filter((line) => urls(line).some((url) => url.includes('[')) && !/\s(-g|--globoff)\s/.test(` ${line} `));
    expect(unguarded).toEqual([]);
  });

  it('name files that ship with the clone', () => {
    const files = shellCommands().flatMap((line) => [...line.matchAll(/@(\S+\.csv)/g)].map((m) => m[1] ?? ''));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(`${ROOT}${file}`), file).toBe(true);
  });

  it('run the command line from the clone without npx (which would look the name up in the registry)', () => {
    expect(shellCommands().filter((line) => /\bnpx wdapi\b/.test(line))).toEqual([]);
    expect(shellCommands().some((line) => /npm run wdapi --/.test(line))).toBe(true);
  });
});
