import { defineConfig } from 'prisma/config';

// The datasource URL is given at run time (embedded PostgreSQL or DATABASE_URL); generation
// needs only the schema.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
