/**
 * Formula tokens. Besides the grammar's own tokens, the lexer recognises the constructs that
 * spec rule 8 forbids (comments, `;`, brackets, statement words, EXEC, ARRAY/VALUES,
 * unterminated literals) so that gate 1 can name them; the parser never sees them.
 *
 * Ordering matters: comments before `-` and `/`; the terminated string before the
 * unterminated one; every keyword before Identifier, with `longer_alt: Identifier` so
 * `selection` or `endDate` stay identifiers.
 */
import type { TokenType } from 'chevrotain';
import { createToken, Lexer } from './chevrotain.ts';
import type { FormulaRefusal } from './errors.ts';

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'a name' });

function keyword(name: string, pattern: RegExp, label = name): TokenType {
  return createToken({ name, pattern, longer_alt: Identifier, label });
}

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /\s+/, group: Lexer.SKIPPED });

// Forbidden constructs (gate 1).
export const Comment = createToken({ name: 'Comment', pattern: /--[^\n]*|\/\*(?:[^*]|\*(?!\/))*(?:\*\/)?/ });
export const Semicolon = createToken({ name: 'Semicolon', pattern: /;/ });
export const Bracket = createToken({ name: 'Bracket', pattern: /[[\]]/ });
export const UnterminatedString = createToken({ name: 'UnterminatedString', pattern: /'(?:[^']|'')*/ });
export const UnterminatedIdentifier = createToken({ name: 'UnterminatedIdentifier', pattern: /"(?:[^"]|"")*/ });
export const StatementWord = keyword(
  'StatementWord',
  /select|where|insert|update|delete|drop|create|alter|truncate|grant|revoke|merge|union|intersect|except|into|join|declare|call|copy/i,
);
/**
 * FROM is a statement word too, except in the standard `SUBSTRING(s FROM start [FOR length])`:
 * gate 1 lets it through only there (gate.ts); everywhere else it is refused like SELECT.
 */
export const From = keyword('From', /from/i, 'FROM');
export const For = keyword('For', /for/i, 'FOR');
export const ExecWord = keyword('ExecWord', /execute|exec/i);
export const ArrayValuesWord = keyword('ArrayValuesWord', /array|values/i);

// Literals.
export const StringLiteral = createToken({ name: 'StringLiteral', pattern: /'(?:[^']|'')*'(?!')/, label: 'a string' });
export const QuotedIdentifier = createToken({ name: 'QuotedIdentifier', pattern: /"(?:[^"]|"")+"(?!")/, label: 'a quoted name' });
export const NumberLiteral = createToken({
  name: 'NumberLiteral',
  pattern: /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/,
  label: 'a number',
});

// Keywords.
export const And = keyword('And', /and/i, 'AND');
export const Or = keyword('Or', /or/i, 'OR');
export const Not = keyword('Not', /not/i, 'NOT');
export const Is = keyword('Is', /is/i, 'IS');
export const Null = keyword('Null', /null/i, 'NULL');
export const Like = keyword('Like', /like/i, 'LIKE');
export const In = keyword('In', /in/i, 'IN');
export const Between = keyword('Between', /between/i, 'BETWEEN');
export const Case = keyword('Case', /case/i, 'CASE');
export const When = keyword('When', /when/i, 'WHEN');
export const Then = keyword('Then', /then/i, 'THEN');
export const Else = keyword('Else', /else/i, 'ELSE');
export const End = keyword('End', /end/i, 'END');
export const Cast = keyword('Cast', /cast/i, 'CAST');
export const As = keyword('As', /as/i, 'AS');
export const True = keyword('True', /true/i, 'TRUE');
export const False = keyword('False', /false/i, 'FALSE');
export const CurrentDate = keyword('CurrentDate', /current_date/i, 'CURRENT_DATE');
export const CurrentTimestamp = keyword('CurrentTimestamp', /current_timestamp/i, 'CURRENT_TIMESTAMP');

// Operators: categories group the families the parser treats alike.
export const CompareOperator = createToken({ name: 'CompareOperator', pattern: Lexer.NA, label: 'a comparison' });
export const AdditiveOperator = createToken({ name: 'AdditiveOperator', pattern: Lexer.NA, label: "'+' or '-'" });
export const MultiplicativeOperator = createToken({ name: 'MultiplicativeOperator', pattern: Lexer.NA, label: "'*' or '/'" });

