/**
 * Checked formula → SQL fragment through a FormulaDialect. Core writes only vendor-neutral SQL
 * (NOT/AND/OR, IS NULL, IN, BETWEEN, CASE) and wraps every composite in parentheses; column
 * references come from the caller, literals become parameters inside the dialect.
 */
import { join, raw, sql, type Sql } from '../sql.ts';
import type { CompareOp, Expr, ExprKind, ExprOf, FieldRef } from './ast.ts';
import type { CheckedFormula } from './check.ts';
import { exactNumberKind } from './exact-compare.ts';
import type { FormulaDialect } from './formula-dialect.ts';
import type { FunctionName } from './functions.ts';
import type { FormulaType } from './types.ts';

export interface EmitOptions {
  readonly dialect: FormulaDialect;
  /** The column reference for a field path (API names), e.g. ident('t1', 'name') for ['customer', 'name']. */
  readonly columnRef: (path: readonly string[]) => Sql;
  /** 'value' (default) for select lists and ORDER BY; 'predicate' for WHERE on a boolean formula. */
  readonly as?: 'value' | 'predicate';
}

type Form = 'value' | 'predicate';

interface Emitted {
  readonly sql: Sql;
  readonly form: Form;
}

const value = (s: Sql): Emitted => ({ sql: s, form: 'value' });
const predicate = (s: Sql): Emitted => ({ sql: s, form: 'predicate' });
const notWord = (negated: boolean): Sql => raw(negated ? ' NOT' : '');

class Emitter {
  constructor(
    readonly checked: CheckedFormula,
    readonly options: EmitOptions,
  ) {}

  get dialect(): FormulaDialect {
    return this.options.dialect;
  }

  /** The type a node is read as by its parent (after the checker's conversion). */
  typeOf(node: Expr): FormulaType {
    return this.checked.coercions.get(node) ?? this.checked.types.get(node) ?? 'null';
  }

  emit(node: Expr): Emitted {
    return (emitters[node.kind] as (n: Expr, e: Emitter) => Emitted)(node, this);
  }

  value(node: Expr): Sql {
    const to = this.checked.coercions.get(node);
    if (node.kind === 'Null') return this.dialect.nullLiteral(to ?? 'null');
    const emitted = this.emit(node);
    const asValue = emitted.form === 'predicate' ? this.dialect.predicateToValue(emitted.sql) : emitted.sql;
    if (!to) return asValue;
    return this.dialect.coerce(asValue, this.checked.types.get(node) ?? 'null', to);
  }

  predicate(node: Expr): Sql {
    if (node.kind !== 'Null' && !this.checked.coercions.has(node)) {
      const emitted = this.emit(node);
      if (emitted.form === 'predicate') return emitted.sql;
      return this.dialect.valueToPredicate(emitted.sql);
    }
    return this.dialect.valueToPredicate(this.value(node));
  }

  /** `left op right` through the dialect, at the operands' shared type. */
  compare(op: CompareOp, left: Expr, right: Expr): Sql {
    const native = this.fieldToNumber(op, left, right) ?? this.fieldToNumber(MIRRORED[op], right, left);
    return native ?? this.dialect.compare(op, this.value(left), this.value(right), this.sharedType([left, right]));
  }

  /** `field op literal` in the column's own type where that gives the same answer and the dialect spells it, else null. */
  private fieldToNumber(op: CompareOp, field: Expr, literal: Expr): Sql | null {
    const number = numberLiteral(literal);
    if (!this.dialect.compareInColumnType || field.kind !== 'Field' || number === null) return null;
    const resolved = this.checked.fields.get(field);
    if (!resolved || resolved.type !== 'number' || this.checked.coercions.has(field)) return null;
    const kind = exactNumberKind(resolved.field, number);
    return kind && this.dialect.compareInColumnType(op, this.options.columnRef(resolved.path), kind, number);
  }

  /** The shared type of compared operands (one may be an untyped NULL). */
  sharedType(nodes: readonly Expr[]): FormulaType {
    return nodes.map((n) => this.typeOf(n)).find((t) => t !== 'null') ?? 'null';
  }
}

