/**
 * The formula grammar (DESIGN §7) as a Chevrotain CstParser. Precedence is by rule layering,
 * loosest first, following PostgreSQL: OR < AND < NOT < IS < comparison < LIKE/IN/BETWEEN
 * < || < + - < * / < unary minus. One instance serves the whole process (`parser.input = …`).
 * Alternatives of OR are built once per instance, not per call (Chevrotain performance guide:
 * "caching arrays of alternatives").
 */
import type { CstNode, IOrAlt, IParserErrorMessageProvider, IToken, TokenType } from 'chevrotain';
import { CstParser, EOF } from './chevrotain.ts';
import * as t from './tokens.ts';

function show(token: IToken): string {
  return token.tokenType === EOF ? 'the end of the formula' : `'${token.image}'`;
}

function label(type: TokenType): string {
  return type.LABEL ?? type.name;
}

/** Messages a formula author understands; no token type names, no grammar paths. */
const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual }) => `expected ${label(expected)} but found ${show(actual)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${show(firstRedundant)} after a complete expression`,
  buildNoViableAltMessage: ({ actual, ruleName }) => {
    const first = actual[0];
    const found = first ? show(first) : 'the end of the formula';
    return ruleName === 'primary' || ruleName === 'unary' ? `expected a value but found ${found}` : `unexpected ${found}`;
  },
  buildEarlyExitMessage: ({ actual, ruleName }) => {
    const first = actual[0];
    const found = first ? show(first) : 'the end of the formula';
    return ruleName === 'caseExpr' ? `expected WHEN but found ${found}` : `unexpected ${found}`;
  },
};

export class FormulaParser extends CstParser {
  constructor() {
    super(t.allTokens, { errorMessageProvider, maxLookahead: 3 });
    this.performSelfAnalysis();
  }

  formula = this.RULE('formula', () => {
    this.SUBRULE(this.expression);
  });

  expression = this.RULE('expression', () => {
    this.SUBRULE(this.andExpr);
    this.MANY(() => {
      this.CONSUME(t.Or);
      this.SUBRULE2(this.andExpr);
    });
  });

  andExpr = this.RULE('andExpr', () => {
    this.SUBRULE(this.notExpr);
    this.MANY(() => {
      this.CONSUME(t.And);
      this.SUBRULE2(this.notExpr);
    });
  });

