import BackofficeCore
import Fluent
import Foundation

/// One account's data as a single JSON document: settings and all five areas, photos
/// included (base64). `backoffice export` writes it, `backoffice import` reads it back, and the
/// Settings page offers it as a download.
///
/// Amounts are decimal strings ("12.50"), dates are ISO 8601 in UTC with milliseconds, so a
/// file read back and written again is the same file. Values the app derives (search keys, sort
/// keys, photo sizes and hashes) are not in the file; they are computed again on import by the
/// same code that computes them on every save. Record versions travel with their records, so a
/// restored record keeps the version its ETags named. Not included: the password, sessions, API
/// tokens (secrets stay on the server they were made on), expenses deleted within the undo
/// window, fundraiser photos uploaded with a form that never passed, and the shared marketing
/// catalog.
struct AccountBackup: Codable, Equatable, Sendable {
  static let formatName = "backoffice-account"
  static let currentVersion = 1

  var format = Self.formatName
  var version = Self.currentVersion
  var exportedAt: Date
  var account: Account
  var products: Products
  var expenses: [ExpenseItem]
  var adPayments: [AdPaymentItem]
  var marketingPlans: [MarketingPlanItem]
  var fundraisers: [FundraiserItem]

  struct Account: Codable, Equatable, Sendable {
    /// For the reader's information; an import goes to the account it is told to.
    var email: String
    var locale: String
    /// ISO 4217; products and expenses are amounts in this currency.
    var currency: String
    /// The interface language ("en", "uk"); absent in files written before it existed, and for
    /// an account that follows its browser.
    var language: String? = nil
  }

  struct Photo: Codable, Equatable, Sendable {
    /// For the reader's information; the type is read from the bytes on import.
    var mime: String
    var data: Data
  }

  struct Products: Codable, Equatable, Sendable {
    /// The last product number handed out; numbers are never reused, even after a delete.
    var lastNumber: Int
    var items: [ProductItem]
  }

  struct ProductItem: Codable, Equatable, Sendable {
    var id: UUID
    /// The product's number in the account (the Swipe API's `product_id`).
    var number: Int
    var name: String
    var type: String
    var price: String
    var tax: String
    /// When it was marked as a favourite; nil when it is not one.
    var favoritedAt: Date?
    var photo: Photo?
    var createdAt: Date
    var updatedAt: Date
    /// The record's version (see `RecordVersion`); files written before versions have none
    /// and their records start at 1.
    var version: Int?
  }

  struct ExpenseItem: Codable, Equatable, Sendable {
    var id: UUID
    var title: String
    var amount: String
    var category: String
    var spentAt: Date?
    var createdAt: Date
    var updatedAt: Date
    /// The record's version (see `RecordVersion`); files written before versions have none
    /// and their records start at 1.
    var version: Int?
    /// The fundraiser (in this file) the money was spent for; absent for none.
    var fundraiserId: UUID? = nil
    /// The receipt photos in their order; absent in files written before receipts, and for an
    /// expense without any.
    var receipts: [ReceiptItem]? = nil
  }

  struct ReceiptItem: Codable, Equatable, Sendable {
    /// For the reader's information; the type is read from the bytes on import.
    var mime: String
    var data: Data
    /// Shown on the fundraiser's public report.
    var `public`: Bool
  }

  struct AdPaymentItem: Codable, Equatable, Sendable {
    var id: UUID
    var name: String
    var url: String
    var createdAt: Date
    var updatedAt: Date
    /// The record's version (see `RecordVersion`); files written before versions have none
    /// and their records start at 1.
    var version: Int?
  }

  struct MarketingPlanItem: Codable, Equatable, Sendable {
    var id: UUID
    var name: String
    /// Target names in the order they were picked.
    var targets: [String]
    /// The chosen package per channel, sorted by channel id.
    var packages: [PackageChoice]
    var recipient: String
    /// nil: the dated default subject.
    var subject: String?
    var createdAt: Date
    var updatedAt: Date
    /// The record's version (see `RecordVersion`); files written before versions have none
    /// and their records start at 1.
    var version: Int?
  }

  struct PackageChoice: Codable, Equatable, Sendable {
    var channelId: String
    var packageId: String
  }

