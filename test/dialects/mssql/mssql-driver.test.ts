/**
 * The driver without a server: connection settings from URLs and connection strings, parameter
 * types, and a real pool pointed at a closed port failing as a connection loss.
 */
import net from 'node:net';
import sql from 'mssql';
import { describe, expect, it } from 'vitest';
import { mapMssqlError } from '../../../dialects/mssql/index.ts';
import { bindParameters, createMssqlDriver, mssqlConfig, parameterType } from '../../../dialects/mssql/mssql-driver.ts';

describe('connection settings', () => {
  it('reads mssql:// URLs: credentials, port, database, TLS options', () => {
    const config = mssqlConfig({ vendor: 'mssql', url: 'mssql://app%40corp:p%3Ass@db.example:1444/shop?encrypt=false&trustServerCertificate=true&instanceName=SQL1', poolSize: 4 });
    expect(config).toMatchObject({
      server: 'db.example', port: 1444, user: 'app@corp', password: 'p:ss', database: 'shop',
      pool: { max: 4 },
      options: { encrypt: false, trustServerCertificate: true, useUTC: true, instanceName: 'SQL1' },
    });
  });

  it('encrypts by default and trusts no self-signed certificate unless asked', () => {
    const config = mssqlConfig({ vendor: 'mssql', url: 'sqlserver://sa:x@localhost/master' });
    expect(config.options).toMatchObject({ encrypt: true, trustServerCertificate: false });
    expect(config.port).toBeUndefined();
    expect(config.pool?.max).toBe(10);
  });

  it('accepts ADO.NET connection strings', () => {
    const config = mssqlConfig({ vendor: 'mssql', url: 'Server=tcp:db.example,1433;Database=shop;User Id=sa;Password=secret;TrustServerCertificate=true', poolSize: 3 });
    expect(config).toMatchObject({ server: 'db.example', port: 1433, database: 'shop', user: 'sa', password: 'secret', pool: { max: 3 } });
  });

  it('needs a URL', () => {
    expect(() => mssqlConfig({ vendor: 'mssql' })).toThrow(/database.url/);
  });
});

describe('parameter types', () => {
  it('binds by value: int32 as int, other numbers as float, Dates as datetime2, strings as nvarchar', () => {
    expect(parameterType(5).type).toBe(sql.Int);
    expect(parameterType(2147483648).type).toBe(sql.Float);
    expect(parameterType(1e300).type).toBe(sql.Float);
    expect(parameterType(2.5).type).toBe(sql.Float);
    expect(parameterType(5n).type).toBe(sql.BigInt);
    expect(parameterType(true).type).toBe(sql.Bit);
    expect(parameterType(new Date()).type).toBe(sql.DateTime2);
    expect(parameterType(new Date())).toMatchObject({ scale: 3 });
    expect(parameterType(Buffer.from('x')).type).toBe(sql.VarBinary);
    expect(parameterType('x')).toMatchObject({ type: sql.NVarChar, length: 4000 });
    expect(parameterType('x'.repeat(4001))).toMatchObject({ type: sql.NVarChar, length: sql.MAX });
    expect(parameterType(null)).toMatchObject({ type: sql.NVarChar, length: 4000 });
  });

  it('names parameters p1… to match the @p1 placeholders', () => {
    const request = new sql.Request();
    bindParameters(request, ['a', 1, undefined]);
    expect(Object.keys(request.parameters)).toEqual(['p1', 'p2', 'p3']);
    expect(request.parameters.p3?.value).toBeNull();
  });
});

describe('an unreachable server', () => {
  it('fails as connection_lost, and close still works', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const driver = createMssqlDriver({ vendor: 'mssql', url: `mssql://sa:x@127.0.0.1:${port}/master?connectTimeout=2000` });
    const error = await driver.ping().then(() => null, (e: unknown) => e);
    expect(error).not.toBeNull();
    expect(mapMssqlError(error)).toEqual({ kind: 'connection_lost' });
    await driver.close();
  });
});
