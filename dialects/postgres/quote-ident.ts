/** A PostgreSQL identifier in double quotes, inner quotes doubled: the one quoting rule of this dialect. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
