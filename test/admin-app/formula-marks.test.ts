/** The formula editor's error marking (plugins/admin-app/ui/src/lib/formula-marks.ts), without a browser. */
import { describe, expect, it } from 'vitest';
import { markFor, withPosition } from '../../plugins/admin-app/ui/src/lib/formula-marks.ts';

describe('formula editor marks', () => {
  it('marks the character at the offset the service names (gate 1 and the checker)', () => {
    const text = "amount + 'x'";
    const mark = markFor(text, { message: 'operator + expects numbers, got text on the right', position: { offset: 9, line: 1, column: 10 }, reason: 'type_mismatch' });
    expect(text.slice(mark.from, mark.to)).toBe("'");
    expect(mark.message).toBe('operator + expects numbers, got text on the right (line 1, column 10)');
  });

  it('a formula cut short is marked at its end, with no width beyond the text', () => {
    const text = 'amount + ';
    const mark = markFor(text, { message: 'expected a value but found the end of the formula', position: { offset: 9, line: 1, column: 10 }, reason: 'syntax' });
    expect(mark).toMatchObject({ from: 9, to: 9 });
  });

  it('an offset past the text (the text changed since the check) is pulled back inside it', () => {
    expect(markFor('ab', { message: 'x', position: { offset: 40, line: 1, column: 41 } })).toMatchObject({ from: 2, to: 2 });
  });

  it('a refusal by the database (gate 2) marks the whole formula, since no one character is at fault', () => {
    const text = 'amount / 0';
    expect(markFor(text, { message: 'the formula divides by zero', position: { offset: 0, line: 1, column: 1 }, reason: 'database' })).toMatchObject({ from: 0, to: text.length });
  });

  it('a refusal without a position (the service unreachable) marks the whole formula', () => {
    expect(markFor('abc', { message: 'the service answered 503' })).toEqual({ from: 0, to: 3, message: 'the service answered 503' });
  });
});

describe('a formula error names its position once', () => {
  const position = { offset: 37, line: 1, column: 38 };
  it('adds the position to a message that does not say it', () => {
    expect(withPosition('operator + expects numbers', position)).toBe('operator + expects numbers (line 1, column 38)');
    expect(markFor('x'.repeat(40), { message: 'operator + expects numbers', position }).message).toBe('operator + expects numbers (line 1, column 38)');
  });
  it('does not repeat a position the message already names', () => {
    expect(withPosition("unexpected character '#' at column 38", position)).toBe("unexpected character '#' at column 38");
    expect(markFor('x'.repeat(40), { message: "unexpected character '#' at column 38", position }).message).toBe("unexpected character '#' at column 38");
  });
});
