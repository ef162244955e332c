import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit
import Vapor

/// Every fundraiser query, always scoped to one account: another account's fundraiser, its
/// photo and its snapshots are simply never found.
struct FundraiserStore {
  var db: any Database
  var workspaceID: UUID

  struct Slice {
    var items: [FundraiserRecord]
    var total: Int
  }

  /// Newest first.
  func list(page: Int, per: Int) async throws -> Slice {
    let total = try await scoped().count()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let items = try await sorted(scoped()).offset(offset).limit(per).all()
    return Slice(items: items, total: total)
  }

  func all() async throws -> [FundraiserRecord] {
    try await sorted(scoped()).all()
  }

  func count() async throws -> Int {
    try await scoped().count()
  }

  /// The fundraiser with this id in this account; nil for another account's id, an unknown id
  /// or text that is not an id.
  func find(_ id: String?) async throws -> FundraiserRecord? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await scoped().filter(\.$id == id).first()
  }

  // MARK: the public page (no workspace: found by its address)

  /// The fundraiser whose public page is `slug`, while the page is on.
  static func published(slug: String, on db: any Database) async throws -> FundraiserRecord? {
    try await FundraiserRecord.query(on: db)
      .filter(\.$publicSlug == slug).filter(\.$isPublic == true).first()
  }

  /// The picture of the fundraiser's link previews, if one was kept.
  static func shareImage(of fundraiserID: UUID, on db: any Database) async throws
    -> FundraiserShareImageRecord?
  {
    try await FundraiserShareImageRecord.query(on: db)
      .filter(\.$fundraiser.$id == fundraiserID).first()
  }

  /// The digest of that picture, without loading it; nil when there is none.
  static func shareImageETag(of fundraiserID: UUID, on db: any Database) async throws -> String? {
    try await FundraiserShareImageRecord.query(on: db)
      .filter(\.$fundraiser.$id == fundraiserID)
      .field(\.$id).field(\.$etag).first()?.etag
  }

  // MARK: the jar refresh (every workspace)

  /// Every fundraiser whose jar is asked: active ones with a jar, oldest first.
  static func asking(on db: any Database) async throws -> [FundraiserRecord] {
    try await FundraiserRecord.query(on: db).filter(\.$jarID != nil)
      .filter(\.$stageValue == FundraiserStage.active.rawValue)
      .sort(\.$createdAt).all()
  }

  /// True while the fundraiser is still active (not closed or deleted meanwhile).
  static func isActive(_ id: UUID, on db: any Database) async throws -> Bool {
    try await FundraiserRecord.query(on: db).filter(\.$id == id)
      .filter(\.$stageValue == FundraiserStage.active.rawValue).count() > 0
  }

  // MARK: writes

  /// A fundraiser's photo as a write brings it: a draft the form kept, or an upload.
  enum NewPhoto {
    case draft(UUID)
    case upload(ValidPhoto, now: Date)
  }

  /// Stores `campaign` as a new fundraiser with `photo`, in one transaction.
  func create(_ campaign: Campaign, photo: NewPhoto) async throws -> FundraiserRecord {
    let record = FundraiserRecord(workspaceID: workspaceID, campaign: campaign)
    let workspaceID = workspaceID
    try await db.transaction { db in
      try await record.create(on: db)
      try await Self.attach(photo, to: record.requireID(), workspaceID: workspaceID, on: db)
    }
    return record
  }

  /// `record` changed to `campaign` (and `photo`, when one is given), only from version
  /// `expected` (any version when nil); false when it was changed or deleted since, and then
  /// nothing is written.
  func update(
    _ record: FundraiserRecord, to campaign: Campaign, photo: NewPhoto?, expected: Int?
  ) async throws -> Bool {
    let id = try record.requireID()
    let workspaceID = workspaceID
    return try await record.write(expected: expected, on: db) { db in
      record.apply(campaign)
      try await record.save(on: db)
      if let photo { try await Self.attach(photo, to: id, workspaceID: workspaceID, on: db) }
    }
  }

  /// Opens (`isPublic`) or closes the public page; its address is made the first time.
  func setPublic(_ record: FundraiserRecord, _ isPublic: Bool) async throws {
    if isPublic, record.publicSlug == nil {
      // A clash of two random addresses is next to impossible; the unique index refuses one.
      record.publicSlug = PublicSlug.make()
    }
    record.isPublic = isPublic
    try await record.save(on: db)
  }

  /// Keeps `upload` as the picture of the fundraiser's link previews, replacing any before.
  func saveShareImage(_ upload: ValidPhoto, for fundraiserID: UUID) async throws {
    let image =
      try await Self.shareImage(of: fundraiserID, on: db) ?? FundraiserShareImageRecord()
    image.$fundraiser.id = fundraiserID
    image.data = upload.data
    image.etag = upload.etag
    try await image.save(on: db)
  }

  private static func attach(
    _ photo: NewPhoto, to fundraiserID: UUID, workspaceID: UUID, on db: any Database
  ) async throws {
    let draft: UUID
    switch photo {
    case .draft(let id): draft = id
    case .upload(let upload, let now):
      draft = try await FundraiserPhotos.saveDraft(
        upload, workspaceID: workspaceID, now: now, on: db)
    }
    try await FundraiserPhotos.attach(draftID: draft, to: fundraiserID, on: db)
  }

  /// Deletes the fundraiser with its photo and jar history, if it still has version
  /// `expected` (any version when nil); false when it was changed or deleted meanwhile. Its
  /// expenses stay, unlinked, each with a new version (their `fundraiser_id` changed).
  static func delete(_ record: FundraiserRecord, expected: Int?, on db: any Database)
    async throws -> Bool
  {
    let id = try record.requireID()
    return try await record.write(expected: expected, on: db) { db in
      try await JarSnapshotRecord.query(on: db).filter(\.$fundraiser.$id == id).delete()
      try await FundraiserPhotoRecord.query(on: db).filter(\.$fundraiser.$id == id).delete()
      if let sql = db as? any SQLDatabase {
        try await sql.update(ExpenseRecord.table)
          .set("fundraiser_id", to: SQLLiteral.null)
          .set(
            "version",
            to: SQLBinaryExpression(SQLIdentifier("version"), .add, SQLLiteral.numeric("1"))
          )
          .where("fundraiser_id", .equal, id)
          .where("workspace_id", .equal, record.workspaceID)
          .run()
      }
      try await record.delete(on: db)
    }
  }

  private func scoped() -> QueryBuilder<FundraiserRecord> {
    FundraiserRecord.query(on: db).filter(\.$workspaceID == workspaceID)
  }

  private func sorted(_ query: QueryBuilder<FundraiserRecord>) -> QueryBuilder<FundraiserRecord> {
    query.sort(\.$createdAt, .descending).sort(\.$id)
  }
}

