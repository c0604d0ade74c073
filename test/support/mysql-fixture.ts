/**
 * The fixture's DDL for MySQL 8 / MariaDB: InnoDB, utf8mb4, the same tables, columns and
 * constraint names as test/support/postgres-fixture.ts. Booleans are tinyint(1) and timestamps
 * datetime(3), read and written in UTC.
 */
import { TABLE_ROWS, type FixtureRow } from './fixture.ts';

const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4';

export function mysqlFixtureDdl(): string[] {
  return [
    `CREATE TABLE regions (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(50) NOT NULL,
       UNIQUE KEY regions_name_key (name)) ${TABLE_OPTIONS}`,
    `CREATE TABLE customers (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(100) NOT NULL,
       email varchar(200) NOT NULL, region_id int NULL, vip tinyint(1) NOT NULL DEFAULT 0, birth_date date NULL,
       created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
       UNIQUE KEY customers_email_key (email),
       CONSTRAINT customers_region_id_fkey FOREIGN KEY (region_id) REFERENCES regions (id)) ${TABLE_OPTIONS}`,
    `CREATE TABLE products (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, sku varchar(20) NOT NULL,
       name varchar(100) NOT NULL, price decimal(10,2) NOT NULL, UNIQUE KEY products_sku_key (sku)) ${TABLE_OPTIONS}`,
    `CREATE TABLE orders (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id int NOT NULL, product_id int NULL,
       quantity int NOT NULL DEFAULT 1, amount decimal(12,2) NOT NULL, status varchar(20) NOT NULL DEFAULT 'new',
       note text NULL, ordered_at datetime(3) NOT NULL,
       created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
       updated_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
       CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id),
       CONSTRAINT orders_product_id_fkey FOREIGN KEY (product_id) REFERENCES products (id)) ${TABLE_OPTIONS}`,
  ];
}

/** Fixture values as MySQL literals accept them: booleans 1/0, ISO timestamps as UTC DATETIME text. */
function mysqlValue(value: FixtureRow[string]): string | number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)) {
    return value.replace('T', ' ').replace('Z', '');
  }
  return value;
}

/** One multi-row INSERT per table, explicit ids included (AUTO_INCREMENT moves past them). */
export function mysqlFixtureInserts(): { text: string; params: unknown[] }[] {
  return TABLE_ROWS.map(([table, rows]) => {
    const columns = Object.keys(rows[0] ?? {});
    const params: unknown[] = [];
    const tuples = rows.map((row) => `(${columns.map((c) => { params.push(mysqlValue(row[c] ?? null)); return '?'; }).join(', ')})`);
    return { text: `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ${tuples.join(', ')}`, params };
  });
}
