/**
 * Deriving API names, display names and slugs from database names (DESIGN §3, §12).
 * Every function here is pure and deterministic: the same input always gives the same name,
 * so a schema sync never renames a field behind a client's back.
 */

/**
 * Splits a name into ASCII words. Accents are folded (`prénom` → `prenom`); any character that
 * is not an ASCII letter or digit separates words; a lower-case letter or digit followed by an
 * upper-case one is a camelCase boundary when `splitCamel` is set.
 */
function words(name: string, splitCamel: boolean): string[] {
  const folded = name.normalize('NFKD').replace(/\p{M}/gu, '');
  const spaced = splitCamel ? folded.replace(/([a-z0-9])([A-Z])/g, '$1 $2') : folded;
  return spaced.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
}

/** A name with no usable ASCII character (e.g. `名前`) becomes `_` plus its UTF-8 bytes in hex. */
function opaqueName(name: string): string {
  return '_' + Buffer.from(name, 'utf8').toString('hex');
}

function isAllUpper(word: string): boolean {
  return word === word.toUpperCase() && word !== word.toLowerCase();
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * camelCase API name of a table or column name.
 *
 * - `order_items` → `orderItems`, `created_at` → `createdAt`, `Total Price` → `totalPrice`;
 * - names already in camelCase are unchanged (`createdAt`, `userID`); PascalCase loses its
 *   capital (`OrderItems` → `orderItems`);
 * - an all-capitals word is lowered before capitalising (`USER_ID` → `userId`, `ID` → `id`);
 * - a result starting with a digit gets a leading `_` (`2fa_code` → `_2faCode`), so every
 *   API name is an identifier;
 * - a name without ASCII letters or digits becomes `_` + hex of its UTF-8 bytes.
 */
export function camelCase(name: string): string {
  const parts = words(name, false);
  const [first, ...rest] = parts;
  if (first === undefined) return opaqueName(name);
  const head = isAllUpper(first) ? first.toLowerCase() : first.charAt(0).toLowerCase() + first.slice(1);
  const tail = rest.map((w) => capitalise(isAllUpper(w) ? w.toLowerCase() : w));
  const result = head + tail.join('');
  return /^[0-9]/.test(result) ? '_' + result : result;
}

/** PascalCase, used to build disambiguated relationship names (`shippingAddressId` → `ShippingAddressId`). */
export function pascalCase(name: string): string {
  return capitalise(camelCase(name).replace(/^_/, ''));
}

/**
 * Default display name of a column (DESIGN §12): words separated by `_`, spaces or camelCase
 * boundaries, each capitalised and joined by one space (`created_at` → `Created At`,
 * `createdAt` → `Created At`, `userID` → `User ID`).
 */
export function displayName(name: string): string {
  const parts = words(name, true);
  if (parts.length === 0) return name;
  return parts.map(capitalise).join(' ');
}

/** Lower kebab-case of one or more names, joined by `-` (`orderItems` → `order-items`). */
export function kebabCase(...names: string[]): string {
  return names
    .flatMap((n) => words(n, true))
    .map((w) => w.toLowerCase())
    .join('-');
}

/** Slug of an entity's default view: `{org}-{ws}-{entity}` in lower kebab case (DESIGN §12). */
export function defaultViewSlug(org: string, workspace: string, entity: string): string {
  return kebabCase(org, workspace, entity);
}

/** snake_case database name for a column created through the API (`Delivery Note` → `delivery_note`). */
export function snakeCase(name: string): string {
  const parts = words(name, true).map((w) => w.toLowerCase());
  if (parts.length === 0) return opaqueName(name).slice(1);
  const result = parts.join('_');
  return /^[0-9]/.test(result) ? `c_${result}` : result;
}
