/** Strict checks for admin payloads: nothing is coerced (DESIGN §12); problems are VALIDATION_FAILED. */
import { badRequest, validationFailed, type FieldProblem } from './errors.ts';
import { textProblem } from './text.ts';

/** A JSON body that must be an object (not an array, a scalar or null). */
export function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
  return body as Record<string, unknown>;
}

export const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Every string of a payload (values and keys, at any depth) that cannot be stored, with its dotted
 * path (`database.url`, `members[2]`). Iterative: a deeply nested body must not exhaust the stack.
 */
function badStrings(body: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const pending: [string, unknown][] = Object.entries(body);
  while (pending.length > 0) {
    const [path, value] = pending.pop() as [string, unknown];
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) problems.push({ field: path, rule: 'type', message: problem });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([`${path}[${i}]`, item]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const problem = textProblem(key);
        if (problem) problems.push({ field: path, rule: 'type', message: `keys ${problem}` });
        else pending.push([`${path}.${key}`, item]);
      }
    }
  }
  return problems;
}

export class PayloadReader {
  readonly problems: FieldProblem[] = [];
  readonly body: Record<string, unknown>;

  constructor(body: unknown, private readonly allowed: readonly string[]) {
    this.body = requireObject(body);
    for (const key of Object.keys(this.body)) {
      if (!allowed.includes(key)) this.fail(key, 'unknown', `is not one of ${allowed.join(', ')}`);
    }
    // A NUL or a lone surrogate anywhere is named once here, so no reader below need look for them.
    this.problems.push(...badStrings(this.body));
  }

  /** True when `key` (or something inside it) already has a problem: a reader then adds no second one. */
  private failed(key: string): boolean {
    return this.problems.some((p) => p.field === key || p.field.startsWith(`${key}.`) || p.field.startsWith(`${key}[`));
  }

  has(key: string): boolean {
    return key in this.body;
  }

  fail(field: string, rule: string, message: string): undefined {
    this.problems.push({ field, rule, message });
    return undefined;
  }

  string(key: string, options: { required?: boolean; pattern?: RegExp; patternText?: string } = {}): string | undefined {
    const value = this.body[key];
    if (value === undefined) return options.required ? this.fail(key, 'required', 'is required') : undefined;
    if (typeof value !== 'string' || value.trim() === '') return this.fail(key, 'type', 'must be a non-empty string');
    if (this.failed(key)) return undefined;
    if (options.pattern && !options.pattern.test(value)) return this.fail(key, 'pattern', `must match ${options.patternText ?? options.pattern.source}`);
    return value;
  }

  boolean(key: string, required = false): boolean | undefined {
    const value = this.body[key];
    if (value === undefined) return required ? this.fail(key, 'required', 'is required') : undefined;
    if (typeof value !== 'boolean') return this.fail(key, 'type', 'must be true or false');
    return value;
  }

  integer(key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const value = this.body[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      return this.fail(key, 'type', `must be an integer from ${min} to ${max}`);
    }
    return value;
  }

  /** `null` clears an option; undefined leaves it alone. */
  stringList(key: string): string[] | null | undefined {
    const value = this.body[key];
    if (value === undefined || value === null) return value;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
      return this.fail(key, 'type', 'must be an array of non-empty strings or null');
    }
    if (this.failed(key)) return undefined;
    return value as string[];
  }

  done(): void {
    if (this.problems.length > 0) throw validationFailed(this.problems);
  }
}
