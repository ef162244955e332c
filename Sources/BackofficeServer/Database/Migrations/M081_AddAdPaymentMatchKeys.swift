import BackofficeCore
import Fluent
import SQLKit

/// `ad_payments.match_key`, filled for every existing entry, and an index per account: an
/// import looks up the entries it is about to add by this key (see `AdPayment.matchFields`).
struct M081_AddAdPaymentMatchKeys: AsyncMigration {
  static let index = "ad_payments_user_match_key"

  func prepare(on database: any Database) async throws {
    try await database.schema("ad_payments")
      .field("match_key", .string, .required, .sql(.default("")))
      .update()
    try await MatchKeyBackfill.run(
      table: "ad_payments", columns: ["name", "url"], on: database
    ) { row in
      let payment = AdPayment(
        name: try row.decode(column: "name", as: String.self),
        url: try row.decode(column: "url", as: String.self))
      return MatchKey.make(payment.matchFields)
    }
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: Self.index)
        .on("ad_payments").column("user_id").column("match_key").run()
    }
  }

  func revert(on database: any Database) async throws {
    if let sql = database as? any SQLDatabase {
      try await sql.drop(index: Self.index).run()
    }
    try await database.schema("ad_payments").deleteField("match_key").update()
  }
}