const compare = (name: string, pattern: RegExp, image: string): TokenType =>
  createToken({ name, pattern, categories: CompareOperator, label: `'${image}'` });
export const NotEqual = compare('NotEqual', /<>|!=/, '<>');
export const LessEqual = compare('LessEqual', /<=/, '<=');
export const GreaterEqual = compare('GreaterEqual', />=/, '>=');
export const Less = compare('Less', /</, '<');
export const Greater = compare('Greater', />/, '>');
export const Equal = compare('Equal', /=/, '=');
export const ConcatOperator = createToken({ name: 'ConcatOperator', pattern: /\|\|/, label: "'||'" });
export const Plus = createToken({ name: 'Plus', pattern: /\+/, categories: AdditiveOperator, label: "'+'" });
export const Minus = createToken({ name: 'Minus', pattern: /-/, categories: AdditiveOperator, label: "'-'" });
export const Star = createToken({ name: 'Star', pattern: /\*/, categories: MultiplicativeOperator, label: "'*'" });
export const Slash = createToken({ name: 'Slash', pattern: /\//, categories: MultiplicativeOperator, label: "'/'" });
export const LParen = createToken({ name: 'LParen', pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: 'RParen', pattern: /\)/, label: "')'" });
export const Comma = createToken({ name: 'Comma', pattern: /,/, label: "','" });
export const Dot = createToken({ name: 'Dot', pattern: /\./, label: "'.'" });

export const allTokens: TokenType[] = [
  WhiteSpace,
  Comment,
  Semicolon,
  Bracket,
  StringLiteral,
  UnterminatedString,
  QuotedIdentifier,
  UnterminatedIdentifier,
  NumberLiteral,
  StatementWord,
  From,
  For,
  ExecWord,
  ArrayValuesWord,
  CurrentDate,
  CurrentTimestamp,
  And,
  Or,
  Not,
  Is,
  Null,
  Like,
  In,
  Between,
  Case,
  When,
  Then,
  Else,
  End,
  Cast,
  As,
  True,
  False,
  Identifier,
  NotEqual,
  LessEqual,
  GreaterEqual,
  Less,
  Greater,
  Equal,
  ConcatOperator,
  Plus,
  Minus,
  Star,
  Slash,
  LParen,
  RParen,
  Comma,
  Dot,
  CompareOperator,
  AdditiveOperator,
  MultiplicativeOperator,
];

/** Tokens gate 1 refuses wherever they appear, with the reason and the message. */
export interface ForbiddenRule {
  readonly reason: FormulaRefusal;
  readonly message: (image: string, column: number) => string;
}

export const forbiddenTokens: ReadonlyMap<TokenType, ForbiddenRule> = new Map<TokenType, ForbiddenRule>([
    [Comment, { reason: 'comment', message: () => 'comments are not allowed' }],
    [Semicolon, { reason: 'semicolon', message: () => "';' is not allowed" }],
    [Bracket, { reason: 'square_brackets', message: () => 'square brackets are not allowed' }],
    [
      StatementWord,
      {
        reason: 'statement',
        // A field with such a name can still be referenced in double quotes ("from").
        message: (image) => `subqueries and statements (${image.toUpperCase()}) are not allowed`,
      },
    ],
    [From, { reason: 'statement', message: (image) => `subqueries and statements (${image.toUpperCase()}) are not allowed` }],
    [ExecWord, { reason: 'exec', message: (image) => `${image.toUpperCase()} is not allowed` }],
    [ArrayValuesWord, { reason: 'array_values', message: (image) => `${image.toUpperCase()} constructs are not allowed` }],
    [
      UnterminatedString,
      { reason: 'unterminated_string', message: (_image, column) => `unterminated string literal starting at column ${column}` },
    ],
    [
      UnterminatedIdentifier,
      { reason: 'unterminated_identifier', message: (_image, column) => `unterminated quoted name starting at column ${column}` },
    ],
  ]);

/** The single lexer instance (lexers are stateless between `tokenize` calls). */
export const formulaLexer = new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: true });
