import BackofficeCore
import Fluent
import Foundation
import SQLKit

/// Teams: every record belongs to a workspace instead of a person. Each existing account gets
/// its own workspace — with the account's id, so its records move into it without being
/// rewritten — and becomes its owner; the records' owner column is renamed from `user_id` to
/// `workspace_id` (the account row it points at stays the workspace's creator, who is never
/// removed from it). Favourites stay a person's marks and learn their workspace; API tokens act
/// in one workspace; a browser session remembers the workspace it is working in.
///
/// SQLite rewrites indexes and triggers itself when a column is renamed; PostgreSQL's trigger
/// functions name the column in their text, so they are written anew here.
struct M092_CreateWorkspaces: AsyncMigration {
  /// Tables whose rows belong to a workspace (their `user_id` becomes `workspace_id`).
  static let owned = [
    "ad_payments", "expenses", "marketing_plans", "products", "product_photos",
    "product_counters", "idempotency_keys", "fundraisers", "fundraiser_photos", "import_jobs",
    "change_versions", "product_change_counters", "product_tombstones",
  ]

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    let postgres = sql.dialect.name == "postgresql"

    try await database.schema("workspaces")
      .field(.id, .uuid, .identifier(auto: false))
      .field("name", .string, .required)
      .field("currency", .string, .required)
      .field("created_at", .datetime)
      .create()
    try await database.schema("memberships")
      .id()
      .field(
        "workspace_id", .uuid, .required, .references("workspaces", "id", onDelete: .cascade)
      )
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("role", .string, .required)
      .field("created_at", .datetime)
      .unique(on: "workspace_id", "user_id")
      .create()
    try await sql.create(index: "memberships_user").on("memberships").column("user_id").run()
    try await database.schema("invitations")
      .id()
      .field(
        "workspace_id", .uuid, .required, .references("workspaces", "id", onDelete: .cascade)
      )
      .field("token_hash", .string, .required)
      .field("role", .string, .required)
      .field("created_by", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("expires_at", .datetime, .required)
      .field("used_at", .datetime)
      .field("used_by", .uuid, .references(User.schema, "id", onDelete: .setNull))
      .field("revoked_at", .datetime)
      .field("created_at", .datetime)
      .unique(on: "token_hash")
      .create()
    try await sql.create(index: "invitations_workspace").on("invitations")
      .column("workspace_id").column("created_at").run()
    try await database.schema("activity")
      .id()
      .field(
        "workspace_id", .uuid, .required, .references("workspaces", "id", onDelete: .cascade)
      )
      .field("user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
      .field("actor_email", .string, .required)
      .field("action", .string, .required)
      .field("area", .string, .required)
      .field("record_id", .uuid)
      .field("record_name", .string, .required)
      .field("created_at", .datetime, .required)
      .create()
    try await sql.create(index: "activity_workspace_created").on("activity")
      .column("workspace_id").column("created_at").run()

    // Every account's own workspace, with the account's id, name and currency.
    // (Written as rows, not through the models: the models have columns of later migrations.)
    let users = try await sql.raw("SELECT id, email, currency, created_at FROM users").all()
    for row in users {
      let id = try row.decode(column: "id", as: UUID.self)
      let user = (
        email: try row.decode(column: "email", as: String.self),
        currency: try row.decode(column: "currency", as: String.self),
        createdAt: try row.decode(column: "created_at", as: Date?.self)
      )
      try await sql.insert(into: "workspaces")
        .columns("id", "name", "currency", "created_at")
        .values(
          SQLBind(id), SQLBind(WorkspaceName.initial(forEmail: user.email)),
          SQLBind(user.currency), SQLBind(user.createdAt)
        ).run()
      try await sql.insert(into: "memberships")
        .columns("id", "workspace_id", "user_id", "role", "created_at")
        .values(
          SQLBind(UUID.random()), SQLBind(id), SQLBind(id), SQLBind(WorkspaceRole.owner.rawValue),
          SQLBind(user.createdAt)
        ).run()
    }

    for table in Self.owned {
      try await sql.raw(
        "ALTER TABLE \(ident: table) RENAME COLUMN user_id TO workspace_id"
      ).run()
    }
    // The triggers' functions name the owner column: written anew before any row changes.
    if postgres {
      try await Self.postgresFunctions(sql)
    } else {
      try await Self.sqliteFavoriteTriggers(sql)
    }
    // Favourites are a person's; they also name the workspace of their product.
    try await sql.raw(
      "ALTER TABLE product_favorites ADD COLUMN workspace_id \(unsafeRaw: postgres ? "UUID" : "BLOB")"
    ).run()
    try await sql.raw(
      """
      UPDATE product_favorites SET workspace_id =
        (SELECT workspace_id FROM products WHERE products.id = product_favorites.product_id)
      """
    ).run()
    try await sql.create(index: "product_favorites_workspace_user").on("product_favorites")
      .column("workspace_id").column("user_id").run()
    try await sql.raw(
      "ALTER TABLE api_tokens ADD COLUMN workspace_id \(unsafeRaw: postgres ? "UUID" : "BLOB")"
    ).run()
    try await sql.raw("UPDATE api_tokens SET workspace_id = user_id").run()
    try await sql.raw(
      "ALTER TABLE \(ident: BrowserSessionStore.table) ADD COLUMN workspace_id \(unsafeRaw: postgres ? "UUID" : "BLOB")"
    ).run()
  }

  /// The favourites' triggers bumped the cache version and the change number of the person's
  /// account; now of the product's workspace.
  /// (Reverting writes them back with `owner` = `user_id`.)
  private static func sqliteFavoriteTriggers(_ sql: any SQLDatabase, owner: String = "workspace_id")
    async throws
  {
    for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
      let name = "product_favorites_bump_version_\(event.lowercased())"
      try await sql.raw("DROP TRIGGER \(unsafeRaw: name)").run()
      try await sql.raw(
        """
        CREATE TRIGGER \(unsafeRaw: name) AFTER \(unsafeRaw: event) ON product_favorites BEGIN
          INSERT INTO change_versions (\(unsafeRaw: owner), area, version)
          SELECT \(unsafeRaw: owner), 'products', 1 FROM products
          WHERE id = \(unsafeRaw: row).product_id
          ON CONFLICT (\(unsafeRaw: owner), area) DO UPDATE SET version = version + 1;
        END
        """
      ).run()
    }
  }

