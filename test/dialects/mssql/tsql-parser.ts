/**
 * Syntax checks of emitted T-SQL with node-sql-parser (database 'transactsql'), which parses
 * SELECT, INSERT … VALUES, UPDATE … FROM, DELETE … FROM and ALTER TABLE but not every T-SQL
 * construct. Before parsing, the constructs it does not know are taken out and are checked by
 * golden text only: `COLLATE <name>` after a parenthesised expression, `ESCAPE '\'`, and
 * parameters in OFFSET/FETCH (replaced by numbers). MERGE, OUTPUT, DECLARE and TRY/CATCH
 * batches are not parsed at all.
 */
import nodeSqlParser from 'node-sql-parser';

const parser = new nodeSqlParser.Parser();

/** The text the parser is given (see the header comment). */
export function parsableText(text: string): string {
  return text
    .replace(/\s+COLLATE\s+[A-Za-z0-9_]+/g, '')
    .replace(/\s+ESCAPE\s+'\\'/g, '')
    .replace(/OFFSET @p\d+ ROWS FETCH NEXT @p\d+ ROWS ONLY/g, 'OFFSET 0 ROWS FETCH NEXT 10 ROWS ONLY');
}

/** Throws the parser's message when `text` is not T-SQL it accepts. */
export function parseTsql(text: string): void {
  parser.astify(parsableText(text), { database: 'transactsql' });
}

/** True when the parser accepts `text`; the message otherwise. */
export function tsqlSyntaxError(text: string): string | null {
  try {
    parseTsql(text);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 300) : String(error);
  }
}
