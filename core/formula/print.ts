/**
 * AST → canonical formula text: upper-case keywords and function names, single spaces, and
 * only the parentheses precedence requires. parseFormula(printFormula(ast)) equals ast.
 */
import type { CastTarget, Expr, ExprKind, ExprOf } from './ast.ts';
import { functionRegistry } from './functions.ts';
import { formulaLexer, Identifier } from './tokens.ts';

/** Binding strength of each node, loosest first, mirroring the rule layering in parser.ts. */
const OR = 1;
const AND = 2;
const NOT = 3;
const IS = 4;
const COMPARE = 5;
const PREDICATE = 6;
const CONCAT = 7;
const ADD = 8;
const MULTIPLY = 9;
const UNARY = 10;
const PRIMARY = 11;

function levelOf(node: Expr): number {
  switch (node.kind) {
    case 'Logical':
      return node.op === 'OR' ? OR : AND;
    case 'Not':
      return NOT;
    case 'IsNull':
      return IS;
    case 'Compare':
      return COMPARE;
    case 'Like':
    case 'In':
    case 'Between':
      return PREDICATE;
    case 'Concat':
      return CONCAT;
    case 'Arithmetic':
      return node.op === '+' || node.op === '-' ? ADD : MULTIPLY;
    case 'Negate':
      return UNARY;
    default:
      return PRIMARY;
  }
}

/** `node` printed where the grammar needs at least `level`. */
function at(node: Expr, level: number): string {
  const text = printFormula(node);
  return levelOf(node) < level ? `(${text})` : text;
}

function quoteName(name: string): string {
  const { tokens, errors } = formulaLexer.tokenize(name);
  const bare = errors.length === 0 && tokens.length === 1 && tokens[0]?.tokenType === Identifier && tokens[0].image === name;
  return bare ? name : `"${name.replace(/"/g, '""')}"`;
}

function printTarget(target: CastTarget): string {
  switch (target.name) {
    case 'VARCHAR':
      return target.length === null ? 'VARCHAR' : `VARCHAR(${target.length})`;
    case 'DECIMAL':
      return target.precision === null ? 'DECIMAL' : `DECIMAL(${target.precision},${target.scale ?? 0})`;
    default:
      return target.name;
  }
}

const not = (negated: boolean): string => (negated ? 'NOT ' : '');

const printers: { readonly [K in ExprKind]: (node: ExprOf<K>) => string } = {
  Number: (n) => String(n.value),
  String: (n) => `'${n.value.replace(/'/g, "''")}'`,
  Boolean: (n) => (n.value ? 'TRUE' : 'FALSE'),
  Null: () => 'NULL',
  Field: (n) => n.path.map(quoteName).join('.'),
  // `--` would start a comment, so a negated negation keeps its parentheses.
  Negate: (n) => (n.operand.kind === 'Negate' ? `-(${printFormula(n.operand)})` : `-${at(n.operand, UNARY)}`),
  Not: (n) => `NOT ${at(n.operand, NOT)}`,
  Arithmetic: (n) => {
    const level = levelOf(n);
    return `${at(n.left, level)} ${n.op} ${at(n.right, level + 1)}`;
  },
  Concat: (n) => `${at(n.left, CONCAT)} || ${at(n.right, ADD)}`,
  Compare: (n) => `${at(n.left, PREDICATE)} ${n.op} ${at(n.right, PREDICATE)}`,
  Logical: (n) => {
    const level = levelOf(n);
    return `${at(n.left, level)} ${n.op} ${at(n.right, level + 1)}`;
  },
  IsNull: (n) => `${at(n.operand, IS)} IS ${not(n.negated)}NULL`,
  Like: (n) => `${at(n.operand, CONCAT)} ${not(n.negated)}LIKE ${at(n.pattern, CONCAT)}`,
  In: (n) => `${at(n.operand, CONCAT)} ${not(n.negated)}IN (${n.list.map(printFormula).join(', ')})`,
  Between: (n) =>
    `${at(n.operand, CONCAT)} ${not(n.negated)}BETWEEN ${at(n.low, CONCAT)} AND ${at(n.high, CONCAT)}`,
  Case: (n) => {
    const operand = n.operand ? ` ${printFormula(n.operand)}` : '';
    const whens = n.whens.map((w) => ` WHEN ${printFormula(w.when)} THEN ${printFormula(w.then)}`).join('');
    const otherwise = n.otherwise ? ` ELSE ${printFormula(n.otherwise)}` : '';
    return `CASE${operand}${whens}${otherwise} END`;
  },
  Call: (n) => (functionRegistry.get(n.name)?.bare ? n.name : `${n.name}(${n.args.map(printFormula).join(', ')})`),
  Cast: (n) => `CAST(${printFormula(n.operand)} AS ${printTarget(n.target)})`,
};

export function printFormula(node: Expr): string {
  return (printers[node.kind] as (n: Expr) => string)(node);
}