  /// The trigger functions of M084 and M090 with the owner column `owner` (reverting writes
  /// them back with `user_id`).
  private static func postgresFunctions(_ sql: any SQLDatabase, owner: String = "workspace_id")
    async throws
  {
    try await sql.raw(
      """
      CREATE OR REPLACE FUNCTION bump_change_version() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE workspace UUID;
      BEGIN
        IF TG_TABLE_NAME = 'product_favorites' THEN
          IF TG_OP = 'DELETE' THEN
            SELECT p.\(unsafeRaw: owner) INTO workspace FROM products p WHERE p.id = OLD.product_id;
          ELSE
            SELECT p.\(unsafeRaw: owner) INTO workspace FROM products p WHERE p.id = NEW.product_id;
          END IF;
          IF workspace IS NULL THEN RETURN NULL; END IF;
        ELSIF TG_OP = 'DELETE' THEN workspace := OLD.\(unsafeRaw: owner);
        ELSE workspace := NEW.\(unsafeRaw: owner);
        END IF;
        INSERT INTO change_versions (\(unsafeRaw: owner), area, version, bumped_by)
        VALUES (workspace, TG_ARGV[0], 1, txid_current())
        ON CONFLICT (\(unsafeRaw: owner), area) DO UPDATE
          SET version = change_versions.version + 1, bumped_by = EXCLUDED.bumped_by
          WHERE change_versions.bumped_by <> EXCLUDED.bumped_by;
        RETURN NULL;
      END $$
      """
    ).run()
    try await sql.raw(
      """
      CREATE OR REPLACE FUNCTION product_change_number(account UUID) RETURNS BIGINT
      LANGUAGE plpgsql AS $$
      DECLARE number BIGINT;
      BEGIN
        INSERT INTO product_change_counters (\(unsafeRaw: owner), last_change) VALUES (account, 1)
        ON CONFLICT (\(unsafeRaw: owner)) DO UPDATE
          SET last_change = product_change_counters.last_change + 1
        RETURNING last_change INTO number;
        RETURN number;
      END $$
      """
    ).run()
    try await sql.raw(
      """
      CREATE OR REPLACE FUNCTION products_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO product_tombstones (\(unsafeRaw: owner), product_id, change_seq, deleted_at)
          VALUES (OLD.\(unsafeRaw: owner), OLD.id, product_change_number(OLD.\(unsafeRaw: owner)),
            EXTRACT(EPOCH FROM now())::BIGINT)
          ON CONFLICT (\(unsafeRaw: owner), product_id) DO UPDATE
            SET change_seq = EXCLUDED.change_seq, deleted_at = EXCLUDED.deleted_at;
        ELSE
          UPDATE products SET change_seq = product_change_number(\(unsafeRaw: owner)) WHERE id = NEW.id;
          IF TG_OP = 'INSERT' THEN
            DELETE FROM product_tombstones
            WHERE \(unsafeRaw: owner) = NEW.\(unsafeRaw: owner) AND product_id = NEW.id;
          END IF;
        END IF;
        RETURN NULL;
      END $$
      """
    ).run()
    try await sql.raw(
      """
      CREATE OR REPLACE FUNCTION product_favorites_record_change() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE product UUID;
      BEGIN
        IF TG_OP = 'DELETE' THEN product := OLD.product_id; ELSE product := NEW.product_id; END IF;
        UPDATE products SET change_seq = product_change_number(\(unsafeRaw: owner)) WHERE id = product;
        RETURN NULL;
      END $$
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    let postgres = sql.dialect.name == "postgresql"
    for table in Self.owned {
      try await sql.raw("ALTER TABLE \(ident: table) RENAME COLUMN workspace_id TO user_id").run()
    }
    if postgres {
      try await Self.postgresFunctions(sql, owner: "user_id")
    } else {
      try await Self.sqliteFavoriteTriggers(sql, owner: "user_id")
    }
    try await sql.raw("DROP INDEX product_favorites_workspace_user").run()
    try await sql.raw("ALTER TABLE product_favorites DROP COLUMN workspace_id").run()
    try await sql.raw("ALTER TABLE api_tokens DROP COLUMN workspace_id").run()
    try await sql.raw(
      "ALTER TABLE \(ident: BrowserSessionStore.table) DROP COLUMN workspace_id"
    ).run()
    try await database.schema("activity").delete()
    try await database.schema("invitations").delete()
    try await database.schema("memberships").delete()
    try await database.schema("workspaces").delete()
  }
}
