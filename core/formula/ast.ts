/**
 * The formula AST: readonly nodes tagged by `kind`. Nodes carry no positions, so a parsed
 * tree and a hand-built one compare equal; positions live beside the tree (errors.ts).
 */

export type ArithmeticOp = '+' | '-' | '*' | '/';
export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type LogicalOp = 'AND' | 'OR';

/** CAST target types. VARCHAR without a length and DECIMAL without precision are unbounded. */
export type CastTarget =
  | { readonly name: 'TEXT' }
  | { readonly name: 'VARCHAR'; readonly length: number | null }
  | { readonly name: 'INTEGER' }
  | { readonly name: 'BIGINT' }
  | { readonly name: 'DECIMAL'; readonly precision: number | null; readonly scale: number | null }
  | { readonly name: 'BOOLEAN' }
  | { readonly name: 'DATE' }
  | { readonly name: 'TIMESTAMP' };

export type CastTypeName = CastTarget['name'];

export interface NumberLiteral {
  readonly kind: 'Number';
  /** Never negative: `-5` is a Negate of 5. */
  readonly value: number;
}

export interface StringLiteral {
  readonly kind: 'String';
  readonly value: string;
}

export interface BooleanLiteral {
  readonly kind: 'Boolean';
  readonly value: boolean;
}

export interface NullLiteral {
  readonly kind: 'Null';
}

/** `amount`, `customer.name`: relationship names then a field name. */
export interface FieldRef {
  readonly kind: 'Field';
  readonly path: readonly string[];
}

export interface Negate {
  readonly kind: 'Negate';
  readonly operand: Expr;
}

export interface Not {
  readonly kind: 'Not';
  readonly operand: Expr;
}

export interface Arithmetic {
  readonly kind: 'Arithmetic';
  readonly op: ArithmeticOp;
  readonly left: Expr;
  readonly right: Expr;
}

/** `a || b`. */
export interface Concat {
  readonly kind: 'Concat';
  readonly left: Expr;
  readonly right: Expr;
}

export interface Compare {
  readonly kind: 'Compare';
  /** `!=` is read as `<>`. */
  readonly op: CompareOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface Logical {
  readonly kind: 'Logical';
  readonly op: LogicalOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface IsNull {
  readonly kind: 'IsNull';
  readonly negated: boolean;
  readonly operand: Expr;
}

export interface Like {
  readonly kind: 'Like';
  readonly negated: boolean;
  readonly operand: Expr;
  readonly pattern: Expr;
}

export interface InList {
  readonly kind: 'In';
  readonly negated: boolean;
  readonly operand: Expr;
  readonly list: readonly Expr[];
}

export interface Between {
  readonly kind: 'Between';
  readonly negated: boolean;
  readonly operand: Expr;
  readonly low: Expr;
  readonly high: Expr;
}

export interface WhenClause {
  readonly when: Expr;
  readonly then: Expr;
}

/** Searched CASE (`operand` null) or simple CASE (`CASE operand WHEN value THEN …`). */
export interface Case {
  readonly kind: 'Case';
  readonly operand: Expr | null;
  readonly whens: readonly WhenClause[];
  readonly otherwise: Expr | null;
}

/** A whitelisted function; `name` is upper case. CURRENT_DATE/CURRENT_TIMESTAMP have no args. */
export interface Call {
  readonly kind: 'Call';
  readonly name: string;
  readonly args: readonly Expr[];
}

export interface Cast {
  readonly kind: 'Cast';
  readonly operand: Expr;
  readonly target: CastTarget;
}

export type Expr =
  | NumberLiteral
  | StringLiteral
  | BooleanLiteral
  | NullLiteral
  | FieldRef
  | Negate
  | Not
  | Arithmetic
  | Concat
  | Compare
  | Logical
  | IsNull
  | Like
  | InList
  | Between
  | Case
  | Call
  | Cast;

export type ExprKind = Expr['kind'];

/** The node of kind `K`. */
export type ExprOf<K extends ExprKind> = Extract<Expr, { kind: K }>;

/** Direct children of a node, in source order. */
export function childrenOf(node: Expr): Expr[] {
  switch (node.kind) {
    case 'Number':
    case 'String':
    case 'Boolean':
    case 'Null':
    case 'Field':
      return [];
    case 'Negate':
    case 'Not':
    case 'IsNull':
    case 'Cast':
      return [node.operand];
    case 'Arithmetic':
    case 'Concat':
    case 'Compare':
    case 'Logical':
      return [node.left, node.right];
    case 'Like':
      return [node.operand, node.pattern];
    case 'In':
      return [node.operand, ...node.list];
    case 'Between':
      return [node.operand, node.low, node.high];
    case 'Case':
      return [
        ...(node.operand ? [node.operand] : []),
        ...node.whens.flatMap((w) => [w.when, w.then]),
        ...(node.otherwise ? [node.otherwise] : []),
      ];
    case 'Call':
      return [...node.args];
  }
}