/// Photos, read and written only for a fundraiser already found in the right account, or by
/// photo id within one account.
enum FundraiserPhotos {
  static func photo(for fundraiserID: UUID, on db: any Database) async throws
    -> FundraiserPhotoRecord?
  {
    try await FundraiserPhotoRecord.query(on: db).filter(\.$fundraiser.$id == fundraiserID)
      .first()
  }

  /// The photo's id and ETag, without loading its bytes.
  static func reference(for fundraiserID: UUID, on db: any Database) async throws
    -> (id: UUID, etag: String)?
  {
    guard
      let row = try await FundraiserPhotoRecord.query(on: db)
        .filter(\.$fundraiser.$id == fundraiserID).field(\.$id).field(\.$etag).first(),
      let id = row.id
    else { return nil }
    return (id, row.etag)
  }

  /// Any photo of the account, draft or attached; nil for another account's photo.
  static func photo(id: String?, workspaceID: UUID, on db: any Database) async throws
    -> FundraiserPhotoRecord?
  {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await FundraiserPhotoRecord.query(on: db).filter(\.$id == id)
      .filter(\.$workspaceID == workspaceID).first()
  }

  /// A draft of the account (a photo not attached to any fundraiser yet), by id.
  static func draft(id: String?, workspaceID: UUID, on db: any Database) async throws -> UUID? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await FundraiserPhotoRecord.query(on: db).filter(\.$id == id)
      .filter(\.$workspaceID == workspaceID).filter(\.$fundraiser.$id == nil)
      .field(\.$id).first()?.id
  }

  /// Keeps an upload as a draft until the form passes. Dated `now` (the app's clock), the
  /// clock `pruneDrafts` is asked with.
  static func saveDraft(_ upload: ValidPhoto, workspaceID: UUID, now: Date, on db: any Database)
    async throws -> UUID
  {
    let draft = FundraiserPhotoRecord(
      workspaceID: workspaceID, fundraiserID: nil, data: upload.data, info: upload.info,
      etag: upload.etag)
    // `create` would stamp the system clock; a bulk insert keeps the date as set.
    let id = UUID.random()
    draft.id = id
    draft.createdAt = now
    try await BulkInsert.insert([draft], on: db)
    return id
  }

  /// Makes the draft the fundraiser's photo, replacing the one it had.
  static func attach(draftID: UUID, to fundraiserID: UUID, on db: any Database) async throws {
    try await FundraiserPhotoRecord.query(on: db).filter(\.$fundraiser.$id == fundraiserID)
      .delete()
    try await FundraiserPhotoRecord.query(on: db).filter(\.$id == draftID)
      .set(\.$fundraiser.$id, to: fundraiserID).update()
  }

  /// Drafts nobody came back for.
  static func pruneDrafts(olderThan cutoff: Date, on db: any Database) async throws {
    try await FundraiserPhotoRecord.query(on: db).filter(\.$fundraiser.$id == nil)
      .filter(\.$createdAt < cutoff).delete()
  }
}

