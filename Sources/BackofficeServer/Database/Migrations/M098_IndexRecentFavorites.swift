import Fluent
import SQLKit

/// The products page shows the viewer's most recently marked favourites
/// (`ProductStore.favoritesStatement`). With only the (workspace_id, user_id) index, every page
/// read all of the viewer's favourites and sorted them to keep 24: with 2 000 favourites that
/// sort was the largest share of SQLite's time on an uncached products page. This index holds
/// them in the order the page asks for, so the page reads its 24 entries and stops. It holds
/// the product ids too, so neither that read nor the count of the viewer's favourites visits
/// the table.
struct M098_IndexRecentFavorites: AsyncMigration {
  static let index = "product_favorites_recent"

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.raw(
      """
      CREATE INDEX \(ident: Self.index) ON \(ident: "product_favorites")
      (workspace_id, user_id, created_at DESC, id, product_id)
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.drop(index: Self.index).run()
  }
}
