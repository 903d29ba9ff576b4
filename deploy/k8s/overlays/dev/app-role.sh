#!/bin/bash
# The services' database role, least privilege: `skit_app` may log in,
# read and write the rows of the tables (SELECT, INSERT, UPDATE, DELETE),
# use their sequences, LISTEN and NOTIFY, and nothing else: it owns no
# table, so it cannot change the schema, TRUNCATE, or disable the audit
# log's append-only triggers (which only the owner, POSTGRES_USER, may);
# it is no superuser and cannot become the owner. `skit-game --migrate`
# runs as the owner; the tables it creates are granted to skit_app by the
# default privileges below. Run by PostgreSQL's first start
# (/docker-entrypoint-initdb.d, compose.yaml) as the owner; on an
# existing database run it once by hand (docs/operations.md, "Database
# roles"): POSTGRES_USER=skit POSTGRES_DB=skitgubbe deploy/postgres/app-role.sh
# The password is the file SKIT_APP_PASSWORD_FILE (/run/secrets/app-password).
set -euo pipefail
password="$(<"${SKIT_APP_PASSWORD_FILE:-/run/secrets/app-password}")"
psql -X -q -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app_password="$password" -v owner="$POSTGRES_USER" -v db="$POSTGRES_DB" <<'SQL'
SELECT NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'skit_app') AS missing \gset
\if :missing
  CREATE ROLE skit_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
\endif
ALTER ROLE skit_app PASSWORD :'app_password';
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db" TO skit_app;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO skit_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO skit_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO skit_app;
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO skit_app;
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO skit_app;
SQL
echo "app-role: skit_app may read and write the rows of $POSTGRES_DB, and change nothing else"
