import Fluent
import SQLKit

/// One number per account and area that grows with every committed change to the area's
/// tables: the key of the read cache (`ReadCache`). Triggers in the database bump it, so no
/// write path can forget to, and a second app instance sees the new number as soon as the
/// write is committed.
///
/// SQLite bumps once per changed row (it has one writer, and an upsert of one small row costs
/// microseconds). PostgreSQL bumps once per transaction, at commit: the trigger is a deferred
/// constraint trigger, so every transaction takes the version row's lock last, after its
/// other locks, and two writers of one account cannot wait on each other in a circle; the
/// transaction id kept beside the version turns the rest of a bulk write's rows into no-ops.
struct M084_CreateChangeVersions: AsyncMigration {
  static let table = "change_versions"

  /// The tables each area's cached reads depend on.
  static let watched: [(table: String, area: ChangeArea)] = [
    ("products", .products), ("product_favorites", .products), ("product_photos", .products),
    // The whole catalog's count (the list's total) lives here.
    ("product_counters", .products), ("expenses", .expenses),
  ]

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    if sql.dialect.name == "postgresql" {
      try await sql.raw(
        """
        CREATE TABLE change_versions (
          user_id UUID NOT NULL, area TEXT NOT NULL, version BIGINT NOT NULL,
          bumped_by BIGINT NOT NULL, PRIMARY KEY (user_id, area))
        """
      ).run()
      try await sql.raw(
        """
        CREATE FUNCTION bump_change_version() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE account UUID;
        BEGIN
          IF TG_OP = 'DELETE' THEN account := OLD.user_id; ELSE account := NEW.user_id; END IF;
          INSERT INTO change_versions (user_id, area, version, bumped_by)
          VALUES (account, TG_ARGV[0], 1, txid_current())
          ON CONFLICT (user_id, area) DO UPDATE
            SET version = change_versions.version + 1, bumped_by = EXCLUDED.bumped_by
            WHERE change_versions.bumped_by <> EXCLUDED.bumped_by;
          RETURN NULL;
        END $$
        """
      ).run()
      for (table, area) in Self.watched {
        try await sql.raw(
          """
          CREATE CONSTRAINT TRIGGER \(unsafeRaw: table)_bump_version
          AFTER INSERT OR UPDATE OR DELETE ON \(ident: table)
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
          EXECUTE FUNCTION bump_change_version('\(unsafeRaw: area.rawValue)')
          """
        ).run()
      }
    } else {
      try await sql.raw(
        """
        CREATE TABLE change_versions (
          user_id BLOB NOT NULL, area TEXT NOT NULL, version INTEGER NOT NULL,
          PRIMARY KEY (user_id, area)) WITHOUT ROWID
        """
      ).run()
      for (table, area) in Self.watched {
        for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
          try await sql.raw(
            """
            CREATE TRIGGER \(unsafeRaw: table)_bump_version_\(unsafeRaw: event.lowercased())
            AFTER \(unsafeRaw: event) ON \(ident: table) BEGIN
              INSERT INTO change_versions (user_id, area, version)
              VALUES (\(unsafeRaw: row).user_id, '\(unsafeRaw: area.rawValue)', 1)
              ON CONFLICT (user_id, area) DO UPDATE SET version = version + 1;
            END
            """
          ).run()
        }
      }
    }
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    if sql.dialect.name == "postgresql" {
      for (table, _) in Self.watched {
        try await sql.raw("DROP TRIGGER \(unsafeRaw: table)_bump_version ON \(ident: table)").run()
      }
      try await sql.raw("DROP FUNCTION bump_change_version()").run()
    } else {
      for (table, _) in Self.watched {
        for event in ["insert", "update", "delete"] {
          try await sql.raw("DROP TRIGGER \(unsafeRaw: table)_bump_version_\(unsafeRaw: event)")
            .run()
        }
      }
    }
    try await sql.raw("DROP TABLE change_versions").run()
  }
}
