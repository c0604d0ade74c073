/**
 * The checker: resolves names (resolve.ts), infers a type for every node and refuses clear
 * mismatches before gate 2 (DESIGN §7). It also decides every implicit conversion — NULL given
 * a type, a text literal read as a date, a date widened to a timestamp, any value turned into
 * text for CONCAT and `||` — so the evaluator and every dialect apply the same ones.
 */
import type { Entity, SchemaModel } from '../schema/model.ts';
import type { Expr, ExprKind, ExprOf, FieldRef } from './ast.ts';
import { checkCost } from './cost.ts';
import { formulaError, positionOf, setPosition } from './errors.ts';
import { functionRegistry, paramKindAt } from './functions.ts';
import { DEFAULT_MAX_DEPTH, resolveField, type ResolvedField } from './resolve.ts';
import type { FormulaType, ValueType } from './types.ts';
import { castAccepts, castValue, FormulaEvaluationError, parseDate, parseTimestamp, typeOfTarget } from './values.ts';

export interface CheckContext {
  readonly entity: Entity;
  readonly model: SchemaModel;
  /** Most relationships a field path may follow; default 3 (the entity's maxExpandDepth). */
  readonly maxDepth?: number;
}

export interface CheckedFormula {
  /** The tree with field paths normalised to API names. */
  readonly ast: Expr;
  readonly type: FormulaType;
  /** Referenced field paths (API names), each once, in order of appearance: the joins needed. */
  readonly refs: readonly (readonly string[])[];
  /** The inferred type of every node of `ast`. */
  readonly types: ReadonlyMap<Expr, FormulaType>;
  /** Implicit conversions: node → the type its parent reads it as. */
  readonly coercions: ReadonlyMap<Expr, ValueType>;
  readonly fields: ReadonlyMap<FieldRef, ResolvedField>;
}

function mismatch(node: Expr, message: string): Error {
  return formulaError('type_mismatch', message, positionOf(node));
}

class Checker {
  readonly types = new Map<Expr, FormulaType>();
  readonly coercions = new Map<Expr, ValueType>();
  readonly fields = new Map<FieldRef, ResolvedField>();
  readonly refs = new Map<string, readonly string[]>();

  constructor(readonly context: { entity: Entity; model: SchemaModel; maxDepth: number }) {}

  check<T extends Expr>(node: T): Expr {
    const [out, type] = (handlers[node.kind] as Handler<Expr>)(node, this);
    setPosition(out, positionOf(node));
    this.types.set(out, type);
    return out;
  }

  typeOf(node: Expr): FormulaType {
    return this.types.get(node) ?? 'null';
  }

  /** Requires `node` to be read as `want`, recording the conversion when one applies. */
  expect(node: Expr, want: ValueType, message: (got: FormulaType) => string): void {
    const got = this.typeOf(node);
    if (got === want) return;
    const temporal = want === 'date' || want === 'timestamp';
    if (got === 'null' || (want === 'timestamp' && got === 'date')) {
      this.coercions.set(node, want);
    } else if (temporal && node.kind === 'String') {
      const parsed = want === 'date' ? parseDate(node.value) : parseTimestamp(node.value);
      if (parsed === null) throw mismatch(node, `'${node.value}' is not a valid ${want}`);
      this.coercions.set(node, want);
    } else {
      throw mismatch(node, message(got));
    }
  }

  toText(node: Expr): void {
    if (this.typeOf(node) !== 'text') this.coercions.set(node, 'text');
  }

  /** One type for `nodes` (NULLs adopt it; text literals may stand for dates). */
  unify(nodes: readonly Expr[], message: (a: FormulaType, b: FormulaType) => string): FormulaType {
    const distinct = [...new Set(nodes.map((n) => this.typeOf(n)).filter((t) => t !== 'null'))];
    const [first, second] = distinct;
    if (!first) return 'null';
    let target: ValueType = first as ValueType;
    if (second) {
      const temporal = distinct.filter((t) => t === 'date' || t === 'timestamp');
      const literalsOnly = nodes.every((n) => this.typeOf(n) !== 'text' || n.kind === 'String');
      const others = distinct.filter((t) => t !== 'date' && t !== 'timestamp' && t !== 'text');
      if (temporal.length === 0 || others.length > 0 || !literalsOnly) throw mismatch(nodes[0]!, message(first, second));
      target = temporal.includes('timestamp') ? 'timestamp' : 'date';
    }
    for (const node of nodes) this.expect(node, target, (got) => message(target, got));
    return target;
  }
}

type Handler<T extends Expr> = (node: T, c: Checker) => [Expr, FormulaType];

const bool = (what: string) => (got: FormulaType) => `${what} expects boolean, got ${got}`;

