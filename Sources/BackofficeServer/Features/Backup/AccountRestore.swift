import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit

/// Reads an `AccountBackup` into an account.
///
/// The whole file is checked first with the same rules as the forms and the API (a file edited
/// by hand cannot store what the app would refuse), then written in one transaction: either
/// everything is added or nothing is.
///
/// Into an empty account (the usual restore) the account also takes the file's language and
/// currency. Into an account that already has records, the import is refused unless `merge` is
/// set; a merge keeps the account's settings, refuses a file whose amounts are in another
/// currency, and skips records the account already has (same id), so importing the same file
/// twice adds nothing the second time.
///
/// Records keep their ids unless another account uses the same id (a file imported into a
/// second account on the same server); those get new ids, derived from the old id and the
/// account so a repeated import recognises them, and references inside the file (photos,
/// favourites, jar history) follow. Product numbers are kept unless the account already
/// uses one; such products get the next free numbers.
enum AccountRestore {
  struct Outcome: Equatable {
    var added = BackupCounts()
    /// Records the account already had (merge only).
    var skipped = BackupCounts()
    /// Records that got a new id because another account uses theirs.
    var renamed = 0
    /// Products that got a new number because the account already used theirs.
    var renumbered = 0

    var summary: String {
      var text = "Imported \(added.summary)."
      if skipped.total > 0 { text += " Already present, skipped: \(skipped.summary)." }
      if renumbered > 0 {
        text +=
          " \(renumbered) product\(renumbered == 1 ? "" : "s") got a new number"
          + " because the account already used theirs."
      }
      return text
    }
  }

  /// At most this many problems are listed; the rest are counted.
  static let problemsShown = 20

  static func run(
    _ backup: AccountBackup, into userID: UUID, merge: Bool, maxPhotoBytes: Int,
    on db: any Database
  ) async throws -> Outcome {
    guard let user = try await User.find(userID, on: db) else {
      throw BackupError("The account does not exist.")
    }
    let checked = try Checked(backup, maxPhotoBytes: maxPhotoBytes)
    // Everything below reads and writes in one transaction, so the checks still hold when
    // the records are written, even with the server running.
    return try await db.transaction { db in
      try await write(backup, checked: checked, user: user, merge: merge, on: db)
    }
  }

  private static func write(
    _ backup: AccountBackup, checked: Checked, user: User, merge: Bool, on db: any Database
  ) async throws -> Outcome {
    let userID = try user.requireID()
    let present = try await existingCounts(userID: userID, on: db)
    if !merge, present.total > 0 {
      throw BackupError(
        "This account already has data (\(present.summary)). Import into an empty account, "
          + "or ask for a merge to add the file's records next to what is there.")
    }
    if merge, present.total > 0, user.currency != checked.currency,
      !backup.products.items.isEmpty || !backup.expenses.isEmpty
    {
      throw BackupError(
        "The file's amounts are in \(checked.currency) and this account uses "
          + "\(user.currency); amounts are never converted. Change the account's currency in "
          + "Settings first, or import into an empty account.")
    }

    let ids = try await IDPlan.make(for: backup, userID: userID, on: db)
    try await ids.reclaim(userID: userID, on: db)
    var outcome = Outcome()
    outcome.renamed = ids.renamedCount
    if present.total == 0 {
      user.locale = checked.locale.identifier
      user.currency = checked.currency
      try await user.save(on: db)
    }
    try await insertProducts(
      backup.products, checked: checked.products, ids: ids, userID: userID, on: db,
      outcome: &outcome)
    try await insertExpenses(
      checked.expenses, ids: ids, userID: userID, on: db, outcome: &outcome)
    try await insertAdPayments(
      checked.adPayments, ids: ids, userID: userID, on: db, outcome: &outcome)
    try await insertPlans(checked.plans, ids: ids, userID: userID, on: db, outcome: &outcome)
    try await insertFundraisers(
      checked.fundraisers, ids: ids, userID: userID, on: db, outcome: &outcome)
    return outcome
  }

  /// Visible records of the account in each area.
  static func existingCounts(userID: UUID, on db: any Database) async throws -> BackupCounts {
    BackupCounts(
      products: try await ProductRecord.query(on: db).filter(\.$user.$id == userID).count(),
      expenses: try await ExpenseRecord.query(on: db).filter(\.$user.$id == userID)
        .filter(\.$deletedAt == nil).count(),
      adPayments: try await AdPaymentEntry.query(on: db).filter(\.$user.$id == userID).count(),
      marketingPlans: try await MarketingPlanRecord.query(on: db)
        .filter(\.$user.$id == userID).count(),
      fundraisers: try await FundraiserRecord.query(on: db).filter(\.$user.$id == userID)
        .count())
  }

