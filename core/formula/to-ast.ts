/**
 * CST → AST. Also resolves what the grammar leaves open: function names against the
 * whitelist (functions.ts), CAST type names, literal values, quoted names. Each node's
 * source position is recorded beside it (errors.ts) for later refusals.
 */
import type { CstNode, IToken } from 'chevrotain';
import type { CastTarget, CompareOp, Expr, WhenClause } from './ast.ts';
import { formulaError, setPosition, type FormulaPosition } from './errors.ts';
import { aggregateNames, callableFunctionNames, describeArity, functionRegistry } from './functions.ts';
import { formulaParser } from './parser.ts';
import { markParenthesized } from './syntax-depth.ts';

type Child = CstNode | IToken;
type Ctx = Record<string, Child[] | undefined>;

const BaseVisitor = formulaParser.getBaseCstVisitorConstructor();

function isToken(child: Child): child is IToken {
  return 'image' in child;
}

function tokens(ctx: Ctx, key: string): IToken[] {
  return (ctx[key] ?? []).filter(isToken);
}

function token(ctx: Ctx, key: string): IToken {
  const found = tokens(ctx, key)[0];
  if (!found) throw new Error(`formula CST: missing token ${key}`);
  return found;
}

function nodes(ctx: Ctx, key: string): CstNode[] {
  return (ctx[key] ?? []).filter((c): c is CstNode => !isToken(c));
}