/// An uploaded photo that passed Core's check.
struct ValidPhoto: Sendable {
  var data: Data
  var info: ImageInfo

  var etag: String { hexString(SHA256.hash(data: data)) }

  /// Nil when nothing was uploaded; the reason when the upload is not a usable photo. The photo
  /// is kept without what the camera wrote beside it (`ImageMetadata`): it is drawn into posters
  /// and public pages, and a phone's EXIF names the place it was taken.
  static func check(_ bytes: Data?, maxBytes: Int) -> Result<ValidPhoto, CampaignPhotoError>? {
    guard let bytes, !bytes.isEmpty else { return nil }
    let result = CampaignPhoto.validate([UInt8](bytes), maxBytes: maxBytes)
    guard case .success(let info) = result else {
      return result.map { ValidPhoto(data: bytes, info: $0) }
    }
    let cleaned = ImageMetadata.stripped(bytes)
    if cleaned != bytes, case .success(let same) = CampaignPhoto.validate([UInt8](cleaned)),
      same == info
    {
      return .success(ValidPhoto(data: cleaned, info: same))
    }
    return .success(ValidPhoto(data: bytes, info: info))
  }
}

/// What is known about a fundraiser's jar: the last good answer, and whether the last attempt
/// failed (and why). A failure never hides the good answer before it.
struct JarState: Sendable, Equatable {
  var lastGood: JarSnapshotValue?
  var lastGoodAt: Date?
  var lastAttemptAt: Date?
  /// Set when the most recent attempt failed: why, in the interface language of the moment it
  /// was read (`JarFetchError.describe(stored:)`).
  var lastError: String?

  static let none = JarState()

  /// Progress against the campaign's target, else the jar's goal.
  func progress(target: Decimal?) -> FundraiserProgress? {
    guard let lastGood else { return nil }
    return FundraiserProgress(collected: lastGood.amount, target: target, jarGoal: lastGood.goal)
  }
}

enum JarSnapshots {
  /// The jar state of each fundraiser, for its current jar only, in two queries whatever the
  /// number of fundraisers (no query per card).
  static func states(for records: [FundraiserRecord], on db: any Database) async throws
    -> [UUID: JarState]
  {
    let withJar = records.filter { $0.jarID != nil && $0.id != nil }
    guard !withJar.isEmpty else { return [:] }
    var states: [UUID: JarState] = [:]
    for chunk in stride(from: 0, to: withJar.count, by: 500).map({
      Array(withJar[$0..<min($0 + 500, withJar.count)])
    }) {
      let ids = chunk.compactMap(\.id)
      let good = try await latest(ids: ids, okOnly: true, on: db)
      let any = try await latest(ids: ids, okOnly: false, on: db)
      for record in chunk {
        guard let id = record.id, let jar = record.jarID else { continue }
        var state = JarState()
        if let snapshot = good.filter({ $0.$fundraiser.id == id && $0.jarID == jar })
          .max(by: { $0.takenAt < $1.takenAt })
        {
          state.lastGood = snapshot.value
          state.lastGoodAt = snapshot.takenAt
        }
        if let attempt = any.filter({ $0.$fundraiser.id == id && $0.jarID == jar })
          .max(by: { $0.takenAt < $1.takenAt })
        {
          state.lastAttemptAt = attempt.takenAt
          state.lastError =
            attempt.ok ? nil : JarFetchError.describe(stored: attempt.error ?? "")
        }
        states[id] = state
      }
    }
    return states
  }