  private readonly notAlts: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        this.CONSUME(t.Not);
        this.SUBRULE(this.notExpr);
      },
    },
    { ALT: () => this.SUBRULE(this.isExpr) },
  ];

  notExpr = this.RULE('notExpr', () => {
    this.OR(this.notAlts);
  });

  isExpr = this.RULE('isExpr', () => {
    this.SUBRULE(this.compareExpr);
    this.MANY(() => this.SUBRULE(this.isSuffix));
  });

  isSuffix = this.RULE('isSuffix', () => {
    this.CONSUME(t.Is);
    this.OPTION(() => this.CONSUME(t.Not));
    this.CONSUME(t.Null);
  });

  compareExpr = this.RULE('compareExpr', () => {
    this.SUBRULE(this.predicateExpr);
    this.OPTION(() => {
      this.CONSUME(t.CompareOperator);
      this.SUBRULE2(this.predicateExpr);
    });
  });

  predicateExpr = this.RULE('predicateExpr', () => {
    this.SUBRULE(this.concatExpr);
    this.OPTION(() => {
      this.OPTION2(() => this.CONSUME(t.Not));
      this.OR(this.predicateAlts);
    });
  });

  private readonly predicateAlts: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        this.CONSUME(t.Like);
        this.SUBRULE2(this.concatExpr);
      },
    },
    {
      ALT: () => {
        this.CONSUME(t.Between);
        this.SUBRULE3(this.concatExpr);
        this.CONSUME(t.And);
        this.SUBRULE4(this.concatExpr);
      },
    },
    {
      ALT: () => {
        this.CONSUME(t.In);
        this.CONSUME(t.LParen);
        this.SUBRULE(this.expression);
        this.MANY(() => {
          this.CONSUME(t.Comma);
          this.SUBRULE2(this.expression);
        });
        this.CONSUME(t.RParen);
      },
    },
  ];

  concatExpr = this.RULE('concatExpr', () => {
    this.SUBRULE(this.additive);
    this.MANY(() => {
      this.CONSUME(t.ConcatOperator);
      this.SUBRULE2(this.additive);
    });
  });

  additive = this.RULE('additive', () => {
    this.SUBRULE(this.multiplicative);
    this.MANY(() => {
      this.CONSUME(t.AdditiveOperator);
      this.SUBRULE2(this.multiplicative);
    });
  });

  multiplicative = this.RULE('multiplicative', () => {
    this.SUBRULE(this.unary);
    this.MANY(() => {
      this.CONSUME(t.MultiplicativeOperator);
      this.SUBRULE2(this.unary);
    });
  });

  private readonly unaryAlts: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        this.CONSUME(t.Minus);
        this.SUBRULE(this.unary);
      },
    },
    { ALT: () => this.SUBRULE(this.primary) },
  ];

  unary = this.RULE('unary', () => {
    this.OR(this.unaryAlts);
  });

  primary = this.RULE('primary', () => {
    this.OR(this.primaryAlts);
  });

  private readonly primaryAlts: IOrAlt<unknown>[] = [
      { ALT: () => this.CONSUME(t.NumberLiteral) },
      { ALT: () => this.CONSUME(t.StringLiteral) },
      { ALT: () => this.CONSUME(t.True) },
      { ALT: () => this.CONSUME(t.False) },
      { ALT: () => this.CONSUME(t.Null) },
      { ALT: () => this.CONSUME(t.CurrentDate) },
      { ALT: () => this.CONSUME(t.CurrentTimestamp) },
      { ALT: () => this.SUBRULE(this.castExpr) },
      { ALT: () => this.SUBRULE(this.caseExpr) },
      { ALT: () => this.SUBRULE(this.functionCall) },
      { ALT: () => this.SUBRULE(this.fieldRef) },
    { ALT: () => this.SUBRULE(this.parenExpr) },
  ];

  parenExpr = this.RULE('parenExpr', () => {
    this.CONSUME(t.LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(t.RParen);
  });

  functionCall = this.RULE('functionCall', () => {
    this.CONSUME(t.Identifier);
    this.CONSUME(t.LParen);
    this.OPTION(() => {
      this.SUBRULE(this.expression);
      this.OR(this.argumentTailAlts);
    });
    this.CONSUME(t.RParen);
  });

  /**
   * After the first argument: the standard `FROM start [FOR length]` (gate 1 lets FROM through
   * only in SUBSTRING; to-ast reads it as the comma form) or the comma-separated rest.
   */
  private readonly argumentTailAlts: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        this.CONSUME(t.From);
        this.SUBRULE2(this.expression);
        this.OPTION2(() => {
          this.CONSUME(t.For);
          this.SUBRULE3(this.expression);
        });
      },
    },
    {
      ALT: () =>
        this.MANY(() => {
          this.CONSUME(t.Comma);
          this.SUBRULE4(this.expression);
        }),
    },
  ];

  fieldRef = this.RULE('fieldRef', () => {
    this.SUBRULE(this.name);
    this.MANY(() => {
      this.CONSUME(t.Dot);
      this.SUBRULE2(this.name);
    });
  });

  private readonly nameAlts: IOrAlt<unknown>[] = [
    { ALT: () => this.CONSUME(t.Identifier) },
    { ALT: () => this.CONSUME(t.QuotedIdentifier) },
  ];

  name = this.RULE('name', () => {
    this.OR(this.nameAlts);
  });

  castExpr = this.RULE('castExpr', () => {
    this.CONSUME(t.Cast);
    this.CONSUME(t.LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(t.As);
    this.SUBRULE(this.typeName);
    this.CONSUME(t.RParen);
  });

  typeName = this.RULE('typeName', () => {
    this.CONSUME(t.Identifier);
    this.OPTION(() => {
      this.CONSUME(t.LParen);
      this.CONSUME(t.NumberLiteral);
      this.OPTION2(() => {
        this.CONSUME(t.Comma);
        this.CONSUME2(t.NumberLiteral);
      });
      this.CONSUME(t.RParen);
    });
  });

  caseExpr = this.RULE('caseExpr', () => {
    this.CONSUME(t.Case);
    this.OPTION(() => this.SUBRULE(this.expression));
    this.AT_LEAST_ONE(() => this.SUBRULE(this.whenClause));
    this.OPTION2(() => this.SUBRULE(this.elseClause));
    this.CONSUME(t.End);
  });

  whenClause = this.RULE('whenClause', () => {
    this.CONSUME(t.When);
    this.SUBRULE(this.expression);
    this.CONSUME(t.Then);
    this.SUBRULE2(this.expression);
  });

  elseClause = this.RULE('elseClause', () => {
    this.CONSUME(t.Else);
    this.SUBRULE(this.expression);
  });
}

/** The process-wide parser instance. */
export const formulaParser = new FormulaParser();

export type { CstNode };
