import Foundation
import Testing

/// Each area's SQL lives in its store (`ProductStore`, `ExpenseStore`, `WorkspaceStore`, …):
/// controllers, middleware, views, commands and jobs ask a store and never query the model
/// layer or write SQL themselves, so a field added to a record touches one store, one
/// migration and its views (docs/DEVELOPING.md, "From a route to SQL").
@Suite("Stores hold the SQL")
struct StoreBoundaryTests {
  /// What only a store may write: model-layer queries and writes, transactions, raw SQL.
  /// Matched on the whole text, so a call split over lines is seen too.
  static let storeOnly: [(String, NSRegularExpression)] = [
    ("a model-layer query", #"\.query\(\s*on:"#),
    ("a model-layer write", #"\.(save|create|delete|update)\(\s*on:"#),
    (
      "a model looked up by id",
      #"\b(User|Workspace|Membership|APIToken|\w+Record|\w+Entry)\.find\("#
    ),
    ("a transaction", #"\.transaction\s*\{"#),
    ("a versioned write", #"\.write\(\s*expected:"#),
    ("raw SQL", #"\.raw\(|"\s*(SELECT\s|INSERT INTO\s|UPDATE\s+\w+\s+SET\s|DELETE FROM\s)"#),
  ].map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }

  /// Files that answer requests or run work: by their names, or because they declare a
  /// middleware, a responder or a route collection (a store's file declares none).
  static let callerNames = try! NSRegularExpression(
    pattern: #"(Controller|Middleware|Page|View|Views|Command|Commands|Job)(\+\w+)?\.swift$"#)
  static let callerDeclarations = try! NSRegularExpression(
    pattern: #":\s*(Async)?Middleware\b|:\s*RouteCollection\b|:\s*(Async)?Responder\b"#)

  static var sources: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/BackofficeServer")
  }

  static func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
    pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// Every place in `text` that does what only a store may, with its line and what it does.
  static func findings(in text: String) -> [String] {
    // Comments say what stores do; blank them, keeping the lines where they are.
    let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String(line)
    }.joined(separator: "\n")
    let whole = NSRange(code.startIndex..., in: code)
    let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
    // The first rule a line breaks, once per line.
    var found: [Int: String] = [:]
    for (rule, pattern) in storeOnly {
      for match in pattern.matches(in: code, range: whole) {
        guard let range = Range(match.range, in: code) else { continue }
        let line = code[..<range.lowerBound].filter { $0 == "\n" }.count + 1
        if found[line] == nil { found[line] = rule }
      }
    }
    return found.keys.sorted().map { line in
      "line \(line): \(found[line]!): \(lines[line - 1].trimmingCharacters(in: .whitespaces))"
    }
  }

  @Test func controllersMiddlewareViewsCommandsAndJobsGoThroughStores() throws {
    let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    var checked = 0
    var problems: [String] = []
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      guard
        Self.matches(Self.callerNames, url.lastPathComponent)
          || Self.matches(Self.callerDeclarations, text)
      else { continue }
      checked += 1
      problems += Self.findings(in: text).map { "\(url.lastPathComponent) \($0)" }
    }
    #expect(checked >= 40, "the sources were not found at \(Self.sources.path)")
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
    #expect(Self.findings(in: "try await plan.write(\n  expected: 3, on: db) { _ in }").count == 1)
    #expect(
      Self.findings(in: "let a = 1\nlet b = try await X.query(\n  on: db)").first?.hasPrefix(
        "line 2") == true)
  }

  /// Every table's store holds all of its SQL and reads rows into plain values: the sources
  /// declare no model-layer class (Fluent is kept for the migrations), so a new field is the
  /// migration, the store and the views (the tests' own views of the tables are in
  /// `Helpers/*TableViews.swift`).
  @Test func noTableHasAModel() throws {
    let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    var checked = 0
    var problems: [String] = []
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      checked += 1
      let text = try String(contentsOf: url, encoding: .utf8)
      problems += Self.models(in: text).map { "\(url.lastPathComponent) declares a model: \($0)" }
    }
    #expect(checked >= 100, "the sources were not found at \(Self.sources.path)")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The types `text` declares or extends as Fluent models (`class X: Model`,
  /// `extension X: Model`, with other conformances before or after).
  static func models(in text: String) -> [String] {
    let pattern = try! NSRegularExpression(
      pattern: #"(?:class|extension|struct)\s+(\w+)\s*:[^{]*\bModel\b"#)
    return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
      Range($0.range(at: 1), in: text).map { String(text[$0]) }
    }
  }

  @Test func theModelRuleSeesADeclaredModel() {
    let model = """
      final class ProductRecord: Model, @unchecked Sendable {
        static let schema = "products"
      """
    #expect(Self.models(in: model) == ["ProductRecord"])
    #expect(Self.models(in: "extension Token: Sendable, Model {}") == ["Token"])
    let value = "struct User: Sendable {\n  static let schema = \"users\""
    #expect(Self.models(in: value).isEmpty)
    #expect(Self.models(in: "struct ModelView: Sendable {}").isEmpty)
  }

  /// Stores reach SQLKit through `db.sql()` (`Database/SQLHandle.swift`): the cast from the
  /// database handle is written once, not copied into every store with its own error. The
  /// numbered migrations keep theirs: they are history, each runs once.
  @Test func theCastToSQLIsWrittenOnce() throws {
    let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    var casts: [String] = []
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift", !url.path.contains("/Migrations/") else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      let found = Self.castsToSQL(in: text)
      if found > 0 { casts.append("\(url.lastPathComponent): \(found)") }
    }
    #expect(casts == ["SQLHandle.swift: 1"], "\(casts.joined(separator: "\n"))")
  }

  static func castsToSQL(in text: String) -> Int {
    let pattern = try! NSRegularExpression(pattern: #"as[?!]\s*(?:any\s+)?SQLDatabase\b"#)
    return pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
  }

  @Test func theCastRuleSeesACast() {
    #expect(Self.castsToSQL(in: "guard let sql = db as? any SQLDatabase else { throw x }") == 1)
    #expect(Self.castsToSQL(in: "(db as! SQLDatabase).raw(q)") == 1)
    #expect(Self.castsToSQL(in: "let sql = try db.sql()") == 0)
  }

  /// SQLite is reached through GRDB only: no file under `Sources/` imports SQLite's C module or
  /// calls its functions (GRDB's statements, cursors and rows lend a column's bytes where that
  /// matters, `Row.withUnsafeData`).
  @Test func noSourceCallsSQLiteDirectly() throws {
    let root = Self.sources.deletingLastPathComponent()
    let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    var found: [String] = []
    var read = 0
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      read += 1
      let text = try String(contentsOf: url, encoding: .utf8)
      found += Self.sqliteCalls(in: text).map { "\(url.lastPathComponent): \($0)" }
    }
    #expect(read > 100)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// The lines of `text`'s code (comments left out) that import SQLite's C interface or call
  /// one of its functions.
  static func sqliteCalls(in text: String) -> [String] {
    let pattern = try! NSRegularExpression(
      pattern: #"^\s*(@\w+\s+)*import\s+(GRDBSQLite|SQLite3|CSQLite|SQLCipher)\b"#
        + #"|\bsqlite3_\w+\s*\("#)
    return text.split(separator: "\n").map(String.init).filter { line in
      !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && Self.matches(pattern, line)
    }
  }

  @Test func theSQLiteRuleSeesACall() {
    #expect(Self.sqliteCalls(in: "import GRDBSQLite").count == 1)
    #expect(Self.sqliteCalls(in: "@preconcurrency import CSQLite").count == 1)
    #expect(Self.sqliteCalls(in: "let t = sqlite3_column_text(handle, 0)").count == 1)
    #expect(Self.sqliteCalls(in: "// SQLite says so (`sqlite3_stmt_readonly`)").isEmpty)
    #expect(Self.sqliteCalls(in: "import GRDB\nlet s = statement.isReadonly").isEmpty)
  }

  /// A request keeps its values in one object (`RequestState`, one entry in Vapor's storage),
  /// not each under a storage key of its own: Vapor copies a request's whole storage on every
  /// write. Only the application's values (set once at start) use Vapor's storage.
  @Test func aRequestKeepsItsValuesInOneObject() throws {
    let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    var found: [String] = []
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      let count = Self.requestStorageUses(in: text)
      if count > 0 { found.append("\(url.lastPathComponent): \(count)") }
    }
    #expect(found == ["RequestState.swift: 2"], "\(found.joined(separator: "\n"))")
  }

  /// How many times `storage[…]` is used inside an `extension Request` of `text`.
  static func requestStorageUses(in text: String) -> Int {
    var inRequest = false
    var count = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("extension ") || line.hasPrefix("final class ")
        || line.hasPrefix("struct ") || line.hasPrefix("enum ")
      {
        inRequest = line.hasPrefix("extension Request ") || line.hasPrefix("extension Request{")
      }
      if inRequest { count += line.components(separatedBy: "storage[").count - 1 }
    }
    return count
  }

  @Test func theRequestStorageRuleSeesAUse() {
    let use = """
      extension Request {
        var note: String? { storage[NoteKey.self] }
      }
      extension Application {
        var config: AppConfig { storage[ConfigKey.self] ?? AppConfig() }
      }
      """
    #expect(Self.requestStorageUses(in: use) == 1)
  }
}
