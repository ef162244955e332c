import Fluent
import SQLKit

/// Outgoing mail and what it carries: the outbox (`MailOutbox`), password-reset links
/// (`PasswordResets`) and sign-ups waiting for their address to be confirmed
/// (`PendingSignups`). Links are kept only as the SHA-256 of their secret.
struct M094_CreateMailTables: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(MailOutbox.table)
      .field(.id, .uuid, .identifier(auto: false))
      .field("kind", .string, .required)
      .field("recipient", .string, .required)
      .field("reply_to", .string)
      .field("subject", .string, .required)
      .field("body", .string, .required)
      .field("requested_by", .uuid, .references(User.schema, "id", onDelete: .setNull))
      .field(
        "workspace_id", .uuid, .references("workspaces", "id", onDelete: .cascade)
      )
      .field("status", .string, .required)
      .field("attempts", .int, .required)
      .field("next_attempt_at", .datetime, .required)
      .field("last_error", .string)
      .field("created_at", .datetime, .required)
      .field("sent_at", .datetime)
      .create()
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.create(index: "mail_outbox_due").on(MailOutbox.table)
      .column("status").column("next_attempt_at").run()
    try await sql.create(index: "mail_outbox_requested_by").on(MailOutbox.table)
      .column("requested_by").column("created_at").run()

    try await database.schema(PasswordResets.table)
      .field(.id, .uuid, .identifier(auto: false))
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("token_hash", .string, .required)
      .field("created_at", .datetime, .required)
      .field("expires_at", .datetime, .required)
      .field("used_at", .datetime)
      .unique(on: "token_hash")
      .create()
    try await sql.create(index: "password_resets_user").on(PasswordResets.table)
      .column("user_id").run()

    try await database.schema(PendingSignups.table)
      .field(.id, .uuid, .identifier(auto: false))
      .field("email", .string, .required)
      .field("password_hash", .string, .required)
      .field("locale", .string, .required)
      .field("currency", .string, .required)
      .field("ui_language", .string, .required)
      .field("next", .string)
      .field("token_hash", .string, .required)
      .field("created_at", .datetime, .required)
      .field("expires_at", .datetime, .required)
      .unique(on: "token_hash")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(PendingSignups.table).delete()
    try await database.schema(PasswordResets.table).delete()
    try await database.schema(MailOutbox.table).delete()
  }
}
