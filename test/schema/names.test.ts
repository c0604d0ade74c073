import { describe, expect, it } from 'vitest';
import { camelCase, defaultViewSlug, displayName, kebabCase, pascalCase } from '../../core/schema/names.ts';

describe('camelCase', () => {
  it.each([
    ['order_items', 'orderItems'],
    ['created_at', 'createdAt'],
    ['customer_id', 'customerId'],
    ['createdAt', 'createdAt'],
    ['userID', 'userID'],
    ['OrderItems', 'orderItems'],
    ['USER_ID', 'userId'],
    ['ID', 'id'],
    ['id', 'id'],
    ['Total Price', 'totalPrice'],
    ['__weird__name__', 'weirdName'],
    ['order-items', 'orderItems'],
    ['2fa_code', '_2faCode'],
    ['123', '_123'],
    ['prénom', 'prenom'],
    ['a$b', 'aB'],
  ])('%s → %s', (input, expected) => {
    expect(camelCase(input)).toBe(expected);
  });

  it('gives names without ASCII letters a stable hex name', () => {
    expect(camelCase('名前')).toBe('_e5908de5898d');
    expect(camelCase('名前')).toBe(camelCase('名前'));
    expect(camelCase('$$')).toBe('_2424');
  });

  it('is idempotent', () => {
    for (const name of ['order_items', 'USER_ID', '2fa_code', 'Total Price', 'prénom', 'a$b']) {
      expect(camelCase(camelCase(name))).toBe(camelCase(name));
    }
  });
});

describe('pascalCase', () => {
  it('capitalises the camelCase name', () => {
    expect(pascalCase('shipping_address_id')).toBe('ShippingAddressId');
    expect(pascalCase('shippingAddressId')).toBe('ShippingAddressId');
    expect(pascalCase('2fa')).toBe('2fa');
  });
});

describe('displayName', () => {
  it.each([
    ['created_at', 'Created At'],
    ['createdAt', 'Created At'],
    ['id', 'Id'],
    ['userID', 'User ID'],
    ['first name', 'First Name'],
    ['__x__', 'X'],
  ])('%s → %s', (input, expected) => {
    expect(displayName(input)).toBe(expected);
  });
});

describe('kebabCase and slugs', () => {
  it('lower-kebab-cases camel, snake and spaced names', () => {
    expect(kebabCase('orderItems')).toBe('order-items');
    expect(kebabCase('order_items')).toBe('order-items');
    expect(kebabCase('Order Items')).toBe('order-items');
    expect(kebabCase('acme', 'Sales Team', 'orderItems')).toBe('acme-sales-team-order-items');
  });

  it('builds the default view slug {org}-{ws}-{entity}', () => {
    expect(defaultViewSlug('demo', 'demo', 'customers')).toBe('demo-demo-customers');
    expect(defaultViewSlug('Acme', 'main', 'orderItems')).toBe('acme-main-order-items');
  });
});
