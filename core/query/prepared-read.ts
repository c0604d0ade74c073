/** A read's plan with its statements compiled and its page rendered: what the read caches keep. */
import { render, type CompiledSql } from '../sql.ts';
import type { BoundDialect } from '../../dialects/dialect.ts';
import { compileRead, type CompiledRead } from './compile-read.ts';
import type { ReadPlan } from './plan.ts';

export interface PreparedRead {
  readonly plan: ReadPlan;
  readonly compiled: CompiledRead;
  readonly page: CompiledSql;
}

export function prepare(plan: ReadPlan, dialect: BoundDialect): PreparedRead {
  const compiled = compileRead(plan, dialect);
  return { plan, compiled, page: render(compiled.page, dialect.sql) };
}
