/**
 * The widget type a computed column is saved with, from the type the formula checker infers. The
 * API's default stays STRING (the spec); the form preselects this so a number formula is not
 * stored as text unless the user says so.
 */
const BY_CHECKED_TYPE: Readonly<Record<string, string>> = {
  number: 'DECIMAL',
  text: 'STRING',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
};

export const COMPUTED_WIDGET_TYPES = ['STRING', 'DECIMAL', 'INTEGER', 'BOOLEAN', 'DATE', 'TIMESTAMP'];

export function widgetTypeOf(checkedType: string): string {
  return BY_CHECKED_TYPE[checkedType] ?? 'STRING';
}