  // MARK: - checking the file

  /// The file's records as the app's own values, or every problem found.
  struct Checked {
    /// Highest product number a file may use; far above any real catalog, far below overflow.
    static let maxNumber = 1_000_000_000
    /// Highest record version a file may give; far above any real record, far below overflow.
    static let maxVersion = 1_000_000_000

    var locale: BackofficeLocale
    /// The file's currency as the app writes codes ("EUR").
    var currency: String
    var products: [(item: AccountBackup.ProductItem, product: Product, photo: CheckedPhoto?)] =
      []
    var expenses: [(item: AccountBackup.ExpenseItem, expense: Expense)] = []
    var adPayments: [(item: AccountBackup.AdPaymentItem, payment: AdPayment)] = []
    var plans:
      [(item: AccountBackup.MarketingPlanItem, name: String, recipient: String, subject: String?)] =
        []
    var fundraisers:
      [(
        item: AccountBackup.FundraiserItem, campaign: Campaign, photo: ValidPhoto,
        snapshots: [AccountBackup.JarSnapshotItem]
      )] = []

    init(_ backup: AccountBackup, maxPhotoBytes: Int) throws(BackupError) {
      var problems: [String] = []
      func problem(_ text: String) { problems.append(text) }

      let account = backup.account
      let locale = BackofficeLocale(identifier: account.locale)
      if locale == nil {
        problem(
          "account.locale: \"\(account.locale)\" is not one of "
            + BackofficeLocale.supported.map(\.identifier).joined(separator: ", ") + ".")
      }
      let currency = Currency.lookup(account.currency)
      if currency == nil {
        problem("account.currency: \"\(account.currency)\" is not an ISO 4217 code.")
      }
      self.locale = locale ?? .enUS
      self.currency = currency?.code ?? account.currency

      var seen = Set<UUID>()
      func unique(_ id: UUID, _ at: String) {
        if !seen.insert(id).inserted { problem("\(at).id: \(id) appears twice in the file.") }
      }
      func versioned(_ version: Int?, _ at: String) {
        if let version, !(1...Self.maxVersion).contains(version) {
          problem("\(at).version: must be from 1 to \(Self.maxVersion).")
        }
      }

      if !(0...Self.maxNumber).contains(backup.products.lastNumber) {
        problem("products.last_number: must be from 0 to \(Self.maxNumber).")
      }
      var numbers = Set<Int>()
      for (index, item) in backup.products.items.enumerated() {
        let at = "products[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        if !(1...Self.maxNumber).contains(item.number) {
          problem("\(at).number: must be from 1 to \(Self.maxNumber).")
        }
        if !numbers.insert(item.number).inserted {
          problem("\(at).number: \(item.number) appears twice in the file.")
        }
        let input = ProductInput(
          name: item.name, type: item.type, price: DecimalInput(item.price),
          tax: DecimalInput(item.tax))
        var photo: CheckedPhoto?
        if let file = item.photo {
          switch CheckedPhoto.check(file.data, maxBytes: maxPhotoBytes) {
          case .success(let checked): photo = checked
          case .failure(let error): problem("\(at).photo: \(error.message)")
          }
        }
        switch input.validate() {
        case .success(let product): products.append((item, product, photo))
        case .failure(let error):
          for field in error.errors { problem("\(at).\(field.field.rawValue): \(field.message)") }
        }
      }

      for (index, item) in backup.expenses.enumerated() {
        let at = "expenses[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        let draft = ExpenseDraft(title: item.title, amount: item.amount, category: item.category)
        switch draft.validate(
          amountSyntax: .decimalString,
          maxFractionDigits: Currency.minorUnits(for: currency?.code ?? "EUR"))
        {
        case .success(var expense):
          if expense.title != item.title {
            problem(
              "\(at).title: \"\(item.title)\" is longer than \(Expense.maxTitleLength) "
                + "characters or has surrounding spaces.")
          }
          expense.date = item.spentAt
          expenses.append((item, expense))
        case .failure(let errors):
          for (field, message) in errors.fields.sorted(by: { $0.key < $1.key }) {
            problem("\(at).\(field): \(message)")
          }
        }
      }