const handlers: { readonly [K in ExprKind]: Handler<ExprOf<K>> } = {
  Number: (n) => [{ ...n }, 'number'],
  String: (n) => [{ ...n }, 'text'],
  Boolean: (n) => [{ ...n }, 'boolean'],
  Null: (n) => [{ ...n }, 'null'],
  Field: (n, c) => {
    const resolved = resolveField(n.path, c.context, positionOf(n));
    const out: FieldRef = { kind: 'Field', path: resolved.path };
    c.fields.set(out, resolved);
    c.refs.set(resolved.path.join('.'), resolved.path);
    return [out, resolved.type];
  },
  Negate: (n, c) => {
    const operand = c.check(n.operand);
    c.expect(operand, 'number', (got) => `unary - expects a number, got ${got}`);
    return [{ kind: 'Negate', operand }, 'number'];
  },
  Not: (n, c) => {
    const operand = c.check(n.operand);
    c.expect(operand, 'boolean', bool('NOT'));
    return [{ kind: 'Not', operand }, 'boolean'];
  },
  Arithmetic: (n, c) => {
    const left = c.check(n.left);
    const right = c.check(n.right);
    c.expect(left, 'number', (got) => `operator ${n.op} expects numbers, got ${got} on the left`);
    c.expect(right, 'number', (got) => `operator ${n.op} expects numbers, got ${got} on the right`);
    return [{ kind: 'Arithmetic', op: n.op, left, right }, 'number'];
  },
  Concat: (n, c) => {
    const left = c.check(n.left);
    const right = c.check(n.right);
    c.toText(left);
    c.toText(right);
    return [{ kind: 'Concat', left, right }, 'text'];
  },
  Compare: (n, c) => {
    const left = c.check(n.left);
    const right = c.check(n.right);
    c.unify([left, right], (a, b) => `cannot compare ${a} with ${b}`);
    return [{ kind: 'Compare', op: n.op, left, right }, 'boolean'];
  },
  Logical: (n, c) => {
    const left = c.check(n.left);
    const right = c.check(n.right);
    c.expect(left, 'boolean', bool(n.op));
    c.expect(right, 'boolean', bool(n.op));
    return [{ kind: 'Logical', op: n.op, left, right }, 'boolean'];
  },
  IsNull: (n, c) => [{ kind: 'IsNull', negated: n.negated, operand: c.check(n.operand) }, 'boolean'],
  Like: (n, c) => {
    const operand = c.check(n.operand);
    const pattern = c.check(n.pattern);
    c.expect(operand, 'text', (got) => `LIKE expects text, got ${got}`);
    c.expect(pattern, 'text', (got) => `LIKE expects a text pattern, got ${got}`);
    return [{ kind: 'Like', negated: n.negated, operand, pattern }, 'boolean'];
  },
  In: (n, c) => {
    const operand = c.check(n.operand);
    const list = n.list.map((item) => c.check(item));
    c.unify([operand, ...list], (a, b) => `IN compares values of one type, got ${a} and ${b}`);
    return [{ kind: 'In', negated: n.negated, operand, list }, 'boolean'];
  },
  Between: (n, c) => {
    const [operand, low, high] = [c.check(n.operand), c.check(n.low), c.check(n.high)];
    c.unify([operand, low, high], (a, b) => `BETWEEN compares values of one type, got ${a} and ${b}`);
    return [{ kind: 'Between', negated: n.negated, operand, low, high }, 'boolean'];
  },
  Case: (n, c) => {
    const operand = n.operand ? c.check(n.operand) : null;
    const whens = n.whens.map((w) => ({ when: c.check(w.when), then: c.check(w.then) }));
    const otherwise = n.otherwise ? c.check(n.otherwise) : null;
    if (operand) c.unify([operand, ...whens.map((w) => w.when)], (a, b) => `CASE compares values of one type, got ${a} and ${b}`);
    else for (const w of whens) c.expect(w.when, 'boolean', (got) => `CASE WHEN expects a boolean condition, got ${got}`);
    const results = [...whens.map((w) => w.then), ...(otherwise ? [otherwise] : [])];
    const type = c.unify(results, (a, b) => `CASE results must have one type, got ${a} and ${b}`);
    return [{ kind: 'Case', operand, whens, otherwise }, type];
  },
  Call: (n, c) => {
    const fn = functionRegistry.get(n.name);
    if (!fn) throw formulaError('unknown_function', `unknown function '${n.name}'`, positionOf(n));
    const args = n.args.map((a) => c.check(a));
    const same: Expr[] = [];
    args.forEach((arg, i) => {
      const kind = paramKindAt(fn, i);
      if (kind === 'any') c.toText(arg);
      else if (kind === 'same') same.push(arg);
      else c.expect(arg, kind, (got) => `${n.name} expects ${kind} for argument ${i + 1}, got ${got}`);
    });
    const sameType = c.unify(same, (a, b) => `${n.name} arguments must have one type, got ${a} and ${b}`);
    return [{ kind: 'Call', name: n.name, args }, fn.returns === 'same' ? sameType : fn.returns];
  },
  Cast: (n, c) => {
    const operand = c.check(n.operand);
    const from = c.typeOf(operand);
    if (from !== 'null' && !castAccepts(from, n.target)) throw mismatch(n, `cannot CAST ${from} AS ${n.target.name}`);
    if (from !== 'null' && (operand.kind === 'String' || operand.kind === 'Number' || operand.kind === 'Boolean')) {
      try {
        castValue(operand.value, from, n.target);
      } catch (error) {
        if (!(error instanceof FormulaEvaluationError)) throw error;
        throw mismatch(operand, `${JSON.stringify(operand.value)} cannot be CAST AS ${n.target.name}: ${error.message}`);
      }
    }
    return [{ kind: 'Cast', operand, target: n.target }, typeOfTarget(n.target)];
  },
};

/** Resolves and types a parsed formula against its entity. Throws INVALID_FORMULA. */
export function checkFormula(ast: Expr, context: CheckContext): CheckedFormula {
  const checker = new Checker({ ...context, maxDepth: context.maxDepth ?? DEFAULT_MAX_DEPTH });
  const checked = checker.check(ast);
  checkCost(checked);
  return {
    ast: checked,
    type: checker.typeOf(checked),
    refs: [...checker.refs.values()],
    types: checker.types,
    coercions: checker.coercions,
    fields: checker.fields,
  };
}
