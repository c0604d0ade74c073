import type { ConformanceSupport } from '../conformance.ts';

/** What the conformance kit cannot derive from the MySQL/MariaDB dialect (docs/dialects.md). */
export const mysqlConformance: ConformanceSupport = {
  autoId: 'integer AUTO_INCREMENT PRIMARY KEY',
  types: { boolean: 'tinyint(1)', timestamp: 'datetime(3)', text: 'text', varchar: (length) => `varchar(${length})` },
  // A DATETIME(3) default must carry the same fractional precision (MySQL manual §13.2.5).
  defaults: { false: '0', now: 'CURRENT_TIMESTAMP(3)' },
  // InnoDB moves AUTO_INCREMENT past explicitly inserted ids by itself.
  resetIdentity: () => null,
  scratch: {
    // A schema is a database on MySQL; utf8mb4 so the fixture's unicode survives.
    create: (quotedName) => `CREATE SCHEMA ${quotedName} CHARACTER SET utf8mb4`,
    database: (url, name) => {
      const scratch = new URL(url);
      scratch.pathname = `/${name}`;
      return { url: scratch.toString() };
    },
  },
};