  static func state(for record: FundraiserRecord, on db: any Database) async throws -> JarState {
    guard let id = record.id else { return .none }
    return try await states(for: [record], on: db)[id] ?? .none
  }

  /// The newest snapshot per (fundraiser, jar) among `ids`.
  private static func latest(ids: [UUID], okOnly: Bool, on db: any Database) async throws
    -> [JarSnapshotRecord]
  {
    guard let sql = db as? any SQLDatabase else { return [] }
    var query: SQLQueryString =
      "SELECT s.id AS id FROM jar_snapshots s WHERE s.fundraiser_id IN (\(binds: ids))"
    if okOnly { query += " AND s.ok = \(bind: true)" }
    query += " AND s.taken_at = (SELECT MAX(t.taken_at) FROM jar_snapshots t"
    query += " WHERE t.fundraiser_id = s.fundraiser_id AND t.jar_id = s.jar_id"
    if okOnly { query += " AND t.ok = \(bind: true)" }
    query += ")"
    let rows = try await sql.raw(query).all()
    let snapshotIDs = try rows.map { try $0.decode(column: "id", as: UUID.self) }
    guard !snapshotIDs.isEmpty else { return [] }
    return try await JarSnapshotRecord.query(on: db).filter(\.$id ~~ snapshotIDs).all()
  }

  /// Successful fetches of the fundraiser's current jar since `since`, oldest first.
  static func history(for record: FundraiserRecord, since: Date, on db: any Database)
    async throws -> [JarSnapshotRecord]
  {
    guard let id = record.id, let jar = record.jarID else { return [] }
    return try await JarSnapshotRecord.query(on: db)
      .filter(\.$fundraiser.$id == id).filter(\.$jarID == jar).filter(\.$ok == true)
      .filter(\.$takenAt >= since)
      .sort(\.$takenAt, .ascending)
      .all()
  }

  /// The latest attempts of the current jar, newest first.
  static func recent(for record: FundraiserRecord, limit: Int, on db: any Database) async throws
    -> [JarSnapshotRecord]
  {
    guard let id = record.id, let jar = record.jarID else { return [] }
    return try await JarSnapshotRecord.query(on: db)
      .filter(\.$fundraiser.$id == id).filter(\.$jarID == jar)
      .sort(\.$takenAt, .descending).sort(\.$id)
      .limit(limit).all()
  }

  /// One page of every attempt for the fundraiser (all jars it ever had), newest first.
  static func page(for fundraiserID: UUID, page: Int, per: Int, on db: any Database)
    async throws -> (items: [JarSnapshotRecord], total: Int)
  {
    let query = JarSnapshotRecord.query(on: db).filter(\.$fundraiser.$id == fundraiserID)
    let total = try await query.copy().count()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return ([], total) }
    let items = try await query.sort(\.$takenAt, .descending).sort(\.$id)
      .offset(offset).limit(per).all()
    return (items, total)
  }
}

/// Fetching a jar and keeping the answer.
enum JarRefresh {
  /// Asks the jar of `record` and stores the outcome as a snapshot, good or not. Nil when the
  /// fundraiser has no jar. A failure is stored as `JarFetchError.storedForm`, a code rather
  /// than words: this runs in the background too, and the words are chosen when a page (in its
  /// reader's language) shows them.
  @discardableResult
  static func refresh(
    _ record: FundraiserRecord, client: JarClient, on db: any Database, now: @Sendable () -> Date
  ) async throws -> JarSnapshotRecord? {
    guard let id = record.id, let jar = record.jarID.flatMap(JarID.init(rawValue:)) else {
      return nil
    }
    let result = await client.fetch(jar)
    if case .success = result {
      AppMetrics.shared.jarRefreshes.increment()
    } else {
      AppMetrics.shared.jarRefreshFailures.increment()
    }
    let snapshot = JarSnapshotRecord(fundraiserID: id, jarID: jar, takenAt: now(), result: result)
    try await snapshot.create(on: db)
    return snapshot
  }
}