      for (index, item) in backup.adPayments.enumerated() {
        let at = "ad_payments[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        switch AdPaymentDraft(name: item.name, url: item.url).validate() {
        case .success(let payment): adPayments.append((item, payment))
        case .failure: break
        }
        for (field, message) in AdPaymentDraft(name: item.name, url: item.url).fieldErrors
          .sorted(by: { $0.key.rawValue < $1.key.rawValue })
        {
          problem("\(at).\(field.rawValue): \(message)")
        }
      }

      for (index, item) in backup.marketingPlans.enumerated() {
        let at = "marketing_plans[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        let name = PlanName.normalize(item.name)
        let recipient = item.recipient.trimmingCharacters(in: .whitespacesAndNewlines)
        let subject = item.subject.map(MarketingPlanRules.cleanSubject).flatMap {
          $0.isEmpty ? nil : $0
        }
        var valid = true
        if let message = PlanName.problem(with: name) {
          problem("\(at).name: \(message)")
          valid = false
        }
        if let message = MarketingPlanRules.recipientProblem(recipient) {
          problem("\(at).recipient: \(message)")
          valid = false
        }
        if let subject, let message = MarketingPlanRules.subjectProblem(subject) {
          problem("\(at).subject: \(message)")
          valid = false
        }
        if valid { plans.append((item, name, recipient, subject)) }
      }

      for (index, item) in backup.fundraisers.enumerated() {
        let at = "fundraisers[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        var photo: ValidPhoto?
        switch ValidPhoto.check(item.photo?.data, maxBytes: maxPhotoBytes) {
        case .success(let valid)?: photo = valid
        case .failure(let error)?: problem("\(at).photo: \(error.message)")
        case nil: problem("\(at).photo: \(CampaignMessages.noImage)")
        }
        var jar: JarID?
        if let raw = item.jarId {
          jar = JarID(rawValue: raw)
          if jar == nil { problem("\(at).jar_id: \"\(raw)\" is not a jar id.") }
        }
        let template = PosterTemplate(number: item.template)
        if template == nil { problem("\(at).template: a number from 1 to 15.") }
        let draft = CampaignDraft(
          purpose: item.purpose, targetText: item.target ?? "", hasPhoto: true,
          template: template ?? .blueLinear,
          imagePlacement: ImagePlacement(
            scale: item.scale, offsetX: item.offsetX, offsetY: item.offsetY),
          showProgress: item.showProgress)
        var campaign: Campaign?
        do throws(CampaignValidationErrors) {
          campaign = try draft.validate()
          campaign?.jar = jar
        } catch {
          for field in error.fields {
            problem("\(at).\(field.rawValue): \(error[field] ?? "")")
          }
        }
        for (position, snapshot) in item.jarSnapshots.enumerated()
        where JarID(rawValue: snapshot.jarId) == nil {
          problem("\(at).jar_snapshots[\(position)].jar_id: \"\(snapshot.jarId)\" is not a jar id.")
        }
        if let campaign, let photo {
          fundraisers.append((item, campaign, photo, item.jarSnapshots))
        }
      }