/** The operator with its operands swapped: `5 < x` is `x > 5`. */
const MIRRORED: Readonly<Record<CompareOp, CompareOp>> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The value of a number literal, negated ones included, or null for any other node. */
function numberLiteral(node: Expr): number | null {
  if (node.kind === 'Number') return node.value;
  if (node.kind === 'Negate' && node.operand.kind === 'Number') return -node.operand.value;
  return null;
}

const emitters: { readonly [K in ExprKind]: (node: ExprOf<K>, e: Emitter) => Emitted } = {
  Number: (n, e) => value(e.dialect.literal(n.value, 'number')),
  String: (n, e) => value(e.dialect.literal(n.value, 'text')),
  Boolean: (n, e) => value(e.dialect.booleanLiteral(n.value)),
  Null: (_n, e) => value(e.dialect.nullLiteral('null')),
  Field: (n, e) => {
    const resolved = e.checked.fields.get(n as FieldRef);
    if (!resolved) throw new Error(`formula emit: field ${n.path.join('.')} was not checked`);
    return value(e.dialect.fieldValue(e.options.columnRef(resolved.path), resolved.field, resolved.type));
  },
  Negate: (n, e) => value(e.dialect.negate(e.value(n.operand))),
  Not: (n, e) => predicate(sql`(NOT ${e.predicate(n.operand)})`),
  Arithmetic: (n, e) => value(e.dialect.arithmetic(n.op, e.value(n.left), e.value(n.right))),
  Concat: (n, e) => value(e.dialect.concat(e.value(n.left), e.value(n.right))),
  Compare: (n, e) => predicate(e.compare(n.op, n.left, n.right)),
  Logical: (n, e) => predicate(sql`(${e.predicate(n.left)} ${raw(n.op)} ${e.predicate(n.right)})`),
  IsNull: (n, e) => predicate(sql`(${e.value(n.operand)} IS${notWord(n.negated)} NULL)`),
  Like: (n, e) => predicate(e.dialect.like(e.value(n.operand), e.value(n.pattern), n.negated)),
  // IN, BETWEEN and simple CASE are spelled with the dialect's comparisons, so they compare text
  // exactly as `=` and `<` do on every vendor (MySQL's PAD SPACE collations would ignore trailing
  // spaces in a plain IN). Same three-valued logic: `x IN (a, NULL)` is NULL when nothing matches.
  In: (n, e) => {
    const equals = n.list.map((item) => e.compare('=', n.operand, item));
    return predicate(sql`(${raw(n.negated ? 'NOT ' : '')}(${join(equals, ' OR ')}))`);
  },
  Between: (n, e) =>
    predicate(sql`(${raw(n.negated ? 'NOT ' : '')}(${e.compare('>=', n.operand, n.low)} AND ${e.compare('<=', n.operand, n.high)}))`),
  Case: (n, e) => {
    const subject = n.operand;
    const whens = n.whens.map((w) => {
      const condition = subject ? e.compare('=', subject, w.when) : e.predicate(w.when);
      return sql` WHEN ${condition} THEN ${e.value(w.then)}`;
    });
    const otherwise = n.otherwise ? sql` ELSE ${e.value(n.otherwise)}` : raw('');
    return value(sql`(CASE${join(whens, '')}${otherwise} END)`);
  },
  Call: (n, e) => {
    const emitter = e.dialect.functions[n.name as FunctionName];
    if (!emitter) throw new Error(`formula emit: no emitter for ${n.name}`);
    const args = n.args.map((a) => e.value(a));
    return value(emitter(args, n.args.map((a) => e.typeOf(a)), e.checked.types.get(n) ?? 'null'));
  },
  Cast: (n, e) => value(e.dialect.cast(e.value(n.operand), e.typeOf(n.operand), n.target)),
};

/** SQL for a checked formula, in value position unless `as: 'predicate'`. */
export function emitFormula(checked: CheckedFormula, options: EmitOptions): Sql {
  const emitter = new Emitter(checked, options);
  return options.as === 'predicate' ? emitter.predicate(checked.ast) : emitter.value(checked.ast);
}
