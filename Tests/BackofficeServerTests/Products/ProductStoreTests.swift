import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing

@testable import BackofficeServer

/// Every store holds one column list per table it writes (the product store first, the others
/// listed beside it): a column a migration adds and the store does not write (or a column it
/// writes that no migration made) fails here, on the database the suite runs on.
@Suite("Product store")
struct ProductStoreTests {
  @Test func newRowsWriteEveryColumnOfTheirTable() async throws {
    try await withApp { t in
      let id = UUID.random()
      let product = Product(name: "Desk", type: "Office", price: 120, tax: 20)
      let photo = try CheckedPhoto.check(ProductImages.png(width: 4, height: 3), maxBytes: 1 << 20)
        .get()
      let rows: [NewRow] = [
        ProductStore.newProduct(
          id: id, workspaceID: id, number: 1, ProductStore.Values(product),
          photoETag: nil, createdAt: Date(), updatedAt: Date()),
        ProductStore.newPhoto(workspaceID: id, productID: id, photo, createdAt: Date()),
        ProductStore.newFavorite(workspaceID: id, userID: id, productID: id, createdAt: Date()),
        // The other stores without models keep one column list each too.
        AdPaymentStore.newEntry(
          id: id, workspaceID: id, AdPayment(name: "Ads", url: "https://ads.example.com"),
          createdAt: Date(), updatedAt: Date()),
        MarketingPlanRecord(workspaceID: id, name: "Plan", selection: PlanSelection()).newRow,
        try ExpenseRecord(
          workspaceID: id, Expense(title: "Ink", amount: 3, category: .default, date: nil),
          createdAt: Date()
        ).newRow,
        ExpenseReceipt(
          workspaceID: id, expenseID: id, photo: photo, isPublic: false, position: 0,
          createdAt: Date()
        ).newRow,
        APIToken(
          userID: id, workspaceID: id, name: "CI", tokenHash: "h", prefix: "bo_", createdAt: Date()
        ).newRow,
        IdempotencyRecord(
          workspaceID: id, key: "k", requestHash: "h",
          answer: StoredAnswer(status: .created, contentType: "", body: Data()), createdAt: Date()
        ).newRow,
        Workspace(id: id, name: "Shop", currency: "USD", creatorID: id, createdAt: Date()).newRow,
        Membership(workspaceID: id, userID: id, role: .owner, createdAt: Date()).newRow,
        Invitation(
          workspaceID: id, tokenHash: "h", role: .editor, createdBy: id, expiresAt: Date(),
          createdAt: Date()
        ).newRow,
        ImportJobRecord(
          workspaceID: id, area: .expenses, keepDuplicates: false, total: 1, invalid: 0,
          problems: "[]", runner: "r", now: Date()
        ).newRow,
        ImportJobPayload(jobID: id, rows: "[]").newRow,
        MarketingCatalogRecord(
          catalogJSON: "{}", source: "bundled", sourceDetail: nil, fetchedAt: Date()
        ).newRow,
      ]
      for row in rows {
        var expected = try await tableColumns(row.table, on: t.db)
        // Numbered by the change feed's triggers, never by a writer.
        expected.remove("change_seq")
        #expect(!expected.isEmpty, "\(row.table) has no columns")
        #expect(Set(row.columns) == expected, "\(row.table)")
        #expect(row.columns.count == row.values.count, "\(row.table)")
      }
    }
  }

  /// What reads select is there to read.
  @Test func readsSelectColumnsTheTableHas() async throws {
    try await withApp { t in
      let table = try await tableColumns(ProductStore.table, on: t.db)
      let read = ProductStore.columns.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "p.", with: "")
      }
      #expect(read.count == 12)
      #expect(Set(read).isSubset(of: table), "\(Set(read).subtracting(table))")
    }
  }

  /// A whole expense, receipt or token read selects every column its row maker writes, so
  /// what is read back is what was stored.
  @Test func recordReadsSelectWhatTheirRowsWrite() async throws {
    let id = UUID.random()
    let photo = try CheckedPhoto.check(ProductImages.png(width: 4, height: 3), maxBytes: 1 << 20)
      .get()
    let pairs: [(read: String, written: NewRow)] = [
      (
        ExpenseRecord.columns,
        try ExpenseRecord(
          workspaceID: id, Expense(title: "Ink", amount: 3, category: .default, date: nil),
          createdAt: Date()
        ).newRow
      ),
      (
        ExpenseReceipt.columns,
        ExpenseReceipt(
          workspaceID: id, expenseID: id, photo: photo, isPublic: true, position: 0,
          createdAt: Date()
        ).newRow
      ),
      (
        APIToken.columns,
        APIToken(
          userID: id, workspaceID: id, name: "CI", tokenHash: "h", prefix: "bo_", createdAt: Date()
        ).newRow
      ),
    ]
    for (read, written) in pairs {
      let columns = read.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      #expect(columns == written.columns, "\(written.table)")
    }
  }
}
