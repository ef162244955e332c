import Fluent
import SQLKit

/// The products page's category chips count the workspace's products of each type. Counted
/// when asked, that read walks one index entry per product: 6.9 ms for 100 000 products, most
/// of the page's time without the read cache. On SQLite, triggers keep the counts in a table of
/// their own, in the same transaction as every insert, change and deletion of a product (SQLite
/// has one writer, so the counts' rows never make two writers wait on each other).
///
/// PostgreSQL keeps counting when asked: there, a counts row per type would be locked by every
/// transaction that writes a product of that type, and two imports writing the same types in
/// another order could deadlock (`ProductStore.chips` says which way it reads).
struct M097_CountProductTypes: AsyncMigration {
  static let table = "product_type_counts"

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
    try await sql.raw(
      """
      CREATE TABLE product_type_counts (
        workspace_id UUID NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        type_key TEXT NOT NULL, type TEXT NOT NULL, count INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, type_key, type)) WITHOUT ROWID
      """
    ).run()
    try await sql.raw(
      """
      INSERT INTO product_type_counts (workspace_id, type_key, type, count)
      SELECT workspace_id, type_key, type, COUNT(*) FROM products
      GROUP BY workspace_id, type_key, type
      """
    ).run()
    let add = """
      INSERT INTO product_type_counts (workspace_id, type_key, type, count)
      VALUES (NEW.workspace_id, NEW.type_key, NEW.type, 1)
      ON CONFLICT (workspace_id, type_key, type) DO UPDATE SET count = count + 1;
      """
    let remove = """
      UPDATE product_type_counts SET count = count - 1
      WHERE workspace_id = OLD.workspace_id AND type_key = OLD.type_key AND type = OLD.type;
      DELETE FROM product_type_counts
      WHERE workspace_id = OLD.workspace_id AND type_key = OLD.type_key AND type = OLD.type
        AND count <= 0;
      """
    try await sql.raw(
      "CREATE TRIGGER products_type_count_insert AFTER INSERT ON products BEGIN \(unsafeRaw: add) END"
    ).run()
    try await sql.raw(
      "CREATE TRIGGER products_type_count_delete AFTER DELETE ON products BEGIN \(unsafeRaw: remove) END"
    ).run()
    try await sql.raw(
      """
      CREATE TRIGGER products_type_count_update AFTER UPDATE OF workspace_id, type_key, type
      ON products
      WHEN OLD.workspace_id IS NOT NEW.workspace_id OR OLD.type_key IS NOT NEW.type_key
        OR OLD.type IS NOT NEW.type
      BEGIN \(unsafeRaw: remove) \(unsafeRaw: add) END
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
    for event in ["insert", "delete", "update"] {
      try await sql.raw("DROP TRIGGER products_type_count_\(unsafeRaw: event)").run()
    }
    try await sql.raw("DROP TABLE product_type_counts").run()
  }
}
