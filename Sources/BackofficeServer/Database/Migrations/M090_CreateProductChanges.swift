import Fluent
import SQLKit

/// The catalog's change feed (`GET /api/v1/product-changes`): every product carries the
/// number of its last change (`change_seq`), growing per account; a deleted product leaves a
/// tombstone with the number of its deletion. A device that has seen the changes up to `n`
/// asks for those after `n` and gets every product added, changed, starred or unstarred and
/// every product deleted since, in order.
///
/// Triggers number the changes, so no write path (forms, the API, the direct writer, imports,
/// a restore, plain SQL) can forget to. The numbers follow the commit order within an account:
/// SQLite has one writer; on PostgreSQL the triggers are deferred to commit, where each
/// transaction takes the account's counter row last and holds it until it has committed, so a
/// reader can never see change 7 while change 6 is still to come.
struct M090_CreateProductChanges: AsyncMigration {
  static let counters = "product_change_counters"
  static let tombstones = "product_tombstones"

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    let postgres = sql.dialect.name == "postgresql"
    let (uuid, bigint) = postgres ? ("UUID", "BIGINT") : ("BLOB", "INTEGER")
    try await sql.raw(
      "ALTER TABLE products ADD COLUMN change_seq \(unsafeRaw: bigint) NOT NULL DEFAULT 0"
    ).run()
    // Existing products are numbered in the order they were added (numbers are unique per
    // account), and each counter starts after its account's highest.
    try await sql.raw("UPDATE products SET change_seq = number").run()
    try await sql.raw(
      """
      CREATE TABLE \(ident: Self.counters) (
        user_id \(unsafeRaw: uuid) NOT NULL PRIMARY KEY,
        last_change \(unsafeRaw: bigint) NOT NULL,
        purged_through \(unsafeRaw: bigint) NOT NULL DEFAULT 0)\(unsafeRaw: postgres ? "" : " WITHOUT ROWID")
      """
    ).run()
    try await sql.raw(
      """
      INSERT INTO \(ident: Self.counters) (user_id, last_change, purged_through)
      SELECT user_id, MAX(number), 0 FROM products GROUP BY user_id
      """
    ).run()
    try await sql.raw(
      """
      CREATE TABLE \(ident: Self.tombstones) (
        user_id \(unsafeRaw: uuid) NOT NULL, product_id \(unsafeRaw: uuid) NOT NULL,
        change_seq \(unsafeRaw: bigint) NOT NULL, deleted_at \(unsafeRaw: bigint) NOT NULL,
        PRIMARY KEY (user_id, product_id))\(unsafeRaw: postgres ? "" : " WITHOUT ROWID")
      """
    ).run()
    try await sql.raw(
      "CREATE INDEX product_tombstones_user_change ON \(ident: Self.tombstones) (user_id, change_seq)"
    ).run()
    try await sql.raw("CREATE INDEX products_user_change ON products (user_id, change_seq)").run()
    if postgres {
      try await Self.postgresTriggers(sql)
    } else {
      try await Self.sqliteTriggers(sql)
    }
  }

  private static func sqliteTriggers(_ sql: any SQLDatabase) async throws {
    // The account's next change number; `source` selects the account (`user_id`) in one row,
    // or in none, when there is nothing to number. (The WHERE also tells SQLite's parser that
    // ON CONFLICT is not a join's ON.)
    func bump(_ source: String) -> String {
      """
      INSERT INTO product_change_counters (user_id, last_change) SELECT \(source)
        ON CONFLICT (user_id) DO UPDATE SET last_change = last_change + 1;
      """
    }
    let number =
      "(SELECT last_change FROM product_change_counters c WHERE c.user_id = products.user_id)"
    // The trigger's own UPDATE changes change_seq, so the WHEN keeps it from firing again.
    try await sql.raw(
      """
      CREATE TRIGGER products_change_insert AFTER INSERT ON products BEGIN
        \(unsafeRaw: bump("NEW.user_id, 1 WHERE true"))
        UPDATE products SET change_seq = \(unsafeRaw: number) WHERE id = NEW.id;
        DELETE FROM product_tombstones WHERE user_id = NEW.user_id AND product_id = NEW.id;
      END
      """
    ).run()
    try await sql.raw(
      """
      CREATE TRIGGER products_change_update AFTER UPDATE ON products
      WHEN NEW.change_seq IS OLD.change_seq BEGIN
        \(unsafeRaw: bump("NEW.user_id, 1 WHERE true"))
        UPDATE products SET change_seq = \(unsafeRaw: number) WHERE id = NEW.id;
      END
      """
    ).run()
    try await sql.raw(
      """
      CREATE TRIGGER products_change_delete AFTER DELETE ON products BEGIN
        \(unsafeRaw: bump("OLD.user_id, 1 WHERE true"))
        INSERT INTO product_tombstones (user_id, product_id, change_seq, deleted_at)
        VALUES (OLD.user_id, OLD.id,
          (SELECT last_change FROM product_change_counters WHERE user_id = OLD.user_id),
          CAST(unixepoch() AS INTEGER))
        ON CONFLICT (user_id, product_id) DO UPDATE
          SET change_seq = excluded.change_seq, deleted_at = excluded.deleted_at;
      END
      """
    ).run()
    // A star is the product's change for its owner's devices: the product is sent again with
    // its mark. A product deleted with its stars changes nothing here (its tombstone says it).
    for (event, row) in [("INSERT", "NEW"), ("DELETE", "OLD")] {
      try await sql.raw(
        """
        CREATE TRIGGER product_favorites_change_\(unsafeRaw: event.lowercased())
        AFTER \(unsafeRaw: event) ON product_favorites BEGIN
          \(unsafeRaw: bump("user_id, 1 FROM products WHERE id = \(row).product_id"))
          UPDATE products SET change_seq = \(unsafeRaw: number) WHERE id = \(unsafeRaw: row).product_id;
        END
        """
      ).run()
    }
  }

  private static func postgresTriggers(_ sql: any SQLDatabase) async throws {
    try await sql.raw(
      """
      CREATE FUNCTION product_change_number(account UUID) RETURNS BIGINT LANGUAGE plpgsql AS $$
      DECLARE number BIGINT;
      BEGIN
        INSERT INTO product_change_counters (user_id, last_change) VALUES (account, 1)
        ON CONFLICT (user_id) DO UPDATE
          SET last_change = product_change_counters.last_change + 1
        RETURNING last_change INTO number;
        RETURN number;
      END $$
      """
    ).run()
    try await sql.raw(
      """
      CREATE FUNCTION products_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO product_tombstones (user_id, product_id, change_seq, deleted_at)
          VALUES (OLD.user_id, OLD.id, product_change_number(OLD.user_id),
            EXTRACT(EPOCH FROM now())::BIGINT)
          ON CONFLICT (user_id, product_id) DO UPDATE
            SET change_seq = EXCLUDED.change_seq, deleted_at = EXCLUDED.deleted_at;
        ELSE
          UPDATE products SET change_seq = product_change_number(user_id) WHERE id = NEW.id;
          IF TG_OP = 'INSERT' THEN
            DELETE FROM product_tombstones WHERE user_id = NEW.user_id AND product_id = NEW.id;
          END IF;
        END IF;
        RETURN NULL;
      END $$
      """
    ).run()
    try await sql.raw(
      """
      CREATE FUNCTION product_favorites_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE product UUID;
      BEGIN
        IF TG_OP = 'DELETE' THEN product := OLD.product_id; ELSE product := NEW.product_id; END IF;
        UPDATE products SET change_seq = product_change_number(user_id) WHERE id = product;
        RETURN NULL;
      END $$
      """
    ).run()
    // Deferred to commit (see the type's comment). The trigger's own UPDATE changes
    // change_seq, which the WHEN of the update trigger leaves alone.
    try await sql.raw(
      """
      CREATE CONSTRAINT TRIGGER products_record_change AFTER INSERT OR DELETE ON products
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION products_record_change()
      """
    ).run()
    try await sql.raw(
      """
      CREATE CONSTRAINT TRIGGER products_record_update AFTER UPDATE ON products
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (OLD.change_seq IS NOT DISTINCT FROM NEW.change_seq)
      EXECUTE FUNCTION products_record_change()
      """
    ).run()
    try await sql.raw(
      """
      CREATE CONSTRAINT TRIGGER product_favorites_record_change
      AFTER INSERT OR DELETE ON product_favorites
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      EXECUTE FUNCTION product_favorites_record_change()
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    if sql.dialect.name == "postgresql" {
      try await sql.raw("DROP TRIGGER product_favorites_record_change ON product_favorites").run()
      try await sql.raw("DROP TRIGGER products_record_update ON products").run()
      try await sql.raw("DROP TRIGGER products_record_change ON products").run()
      try await sql.raw("DROP FUNCTION product_favorites_record_change()").run()
      try await sql.raw("DROP FUNCTION products_record_change()").run()
      try await sql.raw("DROP FUNCTION product_change_number(UUID)").run()
    } else {
      for name in [
        "products_change_insert", "products_change_update", "products_change_delete",
        "product_favorites_change_insert", "product_favorites_change_delete",
      ] {
        try await sql.raw("DROP TRIGGER \(unsafeRaw: name)").run()
      }
    }
    try await sql.raw("DROP INDEX products_user_change").run()
    try await sql.raw("DROP TABLE \(ident: Self.tombstones)").run()
    try await sql.raw("DROP TABLE \(ident: Self.counters)").run()
    try await sql.raw("ALTER TABLE products DROP COLUMN change_seq").run()
  }
}
