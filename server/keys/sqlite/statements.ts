// Statements prepared once, by their SQL: better-sqlite3 statements are reusable, and preparing one costs a parse.
import type Database from 'better-sqlite3';

export function statementCache(db: Database.Database): (text: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
}
