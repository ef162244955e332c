import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit

extension AccountRestore {
  // MARK: - writing

  static func insertProducts(
    _ file: AccountBackup.Products,
    checked: [(item: AccountBackup.ProductItem, product: Product, photo: CheckedPhoto?)],
    ids: IDPlan, workspaceID: UUID, person: UUID, on db: any Database,
    outcome: inout Outcome
  ) async throws {
    let store = ProductStore(db: db, workspaceID: workspaceID, viewerID: nil)
    var used = try await store.numbers()
    // Numbers up to the account's counter were handed out before, perhaps to a product since
    // deleted; a Swipe client may still remember them, so they are not given out again.
    let handedOut = try await store.counter().lastNumber
    var next = max(handedOut, used.max() ?? 0, file.lastNumber)
    var records: [NewRow] = []
    var photos: [NewRow] = []
    var favorites: [NewRow] = []
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
      records.append(
        ProductStore.newProduct(
          id: id, workspaceID: workspaceID, number: number, ProductStore.Values(product),
          photoETag: photo?.sha256, version: item.version ?? RecordVersion.first,
          createdAt: item.createdAt, updatedAt: item.updatedAt))
      if let photo {
        photos.append(
          ProductStore.newPhoto(
            workspaceID: workspaceID, productID: id, photo, createdAt: item.updatedAt))
      }
      if let favoritedAt = item.favoritedAt {
        // The workspace's creator's marks (a restore goes into an account's own workspace).
        favorites.append(
          ProductStore.newFavorite(
            workspaceID: workspaceID, userID: person, productID: id, createdAt: favoritedAt))
      }
    }
    try await store.insert(records)
    try await store.insert(photos, batch: 10)
    try await store.insert(favorites)
    outcome.added.products = records.count

    try await store.raiseCounter(to: max(next, used.max() ?? 0))
    try await store.adjustCount(by: records.count)
  }

  static func insertExpenses(
    _ checked: [(
      item: AccountBackup.ExpenseItem, expense: Expense,
      receipts: [(photo: CheckedPhoto, isPublic: Bool)]
    )], ids: IDPlan,
    workspaceID: UUID,
    on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [NewRow] = []
    var receipts: [ExpenseReceipt] = []
    // Links only to this workspace's fundraisers (inserted just before), whatever the file says.
    let fundraisers = Set(
      try await FundraiserStore(db: db, workspaceID: workspaceID).ids())
    for (item, expense, photos) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.expenses += 1
        continue
      }
      let id = ids.id(for: item.id)
      // The fundraisers are in by now (inserted first), under the ids the plan gave them.
      let fundraiserID = item.fundraiserId.map { ids.id(for: $0) }.flatMap {
        fundraisers.contains($0) ? $0 : nil
      }
      records.append(
        try ExpenseRecord(
          id: id, workspaceID: workspaceID, expense, fundraiserID: fundraiserID,
          createdAt: item.createdAt, updatedAt: item.updatedAt,
          version: item.version ?? RecordVersion.first
        ).newRow)
      for (position, receipt) in photos.enumerated() {
        // Files from before receipts lost their camera notes may still carry them.
        receipts.append(
          ExpenseReceipt(
            workspaceID: workspaceID, expenseID: id, photo: receipt.photo.withoutMetadata,
            isPublic: receipt.isPublic, position: position, createdAt: item.updatedAt))
      }
    }
    let store = ExpenseStore(db: db, workspaceID: workspaceID)
    try await store.insert(records)
    try await ExpenseReceipts(db: db, workspaceID: workspaceID).insert(receipts)
    outcome.added.expenses = records.count
  }

  static func insertAdPayments(
    _ checked: [(item: AccountBackup.AdPaymentItem, payment: AdPayment)], ids: IDPlan,
    workspaceID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [NewRow] = []
    for (item, payment) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.adPayments += 1
        continue
      }
      records.append(
        AdPaymentStore.newEntry(
          id: ids.id(for: item.id), workspaceID: workspaceID, payment,
          version: item.version ?? RecordVersion.first, createdAt: item.createdAt,
          updatedAt: item.updatedAt))
    }
    try await AdPaymentStore(db: db, workspaceID: workspaceID).insert(records)
    outcome.added.adPayments = records.count
  }

  static func insertPlans(
    _ checked: [(
      item: AccountBackup.MarketingPlanItem, name: String, recipient: String, subject: String?
    )], ids: IDPlan,
    workspaceID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [NewRow] = []
    for (item, name, recipient, subject) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.marketingPlans += 1
        continue
      }
      var chosen: [String: String] = [:]
      for choice in item.packages { chosen[choice.channelId] = choice.packageId }
      var record = MarketingPlanRecord(
        workspaceID: workspaceID, name: name,
        selection: PlanSelection(targetNames: item.targets, chosenPackageIDs: chosen),
        recipient: recipient)
      record.id = ids.id(for: item.id)
      record.subject = subject
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.version = item.version ?? RecordVersion.first
      records.append(record.newRow)
    }
    try await MarketingPlanQueries.insert(records, on: db)
    outcome.added.marketingPlans = records.count
  }

  static func insertFundraisers(
    _ checked: [(
      item: AccountBackup.FundraiserItem, campaign: Campaign, photo: ValidPhoto,
      snapshots: [AccountBackup.JarSnapshotItem]
    )], ids: IDPlan, workspaceID: UUID, on db: any Database, outcome: inout Outcome
  ) async throws {
    var records: [NewRow] = []
    var photos: [NewRow] = []
    var snapshots: [NewRow] = []
    for (item, campaign, photo, history) in checked {
      if ids.alreadyPresent(item.id) {
        outcome.skipped.fundraisers += 1
        continue
      }
      let id = ids.id(for: item.id)
      var record = FundraiserRecord(id: id, workspaceID: workspaceID, campaign: campaign)
      record.createdAt = item.createdAt
      record.updatedAt = item.updatedAt
      record.version = item.version ?? RecordVersion.first
      record.stage = item.stage.flatMap(FundraiserStage.init(rawValue:)) ?? .active
      record.closedAt = item.closedAt
      record.reportedAt = item.reportedAt
      records.append(record.newRow)
      photos.append(
        FundraiserPhotoRecord(
          workspaceID: workspaceID, fundraiserID: id, data: photo.data, info: photo.info,
          etag: photo.etag, createdAt: item.updatedAt
        ).newRow)
      for snapshot in history {
        snapshots.append(
          JarSnapshotRecord(
            id: UUID.random(), fundraiserID: id, jarID: snapshot.jarId,
            takenAt: snapshot.takenAt, ok: snapshot.ok, amountKopiykas: snapshot.amountKopiykas,
            goalKopiykas: snapshot.goalKopiykas, status: snapshot.status, error: snapshot.error
          ).newRow)
      }
    }
    let store = FundraiserStore(db: db, workspaceID: workspaceID)
    try await store.insert(records)
    try await store.insert(photos, batch: 10)
    try await JarSnapshots.insert(snapshots, on: db)
    outcome.added.fundraisers = records.count
  }
}