  struct FundraiserItem: Codable, Equatable, Sendable {
    var id: UUID
    var purpose: String
    /// In hryvnias, e.g. "25000.00"; nil without a target.
    var target: String?
    var jarId: String?
    var template: Int
    var scale: Double
    var offsetX: Double
    var offsetY: Double
    var showProgress: Bool
    /// Files written before the QR card have none: on, as for every fundraiser then.
    var showQr: Bool?
    var callToAction: String?
    var photo: Photo?
    /// Every fetch of the jar, oldest first: the progress chart's history.
    var jarSnapshots: [JarSnapshotItem]
    /// "active", "closed" or "reported"; files written before stages have none: active.
    var stage: String? = nil
    var closedAt: Date? = nil
    var reportedAt: Date? = nil
    var createdAt: Date
    var updatedAt: Date
    /// The record's version (see `RecordVersion`); files written before versions have none
    /// and their records start at 1.
    var version: Int?
  }

  struct JarSnapshotItem: Codable, Equatable, Sendable {
    var jarId: String
    var takenAt: Date
    var ok: Bool
    var amountKopiykas: Int64?
    var goalKopiykas: Int64?
    var status: String?
    var error: String?
  }

  /// How many records of each area the file holds.
  var counts: BackupCounts {
    BackupCounts(
      products: products.items.count, expenses: expenses.count, adPayments: adPayments.count,
      marketingPlans: marketingPlans.count, fundraisers: fundraisers.count)
  }
}

/// Records per area, for summaries such as "12 products, 3 expenses, …".
struct BackupCounts: Equatable, Sendable {
  var products = 0
  var expenses = 0
  var adPayments = 0
  var marketingPlans = 0
  var fundraisers = 0

  var total: Int { products + expenses + adPayments + marketingPlans + fundraisers }

  var summary: String {
    [
      Self.count(products, "product", "products"),
      Self.count(expenses, "expense", "expenses"),
      Self.count(adPayments, "ad payment", "ad payments"),
      Self.count(marketingPlans, "marketing plan", "marketing plans"),
      Self.count(fundraisers, "fundraiser", "fundraisers"),
    ].joined(separator: ", ")
  }

  private static func count(_ value: Int, _ one: String, _ many: String) -> String {
    "\(value) \(value == 1 ? one : many)"
  }
}

// MARK: - the file as JSON

