/**
 * The demo workspace's tables and rows (DESIGN §2): regions, customers, products, orders, with
 * foreign keys and unique columns. Deterministic, so the README's walkthrough shows real rows.
 */
export const DEMO_SCHEMA = 'demo';

const REGIONS = ['North', 'South', 'East', 'West', 'Central'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'John', 'Radia', 'Tim'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Backus', 'Perlman', 'Berners-Lee'];
const PRODUCTS: [string, string, number][] = [
  ['KB-01', 'Keyboard', 49.9], ['MS-02', 'Mouse', 19.5], ['MN-03', 'Monitor', 229], ['LP-04', 'Laptop stand', 35.25],
  ['HD-05', 'Headset', 89.99], ['CB-06', 'USB-C cable', 9.75], ['DK-07', 'Docking station', 159], ['WC-08', 'Webcam', 64.5],
];
const STATUSES = ['new', 'paid', 'shipped', 'delivered', 'cancelled'];

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function demoStatements(): string[] {
  const s = DEMO_SCHEMA;
  const statements = [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE ${s}.regions (id serial PRIMARY KEY, name varchar(50) NOT NULL UNIQUE)`,
    `CREATE TABLE ${s}.customers (id serial PRIMARY KEY, name varchar(100) NOT NULL, email varchar(200) NOT NULL UNIQUE,
       region_id integer REFERENCES ${s}.regions(id), vip boolean NOT NULL DEFAULT false, birth_date date,
       created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE ${s}.products (id serial PRIMARY KEY, sku varchar(20) NOT NULL UNIQUE, name varchar(100) NOT NULL,
       price numeric(10,2) NOT NULL)`,
    `CREATE TABLE ${s}.orders (id serial PRIMARY KEY, customer_id integer NOT NULL REFERENCES ${s}.customers(id),
       product_id integer REFERENCES ${s}.products(id), quantity integer NOT NULL DEFAULT 1, amount numeric(12,2) NOT NULL,
       status varchar(20) NOT NULL DEFAULT 'new', note text, ordered_at timestamptz NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE INDEX ON ${s}.orders (customer_id)`,
    `INSERT INTO ${s}.regions (name) VALUES ${REGIONS.map((r) => `(${quote(r)})`).join(', ')}`,
    `INSERT INTO ${s}.products (sku, name, price) VALUES ${PRODUCTS.map(([sku, name, price]) => `(${quote(sku)}, ${quote(name)}, ${price})`).join(', ')}`,
  ];
  const customers = FIRST.map((first, i) => {
    const last = LAST[(i * 5) % LAST.length] ?? 'Doe';
    const birth = i % 4 === 0 ? 'NULL' : quote(`19${60 + i * 3}-0${(i % 9) + 1}-1${i % 10}`);
    return `(${quote(`${first} ${last}`)}, ${quote(`${first.toLowerCase()}.${last.toLowerCase()}@example.com`)}, ${(i % REGIONS.length) + 1}, ${i % 3 === 0}, ${birth})`;
  });
  statements.push(`INSERT INTO ${s}.customers (name, email, region_id, vip, birth_date) VALUES ${customers.join(', ')}`);
  const orders = Array.from({ length: 60 }, (_, i) => {
    const product = (i * 3) % PRODUCTS.length;
    const quantity = (i % 4) + 1;
    const amount = ((PRODUCTS[product]?.[2] ?? 1) * quantity).toFixed(2);
    const day = String((i % 28) + 1).padStart(2, '0');
    const note = i % 5 === 0 ? quote(`gift #${i}`) : 'NULL';
    return `(${(i * 7) % FIRST.length + 1}, ${product + 1}, ${quantity}, ${amount}, ${quote(STATUSES[i % STATUSES.length] ?? 'new')}, ${note}, ${quote(`2026-${String((i % 10) + 1).padStart(2, '0')}-${day}T${String(i % 24).padStart(2, '0')}:15:00Z`)})`;
  });
  statements.push(`INSERT INTO ${s}.orders (customer_id, product_id, quantity, amount, status, note, ordered_at) VALUES ${orders.join(', ')}`);
  return statements;
}