      guard problems.isEmpty else {
        var lines = problems.prefix(AccountRestore.problemsShown).map { "  - " + $0 }
        if problems.count > AccountRestore.problemsShown {
          lines.append("  … and \(problems.count - AccountRestore.problemsShown) more.")
        }
        throw BackupError(
          "Nothing was imported; the file has \(problems.count) problem"
            + "\(problems.count == 1 ? "" : "s"):\n" + lines.joined(separator: "\n"))
      }
    }
  }

  // MARK: - ids

  /// For every record id in the file: keep it, give it a new one, or skip the record because
  /// the account already has it.
  ///
  /// A record whose id another account uses gets an id derived from the original and this
  /// account, the same every time; so importing the same file into the same account again
  /// finds the records it added the first time instead of adding them twice.
  struct IDPlan {
    private var mine = Set<UUID>()
    private var renamed: [UUID: UUID] = [:]
    /// The account's own deleted expenses (waiting for their undo) that the file brings back:
    /// removed for good, and the file's copy takes their id, so an undo cannot double them.
    private var hidden: [UUID] = []

    var renamedCount: Int { renamed.count }

    func alreadyPresent(_ id: UUID) -> Bool { mine.contains(id) }
    func id(for original: UUID) -> UUID { renamed[original] ?? original }

    static func make(for backup: AccountBackup, userID: UUID, on db: any Database) async throws
      -> IDPlan
    {
      var plan = IDPlan()
      try await plan.sort(
        ProductRecord.self, backup.products.items.map(\.id), userID: userID, on: db
      ) { ($0.$user.id, true) }
      try await plan.sort(ExpenseRecord.self, backup.expenses.map(\.id), userID: userID, on: db) {
        ($0.$user.id, $0.deletedAt == nil)
      }
      try await plan.sort(AdPaymentEntry.self, backup.adPayments.map(\.id), userID: userID, on: db)
      {
        ($0.$user.id, true)
      }
      try await plan.sort(
        MarketingPlanRecord.self, backup.marketingPlans.map(\.id), userID: userID, on: db
      ) { ($0.$user.id, true) }
      try await plan.sort(
        FundraiserRecord.self, backup.fundraisers.map(\.id), userID: userID, on: db
      ) { ($0.$user.id, true) }
      return plan
    }

    /// `read` gives a row's owner and whether the owner can see it (a deleted expense waiting
    /// for its undo cannot be seen, and is not "already present").
    private mutating func sort<M: Model>(
      _ type: M.Type, _ ids: [UUID], userID: UUID, on db: any Database,
      _ read: @escaping (M) -> (owner: UUID, visible: Bool)
    ) async throws where M.IDValue == UUID {
      let found = try await Self.rows(M.self, ids, on: db, read)
      var taken: [UUID: UUID] = [:]
      for id in ids {
        guard let row = found[id] else { continue }
        if row.owner == userID, row.visible {
          mine.insert(id)
        } else if row.owner == userID, M.self == ExpenseRecord.self {
          hidden.append(id)
        } else {
          taken[id] = Self.derived(from: id, for: userID)
        }
      }
      let second = try await Self.rows(M.self, Array(taken.values), on: db, read)
      for (original, derived) in taken {
        if let row = second[derived] {
          if row.owner == userID, row.visible {
            mine.insert(original)
          } else {
            renamed[original] = UUID()
          }
        } else {
          renamed[original] = derived
        }
      }
    }

    func reclaim(userID: UUID, on db: any Database) async throws {
      guard !hidden.isEmpty else { return }
      try await ExpenseRecord.query(on: db).filter(\.$user.$id == userID)
        .filter(\.$id ~~ hidden).filter(\.$deletedAt != nil).delete()
    }

    /// The rows among `ids` that exist in any account, in chunks the databases accept.
    private static func rows<M: Model>(
      _ type: M.Type, _ ids: [UUID], on db: any Database,
      _ read: (M) -> (owner: UUID, visible: Bool)
    ) async throws -> [UUID: (owner: UUID, visible: Bool)] where M.IDValue == UUID {
      var found: [UUID: (owner: UUID, visible: Bool)] = [:]
      var start = 0
      while start < ids.count {
        let chunk = Array(ids[start..<min(start + 500, ids.count)])
        for row in try await M.query(on: db).filter(\._$id ~~ chunk).all() {
          if let id = row.id { found[id] = read(row) }
        }
        start += chunk.count
      }
      return found
    }

    /// A name-based (version 5 style) UUID from the original id and the account.
    static func derived(from original: UUID, for userID: UUID) -> UUID {
      var bytes = Array(SHA256.hash(data: Data((original.uuidString + userID.uuidString).utf8)))
      bytes[6] = (bytes[6] & 0x0F) | 0x50
      bytes[8] = (bytes[8] & 0x3F) | 0x80
      return UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }

  // MARK: - writing

  private static func insertProducts(
    _ file: AccountBackup.Products,
    checked: [(item: AccountBackup.ProductItem, product: Product, photo: CheckedPhoto?)],
    ids: IDPlan, userID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var used = Set(
      try await ProductRecord.query(on: db).filter(\.$user.$id == userID).all(\.$number))
    // Numbers up to the account's counter were handed out before, perhaps to a product since
    // deleted; a Swipe client may still remember them, so they are not given out again.
    let handedOut =
      try await ProductCounter.query(on: db).filter(\.$userID == userID).first()?.lastNumber ?? 0
    var next = max(handedOut, used.max() ?? 0, file.lastNumber)
    var records: [ProductRecord] = []
    var photos: [ProductPhoto] = []
    var favorites: [ProductFavorite] = []
    for (item, product, photo) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.products += 1
        continue
      }
      var number = item.number
      if used.contains(number) || number <= handedOut {
        next += 1
        number = next
        outcome.renumbered += 1
      }
      used.insert(number)
      let id = ids.id(for: item.id)
      let record = ProductRecord(userID: userID, number: number, product: product)
      record.id = id
      record.photoETag = photo?.sha256
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.version = item.version ?? RecordVersion.first
      records.append(record)
      if let photo {
        let stored = ProductPhoto(userID: userID, productID: id, upload: photo)
        stored.id = UUID()
        stored.createdAt = item.updatedAt
        photos.append(stored)
      }
      if let favoritedAt = item.favoritedAt {
        let favorite = ProductFavorite(userID: userID, productID: id)
        favorite.id = UUID()
        favorite.createdAt = favoritedAt
        favorites.append(favorite)
      }
    }
    try await BulkInsert.insert(records, on: db)
    try await BulkInsert.insert(photos, on: db, batch: 10)
    try await BulkInsert.insert(favorites, on: db)
    outcome.added.products = records.count

    let store = ProductStore(db: db, userID: userID)
    try await store.raiseCounter(to: max(next, used.max() ?? 0))
    try await store.adjustCount(by: records.count)
  }

  private static func insertExpenses(
    _ checked: [(item: AccountBackup.ExpenseItem, expense: Expense)], ids: IDPlan, userID: UUID,
    on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [ExpenseRecord] = []
    for (item, expense) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.expenses += 1
        continue
      }
      let record = ExpenseRecord()
      record.id = ids.id(for: item.id)
      record.$user.id = userID
      try ExpenseStore.assign(expense, to: record)
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.deletedAt = nil
      record.version = item.version ?? RecordVersion.first
      records.append(record)
    }
    try await BulkInsert.insert(records, on: db)
    outcome.added.expenses = records.count
  }

  private static func insertAdPayments(
    _ checked: [(item: AccountBackup.AdPaymentItem, payment: AdPayment)], ids: IDPlan,
    userID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [AdPaymentEntry] = []
    for (item, payment) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.adPayments += 1
        continue
      }
      let record = AdPaymentEntry(userID: userID, payment: payment)
      record.id = ids.id(for: item.id)
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.version = item.version ?? RecordVersion.first
      records.append(record)
    }
    try await BulkInsert.insert(records, on: db)
    outcome.added.adPayments = records.count
  }

  private static func insertPlans(
    _ checked: [(
      item: AccountBackup.MarketingPlanItem, name: String, recipient: String, subject: String?
    )], ids: IDPlan,
    userID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [MarketingPlanRecord] = []
    for (item, name, recipient, subject) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.marketingPlans += 1
        continue
      }
      var chosen: [String: String] = [:]
      for choice in item.packages { chosen[choice.channelId] = choice.packageId }
      let record = MarketingPlanRecord(
        userID: userID, name: name,
        selection: PlanSelection(targetNames: item.targets, chosenPackageIDs: chosen),
        recipient: recipient)
      record.id = ids.id(for: item.id)
      record.subject = subject
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.version = item.version ?? RecordVersion.first
      records.append(record)
    }
    try await BulkInsert.insert(records, on: db)
    outcome.added.marketingPlans = records.count
  }

  private static func insertFundraisers(
    _ checked: [(
      item: AccountBackup.FundraiserItem, campaign: Campaign, photo: ValidPhoto,
      snapshots: [AccountBackup.JarSnapshotItem]
    )], ids: IDPlan, userID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [FundraiserRecord] = []
    var photos: [FundraiserPhotoRecord] = []
    var snapshots: [JarSnapshotRecord] = []
    for (item, campaign, photo, history) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.fundraisers += 1
        continue
      }
      let id = ids.id(for: item.id)
      let record = FundraiserRecord(userID: userID, campaign: campaign)
      record.id = id
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.version = item.version ?? RecordVersion.first
      records.append(record)
      let stored = FundraiserPhotoRecord(
        userID: userID, fundraiserID: id, data: photo.data, info: photo.info, etag: photo.etag)
      stored.id = UUID()
      stored.createdAt = item.updatedAt
      photos.append(stored)
      for snapshot in history {
        let row = JarSnapshotRecord()
        row.id = UUID()
        row.$fundraiser.id = id
        row.jarID = snapshot.jarId
        row.takenAt = snapshot.takenAt
        row.ok = snapshot.ok
        row.amountKopiykas = snapshot.amountKopiykas
        row.goalKopiykas = snapshot.goalKopiykas
        row.status = snapshot.status
        row.error = snapshot.error
        snapshots.append(row)
      }
    }
    try await BulkInsert.insert(records, on: db)
    try await BulkInsert.insert(photos, on: db, batch: 10)
    try await BulkInsert.insert(snapshots, on: db)
    outcome.added.fundraisers = records.count
  }
}
