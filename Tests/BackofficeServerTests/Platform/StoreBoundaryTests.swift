import Foundation
import Testing

/// Each area's SQL lives in its store (`ProductStore`, `ExpenseStore`, `WorkspaceStore`, …):
/// controllers, middleware, views, commands and jobs ask a store and never query the model
/// layer or write SQL themselves, so a field added to a record touches one store, one
/// migration and its views (docs/DEVELOPING.md, "From a route to SQL").
@Suite("Stores hold the SQL")
struct StoreBoundaryTests {
  /// What only a store may write: model-layer queries and writes, transactions, raw SQL.
  static let storeOnly: [(String, NSRegularExpression)] = [
    ("a model-layer query", #"\.query\(on:"#),
    ("a model-layer write", #"\.(save|create|delete|update)\(on:"#),
    (
      "a model looked up by id",
      #"\b(User|Workspace|Membership|APIToken|\w+Record|\w+Entry)\.find\("#
    ),
    ("a transaction", #"\.transaction\s*\{"#),
    ("a versioned write", #"\.write\(\s*expected:"#),
    ("raw SQL", #"\.raw\(|"\s*(SELECT\s|INSERT INTO\s|UPDATE\s+\w+\s+SET\s|DELETE FROM\s)"#),
  ].map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }

  /// Files that answer requests or run work, by their names.
  static let callers = try! NSRegularExpression(
    pattern:
      #"(Controller|Middleware|Page|View|Views|Command|Commands|Job|Lifecycle)(\+\w+)?\.swift$"#
  )

  static var sources: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/BackofficeServer")
  }

  /// Every line of `text` that does what only a store may, with what it does.
  static func findings(in text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
      number, line in
      let code = String(line)
      if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return nil }
      let range = NSRange(code.startIndex..., in: code)
      guard let rule = storeOnly.first(where: { $0.1.firstMatch(in: code, range: range) != nil })
      else { return nil }
      return "line \(number + 1): \(rule.0): \(code.trimmingCharacters(in: .whitespaces))"
    }
  }

  @Test func controllersMiddlewareViewsCommandsAndJobsGoThroughStores() throws {
    let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    var checked = 0
    var problems: [String] = []
    while let url = files?.nextObject() as? URL {
      let name = url.lastPathComponent
      guard
        Self.callers.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
      else { continue }
      checked += 1
      let text = try String(contentsOf: url, encoding: .utf8)
      problems += Self.findings(in: text).map { "\(name) \($0)" }
    }
    #expect(checked >= 30, "the sources were not found at \(Self.sources.path)")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The rule sees what it is meant to see, and leaves store calls and comments alone.
  @Test func theRuleFindsQueriesAndLeavesStoreCallsAlone() {
    #expect(Self.findings(in: "let a = try await User.query(on: req.db).all()").count == 1)
    #expect(Self.findings(in: "try await entry.save(on: db)").count == 1)
    #expect(Self.findings(in: "try await Workspace.find(id, on: db)").count == 1)
    #expect(Self.findings(in: "try await req.db.transaction { db in").count == 1)
    #expect(Self.findings(in: "try await plan.write(expected: nil, on: db) { _ in }").count == 1)
    #expect(Self.findings(in: #"try await sql.raw("SELECT 1").run()"#).count == 1)
    #expect(Self.findings(in: #"let q: SQLQueryString = "DELETE FROM products WHERE""#).count == 1)
    #expect(Self.findings(in: #"send("DELETE /api/v1/products/\(id)")"#).isEmpty)
    #expect(Self.findings(in: "try await Accounts.find(email: e, on: req.db)").isEmpty)
    #expect(Self.findings(in: "try await store.update(entry, to: p, expected: 3)").isEmpty)
    #expect(Self.findings(in: "  // User.query(on: db) is what the store does").isEmpty)
  }
}