function at(token: IToken): FormulaPosition {
  return { offset: token.startOffset, line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

const compareOps: Readonly<Record<string, CompareOp>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

function numberValue(tok: IToken): number {
  const value = Number(tok.image);
  if (!Number.isFinite(value)) throw formulaError('syntax', `number ${tok.image} is out of range`, at(tok));
  return value;
}

function typeParam(tok: IToken | undefined, min: number, max: number, what: string): number | null {
  if (!tok) return null;
  const value = Number(tok.image);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw formulaError('unknown_type', `${what} must be an integer from ${min} to ${max}, got ${tok.image}`, at(tok));
  }
  return value;
}

const castTypes = 'TEXT, VARCHAR(n), INTEGER, BIGINT, DECIMAL(p,s), BOOLEAN, DATE, TIMESTAMP';

function castTarget(name: IToken, first: IToken | undefined, second: IToken | undefined): CastTarget {
  const upper = name.image.toUpperCase();
  const simple = (target: CastTarget): CastTarget => {
    if (first) throw formulaError('unknown_type', `type ${upper} takes no parameters`, at(first));
    return target;
  };
  switch (upper) {
    case 'TEXT':
      return simple({ name: 'TEXT' });
    case 'VARCHAR':
      if (second) throw formulaError('unknown_type', 'VARCHAR takes one length', at(second));
      return { name: 'VARCHAR', length: typeParam(first, 1, 65535, 'VARCHAR length') };
    case 'INTEGER':
    case 'INT':
      return simple({ name: 'INTEGER' });
    case 'BIGINT':
      return simple({ name: 'BIGINT' });
    case 'DECIMAL':
    case 'NUMERIC': {
      const precision = typeParam(first, 1, 38, 'DECIMAL precision');
      const scale = typeParam(second, 0, precision ?? 38, 'DECIMAL scale');
      return { name: 'DECIMAL', precision, scale: precision === null ? null : (scale ?? 0) };
    }
    case 'BOOLEAN':
      return simple({ name: 'BOOLEAN' });
    case 'DATE':
      return simple({ name: 'DATE' });
    case 'TIMESTAMP':
      return simple({ name: 'TIMESTAMP' });
    default:
      throw formulaError('unknown_type', `unknown type '${name.image}' in CAST; allowed types: ${castTypes}`, at(name));
  }
}

/** Folds `first (op next)*` into a left-deep tree. */
function leftFold(first: Expr, rest: readonly Expr[], operators: readonly IToken[], make: (op: IToken, l: Expr, r: Expr) => Expr): Expr {
  let result = first;
  rest.forEach((right, i) => {
    const op = operators[i];
    if (!op) throw new Error('formula CST: operator count mismatch');
    result = setPosition(make(op, result, right), at(op));
  });
  return result;
}

class ToAst extends BaseVisitor {
  constructor() {
    super();
    this.validateVisitor();
  }

  private one(ctx: Ctx, key: string, index = 0): Expr {
    const node = nodes(ctx, key)[index];
    if (!node) throw new Error(`formula CST: missing ${key}`);
    return this.visit(node) as Expr;
  }

  private all(ctx: Ctx, key: string): Expr[] {
    return nodes(ctx, key).map((n) => this.visit(n) as Expr);
  }

  formula(ctx: Ctx): Expr {
    return this.one(ctx, 'expression');
  }

  expression(ctx: Ctx): Expr {
    const [first, ...rest] = this.all(ctx, 'andExpr');
    return leftFold(first!, rest, tokens(ctx, 'Or'), (_op, left, right) => ({ kind: 'Logical', op: 'OR', left, right }));
  }

  andExpr(ctx: Ctx): Expr {
    const [first, ...rest] = this.all(ctx, 'notExpr');
    return leftFold(first!, rest, tokens(ctx, 'And'), (_op, left, right) => ({ kind: 'Logical', op: 'AND', left, right }));
  }

  notExpr(ctx: Ctx): Expr {
    const not = tokens(ctx, 'Not')[0];
    if (!not) return this.one(ctx, 'isExpr');
    return setPosition({ kind: 'Not', operand: this.one(ctx, 'notExpr') }, at(not));
  }

  isExpr(ctx: Ctx): Expr {
    let result = this.one(ctx, 'compareExpr');
    for (const suffix of nodes(ctx, 'isSuffix')) {
      const children = suffix.children as Ctx;
      const negated = tokens(children, 'Not').length > 0;
      result = setPosition({ kind: 'IsNull', negated, operand: result }, at(token(children, 'Is')));
    }
    return result;
  }

  isSuffix(): never {
    throw new Error('formula CST: isSuffix is read by isExpr');
  }

  compareExpr(ctx: Ctx): Expr {
    const [first, ...rest] = this.all(ctx, 'predicateExpr');
    return leftFold(first!, rest, tokens(ctx, 'CompareOperator'), (op, left, right) => {
      const mapped = compareOps[op.image];
      if (!mapped) throw new Error(`formula CST: unknown comparison ${op.image}`);
      return { kind: 'Compare', op: mapped, left, right };
    });
  }

  predicateExpr(ctx: Ctx): Expr {
    const operands = this.all(ctx, 'concatExpr');
    const operand = operands[0]!;
    const negated = tokens(ctx, 'Not').length > 0;
    const like = tokens(ctx, 'Like')[0];
    if (like) return setPosition({ kind: 'Like', negated, operand, pattern: operands[1]! }, at(like));
    const between = tokens(ctx, 'Between')[0];
    if (between) return setPosition({ kind: 'Between', negated, operand, low: operands[1]!, high: operands[2]! }, at(between));
    const inToken = tokens(ctx, 'In')[0];
    if (inToken) return setPosition({ kind: 'In', negated, operand, list: this.all(ctx, 'expression') }, at(inToken));
    return operand;
  }

  concatExpr(ctx: Ctx): Expr {
    const [first, ...rest] = this.all(ctx, 'additive');
    return leftFold(first!, rest, tokens(ctx, 'ConcatOperator'), (_op, left, right) => ({ kind: 'Concat', left, right }));
  }

  additive(ctx: Ctx): Expr {
    const [first, ...rest] = this.all(ctx, 'multiplicative');
    return leftFold(first!, rest, tokens(ctx, 'AdditiveOperator'), (op, left, right) => ({
      kind: 'Arithmetic',
      op: op.image === '+' ? '+' : '-',
      left,
      right,
    }));
  }

  multiplicative(ctx: Ctx): Expr {
    const [first, ...rest] = this.all(ctx, 'unary');
    return leftFold(first!, rest, tokens(ctx, 'MultiplicativeOperator'), (op, left, right) => ({
      kind: 'Arithmetic',
      op: op.image === '*' ? '*' : '/',
      left,
      right,
    }));
  }

  unary(ctx: Ctx): Expr {
    const minus = tokens(ctx, 'Minus')[0];
    if (!minus) return this.one(ctx, 'primary');
    return setPosition({ kind: 'Negate', operand: this.one(ctx, 'unary') }, at(minus));
  }

  primary(ctx: Ctx): Expr {
    let child: Child | undefined;
    for (const key in ctx) {
      child = ctx[key]?.[0];
      if (child) break;
    }
    if (!child) throw new Error('formula CST: empty primary');
    if (!isToken(child)) return this.visit(child) as Expr;
    return setPosition(literal(child), at(child));
  }

  parenExpr(ctx: Ctx): Expr {
    return markParenthesized(this.one(ctx, 'expression'));
  }

  functionCall(ctx: Ctx): Expr {
    const nameToken = token(ctx, 'Identifier');
    const name = nameToken.image.toUpperCase();
    const args = this.all(ctx, 'expression');
    const from = tokens(ctx, 'From')[0];
    // Gate 1 admits FROM only inside SUBSTRING; this keeps the grammar's wider rule from leaking.
    if (from && name !== 'SUBSTRING') throw formulaError('statement', 'subqueries and statements (FROM) are not allowed', at(from));
    const fn = functionRegistry.get(name);
    if (aggregateNames.has(name)) {
      throw formulaError('aggregate', `aggregate functions (${name}) are not supported: a formula works on a single row`, at(nameToken));
    }
    if (!fn || fn.bare) {
      const allowed = callableFunctionNames.join(', ');
      throw formulaError('unknown_function', `unknown function '${nameToken.image}'; allowed functions: ${allowed}`, at(nameToken));
    }
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      throw formulaError('arity', `${name} takes ${describeArity(fn)}, got ${args.length}`, at(nameToken));
    }
    return setPosition({ kind: 'Call', name, args }, at(nameToken));
  }

  fieldRef(ctx: Ctx): Expr {
    const parts = nodes(ctx, 'name').map((n) => tokens(n.children as Ctx, 'Identifier')[0] ?? token(n.children as Ctx, 'QuotedIdentifier'));
    const path = parts.map((p) => (p.image.startsWith('"') ? p.image.slice(1, -1).replace(/""/g, '"') : p.image));
    return setPosition({ kind: 'Field', path }, at(parts[0]!));
  }

  name(): never {
    throw new Error('formula CST: name is read by fieldRef');
  }

  castExpr(ctx: Ctx): Expr {
    const typeNode = nodes(ctx, 'typeName')[0];
    if (!typeNode) throw new Error('formula CST: missing typeName');
    const typeCtx = typeNode.children as Ctx;
    const [first, second] = tokens(typeCtx, 'NumberLiteral');
    const target = castTarget(token(typeCtx, 'Identifier'), first, second);
    return setPosition({ kind: 'Cast', operand: this.one(ctx, 'expression'), target }, at(token(ctx, 'Cast')));
  }

  typeName(): never {
    throw new Error('formula CST: typeName is read by castExpr');
  }

  caseExpr(ctx: Ctx): Expr {
    const operand = nodes(ctx, 'expression')[0];
    const whens = nodes(ctx, 'whenClause').map((w): WhenClause => {
      const c = w.children as Ctx;
      return { when: this.one(c, 'expression', 0), then: this.one(c, 'expression', 1) };
    });
    const elseNode = nodes(ctx, 'elseClause')[0];
    const otherwise = elseNode ? this.one(elseNode.children as Ctx, 'expression') : null;
    return setPosition(
      { kind: 'Case', operand: operand ? (this.visit(operand) as Expr) : null, whens, otherwise },
      at(token(ctx, 'Case')),
    );
  }

  whenClause(): never {
    throw new Error('formula CST: whenClause is read by caseExpr');
  }

  elseClause(): never {
    throw new Error('formula CST: elseClause is read by caseExpr');
  }
}

function literal(tok: IToken): Expr {
  switch (tok.tokenType.name) {
    case 'NumberLiteral':
      return { kind: 'Number', value: numberValue(tok) };
    case 'StringLiteral':
      return { kind: 'String', value: tok.image.slice(1, -1).replace(/''/g, "'") };
    case 'True':
      return { kind: 'Boolean', value: true };
    case 'False':
      return { kind: 'Boolean', value: false };
    case 'Null':
      return { kind: 'Null' };
    case 'CurrentDate':
      return { kind: 'Call', name: 'CURRENT_DATE', args: [] };
    case 'CurrentTimestamp':
      return { kind: 'Call', name: 'CURRENT_TIMESTAMP', args: [] };
    default:
      throw new Error(`formula CST: unexpected token ${tok.tokenType.name}`);
  }
}

const toAst = new ToAst();

export function cstToAst(cst: CstNode): Expr {
  return toAst.visit(cst) as Expr;
}
