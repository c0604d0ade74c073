/**
 * Exact decimals for the operations the agreed meaning defines through SQL NUMERIC: ROUND,
 * MOD, CAST to INTEGER/BIGINT/DECIMAL. A double enters NUMERIC as its shortest round-trip
 * digits (what every vendor prints) rounded half away from zero to 15 significant digits, so
 * `ROUND(2.675, 2)` is 2.68 on every vendor, as a decimal reading of the formula suggests.
 * Rounding the shortest digits, not the exact binary value, is what MySQL/MariaDB can do
 * (their double → DECIMAL goes through the shortest digits); docs/formulas-and-parity.md, "Values and rules".
 */

/** `digits × 10^-scale`; scale may be negative. */
export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses decimal text (`-12.50`, `1e3`, `.5`); null when it is not one. */
export function parseDecimal(text: string): Decimal | null {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return null;
  const magnitude = BigInt(whole + fraction || '0');
  return { digits: sign === '-' ? -magnitude : magnitude, scale: fraction.length - Number(exponent) };
}

const SIGNIFICANT_DIGITS = 15;

/** The NUMERIC value a double converts to: its shortest digits, rounded to 15 significant digits. */
export function decimalFromDouble(value: number): Decimal {
  const shortest = parseDecimal(String(value));
  if (!shortest || !Number.isFinite(value)) throw new Error(`cannot read ${value} as a decimal`);
  const extra = abs(shortest.digits).toString().length - SIGNIFICANT_DIGITS;
  return extra > 0 ? roundDecimal(shortest, shortest.scale - extra) : shortest;
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

/** Rounds to `scale` fractional digits, half away from zero (SQL NUMERIC rounding). */
export function roundDecimal(value: Decimal, scale: number): Decimal {
  if (value.scale <= scale) return value;
  const factor = pow10(value.scale - scale);
  let quotient = value.digits / factor;
  const remainder = abs(value.digits % factor);
  if (remainder * 2n >= factor) quotient += value.digits < 0n ? -1n : 1n;
  return { digits: quotient, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.digits * pow10(scale - a.scale), b.digits * pow10(scale - b.scale), scale];
}

/** Remainder with the sign of the dividend; null when the divisor is zero. */
export function modDecimal(a: Decimal, b: Decimal): Decimal | null {
  const [x, y, scale] = align(a, b);
  if (y === 0n) return null;
  return { digits: x % y, scale };
}

export function decimalToString(value: Decimal): string {
  if (value.scale <= 0) return (value.digits * pow10(-value.scale)).toString();
  const negative = value.digits < 0n;
  const text = abs(value.digits).toString().padStart(value.scale + 1, '0');
  const point = text.length - value.scale;
  return `${negative ? '-' : ''}${text.slice(0, point)}.${text.slice(point)}`;
}

export function decimalToNumber(value: Decimal): number {
  return Number(decimalToString(value));
}

/** Integer value (scale ≤ 0 after rounding) as a bigint. */
export function decimalToBigInt(value: Decimal): bigint {
  const rounded = roundDecimal(value, 0);
  return rounded.scale <= 0 ? rounded.digits * pow10(-rounded.scale) : rounded.digits;
}

/** Whether the value fits NUMERIC(precision, scale) once rounded to `scale`. */
export function fitsPrecision(value: Decimal, precision: number, scale: number): boolean {
  const rounded = roundDecimal(value, scale);
  const units = rounded.digits * pow10(scale - rounded.scale);
  return abs(units) < pow10(precision);
}