extension AccountBackup {
  /// snake_case keys, sorted, indented; dates with milliseconds.
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(BackupDate.format(date))
    }
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = BackupDate.parse(text) else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription: "\"\(text)\" is not a date like 2026-11-22T09:30:00.000Z")
      }
      return date
    }
    return decoder
  }()

  func encoded() throws -> Data { try Self.encoder.encode(self) }

  /// Reads a file, with a message that says where it went wrong.
  static func decode(_ data: Data) throws(BackupError) -> AccountBackup {
    struct Header: Decodable {
      var format: String?
      var version: Int?
    }
    guard let header = try? decoder.decode(Header.self, from: data) else {
      throw BackupError("The file is not a JSON object; expected a Backoffice account backup.")
    }
    guard header.format == formatName else {
      throw BackupError(
        "The file is not a Backoffice account backup (its \"format\" is not \"\(formatName)\").")
    }
    guard let version = header.version, version <= currentVersion, version >= 1 else {
      throw BackupError(
        "The file was written by a newer version of Backoffice (format version "
          + "\(header.version.map(String.init) ?? "?")); this one reads version \(currentVersion)."
      )
    }
    do {
      return try decoder.decode(AccountBackup.self, from: data)
    } catch let error as DecodingError {
      throw BackupError("The file is damaged: \(describe(error))")
    } catch {
      throw BackupError("The file is damaged: \(error)")
    }
  }

  /// Keys as they are written in the file ("exported_at", not "exportedAt").
  private static func snakeCase(_ key: String) -> String {
    var out = ""
    for character in key {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }

  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let parts = context.codingPath.map { key in
        key.intValue.map { "[\($0)]" } ?? ".\(snakeCase(key.stringValue))"
      }
      let joined = parts.joined()
      return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
    switch error {
    case .keyNotFound(let key, let context):
      let at = path(context)
      return "\(at.isEmpty ? "" : at + ".")\(snakeCase(key.stringValue)) is missing."
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(path(context)) has the wrong type (\(context.debugDescription))."
    case .dataCorrupted(let context):
      let at = path(context)
      return at.isEmpty ? context.debugDescription : "\(at): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}

/// A problem with a backup file or with importing it, in words for the person running it.
struct BackupError: Error, CustomStringConvertible, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

/// ISO 8601 in UTC with milliseconds. The databases keep finer times, but PostgreSQL's driver
/// truncates to whole microseconds on the way in, so the last microsecond of a time is not
/// reliable across a round trip; whole milliseconds are, and they still order records made one
/// after another.
enum BackupDate {
  static func format(_ date: Date) -> String {
    let millis = (date.timeIntervalSince1970 * 1000).rounded()
    let seconds = (millis / 1000).rounded(.down)
    let fraction = Int(millis - seconds * 1000)
    let whole = Date(timeIntervalSince1970: seconds)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0,
      c.hour ?? 0, c.minute ?? 0, c.second ?? 0, fraction)
  }

  /// `date` as the file writes it: to the nearest millisecond.
  static func rounded(_ date: Date) -> Date {
    Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
  }

  /// Reads `2026-11-22T09:30:00Z` with or without a fraction (up to six digits).
  static func parse(_ text: String) -> Date? {
    guard text.hasSuffix("Z") else { return nil }
    var body = Substring(text.dropLast())
    var micros = 0
    if let dot = body.firstIndex(of: ".") {
      let digits = body[body.index(after: dot)...]
      guard (1...6).contains(digits.count), digits.allSatisfy(\.isASCII),
        let value = Int(digits)
      else { return nil }
      micros = value * Int(pow(10, Double(6 - digits.count)))
      body = body[..<dot]
    }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let whole = formatter.date(from: body + "Z") else { return nil }
    // Whole milliseconds are computed exactly as `rounded` does, so equal files give equal dates.
    if micros % 1000 == 0 {
      return Date(
        timeIntervalSince1970: (whole.timeIntervalSince1970 * 1000 + Double(micros / 1000)) / 1000)
    }
    return Date(
      timeIntervalSince1970: (whole.timeIntervalSince1970 * 1_000_000 + Double(micros))
        / 1_000_000)
  }
}

// MARK: - export

extension AccountBackup {
  /// Everything the workspace `workspaceID` has, in a stable order (products by number,
  /// everything else oldest first), as `person` sees it: their settings (the workspace's
  /// currency) and their favourites.
  static func export(workspaceID: UUID, person: UUID, on db: any Database, now: Date)
    async throws -> AccountBackup
  {
    // One transaction, so a server busy with the workspace meanwhile still gives a consistent
    // file; a reading one, so writers are not held up while it runs.
    try await db.readTransaction { db in
      try await exportConsistent(workspaceID: workspaceID, person: person, on: db, now: now)
    }
  }

  private static func exportConsistent(
    workspaceID: UUID, person: UUID, on db: any Database, now: Date
  ) async throws -> AccountBackup {
    guard let user = try await Accounts.find(id: person, on: db),
      let workspace = try await WorkspaceStore(db: db).find(workspaceID)
    else {
      throw BackupError("The account does not exist.")
    }
    return AccountBackup(
      exportedAt: now,
      account: Account(
        email: user.email, locale: user.locale, currency: workspace.currency,
        language: user.uiLanguage),
      products: try await exportProducts(workspaceID: workspaceID, person: person, on: db),
      expenses: try await exportExpenses(workspaceID: workspaceID, on: db),
      adPayments: try await exportAdPayments(workspaceID: workspaceID, on: db),
      marketingPlans: try await exportPlans(workspaceID: workspaceID, on: db),
      fundraisers: try await exportFundraisers(workspaceID: workspaceID, on: db))
  }

  private static func exportProducts(workspaceID: UUID, person: UUID, on db: any Database)
    async throws -> Products
  {
    // The person's marks; the workspace's products and photos.
    let store = ProductStore(db: db, workspaceID: workspaceID, viewerID: person)
    let records = try await store.all()
    let favorites = try await store.favoriteDates()
    let photos = try await store.photos()
    let counter = try await store.counter()
    let items = records.map { record in
      let (id, product) = (record.id, record.product)
      return ProductItem(
        id: id, number: record.number, name: product.name, type: product.type,
        price: MoneyFormat.decimalString(product.price, fractionDigits: 2),
        tax: MoneyFormat.decimalString(product.tax, fractionDigits: 2),
        favoritedAt: favorites[id].map(BackupDate.rounded),
        photo: photos[id].map { Photo(mime: $0.mime, data: $0.data) },
        createdAt: BackupDate.rounded(record.createdAt ?? Date(timeIntervalSince1970: 0)),
        updatedAt: BackupDate.rounded(
          record.updatedAt ?? record.createdAt ?? Date(timeIntervalSince1970: 0)),
        version: record.version)
    }
    let highest = records.map(\.number).max() ?? 0
    return Products(lastNumber: max(counter.lastNumber, highest), items: items)
  }

  private static func exportExpenses(workspaceID: UUID, on db: any Database) async throws
    -> [ExpenseItem]
  {
    let records = try await ExpenseStore(db: db, workspaceID: workspaceID).allByAge()
    // Every receipt of the workspace in one query (not one per expense), in their order.
    var receipts: [UUID: [ReceiptItem]] = [:]
    for receipt in try await ExpenseReceipts(db: db, workspaceID: workspaceID).all() {
      receipts[receipt.expenseID, default: []].append(
        ReceiptItem(mime: receipt.mime, data: receipt.data, public: receipt.isPublic))
    }
    let items = records.map { record in
      let id = record.id
      return ExpenseItem(
        id: id, title: record.title,
        amount: MoneyFormat.decimalString(
          MinorUnits(record.amountCents).decimal, fractionDigits: 2),
        category: record.category, spentAt: record.spentAt.map(BackupDate.rounded),
        createdAt: BackupDate.rounded(record.createdAt),
        updatedAt: BackupDate.rounded(record.updatedAt), version: record.version,
        fundraiserId: record.fundraiserID, receipts: receipts[id])
    }
    return items
  }

  private static func exportAdPayments(workspaceID: UUID, on db: any Database) async throws
    -> [AdPaymentItem]
  {
    try await AdPaymentStore(db: db, workspaceID: workspaceID).allByAge()
      .map { record in
        let created = BackupDate.rounded(record.createdAt ?? Date(timeIntervalSince1970: 0))
        return AdPaymentItem(
          id: record.id, name: record.name, url: record.url, createdAt: created,
          updatedAt: record.updatedAt.map(BackupDate.rounded) ?? created, version: record.version)
      }
  }

  private static func exportPlans(workspaceID: UUID, on db: any Database) async throws
    -> [MarketingPlanItem]
  {
    try await MarketingPlanQueries.all(in: workspaceID, on: db)
      .map { record in
        let selection = record.selection
        let created = BackupDate.rounded(record.createdAt ?? Date(timeIntervalSince1970: 0))
        return MarketingPlanItem(
          id: record.id, name: record.name, targets: selection.targetNames,
          packages: selection.chosenPackageIDs.sorted { $0.key < $1.key }.map {
            PackageChoice(channelId: $0.key, packageId: $0.value)
          },
          recipient: record.recipient, subject: record.subject, createdAt: created,
          updatedAt: record.updatedAt.map(BackupDate.rounded) ?? created, version: record.version)
      }
  }

  private static func exportFundraisers(workspaceID: UUID, on db: any Database) async throws
    -> [FundraiserItem]
  {
    let records = try await FundraiserStore(db: db, workspaceID: workspaceID).allByAge()
    let ids = records.map(\.id)
    var photos: [UUID: Photo] = [:]
    var snapshots: [UUID: [JarSnapshotItem]] = [:]
    if !ids.isEmpty {
      for photo in try await FundraiserPhotos.photos(of: ids, workspaceID: workspaceID, on: db) {
        if let owner = photo.fundraiserID {
          photos[owner] = Photo(mime: photo.mime, data: photo.data)
        }
      }
      for snapshot in try await JarSnapshots.all(of: ids, on: db) {
        snapshots[snapshot.fundraiserID, default: []].append(
          JarSnapshotItem(
            jarId: snapshot.jarID, takenAt: BackupDate.rounded(snapshot.takenAt), ok: snapshot.ok,
            amountKopiykas: snapshot.amountKopiykas, goalKopiykas: snapshot.goalKopiykas,
            status: snapshot.status, error: snapshot.error))
      }
    }
    return records.map { record in
      let id = record.id
      let created = BackupDate.rounded(record.createdAt ?? Date(timeIntervalSince1970: 0))
      return FundraiserItem(
        id: id, purpose: record.purpose,
        target: record.targetKopiykas.map {
          MoneyFormat.decimalString(MinorUnits($0).decimal, fractionDigits: 2)
        },
        jarId: record.jarID, template: record.template, scale: record.scale,
        offsetX: record.offsetX, offsetY: record.offsetY, showProgress: record.showProgress,
        showQr: record.showQR, callToAction: record.callToAction, photo: photos[id],
        jarSnapshots: snapshots[id] ?? [],
        stage: record.stage == .active ? nil : record.stage.rawValue,
        closedAt: record.closedAt.map(BackupDate.rounded),
        reportedAt: record.reportedAt.map(BackupDate.rounded), createdAt: created,
        updatedAt: record.updatedAt.map(BackupDate.rounded) ?? created, version: record.version)
    }
  }
}
