/** The syntax check of the golden-SQL tests refuses broken statements, rewrites included. */
import { describe, expect, it } from 'vitest';
import { checkSyntax, parsableText, type SyntaxFamily } from './syntax.ts';

describe('syntax check of golden SQL', () => {
  const broken: [SyntaxFamily, string][] = [
    ['postgresql', 'SELECT "t0"."id" FROM "public"."orders" "t0" WHERE ORDER BY "t0"."id"'],
    ['mysql', 'SELECT `t0`.`id` FROM `orders` `t0` LIMIT ? OFFSET'],
    ['mariadb', 'INSERT INTO `customers` (`name`) VALUES (?) RETURNING'],
    ['transactsql', 'SELECT [t0].[id] FROM [dbo].[orders] [t0] WHERE ([t0].[id] = @p1'],
  ];

  it.each(broken)('%s refuses a broken statement', (family, text) => {
    expect(() => checkSyntax(family, text)).toThrow();
  });

  it('takes out only what the parser cannot read', () => {
    expect(parsableText('postgresql', `SELECT 1 FROM json_populate_recordset(NULL::"public"."c", $1::json) WHERE "a"::text LIKE $2 ESCAPE '\\'`))
      .toBe('SELECT 1 FROM json_populate_recordset(NULL, $1) WHERE "a"::text LIKE $2');
    expect(parsableText('mysql', 'INSERT INTO `c` (`a`) VALUES (?) AS `new_row` ON DUPLICATE KEY UPDATE `a` = `new_row`.`a`'))
      .toBe('INSERT INTO `c` (`a`) VALUES (?) ON DUPLICATE KEY UPDATE `a` = VALUES(`a`)');
  });

  it('still refuses a broken statement after the rewrites', () => {
    expect(() => checkSyntax('mysql', 'INSERT INTO `c` (`a`) VALUES (?) AS `new_row` ON DUPLICATE KEY UPDATE `a` =')).toThrow();
    expect(() => checkSyntax('postgresql', `SELECT FROM json_populate_recordset(NULL::"public"."c", $1::json) WHERE`)).toThrow();
  });
});
